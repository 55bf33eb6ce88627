"""OCTGN packaging benchmarks, one section per measurement.

    python tools/bench/octgn.py                      # every section
    python tools/bench/octgn.py --only build         # one section (repeatable)
    python tools/bench/octgn.py --json --check       # JSON; exit 1 if a target is missed

Sections (each a function ``(args, work) -> dict`` registered in ``SECTIONS``; a new one is one more
function and one more line there, and ``render`` prints any section that follows the same shape):

``build``            ``octgn-pack build cards/cfc-demo`` in-process: the first build (cold compile
                     cache, Python 2.7 check included), rebuilds (warm compile cache) with and without
                     the Python 2.7 check, and the share of each stage.  Target: a build <= 1 s.
``rules_load_py27``  the time ``python2.7`` takes to compile and run ``Scripts/rules.py`` of a generated
                     1,000-card game, as OCTGN does when it loads the scripts (from source, no .pyc).
                     Target <= 300 ms.

Every section returns ``{"title", "results": {name: value}, "unit", "target": {"name", "limit"} or None,
"pass": bool or None, "notes": [str]}``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _gen_cards import generate  # noqa: E402

from octgn_pack import build as build_mod  # noqa: E402
from octgn_pack.py27 import find_python27  # noqa: E402
from octgn_pack.scripts import rules_module  # noqa: E402
from rulescript.compiler import CompileCache, compile_game  # noqa: E402
from rulescript.compiler import driver  # noqa: E402

DEMO = ROOT / "cards" / "cfc-demo"
Section = Callable[[argparse.Namespace, Path], dict[str, Any]]


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 1)


def bench_build(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    dist = work / "dist"
    driver.DEFAULT_CACHE.clear()
    t0 = time.perf_counter()
    first = build_mod.build(DEMO, dist)
    cold = time.perf_counter() - t0
    if not first.ok:
        raise SystemExit("the demo package does not build:\n" + first.render())
    warm, no27 = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        b = build_mod.build(DEMO, dist)
        warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        build_mod.build(DEMO, dist, check_py27=False)
        no27.append(time.perf_counter() - t0)
    assert b.package == first.package, "two builds must be byte-identical"
    # stages of one warm build
    stages: dict[str, float] = {}
    t0 = time.perf_counter()
    stages_b = build_mod.Build(build_mod.read_project(DEMO))
    stages["read game folder"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    compile_game(DEMO, cache=CompileCache())
    stages["compile rules (cold)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_mod.generate(stages_b)
    stages["generate def/ (warm compile)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    data = build_mod.pack(stages_b.project, stages_b.files)
    stages["zip"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_mod.validate_tree(build_mod.tree_from_zip(data, "x.o8g"), check_py27=False)
    stages["validate (without Python 2.7)"] = time.perf_counter() - t0
    py27 = find_python27()
    if py27:
        from octgn_pack.py27 import compile_py27

        pys = {k: v for k, v in stages_b.files.items() if k.endswith(".py")}
        t0 = time.perf_counter()
        compile_py27(pys)
        stages["Python 2.7 compile of the scripts"] = time.perf_counter() - t0
    med = statistics.median(warm)
    results = {"first build (cold compile cache)": _ms(cold), "rebuild median": _ms(med),
               "rebuild min": _ms(min(warm)), "rebuild without the Python 2.7 check, median": _ms(statistics.median(no27)),
               "package KiB": round(len(first.package or b"") / 1024, 1)}
    results.update({f"stage: {k}": _ms(v) for k, v in stages.items()})
    notes = [f"{len(first.project.cards)} cards, {len(first.files)} files"]
    if not py27:
        notes.append("no python2.7: the build's Python 2.7 check was skipped")
    worst = max(cold, med)
    return {"title": "octgn-pack build cards/cfc-demo", "unit": "ms", "results": results,
            "target": {"name": "first build and rebuild median", "limit": 1000.0}, "pass": worst <= 1.0,
            "notes": notes}


LOADER = r'''
import sys, time
src = open(sys.argv[1], "rb").read()
runs = int(sys.argv[2])
wall, cpu = [], []
for _ in range(runs):
    t0, c0 = time.time(), time.clock()
    ns = {}
    exec(compile(src, "rules.py", "exec"), ns)
    wall.append(time.time() - t0)
    cpu.append(time.clock() - c0)
    assert len(ns["RULES"]["rules"]) > 0
wall.sort()
cpu.sort()
print("%f %f %f %f %d" % (wall[len(wall) // 2], wall[0], wall[-1], cpu[len(cpu) // 2], len(ns["RULES"]["rules"])))
'''


def _load_py27(py27: str, module: bytes, work: Path, name: str, runs: int) -> dict[str, float]:
    path = work / f"{name}.py"
    path.write_bytes(module)
    proc = subprocess.run([py27, "-c", LOADER, str(path), str(runs)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    med, lo, hi, cpu, n = proc.stdout.split()
    return {"median": float(med), "min": float(lo), "max": float(hi), "cpu": float(cpu), "rules": int(n),
            "kib": round(len(module) / 1024, 1)}


def bench_rules_load(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    title = f"load Scripts/rules.py of a {args.cards:,}-card game under python2.7"
    py27 = find_python27()
    if py27 is None:
        return {"title": title, "unit": "ms", "results": {}, "target": {"name": "median", "limit": 300.0},
                "pass": None, "notes": ["skipped: no python2.7 found (put it on PATH or set PYTHON27)"]}
    game = work / "gen"
    generate(game, n_rules=args.cards, seed=11)
    (game / "game.yaml").write_text((game / "game.yaml").read_text() +
                                    "id: 0b1e2c3d-0000-4000-8000-000000000001\nversion: 1\n")
    t0 = time.perf_counter()
    b = build_mod.build(game, work / "gendist", check_py27=False)
    big_build = time.perf_counter() - t0
    if not b.ok:
        raise SystemExit("the generated game does not build:\n" + b.render())
    gen = _load_py27(py27, b.files["Scripts/rules.py"], work, "rules_generated", args.repeat)
    # the same number of rules shaped like the demo's cards (its rules, repeated under new ids)
    demo = compile_game(DEMO, cache=None).document()
    base = list(demo["rules"].items())
    demo["rules"] = {f"{rid}-{i}": rule for i in range(args.cards // len(base) + 1) for rid, rule in base}
    demo["rules"] = dict(list(demo["rules"].items())[:args.cards])
    like = _load_py27(py27, rules_module(demo), work, "rules_demo_like", args.repeat)
    return {"title": title, "unit": "ms",
            "results": {"generated rules: median": _ms(gen["median"]), "generated rules: min": _ms(gen["min"]),
                        "generated rules: max": _ms(gen["max"]), "generated rules: CPU median": _ms(gen["cpu"]),
                        "generated rules: rules.py KiB": gen["kib"],
                        "demo-like rules: median": _ms(like["median"]), "demo-like rules: CPU median": _ms(like["cpu"]),
                        "demo-like rules: rules.py KiB": like["kib"],
                        f"build of the whole generated package (no Python 2.7 check)": _ms(big_build)},
            "target": {"name": "generated rules: median", "limit": 300.0}, "pass": gen["median"] <= 0.3,
            "notes": [f"{py27}: compile() and exec of the module source, as OCTGN loads a script; "
                      f"{args.repeat} runs each",
                      "generated rules: tools/bench/_gen_cards.py (every rule mixes many features, about twice "
                      "the IR of a demo rule); demo-like: the demo's compiled rules repeated under new ids"]}


SECTIONS: dict[str, Section] = {
    "build": bench_build,
    "rules_load_py27": bench_rules_load,
}


def render(out: dict[str, Any]) -> str:
    lines = [f"OCTGN packaging benchmarks ({out['python']} on {out['machine']})"]
    for key, sec in out["sections"].items():
        status = {True: "PASS", False: "FAIL", None: "n/a"}[sec["pass"]]
        target = sec.get("target")
        tail = f"  [{status}: {target['name']} <= {target['limit']:g} {sec['unit']}]" if target else ""
        lines.append(f"\n== {key}: {sec['title']}{tail}")
        width = max((len(k) for k in sec["results"]), default=0)
        for name, value in sec["results"].items():
            unit = sec["unit"] if isinstance(value, float) and "KiB" not in name else ""
            lines.append(f"  {name.ljust(width)}  {value:>9}{(' ' + unit) if unit else ''}")
        for note in sec.get("notes", []):
            lines.append(f"  note: {note}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Sections: " + ", ".join(SECTIONS))
    ap.add_argument("--only", action="append", choices=list(SECTIONS), help="run only this section (repeatable)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per measurement (default 5)")
    ap.add_argument("--cards", type=int, default=1000, help="cards of the generated game (default 1000)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(), "sections": {}}
    with tempfile.TemporaryDirectory(prefix="octgn-bench-") as tmp:
        for key in args.only or list(SECTIONS):
            work = Path(tmp) / key
            work.mkdir()
            out["sections"][key] = SECTIONS[key](args, work)
    print(json.dumps(out, indent=1) if args.json else render(out))
    failed = [k for k, s in out["sections"].items() if s["pass"] is False]
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
