"""``cfc.copy_state``, the fast copy of a CFC state that snapshots and the OCTGN host's checkpoints
use, is a deep copy: equal to the state, sharing no list or dict with it, at every decision of
whole random games of the demo (whose rules grant abilities, back characters up, transform cards)."""
from __future__ import annotations

import pytest

from rulescript.games import cfc
from rulescript.games.cfc.data import CARD_CONTAINERS
from rulescript.runtime.plain import deep_copy
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from tests.conftest import DEMO


def _containers(x, out):
    if isinstance(x, (dict, list)):
        out.append(id(x))
        for v in (x.values() if isinstance(x, dict) else x):
            _containers(v, out)
    return out


class CheckingDecider(RandomDecider):
    """A random player that checks ``copy_state`` of the game before answering."""

    game = None
    checked = 0

    def decide(self, request):
        st = self.game.state
        copy = cfc.copy_state(st)
        assert copy == st == deep_copy(st)
        assert not set(_containers(copy, [])) & set(_containers(st, []))
        for card in st["cards"].values():
            for key, value in card.items():
                assert key in CARD_CONTAINERS or not isinstance(value, (dict, list, tuple)), (key, value)
        self.checked += 1
        return super().decide(request)


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


@pytest.mark.parametrize("seed", [3, 8])
def test_copy_state_is_a_deep_copy_throughout_a_game(demo, seed):
    names = demo.data.deck_names()
    decks = [demo.data.deck_list(names[0]), demo.data.deck_list(names[-1])]
    decider = CheckingDecider(seed)
    original = cfc.Game.__init__

    def remember(self, *args, **kwargs):
        original(self, *args, **kwargs)
        decider.game = self

    cfc.Game.__init__ = remember
    try:
        game, log = play_game(demo.data, decks, seed, decider, rules=demo.engine())
    finally:
        cfc.Game.__init__ = original
    assert log["error"] is None and game.state["over"]
    assert decider.checked == len(game.state["log"]) > 20


def test_a_copy_changes_apart_from_its_state():
    st = {"cards": {1: {"iid": 1, "backups": [2], "ability": {"kind": "trigger", "name": "x"}, "bp": 5}},
          "players": [{"hand": [1]}], "log": [["k", 0, 1]], "turn": 3}
    copy = cfc.copy_state(st)
    copy["cards"][1]["backups"].append(3)
    copy["cards"][1]["ability"]["name"] = "y"
    copy["cards"][1]["bp"] = 6
    copy["players"][0]["hand"].pop()
    copy["log"].append(["k", 1, 2])
    assert st == {"cards": {1: {"iid": 1, "backups": [2], "ability": {"kind": "trigger", "name": "x"}, "bp": 5}},
                  "players": [{"hand": [1]}], "log": [["k", 0, 1]], "turn": 3}
