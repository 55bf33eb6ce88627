"""The werewolf vocabulary of expressions and target filters (the interface is described in
``rulescript/games/cfc/vocab.py``).

Players are ``Player(seat)`` values, any number of them; element cards (roles, attributes, teams,
groups, polls) are ``Card(iid)`` values on the one zone ``table``.  The vocabulary also decides which
listeners may run (trigger parameters: temporal, status, quantity) and counts the runs of limited
rules (``resolved``).
"""
from __future__ import absolute_import, division, print_function

from ...runtime.resolution import Card, Player


def _game(res):
    return res.game


def _player_of(value):
    return value.idx if isinstance(value, Player) else None


def _text(value):
    return ("%s" % (value,)).strip().lower().replace(" ", "-").replace("_", "-")


# ---------------------------------------------------------------------------- names
def _selection(res):
    for v in res.tgt or []:
        if isinstance(v, Player):
            return v
    return _binding("selection")(res)


def _secondary(res):
    ps = [v for v in res.tgt or [] if isinstance(v, Player)]
    return ps[1] if len(ps) >= 2 else None


def _secondary_role(res):
    return getattr(res.game, "_secondary", None)


def _binding(key):
    def get(res):
        ev = res.event
        if not ev:
            return None
        v = (ev.get("bindings") or {}).get(key)
        if v is None:
            return None
        return Player(v) if isinstance(v, int) and not isinstance(v, bool) else v
    return get


def _text_binding(key):
    def get(res):
        ev = res.event
        v = (ev.get("bindings") or {}).get(key) if ev else None
        return None if v is None else "%s" % (v,)
    return get


def _result(res):
    return getattr(res, "ww_result", None)


def _results(res):
    return list(getattr(res, "ww_results", []))


def _targeted(res):
    card = res.game.state["cards"].get(res.source)
    t = None if card is None else card.get("target")
    return None if t is None else Player(t)


def _ind(res):
    return res.elements[-1] if res.elements else None


def _living(res):
    return len(res.game.living())


def _total(res):
    return len(res.game.state["players"])


def _phase(res):
    return max(0, res.game.state["pindex"])


def _day(res):
    return max(0, res.game.state["day"])


def _night(res):
    return res.game.state["night"]


# ---------------------------------------------------------------------------- attributes
def _card_name(res, iid):
    return res.game.model(iid).get("name")


def _card_type(res, iid):
    return res.game.model(iid).get("type")


def _card_controller(res, iid):
    return Player(res.game.state["cards"][iid]["ctrl"])


def _card_counter(res, iid):
    return res.game.state["cards"][iid]["counter"]


def _card_value(k):
    def get(res, iid):
        return res.game.state["cards"][iid]["values"][k]
    return get


def _pl_model(key):
    def get(res, idx):
        role = res.game.role_of(idx)
        return None if role is None else res.game.models[role].get(key)
    return get


def _pl(key):
    def get(res, idx):
        return res.game.state["players"][idx][key]
    return get


def _pl_role(res, idx):
    return res.game.role_of(idx)


def _pl_seat(res, idx):
    return idx


# ---------------------------------------------------------------------------- functions
def _fn_has(res, args, fail):
    p = _player_of(args[0])
    if p is None:
        return False
    return res.game.has_attribute(p, _text(args[1]))


def _fn_ismember(res, args, fail):
    p = _player_of(args[0])
    return p is not None and res.game.is_member(p, _text(args[1]))


def _rounding(how):
    def fn(res, args, fail):
        x = args[0]
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise fail("RS506", "%s() needs a number" % how, [("x", x)])
        i = int(x)
        if how == "ceil":
            return i + 1 if x > i else i
        return i - 1 if x < i else i
    return fn


# ---------------------------------------------------------------------------- filter words
def _alive(want):
    def word(res, value):
        p = _player_of(value)
        return p is not None and bool(res.game.state["players"][p]["alive"]) == want
    return word


def _ghostly(res, value):
    p = _player_of(value)
    return p is not None and not res.game.state["players"][p]["alive"] and \
        res.game.has_attribute(p, "ghostly")


def _unique(res, value):
    if not isinstance(value, Card):
        return False
    return bool(res.game.model(value.iid).get("unique"))


def _stat_counter(res, value):
    p = _player_of(value)
    return None if p is None else res.game.state["players"][p]["counter"]


def _stat_seat(res, value):
    return _player_of(value)


# ---------------------------------------------------------------------------- selectors
def _keep(test):
    def sel(res, kept, value):
        name = _text(value)
        out = []
        for v in kept:
            p = _player_of(v)
            if p is not None and test(res.game, p, name):
                out.append(v)
        return out
    return sel


_TESTS = {
    "has": lambda g, p, name: g.has_attribute(p, name),
    "lacks": lambda g, p, name: not g.has_attribute(p, name),
    "team": lambda g, p, name: g.state["players"][p]["team"] == name,
    "group": lambda g, p, name: g.is_member(p, name),
    "role": lambda g, p, name: g.role_of(p) == name,
}


def _sel_keep(res, kept, value):
    if value is None:
        return []
    wanted = value if isinstance(value, list) else [value]
    return [v for v in kept if v in wanted]


def _sel_where(res, kept, value):
    tests = []
    for part in ("%s" % (value,)).split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            tests.append((_TESTS[k.strip().lower()], _text(v)))
    out = []
    for v in kept:
        p = _player_of(v)
        if p is not None and all(t(res.game, p, name) for t, name in tests):
            out.append(v)
    return out


class WerewolfVocab(object):
    """The werewolf profile's run-time vocabulary."""

    names = {
        "selection": _selection, "secondary": _secondary, "secondaryrole": _secondary_role, "result": _result, "results": _results,
        "subject": _binding("subject"), "deathtype": _text_binding("deathtype"), "attacker": _binding("attacker"),
        "defensetype": _text_binding("defensetype"), "visitor": _binding("visitor"),
        "visittype": _text_binding("visittype"), "visitsubtype": _text_binding("visitsubtype"),
        "actiontarget": _binding("actiontarget"), "abilitytype": _text_binding("abilitytype"),
        "abilitysubtype": _text_binding("abilitysubtype"), "winner": _binding("winner"), "executor": _binding("executor"),
        "poll": _text_binding("poll"), "vote": _binding("vote"), "joiner": _binding("joiner"),
        "emitted": _text_binding("emitted"), "whispername": _text_binding("whispername"),
        "option": _text_binding("option"), "targeted": _targeted, "ind": _ind,
        "living": _living, "total": _total, "phase": _phase, "day": _day, "night": _night,
    }
    spellings = {"prevtgt": "prevTgt", "gettargets": "getTargets", "ismember": "isMember"}
    card_attrs = {"name": _card_name, "type": _card_type, "controller": _card_controller,
                  "counter": _card_counter, "value1": _card_value(0), "value2": _card_value(1),
                  "value3": _card_value(2)}
    player_attrs = {"name": _pl("name"), "role": _pl_role, "team": _pl("team"), "alive": _pl("alive"),
                    "counter": _pl("counter"), "seat": _pl_seat, "class": _pl_model("class"),
                    "category": _pl_model("category")}
    functions = {"has": _fn_has, "ismember": _fn_ismember, "ceil": _rounding("ceil"),
                 "floor": _rounding("floor")}
    element_types = {}
    constants = ()
    result_names = ()
    filter_words = {"alive": _alive(True), "dead": _alive(False), "ghostly": _ghostly, "unique": _unique}
    stats = {"counter": _stat_counter, "seat": _stat_seat}
    prefix_decisions = {}
    selectors = {
        "has": _keep(_TESTS["has"]), "lacks": _keep(_TESTS["lacks"]), "team": _keep(_TESTS["team"]),
        "group": _keep(_TESTS["group"]), "role": _keep(_TESTS["role"]), "keep": _sel_keep, "where": _sel_where,
    }

    def player_indices(self, res):
        """Every seat, the owner's first, then the others in seat order from the owner's left."""
        n = len(res.game.state["players"])
        me = res.controller if 0 <= res.controller < n else 0
        return [(me + k) % n for k in range(n)]

    def player_name(self, res, idx):
        return res.game.state["players"][idx]["name"]

    def ctype(self, res, iid):
        return res.game.model(iid).get("type")

    def has_subtype(self, res, iid, subtype):
        return False

    def card_name(self, res, iid):
        return _card_name(res, iid)

    def zone_has_owner(self, zone):
        return False

    def zone(self, res, zone, player):
        if zone == "table":
            return list(res.game.state["table"])
        raise ValueError("unknown zone %r" % (zone,))

    # -- what the engine asks of a game ------------------------------------------------------------
    def card_is_type(self, game, iid, want):
        card = game.state["cards"].get(iid)
        return card is not None and game.model(iid).get("type") == want

    def listener_suppressed(self, game, iid, rule=None, event=None):
        """A listener runs only when its rule's trigger parameters allow it (game.rule_allowed)."""
        return not game.rule_allowed(iid, rule, event)

    def grant_printed_ability(self, game, iid, ability):
        return None

    def repeats(self, game, iid, rule):
        """Scaling: how many times a listener runs (game.repeats)."""
        return game.repeats(iid, rule)

    def resolved(self, game, iid, rule, result):
        """Counts the runs of rules with a ``quantity`` limit (a run whose guard failed is no use) and
        remembers which rules really resolved (``game.completed``, for coverage)."""
        if rule is None or not result:
            return
        game.completed.add(rule["id"])
        if "quantity" in (rule.get("keys") or {}):
            game.count_use(iid, rule["id"])


VOCAB = WerewolfVocab()
