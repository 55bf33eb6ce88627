"""Loading a game folder: ``cards.yaml`` (the card table) and ``decks/*.yaml``."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

CARD_TYPES = ("character", "action", "reaction")


class CardDataError(ValueError):
    """Card or deck data that the game cannot use; the message names the file and the entry."""


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


def _check_card(path: Path, i: int, c) -> dict:
    where = "%s: card #%d" % (path, i + 1)
    if not isinstance(c, dict):
        raise CardDataError("%s: a mapping is expected" % where)
    for key in ("id", "name", "type"):
        if not isinstance(c.get(key), str) or not c.get(key):
            raise CardDataError("%s: '%s' must be a non-empty string" % (where, key))
    where = "%s (%s)" % (where, c["id"])
    if c["type"] not in CARD_TYPES:
        raise CardDataError("%s: type must be one of %s" % (where, ", ".join(CARD_TYPES)))
    sp = c.get("sp", 0)
    if not isinstance(sp, int) or isinstance(sp, bool):
        raise CardDataError("%s: sp must be an integer" % where)
    out = dict(c)
    out["sp"] = sp
    if c["type"] == "character":
        bp = c.get("bp")
        if not isinstance(bp, int) or bp < 100 or bp > 1500 or bp % 100:
            raise CardDataError("%s: bp must be 100..1500 in steps of 100" % where)
        backup = c.get("backup") or []
        if not isinstance(backup, list) or len(backup) > 3:
            raise CardDataError("%s: backup must be a list of at most 3 subtypes" % where)
        out["backup"] = [str(b) for b in backup]
        out["subtype"] = str(c.get("subtype") or "")
    elif sp > 0:
        raise CardDataError("%s: an %s card cannot give SP" % (where, c["type"]))
    ab = c.get("ability")
    if ab is not None:
        if not isinstance(ab, dict) or ab.get("kind") not in ("instant", "trigger", "auto"):
            raise CardDataError("%s: ability.kind must be instant, trigger or auto" % where)
        out["ability"] = {"kind": ab["kind"], "name": str(ab.get("name") or "")}
    return out


def load_cards(path: Path) -> dict:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        raise CardDataError("%s: a top-level 'cards:' list is expected" % path)
    models = {}
    for i, c in enumerate(cards):
        m = _check_card(Path(path), i, c)
        if m["id"] in models:
            raise CardDataError("%s: duplicate card id %r" % (path, m["id"]))
        models[m["id"]] = m
    return models


def load_deck(path: Path, models: dict) -> dict:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    counts = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(counts, dict):
        raise CardDataError("%s: a 'cards:' mapping of card id to count is expected" % path)
    ids = []
    per_name = {}
    for cid, n in counts.items():
        if cid not in models:
            raise CardDataError("%s: unknown card id %r" % (path, cid))
        if not isinstance(n, int) or n < 1:
            raise CardDataError("%s: count of %r must be a positive integer" % (path, cid))
        name = models[cid]["name"]
        per_name[name] = per_name.get(name, 0) + n
        if per_name[name] > 3:
            raise CardDataError("%s: more than 3 copies of %r" % (path, name))
        ids.extend([cid] * n)
    if len(ids) != 50:
        raise CardDataError("%s: a deck holds 50 cards, this one %d" % (path, len(ids)))
    return {"name": str(data.get("name") or Path(path).stem), "cards": ids}


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
