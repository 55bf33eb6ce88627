"""``aiwolf`` command line: check and explain protocol sentences, run an agent against a server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from rulescript import cliutil, textfile
from rulescript.diagnostics import Diagnostic, SourceText, render, to_json

from . import ast as A
from .exits import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError
from .game import STANDARD_ROLES, GameContext, parse_role_counts

_DESCRIPTION = """\
AIWolf protocol 3.6 sentences as the AIWolf platform speaks them, and agents for AIWolf servers.
The sentence language, the diagnostics and the client library are described in docs/aiwolf.md."""

_EPILOG = """\
examples:
  aiwolf check talk.txt                       one sentence a line; report every error
  aiwolf check --players 15 --day 2 talk.txt  also check agent numbers, roles in play and days
  echo 'Agent[1]VOTE Agent[2]' | aiwolf check --normalize -
  aiwolf explain 'REQUEST ANY (VOTE Agent[01])'
  aiwolf agent wwrf_adapter.aiwolf.agents:RuleAgent --host localhost --port 10000
  aiwolf serve cards/werewolf --players 5 --games 20 --port 10000
  aiwolf log aiwolf-logs/001.log              replay an AIWolf log in the engine

""" + cliutil.EXIT_STATUS_HELP

_CHECK = """\
Read sentences, one a line, from FILE (or standard input with -) and report every error as
file:line:col with the source line and a caret. Blank lines and lines starting with # are skipped.
With --players (or --roles) the meaning is checked too: agent numbers in the game, roles in play and,
with --day, no DAY or talk reference in the future."""

_EXPLAIN = """\
Print a sentence in its normalised spelling and in English, with omitted subjects filled in. When
the sentence uses ANY, also print its expansion as the 3.6 text defines it (the OR of every
substitution) for the standard game that has every agent it names (5 or 15 players), or the game
given with --players/--roles."""


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=cliutil.positive_int, metavar="N", help="the game's agent count (standard roles for 5 or 15)")
    p.add_argument("--roles", metavar="ROLE=N,...", help="the roles dealt, e.g. SEER=1,WEREWOLF=1,VILLAGER=3")
    p.add_argument("--day", type=cliutil.non_negative_int, metavar="D", help="today: DAY and talk references after it are errors")
    p.add_argument("--speaker", type=int, metavar="N", help="the speaking agent (fills top-level subjects)")


def _parser() -> argparse.ArgumentParser:
    from .client_cli import add_agent_command
    from .serve_cli import add_serve_commands

    p = cliutil.CommandParser(prog="aiwolf", description=_DESCRIPTION, epilog=_EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    cliutil.add_version(p, "aiwolf")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="check sentences, one a line", description=_CHECK)
    c.add_argument("file", metavar="FILE", help="a text file, or - for standard input")
    c.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: file:line:col with the source line and a caret (default); json: a list")
    c.add_argument("--normalize", action="store_true",
                   help="print each valid sentence in its normalised spelling (diagnostics go to stderr)")
    _game_options(c)
    c.set_defaults(run=cmd_check)
    e = sub.add_parser("explain", help="a sentence in English, with ANY expanded", description=_EXPLAIN)
    e.add_argument("sentence", nargs="+", metavar="SENTENCE", help="the sentence (quote it, or give its words)")
    _game_options(e)
    e.set_defaults(run=cmd_explain)
    add_agent_command(sub)
    add_serve_commands(sub)
    return p


def _parse_roles(text: str) -> dict[A.Role, int]:
    try:
        return parse_role_counts(text)
    except ValueError as exc:
        raise UsageError(f"{exc} in --roles") from None


def _game(args: argparse.Namespace, default_players: int | None = None) -> GameContext | None:
    """The game of --players/--roles/--day; None when none of them is given and no default."""
    players = args.players
    roles = _parse_roles(args.roles) if args.roles else None
    if players is None and roles:
        players = sum(roles.values())
    if players is None:
        players = default_players
    if players is None:
        if args.day is not None:
            raise UsageError("--day needs --players or --roles")
        return None
    if roles is None:
        if players not in STANDARD_ROLES:
            raise UsageError(f"--players {players}: give the roles with --roles (standard games have 5 or 15)")
        roles = dict(STANDARD_ROLES[players])
    try:
        return GameContext(players, roles, args.day)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _speaker(args: argparse.Namespace) -> A.Agent | None:
    if args.speaker is None:
        return None
    if args.speaker < 1:
        raise UsageError("--speaker must be 1 or more")
    return A.Agent(args.speaker)


def _read(name: str) -> tuple[str, str]:
    """A protocol text or log as text (the one reading policy, rulescript/textfile.py): anything but
    UTF-8 is one located error, never the file's bytes."""
    if name == "-":
        name, data = "<stdin>", sys.stdin.buffer.read()
    else:
        try:
            data = Path(name).read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        return name, textfile.decode(data)
    except textfile.NotText as exc:
        raise cliutil.InputError(f"{name}:{exc.line}:{exc.col}: {exc.message}") from None


def cmd_check(args: argparse.Namespace) -> int:
    from .meaning import check_meaning
    from .parser import parse
    from .serialize import serialize
    from .subjects import normalize

    game = _game(args)
    speaker = _speaker(args)
    file, text = _read(args.file)
    source = SourceText(file, text)
    diags: list[Diagnostic] = []
    count = 0
    for number, raw in enumerate(source.lines, 1):
        line = raw.rstrip("\r")
        if not line.strip(" \t") or line.lstrip(" \t").startswith("#"):
            continue
        count += 1
        result = parse(line, file, number)
        found = list(result.diagnostics)
        if result.utterance is not None and game is not None:
            found += check_meaning(result.utterance, game, file, number)
        diags += found
        if args.normalize and result.utterance is not None and not found:
            print(serialize(normalize(result.utterance, speaker)))
    out = sys.stderr if args.normalize else sys.stdout
    if args.format == "json":
        print(to_json(diags), file=out)
    else:
        for d in diags:
            print(render(d, source), file=out)
    errors = sum(1 for d in diags if d.is_error)
    print(f"{count} sentence(s): {errors} error(s)", file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from .expand import ExpansionTooLarge, expand_any, has_any
    from .explain import describe
    from .meaning import check_meaning
    from .parser import parse
    from .serialize import serialize
    from .subjects import normalize

    text = " ".join(args.sentence)
    speaker = _speaker(args)
    result = parse(text, "<sentence>")
    if result.utterance is None:
        for d in result.diagnostics:
            print(render(d, text), file=sys.stderr)
        return EXIT_ERRORS
    u = result.utterance
    named = max((w.number for s in ([] if isinstance(u, A.Flow) else A.walk(u))
                 for w in (s.subject, getattr(s, "target", None)) if isinstance(w, A.Agent)), default=0)
    explicit = _game(args)
    if explicit is not None:
        diags = check_meaning(u, explicit)
        if diags:
            for d in diags:
                print(render(d, text), file=sys.stderr)
            return EXIT_ERRORS
    print(serialize(normalize(u, speaker)))
    print("  " + describe(u, speaker))
    if has_any(u):
        game = explicit or _game(args, default_players=5 if named <= 5 else 15)
        assert game is not None
        if named > game.agents:
            print(f"aiwolf: error: the sentence names Agent[{named:02d}]; give the game with --players/--roles",
                  file=sys.stderr)
            return EXIT_ERRORS
        where = f"{game.agents} agents; roles: {', '.join(r.value for r in game.roles_in_play)}"
        print(f"with ANY expanded ({where}):")
        try:
            expanded = expand_any(u, game)
        except ExpansionTooLarge as exc:
            print(f"  ({exc})")
            return EXIT_OK
        print("  " + serialize(expanded))
        print("  " + describe(expanded, speaker))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    return cliutil.run_main("aiwolf", _main, argv)


def _main(argv: list[str]) -> int:
    args = cliutil.parse_command(_parser(), argv, "check, explain, agent, serve or log")
    return args if isinstance(args, int) else int(args.run(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
