"""Meaning checks against a game, the English explanation, and ANY expansion."""

from __future__ import annotations

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import parse_sentence, serialize
from wwrf_adapter.aiwolf.expand import ExpansionTooLarge, expand_any, has_any
from wwrf_adapter.aiwolf.explain import describe
from wwrf_adapter.aiwolf.game import GameContext
from wwrf_adapter.aiwolf.meaning import check_meaning

FIVE = GameContext.standard(5, day=2)


def found(text: str, game: GameContext = FIVE) -> list[tuple[str, int]]:
    return [(d.code, d.span.col) for d in check_meaning(parse_sentence(text), game, "t.txt", 4)]


def test_a_sentence_that_fits_the_game_has_no_diagnostics() -> None:
    assert found("Agent[05] BECAUSE (DAY 2 (DIVINED Agent[01] WEREWOLF)) (AGREE TALK day2 ID:9)") == []
    assert found("Over") == [] and found("ESTIMATE ANY ANY") == []


@pytest.mark.parametrize("text, code, at", [
    ("VOTE Agent[06]", "AW301", "Agent[06]"),
    ("Agent[07] VOTE Agent[01]", "AW301", "Agent[07]"),
    ("REQUEST Agent[09] (VOTE Agent[01])", "AW301", "Agent[09]"),
    ("REQUEST (Agent[08] VOTE Agent[01])", "AW301", "Agent[08]"),  # the old form: target = inner subject
    ("COMINGOUT Agent[01] MEDIUM", "AW302", "MEDIUM"),
    ("NOT (ESTIMATE Agent[02] FOX)", "AW302", "FOX"),
    ("DAY 3 (VOTED Agent[01])", "AW303", "3"),
    ("DISAGREE WHISPER day3 ID:0", "AW304", "day3"),
])
def test_meaning_errors_are_located(text: str, code: str, at: str) -> None:
    assert found(text) == [(code, text.index(at) + 1)]


def test_diagnostics_carry_file_and_line() -> None:
    (d,) = check_meaning(parse_sentence("VOTE Agent[16]"), GameContext.standard(15), "talk.txt", 4)
    assert (d.span.file, d.span.line, d.span.col) == ("talk.txt", 4, 6)
    assert "Agent[01] to Agent[15]" in d.message


def test_without_a_day_the_future_is_not_checked() -> None:
    assert found("DAY 9 (VOTED Agent[01])", GameContext.standard(5)) == []


def test_game_context_is_consistent() -> None:
    with pytest.raises(ValueError):
        GameContext(5, {A.Role.SEER: 1})
    with pytest.raises(ValueError):
        GameContext.standard(6)
    assert GameContext(3).roles_in_play == A.GAME_ROLES


# ---------------------------------------------------------------- English


@pytest.mark.parametrize("text, english", [
    ("COMINGOUT Agent[01] SEER", "The speaker states that Agent[01] is a seer."),
    ("Agent[01] COMINGOUT Agent[01] SEER", "Agent[01] comes out as a seer."),
    ("Agent[01] DIVINED Agent[02] WEREWOLF", "Agent[01] divined Agent[02] and found a werewolf."),
    ("IDENTIFIED Agent[03] ANY", "The speaker identified the dead Agent[03] as either a human or a werewolf."),
    ("Agent[01] REQUEST Agent[02] (GUARD Agent[03])",
     "Agent[01] asks Agent[02] to act so that Agent[02] will guard Agent[03]."),
    ("REQUEST ANY (VOTE Agent[01])", "The speaker asks any agent to act so that that agent will vote for Agent[01]."),
    ("Agent[02] INQUIRE Agent[01] (ESTIMATE Agent[02] WEREWOLF)",
     "Agent[02] asks Agent[01] whether Agent[01] thinks Agent[02] is a werewolf."),
    ("Agent[02] BECAUSE (DAY 1 (Agent[01] VOTE Agent[02])) (VOTE Agent[01])",
     "Agent[02] says that on day 1, Agent[01] will vote for Agent[02], and that this is why "
     "Agent[02] will vote for Agent[01]."),
    ("XOR (ESTIMATE Agent[01] SEER) (ESTIMATE Agent[02] SEER)",
     "The speaker says that either the speaker thinks Agent[01] is a seer, or the speaker thinks Agent[02] is a "
     "seer, but not both."),
    ("AGREE TALK day1 ID:3", "The speaker agrees with talk 3 of day 1."),
    ("Skip", "Skip: the speaker has nothing to say now but wants the talk to go on."),
])
def test_english(text: str, english: str) -> None:
    assert describe(parse_sentence(text)) == english


def test_english_with_a_known_speaker() -> None:
    assert describe(parse_sentence("NOT (VOTE Agent[01])"), A.Agent(4)) == \
        "Agent[04] says that it is not true that Agent[04] will vote for Agent[01]."


# ---------------------------------------------------------------- ANY


def test_any_expands_to_the_or_of_its_substitutions() -> None:
    game = GameContext(2, {A.Role.SEER: 1, A.Role.WEREWOLF: 1})
    u = parse_sentence("ESTIMATE ANY ANY")
    assert serialize(expand_any(u, game)) == ("OR (ESTIMATE Agent[01] SEER) (ESTIMATE Agent[01] WEREWOLF) "
                                              "(ESTIMATE Agent[02] SEER) (ESTIMATE Agent[02] WEREWOLF)")
    u = parse_sentence("NOT (DIVINED Agent[01] ANY)")
    assert serialize(expand_any(u, game)) == "NOT (OR (DIVINED Agent[01] HUMAN) (DIVINED Agent[01] WEREWOLF))"
    assert not has_any(expand_any(parse_sentence("REQUEST ANY (ANY VOTE ANY)"), game))
    # an inherited ANY is bound with its parent; an explicit one is expanded on its own
    bound = expand_any(parse_sentence("REQUEST ANY (VOTE Agent[01])"), game)
    free = expand_any(parse_sentence("REQUEST ANY (ANY VOTE Agent[01])"), game)
    assert serialize(bound) == "OR (REQUEST Agent[01] (VOTE Agent[01])) (REQUEST Agent[02] (VOTE Agent[01]))"
    assert serialize(free) == ("OR (REQUEST Agent[01] (OR (Agent[01] VOTE Agent[01]) (Agent[02] VOTE Agent[01]))) "
                               "(REQUEST Agent[02] (OR (Agent[01] VOTE Agent[01]) (Agent[02] VOTE Agent[01])))")


def test_a_single_substitution_is_no_or() -> None:
    assert serialize(expand_any(parse_sentence("VOTE ANY"), GameContext(1))) == "VOTE Agent[01]"


def test_expansion_is_bounded() -> None:
    wide = parse_sentence("AND " + " ".join(["(ESTIMATE ANY ANY)"] * 40))
    deep = parse_sentence("REQUEST ANY (" * 4 + "VOTE ANY" + ")" * 4)
    for u in (wide, deep):
        with pytest.raises(ExpansionTooLarge):
            expand_any(u, GameContext.standard(15))
