"""What a sentence is checked against: how many agents, which roles are dealt, which day it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .ast import GAME_ROLES, Role

#: the roles dealt in the standard games (spec: 5 and 15 players)
STANDARD_ROLES: Mapping[int, Mapping[Role, int]] = MappingProxyType({
    5: MappingProxyType({Role.SEER: 1, Role.POSSESSED: 1, Role.WEREWOLF: 1, Role.VILLAGER: 2}),
    15: MappingProxyType({Role.SEER: 1, Role.MEDIUM: 1, Role.BODYGUARD: 1, Role.POSSESSED: 1,
                          Role.WEREWOLF: 3, Role.VILLAGER: 8}),
})


@dataclass(frozen=True)
class GameContext:
    """``agents`` agents numbered 1..agents; ``roles`` the count of each role dealt; ``day`` today
    (None when unknown: no check against the future)."""

    agents: int
    roles: Mapping[Role, int] = field(default_factory=dict)
    day: int | None = None

    def __post_init__(self) -> None:
        if self.agents < 1:
            raise ValueError("a game has at least one agent")
        if sum(self.roles.values()) not in (0, self.agents):
            raise ValueError(f"{sum(self.roles.values())} roles dealt to {self.agents} agents")

    @classmethod
    def standard(cls, players: int, day: int | None = None) -> "GameContext":
        if players not in STANDARD_ROLES:
            raise ValueError(f"the standard game has 5 or 15 players, not {players}")
        return cls(players, dict(STANDARD_ROLES[players]), day)

    @property
    def roles_in_play(self) -> tuple[Role, ...]:
        """Roles dealt at least once, in the usual order; all game roles when ``roles`` is empty."""
        if not self.roles:
            return GAME_ROLES
        return tuple(r for r in GAME_ROLES if self.roles.get(r, 0) > 0)
