"""An agent that plays its role with a few plain rules, and says what it does and why.

- Seer: comes out on day 1, reports every divination, votes for a werewolf it found (saying
  ``BECAUSE (DIVINED …) (VOTE …)`` and asking everyone to vote the same), divines agents it knows
  nothing about.
- Medium: comes out once it has identified a werewolf, or from day 2, and reports identifications.
- Possessed: claims to be the seer and reports made-up divinations; votes against the real seer.
- Villager, bodyguard: vote for the agent the seer claimants accuse most, else follow the declared
  votes; the bodyguard guards a seer claimant.
- Werewolf: talks like a villager, votes against whoever accuses a wolf, whispers its attack choice.
Everyone declares its vote (``VOTE Agent[NN]``) and agrees with an earlier talk that declared the same.
"""

from __future__ import annotations

from .. import ast as A
from ..client import Agent
from .knowledge import Knowledge

_MAX_DECLARATIONS = 2  # vote declarations a day: enough to follow new results, not to ping-pong


def _me(n: int) -> A.Agent:
    return A.Agent(n)


class RuleAgent(Agent):
    def initialize(self) -> None:
        self.k = Knowledge()
        self.results: dict[int, A.Species] = {}  # my own divinations or identifications (or made-up ones)
        self.reported: set[int] = set()
        self.came_out = False
        self._queue: list[A.Sentence] = []
        self._declared: list[int] = []
        self._agreed = False
        self._whispered = -1

    def update(self, talks: list, whispers: list) -> None:
        for t in talks:
            self.k.hear(t)

    # ---------------------------------------------------------------- days

    def day_start(self) -> None:
        assert self.info is not None
        self.k.new_day()
        self._declared, self._agreed = [], False
        own = self.info.divine_result if self.role is A.Role.SEER else (
            self.info.medium_result if self.role is A.Role.MEDIUM else None)
        if own is not None and own.agent == self.me:
            self.results[own.target] = own.result
        if self.role is A.Role.POSSESSED and self.day >= 1:
            self._make_up_result()
        self._queue = self._plan() if self.day >= 1 else []

    def _make_up_result(self) -> None:
        unknown = [a for a in self.alive_others() if a not in self.results]
        if not unknown:
            return
        target = self.rng.choice(unknown)
        rivals = [a for a in self.k.claimants(A.Role.SEER) if a != self.me]
        self.results[target] = A.Species.WEREWOLF if target in rivals else A.Species.HUMAN

    def _plan(self) -> list[A.Sentence]:
        role, out = self.role, []
        claim = {A.Role.SEER: A.Role.SEER, A.Role.POSSESSED: A.Role.SEER, A.Role.MEDIUM: A.Role.MEDIUM}.get(role)  # type: ignore[arg-type]
        verb = "IDENTIFIED" if role is A.Role.MEDIUM else "DIVINED"
        if claim is None:
            return out
        if role is A.Role.MEDIUM and not self.came_out:
            if self.day < 2 and A.Species.WEREWOLF not in self.results.values():
                return out
        if not self.came_out:
            self.came_out = True
            out.append(A.RoleSentence("COMINGOUT", None, _me(self.me), claim))
        for target, species in sorted(self.results.items()):
            if target not in self.reported:
                self.reported.add(target)
                out.append(A.SpeciesSentence(verb, None, _me(target), species))  # type: ignore[arg-type]
        return out

    # ---------------------------------------------------------------- talk

    def talk(self) -> A.Utterance:
        if self._queue:
            return self._queue.pop(0)
        target = self.vote()
        if target is not None and (not self._declared or self._declared[-1] != target) \
                and len(self._declared) < _MAX_DECLARATIONS:
            self._declared.append(target)
            vote = A.ActionSentence("VOTE", None, _me(target))
            reason = self._reason(target)
            if reason is None:
                return vote
            if self.role is A.Role.SEER:
                self._queue.append(A.Directed("REQUEST", None, A.ANY, vote))
            return A.Because(None, reason, vote)
        if not self._agreed and self._declared:
            self._agreed = True
            same = [t for a, (v, t) in sorted(self.k.votes_today.items()) if v == self._declared[-1] and a != self.me]
            if same:
                return A.AgreeSentence("AGREE", None, A.TalkRef("TALK", same[0].day, same[0].idx))
        return A.OVER

    def _reason(self, target: int) -> A.Sentence | None:
        """Why vote for ``target``: my own result, or a seer claimant's report."""
        if self.results.get(target) is A.Species.WEREWOLF and self.role in (A.Role.SEER, A.Role.POSSESSED):
            return A.SpeciesSentence("DIVINED", None, _me(target), A.Species.WEREWOLF)
        for seer in self.k.claimants(A.Role.SEER):
            if seer != self.me and self.k.divined.get(seer, {}).get(target) is A.Species.WEREWOLF:
                return A.SpeciesSentence("DIVINED", _me(seer), _me(target), A.Species.WEREWOLF)
        return None

    def whisper(self) -> A.Utterance:
        if self._whispered != self.day:
            target = self.attack()
            self._whispered = self.day
            if target is not None:
                return A.ActionSentence("ATTACK", None, _me(target))
        return A.OVER

    # ---------------------------------------------------------------- choices

    def _pick(self, candidates: list[int]) -> int | None:
        return self.rng.choice(sorted(candidates)) if candidates else None

    def _most(self, counts: dict[int, int], allowed: set[int]) -> int | None:
        counted = {a: n for a, n in counts.items() if a in allowed and n > 0}
        if not counted:
            return None
        top = max(counted.values())
        return self._pick([a for a, n in counted.items() if n == top])

    def _wolves(self) -> set[int]:
        assert self.info is not None
        return {a for a, r in self.info.role_map.items() if r is A.Role.WEREWOLF}

    def vote(self) -> int | None:
        alive = set(self.alive_others())
        role = self.role
        rivals = [a for a in self.k.claimants(A.Role.SEER) if a in alive]
        if role is A.Role.WEREWOLF:
            wolves = self._wolves()
            accusers = [s for s in rivals if s not in wolves and any(
                self.k.divined.get(s, {}).get(w) is A.Species.WEREWOLF for w in wolves)]
            humans = alive - wolves
            return self._pick(accusers) or self._most(self.k.declared_votes(), humans) or self._pick(list(humans))
        if role is A.Role.SEER:
            found = [t for t, s in self.results.items() if s is A.Species.WEREWOLF and t in alive]
            cleared = {t for t, s in self.results.items() if s is A.Species.HUMAN}
            return self._pick(found) or self._pick(rivals) or self._pick(list(alive - cleared))
        if role is A.Role.POSSESSED:
            return self._pick(rivals) or self._pick(list(alive))
        accused = self._most(self.k.accused(), alive)
        if accused is not None:
            return accused
        return self._most(self.k.declared_votes(), alive) or self._pick(list(alive - set(rivals))) or self._pick(list(alive))

    def divine(self) -> int | None:
        unknown = [a for a in self.alive_others() if a not in self.results]
        return self._pick([a for a in unknown if a not in self.k.claims]) or self._pick(unknown) or self.random_other()

    def guard(self) -> int | None:
        alive = set(self.alive_others())
        for role in (A.Role.SEER, A.Role.MEDIUM):
            trusted = [a for a in self.k.claimants(role) if a in alive and not self.k.accused().get(a)]
            if trusted:
                return self._pick(trusted)
        return self.random_other()

    def attack(self) -> int | None:
        humans = set(self.alive_others()) - self._wolves()
        for role in (A.Role.SEER, A.Role.MEDIUM, A.Role.BODYGUARD):
            claimed = [a for a in self.k.claimants(role) if a in humans]
            if claimed:
                return self._pick(claimed)
        return self._pick(list(humans))
