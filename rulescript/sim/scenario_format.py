"""Reading and checking scenario files (docs/scenarios.md).

:func:`load_scenario_file` turns one YAML file into a list of :class:`Scenario` objects and a list
of diagnostics (codes ``SC1xx``). A scenario with a diagnostic is not run; the runner reports the
diagnostics as its failure. The checked data stays in the located containers of
:mod:`rulescript.sim.scenario_yaml`, so the runner can name the line of a failing expectation.

Codes:

====== ==============================================================
SC101  the file is not YAML (syntax)
SC102  the top level is not a scenario, a list of scenarios or ``{scenarios: [...]}``
SC103  unknown field (with a suggestion)
SC104  a required field is missing
SC105  a value has the wrong type or is out of range
SC106  unknown card id
SC107  unknown step kind, or a step that is not a one-key mapping
SC108  duplicate key in a mapping
SC109  the game folder cannot be found or loaded
SC110  two scenarios of one file have the same name
====== ==============================================================
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulescript.diagnostics import Diagnostic, Span, did_you_mean
from rulescript.games.cfc.data import (CARD_ABILITIES, PHASES, PLAYER_ABILITIES, RING_SLOTS,
                                         RULE_DEFAULTS)
from rulescript.runtime.ports import KINDS
from rulescript import yamlsafe
from rulescript.sim.cards import CardDataError, load_game
from rulescript.sim.scenario_yaml import LDict, LList, YamlProblem, load_located

SCENARIO_FIELDS = ("name", "game", "seed", "rules", "pending", "description", "setup", "steps",
                   "decisions", "expect")
FILE_FIELDS = ("game", "seed", "rules", "scenarios")
SETUP_FIELDS = ("turn", "active", "first", "phase", "players", "attacks", "turn_limit")
PLAYER_SETUP = ("hp", "sp", "hand", "deck", "discards", "removed", "table", "ring", "abilities",
                "rules", "skip", "extra_turns", "chars_played", "chars_allowed", "backups_played")
PILES = ("hand", "deck", "discards", "removed", "table")
SLOT_SETUP = ("card", "bp", "frozen", "fresh", "used", "backups", "abilities")
ATTACK_SETUP = ("lead", "followers", "blocker")

#: step kind -> (fields, required fields, card-ref fields, shorthand field)
STEPS = {
    "play": (("card", "slot"), ("card",), ("card",), "card"),
    "action": (("card",), ("card",), ("card",), "card"),
    "activate": (("card",), ("card",), ("card",), "card"),
    "backup": (("card", "host"), ("card", "host"), ("card", "host"), None),
    "attack": (("card",), ("card",), ("card",), "card"),
    "join": (("card", "lead"), ("card", "lead"), ("card", "lead"), None),
    "cancel": (("card",), ("card",), ("card",), "card"),
    "block": (("card", "attack"), ("card", "attack"), ("card", "attack"), None),
    "withdraw": (("card",), ("card",), ("card",), "card"),
    "reaction": (("card",), ("card",), ("card",), "card"),
    "pass": ((), (), (), None),
    "run_until": (("turn", "phase"), (), (), None),
    "fire": (("event", "player", "card"), ("event", "player"), ("card",), None),
}
PASS_WORDS = ("main", "attack", "counter-attack", "defense", "turn")

EXPECT_FIELDS = ("over", "winner", "result", "reason", "turn", "active", "phase", "players",
                 "log", "no_log", "errors", "decisions_left", "ran", "attacks")
PLAYER_EXPECT = ("hp", "sp", "hand", "deck", "discards", "removed", "table", "ring", "abilities",
                 "lacks", "rules", "skip", "extra_turns", "chars_played", "chars_allowed",
                 "backups_played")
PILE_EXPECT = ("count", "contains", "excludes", "set", "top", "bottom")
SLOT_EXPECT = ("card", "bp", "lastBP", "frozen", "fresh", "used", "attacking", "blocked", "ua",
               "backups", "abilities", "lacks", "rules")
ERROR_EXPECT = ("count", "code", "card", "message")
ATTACK_EXPECT = ("lead", "followers", "blocker")
DECISION_FIELDS = ("answer", "kind", "player")
CARD_REF_FIELDS = ("card", "player", "zone", "slot", "pos")
ZONES = ("hand", "deck", "discards", "removed", "ring", "table", "backup")


@dataclass
class Scenario:
    """One checked scenario. ``raw`` is its located mapping; ``game_dir`` the game folder."""

    name: str
    file: str
    line: int
    raw: LDict
    game_dir: Path | None = None
    data: object = None                 # GameData of the game folder
    seed: int = 0
    rules: bool = True
    pending: str | None = None
    diagnostics: list = field(default_factory=list)

    @property
    def where(self):
        return "%s:%d" % (self.file, self.line)

    @property
    def ok(self):
        return not any(d.is_error for d in self.diagnostics)


_GAMES = {}


def game_data(game_dir):
    """Load (once per folder) the card data of a game folder."""
    key = str(Path(game_dir).resolve())
    if key not in _GAMES:
        _GAMES[key] = load_game(game_dir)
    return _GAMES[key]


def find_game_dir(path):
    """The nearest folder at or above ``path`` that holds a ``cards.yaml``."""
    p = Path(path).resolve()
    if p.is_file():
        p = p.parent
    for cand in [p] + list(p.parents):
        if _has_cards(cand):
            return cand
    return None


class _Checker:
    def __init__(self, filename, diags):
        self.file = filename
        self.diags = diags
        self.models = {}

    def is_list(self, value, what, at):
        """True if ``value`` is a list; otherwise report SC105 for ``what`` and return False."""
        if isinstance(value, list):
            return True
        self.err("SC105", "%s must be a list, got %s" % (what, _kind(value)), at)
        return False

    def err(self, code, message, at, notes=()):
        line, col = at
        self.diags.append(Diagnostic("error", code, message, Span(self.file, line, col),
                                     tuple(notes)))

    # -------------------------------------------------------------- generic shapes
    def mapping(self, value, at, what):
        if not isinstance(value, dict):
            self.err("SC105", "%s must be a mapping, got %s" % (what, _kind(value)), at)
            return False
        return True

    def fields(self, d, allowed, what, required=()):
        for k in d:
            if k not in allowed:
                self.err("SC103", "unknown field %r in %s" % (k, what), d.where(k, False),
                         did_you_mean(str(k), allowed))
        for k in required:
            if k not in d:
                self.err("SC104", "%s needs a %r field" % (what, k), d.at)

    def integer(self, d, key, what, lo=None, hi=None, none_ok=False):
        v = d[key]
        at = d.where(key)
        if v is None and none_ok:
            return
        if not isinstance(v, int) or isinstance(v, bool):
            self.err("SC105", "%s.%s must be an integer, got %s" % (what, key, _kind(v)), at)
        elif (lo is not None and v < lo) or (hi is not None and v > hi):
            rng = "%s..%s" % ("" if lo is None else lo, "" if hi is None else hi)
            self.err("SC105", "%s.%s must be in %s, got %d" % (what, key, rng, v), at)

    def boolean(self, d, key, what):
        if not isinstance(d[key], bool):
            self.err("SC105", "%s.%s must be true or false, got %s" % (what, key, _kind(d[key])),
                     d.where(key))

    def string(self, d, key, what, choices=None, none_ok=False):
        v = d[key]
        if v is None and none_ok:
            return
        if not isinstance(v, str):
            self.err("SC105", "%s.%s must be a string, got %s" % (what, key, _kind(v)), d.where(key))
        elif choices is not None and v not in choices:
            self.err("SC105", "%s.%s must be one of %s, got %r" % (what, key, ", ".join(choices), v),
                     d.where(key), did_you_mean(v, choices))

    def player_index(self, d, key, what):
        v = d[key]
        if v not in (0, 1) or isinstance(v, bool):
            self.err("SC105", "%s.%s must be 0 or 1, got %r" % (what, key, v), d.where(key))

    def card_id(self, v, at, what):
        if not isinstance(v, str):
            self.err("SC105", "%s must be a card id, got %s" % (what, _kind(v)), at)
            return False
        if v not in self.models:
            self.err("SC106", "%s: unknown card id %r" % (what, v), at,
                     did_you_mean(v, self.models))
            return False
        return True

    def card_list(self, d, key, what, none_ok=True):
        v = d[key]
        if v is None and none_ok:
            return
        if not isinstance(v, list):
            self.err("SC105", "%s.%s must be a list of card ids, got %s" % (what, key, _kind(v)),
                     d.where(key))
            return
        for i, cid in enumerate(v):
            self.card_id(cid, v.where(i), "%s.%s[%d]" % (what, key, i))

    def card_ref(self, v, at, what):
        """A card reference of a step: a card id, ``#k`` (k-th card of the hand, from 1) or
        ``@n`` (the card in ring slot n)."""
        if isinstance(v, str) and v.startswith("#"):
            if not v[1:].isdigit() or int(v[1:]) < 1:
                self.err("SC105", "%s: %r: '#k' needs a position from 1" % (what, v), at)
            return
        if isinstance(v, str) and v.startswith("@"):
            if not v[1:].isdigit() or int(v[1:]) >= RING_SLOTS:
                self.err("SC105", "%s: %r: '@n' needs a ring slot 0..%d" % (what, v, RING_SLOTS - 1),
                         at)
            return
        self.card_id(v, at, what)

    def players(self, value, at, what):
        """``players``: a list of (up to) two entries, or a mapping with keys 0 and 1."""
        out = []
        if isinstance(value, list):
            if len(value) > 2:
                self.err("SC105", "%s: at most two players" % what, at)
            for i, pv in enumerate(value[:2]):
                out.append((i, pv, value.where(i)))
        elif isinstance(value, dict):
            for k, pv in value.items():
                if k not in (0, 1) or isinstance(k, bool):
                    self.err("SC105", "%s: player keys are 0 and 1, got %r" % (what, k),
                             value.where(k, False))
                    continue
                out.append((k, pv, value.where(k)))
        else:
            self.err("SC105", "%s must be a list or a mapping of players, got %s"
                     % (what, _kind(value)), at)
        return out

    def ability_list(self, d, key, what, allowed):
        v = d[key]
        if not self.is_list(v, "%s.%s" % (what, key), d.where(key)):
            return
        for i, ab in enumerate(v):
            if ab not in allowed:
                self.err("SC105", "%s.%s[%d]: unknown ability %r" % (what, key, i, ab), v.where(i),
                         did_you_mean(str(ab), allowed))

    def rules_map(self, d, key, what):
        v = d[key]
        if not self.mapping(v, d.where(key), "%s.%s" % (what, key)):
            return
        for r in v:
            if r not in RULE_DEFAULTS:
                self.err("SC105", "%s.%s: unknown game rule %r" % (what, key, r), v.where(r, False),
                         did_you_mean(str(r), RULE_DEFAULTS))

    # -------------------------------------------------------------- the scenario
    def scenario(self, sc):
        d = sc.raw
        self.fields(d, SCENARIO_FIELDS, "a scenario", ("name",))
        if "name" in d:
            self.string(d, "name", "scenario")
        for key in ("seed",):
            if key in d:
                self.integer(d, key, "scenario")
        if "rules" in d:
            self.boolean(d, "rules", "scenario")
        if "pending" in d:
            self.string(d, "pending", "scenario")
        if "setup" in d and self.mapping(d["setup"], d.where("setup"), "setup"):
            self.setup(d["setup"])
        if "steps" in d:
            self.steps(d["steps"], d.where("steps"))
        if "decisions" in d:
            self.decisions(d["decisions"], d.where("decisions"))
        if "expect" in d and d["expect"] is not None \
                and self.mapping(d["expect"], d.where("expect"), "expect"):
            self.expect(d["expect"])

    def setup(self, s):
        self.fields(s, SETUP_FIELDS, "setup")
        if "turn" in s:
            self.integer(s, "turn", "setup", 1)
        if "turn_limit" in s:
            self.integer(s, "turn_limit", "setup", 1)
        for key in ("active", "first"):
            if key in s:
                self.player_index(s, key, "setup")
        if "phase" in s:
            self.string(s, "phase", "setup", PHASES)
        if "players" in s:
            for i, pv, at in self.players(s["players"], s.where("players"), "setup.players"):
                if pv is not None and self.mapping(pv, at, "setup.players[%d]" % i):
                    self.player_setup(pv, "setup.players[%d]" % i)
        if "attacks" in s:
            self.attacks_setup(s["attacks"], s.where("attacks"))

    def player_setup(self, pv, what):
        self.fields(pv, PLAYER_SETUP, what)
        for key in ("hp", "sp", "extra_turns", "chars_played", "chars_allowed", "backups_played"):
            if key in pv:
                self.integer(pv, key, what, 0)
        for key in PILES:
            if key in pv:
                self.card_list(pv, key, what)
        if "ring" in pv:
            self.ring_setup(pv["ring"], pv.where("ring"), what + ".ring")
        if "abilities" in pv:
            self.ability_list(pv, "abilities", what, PLAYER_ABILITIES)
        if "rules" in pv:
            self.rules_map(pv, "rules", what)
        if "skip" in pv:
            self.skip_list(pv, what)

    def skip_list(self, pv, what):
        v = pv["skip"]
        if not isinstance(v, list):
            self.err("SC105", "%s.skip must be a list of phases" % what, pv.where("skip"))
        else:
            for i, ph in enumerate(v):
                if ph not in PHASES:
                    self.err("SC105", "%s.skip[%d]: unknown phase %r" % (what, i, ph), v.where(i),
                             did_you_mean(str(ph), PHASES))

    def _slots(self, ring, at, what):
        """(slot, value, at) for a ring given as a list (slot order) or a mapping slot -> value."""
        out = []
        if isinstance(ring, list):
            if len(ring) > RING_SLOTS:
                self.err("SC105", "%s has %d slots, a ring has %d" % (what, len(ring), RING_SLOTS), at)
            for i, v in enumerate(ring[:RING_SLOTS]):
                out.append((i, v, ring.where(i)))
        elif isinstance(ring, dict):
            for k, v in ring.items():
                if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < RING_SLOTS:
                    self.err("SC105", "%s: slot keys are 0..%d, got %r" % (what, RING_SLOTS - 1, k),
                             ring.where(k, False))
                    continue
                out.append((k, v, ring.where(k)))
        else:
            self.err("SC105", "%s must be a list of %d slots or a mapping slot -> card, got %s"
                     % (what, RING_SLOTS, _kind(ring)), at)
        return out

    def ring_setup(self, ring, at, what):
        for slot, v, vat in self._slots(ring, at, what):
            w = "%s[%d]" % (what, slot)
            if v is None:
                continue
            if isinstance(v, str):
                self.card_id(v, vat, w)
                continue
            if not self.mapping(v, vat, w):
                continue
            self.fields(v, SLOT_SETUP, w, ("card",))
            if "card" in v and self.card_id(v["card"], v.where("card"), w + ".card"):
                if self.models[v["card"]]["type"] != "character":
                    self.err("SC105", "%s: %r is not a character" % (w, v["card"]), v.where("card"))
            if "bp" in v:
                self.integer(v, "bp", w, 0)
            for key in ("frozen", "fresh", "used"):
                if key in v:
                    self.boolean(v, key, w)
            if "backups" in v:
                self.card_list(v, "backups", w)
            if "abilities" in v:
                self.ability_list(v, "abilities", w, CARD_ABILITIES)

    def attacks_setup(self, v, at):
        if not self.is_list(v, "setup.attacks", at):
            return
        for i, a in enumerate(v):
            w = "setup.attacks[%d]" % i
            if not self.mapping(a, v.where(i), w):
                continue
            self.fields(a, ATTACK_SETUP, w, ("lead",))
            for key in ("lead", "blocker"):
                if key in a:
                    self.integer(a, key, w, 0, RING_SLOTS - 1, none_ok=(key == "blocker"))
            if "followers" in a:
                f = a["followers"]
                if not isinstance(f, list) or len(f) > 2 or not all(
                        isinstance(x, int) and not isinstance(x, bool) and 0 <= x < RING_SLOTS
                        for x in f):
                    self.err("SC105", "%s.followers must be a list of at most 2 ring slots" % w,
                             a.where("followers"))

    def steps(self, steps, at):
        if steps is None or not self.is_list(steps, "steps", at):
            return
        for i, st in enumerate(steps):
            w = "steps[%d]" % i
            sat = steps.where(i)
            if not isinstance(st, dict) or len(st) != 1:
                self.err("SC107", "%s must be a mapping with one step kind (%s)"
                         % (w, ", ".join(STEPS)), sat)
                continue
            kind = next(iter(st))
            if kind not in STEPS:
                self.err("SC107", "%s: unknown step kind %r" % (w, kind), st.where(kind, False),
                         did_you_mean(str(kind), STEPS))
                continue
            allowed, required, refs, short = STEPS[kind]
            val = st[kind]
            vat = st.where(kind)
            w = "%s.%s" % (w, kind)
            if kind == "pass":
                if val not in PASS_WORDS:
                    self.err("SC105", "%s must be one of %s, got %r" % (w, ", ".join(PASS_WORDS), val),
                             vat, did_you_mean(str(val), PASS_WORDS))
                continue
            if kind == "run_until" and val == "over":
                continue
            if short is not None and not isinstance(val, dict):
                self.card_ref(val, vat, w)
                continue
            if not self.mapping(val, vat, w + (" (or 'over')" if kind == "run_until" else "")):
                continue
            self.fields(val, allowed, w, required)
            for key in refs:
                if key in val:
                    self.card_ref(val[key], val.where(key), "%s.%s" % (w, key))
            if kind == "play" and "slot" in val:
                self.integer(val, "slot", w, 0, RING_SLOTS - 1)
            if kind == "run_until":
                if not val:
                    self.err("SC104", "%s needs a turn, a phase or both" % w, vat)
                if "turn" in val:
                    self.integer(val, "turn", w, 1)
                if "phase" in val:
                    self.string(val, "phase", w, PHASES)
            if kind == "fire":
                if "event" in val:
                    self.string(val, "event", w)
                if "player" in val:
                    self.player_index(val, "player", w)

    def decisions(self, decs, at):
        if decs is None or not self.is_list(decs, "decisions", at):
            return
        for i, d in enumerate(decs):
            w = "decisions[%d]" % i
            self.answer(d, decs.where(i), w, top=True)

    def answer(self, d, at, w, top=False):
        if isinstance(d, list):
            for j, x in enumerate(d):
                self.answer(x, d.where(j), "%s[%d]" % (w, j))
            return
        if not isinstance(d, dict):
            return
        if top and "answer" in d:
            self.fields(d, DECISION_FIELDS, w)
            if "kind" in d:
                self.string(d, "kind", w, KINDS)
            if "player" in d:
                self.player_index(d, "player", w)
            self.answer(d["answer"], d.where("answer"), w + ".answer")
            return
        if "card" in d:
            self.fields(d, CARD_REF_FIELDS, w)
            self.card_ref(d["card"], d.where("card"), w + ".card")
            if "player" in d:
                self.player_index(d, "player", w)
            if "zone" in d:
                self.string(d, "zone", w, ZONES)
            if "slot" in d:
                self.integer(d, "slot", w, 0, RING_SLOTS - 1)
            return
        if list(d) == ["player"]:
            self.player_index(d, "player", w)
            return
        if "do" not in d:
            self.err("SC105", "%s: a mapping answer is {card: ...}, {player: n}, {do: ...} or "
                     "{answer: ...}" % w, at)

    # -------------------------------------------------------------- expectations
    def expect(self, e):
        self.fields(e, EXPECT_FIELDS, "expect")
        if "over" in e:
            self.boolean(e, "over", "expect")
        for key in ("winner", "active"):
            if key in e and e[key] is not None:
                self.player_index(e, key, "expect")
        if "result" in e:
            self.string(e, "result", "expect", ("win", "draw"), none_ok=True)
        if "reason" in e:
            self.string(e, "reason", "expect")
        if "turn" in e:
            self.integer(e, "turn", "expect", 0)
        if "phase" in e:
            self.string(e, "phase", "expect", PHASES)
        if "decisions_left" in e:
            self.integer(e, "decisions_left", "expect", 0)
        for key in ("log", "no_log", "ran"):
            if key in e:
                v = e[key]
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    self.err("SC105", "expect.%s must be a list of strings" % key, e.where(key))
        if "errors" in e:
            self.errors_expect(e["errors"], e.where("errors"))
        if "attacks" in e:
            self.attacks_expect(e["attacks"], e.where("attacks"))
        if "players" in e:
            for i, pv, at in self.players(e["players"], e.where("players"), "expect.players"):
                if pv is not None and self.mapping(pv, at, "expect.players[%d]" % i):
                    self.player_expect(pv, "expect.players[%d]" % i)

    def errors_expect(self, v, at):
        if isinstance(v, int) and not isinstance(v, bool):
            if v < 0:
                self.err("SC105", "expect.errors must be a count from 0, got %d" % v, at)
            return
        items = [(v, at)] if isinstance(v, dict) else None
        if isinstance(v, list):
            items = [(x, v.where(i)) for i, x in enumerate(v)]
        if items is None:
            self.err("SC105", "expect.errors must be a count, a mapping or a list of mappings", at)
            return
        for x, xat in items:
            if self.mapping(x, xat, "expect.errors entry"):
                self.fields(x, ERROR_EXPECT, "expect.errors entry")
                if "count" in x:
                    self.integer(x, "count", "expect.errors", 0)
                for key in ("code", "message"):
                    if key in x:
                        self.string(x, key, "expect.errors")
                if "card" in x and not isinstance(x["card"], str):
                    self.err("SC105", "expect.errors.card must be a card id, got %s" % _kind(x["card"]),
                             x.where("card"))

    def attacks_expect(self, v, at):
        if isinstance(v, int) and not isinstance(v, bool):
            return
        if not isinstance(v, list):
            self.err("SC105", "expect.attacks must be a count or a list of attacks", at)
            return
        for i, a in enumerate(v):
            w = "expect.attacks[%d]" % i
            if not self.mapping(a, v.where(i), w):
                continue
            self.fields(a, ATTACK_EXPECT, w, ("lead",))
            for key in ("lead", "blocker"):
                if key in a and a[key] is not None:
                    self.card_ref(a[key], a.where(key), "%s.%s" % (w, key))
            if "followers" in a:
                f = a["followers"]
                if not isinstance(f, list):
                    self.err("SC105", "%s.followers must be a list" % w, a.where("followers"))
                else:
                    for j, x in enumerate(f):
                        self.card_ref(x, f.where(j), "%s.followers[%d]" % (w, j))

    def pile_expect(self, v, at, what):
        if isinstance(v, list):
            for i, cid in enumerate(v):
                self.card_id(cid, v.where(i), "%s[%d]" % (what, i))
            return
        if isinstance(v, int) and not isinstance(v, bool):
            return
        if not self.mapping(v, at, what):
            return
        self.fields(v, PILE_EXPECT, what)
        if "count" in v:
            self.integer(v, "count", what, 0)
        for key in ("contains", "excludes", "set", "top", "bottom"):
            if key in v:
                self.card_list(v, key, what, none_ok=False)

    def player_expect(self, pv, what):
        self.fields(pv, PLAYER_EXPECT, what)
        for key in ("hp", "sp", "extra_turns", "chars_played", "chars_allowed", "backups_played"):
            if key in pv:
                self.integer(pv, key, what, 0)
        for key in PILES:
            if key in pv:
                self.pile_expect(pv[key], pv.where(key), "%s.%s" % (what, key))
        for key in ("abilities", "lacks"):
            if key in pv:
                self.ability_list(pv, key, what, PLAYER_ABILITIES)
        if "rules" in pv:
            self.rules_map(pv, "rules", what)
        if "skip" in pv:
            self.skip_list(pv, what)
        if "ring" in pv:
            for slot, v, vat in self._slots(pv["ring"], pv.where("ring"), what + ".ring"):
                w = "%s.ring[%d]" % (what, slot)
                if v is None or v == "*":
                    continue
                if isinstance(v, str):
                    self.card_id(v, vat, w)
                    continue
                if not self.mapping(v, vat, w):
                    continue
                self.fields(v, SLOT_EXPECT, w)
                if "card" in v:
                    self.card_id(v["card"], v.where("card"), w + ".card")
                for key in ("bp", "lastBP"):
                    if key in v:
                        self.integer(v, key, w, 0)
                for key in ("frozen", "fresh", "used", "attacking", "blocked"):
                    if key in v:
                        self.boolean(v, key, w)
                if "ua" in v:
                    self.string(v, "ua", w, ("lead", "follower"), none_ok=True)
                if "backups" in v:
                    self.pile_expect(v["backups"], v.where("backups"), w + ".backups")
                for key in ("abilities", "lacks"):
                    if key in v:
                        self.ability_list(v, key, w, CARD_ABILITIES)


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, str):
        return "a string (%r)" % v
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def _has_cards(folder):
    """Whether ``folder/cards.yaml`` is a file; a path the system refuses (too long, say) is not."""
    try:
        return (Path(folder) / "cards.yaml").is_file()
    except (OSError, ValueError):
        return False


def _bad_game_path(value):
    """Why a ``game:`` value cannot be a folder path, or None."""
    if "\0" in value:
        return "it holds a NUL character"
    if len(value) > 4096 or any(len(part) > 255 for part in value.split("/")):
        return "it is longer than a path can be (255 characters a name, 4,096 in all)"
    return None


def _resolve_game(value, file_dir):
    """A ``game:`` path: relative to the scenario file's folder, else to the working folder."""
    p = Path(value)
    if p.is_absolute():
        return p
    for base in (file_dir, Path.cwd()):
        cand = (base / p)
        if _has_cards(cand):
            return cand.resolve()
    return (file_dir / p).resolve()


def load_scenario_file(path):
    """Read one scenario file; return ``(scenarios, file_diagnostics)``.

    File diagnostics are problems that prevent reading any scenario (syntax, top-level shape);
    each scenario carries its own diagnostics.
    """
    path = Path(path)
    filename = str(path)
    try:
        text = yamlsafe.read_file_text(path, "SC101")
    except yamlsafe.YamlError as exc:
        return [], [exc.diagnostic]
    return parse_scenarios(text, filename, path.parent)


def parse_scenarios(text, filename, base_dir=None):
    """Parse scenario YAML ``text`` (named ``filename``); see :func:`load_scenario_file`."""
    base_dir = Path(base_dir) if base_dir is not None else Path(filename).parent
    try:
        value, dups = load_located(text, filename)
    except YamlProblem as exc:
        return [], [exc.diagnostic]
    file_diags = []
    chk = _Checker(filename, file_diags)
    defaults = {}
    if isinstance(value, dict) and "scenarios" in value:
        chk.fields(value, FILE_FIELDS, "a scenario file")
        defaults = {k: value[k] for k in ("game", "seed", "rules") if k in value}
        if "rules" in value:
            chk.boolean(value, "rules", "the file")
        if "seed" in value:
            chk.integer(value, "seed", "the file")
        items = value["scenarios"]
        items_at = value.where("scenarios")
        if not isinstance(items, list):
            chk.err("SC102", "'scenarios' must be a list of scenarios", items_at)
            return [], file_diags + dups
    elif isinstance(value, dict):
        items = LList([value])
        items.item_at = [value.at]
    elif isinstance(value, list):
        items = value
    else:
        file_diags.append(Diagnostic("error", "SC102", "a scenario file holds a scenario (a mapping), "
                                     "a list of scenarios or {scenarios: [...]}, not %s" % _kind(value),
                                     Span(filename, 1, 1)))
        return [], file_diags + dups

    out = []
    names = {}
    for i, raw in enumerate(items):
        at = items.where(i)
        if not isinstance(raw, dict):
            file_diags.append(Diagnostic("error", "SC102", "scenario #%d must be a mapping, got %s"
                                         % (i + 1, _kind(raw)), Span(filename, at[0], at[1])))
            continue
        name = raw.get("name")
        sc = Scenario(name=name if isinstance(name, str) else "%s#%d" % (Path(filename).name, i + 1),
                      file=filename, line=raw.where("name", False)[0] if "name" in raw else at[0],
                      raw=raw)
        diags = sc.diagnostics
        diags.extend(d for d in dups if at[0] <= d.span.line <= _last_line(raw, at[0]))
        c = _Checker(filename, diags)
        if sc.name in names:
            c.err("SC110", "another scenario of this file (line %d) is named %r"
                  % (names[sc.name], sc.name), raw.where("name"))
        names.setdefault(sc.name, at[0])
        seed = raw.get("seed", defaults.get("seed", 0))
        sc.seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else 0
        rules = raw.get("rules", defaults.get("rules", True))
        sc.rules = rules if isinstance(rules, bool) else True
        pending = raw.get("pending")
        sc.pending = pending if isinstance(pending, str) else None
        game = raw.get("game", defaults.get("game"))
        if game is not None and not isinstance(game, str):
            c.err("SC105", "game must be a path to a game folder", raw.where("game"))
        elif game is not None and _bad_game_path(game):
            c.err("SC105", "game is not a folder path: %s" % _bad_game_path(game), raw.where("game")
                  if "game" in raw else at)
        else:
            gdir = _resolve_game(game, base_dir) if game is not None else find_game_dir(base_dir)
            gat = raw.where("game") if "game" in raw else value.where("game") if (
                isinstance(value, LDict) and "game" in value) else at
            if gdir is None or not _has_cards(gdir):
                c.err("SC109", "no game folder (with a cards.yaml) %s" % (
                    "at %r" % game if game is not None else "above this file; give 'game:'"), gat)
            else:
                try:
                    sc.data = game_data(gdir)
                    sc.game_dir = gdir
                    c.models = sc.data.models
                except CardDataError as exc:
                    c.err("SC109", "the game's card data cannot be loaded: %s" % exc, gat)
        if sc.data is not None:
            c.scenario(sc)
        out.append(sc)
    return out, file_diags + [d for d in dups if not any(d in s.diagnostics for s in out)]


def _last_line(d, default):
    """The largest line number recorded anywhere inside a located container."""
    best = default
    stack = [d]
    seen = set()  # containers an alias shares are looked at once
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, LDict):
            for pos in list(x.key_at.values()) + list(x.val_at.values()):
                best = max(best, pos[0])
            stack.extend(x.values())
        elif isinstance(x, LList):
            for pos in x.item_at:
                best = max(best, pos[0])
            stack.extend(x)
    return best
