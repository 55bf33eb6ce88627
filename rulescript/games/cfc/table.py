"""How a Card Fighters' Clash game looks on a shared table (the game's "table face").

A host that shows the game on a real table (the OCTGN host, ``octgn_pack/host``) and the package
builder (``octgn_pack``) read this module; neither knows CFC.  Every game package provides one with
the same names:

``PILES``         each player's piles, in display order: ``name`` (what the table shows), ``zone``
                  (the engine's zone), ``visibility`` (``none``/``me``/``all``), ``ordered``,
                  ``shuffle`` (the pile offers a shuffle), ``view`` (``pile``/``expanded``/``collapsed``)
``COUNTERS``      each player's counters: ``name``, ``stat`` (the engine's player field), ``default``
``MARKERS``       the card states the table shows as markers: ``id`` (a stable marker id, never one of
                  OCTGN's built-in ids), ``name`` (what a player reads), ``doc``
``PHASES``        the phases, in order: ``name`` (what the table shows), ``phase`` (the engine's name)
``DECK_SECTIONS`` the sections of a deck and the pile each loads into
``CARD_ACTIONS``  the card menu: ``do`` (the ``"do"`` of the game's decision options that the item
                  answers with that card), ``menu`` (its label); the first one is the double-click
``GAME_ACTIONS``  the table/pile menu: options without a card (``pass``, ``done``) and ``concede``
``SLOTS``         per player, the places cards take on the table (ring slots), left to right
``view(state)``   the table as the state shows it (see :func:`view`)
"""
from __future__ import absolute_import, division, print_function

from .data import PHASES as _PHASES
from .data import RING_SLOTS, START_HP

PILES = [
    {"name": "Hand", "zone": "hand", "visibility": "me", "ordered": False, "shuffle": False, "view": "expanded"},
    {"name": "Deck", "zone": "deck", "visibility": "none", "ordered": True, "shuffle": True, "view": "pile"},
    {"name": "Discards", "zone": "discards", "visibility": "all", "ordered": True, "shuffle": False,
     "view": "pile"},
    {"name": "Removed", "zone": "removed", "visibility": "all", "ordered": True, "shuffle": False,
     "view": "pile"},
]

COUNTERS = [
    {"name": "HP", "stat": "hp", "default": START_HP},
    {"name": "SP", "stat": "sp", "default": 0},
]

MARKERS = [
    {"id": "rs-frozen", "name": "Frozen", "doc": "the character is frozen"},
    {"id": "rs-used", "name": "Used", "doc": "the character's ability was used this turn"},
    {"id": "rs-fresh", "name": "Fresh", "doc": "the character entered the ring this turn"},
    {"id": "rs-bp-up", "name": "BP +100", "doc": "one per 100 BP above the printed BP"},
    {"id": "rs-bp-down", "name": "BP -100", "doc": "one per 100 BP below the printed BP"},
    {"id": "rs-attacking", "name": "Attacking", "doc": "the character attacks"},
    {"id": "rs-blocking", "name": "Blocking", "doc": "the character blocks an attack"},
]

PHASES = [{"name": p.replace("-", " ").title(), "phase": p} for p in _PHASES]

DECK_SECTIONS = [{"name": "Main", "pile": "Deck"}]

CARD_ACTIONS = [
    {"do": "play", "menu": "Play"},
    {"do": "action", "menu": "Use its action"},
    {"do": "activate", "menu": "Activate its ability"},
    {"do": "backup", "menu": "Back up a character"},
    {"do": "attack", "menu": "Attack"},
    {"do": "join", "menu": "Join the attack"},
    {"do": "cancel", "menu": "Cancel the attack"},
    {"do": "block", "menu": "Block"},
    {"do": "reaction", "menu": "Play as a reaction"},
    {"do": "withdraw", "menu": "Withdraw the blocker"},
]

GAME_ACTIONS = [
    {"do": "pass", "menu": "Pass (end this phase)"},
    {"do": "done", "menu": "Done declaring attacks"},
    {"do": "concede", "menu": "Concede"},
]

SLOTS = RING_SLOTS


def _markers(card, printed_bp):
    out = {}
    for key, mid in (("frozen", "rs-frozen"), ("used", "rs-used"), ("fresh", "rs-fresh"),
                     ("attacking", "rs-attacking")):
        if card.get(key):
            out[mid] = 1
    if card.get("blocking") is not None:
        out["rs-blocking"] = 1
    if card["zone"] == "ring" and printed_bp is not None:
        delta = (card.get("bp") or 0) - printed_bp
        if delta >= 100:
            out["rs-bp-up"] = delta // 100
        elif delta <= -100:
            out["rs-bp-down"] = (-delta) // 100
    return out


def view(state, models):
    """The table as ``state`` shows it, as plain data.

    ``models``: card id -> card data (``cards.yaml``).  Returns ``{"cards": {iid: card view},
    "counters": [{counter name: value} per player]}``; a card view is ``{"player": controller,
    "pile": a PILES name or None on the table, "index": position in the pile (0 = top),
    "slot": a SLOTS place or None, "face_up": bool, "markers": {marker id: count}}``.
    Backup cards lie under their host character: ``"under": host iid``.
    """
    piles = dict((p["zone"], p["name"]) for p in PILES)
    cards = {}
    for idx, player in enumerate(state["players"]):
        for p in PILES:
            for pos, iid in enumerate(player[p["zone"]]):
                cards[iid] = {"player": idx, "pile": p["name"], "index": pos, "slot": None,
                              "face_up": p["visibility"] == "all", "markers": {}}
        for slot, iid in enumerate(player["ring"]):
            if iid is None:
                continue
            card = state["cards"][iid]
            printed = models.get(card["model"], {}).get("bp")
            cards[iid] = {"player": idx, "pile": None, "index": 0, "slot": slot, "face_up": True,
                          "markers": _markers(card, printed)}
            for n, b in enumerate(card.get("backups") or []):
                cards[b] = {"player": idx, "pile": None, "index": n + 1, "slot": slot, "face_up": True,
                            "markers": {}, "under": iid}
        for pos, iid in enumerate(player.get("table") or []):
            if iid not in cards:
                cards[iid] = {"player": idx, "pile": None, "index": pos, "slot": None, "face_up": True,
                              "markers": {}}
    for iid, card in state["cards"].items():
        if iid not in cards and card["zone"] in piles:
            cards[iid] = {"player": card["ctrl"], "pile": piles[card["zone"]], "index": 0, "slot": None,
                          "face_up": False, "markers": {}}
    counters = [dict((c["name"], player[c["stat"]]) for c in COUNTERS) for player in state["players"]]
    return {"cards": cards, "counters": counters}
