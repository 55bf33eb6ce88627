"""Werewolf constants and the shapes of a new state, player and element card (plain data)."""
from __future__ import absolute_import, division, print_function

#: the element kinds that are cards on the table (cards.yaml ``type``)
KINDS = ("role", "attribute", "team", "group", "poll", "location", "display")
#: prompting timings (rule key ``timing``) in the order a phase offers them; "phase" ones every phase
TIMINGS = {
    "day": ("start day", "start phase", "immediate day", "immediate phase", "immediate",
            "fourth pre-end day", "third pre-end day", "second pre-end day", "pre-end day",
            "end day", "end phase"),
    "night": ("start night", "start phase", "immediate night", "immediate phase", "immediate",
              "fourth pre-end night", "third pre-end night", "second pre-end night", "pre-end night",
              "end night", "end phase"),
}
#: the phase's polls are voted and closed after the pre-end timings, before the end timings
POLLS_BEFORE = ("end day", "end night")
#: which defenses stop which killing (WWRF section 4.1)
STOPPED_BY = {
    "attack": ("attacks", "kills", "attacks-lynches", "all"),
    "kill": ("kills", "all"),
    "lynch": ("lynches", "attacks-lynches", "all"),
    "banish": ("banishments",),
    "true kill": (),
    "true banish": (),
}
#: defenses are checked in this order; the first that matches is used
DEFENSE_ORDER = ("absence", "active", "passive", "partial", "recruitment")
#: ability types whose use on a player is a visit (On Visited fires, redirections and obstructions apply)
VISITING = ("killing", "investigating", "protecting", "applying", "disguising", "obstructing",
            "redirecting", "manipulating", "granting", "changing", "targeting", "switching", "copying")
#: durations that end when the element that made them leaves play (a role lost, an attribute gone)
TIED_TO_SOURCE = ("permanent", "attribute", "phaseattribute", "nextphaseattribute", "nextdayattribute",
                  "nextnightattribute", "untiluseattribute")
NARRATOR = -1  # the owner of elements that belong to no player (teams, groups, polls)
DAY_LIMIT = 100


def new_player(idx, name):
    return {"idx": idx, "name": name, "alive": True, "left": None, "role": None, "team": None, "death": None,
            "counter": 0, "attrs": [], "extras": [], "learned": [], "loyal": {}, "power": 1,
            "active_while": None, "original_role": None}


def new_state(seed, rng_state, names):
    return {
        "version": 1, "seed": seed, "rng": rng_state,
        "players": [new_player(i, n) for i, n in enumerate(names)],
        "cards": {}, "next_iid": 1, "table": [],
        "phase": "setup", "day": -1, "night": 0, "pindex": -1, "active": 0,
        "polls": [], "next_poll": 1, "poll_mods": [], "lasting": [], "next_lasting": 1, "delayed": [],
        "groups": {}, "teams": {}, "uses": {}, "last_used": {}, "story": [], "emits": [],
        "choices": {}, "displays": {}, "whispers": [], "locked": [],
        "log": [], "over": False, "winner": None, "winners": [], "result": None, "reason": None,
        "day_limit": DAY_LIMIT, "ext": {}, "deal": None,
    }


def new_card(iid, model, owner, kind, rules, source=None):
    return {"iid": iid, "model": model, "owner": owner, "ctrl": owner, "zone": "table", "kind": kind,
            "rules": list(rules), "source": source, "until": None, "ends_at": None,
            "face": "down" if kind == "role" else "up", "counter": 0, "values": [None, None, None],
            "target": None}
