"""Disagreements between what a card's printed text states and what its rules do.

Facts of one kind are compared only where the printed text states that kind at all, so a text that
leaves something out (costs, reminders, a flavour line) is not a disagreement by itself; what differs
where both speak is.  Numbers are compared by what they count; keywords one by one; sides, quantities
and triggers as sets.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulescript.explain.facts import Fact, describe


@dataclass(frozen=True, slots=True)
class Disagreement:
    kind: str  # number | keyword | side | quantity | trigger
    printed: str  # what the printed text states
    rules: str  # what the rules do
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "printed": self.printed, "rules": self.rules, "message": self.message}


def _of(facts: set[Fact], kind: str) -> set[Fact]:
    return {f for f in facts if f.kind == kind}


def _numbers(printed: set[Fact], rules: set[Fact], words: dict[str, str]) -> list[Disagreement]:
    out = []
    labels = sorted({f.label for f in _of(printed, "number") | _of(rules, "number")})
    for label in labels:
        p = {f.value for f in printed if f.kind == "number" and f.label == label}
        r = {f.value for f in rules if f.kind == "number" and f.label == label}
        what = words.get(label, label)
        if p and not r:
            out.append(Disagreement("number", f"{what} {', '.join(sorted(p))}", "none",
                                    f"the text states {what} ({', '.join(sorted(p))}) that the rules never change"))
        elif r and not p:
            if printed:  # a text that states nothing at all is a flavour text, not a wrong one
                out.append(Disagreement("number", "none", f"{what} {', '.join(sorted(r))}",
                                        f"the rules change {what} ({', '.join(sorted(r))}) and the text does not say so"))
        elif "?" not in p and "?" not in r and p != r and (p - r) and (r - p):
            out.append(Disagreement("number", f"{what} {', '.join(sorted(p))}", f"{what} {', '.join(sorted(r))}",
                                    f"{what}: the text says {', '.join(sorted(p))}, the rules say {', '.join(sorted(r))}"))
    return out


def _keywords(printed: set[Fact], rules: set[Fact], words: dict[str, str]) -> list[Disagreement]:
    out = []
    p = {f.label for f in _of(printed, "keyword")}
    r = {f.label for f in _of(rules, "keyword")}
    for k in sorted(p - r):
        out.append(Disagreement("keyword", words.get(k, k), "none", f"the text says '{words.get(k, k)}', the rules do not"))
    if printed:
        for k in sorted(r - p):
            out.append(Disagreement("keyword", "none", words.get(k, k), f"the rules give '{words.get(k, k)}', the text does not say so"))
    return out


def _sets(kind: str, printed: set[Fact], rules: set[Fact], what: str) -> list[Disagreement]:
    p, r = _of(printed, kind), _of(rules, kind)
    if not p or not r:
        return []
    pl, rl = {f.label for f in p}, {f.label for f in r}
    if kind == "quantity":
        if ("all" in pl) != ("all" in rl):
            return [Disagreement(kind, describe(p, kind), describe(r, kind),
                                 f"{what}: the text says {describe(p, kind)}, the rules {describe(r, kind)}")]
        pm = {f.value for f in p if f.value}
        rm = {f.value for f in r if f.value}
        if pm and rm and pm.isdisjoint(rm):
            return [Disagreement(kind, describe(p, kind), describe(r, kind),
                                 f"{what}: the text says {describe(p, kind)}, the rules {describe(r, kind)}")]
        return []
    if pl.isdisjoint(rl):
        return [Disagreement(kind, describe(p, kind), describe(r, kind),
                             f"{what}: the text says {describe(p, kind)}, the rules {describe(r, kind)}")]
    return []


def disagreements(printed: set[Fact], rules: set[Fact], words: dict[str, str] | None = None) -> list[Disagreement]:
    """What the printed text and the rules disagree on (empty when they agree or the text is silent)."""
    words = words or {}
    return (_numbers(printed, rules, words) + _keywords(printed, rules, words)
            + _sets("side", printed, rules, "whose cards") + _sets("quantity", printed, rules, "how many")
            + _sets("trigger", printed, rules, "when"))
