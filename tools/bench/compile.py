"""Benchmark of the RuleScript compiler: cold and cached compile time per rule.

    python tools/bench/compile.py [--rules 1000] [--repeat 5] [--seed 11] [--json] [--keep DIR] [--check]
                                  [--stages]

Two rule sets are measured:

(a) the demo game ``cards/cfc-demo``;
(b) a generated set of ``--rules`` varied, valid rules (``_gen_cards.py``) in a temporary folder.
    The benchmark asserts that it compiles with zero errors before timing anything.

What is timed (``time.perf_counter``):

* parser build: the one-time construction of the lark LALR parser and its derived tables (every
  cached builder in ``rulescript.compiler.parser`` is cleared, then a first tiny parse rebuilds them),
  measured once in this process and reported separately; every other number is taken with the
  parser already built;
* cold: ``rulescript.compiler.compile_source`` over every rule file of the set with ``cache=None``
  (texts already read, profile and card database already loaded); per rule = total / rules.
  The first run is a warm-up (reported, not counted); then ``--repeat`` runs give mean and median;
* cached: the same loop with a ``CompileCache()`` that already holds every file (a second compile);
* p50/p95/max: per-rule latency, each rule compiled on its own as a one-section file, over all
  repeats (cold and cached);
* end to end: ``compile_game(folder, cache=None)`` once (YAML loading and file reads included), for
  information;
* stages (``--stages``): one more cold run with a timer around the INI reader and around every
  lex+parse entry point (``rulescript.compiler.parser.parse_*``) that the checking passes call; what is left is
  checking and lowering to IR.  The timers add a little overhead of their own.

Targets: cold ≤ 120 µs per rule (mean), cached ≤ 5 µs per rule (mean).  A missed target
(FAIL) makes the exit status 1.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _verdict import exit_status, mark  # noqa: E402

from _gen_cards import generate  # noqa: E402

DEMO = ROOT / "cards" / "cfc-demo"
TARGET_COLD_US = 120.0
TARGET_CACHED_US = 5.0


def build_parser() -> float:
    """Time the one-time parser set-up: every lru_cache'd builder of rulescript.compiler.parser (the lark LALR
    parser and whatever is derived from it) is cleared, then the first tiny parse builds them again."""
    from rulescript.compiler import parser

    for obj in list(vars(parser).values()):
        if callable(obj) and hasattr(obj, "cache_clear") and getattr(obj, "__module__", "") == parser.__name__:
            obj.cache_clear()
    t0 = time.perf_counter()
    parser.parse_action("draw()")
    parser.parse_expr("1 + 1")
    return time.perf_counter() - t0


def load_set(root: Path) -> dict[str, Any]:
    from rulescript.compiler import _cards_fingerprint, game_profile_name, load_cards, read_text, rule_files
    from rulescript.compiler.context import CardDatabase
    from rulescript.compiler.profile import load_profile

    t0 = time.perf_counter()
    name, _ = game_profile_name(root)
    profile = load_profile(name)
    cards = load_cards(root / "cards.yaml")[0]
    db = CardDatabase.from_cards(cards)
    files = [(str(p), read_text(p)) for p in rule_files(root)]
    load_s = time.perf_counter() - t0
    return {"root": root, "profile": profile, "db": db, "fp": _cards_fingerprint(db), "files": files,
            "load_s": load_s}


def split_sections(text: str) -> list[str]:
    return [c for c in re.split(r"(?m)^(?=\[)", text) if c.startswith("[")]


def compile_all(s: dict[str, Any], cache: Any) -> tuple[float, int, int]:
    """Compile every file once; returns (seconds, rules, errors)."""
    from rulescript.compiler import compile_source

    prof, db, fp = s["profile"], s["db"], s["fp"]
    n_rules = n_errors = 0
    gc.collect()
    t0 = time.perf_counter()
    for name, text in s["files"]:
        fr = compile_source(text, name, prof, db, cache, fp)
        n_rules += len(fr.rules)
        n_errors += sum(1 for d in fr.diagnostics if d.severity == "error")
    return time.perf_counter() - t0, n_rules, n_errors


def per_rule_latencies(s: dict[str, Any], repeat: int) -> tuple[list[float], list[float]]:
    """Each section compiled as its own file: cold latencies and cached latencies, in seconds."""
    from rulescript.compiler import CompileCache, compile_source

    prof, db, fp = s["profile"], s["db"], s["fp"]
    sections = [(name, sec) for name, text in s["files"] for sec in split_sections(text)]
    cache = CompileCache(max_entries=len(sections) + 16)
    for name, sec in sections:
        compile_source(sec, name, prof, db, cache, fp)
    cold: list[float] = []
    warm: list[float] = []
    clock = time.perf_counter
    for _ in range(repeat):
        gc.collect()
        for name, sec in sections:
            t0 = clock()
            compile_source(sec, name, prof, db, None, fp)
            t1 = clock()
            compile_source(sec, name, prof, db, cache, fp)
            warm.append(clock() - t1)
            cold.append(t1 - t0)
    return cold, warm


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def stage_split(s: dict[str, Any]) -> dict[str, float]:
    """µs per rule spent reading INI, lexing+parsing values, and (the rest) checking and lowering.

    Every ``parse_*`` function of rulescript.compiler.parser and ``read_rule_file`` is wrapped where the
    compiler modules imported it; nested calls (a filter parsed while an action is compiled) are
    only counted once, by the outermost timer."""
    from rulescript.compiler import compile_expr, compile_filter, compile_rule, ini, parser
    from rulescript.compiler import driver as compiler

    stages = {"ini": 0.0, "parse": 0.0}
    depth = [0]
    clock = time.perf_counter

    def timed(fn: Any, stage: str) -> Any:
        def wrapper(*a: Any, **k: Any) -> Any:
            if depth[0]:
                return fn(*a, **k)
            depth[0] += 1
            t0 = clock()
            try:
                return fn(*a, **k)
            finally:
                stages[stage] += clock() - t0
                depth[0] -= 1
        return wrapper

    originals = {getattr(parser, n): "parse" for n in dir(parser) if n.startswith("parse_")}
    originals[ini.read_rule_file] = "ini"
    patched: list[tuple[Any, str, Any]] = []
    for mod in (compiler, compile_rule, compile_filter, compile_expr):
        for name, value in list(vars(mod).items()):
            if callable(value) and value in originals:
                patched.append((mod, name, value))
                setattr(mod, name, timed(value, originals[value]))
    try:
        total, n_rules, _ = compile_all(s, None)
    finally:
        for mod, name, value in patched:
            setattr(mod, name, value)
    us = 1e6 / n_rules
    return {"ini": stages["ini"] * us, "parse": stages["parse"] * us,
            "check_and_lower": (total - stages["ini"] - stages["parse"]) * us, "total": total * us}


def measure(label: str, root: Path, repeat: int, require_clean: bool, stages: bool = False) -> dict[str, Any]:
    from rulescript.compiler import CompileCache, compile_game

    s = load_set(root)
    first_s, n_rules, n_errors = compile_all(s, None)
    if require_clean:
        assert n_errors == 0, f"{label}: the generated set has {n_errors} compile errors"
    assert n_rules > 0, f"{label}: no rules compiled"
    cold = [compile_all(s, None)[0] for _ in range(repeat)]
    cache = CompileCache(max_entries=len(s["files"]) + 16)
    compile_all(s, cache)  # fill the cache: the timed runs below are second compiles
    cached = [compile_all(s, cache)[0] for _ in range(repeat)]
    assert cache.hits >= repeat * len(s["files"]), "the warm cache was not used"
    lat_cold, lat_warm = per_rule_latencies(s, repeat)
    t0 = time.perf_counter()
    game = compile_game(root, cache=None)
    e2e_s = time.perf_counter() - t0
    us = 1e6 / n_rules
    cold_mean, cached_mean = statistics.mean(cold) * us, statistics.mean(cached) * us
    return {
        "set": label, "path": str(root), "files": len(s["files"]), "rules": n_rules, "errors": n_errors,
        "bytes_per_rule": sum(len(t.encode("utf-8")) for _, t in s["files"]) / n_rules,
        "game_errors": len(game.errors), "game_warnings": len(game.warnings),
        "load_ms": s["load_s"] * 1e3, "first_run_us_per_rule": first_s * us,
        "cold_us_per_rule": {"mean": cold_mean, "median": statistics.median(cold) * us,
                             "min": min(cold) * us, "runs": [x * us for x in cold]},
        "cached_us_per_rule": {"mean": cached_mean, "median": statistics.median(cached) * us,
                               "min": min(cached) * us, "runs": [x * us for x in cached]},
        "latency_us": {
            "cold": {"p50": percentile(lat_cold, 0.5) * 1e6, "p95": percentile(lat_cold, 0.95) * 1e6,
                     "max": max(lat_cold) * 1e6},
            "cached": {"p50": percentile(lat_warm, 0.5) * 1e6, "p95": percentile(lat_warm, 0.95) * 1e6,
                       "max": max(lat_warm) * 1e6},
        },
        "ratio_cold_cached": cold_mean / cached_mean if cached_mean else float("inf"),
        "compile_game_ms": e2e_s * 1e3,
        "stages_us_per_rule": stage_split(s) if stages else None,
        "pass": {"cold": cold_mean <= TARGET_COLD_US, "cached": cached_mean <= TARGET_CACHED_US},
    }


def render(report: dict[str, Any]) -> str:
    out = [f"RuleScript compile benchmark  (python {report['python']}, {report['machine']}, repeat={report['repeat']})",
           f"parser build (one time, lark LALR): {report['parser_build_ms']:.1f} ms", ""]
    head = f"{'set':<12}{'rules':>6}{'cold mean':>11}{'median':>9}{'p95':>9}{'cached mean':>13}{'median':>9}" \
           f"{'p95':>8}{'cold/cached':>13}"
    out += [head + "   (µs per rule; p95 = per-rule latency)", "-" * len(head)]
    for r in report["sets"]:
        c, w, lc, lw = r["cold_us_per_rule"], r["cached_us_per_rule"], r["latency_us"]["cold"], r["latency_us"]["cached"]
        out.append(f"{r['set']:<12}{r['rules']:>6}{c['mean']:>11.1f}{c['median']:>9.1f}{lc['p95']:>9.1f}"
                   f"{w['mean']:>13.2f}{w['median']:>9.2f}{lw['p95']:>8.2f}{r['ratio_cold_cached']:>12.0f}x")
    out.append("")
    for r in report["sets"]:
        out.append(f"{r['set']}: {r['files']} files, {r['bytes_per_rule']:.0f} bytes/rule, {r['errors']} errors; load {r['load_ms']:.1f} ms; "
                   f"first (warm-up) run {r['first_run_us_per_rule']:.1f} µs/rule; "
                   f"compile_game end to end {r['compile_game_ms']:.1f} ms "
                   f"({r['game_errors']} errors, {r['game_warnings']} warnings)")
    for r in report["sets"]:
        st = r.get("stages_us_per_rule")
        if st:
            out.append(f"{r['set']} stages (µs/rule, one timed cold run): INI {st['ini']:.1f}, lex+parse "
                       f"{st['parse']:.1f}, checking+lowering {st['check_and_lower']:.1f} (total {st['total']:.1f})")
    out.append("")
    out.append("targets:")
    for r in report["sets"]:
        out.append(f"  {r['set']:<12} cold   ≤ {TARGET_COLD_US:g} µs/rule (mean): "
                   f"{r['cold_us_per_rule']['mean']:8.1f}  {mark(r['pass']['cold'])}")
        out.append(f"  {r['set']:<12} cached ≤ {TARGET_CACHED_US:g} µs/rule (mean):  "
                   f"{r['cached_us_per_rule']['mean']:8.2f}  {mark(r['pass']['cached'])}")
    return "\n".join(out)


TARGET_BIG_CPU_S = 10.0
TARGET_BIG_PEAK_MB = 500.0
BIG_RULES = 30_000


def big(args: argparse.Namespace) -> int:
    """One ``rulescript compile`` of a generated game whose rules are one 5 MB file of 30,000 sections,
    in a child process: its CPU time (user + system) and peak resident memory (ru_maxrss of the child),
    which the load of other processes on the machine does not change much (wall-clock time is shown
    for reference only)."""
    import os
    import resource
    import subprocess

    with tempfile.TemporaryDirectory(prefix="rs-bench-big-") as tmp:
        folder = args.keep or Path(tmp) / "big"
        generate(folder, BIG_RULES, args.seed, per_file=BIG_RULES)
        rules = next((folder / "rules").glob("*.ini"))
        out = Path(tmp) / "big.json"
        cmd = [sys.executable, "-m", "rulescript", "compile", str(folder), "-o", str(out), "--no-cache"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
        report = {"rules": BIG_RULES, "source_bytes": rules.stat().st_size, "ir_bytes": out.stat().st_size,
                  "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
                  "wall_s": wall, "peak_mb": after.ru_maxrss / 1024.0,
                  "targets": {"cpu_s": TARGET_BIG_CPU_S, "peak_mb": TARGET_BIG_PEAK_MB}}
    report["ir_to_source"] = report["ir_bytes"] / report["source_bytes"]
    report["pass"] = {"cpu": report["cpu_s"] <= TARGET_BIG_CPU_S, "memory": report["peak_mb"] <= TARGET_BIG_PEAK_MB}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"rulescript compile of one {report['source_bytes'] / 1e6:.1f} MB rule file ({BIG_RULES:,} sections)")
        print(f"  CPU time  {report['cpu_s']:6.2f} s   (target <= {TARGET_BIG_CPU_S:.0f} s)   {mark(report['pass']['cpu'])}")
        print(f"  peak RSS  {report['peak_mb']:6.0f} MB  (target <= {TARGET_BIG_PEAK_MB:.0f} MB) "
              f"{mark(report['pass']['memory'])}")
        print(f"  wall time {report['wall_s']:6.2f} s   (for reference: it depends on the machine's load)")
        print(f"  IR JSON   {report['ir_bytes'] / 1e6:6.1f} MB  ({report['ir_to_source']:.1f}x the source)")
    return exit_status(report["pass"].values(), args.check)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Cold and cached compile time per rule for the demo game and a generated card set.")
    ap.add_argument("--rules", type=int, default=1000, help="rules in the generated set (default 1000)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per measurement (default 5)")
    ap.add_argument("--seed", type=int, default=11, help="seed of the generated set (default 11)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--keep", type=Path, help="write the generated set to this folder and keep it")
    ap.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    ap.add_argument("--stages", action="store_true",
                    help="also split one cold run into INI reading, lex+parse and checking+lowering")
    ap.add_argument("--big", action="store_true",
                    help="instead: 'rulescript compile' of one generated 5 MB rule file (30,000 sections); "
                    "CPU time and peak memory against the targets (10 s, 500 MB)")
    args = ap.parse_args(argv)
    if args.rules < 1 or args.repeat < 1:
        ap.error("--rules and --repeat must be at least 1")
    if args.big:
        return big(args)

    parser_build_s = build_parser()
    report: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "repeat": args.repeat, "parser_build_ms": parser_build_s * 1e3,
                              "targets_us_per_rule": {"cold": TARGET_COLD_US, "cached": TARGET_CACHED_US},
                              "sets": []}
    report["sets"].append(measure("cfc-demo", DEMO, args.repeat, require_clean=False, stages=args.stages))
    with tempfile.TemporaryDirectory(prefix="rs-bench-") as tmp:
        folder = args.keep or Path(tmp) / "generated"
        t0 = time.perf_counter()
        generate(folder, args.rules, args.seed)
        report["generate_ms"] = (time.perf_counter() - t0) * 1e3
        report["sets"].append(measure("generated", folder, args.repeat, require_clean=True, stages=args.stages))
    print(json.dumps(report, indent=2) if args.json else render(report))
    return exit_status((ok for r in report["sets"] for ok in r["pass"].values()), args.check)


if __name__ == "__main__":
    raise SystemExit(main())
