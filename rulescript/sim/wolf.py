"""The headless host of the werewolf game: a rendered game folder, its role lists, seeded games, logs,
replays, simulations and a readable night/day narrative.

    table = load_wolf_table("cards/werewolf")
    game, log = table.play(players=5, seed=1, decider=RandomDecider(2))
    assert table.replay(log).state == game.state
"""
from __future__ import annotations

import marshal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rulescript import yamlsafe

from rulescript.compiler import CompileResult, compile_game
from rulescript.games import werewolf
from rulescript.games.werewolf import narrative
from rulescript.games.werewolf.game import WerewolfGame
from rulescript.runtime.engine import Engine
from rulescript.runtime.errors import GameError
from rulescript.runtime.rng import Rng
from rulescript.sim.deciders import RandomDecider, ScriptedDecider, replay_to_end

LOG_FORMAT = "rulescript-werewolf-log-1"


class WolfDataError(ValueError):
    """A werewolf game folder the game cannot use (the message names the file and the entry)."""


@dataclass
class WolfData:
    root: Path
    models: dict = field(default_factory=dict)        # element id -> cards.yaml entry
    role_lists: dict = field(default_factory=dict)    # player count -> [role ids]
    name: str = ""


def _yaml_file(path: Path) -> dict:
    """A mapping of a game folder's YAML file ({} when empty), read by the one policy (yamlsafe,
    textfile); WolfDataError (located) for a file it refuses; OSError for a file that cannot be read."""
    try:
        data = yamlsafe.load_file(path, "RD101")
    except yamlsafe.YamlError as exc:
        d = exc.diagnostic
        raise WolfDataError("%s:%d:%d: %s" % (d.span.file, d.span.line, d.span.col, d.message)) from None
    if data is not None and not isinstance(data, dict):
        raise WolfDataError("%s: the file must hold a mapping" % path)
    return data or {}


def load_wolf_data(game_dir: str | Path) -> WolfData:
    root = Path(game_dir)
    cards = _yaml_file(root / "cards.yaml")
    models = {}
    for i, c in enumerate(cards.get("cards") or []):
        if not isinstance(c, dict) or not c.get("id") or c.get("type") not in werewolf.data.KINDS + ("display",):
            raise WolfDataError("%s: card #%d needs an id and a type (%s)" % (root / "cards.yaml", i + 1,
                                                                         ", ".join(werewolf.data.KINDS)))
        models[c["id"]] = c
    game = _yaml_file(root / "game.yaml")
    lists = {}
    for n, roles in (game.get("role_lists") or {}).items():
        roles = list(roles)
        for r in roles:
            if r not in models or models[r]["type"] != "role":
                raise WolfDataError("%s: role list %s names %r, which is not a role" % (root / "game.yaml", n, r))
        if len(roles) != int(n):
            raise WolfDataError("%s: the role list for %s players has %d roles" % (root / "game.yaml", n, len(roles)))
        lists[int(n)] = roles
    return WolfData(root, models, lists, str(game.get("name") or root.name))


def new_engine(rules: dict) -> Engine:
    return Engine(rules, game=werewolf, copier=marshal.dumps, thaw=marshal.loads)


class RulesError(Exception):
    def __init__(self, result: CompileResult) -> None:
        super().__init__(result.render())
        self.result = result


@dataclass
class WolfTable:
    data: WolfData
    compiled: CompileResult

    def engine(self) -> Engine:
        return new_engine(self.compiled.rules)

    def roles_for(self, players: int) -> list:
        if players not in self.data.role_lists:
            known = ", ".join(str(k) for k in sorted(self.data.role_lists)) or "none"
            raise WolfDataError("no role list for %d players in %s/game.yaml (lists: %s)" % (
                players, self.data.root, known))
        return list(self.data.role_lists[players])

    def new_game(self, roles, seed, decider, sink=None, deal=True, names=None, engine=None, settings=None):
        eng = engine or self.engine()
        return WerewolfGame(self.data.models, roles, decider, sink=sink, rules=eng, seed=seed, names=names,
                            deal=deal, settings=settings), eng

    def play(self, players: int, seed: int, decider: Any, sink: Any = None, roles=None, settings=None):
        """One seeded game to its end; returns (game, log)."""
        roles = list(roles) if roles is not None else self.roles_for(players)
        game, eng = self.new_game(roles, seed, decider, sink, settings=settings)
        return game, run_logged(game, eng, seed, roles, settings=settings)

    def replay(self, log: dict, sink: Any = None, partial: bool = False):
        """Replay a log (an engine error the game recorded ends the replay where it ended the game).

        A log that does not fit the game raises ``ReplayDiverged`` (another question than the one
        recorded) or ``InvalidDecision`` (an answer the question does not allow: a recorded game never
        has one). With ``partial``, a log that ends before the game does replays up to its last
        decision and ``game.replay_stopped`` is the number of decisions replayed (else None)."""
        decider = ScriptedDecider(log["decisions"], strict=True)
        game, _eng = self.new_game(log["roles"], log["seed"], decider, sink, deal=log.get("deal", True),
                                   settings=log.get("settings"))
        return replay_to_end(game, decider, partial, ended_by=GameError)


def run_logged(game: WerewolfGame, eng: Engine, seed: int, roles: list, deal: bool = True,
               settings: dict | None = None) -> dict:
    """Run a new game to its end and return its log (an engine error is recorded, not raised).
    ``roles`` and ``deal`` are as the game was made: with ``deal`` false, ``roles`` is in seat order."""
    log = {"format": LOG_FORMAT, "seed": seed, "roles": list(roles), "decisions": [], "result": None,
           "error": None}
    if not deal:
        log["deal"] = False
    if settings:
        log["settings"] = settings
    try:
        log["result"] = game.run()
    except GameError as exc:
        log["error"] = "%s: %s" % (type(exc).__name__, exc)
    log["decisions"] = [list(d) for d in game.state["log"]]
    log["rule_errors"] = list(eng.errors)
    if eng.errors and not log["error"]:
        log["error"] = "rule error %s: %s" % (eng.errors[0]["code"], eng.errors[0]["message"])
    return log


def load_wolf_table(game_dir: str | Path) -> WolfTable:
    compiled = compile_game(game_dir)
    if not compiled.ok:
        raise RulesError(compiled)
    return WolfTable(load_wolf_data(game_dir), compiled)


def load_wolf_table_or_report(game_dir: str | Path, err: TextIO | None = None) -> WolfTable | None:
    """:func:`load_wolf_table` for command lines: rules that do not compile are printed to ``err`` (stderr)
    and give None; a folder the game cannot use still raises :class:`WolfDataError`."""
    try:
        return load_wolf_table(game_dir)
    except RulesError as exc:
        print(exc.result.render(), file=err if err is not None else sys.stderr)
        return None


class WolfRun:
    """Werewolf games for ``rulescript/sim/simulate.py``: the role list for ``players`` dealt by each
    game's seed, seeded random players."""

    length = "days"
    pool_word = "the role list"

    def __init__(self, table: WolfTable, players: int) -> None:
        self.table, self.players = table, players
        self.rules_ir = table.compiled.rules
        self.root = table.data.root
        self._names = {}
        for eid, model in table.data.models.items():
            for rid in model.get("rules") or []:
                self._names[str(rid).lower()] = model.get("name", eid)

    def specs(self, games: int, seed: int) -> list:
        """(game seed, decider seed) of every game, in game order."""
        rng = Rng(seed)
        out = []
        for _ in range(games):
            gseed = rng.u32()
            out.append((gseed, rng.u32()))
        return out

    def for_worker(self) -> "WolfRun":
        return self

    def play(self, spec: tuple) -> dict:
        gseed, dseed = spec
        game, log = self.table.play(self.players, gseed, RandomDecider(dseed))
        st = game.state
        return {"seed": gseed, "length": max(0, st["day"]), "winner": st["winner"], "reason": st["reason"],
                "limit": st["result"] == "draw" and (st["reason"] or "").startswith("day limit"),
                "error": log["error"], "rule_errors": log["rule_errors"],
                "ran": sorted(game.completed), "log": log if log["error"] else None}

    def wins(self, counts: dict) -> dict:
        return dict(counts)

    def card_name(self, rid: str):
        return self._names.get(rid)

    def in_play(self) -> set:
        """The rules of the elements a game of this size can have: the role list's roles, the teams and
        polls (on the table from the start), and every attribute, group and extra role (they come in
        during play)."""
        models = self.table.data.models
        roles = set(self.table.roles_for(self.players))
        out = set()
        for eid, m in models.items():
            if m.get("type") != "role" or eid in roles:
                out.update(str(r).lower() for r in m.get("rules") or [])
        return out

    def finish(self, out: dict) -> None:
        out["days_per_game"] = out.pop("length_per_game")
        out["day_limit_draws"] = out.pop("limit_draws")
        out["no_win"] = out["draws"]


def simulate(table: WolfTable, players: int, games: int, seed: int, progress=None, jobs: int = 1) -> dict:
    """Random games: wins per team, days per game, engine errors (games whose rules failed) grouped by
    rule and message, rule coverage; ``jobs`` processes give the results of a serial run."""
    from rulescript.sim.simulate import run_games

    table.roles_for(players)
    return run_games(WolfRun(table, players), games, seed, jobs=jobs, progress=progress)


# ---------------------------------------------------------------------------- the narrative
def describe(rec: dict, game: Any) -> str | None:
    """One effect record as a line of the night/day narrative (None: not worth a line); the lines
    live in the game package (``rulescript/games/werewolf/narrative.py``), which the OCTGN host uses too."""
    st = game.state
    models = game.models

    def who(p):
        return st["players"][p]["name"] if isinstance(p, int) and 0 <= p < len(st["players"]) else "the narrator"

    return narrative.line(rec, lambda eid: models.get(eid, {}).get("name", eid), who)


class SeatDecider:
    """A table of deciders: the human at ``human`` (one seat), seeded random players elsewhere."""

    def __init__(self, human: Any, seat: int, others: Any) -> None:
        self.human, self.seat, self.others = human, seat, others

    def decide(self, request: dict) -> Any:
        return (self.human if request["player"] == self.seat else self.others).decide(request)


class LiveNarrative:
    """An effect sink that prints the narrative as the game goes (``game`` is set once it exists)."""

    def __init__(self, out: TextIO, seat: int | None = None) -> None:
        self.out, self.seat, self.game, self.records = out, seat, None, []

    def _visible(self, rec: dict) -> bool:
        """What the human at ``seat`` may see: public events (a group's polls and channel only for its
        members) and what concerns their own seat."""
        if self.seat is None:
            return True
        seats = narrative.audience(rec)
        return seats is None or self.seat in seats

    def emit(self, rec: dict) -> None:
        self.records.append(rec)
        if self.game is None or not self._visible(rec):
            return
        line = describe(rec, self.game)
        if line is not None:
            self.out.write(line + "\n")
            self.out.flush()


def play_interactive(table: "WolfTable", players: int, seed: int, seat: int, inp: TextIO, out: TextIO):
    """A human at ``seat`` plays with seeded random players; the narrative prints as it happens."""
    from rulescript.sim.deciders import InteractiveDecider

    roles = table.roles_for(players)
    sink = LiveNarrative(out, seat)
    holder: list = []

    def name(option: Any, kind: str) -> str:
        g = holder[0]
        if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(g.state["players"]):
            return g.state["players"][option]["name"]
        return str(option) if option != "use" else "use it"

    human = InteractiveDecider(inp, out, name)
    game, _eng = table.new_game(roles, seed, SeatDecider(human, seat, RandomDecider(seed + 1)), sink)
    holder.append(game)
    sink.game = game
    game.run()
    return game


def print_narrative(records: list, game: Any, out: TextIO) -> None:
    for rec in records:
        line = describe(rec, game)
        if line is not None:
            out.write(line + "\n")
