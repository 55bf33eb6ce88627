"""What every checking pass of the compiler shares: profile, card database, diagnostics, source."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from rulescript.diagnostics import DiagnosticBag, Span, did_you_mean
from rulescript.compiler.ini import Value
from rulescript.compiler.lexer import LexError
from rulescript.compiler.profile import Profile


@dataclass(slots=True)
class CardDatabase:
    """Card ids, names, types and subtypes known to the compiler (from a game's cards.yaml)."""

    cards: dict[str, dict[str, object]] = field(default_factory=dict)  # id (lower case) -> data
    subtypes: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # lower case
    # memo of the meanings of type words, per profile: id(profile) -> (profile, word -> meaning)
    word_types: dict[int, tuple[object, dict[str, Any]]] = field(default_factory=dict)

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

    def word_memo(self, profile: Profile) -> dict[str, Any]:
        """The memo of type-word meanings under ``profile`` (fixed for one card database and profile)."""
        entry = self.word_types.get(id(profile))
        if entry is None or entry[0] is not profile:
            entry = self.word_types[id(profile)] = (profile, {})
        return entry[1]


class Abort(Exception):
    """Stops checking the current property after an error was reported."""


_END = float("inf")  # the sentinel that closes Ctx.bounds


@dataclass(slots=True)
class Ctx:
    profile: Profile
    cards: CardDatabase
    bag: DiagnosticBag
    value: Value
    # statement-level facts used by later checks
    user_vars: dict[str, int] = field(default_factory=dict)
    events: tuple[str, ...] = ()
    # coverage: category -> profile entries used (a category appears once something in it is marked)
    used: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # When the current value lies on one physical line (the common case), its line and the column of its
    # offset 0: at() is then plain arithmetic.  line == 0 means the value spans several lines (pieces);
    # ``bounds`` then holds the offset where each piece after the first starts, and a sentinel past the
    # end (so piece i ends before bounds[i]), and ``index`` the (line, column - offset) of each piece.
    line: int = 0
    col: int = 0
    bounds: list[float] = field(default_factory=list)
    index: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.enter(self.value)

    def enter(self, value: Value) -> None:
        """Make ``value`` the current value: the one that offsets, spans and positions refer to."""
        self.value = value
        pieces = value.pieces
        if len(pieces) == 1:
            _, self.line, self.col = pieces[0]
        else:
            self.line = 0
            bounds = [offset for offset, _, _ in pieces[1:]]
            bounds.append(_END)
            self.bounds = bounds
            self.index = [(line, col - offset) for offset, line, col in pieces]

    def span(self, start: int, end: int | None = None) -> Span:
        return self.value.span(start, end)

    def at(self, start: int, end: int) -> list[int]:
        """``[line, col, end_col]`` of a range of the current value (the IR's compact position)."""
        line = self.line
        if line:
            col = self.col
            return [line, col + start, col + end if end > start else col + start + 1]
        # several physical lines: the range starts on the last piece that begins at or before it (the
        # first piece when none does)
        bounds = self.bounds
        i = bisect_right(bounds, start)
        line, delta = self.index[i]
        if start < end <= bounds[i]:  # it ends on the same piece (the common case)
            return [line, start + delta, end + delta]
        col = start + delta
        if end <= start:
            return [line, col, col + 1]
        eline, ecol = self.value.position(end - 1)
        return [line, col, ecol + 1 if eline == line else col + 1]

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
        self.used[category].add(name)
