"""Sentences in plain English (``aiwolf explain``).

Omitted subjects are filled in by the inheritance rules; an ANY is read "any agent", "any role",
"either species", and a subject inherited from an ANY target is "that agent". :mod:`.expand` gives
the exact meaning of ANY as an OR of substitutions.
"""

from __future__ import annotations

from . import ast as A
from .subjects import SPEAKER, inherited

_ACTIONS = {
    "DIVINATION": "will divine", "GUARD": "will guard", "VOTE": "will vote for", "ATTACK": "will attack",
    "GUARDED": "guarded", "VOTED": "voted for", "ATTACKED": "attacked",
}
_SPECIES = {A.Species.HUMAN: "a human", A.Species.WEREWOLF: "a werewolf",
            A.Species.ANY: "either a human or a werewolf"}


def describe(u: A.Utterance, speaker: A.Agent | None = None) -> str:
    """One English sentence (ending with a full stop) saying what ``u`` means."""
    if isinstance(u, A.Flow):
        if u.word == "Skip":
            return "Skip: the speaker has nothing to say now but wants the talk to go on."
        return "Over: the speaker has nothing more to say and agrees to end today's talk."
    text = _en(u, speaker if speaker is not None else SPEAKER, bound=False, nested=False)
    return text[0].upper() + text[1:] + "."


def _name(who: object, bound: bool = False) -> str:
    if who == A.ANY:
        return "that agent" if bound else "any agent"
    return str(who)


def _role(role: A.Role) -> str:
    if role is A.Role.ANY:
        return "any role"
    word = role.value.lower()
    return ("an " if word[0] in "aeiou" else "a ") + word


def _en(s: A.Sentence, outer: object, bound: bool, nested: bool) -> str:
    subject_is_bound = bound and s.subject is None
    who = s.subject if s.subject is not None else outer
    subj = _name(who, subject_is_bound)
    inner = inherited(s, who)
    child_bound = isinstance(s, A.Directed) and s.target == A.ANY
    # a nested operator that inherits its subject does not repeat "X says that"
    says = "" if nested and s.subject is None else f"{subj} says that "

    def sub(c: A.Sentence) -> str:
        return _en(c, inner, child_bound or (subject_is_bound and not isinstance(s, A.Directed)), nested=True)

    if isinstance(s, A.RoleSentence):
        if s.verb == "ESTIMATE":
            return f"{subj} thinks {_name(s.target)} is {_role(s.role)}"
        if s.target == who and s.target != A.ANY:
            return f"{subj} comes out as {_role(s.role)}"
        return f"{subj} states that {_name(s.target)} is {_role(s.role)}"
    if isinstance(s, A.SpeciesSentence):
        if s.verb == "DIVINED":
            return f"{subj} divined {_name(s.target)} and found {_SPECIES[s.species]}"
        return f"{subj} identified the dead {_name(s.target)} as {_SPECIES[s.species]}"
    if isinstance(s, A.ActionSentence):
        return f"{subj} {_ACTIONS[s.verb]} {_name(s.target)}"
    if isinstance(s, A.AgreeSentence):
        kind = "talk" if s.ref.channel == "TALK" else "whisper"
        verb = "agrees" if s.verb == "AGREE" else "disagrees"
        return f"{subj} {verb} with {kind} {s.ref.id} of day {s.ref.day}"
    if isinstance(s, A.Directed):
        if s.op == "REQUEST":
            return f"{subj} asks {_name(s.target)} to act so that {sub(s.body)}"
        return f"{subj} asks {_name(s.target)} whether {sub(s.body)}"
    if isinstance(s, A.Because):
        return f"{says}{sub(s.reason)}, and that this is why {sub(s.result)}"
    if isinstance(s, A.DaySentence):
        return f"{says}on day {s.day}, {sub(s.body)}"
    if isinstance(s, A.Not):
        return f"{says}it is not true that {sub(s.body)}"
    if isinstance(s, A.Xor):
        return f"{says}either {sub(s.left)}, or {sub(s.right)}, but not both"
    if isinstance(s, A.Junction):
        how = "all of these are true" if s.op == "AND" else "at least one of these is true"
        items = "; ".join(f"({i}) {sub(p)}" for i, p in enumerate(s.parts, 1))
        return f"{says}{how}: {items}"
    raise TypeError(f"not a sentence: {s!r}")
