import pytest

from rulescript.runtime.errors import InvalidDecision
from rulescript.runtime.ports import KINDS, ListSink, NoRules, check_answer, make_request


def req(kind, options, mn=1, mx=1, cancel=False):
    return make_request(kind, 0, options, mn, mx, "p", None, cancel)


def test_request_shape_and_kinds():
    r = req("yes_no", [True, False])
    assert r == {"kind": "yes_no", "player": 0, "options": [True, False], "min": 1, "max": 1,
                 "prompt": "p", "source": None, "cancel": False}
    assert len(KINDS) == 15
    assert "use_ability" in KINDS and "vote" in KINDS  # the werewolf game's decisions
    with pytest.raises(ValueError):
        req("guess", [])


def test_single_answers():
    assert check_answer(req("choose_slot", [0, 2]), 2) == 2
    with pytest.raises(InvalidDecision, match="not one of the options"):
        check_answer(req("choose_slot", [0, 2]), 1)
    with pytest.raises(InvalidDecision):
        check_answer(req("yes_no", [True, False]), 1)            # 1 is not True here
    with pytest.raises(InvalidDecision):
        check_answer(req("choose_slot", [0, 1]), False)
    opts = [{"do": "pass"}, {"do": "play", "card": 3}]
    got = check_answer(req("choose_main_action", opts), {"card": 3, "do": "play"})
    assert got is opts[1]
    with pytest.raises(InvalidDecision, match="cannot be cancelled"):
        check_answer(req("choose_action", ["a", "b"]), None)
    assert check_answer(req("choose_action", ["a", "b"], cancel=True), None) is None


def test_list_answers():
    r = req("choose_targets", [5, 6, 7], 1, 2)
    assert check_answer(r, [7, 5]) == [7, 5]
    for bad, why in (([], "between"), ([5, 6, 7], "between"), ([5, 5], "twice"), ([9], "not one"),
                     (5, "a list")):
        with pytest.raises(InvalidDecision, match=why):
            check_answer(r, bad)
    a = req("arrange", ["x", "y", "z"])
    assert check_answer(a, ["z", "x", "y"]) == ["z", "x", "y"]
    with pytest.raises(InvalidDecision, match="exactly once"):
        check_answer(a, ["z", "x"])


def test_sinks_and_norules():
    s = ListSink()
    s.emit({"type": "x"})
    assert s.records == [{"type": "x"}]
    n = NoRules()
    assert n.ask_hook(None, "canblock", 0) == [] and n.cost_adjustment(None, "ua2", 0, None, True) == 0
    assert n.resolve_action(None, 1, "action") is False and not n.has_action(None, 1)
    assert n.damage_adjustment(None, None, 1) == 0


def test_view_hides_opponent_hand_and_decks(make_table):
    t = make_table()
    g = t.game
    mine = t.card(0, "tiny")
    theirs = t.card(1, "grunt")
    deck = t.deck(0, ["mid"])
    inring = t.ring(1, "ninja")
    v = g.view(0)
    assert v["players"][0]["hand"] == [mine] and v["players"][1]["hand"] == 1
    assert v["players"][0]["deck"] == 1
    assert mine in v["cards"] and inring in v["cards"]
    assert theirs not in v["cards"] and deck[0] not in v["cards"]
    assert "rng" not in v
    v["cards"][mine]["bp"] = 999
    assert g.state["cards"][mine]["bp"] == 0


def test_ask_refuses_impossible_target_choice(table):
    from rulescript.runtime.errors import GameError
    with pytest.raises(GameError, match="cannot choose 2..2 of 1"):
        table.game.ask("choose_targets", 0, [1], 2, 2, "two")
