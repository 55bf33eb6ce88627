"""Many random games in a row: speed, game length, wins, engine errors and rule coverage.

Every game is fixed by a spec drawn up front from the run's seed (game seed, the two decks, the
decider's seed), so the games can be spread over processes (``jobs``) and merged back in game order:
a run with ``jobs=N`` gives exactly the results of the serial run with the same seed.
"""
from __future__ import annotations

import multiprocessing
import time
from typing import Any

from rulescript.runtime.rng import Rng
from rulescript.sim.cards import load_game
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game

MAX_SAMPLES = 5


def game_specs(names: list[str], games: int, seed: int) -> list[tuple[int, str, str, int]]:
    """(game seed, deck 0, deck 1, decider seed) of every game of a run, in game order."""
    rng = Rng(seed)
    out = []
    for _ in range(games):
        gseed = rng.u32()
        decks = (rng.choice(names), rng.choice(names))
        out.append((gseed, decks[0], decks[1], rng.u32()))
    return out


def play_one(data: Any, spec: tuple[int, str, str, int], turn_limit: int, port: Any, fresh_port: bool) -> dict:
    """Play one game of a run; a compact, picklable summary (the log only when something went wrong)."""
    gseed, d0, d1, dseed = spec
    game, log = play_game(data, [d0, d1], gseed, RandomDecider(dseed), turn_limit=turn_limit, rules=port)
    found = list(getattr(port, "errors", None) or []) if fresh_port else []
    if found:
        log["rule_errors"] = found
        if not log["error"]:
            log["error"] = "rule error %s: %s" % (found[0]["code"], found[0]["message"])
    st = game.state
    return {"seed": gseed, "turns": st["turn"], "winner": st["winner"], "reason": st["reason"],
            "error": log["error"], "rule_errors": found,
            "ran": sorted(getattr(port, "ran", None) or []) if fresh_port else [],
            "log": log if log["error"] else None}


# ------------------------------------------------------------------------ worker processes
_WORKER: dict[str, Any] = {}


def _worker_init(data: Any, rules_ir: dict, turn_limit: int) -> None:
    _WORKER.update(data=data, rules=rules_ir, turn_limit=turn_limit)


def _worker_play(spec: tuple[int, str, str, int]) -> dict:
    from rulescript.sim.host import new_engine

    rules = _WORKER["rules"]
    port = new_engine(rules) if rules is not None else None
    return play_one(_WORKER["data"], spec, _WORKER["turn_limit"], port, rules is not None)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


# ------------------------------------------------------------------------ the run
def simulate(game_dir, games=100, seed=0, progress=None, turn_limit=200, data=None, rules=None,
             rules_factory=None, jobs=1, rules_ir=None):
    """Play ``games`` random games of the game in ``game_dir``.

    Decks are drawn from the folder's decks for each game. ``progress(done, total)`` is called
    after every game (in game order). ``rules_factory()`` makes a fresh rules port (an Engine) for
    each game; a game whose engine recorded rule errors counts as an engine error too. With
    ``jobs`` > 1 the games are played by that many processes, each making its engines from
    ``rules_ir`` (the compiled rules; required then). Returns a dict: games, jobs, seconds,
    games_per_s, turns_per_game, wins ([player 0, player 1]), draws, turn_limit_draws, errors,
    rule_errors, error_groups (every error, grouped by rule and message), error_samples (up to 5
    logs) and, when the rules are known (``rules_ir``), coverage.
    """
    data = data or load_game(game_dir)
    names = data.deck_names()
    if not names:
        raise ValueError("%s has no decks" % game_dir)
    specs = game_specs(names, games, seed)
    t0 = time.perf_counter()
    results = _play_all(data, specs, turn_limit, rules, rules_factory, jobs, rules_ir, progress)
    secs = time.perf_counter() - t0
    out = summarise(results, data, rules_ir)
    out.update(seconds=secs, games_per_s=games / secs if secs > 0 else 0.0, jobs=max(1, int(jobs or 1)))
    return out


def _play_all(data, specs, turn_limit, rules, rules_factory, jobs, rules_ir, progress) -> list[dict]:
    total = len(specs)
    results: list[dict] = []
    if jobs and jobs > 1 and total > 1:
        if rules_ir is None and (rules_factory is not None or rules is not None):
            raise ValueError("simulate with jobs > 1 needs rules_ir (the compiled rules) to build engines")
        ctx = _context()
        chunk = max(1, min(16, total // (jobs * 8) or 1))
        with ctx.Pool(jobs, initializer=_worker_init, initargs=(data, rules_ir, turn_limit)) as pool:
            for r in pool.imap(_worker_play, specs, chunksize=chunk):  # imap keeps game order
                results.append(r)
                if progress is not None:
                    progress(len(results), total)
        return results
    for spec in specs:
        port = rules_factory() if rules_factory is not None else rules
        results.append(play_one(data, spec, turn_limit, port, rules_factory is not None))
        if progress is not None:
            progress(len(results), total)
    return results


def summarise(results: list[dict], data: Any, rules_ir: dict | None) -> dict:
    """Merge per-game summaries (in game order) into the run's numbers."""
    wins = [0, 0]
    draws = limit_draws = errors = rule_errors = turns = 0
    samples: list[dict] = []
    groups: dict[tuple, dict] = {}
    ran: set[str] = set()
    for r in results:
        turns += r["turns"]
        ran.update(r["ran"])
        rule_errors += len(r["rule_errors"])
        for rec in r["rule_errors"]:
            _group(groups, rec, r["seed"], data)
        if r["error"] and not r["rule_errors"]:
            _group(groups, {"code": "engine", "message": r["error"], "card": None}, r["seed"], data)
        if r["error"]:
            errors += 1
            if len(samples) < MAX_SAMPLES:
                samples.append(r["log"])
        elif r["winner"] is None:
            draws += 1
            if r["reason"] and r["reason"].startswith("turn limit"):
                limit_draws += 1
        else:
            wins[r["winner"]] += 1
    n = len(results)
    out = {"games": n, "turns_per_game": turns / n if n else 0.0, "wins": wins, "draws": draws,
           "turn_limit_draws": limit_draws, "errors": errors, "rule_errors": rule_errors,
           "error_groups": sorted(groups.values(), key=lambda g: (-g["count"], g["first_game"])),
           "error_samples": samples}
    if rules_ir is not None:
        out["coverage"] = coverage(rules_ir, ran, groups, data)
    for g in groups.values():
        g.pop("_seen", None)
    return out


def _group(groups: dict, rec: dict, gseed: int, data: Any) -> None:
    card = rec.get("card") or [None, None]
    rule = card[1] if len(card) > 1 else None
    key = (rec.get("code"), rec.get("message"), rule)
    g = groups.get(key)
    if g is None:
        model = data.models.get(rule) if rule else None
        g = groups[key] = {"code": rec.get("code"), "message": rec.get("message"), "rule": rule,
                           "card": model["name"] if model else None, "file": rec.get("file"),
                           "line": rec.get("line"), "col": rec.get("col"), "count": 0, "games": 0,
                           "first_game": gseed, "_seen": set()}
    g["count"] += 1
    if gseed not in g["_seen"]:
        g["_seen"].add(gseed)
        g["games"] += 1


def coverage(rules_ir: dict, ran: set[str], groups: dict, data: Any) -> dict:
    """Which rules resolved at least once, which were never reached, which raised errors; a rule with
    only ``abilities`` (nothing that resolves) counts as present.  ``in_decks``: rules whose card is in
    one of the decks the run draws from."""
    in_decks = set()
    for name in data.deck_names():
        in_decks.update(data.deck_list(name))
    with_errors = sorted({g["rule"] for g in groups.values() if g["rule"]})
    resolved, never, present = [], [], []
    for rid, ir in sorted(rules_ir.items()):
        if not ir.get("actions") and ir.get("auto") is None:
            present.append(rid)
        elif rid in ran:
            resolved.append(rid)
        else:
            never.append(rid)
    return {"rules": len(rules_ir), "resolved": resolved, "present": present, "never": never,
            "errors": with_errors, "in_decks": sorted(r for r in rules_ir if r in in_decks),
            "never_in_decks": [r for r in never if r in in_decks]}


def rule_label(rid: str, data: Any) -> str:
    model = data.models.get(rid)
    return "%s (%s)" % (rid, model["name"]) if model else rid

