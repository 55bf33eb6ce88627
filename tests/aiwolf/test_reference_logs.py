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
    "max-talk-used-up.log": {},  # maxTalk 3: the same
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


def test_an_agent_whose_talks_are_used_up_has_an_over_in_every_later_turn() -> None:
    # maxTalk 3, maxTalkTurn 4: Agent[01], [02] and [04] say three sentences in turns 0 to 2; in turn 3
    # each of them (and everyone else) is Over, and every turn has every living agent once
    talks = [x.split(",", 5) for x in text("max-talk-used-up.log").splitlines() if ",talk," in x]
    assert {x[0] for x in talks} == {"1"}
    for turn in "0123":
        assert sorted(x[4] for x in talks if x[3] == turn) == ["1", "2", "3", "4", "5"]
    for agent in "124":
        said = [x[5] for x in talks if x[4] == agent]
        assert len(said) == 4 and "Over" not in said[:3] and "Skip" not in said[:3] and said[3] == "Over"
    assert [x[5] for x in talks if x[3] == "3"] == ["Over"] * 5
    assert [int(x[2]) for x in talks] == list(range(20))  # the Overs are numbered like any talk


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
