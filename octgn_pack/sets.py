"""``set.xml`` (one per set) and ``.o8d`` decks, with each element tied to the YAML entry behind it."""

from __future__ import annotations

from octgn_pack.project import CardSet, Deck, Project
from octgn_pack.xmlwrite import El, el


def set_xml(p: Project, cs: CardSet) -> El:
    root = el("set", ("name", cs.name), ("id", cs.guid), ("gameId", p.guid), ("version", p.version))
    cards = root.add("cards")
    for card in cs.cards:
        c = cards.add("card", ("id", card.guid), ("name", card.name), origin=card.span)
        for name, value in card.values:
            c.add("property", ("name", name), ("value", value), origin=card.span)
    return root


def deck_xml(p: Project, deck: Deck) -> El:
    root = el("deck", ("game", p.guid), origin=deck.span)
    for name, entries in deck.sections:
        sec = root.add("section", ("name", name), ("shared", False))
        for e in entries:
            sec.add("card", ("qty", e.qty), ("id", e.card.guid), origin=e.span).text = e.card.name
    return root


def deck_set(p: Project, deck: Deck) -> CardSet:
    """The set whose ``Decks/`` folder holds a deck: the set of its first card (else the first set)."""
    for _, entries in deck.sections:
        for e in entries:
            for cs in p.sets:
                if e.card in cs.cards:
                    return cs
    return p.sets[0]
