"""Compiler checks that a one-line change used to break without a failing test (issue 22's mutation
test).  Each case is a rule written for docs/language.md's rule on it, compiled by the real compiler;
the expected verdict (ok, or the error code at its place) is read from the document."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.compiler import compile_game, compile_text

CARDS = [{"id": "a", "name": "A", "type": "character", "subtype": "ninja", "bp": 500, "sp": 0, "backup": []},
         {"id": "b", "name": "B", "type": "action", "sp": 0}]


def _codes(rule: str) -> list[str]:
    result = compile_text("[a]\n" + rule + "\n", filename="t.ini", cards=CARDS, cache=None)
    return [d.code for d in result.diagnostics if d.is_error]


# docs/language.md §4.5: "A quantity or pick of 0, a maximum of 0 and a minimum above the maximum
# select nothing and are errors" (RS305); <a,b> with a == b is a plain range, <rN> draws N at random.
@pytest.mark.parametrize("quantity, codes", [
    ("<2,2>", []),            # minimum equal to the maximum: two targets exactly
    ("<1,2>", []),
    ("<3,2>", ["RS305"]),     # minimum above the maximum
    ("<0,0>", ["RS305"]),     # maximum 0
    ("<,0>", ["RS305"]),
    ("<r1>", []),
    ("<r>", []),
    ("<r0>", ["RS305"]),      # a random quantity of 0
    ("<r2>", []),
])
def test_quantities(quantity: str, codes: list[str]) -> None:
    assert _codes(f"action = destroy() to({quantity}characters@oppRing)") == codes


# docs/language.md, costs: {D(n)} discards n chosen cards; "a quantity, pick or D(n) of 0" is RS305.
@pytest.mark.parametrize("cost, codes", [("{D(1)}", []), ("{D(2)}", []), ("{D(0)}", ["RS305"])])
def test_a_discard_cost_discards_at_least_one_card(cost: str, codes: list[str]) -> None:
    assert _codes(f"action = {cost}: draw()") == codes


# docs/language.md, operators: a sign needs a number; on text it is RS302.
@pytest.mark.parametrize("expr, codes", [("-3", []), ("+3", []), ("-'text'", ["RS302"]), ("+'text'", ["RS302"])])
def test_a_sign_before_text_is_an_error(expr: str, codes: list[str]) -> None:
    assert _codes(f"vars = _x := {expr}\naction = draw()") == codes


def test_the_same_section_id_in_two_files_is_reported(tmp_path: Path) -> None:
    """A game's rule ids are unique across its files: the second [a] is RS104 at its header, with a
    note naming the first file."""
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: cfc\nname: G\n")
    (game / "cards.yaml").write_text("cards:\n- {id: a, name: A, type: action, sp: 0}\n"
                                     "- {id: b, name: B, type: action, sp: 0}\n")
    (game / "rules" / "one.ini").write_text("[a]\naction = draw()\n")
    (game / "rules" / "two.ini").write_text("[b]\naction = draw()\n\n[a]\naction = draw(2)\n")
    result = compile_game(game, cache=None)
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in errors] == [("RS104", "two.ini", 4)]
    assert "one.ini" in " ".join(errors[0].notes)
    (game / "rules" / "two.ini").write_text("[b]\naction = draw()\n")
    assert compile_game(game, cache=None).ok


def _filter(rule: str) -> dict:
    """The first filter of the first statement's target clause of ``[a]``'s action."""
    result = compile_text("[a]\n" + rule + "\n", filename="t.ini", cards=CARDS, cache=None)
    assert result.ok, result.render()
    return result.rules["a"]["actions"][0]["stmts"][0]["branches"][0]["body"]["clause"]["filters"][0]


# docs/language.md §4.5: <k> keeps the first k candidates, <-k> the last k (<+k> is <k>); docs/ir.md:
# the filter's "pick" is k or -k.
@pytest.mark.parametrize("pick, value", [("<2>", 2), ("<+2>", 2), ("<-2>", -2), ("<-1>", -1)])
def test_a_pick_keeps_its_sign(pick: str, value: int) -> None:
    assert _filter(f"action = moveTo(removed) to(*{pick}@myDeck)")["pick"] == value


# docs/language.md §4: a plural type ('characters') selects every candidate, a singular one
# ('character') one; docs/ir.md: the filter's "plural".
@pytest.mark.parametrize("types, plural", [("characters", True), ("character", False), ("actions", True),
                                           ("action", False), ("characters,actions", True)])
def test_a_plural_type_is_plural(types: str, plural: bool) -> None:
    assert _filter(f"action = destroy() to({types}@oppRing)")["plural"] is plural


# docs/language.md §7 (abilities): a player ability given to a card, or a character ability to a
# player, does nothing; the compiler warns (RS911).
@pytest.mark.parametrize("action, warned", [("+rush to(me)", True), ("+cantplayre to(opp)", False),
                                            ("+cantplayre to(characters@myRing)", True),
                                            ("-cantblock to(characters@myRing)", False)])
def test_an_ability_given_to_what_cannot_hold_it_is_warned(action: str, warned: bool) -> None:
    result = compile_text(f"[a]\naction = {action}\n", filename="t.ini", cards=CARDS, cache=None)
    assert result.ok
    assert ("RS911" in [d.code for d in result.diagnostics]) is warned


# docs/language.md §8: '+' with a list on either side joins lists, so the result is a list; a command
# argument that needs a number and gets a list is RS302, whichever side the list is on.
@pytest.mark.parametrize("arg, codes", [("3 + 2", []), ("[1, 2] + 3", ["RS302"]), ("3 + [1, 2]", ["RS302"]),
                                        ("1 + [1].size", [])])
def test_a_sum_with_a_list_on_either_side_is_a_list(arg: str, codes: list[str]) -> None:
    assert _codes(f"action = draw({arg})") == codes


# docs/ir.md: a position is [line, col, end_col] (1-based columns, end_col just past the last
# character). "[a]" is line 1, so the action is line 2; in "action = destroy() to(" the '(' is column
# 22, so a filter starting with a quantity begins at its '<', column 23, and "<2>characters@oppRing"
# (21 characters) ends before column 44.
@pytest.mark.parametrize("flt, at", [("<2>characters@oppRing", [2, 23, 44]), ("<,1>character", [2, 23, 36])])
def test_a_filter_with_a_quantity_starts_at_its_angle(flt: str, at: list[int]) -> None:
    assert _filter(f"action = destroy() to({flt})")["at"] == at


def _error_at(rule: str) -> tuple[str, int, int]:
    result = compile_text("[a]\n" + rule + "\n", filename="t.ini", cards=CARDS, cache=None)
    errors = [d for d in result.diagnostics if d.is_error]
    assert len(errors) == 1, result.render()
    return errors[0].code, errors[0].span.col, errors[0].span.end_col


# docs/language.md §4.5: a pick of 0 is RS305, reported at the pick '<0>'. In
# "action = moveTo(removed) to(*" the '*' is column 29, so the pick spans columns 30-32 (end 33),
# whatever follows it (a block, a zone).
@pytest.mark.parametrize("flt", ["*<0>@myDeck", "*<0>[bp>1]@myDeck", "*<0>"])
def test_a_pick_of_zero_is_reported_at_the_pick(flt: str) -> None:
    assert _error_at(f"action = moveTo(removed) to({flt})") == ("RS305", 30, 33)


# docs/language.md §5.7: a target clause with a '.' attribute or index outside quotes is an
# expression (docs/ir.md: the clause has "expr" instead of "filters"), also when brackets come
# before the '.': the brackets close before it.
@pytest.mark.parametrize("target", ["(trigger).controller", "([me, opp]).1", "([opp]).0"])
def test_a_dot_after_closed_brackets_makes_an_expression_target(target: str) -> None:
    result = compile_text(f"[a]\naction = loseLife(100) to({target})\n", filename="t.ini", cards=CARDS, cache=None)
    assert result.ok, result.render()
    clause = result.rules["a"]["actions"][0]["stmts"][0]["branches"][0]["body"]["clause"]
    assert "expr" in clause and "filters" not in clause


# RS510 (docs/language.md, limits): besides 64 levels of brackets, a tree deeper than the compiler's
# MAX_AST_DEPTH + 1 nodes (a long chain of binary operators) is refused, at the first node past that
# depth.  "(not _y)" followed by N times " - 1" puts the '-' nodes at depths 1..N, the 'not' at N + 1
# and '_y' at N + 2.  "vars = _y := 1; _x := " is 22 characters: '(' is column 23, '_y' columns 28-29.
def test_a_not_at_the_deepest_level_is_lowered_and_its_operand_refused() -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def first_error(n: int) -> tuple[str, int, int]:
        result = compile_text("[a]\nvars = _y := 1; _x := (not _y)" + " - 1" * n + "\naction = draw()\n",
                              filename="t.ini", cards=CARDS, cache=None)
        d = [d for d in result.diagnostics if d.is_error][0]
        return d.code, d.span.col, d.span.end_col

    assert first_error(MAX_AST_DEPTH - 1)[0] == "RS302"  # in depth: only the bool operand of '-' is wrong
    assert first_error(MAX_AST_DEPTH) == ("RS510", 28, 30)  # 'not' at the deepest level, '_y' past it
    assert first_error(MAX_AST_DEPTH + 1) == ("RS510", 23, 31)  # the 'not' itself past it


# docs/language.md §4: a filter of several types is "plural when one of its types is plural, or is
# `all` or `players`" (docs/ir.md: the filter's "plural").
@pytest.mark.parametrize("types, plural", [("all,character", True), ("players,me", True), ("me,opp", False),
                                           ("character,action", False), ("action,characters", True)])
def test_several_types_are_plural_when_one_is_all_or_players(types: str, plural: bool) -> None:
    assert _filter(f"action = destroy() to({types}@oppRing)")["plural"] is plural
