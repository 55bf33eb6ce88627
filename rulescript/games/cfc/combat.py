"""Attacks, United Attacks, blocks and combat (docs/cfc-rules.md section 7).

``state["attacks"]`` lists the declared attacks in declaration order, each
``{"lead": iid, "followers": [iid, ...], "blocker": iid or None}``. The cards mirror it:
``attacking``, ``ua`` ('lead'/'follower'/None), ``ua_member`` (was in a United Attack this turn),
``blocking`` (the lead it blocks) and ``blocked``.
"""
from __future__ import absolute_import, division, print_function

from ...runtime.errors import GameError


class CombatMixin(object):
    """Declaring attacks and blocks, and resolving combat."""

    # -------------------------------------------------------------- queries
    def attack_of(self, iid):
        for a in self.state["attacks"]:
            if a["lead"] == iid or iid in a["followers"]:
                return a
        return None

    def attackers(self):
        """Every attacking character, leads and followers, in declaration order."""
        out = []
        for a in self.state["attacks"]:
            out.append(a["lead"])
            out.extend(a["followers"])
        return out

    def united_attack(self):
        for a in self.state["attacks"]:
            if a["followers"]:
                return a
        return None

    def able_to_attack(self, iid, ignore_attacking=False):
        c = self.state["cards"][iid]
        if c["zone"] != "ring" or c["frozen"] or c["fresh"]:
            return False
        if c["attacking"] and not ignore_attacking:
            return False
        if not self.rule("attack", c["ctrl"]):
            return False
        return not self.has_ability(iid, "cantattack")

    def any_able_to_attack(self, p):
        for iid in self.ring_chars(p):
            if self.able_to_attack(iid):
                return True
        return False

    def _sync_attack_flags(self, a):
        cards = self.state["cards"]
        lead = cards[a["lead"]]
        lead["attacking"] = True
        lead["ua"] = "lead" if a["followers"] else None
        if a["followers"]:
            lead["ua_member"] = True
        for f in a["followers"]:
            cards[f]["attacking"] = True
            cards[f]["ua"] = "follower"
            cards[f]["ua_member"] = True
        lead["blocked"] = a["blocker"] is not None

    def _clear_attacker(self, iid):
        c = self.state["cards"][iid]
        c["attacking"] = False
        c["ua"] = None
        c["blocked"] = False

    # -------------------------------------------------------------- declaring
    def declare_attack(self, iid):
        if not self.able_to_attack(iid):
            raise GameError("card %s cannot attack" % iid)
        a = {"lead": iid, "followers": [], "blocker": None}
        self.state["attacks"].append(a)
        self._sync_attack_flags(a)
        self.emit({"type": "attack", "card": iid})

    def _join_kind(self, a):
        n = len(a["followers"]) + 1
        return ("ua2" if n == 1 else "ua3"), n

    def can_join(self, iid, lead):
        a = self.attack_of(lead)
        if a is None or a["lead"] != lead or not self.able_to_attack(iid):
            return False
        if len(a["followers"]) >= 2:
            return False
        ua = self.united_attack()
        if ua is not None and ua is not a:
            return False
        kind, n = self._join_kind(a)
        return self.can_afford(kind, self.state["cards"][lead]["ctrl"], None, n)

    def join_attack(self, iid, lead):
        """Add ``iid`` to the attack led by ``lead`` (forming or extending the United Attack)."""
        if not self.can_join(iid, lead):
            raise GameError("card %s cannot join the attack of %s" % (iid, lead))
        a = self.attack_of(lead)
        a["followers"].append(iid)
        self._sync_attack_flags(a)
        self.emit({"type": "unite", "card": iid, "lead": lead})

    def cancel_attack(self, iid):
        """During the declaration: cancelling a lead cancels its whole attack; a follower leaves."""
        a = self.attack_of(iid)
        if a is None:
            raise GameError("card %s is not attacking" % iid)
        if a["lead"] == iid:
            self._unblock_attack(a)
            self.state["attacks"].remove(a)
            for m in [a["lead"]] + a["followers"]:
                self._clear_attacker(m)
        else:
            a["followers"].remove(iid)
            self._clear_attacker(iid)
            self._sync_attack_flags(a)
        self.emit({"type": "cancel_attack", "card": iid})

    def attack_options(self, p):
        opts = []
        able = [i for i in self.ring_chars(p) if self.able_to_attack(i)]
        for iid in able:
            opts.append({"do": "attack", "card": iid})
        for a in list(self.state["attacks"]):
            for iid in able:
                if self.can_join(iid, a["lead"]):
                    opts.append({"do": "join", "card": iid, "lead": a["lead"]})
        for iid in self.attackers():
            opts.append({"do": "cancel", "card": iid})
        opts.append({"do": "done"})
        return opts

    def declare_attacks(self, p):
        while True:
            opts = self.attack_options(p)
            if len(opts) == 1:
                return
            a = self.ask("choose_attack", p, opts, prompt="declare attacks")
            do = a["do"]
            if do == "done":
                return
            if do == "attack":
                self.declare_attack(a["card"])
            elif do == "join":
                self.join_attack(a["card"], a["lead"])
            elif do == "cancel":
                self.cancel_attack(a["card"])

    # -------------------------------------------------------------- commands on attacks
    def remove_from_attack(self, iids):
        """removeFromAttack(): targets stop attacking; a broken United Attack dissolves."""
        for iid in list(iids):
            a = self.attack_of(iid)
            if a is None:
                continue
            self._remove_one(iid, a)
            self.emit({"type": "remove_from_attack", "card": iid})

    def _remove_one(self, iid, a):
        st = self.state
        if not a["followers"]:
            self._unblock_attack(a)
            st["attacks"].remove(a)
            self._clear_attacker(iid)
            return
        if a["lead"] == iid or len(a["followers"]) == 1:
            a["followers"] = [m for m in a["followers"] if m != iid]
            if a["lead"] == iid:
                a["lead"] = a["followers"].pop(0)
            self._clear_attacker(iid)
            self._dissolve(a)
            return
        a["followers"].remove(iid)
        self._clear_attacker(iid)
        self._sync_attack_flags(a)

    def unite(self, iids):
        """unite(): attacking targets outside a United Attack join one, free, up to 3 members."""
        cards = self.state["cards"]
        free = [i for i in iids if cards[i]["attacking"] and cards[i]["ua"] is None]
        ua = self.united_attack()
        if ua is None:
            if not free:
                return
            ua = self.attack_of(free[0])
            free = free[1:]
        for iid in free:
            if len(ua["followers"]) >= 2:
                break
            if iid == ua["lead"]:
                continue
            old = self.attack_of(iid)
            self._unblock_attack(old)
            self.state["attacks"].remove(old)
            ua["followers"].append(iid)
            self.emit({"type": "unite", "card": iid, "lead": ua["lead"]})
        self._sync_attack_flags(ua)

    def _drop_from_combat(self, iid):
        """A card leaves its ring: it stops attacking or blocking."""
        c = self.state["cards"][iid]
        if c["attacking"]:
            self.remove_from_attack([iid])
        if c["blocking"] is not None:
            if self.state["phase"] in ("end", "cleanup"):
                # combat is being (or has been) resolved: the attack stays blocked, and its lead keeps
                # the 'blocked' mark until Cleanup clears combat state (docs/language.md 4.3, 7.2)
                c["blocking"] = None
            else:
                self.withdraw_block(iid)

    # -------------------------------------------------------------- blocks
    def _unblock_attack(self, a):
        b = a["blocker"]
        if b is not None:
            self.state["cards"][b]["blocking"] = None
            a["blocker"] = None
            self.state["cards"][a["lead"]]["blocked"] = False

    def able_to_block(self, b, lead):
        """Every condition of a block except the ``canblock`` hook."""
        st = self.state
        bc = st["cards"][b]
        a = self.attack_of(lead)
        if a is None or a["lead"] != lead or a["blocker"] is not None:
            return False
        if bc["zone"] != "ring" or bc["ctrl"] == st["cards"][lead]["ctrl"]:
            return False
        if bc["frozen"] or bc["blocking"] is not None or self.has_ability(b, "cantblock"):
            return False
        return not self.has_ability(lead, "unblockable")

    def block_allowed(self, b, lead):
        """False if the ``canblock`` hook would refuse this block (asked without a trace through the
        rules port's ``probe_hook``); True if it allows it, or if only asking a player could tell."""
        probe = getattr(self.rules, "probe_hook", None)
        if probe is None:
            return True
        d = self.state["cards"][b]["ctrl"]
        verdicts = probe(self, "canblock", d, lead, lead, {"attacker": lead, "blocker": b})
        return verdicts is None or False not in verdicts

    def declare_block(self, b, lead):
        """Declare a block; returns False if the ``canblock`` hook refused it."""
        if not self.able_to_block(b, lead):
            raise GameError("card %s cannot block %s" % (b, lead))
        d = self.state["cards"][b]["ctrl"]
        verdicts = self.rules.ask_hook(self, "canblock", d, lead, lead,
                                       {"attacker": lead, "blocker": b})
        if False in verdicts:
            self.emit({"type": "message", "text": "block refused", "card": b, "lead": lead})
            return False
        if not self.able_to_block(b, lead):
            # the hook's rules changed the table (destroyed the attacker, froze the blocker...)
            self.emit({"type": "message", "text": "block no longer possible", "card": b, "lead": lead})
            return False
        a = self.attack_of(lead)
        a["blocker"] = b
        self.state["cards"][b]["blocking"] = lead
        self.state["cards"][lead]["blocked"] = True
        self.emit({"type": "block", "card": b, "lead": lead})
        return True

    def withdraw_block(self, b):
        lead = self.state["cards"][b]["blocking"]
        if lead is None:
            return
        a = self.attack_of(lead)
        if a is not None:
            self._unblock_attack(a)
        self.state["cards"][b]["blocking"] = None
        self.emit({"type": "unblock", "card": b, "lead": lead})

    def defense_options(self, d):
        opts = []
        for iid in self.playable_from(d):
            if self.ctype(iid) == "reaction" and self.can_play_reaction(d, iid):
                opts.append({"do": "reaction", "card": iid})
        leads = [a["lead"] for a in self.state["attacks"]]
        for b in self.ring_chars(d):
            for lead in leads:
                if self.able_to_block(b, lead) and self.block_allowed(b, lead):
                    opts.append({"do": "block", "card": b, "attack": lead})
        for b in self.ring_chars(d):
            if self.state["cards"][b]["blocking"] is not None:
                opts.append({"do": "withdraw", "card": b})
        opts.append({"do": "pass"})
        return opts

    def declare_defense(self, d):
        while self.state["attacks"]:
            opts = self.defense_options(d)
            if len(opts) == 1:
                return
            a = self.ask("choose_defense", d, opts, prompt="reactions and blocks")
            do = a["do"]
            if do == "pass":
                return
            if do == "reaction":
                self.play_reaction(d, a["card"])
            elif do == "block":
                self.declare_block(a["card"], a["attack"])
            elif do == "withdraw":
                self.withdraw_block(a["card"])

    # -------------------------------------------------------------- combat
    def pay_united_attack(self, p):
        """Counter-attack phase: pay the United Attack; if P can no longer pay, it dissolves
        (each member attacks alone if it can)."""
        ua = self.united_attack()
        if ua is None:
            return
        n = len(ua["followers"])
        kind = "ua2" if n == 1 else "ua3"
        v = self.cost_value(kind, p, None, n, True)
        pl = self.state["players"][p]
        if v < 0 and pl["sp"] < -v:
            self.emit({"type": "message", "text": "the United Attack cannot be paid; it dissolves"})
            self._dissolve(ua)
            return
        pl["sp"] += v
        self.emit({"type": "stat", "player": p, "stat": "sp", "value": pl["sp"], "cost": v})

    def _dissolve(self, a):
        st = self.state
        members = [a["lead"]] + a["followers"]
        self._unblock_attack(a)
        idx = st["attacks"].index(a)
        st["attacks"].remove(a)
        for m in members:
            self._clear_attacker(m)
            if self.able_to_attack(m, True):
                na = {"lead": m, "followers": [], "blocker": None}
                st["attacks"].insert(idx, na)
                idx += 1
                self._sync_attack_flags(na)

    def attack_total(self, a):
        cards = self.state["cards"]
        return sum([cards[m]["bp"] for m in [a["lead"]] + a["followers"]])

    def _take_combat(self, iid, dmg):
        bp = self.state["cards"][iid]["bp"]
        if dmg > 0 and bp > 0:
            self._set_bp(iid, bp - min(dmg, bp))

    def resolve_attack(self, a):
        """Combat for one attack (docs/cfc-rules.md section 7), in the End phase."""
        st = self.state
        cards = st["cards"]
        lead = a["lead"]
        if a not in st["attacks"] or cards[lead]["zone"] != "ring":
            return
        p = cards[lead]["ctrl"]
        d = 1 - p
        b = a["blocker"]
        binds = {"attacker": lead, "blocker": b, "uaBP": self.attack_total(a)}
        if b is not None:
            self.fire("blocks", cards[b]["ctrl"], b, b, binds)
            self.fire("blocked", p, lead, lead, binds)
            if a not in st["attacks"] or cards[lead]["zone"] != "ring":
                return
            b = a["blocker"]
            if b is None or cards[b]["zone"] != "ring":
                return
            b_l = cards[lead]["bp"]
            b_b = cards[b]["bp"]
            fol = [(f, cards[f]["bp"]) for f in a["followers"]]
            total = b_l + sum([x[1] for x in fol])
            self.emit({"type": "combat", "lead": lead, "blocker": b, "total": total, "blocker_bp": b_b})
            if self.rule("dmg_combat_deal", p):
                self._take_combat(b, total)
                self._take_combat(lead, b_b)
                if fol and b_b > b_l:
                    e = b_b - b_l
                    for f, fbp in fol:
                        if e <= 0:
                            break
                        self._take_combat(f, e)
                        e -= fbp
            pierce = total - b_b
            if pierce > 0 and self.rule("piercing", p):
                if (fol and not self.has_ability(b, "preventpierce")) or self.has_ability(lead, "pierce"):
                    self.combat_damage_player(d, pierce)
            self.settle()
            return
        verdicts = self.rules.ask_hook(self, "cancelcombatdamage", p, lead, lead, binds)
        total = self.attack_total(a)
        self.emit({"type": "combat", "lead": lead, "blocker": None, "total": total})
        if True not in verdicts and self.rule("dmg_combat_deal", p):
            self.combat_damage_player(d, total)
        self.settle()
        self.fire("playercombatdamaged", p, lead, lead, binds)
        self.settle()

    def resolve_combat(self, p):
        """Every attack, in the slot order of the leads."""
        cards = self.state["cards"]
        order = sorted(self.state["attacks"], key=lambda a: cards[a["lead"]]["slot"])
        for a in order:
            self.resolve_attack(a)

    def clear_combat(self):
        st = self.state
        for pl in st["players"]:
            for iid in pl["ring"]:
                if iid is not None:
                    c = st["cards"][iid]
                    c["attacking"] = False
                    c["ua"] = None
                    c["blocking"] = None
                    c["blocked"] = False
        st["attacks"] = []
