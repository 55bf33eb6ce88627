"""Parser details: the fast paths for tiny expressions and filters agree with the grammar, and the LALR
driver."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rulescript import parser as P
from rulescript.compiler import compile_source
from rulescript.context import CardDatabase
from rulescript.lexer import lex_expr, lex_filter
from rulescript.profile import load_profile

SIMPLE = ["250", "-200", "+3", "_x", "me", "me.hand.size", "tgt.0", "prevTgt.12.bp", "trigger.controller"]


@pytest.mark.parametrize("text", SIMPLE)
def test_simple_expression_fast_path_matches_the_grammar(text: str) -> None:
    toks = lex_expr(text, 5)
    fast = P._simple_expr(toks)
    assert fast is not None
    assert fast == P._parse(toks, "expr", len(text), 5)


@pytest.mark.parametrize("text", ["1 + 2", "me.hand.size > 2", "f(x)", "-x", "[1]", "a.b.c()"])
def test_other_expressions_take_the_grammar(text: str) -> None:
    assert P._simple_expr(lex_expr(text)) is None


SIMPLE_FILTERS = ["opp", " me ", "characters@myRing", "ninja @ oppRing", "3@x"]


@pytest.mark.parametrize("text", SIMPLE_FILTERS)
@pytest.mark.parametrize("start", ["filter_list", "requisite_value"])
def test_simple_filter_fast_path_matches_the_grammar(text: str, start: str) -> None:
    toks = lex_filter(text, 5)
    fast = P._simple_filters(toks)
    assert fast is not None
    assert fast == P._parse(toks, start, len(text), 5)


@pytest.mark.parametrize("text", ["'x'", "*", "a@b@c", "a;b", "a[b]", "a@'b'", "^a", "<2>a", "a@b::not(c)"])
def test_other_filters_take_the_grammar(text: str) -> None:
    assert P._simple_filters(lex_filter(text)) is None


def test_driver_reports_expected_tokens_at_end_of_value() -> None:
    with pytest.raises(P.LexError) as info:
        P.parse_expr("1 +")
    assert info.value.message == "unexpected end of expression"
    assert "a name" in info.value.expected and "an integer" in info.value.expected


def test_bodies_and_filters_span_all_their_elements() -> None:
    # both are made at their first element and grow in place (rulescript.parser._body_more, _filter_more)
    body = P.parse_chain("a(1)  to(x) ", 3)
    assert (body.start, body.end, len(body.items)) == (3, 14, 2)
    filters = P.parse_filters("<2>a @b; c")
    assert [(f.start, f.end, len(f.segments)) for f in filters] == [(0, 7, 3), (9, 10, 1)]


def test_grammar_is_lalr_without_conflicts() -> None:
    # lark refuses to build an LALR table with conflicts, so building it is the check
    assert P._driver().start_states.keys() >= set(P.START_SYMBOLS)


# -- golden output: the compiler's IR and diagnostics, captured before the performance work -----------

GOLDEN = Path(__file__).with_name("golden") / "compile_golden.json"


def _compile_golden_set(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Compile every file of one golden set (cold, no cache) into plain JSON data."""
    profile = load_profile(data.get("profile", "cfc"))
    out = []
    for s in data["sets"]:
        db = CardDatabase.from_cards(s["cards"])
        files = []
        for f in s["files"]:
            fr = compile_source(f["text"], f["name"], profile, db, None)
            files.append({"name": f["name"], "rules": fr.rules,
                          "diagnostics": [dict(d.to_dict(), width=d.span.width) for d in fr.diagnostics],
                          "used": {k: sorted(v) for k, v in sorted(fr.used.items())}})
        out.append({"name": s["name"], "files": files})
    return json.loads(json.dumps(out))


def test_golden_compile_output() -> None:
    """The demo game, a sample of the benchmark's generated rules and 600 damaged rule files compile to
    exactly the IR and diagnostics (code, message, line, column, width, notes) recorded in the golden
    file.  Set RULESCRIPT_UPDATE_GOLDEN=1 to record the current output (only for intended changes)."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = _compile_golden_set(data)
    if os.environ.get("RULESCRIPT_UPDATE_GOLDEN"):
        data["expected"] = got
        GOLDEN.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    expected = data["expected"]
    assert [s["name"] for s in got] == [s["name"] for s in expected] == ["cfc-demo", "generated", "mutated"]
    n_rules = n_diags = 0
    for gs, es in zip(got, expected):
        assert len(gs["files"]) == len(es["files"])
        for gf, ef in zip(gs["files"], es["files"]):
            assert gf["name"] == ef["name"]
            assert gf["diagnostics"] == ef["diagnostics"], gf["name"]
            assert gf["rules"] == ef["rules"], gf["name"]
            assert gf["used"] == ef["used"], gf["name"]
            n_rules += len(gf["rules"])
            n_diags += len(gf["diagnostics"])
    assert n_rules > 300 and n_diags > 500  # the golden really exercises both paths
