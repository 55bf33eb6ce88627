"""The AIWolf server's whole game, pinned line by line (issue 22's mutation test of the aiwolf area).

Each test seats agents one after the other, so that the k-th to connect is Agent[0k], each asking for
a role (granted: each is free), and every agent decides by a fixed rule. The game is then the same in
every run but for the talk order (shuffled by the server's generator), and the AIWolf log, the packets
each agent receives and what each is told at the end are worked out by hand from docs/aiwolf.md and
the AIWolf protocol 3.6 (the standard game: a vote from day 1, the seer divines every night, the
wolves attack from night 1, the result written at the start of the next day)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.sim.wolf import load_wolf_table
from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import parse
from wwrf_adapter.aiwolf.client import Agent
from wwrf_adapter.aiwolf.gameinfo import Judge, Status, Vote
from wwrf_adapter.aiwolf.host import GameRecord, Incident
from wwrf_adapter.aiwolf.packets import Request
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import Fault, FaultyAgent, Running, assert_finished_and_legal

R = Request
NONE = Fault("none", Request.NAME, done=True)  # a FaultyAgent that never misbehaves: it only records


def seated(agents: list[Agent], roles: list[str], faults: dict[int, Fault] | None = None, game: Path | None = None,
           **config) -> tuple[GameRecord, list[FaultyAgent]]:
    """One game (of the werewolf game folder ``game``, default cards/werewolf) whose k-th agent of
    ``agents`` is Agent[0k] and asks for its role (``agent.requested_role``); ``roles`` is the game's
    role list. Each agent is wrapped in a :class:`FaultyAgent` (that records the packets it gets), doing
    what ``faults`` says for its number (nothing by default)."""
    run = Running(ServeConfig(len(agents), games=1, agents=len(agents), wait=20, roles=roles, **config),
                  load_wolf_table(game) if game is not None else None)
    wrapped = []
    threads = []
    for k, agent in enumerate(agents, 1):
        f = FaultyAgent(run.port, (faults or {}).get(k, Fault("none", Request.NAME, done=True)), agent=agent)
        wrapped.append(f)
        threads.append(f.start())
        run.wait_for_seats(k)
    (record,) = run.join()
    for t in threads:
        t.join(10)
    assert [f.error for f in wrapped] == [None] * len(wrapped)
    if all(a.requested_role for a in agents):
        assert [record.roles[k] for k in range(1, len(agents) + 1)] == [a.requested_role for a in agents]
    told_only_what_they_may(wrapped, record.roles)
    return record, wrapped


def told_only_what_they_may(wrapped: list[FaultyAgent], roles: dict[int, A.Role]) -> None:
    """docs/aiwolf.md, What a gameInfo holds: each agent is told its own number and role (a werewolf
    every werewolf; FINISH every role); only the wolves the whispers, the attack votes and whom they
    attacked; only the seer, the medium and the bodyguard their divination, identification and guard."""
    wolves = {k: r for k, r in roles.items() if r is A.Role.WEREWOLF}
    for k, f in enumerate(wrapped, 1):
        role = roles[k]
        for p in f.received:
            info = p.game_info
            if p.whisper_history and role is not A.Role.WEREWOLF:
                raise AssertionError((k, p))
            if info is None:
                continue
            assert info.agent == k
            if p.request is R.FINISH:
                assert info.role_map == roles
            else:
                assert info.role_map == (wolves if role is A.Role.WEREWOLF else {k: role})
            if role is not A.Role.WEREWOLF:
                assert (info.whisper_list, info.remain_whisper_map, info.attack_vote_list,
                        info.latest_attack_vote_list, info.attacked_agent) == ((), {}, (), (), -1), (k, p.request)
            assert role is A.Role.SEER or info.divine_result is None
            assert role is A.Role.MEDIUM or info.medium_result is None
            assert role is A.Role.BODYGUARD or info.guarded_agent == -1
            assert info.cursed_fox == -1


def not_talk(record: GameRecord) -> list[str]:
    return [line for line in record.aiwolf_log if line.split(",")[1] not in ("talk", "whisper")]


def status(day: int, roles: list[A.Role], dead: set[int], name: str) -> list[str]:
    return [f"{day},status,{k},{r.value},{'DEAD' if k in dead else 'ALIVE'},{name}" for k, r in enumerate(roles, 1)]


class Lowest(Agent):
    """Votes for, and (a werewolf) attacks, the lowest-numbered living human other than itself; a seer
    divines the lowest-numbered living agent other than itself; a bodyguard guards the highest-numbered
    living agent other than itself; it talks and whispers Over. Every agent's role is put in ``shared``
    at INITIALIZE (the agents of one test share one dict)."""

    def __init__(self, shared: dict, role: A.Role) -> None:
        super().__init__()
        self.shared = shared
        self.requested_role = role
        self.finished = None

    def initialize(self) -> None:
        self.shared[self.me] = self.role

    def finish(self) -> None:
        self.finished = self.info

    def _others(self) -> list[int]:
        return sorted(a for a in (self.info.alive if self.info else []) if a != self.me)

    def vote(self) -> int | None:
        humans = [a for a in self._others() if self.shared.get(a) is not A.Role.WEREWOLF]
        return humans[0] if humans else None

    attack = vote

    def divine(self) -> int | None:
        return self._others()[0]

    def guard(self) -> int | None:
        return self._others()[-1]


def _six(faults: dict[int, Fault] | None = None, classes: dict[int, type] | None = None, **config):
    """Agent[01..06]: villager, villager, villager, werewolf, villager, seer, each a :class:`Lowest`
    or the class ``classes`` gives for its number."""
    roles = [A.Role.VILLAGER, A.Role.VILLAGER, A.Role.VILLAGER, A.Role.WEREWOLF, A.Role.VILLAGER, A.Role.SEER]
    shared: dict = {}
    agents = [(classes or {}).get(k, Lowest)(shared, r) for k, r in enumerate(roles, 1)]
    record, wrapped = seated(agents, [r.value.lower() for r in roles], faults, seed=3, **config)
    return record, agents, wrapped, roles


def test_a_game_of_six_line_by_line() -> None:
    """Six agents, one werewolf (Agent[04]) and the seer (Agent[06]). Night 0: the seer divines
    Agent[01] (human); no attack on night 0, no whispers with one wolf. Day 1: Agent[01] votes for
    Agent[02], the five others for Agent[01], who is executed; night 1: the seer divines Agent[02], the
    wolf attacks Agent[02] (dead). Day 2: Agent[03] votes for Agent[05], the three others for
    Agent[03] (executed); night 2: the seer divines Agent[04] (a werewolf), the wolf attacks
    Agent[05]. One human and one wolf are left: the werewolves win, written on day 3."""
    record, agents, _, roles = _six()
    assert_finished_and_legal(record)
    name = "Lowest"
    assert not_talk(record) == [
        *status(0, roles, set(), name),
        "0,divine,6,1,HUMAN",
        *status(1, roles, set(), name),
        "1,vote,1,2", "1,vote,2,1", "1,vote,3,1", "1,vote,4,1", "1,vote,5,1", "1,vote,6,1",
        "1,execute,1,VILLAGER",
        "1,divine,6,2,HUMAN",
        "1,attackVote,4,2",
        "1,attack,2,true",
        *status(2, roles, {1, 2}, name),
        "2,vote,3,5", "2,vote,4,3", "2,vote,5,3", "2,vote,6,3",
        "2,execute,3,VILLAGER",
        "2,divine,6,4,WEREWOLF",
        "2,attackVote,4,5",
        "2,attack,5,true",
        *status(3, roles, {1, 2, 3, 5}, name),
        "3,result,1,1,WEREWOLF",
    ]
    # the talk: no talk on day 0; each day every living agent once, Over, numbered from 0 in turn 0
    talk = [line.split(",") for line in record.aiwolf_log if line.split(",")[1] == "talk"]
    for day, living in (("1", [1, 2, 3, 4, 5, 6]), ("2", [3, 4, 5, 6])):
        rows = [r for r in talk if r[0] == day]
        assert [r[2:4] + r[5:] for r in rows] == [[str(i), "0", "Over"] for i in range(len(living))]
        assert sorted(int(r[4]) for r in rows) == living
    assert {r[0] for r in talk} == {"1", "2"}
    assert [line for line in record.aiwolf_log if ",whisper," in line] == []  # one wolf: no whispers
    assert (record.winner, record.day, record.humans, record.wolves) == ("WEREWOLF", 3, 1, 1)
    assert record.incidents == []
    # the game log's aiwolf entry: the agents, the game's setting (but the roles and the seed) and
    # the requests written (every packet the six received but NAME)
    entry = record.game_log["aiwolf"]
    assert entry["agents"] == [{"agent": k, "name": name, "seat": "remote", "role": r.value}
                               for k, r in enumerate(roles, 1)]
    assert entry["setting"] == {
        "player_num": 6, "time_limit": 1000, "max_talk": 10, "max_talk_turn": 20, "max_whisper": 10,
        "max_whisper_turn": 20, "max_skip": 2, "max_revote": 1, "max_attack_revote": 1, "enable_no_attack": False,
        "enable_no_execution": False, "enable_role_request": True, "talk_on_first_day": False,
        "validate_utterance": True, "votable_in_first_day": False, "vote_visible": True,
        "whisper_before_revote": False}
    assert entry["incidents"] == [] and entry["requests"] == record.requests
    assert record.names == {k: name for k in range(1, 7)} and record.number == 1


def test_the_packets_each_agent_of_the_six_gets() -> None:
    """The same game: every agent is told INITIALIZE, then DAILY_INITIALIZE and DAILY_FINISH each day,
    the dead too (days 0 to 2; day 3 only has the result), and FINISH; a living agent is asked TALK once
    a day from day 1 (everyone says Over at once) and VOTE; the seer DIVINE every night, the wolf ATTACK
    from night 1. A night request after an execution (nights 1 and 2) carries a full gameInfo with
    ``latestExecutedAgent`` (and null histories); the seer's DIVINE of night 0 carries only the talk it has
    not seen (none: an empty list)."""
    record, _, wrapped, _ = _six()
    day = [R.DAILY_INITIALIZE, R.DAILY_FINISH]
    lived = [R.DAILY_INITIALIZE, R.TALK, R.DAILY_FINISH, R.VOTE]
    start = [R.NAME, R.ROLE, R.INITIALIZE]
    expected = {
        1: start + day + lived + day + [R.FINISH],
        2: start + day + lived + day + [R.FINISH],
        3: start + day + lived + lived + [R.FINISH],
        4: start + day + lived + [R.ATTACK] + lived + [R.ATTACK, R.FINISH],
        5: start + day + lived + lived + [R.FINISH],
        6: start + day + [R.DIVINE] + lived + [R.DIVINE] + lived + [R.DIVINE, R.FINISH],
    }
    for k, f in enumerate(wrapped, 1):
        assert [p.request for p in f.received] == expected[k], k
    assert record.requests == sum(len(v) - 1 for v in expected.values())  # NAME is the server's, before the game
    # the days of the DAILY_INITIALIZE packets, and the full gameInfo of the night requests
    for f in wrapped:
        assert [p.game_info.day for p in f.received if p.request is R.DAILY_INITIALIZE] == [0, 1, 2]
        assert [p.game_info.day for p in f.received if p.request is R.FINISH] == [3]
    seer, wolf = wrapped[5].received, wrapped[3].received
    divines = [p for p in seer if p.request is R.DIVINE]
    attacks = [p for p in wolf if p.request is R.ATTACK]
    assert (divines[0].game_info, divines[0].talk_history, divines[0].whisper_history) == (None, (), ())
    assert [(p.game_info.day, p.game_info.latest_executed_agent) for p in divines[1:]] == [(1, 1), (2, 3)]
    assert [(p.talk_history, p.whisper_history) for p in divines[1:] + attacks] == [(None, None)] * 4
    assert [(p.game_info.day, p.game_info.latest_executed_agent) for p in attacks] == [(1, 1), (2, 3)]
    # the full gameInfo at night: today's votes are the latest, yesterday's the voteList
    night2 = attacks[1].game_info
    assert night2.latest_vote_list == (Vote(3, 2, 5), Vote(4, 2, 3), Vote(5, 2, 3), Vote(6, 2, 3))
    assert [v.day for v in night2.vote_list] == [1] * 6
    assert night2.status_map == {k: Status.DEAD if k in (1, 2, 3) else Status.ALIVE for k in range(1, 7)}
    # VOTE and TALK carry no gameInfo (histories only); a DAILY_FINISH carries the day's talk
    for f in wrapped:
        assert all(p.game_info is None for p in f.received if p.request in (R.VOTE, R.TALK, R.DAILY_FINISH))


def test_what_the_six_are_told_at_the_end() -> None:
    """The same game: FINISH is told on day 3, the day of the result, with every role; yesterday (day
    2) Agent[03] was executed after the four votes of day 2, and Agent[05] died in the night; only the
    wolf is told whom it attacked (Agent[05]) and its attack vote, only the seer its last divination
    (Agent[04], a werewolf, dated the day it is told). The living two have their talks."""
    record, agents, _, roles = _six()
    for a in agents:
        info = a.finished
        me, wolf, seer = a.me, a.me == 4, a.me == 6
        assert info.day == 3 and info.agent == me
        assert info.role_map == dict(enumerate(roles, 1))
        assert info.status_map == {k: Status.ALIVE if k in (4, 6) else Status.DEAD for k in range(1, 7)}
        assert (info.executed_agent, info.latest_executed_agent) == (3, -1)
        assert info.last_dead_agent_list == (5,)
        assert info.vote_list == (Vote(3, 2, 5), Vote(4, 2, 3), Vote(5, 2, 3), Vote(6, 2, 3))
        assert info.latest_vote_list == ()
        assert info.attacked_agent == (5 if wolf else -1)
        assert info.attack_vote_list == ((Vote(4, 2, 5),) if wolf else ())
        assert info.divine_result == (Judge(6, 3, 4, A.Species.WEREWOLF) if seer else None)
        assert info.medium_result is None and info.guarded_agent == -1
        assert info.remain_talk_map == {4: 10, 6: 10}
        assert info.remain_whisper_map == ({4: 10} if wolf else {})
        assert info.existing_role_list == (A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF)


@pytest.mark.parametrize("roles, result", [
    (["villager", "villager", "seer", "villager", "villager"], "0,result,5,0,VILLAGER"),
    (["werewolf", "villager", "werewolf", "possessed", "werewolf"], "0,result,2,3,WEREWOLF"),
])
def test_a_game_won_before_it_starts_has_no_day(roles: list[str], result: str) -> None:
    """AIWolf protocol 3.6: the server checks for a winner before each day, so a game whose roles
    already decide it (no werewolf; as many werewolves as humans, the possessed counting as human) has
    no day at all: its log is the status of day 0 and the result, and an agent is told INITIALIZE and
    FINISH only."""
    agents = [Lowest({}, A.Role(r.upper())) for r in roles]
    record, wrapped = seated(agents, roles, seed=3)
    assert record.aiwolf_log == status(0, [A.Role(r.upper()) for r in roles], set(), "Lowest") + [result]
    for f in wrapped:
        assert [p.request for p in f.received] == [R.NAME, R.ROLE, R.INITIALIZE, R.FINISH]
        assert f.received[-1].game_info.day == 0


class Blank(Lowest):
    """A :class:`Lowest` whose talk is blanks only."""

    def talk(self) -> str:
        return "   "


def test_a_blank_talk_is_skip_without_an_incident_and_a_late_talk_is_skip_with_one() -> None:
    """docs/aiwolf.md: an empty talk is sent as Skip (the parser's AW110 says so), and a TALK with no
    reply in time counts as Skip with an incident. The six of the game above, Agent[01] talking blanks
    (Skip: asked again, in turn 1, and once more, a third Skip in a row being Over) and Agent[03] not
    replying in time to its first TALK: its Skip is an incident, and its next talk is Over."""
    record, _, _, _ = _six(faults={3: Fault("late", Request.TALK, day=1)}, classes={1: Blank}, time_limit=2000)
    day1 = [line.split(",") for line in record.aiwolf_log if line.split(",")[:2] == ["1", "talk"]]
    assert [(r[3], r[5]) for r in day1 if r[4] == "1"] == [("0", "Skip"), ("1", "Skip"), ("2", "Over")]
    assert [(r[3], r[5]) for r in day1 if r[4] == "3"][:2] == [("0", "Skip"), ("1", "Over")]
    assert [str(i) for i in record.incidents] == [
        "game 1, day 1, Agent[03] TALK: late: no reply within 2000 ms; counted as Skip",
        "game 1, day 1, Agent[03] TALK: a late reply arrived and was discarded: 'Over'; ignored"]


def test_an_incident_reads_as_one_line() -> None:
    """docs/aiwolf.md: the server prints each incident (game, day, agent, request, what went wrong, what
    it did); a connection event has no request."""
    assert str(Incident(2, 3, 7, "VOTE", "no choice", "drawn at random: Agent[01]")) == \
        "game 2, day 3, Agent[07] VOTE: no choice; drawn at random: Agent[01]"
    assert str(Incident(1, 0, 12, "", "the connection is lost (closed)", "the host plays this seat")) == \
        "game 1, day 0, Agent[12]: the connection is lost (closed); the host plays this seat"


MIXED = "Skip and Over are written in mixed case"
ALONE = ("Skip and Over are only ever a whole utterance",)
AGENT1 = ("the 3.6 text writes Agent1; the platform needs Agent[01]",)


@pytest.mark.parametrize("text, expected", [
    ("Agent[01] skip", [("AW107", f"write Skip, not skip: {MIXED}", 11, 15, ()),
                        ("AW203", "Skip takes no subject", 11, 15, ())]),
    ("skip Over", [("AW107", f"write Skip, not skip: {MIXED}", 1, 5, ()),
                   ("AW111", "Skip stands alone: nothing may follow it", 6, 10, ())]),
    ("NOT (over)", [("AW107", f"write Over, not over: {MIXED}", 6, 10, ()),
                    ("AW203", "Over cannot be nested in another sentence", 6, 10, ALONE)]),
    ("SKIP", [("AW107", f"write Skip, not SKIP: {MIXED}", 1, 5, ())]),
    ("OVER", [("AW107", f"write Over, not OVER: {MIXED}", 1, 5, ("an upper-case OVER is read by the platform as Skip",))]),
    ("Skip Agent[01]", [("AW111", "Skip stands alone: nothing may follow it", 6, 15, ())]),
    ("AND (VOTE ANY) (Skip) (VOTE ANY)", [("AW203", "Skip cannot be nested in another sentence", 17, 21, ALONE)]),
    ("(VOTE ANY)", [("AW102", "a sentence starts with a subject, a verb or an operator, not '('", 1, 2,
                     ("to say several things at once, join them with AND (...) (...)",))]),
    ("NOT VOTE ANY", [("AW102", "expected '(' and a sentence after NOT, found 'VOTE'", 5, 9, ())]),
    ("Agent[01] VOTE", [("AW102", "expected the target: an agent (Agent[NN]) or ANY", 15, 16, ())]),
    ("Agent[01] ESTIMATE Agent[02] seer", [("AW104", "keywords are written in upper case: SEER", 30, 34, ())]),
    ("DISAGREE talk day1 ID:2", [("AW104", "keywords are written in upper case: TALK", 10, 14, ())]),
    ("VOTE Agent[01]x", [("AW111", "unexpected 'x' after the end of the sentence", 15, 16, ())]),
    ("VOTE Agent[x]", [("AW105", "malformed agent 'Agent[x]': write Agent[NN], e.g. Agent[01]", 6, 14, ())]),
    ("COMINGOUT Agent[02] SEEER", [("AW103", "unknown role 'SEEER'", 21, 26, ("did you mean: SEER",))]),
    # a subject misspelt is still a subject: what follows it is read as after a subject
    ("any XYZZY", [("AW104", "keywords are written in upper case: ANY", 1, 4, ()),
                   ("AW103", "unknown word 'XYZZY': expected a verb or an operator after the subject", 5, 10, ())]),
    ("Agent1 XYZZY", [("AW105", "agents are written Agent[NN]: Agent[01], not Agent1", 1, 7, AGENT1),
                      ("AW103", "unknown word 'XYZZY': expected a verb or an operator after the subject", 8, 13, ())]),
    ("Agent0 XYZZY", [("AW105", "agents are written Agent[NN]: ANY, not Agent0", 1, 7, AGENT1),
                      ("AW103", "unknown word 'XYZZY': expected a verb or an operator after the subject", 8, 13, ())]),
    ("DIVINEDAgent[01] HUMAN", [("AW103", "unknown word 'DIVINEDAgent[01]': expected a verb or an operator", 1, 17,
                                 ("put a blank after DIVINED",))]),
])
def test_each_mistake_in_full(text: str, expected: list) -> None:
    """docs/aiwolf.md, Diagnostics: every diagnostic of a sentence, with its code, message, columns
    (1-based, the end exclusive) and notes. Skip and Over are written in mixed case (AW107; the
    platform reads OVER as Skip), take no subject and cannot be nested (AW203), stand alone (AW111);
    a sentence does not start with '(' (AW102), keywords are upper case (AW104), agents are Agent[NN]
    (AW105), an unknown word gets the nearest keyword or the keyword it starts with (AW103)."""
    result = parse(text)
    assert result.utterance is None
    assert [(d.code, d.message, d.span.col, d.span.end_col, d.notes) for d in result.diagnostics] == expected


@pytest.mark.parametrize("text, pos", [
    ("Agent[01] DIVINED Agent[02] HUMAN",
     {"subject": (1, 10), "verb": (11, 18), "target": (19, 28), "species": (29, 34), "sentence": (1, 34)}),
    ("Agent[01] COMINGOUT Agent[01] SEER",
     {"subject": (1, 10), "verb": (11, 20), "target": (21, 30), "role": (31, 35), "sentence": (1, 35)}),
    ("REQUEST (Agent[02] VOTE Agent[03])", {"verb": (1, 8), "target": (10, 19), "sentence": (1, 35)}),
    ("INQUIRE Agent[03] (VOTE ANY)", {"verb": (1, 8), "target": (9, 18), "sentence": (1, 29)}),
    ("DAY 2 (VOTE ANY)", {"verb": (1, 4), "day": (5, 6), "sentence": (1, 17)}),
    ("AGREE TALK day3 ID:14", {"verb": (1, 6), "talk": (7, 22), "talk_day": (12, 16), "sentence": (1, 22)}),
    ("AND (VOTE ANY) (VOTE Agent[02])", {"verb": (1, 4), "sentence": (1, 32)}),
    ("NOT (VOTE Agent[02])", {"verb": (1, 4), "sentence": (1, 21)}),
])
def test_the_positions_of_each_shape(text: str, pos: dict) -> None:
    """Each part of a sentence is recorded as (first column, column after it): the subject, the verb,
    the target (for the old form ``REQUEST (Agent[02] ...)`` the inner subject's), the role or species,
    the day, the talk reference and its day, and the whole sentence up to its last ')'."""
    assert parse(text).utterance.pos == pos


def test_the_positions_inside_groups() -> None:
    """A sentence inside a group has its own positions, without the parentheses."""
    u = parse("Agent[05] AND (DAY 1 (Agent[05] VOTED Agent[1])) (XOR (VOTE Agent[2]) (VOTE Agent[3]))").utterance
    day, xor = u.parts
    assert day.pos == {"verb": (16, 19), "day": (20, 21), "sentence": (16, 48)}
    assert day.body.pos == {"subject": (23, 32), "verb": (33, 38), "target": (39, 47), "sentence": (23, 47)}
    assert xor.pos == {"verb": (51, 54), "sentence": (51, 86)}
    assert xor.right.pos == {"verb": (72, 76), "target": (77, 85), "sentence": (72, 85)}


def _five(faults: dict[int, Fault] | None = None):
    """Agent[01..05]: villager, seer, werewolf, werewolf, villager, all :class:`Lowest`."""
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.WEREWOLF, A.Role.VILLAGER]
    shared: dict = {}
    agents = [Lowest(shared, r) for r in roles]
    record, wrapped = seated(agents, [r.value.lower() for r in roles], faults, seed=5)
    return record, agents, wrapped, roles


@pytest.mark.parametrize("fault", [None, "garbage"])
def test_the_night_after_the_deciding_execution_line_by_line(fault: str | None) -> None:
    """docs/aiwolf.md: after an execution that decides the game the server still plays that night as
    the reference does, and writes the result on the next day. Five agents, the werewolves Agent[03]
    and Agent[04]. Night 0: the two wolves whisper (Over), the seer Agent[02] divines Agent[01]. Day 1:
    Agent[01] votes for Agent[02], the others for Agent[01], who is executed: two humans and two wolves
    are left, the werewolves have won. Night 1: the seer divines Agent[03] (a werewolf), the wolves
    whisper, both attack Agent[02], who dies; day 2 has the result. With ``garbage`` the seer's reply to
    the DIVINE of night 1 is not JSON: an incident, and no divination."""
    faults = {2: Fault("garbage", Request.DIVINE, day=1)} if fault else None
    record, agents, wrapped, roles = _five(faults)
    assert_finished_and_legal(record)
    divine1 = [] if fault else ["1,divine,2,3,WEREWOLF"]
    assert not_talk(record) == [
        *status(0, roles, set(), "Lowest"),
        "0,divine,2,1,HUMAN",
        *status(1, roles, set(), "Lowest"),
        "1,vote,1,2", "1,vote,2,1", "1,vote,3,1", "1,vote,4,1", "1,vote,5,1",
        "1,execute,1,VILLAGER",
        *divine1,
        "1,attackVote,3,2", "1,attackVote,4,2",
        "1,attack,2,true",
        *status(2, roles, {1, 2}, "Lowest"),
        "2,result,1,2,WEREWOLF",
    ]
    # the wolves whisper once a night (both say Over at once), after the divination in the log
    whispers = [line.split(",") for line in record.aiwolf_log if line.split(",")[1] == "whisper"]
    assert sorted((r[0], r[2], r[3], r[5]) for r in whispers) == [
        ("0", "0", "0", "Over"), ("0", "1", "0", "Over"), ("1", "0", "0", "Over"), ("1", "1", "0", "Over")]
    assert sorted((r[0], r[4]) for r in whispers) == [("0", "3"), ("0", "4"), ("1", "3"), ("1", "4")]
    night0 = [line.split(",")[1] for line in record.aiwolf_log if line.startswith("0,")]
    assert night0[-3:] == ["divine", "whisper", "whisper"]
    if fault:
        (incident,) = record.incidents
        assert (incident.day, incident.agent, incident.request, incident.action) == (
            1, 2, "DIVINE", "no divination tonight")
        assert incident.problem.startswith("a malformed reply '}{ not json")
    else:
        assert record.incidents == []
    # what each is told at the end: day 2, yesterday's execution and attack, the seer its divination
    for a in agents:
        info, wolf = a.finished, a.me in (3, 4)
        assert (info.day, info.executed_agent, info.latest_executed_agent, info.last_dead_agent_list) == (2, 1, -1, (2,))
        assert info.attacked_agent == (2 if wolf else -1)
        assert info.attack_vote_list == ((Vote(3, 1, 2), Vote(4, 1, 2)) if wolf else ())
        assert info.vote_list == (Vote(1, 1, 2), Vote(2, 1, 1), Vote(3, 1, 1), Vote(4, 1, 1), Vote(5, 1, 1))
        told = Judge(2, 2, 3, A.Species.WEREWOLF) if a.me == 2 and not fault else None
        assert info.divine_result == told
        assert info.status_map == {k: Status.DEAD if k in (1, 2) else Status.ALIVE for k in range(1, 6)}
    # the requests of the night after the end carry a full gameInfo of day 1 with today's execution
    for k, f in enumerate(wrapped, 1):
        night1 = [p for p in f.received if p.request in (R.DIVINE, R.WHISPER, R.ATTACK)
                  and p.game_info is not None and p.game_info.day == 1]
        want = {2: [R.DIVINE], 3: [R.WHISPER, R.ATTACK], 4: [R.WHISPER, R.ATTACK]}.get(k, [])
        assert [p.request for p in night1] == want, k
        assert all(p.game_info.latest_executed_agent == 1 for p in night1)


def test_wolves_that_never_attack_still_whisper_each_night_after_the_divination(tmp_path) -> None:
    """docs/aiwolf.md: at night the living werewolves (two or more) whisper after the seer's
    divination (on night 0 before it); the server holds the whispers until the divination is made. A
    game whose pack never hunts (cards/werewolf with the pack's poll moved to night 99) has no ATTACK
    request to wait for: the whispers still come each night, logged with that night's day. Seven
    agents, the wolves Agent[03] and Agent[04]: days 1, 2 and 3 execute Agent[01], Agent[02] and
    Agent[05] (the lowest-numbered humans), which leaves two humans and two wolves. Each night the wolves
    whisper once (both say Over), after the seer's divination while the seer lives."""
    from .test_rules_pinned import _edited_game

    game = _edited_game(tmp_path, "werewolf-pack.ini", "temporal = night 2+", "temporal = night 99+")
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.WEREWOLF, A.Role.VILLAGER, A.Role.VILLAGER,
             A.Role.VILLAGER]
    shared: dict = {}
    agents = [Lowest(shared, r) for r in roles]
    record, _ = seated(agents, [r.value.lower() for r in roles], game=game, seed=2)
    assert [line for line in record.aiwolf_log if ",execute," in line] == [
        "1,execute,1,VILLAGER", "2,execute,2,SEER", "3,execute,5,VILLAGER"]
    assert record.winner == "WEREWOLF"
    # the seer divines on nights 0 and 1 (executed on day 2)
    for day, divine in (("0", ["divine"]), ("1", ["divine"]), ("2", [])):
        night = [line.split(",") for line in record.aiwolf_log
                 if line.split(",")[0] == day and line.split(",")[1] in ("divine", "whisper", "attackVote", "attack")]
        assert [r[1] for r in night] == divine + ["whisper", "whisper"], day
        assert sorted(r[4] for r in night if r[1] == "whisper") == ["3", "4"]


class Revoter(Lowest):
    """A :class:`Lowest` that splits the first round of each vote: on day 1 Agent[01..03] vote for
    Agent[06], Agent[04..06] for Agent[07] and Agent[07] for Agent[01] (a tie); at night the lower
    wolf attacks the lowest-numbered living human and the other wolf the highest-numbered one (a tie).
    In a revote (its gameInfo has the latest round) it votes and attacks as a :class:`Lowest` does."""

    def vote(self) -> int | None:
        if self.info.latest_vote_list or self.day != 1:
            return super().vote()
        return 6 if self.me <= 3 else 7 if self.me <= 6 else 1

    def attack(self) -> int | None:
        humans = [a for a in self._others() if self.shared.get(a) is not A.Role.WEREWOLF]
        if self.info.latest_attack_vote_list:
            return humans[0]
        return humans[-1] if self.me == 4 else humans[0]


def test_revotes_by_day_and_night_and_whispers_before_an_attack_revote() -> None:
    """docs/aiwolf.md: after a tie every voter votes again (a revote's request carries a full gameInfo
    with the latest round); with ``whisperBeforeRevote`` the wolves whisper again before an attack
    revote, never before a day's revote. Seven agents, the werewolves Agent[03] and Agent[04] and the
    bodyguard Agent[05] (who guards Agent[07], after the whispers: it is not told them): day 1's
    first round ties Agent[06] and Agent[07] (three votes each), the revote executes Agent[01]; night
    1's first attack vote ties Agent[02] and Agent[07], the wolves whisper again, and the revote attacks
    Agent[02]."""
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.WEREWOLF, A.Role.BODYGUARD, A.Role.VILLAGER,
             A.Role.VILLAGER]
    shared: dict = {}
    agents = [Revoter(shared, r) for r in roles]
    record, wrapped = seated(agents, [r.value.lower() for r in roles], seed=4,
                             rules={"whisper_before_revote": True})
    day1 = [line for line in record.aiwolf_log if line.startswith("1,") and ",status," not in line
            and ",talk," not in line]
    whisper = [line.split(",") for line in day1 if ",whisper," in line]
    assert [line for line in day1 if ",whisper," not in line] == [
        "1,vote,1,6", "1,vote,2,6", "1,vote,3,6", "1,vote,4,7", "1,vote,5,7", "1,vote,6,7", "1,vote,7,1",
        "1,vote,1,2", "1,vote,2,1", "1,vote,3,1", "1,vote,4,1", "1,vote,5,1", "1,vote,6,1", "1,vote,7,1",
        "1,execute,1,VILLAGER",
        "1,divine,2,3,WEREWOLF",
        "1,guard,5,7,VILLAGER",
        "1,attackVote,3,2", "1,attackVote,4,7",
        "1,attackVote,3,2", "1,attackVote,4,2",
        "1,attack,2,true"]
    kinds = [line.split(",")[1] for line in day1]
    assert kinds.index("whisper") > kinds.index("divine")
    # two whisper sessions of night 1: one after the divination, one between the two attack rounds,
    # each a new session from turn 0, the whispers numbered on through the night
    assert [k for k in kinds if k != "vote"] == [
        "execute", "divine", "whisper", "whisper", "guard", "attackVote", "attackVote", "whisper", "whisper",
        "attackVote", "attackVote", "attack"]
    assert [(r[2], r[3], r[5]) for r in whisper] == [("0", "0", "Over"), ("1", "0", "Over"),
                                                       ("2", "0", "Over"), ("3", "0", "Over")]
    # the revotes' requests carry the latest round
    for k, f in enumerate(wrapped, 1):
        votes = [p for p in f.received if p.request is R.VOTE and p.game_info is not None and p.game_info.day == 1]
        assert [len(p.game_info.latest_vote_list) for p in votes] == [7], k
    wolf = [p for p in wrapped[2].received if p.request is R.ATTACK]
    assert [p.game_info.latest_attack_vote_list for p in wolf[:2]] == [(), (Vote(3, 1, 2), Vote(4, 1, 7))]


class Scripted(Lowest):
    """A :class:`Lowest` that says, on day 1, Skip, Skip, a sentence, then Skip for ever."""

    SCRIPT = ["Skip", "Skip", "VOTE Agent[02]"]

    def talk(self) -> str:
        said = [t for t in self.talks if t.agent == self.me and t.day == self.day]
        return self.SCRIPT[len(said)] if self.day == 1 and len(said) < len(self.SCRIPT) else "Skip"


def test_skips_in_a_row_are_counted_from_the_last_sentence_and_every_talk_is_told_once() -> None:
    """docs/aiwolf.md: Skip does not use up a talk, a third Skip in a row (maxSkip 2) counts as Over,
    and a sentence starts the count again; the talk ends when a whole turn is Over. Each TALK request
    carries the talk its agent has not seen yet, and DAILY_FINISH the rest: every agent is told each
    talk of the day once, in order. The six of the game above, the seer Agent[06] saying Skip, Skip,
    VOTE Agent[02], then Skip: its turns 0 to 5 are Skip, Skip, the sentence, Skip, Skip, Over (the
    third in a row), everyone else says Over, and the talk ends after turn 5. The seer has one talk
    less (its DIVINE of night 1 carries a full gameInfo with the day's talks left)."""
    record, agents, wrapped, _ = _six(classes={6: Scripted})
    day1 = [line.split(",", 5) for line in record.aiwolf_log if line.startswith("1,talk,")]
    assert [r[2] for r in day1] == [str(i) for i in range(36)]
    assert [(r[3], r[5]) for r in day1 if r[4] == "6"] == [
        ("0", "Skip"), ("1", "Skip"), ("2", "VOTE Agent[02]"), ("3", "Skip"), ("4", "Skip"), ("5", "Over")]
    assert all(r[5] == "Over" for r in day1 if r[4] != "6")
    assert sorted(int(r[3]) for r in day1) == sorted(list(range(6)) * 6)
    for f in wrapped:
        told = [(t.idx, t.turn, t.agent, t.text) for p in f.received
                if p.request in (R.TALK, R.DAILY_FINISH, R.VOTE) and p.game_info is None
                for t in p.talk_history or () if t.day == 1]
        assert told == [(int(r[2]), int(r[3]), int(r[4]), r[5]) for r in day1]
    (divine,) = [p for p in wrapped[5].received if p.request is R.DIVINE and p.game_info and p.game_info.day == 1]
    assert divine.game_info.remain_talk_map == {1: 10, 2: 10, 3: 10, 4: 10, 5: 10, 6: 9}
    assert [t.idx for t in divine.game_info.talk_list] == list(range(36))


def test_a_seer_whose_connection_is_lost_is_played_by_the_host_to_the_end() -> None:
    """docs/aiwolf.md: a seat whose connection is lost is played by the host for the rest of the game,
    with random choices (a living agent other than itself) and Over; each choice is an incident that
    names it. The six of the game above, the seer Agent[06] closing its connection at DAILY_FINISH of
    day 1: the next request (its VOTE) finds it closed; from then on its votes and divinations are the
    host's, as the log says, and it is never asked again (its talk of day 2 is Over)."""
    record, _, wrapped, _ = _six(faults={6: Fault("disconnect", Request.DAILY_FINISH, day=1)})
    assert_finished_and_legal(record)
    got = [(i.day, i.agent, i.request, i.problem, i.action) for i in record.incidents]
    closed = got[0][3].removeprefix("connection lost: ")
    assert got[:2] == [(1, 6, "VOTE", f"connection lost: {closed}", "ignored"),
                       (1, 6, "VOTE", f"the connection is lost ({closed})",
                        "the host plays this seat for the rest of the game (random choices, Over)")]
    played = got[2:]
    assert [(d, a, r, p) for d, a, r, p, _ in played] == [
        (1, 6, "VOTE", "the seat is played by the host"), (1, 6, "DIVINE", "the seat is played by the host"),
        (2, 6, "VOTE", "the seat is played by the host"), (2, 6, "DIVINE", "the seat is played by the host")]
    drawn = [int(action.removeprefix("drawn at random: Agent[").rstrip("]")) for *_, action in played]
    log = record.aiwolf_log
    kinds = {"VOTE": "vote", "DIVINE": "divine"}
    for (day, _, request, _, _), target in zip(played, drawn):
        (line,) = [x for x in log if x.startswith(f"{day},{kinds[request]},6,")]
        assert line.split(",")[3] == str(target) and target != 6
    # alive when drawn: day 1 all, night 1 after Agent[01]'s execution, day 2 and night 2 after Agent[02]'s death
    assert drawn[1] != 1 and drawn[2] not in (1, 2) and drawn[3] not in (1, 2, 3)
    assert [p.request for p in wrapped[5].received][-2:] == [R.TALK, R.DAILY_FINISH]
    assert [x for x in log if x.startswith("2,talk,") and x.split(",")[4] == "6"] and \
        all(x.endswith(",Over") for x in log if ",talk," in x and x.split(",")[4] == "6")


def test_a_game_of_every_role_line_by_line() -> None:
    """Seven agents: Agent[01] villager, Agent[02] seer, Agent[03] medium, Agent[04] bodyguard,
    Agent[05] werewolf, Agent[06] possessed (a human: the wolves do not know it), Agent[07] villager.
    Night 0: the seer divines Agent[01]; no guard and no attack on night 0. Day 1 executes Agent[01]
    (six votes); night 1: the seer divines Agent[03], the bodyguard guards Agent[07], the wolf kills
    Agent[02]. Day 2 executes the medium Agent[03] (four votes); night 2: the guard of Agent[07] again,
    the wolf kills the bodyguard. Day 3: Agent[05] and Agent[07] vote for Agent[06], Agent[06] for
    Agent[07]: the possessed is executed, one human and one wolf are left, the werewolves have won;
    in the night after, the wolf kills Agent[07]; day 4 has the result. The medium is told on day 2
    that Agent[01] was human; the bodyguard whom it guarded, each next day."""
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.MEDIUM, A.Role.BODYGUARD, A.Role.WEREWOLF, A.Role.POSSESSED,
             A.Role.VILLAGER]
    shared: dict = {}
    agents = [Lowest(shared, r) for r in roles]
    record, wrapped = seated(agents, [r.value.lower() for r in roles], seed=8)
    assert_finished_and_legal(record)
    assert not_talk(record) == [
        *status(0, roles, set(), "Lowest"),
        "0,divine,2,1,HUMAN",
        *status(1, roles, set(), "Lowest"),
        "1,vote,1,2", "1,vote,2,1", "1,vote,3,1", "1,vote,4,1", "1,vote,5,1", "1,vote,6,1", "1,vote,7,1",
        "1,execute,1,VILLAGER",
        "1,divine,2,3,HUMAN",
        "1,guard,4,7,VILLAGER",
        "1,attackVote,5,2",
        "1,attack,2,true",
        *status(2, roles, {1, 2}, "Lowest"),
        "2,vote,3,4", "2,vote,4,3", "2,vote,5,3", "2,vote,6,3", "2,vote,7,3",
        "2,execute,3,MEDIUM",
        "2,guard,4,7,VILLAGER",
        "2,attackVote,5,4",
        "2,attack,4,true",
        *status(3, roles, {1, 2, 3, 4}, "Lowest"),
        "3,vote,5,6", "3,vote,6,7", "3,vote,7,6",
        "3,execute,6,POSSESSED",
        "3,attackVote,5,7",
        "3,attack,7,true",
        *status(4, roles, {1, 2, 3, 4, 6, 7}, "Lowest"),
        "4,result,0,1,WEREWOLF",
    ]
    told = {k: [p.game_info for p in f.received if p.request is R.DAILY_INITIALIZE] for k, f in enumerate(wrapped, 1)}
    assert [i.medium_result for i in told[3]] == [None, None, Judge(3, 2, 1, A.Species.HUMAN), None]
    assert [i.guarded_agent for i in told[4]] == [-1, -1, 7, 7]
    assert [i.divine_result for i in told[2]] == [None, Judge(2, 1, 1, A.Species.HUMAN),
                                                  Judge(2, 2, 3, A.Species.HUMAN), None]
    assert all(i.medium_result is None and i.guarded_agent == -1 for k in (1, 2, 5, 6, 7) for i in told[k])
    assert [i.last_dead_agent_list for i in told[1]] == [(), (), (2,), (4,)]
    assert [i.executed_agent for i in told[1]] == [-1, -1, 1, 3]
    assert told[6][0].role_map == {6: A.Role.POSSESSED}  # the possessed is not told the wolf
    assert told[5][0].role_map == {5: A.Role.WEREWOLF}
    assert told[1][0].existing_role_list == (  # in the protocol's order
        A.Role.VILLAGER, A.Role.SEER, A.Role.MEDIUM, A.Role.BODYGUARD, A.Role.WEREWOLF, A.Role.POSSESSED)
    finished = {a.me: a.finished for a in agents}
    assert finished[7].day == 4 and finished[7].last_dead_agent_list == (7,) and finished[7].executed_agent == 6
    assert finished[5].attacked_agent == 7 and finished[4].guarded_agent == -1


class Mistaken(Scripted):
    """Says, on day 1, an invalid sentence, a grammatical one about an agent the game does not have,
    then Over with blanks around it."""

    SCRIPT = ["BECAUSE (VOTE Agent[01])", "VOTE Agent[99]", " \tOver\t "]


def test_an_invalid_talk_is_skip_with_its_diagnostic_and_the_meaning_is_not_checked() -> None:
    """docs/aiwolf.md: every utterance is checked with the sentence parser; one that is not grammatical
    counts as Skip, and the incident quotes it with the column, code and message of its first
    diagnostic. As on the reference server the meaning is not checked: VOTE Agent[99] in a game of six
    is said as it is. Blanks around Skip or Over are dropped. The seer Agent[06] of the six says those
    three on day 1 (turns 0 to 2), then Skip, Skip and Over (a third Skip) on day 2."""
    record, _, _, _ = _six(classes={6: Mistaken})
    mine = [tuple(line.split(",", 5)[i] for i in (0, 3, 5)) for line in record.aiwolf_log
            if ",talk," in line and line.split(",")[4] == "6"]
    assert mine == [("1", "0", "Skip"), ("1", "1", "VOTE Agent[99]"), ("1", "2", "Over"),
                    ("2", "0", "Skip"), ("2", "1", "Skip"), ("2", "2", "Over")]
    assert [(i.day, i.agent, i.request, i.problem, i.action) for i in record.incidents] == [
        (1, 6, "TALK", "invalid sentence 'BECAUSE (VOTE Agent[01])': column 1: AW201 BECAUSE takes two sentences "
                       "(the reason, then what follows from it); found 1", "counted as Skip")]


def test_a_role_asked_for_is_given_only_while_it_is_free() -> None:
    """docs/aiwolf.md (enableRoleRequest): before each game every agent is asked ROLE, and each requested
    role is given while it is still free, in the order of the agents. Five agents in a game of a seer,
    two villagers, a werewolf and a possessed: Agent[01] and Agent[02] both ask for SEER (the first
    gets it), Agent[03] asks for BODYGUARD (the game has none), Agent[04] for WEREWOLF, Agent[05] for
    nothing: the three others share what is left, two villagers and the possessed."""
    asked = [A.Role.SEER, A.Role.SEER, A.Role.BODYGUARD, A.Role.WEREWOLF, None]
    agents = [Lowest({}, r) for r in asked]
    record, wrapped = seated(agents, ["seer", "villager", "villager", "werewolf", "possessed"], seed=3)
    assert (record.roles[1], record.roles[4]) == (A.Role.SEER, A.Role.WEREWOLF)
    assert sorted(record.roles[k].value for k in (2, 3, 5)) == ["POSSESSED", "VILLAGER", "VILLAGER"]
    assert all([p.request for p in f.received][:3] == [R.NAME, R.ROLE, R.INITIALIZE] for f in wrapped)


@pytest.mark.parametrize("roles", [["seer", "villager", "werewolf", "villager"],
                                   ["seer", "villager", "werewolf", "villager", "villager", "possessed"]])
def test_a_host_needs_one_role_per_agent(roles: list[str]) -> None:
    """A game's role list has one role per agent: a host of five seats given four or six roles refuses
    to start, saying how many of each it has."""
    from wwrf_adapter.aiwolf.gameinfo import GameSetting
    from wwrf_adapter.aiwolf.host import AiwolfHost
    from wwrf_adapter.aiwolf.seats import AgentSeat

    from .serving import table

    seats = [AgentSeat(Agent()) for _ in range(5)]
    with pytest.raises(ValueError) as info:
        AiwolfHost(table(), seats, GameSetting.standard(5, seed=1), seed=1, role_list=roles)
    assert str(info.value) == f"{len(roles)} roles for 5 agents"


class WhisperSkipper(Lowest):
    """A :class:`Lowest` that whispers Skip, every time."""

    def whisper(self) -> str:
        return "Skip"


@pytest.mark.parametrize("turns, lines", [(1, 2), (2, 4), (20, 6)])
def test_whispers_have_max_whisper_turn_turns_not_max_talk_turn(turns: int, lines: int) -> None:
    """docs/aiwolf.md (the game setting): the wolves' whispers take at most ``maxWhisperTurn`` turns, the
    day's talk ``maxTalkTurn``; a third Skip in a row is Over (maxSkip 2). The five of the night after
    the deciding execution, both wolves whispering Skip: night 0 has ``maxWhisperTurn`` turns of two
    Skips, or, with 20 turns, two turns of Skips and a turn of Overs (6 lines)."""
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.WEREWOLF, A.Role.VILLAGER]
    shared: dict = {}
    agents = [WhisperSkipper(shared, r) for r in roles]
    record, _ = seated(agents, [r.value.lower() for r in roles], seed=5,
                       rules={"max_whisper_turn": turns, "max_talk_turn": 20})
    night0 = [line.split(",") for line in record.aiwolf_log if line.startswith("0,whisper,")]
    assert [r[2] for r in night0] == [str(i) for i in range(lines)]
    assert [(r[3], r[5]) for r in night0] == [(str(t), "Skip" if t < 2 else "Over") for t in range(3) for _ in (3, 4)][:lines]


@pytest.mark.parametrize("turns", [1, 2])
def test_the_talk_has_max_talk_turn_turns_not_max_whisper_turn(turns: int) -> None:
    """The day's talk takes at most ``maxTalkTurn`` turns, whatever ``maxWhisperTurn`` is: the five of
    the night after the deciding execution, Agent[01] talking blanks (Skip), the others Over; with
    ``maxTalkTurn`` 1 or 2 (and ``maxWhisperTurn`` 20) day 1's talk has that many turns of five talks."""
    roles = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.WEREWOLF, A.Role.VILLAGER]
    shared: dict = {}
    agents = [(Blank if k == 1 else Lowest)(shared, r) for k, r in enumerate(roles, 1)]
    record, _ = seated(agents, [r.value.lower() for r in roles], seed=5,
                       rules={"max_talk_turn": turns, "max_whisper_turn": 20})
    day1 = [line.split(",") for line in record.aiwolf_log if line.startswith("1,talk,")]
    assert sorted(int(r[3]) for r in day1) == sorted(list(range(turns)) * 5)
    assert [r[5] for r in day1 if r[4] == "1"] == ["Skip"] * turns


def test_an_agent_next_to_a_lost_seat_is_still_asked_to_talk() -> None:
    """docs/aiwolf.md: only the seat whose connection is lost is played by the host (it says Over);
    every other agent is still asked. The six of the game above, Agent[02] closing its connection at
    DAILY_FINISH of day 1 and Agent[03] talking blanks (Skip): on day 2 (Agent[02] was killed in the
    night) Agent[03] is asked TALK and says Skip, Skip, then Over (a third Skip in a row)."""
    record, _, wrapped, _ = _six(faults={2: Fault("disconnect", Request.DAILY_FINISH, day=1)}, classes={3: Blank})
    assert "1,execute,1,VILLAGER" in record.aiwolf_log and "1,attack,2,true" in record.aiwolf_log
    day2 = [(r[3], r[5]) for r in (line.split(",", 5) for line in record.aiwolf_log)
            if r[:2] == ["2", "talk"] and r[4] == "3"]
    assert day2 == [("0", "Skip"), ("1", "Skip"), ("2", "Over")]
    assert [p.request for p in wrapped[2].received].count(R.TALK) == 3 + 3  # day 1: Skip, Skip, Over; day 2 the same
