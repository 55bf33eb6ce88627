"""The headless host of the werewolf game: a rendered game folder, its role lists, seeded games, logs,
replays, simulations and a readable night/day narrative.

    table = load_wolf_table("cards/werewolf")
    game, log = table.play(players=5, seed=1, decider=RandomDecider(2))
    assert table.replay(log).state == game.state
"""
from __future__ import annotations

import marshal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import yaml

from rulescript.compiler import CompileResult, compile_game
from rulescript.games import werewolf
from rulescript.games.werewolf.game import WerewolfGame
from rulescript.runtime.engine import Engine
from rulescript.runtime.errors import GameError
from rulescript.runtime.rng import Rng
from rulescript.sim.deciders import RandomDecider, ScriptedDecider

LOG_FORMAT = "rulescript-werewolf-log-1"


class WolfDataError(ValueError):
    """A werewolf game folder the game cannot use (the message names the file and the entry)."""


@dataclass
class WolfData:
    root: Path
    models: dict = field(default_factory=dict)        # element id -> cards.yaml entry
    role_lists: dict = field(default_factory=dict)    # player count -> [role ids]
    name: str = ""


def load_wolf_data(game_dir: str | Path) -> WolfData:
    root = Path(game_dir)
    cards = yaml.safe_load((root / "cards.yaml").read_text(encoding="utf-8")) or {}
    models = {}
    for i, c in enumerate(cards.get("cards") or []):
        if not isinstance(c, dict) or not c.get("id") or c.get("type") not in werewolf.data.KINDS + ("display",):
            raise WolfDataError("%s: card #%d needs an id and a type (%s)" % (root / "cards.yaml", i + 1,
                                                                         ", ".join(werewolf.data.KINDS)))
        models[c["id"]] = c
    game = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8")) or {}
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

    def new_game(self, roles, seed, decider, sink=None, deal=True, names=None, engine=None):
        eng = engine or self.engine()
        return WerewolfGame(self.data.models, roles, decider, sink=sink, rules=eng, seed=seed, names=names,
                            deal=deal), eng

    def play(self, players: int, seed: int, decider: Any, sink: Any = None, roles=None):
        """One seeded game to its end; returns (game, log)."""
        roles = list(roles) if roles is not None else self.roles_for(players)
        game, eng = self.new_game(roles, seed, decider, sink)
        log = {"format": LOG_FORMAT, "seed": seed, "roles": roles, "decisions": [], "result": None, "error": None}
        try:
            log["result"] = game.run()
        except GameError as exc:
            log["error"] = "%s: %s" % (type(exc).__name__, exc)
        log["decisions"] = [list(d) for d in game.state["log"]]
        log["rule_errors"] = list(eng.errors)
        if eng.errors and not log["error"]:
            log["error"] = "rule error %s: %s" % (eng.errors[0]["code"], eng.errors[0]["message"])
        return game, log

    def replay(self, log: dict, sink: Any = None):
        decider = ScriptedDecider(log["decisions"], strict=True)
        game, _eng = self.new_game(log["roles"], log["seed"], decider, sink)
        try:
            game.run()
        except GameError:
            pass
        return game


def load_wolf_table(game_dir: str | Path) -> WolfTable:
    compiled = compile_game(game_dir)
    if not compiled.ok:
        raise RulesError(compiled)
    return WolfTable(load_wolf_data(game_dir), compiled)


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
                "limit": st["result"] == "draw", "error": log["error"], "rule_errors": log["rule_errors"],
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
    """One effect record as a line of the night/day narrative (None: not worth a line)."""
    st = game.state
    models = game.models

    def who(p):
        return st["players"][p]["name"] if isinstance(p, int) and 0 <= p < len(st["players"]) else "the narrator"

    def name(eid):
        return models.get(eid, {}).get("name", eid) if eid else "?"

    t = rec["type"]
    if t == "setup":
        return "A game of werewolf with %d players: %s." % (len(rec["players"]), ", ".join(rec["players"]))
    if t == "deal":
        return "  %s is dealt %s (face down)." % (who(rec["player"]), name(rec["role"]))
    if t == "phase":
        return "\n== %s %d ==" % (rec["phase"].title(), rec["number"])
    if t == "use":
        target = "" if rec["target"] is None else " on %s" % who(rec["target"])
        return "  %s uses %s%s." % (who(rec["player"]), rec["prompt"], target)
    if t == "poll_deleted":
        return "  Poll %s is not held." % rec["poll"]
    if t == "poll_cancelled":
        return "  Poll %s is cancelled: it has no result." % rec["poll"]
    if t == "disguise":
        return "  %s is disguised (%s) as %s." % (who(rec["player"]), rec["strength"], name(rec["role"]))
    if t == "whisper":
        return "  %s opens a whisper to %s as %s." % (who(rec["player"]), rec["to"], rec["as"])
    if t == "obstruct":
        return "  %s is obstructed (%s)." % (who(rec["player"]), rec["abilities"])
    if t == "loyal":
        return "  %s stays loyal to %s." % (who(rec["player"]), name(rec["team"]))
    if t == "grant":
        return "  %s gets the extra role %s." % (who(rec["player"]), name(rec["role"]))
    if t == "revoke":
        return "  %s loses the extra role %s." % (who(rec["player"]), name(rec["role"]))
    if t == "transfer":
        return "  %s passes %s to %s." % (who(rec["from"]), name(rec["role"]), who(rec["player"]))
    if t == "role_change":
        return "  %s's role becomes %s." % (who(rec["player"]), name(rec["role"]))
    if t == "team":
        return "  %s now belongs to %s." % (who(rec["player"]), name(rec["team"]))
    if t == "redirected":
        return "  An ability on %s is redirected to %s." % (who(rec["player"]), who(rec["to"]))
    if t == "cancelled":
        return "  The visit of %s to %s is cancelled." % (who(rec["visitor"]), who(rec["player"]))
    if t == "obstructed":
        return "  %s's %s ability fails: obstructed." % (who(rec["player"]), rec["ability"])
    if t in ("ascended", "descended"):
        return "  %s leaves the game (%s)." % (who(rec["player"]), t)
    if t == "resurrect":
        return "  %s comes back to life." % who(rec["player"])
    if t == "emitted":
        return "  %s receives '%s'%s." % (who(rec["player"]), rec["value"], " (end of phase)" if rec.get("end") else "")
    if t == "chosen":
        return "  %s chooses %s for %s." % (who(rec["player"]), rec["option"], rec["choice"])
    if t == "disband":
        return "  %s is disbanded." % name(rec["group"])
    if t == "forced":
        return "  %s did not use %s: it is forced on %s." % (who(rec["player"]), rec["ability"], who(rec["target"]))
    if t == "investigate":
        return "  %s investigates %s: %s." % (who(rec["player"]), who(rec["target"]), rec["result"])
    if t == "learn":
        return "  %s learns: %s" % (who(rec["player"]), rec["text"])
    if t == "reveal":
        return "  [%s] %s" % (rec["where"], rec["text"])
    if t == "announce":
        return "  The narrator announces: %s" % rec["text"]
    if t == "protect":
        return "  %s is protected from %s (%s defense)." % (who(rec["player"]), rec["against"], rec["kind"])
    if t == "defended":
        return "  The %s on %s fails: %s defense from %s." % (rec["killing"], who(rec["player"]), rec["kind"],
                                                             name(rec["defense"]))
    if t == "death":
        return "  %s dies (%s). They were %s." % (who(rec["player"]), rec["killing"], name(rec["role"]))
    if t == "poll_open":
        title = " as %s" % rec["title"] if rec.get("title") else ""
        return "  Poll %s opens in %s%s." % (name(rec["poll"]), rec["where"], title)
    if t == "vote":
        return "    %s votes for %s." % (who(rec["player"]), who(rec["target"]))
    if t == "unvote":
        return "    %s takes back the vote for %s." % (who(rec["player"]), who(rec["target"]))
    if t == "revote":
        return "    %s changes the vote from %s to %s." % (who(rec["player"]), who(rec["old"]), who(rec["target"]))
    if t == "poll_close":
        votes = ", ".join("%s %d" % (who(p), n) for p, n in rec["votes"])
        won = "no winner" if rec["winner"] is None else "%s wins" % who(rec["winner"])
        return "  Poll %s closes: %s (%s)." % (name(rec["poll"]), won, votes or "no votes")
    if t == "attribute":
        return "  %s %s %s." % (who(rec["player"]), "gains" if rec["on"] else "loses", name(rec["attribute"]))
    if t == "join":
        return "  %s joins %s." % (who(rec["player"]), name(rec["group"]))
    if t == "win":
        return "\n%s win: %s." % (name(rec["team"]), ", ".join(who(p) for p in rec["players"]))
    if t == "gameover":
        return "Game over: %s." % (rec["reason"] or "no winner")
    if t == "rule_error":
        e = rec["error"]
        return "  RULE ERROR %s at %s:%s: %s" % (e["code"], e["file"], e["line"], e["message"])
    return None


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

    PUBLIC = ("setup", "phase", "death", "announce", "win", "gameover", "poll_open", "vote", "unvote", "revote",
              "poll_close",
              "reveal", "resurrect", "ascended", "descended", "poll_cancelled", "poll_deleted")

    def _visible(self, rec: dict) -> bool:
        """What the human at ``seat`` may see: public events (a group's polls and channel only for its
        members) and what concerns their own seat."""
        if self.seat is None:
            return True
        if rec["type"] in self.PUBLIC:
            where = rec.get("where")
            group = self.game.state["groups"].get(where) if where else None
            return group is None or self.seat in group["members"]
        return rec.get("player") == self.seat

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
