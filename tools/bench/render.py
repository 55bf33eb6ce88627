"""Benchmark of the werewolf game: rendering and compiling a WWRF book, playing games, reloading roles.

    python tools/bench/render.py [--files 300] [--repeat 5] [--games 100] [--saves 20] [--json] [--check]

1. **render + compile**: a book of ``--files`` WWRF files is generated from the project's own book
   (``cards/werewolf/roles``): the book itself, plus copies of its self-contained roles under new
   names (``Seer 7`` ...), until the count is reached.  Timed: ``render_book`` (parse, type, render,
   no writing) plus ``compile_game`` of the rendered folder with a cold compile cache; the median of
   ``--repeat`` runs.  Target: ≤ 1 s.
2. **games per second**: ``--games`` random 15-player games of ``cards/werewolf`` on one core.
   Target: ≥ 20 games/s.
3. **reload**: ``--saves`` saves of one role file of a copy of ``cards/werewolf`` through the
   werewolf watcher's synchronous core (``WolfWatcher.process``: render, write, compile, re-run the
   affected scenarios); the time from just before the write to the printed result.  Target: p95 ≤ 200 ms.

``--json`` prints ``{"files", "render_compile_s", "games_per_s", "reload_p50_ms", "reload_p95_ms", ...}``;
a missed target (FAIL) exits 1.
"""
from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks and _verdict
from _verdict import exit_status, mark  # noqa: E402

GAME = ROOT / "cards" / "werewolf"
#: roles whose names no other file names: they can be copied under a new name
CLONABLE = ("seer", "medium", "bodyguard", "villager", "possessed", "trapper", "herbalist", "matchmaker",
            "judge", "clerk", "pilgrim", "town crier", "exorcist", "mist wolf", "pyre wolf", "deserter")


def make_book(folder: Path, files: int) -> int:
    """Write a book of ``files`` WWRF files into ``folder``; returns the count written."""
    folder.mkdir(parents=True, exist_ok=True)
    base = sorted(p for p in (GAME / "roles").iterdir() if p.is_file() and "." not in p.name)
    for p in base:
        shutil.copy(p, folder / p.name)
    n = len(base)
    k = 1
    while n < files:
        for name in CLONABLE:
            if n >= files:
                break
            text = (GAME / "roles" / name).read_text(encoding="utf-8")
            title = " ".join(w.capitalize() for w in name.split())
            new = f"{title} {k}"
            text = text.replace(f"**{title}**", f"**{new}**", 1)
            (folder / new.lower()).write_text(text, encoding="utf-8")
            n += 1
        k += 1
    return n


def bench_render(files: int, repeat: int) -> dict:
    from rulescript.compiler import CompileCache, compile_game
    from wwrf_adapter.render import render_book, write_game

    tmp = Path(tempfile.mkdtemp(prefix="wwrf-render-bench-"))
    try:
        book = tmp / "book"
        count = make_book(book, files)
        times, render_times = [], []
        sections = 0
        for i in range(repeat):
            out = tmp / f"game{i}"
            t0 = time.perf_counter()
            result = render_book(book, out, write=False)
            t1 = time.perf_counter()
            assert not result.diagnostics, result.diagnostics[:3]
            write_game(out, result.files)
            t2 = time.perf_counter()
            compiled = compile_game(out, cache=CompileCache())   # a fresh cache: a cold compile
            t3 = time.perf_counter()
            assert compiled.ok, compiled.render()[:2000]
            sections = len(compiled.rules)
            times.append((t1 - t0) + (t3 - t2))
            render_times.append(t1 - t0)
        return {"files": count, "sections": sections, "render_compile_s": statistics.median(times),
                "render_s": statistics.median(render_times)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_games(games: int) -> dict:
    from rulescript.sim.wolf import load_wolf_table, simulate

    table = load_wolf_table(GAME)
    res = simulate(table, 15, games, seed=1)
    assert res["errors"] == 0, res["error_samples"][:1]
    return {"games": games, "games_per_s": res["games_per_s"], "days_per_game": res["days_per_game"]}


def bench_reload(saves: int) -> dict:
    from rulescript.sim.scenario_result import RULES_OVERRIDE
    from rulescript.wolf_watch import WolfWatcher

    tmp = Path(tempfile.mkdtemp(prefix="wwrf-reload-bench-"))
    game = tmp / "werewolf"
    shutil.copytree(GAME, game)
    try:
        w = WolfWatcher(game, io.StringIO())
        assert w.process(initial=True)
        role = game / "roles" / "seer"
        text = role.read_text(encoding="utf-8")
        times = []
        for i in range(saves):
            new = text.replace("The stars never lie", f"The stars never lie ({i})") if i % 2 == 0 else text
            t0 = time.perf_counter()
            role.write_text(new, encoding="utf-8")
            ok = w.process([role], t0=t0)
            times.append((time.perf_counter() - t0) * 1000)
            assert ok
        times.sort()
        return {"saves": saves, "reload_p50_ms": times[len(times) // 2],
                "reload_p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))]}
    finally:
        RULES_OVERRIDE.pop(str(game.resolve()), None)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="render.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=300, help="WWRF files in the generated book (default 300)")
    ap.add_argument("--repeat", type=int, default=5, help="timed render + compile runs (default 5)")
    ap.add_argument("--games", type=int, default=100, help="15-player games to play (default 100)")
    ap.add_argument("--saves", type=int, default=20, help="timed role saves (default 20)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)
    out = {}
    out.update(bench_render(args.files, args.repeat))
    out.update(bench_games(args.games))
    out.update(bench_reload(args.saves))
    targets = {"render_compile_s": (out["render_compile_s"] <= 1.0, "≤ 1 s"),
               "games_per_s": (out["games_per_s"] >= 20, "≥ 20"),
               "reload_p95_ms": (out["reload_p95_ms"] <= 200, "≤ 200 ms")}
    if args.json:
        print(json.dumps(out, indent=1, sort_keys=True))
    else:
        print(f"render + compile of a {out['files']}-file book ({out['sections']} sections): "
              f"{out['render_compile_s'] * 1000:.0f} ms (render {out['render_s'] * 1000:.0f} ms)  "
              f"[{mark(targets['render_compile_s'][0])} {targets['render_compile_s'][1]}]")
        print(f"15-player games: {out['games_per_s']:.1f} games/s ({out['days_per_game']:.1f} days per game)  "
              f"[{mark(targets['games_per_s'][0])} {targets['games_per_s'][1]}]")
        print(f"reload of a role (save -> scenarios done): p50 {out['reload_p50_ms']:.0f} ms, "
              f"p95 {out['reload_p95_ms']:.0f} ms  "
              f"[{mark(targets['reload_p95_ms'][0])} {targets['reload_p95_ms'][1]}]")
    return exit_status((ok for ok, _ in targets.values()), args.check)


if __name__ == "__main__":
    sys.exit(main())
