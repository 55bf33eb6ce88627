"""Server ↔ agent packets (spec §2): one line of compact JSON per server message, one line per reply.

Every server message has exactly the five keys ``request``, ``gameInfo``, ``gameSetting``,
``talkHistory`` and ``whisperHistory`` (null when unused), in that order. Requests NAME, ROLE, TALK,
WHISPER, VOTE, DIVINE, GUARD and ATTACK expect a reply; INITIALIZE, DAILY_INITIALIZE, DAILY_FINISH
and FINISH must get none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from . import jsoncodec as J
from .ast import Role
from .gameinfo import GAME_INFO, GAME_SETTING, TALKS, GameInfo, GameSetting, Talk
from .jsoncodec import ProtocolError


class Request(str, Enum):
    NAME = "NAME"
    ROLE = "ROLE"
    INITIALIZE = "INITIALIZE"
    DAILY_INITIALIZE = "DAILY_INITIALIZE"
    TALK = "TALK"
    WHISPER = "WHISPER"
    VOTE = "VOTE"
    DIVINE = "DIVINE"
    GUARD = "GUARD"
    ATTACK = "ATTACK"
    DAILY_FINISH = "DAILY_FINISH"
    FINISH = "FINISH"

    @property
    def expects_reply(self) -> bool:
        return self not in _SILENT

    @property
    def wants_target(self) -> bool:
        return self in _TARGETED


_SILENT = frozenset({Request.INITIALIZE, Request.DAILY_INITIALIZE, Request.DAILY_FINISH, Request.FINISH})
_TARGETED = frozenset({Request.VOTE, Request.DIVINE, Request.GUARD, Request.ATTACK})


@dataclass(frozen=True)
class Packet:
    request: Request
    game_info: GameInfo | None = None
    game_setting: GameSetting | None = None
    talk_history: tuple[Talk, ...] | None = None
    whisper_history: tuple[Talk, ...] | None = None


_PACKET = J.record(Packet, {
    "request": ("request", J.enum(Request)),
    "game_info": ("gameInfo", J.optional(GAME_INFO)),
    "game_setting": ("gameSetting", J.optional(GAME_SETTING)),
    "talk_history": ("talkHistory", J.optional(TALKS)),
    "whisper_history": ("whisperHistory", J.optional(TALKS)),
})


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _loads(line: str, what: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"{what} is not JSON: {exc}") from None


def encode_packet(packet: Packet) -> str:
    """The packet as one line of compact JSON, ending in a newline."""
    return _dumps(_PACKET.encode(packet)) + "\n"


def decode_packet(line: str) -> Packet:
    """A server message (without or with its newline). Missing keys are null; others are checked."""
    return _PACKET.decode(_loads(line, "the packet"), "packet")


# ------------------------------------------------------------------ replies


def encode_reply(request: Request, value: Any) -> str:
    """An agent's reply as one line (ending in a newline).

    NAME: the name; ROLE: a :class:`Role` or None (``none``); TALK/WHISPER: the sentence text (empty
    is Skip); VOTE/DIVINE/GUARD/ATTACK: an agent number or None (``{"agentIdx":-1}``).
    """
    if not request.expects_reply:
        raise ValueError(f"{request.value} gets no reply")
    if request.wants_target:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"the reply to {request.value} is an agent number, not {value!r}")
        return _dumps({"agentIdx": -1 if value is None else value}) + "\n"
    if request is Request.ROLE:
        return ("none" if value is None else Role(value).value) + "\n"
    text = str(value)
    if "\n" in text or "\r" in text:
        raise ValueError(f"the reply to {request.value} is one line: {text!r}")
    return text + "\n"


def decode_reply(request: Request, line: str) -> Any:
    """The value of a reply line (without its newline); the inverse of :func:`encode_reply`.

    Targets are read leniently as JSON (blanks allowed); ``{"agentIdx":-1}``, ``{"agentIdx":null}`` and
    ``null`` mean no choice (None).
    """
    if not request.expects_reply:
        raise ProtocolError(f"{request.value} gets no reply")
    if request.wants_target:
        value = _loads(line, f"the {request.value} reply")
        if value is None:
            return None
        if not isinstance(value, dict) or "agentIdx" not in value:
            raise ProtocolError(f'the reply to {request.value} is {{"agentIdx":N}}, got {line[:60]!r}')
        idx = value["agentIdx"]
        if idx is None or idx == -1:
            return None
        return J.INT.decode(idx, f"{request.value} reply agentIdx")
    if request is Request.ROLE:
        word = line.strip()
        if word.lower() == "none":
            return None
        try:
            return Role(word)
        except ValueError:
            raise ProtocolError(f"a ROLE reply is a role or none, got {line[:60]!r}") from None
    return line
