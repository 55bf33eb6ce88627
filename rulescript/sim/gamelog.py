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
from rulescript.sim.deciders import DecisionsExhausted, ScriptedDecider

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


def replay(data, log, sink=None, rules=None, partial=False):
    """Replay a game log; return the game (its state equals the recorded game's final state).

    With ``partial``, a log that ends before the game does (a game saved mid-way) replays up to its
    last decision: ``game.replay_stopped`` is then the number of decisions replayed (else None)."""
    decks = [list(log["decks"][0]["cards"]), list(log["decks"][1]["cards"])]
    decider = ScriptedDecider(log["decisions"], strict=True)
    game = CfcGame(data.models, decks, decider, sink=sink or NullSink(), rules=rules,
                   seed=log["seed"], first=log["first"], turn_limit=log.get("turn_limit", 200))
    game.replay_stopped = None
    try:
        game.run()
    except DecisionsExhausted:
        if not partial:
            raise
        game.replay_stopped = decider.pos
    return game


def save_log(log, path):
    """Write a log as a Python literal (repr), readable by :func:`load_log` (atomically: a failed
    write leaves no half-written save)."""
    from rulescript.cliutil import write_atomic

    write_atomic(path, repr(log) + "\n")


class SaveError(ValueError):
    """A save or log file that cannot be replayed; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic):
        ValueError.__init__(self, diagnostic.message)
        self.diagnostic = diagnostic

    def line(self):
        """``file:line:col: error[SV1xx]: message``, one line."""
        return self.diagnostic.render().split("\n")[0]


MAX_SAVE_BYTES = 64 * 1024 * 1024


def load_log(path, data=None):
    """Read a saved game or log (a Python literal, read without executing it) and check it against
    the save schema before anything is replayed; with ``data`` (the game's GameData) the decks and
    card ids are checked against the game too.  Raises :class:`SaveError` with a located message,
    or OSError when the file cannot be read."""
    from rulescript.textfile import NotText, read_text

    name = str(path)
    try:
        text = read_text(path, MAX_SAVE_BYTES)
    except NotText as exc:
        raise _save_error(name, (exc.line, exc.col), exc.message)
    try:
        tree = ast.parse(text, name, mode="eval")
    except SyntaxError as exc:
        raise _save_error(name, (exc.lineno or 1, exc.offset or 1),
                          "not a saved game (a Python literal): %s" % exc.msg)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise _save_error(name, (1, 1), "not a saved game: %s" % (str(exc) or type(exc).__name__))
    return _check_log(tree.body, name, data)


def _save_error(name, at, message):
    from rulescript.diagnostics import Diagnostic, Span

    return SaveError(Diagnostic("error", "SV101", message, Span(name, at[0], at[1])))


def _literal(node, name):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        raise _save_error(name, _at(node), "not plain data here (only literals: numbers, strings, "
                          "lists, dicts, None, True, False)")


def _at(node):
    return (getattr(node, "lineno", 1), (getattr(node, "col_offset", 0) or 0) + 1)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


WOLF_LOG_FORMAT = "rulescript-werewolf-log-1"  # (rulescript.sim.wolf.LOG_FORMAT)


def _check_decisions(name, fields, need, players=None):
    """``decisions``: a list of [kind, player, answer] (player one of ``players`` when given)."""
    decisions = need("decisions", lambda v: isinstance(v, list), "a list of [kind, player, answer]")
    dnode = fields["decisions"][0]
    for i, item in enumerate(decisions):
        if not (isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[0], str)
                and _is_int(item[1]) and (players is None or item[1] in players)):
            at = _at(dnode.elts[i]) if isinstance(dnode, (ast.List, ast.Tuple)) else _at(dnode)
            who = "player (0 or 1)" if players == (0, 1) else "player"
            raise _save_error(name, at, "decision %d must be [kind, %s, answer]" % (i + 1, who))


def _check_log(node, name, data):
    """The log value of the literal ``node``, checked key by key (each error points at its value)."""
    if not isinstance(node, ast.Dict):
        raise _save_error(name, _at(node), "a saved game is a dict {'format': 1, 'seed': ..., 'decks': "
                          "[...], 'decisions': [...]}")
    fields = {}
    for knode, vnode in zip(node.keys, node.values):
        if knode is None:
            raise _save_error(name, _at(vnode), "'**' is not allowed in a saved game")
        key = _literal(knode, name)
        fields[key] = (vnode, _literal(vnode, name))

    def need(key, ok, what):
        if key not in fields:
            raise _save_error(name, _at(node), "the save has no %r (%s)" % (key, what))
        vnode, value = fields[key]
        if not ok(value):
            raise _save_error(name, _at(vnode), "%r must be %s" % (key, what))
        return value

    need("format", lambda v: v in (LOG_FORMAT, WOLF_LOG_FORMAT),
         "%d (the save format this version reads)" % LOG_FORMAT)
    need("seed", lambda v: _is_int(v) and abs(v) < 2 ** 63, "a whole number")
    log = {k: v for k, (_n, v) in fields.items()}
    if log["format"] == WOLF_LOG_FORMAT:  # a werewolf game: its roles instead of decks
        need("roles", lambda v: isinstance(v, list) and all(isinstance(r, str) for r in v), "a list of role ids")
        _check_decisions(name, fields, need)
        return log
    log.setdefault("first", None)
    log.setdefault("turn_limit", 200)
    for key, ok, what in (("first", lambda v: v is None or v in (0, 1) and _is_int(v), "None, 0 or 1"),
                          ("turn_limit", lambda v: _is_int(v) and 1 <= v <= 100_000, "a whole number from 1 "
                           "to 100,000")):
        if key in fields:
            need(key, ok, what)
    decks = need("decks", lambda v: isinstance(v, list) and len(v) == 2,
                 "a list of the two players' decks")
    decks_node = fields["decks"][0]
    for i, d in enumerate(decks):
        dnode = decks_node.elts[i] if isinstance(decks_node, (ast.List, ast.Tuple)) else decks_node
        if not (isinstance(d, dict) and isinstance(d.get("name"), str) and isinstance(d.get("cards"), list)
                and all(isinstance(c, str) for c in d["cards"])):
            raise _save_error(name, _at(dnode), "deck %d must be {'name': NAME, 'cards': [card ids]}" % (i + 1))
        if data is not None:
            unknown = [c for c in d["cards"] if c not in data.models]
            if unknown:
                raise _save_error(name, _at(dnode), "deck %d holds card %r, which the game does not have"
                                  % (i + 1, unknown[0]))
            if d["name"] in data.decks and data.deck_list(d["name"]) != d["cards"]:
                raise _save_error(name, _at(dnode), "deck %r of the game has changed since the game was saved"
                                  % d["name"])
    _check_decisions(name, fields, need, players=(0, 1))
    if "answers" in fields:
        need("answers", lambda v: isinstance(v, list), "a list of answers")
    return log


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
