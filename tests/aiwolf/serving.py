"""Helpers for the server tests: a server on localhost in a thread, agents in threads (the client
library's, or one that misbehaves on purpose), and checks every finished game must pass."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulescript.sim.wolf import WolfTable, load_wolf_table
from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.agents import RuleAgent
from wwrf_adapter.aiwolf.client import Agent, Session, run_agent
from wwrf_adapter.aiwolf.host import GameRecord
from wwrf_adapter.aiwolf.lines import SocketLines
from wwrf_adapter.aiwolf.logreplay import check_log
from wwrf_adapter.aiwolf.packets import Packet, Request, decode_packet
from wwrf_adapter.aiwolf.server import ServeConfig, Server

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "cards" / "werewolf"
_TABLE: list[WolfTable] = []


def table() -> WolfTable:
    if not _TABLE:
        _TABLE.append(load_wolf_table(GAME))
    return _TABLE[0]


class Running:
    """A server playing ``game`` (default: cards/werewolf) in a thread; ``join()`` returns its game records."""

    def __init__(self, config: ServeConfig, game: WolfTable | None = None) -> None:
        config.port = 0
        self.reports: list[str] = []
        self.server = Server(game or table(), config, report=self.reports.append)
        self.port = self.server.bind()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.server.accept()
            self.server.run()
        except BaseException as exc:  # reported by join()
            self.error = exc
            self.server.close()

    def wait_for_seats(self, seated: int, timeout: float = 10) -> None:
        """Wait until ``seated`` agents are connected (so that agents take their seats in the order started)."""
        deadline = time.monotonic() + timeout
        while len(self.server.remote) < seated and time.monotonic() < deadline:
            time.sleep(0.01)

    def join(self, timeout: float = 120) -> list[GameRecord]:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the server did not finish"
        if self.error is not None:
            raise self.error
        return list(self.server.records)


def agent_thread(agent: Agent, port: int, errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            run_agent(agent, "127.0.0.1", port, retry=10, log=lambda m: None)
        except BaseException as exc:  # collected for the test
            errors.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@dataclass
class Fault:
    """What a :class:`FaultyAgent` does wrong at the first request ``request`` of day ``day`` (or any
    day when None). ``action`` is one of

    * late: no reply in time. The reply is held back until the next packet comes (which proves the
      server has given up waiting for it: it writes nothing else meanwhile), then sent just before
      the reply to that packet, if any;
    * garbage, invalid: that reply is a malformed line, an invalid sentence;
    * huge: a 10 MB line instead of the reply;
    * disconnect: the connection is closed instead;
    * stray: an extra line after the reply, in the same write;
    * none."""

    action: str
    request: Request
    day: int | None = None
    done: bool = False


STRAY = "hello, nobody asked"


@dataclass
class FaultyAgent:
    """A RuleAgent on a raw socket that misbehaves once as its :class:`Fault` says. It records every
    packet it received and every reply it sent (a late one when it sent it)."""

    port: int
    fault: Fault
    agent: Agent = field(default_factory=RuleAgent)
    received: list[Packet] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    sent: list[tuple[int, Request, int, str]] = field(default_factory=list)  # (game, request, day, line)
    error: BaseException | None = None

    def __post_init__(self) -> None:
        self.agent.rng.seed(1)  # its choices are the same in every run

    def start(self) -> threading.Thread:
        t = threading.Thread(target=self._run, daemon=True)
        t.start()
        return t

    def _run(self) -> None:
        try:
            self._play()
        except OSError:
            pass  # the server closed a connection we broke
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _play(self) -> None:
        session = Session(self.agent, log=lambda m: None)
        deadline = time.monotonic() + 10
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        held: tuple[int, Request, int, str] | None = None  # a late reply, sent when the next packet comes
        game = 0
        with sock:
            lines = SocketLines(sock, 1 << 22)
            while (line := lines.readline()) is not None:
                self.raw.append(line)
                packet = decode_packet(line)
                self.received.append(packet)
                game += packet.request is Request.INITIALIZE
                reply = session.handle(packet)
                day = self.agent.day
                out: list[tuple[int, Request, int, str]] = []
                if held is not None:
                    out.append(held)
                    held = None
                f = self.fault
                hit = not f.done and packet.request is f.request and (f.day is None or f.day == day)
                if hit:
                    f.done = True
                    if f.action == "disconnect":
                        sock.close()
                        return
                    if f.action == "late":
                        held, reply = (game, packet.request, day, (reply or "").rstrip("\n")), None
                    elif f.action == "garbage":
                        reply = "}{ not json \x00\xff\n"
                    elif f.action == "invalid":
                        reply = "BECAUSE (VOTE Agent[01])\n"
                    elif f.action == "huge":
                        reply = None
                        sock.sendall(b"x" * (10 * 1024 * 1024) + b"\n")
                if reply is not None:
                    out.append((game, packet.request, day, reply.rstrip("\n")))
                if hit and f.action == "stray":
                    out.append((game, packet.request, day, STRAY))
                if out:
                    self.sent.extend(out)
                    data = "".join(text + "\n" for *_, text in out)
                    sock.sendall(data.encode("utf-8", errors="surrogateescape"))


def assert_finished_and_legal(record: GameRecord) -> None:
    """The game ended with the winner the AIWolf win rule gives, and its AIWolf log replays."""
    assert record.error is None, record.error
    assert record.winner in ("VILLAGER", "WEREWOLF")
    humans, wolves = record.humans, record.wolves
    assert record.winner == ("VILLAGER" if wolves == 0 else "WEREWOLF" if humans <= wolves else None)
    assert record.aiwolf_log[-1] == f"{record.day},result,{humans},{wolves},{record.winner}"
    text = "".join(line + "\n" for line in record.aiwolf_log)
    check = check_log(table(), text, f"game-{record.number}.log")
    assert check.ok and check.replayed, [d.message for d in check.diagnostics]
    assert check.winner == record.winner


def incidents(record: GameRecord, agent: int) -> list[str]:
    return [f"{i.request}: {i.problem} -> {i.action}" for i in record.incidents if i.agent == agent]


def talk_of(record: GameRecord, agent: int) -> list[tuple[int, str]]:
    """(day, text) of every talk line of ``agent`` in the AIWolf log."""
    out = []
    for line in record.aiwolf_log:
        parts = line.split(",", 5)
        if parts[1] == "talk" and int(parts[4]) == agent:
            out.append((int(parts[0]), parts[5]))
    return out


def roles_of(record: GameRecord, role: A.Role) -> list[int]:
    return sorted(a for a, r in record.roles.items() if r is role)

