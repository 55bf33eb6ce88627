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


def _werewolf_error(params: str) -> tuple[str, int, int, int] | None:
    """The error of a werewolf rule whose ``params`` key (the profile's list of words) is ``params``:
    (code, line, col, end_col), or None when it compiles."""
    src = f"[x]\ntiming = immediate night\nparams = {params}\ntarget = player[alive]\naction = kill() to(selection)\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    errors = [d for d in result.diagnostics if d.is_error]
    return (errors[0].code, errors[0].span.line, errors[0].span.col, errors[0].span.end_col) if errors else None


# docs/ir.md: a rule key of kind `words` is a list (docs/werewolf.md: `params` takes the WWRF parameters
# visitless, forced, direct, vanishing, repeating, silent), written as words separated by commas; each
# word is checked (lower-cased) against the profile's list.
def test_a_rule_key_of_words_reads_each_word_of_its_list() -> None:
    src = "[x]\ntiming = immediate night\nparams = visitless, Forced\ntarget = player[alive]\naction = kill() to(selection)\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert result.ok, result.render()
    assert result.rules["x"]["keys"]["params"] == ["visitless", "forced"]


# An unknown word of the list is RS210 at that word. "params = " is 9 characters, so the value starts at
# column 10 of line 3: in "visitless, bogus" 'bogus' is at offset 11 (column 21, end 26); in
# "forced,  silent , nope" 'nope' is at offset 18 (column 28, end 32).
@pytest.mark.parametrize("params, at", [("bogus", (10, 15)), ("visitless, bogus", (21, 26)),
                                        ("visitless,bogus", (20, 25)), ("forced,  silent , nope", (28, 32))])
def test_an_unknown_word_of_a_list_is_reported_at_that_word(params: str, at: tuple[int, int]) -> None:
    assert _werewolf_error(params) == ("RS210", 3, *at)


# A key of kind `word` takes one word: "yes, no" is not one of `showvoters`'s words (RS210 over the whole
# value: "showvoters = " is 13 characters, so columns 14 to 21).
def test_a_rule_key_of_one_word_is_not_read_as_a_list() -> None:
    src = "[x]\ntiming = immediate night\nshowvoters = yes, no\ntarget = player[alive]\naction = kill() to(selection)\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert [(d.code, d.span.line, d.span.col, d.span.end_col) for d in result.diagnostics if d.is_error] == \
        [("RS210", 3, 14, 21)]


def _game_folder(tmp_path: Path, cards: str) -> Path:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "cards.yaml").write_text(cards)
    (game / "rules" / "one.ini").write_text("[a]\naction = draw()\n")
    return game


# docs/game-format.md: cards.yaml holds the card list under the key 'cards'; a file that does not is
# RD102, reported at the start of cards.yaml (line 1, column 1).
@pytest.mark.parametrize("cards", ["cards: {a: 1}\n", "- {id: a, name: A, type: action, sp: 0}\n", "name: x\n"])
def test_a_cards_file_without_a_card_list_is_reported_at_its_start(tmp_path: Path, cards: str) -> None:
    game = _game_folder(tmp_path, cards)
    result = compile_game(game, profile="cfc", cache=None)
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, Path(d.span.file).name, d.span.line, d.span.col) for d in errors] == [("RD102", "cards.yaml", 1, 1)]
    assert "cards.yaml:1:1: error[RD102]: cards.yaml must hold a list under the key 'cards'" in result.render()


# docs/editors.md: the language server checks the unsaved text of game.yaml too. A game.yaml typed in the
# editor and not yet saved names the profile (werewolf) and its role lists, whose roles must be role cards
# of cards.yaml (RS105, reported on game.yaml).
def test_an_unsaved_game_yaml_names_the_profile_and_its_role_lists_are_checked(tmp_path: Path) -> None:
    from rulescript import textfile

    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "cards.yaml").write_text("cards:\n- {id: villager, name: Villager, type: role, rules: [villager--1]}\n")
    (game / "rules" / "villager.ini").write_text(
        "[villager--1]\ntiming = immediate night\ntarget = player[alive]\naction = kill() to(selection)\n")
    manifest = str(game / "game.yaml")
    textfile.OVERLAY[manifest] = "profile: werewolf\nname: G\nrole_lists:\n  2: [villager, nobody]\n"
    try:
        result = compile_game(game, cache=None)
    finally:
        del textfile.OVERLAY[manifest]
    assert result.profile == "werewolf"
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, Path(d.span.file).name) for d in errors] == [("RS105", "game.yaml")]
    assert "no role card 'nobody' in cards.yaml (game.yaml role_lists)" in errors[0].message
    # saved to nowhere: without the buffer the folder has no game.yaml and the rules are read as cfc's
    assert compile_game(game, cache=None).profile == "cfc"


# docs/ir.md: a section's `keys` hold each rule key by its kind: `word` the word, `words` a list, `int` a
# number, `text` the string (docs/werewolf.md: timing and status are words, temporal a text, quantity a
# number, params a list of words).
def test_each_rule_key_is_read_by_its_kind() -> None:
    src = ("[x]\ntiming = immediate night\ntemporal = night 2+\nquantity = 2\nstatus = ghostly\nparams = visitless\n"
           "target = player[alive]\naction = kill() to(selection)\n")
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert result.ok, result.render()
    assert result.rules["x"]["keys"] == {"timing": "immediate night", "temporal": "night 2+", "quantity": 2,
                                         "status": "ghostly", "params": ["visitless"]}


# An `expr` key is an expression (docs/ir.md: EXPR; `condition` repeats, so a list of them): "condition = "
# is 12 characters, so the expression is columns 13 to 40 of line 3, and its type is bool.
def test_a_rule_key_of_kind_expr_is_an_expression() -> None:
    src = "[x]\ntiming = immediate night\ncondition = not has(selection, 'doused')\ntarget = player[alive]\n" \
          "action = kill() to(selection)\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert result.ok, result.render()
    (cond,) = result.rules["x"]["keys"]["condition"]
    assert (cond["e"][0], cond["at"], cond["type"]) == ("not", [3, 13, 41], "bool")


# docs/language.md §3.5 and docs/ir.md: `requisite` is a list of filters (joined by '&&'). "requisite = "
# is 12 characters, so the first filter starts at column 13 of line 2; "character@myRing" ends before 29,
# and "character@oppRing" starts at column 33 (after " && ") and ends before 50.
def test_a_requisite_is_read_as_its_filters() -> None:
    result = compile_text("[a]\nrequisite = character@myRing && character@oppRing\naction = draw()\n",
                          filename="t.ini", cards=CARDS, cache=None)
    assert result.ok, result.render()
    requisite = result.rules["a"]["requisite"]
    assert [(f["zone"], f["at"]) for f in requisite] == [({"z": "ring", "p": "my"}, [2, 13, 29]),
                                                         ({"z": "ring", "p": "opp"}, [2, 33, 50])]
    assert compile_text("[a]\naction = draw()\n", filename="t.ini", cards=CARDS, cache=None).rules["a"]["requisite"] is None


# docs/language.md §4: in a filter, types separated by commas are a list of types; when a command's last
# argument is a filter, its commas are that list's, not more arguments (steal takes one filter).
# "action = steal(" is 15 characters: the filter "character, action@myRing" is columns 16 to 39.
def test_the_commas_of_a_last_filter_argument_separate_its_types() -> None:
    result = compile_text("[a]\naction = steal(character, action@myRing) to(character@oppRing)\n",
                          filename="t.ini", cards=CARDS, cache=None)
    assert result.ok, result.render()
    (arg,) = result.rules["a"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"]
    (flt,) = arg["filters"]
    assert [[t["v"] for t in group] for group in flt["types"]] == [["character"], ["action"]]
    assert flt["at"] == [2, 16, 40] and flt["zone"] == {"z": "ring", "p": "my"}


# The same when the filter follows other arguments (werewolf's redirect(text, filter)): the commas after
# the first argument are the filter's. "action = redirect(" is 18 characters: 'killing' is columns 19 to
# 27, and the filter "me, player" columns 30 to 39.
def test_the_commas_of_a_filter_after_other_arguments_separate_its_types() -> None:
    src = "[x]\ntiming = immediate night\ntarget = player[alive]\naction = redirect('killing', me, player) to(selection) phase\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert result.ok, result.render()
    text, arg = result.rules["x"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"]
    assert (text["e"], text["at"]) == (["lit", "killing"], [4, 19, 28])
    (flt,) = arg["filters"]
    assert [[t["v"] for t in group] for group in flt["types"]] == [["me"], ["player"]]
    assert flt["at"] == [4, 30, 40]


# compile_file: without a card list, the game folder around the file supplies its cards.yaml, so a
# subtype is checked against the cards (docs/language.md: an unknown type is RS204; without a card
# database it is only RS914, read as a subtype). "action = destroy() to(" is 22 characters.
def test_a_rule_file_of_a_game_folder_is_checked_against_its_cards(tmp_path: Path) -> None:
    from rulescript.compiler.driver import compile_file

    game = _game_folder(tmp_path, "cards:\n- {id: a, name: A, type: character, subtype: ninja, bp: 500, sp: 0, backup: []}\n")
    (game / "game.yaml").write_text("profile: cfc\nname: G\n")
    rules = game / "rules" / "one.ini"
    rules.write_text("[a]\naction = destroy() to(ninja@oppRing)\n\n[b]\naction = destroy() to(pirate@oppRing)\n")
    result = compile_file(rules, cache=None)
    assert [(d.code, d.span.line, d.span.col, d.span.end_col) for d in result.diagnostics] == [("RS204", 5, 23, 29)]
    # a file in no game folder has no card database: both are read as subtypes, with a warning (RS914)
    lone = tmp_path / "lone.ini"
    lone.write_text(rules.read_text())
    result = compile_file(lone, cache=None)
    assert [(d.code, d.span.line, d.span.col) for d in result.diagnostics] == [("RS914", 2, 23), ("RS914", 5, 23)]


# docs/language.md RS105: a literal argument that the profile's `element_args` names must be a card of
# that type. A game may bring its own profile (game.yaml `profile: FILE.yaml`); here the werewolf profile
# with join's optional second argument named too. Only a literal text is checked: an argument not
# given (join('pack')) or a word (member) is not, and 'nowhere' is RS105 at its quotes
# ("auto = ~starting~ join(" is 23 characters: columns 24 to 32).
def test_only_the_literal_element_arguments_a_profile_names_are_checked(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    profile = (Path(__file__).resolve().parents[2] / "rulescript" / "games" / "werewolf" / "profile.yaml").read_text()
    assert profile.count("\n  join: {0: group}\n") == 1 and profile.count("\nprofile: werewolf\n") == 1
    (game / "wolfish.yaml").write_text(profile.replace("\n  join: {0: group}\n", "\n  join: {0: group, 1: group}\n")
                                       .replace("\nprofile: werewolf\n", "\nprofile: wolfish\n"))
    (game / "game.yaml").write_text("profile: wolfish.yaml\nname: G\n")
    (game / "cards.yaml").write_text("cards:\n- {id: villager, name: Villager, type: role, rules: [v--1, v--2, v--3]}\n"
                                     "- {id: pack, name: Pack, type: group}\n")
    (game / "rules" / "v.ini").write_text("[v--1]\nauto = ~starting~ join('pack') permanent\n\n"
                                          "[v--2]\nauto = ~starting~ join('pack', member) permanent\n\n"
                                          "[v--3]\nauto = ~starting~ join('nowhere') permanent\n")
    result = compile_game(game, cache=None)
    assert result.profile == "wolfish"
    assert [(d.code, d.span.line, d.span.col, d.span.end_col) for d in result.diagnostics] == [("RS105", 8, 24, 33)]


def _first_error(src: str, profile: str = "cfc") -> tuple[str, int, int, int, str]:
    result = compile_text(src, filename="t.ini", cards=CARDS if profile == "cfc" else None, profile=profile, cache=None)
    d = [d for d in result.diagnostics if d.is_error][0]
    return d.code, d.span.line, d.span.col, d.span.end_col, d.message


# docs/language.md §8.5: isChar(x), len and the other Python functions take one argument, flipCoin()
# none, round one or two; a wrong number is RS308 over the whole call, its message saying how many the
# function takes: the number, or "LO to HI" for a function that takes a range.
# "action = [[if " is 14 characters, so a call in the guard starts at column 15.
@pytest.mark.parametrize("action, end, message", [
    ("[[if isChar()]] draw()", 23, "isChar() takes 1 argument, got 0"),
    ("[[if flipCoin(1)]] draw()", 26, "flipCoin() takes 0 arguments, got 1"),
    ("[[if len(1, 2) > 0]] draw()", 24, "len() takes 1 argument, got 2"),
    ("[[if round(1, 2, 3) > 0]] draw()", 29, "round() takes 1 to 2 arguments, got 3"),
])
def test_a_wrong_number_of_arguments_says_how_many_the_function_takes(action: str, end: int, message: str) -> None:
    assert _first_error(f"[a]\naction = {action}\n") == ("RS308", 2, 15, end, message)


# docs/language.md, costs: {F} takes no argument; "{F(...)}" is RS301 over the parenthesised argument,
# '(' to ')'. "action = {F" is 11 characters: '(' is column 12, and "(2)" ends before 15, "(abc)" before 17.
@pytest.mark.parametrize("cost, end", [("{F(2)}", 15), ("{F(abc)}", 17)])
def test_an_argument_of_a_cost_without_one_is_reported_over_its_parentheses(cost: str, end: int) -> None:
    assert _first_error(f"[a]\naction = {cost}: draw()\n") == ("RS301", 2, 12, end, "the cost {F} takes no argument")


_WOLF_RULE = "[x]\ntiming = immediate night\n{}\ntarget = player[alive]\naction = kill() to(selection)\n"


# docs/werewolf.md, rule keys: `quantity` is an integer (docs/ir.md: `int`); anything else is RS302 over
# the value without its surrounding blanks. "quantity = " is 11 characters: 'two' is columns 12-14
# (end 15); with two blanks before it, "two words" is columns 13-21 (end 22).
@pytest.mark.parametrize("line, col, end, word", [("quantity = two", 12, 15, "two"),
                                                  ("quantity =  two words ", 13, 22, "two words")])
def test_a_rule_key_that_is_not_an_integer_is_reported_over_its_value(line: str, col: int, end: int, word: str) -> None:
    assert _first_error(_WOLF_RULE.format(line), "werewolf") == (
        "RS302", 3, col, end, f"'quantity' takes an integer, not '{word}'")


# docs/language.md §2 (strings are delimited by ' or "; a label is "text, quoted or not"): a text rule key
# (docs/ir.md: `text`: the string) drops one pair of matching quotes around its value and nothing else (a lone quote is no pair).
@pytest.mark.parametrize("value, text", [("seer.divine", "seer.divine"), ("'seer.divine'", "seer.divine"),
                                         ('"a b"', "a b"), ("ab", "ab"), ("x", "x"), ("'a'b", "'a'b"),
                                         ("a'b'", "a'b'"), ('"\'"', "'"), ("'a\"", "'a\""),
                                         ("''", ""), ('""', ""), ("'", "'"), ('"', '"')])
def test_a_text_rule_key_drops_only_matching_quotes(value: str, text: str) -> None:
    result = compile_text(_WOLF_RULE.format(f"prompt = {value}"), profile="werewolf", filename="t.ini", cache=None)
    assert result.ok, result.render()
    assert result.rules["x"]["keys"]["prompt"] == text


# RS510 (docs/language.md §8.9) in a quantifier's list: as in the test above, "(not _y)" and N times
# " - 1" put the '-' nodes one level below the quantifier (depth 1), at depths 2..N+1, 'not' at N+2 and
# '_y' at N+3; past MAX_AST_DEPTH + 1 it is refused at '_y'. "vars = _y := 1; _x := all true in " is
# 34 characters: '(' is column 35, '_y' columns 40-41 (end 42).
def test_a_quantifiers_list_is_one_level_deeper_than_the_quantifier() -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def first_error(n: int) -> tuple[str, int, int, int, str]:
        return _first_error("[a]\nvars = _y := 1; _x := all true in (not _y)" + " - 1" * n + "\naction = draw()\n")

    assert first_error(MAX_AST_DEPTH - 2)[0] == "RS302"  # in depth: only the bool operand of '-' is wrong
    assert first_error(MAX_AST_DEPTH - 1)[:4] == ("RS510", 2, 40, 42)  # '_y' past the deepest level


# docs/language.md §8.3: the compiler gives every expression a rough type and refuses what can never work.
# `a if c else b` has the type of its branches when both have the same one, else any type (checked when
# the rule runs): two texts where a number goes are RS302 over the whole conditional ("action = draw(" is
# 14 characters: columns 15 to 40), a text and a number are accepted, as are two numbers.
@pytest.mark.parametrize("arg, errors", [
    ("'a' if flipCoin() else 'b'", [("RS302", 15, 41, "expected a number, got a str")]),
    ("'a' if flipCoin() else 2", []), ("2 if flipCoin() else 'a'", []), ("1 if flipCoin() else 2", []),
])
def test_a_conditional_has_its_branches_type_only_when_they_agree(arg: str, errors: list) -> None:
    result = compile_text(f"[a]\naction = draw({arg})\n", filename="t.ini", cards=CARDS, cache=None)
    assert [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics] == errors


# docs/language.md §5.5: "[[else]] takes no condition" (RS101), reported over what stands after 'else'.
# "action = [[if flipCoin()]] draw() [[else " is 41 characters: the condition is columns 42 to 51 (end 52);
# with an [[elif]] before it, "… [[elif me.hp > 1]] draw(3) [[ELSE " is 68: 'x' is column 69. An [[else]]
# with blanks alone has no condition. (It used to be dropped without a word: the rule compiled as if
# it were a plain [[else]].)
@pytest.mark.parametrize("rule, errors", [
    ("[[if flipCoin()]] draw() [[else flipCoin()]] draw(2)", [("RS101", 42, 52, "[[else]] takes no condition")]),
    ("[[if flipCoin()]] draw() [[elif me.hp > 1]] draw(3) [[ELSE x]] draw(2)",
     [("RS101", 69, 70, "[[else]] takes no condition")]),
    ("[[if flipCoin()]] draw() [[else  ]] draw(2)", []),
    ("[[if flipCoin()]] draw() [[else]] draw(2)", []),
])
def test_an_else_takes_no_condition(rule: str, errors: list) -> None:
    result = compile_text(f"[a]\naction = {rule}\n", filename="t.ini", cards=CARDS, cache=None)
    assert [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics] == errors


# docs/language.md §5.5: "The question of [[may]] must be quoted" (RS101 over the question). In
# "action = [[may draw a card]]" the question is columns 16 to 26 (end 27); a quoted one is the IR's
# "question" without its quotes, and a bare [[may]] has none.
def test_the_question_of_may_is_a_quoted_string() -> None:
    assert _first_error("[a]\naction = [[may draw a card]] draw()\n") == (
        "RS101", 2, 16, 27, "the question of [[may …]] must be a quoted string")
    for guard, question in (("[[may 'Draw one?']]", "Draw one?"), ('[[may "Yes"]]', "Yes"), ("[[may]]", None)):
        result = compile_text(f"[a]\naction = {guard} draw()\n", filename="t.ini", cards=CARDS, cache=None)
        assert result.ok, result.render()
        assert result.rules["a"]["actions"][0]["stmts"][0]["question"] == question


# docs/language.md (commands): an argument left empty between commas is RS301 "argument N of cmd() is
# empty", reported over the '(' or ',' before it and the character after: "action = moveTo(" is 16
# characters, so in "moveTo(, top)" columns 16-17 ('(' and ','); in "moveTo(deck,  )" the argument starts
# at column 24 (after ", "), reported over columns 23-24 (end 25).
@pytest.mark.parametrize("args, at, n", [(", top", (16, 18), 1), ("deck,  ", (23, 25), 2)])
def test_an_empty_argument_is_reported_where_it_stands(args: str, at: tuple[int, int], n: int) -> None:
    assert _first_error(f"[a]\naction = moveTo({args}) to(character@myRing)\n") == (
        "RS301", 2, *at, f"argument {n} of moveTo() is empty")


def _both_readings(text: str) -> tuple[dict, dict]:
    """The IR of one filter written at column 23 of line 2, lowered from the grammar's tree
    (FilterCompiler.filter, the exact reading of a filter in any order of segments) and by the fast path
    (FilterCompiler.filters, the usual reading of the canonical order)."""
    from rulescript.compiler import parser
    from rulescript.compiler.compile_filter import FilterCompiler
    from rulescript.compiler.context import CardDatabase, Ctx
    from rulescript.compiler.ini import Value
    from rulescript.compiler.profile import load_profile
    from rulescript.diagnostics import DiagnosticBag

    def compiler() -> FilterCompiler:
        return FilterCompiler(Ctx(load_profile("cfc"), CardDatabase(), DiagnosticBag(), Value(text, "t.ini", [(0, 2, 23)])))

    (node,) = parser.grammar_filters(text, 0, False)
    (fast,) = compiler().filters(text, 0)
    return compiler().filter(node), fast


# docs/ir.md (FILTER) and docs/language.md §4: both readings of a filter give the same IR. In
# "<1,2>characters<-1>[bp>100]@oppRing::not(me)" at column 23: choose 1 to 2 ("qty"), keep the last one
# ("pick" -1), BP above 100, the opponent's ring (written), not 'me' (columns 64-65), the filter over
# columns 23 to 66 (44 characters). Without types ("<2>@oppRing") it is any card ('*'), two chosen.
def test_a_filter_read_from_the_grammars_tree_has_the_ir_of_the_fast_reading() -> None:
    full = {"types": [[{"t": "ctype", "v": "character", "not": False, "notself": False}]], "selects": "card",
            "plural": True, "qty": {"mode": "choose", "min": 1, "max": 2}, "pick": -1,
            "block": [[{"a": "cmp", "stat": "bp", "op": ">", "v": 100, "neg": False, "notself": False}]],
            "zone": {"z": "ring", "p": "opp"}, "zone_written": True,
            "selector": {"s": "not", "x": {"e": ["name", "me"], "at": [2, 64, 66], "text": "me", "type": "player"}},
            "at": [2, 23, 67]}
    assert _both_readings("<1,2>characters<-1>[bp>100]@oppRing::not(me)") == (full, full)
    bare = _both_readings("<2>@oppRing")
    assert bare[0] == bare[1]
    assert (bare[0]["types"], bare[0]["qty"], bare[0]["pick"], bare[0]["at"]) == (
        [[{"t": "any", "v": "*", "not": False, "notself": False}]], {"mode": "choose", "min": 2, "max": 2}, None, [2, 23, 34])


# rulescript/compiler/driver.py (_collect_callers_young_objects, as the collector does for its middle
# generation): the caller's objects that a compile promotes to the oldest generation count towards a full
# collection, which runs once they pass a quarter of what survived the last one (and at least
# FULL_COLLECTION_MIN). After a last full collection that left 4,000,000 objects, a quarter is 1,000,000:
# with 999,950 counted before, a compile whose caller holds 100 young lists more passes it, and a cycle
# promoted while it was held is freed (a third, 1,333,333, would not be passed); with 900,000 before,
# the count stays below the quarter and no full collection runs.
def test_a_full_collection_runs_once_the_promoted_objects_pass_a_quarter_of_the_survivors(monkeypatch) -> None:
    from rulescript.compiler import driver
    from tests.compiler.test_collector import compile_demo_file, promote_a_cycle_then_drop_it

    def freed_after_compile(promoted_before: int) -> bool:
        alive = promote_a_cycle_then_drop_it(monkeypatch)
        monkeypatch.setattr(driver, "FULL_COLLECTION_MIN", 1000)
        monkeypatch.setattr(driver, "_PROMOTED", [promoted_before, 4_000_000])
        young = [[] for _ in range(100)]  # the caller's young objects, counted by the next compile
        compile_demo_file()
        del young
        if alive() is None:  # a full collection ran: the count starts again from nothing
            assert driver._PROMOTED[0] == 0
        return alive() is None

    assert freed_after_compile(999_950)
    assert not freed_after_compile(900_000)


# docs/language.md §3 and §5 (the shape of abilities, autos, costs, chains and each()): a malformed piece
# is RS101 (RS301 for a cost's argument) at the piece, never a traceback or a silent pass. Columns worked
# out from the rule's text (line 2): "abilities = rush," is 17 characters, so the empty name after it is at
# column 18; "auto = ~myEndPhase~" has no statement: its last character, column 19; in "{S(" the filter
# list starts at column 13 and "character;action" ends before 29; "auto = ~myEndPhase," is 19 characters
# and the empty event is the '~' after the blank, column 21; "action = each(tgt" puts 'tgt' at 15-17 and
# "tgt => " the '=>' at 19-20; "action = draw() &&" ends with '&&' at 17-18 (reported at its last
# character); a leading '&&' is columns 10-11, as is a reserved word used as a command.
@pytest.mark.parametrize("rule, error", [
    ("abilities = rush,, pierce\naction = draw()", ("RS101", 18, 19, "empty ability name")),
    ("auto = ~myEndPhase~", ("RS101", 19, 20, "an auto needs at least one statement after its trigger")),
    ("action = {S(character;action)}: draw()", ("RS301", 13, 29, "the cost {S(…)} takes one filter")),
    ("auto = ~myEndPhase, ~ draw()", ("RS101", 21, 22, "empty event in trigger")),
    ("action = each(tgt) draw()", ("RS101", 15, 18, "each() needs '=>' between its list and its chain")),
    ("action = each(tgt => ) ", ("RS101", 19, 21, "each() needs a chain after '=>'")),
    ("action = draw() && ", ("RS101", 18, 19, "the chain ends with '&&': an effect must follow")),
    ("action = && draw()", ("RS101", 10, 12, "unexpected '&&': an effect must come before it")),
    ("action = if(1)", ("RS101", 10, 12, "'if' is a reserved word, not a command")),
])
def test_a_malformed_piece_of_a_rule_is_reported_where_it_stands(rule: str, error: tuple) -> None:
    code, col, end, message = error
    assert _first_error(f"[a]\n{rule}\n") == (code, 2, col, end, message)


# docs/language.md §8.3: "arithmetic on … booleans or nil" and attributes of what cannot have them are
# RS302. A number or a text has no attributes: "vars = _x := (1)." is 17 characters, so 'bp' is columns
# 18-19 (end 20).
@pytest.mark.parametrize("value, typ", [("(1)", "int"), ("'a'", "str")])
def test_a_number_or_a_text_has_no_attributes(value: str, typ: str) -> None:
    assert _first_error(f"[a]\nvars = _x := {value}.bp\naction = draw()\n") == (
        "RS302", 2, 18, 20, f"a value of type {typ} has no attributes")


# docs/language.md §8.2: '+' joins two strings; with a text on either side the sum is a text, so where a
# number goes it is RS302 over the whole sum ("action = draw(" is 14 characters: from column 15).
@pytest.mark.parametrize("arg, end", [("'a' + 1", 22), ("1 + 'a'", 22), ("'a' + 'b'", 24)])
def test_a_sum_with_a_text_on_either_side_is_a_text(arg: str, end: int) -> None:
    assert _first_error(f"[a]\naction = draw({arg})\n") == ("RS302", 2, 15, end, "expected a number, got a str")


# RS510 (docs/language.md §8.9), as for 'not' above: "(_y == 1)" followed by N times " - 1" puts the
# comparison at depth N + 1 and its operands at N + 2; with N = MAX_AST_DEPTH the comparison is at the
# deepest level allowed and its first operand '_y' (columns 24-25) is the first node past it.
def test_a_comparison_at_the_deepest_level_is_lowered_and_its_operand_refused() -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def first_error(n: int) -> tuple:
        return _first_error("[a]\nvars = _y := 1; _x := (_y == 1)" + " - 1" * n + "\naction = draw()\n")[:4]

    assert first_error(MAX_AST_DEPTH) == ("RS510", 2, 24, 26)
    assert first_error(MAX_AST_DEPTH + 1) == ("RS510", 2, 23, 32)  # the comparison itself, "(_y == 1)", past it


# The profile entries a file uses (the compile result's "used", which the coverage report lists): a
# quantifier is "quantifier all" or "quantifier any" (docs/language.md §8.7).
def test_the_quantifiers_a_rule_uses_are_counted() -> None:
    src = "[a]\naction = [[if all card.bp > 1 in me.ring]] draw() [[elif any card.bp > 1 in opp.ring]] draw(2)\n"
    result = compile_text(src, filename="t.ini", cards=CARDS, cache=None)
    assert result.ok and {"quantifier all", "quantifier any"} <= result.used["operators"]
    result = compile_text("[a]\naction = [[if me.hp > 1]] draw()\n", filename="t.ini", cards=CARDS, cache=None)
    assert result.used["operators"] == {">"}


# docs/ir.md: a filter's "at" ends after its last segment; when that is a pick, after its '>'
# ("action = moveTo(removed) to(" is 28 characters: "*<2>" is columns 29-32, "characters<-1>" 29-42).
@pytest.mark.parametrize("flt, end", [("*<2>", 33), ("characters<-1>", 43)])
def test_a_filter_ending_with_a_pick_ends_after_it(flt: str, end: int) -> None:
    assert _filter(f"action = moveTo(removed) to({flt})")["at"] == [2, 29, end]


# docs/language.md §5 (each): the chain inside each() has no restriction of its own (RS108 at the
# restriction: "action = each(characters@myRing => draw() " is 42 characters, 'ueot' is columns 43-46).
def test_a_restriction_inside_each_is_reported_at_it() -> None:
    assert _first_error("[a]\naction = each(characters@myRing => draw() ueot)\n") == (
        "RS108", 2, 43, 47, "the chain inside each() cannot have a restriction")


# docs/language.md §6 (argument kinds): a `bpval` is `xN` (multiply by N), `=expression` (set) or a number
# (add); docs/ir.md: {"op": "mul", "n": N}, {"op": "set", "x": EXPR}, {"op": "add", "x": EXPR} ("+200" is
# a sign on 200, columns 73-76).
def test_a_bp_value_multiplies_sets_or_adds() -> None:
    src = "[a]\naction = bp(x2) to(character@myRing); bp(=300) to(character@myRing); bp(+200) to(character@myRing)\n"
    result = compile_text(src, filename="t.ini", cards=CARDS, cache=None)
    assert result.ok, result.render()
    args = [s["branches"][0]["body"]["effects"][0]["eff"]["args"][0] for s in result.rules["a"]["actions"][0]["stmts"]]
    assert args[0] == {"op": "mul", "n": 2}
    assert [(a["op"], a["x"]["e"]) for a in args[1:]] == [("set", ["lit", 300]), ("add", ["pos", ["lit", 200], [2, 73, 77]])]


# docs/language.md §7.3: an event's suffix groups take their default when none of the group is written
# (`:this` for the object: "none, :this, :fromthis" mean the same), whether other suffixes are written or
# not (docs/ir.md: the trigger's "groups"). A game may bring its own profile (game.yaml `profile: FILE`):
# here the cfc profile with a second suffix of the object group, `any`, also marked default; the first
# default of the group in the profile's order (`this`) is the one taken, with and without `:once`.
def test_an_event_takes_the_first_default_of_each_suffix_group(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    profile = (Path(__file__).resolve().parents[2] / "rulescript" / "games" / "cfc" / "profile.yaml").read_text()
    old = '  any: {group: object, doc: "any object"}\n'
    assert profile.count(old) == 1 and profile.count("\nprofile: cfc\n") == 1
    (game / "two.yaml").write_text(profile.replace(old, '  any: {group: object, default: true, doc: "any object"}\n')
                                   .replace("\nprofile: cfc\n", "\nprofile: two\n"))
    (game / "game.yaml").write_text("profile: two.yaml\nname: G\n")
    (game / "cards.yaml").write_text("cards:\n- {id: a, name: A, type: action, sp: 0}\n- {id: b, name: B, type: action, sp: 0}\n")
    (game / "rules" / "r.ini").write_text("[a]\nauto = ~anyRemoved~ draw()\n\n[b]\nauto = ~anyRemoved:once~ draw()\n")
    result = compile_game(game, cache=None)
    assert result.ok, result.render()
    assert [(r["auto"]["events"][0]["groups"], r["auto"]["events"][0]["flags"]) for r in (result.rules["a"], result.rules["b"])] \
        == [({"object": "this"}, []), ({"object": "this"}, ["once"])]


# A disk cache hit is kept in memory too (rulescript/compiler/driver.py CompileCache: "optionally
# persisted"): once read, the file compiles from memory even when the JSON file has gone, and it is still
# a hit (the result the same, RS201 at column 10).
def test_a_result_read_from_the_disk_cache_is_kept_in_memory(tmp_path: Path) -> None:
    from rulescript.compiler.driver import CompileCache

    bad = "[a]\naction = nosuchcommand()\n"
    compile_text(bad, filename="b.ini", cache=CompileCache(tmp_path))
    fresh = CompileCache(tmp_path)
    compile_text(bad, filename="b.ini", cache=fresh)
    for saved in tmp_path.glob("*.json"):
        saved.unlink()
    again = compile_text(bad, filename="b.ini", cache=fresh)
    assert (fresh.hits, fresh.misses) == (2, 0) and again.files[0].cached
    assert [(d.code, d.span.col) for d in again.diagnostics] == [("RS201", 10)]


# RS105 (docs/language.md): a literal element argument naming no card of its kind is reported in the file
# that holds the rule (a rule's "src" names its file): here rules/one.ini, line 2, at the quotes
# ("auto = ~starting~ join(" is 23 characters: columns 24 to 32).
def test_an_unknown_element_is_reported_in_the_rule_file_that_names_it(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: werewolf\nname: G\n")
    (game / "cards.yaml").write_text("cards:\n- {id: villager, name: Villager, type: role, rules: [v--1]}\n")
    (game / "rules" / "one.ini").write_text("[v--1]\nauto = ~starting~ join('nowhere') permanent\n")
    result = compile_game(game, cache=None)
    assert [(d.code, Path(d.span.file).relative_to(game).as_posix(), d.span.line, d.span.col, d.span.end_col)
            for d in result.diagnostics] == [("RS105", "rules/one.ini", 2, 24, 33)]


# rulescript/compiler/driver.py (CompileResult.warnings and .errors): a result splits its diagnostics by
# severity. [quiet] has a label but nothing to label (RS903, a warning) and does nothing (RS906, a
# warning); [broken]'s action is cut short (RS101, an error).
def test_a_compile_result_lists_its_warnings_and_its_errors_apart() -> None:
    from rulescript.compiler import compile_text

    r = compile_text("[quiet]\nlabel = nothing\n[broken]\naction = damage(\n", filename="w.ini", cache=None)
    assert [d.code for d in r.warnings] == ["RS903", "RS906"]
    assert [d.code for d in r.errors] == ["RS101"]
    assert not r.ok


# docs/language.md RS916 and the cfc profile's `actions_run_on`: a rule's `action` on an Action or Reaction
# card can always run; on a character only when cards.yaml gives it an ability of kind instant or trigger
# (docs/game-format.md: `ability: {kind: ..., name: ...}`, left out for a character without one). Any other
# character's action is a warning over the first six columns of its statement (after "action = ": columns
# 10 to 16), saying what the card has; an `ability` that is not a mapping is no ability.
def test_an_action_its_card_can_never_use_is_warned_at_its_key(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: cfc\nname: G\n")
    char = "type: character, subtype: ninja, bp: 500, sp: 0, backup: []"
    (game / "cards.yaml").write_text(
        "cards:\n"
        f"- {{id: none, name: None, {char}}}\n"
        f"- {{id: auto, name: Auto, {char}, ability: {{kind: auto, name: Aura}}}}\n"
        f"- {{id: inst, name: Inst, {char}, ability: {{kind: instant, name: Sparks}}}}\n"
        f"- {{id: trig, name: Trig, {char}, ability: {{kind: Trigger, name: Call}}}}\n"
        f"- {{id: word, name: Word, {char}, ability: instant}}\n"
        f"- {{id: calm, name: Calm, {char}}}\n"
        "- {id: act, name: Act, type: action, sp: 0}\n"
        "- {id: react, name: React, type: reaction, sp: 0}\n")
    (game / "rules" / "r.ini").write_text(
        "[none]\naction = draw()\n\n[auto]\n\naction = draw()\n\n[inst]\naction = draw()\n\n[trig]\naction = draw()\n\n"
        "[word]\naction = draw()\n\n[calm]\nauto = ~myEndPhase~ draw()\n\n[act]\naction = draw()\n\n"
        "[react]\naction = draw()\n")
    result = compile_game(game, cache=None)
    assert result.ok, result.render()
    got = [(d.severity, d.code, Path(d.span.file).name, d.span.line, d.span.col, d.span.end_col, d.message, d.notes)
           for d in result.diagnostics]
    note = ("a character card uses its action only with an ability of kind instant or trigger",)
    assert got == [
        ("warning", "RS916", "r.ini", 2, 10, 16, "the action of 'none' can never run: it has no ability in cards.yaml", note),
        ("warning", "RS916", "r.ini", 6, 10, 16, "the action of 'auto' can never run: its ability is auto in cards.yaml",
         note),
        ("warning", "RS916", "r.ini", 15, 10, 16, "the action of 'word' can never run: it has no ability in cards.yaml",
         note),
    ]


# A game's own profile may list only the ability kinds, only the card types, or leave `actions_run_on`
# out (then no action is warned about). With `ability_kinds: [instant]` alone, an Action card's action
# can run only with an instant ability too; with `card_types: [action]` alone, no ability lets a
# character use one ("(none)" in the note).
@pytest.mark.parametrize("run_on, warned", [
    ("actions_run_on:\n  ability_kinds: [instant]\n",
     [("none", "it has no ability", "a character card uses its action only with an ability of kind instant"),
      ("act", "it has no ability", "a action card uses its action only with an ability of kind instant")]),
    ("actions_run_on:\n  card_types: [action]\n",
     [("none", "it has no ability", "a character card uses its action only with an ability of kind (none)"),
      ("inst", "its ability is instant", "a character card uses its action only with an ability of kind (none)")]),
    ("", []),
])
def test_a_profile_says_which_actions_can_run(tmp_path: Path, run_on: str, warned: list) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    profile = (Path(__file__).resolve().parents[2] / "rulescript" / "games" / "cfc" / "profile.yaml").read_text()
    old = "actions_run_on:\n  card_types: [action, reaction]\n  ability_kinds: [instant, trigger]\n"
    assert profile.count(old) == 1 and profile.count("\nprofile: cfc\n") == 1
    (game / "mine.yaml").write_text(profile.replace(old, run_on).replace("\nprofile: cfc\n", "\nprofile: mine\n"))
    (game / "game.yaml").write_text("profile: mine.yaml\nname: G\n")
    char = "type: character, subtype: ninja, bp: 500, sp: 0, backup: []"
    (game / "cards.yaml").write_text(
        f"cards:\n- {{id: none, name: None, {char}}}\n"
        f"- {{id: inst, name: Inst, {char}, ability: {{kind: instant, name: Sparks}}}}\n"
        "- {id: act, name: Act, type: action, sp: 0}\n")
    (game / "rules" / "r.ini").write_text("[none]\naction = draw()\n\n[inst]\naction = draw()\n\n[act]\naction = draw()\n")
    result = compile_game(game, cache=None)
    assert result.profile == "mine" and result.ok, result.render()
    assert [(d.code, d.message, d.notes) for d in result.diagnostics] == [
        ("RS916", f"the action of '{rid}' can never run: {has} in cards.yaml", (note,)) for rid, has, note in warned]


# docs/werewolf.md: protect(kinds, mode, [when], [filter]) and redirect(text, [filter]) end with an optional
# filter. Given fewer arguments they take only those; given more commas than parameters, the commas after the
# third are the filter's types (docs/language.md §6.1). "action = protect(" is 17 characters: "all" is columns
# 18-20, and in the last case the filter "me, player" columns 38 to 47; fewer than the two required
# arguments is RS301 over the parentheses (17 to 21 for "(all)").
def test_an_optional_last_filter_may_be_left_out_and_takes_the_commas_after_it() -> None:
    def args(action: str):
        src = f"[x]\ntiming = immediate night\ntarget = player[alive]\naction = {action} to(selection)\n"
        result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
        errors = [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics if d.is_error]
        return errors or result.rules["x"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"]

    assert args("protect(all, active)") == ["all", "active"]
    assert args("protect(all, active, night)") == ["all", "active", "night"]
    *words, flt = args("protect(all, active, night, me, player)")
    assert words == ["all", "active", "night"]
    (f,) = flt["filters"]
    assert [[t["v"] for t in group] for group in f["types"]] == [["me"], ["player"]] and f["at"] == [4, 38, 48]
    (text,) = args("redirect('lynching')")
    assert (text["e"], text["at"]) == (["lit", "lynching"], [4, 19, 29])
    assert args("protect(all)") == [("RS301", 17, 22, "protect() takes 2 to 4 arguments, got 1")]
    # a command whose last parameter is no filter counts every comma: draw([num]) given two is RS301
    # ("action = draw" is 13 characters: the parentheses are columns 14 to 19)
    assert _first_error("[a]\naction = draw(1, 2)\n") == ("RS301", 2, 14, 20, "draw() takes 0 to 1 argument, got 2")


# RS510 (docs/language.md, limits) for every kind of expression: as in the tests above, X followed by N
# times " - 1" puts the '-' nodes at depths 1..N and X at N + 1. With N = MAX_AST_DEPTH + 1, X itself is past
# the deepest level and is refused over its whole text; with N = MAX_AST_DEPTH, X is at the deepest level and
# what is inside X is refused. "vars = _y := [1]; _x := " is 24 characters: X starts at column 25.
@pytest.mark.parametrize("x, inner", [
    ("7", None), ("'t'", None),                       # a literal has nothing inside
    ("[1]", (26, 27)),                                # a list: its item '1'
    ("me.hp", (25, 27)),                              # an attribute: its object 'me'
    ("[1].0", (25, 28)),                              # an index: its object '[1]'
    ("len(_y)", (29, 31)),                            # a call: its argument '_y'
    ("(1 * 2)", (26, 27)),                            # an operation: its left operand
    ("-_y", (26, 28)),                                # a sign: its operand
    ("(_y and _y)", (26, 28)),                        # and / or: the left operand
    ("(1 if _y else 2)", (26, 27)),                   # a conditional: its first branch
    ("(_y < 2)", (26, 28)),                           # a comparison: its left side
    ("(not _y)", (30, 32)),                           # not: its operand
    ("(all true in _y)", (38, 40)),                   # a quantifier: its list
])
def test_every_kind_of_expression_past_the_deepest_level_is_refused_over_its_text(x: str, inner) -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def error(n: int):
        result = compile_text("[a]\nvars = _y := [1]; _x := " + x + " - 1" * n + "\naction = draw()\n",
                              filename="t.ini", cards=CARDS, cache=None)
        return [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics if d.is_error][:1]

    message = "expression nested deeper than 64 levels"
    assert error(MAX_AST_DEPTH + 1) == [("RS510", 25, 25 + len(x), message)]
    assert error(MAX_AST_DEPTH) == ([("RS510", inner[0], inner[1], message)] if inner else [])


# The power operator and a call past the deepest level are refused there too, before what is wrong with
# them at a lower depth (docs/language.md: '**' is not supported, RS401; any() takes one argument, RS308).
@pytest.mark.parametrize("x, shallow", [
    ("(2 ** 2)", ("RS401", 25, 33, "the power operator '**' is not supported (huge powers are refused)")),
    ("any(_y, _ > 0)", ("RS308", 25, 39, "any() takes 1 argument, got 2")),
])
def test_a_power_or_a_wrong_call_past_the_deepest_level_is_refused_first(x: str, shallow: tuple) -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def error(n: int):
        result = compile_text("[a]\nvars = _y := [1]; _x := " + x + " - 1" * n + "\naction = draw()\n",
                              filename="t.ini", cards=CARDS, cache=None)
        return [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics if d.is_error][:1]

    assert error(MAX_AST_DEPTH + 1) == [("RS510", 25, 25 + len(x), "expression nested deeper than 64 levels")]
    assert error(MAX_AST_DEPTH) == [shallow]


# Every operand is one level below its operator, on either side: "-" written N times before "1" is a
# chain of N signs, so as an operand (depth 2) its signs are at depths 2..N+1 and the '1' at N + 2. With
# N = MAX_AST_DEPTH the '1' is past the deepest level (MAX_AST_DEPTH + 1) and refused, at column
# 25 + len(before) + N ("vars = _y := [1]; _x := " is 24 characters); one sign fewer is accepted.
@pytest.mark.parametrize("before, after", [
    ("1 - ", ""), ("1 + ", ""), ("1 < ", ""), ("_y and ", ""), ("_y or ", ""),   # right operands
    ("1 if _y else ", ""), ("", " if _y else 1"), ("1 if ", " else 2"),          # the three parts of a conditional
    ("len(", ")"), ("[", "]"), ("[1, ", "]"),                                   # an argument, list items
    ("(", ").bp"), ("(", ").0"),                                                # the object of an attribute, an index
])
def test_each_operand_is_one_level_below_its_operator(before: str, after: str) -> None:
    from rulescript.compiler.compile_expr import MAX_AST_DEPTH

    def errors(n: int):
        result = compile_text("[a]\nvars = _y := [1]; _x := " + before + "-" * n + "1" + after + "\naction = draw()\n",
                              filename="t.ini", cards=CARDS, cache=None)
        return [(d.code, d.span.col, d.span.end_col) for d in result.diagnostics if d.is_error]

    col = 25 + len(before) + MAX_AST_DEPTH
    assert errors(MAX_AST_DEPTH) == [("RS510", col, col + 1)]
    # (a number has no attribute .bp and cannot be indexed: RS302, not RS510)
    assert [e for e in errors(MAX_AST_DEPTH - 1) if e[0] == "RS510"] == []


# docs/language.md §4: a quoted card name has no escapes; a name written with a doubled quote ('it''s') is
# read as two names, and the second, a type after the types, is RS101 with a note saying to delimit the name
# with the other quote. "action = destroy() to(" is 22 characters: the second name is columns 27 to 29.
@pytest.mark.parametrize("name, note", [
    ("'it''s'", """a name is one quoted string with no escapes: to put ' in it, delimit it with " ("it's")"""),
    ('"it""s"', """a name is one quoted string with no escapes: to put " in it, delimit it with ' ('it"s')"""),
])
def test_a_doubled_quote_in_a_name_is_explained_with_the_other_quote(name: str, note: str) -> None:
    result = compile_text(f"[a]\naction = destroy() to({name}@myRing)\n", filename="t.ini", cards=CARDS, cache=None)
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert (d.code, d.span.col, d.span.end_col, d.message) == (
        "RS101", 27, 30, "a card type cannot come here in a target filter")
    assert d.notes == ("expected one of: '<…>', '[', '@', '::', ';', end of value", note)


# docs/language.md §5.7: a target clause is an expression when a '.' follows at the top level, also after a
# quoted text inside brackets (a '.' or '@' inside the quotes does not count): getTargets('…').0 is the first
# card the filter function gives ("action = loseLife(100) to(" is 26 characters: the expression is
# columns 27 to 59). A lone call without a '.' is read as a filter, where '(' cannot come (RS101 at it).
def test_a_quoted_text_in_brackets_does_not_hide_the_dot_of_an_expression_target() -> None:
    def clause(target: str):
        result = compile_text(f"[a]\naction = loseLife(100) to({target})\n", filename="t.ini", cache=None,
                              cards=CARDS + [dict(CARDS[0], id="s", name="Smile :)")])
        errors = [(d.code, d.span.col, d.span.end_col, d.message) for d in result.diagnostics if d.is_error]
        return errors or result.rules["a"]["actions"][0]["stmts"][0]["branches"][0]["body"]["clause"]

    got = clause("getTargets('character@oppRing').0")
    assert "filters" not in got and got["expr"]["at"] == [2, 27, 60] and got["expr"]["e"][0] == "index"
    assert clause("getTargets('character@oppRing')") == [("RS101", 37, 38, "unexpected '(' in target filter")]
    # a bracket inside the quotes does not count either: the card named "Smile :)" (the filter at columns 39-56)
    got = clause("""getTargets("'Smile :)'@oppRing").0""")
    assert "filters" not in got and got["expr"]["at"] == [2, 27, 61]
    (flt,) = got["expr"]["e"][1][2]
    assert flt["types"] == [[{"t": "name", "v": "smile :)", "not": False, "notself": False}]] and flt["at"] == [2, 39, 57]
    # nor in the text after an empty one: the target is the call with two arguments, one too many (RS308)
    assert clause('getTargets("", "(").0') == [("RS308", 27, 46, "getTargets() takes 1 argument, got 2")]


# docs/ir.md: a list display is ["list", [NODE, ...]], each item lowered as an expression of its own, and a
# call of a profile function ["call", f, [NODE, ...], at] ("vars = _x := " is 13 characters: the list is
# columns 14 to 20; "; _n := " follows, so len(...) is columns 29 to 40, an int).
def test_a_list_display_and_a_call_hold_their_items_expressions() -> None:
    result = compile_text("[a]\nvars = _x := [1, me]; _n := len([1, me])\naction = draw()\n", filename="t.ini",
                          cards=CARDS, cache=None)
    items = ["list", [["lit", 1], ["name", "me"]]]
    assert result.rules["a"]["vars"] == [
        ["_x", {"e": items, "at": [2, 14, 21], "text": "[1, me]", "type": "list"}],
        ["_n", {"e": ["call", "len", [items], [2, 29, 41]], "at": [2, 29, 41], "text": "len([1, me])", "type": "int"}]]


# docs/werewolf.md: `temporal` is a text of the phases a rule may run in (`night 2+`, `day 1`); another text is
# RS302 over the value as written, quotes too, with a note of what is expected ("temporal = " is 11
# characters: the value starts at column 12, after the blanks before it).
@pytest.mark.parametrize("value, at, text", [
    ("bogus", (12, 17), "bogus"), ("  'day x'", (14, 21), "day x"), ('"night"x', (12, 20), '"night"x'),
])
def test_a_text_rule_key_outside_its_pattern_is_reported_over_the_written_value(value: str, at: tuple, text: str) -> None:
    src = f"[x]\ntiming = immediate night\ntemporal = {value}\ntarget = player[alive]\naction = kill() to(selection)\n"
    result = compile_text(src, profile="werewolf", filename="t.ini", cache=None)
    assert [(d.code, d.span.line, d.span.col, d.span.end_col, d.message, d.notes) for d in result.diagnostics] == [
        ("RS302", 3, *at, f"'{text}' is not a valid value of 'temporal'",
         ("expected: the phases in which the rule may run: `night 2+`, `day 1` (WWRF Temporal)",))]
    ok = compile_text(src.replace(value, "'night 2+'"), profile="werewolf", filename="t.ini", cache=None)
    assert ok.ok and ok.rules["x"]["keys"]["temporal"] == "night 2+"


# docs/language.md RS915: a rule section whose id is no card of cards.yaml (and is not named in a card's
# `rules:` list, for a card with several sections) is a warning over the id, just after its '['.
def test_a_rule_id_no_card_has_is_warned_over_the_id(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: cfc\nname: G\n")
    (game / "cards.yaml").write_text("cards:\n- {id: act, name: Act, type: action, sp: 0, rules: [act--2]}\n")
    (game / "rules" / "r.ini").write_text("[act]\naction = draw()\n\n[act--2]\naction = draw(2)\n\n"
                                          "[no-such-card]\naction = draw()\n")
    result = compile_game(game, cache=None)
    assert result.ok
    assert [(d.severity, d.code, Path(d.span.file).name, d.span.line, d.span.col, d.span.end_col, d.message)
            for d in result.diagnostics] == [
        ("warning", "RS915", "r.ini", 7, 2, 14, "no card in cards.yaml has the rule id 'no-such-card'")]
    assert Path(result.diagnostics[0].span.file) == game / "rules" / "r.ini"


# docs/language.md §7.3: `:this` and `:fromthis` mean the same, so writing both (or one twice) asks the
# same thing and is no RS312; only suffixes of one group that ask different things exclude each other
# (`:this:any`, `:fromthis:any`, `:action:char`). The trigger's object group is "this" either way.
@pytest.mark.parametrize("events, code, group", [
    ("~removed:this:fromthis~", None, "this"), ("~removed:fromthis:this~", None, "this"),
    ("~removed:this:this~", None, "this"), ("~anyRemoved:char:char~", None, "char"),
    ("~removed:fromthis:any~", "RS312", None), ("~anyRemoved:action:char~", "RS312", None),
])
def test_suffixes_of_one_group_exclude_each_other_only_when_they_ask_different_things(events, code, group) -> None:
    result = compile_text("[a]\nauto = %s draw()\n" % events, filename="t.ini", cache=None)
    errors = [d.code for d in result.diagnostics if d.is_error]
    if code is None:
        assert errors == [], result.render()
        groups = result.rules["a"]["auto"]["events"][0]["groups"]
        assert group in (groups.get("object"), groups.get("trigger_type"))
    else:
        assert errors == [code]
