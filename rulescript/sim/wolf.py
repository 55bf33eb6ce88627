"""The headless host of the werewolf game: a rendered game folder, its role lists, seeded games, logs,
replays, simulations and a readable night/day narrative.

    table = load_wolf_table("cards/werewolf")
    game, log = table.play(players=5, seed=1, decider=RandomDecider(2))
    assert table.replay(log).state == game.state
"""
from __future__ import annotations

import marshal
import time
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


def simulate(table: WolfTable, players: int, games: int, seed: int, progress=None) -> dict:
    """Random games: wins per team, days per game, engine errors (games whose rules failed)."""
    rng = Rng(seed)
    wins: dict = {}
    errors = 0
    rule_errors = 0
    no_win = 0
    days = 0
    samples = []
    t0 = time.perf_counter()
    for i in range(games):
        gseed = rng.u32()
        game, log = table.play(players, gseed, RandomDecider(rng.u32()))
        days += max(0, game.state["day"])
        rule_errors += len(log["rule_errors"])
        if log["error"]:
            errors += 1
            if len(samples) < 5:
                samples.append(log)
        elif game.state["winner"] is None:
            no_win += 1
        else:
            wins[game.state["winner"]] = wins.get(game.state["winner"], 0) + 1
        if progress is not None:
            progress(i + 1, games)
    secs = time.perf_counter() - t0
    return {"games": games, "seconds": secs, "games_per_s": games / secs if secs > 0 else 0.0,
            "days_per_game": days / games if games else 0.0, "wins": wins, "no_win": no_win,
            "errors": errors, "rule_errors": rule_errors, "error_samples": samples}


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
        return "  Poll %s opens in %s." % (name(rec["poll"]), rec["where"])
    if t == "vote":
        return "    %s votes for %s." % (who(rec["player"]), who(rec["target"]))
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


def print_narrative(records: list, game: Any, out: TextIO) -> None:
    for rec in records:
        line = describe(rec, game)
        if line is not None:
            out.write(line + "\n")
