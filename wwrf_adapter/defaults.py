"""Defaults the files may leave out (spec §4): durations, ``@Self`` actors, membership, amounts.

Filled values are recorded in ``Ability.implicit`` (argument names, ``duration``, ``membership``) so
that the printer leaves them out and a reader can tell them from written ones.
"""

from __future__ import annotations

from typing import TypeVar

from .ast import Ability, Value

_T = TypeVar("_T")

#: (type, subtype or None for any) → default duration
DURATIONS: dict[tuple[str, str | None], str] = {
    ("disguising", None): "Permanent", ("protecting", None): "Permanent",
    ("applying", "add"): "Permanent", ("joining", "add"): "Persistent",
    ("obstructing", None): "Permanent", ("redirecting", None): "Permanent",
    ("poll", "addition"): "UntilUse", ("poll", "cancellation"): "UntilUse",
    ("poll", "silent cancellation"): "UntilUse", ("poll", "deletion"): "UntilUse",
    ("poll", "manipulation"): "NextPhase",
}
#: (type, subtype or None) → {argument: default selector text}
ACTORS: dict[tuple[str, str | None], dict[str, str]] = {
    ("protecting", None): {"by": "@All"}, ("redirecting", None): {"from": "@All"},
    ("counting", None): {"target": "@Self"}, ("applying", "change"): {"target": "@Self"},
    ("disband", None): {"group": "@Self"}, ("reset", None): {"target": "@Self"},
    ("emit", None): {"target": "@Self"}, ("joining", "add"): {"target": "@Self"},
}


def _lookup(table: dict[tuple[str, str | None], _T], ab: Ability) -> _T | None:
    return table.get((ab.type, ab.subtype), table.get((ab.type, None)))


def fill_defaults(ab: Ability) -> None:
    """Fill the defaults of one ability in place (idempotent)."""
    if ab.duration is None:
        dur = _lookup(DURATIONS, ab)
        if dur is not None:
            ab.duration = dur
            ab.implicit.append("duration")
    actors = _lookup(ACTORS, ab) or {}
    for name, text in actors.items():
        if ab.type == "joining" and name == "target" and "group" not in ab.args:
            continue  # `Add @P to #G`: the target is the group, written
        if name not in ab.args:
            ab.args[name] = Value("selector", text, sigil="@", name=text[1:], type="player")
            ab.implicit.append(name)
    if ab.type == "joining" and ab.subtype == "add" and "membership" not in ab.args:
        ab.args["membership"] = Value("constant", "Member", type="string")
        ab.implicit.append("membership")
    if ab.type == "counting" and ab.subtype in ("increment", "decrement") and "amount" not in ab.args:
        ab.args["amount"] = Value("number", "1", type="number")
        ab.implicit.append("amount")
