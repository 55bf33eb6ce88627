"""Mutation testing of rulescript-bridge: does each area's test suite notice a one-line bug?

    python tools/mutation/run.py                         # every area, 40 seeded mutants each
    python tools/mutation/run.py werewolf aiwolf -n 80   # some areas, 80 mutants each
    python tools/mutation/run.py runtime -n 0            # every mutant of the area (long)
    python tools/mutation/run.py --known                 # the mutants of issue 22 against their tests
    python tools/mutation/run.py --ci-sample             # the fixed sample of sample.py against their tests
    python tools/mutation/run.py --list cfc              # print the area's mutants, run nothing

The checkout is copied once to a temporary folder; each mutant is written into the copy, the area's
own tests run there (``pytest -x``, bytecode caching off so that no stale ``.pyc`` hides a mutant),
and the file is put back.  A mutant is *killed* when the tests fail or time out, *survives* when they
pass.  Surviving mutants listed in ``equivalent.py`` (with why they cannot change behaviour) are not
counted.  Exit status: 0 if every area reaches ``--threshold`` (default 0.9), else 1; 2 on usage
errors or when an area's tests fail without any mutant.  Run it with ``nice``: it is CPU heavy.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from equivalent import EQUIVALENT  # noqa: E402
from known import KNOWN  # noqa: E402
from linemap import LineMap, read_map, run_covered  # noqa: E402
from mutants import Mutant, compiles, find_mutants  # noqa: E402
from sample import SAMPLE  # noqa: E402


@dataclass(frozen=True)
class Area:
    files: tuple[str, ...]
    tests: tuple[str, ...]
    #: with --wide, also these: the rest of the suite that runs the area's code (its games played whole,
    #: on the simulated table and the OCTGN host, its command lines, its documents' examples)
    wide: tuple[str, ...] = ()

    def test_list(self, wide: bool) -> tuple[str, ...]:
        return self.tests + self.wide if wide else self.tests


RT = "tests/runtime/"
WW = "tests/werewolf/"
#: each area's code and its own tests (the files that test that code; processes, fuzzing and the tests
#: that time themselves, like tests/runtime/test_budget.py, left out: a loaded machine fails them)
AREAS: dict[str, Area] = {
    "runtime": Area(("rulescript/runtime/engine.py", "rulescript/runtime/expr.py",
                     "rulescript/runtime/targets.py", "rulescript/runtime/resolution.py"),
                    tuple(RT + f for f in ("test_rules_pinned.py", "test_rules_pinned_more.py", "test_engine_pinned.py", "test_engine.py", "test_expr.py", "test_targets.py",
                                           "test_replay_hooks.py", "test_commands.py", "test_budget.py", "test_ports.py"))
                    # the budget's loops against a wall-clock second, and shared sublists against two seconds: on a
                    # loaded machine they fail without a mutant (the second took 30 s at load average 14)
                    + ("--deselect=tests/runtime/test_budget.py::test_loops_past_the_step_budget_are_rs514_within_a_second",
                       "--deselect=tests/runtime/test_budget.py::test_shared_sublists_cannot_multiply_the_work")),
    "cfc": Area(("rulescript/games/cfc/combat.py", "rulescript/games/cfc/commands.py",
                 "rulescript/games/cfc/flow.py", "rulescript/games/cfc/game.py", "rulescript/games/cfc/play.py",
                 "rulescript/games/cfc/lasting.py"),
                tuple(RT + f for f in ("test_cfc_pinned.py", "test_rules_pinned.py", "test_rules_pinned_more.py", "test_combat.py", "test_commands.py", "test_costs_play.py",
                                       "test_flow.py", "test_ops.py", "test_backups.py", "test_table_face.py",
                                       "test_engine.py", "test_ports.py"))),
    "werewolf": Area(("rulescript/games/werewolf/game.py", "rulescript/games/werewolf/commands.py"),
                     tuple(WW + f for f in ("test_game_pinned.py", "test_rules_pinned.py", "test_game.py",
                                            "test_game_effects.py", "test_poll_settings.py", "test_values.py",
                                            "test_scenarios.py"))),
    "compiler": Area(("rulescript/compiler/compile_filter.py", "rulescript/compiler/compile_rule.py",
                      "rulescript/compiler/compile_expr.py", "rulescript/compiler/driver.py"),
                     tuple("tests/compiler/" + f for f in ("test_checks_pinned.py", "test_compile_rule.py",
                                                           "test_diagnostics.py", "test_forms.py", "test_expr_fast.py",
                                                           "test_context.py", "test_escapes.py",
                                                           "test_game_agnostic.py", "test_cli_and_cache.py",
                                                           "test_collector.py"))
                     # the filter reading's fast path against the grammar's (the rest of test_parser.py is the parser's),
                     # and the golden output: the IR and diagnostics of the demo game, generated rules and 600 damaged
                     # files as recorded (half a second; recorded from the compiler, not worked out by hand)
                     + ("tests/compiler/test_parser.py::test_filter_lowering_fast_path_matches_the_exact_path",
                        "tests/compiler/test_parser.py::test_golden_compile_output")),
    "renderer": Area(("wwrf_adapter/render/exprs.py", "wwrf_adapter/render/rules.py",
                      "wwrf_adapter/render/book.py"),
                     tuple(WW + f for f in ("test_render_pinned.py", "test_render.py", "test_coverage.py",
                                            "test_scenarios.py"))
                     # the forms book (about 11 s): rendered whole, small books for element ids (WW404), teams,
                     # For Each, an exception of the renderer as WW401, and its scenarios
                     + (WW + "test_forms_book.py",)),
    # the tests of the parser's and the server's rules, but the one that times agents (the whole of tests/aiwolf, with the reference logs,
    # the client, the command line and the end-to-end serving, took 770 s and more per run on a loaded machine)
    "aiwolf": Area(("wwrf_adapter/aiwolf/parser.py", "wwrf_adapter/aiwolf/host.py"),
                   tuple("tests/aiwolf/" + f for f in ("test_rules_pinned.py", "test_host_pinned.py", "test_parser.py",
                                                      "test_settings.py", "test_server.py", "test_server_faults.py",
                                                      # what the reference server tells agents and when (8 s), and
                                                      # every example sentence of the protocol text (5 s)
                                                      "test_reference_gameinfo.py", "test_spec_examples.py"))
                   # built-in agents against the server's 1000 ms time limit: on a loaded machine a talk
                   # takes longer and the test fails without any mutant
                   + ("--deselect=tests/aiwolf/test_server.py::test_built_in_agents_play_whole_games",)),
    "octgn": Area(("octgn_pack/host/codec.py", "octgn_pack/host/lockstep.py"),
                  tuple("tests/octgn_host/" + f for f in ("test_rules_pinned.py", "test_codec.py", "test_lockstep.py",
                                                          "test_game.py", "test_dialogs.py", "test_tablesync.py"))),
}

#: the rest of the suite that runs each area's code (``--wide``): the games played whole (the simulated
#: table, the OCTGN host, the authoring table, the command line), the documents' examples, the WWRF guides
_GAMES_PLAYED = ("tests/runtime", "tests/sim", "tests/octgn_host/test_game.py", "tests/octgn_host/test_game_cards.py",
                 "tests/octgn_host/test_multiplayer.py", "tests/authoring/test_play.py",
                 "tests/cli/test_saves_and_table.py", "tests/cli/test_table_mistakes.py",
                 # the budget's tests against a wall clock: on a loaded machine they fail without a mutant
                 "--deselect=tests/runtime/test_budget.py::test_loops_past_the_step_budget_are_rs514_within_a_second",
                 "--deselect=tests/runtime/test_budget.py::test_shared_sublists_cannot_multiply_the_work")
WIDE: dict[str, tuple[str, ...]] = {
    # the werewolf game's pinned rules run the engine's paths only its vocabulary reaches
    "runtime": _GAMES_PLAYED + ("tests/werewolf/test_rules_pinned.py", "tests/werewolf/test_game_pinned.py"),
    "cfc": _GAMES_PLAYED,
    "werewolf": ("tests/werewolf", "tests/octgn_host/test_werewolf.py"),
    "compiler": ("tests/compiler", "tests/docs/test_language.py", "tests/docs/test_game_format.py",
                 "tests/cli/test_compiler_messages.py", "tests/cli/test_did_you_mean.py", "tests/cli/test_bad_input.py"),
    "renderer": ("tests/werewolf", "tests/wwrf", "tests/docs/test_werewolf_tutorial.py"),
    "aiwolf": ("tests/aiwolf",),
    "octgn": ("tests/octgn_host",),
}
for _name, _wide in WIDE.items():
    AREAS[_name] = Area(AREAS[_name].files, AREAS[_name].tests, _wide)

#: tests of the same area that are long and test nothing a mutant of it could change (fuzz campaigns)
DESELECT = ("-m", "not slow and not fuzz and not mutation")


@dataclass
class Outcome:
    mutant: Mutant
    status: str          # killed, timeout, survived, equivalent, flaky (its failing tests fail without it too)
    seconds: float
    note: str = ""       # "no test runs its line" (--by-line: survived without running anything)


@dataclass
class AreaReport:
    name: str
    outcomes: list[Outcome] = field(default_factory=list)
    baseline_s: float = 0.0

    def count(self, *statuses: str) -> int:
        return sum(1 for o in self.outcomes if o.status in statuses)

    @property
    def score(self) -> float:
        counted = self.count("killed", "timeout", "survived", "flaky")
        return self.count("killed", "timeout") / counted if counted else 1.0


# ---------------------------------------------------------------------------- the copy and the tests

def make_copy(dest: Path) -> Path:
    """A copy of the checkout's code, tests and data (no .git, no bytecode) in ``dest``."""
    ignore = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", "mutants",
                                    "node_modules", ".rulescript-cache")
    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    return dest


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a mutant of the same size in the same second: no stale .pyc
    env["PYTHONHASHSEED"] = "0"
    return env


#: seconds one test may take under a mutant: a test of these areas takes a few seconds even on a loaded
#: machine, so a test that runs this long is a loop that no longer ends (pytest-timeout stops it)
PER_TEST = 180


def pytest_args(per_test: int, first_failure: bool) -> list[str]:
    """pytest's options for a run of an area's tests (before the tests themselves)."""
    return ["-q", "-p", "no:cacheprovider", "-o", f"timeout={per_test}", *DESELECT,
            *(["-x"] if first_failure else [])]


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float, first_failure: bool = True,
              report: list[str] | None = None, line_data: Path | None = None,
              code_files: tuple[str, ...] = ()) -> str:
    """'passed', 'failed' or 'timeout' for pytest on ``tests`` in ``copy`` (its output into ``report``).
    Each test has PER_TEST seconds; ``timeout`` bounds the whole run.  With ``line_data``, the run is
    made under coverage (of ``code_files``) for the line map (linemap.py), whose data goes there."""
    per_test = min(PER_TEST, max(30, int(timeout)))
    args = pytest_args(per_test, first_failure)
    started = time.perf_counter()
    try:
        if line_data is not None:
            proc = run_covered(copy, code_files, tests, _env(copy), line_data, args, timeout)
        else:
            proc = subprocess.run([sys.executable, "-m", "pytest", *args, *tests], cwd=copy, env=_env(copy),
                                  capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if report is not None:
        report.append(proc.stdout[-3000:])
    if "Timeout (>" in proc.stdout:
        return "timeout"
    if proc.returncode == 0:
        return "passed"
    if proc.returncode == 1:
        return "failed"
    if time.perf_counter() - started >= per_test and "INTERNALERROR" in proc.stdout:
        # pytest-timeout stopped a test inside code whose traceback pytest then failed to format (an
        # INTERNALERROR, exit 3, without the "Timeout (>" line): a test that ran past the limit
        return "timeout"
    if "INTERNALERROR" in proc.stdout and "repr_excinfo" in proc.stdout:
        # a test failed and pytest then crashed writing its report (a traceback entry without a line
        # number, which Python 3.11 can give for code a mutant changed): the failure is the mutant's
        return "failed"
    raise RuntimeError(f"pytest could not run {tests} (exit {proc.returncode}):\n{proc.stdout[-2000:]}"
                       f"\n{proc.stderr[-2000:]}")


def with_mutant(copy: Path, rel: str, text: str, tests: tuple[str, ...], timeout: float,
                report: list[str] | None = None) -> str:
    """Write ``text`` as ``rel`` in the copy, run the tests, put the original back."""
    path = copy / rel
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(text, encoding="utf-8")
        return run_tests(copy, tests, timeout, report=report)
    finally:
        path.write_text(original, encoding="utf-8")


def failed_tests(output: str) -> list[str]:
    """The node ids pytest's summary names as failed or in error (``FAILED id - message``)."""
    out = []
    for line in output.splitlines():
        for head in ("FAILED ", "ERROR "):
            if line.startswith(head):
                out.append(line[len(head):].split(" - ", 1)[0].strip())
    return out


def confirmed(copy: Path, output: str, tests: tuple[str, ...], timeout: float) -> bool:
    """Whether a kill is the mutant's: the tests that failed with it pass without it (a test that
    fails on its own, say a timing test on a loaded machine, is not a kill)."""
    failed = failed_tests(output)
    if not failed:
        return True  # pytest said nothing of what failed (a crash of the run itself): the mutant's
    options = tuple(t for t in tests if t.startswith("-"))
    return run_tests(copy, tuple(failed) + options, timeout, first_failure=False) == "passed"


# ---------------------------------------------------------------------------- areas

def area_mutants(name: str, root: Path = ROOT) -> list[Mutant]:
    out: list[Mutant] = []
    for rel in AREAS[name].files:
        out += find_mutants(root, rel)
    return out


def sample(mutants: list[Mutant], n: int, seed: int, name: str) -> list[Mutant]:
    if n <= 0 or n >= len(mutants):
        return list(mutants)
    rng = random.Random(f"{seed}:{name}")
    return sorted(rng.sample(mutants, n), key=lambda m: (m.file, m.line, m.start, m.new))


def recorded_line(described: str) -> int | None:
    """The line of a mutant as ``Mutant.describe`` wrote it (``file:LINE [op] ...``)."""
    where = described.split(" ", 1)[0]
    return int(where.rsplit(":", 1)[1]) if where.rsplit(":", 1)[-1].isdigit() else None


def rerun_mutants(mutants: list, keys: dict) -> list:
    """The mutants a ``--rerun`` names. A key names a line by its text, and several lines of a file
    can hold the same text (``return True``): of those, the one nearest each recorded line, so that a
    rerun runs the mutants that survived and no others."""
    chosen = []
    for key, lines in keys.items():
        same = [m for m in mutants if m.key == key]
        for line in lines:
            if same:
                best = min(same, key=lambda m: abs(m.line - line) if line is not None else 0)
                same.remove(best)
                chosen.append(best)
    return sorted(chosen, key=lambda m: (m.file, m.line, m.start))


def run_area(name: str, copy: Path, n: int, seed: int, keys: dict[str, list] | None = None, log=print,
             report: AreaReport | None = None, saved=lambda: None, by_line: bool = False,
             wide: bool = False) -> AreaReport:
    """Run a seeded sample of ``n`` mutants of the area (or, with ``keys``, the mutants a rerun names: see ``rerun_mutants``) into
    ``report``; ``saved()`` is called after each mutant (so that a stopped run keeps what it measured).
    ``by_line``: each mutant runs only the area's test files that run its line (linemap.py); ``wide``:
    the area's wide list too.  A kill counts once the tests that failed pass without the mutant
    (else the mutant is *flaky*, counted as a survivor)."""
    area = AREAS[name]
    area_tests = area.test_list(wide)
    report = report if report is not None else AreaReport(name)
    t0 = time.perf_counter()
    out: list[str] = []
    line_data = copy.parent / f"linemap-{name}" / ".coverage" if by_line else None
    if line_data is not None:
        shutil.rmtree(line_data.parent, ignore_errors=True)
        line_data.parent.mkdir()
    if run_tests(copy, area_tests, timeout=3600, first_failure=False, report=out, line_data=line_data,
                 code_files=area.files) != "passed":
        raise SystemExit(f"{name}: the area's tests fail without any mutant; fix them first\n" + "".join(out))
    report.baseline_s = time.perf_counter() - t0
    lines: LineMap | None = read_map(copy, area.files, line_data, area_tests) if line_data is not None else None
    timeout = 3 * report.baseline_s + 600  # slack for a machine whose load rises during the run
    # the mutants and the texts they change are the copy's: the checkout may be edited while a run goes on
    chosen = rerun_mutants(area_mutants(name, copy), keys) if keys is not None \
        else sample(area_mutants(name, copy), n, seed, name)
    log(f"== {name}: {len(chosen)} mutants; tests {' '.join(area_tests)} take {report.baseline_s:.0f} s"
        + (" (under coverage, for the line map)" if lines is not None else ""))
    for i, m in enumerate(chosen, 1):
        t = time.perf_counter()
        original = (copy / m.file).read_text(encoding="utf-8")
        if not compiles(m, original):
            log(f"  {i:3d}/{len(chosen)} {'invalid':10s} {m.describe()}")
            continue
        tests = lines.tests_for(m.file, m.line, area_tests) if lines is not None else area_tests
        output: list[str] = []
        got = with_mutant(copy, m.file, m.apply(original), tests, timeout, output) if tests else "passed"
        status = {"failed": "killed", "timeout": "timeout", "passed": "survived"}[got]
        if status == "killed" and not confirmed(copy, "".join(output), tests, timeout):
            status = "flaky"
        if status == "survived" and m.key in EQUIVALENT:
            status = "equivalent"
        note = "" if tests else "no test runs its line"
        report.outcomes.append(Outcome(m, status, time.perf_counter() - t, note))
        saved()
        files = len({t.split("::")[0] for t in tests if not t.startswith("-")})
        log(f"  {i:3d}/{len(chosen)} {status:10s} {m.describe()}"
            + (f"    ({note})" if note else f"    ({files} test files)" if lines is not None else ""))
    return report


def run_known(copy: Path, only: str = "", log=print) -> list[tuple[str, str]]:
    """Each mutant of issue 22 (whose description holds ``only``) against the tests that pin it:
    [(description, status)]."""
    out = []
    for k in [k for k in KNOWN if only in k.describe()]:
        out.append(_pinned(copy, k.file, k.apply, k.tests, k.describe(), log))
    return out


def _pinned(copy: Path, file: str, apply, tests: list[str], described: str, log) -> tuple[str, str]:
    """One mutant of ``file`` (``apply`` makes it from the file's text) against the ``tests`` that
    pin it: (description, status)."""
    original = (copy / file).read_text(encoding="utf-8")
    got = with_mutant(copy, file, apply(original), tests, timeout=600)
    status = {"failed": "killed", "timeout": "timeout", "passed": "survived"}[got]
    log(f"  {status:9s} {described}")
    return described, status


def run_sample(copy: Path, log=print) -> list[tuple[str, str]]:
    """Each mutant of the CI sample (sample.py) against the tests that kill it: [(description, status)];
    status 'missing' when no mutant of the area has the key any more (its line changed: draw again)."""
    out = []
    by_area: dict[str, list[Mutant]] = {}
    for s in SAMPLE:
        mutants = by_area.setdefault(s.area, area_mutants(s.area, copy))
        found = [m for m in mutants if m.key == s.key]
        if len(found) != 1:
            out.append((s.key, "missing"))
            log(f"  {'missing':9s} {s.key}")
            continue
        m = found[0]
        out.append(_pinned(copy, m.file, m.apply, s.tests, m.describe(), log))
    return out


def render(reports: list[AreaReport]) -> str:
    lines = [f"{'area':10} {'mutants':>7} {'killed':>7} {'timeout':>7} {'survived':>8} {'flaky':>5} {'equiv.':>6} {'score':>6}"]
    for r in reports:
        lines.append(f"{r.name:10} {len(r.outcomes):7d} {r.count('killed'):7d} {r.count('timeout'):7d} "
                     f"{r.count('survived'):8d} {r.count('flaky'):5d} {r.count('equivalent'):6d} {r.score:6.0%}")
    for r in reports:
        for o in r.outcomes:
            if o.status in ("survived", "flaky"):
                lines.append(f"survived: {o.mutant.describe()}\n    key: {o.mutant.key}")
    return "\n".join(lines)


def write_json(path: Path, reports: list[AreaReport]) -> None:
    path.write_text(json.dumps({r.name: {"baseline_s": round(r.baseline_s, 1), "score": r.score,
                                         "outcomes": [{"mutant": o.mutant.describe(), "key": o.mutant.key,
                                                       "status": o.status, "seconds": round(o.seconds, 1),
                                                       **({"note": o.note} if o.note else {})}
                                                      for o in r.outcomes]}
                                for r in reports}, indent=1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("areas", nargs="*", help=f"areas to test (default: all): {', '.join(AREAS)}")
    ap.add_argument("-n", "--sample", type=int, default=40, help="mutants per area, 0 for all (default 40)")
    ap.add_argument("--seed", type=int, default=22, help="seed of the sample (default 22)")
    ap.add_argument("--threshold", type=float, default=0.9, help="lowest passing score per area (default 0.9)")
    ap.add_argument("--json", type=Path, help="also write the outcomes to this file")
    ap.add_argument("--list", action="store_true", help="print the mutants of the areas and stop")
    ap.add_argument("--known", action="store_true", help="run the mutants of issue 22 against their tests")
    ap.add_argument("--ci-sample", action="store_true", help="run the CI sample (sample.py) against their tests")
    ap.add_argument("--rerun", type=Path, help="run again the survivors (and timeouts) recorded in this --json file")
    ap.add_argument("--by-line", action="store_true",
                    help="run each mutant against only the area's test files that run its line (a line map from "
                         "one run under coverage.py; much faster, never more kills: see linemap.py)")
    ap.add_argument("--wide", action="store_true",
                    help="also run each area's wide list: the rest of the suite that runs its code (slower; "
                         "best with --by-line)")
    ap.add_argument("-k", dest="only", default="", help="with --known: only the mutants whose line holds this text")
    args = ap.parse_args(argv)
    unknown = [a for a in args.areas if a not in AREAS]
    if unknown:
        ap.error(f"unknown area(s) {', '.join(unknown)}; the areas are {', '.join(AREAS)}")
    names = args.areas or list(AREAS)
    if args.list:
        for name in names:
            for m in sample(area_mutants(name), args.sample, args.seed, name):
                print(f"{name}: {m.describe()}")
        return 0
    with tempfile.TemporaryDirectory(prefix="rs-mutation-") as tmp:
        copy = make_copy(Path(tmp) / "checkout")
        if args.known:
            results = run_known(copy, args.only)
            killed = sum(1 for _, s in results if s != "survived")
            print(f"issue 22 mutants killed: {killed}/{len(results)}")
            return 0 if killed == len(results) else 1
        if args.ci_sample:
            results = run_sample(copy)
            killed = sum(1 for _, s in results if s in ("killed", "timeout"))
            print(f"sampled mutants killed: {killed}/{len(results)}")
            return 0 if killed == len(results) else 1
        keys = None
        if args.rerun:
            before = json.loads(args.rerun.read_text())
            names = [n for n in names if n in before]
            keys = {}
            for r in before.values():
                for o in r["outcomes"]:
                    if o["status"] in ("survived", "timeout", "flaky"):
                        keys.setdefault(o["key"], []).append(recorded_line(o["mutant"]))
        reports = []
        for name in names:
            reports.append(AreaReport(name))
            # written after each mutant, so that a long run that is stopped keeps what it measured
            run_area(name, copy, args.sample, args.seed, keys, report=reports[-1],
                     saved=lambda: write_json(args.json, reports) if args.json else None, by_line=args.by_line,
                     wide=args.wide)
    print(render(reports))
    return 0 if all(r.score >= args.threshold for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
