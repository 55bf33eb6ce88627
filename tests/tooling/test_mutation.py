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
