"""How a werewolf game looks on a shared table (the game's "table face"; the names are those of
``rulescript/games/cfc/table.py``, which describes each of them).

Each player has one role card, dealt face down in front of them; attributes lie beside it. Teams,
groups and polls are element cards in the middle of the table (player -1). Night actions are card
menu items of the role card; votes are the dialog of the ``vote`` decision.
"""
from __future__ import absolute_import, division, print_function

PILES = [
    {"name": "Role", "zone": "role", "visibility": "me", "ordered": False, "shuffle": False, "view": "expanded"},
    {"name": "Attributes", "zone": "attrs", "visibility": "all", "ordered": False, "shuffle": False,
     "view": "expanded"},
]

COUNTERS = [
    {"name": "Counter", "stat": "counter", "default": 0},
]

MARKERS = [
    {"id": "ww-dead", "name": "Dead", "doc": "the player is dead"},
    {"id": "ww-protected", "name": "Protected", "doc": "the player holds a defense"},
    {"id": "ww-voted", "name": "Votes", "doc": "one per vote the player has in the open poll"},
]

PHASES = [{"name": "Day", "phase": "day"}, {"name": "Night", "phase": "night"}]

DECK_SECTIONS = [{"name": "Roles", "pile": "Role"}]

CARD_ACTIONS = [
    {"do": "use_ability", "menu": "Use this role's action"},
]

GAME_ACTIONS = [
    {"do": "vote", "menu": "Vote"},
    {"do": "pass", "menu": "Decline the action"},
]

SLOTS = ["role"]


def view(state, models):
    """The table as ``state`` shows it: ``{"cards": {iid: card view}, "counters": [...]}`` with the card
    view of ``cfc/table.py`` (``player`` -1 for the elements in the middle)."""
    cards = {}
    protected = set(e["player"] for e in state.get("lasting", []) if e.get("type") == "defense")
    votes = {}
    for poll in state.get("polls", []):
        if poll.get("open"):
            for _voter, target in sorted(poll["votes"].items()):
                votes[target] = votes.get(target, 0) + 1
    for idx, player in enumerate(state["players"]):
        role = player["role"]
        if role is not None:
            markers = {}
            if not player["alive"]:
                markers["ww-dead"] = 1
            if idx in protected:
                markers["ww-protected"] = 1
            if votes.get(idx):
                markers["ww-voted"] = votes[idx]
            cards[role] = {"player": idx, "pile": None, "index": 0, "slot": "role",
                           "face_up": not player["alive"], "markers": markers}
        for pos, iid in enumerate(player["attrs"]):
            cards[iid] = {"player": idx, "pile": "Attributes", "index": pos, "slot": None, "face_up": True,
                          "markers": {}}
    for pos, iid in enumerate(state.get("table", [])):
        if iid not in cards:
            cards[iid] = {"player": -1, "pile": None, "index": pos, "slot": None, "face_up": True, "markers": {}}
    counters = [dict((c["name"], player[c["stat"]]) for c in COUNTERS) for player in state["players"]]
    return {"cards": cards, "counters": counters}
