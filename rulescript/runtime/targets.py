"""Target filters at run time (docs/language.md section 4), game-agnostic.

``resolve(res, filters, purpose, preselected=None, required=False)`` turns a list of FILTER IR dicts
(docs/ir.md) into a list of values (Card / Player), the filters' results joined in order without
duplicates.  ``purpose`` says who may decide what:

* ``"target"``: the ``target`` property; decisions are asked, ``choose_targets`` may be cancelled
  (a cancel raises :class:`Cancelled`);
* ``"clause"``: target clauses and command filters; decisions, no cancel;
* ``"cost"``: the filter of an ``S(...)``/``D(...)`` cost (its zone is forced in the IR); as clause;
* ``"silent"``: requisites, ``each(filter)``, ``getTargets``: no decisions, zone prefixes that would
  ask (``any``, ``same``) and ``player`` take both sides, quantities are ignored (every match kept).

With ``required`` a filter that yields nothing raises :class:`NoTargets` at once (before the later
filters ask anything).  Zone contents, card types, subtypes, names, filter words and stats come from
the vocabulary ``res.engine.vocab`` (for CFC: games/cfc/vocab.py); the pipeline itself is section 4.7:
choose_type (mixed alternatives), zone, candidates, type test, filter block, selector, pick, quantity.
"""
from __future__ import absolute_import, division, print_function

from . import expr as _expr
from .resolution import Cancelled, Card, NoTargets, Player

PURPOSES = ("target", "clause", "cost", "silent")
#: steps of the budget one filter costs, and each candidate it examines
FILTER_STEPS = 5
CANDIDATE_STEPS = 3
PLAYER_KEYWORDS = ("me", "opp", "player", "players")


def resolve(res, filters, purpose, preselected=None, required=False, exclude=None):
    """The objects the filters select (section 4), joined in order, duplicates removed.
    ``exclude``: objects that are not candidates (cards an earlier cost already plans to use)."""
    if purpose not in PURPOSES:
        raise ValueError("unknown filter purpose %r" % (purpose,))
    out = []
    seen = set()
    for f in filters:
        got = resolve_one(res, f, purpose, preselected, len(filters) == 1, exclude)
        if required and not got:
            raise NoTargets()
        for v in got:
            if v not in seen:
                seen.add(v)
                out.append(v)
    return out


def resolve_one(res, f, purpose, preselected=None, whole=True, exclude=None):
    """One filter through the whole pipeline.

    ``preselected``: objects picked in advance (Card/Player values); they are taken without a
    decision when their number fits the quantity and all of them are candidates after step 6 (with
    ``whole`` False, as for one filter of several, those that are candidates of this filter).
    Otherwise the usual decision is asked.  A random quantity always draws."""
    silent = purpose == "silent"
    conjs = f["types"]
    if f["selects"] == "mixed" and not silent and len(conjs) > 1:
        conjs = [_choose_type(res, f, conjs, preselected)]
    kept = _candidates(res, f, conjs, silent)
    if exclude:
        kept = [v for v in kept if v not in exclude]
    if silent:
        return kept
    return _quantity(res, f, kept, purpose, preselected, whole)


def matches(res, f, value):
    """True if ``value`` is among the objects the filter finds silently, before its quantity."""
    return value in _candidates(res, f, f["types"], True)


# ---------------------------------------------------------------------------- steps 1 to 6
def _candidates(res, f, conjs, silent):
    vocab = res.engine.vocab
    player_conjs = [_is_player_conj(c) for c in conjs]
    cands = []
    if True in player_conjs:
        seats = getattr(vocab, "player_indices", None)
        if seats is None:
            cands.append(Player(res.controller))
            cands.append(Player(1 - res.controller))
        else:
            for idx in seats(res):
                cands.append(Player(idx))
    if False in player_conjs:
        iids = _zone(res, vocab, f, silent)
        if not f["zone_written"] and res.source is not None and res.source not in iids \
                and _mentions_this(conjs):
            iids.append(res.source)
        for i in iids:
            cands.append(Card(i))
    # each candidate costs steps of the resolution's budget (docs/runtime.md, "Limits")
    _expr.charge(res, FILTER_STEPS + CANDIDATE_STEPS * len(cands))
    if len(conjs) == 1 and _every_player(conjs[0]):
        kept = cands  # `players` / `player`: every candidate is one (the common case of a player filter)
    else:
        kept = []
        for v in cands:
            for k in range(len(conjs)):
                if _conj_ok(res, vocab, conjs[k], player_conjs[k], v):
                    kept.append(v)
                    break
    if f["block"]:
        kept = _block(res, vocab, f["block"], kept)
    sel = f["selector"]
    if sel is not None:
        kept = _selector(res, vocab, sel, kept)
    pick = f["pick"]
    if pick:
        kept = kept[:pick] if pick > 0 else kept[pick:]
    return kept


def _every_player(conj):
    """A conjunction that every player passes: one plain ``players`` or ``player`` term."""
    if len(conj) != 1:
        return False  # not the shortcut: each candidate is tested
    t = conj[0]
    return t["t"] == "kw" and t["v"] in ("players", "player") and not t["not"] and not t["notself"]


def _is_player_conj(conj):
    for t in conj:
        if t["t"] == "kw" and t["v"] in PLAYER_KEYWORDS:
            return True
    return False


def _mentions_this(conjs):
    for c in conjs:
        for t in c:
            if t["t"] == "kw" and t["v"] == "this" and not t["not"]:
                return True
    return False


def _zone(res, vocab, f, silent):
    """Step 1 and 2: the iids of the filter's zone, in zone order (a prefix may ask a decision)."""
    z = f["zone"]["z"]
    if not vocab.zone_has_owner(z):
        return list(vocab.zone(res, z, None))
    p = f["zone"]["p"]
    me = res.controller
    if p in ("my", "ctrl"):
        sides = [me]
    elif p == "opp":
        sides = [1 - me]
    elif p in vocab.prefix_decisions:
        if silent:
            sides = [me, 1 - me]
        else:
            sides = [res.game.ask(vocab.prefix_decisions[p], me, [0, 1], 1, 1,
                                  "choose whose %s" % z, res.source, False)]
    else:
        raise ValueError("unknown zone prefix %r" % (p,))
    out = []
    for s in sides:
        out.extend(vocab.zone(res, z, s))
    return out


def _conj_ok(res, vocab, conj, player_conj, v):
    if player_conj != isinstance(v, Player):
        return False
    for t in conj:
        if not _term_ok(res, vocab, t, v):
            return False
    return True


def _term_ok(res, vocab, t, v):
    """Step 3: one type term (``^`` leaves out the source, ``!`` negates)."""
    is_card = isinstance(v, Card)
    if t["notself"] and is_card and v.iid == res.source:
        return False
    kind = t["t"]
    w = t["v"]
    if kind == "any":
        m = is_card
    elif kind == "kw":
        if w == "all":
            m = is_card
        elif w == "this":
            m = is_card and v.iid == res.source
        elif w == "me":
            m = isinstance(v, Player) and v.idx == res.controller
        elif w == "opp":
            m = isinstance(v, Player) and v.idx != res.controller
        elif w in ("player", "players"):
            m = isinstance(v, Player)
        else:
            raise ValueError("unknown type keyword %r" % (w,))
    elif kind == "ctype":
        m = is_card and vocab.ctype(res, v.iid) == w
    elif kind == "subtype":
        m = is_card and vocab.has_subtype(res, v.iid, w)
    elif kind == "name":
        m = is_card and (vocab.card_name(res, v.iid) or "").lower() == w
    else:
        raise ValueError("unknown type term %r" % (kind,))
    return m != t["not"]


def _block(res, vocab, alts, kept):
    """Step 4: an OR of ANDs; atoms left to right on what the previous kept; union in zone order."""
    if len(alts) == 1:
        cur = kept
        for a in alts[0]:
            cur = _atom(res, vocab, a, cur)
        return cur
    union = set()
    for conj in alts:
        cur = kept
        for a in conj:
            cur = _atom(res, vocab, a, cur)
        union.update(cur)
    return [v for v in kept if v in union]


def _cmp(op, a, b):
    if op == "==" or op == "=":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    raise ValueError("unknown comparison %r" % (op,))


def _atom(res, vocab, a, cur):
    kind = a["a"]
    neg = a["neg"]
    if kind == "ext":
        stat = vocab.stats[a["stat"]]
        vals = []
        for v in cur:
            s = stat(res, v)
            if s is not None:
                vals.append((v, s))
        if not vals:
            best = []
        else:
            nums = [s for _, s in vals]
            target = min(nums) if a["w"] == "lowest" else max(nums)
            best = [v for v, s in vals if s == target]
        if neg:
            return [v for v in cur if v not in best]
        return best
    out = []
    if kind == "word":
        test = vocab.filter_words[a["w"]]
        for v in cur:
            if bool(test(res, v)) != neg:
                out.append(v)
    elif kind == "ctype":
        w = a["w"]
        for v in cur:
            if (isinstance(v, Card) and vocab.ctype(res, v.iid) == w) != neg:
                out.append(v)
    elif kind == "subtype":
        w = a["w"]
        for v in cur:
            if (isinstance(v, Card) and vocab.has_subtype(res, v.iid, w)) != neg:
                out.append(v)
    elif kind == "cmp":
        stat = vocab.stats[a["stat"]]
        op = a["op"]
        n = a["v"]
        for v in cur:
            s = stat(res, v)
            ok = s is not None and _cmp(op, s, n)
            if ok != neg:
                out.append(v)
    else:
        raise ValueError("unknown filter atom %r" % (kind,))
    return out


def _selector(res, vocab, sel, kept):
    """Step 5: ``::not(expr)`` drops every object in the value (a card, a player or a list)."""
    name = sel["s"]
    root = sel["x"]
    value = _expr.evaluate(res, root)
    if name != "not":
        fn = getattr(vocab, "selectors", {}).get(name)
        if fn is None:
            raise ValueError("unknown selector %r" % (name,))
        return fn(res, kept, value)
    if value is None:
        return kept
    if isinstance(value, (Card, Player)):
        drop = [value]
    elif isinstance(value, list):
        drop = value
    else:
        raise _expr.fail(res, "RS503", "::not() needs a card, a player or a list; '%s' is %s" % (
            root.get("text"), _expr.kind_of(value)), root, None, [(root.get("text"), value)])
    return [v for v in kept if v not in drop]


# ---------------------------------------------------------------------------- decisions
def _label(conj):
    parts = []
    for t in conj:
        s = ("^" if t["notself"] else "") + ("!" if t["not"] else "")
        s += ('"%s"' % t["v"]) if t["t"] == "name" else t["v"]
        parts.append(s)
    return "&".join(parts)


def _choose_type(res, f, conjs, preselected):
    """Mixed players and cards: the controller picks one alternative (choose_type)."""
    if preselected:
        want_player = isinstance(preselected[0], Player)
        same = True
        for v in preselected:
            if isinstance(v, Player) != want_player:
                same = False
        fitting = [c for c in conjs if _is_player_conj(c) == want_player]
        if same and len(fitting) == 1:
            return fitting[0]
    labels = []
    for c in conjs:
        lab = _label(c)
        while lab in labels:
            lab += "'"
        labels.append(lab)
    ans = res.game.ask("choose_type", res.controller, labels, 1, 1, "choose what to target",
                       res.source, False)
    return conjs[labels.index(ans)]


def _option(v):
    if isinstance(v, Card):
        return v.iid
    return {"player": v.idx}


def _quantity(res, f, kept, purpose, preselected, whole):
    """Step 7: take them all, draw at random, or let the controller choose."""
    q = f["qty"]
    mode = q["mode"]
    if mode == "all":
        return kept
    if mode == "random":
        pool = list(kept)
        out = []
        n = q["n"]
        while pool and len(out) < n:
            out.append(pool.pop(res.game.randbelow(len(pool))))
        return out
    if mode != "choose":
        raise ValueError("unknown quantity mode %r" % (mode,))
    mn = q["min"]
    mx = len(kept) if q["max"] is None else min(q["max"], len(kept))
    if len(kept) <= mn:
        return kept
    if preselected is not None:
        sub = [v for v in preselected if v in kept]
        if mn <= len(sub) <= mx and (len(sub) == len(preselected) or not whole):
            return sub
    game = res.game
    if mn == 1 and mx == 1 and not [v for v in kept if not isinstance(v, Player)]:
        idx = game.ask("choose_player", res.controller, [v.idx for v in kept], 1, 1,
                       "choose a player", res.source, False)
        return [Player(idx)]
    options = [_option(v) for v in kept]
    if mn == mx:
        prompt = "choose %d target%s" % (mn, "" if mn == 1 else "s")
    else:
        prompt = "choose %d to %d targets" % (mn, mx)
    cancel = purpose == "target"
    ans = game.ask("choose_targets", res.controller, options, mn, mx, prompt, res.source, cancel)
    if ans is None:
        raise Cancelled()
    return [kept[options.index(a)] for a in ans]
