"""The werewolf game: WWRF roles played by the RuleScript engine (``profile.yaml``, the night/day flow,
the commands of WWRF abilities, the vocabulary of expressions and filters, the table face)."""
from __future__ import absolute_import, division, print_function

from . import commands
from .game import WerewolfGame as Game
from .vocab import VOCAB

NAME = "werewolf"

__all__ = ["NAME", "Game", "commands", "VOCAB"]
