"""`rulescript simulate` on a werewolf game: the report options of CFC's (--jobs with a serial run's
results, --json, errors grouped by rule and message, rule coverage) through the shared runner."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulescript.cli import main as cli_main
from rulescript.sim.wolf import load_wolf_table, simulate

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
TIMING = ("seconds", "games_per_s", "jobs")


def _numbers(res: dict) -> dict:
    return {k: v for k, v in res.items() if k not in TIMING}


def test_jobs_give_the_results_of_a_serial_run():
    table = load_wolf_table(GAME)
    serial = simulate(table, 15, 12, seed=3)
    spread = simulate(table, 15, 12, seed=3, jobs=2)
    assert spread["jobs"] == 2 and _numbers(spread) == _numbers(serial)
    assert _numbers(simulate(table, 15, 12, seed=4)) != _numbers(serial)  # the seed matters


def test_coverage_names_the_rules_of_the_role_list():
    table = load_wolf_table(GAME)
    res = simulate(table, 5, 30, seed=1)
    cov = res["coverage"]
    assert "seer--divine" in cov["resolved"] and "lynch--poll" in cov["present"]
    assert "bodyguard--guard" in cov["never"] and "bodyguard--guard" not in cov["in_decks"]  # not dealt to 5
    assert set(cov["never_in_decks"]) <= set(cov["in_decks"])


@pytest.fixture(scope="module")
def broken_game(tmp_path_factory) -> Path:
    """The werewolf game with the seer's divination failing at run time whenever it resolves."""
    game = tmp_path_factory.mktemp("broken") / "werewolf"
    shutil.copytree(GAME, game, ignore=shutil.ignore_patterns("roles", "scenarios"))
    ini = game / "rules" / "seer.ini"
    text = ini.read_text(encoding="utf-8")
    ini.write_text(text.replace("learn(str(selection) + ' is human.')", "learn(str(results.5.role))"),
                   encoding="utf-8")
    return game


def test_errors_are_grouped_by_rule_and_message_in_json_and_text(broken_game, capsys):
    assert cli_main(["simulate", str(broken_game), "--players", "5", "--games", "20", "--seed", "2", "--json",
                     "--jobs", "2"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 20 and data["jobs"] == 2 and data["seed"] == 2 and data["players"] == 5
    [group] = data["error_groups"]
    assert group["rule"] == "seer--divine" and group["card"] == "Seer"
    assert group["count"] == data["rule_errors"] > 1 and group["games"] == data["errors"]
    assert group["file"].endswith("seer.ini") and group["line"] > 0
    assert data["coverage"]["errors"] == ["seer--divine"]
    assert data["error_samples"][0]["roles"]
    assert cli_main(["simulate", str(broken_game), "--players", "5", "--games", "20", "--seed", "2", "-q"]) == 1
    text = capsys.readouterr().out
    assert "x [RS5" in text and "in seer--divine (Seer)" in text and "seer.ini:" in text
    assert "coverage: " in text and "raised errors: seer--divine (Seer)" in text


def test_the_text_report_of_a_clean_run(capsys):
    assert cli_main(["simulate", str(GAME), "--players", "5", "--games", "10", "--seed", "1", "-q", "-j", "2"]) == 0
    text = capsys.readouterr().out
    assert "10 with 5 players" in text and "2 processes" in text and "engine errors: 0" in text
    assert "wins: villagers" in text and "never reached, in the role list" in text
