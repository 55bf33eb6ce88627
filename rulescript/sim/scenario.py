"""Scenario tests for card rules: a table set up, actions and decisions, the expected state.

The format is described in ``docs/scenarios.md``. Public API::

    from rulescript.sim.scenario import run_folder, run_path, run_scenario, main_test
    results = run_folder("cards/cfc-demo")          # game_dir/scenarios/**/*.yaml
    for r in results:
        print(r.status, r.name, r.failures)
    main_test(["cards/cfc-demo"], sys.stdout)       # PASS/FAIL lines, "N passed, M failed"

Loading and checking (codes SC1xx) live in :mod:`scenario_format`, building the table and driving
the game in :mod:`scenario_run`; this module runs scenarios and checks their expectations.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulescript.diagnostics import SourceText, render
from rulescript.textfile import NotText, read_text
from rulescript.runtime.errors import GameError, InvalidDecision
from rulescript.runtime.ports import ListSink
from rulescript.sim.gamelog import format_record
from rulescript.sim.scenario_format import (Scenario, load_scenario_file, parse_scenarios)
from rulescript.sim.scenario_run import (Driver, ScenarioFailure, Step, build_game, drive,
                                         ref_matches)

__all__ = ["Scenario", "ScenarioResult", "load_scenarios", "main_test", "parse_scenarios",
           "run_folder", "run_path", "run_scenario", "run_text", "scenario_files"]


from rulescript.sim.scenario_result import RULES_OVERRIDE, ScenarioResult  # noqa: E402  (re-exported)


# ---------------------------------------------------------------------- rules
_COMPILED = {}




def _rules_port(sc):
    """The rules port for a scenario: an Engine over the game's compiled rules, or None (NoRules)
    when ``rules: false`` or the game has no ``rules/`` folder."""
    if not sc.rules or sc.game_dir is None or not (sc.game_dir / "rules").is_dir():
        return None
    override = RULES_OVERRIDE.get(str(Path(sc.game_dir).resolve()))
    if override is not None:
        from rulescript.games import cfc
        from rulescript.runtime.engine import Engine
        return Engine(override, game=cfc)
    key = str(sc.game_dir)
    stamp = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in (sc.game_dir / "rules").rglob("*.ini")))
    got = _COMPILED.get(key)
    if got is None or got[0] != stamp:
        from rulescript.compiler import compile_game
        got = (stamp, compile_game(sc.game_dir))
        _COMPILED[key] = got
    compiled = got[1]
    if compiled.errors:
        raise ScenarioFailure("the game's rules do not compile:\n" + compiled.render())
    try:
        from rulescript.games import cfc
        from rulescript.runtime.engine import Engine
    except Exception as exc:  # noqa: BLE001 - an engine that does not import is reported
        raise ScenarioFailure("the rule engine cannot be loaded (%s: %s); use 'rules: false' for a "
                              "scenario without card rules" % (type(exc).__name__, exc))
    return Engine(compiled.rules, game=cfc)


# ---------------------------------------------------------------------- running
def _steps(sc):
    raw = sc.raw.get("steps") or []
    out = []
    for i, s in enumerate(raw):
        kind = next(iter(s))
        out.append(Step(i, kind, s[kind], raw.where(i)))
    return out


def _answers(sc):
    raw = sc.raw.get("decisions") or []
    return [(v, raw.where(i)) for i, v in enumerate(raw)]


def _log_line(rec, game):
    if rec.get("type") == "rule_error":
        e = rec["error"]
        card = e.get("card")
        return "  rule error %s: %s (%s, %s:%s)" % (e.get("code"), e.get("message"),
                                                    card[1] if card else "-", e.get("file"),
                                                    e.get("line"))
    try:
        return format_record(rec, game)
    except Exception:  # noqa: BLE001 - a record the printer does not know is shown raw
        return "  %r" % (rec,)


def run_scenario(sc):
    """Run one checked :class:`Scenario`; return a :class:`ScenarioResult`."""
    t0 = time.perf_counter()
    res = ScenarioResult(name=sc.name, passed=False, file=sc.file, line=sc.line,
                         pending=sc.pending, diagnostics=list(sc.diagnostics))
    if not sc.ok:
        res.failures = [render(d, _source(sc.file)) for d in sc.diagnostics if d.is_error]
        res.status = "fail"
        return res
    if sc.pending is not None:
        res.status = "skip"
        return res
    sink = ListSink()
    driver = Driver(sc, _steps(sc), _answers(sc))
    engine = None
    game = None
    outcome = None
    try:
        engine = _rules_port(sc)
        game = build_game(sc, driver, sink, engine)
        driver.game = game
        outcome = drive(game, driver)
    except ScenarioFailure as exc:
        res.failures.append(str(exc))
    except (GameError, InvalidDecision) as exc:
        step = driver.steps[driver.pos - 1] if 0 < driver.pos <= len(driver.steps) else None
        where = (" (during %s)" % step.label(sc.file)) if step is not None else ""
        res.failures.append("the game refused%s: %s: %s" % (where, type(exc).__name__, exc))
    except Exception as exc:  # noqa: BLE001 - an engine crash fails the scenario, with its type
        import traceback
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        res.failures.append("%s:%d: the run crashed: %s: %s (at %s:%d)" % (
            sc.file, sc.line, type(exc).__name__, exc, tb.filename, tb.lineno))
    res.game = game
    if game is not None:
        res.log = [_log_line(r, game) for r in sink.records]
        if engine is not None:     # errors the engine recorded without emitting a record
            emitted = set((r["error"].get("code"), r["error"].get("message"))
                          for r in sink.records if r.get("type") == "rule_error")
            for e in engine.errors:
                if (e.get("code"), e.get("message")) not in emitted:
                    res.log.append("  rule error %s: %s" % (e.get("code"), e.get("message")))
    if outcome is not None:
        if outcome == "over" and driver.pos < len(driver.steps):
            left = driver.steps[driver.pos:]
            res.failures.append("%s:%d: the game ended (%s) before %d step(s) were used, the first: %s"
                                % (sc.file, left[0].at[0], game.state["reason"], len(left),
                                   left[0].label(sc.file)))
        Expectations(sc, game, engine, driver, res).check()
    if engine is not None:
        res.ran = set(engine.ran)
        res.loaded = set(engine.loaded)
    res.status = "pass" if not res.failures else "fail"
    res.passed = res.status == "pass"
    res.seconds = time.perf_counter() - t0
    return res


_SOURCES = {}


def _source(filename):
    if filename not in _SOURCES:
        try:
            _SOURCES[filename] = SourceText(filename, read_text(filename))
        except (OSError, NotText):
            _SOURCES[filename] = None
    return _SOURCES[filename]


# ---------------------------------------------------------------------- expectations
class _Says(str):
    """A description (printed as is), not a value (printed quoted)."""


def _fmt(v):
    if isinstance(v, _Says):
        return str(v)
    if isinstance(v, str):
        return repr(v)
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (k, _fmt(x)) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _counts(ids):
    out = {}
    for i in ids:
        out[i] = out.get(i, 0) + 1
    return out


class Expectations:
    """Checks a scenario's ``expect`` against the game; every miss is one failure line."""

    def __init__(self, sc, game, engine, driver, res):
        self.sc = sc
        self.game = game
        self.engine = engine
        self.driver = driver
        self.res = res

    def fail(self, at, path, expected, actual, note=""):
        self.res.failures.append("%s:%d: %s: expected %s, got %s%s" % (
            self.sc.file, at[0], path, _fmt(expected), _fmt(actual), note))


    def ids(self, iids):
        return [self.game.state["cards"][i]["model"] for i in iids]

    def check(self):
        e = self.sc.raw.get("expect") or {}
        st = self.game.state
        at = e.where if hasattr(e, "where") else (lambda *a: (self.sc.line, 1))
        for key in ("over", "winner", "result", "turn", "active", "phase"):
            if key in e and st[key] != e[key]:
                self.fail(at(key), "expect." + key, e[key], st[key])
        if "reason" in e and (st["reason"] is None or e["reason"] not in st["reason"]):
            self.fail(at("reason"), "expect.reason", _Says("a reason containing %r" % e["reason"]),
                      st["reason"])
        left = len(self.driver.answers) - self.driver.apos
        want_left = e.get("decisions_left", 0)
        if left != want_left:
            unused = self.driver.answers[self.driver.apos:]
            note = ""
            if unused:
                note = " (the first unused decision is at line %d: %s)" % (unused[0][1][0],
                                                                         _fmt(unused[0][0]))
            self.fail(at("decisions_left") if "decisions_left" in e else (self.sc.line, 1),
                      "expect.decisions_left", want_left, left, note)
        self.errors(e, at)
        if "ran" in e:
            ran = set(str(r).lower() for r in (self.engine.ran if self.engine else ()))
            missing = [r for r in e["ran"] if r.lower() not in ran]
            if missing:
                self.fail(at("ran"), "expect.ran", _Says("rules %s to have resolved" % _fmt(missing)),
                          sorted(ran))
        lines = self.res.log
        for i, text in enumerate(e.get("log") or []):
            if not any(text in ln for ln in lines):
                self.fail(e["log"].where(i), "expect.log[%d]" % i, _Says("a log line containing %r" % text),
                          _Says("no such line (%d lines; see the log)" % len(lines)))
        for i, text in enumerate(e.get("no_log") or []):
            hits = [ln for ln in lines if text in ln]
            if hits:
                self.fail(e["no_log"].where(i), "expect.no_log[%d]" % i,
                          _Says("no log line containing %r" % text), _Says(hits[0].strip()))
        if "attacks" in e:
            self.attacks(e["attacks"], at("attacks"))
        players = e.get("players")
        if players is not None:
            items = list(enumerate(players)) if isinstance(players, list) else list(players.items())
            for p, pv in items:
                if pv is not None:
                    pat = players.where(p) if isinstance(players, list) else players.where(p)
                    self.player(p, pv, "expect.players[%d]" % p, pat)

    def errors(self, e, at):
        errs = list(self.engine.errors) if self.engine is not None else []
        shown = ["%s %s" % (x.get("code"), x.get("message")) for x in errs]
        want = e.get("errors", 0)
        where = at("errors") if "errors" in e else (self.sc.line, 1)
        if isinstance(want, int):
            if len(errs) != want:
                self.fail(where, "expect.errors", _Says("%d rule error(s)" % want), shown or _Says("none"))
            return
        if isinstance(want, dict):
            hits = [x for x in errs if self._error_matches(want, x)]
            if "count" in want:
                if len(hits) != want["count"]:
                    self.fail(where, "expect.errors", _Says("%d rule error(s) matching %s" % (
                        want["count"], _fmt({k: v for k, v in want.items() if k != "count"}))),
                        shown or _Says("none"))
            elif not hits:
                self.fail(where, "expect.errors", _Says("a rule error matching %s" % _fmt(dict(want))),
                          shown or _Says("none"))
            return
        if len(errs) != len(want):
            self.fail(where, "expect.errors", _Says("%d rule error(s)" % len(want)), shown or _Says("none"))
            return
        for i, (w, x) in enumerate(zip(want, errs)):
            if not self._error_matches(w, x):
                self.fail(want.where(i), "expect.errors[%d]" % i, dict(w), _Says(shown[i]))

    @staticmethod
    def _error_matches(w, x):
        if "code" in w and x.get("code") != w["code"]:
            return False
        if "message" in w and w["message"] not in (x.get("message") or ""):
            return False
        if "card" in w:
            card = x.get("card") or [None, None]
            if str(card[1]).lower() != str(w["card"]).lower():
                return False
        return True

    def attacks(self, want, at):
        st = self.game.state
        shown = [{"lead": self.ids([a["lead"]])[0], "followers": self.ids(a["followers"]),
                  "blocker": self.ids([a["blocker"]])[0] if a["blocker"] is not None else None}
                 for a in st["attacks"]]
        if isinstance(want, int):
            if len(st["attacks"]) != want:
                self.fail(at, "expect.attacks", _Says("%d attack(s)" % want), shown)
            return
        if len(want) != len(st["attacks"]):
            self.fail(at, "expect.attacks", _Says("%d attack(s)" % len(want)), shown)
            return
        p = st["active"]
        for i, (w, a) in enumerate(zip(want, st["attacks"])):
            ok = ref_matches(self.game, w["lead"], a["lead"], p)
            if "followers" in w:
                ok = ok and len(w["followers"]) == len(a["followers"]) and all(
                    ref_matches(self.game, r, f, p) for r, f in zip(w["followers"], a["followers"]))
            if "blocker" in w:
                if w["blocker"] is None:
                    ok = ok and a["blocker"] is None
                else:
                    ok = ok and a["blocker"] is not None and ref_matches(self.game, w["blocker"],
                                                                         a["blocker"], 1 - p)
            if not ok:
                self.fail(want.where(i), "expect.attacks[%d]" % i, dict(w), shown[i])

    def pile(self, want, iids, at, path):
        got = self.ids(iids)
        if isinstance(want, list):
            if got != list(want):
                self.fail(at, path, list(want), got)
            return
        if isinstance(want, int):
            if len(got) != want:
                self.fail(at, path, _Says("%d card(s)" % want), got)
            return
        gc = _counts(got)
        if "count" in want and len(got) != want["count"]:
            self.fail(want.where("count"), path + ".count", want["count"], len(got),
                      " (%s)" % _fmt(got))
        if "contains" in want:
            wc = _counts(want["contains"])
            if any(gc.get(k, 0) < n for k, n in wc.items()):
                self.fail(want.where("contains"), path + ".contains",
                          _Says("to contain %s" % _fmt(list(want["contains"]))), got)
        if "excludes" in want:
            bad = [k for k in want["excludes"] if k in gc]
            if bad:
                self.fail(want.where("excludes"), path + ".excludes", _Says("no %s" % _fmt(bad)), got)
        if "set" in want and _counts(want["set"]) != gc:
            self.fail(want.where("set"), path + ".set", _Says("in any order %s" % _fmt(sorted(want["set"]))),
                      sorted(got))
        if "top" in want and got[:len(want["top"])] != list(want["top"]):
            self.fail(want.where("top"), path + ".top", _Says("on top %s" % _fmt(list(want["top"]))), got)
        if "bottom" in want:
            n = len(want["bottom"])
            if n and got[-n:] != list(want["bottom"]):
                self.fail(want.where("bottom"), path + ".bottom",
                          _Says("at the bottom %s" % _fmt(list(want["bottom"]))), got)

    def player(self, p, pv, path, pat):
        g = self.game
        pl = g.state["players"][p]
        for key in ("hp", "sp", "extra_turns", "chars_played", "chars_allowed", "backups_played"):
            if key in pv and pl[key] != pv[key]:
                self.fail(pv.where(key), "%s.%s" % (path, key), pv[key], pl[key])
        if "skip" in pv and list(pl["skip"]) != list(pv["skip"]):
            self.fail(pv.where("skip"), path + ".skip", list(pv["skip"]), pl["skip"])
        for pile in ("hand", "deck", "discards", "removed", "table"):
            if pile in pv:
                self.pile(pv[pile], pl[pile], pv.where(pile), "%s.%s" % (path, pile))
        for ab in pv.get("abilities") or []:
            if not g.player_has_ability(p, ab):
                self.fail(pv.where("abilities"), path + ".abilities", _Says("player %d to have %s" % (p, ab)),
                          _Says("not held"))
        for ab in pv.get("lacks") or []:
            if g.player_has_ability(p, ab):
                self.fail(pv.where("lacks"), path + ".lacks", _Says("player %d not to have %s" % (p, ab)),
                          _Says("held"))
        for rule, value in (pv.get("rules") or {}).items():
            got = g.rule(rule, p)
            if got != value or isinstance(got, bool) != isinstance(value, bool):
                self.fail(pv["rules"].where(rule), "%s.rules.%s" % (path, rule), value, got)
        if "ring" in pv:
            ring = pv["ring"]
            slots = list(enumerate(ring)) if isinstance(ring, list) else sorted(ring.items())
            for slot, want in slots:
                wat = ring.where(slot)
                self.slot(p, slot, want, wat, "%s.ring[%d]" % (path, slot))

    def slot(self, p, slot, want, at, path):
        g = self.game
        iid = g.state["players"][p]["ring"][slot]
        got = None if iid is None else g.state["cards"][iid]["model"]
        if want is None:
            if iid is not None:
                self.fail(at, path, _Says("an empty slot"), got)
            return
        if want == "*":
            if iid is None:
                self.fail(at, path, _Says("a character"), _Says("an empty slot"))
            return
        if isinstance(want, str):
            if got != want:
                self.fail(at, path, want, got if got is not None else _Says("an empty slot"))
            return
        if iid is None:
            self.fail(at, path, dict(want), _Says("an empty slot"))
            return
        c = g.state["cards"][iid]
        if "card" in want and got != want["card"]:
            self.fail(want.where("card"), path + ".card", want["card"], got)
        for key in ("bp", "lastBP", "frozen", "fresh", "used", "attacking", "blocked", "ua", "rules"):
            if key in want and c[key] != want[key]:
                self.fail(want.where(key), "%s.%s" % (path, key), want[key], c[key],
                          " (%s)" % got)
        if "backups" in want:
            self.pile(want["backups"], c["backups"], want.where("backups"), path + ".backups")
        for ab in want.get("abilities") or []:
            if not g.has_ability(iid, ab):
                self.fail(want.where("abilities"), path + ".abilities", _Says("%s to have %s" % (got, ab)),
                          _Says("not held"))
        for ab in want.get("lacks") or []:
            if g.has_ability(iid, ab):
                self.fail(want.where("lacks"), path + ".lacks", _Says("%s not to have %s" % (got, ab)),
                          _Says("held"))


# ---------------------------------------------------------------------- files and folders
def load_scenarios(path):
    """``(scenarios, file_diagnostics)`` of one file."""
    return load_scenario_file(path)


def _file_result(path, diags):
    name = Path(path).name
    d0 = diags[0]
    return ScenarioResult(name=name, passed=False, file=str(path), line=d0.span.line, status="fail",
                          failures=[render(d, _source(str(path))) for d in diags],
                          diagnostics=list(diags))


def run_file(path):
    from rulescript.sim import wolf_scenarios

    if wolf_scenarios.is_werewolf_scenario(path):  # a game of the werewolf profile has its own format
        return wolf_scenarios.run_file(path)
    scenarios, diags = load_scenario_file(path)
    out = []
    if diags:
        out.append(_file_result(path, diags))
    for sc in scenarios:
        out.append(run_scenario(sc))
    return out


def run_text(text, filename="<scenario>", base_dir=None):
    """Parse and run scenario YAML given as text (for tests and tools)."""
    scenarios, diags = parse_scenarios(text, filename, base_dir)
    out = []
    if diags:
        r = ScenarioResult(name=filename, passed=False, file=filename, line=diags[0].span.line,
                           status="fail", diagnostics=list(diags),
                           failures=[render(d, SourceText(filename, text)) for d in diags])
        out.append(r)
    for sc in scenarios:
        if not sc.ok:
            src = SourceText(filename, text)
            r = ScenarioResult(name=sc.name, passed=False, file=filename, line=sc.line,
                               status="fail", diagnostics=list(sc.diagnostics),
                               failures=[render(d, src) for d in sc.diagnostics if d.is_error])
            out.append(r)
        else:
            out.append(run_scenario(sc))
    return out


def scenario_files(path):
    """The scenario files of a path: a file itself; for a game folder (it has a ``cards.yaml`` or a
    ``scenarios`` folder) ``scenarios/**/*.yaml``; for any other folder every ``*.yaml``/``*.yml``
    below it."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        return []
    if (p / "cards.yaml").is_file() or (p / "scenarios").is_dir():
        base = p / "scenarios"          # a game folder: only its scenarios
        if not base.is_dir():
            return []
    else:
        base = p
    return sorted(set(base.rglob("*.yaml")) | set(base.rglob("*.yml")))


def run_folder(game_dir):
    """Run every scenario of ``game_dir/scenarios/**/*.yaml``; return the results."""
    base = Path(game_dir) / "scenarios"
    out = []
    for f in sorted(set(base.rglob("*.yaml")) | set(base.rglob("*.yml"))) if base.is_dir() else []:
        out.extend(run_file(f))
    return out


def run_path(path):
    """Run the scenarios of a file, a game folder or a folder of scenario files."""
    out = []
    for f in scenario_files(path):
        out.extend(run_file(f))
    return out


def _indent(text, pad="    "):
    return "\n".join(pad + ln for ln in str(text).split("\n"))


def _broken_rules(game_dir):
    """The compile result of a game folder whose rules have errors, else None (compiled once per
    folder and modification of its rule files, like the scenarios' own rules)."""
    if game_dir is None or RULES_OVERRIDE.get(str(Path(game_dir).resolve())) is not None:
        return None
    if not (Path(game_dir) / "rules").is_dir():
        return None
    key = str(game_dir)
    stamp = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in (Path(game_dir) / "rules").rglob("*.ini")))
    got = _COMPILED.get(key)
    if got is None or got[0] != stamp:
        from rulescript.compiler import compile_game
        got = (stamp, compile_game(game_dir))
        _COMPILED[key] = got
    return got[1] if got[1].errors else None


def main_test(paths, out=None, verbose=False, fmt="text"):
    """Run the scenarios of the given game folders, folders or files; print one line per scenario
    (``PASS name``, ``FAIL name`` with indented reasons, ``SKIP name (pending: ...)``) and end with
    ``N passed, M failed``. Returns 0 if none failed, else 1 (also when no scenario was found).

    When a game's rules do not compile, its diagnostics are printed once and the scenarios that need
    the rules are reported as not run (and count as failures)."""
    out = out if out is not None else sys.stdout
    passed = failed = skipped = not_run = 0
    results = []
    reported = set()
    found = False

    from rulescript.cliutil import paint, use_colour
    from rulescript.sim import wolf_scenarios
    colour = use_colour(out)

    def emit(text):
        if fmt == "text":
            if colour and text.startswith(("PASS ", "FAIL ")):
                text = paint(text[:4], "green" if text[0] == "P" else "red", True) + text[4:]
            out.write(text)

    for path in paths:
        if not Path(path).exists():
            emit("FAIL %s\n%s\n" % (path, _indent("no such file or folder")))
            results.append({"name": str(path), "file": str(path), "line": 0, "status": "fail",
                            "failures": ["no such file or folder"]})
            failed += 1
            continue
        files = scenario_files(path)
        if not files:
            emit("note: no scenario files in %s\n" % path)
        for f in files:
            if wolf_scenarios.is_werewolf_scenario(f):  # a game of the werewolf profile has its own format
                scenarios, rs = [], []
                game_dir = wolf_scenarios.game_folder(f)
                broken = _broken_rules(game_dir)
                if broken is None:
                    rs = wolf_scenarios.run_file(f)
                    found = found or bool(rs)
                else:  # like a CFC game's: the rules' errors once, its scenarios not run
                    for name, line in wolf_scenarios.scenario_names(f):
                        found = True
                        not_run += 1
                        results.append({"name": name, "file": str(f), "line": line, "status": "not run",
                                        "failures": ["the game's rules do not compile"]})
                    if str(game_dir) not in reported:
                        reported.add(str(game_dir))
                        emit("the rules of %s do not compile; the scenarios that use them are not run:\n%s\n"
                             % (game_dir, _indent(broken.render())))
            else:
                scenarios, diags = load_scenario_file(f)
                found = found or bool(scenarios) or bool(diags)
                rs = [_file_result(f, diags)] if diags else []
            for sc in scenarios:
                broken = _broken_rules(sc.game_dir) if sc.ok and sc.rules and sc.pending is None else None
                if broken is None:
                    rs.append(run_scenario(sc))
                    continue
                not_run += 1
                results.append({"name": sc.name, "file": sc.file, "line": sc.line, "status": "not run",
                                "failures": ["the game's rules do not compile"]})
                if str(sc.game_dir) not in reported:
                    reported.add(str(sc.game_dir))
                    emit("the rules of %s do not compile; the scenarios that use them are not run:\n%s\n"
                         % (sc.game_dir, _indent(broken.render())))
            for r in rs:
                results.append({"name": r.name, "file": r.file, "line": r.line, "status": r.status,
                                "failures": list(r.failures)})
                if r.status == "pass":
                    passed += 1
                    emit("PASS %s\n" % r.name)
                elif r.status == "skip":
                    skipped += 1
                    emit("SKIP %s (pending: %s)\n" % (r.name, r.pending))
                else:
                    failed += 1
                    emit("FAIL %s\n" % r.name)
                    for msg in r.failures:
                        emit(_indent(msg) + "\n")
                    if verbose and r.log:
                        emit("    log:\n")
                        for ln in r.log:
                            emit("      " + ln + "\n")
    if fmt == "json":
        import json
        out.write(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
        return 0 if failed == 0 and not_run == 0 and found else 1
    if not found and not failed:
        out.write("no scenarios found in %s (scenarios are scenarios/*.yaml files of a game folder; "
                  "see docs/scenarios.md)\n" % ", ".join(str(p) for p in paths))
    if skipped:
        out.write("%d skipped\n" % skipped)
    if not_run:
        out.write("%d not run (the rules do not compile)\n" % not_run)
    out.write("%d passed, %d failed\n" % (passed, failed + not_run))
    return 0 if failed == 0 and not_run == 0 and found else 1


if __name__ == "__main__":  # pragma: no cover - a convenience for running from a shell
    sys.exit(main_test(sys.argv[1:] or ["."], sys.stdout, verbose=True))
