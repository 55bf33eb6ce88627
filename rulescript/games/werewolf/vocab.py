"""The werewolf vocabulary of expressions and target filters (the interface is described in
``rulescript/games/cfc/vocab.py``).

Players are ``Player(seat)`` values, any number of them; element cards (roles, attributes, teams,
groups, polls) are ``Card(iid)`` values on the one zone ``table``.  The vocabulary also decides which
listeners may run (trigger parameters: temporal, status, quantity) and counts the runs of limited
rules (``resolved``).
"""
from __future__ import absolute_import, division, print_function

from ...runtime.errors import GameError
from ...runtime.resolution import Card, Player
from .game import host_key, host_kind


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
    """The result of the last ability (WWRF @Result); in a poll's listener before any, the poll's result
    (its winner: a player, or a word option such as Yes)."""
    r = getattr(res, "ww_result", None)
    if r is None and not getattr(res, "ww_results", None):
        return _binding("winner")(res)
    return r


def _results(res):
    return list(getattr(res, "ww_results", []))


def _as_target(t):
    """A stored target: a seat is a player; a role, category, option or boolean stays a value."""
    if t is None or isinstance(t, bool) or not isinstance(t, int):
        return t
    return Player(t)


def _targeted(res):
    card = res.game.state["cards"].get(res.source)
    return _as_target(None if card is None else card.get("target"))


def _selected_value(res):
    return getattr(res.game, "_selected", None)


def _ind(res):
    return res.elements[-1] if res.elements else None


def _living(res):
    return len(res.game.living())


def _total(res):
    return len(res.game.state["players"])


def _phase(res):
    return max(0, res.game.state["pindex"])


def _dead(res):
    return len([p for p in res.game.state["players"] if not p["alive"]])


def _ghosts(res):
    g = res.game
    return len([p for p in g.state["players"] if not p["alive"] and g.has_attribute(p["idx"], "ghostly")])


def _haunting(res):
    """Whether dead players may haunt the game as ghosts: the game has the Ghostly attribute."""
    return "ghostly" in res.game.models


def _phase_name(res):
    return res.game.phase_name()


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


def _fn_attr(res, args, fail):
    """The first attribute card of that name on the player, or None."""
    p = _player_of(args[0])
    if p is None:
        return None
    name = _text(args[1])
    g = res.game
    for iid in g.state["players"][p]["attrs"]:
        if g.state["cards"][iid]["model"] == name:
            return Card(iid)
    return None


def _fn_pick(res, args, fail):
    """pick(list, n): n of the list's elements drawn by the game's generator, in the order drawn (n = 0:
    all of them, shuffled)."""
    pool = list(args[0]) if isinstance(args[0], list) else ([] if args[0] is None else [args[0]])
    n = args[1] if len(args) > 1 else 1
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise fail("RS506", "pick() needs a count of 0 or more", [("n", n)])
    n = len(pool) if n == 0 else min(n, len(pool))
    out = []
    while len(out) < n:
        out.append(pool.pop(res.game.randbelow(len(pool))))
    return out


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
def _players_where(kept, test):
    """The players of ``kept`` whose seat passes ``test(seat)``, in order."""
    out = []
    for v in kept:
        p = _player_of(v)
        if p is not None and test(p):
            out.append(v)
    return out


def _keep(test):
    def sel(res, kept, value):
        name = _text(value)
        return _players_where(kept, lambda p: test(res.game, p, name))
    return sel


def _model_is(key):
    def test(g, p, name):
        role = g.role_of(p)
        return role is not None and _text(g.models[role].get(key) or "") == name
    return test


def _list_binding(key):
    def get(res):
        ev = res.event
        v = (ev.get("bindings") or {}).get(key) if ev else None
        return [Player(p) for p in v or []]
    return get


def _pl_target(res, idx):
    iid = res.game.state["players"][idx]["role"]
    return _as_target(None if iid is None else res.game.state["cards"][iid].get("target"))


def _pl_power(res, idx):
    return res.game.power_of(idx)


def _pl_private_power(res, idx):
    return res.game.power_of(idx, "private")


def _card_source(res, iid):
    """The player whose element made the attribute (WWRF ->Source), or None."""
    cards = res.game.state["cards"]
    src = cards.get(cards[iid].get("source"))
    return None if src is None or src["owner"] < 0 else Player(src["owner"])


def _each(value, fn):
    """A property of a value, or of every element of a list (WWRF property chains on lists)."""
    if isinstance(value, list):
        return [fn(v) for v in value]
    return fn(value)


def _fn_roleinfo(res, args, fail):
    """roleInfo(role, 'prop'): a property of a role (its id, or a list of them): category, class,
    team, type (limited for a unique role, else default), name, players (the living players who
    have it)."""
    g = res.game
    prop = _text(args[1])
    if prop not in ("category", "class", "team", "type", "name", "players"):
        raise fail("RS506", "roleInfo() knows category, class, team, type, name and players", [("prop", prop)])

    def one(role):
        if role is None:
            return None
        rid = _text(role)
        m = g.models.get(rid)
        if m is None or m.get("type") != "role":
            return None
        if prop == "players":
            return [Player(p) for p in g.living() if g.role_of(p) == rid]
        if prop == "type":
            return "limited" if m.get("unique") else "default"
        return m.get(prop)
    if prop == "players" and isinstance(args[0], list):
        out = []
        for r in args[0]:
            out.extend(p for p in one(r) or [] if p not in out)
        return out
    return _each(args[0], one)


def _fn_players_of(res, args, fail):
    """playersOf(x): the living players a value stands for (WWRF ->Players, and an element name where
    players are expected): a player is itself; a role id its holders; an attribute id the players who
    have it; a group id its members; a team id the players of that team; a class or category name
    the players whose role has it; an element card (@ThisAttr) the player it lies on, a group's card
    its members; a list the players of each, once each."""
    g = res.game
    out = []

    def add(p):
        if p not in out:
            out.append(p)

    def one(v):
        if v is None:
            return
        if isinstance(v, list):
            for x in v:
                one(x)
            return
        if isinstance(v, Player):
            add(v)
            return
        if isinstance(v, Card):
            c = g.state["cards"].get(v.iid)
            if c is None:
                return
            m = g.models.get(c["model"]) or {}
            if m.get("type") in ("group", "team", "poll"):
                one(c["model"])
            elif c["owner"] >= 0:
                add(Player(c["owner"]))
            return
        key = _text(v)
        m = g.models.get(key) or {}
        kind = m.get("type")
        for p in g.living():
            if kind == "role":
                hit = g.role_of(p) == key
            elif kind == "attribute":
                hit = g.has_attribute(p, key)
            elif kind == "group":
                hit = g.is_member(p, key)
            elif kind == "team":
                hit = g.state["players"][p]["team"] == key
            else:  # a class or category name (Townsfolk, Killing)
                rm = g.models.get(g.role_of(p)) or {}
                hit = key in (_text(rm.get("class") or ""), _text(rm.get("category") or ""))
            if hit:
                add(Player(p))
    one(args[0])
    return out


def _fn_winner(res, args, fail):
    """winner(n): in a poll listener, the n-th of the poll's winners: the candidates tied with the
    most votes, in seat order (one when there was no tie); nil past them (WWRF @Winner1, @Winner2)."""
    n = args[0]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise fail("RS506", "winner() needs a number from 1", [("n", n)])
    ev = res.event
    seats = (ev.get("bindings") or {}).get("winners") if ev else None
    if not seats or n > len(seats):
        return None
    return Player(seats[n - 1])


def _fn_playerbyid(res, args, fail):
    """playerById(n): the player of number n (Player n, seat n - 1: the id a host gives, AIWolf's agent
    index), or nil (WWRF @ID:n)."""
    n = args[0]
    if isinstance(n, bool) or not isinstance(n, int):
        raise fail("RS506", "playerById() needs a number", [("n", n)])
    return Player(n - 1) if 1 <= n <= len(res.game.state["players"]) else None


def _fn_outcome(res, args, fail):
    """outcome(n, 'prop'): a property of the result of the n-th ability of the resolution (0: the
    latest, WWRF @Result): success (Success or Failure), message (the feedback its user gets), result
    (the value)."""
    n = args[0]
    prop = _text(args[1])
    outs = getattr(res, "ww_outcomes", [])
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise fail("RS506", "outcome() needs a number of 0 or more", [("n", n)])
    if prop not in ("success", "message", "result"):
        raise fail("RS506", "outcome() knows success, message and result", [("prop", prop)])
    if not outs or n > len(outs):
        return None
    return outs[n - 1 if n else -1][prop]


def _list_tests(args, default_key):
    """The tests of a list function's argument ('key=v,key!=v'): (key, value, wanted) triples; a
    test without a key tests ``default_key``."""
    tests = []
    for part in ("%s" % (args[0] if args else "",)).split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            k = k.strip().lower()
            tests.append((k.rstrip("!").strip() or default_key, _text(v), not k.endswith("!")))
    return tests


def _fn_teams(res, args, fail):
    """teams('test'): the ids of the teams in play (WWRF &All), or those that pass every test:
    'align=t', 'align!=t' (&(Align:T), &(Align:!T)), 'attr=a', 'attr!=a' (&(Attr:A): the team's element
    has the attribute A, its ``Role Attribute``)."""
    g = res.game
    tests = _list_tests(args, "align")

    def passes(t, key, v):
        if key == "attr":
            return v in (g.models.get(t, {}).get("attributes") or [])
        return t == v
    return [t for t in sorted(g.state["teams"]) if all(passes(t, k, v) == want for k, v, want in tests)]


def _fn_roles(res, args, fail):
    """roles('test'): the ids of every role of the game (WWRF ^All), or those whose category, class,
    team or type passes the tests ('category=killing', 'team!=villagers'; ^(Cat:Killing))."""
    g = res.game
    tests = _list_tests(args, "")
    out = []
    for rid in sorted(g.models):
        m = g.models[rid]
        if m.get("type") != "role":
            continue
        info = {"category": m.get("category"), "class": m.get("class"), "team": m.get("team"),
                "type": "limited" if m.get("unique") else "default"}
        if all((_text(info.get(k) or "") == v) == want for k, v, want in tests):
            out.append(rid)
    return out


def _fn_host(res, args, fail):
    """host('name'[, among]): host information (WWRF %Role%, %Player1%, %Number%, %String%,
    %PartialRoleList%, %Yes|No%; %Role:^(...)% and %Player:@(...)% give the list it comes from):
    game.host_info; a player comes back as the player."""
    name = "%s" % (args[0],)
    kind = host_kind(host_key(name))
    among = None
    if len(args) > 1:
        got = args[1] if isinstance(args[1], list) else [args[1]]
        if kind == "player":
            among = [v.idx for v in got if isinstance(v, Player)]
        else:
            among = [_text(v) for v in got if v is not None]
    try:
        value = res.game.host_info(name, among)
    except GameError as e:
        raise fail("RS506", "%s" % (e,), [("name", name)])
    return Player(value) if kind == "player" else value


def _fn_randomplayer(res, args, fail):
    """randomPlayer(list): one player of the list drawn by the game's generator, or nil (WWRF
    ->RandomPlayer as a value)."""
    pool = [v for v in (args[0] if isinstance(args[0], list) else [args[0]]) if isinstance(v, Player)]
    if not pool:
        return None
    return pool[res.game.randbelow(len(pool))]


def _pl_original(res, idx):
    return res.game.state["players"][idx].get("original_role")


def _orig_is(key):
    def test(g, p, name):
        role = g.state["players"][p].get("original_role")
        if role is None:
            return False
        if key == "role":
            return role == name
        return _text(g.models[role].get(key) or "") == name
    return test


def _sel_mine(res, kept, value):
    name = _text(value)
    cards = res.game.state["cards"]

    def mine(iid):
        src = cards.get(cards[iid]["source"])
        return cards[iid]["model"] == name and src is not None and src["owner"] == res.controller
    return _players_where(kept, lambda p: any(mine(iid) for iid in res.game.state["players"][p]["attrs"]))


def _sel_disguisedby(res, kept, value):
    """The players wearing a disguise made by one of the players ``value`` gives (WWRF AttrDisguise)."""
    makers = value if isinstance(value, list) else [value]
    seats = [m.idx for m in makers if isinstance(m, Player)]
    st = res.game.state
    made = set(e["player"] for e in st["lasting"]
               if e["type"] == "disguise" and st["cards"].get(e["source"], {}).get("owner") in seats)
    return _players_where(kept, lambda p: p in made)


def _fn_mostfreqrole(res, args, fail):
    counts = {}
    order = []
    for v in args[0] if isinstance(args[0], list) else [args[0]]:
        p = _player_of(v)
        role = None if p is None else res.game.role_of(p)
        if role is not None:
            if role not in counts:
                order.append(role)
            counts[role] = counts.get(role, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    return [r for r in order if counts[r] == top][0]


_TESTS = {
    "has": lambda g, p, name: g.has_attribute(p, name),
    "lacks": lambda g, p, name: not g.has_attribute(p, name),
    "team": lambda g, p, name: g.state["players"][p]["team"] == name,
    "group": lambda g, p, name: g.is_member(p, name),
    "role": lambda g, p, name: g.role_of(p) == name,
    "class": _model_is("class"),
    "category": _model_is("category"),
    "origrole": _orig_is("role"),
    "origclass": _orig_is("class"),
    "origcategory": _orig_is("category"),
    "origteam": _orig_is("team"),
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
            k = k.strip().lower()
            want = not k.endswith("!")
            tests.append((_TESTS[k.rstrip("!").strip()], _text(v), want))
    return _players_where(kept, lambda p: all(bool(t(res.game, p, name)) == want for t, name, want in tests))


class WerewolfVocab(object):
    """The werewolf profile's run-time vocabulary."""

    names = {
        "selection": _selection, "secondary": _secondary, "secondaryrole": _secondary_role, "selectedvalue": _selected_value, "result": _result, "results": _results,
        "subject": _binding("subject"), "deathtype": _text_binding("deathtype"), "attacker": _binding("attacker"),
        "defensetype": _text_binding("defensetype"), "visitor": _binding("visitor"),
        "visittype": _text_binding("visittype"), "visitsubtype": _text_binding("visitsubtype"),
        "actiontarget": _binding("actiontarget"), "abilitytype": _text_binding("abilitytype"),
        "abilitysubtype": _text_binding("abilitysubtype"), "winner": _binding("winner"), "executor": _binding("executor"), "chooser": _binding("chooser"),
        "actionresult": _binding("actionresult"), "actionfeedback": _text_binding("actionfeedback"),
        "attacksource": _text_binding("attacksource"),
        "voters": _list_binding("voters"), "othervoters": _list_binding("othervoters"),
        "poll": _text_binding("poll"), "vote": _binding("vote"), "joiner": _binding("joiner"),
        "oldvote": _binding("oldvote"), "newvote": _binding("newvote"),
        "visitparameter": _text_binding("visitparameter"),
        "secondvisitparameter": _text_binding("secondvisitparameter"),
        "attacklocation": _binding("attacklocation"), "election": _text_binding("election"),
        "dead": _dead, "ghosts": _ghosts, "phasename": _phase_name, "haunting": _haunting,
        "emitted": _text_binding("emitted"), "whispername": _text_binding("whispername"),
        "option": _text_binding("option"), "targeted": _targeted,
        "branch": lambda res: getattr(res, "ww_branch", None),
        "triggersource": _text_binding("triggersource"), "ind": _ind,
        "living": _living, "total": _total, "phase": _phase, "day": _day, "night": _night,
    }
    spellings = {"prevtgt": "prevTgt", "gettargets": "getTargets", "ismember": "isMember",
                 "mostfreqrole": "mostFreqRole", "roleinfo": "roleInfo",
                 "playerbyid": "playerById", "randomplayer": "randomPlayer",
                 "playersof": "playersOf"}
    card_attrs = {"name": _card_name, "type": _card_type, "controller": _card_controller,
                  "counter": _card_counter, "value1": _card_value(0), "value2": _card_value(1),
                  "value3": _card_value(2), "source": _card_source}
    player_attrs = {"name": _pl("name"), "role": _pl_role, "team": _pl("team"), "alive": _pl("alive"),
                    "counter": _pl("counter"), "seat": _pl_seat, "class": _pl_model("class"),
                    "category": _pl_model("category"), "target": _pl_target, "votingpower": _pl_power,
                    "originalrole": _pl_original, "privatevotingpower": _pl_private_power}
    functions = {"has": _fn_has, "attr": _fn_attr, "pick": _fn_pick, "ismember": _fn_ismember, "ceil": _rounding("ceil"),
                 "floor": _rounding("floor"), "mostfreqrole": _fn_mostfreqrole, "roleinfo": _fn_roleinfo,
                 "winner": _fn_winner, "playerbyid": _fn_playerbyid, "outcome": _fn_outcome, "teams": _fn_teams,
                 "roles": _fn_roles, "host": _fn_host, "randomplayer": _fn_randomplayer,
                 "playersof": _fn_players_of}
    element_types = {}
    constants = ()
    result_names = ()
    filter_words = {"alive": _alive(True), "dead": _alive(False), "ghostly": _ghostly, "unique": _unique}
    stats = {"counter": _stat_counter, "seat": _stat_seat}
    prefix_decisions = {}
    selectors = {
        "has": _keep(_TESTS["has"]), "lacks": _keep(_TESTS["lacks"]), "team": _keep(_TESTS["team"]),
        "group": _keep(_TESTS["group"]), "role": _keep(_TESTS["role"]), "keep": _sel_keep, "where": _sel_where,
        "class": _keep(_TESTS["class"]), "category": _keep(_TESTS["category"]),
        "origrole": _keep(_TESTS["origrole"]), "origclass": _keep(_TESTS["origclass"]),
        "origcategory": _keep(_TESTS["origcategory"]), "origteam": _keep(_TESTS["origteam"]), "mine": _sel_mine,
        "disguisedby": _sel_disguisedby,
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
        if "quantity" in (rule.get("keys") or {}) or "quantityof" in (rule.get("keys") or {}):
            game.count_use(iid, rule["id"])


VOCAB = WerewolfVocab()
