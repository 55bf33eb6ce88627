"""Playing one game with a record of it, replaying a record, and printing a game readably.

A game log is plain data (JSON/YAML friendly)::

    {"format": 1, "seed": 7, "first": None, "first_player": 0, "turn_limit": 200,
     "decks": [{"name": "red", "cards": [...50 ids...]}, {...}],
     "decisions": [[kind, player, answer], ...],
     "result": {"winner": 0, "result": "win", "reason": "...", "turns": 23},
     "error": None}

``first`` is the caller's choice (None: drawn with the game's generator), ``first_player`` the
outcome. The seed, the decks, ``first`` and the decisions determine the game: :func:`replay`
reproduces it exactly.
"""
from __future__ import annotations

import ast

from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import ListSink, NullSink
from rulescript.sim.deciders import ScriptedDecider

LOG_FORMAT = 1


class _Tee:
    def __init__(self, *sinks):
        self.sinks = sinks

    def emit(self, record):
        for s in self.sinks:
            s.emit(record)


def _deck(data, spec):
    """A deck given as a name in ``data.decks`` or as a list of card ids -> (name, ids)."""
    if isinstance(spec, str):
        return spec, data.deck_list(spec)
    return "custom", list(spec)


def play_game(data, decks, seed, decider, first=None, sink=None, rules=None, turn_limit=200):
    """Play one game to its end; return ``(game, log)``. An engine error is caught and recorded
    in ``log["error"]`` (the game state is left where it failed)."""
    (n0, d0), (n1, d1) = _deck(data, decks[0]), _deck(data, decks[1])
    game = CfcGame(data.models, [d0, d1], decider, sink=sink or NullSink(), rules=rules, seed=seed,
                   first=first, turn_limit=turn_limit)
    error = None
    try:
        result = game.run()
    except Exception as exc:  # noqa: BLE001 - any engine failure is reported, not hidden
        error = "%s: %s" % (type(exc).__name__, exc)
        result = {"winner": None, "result": None, "reason": None, "turns": game.state["turn"]}
    log = {"format": LOG_FORMAT, "seed": seed, "first": first, "first_player": game.state["first"],
           "turn_limit": turn_limit,
           "decks": [{"name": n0, "cards": d0}, {"name": n1, "cards": d1}],
           "decisions": deep_copy(game.state["log"]), "result": result, "error": error}
    return game, log


def replay(data, log, sink=None, rules=None):
    """Replay a game log; return the game (its state equals the recorded game's final state)."""
    decks = [list(log["decks"][0]["cards"]), list(log["decks"][1]["cards"])]
    decider = ScriptedDecider(log["decisions"], strict=True)
    game = CfcGame(data.models, decks, decider, sink=sink or NullSink(), rules=rules,
                   seed=log["seed"], first=log["first"], turn_limit=log.get("turn_limit", 200))
    game.run()
    return game


def save_log(log, path):
    """Write a log as a Python literal (repr), readable by :func:`load_log`."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(repr(log) + "\n")


def load_log(path):
    with open(path, encoding="utf-8") as fh:
        return ast.literal_eval(fh.read())


# ---------------------------------------------------------------------- readable printing
def _name(game, iid):
    if iid is None:
        return "-"
    c = game.state["cards"].get(iid)
    if c is None:
        return "#%s" % iid
    return "%s#%s" % (game.models[c["model"]]["name"], iid)


def _option(game, o, kind=None):
    if kind in ("choose_slot", "choose_player", "choose_ring", "yes_no", "top_or_bottom",
                "coin_call", "choose_action", "choose_type"):
        return repr(o)
    if isinstance(o, dict):
        parts = [str(o.get("do"))]
        for key in ("card", "host", "lead", "attack"):
            if key in o:
                parts.append("%s=%s" % (key, _name(game, o[key])))
        return " ".join(parts)
    if isinstance(o, list):
        return "[" + ", ".join(_option(game, x, kind) for x in o) + "]"
    if isinstance(o, int) and not isinstance(o, bool) and o in game.state["cards"]:
        return _name(game, o)
    return repr(o)


def describe_option(game, option, kind=None):
    """A readable name for a decision option (card names instead of instance ids)."""
    return _option(game, option, kind)


def format_record(rec, game):
    """One readable line for an effect record."""
    t = rec.get("type")
    n = lambda i: _name(game, i)  # noqa: E731
    if t == "decision":
        return "  P%s %s -> %s" % (rec["player"], rec["kind"], _option(game, rec["answer"], rec["kind"]))
    if t == "turn":
        return "== turn %s: player %s ==" % (rec["turn"], rec["player"])
    if t == "phase":
        return " -- %s%s" % (rec["phase"], " (skipped)" if rec.get("skipped") else "")
    if t == "move":
        extra = " slot %s" % rec["slot"] if "slot" in rec else ""
        return "  %s: P%s %s -> P%s %s%s" % (n(rec["card"]), rec["from"][0], rec["from"][1],
                                             rec["to"][0], rec["to"][1], extra)
    if t == "stat":
        who = n(rec["card"]) if "card" in rec else "P%s" % rec["player"]
        return "  %s %s = %s" % (who, rec["stat"], rec["value"])
    if t == "marker":
        return "  %s %s %s" % (n(rec["card"]), "is" if rec["value"] else "no longer", rec["marker"])
    if t in ("attack", "ko", "cancel_attack", "remove_from_attack"):
        return "  %s: %s" % (t.replace("_", " "), n(rec["card"]))
    if t == "unite":
        return "  %s joins the attack of %s" % (n(rec["card"]), n(rec["lead"]))
    if t in ("block", "unblock"):
        return "  %s %s %s" % (n(rec["card"]), "blocks" if t == "block" else "stops blocking",
                               n(rec["lead"]))
    if t == "combat":
        return "  combat: %s (total %s) vs %s" % (n(rec["lead"]), rec["total"], n(rec.get("blocker")))
    if t == "gameover":
        who = "draw" if rec["winner"] is None else "player %s wins" % rec["winner"]
        return "** game over: %s (%s)" % (who, rec["reason"])
    if t == "setup":
        return "setup: seed %s, player %s goes first" % (rec["seed"], rec["first"])
    if t == "message":
        return "  (%s)" % rec["text"]
    rest = ", ".join("%s=%s" % (k, rec[k]) for k in sorted(rec) if k != "type")
    return "  %s: %s" % (t, rest)


def print_game(data, decks, seed, decider, out, first=None, turn_limit=200):
    """Play one seeded game and write one line per effect and decision to ``out``."""
    sink = ListSink()
    lines = []

    class _Printer:
        def emit(self, record):
            lines.append(record)

    game, log = play_game(data, decks, seed, decider, first=first, sink=_Tee(sink, _Printer()),
                          turn_limit=turn_limit)
    for rec in lines:
        out.write(format_record(rec, game) + "\n")
    if log["error"]:
        out.write("!! engine error: %s\n" % log["error"])
    return game, log
