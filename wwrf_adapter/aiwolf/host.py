"""One AIWolf game played in our engine: the rendered werewolf game decides, the agents are its deciders.

:class:`AiwolfHost` is the engine's decider and effect sink. The engine runs the game (docs/werewolf.md):
each ``vote``/``use_ability`` decision it asks becomes the AIWolf request that answers it (VOTE, ATTACK,
DIVINE, GUARD, see :mod:`.names`), and the records it emits tell the host what happened (a phase
starts, a vote, a revote after a tie, a death, a divination, a guard, the win). What the engine does
not do, the host does as the AIWolf standard game does (spec §3):

* at the start of each day: DAILY_INITIALIZE to every agent (yesterday's results in its gameInfo),
  the day's talk in turns, DAILY_FINISH; at night the wolves' whispers (on night 0 before the
  divination, later after it and before the guard and the attack vote);
* talk and whisper turns: every living speaker, in a shuffled order, each turn (one with no talks
  left is not asked and says Over); Skip and Over do not use up talks, more than ``maxSkip`` Skips
  in a row count as Over, the talk ends when a whole turn is Over or after ``maxTalkTurn`` turns; an
  invalid utterance is Skip;
* replies that are late, malformed or out of the rules: a missing or invalid vote is drawn at random
  (never the voter); a missing attack vote, or one on a wolf or the dead, is dropped and not logged
  (unless ``enableNoAttack``, every living human still counts one vote, so someone is attacked); a
  missing divination or guard, or one that is not allowed, is not made;
* a seat whose connection is lost is played by a seeded :class:`RandomDecider` (and says Over).

Every one of these is an :class:`Incident` in the game's record. The host writes the AIWolf log
(spec §4) as it goes, and the engine's own game log at the end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any

from rulescript.games.werewolf.data import NARRATOR
from rulescript.runtime.ports import make_request
from rulescript.runtime.rng import Rng
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import WolfTable, run_logged

from . import ast as A
from .gameinfo import GameInfo, GameSetting, Judge, Status, Talk, Vote
from .jsoncodec import ProtocolError
from .logfile import LogEvent, event, format_event
from .names import STANDARD, WolfNames
from .packets import Packet, Request, decode_reply
from .parser import parse
from .seats import Answer, Seat, shorten

_NIGHT_ORDER = ("divine", "whisper", "guard", "attackVote", "attack")
#: sentences kept parsed (agents repeat themselves a lot); how many changes the time, not the result
_parse = lru_cache(maxsize=4096)(parse)  # pragma: no mutate
#: what the host does when an attack vote, a divination or a guard is missing or not allowed
_NO_CHOICE = {Request.ATTACK: "the attack vote is dropped", Request.DIVINE: "no divination tonight",
              Request.GUARD: "no guard tonight"}


@dataclass
class Incident:
    """Something an agent did wrong, or a seat the host played, and what the host did about it."""

    game: int
    day: int
    agent: int
    request: str  # the request concerned, or "" (a connection event)
    problem: str
    action: str

    def __str__(self) -> str:
        what = f" {self.request}" if self.request else ""
        return f"game {self.game}, day {self.day}, Agent[{self.agent:02d}]{what}: {self.problem}; {self.action}"


@dataclass
class GameRecord:
    number: int
    seed: int
    roles: dict[int, A.Role]
    names: dict[int, str]
    winner: str | None        # the AIWolf team of the result line, None when the engine found none
    day: int                  # the day of the result
    humans: int
    wolves: int
    aiwolf_log: list[str]
    game_log: dict
    incidents: list[Incident] = field(default_factory=list)
    requests: int = 0

    @property
    def error(self) -> str | None:
        return self.game_log.get("error")


class AiwolfHost:
    def __init__(self, table: WolfTable, seats: list[Seat], setting: GameSetting, seed: int,
                 role_list: list[str], names: WolfNames = STANDARD, number: int = 1) -> None:
        self.table, self.seats, self.setting, self.names = table, seats, setting, names
        self.number, self.seed = number, seed
        self.n = len(seats)
        self.agents = list(range(1, self.n + 1))
        self.rng = Rng(seed ^ 0x5EED)  # deals and talk orders
        self.random = RandomDecider(seed ^ 0xD1CE)  # the seeded-random decider: ties, missing decisions
        self.requests = 0
        self.day = 0
        self.incidents: list[Incident] = []
        self._lost_told: set[int] = set()
        self.seat_roles = self._deal(role_list)
        self.roles = {a: names.role(self.seat_roles[a - 1]) for a in self.agents}
        self.wolves = frozenset(a for a, r in self.roles.items() if r is A.Role.WEREWOLF)
        self.existing_roles = tuple(r for r in A.GAME_ROLES if r in set(self.roles.values()))
        self.settings = names.engine_settings(setting.max_revote, setting.max_attack_revote,
                                              no_execution=setting.enable_no_execution,
                                              no_attack=setting.enable_no_attack)
        self.game, self.engine = table.new_game(self.seat_roles, seed, self, self, deal=False,
                                                names=[str(A.Agent(a)) for a in self.agents],
                                                settings=self.settings)
        # what AIWolf agents see (spec §2 gameInfo), today and carried over from yesterday
        self.night = False
        self.talks: list[Talk] = []
        self.whispers: list[Talk] = []
        self.seen: dict[tuple[str, int], int] = {}
        # before day 0 every agent has its talks and every wolf its whispers (what INITIALIZE shows)
        self.talk_left: dict[int, int] = {a: setting.max_talk for a in self.agents}
        self.whisper_left: dict[int, int] = {a: setting.max_whisper for a in sorted(self.wolves)}
        self.vote_list: tuple[Vote, ...] = ()  # yesterday's votes (the last round), all day and night
        self.votes_today: tuple[Vote, ...] = ()
        self.whisper_pending = False  # the night's whispers, held until the seer has divined
        self.attack_vote_list: tuple[Vote, ...] = ()
        self.round: dict[str, list[Vote]] = {"VOTE": [], "ATTACK": []}
        self.latest: dict[str, tuple[Vote, ...]] = {"VOTE": (), "ATTACK": ()}
        self.executed = self.executed_today = -1
        self.attacked = self.attacked_tonight = -1
        self.dead_last_night: tuple[int, ...] = ()
        self.dead_tonight: list[int] = []
        self.divined: dict[int, Judge] = {}
        self.divined_tonight: dict[int, Judge] = {}
        self.identified: dict[int, Judge] = {}
        self.identified_today: dict[int, Judge] = {}
        self.guarded: dict[int, int] = {}
        self.guarded_tonight: dict[int, int] = {}
        self.winner: str | None = None
        self.after_end: set[int] = set()  # agents attacked in the night after a deciding execution
        # records
        self.lines: list[str] = []
        self.night_lines: dict[str, list[str]] = {k: [] for k in _NIGHT_ORDER}
        self._handlers = {"phase": self._on_phase, "vote": self._on_vote, "poll_revote": self._on_revote,
                          "poll_close": self._on_close, "death": self._on_death, "defended": self._on_defended,
                          "investigate": self._on_investigate, "use": self._on_use, "learn": self._on_learn,
                          "win": self._on_win}

    # ------------------------------------------------------------------ the game

    def _deal(self, role_list: list[str]) -> list[str]:
        """Role ids in seat order: shuffled, then each requested role given when it is still free
        (``enableRoleRequest``)."""
        pool = list(role_list)
        if len(pool) != self.n:
            raise ValueError(f"{len(pool)} roles for {self.n} agents")
        self.rng.shuffle(pool)
        by_seat: list[str | None] = [None] * self.n
        if self.setting.enable_role_request:
            for agent, seat in zip(self.agents, self.seats):
                if seat.connected:
                    seat.request_role()
                    self.requests += 1
                    self._notes(agent, Request.ROLE.value)  # a malformed reply, a lost connection
            for i, seat in enumerate(self.seats):
                want = self.names.role_id(seat.requested_role) if seat.requested_role else None
                if want is not None and want in pool:
                    pool.remove(want)
                    by_seat[i] = want
        rest = iter(pool)
        return [r if r is not None else next(rest) for r in by_seat]

    def run(self) -> GameRecord:
        for a in self.agents:
            self._tell(a, Packet(Request.INITIALIZE, self._info(a), self.setting))
        game_log = run_logged(self.game, self.engine, self.seed, self.seat_roles, deal=False,
                              settings=self.settings)
        st = self.game.state
        end_day = st["day"] if st["phase"] == "day" else max(0, st["night"])
        self._pending_whisper()
        self._flush_night()
        if st["phase"] == "day" and self.winner is not None and end_day > 0:
            self._night_after_end()  # the reference server looks for a winner only when a day starts
            end_day += 1
        if st["phase"] == "night" or end_day > self.day:
            self._new_day(end_day)
        alive = self._alive()
        self._status_lines(end_day)
        humans = sum(1 for a in alive if a not in self.wolves)
        wolves = sum(1 for a in alive if a in self.wolves)
        if self.winner is not None:
            self._log(event(end_day, "result", humans, wolves, self.winner))
        for a in self.agents:
            self._tell(a, Packet(Request.FINISH, self._info(a, finish=True)))
        game_log["aiwolf"] = {
            "agents": [{"agent": a, "name": s.name, "seat": s.kind, "role": self.roles[a].value}
                       for a, s in zip(self.agents, self.seats)],
            "setting": {k: v for k, v in asdict(self.setting).items() if k not in ("role_num_map", "random_seed")},
            "incidents": [asdict(i) for i in self.incidents],
            "requests": self.requests,
        }
        return GameRecord(self.number, self.seed, dict(self.roles), {a: s.name for a, s in zip(self.agents, self.seats)},
                          self.winner, end_day, humans, wolves, self.lines, game_log, self.incidents, self.requests)

    def _alive(self) -> list[int]:
        return [p["idx"] + 1 for p in self.game.state["players"] if p["alive"] and p["idx"] + 1 not in self.after_end]

    # ------------------------------------------------------------------ the night after the end

    def _night_after_end(self) -> None:
        """The night after a deciding execution, played by the host as the reference server plays it
        (it checks for a winner only at the start of a day): the seer divines, the wolves whisper, the
        bodyguard guards and the wolves attack. The engine's game is over, so the host applies the
        rules itself; nothing here changes the winner (only a human can die)."""
        self.night = True
        alive = self._alive()  # the agent executed today is dead: it neither divines nor guards
        for a in alive:
            if self.roles[a] is A.Role.SEER:
                target = self._after_end_choice(a, Request.DIVINE, [o for o in alive if o != a])
                if target is not None:
                    species = A.Species.WEREWOLF if target in self.wolves else A.Species.HUMAN
                    self.divined_tonight[a] = Judge(a, self.day, target, species)
                    self._night_log(event(self.day, "divine", a, target, species))
        self._whisper()
        guarded = None
        for a in alive:
            if self.roles[a] is A.Role.BODYGUARD:
                guarded = self._after_end_choice(a, Request.GUARD, [o for o in alive if o != a])
                if guarded is not None:
                    self.guarded_tonight[a] = guarded
                    self._night_log(event(self.day, "guard", a, guarded, self.roles[guarded]))
        wolves = [a for a in alive if a in self.wolves]
        humans = [a for a in alive if a not in self.wolves]
        if not wolves:
            return
        top: list[int] = []
        for rnd in range(self.setting.max_attack_revote + 1):
            if rnd:
                self._before_attack_revote()
            votes = []
            for w in wolves:
                target = self._after_end_choice(w, Request.ATTACK, humans)
                if target is not None:
                    votes.append(Vote(w, self.day, target))
                    self._night_log(event(self.day, "attackVote", w, target))
            self.latest["ATTACK"] = tuple(votes)
            count = Counter(v.target for v in votes)
            if not self.setting.enable_no_attack:
                count.update(humans)
            most = max(count.values(), default=0)
            top = sorted(t for t, n in count.items() if n == most)
            if len(top) == 1:
                break
        self.attack_vote_list = self.latest["ATTACK"]  # told from the next day on
        attacked = top[0] if len(top) == 1 else None
        if attacked is None and top and not self.setting.enable_no_attack:
            attacked = self._draw([t - 1 for t in top]) + 1
        if attacked is None:
            self._night_log(event(self.day, "attack", -1, False))
        elif attacked == guarded:
            self._night_log(event(self.day, "attack", attacked, False))
        else:
            self.after_end.add(attacked)
            self.attacked_tonight = attacked
            self.dead_tonight.append(attacked)
            self._night_log(event(self.day, "attack", attacked, True))
        self._flush_night()

    def _after_end_choice(self, agent: int, request: Request, allowed: list[int]) -> int | None:
        """An agent's divination, guard or attack vote after the end: its target when allowed, else none
        (a seat the host plays chooses at random)."""
        answer = self._ask(agent, self._decision_packet(request, agent))
        target = None
        if answer.line is not None:
            try:
                target = decode_reply(request, answer.line)
            except ProtocolError as exc:
                answer = Answer(None, f"a malformed reply {shorten(answer.line)}: {exc}")
        if target in allowed:
            return target
        if not self.seats[agent - 1].connected and allowed:
            return self._draw([a - 1 for a in allowed]) + 1
        self._incident(agent, request.value, answer.problem or self._refused(request, target), _NO_CHOICE[request])
        return None

    @staticmethod
    def _refused(request: Request, target: int | None) -> str:
        """Why a divination, guard or attack vote is not made (its incident names the agent as the
        protocol writes it: ``Agent[01]``)."""
        if target is None:
            return "no choice"
        who = A.Agent(target) if target > 0 else target
        return f"{who} is not a living {'human' if request is Request.ATTACK else 'agent other than itself'}"

    def _species(self, agent: int) -> A.Species:
        return self.names.species(self.game.has_attribute(agent - 1, self.names.species_attribute))

    # ------------------------------------------------------------------ the log

    def _log(self, ev: LogEvent) -> None:
        self.lines.append(format_event(ev))

    def _night_log(self, ev: LogEvent) -> None:
        self.night_lines[ev.kind].append(format_event(ev))

    def _flush_night(self) -> None:
        """The night's lines in the order AIWolf writes them: divine, whisper, guard, attack votes, attack."""
        for kind in _NIGHT_ORDER:
            self.lines.extend(self.night_lines[kind])
            self.night_lines[kind].clear()

    def _status_lines(self, day: int) -> None:
        alive = set(self._alive())
        for a, seat in zip(self.agents, self.seats):
            self._log(event(day, "status", a, self.roles[a], Status.ALIVE if a in alive else Status.DEAD, seat.name))

    def _incident(self, agent: int, request: str, problem: str, action: str) -> None:
        self.incidents.append(Incident(self.number, self.day, agent, request, problem, action))

    # ------------------------------------------------------------------ talking to agents

    def _notes(self, agent: int, request: str) -> None:
        seat = self.seats[agent - 1]
        for note in seat.notes:
            self._incident(agent, request, note, "ignored")
        seat.notes.clear()
        if not seat.connected and agent not in self._lost_told:
            self._lost_told.add(agent)
            self._incident(agent, request, f"the connection is lost ({seat.lost})",
                           "the host plays this seat for the rest of the game (random choices, Over)")

    def _tell(self, agent: int, packet: Packet) -> None:
        seat = self.seats[agent - 1]
        if seat.connected:
            self.requests += 1
            seat.tell(packet)
            self._notes(agent, packet.request.value)

    def _ask(self, agent: int, packet: Packet) -> Answer:
        seat = self.seats[agent - 1]
        if not seat.connected:
            return Answer(None, "disconnected")
        self.requests += 1
        answer = seat.ask(packet)
        self._notes(agent, packet.request.value)
        return answer

    def _unseen(self, channel: str, agent: int) -> tuple[Talk, ...]:
        items = self.talks if channel == "talk" else self.whispers
        key = (channel, agent)
        start = self.seen.get(key, 0)
        self.seen[key] = len(items)
        return tuple(items[start:])

    def _histories(self, agent: int) -> tuple[tuple[Talk, ...], tuple[Talk, ...]]:
        return self._unseen("talk", agent), self._unseen("whisper", agent) if agent in self.wolves else ()

    def _info(self, agent: int, finish: bool = False) -> GameInfo:
        wolf = agent in self.wolves
        alive = set(self._alive())
        visible = self.setting.vote_visible  # otherwise nobody is told the day's votes
        if finish:
            role_map = dict(self.roles)
        elif wolf:
            role_map = {a: A.Role.WEREWOLF for a in self.wolves}
        else:
            role_map = {agent: self.roles[agent]}
        return GameInfo(
            agent=agent, day=self.day,
            status_map={a: Status.ALIVE if a in alive else Status.DEAD for a in self.agents},
            role_map=role_map,
            remain_talk_map=dict(self.talk_left),
            remain_whisper_map=dict(self.whisper_left) if wolf else {},
            talk_list=tuple(self.talks), whisper_list=tuple(self.whispers) if wolf else (),
            vote_list=self.vote_list if visible else (), latest_vote_list=self.latest["VOTE"] if visible else (),
            attack_vote_list=self.attack_vote_list if wolf else (),
            latest_attack_vote_list=self.latest["ATTACK"] if wolf else (),
            divine_result=self._told(self.divined.get(agent)),
            medium_result=self._told(self.identified.get(agent)),
            executed_agent=self.executed, latest_executed_agent=self.executed_today,
            attacked_agent=self.attacked if wolf else -1, guarded_agent=self.guarded.get(agent, -1),
            last_dead_agent_list=self.dead_last_night, existing_role_list=self.existing_roles)

    def _told(self, judge: Judge | None) -> Judge | None:
        """A divination or identification as the reference server tells it: dated the day it is told
        (the day after the night or the execution it comes from), not the day it was made."""
        return None if judge is None else replace(judge, day=self.day)

    # ------------------------------------------------------------------ days and nights

    def emit(self, rec: dict) -> None:
        handler = self._handlers.get(rec["type"])
        if handler is not None:
            handler(rec)

    def _on_phase(self, rec: dict) -> None:
        if rec["phase"] == "day":
            self._pending_whisper()
            self._flush_night()
            self._new_day(rec["number"])
            self._status_lines(self.day)
            for a in self.agents:
                self._tell(a, Packet(Request.DAILY_INITIALIZE, self._info(a)))
            if self.day > 0:
                self._turns("talk")
            elif self.setting.talk_on_first_day:  # the wolves whisper first, then everyone talks
                self._whisper()
                self._turns("talk")
            for a in self.agents:
                talks, whispers = self._histories(a)
                self._tell(a, Packet(Request.DAILY_FINISH, None, None, talks, whispers))
        else:  # the night after AIWolf day ``number - 1``
            self.night = True
            if self.day == 0:  # before the divination (unless they whispered before the day's talk)
                if not self.setting.talk_on_first_day:
                    self._whisper()
            else:  # after the divination, before the guard and the attack votes
                self.whisper_pending = True

    def _pending_whisper(self) -> None:
        if self.whisper_pending:
            self.whisper_pending = False
            self._whisper()

    def _before_attack_revote(self) -> None:
        """With ``whisperBeforeRevote``, the wolves whisper again before an attack revote (after the
        lines so far: the log keeps the order)."""
        if self.setting.whisper_before_revote:
            self._flush_night()
            self._whisper()

    def _whisper(self) -> None:
        """A whisper session of the living wolves, when there are two or more; each has ``maxWhisper``
        whispers for it."""
        wolves = [a for a in self._alive() if a in self.wolves]
        if len(wolves) >= 2:
            self.whisper_left = {a: self.setting.max_whisper for a in wolves}
            self._turns("whisper")

    def _new_day(self, day: int) -> None:
        """Yesterday's results become what agents are told; today starts empty."""
        self.day, self.night = day, False
        self.executed, self.executed_today = self.executed_today, -1
        self.vote_list, self.votes_today = self.votes_today, ()
        self.attacked, self.attacked_tonight = self.attacked_tonight, -1
        self.dead_last_night, self.dead_tonight = tuple(self.dead_tonight), []
        self.divined, self.divined_tonight = self.divined_tonight, {}
        self.identified, self.identified_today = self.identified_today, {}
        self.guarded, self.guarded_tonight = self.guarded_tonight, {}
        self.talks, self.whispers, self.seen = [], [], {}
        self.latest = {"VOTE": (), "ATTACK": ()}
        alive = self._alive()
        self.talk_left = {a: self.setting.max_talk for a in alive}
        self.whisper_left = {a: self.setting.max_whisper for a in alive if a in self.wolves}

    def _turns(self, channel: str) -> None:
        """The day's talk or the night's whispers, in turns (spec §3)."""
        talk = channel == "talk"
        request = Request.TALK if talk else Request.WHISPER
        left = self.talk_left if talk else self.whisper_left
        items = self.talks if talk else self.whispers
        turns = self.setting.max_talk_turn if talk else self.setting.max_whisper_turn
        alive = set(self._alive())
        speakers = [a for a in sorted(left) if a in alive]
        skips = {a: 0 for a in speakers}
        for turn in range(turns):
            order = list(speakers)  # every living speaker each turn; one with nothing left says Over
            self.rng.shuffle(order)
            going = False
            for a in order:
                text = self._utter(a, request) if left[a] > 0 else "Over"
                if text == "Skip":
                    if skips[a] >= self.setting.max_skip:
                        text = "Over"
                    else:
                        skips[a] += 1
                elif text != "Over":
                    skips[a] = 0
                    left[a] -= 1
                items.append(Talk(len(items), self.day, turn, a, text))
                ev = event(self.day, channel, len(items) - 1, turn, a, text)
                if self.night:
                    self._night_log(ev)
                else:  # the day's talk, and the whispers before the talk of day 0
                    self._log(ev)
                going = going or text != "Over"
            if not going:
                break

    def _utter(self, agent: int, request: Request) -> str:
        """What an agent says: its sentence, ``Skip`` or ``Over`` (invalid or missing: Skip)."""
        if not self.seats[agent - 1].connected:
            return "Over"
        answer = self._ask(agent, self._decision_packet(request, agent))
        if answer.line is None:
            if self.seats[agent - 1].connected:
                self._incident(agent, request.value, answer.problem or "no reply", "counted as Skip")
                return "Skip"
            return "Over"
        text = answer.line.strip(" \t")
        if not text:
            return "Skip"
        if text in ("Skip", "Over"):
            return text
        if not self.setting.validate_utterance:
            return text  # the game takes any text (validateUtterance false)
        problems = _parse(text).diagnostics  # the grammar only: the reference server checks no meaning
        if problems:
            d = problems[0]
            self._incident(agent, request.value,
                           f"invalid sentence {shorten(text)}: column {d.span.col}: {d.code} {d.message}",
                           "counted as Skip")
            return "Skip"
        return text

    # ------------------------------------------------------------------ decisions

    def decide(self, req: dict) -> Any:
        kind, seat, prompt, options = req["kind"], req["player"], req["prompt"], req["options"]
        if kind == "choose_player" and seat == NARRATOR and prompt.endswith(".tie"):
            return self._draw(options)  # AIWolf: a tie that stays is drawn
        request = self.names.requests.get((kind, prompt))
        if request is None or not 0 <= seat < self.n:
            choice = self._draw(options)
            self._incident(seat + 1, "", f"the game asks {kind} {prompt!r}, which no AIWolf request answers",
                           f"drawn at random: {choice!r}")
            return choice
        agent = seat + 1
        if request in (Request.GUARD, Request.ATTACK):
            self._pending_whisper()
        answer = self._ask(agent, self._decision_packet(request, agent))
        target: int | None = None
        problem = answer.problem
        if answer.line is not None:
            try:
                target = decode_reply(request, answer.line)
            except ProtocolError as exc:
                problem = f"a malformed reply {shorten(answer.line)}: {exc}"
        allowed = [o + 1 for o in options if o != seat]  # whatever the game offers, never oneself
        if problem is None and target in allowed:
            return target - 1
        played = not self.seats[agent - 1].connected and agent in self._lost_told
        if request is not Request.VOTE and not played:
            # the reference game makes no choice: an attack vote is dropped (and not logged), there is no
            # divination or guard
            self._incident(agent, request.value, problem or self._refused(request, target), _NO_CHOICE[request])
            return None
        if problem is None:  # a vote that the rules do not allow
            said = "no choice" if target is None else str(A.Agent(target)) if target > 0 else str(target)
            problem = f"{said} is not a vote for a living agent other than itself"
        if played and problem.startswith("disconnected"):
            problem = "the seat is played by the host"
        choice = self._draw([a - 1 for a in allowed])
        self._incident(agent, request.value, problem,
                       "drawn at random: " + ("no choice" if choice is None else str(A.Agent(choice + 1))))
        return choice

    def _draw(self, options: list) -> Any:
        """A choice of the seeded-random decider among ``options`` (None when there is none)."""
        return self.random.decide(make_request("choose_player", NARRATOR, list(options), cancel=True))

    def _decision_packet(self, request: Request, agent: int) -> Packet:
        """A full gameInfo (and no histories) for a revote, and for a night request after an execution;
        otherwise only the talk not seen yet (spec §2). A full gameInfo does not count as seen: the next
        histories start where the last ones ended, as the reference server does."""
        after_execution = self.night and self.executed_today >= 0 and request is not Request.VOTE
        if self.latest.get(request.value) or after_execution:
            return Packet(request, self._info(agent))
        talks, whispers = self._histories(agent)
        return Packet(request, None, None, talks, whispers)

    # ------------------------------------------------------------------ what the engine did

    def _poll_request(self, poll: str) -> str | None:
        if poll == self.names.lynch_poll:
            return "VOTE"
        if poll == self.names.attack_poll:
            return "ATTACK"
        return None

    def _on_vote(self, rec: dict) -> None:
        which = self._poll_request(rec["poll"])
        if which is None:
            return
        voter, target = rec["player"] + 1, rec["target"] + 1
        self.round[which].append(Vote(voter, self.day, target))
        if which == "VOTE":
            self._log(event(self.day, "vote", voter, target))
        else:
            self._night_log(event(self.day, "attackVote", voter, target))

    def _on_revote(self, rec: dict) -> None:
        which = self._poll_request(rec["poll"])
        if which is not None:
            self.latest[which] = tuple(self.round[which])
            self.round[which] = []
            if which == "ATTACK":
                self._before_attack_revote()

    def _on_close(self, rec: dict) -> None:
        which = self._poll_request(rec["poll"])
        if which is None:
            return
        votes = tuple(self.round[which])
        self.round[which] = []
        self.latest[which] = votes  # the last round stays the latest until the day ends
        if which == "VOTE":
            self.votes_today = votes  # voteList shows it from the next day on
        else:
            self.attack_vote_list = votes
            if rec["winner"] is None:
                self._night_log(event(self.day, "attack", -1, False))

    def _on_death(self, rec: dict) -> None:
        agent = rec["player"] + 1
        if rec["killing"] == "lynch":
            self.executed_today = agent
            self._log(event(self.day, "execute", agent, self.roles[agent]))
        elif rec["killing"] == "attack":
            self.attacked_tonight = agent
            self.dead_tonight.append(agent)
            self._night_log(event(self.day, "attack", agent, True))

    def _on_defended(self, rec: dict) -> None:
        if rec["killing"] == "attack":  # the wolves are still told whom they attacked
            self.attacked_tonight = rec["player"] + 1
            self._night_log(event(self.day, "attack", rec["player"] + 1, False))

    def _on_investigate(self, rec: dict) -> None:
        seer = rec["player"] + 1
        if rec["what"] == "attribute" and rec["value"] == self.names.species_attribute \
                and self.roles.get(seer) is A.Role.SEER:
            target = rec["target"] + 1
            species = self.names.species(rec["result"] == "Success")
            self.divined_tonight[seer] = Judge(seer, self.day, target, species)
            self._night_log(event(self.day, "divine", seer, target, species))

    def _on_use(self, rec: dict) -> None:
        if self.names.requests.get(("use_ability", rec["prompt"])) is Request.GUARD and rec["target"] is not None:
            guard, target = rec["player"] + 1, rec["target"] + 1
            self.guarded_tonight[guard] = target
            self._night_log(event(self.day, "guard", guard, target, self.roles[target]))

    def _on_learn(self, rec: dict) -> None:
        medium = rec["player"] + 1
        if self.roles.get(medium) is A.Role.MEDIUM and not self.night and self.executed_today > 0 \
                and self.executed_today != medium:
            target = self.executed_today
            self.identified_today[medium] = Judge(medium, self.day, target, self._species(target))

    def _on_win(self, rec: dict) -> None:
        self.winner = self.names.team(rec["team"])
