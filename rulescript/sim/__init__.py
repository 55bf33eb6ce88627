"""Headless host for the runtime: card data loading, deciders, game logs, replays, simulations.

    from rulescript.sim import load_game, play_game, replay, simulate
"""
from rulescript.sim.cards import GameData, load_game
from rulescript.sim.deciders import InteractiveDecider, RandomDecider, ScriptedDecider
from rulescript.sim.gamelog import format_record, play_game, print_game, replay
from rulescript.sim.simulate import simulate

__all__ = ["GameData", "load_game", "InteractiveDecider", "RandomDecider", "ScriptedDecider",
           "format_record", "play_game", "print_game", "replay", "simulate"]
