"""Loading a game folder: ``cards.yaml`` (the card table) and ``decks/*.yaml``.

Both are read by the hardened YAML loader (:mod:`rulescript.yamlsafe`) that ``rulescript check``
uses too; every problem is a :class:`CardDataError` whose ``diagnostic`` names the file, line and
column of the entry.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulescript import yamlsafe
from rulescript.diagnostics import Diagnostic, Span
from rulescript.sim.scenario_yaml import LDict, LList, YamlProblem, load_located

CARD_TYPES = ("character", "action", "reaction")
DECK_HELP = ("add one as decks/NAME.yaml: 'cards:' mapping 50 cards, card id to count (at most 3 "
             "copies of a name); see docs/game-format.md")


class CardDataError(ValueError):
    """Card or deck data that the game cannot use; ``diagnostic`` locates it, and the message is its
    first line (``file:line:col: error[RD1xx]: ...``)."""

    def __init__(self, message, diagnostic=None):
        self.diagnostic = diagnostic or Diagnostic("error", "RD110", str(message), Span("<cards>", 1, 1))
        ValueError.__init__(self, self.diagnostic.render().split("\n")[0] if diagnostic else message)


def _fail(path, at, message, code="RD110"):
    line, col = at if at and at[0] else (1, 1)
    raise CardDataError(message, Diagnostic("error", code, message, Span(str(path), line, col)))


def _read(path):
    """The located YAML value of a card or deck file (None when empty)."""
    try:
        text = yamlsafe.read_file_text(path, "RD101")
        value, dups = load_located(text, str(path), "RD101")
    except yamlsafe.YamlError as exc:
        raise CardDataError(exc.diagnostic.message, exc.diagnostic) from None
    except YamlProblem as exc:
        raise CardDataError(exc.diagnostic.message, exc.diagnostic) from None
    if dups:
        raise CardDataError(dups[0].message, dups[0])
    return value


@dataclass
class GameData:
    """The static data of a game folder."""

    root: Path
    models: dict = field(default_factory=dict)   # card id -> card dict
    decks: dict = field(default_factory=dict)    # deck file stem -> {"name": str, "cards": [ids]}

    def deck_names(self) -> list:
        return sorted(self.decks)

    def deck_list(self, name: str) -> list:
        """The deck as a list of card ids (each id repeated by its count), in file order."""
        return list(self.decks[name]["cards"])


def _check_card(path: Path, i: int, c, at, memo=None) -> dict:
    where = "card #%d" % (i + 1)
    if not isinstance(c, dict):
        _fail(path, at, "%s: a mapping is expected" % where)

    def bad(key, message):
        _fail(path, c.where(key) if isinstance(c, LDict) else at, "%s: %s" % (where, message))

    for key in ("id", "name", "type"):
        if not isinstance(c.get(key), str) or not c.get(key):
            bad(key, "'%s' must be a non-empty string" % key)
    where = "%s (%s)" % (where, c["id"])
    if c["type"] not in CARD_TYPES:
        bad("type", "type must be one of %s" % ", ".join(CARD_TYPES))
    sp = c.get("sp", 0)
    if not isinstance(sp, int) or isinstance(sp, bool):
        bad("sp", "sp must be an integer")
    out = dict(c)
    out["sp"] = sp
    if c["type"] == "character":
        bp = c.get("bp")
        if not isinstance(bp, int) or isinstance(bp, bool) or bp < 100 or bp > 1500 or bp % 100:
            bad("bp", "bp must be 100..1500 in steps of 100")
        backup = c.get("backup") or []
        if not isinstance(backup, list) or len(backup) > 3:
            bad("backup", "backup must be a list of at most 3 subtypes")
        out["backup"] = [str(b) for b in backup]
        out["subtype"] = str(c.get("subtype") or "")
    elif sp > 0:
        bad("sp", "an %s card cannot give SP" % c["type"])
    ab = c.get("ability")
    if ab is not None:
        if not isinstance(ab, dict) or ab.get("kind") not in ("instant", "trigger", "auto"):
            bad("ability", "ability.kind must be instant, trigger or auto")
        out["ability"] = {"kind": ab["kind"], "name": str(ab.get("name") or "")}
    return _plain(out, memo)


def _plain(value, memo=None):
    """A located value as plain dicts and lists (the game state is plain data).  A container met
    again (an alias shares it) gives the copy already made: linear in the file, not in what its
    aliases expand to."""
    if not isinstance(value, (dict, list)):
        return value
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)][1]
    out = {} if isinstance(value, dict) else []
    memo[id(value)] = (value, out)  # the value is kept alive: its id is not reused while memo lives
    if isinstance(value, dict):
        out.update((k, _plain(v, memo)) for k, v in value.items())
    else:
        out.extend(_plain(v, memo) for v in value)
    return out


def load_cards(path: Path) -> dict:
    data = _read(path)
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        _fail(path, getattr(data, "at", None), "a top-level 'cards:' list is expected")
    models = {}
    memo = {}
    for i, c in enumerate(cards):
        at = cards.where(i) if isinstance(cards, LList) else None
        m = _check_card(Path(path), i, c, at, memo)
        if m["id"] in models:
            _fail(path, at, "duplicate card id %r" % m["id"])
        models[m["id"]] = m
    return models


def load_deck(path: Path, models: dict) -> dict:
    data = _read(path)
    counts = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(counts, dict):
        _fail(path, getattr(data, "at", None), "a 'cards:' mapping of card id to count is expected")
    ids = []
    per_name = {}
    for cid, n in counts.items():
        at = counts.where(cid, value=False) if isinstance(counts, LDict) else None
        if cid not in models:
            _fail(path, at, "unknown card id %r" % (cid,))
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            _fail(path, at, "count of %r must be a positive integer" % cid)
        name = models[cid]["name"]
        per_name[name] = per_name.get(name, 0) + n
        if per_name[name] > 3:
            _fail(path, at, "more than 3 copies of %r" % name)
        if len(ids) + n > 10_000:
            _fail(path, at, "a deck holds 50 cards, this one more than 10,000")
        ids.extend([cid] * n)
    if len(ids) != 50:
        _fail(path, data.where("cards") if isinstance(data, LDict) else None,
              "a deck holds 50 cards, this one %d" % len(ids))
    name = data.get("name")
    return {"name": str(name) if name else Path(path).stem, "cards": ids}


def load_game(game_dir) -> GameData:
    """Load ``cards.yaml`` and every ``decks/*.yaml`` of a game folder."""
    root = Path(game_dir)
    models = load_cards(root / "cards.yaml")
    decks = {}
    deck_dir = root / "decks"
    if deck_dir.is_dir():
        for p in sorted(deck_dir.glob("*.yaml")):
            decks[p.stem] = load_deck(p, models)
    return GameData(root=root, models=models, decks=decks)
