"""One game as a replay of its inputs: the engine of one OCTGN client.

OCTGN scripts cannot wait for another client, and the game flow lives on the call stack
(``Game.run()`` asks the decider and waits for the answer).  So a :class:`Session` runs the game from
its last checkpoint with the inputs known so far; when the game asks a decision no input answers yet,
the decider raises ``NeedDecision`` and the run stops there (the game object is thrown away; the
state it reached shows what the table should look like while the decision is open).  When the
answer arrives, it is appended to the input log and the game runs again from the checkpoint.
Checkpoints are taken between turns (``run(checkpoint=)``), so a run replays at most one turn.

A run is deterministic (seed, decks, inputs), so each run repeats the effect records of the previous
one up to where that one stopped: only the records after that point are new.

Every input after the head (the start item and the seed shares) carries the token of its seat
(:mod:`auth`): the seat that owns the decision it answers, or the conceding seat.  A run checks the
token of each input the first time it reads it, so an input in another seat's name is refused
(``codec.Forged``) the same way on every client, and the session stays as it was.
"""
from __future__ import absolute_import, division, print_function

from rulescript.runtime.engine import Engine
from rulescript.runtime.errors import NeedDecision
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import ListSink

from . import auth, codec

#: how many checksums a session remembers (a check that arrives later than this is not compared)
KEEP_SUMS = 256


class _Replay(object):
    """The decider of one run: answers from the input log, from ``pos`` on."""

    def __init__(self, log, pos, chains, verified):
        self.log = log
        self.pos = pos
        self.game = None
        self.chains = chains
        self.verified = verified

    def decide(self, request):
        if self.pos >= len(self.log):
            raise NeedDecision(request)
        item, proof = codec.unsign(self.log[self.pos])
        seat = codec.conceding_seat(item)
        if self.pos >= self.verified:
            claimed = seat if seat is not None else request["player"]
            if item[:1] in ("S", "R") or (item[:1] == "Q" and seat is None):
                raise codec.Forged(claimed, "not an input of a running game", item)
            why = self.chains.accept(claimed, proof)
            if why is not None:
                raise codec.Forged(claimed, why, item)
            self.verified = self.pos + 1
        self.pos += 1
        if seat is not None:
            # the game ends (concede raises GameOver), or goes on without that player: the open
            # decision is then declined if it was theirs and may be declined, else asked on
            self.game.concede(seat)
            if request["player"] == seat and request.get("cancel"):
                return None
            return self.decide(request)
        return codec.decode_answer(request, item)


class Session(object):
    """The engine of one client.  ``head``: the start item and the seed shares (see :mod:`codec`);
    ``decks`` the card ids of each seat's deck, in the canonical order of the start item; ``ends`` the
    end of each seat's hash chain; ``new_game(models, decks, seed)``, when given, makes the new game
    instead of ``Game(models, decks, None, seed=seed)``.

    After every :meth:`add`: ``state`` is the state where the game stopped, ``pending`` the decision it
    waits for (None when the game is over) and ``result`` the result once it is over.  :meth:`digest`
    gives the checksum of the state where the game stopped, and remembers it in ``sums[n]`` (``n``: the
    number of items); the decision log is left out of it (it follows from the inputs, which clients
    compare as they receive them).
    """

    def __init__(self, package, models, rules, head, decks, seed, ends, new_game=None):
        self.package = package
        self.models = models
        self.seed = seed
        self.decks = decks
        # the game's own copy of its state when it has one (faster than the generic deep copy)
        self.copy = getattr(package, "copy_state", deep_copy)
        self.engine = Engine(rules, game=package, copier=self.copy)
        if new_game is not None:   # the table face's own start (a game that deals roles itself...)
            game = new_game(models, decks, seed)
        else:
            game = package.Game(models, decks, None, seed=seed)
        self.initial = game.state
        self.log = list(head)   # the start item and the seed shares
        self.head = len(head)
        self.chains = auth.Chains(ends)
        self.verified = self.head   # inputs before this index had their tokens checked
        self.ckpt = self.copy(game.state)
        self.ckpt_at = self.head  # log index of the first input after the checkpoint
        self.ckpt_seen = 0      # records emitted after the checkpoint and already delivered
        self.state = game.state
        self.pending = None
        self.result = None
        self.sums = {}
        self.ckpt_sum = None    # the checksum of ``ckpt`` (computed once per checkpoint)
        self.tail = []          # running checksums of the effect records from the checkpoint on
        self.runs = 0

    @property
    def over(self):
        return self.result is not None

    def add(self, items):
        """Append input items and run to the next stop; return the new effect records.

        Raises ``codec.InputError`` (and leaves the session as it was) when an item does not fit."""
        n = len(self.log)
        self.log.extend(items)
        try:
            return self.run()
        except Exception:
            del self.log[n:]
            raise

    def run(self):
        saved = (self.ckpt, self.ckpt_at, self.ckpt_seen, self.ckpt_sum, self.tail)
        dec = _Replay(self.log, self.ckpt_at, self.chains.copy(), self.verified)
        sink = ListSink()
        game = self.package.Game(self.models, decider=dec, sink=sink, rules=self.engine,
                                 state=self.copy(self.ckpt))
        dec.game = game
        self.engine.stack = []
        self.engine.errors = []
        seen = self.ckpt_seen
        mark = [None]

        def checkpoint(g):
            self.ckpt = self.copy(g.state)
            self.ckpt_sum = None
            self.tail = []
            self.ckpt_at = dec.pos
            mark[0] = len(sink.records)

        pending = None
        result = None
        try:
            try:
                result = game.run(checkpoint=checkpoint)
            except NeedDecision as need:
                pending = need.request
            if dec.pos < len(self.log):
                # the run stops at a decision only once every input is read (NeedDecision), so an input
                # left is one after the end of the game: nobody decides, it is nobody's input
                raise codec.Forged(None, "an input after the end of the game", self.log[dec.pos])
        except Exception:
            self.ckpt, self.ckpt_at, self.ckpt_seen, self.ckpt_sum, self.tail = saved
            raise
        self.runs += 1
        self.chains = dec.chains
        self.verified = max(self.verified, dec.verified)
        records = sink.records[seen:]
        self.ckpt_seen = len(sink.records) - (mark[0] or 0)
        # a run repeats the records of the previous one from the same checkpoint: each record's
        # running checksum is computed once
        tail = self.tail
        for rec in sink.records[(mark[0] or 0) + len(tail):]:
            tail.append(codec.checksum([tail[-1] if tail else "", rec]))
        self.state = game.state
        self.pending = pending
        self.result = result
        return records

    def digest(self):
        """The checksum of the game after the items so far (computed once per count): of the state at
        the checkpoint (the whole state, once per checkpoint), of every effect record since and of the
        decision the game waits for.  An engine whose state differs from the others' shows it in its
        effects at once, and in the state itself at the next checkpoint (the start of the next turn):
        hashing the whole state after every input would cost more than the rest of an action."""
        n = len(self.log)
        d = self.sums.get(n)
        if d is None:
            if self.ckpt_sum is None:
                self.ckpt_sum = codec.checksum(self.ckpt, skip=("log",))
            d = self.sums[n] = codec.checksum([self.ckpt_sum, self.tail[-1] if self.tail else "", self.pending])
            if len(self.sums) > KEEP_SUMS:
                for k in sorted(self.sums)[:len(self.sums) - KEEP_SUMS]:
                    del self.sums[k]
        return d

    def since_checkpoint(self):
        """``(index of the first item after the checkpoint, those items)``."""
        return self.ckpt_at, self.log[self.ckpt_at:]
