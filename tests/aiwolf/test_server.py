"""``aiwolf serve`` in-process: whole games in the engine, the packets agents get (spec §2), the talk
rules and the results (spec §3), the AIWolf log (spec §4)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.client import Agent
from wwrf_adapter.aiwolf.gameinfo import Status
from wwrf_adapter.aiwolf.packets import Request
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import Fault, FaultyAgent, Running, agent_thread, assert_finished_and_legal, roles_of

KEYS = ["request", "gameInfo", "gameSetting", "talkHistory", "whisperHistory"]


@pytest.mark.parametrize("players, fill", [(5, "rule"), (15, "rule"), (5, "random"), (15, "random")])
def test_built_in_agents_play_whole_games(players: int, fill: str) -> None:
    records = Running(ServeConfig(players, games=3, agents=0, wait=0, fill=fill, seed=players)).join()
    assert len(records) == 3
    for r in records:
        assert_finished_and_legal(r)
        assert r.incidents == []
        assert sorted(Counter(r.roles.values()).items()) == sorted(
            {5: {A.Role.SEER: 1, A.Role.POSSESSED: 1, A.Role.WEREWOLF: 1, A.Role.VILLAGER: 2},
             15: {A.Role.SEER: 1, A.Role.MEDIUM: 1, A.Role.BODYGUARD: 1, A.Role.POSSESSED: 1,
                  A.Role.WEREWOLF: 3, A.Role.VILLAGER: 8}}[players].items())
        assert r.game_log["error"] is None and r.game_log["deal"] is False


def test_a_game_is_determined_by_its_seed() -> None:
    one = Running(ServeConfig(15, games=2, agents=0, wait=0, seed=4)).join()
    two = Running(ServeConfig(15, games=2, agents=0, wait=0, seed=4)).join()
    other = Running(ServeConfig(15, games=2, agents=0, wait=0, seed=5)).join()
    assert [r.aiwolf_log for r in one] == [r.aiwolf_log for r in two]
    assert [r.aiwolf_log for r in one] != [r.aiwolf_log for r in other]
    assert one[0].aiwolf_log != one[1].aiwolf_log


def test_the_engine_log_replays_the_same_game() -> None:
    from .serving import table

    (record,) = Running(ServeConfig(15, games=1, agents=0, wait=0, seed=9)).join()
    replayed = table().replay(record.game_log)
    alive = {p["idx"] + 1 for p in replayed.state["players"] if p["alive"]}
    assert replayed.state["over"] and alive == {int(line.split(",")[2]) for line in record.aiwolf_log
                                                if line.startswith(f"{record.day},status,") and ",ALIVE," in line}
    assert {"villagers": "VILLAGER", "werewolves": "WEREWOLF"}[replayed.state["winner"]] == record.winner


def test_a_role_list_of_another_size() -> None:
    roles = ["seer", "medium", "bodyguard", "werewolf", "werewolf", "possessed", "villager"]
    records = Running(ServeConfig(7, games=4, agents=0, wait=0, roles=roles, seed=3)).join()
    kinds: Counter[str] = Counter()
    for r in records:
        assert_finished_and_legal(r)
        assert len(r.roles) == 7 and len(roles_of(r, A.Role.WEREWOLF)) == 2
        kinds.update(line.split(",")[1] for line in r.aiwolf_log)
    assert kinds["whisper"] > 0 and kinds["guard"] > 0 and kinds["divine"] > 0 and kinds["execute"] > 0


def _games(packets: list) -> list[list]:
    """The packets of each game, from INITIALIZE to FINISH; each game is preceded by one ROLE (role
    requests are on), asked before the deal."""
    games: list[list] = []
    for i, p in enumerate(packets):
        if p.request is Request.INITIALIZE:
            assert packets[i - 1].request is Request.ROLE
            games.append([])
        if games and p.request is not Request.ROLE:
            games[-1].append(p)
    return games


def test_the_packets_an_agent_gets() -> None:
    run = Running(ServeConfig(5, games=3, agents=1, wait=10, seed=2))
    me = FaultyAgent(run.port, Fault("none", Request.NAME))
    t = me.start()
    records = run.join()
    t.join(10)
    assert me.error is None
    for line in me.raw:  # one line of compact JSON with the five keys in order
        assert list(json.loads(line)) == KEYS and ": " not in line[:40]
    assert [p.request for p in me.received[:2]] == [Request.NAME, Request.ROLE]
    assert me.received[0].game_info is None and me.received[0].game_setting is None
    games = _games(me.received)
    assert len(games) == 3
    for record, packets in zip(records, games):
        assert_finished_and_legal(record)
        first, last = packets[0], packets[-1]
        assert first.game_info is not None and first.game_setting is not None
        assert first.game_setting.player_num == 5 and first.game_setting.time_limit == 1000
        assert first.game_info.role_map == {1: record.roles[1]}
        assert last.request is Request.FINISH and last.game_info.role_map == record.roles
        days = [p.game_info.day for p in packets if p.request is Request.DAILY_INITIALIZE]
        assert days == list(range(len(days))) and days[-1] in (record.day, record.day - 1)
        assert [p.request for p in packets].count(Request.DAILY_FINISH) == len(days)
        day = 0
        for p in packets:
            if p.request is Request.DAILY_INITIALIZE:
                day = p.game_info.day
                assert p.game_info.talk_list == ()
            if p.request is Request.TALK:
                assert day >= 1 and p.game_info is None and p.talk_history is not None
            if p.request is Request.VOTE:
                assert day >= 1
                assert (p.game_info is None) or p.game_info.latest_vote_list, "a full gameInfo only for a revote"
            if p.request in (Request.DIVINE, Request.GUARD, Request.ATTACK) and p.game_info is not None:
                assert p.game_info.latest_executed_agent > 0 or p.game_info.latest_attack_vote_list
        me_alive = [p.game_info.status_map[1] for p in packets if p.request is Request.DAILY_INITIALIZE]
        assert me_alive[0] is Status.ALIVE


class Asks(Agent):
    """Asks for a role, and keeps every game's divine and medium results."""

    def __init__(self, role: A.Role) -> None:
        super().__init__()
        self.requested_role = role
        self.results: list[tuple[int, int, int, A.Species]] = []  # (day told, judged day, target, species)
        self.finals: list[dict[int, A.Role]] = []

    def day_start(self) -> None:
        assert self.info is not None
        for judge in (self.info.divine_result, self.info.medium_result):
            if judge is not None:
                assert judge.agent == self.me
                self.results.append((self.info.day, judge.day, judge.target, judge.result))

    def finish(self) -> None:
        assert self.info is not None
        self.finals.append(dict(self.info.role_map))
        self.results.append((-1, -1, -1, A.Species.ANY))  # a game ends


@pytest.mark.parametrize("role, verb", [(A.Role.SEER, "divine"), (A.Role.MEDIUM, "execute")])
def test_requested_roles_and_results_told_the_next_day(role: A.Role, verb: str) -> None:
    run = Running(ServeConfig(15, games=3, agents=1, wait=10, seed=6))
    me = Asks(role)
    errors: list[BaseException] = []
    t = agent_thread(me, run.port, errors)
    records = run.join()
    t.join(10)
    assert errors == []
    per_game: list[list] = [[]]
    for item in me.results:
        if item[0] == -1:
            per_game.append([])
        else:
            per_game[-1].append(item)
    for record, told, roles in zip(records, per_game, me.finals):
        assert_finished_and_legal(record)
        assert record.roles[1] is role
        lines = [line.split(",") for line in record.aiwolf_log if line.split(",")[1] == verb]
        if verb == "divine":
            # told the next day, and dated that day (as the reference server dates it)
            expected = [(int(d) + 1, int(d) + 1, int(t), A.Species(s)) for d, _, seer, t, s in lines if seer == "1"]
        else:  # the medium hears of every execution it lived to see the next day of
            expected = [(int(d) + 1, int(d) + 1, int(a), A.Species.WEREWOLF if r == "WEREWOLF" else A.Species.HUMAN)
                        for d, _, a, r in lines]
        expected = [e for e in expected if e[0] <= max([x[0] for x in told], default=0)]
        assert told == expected and told
        for _, _, target, species in told:
            assert (species is A.Species.WEREWOLF) == (roles[target] is A.Role.WEREWOLF)


class Chatter(Agent):
    def talk(self) -> str:
        return f"ESTIMATE {A.Agent(self.random_other() or 1)} VILLAGER"


class Skipper(Agent):
    def talk(self) -> A.Utterance:
        return A.SKIP


def test_talk_turns_limits_skips_and_overs() -> None:
    run = Running(ServeConfig(5, games=2, agents=3, wait=10, seed=11))
    errors: list[BaseException] = []
    threads = [agent_thread(a, run.port, errors) for a in (Chatter(), Skipper(), Agent())]
    records = run.join()
    for t in threads:
        t.join(10)
    assert errors == []
    for r in records:
        assert_finished_and_legal(r)
        talks: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
        for line in r.aiwolf_log:
            day, kind, *rest = line.split(",", 5)
            if kind == "talk":
                idx, turn, agent, text = rest[0], rest[1], rest[2], rest[3]
                talks[int(day)].append((int(turn), int(agent), text))
        assert talks and 0 not in talks
        number = {name: a for a, name in r.names.items()}
        chat, skip, quiet = number["Chatter"], number["Skipper"], number["Agent"]
        for day, items in talks.items():
            chatter = [t for t in items if t[1] == chat and t[2] != "Over"]
            assert len(chatter) in (0, 10) and all(t[2].startswith("ESTIMATE") for t in chatter)  # maxTalk
            # with no talks left it is not asked, yet an Over stands for it in every later turn
            assert all(t[2] == "Over" for t in items if t[1] == chat and t[0] >= 10)
            skipper = [t[2] for t in items if t[1] == skip]
            runs = "".join("S" if t == "Skip" else "O" if t == "Over" else "x" for t in skipper)
            assert "SSS" not in runs and runs.startswith("SSO") or not runs  # maxSkip 2: the third Skip is Over
            assert all(t[2] == "Over" for t in items if t[1] == quiet)  # the base class says Over
            by_turn: dict[int, list[int]] = defaultdict(list)
            for turn, agent, _ in items:
                by_turn[turn].append(agent)
            for turn, speakers in by_turn.items():
                assert len(speakers) == len(set(speakers))  # each agent once a turn
                assert len(speakers) == len({a for t, a, _ in items})  # every living agent, every turn
            last = max(by_turn)
            assert last == 19 or all(text == "Over" for turn, _, text in items if turn == last)
            assert all(any(text != "Over" for turn, _, text in items if turn == t) for t in range(last))
            if chatter:
                assert last >= 10  # the talk goes on while the chatter has talks left


class TieVoter(Agent):
    """On day 1 votes for ``target``."""

    def __init__(self, target: int) -> None:
        super().__init__()
        self.target = target

    def vote(self) -> int | None:
        return self.target if self.day == 1 else self.random_other()


def test_a_tied_vote_is_voted_again_with_the_latest_votes_then_drawn() -> None:
    from wwrf_adapter.aiwolf.gameinfo import GameSetting
    from wwrf_adapter.aiwolf.host import AiwolfHost
    from wwrf_adapter.aiwolf.seats import AgentSeat

    from .serving import table

    agents = [TieVoter(t) for t in (3, 3, 1, 1, 2)]  # day 1: Agent[01] and Agent[03] 2 votes each
    seen: list = []
    seats = [AgentSeat(a) for a in agents]
    original = seats[0].session.handle

    def spy(packet):  # what Agent[01] is sent
        seen.append(packet)
        return original(packet)

    seats[0].session.handle = spy  # type: ignore[method-assign]
    roles = ["villager", "villager", "possessed", "seer", "werewolf"]
    record = AiwolfHost(table(), seats, GameSetting.standard(5, seed=1), seed=1, role_list=roles).run()
    assert_finished_and_legal(record)
    day1 = [line for line in record.aiwolf_log if line.startswith("1,vote,")]
    assert day1 == ["1,vote,1,3", "1,vote,2,3", "1,vote,3,1", "1,vote,4,1", "1,vote,5,2"] * 2
    (execute,) = [line for line in record.aiwolf_log if line.startswith("1,execute,")]
    assert execute.split(",")[2] in ("1", "3")
    votes = [p for p in seen if p.request is Request.VOTE]
    assert votes[0].game_info is None
    revote = votes[1].game_info
    assert revote is not None and [(v.agent, v.target) for v in revote.latest_vote_list] == \
        [(1, 3), (2, 3), (3, 1), (4, 1), (5, 2)]
