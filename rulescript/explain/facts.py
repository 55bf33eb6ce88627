"""Facts a card states: what numbers it changes, which keywords it has, whose cards it affects, how
many, and when.  Facts come from two places: the compiled rules (:mod:`rulescript.explain.generate`)
and the printed text (:func:`printed_facts`, with the patterns of the profile's ``card_text.printed``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# the kinds of fact, in report order
KINDS = ("number", "keyword", "side", "quantity", "trigger")


@dataclass(frozen=True, slots=True, order=True)
class Fact:
    kind: str  # number | keyword | side | quantity | trigger
    label: str  # what it counts (damage, bp...), the keyword, the side, the quantity mode, the event
    value: str = ""  # a number's canonical value ("300", "+100", "x2", "=100"; "?" when not a literal)


def number(label: str, value: Any) -> Fact:
    return Fact("number", label, str(value))


def _as_int(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.lower()
    if text in WORD_NUMBERS:
        return WORD_NUMBERS[text]
    try:
        return int(text)
    except ValueError:
        return None


Table = list[tuple[str, tuple["re.Pattern[str]", ...]]]


def _joined(spec: Any) -> Table:
    """One pattern per label, the label's patterns joined (for patterns without named groups)."""
    out = []
    for label, pats in (spec or {}).items():
        pats = (pats,) if isinstance(pats, str) else tuple(pats or ())
        out.append((str(label), (re.compile("|".join(f"(?:{p})" for p in pats), re.IGNORECASE),) if pats else ()))
    return out


def _table(spec: Any) -> Table:
    out = []
    for label, pats in (spec or {}).items():
        pats = (pats,) if isinstance(pats, str) else tuple(pats or ())
        out.append((str(label), tuple(re.compile(str(p), re.IGNORECASE) for p in pats)))
    return out


@dataclass(frozen=True, slots=True)
class PrintedPatterns:
    """A profile's ``card_text.printed`` patterns, compiled once."""
    costs: tuple["re.Pattern[str]", ...]
    numbers: Table
    keywords: Table
    sides: Table
    quantities: Table
    triggers: Table

    @classmethod
    def of(cls, spec: dict[str, Any] | None) -> "PrintedPatterns":
        spec = spec or {}
        return cls(tuple(re.compile(str(p), re.IGNORECASE) for p in spec.get("costs") or ()),
                   _table(spec.get("numbers")), _joined(spec.get("keywords")), _joined(spec.get("sides")),
                   _table(spec.get("quantities")), _joined(spec.get("triggers")))


def strip_costs(text: str, printed: PrintedPatterns) -> str:
    """The printed text without the costs it states before a colon ("Freeze X and discard a card: ...")."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        for p in printed.costs:
            sentence = p.sub(lambda m: m.groupdict().get("keep") or "", sentence, count=1)
        out.append(sentence)
    return " ".join(out)


def _number_value(label: str, m: re.Match[str]) -> str:
    """The canonical value of a matched number: "+100"/"-300" for a change of a stat with a sign, "x2" a
    doubling, "=100" a value set, else the number itself ("1" when the pattern names no number)."""
    g = m.groupdict()
    if g.get("mul"):
        return "x2"
    if g.get("zero"):
        return "0"
    if g.get("any"):
        return "?"
    if g.get("set"):
        return "=" + str(int(g["set"]))
    if g.get("n2"):
        return ("+" if label == "bp" else "") + str(_as_int(g["n2"]))
    raw = g.get("n") or g.get("w")
    if raw is None:
        return "1"
    n = _as_int(raw.lstrip("+-"))
    if n is None:
        return "?"
    return ("-" if raw.startswith("-") else "+") + str(n) if raw[:1] in "+-" and label == "bp" else str(n)


def printed_facts(text: str, printed: PrintedPatterns) -> set[Fact]:
    """The facts a printed card text states, read with the profile's patterns."""
    facts: set[Fact] = set()
    if not text:
        return facts
    body = strip_costs(text, printed)
    taken: list[tuple[int, int]] = []  # spans already read as a number, so two patterns do not count one phrase
    for label, pats in printed.numbers:
        for p in pats:
            for m in p.finditer(body):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue
                taken.append((m.start(), m.end()))
                facts.add(number(label, _number_value(label, m)))
    for label, pats in printed.keywords:
        if any(p.search(body) for p in pats):
            facts.add(Fact("keyword", label))
    for label, pats in printed.sides:
        if any(p.search(body) for p in pats):
            facts.add(Fact("side", label))
    for label, pats in printed.quantities:
        for p in pats:
            for m in p.finditer(body):
                g = m.groupdict()
                most = max((n for n in (_as_int(g.get("w")), _as_int(g.get("w2"))) if n is not None), default=None)
                facts.add(Fact("quantity", label, "" if most is None else str(most)))
    for label, pats in printed.triggers:
        if any(p.search(text) for p in pats):  # triggers are read in the whole text
            facts.add(Fact("trigger", label))
    return facts


def describe(facts: Iterable[Fact], kind: str, label: str | None = None) -> str:
    """A short human form of the facts of one kind (and label)."""
    chosen = sorted(f for f in facts if f.kind == kind and (label is None or f.label == label))
    if kind == "number":
        return ", ".join(f.value for f in chosen) or "none"
    if kind == "quantity":
        return ", ".join(f.label + (f" {f.value}" if f.value else "") for f in chosen) or "none"
    return ", ".join(f.label for f in chosen) or "none"
