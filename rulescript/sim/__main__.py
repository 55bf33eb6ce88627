"""``python -m rulescript.sim simulate|print|play GAME_DIR ...``: the headless host from a shell."""
from __future__ import annotations

import argparse
import sys

from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.plain import deep_copy
from rulescript.sim.cards import load_game
from rulescript.sim.deciders import InteractiveDecider, RandomDecider
from rulescript.sim.gamelog import LOG_FORMAT, describe_option, format_record, print_game, save_log
from rulescript.sim.simulate import simulate


class _PrintSink:
    """Prints every effect (not the decisions, which the terminal already shows)."""

    def __init__(self, out):
        self.out = out
        self.game = None

    def emit(self, rec):
        if rec.get("type") != "decision":
            self.out.write(format_record(rec, self.game) + "\n")
        if rec.get("type") == "turn":
            for line in status_lines(self.game):
                self.out.write(line + "\n")


def status_lines(game):
    """HP, SP, pile sizes and the ring of each player."""
    out = []
    for pl in game.state["players"]:
        ring = []
        for iid in pl["ring"]:
            if iid is None:
                ring.append("--")
            else:
                c = game.state["cards"][iid]
                marks = "".join(m[0].upper() for m in ("frozen", "fresh", "used") if c[m])
                ring.append("%s %d%s" % (describe_option(game, iid), c["bp"], " " + marks if marks else ""))
        out.append("   P%d: HP %d, SP %d, hand %d, deck %d, discards %d | %s" % (
            pl["idx"], pl["hp"], pl["sp"], len(pl["hand"]), len(pl["deck"]), len(pl["discards"]),
            " | ".join(ring)))
    return out


def play_interactive(data, decks, seed, inp, out):
    """Both players answer on the terminal; returns ``(game, log)``."""
    sink = _PrintSink(out)
    dec = InteractiveDecider(inp, out, describe=lambda o, k: describe_option(sink.game, o, k))
    game = CfcGame(data.models, [data.deck_list(decks[0]), data.deck_list(decks[1])], dec,
                   sink=sink, seed=seed)
    sink.game = game
    result = game.run()
    log = {"format": LOG_FORMAT, "seed": seed, "first": None, "first_player": game.state["first"],
           "turn_limit": game.state["turn_limit"],
           "decks": [{"name": d, "cards": data.deck_list(d)} for d in decks],
           "decisions": deep_copy(game.state["log"]), "result": result, "error": None}
    return game, log


def main(argv=None, inp=None, out=None):
    inp = inp or sys.stdin
    out = out or sys.stdout
    ap = argparse.ArgumentParser(prog="python -m rulescript.sim")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("simulate", help="many random games: speed, wins, errors")
    s.add_argument("game_dir")
    s.add_argument("--games", type=int, default=200)
    s.add_argument("--seed", type=int, default=0)
    for name, text in (("print", "one random game, one line per effect and decision"),
                       ("play", "play both sides on the terminal")):
        p = sub.add_parser(name, help=text)
        p.add_argument("game_dir")
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--decks", nargs=2, metavar=("DECK0", "DECK1"))
        p.add_argument("--log", help="write the game log (a Python literal) to this file")
    args = ap.parse_args(argv)
    if args.cmd == "simulate":
        res = simulate(args.game_dir, args.games, args.seed)
        for k in ("games", "seconds", "games_per_s", "turns_per_game", "wins", "draws",
                  "turn_limit_draws", "errors"):
            out.write("%s: %s\n" % (k, res[k]))
        for log in res["error_samples"]:
            out.write("error (seed %s): %s\n" % (log["seed"], log["error"]))
        return 1 if res["errors"] else 0
    data = load_game(args.game_dir)
    names = data.deck_names()
    decks = args.decks or [names[0], names[-1]]
    if args.cmd == "print":
        _, log = print_game(data, decks, args.seed, RandomDecider(args.seed + 1), out)
    else:
        _, log = play_interactive(data, decks, args.seed, inp, out)
    if args.log:
        save_log(log, args.log)
    return 1 if log["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
