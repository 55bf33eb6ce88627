"""The CFC table face: the data a table host and the package builder read, and the view of a state."""
from rulescript.games.cfc import table as T
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.host import load_table
from tests.conftest import ROOT


def test_every_card_is_shown_once_where_the_state_has_it():
    t = load_table(ROOT / "cards" / "cfc-demo")
    for seed in (1, 2, 3):
        game, _, _ = t.play(seed, RandomDecider(seed))
        v = T.view(game.state, t.data.models)
        assert set(v["cards"]) == set(game.state["cards"])
        for iid, shown in v["cards"].items():
            card = game.state["cards"][iid]
            if shown["pile"] is not None:
                zone = [p["zone"] for p in T.PILES if p["name"] == shown["pile"]][0]
                assert game.state["players"][shown["player"]][zone][shown["index"]] == iid
            elif card["zone"] == "ring":
                assert game.state["players"][shown["player"]]["ring"][shown["slot"]] == iid
        assert v["counters"] == [{"HP": p["hp"], "SP": p["sp"]} for p in game.state["players"]]


def test_bp_changes_become_markers():
    card = {"zone": "ring", "bp": 700, "frozen": True, "used": False, "fresh": False, "attacking": False,
            "blocking": None}
    assert T._markers(card, 400) == {"rs-frozen": 1, "rs-bp-up": 3}
    card.update(bp=200, frozen=False)
    assert T._markers(card, 400) == {"rs-bp-down": 2}


def test_menus_answer_the_games_own_options():
    kinds = {a["do"] for a in T.CARD_ACTIONS + T.GAME_ACTIONS}
    assert {"play", "action", "activate", "attack", "block", "pass", "done", "concede"} <= kinds
    assert len({m["id"] for m in T.MARKERS}) == len(T.MARKERS)
    assert [p["phase"] for p in T.PHASES][:3] == ["activate", "draw", "main"]


def test_view_names_the_active_player_and_the_phase():
    t = load_table(ROOT / "cards" / "cfc-demo")
    game, _, _ = t.play(4, RandomDecider(4))
    v = T.view(game.state, t.data.models)
    assert v["active"] == game.state["active"]
    assert v["phase"] in [p["name"] for p in T.PHASES]
    assert [p["phase"] for p in T.PHASES if p["name"] == v["phase"]] == [game.state["phase"]]


def test_describe_gives_chat_lines_for_what_the_table_does_not_show():
    t = load_table(ROOT / "cards" / "cfc-demo")
    game, _, _ = t.play(5, RandomDecider(5))
    name = lambda iid: "card%s" % iid  # noqa: E731
    who = lambda p: "P%s" % p  # noqa: E731
    assert T.describe({"type": "turn", "turn": 3, "player": 1}, name, who) == "Turn 3: P1"
    assert T.describe({"type": "decision", "kind": "choose_main_action", "player": 0,
                       "answer": {"do": "backup", "card": 4, "host": 9}, "prompt": ""}, name, who) \
        == "P0 backs up card9 with card4"
    assert T.describe({"type": "decision", "kind": "choose_slot", "player": 1, "answer": 2,
                       "prompt": "slot"}, name, who) == "P1: slot: slot 3"
    assert T.describe({"type": "move", "card": 1, "from": [0, "hand"], "to": [0, "ring"]}, name, who) is None
    assert T.describe({"type": "gameover", "winner": 1, "reason": "player 0 at 0 HP"}, name, who) \
        == "Game over: P1 wins (player 0 at 0 HP)"
