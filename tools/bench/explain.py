"""``rulescript explain`` benchmark: how right the disagreement check is, and how fast.

On the two labelled corpora of tests/explain (``corpus.yaml``, 162 cards the check was tuned on, and
``holdout.yaml``, 62 cards written afterwards and never used to tune it), reports precision and recall
of the disagreements found against the ones a careful reader marked, and the time to explain one card
(generated text + facts of both texts + comparison; the compile is not counted), as CPU time and wall
time, median of the repeats.

Targets: precision >= 90 % and recall >= 90 % on each corpus, <= 1 ms per card (CPU).

    python tools/bench/explain.py [--repeat 7] [--json] [--check]

A missed target prints FAIL and exits 1 (also without ``--check``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # _verdict

import yaml  # noqa: E402
from _verdict import exit_status, mark  # noqa: E402

from rulescript.compiler import compile_game  # noqa: E402
from rulescript.compiler.profile import load_profile  # noqa: E402
from rulescript.explain.measure import score_corpus, write_game  # noqa: E402
from rulescript.explain.report import explain_cards  # noqa: E402

CORPORA = (ROOT / "tests" / "explain" / "corpus.yaml", ROOT / "tests" / "explain" / "holdout.yaml")


def time_per_card(corpus: Path, repeat: int) -> tuple[float, float]:
    """Median CPU and wall seconds to explain one card of the corpus."""
    cards = yaml.safe_load(corpus.read_text(encoding="utf-8"))["cards"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "game"
        write_game(cards, root)
        result = compile_game(root, cache=None)
        profile = load_profile(result.profile)
        cpu, wall = [], []
        for _ in range(repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            explained = explain_cards(result.cards, result.rules, profile, root)
            cpu.append((time.process_time() - c0) / len(explained))
            wall.append((time.perf_counter() - w0) / len(explained))
    return statistics.median(cpu), statistics.median(wall)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="explain.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="timing repeats (default 7)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)
    rows, ok = [], True
    for corpus in CORPORA:
        score = score_corpus(corpus)
        cpu, wall = time_per_card(corpus, args.repeat)
        row = {"corpus": corpus.name, "cards": score.cards, "precision": round(score.precision, 3),
               "recall": round(score.recall, 3), "hits": score.hits, "false_alarms": score.false_alarms,
               "misses": score.misses, "cpu_ms_per_card": round(cpu * 1000, 3), "wall_ms_per_card": round(wall * 1000, 3)}
        row["pass"] = score.precision >= 0.9 and score.recall >= 0.9 and cpu <= 0.001
        ok = ok and row["pass"]
        rows.append(row)
    if args.json:
        print(json.dumps({"corpora": rows, "pass": ok}, indent=2))
    else:
        for r in rows:
            print(f"{r['corpus']:14} {r['cards']:4} cards  precision {r['precision']:.3f}  recall {r['recall']:.3f}  "
                  f"{r['cpu_ms_per_card']:.3f} ms/card CPU ({r['wall_ms_per_card']:.3f} wall)  "
                  f"[{mark(r['pass'])} >= 0.90, >= 0.90, <= 1 ms]")
            for card, kind in r["false_alarms"]:
                print(f"    false alarm: {card} {kind}")
            for card, kind in r["misses"]:
                print(f"    missed:      {card} {kind}")
    return exit_status([r["pass"] for r in rows], args.check)


if __name__ == "__main__":
    sys.exit(main())
