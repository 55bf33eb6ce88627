"""Logs the reference AIWolf server wrote with non-default game settings (tests/fixtures/aiwolf-reference):
``aiwolf log`` accepts each as a legal game and reads the setting it implies; held to the default
setting instead, the ones that show a non-default rule are not legal."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from wwrf_adapter.aiwolf.cli import main
from wwrf_adapter.aiwolf.gameinfo import GameSetting
from wwrf_adapter.aiwolf.logreplay import check_log

from .serving import table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "aiwolf-reference"

IMPLIED = {
    "forced-attack.log": {},
    "no-attack.log": {"enableNoAttack": True},
    "no-execution.log": {"enableNoExecution": True},
    "talk-on-first-day.log": {"talkOnFirstDay": True},
    "whisper-before-revote.log": {"whisperBeforeRevote": True},
    "max-revote-3.log": {"maxRevote": 3},
    "short-talk.log": {},  # fewer talks than the defaults: nothing in the log says otherwise
}


def text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(IMPLIED))
def test_every_reference_log_is_a_legal_game_with_the_setting_it_implies(name: str) -> None:
    check = check_log(table(), text(name), name)
    assert check.ok and check.replayed, [str(d) for d in check.diagnostics]
    assert check.implied == IMPLIED[name]


def test_a_night_without_attack_votes_still_attacks_a_living_human() -> None:
    lines = text("forced-attack.log").splitlines()
    assert not any(",attackVote," in x for x in lines)
    assert "1,attack,3,true" in lines and "2,attack,1,true" in lines
    # with enableNoAttack the same night would attack nobody: the log is not that game
    given = replace(GameSetting.standard(5), enable_no_attack=True)
    (d,) = [d for d in check_log(table(), text("forced-attack.log"), "f.log", setting=given).diagnostics]
    assert d.code == "AW420" and "no attack" in d.message and d.span.line == lines.index("1,attack,3,true") + 1
    # nor may a forced attack hit a werewolf
    wolf = next(x.split(",")[2] for x in lines if x.startswith("0,status,") and ",WEREWOLF," in x)
    bad = "\n".join(x.replace("1,attack,3,true", f"1,attack,{wolf},true") for x in lines) + "\n"
    assert not check_log(table(), bad, "f.log").ok


@pytest.mark.parametrize("name, rule", [("no-attack.log", "enable_no_attack"),
                                        ("no-execution.log", "enable_no_execution"),
                                        ("talk-on-first-day.log", "talk_on_first_day"),
                                        ("max-revote-3.log", "max_revote")])
def test_held_to_the_defaults_a_log_of_another_setting_is_not_legal(name: str, rule: str) -> None:
    check = check_log(table(), text(name), name, setting=GameSetting.standard(5))
    assert not check.ok


def test_aiwolf_log_names_the_implied_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", str(FIXTURES / "no-attack.log"), str(FIXTURES / "forced-attack.log")]) == 0
    err = capsys.readouterr().err
    assert "no-attack.log: a legal game: 5 agents, 4 days, VILLAGER won" in err and "the log implies enableNoAttack=true" in err
    assert "forced-attack.log: a legal game: 5 agents, 3 days, WEREWOLF won (replayed in the engine)\n" in err
