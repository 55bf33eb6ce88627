"""``aiwolf log``: the AIWolf log format read back with located errors, and replayed in the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.diagnostics import Diagnostic
from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.cli import main
from wwrf_adapter.aiwolf.gameinfo import GameSetting
from wwrf_adapter.aiwolf.host import GameRecord
from wwrf_adapter.aiwolf.logfile import event, format_event, read_log
from wwrf_adapter.aiwolf.logreplay import check_log
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import GAME, Running, roles_of, table


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    return Running(ServeConfig(15, games=6, agents=0, wait=0, seed=12)).join()


def text_of(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def check(lines: list[str]) -> list[Diagnostic]:
    return check_log(table(), text_of(lines), "game.log").diagnostics


def where(lines: list[str], prefix: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(prefix))


def test_every_served_game_replays(games: list[GameRecord]) -> None:
    for g in games:
        got = check_log(table(), text_of(g.aiwolf_log), "game.log")
        assert got.ok and got.replayed and got.winner == g.winner and got.agents == 15 and got.days == g.day


def test_events_are_written_and_read_back() -> None:
    cases = [event(3, "status", 4, A.Role.SEER, __import__("wwrf_adapter.aiwolf.gameinfo", fromlist=["Status"]).Status.DEAD,
                   "name, with a comma"),
             event(1, "talk", 0, 2, 5, "BECAUSE (DIVINED Agent[04] WEREWOLF) (VOTE Agent[04])"),
             event(1, "attack", -1, False), event(2, "result", 3, 3, "WEREWOLF"),
             event(0, "divine", 1, 2, A.Species.HUMAN), event(1, "guard", 3, 1, A.Role.SEER)]
    text = text_of([format_event(e) for e in cases])
    assert text.splitlines()[1] == "1,talk,0,2,5,BECAUSE (DIVINED Agent[04] WEREWOLF) (VOTE Agent[04])"
    assert text.splitlines()[2] == "1,attack,-1,false"
    events, diags = read_log(text)
    assert diags == [] and [(e.day, e.kind, e.values) for e in events] == [(e.day, e.kind, e.values) for e in cases]


@pytest.mark.parametrize("line, code, col, words", [
    ("1,vote,3", "AW401", 9, "a vote line has 2 fields after the event (agent,target), not 1"),
    ("1,vote,3,4,5", "AW401", 12, "not 3"),
    ("1,shout,3,4", "AW402", 3, "unknown event 'shout'"),
    ("x,vote,1,2", "AW401", 1, "the day must be a number"),
    ("1,divine,1,2,HUMANE", "AW401", 14, "divine species: expected HUMAN or WEREWOLF, got 'HUMANE'"),
    ("1,attack,4,yes", "AW401", 12, "expected true or false"),
    ("1,execute,4,KING", "AW401", 13, "expected a role"),
    ("just words", "AW401", 11, "a log line is `day,event,...`"),
])
def test_lines_that_are_not_events(line: str, code: str, col: int, words: str) -> None:
    events, diags = read_log("0,status,1,SEER,ALIVE,a\n" + line + "\n", "bad.log")
    (d,) = diags
    assert (d.code, d.span.file, d.span.line, d.span.col) == (code, "bad.log", 2, col) and words in d.message, d


def test_a_changed_execution_is_found_at_its_field(games: list[GameRecord]) -> None:
    lines = list(games[0].aiwolf_log)
    i = where(lines, "1,execute,")
    day, kind, agent, role = lines[i].split(",")
    other = next(a for a in range(1, 16) if str(a) != agent and games[0].roles[a].value == role)
    lines[i] = f"{day},{kind},{other},{role}"
    (d,) = check(lines)
    assert d.code == "AW420" and d.span.line == i + 1 and d.span.col == len("1,execute,") + 1
    assert f"the votes of day 1 execute Agent[{int(agent):02d}]" in d.message


def test_a_wrong_role_or_species_is_found(games: list[GameRecord]) -> None:
    lines = list(games[0].aiwolf_log)
    i = where(lines, "0,divine,")
    species = lines[i].rsplit(",", 1)[1]
    lines[i] = lines[i].rsplit(",", 1)[0] + "," + ("HUMAN" if species == "WEREWOLF" else "WEREWOLF")
    (d,) = check(lines)
    assert d.code == "AW420" and d.span.line == i + 1 and f"is {species}" in d.message
    lines = list(games[0].aiwolf_log)
    i = where(lines, "1,execute,")
    day, kind, agent, role = lines[i].split(",")
    lines[i] = f"{day},{kind},{agent},{'VILLAGER' if role != 'VILLAGER' else 'SEER'}"
    (d,) = check(lines)
    assert d.span.line == i + 1 and d.message == f"Agent[{int(agent):02d}] is {role}"


def test_a_vote_the_rules_do_not_allow(games: list[GameRecord]) -> None:
    lines = list(games[0].aiwolf_log)
    i = where(lines, "1,vote,")
    day, kind, voter, _target = lines[i].split(",")
    lines[i] = f"{day},{kind},{voter},{voter}"
    (d,) = check(lines)
    assert d.code == "AW421" and d.span.line == i + 1 and d.span.col == len(f"1,vote,{voter},") + 1
    lines = list(games[0].aiwolf_log)
    lines.insert(where(lines, "1,execute,"), "1,vote,1,2")  # a second vote of Agent[01]: a revote without a tie
    assert [d.code for d in check(lines)] in (["AW420"], ["AW421"])


def test_the_result_must_be_the_game_s(games: list[GameRecord]) -> None:
    lines = list(games[0].aiwolf_log)
    day, kind, humans, wolves, team = lines[-1].split(",")
    lines[-1] = f"{day},{kind},{humans},{wolves},{'VILLAGER' if team == 'WEREWOLF' else 'WEREWOLF'}"
    (d,) = check(lines)
    assert d.code == "AW420" and d.span.line == len(lines) and f"won by {team}" in d.message
    (d,) = check(lines[:-1])
    assert d.code == "AW430" and "without a result line" in d.message


def test_a_log_that_stops_before_the_game_does(games: list[GameRecord]) -> None:
    g = max(games, key=lambda g: g.day)
    lines = [line for line in g.aiwolf_log if int(line.split(",")[0]) < 2]
    lines.append("1,result,12,3,VILLAGER")
    diags = check(lines)
    assert [d.code for d in diags] == ["AW430"] and "no status lines of day 2" in diags[0].message


def test_talk_against_the_rules(games: list[GameRecord]) -> None:
    g = games[0]
    base = list(g.aiwolf_log)
    i = where(base, "1,talk,3,")
    head = ",".join(base[i].split(",")[:5])
    lines = base[:i] + [head + ",VOTE Agent[16]"] + base[i + 1:]
    assert check(lines) == []  # grammatical: the game takes it (the reference server checks the grammar only)
    lines = base[:i] + [head + ",VOTE Agent1"] + base[i + 1:]
    (d,) = check(lines)
    assert d.code == "AW410" and d.span.col == len(head) + 1 + len("VOTE ") + 1 and "AW1" in d.message
    lines = base[:i] + [head + ",BECAUSE (VOTE Agent[01])"] + base[i + 1:]
    (d,) = check(lines)
    assert d.code == "AW410" and "AW201" in d.message
    lines = base[:i] + base[i + 1:]  # talk 4 follows talk 2
    assert "talk number 4; the day's talk so far makes it 3" in check(lines)[0].message
    wolf = roles_of(g, A.Role.WEREWOLF)[0]
    human = roles_of(g, A.Role.VILLAGER)[0]
    lines = list(base)
    lines.insert(where(base, "0,divine,"), f"0,talk,0,0,{wolf},Over")
    day0 = check_log(table(), text_of(lines), "game.log")  # talk on day 0: a talkOnFirstDay game
    assert day0.ok and day0.implied == {"talkOnFirstDay": True}
    given = GameSetting.standard(15)  # the default setting given: talk on day 0 is against it
    assert "talk on day 0" in check_log(table(), text_of(lines), "game.log", setting=given).diagnostics[0].message
    lines = list(base)
    lines.insert(where(base, "1,execute,") + 1, f"1,whisper,0,0,{human},Over")
    diags = check(lines)
    assert f"Agent[{human:02d}] whispers but is no werewolf" in diags[0].message


def test_a_log_that_goes_on_after_the_deciding_execution_as_the_platform_writes_it(games: list[GameRecord]) -> None:
    """The AIWolf platform checks the winner at the start of a day: after an execution that ends the
    game, its log still has that night and the next day's status lines. ``aiwolf serve`` writes it so too."""
    def ended_by_execution(g: GameRecord) -> bool:
        return any(line.startswith(f"{g.day - 1},execute,") for line in g.aiwolf_log)

    won = [g for g in games if ended_by_execution(g)]
    assert won, "no game of the fixture ends with an execution"
    g = won[0]
    d = g.day - 1  # the day of the deciding execution; the result is on the next day
    after = g.aiwolf_log[next(i for i, x in enumerate(g.aiwolf_log) if x.startswith(f"{d},execute,")) + 1:]
    assert any(x.startswith(f"{d},attack,") for x in after) == (g.winner == "WEREWOLF")
    assert after[-16].startswith(f"{d + 1},status,") and after[-1].startswith(f"{d + 1},result,")
    assert check(list(g.aiwolf_log)) == []
    lines = list(g.aiwolf_log)
    result = lines[-1].split(",")
    lines[-1] = ",".join(result[:2] + [str(int(result[2]) + 1)] + result[3:])
    assert check(lines)[0].message == "the counts differ from the status lines before the result"

def test_the_command(games: list[GameRecord], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.log", tmp_path / "bad.log"
    good.write_text(text_of(games[1].aiwolf_log))
    lines = list(games[1].aiwolf_log)
    i = where(lines, "1,execute,")
    lines[i] = lines[i] + ",extra"
    bad.write_text(text_of(lines))
    assert main(["log", str(good), "--game", str(GAME)]) == 0
    err = capsys.readouterr().err
    assert f"good.log: a legal game: 15 agents, {games[1].day} day" in err and f"{games[1].winner} won" in err
    assert main(["log", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert f"bad.log:{i + 1}:" in out and "error[AW401]" in out and "^" in out
    assert "bad.log: 1 error(s)" in err
