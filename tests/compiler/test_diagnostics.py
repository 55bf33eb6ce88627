"""Each documented diagnostic class of rulescript.md section 11, with exact line and column."""

from __future__ import annotations

import pytest

from rulescript.diagnostics import Diagnostic, Span, render, suggest
from tests.compiler.helpers import compile_rules, errors, only_error

# (name, rule text, code, line, column, width, words the message or notes must contain)
CASES = [
    # ---- syntax (RS1xx)
    ("unbalanced paren", "[a]\naction = damage(250 to(opp)\n", "RS101", 2, 16, 1, ["missing ')'"]),
    ("extra bracket in filter", "[a]\ntarget = <,2>characters[bp<=400]]@myRing\naction = bp(+1)\n", "RS101", 2, 33, 1,
     ["unexpected ']'", "'@'", "'::'", "';'", "end of value"]),
    ("unterminated string", "[a]\naction = moveTo(hand) to(\"Mirror@myDeck)\n", "RS101", 2, 26, 15, ["unterminated"]),
    ("missing separator", "[a]\naction = draw() draw()\n", "RS101", 2, 17, 6, ["'&'", "';'"]),
    ("cost without colon", "[a]\naction = {F} draw()\n", "RS101", 2, 14, 4, ["':'"]),
    ("unknown guard", "[a]\naction = [[when true]] draw()\n", "RS101", 2, 12, 4, ["'may'", "'if'"]),
    ("misplaced else", "[a]\naction = draw(); [[else]] sp(+1)\n", "RS101", 2, 18, 6, ["[[else"]),
    ("continuation first", "  draw()\n[a]\naction = draw()\n", "RS102", 1, 3, 6, ["continuation"]),
    ("bad section id", "[a b]\naction = draw()\n", "RS103", 1, 2, 3, ["invalid section id"]),
    ("duplicate section", "[a]\naction = draw()\n[A]\naction = draw()\n", "RS104", 3, 2, 1, ["duplicate"]),
    ("two target clauses", "[a]\naction = destroy() to(character) to(opp)\n", "RS108", 2, 34, 7, ["one target clause"]),
    ("two restrictions", "[a]\naction = +rush ueot uynt\n", "RS108", 2, 21, 4, ["one restriction"]),
    ("property before header", "action = draw()\n[a]\naction = draw()\n", "RS109", 1, 1, 6, ["before the first section"]),
    ("reserved dunder", "[a]\naction = draw(me.__class__)\n", "RS106", 2, 18, 9, ["reserved"]),
    # ---- unknown names (RS2xx)
    ("unknown command", "[a]\naction = {F}: damge(250) to(character[fresh]@oppRing)\n", "RS201", 2, 15, 5, ["damage"]),
    ("unknown key", "[a]\nactoin = draw()\n", "RS202", 2, 1, 6, ["action"]),
    ("unknown cost", "[a]\naction = {X}: draw()\n", "RS203", 2, 11, 1, ["cost 'X'"]),
    ("unknown type", "[a]\naction = destroy() to(charactr@oppRing)\n", "RS204", 2, 23, 8, ["character"]),
    ("unknown filter word", "[a]\naction = destroy() to(character[frozn]@oppRing)\n", "RS205", 2, 33, 5, ["frozen"]),
    ("unknown stat", "[a]\naction = destroy() to(character[hpp>1])\n", "RS205", 2, 33, 3, ["stat"]),
    ("unknown zone", "[a]\naction = destroy() to(character@oppRng)\n", "RS206", 2, 33, 6, ["oppring"]),
    ("prefix on arena", "[a]\naction = destroy() to(character@myArena)\n", "RS206", 2, 33, 7, ["takes no prefix"]),
    ("unknown event", "[a]\nauto = ~myEndPhse~ draw()\n", "RS207", 2, 9, 9, ["myEndPhase"]),
    ("unknown suffix", "[a]\nauto = ~removed:thiss~ draw()\n", "RS207", 2, 17, 5, ["this"]),
    ("unknown ability", "[a]\nabilities = unblockabel\n", "RS208", 2, 13, 11, ["unblockable"]),
    ("unknown +ability", "[a]\naction = +prierce\n", "RS208", 2, 11, 7, ["pierce"]),
    ("unknown restriction", "[a]\naction = +rush ueott\n", "RS209", 2, 16, 5, ["ueot"]),
    ("unknown game rule", "[a]\naction = disableRule(atack)\n", "RS210", 2, 22, 5, ["attack"]),
    ("unknown variable", "[a]\naction = damage(_x)\n", "RS211", 2, 17, 2, ["variable '_x'"]),
    ("unknown name", "[a]\naction = damage(mee.hp)\n", "RS211", 2, 17, 3, ["me"]),
    ("unknown function", "[a]\naction = [[if flipCion()]] draw()\n", "RS212", 2, 15, 8, ["flipCoin"]),
    ("unknown attribute", "[a]\naction = damage(me.hpp)\n", "RS213", 2, 20, 3, ["hp"]),
    ("unknown selector", "[a]\naction = destroy() to(characters::nott(tgt))\n", "RS214", 2, 35, 4, ["not"]),
    ("unknown pile", "[a]\naction = moveTo(hnd) to(<1>*@myDeck)\n", "RS215", 2, 17, 3, ["hand"]),
    ("unknown model", "[a]\naction = transform('sub-bos')\n", "RS216", 2, 21, 7, ["sub-boss"]),
    # ---- arity / type (RS3xx)
    ("too many args", "[a]\naction = damage(1, 2)\n", "RS301", 2, 16, 6, ["damage(num)"]),
    ("missing arg", "[a]\naction = turns()\n", "RS301", 2, 15, 2, ["turns(int)"]),
    ("wrong kind", "[a]\naction = turns(two)\n", "RS302", 2, 16, 3, ["integer", "turns(int)"]),
    ("tgt as a card", "[a]\ntarget = character@oppRing\naction = copyAbility(tgt)\n", "RS302", 3, 22, 3, ["tgt.0"]),
    ("attribute on list", "[a]\naction = damage(tgt.bp)\n", "RS302", 2, 21, 2, ["tgt.0.bp"]),
    ("restriction without lasting effect", "[a]\naction = draw() ueot\n", "RS303", 2, 17, 4, ["lasting"]),
    ("mixed conjunction", "[a]\naction = damage(1) to(opp&character)\n", "RS304", 2, 23, 13, ["players", "cards"]),
    ("min above max", "[a]\naction = destroy() to(<3,2>characters)\n", "RS305", 2, 23, 5, ["minimum 3"]),
    ("cost in auto", "[a]\nauto = ~endPhase~ {F}: draw()\n", "RS306", 2, 19, 3, ["no cost"]),
    ("trigger in action", "[a]\naction = ~endPhase~ draw()\n", "RS307", 2, 10, 10, ["no trigger"]),
    ("function arity", "[a]\naction = [[if isChar()]] draw()\n", "RS308", 2, 15, 8, ["1 argument"]),
    ("card outside quantifier", "[a]\naction = damage(card.bp)\n", "RS309", 2, 17, 4, ["quantifier"]),
    ("getTargets not literal", "[a]\nvars = _f := '*'\naction = damage(len(getTargets(_f)))\n", "RS310", 3, 32, 2,
     ["string literal"]),
    ("var reuses builtin", "[a]\nvars = me := 1\naction = draw()\n", "RS311", 2, 8, 2, ["built-in"]),
    ("conflicting suffixes", "[a]\nauto = ~removed:this:any~ draw()\n", "RS312", 2, 22, 3, ["exclude"]),
    # ---- unsupported (RS4xx)
    ("E cost", "[a]\naction = {E}: draw()\n", "RS401", 2, 10, 3, ["not supported", "alternative"]),
    ("moveTo ring", "[a]\naction = moveTo(ring) to(character@myHand)\n", "RS402", 2, 17, 4, ["only piles"]),
    ("condition-only in action", "[a]\naction = [[if me.sp > 1]]\n", "RS403", 2, 10, 16, ["only supported in an auto"]),
    ("power operator", "[a]\naction = damage(2 ** 8)\n", "RS401", 2, 17, 6, ["'**'"]),
    # ---- nesting limit (RS5xx class, found at compile time)
    ("nesting limit", "[a]\naction = damage(" + "(" * 70 + "1" + ")" * 70 + ")\n", "RS510", 2, 81, 1,
     ["64"]),
]


@pytest.mark.parametrize("name,text,code,line,col,width,words", CASES, ids=[c[0] for c in CASES])
def test_error_class_with_position(name, text, code, line, col, width, words) -> None:
    res = compile_rules(text)
    errs = errors(res)
    assert errs, f"{name}: no error"
    err = errs[0]
    assert (err.code, err.span.line, err.span.col) == (code, line, col), res.render()
    assert err.span.width == width, res.render()
    rendered = render(err, res.sources["rules.ini"])
    assert rendered.startswith(f"rules.ini:{line}:{col}: error[{code}]: ")
    caret_line = rendered.splitlines()[2]
    assert caret_line.index("^") == 4 + col - 1
    for word in words:
        assert word.lower() in rendered.lower(), rendered


WARNINGS = [
    ("repeated key", "[a]\nabilities = rush\nabilities = pierce\n", "RS901", 3, 1),
    ("zone in cost ignored", "[a]\naction = {D(reaction@oppHand)}: draw()\n", "RS902", 2, 21),
    ("extra label", "[a]\naction = draw()\nlabel = One\nlabel = Two\n", "RS903", 4, 1),
    ("static auto with condition", "[a]\nauto = [[if me.sp > 1]] +rush\n", "RS904", 2, 8),
    ("legacy reveal flag", "[a]\naction = moveTo(hand, false) to(<1>*@myDeck)\n", "RS905", 2, 23),
    ("empty rule", "[a]\nvars = _x := 1\n", "RS906", 1, 2),
    ("requisite without action", "[a]\nrequisite = character\nabilities = rush\n", "RS907", 2, 1),
    ("modDamage outside listener", "[a]\naction = modDamage(100)\n", "RS908", 2, 10),
    (":this on object-less event", "[a]\nauto = ~endPhase:this~ draw()\n", "RS909", 2, 18),
    ("zone on a player type", "[a]\naction = draw() to(me@myRing)\n", "RS910", 2, 22),
    ("player ability on a card", "[a]\nabilities = cantplayac\n", "RS911", 2, 13),
]


@pytest.mark.parametrize("name,text,code,line,col", WARNINGS, ids=[w[0] for w in WARNINGS])
def test_warning_class_with_position(name, text, code, line, col) -> None:
    res = compile_rules(text)
    assert not errors(res), res.render()
    warns = [d for d in res.diagnostics if d.code == code]
    assert warns, res.render()
    assert (warns[0].span.line, warns[0].span.col) == (line, col)
    assert warns[0].severity == "warning"


def test_compiler_reports_every_error_not_just_the_first() -> None:
    text = "[a]\naction = damge(1)\n[b]\naction = draw(mee)\n[c]\nauto = ~endPhse~ draw()\n"
    codes = [(e.code, e.span.line) for e in errors(compile_rules(text))]
    assert codes == [("RS201", 2), ("RS211", 4), ("RS207", 6)]


def test_a_bad_property_does_not_hide_the_next_one() -> None:
    res = compile_rules("[a]\ntarget = character@nowhere\naction = damge(1)\n")
    assert [e.code for e in errors(res)] == ["RS206", "RS201"]


def test_positions_inside_continued_values() -> None:
    err = only_error("[a]\naction = draw()\n    ; damge(1)\n")
    assert (err.span.line, err.span.col) == (3, 7)


def test_tabs_and_crlf_keep_columns() -> None:
    err = only_error("[a]\r\naction =\tdamge(1)\r\n")
    assert (err.span.line, err.span.col) == (2, 10)


def test_suggestions_use_edit_distance_and_prefix() -> None:
    assert suggest("damge", ["damage", "draw", "destroy"]) == ["damage"]
    assert suggest("moveT", ["moveTo", "moveToSlot", "moveRevealedTo", "draw"])[:2] == ["moveTo", "moveToSlot"]
    assert suggest("zzzz", ["damage"]) == []
    assert len(suggest("dra", ["draw", "drawx", "drab", "drag", "dram"])) == 3


def test_render_clamps_caret_and_handles_missing_source() -> None:
    d = Diagnostic("error", "RS101", "boom", Span("f.ini", 1, 3, 1, 40))
    out = render(d, "abcd")
    assert out.splitlines()[2] == "      ^~~"
    assert render(d) == "f.ini:1:3: error[RS101]: boom"


def test_json_shape_of_a_diagnostic() -> None:
    err = only_error("[a]\naction = damge(1)\n")
    data = err.to_dict()
    assert data == {"severity": "error", "code": "RS201", "message": "unknown command 'damge'", "file": "rules.ini",
                    "line": 2, "column": 10, "end_line": 2, "end_column": 15, "notes": ["did you mean: damage"]}


def test_edit_distance_and_suggestions_by_hand() -> None:
    """Distances worked out by hand (kitten -> sitting: 2 substitutions and 1 insertion), the early stop
    past the limit, and suggestions asked for twice, from a list and from a one-pass iterator (the
    suggestions of a name are remembered: a file with hundreds of errors repeats its unknown names)."""
    from rulescript.diagnostics import edit_distance, suggest
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("kitten", "sitting", 1) == 2  # past the limit: limit + 1
    assert edit_distance("", "abc", 3) == 3 and edit_distance("abc", "abc") == 0
    assert edit_distance("flaw", "lawn", 3) == 2
    known = ["draw", "drawn", "discard", "damage"]
    assert suggest("draww", known) == ["draw", "drawn"]
    assert suggest("draww", iter(known)) == ["draw", "drawn"]
    assert suggest("draww", known) == ["draw", "drawn"]
