"""AIWolf: protocol 3.6 sentences, the server ↔ agent wire protocol, and a client library.

Sentences: :func:`parse` (text → AST + diagnostics), :func:`parse_sentence` (raises
:class:`SentenceError`), :func:`serialize` (AST → normalised text), :func:`normalize` (drop subjects
that say nothing), :func:`resolve` (fill omitted subjects in). The AST is in :mod:`.ast`.
"""

from __future__ import annotations

from .ast import (ANY, OVER, SKIP, ActionSentence, Agent, AgreeSentence, Because, DaySentence, Directed, Flow,
                  Junction, Not, Role, RoleSentence, Sentence, Species, SpeciesSentence, TalkRef, Utterance, Xor)
from .diagnostics import SentenceError
from .parser import ParseResult, parse, parse_sentence
from .serialize import serialize
from .subjects import normalize, resolve


def normalize_text(text: str, speaker: Agent | None = None) -> str:
    """The normalised spelling of a sentence; raises :class:`SentenceError` when it is invalid."""
    return serialize(normalize(parse_sentence(text), speaker))


__all__ = [
    "ANY", "OVER", "SKIP", "ActionSentence", "Agent", "AgreeSentence", "Because", "DaySentence", "Directed",
    "Flow", "Junction", "Not", "ParseResult", "Role", "RoleSentence", "Sentence", "SentenceError", "Species",
    "SpeciesSentence", "TalkRef", "Utterance", "Xor", "normalize", "normalize_text", "parse", "parse_sentence",
    "resolve", "serialize",
]
