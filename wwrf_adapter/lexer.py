"""Word-level tokenizer for one WWRF line segment.

It emits whole values as single tokens (backtick strings, selectors with their ``->`` chains, host
information, variables, numbers, durations), verb-dependent parenthesised lists as one ``PGROUP``
token and each keyword word as its own terminal, so that phrases such as ``Role Change`` and
``Change `A` value`` never collide at the character level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from lark import Token
from lark.lexer import Lexer

from .keys import keyword_terminal

_COND_OPENERS = {None, "NOT", "AND", "OR", "LPAR"}
_WORD = re.compile(r"[^\W\d]\w*(?:-[^\W_]\w*)*")
_SINGLE = {",": "COMMA", "+": "PLUS", "!": "BANG", ">": "GT", "<": "LT", "/": "SLASH"}


def _tok(kind: str, value: str, start: int, col: int, end_col: int) -> Token:
    """Build a lark Token without its (comparatively slow) constructor."""
    t = str.__new__(Token, value)
    t.type = kind
    t.value = value
    t.start_pos = start
    t.line = 1
    t.column = col
    t.end_line = 1
    t.end_column = end_col
    t.end_pos = start + len(value)
    return t


class LexError(Exception):
    """A tokenization problem at a 1-based column of the physical line."""

    def __init__(self, message: str, col: int, end_col: int | None = None, code: str = "WW101") -> None:
        super().__init__(message)
        self.message = message
        self.col = col
        self.end_col = end_col if end_col is not None else col + 1
        self.code = code


@dataclass(frozen=True, slots=True)
class _Scan:
    text: str
    base: int  # 1-based column of text[0] on the physical line


def _is_word_start(ch: str) -> bool:
    return ch.isalpha() or ch == "_"


def _match_close(text: str, start: int, open_ch: str, close_ch: str, base: int) -> int:
    """Index of the bracket closing ``text[start]``, honouring nesting and backtick strings."""
    depth = 0
    i = start
    in_bt = False
    while i < len(text):
        ch = text[i]
        if ch == "`":
            in_bt = not in_bt
        elif not in_bt:
            if ch == open_ch:
                depth += 1
            elif ch == close_ch:
                depth -= 1
                if depth == 0:
                    return i
        i += 1
    raise LexError(f"unbalanced '{open_ch}': no closing '{close_ch}'", base + start, base + len(text))


def _selector_end(text: str, i: int, base: int) -> int:
    """End index (exclusive) of a selector starting at ``text[i]`` (a sigil)."""
    sigil = text[i]
    j = i + 1
    if j < len(text) and text[j] == "(" and sigil in "@&^":
        j = _match_close(text, j, "(", ")", base) + 1
    else:
        start = j
        while j < len(text):
            ch = text[j]
            if ch.isalnum() or ch == "_":
                j += 1
            elif sigil == "#" and ch == "'" and j + 1 < len(text) and text[j + 1].isalnum():
                j += 1
            elif sigil == "#" and ch == "-" and not text.startswith("->", j) and j + 1 < len(text) and text[j + 1].isalnum():
                j += 1
            elif sigil == "@" and ch == ":" and text[start:j] == "ID":
                j += 1
            else:
                break
        if j == start:
            raise LexError(f"'{sigil}' must be followed by a name", base + i, base + j + 1, "WW102")
    while text.startswith("->", j):
        k = j + 2
        start = k
        while k < len(text) and (text[k].isalnum() or text[k] == "_"):
            k += 1
        if k == start:
            raise LexError("'->' must be followed by a property name", base + j, base + j + 2, "WW102")
        if k < len(text) and text[k] == "(":
            k = _match_close(text, k, "(", ")", base) + 1
        j = k
    return j


def tokenize(text: str, base: int = 1) -> list[Token]:
    """Split ``text`` (a segment whose first character sits at column ``base``) into tokens."""
    toks: list[Token] = []
    parens: list[int] = []
    i = 0
    n = len(text)

    def add(kind: str, start: int, end: int) -> None:
        toks.append(_tok(kind, text[start:end], start, base + start, base + end))

    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if _is_word_start(ch):
            m = _WORD.match(text, i)
            j = m.end() if m else i + 1
            word = text[i:j]
            add(keyword_terminal(word) or "WORD", i, j)
            i = j
            continue
        prev_type = toks[-1].type if toks else None
        attached = i > 0 and not text[i - 1].isspace()
        if ch == "`":
            j = text.find("`", i + 1)
            if j < 0:
                raise LexError("unterminated backtick string", base + i, base + n)
            add("BT", i, j + 1)
            i = j + 1
        elif ch in "@&^#":
            j = _selector_end(text, i, base)
            add("SEL", i, j)
            i = j
        elif ch == "%":
            j = text.find("%", i + 1)
            if j < 0:
                raise LexError("unterminated host information '%…%'", base + i, base + n)
            add("HOST", i, j + 1)
            i = j + 1
        elif ch == "$":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if j == i + 1:
                raise LexError("'$' must be followed by a variable name", base + i, base + i + 1, "WW102")
            add("VAR", i, j)
            i = j
        elif ch == "(":
            k = i + 1
            while k < n and text[k] == " ":
                k += 1
            if k < n and text[k] == "~":
                j = _match_close(text, i, "(", ")", base)
                add("DUR", i, j + 1)
                i = j + 1
            elif prev_type in _COND_OPENERS:
                parens.append(i)
                add("LPAR", i, i + 1)
                i += 1
            else:
                j = _match_close(text, i, "(", ")", base)
                add("PGROUP", i, j + 1)
                i = j + 1
        elif ch == ")":
            if not parens:
                raise LexError("unbalanced ')'", base + i)
            parens.pop()
            add("RPAR", i, i + 1)
            i += 1
        elif ch == "[":
            j = _match_close(text, i, "[", "]", base)
            add("ANN" if attached and prev_type is not None else "FILTER", i, j + 1)
            i = j + 1
        elif ch in "]}⟩|{⟨":
            raise LexError(f"unexpected '{ch}'", base + i)
        elif ch == "⇒":
            add("ARROW", i, i + 1)
            i += 1
        elif text.startswith("=>", i):
            add("ARROW", i, i + 2)
            i += 2
        elif ch == "'" and text.startswith("'s", i) and (i + 2 >= n or not text[i + 2].isalnum()):
            add("POSS", i, i + 2)
            i += 2
        elif ch.isdigit() or (ch == "-" and i + 1 < n and text[i + 1].isdigit() and not attached):
            j = i + 1
            while j < n and (text[j].isdigit() or (text[j] == "." and j + 1 < n and text[j + 1].isdigit())):
                j += 1
            add("NUMBER", i, j)
            i = j
        else:
            if ch in _SINGLE:
                add(_SINGLE[ch], i, i + 1)
                i += 1
            else:
                raise LexError(f"unexpected character '{ch}'", base + i)
    if parens:
        raise LexError("unbalanced '(': no closing ')'", base + parens[-1])
    return toks


class TokenListLexer(Lexer):
    """Lark lexer adapter: the "text" handed to lark is already a list of tokens."""

    def __init__(self, lexer_conf: object) -> None:  # noqa: D401 - lark API
        pass

    def lex(self, data: object) -> Iterator[Token]:  # type: ignore[override]
        assert isinstance(data, list)
        return iter(data)
