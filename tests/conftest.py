"""Shared fixtures: paths to the checkout, the shared/ documents and the bundled games."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEMO = ROOT / "cards" / "cfc-demo"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("shared/ (the project documents) is not next to this checkout")
    return SHARED


@pytest.fixture(scope="session")
def demo_cards() -> list[dict]:
    from rulescript.compiler import load_cards

    return load_cards(DEMO / "cards.yaml")[0]
