"""The server's end of one agent: a TCP connection with a time limit per request and bounded buffers
(:class:`RemoteSeat`), or an agent class of the client library driven in-process (:class:`AgentSeat`).

Both answer :meth:`ask` with an :class:`Answer`: the reply line, or why there is none. Nothing an
agent sends can stop the server: a late reply is discarded when it arrives, a line longer than the
limit, a closed connection or a blocked one end that connection only (the seat then stays
``connected == False`` and the host plays it), and every problem is kept in :attr:`notes`.

Which line answers which request (the protocol has no request ids): a request's reply is the first
line that arrives while it waits, once the late replies still owed for earlier requests that timed
out have been discarded (one line each). Before a request is written, every line already received
is drained: owed late replies are discarded as such, any other line (an extra line after a reply, a
line sent for a packet that wants no reply) is ignored as a line nobody asked for. So a stray line
that arrived before the request, or a late reply, is never taken for the reply to a later request.
A connection the agent closed (end of file, reset or broken pipe, whichever the kernel reports
first) is always lost with the same reason, :data:`CLOSED`.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from typing import Callable

from .ast import Role
from .client import Agent, Session
from .jsoncodec import ProtocolError
from .lines import CHUNK, LineBuffer, LineTooLong
from .packets import Packet, Request, decode_reply, encode_packet

#: the longest reply line a server accepts (a reply is a name, a sentence or {"agentIdx":N})
REPLY_LIMIT = 64 * 1024
#: lines nobody asked for that a connection may send before it is closed
STRAY_LIMIT = 50
#: requests in a row without a reply in time before a connection is closed
LATE_LIMIT = 5
#: the kernel's send buffer per connection (bounded: an agent that does not read blocks a write soon)
SEND_BUFFER = 256 * 1024
#: why a connection the agent closed is lost (an end of file, a reset and a broken pipe alike: which
#: of them the kernel reports depends on timing, e.g. on whether a request was still unread)
CLOSED = "it closed the connection"
_CLOSED_ERRORS = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


@dataclass(frozen=True)
class Answer:
    """A reply line (without its newline), or ``line`` None and ``problem`` saying why."""

    line: str | None
    problem: str | None = None


class Clock:
    """The server's own time between agent I/O: before each request is written, the time since the
    previous reply was read (or the previous notice written) is one sample of added latency, in wall
    time (:attr:`samples`) and in the server thread's CPU time (:attr:`cpu`). Samples are kept only when
    ``record`` is set (``aiwolf serve --stats``): a long tournament must not grow with every request."""

    def __init__(self, record: bool = True) -> None:
        self.record = record
        self.samples: list[float] = []
        self.cpu: list[float] = []
        self._last: float | None = None
        self._last_cpu = 0.0

    def start(self) -> None:
        if not self.record:
            return
        now = time.perf_counter()
        if self._last is not None:
            self.samples.append(now - self._last)
            self.cpu.append(time.thread_time() - self._last_cpu)

    def done(self) -> None:
        if not self.record:
            return
        self._last_cpu = time.thread_time()
        self._last = time.perf_counter()

    def pause(self) -> None:
        """Waiting for something that is not the server's work (connections, the next game)."""
        self._last = None


class RemoteSeat:
    """An agent on a TCP connection."""

    kind = "remote"

    def __init__(self, sock: socket.socket, time_limit_ms: int, clock: Clock | None = None,
                 limit: int = REPLY_LIMIT) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.sock = sock
        self.buffer = LineBuffer(limit, strict=False)
        # the reply time limit in seconds; None when there is none (AIWolf's timeLimit -1)
        self.time_limit: float | None = time_limit_ms / 1000.0 if time_limit_ms > 0 else None
        self.time_limit_ms = time_limit_ms
        self.clock = clock or Clock()
        self.connected = True
        self.lost: str | None = None        # why the connection ended
        self.notes: list[str] = []          # what went wrong, for the host to log
        self.owed = 0                       # replies still to come for requests that timed out
        self.late = 0                       # requests in a row that timed out
        self.strays = 0
        self.name = "?"
        self.requested_role: Role | None = None
        try:
            peer = sock.getpeername()
            self.peer = "%s:%s" % peer[:2] if isinstance(peer, tuple) else str(peer or "a local socket")
        except OSError:
            self.peer = "?"

    # ------------------------------------------------------------------ requests

    def handshake(self) -> bool:
        """NAME (spec §2). False when the agent does not answer it."""
        answer = self.ask(Packet(Request.NAME))
        if answer.line is None:
            self.notes.append(f"NAME: {answer.problem}")
            return False
        self.name = clean_name(answer.line)
        return self.connected

    def request_role(self) -> None:
        """ROLE, asked before each game when role requests are on (as the reference server does):
        the role the agent asks for, or None."""
        self.requested_role = None
        answer = self.ask(Packet(Request.ROLE))
        if answer.line is not None:
            try:
                self.requested_role = decode_reply(Request.ROLE, answer.line)
            except ProtocolError as exc:
                self.notes.append(f"ROLE: {exc}")

    def tell(self, packet: Packet) -> None:
        if self.connected:
            data = encode_packet(packet).encode("utf-8")
            self.clock.start()
            self._send(data)
            self.clock.done()

    def ask(self, packet: Packet) -> Answer:
        if not self.connected:
            return Answer(None, f"disconnected ({self.lost})")
        data = encode_packet(packet).encode("utf-8")
        self._drain()
        self.clock.start()
        if not self._send(data):
            self.clock.done()
            return Answer(None, f"disconnected ({self.lost})")
        answer = self._reply(None if self.time_limit is None else time.monotonic() + self.time_limit)
        self.clock.done()
        return answer

    def close(self) -> None:
        if self.connected:
            self.connected = False
            self.lost = self.lost or "closed by the server"
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.sock.close()

    # ------------------------------------------------------------------ I/O

    def _lose(self, why: str) -> None:
        if self.connected:
            self.connected = False
            self.lost = why
            self.notes.append(f"connection lost: {why}")
            try:
                self.sock.close()
            except OSError:
                pass

    def _send(self, data: bytes) -> bool:
        try:
            self.sock.settimeout(self.time_limit)
            self.sock.sendall(data)
            return True
        except socket.timeout:
            self._lose(f"it read nothing for {self.time_limit_ms} ms (the server could not write)")
        except _CLOSED_ERRORS:
            self._lose(CLOSED)
        except OSError as exc:
            self._lose(f"write failed: {exc.strerror or exc}")
        return False

    def _recv(self, timeout: float | None) -> bytes | None:
        """Received bytes; None when nothing came within ``timeout`` (0: nothing is there now) or the
        connection is lost (then :attr:`connected` is False)."""
        try:
            self.sock.settimeout(timeout)
            data = self.sock.recv(CHUNK)
        except (socket.timeout, BlockingIOError, InterruptedError):
            return None
        except _CLOSED_ERRORS:
            self._lose(CLOSED)
            return None
        except OSError as exc:
            self._lose(f"read failed: {exc.strerror or exc}")
            return None
        if not data:
            self._lose(CLOSED)
            return None
        return data

    def _feed(self, data: bytes) -> None:
        try:
            self.buffer.feed(data)
        except LineTooLong as exc:
            self._lose(str(exc))

    def _next_line(self) -> str | None:
        """The next line that is not a late reply to an earlier request."""
        while (line := self.buffer.pop()) is not None:
            if self.owed:
                self.owed -= 1
                self.notes.append(f"a late reply arrived and was discarded: {shorten(line)}")
                continue
            return line
        return None

    def _drain(self) -> None:
        """Before a request: every line received so far is a late reply or a line nobody asked for.
        Reads until nothing more is there, so that none of them is taken for the request's reply."""
        while self.connected:
            while (line := self._next_line()) is not None:
                self.strays += 1
                self.notes.append(f"a line nobody asked for was ignored: {shorten(line)}")
                if self.strays > STRAY_LIMIT:
                    self._lose(f"more than {STRAY_LIMIT} lines nobody asked for")
                    return
            data = self._recv(0.0)
            if data is None:
                return
            self._feed(data)

    def _reply(self, deadline: float | None) -> Answer:
        """The reply line, waiting until ``deadline`` (``time.monotonic()``; None: as long as it takes)."""
        while self.connected:
            line = self._next_line()
            if line is not None:
                self.late = 0
                return Answer(line)
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                self.owed += 1
                self.late += 1
                if self.late >= LATE_LIMIT:
                    self._lose(f"no reply to {LATE_LIMIT} requests in a row")
                return Answer(None, f"late: no reply within {self.time_limit_ms} ms")
            data = self._recv(remaining)
            if data is not None:
                self._feed(data)
        return Answer(None, f"disconnected ({self.lost})")


class AgentSeat:
    """A built-in agent: an :class:`~wwrf_adapter.aiwolf.client.Agent` class driven in-process through
    the client library's :class:`~wwrf_adapter.aiwolf.client.Session` (the packets are not encoded)."""

    kind = "builtin"
    connected = True
    requested_role: Role | None = None
    lost = None

    def __init__(self, agent: Agent, clock: Clock | None = None) -> None:
        self.agent = agent
        self.notes: list[str] = []
        self.session = Session(agent, log=self.notes.append)
        self.clock = clock or Clock()
        self.name = clean_name(agent.get_name())
        self.peer = "built-in"

    def tell(self, packet: Packet) -> None:
        self.ask(packet)

    def ask(self, packet: Packet) -> Answer:
        self.clock.start()
        try:
            reply = self.session.handle(packet)
        except ProtocolError as exc:
            reply = None
            self.notes.append(f"{packet.request.value}: {exc}")
        self.clock.done()
        if reply is None:
            return Answer(None, "no reply")
        return Answer(reply[:-1] if reply.endswith("\n") else reply)

    def request_role(self) -> None:
        """A built-in agent's requested role is set in-process (``requested_role``); nothing to ask."""

    def close(self) -> None:
        pass


Seat = RemoteSeat | AgentSeat
SeatFactory = Callable[[int], AgentSeat]


def clean_name(name: str) -> str:
    """A name fit for a log line: printable, no commas, at most 40 characters."""
    kept = "".join(c if c.isprintable() and c != "," else "_" for c in name.strip())[:40]
    return kept or "?"


def shorten(text: str, width: int = 60) -> str:
    return repr(text) if len(text) <= width else repr(text[:width]) + f"... ({len(text)} characters)"
