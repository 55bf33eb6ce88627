"""The AIWolf game log (spec §4): one event a line, comma separated, starting with the day.

    d,status,agent,ROLE,ALIVE|DEAD,name      d,talk,idx,turn,agent,text     d,whisper,idx,turn,agent,text
    d,vote,voter,target                      d,execute,agent,ROLE           d,divine,seer,target,SPECIES
    d,guard,bodyguard,target,ROLE            d,attackVote,wolf,target       d,attack,target,true|false
    d,result,humans,wolves,TEAM

:func:`format_event` writes a line, :func:`read_log` reads a whole log into :class:`LogEvent` values
with every mistake as a located diagnostic (``AW4xx``). The last field of ``status``, ``talk`` and
``whisper`` lines is the rest of the line (a name or a sentence may hold commas).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulescript.diagnostics import Diagnostic, Span

from .ast import GAME_ROLES, Role, Species
from .gameinfo import Status
from .names import VILLAGER_TEAM, WEREWOLF_TEAM

TEAMS = (VILLAGER_TEAM, WEREWOLF_TEAM, "OTHERS")


def _int(text: str) -> int:
    if not (text.isdigit() or (text.startswith("-") and text[1:].isdigit())) or len(text) > 9:
        raise ValueError("a number")
    return int(text)


def _role(text: str) -> Role:
    if text not in {r.value for r in GAME_ROLES}:
        raise ValueError("a role (" + ", ".join(r.value for r in GAME_ROLES) + ")")
    return Role(text)


def _species(text: str) -> Species:
    if text not in (Species.HUMAN.value, Species.WEREWOLF.value):
        raise ValueError("HUMAN or WEREWOLF")
    return Species(text)


def _status(text: str) -> Status:
    if text not in (Status.ALIVE.value, Status.DEAD.value):
        raise ValueError("ALIVE or DEAD")
    return Status(text)


def _bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError("true or false")
    return text == "true"


def _team(text: str) -> str:
    if text not in TEAMS:
        raise ValueError("a team (" + ", ".join(TEAMS) + ")")
    return text


def _text(text: str) -> str:
    return text


Field = tuple[str, Callable[[str], Any]]
_TALK: tuple[Field, ...] = (("idx", _int), ("turn", _int), ("agent", _int), ("text", _text))
#: the fields after ``day,kind`` of each event, in order
FIELDS: dict[str, tuple[Field, ...]] = {
    "status": (("agent", _int), ("role", _role), ("status", _status), ("name", _text)),
    "talk": _TALK,
    "whisper": _TALK,
    "vote": (("agent", _int), ("target", _int)),
    "execute": (("agent", _int), ("role", _role)),
    "divine": (("agent", _int), ("target", _int), ("species", _species)),
    "guard": (("agent", _int), ("target", _int), ("role", _role)),
    "attackVote": (("agent", _int), ("target", _int)),
    "attack": (("target", _int), ("success", _bool)),
    "result": (("humans", _int), ("wolves", _int), ("team", _team)),
}
#: events whose last field is free text (it may hold commas)
_REST = ("status", "talk", "whisper")


@dataclass(frozen=True)
class LogEvent:
    day: int
    kind: str
    values: dict[str, Any]
    line: int = 0
    cols: tuple[int, ...] = ()  # 1-based column of each field after the kind

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def col(self, name: str) -> int:
        names = [n for n, _ in FIELDS[self.kind]]
        return self.cols[names.index(name)] if self.cols else 1


def event(day: int, kind: str, *values: Any) -> LogEvent:
    names = [n for n, _ in FIELDS[kind]]
    if len(values) != len(names):
        raise ValueError(f"{kind} has {len(names)} fields, not {len(values)}")
    return LogEvent(day, kind, dict(zip(names, values)))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Role, Species, Status)):
        return value.value
    return str(value)


def format_event(ev: LogEvent) -> str:
    """One log line (without its newline)."""
    return ",".join([str(ev.day), ev.kind] + [_show(ev.values[n]) for n, _ in FIELDS[ev.kind]])


def _split(line: str, count: int) -> list[tuple[str, int]]:
    """``line`` cut at commas into at most ``count`` fields, each with its 1-based column."""
    out: list[tuple[str, int]] = []
    start = 0
    while len(out) < count - 1:
        comma = line.find(",", start)
        if comma < 0:
            break
        out.append((line[start:comma], start + 1))
        start = comma + 1
    out.append((line[start:], start + 1))
    return out


def parse_line(line: str, number: int, file: str) -> LogEvent | Diagnostic:
    """One line as an event, or the diagnostic of what is wrong with it."""
    head = _split(line, 3)
    if len(head) < 3:
        return log_error(file, number, len(line) + 1, "AW401",
                         "a log line is `day,event,...`", 1)
    (day_text, day_col), (kind, kind_col), _rest = head
    try:
        day = _int(day_text)
        if day < 0:
            raise ValueError
    except ValueError:
        return log_error(file, number, day_col, "AW401", f"the day must be a number, not {day_text!r}",
                         len(day_text))
    fields = FIELDS.get(kind)
    if fields is None:
        return log_error(file, number, kind_col, "AW402", f"unknown event {kind!r} (events: "
                         f"{', '.join(FIELDS)})", len(kind))
    parts = _split(line, 2 + len(fields) if kind in _REST else 2 + len(fields) + 1)[2:]
    if len(parts) != len(fields):
        where = parts[-1][1] + len(parts[-1][0]) if len(parts) < len(fields) else parts[len(fields)][1]
        names = ",".join(n for n, _ in fields)
        return log_error(file, number, where, "AW401",
                         f"a {kind} line has {len(fields)} fields after the event ({names}), not {len(parts)}", 1)
    values: dict[str, Any] = {}
    for (name, conv), (text, col) in zip(fields, parts):
        try:
            values[name] = conv(text)
        except ValueError as exc:
            return log_error(file, number, col, "AW401", f"{kind} {name}: expected {exc}, got {text!r}",
                             len(text))
    return LogEvent(day, kind, values, number, tuple(col for _, col in parts))


def log_error(file: str, line: int, col: int, code: str, message: str, width: int = 1,
              notes: tuple[str, ...] = ()) -> Diagnostic:
    return Diagnostic("error", code, message, Span(file, line, col, line, col + max(1, width)), notes)


def read_log(text: str, file: str = "<log>") -> tuple[list[LogEvent], list[Diagnostic]]:
    """Every event of a log, and the diagnostics of the lines that are not events (blank lines are
    skipped)."""
    events: list[LogEvent] = []
    diags: list[Diagnostic] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue
        got = parse_line(line, number, file)
        if isinstance(got, Diagnostic):
            diags.append(got)
        else:
            events.append(got)
    return events, diags
