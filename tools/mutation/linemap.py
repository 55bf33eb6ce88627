"""Which of an area's test files run each line of its code, so that a mutant runs only those files.

``run.py`` runs an area's tests once without any mutant (to check that they pass); with ``--by-line``
that run is made under coverage.py, with the ``linectx`` pytest plugin naming the coverage context
after the test file of each test (its setup, call and teardown).  For each line of the area's files
the map then holds the test files that ran it, and a mutant of a line runs only the area's tests in
those files: a test that never ran the line behaves the same with the mutant (the area's tests are
deterministic), so it could not kill it.  What the map cannot see is handled the safe way, by running
every test of the area:

* a line run outside any test (at import, in collection, in a session fixture set up before the
  first test, or in a Python 3 subprocess: coverage's ``patch = subprocess`` records those with no
  context);
* a line that no test ran, when the area's tests start Python 2.7 subprocesses (coverage cannot
  measure those): without them, such a mutant *survives* without running anything.

A line is looked up through the statement that holds it (the whole of a simple statement, the
header of a compound one), as coverage records a multi-line statement on the lines that have code.
Choosing fewer tests can only lose kills, never add one (but through a test that depends on another
test having run first, which the suite does not have).
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: text of a test file that starts Python 2.7 (whose runs coverage cannot see)
PY2_SUBPROCESS = re.compile(r"python2|_py27\(|_python27\(")

HERE = Path(__file__).resolve().parent


def split_tests(tests: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The area's test entries (files or node ids) and its pytest options (``--deselect=...``)."""
    return [t for t in tests if not t.startswith("-")], [t for t in tests if t.startswith("-")]


def test_file(entry: str) -> str:
    return entry.split("::", 1)[0]


def statement_lines(text: str) -> dict[int, range]:
    """For each line of a Python source, the lines of the innermost statement holding it: the whole
    of a simple statement, the header of a compound one (``if a and`` / ``b:``)."""
    out: dict[int, range] = {}

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            inner = [getattr(stmt, k) for k in ("body", "orelse", "finalbody", "handlers", "cases")
                     if isinstance(getattr(stmt, k, None), list) and getattr(stmt, k)]
            first_inner = min((b[0].lineno for b in inner), default=None)
            end = (first_inner - 1) if first_inner else (stmt.end_lineno or stmt.lineno)
            span = range(stmt.lineno, max(stmt.lineno, end) + 1)
            for line in span:
                out[line] = span
            for b in inner:
                visit([s for s in b if isinstance(s, ast.stmt)] or
                      [s for h in b for s in getattr(h, "body", [])])

    visit(ast.parse(text).body)
    return out


@dataclass
class LineMap:
    """Test files per line of each file of an area (``None`` for a line run outside any test)."""
    files: dict[str, dict[int, set[str] | None]] = field(default_factory=dict)
    statements: dict[str, dict[int, range]] = field(default_factory=dict)
    complete: bool = True   # False: a line no test ran may still run in a Python 2.7 subprocess

    def test_files(self, rel: str, line: int) -> set[str] | None:
        """The test files that ran the statement of ``rel:line``; None: every test file may have."""
        span = self.statements.get(rel, {}).get(line, range(line, line + 1))
        lines = self.files.get(rel, {})
        found: set[str] = set()
        for n in span:
            if n in lines:
                if lines[n] is None:
                    return None
                found |= lines[n]
        if not found and not self.complete:
            return None
        return found

    def tests_for(self, rel: str, line: int, tests: tuple[str, ...]) -> tuple[str, ...]:
        """The area's ``tests`` to run for a mutant of ``rel:line`` (options kept); () if none ran it."""
        wanted = self.test_files(rel, line)
        if wanted is None:
            return tests
        entries, options = split_tests(tests)
        chosen: list[str] = []
        for e in entries:
            f = test_file(e)
            if f.endswith(".py"):
                if f in wanted:
                    chosen.append(e)
            else:  # a folder: the files in it that ran the line
                chosen += sorted(w for w in wanted if w.startswith(f.rstrip("/") + "/") and w not in chosen)
        return tuple(dict.fromkeys(chosen)) + tuple(options) if chosen else ()


def coverage_command(copy: Path, code_files: tuple[str, ...], data: Path) -> tuple[list[str], dict[str, str]]:
    """The command prefix (before pytest's arguments) and extra environment for a run under coverage."""
    rc = data.with_suffix(".rc")
    rc.write_text("[run]\ninclude =\n" + "".join(f"    {copy / f}\n" for f in code_files)
                  + "patch = subprocess\n", encoding="utf-8")
    return ([sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", f"--data-file={data}", "-m", "pytest",
             "-p", "linectx"], {"PYTHONPATH_EXTRA": str(HERE)})


def read_map(copy: Path, code_files: tuple[str, ...], data: Path, tests: tuple[str, ...]) -> LineMap:
    """The map from the coverage data files of a run (``data`` and those of its subprocesses)."""
    from coverage import CoverageData

    entries, _ = split_tests(tests)
    paths = [copy / test_file(e) for e in dict.fromkeys(entries)]
    texts = [f.read_text(encoding="utf-8") for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    lm = LineMap(complete=not any(PY2_SUBPROCESS.search(t) for t in texts))
    by_abs = {str(copy / f): f for f in code_files}
    for f in code_files:
        lm.files[f] = {}
        lm.statements[f] = statement_lines((copy / f).read_text(encoding="utf-8"))
    for path in sorted(data.parent.glob(data.name + "*")):
        if path.suffix == ".rc":
            continue
        cd = CoverageData(basename=str(path))
        cd.read()
        for measured in cd.measured_files():
            rel = by_abs.get(measured)
            if rel is None:
                continue
            lines = lm.files[rel]
            for n, contexts in cd.contexts_by_lineno(measured).items():
                if lines.get(n, set()) is None:
                    continue
                if "" in contexts:
                    lines[n] = None
                else:
                    lines[n] = lines.get(n, set()) | set(contexts)
    return lm


def run_covered(copy: Path, code_files: tuple[str, ...], tests: tuple[str, ...], env: dict[str, str],
                data: Path, pytest_args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """Run pytest on the area's tests under coverage, recording the line map's data into ``data``."""
    prefix, extra = coverage_command(copy, code_files, data)
    env = dict(env)
    env["PYTHONPATH"] = env.get("PYTHONPATH", "") + ":" + extra["PYTHONPATH_EXTRA"]
    return subprocess.run(prefix + pytest_args + list(tests), cwd=copy, env=env, capture_output=True, text=True,
                          timeout=timeout)
