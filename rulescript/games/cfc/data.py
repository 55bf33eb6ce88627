"""CFC constants and the shapes of the plain-data state: a new game, a player, a card instance."""
from __future__ import absolute_import, division, print_function

from ...runtime.plain import deep_copy

PHASES = ("activate", "draw", "main", "attack", "counter-attack", "end", "cleanup")
PILES = ("hand", "deck", "discards", "removed")
RING_SLOTS = 4
START_HP = 3000
HAND_SIZE = 5
BACKUP_BP = 300
UA_FOLLOWER_COST = 5

#: game-rule registry defaults (docs/cfc-rules.md section 11): rule -> (kind, default)
RULE_DEFAULTS = {
    "ab_trigger_fresh": ("bool", False),
    "ab_trigger_act": ("bool", True),
    "ab_instant_act": ("bool", True),
    "piercing": ("bool", True),
    "backup_fresh": ("bool", False),
    "play_char_bp_limit": ("number", None),
    "dmg_combat_deal": ("bool", True),
    "attack_freeze": ("bool", True),
    "attack": ("bool", True),
    "backup_limit": ("bool", True),
    "play_removed": ("bool", False),
}

CARD_ABILITIES = ("unblockable", "cantattack", "cantblock", "unlimitedbackup", "unfreezable",
                  "pierce", "preventpierce", "rush", "frosted")
PLAYER_ABILITIES = ("cantplayac", "cantplayre")
COST_KINDS = ("character", "action", "reaction", "ua2", "ua3")


def new_player(idx):
    return {
        "idx": idx, "hp": START_HP, "sp": 0,
        "hand": [], "deck": [], "discards": [], "removed": [], "table": [],
        "ring": [None] * RING_SLOTS,
        "chars_played": 0, "chars_allowed": 1, "backups_played": 0,
        "ncDamaged": False, "lostSP": 0, "lost_sp_any": False,
        "skip": [], "extra_turns": 0, "turns_taken": 0,
    }


#: the fields of a card instance that hold a container (every other field holds text, a number, a
#: bool or None): ``backups`` a list of instance ids, ``ability`` None or a dict of text
CARD_CONTAINERS = ("backups", "ability")


def new_card(iid, model_id, owner, zone):
    return {
        "iid": iid, "model": model_id, "owner": owner, "ctrl": owner, "zone": zone, "slot": None,
        "bp": 0, "lastBP": 0, "frozen": False, "fresh": False, "used": False,
        "attacking": False, "ua": None, "ua_member": False, "blocking": None, "blocked": False,
        "backups": [], "host": None, "orig": None, "rules": model_id, "ability": None,
    }


def new_state(seed, rng_state, turn_limit):
    return {
        "version": 1, "seed": seed, "rng": rng_state,
        "turn": 0, "active": 0, "first": None, "next_player": None, "phase": "setup",
        "players": [new_player(0), new_player(1)],
        "cards": {}, "next_iid": 0, "next_id": 0,
        "lasting": [],
        "attacks": [], "ua_formed": False,
        "log": [],
        "over": False, "winner": None, "result": None, "reason": None,
        "turn_limit": turn_limit,
        "ext": {},
    }


def _copy_card(c):
    d = c.copy()
    d["backups"] = list(c["backups"])
    ab = c["ability"]
    if ab is not None:
        d["ability"] = dict(ab)
    return d


def copy_state(state):
    """``deep_copy(state)`` for a CFC state (or a part of one, such as the state less its log), several
    times faster: a card instance is copied as a flat record whose only containers are
    :data:`CARD_CONTAINERS`.  A snapshot and a checkpoint copy the whole state, most of it the card
    table, so that is what an action costs most (the OCTGN host takes several copies per action)."""
    out = {}
    for k, v in state.items():
        if k == "cards":
            cards = {}
            for iid, c in v.items():
                cards[iid] = _copy_card(c)
            out[k] = cards
        else:
            t = type(v)
            out[k] = deep_copy(v) if t is dict or t is list or t is tuple else v
    return out
