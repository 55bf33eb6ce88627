"""``rulescript explain GAME [CARD...]``: each card's printed text beside the text generated from its
rules, and every disagreement between them as a located warning."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulescript import cliutil
from rulescript.cliutil import EXIT_ERRORS, EXIT_OK, UsageError, colour_diagnostics, plural, use_colour
from rulescript.diagnostics import did_you_mean, render


def build_parser() -> argparse.ArgumentParser:
    parser = cliutil.CommandParser(
        prog="rulescript explain",
        description="For each card with rules: its printed text (cards.yaml `text`) and the text generated from "
        "its compiled rules with the profile's card-text templates, then every disagreement between the two "
        "(numbers and what they count, keywords, whose cards, how many, when) as a warning at the card's rule. "
        "Exit 1 when a card disagrees, 0 otherwise.",
        epilog=cliutil.EXIT_STATUS_HELP)
    parser.add_argument("game", metavar="GAME", help="a game folder")
    parser.add_argument("cards", nargs="*", metavar="CARD", help="card ids to explain (default: every card with rules)")
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help='text (default) or json: {"cards": [{"id", "name", "printed", "generated", '
                        '"disagreements": [{"kind", "printed", "rules", "message"}]}]}')
    parser.add_argument("--disagreements-only", action="store_true", help="text output: only the cards that disagree")
    return parser


def main_explain(argv: list[str]) -> int:
    from rulescript.compiler import compile_game
    from rulescript.compiler.profile import load_profile
    from rulescript.explain.report import explain_cards

    args = cliutil.parse_args(build_parser(), argv)
    if isinstance(args, int):
        return args
    root = Path(args.game)
    if not root.is_dir():
        raise UsageError(f"{args.game} is not a folder: give a game folder" if root.exists()
                         else f"no such file or folder: {args.game}")
    if not (root / "cards.yaml").is_file():
        raise UsageError(f"{args.game} is not a game folder (it has no cards.yaml)")
    result = compile_game(root)
    if result.errors:
        print(colour_diagnostics(result.render(), use_colour(sys.stderr)), file=sys.stderr)
        print(f"rulescript explain: {args.game} has {plural(len(result.errors), 'error')}: fix them first",
              file=sys.stderr)
        return EXIT_ERRORS
    cards = [c for c in result.cards if isinstance(c, dict)]
    if args.cards:
        known = {str(c.get("id")) for c in cards}
        for wanted in args.cards:
            if wanted not in known:
                hint = did_you_mean(wanted, known)
                raise UsageError(f"no card '{wanted}' in {args.game}" + (f" ({hint[0]})" if hint else ""))
        cards = [c for c in cards if str(c.get("id")) in set(args.cards)]
    explained = explain_cards(cards, result.rules, load_profile(result.profile), root)
    bad = [e for e in explained if e.disagreements]
    if args.format == "json":
        json.dump({"cards": [e.to_dict() for e in explained]}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_ERRORS if bad else EXIT_OK
    colour = use_colour(sys.stdout)
    for e in explained:
        if args.disagreements_only and not e.disagreements:
            continue
        file, line, col = e.src
        print(f"{file}:{line}:{col}: {e.name} ({e.id})")
        print(f"  printed:   {e.printed or '(no printed text)'}")
        print(f"  generated: {e.generated}")
        for d in e.diagnostics():
            print(colour_diagnostics(render(d, result.sources.get(d.span.file)), colour))
        print()
    n = sum(len(e.disagreements) for e in bad)
    print(f"{plural(len(explained), 'card')} explained: "
          + (f"{plural(n, 'disagreement')} in {plural(len(bad), 'card')}" if bad else "no disagreement"))
    return EXIT_ERRORS if bad else EXIT_OK
