"""The CFC profile's commands, ability effects and costs (docs/language.md sections 5.3, 5.8,
5.9, 6, 7.4 and 7.7).

The engine calls five functions:

* ``run_command(res, eff, S, restr)`` runs one command effect and returns False when the effect
  failed (docs/language.md 5.6: only ``discard`` and ``moveRevealedTo`` fail on their own);
* ``run_ability(res, eff, S, restr, withdraw)`` runs a ``+ability`` / ``-ability`` effect, or
  withdraws this source's earlier grant or mask (section 7.4);
* ``cost_can_pay``, ``cost_choose`` and ``cost_pay`` check, choose and pay one cost (section 5.3);
  the costs of an action are planned together: each takes only cards the earlier costs did not
  reserve or plan (``{D}{D}`` needs two different cards; docs/runtime.md, "Costs are planned together").

``S`` is the statement targets: a list of Card/Player values, or None when unset.  ``restr`` is
the restriction word of the statement or None.  Every change goes through the game's operations
(ops, combat, game), which raise the events and settle the game after each command.
"""
from __future__ import absolute_import, division, print_function

from . import lasting
from .data import PILES, PLAYER_ABILITIES
from ...runtime.expr import node_size
from ...runtime.resolution import Card, NoTargets, Player

PILE_ZONES = ("hand", "deck", "discards", "removed")


# ---------------------------------------------------------------------------- engine services
# Thin wrappers: if the engine renames a service, only these lines change.

def _evaluate(res, root):
    return res.engine.evaluate(res, root)


def _number(res, root, what):
    return res.engine.number(res, root, what)


def _resolve(res, filters, purpose, exclude=None):
    if exclude:
        return res.engine.resolve(res, filters, purpose, exclude=exclude)
    return res.engine.resolve(res, filters, purpose)


def _run_chain(res, chain, S):
    return res.engine.run_chain(res, chain, S)


def _charge(res, steps):
    """Spend evaluation steps of the resolution's budget (docs/runtime.md, "Limits")."""
    charge = getattr(res.engine, "charge", None)
    if charge is not None:
        charge(res, steps)


def _activate(res, iid):
    return res.engine.activate(res, iid)


def _has_rules(res, rules_id):
    """True if the card id ``rules_id`` has a rule section (asked of the engine when it can tell:
    a ``has_rules(id)`` method, else its ``rules`` dict of rule id -> IR)."""
    if rules_id is None:
        return False
    check = getattr(res.engine, "has_rules", None)
    if check is not None:
        return bool(check(rules_id))
    rules = getattr(res.engine, "rules", None)
    if isinstance(rules, dict):
        return str(rules_id).lower() in rules
    return True


# ---------------------------------------------------------------------------- small helpers

def _fail(res, code, message, eff=None, values=None):
    at = None
    text = None
    if eff is not None:
        at = eff.get("at")
        text = eff.get("cmd") or eff.get("ability")
    return res.fail(code, message, at, text, values)


def _cards(S):
    if not S:
        return []
    return [x.iid for x in S if isinstance(x, Card)]


def _players(S):
    if not S:
        return []
    return [x.idx for x in S if isinstance(x, Player)]


def card_targets(res, S):
    """Card-default commands: [this] when S is unset; the cards of S otherwise."""
    if S is None:
        return [res.source]
    return _cards(S)


def player_targets(res, S):
    """Player-default commands: the players of S, or the controller when S holds none."""
    ps = _players(S)
    if ps:
        return ps
    return [res.controller]


def _uniq(items):
    out = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


def _arg(eff, i, default=None):
    args = eff.get("args") or []
    if i < len(args):
        return args[i]
    return default


def _until(res, restr):
    return lasting.restriction(restr, res.controller)


def _keep_lasting(res, entry):
    if entry is not None and hasattr(res, "lasting_ids"):
        res.lasting_ids.append(entry["id"])


def _set_result(res, name, iids):
    res.results[name] = list(iids)


def _card_state(res, iid):
    return res.game.state["cards"][iid]


def _first_card(S):
    cs = _cards(S)
    if cs:
        return cs[0]
    return None


def _ctrl_player(res, S):
    """``ctrl`` for commands other than moveTo: the first target card's controller, else this's."""
    first = _first_card(S)
    if first is None:
        first = res.source
    return _card_state(res, first)["ctrl"]


def _pile_owner(res, pile_arg, S, card=None):
    """Player index owning a pile argument (docs/language.md section 6.3)."""
    owner = pile_arg.get("owner", "my")
    if owner == "opp":
        return res.opponent
    if owner == "ctrl":
        if card is not None:
            return _card_state(res, card)["ctrl"]
        return _ctrl_player(res, S)
    return res.controller


def _message(res, what, **fields):
    rec = {"type": "message", "what": what, "player": res.controller, "source": res.source}
    rec.update(fields)
    res.game.emit(rec)


def _ordered_for(pile, pos, iids):
    """The order in which to insert ``iids`` one by one at ``pos`` so that they keep their order
    in the destination (the first one nearest the top)."""
    if pile == "hand":
        return list(iids)
    if pos is None or pos == "top":
        from_top = True
    elif pos == "bottom":
        from_top = False
    else:
        from_top = int(pos) >= 0
    if from_top:
        return list(reversed(iids))
    return list(iids)


def _position(res, pos_arg, what):
    """A pos argument to an insert position; ``choose`` asks the controller once (top_or_bottom)."""
    if pos_arg is None:
        return 0
    pos = pos_arg.get("pos", 0)
    if pos == "choose":
        return res.game.ask("top_or_bottom", res.controller, ["top", "bottom"],
                            prompt="put %s on top or at the bottom" % what, source=res.source)
    return int(pos)


def _card_value(res, root, eff, what):
    v = _evaluate(res, root)
    if not isinstance(v, Card):
        raise _fail(res, "RS507", "%s needs a card, got %r" % (what, v), eff, [(what, v)])
    return v.iid


def _in_hand_of(res, filters, player):
    """Copies of ``filters`` whose zone is ``player``'s hand (discard's filter argument)."""
    out = []
    prefix = "my" if player == res.controller else "opp"
    for f in filters:
        g = dict(f)
        g["zone"] = {"z": "hand", "p": prefix}
        out.append(g)
    return out


def _resolve_or_empty(res, filters, purpose, exclude=None):
    try:
        got = _resolve(res, filters, purpose, exclude)
    except NoTargets:
        return []
    return list(got or [])


# ---------------------------------------------------------------------------- commands
# Each takes (res, eff, S, restr) and returns True (done) or False (the effect failed).

def cmd_activate(res, eff, S, restr):
    iid = _card_value(res, _arg(eff, 0), eff, "activate()")
    _activate(res, iid)
    return True


def cmd_altercost(res, eff, S, restr):
    kind = _arg(eff, 0)
    val = _arg(eff, 1)
    op = "=" if val.get("op") == "set" else "+"
    e = res.game.add_cost_mod(kind, op, int(val["n"]), res.source, _until(res, restr))
    _keep_lasting(res, e)
    return True


def cmd_bp(res, eff, S, restr):
    v = _arg(eff, 0)
    iids = card_targets(res, S)
    op = v.get("op")
    if op == "mul":
        n = int(v["n"])
        if iids:
            res.game.bp_mul(iids, n)
        return True
    x = _number(res, v["x"], "bp")
    if not iids:  # no card among the targets: bp_set and bp_add would only settle
        return True
    if op == "set":
        res.game.bp_set(iids, x)
    else:
        res.game.bp_add(iids, x)
    return True


def cmd_clear(res, eff, S, restr):
    res.cleared = True
    return True


def cmd_copyability(res, eff, S, restr):
    giver = _card_value(res, _arg(eff, 0), eff, "copyAbility()")
    g = _card_state(res, giver)
    rules_id = g["rules"]
    ability = g["ability"]
    if not _has_rules(res, rules_id):
        return True
    for iid in card_targets(res, S):
        if iid == giver or not res.game.is_char(iid):
            continue
        res.game.set_rules(iid, rules_id, ability)
    return True


def cmd_damage(res, eff, S, restr):
    e = _number(res, _arg(eff, 0), "damage")
    if e <= 0:
        return True
    cards = _cards(S)
    if cards:
        res.game.damage_chars(cards, e)
    for p in _players(S):
        res.game.damage_player(p, e, res.source)
    return True


def cmd_destroy(res, eff, S, restr):
    iids = card_targets(res, S)
    cards = res.game.state["cards"]
    done = [i for i in iids if cards[i]["zone"] != "discards"]
    if iids:
        res.game.destroy(iids)
    _set_result(res, "destroyed", done)
    return True


def _rule_entries(res, eff, S, restr, value):
    rule = _arg(eff, 0)
    until = _until(res, restr)
    scopes = _players(S) or [None]
    for scope in _uniq(scopes):
        e = res.game.add_rule_entry(rule, res.source, scope, value, until)
        _keep_lasting(res, e)
    return True


def cmd_enablerule(res, eff, S, restr):
    return _rule_entries(res, eff, S, restr, True)


def cmd_disablerule(res, eff, S, restr):
    return _rule_entries(res, eff, S, restr, False)


def cmd_modrule(res, eff, S, restr):
    return _rule_entries(res, eff, S, restr, int(_arg(eff, 1)))


def cmd_discard(res, eff, S, restr):
    x = _arg(eff, 0)
    game = res.game
    all_done = []
    ok = True
    for p in player_targets(res, S):
        if x is None or "count" in x:
            n = 1 if x is None else int(x["count"])
            got = game.discard_chosen(res.controller, p, n, res.source) if n > 0 else []
        else:
            picked = _resolve_or_empty(res, _in_hand_of(res, x["filters"], p), "clause")
            hand = game.state["players"][p]["hand"]
            picked = [o.iid for o in picked if isinstance(o, Card) and o.iid in hand]
            got = game.discard(p, _uniq(picked)) if picked else []
        if not got:
            ok = False
        all_done.extend(got)
    _set_result(res, "discarded", all_done)
    return ok


def _per_player_count(res, eff, S, move, result):
    """Apply ``move(player, n)`` (n = the first argument, default 1) to each targeted player and record
    the cards it moved as ``result``."""
    n = _arg(eff, 0)
    n = 1 if n is None else int(n)
    done = []
    for p in player_targets(res, S):
        if n > 0:
            done.extend(move(p, n))
    _set_result(res, result, done)
    return True


def cmd_rnddiscard(res, eff, S, restr):
    return _per_player_count(res, eff, S, res.game.discard_random, "discarded")


def cmd_draw(res, eff, S, restr):
    root = _arg(eff, 0)
    n = 1 if root is None else _number(res, root, "draw")
    for p in player_targets(res, S):
        if n > 0:
            res.game.draw(p, n)
    return True


def cmd_each(res, eff, S, restr):
    arg = _arg(eff, 0)
    chain = arg["chain"]
    at = arg.get("at") or eff.get("at")
    if arg.get("form") == "expr":
        seq = _evaluate(res, {"e": arg["seq"], "at": at, "text": "", "type": None})
        if not isinstance(seq, list):
            raise _fail(res, "RS507", "each() needs a list to walk, got %r" % (seq,), eff,
                        [("list", seq)])
        test = {"e": arg["elem"], "at": at, "text": "", "type": None}
        cost = node_size(arg["elem"])
        for el in list(seq):
            _charge(res, cost)
            res.elements.append(el)
            try:
                if _evaluate(res, test):
                    _run_chain(res, chain, S)
            finally:
                res.elements.pop()
    else:
        for obj in _resolve_or_empty(res, arg["filters"], "silent"):
            _charge(res, 1)
            res.elements.append(obj)
            try:
                _run_chain(res, chain, S)
            finally:
                res.elements.pop()
    return True


def cmd_freeze(res, eff, S, restr):
    flag = _arg(eff, 0)
    toggle = flag is True or flag == "toggle"
    cards = _cards(S)
    if cards:
        res.game.freeze(cards, toggle)
    return True


def cmd_unfreeze(res, eff, S, restr):
    cards = _cards(S)
    if cards:
        res.game.unfreeze(cards)
    return True


def cmd_hp(res, eff, S, restr):
    e = _number(res, _arg(eff, 0), "hp")
    for p in player_targets(res, S):
        res.game.add_hp(p, e)
    return True


def cmd_loselife(res, eff, S, restr):
    e = _number(res, _arg(eff, 0), "loseLife")
    for p in player_targets(res, S):
        res.game.lose_life(p, e)
    return True


def cmd_sp(res, eff, S, restr):
    v = _arg(eff, 0)
    x = _number(res, v["x"], "sp")
    for p in player_targets(res, S):
        if v.get("op") == "set":
            res.game.set_sp(p, x)
        else:
            res.game.add_sp(p, x)
    return True


def _adjust_kind(res):
    """The kind of the amount a ``beforePayCost...`` or ``beforeDamage`` listener adjusts: the engine's
    ``adjust`` holds a cost kind of ``cost_value`` (character, action, reaction, ua2, ua3) or damage;
    None outside such a listener."""
    adj = res.adjust
    return adj.get("kind") if adj else None


def cmd_modcost(res, eff, S, restr):
    kind = _arg(eff, 0)
    if _adjust_kind(res) == kind:
        res.adjust["sum"] = res.adjust.get("sum", 0) + int(_arg(eff, 1))
    return True


def cmd_moddamage(res, eff, S, restr):
    if _adjust_kind(res) == "damage":
        res.adjust["sum"] = res.adjust.get("sum", 0) + int(_arg(eff, 0))
    return True


def cmd_moveto(res, eff, S, restr):
    pile_arg = _arg(eff, 0)
    pos_arg = _arg(eff, 1)
    reveal = _arg(eff, 2)
    if pos_arg is not None and pos_arg.get("reveal") is not None and reveal is None:
        reveal = pos_arg.get("reveal")
    pile = pile_arg["pile"]
    iids = _uniq(_cards(S))
    if not iids:
        _set_result(res, "moved", [])
        return True
    if reveal:
        _message(res, "reveal", cards=list(iids))
    pos = _position(res, pos_arg, "the cards")
    groups = []
    for iid in iids:
        owner = _pile_owner(res, pile_arg, S, iid)
        if groups and groups[-1][0] == owner:
            groups[-1][1].append(iid)
        else:
            groups.append((owner, [iid]))
    for owner, group in groups:
        at = _within(pos, res.game.state["players"][owner][pile], group)
        res.game.move_cards(_ordered_for(pile, at, group), owner, pile, at)
    _set_result(res, "moved", iids)
    return True


def _within(pos, dest, group):
    """A position k or -k past the end of the pile ``dest`` (not counting the cards of ``group`` it
    already holds) is its bottom or top: the cards, inserted one by one, then keep their order."""
    if pos is None or pos in ("top", "bottom"):
        return pos
    n = len([i for i in dest if i not in group])
    return min(int(pos), n) if int(pos) >= 0 else max(int(pos), -(n + 1))


def cmd_moverevealedto(res, eff, S, restr):
    pile_arg = _arg(eff, 0)
    pos_arg = _arg(eff, 1)
    game = res.game
    first = _first_card(S)
    if first is not None:
        c = _card_state(res, first)
        if c["zone"] not in PILE_ZONES:
            _set_result(res, "moved", [])
            return False
        src = game.state["players"][c["ctrl"]][c["zone"]]
        above = list(src[:src.index(first)])
    else:
        src = game.state["players"][res.controller]["deck"]
        above = list(src)
    if not src:
        _set_result(res, "moved", [])
        return False
    shown = list(above)
    if first is not None:
        shown.append(first)
    _message(res, "reveal", cards=shown)
    if above:
        pile = pile_arg["pile"]
        pos = _position(res, pos_arg, "the revealed cards")
        owner = _pile_owner(res, pile_arg, S)
        game.move_cards(_ordered_for(pile, pos, above), owner, pile, pos)
    _set_result(res, "moved", above)
    return True


def _two_piles(res, eff, S, operation):
    """movePile / swapPiles: apply ``operation(p1, pile1, p2, pile2)`` unless both name one pile."""
    a = _arg(eff, 0)
    b = _arg(eff, 1)
    pa = _pile_owner(res, a, S)
    pb = _pile_owner(res, b, S)
    if (pa, a["pile"]) != (pb, b["pile"]):
        operation(pa, a["pile"], pb, b["pile"])
    return True


def cmd_movepile(res, eff, S, restr):
    return _two_piles(res, eff, S, res.game.move_pile)


def cmd_swappiles(res, eff, S, restr):
    return _two_piles(res, eff, S, res.game.swap_piles)


def cmd_shuffle(res, eff, S, restr):
    a = _arg(eff, 0)
    if a is None:
        res.game.shuffle_pile(res.controller, "deck")
    else:
        res.game.shuffle_pile(_pile_owner(res, a, S), a["pile"])
    return True


def cmd_movetoslot(res, eff, S, restr):
    first = _first_card(S)
    if first is not None and _card_state(res, first)["zone"] == "ring":
        res.game.move_to_slot(first)
    return True


def cmd_peek(res, eff, S, restr):
    hand = res.game.state["players"][res.opponent]["hand"]
    _message(res, "peek", viewer=res.controller, owner=res.opponent, pile="hand", cards=list(hand))
    return True


def cmd_reveal(res, eff, S, restr):
    pile_arg = _arg(eff, 0)
    if pile_arg is None:
        cards = _cards(S)
        if cards:
            _message(res, "reveal", cards=cards)
        return True
    owners = _players(S)
    if not owners:
        owners = [_pile_owner(res, pile_arg, S)]
    for p in owners:
        cards = res.game.state["players"][p][pile_arg["pile"]]
        _message(res, "reveal", owner=p, pile=pile_arg["pile"], cards=list(cards))
    return True


def cmd_pileview(res, eff, S, restr):
    pile_arg = _arg(eff, 0)
    _message(res, "pileview", owner=_pile_owner(res, pile_arg, S), pile=pile_arg["pile"],
             style=_arg(eff, 1))
    return True


def cmd_playextrachar(res, eff, S, restr):
    res.game.play_extra_char(res.controller)
    return True


def cmd_prophecy(res, eff, S, restr):
    n = _arg(eff, 0)
    n = 1 if n is None else int(n)
    where = _arg(eff, 1)
    first = _first_card(S)
    players = _players(S)
    if first is not None:
        c = _card_state(res, first)
        owner = c["ctrl"]
        pile = c["zone"] if c["zone"] in ("deck", "discards", "removed") else "deck"
    elif players:
        owner = players[0]
        pile = "deck"
    else:
        owner = res.controller
        pile = "deck"
    if n > 0:
        res.game.prophecy(res.controller, owner, pile, n, where, res.source)
    return True


def cmd_removefromattack(res, eff, S, restr):
    cards = _cards(S)
    if cards:
        res.game.remove_from_attack(cards)
        res.game.settle()
    return True


def cmd_unite(res, eff, S, restr):
    cards = _cards(S)
    if cards:
        res.game.unite(cards)
        res.game.settle()
    return True


def cmd_skip(res, eff, S, restr):
    phase = _arg(eff, 0)
    for p in _uniq(_players(S)):
        res.game.skip_phase(p, phase)
    return True


def cmd_turns(res, eff, S, restr):
    n = int(_arg(eff, 0))
    if n > 0:
        res.game.add_extra_turns(res.controller, n)
    return True


def cmd_swapchars(res, eff, S, restr):
    cards = _uniq(_cards(S))
    if len(cards) < 2:
        return True
    a = _card_state(res, cards[0])
    b = _card_state(res, cards[1])
    if a["zone"] == "ring" and b["zone"] == "ring" and a["ctrl"] == b["ctrl"]:
        res.game.swap_chars(cards[0], cards[1])
    return True


def cmd_loseability(res, eff, S, restr):
    for iid in _uniq(_cards(S)):
        if _card_state(res, iid)["rules"] is not None:
            res.game.set_rules(iid, None, None)
    return True


def cmd_steal(res, eff, S, restr):
    f = _arg(eff, 0)
    donor = _first_card(S)
    if donor is None:
        return True
    receiver = res.source
    if f is not None:
        got = [o.iid for o in _resolve_or_empty(res, f["filters"], "clause") if isinstance(o, Card)]
        if not got:
            return True
        receiver = got[0]
    if receiver == donor:
        return True
    d = _card_state(res, donor)
    rules_id = d["rules"]
    ability = d["ability"]
    if not _has_rules(res, rules_id):
        return True
    res.game.set_rules(receiver, rules_id, ability)
    if _card_state(res, donor)["rules"] is not None:
        res.game.set_rules(donor, None, None)
    return True


def cmd_swapabilities(res, eff, S, restr):
    cards = _uniq(_cards(S))
    if len(cards) < 2:
        return True
    a = _card_state(res, cards[0])
    b = _card_state(res, cards[1])
    ra, aa = a["rules"], a["ability"]
    rb, ab = b["rules"], b["ability"]
    res.game.set_rules(cards[0], rb, ab)
    res.game.set_rules(cards[1], ra, aa)
    return True


def cmd_transform(res, eff, S, restr):
    m = _arg(eff, 0)
    if "model" in m:
        model = m["model"]
    else:
        model = _card_state(res, _card_value(res, m["x"], eff, "transform()"))["model"]
    if model not in res.game.models:
        raise _fail(res, "RS507", "transform(): unknown card id %r" % (model,), eff,
                    [("model", model)])
    cards = _uniq(_cards(S))
    if cards:
        res.game.transform(cards, model)
    return True


def cmd_trash(res, eff, S, restr):
    return _per_player_count(res, eff, S, res.game.trash, "trashed")


# Commands that only change a pending amount (no state change): an affordability check whose listeners
# use nothing else needs no snapshot (engine.Engine._pure).
PURE_COMMANDS = ("modcost", "moddamage")

COMMANDS = {
    "activate": cmd_activate,
    "altercost": cmd_altercost,
    "bp": cmd_bp,
    "clear": cmd_clear,
    "copyability": cmd_copyability,
    "damage": cmd_damage,
    "destroy": cmd_destroy,
    "disablerule": cmd_disablerule,
    "enablerule": cmd_enablerule,
    "discard": cmd_discard,
    "draw": cmd_draw,
    "each": cmd_each,
    "freeze": cmd_freeze,
    "hp": cmd_hp,
    "loseability": cmd_loseability,
    "loselife": cmd_loselife,
    "modcost": cmd_modcost,
    "moddamage": cmd_moddamage,
    "modrule": cmd_modrule,
    "movepile": cmd_movepile,
    "moverevealedto": cmd_moverevealedto,
    "moveto": cmd_moveto,
    "movetoslot": cmd_movetoslot,
    "peek": cmd_peek,
    "pileview": cmd_pileview,
    "playextrachar": cmd_playextrachar,
    "prophecy": cmd_prophecy,
    "removefromattack": cmd_removefromattack,
    "reveal": cmd_reveal,
    "rnddiscard": cmd_rnddiscard,
    "shuffle": cmd_shuffle,
    "skip": cmd_skip,
    "sp": cmd_sp,
    "steal": cmd_steal,
    "swapabilities": cmd_swapabilities,
    "swapchars": cmd_swapchars,
    "swappiles": cmd_swappiles,
    "transform": cmd_transform,
    "trash": cmd_trash,
    "turns": cmd_turns,
    "unfreeze": cmd_unfreeze,
    "unite": cmd_unite,
}


def run_command(res, eff, S, restr):
    """Run one command effect on the statement targets S; False means the effect failed."""
    name = str(eff.get("cmd", "")).lower()
    fn = COMMANDS.get(name)
    if fn is None:
        raise _fail(res, "RS508", "the CFC runtime has no command %r" % (eff.get("cmd"),), eff)
    return bool(fn(res, eff, S, restr))


# ---------------------------------------------------------------------------- abilities

def run_ability(res, eff, S, restr, withdraw):
    """``+ability`` grants, ``-ability`` masks (card-default targets, docs/language.md 7.7); in withdraw
    mode this source's earlier grant (or mask) of the ability to the targets ends (section 7.4)."""
    ability = str(eff["ability"]).lower()
    mask = eff.get("sign") == "-"
    game = res.game
    if ability in PLAYER_ABILITIES:
        holders = [("player", p) for p in _uniq(_players(S))]
    else:
        holders = [("card", i) for i in _uniq(card_targets(res, S))]
    until = None if withdraw else _until(res, restr)
    for kind, who in holders:
        card = who if kind == "card" else None
        player = who if kind == "player" else None
        if withdraw:
            game.withdraw_grant(ability, res.source, card=card, player=player, mask=mask)
        else:
            e = game.add_grant(ability, res.source, card=card, player=player, until=until,
                               mask=mask)
            _keep_lasting(res, e)
    return True


# ---------------------------------------------------------------------------- costs

def _minimum(f):
    """The least number of objects a cost filter must offer."""
    q = f.get("qty") or {"mode": "all"}
    mode = q.get("mode")
    if mode == "choose":
        return max(0, int(q.get("min") or 0))
    return 1   # all and random (<rN>): at least one


def _cost_filter(cost):
    """The cost's filter as a list of filters, None without one (docs/ir.md, COST: one FILTER)."""
    f = cost.get("filter")
    if f is None:
        return None
    return [f]


def cost_can_pay(res, cost, reserved=None):
    """Can this cost be paid now (docs/language.md section 5.3)?  No decision is asked and nothing
    changes.  ``reserved``: iids the action's other costs already need; a discard or sacrifice cost
    may not count them, and appends the cards it would take (the first ones it could)."""
    if reserved is None:
        reserved = []
    kind = str(cost["cost"]).upper()
    game = res.game
    if kind == "F":
        c = _card_state(res, res.source)
        return c["zone"] == "ring" and game.is_char(res.source) and not c["frozen"]
    filters = _cost_filter(cost)
    if kind == "S" and filters is None:
        return _card_state(res, res.source)["zone"] in ("ring", "table")
    if kind == "D" and filters is None:
        n = int(cost.get("count", 1))
        free = [i for i in game.state["players"][res.controller]["hand"] if i not in reserved]
        reserved.extend(free[:n])
        return len(free) >= n
    if kind in ("S", "D"):
        found = _resolve_or_empty(res, filters, "silent")
        need = max([_minimum(f) for f in filters])
        free = [o.iid for o in found if isinstance(o, Card) and o.iid not in reserved]
        reserved.extend(free[:need])
        return len(free) >= need
    raise res.fail("RS508", "the CFC runtime has no cost %r" % (cost["cost"],))


def cost_choose(res, cost, planned=None):
    """Ask the decisions of one cost; return its plan: the list of iids it will freeze, sacrifice
    or discard, none of them in ``planned`` (the plans of the action's earlier costs); None when
    the cards left cannot pay it (the engine then stops the action, nothing paid)."""
    planned = planned or []
    kind = str(cost["cost"]).upper()
    filters = _cost_filter(cost)
    if kind == "F" or (kind == "S" and filters is None):
        return [res.source]
    if kind == "D" and filters is None:
        n = int(cost.get("count", 1))
        hand = [i for i in res.game.state["players"][res.controller]["hand"] if i not in planned]
        if len(hand) < n:
            return None
        if len(hand) == n:
            return hand
        return res.game.ask("choose_targets", res.controller, hand, n, n, "discard %d" % n,
                            res.source)
    got = _resolve_or_empty(res, filters, "cost", [Card(i) for i in planned])
    plan = _uniq([o.iid for o in got if isinstance(o, Card)])
    if len(plan) < max([_minimum(f) for f in filters]):
        return None
    return plan


def cost_pay(res, cost, plan):
    """Pay one cost with its plan; sets ``discarded`` / ``sacrificed``."""
    kind = str(cost["cost"]).upper()
    game = res.game
    if kind == "F":
        game.freeze([res.source])
        return
    if kind == "S":
        iids = [res.source] if plan is None else list(plan)
        if iids:
            game.destroy(iids)
        _set_result(res, "sacrificed", iids)
        return
    if kind == "D":
        iids = list(plan or [])
        if iids:
            game.discard(res.controller, iids)
        _set_result(res, "discarded", iids)
        return
    raise res.fail("RS508", "the CFC runtime has no cost %r" % (cost["cost"],))
