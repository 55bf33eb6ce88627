"""The lark LALR parser (built once per process) and the segment-level parse entry point."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from .keys import GRAMMAR_PATH
from .lexer import LexError, TokenListLexer, tokenize
from .values import check_tokens, split_list

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


class _Tree(Tree):
    """A lark Tree with slots (no per-node ``__dict__``): the driver builds many small trees."""

    __slots__ = ("data", "children", "_meta")


@lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict, dict]:
    """Lark's LALR tables and tree-building callbacks, for the lean driver below.

    Each state maps a terminal name to either the next state (an ``int``: shift) or a reduce tuple
    ``(length, plain-str origin, rule name or None, callback or None)``. Rules whose callback is
    lark's plain ``Tree(name, children)`` are built inline with a plain-``str`` rule name (lark
    would use a ``Token('RULE', name)``, whose ``__eq__`` is slow); other callbacks (child filters
    for inlined ``_rules``) are kept, with the same plain-``str`` node builder."""
    import copy
    from functools import partial

    from lark.parsers.lalr_analysis import Shift

    inner = parser().parser.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
    table = inner.parse_table

    def plain(cb: object) -> tuple[str | None, object]:
        if isinstance(cb, partial) and cb.func is Tree and len(cb.args) == 1 and not cb.keywords:
            return str(cb.args[0]), None
        builder = getattr(cb, "node_builder", None)
        if isinstance(builder, partial) and builder.func is Tree and len(builder.args) == 1 and not builder.keywords:
            cb = copy.copy(cb)
            cb.node_builder = partial(_Tree, str(builder.args[0]))  # type: ignore[attr-defined]
        return None, cb

    # the driver tells a shift (next state) from a reduce (tuple) by type: lark numbers its states
    if not all(type(st) is int for st in table.states):  # pragma: no cover - lark's IntParseTable
        raise RuntimeError("unexpected lark parse table: states are not numbered")
    states: dict = {}
    for st, actions in table.states.items():
        row = {}
        for term, (action, arg) in actions.items():
            if action is Shift:
                row[str(term)] = arg
            else:
                name, cb = plain(inner.callbacks[arg])
                row[str(term)] = (len(arg.expansion), str(arg.origin.name), name, cb)
        states[st] = row
    return states, table.start_states, table.end_states


#: (start symbol, token types) → the driver's actions on that input: ``None`` (shift the next token)
#: or a reduce tuple. The actions of an LALR parser depend only on the terminal sequence, so a
#: recorded run rebuilds the same tree for any tokens of the same types (segments of one shape,
#: e.g. ``Kill @Selection``/``Kill @Target``, share one entry). Bounded; inputs that fail to parse
#: are not recorded.
_ACTIONS: dict[tuple, list] = {}
_ACTIONS_MAX = 8192


def clear_memos() -> None:
    """Empty the memo of parse actions (benchmarks call this to time first loads)."""
    _ACTIONS.clear()


def _drive(tokens: list[Token], start: str) -> Tree:
    """The LALR(1) loop of lark (same tables, same trees) without its per-token call overhead."""
    key = (start, *[t.type for t in tokens])
    ops = _ACTIONS.get(key)
    if ops is not None:
        return _replay(ops, tokens)
    ops = []
    record = ops.append
    states, starts, ends = _tables()
    end_state = ends[start]
    state = starts[start]
    row = states[state]
    state_stack = [state]
    value_stack: list = []
    push_state = state_stack.append
    push_value = value_stack.append
    new_tree = object.__new__
    for tok in tokens:
        ttype = tok.type
        while True:
            act = row.get(ttype)
            if act is None:
                raise UnexpectedToken(tok, {s for s in row if s.isupper()})
            if act.__class__ is int:
                push_state(act)
                push_value(tok)
                row = states[act]
                record(None)
                break
            record(act)
            size, origin, name, callback = act
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            if callback is None:  # Tree(name, children) without the __init__ call
                node = new_tree(_Tree)
                node.data = name
                node.children = children
                node._meta = None
                push_value(node)
            else:
                push_value(callback(children))
            state = states[state_stack[-1]][origin]
            push_state(state)
            row = states[state]
    # end of input: reduce until the start symbol's end state
    while True:
        act = row.get("$END")
        if act is None:
            raise UnexpectedToken(_END, {s for s in row if s.isupper()})
        if act.__class__ is int:  # pragma: no cover - lark never shifts $END
            raise UnexpectedToken(_END, set())
        record(act)
        size, origin, name, callback = act
        if size:
            children = value_stack[-size:]
            del state_stack[-size:]
            del value_stack[-size:]
        else:
            children = []
        if callback is None:
            node = new_tree(_Tree)
            node.data = name
            node.children = children
            node._meta = None
            push_value(node)
        else:
            push_value(callback(children))
        state = states[state_stack[-1]][origin]
        push_state(state)
        if state == end_state:
            if len(_ACTIONS) >= _ACTIONS_MAX:
                _ACTIONS.clear()
            _ACTIONS[key] = ops
            return value_stack[-1]
        row = states[state]


def _replay(ops: list, tokens: list[Token]) -> Tree:
    """Rebuild the tree of a recorded parse (see ``_ACTIONS``) over ``tokens``."""
    value_stack: list = []
    push_value = value_stack.append
    new_tree = object.__new__
    k = 0
    for act in ops:
        if act is None:
            push_value(tokens[k])
            k += 1
            continue
        size = act[0]
        if size:
            children = value_stack[-size:]
            del value_stack[-size:]
        else:
            children = []
        callback = act[3]
        if callback is None:
            node = new_tree(_Tree)
            node.data = act[2]
            node.children = children
            node._meta = None
            push_value(node)
        else:
            push_value(callback(children))
    return value_stack[-1]


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
        check_tokens(tokens, ctx)
    return tokens


_CANONICAL: dict[tuple[str, str], str] = {}
_VERBATIM = frozenset({"BT", "SEL", "HOST", "VAR", "NUMBER", "LPAR", "RPAR", "PLUS", "SLASH", "POSS", "BANG",
                       "GT", "LT", "COMMA", "WORD"})


def canonical_word(tok: Token) -> str:
    word = str(tok)
    key = (tok.type, word)
    try:
        return _CANONICAL[key]
    except KeyError:
        pass
    if tok.type == "PRE_END":
        out = "Pre-End"
    else:
        low = word.lower()
        out = low if low in _LOWER_WORDS else low[:1].upper() + low[1:]
    if len(_CANONICAL) >= 65536:
        _CANONICAL.clear()
    _CANONICAL[key] = out
    return out


def render_tokens(tokens: list[Token]) -> str:
    """Canonical text of a token list: single spaces, canonical keyword case."""
    out: list[str] = []
    prev: str | None = None
    for tok in tokens:
        t = tok.type
        if t in _VERBATIM:
            text = str(tok)
        elif t == "DUR":
            text = "(" + str(tok)[1:-1].strip() + ")"
        elif t == "ARROW":
            text = "⇒"
        elif t == "FILTER":
            text = "[" + str(tok)[1:-1].strip() + "]"
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
