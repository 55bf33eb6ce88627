"""The ability glyphs of a plugin: which character stands for ▲ (instant), ■ (trigger) and ● (auto).

A CFC-style plugin draws the ability symbols with its own font, so ``set.xml`` holds font code points
(``u"\\xa2"``), not the shapes.  The configuration script names them::

    InstantAbility = u"\\xa2"
    TriggerAbility = u"\\xa3"
    AutoAbility = u"\\xa4"

:func:`read_glyphs` finds such module-level assignments of a one-character literal string with
:mod:`ast` (the script is never executed).  The shapes ▲ ■ ● (and their outlines) always count too.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.pysource import decode_source, top_level_chunks

KINDS = ("instant", "trigger", "auto")
SHAPES = {"instant": "▲", "trigger": "■", "auto": "●"}
STANDARD = {"▲": "instant", "△": "instant", "■": "trigger", "□": "trigger", "●": "auto", "○": "auto"}
_NAME = re.compile(r"(?i)^(?:(instant|trigger(?:ed)?|auto)_?(?:ability|abil|ab|glyph|char|symbol)\w*"
                   r"|(?:ability|abil|ab|glyph|symbol)_?(instant|trigger(?:ed)?|auto)\w*)$")


@dataclass(slots=True)
class Glyphs:
    """Glyph → ability kind, and where each plugin glyph was defined."""

    kinds: dict[str, str] = field(default_factory=lambda: dict(STANDARD))
    defined_at: dict[str, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def kind(self, glyph: str) -> str | None:
        return self.kinds.get(glyph)

    def shapes(self, text: str) -> str:
        """``text`` with every plugin glyph replaced by its shape (▲ ■ ●)."""
        return "".join(SHAPES[self.kinds[ch]] if ch in self.defined_at else ch for ch in text)

    def is_glyph(self, ch: str) -> bool:
        return ch in self.kinds


def _kind_of(name: str) -> str | None:
    m = _NAME.match(name)
    if not m:
        return None
    word = (m.group(1) or m.group(2)).lower()
    return "trigger" if word.startswith("trigger") else word


def _statements(path: Path) -> list[ast.stmt]:
    """The module-level statements of a script; a Python 2 script is read statement by statement."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    try:
        return ast.parse(data, filename=str(path)).body
    except (SyntaxError, ValueError):
        pass
    text = decode_source(data)
    out: list[ast.stmt] = []
    for first, chunk in top_level_chunks(text):
        try:
            out.extend(ast.parse("\n" * (first - 1) + chunk, filename=str(path)).body)
        except (SyntaxError, ValueError):
            continue  # print statements and the like: not constants
    return out


def read_glyphs(paths: list[Path], glyphs: Glyphs | None = None) -> Glyphs:
    """Add the glyph constants defined in the scripts ``paths`` to ``glyphs`` (or a new mapping)."""
    out = glyphs or Glyphs()
    for path in paths:
        for stmt in _statements(Path(path)):
            if not isinstance(stmt, ast.Assign) or not isinstance(stmt.value, ast.Constant):
                continue
            value = stmt.value.value
            for target in stmt.targets:
                if not isinstance(target, ast.Name):
                    continue
                kind = _kind_of(target.id)
                if kind is None:
                    continue
                span = Span(str(path), stmt.lineno, stmt.col_offset + 1)
                if not isinstance(value, str) or len(value) != 1:
                    out.diagnostics.append(Diagnostic(
                        "warning", "RI301", f"'{target.id}' looks like an ability glyph but is not a one-character "
                        "string; it is not used", span))
                    continue
                known = out.kinds.get(value)
                if value in out.defined_at and known != kind:
                    first = out.defined_at[value]
                    out.diagnostics.append(Diagnostic(
                        "error", "RI302", f"the glyph {value!r} is defined for {known} and for {kind}", span,
                        (f"first defined at {first.file}:{first.line}:{first.col}",)))
                    continue
                out.kinds[value] = kind
                out.defined_at.setdefault(value, span)
    return out
