"""Exceptions raised by the runtime."""
from __future__ import absolute_import, division, print_function


class GameError(Exception):
    """A rule of the game was broken by a caller (an illegal operation or a bad state)."""


class InvalidDecision(GameError):
    """A decider returned an answer that is not valid for the request it was given."""

    def __init__(self, request, answer, why):
        GameError.__init__(self, "invalid answer %r to %s for player %s: %s (options: %r)" % (
            answer, request.get("kind"), request.get("player"), why, request.get("options")))
        self.request = request
        self.answer = answer
        self.why = why


class GameOver(Exception):
    """Raised inside the game as soon as it ends; the flow catches it. Rule engines must let it pass."""

    def __init__(self, winner, reason):
        Exception.__init__(self, "game over: winner=%r (%s)" % (winner, reason))
        self.winner = winner
        self.reason = reason


class Interrupt(Exception):
    """Raised by a host (through its decider) to unwind the game: undo, load, quit, a scripted
    decider that has no answer left.  Rule engines let it pass through a resolution untouched (as
    ``GameOver``); every other exception raised inside a resolution is caught there."""


class NeedDecision(Interrupt):
    """Raised by a decider that does not have the answer to ``request`` yet (a host that plays a game
    as a replay of its inputs, such as the OCTGN host).  The run stops where it is; the host throws the
    game away and runs again from a checkpoint once the answer is known.  An :class:`Interrupt`: a rule
    engine lets it pass (it is neither a rule error nor an invalid decision)."""

    def __init__(self, request):
        Exception.__init__(self, "no answer yet to %s of player %s" % (request.get("kind"),
                                                                        request.get("player")))
        self.request = request
