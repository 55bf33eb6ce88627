"""WWRF front end: files → sections → bullet tree → per-line grammar → typed AST.

Public API (imports are deferred so that ``import wwrf_adapter`` stays light):

- :func:`load_project` — files/folders → :class:`~wwrf_adapter.project.Project`
- :func:`parse_file` — one file → ``(Element, diagnostics)``
- :func:`parse_text` — one element's text → ``(Element, diagnostics)``
- :func:`parse_line` — one formalized line or fragment → ``(node, diagnostics)``
- :func:`format_element` — canonical WWRF text of an element
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from rulescript.diagnostics import Diagnostic

    from .ast import Element
    from .project import Project

__all__ = ["load_project", "parse_file", "parse_text", "parse_line", "format_element"]


def load_project(paths: "str | Path | list[str | Path]") -> "Project":
    from .project import load_project as _load

    return _load(paths)


def parse_text(text: str, file: str = "<text>", context: "Project | None" = None) -> "tuple[Element, list[Diagnostic]]":
    """Parse one element file's text; ``context`` (a loaded project) supplies symbols and ability sets."""
    from .project import load_texts

    project = load_texts([(file, text)], extra_context=context)
    el = next(iter(project.elements.values())) if project.elements else None
    if el is None:  # pragma: no cover - read_element always yields an element
        raise ValueError("no element")
    return el, project.diagnostics


def parse_file(path: "str | Path", context: "Project | None" = None) -> "tuple[Element, list[Diagnostic]]":
    from pathlib import Path as _Path

    from .source import decode

    p = _Path(path)
    return parse_text(decode(p.read_bytes()), str(p), context)


def parse_line(text: str, start: str = "line", file: str = "<line>") -> "tuple[Any, list[Diagnostic]]":
    """Parse a fragment. ``start``: ``line`` (a trigger line, possibly with bullet lines after
    newlines), ``trigger``, ``ability``, ``condition``, ``value``, ``restrictions`` (the inside of
    ``[…]``), ``scaling`` (inside ``⟨…⟩``), ``other`` (inside ``{…}``), ``poll_manip``."""
    from rulescript.diagnostics import DiagnosticBag

    from .ast import Params
    from .build import build_ability, build_condition, build_trigger
    from .context import Ctx
    from .grammar import SegmentError
    from .lines import ParamGroup
    from .params import parse_params, parse_value_text
    from .structure import _report

    if start == "line":
        import dataclasses

        el, diags = parse_text("**Line** | Ability Set\n" + text, file)
        shifted = [dataclasses.replace(d, span=dataclasses.replace(d.span, line=max(1, d.span.line - 1),
                                                                 end_line=max(1, (d.span.end_line or d.span.line) - 1)))
                   for d in diags]
        return el.items, shifted
    bag = DiagnosticBag()
    ctx = Ctx(file, bag, 1)
    node: Any = None
    try:
        if start == "trigger":
            node = build_trigger(text, 1, ctx)
        elif start == "ability":
            node = build_ability(text, 1, ctx)
        elif start in ("condition", "poll_manip"):
            node = build_condition(text, 1, ctx, start)
        elif start == "value":
            node = parse_value_text(text, 1, ctx)
        elif start in ("restrictions", "scaling", "other"):
            node = parse_params([ParamGroup(start, text, 1, 1, len(text) + 1)], ctx, Params())
        else:
            raise ValueError(f"unknown start {start!r}")
    except SegmentError as exc:
        _report(ctx, exc)
    return node, list(bag.items)


def format_element(el: "Element") -> str:
    from .fmt import format_element as _fmt

    return _fmt(el)
