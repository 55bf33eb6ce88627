"""Meaning checks of a parsed sentence against a game (codes AW3xx).

AW301 an agent number outside the game; AW302 a role nobody holds in this game; AW303 ``DAY d`` after
today; AW304 a talk reference to a day after today.
"""

from __future__ import annotations

from rulescript.diagnostics import Diagnostic

from . import ast as A
from .diagnostics import SentenceDiags
from .game import GameContext


def check_meaning(u: A.Utterance, game: GameContext, file: str = "<sentence>", line: int = 1) -> list[Diagnostic]:
    diags = SentenceDiags(file, line)
    if isinstance(u, A.Flow):
        return []
    for s in A.walk(u):
        _check(s, game, diags)
    unique: dict[tuple[str, int], Diagnostic] = {}
    for d in diags.items:  # the old REQUEST form's target is its inner subject: one report for both
        unique.setdefault((d.code, d.span.col), d)
    return list(unique.values())


def _at(s: A.Sentence, part: str) -> tuple[int, int]:
    return s.pos.get(part) or s.pos.get("sentence") or (1, 2)


def _check(s: A.Sentence, game: GameContext, diags: SentenceDiags) -> None:
    for part in ("subject", "target"):
        who = getattr(s, part, None)
        if isinstance(who, A.Agent) and who.number > game.agents:
            diags.error("AW301", f"{who} is not in this game (its agents are Agent[01] to {A.Agent(game.agents)})",
                        *_at(s, part))
    role = getattr(s, "role", None)
    if isinstance(role, A.Role) and role is not A.Role.ANY and role not in game.roles_in_play:
        played = ", ".join(r.value for r in game.roles_in_play)
        diags.error("AW302", f"no agent is a {role} in this game", *_at(s, "role"), (f"roles in play: {played}",))
    if game.day is None:
        return
    if isinstance(s, A.DaySentence) and s.day > game.day:
        diags.error("AW303", f"day {s.day} is in the future (today is day {game.day})", *_at(s, "day"))
    if isinstance(s, A.AgreeSentence) and s.ref.day > game.day:
        diags.error("AW304", f"{s.ref} refers to day {s.ref.day}, which is in the future (today is day {game.day})",
                    *_at(s, "talk_day"))
