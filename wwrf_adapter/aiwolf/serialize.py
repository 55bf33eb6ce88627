"""Sentence AST → protocol text, in the normalised spelling.

``Agent[NN]`` with at least two digits, single spaces between words, ``) (`` between groups, upper-case
keywords, ``Skip``/``Over`` in mixed case. ``parse(serialize(x)) == x`` for every AST ``x``.
"""

from __future__ import annotations

from . import ast as A


def serialize(u: A.Utterance) -> str:
    if isinstance(u, A.Flow):
        return u.word
    return _sentence(u)


def _groups(parts: tuple[A.Sentence, ...]) -> str:
    return " ".join(f"({_sentence(p)})" for p in parts)


def _sentence(s: A.Sentence) -> str:
    head = f"{s.subject} {s.word}" if s.subject is not None else s.word
    if isinstance(s, A.RoleSentence):
        return f"{head} {s.target} {s.role}"
    if isinstance(s, A.SpeciesSentence):
        return f"{head} {s.target} {s.species}"
    if isinstance(s, A.ActionSentence):
        return f"{head} {s.target}"
    if isinstance(s, A.AgreeSentence):
        return f"{head} {s.ref}"
    if isinstance(s, A.Directed):
        return f"{head} {s.target} {_groups(s.children())}"
    if isinstance(s, A.DaySentence):
        return f"{head} {s.day} {_groups(s.children())}"
    if isinstance(s, (A.Because, A.Xor, A.Not, A.Junction)):
        return f"{head} {_groups(s.children())}"
    raise TypeError(f"not a sentence: {s!r}")
