"""The same game under Python 2.7 and Python 3 gives the same decisions and the same final state."""
import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[2]


def _python27():
    cands = [shutil.which("python2.7"), "/root/.pyenv/versions/2.7.18/bin/python"]
    env = os.environ.get("PYTHON27")
    if env:
        cands.insert(0, env)
    for c in cands:
        if c and os.path.exists(c):
            proc = subprocess.run([c, "-c", "import sys; print(sys.version_info[0])"],
                                  capture_output=True, text=True)
            if proc.returncode == 0 and proc.stdout.strip() == "2":
                return c
    return None


MODELS = {
    "a": {"id": "a", "name": "A", "type": "character", "subtype": "X", "bp": 300, "sp": 2, "backup": ["X"]},
    "b": {"id": "b", "name": "B", "type": "character", "subtype": "Y", "bp": 900, "sp": -1, "backup": ["X", "Y"]},
    "c": {"id": "c", "name": "C", "type": "character", "subtype": "X", "bp": 1400, "sp": -4, "backup": []},
    "d": {"id": "d", "name": "D", "type": "action", "sp": -1},
    "e": {"id": "e", "name": "E", "type": "reaction", "sp": 0},
}
DECK = ["a"] * 15 + ["b"] * 15 + ["c"] * 10 + ["d"] * 5 + ["e"] * 5

SCRIPT = r'''
from __future__ import print_function
import sys
sys.path.insert(0, sys.argv[1])
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.rng import Rng
from rulescript.runtime.plain import snapshot, restore
from rulescript.games.cfc.lasting import restriction
from rulescript.runtime.errors import GameOver
models = eval(sys.argv[2])
deck = eval(sys.argv[3])

class Dec(object):
    def __init__(self):
        self.r = Rng(99)
    def decide(self, req):
        opts = req["options"]
        if req["kind"] == "choose_targets":
            return opts[:req["min"]]
        if req["kind"] == "arrange":
            return list(reversed(opts))
        return opts[self.r.randbelow(len(opts))]

g = CfcGame(models, [list(deck), list(deck)], Dec(), seed=12345)
g.run()

h = CfcGame(models, [list(deck), list(deck)], Dec(), seed=777, first=1)
h.setup()
h.state["players"][1]["sp"] = 20
a = h.create_card("b", 1, "hand")
h.play_character(1, a, 2)
h.state["cards"][a]["fresh"] = False
x = h.create_card("a", 1, "hand")
h.backup(1, x, a)
h.add_rule_entry("attack", a, 0, False)
h.add_grant("pierce", a, card=a, until=restriction("oppueot", 1))
h.add_cost_mod("action", "+", 1, a)
snap = snapshot(h.state, skip=("log",))
h.damage_chars([a], 250)
h.transform([a], "c")
restore(h.state, snap, keep=("log",))
h.prophecy(1, 0, "deck", 3, None, a)
h.discard_random(0, 2)
h.bp_set([a], 1249)
h.bp_mul([a], 3)
h.add_sp(1, -7)
h.damage_player(0, 333, None)
h.flip_coin(1, a)
h.declare_attack(a)
h.move_cards([a], 0, "deck", -2)
h.trash(0, 4)
try:
    h.lose_life(0, 5000)
except GameOver:
    pass
print(repr([g.state, h.state]))
'''


def _run(python):
    proc = subprocess.run([python, "-c", SCRIPT, str(ROOT), repr(MODELS), repr(DECK)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return ast.literal_eval(proc.stdout.strip())


def test_same_games_and_operations_on_python_27_and_3():
    py27 = _python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available")
    g3, h3 = _run(sys.executable)
    g27, h27 = _run(py27)
    assert g3["over"] and g3["turn"] > 3 and h3["over"] and h3["winner"] == 1
    assert g27["log"] == g3["log"]
    assert g27 == g3
    assert h27 == h3


def test_in_process_game_matches_the_script():
    g3, _ = _run(sys.executable)
    g = CfcGame(MODELS, [list(DECK), list(DECK)], Dec(), seed=12345)
    g.run()
    assert g.state == g3


class Dec(object):
    """The same decider as the script's."""

    def __init__(self):
        self.r = Rng(99)

    def decide(self, req):
        opts = req["options"]
        if req["kind"] == "choose_targets":
            return opts[:req["min"]]
        if req["kind"] == "arrange":
            return list(reversed(opts))
        return opts[self.r.randbelow(len(opts))]
