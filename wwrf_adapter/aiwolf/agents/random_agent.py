"""An agent that says random valid sentences and makes random choices."""

from __future__ import annotations

import random

from .. import ast as A
from ..client import Agent
from ..gameinfo import Talk


def random_sentence(rng: random.Random, me: int, alive: list[int], roles: list[A.Role], day: int,
                    talks: list[Talk]) -> A.Sentence:
    """A sentence that is valid for the game: agents alive or the speaker, roles in play, past days."""
    who = A.Agent(rng.choice(alive or [me]))
    role = rng.choice(roles + [A.Role.ANY])
    species = rng.choice(list(A.Species))
    shapes = [
        lambda: A.RoleSentence("ESTIMATE", None, who, role),
        lambda: A.RoleSentence("COMINGOUT", None, A.Agent(me), rng.choice(roles)),
        lambda: A.ActionSentence("VOTE", None, who),
        lambda: A.SpeciesSentence("DIVINED", None, who, species),
        lambda: A.Directed("REQUEST", None, A.ANY, A.ActionSentence("VOTE", None, who)),
        lambda: A.Directed("INQUIRE", None, who, A.ActionSentence("VOTE", None, A.ANY)),
        lambda: A.Not(None, A.RoleSentence("ESTIMATE", None, who, role)),
        lambda: A.DaySentence(None, rng.randrange(day + 1), A.ActionSentence("VOTED", None, who)),
        lambda: A.Junction(rng.choice(A.JUNCTION_OPS), None, (A.ActionSentence("VOTE", None, who),
                                                              A.RoleSentence("ESTIMATE", None, who, role))),
    ]
    if talks:
        t = rng.choice(talks)
        shapes.append(lambda: A.AgreeSentence(rng.choice(A.AGREE_VERBS), None, A.TalkRef("TALK", t.day, t.idx)))
    return rng.choice(shapes)()


class RandomAgent(Agent):
    """Talks at random (Over about one time in three) and chooses at random."""

    def _sentence(self) -> A.Utterance:
        if self.rng.random() < 0.35:
            return A.OVER
        roles = list(self.setting.context().roles_in_play) if self.setting else [A.Role.VILLAGER]
        return random_sentence(self.rng, self.me, self.alive_others(), roles, self.day, self.talks)

    def talk(self) -> A.Utterance:
        return self._sentence()

    def whisper(self) -> A.Utterance:
        return self._sentence()

    def attack(self) -> int | None:
        assert self.info is not None
        humans = [a for a in self.alive_others() if self.info.role_map.get(a) is not A.Role.WEREWOLF]
        return self.rng.choice(humans) if humans else None
