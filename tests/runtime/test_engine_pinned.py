"""The runtime's functions pinned whole for issue 22's mutation test: every question a filter or an
action asks (kind, player, options, bounds, prompt, source, cancel), the step costs of docs/runtime.md
("Limits"), the return values of the rules port, the texts and places of run-time errors.  Each test
runs real RuleScript (or real compiled filters) with the real engine on a real CfcGame table and
checks values worked out by hand from docs/runtime.md and docs/language.md."""
from __future__ import annotations

import pytest

from rulescript.runtime import targets
from rulescript.runtime.resolution import Cancelled, Card, Player
from test_targets import filt, make_res


def whole(res):
    """Every field of the requests the decider answered."""
    return [(r["kind"], r["player"], r["options"], r["min"], r["max"], r["prompt"], r["source"], r["cancel"])
            for r in res.game.decider.requests]


def cards(*iids):
    return [Card(i) for i in iids]


# ---------------------------------------------------------------------------- the questions of a filter

def test_a_choose_targets_question_says_how_many_and_only_the_target_property_may_cancel(board):
    """docs/language.md 4.6-4.7 and docs/runtime.md (Decider port): step 7 asks ``choose_targets`` of
    the controller with the candidates left, the quantity's bounds (a maximum above the candidates is
    cut to their number, ``<**>`` is 1 to all) and a prompt saying how many; the source is the card
    whose rule asks, and only the ``target`` property may be cancelled.  The answer's order is kept.
    Player 1's ring holds three characters (tiny, big, ninja in slot order)."""
    t = board
    o, src = t.o, t.m[0]
    res = make_res(t, source=src, answers=[[o[1]], [o[2], o[0]], [o[1], o[0], o[2]], [o[2]], [], None])
    assert targets.resolve(res, filt("character@oppRing"), "clause") == cards(o[1])
    assert targets.resolve(res, filt("<2>characters@oppRing"), "clause") == cards(o[2], o[0])
    assert targets.resolve(res, filt("<2,5>characters@oppRing"), "cost") == cards(o[1], o[0], o[2])
    assert targets.resolve(res, filt("<**>characters@oppRing"), "target") == cards(o[2])
    assert targets.resolve(res, filt("<0,1>characters@oppRing"), "clause") == []
    with pytest.raises(Cancelled):
        targets.resolve(res, filt("<,2>characters@oppRing"), "target")
    assert whole(res) == [
        ("choose_targets", 0, o, 1, 1, "choose 1 target", src, False),
        ("choose_targets", 0, o, 2, 2, "choose 2 targets", src, False),
        ("choose_targets", 0, o, 2, 3, "choose 2 to 3 targets", src, False),
        ("choose_targets", 0, o, 1, 3, "choose 1 to 3 targets", src, True),
        ("choose_targets", 0, o, 0, 1, "choose 0 to 1 targets", src, False),
        ("choose_targets", 0, o, 1, 2, "choose 1 to 2 targets", src, True),
    ]


def test_no_more_candidates_than_the_minimum_are_taken_without_a_question_one_more_is_asked(board):
    """docs/language.md 4.6: "When there are no more candidates than the minimum, all of them are
    taken without a question; otherwise the controller chooses."  Player 1 has two characters below
    1000 BP (tiny, ninja): ``<2>`` of them takes both, ``<1>`` asks; ``<3>`` of the three takes them,
    ``<2>`` asks.  A random quantity never asks."""
    t = board
    o, src = t.o, t.m[0]
    res = make_res(t, source=src, answers=[[o[2]], [o[1], o[0]]])
    assert targets.resolve(res, filt("<2>characters[bp<1000]@oppRing"), "clause") == cards(o[0], o[2])
    assert targets.resolve(res, filt("<3>characters@oppRing"), "clause") == cards(*o)
    assert whole(res) == []
    assert targets.resolve(res, filt("<1>characters[bp<1000]@oppRing"), "clause") == cards(o[2])
    assert targets.resolve(res, filt("<2>characters@oppRing"), "clause") == cards(o[1], o[0])
    assert whole(res) == [("choose_targets", 0, [o[0], o[2]], 1, 1, "choose 1 target", src, False),
                          ("choose_targets", 0, o, 2, 2, "choose 2 targets", src, False)]


def test_one_player_is_asked_with_choose_player_and_a_range_of_players_with_choose_targets(board):
    """docs/runtime.md (Decider port): a choice of exactly one player is ``choose_player`` (options
    the seats, "choose a player"); any other range of players is ``choose_targets`` whose options
    are ``{"player": idx}``.  Player 1 controls the rule: the candidates are player 1, then player 0."""
    t = board
    src = t.o[0]
    res = make_res(t, source=src, controller=1,
                   answers=[0, [{"player": 0}], [{"player": 0}, {"player": 1}]])
    assert targets.resolve(res, filt("player"), "clause") == [Player(0)]
    assert targets.resolve(res, filt("<0,1>players"), "clause") == [Player(0)]
    assert targets.resolve(res, filt("<1,2>players"), "target") == [Player(0), Player(1)]
    mine = [{"player": 1}, {"player": 0}]
    assert whole(res) == [("choose_player", 1, [1, 0], 1, 1, "choose a player", src, False),
                          ("choose_targets", 1, mine, 0, 1, "choose 0 to 1 targets", src, False),
                          ("choose_targets", 1, mine, 1, 2, "choose 1 to 2 targets", src, True)]


def test_a_zone_prefix_that_asks_names_the_zone_and_cannot_be_cancelled(board):
    """docs/language.md 4.4 and 4.7 step 1: ``any`` asks ``choose_player`` and ``same`` (ring only)
    ``choose_ring``, of the controller, options the two seats, "choose whose <zone>", never
    cancelled, even for the ``target`` property.  Player 0 picks player 1's deck, then its own ring."""
    t = board
    t.deck(0, ["tiny"])
    d1 = t.deck(1, ["jab", "mid"])
    src = t.m[0]
    res = make_res(t, source=src, answers=[1, 0])
    assert targets.resolve(res, filt("*s@anyDeck"), "target") == cards(*d1)
    assert targets.resolve(res, filt("characters@sameRing"), "clause") == cards(*t.m)
    assert whole(res) == [("choose_player", 0, [0, 1], 1, 1, "choose whose deck", src, False),
                          ("choose_ring", 0, [0, 1], 1, 1, "choose whose ring", src, False)]


def test_a_mixed_filter_asks_which_alternative_then_its_quantity(board):
    """docs/language.md 4.2: when the alternatives of a ``,`` select players and cards, the controller
    first chooses the alternative (``choose_type``: the alternatives as written, "choose what to
    target", no cancel even for ``target``), then that alternative's quantity applies."""
    t = board
    src = t.m[0]
    res = make_res(t, source=src, answers=["ninja", [t.o[2]]])
    assert targets.resolve(res, filt("ninja, opp"), "target") == cards(t.o[2])
    assert whole(res) == [("choose_type", 0, ["ninja", "opp"], 1, 1, "choose what to target", src, False),
                          ("choose_targets", 0, [t.m[1], t.o[2]], 1, 1, "choose 1 target", src, True)]


# ---------------------------------------------------------------------------- the rules port

def test_an_engine_needs_a_game_and_reads_a_lazy_mapping_through_its_lowered_view():
    """docs/runtime.md (Modules): ``Engine(rules, game=package)``; an engine without a game's commands
    and vocabulary is refused.  A rules mapping that reads its rules lazily gives its lower-case view
    itself (``lowered()``): the engine asks it for that view instead of copying every rule."""
    from rulescript.games import cfc
    from rulescript.runtime.engine import Engine
    with pytest.raises(ValueError) as err:
        Engine({})
    assert str(err.value) == "the engine needs a game: Engine(rules, game=rulescript.games.load(name))"
    with pytest.raises(ValueError):
        Engine({}, commands=cfc.commands)
    with pytest.raises(ValueError):
        Engine({}, vocab=cfc.VOCAB)
    assert Engine({}, commands=cfc.commands, vocab=cfc.VOCAB).rules == {}

    class Lazy(dict):
        """A mapping of upper-case ids whose lower-case view is its own (no rule is copied)."""
        def lowered(self):
            return {"view": "of its own"}
    assert Engine(Lazy(SRC="rule"), game=cfc).rules == {"view": "of its own"}
    assert Engine({"SRC": "rule", "Ally": 2}, game=cfc).rules == {"src": "rule", "ally": 2}


def test_has_rules_has_action_and_resolve_action_of_cards_with_and_without_an_action():
    """docs/runtime.md (Rules port): ``has_rules`` takes a rule id (any case) or a list of them (true
    when one exists); ``has_action`` is a bool: true when one of the card's rules has an action;
    ``resolve_action`` of a card without an action, or naming a rule of the card that has none or
    that the card lacks, is False and changes nothing.  ``action_targets`` is [] for a card without
    an action and None for an action without ``target``."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\naction = hp(+100)\n[ally]\nauto = ~anyHandChanges~ hp(+1)\n[foe]\ntarget = me\n"
                   "action = hp(+10)\n")
    e, g = t.engine, t.game
    assert (e.has_rules("SRC"), e.has_rules("tiny"), e.has_rules(None)) == (True, False, False)
    assert (e.has_rules(["tiny", "Ally"]), e.has_rules(["tiny", None]), e.has_rules([])) == (True, False, False)
    src, ally, foe = t.ring(0, "src"), t.ring(0, "ally"), t.ring(0, "foe")
    bare = t.ring(0, "tiny")
    t.c(bare)["rules"] = None
    assert [e.has_action(g, i) for i in (src, ally, foe, bare)] == [True, False, True, False]
    t.c(ally)["rules"] = ["ally", "src"]
    assert e.has_action(g, ally) is True
    t.c(ally)["rules"] = ["ally", "nothing"]
    assert e.has_action(g, ally) is False
    hp = t.hp(0)
    assert e.resolve_action(g, ally, "trigger") is False
    assert e.resolve_action(g, bare, "trigger") is False
    assert e.resolve_action(g, src, "trigger", rule_id="ally") is False
    assert e.resolve_action(g, src, "trigger", rule_id="foe") is False
    assert t.hp(0) == hp and not e.errors
    assert e.action_targets(g, ally) == [] and e.action_targets(g, bare) == []
    assert e.action_targets(g, src) is None
    assert e.action_targets(g, foe) == [Player(0)]
    assert e.resolve_action(g, src, "trigger", rule_id="SRC") is True and t.hp(0) == hp + 100


def test_a_trigger_loop_is_recorded_whole_at_the_section_of_the_card_that_would_go_33_deep():
    """docs/runtime.md (Limits) and docs/language.md 7.5: 32 nested resolutions at most; the 33rd is
    RS520, naming each rule of the loop once, in the order they nested, located at the section of
    the rule that would have gone past the limit (its id's column to the next), and the whole
    cascade is undone.  ``a`` (player 0) and ``b`` (player 1) each draw when the other's hand changes:
    player 0 draws, ``b`` resolves first, then ``a``, ``b``... the 33rd would be ``b`` (line 3)."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[a]\nauto = ~oppHandChanges~ draw()\n[b]\nauto = ~oppHandChanges~ draw()\n")
    g = t.game
    t.ring(0, "a")
    b = t.ring(1, "b")   # made in player 1's hand: ``a`` hears it, but player 0's deck is still empty
    for p in (0, 1):
        for _ in range(40):
            g.create_card("c", p, "deck")
    assert t.engine.errors == []
    decks = [list(g.state["players"][p]["deck"]) for p in (0, 1)]
    g.draw(0, 1)
    want = {"code": "RS520", "message": "trigger chain does not settle after 32 nested resolutions; cards in "
            "the loop: b, a", "file": "t.ini", "line": 3, "col": 2, "end_col": 3, "text": None,
            "card": [b, "b"], "why": "handchanges", "values": [["cards", ["b", "a"]]], "turn": 1, "phase": "main"}
    assert t.engine.errors == [want]
    assert [r for r in t.sink.records if r["type"] == "rule_error"] == [{"type": "rule_error", "error": want}]
    # the draw that started it is game flow and stands; the cascade is undone
    assert g.state["players"][0]["deck"] == decks[0][1:] and g.state["players"][1]["deck"] == decks[1]
    assert t.engine.stack == []


def test_player_types_joined_by_and_must_all_hold_and_a_negated_one_leaves_players_out(board):
    """docs/language.md 4.2: ``&`` means every type must hold, ``!`` negates a type, ``^`` leaves out
    the source (a card: no player is left out).  Player 0 controls: ``players&opp`` and
    ``players&!me`` are player 1 alone (one candidate, no question), ``!players`` nobody, ``!opp``
    player 0, ``^players`` both players in the controller-first order."""
    t = board
    res = make_res(t, source=t.m[0])
    got = {text: targets.resolve(res, filt(text), "clause")
           for text in ("players&opp", "opp&players", "players&!me", "player&opp", "!players", "!opp", "^players")}
    assert got == {"players&opp": [Player(1)], "opp&players": [Player(1)], "players&!me": [Player(1)],
                   "player&opp": [Player(1)], "!players": [], "!opp": [Player(0)], "^players": [Player(0), Player(1)]}
    assert whole(res) == []


# ---------------------------------------------------------------------------- what costs steps

def _spent(table, decls, **values):
    """The steps ``vars = decls`` spends with the variables ``values`` set beforehand."""
    from test_expr import make_res as expr_res, run
    res = expr_res(table)
    res.vars.update(values)
    before = res.budget[0]
    run(res, decls)
    return before - res.budget[0]


@pytest.mark.parametrize("decls, per_element", [
    ("_b := _a + _c", 2),          # joining lists: one step per element of the result
    ("_b := 0 in _a", 1),          # searching a list: one per element
    ("_b := 0 not in _a", 1),
    ("_b := _a == _c", 1),         # comparing two lists of the same length: one per element
    ("_b := _a != _c", 1),
    ("_b := str(_a)", 1),          # printing a list: one per element (and one per list)
    ("_b := [_a]", 1),             # a list holding lists: its nesting is measured, one per element
    ("_b := min(_a)", 1), ("_b := max(_a)", 1), ("_b := sum(_a)", 1), ("_b := any(_a)", 1), ("_b := all(_a)", 1),
    ("_b := len(_a)", 0),          # reading a size costs nothing more
    ("_b := _a.size", 0),
    ("_b := _a.0", 0),
])
def test_work_on_a_list_costs_a_step_per_element(table, decls, per_element):
    """docs/runtime.md, Limits: "joining, comparing, searching or printing lists one step per element";
    finding the largest, smallest, the sum, any or all goes through every element too.  The same
    declaration with lists of 11 elements instead of 1 (``_a`` and ``_c`` equal lists of positive numbers, not
    the same list) spends ``per_element`` * 10 steps more; the evaluation's own cost (its text) is
    the same."""
    def spent(k):
        return _spent(table, "_a := nil; _c := nil; " + decls, _a=list(range(1, k + 1)), _c=list(range(1, k + 1)))
    assert spent(11) - spent(1) == 10 * per_element


@pytest.mark.parametrize("text, steps", [("1", 1), ("111", 1), ("1111", 2), ("1111111", 2), ("11111111", 3),
                                         ("'abcdefghijklmnop'", 5)])
def test_an_evaluation_costs_one_step_and_one_per_four_characters_of_its_text(table, text, steps):
    """docs/runtime.md, Limits: every evaluation of an expression costs ``1 + len(text) // 4`` (its
    text as written); a literal costs nothing more."""
    assert _spent(table, "_b := " + text) == steps


def test_a_filter_used_as_a_value_costs_ten_and_one_per_object_on_top_of_the_filter(table):
    """docs/runtime.md, Limits: a filter used as a value (``getTargets``) costs 10 + the objects it
    finds, and resolving the filter 5 + 3 per candidate it examines: with 10 cards more in the deck,
    ``getTargets('*s@myDeck')`` spends 10 * (3 + 1) = 40 steps more, and a filter that keeps none of
    them (``characters[bp>5000]@myDeck``) 10 * 3 = 30."""
    def spent(text, k):
        for i in list(table.game.state["players"][0]["deck"]):
            table.game.state["players"][0]["deck"].remove(i)
        table.deck(0, ["tiny"] * k)
        return _spent(table, "_b := len(getTargets('%s'))" % text)
    assert spent("*s@myDeck", 11) - spent("*s@myDeck", 1) == 40
    assert spent("characters[bp>5000]@myDeck", 11) - spent("characters[bp>5000]@myDeck", 1) == 30


# ---------------------------------------------------------------------------- run-time errors

NIL = None
M = 999999999999999999


@pytest.mark.parametrize("value, text, code, message, values, cols", [
    ("x", "-_a", "RS504", "cannot apply unary '-' to a string in '-_a'", [("_a", "x")], (25, 28)),
    (NIL, "+_a", "RS504", "cannot apply unary '+' to nil in '+_a'", [("_a", NIL)], (25, 28)),
    ([1], "1 + _a", "RS504", "cannot apply '+' to a number and a list in '1 + _a'", [("1", 1), ("_a", [1])], (25, 31)),
    (NIL, "_a.bp", "RS502", "attribute 'bp' of nil ('_a' is nil)", [("_a", NIL)], (28, 30)),
    (5, "_a.Size", "RS503", "a number has no attribute 'Size' ('_a')", [("_a", 5)], (28, 32)),
    ([], "_a.0", "RS501", "index 0 out of range for '_a' (empty list)", [("_a", [])], (25, 29)),
    ([7], "_a.2", "RS501", "index 2 out of range for '_a' (1 element)", [("_a", [7])], (25, 29)),
    ([7, 8], "_a.2", "RS501", "index 2 out of range for '_a' (2 elements)", [("_a", [7, 8])], (25, 29)),
    (NIL, "_a.0", "RS502", "element 0 of nil ('_a' is nil)", [("_a", NIL)], (25, 29)),
    ("xy", "_a.0", "RS503", "element 0 of a string ('_a' is not a list)", [("_a", "xy")], (25, 29)),
    ("x", "_a < 1", "RS504", "cannot order a string and a number with '<' in '_a < 1'", [("_a", "x"), ("1", 1)], (25, 31)),
    (NIL, "1 in _a", "RS504", "'in' needs a list (or a string in a string), not a number in nil", [("1", 1), ("_a", NIL)],
     (25, 32)),
    (NIL, "all card in _a", "RS502", "a quantifier over nil ('_a' is nil)", [("_a", NIL)], (25, 39)),
    (3, "any card in _a", "RS503", "a quantifier needs a list, '_a' is a number", [("_a", 3)], (25, 39)),
    (NIL, "len(_a)", "RS502", "len(): '_a' is nil, not a list or a string", [("_a", NIL)], (25, 32)),
    ("x", "abs(_a)", "RS506", "abs(): '_a' is not a number (it is a string)", [("_a", "x")], (25, 32)),
    ([1, "a"], "sum(_a)", "RS506", "sum(): '_a' holds a string, not only numbers", [("_a", [1, "a"])], (25, 32)),
    (NIL, "sum(_a)", "RS502", "sum(): '_a' is nil, not a list", [("_a", NIL)], (25, 32)),
    ("ab", "any(_a)", "RS503", "any(): '_a' is a string, not a list", [("_a", "ab")], (25, 32)),
    ([], "min(_a)", "RS501", "min() of an empty list ('_a')", [("_a", [])], (25, 32)),
    ([1, "a"], "max(_a)", "RS504", "max() cannot order a number and a string", [("max(_a)", [1, "a"])], (25, 32)),
    (["a", 1], "min(_a)", "RS504", "min() cannot order a string and a number", [("min(_a)", ["a", 1])], (25, 32)),
    ("1234567890123456789", "int(_a)", "RS511", "int(): '_a' is out of range (19 digits; a rule's numbers stay "
     "between -%d and %d)" % (M, M), [("_a", "a string of 19 digits")], (25, 32)),
    (NIL, "int(_a)", "RS506", "int(): '_a' is not a number (it is nil)", [("_a", NIL)], (25, 32)),
    ("x", "round(_a, 1)", "RS506", "round(): '_a' is not a number (it is a string)", [("_a", "x")], (25, 37)),
    (M, "_a * 2", "RS511", "number out of range in '_a * 2': a rule's numbers stay between -%d and %d" % (M, M),
     [("_a * 2", "a number of about 19 digits")], (25, 31)),
    (-M, "_a - 1", "RS511", "number out of range in '_a - 1': a rule's numbers stay between -%d and %d" % (M, M),
     [("_a - 1", "a number of about 19 digits")], (25, 31)),
    ("x" * 5001, "_a + _a", "RS512", "a string too long in '_a + _a': 10002 characters, at most 10000",
     [("_a + _a", "a string of 10002 characters")], (25, 32)),
    ([0] * 5001, "_a + _a", "RS512", "a list too long in '_a + _a': 10002 elements, at most 10000",
     [("_a + _a", "a list of 10002 elements")], (25, 32)),
])
def test_a_run_time_error_names_what_went_wrong_with_its_values_at_its_place(table, value, text, code, message,
                                                                             values, cols):
    """docs/language.md 8.9 and docs/runtime.md (Limits): each run-time error has its code, a message
    quoting the expression as written, the values that led to it and the place of the expression
    (line 2; ``vars = _a := nil; _v := `` puts the expression at column 25; an attribute's error is
    at the attribute's name; the end column is one past the last character)."""
    from test_expr import make_res as expr_res, run
    from rulescript.runtime.resolution import RuleError
    res = expr_res(table)
    res.vars["_a"] = value
    with pytest.raises(RuleError) as ei:
        run(res, "_a := nil; _v := " + text)
    e = ei.value
    assert (e.code, e.message, e.values, e.at, e.text, e.file) == (code, message, values, [2] + list(cols), text,
                                                                  "test.ini")


def test_objects_picked_in_advance_choose_the_alternative_only_when_one_alternative_fits_them_all(board):
    """docs/runtime.md (Rules port: ``preselected``) and docs/language.md 4.2: targets picked with the
    activation request settle which alternative of a mixed filter is meant when they are all of one
    kind and exactly one alternative selects that kind; otherwise ``choose_type`` is asked as usual.
    Then the picked objects that are candidates are taken without a question when their number fits."""
    t = board
    src, o = t.m[0], t.o
    res = make_res(t, source=src, answers=["opp", "ninja"])
    mixed = filt("ninja, mystic, opp")
    assert targets.resolve(res, mixed, "target", preselected=[Player(1)]) == [Player(1)]
    assert whole(res) == []
    # a player and a card: not of one kind
    assert targets.resolve(res, filt("ninja, opp"), "target", preselected=[Player(1), Card(o[2])]) == [Player(1)]
    # two alternatives select cards
    assert targets.resolve(res, mixed, "target", preselected=cards(o[2])) == cards(o[2])
    assert whole(res) == [("choose_type", 0, ["ninja", "opp"], 1, 1, "choose what to target", src, False),
                          ("choose_type", 0, ["ninja", "mystic", "opp"], 1, 1, "choose what to target", src, False)]


def test_the_questions_an_action_asks_are_the_controllers_about_its_card():
    """docs/runtime.md (Decider port) and docs/language.md 3.2, 5.5, 5.6: several actions ask
    ``choose_action`` (may be cancelled), ``[[may]]`` and ``command?(...)`` ask ``yes_no`` (options
    True and False, no cancel); each is asked of the card's controller with the card as its source.
    Player 1's card: the second action, whose ``[[may 'Heal?']]`` is answered yes and ``hp?`` no."""
    from runtime_table import Script
    from test_rules_pinned import RulesTable
    t = RulesTable("[foe]\naction = hp(+100)\naction = [[may 'Heal?']] hp(+5); [[may]] hp?(+7) || hp(+1)\n")
    t.game.decider = Script(["hp'", True, True, False])
    foe = t.ring(1, "foe")
    assert t.engine.resolve_action(t.game, foe, "trigger") is True and not t.engine.errors
    assert t.hp(1) == 3006
    assert [(r["kind"], r["player"], r["options"], r["min"], r["max"], r["prompt"], r["source"], r["cancel"])
            for r in t.game.decider.requests] == [
        ("choose_action", 1, ["hp", "hp'"], 1, 1, "choose an action", foe, True),
        ("yes_no", 1, [True, False], 1, 1, "Heal?", foe, False),
        ("yes_no", 1, [True, False], 1, 1, "Use this effect?", foe, False),
        ("yes_no", 1, [True, False], 1, 1, "Use hp?", foe, False)]


@pytest.mark.parametrize("text, value", [
    ("round(500, -3)", 1000), ("round(-500, -3)", -1000), ("round(499, -3)", 0), ("round(1234, 0)", 1234),
    ("round(5 / 2, 0)", 3), ("round(-5 / 2, 0)", -3), ("round(2501 / 2, -2)", 1300), ("round(-2501 / 2, -2)", -1300),
    ("round(2500 / 3, -2)", 800), ("round(-2500 / 3, -2)", -800),
    ("round(1 / 8, 2)", 0.13), ("round(-1 / 8, 2)", -0.13), ("round(-7 / 4, 1)", -1.8), ("round(3 / 2, 1)", 1.5),
    ("round(5 / 2, 1 / 2)", 3),        # digits are truncated to an int
    ("round(1 / 2)", 1), ("round(-1 / 2)", -1), ("round(-7 / 2)", -4), ("round(7 / 2)", 4), ("round(-3)", -3),
    ("round(999, -19)", 0), ("round(999, -20)", 0), ("round(-999, -400)", 0),
    ("round(5, 19)", 5), ("round(5 / 2, 19)", 2.5), ("round(5 / 2, 400)", 2.5),
])
def test_round_goes_halves_away_from_zero_at_any_number_of_digits(table, text, value):
    """docs/language.md 8.5 and docs/runtime.md (Limits): ``round(x)`` is the nearest int, halves away
    from zero; ``round(x, d)`` rounds to d decimal places (d <= 0: to a multiple of 10^-d, an int),
    halves away from zero; digits past 18 leave x as it is, digits below -19 give 0."""
    from test_expr import make_res as expr_res, run
    v = run(expr_res(table), "_v := " + text)
    assert v == value and type(v) is type(value)


def test_a_rounded_number_past_the_limit_is_rs511(table):
    """docs/runtime.md (Limits): every number ``round`` gives lies in the limits: 999,999,999,999,999,999
    rounded to tens is 10^18, one past them; 999,999,999,999,999,949 rounded to hundreds is not."""
    from test_expr import make_res as expr_res, run
    from rulescript.runtime.resolution import RuleError
    res = expr_res(table)
    res.vars["_a"] = M
    with pytest.raises(RuleError) as ei:
        run(res, "_a := nil; _v := round(_a, -1)")
    assert (ei.value.code, ei.value.message, ei.value.values) == (
        "RS511", "number out of range in 'round(_a, -1)': a rule's numbers stay between -%d and %d" % (M, M),
        [("round(_a, -1)", "a number of about 19 digits")])
    res.vars["_a"] = M - 50                  # ...949: rounded down to hundreds, within the limits
    assert run(res, "_a := nil; _v := round(_a, -2)") == 999999999999999900


@pytest.mark.parametrize("value, result", [
    (" 12 ", 12), ("+7", 7), ("-0", 0), ("007", 7), ("-" + "0" * 30 + "5", -5), ("9" * 18, int("9" * 18)),
    (7 / 2, 3), (-7 / 2, -3), (5, 5),
])
def test_int_reads_digits_with_one_sign_and_blanks_around_them(table, value, result):
    """docs/language.md 8.5 and docs/runtime.md (Limits): ``int()`` of a number truncates toward zero;
    of a string, blanks around it are ignored, one ``+`` or ``-`` may lead, and at most 18
    significant digits are allowed (leading zeros do not count)."""
    from test_expr import make_res as expr_res, run
    res = expr_res(table)
    res.vars["_a"] = value
    v = run(res, "_a := nil; _v := int(_a)")
    assert v == result and type(v) is int


@pytest.mark.parametrize("value, kind", [("", "a string"), ("+", "a string"), ("--1", "a string"), ("1.5", "a string"),
                                         ("1 2", "a string"), ("x", "a string"), (True, "a boolean"), ([1], "a list")])
def test_int_of_anything_but_digits_is_rs506(table, value, kind):
    """docs/language.md 8.5: ``int()`` of a text that is not digits (with one sign) or of a value that is
    not a number or a text is RS506 naming its kind."""
    from test_expr import make_res as expr_res, run
    from rulescript.runtime.resolution import RuleError
    res = expr_res(table)
    res.vars["_a"] = value
    with pytest.raises(RuleError) as ei:
        run(res, "_a := nil; _v := int(_a)")
    assert (ei.value.code, ei.value.message, ei.value.values) == (
        "RS506", "int(): '_a' is not a number (it is %s)" % kind, [("_a", value)])


def test_a_hooks_verdicts_come_from_a_leading_condition_or_from_running_to_the_end():
    """docs/language.md 7.6: a listener's verdict is the value of its leading condition-only statement
    (the later statements run only when it is true, and a later stop leaves the verdict true);
    otherwise true when it ran to its end, false when it stopped (a ``to()`` that found nothing); a
    rule error gives false; a listener that does not match gives no verdict (``:any``: whatever the attacking lead is).  Verdicts come in the
    listeners' order (all of player 0, who is active, in play order).  First player 1 holds 3 cards
    and no character: a's guard is false, b stops at its second statement after its first gave 10 HP,
    c's guard is true and its stop leaves it true, d fails.  Then player 1 holds 2 cards, the Wall and
    foe, whose listener hears only player 0's blocks: every listener of player 0 runs to its end."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[a]\nauto = ?oppCanBlock:any? [[if opp.hand.size <= 2]]; hp(+100)\n"
                   "[b]\nauto = ?oppCanBlock:any? hp(+10); bp(+100) to(characters@oppRing)\n"
                   "[c]\nauto = ?oppCanBlock:any? [[if true]]; bp(+100) to(characters@oppRing)\n"
                   "[d]\nauto = ?oppCanBlock:any? hp(+(me.hp // (me.hp - me.hp)))\n"
                   "[foe]\nauto = ?oppCanBlock:any? hp(+1000)\n")
    g = t.game
    for m in ("a", "b", "c", "d"):
        t.ring(0, m)
    held = [g.create_card("tiny", 1, "hand") for _ in range(3)]
    assert t.engine.ask_hook(g, "canblock", 1, held[0], held[0]) == [False, False, True, False]
    assert t.hp(0) == 3010 and [e["card"][1] for e in t.engine.errors] == ["d"]
    g.state["players"][1]["hand"].remove(held[2])
    wall, foe = t.ring(1, "wall"), t.ring(1, "foe")
    assert t.engine.ask_hook(g, "canblock", 1, wall, wall) == [True, True, True, False]
    assert t.hp(0) == 3010 + 110 and (t.c(wall)["bp"], t.c(foe)["bp"]) == (1500 + 200, 500 + 200) and t.hp(1) == 3000


@pytest.mark.parametrize("value, text", [
    ([], "[]"), ([[1, 2], [3], []], "[[1, 2], [3], []]"), ([None, True, False, "a b"], "[None, True, False, a b]"),
    (None, "None"), (True, "True"), (False, "False"), (0.25, "0.25"), (2.0, "2"), (-3, "-3"), ("", ""),
    (["x" * 9998], "[" + "x" * 9998 + "]"),    # exactly 10,000 characters
    (["x" * 4998, "y" * 4998], "[" + "x" * 4998 + ", " + "y" * 4998 + "]"),   # 10,000 with a separator
])
def test_str_writes_lists_bracketed_with_commas_and_atoms_as_python_writes_them(table, value, text):
    """docs/language.md 8.5 and docs/runtime.md (Limits): ``str()`` of a list is its elements' texts
    between brackets, separated by ``, ``; nil is ``None``, booleans ``True``/``False``; an integral
    number has no decimals; a text may be 10,000 characters long."""
    from test_expr import make_res as expr_res, run
    res = expr_res(table)
    res.vars["_a"] = value
    assert run(res, "_a := nil; _v := str(_a)") == text


@pytest.mark.parametrize("value, values", [
    (["x" * 9999], [("_a", "a list of 1 element")]),             # 10,001 characters
    (["x" * 5000, "y" * 5000], [("_a", "a list of 2 elements")]),  # 10,004
    (["x" * 4999, "y" * 4998], [("_a", "a list of 2 elements")]),  # 10,001 with its separator
    ([["x" * 9999]], [("_a", "a list of 1 element")]),
])
def test_str_of_a_list_longer_than_10000_characters_is_rs512(table, value, values):
    """docs/runtime.md (Limits): the text ``str()`` makes is at most 10,000 characters (RS512)."""
    from test_expr import make_res as expr_res, run
    from rulescript.runtime.resolution import RuleError
    res = expr_res(table)
    res.vars["_a"] = value
    with pytest.raises(RuleError) as ei:
        run(res, "_a := nil; _v := str(_a)")
    assert (ei.value.code, ei.value.message, ei.value.values) == (
        "RS512", "str(): the text of '_a' is longer than 10000 characters", values)


@pytest.mark.parametrize("rules, hp", [("foe", 3100), (None, 3000), ("ally", 3007), (["tiny", "ally"], 3007)])
def test_activate_resolves_the_action_of_the_rules_the_card_has_now(rules, hp):
    """docs/language.md 6.2: ``activate(card)`` resolves the action of that card's rules; 6.5: a card's
    rules are replaced (``copyAbility``, ``steal``) or lost (``loseAbility``).  The opposing character
    ``foe`` (its own rules: +100 HP) is given the rules ``rules`` before player 0's card activates it:
    its own, none, ally's (+7 HP), or a list whose first section with an action is ally's."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\ntarget = character@oppRing\naction = activate(tgt.0)\n[foe]\naction = hp(+100)\n"
                   "[ally]\naction = hp(+7)\n")
    src, foe = t.ring(0, "src"), t.ring(1, "foe")
    t.game.set_rules(foe, rules, None)
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert (t.hp(0), t.hp(1)) == (hp, 3000)


@pytest.mark.parametrize("hp, gained", [(6000, 1000), (3000, 100), (1000, 10)])
def test_an_if_chain_runs_the_body_of_its_first_true_condition_or_its_else(hp, gained):
    """docs/language.md 5.5: the conditions are tried in order and the body of the first true one runs,
    or the ``[[else]]`` body when none is."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\naction = [[if me.hp > 5000]] hp(+1000) [[elif me.hp > 2000]] hp(+100) [[else]] hp(+10)\n")
    src = t.ring(0, "src")
    t.game.state["players"][0]["hp"] = hp
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.hp(0) == hp + gained


@pytest.mark.parametrize("hp, gained", [(6000, 1 + 20), (3000, 1)])
def test_a_statement_whose_body_did_not_run_leaves_no_previous_targets(hp, gained):
    """docs/language.md 5.5 and 5.8: when no body of an if-chain runs the statement does nothing and
    the next one runs; ``prevTgt`` is then empty (before the first statement it is the targets, here
    player 0's two characters; after a body it is what that body acted on, the same two)."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\ntarget = characters@myRing\n"
                   "action = [[if me.hp > 5000]] bp(+100) to(characters@myRing); hp(+len(prevTgt) * 10 + 1)\n")
    src, _ = t.ring(0, "src"), t.ring(0, "ally")
    t.game.state["players"][0]["hp"] = hp
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.hp(0) == hp + gained


@pytest.mark.parametrize("hp, gained", [(6000, 0), (3000, 7), (1000, 7)])
def test_an_autos_if_chain_without_a_first_body_runs_nothing_when_its_first_condition_holds(hp, gained):
    """docs/language.md 5.5: the first body of an if-chain may be left out in an auto: when its
    condition is true nothing runs (and the next statement still does), else the chain goes on."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[ally]\nauto = ~myEndPhase~ [[if me.hp > 5000]] [[elif me.hp > 2000]] hp(+7) [[else]] hp(+7)"
                   "; sp(+1)\n")
    t.ring(0, "ally")
    t.game.state["players"][0]["hp"] = hp
    t.engine.fire(t.game, "endphase", 0)
    assert not t.engine.errors
    assert (t.hp(0), t.game.state["players"][0]["sp"]) == (hp + gained, 1)


def test_a_hosts_error_callback_hears_each_recorded_rule_error_once():
    """docs/runtime.md (Rules port): every rule error is recorded in ``engine.errors`` and reaches the
    game's sink; a host may also set ``engine.on_error`` (a callback of the record) to hear each
    record as it is made."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\naction = hp(+(me.hp // (me.hp - me.hp)))\n[ally]\naction = hp(+1)\n")
    heard = []
    t.engine.on_error = heard.append
    src, ally = t.ring(0, "src"), t.ring(0, "ally")
    assert t.engine.resolve_action(t.game, ally, "trigger") is True and heard == []
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert heard == t.engine.errors and len(heard) == 2 and heard[0]["code"] == "RS505"


@pytest.mark.parametrize("name", ["moved", "discarded", "destroyed"])
def test_reading_a_result_list_costs_a_step_per_card(table, name):
    """docs/runtime.md (Limits): a result list (``moved``, ``discarded``...) read in an expression costs
    one step per card: with 10 cards more in it, 10 steps more, and its value is the cards in order."""
    from test_expr import make_res as expr_res, run

    def spent(k):
        res = expr_res(table)
        res.results[name] = list(range(100, 100 + k))
        before = res.budget[0]
        assert run(res, "_b := %s" % name) == cards(*range(100, 100 + k))
        return before - res.budget[0]
    assert spent(11) - spent(1) == 10


@pytest.mark.parametrize("events, runs", [("myEndPhase, anyHandChanges, ringChanges", 1), ("myHandChanges", 1),
                                          ("oppRingChanges", 1), ("myEndPhase", 0), ("removed:any", 0)])
def test_a_listener_of_a_state_event_runs_once_when_its_rules_load(events, runs):
    """docs/language.md 7.5 (state events): a listener of ``handChanges`` or ``ringChanges`` also runs
    once right after its rules load, once however many of its events are state events; other
    listeners wait for their event.  ``ally`` enters player 0's ring with the listener ``~EVENTS~``."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[ally]\nauto = ~%s~ hp(+1)\n" % events)
    t.ring(0, "ally")
    assert t.hp(0) == 3000 + runs and not t.engine.errors


@pytest.mark.parametrize("target, foes, resolved, hp", [
    ("target = character@oppRing", 0, False, 3000),             # required and nothing found: stops, nothing changes
    ("target? = character@oppRing", 0, True, 3001),             # optional: tgt is empty
    ("target = character@oppRing", 1, True, 3002),
    ("target = character@oppRing; characters@oppRing", 1, True, 3002),    # joined without duplicates
    ("target = characters@oppRing; characters@myRing", 1, True, 3003),
    ("target = characters@myDiscards; characters@oppRing", 1, False, 3000),  # each filter of a required target must find
    ("target? = characters@myDiscards; characters@oppRing", 1, True, 3002),
])
def test_the_target_property_joins_its_filters_and_stops_the_action_only_when_required(target, foes, resolved, hp):
    """docs/language.md 3.1 and 4.7: ``target`` is found before vars and costs; when a filter finds
    nothing the activation stops and nothing changes, unless it is ``target?`` (the rule goes on and
    ``tgt`` holds what the other filters found).  Several filters are joined in order without
    duplicates.  The action adds 1 + the number of targets to player 0's HP; player 0's ring holds
    ``src``, player 1's ``foes`` characters."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\n%s\naction = hp(+1 + len(tgt)) to(me)\n" % target)
    src = t.ring(0, "src")
    for _ in range(foes):
        t.ring(1, "foe")
    assert t.engine.resolve_action(t.game, src, "trigger") is resolved and not t.engine.errors
    assert t.hp(0) == hp


def test_every_command_run_costs_fifty_steps_and_a_nested_resolution_fifty():
    """docs/runtime.md (Limits): "every command run 50" and "every nested resolution 50" steps.
    ``clear()`` evaluates nothing and changes no card: ten more of them spend 500 steps more.  A
    resolution that activates another card's action spends 50 for that nested resolution, 50 for
    the ``activate`` command and 50 for the activated ``clear()``, the evaluation of ``tgt.0``
    (1 + 5 // 4 = 2 steps) and its read of ``tgt`` (1 per card: 1), and the target filter (5 + 3
    per candidate: 1 card), on top of a resolution that only clears: 50 + 50 + 50 + 2 + 1 + 8 = 161."""
    from rulescript.runtime.resolution import MAX_STEPS
    from test_rules_pinned import RulesTable

    def spent(action, target=""):
        t = RulesTable("[src]\n%saction = %s\n[foe]\naction = clear()\n" % (target, action))
        src = t.ring(0, "src")
        t.ring(1, "foe")
        assert t.engine.resolve_action(t.game, src, "trigger") == "clear" and not t.engine.errors
        return MAX_STEPS - t.engine._budget[0]
    assert spent("; ".join(["clear()"] * 11)) - spent("clear()") == 500
    assert spent("activate(tgt.0); clear()", "target = character@oppRing\n") - spent("clear()") == 161


@pytest.mark.parametrize("value, clause, bp, hp", [
    ("nil", "to", 500, 3000),             # nothing: this statement and the later ones are skipped
    ("this", "to", 600, 3001),
    ("[3, me, this, 'x']", "to", 600, 3001),   # a list: its cards (and players)
    ("3", "to", 500, 3000),               # not a card, a player or a list: nothing
    ("nil", "to?", 500, 3001),            # optional: the statement runs on nothing (not on the source)
    ("[]", "to?", 500, 3001),
])
def test_a_target_clause_of_an_expression_acts_on_its_cards_and_players(value, clause, bp, hp):
    """docs/language.md 5.7, 5.8 and 4.7: a target clause holding an expression (a user variable) acts
    on the cards and players in its value; when it holds none the statement and every later one are
    skipped, unless the clause has ``?``: the statement then runs with no targets, and ``bp`` (a
    card-default command) does not fall back on the source.  ``src`` has 500 BP."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\nvars = _v := %s\naction = bp(+100) %s(_v); hp(+1) to(me)\n" % (value, clause))
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert (t.c(src)["bp"], t.hp(0)) == (bp, hp)


@pytest.mark.parametrize("value, hp0, hp1", [("nil", 3100, 3000), ("[]", 3100, 3000), ("this", 3100, 3000),
                                             ("opp", 3000, 3100), ("[me, opp]", 3100, 3100)])
def test_a_player_default_command_with_no_player_among_its_targets_acts_on_the_controller(value, hp0, hp1):
    """docs/language.md 5.8: ``hp`` acts on the players among the statement targets, or on the
    controller when there is none (targets empty, or cards only), also under ``to?``."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\nvars = _v := %s\naction = hp(+100) to?(_v)\n" % value)
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert (t.hp(0), t.hp(1)) == (hp0, hp1)


def test_a_rules_abilities_are_the_cards_while_it_is_in_play_with_those_rules():
    """docs/language.md 3.3: ``abilities`` names abilities the card has while it is in play with these
    rules.  ``ally`` enters player 0's ring: it is unblockable and pierces (its neighbour is neither);
    once it has left the ring, it has neither."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[ally]\nabilities = unblockable, pierce\n")
    g = t.game
    ally, plain = t.ring(0, "ally"), t.ring(0, "a")
    assert [(g.has_ability(i, "unblockable"), g.has_ability(i, "pierce")) for i in (ally, plain)] == \
        [(True, True), (False, False)]
    g.destroy([ally])
    assert (t.c(ally)["zone"], g.has_ability(ally, "unblockable"), g.has_ability(ally, "pierce")) == \
        ("discards", False, False)


def test_the_engine_keeps_which_rules_were_loaded_and_which_ran():
    """docs/runtime.md and the Engine's contract with its hosts (the scenario runner and ``--watch``
    read them): ``loaded`` holds the ids of the rules loaded onto a card in play, ``ran`` those that
    resolved (an action, or a listener whose event came)."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\naction = hp(+1)\n[ally]\nauto = ~myEndPhase~ hp(+1)\n[foe]\naction = hp(+1)\n"
                   "[wall]\naction = hp(+1)\n")
    e, g = t.engine, t.game
    src, _, _ = t.ring(0, "src"), t.ring(0, "ally"), t.ring(0, "tiny")
    assert (e.loaded, e.ran) == ({"src", "ally"}, set())
    t.ring(1, "foe")
    assert e.resolve_action(g, src, "trigger") is True
    assert (e.loaded, e.ran) == ({"src", "ally", "foe"}, {"src"})
    e.fire(g, "endphase", 0)
    assert (e.loaded, e.ran) == ({"src", "ally", "foe"}, {"src", "ally"})


@pytest.mark.parametrize("steps, text, value", [
    (2, "1111", 1111),                 # 1 + 4 // 4 = 2 steps: the budget's last two
    (1, "1111", None),                 # one short: RS514 at the expression
    (7, "all card in _a", True),       # 1 + 14 // 4 = 4, and 1 per element visited (``card``: 1 node) of 3
    (6, "all card in _a", None),       # one short: RS514 at the quantifier, on its third element
])
def test_the_step_past_the_budget_is_rs514_at_the_expression_that_took_it(table, steps, text, value):
    """docs/runtime.md (Limits): an evaluation costs ``1 + len(text) // 4`` steps and each element a
    quantifier visits the size of its element expression; the step past the budget is RS514, located
    at the expression (or the quantifier) that took it.  ``_a`` is [1, 2, 3]; ``text`` is written at
    column 25 of line 2 and ends one column past its last character."""
    from test_expr import make_res as expr_res, run
    from rulescript.runtime.resolution import RuleError
    res = expr_res(table)
    res.vars["_a"] = [1, 2, 3]
    res.budget = [steps]               # (``_a`` is set beforehand: its declaration is not evaluated)
    if value is not None:
        assert run(res, "_a := nil; _v := " + text) == value and res.budget == [0]
        return
    with pytest.raises(RuleError) as ei:
        run(res, "_a := nil; _v := " + text)
    e = ei.value
    assert (e.code, e.at, e.text, res.budget) == ("RS514", [2, 25, 25 + len(text)], text, [-1])
    assert e.message == ("this resolution used up its 200000 evaluation steps (a rule that loops over too much, "
                         "or a trigger cascade that does too much)")


def test_printing_a_list_costs_a_step_per_list_on_top_of_its_elements(table):
    """docs/runtime.md (Limits): printing a list costs one step per element, and (the text of each
    list) one per list: ``str([[], []])`` prints three lists and two elements, 2 steps more than
    ``str([1, 2])`` (one list, two elements)."""
    assert _spent(table, "_a := nil; _b := str(_a)", _a=[[], []]) - _spent(table, "_a := nil; _b := str(_a)", _a=[1, 2]) == 2


def test_a_budget_used_up_where_no_expression_is_is_rs514_at_the_rules_section():
    """docs/runtime.md (Limits): a resolution has 200,000 steps, and resolving a filter costs 5 + 3 per
    candidate it examines; an error that has no place of its own points at its rule's section
    (docs/language.md 8.9).  The target ``*s@myDeck`` over a deck of 66,700 cards needs 200,105 steps
    at once: RS514 at ``[src]`` (line 1, its id at column 2), the action undone."""
    from test_rules_pinned import RulesTable
    t = RulesTable("[src]\ntarget = *s@myDeck\naction = hp(+1)\n")
    src = t.ring(0, "src")
    for _ in range(66700):
        t.game.create_card("a", 0, "deck")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    assert (err["code"], err["file"], err["line"], err["col"], err["end_col"], err["card"], err["why"]) == \
        ("RS514", "t.ini", 1, 2, 3, [src, "src"], "trigger")


@pytest.mark.parametrize("written", ["me.hp + 1 < 2", "me.hp - 1 == 2 - me.hp", "me.hp * 2 >= 3 * 1",
                                     "1 < me.hp + 1 <= 5000 - 1", "-me.hp < 0", "(me.hp < 1) == false",
                                     "me.hp + 1 in [1, 2]", "(1 if true else 2) < 3", "not 1 < 2",
                                     "false == (me.hp < 1)"])
def test_a_run_time_error_quotes_a_comparison_of_sums_without_brackets(written):
    """docs/language.md 8.2: comparisons bind looser than ``+ -`` and ``* /`` and signs, tighter than
    ``not``, ``and``, ``or`` and the conditional: a sum compared is quoted without brackets on either
    side, a comparison or a conditional compared with brackets.  Expected texts are the written ones."""
    from test_expr import compile_vars
    from rulescript.runtime import expr
    root = compile_vars("_v := " + written)["vars"][0][1]
    assert expr.node_text(root, root["e"]) == written
