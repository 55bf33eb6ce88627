"""Agents that break the rules do not stop a game: a late reply, a garbage line, an invalid sentence, a
10 MB line, a disconnect mid-game, a line nobody asked for. Each game still finishes with a legal
AIWolf log, and the game log says what happened."""

from __future__ import annotations

import socket
import threading
import time

from wwrf_adapter.aiwolf.gameinfo import Talk
from wwrf_adapter.aiwolf.lines import SocketLines
from wwrf_adapter.aiwolf.packets import Packet, Request
from wwrf_adapter.aiwolf.seats import RemoteSeat
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import Fault, FaultyAgent, Running, assert_finished_and_legal, incidents, talk_of

LIMIT = 400  # ms (replies of a healthy agent take a few ms, even on a busy machine)


def play(fault: Fault, games: int = 2, **kw: object):
    run = Running(ServeConfig(5, games=games, agents=1, wait=10, seed=3, time_limit=LIMIT))
    agent = FaultyAgent(run.port, fault, **kw)  # type: ignore[arg-type]
    t = agent.start()
    records = run.join()
    t.join(10)
    assert agent.error is None, agent.error
    assert fault.done, "the fault never happened"
    for r in records:
        assert_finished_and_legal(r)
    return records, agent


def test_a_late_reply_is_drawn_at_random_and_discarded_when_it_comes() -> None:
    records, agent = play(Fault("late", Request.VOTE, day=1), late=0.9)
    first = incidents(records[0], 1)
    assert any(f"VOTE: late: no reply within {LIMIT} ms -> drawn at random: Agent[" in i for i in first), first
    later = first + incidents(records[1], 1)  # the late line is read at the agent's next request
    assert any("a late reply arrived and was discarded" in i for i in later), later
    log = records[0].game_log["aiwolf"]["incidents"]
    assert log[0]["agent"] == 1 and log[0]["request"] == "VOTE" and log[0]["day"] == 1
    # the late reply never stands in for a later one: every later talk is what the agent said
    said = {(day, line) for req, day, line in agent.sent if req is Request.TALK}
    for r in records:
        for day, text in talk_of(r, 1):
            assert text in ("Skip", "Over") or (day, text) in said
        assert not any("invalid sentence" in i for i in incidents(r, 1))
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "remote"  # still connected
    # while it sleeps, the next requests are late too; nothing else goes wrong
    assert all("late" in i for i in incidents(records[1], 1))


def test_a_garbage_vote_is_drawn_at_random() -> None:
    records, _ = play(Fault("garbage", Request.VOTE, day=1))
    (first,) = [i for i in incidents(records[0], 1) if i.startswith("VOTE")]
    assert "a malformed reply" in first and "drawn at random: Agent[" in first


def test_a_garbage_talk_line_is_skip() -> None:
    records, agent = play(Fault("garbage", Request.TALK, day=1))
    (first,) = incidents(records[0], 1)
    assert first.startswith("TALK: invalid sentence '}{ not json") and first.endswith("-> counted as Skip")
    assert talk_of(records[0], 1)[0] == (1, "Skip")


def test_an_invalid_sentence_is_skip_with_its_diagnostic() -> None:
    records, agent = play(Fault("invalid", Request.TALK, day=1))
    (first,) = incidents(records[0], 1)
    assert "invalid sentence 'BECAUSE (VOTE Agent[01])'" in first and "AW201" in first
    assert "counted as Skip" in first
    assert talk_of(records[0], 1)[0] == (1, "Skip")


def test_a_10_mb_line_ends_that_connection_only() -> None:
    records, agent = play(Fault("huge", Request.TALK, day=1))
    first = incidents(records[0], 1)
    assert any("connection lost: a line longer than 65536 bytes" in i for i in first), first
    assert any("the host plays this seat" in i for i in first)
    assert all(text == "Over" for day, text in talk_of(records[0], 1)[1:])
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "builtin"
    assert records[1].incidents == []


def test_a_disconnect_mid_game() -> None:
    run = Running(ServeConfig(5, games=2, agents=1, wait=10, seed=3, time_limit=LIMIT))
    agent = FaultyAgent(run.port, Fault("disconnect", Request.DAILY_FINISH, day=1))
    t = agent.start()
    records = run.join()
    t.join(10)
    assert agent.error is None and agent.fault.done
    for r in records:
        assert_finished_and_legal(r)
    first = incidents(records[0], 1)
    assert any("the connection is lost (it closed the connection)" in i for i in first)
    # every agent is alive on day 1: the vote of Agent[01] is the host's, and the log has it
    assert any(i.startswith("VOTE: ") and "the seat is played by the host -> drawn at random" in i for i in first), first
    assert any(line.startswith("1,vote,1,") for line in records[0].aiwolf_log)
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "builtin"
    assert any("Agent[01]" in m and "has left" in m for m in run.reports)


def test_a_line_nobody_asked_for_is_ignored() -> None:
    records, _ = play(Fault("stray", Request.INITIALIZE))
    first = incidents(records[0], 1)
    assert first and all("a line nobody asked for was ignored: 'hello, nobody asked'" in i for i in first), first


def test_an_agent_that_never_answers_name_does_not_take_a_seat() -> None:
    run = Running(ServeConfig(5, games=1, agents=1, wait=3, seed=3, time_limit=LIMIT))
    silent = socket.create_connection(("127.0.0.1", run.port))
    records = run.join()
    silent.close()
    assert_finished_and_legal(records[0])
    assert [a["seat"] for a in records[0].game_log["aiwolf"]["agents"]] == ["builtin"] * 5
    assert any("did not answer NAME/ROLE" in m for m in run.reports)


def test_an_agent_that_floods_lines_nobody_asked_for_is_dropped() -> None:
    run = Running(ServeConfig(15, games=1, agents=1, wait=10, seed=3, time_limit=LIMIT))
    sock = socket.create_connection(("127.0.0.1", run.port))
    lines = SocketLines(sock)
    assert "NAME" in (lines.readline() or "")
    sock.sendall(b"flooder\n")
    assert "ROLE" in (lines.readline() or "")
    sock.sendall(b"none\n")
    stop = threading.Event()

    def spam() -> None:
        while not stop.is_set():
            try:
                sock.sendall(b"spam\n" * 20)
            except OSError:
                return
            time.sleep(0.001)

    spammer = threading.Thread(target=spam, daemon=True)
    spammer.start()
    records = run.join()
    stop.set()
    sock.close()
    assert_finished_and_legal(records[0])
    first = incidents(records[0], 1)
    assert any("connection lost: more than 50 lines nobody asked for" in i for i in first), first
    assert len([i for i in first if "nobody asked for was ignored" in i]) <= 51


def test_a_connection_that_reads_nothing_is_dropped_when_a_write_blocks() -> None:
    a, b = socket.socketpair()
    with b:
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        seat = RemoteSeat(a, time_limit_ms=50)
        packet = Packet(Request.DAILY_FINISH, talk_history=tuple(Talk(i, 1, 0, 1, "Over") for i in range(500)))
        started = time.monotonic()
        for _ in range(1000):
            seat.tell(packet)
            if not seat.connected:
                break
        assert not seat.connected and time.monotonic() - started < 5
        assert seat.lost == "it read nothing for 50 ms (the server could not write)"
        assert seat.ask(Packet(Request.VOTE)).problem.startswith("disconnected")


def test_an_agent_that_stays_silent_is_dropped_after_five_late_replies() -> None:
    a, b = socket.socketpair()
    with b:
        seat = RemoteSeat(a, time_limit_ms=20)
        answers = [seat.ask(Packet(Request.TALK, talk_history=())) for _ in range(6)]
        assert [x.problem for x in answers[:5]] == ["late: no reply within 20 ms"] * 5
        assert not seat.connected and seat.lost == "no reply to 5 requests in a row"
        assert answers[5].problem == "disconnected (no reply to 5 requests in a row)"
