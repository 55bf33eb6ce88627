"""What an agent learns from the talk: comings-out, reported results and declared votes."""

from __future__ import annotations

from collections import Counter

from .. import ast as A
from ..gameinfo import Talk
from ..parser import parse
from ..subjects import resolve


class Knowledge:
    def __init__(self) -> None:
        self.claims: dict[int, A.Role] = {}  # agent → the role it came out as (latest claim)
        self.divined: dict[int, dict[int, A.Species]] = {}  # speaker → target → reported result
        self.identified: dict[int, dict[int, A.Species]] = {}
        self.votes_today: dict[int, tuple[int, Talk]] = {}  # speaker → (declared target, that talk)

    def new_day(self) -> None:
        self.votes_today.clear()

    def hear(self, talk: Talk) -> None:
        """Read one talk; invalid sentences, Skip and Over teach nothing."""
        u = parse(talk.text).utterance
        if u is None or isinstance(u, A.Flow) or talk.agent < 1:
            return
        u = resolve(u, A.Agent(talk.agent))
        assert isinstance(u, A.Sentence)
        said = [u] + (list(u.parts) if isinstance(u, A.Junction) and u.op == "AND" else [])
        if isinstance(u, A.Because):
            said += [u.reason, u.result]
        for s in said:
            if s.subject != A.Agent(talk.agent):
                continue  # only what speakers say about their own deeds and beliefs
            self._learn(s, talk)

    def _learn(self, s: A.Sentence, talk: Talk) -> None:
        target = getattr(s, "target", None)
        if not isinstance(target, A.Agent):
            return
        if isinstance(s, A.RoleSentence) and s.verb == "COMINGOUT" and target.number == talk.agent:
            if s.role is not A.Role.ANY:
                self.claims[talk.agent] = s.role
        elif isinstance(s, A.SpeciesSentence) and s.species is not A.Species.ANY:
            table = self.divined if s.verb == "DIVINED" else self.identified
            table.setdefault(talk.agent, {})[target.number] = s.species
        elif isinstance(s, A.ActionSentence) and s.verb == "VOTE":
            self.votes_today[talk.agent] = (target.number, talk)

    def claimants(self, role: A.Role) -> list[int]:
        return sorted(a for a, r in self.claims.items() if r is role)

    def accused(self, by: list[int] | None = None) -> Counter[int]:
        """How many seer claimants (or the agents ``by``) reported each agent as a werewolf."""
        speakers = self.claimants(A.Role.SEER) if by is None else by
        return Counter(t for s in speakers for t, sp in self.divined.get(s, {}).items() if sp is A.Species.WEREWOLF)

    def declared_votes(self) -> Counter[int]:
        return Counter(target for target, _ in self.votes_today.values())
