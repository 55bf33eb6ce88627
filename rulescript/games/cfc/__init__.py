"""Card Fighters' Clash: the profile (``profile.yaml``), the game flow and the CFC commands."""
from __future__ import absolute_import, division, print_function

from . import commands
from .data import copy_state
from .game import CfcGame as Game
from .vocab import VOCAB

NAME = "cfc"

__all__ = ["NAME", "Game", "commands", "copy_state", "VOCAB"]
