"""Fixtures for runtime tests (helpers live in runtime_table.py)."""
import pytest

from runtime_table import Table


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def make_table():
    return Table
