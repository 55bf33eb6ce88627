"""Scenario tests of the werewolf game (the format is in docs/scenarios.md, "Werewolf scenarios").

A werewolf scenario seats players with fixed roles, lets the real night/day flow run with the
decisions it lists, and compares the state with what it expects:

```yaml
name: the seer reads a werewolf
roles: [seer, werewolf, villager, villager, possessed]   # seat 0 first; no shuffle
until: day 1                 # stop as this phase is about to start (default: the end of the game)
decisions:                   # the first unused entry matching kind (and player, prompt) answers
  - {kind: use_ability, player: 0, prompt: seer.divine, answer: 1}
  - {kind: vote, prompt: lynch, answer: 2, times: 5}   # `times`: this answer for 5 matching decisions
expect:
  learned: {0: ["Player 2 is a werewolf."]}
  alive: [0, 1, 2, 3, 4]
  ran: [seer--divine]
```

``settings: {host: {role: seer}}`` plays with those game settings (docs/werewolf.md: polls, host
information).  ``speak: [{before: day 2, player: 0, as: Stranger}]`` has a player speak through a whisper connection
(host behaviour) as that phase is about to start.

A decision no entry matches is answered by the defaults: ``use_ability`` is declined, a ``vote``
goes to the lowest seat among the options other than the voter's own, anything else takes the
first option.  Every listed decision must have been used (``decisions_left: 0`` is the default).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rulescript import yamlsafe
from rulescript.diagnostics import Diagnostic, Span, did_you_mean
from rulescript.sim.scenario_yaml import LDict, LList, YamlProblem, load_located
from rulescript.sim.scenario_result import RULES_OVERRIDE, ScenarioResult
from rulescript.textfile import read_located
from rulescript.sim.wolf import RulesError, WolfDataError, describe, load_wolf_table

FIELDS = ("name", "description", "roles", "names", "seed", "until", "decisions", "expect", "pending", "game",
          "speak", "settings")
EXPECT = ("alive", "dead", "learned", "winner", "attributes", "groups", "phase", "errors", "ran", "log",
          "decisions_left", "counters", "story", "roles", "extras", "left", "teams")
_TABLES: dict = {}


class ScenarioDecider:
    """Answers from the scenario's list, then by the defaults; records what it used."""

    def __init__(self, entries: list) -> None:
        self.entries = []
        for e in entries:  # `times: n` answers n matching decisions (a whole village voting alike)
            e = dict(e)
            n = int(e.pop("times", 1))
            self.entries.extend(dict(e) for _ in range(n))
        self.used = [False] * len(self.entries)

    def decide(self, req: dict) -> Any:
        for i, e in enumerate(self.entries):
            if self.used[i] or e.get("kind", req["kind"]) != req["kind"]:
                continue
            if "player" in e and e["player"] != req["player"]:
                continue
            if "prompt" in e and e["prompt"] != req["prompt"]:
                continue
            self.used[i] = True
            return e.get("answer")
        if req["kind"] == "use_ability" and req.get("cancel"):
            return None
        opts = req["options"]
        if req["kind"] == "vote":
            seats = [o for o in opts if isinstance(o, int)] or opts  # a poll's word options come last
            others = [o for o in seats if o != req["player"]]
            return min(others or seats)
        if req["kind"] in ("choose_targets", "arrange"):
            return list(opts[:max(req["min"], 1)]) if req["kind"] == "choose_targets" else list(opts)
        return opts[0] if opts else None

    def left(self) -> int:
        return self.used.count(False)


def _game_dir(path: Path, sc: dict) -> Path:
    if sc.get("game"):
        return (path.parent / sc["game"]).resolve()
    for d in [path.parent] + list(path.parent.parents):
        if (d / "cards.yaml").is_file():
            return d
    raise WolfDataError("%s: no game folder (with cards.yaml) above the scenario" % path)


def _table(game_dir: Path):
    key = str(game_dir.resolve())
    override = RULES_OVERRIDE.get(key)
    table = _TABLES.get(key)
    stamp = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in list(game_dir.glob("rules/*.ini")) +
                         [game_dir / "cards.yaml", game_dir / "game.yaml"] if p.exists()))
    if table is None or table[0] != stamp:
        table = (stamp, load_wolf_table(game_dir))
        _TABLES[key] = table
    t = table[1]
    if override is not None:
        from dataclasses import replace

        compiled = replace(t.compiled, rules=override)
        t = replace(t, compiled=compiled)
    return t


def _phase(text: str) -> tuple:
    kind, num = str(text).split()
    return kind.lower(), int(num)


def _check(sc: dict, game: Any, eng: Any, decider: ScenarioDecider, lines: list) -> list:
    st = game.state
    exp = sc.get("expect") or {}
    bad = []

    def diff(what, want, got):
        if want != got:
            bad.append("%s: expected %r, got %r" % (what, want, got))

    unknown = sorted(set(exp) - set(EXPECT))
    if unknown:
        bad.append("unknown expect keys: %s (known: %s)" % (", ".join(unknown), ", ".join(EXPECT)))
    if "alive" in exp:
        diff("alive", sorted(exp["alive"]), game.living())
    if "dead" in exp:
        got = {p["idx"]: p["death"]["type"] for p in st["players"] if p["death"]}
        diff("dead", {int(k): v for k, v in exp["dead"].items()}, got)
    if "learned" in exp:
        for seat, texts in exp["learned"].items():
            diff("learned by seat %s" % seat, list(texts), st["players"][int(seat)]["learned"])
    if "winner" in exp:
        diff("winner", exp["winner"], st["winner"])
    if "attributes" in exp:
        for seat, names in exp["attributes"].items():
            got = sorted(st["cards"][i]["model"] for i in st["players"][int(seat)]["attrs"])
            diff("attributes of seat %s" % seat, sorted(names), got)
    if "roles" in exp:
        for seat, role in exp["roles"].items():
            diff("role of seat %s" % seat, role, game.role_of(int(seat)))
    if "teams" in exp:
        for seat, team in exp["teams"].items():
            diff("team of seat %s" % seat, team, st["players"][int(seat)]["team"])
    if "extras" in exp:
        for seat, names in exp["extras"].items():
            got = sorted(st["cards"][i]["model"] for i in st["players"][int(seat)]["extras"])
            diff("extra roles of seat %s" % seat, sorted(names), got)
    if "left" in exp:
        got = dict((p["idx"], p["left"]) for p in st["players"] if p["left"])
        diff("left the game", dict((int(k), v) for k, v in exp["left"].items()), got)
    if "counters" in exp:
        for seat, n in exp["counters"].items():
            diff("counter of seat %s" % seat, n, st["players"][int(seat)]["counter"])
    if "groups" in exp:
        for g, members in exp["groups"].items():
            got = sorted(st["groups"][g]["members"]) if g in st["groups"] else None
            diff("members of %s" % g, sorted(members) if members is not None else None, got)
    if "phase" in exp:
        diff("phase", str(exp["phase"]).lower(), game.phase_name().lower())
    if "story" in exp:
        diff("story", list(exp["story"]), st["story"])
    diff("rule errors", exp.get("errors", 0), len(eng.errors))
    if eng.errors and exp.get("errors", 0) == 0:
        bad.append("first rule error: %s %s" % (eng.errors[0]["code"], eng.errors[0]["message"]))
    if "ran" in exp:
        missing = sorted(set(exp["ran"]) - game.completed)
        if missing:
            bad.append("rules that did not resolve: %s" % ", ".join(missing))
    if "log" in exp:
        pos = 0
        for want in exp["log"]:
            while pos < len(lines) and want not in lines[pos]:
                pos += 1
            if pos >= len(lines):
                bad.append("log: no line containing %r (in order)" % (want,))
                break
            pos += 1
    diff("decisions left", exp.get("decisions_left", 0), decider.left())
    return bad


class _Lines:
    def __init__(self, game_ref: list) -> None:
        self.records: list = []
        self.game_ref = game_ref

    def emit(self, rec: dict) -> None:
        self.records.append(rec)


def run_scenario(sc: dict, path: Path, line: int = 0) -> ScenarioResult:
    name = str(sc.get("name") or "?")
    res = ScenarioResult(name=name, passed=False, file=str(path), line=line)
    unknown = sorted(set(sc) - set(FIELDS))
    if unknown:
        res.failures.append("%s: unknown scenario keys: %s" % (res.where, ", ".join(unknown)))
        return res
    if sc.get("pending"):
        res.status = "skip"
        res.pending = str(sc["pending"])
        res.passed = True
        return res
    t0 = time.perf_counter()
    try:
        table = _table(_game_dir(path, sc))
    except (RulesError, WolfDataError, OSError) as exc:
        res.failures.append("%s: %s" % (res.where, exc))
        return res
    decider = ScenarioDecider(sc.get("decisions") or [])
    sink = _Lines([])
    try:
        game, eng = table.new_game(list(sc.get("roles") or []), int(sc.get("seed", 0)), decider, sink,
                                   deal=False, names=sc.get("names"), settings=sc.get("settings"))
        for talk in sc.get("speak") or []:  # host behaviour: a player speaks through a whisper connection
            if game.run(stop_at=_phase(talk["before"])) is not None:
                break
            game.speak(int(talk["player"]), str(talk["as"]))
        if not game.state["over"]:
            game.run(stop_at=_phase(sc["until"]) if sc.get("until") else None)
    except Exception as exc:  # a broken scenario or game: reported, never raised
        res.failures.append("%s: %s: %s" % (res.where, type(exc).__name__, exc))
        return res
    lines = [ln for ln in (describe(r, game) for r in sink.records) if ln is not None]
    res.log = lines
    res.game = game
    res.ran = set(game.completed)  # the rules that really resolved (a guard that failed does not count)
    res.loaded = set(eng.loaded)
    res.failures.extend("%s: %s" % (res.where, b) for b in _check(sc, game, eng, decider, lines))
    res.passed = not res.failures
    res.status = "pass" if res.passed else "fail"
    res.seconds = time.perf_counter() - t0
    return res


DECISION_FIELDS = ("kind", "player", "prompt", "answer", "times")  # an entry without kind matches any kind
FILE_FIELDS = ("scenarios", "game", "seed", "roles")  # a file of several scenarios: these are defaults
PHASE_WORDS = ("day", "night")


def check_text(text: str, path: str) -> list:
    """What can be told about a werewolf scenario file without running it, each located: the YAML
    (SC101, SC108), its shape (SC102), unknown fields of a scenario, of ``expect`` and of a decision
    (SC103, with did-you-mean), and values of the wrong type
    (SC105: ``roles`` not a list, ``until`` or a ``speak`` entry's ``before`` not "day N" / "night N",
    ``decisions`` not a list of mappings, ``expect`` not a mapping)."""
    diags: list = []

    def err(code, message, at, notes=()):
        diags.append(Diagnostic("error", code, message, Span(path, at[0], at[1]), tuple(notes)))

    def fields(d, allowed, what):
        for k in d:
            if k not in allowed:
                err("SC103", "unknown field %r in %s" % (k, what), d.where(k, False), did_you_mean(str(k), allowed))

    def phase(d, key, what):
        v = d.get(key)
        words = str(v).split()
        if len(words) != 2 or words[0].lower() not in PHASE_WORDS or not words[1].isdigit():
            err("SC105", "%s.%s must be a phase such as 'day 2' or 'night 1', got %r" % (what, key, v), d.where(key))

    try:
        data, dups = load_located(text, path, "SC101")
    except YamlProblem as exc:
        return [exc.diagnostic]
    diags.extend(dups)
    if isinstance(data, LDict) and "scenarios" in data:
        fields(data, FILE_FIELDS, "the file")
        items = data["scenarios"]
        if not isinstance(items, LList):
            err("SC102", "scenarios must be a list of scenarios", data.where("scenarios"))
            return diags
        if "roles" in data and not isinstance(data["roles"], list):
            err("SC105", "roles must be a list of role names, one a seat", data.where("roles"))
    else:
        items = data if isinstance(data, LList) else [data]
    for i, sc in enumerate(items):
        at = items.where(i) if isinstance(items, LList) else (1, 1)
        if not isinstance(sc, LDict):
            err("SC102", "a scenario must be a mapping (name, roles, decisions, expect...)", at)
            continue
        what = "scenario %r" % sc.get("name", i + 1)
        fields(sc, FIELDS, what)
        if "roles" in sc and not isinstance(sc["roles"], list):
            err("SC105", "%s.roles must be a list of role names, one a seat" % what, sc.where("roles"))
        if sc.get("until") is not None:
            phase(sc, "until", what)
        if "expect" in sc:
            if isinstance(sc["expect"], LDict):
                fields(sc["expect"], EXPECT, what + ".expect")
            else:
                err("SC105", "%s.expect must be a mapping" % what, sc.where("expect"))
        decisions = sc.get("decisions")
        if decisions is not None and not isinstance(decisions, LList):
            err("SC105", "%s.decisions must be a list" % what, sc.where("decisions"))
        for j, dec in enumerate(decisions if isinstance(decisions, LList) else ()):
            if not isinstance(dec, LDict):
                err("SC105", "%s: a decision must be a mapping such as {kind: vote, answer: 2}" % what, decisions.where(j))
                continue
            fields(dec, DECISION_FIELDS, what + " decision")
        speak = sc.get("speak")
        for j, talk in enumerate(speak if isinstance(speak, LList) else ()):
            if isinstance(talk, LDict) and "before" in talk:
                phase(talk, "before", what + ".speak")
    return diags


def _line_of(text: str, name: str) -> int:
    for i, ln in enumerate(text.splitlines(), 1):
        if "name:" in ln and name in ln:
            return i
    return 1


def run_file(path) -> list:
    path = Path(path)
    text, problem = read_located(path, "SC101")
    if problem is not None:  # not UTF-8 text: the located reason, never the file's bytes
        return [ScenarioResult(name=str(path), passed=False, file=str(path), failures=[
            "%s:%d:%d: %s" % (path, problem.span.line, problem.span.col, problem.message)])]
    problems = check_text(text, str(path))
    if problems:  # located, before anything runs (the same checks as the language server's)
        return [ScenarioResult(name=str(path), passed=False, file=str(path), failures=[
            "%s:%d:%d: error[%s]: %s" % (path, d.span.line, d.span.col, d.code, d.message) for d in problems])]
    # read again as plain values: the checker's located LDict/LList would reach the game's state,
    # which holds (and copies, marshals) plain data only
    data = yamlsafe.load(text, str(path), "SC101")
    items = data.get("scenarios") if isinstance(data, dict) and "scenarios" in data else data
    items = items if isinstance(items, list) else [items]
    defaults = {k: v for k, v in data.items() if k in ("game", "seed", "roles")} if isinstance(data, dict) and \
        "scenarios" in data else {}
    out = []
    for sc in items:
        if not isinstance(sc, dict):
            out.append(ScenarioResult(name=str(path), passed=False, file=str(path),
                                      failures=["%s: a scenario must be a mapping" % path]))
            continue
        merged = dict(defaults)
        merged.update(sc)
        out.append(run_scenario(merged, path, _line_of(text, str(sc.get("name")))))
    return out


def game_folder(path) -> Path | None:
    """The game folder of a scenario file: the nearest folder above it with a game.yaml."""
    p = Path(path).resolve()
    for d in [p.parent] + list(p.parent.parents):
        if (d / "game.yaml").is_file():
            return d
    return None


def scenario_names(path) -> list:
    """(name, line) of every scenario of a file, without running them ([] if it does not read)."""
    text, problem = read_located(path, "SC101")
    if problem is not None:
        return []
    try:
        data = yamlsafe.load(text, str(path), "SC101")
    except yamlsafe.YamlError:
        return []
    items = data.get("scenarios") if isinstance(data, dict) and "scenarios" in data else data
    items = items if isinstance(items, list) else [items]
    return [(str(sc.get("name")), _line_of(text, str(sc.get("name")))) for sc in items if isinstance(sc, dict)]


def is_werewolf_scenario(path) -> bool:
    """True if the scenario file belongs to a game whose game.yaml names the werewolf profile."""
    p = Path(path).resolve()
    for d in [p.parent] + list(p.parent.parents):
        gy = d / "game.yaml"
        if gy.is_file():
            try:
                data = yamlsafe.load(gy.read_text(encoding="utf-8"), str(gy), "RD101")
                return isinstance(data, dict) and data.get("profile") == "werewolf"
            except yamlsafe.YamlError:
                return False
        if (d / "cards.yaml").is_file():
            return False
    return False
