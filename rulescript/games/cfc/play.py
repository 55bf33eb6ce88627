"""Playing cards: costs (docs/cfc-rules.md section 5), characters, Action and Reaction cards, backups (section 8),
trigger activation (section 3) and the Main phase choices."""
from __future__ import absolute_import, division, print_function

from .data import BACKUP_BP, UA_FOLLOWER_COST
from ...runtime.errors import GameError

NEVER_GIVES = ("action", "reaction", "ua2", "ua3")


class PlayMixin(object):
    """Costs and card play."""

    # -------------------------------------------------------------- costs
    def cost_value(self, kind, p, card=None, followers=0, paying=False):
        """The SP value of a payment (>= 0 gives SP, < 0 costs -value), docs/cfc-rules.md section 5."""
        if card is not None:
            base = int(self.model(card).get("sp") or 0)
        else:
            base = -UA_FOLLOWER_COST * followers
        m = 0
        for e in self.state["lasting"]:
            if e["type"] == "cost" and e["cost"] == kind:
                if e["op"] == "=":
                    base = int(e["value"])
                else:
                    m += int(e["value"])
        m += int(self.rules.cost_adjustment(self, kind, p, card, paying) or 0)
        value = base + m
        if m != 0 and card is not None and value >= 0:
            value = max(base, -1)
        if kind in NEVER_GIVES:
            value = min(value, 0)
        return value

    def can_afford(self, kind, p, card=None, followers=0):
        v = self.cost_value(kind, p, card, followers)
        return v >= 0 or self.state["players"][p]["sp"] >= -v

    def pay(self, kind, p, card=None, followers=0):
        """Compute and pay (or gain) the cost; raise GameError if it cannot be paid."""
        v = self.cost_value(kind, p, card, followers, True)
        pl = self.state["players"][p]
        if v < 0 and pl["sp"] < -v:
            raise GameError("player %s cannot pay %d SP" % (p, -v))
        pl["sp"] += v
        self.emit({"type": "stat", "player": p, "stat": "sp", "value": pl["sp"], "cost": v})
        return v

    # -------------------------------------------------------------- where cards are played from
    def playable_from(self, p):
        pl = self.state["players"][p]
        cards = list(pl["hand"])
        if pl["removed"] and self.rule("play_removed", p):
            cards.extend(pl["removed"])
        return cards

    # -------------------------------------------------------------- characters
    def can_play_character(self, p, iid):
        pl = self.state["players"][p]
        if pl["chars_played"] >= pl["chars_allowed"] or None not in pl["ring"]:
            return False
        limit = self.rule("play_char_bp_limit", p)
        if limit is not None and int(self.model(iid).get("bp") or 0) >= limit:
            return False
        return self.can_afford("character", p, iid)

    def play_character(self, p, iid, slot=None):
        """Play character ``iid`` into a free slot (asked with choose_slot if not given)."""
        st = self.state
        pl = st["players"][p]
        free = self.free_slots(p)
        if slot is None:
            slot = self.ask("choose_slot", p, free, prompt="slot for %s" % self.model(iid)["name"],
                            source=iid)
        elif slot not in free:
            raise GameError("slot %r is not free" % (slot,))
        self.pay("character", p, iid)
        c = st["cards"][iid]
        _, zone, _ = self._detach(iid)
        c["zone"] = "ring"
        c["ctrl"] = p
        c["slot"] = slot
        pl["ring"][slot] = iid
        c["rules"] = c["model"]
        self._set_bp_entry(iid)
        c["fresh"] = not self.has_ability(iid, "rush")
        pl["chars_played"] += 1
        self.emit({"type": "move", "card": iid, "from": [p, zone], "to": [p, "ring"], "slot": slot})
        self.rules.card_entered_play(self, iid)
        if zone == "hand":
            self.fire("handchanges", p)
        self.fire("ringchanges", p)
        self.settle()
        ab = c["ability"]
        if c["zone"] == "ring" and ab is not None and ab.get("kind") == "instant" \
                and self.rule("ab_instant_act", p):
            self.rules.resolve_action(self, iid, "instant")
            self.settle()
        return iid

    def _set_bp_entry(self, iid):
        bp = int(self.model(iid).get("bp") or 0)
        c = self.state["cards"][iid]
        c["bp"] = bp
        if bp > 0:
            c["lastBP"] = bp

    # -------------------------------------------------------------- Action and Reaction cards
    def can_play_action(self, p, iid):
        return not self.player_has_ability(p, "cantplayac") and self.can_afford("action", p, iid)

    def can_play_reaction(self, p, iid):
        return not self.player_has_ability(p, "cantplayre") and self.can_afford("reaction", p, iid)

    def _play_spell(self, p, iid, kind):
        self.pay(kind, p, iid)
        if kind == "action":
            self.expire(("unac",), p)
        st = self.state
        c = st["cards"][iid]
        _, zone, _ = self._detach(iid)
        c["zone"] = "table"
        c["ctrl"] = p
        st["players"][p]["table"].append(iid)
        self.emit({"type": "move", "card": iid, "from": [p, zone], "to": [p, "table"]})
        self.rules.card_entered_play(self, iid)
        if zone == "hand":
            self.fire("handchanges", p)
        self.settle()
        done = self.rules.resolve_action(self, iid, kind)
        self.settle()
        return bool(done)

    def play_action(self, p, iid):
        """Pay, end p's ``unac`` effects, put the card on the table and resolve it."""
        return self._play_spell(p, iid, "action")

    def play_reaction(self, p, iid):
        return self._play_spell(p, iid, "reaction")

    def discard_table(self, p, types):
        """Discard ``p``'s cards on the table whose type is in ``types``."""
        tab = self.state["players"][p]["table"]
        gone = [i for i in tab if self.ctype(i) in types]
        if gone:
            self.move_cards(gone, p, "discards", "top")

    # -------------------------------------------------------------- backups
    def backup_hosts(self, p, iid):
        """Characters of ``p``'s ring that character card ``iid`` may back up now."""
        if not self.is_char(iid):
            return []
        sub = self.model(iid).get("subtype")
        pl = self.state["players"][p]
        limited = self.rule("backup_limit", p) and pl["backups_played"] >= 1
        out = []
        for h in pl["ring"]:
            if h is None:
                continue
            hc = self.state["cards"][h]
            if hc["frozen"] or (hc["fresh"] and not self.rule("backup_fresh", p)):
                continue
            if limited and not self.has_ability(h, "unlimitedbackup"):
                continue
            slots = list(self.model(h).get("backup") or [])
            n_slots = slots.count(sub)
            n_used = len([b for b in hc["backups"] if self.model(b).get("subtype") == sub])
            if n_used < n_slots:
                out.append(h)
        return out

    def backup(self, p, iid, host):
        """Attach character card ``iid`` from the hand under ``host``; +300 BP; ``backedup``."""
        if host not in self.backup_hosts(p, iid):
            raise GameError("card %s cannot back up %s" % (iid, host))
        st = self.state
        c = st["cards"][iid]
        _, zone, _ = self._detach(iid)
        c["zone"] = "backup"
        c["ctrl"] = p
        c["host"] = host
        st["cards"][host]["backups"].append(iid)
        st["players"][p]["backups_played"] += 1
        self.emit({"type": "move", "card": iid, "from": [p, zone], "to": [p, "backup"], "host": host})
        if zone == "hand":
            self.fire("handchanges", p)
        self._set_bp(host, st["cards"][host]["bp"] + BACKUP_BP)
        self.fire("backedup", p, None, host)
        self.settle()

    # -------------------------------------------------------------- trigger abilities
    def can_activate(self, iid):
        c = self.state["cards"][iid]
        if c["zone"] != "ring" or c["ability"] is None or c["ability"].get("kind") != "trigger":
            return False
        p = c["ctrl"]
        if not self.rule("ab_trigger_act", p):
            return False
        if c["fresh"] and not self.rule("ab_trigger_fresh", p):
            return False
        if c["frozen"] or c["attacking"] or c["used"]:
            return False
        return bool(self.rules.has_action(self, iid))

    def activate(self, iid):
        """Activate a trigger ability; mark the character used after a successful resolution."""
        if not self.can_activate(iid):
            raise GameError("card %s cannot activate its ability now" % iid)
        res = self.rules.resolve_action(self, iid, "trigger")
        c = self.state["cards"][iid]
        if res and res != "clear" and c["zone"] == "ring":
            self._mark(iid, "used", True)
        self.settle()
        return res

    # -------------------------------------------------------------- Main phase
    def main_options(self, p):
        opts = []
        cards = self.state["cards"]
        for iid in self.playable_from(p):
            t = self.ctype(iid)
            if t == "character":
                if self.can_play_character(p, iid):
                    opts.append({"do": "play", "card": iid})
                if cards[iid]["zone"] == "hand":
                    for h in self.backup_hosts(p, iid):
                        opts.append({"do": "backup", "card": iid, "host": h})
            elif t == "action":
                if self.can_play_action(p, iid):
                    opts.append({"do": "action", "card": iid})
        for iid in self.ring_chars(p):
            if self.can_activate(iid):
                opts.append({"do": "activate", "card": iid})
        opts.append({"do": "pass"})
        return opts

    def main_phase(self, p):
        while True:
            opts = self.main_options(p)
            if len(opts) == 1:
                return
            a = self.ask("choose_main_action", p, opts, prompt="main phase")
            do = a["do"]
            if do == "pass":
                return
            if do == "play":
                self.play_character(p, a["card"])
            elif do == "backup":
                self.backup(p, a["card"], a["host"])
            elif do == "action":
                self.play_action(p, a["card"])
            elif do == "activate":
                self.activate(a["card"])
