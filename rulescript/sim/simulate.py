"""Many random games in a row: speed, game length, wins, engine errors and rule coverage, for any
game with a headless host.

A *run* describes one game's host to this module (:class:`CfcRun` here, ``WolfRun`` in
``rulescript/sim/wolf.py``): it draws every game's spec up front from the run's seed, plays one
spec to a compact summary, and names rules and outcomes.  Because every game is fixed by its spec,
the games can be spread over processes (``jobs``) and merged back in game order: a run with
``jobs=N`` gives exactly the results of the serial run with the same seed.
"""
from __future__ import annotations

import multiprocessing
import signal
import time
from typing import Any

from rulescript.runtime.rng import Rng
from rulescript.sim.cards import load_game
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game

MAX_SAMPLES = 5


class CfcRun:
    """Card Fighters' Clash games: two decks drawn from the folder's decks per game."""

    length = "turns"       # what a game's length counts
    pool_word = "a deck"   # where the rules of the run's cards come from (coverage report)

    def __init__(self, data: Any, turn_limit: int = 200, rules: Any = None, rules_factory: Any = None,
                 rules_ir: dict | None = None) -> None:
        self.data, self.turn_limit, self.rules_ir = data, turn_limit, rules_ir
        self.rules, self.rules_factory = rules, rules_factory
        self.root = getattr(data, "root", None)  # the game folder (rule files are named relative to it)

    def specs(self, games: int, seed: int) -> list:
        """(game seed, deck 0, deck 1, decider seed) of every game of a run, in game order."""
        return game_specs(self.data.deck_names(), games, seed)

    def for_worker(self) -> "CfcRun":
        """The run as a worker process plays it: a fresh engine per game, made from the compiled rules."""
        if self.rules_ir is None and (self.rules_factory is not None or self.rules is not None):
            raise ValueError("simulate with jobs > 1 needs rules_ir (the compiled rules) to build engines")
        return CfcRun(self.data, self.turn_limit, rules_ir=self.rules_ir)

    def play(self, spec: tuple) -> dict:
        if self.rules_factory is not None:
            port, fresh = self.rules_factory(), True
        elif self.rules is not None:
            port, fresh = self.rules, False
        elif self.rules_ir is not None:
            from rulescript.sim.host import new_engine

            port, fresh = new_engine(self.rules_ir), True
        else:
            port, fresh = None, False
        return play_one(self.data, spec, self.turn_limit, port, fresh)

    def wins(self, counts: dict) -> Any:
        return [counts.get(0, 0), counts.get(1, 0)]

    def card_name(self, rid: str) -> str | None:
        model = self.data.models.get(rid)
        return model["name"] if model else None

    def in_play(self) -> set:
        out = set()
        for name in self.data.deck_names():
            out.update(self.data.deck_list(name))
        return out

    def finish(self, out: dict) -> None:
        out["turns_per_game"] = out.pop("length_per_game")
        out["turn_limit_draws"] = out.pop("limit_draws")


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
    """Play one CFC game of a run; a compact, picklable summary (the log only when something went wrong)."""
    gseed, d0, d1, dseed = spec
    game, log = play_game(data, [d0, d1], gseed, RandomDecider(dseed), turn_limit=turn_limit, rules=port)
    found = list(getattr(port, "errors", None) or []) if fresh_port else []
    if found:
        log["rule_errors"] = found
        if not log["error"]:
            log["error"] = "rule error %s: %s" % (found[0]["code"], found[0]["message"])
    st = game.state
    return {"seed": gseed, "length": st["turn"], "winner": st["winner"], "reason": st["reason"],
            "limit": bool(st["reason"] and st["reason"].startswith("turn limit")),
            "error": log["error"], "rule_errors": found,
            "ran": sorted(getattr(port, "ran", None) or []) if fresh_port else [],
            "log": log if log["error"] else None}


# ------------------------------------------------------------------------ worker processes
_WORKER: dict[str, Any] = {}


def _worker_init(run: Any) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the pool (no traceback
    # nor "Process ForkPoolWorker-N:" line from a worker interrupted mid-game)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["run"] = run


def _worker_play(spec: Any) -> dict:
    return _WORKER["run"].play(spec)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


# ------------------------------------------------------------------------ the run
def simulate(game_dir, games=100, seed=0, progress=None, turn_limit=200, data=None, rules=None,
             rules_factory=None, jobs=1, rules_ir=None):
    """Play ``games`` random CFC games of the game in ``game_dir``.

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
    if not data.deck_names():
        raise ValueError("%s has no decks" % game_dir)
    run = CfcRun(data, turn_limit, rules=rules, rules_factory=rules_factory, rules_ir=rules_ir)
    return run_games(run, games, seed, jobs=jobs, progress=progress)


def run_games(run: Any, games: int, seed: int, jobs: int = 1, progress: Any = None) -> dict:
    """Play the run's ``games`` games (spread over ``jobs`` processes) and summarise them."""
    specs = run.specs(games, seed)
    t0 = time.perf_counter()
    results = _play_all(run, specs, jobs, progress)
    secs = time.perf_counter() - t0
    out = summarise_run(results, run)
    out.update(seconds=secs, games_per_s=games / secs if secs > 0 else 0.0, jobs=max(1, int(jobs or 1)))
    return out


def _play_all(run: Any, specs: list, jobs: int, progress: Any) -> list[dict]:
    total = len(specs)
    results: list[dict] = []
    if jobs and jobs > 1 and total > 1:
        worker = run.for_worker()
        chunk = max(1, min(16, total // (jobs * 8) or 1))
        with _context().Pool(jobs, initializer=_worker_init, initargs=(worker,)) as pool:
            for r in pool.imap(_worker_play, specs, chunksize=chunk):  # imap keeps game order
                results.append(r)
                if progress is not None:
                    progress(len(results), total)
        return results
    for spec in specs:
        results.append(run.play(spec))
        if progress is not None:
            progress(len(results), total)
    return results


def summarise(results: list[dict], data: Any, rules_ir: dict | None) -> dict:
    """Merge per-game summaries of a CFC run (in game order) into the run's numbers."""
    return summarise_run([dict(r, length=r.get("length", r.get("turns", 0)),
                              limit=bool(r.get("reason") and r["reason"].startswith("turn limit")))
                         for r in results], CfcRun(data, rules_ir=rules_ir))


def summarise_run(results: list[dict], run: Any) -> dict:
    """Merge per-game summaries (in game order) into the run's numbers: length per game, wins (as the run
    counts them), draws, engine errors grouped by rule and message, and rule coverage when the run knows
    its compiled rules (``run.rules_ir``)."""
    counts: dict = {}
    draws = limit_draws = errors = rule_errors = length = 0
    samples: list[dict] = []
    groups: dict[tuple, dict] = {}
    ran: set[str] = set()
    for r in results:
        length += r["length"]
        ran.update(r["ran"])
        rule_errors += len(r["rule_errors"])
        for rec in r["rule_errors"]:
            _group(groups, rec, r["seed"], run)
        if r["error"] and not r["rule_errors"]:
            _group(groups, {"code": "engine", "message": r["error"], "card": None}, r["seed"], run)
        if r["error"]:
            errors += 1
            if len(samples) < MAX_SAMPLES:
                samples.append(r["log"])
        elif r["winner"] is None:
            draws += 1
            limit_draws += 1 if r.get("limit") else 0
        else:
            counts[r["winner"]] = counts.get(r["winner"], 0) + 1
    n = len(results)
    out = {"games": n, "length_per_game": length / n if n else 0.0, "wins": run.wins(counts), "draws": draws,
           "limit_draws": limit_draws, "errors": errors, "rule_errors": rule_errors,
           "error_groups": sorted(groups.values(), key=lambda g: (-g["count"], g["first_game"])),
           "error_samples": samples}
    if run.rules_ir is not None:
        out["coverage"] = coverage(run.rules_ir, ran, groups, run.in_play())
    for g in groups.values():
        g.pop("_seen", None)
    run.finish(out)
    return out


def _group(groups: dict, rec: dict, gseed: int, run: Any) -> None:
    card = rec.get("card") or [None, None]
    rule = card[1] if len(card) > 1 else None
    key = (rec.get("code"), rec.get("message"), rule)
    g = groups.get(key)
    if g is None:
        g = groups[key] = {"code": rec.get("code"), "message": rec.get("message"), "rule": rule,
                           "card": run.card_name(rule) if rule else None, "file": rec.get("file"),
                           "line": rec.get("line"), "col": rec.get("col"), "count": 0, "games": 0,
                           "first_game": gseed, "_seen": set()}
    g["count"] += 1
    if gseed not in g["_seen"]:
        g["_seen"].add(gseed)
        g["games"] += 1


def coverage(rules_ir: dict, ran: set[str], groups: dict, in_play: set) -> dict:
    """Which rules resolved at least once, which were never reached, which raised errors; a rule with
    only ``abilities`` (nothing that resolves) counts as present.  ``in_decks``: rules whose card can be
    in play in the run (in one of the decks it draws from, in the role list it deals)."""
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
            "errors": with_errors, "in_decks": sorted(r for r in rules_ir if r in in_play),
            "never_in_decks": [r for r in never if r in in_play]}


def rule_label(rid: str, run: Any) -> str:
    """A rule id with the name of its card (``run``: a run, or a CFC game's card data)."""
    name = run.card_name(rid) if hasattr(run, "card_name") else (run.models.get(rid) or {}).get("name")
    return "%s (%s)" % (rid, name) if name else rid


def print_report(res: dict, run: Any, out: Any) -> None:
    """The text report of ``rulescript simulate``: every engine error grouped by rule and message (with
    the source line of a sampled error), then the rule coverage.  The caller prints the run's own
    lines (speed, length, wins) first."""
    from rulescript.sim.host import render_rule_error

    out.write(f"engine errors: {res['errors']} (rule errors: {res['rule_errors']})\n")
    samples = {}
    for log in res["error_samples"]:
        for rec in log.get("rule_errors", []):
            samples.setdefault((rec["code"], rec["message"], (rec.get("card") or [None, None])[1]), rec)
    for g in res["error_groups"]:
        who = f" in {rule_label(g['rule'], run)}" if g["rule"] else ""
        out.write(f"  {g['count']} x [{g['code']}] {g['message']}{who}: {g['games']} game(s), "
                  f"first seed {g['first_game']}\n")
        rec = samples.get((g["code"], g["message"], g["rule"]))
        if rec is not None:
            out.write("    " + render_rule_error(rec, root=run.root).replace("\n", "\n    ") + "\n")
        elif g.get("file"):
            out.write(f"    at {g['file']}:{g['line']}:{g['col']}\n")
    cov = res.get("coverage")
    if cov is None:
        return
    out.write(f"coverage: {len(cov['resolved'])} of {cov['rules']} rules resolved at least once, "
              f"{len(cov['present'])} present (abilities only), {len(cov['never'])} never reached "
              f"({len(cov['never_in_decks'])} of them in {run.pool_word}), {len(cov['errors'])} with errors\n")
    for label, ids in ((f"never reached, in {run.pool_word}", cov["never_in_decks"]),
                       (f"never reached, in no {run.pool_word.split(' ', 1)[1]}",
                        [r for r in cov["never"] if r not in cov["never_in_decks"]]),
                       ("raised errors", cov["errors"])):
        if ids:
            shown = ", ".join(rule_label(r, run) for r in ids[:LISTED_RULES])
            more = len(ids) - LISTED_RULES
            out.write(f"  {label}: {shown}" + (f", and {more} more (--format json lists them all)" if more > 0 else "")
                      + "\n")


#: rules named per coverage line of the text report (the JSON report lists every one)
LISTED_RULES = 12


def json_report(res: dict, seed: int, sample: Any, **extra: Any) -> str:
    """The results as JSON (``--json``); ``sample(log)`` shortens an error sample's log; ``extra``
    fields are added (the werewolf run's ``players``)."""
    import json

    out = dict(res, **extra)
    out["error_samples"] = [sample(log) for log in res["error_samples"]]
    out["seed"] = seed
    return json.dumps(out, indent=1, ensure_ascii=False)
