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

from .keys import _KW_CACHE, keyword_terminal

_COND_OPENERS = {None, "NOT", "AND", "OR", "LPAR"}
_WORD_SPACE = re.compile(r"([^\W\d]\w*(?:-[^\W_]\w*)*) ?")
_MISSING = object()
_NAME_CHARS = re.compile(r"\w*").match
_BRACKET_SCAN: dict = {}
_SINGLE = {",": "COMMA", "+": "PLUS", "!": "BANG", ">": "GT", "<": "LT", "/": "SLASH"}


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


def match_close(text: str, start: int, open_ch: str, close_ch: str, base: int) -> int:
    """Index of the bracket closing ``text[start]``, honouring nesting and backtick strings."""
    depth = 0
    in_bt = False
    scan = _BRACKET_SCAN.get(open_ch + close_ch)
    if scan is None:
        scan = _BRACKET_SCAN[open_ch + close_ch] = re.compile("[`" + re.escape(open_ch) + re.escape(close_ch) + "]").finditer
    for m in scan(text, start):  # only backticks and this bracket pair matter
        ch = m.group()
        if ch == "`":
            in_bt = not in_bt
        elif not in_bt:
            if ch == open_ch:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return m.start()
    raise LexError(f"unbalanced '{open_ch}': no closing '{close_ch}'", base + start, base + len(text))


def _selector_end(text: str, i: int, base: int) -> int:
    """End index (exclusive) of a selector starting at ``text[i]`` (a sigil)."""
    sigil = text[i]
    j = i + 1
    if j < len(text) and text[j] == "(" and sigil in "@&^":
        j = match_close(text, j, "(", ")", base) + 1
    else:
        start = j
        n = len(text)
        while j < n:
            j = _NAME_CHARS(text, j).end()  # \w is exactly str.isalnum() or "_"
            if j >= n:
                break
            ch = text[j]
            if sigil == "#" and ch == "'" and j + 1 < len(text) and text[j + 1].isalnum():
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
        k = _NAME_CHARS(text, k).end()
        if k == start:
            raise LexError("'->' must be followed by a property name", base + j, base + j + 2, "WW102")
        if k < len(text) and text[k] == "(":
            k = match_close(text, k, "(", ")", base) + 1
        j = k
    return j


def _token(kind: str, text: str, start: int, end: int, base: int) -> Token:
    """A lark Token for ``text[start:end]`` without its (comparatively slow) constructor."""
    value = text[start:end]
    t = str.__new__(Token, value)
    t.type = kind
    t.value = value
    t.start_pos = start
    t.line = 1
    t.column = base + start
    t.end_line = 1
    t.end_column = base + end
    t.end_pos = end
    return t


def tokenize(text: str, base: int = 1) -> list[Token]:
    """Split ``text`` (a segment whose first character sits at column ``base``) into tokens."""
    toks: list[Token] = []
    parens: list[int] = []
    i = 0
    n = len(text)
    new = str.__new__
    kw_cache = _KW_CACHE
    word_match = _WORD_SPACE.match
    prev_type: str | None = None

    while i < n:
        ch = text[i]
        if ch == " ":
            i += 1
            continue
        if ch.isalpha() or ch == "_":
            m = word_match(text, i)  # the word and one following space (skipped without a loop turn)
            j = m.end(1)
            word = text[i:j]
            kind = kw_cache.get(word, _MISSING)
            if kind is _MISSING:
                kind = keyword_terminal(word)
            # _token() inlined: words are most of the tokens
            t = new(Token, word)
            t.type = prev_type = kind or "WORD"
            t.value = word
            t.start_pos = i
            t.line = 1
            t.column = base + i
            t.end_line = 1
            t.end_column = base + j
            t.end_pos = j
            toks.append(t)
            i = m.end()
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == "`":
            j = text.find("`", i + 1)
            if j < 0:
                raise LexError("unterminated backtick string", base + i, base + n)
            prev_type = "BT"
            toks.append(_token(prev_type, text, i, j + 1, base))
            i = j + 1
        elif ch in "@&^#":
            j = _selector_end(text, i, base)
            prev_type = "SEL"
            toks.append(_token(prev_type, text, i, j, base))
            i = j
        elif ch == "%":
            j = text.find("%", i + 1)
            if j < 0:
                raise LexError("unterminated host information '%…%'", base + i, base + n)
            prev_type = "HOST"
            toks.append(_token(prev_type, text, i, j + 1, base))
            i = j + 1
        elif ch == "$":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if j == i + 1:
                raise LexError("'$' must be followed by a variable name", base + i, base + i + 1, "WW102")
            prev_type = "VAR"
            toks.append(_token(prev_type, text, i, j, base))
            i = j
        elif ch == "(":
            k = i + 1
            while k < n and text[k] == " ":
                k += 1
            if k < n and text[k] == "~":
                j = match_close(text, i, "(", ")", base)
                prev_type = "DUR"
                toks.append(_token(prev_type, text, i, j + 1, base))
                i = j + 1
            elif prev_type in _COND_OPENERS:
                parens.append(i)
                prev_type = "LPAR"
                toks.append(_token(prev_type, text, i, i + 1, base))
                i += 1
            else:
                j = match_close(text, i, "(", ")", base)
                prev_type = "PGROUP"
                toks.append(_token(prev_type, text, i, j + 1, base))
                i = j + 1
        elif ch == ")":
            if not parens:
                raise LexError("unbalanced ')'", base + i)
            parens.pop()
            prev_type = "RPAR"
            toks.append(_token(prev_type, text, i, i + 1, base))
            i += 1
        elif ch == "[":
            j = match_close(text, i, "[", "]", base)
            attached = i > 0 and not text[i - 1].isspace()
            prev_type = "ANN" if attached and prev_type is not None else "FILTER"
            toks.append(_token(prev_type, text, i, j + 1, base))
            i = j + 1
        elif ch in "]}⟩|{⟨":
            raise LexError(f"unexpected '{ch}'", base + i)
        elif ch == "⇒":
            prev_type = "ARROW"
            toks.append(_token(prev_type, text, i, i + 1, base))
            i += 1
        elif text.startswith("=>", i):
            prev_type = "ARROW"
            toks.append(_token(prev_type, text, i, i + 2, base))
            i += 2
        elif ch == "'" and text.startswith("'s", i) and (i + 2 >= n or not text[i + 2].isalnum()):
            prev_type = "POSS"
            toks.append(_token(prev_type, text, i, i + 2, base))
            i += 2
        elif ch.isdigit() or (ch == "-" and i + 1 < n and text[i + 1].isdigit() and not (i > 0 and not text[i - 1].isspace())):
            j = i + 1
            while j < n and (text[j].isdigit() or (text[j] == "." and j + 1 < n and text[j + 1].isdigit())):
                j += 1
            prev_type = "NUMBER"
            toks.append(_token(prev_type, text, i, j, base))
            i = j
        else:
            if ch in _SINGLE:
                prev_type = _SINGLE[ch]
                toks.append(_token(prev_type, text, i, i + 1, base))
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
