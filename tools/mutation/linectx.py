"""pytest plugin for ``linemap``: the coverage context of each test is its test file.

Loaded with ``-p linectx`` by ``run.py --by-line``'s run without a mutant, under ``coverage run``.
The context is set when a test's setup starts, so a module's fixtures count for its own file.
"""
from __future__ import annotations

import coverage
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(item.nodeid.split("::", 1)[0])
