"""The rule engine's guarantees, with real compiled rules on a real table (rulescript.md 5.2, 7.3, 8.7).

A resolution is a transaction; an unpayable cost changes nothing; a trigger loop is stopped with an
error naming its cards; listeners follow prefixes, suffixes, :once and suppression; hooks give
verdicts; a seeded game with rules is determined by its seed and decisions and replays exactly.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.compiler import compile_text
from rulescript.games import cfc
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.engine import MAX_DEPTH, Engine
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import RandomDecider, ScriptedDecider
from rulescript.sim.gamelog import load_log, save_log
from rulescript.sim.host import load_table
from runtime_table import enter_ring

ROOT = Path(__file__).resolve().parents[2]


def char(cid, bp=500, sp=0, subtype="ninja", ability="auto"):
    return {"id": cid, "name": cid.replace("-", " ").title(), "type": "character", "subtype": subtype,
            "bp": bp, "sp": sp, "backup": [], "ability": {"kind": ability, "name": cid}, "text": ""}


def action(cid, sp=0):
    return {"id": cid, "name": cid.title(), "type": "action", "sp": sp, "text": ""}


class Table:
    """A game in the Main phase of turn 1 (player 0 active) with the real engine and compiled rules."""

    def __init__(self, rules_text, models, answers=()):
        self.models = {m["id"]: m for m in models}
        result = compile_text(rules_text, filename="t.ini", cards=models, cache=None)
        assert result.ok, result.render()
        self.engine = Engine(result.rules, game=cfc)
        self.sink = ListSink()
        self.decider = ScriptedDecider(list(answers))
        self.game = CfcGame(self.models, [[], []], self.decider, sink=self.sink, rules=self.engine, seed=3, first=0)
        st = self.game.state
        st["phase"], st["turn"], st["active"] = "main", 1, 0
        self.engine.start(self.game)

    def put(self, p, model, zone="hand"):
        return self.game.create_card(model, p, zone)

    def ring(self, p, model):
        """Play ``model`` into player p's ring the way the game does it (rules load)."""
        return enter_ring(self.game, self.engine, p, model)

    def state_without_log(self):
        st = deep_copy(self.game.state)
        st.pop("log")
        return st


def test_a_failing_effect_restores_the_whole_state():
    models = [char("bomber", ability="trigger")] + [char(f"c{i}") for i in range(4)]
    t = Table("[bomber]\nvars = _none := getTargets('character[bp>9000]@arena')\n"
              "action = draw(2); sp(+3); damage(_none.0.bp) to(opp)\n", models)
    for i in range(4):
        t.put(0, f"c{i}", "deck")
    src = t.ring(0, "bomber")
    before = t.state_without_log()
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert t.state_without_log() == before  # the two draws and the SP are undone
    [err] = t.engine.errors
    assert err["code"] == "RS501" and "out of range" in err["message"]
    assert (err["file"], err["line"], err["col"]) == ("t.ini", 3, 34)
    assert err["text"] == "_none.0.bp" and err["card"][1] == "bomber"
    assert ["_none", []] in err["values"]
    assert any(r["type"] == "rule_error" for r in t.sink.records)


def test_an_unpayable_cost_changes_nothing():
    models = [char("miser", ability="trigger"), char("filler")]
    t = Table("[miser]\naction = {D(3)}: draw(); sp(+5)\n", models)
    t.put(0, "filler")  # one card in hand: {D(3)} cannot be paid
    src = t.ring(0, "miser")
    before = t.state_without_log()
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert t.state_without_log() == before
    assert not t.engine.errors


def test_costs_are_checked_before_any_is_paid():
    """{F} could be paid but {D(2)} cannot: the character stays unfrozen."""
    t = Table("[hasty]\naction = {F}{D(2)}: sp(+5)\n", [char("hasty", ability="trigger"), char("x")])
    t.put(0, "x")
    src = t.ring(0, "hasty")
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert t.game.state["cards"][src]["frozen"] is False and t.game.state["players"][0]["sp"] == 0


def test_a_two_card_trigger_loop_stops_naming_both_cards_and_restores_the_state():
    # each one makes its own controller draw whenever the opponent's hand changes
    models = [char("echo-a"), char("echo-b"), char("filler")]
    t = Table("[echo-a]\nauto = ~oppHandChanges~ draw()\n"
              "[echo-b]\nauto = ~oppHandChanges~ draw()\n", models)
    for p in (0, 1):
        for _ in range(60):
            t.put(p, "filler", "deck")
    t.ring(0, "echo-a")
    t.ring(1, "echo-b")
    t.engine.errors.clear()
    before = t.state_without_log()
    t.game.draw(0, 1)  # player 0's hand changes: echo-b answers, then echo-a, then echo-b...
    loop = [e for e in t.engine.errors if e["code"] == "RS520"]
    assert len(loop) == 1
    assert "echo-a" in loop[0]["message"] and "echo-b" in loop[0]["message"]
    assert str(MAX_DEPTH) in loop[0]["message"]
    after = t.state_without_log()
    # the draw that started it stands (it is game flow, not a resolution); the cascade is undone
    assert len(after["players"][0]["hand"]) == len(before["players"][0]["hand"]) + 1
    assert after["players"][1]["hand"] == before["players"][1]["hand"]
    assert after["players"][0]["deck"] == before["players"][0]["deck"][1:]


def test_listener_prefixes_and_once():
    models = [char("watcher"), char("filler")]
    t = Table("[watcher]\nauto = ~oppEndPhase:once~ sp(+2)\n", models)
    src = t.ring(0, "watcher")
    t.engine.fire(t.game, "endphase", 0)            # my own End phase: opp prefix does not match
    assert t.game.state["players"][0]["sp"] == 0
    t.engine.fire(t.game, "endphase", 1)            # the opponent's: runs, and :once is consumed
    t.engine.fire(t.game, "endphase", 1)
    assert t.game.state["players"][0]["sp"] == 2
    assert not [l for l in t.game.state["ext"]["listeners"] if l["src"] == src]


def test_object_events_match_this_unless_any():
    models = [char("mourner"), char("friend"), char("filler")]
    t = Table("[mourner]\nauto = ~removed:any~ sp(+1)\n[friend]\nauto = ~removed~ hp(+100)\n", models)
    t.ring(0, "mourner")
    friend = t.ring(0, "friend")
    t.game.destroy([friend])   # fires removed for friend: mourner (any object) and friend itself
    assert t.game.state["players"][0]["sp"] == 1
    assert t.game.state["players"][0]["hp"] == 3100


def test_hook_verdict_of_a_condition_only_statement():
    models = [char("gate", bp=900)]
    t = Table("[gate]\nauto = ?oppCanBlock:this? [[if opp.hand.size <= 2]]\n", models)
    src = t.ring(0, "gate")
    assert t.engine.ask_hook(t.game, "canblock", 1, src, src) == [True]
    for _ in range(3):
        t.put(1, "gate")
    assert t.engine.ask_hook(t.game, "canblock", 1, src, src) == [False]


def test_withdraw_mode_removes_a_grant_when_the_condition_turns_false():
    models = [char("lone-wolf"), char("pal")]
    t = Table("[lone-wolf]\nauto = ~ringChanges~ [[if me.ring.size == 1]] +unblockable\n", models)
    wolf = t.ring(0, "lone-wolf")       # state listener: runs once on load, alone -> granted
    assert t.game.has_ability(wolf, "unblockable")
    t.ring(0, "pal")
    t.engine.fire(t.game, "ringchanges", 0)
    assert not t.game.has_ability(wolf, "unblockable")


def test_a_restricted_lasting_effect_expires_and_an_unrestricted_one_ends_with_its_source():
    models = [char("banner", ability="trigger"), char("ally")]
    t = Table("[banner]\naction = +pierce ueot to(character@myRing); +rush to(character@myRing)\n", models)
    ally = t.ring(0, "ally")
    banner = t.ring(0, "banner")
    t.decider.answers.extend([[ally], [ally]])
    assert t.engine.resolve_action(t.game, banner, "trigger") is True
    assert t.game.has_ability(ally, "pierce") and t.game.has_ability(ally, "rush")
    t.game.destroy([banner])           # the source leaves play: the unrestricted grant ends
    assert t.game.has_ability(ally, "pierce") and not t.game.has_ability(ally, "rush")
    t.game.expire(["ueot"], 0)
    assert not t.game.has_ability(ally, "pierce")


def test_same_seed_and_decisions_give_an_identical_log_and_replay_reproduces_the_state(tmp_path):
    table = load_table(ROOT / "cards" / "cfc-demo")
    sink_a, sink_b = ListSink(), ListSink()
    game_a, log_a, eng_a = table.play(7, RandomDecider(11), sink=sink_a)
    game_b, log_b, eng_b = table.play(7, RandomDecider(11), sink=sink_b)
    assert not eng_a.errors and not eng_b.errors and log_a["error"] is None
    assert eng_a.ran, "the demo rules must actually run in a demo game"
    assert log_a == log_b and sink_a.records == sink_b.records
    assert game_a.state == game_b.state
    path = tmp_path / "game.log"
    save_log(log_a, str(path))
    again = table.replay(load_log(str(path)))
    assert again.state == game_a.state


def test_a_different_seed_gives_a_different_game():
    table = load_table(ROOT / "cards" / "cfc-demo")
    _, log_a, _ = table.play(7, RandomDecider(11))
    _, log_b, _ = table.play(8, RandomDecider(11))
    assert log_a["decisions"] != log_b["decisions"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_demo_games_run_rules_without_errors(seed):
    table = load_table(ROOT / "cards" / "cfc-demo")
    game, log, eng = table.play(seed, RandomDecider(seed + 100))
    assert log["error"] is None and not eng.errors
    assert game.state["over"]
