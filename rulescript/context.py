"""What every checking pass of the compiler shares: profile, card database, diagnostics, source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from rulescript.diagnostics import DiagnosticBag, Span, did_you_mean
from rulescript.ini import Value
from rulescript.lexer import LexError
from rulescript.profile import Profile


@dataclass(slots=True)
class CardDatabase:
    """Card ids, names, types and subtypes known to the compiler (from a game's cards.yaml)."""

    cards: dict[str, dict[str, object]] = field(default_factory=dict)  # id (lower case) -> data
    subtypes: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # lower case
    word_types: dict[str, tuple[object, object]] = field(default_factory=dict)  # memo of type-word lookups

    @classmethod
    def from_cards(cls, cards: Iterable[dict[str, object]]) -> "CardDatabase":
        db = cls()
        for card in cards:
            cid = str(card.get("id", "")).lower()
            if not cid:
                continue
            db.cards[cid] = card
            if card.get("subtype"):
                db.subtypes.add(str(card["subtype"]).lower())
            if card.get("name"):
                db.names.add(str(card["name"]).lower())
        return db

    @property
    def empty(self) -> bool:
        return not self.cards


class Abort(Exception):
    """Stops checking the current property after an error was reported."""


@dataclass(slots=True)
class Ctx:
    profile: Profile
    cards: CardDatabase
    bag: DiagnosticBag
    value: Value
    key: str = ""
    # statement-level facts used by later checks
    user_vars: dict[str, int] = field(default_factory=dict)
    in_auto: bool = False
    events: tuple[str, ...] = ()
    used: dict[str, set[str]] | None = None

    def span(self, start: int, end: int | None = None) -> Span:
        return self.value.span(start, end)

    def at(self, start: int, end: int) -> list[int]:
        """``[line, col, end_col]`` of a range of the current value (the IR's compact position)."""
        value = self.value
        pieces = value.pieces
        if len(pieces) == 1:  # one physical line: plain arithmetic
            _, line, col = pieces[0]
            return [line, col + start, col + end] if end > start else [line, col + start, col + start + 1]
        line, col = value.position(start)
        if end > start:
            eline, ecol = value.position(end - 1)
            if eline == line:
                return [line, col, ecol + 1]
        return [line, col, col + 1]

    def error(self, code: str, message: str, start: int, end: int | None = None,
              notes: Iterable[str] = ()) -> None:
        self.bag.error(code, message, self.span(start, end), tuple(notes))

    def fail(self, code: str, message: str, start: int, end: int | None = None,
             notes: Iterable[str] = ()) -> "Abort":
        self.error(code, message, start, end, notes)
        return Abort()

    def warn(self, code: str, message: str, start: int, end: int | None = None,
             notes: Iterable[str] = ()) -> None:
        self.bag.warning(code, message, self.span(start, end), tuple(notes))

    def unknown(self, code: str, category: str, name: str, known: Iterable[str], start: int,
                end: int) -> "Abort":
        return self.fail(code, f"unknown {category} '{name}'", start, end, did_you_mean(name, known))

    def lex_error(self, exc: LexError) -> "Abort":
        notes = (f"expected one of: {', '.join(exc.expected)}",) if exc.expected else ()
        return self.fail(exc.code, exc.message, exc.start, exc.end, notes)

    def mark(self, category: str, name: str) -> None:
        """Record that a profile entry is used (for coverage reports)."""
        used = self.used
        if used is not None:
            names = used.get(category)
            if names is None:
                used[category] = {name}
            else:
                names.add(name)
