"""Werewolf constants and the shapes of a new state, player and element card (plain data)."""
from __future__ import absolute_import, division, print_function

#: the element kinds that are cards on the table (cards.yaml ``type``)
KINDS = ("role", "attribute", "team", "group", "poll", "location")
#: the prompting timings of actions (rule key ``timing``), in the order a phase offers them
TIMINGS = {"day": ("start day", "immediate day", "end day"),
           "night": ("start night", "immediate night", "end night")}
#: which defenses stop which killing (WWRF section 4.1)
STOPPED_BY = {
    "attack": ("attacks", "kills", "attacks-lynches", "all"),
    "kill": ("kills", "all"),
    "lynch": ("lynches", "attacks-lynches", "all"),
    "banish": ("banishments",),
    "true kill": (),
}
#: defenses are checked in this order; the first that matches is used
DEFENSE_ORDER = ("absence", "active", "passive", "partial", "recruitment")
NARRATOR = -1  # the owner of elements that belong to no player (teams, groups, polls)
DAY_LIMIT = 100


def new_player(idx, name):
    return {"idx": idx, "name": name, "alive": True, "role": None, "team": None, "death": None,
            "counter": 0, "attrs": [], "learned": []}


def new_state(seed, rng_state, names):
    return {
        "version": 1, "seed": seed, "rng": rng_state,
        "players": [new_player(i, n) for i, n in enumerate(names)],
        "cards": {}, "next_iid": 1, "table": [],
        "phase": "setup", "day": -1, "night": 0, "pindex": -1, "active": 0,
        "polls": [], "next_poll": 1, "lasting": [], "next_lasting": 1,
        "groups": {}, "teams": {}, "uses": {}, "story": [],
        "log": [], "over": False, "winner": None, "winners": [], "result": None, "reason": None,
        "day_limit": DAY_LIMIT, "ext": {},
    }


def new_card(iid, model, owner, kind, rules, source=None):
    return {"iid": iid, "model": model, "owner": owner, "ctrl": owner, "zone": "table", "kind": kind,
            "rules": list(rules), "source": source, "until": None, "face": "down" if kind == "role" else "up"}
