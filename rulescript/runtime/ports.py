"""The ports between the game and the outside world, and the checks on decisions.

* Decider: any object with ``decide(request) -> answer`` (see :func:`check_answer`).
* Effect sink: any object with ``emit(record)``; :class:`NullSink` drops, :class:`ListSink` keeps.
* Rules port: the object the game calls so that card rules can run; :class:`NoRules` is the correct
  behaviour for cards without rules. docs/runtime.md describes each method.
"""
from __future__ import absolute_import, division, print_function

from . import rng as _rng
from .errors import GameError, InvalidDecision
from .plain import deep_copy

#: Decisions whose answer is one option (or None when the request allows cancelling).
SINGLE_KINDS = ("choose_main_action", "choose_attack", "choose_defense", "choose_action",
                "choose_type", "choose_player", "choose_ring", "choose_slot", "yes_no",
                "top_or_bottom", "coin_call", "use_ability", "vote", "change_vote")
#: Decisions whose answer is a list: choose_targets (a selection), arrange (an order of all options).
LIST_KINDS = ("choose_targets", "arrange")
KINDS = SINGLE_KINDS + LIST_KINDS


def make_request(kind, player, options, mn=1, mx=1, prompt="", source=None, cancel=False):
    """Build a decision request (a plain dict)."""
    if kind not in KINDS:
        raise ValueError("unknown decision kind %r" % (kind,))
    return {"kind": kind, "player": player, "options": options, "min": mn, "max": mx,
            "prompt": prompt, "source": source, "cancel": bool(cancel)}


def index_of(options, value):
    """Index of the option equal to ``value`` (a bool never stands for an int or the reverse), or -1."""
    vb = isinstance(value, bool)
    for i, o in enumerate(options):
        if o == value and isinstance(o, bool) == vb:
            return i
    return -1


def check_answer(request, answer):
    """Validate ``answer`` for ``request`` and return it in canonical form (raises InvalidDecision).

    Single kinds: the answer is one element of ``options`` (or None if ``cancel`` is true).
    ``choose_targets``: a list of distinct options, min <= len <= max (or None if ``cancel``).
    ``arrange``: a list holding every option exactly once (the new order).
    """
    kind = request["kind"]
    options = request["options"]
    if answer is None:
        if request.get("cancel"):
            return None
        raise InvalidDecision(request, answer, "this decision cannot be cancelled")
    if kind in SINGLE_KINDS:
        i = index_of(options, answer)
        if i < 0:
            raise InvalidDecision(request, answer, "not one of the options")
        return options[i]
    if type(answer) is not list:
        raise InvalidDecision(request, answer, "a list is expected")
    used = []
    out = []
    for a in answer:
        i = index_of(options, a)
        if i < 0:
            raise InvalidDecision(request, answer, "%r is not one of the options" % (a,))
        if i in used:
            raise InvalidDecision(request, answer, "%r is given twice" % (a,))
        used.append(i)
        out.append(options[i])
    if kind == "arrange":
        if len(out) != len(options):
            raise InvalidDecision(request, answer, "every option must be placed exactly once")
        return out
    if len(out) < request["min"] or len(out) > request["max"]:
        raise InvalidDecision(request, answer, "between %s and %s choices are needed" % (
            request["min"], request["max"]))
    return out


class NullSink(object):
    """An effect sink that drops every record."""

    def emit(self, record):
        pass


class ListSink(object):
    """An effect sink that keeps every record in ``self.records``."""

    def __init__(self):
        self.records = []

    def emit(self, record):
        self.records.append(record)


class NoRules(object):
    """The rules port for games whose cards have no rules: nothing listens, nothing resolves.

    The RuleScript executor implements the same methods (docs/runtime.md, "Rules port").
    """

    def start(self, game):
        """Called once after setup (decks shuffled, hands drawn), before the first turn."""

    def card_entered_play(self, game, iid):
        """A card entered a ring or the table: load its rules (abilities, static autos, listeners)."""

    def card_left_play(self, game, iid):
        """A card left its ring or the table (its own ``removed`` listeners already ran)."""

    def has_action(self, game, iid):
        """True if the card's current rules hold an ``action`` a player can activate."""
        return False

    def resolve_action(self, game, iid, why):
        """Resolve the card's action. ``why``: 'action', 'reaction', 'instant' or 'trigger'.

        Returns False/None if the resolution stopped, True if it resolved, or 'clear' if it
        resolved and ran ``clear()`` (the trigger ability is then not marked used).
        """
        return False

    def fire(self, game, event, player, obj=None, trigger=None, bindings=None):
        """An event happened; run the matching listeners."""

    def ask_hook(self, game, hook, player, obj=None, trigger=None, bindings=None):
        """Ask a hook; return the list of verdicts (bools) of the listeners that matched."""
        return []

    def work(self, game, n):
        """The game did ``n`` units of visible work (records emitted); a rule engine charges them
        to the budget of the resolution that is running, if any."""

    def probe_hook(self, game, hook, player, obj=None, trigger=None, bindings=None):
        """The verdicts ``ask_hook`` would give, leaving no trace (no state change, no question, no
        record); None if only asking a player could tell.  Used to offer only legal options."""
        return []

    def cost_adjustment(self, game, kind, player, card, paying):
        """Fire ``beforepaycost<kind>``; return the sum of the ``modCost`` amounts (M)."""
        return 0

    def damage_adjustment(self, game, source, player):
        """Fire ``beforedamage`` for non-character ``source`` damaging ``player``; return the sum."""
        return 0


class GamePorts(object):
    """What every game does the same way through its ports (a mixin): effects go to ``self.sink`` and
    count against the running resolution's budget, decisions go to ``self.decider`` and are checked
    and logged, events go to ``self.rules``, chance comes from the generator in ``self.state``.  A
    game refuses a request it cannot put to a player in :meth:`check_request`."""

    def emit(self, record):
        self.sink.emit(record)
        work = getattr(self.rules, "work", None)
        if work is not None:  # a resolution's effects count against its budget (docs/runtime.md)
            work(self, 1)

    def check_request(self, kind, options, mn, mx, prompt):
        """Raise GameError when the request cannot be answered (by default any request can)."""

    def ask(self, kind, player, options, mn=1, mx=1, prompt="", source=None, cancel=False):
        """Put a decision to ``player`` through the decider; validate and log the answer."""
        if self.decider is None:
            raise GameError("no decider to answer %s" % kind)
        self.check_request(kind, options, mn, mx, prompt)
        req = make_request(kind, player, options, mn, mx, prompt, source, cancel)
        answer = check_answer(req, self.decider.decide(req))
        self.state["log"].append([kind, player, deep_copy(answer)])
        self.emit({"type": "decision", "kind": kind, "player": player, "answer": answer, "prompt": prompt})
        return answer

    def fire(self, event, player, obj=None, trigger=None, bindings=None):
        self.rules.fire(self, event, player, obj, trigger, bindings)

    def randbelow(self, n):
        return _rng.randbelow(self.state["rng"], n)

    def shuffle_list(self, items):
        return _rng.shuffle(self.state["rng"], items)
