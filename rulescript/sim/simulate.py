"""Many random games in a row: speed, game length, wins and engine errors."""
from __future__ import annotations

import time

from rulescript.runtime.rng import Rng
from rulescript.sim.cards import load_game
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game


def simulate(game_dir, games=100, seed=0, progress=None, turn_limit=200, data=None, rules=None,
             rules_factory=None):
    """Play ``games`` random games of the game in ``game_dir``.

    Decks are drawn from the folder's decks for each game. ``progress(done, total)`` is called
    after every game. ``rules_factory()`` makes a fresh rules port (an Engine) for each game; a
    game whose engine recorded rule errors counts as an engine error too. Returns a dict: games,
    seconds, games_per_s, turns_per_game, wins ([player 0, player 1]), draws, turn_limit_draws,
    errors, rule_errors, error_samples (up to 5 logs).
    """
    data = data or load_game(game_dir)
    names = data.deck_names()
    if not names:
        raise ValueError("%s has no decks" % game_dir)
    rng = Rng(seed)
    wins = [0, 0]
    draws = 0
    limit_draws = 0
    errors = 0
    rule_errors = 0
    samples = []
    turns = 0
    t0 = time.perf_counter()
    for i in range(games):
        gseed = rng.u32()
        decks = [rng.choice(names), rng.choice(names)]
        decider = RandomDecider(rng.u32())
        port = rules_factory() if rules_factory is not None else rules
        game, log = play_game(data, decks, gseed, decider, turn_limit=turn_limit, rules=port)
        turns += game.state["turn"]
        found = list(getattr(port, "errors", None) or []) if rules_factory is not None else []
        if found:
            rule_errors += len(found)
            log["rule_errors"] = found
            if not log["error"]:
                log["error"] = "rule error %s: %s" % (found[0]["code"], found[0]["message"])
        if log["error"]:
            errors += 1
            if len(samples) < 5:
                samples.append(log)
        elif game.state["winner"] is None:
            draws += 1
            if game.state["reason"] and game.state["reason"].startswith("turn limit"):
                limit_draws += 1
        else:
            wins[game.state["winner"]] += 1
        if progress is not None:
            progress(i + 1, games)
    secs = time.perf_counter() - t0
    return {"games": games, "seconds": secs, "games_per_s": games / secs if secs > 0 else 0.0,
            "turns_per_game": turns / games if games else 0.0, "wins": wins, "draws": draws,
            "turn_limit_draws": limit_draws, "errors": errors, "rule_errors": rule_errors,
            "error_samples": samples}
