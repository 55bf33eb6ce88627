"""Canonical WWRF text from the AST (``wwrf fmt``).

Canonical form: header, sections in their order, one blank line after each section; explicit
``Process:``/``Evaluate:`` blocks; glyph by depth (``•``, ``‣``, ``◦`` …) indented two spaces per
level; parameters in the order [R] ⟨S⟩ {O} |P|; keyword case as in the reference files.
"""

from __future__ import annotations

from .ast import Ability, Branch, Element, Evaluate, ForEach, Inherit, Item, KeyLine, Meta, Process, Statement, TriggerBlock
from .build import condition_text, trigger_text, value_source
from .keys import DEPTH_GLYPH
from .params import params_text


def _bullet(depth: int, text: str) -> str:
    return "  " * depth + DEPTH_GLYPH.get(depth, "⹀") + " " + text


def _statement(stmt: Statement, depth: int, out: list[str]) -> None:
    if isinstance(stmt, Ability):
        out.append(_bullet(depth, stmt.text))
    elif isinstance(stmt, Process):
        if len(stmt.abilities) == 1 and isinstance(stmt.abilities[0], Ability):
            out.append(_bullet(depth, "Process: " + stmt.abilities[0].text))
        else:
            out.append(_bullet(depth, "Process:"))
            for a in stmt.abilities:
                _statement(a, depth + 1, out)
    elif isinstance(stmt, Evaluate):
        out.append(_bullet(depth, "Evaluate:"))
        for b in stmt.branches:
            _branch(b, depth + 1, out)
    elif isinstance(stmt, ForEach):
        head = "For Each " + value_source(stmt.selector)
        if len(stmt.body) == 1 and isinstance(stmt.body[0], Ability):
            out.append(_bullet(depth, f"{head}: {stmt.body[0].text}"))
        else:
            out.append(_bullet(depth, head + ":"))
            for s in stmt.body:
                _statement(s, depth + 1, out)


def _branch(b: Branch, depth: int, out: list[str]) -> None:
    if b.kind == "always":
        for s in b.body:
            _statement(s, depth, out)
        return
    head = condition_text(b.condition) if b.kind == "condition" and b.condition else "Otherwise"
    if len(b.body) == 1 and isinstance(b.body[0], Ability) and not b.continues:
        out.append(_bullet(depth, f"{head}: {b.body[0].text}"))
        return
    out.append(_bullet(depth, head + ":"))
    for s in b.body:
        _statement(s, depth + 1, out)
    if b.continues:
        out.append(_bullet(depth + 1, "Continue"))


def _trigger(block: TriggerBlock, out: list[str]) -> None:
    head = trigger_text(block.trigger)
    params = params_text(block.params)
    tail = (" " + params) if params else ""
    if len(block.body) == 1 and isinstance(block.body[0], Ability):
        out.append(f"{head}: {block.body[0].text}{tail}")
        return
    out.append(f"{head}:{tail}")
    for s in block.body:
        _statement(s, 1, out)


def _item(item: Item, out: list[str]) -> None:
    if isinstance(item, Meta):
        if item.scope:
            out.append(f"{item.kind.capitalize()} {item.scope}")
        elif item.kind == "no abilities":
            out.append("No Abilities")
        else:
            label = {"require": "Require", "role attribute": "Role Attribute", "include": "Include",
                     "identity": "Identity"}[item.kind]
            out.append(f"{label}: {value_source(item.value) if item.value else ''}")
    elif isinstance(item, Inherit):
        out.append(f"Inherit: `{item.set_name}`")
    elif isinstance(item, KeyLine):
        out.append(f"{item.key}: {item.text}")
    else:
        _trigger(item, out)


def formalized_lines(el: Element) -> list[str]:
    out: list[str] = []
    if el.unfinished:
        return ["N/A"]
    for item in el.items:
        _item(item, out)
    return out


def format_element(el: Element) -> str:
    """The canonical text of one element file (ends with a newline)."""
    # a name that ends with '*' (read from "**Name * **") keeps its space: "**Name ***" reads as "Name"
    name = el.header.name + (" " if el.header.name.endswith("*") else "")
    head = f"**{name}**" + "".join(f" | {p}" for p in el.header.parts)
    out: list[str] = [head]
    if el.kind == "display":
        out.extend(el.template)
        if not el.sections:
            return "\n".join(out) + "\n"
    elif not el.sections:
        out.extend(formalized_lines(el))
        return "\n".join(out) + "\n"
    printed = False
    for sec in el.sections:
        out.append(f"__{sec.title}__")
        if sec.formalized and not printed:
            out.extend(formalized_lines(el))  # the lines of every formalized section, once
            printed = True
        elif sec.text:
            out.append(sec.text)
        out.append("")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
