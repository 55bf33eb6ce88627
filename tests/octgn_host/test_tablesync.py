"""The table writer against a recording fake of OCTGN's table: it moves only what changed, keeps the
order of piles with few moves, and copes with table faces other than CFC's."""
from __future__ import annotations

from octgn_pack.host import tablesync
from rulescript.games.cfc import table as cfc_table


class Group:
    def __init__(self, gid, name):
        self._id, self.name, self.cards = gid, name, []

    def __iter__(self):
        return iter(list(self.cards))


class Card:
    def __init__(self, table, cid):
        self.table, self._id = table, cid
        self.group = None
        self.position = (0, 0)
        self.markers = Markers(table, cid)
        self._highlight = None

    @property
    def controller(self):
        return self.table.players[self.table.controllers.get(self._id, self.table.me._id)]

    @controller.setter
    def controller(self, player):
        self.table.log.append(("controller", self._id, player._id))
        self.table.controllers[self._id] = player._id

    def _leave(self):
        if self.group is not None:
            self.group.cards.remove(self)

    def moveTo(self, group, index=0):
        self.table.log.append(("moveTo", self._id, group.name, index))
        self._leave()
        group.cards.insert(index, self)
        self.group = group

    def moveToTable(self, x, y, face_down=False):
        self.table.log.append(("moveToTable", self._id, x, y))
        self._leave()
        self.table.tbl.cards.append(self)
        self.group = self.table.tbl
        self.position = (x, y)

    @property
    def highlight(self):
        return self._highlight

    @highlight.setter
    def highlight(self, value):
        self.table.log.append(("highlight", self._id, value))
        self._highlight = value


class Markers(dict):
    def __init__(self, table, cid):
        super().__init__()
        self.table, self.cid = table, cid

    def __getitem__(self, key):
        return self.get(key, 0)

    def __setitem__(self, key, value):
        self.table.log.append(("marker", self.cid, key[1], value))
        super().__setitem__(key, value)


class Counter:
    def __init__(self, table, name):
        self.table, self.name, self._value = table, name, 0

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, v):
        self.table.log.append(("counter", self.name, v))
        self._value = v


class Player:
    def __init__(self, table, pid, piles, counters):
        self._id = pid
        self.piles = dict((n, Group(pid * 100 + k, n)) for k, n in enumerate(piles))
        self.counters = dict((n, Counter(table, n)) for n in counters)


class FakeTable:
    """``me``: the local player's id (default the last); every card is the local player's unless
    ``controllers`` (card id -> player id) says otherwise."""

    def __init__(self, face, pids, ncards, me=None, controllers=None):
        self.log = []
        self.tbl = Group(1, "Table")
        self.players = dict((pid, Player(self, pid, [p["name"] for p in face.PILES], [c["name"] for c in face.COUNTERS]))
                            for pid in pids)
        self.cards = dict((cid, Card(self, cid)) for cid in range(1, ncards + 1))
        self.me = self.players[pids[-1] if me is None else me]
        self.controllers = dict(controllers or {})

    def card(self, cid):
        return self.cards[cid]

    def table(self):
        return self.tbl

    def player(self, pid):
        return self.players[pid]

    def pile(self, pid, name):
        return self.players[pid].piles[name]


def pile_view(player, pile, order):
    return dict((iid, {"player": player, "pile": pile, "index": i, "slot": None, "face_up": False,
                       "markers": {}}) for i, iid in enumerate(order))


def test_a_first_write_places_everything_then_a_draw_moves_one_card():
    fake = FakeTable(cfc_table, [7, 9], 6, me=9)
    w = tablesync.TableWriter(fake, cfc_table, dict((i, i) for i in range(1, 7)), [7, 9])
    v1 = {"cards": {**pile_view(0, "Deck", [3, 1, 2]), **pile_view(1, "Deck", [4, 5, 6])},
          "counters": [{"HP": 3000, "SP": 0}, {"HP": 3000, "SP": 0}]}
    w.write(None, v1)
    assert [c._id for c in fake.pile(7, "Deck")] == [3, 1, 2] and [c._id for c in fake.pile(9, "Deck")] == [4, 5, 6]
    fake.log = []
    v2 = {"cards": dict(v1["cards"]), "counters": [{"HP": 3000, "SP": 0}, {"HP": 2500, "SP": 0}]}
    v2["cards"].update(pile_view(0, "Deck", [1, 2]))
    v2["cards"].update(pile_view(0, "Hand", [3]))
    v2["cards"][4] = {"player": 1, "pile": None, "index": 0, "slot": 2, "face_up": True, "markers": {"rs-fresh": 1}}
    v2["cards"].update(pile_view(1, "Deck", [5, 6]))
    w.write(v1, v2, None, 4)
    x, y = tablesync.place(cfc_table, 1, 2, 0, False)
    assert fake.log == [("moveTo", 3, "Hand", 0), ("moveToTable", 4, x, y), ("marker", 4, "rs-fresh", 1),
                        ("counter", "HP", 2500), ("highlight", 4, tablesync.HIGHLIGHT)]
    assert [c._id for c in fake.pile(7, "Deck")] == [1, 2] and [c._id for c in fake.pile(9, "Deck")] == [5, 6]


def test_a_new_order_inside_a_pile_moves_only_the_cards_out_of_place():
    fake = FakeTable(cfc_table, [1, 2], 6, me=1)
    w = tablesync.TableWriter(fake, cfc_table, dict((i, i) for i in range(1, 7)), [1, 2])
    v1 = {"cards": pile_view(0, "Deck", [1, 2, 3, 4, 5, 6]), "counters": [{}, {}]}
    w.write(None, v1)
    fake.log = []
    v2 = {"cards": pile_view(0, "Deck", [3, 1, 2, 4, 5, 6]), "counters": [{}, {}]}   # one card to the top
    w.write(v1, v2)
    assert fake.log == [("moveTo", 3, "Deck", 0)]


def test_other_table_faces_slots_by_name_cards_of_nobody_and_cards_made_in_play():
    class Face:
        SLOTS = ["role"]
        MARKERS = [{"id": "ww-dead", "name": "Dead"}]
        PILES = [{"name": "Attributes"}]
        COUNTERS = []
    fake = FakeTable(Face, [1, 2], 3)
    w = tablesync.TableWriter(fake, Face, {1: 1, 2: 2, 3: 3}, [1, 2])
    view = {"cards": {1: {"player": 0, "pile": None, "index": 0, "slot": "role", "face_up": False, "markers": {}},
                      2: {"player": 1, "pile": None, "index": 0, "slot": "role", "face_up": False,
                          "markers": {"ww-dead": 1}},
                      3: {"player": -1, "pile": None, "index": 0, "slot": None, "face_up": True, "markers": {}},
                      9: {"player": 0, "pile": "Attributes", "index": 0, "slot": None, "face_up": True,
                          "markers": {}}},
            "counters": [{}, {}]}
    w.write(None, view)
    assert fake.cards[1].position == tablesync.place(Face, 0, "role", 0, False) == (0, 20)
    assert fake.cards[2].position == (0, -108) and fake.cards[3].position == (0, -44)
    assert fake.cards[2].markers[("Dead", "ww-dead")] == 1
    assert w.unshown == [9]                      # made during the game: no OCTGN card stands for it


def test_a_drop_picks_the_nearest_free_slot():
    xs = [tablesync.place(cfc_table, 0, s, 0, False)[0] for s in range(4)]
    assert tablesync.slot_at(cfc_table, 0, xs[2] + 30, [0, 2, 3]) == 2
    assert tablesync.slot_at(cfc_table, 1, tablesync.place(cfc_table, 1, 3, 0, False)[0], [1, 3]) == 3
    assert tablesync.slot_at(cfc_table, 0, 0, []) is None


def test_each_client_writes_only_the_cards_it_controls_and_its_own_counters():
    """Alice (7) controls cards 1-3, Bob (9) cards 4-6: each writer changes its own only, and writes a
    counter after the engine's value even when the table shows that value already (it may be stale)."""
    owners = {1: 7, 2: 7, 3: 7, 4: 9, 5: 9, 6: 9}
    v1 = {"cards": {**pile_view(0, "Deck", [1, 2, 3]), **pile_view(1, "Deck", [4, 5, 6])},
          "counters": [{"HP": 3000, "SP": 0}, {"HP": 3000, "SP": 0}]}
    v2 = {"cards": dict(v1["cards"]), "counters": [{"HP": 2500, "SP": 0}, {"HP": 0, "SP": 1}]}
    v2["cards"].update(pile_view(0, "Deck", [2, 3]))
    v2["cards"].update(pile_view(0, "Hand", [1]))
    v2["cards"].update(pile_view(1, "Deck", [5, 6]))
    v2["cards"].update(pile_view(1, "Hand", [4]))
    logs = {}
    for me in (7, 9):
        fake = FakeTable(cfc_table, [7, 9], 6, me=me, controllers=owners)
        for cid in range(1, 7):
            fake.cards[cid].moveTo(fake.pile(owners[cid], "Deck"), 3)
        fake.players[9].counters["HP"]._value = 0          # what a late echo shows
        w = tablesync.TableWriter(fake, cfc_table, dict((i, i) for i in range(1, 7)), [7, 9])
        fake.log = []
        w.write(v1, v2)
        logs[me] = fake.log
    assert logs[7] == [("moveTo", 1, "Hand", 0), ("counter", "HP", 2500)]
    assert logs[9] == [("moveTo", 4, "Hand", 0), ("counter", "HP", 0), ("counter", "SP", 1)]
