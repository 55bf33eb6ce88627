"""Lasting effects: game-rule entries, ability grants and masks, cost modifiers.

All of them live in one list, ``state["lasting"]``, in creation order. Every entry is a dict with
``id``, ``type`` ('rule', 'grant', 'mask' or 'cost'), ``source`` (card iid or None) and ``until``
(None, or ``{"when": "ueot"|"unac"|"uynt", "player": idx}``), plus:

* rule:  ``rule``, ``scope`` (player idx or None for global), ``value`` (bool or int)
* grant / mask: ``ability``, ``card`` (iid or None), ``player`` (idx or None)
* cost:  ``cost`` (kind), ``op`` ('=' or '+'), ``value`` (int; '+' adds to M, '=' sets the base)

An unrestricted entry (``until`` None) ends when its source leaves play or loses its rules.
"""
from __future__ import absolute_import, division, print_function

RESTRICTIONS = {
    "ueot": ("ueot", False), "myueot": ("ueot", False), "oppueot": ("ueot", True),
    "unac": ("unac", False), "myunac": ("unac", False), "oppunac": ("unac", True),
    "uynt": ("uynt", False), "myuynt": ("uynt", False), "oppuynt": ("uynt", True),
}


def restriction(word, controller):
    """The ``until`` record for a restriction keyword seen from ``controller`` (None for None)."""
    if word is None:
        return None
    key = word.lower()
    if key not in RESTRICTIONS:
        raise ValueError("unknown restriction %r" % (word,))
    when, opp = RESTRICTIONS[key]
    player = controller
    if opp:
        player = 1 - controller
    return {"when": when, "player": player}


def _new_id(state):
    state["next_id"] += 1
    return state["next_id"]


def add_entry(state, entry):
    """Append ``entry`` (without id) and return it with its new id."""
    if entry.get("until") is not None:
        entry["until"] = dict(entry["until"])   # never share a container inside the state
    entry["id"] = _new_id(state)
    state["lasting"].append(entry)
    return entry


def set_rule(state, rule, source, scope, value, until=None):
    """Add a rule entry, replacing the one with the same rule, source and scope."""
    lst = state["lasting"]
    for i in range(len(lst)):
        e = lst[i]
        if e["type"] == "rule" and e["rule"] == rule and e["source"] == source and e["scope"] == scope:
            del lst[i]
            break
    return add_entry(state, {"type": "rule", "rule": rule, "source": source, "scope": scope,
                             "value": value, "until": until})


def rule_value(state, rule, player, defaults):
    """Effective value of ``rule`` for ``player`` (docs/cfc-rules.md section 11)."""
    kind, default = defaults[rule]
    found = False
    result = None
    for e in state["lasting"]:
        if e["type"] != "rule" or e["rule"] != rule:
            continue
        if e["scope"] is not None and e["scope"] != player:
            continue
        v = e["value"]
        if kind == "bool":
            if not v:
                return False
            found = True
        else:
            if result is None or v < result:
                result = v
            found = True
    if not found:
        return default
    if kind == "bool":
        return True
    return result


def has_ability(state, ability, card=None, player=None):
    """True when a grant of ``ability`` to the card (or player) is active and no mask is."""
    granted = False
    for e in state["lasting"]:
        t = e["type"]
        if (t == "grant" or t == "mask") and e["ability"] == ability and e["card"] == card \
                and e["player"] == player:
            if t == "mask":
                return False
            granted = True
    return granted


def remove_ids(state, ids):
    """Remove the entries with these ids; return the removed entries."""
    keep = []
    gone = []
    for e in state["lasting"]:
        if e["id"] in ids:
            gone.append(e)
        else:
            keep.append(e)
    state["lasting"][:] = keep
    return gone


def expiring(state, whens, player):
    """Ids of restricted entries that end at one of ``whens`` for ``player``."""
    out = []
    for e in state["lasting"]:
        u = e["until"]
        if u is not None and u["player"] == player and u["when"] in whens:
            out.append(e["id"])
    return out


def of_source(state, source):
    """Ids of unrestricted entries created by ``source``."""
    return [e["id"] for e in state["lasting"] if e["source"] == source and e["until"] is None]
