"""Saves and replays (issue 13: hand-edited saves; issue 14 item 2: corrupted saves, replay of a game
saved mid-way) and ``rulescript play`` as a table (issue 14 item 8)."""

from __future__ import annotations

import ast
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import fails, run


@pytest.fixture()
def saved(small_game: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A full game log of the small game (seed 3)."""
    log = tmp_path / "game.log"
    proc = run("rulescript", "play", small_game, "--auto", "--seed", "3", "--log", log)
    assert proc.returncode == 0, proc.stderr
    return log, ast.literal_eval(log.read_text())


def _write(path: Path, log: dict[str, Any]) -> Path:
    path.write_text(repr(log) + "\n")
    return path


def test_replay_of_a_game_saved_midway(small_game: Path, saved: tuple[Path, dict[str, Any]]) -> None:
    path, log = saved
    full = run("rulescript", "play", small_game, "--replay", path)
    assert full.returncode == 0 and "** game over" in full.stdout
    log["decisions"] = log["decisions"][:10]
    mid = run("rulescript", "play", small_game, "--replay", _write(path, log))
    assert mid.returncode == 0, mid.stdout + mid.stderr
    assert "** game over" not in mid.stdout and "(the game was saved here, after 10 decisions)" in mid.stdout
    assert mid.stdout.splitlines()[:20] == full.stdout.splitlines()[:20]
    loaded = run("rulescript", "play", small_game, "--load", path, stdin="quit\n")
    assert loaded.returncode == 0 and "bye" in loaded.stdout and "Traceback" not in loaded.stderr


@pytest.mark.parametrize("edit, message", [
    (lambda log: log.pop("seed"), "the save has no 'seed'"),
    (lambda log: log.update(seed="seven"), "'seed' must be a whole number"),
    (lambda log: log.update(turn_limit=-1), "'turn_limit' must be a whole number from 1 to 100,000"),
    (lambda log: log.update(decks=[log["decks"][0]]), "'decks' must be a list of the two players' decks"),
    (lambda log: log["decks"][0].update(cards=log["decks"][0]["cards"][:-1] + ["no-such-card"]),
     "deck 1 holds card 'no-such-card', which the game does not have"),
    (lambda log: log["decisions"].__setitem__(2, ["choose_main_action", 7, None]),
     "decision 3 must be [kind, player (0 or 1), answer]"),
    (lambda log: log.update(format=9), "'format' must be 1"),
])
def test_hand_edited_saves_are_located_errors(small_game: Path, saved: tuple[Path, dict[str, Any]], edit: Any,
                                             message: str) -> None:
    path, log = saved
    edit(log)
    _write(path, log)
    for option in ("--load", "--replay"):
        err = fails(run("rulescript", "play", small_game, option, path, stdin="quit\n"), 1, message)
        assert "game.log:1:" in err and "error[SV101]" in err


def test_unknown_deck_and_bogus_answers(small_game: Path, saved: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, log = saved
    renamed = {**log, "decks": [{**log["decks"][0], "name": "nope"}, log["decks"][1]]}
    fails(run("rulescript", "play", small_game, "--load", _write(tmp_path / "a.log", renamed), stdin="quit\n"), 1,
          "the save plays deck 'nope', which this game does not have (decks: deck-a, deck-b)")
    bogus = {**log, "decisions": [list(d) for d in log["decisions"]]}
    bogus["decisions"][0][2] = {"do": "fly"}
    fails(run("rulescript", "play", small_game, "--load", _write(tmp_path / "b.log", bogus), stdin="quit\n"), 1,
          "decision 1 of the save (choose_main_action of player", "does not fit the game")
    fails(run("rulescript", "play", small_game, "--replay", tmp_path / "b.log"), 1, "cannot replay")


@pytest.mark.parametrize("text, message", [
    ("{'format': 1, 'seed':", "not a saved game (a Python literal)"),
    ("[" * 100000, "not a saved game"),
    ("__import__('os').system('true')", "a saved game is a dict"),
    ("{'format': 1, 'seed': 1, 'decks': f(), 'decisions': []}", "not plain data here"),
    ("\x00\x01binary", "not a text file"),
])
def test_corrupted_saves(small_game: Path, tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text(text)
    for option in ("--load", "--replay"):
        fails(run("rulescript", "play", small_game, option, bad, stdin="quit\n"), 1, message)


def _custom(log: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """The log with its first deck replaced by a deck of ``cards`` that is not one of the game's."""
    return {**log, "decks": [{"name": "my-deck", "cards": cards}, log["decks"][1]]}


def _four_copies(cards: list[str]) -> list[str]:
    name = next(c for c in cards if cards.count(c) == 3)
    out = list(cards)
    out[next(i for i, c in enumerate(out) if c != name)] = name
    return out


@pytest.mark.parametrize("edit, message", [
    (lambda log: _custom(log, log["decks"][0]["cards"][:49]), "deck 1 holds 49 cards; a deck of the game holds 50"),
    (lambda log: _custom(log, log["decks"][0]["cards"] * 200), "deck 1 holds 10000 cards"),
    (lambda log: _custom(log, []), "deck 1 holds 0 cards"),
    (lambda log: _custom(log, _four_copies(log["decks"][0]["cards"])), "deck 1 holds more than 3 copies of"),
    (lambda log: {**log, "format": "rulescript-werewolf-log-1", "roles": ["villager"]},
     "this is the save of a werewolf game; this game is a CFC game"),
])
def test_saves_are_checked_against_the_game_before_the_replay(small_game: Path, saved: tuple[Path, dict[str, Any]],
                                                             edit: Any, message: str) -> None:
    """A save holds decks the game could have dealt (as decks/*.yaml: 50 cards, at most 3 copies of a
    name) and is a save of this kind of game, else it is refused before anything is replayed."""
    path, log = saved
    _write(path, edit(log))
    for option in ("--load", "--replay"):
        err = fails(run("rulescript", "play", small_game, option, path, stdin="quit\n"), 1, message)
        assert "game.log:1:" in err and "error[SV101]" in err


def test_a_save_of_a_deck_that_is_not_the_games_replays_but_does_not_load(small_game: Path,
                                                                      saved: tuple[Path, dict[str, Any]]) -> None:
    path, log = saved
    _write(path, _custom(log, log["decks"][0]["cards"]))  # the same 50 cards under another name
    assert run("rulescript", "play", small_game, "--replay", path).returncode == 0
    err = fails(run("rulescript", "play", small_game, "--load", path, stdin="quit\n"), 1,
                "the save plays deck 'my-deck', which this game does not have (decks: deck-a, deck-b)")
    assert "game.log:1:" in err


WEREWOLF = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


@pytest.fixture(scope="module")
def wolf_log(tmp_path_factory: Any) -> dict[str, Any]:
    """The log of a 5-player werewolf game (seed 3)."""
    log = tmp_path_factory.mktemp("wolf") / "wolf.log"
    proc = run("rulescript", "play", WEREWOLF, "--auto", "--seed", "3", "--log", log)
    assert proc.returncode == 0, proc.stderr
    return ast.literal_eval(log.read_text())


def _set(log: dict[str, Any], i: int, decision: list[Any]) -> dict[str, Any]:
    decisions = [list(d) for d in log["decisions"]]
    decisions[i] = decision
    return {**log, "decisions": decisions}


@pytest.mark.parametrize("edit, message", [
    (lambda log: {**log, "roles": ["dragon"] + log["roles"][1:]}, "role 'dragon' is not a role of this game"),
    (lambda log: {**log, "roles": ["lynch"] + log["roles"][1:]}, "role 'lynch' is not a role of this game"),
    (lambda log: {**log, "roles": []}, "'roles' must be a list of 1 to 100 role ids"),
    (lambda log: {**log, "roles": ["villager"] * 101}, "'roles' must be a list of 1 to 100 role ids"),
    (lambda log: _set(log, 1, ["vote", 9, 0]), "decision 2 must be [kind, player (-1 to 4), answer]"),
    (lambda log: _set(log, 1, ["vote", -2, 0]), "decision 2 must be [kind, player (-1 to 4), answer]"),
    (lambda log: _set(log, 1, ["vote", -1, 0]), "cannot replay"),  # the narrator: a host's tie-break
    (lambda log: {**log, "settings": [1]}, "'settings' must be a mapping of poll settings"),
    (lambda log: {**log, "settings": {"x": 1}}, "unknown setting 'x' (settings: option_votes, revote_empty, revotes, standing_ties, ties, vote_changes)"),
    (lambda log: {**log, "settings": {"revotes": {"lynch": "many"}}}, "setting 'revotes' must be a mapping"),
    (lambda log: {**log, "settings": {"revotes": {"lynch": 10 ** 9}}}, "setting 'revotes' must be a mapping"),
    (lambda log: {**log, "settings": {"ties": "coin"}}, "setting 'ties' must be 'random' or 'decide'"),
    (lambda log: {**log, "deal": "no"}, "'deal' must be True or False"),
    (lambda log: {**log, "format": 1}, "this is the save of a CFC game; this game is a werewolf game"),
    (lambda log: _set(log, 0, ["fly", 0, 2]), "cannot replay"),
    (lambda log: _set(log, 0, [log["decisions"][0][0], 0, 99]), "cannot replay"),
])
def test_hand_edited_werewolf_logs_are_located_errors(tmp_path: Path, wolf_log: dict[str, Any], edit: Any,
                                                      message: str) -> None:
    """Issue 13: a hand-edited werewolf log is a located error (exit 1), not a crash report (exit 3)."""
    path = _write(tmp_path / "wolf.log", edit(wolf_log))
    err = fails(run("rulescript", "play", WEREWOLF, "--replay", path), 1, message)
    assert ("wolf.log:1:" in err and "error[SV101]" in err) or err.startswith("rulescript: error: cannot replay")


def test_a_werewolf_log_cut_short_replays_up_to_its_end(tmp_path: Path, wolf_log: dict[str, Any]) -> None:
    full = run("rulescript", "play", WEREWOLF, "--replay", _write(tmp_path / "full.log", wolf_log))
    assert full.returncode == 0 and "Game over" in full.stdout, full.stderr
    cut = run("rulescript", "play", WEREWOLF, "--replay",
              _write(tmp_path / "cut.log", {**wolf_log, "decisions": wolf_log["decisions"][:5]}))
    assert cut.returncode == 0 and "Traceback" not in cut.stderr, cut.stderr
    assert "Game over" not in cut.stdout and "(the log ends here, after 5 decisions)" in cut.stdout
    assert cut.stdout.splitlines()[:3] == full.stdout.splitlines()[:3]


def test_a_log_with_decisions_after_the_games_end_does_not_replay(small_game: Path, tmp_path: Path,
                                                                  saved: tuple[Path, dict[str, Any]],
                                                                  wolf_log: dict[str, Any]) -> None:
    _path, log = saved
    for game, good in ((small_game, log), (WEREWOLF, wolf_log)):
        extra = {**good, "decisions": good["decisions"] + [good["decisions"][-1]]}
        err = fails(run("rulescript", "play", game, "--replay", _write(tmp_path / "extra.log", extra)), 1,
                    "cannot replay")
        assert "1 decision(s) after the game's end" in err


def test_load_inside_the_game_keeps_going(small_game: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.log").write_text("not a save\n")
    proc = run("rulescript", "play", small_game, "--opponent", "random", cwd=tmp_path,
               stdin="load bad.log\nsave here.log\nquit\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "cannot load bad.log: bad.log:1:" in proc.stdout and "saved to here.log" in proc.stdout
    assert "decisions" in (tmp_path / "here.log").read_text()


# ------------------------------------------------------------------------------ item 8: the table
def test_slot_menus_are_numbered_as_the_slots(small_game: Path) -> None:
    proc = run("rulescript", "play", small_game, "--opponent", "random", "--seed", "8", stdin="1\n3\nshow\nquit\n")
    out = proc.stdout
    assert proc.returncode == 0 and "choose_slot" in out, out
    menu = out.split("choose_slot", 1)[1].split(">", 1)[0]
    assert "  0) slot 0" in menu and "  3) slot 3" in menu and "  4)" not in menu
    assert "P0 ring slot 3" in out


def test_show_card_and_plain_help(small_game: Path) -> None:
    proc = run("rulescript", "play", small_game, "--opponent", "random",
               stdin="show baron-cinder\nshow Baron Cinder\nshow no-such\nhelp\nquit\n")
    out = proc.stdout
    assert proc.returncode == 0
    assert out.count("Baron Cinder [baron-cinder]: character; 1100 BP, -2 SP, boss; ability: Scorched Offering "
                     "(trigger)") == 2
    assert "rule (" in out and "mine.ini:1):" in out and "    action = {F}: damage(250)" in out
    assert "no card 'no-such'" in out
    help_text = out.split("a number> ")[4] if out.count("a number> ") > 4 else out
    assert "show CARD" in out and "``" not in help_text and "undo (u)" in out


def test_watch_prints_the_reload_when_the_file_is_saved(small_game: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulescript", "play", str(small_game), "--watch", "--opponent",
                             "random"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdout is not None and proc.stdin is not None
    out = b""
    try:
        deadline = time.monotonic() + 60
        while b"a number> " not in out and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 1)[0]:
                out += os.read(proc.stdout.fileno(), 65536)
        assert b"a number> " in out, out
        time.sleep(0.2)
        rules = small_game / "rules" / "mine.ini"
        rules.write_text(rules.read_text() + "\n[pond-toad]\nauto = ~myEndPhase~ hp(+100)\n")
        deadline = time.monotonic() + 20
        while b"rules reloaded" not in out and time.monotonic() < deadline:  # no answer typed meanwhile
            if select.select([proc.stdout], [], [], 0.5)[0]:
                out += os.read(proc.stdout.fileno(), 65536)
        assert b"rules reloaded (2 rules)" in out, out.decode(errors="replace")
    finally:
        proc.stdin.write(b"quit\n")
        proc.stdin.close()
        proc.wait(timeout=60)
