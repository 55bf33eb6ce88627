"""Context-aware tokenizers for RuleScript values.

RuleScript has three lexical modes (``docs/language.md`` section 2): the statement layer of ``action``
and ``auto`` values, target filters, and expressions.  In a filter, ``kung-fu`` is one word and ``<2>``
a quantity; in an expression ``-`` is always minus and ``<`` a comparison.  Each tokenizer here yields
:class:`Token` objects for one mode, so that one LALR grammar (``rulescript.lark``) can parse all
of them without a lexer of its own.  Token positions are offsets into the value text; the caller adds
a base offset for text that came from inside another value.

Nested text whose meaning depends on a command signature (command arguments, target clauses, the
inside of ``[[if …]]``) is returned as a single raw token, to be tokenized later in the right mode.
"""

from __future__ import annotations

import itertools
import re
from typing import Iterator

CLOSERS = {"(": ")", "[": "]", "{": "}"}


MAX_DIGITS = 15  # longer integer literals are refused (and Python refuses to convert 4,300+ digits)


def _is_letter(ch: str) -> bool:
    """An ASCII letter: RuleScript words and names are ASCII (non-ASCII text belongs in strings)."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _is_word_char(ch: str) -> bool:
    return _is_letter(ch) or _is_digit(ch) or ch == "_"


class LexError(Exception):
    """A malformed value: message, offending range and (optionally) what was expected."""

    def __init__(self, message: str, start: int, end: int | None = None,
                 expected: tuple[str, ...] = (), code: str = "RS101") -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end if end is not None else start + 1
        self.expected = expected
        self.code = code


class Token(str):
    """A token: its text, its terminal name (``type``) and its offsets in the value.

    The public tokenizers (:func:`tokenize_statements`, :func:`tokenize_filter`, :func:`tokenize_expr`)
    return these.  The compiler itself works on the plain tuples of :func:`lex_statements`,
    :func:`lex_filter` and :func:`lex_expr` (``(type, text, start, end)``, plus ``line`` and
    ``end_line`` for guards), which are several times cheaper to make.  ``line`` and ``end_line`` hold
    the offsets of a guard's ``[[``/``]]``.
    """

    __slots__ = ("type", "start_pos", "end_pos", "line", "end_line")

    def __new__(cls, type_: str, value: str, start_pos: int = 0, end_pos: int = 0) -> "Token":
        self = str.__new__(cls, value)
        self.type = type_
        self.start_pos = start_pos
        self.end_pos = end_pos
        self.line = start_pos
        self.end_line = end_pos
        return self

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


# A lexical token as the compiler uses it: (type, text, start, end) or, for a guard,
# (type, text, start, end, line, end_line).
Tok = tuple


def to_token(t: Tok) -> Token:
    """The :class:`Token` of a token tuple."""
    tok = Token(t[0], t[1], t[2], t[3])
    if len(t) > 4:
        tok.line = t[4]
        tok.end_line = t[5]
    return tok


_SPECIAL = re.compile(r"[()\[\]{}'\"]")  # brackets and quotes


def find_closing(text: str, start: int, opener: str) -> int:
    """Index of the bracket closing ``text[start]`` (an opener), honouring nesting and quotes."""
    closer = CLOSERS[opener]
    search = _SPECIAL.search
    m = search(text, start + 1)
    if m is not None and m.group() == closer:  # nothing nested: the first bracket or quote closes
        return m.start()
    stack = [closer]
    while m is not None:
        ch = m.group()
        i = m.start()
        if ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", i, len(text), (ch,))
            m = search(text, j + 1)
            continue
        if ch in CLOSERS:
            stack.append(CLOSERS[ch])
        else:
            if ch != stack[-1]:
                raise LexError(f"unexpected '{ch}'", i, i + 1, (f"'{stack[-1]}'",))
            stack.pop()
            if not stack:
                return i
        m = search(text, i + 1)
    raise LexError(f"unbalanced '{opener}': missing '{closer}'", start, start + 1, (f"'{closer}'",))


def _balanced(levels: int) -> str:
    """A regex for text whose brackets nest properly, at most ``levels`` deep, with quoted strings
    skipped as find_closing skips them.  Right after an opener, it matches exactly the text up to the
    bracket find_closing returns; deeper or broken text does not match, and the callers fall back to
    the exact scanners.  Possessive quantifiers (no backtracking) keep a failed match linear, and the
    loop is unrolled (a run of plain text, then (a nested part, a run of plain text) repeated): sre
    goes round it once per nested part instead of once per piece."""
    run = r"[^()\[\]{}'\"]*+"
    quoted = r"'[^']*+'|\"[^\"]*+\""
    inner = f"{run}(?:(?:{quoted}){run})*+"
    for _ in range(levels):
        nested = "|".join(rf"\{o}{inner}\{c}" for o, c in ("()", "[]", "{}"))
        inner = f"{run}(?:(?:{quoted}|{nested}){run})*+"
    return inner


# bracketed text nested up to three levels deep inside the outer brackets: '(x[a::f(y)])'
_BALANCED = _balanced(3)


_SPLIT_RES: dict[str, re.Pattern[str]] = {}


def split_top_level(text: str, sep: str, base: int = 0) -> list[tuple[str, int]]:
    """Split at ``sep`` characters that are outside brackets and quotes; returns (piece, offset)."""
    if len(sep) == 1 and _SPECIAL.search(text) is None:  # no brackets or quotes (the common case)
        if sep not in text:
            return [(text, base)]
        parts = []
        for piece in text.split(sep):
            parts.append((piece, base))
            base += len(piece) + 1
        return parts
    rx = _SPLIT_RES.get(sep)
    if rx is None:
        if len(sep) != 1 or sep in "()[]{}'\"":  # never a separator: the plain scan decides
            return _split_top_level_slow(text, sep, base)
        rx = _SPLIT_RES[sep] = re.compile("[()\\[\\]{}'\"" + re.escape(sep) + "]")
    search = rx.search
    m = search(text)
    if m is None:
        return [(text, base)]
    parts: list[tuple[str, int]] = []
    depth = 0
    last = 0
    while m is not None:
        ch = m.group()
        i = m.start()
        if ch == sep:
            if depth == 0:
                parts.append((text[last:i], base + last))
                last = i + 1
        elif ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + len(text), (ch,))
            m = search(text, j + 1)
            continue
        elif ch in "([{":
            depth += 1
        else:
            depth -= 1
        m = search(text, i + 1)
    parts.append((text[last:], base + last))
    return parts


def _split_top_level_slow(text: str, sep: str, base: int = 0) -> list[tuple[str, int]]:
    parts: list[tuple[str, int]] = []
    depth = 0
    last = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + n, (ch,))
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append((text[last:i], base + last))
            last = i + 1
        i += 1
    parts.append((text[last:], base + last))
    return parts


_FIND_RES: dict[str, re.Pattern[str]] = {}


def find_top_level(text: str, needle: str) -> int:
    """Index of the first ``needle`` outside brackets and quotes, or -1."""
    rx = _FIND_RES.get(needle)
    if rx is None:
        if not needle or any(c in "()[]{}'\"" for c in needle):
            return _find_top_level_slow(text, needle)
        rx = _FIND_RES[needle] = re.compile("[()\\[\\]{}'\"]|" + re.escape(needle))
    search = rx.search
    m = search(text)
    depth = 0
    while m is not None:
        ch = m.group()
        i = m.start()
        if ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                return -1
            m = search(text, j + 1)
            continue
        if ch == needle:
            if depth == 0:
                return i
            # a needle inside brackets: look again from its second character, as a scan would
        elif ch in "([{":
            depth += 1
        else:
            depth -= 1
        m = search(text, i + 1)
    return -1


def _find_top_level_slow(text: str, needle: str) -> int:
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(needle, i):
            return i
        i += 1
    return -1


# ---------------------------------------------------------------------------------------------------
# statement layer

_WS = re.compile(r"\s*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
# a word, then (after blanks) an optional '?' and an optional '(' that makes it a command or a clause
_WORD_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)(?:\s*(\?))?\s*(\()?")
_GUARD_HEAD = re.compile(r"\s*([A-Za-z]+)\b\s*")
_GUARD_KINDS = {"may": "G_MAY", "if": "G_IF", "elif": "G_ELIF", "else": "G_ELSE"}
CLAUSE_WORDS = frozenset({"to", "target", "from"})
# the clause words in every letter case: the fast path looks a word up without making its lower case
_CLAUSE_SPELLINGS = frozenset("".join(letters) for word in CLAUSE_WORDS
                              for letters in itertools.product(*({c, c.upper()} for c in word)))
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD_START = _LETTERS | {"_"}
_DIGITS_SET = frozenset("0123456789")
_WORD_CHARS = _WORD_START | _DIGITS_SET


def _find_guard_end(text: str, start: int) -> int:
    """Given ``text[start:start+2] == '[['``, the index of the closing ``]]`` at list depth 0."""
    depth = 0
    search = _SPECIAL.search
    m = search(text, start + 2)
    while m is not None:
        ch = m.group()
        i = m.start()
        if ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", i, len(text), (ch,))
            m = search(text, j + 1)
            continue
        if ch in "([{":
            depth += 1
        elif ch == "]":
            if depth == 0 and text.startswith("]]", i):
                return i
            depth -= 1
        else:
            depth -= 1
        m = search(text, i + 1)
    raise LexError("unbalanced '[[': missing ']]'", start, start + 2, ("']]'",))


_STMT_OPS = {";": "SEMI", "&&": "ANDAND", "&": "AMP", ":": "COLON", "||": "OROR"}
# _WORD without backtracking (the same words: nothing after a word ever needs a shorter one)
_SCAN_WORD = r"[A-Za-z_][A-Za-z0-9_]*+(?:-[A-Za-z0-9_]++)*+"
# One pass of C code cuts a statement list into (blanks, word, the blanks, '?' and '(' between a word and
# its argument list, the inside of that list, the keyword of a [[guard]] with the blanks around it, the
# inside of the guard after them, anything else): the fast path of lex_statements and of
# rulescript.compiler.parser._fast_outline.  'Anything else' is an operator, a {cost}, a +ability or -ability, or
# one other character (a stray bracket, a quote, '__x', a guard without a keyword, deeper nesting …),
# which sends the text to the character-by-character scanner below, which reports the exact error.
# (Few groups: findall makes a string for every group of every match; '(?:x|)' is cheaper than '(?:x)?'.)
_STMT_SCAN = re.compile(
    r"(\s*)(?:"
    rf"((?!__){_SCAN_WORD})(?:(\s*(?:\?\s*|)\()({_BALANCED})\)|)"  # word, '?', (argument list)
    rf"|\[\[(\s*[A-Za-z]+\b\s*)({_BALANCED})\]\]"  # [[guard]]: as _GUARD_HEAD cuts it
    r"|(;|&&?|:|\|\|"  # operator
    rf"|\{{{_BALANCED}\}}"  # {cost}
    rf"|[+-]{_SCAN_WORD}"  # +ability, -ability
    r"|\S))")  # anything else
# the guard kinds by the keyword as the scan cuts it, blanks included, in the usual spellings
_GUARD_HEADS = {word + blank: kind for word, kind in _GUARD_KINDS.items() for blank in ("", " ")}


def guard_kind(head: str) -> str | None:
    """The kind of the guard whose keyword (with the blanks around it) is ``head``, if it has one."""
    kind = _GUARD_HEADS.get(head)
    return kind if kind is not None else _GUARD_KINDS.get(head.strip().lower())


def lex_statements(text: str, base: int = 0, allow_trigger: bool = False) -> list[Tok]:
    """Token tuples of an ``action``/``auto`` value (or an ``each`` chain)."""
    toks: list[Tok] = []
    append = toks.append
    i = len(text) - len(text.lstrip())  # (lstrip and \s agree on what is blank)
    if allow_trigger and i < len(text) and text[i] in "~?":
        j = text.find(text[i], i + 1)
        if j < 0:
            return _lex_statements_scan(text, base, allow_trigger)
        append(("TRIGGER", text[i + 1:j], base + i + 1, base + j))
        i = j + 1
    pos = base + i
    for blanks, word, head, args, guard_head, guard, other in _STMT_SCAN.findall(text, i):
        pos += len(blanks)
        if word:
            end = pos + len(word)
            if not head:
                append(("WORD", word, pos, end))
                pos = end
                continue
            append(("CLAUSE" if word in _CLAUSE_SPELLINGS else "CALL", word, pos, end))
            if "?" in head:
                q = end + head.index("?")
                append(("QMARK", "?", q, q + 1))
            start = end + len(head)
            pos = start + len(args)
            append(("ARGS", args, start, pos))
            pos += 1
            continue
        if guard_head:
            kind = guard_kind(guard_head)
            if kind is None:
                return _lex_statements_scan(text, base, allow_trigger)
            start = pos + 2 + len(guard_head)
            end = start + len(guard)
            append((kind, guard, start, end, pos, end + 2))
            pos = end + 2
            continue
        kind = _STMT_OPS.get(other)
        if kind is not None:
            append((kind, other, pos, pos + len(other)))
        elif len(other) == 1:  # one other character
            return _lex_statements_scan(text, base, allow_trigger)
        elif other[0] == "{":
            append(("COST", other[1:-1], pos + 1, pos + len(other) - 1))
        else:  # +ability, -ability
            append(("ABILITY", other, pos, pos + len(other)))
        pos += len(other)
    return toks


def _lex_statements_scan(text: str, base: int, allow_trigger: bool) -> list[Tok]:
    """lex_statements, one character decision at a time: every error, and deeply nested text."""
    toks: list[Tok] = []
    append = toks.append
    ws = _WS.match
    i = ws(text, 0).end()
    n = len(text)
    if allow_trigger and i < n and text[i] in "~?":
        delim = text[i]
        j = text.find(delim, i + 1)
        if j < 0:
            raise LexError(f"unterminated trigger: missing closing '{delim}'", base + i, base + i + 1,
                           (f"'{delim}'",))
        append(("TRIGGER", text[i + 1:j], base + i + 1, base + j))
        i = j + 1
    word_call = _WORD_CALL.match
    while True:
        i = ws(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if ch in _WORD_START:
            m = word_call(text, i)
            word = m.group(1)
            j = m.end(1)
            if word[:2] == "__":
                raise LexError(f"'{word}': names beginning with '__' are reserved", base + i, base + j, code="RS106")
            q = m.start(2)
            k = m.start(3)
            if k >= 0:
                close = find_closing(text, k, "(")
                append(("CLAUSE" if word.lower() in CLAUSE_WORDS else "CALL", word, base + i, base + j))
                if q >= 0:
                    append(("QMARK", "?", base + q, base + q + 1))
                append(("ARGS", text[k + 1:close], base + k + 1, base + close))
                i = close + 1
            else:
                if q >= 0:
                    raise LexError("'?' must be followed by an argument list", base + q, base + q + 1, ("'('",))
                append(("WORD", word, base + i, base + j))
                i = j
        elif ch == ";":
            append(("SEMI", ";", base + i, base + i + 1))
            i += 1
        elif ch == "{":
            j = find_closing(text, i, "{")
            append(("COST", text[i + 1:j], base + i + 1, base + j))
            i = j + 1
        elif ch == "[" and text.startswith("[[", i):
            j = _find_guard_end(text, i)
            inner = text[i + 2:j]
            m = _GUARD_HEAD.match(inner)
            head = m.group(1).lower() if m else ""
            kind = _GUARD_KINDS.get(head)
            if kind is None:
                word = m.group(1) if m else inner.strip()[:1]
                off = base + i + 2 + (m.start(1) if m else 0)
                raise LexError(f"unknown condition '{word}'", off, off + max(1, len(word)),
                               ("'may'", "'if'", "'elif'", "'else'"))
            content_start = i + 2 + m.end()
            # guards are reported from where '[[' stands: (line, end_line) hold the offsets of '[[' and ']]'
            append((kind, text[content_start:j], base + content_start, base + j, base + i, base + j + 2))
            i = j + 2
        elif ch == "&":
            if text.startswith("&&", i):
                append(("ANDAND", "&&", base + i, base + i + 2))
                i += 2
            else:
                append(("AMP", "&", base + i, base + i + 1))
                i += 1
        elif ch == ":":
            append(("COLON", ":", base + i, base + i + 1))
            i += 1
        elif ch == "|" and text.startswith("||", i):
            append(("OROR", "||", base + i, base + i + 2))
            i += 2
        elif (ch == "+" or ch == "-") and i + 1 < n and text[i + 1] in _WORD_START:
            m = _WORD.match(text, i + 1)
            assert m is not None
            append(("ABILITY", text[i:m.end()], base + i, base + m.end()))
            i = m.end()
        elif ch in ")]}":
            raise LexError(f"unexpected '{ch}'", base + i, base + i + 1)
        elif ch in "'\"":
            j = text.find(ch, i + 1)
            end = n if j < 0 else j + 1
            raise LexError("unexpected string here: strings go inside an argument list", base + i, base + end)
        else:
            raise LexError(f"unexpected character '{ch}'", base + i, base + i + 1)
    return toks


def tokenize_statements(text: str, base: int = 0, allow_trigger: bool = False) -> list[Token]:
    """Tokens of an ``action``/``auto`` value (or an ``each`` chain)."""
    return [to_token(t) for t in lex_statements(text, base, allow_trigger)]


# ---------------------------------------------------------------------------------------------------
# filters

_FWORD = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")
_FINT = re.compile(r"\d+")
_CMP = ("==", "!=", "<=", ">=", "<", ">", "=")
_CMP_TOKENS = {"==": "EQ", "=": "EQ", "!=": "NE", "<=": "LE", ">=": "GE", "<": "LT", ">": "GT"}
_INT_AFTER = frozenset({"EQ", "NE", "LE", "GE", "LT", "GT", "PLUS", "MINUS"})


def lex_filter(text: str, base: int = 0, allow_andand: bool = False) -> list[Tok]:
    """Token tuples of a filter list (``;``-separated) or, with ``allow_andand``, of a requisite.

    The compiler reads the common filters without tokens (rulescript.compiler.parser._fast_filters); this scan,
    one character decision at a time, serves the others and reports every lexical error."""
    toks: list[Tok] = []
    append = toks.append
    ws = _WS.match
    fword = _FWORD.match
    i = 0
    n = len(text)
    depth = 0  # inside [ ]
    while True:
        i = ws(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if ch in _WORD_START:  # no branch below takes a letter or '_'
            m = fword(text, i)
            word = m.group()
            if word[:2] == "__":
                raise LexError(f"'{word}': names beginning with '__' are reserved", base + i, base + m.end(),
                               code="RS106")
            append(("WORD", word, base + i, base + m.end()))
            i = m.end()
        elif ch == "[":
            depth += 1
            append(("LSQB", "[", base + i, base + i + 1))
            i += 1
        elif ch == "]":
            depth -= 1
            append(("RSQB", "]", base + i, base + i + 1))
            i += 1
        elif ch == "@":
            append(("AT", "@", base + i, base + i + 1))
            i += 1
        elif ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + n, (ch,))
            if depth == 0 and j + 1 < n and text[j + 1] in "sS" and not (j + 2 < n and text[j + 2] in _WORD_CHARS):
                append(("QPLURAL", text[i + 1:j], base + i, base + j + 2))
                i = j + 2
            else:
                append(("STRING", text[i + 1:j], base + i, base + j + 1))
                i = j + 1
        elif ch == "<" and depth == 0:
            j = text.find(">", i + 1)
            if j < 0:
                raise LexError("unbalanced '<': missing '>'", base + i, base + i + 1, ("'>'",))
            append(("ANGLE", text[i + 1:j], base + i, base + j + 1))
            i = j + 1
        elif ch == "*":
            if depth == 0 and text[i + 1:i + 2] in ("s", "S") and not (i + 2 < n and text[i + 2] in _WORD_CHARS):
                append(("STARS", "*s", base + i, base + i + 2))
                i += 2
            else:
                append(("STAR", "*", base + i, base + i + 1))
                i += 1
        elif ch == ":":
            if text.startswith("::", i):
                append(("DCOLON", "::", base + i, base + i + 2))
                i += 2
                i = ws(text, i).end()
                m = fword(text, i)
                if m:
                    append(("WORD", m.group(0), base + i, base + m.end()))
                    i = ws(text, m.end()).end()
                    if i < n and text[i] == "(":
                        close = find_closing(text, i, "(")
                        append(("SELARG", text[i + 1:close], base + i + 1, base + close))
                        i = close + 1
            else:
                append(("COLON", ":", base + i, base + i + 1))
                i += 1
        elif ch == ";":
            append(("SEMI", ";", base + i, base + i + 1))
            i += 1
        elif ch == ",":
            append(("COMMA", ",", base + i, base + i + 1))
            i += 1
        elif ch == "&":
            if text.startswith("&&", i):
                if not allow_andand:
                    raise LexError("unexpected '&&' in target filter", base + i, base + i + 2, ("'&'", "','"))
                append(("ANDAND", "&&", base + i, base + i + 2))
                i += 2
            else:
                append(("AMP", "&", base + i, base + i + 1))
                i += 1
        elif ch == "^":
            append(("CARET", "^", base + i, base + i + 1))
            i += 1
        elif ch == "!" and not text.startswith("!=", i):
            append(("BANG", "!", base + i, base + i + 1))
            i += 1
        elif depth > 0 and ch in "<>=!":
            for op in _CMP:
                if text.startswith(op, i):
                    append((_CMP_TOKENS[op], op, base + i, base + i + len(op)))
                    i += len(op)
                    break
            else:  # pragma: no cover - every character above starts an operator
                raise LexError(f"unexpected character '{ch}'", base + i)
        elif ch == "+":
            append(("PLUS", "+", base + i, base + i + 1))
            i += 1
        elif ch == "-":
            append(("MINUS", "-", base + i, base + i + 1))
            i += 1
        elif ch in _DIGITS_SET:
            if depth > 0 and toks and toks[-1][0] in _INT_AFTER:
                m = _FINT.match(text, i)
                assert m is not None
                if len(m.group(0)) > MAX_DIGITS:
                    raise LexError(f"integer literal too long (more than {MAX_DIGITS} digits)", base + i,
                                   base + m.end())
                append(("INT", m.group(0), base + i, base + m.end()))
                i = m.end()
            else:
                m = fword(text, i)
                append(("WORD", m.group(), base + i, base + m.end()))
                i = m.end()
        elif ch == ">":
            raise LexError("unexpected '>' in target filter", base + i, base + i + 1)
        else:
            raise LexError(f"unexpected '{ch}' in target filter", base + i, base + i + 1)
    return toks


def tokenize_filter(text: str, base: int = 0, allow_andand: bool = False) -> list[Token]:
    """Tokens of a filter list (``;``-separated) or, with ``allow_andand``, of a requisite."""
    return [to_token(t) for t in lex_filter(text, base, allow_andand)]


# ---------------------------------------------------------------------------------------------------
# expressions

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = re.compile(r"\d+")
_KEYWORDS = {
    "and": "KW_AND", "or": "KW_OR", "not": "KW_NOT", "in": "KW_IN", "if": "KW_IF", "else": "KW_ELSE",
    "true": "TRUE", "false": "FALSE", "nil": "NIL", "none": "NIL",
}
_OPS = [
    ("**", "POW"), ("//", "DSLASH"), ("==", "EQ"), ("!=", "NE"), ("<=", "LE"), (">=", "GE"),
    (":=", "WALRUS"), ("=>", "ARROW"), ("<", "LT"), (">", "GT"), ("+", "PLUS"), ("-", "MINUS"),
    ("*", "STAR"), ("/", "SLASH"), ("%", "PERCENT"), ("(", "LPAR"), (")", "RPAR"), ("[", "LSQB"),
    ("]", "RSQB"), (",", "COMMA"), (".", "DOT"), (";", "SEMI"),
]
_OP_FIRST = {op[0] for op, _ in _OPS}
_OP_RE = re.compile("|".join(re.escape(op) for op, _ in _OPS))  # the first operator that matches, in order
_OP_KINDS = dict(_OPS)
_FORBIDDEN_OPS = {
    "=": "assignment is not allowed in an expression (use == to compare)",
    "|": "bitwise operators are not allowed",
    "^": "bitwise operators are not allowed",
    "~": "bitwise operators are not allowed",
    "&": "bitwise operators are not allowed (use 'and')",
    "{": "dict and set displays are not allowed",
    "}": "dict and set displays are not allowed",
    ":": "':' is not allowed here (no lambdas, slices or dicts)",
    "@": "'@' is not allowed in an expression",
    "`": "backticks are not allowed",
    "\\": "backslashes are not allowed",
    "$": "'$' is not allowed in an expression",
}
MAX_EXPR_LENGTH = 2000


def _quantifier_kind(text: str, i: int, n: int) -> bool:
    """At an ``all``/``any`` followed by '(', decide whether it is a quantifier (docs/language.md 8.7)."""
    close = find_closing(text, i, "(")
    k = _WS.match(text, close + 1).end()
    m = _IDENT.match(text, k)
    return bool(m and m.group(0).lower() == "in")


# The fast path of lex_expr: one pass of C code cuts an expression into (blanks, token) pairs.  Only
# well-formed tokens match: a number that is not followed by '.', a letter or more digits (a float, a
# bad literal or one too long), a name not starting with '__', a string with its closing quote, an
# operator other than '.', or '.' glued to the attribute name or index after it ('.hand', '.0', the
# commonest use of '.', cut in one piece).  Anything else (a lone '.', an error …) matches nothing,
# findall skips it, and lex_expr sees that the pieces do not cover the text: the character-by-character
# scanner below then decides, and reports the exact error.  (After a skip, the offsets lex_expr counts
# no longer line up with the text, so what it reads there ahead of a piece is wrong; it must only not
# fail, as its tokens are thrown away.)
_EXPR_SCAN = re.compile(
    r"(\s*)((?!__)[A-Za-z_][A-Za-z0-9_]*|[0-9]\d{0,%d}+(?![\d.A-Za-z_])|\.[A-Za-z][A-Za-z0-9_]*|\.[0-9]\d*"
    r"|'[^']*'|\"[^\"]*\"|%s)" % (MAX_DIGITS - 1, "|".join(re.escape(op) for op, _ in _OPS if op != ".")))
# the kind of every token that has one whatever comes around it: operators and lower-case keywords
_FIXED_KINDS = {**{kw: kind for kw, kind in _KEYWORDS.items() if kw != "not"}, **_OP_KINDS}
# the words that are not names, in any case: keywords, and 'all'/'any' when they start a quantifier
SPECIAL_WORDS = frozenset(_KEYWORDS) | {"all", "any"}


def lex_expr(text: str, base: int = 0) -> list[Tok]:
    """Token tuples of an expression (``docs/language.md`` section 8.2)."""
    n = len(text)
    if n > MAX_EXPR_LENGTH:
        raise LexError(f"expression too long ({n} characters; the limit is {MAX_EXPR_LENGTH})",
                       base, base + 1, code="RS107")
    toks: list[Tok] = []
    append = toks.append
    fixed = _FIXED_KINDS
    pos = base
    pairs = iter(_EXPR_SCAN.findall(text))
    for blanks, tok in pairs:
        if blanks:
            pos += len(blanks)
        end = pos + len(tok)
        kind = fixed.get(tok)
        if kind is None:
            c = tok[0]
            if c in _WORD_START:
                kind = "NAME"
                low = tok.lower()
                if low in SPECIAL_WORDS:
                    kind = _special_word_kind(text, low, end - base, n)
                    if kind is None:
                        return _lex_expr_scan(text, base)
                    if kind == "NOTIN":  # 'not', blanks and 'in': one token
                        end += sum(map(len, next(pairs, ())))
                        tok = text[pos - base:end - base]
            elif c == ".":  # '.name' or '.digits'
                append(("DOT", ".", pos, pos + 1))
                pos += 1
                tok = tok[1:]
                kind = "NAME" if tok[0] in _WORD_START else "DIGITS"
            elif c in _DIGITS_SET:
                kind = "INT"
            else:  # a string
                append(("STRING", tok[1:-1], pos, end))
                pos = end
                continue
        append((kind, tok, pos, end))
        pos = end
    if pos - base != len(text.rstrip()):  # findall skipped something
        return _lex_expr_scan(text, base)
    return toks


def _special_word_kind(text: str, low: str, i: int, n: int) -> str | None:
    """The kind of the keyword, 'all' or 'any' ``low`` that ends at ``text[i]``: NOTIN for a 'not' that
    'in' follows; or None where only the scanner can tell (unbalanced text after 'all(')."""
    kind = _KEYWORDS.get(low)
    if kind == "KW_NOT":
        m = _IDENT.match(text, _WS.match(text, i).end())
        return "NOTIN" if m and m.group().lower() == "in" else kind
    if kind is not None:
        return kind
    k = _WS.match(text, i).end()
    try:
        if k < n and text[k] == "(" and not _quantifier_kind(text, k, n):
            return "NAME"
    except LexError:
        return None
    return "QALL" if low == "all" else "QANY"


def _lex_expr_scan(text: str, base: int = 0) -> list[Tok]:
    """lex_expr, one character decision at a time: every error, and the rarer tokens."""
    n = len(text)
    toks: list[Tok] = []
    append = toks.append
    ws = _WS.match
    ident = _IDENT.match
    op_match = _OP_RE.match
    keywords = _KEYWORDS
    prev = ""  # the type of the previous token
    i = 0
    while True:
        i = ws(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if ch in _WORD_START:
            m = ident(text, i)
            word = m.group()
            end = m.end()
            if word[:2] == "__":
                raise LexError(f"'{word}': names beginning with '__' are reserved", base + i, base + end,
                               code="RS106")
            if prev == "DOT":
                if ch == "_":
                    raise LexError(f"attribute '{word}': attribute names may not begin with '_'",
                                   base + i, base + end, code="RS106")
                append(("NAME", word, base + i, base + end))
                prev = "NAME"
                i = end
                continue
            low = word.lower()
            kind = keywords.get(low, "NAME")
            if kind == "NAME":
                if low == "all" or low == "any":
                    k = ws(text, end).end()
                    if k < n and text[k] == "(" and not _quantifier_kind(text, k, n):
                        kind = "NAME"
                    else:
                        kind = "QALL" if low == "all" else "QANY"
            elif kind == "KW_NOT":
                k = ws(text, end).end()
                m2 = ident(text, k)
                if m2 and m2.group().lower() == "in":
                    append(("NOTIN", text[i:m2.end()], base + i, base + m2.end()))
                    prev = "NOTIN"
                    i = m2.end()
                    continue
            append((kind, word, base + i, base + end))
            prev = kind
            i = end
        elif ch in _DIGITS_SET:
            m = _DIGITS.match(text, i)
            end = m.end()
            if prev == "DOT":
                append(("DIGITS", m.group(), base + i, base + end))
                prev = "DIGITS"
            else:
                if end < n:
                    nxt = text[end]
                    if nxt == "." and end + 1 < n and text[end + 1] in _DIGITS_SET:
                        raise LexError("floating-point literals are not supported", base + i,
                                       base + _DIGITS.match(text, end + 1).end(), code="RS401")
                    if nxt in _WORD_START:
                        raise LexError("invalid number literal", base + i, base + end + 1)
                if end - i > MAX_DIGITS:
                    raise LexError(f"integer literal too long (more than {MAX_DIGITS} digits)", base + i, base + end)
                append(("INT", m.group(), base + i, base + end))
                prev = "INT"
            i = end
        elif ch in _OP_FIRST:
            m = op_match(text, i)
            if m is None:
                raise LexError(_FORBIDDEN_OPS.get(ch, f"unexpected character '{ch}'"), base + i, base + i + 1)
            op = m.group()
            prev = _OP_KINDS[op]
            append((prev, op, base + i, base + i + len(op)))
            i += len(op)
        elif ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + n, (ch,))
            append(("STRING", text[i + 1:j], base + i, base + j + 1))
            prev = "STRING"
            i = j + 1
        else:
            msg = _FORBIDDEN_OPS.get(ch, f"unexpected character '{ch}' in expression")
            raise LexError(msg, base + i, base + i + 1, code="RS101")
    return toks


def tokenize_expr(text: str, base: int = 0) -> list[Token]:
    """Tokens of an expression (``docs/language.md`` section 8.2)."""
    return [to_token(t) for t in lex_expr(text, base)]


def iter_words(text: str) -> Iterator[tuple[str, int, int]]:
    for m in _WORD.finditer(text):
        yield m.group(0), m.start(), m.end()
