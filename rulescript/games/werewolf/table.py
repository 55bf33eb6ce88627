"""How a werewolf game looks on a shared table (the game's "table face"; the names are those of
``rulescript/games/cfc/table.py``, which describes each of them, plus the optional ones a game that
deals its own cards and keeps secrets uses; ``docs/octgn-host.md`` lists them all).

* Nobody loads a deck: the game deals one role card per seat from the role list for the number of
  players (``game.yaml`` ``role_lists``, carried into the package by ``GAME_FIELDS``).
* Each player's role card lies face down in front of them; only its owner looks at it (``seen_by``).
  When the player dies (or leaves) it is turned face up and gets the *Dead* marker.  Attributes and
  extra roles lie face down beside it, seen by their owner, and are turned up at death too.
* Teams, polls and groups are face-up element cards in the middle of the table.  Cards that left
  play (an old role after a role change, a removed attribute) go to the owner's *Past* pile, face
  down.
* A night action is the card menu item *Use this role's action* on the player's own role card,
  then a dialog listing the seats it may target; *Decline the action* (table menu) does not use it.
* A vote is a dialog that opens on the voter's client; the votes of a public poll are markers on
  the role cards while it is open (a group's poll, such as the pack's hunt, shows nothing).
* The chat tells the narrative of ``rulescript play --auto``: public lines to everybody, every other
  line whispered to the players who may read it (``audience``).
* Who is asked a night action or a group's vote is not shown to the others (``secret``).
"""
from __future__ import absolute_import, division, print_function

from . import narrative
from .game import WerewolfGame

PILES = [
    {"name": "Past", "zone": "past", "visibility": "none", "ordered": True, "shuffle": False, "view": "collapsed"},
]

COUNTERS = []

MARKERS = [
    {"id": "ww-dead", "name": "Dead", "doc": "the player is dead or left the game"},
    {"id": "ww-votes", "name": "Votes", "doc": "one per vote for the player in the open public poll"},
]

PHASES = [{"name": "Day", "phase": "day"}, {"name": "Night", "phase": "night"}]

DECK_SECTIONS = []

CARD_ACTIONS = [
    {"do": "use_ability", "menu": "Use this role's action"},
]

GAME_ACTIONS = [
    {"do": "decline", "menu": "Decline the action"},
    {"do": "concede", "menu": "Leave the game"},
]

SLOTS = ["role"]

SEATS = [1, 99]

#: the game.yaml fields the package carries for :func:`new_game` and :func:`seat_counts`
GAME_FIELDS = ["role_lists"]


def _role_lists(fields):
    out = {}
    for n, roles in ((fields or {}).get("role_lists") or {}).items():
        out[int(n)] = list(roles)
    return out


def seat_counts(fields):
    """The numbers of players the game has a role list for."""
    return sorted(_role_lists(fields))


def new_game(models, decks, seed, fields, names=None):
    """A new game for ``len(decks)`` seats (nobody loads a deck) and the players' ``names``: the role
    list for that many players, dealt by the game's seeded generator (the headless ``rulescript play``
    deals the same way)."""
    return WerewolfGame(models, _role_lists(fields)[len(decks)], None, seed=seed, names=names)


def view(state, models):
    """The table as ``state`` shows it (the card view of ``cfc/table.py``, ``player`` -1 for the
    middle), each card with its ``model`` (the host makes the cards the game deals) and, for a face-down
    card, ``seen_by``: the seats that look at it."""
    cards = {}
    votes = {}
    for poll in state.get("polls", []):
        if poll.get("open") and poll.get("where") not in state.get("groups", {}):
            for _voter, target in sorted(poll["votes"].items()):
                votes[target] = votes.get(target, 0) + 1
    every = state["cards"]

    over = bool(state.get("over"))
    seats = len(state["players"])

    def card(iid, seat, slot, index, face_up, markers=None, pile=None):
        face_up = face_up or (over and pile is None)  # at the end every card on the table is shown
        cards[iid] = {"player": seat, "pile": pile, "index": index, "slot": slot, "face_up": face_up,
                      "markers": markers or {}, "model": every[iid]["model"],
                      "seen_by": [] if face_up or seat < 0 or pile is not None else [seat]}
        if pile is None and seat >= 0:
            cards[iid]["at"] = ring_place(seat, seats, 0 if slot == "role" else index + 1)

    beside = {}
    for idx, player in enumerate(state["players"]):
        dead = not player["alive"]
        if player["role"] is not None:
            markers = {}
            if dead:
                markers["ww-dead"] = 1
            if votes.get(idx):
                markers["ww-votes"] = votes[idx]
            card(player["role"], idx, "role", 0, dead, markers)
        for iid in player["attrs"] + player["extras"]:
            if iid not in cards:
                card(iid, idx, None, beside.get(idx, 0), dead)
                beside[idx] = beside.get(idx, 0) + 1
    middle = 0
    for iid in state.get("table", []):
        if iid in cards:
            continue
        owner = every[iid]["owner"]
        if owner >= 0:
            card(iid, owner, None, beside.get(owner, 0), not state["players"][owner]["alive"])
            beside[owner] = beside.get(owner, 0) + 1
        else:
            card(iid, -1, None, middle, True)
            middle += 1
    past = {}
    for iid in sorted(every):
        if iid in cards:
            continue
        owner = every[iid]["owner"]
        if owner >= 0:
            card(iid, owner, None, past.get(owner, 0), False, pile="Past")
            past[owner] = past.get(owner, 0) + 1
        else:     # an element of nobody that left play (a disbanded group): face down in the middle
            card(iid, -1, None, middle, False)
            middle += 1
    phase = None
    for p in PHASES:
        if p["phase"] == state["phase"]:
            phase = p["name"]
    return {"cards": cards, "counters": [{} for _ in state["players"]], "active": 0, "phase": phase}


#: OCTGN's table (the package's table: 1000 x 600, centred on 0, 0) and a card's size
TABLE_W, TABLE_H = 1000, 600
CARD_W, CARD_H = 63, 88


PI = 3.141592653589793


def _cos_sin(angle):
    """The cosine and sine of an angle in radians, from their series (the runtime imports nothing, the
    standard library's math included; the arithmetic is the same under Python 2 and 3)."""
    a = angle % (2 * PI)
    if a > PI:
        a -= 2 * PI  # |a| <= pi: the series below is exact to the last bits well before 20 terms
    cos, sin, term_c, term_s = 1.0, a, 1.0, a
    for k in range(1, 20):
        term_c *= -a * a / ((2 * k - 1) * (2 * k))
        term_s *= -a * a / ((2 * k) * (2 * k + 1))
        cos += term_c
        sin += term_s
    return cos, sin


def ring_place(seat, seats, index):
    """Where a player's card lies (its top left corner): the seats on an ellipse inside the table,
    seat 0 at the bottom and the others clockwise; the role card (index 0) on the ring, the player's
    attributes and extra roles (index 1, 2...) fanned towards the middle."""
    rx = TABLE_W / 2.0 - CARD_W - 20
    ry = TABLE_H / 2.0 - CARD_H / 2.0 - 16
    cos, sin = _cos_sin(PI / 2 + 2 * PI * seat / max(seats, 1))
    cx, cy = rx * cos, ry * sin
    shrink = 1.0 - 0.22 * index  # towards the middle, one step per card beside the role
    # (the floor of x + 0.5: Python 2's round() and Python 3's differ on halves)
    x = int((cx * shrink - CARD_W / 2.0 + 0.5) // 1)
    y = int((cy * shrink - CARD_H / 2.0 + 0.5) // 1)
    return x, y


def describe(record, card_name, player_name):
    """The chat line of an effect record: the narrative's line for players (``narrative.player_line``:
    roles, polls and places by name); who may read it is :func:`audience`'s answer.  ``card_name``
    names element ids (roles, teams, polls) too."""
    text = narrative.player_line(record, card_name, player_name)
    return text.strip() if text else None


def question(request, state, card_name, player_name):
    """A decision in words: "Seer - divine a player", "Lynch - vote for a player" (the host's dialog
    title, followed by :func:`closing`, and its "Your decision" line)."""
    kind, prompt = request["kind"], str(request.get("prompt") or "")
    source = state["cards"].get(request.get("source"), {}).get("model") if request.get("source") is not None else None
    owner = card_name(source) if source else ""
    if kind == "use_ability":
        if request["options"] == ["use"]:
            return "%s - %s?" % (owner, narrative.action_words(prompt))
        return "%s - %s a player" % (owner, narrative.action_words(prompt))
    if kind == "vote":
        return "%s - vote for a player" % card_name(prompt)
    if kind == "change_vote":
        return "%s - keep your vote for %s or change it" % (card_name(prompt), player_name(request["options"][0]))
    if kind == "choose_player":
        return "%s - break the tie" % card_name(prompt.split(".")[0])
    return None


def closing(request):
    """What closing the decision's dialog does, said in its title (None: it leaves the question open)."""
    return {"use_ability": "(closing this does not use it)", "vote": "(closing this abstains)",
            "change_vote": "(closing this withdraws your vote)"}.get(request["kind"]) if request.get("cancel") else None


def closed(request, card_name, player_name):
    """What the chat tells the player who closed a dialog that a closing answers (None: nothing)."""
    kind, prompt = request["kind"], str(request.get("prompt") or "")
    if kind == "vote":
        return "You closed the dialog: you abstain in the %s." % card_name(prompt)
    if kind == "change_vote":
        return "You closed the dialog: your vote for %s in the %s is withdrawn." % (
            player_name(request["options"][0]), card_name(prompt))
    if kind == "use_ability":
        return "You closed the dialog: the action is not used."
    return None


def audience(record):
    """None when every player may read the record's line, else the seats that may."""
    return narrative.audience(record)


def menu_for(request):
    """A night action is opened from its card's menu (then a dialog asks the target) and declined from
    the table menu; every other decision opens its dialog at once."""
    if request["kind"] == "use_ability":
        return {"do": "use_ability", "card": request.get("source"), "decline": "decline"}
    return None


def secret(request, state):
    """Whether the other players must not learn who is asked: a night action, and a vote of a poll held
    in a group's channel (the pack's hunt); a vote of a public poll (the lynch) is public."""
    if request["kind"] == "vote":
        for poll in state.get("polls", []):
            if poll.get("open") and poll["poll"] == request.get("prompt"):
                return poll.get("where") in state.get("groups", {})
    return True


def option_text(kind, option, player_name, card_name):
    """Seats are players, ``use`` uses an action without a target, other texts are element ids."""
    if isinstance(option, int) and not isinstance(option, bool):
        return player_name(option)
    if option == "use":
        return "Use it"
    if isinstance(option, str) or type(option).__name__ == "unicode":
        return card_name(option)
    return None
