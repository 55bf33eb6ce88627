"""Shared fixtures: paths to the checkout and the bundled games.  No test reads documents outside the
repository (fixtures extracted from them are checked by tools/dev/check_fixtures.py), so the suite runs
the same in a lone clone."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "cards" / "cfc-demo"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def demo_cards() -> list[dict]:
    from rulescript.compiler import load_cards

    return load_cards(DEMO / "cards.yaml")[0]
