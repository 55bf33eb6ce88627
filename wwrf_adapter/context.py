"""Per-file diagnostic context: file name, current line and the shared DiagnosticBag."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterable

from rulescript.diagnostics import DiagnosticBag, Span, did_you_mean


# Ctx.span() builds Spans without the frozen dataclass's __init__ (which sets each slot through
# object.__setattr__): the same objects, about twice as fast. Used only while Span has exactly
# these slots; otherwise the ordinary constructor is called.
_SPAN_FIELDS = ("file", "line", "col", "end_line", "end_col")
_FAST_SPAN = getattr(Span, "__slots__", None) == _SPAN_FIELDS and tuple(
    f.name for f in dataclasses.fields(Span)) == _SPAN_FIELDS
if _FAST_SPAN:
    _set_file, _set_line, _set_col, _set_end_line, _set_end_col = (Span.__dict__[n].__set__ for n in _SPAN_FIELDS)
_new = object.__new__


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
        if not _FAST_SPAN:  # pragma: no cover - Span changed shape
            return Span(self.file, ln, col, ln, end_col if end_col is not None and end_col > col else col + 1)
        sp = _new(Span)
        _set_file(sp, self.file)
        _set_line(sp, ln)
        _set_col(sp, col)
        _set_end_line(sp, ln)
        _set_end_col(sp, end_col if end_col is not None and end_col > col else col + 1)
        return sp

    def error(self, code: str, message: str, col: int, end_col: int | None = None,
              known: Iterable[str] | None = None, name: str | None = None) -> None:
        notes = did_you_mean(name, known) if known is not None and name is not None else ()
        self.diags.error(code, message, self.span(col, end_col), notes)

    def warning(self, code: str, message: str, col: int, end_col: int | None = None,
                known: Iterable[str] | None = None, name: str | None = None) -> None:
        notes = did_you_mean(name, known) if known is not None and name is not None else ()
        self.diags.warning(code, message, self.span(col, end_col), notes)
