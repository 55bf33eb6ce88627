"""Bookkeeping invariants, checked at every decision of many random games."""
from pathlib import Path

import pytest

from rulescript.games.cfc.data import PILES
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.plain import is_plain, is_tree
from rulescript.sim.cards import load_game
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game

FIXTURE = Path(__file__).parent / "fixtures" / "vanilla"


def check_invariants(game):
    st = game.state
    cards = st["cards"]
    where = {}

    def place(iid, spot):
        assert iid not in where, "card %s in %s and %s" % (iid, where.get(iid), spot)
        where[iid] = spot

    for pl in st["players"]:
        p = pl["idx"]
        assert pl["hp"] >= 0 and pl["sp"] >= 0
        for pile in PILES + ("table",):
            for iid in pl[pile]:
                place(iid, (p, pile))
                c = cards[iid]
                assert c["zone"] == pile and c["ctrl"] == p
                assert c["orig"] is None or pile in ("hand", "table")
                assert not c["attacking"] and c["blocking"] is None and c["backups"] == []
        assert len(pl["ring"]) == 4
        for slot, iid in enumerate(pl["ring"]):
            if iid is None:
                continue
            place(iid, (p, "ring"))
            c = cards[iid]
            assert c["zone"] == "ring" and c["ctrl"] == p and c["slot"] == slot
            assert c["bp"] > 0, "a character at 0 BP stayed in the ring"
            assert game.ctype(iid) == "character"
            for b in c["backups"]:
                place(b, (p, "backup"))
                assert cards[b]["zone"] == "backup" and cards[b]["host"] == iid
    assert sorted(where) == sorted(cards), "cards lost or duplicated"
    members = []
    for a in st["attacks"]:
        group = [a["lead"]] + a["followers"]
        assert len(group) <= 3
        for m in group:
            c = cards[m]
            assert c["zone"] == "ring" and c["attacking"] and c["ctrl"] == st["active"]
            members.append(m)
        assert cards[a["lead"]]["ua"] == ("lead" if a["followers"] else None)
        for f in a["followers"]:
            assert cards[f]["ua"] == "follower"
        if a["blocker"] is not None:
            assert cards[a["lead"]]["blocked"]
            if cards[a["blocker"]]["zone"] == "ring" or st["phase"] not in ("end", "cleanup"):
                # a blocker KO'd in combat leaves the ring, but the attack stays blocked until Cleanup
                assert cards[a["blocker"]]["blocking"] == a["lead"]
        else:
            assert not cards[a["lead"]]["blocked"]
    assert len(members) == len(set(members))
    assert len([a for a in st["attacks"] if a["followers"]]) <= 1
    for iid, c in cards.items():
        if c["attacking"]:
            assert iid in members
        if c["blocking"] is not None:
            assert c["zone"] == "ring" and c["ctrl"] != st["active"]
    assert len(st["players"][0]["deck"]) + len(st["players"][1]["deck"]) <= 100


class Checking(RandomDecider):
    def __init__(self, seed, stop):
        RandomDecider.__init__(self, seed, stop)
        self.game = None
        self.checks = 0

    def decide(self, request):
        check_invariants(self.game)
        self.checks += 1
        return RandomDecider.decide(self, request)


@pytest.mark.parametrize("stop", [0.05, 0.3, 0.8])
def test_invariants_hold_at_every_decision(stop):
    data = load_game(FIXTURE)
    total = 0
    for seed in range(25):
        dec = Checking(seed, stop)
        g = CfcGame(data.models, [data.deck_list("red"), data.deck_list("blue")], dec, seed=seed)
        dec.game = g
        g.run()
        check_invariants(g)
        assert is_plain(g.state) and is_tree(g.state)
        total += dec.checks
    assert total > 300


def test_invariant_checker_catches_a_broken_state():
    data = load_game(FIXTURE)
    g, _ = play_game(data, ["red", "blue"], 1, RandomDecider(1))
    check_invariants(g)
    iid = g.state["players"][0]["discards"][0] if g.state["players"][0]["discards"] else \
        g.state["players"][0]["deck"][0]
    g.state["players"][1]["hand"].append(iid)
    with pytest.raises(AssertionError):
        check_invariants(g)
