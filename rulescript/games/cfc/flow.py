"""Setup, turns and the seven phases (docs/cfc-rules.md section 6), and running a game to its end."""
from __future__ import absolute_import, division, print_function

from .data import HAND_SIZE
from ...runtime.errors import GameOver


class FlowMixin(object):
    """The turn structure."""

    def setup(self):
        """Shuffle both decks, draw 5 each, pick the first player (random if not given)."""
        st = self.state
        for p in (0, 1):
            self.shuffle_pile(p, "deck")
        if st["first"] is None:
            st["first"] = self.randbelow(2)
        st["active"] = st["first"]
        self.emit({"type": "setup", "first": st["first"], "seed": st["seed"]})
        for p in (0, 1):
            self.draw(p, HAND_SIZE)
        self.rules.start(self)

    def run(self):
        """Play from the current point to the end; return the state's result fields."""
        st = self.state
        try:
            if st["phase"] == "setup":
                self.setup()
            while not st["over"]:
                self.play_turn()
        except GameOver:
            pass
        return {"winner": st["winner"], "result": st["result"], "reason": st["reason"],
                "turns": st["turn"]}

    def _start_turn(self, p):
        st = self.state
        st["turn"] += 1
        if st["turn"] > st["turn_limit"]:
            st["turn"] -= 1
            self.end_game(None, "turn limit (%d turns)" % st["turn_limit"])
        st["active"] = p
        for pl in st["players"]:
            pl["chars_played"] = 0
            pl["chars_allowed"] = 1
            pl["backups_played"] = 0
            pl["ncDamaged"] = False
            pl["lostSP"] = 0
            pl["lost_sp_any"] = False
        st["players"][p]["turns_taken"] += 1
        self.emit({"type": "turn", "turn": st["turn"], "player": p})

    def _phase(self, p, name):
        """Enter phase ``name``; False if it is skipped (a skip entry is used up)."""
        st = self.state
        skips = st["players"][p]["skip"]
        if name in skips:
            skips.remove(name)
            self.emit({"type": "phase", "player": p, "phase": name, "skipped": True})
            return False
        st["phase"] = name
        self.emit({"type": "phase", "player": p, "phase": name})
        return True

    def play_turn(self):
        """One whole turn of the player due to play (the active player after an extra turn)."""
        st = self.state
        p = st["next_player"]
        if p is None:
            p = st["first"]
        self._start_turn(p)
        d = 1 - p
        if self._phase(p, "activate"):
            self.phase_activate(p)
        if self._phase(p, "draw"):
            if p == st["first"] and st["players"][p]["turns_taken"] == 1:
                self.emit({"type": "message", "text": "the first player skips the first draw"})
            else:
                self.phase_draw(p)
        if self._phase(p, "main"):
            self.main_phase(p)
        attacked = False
        if self._phase(p, "attack"):
            attacked = self.phase_attack(p)
        if st["attacks"] and self._phase(p, "counter-attack"):
            self.phase_counter_attack(p, d)
        if self._phase(p, "end"):
            self.phase_end(p, d, attacked)
        if self._phase(p, "cleanup"):
            self.phase_cleanup(p)
        else:
            self.clear_combat()
            self._end_turn_marks()
        pl = st["players"][p]
        if pl["extra_turns"] > 0:
            pl["extra_turns"] -= 1
            st["next_player"] = p
        else:
            st["next_player"] = d

    # -------------------------------------------------------------- phases
    def phase_activate(self, p):
        st = self.state
        for iid in self.ring_chars(p):
            c = st["cards"][iid]
            if c["frozen"] and not self.has_ability(iid, "frosted"):
                self._unfreeze_one(iid)
            self._mark(iid, "fresh", False)
            self._mark(iid, "used", False)
        self.discard_table(p, ("action", "reaction"))
        self.fire("activatephase", p)
        self.expire(("uynt",), p)
        self.settle()

    def phase_draw(self, p):
        if not self.state["players"][p]["deck"]:
            self.end_game(1 - p, "player %d must draw from an empty deck" % p)
        self.draw(p, 1)
        self.fire("drawphase", p)
        self.settle()

    def phase_attack(self, p):
        """Returns True if the Attack phase took place (it is skipped without able attackers)."""
        if not self.any_able_to_attack(p):
            self.emit({"type": "message", "text": "no character can attack"})
            return False
        self.discard_table(p, ("action",))
        self.declare_attacks(p)
        return True

    def phase_counter_attack(self, p, d):
        self.pay_united_attack(p)
        self.fire("blockphase", p)
        for iid in self.attackers():
            if self.state["cards"][iid]["attacking"]:
                self.fire("attacks", p, iid, iid)
        self.settle()
        self.declare_defense(d)

    def phase_end(self, p, d, attacked):
        st = self.state
        if st["attacks"] and self.rule("attack_freeze", p):
            for iid in self.attackers():
                if not self.has_ability(iid, "unfreezable"):
                    self._mark(iid, "frozen", True)
        self.resolve_combat(p)
        self.fire("endphase", p)
        self.settle()
        self.discard_table(d, ("reaction",))
        self.discard_table(p, ("action",))

    def phase_cleanup(self, p):
        self.fire("cleanupphase", p)
        self.settle()
        self.clear_combat()
        self.expire(("ueot", "unac"), p)
        self._end_turn_marks()

    def _end_turn_marks(self):
        for c in self.state["cards"].values():
            if c["ua_member"]:
                c["ua_member"] = False
