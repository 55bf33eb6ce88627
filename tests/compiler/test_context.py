"""Ctx.at, the IR's compact positions, against their definition by Value.position."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulescript.compiler.context import CardDatabase, Ctx
from rulescript.diagnostics import DiagnosticBag
from rulescript.compiler.ini import Value
from rulescript.compiler.profile import load_profile

_PROFILE = load_profile("cfc")


def _reference_at(value: Value, start: int, end: int) -> list[int]:
    """``[line, col, end_col]``: the range's first character, and its end when it stays on that line."""
    line, col = value.position(start)
    if end <= start:
        return [line, col, col + 1]
    eline, ecol = value.position(end - 1)
    return [line, col, ecol + 1 if eline == line else col + 1]


@st.composite
def _values(draw: st.DrawFn) -> Value:
    """A value joined from 1-4 pieces (each piece on its own line, joined by one space)."""
    lengths = draw(st.lists(st.integers(1, 12), min_size=1, max_size=4))
    pieces = []
    offset = 0
    line = draw(st.integers(1, 50))
    for n in lengths:
        pieces.append((offset, line, draw(st.integers(1, 30))))
        offset += n + 1
        line += draw(st.integers(1, 3))
    return Value("x" * (offset - 1), "f.ini", pieces)


@settings(max_examples=300, deadline=None)
@given(_values(), st.data())
def test_at_matches_positions(value: Value, data: st.DataObject) -> None:
    ctx = Ctx(_PROFILE, CardDatabase(), DiagnosticBag(), Value("", "f.ini", [(0, 1, 1)]))
    ctx.enter(value)
    n = len(value.text)
    for _ in range(10):
        start = data.draw(st.integers(0, n))
        end = data.draw(st.integers(start - 2, n + 1))
        assert ctx.at(start, end) == _reference_at(value, start, end)
