"""Every entry of the CFC profile is exercised through real play by at least one demo scenario.

A scenario exercises the vocabulary of every rule that resolved while it ran (the engine records
them); the union over all demo scenarios must cover the profile, as in the compiler's coverage test.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulescript.compiler import compile_text, load_cards
from rulescript.compiler.profile import load_profile
from rulescript.sim.scenario import run_folder
from tests.compiler.test_demo_coverage import _expected

DEMO = Path(__file__).resolve().parents[2] / "cards" / "cfc-demo"


def _sections() -> dict[str, str]:
    out = {}
    for path in sorted((DEMO / "rules").glob("*.ini")):
        parts = re.split(r"(?m)^(?=\[)", path.read_text(encoding="utf-8"))
        for part in parts:
            m = re.match(r"\[([^\]]+)\]", part)
            if m:
                out[m.group(1).strip().lower()] = part
    return out


@pytest.fixture(scope="module")
def results():
    return run_folder(DEMO)


def test_all_demo_scenarios_pass(results):
    failed = [f"{r.name}: {r.failures}" for r in results if r.status == "fail"]
    assert not failed
    assert len(results) >= 60


def test_every_profile_entry_is_exercised_by_a_scenario(results):
    cards = load_cards(DEMO / "cards.yaml")[0]
    sections = _sections()
    ran = set().union(*(r.ran for r in results if r.status == "pass"))
    assert ran, "no rule resolved in any scenario"
    used: dict[str, set[str]] = {}
    # a rule that only has abilities never resolves: it is exercised by being in play with them
    loaded = set().union(*(r.loaded for r in results if r.status == "pass")) - ran
    for rid in sorted(loaded):
        only = [ln for ln in sections[rid].splitlines() if ln.startswith("[") or ln.lower().startswith("abilities")]
        res = compile_text("\n".join(only) + "\n", filename=f"{rid}.ini", cards=cards)
        for cat in ("abilities", "keys"):
            used.setdefault(cat, set()).update(res.used.get(cat, set()))
    for rid in sorted(ran):
        res = compile_text(sections[rid], filename=f"{rid}.ini", cards=cards)
        assert res.ok, res.render()
        for cat, names in res.used.items():
            used.setdefault(cat, set()).update(names)
    missing = {}
    for cat, wanted in _expected(load_profile("cfc")).items():
        lacking = sorted(wanted - used.get(cat, set()))
        if lacking:
            missing[cat] = lacking
    assert not missing, f"profile entries no scenario exercises: {missing}"
