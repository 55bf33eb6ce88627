"""The lark LALR parser (built once per process) and the segment-level parse entry point."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from .keys import GRAMMAR_PATH
from .lexer import LexError, TokenListLexer, tokenize

if TYPE_CHECKING:
    from .context import Ctx

START_SYMBOLS = ("trigger", "ability", "prefix", "condition", "poll_manip")

_LOWER_WORDS = frozenset(
    "from to by through during at as for with value while in is not has lacks exists part of and or "
    "always".split()
)
_NO_SPACE_BEFORE = frozenset({"ANN", "POSS", "COMMA", "RPAR", "PLUS", "SLASH"})
_NO_SPACE_AFTER = frozenset({"LPAR", "PLUS", "SLASH", "BANG"})


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser over the word-level token stream (cached: built once, ~0.1 s)."""
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer=TokenListLexer,
                start=list(START_SYMBOLS), maybe_placeholders=False)


class SegmentError(Exception):
    """A syntax error in a segment: message, 1-based columns, the failing token (if any)."""

    def __init__(self, message: str, col: int, end_col: int, code: str = "WW102",
                 token: Token | None = None, first: bool = False, expected: frozenset[str] = frozenset()) -> None:
        super().__init__(message)
        self.message = message
        self.col = col
        self.end_col = end_col
        self.code = code
        self.token = token
        self.first = first
        self.expected = expected
        self.known: list[str] | None = None
        self.name: str | None = None


_DESCRIBE = {"BT": "`text`", "SEL": "selector", "HOST": "%host info%", "VAR": "$variable",
             "NUMBER": "number", "ANN": "[type]", "PGROUP": "(list)", "DUR": "(~duration)",
             "FILTER": "[filter]", "LPAR": "'('", "RPAR": "')'", "PLUS": "'+'", "SLASH": "'/'",
             "POSS": "'s", "ARROW": "⇒", "BANG": "'!'", "GT": "'>'", "LT": "'<'", "WORD": "word",
             "$END": "end of text"}


def describe_expected(expected: frozenset[str]) -> list[str]:
    """Readable names of the terminals the parser could have accepted."""
    out = []
    for term in sorted(expected):
        if term in _DESCRIBE:
            out.append(_DESCRIBE[term])
        elif term.isupper():
            out.append("Pre-End" if term == "PRE_END" else term.capitalize() if term.lower() not in _LOWER_WORDS else term.lower())
    return sorted(set(out))


_END = Token("$END", "", 0, 1, 1)


@lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict, dict, dict, type]:
    """Lark's LALR tables and tree-building callbacks, for the lean driver below.

    Each reduce action's rule is paired with its length, plain-str origin and callback, so the
    driver does no attribute lookups or Token comparisons per step."""
    from lark.parsers.lalr_analysis import Shift

    inner = parser().parser.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
    table = inner.parse_table
    states: dict = {}
    for st, actions in table.states.items():
        row = {}
        for term, (action, arg) in actions.items():
            if action is Shift:
                row[str(term)] = (True, arg)
            else:
                row[str(term)] = (False, (len(arg.expansion), str(arg.origin.name), inner.callbacks[arg]))
        states[st] = row
    return states, table.start_states, table.end_states, {}, Shift


def _drive(tokens: list[Token], start: str) -> Tree:
    """The LALR(1) loop of lark (same tables, same callbacks) without its per-token call overhead."""
    states, starts, ends, _, _ = _tables()
    end_state = ends[start]
    state_stack = [starts[start]]
    value_stack: list = []
    for tok in [*tokens, _END]:
        ttype = tok.type
        while True:
            try:
                is_shift, arg = states[state_stack[-1]][ttype]
            except KeyError:
                expected = {s for s in states[state_stack[-1]] if s.isupper()}
                raise UnexpectedToken(tok, expected) from None
            if is_shift:
                state_stack.append(arg)
                value_stack.append(tok)
                break
            size, origin, callback = arg
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value = callback(children)
            _, new_state = states[state_stack[-1]][origin]
            state_stack.append(new_state)
            value_stack.append(value)
            if ttype == "$END" and state_stack[-1] == end_state:
                return value_stack[-1]
    raise UnexpectedToken(_END, set())  # pragma: no cover - $END always reduces or fails above


def parse_tokens(tokens: list[Token], start: str, end_col: int) -> Tree:
    try:
        return _drive(tokens, start)
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            last = tokens[-1] if tokens else None
            col = (last.end_column if last is not None else end_col) or end_col
            raise SegmentError("unexpected end of text", col, col + 1, token=None,
                               expected=frozenset(exc.expected)) from None
        first = bool(tokens) and tok is tokens[0]
        where = f"'{tok}'"
        raise SegmentError(f"unexpected {where}", tok.column or 1, tok.end_column or (tok.column or 1) + 1,
                           token=tok, first=first, expected=frozenset(exc.expected)) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        raise SegmentError(str(exc).splitlines()[0], 1, 2) from None


def lex(text: str, col: int, ctx: "Ctx | None" = None) -> list[Token]:
    """Tokenize a segment; with ``ctx``, also report unknown names among its tokens."""
    try:
        tokens = tokenize(text, col)
    except LexError as exc:
        raise SegmentError(exc.message, exc.col, exc.end_col, exc.code) from None
    if ctx is not None:
        from .values import check_tokens

        check_tokens(tokens, ctx)
    return tokens


def canonical_word(tok: Token) -> str:
    word = str(tok)
    if tok.type == "PRE_END":
        return "Pre-End"
    low = word.lower()
    if low in _LOWER_WORDS:
        return low
    return low[:1].upper() + low[1:]


def render_tokens(tokens: list[Token]) -> str:
    """Canonical text of a token list: single spaces, canonical keyword case."""
    from .values import split_list

    out: list[str] = []
    prev: str | None = None
    for tok in tokens:
        t = tok.type
        if t in ("BT", "SEL", "HOST", "VAR", "NUMBER", "DUR", "FILTER", "LPAR", "RPAR", "PLUS",
                 "SLASH", "POSS", "ARROW", "BANG", "GT", "LT", "COMMA", "WORD"):
            text = str(tok)
            if t == "DUR":
                text = "(" + text[1:-1].strip() + ")"
            elif t == "ARROW":
                text = "⇒"
            elif t == "FILTER":
                text = "[" + text[1:-1].strip() + "]"
        elif t == "PGROUP":
            text = "(" + ", ".join(split_list(str(tok)[1:-1])) + ")"
        elif t == "ANN":
            text = "[" + str(tok)[1:-1].strip().lower() + "]"
        else:
            text = canonical_word(tok)
        if out and t not in _NO_SPACE_BEFORE and prev not in _NO_SPACE_AFTER:
            out.append(" ")
        out.append(text)
        prev = t
    return "".join(out)
