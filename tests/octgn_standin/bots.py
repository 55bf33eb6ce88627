"""Scripted players for the stand-in: they use only what OCTGN shows a player (the menu items whose
showIf is true, and the dialogs that open)."""
from __future__ import absolute_import, division, print_function

from .octgn import Rand

#: table menu items a random player never chooses
NEVER = ("Concede", "Leave the game", "Automation: resynchronise the table")
ANSWER = "Answer the open question"


class RandomPlayer(object):
    """Clicks a random shown menu item (a table item such as Pass with probability ``stop``) and
    answers dialogs at random.  Call it as the client's ``answer``; :meth:`act` makes one move."""

    def __init__(self, seed, stop=0.3):
        self.rand = Rand(seed)
        self.stop = int(stop * 1000)
        self.actions = 0

    # ------------------------------------------------------------------ dialogs
    def __call__(self, client, kind, info):
        r = self.rand
        if kind == "confirm":
            return r.below(2) == 0
        if kind == "askChoice":
            if info["buttons"] and r.below(1000) < 300:
                return -1
            return 1 + r.below(len(info["choices"]))
        if kind == "cardDlg":
            cards = list(info["cards"])
            lo = info["min"] if info["min"] is not None else 0
            hi = info["max"] if info["max"] is not None else len(cards)
            n = lo + r.below(hi - lo + 1)
            out = []
            while len(out) < n:
                out.append(cards.pop(r.below(len(cards))))
            return out
        if kind in ("askInteger", "askString"):
            return info["default"]
        raise ValueError("no answer for %s" % kind)

    # ------------------------------------------------------------------ menus
    def visible_cards(self, client):
        room = client.room
        cids = [c.cid for c in room.table.cards]
        for g in client.state.piles:
            if g.visibility != "none":  # a face-down pile shows no card menus
                cids.extend([c.cid for c in g.cards])
        return cids

    def choices(self, client):
        cards = []
        client.open_scripts()
        try:
            for cid in self.visible_cards(client):
                for label in client.card_menu(cid):
                    cards.append((cid, label))
            table = [label for label in client.table_menu() if label not in NEVER]
        finally:
            client.close_scripts()
        return cards, table

    def act(self, client):
        """Choose one shown menu item and queue it; False if nothing is shown."""
        cards, table = self.choices(client)
        if ANSWER in table:
            client.click_table_menu(ANSWER)
        elif table and (not cards or self.rand.below(1000) < self.stop):
            client.click_table_menu(table[self.rand.below(len(table))])
        elif cards:
            cid, label = cards[self.rand.below(len(cards))]
            client.click_card_menu(cid, label)
        else:
            return False
        self.actions += 1
        return True
