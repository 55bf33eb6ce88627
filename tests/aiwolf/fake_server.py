"""A small AIWolf server for tests: plays the standard game (spec §3) with agents that connect to it
over localhost TCP, speaking the protocol of spec §2 through the project's wire layer.

It is a test fixture, not the project's server: one thread, no time limits, simplified where the
tests do not look (one whisper turn a night, no FOX or FREEMASON). It records every exchange and
reports anything an agent did wrong (a reply that is not valid, a reply to a request that expects
none, a stray line at the end).
"""

from __future__ import annotations

import random
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field

from wwrf_adapter.aiwolf.ast import Role, Species
from wwrf_adapter.aiwolf.gameinfo import GameInfo, GameSetting, Judge, Status, Talk, Vote
from wwrf_adapter.aiwolf.lines import SocketLines
from wwrf_adapter.aiwolf.packets import Packet, Request, decode_reply, encode_packet
from wwrf_adapter.aiwolf.parser import parse


@dataclass
class Said:
    game: int
    day: int
    agent: int
    channel: str  # "talk" or "whisper"
    text: str  # as the agent sent it


@dataclass
class Exchange:
    agent: int
    request: Request
    reply: object


class Conn:
    def __init__(self, sock: socket.socket) -> None:
        sock.settimeout(20)
        self.sock = sock
        self.lines = SocketLines(sock, limit=1 << 16)

    def send(self, packet: Packet) -> None:
        self.sock.sendall(encode_packet(packet).encode())

    def ask(self, packet: Packet) -> object:
        self.send(packet)
        line = self.lines.readline()
        if line is None:
            raise ConnectionError("the agent closed the connection")
        return decode_reply(packet.request, line)


@dataclass
class Game:
    number: int
    setting: GameSetting
    roles: dict[int, Role]
    rng: random.Random
    day: int = 0
    alive: set[int] = field(default_factory=set)
    talks: list[Talk] = field(default_factory=list)  # today's
    whispers: list[Talk] = field(default_factory=list)
    votes: tuple[Vote, ...] = ()
    divine: Judge | None = None
    medium: Judge | None = None
    executed: int = -1
    attacked: int = -1
    dead_last_night: tuple[int, ...] = ()
    seen: dict[tuple[str, int], int] = field(default_factory=dict)

    def of(self, role: Role) -> list[int]:
        return sorted(a for a, r in self.roles.items() if r is role and a in self.alive)

    def info(self, agent: int, finish: bool = False, **extra: object) -> GameInfo:
        wolves = self.roles[agent] is Role.WEREWOLF
        shown = {a: r for a, r in self.roles.items()
                 if finish or a == agent or (wolves and r is Role.WEREWOLF)}
        return GameInfo(
            agent, self.day, {a: Status.ALIVE if a in self.alive else Status.DEAD for a in self.roles}, shown,
            {a: self.setting.max_talk for a in self.alive},
            {a: self.setting.max_whisper for a in self.alive if wolves and self.roles[a] is Role.WEREWOLF},
            vote_list=self.votes, executed_agent=self.executed, attacked_agent=self.attacked,
            divine_result=self.divine if self.roles[agent] is Role.SEER else None,
            medium_result=self.medium if self.roles[agent] is Role.MEDIUM else None,
            last_dead_agent_list=self.dead_last_night,
            existing_role_list=tuple(sorted({r for r in self.roles.values()}, key=lambda r: r.value)),
            **extra)  # type: ignore[arg-type]

    def unseen(self, channel: str, agent: int) -> tuple[Talk, ...]:
        items = self.talks if channel == "talk" else self.whispers
        start = self.seen.get((channel, agent), 0)
        self.seen[(channel, agent)] = len(items)
        return tuple(items[start:])

    def winner(self) -> str | None:
        wolves = len(self.of(Role.WEREWOLF))
        if wolves == 0:
            return "VILLAGERS"
        if len(self.alive) - wolves <= wolves:
            return "WEREWOLVES"
        return None


class FakeServer:
    def __init__(self, players: int = 5, games: int = 1, seed: int = 0) -> None:
        self.players, self.games, self.rng = players, games, random.Random(seed)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conns: dict[int, Conn] = {}
        self.names: dict[int, str] = {}
        self.exchanges: list[Exchange] = []
        self.said: list[Said] = []
        self.problems: list[str] = []
        self.winners: list[str] = []
        self.played: list[Game] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> "FakeServer":
        self.thread.start()
        return self

    def join(self, timeout: float = 120) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the fake server did not finish"

    # ---------------------------------------------------------------- the connection

    def _serve(self) -> None:
        try:
            self.listener.settimeout(30)
            for n in range(1, self.players + 1):
                sock, _ = self.listener.accept()
                self.conns[n] = Conn(sock)
            for n, conn in self.conns.items():
                self.names[n] = str(self._ask(n, Packet(Request.NAME)))
                self._ask(n, Packet(Request.ROLE))
            for number in range(self.games):
                self._play(number)
            self._close()
        except Exception as exc:  # reported to the test, which fails on any problem
            self.problems.append(f"server stopped: {type(exc).__name__}: {exc}")
            for conn in self.conns.values():
                conn.sock.close()
        finally:
            self.listener.close()

    def _close(self) -> None:
        for n, conn in self.conns.items():
            conn.sock.shutdown(socket.SHUT_WR)
            while (line := conn.lines.readline()) is not None:
                self.problems.append(f"agent {n} sent a line nobody asked for: {line!r}")
            conn.sock.close()

    def _ask(self, agent: int, packet: Packet) -> object:
        reply = self.conns[agent].ask(packet)
        self.exchanges.append(Exchange(agent, packet.request, reply))
        return reply

    def _tell(self, agent: int, packet: Packet) -> None:
        self.conns[agent].send(packet)

    # ---------------------------------------------------------------- the game

    def _play(self, number: int) -> None:
        setting = GameSetting.standard(self.players, seed=self.rng.randrange(1 << 30))
        deck = [r for r, k in setting.role_num_map.items() for _ in range(k)]
        self.rng.shuffle(deck)
        roles = {a: deck[a - 1] for a in range(1, self.players + 1)}
        g = Game(number, setting, roles, random.Random(setting.random_seed), alive=set(roles))
        self.played.append(g)
        for a in roles:
            self._tell(a, Packet(Request.INITIALIZE, g.info(a), setting))
        while True:
            if g.day > 0 and (winner := g.winner()):
                break
            self._day(g)
            g.day += 1
        self.winners.append(winner)
        for a in roles:
            self._tell(a, Packet(Request.FINISH, g.info(a, finish=True)))

    def _day(self, g: Game) -> None:
        g.talks, g.whispers, g.seen = [], [], {}
        for a in sorted(g.alive):
            self._tell(a, Packet(Request.DAILY_INITIALIZE, g.info(a)))
        g.divine = g.medium = None
        if g.day > 0:
            self._talk(g)
        for a in sorted(g.alive):
            self._tell(a, Packet(Request.DAILY_FINISH, g.info(a)))
        if g.day > 0:
            g.executed = self._vote(g, Request.VOTE, sorted(g.alive), g.alive)
            g.alive.discard(g.executed)
            for m in g.of(Role.MEDIUM):
                g.medium = Judge(m, g.day, g.executed, self._species(g, g.executed))
            if g.winner():
                return
        for seer in g.of(Role.SEER):
            target = self._target(g, seer, Request.DIVINE)
            if target is not None:
                g.divine = Judge(seer, g.day, target, self._species(g, target))
        wolves = g.of(Role.WEREWOLF)
        if len(wolves) >= 2:
            for w in wolves:
                self._utter(g, w, "whisper", 0)
        if g.day == 0:
            return
        guarded = None
        for guard in g.of(Role.BODYGUARD):
            guarded = self._target(g, guard, Request.GUARD)
        humans = {a for a in g.alive if g.roles[a] is not Role.WEREWOLF}
        victim = self._vote(g, Request.ATTACK, wolves, humans)
        g.attacked = victim if victim != guarded else -1
        g.dead_last_night = (victim,) if victim != guarded else ()
        g.alive.discard(victim) if victim != guarded else None

    @staticmethod
    def _species(g: Game, agent: int) -> Species:
        return Species.WEREWOLF if g.roles[agent] is Role.WEREWOLF else Species.HUMAN

    def _talk(self, g: Game) -> None:
        left = {a: g.setting.max_talk for a in g.alive}
        for turn in range(g.setting.max_talk_turn):
            order = sorted(a for a in g.alive if left[a] > 0)
            g.rng.shuffle(order)
            said = [self._utter(g, a, "talk", turn) for a in order]
            for a, text in zip(order, said):
                if text not in ("Skip", "Over"):
                    left[a] -= 1
            if all(text == "Over" for text in said):
                break

    def _utter(self, g: Game, agent: int, channel: str, turn: int) -> str:
        request = Request.TALK if channel == "talk" else Request.WHISPER
        packet = Packet(request, talk_history=g.unseen("talk", agent),
                        whisper_history=g.unseen("whisper", agent) if channel == "whisper" else None)
        text = str(self._ask(agent, packet))
        self.said.append(Said(g.number, g.day, agent, channel, text))
        result = parse(text) if text else None
        if result is not None and not result.ok:
            self.problems.append(f"agent {agent} said an invalid sentence {text!r}: {result.diagnostics[0].message}")
        kept = text if result is not None and result.ok else "Skip"
        items = g.talks if channel == "talk" else g.whispers
        items.append(Talk(len(items), g.day, turn, agent, kept))
        return kept

    def _target(self, g: Game, agent: int, request: Request, **extra: object) -> int | None:
        info = g.info(agent, **extra) if extra else None
        target = self._ask(agent, Packet(request, info, talk_history=g.unseen("talk", agent), whisper_history=()))
        if target is None or target not in g.roles:
            self.problems.append(f"agent {agent} answered {request.value} with {target!r}")
            return None
        return target  # type: ignore[return-value]

    def _vote(self, g: Game, request: Request, voters: list[int], candidates: set[int]) -> int:
        """A vote (execution or attack): one revote on a tie, then a random pick among the tied."""
        latest: tuple[Vote, ...] = ()
        for attempt in range(2):
            key = "latest_vote_list" if request is Request.VOTE else "latest_attack_vote_list"
            extra = {key: latest} if attempt else {}
            votes = []
            for v in voters:
                t = self._target(g, v, request, **extra)
                if t is not None and t in candidates and t != v:
                    votes.append(Vote(v, g.day, t))
            latest = tuple(votes)
            if request is Request.VOTE:
                g.votes = latest
            tally = Counter(v.target for v in votes)
            if not tally:
                return g.rng.choice(sorted(candidates))
            top = max(tally.values())
            tied = sorted(a for a, n in tally.items() if n == top)
            if len(tied) == 1:
                return tied[0]
        return g.rng.choice(tied)
