"""Explaining a whole game: per card with rules, its printed text, the text generated from its rules,
and the disagreements, each a warning located at the card's rule (``rulescript explain``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from rulescript.compiler.profile import Profile
from rulescript.diagnostics import Diagnostic, Span
from rulescript.explain.compare import Disagreement, disagreements
from rulescript.explain.facts import Fact, PrintedPatterns, printed_facts
from rulescript.explain.generate import Generator, RuleText

CODE = "RX101"


@dataclass(slots=True)
class CardExplanation:
    id: str
    name: str
    printed: str
    rules: list[RuleText]
    disagreements: list[Disagreement] = field(default_factory=list)
    file: str = ""

    @property
    def generated(self) -> str:
        return " ".join(r.text for r in self.rules if r.text)

    @property
    def src(self) -> tuple[str, int, int]:
        file, line, col = self.rules[0].src
        return (self.file or file, line, col)

    def diagnostics(self) -> list[Diagnostic]:
        file, line, col = self.src
        notes = (f"printed:   {self.printed}", f"generated: {self.generated}")
        return [Diagnostic("warning", CODE, f"{self.name} ({self.id}): {d.message}",
                           Span(file, line, col, line, col + len(self.rules[0].rule_id)), notes)
                for d in self.disagreements]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "printed": self.printed, "generated": self.generated,
                "disagreements": [d.to_dict() for d in self.disagreements]}


def card_rule_ids(card: dict[str, Any], rules: dict[str, Any]) -> list[str]:
    """The rule sections of a card: its ``rules:`` list (werewolf elements), else the section of its id."""
    listed = card.get("rules")
    if isinstance(listed, list):
        return [str(r) for r in listed if str(r) in rules]
    return [card["id"]] if card.get("id") in rules else []


def fact_words(profile: Profile) -> dict[str, str]:
    return {str(k): str(v) for k, v in ((profile.raw.get("card_text") or {}).get("fact_words") or {}).items()}


def explain_card(card: dict[str, Any], rules: dict[str, Any], gen: Generator, printed_spec: PrintedPatterns,
                 words: dict[str, str], root: Path | None = None) -> CardExplanation | None:
    ids = card_rule_ids(card, rules)
    if not ids:
        return None
    texts = [gen.rule(rules[rid], card) for rid in ids]
    printed = str(card.get("text") or "")
    facts: set[Fact] = set()
    for t in texts:
        facts |= t.facts
    found = disagreements(printed_facts(printed, printed_spec), facts, words)
    file = str(root / texts[0].src[0]) if root is not None and texts[0].src[0] else texts[0].src[0]
    return CardExplanation(str(card["id"]), str(card.get("name", card["id"])), printed, texts, found, file)


def explain_cards(cards: Iterable[dict[str, Any]], rules: dict[str, Any], profile: Profile,
                  root: Path | None = None) -> list[CardExplanation]:
    """Every card of ``cards`` that has rules, explained."""
    cards = list(cards)
    gen = Generator(profile, {str(c.get("id")): c for c in cards})
    spec = PrintedPatterns.of((profile.raw.get("card_text") or {}).get("printed"))
    words = fact_words(profile)
    out = []
    for card in cards:
        if not isinstance(card, dict) or "id" not in card:
            continue
        found = explain_card(card, rules, gen, spec, words, root)
        if found is not None:
            out.append(found)
    return out


def generated_text(card: dict[str, Any], rules: dict[str, Any], profile: Profile) -> str:
    """The text generated from one card's rules ('' when it has none): what a table or a package shows
    for a card without printed text."""
    ids = card_rule_ids(card, rules)
    if not ids:
        return ""
    gen = Generator(profile, {str(card.get("id")): card})
    return " ".join(t for t in (gen.rule(rules[rid], card).text for rid in ids) if t)
