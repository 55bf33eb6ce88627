"""``aiwolf log FILE``: read an AIWolf log (spec §4) and replay it in the engine to check that it is a
legal game of the standard rules (spec §3).

The roles come from the day-0 status lines; every vote, attack vote, divination and guard of the log
answers the engine's decision of that day, and every execution or attack that ends a tie answers
the engine's tie-break. What the engine then does must be what the log says: who is executed and
their role, each divination's species, whether each attack succeeds, who is alive at the start of
each day, and the winner. The talk is checked on its own: numbering, turns, speakers alive (and
wolves for whispers), grammatical sentences, at most ``maxTalk`` talks a day.

The engine ends a game as soon as a win condition holds; the AIWolf platform checks only at the
start of a day, so its logs may go on with the night after a deciding execution. Those night lines
are read but not replayed (the winner cannot change: no one dies at night but humans).

Every mistake is a diagnostic at the line (and field) it concerns: ``AW401`` a line that is not an
event, ``AW402`` an unknown event, ``AW403`` events out of place, ``AW410`` talk against the rules,
``AW420`` the game does not do what the log says, ``AW421`` a decision the game does not allow,
``AW430`` a log that ends before its game does. Replaying stops at the first AW42x/AW430.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from rulescript.diagnostics import Diagnostic, Span
from rulescript.games.werewolf.data import NARRATOR
from rulescript.runtime.errors import Interrupt
from rulescript.sim.wolf import WolfTable

from . import ast as A
from .gameinfo import GameSetting, Status, camel
from .logfile import LogEvent, log_error, read_log
from .names import STANDARD, VILLAGER_TEAM, WEREWOLF_TEAM, WolfNames
from .packets import Request
from .parser import parse

_NIGHT = ("divine", "whisper", "guard", "attackVote", "attack")


@dataclass
class LogCheck:
    """What ``aiwolf log`` found: the diagnostics, and what the log is (when it could be read)."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    agents: int = 0
    days: int = 0
    winner: str | None = None
    replayed: bool = False
    events: int = 0
    #: the game setting options the log shows were not the defaults (AIWolf names), e.g. {"enableNoAttack": True}
    implied: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


class _Stop(Interrupt):
    """The replay found a difference; it stops there.  Raised from the effect sink or the decider, often
    inside a resolution: an :class:`Interrupt` unwinds the game instead of being caught as a rule error."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def check_log(table: WolfTable, text: str, file: str = "<log>", names: WolfNames = STANDARD,
              setting: GameSetting | None = None, validate_utterance: bool = True) -> LogCheck:
    """Check a log. ``setting``: the game setting it was played with; None: the one the log implies
    (the reference defaults but what its lines show, and ``validate_utterance``, which a log cannot
    show: with it, a talk that is no valid sentence is an error)."""
    events, diags = read_log(text, file)
    check = LogCheck(file, diags, events=len(events))
    if diags:
        return check
    if not events:
        check.diagnostics.append(log_error(file, 1, 1, "AW430", "the log has no events"))
        return check
    replay = _Replay(table, events, file, names, setting, check)
    replay.validate_utterance = validate_utterance
    replay.run()
    return check


def _agent(n: int) -> str:
    return str(A.Agent(n)) if n > 0 else str(n)


class _Replay:
    def __init__(self, table: WolfTable, events: list[LogEvent], file: str, names: WolfNames,
                 setting: GameSetting | None, check: LogCheck) -> None:
        self.table, self.events, self.file, self.names, self.check = table, events, file, names, check
        self.setting = setting
        self.diags = check.diagnostics
        self.used: set[int] = set()  # ids of the events the replay consumed or checked
        self.after_end = False       # the log goes on with the night after the game's deciding execution
        self.validate_utterance = True  # with no setting given: whether talk must be valid sentences

    # ------------------------------------------------------------------ diagnostics

    def _at(self, ev: LogEvent, name: str | None, code: str, message: str) -> Diagnostic:
        col = ev.col(name) if name else 1
        width = len(str(ev.values[name])) if name and name in ev.values else 1
        if name and isinstance(ev.values.get(name), (A.Role, A.Species, Status)):
            width = len(ev.values[name].value)
        return log_error(self.file, ev.line, col, code, message, width)

    def _error(self, ev: LogEvent, name: str | None, code: str, message: str) -> None:
        self.diags.append(self._at(ev, name, code, message))

    def _stop(self, ev: LogEvent, name: str | None, code: str, message: str) -> _Stop:
        return _Stop(self._at(ev, name, code, message))

    # ------------------------------------------------------------------ the shape of the log

    def run(self) -> None:
        if not self._structure():
            return
        self._talk()
        try:
            self._replay()
        except _Stop as stop:
            self.diags.append(stop.diagnostic)
            return
        self.check.replayed = True

    def _structure(self) -> bool:
        ev = self.events
        head = []
        for e in ev:
            if e.kind != "status" or e.day != 0:
                break
            head.append(e)
        if not head:
            self._error(ev[0], None, "AW403", "a log starts with the day-0 status line of every agent")
            return False
        agents = sorted(e["agent"] for e in head)
        n = len(agents)
        if agents != list(range(1, n + 1)):
            self._error(head[-1], "agent", "AW403", f"the day-0 status lines name agents {agents}, not 1 to {n} once each")
            return False
        self.n = n
        self.roles = {e["agent"]: e["role"] for e in head}
        self.agent_names = {e["agent"]: e["name"] for e in head}
        for e in head:
            if e["status"] is not Status.ALIVE:
                self._error(e, "status", "AW403", "every agent is alive on day 0")
        self.role_ids = []
        for e in sorted(head, key=lambda e: e["agent"]):
            rid = self.names.role_id(e["role"])
            if rid is None or rid not in self.table.data.models:
                self._error(e, "role", "AW420", f"the game has no role for {e['role'].value}")
                return False
            self.role_ids.append(rid)
        self.wolves = {a for a, r in self.roles.items() if r is A.Role.WEREWOLF}
        self.given = self.setting is not None  # otherwise the setting is what the log implies
        if self.setting is None:
            counts = Counter(self.roles.values())
            self.setting = GameSetting({r: counts.get(r, 0) for r in A.GAME_ROLES}, n)
        self.check.agents = n
        # the result: one, last
        results = [e for e in ev if e.kind == "result"]
        if not results:
            self._error(ev[-1], None, "AW430", "the log ends without a result line")
            return False
        for e in results[1:]:
            self._error(e, None, "AW403", "a second result line")
        if results and ev[-1] is not results[0]:
            self._error(ev[ev.index(results[0]) + 1], None, "AW403", "a line after the result")
        # days never go back
        last = 0
        for e in ev:
            if e.day < last:
                self._error(e, None, "AW403", f"day {e.day} after day {last}")
                return False
            last = e.day
        self.check.days = last
        # the status line of each agent once at each day's start; the last run before the result is the end
        self.final: list[LogEvent] = []
        end = ev.index(results[0])
        i = end
        while i > len(head) and ev[i - 1].kind == "status":
            i -= 1
        self.final = ev[i:end]
        body = ev[len(head):i]
        self.status: dict[int, dict[int, LogEvent]] = {0: {e["agent"]: e for e in head}}
        self.by_day: dict[int, dict[str, list[LogEvent]]] = {}
        for e in body:
            if e.kind == "result":
                continue
            if e.kind == "status":
                block = self.status.setdefault(e.day, {})
                if e["agent"] in block:
                    self._error(e, "agent", "AW403", f"a second status line of {_agent(e['agent'])} on day {e.day}")
                block[e["agent"]] = e
                continue
            self.by_day.setdefault(e.day, {}).setdefault(e.kind, []).append(e)
        for day, block in self.status.items():
            if sorted(block) != list(range(1, n + 1)):
                some = list(block.values())[-1]
                self._error(some, None, "AW403", f"day {day} has status lines for {len(block)} of {n} agents")
            for a, e in block.items():
                if a in self.roles and e["role"] is not self.roles[a]:
                    self._error(e, "role", "AW403", f"{_agent(a)} was {self.roles[a].value} on day 0")
        if self.final:
            for e in self.final:
                if e["agent"] in self.roles and e["role"] is not self.roles[e["agent"]]:
                    self._error(e, "role", "AW403", f"{_agent(e['agent'])} was {self.roles[e['agent']].value} on day 0")
        self.result = results[0]
        if not self.given:
            self._imply()
        return not any(d.is_error for d in self.diags)

    def _imply(self) -> None:
        """The game setting this log was played with, as far as its lines show it (docs/aiwolf.md, "What a
        log implies"): talk on day 0, more talks, turns or revotes than the defaults, a day whose votes
        execute nobody, a night that attacks nobody, whispers again before an attack revote."""
        s = self.setting
        assert s is not None
        days = self.by_day
        changes: dict[str, Any] = {}
        if days.get(0, {}).get("talk"):
            changes["talk_on_first_day"] = True
        for kind, most, turns in (("talk", "max_talk", "max_talk_turn"), ("whisper", "max_whisper", "max_whisper_turn")):
            said = max((n for d in days.values() for session in _sessions(d.get(kind, []))
                        for n in Counter(e["agent"] for e in session
                                         if e["text"] not in ("Skip", "Over")).values()), default=0)
            turn = max((e["turn"] + 1 for d in days.values() for e in d.get(kind, [])), default=0)
            if said > getattr(s, most):
                changes[most] = said
            if turn > getattr(s, turns):
                changes[turns] = turn
        for kind, most in (("vote", "max_revote"), ("attackVote", "max_attack_revote")):
            rounds = max((len(_rounds(d[kind])) for d in days.values() if d.get(kind)), default=0)
            if rounds - 1 > getattr(s, most):
                changes[most] = rounds - 1
        next_days = set(self.status) | {e.day for e in self.final}
        if any(d.get("vote") and not d.get("execute") and day + 1 in next_days for day, d in days.items()):
            changes["enable_no_execution"] = True
        if any(e["target"] < 0 for d in days.values() for e in d.get("attack", [])):
            changes["enable_no_attack"] = True
        if any(len(_sessions(d.get("whisper", []))) > 1 for d in days.values()):
            changes["whisper_before_revote"] = True
        if not self.validate_utterance:
            changes["validate_utterance"] = False
        self.setting = replace(s, **changes)
        self.check.implied.update({camel(k): v for k, v in changes.items()})

    # ------------------------------------------------------------------ talk

    def _alive_on(self, day: int) -> set[int]:
        block = self.status.get(day)
        if block is None:
            return set()
        return {a for a, e in block.items() if e["status"] is Status.ALIVE}

    def _talk(self) -> None:
        s = self.setting
        assert s is not None
        for day, kinds in sorted(self.by_day.items()):
            alive = self._alive_on(day)
            for kind in ("talk", "whisper"):
                items = kinds.get(kind, [])
                if not items:
                    continue
                if kind == "talk" and day == 0 and not s.talk_on_first_day:
                    self._error(items[0], None, "AW410", "talk on day 0 (the standard game has none)")
                limit, turns = (s.max_talk, s.max_talk_turn) if kind == "talk" else (s.max_whisper, s.max_whisper_turn)
                said: Counter[int] = Counter()
                last_turn = 0
                starts = {id(session[0]) for session in _sessions(items)}
                for expected, e in enumerate(items):
                    self.used.add(id(e))
                    if e["idx"] != expected:
                        self._error(e, "idx", "AW410", f"{kind} number {e['idx']}; the day's {kind} so far makes it {expected}")
                    if kind == "whisper" and s.whisper_before_revote and id(e) in starts:
                        said, last_turn = Counter(), 0  # the wolves whisper again before an attack revote
                    if e["turn"] < last_turn or e["turn"] >= turns:
                        self._error(e, "turn", "AW410", f"turn {e['turn']} after turn {last_turn} "
                                    f"(turns go from 0 to {turns - 1})")
                    last_turn = max(last_turn, e["turn"])
                    a = e["agent"]
                    if a not in alive:
                        self._error(e, "agent", "AW410", f"{_agent(a)} is not a living agent of day {day}")
                    elif kind == "whisper" and a not in self.wolves:
                        self._error(e, "agent", "AW410", f"{_agent(a)} whispers but is no werewolf")
                    text = e["text"]
                    if text in ("Skip", "Over"):
                        continue
                    result = parse(text, self.file, e.line)
                    found = list(result.diagnostics)  # the grammar only, as the reference server checks talk
                    if found and not s.validate_utterance:
                        found = []  # the game took any text
                    if found:
                        d = found[0]
                        col = e.col("text") - 1
                        span = Span(self.file, e.line, d.span.col + col, e.line, (d.span.end_col or d.span.col + 1) + col)
                        self.diags.append(Diagnostic("error", "AW410", f"an invalid sentence: {d.code} {d.message}", span))
                        continue
                    said[a] += 1
                    if said[a] == limit + 1:
                        self._error(e, "agent", "AW410", f"{_agent(a)}'s {kind} number {limit + 1} of day {day} "
                                    f"(at most {limit})")

    # ------------------------------------------------------------------ the engine

    def _replay(self) -> None:
        s = self.setting
        assert s is not None
        settings = self.names.engine_settings(s.max_revote, s.max_attack_revote,
                                              no_execution=s.enable_no_execution, no_attack=s.enable_no_attack)
        self.rounds = {d: {k: _rounds(v) for k, v in kinds.items() if k in ("vote", "attackVote")}
                       for d, kinds in self.by_day.items()}
        self.round_no = {"vote": 0, "attackVote": 0}
        self.over_at: tuple[str, int] | None = None
        self.pending_attack: int | None = None
        game, _eng = self.table.new_game(self.role_ids, 0, self, self, deal=False, settings=settings)
        self.game = game
        game.run()
        st = game.state
        if st["winner"] is None:
            last = self.events[-1]
            raise self._stop(last, None, "AW430", f"the game is not over after the log's last line "
                             f"({st['phase']} {st['day'] if st['phase'] == 'day' else st['night']})")
        end_day = st["day"] if st["phase"] == "day" else st["night"] - 1
        self._leftovers(end_day, st["phase"] == "day")
        self._check_result()

    def _aiwolf_day(self) -> int:
        st = self.game.state
        return st["day"] if st["phase"] == "day" else st["night"] - 1

    def _lines(self, day: int, kind: str) -> list[LogEvent]:
        return self.by_day.get(day, {}).get(kind, [])

    def _last_line_before(self, day: int) -> LogEvent:
        found = [e for e in self.events if e.day <= day]
        return found[-1] if found else self.events[0]

    # the decider
    def decide(self, req: dict) -> Any:
        kind, seat, prompt, options = req["kind"], req["player"], req["prompt"], req["options"]
        day = self._aiwolf_day()
        if kind == "choose_player" and seat == NARRATOR and prompt.endswith(".tie"):
            return self._tie(day, prompt[:-4], options)
        request = self.names.requests.get((kind, prompt))
        agent = seat + 1
        if request in (Request.VOTE, Request.ATTACK):
            which = "vote" if request is Request.VOTE else "attackVote"
            rounds = self.rounds.get(day, {}).get(which, [])
            r = self.round_no[which]
            ev = rounds[r].get(agent) if r < len(rounds) else None
            if ev is None:
                if request is Request.ATTACK:
                    return None  # no attack vote: an abstention
                anchor = (rounds[r] if r < len(rounds) and rounds[r] else {}).values()
                at = list(anchor)[-1] if anchor else self._last_line_before(day)
                raise self._stop(at, None, "AW420", f"{_agent(agent)} is alive and votes on day {day}"
                                 f"{' (revote)' if r else ''}, but the log has no vote of it")
            self.used.add(id(ev))
            target = ev["target"] - 1
            if target not in options or (request is Request.VOTE and target == seat):
                if request is Request.ATTACK:
                    return None  # AIWolf discards an attack vote on a wolf or the dead
                raise self._stop(ev, "target", "AW421", f"a vote for {_agent(ev['target'])}, who is not a living "
                                 f"agent other than the voter")
            return target
        if request in (Request.DIVINE, Request.GUARD):
            which = "divine" if request is Request.DIVINE else "guard"
            found = [e for e in self._lines(day, which) if e["agent"] == agent and id(e) not in self.used]
            if not found:
                return None
            ev = found[0]
            self.used.add(id(ev))
            if ev["target"] - 1 not in options:
                raise self._stop(ev, "target", "AW421", f"{_agent(ev['target'])} cannot be the target of this "
                                 f"{which} (a living agent other than {_agent(agent)})")
            if request is Request.GUARD and ev["role"] is not self.roles.get(ev["target"]):
                raise self._stop(ev, "role", "AW420", f"{_agent(ev['target'])} is "
                                 f"{self.roles[ev['target']].value}")
            return ev["target"] - 1
        raise self._stop(self._last_line_before(day), None, "AW420",
                         f"the game asks {kind} {prompt!r} of {_agent(agent)}, which an AIWolf log cannot answer")

    def _tie(self, day: int, poll: str, options: list) -> int:
        kind = "execute" if poll == self.names.lynch_poll else "attack"
        lines = self._lines(day, kind)
        tied = ", ".join(_agent(o + 1) for o in options)
        if not lines:
            at = self._last_line_before(day)
            raise self._stop(at, None, "AW420", f"the votes of day {day} tie ({tied}), but the log has no {kind} line")
        ev = lines[0]
        target = ev["agent" if kind == "execute" else "target"]
        if target - 1 not in options:
            name = "agent" if kind == "execute" else "target"
            raise self._stop(ev, name, "AW420", f"the votes tie between {tied}; {_agent(target)} is not one of them")
        return target - 1

    # the sink
    def emit(self, rec: dict) -> None:
        t = rec["type"]
        day = self._aiwolf_day() if self.game.state["phase"] in ("day", "night") else 0
        if t == "phase" and rec["phase"] == "day":
            self._check_status(rec["number"])
        elif t == "poll_revote":
            which = "vote" if rec["poll"] == self.names.lynch_poll else "attackVote"
            self.round_no[which] += 1
        elif t == "poll_close":
            which = "vote" if rec["poll"] == self.names.lynch_poll else "attackVote"
            self.round_no[which] = 0
            if which == "attackVote" and rec["winner"] is None:
                self._check_attack(day, -1, False)
        elif t == "death" and rec["killing"] == "lynch":
            self._check_execute(day, rec["player"] + 1)
        elif t == "death" and rec["killing"] == "attack":
            self._check_attack(day, rec["player"] + 1, True)
        elif t == "defended" and rec["killing"] == "attack":
            self._check_attack(day, rec["player"] + 1, False)
        elif t == "investigate" and rec["value"] == self.names.species_attribute:
            seer = rec["player"] + 1
            species = self.names.species(rec["result"] == "Success")
            found = [e for e in self._lines(day, "divine") if e["agent"] == seer and e["target"] == rec["target"] + 1]
            if found and found[0]["species"] is not species:
                raise self._stop(found[0], "species", "AW420", f"{_agent(rec['target'] + 1)} is {species.value}")

    def _check_status(self, day: int) -> None:
        block = self.status.get(day)
        if block is None:
            raise self._stop(self._last_line_before(day), None, "AW430",
                             f"the game goes on to day {day}, but the log has no status lines of day {day}")
        alive = {p["idx"] + 1 for p in self.game.state["players"] if p["alive"]}
        for a, e in sorted(block.items()):
            self.used.add(id(e))
            if (e["status"] is Status.ALIVE) != (a in alive):
                raise self._stop(e, "status", "AW420", f"{_agent(a)} is {'ALIVE' if a in alive else 'DEAD'} "
                                 f"at the start of day {day}")

    def _check_execute(self, day: int, agent: int) -> None:
        lines = self._lines(day, "execute")
        if not lines:
            votes = self._lines(day, "vote")
            at = votes[-1] if votes else self._last_line_before(day)
            raise self._stop(at, None, "AW420", f"the votes of day {day} execute {_agent(agent)}, "
                             f"but the log has no execute line")
        ev = lines[0]
        self.used.add(id(ev))
        if ev["agent"] != agent:
            raise self._stop(ev, "agent", "AW420", f"the votes of day {day} execute {_agent(agent)}")
        if ev["role"] is not self.roles[agent]:
            raise self._stop(ev, "role", "AW420", f"{_agent(agent)} is {self.roles[agent].value}")

    def _check_attack(self, day: int, target: int, success: bool) -> None:
        lines = self._lines(day, "attack")
        what = "no attack" if target < 0 else f"the attack on {_agent(target)} {'kills' if success else 'fails'}"
        if not lines:
            raise self._stop(self._last_line_before(day), None, "AW420",
                             f"on the night of day {day} {what}, but the log has no attack line")
        ev = lines[0]
        self.used.add(id(ev))
        if ev["target"] != max(target, -1):
            raise self._stop(ev, "target", "AW420", f"on the night of day {day} {what}")
        if ev["success"] != success:
            raise self._stop(ev, "success", "AW420", f"on the night of day {day} {what}")

    def _leftovers(self, end_day: int, ended_by_day: bool) -> None:
        """Lines the replay never used: an error, but for the night after a deciding execution."""
        for day, kinds in sorted(self.by_day.items()):
            for kind, items in kinds.items():
                for e in items:
                    if id(e) in self.used:
                        continue
                    if ended_by_day and day == end_day and kind in _NIGHT:
                        self.after_end = True
                        continue
                    what = {"vote": "a vote the game did not ask for (no tie, or a dead voter)",
                            "attackVote": "an attack vote the game did not ask for",
                            "divine": "a divination the game did not ask for",
                            "guard": "a guard the game did not ask for",
                            "execute": "an execution that the votes do not make",
                            "attack": "an attack the game does not make"}.get(kind, f"a {kind} line after the end")
                    raise self._stop(e, None, "AW420", what + (f" (the game ended on day {end_day})"
                                                              if day >= end_day else ""))
        for day in self.status:
            if day > end_day + (1 if ended_by_day else 0):
                e = next(iter(self.status[day].values()))
                raise self._stop(e, None, "AW420", f"status lines of day {day}; the game ended on day {end_day}")

    def _check_result(self) -> None:
        st = self.game.state
        team = self.names.team(st["winner"])
        self.check.winner = team
        ev = self.result
        if ev["team"] != team:
            raise self._stop(ev, "team", "AW420", f"the game is won by {team}")
        humans, wolves = ev["humans"], ev["wolves"]
        rule = VILLAGER_TEAM if wolves == 0 else WEREWOLF_TEAM if humans <= wolves else None
        if rule != ev["team"]:
            raise self._stop(ev, "team", "AW420", f"with {humans} humans and {wolves} werewolves alive, "
                             f"{'no team has won' if rule is None else rule + ' has won'} (the AIWolf win rule)")
        alive_log = {e["agent"] for e in self.final if e["status"] is Status.ALIVE}
        if self.final and (sum(1 for a in alive_log if a not in self.wolves),
                           sum(1 for a in alive_log if a in self.wolves)) != (humans, wolves):
            raise self._stop(ev, "humans", "AW420", "the counts differ from the status lines before the result")
        if not self.after_end:
            alive = {p["idx"] + 1 for p in st["players"] if p["alive"]}
            counts = (sum(1 for a in alive if a not in self.wolves), sum(1 for a in alive if a in self.wolves))
            if counts != (humans, wolves):
                raise self._stop(ev, "humans", "AW420", f"the game ends with {counts[0]} humans and "
                                 f"{counts[1]} werewolves alive")
            for e in self.final:
                if (e["status"] is Status.ALIVE) != (e["agent"] in alive):
                    raise self._stop(e, "status", "AW420", f"{_agent(e['agent'])} is "
                                     f"{'ALIVE' if e['agent'] in alive else 'DEAD'} at the end")


def _sessions(whispers: list[LogEvent]) -> list[list[LogEvent]]:
    """A night's whispers cut into sessions: a turn 0 after a later turn, or a second whisper of an agent
    in turn 0, starts the next one (the wolves whisper again before an attack revote)."""
    out: list[list[LogEvent]] = [[]]
    for e in whispers:
        session = out[-1]
        if session and e["turn"] == 0 and (session[-1]["turn"] > 0 or any(x["agent"] == e["agent"] for x in session)):
            out.append([])
        out[-1].append(e)
    return out


def _rounds(votes: list[LogEvent]) -> list[dict[int, LogEvent]]:
    """Vote lines cut into rounds: a voter's second vote starts the next round (a revote)."""
    out: list[dict[int, LogEvent]] = [{}]
    for e in votes:
        if e["agent"] in out[-1]:
            out.append({})
        out[-1][e["agent"]] = e
    return out
