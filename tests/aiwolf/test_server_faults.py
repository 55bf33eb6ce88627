"""Agents that break the rules do not stop a game: a late reply, a garbage line, an invalid sentence, a
10 MB line, a disconnect mid-game, a line nobody asked for. Each game still finishes with a legal
AIWolf log, and the game log says what happened.

No test depends on timing: the faulty agent synchronises on the packets it receives (a late reply is
held until the next packet proves the server gave up on it), a stray line goes out in the same write
as a reply, and the time limit is far above what a healthy reply takes on a loaded machine."""

from __future__ import annotations

import socket
import threading
import time

from wwrf_adapter.aiwolf.gameinfo import Talk
from wwrf_adapter.aiwolf.lines import SocketLines
from wwrf_adapter.aiwolf.packets import Packet, Request, encode_packet
from wwrf_adapter.aiwolf.seats import CLOSED, STRAY_LIMIT, RemoteSeat
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import STRAY, Fault, FaultyAgent, Running, assert_finished_and_legal, incidents, talk_of

LIMIT = 2000  # ms: only the late reply of the test below takes it; a healthy reply takes a few ms


def play(fault: Fault, games: int = 2):
    run = Running(ServeConfig(5, games=games, agents=1, wait=10, seed=3, time_limit=LIMIT))
    agent = FaultyAgent(run.port, fault)
    t = agent.start()
    records = run.join()
    t.join(10)
    assert agent.error is None, agent.error
    assert fault.done, "the fault never happened"
    for r in records:
        assert_finished_and_legal(r)
    return records, agent, run


def test_a_late_reply_is_drawn_at_random_and_discarded_when_it_comes() -> None:
    records, agent, _ = play(Fault("late", Request.VOTE, day=1))
    first = incidents(records[0], 1)
    assert first[0].startswith(f"VOTE: late: no reply within {LIMIT} ms -> drawn at random: Agent["), first
    log = records[0].game_log["aiwolf"]["incidents"]
    assert log[0]["agent"] == 1 and log[0]["request"] == "VOTE" and log[0]["day"] == 1
    # the late reply is discarded when it comes, at the agent's next request (this game or the next),
    # and nothing else goes wrong
    (late,) = [line for game, req, day, line in agent.sent if (game, req, day) == (1, Request.VOTE, 1)][:1]
    rest = first[1:] + incidents(records[1], 1)
    assert len(rest) == 1 and f": a late reply arrived and was discarded: {late!r} -> ignored" in rest[0], rest
    # the late reply never stands in for a later one: every later talk is what the agent said
    for r in records:
        said = [(day, line) for game, req, day, line in agent.sent if game == r.number and req is Request.TALK]
        assert talk_of(r, 1) == said
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "remote"  # still connected


def test_a_garbage_vote_is_drawn_at_random() -> None:
    records, _, _ = play(Fault("garbage", Request.VOTE, day=1))
    (first,) = incidents(records[0], 1)
    assert first.startswith("VOTE: a malformed reply '}{ not json") and "drawn at random: Agent[" in first
    assert incidents(records[1], 1) == []


def test_a_garbage_talk_line_is_skip() -> None:
    records, _, _ = play(Fault("garbage", Request.TALK, day=1))
    (first,) = incidents(records[0], 1)
    assert first.startswith("TALK: invalid sentence '}{ not json") and first.endswith("-> counted as Skip")
    assert talk_of(records[0], 1)[0] == (1, "Skip")
    assert incidents(records[1], 1) == []


def test_an_invalid_sentence_is_skip_with_its_diagnostic() -> None:
    records, _, _ = play(Fault("invalid", Request.TALK, day=1))
    (first,) = incidents(records[0], 1)
    assert "invalid sentence 'BECAUSE (VOTE Agent[01])'" in first and "AW201" in first
    assert "counted as Skip" in first
    assert talk_of(records[0], 1)[0] == (1, "Skip")


def test_a_10_mb_line_ends_that_connection_only() -> None:
    records, _, run = play(Fault("huge", Request.TALK, day=1))
    first = incidents(records[0], 1)
    assert first[0].startswith("TALK: connection lost: a line longer than 65536 bytes"), first
    assert first[1].startswith("TALK: the connection is lost (a line longer than 65536 bytes")
    assert first[1].endswith("-> the host plays this seat for the rest of the game (random choices, Over)")
    assert first[2:] and all(": the seat is played by the host -> " in i for i in first[2:]), first
    assert talk_of(records[0], 1)[0] == (1, "Over")
    assert all(text == "Over" for day, text in talk_of(records[0], 1))
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "builtin"
    assert records[1].incidents == []
    assert any("Agent[01]" in m and "has left" in m for m in run.reports)


def test_a_disconnect_mid_game() -> None:
    records, _, run = play(Fault("disconnect", Request.DAILY_FINISH, day=1))
    # the next request (every agent is alive on day 1 and votes) finds the connection closed,
    # whether the kernel reports an end of file, a reset or a broken pipe
    assert incidents(records[0], 1) == [
        f"VOTE: connection lost: {CLOSED} -> ignored",
        f"VOTE: the connection is lost ({CLOSED}) -> the host plays this seat for the rest of the game "
        "(random choices, Over)",
        incidents(records[0], 1)[2],
    ]
    assert incidents(records[0], 1)[2].startswith("VOTE: the seat is played by the host -> drawn at random: Agent[")
    assert any(line.startswith("1,vote,1,") for line in records[0].aiwolf_log)
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "builtin"
    assert records[1].incidents == []
    assert [m for m in run.reports if "has left" in m] == [
        f"game 2: Agent[01] ({records[0].names[1]}) has left; a built-in agent plays its seat"]


def test_a_line_nobody_asked_for_is_ignored() -> None:
    records, agent, _ = play(Fault("stray", Request.TALK, day=1))
    first = incidents(records[0], 1)
    assert first == [f"TALK: a line nobody asked for was ignored: {STRAY!r} -> ignored"], first
    # the reply it followed counted, and so did every later one
    for r in records:
        said = [(day, line) for game, req, day, line in agent.sent
                if game == r.number and req is Request.TALK and line != STRAY]
        assert talk_of(r, 1) == said
    assert incidents(records[1], 1) == []


def test_an_agent_that_never_answers_name_does_not_take_a_seat() -> None:
    run = Running(ServeConfig(5, games=1, agents=1, wait=3, seed=3, time_limit=200))
    silent = socket.create_connection(("127.0.0.1", run.port))
    records = run.join()
    silent.close()
    assert_finished_and_legal(records[0])
    assert [a["seat"] for a in records[0].game_log["aiwolf"]["agents"]] == ["builtin"] * 5
    assert any("did not answer NAME" in m for m in run.reports)


def test_an_agent_that_floods_lines_nobody_asked_for_is_dropped() -> None:
    run = Running(ServeConfig(15, games=1, agents=1, wait=10, seed=3, time_limit=LIMIT))
    sock = socket.create_connection(("127.0.0.1", run.port))
    lines = SocketLines(sock)
    assert "NAME" in (lines.readline() or "")
    sock.sendall(b"flooder\n")
    assert "ROLE" in (lines.readline() or "")
    sock.sendall(b"none\n" + b"spam\n" * (2 * STRAY_LIMIT))  # one write: all there before the next request
    records = run.join()
    sock.close()
    assert_finished_and_legal(records[0])
    first = incidents(records[0], 1)
    ignored = [i for i in first if "a line nobody asked for was ignored: 'spam' -> ignored" in i]
    assert len(ignored) == STRAY_LIMIT + 1, first
    assert first[STRAY_LIMIT + 1] == f"{first[0].split(':')[0]}: connection lost: more than {STRAY_LIMIT} lines nobody asked for -> ignored"
    assert "the host plays this seat" in first[STRAY_LIMIT + 2], first
    assert all(": the seat is played by the host -> " in i for i in first[STRAY_LIMIT + 3:]), first


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



# ---------------------------------------------------------------------- one connection, step by step
# The agent's end is written by the test itself, or by a thread that waits for the packets it reads:
# which line is there before which request is decided by the test, never by timing.


def tcp_pair() -> tuple[socket.socket, socket.socket]:
    """(the server's end, the agent's end) of a localhost TCP connection."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        agent = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    return server, agent


def in_thread(script) -> threading.Thread:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            script()
        except BaseException as exc:  # reported by finish()
            errors.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.errors = errors  # type: ignore[attr-defined]
    t.start()
    return t


def finish(t: threading.Thread) -> None:
    t.join(10)
    assert not t.is_alive() and not t.errors, t.errors  # type: ignore[attr-defined]


def test_lines_received_before_a_request_are_never_its_reply() -> None:
    a, b = socket.socketpair()  # a local stream: what b sends is queued at a when sendall returns
    with b:
        seat = RemoteSeat(a, time_limit_ms=5000)
        lines = SocketLines(b)
        # lines before any request, more than one read of the server holds
        b.sendall(b"early\n" + b"a" * 40000 + b"\n" + b"b" * 40000 + b"\n")

        def script() -> None:
            assert encode_packet(Packet(Request.VOTE)).rstrip("\n") == lines.readline()
            b.sendall(b'{"agentIdx":2}\nextra\n')  # the reply, and an extra line in the same write
            assert encode_packet(Packet(Request.TALK, talk_history=())).rstrip("\n") == lines.readline()
            b.sendall(b"Over\n")

        t = in_thread(script)
        assert seat.ask(Packet(Request.VOTE)).line == '{"agentIdx":2}'
        assert seat.ask(Packet(Request.TALK, talk_history=())).line == "Over"
        finish(t)
        assert seat.notes == [
            "a line nobody asked for was ignored: 'early'",
            f"a line nobody asked for was ignored: {'a' * 60!r}... (40000 characters)",
            f"a line nobody asked for was ignored: {'b' * 60!r}... (40000 characters)",
            "a line nobody asked for was ignored: 'extra'",
        ]
        assert seat.connected and seat.strays == 4


def test_a_late_reply_is_discarded_before_or_after_the_next_request_is_written() -> None:
    a, b = socket.socketpair()
    with b:
        seat = RemoteSeat(a, time_limit_ms=1000)
        lines = SocketLines(b)
        vote, talk = Packet(Request.VOTE), Packet(Request.TALK, talk_history=())
        # 1. it comes before the next request is written: drained
        assert seat.ask(vote).problem == "late: no reply within 1000 ms"
        b.sendall(b'{"agentIdx":2}\n')

        def answer_talk() -> None:
            assert lines.readline() == encode_packet(vote).rstrip("\n")
            assert lines.readline() == encode_packet(talk).rstrip("\n")
            b.sendall(b"Over\n")

        t = in_thread(answer_talk)
        assert seat.ask(talk).line == "Over"
        finish(t)
        assert seat.notes == ["a late reply arrived and was discarded: '{\"agentIdx\":2}'"]
        seat.notes.clear()

        # 2. it comes after the next request is written (the agent read that one first): discarded
        def late_then_talk() -> None:
            assert lines.readline() == encode_packet(vote).rstrip("\n")
            assert lines.readline() == encode_packet(talk).rstrip("\n")  # the server gave up on VOTE
            b.sendall(b'{"agentIdx":3}\nOver\n')

        t = in_thread(late_then_talk)
        assert seat.ask(vote).problem == "late: no reply within 1000 ms"
        assert seat.ask(talk).line == "Over"
        finish(t)
        assert seat.notes == ["a late reply arrived and was discarded: '{\"agentIdx\":3}'"]
        assert seat.connected and seat.owed == 0 and seat.late == 0 and seat.strays == 0


def test_a_connection_reset_is_a_closed_connection() -> None:
    # the agent closes without reading all of a request: the kernel resets the connection
    server, agent = tcp_pair()
    seat = RemoteSeat(server, time_limit_ms=5000)
    t = in_thread(lambda: (agent.recv(1), agent.close()))
    answer = seat.ask(Packet(Request.VOTE))
    finish(t)
    assert answer.problem == f"disconnected ({CLOSED})" and seat.lost == CLOSED
    assert seat.notes == [f"connection lost: {CLOSED}"]


def test_a_closed_connection_noticed_by_a_write_is_a_closed_connection() -> None:
    server, agent = tcp_pair()
    seat = RemoteSeat(server, time_limit_ms=5000)
    seat.tell(Packet(Request.DAILY_FINISH, talk_history=()))
    agent.recv(1)
    agent.close()  # a reset: the rest of the packet is unread
    deadline = time.monotonic() + 10
    while seat.connected and time.monotonic() < deadline:  # a write fails once the reset has come
        seat.tell(Packet(Request.DAILY_FINISH, talk_history=()))
    assert not seat.connected and seat.lost == CLOSED


def test_a_clean_close_is_a_closed_connection() -> None:
    server, agent = tcp_pair()
    seat = RemoteSeat(server, time_limit_ms=5000)
    lines = SocketLines(agent)
    t = in_thread(lambda: (lines.readline(), agent.close()))
    answer = seat.ask(Packet(Request.VOTE))
    finish(t)
    assert answer.problem == f"disconnected ({CLOSED})" and seat.lost == CLOSED


def test_a_disconnect_at_the_role_request_is_reported_and_the_host_plays_the_seat() -> None:
    """ROLE comes before INITIALIZE (role requests are on by default); an agent that closes its
    connection there is told about like at any other request, and the host plays its seat."""
    records, _, _ = play(Fault("disconnect", Request.ROLE))
    first = incidents(records[0], 1)
    assert first[:2] == [
        f"ROLE: connection lost: {CLOSED} -> ignored",
        f"ROLE: the connection is lost ({CLOSED}) -> the host plays this seat for the rest of the game "
        "(random choices, Over)",
    ], first
    # every later choice of the seat is the host's: a vote drawn at random, never a lost incident again
    assert all("connection is lost" not in i for i in first[2:])
    assert all(i.startswith("VOTE: the seat is played by the host -> drawn at random") for i in first[2:]), first
    assert any(line.startswith("1,vote,1,") for line in records[0].aiwolf_log)
    assert records[1].game_log["aiwolf"]["agents"][0]["seat"] == "builtin"


def test_a_malformed_role_reply_is_an_incident_of_the_role_request() -> None:
    records, _, _ = play(Fault("garbage", Request.ROLE))
    first = incidents(records[0], 1)
    assert first and first[0].startswith("ROLE: ROLE: ") and first[0].endswith("-> ignored"), first
    assert incidents(records[1], 1) == []


def test_the_game_counts_the_requests_written_to_its_agents_and_none_after_a_lost_connection() -> None:
    """docs/aiwolf.md: the game log (`aiwolf` entry) has the number of requests of the game: the packets
    the server wrote to the agents (NAME, before the games, is not one of them). Five agents on raw
    sockets record every packet they receive; one closes its connection at DAILY_FINISH on day 1. The
    server writes it one more request, the VOTE that finds the connection closed (test above), and none
    after that: so the game's requests are the packets the five received, but NAME, plus that VOTE."""
    run = Running(ServeConfig(5, games=1, agents=5, wait=10, seed=3, time_limit=LIMIT))
    quitter = FaultyAgent(run.port, Fault("disconnect", Request.DAILY_FINISH, day=1))
    others = [FaultyAgent(run.port, Fault("none", Request.NAME)) for _ in range(4)]
    threads = [a.start() for a in [quitter, *others]]
    (record,) = run.join()
    for t in threads:
        t.join(10)
    assert [a.error for a in [quitter, *others]] == [None] * 5
    assert quitter.fault.done
    assert_finished_and_legal(record)
    received = sum(1 for a in [quitter, *others] for p in a.received if p.request is not Request.NAME)
    assert record.requests == record.game_log["aiwolf"]["requests"] == received + 1
