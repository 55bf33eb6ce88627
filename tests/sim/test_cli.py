import io
from pathlib import Path

from rulescript.runtime.rng import Rng
from rulescript.sim.__main__ import main
from rulescript.sim.cards import load_game
from rulescript.sim.gamelog import load_log, replay

FIXTURE = str(Path(__file__).parent / "fixtures" / "vanilla")


def test_cli_simulate():
    out = io.StringIO()
    assert main(["simulate", FIXTURE, "--games", "10", "--seed", "4"], out=out) == 0
    text = out.getvalue()
    assert "games: 10" in text and "errors: 0" in text


def test_cli_print_writes_replayable_log(tmp_path):
    out = io.StringIO()
    path = tmp_path / "g.log"
    assert main(["print", FIXTURE, "--seed", "6", "--log", str(path)], out=out) == 0
    assert out.getvalue().splitlines()[-1].startswith("** game over")
    log = load_log(path)
    game = replay(load_game(FIXTURE), log)
    assert game.state["winner"] == log["result"]["winner"]


def test_cli_play_on_streams(tmp_path):
    r = Rng(5)
    inp = io.StringIO("\n".join(str(1 + r.randbelow(8)) for _ in range(100000)) + "\n")
    out = io.StringIO()
    path = tmp_path / "p.log"
    assert main(["play", FIXTURE, "--seed", "2", "--decks", "red", "blue", "--log", str(path)],
                inp=inp, out=out) == 0
    text = out.getvalue()
    assert "choose_main_action" in text and "** game over" in text
    assert "play card=" in text                     # options are shown with card names
    assert "   P0: HP " in text and "   P1: HP " in text
    log = load_log(path)
    assert replay(load_game(FIXTURE), log).state["winner"] == log["result"]["winner"]
