"""Parser details: the fast path for tiny expressions agrees with the grammar, and the LALR driver."""

from __future__ import annotations

import pytest

from rulescript import parser as P
from rulescript.lexer import tokenize_expr

SIMPLE = ["250", "-200", "+3", "_x", "me", "me.hand.size", "tgt.0", "prevTgt.12.bp", "trigger.controller"]


@pytest.mark.parametrize("text", SIMPLE)
def test_simple_expression_fast_path_matches_the_grammar(text: str) -> None:
    toks = tokenize_expr(text, 5)
    fast = P._simple_expr(toks)
    assert fast is not None
    assert fast == P._parse(toks, "expr", len(text), 5)


@pytest.mark.parametrize("text", ["1 + 2", "me.hand.size > 2", "f(x)", "-x", "[1]", "a.b.c()"])
def test_other_expressions_take_the_grammar(text: str) -> None:
    assert P._simple_expr(tokenize_expr(text)) is None


def test_driver_reports_expected_tokens_at_end_of_value() -> None:
    with pytest.raises(P.LexError) as info:
        P.parse_expr("1 +")
    assert info.value.message == "unexpected end of expression"
    assert "a name" in info.value.expected and "an integer" in info.value.expected


def test_grammar_is_lalr_without_conflicts() -> None:
    # lark refuses to build an LALR table with conflicts, so building it is the check
    assert P._driver().start_states.keys() >= set(P.START_SYMBOLS)
