"""The name under the cursor, by file kind: a RuleScript word or card id, or a WWRF element name
(in backticks, after ``#``, as a ``(Key:Value)`` value, in a header, or a plain word)."""

from __future__ import annotations

import re

from rulescript.lsp.positions import word_at

RS_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*")
_BACKTICKS = re.compile(r"`([^`]+)`")
_HASH = re.compile(r"#([A-Za-z0-9_\-]+)")
_KEYED = re.compile(r"\(\s*!?([A-Za-z]+)\s*:\s*!?([^()@,]+?)\s*\)")
_HEADER = re.compile(r"^\*\*(.+?)\*\*")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_\-']*")


def rulescript_word(line: str, col: int) -> tuple[str, int, int] | None:
    return word_at(line, col, RS_WORD)


def wwrf_name(line: str, col: int) -> tuple[str, str | None, int, int] | None:
    """``(name, how, start, end)``: ``how`` is ``#`` (a group, poll or location), a key such as
    ``Attr`` (from ``(Attr:Name)``), ``header``, ``quoted`` or None (a plain word)."""
    m = _HEADER.match(line)
    if m and m.start(1) <= col <= m.end(1):
        return m.group(1).strip(), "header", m.start(1), m.end(1)
    for m in _KEYED.finditer(line):  # (before backticks: a text in backticks may hold selectors)
        if m.start(2) <= col <= m.end(2):
            return m.group(2).strip(), m.group(1), m.start(2), m.end(2)
    for pattern, how in ((_HASH, "#"), (_BACKTICKS, "quoted")):
        for m in pattern.finditer(line):
            if m.start() <= col <= m.end():
                return m.group(1).strip(), how, m.start(1), m.end(1)
    hit = word_at(line, col, _PLAIN)
    if hit:
        return hit[0], None, hit[1], hit[2]
    return None


#: the element kinds a ``(Key:Name)`` key or a ``#`` names
KEY_KINDS = {"#": ("group", "poll", "location"), "role": ("role",), "origrole": ("role",),
             "attrrole": ("role",), "attr": ("attribute",), "attribute": ("attribute",),
             "attrself": ("attribute",), "group": ("group",), "align": ("team",), "alignment": ("team",),
             "origalign": ("team",)}


def kinds_of(how: str | None) -> tuple[str, ...]:
    return KEY_KINDS.get((how or "").lower(), ())
