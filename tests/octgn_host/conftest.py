"""Packages for the host's tests (built once per session) and helpers to check a finished game."""
from __future__ import annotations

import shutil
import statistics
from pathlib import Path

import pytest

from octgn_pack.host.tablesync import where
from rulescript.games.cfc import table as cfc_table
from tests.conftest import DEMO, ROOT
from octgn_pack.build import build


WOLF = ROOT / "cards" / "werewolf"


def make_package(game_dir: Path, out: Path) -> Path:
    """The package of a game folder, made by the package builder (``octgn-pack build``)."""
    b = build(game_dir, out)
    assert b.ok, b.render()
    return [p for p in b.written if p.suffix == ".o8g"][0]


@pytest.fixture(scope="session")
def demo_zip(tmp_path_factory) -> Path:
    return make_package(DEMO, tmp_path_factory.mktemp("pkg"))


@pytest.fixture(scope="session")
def wolf_zip(tmp_path_factory) -> Path:
    """The rendered werewolf game, built by the package builder (``octgn-pack build cards/werewolf``)."""
    return make_package(WOLF, tmp_path_factory.mktemp("wolfpkg"))


@pytest.fixture(scope="session")
def demo_zip_other_build(tmp_path_factory) -> Path:
    """The demo game with one card changed: another build of the same game."""
    d = tmp_path_factory.mktemp("other") / "cfc-demo"
    shutil.copytree(DEMO, d)
    cards = (d / "cards.yaml").read_text()
    assert "bp: 300\n" in cards
    (d / "cards.yaml").write_text(cards.replace("bp: 300\n", "bp: 400\n", 1))
    return make_package(d, tmp_path_factory.mktemp("pkg2"))


def gate_game(d: Path) -> Path:
    """A small game where the player who does not act decides in the middle of the other's action:
    a Gatekeeper asks its controller (yes/no) whenever the opponent's ring changes."""
    (d / "rules").mkdir(parents=True)
    (d / "decks").mkdir()
    (d / "game.yaml").write_text("profile: cfc\nid: 2b7d9a34-3e86-4a55-9d53-8f1f6a1f0a01\nname: Gate\n"
                                 "version: '0.1.0'\ndescription: test\n")
    cards, rules, deck = [], [], []
    for k in range(4):
        cid = "gatekeeper-%d" % k
        cards.append('  - {id: %s, name: "Gatekeeper %d", type: character, subtype: ninja, bp: 300, sp: 1, '
                     'backup: [], ability: {kind: auto, name: "Toll"}}' % (cid, k))
        rules.append('[%s]\nauto = ~oppRingChanges~ [[may "Gain 1 SP?"]] sp(+1) to(me)\n' % cid)
        deck.append("  %s: 3" % cid)
    for k in range(13):
        cid = "filler-%d" % k
        cards.append('  - {id: %s, name: "Filler %d", type: character, subtype: boss, bp: %d, sp: 0, '
                     'backup: [boss]}' % (cid, k, 200 + 100 * (k % 6)))
        deck.append("  %s: %d" % (cid, 3 if k < 12 else 2))
    (d / "cards.yaml").write_text("cards:\n" + "\n".join(cards) + "\n")
    (d / "rules" / "gate.ini").write_text("\n".join(rules))
    for name in ("deck-a", "deck-b"):
        (d / "decks" / (name + ".yaml")).write_text('name: "%s"\ncards:\n%s\n' % (name, "\n".join(deck)))
    return d


@pytest.fixture(scope="session")
def gate_dir(tmp_path_factory) -> Path:
    return gate_game(tmp_path_factory.mktemp("gate") / "gate")


@pytest.fixture(scope="session")
def gate_zip(gate_dir, tmp_path_factory) -> Path:
    return make_package(gate_dir, tmp_path_factory.mktemp("pkg3"))


# ---------------------------------------------------------------------- checks of a finished game
def table_differences(snapshot, view, cid, pids, face=cfc_table):
    """Where the stand-in's table (``Room.snapshot()``) differs from the engine's view."""
    out = []
    cards = snapshot["cards"]
    for iid, v in view["cards"].items():
        c = cards[cid[iid]]
        if v["pile"] is not None:
            want = (pids[v["player"]], v["pile"], v["index"])
            have = (c["owner"], c["group"], c["index"])
        else:
            want = ("Table", where(face, v))
            have = (c["group"], (c["x"], c["y"]))
        if want != have:
            out.append((iid, want, have))
        marks = dict((mid, n) for (name, mid), n in c["markers"].items())
        if marks != v["markers"]:
            out.append((iid, v["markers"], marks))
    for seat, counters in enumerate(view["counters"]):
        have = snapshot["counters"][pids[seat]]
        for name, value in counters.items():
            if have[name] != value:
                out.append((pids[seat], name, value, have[name]))
    return out


def bytes_per_action(traffic):
    """Per acting job (one that sent inputs): bytes of its remote calls, and of everything it sent
    (remote calls and global variable writes)."""
    jobs = {}
    for t in traffic:
        jobs.setdefault(t["job"], []).append(t)
    calls = []
    total = []
    for items in jobs.values():
        sent = [t for t in items if t["kind"] == "remoteCall" and t["text"].startswith("rs_in(")]
        if sent:
            calls.append(sum(t["bytes"] for t in sent))
            total.append(sum(t["bytes"] for t in items))
    return calls, total


def median(xs):
    return statistics.median(xs) if xs else 0


def cfc_that_goes_on(conceded: list) -> type:
    """The CFC game package with a Game whose concede() only notes the player in ``conceded`` (nothing
    raises): the game goes on, as a game of more players does when one leaves."""
    from rulescript.games import cfc

    class Goes(cfc.Game):
        def concede(self, player):
            conceded.append(player)

    class Package(object):
        Game = Goes
        commands = cfc.commands
        VOCAB = cfc.VOCAB

    return Package


# ---------------------------------------------------------------------- signed inputs for a Session
class Signer:
    """The secrets of every seat (each client keeps its own in a game): ``signer(session, payload)``
    signs ``payload`` with the next token of the seat it belongs to (the conceding seat, else the seat
    whose decision is open); ``ends`` are the chain ends a start item would carry."""

    def __init__(self, seats=2, tag="test"):
        from octgn_pack.host import auth
        self.keys = [auth.Keys(auth.new_secret([tag, k])) for k in range(seats)]

    @property
    def ends(self):
        return [k.end(0) for k in self.keys]

    def __call__(self, session, payload, seat=None):
        from octgn_pack.host import codec
        if seat is None:
            seat = codec.conceding_seat(payload)
        if seat is None:
            seat = session.pending["player"]
        return codec.sign(payload, self.keys[seat].token(session.chains.count[seat]))
