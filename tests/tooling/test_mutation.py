"""Mutation testing in CI (tools/mutation): a fixed sample of mutants, so that the score cannot
quietly fall.  The sample is the one-line bugs of issue 22 (tools/mutation/known.py) and a few
mutants of each area drawn with a fixed seed (tools/mutation/sample.py), each run against the tests
that kill it in a copy of the checkout; every one must fail them.  The ast mutant finder itself is
checked on a small source."""
from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):  # type: ignore[no-untyped-def]
    """A module of tools/mutation under a name of its own (tools/fuzz has a run.py too)."""
    spec = importlib.util.spec_from_file_location("rs_mutation_" + name, ROOT / "tools" / "mutation" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


mutation = _load("run")
KNOWN = mutation.KNOWN
SAMPLE = mutation.SAMPLE
find_mutants = mutation.find_mutants


def test_the_finder_makes_each_kind_of_one_line_change(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f(a, b):\n"
        "    if a < b and b:\n"
        "        g(a)\n"
        "    return a + 1\n"
        "x = f(1, 2)  # pragma: no mutate\n")
    got = {(m.line, m.op, m.old, m.new) for m in find_mutants(tmp_path, "m.py")}
    assert {(2, "cmp", "<", ">="), (2, "cmp", "<", "<="), (2, "bool", "and", "or"), (2, "drop", "a < b and b", "b"),
            (2, "drop", "a < b and b", "a < b"), (2, "if", "a < b and b", "False"), (3, "stmt", "g(a)", "pass"),
            (4, "return", "a + 1", "None"), (4, "arith", "+", "-"), (4, "const", "1", "2"),
            (4, "const", "1", "0")} <= got
    assert not [m for m in got if m[0] == 5]
    for m in find_mutants(tmp_path, "m.py"):  # each is one change on one line, and still Python
        text = m.apply((tmp_path / "m.py").read_text())
        compile(text, "m.py", "exec")
        assert sum(a != b for a, b in zip(text.splitlines(), (tmp_path / "m.py").read_text().splitlines())) == 1


def test_a_rerun_runs_the_survivors_of_repeated_lines_and_no_others(tmp_path: Path) -> None:
    """Two lines of a file can hold the same text, so their mutants share a key: a rerun of one
    survivor runs the mutant of that line only (the one nearest the line the run recorded)."""
    (tmp_path / "m.py").write_text(
        "def f(a):\n"
        "    return True\n"
        "def g(a):\n"
        "    return True\n")
    mutants = [m for m in find_mutants(tmp_path, "m.py") if m.op == "const" and m.new == "False"]
    assert [m.line for m in mutants] == [2, 4] and mutants[0].key == mutants[1].key
    run_json = {"x": {"outcomes": [{"key": mutants[1].key, "status": "survived", "mutant": mutants[1].describe()}]}}
    keys = {}
    for o in run_json["x"]["outcomes"]:
        keys.setdefault(o["key"], []).append(mutation.recorded_line(o["mutant"]))
    assert keys == {mutants[1].key: [4]}
    assert [m.line for m in mutation.rerun_mutants(mutants, keys)] == [4]
    assert [m.line for m in mutation.rerun_mutants(mutants, {mutants[0].key: [2, 4]})] == [2, 4]


def test_every_known_mutant_still_applies() -> None:
    for k in KNOWN:
        text = (ROOT / k.file).read_text(encoding="utf-8")
        assert k.apply(text) != text, k.describe()


def test_every_sampled_mutant_is_still_found_and_names_its_tests() -> None:
    """A sampled mutant whose line changed is no longer found: the sample must be drawn again."""
    areas = {s.area for s in SAMPLE}
    assert areas == set(mutation.AREAS)  # every area has mutants in the sample
    mutants = {a: [m.key for m in mutation.area_mutants(a)] for a in areas}
    for s in SAMPLE:
        assert mutants[s.area].count(s.key) == 1, s.key
        assert s.tests and all("::" in t and (ROOT / t.split("::")[0]).is_file() for t in s.tests), s


@pytest.mark.mutation
@pytest.mark.timeout(3600)  # 26 + the sample's short runs of pinned tests: about four minutes on an idle
# two-core machine (the 26 alone took 25 min with 25 processes sharing its two cores)
def test_the_issue_22_mutants_and_the_sampled_mutants_are_all_killed() -> None:
    with tempfile.TemporaryDirectory(prefix="rs-mutation-ci-") as tmp:
        copy = mutation.make_copy(Path(tmp) / "checkout")
        known = mutation.run_known(copy, log=lambda line: None)
        sampled = mutation.run_sample(copy, log=lambda line: None)
    assert len(known) == len(KNOWN) and [what for what, status in known if status == "survived"] == []
    assert len(sampled) == len(SAMPLE)
    assert [(what, status) for what, status in sampled if status not in ("killed", "timeout")] == []


linemap = _load("linemap")


def test_the_line_map_runs_a_mutant_against_only_the_test_files_that_run_its_line(tmp_path: Path) -> None:
    """``run.py --by-line``: one run of the tests under coverage maps each line of the code to the test
    files that ran it (a multi-line condition by its statement; a line run at import or in a Python 3
    subprocess, outside any test, maps to every file), and a mutant of a line no test ran runs nothing."""
    (tmp_path / "m.py").write_text(
        "LIMIT = 3\n"                       # 1: run at import, before any test
        "def f(x):\n"
        "    if (x > 1 and\n"
        "            x < LIMIT):\n"           # 4: the second line of f's condition
        "        return 1\n"
        "    return 2\n"
        "def g(x):\n"
        "    return -x\n"                     # 8: run by test_g.py only
        "def h(x):\n"
        "    return x * 2\n"                  # 10: run in a subprocess only
        "def never():\n"
        "    return 0\n")                     # 12: run by nothing
    (tmp_path / "test_f.py").write_text("import m\ndef test_f():\n    assert m.f(2) == 1\n")
    (tmp_path / "test_g.py").write_text("import m\ndef test_g():\n    assert m.g(2) == -2\n")
    (tmp_path / "test_h.py").write_text(
        "import subprocess, sys\n"
        "def test_h():\n"
        "    subprocess.run([sys.executable, '-c', 'import m; m.h(1)'], check=True)\n")
    tests = ("test_f.py", "test_g.py::test_g", "test_h.py", "--deselect=test_h.py::other")
    data = tmp_path / "map" / ".coverage"
    data.parent.mkdir()
    assert mutation.run_tests(tmp_path, tests, timeout=300, first_failure=False, line_data=data,
                              code_files=("m.py",)) == "passed"
    lm = linemap.read_map(tmp_path, ("m.py",), data, tests)
    assert lm.complete
    assert lm.tests_for("m.py", 4, tests) == ("test_f.py", "--deselect=test_h.py::other")
    assert lm.tests_for("m.py", 8, tests) == ("test_g.py::test_g", "--deselect=test_h.py::other")
    assert lm.tests_for("m.py", 1, tests) == tests
    assert lm.tests_for("m.py", 10, tests) == tests
    assert lm.tests_for("m.py", 12, tests) == ()
    # tests that start Python 2.7, which coverage cannot follow: a line no test ran may run there
    (tmp_path / "test_py2.py").write_text("import shutil\nPY = shutil.which('python2.7')\n")
    lm2 = linemap.read_map(tmp_path, ("m.py",), data, tests + ("test_py2.py",))
    assert not lm2.complete and lm2.tests_for("m.py", 12, tests) == tests


def test_a_compound_statement_is_looked_up_by_its_header_and_a_simple_one_whole() -> None:
    lines = linemap.statement_lines(
        "def f(a,\n"
        "      b):\n"
        "    if (a and\n"
        "            b):\n"
        "        return [a,\n"
        "                b]\n"
        "    try:\n"
        "        pass\n"
        "    except ValueError:\n"
        "        x = 1\n")
    assert lines[3] == lines[4] == range(3, 5)
    assert lines[5] == lines[6] == range(5, 7)
    assert lines[1] == range(1, 3) and lines[7] == range(7, 8) and lines[10] == range(10, 11)


def test_a_kill_counts_only_when_the_failing_test_passes_without_the_mutant(tmp_path: Path) -> None:
    """A test that fails on its own (a timing test on a loaded machine) does not make a kill: the
    tests that failed with the mutant are run again without it, and must pass."""
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    (tmp_path / "test_m.py").write_text(
        "import os, m\n"
        "def test_f():\n    assert m.f() == 1\n"
        "def test_on_its_own():\n    assert not os.path.exists('fail-on-its-own')\n")
    tests = ("test_m.py",)
    out: list[str] = []
    assert mutation.with_mutant(tmp_path, "m.py", "def f():\n    return 2\n", tests, 300, out) == "failed"
    assert mutation.failed_tests("".join(out)) == ["test_m.py::test_f"]
    assert mutation.confirmed(tmp_path, "".join(out), tests, 300)
    (tmp_path / "fail-on-its-own").write_text("")
    out.clear()
    assert mutation.with_mutant(tmp_path, "m.py", "def f():\n    return 1\n", tests, 300, out) == "failed"
    assert mutation.failed_tests("".join(out)) == ["test_m.py::test_on_its_own"]
    assert not mutation.confirmed(tmp_path, "".join(out), tests, 300)
