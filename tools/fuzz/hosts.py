"""The same seeded games under Python 2.7 and Python 3, with rules that hit the budget.

    python tools/fuzz/hosts.py --games 300 [--python2 /path/to/python2.7] [--seed 1]

The demo game's rules are compiled (by the Python 3 compiler), then each game gets a few of the deck
cards' rules replaced by rules shaped like the issue-13 findings (doubling numbers, strings and
lists in ``vars``, nested quantifiers and ``each``, deep lists, far rounding, ``int()`` of long
digit strings: tools/fuzz/mutate.py's templates).  Every game is played by the runtime alone (a
seeded decider written for both Pythons) under each interpreter; the decisions, the rule errors
(code, message, card, place) and the final state must be identical.  Prints how many games, how many
rule errors of each code (the budget codes RS511-RS514 among them) and the time under each host;
exits 1 on the first difference.
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

DEMO = ROOT / "cards" / "cfc-demo"
BUDGET_CODES = ("RS511", "RS512", "RS513", "RS514")

#: Runs under Python 2.7 and 3: argv = repo root, input file (a Python literal), python tag.
SCRIPT = r'''
from __future__ import print_function
import ast, sys, time
sys.path.insert(0, sys.argv[1])
from rulescript.games import cfc
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.engine import Engine
from rulescript.runtime.rng import Rng

class Dec(object):
    def __init__(self, seed):
        self.r = Rng(seed)
    def decide(self, req):
        opts = req["options"]
        kind = req["kind"]
        if kind == "arrange":
            return list(reversed(opts))
        if kind == "choose_targets":
            n = req["min"] + self.r.randbelow(min(req["max"], len(opts)) - req["min"] + 1)
            pool = list(opts)
            out = []
            while len(out) < n:
                out.append(pool.pop(self.r.randbelow(len(pool))))
            return out
        return opts[self.r.randbelow(len(opts))]

jobs = open(sys.argv[2])  # the models, decks and base rules, then one game a line
job = ast.literal_eval(jobs.readline())
models = job["models"]
t0 = time.time()
out = open(sys.argv[3], "w")  # one game a line: neither side holds more than one game
for line in jobs:
    game = ast.literal_eval(line)
    rules = dict(job["base"])
    rules.update(game["rules"])
    eng = Engine(rules, game=cfc)
    g = CfcGame(models, [list(job["decks"][0]), list(job["decks"][1])], Dec(game["seed"]), rules=eng,
                seed=game["seed"], turn_limit=game["turn_limit"])
    result = g.run()
    errors = [[e["code"], e["message"], e["card"], e["line"], e["col"], e["turn"], e["phase"]]
              for e in eng.errors]
    out.write(repr({"seed": game["seed"], "result": result, "log": g.state["log"], "errors": errors,
                    "state": g.state}) + "\n")
out.close()
sys.stdout.write(repr(time.time() - t0))
'''


def python27(given=None):
    cands = [given, os.environ.get("PYTHON27"), shutil.which("python2.7"),
             "/root/.pyenv/versions/2.7.18/bin/python2.7", "/root/.pyenv/versions/2.7.18/bin/python"]
    for c in cands:
        if c and os.path.exists(c):
            proc = subprocess.run([c, "-c", "import sys; print(sys.version_info[0])"], capture_output=True, text=True)
            if proc.returncode == 0 and proc.stdout.strip() == "2":
                return c
    return None


def build_job(n_games, seed):
    import yaml
    import mutate as M
    from rulescript.compiler import compile_game, compile_text, load_cards
    base = compile_game(DEMO)
    assert base.ok, base.render()
    cards = load_cards(DEMO / "cards.yaml")[0]
    models = {}
    for c in yaml.safe_load((DEMO / "cards.yaml").read_text(encoding="utf-8"))["cards"]:
        models[c["id"]] = c
    from rulescript.sim.cards import load_game
    data = load_game(DEMO)
    models = data.models
    decks = [data.decks["deck-a"]["cards"], data.decks["deck-b"]["cards"]]
    ids = sorted(set(decks[0]) | set(decks[1]))
    rng = random.Random("hosts:%s" % seed)
    games = []
    for i in range(n_games):
        text = []
        actions = [c for c in ids if models[c]["type"] in ("action", "reaction")]
        chars = [c for c in ids if models[c]["type"] == "character"]
        for _ in range(rng.randint(8, 16)):
            body = M._template(rng)
            cid = rng.choice(chars if body.startswith("auto") else actions)
            text.append("[%s]\n%s" % (cid, body))
        res = compile_text("\n".join(text), profile="cfc", filename="budget.ini", cards=cards, cache=None)
        games.append({"seed": rng.randrange(1, 10 ** 6), "rules": res.rules, "turn_limit": 60,
                      "text": "\n".join(text)})
    return {"models": models, "decks": decks, "base": base.rules, "games": games}


def run(python, job_file, out_file):
    """Play the job's games under ``python``; each game's outcome goes to a line of ``out_file``.
    Returns the seconds the games took."""
    proc = subprocess.run([python, "-c", SCRIPT, str(ROOT), job_file, out_file], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (python, proc.stderr[-4000:]))
    return float(proc.stdout)


def _games(path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            yield ast.literal_eval(line)


def compare(n_games, seed, py2):
    job = build_job(n_games, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "job.txt")
        with open(path, "w", encoding="ascii") as fh:
            fh.write(ascii({k: v for k, v in job.items() if k != "games"}) + "\n")
            for game in job["games"]:
                fh.write(ascii(game) + "\n")
        out3, out2 = os.path.join(tmp, "py3.txt"), os.path.join(tmp, "py27.txt")
        s3 = run(sys.executable, path, out3)
        s2 = run(py2, path, out2)
        diffs = []
        codes = {}
        hit = 0
        played = 0
        for g2, g3, spec in zip(_games(out2), _games(out3), job["games"]):
            played += 1
            for e in g3["errors"]:
                codes[e[0]] = codes.get(e[0], 0) + 1
            if [e for e in g3["errors"] if e[0] in BUDGET_CODES]:
                hit += 1
            for key in ("result", "log", "errors", "state"):
                if g2[key] != g3[key]:
                    diffs.append((g3["seed"], key, spec["text"]))
                    break
    if played != len(job["games"]):
        raise SystemExit("a host played %d of the %d games" % (played, len(job["games"])))
    return {"games": played, "differences": diffs, "error_codes": codes, "budget_games": hit,
            "seconds_py3": round(s3, 1), "seconds_py27": round(s2, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--python2", help="a Python 2.7 interpreter (default: $PYTHON27, python2.7, pyenv's)")
    args = ap.parse_args(argv)
    py2 = python27(args.python2)
    if py2 is None:
        raise SystemExit("no Python 2.7 interpreter found (give --python2)")
    t0 = time.time()
    r = compare(args.games, args.seed, py2)
    budget = sum(v for k, v in r["error_codes"].items() if k in BUDGET_CODES)
    print("%d games under Python 3 (%.1f s) and Python 2.7 (%.1f s): %d differences" % (
        r["games"], r["seconds_py3"], r["seconds_py27"], len(r["differences"])))
    print("rule errors: %s (%d from the budget: RS511-RS514, in %d games)" % (
        ", ".join("%s %d" % kv for kv in sorted(r["error_codes"].items())), budget, r["budget_games"]))
    print("total %.1f s" % (time.time() - t0))
    for seed, key, text in r["differences"][:5]:
        print("game with seed %s differs in %s; its rules:\n%s\n" % (seed, key, text))
    return 1 if r["differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
