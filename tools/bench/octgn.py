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
                     1,000-card game, as OCTGN does when it loads the scripts (from source, no .pyc),
                     then to read the rules of two decks' cards, and all of them; the same for the
                     demo game and its two decks, and the format before (one eager literal) for
                     comparison.  Median and p95, wall and CPU.  Target: module load <= 300 ms.
``host_action``,     the OCTGN host in the stand-in of OCTGN (``tools/bench/octgn_host.py``): time per
``host_bytes``       single-target action under Python 2.7, and bytes sent between clients per action
                     (target: median <= 200 bytes).

Every section returns ``{"title", "results": {name: value}, "unit", "target": {"name", "limit"} or None,
"pass": bool or None, "notes": [str]}``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
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
from _verdict import exit_status, mark  # noqa: E402

from _gen_cards import generate  # noqa: E402
import octgn_host  # noqa: E402  (the host's sections: time per action, bytes per action)

from octgn_pack import build as build_mod  # noqa: E402
from octgn_pack.py27 import find_python27  # noqa: E402
from octgn_pack.build import _relativise  # noqa: E402
from octgn_pack.scripts import rules_module  # noqa: E402
from rulescript.pyliteral import python_module  # noqa: E402
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


LOADER = r"""
import sys, time
sys.path.insert(0, sys.argv[2])             # the package's def/ folder, as OCTGN puts it on sys.path
src = open(sys.argv[1], "rb").read()
runs = int(sys.argv[3])
picks = [[w for w in line.split()] for line in open(sys.argv[4]).read().split("\n")]  # rule ids to read, per case


def fresh():
    for name in [m for m in sys.modules if m.split(".")[0] == "octgn_pack"]:
        del sys.modules[name]               # every run imports the loader again, from source (-B)


def once(ids):
    fresh()
    t0, c0 = time.time(), time.clock()
    ns = {}
    exec(compile(src, "rules.py", "exec"), ns)
    rules = ns["RULES"]["rules"]
    for rid in ids:
        rules[rid]["id"]
    return time.time() - t0, time.clock() - c0, len(rules)


for ids in picks:
    wall, cpu = [], []
    for _ in range(runs):
        w, c, n = once(ids)
        wall.append(w)
        cpu.append(c)
    wall.sort()
    cpu.sort()
    p95 = min(len(cpu) - 1, int(0.95 * (len(cpu) - 1) + 0.999))
    print("%f %f %f %f %d %d" % (wall[len(wall) // 2], wall[p95], cpu[len(cpu) // 2], cpu[p95], len(ids), n))
"""


def _load_py27(py27: str, module: bytes, def_dir: Path, picks: list[list[str]], runs: int) -> list[dict[str, float]]:
    """Time ``python2.7 -B`` compiling and running ``module`` (then reading the rules of each list of
    ``picks``) with ``def_dir`` on ``sys.path``; one result per list: wall and CPU median and p95."""
    path = def_dir / "Scripts" / "rules.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(module)
    ids = def_dir / "picks.txt"
    ids.write_text("\n".join(" ".join(p) for p in picks), encoding="utf-8")
    proc = subprocess.run([py27, "-B", "-c", LOADER, str(path), str(def_dir), str(runs), str(ids)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    out = []
    for line in proc.stdout.split("\n"):
        if line.strip():
            wall, wall95, cpu, cpu95, n, total = line.split()
            out.append({"wall": float(wall), "wall p95": float(wall95), "cpu": float(cpu), "cpu p95": float(cpu95),
                        "read": int(n), "rules": int(total)})
    return out


def _package_def(b: Any, work: Path) -> Path:
    """The parts of a built package that ``Scripts/rules.py`` imports, written as OCTGN installs them."""
    d = work / "def"
    for name, data in b.files.items():
        if name.startswith("octgn_pack/"):
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_bytes(data)
    return d


def _deck_rules(game: Path, rules: dict[str, Any]) -> list[str]:
    """The distinct ids with rules of the cards in the game's decks (every ``decks/*.yaml``)."""
    import yaml

    ids: list[str] = []
    for path in sorted((game / "decks").glob("*.yaml")):
        for cid in (yaml.safe_load(path.read_text(encoding="utf-8")).get("cards") or {}):
            if cid in rules and cid not in ids:
                ids.append(cid)
    return ids


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
    def_dir = _package_def(b, work)
    demo_doc = compile_game(DEMO, cache=None).document()
    demo_decks = _deck_rules(DEMO, demo_doc["rules"])
    gen_doc = compile_game(game, cache=None).document()
    gen_ids = sorted(gen_doc["rules"])
    decks_like = sorted(random.Random(11).sample(gen_ids, min(len(demo_decks), len(gen_ids))))
    results: dict[str, float] = {}

    def put(label: str, r: dict[str, float]) -> None:
        results[f"{label}: median"] = _ms(r["wall"])
        results[f"{label}: p95"] = _ms(r["wall p95"])
        results[f"{label}: CPU median"] = _ms(r["cpu"])
        results[f"{label}: CPU p95"] = _ms(r["cpu p95"])

    load, decks, every = _load_py27(py27, b.files["Scripts/rules.py"], def_dir, [[], decks_like, gen_ids], args.repeat)
    put("generated: module load", load)
    put(f"generated: load + read {len(decks_like)} rules (as many as the demo decks use)", decks)
    put(f"generated: load + read all {every['read']} rules", every)
    eager = python_module("the format before: one literal of the whole IR",
                          [("RULES", _relativise(gen_doc, str(game)))]).encode("ascii")
    (before,) = _load_py27(py27, eager, work / "eager", [[]], args.repeat)
    put("generated, before (one eager literal): module load", before)
    results["generated: rules.py KiB"] = round(len(b.files["Scripts/rules.py"]) / 1024, 1)
    demo_def = _package_def(build_mod.build(DEMO, work / "demodist", check_py27=False), work / "demo")
    demo_load, demo_decks_r, demo_all = _load_py27(py27, rules_module(_relativise(demo_doc, str(DEMO))), demo_def,
                                                   [[], demo_decks, sorted(demo_doc["rules"])], args.repeat)
    put("demo: module load", demo_load)
    put(f"demo: load + read the {len(demo_decks)} rules of its two decks", demo_decks_r)
    put(f"demo: load + read all {demo_all['read']} rules", demo_all)
    results["build of the whole generated package (no Python 2.7 check)"] = _ms(big_build)
    return {"title": title, "unit": "ms", "results": results,
            "target": {"name": "generated: module load median", "limit": 300.0}, "pass": load["wall"] <= 0.3,
            "notes": [f"{py27} -B: compile() and exec of Scripts/rules.py from source with the package's def/ on "
                      f"sys.path (the loader imported anew each run), as OCTGN loads a script; {args.repeat} runs "
                      "per line",
                      "a rule's literal is evaluated when the rule is first read (octgn_pack/host/lazyrules.py); "
                      "'read N rules' reads each once after the load, in the same timing",
                      "generated: tools/bench/_gen_cards.py (every rule mixes many features, about twice the IR of a "
                      "demo rule); its deck-sized sample is seeded; 'before' is the whole IR as one literal (the "
                      "format shipped until the lazy loader)"]}


SECTIONS: dict[str, Section] = {
    "build": bench_build,
    "rules_load_py27": bench_rules_load,
    **octgn_host.SECTIONS,
}


def render(out: dict[str, Any]) -> str:
    lines = [f"OCTGN packaging benchmarks ({out['python']} on {out['machine']})"]
    for key, sec in out["sections"].items():
        status = mark(sec["pass"])
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
    return exit_status((s["pass"] for s in out["sections"].values()), args.check)


if __name__ == "__main__":
    sys.exit(main())
