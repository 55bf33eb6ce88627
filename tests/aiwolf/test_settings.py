"""The reference server's rules for every option of the game setting, played by ``aiwolf serve``'s host
with stand-in agents, and what ``aiwolf log`` reads from the logs (docs/aiwolf.md, "The game setting").

Expected values are worked out from the rules: 5 players dealt in a fixed seat order, agents whose
choices are fixed, so each log line that matters is known in advance."""

from __future__ import annotations

import socket
import time
from dataclasses import replace

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.client import Agent
from wwrf_adapter.aiwolf.gameinfo import GameSetting
from wwrf_adapter.aiwolf.host import AiwolfHost, GameRecord
from wwrf_adapter.aiwolf.logreplay import check_log
from wwrf_adapter.aiwolf.names import STANDARD
from wwrf_adapter.aiwolf.packets import Request
from wwrf_adapter.aiwolf.seats import AgentSeat
from wwrf_adapter.aiwolf.server import ServeConfig, Server

from .serving import assert_finished_and_legal, table

FIVE = ["villager", "villager", "possessed", "seer", "werewolf"]   # Agent[05] is the wolf
TWO_WOLVES = ["villager", "villager", "seer", "werewolf", "werewolf"]  # Agent[04] and Agent[05]


class SelfAttacker(Agent):
    """Votes for Agent[01] while it lives, else at random; as a wolf names itself in every attack vote."""

    def vote(self) -> int | None:
        return 1 if self.me != 1 and self.info and 1 in self.info.alive else self.random_other()

    def attack(self) -> int | None:
        return self.me


class Tie(Agent):
    """Votes for ``target`` every round of day 1 (a tie that stays), at random later."""

    def __init__(self, target: int) -> None:
        super().__init__()
        self.target = target

    def vote(self) -> int | None:
        return self.target if self.day == 1 else self.random_other()


class SplitWolf(SelfAttacker):
    """A wolf that attack-votes for the lowest (``low``) or highest living human: two of them tie."""

    def __init__(self, low: bool) -> None:
        super().__init__()
        self.low = low

    def attack(self) -> int | None:
        assert self.info is not None
        humans = [a for a in self.info.alive if self.info.role_map.get(a) is not A.Role.WEREWOLF]
        return min(humans) if self.low else max(humans)

    def whisper(self) -> str:
        return "Skip" if self.day == 0 else A.OVER.word


class Chatter(Agent):
    """Says a valid sentence every time it is asked, or ``text`` when it is given."""

    def __init__(self, text: str | None = None) -> None:
        super().__init__()
        self.text = text

    def talk(self) -> str:
        return self.text or f"ESTIMATE Agent[{self.random_other():02d}] VILLAGER"

    whisper = talk


def play(agents: list[Agent], roles: list[str], order: list | None = None,
         **rules) -> tuple[GameRecord, list[list]]:
    """One game with these agents in seat order; also every packet each agent was sent (and, in
    ``order``, every (agent, request) in the order the host sent them)."""
    seats = [AgentSeat(a) for a in agents]
    seen: list[list] = [[] for _ in seats]
    for i, seat in enumerate(seats):
        seat.requested_role = STANDARD.role(roles[i])  # each seat asks for its role: the deal is fixed
        original = seat.session.handle

        def spy(packet, original=original, i=i):
            seen[i].append(packet)
            if order is not None:
                order.append((i + 1, packet.request))
            return original(packet)

        seat.session.handle = spy  # type: ignore[method-assign]
    setting = replace(GameSetting.standard(5, seed=3), **rules)
    if roles is TWO_WOLVES:
        setting = replace(setting, role_num_map={**setting.role_num_map, A.Role.POSSESSED: 0, A.Role.WEREWOLF: 2})
    record = AiwolfHost(table(), seats, setting, seed=3, role_list=roles).run()
    return record, seen


def lines(record: GameRecord, kind: str, day: int | None = None) -> list[str]:
    return [x for x in record.aiwolf_log if x.split(",")[1] == kind and (day is None or x.split(",")[0] == str(day))]


def implied(record: GameRecord, **kw) -> dict:
    check = check_log(table(), "".join(x + "\n" for x in record.aiwolf_log), "game.log", **kw)
    assert check.ok, [str(d) for d in check.diagnostics]
    return check.implied


# ---------------------------------------------------------------------------------------- enableNoAttack


def test_with_no_valid_attack_vote_a_random_living_human_is_attacked_after_the_revote() -> None:
    record, seen = play([SelfAttacker() for _ in range(5)], FIVE)
    assert_finished_and_legal(record)
    assert lines(record, "attackVote") == []  # a wolf's vote for itself is dropped and not logged
    attacks = lines(record, "attack")
    assert attacks and all(x.endswith(",true") for x in attacks)  # yet every night someone dies
    assert all(int(x.split(",")[2]) != 5 for x in attacks)
    nights = len(attacks)
    # no single winner: the wolves are asked again (maxAttackRevote 1), then one of the tied is drawn
    assert sum(1 for p in seen[4] if p.request is Request.ATTACK) > nights
    assert any("Agent[05] is not a living human" in i.problem and i.action == "the attack vote is dropped"
               for i in record.incidents)
    assert implied(record) == {}


def test_enable_no_attack_lets_the_wolves_attack_nobody() -> None:
    record, _ = play([SelfAttacker() for _ in range(5)], FIVE, enable_no_attack=True)
    assert_finished_and_legal(record)
    attacks = lines(record, "attack")
    assert attacks and all(x.split(",")[2:] == ["-1", "false"] for x in attacks)
    assert implied(record) == {"enableNoAttack": True}


def test_a_log_with_no_attack_vote_and_an_attack_is_legal_without_no_attack_and_not_with_it() -> None:
    record, _ = play([SelfAttacker() for _ in range(5)], FIVE)
    text = "".join(x + "\n" for x in record.aiwolf_log)
    assert check_log(table(), text, "g.log").ok
    given = replace(GameSetting.standard(5), enable_no_attack=True)
    diags = check_log(table(), text, "g.log", setting=given).diagnostics
    assert diags and diags[0].code == "AW420" and "no attack" in diags[0].message


# ---------------------------------------------------------------------------------------- votes


def test_a_tie_that_stays_is_drawn_by_default() -> None:
    record, _ = play([Tie(t) for t in (3, 3, 1, 1, 2)], FIVE)
    assert_finished_and_legal(record)
    assert len(lines(record, "vote", 1)) == 10  # a vote and one revote (maxRevote 1)
    (execute,) = lines(record, "execute", 1)
    assert execute.split(",")[2] in ("1", "3")
    assert record.incidents == []  # the server's own draw (docs/aiwolf.md): nobody did anything wrong


def test_enable_no_execution_executes_nobody_after_a_tie_that_stays() -> None:
    record, _ = play([Tie(t) for t in (3, 3, 1, 1, 2)], FIVE, enable_no_execution=True, max_revote=2)
    assert_finished_and_legal(record)
    assert len(lines(record, "vote", 1)) == 15  # a vote and two revotes
    assert lines(record, "execute", 1) == []
    assert all(x.endswith(",ALIVE," + x.split(",")[-1]) or ",DEAD," in x for x in lines(record, "status", 2))
    assert implied(record) == {"enableNoExecution": True, "maxRevote": 2}


def test_vote_visible_false_tells_nobody_the_votes() -> None:
    for visible in (True, False):
        record, seen = play([Tie(t) for t in (3, 3, 1, 1, 2)], FIVE, vote_visible=visible)
        revote = [p for p in seen[0] if p.request is Request.VOTE][1].game_info
        day2 = [p for p in seen[0] if p.request is Request.DAILY_INITIALIZE][2].game_info
        assert bool(revote.latest_vote_list) is visible and bool(day2.vote_list) is visible
        assert_finished_and_legal(record)


# ---------------------------------------------------------------------------------------- talk and whispers


def test_talk_on_first_day_the_wolves_whisper_first_then_everyone_talks() -> None:
    agents = [Chatter() for _ in range(3)] + [SplitWolf(True), SplitWolf(False)]
    record, _ = play(agents, TWO_WOLVES, talk_on_first_day=True)
    assert_finished_and_legal(record)
    day0 = [x.split(",")[1] for x in record.aiwolf_log if x.startswith("0,") and x.split(",")[1] in ("talk", "whisper")]
    assert day0[0] == "whisper" and "talk" in day0
    assert day0.index("talk") > max(i for i, k in enumerate(day0) if k == "whisper")  # no whisper at night 0
    assert implied(record)["talkOnFirstDay"] is True
    record, _ = play(agents, TWO_WOLVES)
    assert lines(record, "talk", 0) == [] and lines(record, "whisper", 0)


def test_whisper_before_revote_the_wolves_whisper_again_before_an_attack_revote() -> None:
    agents = [SelfAttacker() for _ in range(3)] + [SplitWolf(True), SplitWolf(False)]  # day 1 executes Agent[01]
    record, _ = play(agents, TWO_WOLVES, whisper_before_revote=True)
    assert_finished_and_legal(record)
    night1 = [x.split(",") for x in record.aiwolf_log if x.startswith("1,") and x.split(",")[1] in ("whisper", "attackVote")]
    kinds = [x[1] for x in night1]
    assert kinds.index("attackVote") < max(i for i, k in enumerate(kinds) if k == "whisper")
    again = kinds.index("whisper", kinds.index("attackVote"))
    assert night1[again][3] == "0"  # a new session starts at turn 0
    assert [int(x[2]) for x in night1 if x[1] == "whisper"] == list(range(kinds.count("whisper")))
    assert implied(record)["whisperBeforeRevote"] is True


def test_max_talk_max_talk_turn_and_max_skip() -> None:
    agents = [Chatter(), Chatter(), Chatter("Skip"), Agent(), Agent()]
    record, _ = play(agents, FIVE, max_talk=2, max_talk_turn=3, max_skip=0)
    assert_finished_and_legal(record)
    day1 = [x.split(",", 5) for x in lines(record, "talk", 1)]
    for speaker in (1, 2):
        assert sum(1 for x in day1 if x[4] == str(speaker) and x[5] not in ("Skip", "Over")) == 2
    assert max(int(x[3]) for x in day1) <= 2
    assert [x[5] for x in day1 if x[4] == "3"][0] == "Over"  # maxSkip 0: a Skip is Over at once
    assert implied(record) == {}  # fewer talks and turns than the defaults: nothing shows otherwise


def test_more_talks_than_the_default_show_in_the_log() -> None:
    record, _ = play([Chatter() for _ in range(5)], FIVE, max_talk=12)
    assert_finished_and_legal(record)
    assert implied(record) == {"maxTalk": 12}  # every chatter talks 12 times a day
    record, _ = play([Chatter() for _ in range(5)], FIVE, max_talk=30, max_talk_turn=25)
    assert implied(record) == {"maxTalk": 25, "maxTalkTurn": 25}


def test_validate_utterance_false_takes_any_text() -> None:
    agents = [Chatter("hello, world"), Agent(), Agent(), Agent(), Agent()]
    record, _ = play(agents, FIVE, validate_utterance=False)
    assert any(x.endswith(",hello, world") for x in lines(record, "talk", 1))
    text = "".join(x + "\n" for x in record.aiwolf_log)
    assert check_log(table(), text, "g.log", validate_utterance=False).ok
    assert not check_log(table(), text, "g.log").ok  # by default a talk must be a valid sentence
    record, _ = play(agents, FIVE)  # validated: counted as Skip
    assert not any("hello" in x for x in lines(record, "talk")) and lines(record, "talk", 1)


# ---------------------------------------------------------------------------------------- timeLimit, setting


class Slow(Agent):
    def vote(self) -> int | None:
        time.sleep(0.005)
        return self.random_other()


def test_time_limit_minus_one_is_no_limit_for_agents() -> None:
    record, _ = play([Slow() for _ in range(5)], FIVE, time_limit=1)
    assert any("the server allows 1 ms" in i.problem for i in record.incidents)
    record, _ = play([Slow() for _ in range(5)], FIVE, time_limit=-1)
    assert not any("allows" in i.problem for i in record.incidents)


def test_the_game_setting_sent_to_agents_is_the_one_configured() -> None:
    rules = {"enable_no_attack": True, "enable_no_execution": True, "talk_on_first_day": True,
             "votable_in_first_day": True, "vote_visible": False, "whisper_before_revote": True,
             "validate_utterance": False, "enable_role_request": False, "max_revote": 3,
             "max_attack_revote": 4, "max_talk": 7, "max_talk_turn": 9, "max_whisper": 5,
             "max_whisper_turn": 6, "max_skip": 1}
    server = Server(table(), ServeConfig(5, agents=0, wait=0, time_limit=-1, rules=rules, games=1, port=0))
    server.bind()
    server.accept()
    server.run()
    (record,) = server.records
    agent = server.seats[0].agent  # a built-in agent: what it was sent
    assert agent.setting.time_limit == -1
    for name, value in rules.items():
        assert getattr(agent.setting, name) == value, name
    assert record.game_log["aiwolf"]["setting"]["max_attack_revote"] == 4
    with pytest.raises(ValueError, match="unknown game setting max_talks"):
        Server(table(), ServeConfig(5, rules={"max_talks": 3}))


# ---------------------------------------------------------------------------------------- long runs, connections


def test_a_long_run_keeps_a_bounded_window_of_records_and_no_clock_samples() -> None:
    server = Server(table(), ServeConfig(5, agents=0, wait=0, games=5, keep=2, port=0))
    server.bind()
    server.accept()
    records = server.run()
    assert [r.number for r in records] == [4, 5] and server.games_played == 5
    assert server.clock.samples == [] and server.clock.cpu == []
    stats = Server(table(), ServeConfig(5, agents=0, wait=0, games=1, port=0, stats=True))
    stats.bind()
    stats.accept()
    stats.run()
    assert len(stats.clock.samples) > 10


def test_a_connection_beyond_the_seats_is_refused_with_one_log_line() -> None:
    reports: list[str] = []
    server = Server(table(), ServeConfig(5, agents=0, wait=0, games=1, port=0), report=reports.append)
    port = server.bind()
    server.accept()
    extra = socket.create_connection(("127.0.0.1", port))
    deadline = time.monotonic() + 5
    refused = 0
    while not refused and time.monotonic() < deadline:
        refused = server.refuse_pending()
    server.close()
    assert refused == 1
    (line,) = [r for r in reports if "refused" in r]
    assert line.startswith("a connection from 127.0.0.1:") and "the seats are taken" in line
    assert extra.recv(10) == b""
    extra.close()


def test_an_agent_told_to_be_quiet_does_not_warn_about_slow_replies() -> None:
    from wwrf_adapter.aiwolf.client import Session

    _, seen = play([Slow() for _ in range(5)], FIVE, time_limit=1)
    for warn_late, expected in ((True, True), (False, False)):
        said: list[str] = []
        session = Session(Slow(), log=said.append, warn_late=warn_late)
        for packet in seen[0]:  # the packets Agent[01] was sent, again
            session.handle(packet)
        assert any("the server allows 1 ms" in m for m in said) is expected
