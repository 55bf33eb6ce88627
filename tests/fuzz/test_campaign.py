"""A short campaign of the long-run fuzzer (tools/fuzz/run.py) per target, for CI (marker ``fuzz``).

The harness must catch what it exists for (a hang killed at the timeout, an allocation stopped by
the memory limit, a worker that dies, an exception, a slow input), save each finding as files that
``--replay`` reproduces, and go on.  On the real targets the runtime's own ground must be clean: no
finding at all for whole random games with generated rules (``games``: no crash, no engine error
RS530, nothing over 2 s), for the compiler nor for the loaders' targets (scenarios, game files,
saves, WWRF: every input within the limits, and no crash), nor for the hostile-file targets (octgn-pack
build and validate, rulescript import, wwrf render).  About 80 s in all on the 2-core machine.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "tools" / "fuzz" / "run.py"
WWRF_EXAMPLES = ROOT / "tests" / "fixtures" / "wwrf-examples"  # the project's 30 WWRF example files

pytestmark = [pytest.mark.fuzz, pytest.mark.timeout(300)]  # each about 10-20 s on a loaded machine


def campaign(tmp_path, target, inputs, *extra):
    scratch = tmp_path / "tmp"  # the run's temporary folders; empty again when it ends
    scratch.mkdir()
    out = subprocess.run([sys.executable, str(RUN), "--target", target, "--inputs", str(inputs),
                          "--crashes", str(tmp_path / "crashes"), "--progress", "0", "--json", *extra],
                         capture_output=True, text=True, timeout=300, env={**os.environ, "TMPDIR": str(scratch)})
    assert out.returncode in (0, 1), out.stderr
    assert not list(scratch.iterdir()), "temporary folders left behind (workers killed at a limit)"
    summary = json.loads(out.stdout)
    assert summary["inputs"] == inputs
    assert out.returncode == (1 if summary["findings"] else 0)
    return summary


def replay(tmp_path, target, saved, *extra):
    return subprocess.run([sys.executable, str(RUN), "--target", target, "--replay", saved, *extra],
                          capture_output=True, text=True, timeout=120)


def test_the_harness_catches_hangs_memory_crashes_deaths_and_slow_inputs(tmp_path):
    s = campaign(tmp_path, "selftest", 24, "--jobs", "2", "--timeout", "1.5", "--slow", "0.5",
                 "--memory", "300")
    o = s["outcomes"]
    assert o["ok"] > 0 and o["timeout"] > 0 and o["died"] > 0 and o["crash"] > 0 and o["slow"] > 0
    sigs = set(s["findings"])
    assert "timeout (over 2 s)" in sigs or "timeout (over 1 s)" in sigs or any(x.startswith("timeout") for x in sigs)
    assert any(x.startswith("MemoryError") for x in sigs)      # 4000 MB asked under a 300 MB limit
    assert any(x.startswith("ValueError") for x in sigs)
    assert "worker died (exit status 3)" in sigs
    assert s["peak_rss_mb"] < 300
    crash = s["findings"][[x for x in sigs if x.startswith("ValueError")][0]]
    saved = Path(crash["saved"][0])
    assert (saved / "cmd.txt").read_text() == "raise" and "selftest finding" in (saved / "finding.txt").read_text()
    again = replay(tmp_path, "selftest", str(saved))
    assert again.returncode == 1 and "ValueError at" in again.stdout


def test_random_games_with_generated_rules_have_no_finding(tmp_path):
    # A slow input here is over 5 s (not 2): CI machines are shared; the long campaigns of
    # tools/fuzz/README.md hold every input under 2 s on this project's reference machine.
    s = campaign(tmp_path, "games", 60, "--jobs", "2", "--timeout", "10", "--slow", "5")
    assert s["findings"] == {}, json.dumps(s["findings"], indent=1)[:3000]
    assert s["outcomes"]["ok"] == 60 and s["peak_rss_mb"] < 1024


def test_the_compiler_has_no_finding(tmp_path):
    s = campaign(tmp_path, "compiler", 600, "--jobs", "2", "--timeout", "10", "--slow", "5")
    assert s["findings"] == {}, json.dumps(s["findings"], indent=1)[:3000]


@pytest.mark.parametrize("target,inputs", [("scenarios", 60), ("game", 60), ("saves", 200), ("wwrf", 300)])
def test_the_loader_targets_have_no_finding(tmp_path, target, inputs):
    extra = ["--corpus", str(WWRF_EXAMPLES)] if target == "wwrf" else []
    s = campaign(tmp_path, target, inputs, "--jobs", "2", "--timeout", "10", "--slow", "5", *extra)
    assert s["findings"] == {}, json.dumps(s["findings"], indent=1)[:3000]
    assert s["peak_rss_mb"] < 1024
    assert sum(s["outcomes"][k] for k in ("ok", "refused")) == inputs and s["outcomes"]["ok"] > 0


@pytest.mark.parametrize("target,inputs", [("octgn-build", 20), ("octgn-validate", 40), ("import", 20),
                                           ("wwrf-render", 40)])
def test_the_hostile_file_targets_have_no_finding(tmp_path, target, inputs):
    """Issue 23: hostile game folders, packages, plugin folders and role books: no exception, no exit 3,
    nothing written outside the output folder, no rule made of a name (about 40 s for the four)."""
    s = campaign(tmp_path, target, inputs, "--jobs", "1", "--timeout", "20", "--slow", "5")
    assert s["findings"] == {}, json.dumps(s["findings"], indent=1)[:3000]
    assert s["peak_rss_mb"] < 1024
    assert sum(s["outcomes"][k] for k in ("ok", "refused")) == inputs and s["outcomes"]["ok"] > 0


def test_the_generator_edits_an_alias_bomb_as_text(tmp_path):
    """Issue 23: the octgn-build campaign stalled for minutes in its own generator when a text edit
    had put an alias bomb into a file that a tree edit then copied (every alias written out). The tree
    editor refuses a document of more than TREE_EDIT_LIMIT values; the callers edit its text."""
    import random
    import time

    import yaml
    sys.path.insert(0, str(RUN.parent))
    try:
        import mutate as M
    finally:
        sys.path.remove(str(RUN.parent))
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        "a%d: &a%d [%s]\n" % (d, d, ", ".join(["*a%d" % (d - 1)] * 10)) for d in range(1, 7))
    tree = yaml.safe_load(bomb)  # 10**6 values once expanded, in a few hundred bytes
    t0 = time.process_time()
    with pytest.raises(M.TooBigToEdit):
        M.mutate_tree(random.Random(1), tree)
    assert time.process_time() - t0 < 1.0
    small = yaml.safe_load("cards: [{id: a, bp: 100}]\n")
    M.mutate_tree(random.Random(1), small)  # a small tree is edited, on a copy
    assert small == {"cards": [{"id": "a", "bp": 100}]}


def test_a_resumed_campaign_runs_the_rest_of_the_same_inputs(tmp_path):
    """``--start N`` resumes a stopped campaign of the same seed: it generates and skips the first N
    inputs, then runs the others, under their indices in the whole campaign (selftest inputs hang,
    crash, exit or pass, so each input's outcome shows which input it was)."""
    def findings(where, *extra):
        out = subprocess.run([sys.executable, str(RUN), "--target", "selftest", "--inputs", "16", "--seed", "5",
                              "--jobs", "2", "--timeout", "1.5", "--slow", "0.5", "--memory", "300",
                              "--max-saved", "100", "--crashes", str(where), "--progress", "0", "--json", *extra],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode in (0, 1), out.stderr
        saved = {(p.parent.name, int(p.name)) for p in (where / "selftest").glob("*/*") if p.is_dir()}
        return json.loads(out.stdout), saved

    whole, all_saved = findings(tmp_path / "whole")
    rest, rest_saved = findings(tmp_path / "rest", "--start", "10")
    assert whole["inputs"] == 16 and (rest["inputs"], rest["start"]) == (6, 10)
    assert rest_saved and rest_saved == {(sig, i) for sig, i in all_saved if i >= 10}
    assert {i for _sig, i in all_saved} - set(range(10, 16))  # (the first ten had findings too)
