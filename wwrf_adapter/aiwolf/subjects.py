"""Omitted subjects: what they stand for, and dropping the ones that say nothing.

A top-level omitted subject is the speaker. Inside REQUEST and INQUIRE an omitted subject is the
outer sentence's target; inside every other operator it is the outer sentence's (resolved) subject.
"""

from __future__ import annotations

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
    if isinstance(u, A.Flow):
        return u
    return _resolve(u, speaker if speaker is not None else SPEAKER)


def _resolve(s: A.Sentence, outer: "A.Who | _Speaker") -> A.Sentence:
    subject = s.subject if s.subject is not None else outer
    kids = tuple(_resolve(c, inherited(s, subject)) for c in s.children())
    node = s.with_children(kids) if kids else s
    return node.with_subject(None if isinstance(subject, _Speaker) else subject)


def normalize(u: A.Utterance, speaker: A.Agent | None = None) -> A.Utterance:
    """Drop every subject equal to the one it would inherit (the top-level one only when ``speaker``
    is given). An explicit ANY is kept: an inherited ANY is bound with its parent's ANY, while an
    explicit one is expanded on its own, so the two do not mean the same."""
    if isinstance(u, A.Flow):
        return u
    return _normalize(u, speaker if speaker is not None else SPEAKER)


def _normalize(s: A.Sentence, outer: "A.Who | _Speaker") -> A.Sentence:
    subject = s.subject if s.subject is not None else outer
    kids = tuple(_normalize(c, inherited(s, subject)) for c in s.children())
    node = s.with_children(kids) if kids else s
    if s.subject is not None and isinstance(outer, A.Agent) and s.subject == outer:
        node = node.with_subject(None)
    return node
