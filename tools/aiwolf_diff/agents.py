"""Stand-in agents of the differential runs (tools/aiwolf_diff/run.py), run with ``aiwolf agent``.

``SelfAttackAgent`` plays like the project's RuleAgent but, as a werewolf, always names itself in its
attack vote: a vote the rules drop, so every night has no valid attack vote and what happens is the
server's rule alone (with ``enableNoAttack`` false, a random living human is attacked).
"""
from __future__ import annotations

from wwrf_adapter.aiwolf.agents import RuleAgent


class SelfAttackAgent(RuleAgent):
    def attack(self) -> int | None:
        return self.me
