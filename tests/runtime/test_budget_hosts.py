"""Games whose rules hit the budget give identical logs under Python 2.7 and 3 (tools/fuzz/hosts.py;
its ``--games 300`` run is the full check, this is a short one for CI)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "fuzz"))

import hosts  # noqa: E402


def test_budget_games_are_the_same_under_python_27_and_3():
    py2 = hosts.python27()
    if py2 is None:
        pytest.skip("no Python 2.7 interpreter available")
    r = hosts.compare(12, "ci", py2)
    assert r["games"] == 12
    assert r["differences"] == []
    assert r["budget_games"] >= 3, r["error_codes"]  # the rules really do hit the limits
