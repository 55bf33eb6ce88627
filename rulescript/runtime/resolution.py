"""What one resolution of a rule knows, and the values expressions work on.

A :class:`Resolution` is transient (it lives while one action, auto or hook runs); the game state it
changes is plain data.  Expression values are ints, strings, bools, None, lists, and the two
reference types below, so that a card can never be mistaken for a number.
"""
from __future__ import absolute_import, division, print_function

#: The evaluation steps one resolution may spend, nested resolutions included (docs/runtime.md,
#: "Limits"): an evaluation costs about one step per four characters of its text, each element a
#: quantifier or each visits the size of its element expression, each command run COMMAND_STEPS,
#: each nested resolution RESOLUTION_STEPS, and work on data one step per element.
MAX_STEPS = 200000
COMMAND_STEPS = 50
RESOLUTION_STEPS = 50
#: each record the game emits while a resolution runs (a card moved, a stat changed...)
RECORD_STEPS = 5


class Card(object):
    """A card in an expression: a reference to a card instance of the game state."""

    __slots__ = ("iid",)

    def __init__(self, iid):
        self.iid = iid

    def __eq__(self, other):
        return isinstance(other, Card) and other.iid == self.iid

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("card", self.iid))

    def __repr__(self):
        return "Card(%r)" % (self.iid,)


class Player(object):
    """A player in an expression: a seat index (0 or 1 in a two-player game)."""

    __slots__ = ("idx",)

    def __init__(self, idx):
        self.idx = idx

    def __eq__(self, other):
        return isinstance(other, Player) and other.idx == self.idx

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("player", self.idx))

    def __repr__(self):
        return "Player(%r)" % (self.idx,)


class RuleError(Exception):
    """A run-time error of a rule (RS5xx): it aborts the resolution, which restores the state.

    ``at`` is ``[line, col, end_col]`` in ``file``; ``text`` the source of the expression or
    command; ``values`` a list of (name, value) pairs worth showing.
    """

    def __init__(self, code, message, file=None, at=None, text=None, values=None):
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.file = file
        self.at = at
        self.text = text
        self.values = values or []
        self.card = None  # filled in by the engine: (iid, model id)
        self.why = None   # what started the resolution


class OverBudget(RuleError):
    """RS514: a resolution used up its evaluation steps.  Its nested resolutions share its budget,
    so the error ends the whole cascade: the outermost resolution restores the state."""


class NoTargets(Exception):
    """A required filter found nothing: the statement (and the later ones) are skipped."""


class Cancelled(Exception):
    """The player cancelled a decision that allows it (choose_action, the target property)."""


class Resolution(object):
    """The context of one resolution.

    ``game``: the game (for CFC, CfcGame); ``engine``: the rule engine; ``source``: iid of ``this``;
    ``controller``: index of ``me``; ``rule``: the rule's IR; ``file``: the rule's file;
    ``tgt``: the rule targets R (a list) or None when unset; ``prev``: the previous statement's
    targets; ``vars``: user variables; ``results``: the result lists the game's vocabulary names
    (``vocab.result_names``: for CFC discarded, trashed, destroyed, moved, sacrificed); ``event``: None or {"name", "player", "obj", "trigger", "bindings"};
    ``elements``: the stack of quantifier / each elements (Card or Player values);
    ``adjust``: the pending cost or damage adjustment of a beforepaycost/beforedamage listener
    ({"kind": ..., "sum": n}) or None; ``why``: what started it, for messages; ``budget``: a
    one-element list, the evaluation steps left (shared with the nested resolutions of a cascade).
    """

    def __init__(self, game, engine, source, controller, rule, why, event=None):
        self.game = game
        self.engine = engine
        self.source = source
        self.controller = controller
        self.rule = rule
        self.file = rule["src"][0] if rule else None
        self.why = why
        self.event = event
        self.tgt = None
        self.prev = []
        self.vars = {}
        self.results = {}
        for name in getattr(getattr(engine, "vocab", None), "result_names", ()):
            self.results[name] = []
        self.elements = []
        self.adjust = None
        self.cleared = False
        self.lasting_ids = []
        self.snapshot = None  # the state before this resolution (set by the engine)
        self.preselected = None  # targets picked with the activation request (Card/Player values)
        self.budget = [MAX_STEPS]

    @property
    def opponent(self):
        return 1 - self.controller

    def fail(self, code, message, at=None, text=None, values=None):
        return RuleError(code, message, self.file, at, text, values)
