"""tools/bench: a printed FAIL makes the exit status 1; under --check an unmeasured target does too."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "tools" / "bench"


def _verdict():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_verdict", BENCH / "_verdict.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_a_fail_is_exit_1_with_or_without_check() -> None:
    v = _verdict()
    assert v.exit_status([True, False]) == 1
    assert v.exit_status([True, False], check=True) == 1
    assert v.exit_status([True, True]) == 0
    assert v.exit_status([True, True], check=True) == 0


def test_an_unmeasured_target_fails_only_under_check() -> None:
    v = _verdict()
    assert v.mark(None) == "n/a" and v.mark(False) == "FAIL" and v.mark(True) == "PASS"
    assert v.exit_status([True, None]) == 0
    assert v.exit_status([True, None], check=True) == 1


def test_every_benchmark_judges_through_the_shared_helper() -> None:
    """No script of tools/bench prints its own PASS/FAIL or computes its own exit status."""
    for path in sorted(BENCH.glob("*.py")):
        if path.name == "_verdict.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "'FAIL'" not in text and '"FAIL"' not in text, path.name
        if "PASS" in text or "--check" in text:
            assert "exit_status(" in text, path.name


def test_runtime_bench_exits_1_when_a_target_is_missed() -> None:
    proc = subprocess.run([sys.executable, str(BENCH / "runtime.py"), "--games", "1", "--repeat", "5",
                           "--action-target-us", "0.001", "--games-target", "0", "--check"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "target action <= 0.001 us median: FAIL" in proc.stdout
    assert "target games >= 0 per second: PASS" in proc.stdout
