"""The `rulescript` commands behave alike on both games (CFC's demo and the werewolf game): --help,
exit statuses of check, test, play, simulate and watch on a clean game, on a failing scenario and on
rules that do not compile."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulescript.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"cfc": ROOT / "cards" / "cfc-demo", "werewolf": ROOT / "cards" / "werewolf"}
#: one scenario file of each game, and a text of it that an edit makes wrong
SCENARIO = {"cfc": ("fighters.yaml", ("{card: cave-bear, bp: 500}", "{card: cave-bear, bp: 600}")),
            "werewolf": ("seer.yaml", ("is a werewolf.", "is a villager."))}
#: a size the game cannot play: (option, value)
BAD_SIZE = {"cfc": ["--decks", "nope", "nope"], "werewolf": ["--players", "7"]}


@pytest.fixture(params=sorted(GAMES))
def game(request, tmp_path) -> tuple[str, Path]:
    kind = request.param
    dest = tmp_path / kind
    shutil.copytree(GAMES[kind], dest, ignore=shutil.ignore_patterns("roles"))
    return kind, dest


@pytest.mark.parametrize("command", ["check", "test", "simulate", "play", "watch"])
def test_help_exits_0_and_names_the_werewolf_options(command, capsys):
    with pytest.raises(SystemExit) as stop:  # the delegated watch parser exits itself
        raise SystemExit(main([command, "--help"]))
    assert stop.value.code in (0, None)
    text = capsys.readouterr().out
    assert "usage: rulescript " + command in text
    if command in ("simulate", "play"):
        assert "--players" in text


def test_a_clean_game_checks_plays_simulates_and_watches_with_status_0(game, capsys):
    kind, path = game
    scenario = path / "scenarios" / SCENARIO[kind][0]
    assert main(["check", str(path)]) == 0
    assert main(["test", str(scenario)]) == 0
    assert main(["play", str(path), "--auto", "--seed", "2"]) == 0
    assert main(["simulate", str(path), "--games", "3", "--seed", "1", "-q"]) == 0
    assert main(["watch", str(path), "--once", "--no-scenarios"]) == 0
    assert " passed, 0 failed" in capsys.readouterr().out


def test_usage_errors_exit_2(game, capsys):
    kind, path = game
    assert main(["play", str(path), "--auto", *BAD_SIZE[kind]]) == 2
    assert main(["simulate", str(path), "--jobs", "0"]) == 2
    assert main(["test", str(path / "scenarios" / "no-such.yaml")]) == 2


def test_a_failing_scenario_exits_1(game, capsys):
    kind, path = game
    name, edit = SCENARIO[kind]
    scenario = path / "scenarios" / name
    text = scenario.read_text(encoding="utf-8")
    assert edit[0] in text
    text = text.replace(edit[0], edit[1], 1)
    scenario.write_text(text, encoding="utf-8")
    assert main(["test", str(scenario)]) == 1
    assert main(["watch", str(path), "--once"]) == 1
    assert "FAIL " in capsys.readouterr().out


def test_rules_that_do_not_compile_exit_1_and_are_reported_once(game, capsys):
    kind, path = game
    rules = sorted((path / "rules").glob("*.ini"))[0]
    rules.write_text(rules.read_text(encoding="utf-8") + "\n[broken-rule]\naction = nonsense(\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    capsys.readouterr()
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("do not compile; the scenarios that use them are not run") == 1
    assert main(["play", str(path), "--auto"]) == 1
    assert main(["simulate", str(path), "--games", "2", "-q"]) == 1
