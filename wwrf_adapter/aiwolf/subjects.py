"""Omitted subjects: what they stand for, and dropping the ones that say nothing.

A top-level omitted subject is the speaker. Inside REQUEST and INQUIRE an omitted subject is the
outer sentence's target; inside every other operator it is the outer sentence's (resolved) subject.
"""

from __future__ import annotations

from typing import Callable

from . import ast as A


class _Speaker:
    """The speaker, when nobody said who it is: equal only to itself."""

    def __repr__(self) -> str:
        return "SPEAKER"

    def __str__(self) -> str:
        return "the speaker"


SPEAKER = _Speaker()


def inherited(parent: A.Sentence, parent_subject: "A.Who | _Speaker") -> "A.Who | _Speaker":
    """What an omitted subject directly inside ``parent`` stands for."""
    if isinstance(parent, A.Directed):
        return parent.target
    return parent_subject


def resolve(u: A.Utterance, speaker: A.Agent | None = None) -> A.Utterance:
    """Every omitted subject filled in. With no ``speaker``, top-level omitted subjects stay omitted
    (and so do the inner ones that inherit them)."""

    def fill(node: A.Sentence, written: A.Who | None, outer: "A.Who | _Speaker") -> A.Sentence:
        subject = written if written is not None else outer
        return node.with_subject(None if isinstance(subject, _Speaker) else subject)

    return _rewrite(u, speaker, fill)


def normalize(u: A.Utterance, speaker: A.Agent | None = None) -> A.Utterance:
    """Drop every subject equal to the one it would inherit (the top-level one only when ``speaker``
    is given). An explicit ANY is kept: an inherited ANY is bound with its parent's ANY, while an
    explicit one is expanded on its own, so the two do not mean the same."""

    def drop(node: A.Sentence, written: A.Who | None, outer: "A.Who | _Speaker") -> A.Sentence:
        return node.with_subject(None) if isinstance(outer, A.Agent) and written == outer else node

    return _rewrite(u, speaker, drop)


Fix = Callable[[A.Sentence, "A.Who | None", "A.Who | _Speaker"], A.Sentence]


def _rewrite(u: A.Utterance, speaker: A.Agent | None, fix: Fix) -> A.Utterance:
    """Rebuild ``u`` bottom-up, letting ``fix`` change each node's subject given the subject written
    there and the one it would inherit; inheritance follows the subjects as written."""
    if isinstance(u, A.Flow):
        return u

    def walk(s: A.Sentence, outer: "A.Who | _Speaker") -> A.Sentence:
        subject = s.subject if s.subject is not None else outer
        kids = tuple(walk(c, inherited(s, subject)) for c in s.children())
        return fix(s.with_children(kids) if kids else s, s.subject, outer)

    return walk(u, speaker if speaker is not None else SPEAKER)
