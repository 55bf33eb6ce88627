"""``aiwolf agent MODULE``: load an agent class and play with it on an AIWolf server."""

from __future__ import annotations

import argparse

from rulescript.cliutil import positive_int, seed_int
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

from . import ast as A
from .client import FIRST_REQUEST_WAIT, Agent, NotAnAIWolfServer, run_agent
from .jsoncodec import ProtocolError

_AGENT = """\
Connect to an AIWolf server (ours or the reference platform) and play with an agent class until the
server closes the connection. MODULE is a module name or a .py file, optionally followed by
:CLASS; without a class, the module must define exactly one subclass of
wwrf_adapter.aiwolf.client.Agent. The class is created with no arguments.

bundled agents:
  wwrf_adapter.aiwolf.agents:RuleAgent     plays its role with simple rules and talks about it
  wwrf_adapter.aiwolf.agents:RandomAgent   random valid sentences, random choices

exit status: 0 the server closed the connection (or --games were played), 1 the server broke the
protocol, 2 usage error, agent not loadable, no connection, or no AIWolf server at HOST:PORT (nothing
sent within --first-wait seconds, or not an AIWolf packet)."""


def _port(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (1 to 65535)")
    return value


def add_agent_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    a = sub.add_parser("agent", help="run a Python agent class against an AIWolf server", description=_AGENT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("module", metavar="MODULE", help="module[:Class] or path/to/file.py[:Class]")
    a.add_argument("--host", default="localhost", help="server host (default: localhost)")
    a.add_argument("--port", type=_port, default=10000, help="server port (default: 10000)")
    a.add_argument("--name", help="the name to send (default: the class's name)")
    a.add_argument("--role", type=str.upper, choices=[r.value for r in A.GAME_ROLES], metavar="ROLE",
                   help="ask the server for this role (when it lets agents ask)")
    a.add_argument("--seed", type=seed_int, help="seed of the agent's random choices (self.rng)")
    a.add_argument("--games", type=positive_int, metavar="N", help="leave after N games (default: when the server closes)")
    a.add_argument("--retry", type=float, default=0.0, metavar="SECONDS",
                   help="keep trying to connect for this long while the server is not up yet")
    a.add_argument("--first-wait", type=float, default=FIRST_REQUEST_WAIT, metavar="SECONDS",
                   help="give up when the server sends no request this long after connecting (an AIWolf server "
                   f"asks for the NAME at once; default {FIRST_REQUEST_WAIT:g})")
    a.add_argument("--quiet", action="store_true", help="no line per finished game and no warning per late reply on stderr (an agent's "
                        "failures are still printed)")
    a.set_defaults(run=cmd_agent)


def load_agent_class(spec: str) -> type[Agent]:
    """The agent class that ``module[:Class]`` or ``file.py[:Class]`` names; ValueError when there is none."""
    target, _, cls_name = spec.partition(":")
    module = _import(target)
    if cls_name:
        cls = getattr(module, cls_name, None)
        if not (inspect.isclass(cls) and issubclass(cls, Agent)):
            raise ValueError(f"{target} has no agent class {cls_name} (a subclass of Agent)")
        return cls
    found = [c for c in vars(module).values()
             if inspect.isclass(c) and issubclass(c, Agent) and c is not Agent and c.__module__ == module.__name__]
    if len(found) != 1:
        names = ", ".join(sorted(c.__name__ for c in found)) or "none"
        raise ValueError(f"{target} defines {len(found)} agent classes ({names}); name one as {target}:CLASS")
    return found[0]


def _import(target: str) -> ModuleType:
    try:
        if target.endswith(".py") or "/" in target or "\\" in target:
            path = Path(target)
            if not path.is_file():
                raise ValueError(f"no such file: {target}")
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
            return module
        return importlib.import_module(target)
    except ValueError:
        raise
    except Exception as exc:  # the user's module failed to import: one line, no traceback
        raise ValueError(f"cannot load {target}: {type(exc).__name__}: {exc}") from None


def _summary(agent: Agent) -> str:
    info = agent.info
    if info is None:
        return "aiwolf agent: a game finished"
    wolves = [a for a, r in info.role_map.items() if r is A.Role.WEREWOLF]
    alive = set(info.alive)
    winner = "werewolves" if any(w in alive for w in wolves) else "villagers"
    role = info.role_map.get(info.agent)
    return (f"aiwolf agent: {agent.get_name()} played Agent[{info.agent:02d}] as {role.value if role else '?'}; "
            f"day {info.day}: the {winner} won")


def cmd_agent(args: argparse.Namespace) -> int:
    from .exits import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError

    try:
        cls = load_agent_class(args.module)
        agent = cls()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except Exception as exc:
        raise UsageError(f"cannot create {args.module}: {type(exc).__name__}: {exc}") from None
    if not args.first_wait > 0:
        raise UsageError("--first-wait must be more than 0 seconds")
    if args.name:
        agent.name = args.name
    if args.role:
        agent.requested_role = A.Role(args.role)
    if args.seed is not None:
        agent.rng.seed(args.seed)
    on_finish = None if args.quiet else (lambda a: print(_summary(a), file=sys.stderr, flush=True))
    try:
        run_agent(agent, args.host, args.port, games=args.games, retry=args.retry, on_finish=on_finish,
                  warn_late=not args.quiet, first_wait=args.first_wait)
    except NotAnAIWolfServer as exc:
        print(f"aiwolf agent: {args.host}:{args.port} is not an AIWolf server: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ProtocolError as exc:
        print(f"aiwolf agent: the server broke the protocol: {exc}", file=sys.stderr)
        return EXIT_ERRORS
    except OSError as exc:
        print(f"aiwolf agent: connection to {args.host}:{args.port} failed: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
