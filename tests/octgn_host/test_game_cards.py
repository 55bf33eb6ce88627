"""The host's generic pieces for games that deal their own cards and keep secrets, each against a fake
or the stand-in: the table writer makes the cards a view names (and turns them), the pairs that tell
other clients which OCTGN card stands for which engine card, OCTGN's create and peek in the stand-in,
and a concession that lets a game go on (several players) next to one that ends it (CFC)."""
from __future__ import annotations

from octgn_pack.host import codec, tablesync
from octgn_pack.host.lockstep import Session
from rulescript.games import cfc
from rulescript.sim.host import load_table
from tests.conftest import DEMO
from tests.octgn_host.conftest import Signer, cfc_that_goes_on
from tests.octgn_host.test_tablesync import Card, FakeTable
from tests.octgn_standin import play


class Face:
    SLOTS = ["role"]
    MARKERS = [{"id": "ww-dead", "name": "Dead"}]
    PILES = [{"name": "Past"}]
    COUNTERS = []


class MakingTable(FakeTable):
    """The fake table of test_tablesync with ``table.create`` (ids from 100) and sides of cards."""

    def __init__(self, face, pids, ncards):
        super().__init__(face, pids, ncards)
        self.tbl.create = self.create
        self.next = 100

    def create(self, guid, x, y, quantity=1, persist=False, facedown=False):
        self.next += 1
        card = Card(self, self.next)
        card.isFaceUp = not facedown
        self.cards[card._id] = card
        self.tbl.cards.append(card)
        card.group = self.tbl
        card.position = (x, y)
        self.log.append(("create", card._id, guid, x, y, facedown))
        return card


def role(player, face_up, model="seer", markers=None):
    return {"player": player, "pile": None, "index": 0, "slot": "role", "face_up": face_up,
            "markers": markers or {}, "model": model, "seen_by": [] if face_up else [player]}


def test_the_writer_makes_the_cards_a_view_names_and_turns_them_face_up():
    fake = MakingTable(Face, [1, 2], 0)
    cid = {}
    w = tablesync.TableWriter(fake, Face, cid, [1, 2], {"seer": "guid-seer", "wolf": "guid-wolf"})
    v1 = {"cards": {1: role(0, False), 2: role(1, False, "wolf"),
                    3: {"player": 0, "pile": None, "index": 0, "slot": None, "face_up": False, "markers": {},
                        "model": "unknown-card"}},
          "counters": [{}, {}]}
    w.write(None, v1)
    x0, y0 = tablesync.place(Face, 0, "role", 0, False)
    x1, y1 = tablesync.place(Face, 1, "role", 0, False)
    assert fake.log[:2] == [("create", 101, "guid-seer", x0, y0, True), ("create", 102, "guid-wolf", x1, y1, True)]
    assert cid == {1: 101, 2: 102} and w.made == [(1, 101), (2, 102)]
    assert w.unshown == [3]                      # a card id the package does not know: not shown
    assert ("controller", 101, 1) in fake.log    # made by player 2 for seat 0: given to player 1
    fake.log = []
    v2 = {"cards": {**v1["cards"], 2: role(1, True, "wolf", {"ww-dead": 1})}, "counters": [{}, {}]}
    w.write(v1, v2)
    assert fake.log == [("marker", 102, "ww-dead", 1)] and fake.cards[102].isFaceUp is True
    fake.log = []
    v3 = {"cards": {**v2["cards"], 1: role(0, True)}, "counters": [{}, {}]}
    w.write(v2, v3)
    assert fake.log == [] and fake.cards[101].isFaceUp is False   # player 1's card: its client turns it
    assert [c for c in fake.log if c[0] == "create"] == []    # made once


def test_a_card_made_for_a_pile_goes_into_it():
    fake = MakingTable(Face, [1, 2], 0)
    cid = {}
    w = tablesync.TableWriter(fake, Face, cid, [1, 2], {"seer": "g"})
    past = {"player": 1, "pile": "Past", "index": 0, "slot": None, "face_up": False, "markers": {}, "model": "seer"}
    w.write(None, {"cards": {5: past}, "counters": [{}, {}]})
    assert [c._id for c in fake.pile(2, "Past")] == [cid[5]]


def test_pairs_of_made_cards_travel_as_safe_text():
    text = codec.encode_pairs([(3, 65537), (12, 131073)])
    assert text == "3:65537,12:131073" and codec.token(text.replace(":", "").replace(",", "")) == \
        text.replace(":", "").replace(",", "")
    assert codec.decode_pairs(text) == [(3, 65537), (12, 131073)]
    assert codec.decode_pairs("") == [] and codec.decode_pairs("3:x,4:5,junk") == [(4, 5)]


def test_the_stand_in_makes_cards_for_their_maker_and_a_peek_shows_one_player(wolf_zip):
    room, clients = play.setup(str(wolf_zip), 1, players=2)   # too few players: no game starts
    alice, bob = clients
    guid = sorted(room.package.cards)[0]
    made = []
    alice.do("make", guid)
    alice.ns["make"] = lambda g: made.append(alice.ns["table"].create(g, 10, 20, 1, True, True))
    room.run()
    card = room.cards[made[0]._id]
    assert made[0]._id == (alice.state.pid << 16) | 1 and card.owner is alice.state and not card.face_up
    assert alice.sees(card.cid) is None and bob.sees(card.cid) is None
    bob.do("look", made[0]._id)
    bob.ns["look"] = lambda c: bob.ns["Card"](c).peek()
    room.run()
    assert bob.sees(card.cid) == guid and alice.sees(card.cid) is None
    alice.do("turn", made[0]._id)
    alice.ns["turn"] = lambda c: setattr(alice.ns["Card"](c), "isFaceUp", True)
    room.run()
    assert alice.sees(card.cid) == guid == bob.sees(card.cid) and card.peeked_by == set()


def test_a_concession_ends_cfc_and_a_game_that_goes_on_asks_again():
    demo = load_table(DEMO)
    decks = [demo.data.deck_list(n) for n in demo.data.deck_names()]
    sign = Signer()
    s = Session(cfc, demo.data.models, demo.rules, ["S2,b"], decks, 4, sign.ends)
    s.add([])
    seat = s.pending["player"]
    s.add([sign(s, codec.concede_item(1 - seat))])       # CFC: the other player concedes, the game ends
    assert s.over and s.result["winner"] == seat

    conceded: list = []
    s = Session(cfc_that_goes_on(conceded), demo.data.models, demo.rules, ["S2,b"], decks, 4, sign.ends)
    s.add([])
    req = s.pending
    s.add([sign(s, codec.concede_item(1 - req["player"]))])
    assert not s.over and s.pending == req and conceded[-1] == 1 - req["player"]   # asked again
    n = len(s.state["log"])
    s.add([sign(s, "0")])                         # ... and answered by the next input
    assert s.state["log"][n] == [req["kind"], req["player"], req["options"][0]]
