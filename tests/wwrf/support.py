"""Paths shared by the WWRF tests (kept out of conftest.py so test modules can import them)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the example book, kept in the repository (other parts of the project read it too)
EXAMPLES = REPO / "tests" / "fixtures" / "wwrf-examples"
GUIDE_LINES = Path(__file__).resolve().parent / "guide_lines.tsv"
#: the design documents next to a checkout; only test_guides.test_fixture_is_current reads them
SHARED = REPO.parent / "shared"


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.iterdir() if p.is_file() and not p.suffix)
