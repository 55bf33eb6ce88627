"""The two-client game of the stand-in under a real Python 2.7 (the interpreter family of OCTGN's
IronPython): the package's scripts and host run there, and the game equals the Python 3 run of the
same seed and the headless engine's."""
from __future__ import annotations

import ast
import os
import subprocess

import pytest

from octgn_pack.host import codec
from rulescript.games.cfc import table as cfc_table
from rulescript.sim.deciders import ScriptedDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from tests.conftest import DEMO, ROOT
from tests.octgn_host.conftest import table_differences
from tests.octgn_standin import play
from octgn_pack.py27 import find_python27

SEED = 2


def run_py27(python, zip_path, seed):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
    proc = subprocess.run([python, "-m", "octgn_standin.play", str(zip_path), str(seed)], capture_output=True,
                          text=True, cwd=str(ROOT / "tests"), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return ast.literal_eval(proc.stdout.strip())


def test_two_clients_play_the_same_game_under_python_27(demo_zip):
    py27 = find_python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available (set PYTHON27 to one)")
    s27 = run_py27(py27, demo_zip, SEED)
    for c in s27["clients"]:
        assert c["errors"] == [] and c["host_errors"] == [] and c["off"] is None
    a, b = s27["clients"]
    assert a["result"] is not None and a["state"] == b["state"]
    # the same seed in this Python 3 gives the very same game, table and traffic
    room, clients = play.setup(str(demo_zip), SEED)
    play.play(room, clients)
    s3 = play.summary(room, clients)
    assert s3["clients"][0]["state"] == a["state"] and s3["clients"][0]["log"] == a["log"]
    assert [t["text"] for t in s3["traffic"]] == [t["text"] for t in s27["traffic"]]
    assert s3["table"] == s27["table"]
    # and the headless engine agrees; the checksums written under 2.7 are Python 3's
    demo = load_table(DEMO)
    answers = [d[2] for d in a["state"]["log"]]
    game, log = play_game(demo.data, a["decks"], a["seed"], ScriptedDecider(answers), rules=demo.engine())
    assert game.state == a["state"] and log["result"] == a["result"]
    checks = [t["text"][len("rs_check"):] for t in s27["traffic"] if t["kind"] == "gvar" and
              t["text"].startswith("rs_check")]
    n, _pid, digest = codec.decode_check(checks[-1])
    assert n == len(a["log"]) and digest == play.host(clients[0]).session.digest()
    view = cfc_table.view(a["state"], demo.data.models)
    assert table_differences(s27["table"], view, a["cid"], a["pids"]) == []

