"""CPU instructions per rule of one cold compile pass, counted by valgrind's callgrind.

    python tools/bench/icount.py [--set DIR] [--rules 1000] [--seed 11]

Wall-clock time on a shared 2-core machine moves by 5-10 % from run to run (and far more while
anything else runs); an instruction count does not: the same code, input and interpreter give the
same count, whatever else the machine is doing.  It is the measure to compare two versions of the
compiler (A/B); ``compile.py`` stays the measure of the targets, in microseconds.

How: the set is loaded and compiled once (warm-up: parser tables, regexes and lookups built), then
compiled N more times under callgrind; the count with N = 1 minus the count with N = 0 is one cold
pass.  ``PYTHONHASHSEED=0`` fixes the hash seed (set and dict layouts), so counts repeat exactly.
Without ``--set``, the generated 1,000-rule set of ``compile.py`` (same seed) is written to a
temporary folder.  Needs ``valgrind`` on PATH; each count takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# Run under callgrind: load the set, compile it once (warm-up), then N more times.
_CHILD = """
import sys
sys.path[:0] = [{here!r}, {root!r}]
import compile as bench
from pathlib import Path
s = bench.load_set(Path({set_dir!r}))
for _ in range(1 + {n}):
    _, rules, errors = bench.compile_all(s, None)
assert errors == 0, errors
print("RULES", rules)
"""


def count(set_dir: Path, n: int) -> tuple[int, int]:
    """(instructions executed by the whole process, rules in the set)."""
    code = _CHILD.format(here=str(HERE), root=str(ROOT), set_dir=str(set_dir), n=n)
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           os.path.realpath(sys.executable), "-c", code],
                          capture_output=True, text=True, env=env, check=False)
    total = re.search(r"Collected : (\d+)", proc.stderr)
    rules = re.search(r"RULES (\d+)", proc.stdout)
    if proc.returncode != 0 or total is None or rules is None:
        sys.exit(f"icount: the run under valgrind failed:\n{proc.stderr[-2000:]}")
    return int(total.group(1)), int(rules.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", type=Path, help="a game folder to compile (default: the generated set)")
    ap.add_argument("--rules", type=int, default=1000, help="rules in the generated set (default 1000)")
    ap.add_argument("--seed", type=int, default=11, help="seed of the generated set (default 11)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("icount: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        set_dir = args.set
        if set_dir is None:
            sys.path.insert(0, str(HERE))
            from _gen_cards import generate

            set_dir = Path(tmp)
            generate(set_dir, args.rules, args.seed)
        print(f"counting {set_dir} (two runs under callgrind, about a minute each) ...", file=sys.stderr)
        base, _ = count(set_dir, 0)
        one, rules = count(set_dir, 1)
    print(f"{set_dir if args.set else 'generated'}: {rules} rules, "
          f"{(one - base) / rules:,.0f} instructions per rule (one cold compile pass)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
