"""Fixtures of the WWRF tests: the loaded example project."""

from __future__ import annotations

import pytest

from .support import EXAMPLES


@pytest.fixture(scope="session")
def example_project():  # type: ignore[no-untyped-def]
    from wwrf_adapter import load_project

    return load_project(EXAMPLES)
