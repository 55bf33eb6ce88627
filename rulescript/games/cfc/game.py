"""The CFC game object: state, ports, decisions, queries and lasting effects.

:class:`CfcGame` combines the operations (ops), card play and costs (play), attacks and
combat (combat) and the turn flow (flow). Its whole state is ``game.state`` (plain data);
the card database ``game.models`` (id -> card dict) is static and not part of the state.
"""
from __future__ import absolute_import, division, print_function

from . import lasting
from ...runtime import rng as _rng
from .combat import CombatMixin
from .data import (CARD_ABILITIES, COST_KINDS, PLAYER_ABILITIES, RULE_DEFAULTS, new_card,
                       new_state)
from .flow import FlowMixin
from .ops import OpsMixin
from .play import PlayMixin
from ...runtime.errors import GameError, GameOver
from ...runtime.plain import deep_copy
from ...runtime.ports import GamePorts, NoRules, NullSink


class CfcGame(GamePorts, OpsMixin, PlayMixin, CombatMixin, FlowMixin):
    """One game of Card Fighters' Clash.

    ``models``: card id -> card data dict. ``decks``: two lists of card ids (deck order before the
    shuffle). ``decider``/``sink``/``rules``: the ports. ``first``: 0, 1 or None (drawn at random).
    Pass ``state`` to continue from a saved state instead of starting a new game.
    """

    def __init__(self, models, decks=None, decider=None, sink=None, rules=None, seed=0,
                 first=None, turn_limit=200, state=None):
        self.models = models
        self.decider = decider
        self.sink = sink if sink is not None else NullSink()
        self.rules = rules if rules is not None else NoRules()
        if state is not None:
            self.state = state
        else:
            self.state = new_state(seed, _rng.seed_state(seed), turn_limit)
            self.state["first"] = first
            if decks is not None:
                for p in (0, 1):
                    for mid in decks[p]:
                        self.create_card(mid, p, "deck")

    # ------------------------------------------------------------------ ports
    def check_request(self, kind, options, mn, mx, prompt):
        if kind == "choose_targets" and (mn > len(options) or mn > mx or mn < 0):
            raise GameError("cannot choose %s..%s of %d options (%s)" % (mn, mx, len(options), prompt))

    def view(self, p):
        """The state as player ``p`` may see it: a copy without the opponent's hand, the decks'
        order or the generator (hidden piles become counts)."""
        st = self.state
        players = []
        for pl in st["players"]:
            v = deep_copy(pl)
            v["deck"] = len(pl["deck"])
            if pl["idx"] != p:
                v["hand"] = len(pl["hand"])
            players.append(v)
        hidden = set(st["players"][0]["deck"]) | set(st["players"][1]["deck"])
        hidden |= set(st["players"][1 - p]["hand"])
        cards = {}
        for iid, c in st["cards"].items():
            if iid not in hidden:
                cards[iid] = deep_copy(c)
        return {"turn": st["turn"], "active": st["active"], "phase": st["phase"], "me": p,
                "players": players, "cards": cards, "attacks": deep_copy(st["attacks"]),
                "lasting": deep_copy(st["lasting"]), "over": st["over"], "winner": st["winner"]}

    # ------------------------------------------------------------------ randomness
    def coin(self):
        return _rng.coin(self.state["rng"])

    # ------------------------------------------------------------------ queries
    def card(self, iid):
        return self.state["cards"][iid]

    def model(self, iid):
        return self.models[self.state["cards"][iid]["model"]]

    def ctype(self, iid):
        return self.models[self.state["cards"][iid]["model"]]["type"]

    def is_char(self, iid):
        return self.ctype(iid) == "character"

    def ring_chars(self, p):
        return [i for i in self.state["players"][p]["ring"] if i is not None]

    def free_slots(self, p):
        ring = self.state["players"][p]["ring"]
        return [s for s in range(len(ring)) if ring[s] is None]

    def infront(self, iid):
        """The card facing ``iid`` in the other ring, or None."""
        c = self.state["cards"][iid]
        if c["zone"] != "ring":
            return None
        return self.state["players"][1 - c["ctrl"]]["ring"][3 - c["slot"]]

    def rule(self, name, player):
        """Effective value of a game rule for ``player`` (docs/cfc-rules.md section 11)."""
        return lasting.rule_value(self.state, name, player, RULE_DEFAULTS)

    def has_ability(self, iid, ability):
        """True if card ``iid`` holds ``ability`` (a grant active, no mask)."""
        return lasting.has_ability(self.state, ability, card=iid)

    def player_has_ability(self, p, ability):
        return lasting.has_ability(self.state, ability, player=p)

    # ------------------------------------------------------------------ cards
    def create_card(self, model_id, owner, zone, pos=None):
        """Create a card instance of ``model_id`` in one of ``owner``'s piles; return its iid."""
        if model_id not in self.models:
            raise GameError("unknown card id %r" % (model_id,))
        st = self.state
        st["next_iid"] += 1
        iid = st["next_iid"]
        c = new_card(iid, model_id, owner, zone)
        c["ability"] = self._printed_ability(model_id)
        st["cards"][iid] = c
        pile = st["players"][owner][zone]
        if pos is None:
            pile.append(iid)
        else:
            pile.insert(pos, iid)
        return iid

    def _printed_ability(self, model_id):
        ab = self.models[model_id].get("ability")
        if not ab:
            return None
        return {"kind": ab.get("kind"), "name": ab.get("name")}

    # ------------------------------------------------------------------ lasting effects
    def add_rule_entry(self, rule, source, scope, value, until=None):
        """enableRule/disableRule/modRule: add (or replace) a game-rule entry; return it."""
        if rule not in RULE_DEFAULTS:
            raise GameError("unknown game rule %r" % (rule,))
        e = lasting.set_rule(self.state, rule, source, scope, value, until)
        self.emit({"type": "rule", "rule": rule, "scope": scope, "value": value, "source": source})
        return e

    def add_grant(self, ability, source, card=None, player=None, until=None, mask=False):
        """+ability (or -ability with ``mask``) on a card or a player; return the entry."""
        if ability not in CARD_ABILITIES and ability not in PLAYER_ABILITIES:
            raise GameError("unknown ability %r" % (ability,))
        if (card is None) == (player is None):
            raise GameError("an ability goes to exactly one card or one player")
        e = lasting.add_entry(self.state, {
            "type": "mask" if mask else "grant", "ability": ability, "card": card,
            "player": player, "source": source, "until": until})
        self.emit({"type": "ability", "ability": ability, "card": card, "player": player,
                   "mask": bool(mask)})
        if not mask and card is not None:
            self._on_granted(card, ability)
        return e

    def _on_granted(self, iid, ability):
        c = self.state["cards"][iid]
        if not self.has_ability(iid, ability):
            return
        if ability == "rush" and c["fresh"]:
            c["fresh"] = False
            self.emit({"type": "marker", "card": iid, "marker": "fresh", "value": False})
        elif ability == "cantattack" and c["attacking"]:
            self.remove_from_attack([iid])
        elif ability == "cantblock" and c["blocking"] is not None:
            self.withdraw_block(iid)

    def withdraw_grant(self, ability, source, card=None, player=None, mask=False):
        """Withdraw mode (docs/language.md section 7.4): end this source's grant (or mask) of the ability."""
        t = "mask" if mask else "grant"
        ids = [e["id"] for e in self.state["lasting"]
               if e["type"] == t and e["ability"] == ability and e["source"] == source
               and e["card"] == card and e["player"] == player]
        self.end_lasting(ids)
        if mask and card is not None:
            self._on_granted(card, ability)

    def add_cost_mod(self, kind, op, value, source, until=None):
        """alterCost: ``op`` '=' sets the base to ``value``; '+' adds ``value`` to M."""
        if op not in ("=", "+"):
            raise GameError("alterCost op must be '=' or '+', got %r" % (op,))
        if kind not in COST_KINDS:
            raise GameError("unknown cost kind %r" % (kind,))
        return lasting.add_entry(self.state, {"type": "cost", "cost": kind, "op": op,
                                              "value": value, "source": source, "until": until})

    def end_lasting(self, ids):
        """End lasting effects by id; their undo runs at once."""
        if not ids:
            return []
        gone = lasting.remove_ids(self.state, ids)
        for e in gone:
            self.emit({"type": "lasting_end", "entry": e["id"], "what": e["type"]})
            if e["type"] == "mask" and e["card"] is not None and self.state["cards"][e["card"]]["zone"] == "ring":
                self._on_granted(e["card"], e["ability"])
        return gone

    def end_effects_of(self, source):
        """End the unrestricted lasting effects whose source is ``source`` (it left play)."""
        return self.end_lasting(lasting.of_source(self.state, source))

    def expire(self, whens, player):
        return self.end_lasting(lasting.expiring(self.state, whens, player))

    # ------------------------------------------------------------------ ending the game
    def check_over(self):
        """Raise GameOver if a player is at 0 HP (both: a draw)."""
        st = self.state
        if st["over"]:
            raise GameOver(st["winner"], st["reason"])
        p0 = st["players"][0]["hp"] <= 0
        p1 = st["players"][1]["hp"] <= 0
        if p0 and p1:
            self.end_game(None, "both players at 0 HP")
        elif p0:
            self.end_game(1, "player 0 at 0 HP")
        elif p1:
            self.end_game(0, "player 1 at 0 HP")

    def end_game(self, winner, reason):
        st = self.state
        if not st["over"]:
            st["over"] = True
            st["winner"] = winner
            st["result"] = "draw" if winner is None else "win"
            st["reason"] = reason
            self.emit({"type": "gameover", "winner": winner, "reason": reason})
        raise GameOver(st["winner"], st["reason"])

    def concede(self, player):
        """``player`` gives up: the other player wins (raises GameOver like every end of the game)."""
        self.end_game(1 - player, "player %d conceded" % player)

    def settle(self):
        """End of a command or damage step: KO characters at 0 BP, then check for a loss."""
        st = self.state
        order = (st["active"], 1 - st["active"])
        while True:
            dead = []
            for p in order:
                for iid in st["players"][p]["ring"]:
                    if iid is not None and st["cards"][iid]["bp"] <= 0:
                        dead.append(iid)
            if not dead:
                break
            for iid in dead:
                if st["cards"][iid]["zone"] == "ring" and st["cards"][iid]["bp"] <= 0:
                    self.ko(iid)
        self.check_over()
