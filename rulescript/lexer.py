"""Context-aware tokenizers for RuleScript values.

RuleScript has three lexical modes (``rulescript.md`` section 2): the statement layer of ``action``
and ``auto`` values, target filters, and expressions.  In a filter, ``kung-fu`` is one word and ``<2>``
a quantity; in an expression ``-`` is always minus and ``<`` a comparison.  Each tokenizer here yields
:class:`Token` objects for one mode, so that one LALR grammar (``rulescript.lark``) can parse all
of them without a lexer of its own.  Token positions are offsets into the value text; the caller adds
a base offset for text that came from inside another value.

Nested text whose meaning depends on a command signature (command arguments, target clauses, the
inside of ``[[if …]]``) is returned as a single raw token, to be tokenized later in the right mode.
"""

from __future__ import annotations

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

    A plain ``str`` subclass with slots: lighter than lark's own token class, and all the LALR driver in
    rulescript.parser needs.  ``line`` and ``end_line`` hold the offsets of a guard's ``[[``/``]]``.
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


def _tok(kind: str, value: str, start: int, end: int) -> Token:
    return Token(kind, value, start, end)


def find_closing(text: str, start: int, opener: str) -> int:
    """Index of the bracket closing ``text[start]`` (an opener), honouring nesting and quotes."""
    closer = CLOSERS[opener]
    stack = [closer]
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", i, n, (ch,))
            i = j + 1
            continue
        if ch in CLOSERS:
            stack.append(CLOSERS[ch])
        elif ch in ")]}":
            if ch != stack[-1]:
                raise LexError(f"unexpected '{ch}'", i, i + 1, (f"'{stack[-1]}'",))
            stack.pop()
            if not stack:
                return i
        i += 1
    raise LexError(f"unbalanced '{opener}': missing '{closer}'", start, start + 1, (f"'{closer}'",))


def split_top_level(text: str, sep: str, base: int = 0) -> list[tuple[str, int]]:
    """Split at ``sep`` characters that are outside brackets and quotes; returns (piece, offset)."""
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


def find_top_level(text: str, needle: str) -> int:
    """Index of the first ``needle`` outside brackets and quotes, or -1."""
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
_GUARD_HEAD = re.compile(r"\s*([A-Za-z]+)\b\s*")
CLAUSE_WORDS = frozenset({"to", "target", "from"})


def _find_guard_end(text: str, start: int) -> int:
    """Given ``text[start:start+2] == '[['``, the index of the closing ``]]`` at list depth 0."""
    i = start + 2
    n = len(text)
    depth = 0
    while i < n:
        ch = text[i]
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", i, n, (ch,))
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "]":
            if depth == 0 and text.startswith("]]", i):
                return i
            depth -= 1
        i += 1
    raise LexError("unbalanced '[[': missing ']]'", start, start + 2, ("']]'",))


def tokenize_statements(text: str, base: int = 0, allow_trigger: bool = False) -> list[Token]:
    """Tokens of an ``action``/``auto`` value (or an ``each`` chain)."""
    toks: list[Token] = []
    i = _WS.match(text, 0).end()
    n = len(text)
    if allow_trigger and i < n and text[i] in "~?":
        delim = text[i]
        j = text.find(delim, i + 1)
        if j < 0:
            raise LexError(f"unterminated trigger: missing closing '{delim}'", base + i, base + i + 1,
                           (f"'{delim}'",))
        toks.append(_tok("TRIGGER", text[i + 1:j], base + i + 1, base + j))
        i = j + 1
    while True:
        i = _WS.match(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if ch == "{":
            j = find_closing(text, i, "{")
            toks.append(_tok("COST", text[i + 1:j], base + i + 1, base + j))
            i = j + 1
        elif ch == "[" and text.startswith("[[", i):
            j = _find_guard_end(text, i)
            inner = text[i + 2:j]
            m = _GUARD_HEAD.match(inner)
            head = m.group(1).lower() if m else ""
            kind = {"may": "G_MAY", "if": "G_IF", "elif": "G_ELIF", "else": "G_ELSE"}.get(head)
            if kind is None:
                word = m.group(1) if m else inner.strip()[:1]
                off = base + i + 2 + (m.start(1) if m else 0)
                raise LexError(f"unknown condition '{word}'", off, off + max(1, len(word)),
                               ("'may'", "'if'", "'elif'", "'else'"))
            content_start = i + 2 + m.end()
            guard = _tok(kind, text[content_start:j], base + content_start, base + j)
            guard.line = base + i  # where '[[' stands: guards are reported from there
            guard.end_line = base + j + 2
            toks.append(guard)
            i = j + 2
        elif ch == ";":
            toks.append(_tok("SEMI", ";", base + i, base + i + 1))
            i += 1
        elif ch == ":":
            toks.append(_tok("COLON", ":", base + i, base + i + 1))
            i += 1
        elif ch == "&":
            if text.startswith("&&", i):
                toks.append(_tok("ANDAND", "&&", base + i, base + i + 2))
                i += 2
            else:
                toks.append(_tok("AMP", "&", base + i, base + i + 1))
                i += 1
        elif ch == "|" and text.startswith("||", i):
            toks.append(_tok("OROR", "||", base + i, base + i + 2))
            i += 2
        elif ch in "+-" and i + 1 < n and (_is_letter(text[i + 1]) or text[i + 1] == "_"):
            m = _WORD.match(text, i + 1)
            assert m is not None
            toks.append(_tok("ABILITY", text[i:m.end()], base + i, base + m.end()))
            i = m.end()
        elif _is_letter(ch) or ch == "_":
            m = _WORD.match(text, i)
            assert m is not None
            word = m.group(0)
            j = m.end()
            if word.startswith("__"):
                raise LexError(f"'{word}': names beginning with '__' are reserved", base + i, base + j, code="RS106")
            k = _WS.match(text, j).end()
            q = None
            if k < n and text[k] == "?":
                q = k
                k = _WS.match(text, k + 1).end()
            if k < n and text[k] == "(":
                close = find_closing(text, k, "(")
                kind = "CLAUSE" if word.lower() in CLAUSE_WORDS else "CALL"
                toks.append(_tok(kind, word, base + i, base + j))
                if q is not None:
                    toks.append(_tok("QMARK", "?", base + q, base + q + 1))
                toks.append(_tok("ARGS", text[k + 1:close], base + k + 1, base + close))
                i = close + 1
            else:
                if q is not None:
                    raise LexError("'?' must be followed by an argument list", base + q, base + q + 1, ("'('",))
                toks.append(_tok("WORD", word, base + i, base + j))
                i = j
        elif ch in ")]}":
            raise LexError(f"unexpected '{ch}'", base + i, base + i + 1)
        elif ch in "'\"":
            j = text.find(ch, i + 1)
            end = n if j < 0 else j + 1
            raise LexError("unexpected string here: strings go inside an argument list", base + i, base + end)
        else:
            raise LexError(f"unexpected character '{ch}'", base + i, base + i + 1)
    return toks


# ---------------------------------------------------------------------------------------------------
# filters

_FWORD = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")
_FINT = re.compile(r"\d+")
_CMP = ("==", "!=", "<=", ">=", "<", ">", "=")
_CMP_TOKENS = {"==": "EQ", "=": "EQ", "!=": "NE", "<=": "LE", ">=": "GE", "<": "LT", ">": "GT"}


def tokenize_filter(text: str, base: int = 0, allow_andand: bool = False) -> list[Token]:
    """Tokens of a filter list (``;``-separated) or, with ``allow_andand``, of a requisite."""
    toks: list[Token] = []
    i = 0
    n = len(text)
    depth = 0  # inside [ ]
    while True:
        i = _WS.match(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + n, (ch,))
            if depth == 0 and j + 1 < n and text[j + 1] in "sS" and not (
                    j + 2 < n and (_is_letter(text[j + 2]) or _is_digit(text[j + 2]) or text[j + 2] == "_")):
                toks.append(_tok("QPLURAL", text[i + 1:j], base + i, base + j + 2))
                i = j + 2
            else:
                toks.append(_tok("STRING", text[i + 1:j], base + i, base + j + 1))
                i = j + 1
        elif ch == "<" and depth == 0:
            j = text.find(">", i + 1)
            if j < 0:
                raise LexError("unbalanced '<': missing '>'", base + i, base + i + 1, ("'>'",))
            toks.append(_tok("ANGLE", text[i + 1:j], base + i, base + j + 1))
            i = j + 1
        elif ch == "*":
            if depth == 0 and text.startswith("*s", i) and not (i + 2 < n and _is_word_char(text[i + 2])):
                toks.append(_tok("STARS", "*s", base + i, base + i + 2))
                i += 2
            elif depth == 0 and text.startswith("*S", i) and not (i + 2 < n and _is_word_char(text[i + 2])):
                toks.append(_tok("STARS", "*s", base + i, base + i + 2))
                i += 2
            else:
                toks.append(_tok("STAR", "*", base + i, base + i + 1))
                i += 1
        elif ch == "[":
            depth += 1
            toks.append(_tok("LSQB", "[", base + i, base + i + 1))
            i += 1
        elif ch == "]":
            depth -= 1
            toks.append(_tok("RSQB", "]", base + i, base + i + 1))
            i += 1
        elif ch == "@":
            toks.append(_tok("AT", "@", base + i, base + i + 1))
            i += 1
        elif ch == ":":
            if text.startswith("::", i):
                toks.append(_tok("DCOLON", "::", base + i, base + i + 2))
                i += 2
                i = _WS.match(text, i).end()
                m = _FWORD.match(text, i)
                if m:
                    toks.append(_tok("WORD", m.group(0), base + i, base + m.end()))
                    i = _WS.match(text, m.end()).end()
                    if i < n and text[i] == "(":
                        close = find_closing(text, i, "(")
                        toks.append(_tok("SELARG", text[i + 1:close], base + i + 1, base + close))
                        i = close + 1
            else:
                toks.append(_tok("COLON", ":", base + i, base + i + 1))
                i += 1
        elif ch == ";":
            toks.append(_tok("SEMI", ";", base + i, base + i + 1))
            i += 1
        elif ch == ",":
            toks.append(_tok("COMMA", ",", base + i, base + i + 1))
            i += 1
        elif ch == "&":
            if text.startswith("&&", i):
                if not allow_andand:
                    raise LexError("unexpected '&&' in target filter", base + i, base + i + 2, ("'&'", "','"))
                toks.append(_tok("ANDAND", "&&", base + i, base + i + 2))
                i += 2
            else:
                toks.append(_tok("AMP", "&", base + i, base + i + 1))
                i += 1
        elif ch == "^":
            toks.append(_tok("CARET", "^", base + i, base + i + 1))
            i += 1
        elif ch == "!" and not text.startswith("!=", i):
            toks.append(_tok("BANG", "!", base + i, base + i + 1))
            i += 1
        elif depth > 0 and ch in "<>=!":
            for op in _CMP:
                if text.startswith(op, i):
                    toks.append(_tok(_CMP_TOKENS[op], op, base + i, base + i + len(op)))
                    i += len(op)
                    break
            else:  # pragma: no cover - every character above starts an operator
                raise LexError(f"unexpected character '{ch}'", base + i)
        elif ch == "+":
            toks.append(_tok("PLUS", "+", base + i, base + i + 1))
            i += 1
        elif ch == "-":
            toks.append(_tok("MINUS", "-", base + i, base + i + 1))
            i += 1
        elif _is_digit(ch) and depth > 0 and toks and toks[-1].type in ("EQ", "NE", "LE", "GE", "LT", "GT",
                                                                         "PLUS", "MINUS"):
            m = _FINT.match(text, i)
            assert m is not None
            if len(m.group(0)) > MAX_DIGITS:
                raise LexError(f"integer literal too long (more than {MAX_DIGITS} digits)", base + i, base + m.end())
            toks.append(_tok("INT", m.group(0), base + i, base + m.end()))
            i = m.end()
        elif _is_letter(ch) or _is_digit(ch) or ch == "_":
            m = _FWORD.match(text, i)
            assert m is not None
            if m.group(0).startswith("__"):
                raise LexError(f"'{m.group(0)}': names beginning with '__' are reserved", base + i, base + m.end(),
                               code="RS106")
            toks.append(_tok("WORD", m.group(0), base + i, base + m.end()))
            i = m.end()
        elif ch == ">":
            raise LexError("unexpected '>' in target filter", base + i, base + i + 1)
        else:
            raise LexError(f"unexpected '{ch}' in target filter", base + i, base + i + 1)
    return toks


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
    """At an ``all``/``any`` followed by '(', decide whether it is a quantifier (rulescript.md 3.2.4)."""
    close = find_closing(text, i, "(")
    k = _WS.match(text, close + 1).end()
    m = _IDENT.match(text, k)
    return bool(m and m.group(0).lower() == "in")


def tokenize_expr(text: str, base: int = 0) -> list[Token]:
    """Tokens of an expression (``rulescript.md`` section 8.2)."""
    n = len(text)
    if n > MAX_EXPR_LENGTH:
        raise LexError(f"expression too long ({n} characters; the limit is {MAX_EXPR_LENGTH})",
                       base, base + 1, code="RS107")
    toks: list[Token] = []
    i = 0
    while True:
        i = _WS.match(text, i).end()
        if i >= n:
            break
        ch = text[i]
        if _is_letter(ch) or ch == "_":
            m = _IDENT.match(text, i)
            assert m is not None
            word = m.group(0)
            end = m.end()
            if word.startswith("__"):
                raise LexError(f"'{word}': names beginning with '__' are reserved", base + i, base + end,
                               code="RS106")
            if toks and toks[-1].type == "DOT":
                if word.startswith("_"):
                    raise LexError(f"attribute '{word}': attribute names may not begin with '_'",
                                   base + i, base + end, code="RS106")
                toks.append(_tok("NAME", word, base + i, base + end))
                i = end
                continue
            low = word.lower()
            if low in ("all", "any"):
                k = _WS.match(text, end).end()
                if k < n and text[k] == "(" and not _quantifier_kind(text, k, n):
                    toks.append(_tok("NAME", word, base + i, base + end))
                else:
                    toks.append(_tok("QALL" if low == "all" else "QANY", word, base + i, base + end))
                i = end
                continue
            if low == "not":
                k = _WS.match(text, end).end()
                m2 = _IDENT.match(text, k)
                if m2 and m2.group(0).lower() == "in":
                    toks.append(_tok("NOTIN", text[i:m2.end()], base + i, base + m2.end()))
                    i = m2.end()
                    continue
            kind = _KEYWORDS.get(low, "NAME")
            toks.append(_tok(kind, word, base + i, base + end))
            i = end
        elif _is_digit(ch):
            m = _DIGITS.match(text, i)
            assert m is not None
            end = m.end()
            if toks and toks[-1].type == "DOT":
                toks.append(_tok("DIGITS", m.group(0), base + i, base + end))
            else:
                if end < n and text[end] == "." and end + 1 < n and _is_digit(text[end + 1]):
                    raise LexError("floating-point literals are not supported", base + i,
                                   base + _DIGITS.match(text, end + 1).end(), code="RS401")
                if end < n and (_is_letter(text[end]) or text[end] == "_"):
                    raise LexError("invalid number literal", base + i, base + end + 1)
                if end - i > MAX_DIGITS:
                    raise LexError(f"integer literal too long (more than {MAX_DIGITS} digits)", base + i, base + end)
                toks.append(_tok("INT", m.group(0), base + i, base + end))
            i = end
        elif ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", base + i, base + n, (ch,))
            toks.append(_tok("STRING", text[i + 1:j], base + i, base + j + 1))
            i = j + 1
        elif ch in _OP_FIRST:
            for op, kind in _OPS:
                if text.startswith(op, i):
                    toks.append(_tok(kind, op, base + i, base + i + len(op)))
                    i += len(op)
                    break
            else:
                raise LexError(_FORBIDDEN_OPS.get(ch, f"unexpected character '{ch}'"), base + i, base + i + 1)
        else:
            msg = _FORBIDDEN_OPS.get(ch, f"unexpected character '{ch}' in expression")
            raise LexError(msg, base + i, base + i + 1, code="RS101")
    return toks


def iter_words(text: str) -> Iterator[tuple[str, int, int]]:
    for m in _WORD.finditer(text):
        yield m.group(0), m.start(), m.end()
