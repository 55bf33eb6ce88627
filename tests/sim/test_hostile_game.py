"""The hostile fixture game (tests/sim/fixtures/hostile): rules that hit the limits of a resolution,
the nil stat semantics, the engine bugs of issue 13, and only legal blocks offered (issue 12)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulescript.pytest_scenarios import check_scenario, collect_cases, scenario_params
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.scenario import _rules_port, run_text
from rulescript.sim.scenario_format import parse_scenarios
from rulescript.sim.scenario_run import build_game

HERE = Path(__file__).parent
HOSTILE = HERE / "fixtures" / "hostile"


@pytest.mark.parametrize("case", scenario_params([HOSTILE]))
def test_hostile_scenario(case):
    check_scenario(case)


def test_the_hostile_scenarios_are_there():
    names = [c.scenario.name for c in collect_cases([HOSTILE])]
    assert len(names) >= 13
    for word in ("RS511", "RS512", "RS513", "RS514", "nil", "{D}{D}", "canblock", "set up"):
        assert any(word in n for n in names), word


LANCER = """\
game: %s
name: blocks
setup:
  phase: attack
  players:
    - ring: [picky-lancer]
    - ring: [ash-pup, cinder-fox]
steps:
  - attack: picky-lancer
  - pass: attack
  - block: {card: %s, attack: picky-lancer}
expect:
  attacks: [{lead: picky-lancer, blocker: %s}]
"""


def test_a_block_the_canblock_hook_forbids_is_not_offered():
    # picky-lancer (500 BP): ?oppCanBlock? [[if blocker.bp > this.bp]]
    (ok,) = run_text(LANCER % (HOSTILE, "cinder-fox", "cinder-fox"), "case.yaml", HERE)
    assert ok.passed, ok.failures
    (refused,) = run_text(LANCER % (HOSTILE, "ash-pup", "ash-pup"), "case.yaml", HERE)
    assert not refused.passed
    (msg,) = refused.failures
    assert "not offered to player 1 now" in msg
    assert msg.endswith("the game offers: block card=Cinder Fox#3 attack=Picky Lancer#1, pass")
    assert not [line for line in refused.log if "block refused" in line]


def _lancer_game(seed):
    text = LANCER % (HOSTILE, "cinder-fox", "cinder-fox")
    (sc,), _ = parse_scenarios(text, "case.yaml", HERE)
    sink = ListSink()
    engine = _rules_port(sc)
    game = build_game(sc, RandomDecider(seed, stop=0.0), sink, engine)
    st = game.state
    lead = [i for i in game.ring_chars(0)][0]
    game.declare_attack(lead)
    return game, sink, engine, lead


def test_the_random_decider_is_offered_only_legal_blocks_and_the_probe_leaves_no_trace():
    for seed in range(30):
        game, sink, engine, lead = _lancer_game(seed)
        before = deep_copy(game.state)
        n_records = len(sink.records)
        opts = game.defense_options(1)
        assert game.state == before and len(sink.records) == n_records and engine.errors == []
        blocks = [o for o in opts if o["do"] == "block"]
        assert [game.model(o["card"])["id"] for o in blocks] == ["cinder-fox"]
        game.declare_defense(1)
        assert not [r for r in sink.records if r.get("text") == "block refused"]
        a = game.state["attacks"][0]
        assert a["blocker"] is None or game.model(a["blocker"])["id"] == "cinder-fox"


def test_a_hook_that_would_ask_a_question_is_offered_and_asked_when_declared():
    from rulescript.compiler import compile_text
    from rulescript.games import cfc
    from rulescript.runtime.engine import Engine
    from rulescript.sim.cards import load_game
    data = load_game(HOSTILE)
    rules = compile_text("[picky-lancer]\nauto = ?oppCanBlock? [[may]] hp(+1)\n", filename="q.ini",
                         cards=list(data.models.values()), cache=None)
    assert rules.ok, rules.render()
    text = LANCER % (HOSTILE, "ash-pup", "ash-pup")
    (sc,), _ = parse_scenarios(text, "case.yaml", HERE)
    asked = []

    class Decider:
        def decide(self, request):
            asked.append(request["kind"])
            return True if request["kind"] == "yes_no" else request["options"][0]

    engine = Engine(rules.rules, game=cfc)
    game = build_game(sc, Decider(), ListSink(), engine)
    lead = game.ring_chars(0)[0]
    game.declare_attack(lead)
    opts = game.defense_options(1)
    assert asked == []  # the probe asked nobody
    assert len([o for o in opts if o["do"] == "block"]) == 2  # only asking can tell: both offered
    b = [o for o in opts if o["do"] == "block"][0]
    assert game.declare_block(b["card"], b["attack"]) is True
    assert asked == ["yes_no"] and game.state["players"][0]["hp"] == 3001


# ---------------------------------------------------------------------- the hosts keep running
def _cli(*args, stdin=None):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "rulescript.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_rulescript_test_runs_every_hostile_scenario():
    out = _cli("test", str(HOSTILE))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert out.stdout.rstrip().endswith("passed, 0 failed")


def test_play_auto_plays_a_hostile_deck_to_the_end():
    out = _cli("play", str(HOSTILE), "--auto", "--seed", "3")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "** game over" in out.stdout
    assert "error[RS51" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr


def test_the_interactive_table_goes_on_after_a_rule_hits_a_limit():
    out = _cli("play", str(HOSTILE), "--seed", "3", "--turn-limit", "6", stdin="1\n" * 600)
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    at = text.index("error[RS514]")
    assert "the resolution was aborted and the game state restored" in text[at:]
    assert "[player " in text[at:]  # the table asked its next question after the error
    assert "Traceback" not in text + out.stderr
