"""The games the engine can play, one package per game (``rulescript/games/<name>/``).

A game package holds its profile (``profile.yaml``: the vocabulary the compiler checks rules
against), its runtime modules (the game flow and the implementation of its commands) and its
generated reference (``reference.md``).  The runtime modules are written in the common subset of
Python 2.7 and 3 so that they ship unchanged inside an OCTGN package.

Every game package exposes the same names at its top level:

``NAME``      the profile name (``game.yaml``'s ``profile:``)
``Game``      the game class: ``Game(models, decks, decider, sink=, rules=, seed=, ...)``
``commands``  the module the rule engine calls for commands, abilities and costs
``VOCAB``     the vocabulary object of expressions and target filters

and a table face, the module ``table`` (see ``cfc/table.py``): how the game looks on a shared table.

What a table host (the OCTGN host, ``octgn_pack/host``) needs of ``Game``, beyond the constructor:
``Game(models, decider=, sink=, rules=, state=saved)`` continues a saved state; ``run(checkpoint=None)``
plays to the end and calls ``checkpoint(game)`` at every point where the state can be saved and resumed
exactly (between turns); ``concede(player)`` ends the game with ``player`` giving up.  The host plays a
game as a replay of its inputs: its decider raises ``runtime.errors.NeedDecision`` when it has no answer
yet, which every part of the game and of the rule engine lets pass.
"""
from __future__ import absolute_import, division, print_function


def load(name):
    """The game package called ``name`` (``"cfc"``); ImportError when there is none."""
    if not name or not all(c.isalnum() or c == "_" for c in name):
        raise ImportError("not a game name: %r" % (name,))
    return __import__(__name__ + "." + name, globals(), {}, ["NAME"], 0)
