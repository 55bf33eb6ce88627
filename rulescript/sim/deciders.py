"""Deciders for the headless host: scripted, seeded random, interactive (terminal)."""
from __future__ import annotations

import sys
from typing import Any

from rulescript.runtime.errors import Interrupt, InvalidDecision
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import LIST_KINDS
from rulescript.runtime.rng import Rng

STOP_WORDS = ("pass", "done")


class DecisionsExhausted(Interrupt, RuntimeError):
    """A scripted decider was asked more questions than it had answers for."""


class ReplayDiverged(Interrupt, RuntimeError):
    """A replayed game asked a different question than the one recorded."""


def replay_to_end(game, decider, partial=False, ended_by=()):
    """Run ``game`` whose ``decider`` answers from a recorded log, and return it.

    An exception of ``ended_by`` ends the replay as it ended the recorded game (the werewolf game
    records an engine error); an answer the question does not allow (InvalidDecision) and another
    question than the one recorded (ReplayDiverged) are raised.  With ``partial``, a log that ends
    before the game does replays up to its last decision and ``game.replay_stopped`` is the number of
    decisions replayed (else None).  A log with decisions after the game's end is not the log of this
    game (ReplayDiverged)."""
    game.replay_stopped = None
    try:
        game.run()
    except InvalidDecision:
        raise
    except ended_by:
        pass
    except DecisionsExhausted:
        if not partial:
            raise
        game.replay_stopped = decider.pos
        return game
    extra = len(decider.answers) - decider.pos
    if extra > 0:
        raise ReplayDiverged("the log holds %d decision(s) after the game's end (the first: %r)"
                             % (extra, decider.answers[decider.pos]))
    return game


class InputEnded(Interrupt, EOFError):
    """The interactive decider's input ended (an EOFError that passes through resolutions)."""


class ScriptedDecider:
    """Answers from a list, in order.

    Each item is either an answer, or a recorded log entry ``[kind, player, answer]`` (with
    ``strict=True``, the request's kind and player must then match the recording).
    """

    def __init__(self, answers, strict=False):
        self.answers = list(answers)
        self.pos = 0
        self.strict = strict

    def decide(self, request):
        if self.pos >= len(self.answers):
            raise DecisionsExhausted(
                "scripted decider has no answer left (used %d) for %s of player %s: %s; options: %r"
                % (self.pos, request["kind"], request["player"], request["prompt"], request["options"]))
        item = self.answers[self.pos]
        self.pos += 1
        if self.strict:
            kind, player, answer = item
            if kind != request["kind"] or player != request["player"]:
                raise ReplayDiverged("decision %d: recorded %s of player %s, but the game asks %s of "
                                     "player %s" % (self.pos - 1, kind, player, request["kind"],
                                                    request["player"]))
            return answer
        return item

    @property
    def remaining(self):
        return len(self.answers) - self.pos


class RandomDecider:
    """Always a valid answer, chosen with its own seeded generator.

    In the Main, Attack and Defense loops it passes with probability ``stop`` so that turns end.
    """

    def __init__(self, seed=0, stop=0.3):
        self.rng = Rng(seed)
        self.stop_per_mille = int(stop * 1000)

    def decide(self, request):
        opts = request["options"]
        kind = request["kind"]
        r = self.rng
        if kind == "arrange":
            order = list(opts)
            r.shuffle(order)
            return order
        if kind in LIST_KINDS:
            lo = request["min"]
            hi = min(request["max"], len(opts))
            n = lo + r.randbelow(hi - lo + 1) if hi >= lo else lo
            pool = list(opts)
            r.shuffle(pool)
            return pool[:n]
        if not opts:
            return None
        stops = [o for o in opts if isinstance(o, dict) and o.get("do") in STOP_WORDS]
        if stops and r.randbelow(1000) < self.stop_per_mille:
            return stops[0]
        return r.choice(opts)


class InteractiveDecider:
    """Asks on a terminal. ``describe(option, kind) -> str`` names options (e.g. card names)."""

    def __init__(self, input=None, output=None, describe=None):
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.describe = describe or (lambda option, kind: repr(option))

    def _say(self, text):
        self.output.write(text + "\n")
        self.output.flush()

    def decide(self, request):
        opts = request["options"]
        kind = request["kind"]
        head = "[player %s] %s: %s" % (request["player"], kind, request["prompt"])
        while True:
            self._say(head)
            for i, o in enumerate(opts):
                self._say("  %d) %s" % (i + 1, self.describe(o, kind)))
            if kind == "arrange":
                hint = "order as numbers separated by spaces (all of them)"
            elif kind in LIST_KINDS:
                hint = "choose %s to %s numbers separated by spaces" % (request["min"], request["max"])
            else:
                hint = "choose a number"
            if request.get("cancel"):
                hint += ", or 0 to cancel"
            self.output.write(hint + "> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                raise InputEnded("input ended while waiting for a %s decision" % kind)
            words = line.replace(",", " ").split()
            try:
                nums = [int(w) for w in words]
            except ValueError:
                self._say("please type numbers")
                continue
            if request.get("cancel") and nums == [0]:
                return None
            if any(n < 1 or n > len(opts) for n in nums):
                self._say("numbers go from 1 to %d" % len(opts))
                continue
            picked = [opts[n - 1] for n in nums]
            if kind in LIST_KINDS:
                if len(set(nums)) != len(nums):
                    self._say("each number once")
                    continue
                if kind == "arrange" and len(nums) != len(opts):
                    self._say("give all %d numbers" % len(opts))
                    continue
                if kind != "arrange" and not (request["min"] <= len(nums) <= request["max"]):
                    self._say("choose between %s and %s" % (request["min"], request["max"]))
                    continue
                return picked
            if len(picked) != 1:
                self._say("choose exactly one")
                continue
            return picked[0]


class PrefixDecider:
    """The decider of an interactive session (``play``): the recorded prefix first (a replay after an
    undo or a load), then :meth:`live`; every answer given is kept in ``given`` (the next save's
    decisions).  ``session`` has ``replaying`` and ``out``: the first live answer after a replay says
    "(the game continues)"."""

    def __init__(self, session: Any, prefix: list[Any], random_seed: int) -> None:
        self.session = session
        self.prefix = list(prefix)
        self.given: list[Any] = []
        self.random = RandomDecider(random_seed)

    def decide(self, req: dict[str, Any]) -> Any:
        if len(self.given) < len(self.prefix):
            answer = self.recorded(req, self.prefix[len(self.given)])
        else:
            s = self.session
            if s.replaying:
                s.replaying = False
                s.out.write("(the game continues)\n")
            answer = self.live(req)
        self.given.append(deep_copy(answer))
        return answer

    def recorded(self, req: dict[str, Any], answer: Any) -> Any:
        """The prefix's answer to ``req`` (a subclass may check it)."""
        return answer

    def live(self, req: dict[str, Any]) -> Any:
        raise NotImplementedError
