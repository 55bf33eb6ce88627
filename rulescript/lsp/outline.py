"""Document symbols for the editor's outline, and formatting of WWRF elements (``wwrf fmt``).

A rule file lists its sections (children: the keys of each), ``cards.yaml`` its cards, a scenario
file its scenarios, ``game.yaml`` its top-level keys, a WWRF element its header (children: its
``__Sections__``).
"""

from __future__ import annotations

import re

from lsprotocol import types

from rulescript.lsp.positions import line_range, lines_of

S = types.SymbolKind
_SECTION = re.compile(r"^\[([^\]\[]+)\]")
_KEY = re.compile(r"^([A-Za-z_][\w\-]*)\s*=")
_CARD = re.compile(r"^\s*-\s*id\s*:\s*[\"']?([^\"'#\s]+)")
_SCENARIO = re.compile(r"^\s*-?\s*name\s*:\s*(.+?)\s*$")
_TOP_KEY = re.compile(r"^([A-Za-z_][\w\-]*)\s*:")
_W_HEADER = re.compile(r"^\*\*(.+?)\*\*")
_W_SECTION = re.compile(r"^\s*__([^_]+)__\s*$")


def _symbol(name: str, kind: types.SymbolKind, first: int, last: int, lines: list[str],
            children: list[types.DocumentSymbol] | None = None) -> types.DocumentSymbol:
    last_text = lines[last] if last < len(lines) else ""
    whole = types.Range(types.Position(first, 0), line_range(last, 0, len(last_text), lines).end)
    sel = line_range(first, 0, len(lines[first]) if first < len(lines) else 0, lines)
    return types.DocumentSymbol(name=name, kind=kind, range=whole, selection_range=sel, children=children or None)


def _blocks(lines: list[str], pattern: re.Pattern[str]) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of the blocks that start at each line ``pattern`` matches."""
    starts = [(m.group(1).strip(), i) for i, line in enumerate(lines) for m in [pattern.match(line)] if m]
    out = []
    for n, (name, first) in enumerate(starts):
        last = starts[n + 1][1] - 1 if n + 1 < len(starts) else len(lines) - 1
        while last > first and not lines[last].strip():
            last -= 1
        out.append((name, first, last))
    return out


def symbols(kind: str, text: str) -> list[types.DocumentSymbol]:
    lines = lines_of(text)
    if kind == "rules":
        out = []
        for name, first, last in _blocks(lines, _SECTION):
            keys = [_symbol(m.group(1), S.Field, i, i, lines) for i in range(first + 1, last + 1)
                    for m in [_KEY.match(lines[i])] if m]
            out.append(_symbol(name, S.Class, first, last, lines, keys))
        return out
    if kind == "cards":
        return [_symbol(name, S.Object, first, last, lines) for name, first, last in _blocks(lines, _CARD)]
    if kind == "scenario":
        return [_symbol(name.strip("'\""), S.Method, first, last, lines)
                for name, first, last in _blocks(lines, _SCENARIO) if not lines[first].startswith("  " * 3)]
    if kind == "game":
        return [_symbol(name, S.Property, first, last, lines) for name, first, last in _blocks(lines, _TOP_KEY)]
    if kind == "wwrf":
        m = _W_HEADER.match(lines[0].strip()) if lines else None
        if not m:
            return []
        sections = [_symbol(name, S.Namespace, first, last, lines) for name, first, last in _blocks(lines, _W_SECTION)]
        return [_symbol(m.group(1), S.Class, 0, len(lines) - 1, lines, sections)]
    return []


def format_wwrf(path: str, text: str, checker, book: str) -> str | None:
    """The canonical text of an element (``wwrf fmt``), or None when it has errors (``wwrf fmt``
    does not format a file with errors) or is already canonical."""
    from wwrf_adapter.fmt import format_element

    project = checker.wwrf_project(path, text, book)
    if project.has_errors:
        return None
    el = next(iter(project.elements.values()), None)
    if el is None:
        return None
    out = format_element(el)
    return None if out == text else out
