"""Checking a value against the type a parameter expects (guide, "Types").

Only certain mismatches are reported: a value counts as mistyped when every type it can have is known
before run time and none of them is accepted. Values whose type only run time knows (``@Selection``,
``@Target``, ``@Result1``, ``->Target``, ``->Value1`` …), backtick constants (the runtime reads a
constant as the expected type) and parameters that take any text are never reported.
"""

from __future__ import annotations

from .ast import Value

#: spellings of one type: the pseudo-types and type names that stand for the same kind of value
_CANON = {"dead": "player", "ghost": "player", "player_any": "player", "player_attr": "player",
          "player_group": "player", "player_optional": "player", "alignment": "team",
          "active_attribute": "attribute", "active_extra_role": "extra_role"}

#: expected type → the types a value may have to be accepted (types not listed take anything)
#: where players are expected, an element that stands for players is accepted (docs/werewolf.md): a team
#: (its players), a role (its holders), an attribute or extra role (its holder: @ThisAttr)
ACCEPTS: dict[str, frozenset[str]] = {
    "player": frozenset({"player", "team", "role", "attribute", "extra_role"}),
    "actor": frozenset({"player", "group", "team", "role", "attribute", "extra_role"}),
    "location": frozenset({"location", "group", "player", "attribute", "extra_role"}),
    "group": frozenset({"group"}),
    "role": frozenset({"role", "extra_role"}),
    "team": frozenset({"team"}),
    "attribute": frozenset({"attribute"}),
    "poll": frozenset({"poll"}),
    "number": frozenset({"number"}),
    "display": frozenset({"display"}),
}

#: the expected types that are checked at all (with their other spellings)
CHECKED = frozenset(ACCEPTS) | frozenset(k for k, v in _CANON.items() if v in ACCEPTS)

_PLAYER = frozenset({"player"})
#: basic ``@`` selectors that always name players (others are typed at run time, or below)
_PLAYER_SELECTORS = frozenset(
    "all others dead ghostly deadalive nobody members attacker attacked this visitor voters othervoters "
    "executor voter rolechanger chooser joiner".split())
_TYPED_SELECTORS: dict[str, frozenset[str]] = {
    "thisattr": frozenset({"attribute", "extra_role"}), "deathtype": frozenset({"killing_type"}),
    "killingtype": frozenset({"killing_type"}), "attacksource": frozenset({"source"}),
    "triggersource": frozenset({"source"}), "actionfeedback": frozenset({"info"}),
    "attacklocation": frozenset({"player", "group"}),
}
#: ``@Self`` by the kind of element it is written in (attributes and teams: only run time knows)
_SELF = {"role": _PLAYER, "ability set": _PLAYER, "group": frozenset({"group"}), "poll": frozenset({"poll"})}
#: properties whose value has one type whatever they are read from
_PROPERTIES: dict[str, frozenset[str]] = {
    **{p: frozenset({"role"}) for p in ("role", "originalrole", "mostfreqrole")},
    **{p: frozenset({"number"}) for p in ("counter", "publicvotingpower", "privatevotingpower", "count", "number")},
    **{p: _PLAYER for p in ("randomplayer", "players", "members")},
    "category": frozenset({"category"}), "class": frozenset({"class"}), "alignment": frozenset({"team"}),
    "team": frozenset({"team"}), "success": frozenset({"success"}),
}
_SIGILS = {"&": frozenset({"team"}), "^": frozenset({"role"}), "#": frozenset({"group", "location"})}
_KINDS = {"number": frozenset({"number"}), "division": frozenset({"number"}), "boolean": frozenset({"boolean"}),
          "success": frozenset({"success"})}


def canon(type_name: str) -> str:
    return _CANON.get(type_name, type_name)


def possible_types(v: Value, element_kind: str) -> frozenset[str] | None:
    """Every type ``v`` can have, or None when that is open until run time."""
    if v.annotation is not None:
        return frozenset({canon(v.annotation)})
    if v.kind in _KINDS:
        return _KINDS[v.kind]
    if v.kind == "variable" and v.type is not None:
        return frozenset({v.type})
    if v.kind == "host" and v.type is not None:
        return frozenset({v.type})
    if v.kind != "selector":
        return None
    if v.props:
        return _PROPERTIES.get(v.props[-1].split("(")[0].lower())
    if v.sigil == "#":
        return frozenset({"location"}) if v.type == "location" else _SIGILS["#"]
    if v.sigil != "@":
        return _SIGILS.get(v.sigil or "")
    name = (v.name or "").lower()
    if name in _PLAYER_SELECTORS or name.startswith("id:"):
        return _PLAYER
    if name == "self":
        return _SELF.get(element_kind)
    return _TYPED_SELECTORS.get(name)


_OPEN_KINDS = frozenset({"constant", "info", "list", "words"})


def mismatch(v: Value, expected: str | None, element_kind: str) -> frozenset[str] | None:
    """The types ``v`` can have when none of them is what ``expected`` accepts; else None."""
    if expected is None or (v.annotation is None and v.kind in _OPEN_KINDS):
        return None
    accepted = ACCEPTS.get(_CANON.get(expected, expected))
    if accepted is None:
        return None
    possible = possible_types(v, element_kind)
    if possible is None or possible & accepted:
        return None
    return possible
