"""Tokens of one AIWolf sentence, with 1-based columns.

Spaces and tabs separate tokens and are dropped. ``Agent[NN]``, parentheses and numbers are tokens
of their own, so a subject may touch its verb (``Agent[01]VOTE``) and groups may touch (``(A)(B)``).
Every other run of letters, digits, ``_``, ``:`` and a bracketed tail is one word; the parser says
what is wrong with a word it does not know. Any other character is an error (AW101).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .diagnostics import SentenceDiags

Kind = Literal["agent", "lp", "rp", "num", "word"]

_TOKEN = re.compile(
    r"(?P<space>[ \t]+)"
    r"|(?P<agent>Agent\[(?P<digits>[0-9]+)\])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<num>[0-9]+)(?![A-Za-z_:\[])"
    r"|(?P<word>[A-Za-z0-9_:]+(?:\[[^\]\s()]*\]?)?)"
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str
    col: int  # 1-based
    end: int  # exclusive
    digits: str = ""  # the digits of an Agent[..] token


def tokenize(text: str, diags: SentenceDiags) -> list[Token] | None:
    """The tokens of ``text``, or None after reporting the first character no token can start with."""
    out: list[Token] = []
    i, n = 0, len(text)
    match = _TOKEN.match
    while i < n:
        m = match(text, i)
        if m is None:
            ch = text[i]
            what = repr(ch) if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
            notes = ("sentences use only spaces and tabs as blanks",) if ch.isspace() else ()
            diags.error("AW101", f"unexpected character {what}", i + 1, i + 2, notes)
            return None
        kind = m.lastgroup  # the outer group: "agent", not its inner "digits"
        if kind != "space":
            out.append(Token(kind, m.group(), i + 1, m.end() + 1, m.group("digits") or ""))  # type: ignore[arg-type]
        i = m.end()
    return out
