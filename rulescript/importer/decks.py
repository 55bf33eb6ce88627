"""Reading a plugin's ``.o8d`` decks (OCTGN deck files) and checking them against the game's deck rules.

``<deck game="…"><section name="Main"><card qty="3" id="guid">Name</card>…</section></deck>``.  Ids
may carry braces and upper case; they are normalised.  A card is matched by id, then by name (as
OCTGN does).  A deck is checked against the CFC deck rules (docs/cfc-rules.md §2: 50 cards, at most 3 copies
of one card name): a deck that breaks them is still written, under ``decks/broken/`` where the
simulator does not draw it, with a located warning for each broken rule (plugins ship test decks).
A card entry that cannot be matched, or a section that loads into no pile, is dropped with an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.definition import normalise_guid
from rulescript.importer.xmlread import MAX_DIGITS, Node, read_root, whole_number

DECK_SIZE = 50
MAX_COPIES = 3


@dataclass(slots=True)
class Deck:
    path: str
    name: str
    counts: dict[str, int] = field(default_factory=dict)   # card id -> copies, in file order
    problems: list[str] = field(default_factory=list)      # broken deck rules (the deck goes to broken/)
    dropped: int = 0                                        # card entries or sections that were dropped
    diagnostics: list[Diagnostic] = field(default_factory=list)
    readable: bool = True

    @property
    def valid(self) -> bool:
        return self.readable and not self.problems


def find_decks(folder: Path) -> list[Path]:
    """Every ``.o8d`` below ``folder`` (deck folders included), in a stable order."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() == ".o8d"),
                  key=lambda p: p.relative_to(folder).as_posix().lower())


def read_deck(path: Path, name: str, cards: dict[str, dict[str, Any]], sections: list[str] | None,
              game_id: str | None, rejected: dict[str, str] | None = None) -> Deck:
    """Read one deck; ``cards``: the imported cards by id; ``sections``: the deck sections that
    definition.xml declares (None: any); ``rejected``: id -> name of the cards that were not imported."""
    deck = Deck(str(path), name)
    root = read_root(path, "deck", "RI230", deck.diagnostics)
    if root is None:
        deck.readable = False
        deck.dropped += 1
        return deck
    if game_id and root.get("game") and normalise_guid(root.get("game") or "") != game_id:
        deck.diagnostics.append(Diagnostic("warning", "RI233", f"the deck is for the game {root.get('game')}, not "
                                           f"this plugin's {game_id}", Span(deck.path, root.line, root.col)))
    by_name: dict[str, str] = {}
    for cid, c in cards.items():
        by_name.setdefault(str(c.get("name", "")).lower(), cid)
    declared = {s.lower() for s in sections} if sections else None
    first_of_name: dict[str, Node] = {}
    for section in root.findall("section"):
        sname = section.get("name") or ""
        entries = section.findall("card")
        if declared is not None and sname.lower() not in declared:
            if entries:
                deck.dropped += 1
                deck.diagnostics.append(Diagnostic(
                    "error", "RI231", f"section '{sname}' loads into no pile of the game (definition.xml declares "
                    f"{', '.join(sorted(sections or []))}); its {len(entries)} entries are dropped",
                    Span(deck.path, section.line, section.col)))
            continue
        for el in entries:
            _entry(deck, el, cards, by_name, first_of_name, rejected or {})
    _check_rules(deck, cards, root, first_of_name)
    return deck


def _entry(deck: Deck, el: Node, cards: dict[str, dict[str, Any]], by_name: dict[str, str],
           first_of_name: dict[str, Node], rejected: dict[str, str]) -> None:
    span = Span(deck.path, el.line, el.col)
    text = " ".join(el.itertext().split())
    raw_qty = (el.get("qty") or "1").strip()
    qty = whole_number(raw_qty)
    if qty is None or qty < 1:
        deck.dropped += 1
        shown = raw_qty if len(raw_qty) <= 24 else f"{raw_qty[:12]}...{raw_qty[-4:]} ({len(raw_qty):,} characters)"
        deck.diagnostics.append(Diagnostic("error", "RI234", f"qty={shown!r} of '{text or el.get('id')}' is not a "
                                           f"positive integer of at most {MAX_DIGITS} digits; the entry is dropped",
                                           span))
        return
    cid = normalise_guid(el.get("id") or "")
    if cid not in cards:
        alt = by_name.get(text.lower())
        copies = f"{raw_qty} cop{'y' if raw_qty == '1' else 'ies'} dropped"
        if alt is None and cid in rejected:
            deck.dropped += 1
            deck.diagnostics.append(Diagnostic(
                "error", "RI234", f"the card '{rejected[cid]}' was not imported (the game cannot use it, see its "
                f"set.xml); {copies}", span))
            return
        if alt is None:
            deck.dropped += 1
            deck.diagnostics.append(Diagnostic(
                "error", "RI234", f"no imported card has the id '{el.get('id')}' or the name '{text}'; "
                f"{copies}", span))
            return
        deck.diagnostics.append(Diagnostic("warning", "RI235", f"no card has the id '{el.get('id')}': matched by its "
                                           f"name '{text}' (as OCTGN does)", span))
        cid = alt
    deck.counts[cid] = deck.counts.get(cid, 0) + qty
    first_of_name.setdefault(str(cards[cid].get("name", "")).lower(), el)


def _check_rules(deck: Deck, cards: dict[str, dict[str, Any]], root: Node, first_of_name: dict[str, Node]) -> None:
    per_name: dict[str, int] = {}
    for cid, n in deck.counts.items():
        key = str(cards[cid].get("name", "")).lower()
        per_name[key] = per_name.get(key, 0) + n
    for key, n in per_name.items():
        if n > MAX_COPIES:
            el = first_of_name[key]
            label = next((str(c.get("name")) for c in cards.values() if str(c.get("name", "")).lower() == key), key)
            msg = f"{n} copies of '{label}' (at most {MAX_COPIES})"
            deck.problems.append(msg)
            deck.diagnostics.append(Diagnostic("warning", "RI232", f"the deck breaks the deck rules: {msg}",
                                               Span(deck.path, el.line, el.col)))
    total = sum(deck.counts.values())
    if total != DECK_SIZE:
        msg = f"{total} cards (a deck holds {DECK_SIZE})"
        deck.problems.append(msg)
        deck.diagnostics.append(Diagnostic("warning", "RI232", f"the deck breaks the deck rules: {msg}",
                                           Span(deck.path, root.line, root.col)))
    if deck.problems:
        deck.diagnostics.append(Diagnostic("note", "RI236", "a deck that breaks the deck rules (a test deck?) is "
                                           "written to decks/broken/, which the simulator does not draw from",
                                           Span(deck.path, root.line, root.col)))


def deck_slug(rel: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", rel.lower()).strip("-") or "deck"
    slug = base
    n = 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    taken.add(slug)
    return slug
