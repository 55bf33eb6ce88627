"""The typed syntax tree of RuleScript values.

Every node records ``start``/``end``: character offsets into the text of the property value it came
from (continuation lines joined), which :meth:`rulescript.compiler.ini.Value.span` maps back to a file, line
and column.  Text that must be read in another lexical mode (command arguments, target clauses,
conditions) is kept as :class:`Raw` until the compiler knows the command signature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(slots=True)
class Raw:
    text: str
    start: int
    end: int


# ---- expressions -------------------------------------------------------------------------------

@dataclass(slots=True)
class Name:
    name: str
    start: int
    end: int


@dataclass(slots=True)
class Literal:
    value: object  # int, str, bool or None
    start: int
    end: int


@dataclass(slots=True)
class ListLit:
    items: list["Expr"]
    start: int
    end: int


@dataclass(slots=True)
class Attr:
    obj: "Expr"
    name: str
    start: int
    end: int


@dataclass(slots=True)
class Index:
    obj: "Expr"
    index: int
    start: int
    end: int


@dataclass(slots=True)
class Call:
    func: str
    args: list["Expr"]
    start: int
    end: int
    func_end: int


@dataclass(slots=True)
class BinOp:
    op: str
    left: "Expr"
    right: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Unary:
    op: str
    operand: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Compare:
    operands: list["Expr"]
    ops: list[str]
    start: int
    end: int


@dataclass(slots=True)
class BoolOp:
    op: str  # "and" / "or"
    left: "Expr"
    right: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Not:
    operand: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Conditional:
    test: "Expr"
    then: "Expr"
    orelse: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Quantifier:
    kind: str  # "all" / "any"
    element: "Expr"
    seq: "Expr"
    start: int
    end: int


@dataclass(slots=True)
class Power:
    left: "Expr"
    right: "Expr"
    start: int
    end: int


Expr = Union[Name, Literal, ListLit, Attr, Index, Call, BinOp, Unary, Compare, BoolOp, Not, Conditional,
             Quantifier, Power]


# ---- filters -----------------------------------------------------------------------------------

@dataclass(slots=True)
class Angle:
    text: str  # inside the brackets
    start: int
    end: int


@dataclass(slots=True)
class TypeTerm:
    base: str  # '*', '*s', a keyword/word, or a quoted name
    quoted: bool
    plural_suffix: bool  # '*s' or '"Name"s'
    exclude_self: bool
    negate: bool
    start: int
    end: int


@dataclass(slots=True)
class Atom:
    prefix: str  # '', '+', '-', '^', '!'
    word: str
    kind: str  # 'word', 'cmp', 'extreme'
    op: str = ""
    value: int | str = 0
    start: int = 0
    end: int = 0
    word_start: int = 0
    word_end: int = 0


@dataclass(slots=True)
class Filter:
    segments: list[tuple[str, object, int, int]]  # (kind, payload, start, end) in written order
    start: int
    end: int


# ---- statements --------------------------------------------------------------------------------

@dataclass(slots=True)
class Command:
    name: str
    ask: bool
    args: Raw
    start: int
    end: int


@dataclass(slots=True)
class AbilityEffect:
    sign: str
    name: str
    start: int
    end: int


@dataclass(slots=True)
class Clause:
    kind: str  # to / target / from
    optional: bool
    args: Raw
    start: int
    end: int


@dataclass(slots=True)
class Bareword:
    word: str
    start: int
    end: int


@dataclass(slots=True)
class ChainOp:
    op: str
    start: int
    end: int


BodyItem = Union[Command, AbilityEffect, Clause, Bareword, ChainOp]


@dataclass(slots=True)
class Body:
    items: list[BodyItem]
    start: int
    end: int


@dataclass(slots=True)
class Branch:
    keyword: str  # 'if', 'elif', 'else'
    condition: Raw | None
    body: Body | None
    start: int
    end: int


@dataclass(slots=True)
class Statement:
    kind: str  # 'plain', 'may', 'if'
    body: Body | None = None
    may_text: Raw | None = None
    branches: list[Branch] = field(default_factory=list)
    start: int = 0
    end: int = 0


@dataclass(slots=True)
class ActionValue:
    costs: list[Raw]
    statements: list[Statement]


@dataclass(slots=True)
class AutoValue:
    trigger: Raw | None
    statements: list[Statement]
