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
``SEATS``         the number of players: an int, or ``[least, most]``
``view(state, models)``  the table as the state shows it (see :func:`view`)
``describe(record, card_name, player_name)``  the chat line for an effect record, or None (see
                  :func:`describe`)
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

SEATS = 2


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
    "counters": [{counter name: value} per player], "active": the active player, "phase": a PHASES
    name or None before the first phase}``; a card view is ``{"player": controller,
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
    phase = None
    for p in PHASES:
        if p["phase"] == state["phase"]:
            phase = p["name"]
    return {"cards": cards, "counters": counters, "active": state["active"], "phase": phase}


_OPTION_VERBS = {"play": "plays %s", "action": "plays the action %s", "activate": "activates %s",
                 "backup": "backs up %(host)s with %(card)s", "attack": "attacks with %s",
                 "join": "joins the attack of %(lead)s with %(card)s", "cancel": "cancels the attack of %s",
                 "block": "blocks %(attack)s with %(card)s", "reaction": "plays the reaction %s",
                 "withdraw": "withdraws %s from blocking", "pass": "passes", "done": "is done attacking"}


def _answer_text(kind, answer, card_name, player_name):
    if isinstance(answer, dict):
        if "do" in answer:
            verb = _OPTION_VERBS.get(answer["do"], answer["do"] + " %s")
            names = dict((k, card_name(v)) for k, v in answer.items() if k != "do")
            if "%(" in verb:
                return verb % names
            return verb % names["card"] if "%s" in verb else verb
        if "player" in answer:
            return player_name(answer["player"])
    if isinstance(answer, list):
        return ", ".join([_answer_text(kind, a, card_name, player_name) for a in answer]) or "nothing"
    if answer is None:
        return "cancels"
    if kind == "choose_slot":
        return "slot %d" % (answer + 1)
    if kind in ("choose_player", "choose_ring"):
        return player_name(answer)
    if kind == "yes_no":
        return "yes" if answer else "no"
    if kind in ("choose_targets", "arrange") and not isinstance(answer, bool) and isinstance(answer, int):
        return card_name(answer)
    return str(answer)


def describe(record, card_name, player_name):
    """The chat line for an effect record, or None when the table already shows it (moves, markers,
    counters).  ``card_name(iid)`` and ``player_name(idx)`` give the names to print."""
    t = record.get("type")
    if t == "setup":
        return "%s goes first" % player_name(record["first"])
    if t == "turn":
        return "Turn %d: %s" % (record["turn"], player_name(record["player"]))
    if t == "phase":
        return ("%s skips the %s phase" % (player_name(record["player"]), record["phase"])
                if record.get("skipped") else None)
    if t == "decision":
        text = _answer_text(record["kind"], record["answer"], card_name, player_name)
        if record["kind"] in ("choose_main_action", "choose_attack", "choose_defense"):
            return "%s %s" % (player_name(record["player"]), text)
        return "%s: %s: %s" % (player_name(record["player"]), record.get("prompt") or record["kind"], text)
    if t == "stat" and "player" in record and record.get("damage") is not None:
        return "%s takes %s damage (HP %s)" % (player_name(record["player"]), record["damage"],
                                               record["value"])
    if t == "attack":
        return "%s attacks" % card_name(record["card"])
    if t == "unite":
        return "%s joins the attack of %s" % (card_name(record["card"]), card_name(record["lead"]))
    if t == "block":
        return "%s blocks %s" % (card_name(record["card"]), card_name(record["lead"]))
    if t == "combat":
        if record.get("blocker") is None:
            return "%s attacks for %s" % (card_name(record["lead"]), record["total"])
        return "Combat: %s (%s) against %s (%s)" % (card_name(record["lead"]), record["total"],
                                                   card_name(record["blocker"]), record.get("blocker_bp"))
    if t == "ko":
        return "%s is knocked out" % card_name(record["card"])
    if t == "coin":
        return "%s calls %s: the coin shows %s" % (player_name(record["player"]), record["call"], record["side"])
    if t == "message":
        return record["text"]
    if t == "gameover":
        if record["winner"] is None:
            return "Game over: a draw (%s)" % record["reason"]
        return "Game over: %s wins (%s)" % (player_name(record["winner"]), record["reason"])
    if t == "rule_error":
        e = record["error"]
        card = e.get("card") or [None, "?"]
        return "Rule error of %s (%s line %s): %s; the effect was undone" % (
            card_name(card[0]) if card[0] is not None else card[1], e.get("file"), e.get("line"), e.get("message"))
    return None
