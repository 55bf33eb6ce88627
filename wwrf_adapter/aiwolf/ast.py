"""Typed AST of AIWolf protocol 3.6 sentences.

Every node is a frozen dataclass. A node's ``pos`` maps a part name (``"verb"``, ``"subject"``,
``"target"``, ``"role"``, ``"species"``, ``"day"``, ``"talk"``, ``"sentence"``) to its 1-based
``(column, end column)`` in the text it was parsed from. Positions are left out of equality and
hashing, so two sentences compare equal when they say the same thing, however they were spaced.

A ``subject`` of ``None`` is an omitted subject (UNSPEC in the 3.6 text); :mod:`.subjects` says what
it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import ClassVar, Literal, Union


class Role(str, Enum):
    VILLAGER = "VILLAGER"
    SEER = "SEER"
    MEDIUM = "MEDIUM"
    BODYGUARD = "BODYGUARD"
    WEREWOLF = "WEREWOLF"
    POSSESSED = "POSSESSED"
    FOX = "FOX"  # not in the 3.6 text; the platform accepts it
    FREEMASON = "FREEMASON"  # not in the 3.6 text; the platform accepts it
    ANY = "ANY"

    def __str__(self) -> str:
        return self.value


class Species(str, Enum):
    HUMAN = "HUMAN"
    WEREWOLF = "WEREWOLF"
    ANY = "ANY"

    def __str__(self) -> str:
        return self.value


#: the roles a game can deal (every role but ANY)
GAME_ROLES: tuple[Role, ...] = tuple(r for r in Role if r is not Role.ANY)


@dataclass(frozen=True)
class Agent:
    """One agent, numbered from 1. ``Agent[00]`` on the wire is :data:`ANY`, never ``Agent(0)``."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool) or self.number < 1:
            raise ValueError(f"agent numbers start at 1, not {self.number!r}")

    def __str__(self) -> str:
        return f"Agent[{self.number:02d}]"


@dataclass(frozen=True)
class AnyAgent:
    """The word ANY in a subject or target position."""

    def __str__(self) -> str:
        return "ANY"


ANY = AnyAgent()
Who = Union[Agent, AnyAgent]
Pos = dict[str, tuple[int, int]]


def _pos() -> Pos:
    return field(default_factory=dict, compare=False, repr=False)  # type: ignore[return-value]


RoleVerb = Literal["ESTIMATE", "COMINGOUT"]
SpeciesVerb = Literal["DIVINED", "IDENTIFIED"]
ActionVerb = Literal["DIVINATION", "GUARD", "VOTE", "ATTACK", "GUARDED", "VOTED", "ATTACKED"]
AgreeVerb = Literal["AGREE", "DISAGREE"]
DirectedOp = Literal["REQUEST", "INQUIRE"]
JunctionOp = Literal["AND", "OR"]

ROLE_VERBS: tuple[str, ...] = ("ESTIMATE", "COMINGOUT")
SPECIES_VERBS: tuple[str, ...] = ("DIVINED", "IDENTIFIED")
ACTION_VERBS: tuple[str, ...] = ("DIVINATION", "GUARD", "VOTE", "ATTACK", "GUARDED", "VOTED", "ATTACKED")
AGREE_VERBS: tuple[str, ...] = ("AGREE", "DISAGREE")
DIRECTED_OPS: tuple[str, ...] = ("REQUEST", "INQUIRE")
JUNCTION_OPS: tuple[str, ...] = ("AND", "OR")
OPERATORS: tuple[str, ...] = DIRECTED_OPS + ("BECAUSE", "DAY", "NOT", "XOR") + JUNCTION_OPS
VERBS: tuple[str, ...] = ROLE_VERBS + SPECIES_VERBS + ACTION_VERBS + AGREE_VERBS
FLOW_WORDS: tuple[str, ...] = ("Skip", "Over")


class Sentence:
    """Base of every sentence node (all but :class:`Flow`).

    ``_parts`` names the fields that hold nested sentences; ``WORD`` is the operator word of the
    classes that have no ``verb`` or ``op`` field.
    """

    subject: Who | None
    pos: Pos
    _parts: ClassVar[tuple[str, ...]] = ()
    WORD: ClassVar[str] = ""

    def children(self) -> tuple["Sentence", ...]:
        return tuple(getattr(self, name) for name in self._parts)

    def with_children(self, children: tuple["Sentence", ...]) -> "Sentence":
        if not self._parts:
            return self
        return replace(self, **dict(zip(self._parts, children, strict=True)))  # type: ignore[type-var]

    def with_subject(self, subject: Who | None) -> "Sentence":
        return replace(self, subject=subject)  # type: ignore[type-var]

    @property
    def word(self) -> str:
        """The verb or operator word."""
        return getattr(self, "verb", None) or getattr(self, "op", None) or self.WORD


@dataclass(frozen=True)
class RoleSentence(Sentence):
    """``[S] ESTIMATE|COMINGOUT T ROLE``"""

    verb: RoleVerb
    subject: Who | None
    target: Who
    role: Role
    pos: Pos = _pos()


@dataclass(frozen=True)
class SpeciesSentence(Sentence):
    """``[S] DIVINED|IDENTIFIED T SPECIES``"""

    verb: SpeciesVerb
    subject: Who | None
    target: Who
    species: Species
    pos: Pos = _pos()


@dataclass(frozen=True)
class ActionSentence(Sentence):
    """``[S] DIVINATION|GUARD|VOTE|ATTACK|GUARDED|VOTED|ATTACKED T``"""

    verb: ActionVerb
    subject: Who | None
    target: Who
    pos: Pos = _pos()


@dataclass(frozen=True)
class TalkRef:
    """``TALK dayD ID:N`` or ``WHISPER dayD ID:N``: the N-th utterance (from 0) of day D."""

    channel: Literal["TALK", "WHISPER"]
    day: int
    id: int

    def __str__(self) -> str:
        return f"{self.channel} day{self.day} ID:{self.id}"


@dataclass(frozen=True)
class AgreeSentence(Sentence):
    """``[S] AGREE|DISAGREE TALK|WHISPER dayD ID:N``"""

    verb: AgreeVerb
    subject: Who | None
    ref: TalkRef
    pos: Pos = _pos()


@dataclass(frozen=True)
class Directed(Sentence):
    """``[S] REQUEST|INQUIRE T (sentence)``"""

    op: DirectedOp
    subject: Who | None
    target: Who
    body: Sentence
    pos: Pos = _pos()

    _parts = ("body",)


@dataclass(frozen=True)
class Because(Sentence):
    """``[S] BECAUSE (reason) (result)``"""

    subject: Who | None
    reason: Sentence
    result: Sentence
    pos: Pos = _pos()
    WORD = "BECAUSE"
    _parts = ("reason", "result")


@dataclass(frozen=True)
class Xor(Sentence):
    """``[S] XOR (left) (right)``"""

    subject: Who | None
    left: Sentence
    right: Sentence
    pos: Pos = _pos()
    WORD = "XOR"
    _parts = ("left", "right")


@dataclass(frozen=True)
class Not(Sentence):
    """``[S] NOT (sentence)``"""

    subject: Who | None
    body: Sentence
    pos: Pos = _pos()
    WORD = "NOT"
    _parts = ("body",)


@dataclass(frozen=True)
class DaySentence(Sentence):
    """``[S] DAY d (sentence)``"""

    subject: Who | None
    day: int
    body: Sentence
    pos: Pos = _pos()
    WORD = "DAY"
    _parts = ("body",)


@dataclass(frozen=True)
class Junction(Sentence):
    """``[S] AND|OR (s1) (s2) ...`` with two or more parts."""

    op: JunctionOp
    subject: Who | None
    parts: tuple[Sentence, ...]
    pos: Pos = _pos()

    def children(self) -> tuple[Sentence, ...]:
        return self.parts

    def with_children(self, children: tuple[Sentence, ...]) -> Sentence:
        return replace(self, parts=tuple(children))


@dataclass(frozen=True)
class Flow:
    """``Skip`` or ``Over``: only ever a whole utterance."""

    word: Literal["Skip", "Over"]
    pos: Pos = _pos()


SKIP = Flow("Skip")
OVER = Flow("Over")

Utterance = Union[Sentence, Flow]


def walk(sentence: Sentence) -> "list[Sentence]":
    """The sentence and every sentence nested in it, parents first."""
    out: list[Sentence] = []
    stack = [sentence]
    while stack:
        s = stack.pop()
        out.append(s)
        stack.extend(reversed(s.children()))
    return out
