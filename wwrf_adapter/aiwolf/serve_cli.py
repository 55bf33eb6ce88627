"""``aiwolf serve GAME`` (an AIWolf server playing the game in our engine) and ``aiwolf log FILE`` (read an
AIWolf log and replay it in the engine)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rulescript import cliutil, textfile
from rulescript.diagnostics import render

from .exits import EXIT_ERRORS, EXIT_OK, UsageError
from .names import STANDARD

#: the werewolf game of this checkout (cards/werewolf), the default of ``aiwolf log``
BUNDLED_GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"

_SERVE = """\
Listen on TCP and play the AIWolf standard game (docs/aiwolf.md) in our engine, with the rendered
werewolf game GAME (e.g. cards/werewolf) and its role list for --players. Agents connect with the
AIWolf protocol (e.g. `aiwolf agent wwrf_adapter.aiwolf.agents:RuleAgent --port P`) and keep their
connection for all --games; seats nobody connected to within --wait seconds are played by built-in
agents (--fill). Talk and whispers are run in turns as AIWolf does; votes, divinations, guards and
attacks are the engine's decisions.

The game follows the reference AIWolf server's rules; every option of its game setting has an
option here (defaults: the reference's), sent to agents with INITIALIZE. With the default
--no-enable-no-attack, a night always attacks a living human, even when no wolf casts a valid attack
vote. A connection that comes when the seats are taken is refused, with one line.

An agent that is late (--time-limit), sends a malformed reply or an invalid sentence, or disconnects
does not stop the game: an invalid utterance counts as Skip, a missing vote is drawn at random, a
missing attack vote is dropped, a missing divination or guard is not made, a lost seat is played by
the server; each such incident is printed (one line) and kept in the game log.

Each game is written to --log-dir as NNN.log (the AIWolf log format, checked by `aiwolf log`) and
NNN.game (the engine's game log: `rulescript play GAME --replay NNN.game`).

exit status: 0 every game ended with a winner, 1 a game stopped on an engine error, 2 usage error
(no such game, no role list, the port is taken)."""

_LOG = """\
Read AIWolf game logs (the format is in docs/aiwolf.md) and replay each in the engine: the roles of the day-0 status lines
are dealt, every vote, attack vote, divination and guard answers the engine's decision, and what the
engine does (executions, divination results, attacks, who is alive each day, the winner) must be
what the log says. Talk is checked too (numbering, turns, speakers, valid sentences, limits). Every
mistake is printed as FILE:LINE:COL with the line and a caret.

exit status: 0 every log is a legal game, 1 errors, 2 usage error (unreadable file, no game)."""


def add_serve_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    s = sub.add_parser("serve", help="an AIWolf server that plays the game in our engine", description=_SERVE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("game", type=Path, metavar="GAME", help="a rendered werewolf game folder (e.g. cards/werewolf)")
    s.add_argument("--players", type=int, required=True, metavar="N",
                   help="players per game (the game's role list for N, or --roles)")
    s.add_argument("--roles", metavar="ROLE=N,...", help="deal these AIWolf roles instead, e.g. SEER=1,WEREWOLF=2,VILLAGER=4")
    s.add_argument("--port", type=int, default=10000, help="TCP port (default 10000; 0 picks a free one)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--games", type=int, default=1, metavar="G", help="games to play (default 1)")
    s.add_argument("--agents", type=int, metavar="K", help="connections to wait for (default: one per player)")
    s.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                   help="how long to wait for them (default 60); then built-in agents fill the free seats")
    s.add_argument("--fill", choices=("rule", "random"), default="rule",
                   help="built-in agent for free seats: rule (RuleAgent, default) or random (RandomAgent)")
    s.add_argument("--seed", type=int, default=0, help="seed of the games (deals, talk orders, draws)")
    s.add_argument("--time-limit", type=int, default=1000, metavar="MS",
                   help="ms an agent has per reply (default 1000; -1: no limit, the reference's 'not set')")
    _add_rule_options(s)
    s.add_argument("--log-dir", type=Path, default=Path("aiwolf-logs"), metavar="DIR",
                   help="where the logs go (default ./aiwolf-logs)")
    s.add_argument("--stats", action="store_true", help="print the server's own time per request at the end")
    s.add_argument("--quiet", action="store_true", help="only the listening line, the summary and errors")
    s.set_defaults(run=cmd_serve)
    g = sub.add_parser("log", help="check AIWolf logs by replaying them in the engine", description=_LOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    g.add_argument("files", nargs="+", metavar="FILE", help="AIWolf log files")
    g.add_argument("--game", type=Path, default=BUNDLED_GAME, metavar="GAME",
                   help="the rendered werewolf game to replay in (default: this checkout's cards/werewolf)")
    g.add_argument("--no-validate-utterance", dest="validate_utterance", action="store_false",
                   help="the game took any text as talk (the reference's validateUtterance false, which a log "
                        "cannot show); by default a talk that is no valid sentence is an error")
    g.set_defaults(run=cmd_log)


def _table(game: Path) -> Any:
    from rulescript.sim.wolf import WolfDataError, load_wolf_table_or_report

    if not (game / "game.yaml").is_file():
        raise UsageError(f"{game} is not a game folder (no game.yaml)")
    try:
        return load_wolf_table_or_report(game)
    except WolfDataError as exc:
        raise UsageError(str(exc)) from None


def _role_ids(text: str) -> list[str]:
    from .game import parse_role_counts

    try:
        counts = parse_role_counts(text)
    except ValueError as exc:
        raise UsageError(f"{exc} in --roles") from None
    out = []
    for role, count in counts.items():
        rid = STANDARD.role_id(role)
        if rid is None:
            raise UsageError(f"--roles: the game has no role for {role.value}")
        out += [rid] * count
    return out


#: the game setting options of ``aiwolf serve`` (GameSetting field, help); the defaults are the reference's
_RULE_OPTIONS = (
    ("enable_no_attack", "the wolves may attack nobody (otherwise, with no valid attack vote, a random living "
                         "human is attacked)"),
    ("enable_no_execution", "a tie that remains after the last revote executes nobody (otherwise one of the "
                            "tied is drawn)"),
    ("talk_on_first_day", "day 0 has talk (and the wolves whisper before it)"),
    ("votable_in_first_day", "sent to agents; like the reference server, day 0 has no vote either way"),
    ("vote_visible", "agents are told who voted for whom"),
    ("whisper_before_revote", "the wolves whisper again before each attack revote"),
    ("validate_utterance", "a talk or whisper that is no valid sentence counts as Skip"),
    ("enable_role_request", "ROLE is asked before each game and the reply granted when the role is free"),
    ("max_revote", "revotes after a tied vote"),
    ("max_attack_revote", "revotes after a tied or empty attack vote"),
    ("max_talk", "talks an agent has each day"),
    ("max_talk_turn", "talk turns a day"),
    ("max_whisper", "whispers a wolf has each whisper session"),
    ("max_whisper_turn", "whisper turns a session"),
    ("max_skip", "Skips in a row an agent may say; one more counts as Over"),
)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    from .gameinfo import GameSetting

    group = parser.add_argument_group("game setting (the reference server's options; docs/aiwolf.md)")
    defaults = GameSetting({}, 0)
    for name, help_text in _RULE_OPTIONS:
        flag = "--" + name.replace("_", "-")
        default = getattr(defaults, name)
        if isinstance(default, bool):
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=default,
                               help=f"{help_text} (default: {'on' if default else 'off'})")
        else:
            group.add_argument(flag, dest=name, type=int, default=default, metavar="N",
                               help=f"{help_text} (default {default})")


def _rules(args: argparse.Namespace) -> dict:
    rules = {}
    for name, _help in _RULE_OPTIONS:
        value = getattr(args, name)
        if not isinstance(value, bool) and value < (1 if name in ("max_talk_turn", "max_whisper_turn") else 0):
            raise UsageError(f"--{name.replace('_', '-')} must be at least "
                             f"{1 if name.endswith('_turn') else 0}")
        rules[name] = value
    return rules


def _quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    if not ordered:
        return 0.0, 0.0
    return ordered[len(ordered) // 2] * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def cmd_serve(args: argparse.Namespace) -> int:
    from .names import UnmappedRole
    from .server import ServeConfig, Server

    for name in ("players", "games"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} must be at least 1")
    if args.time_limit < 1 and args.time_limit != -1:
        raise UsageError("--time-limit must be at least 1 ms, or -1 (no limit)")
    rules = _rules(args)
    table = _table(args.game)
    if table is None:
        return EXIT_ERRORS
    try:
        args.log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write logs to {args.log_dir}: {exc.strerror or exc}") from None
    roles = _role_ids(args.roles) if args.roles else None
    if roles is not None and len(roles) != args.players:
        raise UsageError(f"--roles deals {len(roles)} roles to {args.players} players")
    config = ServeConfig(players=args.players, games=args.games, host=args.host, port=args.port, seed=args.seed,
                         agents=args.agents, wait=args.wait, fill=args.fill, time_limit=args.time_limit,
                         roles=roles, log_dir=args.log_dir, rules=rules, stats=args.stats)

    def say(message: str) -> None:
        print(f"aiwolf serve: {message}", file=sys.stderr, flush=True)

    try:
        server = Server(table, config, report=None if args.quiet else say)
    except (UnmappedRole, ValueError) as exc:
        raise UsageError(str(exc)) from None
    try:
        port = server.bind()
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    say(f"listening on {args.host}:{port}")
    server.accept()
    say(f"{len(server.remote)} agent(s) connected; {args.players - len(server.remote)} seat(s) played by "
        f"built-in {args.fill} agents")
    wins: dict[str, int] = {}
    failed = 0
    incidents = 0
    try:
        for number in range(1, args.games + 1):
            record = server.play(number)
            incidents += len(record.incidents)
            if not args.quiet:
                for incident in record.incidents:
                    say(str(incident))
            if record.winner is None:
                failed += 1
                say(f"game {number}/{args.games}: no winner: {record.error}")
                continue
            wins[record.winner] = wins.get(record.winner, 0) + 1
            if not args.quiet:
                say(f"game {number}/{args.games}: {record.winner} won on day {record.day} "
                    f"({len(record.incidents)} incident(s))")
    except KeyboardInterrupt:
        server.close()
        say("interrupted")
        return 130
    server.close()
    summary = ", ".join(f"{team} {n}" for team, n in sorted(wins.items())) or "none"
    say(f"{args.games} game(s): {summary}; {failed} without a winner; {incidents} incident(s); "
        f"logs in {args.log_dir}")
    if args.stats:
        wall, cpu = _quantiles(server.clock.samples), _quantiles(server.clock.cpu)
        say(f"server time per request over {len(server.clock.samples)} requests: median {wall[0]:.3f} ms, "
            f"p99 {wall[1]:.3f} ms (wall); median {cpu[0]:.3f} ms, p99 {cpu[1]:.3f} ms (CPU)")
    return EXIT_ERRORS if failed else EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    from .logreplay import check_log

    game = args.game
    if not (game / "game.yaml").is_file():
        raise UsageError(f"no werewolf game to replay in: {game} (give one with --game)")
    texts = []
    for name in args.files:
        try:
            texts.append((name, textfile.read_text(name)))
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
        except textfile.NotText as exc:
            raise cliutil.InputError(f"{name}:{exc.line}:{exc.col}: {exc.message}") from None
    table = _table(game)
    if table is None:
        return EXIT_ERRORS
    bad = 0
    for name, text in texts:
        check = check_log(table, text, name, validate_utterance=args.validate_utterance)
        for d in check.diagnostics:
            print(render(d, text))
        errors = sum(1 for d in check.diagnostics if d.is_error)
        if errors:
            bad += 1
            print(f"{name}: {errors} error(s)", file=sys.stderr)
        else:
            days = f"{check.days} day{'s' if check.days != 1 else ''}"
            implied = "".join(f"; the log implies {k}={str(v).lower()}" for k, v in check.implied.items())
            print(f"{name}: a legal game: {check.agents} agents, {days}, {check.winner} won "
                  f"(replayed in the engine{implied})", file=sys.stderr)
    return EXIT_ERRORS if bad else EXIT_OK

