"""The project's own agents for the client library: ``aiwolf agent wwrf_adapter.aiwolf.agents:RuleAgent``.

- :class:`RandomAgent` says random valid sentences and chooses at random.
- :class:`RuleAgent` plays its role with simple rules and talks about it: seers come out and report
  divinations, mediums report identifications, the possessed claims to be a seer, everyone says whom
  they vote for and why, werewolves agree on an attack by whispering.
"""

from __future__ import annotations

from .random_agent import RandomAgent
from .rule_agent import RuleAgent

__all__ = ["RandomAgent", "RuleAgent"]
