"""Runtime benchmark: resolving rules and playing whole games with the RuleScript engine.

Reports (all on one core, in this process):

* the median time to resolve a typical single-target action (``{F}: damage(250) to(character@oppRing)``
  on a table of 96 cards with four candidates; the one decision is answered by a scripted decider,
  whose time is measured separately and subtracted),
* the median time to run an auto triggered by a phase event (``~myEndPhase~ hp(+100)``),
* complete random games per second on the demo game, rules included.

Targets: <= 100 us median per single-target action, >= 50 complete games per second.
Each figure is also given with the game's own pure-Python copier (the one OCTGN uses) next to the
headless host's C-speed copier, so the ratio between the two hosts is visible.

    python tools/bench/runtime.py [--games N] [--repeat R] [--json] [--check]

A missed target prints FAIL and makes the exit status 1 (``--check`` is accepted for symmetry with
the other benchmarks; here every target is always measured).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulescript.compiler import compile_text  # noqa: E402
from rulescript.games import cfc  # noqa: E402
from rulescript.games.cfc.game import CfcGame  # noqa: E402
from rulescript.runtime.engine import Engine  # noqa: E402
from rulescript.sim.host import load_table  # noqa: E402
import marshal  # noqa: E402
from rulescript.sim.simulate import simulate  # noqa: E402
from _verdict import exit_status, mark  # noqa: E402

RULES = """
[striker]
action = {F}: damage(250) to(character@oppRing)
[keeper]
auto = ~myEndPhase~ hp(+100)
"""


def _char(cid, bp):
    return {"id": cid, "name": cid.title(), "type": "character", "subtype": "ninja", "bp": bp, "sp": 0,
            "backup": [], "ability": {"kind": "trigger", "name": cid}, "text": ""}


class _Answer:
    """Always answers choose_targets with the first candidate; counts its own time."""

    def __init__(self):
        self.seconds = 0.0

    def decide(self, req):
        t = time.perf_counter()
        answer = req["options"][:max(1, req["min"])] if req["kind"] == "choose_targets" else req["options"][0]
        self.seconds += time.perf_counter() - t
        return answer


def _table(copier):
    models = {m["id"]: m for m in [_char("striker", 500), _char("keeper", 500), _char("dummy", 1500)]}
    compiled = compile_text(RULES, filename="bench.ini", cards=list(models.values()), cache=None)
    assert compiled.ok, compiled.render()
    decider = _Answer()
    engine = Engine(compiled.rules, game=cfc, copier=copier[0], thaw=copier[1]) if copier \
        else Engine(compiled.rules, game=cfc)
    # a realistic table: two 45-card decks besides the cards in play (a snapshot copies all of them)
    game = CfcGame(models, [["dummy"] * 45, ["dummy"] * 45], decider, rules=engine, seed=1, first=0)
    st = game.state
    st["phase"], st["turn"], st["active"] = "main", 1, 0
    engine.start(game)

    def put(p, model, slot):
        iid = game.create_card(model, p, "hand")
        st["players"][p]["hand"].remove(iid)
        c = st["cards"][iid]
        c.update(zone="ring", slot=slot, bp=models[model]["bp"], lastBP=models[model]["bp"], fresh=False)
        st["players"][p]["ring"][slot] = iid
        engine.card_entered_play(game, iid)
        return iid

    striker = put(0, "striker", 0)
    put(0, "keeper", 1)
    for slot in range(4):
        put(1, "dummy", slot)
    return game, engine, decider, striker


def _median_us(samples):
    return statistics.median(samples) * 1e6


def bench_action(copier, repeat):
    game, engine, decider, striker = _table(copier)
    st = game.state
    samples = []
    for _ in range(repeat):
        st["cards"][striker]["frozen"] = False
        for iid in st["players"][1]["ring"]:
            if iid is not None:
                st["cards"][iid]["bp"] = 1500
        decider.seconds = 0.0
        t = time.perf_counter()
        ok = engine.resolve_action(game, striker, "trigger")
        samples.append(time.perf_counter() - t - decider.seconds)
        assert ok is True and not engine.errors
    return _median_us(samples), statistics.mean(samples) * 1e6


def bench_phase_auto(copier, repeat):
    game, engine, _decider, _striker = _table(copier)
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        engine.fire(game, "endphase", 0)
        samples.append(time.perf_counter() - t)
    assert not engine.errors and game.state["players"][0]["hp"] == 3000 + 100 * repeat
    return _median_us(samples), statistics.mean(samples) * 1e6


def bench_games(games, copier):
    table = load_table(ROOT / "cards" / "cfc-demo")

    def factory():
        return Engine(table.compiled.rules, game=cfc, copier=copier[0], thaw=copier[1]) if copier \
            else Engine(table.compiled.rules, game=cfc)
    res = simulate(ROOT / "cards" / "cfc-demo", games, 1, data=table.data, rules_factory=factory)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="random demo games to play (default 200)")
    ap.add_argument("--repeat", type=int, default=2000, help="resolutions timed per figure (default 2000)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--action-target-us", type=float, default=100.0,
                    help="target: median single-target action, host copier (default 100 us)")
    ap.add_argument("--games-target", type=float, default=50.0,
                    help="target: complete demo games per second, host copier (default 50)")
    ap.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed "
                    "(a missed target always does)")
    args = ap.parse_args(argv)
    out = {}
    host_copier = (marshal.dumps, marshal.loads)
    for name, copier in (("host (C copier)", host_copier), ("octgn (pure-Python copier)", None)):
        a_med, a_mean = bench_action(copier, args.repeat)
        e_med, e_mean = bench_phase_auto(copier, args.repeat)
        g = bench_games(args.games if copier else max(20, args.games // 5), copier)
        out[name] = {"action_median_us": a_med, "action_mean_us": a_mean, "phase_auto_median_us": e_med,
                     "phase_auto_mean_us": e_mean, "games": g["games"], "games_per_s": g["games_per_s"],
                     "turns_per_game": g["turns_per_game"], "engine_errors": g["errors"]}
    host = out["host (C copier)"]
    octgn = out["octgn (pure-Python copier)"]
    ratios = {"action": octgn["action_median_us"] / host["action_median_us"],
              "games_per_s": host["games_per_s"] / octgn["games_per_s"]}
    passed = {f"action <= {args.action_target_us:g} us median": host["action_median_us"] <= args.action_target_us,
              f"games >= {args.games_target:g} per second": host["games_per_s"] >= args.games_target}
    if args.json:
        print(json.dumps({"results": out, "ratios": ratios, "targets": passed}, indent=1))
        return exit_status(passed.values(), args.check)
    print(f"RuleScript runtime benchmark (python {sys.version.split()[0]}, one core)")
    print(f"{'':30} {'action med':>11} {'mean':>8} {'phase auto med':>15} {'mean':>8} {'games/s':>9} {'turns/game':>11} {'errors':>7}")
    for name, r in out.items():
        print(f"{name:30} {r['action_median_us']:9.1f}us {r['action_mean_us']:6.1f}us {r['phase_auto_median_us']:13.1f}us "
              f"{r['phase_auto_mean_us']:6.1f}us {r['games_per_s']:9.1f} {r['turns_per_game']:11.1f} {r['engine_errors']:7d}")
    print(f"ratios: pure-Python copier / C copier: action x{ratios['action']:.2f}, games/s x{ratios['games_per_s']:.2f}")
    for name, ok in passed.items():
        print(f"target {name}: {mark(ok)}")
    return exit_status(passed.values(), args.check)


if __name__ == "__main__":
    sys.exit(main())
