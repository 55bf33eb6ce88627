"""ANY expanded as the 3.6 text says: a sentence with ANY is the OR of all its substitutions.

Each sentence's own ANY words (subject, target, role, species) are replaced by every value the game
allows; a sentence with several is replaced by every combination. An omitted subject that inherits an
ANY is bound with it, so ``REQUEST ANY (VOTE Agent[01])`` becomes
``OR (REQUEST Agent[01] (VOTE Agent[01])) (REQUEST Agent[02] (VOTE Agent[01])) ...``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from . import ast as A
from .game import GameContext

MAX_NODES = 5000


class ExpansionTooLarge(ValueError):
    pass


def expand_any(u: A.Utterance, game: GameContext, max_nodes: int = MAX_NODES) -> A.Utterance:
    """``u`` without ANY; raises :class:`ExpansionTooLarge` past ``max_nodes`` sentences."""
    if isinstance(u, A.Flow):
        return u
    budget = [max_nodes]
    return _expand(u, game, budget)


def has_any(u: A.Utterance) -> bool:
    if isinstance(u, A.Flow):
        return False
    return any(_choices(s, GameContext(1)) for s in A.walk(u))


def _choices(s: A.Sentence, game: GameContext) -> list[tuple[str, tuple[object, ...]]]:
    agents = tuple(A.Agent(n) for n in range(1, game.agents + 1))
    out: list[tuple[str, tuple[object, ...]]] = []
    if s.subject == A.ANY:
        out.append(("subject", agents))
    if getattr(s, "target", None) == A.ANY:
        out.append(("target", agents))
    if getattr(s, "role", None) is A.Role.ANY:
        out.append(("role", game.roles_in_play))
    if getattr(s, "species", None) is A.Species.ANY:
        out.append(("species", (A.Species.HUMAN, A.Species.WEREWOLF)))
    return out


def _expand(s: A.Sentence, game: GameContext, budget: list[int]) -> A.Sentence:
    kids = tuple(_expand(c, game, budget) for c in s.children())
    node = s.with_children(kids) if kids else s
    choices = _choices(node, game)
    if not choices:
        return node
    names = [name for name, _ in choices]
    variants = tuple(replace(node, **dict(zip(names, combo)))  # type: ignore[type-var]
                     for combo in product(*(values for _, values in choices)))
    budget[0] -= len(variants) * (1 + len(A.walk(node)))
    if budget[0] < 0:
        raise ExpansionTooLarge("the expansion of ANY is too large to show")
    return variants[0] if len(variants) == 1 else A.Junction("OR", None, variants)
