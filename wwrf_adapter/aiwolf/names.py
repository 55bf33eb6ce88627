"""How a rendered werewolf game meets AIWolf (spec §3): seats are ``Agent[NN]`` (seat 0 is Agent[01]),
the game's role ids have AIWolf role names, its teams AIWolf team names, a player's species is
WEREWOLF when it carries the species attribute, and four kinds of engine decision are the four
AIWolf requests that choose an agent (docs/werewolf.md, "Decision points").

The engine knows none of these words; the server and the log replay look everything up here.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .ast import Role, Species
from .packets import Request

#: the AIWolf team names of a result line (spec §4)
VILLAGER_TEAM, WEREWOLF_TEAM = "VILLAGER", "WEREWOLF"


class UnmappedRole(ValueError):
    """A game deals a role that has no AIWolf name (it cannot be played on the AIWolf protocol)."""


@dataclass(frozen=True)
class WolfNames:
    #: role id of the game -> AIWolf role
    roles: Mapping[str, Role]
    #: team id of the game -> AIWolf team (VILLAGER, WEREWOLF)
    teams: Mapping[str, str]
    #: players carrying this attribute are of the WEREWOLF species, the others HUMAN
    species_attribute: str
    #: (decision kind, prompt) -> the AIWolf request that answers it
    requests: Mapping[tuple[str, str], Request]
    #: the poll ids of the execution vote and the wolves' attack vote
    lynch_poll: str = "lynch"
    attack_poll: str = "pack-hunt"

    def role(self, role_id: str) -> Role:
        try:
            return self.roles[role_id]
        except KeyError:
            raise UnmappedRole(f"the role {role_id!r} has no AIWolf name (AIWolf roles: "
                               f"{', '.join(sorted(self.roles))})") from None

    def role_id(self, role: Role) -> str | None:
        """The game's role id for an AIWolf role (None when the game has none)."""
        for rid, r in self.roles.items():
            if r is role:
                return rid
        return None

    def team(self, team_id: str | None) -> str | None:
        return self.teams.get(team_id or "")

    def species(self, is_wolf: bool) -> Species:
        return Species.WEREWOLF if is_wolf else Species.HUMAN

    def engine_settings(self, max_revote: int, max_attack_revote: int, *, no_execution: bool = False,
                        no_attack: bool = False) -> dict:
        """The engine's poll settings for an AIWolf game (the reference server's rules, docs/aiwolf.md):

        * each poll is voted again while it has no single winner (a tie, or an attack vote with no valid
          vote at all), up to ``maxRevote`` / ``maxAttackRevote`` more rounds; a vote is final;
        * unless ``enableNoAttack``, every living human counts one attack vote besides the wolves' votes,
          so the night always attacks someone (with no valid wolf vote, a random living human);
        * a tie that remains is drawn by the host, or elects nobody when ``enableNoExecution`` (the
          execution) or ``enableNoAttack`` (the attack) allows it."""
        settings: dict = {"revotes": {self.lynch_poll: max_revote, self.attack_poll: max_attack_revote},
                          "ties": "decide", "vote_changes": False, "revote_empty": True}
        if not no_attack:
            settings["option_votes"] = {self.attack_poll: 1}
        standing = [p for p, on in ((self.lynch_poll, no_execution), (self.attack_poll, no_attack)) if on]
        if standing:
            settings["standing_ties"] = standing
        return settings


#: the names of the bundled werewolf game (cards/werewolf: the AIWolf standard roles)
STANDARD = WolfNames(
    roles=MappingProxyType({"villager": Role.VILLAGER, "seer": Role.SEER, "medium": Role.MEDIUM,
                            "bodyguard": Role.BODYGUARD, "werewolf": Role.WEREWOLF,
                            "possessed": Role.POSSESSED}),
    teams=MappingProxyType({"villagers": VILLAGER_TEAM, "werewolves": WEREWOLF_TEAM}),
    species_attribute="lupine",
    requests=MappingProxyType({("use_ability", "seer.divine"): Request.DIVINE,
                               ("use_ability", "bodyguard.guard"): Request.GUARD,
                               ("vote", "lynch"): Request.VOTE,
                               ("vote", "pack-hunt"): Request.ATTACK}),
)


def agent_of(seat: int) -> int:
    return seat + 1


def seat_of(agent: int) -> int:
    return agent - 1
