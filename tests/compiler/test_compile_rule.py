"""Shortcuts of rulescript.compiler.compile_rule against the exact paths they stand for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulescript.compiler.compile_rule import _FILTER_HEAD, _tables, _top_level_shape
from rulescript.compiler.profile import load_profile

_TEXT = st.text(alphabet="ab.;,@[](){}'\" x_1", max_size=14)


@settings(max_examples=2000, deadline=None)
@given(_TEXT)
def test_filter_head_means_a_filter_shape(text: str) -> None:
    # the clause shortcut: a text whose first mark is a filter mark has the 'filter' shape
    if _FILTER_HEAD(text) is not None:
        assert _top_level_shape(text) == "filter"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abAB_1.", max_size=8))
def test_identifiers_are_plain(text: str) -> None:
    if text.isidentifier():
        assert _top_level_shape(text) == "plain"


def test_command_spellings_find_what_lowering_finds() -> None:
    prof = load_profile("cfc")
    spellings = _tables(prof).command_spellings
    for written, (low, spec) in spellings.items():
        assert low == written.lower() and prof.commands[low] is spec
    for low, spec in prof.commands.items():
        assert spellings[low] == (low, spec)
