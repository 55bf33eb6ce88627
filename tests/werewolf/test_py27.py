"""The werewolf game under Python 2.7 (as OCTGN's IronPython runs it) plays the same game as under
Python 3: the same decisions and the same final state, with the rendered rules of cards/werewolf."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from rulescript.compiler import compile_game
from tests.runtime.test_py27 import _python27

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "cards" / "werewolf"
ROLES = ["seer", "werewolf", "bodyguard", "trapper", "herbalist", "matchmaker", "judge", "mist-wolf", "clerk",
         "pyre-wolf", "pilgrim", "town-crier", "exorcist", "deserter", "medium"]

SCRIPT = r'''
from __future__ import print_function
import sys
sys.path.insert(0, sys.argv[1])
from rulescript.games import werewolf
from rulescript.games.werewolf.game import WerewolfGame
from rulescript.runtime.engine import Engine
from rulescript.runtime.rng import Rng
models = eval(open(sys.argv[2]).read())
rules = eval(open(sys.argv[3]).read())
roles = eval(sys.argv[4])

class Dec(object):
    def __init__(self):
        self.r = Rng(31)
    def decide(self, req):
        opts = req["options"]
        if req["kind"] in ("choose_targets", "arrange"):
            return list(opts[:max(1, req["min"])])
        if req["cancel"] and self.r.randbelow(4) == 0:
            return None
        return opts[self.r.randbelow(len(opts))]

def canon(v):
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (canon(k), canon(v[k])) for k in sorted(v, key=lambda k: repr(k))) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(canon(x) for x in v) + "]"
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, (int, float)) or type(v).__name__ == "long":
        return str(int(v)) if v == int(v) else repr(v)
    return repr(str(v)).lstrip("u")

eng = Engine(rules, game=werewolf)
g = WerewolfGame(models, roles, Dec(), rules=eng, seed=5)
g.run()
print(canon(g.state))
print(canon(eng.errors))
'''


def _run(python: str, tmp: Path) -> str:
    proc = subprocess.run([python, "-c", SCRIPT, str(ROOT), str(tmp / "models.py"), str(tmp / "rules.py"), repr(ROLES)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_werewolf_game_is_the_same_under_python_27_and_3(tmp_path):
    py27 = _python27()
    if py27 is None:
        pytest.skip("no Python 2.7 on this machine")
    compiled = compile_game(GAME)
    assert compiled.ok
    cards = yaml.safe_load((GAME / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    (tmp_path / "models.py").write_text(repr({c["id"]: c for c in cards}), encoding="utf-8")
    (tmp_path / "rules.py").write_text(repr(compiled.rules), encoding="utf-8")
    import sys

    out3 = _run(sys.executable, tmp_path)
    out2 = _run(py27, tmp_path)
    assert out2 == out3
    state, errors = out3.splitlines()
    assert "'over': True" in state and ("'winner': 'villagers'" in state or "'winner': 'werewolves'" in state)
    assert errors == "[]"
