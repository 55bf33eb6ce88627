"""Parser details: the fast paths for expressions and filters, the statement outlines and the statement
lexer's fast path agree with the exact paths, and the LALR driver."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rulescript.compiler import lexer as L
from rulescript.compiler import parser as P
from rulescript.compiler.compile_rule import RuleCompiler
from rulescript.compiler import compile_source
from rulescript.compiler.context import CardDatabase
from rulescript.diagnostics import DiagnosticBag
from rulescript.compiler.ini import read_rule_file
from rulescript.compiler.lexer import LexError, _lex_statements_scan, lex_expr, lex_filter, lex_statements
from rulescript.compiler.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
TINY = ["250", "-200", "+3", " _x ", "me", "me.hand.size", "tgt.0", "prevTgt.12.bp", "trigger.controller",
        "-me.hp", "+tgt.0.bp", "1 + 2", "opp.hp >= 500", "tgt.0.bp*2", "a.b // 3", "-x - 1", "x.in <= y.0",
        "me.sp!=0", "\tme.hp\t<\t10\n"]


@pytest.mark.parametrize("text", TINY)
def test_tiny_expression_fast_path_matches_the_grammar(text: str) -> None:
    fast = P._tiny_expr(text, 5)
    assert fast is not None
    assert fast == P._parse(lex_expr(text, 5), "expr", len(text), 5)


@pytest.mark.parametrize("text", ["f(x)", "- 1", "[1]", "a.b.c()", "1 + 2 + 3", "a and b", "true", "all",
                                  "x.__y", "1.5", "a ** 2", "__x", "me\u00a0.hp", "x.", "3 < -1", "a = b",
                                  "1" * 16, "x._y", "not x"])
def test_other_expressions_are_not_tiny(text: str) -> None:
    assert P._tiny_expr(text, 0) is None


# -- the fast expression paths against the grammar, on many valid and broken expressions -------------

_NAMES = ["me", "opp", "tgt", "_x", "x1", "prevTgt", "Card", "len", "_", "true", "False", "nil", "None"]
_KEYWORDS = ["in", "IN", "not", "Not", "and", "OR", "if", "else", "all", "ANY"]  # misplaced, as names
_ATTRS = ["hand", "size", "bp", "0", "12", "in", "not", "all", "x2"]
_BINARY = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "NOT  IN",
           "and", "or", "And"]
_NOISE = ["(", ")", "[", "]", ",", ".", ";", "'", '"', "not", "in", "if", "else", "all", "any", "-", "+", "=",
          ":=", "=>", "1.5", "12abc", "1" * 16, "__x", "\u00a0", "\t", "\n", "٣", "é", "@", "{", "$", "..", "x.", "._z"]


def _operand(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        if rng.random() < 0.3:
            return rng.choice([str(rng.randint(0, 999)), "'a b'", '"x"'])
        atom = rng.choice(_KEYWORDS if rng.random() < 0.05 else _NAMES)
        while rng.random() < 0.4:
            atom += "." + rng.choice(_ATTRS)
        return atom
    if roll < 0.45:
        return rng.choice(["-", "+", "not ", "- "]) + _operand(rng, depth + 1)
    if roll < 0.6:
        args = ", ".join(_expression(rng, depth + 1) for _ in range(rng.randint(0, 3)))
        return rng.choice(["len", "max", "getTargets", "f"]) + "(" + args + ")" + rng.choice(["", ".size", ".0"])
    if roll < 0.7:
        return "[" + ", ".join(_expression(rng, depth + 1) for _ in range(rng.randint(0, 2))) + "]"
    if roll < 0.8:
        return "(" + _expression(rng, depth + 1) + ")" + rng.choice(["", ".bp", ".1"])
    return (rng.choice(["all ", "any ", "ALL "]) + _expression(rng, depth + 1) + " in "
            + _operand(rng, depth + 1))


def _expression(rng: random.Random, depth: int = 0) -> str:
    text = _operand(rng, depth)
    while rng.random() < 0.45:
        text += rng.choice(["", " ", "  "]) + rng.choice(_BINARY) + " " + _operand(rng, depth + 1)
    if rng.random() < 0.08:
        text += " if " + _operand(rng, depth + 1) + " else " + _operand(rng, depth + 1)
    return text


def _mutated(rng: random.Random, text: str, noise: list[str] = _NOISE) -> str:
    """``text`` with one to three word-or-character pieces deleted, inserted (from ``noise``) or replaced."""
    pieces = re.findall(r"\w+|\s+|.", text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(pieces) + 1)
        roll = rng.random()
        if roll < 0.4 and i < len(pieces):
            del pieces[i]
        elif roll < 0.8:
            pieces.insert(i, rng.choice(noise))
        elif i < len(pieces):
            pieces[i] = rng.choice(noise)
    return "".join(pieces)


def _expression_corpus() -> list[str]:
    rng = random.Random(1234)
    texts = [_expression(rng) for _ in range(2500)]
    texts += [_mutated(rng, rng.choice(texts)) for _ in range(2500)]
    return texts + TINY


def _grammar(text: str, start: str) -> Any:
    try:
        return P._parse(P._expr_tokens(text, 7), start, len(text), 7)
    except P.LexError:
        return None


def test_fast_lexer_matches_the_scanner() -> None:
    for text in _expression_corpus():
        try:
            scanned: Any = L._lex_expr_scan(text, 3)
        except L.LexError as exc:
            scanned = (exc.message, exc.start, exc.end, exc.code)
        try:
            fast: Any = lex_expr(text, 3)
        except L.LexError as exc:
            fast = (exc.message, exc.start, exc.end, exc.code)
        assert fast == scanned, text


def test_fast_expression_parsers_match_the_grammar() -> None:
    fast_rules = {"expr": P._FastExpr.expr, "vars_value": P._FastExpr.vars, "each_head": P._FastExpr.each_head}
    taken = dict.fromkeys(["expr", "vars_value", "each_head", "tiny", "tiny each"], 0)
    rng = random.Random(99)
    for text in _expression_corpus():
        texts = {"expr": text, "vars_value": f"_v := {text};{rng.choice(_NAMES)}:= 1" + rng.choice(["", ";"]),
                 "each_head": text if " in " in text else f"{text} in opp.ring"}
        for start, value in texts.items():
            expected = _grammar(value, start)
            try:
                fast = P._fast(P._expr_tokens(value, 7), fast_rules[start])
            except P.LexError:
                continue
            if fast is not None:
                assert fast == expected, (start, value)
                taken[start] += 1
        tiny = P._tiny_expr(text, 7)
        if tiny is not None:
            assert tiny == _grammar(text, "expr"), text
            taken["tiny"] += 1
        each = texts["each_head"]
        if P._TINY_EACH.fullmatch(each):
            try:
                got = P.parse_each_head(each, 7)
            except P.LexError:
                got = None
            assert got == _grammar(each, "each_head"), each
            taken["tiny each"] += 1
    assert min(taken.values()) > 100, taken  # every fast path was really exercised


FAST_FILTERS = [
    "opp", " me ", "characters@myRing", "ninja @ oppRing", "3@x", "a;b", "kung-fu@x-y",
    "characters[bp<1300]@oppRing::not(tgt)", "characters&ninja[!frozen]@oppRing::not(prevTgt)",
    '<,4>"Ember Night 500"s[bp!=1400, bp<=300]@arena', "character[-backedup & bp<=800 & -powerful]@myRing",
    "<r>*@myRemoved", "characters[powerful]@myRing", "*s", "*S@x", "'x'", "'x's", "^ ! a, b & *",
    "a <-2> [ x : lowest , ^y & bp = - 3 & hp==+0]", "a::f ( g(h[1]) ) ; <2> b", "<r>", "[b]", "<2> <3>@x",
]


def _grammar_filters(text: str, base: int, requisite: bool) -> Any:
    """The filters the lexer and the grammar make of ``text``, or 'error'."""
    try:
        if not text.strip():
            return "error"
        if requisite:
            return P._parse(lex_filter(text, base, True), "requisite_value", len(text), base)
        return P._parse(lex_filter(text, base), "filter_list", len(text), base)
    except P.LexError:
        return "error"


@pytest.mark.parametrize("text", FAST_FILTERS)
@pytest.mark.parametrize("requisite", [False, True])
def test_filter_fast_path_matches_the_grammar(text: str, requisite: bool) -> None:
    if requisite:
        text = text.replace(";", "&&")
    fast = P._fast_filters(text, 5, requisite)
    assert fast is not None
    assert repr(fast) == repr(_grammar_filters(text, 5, requisite))  # repr: also the types of the values


@pytest.mark.parametrize("text", ["", " ", ";", "a;;b", "a b", "a@b@c", "a@'b'", "a@b::not", "a::not(b", "__x",
                                  "a[__x]", "a[-3]", "a[3]", "a[bp<3x]", "a[bp<3-4]", "a[bp<1234567890123456]",
                                  "a[bp::lowest]", "a[b&&c]", "a[b]]", "a;", ";a", "a&&b", "*sx", "a<1>b",
                                  "a[b][c]", "a@b[c]", "a, ", "a & & b", "a!", "a@__b", "a[bp<x]", "a[b:3]"])
def test_unusual_filters_take_the_grammar(text: str) -> None:
    assert P._fast_filters(text, 0, False) is None


def test_filter_separators_follow_the_value_kind() -> None:
    assert P._fast_filters("a && b", 0, False) is None  # the lexer refuses '&&' in a target filter
    assert P._fast_filters("a ; b", 0, True) is None  # a requisite is joined by '&&'


def _random_filter_text(rng: random.Random) -> str:
    """A filter list made of the pieces of section 4 of the spec, with odd spacing, the tokens the lexer
    splits differently ('*sx', '3-4', '__x' …), segments out of order, and sometimes one character
    inserted or replaced."""
    def ws() -> str:
        return rng.choice(["", "", "", " ", "  ", "\t", "\n"])

    def join(parts: list[str], seps: list[str]) -> str:
        out = parts[0]
        for part in parts[1:]:
            out += ws() + rng.choice(seps) + ws() + part
        return out

    def term() -> str:
        return rng.choice(["", "", "^", "!", "^!", "^ !", "! "]) + ws() + rng.choice(
            ["characters", "ninja", "opp", "kung-fu", "a-b-c", "3", "3x", "__x", "_y", "x__y", "s", "S", "*", "*s",
             "*S", "*sx", "'q'", '"Ember Night"s', "'a'S", "'b'sx"])

    def atom() -> str:
        word = rng.choice(["", "", "-", "+", "!", "^", "- "]) + ws() + rng.choice(
            ["bp", "frozen", "kung-fu", "a-1", "3", "_z", "__z"])
        r = rng.random()
        if r < 0.4:
            return word
        if r < 0.8:
            return (word + ws() + rng.choice(["=", "==", "!=", "<", "<=", ">", ">=", "=<"]) + ws()
                    + rng.choice(["", "", "-", "+", "- "])
                    + rng.choice(["1", "300", "3x", "3-4", "3-", "1234567890123456", "123456789012345", "0"]))
        return word + ws() + ":" + ws() + rng.choice(["lowest", "3", "_a", ":x"])

    def one() -> str:
        parts = []
        if rng.random() < 0.3:
            parts.append("<" + rng.choice(["2", ",4", "r", "**", "1,2", "", "x;y"]) + ">")
        if rng.random() < 0.9:
            parts.append(join([term() for _ in range(rng.choice([1, 1, 2, 3]))], ["&", ",", "&", "&&"]))
        if rng.random() < 0.15:
            parts.append("<" + rng.choice(["2", "-1"]) + ">")
        if rng.random() < 0.5:
            parts.append("[" + join([atom() for _ in range(rng.choice([1, 1, 2, 3]))], ["&", ",", "&&"]) + "]")
        if rng.random() < 0.7:
            parts.append("@" + ws() + rng.choice(["myRing", "arena", "3", "__z", "a-b"]))
        if rng.random() < 0.3:
            parts.append("::" + ws() + rng.choice(["not", "__x", "3", "x-y"]) + ws()
                         + rng.choice(["(tgt)", "(a(b))", "(')')", "((((x))))", "", "(x"]))
        if rng.random() < 0.1:
            rng.shuffle(parts)
        return join(parts, [""]) if parts else ""

    text = ws() + join([one() for _ in range(rng.choice([1, 1, 1, 2, 3]))], [";", "&&"]) + ws()
    if rng.random() < 0.3:
        i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(list("<>[]@:;,&^!+-*=()'\" \t\n") + ["&&", "::", "!=", "<=", "x", "0", "__"]) \
            + text[i + rng.choice([0, 0, 1]):]
    return text


def test_filter_fast_path_matches_the_grammar_on_random_filters() -> None:
    rng = random.Random(4)
    fast_count = 0
    for _ in range(4000):
        text = _random_filter_text(rng)
        for requisite in (False, True):
            fast = P._fast_filters(text, 7, requisite)
            if fast is not None:
                fast_count += 1
                assert repr(fast) == repr(_grammar_filters(text, 7, requisite)), (text, requisite)
    assert fast_count > 1000  # the generator does make filters of the usual shapes


def _profile_filter_text(rng: random.Random, words: list[str], compact: bool) -> str:
    """A filter list made of the vocabulary of the cfc profile and the demo cards (with some plurals,
    unknown words, odd case and spacing), so that most filters check: see the test below.  ``compact``:
    one filter of a type and maybe a block and a zone, without blanks around them (the shapes that
    FilterCompiler reads without the regex), or some character near them."""
    def ws() -> str:
        return "" if compact else rng.choice(["", "", "", " ", "\t"])

    def term() -> str:
        word = rng.choice(words + ["*", "*s", "'Ember Night'", "'nobody'S", "foo"])
        if word[0].isalpha() and rng.random() < 0.3:
            word = rng.choice([word + "s", word + "es", word.upper(), word.capitalize()])
        return rng.choice(["", "", "", "", "^", "!", "^!"]) + ws() + word

    def atom() -> str:
        prefix = rng.choice(["", "", "", "-", "+", "!", "^"]) + ws()
        r = rng.random()
        if r < 0.5:
            return prefix + rng.choice(["frozen", "powerful", "character", "ninja", "Action", "bp", "zap"])
        if r < 0.8:
            return (prefix + rng.choice(["bp", "sp", "HP", "zz"]) + ws() + rng.choice(["=", "==", "!=", "<", ">="])
                    + ws() + rng.choice(["", "-", "+"]) + rng.choice(["0", "300", "1300"]))
        return prefix + rng.choice(["bp", "hp", "zz"]) + ws() + ":" + ws() + rng.choice(["lowest", "Highest", "mid"])

    def one() -> str:
        out = ""
        if compact:
            out = rng.choice([term(), term(), "*"]) + ("" if rng.random() < 0.5 else "[" + atom() + "".join(
                rng.choice(["&", ",", ", ", " & "]) + atom() for _ in range(rng.choice([0, 0, 1, 2]))) + "]")
            zones = ["ring", "myRing", "OppRing", "ctrlHand", "sameHand", "space"]
            return out + rng.choice(["", "@" + rng.choice(zones)])
        if rng.random() < 0.3:
            out += "<" + rng.choice(["2", ",4", "r", "r3", "**", "1,2", "0", "3,1", "x", "-1"]) + ">" + ws()
        if rng.random() < 0.9:
            out += term()
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                out += ws() + rng.choice(["&", ","]) + ws() + term()
        if rng.random() < 0.1:
            out += ws() + "<" + rng.choice(["2", "-1", "0", "r"]) + ">"
        if rng.random() < 0.4:
            atoms = [atom() for _ in range(rng.choice([1, 1, 2, 3]))]
            out += ws() + "[" + ws() + atoms[0] + "".join(ws() + rng.choice(["&", ","]) + ws() + a for a in atoms[1:]) \
                + ws() + "]"
        if rng.random() < 0.6:
            out += ws() + "@" + ws() + rng.choice(["ring", "myRing", "OppRing", "arena", "ctrlHand", "sameRing",
                                                  "sameHand", "anyDeck", "myArena", "space", "removed"])
        if rng.random() < 0.15:
            out += ws() + "::" + rng.choice(["not", "Not", "but"]) + "(" + rng.choice(["tgt", "prevTgt", "x +", "1"])
            out += ")"
        return out

    if compact:
        text = one()
        if rng.random() < 0.2:  # damaged
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(list("[]@:;,&-_ 3é") + ["__", "::"]) + text[i:]
        return text
    return ws() + rng.choice([";", "&&"]).join(one() for _ in range(rng.choice([1, 1, 1, 2]))) + ws()


def _lowered(fc: Any, text: str, requisite: bool, fast: bool, forced_zone: str | None) -> Any:
    """The IR, diagnostics and coverage of the filters of ``text``, lowered from the regex matches when
    ``fast``, else from the grammar's tree (FilterCompiler.filter)."""
    from rulescript.compiler.context import Abort
    ctx = fc.ctx
    ctx.bag = type(ctx.bag)()
    ctx.used.clear()
    fc.zone_words.clear()
    try:
        if fast:
            ir = fc.requisite(text, 3) if requisite else fc.filters(text, 3, forced_zone, "D")
        else:
            try:
                nodes = P.grammar_filters(text, 3, requisite)
            except LexError as exc:
                raise ctx.lex_error(exc) from None
            ir = [fc.filter(f) if requisite else fc.filter(f, forced_zone, "D") for f in nodes]
    except Abort:
        ir = "abort"
    return ir, [repr(d) for d in ctx.bag], dict(ctx.used)


def test_filter_lowering_fast_path_matches_the_exact_path() -> None:
    """FilterCompiler lowers the filters the parser's fast path matches straight from the regex groups;
    so does it those of the most common shapes, without the regex.  The IR, diagnostics and coverage must be
    exactly those of the grammar's tree, with and without a card database, on profile filters (mostly valid)
    and on the random filters above (mostly not)."""
    from rulescript.compiler.compile_filter import FilterCompiler
    from rulescript.compiler import load_cards
    from rulescript.compiler.context import Ctx
    from rulescript.diagnostics import DiagnosticBag
    from rulescript.compiler.ini import Value

    profile = load_profile("cfc")
    demo = CardDatabase.from_cards(load_cards(ROOT / "cards" / "cfc-demo" / "cards.yaml")[0])
    words = list(profile.type_keywords) + list(profile.card_types) + sorted(demo.subtypes)
    rng = random.Random(5)
    taken = checked = 0
    for i in range(6000):
        text = _random_filter_text(rng) if i % 3 == 0 else _profile_filter_text(rng, words, i % 3 == 1)
        requisite = "&&" in text or (";" not in text and rng.random() < 0.3)
        taken += P.match_filters(text, requisite) is not None
        forced_zone = rng.choice([None, None, "hand"])
        results = []
        for fast in (True, False):
            cards = demo if i % 2 else CardDatabase()  # a fresh memo of type words, and no cards
            pieces = [(0, 2, 4)] if i % 5 else [(0, 2, 4), (len(text) // 2, 3, 1)]  # on one line, or on two
            ctx = Ctx(profile, cards, DiagnosticBag(), Value(text, "f.ini", pieces))
            results.append(_lowered(FilterCompiler(ctx), text, requisite, fast, forced_zone))
        assert results[0] == results[1], text
        checked += results[0][0] != "abort"
    assert taken > 3000 and checked > 1000, (taken, checked)


# pieces of statement values: every token the statement lexer makes, in forms the grammar accepts and not
STATEMENT_PIECES = ["draw()", "to(opp)", "sp?(+1)", "target?(x)", "FROM(y)", "+rush", "-pierce", "uynt", "&", "&&",
                    "||", ";", "{F}", "{D(2)}", ":", "[[may]]", "[[may 'q']]", "[[if me.hp > 1]]", "[[elif x]]",
                    "[[else]]", "~myEndPhase~"]


def _statement_values() -> list[str]:
    """Every action and auto value of the demo game, and random sequences of STATEMENT_PIECES."""
    values = []
    for path in sorted((ROOT / "cards" / "cfc-demo" / "rules").glob("*.ini")):
        for line in path.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            if key.strip() in ("action", "auto"):
                values.append(value)
    rng = random.Random(7)
    for _ in range(4000):
        values.append(" ".join(rng.choice(STATEMENT_PIECES) for _ in range(rng.randint(0, 9))))
    return values


def test_statement_outlines_match_the_grammar() -> None:
    accepted = rejected = 0
    for text in _statement_values():
        for start, trigger in (("action_value", False), ("auto_value", True), ("chain_value", False)):
            try:
                toks = lex_statements(text, 3, trigger)
            except P.LexError:
                continue
            try:
                expected = P._parse(toks, start, len(text), 3)
            except P.LexError:
                assert P._outline(toks, start) is None, (start, text)
                rejected += 1
                continue
            assert P._outline_tree(P._outline(toks, start), start) == expected, (start, text)
            accepted += 1
    assert accepted > 1500 and rejected > 5000


# more statement text, much of it damaged: the lexer's fast path gives up on it (or must not take it)
LEXER_PIECES = STATEMENT_PIECES + ["sp ?(+1)", "x?", "target ? (x)", "|", "{}", "[[]]", "[[ may 'q']]", "(", ")", "[",
                                   "]", "'", '"', "__x", "a(b[c(d[e(f)])])", "a((((((x))))))", "f('a)')", "{", "[[x]]",
                                   "+", "-", "a-b(1)", "\n", "?", "~", "x ?\n(1)", "é", "[[if 'a]]']]", "{'}'}"]


def _lex(lexer: Any, text: str, trigger: bool) -> Any:
    try:
        return lexer(text, 3, trigger)
    except LexError as exc:
        return exc.message, exc.start, exc.end, exc.expected, exc.code


def test_statement_lexer_fast_path_matches_the_scanner() -> None:
    rng = random.Random(11)
    texts = _statement_values()
    texts += ["".join(rng.choice(LEXER_PIECES) + rng.choice(["", " ", "  "]) for _ in range(rng.randint(0, 8)))
              for _ in range(4000)]
    for text in texts:
        for trigger in (False, True):
            assert _lex(lex_statements, text, trigger) == _lex(_lex_statements_scan, text, trigger), text


def _golden_statement_values() -> list[str]:
    """The action and auto values, and the each chains, of every file of the golden sets (the demo game,
    generated rules, damaged files)."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    values = []
    for s in data["sets"]:
        for f in s["files"]:
            for section in read_rule_file(f["text"], f["name"], DiagnosticBag()).sections:
                for prop in section.properties:
                    if prop.key in ("action", "auto"):
                        text = prop.value.text
                        values.append(text)
                        values += [text[m.end():] for m in re.finditer("=>", text)]  # chains, and more
    return values


def _damaged_statement(rng: random.Random, text: str) -> str:
    return _mutated(rng, text, LEXER_PIECES)


def _exact_outline(text: str, base: int, start: str) -> Any:
    try:
        return P._outline(lex_statements(text, base, start == "auto_value"), start)
    except LexError:
        return None


def test_one_pass_statement_outlines_match_the_exact_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """_fast_outline reads, in one pass without tokens, exactly the outline of the lexer's tokens (which
    test_statement_outlines_match_the_grammar compares with the grammar), and declines only what has
    none, or what the lexer's own fast path leaves to its scanner (deep nesting, odd brackets)."""
    scanned = []
    scan = L._lex_statements_scan

    def spy(text: str, base: int, allow_trigger: bool) -> Any:
        scanned.append(text)
        return scan(text, base, allow_trigger)

    monkeypatch.setattr(L, "_lex_statements_scan", spy)
    rng = random.Random(17)
    texts = _golden_statement_values() + _statement_values()
    texts += [_damaged_statement(rng, rng.choice(texts)) for _ in range(6000)]
    texts += ["".join(rng.choice(LEXER_PIECES) + rng.choice(["", " ", "  "]) for _ in range(rng.randint(0, 8)))
              for _ in range(4000)]
    texts += ["", " ", "~x~", " ~x~ ", "?x?", "~x", "{F}", "{F}:", "{F}: a()", "{F}{D}: a();", "a(); ", "; a()",
              "[[if x]]", "[[if x]];a()", "[[IF x]][[Else]]b()", "[[elif x]] a()", "[[may]]", "[[if x]] [[may]] a()",
              "[[if x]] a() [[else]] b() [[elif y]] c()", "[[if x]] a() [[else]] b() [[else]] c()", "a() : b()",
              "[[if2 x]] a()", "[[ if  x ]] a()", "[[else]] a()", "{F} a()", "a() {F}: b()", "~t~ {F}: a()"]
    fast = declined = 0
    for text in texts:
        for start in ("action_value", "auto_value", "chain_value"):
            scanned.clear()
            exact = _exact_outline(text, 5, start)
            got = P._fast_outline(text, 5, start)
            if got is not None:
                fast += 1
                assert got == exact, (start, text)
            elif exact is not None:
                declined += 1
                assert scanned, (start, text)
    assert fast > 5000 and declined < 500


def test_statement_readers_take_the_one_pass_path() -> None:
    assert P.read_action("{F}: a() to(x); [[if y]] b()") == P._fast_outline("{F}: a() to(x); [[if y]] b()", 0,
                                                                           "action_value")
    assert P.read_chain("a(((((x)))))", 4) == _exact_outline("a(((((x)))))", 4, "chain_value")  # too deep: exact
    with pytest.raises(LexError):
        P.read_auto("~x~ a() b(")


def test_split_top_level_matches_the_plain_scan() -> None:
    rng = random.Random(5)
    alphabet = list("ab ,;()[]{}'\"") + ["xy", ", ", "::"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        for sep in (",", ";", "(", "::", ""):
            assert _lex(lambda t, b, _: L.split_top_level(t, sep, b), text, False) == \
                _lex(lambda t, b, _: L._split_top_level_slow(t, sep, b), text, False), (text, sep)


def test_driver_reports_expected_tokens_at_end_of_value() -> None:
    with pytest.raises(P.LexError) as info:
        P.parse_expr("1 +")
    assert info.value.message == "unexpected end of expression"
    assert "a name" in info.value.expected and "an integer" in info.value.expected


def test_bodies_and_filters_span_all_their_elements() -> None:
    # both are made at their first element and grow in place (rulescript.compiler.parser._body_more, _filter_more)
    body = P.parse_chain("a(1)  to(x) ", 3)
    assert (body.start, body.end, len(body.items)) == (3, 14, 2)
    filters = P.parse_filters("<2>a @b; c")
    assert [(f.start, f.end, len(f.segments)) for f in filters] == [(0, 7, 3), (9, 10, 1)]


def test_grammar_is_lalr_without_conflicts() -> None:
    # lark refuses to build an LALR table with conflicts, so building it is the check
    assert P._driver().start_states.keys() >= set(P.START_SYMBOLS)


@pytest.mark.parametrize("text, expected", [
    ("card in opp.ring", True), ("card IN me.hand", True), ("f(x in y)", False), ("[a in b]", False),
    ("'in' + x", False), ("\"a)\" in x", True), ("(a) in b", True), (") in b", False), ("x.inside", False),
    ("f(in) in g", True), ("'(' in x", True), ("{a in b}", True),
])
def test_each_head_in_at_top_level(text: str, expected: bool) -> None:
    assert RuleCompiler._in_at_top(text) is expected


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

