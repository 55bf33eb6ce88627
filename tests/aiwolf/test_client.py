"""The client library against the in-test fake server (localhost TCP, spec §2), and the bundled agents."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.agents import RandomAgent, RuleAgent
from wwrf_adapter.aiwolf.client import Agent, Session, run_agent
from wwrf_adapter.aiwolf.gameinfo import GameInfo, GameSetting, Status, Talk
from wwrf_adapter.aiwolf.jsoncodec import ProtocolError
from wwrf_adapter.aiwolf.lines import LineTooLong
from wwrf_adapter.aiwolf.meaning import check_meaning
from wwrf_adapter.aiwolf.packets import Packet, Request, encode_packet
from wwrf_adapter.aiwolf.parser import parse

from .fake_server import FakeServer

ROOT = Path(__file__).resolve().parents[2]


def play(agents: list[Agent], games: int = 1, seed: int = 0) -> FakeServer:
    server = FakeServer(len(agents), games, seed).start()
    errors: list[BaseException] = []
    played: list[int] = []

    def run(agent: Agent) -> None:
        try:
            played.append(run_agent(agent, "127.0.0.1", server.port, log=lambda m: errors.append(RuntimeError(m))))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(a,), daemon=True) for a in agents]
    for t in threads:
        t.start()
    server.join()
    for t in threads:
        t.join(30)
    assert server.problems == []
    assert errors == []
    assert played == [games] * len(agents)
    assert len(server.winners) == games
    return server


def seeded(cls: type[Agent], n: int, seed: int) -> list[Agent]:
    agents = [cls() for _ in range(n)]
    for i, a in enumerate(agents):
        a.rng.seed(seed * 100 + i)
    return agents


def assert_all_talk_valid(server: FakeServer) -> None:
    for s in server.said:
        g = server.played[s.game]
        context = g.setting.context(day=s.day)
        result = parse(s.text)
        assert result.ok, (s, result.diagnostics)
        assert result.utterance is not None
        assert check_meaning(result.utterance, context) == [], s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_five_rule_agents_play_a_game_and_talk_about_their_roles(seed: int) -> None:
    server = play(seeded(RuleAgent, 5, seed), seed=seed)
    assert_all_talk_valid(server)
    g = server.played[0]
    (seer,) = [a for a, r in g.roles.items() if r is A.Role.SEER]
    seer_day1 = [s.text for s in server.said if s.agent == seer and s.day == 1]
    assert seer_day1 and seer_day1[0] == f"COMINGOUT {A.Agent(seer)} SEER"
    # the day-0 divination is reported on day 1, with the species the server gave
    reports = [t for t in seer_day1 if t.startswith("DIVINED ")]
    assert len(reports) == 1
    target, species = re.fullmatch(r"DIVINED Agent\[(\d+)\] (\w+)", reports[0]).groups()  # type: ignore[union-attr]
    assert species == ("WEREWOLF" if g.roles[int(target)] is A.Role.WEREWOLF else "HUMAN")
    names = set(server.names.values())
    assert names == {"RuleAgent"}
    # everyone with talks left declares a vote on day 1
    declared = {s.agent for s in server.said if s.day == 1 and "VOTE Agent[" in s.text}
    assert len(declared) >= 3


def test_seer_votes_on_a_werewolf_it_found() -> None:
    for seed in range(40):
        server = play(seeded(RuleAgent, 5, seed), seed=seed)
        g = server.played[0]
        (seer,) = [a for a, r in g.roles.items() if r is A.Role.SEER]
        (wolf,) = [a for a, r in g.roles.items() if r is A.Role.WEREWOLF]
        said = [s.text for s in server.said if s.agent == seer and s.day == 1]
        if f"DIVINED {A.Agent(wolf)} WEREWOLF" not in said:
            continue
        assert f"BECAUSE (DIVINED {A.Agent(wolf)} WEREWOLF) (VOTE {A.Agent(wolf)})" in said
        assert f"REQUEST ANY (VOTE {A.Agent(wolf)})" in said
        first_votes = [e for e in server.exchanges if e.agent == seer and e.request is Request.VOTE]
        assert first_votes[0].reply == wolf
        return
    pytest.fail("in 40 seeded games the seer never found the werewolf on day 0")


def test_fifteen_rule_agents_with_whispers_medium_and_bodyguard() -> None:
    server = play(seeded(RuleAgent, 15, 8), seed=8)
    assert_all_talk_valid(server)
    g = server.played[0]
    (medium,) = [a for a, r in g.roles.items() if r is A.Role.MEDIUM]
    medium_said = [s.text for s in server.said if s.agent == medium]
    assert f"COMINGOUT {A.Agent(medium)} MEDIUM" in medium_said
    assert any(t.startswith("IDENTIFIED Agent[") for t in medium_said)
    claims = {s.text for s in server.said if s.text.startswith("COMINGOUT")}
    assert len(claims) == 3  # the seer, the medium, and the possessed claiming to be the seer
    whispers = [s for s in server.said if s.channel == "whisper"]
    assert whispers and all(parse(s.text).ok for s in whispers)
    assert any(s.text.startswith("ATTACK Agent[") for s in whispers)
    requests = {e.request for e in server.exchanges}
    assert {Request.GUARD, Request.DIVINE, Request.ATTACK, Request.WHISPER, Request.VOTE} <= requests


def test_random_agents_say_only_valid_sentences_over_several_games() -> None:
    server = play(seeded(RandomAgent, 5, 3), games=3, seed=11)
    assert_all_talk_valid(server)
    kinds = {parse(s.text).utterance.__class__.__name__ for s in server.said}  # type: ignore[union-attr]
    assert len(kinds) >= 6


def test_mixed_agents_fifteen_players() -> None:
    agents = seeded(RuleAgent, 8, 5) + seeded(RandomAgent, 7, 6)
    assert_all_talk_valid(play(agents, seed=5))


@pytest.mark.parametrize("players", [5, 15])
def test_agent_processes_through_the_command_line(players: int) -> None:
    server = FakeServer(players, games=1, seed=21).start()
    cmd = [sys.executable, "-m", "wwrf_adapter.aiwolf.cli", "agent", "wwrf_adapter.aiwolf.agents:RuleAgent",
           "--host", "127.0.0.1", "--port", str(server.port), "--retry", "10"]
    procs = [subprocess.Popen(cmd + ["--seed", str(i), "--name", f"rule{i}"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(players)]
    outs = [p.communicate(timeout=120) for p in procs]
    server.join()
    assert server.problems == []
    assert [p.returncode for p in procs] == [0] * players, outs
    assert sorted(server.names.values()) == sorted(f"rule{i}" for i in range(players))
    for out, err in outs:
        assert out == "" and re.fullmatch(r"aiwolf agent: rule\d+ played Agent\[\d\d\] as \w+; day \d+: "
                                          r"the (villagers|werewolves) won\n", err), err


# ---------------------------------------------------------------- the session, without a network


def _info(agent: int = 1, day: int = 0, talks: tuple[Talk, ...] = ()) -> GameInfo:
    return GameInfo(agent, day, {1: Status.ALIVE, 2: Status.ALIVE, 3: Status.DEAD}, {1: A.Role.SEER},
                    talk_list=talks)


class Recorder(Agent):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.heard: list[str] = []

    def initialize(self) -> None:
        self.calls.append("initialize")

    def day_start(self) -> None:
        self.calls.append(f"day_start {self.day}")

    def update(self, talks: list[Talk], whispers: list[Talk]) -> None:
        self.heard += [t.text for t in talks + whispers]

    def talk(self) -> A.Utterance:
        return A.ActionSentence("VOTE", None, A.Agent(2))

    def vote(self) -> int:
        raise RuntimeError("boom")

    def finish(self) -> None:
        self.calls.append("finish")


def test_session_replies_only_where_a_reply_is_expected() -> None:
    agent = Recorder()
    logged: list[str] = []
    s = Session(agent, logged.append)
    assert s.handle(Packet(Request.NAME)) == "Recorder\n"
    assert s.handle(Packet(Request.ROLE)) == "none\n"
    assert s.handle(Packet(Request.INITIALIZE, _info(), GameSetting.standard(5))) is None
    assert agent.me == 1 and agent.role is A.Role.SEER and agent.setting is not None
    assert s.handle(Packet(Request.DAILY_INITIALIZE, _info(day=1))) is None
    t1 = Talk(0, 1, 0, 2, "COMINGOUT Agent[02] SEER")
    assert s.handle(Packet(Request.TALK, talk_history=(t1,))) == "VOTE Agent[02]\n"
    # the same talk again (in a full gameInfo) is not heard twice
    assert s.handle(Packet(Request.WHISPER, _info(day=1, talks=(t1,)), whisper_history=())) == "Over\n"
    assert agent.heard == ["COMINGOUT Agent[02] SEER"] and agent.talks == [t1]
    # an agent's exception gives the default choice (a living other agent) and one log line
    assert s.handle(Packet(Request.VOTE)) == '{"agentIdx":2}\n'
    assert len(logged) == 1 and "Recorder.vote failed" in logged[0] and "RuntimeError: boom" in logged[0]
    assert "test_client.py:" in logged[0]
    assert s.handle(Packet(Request.DAILY_FINISH, _info(day=1))) is None
    assert s.handle(Packet(Request.FINISH, _info(day=1))) is None
    assert s.handle(Packet(Request.FINISH, _info(day=1))) is None  # a second FINISH is ignored
    assert agent.calls == ["initialize", "day_start 1", "finish"] and s.games_finished == 1


def test_session_rejects_wrong_results_and_protocol_misuse() -> None:
    class Bad(Agent):
        def talk(self) -> str:
            return None  # type: ignore[return-value]

        def divine(self) -> int:
            return True  # type: ignore[return-value]

        def get_name(self) -> str:
            return 42  # type: ignore[return-value]

    logged: list[str] = []
    s = Session(Bad(), logged.append)
    assert s.handle(Packet(Request.NAME)) == "Bad\n"
    with pytest.raises(ProtocolError):
        s.handle(Packet(Request.TALK))  # before any gameInfo
    with pytest.raises(ProtocolError):
        s.handle(Packet(Request.INITIALIZE, _info()))  # no gameSetting
    s.handle(Packet(Request.INITIALIZE, _info(), GameSetting.standard(5)))
    assert s.handle(Packet(Request.TALK)) == "Skip\n"
    assert s.handle(Packet(Request.DIVINE)) == '{"agentIdx":2}\n'
    assert len(logged) == 3 and all("returned" in m for m in logged)


# ---------------------------------------------------------------- servers that break the protocol


def _one_shot_server(payload: bytes) -> int:
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with listener:
            conn, _ = listener.accept()
            with conn:
                conn.sendall(payload)
                conn.shutdown(socket.SHUT_WR)
                conn.recv(1024)

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1]


def test_an_overlong_line_ends_the_connection_with_an_error() -> None:
    port = _one_shot_server(b"{" + b" " * 5000)
    with pytest.raises(LineTooLong):
        run_agent(Agent(), "127.0.0.1", port, limit=1000)


def test_bad_json_is_a_protocol_error() -> None:
    port = _one_shot_server(b'{"request":"NAME"\n')
    with pytest.raises(ProtocolError):
        run_agent(Agent(), "127.0.0.1", port)


def test_a_server_that_closes_ends_the_run_normally() -> None:
    port = _one_shot_server(encode_packet(Packet(Request.NAME)).encode())
    assert run_agent(Agent(), "127.0.0.1", port) == 0
