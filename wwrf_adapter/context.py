"""Per-file diagnostic context: file name, current line and the shared DiagnosticBag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from rulescript.diagnostics import DiagnosticBag, Span, did_you_mean


@dataclass
class Ctx:
    file: str
    diags: DiagnosticBag
    line: int = 1
    #: selectors already parsed by the checking pre-pass of the current line, by (text, column)
    parsed: dict[tuple[str, int], object] = field(default_factory=dict)

    def span(self, col: int, end_col: int | None = None, line: int | None = None) -> Span:
        ln = self.line if line is None else line
        if ln < 1:
            ln = 1
        if col < 1:
            col = 1
        end = end_col if end_col is not None and end_col > col else col + 1
        return Span(self.file, ln, col, ln, end)

    def error(self, code: str, message: str, col: int, end_col: int | None = None,
              known: Iterable[str] | None = None, name: str | None = None) -> None:
        notes = did_you_mean(name, known) if known is not None and name is not None else ()
        self.diags.error(code, message, self.span(col, end_col), notes)

    def warning(self, code: str, message: str, col: int, end_col: int | None = None,
                known: Iterable[str] | None = None, name: str | None = None) -> None:
        notes = did_you_mean(name, known) if known is not None and name is not None else ()
        self.diags.warning(code, message, self.span(col, end_col), notes)
