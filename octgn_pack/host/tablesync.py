"""The shared table as the engine sees it: placing cards, markers, counters and highlights.

Every client runs the same inputs, so every client compares the game's table view
(``table.view(state, models)`` of the game's table face) before and after a run and changes only what
differs **and what it owns**: the cards its player controls (moves between piles with ``moveTo`` and
the index, places on the table with ``moveToTable``, which side is up, markers, the highlight), the
order of its own piles and its own counters.  OCTGN warns a card's controller whenever another
client changes the card, so no client touches what another controls.  Counters are written when the
engine's value changes (OCTGN delays counter updates, so the table's value may be stale).  With no
earlier view a client reconciles all it owns with the view, reading what OCTGN shows.

A card the engine made during the game (no OCTGN card stands for it yet) is made on the table by the
acting client (``table.create``) when its view names its card id (``"model"``); the writer lists the
new pairs in ``made`` for the host, which tells the other clients, and gives each such card on the
table to the seat the view names (a card moved into a pile belongs to the pile's player).
"""
from __future__ import absolute_import, division, print_function

STEP_X = 80
ROW_Y = 110
CARD_H = 88
OFF_TABLE_X = 40
UNDER = 12
HIGHLIGHT = "#ffcc00"


def place(face, seat, slot, index, under):
    """Table coordinates of a card: ``slot`` (a SLOTS place: an index, or a name when ``SLOTS`` is a
    list of names; None for a card on the table outside the slots), ``index`` its position among
    those, ``under`` True for a card lying under another.  Seat -1 (cards of nobody, in the middle)
    is the middle row."""
    slots = face.SLOTS
    nslots = len(slots) if isinstance(slots, list) else int(slots or 0)
    if isinstance(slots, list) and slot in slots:
        slot = slots.index(slot)
    if seat < 0:
        return (index - nslots // 2) * STEP_X, -CARD_H // 2
    row = seat // 2
    top = seat % 2 == 1
    if slot is None:
        x = (nslots - nslots // 2) * STEP_X + OFF_TABLE_X + index * 20
    else:
        col = nslots - 1 - slot if top else slot
        x = (col - nslots // 2) * STEP_X
    y = -(20 + CARD_H + row * ROW_Y) if top else 20 + row * ROW_Y
    if under:
        x += UNDER * index
        y += -UNDER * index if top else UNDER * index
    return x, y


def where(face, v):
    """Table coordinates of a card of the view: its own ``at`` when the table face places it (a ring of
    seats), else :func:`place`."""
    at = v.get("at")
    if at is not None:
        return int(at[0]), int(at[1])
    return place(face, v["player"], v["slot"], v["index"], "under" in v)


def slot_at(face, seat, x, slots):
    """The slot among ``slots`` whose place is nearest to ``x`` (None if ``slots`` is empty)."""
    best = None
    for s in slots:
        d = abs(place(face, seat, s, 0, False)[0] - x)
        if best is None or d < best[0]:
            best = (d, s)
    return best[1] if best else None


def same(a, b):
    """True if ``a`` and ``b`` are the same OCTGN object (API wrappers compare by ``_id``)."""
    if a is b:
        return True
    ida = getattr(a, "_id", None)
    if ida is not None:
        return ida == getattr(b, "_id", None)
    return bool(a == b)


def _point(pos):
    return int(round(pos[0])), int(round(pos[1]))


class TableWriter(object):
    """Writes a view onto the OCTGN table.  ``octgn``: the API adapter (host.Octgn); ``face``: the
    game's table face; ``cid``: engine iid -> OCTGN card id; ``pids``: seat -> OCTGN player id."""

    def __init__(self, octgn, face, cid, pids, guids=None):
        self.octgn = octgn
        self.face = face
        self.cid = cid
        self.pids = pids
        self.guids = guids or {}     # card id of the game -> OCTGN card GUID (for cards made in play)
        self.marker_names = dict((m["id"], m["name"]) for m in face.MARKERS)
        self.marker_keys = [(mid, (self.marker_names[mid], mid)) for mid in sorted(self.marker_names)]
        self.moves = 0
        self.unshown = []
        self.made = []               # (engine iid, OCTGN card id) of the cards this writer made
        self.me = octgn.me._id

    def controls(self, card):
        c = card.controller
        return c is not None and c._id == self.me

    def pile(self, seat, name):
        return self.octgn.pile(self.pids[seat], name)

    def write(self, old, new, hl_old=None, hl_new=None, create=True):
        """Make what this client owns on the table show ``new``; ``old`` is the view the table shows now
        (None: unknown).

        With ``create`` (the acting client), cards the engine made during the game are made on the
        table when the view names their card id (``model``); others without an OCTGN card, and cards of
        nobody in a pile, are not shown; they are listed in ``self.unshown``."""
        fresh = self.make_cards(new["cards"]) if create else set()
        cid = self.cid
        new_cards = {}
        for i, v in new["cards"].items():
            if i in cid and (v["pile"] is None or v["player"] >= 0):
                new_cards[i] = v
        self.unshown = sorted(set(new["cards"]) - set(new_cards)) if len(new_cards) < len(new["cards"]) else []
        old_cards = old["cards"] if old is not None else {}
        if old is None:
            touched = sorted(new_cards)
        else:
            get = old_cards.get
            touched = sorted([i for i, v in new_cards.items() if get(i) != v or i in fresh])
        piles = set()
        for i in touched:
            for v in (new_cards[i], old_cards.get(i)):
                if v is not None and v["pile"] is not None:
                    piles.add((v["player"], v["pile"]))
        orders = dict((key, []) for key in piles)
        if orders:
            for i, v in sorted(new_cards.items(), key=lambda kv: kv[1]["index"]):
                key = (v["player"], v["pile"])
                if key in orders:
                    orders[key].append(i)
        # 1. cards that change pile go to their pile, near their place (a card the table shows in
        #    that pile already, by the old view, stays: the order is step 3's)
        moved = set(touched)
        for key in sorted(orders):
            pile = None
            for pos, iid in enumerate(orders[key]):
                if iid not in moved:
                    continue
                was = old_cards.get(iid)
                if was is not None and iid not in fresh and was["pile"] == key[1] and was["player"] == key[0]:
                    continue
                if pile is None:
                    pile = self.pile(key[0], key[1])
                card = self.octgn.card(self.cid[iid])
                if not same(card.group, pile) and self.controls(card):
                    card.moveTo(pile, pos)
                    self.moves += 1
        # 2. cards on the table
        table = self.octgn.table()
        for iid in touched:
            v = new_cards[iid]
            if v["pile"] is not None:
                continue
            x, y = where(self.face, v)
            card = self.octgn.card(self.cid[iid])
            if not self.controls(card):
                continue
            if not same(card.group, table) or _point(card.position) != (x, y):
                card.moveToTable(x, y, not v["face_up"])
                self.moves += 1
            if getattr(card, "isFaceUp", v["face_up"]) != v["face_up"]:
                card.isFaceUp = v["face_up"]
                self.moves += 1
        # 3. the order inside each pile
        for key in sorted(orders):
            if self.pids[key[0]] != self.me:
                continue
            pile = self.pile(key[0], key[1])
            now = [c._id for c in pile]
            cids = set(now)
            for pos, iid in enumerate([i for i in orders[key] if self.cid[i] in cids]):
                cid = self.cid[iid]
                if pos < len(now) and now[pos] == cid:
                    continue
                if not self.controls(self.octgn.card(cid)):
                    continue
                self.octgn.card(cid).moveTo(pile, pos)
                self.moves += 1
                if cid in now:
                    now.remove(cid)
                now.insert(pos, cid)
        # 4. markers
        for iid in touched:
            want = new_cards[iid]["markers"]
            had = old_cards[iid]["markers"] if iid in old_cards and iid not in fresh else None
            if had == want:
                continue
            card = self.octgn.card(self.cid[iid])
            if not self.controls(card):
                continue
            for mid, key in self.marker_keys:
                n = want.get(mid, 0)
                if had is None:
                    if card.markers[key] != n:
                        card.markers[key] = n
                elif had.get(mid, 0) != n:
                    card.markers[key] = n
        # 5. counters
        #    (its own only, and after the engine's value: the table's may be a second late)
        for seat, counters in enumerate(new["counters"]):
            if seat >= len(self.pids) or self.pids[seat] != self.me:
                continue
            before = old["counters"][seat] if old is not None else None
            player = self.octgn.player(self.pids[seat])
            for name in sorted(counters):
                value = counters[name]
                if before is not None and before.get(name) == value:
                    continue
                player.counters[name].value = value
        # 6. the highlight of the card whose decision is open (a card made now has none yet)
        if hl_old != hl_new or old is None:
            for iid, colour in ((hl_old, None), (hl_new, HIGHLIGHT)):
                if iid is not None and iid in self.cid:
                    card = self.octgn.card(self.cid[iid])
                    if self.controls(card):
                        card.highlight = colour
        # 7. a card made now on the table belongs to the seat the view names
        for iid in sorted(fresh):
            v = new_cards.get(iid)
            if v is None or v["pile"] is not None or not 0 <= v["player"] < len(self.pids):
                continue
            pid = self.pids[v["player"]]
            if pid != self.me:
                self.octgn.card(self.cid[iid]).controller = self.octgn.player(pid)

    def make_cards(self, cards):
        """Make an OCTGN card for each card of the view that has none and whose card id the package
        knows, where the view puts it (face down if it is not face up); returns their iids."""
        made = set()
        table = self.octgn.table()
        for iid in sorted(cards):
            v = cards[iid]
            guid = self.guids.get(v.get("model"))
            if iid in self.cid or guid is None or (v["pile"] is not None and v["player"] < 0):
                continue
            if v["pile"] is None:
                x, y = where(self.face, v)
            else:
                x, y = 0, 0
            card = table.create(guid, x, y, 1, True, not v["face_up"])
            if isinstance(card, list):
                card = card[0]
            self.cid[iid] = card._id
            self.made.append((iid, card._id))
            self.moves += 1
            made.add(iid)
        return made
