"""Diagnostics of one sentence, in the project's common format (:mod:`rulescript.diagnostics`).

Codes: ``AW1xx`` the words and the grammar, ``AW2xx`` the shapes the reference platform accepts
although they are wrong (operand counts, text between groups, nested Skip/Over), ``AW3xx`` meaning
against a game. ``docs/aiwolf.md`` lists them all.
"""

from __future__ import annotations

from typing import Sequence

from rulescript.diagnostics import Diagnostic, DiagnosticBag, Span


class SentenceDiags(DiagnosticBag):
    """A :class:`DiagnosticBag` for one sentence on one line of one file; positions are columns."""

    def __init__(self, file: str = "<sentence>", line: int = 1) -> None:
        super().__init__()
        self.file = file
        self.line = line

    def span(self, col: int, end: int) -> Span:
        return Span(self.file, self.line, col, self.line, max(end, col + 1))

    def error(self, code: str, message: str, col: int, end: int,  # type: ignore[override]
              notes: Sequence[str] = ()) -> Diagnostic:
        return super().error(code, message, self.span(col, end), notes)


class SentenceError(ValueError):
    """Raised by :func:`~wwrf_adapter.aiwolf.parse_sentence` for an invalid sentence."""

    def __init__(self, text: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.text = text
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        where = f"column {first.span.col}: [{first.code}] {first.message}" if first else "invalid"
        super().__init__(f"invalid sentence {text!r}: {where}")
