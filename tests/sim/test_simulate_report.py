"""`rulescript simulate`: --jobs gives a serial run's results, rule coverage, errors grouped, --json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulescript.cli import main as cli_main
from rulescript.importer import import_plugin_folder
from rulescript.sim.host import load_table, new_engine
from rulescript.sim.simulate import simulate, summarise

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"
PLUGIN = ROOT / "tests" / "importer" / "fixtures" / "harbor-lights"
LAMP_KEEPER = "9a2309db-c833-5da0-862f-7514531f1e24"
TIMING = ("seconds", "games_per_s", "jobs")


def _run(game, games, seed, jobs):
    table = load_table(game)
    res = simulate(game, games, seed, data=table.data, rules_factory=lambda: new_engine(table.rules), jobs=jobs,
                   rules_ir=table.rules)
    return {k: v for k, v in res.items() if k not in TIMING}, res


def test_jobs_give_the_results_of_a_serial_run() -> None:
    serial, _ = _run(DEMO, 24, 11, 1)
    spread, raw = _run(DEMO, 24, 11, 3)
    assert raw["jobs"] == 3
    assert spread == serial
    other, _ = _run(DEMO, 24, 12, 3)
    assert other != serial  # the seed matters: the comparison above can fail


def test_progress_is_reported_in_game_order_with_jobs() -> None:
    table = load_table(DEMO)
    seen = []
    simulate(DEMO, 9, 5, progress=lambda d, t: seen.append((d, t)), data=table.data,
             rules_factory=lambda: new_engine(table.rules), jobs=2, rules_ir=table.rules)
    assert seen == [(i, 9) for i in range(1, 10)]


@pytest.fixture(scope="module")
def broken_game(tmp_path_factory) -> Path:
    """The test plugin imported, with one rule that fails at run time whenever it resolves."""
    base = tmp_path_factory.mktemp("broken")
    import_plugin_folder(PLUGIN, base / "game")
    ini = base / "game" / "rules" / "rules.ini"
    text = ini.read_text(encoding="utf-8")
    ini.write_text(text.replace(f"[{LAMP_KEEPER}]\naction = draw()", f"[{LAMP_KEEPER}]\naction = draw(prevTgt.0.sp)"),
                   encoding="utf-8")
    return base / "game"


def test_errors_are_grouped_by_rule_and_message_and_show_in_coverage(broken_game: Path) -> None:
    res, _ = _run(broken_game, 40, 3, 1)
    assert res["rule_errors"] > 5  # more errors than the five samples the old report showed
    [group] = res["error_groups"]
    assert group["rule"] == LAMP_KEEPER and group["card"] == "Lamp Keeper Ode"
    assert group["count"] == res["rule_errors"] and group["games"] == res["errors"]
    assert group["file"].endswith("rules.ini") and group["line"] > 0
    cov = res["coverage"]
    assert cov["errors"] == [LAMP_KEEPER] and LAMP_KEEPER in cov["resolved"]
    assert len(res["error_samples"]) == 5


def test_summarise_groups_engine_failures_and_counts_games_once() -> None:
    class Data:
        models = {"r1": {"name": "One"}}

        def deck_names(self):
            return []

    err = {"code": "RS501", "message": "index 0 out of range", "card": [3, "r1"], "file": "f.ini", "line": 2,
           "col": 5}
    game = {"turns": 5, "winner": None, "reason": None, "ran": ["r1"], "log": {"seed": 1}}
    results = [dict(game, seed=1, error="rule error", rule_errors=[err, err]),
               dict(game, seed=2, error="rule error", rule_errors=[err]),
               dict(game, seed=3, error="KeyError: 7", rule_errors=[]),
               dict(game, seed=4, error=None, rule_errors=[], winner=1)]
    out = summarise(results, Data(), {"r1": {"actions": [1]}, "r2": {"auto": {}}, "r3": {"abilities": ["rush"]}})
    assert out["errors"] == 3 and out["wins"] == [0, 1] and out["rule_errors"] == 3
    assert [(g["code"], g["rule"], g["count"], g["games"], g["first_game"]) for g in out["error_groups"]] == [
        ("RS501", "r1", 3, 2, 1), ("engine", None, 1, 1, 3)]
    assert out["coverage"]["resolved"] == ["r1"] and out["coverage"]["never"] == ["r2"]
    assert out["coverage"]["present"] == ["r3"]


def test_cli_json_and_text_reports(broken_game: Path, capsys) -> None:
    assert cli_main(["simulate", str(broken_game), "--games", "12", "--seed", "3", "--json", "--jobs", "2"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 12 and data["jobs"] == 2 and data["seed"] == 3
    assert data["coverage"]["errors"] == [LAMP_KEEPER]
    assert data["error_groups"][0]["card"] == "Lamp Keeper Ode"
    assert cli_main(["simulate", str(broken_game), "--games", "12", "--seed", "3", "-q"]) == 1
    text = capsys.readouterr().out
    assert "x [RS501]" in text and f"in {LAMP_KEEPER} (Lamp Keeper Ode)" in text
    assert "coverage: " in text and "raised errors: " + LAMP_KEEPER in text


def test_cli_rejects_zero_jobs(capsys) -> None:
    assert cli_main(["simulate", str(DEMO), "--jobs", "0"]) == 2


def test_long_coverage_lists_are_shortened_in_text_and_complete_in_json(capsys) -> None:
    assert cli_main(["simulate", str(DEMO), "--games", "2", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    line = next(l for l in text.splitlines() if l.startswith("  never reached, in no deck: "))
    named, _, rest = line.partition(", and ")
    assert named.count(" (") == 12 and rest.endswith(" more (--format json lists them all)")
    assert cli_main(["simulate", str(DEMO), "--games", "2", "--seed", "1", "--format", "json"]) == 0
    cov = json.loads(capsys.readouterr().out)["coverage"]
    assert int(rest.split()[0]) + 12 == len([r for r in cov["never"] if r not in cov["never_in_decks"]])
