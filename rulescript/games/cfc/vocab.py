"""The CFC vocabulary of expressions and target filters (docs/language.md sections 4 and 8).

The expression evaluator (``expr.py``) and the filter resolver (``targets.py``) are game-agnostic:
everything they need to know about Card Fighters' Clash comes from one object reached as
``res.engine.vocab``.  The engine sets it once::

    from .vocab import CfcVocab
    engine.vocab = CfcVocab()

Interface of a vocabulary object (any game profile provides the same attributes):

``names``            context name -> ``fn(res)``: attacker, blocker, uabp, alone, soloattack, opplostsp
``spellings``        lower-case name -> written spelling, for messages (``prevtgt`` -> ``prevTgt``)
``card_attrs``       attribute -> ``fn(res, iid)`` (bp, lastbp, sp, ability, name, type, subtype, controller)
``player_attrs``     attribute -> ``fn(res, idx)`` (hp, sp, hand, deck, discards, removed, ring,
                     ncdamaged, lostsp)
``functions``        function -> ``fn(res, args, fail)`` (ischar, inuattack, flipcoin); ``fail(code,
                     message, values)`` builds the RuleError to raise
``element_types``    element name -> card type (``char`` -> ``character``, ``action``, ``reaction``)
``constants``        names that evaluate to their own name (the ability kinds instant, triggered, auto)
``result_names``     the result lists a resolution keeps (``res.results``), filled by commands
``player_indices(res)`` (optional) the seats a player filter takes its candidates from, controller
                     first (default: the controller and the one opponent)
``filter_words``     filter-block word -> ``fn(res, value)`` -> bool (value: Card or Player)
``stats``            stat -> ``fn(res, value)`` -> number, or None when the object has no such stat
``prefix_decisions`` zone prefix -> decision kind letting the controller pick the side
``ctype(res, iid)``, ``has_subtype(res, iid, subtype)``, ``card_name(res, iid)``
``zone(res, zone, player)``  iids of a zone in zone order (``player`` is None for a zone without owner)
``zone_has_owner(zone)``     False for zones that take no prefix (arena, infront)
``selectors`` (optional)     selector -> ``fn(res, candidates, value)`` for selectors besides ``not``

A stat a card does not have (an Action card's ``bp``, a card without ``sp``) reads as ``nil``, and
every ordering comparison with ``nil`` is false, so expressions agree with the target filters
(where ``bp<=300`` is simply false for a non-character).  A vocabulary may still raise
``expr.Lacks(description)`` for an attribute that makes no sense on an object (reported as RS503).  ``powerful``/``powerless`` read the card's current rules id
(``card["rules"]``); if the engine has a method ``has_rules(rules_id)`` it decides whether that id
really has a RuleScript section (otherwise any rules id counts as having rules).
"""
from __future__ import absolute_import, division, print_function

from .data import CARD_ABILITIES
from ...runtime.expr import Lacks
from ...runtime.resolution import Card, Player

ABILITY_KINDS = {"instant": "instant", "trigger": "triggered", "triggered": "triggered", "auto": "auto"}


# ---------------------------------------------------------------------------- helpers
def _model(res, iid):
    game = res.game
    return game.models[game.state["cards"][iid]["model"]]


def _is_char(res, iid):
    return _model(res, iid).get("type") == "character"


def _card_of(value):
    """The iid of a Card value, else None."""
    if isinstance(value, Card):
        return value.iid
    return None


# ---------------------------------------------------------------------------- context names
def _binding(key):
    def get(res):
        ev = res.event
        if not ev:
            return None
        b = ev.get("bindings") or {}
        v = b.get(key)
        if v is None:
            return None
        if key == "uaBP":
            return v
        return Card(v)
    return get


def _alone(res):
    return len(res.game.ring_chars(res.controller)) == 1


def _solo_attack(res):
    return len(res.game.attackers()) == 1


def _opp_lost_sp(res):
    return bool(res.game.opp_lost_sp(res.controller))


# ---------------------------------------------------------------------------- card attributes
def _lacks(res, iid):
    t = _model(res, iid).get("type") or "card"
    return Lacks(("an " if t[:1] in "aeiou" else "a ") + t + " card")


def _card_bp(res, iid):
    """Current BP in a ring, else printed BP; nil for a card without BP (an Action card)."""
    c = res.game.state["cards"][iid]
    if c["zone"] == "ring":
        return c["bp"]
    return _model(res, iid).get("bp")


def _card_lastbp(res, iid):
    return res.game.state["cards"][iid]["lastBP"]


def _card_sp(res, iid):
    """Printed SP; nil for a card without SP."""
    return _model(res, iid).get("sp")


def _card_ability(res, iid):
    ab = res.game.state["cards"][iid].get("ability")
    if not ab:
        return None
    return ABILITY_KINDS.get(ab.get("kind"))


def _card_name(res, iid):
    return _model(res, iid).get("name")


def _card_type(res, iid):
    return _model(res, iid).get("type")


def _card_subtype(res, iid):
    return _model(res, iid).get("subtype") or ""


def _card_controller(res, iid):
    return Player(res.game.state["cards"][iid]["ctrl"])


# ---------------------------------------------------------------------------- player attributes
def _pl(key):
    def get(res, idx):
        return res.game.state["players"][idx][key]
    return get


def _pile(key):
    def get(res, idx):
        return [Card(i) for i in res.game.state["players"][idx][key]]
    return get


def _ring(res, idx):
    return [Card(i) for i in res.game.ring_chars(idx)]


def _ncdamaged(res, idx):
    return bool(res.game.state["players"][idx]["ncDamaged"])


# ---------------------------------------------------------------------------- functions
def _fn_ischar(res, args, fail):
    iid = _card_of(args[0])
    return iid is not None and _is_char(res, iid)


def _fn_inuattack(res, args, fail):
    iid = _card_of(args[0])
    if iid is None:
        return False
    return res.game.state["cards"][iid]["ua"] is not None


def _fn_flipcoin(res, args, fail):
    return bool(res.game.flip_coin(res.controller, res.source))


# ---------------------------------------------------------------------------- filter words
def _char_flag(test):
    def word(res, value):
        iid = _card_of(value)
        if iid is None or not _is_char(res, iid):
            return False
        return test(res.game.state["cards"][iid])
    return word


def _powered(want):
    def word(res, value):
        iid = _card_of(value)
        if iid is None:
            return False
        rid = res.game.state["cards"][iid]["rules"]
        has = rid is not None
        if has:
            check = getattr(res.engine, "has_rules", None)
            if check is not None:
                has = bool(check(rid))
        return has == want
    return word


def _ab_kind(kind):
    def test(c):
        ab = c.get("ability")
        return bool(ab) and ABILITY_KINDS.get(ab.get("kind")) == kind
    return test


# ---------------------------------------------------------------------------- stats
def _stat_bp(res, value):
    iid = _card_of(value)
    if iid is None or not _is_char(res, iid):
        return None
    c = res.game.state["cards"][iid]
    if c["zone"] == "ring":
        return c["bp"]
    return _model(res, iid).get("bp")


def _stat_sp(res, value):
    if isinstance(value, Player):
        return res.game.state["players"][value.idx]["sp"]
    iid = _card_of(value)
    if iid is None:
        return None
    return _model(res, iid).get("sp")


def _stat_hp(res, value):
    if isinstance(value, Player):
        return res.game.state["players"][value.idx]["hp"]
    return None


class CfcVocab(object):
    """The CFC profile's run-time vocabulary (see the module docstring for the interface)."""

    names = {
        "attacker": _binding("attacker"),
        "blocker": _binding("blocker"),
        "uabp": _binding("uaBP"),
        "alone": _alone,
        "soloattack": _solo_attack,
        "opplostsp": _opp_lost_sp,
    }
    spellings = {"uabp": "uaBP", "soloattack": "soloAttack", "opplostsp": "oppLostSP",
                 "lastbp": "lastBP", "ncdamaged": "ncDamaged", "lostsp": "lostSP",
                 "ischar": "isChar", "inuattack": "inUAttack", "flipcoin": "flipCoin"}
    card_attrs = {
        "bp": _card_bp, "lastbp": _card_lastbp, "sp": _card_sp, "ability": _card_ability,
        "name": _card_name, "type": _card_type, "subtype": _card_subtype,
        "controller": _card_controller,
    }
    player_attrs = {
        "hp": _pl("hp"), "sp": _pl("sp"), "lostsp": _pl("lostSP"), "ncdamaged": _ncdamaged,
        "hand": _pile("hand"), "deck": _pile("deck"), "discards": _pile("discards"),
        "removed": _pile("removed"), "ring": _ring,
    }
    functions = {"ischar": _fn_ischar, "inuattack": _fn_inuattack, "flipcoin": _fn_flipcoin}
    element_types = {"char": "character", "action": "action", "reaction": "reaction"}
    constants = ("instant", "triggered", "auto")  # names that evaluate to themselves (ability kinds)
    result_names = ("discarded", "trashed", "destroyed", "moved", "sacrificed")  # lists commands fill
    filter_words = {
        "frozen": _char_flag(lambda c: bool(c["frozen"])),
        "fresh": _char_flag(lambda c: bool(c["fresh"])),
        "attack": _char_flag(lambda c: bool(c["attacking"]) and c["ua"] != "follower"),
        "uattack": _char_flag(lambda c: c["ua"] is not None),
        "block": _char_flag(lambda c: c["blocking"] is not None),
        "blocked": _char_flag(lambda c: bool(c["attacking"]) and c["ua"] != "follower"
                              and bool(c["blocked"])),
        "backedup": _char_flag(lambda c: len(c["backups"]) > 0),
        "powerful": _powered(True),
        "powerless": _powered(False),
        "abinstant": _char_flag(_ab_kind("instant")),
        "abtrigger": _char_flag(_ab_kind("triggered")),
        "abauto": _char_flag(_ab_kind("auto")),
    }
    stats = {"bp": _stat_bp, "sp": _stat_sp, "hp": _stat_hp}
    prefix_decisions = {"any": "choose_player", "same": "choose_ring"}
    _owned = ("ring", "hand", "deck", "discards", "removed")

    def ctype(self, res, iid):
        return _model(res, iid).get("type")

    def has_subtype(self, res, iid, subtype):
        m = _model(res, iid)
        return m.get("type") == "character" and (m.get("subtype") or "").lower() == subtype

    def card_name(self, res, iid):
        return _card_name(res, iid)

    def zone_has_owner(self, zone):
        return zone in self._owned

    def zone(self, res, zone, player):
        """The iids of a zone, in zone order (docs/language.md section 4.4)."""
        game = res.game
        if zone == "arena":
            me = res.controller
            return game.ring_chars(me) + game.ring_chars(1 - me)
        if zone == "infront":
            src = res.source
            if src is None or src not in game.state["cards"]:
                return []
            i = game.infront(src)
            return [] if i is None else [i]
        if zone == "ring":
            return game.ring_chars(player)
        if zone in ("hand", "deck", "discards", "removed"):
            return list(game.state["players"][player][zone])
        raise ValueError("unknown zone %r" % (zone,))

    # -- what the engine asks of a game (engine.py) -------------------------------------------
    def card_is_type(self, game, iid, want):
        """Event suffixes :char, :action, :reaction: is card ``iid`` of that type?"""
        want = self.element_types.get(want, want)
        card = game.state["cards"].get(iid)
        return card is not None and game.models[card["model"]].get("type") == want

    def listener_suppressed(self, game, iid, rule=None, event=None):
        """A member of a United Attack does not run its auto listeners until the turn ends (docs/language.md 7.5)."""
        card = game.state["cards"].get(iid)
        return bool(card and card.get("ua_member"))

    def grant_printed_ability(self, game, iid, ability):
        """The ``abilities`` property: the card holds the ability while it is in play with these
        rules.  A player ability on a card has no effect (docs/language.md 7.7)."""
        if ability in CARD_ABILITIES:
            game.add_grant(ability, iid, card=iid)


VOCAB = CfcVocab()
