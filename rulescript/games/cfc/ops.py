"""Game-state operations that RuleScript commands (and the flow) call on a :class:`CfcGame`.

Every public operation finishes its command: events are raised, characters at 0 BP are KO'd and
a player at 0 HP loses (``settle``). Piles are lists with the top first (index 0), except the hand,
which keeps the order of arrival.
"""
from __future__ import absolute_import, division, print_function

from .data import PHASES, PILES
from ...runtime.errors import GameError

REVERTING = ("deck", "discards", "removed")


def round_bp(e):
    """Round to the nearest 100, halves away from zero."""
    e = int(e)
    q = (abs(e) + 50) // 100 * 100
    if e < 0:
        return -q
    return q


def insert_at(pile, iid, pos):
    """Insert into a top-first pile. pos: 'top'/0, 'bottom'/-1, k (from the top), -k (from the bottom)."""
    if pos is None or pos == "top":
        pos = 0
    elif pos == "bottom":
        pos = -1
    pos = int(pos)
    if pos >= 0:
        idx = min(pos, len(pile))
    else:
        idx = max(0, len(pile) + 1 + pos)
    pile.insert(idx, iid)


class OpsMixin(object):
    """Operations on cards, piles, players and stats."""

    # -------------------------------------------------------------- moving
    def _discard_backups(self, c, p):
        """The backups under card ``c`` go to player ``p``'s discards (its card left the ring)."""
        st = self.state
        for b in list(c["backups"]):
            self._detach(b)
            bc = st["cards"][b]
            bc["zone"] = "discards"
            bc["ctrl"] = p
            self._revert(bc)
            st["players"][p]["discards"].insert(0, b)
            self.emit({"type": "move", "card": b, "from": [p, "backup"], "to": [p, "discards"]})

    def _detach(self, iid):
        """Take the card out of where it is; return (player, zone, slot)."""
        st = self.state
        c = st["cards"][iid]
        zone = c["zone"]
        p = c["ctrl"]
        slot = c["slot"]
        if zone == "ring":
            st["players"][p]["ring"][slot] = None
        elif zone == "backup":
            host = st["cards"][c["host"]]
            host["backups"].remove(iid)
            c["host"] = None
        else:
            st["players"][p][zone].remove(iid)
        c["slot"] = None
        return p, zone, slot

    def _reset_play_state(self, c):
        c["bp"] = 0
        c["frozen"] = False
        c["fresh"] = False
        c["used"] = False
        c["attacking"] = False
        c["ua"] = None
        c["blocking"] = None
        c["blocked"] = False
        c["rules"] = c["model"]
        c["ability"] = self._printed_ability(c["model"])

    def move_cards(self, iids, player, pile, pos="top"):
        """Move cards into ``player``'s ``pile`` at ``pos``; they come under that player's control.

        A character leaving a ring drops its backups into its controller's discard pile and fires
        ``removed``; ``ringchanges``/``handchanges`` fire once per ring/hand touched.
        """
        if pile not in PILES:
            raise GameError("cannot move cards to %r (piles: %s)" % (pile, ", ".join(PILES)))
        st = self.state
        rings = []
        hands = []
        left_ring = []
        left_table = []
        dest = st["players"][player][pile]
        for iid in list(iids):
            c = st["cards"][iid]
            p, zone, slot = self._detach(iid)
            if zone == "ring":
                self._drop_from_combat(iid)
                self._discard_backups(c, p)
                left_ring.append((iid, p))
                if p not in rings:
                    rings.append(p)
            elif zone == "table":
                left_table.append(iid)
            if zone == "hand" and p not in hands:
                hands.append(p)
            if zone in ("ring", "table", "backup"):
                self._reset_play_state(c)
            c["zone"] = pile
            c["ctrl"] = player
            if pile in REVERTING:
                self._revert(c)
            if pile == "hand":
                dest.append(iid)
                if player not in hands:
                    hands.append(player)
            else:
                insert_at(dest, iid, pos)
            self.emit({"type": "move", "card": iid, "from": [p, zone], "to": [player, pile]})
        for iid, p in left_ring:
            self._left_play(iid, p, True)
        for iid in left_table:
            self._left_play(iid, None, False)
        for p in rings:
            self.fire("ringchanges", p)
        for p in hands:
            self.fire("handchanges", p)
        self.settle()

    def _left_play(self, iid, p, was_in_ring):
        if was_in_ring:
            self.fire("removed", p, iid, iid)
        self.rules.card_left_play(self, iid)
        self.end_effects_of(iid)

    def _revert(self, c):
        if c["orig"] is not None:
            c["model"] = c["orig"]
            c["orig"] = None
            c["rules"] = c["model"]
            c["ability"] = self._printed_ability(c["model"])

    def ko(self, iid):
        """KO a character in a ring: to its controller's discard pile, backups follow."""
        c = self.state["cards"][iid]
        if c["zone"] != "ring":
            raise GameError("card %s is not in a ring" % iid)
        self.emit({"type": "ko", "card": iid})
        self.move_cards([iid], c["ctrl"], "discards", "top")

    def destroy(self, iids):
        """Target cards go to their controller's discard pile (a KO in a ring)."""
        for iid in list(iids):
            c = self.state["cards"][iid]
            if c["zone"] == "ring":
                self.ko(iid)
            elif c["zone"] != "discards":
                self.move_cards([iid], c["ctrl"], "discards", "top")

    # -------------------------------------------------------------- piles
    def draw(self, p, n=1):
        """Draw up to n cards (fewer if the deck runs out); return the drawn iids."""
        deck = self.state["players"][p]["deck"]
        take = deck[:max(0, int(n))]
        if take:
            self.move_cards(take, p, "hand")
        return take

    def discard(self, p, iids):
        """Discard these cards from ``p``'s hand."""
        hand = self.state["players"][p]["hand"]
        for iid in iids:
            if iid not in hand:
                raise GameError("card %s is not in player %s's hand" % (iid, p))
        if iids:
            self.move_cards(iids, p, "discards", "top")
        return list(iids)

    def discard_random(self, p, n=1):
        hand = list(self.state["players"][p]["hand"])
        picked = []
        for _ in range(min(int(n), len(hand))):
            picked.append(hand.pop(self.randbelow(len(hand))))
        return self.discard(p, picked)

    def discard_chosen(self, chooser, p, n=1, source=None):
        """``chooser`` picks n cards of ``p``'s hand (all if fewer) to discard."""
        hand = list(self.state["players"][p]["hand"])
        k = min(int(n), len(hand))
        if k <= 0:
            return []
        picked = self.ask("choose_targets", chooser, hand, k, k, "discard %d" % k, source)
        return self.discard(p, picked)

    def trash(self, p, n=1):
        """Top n cards of the deck to the discard pile; return them."""
        deck = self.state["players"][p]["deck"]
        take = deck[:max(0, int(n))]
        for iid in take:
            self.move_cards([iid], p, "discards", "top")
        return take

    def move_pile(self, p1, pile1, p2, pile2):
        """Every card of pile1 goes on top of pile2, keeping their order."""
        cards = list(self.state["players"][p1][pile1])
        if not cards:
            return []
        for iid in reversed(cards):
            self.move_cards([iid], p2, pile2, "top")
        return cards

    def swap_piles(self, p1, pile1, p2, pile2):
        st = self.state
        a = list(st["players"][p1][pile1])
        b = list(st["players"][p2][pile2])
        st["players"][p1][pile1][:] = b
        st["players"][p2][pile2][:] = a
        for iid in b:
            c = st["cards"][iid]
            c["ctrl"] = p1
            c["zone"] = pile1
        for iid in a:
            c = st["cards"][iid]
            c["ctrl"] = p2
            c["zone"] = pile2
        self.emit({"type": "swap_piles", "a": [p1, pile1], "b": [p2, pile2]})
        for p, pile in ((p1, pile1), (p2, pile2)):
            if pile == "hand":
                self.fire("handchanges", p)
        self.settle()

    def prophecy(self, chooser, owner, pile="deck", n=1, where=None, source=None):
        """``chooser`` looks at the top n cards of ``owner``'s pile, orders them (``arrange``) and
        puts them back on top or at the bottom (``top_or_bottom`` when ``where`` is None)."""
        cards = self.state["players"][owner][pile]
        top = cards[:max(0, int(n))]
        if not top:
            return []
        order = top
        if len(top) > 1:
            order = self.ask("arrange", chooser, list(top), len(top), len(top), "order the cards",
                             source)
        if where is None:
            where = self.ask("top_or_bottom", chooser, ["top", "bottom"], prompt="put them back",
                             source=source)
        rest = cards[len(top):]
        if where == "top":
            cards[:] = list(order) + rest
        else:
            cards[:] = rest + list(order)
        self.emit({"type": "prophecy", "player": owner, "pile": pile, "count": len(top),
                   "where": where})
        return list(order)

    def flip_coin(self, p, source=None):
        """flipCoin(): ``p`` calls heads or tails, the game's generator flips; True if right."""
        call = self.ask("coin_call", p, ["heads", "tails"], prompt="call the coin", source=source)
        side = self.coin()
        self.emit({"type": "coin", "player": p, "call": call, "side": side})
        return call == side

    def shuffle_pile(self, p, pile="deck"):
        self.shuffle_list(self.state["players"][p][pile])
        self.emit({"type": "shuffle", "player": p, "pile": pile})

    # -------------------------------------------------------------- damage and stats
    def _set_bp(self, iid, v):
        c = self.state["cards"][iid]
        v = max(0, int(v))
        c["bp"] = v
        if v > 0:
            c["lastBP"] = v
        self.emit({"type": "stat", "card": iid, "stat": "bp", "value": v})

    def _chars_in_ring(self, iids):
        cards = self.state["cards"]
        return [i for i in iids if cards[i]["zone"] == "ring"]

    def damage_chars(self, iids, e):
        """Non-combat damage e to characters in a ring: each loses min(e, BP)."""
        e = int(e)
        if e <= 0:
            return
        for iid in self._chars_in_ring(iids):
            bp = self.state["cards"][iid]["bp"]
            self._set_bp(iid, bp - min(e, bp))
        self.settle()

    def damage_player(self, p, e, source=None):
        """Non-combat damage to a player (docs/language.md section 6.4)."""
        e = int(e)
        if e <= 0:
            return 0
        adj = 0
        if source is None or not self.is_char(source):
            adj = int(self.rules.damage_adjustment(self, source, p) or 0)
        loss = max(0, e + adj)
        pl = self.state["players"][p]
        pl["hp"] = max(0, pl["hp"] - loss)
        pl["ncDamaged"] = True
        self.emit({"type": "stat", "player": p, "stat": "hp", "value": pl["hp"], "damage": loss})
        self.settle()
        return loss

    def combat_damage_player(self, p, e):
        """Combat damage: lowers HP, no beforedamage and no ncDamaged. The caller settles."""
        e = int(e)
        if e <= 0:
            return 0
        pl = self.state["players"][p]
        pl["hp"] = max(0, pl["hp"] - e)
        self.emit({"type": "stat", "player": p, "stat": "hp", "value": pl["hp"], "combat": e})
        return e

    def lose_life(self, p, e):
        """Lose e HP (not damage)."""
        e = int(e)
        if e <= 0:
            return
        pl = self.state["players"][p]
        pl["hp"] = max(0, pl["hp"] - e)
        self.emit({"type": "stat", "player": p, "stat": "hp", "value": pl["hp"]})
        self.settle()

    def add_hp(self, p, e):
        pl = self.state["players"][p]
        pl["hp"] = max(0, pl["hp"] + int(e))
        self.emit({"type": "stat", "player": p, "stat": "hp", "value": pl["hp"]})
        self.settle()

    def set_hp(self, p, v):
        pl = self.state["players"][p]
        pl["hp"] = max(0, int(v))
        self.emit({"type": "stat", "player": p, "stat": "hp", "value": pl["hp"]})
        self.settle()

    def _change_sp(self, p, new):
        pl = self.state["players"][p]
        new = max(0, int(new))
        lost = pl["sp"] - new
        pl["sp"] = new
        if lost > 0:
            pl["lostSP"] = lost
            pl["lost_sp_any"] = True
        self.emit({"type": "stat", "player": p, "stat": "sp", "value": new})
        self.settle()

    def add_sp(self, p, v):
        """sp(v): add v (floor 0); a loss sets lostSP (and oppLostSP for the opponent)."""
        self._change_sp(p, self.state["players"][p]["sp"] + int(v))

    def set_sp(self, p, v):
        self._change_sp(p, v)

    def opp_lost_sp(self, p):
        """oppLostSP seen by ``p``."""
        return self.state["players"][1 - p]["lost_sp_any"]

    def bp_add(self, iids, v):
        for iid in self._chars_in_ring(iids):
            self._set_bp(iid, self.state["cards"][iid]["bp"] + int(v))
        self.settle()

    def bp_mul(self, iids, n):
        for iid in self._chars_in_ring(iids):
            self._set_bp(iid, int(self.state["cards"][iid]["bp"] * n))
        self.settle()

    def bp_set(self, iids, e):
        for iid in self._chars_in_ring(iids):
            self._set_bp(iid, round_bp(e))
        self.settle()

    # -------------------------------------------------------------- marks
    def _mark(self, iid, name, value):
        c = self.state["cards"][iid]
        if c[name] != value:
            c[name] = value
            self.emit({"type": "marker", "card": iid, "marker": name, "value": value})

    def freeze(self, iids, toggle=False):
        for iid in self._chars_in_ring(iids):
            if toggle and self.state["cards"][iid]["frozen"]:
                self._unfreeze_one(iid)
            else:
                self._mark(iid, "frozen", True)
        self.settle()

    def _unfreeze_one(self, iid):
        self._mark(iid, "frozen", False)
        self._mark(iid, "used", False)

    def unfreeze(self, iids):
        for iid in self._chars_in_ring(iids):
            self._unfreeze_one(iid)
        self.settle()

    # -------------------------------------------------------------- identity
    def transform(self, iids, model_id):
        """Each card becomes ``model_id`` (docs/language.md section 6.5)."""
        if model_id not in self.models:
            raise GameError("unknown card id %r" % (model_id,))
        st = self.state
        for iid in list(iids):
            c = st["cards"][iid]
            in_play = c["zone"] in ("ring", "table")
            in_ring = c["zone"] == "ring"
            if in_play:
                self.fire("powerless", c["ctrl"], iid, iid)
                if in_ring:
                    self.fire("removed", c["ctrl"], iid, iid)
                self.rules.card_left_play(self, iid)
                self.end_effects_of(iid)
            if c["orig"] is None:
                c["orig"] = c["model"]
            c["model"] = model_id
            c["rules"] = model_id
            c["ability"] = self._printed_ability(model_id)
            self.emit({"type": "transform", "card": iid, "model": model_id})
            if c["zone"] == "ring":
                p = c["ctrl"]
                self._discard_backups(c, p)
                self._set_bp(iid, self.models[model_id].get("bp") or 0)
            if in_play:
                self.rules.card_entered_play(self, iid)
        self.settle()

    def set_rules(self, iid, rules_id, ability):
        """Replace a card's rules (copyAbility, steal, swapAbilities, loseAbility; docs/language.md
        section 6.5): ``powerless`` fires, the old rules unload and their unrestricted lasting
        effects end, then ``rules_id`` (a card id whose rules it now has, or None) and ``ability``
        (``{"kind", "name"}`` or None) are set and the new rules load. No instant ability fires;
        a copied trigger ability starts unused."""
        c = self.state["cards"][iid]
        in_play = c["zone"] in ("ring", "table")
        if in_play:
            self.fire("powerless", c["ctrl"], iid, iid)
            self.rules.card_left_play(self, iid)
            self.end_effects_of(iid)
        c["rules"] = rules_id
        c["ability"] = None if ability is None else {"kind": ability.get("kind"),
                                                     "name": ability.get("name")}
        c["used"] = False
        self.emit({"type": "rules", "card": iid, "rules": rules_id})
        if in_play and rules_id is not None:
            self.rules.card_entered_play(self, iid)
        self.settle()

    def swap_chars(self, a, b):
        """Two characters of one ring exchange slots."""
        st = self.state
        ca = st["cards"][a]
        cb = st["cards"][b]
        if ca["zone"] != "ring" or cb["zone"] != "ring" or ca["ctrl"] != cb["ctrl"]:
            raise GameError("swap_chars needs two characters of one ring")
        ring = st["players"][ca["ctrl"]]["ring"]
        ca["slot"], cb["slot"] = cb["slot"], ca["slot"]
        ring[ca["slot"]] = a
        ring[cb["slot"]] = b
        self.emit({"type": "swap", "cards": [a, b]})
        self.fire("ringchanges", ca["ctrl"])
        self.settle()

    def move_to_slot(self, iid, slot=None):
        """Move a character to an empty slot of its ring (asked with choose_slot if slot is None)."""
        c = self.state["cards"][iid]
        if c["zone"] != "ring":
            raise GameError("card %s is not in a ring" % iid)
        free = self.free_slots(c["ctrl"])
        if not free:
            return False
        if slot is None:
            slot = self.ask("choose_slot", c["ctrl"], free, prompt="move to slot", source=iid)
        elif slot not in free:
            raise GameError("slot %r is not free" % (slot,))
        ring = self.state["players"][c["ctrl"]]["ring"]
        ring[c["slot"]] = None
        ring[slot] = iid
        c["slot"] = slot
        self.emit({"type": "slot", "card": iid, "slot": slot})
        self.fire("ringchanges", c["ctrl"])
        self.settle()
        return True

    # -------------------------------------------------------------- turns
    def add_extra_turns(self, p, n):
        self.state["players"][p]["extra_turns"] += int(n)

    def skip_phase(self, p, phase):
        if phase not in PHASES:
            raise GameError("unknown phase %r" % (phase,))
        self.state["players"][p]["skip"].append(phase)

    def play_extra_char(self, p):
        self.state["players"][p]["chars_allowed"] += 1
