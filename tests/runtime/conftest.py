"""Fixtures for runtime tests (helpers live in runtime_table.py)."""
import pytest

from runtime_table import Table


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def make_table():
    return Table


@pytest.fixture
def board(table):
    """Player 0: ring slots 0..2 = grunt(500), ninja(300, Ninja), mid(700, Mystic);
    player 1: slot 0 = tiny(100), slot 2 = big(1500), slot 3 = ninja(300)."""
    t = table
    t.m = [t.ring(0, "grunt", 0), t.ring(0, "ninja", 1), t.ring(0, "mid", 2)]
    t.o = [t.ring(1, "tiny", 0), t.ring(1, "big", 2), t.ring(1, "ninja", 3)]
    return t
