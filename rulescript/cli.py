"""The ``rulescript`` command line: one subcommand per user job.

Exit statuses (:mod:`rulescript.cliutil`): 0 success, 1 errors in the input (or failed tests), 2 usage or
I/O error, 3 internal error (with a crash report), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from rulescript import cliutil
from rulescript.cliutil import (EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Progress, UsageError, colour_diagnostics,
                                positive_int, seed_int, summary, use_colour, write_atomic)

if TYPE_CHECKING:  # the compiler is imported when a command runs, inside the guard (Ctrl-C, errors)
    from rulescript.compiler import CompileCache, CompileResult


def _is_game_folder(path: Path) -> bool:
    return path.is_dir() and any((path / name).exists() for name in ("game.yaml", "cards.yaml", "rules"))


def _exists(raw: str) -> Path:
    path = Path(raw)
    try:
        found = path.exists()
    except (OSError, ValueError):
        found = False
    if not found:
        raise UsageError(f"no such file or folder: {raw}")
    return path


def compile_paths(paths: Sequence[str], profile: str | None, cache: CompileCache | None,
                  progress: Any = None) -> list[CompileResult]:
    """Compile files, game folders, or folders of .ini files."""
    from rulescript.compiler import compile_game

    results = []
    for raw in paths:
        path = _exists(raw)
        if _is_game_folder(path):
            results.append(compile_game(path, profile, cache, progress=progress))
        elif path.is_dir():
            files = sorted(p for p in path.rglob("*.ini") if p.is_file())
            if not files:
                raise UsageError(f"{raw} is not a game folder (it has no game.yaml or cards.yaml) and holds no "
                                 ".ini rule files")
            for i, f in enumerate(files):
                results.append(_compile_one(f, profile, cache))
                if progress is not None:
                    progress(i + 1, len(files))
        else:
            results.append(_compile_one(path, profile, cache, progress))
    return results


def _compile_one(path: Path, profile: str | None, cache: CompileCache | None, progress: Any = None) -> CompileResult:
    from rulescript.compiler import compile_file, find_game_root, load_cards

    game = find_game_root(path.parent)
    cards = load_cards(game / "cards.yaml")[0] if game else None
    return compile_file(path, profile or "cfc", cards=cards, cache=cache, progress=progress)


def _cache_for(args: argparse.Namespace) -> CompileCache | None:
    from rulescript.compiler import CompileCache

    if getattr(args, "no_cache", False):
        return None
    directory = getattr(args, "cache_dir", None) or os.environ.get("RULESCRIPT_CACHE_DIR")
    if directory:
        cliutil.output_folder(directory)
    return CompileCache(directory) if directory else CompileCache()


def _compile_with_progress(paths: Sequence[str], args: argparse.Namespace) -> list[CompileResult]:
    if args.profile is not None:
        from rulescript.compiler.profile import load_profile

        load_profile(args.profile)  # a --profile that cannot be loaded is a usage error, before anything
    progress = Progress("compiling")
    try:
        return compile_paths(paths, args.profile, _cache_for(args), progress)
    finally:
        progress.finish()


def cmd_check(args: argparse.Namespace) -> int:
    results = _compile_with_progress(args.paths, args)
    diags = [d for r in results for d in r.diagnostics]
    show_warnings = not args.no_warnings
    shown = [d for d in diags if d.is_error or show_warnings]
    errors = sum(1 for d in diags if d.is_error)
    if args.format == "json":
        from rulescript.diagnostics import to_json

        print(to_json(shown))
    else:
        colour = use_colour(sys.stdout)
        for r in results:
            text = "\n\n".join(d.render(r.sources.get(d.span.file)) for d in r.diagnostics if d in shown)
            if text:
                print(colour_diagnostics(text, colour) + "\n")
        rules = sum(len(r.rules) for r in results)
        files = sum(len(r.files) for r in results)
        warnings = sum(1 for d in diags if d.severity == "warning")
        print(summary(not errors, f"{cliutil.plural(rules, 'rule')} compiled from {cliutil.plural(files, 'file')}",
                      errors, warnings, show_warnings, use_colour(sys.stderr)), file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


def cmd_compile(args: argparse.Namespace) -> int:
    if args.output != "-":
        cliutil.check_output_path(args.output)
    results = _compile_with_progress([args.path], args)
    result = results[0]
    if len(results) > 1:
        for extra in results[1:]:
            result.rules.update(extra.rules)
            result.diagnostics.extend(extra.diagnostics)
            result.sources.update(extra.sources)
    errors = [d for d in result.diagnostics if d.is_error]
    if errors:
        print(colour_diagnostics(result.render(), use_colour(sys.stderr)), file=sys.stderr)
        print(summary(False, f"{args.output} was not written", len(errors), len(result.warnings), True,
                      use_colour(sys.stderr)), file=sys.stderr)
        return EXIT_ERRORS
    doc = result.document()
    text: str | Any
    if args.format == "py":
        from rulescript.pyliteral import python_module

        text = python_module("Generated by `rulescript compile`: RuleScript IR as a Python literal (Python 2.7 and 3).",
                             [("IR", doc)])
    elif args.pretty:
        text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    else:
        text = _buffered(_compact_json(doc))
    if args.output == "-":
        sys.stdout.writelines([text] if isinstance(text, str) else text)
    else:
        write_atomic(args.output, text)
        print(f"wrote {cliutil.plural(len(doc['rules']), 'rule')} to {args.output} ({args.format})", file=sys.stderr)
    return EXIT_OK


def _compact_json(doc: dict[str, Any]) -> Any:
    """The compact JSON of an IR document, rule by rule (the same text as one json.dumps with sorted keys,
    without ever holding the whole text: a 30,000-rule IR is tens of megabytes)."""
    def dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    sep = "{"
    for key in sorted(doc):
        yield f"{sep}{dumps(key)}:"
        sep = ","
        if key == "rules" and isinstance(doc[key], dict) and doc[key]:
            inner = "{"
            for rid in sorted(doc[key]):
                yield f"{inner}{dumps(rid)}:{dumps(doc[key][rid])}"
                inner = ","
            yield "}"
        else:
            yield dumps(doc[key])
    yield "}\n"


def _buffered(chunks: Any, size: int = 1 << 16) -> Any:
    """JSON chunks joined into pieces of about ``size`` characters (fewer, larger writes)."""
    buf: list[str] = []
    n = 0
    for chunk in chunks:
        buf.append(chunk)
        n += len(chunk)
        if n >= size:
            yield "".join(buf)
            buf, n = [], 0
    if buf:
        yield "".join(buf)


def cmd_docs(args: argparse.Namespace) -> int:
    from rulescript.docgen import render

    if args.check and args.output in (None, "-"):
        raise UsageError("docs --check compares with a file: give it with -o FILE")
    if args.output not in (None, "-"):
        cliutil.check_output_path(args.output)
    text = render(args.profile)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return EXIT_OK
    out = Path(args.output)
    if args.check:
        try:
            current = out.read_text(encoding="utf-8") if out.exists() else ""
        except (UnicodeDecodeError, ValueError):
            current = ""
        if current != text:
            print(f"{out} is out of date: run 'rulescript docs {args.profile} -o {out}'", file=sys.stderr)
            return EXIT_ERRORS
        print(f"ok: {out} is up to date", file=sys.stderr)
        return EXIT_OK
    write_atomic(out, text)
    print(f"wrote {out}", file=sys.stderr)
    return EXIT_OK


def _load_table(game: str) -> Any:
    """The game's card data and compiled rules, or None after printing why they cannot be used."""
    from rulescript.sim.cards import CardDataError
    from rulescript.sim.host import RulesError, load_table

    path = _exists(game)
    if not path.is_dir():
        raise UsageError(f"{game} is not a folder: give a game folder")
    if not (path / "cards.yaml").is_file():
        raise UsageError(f"{game} is not a game folder (it has no cards.yaml)")
    try:
        return load_table(game)
    except RulesError as exc:
        print(colour_diagnostics(exc.result.render(), use_colour(sys.stderr)), file=sys.stderr)
        print(summary(False, f"{game} cannot be played", len(exc.result.errors),
                      len(exc.result.warnings), True, use_colour(sys.stderr)), file=sys.stderr)
        return None
    except CardDataError as exc:
        print(colour_diagnostics(exc.diagnostic.render(), use_colour(sys.stderr)), file=sys.stderr)
        return None


def _decks(table: Any, game: str, wanted: list[str] | None) -> list[str] | None:
    """The two deck names to play, or None after printing why there are none."""
    from rulescript.sim.cards import DECK_HELP

    names = table.data.deck_names()
    if not names:
        print(f"rulescript: error: {game} has no decks: {DECK_HELP}", file=sys.stderr)
        return None
    decks = wanted or [names[0], names[-1]]
    for d in decks:
        if d not in table.data.decks:
            raise UsageError(f"unknown deck '{d}' (decks: {', '.join(names)})")
    return decks


def _profile_of(game: str) -> str:
    from rulescript.compiler.driver import game_profile_name

    return game_profile_name(Path(game))[0] if Path(game).is_dir() else "cfc"


def _load_wolf_table(game: str) -> Any:
    from rulescript.sim.wolf import WolfDataError, load_wolf_table_or_report

    try:
        return load_wolf_table_or_report(game)
    except WolfDataError as exc:
        raise UsageError(str(exc)) from None


def cmd_simulate_werewolf(args: argparse.Namespace) -> int:
    from rulescript.sim.simulate import json_report, print_report
    from rulescript.sim.wolf import WolfDataError, WolfRun, simulate

    table = _load_wolf_table(args.game)
    if table is None:
        return EXIT_ERRORS
    players = args.players or min(table.data.role_lists or [0])
    try:
        table.roles_for(players)
    except WolfDataError as exc:
        raise UsageError(str(exc)) from None
    quiet = args.quiet or args.json
    progress = Progress("games", delay=0.0) if not quiet else None
    try:
        res = simulate(table, players, args.games, args.seed, jobs=args.jobs, progress=progress)
    finally:
        if progress is not None:
            progress.finish()
    failed = bool(res["errors"] or res["no_win"])
    if args.json:
        print(json_report(res, args.seed, lambda log: {"seed": log["seed"], "error": log["error"],
                                                       "roles": log["roles"]}, players=players))
        return EXIT_ERRORS if failed else EXIT_OK
    print(f"games: {res['games']} with {players} players in {res['seconds']:.2f} s ({res['games_per_s']:.1f} "
          f"games/s, {res['jobs']} process{'es' if res['jobs'] > 1 else ''})")
    print(f"days per game: {res['days_per_game']:.1f}")
    total = max(1, res["games"])
    wins = ", ".join(f"{team} {n} ({100.0 * n / total:.1f} %)" for team, n in sorted(res["wins"].items()))
    print(f"wins: {wins or 'none'}; games without a win: {res['no_win']} (day limit {res['day_limit_draws']})")
    print_report(res, WolfRun(table, players), sys.stdout)
    return EXIT_ERRORS if failed else EXIT_OK


def cmd_play_werewolf(args: argparse.Namespace) -> int:
    from rulescript.sim.deciders import RandomDecider
    from rulescript.sim.gamelog import load_log, save_log
    from rulescript.sim.host import Recorder
    from rulescript.sim.wolf import WolfDataError, print_narrative

    table = _load_wolf_table(args.game)
    if table is None:
        return EXIT_ERRORS
    rec = Recorder()
    if args.replay:
        from rulescript.runtime.errors import InvalidDecision
        from rulescript.sim.deciders import ReplayDiverged
        from rulescript.sim.gamelog import SaveError

        try:
            log = load_log(args.replay, werewolf=table.data)
        except SaveError as exc:
            print(colour_diagnostics(exc.diagnostic.render(), use_colour(sys.stderr)), file=sys.stderr)
            return EXIT_ERRORS
        try:
            game = table.replay(log, sink=rec, partial=True)
        except (ReplayDiverged, InvalidDecision) as exc:
            print(f"rulescript: error: cannot replay {args.replay}: {exc}", file=sys.stderr)
            return EXIT_ERRORS
        print_narrative(rec.records, game, sys.stdout)
        if game.replay_stopped is not None:
            print(f"(the log ends here, after {game.replay_stopped} decisions)")
        return EXIT_OK
    players = args.players or min(table.data.role_lists or [0])
    if not args.auto:  # you play seat 0 (Player 1); the other seats are seeded random players
        from rulescript.sim.wolf_table import WolfSession

        names = [n.strip() for n in args.names.split(",")] if args.names else None
        if names is not None and (len(names) != players or not all(names)):
            raise UsageError(f"--names needs {players} names separated by commas")
        try:
            people = tuple(range(players)) if args.hot_seat else (0,)
            session = WolfSession(table, players, args.seed, sys.stdin, sys.stdout, people, args.hot_seat, names)
            prefix = []
            if args.load:
                from rulescript.sim.gamelog import SaveError

                try:
                    log = load_log(args.load, werewolf=table.data)
                except (OSError, SaveError) as exc:
                    print(f"rulescript: error: cannot load {args.load}: {getattr(exc, 'diagnostic', None) and exc.diagnostic.render() or exc}", file=sys.stderr)
                    return EXIT_ERRORS
                session.seed, session.roles = log["seed"], list(log["roles"])
                session.players = len(session.roles)
                prefix = [d[2] for d in log["decisions"]]
            return session.run(prefix)
        except KeyboardInterrupt:
            print("\nthe game was left", file=sys.stderr)
        except WolfDataError as exc:
            raise UsageError(str(exc)) from None
        return EXIT_OK
    try:
        game, log = table.play(players, args.seed, RandomDecider(args.seed + 1), sink=rec)
    except WolfDataError as exc:
        raise UsageError(str(exc)) from None
    print_narrative(rec.records, game, sys.stdout)
    if args.log:
        save_log(log, args.log)
        print(f"game log written to {args.log}", file=sys.stderr)
    return EXIT_ERRORS if log["error"] else EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    from rulescript.sim.host import new_engine
    from rulescript.sim.simulate import CfcRun, json_report, print_report, simulate

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    args.json = args.format == "json"
    if _profile_of(args.game) == "werewolf":
        return cmd_simulate_werewolf(args)
    table = _load_table(args.game)
    if table is None:
        return EXIT_ERRORS
    if _decks(table, args.game, None) is None:
        return EXIT_ERRORS
    rules = table.rules
    quiet = args.quiet or args.json
    progress = Progress("games", delay=0.0) if not quiet else None
    try:
        res = simulate(args.game, args.games, args.seed, progress=progress, turn_limit=args.turn_limit,
                       data=table.data, rules_factory=lambda: new_engine(rules), jobs=args.jobs, rules_ir=rules)
    finally:
        if progress is not None:
            progress.finish()
    if args.json:
        print(json_report(res, args.seed, lambda log: {"seed": log["seed"], "error": log["error"],
                                                       "decks": [d["name"] for d in log["decks"]]}))
        return EXIT_ERRORS if res["errors"] else EXIT_OK
    print(f"games: {res['games']} in {res['seconds']:.2f} s ({res['games_per_s']:.1f} games/s, {res['jobs']} "
          f"process{'es' if res['jobs'] > 1 else ''})")
    print(f"turns per game: {res['turns_per_game']:.1f}")
    print(f"wins: player 0 {res['wins'][0]}, player 1 {res['wins'][1]}; draws {res['draws']} "
          f"(turn limit {res['turn_limit_draws']})")
    print_report(res, CfcRun(table.data, rules_ir=rules), sys.stdout)
    return EXIT_ERRORS if res["errors"] else EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from rulescript.sim.host import Recorder, print_log_lines
    from rulescript.sim.gamelog import save_log

    if args.log and args.log != "-":
        cliutil.check_output_path(args.log)
    for option, value in (("--replay", args.replay), ("--load", args.load)):
        if value:
            cliutil.input_file(value, f"saved game file ({option})")
    if _profile_of(args.game) == "werewolf":
        return cmd_play_werewolf(args)
    table = _load_table(args.game)
    if table is None:
        return EXIT_ERRORS
    if not args.replay and not args.load:
        decks = _decks(table, args.game, args.decks)
        if decks is None:
            return EXIT_ERRORS
    else:
        decks = list(args.decks or [])
    if not args.auto:
        from rulescript.sim.table import run_interactive

        return run_interactive(table, decks, args, sys.stdin, sys.stdout)
    from rulescript.sim.deciders import RandomDecider

    rec = Recorder()
    game, log, _eng = table.play(args.seed, RandomDecider(args.seed + 1), decks, sink=rec,
                                 turn_limit=args.turn_limit)
    print_log_lines(rec.records, game, sys.stdout, root=table.data.root)
    if args.log:
        save_log(log, args.log)
        print(f"game log written to {args.log}", file=sys.stderr)
    return EXIT_ERRORS if log["error"] else EXIT_OK


def cmd_test(args: argparse.Namespace) -> int:
    from rulescript.sim.scenario import main_test

    for raw in args.paths:
        _exists(raw)
    return int(main_test(args.paths, sys.stdout, fmt=args.format))


def cmd_new(args: argparse.Namespace) -> int:
    from rulescript.newgame import new_game

    out, game_id, name = new_game(args.game, args.source, args.name)
    print(f"made {out}: the game '{name}' (id {game_id}), from {args.source or 'the demo game'}", file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = cliutil.CommandParser(
        prog="rulescript",
        description="RuleScript card rules: check and compile INI rules against a game profile.",
        epilog=cliutil.EXIT_STATUS_HELP + "  Run 'rulescript COMMAND --help' for more.")
    cliutil.add_version(parser, "rulescript")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--profile", help="game profile name or YAML path (default: the game's game.yaml, else cfc)")
        p.add_argument("--no-cache", action="store_true", help="do not use the compile cache")
        p.add_argument("--cache-dir", help="keep compiled files in this folder between runs "
                       "(also: $RULESCRIPT_CACHE_DIR)")

    p = sub.add_parser("check", help="check rule files or game folders and report diagnostics",
                       description="Compile rule files (or every rules/*.ini of a game folder) and print every "
                       "diagnostic like a compiler: file:line:col, the source line and a caret.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .ini file, a game folder or a folder of .ini files")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    p.add_argument("--no-warnings", action="store_true",
                   help="report errors only (warnings are counted in the summary, not printed)")
    p.add_argument("--warnings", "-W", action="store_false", dest="no_warnings",
                   help="show warnings too (the default)")
    common(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("compile", help="compile rules to IR (JSON or a Python literal module)",
                       description="Compile a rule file or game folder to the IR the runtime executes. Nothing is "
                       "written when there are errors.")
    p.add_argument("path", metavar="PATH", help="a .ini file or a game folder")
    p.add_argument("-o", "--output", required=True, help="output file ('-' for standard output)")
    p.add_argument("--format", choices=["json", "py"], default="json", help="json (default) or py (a Python literal)")
    p.add_argument("--pretty", action="store_true", help="indented JSON (default: compact, one line)")
    p.add_argument("--compact", action="store_true", help=argparse.SUPPRESS)  # the default since 0.2
    common(p)
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("docs", help="generate the language reference of a profile (Markdown)",
                       description="Render a game profile's vocabulary (commands with signatures, costs, filter "
                       "keywords, zones, events, hooks, abilities, restrictions, game rules, expression names) as "
                       "Markdown. The reference is generated from the profile, so it cannot drift.")
    p.add_argument("profile", nargs="?", default="cfc", help="profile name or YAML path (default: cfc)")
    p.add_argument("-o", "--output", help="write to this file (default: standard output)")
    p.add_argument("--check", action="store_true", help="exit 1 if the file given with -o is not up to date")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("test", help="run the card scenarios of game folders",
                       description="Run every scenario (scenarios/**/*.yaml) of the given game folders or files; "
                       "prints one line per scenario and ends with 'N passed, M failed'.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a game folder or a scenario file")
    p.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default) or json: a list of {name, file, line, status, failures}")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("simulate", help="play many random games and report speed, wins and engine errors",
                       description="Play N complete games with seeded random deciders (decks drawn from the "
                       "game's decks), showing progress, then print games per second, turns per game, wins per "
                       "player, every engine error grouped by rule and message, and which rules resolved at least "
                       "once (rule coverage). --jobs N spreads the games over N processes with the same results as "
                       "a serial run.")
    p.add_argument("game", metavar="GAME", help="a game folder")
    p.add_argument("--games", type=positive_int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=seed_int, default=1, help="seed of the whole run (default 1)")
    p.add_argument("--turn-limit", type=positive_int, default=200,
                   help="a game longer than this is a draw (default 200)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.add_argument("--jobs", "-j", type=positive_int, default=1, metavar="N",
                   help="play the games in N processes; the results equal a serial run's with the same seed")
    p.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default) or json: the results, coverage and error groups included")
    p.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")
    p.add_argument("--players", type=positive_int, help="werewolf games: the number of players (a role list of "
                   "game.yaml; default: the smallest)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("play", help="play a game on a headless table (or watch a seeded one with --auto)",
                       description="Play a game of a game folder in the terminal. With --auto, both seats are "
                       "played by a seeded random decider and the game's readable log is printed.")
    p.add_argument("game", metavar="GAME", help="a game folder")
    p.add_argument("--seed", type=seed_int, default=1, help="game seed (default 1)")
    p.add_argument("--decks", nargs=2, metavar=("DECK0", "DECK1"), help="deck names (default: first and last)")
    p.add_argument("--auto", action="store_true", help="random decisions for both players; print the log")
    p.add_argument("--log", help="write the game log (a Python literal) to this file")
    p.add_argument("--turn-limit", type=positive_int, default=200,
                   help="a game longer than this is a draw (default 200)")
    p.add_argument("--watch", action="store_true", help="reload edited rules while playing: they apply to cards "
                   "already in play at their next resolution")
    p.add_argument("--opponent", choices=["human", "random"], default="human",
                   help="who plays seat 1: another human at this terminal (default) or a seeded random player")
    p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    p.add_argument("--replay", metavar="FILE", help="print a saved game's readable log and exit")
    p.add_argument("--players", type=positive_int, help="werewolf games: the number of players (default: the smallest "
                   "role list of game.yaml)")
    p.add_argument("--hot-seat", action="store_true", help="werewolf games: every seat is a person at this "
                   "screen; before each question the screen is cleared and the named player takes the keyboard")
    p.add_argument("--names", metavar="NAMES", help="werewolf games: the players' names, separated by commas "
                   "(default Player 1, Player 2, ...)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("new", help="make a new game folder from the demo game (or another game)",
                       description="Copy a game folder (by default the bundled demo, cards/cfc-demo) into a new "
                       "folder with a game id and name of its own, so that OCTGN sees another game. Hidden files, "
                       "caches and built packages are not copied.")
    p.add_argument("game", metavar="GAME", help="the folder to make (it must not exist, or be empty)")
    p.add_argument("--from", dest="source", metavar="SOURCE", help="the game folder to start from (default: the demo)")
    p.add_argument("--name", help="the game's name (default: the folder's name)")
    p.set_defaults(func=cmd_new)

    for name, (_module, _func, text) in DELEGATED.items():
        sub.add_parser(name, help=text, add_help=False)  # listed here; parsed by its own module
    return parser


DELEGATED = {
    # subcommands with their own argument parser: everything after the name is passed on
    "watch": ("rulescript.watch", "main_watch",
              "watch a game folder: recompile changed rules and re-run the affected scenarios on every save"),
    "import": ("rulescript.importer", "main_import",
               "convert an OCTGN plugin folder (definition.xml, scripts, sets, decks) into a game folder"),
    "explain": ("rulescript.explain.cli", "main_explain",
                "card text from the rules: each card's printed text beside the generated one, and where they disagree"),
    "lsp": ("rulescript.lsp.cli", "main_lsp",
            "start the language server (LSP) on stdio for editors: diagnostics, hover, completion, navigation"),
}


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    return cliutil.guarded("rulescript", lambda: _main(args_list))


def _main(args_list: list[str]) -> int:
    if args_list and args_list[0] in DELEGATED:
        import importlib

        module, func, _help = DELEGATED[args_list[0]]
        return int(getattr(importlib.import_module(module), func)(args_list[1:]))
    parser = build_parser()
    args = cliutil.parse_args(parser, args_list)
    if isinstance(args, int):
        return args
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from rulescript.compiler.profile import ProfileError

    try:
        return int(args.func(args))
    except ProfileError as exc:  # a --profile of the command line (a game's own is a diagnostic)
        first = exc.diagnostics[0]
        if first.code == "RP201":
            raise UsageError(first.message + (f" ({'; '.join(first.notes)})" if first.notes else "")) from None
        print(colour_diagnostics("\n".join(d.render() for d in exc.diagnostics), use_colour(sys.stderr)),
              file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
