"""Parsing RuleScript values: tokens (rulescript.compiler.lexer) → lark LALR → typed AST (rulescript.compiler.ast).

One :class:`lark.Lark` instance, built once per process, makes the LALR(1) table of every kind of value
(one start symbol each).  A small driver runs that table over the token tuples of rulescript.compiler.lexer and
calls one callback per reduction, which builds the AST node directly: no lark tree is made.  Statement
values (action, auto, each chains) are read without the driver into *outlines*, the plain-tuple trees the
compiler works on (see "the statement layer: outlines" below); the driver parses them only to report an
error.  Every failure is raised as :class:`rulescript.compiler.lexer.LexError` with offsets into the value text
and the tokens that were expected.

Expressions (the commonest values) mostly take two exact shortcuts: _tiny_expr reads the commonest
shapes ('+100', 'opp.hp >= 500') from the text itself, and _FastExpr parses the tokens of the others by
recursive descent.  Both give the driver's tree or decline, and the driver decides what they decline.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable

import lark
from lark.lexer import Lexer

from rulescript.compiler import ast as A
from rulescript.compiler.lexer import (_BALANCED, _CLAUSE_SPELLINGS, _STMT_SCAN, MAX_DIGITS, MAX_EXPR_LENGTH, SPECIAL_WORDS,
                              LexError, Tok, Token, guard_kind, lex_expr, lex_filter, lex_statements, to_token)

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
    """Lets lark parse a list of tokens made by rulescript.compiler.lexer."""

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
    t = v[-1]  # (its condition is kept: compile_rule reports one, docs/language.md 5.5: [[else]] takes none)
    v[-1] = A.Branch("else", A.Raw(t[1], t[2], t[3]), body, t[4], body.end)


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
    maps a terminal to the next state (an ``int``: a shift) or to ``(-1 - size, steps)`` for a reduction
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
                new_row[t] = (-1 - size, steps)
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
                below, steps = act  # below: the index of the state the pops uncover (-1 - size)
                state, callback, act = steps[states[below]]
                if callback is not None:
                    callback(values)
                if below == -2:  # one state popped (cheaper than a slice assignment, which makes a tuple)
                    states[-1] = state
                else:
                    del states[below + 2:]
                    states[-1] = state
            if act is None:
                raise _ParseFailure(tok, self._expected(state))
            state = act
            push_state(act)
            push_value(tok)
        act = actions[state]("$END")
        while act.__class__ is tuple:
            below, steps = act
            state, callback, act = steps[states[below]]
            if callback is not None:
                callback(values)
            if below == -2:
                states[-1] = state
            else:
                del states[below + 2:]
                states[-1] = state
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


# -- the statement layer: outlines
#
# The statement grammar is a regular language (costs, statements between ';', each a body or a guard with
# bodies), so the tree of a well-formed value is read straight off its tokens, without the driver.  The
# compiler works on that tree in plain tuples, an *outline*, which costs a fraction of the AST's nodes to
# make; parse_action, parse_auto and parse_chain turn it into the AST.  A value the grammar rejects has no
# outline: the driver then parses its tokens and reports the error exactly.  tests/compiler/test_parser.py
# checks that outline and AST are exactly the tree the grammar gives.  The readers (read_action …) first
# try _fast_outline, which makes the same outline in one pass over the lexer's regex matches, without
# tokens; _outline over the tokens (and the driver) serve what it declines.
#
#   item       a command or clause: (CALL or CLAUSE, word, start, end, ask, ARGS token), its end past the
#              ')'; any other item is its token: ABILITY, WORD, AMP, ANDAND or OROR
#   body       a non-empty list of items
#   branch     (keyword, condition, body or None, start, end): 'if' or 'elif' with its guard token as the
#              condition, 'else' with None
#   statement  (kind, body, guard, branches, start, end): ('plain', body, None, [] …),
#              ('may', body, G_MAY token, [] …) or ('if', None, None, branches …)
#   values     action: (COST tokens, statements); auto: (TRIGGER token or None, statements); chain: body

Item = tuple
OutlineBody = list[Item]
OutlineBranch = tuple[str, Tok | None, OutlineBody | None, int, int]
OutlineStatement = tuple[str, OutlineBody | None, Tok | None, list[OutlineBranch], int, int]
ActionOutline = tuple[list[Tok], list[OutlineStatement]]
AutoOutline = tuple[Tok | None, list[OutlineStatement]]

_PLAIN_ITEMS = frozenset({"AMP", "ANDAND", "OROR", "ABILITY", "WORD"})


def _outline_body(toks: list[Tok], i: int, n: int) -> tuple[OutlineBody, int]:
    """The items that start at ``toks[i]`` (maybe none) and the index after them."""
    items: OutlineBody = []
    append = items.append
    while i < n:
        t = toks[i]
        kind = t[0]
        if kind == "CALL" or kind == "CLAUSE":
            # the lexer puts the argument list (after a '?') right behind its command or clause word
            a = toks[i + 1]
            if a[0] == "QMARK":
                a = toks[i + 2]
                append((kind, t[1], t[2], a[3] + 1, True, a))
                i += 3
            else:
                append((kind, t[1], t[2], a[3] + 1, False, a))
                i += 2
        elif kind in _PLAIN_ITEMS:
            append(t)
            i += 1
        else:
            break
    return items, i


def _outline(toks: list[Tok], start: str) -> ActionOutline | AutoOutline | OutlineBody | None:
    """The outline of an ``action_value``, ``auto_value`` or ``chain_value`` the grammar accepts, or None."""
    n = len(toks)
    if not n:
        return None
    if start == "chain_value":
        body, i = _outline_body(toks, 0, n)
        return body if body and i == n else None
    i = 0
    head: Any = None  # the costs of an action, the trigger of an auto
    if start == "auto_value":
        if toks[0][0] == "TRIGGER":
            head = toks[0]
            i = 1
            if n == 1:
                return head, []
    else:
        head = []
        while toks[i][0] == "COST":
            head.append(toks[i])
            i += 1
            if i == n:
                return None
        if head:
            if toks[i][0] != "COLON" or i + 1 == n:
                return None
            i += 1
    statements: list[OutlineStatement] = []
    append = statements.append
    while True:  # at the start of a statement
        t = toks[i]
        kind = t[0]
        if kind == "G_IF":
            body, i = _outline_body(toks, i + 1, n)
            end = body[-1][3] if body else t[5]
            branches: list[OutlineBranch] = [("if", t, body or None, t[4], end)]
            while i < n:
                g = toks[i]
                keyword = "elif" if g[0] == "G_ELIF" else "else" if g[0] == "G_ELSE" else None
                if keyword is None:
                    break
                body, i = _outline_body(toks, i + 1, n)
                if not body:
                    return None
                end = body[-1][3]
                branches.append((keyword, g, body, g[4], end))
                if keyword == "else":
                    break
            append(("if", None, None, branches, t[4], end if end > t[5] else t[5]))  # (max() is slower)
        elif kind == "G_MAY":
            body, i = _outline_body(toks, i + 1, n)
            if not body:
                return None
            append(("may", body, t, [], t[4], body[-1][3]))
        else:
            body, i = _outline_body(toks, i, n)
            if not body:
                return None
            append(("plain", body, None, [], t[2], body[-1][3]))
        if i == n:
            return head, statements
        if toks[i][0] != "SEMI" or i + 1 == n:
            return None
        i += 1


def _read(tokens: list[Tok], start: str, text_len: int, base: int) -> Any:
    outline = _outline(tokens, start)
    if outline is None:
        _parse(tokens, start, text_len, base)  # reports the error
        raise AssertionError(f"the grammar accepts a {start} that has no outline")  # pragma: no cover
    return outline


_ITEM_OPS = {"&": "AMP", "&&": "ANDAND", "||": "OROR"}  # the operators that are items


def _close_branch(guard: Tok, items: OutlineBody | None) -> OutlineBranch | None:
    """The branch of an 'if' statement that ``guard`` opens, or None if its body may not be empty."""
    kind = guard[0]
    if items is not None:
        return ("if" if kind == "G_IF" else "elif" if kind == "G_ELIF" else "else",
                guard, items, guard[4], items[-1][3])
    return ("if", guard, None, guard[4], guard[5]) if kind == "G_IF" else None


def _close_statement(items: OutlineBody | None, guard: Tok | None,
                     branches: list[OutlineBranch] | None) -> OutlineStatement | None:
    """The statement whose last body is ``items``, or None if the grammar rejects it."""
    if guard is None:
        return None if items is None else ("plain", items, None, [], items[0][2], items[-1][3])
    if branches is None:  # [[may]]
        return None if items is None else ("may", items, guard, [], guard[4], items[-1][3])
    branch = _close_branch(guard, items)
    if branch is None:
        return None
    branches.append(branch)
    first = branches[0][1]
    end = branch[4]
    return ("if", None, None, branches, first[4], end if end > first[5] else first[5])


def _fast_outline(text: str, base: int, start: str) -> Any:
    """The outline of a statement value read in one pass over the matches of the statement lexer's scan,
    without making its tokens: what _outline makes of the tokens of lex_statements.  None for anything
    unusual (a character the scan does not cut, an unknown guard, an unterminated trigger …) and for
    every value the grammar rejects: the exact path decides those.  tests/compiler/test_parser.py
    compares the two paths on many valid and damaged values."""
    i = 0
    head: Any = None  # the costs of an action, the trigger of an auto
    chain = start == "chain_value"
    if start == "action_value":
        head = []
    elif not chain:
        stripped = text.lstrip()
        if stripped and stripped[0] in "~?":
            i = len(text) - len(stripped)  # (lstrip and \s agree on what is blank)
            j = text.find(stripped[0], i + 1)
            if j < 0:
                return None
            head = ("TRIGGER", text[i + 1:j], base + i + 1, base + j)
            i = j + 1
    statements: list[OutlineStatement] = []
    items: OutlineBody | None = None  # the body being read; None where none has started
    guard: Tok | None = None  # the guard whose body is being read (None: a plain statement)
    branches: list[OutlineBranch] | None = None  # the closed branches of the 'if' being read, else None
    colon_due = False  # after the costs of an action, until their ':'
    clause_words = _CLAUSE_SPELLINGS
    pos = base + i
    for blanks, word, call, args, guard_head, condition, other in _STMT_SCAN.findall(text, i):
        pos += len(blanks)
        if word:  # an item: a command or clause, or a word
            if items is None:
                if colon_due:
                    return None
                items = []
            if call:
                end = pos + len(word) + len(call)  # where the arguments start
                close = end + len(args)
                items.append(("CLAUSE" if word in clause_words else "CALL", word, pos, close + 1, "?" in call,
                              ("ARGS", args, end, close)))
                pos = close + 1
            else:
                end = pos + len(word)
                items.append(("WORD", word, pos, end))
                pos = end
            continue
        if guard_head:
            kind = guard_kind(guard_head)
            if kind is None or chain:
                return None
            end = pos + 2 + len(guard_head)
            g = (kind, condition, end, end + len(condition), pos, end + len(condition) + 2)
            if kind == "G_IF" or kind == "G_MAY":  # starts a statement
                if items is not None or guard is not None or colon_due:
                    return None
                if kind == "G_IF":
                    branches = []
            else:  # continues an 'if'
                if branches is None or guard[0] == "G_ELSE":  # type: ignore[index]
                    return None
                branch = _close_branch(guard, items)  # type: ignore[arg-type]
                if branch is None:
                    return None
                branches.append(branch)
                items = None
            guard = g
            pos = g[5]
            continue
        end = pos + len(other)
        kind = _ITEM_OPS.get(other)
        if kind is not None or (other[0] == "+" or other[0] == "-") and end > pos + 1:  # &, &&, ||, +ability
            if items is None:
                if colon_due:
                    return None
                items = []
            items.append((kind or "ABILITY", other, pos, end))
        elif other == ";":
            if chain:
                return None
            if guard is None and items is not None:  # (the common case, without a call)
                statements.append(("plain", items, None, [], items[0][2], items[-1][3]))
            else:
                statement = _close_statement(items, guard, branches)
                if statement is None:
                    return None
                statements.append(statement)
            items = guard = branches = None
        elif other[0] == "{" and end > pos + 1:  # a cost: only at the start of an action
            if statements or items is not None or guard is not None or head.__class__ is not list:
                return None
            head.append(("COST", other[1:-1], pos + 1, end - 1))
            colon_due = True
        elif other == ":" and colon_due:
            colon_due = False
        else:  # one other character, or a misplaced ':'
            return None
        pos = end
    if chain:
        return items
    if guard is None:
        if items is not None:  # (the common case, without a call)
            statements.append(("plain", items, None, [], items[0][2], items[-1][3]))
            return head, statements
        # nothing after the last ';', the costs (their ':' or not) or the trigger: only a trigger may be alone
        return (head, statements) if not statements and head.__class__ is tuple else None
    statement = _close_statement(items, guard, branches)
    if statement is None:
        return None
    statements.append(statement)
    return head, statements


def _read_exactly(text: str, base: int, start: str) -> Any:
    """The outline of a statement value that _fast_outline declines: from the lexer's tokens, or the
    exact error (the lexer's or the driver's)."""
    return _read(lex_statements(text, base, start == "auto_value"), start, len(text), base)


def read_action(text: str) -> ActionOutline:
    return _fast_outline(text, 0, "action_value") or _read_exactly(text, 0, "action_value")


def read_auto(text: str) -> AutoOutline:
    return _fast_outline(text, 0, "auto_value") or _read_exactly(text, 0, "auto_value")


def read_chain(text: str, base: int) -> OutlineBody:
    return _fast_outline(text, base, "chain_value") or _read_exactly(text, base, "chain_value")


def _body_node(body: OutlineBody | None) -> A.Body | None:
    """The AST of an outline body."""
    if body is None:
        return None
    items: list[A.BodyItem] = []
    for item in body:
        kind, text, start, end = item[:4]
        if kind == "CALL":
            items.append(A.Command(text, item[4], _raw(item[5]), start, end))
        elif kind == "CLAUSE":
            items.append(A.Clause(text.lower(), item[4], _raw(item[5]), start, end))
        elif kind == "ABILITY":
            items.append(A.AbilityEffect(text[0], text[1:], start, end))
        elif kind == "WORD":
            items.append(A.Bareword(text, start, end))
        else:
            items.append(A.ChainOp(text, start, end))
    return A.Body(items, body[0][2], body[-1][3])


def _statement_nodes(statements: list[OutlineStatement]) -> list[A.Statement]:
    """The AST of outline statements."""
    return [A.Statement(kind, _body_node(body), _raw(guard) if guard else None,
                        [A.Branch(keyword, _raw(cond) if cond else None, _body_node(b), s, e)
                         for keyword, cond, b, s, e in branches], start, end)
            for kind, body, guard, branches, start, end in statements]


def _outline_tree(outline: Any, start: str) -> A.ActionValue | A.AutoValue | A.Body:
    """The AST of the outline of an ``action_value``, ``auto_value`` or ``chain_value``."""
    if start == "chain_value":
        return _body_node(outline)  # type: ignore[return-value]
    head, statements = outline
    if start == "action_value":
        return A.ActionValue([_raw(t) for t in head], _statement_nodes(statements))
    return A.AutoValue(_raw(head) if head else None, _statement_nodes(statements))


def parse_action(text: str) -> A.ActionValue:
    return _outline_tree(read_action(text), "action_value")  # type: ignore[return-value]


def parse_auto(text: str) -> A.AutoValue:
    return _outline_tree(read_auto(text), "auto_value")  # type: ignore[return-value]


def parse_chain(text: str, base: int) -> A.Body:
    return _outline_tree(read_chain(text, base), "chain_value")  # type: ignore[return-value]


# ---- the filter fast path ------------------------------------------------------------------------
#
# Nearly every filter is written in the canonical order ``<qty> types <pick> [block] @zone ::sel(x)``
# (each part optional).  One regex recognises such a filter in one go (match_filters), and the functions
# below build from its groups exactly the tree the lexer and the grammar build, without making tokens or
# running the parser (a fraction of the cost); rulescript.compiler.compile_filter even lowers the matches straight
# to IR, without the tree.  Anything unusual (another order, a stray character, '__x', a number where the
# lexer would make an INT, an error …) does not match, and the exact path decides.  Each pattern below
# mirrors the lexer token it stands for; possessive quantifiers keep words as long as the lexer's.
# tests/compiler/test_parser.py checks the trees and the IR against the grammar's on many filters.

_WORD_REST = r"[A-Za-z0-9_]*+(?:-[A-Za-z0-9_]+)*+"
_F_WORD = rf"(?!__)[A-Za-z0-9_]{_WORD_REST}"  # a WORD outside '[ ]' (a digit may start it there)
_F_ATOM_WORD = rf"(?!__)[A-Za-z_]{_WORD_REST}"  # a WORD inside '[ ]' (after '+'/'-' digits make an INT)
_NO_WORD_CHAR = r"(?![A-Za-z0-9_])"


def _opt(pattern: str) -> str:
    """``pattern`` or nothing.  '(?:x|)' matches as '(?:x)?' does, but sre runs it as a plain branch, where
    '?' is a repeat that saves and restores the group marks (about 3,000 instructions per filter)."""
    return f"(?:{pattern}|)"


def _type_term_pattern(groups: bool) -> str:
    """A type term: '^'? '!'? then a word | '*s' | '*' | a string with its plural 's'; with ``groups``
    the parts are captured as (caret, bang, word, star, string, plural)."""
    g = "(" if groups else "(?:"
    return (_opt(rf"{g}\^)\s*") + _opt(rf"{g}!)\s*")
            + rf"(?:{g}{_F_WORD})|{g}\*[sS]{_NO_WORD_CHAR}|\*)|{g}'[^']*'|\"[^\"]*\")"
            + _opt(rf"{g}[sS]){_NO_WORD_CHAR}") + ")")


_MORE_TERM = rf"\s*(?:&(?!&)|,)\s*{_type_term_pattern(False)}"
_FAST_FILTER = re.compile(
    r"\s*+(?![;&]|\Z)" + _opt(r"<([^>]*)>\s*")  # not an empty filter; 1: quantity
    + _opt(rf"({_type_term_pattern(True)})"  # 2: the first type term, 3-8: its parts
           rf"({_MORE_TERM}(?:{_MORE_TERM})*|)")  # 9: the other type terms ('(x(?:x)*|)' costs less than '(?:x)*')
    + r"\s*" + _opt(r"<([^>]*)>\s*")  # 10: pick
    + _opt(r"(\[[^\[\]'\"]*\])\s*")  # 11: block (its atoms are read by _block_atoms)
    + _opt(rf"(@\s*({_F_WORD}))\s*")  # 12: zone, 13: its word
    + _opt(rf"(::\s*([A-Za-z0-9_]{_WORD_REST})\s*\(({_BALANCED})\))\s*")  # 14: selector, 15: name, 16: argument
    + r"(?:(;|&&)|\Z)")  # 17: the separator before the next filter, or the end
_FAST_MORE_TERMS = re.compile(rf"\s*(?:(&)|,)\s*({_type_term_pattern(True)})")  # 1: '&', 2: term, 3-8
_FAST_ATOM = re.compile(
    rf"\s*([-+^!]?)\s*({_F_ATOM_WORD})"  # 1: prefix, 2: word
    + _opt(r"\s*((?>==|!=|<=|>=|<|>|=))\s*([+-]?)\s*([0-9]{1,15})(?![A-Za-z0-9_]|-[A-Za-z0-9_])"  # 3-5: op, sign, int
           rf"|\s*:(?!:)\s*({_F_ATOM_WORD})")  # 6: extreme
    + r"\s*(?:(&(?!&))|(,)|\])")  # 7: '&', 8: ',' (or the closing ']')


def _fast_type_term(caret: str | None, bang: str | None, word: str | None, star: str | None, string: str | None,
                    plural: str | None, start: int, end: int) -> A.TypeTerm:
    if word is not None:
        return A.TypeTerm(word, False, False, caret is not None, bang is not None, start, end)
    if star is not None:
        return A.TypeTerm("*", False, len(star) == 2, caret is not None, bang is not None, start, end)
    assert string is not None
    return A.TypeTerm(string[1:-1], True, plural is not None, caret is not None, bang is not None, start, end)


# An atom of a block, lowered by rulescript.compiler.compile_filter: (prefix, word, kind, op, value, source), the fields
# of its A.Atom but the positions, which are only needed for a diagnostic: see atom_span.  ``source`` is
# its A.Atom, or its match of _FAST_ATOM.
AtomValues = tuple[str, str, str, str, "int | str", "A.Atom | re.Match[str]"]
# A filter the fast path recognises: its match of _FAST_FILTER, the match's groups, and the atoms of its
# block in their ','-separated '&' conjunctions (None without a block).  rulescript.compiler.compile_filter lowers
# these straight to IR; _fast_filters makes the grammar's tree of them.
FilterMatch = tuple["re.Match[str]", tuple[Any, ...], "list[list[AtomValues]] | None"]


def _block_atoms(text: str, pos: int) -> list[list[AtomValues]] | None:
    """The atoms of the '[ ]' block whose '[' is at ``text[pos - 1]``, or None to leave it to the parser."""
    conj: list[AtomValues] = []
    fexpr = [conj]
    match = _FAST_ATOM.match
    while True:
        m = match(text, pos)
        if m is None:
            return None
        prefix, word, op, sign, digits, which, amp, comma = m.groups()
        if op is not None:
            n = int(digits)
            conj.append((prefix, word, "cmp", "==" if op == "=" else op, -n if sign == "-" else n, m))
        elif which is not None:
            conj.append((prefix, word, "extreme", ":", which, m))
        else:
            conj.append((prefix, word, "word", "", 0, m))
        if comma is not None:
            conj = []
            fexpr.append(conj)
        elif amp is None:  # the closing ']'
            return fexpr
        pos = m.end()


def whole_block(text: str, pos: int) -> list[list[AtomValues]] | None:
    """The atoms of the '[ ]' block from ``text[pos - 1]`` to the end of ``text``, or None to leave it to the
    parser (see _block_atoms)."""
    fexpr = _block_atoms(text, pos)
    return fexpr if fexpr is not None and fexpr[-1][-1][5].end() == len(text) else None  # type: ignore[union-attr]


def atom_span(source: A.Atom | re.Match[str], base: int) -> tuple[int, int, int, int]:
    """(start, end, word_start, word_end) of an atom (see AtomValues)."""
    if isinstance(source, A.Atom):
        return source.start, source.end, source.word_start, source.word_end
    word_start, word_end = source.span(2)
    end = source.end(5) if source.group(3) is not None else source.end(6) if source.group(6) is not None else word_end
    return source.start(1) + base, end + base, word_start + base, word_end + base


def match_filters(text: str, andand: bool) -> list[FilterMatch] | None:
    """The matches of the filters of ``text`` if each is in the canonical order (see above), else None;
    filters are joined by '&&' when ``andand`` (a requisite), else by ';'."""
    found: list[FilterMatch] = []
    pos = 0
    match = _FAST_FILTER.match
    while True:
        m = match(text, pos)
        if m is None:
            return None
        groups = m.groups()
        if groups[10] is not None:  # a block
            atoms = _block_atoms(text, m.start(11) + 1)
            if atoms is None:
                return None
        else:
            atoms = None
        found.append((m, groups, atoms))
        sep = groups[16]
        if sep is None:
            return found
        if (sep == "&&") != andand:
            return None
        pos = m.end()


def fast_type_terms(text: str, m: re.Match[str], base: int) -> list[list[A.TypeTerm]]:
    """The type terms of the filter matched by ``m`` (which has some), as the grammar makes them."""
    caret, bang, word, star, string, plural = m.group(3, 4, 5, 6, 7, 8)
    start, end = m.span(2)
    term = _fast_type_term(caret, bang, word, star, string, plural, start + base, end + base)
    conjs = [[term]]
    if m.end(9) > end:
        for t in _FAST_MORE_TERMS.finditer(text, end, m.end(9)):
            if t.group(1) is None:
                conjs.append([])
            conjs[-1].append(_fast_type_term(*t.groups()[2:], t.start(2) + base, t.end() + base))
    return conjs


def _fast_filters(text: str, base: int, andand: bool) -> list[A.Filter] | None:
    """The filters of ``text`` if each is in the canonical order (see above), else None."""
    found = match_filters(text, andand)
    if found is None:
        return None
    filters = []
    for m, groups, atoms in found:
        qty, types, pick, block, zone, selector = groups[0], groups[1], groups[9], groups[10], groups[11], groups[13]
        segments: list[tuple[str, Any, int, int]] = []
        if qty is not None:
            end = m.end(1) + base + 1
            start = end - len(qty) - 2
            segments.append(("angle", A.Angle(qty, start, end), start, end))
        if types is not None:
            conjs = fast_type_terms(text, m, base)
            segments.append(("types", conjs, conjs[0][0].start, conjs[-1][-1].end))
        if pick is not None:
            end = m.end(10) + base + 1
            start = end - len(pick) - 2
            segments.append(("angle", A.Angle(pick, start, end), start, end))
        if atoms is not None:
            fexpr = [[A.Atom(*fields[:5], *atom_span(fields[5], base)) for fields in conj] for conj in atoms]
            start = m.start(11) + base
            segments.append(("block", fexpr, start, start + len(block)))
        if zone is not None:
            start, end = m.span(12)
            zone_word = groups[12]
            segments.append(("zone", A.Raw(zone_word, end + base - len(zone_word), end + base), start + base,
                             end + base))
        if selector is not None:
            start, end = m.span(14)
            name, arg = groups[14], groups[15]
            name_start = m.start(15) + base
            segments.append(("selector", (A.Raw(name, name_start, name_start + len(name)),
                                          A.Raw(arg, end + base - 1 - len(arg), end + base - 1)),
                             start + base, end + base))
        filters.append(A.Filter(segments, segments[0][2], segments[-1][3]))
    return filters


def parse_filters(text: str, base: int = 0) -> list[A.Filter]:
    fast = _fast_filters(text, base, False)
    return fast if fast is not None else grammar_filters(text, base, False)


def parse_requisite(text: str, base: int = 0) -> list[A.Filter]:
    fast = _fast_filters(text, base, True)
    return fast if fast is not None else grammar_filters(text, base, True)


def grammar_filters(text: str, base: int, andand: bool) -> list[A.Filter]:
    """The filters of ``text`` as the lexer and the grammar read them (the exact path): a filter list, or a
    requisite when ``andand``."""
    if not text.strip():
        raise LexError("empty requisite" if andand else "empty target filter", base, base + 1, ("a filter",))
    return _parse(lex_filter(text, base, andand), "requisite_value" if andand else "filter_list", len(text), base)


def _expr_tokens(text: str, base: int) -> list[Tok]:
    toks = lex_expr(text, base)
    if not toks:
        raise LexError("empty expression", base, base + 1, ("an expression",))
    _check_depth(toks)
    return toks


class _NotFast(Exception):
    """Raised by _FastExpr where the driver has to decide: a syntax error, or the refused '**'."""


_OR, _AND, _NOT, _CMP, _SUM, _TERM = range(1, 7)  # binding levels of the expression grammar, loosest first
_LEVELS = {  # the level of each binary operator (comparisons make chains: see _FastExpr.binary)
    "KW_OR": _OR, "KW_AND": _AND, "EQ": _CMP, "NE": _CMP, "LT": _CMP, "LE": _CMP, "GT": _CMP, "GE": _CMP,
    "KW_IN": _CMP, "NOTIN": _CMP, "PLUS": _SUM, "MINUS": _SUM, "STAR": _TERM, "SLASH": _TERM, "DSLASH": _TERM,
    "PERCENT": _TERM,
}
_COMP_TEXT = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "KW_IN": "in",
              "NOTIN": "not in"}  # as _comp_text
_LITERALS = {"TRUE": True, "FALSE": False, "NIL": None}
_END_TOK = ("$END", "", -1, -1)


class _FastExpr:
    """The expression rules of rulescript.lark as a recursive-descent parser (precedence climbing): it
    builds the very tree the LALR driver builds, with a few calls per operand instead of a reduction
    per rule.  On anything else (a syntax error, the refused '**') it raises _NotFast and the caller
    runs the driver, which reports the error exactly.  tests/compiler/test_parser.py compares the two
    on many valid and broken expressions."""

    __slots__ = ("toks", "i")

    def __init__(self, toks: list[Tok]) -> None:
        self.toks = toks + [_END_TOK]
        self.i = 0  # the next token

    def expect(self, kind: str) -> Tok:
        tok = self.toks[self.i]
        if tok[0] != kind:
            raise _NotFast
        self.i += 1
        return tok

    def expr(self) -> A.Expr:  # disj | disj KW_IF disj KW_ELSE expr
        toks = self.toks
        if toks[self.i][0] == "KW_NOT":
            then = self.binary(_OR, False)
        else:  # as binary(_OR, False), without its call when no operator follows (a plain operand)
            then = self.operand()
            if toks[self.i][0] in _LEVELS:
                then = self.binary(_OR, False, then)
        if self.toks[self.i][0] != "KW_IF":
            return then
        self.i += 1
        test = self.binary(_OR, False)
        self.expect("KW_ELSE")
        orelse = self.expr()
        return A.Conditional(test, then, orelse, then.start, orelse.end)

    def binary(self, level: int, no_in: bool, left: A.Expr | None = None) -> A.Expr:
        """An operand with the operators of ``level`` and tighter ones after it (or, and, not, comparison
        chains, sums, terms); ``left``: its first operand if already parsed.  ``no_in``: in a
        quantifier's element (the q* rules), where 'in' ends the element instead of comparing."""
        toks = self.toks
        if left is None:
            tok = toks[self.i]
            if tok[0] == "KW_NOT":  # neg: KW_NOT neg, only where a neg may stand
                if level > _NOT:
                    raise _NotFast
                self.i += 1
                x = self.binary(_NOT, no_in)
                left = A.Not(x, tok[2], x.end)
            else:
                left = self.operand()
        levels = _LEVELS
        while True:
            tok = toks[self.i]
            kind = tok[0]
            op_level = levels.get(kind, 0)
            if op_level < level:
                return left
            if op_level == _CMP:  # sum (comp_op sum)+: one Compare
                if no_in and (kind == "KW_IN" or kind == "NOTIN"):
                    return left
                operands = [left]
                ops = []
                while op_level == _CMP and not (no_in and (kind == "KW_IN" or kind == "NOTIN")):
                    self.i += 1
                    ops.append(_COMP_TEXT[kind])
                    x = self.operand()
                    if levels.get(toks[self.i][0], 0) > _CMP:
                        x = self.binary(_SUM, no_in, x)
                    operands.append(x)
                    kind = toks[self.i][0]
                    op_level = levels.get(kind, 0)
                left = A.Compare(operands, ops, left.start, x.end)
                continue
            self.i += 1
            # the right operand, and the tighter operators after it
            right = self.binary(op_level + 1, no_in) if toks[self.i][0] == "KW_NOT" else self.operand()
            if levels.get(toks[self.i][0], 0) > op_level:
                right = self.binary(op_level + 1, no_in, right)
            if op_level <= _AND:
                left = A.BoolOp("or" if op_level == _OR else "and", left, right, left.start, right.end)
            else:
                left = A.BinOp(tok[1], left, right, left.start, right.end)

    def operand(self) -> A.Expr:
        """A factor: signs, then a primary (or a call) and its attributes and indexes."""
        toks = self.toks
        i = self.i  # kept in a local while no other method reads it
        tok = toks[i]
        kind = tok[0]
        i += 1
        node: A.Expr
        if kind == "NAME":
            if toks[i][0] == "LPAR":
                self.i = i + 1
                args = [] if toks[i + 1][0] == "RPAR" else self.arglist()
                node = A.Call(tok[1], args, tok[2], self.expect("RPAR")[3], tok[3])
                i = self.i
            else:
                node = A.Name(tok[1], tok[2], tok[3])
        elif kind == "INT":
            node = A.Literal(int(tok[1]), tok[2], tok[3])
        elif kind == "PLUS" or kind == "MINUS":  # factor: PLUS factor | MINUS factor
            self.i = i
            x = self.operand()
            return A.Unary(tok[1], x, tok[2], x.end)
        elif kind == "STRING":
            node = A.Literal(tok[1], tok[2], tok[3])
        elif kind in _LITERALS:
            node = A.Literal(_LITERALS[kind], tok[2], tok[3])
        else:
            self.i = i
            node = self.nested(tok)
            i = self.i
        kind = toks[i][0]
        while kind == "DOT":
            part = toks[i + 1]
            if part[0] == "NAME":
                node = A.Attr(node, part[1], node.start, part[3])
            elif part[0] == "DIGITS":
                node = A.Index(node, int(part[1]), node.start, part[3])
            else:
                raise _NotFast
            i += 2
            kind = toks[i][0]
        if kind == "POW":
            raise _NotFast
        self.i = i
        return node

    def nested(self, tok: Tok) -> A.Expr:
        """The primary that ``tok`` opens: a parenthesized expression, a list or a quantifier."""
        kind = tok[0]
        if kind == "LPAR":
            node = self.expr()
            node.start = tok[2]  # as _paren
            node.end = self.expect("RPAR")[3]
            return node
        if kind == "LSQB":
            items = [] if self.toks[self.i][0] == "RSQB" else self.arglist()
            return A.ListLit(items, tok[2], self.expect("RSQB")[3])
        if kind == "QALL" or kind == "QANY":  # QALL qdisj KW_IN postfix
            elem = self.binary(_OR, True)
            seq = self.seq()
            return A.Quantifier("all" if kind == "QALL" else "any", elem, seq, tok[2], seq.end)
        raise _NotFast

    def seq(self) -> A.Expr:  # KW_IN postfix, after the element of a quantifier or an each
        self.expect("KW_IN")
        kind = self.toks[self.i][0]
        if kind == "PLUS" or kind == "MINUS":
            raise _NotFast  # a sign does not start a postfix
        return self.operand()

    def arglist(self) -> list[A.Expr]:
        items = [self.expr()]
        while self.toks[self.i][0] == "COMMA":
            self.i += 1
            items.append(self.expr())
        return items

    def vars(self) -> list[tuple[Tok, A.Expr]]:  # var_decl (SEMI var_decl)*
        decls = []
        while True:
            name = self.expect("NAME")
            self.expect("WALRUS")
            decls.append((name, self.expr()))
            if self.toks[self.i][0] != "SEMI":
                return decls
            self.i += 1

    def each_head(self) -> tuple[A.Expr, A.Expr]:  # qdisj KW_IN postfix
        elem = self.binary(_OR, True)
        return elem, self.seq()


def _fast(toks: list[Tok], rule: Callable[[_FastExpr], Any]) -> Any:
    """What ``rule`` (a method of _FastExpr) makes of the whole of ``toks``, or None if the driver must
    decide."""
    if len(toks) > MAX_DEPTH:
        return None  # long enough to nest deeper than _check_depth allows: the driver decides
    p = _FastExpr(toks)
    try:
        result = rule(p)
    except _NotFast:
        return None
    return result if p.i == len(toks) else None


# An operand, optionally signed, then maybe an operator and a second operand, without blanks inside the
# operands: the shape of most expressions ('+100', 'me.hand.size', 'opp.hp >= 500', 'tgt.0.bp * 2').
# ASCII blanks only: other white space takes the exact path.
_TINY = re.compile(r"\s*([+-]?)([\w.]+)(?:\s*(==|!=|<=|>=|<|>|\+|-|\*|//|/|%)\s*([\w.]+))?\s*", re.ASCII)
_TINY_EACH = re.compile(r"\s*([\w.]+)\s+[iI][nN]\s+([\w.]+)\s*", re.ASCII)  # an each head of two operands
_COMPARISONS = frozenset({"==", "!=", "<=", ">=", "<", ">"})


def tiny_parts(s: str) -> list[str] | None:
    """The parts of an operand of a tiny expression: ``[digits]`` for an integer, or a name then the
    attribute names and indexes after it (``me.hand.size``, ``tgt.0``), written without blanks; None for
    anything else (a keyword, a float, an error …).  An integer part starts with a digit, an attribute with
    a letter."""
    if s.isdigit():
        return [s] if len(s) <= MAX_DIGITS else None
    parts = s.split(".")
    name = parts[0]
    if not name.isidentifier() or name[:2] == "__" or name.lower() in SPECIAL_WORDS:
        return None
    for part in parts[1:]:
        if not (part.isidentifier() and part[0] != "_" or part.isdigit()):
            return None
    return parts


def tiny_shape(text: str) -> tuple[str, list[str], int, str | None, list[str], int] | None:
    """The pieces of a tiny expression (see _TINY): (sign, parts of the first operand, its offset in
    ``text``, operator or None, parts of the second operand, its offset), or None if ``text`` is not
    tiny."""
    m = _TINY.fullmatch(text)
    if m is None or len(text) > MAX_EXPR_LENGTH:
        return None
    sign, left, op, right = m.groups()
    lparts = tiny_parts(left)
    if lparts is None:
        return None
    if op is None:
        return sign, lparts, m.start(2), None, lparts, 0
    rparts = tiny_parts(right)
    if rparts is None:
        return None
    return sign, lparts, m.start(2), op, rparts, m.start(4)


def _tiny_node(parts: list[str], start: int) -> A.Expr:
    """The tree of the tiny_parts of an operand at ``start``."""
    name = parts[0]
    pos = start + len(name)
    if name[0] <= "9":  # an integer
        return A.Literal(int(name), start, pos)
    node: A.Expr = A.Name(name, start, pos)
    for part in parts[1:]:
        pos += 1 + len(part)
        node = A.Index(node, int(part), start, pos) if part[0] <= "9" else A.Attr(node, part, start, pos)
    return node


def _tiny_operand(s: str, start: int) -> A.Expr | None:
    """The tree of an integer, a name or a name with attributes and indexes (``me.hand.size``, ``tgt.0``)
    written without blanks at ``start``, or None (a keyword, a float, an error …)."""
    parts = tiny_parts(s)
    return None if parts is None else _tiny_node(parts, start)


def tiny_int(text: str) -> tuple[str, str] | None:
    """(sign, digits) of an integer written alone, maybe signed ('250', '+100'), the commonest expression;
    else None."""
    sign = text[:1]
    digits = text[1:] if sign == "+" or sign == "-" else text
    if digits.isdigit() and digits.isascii() and len(digits) <= MAX_DIGITS:
        return ("" if digits is text else sign), digits
    return None


def _tiny_expr(text: str, base: int) -> A.Expr | None:
    """The tree of the commonest expressions (see _TINY) made from the text itself, without tokens; None
    for anything else.  tests/compiler/test_parser.py checks that this gives exactly the tree the
    grammar gives."""
    signed = tiny_int(text)
    if signed is not None:  # '250', '+100': no regex
        sign, digits = signed
        if not sign:
            return A.Literal(int(text), base, base + len(text))
        return A.Unary(sign, A.Literal(int(digits), base + 1, base + len(text)), base, base + len(text))
    shape = tiny_shape(text)
    if shape is None:
        return None
    sign, lparts, lstart, op, rparts, rstart = shape
    start = base + lstart
    node = _tiny_node(lparts, start)
    if sign:
        node = A.Unary(sign, node, start - 1, node.end)
    if op is None:
        return node
    other = _tiny_node(rparts, base + rstart)
    if op in _COMPARISONS:
        return A.Compare([node, other], [op], node.start, other.end)
    return A.BinOp(op, node, other, node.start, other.end)


def parse_expr(text: str, base: int = 0) -> A.Expr:
    node = _tiny_expr(text, base)
    if node is not None:
        return node
    return parse_other_expr(text, base)


def parse_other_expr(text: str, base: int = 0) -> A.Expr:
    """parse_expr for an expression that _tiny_expr does not read."""
    toks = _expr_tokens(text, base)
    return _fast(toks, _FastExpr.expr) or _parse(toks, "expr", len(text), base)


def parse_vars(text: str, base: int = 0) -> list[tuple[Token, A.Expr]]:
    toks = _expr_tokens(text, base)
    decls = _fast(toks, _FastExpr.vars) or _parse(toks, "vars_value", len(text), base)
    return [(to_token(name), expr) for name, expr in decls]


def parse_each_head(text: str, base: int) -> tuple[A.Expr, A.Expr]:
    m = _TINY_EACH.fullmatch(text)
    if m is not None and len(text) <= MAX_EXPR_LENGTH:  # 'char in opp.ring': as _tiny_expr
        elem = _tiny_operand(m.group(1), base + m.start(1))
        seq = _tiny_operand(m.group(2), base + m.start(2))
        if elem is not None and seq is not None:
            return elem, seq
    toks = _expr_tokens(text, base)
    return _fast(toks, _FastExpr.each_head) or _parse(toks, "each_head", len(text), base)


PARSERS: dict[str, Callable[..., Any]] = {
    "action": parse_action, "auto": parse_auto, "filters": parse_filters, "requisite": parse_requisite,
    "expr": parse_expr, "vars": parse_vars,
}
