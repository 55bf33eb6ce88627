"""Typed AST of WWRF elements.

Every node is a dataclass. Source spans (``rulescript.diagnostics.Span``) are kept on the nodes that
come from a line but are excluded from equality (``compare=False``), so two ASTs compare equal when
they mean the same thing, whatever their layout. ``docs/wwrf-ast.md`` documents the JSON form that
:mod:`wwrf_adapter.jsonout` produces from these nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from rulescript.diagnostics import Span


def _span() -> Span | None:
    return field(default=None, compare=False, repr=False)  # type: ignore[return-value]


# ------------------------------------------------------------------ values


@dataclass
class Filter:
    """One ``Key:Value`` item of an advanced selector ``@(…)``/``&(…)``/``^(…)``."""

    key: str
    value: str
    negated: bool = False


@dataclass
class Value:
    """A value: selector, constant, info string, list, number, boolean, variable, host info, …

    ``kind`` is one of ``selector``, ``constant``, ``info``, ``list``, ``number``, ``boolean``,
    ``variable``, ``host``, ``division``, ``words``, ``success``. ``type`` is the WWRF type after
    inference (``player``, ``role``, ``attribute``, ``team``, ``group``, ``location``, ``poll``,
    ``number``, ``info``, ``string`` …) or None when it cannot be known before run time.
    """

    kind: str
    text: str
    type: str | None = None
    annotation: str | None = None
    sigil: str | None = None
    name: str | None = None
    filters: list[Filter] = field(default_factory=list)
    props: list[str] = field(default_factory=list)
    items: list["Value"] = field(default_factory=list)
    rounding: str | None = None
    span: Span | None = _span()


# ------------------------------------------------------------------ conditions


@dataclass
class Condition:
    """``op`` ∈ is, is not, >, <, exists, has, lacks, in, part of, not, and, or, and-or, or-and, mixed."""

    op: str
    left: Value | None = None
    right: Value | None = None
    operands: list["Condition"] = field(default_factory=list)
    connectives: list[str] = field(default_factory=list)
    span: Span | None = _span()


# ------------------------------------------------------------------ triggers and parameters


@dataclass
class Trigger:
    """``name`` is the canonical trigger name (``Immediate Night``, ``On Death``, ``On Visited`` …)."""

    name: str
    selector: Value | None = None
    value: Value | None = None
    filter: str | None = None
    filter_negated: bool = False
    prompting: bool = False
    span: Span | None = _span()


@dataclass
class Restriction:
    """``kind`` ∈ temporal, attribute, succession, quantity, condition, status."""

    kind: str
    phase: str | None = None
    number: int | None = None
    onward: bool = False
    actor: Value | None = None
    has: bool = True
    attribute: Value | None = None
    target: bool = False
    count: Value | None = None
    condition: Condition | None = None
    status: str | None = None
    span: Span | None = _span()


@dataclass
class ScalingItem:
    """``kind`` ∈ static, odd, even, ratio, compare, value. ``compare`` is ``left comparator right ⇒
    x count``, where both sides are number values (``$living``, ``@ThisAttr->Counter``, ``8`` …)."""

    kind: str
    count: int | None = None
    variable: str | None = None
    divisor: int | None = None
    comparator: str | None = None
    left: Value | None = None
    right: Value | None = None
    value: Value | None = None
    span: Span | None = _span()


@dataclass
class OtherParam:
    """``name`` ∈ Forced, Direct, Visitless, Vanishing, Repeating; ``value`` for ``Forced: v``."""

    name: str
    value: Value | None = None
    span: Span | None = _span()


@dataclass
class Prompt:
    name: str
    silent: bool = False
    span: Span | None = _span()


@dataclass
class Params:
    restrictions: list[Restriction] = field(default_factory=list)
    scaling: list[ScalingItem] = field(default_factory=list)
    other: list[OtherParam] = field(default_factory=list)
    prompt: Prompt | None = None

    def is_empty(self) -> bool:
        return not (self.restrictions or self.scaling or self.other or self.prompt)


# ------------------------------------------------------------------ abilities and statements


@dataclass
class Ability:
    """One ability. ``type`` is the ability type (``killing``, ``investigating`` …), ``subtype`` the
    subtype (``attack``, ``role`` …). ``args`` maps argument names to values; ``words`` holds fixed
    word choices (defense kind, phase, manipulated property …); ``options`` the raw items of a
    verb-dependent list (choice options, attribute values, display values, disguise levels)."""

    type: str
    subtype: str | None = None
    args: dict[str, Value] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)
    duration: str | None = None
    condition: Condition | None = None
    text: str = ""
    implicit: list[str] = field(default_factory=list)
    span: Span | None = _span()


@dataclass
class Process:
    """Abilities run silently; their results become ``@Result1``…``@Result7``. Besides abilities the
    block may hold ``For Each`` loops (``For Each S: C: A`` runs ``A`` for the elements meeting ``C``)."""

    abilities: list[Union[Ability, "ForEach"]] = field(default_factory=list)
    span: Span | None = _span()


@dataclass
class Branch:
    """An Evaluate line. ``kind`` ∈ condition, always, otherwise."""

    kind: str
    condition: Condition | None = None
    body: list["Statement"] = field(default_factory=list)
    continues: bool = False
    span: Span | None = _span()


@dataclass
class Evaluate:
    branches: list[Branch] = field(default_factory=list)
    span: Span | None = _span()


@dataclass
class ForEach:
    selector: Value
    body: list["Statement"] = field(default_factory=list)
    span: Span | None = _span()


Statement = Union[Ability, Process, Evaluate, ForEach]


@dataclass
class TriggerBlock:
    trigger: Trigger
    params: Params = field(default_factory=Params)
    body: list[Statement] = field(default_factory=list)
    span: Span | None = _span()


@dataclass
class Meta:
    """``kind`` ∈ unique, ghostly, haunted, no abilities, require, role attribute, include, identity.
    ``scope`` is Role/Group/Attribute for the flags."""

    kind: str
    scope: str | None = None
    value: Value | None = None
    span: Span | None = _span()


@dataclass
class Inherit:
    """``Inherit: `Set` `` with the set's items spliced in (empty if the set is unknown)."""

    set_name: str
    items: list["Item"] = field(default_factory=list)
    span: Span | None = _span()


@dataclass
class KeyLine:
    """``Win Condition``, poll keys (``Available Options`` …) and location keys (``Sort Index`` …)."""

    key: str
    values: list[Value] = field(default_factory=list)
    text: str = ""
    span: Span | None = _span()


Item = Union[Meta, Inherit, KeyLine, TriggerBlock]


# ------------------------------------------------------------------ elements


@dataclass
class Header:
    name: str
    parts: list[str] = field(default_factory=list)
    role_class: str | None = None
    category: str | None = None
    team: str | None = None
    role_type: str | None = None
    span: Span | None = _span()


@dataclass
class Section:
    """A ``__Title__`` section; ``text`` is the raw body of non-formalized sections."""

    title: str
    text: str = ""
    formalized: bool = False


@dataclass
class Element:
    """One file: a role, team, group, poll, attribute, ability set, location or display."""

    kind: str
    name: str
    file: str
    header: Header
    sections: list[Section] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    template: list[str] = field(default_factory=list)
    unfinished: bool = False
