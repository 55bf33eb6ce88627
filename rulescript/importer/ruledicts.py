"""Which dictionaries of a plugin's scripts hold its card rules, and which set is its interface.

A plugin's scripts hold more dictionaries of strings than the rules: chat messages, colours,
settings.  Read alone, a file cannot tell them apart (``RULE_MESSAGES`` says "rule" too).  A whole
plugin can: the card rules are the dictionary

* whose keys are the GUIDs of the cards of the plugin's sets (most of its literal keys), or
* that a script looks cards up in: ``CardsRS.get(card.model)``, ``CardsRS[card.model]``,
  ``card.model in CardsRS`` (OCTGN's ``card.model`` is the card's GUID).

When at least one dictionary shows either sign, only those are read (:func:`choose_rule_dicts`), and
the report says which (``RI109``) and which other candidate was left alone (``RI110``).  When none
does, every candidate is read as before (a dict named ``...rule...`` or keyed by GUIDs).

A set marked ``hidden="true"`` whose cards have no card type of the game (Button, Status, Avatar...)
is the plugin's own interface (:func:`interface_note`): it is reported once (``RI209``), with what
the package shows instead, and its cards are not game cards lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.definition import normalise_guid
from rulescript.importer.pysource import decode_source, read_rules_py
from rulescript.importer.setxml import CARD_TYPES, SetData


@dataclass(slots=True)
class _Candidate:
    path: Path
    name: str
    span: Span            # the dictionary's first entry
    keys: int             # literal keys
    card_keys: int        # keys that are GUIDs of the plugin's cards
    lookup: str | None    # "Scripts/engine.py:8: CardsRS.get(card.model, '')": where a script reads it by card

    @property
    def holds_rules(self) -> bool:
        return self.lookup is not None or (self.keys > 0 and self.card_keys * 2 >= self.keys)


def _card_lookup(name: str, texts: dict[Path, str], root: Path) -> str | None:
    """Where a script looks a card up in the dictionary ``name`` (by its model, i.e. its GUID)."""
    n = re.escape(name)
    by_card = r"\b(?i:model|guid)\b"
    pattern = re.compile(rf"(?<![\w.]){n}\s*(?:\[|\.get\s*\(|\.has_key\s*\()[^\]\)\n#]*?{by_card}"
                         rf"|\.(?i:model|guid)\s+(?:not\s+)?in\s+{n}\b")
    for path, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            if pattern.search(line):
                return f"{_rel(path, root)}:{number}: {line.strip()}"
    return None


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def choose_rule_dicts(scripts: list[Path], root: Path, card_ids: set[str]
                      ) -> tuple[dict[Path, frozenset[str]] | None, list[Diagnostic]]:
    """The rules dicts of each script (None: no dictionary shows a sign, decide per file as before),
    and the notes saying what was read and what was not."""
    texts = {p: decode_source(p.read_bytes()) for p in scripts}
    candidates: list[_Candidate] = []
    for path in scripts:
        py = read_rules_py(path)
        for name in py.dict_names:
            entries = [e for e in py.entries if e.dict_name == name]
            if not entries:
                continue
            keys = [e.key for e in entries if e.key]
            card_keys = sum(1 for k in keys if normalise_guid(k) in card_ids)
            candidates.append(_Candidate(path, name, entries[0].span, len(keys), card_keys,
                                         _card_lookup(name, texts, root)))
    chosen = [c for c in candidates if c.holds_rules]
    if not chosen:
        return None, []
    notes: list[Diagnostic] = []
    out: dict[Path, frozenset[str]] = {}
    for c in chosen:
        out[c.path] = out.get(c.path, frozenset()) | {c.name}
        why = []
        if c.card_keys:
            why.append(f"{c.card_keys} of its {c.keys} keys are GUIDs of the plugin's cards")
        if c.lookup:
            why.append(f"the scripts read card rules from it ({c.lookup})")
        notes.append(Diagnostic("note", "RI109", f"the card rules are read from the dictionary '{c.name}'",
                                c.span, tuple(why)))
    for c in candidates:
        if not c.holds_rules:
            notes.append(Diagnostic(
                "note", "RI110", f"the dictionary '{c.name}' is not read as card rules: none of its keys is a "
                "card GUID of the plugin's sets and no script looks a card up in it",
                c.span, (f"the card rules are in {', '.join(repr(x.name) for x in chosen)}",)))
    return out, notes


# what the package shows instead of the cards of an interface set, by card type
_SHOWN_INSTEAD = (
    (("button",), "the OCTGN host's card and table menus (one item per move the engine offers) and the turn "
                  "button"),
    (("status", "marker", "token", "counter"), "the engine's markers on the cards (CFC: Frozen, Used, Fresh, "
                                               "BP ±100, Attacking, Blocking) and the HP and SP counters"),
    (("avatar", "portrait", "player"), "OCTGN's own player list (the package has no avatars)"),
)


def _card_type(card: dict) -> str:
    return str(card.get("type") or "?")


def is_interface_set(data: SetData) -> bool:
    """A hidden set none of whose cards has a card type of the game."""
    cards = data.cards + [c for c, _ in data.rejected]
    return data.hidden and bool(cards) and not any(_card_type(c).lower() in CARD_TYPES for c in cards)


def interface_note(data: SetData) -> Diagnostic:
    """The one note for an interface set: what it held, what the package shows instead."""
    cards = data.cards + [c for c, _ in data.rejected]
    by_type: dict[str, list[str]] = {}
    for c in cards:
        by_type.setdefault(_card_type(c).capitalize(), []).append(c.get("name") or "?")
    held = ", ".join(f"{len(names)} {t} ({', '.join(names)})" for t, names in by_type.items())
    faces = sum(1 for d in data.diagnostics if d.code == "RI221")
    if faces:
        held += f", {faces} alternate face{'s' if faces != 1 else ''}"
    instead: list[str] = []
    for t in by_type:
        shown = next((text for words, text in _SHOWN_INSTEAD if any(w in t.lower() for w in words)),
                     "nothing: the package has no such cards")
        instead.append(f"instead of the {t} cards: {shown}")
    name = data.set_name or Path(data.path).parent.name
    return Diagnostic("note", "RI209", f"the hidden set '{name}' is the plugin's interface, not game cards "
                      f"({held}); it is not imported", Span(data.path, *data.root_pos), tuple(instead))
