"""Long campaigns in the stand-in (marked slow; CI runs them): 100 seeded two-client CFC games and a
15-client werewolf game played to the end, with no OCTGN warning, no alert, no error and every engine
equal; the same under a real Python 2.7."""
from __future__ import annotations

import ast
import os
import subprocess

import pytest

from octgn_pack.py27 import find_python27
from tests.conftest import ROOT
from tests.octgn_standin import play

GAMES = (1, 100)


def clean(verdicts, games):
    assert len(verdicts) == games
    bad = [v for v in verdicts if not (v["over"] and v["equal"] and v["warnings"] == 0 and v["alerts"] == 0
                                       and v["errors"] == 0 and v["off"] == [])]
    assert bad == []


def here(zip_path, first, last, players):
    out = []
    for seed in range(first, last + 1):
        room, clients = play.setup(str(zip_path), seed, players=players)
        play.play(room, clients)
        out.append(play.verdict(room, clients, seed))
    return out


def under_py27(zip_path, first, last, players):
    py27 = find_python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available (set PYTHON27 to one)")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
    proc = subprocess.run([py27, "-m", "octgn_standin.play", str(zip_path), "%d-%d" % (first, last), str(players)],
                          capture_output=True, text=True, cwd=str(ROOT / "tests"), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return ast.literal_eval(proc.stdout.strip())


@pytest.mark.slow
@pytest.mark.timeout(1800)  # about 2 s a game on an idle two-core machine
def test_a_hundred_two_client_cfc_games_end_clean(demo_zip):
    clean(here(demo_zip, GAMES[0], GAMES[1], 2), GAMES[1])


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_hundred_two_client_cfc_games_end_clean_under_python_27(demo_zip):
    clean(under_py27(demo_zip, GAMES[0], GAMES[1], 2), GAMES[1])


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_fifteen_werewolf_clients_end_clean_under_python_27(wolf_zip):
    clean(under_py27(wolf_zip, 3, 3, 15), 1)
