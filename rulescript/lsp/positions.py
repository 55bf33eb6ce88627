"""Positions between the project's spans and the Language Server Protocol.

A :class:`~rulescript.diagnostics.Span` counts lines and columns from 1, in characters (code points);
the protocol counts from 0, in UTF-16 code units (its default encoding).  Nothing here knows a file
format: words at a position and line prefixes are plain text helpers for hover and completion.
"""

from __future__ import annotations

import re

from lsprotocol import types

from rulescript.diagnostics import Span


def utf16_col(line: str, col0: int) -> int:
    """The UTF-16 column of the code-point column ``col0`` (0-based) of ``line``."""
    head = line[:col0]
    return col0 + sum(1 for ch in head if ord(ch) > 0xFFFF)


def codepoint_col(line: str, utf16: int) -> int:
    """The code-point column (0-based) of the UTF-16 column ``utf16`` of ``line``."""
    units = 0
    for i, ch in enumerate(line):
        if units >= utf16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def lines_of(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def span_range(span: Span, lines: list[str]) -> types.Range:
    """The protocol range of a span (a span without an end covers one character)."""
    line0 = max(0, span.line - 1)
    end_line0 = max(line0, (span.end_line or span.line) - 1)
    text = lines[line0] if line0 < len(lines) else ""
    end_text = lines[end_line0] if end_line0 < len(lines) else ""
    col0 = max(0, span.col - 1)
    end0 = (span.end_col - 1) if span.end_col is not None else col0 + 1
    if end_line0 == line0:
        end0 = max(end0, col0)
    return types.Range(types.Position(line0, utf16_col(text, col0)),
                       types.Position(end_line0, utf16_col(end_text, max(0, end0))))


def line_range(line0: int, start: int, end: int, lines: list[str]) -> types.Range:
    """The range of code-point columns ``start``..``end`` (0-based) of line ``line0``."""
    text = lines[line0] if 0 <= line0 < len(lines) else ""
    return types.Range(types.Position(line0, utf16_col(text, start)), types.Position(line0, utf16_col(text, end)))


def at(lines: list[str], pos: types.Position) -> tuple[str, int]:
    """The line under ``pos`` and the code-point column of ``pos`` in it."""
    text = lines[pos.line] if 0 <= pos.line < len(lines) else ""
    return text, codepoint_col(text, pos.character)


WORD = re.compile(r"[A-Za-z0-9_.\-']+")


def word_at(text: str, col: int, pattern: re.Pattern[str] = WORD) -> tuple[str, int, int] | None:
    """The word of ``pattern`` that covers column ``col`` (0-based) of ``text``: ``(word, start, end)``."""
    for m in pattern.finditer(text):
        if m.start() <= col <= m.end():
            return m.group(0), m.start(), m.end()
        if m.start() > col:
            break
    return None
