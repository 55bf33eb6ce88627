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
from rulescript.sim.deciders import ScriptedDecider, replay_to_end

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
    return replay_to_end(game, decider, partial)


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


def load_log(path, data=None, named_decks=False, werewolf=False):
    """Read a saved game or log (a Python literal, read without executing it) and check it against
    the save schema before anything is replayed.  With ``data`` (a CFC game's GameData) the save is
    checked against that game too: a CFC save (not a werewolf log), decks the game could have dealt
    (known card ids, :data:`DECK_SIZE` cards, at most :data:`MAX_COPIES` copies of a name, as
    ``decks/*.yaml`` must hold) and, with ``named_decks`` (``play --load``, which deals the game's
    decks by name), deck names of the game.  With ``werewolf`` (true, or the werewolf game's
    WolfData, whose roles the log's roles must be), the save must be a werewolf game's log
    (``play --replay`` of a werewolf game).  Raises :class:`SaveError` with a located message, or
    OSError when the file cannot be read."""
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
    return _check_log(tree.body, name, data, named_decks, werewolf)


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


#: what a deck of the game holds (rulescript.sim.cards.load_deck checks decks/*.yaml the same way)
DECK_SIZE = 50
MAX_COPIES = 3

WOLF_LOG_FORMAT = "rulescript-werewolf-log-1"  # (rulescript.sim.wolf.LOG_FORMAT)


def _check_decisions(name, fields, need, players, narrator=False):
    """``decisions``: a list of [kind, player, answer], the player a seat from 0 to ``players`` - 1
    (or, with ``narrator``, -1: the werewolf game's narrator decides tied polls for a host)."""
    decisions = need("decisions", lambda v: isinstance(v, list), "a list of [kind, player, answer]")
    dnode = fields["decisions"][0]
    low = -1 if narrator else 0
    for i, item in enumerate(decisions):
        if not (isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[0], str)
                and _is_int(item[1]) and low <= item[1] < players):
            at = _at(dnode.elts[i]) if isinstance(dnode, (ast.List, ast.Tuple)) else _at(dnode)
            who = "player (0 or 1)" if players == 2 and not narrator else "player (%d to %d)" % (low, players - 1)
            raise _save_error(name, at, "decision %d must be [kind, %s, answer]" % (i + 1, who))


#: the most seats a werewolf log may have (AIWolf plays 5 or 15, WWRF's lists are smaller)
MAX_SEATS = 100
#: the poll settings of a werewolf game (rulescript.games.werewolf.game) and what each must be
WOLF_SETTINGS = {
    "revotes": "a mapping {poll id: revotes from 0 to 100}",
    "ties": "'random' or 'decide'",
    "vote_changes": "True or False",
    "option_votes": "a mapping {poll id: votes from 0 to 100}",
    "revote_empty": "True or False",
    "standing_ties": "a list of poll ids",
}


def _wolf_setting_ok(key, value):
    if key in ("revotes", "option_votes"):
        return isinstance(value, dict) and all(isinstance(k, str) and _is_int(n) and 0 <= n <= 100
                                               for k, n in value.items())
    if key == "standing_ties":
        return isinstance(value, list) and all(isinstance(k, str) for k in value)
    if key == "ties":
        return value in ("random", "decide")
    return isinstance(value, bool)


def _check_wolf_log(name, fields, need, models):
    """The werewolf part of a log: its roles (with ``models``, the game's cards: roles of the game),
    how they were dealt, its poll settings and its decisions."""
    roles = need("roles", lambda v: isinstance(v, list) and 0 < len(v) <= MAX_SEATS
                 and all(isinstance(r, str) for r in v), "a list of 1 to %d role ids" % MAX_SEATS)
    if models is not None:
        for i, r in enumerate(roles):
            if r not in models or not isinstance(models[r], dict) or models[r].get("type") != "role":
                rnode = fields["roles"][0]
                at = _at(rnode.elts[i]) if isinstance(rnode, (ast.List, ast.Tuple)) else _at(rnode)
                raise _save_error(name, at, "role %r is not a role of this game" % (r,))
    if "deal" in fields:
        need("deal", lambda v: isinstance(v, bool), "True or False")
    if "settings" in fields:
        settings = need("settings", lambda v: isinstance(v, dict), "a mapping of poll settings (%s)"
                        % ", ".join(sorted(WOLF_SETTINGS)))
        snode = fields["settings"][0]
        for key, value in settings.items():
            at = _at(snode)
            if isinstance(snode, ast.Dict):
                at = next((_at(v) for k, v in zip(snode.keys, snode.values)
                           if isinstance(k, ast.Constant) and k.value == key), at)
            if key not in WOLF_SETTINGS:
                raise _save_error(name, at, "unknown setting %r (settings: %s)" % (key, ", ".join(sorted(WOLF_SETTINGS))))
            if not _wolf_setting_ok(key, value):
                raise _save_error(name, at, "setting %r must be %s" % (key, WOLF_SETTINGS[key]))
    _check_decisions(name, fields, need, players=len(roles), narrator=True)


def _check_deck(name, at, i, deck, data, named_decks):
    """A saved deck against the game: one the game could have dealt (its decks are 50 cards of its
    card table, at most 3 copies of a name), and with ``named_decks`` one of the game's decks."""
    cards = deck["cards"]
    unknown = [c for c in cards if c not in data.models]
    if unknown:
        raise _save_error(name, at, "deck %d holds card %r, which the game does not have" % (i + 1, unknown[0]))
    if deck["name"] in data.decks and data.deck_list(deck["name"]) != cards:
        raise _save_error(name, at, "deck %r of the game has changed since the game was saved" % deck["name"])
    if len(cards) != DECK_SIZE:
        raise _save_error(name, at, "deck %d holds %d cards; a deck of the game holds %d"
                          % (i + 1, len(cards), DECK_SIZE))
    copies = {}
    for c in cards:
        card_name = data.models[c].get("name", c)
        copies[card_name] = copies.get(card_name, 0) + 1
        if copies[card_name] > MAX_COPIES:
            raise _save_error(name, at, "deck %d holds more than %d copies of %r" % (i + 1, MAX_COPIES, card_name))
    if named_decks and deck["name"] not in data.decks:
        raise _save_error(name, at, "the save plays deck %r, which this game does not have (decks: %s)"
                          % (deck["name"], ", ".join(data.deck_names()) or "none"))


def _check_log(node, name, data, named_decks=False, werewolf=False):
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
    if data is not None and log["format"] != LOG_FORMAT:
        raise _save_error(name, _at(fields["format"][0]), "this is the save of a werewolf game; this game "
                          "is a CFC game (its saves have 'format': %d)" % LOG_FORMAT)
    if werewolf and log["format"] != WOLF_LOG_FORMAT:
        raise _save_error(name, _at(fields["format"][0]), "this is the save of a CFC game; this game is a "
                          "werewolf game (its saves have 'format': %r)" % WOLF_LOG_FORMAT)
    if log["format"] == WOLF_LOG_FORMAT:  # a werewolf game: its roles instead of decks
        _check_wolf_log(name, fields, need, getattr(werewolf, "models", None))
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
            _check_deck(name, _at(dnode), i, d, data, named_decks)
    _check_decisions(name, fields, need, players=2)
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
