import ast
import io
from pathlib import Path

import pytest

from rulescript.runtime.errors import InvalidDecision
from rulescript.runtime.plain import is_plain, is_tree
from rulescript.sim import (InteractiveDecider, RandomDecider, ScriptedDecider, format_record,
                            load_game, play_game, print_game, replay, simulate)
from rulescript.sim.cards import CardDataError, load_deck
from rulescript.sim.deciders import DecisionsExhausted, ReplayDiverged
from rulescript.sim.gamelog import load_log, save_log

FIXTURE = Path(__file__).parent / "fixtures" / "vanilla"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data():
    return load_game(FIXTURE)


def test_load_fixture(data):
    assert sorted(data.decks) == ["blue", "red"]
    for name in data.decks:
        deck = data.deck_list(name)
        assert len(deck) == 50 and all(c in data.models for c in deck)
    types = {m["type"] for m in data.models.values()}
    assert types == {"character", "action", "reaction"}


def test_bad_deck_is_reported(tmp_path, data):
    p = tmp_path / "bad.yaml"
    p.write_text("name: Bad\ncards:\n  ash-pup: 4\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="more than 3 copies"):
        load_deck(p, data.models)
    p.write_text("name: Bad\ncards:\n  ash-pup: 3\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="50 cards"):
        load_deck(p, data.models)
    p.write_text("name: Bad\ncards:\n  nobody: 3\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="unknown card id"):
        load_deck(p, data.models)


def test_random_game_finishes_and_log_is_plain(data):
    game, log = play_game(data, ["red", "blue"], 11, RandomDecider(5))
    assert log["error"] is None and game.state["over"]
    assert log["result"]["result"] in ("win", "draw")
    assert is_plain(log) and ast.literal_eval(repr(log)) == log
    assert is_plain(game.state) and is_tree(game.state)
    assert log["decisions"] and all(len(d) == 3 for d in log["decisions"])


def test_same_seed_and_decisions_give_identical_log_and_state(data):
    g1, l1 = play_game(data, ["red", "blue"], 21, RandomDecider(8))
    g2, l2 = play_game(data, ["red", "blue"], 21, RandomDecider(8))
    assert l1 == l2 and g1.state == g2.state
    g3, l3 = play_game(data, ["red", "blue"], 22, RandomDecider(8))
    assert g3.state != g1.state


def test_replay_reproduces_final_state_from_saved_log(data, tmp_path):
    game, log = play_game(data, ["blue", "red"], 33, RandomDecider(2))
    path = tmp_path / "game.log"
    save_log(log, path)
    again = replay(data, load_log(path))
    assert again.state == game.state
    assert log["first"] is None and log["first_player"] == game.state["first"]
    assert again.state["winner"] == log["result"]["winner"]


def test_replay_detects_divergence_and_exhaustion(data):
    _, log = play_game(data, ["red", "blue"], 44, RandomDecider(4))
    cut = dict(log, decisions=log["decisions"][:3])
    with pytest.raises(DecisionsExhausted, match="no answer left"):
        replay(data, cut)
    wrong = dict(log, decisions=[["choose_attack", 0, {"do": "done"}]] + log["decisions"])
    with pytest.raises(ReplayDiverged):
        replay(data, wrong)


def test_scripted_decider_invalid_answer_is_a_clear_error(data):
    with pytest.raises(InvalidDecision, match="not one of the options"):
        play_game_raise(data, ScriptedDecider([{"do": "fly"}] * 5))


def play_game_raise(data, decider):
    from rulescript.games.cfc.game import CfcGame
    g = CfcGame(data.models, [data.deck_list("red"), data.deck_list("blue")], decider, seed=1, first=0)
    return g.run()


def test_scripted_decider_plays_given_answers(data):
    from rulescript.games.cfc.game import CfcGame
    g = CfcGame(data.models, [data.deck_list("red"), data.deck_list("blue")],
                RandomDecider(1), seed=1, first=0)
    g.setup()
    chars = [g.create_card("ash-pup", 0, "hand")]
    assert g.can_play_character(0, chars[0])
    dec = ScriptedDecider([{"do": "play", "card": chars[0]}, 3, {"do": "pass"}])
    g.decider = dec
    g.play_turn()
    assert g.state["players"][0]["ring"][3] == chars[0] and dec.remaining == 0


def test_interactive_decider_reprompts_and_answers():
    out = io.StringIO()
    inp = io.StringIO("9\nabc\n2\n")
    d = InteractiveDecider(input=inp, output=out, describe=lambda o, k: "%s-%s" % (k, o))
    req = {"kind": "choose_slot", "player": 0, "options": [1, 3], "min": 1, "max": 1, "prompt": "slot",
           "source": None, "cancel": False}
    assert d.decide(req) == 3
    text = out.getvalue()
    assert "choose_slot-3" in text and "numbers go from 1 to 2" in text and "please type numbers" in text
    inp = io.StringIO("1 1\n3 1\n")
    d = InteractiveDecider(input=inp, output=io.StringIO())
    req = dict(req, kind="choose_targets", options=["a", "b", "c"], min=1, max=2)
    assert d.decide(req) == ["c", "a"]
    with pytest.raises(EOFError):
        InteractiveDecider(input=io.StringIO(""), output=io.StringIO()).decide(req)


def test_interactive_game_through_streams(data):
    from rulescript.games.cfc.game import CfcGame
    from rulescript.runtime.rng import Rng
    r = Rng(17)
    lines = "\n".join(str(1 + r.randbelow(8)) for _ in range(100000)) + "\n"
    d = InteractiveDecider(input=io.StringIO(lines), output=io.StringIO())
    g = CfcGame(data.models, [data.deck_list("red"), data.deck_list("blue")], d, seed=3,
                turn_limit=30)
    res = g.run()
    assert g.state["over"] and res["turns"] <= 30


def test_log_printer_one_line_per_record(data):
    out = io.StringIO()
    game, log = print_game(data, ["red", "blue"], 5, RandomDecider(3), out)
    lines = out.getvalue().splitlines()
    assert lines[2].startswith("setup: seed 5")
    assert any(l.startswith("== turn 1: player") for l in lines)
    assert any("choose_main_action" in l for l in lines)
    assert lines[-1].startswith("** game over")
    n_dec = sum(1 for l in lines if " choose_" in l or "yes_no" in l)
    assert n_dec == len(log["decisions"])


def test_format_record_readable(data):
    game, _ = play_game(data, ["red", "blue"], 5, RandomDecider(3))
    iid = game.state["players"][0]["discards"][0] if game.state["players"][0]["discards"] else 1
    line = format_record({"type": "move", "card": iid, "from": [0, "hand"], "to": [0, "ring"],
                          "slot": 2}, game)
    assert "#%d" % iid in line and "hand -> P0 ring slot 2" in line


def test_two_hundred_random_games_no_engine_errors(data):
    seen = []
    res = simulate(FIXTURE, games=200, seed=2024, progress=lambda d, t: seen.append(d), data=data)
    assert res["errors"] == 0, res["error_samples"][:1]
    assert res["games"] == 200 and seen[-1] == 200 and len(seen) == 200
    assert sum(res["wins"]) + res["draws"] == 200
    assert res["wins"][0] > 20 and res["wins"][1] > 20
    assert 5 < res["turns_per_game"] < 200
    assert res["games_per_s"] > 0


def test_simulate_is_deterministic(data):
    a = simulate(FIXTURE, games=20, seed=7, data=data)
    b = simulate(FIXTURE, games=20, seed=7, data=data)
    for k in ("wins", "draws", "turns_per_game", "errors"):
        assert a[k] == b[k]


def test_engine_errors_are_counted(data):
    from rulescript.runtime.ports import NoRules

    class Broken(NoRules):
        def fire(self, game, event, player, obj=None, trigger=None, bindings=None):
            if event == "drawphase":
                raise RuntimeError("listener exploded")

    res = simulate(FIXTURE, games=3, seed=1, data=data, rules=Broken())
    assert res["errors"] == 3
    assert "listener exploded" in res["error_samples"][0]["error"]


DEMO = ROOT / "cards" / "cfc-demo"


@pytest.mark.skipif(not (DEMO / "cards.yaml").exists() or not (DEMO / "decks").is_dir(),
                    reason="cards/cfc-demo not present yet")
def test_demo_game_plays_vanilla():
    res = simulate(DEMO, games=20, seed=3)
    assert res["errors"] == 0, res["error_samples"][:1]


def test_state_saved_as_literal_resumes_identically(data):
    from rulescript.games.cfc.game import CfcGame
    from rulescript.runtime.plain import deep_copy

    decks = [data.deck_list("red"), data.deck_list("blue")]
    d1 = RandomDecider(9)
    g1 = CfcGame(data.models, decks, d1, seed=77)
    g1.setup()
    for _ in range(6):
        g1.play_turn()
    saved = repr(g1.state)
    dec_state = list(d1.rng.state)
    g1.run()
    d2 = RandomDecider(0)
    d2.rng.state[:] = dec_state
    g2 = CfcGame(data.models, decider=d2, state=ast.literal_eval(saved))
    assert g2.state["turn"] == 6
    g2.run()
    assert g2.state == g1.state


def test_rolled_back_resolutions_keep_decisions_and_replay(data):
    from rulescript.runtime.plain import restore, snapshot
    from rulescript.runtime.ports import NoRules

    class RollingBack(NoRules):
        """Every Action card: snapshot, draw, ask yes/no, then fail and roll back."""
        def __init__(self):
            self.rollbacks = 0

        def resolve_action(self, game, iid, why):
            if why != "action":
                return False
            snap = snapshot(game.state, skip=("log",))
            p = game.card(iid)["ctrl"]
            game.draw(p, 1)
            game.ask("yes_no", p, [True, False], prompt="keep going?", source=iid)
            try:
                raise ValueError("rule failed")
            except ValueError:
                restore(game.state, snap, keep=("log",))
                self.rollbacks += 1
            return False

    rules = RollingBack()
    game, log = play_game(data, ["red", "blue"], 8, RandomDecider(8), rules=rules)
    assert log["error"] is None and rules.rollbacks > 0
    assert sum(1 for d in log["decisions"] if d[0] == "yes_no") == rules.rollbacks
    again = replay(data, log, rules=RollingBack())
    assert again.state == game.state


def test_a_table_keeps_no_engine_of_the_games_it_played():
    """Issue 13 (fuzz: the saves worker grew by 2 KB a replay): a table that plays and replays game
    after game (the interactive table, a fuzz worker) lets each game's engine go with the game."""
    import gc
    import weakref

    from rulescript.sim.host import load_table

    table = load_table(DEMO)
    game, log, eng = table.play(5, RandomDecider(5), turn_limit=6)
    engines = [weakref.ref(eng)]
    for _ in range(3):
        again = table.replay(log)
        assert again.state == game.state
        engines.append(weakref.ref(again.rules))
    del game, log, eng, again
    gc.collect()
    assert [ref() for ref in engines] == [None] * 4
