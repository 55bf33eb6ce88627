"""Symbol table of a project and the typing pass over the AST (spec §5 "Inference", §7)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from rulescript.diagnostics import DiagnosticBag

from . import vocab
from .ast import Ability, Condition, Element, Evaluate, ForEach, Inherit, Item, KeyLine, Meta, Process, Restriction, Statement, TriggerBlock, Value
from .context import Ctx
from .build import value_source
from .defaults import fill_defaults
from .keys import name_key
from .typecheck import CHECKED, canon, mismatch

KINDS = ("role", "team", "group", "poll", "attribute", "ability set", "location", "display")

#: (ability type, argument) → expected WWRF type
EXPECTED: dict[tuple[str, str], str] = {
    ("killing", "target"): "player", ("investigating", "target"): "player",
    ("investigating", "attribute"): "attribute", ("investigating", "role"): "role",
    ("disguising", "target"): "player", ("disguising", "role"): "role",
    ("protecting", "target"): "player", ("protecting", "killings"): "killing_filter",
    ("protecting", "by"): "player", ("protecting", "location"): "location",
    ("applying", "attribute"): "attribute", ("applying", "target"): "actor",
    ("joining", "group"): "group", ("joining", "subject"): "player", ("joining", "target"): "group",
    ("joining", "membership"): "string", ("redirecting", "abilities"): "ability_type",
    ("redirecting", "from"): "player", ("redirecting", "target"): "player",
    ("manipulating", "target"): "player", ("manipulating", "amount"): "number",
    ("poll", "poll"): "poll", ("poll", "location"): "location", ("poll", "name"): "string",
    ("whispering", "from"): "location", ("whispering", "target"): "location", ("whispering", "name"): "string",
    ("granting", "role"): "role", ("granting", "target"): "player", ("granting", "from"): "player",
    ("obstructing", "target"): "player", ("obstructing", "abilities"): "ability_type",
    ("obstructing", "feedback"): "string", ("announcement", "info"): "info",
    ("announcement", "location"): "location", ("changing", "target"): "player",
    ("changing", "role"): "role", ("changing", "team"): "team", ("changing", "group"): "group",
    ("changing", "new_group"): "group", ("choices", "choice"): "string", ("choices", "target"): "player",
    ("choices", "option"): "option", ("counting", "amount"): "number", ("counting", "target"): "actor",
    ("emit", "value"): "string", ("emit", "target"): "player", ("displaying", "display"): "display",
    ("displaying", "index"): "number", ("displaying", "value"): "display_value",
    ("disband", "group"): "group", ("reset", "target"): "location", ("switching", "target"): "player",
    ("copying", "target"): "player", ("locking", "location"): "location", ("executing", "command"): "string",
    ("executing", "location"): "location", ("activating", "target"): "actor", ("activating", "status"): "string",
    ("resurrecting", "target"): "player", ("formatting", "template"): "string", ("cancel", "feedback"): "success",
    ("storing", "value"): "any", ("log", "value"): "any",
}
_CHECKED = {"role": "role", "attribute": "attribute", "team": "team", "poll": "poll", "display": "display"}
_FILTER_KINDS = {"role": "role", "origrole": "role", "attrrole": "role", "attr": "attribute",
                 "attribute": "attribute", "attrself": "attribute", "group": "group", "align": "team",
                 "alignment": "team", "origalign": "team"}
_SOURCE = re.compile(r"^[A-Za-z]+:[\w -]+$")


@dataclass
class SymbolTable:
    names: dict[str, dict[str, str]] = field(default_factory=lambda: {k: {} for k in KINDS})

    def add(self, kind: str, name: str) -> None:
        self.names.setdefault(kind, {}).setdefault(name_key(name), name)

    def has(self, kind: str, name: str) -> bool:
        return name_key(name) in self.names.get(kind, {})

    def known(self, kind: str) -> list[str]:
        return sorted(self.names.get(kind, {}).values())

    def empty(self, kind: str) -> bool:
        return not self.names.get(kind)

    def infer_constant(self, text: str) -> str:
        low = text.lower()
        if low in vocab.SUCCESS_WORDS:
            return "success"
        if low in vocab.KILLING_TYPES:
            return "killing_type"
        for kind in ("role", "attribute", "team"):
            if self.has(kind, text):
                return "team" if kind == "team" else kind
        if low in vocab.CLASSES:
            return "class"
        if low in vocab.CATEGORIES:
            return "category"
        if self.has("poll", text):
            return "poll"
        if low in vocab.ABILITY_TYPES:
            return "ability_type"
        if _SOURCE.match(text):
            return "source"
        if "@" in text or len(text) > 30:
            return "info"
        return "string"


class Typer:
    """Assigns ``Value.type`` throughout an element and warns about unresolved names."""

    def __init__(self, symbols: SymbolTable, diags: DiagnosticBag, file: str) -> None:
        self.symbols = symbols
        self.ctx = Ctx(file, diags)

    def element(self, el: Element) -> None:
        self.options: dict[str, str] | None = None  # option names of the element's choices, on demand
        self.kind = el.kind
        self.items = el.items
        for item in el.items:
            self.item(item)

    def item(self, item: object) -> None:
        if isinstance(item, Inherit):
            return  # spliced items were typed in their own file
        if isinstance(item, Meta) and item.value is not None:
            self.value(item.value, "attribute" if item.kind == "role attribute" else "role")
        elif isinstance(item, KeyLine):
            for v in item.values:
                if v.kind != "words":
                    self.value(v, "player")
        elif isinstance(item, TriggerBlock):
            for v in (item.trigger.selector, item.trigger.value):
                if v is not None:
                    self.value(v, "player" if v is item.trigger.selector else None)
            if item.trigger.name == "On Poll Win" and item.trigger.value is not None:
                self.value(item.trigger.value, "poll")
            for r in item.params.restrictions:
                self.restriction(r)
            for o in item.params.other:
                if o.value is not None and o.value.kind == "words":
                    self._forced_words(o.value)
                elif o.value is not None:
                    self.value(o.value, None)
            for s in item.params.scaling:
                for v in (s.value, s.left, s.right):
                    if v is not None:
                        self.value(v, "number")
                        self._check_type(v, "number", "a scaling value")
            for stmt in item.body:
                self.statement(stmt)

    def _forced_words(self, v: Value) -> None:
        """``{Forced: Word}``: an option of one of the element's choices, else a role name, else a class or
        category name (Townsfolk, Killing)."""
        if self.options is None:
            self.options = {name_key(o): o for ab in iter_abilities(self.items)
                            if ab.type == "choices" and ab.subtype == "creation" for o in ab.options}
        if name_key(v.text) in self.options:
            v.type = "option"
        elif self.symbols.has("role", v.text):
            v.type = "role"
        elif v.text.strip().lower() in vocab.CLASSES + vocab.CATEGORIES:
            v.type = "class"  # the players whose role has that class or category
        elif self.options or not self.symbols.empty("role"):
            if v.span is not None:
                self.ctx.line = v.span.line
            self._unresolved("option or role", v.text, v, sorted(self.options.values()) + self.symbols.known("role"))

    def restriction(self, r: Restriction) -> None:
        if r.actor is not None:
            self.value(r.actor, "actor")
        if r.attribute is not None:
            self.value(r.attribute, "attribute")
        if r.count is not None:
            self.value(r.count, "number")
            self._check_type(r.count, "number", "a Quantity")
        if r.condition is not None:
            self.condition(r.condition)

    def statement(self, stmt: Statement) -> None:
        if isinstance(stmt, Ability):
            self.ability(stmt)
        elif isinstance(stmt, Process):
            for a in stmt.abilities:
                self.statement(a)
        elif isinstance(stmt, Evaluate):
            for b in stmt.branches:
                if b.condition is not None:
                    self.condition(b.condition)
                for s in b.body:
                    self.statement(s)
        elif isinstance(stmt, ForEach):
            self.value(stmt.selector, None)
            for s in stmt.body:
                self.statement(s)

    def condition(self, c: Condition) -> None:
        for op in c.operands:
            self.condition(op)
        if c.left is not None:
            self.value(c.left, None)
        if c.right is not None:
            expected = "attribute" if c.op in ("has", "lacks") else ("group" if c.op == "in" else None)
            if c.op == "votes":
                expected = "number"
            self.value(c.right, expected)

    def ability(self, ab: Ability) -> None:
        self._disambiguate(ab)
        fill_defaults(ab)
        for name, v in ab.args.items():
            base = name.rstrip("0123456789")
            expected = EXPECTED.get((ab.type, base))
            if ab.type == "loyalty" and base == "target":
                expected = "group" if ab.subtype == "group" else "team"
            if ab.type == "targeting" and ab.options:
                expected = ab.options[0].lower().replace(" ", "_")
            if ab.type == "feedback":
                expected = None
            self.value(v, expected)
            if expected in CHECKED and name not in ab.implicit:  # (filled defaults are right by construction)
                self._check_type(v, expected, base, ab)
        if ab.condition is not None:
            self.condition(ab.condition)

    def _check_type(self, v: Value, expected: str | None, what: str, ab: Ability | None = None) -> None:
        """WW304 when ``v`` cannot be of the ``expected`` type (only certain mismatches, typecheck.py).
        ``what`` names the parameter (with ``ab``: the argument name, completed here)."""
        possible = mismatch(v, expected, self.kind)
        if possible is None or expected is None:
            return
        if ab is not None:
            what = f"the {what.replace('_', ' ')} of {_ability_name(ab)}"
        if v.span is not None:
            self.ctx.line = v.span.line
        where = f" in {_a(self.kind)}" if v.kind == "selector" and v.name == "Self" and not v.props else ""
        self.ctx.error("WW304", f"{what} must be {_a(canon(expected))}, but '{value_source(v)}' is "
                       f"{' or '.join(_a(t) for t in sorted(possible))}{where}",
                       v.span.col if v.span else 1, v.span.end_col if v.span else None)

    def _disambiguate(self, ab: Ability) -> None:
        """``Add``/``Remove``: joining (a group target) or applying (an attribute subject), spec §7."""
        if ab.type != "joining" or "subject" not in ab.args:
            return
        subject, target = ab.args["subject"], ab.args.get("target")
        group_target = target is not None and (target.sigil == "#" or (target.kind == "constant" and self.symbols.has("group", target.text)))
        applying = subject.kind == "constant" or (subject.sigil == "@" and subject.name == "ThisAttr" and not subject.props)
        if group_target and not (ab.subtype == "remove" and subject.name == "ThisAttr"):
            return
        if applying:
            ab.type = "applying"
            ab.args = {("attribute" if k == "subject" else k): v for k, v in ab.args.items()}
            if ab.subtype == "add":
                self.ctx.line = ab.span.line if ab.span else 1
                self.ctx.warning("WW909", "'Add `Attribute` to …' is the newer guide's spelling; files write 'Apply'",
                                 ab.span.col if ab.span else 1)

    def value(self, v: Value, expected: str | None) -> None:
        if v.span is not None:
            self.ctx.line = v.span.line
        if v.kind == "list":
            for item in v.items:
                self.value(item, v.annotation or expected)
            if v.annotation is None:
                v.type = v.items[0].type if v.items else expected
            return
        if v.kind == "selector":
            if v.annotation is None and v.type is None and expected not in (None, "any"):
                v.type = expected
            self._check_selector(v)
            return
        if v.kind in ("constant", "info"):
            if v.annotation is None:
                if expected in (None, "any"):
                    v.type = self.symbols.infer_constant(v.text) if v.kind == "constant" else "info"
                else:
                    v.type = expected
            for emb in v.items:
                if emb.sigil:
                    self._check_selector(emb)
            check_kind = _CHECKED.get(v.type or "")
            if check_kind and v.kind == "constant" and not self.symbols.empty(check_kind) and not self.symbols.has(check_kind, v.text):
                self._unresolved(check_kind, v.text, v)
            return
        if v.type is None and expected not in (None, "any"):
            v.type = expected

    def _check_selector(self, v: Value) -> None:
        if v.sigil == "#":
            name = v.name or ""
            if not (self.symbols.empty("group") and self.symbols.empty("location")):
                if not (self.symbols.has("group", name) or self.symbols.has("location", name)):
                    self._unresolved("group", name, v, self.symbols.known("group") + self.symbols.known("location"))
            if self.symbols.has("location", name) and not self.symbols.has("group", name):
                v.type = "location" if not v.props else v.type
            return
        if v.sigil == "&" and v.name and v.name.lower() not in ("all", "self", "ind"):
            if not self.symbols.empty("team") and not self.symbols.has("team", v.name):
                self._unresolved("team", v.name, v)
        for f in v.filters:
            kind = _FILTER_KINDS.get(f.key.lower())
            if kind and not self.symbols.empty(kind) and not self.symbols.has(kind, f.value):
                self._unresolved(kind, f.value, v)

    def _unresolved(self, kind: str, name: str, v: Value, known: list[str] | None = None) -> None:
        col = v.span.col if v.span else 1
        end = v.span.end_col if v.span else None
        self.ctx.warning("WW907", f"unknown {kind} '{name}'", col, end, known or self.symbols.known(kind), name)


def _a(noun: str) -> str:
    noun = noun.replace("_", " ")
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _ability_name(ab: Ability) -> str:
    """``'Role Change'``, ``'Set Counter'``: the leading capitalised words of the ability's text."""
    words = []
    for word in ab.text.split(" "):
        if not (word[:1].isupper() and word.isalpha()):
            break
        words.append(word)
    return f"'{' '.join(words)}'" if words else f"this {ab.type} ability"


def iter_abilities(items: list[Item]) -> Iterator[Ability]:
    """Every ability of ``items`` (spliced ``Inherit`` items and nested blocks included)."""
    stack: list[object] = list(items)
    while stack:
        node = stack.pop()
        if isinstance(node, Ability):
            yield node
        elif isinstance(node, Inherit):
            stack.extend(node.items)
        elif isinstance(node, TriggerBlock):
            stack.extend(node.body)
        elif isinstance(node, Process):
            stack.extend(node.abilities)
        elif isinstance(node, Evaluate):
            for b in node.branches:
                stack.extend(b.body)
        elif isinstance(node, ForEach):
            stack.extend(node.body)


def walk_values(el: Element) -> Iterator[Value]:
    """Every value of an element (used by tests and tools)."""
    return values_of(el.items)


def values_of(items: list[object], skip: tuple[type, ...] = ()) -> Iterator[Value]:
    """Every value inside ``items``, not looking into nodes of the ``skip`` types."""
    stack: list[object] = list(items)
    while stack:
        node = stack.pop()
        if skip and isinstance(node, skip):
            continue
        if isinstance(node, Value):
            yield node
            stack.extend(node.items)
            continue
        if hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:  # type: ignore[attr-defined]
                if name == "span":
                    continue
                val = getattr(node, name)
                if isinstance(val, list):
                    stack.extend(val)
                elif isinstance(val, dict):
                    stack.extend(val.values())
                elif hasattr(val, "__dataclass_fields__"):
                    stack.append(val)
