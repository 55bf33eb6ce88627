"""``aiwolf serve``: an AIWolf server (spec §2) that plays the standard game in our engine.

    table = load_wolf_table("cards/werewolf")
    server = Server(table, ServeConfig(players=5, games=20, port=0, log_dir=Path("logs")))
    port = server.bind()          # then agents connect (aiwolf agent ... --port PORT)
    server.accept()               # wait for them; NAME on each connection
    records = server.run()        # every game; the connections stay open from game to game

Agents connect and keep their connection for every game (Agent[01], Agent[02] ... in the order they
connected); seats nobody connected to, and seats whose agent left in an earlier game, are played by
built-in agents (the client library's RuleAgent or RandomAgent classes, driven in-process). Each game
is written as an AIWolf log (``NNN.log``, spec §4) and as the engine's game log (``NNN.game``, which
``rulescript play cards/werewolf --replay`` replays), with the incidents of the game in it.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Callable

from rulescript.runtime.rng import Rng
from rulescript.sim.gamelog import save_log
from rulescript.sim.wolf import WolfTable

from .agents import RandomAgent, RuleAgent
from .ast import GAME_ROLES
from .client import Agent
from .gameinfo import GameSetting
from .host import AiwolfHost, GameRecord
from .names import STANDARD, WolfNames
from .seats import AgentSeat, Clock, RemoteSeat, Seat

#: the game setting fields ``ServeConfig.rules`` may set
RULES = frozenset(f.name for f in fields(GameSetting)) - {"role_num_map", "player_num", "random_seed", "time_limit"}

#: the built-in agents (``--fill``)
BUILTIN: dict[str, type[Agent]] = {"rule": RuleAgent, "random": RandomAgent}


@dataclass
class ServeConfig:
    players: int
    games: int = 1
    host: str = "127.0.0.1"
    port: int = 10000
    seed: int = 0
    agents: int | None = None      # connections to wait for (None: one per seat)
    wait: float = 60.0             # seconds to wait for them; then built-in agents fill the seats
    fill: str = "rule"             # the built-in agent class (BUILTIN)
    time_limit: int = 1000         # ms an agent has for each reply (-1: no limit)
    roles: list[str] | None = None  # the role ids dealt (None: the game's role list for ``players``)
    log_dir: Path | None = None
    #: the game setting's rules other than the roles, seed and time limit (GameSetting field names,
    #: e.g. {"enable_no_attack": True, "max_talk": 5}); the rest are the reference defaults
    rules: dict = field(default_factory=dict)
    keep: int = 100                # game records kept in memory (the last ones; logs go to log_dir)
    stats: bool = False            # keep the server's time per request (Clock samples)


class Server:
    def __init__(self, table: WolfTable, config: ServeConfig, names: WolfNames = STANDARD,
                 report: Callable[[str], None] | None = None) -> None:
        self.table, self.config, self.names = table, config, names
        self.role_list = list(config.roles) if config.roles is not None else table.roles_for(config.players)
        if len(self.role_list) != config.players:
            raise ValueError(f"{len(self.role_list)} roles for {config.players} players")
        for rid in self.role_list:
            names.role(rid)  # every role must have an AIWolf name
        if config.fill not in BUILTIN:
            raise ValueError(f"unknown built-in agent {config.fill!r} (one of {', '.join(BUILTIN)})")
        self.report = report or (lambda message: None)
        unknown = sorted(set(config.rules) - RULES)
        if unknown:
            raise ValueError(f"unknown game setting {', '.join(unknown)} (one of {', '.join(sorted(RULES))})")
        self.clock = Clock(record=config.stats)
        self.rng = Rng(config.seed)
        self.listener: socket.socket | None = None
        self.remote: list[RemoteSeat] = []
        self.seats: list[Seat] = []
        #: the last ``config.keep`` games (a long tournament keeps only its logs on disk)
        self.records: deque[GameRecord] = deque(maxlen=max(0, config.keep))
        self.games_played = 0

    # ------------------------------------------------------------------ connections

    def bind(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        self.listener = socket.create_server((self.config.host, self.config.port), backlog=64)
        return self.listener.getsockname()[1]

    def accept(self) -> list[RemoteSeat]:
        """Accept agents until as many as wanted have connected or the wait is over; each answers
        NAME (ROLE is asked before each game). A connection that does not is closed (its seat stays
        free). The listener stays open: a connection that comes later is refused with a log line
        (:meth:`refuse_pending`)."""
        assert self.listener is not None, "bind() first"
        want = self.config.players if self.config.agents is None else min(self.config.agents, self.config.players)
        deadline = time.monotonic() + self.config.wait
        try:
            while len(self.remote) < want:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.listener.settimeout(remaining)
                try:
                    sock, _addr = self.listener.accept()
                except (socket.timeout, OSError):
                    break
                seat = RemoteSeat(sock, self.config.time_limit, self.clock)
                number = len(self.remote) + 1
                if seat.handshake():
                    self.remote.append(seat)
                    self.report(f"Agent[{number:02d}] {seat.name} connected from {seat.peer}")
                else:
                    self.report(f"a connection from {seat.peer} did not answer NAME: "
                                f"{'; '.join(seat.notes) or seat.lost}")
                    seat.close()
        finally:
            self.clock.pause()
        self.seats = list(self.remote)
        self.refuse_pending()
        return self.remote

    def refuse_pending(self) -> int:
        """Close the connections waiting on the listener (the seats are taken), each with one log line;
        returns how many."""
        if self.listener is None or self.listener.fileno() < 0:
            return 0
        refused = 0
        self.listener.setblocking(False)
        while True:
            try:
                sock, addr = self.listener.accept()
            except (BlockingIOError, InterruptedError, OSError):
                return refused
            peer = "%s:%s" % addr[:2] if isinstance(addr, tuple) else str(addr or "a local socket")
            refused += 1
            self.report(f"a connection from {peer} is refused: the seats are taken "
                        f"({len(self.remote)} agent(s) connected for {self.config.players} seats)")
            try:
                sock.close()
            except OSError:
                pass

    def _builtin(self, number: int) -> AgentSeat:
        agent = BUILTIN[self.config.fill]()
        agent.rng.seed(self.config.seed * 1000 + number)
        return AgentSeat(agent, self.clock)

    def _fill(self, game: int) -> None:
        while len(self.seats) < self.config.players:
            self.seats.append(self._builtin(len(self.seats) + 1))
        for i, seat in enumerate(self.seats):
            if not seat.connected:
                self.seats[i] = self._builtin(i + 1)
                self.report(f"game {game}: Agent[{i + 1:02d}] ({seat.name}) has left; a built-in agent plays its seat")

    # ------------------------------------------------------------------ games

    def setting(self, seed: int) -> GameSetting:
        counts = {r: 0 for r in GAME_ROLES}
        for rid in self.role_list:
            counts[self.names.role(rid)] += 1
        return replace(GameSetting(counts, self.config.players, random_seed=seed, time_limit=self.config.time_limit),
                       **self.config.rules)

    def play(self, number: int) -> GameRecord:
        """One game with the current seats (filling empty ones first)."""
        self._fill(number)
        seed = self.rng.u32()
        host = AiwolfHost(self.table, self.seats, self.setting(seed), seed, self.role_list, self.names, number)
        record = host.run()
        self.clock.pause()
        self.records.append(record)
        self.games_played += 1
        self.refuse_pending()
        if self.config.log_dir is not None:
            write_logs(record, self.config.log_dir)
        return record

    def run(self) -> list[GameRecord]:
        """Every game, then close the connections; the records of the last ``config.keep`` games."""
        try:
            for number in range(1, self.config.games + 1):
                self.play(number)
        finally:
            self.close()
        return list(self.records)

    def close(self) -> None:
        for seat in self.seats:
            seat.close()
        if self.listener is not None:
            self.listener.close()


def log_paths(log_dir: Path, number: int) -> tuple[Path, Path]:
    """(the AIWolf log, the engine's game log) of game ``number``."""
    return log_dir / f"{number:03d}.log", log_dir / f"{number:03d}.game"


def write_logs(record: GameRecord, log_dir: Path) -> None:
    log_dir.mkdir(parents=True, exist_ok=True)
    aiwolf, game = log_paths(log_dir, record.number)
    aiwolf.write_text("".join(line + "\n" for line in record.aiwolf_log), encoding="utf-8")
    save_log(record.game_log, str(game))
