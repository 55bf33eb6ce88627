"""A client library for AIWolf agents: subclass :class:`Agent`, then :func:`run_agent` connects it to
any server that speaks the AIWolf protocol (spec §2), ours or the reference platform.

The base class keeps the game state up to date before each call: ``self.info`` (the latest
:class:`GameInfo`), ``self.setting``, ``self.me``, ``self.role``, ``self.day``, and every talk and
whisper of the game so far in ``self.talks`` and ``self.whispers``. Override the decisions you care
about; the defaults say ``Over`` and choose a random living agent other than yourself.
"""

from __future__ import annotations

import random
import socket
import sys
import time
from typing import Callable

from . import ast as A
from .gameinfo import GameInfo, GameSetting, Talk
from .jsoncodec import ProtocolError
from .lines import DEFAULT_LIMIT, SocketLines
from .packets import Packet, Request, decode_packet, encode_reply
from .serialize import serialize

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Agent:
    """One player. The class is created with no arguments; one instance plays every game of a
    connection (:meth:`initialize` starts each game)."""

    #: the name sent to the server (NAME); the class name when None
    name: str | None = None
    #: the role asked for at ROLE (when the server lets agents ask); None asks for none
    requested_role: A.Role | None = None

    def __init__(self) -> None:
        self.rng = random.Random()
        self.info: GameInfo | None = None
        self.setting: GameSetting | None = None
        self.talks: list[Talk] = []
        self.whispers: list[Talk] = []

    # ---------------------------------------------------------------- state

    @property
    def me(self) -> int:
        return self.info.agent if self.info else 0

    @property
    def role(self) -> A.Role | None:
        return self.info.my_role if self.info else None

    @property
    def day(self) -> int:
        return self.info.day if self.info else 0

    def alive_others(self) -> list[int]:
        return [a for a in (self.info.alive if self.info else []) if a != self.me]

    def random_other(self) -> int | None:
        others = self.alive_others()
        return self.rng.choice(others) if others else None

    # ---------------------------------------------------------------- what to override

    def get_name(self) -> str:
        return self.name or type(self).__name__

    def role_request(self) -> A.Role | None:
        return self.requested_role

    def initialize(self) -> None:
        """A game starts: ``self.info`` (day 0) and ``self.setting`` are set."""

    def day_start(self) -> None:
        """DAILY_INITIALIZE: a new day; yesterday's results are in ``self.info``."""

    def update(self, talks: list[Talk], whispers: list[Talk]) -> None:
        """New talks and whispers arrived (they are already in ``self.talks``/``self.whispers``)."""

    def talk(self) -> "A.Utterance | str":
        return A.OVER

    def whisper(self) -> "A.Utterance | str":
        return A.OVER

    def vote(self) -> int | None:
        return self.random_other()

    def divine(self) -> int | None:
        return self.random_other()

    def guard(self) -> int | None:
        return self.random_other()

    def attack(self) -> int | None:
        return self.random_other()

    def day_finish(self) -> None:
        """DAILY_FINISH: the day's talk is over."""

    def finish(self) -> None:
        """FINISH: the game is over; ``self.info.role_map`` shows every role."""


_ACTIONS: dict[Request, str] = {
    Request.TALK: "talk", Request.WHISPER: "whisper", Request.VOTE: "vote", Request.DIVINE: "divine",
    Request.GUARD: "guard", Request.ATTACK: "attack",
}
_NOTICES: dict[Request, str] = {
    Request.DAILY_INITIALIZE: "day_start", Request.DAILY_FINISH: "day_finish", Request.FINISH: "finish",
}


class Session:
    """Sans-I/O: turns each server packet into the agent's calls and the reply line (or None)."""

    def __init__(self, agent: Agent, log: Log = _stderr, warn_late: bool = True) -> None:
        self.agent = agent
        self.log = log
        self.warn_late = warn_late  # a line for each reply slower than the game's timeLimit
        self.games_finished = 0
        self._seen: set[tuple[str, int, int]] = set()
        self._in_game = False

    def handle(self, packet: Packet) -> str | None:
        agent, request = self.agent, packet.request
        if request is Request.INITIALIZE:
            agent.talks, agent.whispers = [], []
            self._seen.clear()
            self._in_game = True
            agent.setting = packet.game_setting or agent.setting
        if packet.game_info is not None:
            agent.info = packet.game_info
        if request is Request.INITIALIZE:
            if agent.info is None or agent.setting is None:
                raise ProtocolError("INITIALIZE without gameInfo and gameSetting")
            self._call("initialize", None, lambda: None)
            self._absorb(packet)
            return None
        self._absorb(packet)
        if request is Request.NAME:
            name = self._call("get_name", str, lambda: type(agent).__name__, allow_none=False)
            return encode_reply(request, name)
        if request is Request.ROLE:
            return encode_reply(request, self._call("role_request", A.Role, lambda: None))
        if request in _NOTICES:
            if request is Request.FINISH and not self._in_game:
                return None  # some servers send FINISH twice
            self._call(_NOTICES[request], None, lambda: None)
            if request is Request.FINISH:
                self._in_game = False
                self.games_finished += 1
            return None
        if agent.info is None:
            raise ProtocolError(f"{request.value} before any gameInfo")
        method = _ACTIONS[request]
        if request.wants_target:
            return encode_reply(request, self._call(method, int, agent.random_other))
        said = self._call(method, (str, A.Sentence, A.Flow), lambda: A.SKIP, allow_none=False)
        return encode_reply(request, said if isinstance(said, str) else serialize(said))

    def _absorb(self, packet: Packet) -> None:
        """Add talks and whispers not seen yet, from the histories and from a full gameInfo."""
        new: dict[str, list[Talk]] = {"talk": [], "whisper": []}
        info = packet.game_info
        for kind, items in (("talk", packet.talk_history), ("whisper", packet.whisper_history),
                            ("talk", info.talk_list if info else None),
                            ("whisper", info.whisper_list if info else None)):
            for t in items or ():
                key = (kind, t.day, t.idx)
                if key not in self._seen:
                    self._seen.add(key)
                    new[kind].append(t)
        if new["talk"] or new["whisper"]:
            self.agent.talks.extend(new["talk"])
            self.agent.whispers.extend(new["whisper"])
            self._call("update", None, lambda: None, new["talk"], new["whisper"])

    def _call(self, method: str, want: type | tuple[type, ...] | None, fallback: Callable[[], object],
              *args: object, allow_none: bool = True) -> object:
        """Call the agent's method; on an exception or a result not of type ``want`` (None: any result
        is ignored), log one line and use the fallback."""
        started = time.monotonic()
        try:
            result = getattr(self.agent, method)(*args)
            if want is not None and not ((result is None and allow_none)
                                         or (isinstance(result, want) and not isinstance(result, bool))):
                raise TypeError(f"returned {result!r}")
        except Exception as exc:  # the agent's own bug must not end the connection
            self.log(f"aiwolf agent: {type(self.agent).__name__}.{method} failed: {_where(exc)}"
                     f"{type(exc).__name__}: {exc} (using the default)")
            result = fallback()
        elapsed = (time.monotonic() - started) * 1000
        limit = self.agent.setting.time_limit if self.agent.setting else 0
        if self.warn_late and limit > 0 and elapsed > limit:  # timeLimit -1 (or 0): no limit
            self.log(f"aiwolf agent: {method} took {elapsed:.0f} ms; the server allows {limit} ms")
        return result


def _where(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}: " if tb is not None else ""


def connect(host: str, port: int, retry: float = 0.0) -> socket.socket:
    """A TCP connection, retried for up to ``retry`` seconds while the server is not up yet."""
    deadline = time.monotonic() + retry
    while True:
        try:
            sock = socket.create_connection((host, port), timeout=10)
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.1)


class NotAnAIWolfServer(ProtocolError):
    """The server said nothing in time (an AIWolf server asks for the agent's NAME at once), or its
    first line is no JSON object at all (another protocol: HTTP, SSH...)."""


FIRST_REQUEST_WAIT = 30.0  # seconds an AIWolf server may take to send its first request (NAME)


def run_agent(agent: Agent, host: str = "localhost", port: int = 10000, *, games: int | None = None,
              retry: float = 0.0, limit: int = DEFAULT_LIMIT, log: Log = _stderr,
              on_finish: Callable[[Agent], None] | None = None, warn_late: bool = True,
              first_wait: float = FIRST_REQUEST_WAIT) -> int:
    """Play on one connection until the server closes it (or ``games`` games are finished).

    Returns the number of games finished. Raises :class:`NotAnAIWolfServer` when the server sends no
    packet within ``first_wait`` seconds of the connection (an AIWolf server asks for the NAME at once)
    or its first line is not an AIWolf packet, :class:`ProtocolError` when the server breaks the
    protocol later (a line over ``limit`` bytes included) and :class:`OSError` when the connection fails.
    """
    session = Session(agent, log, warn_late)
    with connect(host, port, retry) as sock:
        lines = SocketLines(sock, limit)
        first = True
        while True:
            if first:
                sock.settimeout(first_wait)
                try:
                    line = lines.readline()
                except TimeoutError:
                    raise NotAnAIWolfServer(f"no request within {first_wait:g} s of connecting (an AIWolf server "
                                            "asks for the agent's NAME at once)") from None
                sock.settimeout(None)
            else:
                line = lines.readline()
            if line is None:
                break
            if not line.strip():
                continue
            if first and not line.lstrip().startswith("{"):
                raise NotAnAIWolfServer("its first line is not an AIWolf packet (a JSON object): "
                                        f"{line.strip()[:60]!r}")
            packet = decode_packet(line)
            first = False
            finished = session.games_finished
            reply = session.handle(packet)
            if reply is not None:
                sock.sendall(reply.encode("utf-8"))
            if session.games_finished > finished and on_finish is not None:
                on_finish(agent)
            if games is not None and session.games_finished >= games:
                break
    return session.games_finished
