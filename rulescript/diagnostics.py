"""One diagnostic type for every front end (RuleScript, WWRF, AIWolf, profiles).

A :class:`Diagnostic` is a value: severity, code, message and a :class:`Span` (file, 1-based line and
column, and the end of the offending token). :func:`render` prints it the way a compiler does::

    rules/street.ini:14:15: error[RS201]: unknown command 'damge'
        action = {F}: damge(250) to(character[fresh]@oppRing)
                      ^~~~~
        did you mean: damage
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Literal, Sequence

Severity = Literal["error", "warning", "note"]
LONG_LINE = 4096  # a source line longer than this is shown cut to MAX_SHOWN characters around the caret
MAX_SHOWN = 160


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file. Lines and columns are 1-based; ``end_col`` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def with_file(self, file: str) -> "Span":
        return Span(file, self.line, self.col, self.end_line, self.end_col)

    @property
    def width(self) -> int:
        if self.end_col is None or (self.end_line not in (None, self.line)):
            return 1
        return max(1, self.end_col - self.col)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    code: str
    message: str
    span: Span
    notes: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.col,
            "end_line": self.span.end_line if self.span.end_line is not None else self.span.line,
            "end_column": self.span.end_col if self.span.end_col is not None else self.span.col + 1,
            "notes": list(self.notes),
        }

    def render(self, source: "SourceText | str | None" = None) -> str:
        return render(self, source)


class SourceText:
    """The text of one file, with fast access to its physical lines."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return self._lines

    def line(self, number: int) -> str:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return ""


def render(diag: Diagnostic, source: SourceText | str | None = None) -> str:
    """Render a diagnostic as ``file:line:col: severity[code]: message`` + source line + caret."""
    sp = diag.span
    head = f"{sp.file}:{sp.line}:{sp.col}: {diag.severity}[{diag.code}]: {diag.message}"
    out = [head]
    text = None
    if isinstance(source, SourceText):
        text = source.line(sp.line)
    elif isinstance(source, str):
        text = SourceText(sp.file, source).line(sp.line)
    if text is not None and text.strip():
        shown = text.expandtabs(1)
        caret_col = max(1, sp.col)
        width = sp.width
        if len(shown) > LONG_LINE:  # a very long line: the part around the caret
            start = max(0, min(caret_col - 1 - MAX_SHOWN // 2, len(shown) - MAX_SHOWN))
            lead = "..." if start else ""
            tail = "..." if start + MAX_SHOWN < len(shown) else ""
            shown = lead + shown[start:start + MAX_SHOWN] + tail
            caret_col = caret_col - start + len(lead)
            width = min(width, MAX_SHOWN)
        out.append("    " + shown)
        if caret_col - 1 + width > len(shown) + 1:
            width = max(1, len(shown) + 1 - (caret_col - 1))
        out.append("    " + " " * (caret_col - 1) + "^" + "~" * (width - 1))
    for note in diag.notes:
        out.append("    " + note)
    return "\n".join(out)


def render_all(diags: Iterable[Diagnostic], sources: dict[str, SourceText] | None = None) -> str:
    sources = sources or {}
    return "\n\n".join(render(d, sources.get(d.span.file)) for d in diags)


def to_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], indent=2, ensure_ascii=False)


class DiagnosticBag:
    """Collects diagnostics in the order they were found."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, diag: Diagnostic) -> Diagnostic:
        self.items.append(diag)
        return diag

    def error(self, code: str, message: str, span: Span, notes: Sequence[str] = ()) -> Diagnostic:
        return self.add(Diagnostic("error", code, message, span, tuple(notes)))

    def warning(self, code: str, message: str, span: Span, notes: Sequence[str] = ()) -> Diagnostic:
        return self.add(Diagnostic("warning", code, message, span, tuple(notes)))

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        self.items.extend(diags)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Levenshtein distance, stopping early once it exceeds ``limit``."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        best = left = i
        for j, cb in enumerate(b, 1):  # (comparisons, not min(): the inner loop of every suggestion)
            v = prev[j - 1] + (ca != cb)
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if left + 1 < v:
                v = left + 1
            cur.append(v)
            left = v
            if v < best:
                best = v
        if best > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def suggest(name: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` known names closest to ``name``: edit distance at most 2, or a shared prefix."""
    names = tuple(known)
    try:
        return list(_suggest(name, names, limit))
    except TypeError:  # (an unhashable name: no memo)
        return list(_suggest.__wrapped__(name, names, limit))


@functools.lru_cache(maxsize=512)  # a file with hundreds of errors repeats its unknown names
def _suggest(name: str, known: tuple[str, ...], limit: int) -> tuple[str, ...]:
    low = name.lower()
    scored: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for cand in known:
        c = cand.lower()
        if c in seen or c == low:
            continue
        seen.add(c)
        dist = edit_distance(low, c, 2)
        prefix = 0
        while prefix < min(len(low), len(c)) and low[prefix] == c[prefix]:
            prefix += 1
        shares_prefix = prefix >= 3 and (c.startswith(low) or low.startswith(c) or prefix >= 4)
        if dist <= 2 or shares_prefix:
            scored.append((dist if dist <= 2 else 3, -prefix, cand))
    scored.sort()
    return tuple(c for _, _, c in scored[:limit])


def did_you_mean(name: str, known: Iterable[str]) -> tuple[str, ...]:
    hits = suggest(name, known)
    return (f"did you mean: {', '.join(hits)}",) if hits else ()
