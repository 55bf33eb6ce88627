"""Every WWRF construct the project's own book uses is exercised by a scenario that really resolved the
rule section it was rendered into (a section whose guard failed does not count)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulescript.sim.scenario import run_file, scenario_files
from wwrf_adapter.render import render_book

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
#: the categories of constructs the renderer records (see docs/werewolf.md)
CATEGORIES = ("trigger", "ability", "restriction", "scaling", "parameter", "condition", "selector", "structure",
              "duration", "trigger filter", "key line", "value")


@lru_cache(maxsize=1)
def _resolved() -> frozenset:
    done = set()
    for f in scenario_files(GAME):
        for r in run_file(f):
            if r.status == "pass":
                done |= r.ran
    return frozenset(done)


def constructs_by_section() -> dict:
    result = render_book(GAME / "roles", GAME, write=False)
    out: dict = {}
    for el in result.elements:
        for sec in el.sections:
            for cat, name in sec.constructs:
                out.setdefault((cat, name), set()).add(sec.id)
    return out


def test_every_construct_of_the_book_is_resolved_by_a_scenario():
    done = _resolved()
    missing = sorted(f"{cat}: {name} (in {', '.join(sorted(secs))})"
                     for (cat, name), secs in constructs_by_section().items() if not secs & done)
    assert not missing, "constructs no passing scenario resolved:\n" + "\n".join(missing)


def test_the_book_uses_every_category_of_construct():
    cats = {cat for cat, _ in constructs_by_section()}
    assert set(CATEGORIES) <= cats, set(CATEGORIES) - cats
