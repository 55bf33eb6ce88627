"""Parsing RuleScript values: tokens (rulescript.lexer) → lark LALR → typed AST (rulescript.ast).

One :class:`lark.Lark` instance, built once per process, makes the LALR(1) table of every kind of value
(one start symbol each).  A small driver runs that table over the token tuples of rulescript.lexer and
calls one callback per reduction, which builds the AST node directly: no lark tree is made.  Every failure is raised as :class:`rulescript.lexer.LexError` with offsets into the
value text and the tokens that were expected.
"""

from __future__ import annotations

from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable

import lark
from lark.lexer import Lexer

from rulescript import ast as A
from rulescript.lexer import LexError, Tok, Token, lex_expr, lex_filter, lex_statements, to_token

GRAMMAR_FILE = Path(__file__).with_name("rulescript.lark")
START_SYMBOLS = ["action_value", "auto_value", "chain_value", "filter_list", "requisite_value",
                 "vars_value", "each_head", "expr"]
MAX_DEPTH = 64

_TERMINAL_NAMES = {
    "TRIGGER": "a trigger (~event~)", "COST": "a cost ({F}, {S}, {D})", "COLON": "':'", "SEMI": "';'",
    "G_MAY": "'[[may]]'", "G_IF": "'[[if …]]'", "G_ELIF": "'[[elif …]]'", "G_ELSE": "'[[else]]'",
    "AMP": "'&'", "ANDAND": "'&&'", "OROR": "'||'", "ABILITY": "'+ability' or '-ability'",
    "CALL": "a command", "CLAUSE": "'to(…)'", "QMARK": "'?'", "ARGS": "an argument list", "WORD": "a word",
    "ANGLE": "'<…>'", "STAR": "'*'", "STARS": "'*s'", "STRING": "a string", "QPLURAL": "a quoted name",
    "CARET": "'^'", "BANG": "'!'", "COMMA": "','", "LSQB": "'['", "RSQB": "']'", "AT": "'@'",
    "DCOLON": "'::'", "SELARG": "'(…)'", "PLUS": "'+'", "MINUS": "'-'", "INT": "an integer",
    "EQ": "'=='", "NE": "'!='", "LT": "'<'", "LE": "'<='", "GT": "'>'", "GE": "'>='", "NAME": "a name",
    "TRUE": "'true'", "FALSE": "'false'", "NIL": "'nil'", "KW_AND": "'and'", "KW_OR": "'or'",
    "KW_NOT": "'not'", "KW_IN": "'in'", "KW_IF": "'if'", "KW_ELSE": "'else'", "NOTIN": "'not in'",
    "QALL": "'all'", "QANY": "'any'", "POW": "'**'", "DSLASH": "'//'", "SLASH": "'/'", "PERCENT": "'%'",
    "LPAR": "'('", "RPAR": "')'", "DOT": "'.'", "DIGITS": "digits", "WALRUS": "':='", "ARROW": "'=>'",
    "$END": "end of value",
}
_CONTEXT = {
    "action_value": "action", "auto_value": "auto", "chain_value": "each chain", "filter_list": "target filter",
    "requisite_value": "requisite", "vars_value": "vars", "each_head": "each", "expr": "expression",
}


class _PreTokenized(Lexer):
    """Lets lark parse a list of tokens made by rulescript.lexer."""

    def __init__(self, lexer_conf: Any) -> None:  # noqa: D107 - lark interface
        pass

    def lex(self, data: Any) -> Any:  # type: ignore[override]
        return iter(data)


# ---- reduction callbacks ------------------------------------------------------------------------
#
# One function per alternative name of rulescript.lark (the function ``_name`` serves ``-> name``).
# The driver hands each its value stack: the callback pops the values of its right-hand side (tokens
# are tuples (type, text, start, end), plus line/end_line for guards; everything else is what another
# callback made) and leaves one value in their place.  Lists grow in place (left recursion), so no
# reduction copies a list.

Values = list  # the driver's value stack


def _raw(t: Tok) -> A.Raw:
    return A.Raw(t[1], t[2], t[3])


def _list_first(v: Values) -> None:  # element
    v[-1] = [v[-1]]


_seq_first = _list_first


def _seq_more(v: Values) -> None:  # list element
    x = v.pop()
    v[-1].append(x)


def _tail_first(v: Values) -> None:  # SEPARATOR element
    x = v.pop()
    v[-1] = [x]


def _tail_more(v: Values) -> None:  # tail SEPARATOR element
    x = v.pop()
    del v[-1]
    v[-1].append(x)


def _list_with_tail(v: Values) -> None:  # element tail
    tail = v.pop()
    tail.insert(0, v[-1])
    v[-1] = tail


# -- statements
def _action_with_costs(v: Values) -> None:
    stmts = v.pop()
    del v[-1]
    v[-1] = A.ActionValue(v[-1], stmts)


def _action_plain(v: Values) -> None:
    v[-1] = A.ActionValue([], v[-1])


def _auto_with_trigger(v: Values) -> None:
    stmts = v.pop()
    v[-1] = A.AutoValue(_raw(v[-1]), stmts)


def _auto_plain(v: Values) -> None:
    v[-1] = A.AutoValue(None, v[-1])


def _auto_trigger_only(v: Values) -> None:
    v[-1] = A.AutoValue(_raw(v[-1]), [])


def _cost_first(v: Values) -> None:
    t = v[-1]
    v[-1] = [A.Raw(t[1], t[2], t[3])]


def _cost_more(v: Values) -> None:
    t = v.pop()
    v[-1].append(A.Raw(t[1], t[2], t[3]))


# Statements are made with positional arguments (kind, body, may_text, branches, start, end): cheaper
# than keywords and the default factory of ``branches``.
def _may_statement(v: Values) -> None:
    body = v.pop()
    t = v[-1]  # a guard token: t[4] is where its '[[' stands
    v[-1] = A.Statement("may", body, A.Raw(t[1], t[2], t[3]), [], t[4], body.end)


def _plain_statement(v: Values) -> None:
    body = v[-1]
    v[-1] = A.Statement("plain", body, None, [], body.start, body.end)


def _if(t: Tok, body: A.Body | None, elifs: list[A.Branch] | None, orelse: A.Branch | None) -> A.Statement:
    branches = [A.Branch("if", A.Raw(t[1], t[2], t[3]), body, t[4], body.end if body is not None else t[5])]
    if elifs:
        branches.extend(elifs)
    if orelse is not None:
        branches.append(orelse)
    return A.Statement("if", None, None, branches, t[4], max(branches[-1].end, t[5]))


def _if_(v: Values) -> None:  # G_IF
    v[-1] = _if(v[-1], None, None, None)


def _if_b(v: Values) -> None:  # G_IF body
    body = v.pop()
    v[-1] = _if(v[-1], body, None, None)


def _if_e(v: Values) -> None:  # G_IF elifs
    elifs = v.pop()
    v[-1] = _if(v[-1], None, elifs, None)


def _if_be(v: Values) -> None:  # G_IF body elifs
    elifs = v.pop()
    body = v.pop()
    v[-1] = _if(v[-1], body, elifs, None)


def _if_x(v: Values) -> None:  # G_IF else_part
    orelse = v.pop()
    v[-1] = _if(v[-1], None, None, orelse)


def _if_bx(v: Values) -> None:  # G_IF body else_part
    orelse = v.pop()
    body = v.pop()
    v[-1] = _if(v[-1], body, None, orelse)


def _if_ex(v: Values) -> None:  # G_IF elifs else_part
    orelse = v.pop()
    elifs = v.pop()
    v[-1] = _if(v[-1], None, elifs, orelse)


def _if_bex(v: Values) -> None:  # G_IF body elifs else_part
    orelse = v.pop()
    elifs = v.pop()
    body = v.pop()
    v[-1] = _if(v[-1], body, elifs, orelse)


def _elif_part(v: Values) -> None:
    body = v.pop()
    t = v[-1]
    v[-1] = A.Branch("elif", A.Raw(t[1], t[2], t[3]), body, t[4], body.end)


def _else_part(v: Values) -> None:
    body = v.pop()
    v[-1] = A.Branch("else", None, body, v[-1][4], body.end)


# A body (and a filter, below) is made at its first element and grows in place: the rule over the
# list ('?body: items') is then a pass-through, one callback less per body.
def _body_first(v: Values) -> None:  # item
    item = v[-1]
    v[-1] = A.Body([item], item.start, item.end)


def _body_more(v: Values) -> None:  # items item
    item = v.pop()
    body = v[-1]
    body.items.append(item)
    body.end = item.end


def _command(v: Values) -> None:
    a = v.pop()
    n = v[-1]
    v[-1] = A.Command(n[1], False, A.Raw(a[1], a[2], a[3]), n[2], a[3] + 1)


def _command_ask(v: Values) -> None:
    a = v.pop()
    del v[-1]
    n = v[-1]
    v[-1] = A.Command(n[1], True, A.Raw(a[1], a[2], a[3]), n[2], a[3] + 1)


def _ability(v: Values) -> None:
    t = v[-1]
    v[-1] = A.AbilityEffect(t[1][0], t[1][1:], t[2], t[3])


def _clause(v: Values) -> None:
    a = v.pop()
    k = v[-1]
    v[-1] = A.Clause(k[1].lower(), False, A.Raw(a[1], a[2], a[3]), k[2], a[3] + 1)


def _clause_ask(v: Values) -> None:
    a = v.pop()
    del v[-1]
    k = v[-1]
    v[-1] = A.Clause(k[1].lower(), True, A.Raw(a[1], a[2], a[3]), k[2], a[3] + 1)


def _bareword(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Bareword(t[1], t[2], t[3])


def _chain_op(v: Values) -> None:
    t = v[-1]
    v[-1] = A.ChainOp(t[1], t[2], t[3])


# -- filters: a filter is a list of segments (kind, payload, start, end) in written order
def _filter_first(v: Values) -> None:  # fseg
    seg = v[-1]
    v[-1] = A.Filter([seg], seg[2], seg[3])


def _filter_more(v: Values) -> None:  # fsegs fseg
    seg = v.pop()
    filt = v[-1]
    filt.segments.append(seg)
    filt.end = seg[3]


def _angle(v: Values) -> None:
    t = v[-1]
    v[-1] = ("angle", A.Angle(t[1], t[2], t[3]), t[2], t[3])


def _types_one(v: Values) -> None:
    conj = v[-1]
    v[-1] = ("types", [conj], conj[0].start, conj[-1].end)


def _types_many(v: Values) -> None:
    conjs = v.pop()
    conjs.insert(0, v[-1])
    v[-1] = ("types", conjs, conjs[0][0].start, conjs[-1][-1].end)


def _fblock(v: Values) -> None:
    r = v.pop()
    e = v.pop()
    v[-1] = ("block", e, v[-1][2], r[3])


def _zone(v: Values) -> None:
    w = v.pop()
    v[-1] = ("zone", A.Raw(w[1], w[2], w[3]), v[-1][2], w[3])


def _selector(v: Values) -> None:
    arg = v.pop()
    w = v.pop()
    v[-1] = ("selector", (A.Raw(w[1], w[2], w[3]), A.Raw(arg[1], arg[2], arg[3])), v[-1][2], arg[3] + 1)


def _term(base: Tok, caret: bool, bang: bool, start: int) -> A.TypeTerm:
    kind = base[0]
    if kind == "STARS":
        return A.TypeTerm("*", False, True, caret, bang, start, base[3])
    return A.TypeTerm(base[1], kind == "STRING" or kind == "QPLURAL", kind == "QPLURAL", caret, bang, start,
                      base[3])


def _type_term(v: Values) -> None:
    b = v[-1]
    v[-1] = _term(b, False, False, b[2])


def _type_term_caret(v: Values) -> None:
    b = v.pop()
    v[-1] = _term(b, True, False, v[-1][2])


def _type_term_bang(v: Values) -> None:
    b = v.pop()
    v[-1] = _term(b, False, True, v[-1][2])


def _type_term_caret_bang(v: Values) -> None:
    b = v.pop()
    del v[-1]
    v[-1] = _term(b, True, True, v[-1][2])


def _fword(v: Values) -> None:
    w = v[-1]
    v[-1] = A.Atom("", w[1], "word", "", 0, w[2], w[3], w[2], w[3])


def _fword_prefixed(v: Values) -> None:
    w = v.pop()
    p = v[-1]
    v[-1] = A.Atom(p[1], w[1], "word", "", 0, p[2], w[3], w[2], w[3])


def _fcmp(v: Values) -> None:
    val = v.pop()
    op = v.pop()[1]
    w = v[-1]
    v[-1] = A.Atom("", w[1], "cmp", "==" if op == "=" else op, val[0], w[2], val[2], w[2], w[3])


def _fcmp_prefixed(v: Values) -> None:
    val = v.pop()
    op = v.pop()[1]
    w = v.pop()
    p = v[-1]
    v[-1] = A.Atom(p[1], w[1], "cmp", "==" if op == "=" else op, val[0], p[2], val[2], w[2], w[3])


def _fextreme(v: Values) -> None:
    which = v.pop()
    del v[-1]
    w = v[-1]
    v[-1] = A.Atom("", w[1], "extreme", ":", which[1], w[2], which[3], w[2], w[3])


def _fextreme_prefixed(v: Values) -> None:
    which = v.pop()
    del v[-1]
    w = v.pop()
    p = v[-1]
    v[-1] = A.Atom(p[1], w[1], "extreme", ":", which[1], p[2], which[3], w[2], w[3])


def _sint(v: Values) -> None:
    t = v[-1]
    v[-1] = (int(t[1]), t[2], t[3])


def _sint_signed(v: Values) -> None:
    num = v.pop()
    sign = v[-1]
    n = int(num[1])
    v[-1] = (-n if sign[1] == "-" else n, sign[2], num[3])


# -- expressions
def _var_decl(v: Values) -> None:
    e = v.pop()
    del v[-1]
    v[-1] = (v[-1], e)


def _each_head(v: Values) -> None:
    seq = v.pop()
    del v[-1]
    v[-1] = (v[-1], seq)


def _conditional(v: Values) -> None:
    orelse = v.pop()
    del v[-1]
    test = v.pop()
    del v[-1]
    then = v[-1]
    v[-1] = A.Conditional(test, then, orelse, then.start, orelse.end)


def _or_op(v: Values) -> None:
    right = v.pop()
    del v[-1]
    left = v[-1]
    v[-1] = A.BoolOp("or", left, right, left.start, right.end)


def _and_op(v: Values) -> None:
    right = v.pop()
    del v[-1]
    left = v[-1]
    v[-1] = A.BoolOp("and", left, right, left.start, right.end)


def _not_op(v: Values) -> None:
    x = v.pop()
    v[-1] = A.Not(x, v[-1][2], x.end)


def _comp_text(t: Tok) -> str:
    low = t[1].lower()
    return "not in" if low.startswith("not") else low


def _compare_tail_first(v: Values) -> None:  # comp_op sum
    right = v.pop()
    v[-1] = ([right], [_comp_text(v[-1])])


def _compare_tail_more(v: Values) -> None:  # compare_tail comp_op sum
    right = v.pop()
    op = v.pop()
    operands, ops = v[-1]
    operands.append(right)
    ops.append(_comp_text(op))


def _compare(v: Values) -> None:  # sum compare_tail
    operands, ops = v.pop()
    first = v[-1]
    operands.insert(0, first)
    v[-1] = A.Compare(operands, ops, first.start, operands[-1].end)


def _binop(v: Values) -> None:
    right = v.pop()
    op = v.pop()
    left = v[-1]
    v[-1] = A.BinOp(op[1], left, right, left.start, right.end)


def _unary(v: Values) -> None:
    x = v.pop()
    op = v[-1]
    v[-1] = A.Unary(op[1], x, op[2], x.end)


def _power_op(v: Values) -> None:
    right = v.pop()
    del v[-1]
    left = v[-1]
    v[-1] = A.Power(left, right, left.start, right.end)


def _attr(v: Values) -> None:
    name = v.pop()
    del v[-1]
    obj = v[-1]
    v[-1] = A.Attr(obj, name[1], obj.start, name[3])


def _index(v: Values) -> None:
    digits = v.pop()
    del v[-1]
    obj = v[-1]
    v[-1] = A.Index(obj, int(digits[1]), obj.start, digits[3])


def _call_empty(v: Values) -> None:
    rp = v.pop()
    del v[-1]
    name = v[-1]
    v[-1] = A.Call(name[1], [], name[2], rp[3], name[3])


def _call(v: Values) -> None:
    rp = v.pop()
    args = v.pop()
    del v[-1]
    name = v[-1]
    v[-1] = A.Call(name[1], args, name[2], rp[3], name[3])


def _name(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Name(t[1], t[2], t[3])


def _int_lit(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Literal(int(t[1]), t[2], t[3])


def _str_lit(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Literal(t[1], t[2], t[3])


def _true_lit(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Literal(True, t[2], t[3])


def _false_lit(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Literal(False, t[2], t[3])


def _nil_lit(v: Values) -> None:
    t = v[-1]
    v[-1] = A.Literal(None, t[2], t[3])


def _list_empty(v: Values) -> None:
    r = v.pop()
    v[-1] = A.ListLit([], v[-1][2], r[3])


def _list_lit(v: Values) -> None:
    r = v.pop()
    items = v.pop()
    v[-1] = A.ListLit(items, v[-1][2], r[3])


def _paren(v: Values) -> None:
    r = v.pop()
    inner = v.pop()
    inner.start = v[-1][2]  # the parentheses belong to the node's span: '(tgt.0).bp' starts at '('
    inner.end = r[3]
    v[-1] = inner


def _quant_all(v: Values) -> None:
    seq = v.pop()
    del v[-1]
    elem = v.pop()
    v[-1] = A.Quantifier("all", elem, seq, v[-1][2], seq.end)


def _quant_any(v: Values) -> None:
    seq = v.pop()
    del v[-1]
    elem = v.pop()
    v[-1] = A.Quantifier("any", elem, seq, v[-1][2], seq.end)


_CALLBACKS: dict[str, Callable[[Values], None]] = {
    name[1:]: fn for name, fn in list(globals().items())
    if name.startswith("_") and callable(fn) and getattr(fn, "__module__", None) == __name__
    and getattr(fn, "__code__", None) is not None and fn.__code__.co_varnames[:1] == ("v",)
}


@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    return lark.Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", lexer=_PreTokenized,
                     start=START_SYMBOLS)


class _ParseFailure(Exception):
    def __init__(self, token: Tok, expected: set[str]) -> None:
        super().__init__(token[0])
        self.token = token
        self.expected = expected


Callback = Callable[[Values], None]
# One reduction step of the driver, for the state its pops uncover: the state it pushes, the callback
# it runs (None, or one that runs several in turn) and the action that follows on the same lookahead
# (see _Driver._fold_chains).
Step = tuple[int, Callback | None, Any]


def _in_turn(callbacks: list[Callback]) -> Callback | None:
    """One callable for the callbacks of a step, or None if it has none."""
    if len(callbacks) < 2:
        return callbacks[0] if callbacks else None
    chain = tuple(callbacks)

    def run(v: Values) -> None:
        for callback in chain:
            callback(v)

    return run


class _LazySteps(dict):  # type: ignore[type-arg]
    """The steps of one reduction, by the state its pops uncover, each worked out on its first use.

    Folding every reduction of the table eagerly costs about 50 ms per process, while a compile only
    meets a small part of them; a step is the same whenever it is computed."""

    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[int], Step]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, below: int) -> Step:
        step = self[below] = self.compute(below)
        return step


class _Driver:
    """Runs lark's LALR(1) table for our grammar with a tight loop.

    lark builds the table from rulescript.lark; this loop feeds it our token tuples and calls the
    callbacks above directly (lark's own token feeder and tree builder are not used).  ``rows[state]``
    maps a terminal to the next state (an ``int``: a shift) or to ``(size, steps)`` for a reduction
    (a ``tuple``): ``size`` states are popped and ``steps`` maps the state the pop uncovers to a
    :data:`Step`.  One step covers the reduction and every reduction of a single symbol that follows
    it on the same lookahead, and says what comes next, so the loop looks the terminal up once per token.
    """

    def __init__(self, lk: lark.Lark) -> None:
        table = lk.parser.parser.parser.parse_table  # ParsingFrontend -> LALR_Parser -> _Parser
        gotos: dict[str, dict[int, int]] = {}
        for state, actions in table.states.items():
            for symbol, (action, arg) in actions.items():
                name = str(symbol)  # plain str keys: lark's symbol names may be its own Token class
                if action.name == "Shift" and not name.isupper():
                    gotos.setdefault(name, {})[state] = arg
        # rows before folding: a terminal maps to a shift (int) or to (size, callback or None, gotos)
        rows: dict[int, dict[str, Any]] = {}
        for state, actions in table.states.items():
            row: dict[str, Any] = {}
            for symbol, (action, arg) in actions.items():
                name = str(symbol)
                if not name.isupper():
                    continue  # a goto: in gotos
                if action.name == "Shift":
                    row[name] = arg
                    continue
                origin = str(arg.origin.name)
                goto = gotos.setdefault(origin, {})
                if arg.options.expand1 and arg.alias is None and len(arg.expansion) == 1:
                    row[name] = (1, None, goto)  # a '?rule' with one child passes the child through
                else:
                    key = str(arg.alias or origin)
                    if key not in _CALLBACKS:
                        raise KeyError(f"rulescript.lark: no callback for the alternative {key!r}")
                    row[name] = (len(arg.expansion), _CALLBACKS[key], goto)
            rows[state] = row
        self.start_states = dict(table.start_states)
        self.end_states = dict(table.end_states)
        self.rows = self._fold_chains(rows, set(self.end_states.values()))
        # actions[state](terminal): the row's lookup, bound once (states are numbered 0..n-1)
        self.actions = [self.rows[i].get if i in self.rows else {}.get for i in range(max(self.rows) + 1)]

    @staticmethod
    def _fold_chains(rows: dict[int, dict[str, Any]], end_states: set[int]) -> dict[int, dict[str, Any]]:
        """The rows with every reduction folded together with the single-symbol reductions after it.

        A reduction that uncovers state ``b`` with lookahead ``t`` goes to ``gotos[b]``; if that state
        reduces again on ``t`` by a rule of one symbol (``items: item``, ``body: items``, a ``?rule``
        pass-through …), the new top state is again a goto from the same ``b``.  So where such a chain
        ends, which callbacks it runs and what the table does next on ``t`` depend only on (rule, ``t``,
        ``b``): they are computed once, on first use (:class:`_LazySteps`), and a whole chain costs one
        step of the loop.  The states, values and errors are exactly those of the step-by-step run."""

        def follow(state: int, below: int, t: str, callbacks: list[Callback]) -> int:
            for _ in range(len(rows)):
                act = rows[state].get(t)
                if state in end_states or act is None or act.__class__ is int or act[0] != 1:
                    return state
                nxt = act[2].get(below)
                if nxt is None:  # not a reachable configuration: leave it to the loop
                    return state
                if act[1] is not None:
                    callbacks.append(act[1])
                state = nxt
            return state

        def fold(goto: dict[int, int], t: str, callback: Callback | None, below: int) -> Step:
            callbacks = [callback] if callback is not None else []
            state = follow(goto[below], below, t, callbacks)
            return state, _in_turn(callbacks), out[state].get(t)  # out: the folded rows, complete by then

        folded: dict[tuple[int, str, int], _LazySteps] = {}
        out: dict[int, dict[str, Any]] = {}
        for state, row in rows.items():
            out[state] = new_row = {}
            for t, act in row.items():
                if act.__class__ is int:
                    new_row[t] = act
                    continue
                size, callback, goto = act
                key = (id(goto), t, id(callback))
                steps = folded.get(key)
                if steps is None:
                    steps = folded[key] = _LazySteps(partial(fold, goto, t, callback))
                new_row[t] = (size, steps)
        return out

    def parse(self, tokens: list[Tok], start: str, end_pos: int) -> Any:
        actions = self.actions
        state = self.start_states[start]
        states = [state]
        values: Values = []
        push_state = states.append
        push_value = values.append
        for tok in tokens:
            act = actions[state](tok[0])
            while act.__class__ is tuple:  # reductions, each step saying what follows
                size, steps = act
                state, callback, act = steps[states[-1 - size]]
                if callback is not None:
                    callback(values)
                states[-size:] = (state,)
            if act is None:
                raise _ParseFailure(tok, self._expected(state))
            state = act
            push_state(act)
            push_value(tok)
        act = actions[state]("$END")
        while act.__class__ is tuple:
            size, steps = act
            state, callback, act = steps[states[-1 - size]]
            if callback is not None:
                callback(values)
            states[-size:] = (state,)
        if state != self.end_states[start]:  # no way on, or a shift of the end (the table has none)
            raise _ParseFailure(("$END", "", end_pos, end_pos), self._expected(state))
        return values[-1]

    def _expected(self, state: int) -> set[str]:
        return {k for k in self.rows[state] if k.isupper()}


@lru_cache(maxsize=1)
def _driver() -> _Driver:
    return _Driver(_parser())


_PRIORITY = ["'@'", "'::'", "';'", "')'", "','", "']'", "end of value", "'('", "a command", "a word",
             "a name", "an integer"]


def _expected(expected: set[str], start: str) -> tuple[str, ...]:
    terms = {t for t in expected if not t.startswith("__")}
    if start == "filter_list":
        terms.discard("ANDAND")
    names = {_TERMINAL_NAMES.get(t, t) for t in terms}
    ordered = [n for n in _PRIORITY if n in names] + sorted(n for n in names if n not in _PRIORITY)
    return tuple(ordered[:8])


def _parse(tokens: list[Tok], start: str, text_len: int, base: int) -> Any:
    try:
        return _driver().parse(tokens, start, base + text_len)
    except _ParseFailure as exc:
        tok = exc.token
        kind = tok[0]
        context = _CONTEXT[start]
        if kind == "$END":
            pos = base + text_len
            raise LexError(f"unexpected end of {context}", max(base, pos - 1) if text_len else base, pos,
                           _expected(exc.expected, start)) from None
        shown = tok[1] if kind not in ("ARGS", "SELARG", "COST", "TRIGGER") else kind.lower()
        start_pos, end_pos = tok[2], tok[3] or tok[2] + 1
        if kind.startswith("G_"):
            shown = "[[" + kind[2:].lower()
            start_pos, end_pos = tok[4], tok[4] + len(shown)
        msg = f"unexpected '{shown}' in {context}"
        if kind == "LPAR" and start in ("expr", "vars_value", "each_head"):
            msg = f"unexpected '(' in {context}: only functions can be called (no method calls)"
        if kind == "POW":
            msg = "the power operator '**' is not allowed"
        raise LexError(msg, start_pos, end_pos, _expected(exc.expected, start)) from None


_OPENERS = frozenset({"LPAR", "LSQB"})
_CLOSERS = frozenset({"RPAR", "RSQB"})
_UNARY = frozenset({"KW_NOT", "MINUS", "PLUS"})


def _check_depth(tokens: list[Tok]) -> None:
    if len(tokens) <= MAX_DEPTH:
        return  # too few tokens to nest deeper than MAX_DEPTH or to hold MAX_DEPTH * 4 operators
    depth = 0
    for t in tokens:
        if t[0] in _OPENERS:
            depth += 1
            if depth > MAX_DEPTH:
                raise LexError(f"expression nested deeper than {MAX_DEPTH} levels", t[2], t[3], code="RS510")
        elif t[0] in _CLOSERS:
            depth -= 1
    ops = sum(1 for t in tokens if t[0] in _UNARY)
    if ops > MAX_DEPTH * 4:
        raise LexError(f"expression nested deeper than {MAX_DEPTH} levels", tokens[0][2], tokens[0][3],
                       code="RS510")


def parse_action(text: str) -> A.ActionValue:
    return _parse(lex_statements(text), "action_value", len(text), 0)


def parse_auto(text: str) -> A.AutoValue:
    return _parse(lex_statements(text, 0, True), "auto_value", len(text), 0)


def parse_chain(text: str, base: int) -> A.Body:
    return _parse(lex_statements(text, base), "chain_value", len(text), base)


def _simple_filters(toks: list[Tok]) -> list[A.Filter] | None:
    """The AST of the commonest filters, a word (``opp``) or a word in a zone (``characters@myRing``),
    built without running the parser; anything else returns None.  tests/compiler/test_parser.py
    checks that this gives exactly the tree the grammar gives."""
    if not (len(toks) == 1 or len(toks) == 3 and toks[1][0] == "AT" and toks[2][0] == "WORD"):
        return None
    word = toks[0]
    if word[0] != "WORD":
        return None
    start, end = word[2], word[3]
    segments = [("types", [[A.TypeTerm(word[1], False, False, False, False, start, end)]], start, end)]
    if len(toks) == 3:
        at, zone = toks[1], toks[2]
        segments.append(("zone", A.Raw(zone[1], zone[2], zone[3]), at[2], zone[3]))
    return [A.Filter(segments, start, segments[-1][3])]


def parse_filters(text: str, base: int = 0) -> list[A.Filter]:
    if not text.strip():
        raise LexError("empty target filter", base, base + 1, ("a filter",))
    toks = lex_filter(text, base)
    return _simple_filters(toks) or _parse(toks, "filter_list", len(text), base)


def parse_requisite(text: str, base: int = 0) -> list[A.Filter]:
    if not text.strip():
        raise LexError("empty requisite", base, base + 1, ("a filter",))
    toks = lex_filter(text, base, True)
    return _simple_filters(toks) or _parse(toks, "requisite_value", len(text), base)


def _expr_tokens(text: str, base: int) -> list[Tok]:
    toks = lex_expr(text, base)
    if not toks:
        raise LexError("empty expression", base, base + 1, ("an expression",))
    _check_depth(toks)
    return toks


def _simple_expr(toks: list[Tok]) -> A.Expr | None:
    """The AST of the commonest tiny expressions (``250``, ``-200``, ``_x``, ``me.hand.size``, ``tgt.0``)
    built without running the parser; anything else returns None.  tests/compiler/test_parser.py
    checks that this gives exactly the tree the grammar gives."""
    first = toks[0]
    kind = first[0]
    if len(toks) == 1:
        if kind == "INT":
            return A.Literal(int(first[1]), first[2], first[3])
        if kind == "NAME":
            return A.Name(first[1], first[2], first[3])
        return None
    if len(toks) == 2 and (kind == "PLUS" or kind == "MINUS") and toks[1][0] == "INT":
        num = toks[1]
        return A.Unary(first[1], A.Literal(int(num[1]), num[2], num[3]), first[2], num[3])
    if kind != "NAME" or len(toks) % 2 == 0:
        return None
    start = first[2]
    node: A.Expr = A.Name(first[1], start, first[3])
    for i in range(1, len(toks), 2):
        if toks[i][0] != "DOT":
            return None
        part = toks[i + 1]
        if part[0] == "NAME":
            node = A.Attr(node, part[1], start, part[3])
        elif part[0] == "DIGITS":
            node = A.Index(node, int(part[1]), start, part[3])
        else:
            return None
    return node


def parse_expr(text: str, base: int = 0) -> A.Expr:
    toks = _expr_tokens(text, base)
    return _simple_expr(toks) or _parse(toks, "expr", len(text), base)


def parse_vars(text: str, base: int = 0) -> list[tuple[Token, A.Expr]]:
    decls = _parse(_expr_tokens(text, base), "vars_value", len(text), base)
    return [(to_token(name), expr) for name, expr in decls]


def parse_each_head(text: str, base: int) -> tuple[A.Expr, A.Expr]:
    return _parse(_expr_tokens(text, base), "each_head", len(text), base)


PARSERS: dict[str, Callable[..., Any]] = {
    "action": parse_action, "auto": parse_auto, "filters": parse_filters, "requisite": parse_requisite,
    "expr": parse_expr, "vars": parse_vars,
}
