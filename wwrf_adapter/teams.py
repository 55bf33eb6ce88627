"""The team of a role, read from its header the one way the renderer and the book checks both use
(docs/werewolf.md, "Teams of roles").

``- <Name> Team`` names the team element ``<Name> Team`` (else ``<Name>``); a role whose header names
no team belongs to the team of its class (the team named like the class: Townsfolk, Werewolf);
Unaligned and Extra roles without a team have none; a Solo role must name its team.
"""

from __future__ import annotations

from typing import Mapping

from .ast import Header
from .keys import name_key

NO_TEAM_CLASSES = ("unaligned", "extra")


def role_team(header: Header, teams: Mapping[str, str]) -> tuple[str | None, str | None, str]:
    """``(team, problem, how)``: the value of ``teams`` (keyed by :func:`name_key` of team names) that the
    role belongs to, or None; a message when the header names a team the book lacks or the role needs
    one it cannot have (None when all is well); ``how`` is 'header', 'class' or '' (no team)."""
    if header.team:
        for cand in (f"{header.team} Team", header.team):
            if name_key(cand) in teams:
                return teams[name_key(cand)], None, "header"
        return None, (f"the role's team '{header.team} Team' is not a team of the book "
                      f"(teams: {', '.join(sorted(teams.values())) or 'none'})"), ""
    cls = (header.role_class or "").strip()
    if cls.lower() in NO_TEAM_CLASSES:
        return None, None, ""
    if cls.lower() == "solo":
        return None, "a Solo role names its team in its header ('- <Name> Team')", ""
    for cand in (cls, f"{cls} Team"):
        if name_key(cand) in teams:
            return teams[name_key(cand)], None, "class"
    return None, (f"the role names no team and the book has no team '{cls}' (the team of its class {cls}); "
                  "name its team in the header ('- <Name> Team')"), ""
