"""The data a server sends: GameInfo, GameSetting, Talk, Vote and Judge (spec §2 shapes).

Agents are integers here and in JSON; JSON map keys are agent numbers written as strings. ``-1``
stands for "no agent" in the single-agent fields (``executedAgent``, ``cursedFox`` …).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from . import jsoncodec as J
from .ast import GAME_ROLES, Role, Species
from .game import STANDARD_ROLES, GameContext

NO_AGENT = -1


class Status(str, Enum):
    ALIVE = "ALIVE"
    DEAD = "DEAD"


@dataclass(frozen=True)
class Talk:
    """One talk or whisper: ``idx`` counts the day's utterances from 0 (Skip and Over too)."""

    idx: int
    day: int
    turn: int
    agent: int
    text: str


@dataclass(frozen=True)
class Vote:
    agent: int
    day: int
    target: int


@dataclass(frozen=True)
class Judge:
    """A divination or medium result: ``agent`` learned on ``day`` that ``target`` is ``result``."""

    agent: int
    day: int
    target: int
    result: Species


@dataclass(frozen=True)
class GameInfo:
    agent: int
    day: int = 0
    status_map: dict[int, Status] = field(default_factory=dict)
    role_map: dict[int, Role] = field(default_factory=dict)
    remain_talk_map: dict[int, int] = field(default_factory=dict)
    remain_whisper_map: dict[int, int] = field(default_factory=dict)
    talk_list: tuple[Talk, ...] = ()
    whisper_list: tuple[Talk, ...] = ()
    vote_list: tuple[Vote, ...] = ()
    latest_vote_list: tuple[Vote, ...] = ()
    attack_vote_list: tuple[Vote, ...] = ()
    latest_attack_vote_list: tuple[Vote, ...] = ()
    divine_result: Judge | None = None
    medium_result: Judge | None = None
    executed_agent: int = NO_AGENT
    latest_executed_agent: int = NO_AGENT
    attacked_agent: int = NO_AGENT
    guarded_agent: int = NO_AGENT
    cursed_fox: int = NO_AGENT
    last_dead_agent_list: tuple[int, ...] = ()
    existing_role_list: tuple[Role, ...] = ()

    @property
    def alive(self) -> list[int]:
        return sorted(a for a, s in self.status_map.items() if s is Status.ALIVE)

    @property
    def my_role(self) -> Role | None:
        return self.role_map.get(self.agent)


@dataclass(frozen=True)
class GameSetting:
    role_num_map: dict[Role, int]
    player_num: int
    random_seed: int = 0
    time_limit: int = 1000
    max_talk: int = 10
    max_talk_turn: int = 20
    max_whisper: int = 10
    max_whisper_turn: int = 20
    max_skip: int = 2
    max_revote: int = 1
    max_attack_revote: int = 1
    enable_no_attack: bool = False
    enable_no_execution: bool = False
    enable_role_request: bool = True
    talk_on_first_day: bool = False
    validate_utterance: bool = True
    votable_in_first_day: bool = False
    vote_visible: bool = True
    whisper_before_revote: bool = False

    @classmethod
    def standard(cls, players: int, seed: int = 0) -> "GameSetting":
        """The standard 5 or 15 player game with the platform's defaults."""
        if players not in STANDARD_ROLES:
            raise ValueError(f"the standard game has 5 or 15 players, not {players}")
        roles = {r: STANDARD_ROLES[players].get(r, 0) for r in GAME_ROLES}
        return cls(roles, players, random_seed=seed)

    def context(self, day: int | None = None) -> GameContext:
        """What sentences of this game are checked against."""
        return GameContext(self.player_num, {r: n for r, n in self.role_num_map.items() if n}, day)


def camel(name: str) -> str:
    """The AIWolf (camelCase) name of a field: ``max_talk_turn`` -> ``maxTalkTurn``."""
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def _record(cls: type, codecs: dict[str, J.Codec[Any]]) -> J.Codec[Any]:
    return J.record(cls, {name: (camel(name), codec) for name, codec in codecs.items()})


TALK: J.Codec[Talk] = _record(Talk, {"agent": J.INT, "day": J.INT, "idx": J.INT, "text": J.STR, "turn": J.INT})
VOTE: J.Codec[Vote] = _record(Vote, {"agent": J.INT, "day": J.INT, "target": J.INT})
JUDGE: J.Codec[Judge] = _record(Judge, {"agent": J.INT, "day": J.INT, "target": J.INT,
                                        "result": J.enum(Species)})
TALKS = J.list_of(TALK)
VOTES = J.list_of(VOTE)

GAME_INFO: J.Codec[GameInfo] = _record(GameInfo, {
    "agent": J.INT, "day": J.INT,
    "status_map": J.agent_map(J.enum(Status)), "role_map": J.agent_map(J.enum(Role)),
    "remain_talk_map": J.agent_map(J.INT), "remain_whisper_map": J.agent_map(J.INT),
    "talk_list": TALKS, "whisper_list": TALKS,
    "vote_list": VOTES, "latest_vote_list": VOTES, "attack_vote_list": VOTES, "latest_attack_vote_list": VOTES,
    "divine_result": J.optional(JUDGE), "medium_result": J.optional(JUDGE),
    "executed_agent": J.INT, "latest_executed_agent": J.INT, "attacked_agent": J.INT, "guarded_agent": J.INT,
    "cursed_fox": J.INT, "last_dead_agent_list": J.list_of(J.INT), "existing_role_list": J.list_of(J.enum(Role)),
})

_SETTING_INTS = ("player_num", "random_seed", "time_limit", "max_talk", "max_talk_turn", "max_whisper",
                 "max_whisper_turn", "max_skip", "max_revote", "max_attack_revote")
_SETTING_BOOLS = ("enable_no_attack", "enable_no_execution", "enable_role_request", "talk_on_first_day",
                  "validate_utterance", "votable_in_first_day", "vote_visible", "whisper_before_revote")
GAME_SETTING: J.Codec[GameSetting] = _record(GameSetting, {
    "role_num_map": J.enum_map(Role, J.INT),
    **{name: J.INT for name in _SETTING_INTS},
    **{name: J.BOOL for name in _SETTING_BOOLS},
})
