"""Parsing RuleScript values: tokens (rulescript.lexer) → lark LALR → typed AST (rulescript.ast).

One :class:`lark.Lark` instance, built once per process, parses every kind of value through its own
start symbol.  The tree is turned into AST nodes by an inline transformer, so no intermediate lark
tree is kept.  Every failure is raised as :class:`rulescript.lexer.LexError` with offsets into the
value text and the tokens that were expected.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import lark
from lark import Transformer
from lark.lexer import Lexer

from rulescript import ast as A
from rulescript.lexer import LexError, Token, tokenize_expr, tokenize_filter, tokenize_statements

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


def _s(node: Any) -> int:
    return node.start_pos if isinstance(node, Token) else node.start


def _e(node: Any) -> int:
    return node.end_pos if isinstance(node, Token) else node.end


def _raw(tok: Token) -> A.Raw:
    return A.Raw(str(tok), tok.start_pos, tok.end_pos)


class _ToAst(Transformer):  # type: ignore[type-arg]
    """Inline transformer: lark rule callbacks build AST nodes directly."""

    # -- statements
    def action_with_costs(self, c: list[Any]) -> A.ActionValue:
        return A.ActionValue(c[0], c[2])

    def action_plain(self, c: list[Any]) -> A.ActionValue:
        return A.ActionValue([], c[0])

    def auto_with_trigger(self, c: list[Any]) -> A.AutoValue:
        return A.AutoValue(_raw(c[0]), c[1])

    def auto_plain(self, c: list[Any]) -> A.AutoValue:
        return A.AutoValue(None, c[0])

    def auto_trigger_only(self, c: list[Any]) -> A.AutoValue:
        return A.AutoValue(_raw(c[0]), [])

    def cost_block(self, c: list[Token]) -> list[A.Raw]:
        return [_raw(t) for t in c]

    def chain_value(self, c: list[Any]) -> A.Body:
        return c[0]

    def statement_list(self, c: list[Any]) -> list[A.Statement]:
        return [x for x in c if isinstance(x, A.Statement)]

    def may_statement(self, c: list[Any]) -> A.Statement:
        return A.Statement("may", body=c[1], may_text=_raw(c[0]), start=c[0].line, end=c[1].end)

    def plain_statement(self, c: list[Any]) -> A.Statement:
        return A.Statement("plain", body=c[0], start=c[0].start, end=c[0].end)

    def if_statement(self, c: list[Any]) -> A.Statement:
        cond, body, *rest = c
        branches = [A.Branch("if", _raw(cond), body, cond.line, body.end if body else cond.end_line)]
        for part in rest:
            if part is not None:
                branches.append(part)
        return A.Statement("if", branches=branches, start=cond.line, end=max(branches[-1].end, cond.end_line))

    def elif_part(self, c: list[Any]) -> A.Branch:
        return A.Branch("elif", _raw(c[0]), c[1], c[0].line, c[1].end)

    def else_part(self, c: list[Any]) -> A.Branch:
        return A.Branch("else", None, c[1], c[0].line, c[1].end)

    def body(self, c: list[Any]) -> A.Body:
        return A.Body(c, _s(c[0]), _e(c[-1]))

    def command(self, c: list[Any]) -> A.Command:
        name, q, args = c
        return A.Command(str(name), q is not None, _raw(args), name.start_pos, args.end_pos + 1)

    def ability(self, c: list[Token]) -> A.AbilityEffect:
        t = c[0]
        return A.AbilityEffect(t[0], t[1:], t.start_pos, t.end_pos)

    def clause(self, c: list[Any]) -> A.Clause:
        kw, q, args = c
        return A.Clause(str(kw).lower(), q is not None, _raw(args), kw.start_pos, args.end_pos + 1)

    def bareword(self, c: list[Token]) -> A.Bareword:
        return A.Bareword(str(c[0]), c[0].start_pos, c[0].end_pos)

    def chain_op(self, c: list[Token]) -> A.ChainOp:
        return A.ChainOp(str(c[0]), c[0].start_pos, c[0].end_pos)

    # -- filters
    def filter_list(self, c: list[Any]) -> list[A.Filter]:
        return [x for x in c if isinstance(x, A.Filter)]

    def requisite_value(self, c: list[Any]) -> list[A.Filter]:
        return [x for x in c if isinstance(x, A.Filter)]

    def filter(self, c: list[Any]) -> A.Filter:
        return A.Filter(c, c[0][2], c[-1][3])

    def angle(self, c: list[Token]) -> tuple[str, object, int, int]:
        t = c[0]
        return ("angle", A.Angle(str(t), t.start_pos, t.end_pos), t.start_pos, t.end_pos)

    def types(self, c: list[Any]) -> tuple[str, object, int, int]:
        conjs = [x for x in c if isinstance(x, list)]
        return ("types", conjs, conjs[0][0].start, conjs[-1][-1].end)

    def type_conj(self, c: list[Any]) -> list[A.TypeTerm]:
        return [x for x in c if isinstance(x, A.TypeTerm)]

    def type_term(self, c: list[Any]) -> A.TypeTerm:
        caret, bang, base = c
        start = (caret or bang or base).start_pos
        kind = base.type
        text = str(base)
        if kind == "STARS":
            return A.TypeTerm("*", False, True, caret is not None, bang is not None, start, base.end_pos)
        quoted = kind in ("STRING", "QPLURAL")
        return A.TypeTerm(text, quoted, kind == "QPLURAL", caret is not None, bang is not None, start,
                          base.end_pos)

    def fblock(self, c: list[Any]) -> tuple[str, object, int, int]:
        return ("block", c[1], c[0].start_pos, c[2].end_pos)

    def fexpr(self, c: list[Any]) -> list[list[A.Atom]]:
        return [x for x in c if isinstance(x, list)]

    def fconj(self, c: list[Any]) -> list[A.Atom]:
        return [x for x in c if isinstance(x, A.Atom)]

    def fprefix(self, c: list[Token]) -> Token:
        return c[0]

    def fword(self, c: list[Any]) -> A.Atom:
        p, w = c
        return A.Atom(str(p) if p else "", str(w), "word", start=(p or w).start_pos, end=w.end_pos,
                      word_start=w.start_pos, word_end=w.end_pos)

    def fcmp(self, c: list[Any]) -> A.Atom:
        p, w, op, val = c
        return A.Atom(str(p) if p else "", str(w), "cmp", op, val[0], (p or w).start_pos, val[2],
                      w.start_pos, w.end_pos)

    def cmp_op(self, c: list[Token]) -> str:
        return "==" if str(c[0]) == "=" else str(c[0])

    def sint(self, c: list[Any]) -> tuple[int, int, int]:
        sign, num = c
        v = int(str(num))
        return (-v if sign is not None and str(sign) == "-" else v, (sign or num).start_pos, num.end_pos)

    def fextreme(self, c: list[Any]) -> A.Atom:
        p, w, _colon, which = c
        return A.Atom(str(p) if p else "", str(w), "extreme", ":", str(which), (p or w).start_pos,
                      which.end_pos, w.start_pos, w.end_pos)

    def zone(self, c: list[Token]) -> tuple[str, object, int, int]:
        return ("zone", c[1], c[0].start_pos, c[1].end_pos)

    def selector(self, c: list[Token]) -> tuple[str, object, int, int]:
        return ("selector", (c[1], _raw(c[2])), c[0].start_pos, c[2].end_pos + 1)

    # -- expressions
    def vars_value(self, c: list[Any]) -> list[tuple[Token, A.Expr]]:
        return [x for x in c if isinstance(x, tuple)]

    def var_decl(self, c: list[Any]) -> tuple[Token, A.Expr]:
        return (c[0], c[2])

    def each_head(self, c: list[Any]) -> tuple[A.Expr, A.Expr]:
        return (c[0], c[2])

    def conditional(self, c: list[Any]) -> A.Conditional:
        return A.Conditional(c[2], c[0], c[4], _s(c[0]), _e(c[4]))

    def or_op(self, c: list[Any]) -> A.BoolOp:
        return A.BoolOp("or", c[0], c[2], _s(c[0]), _e(c[2]))

    def and_op(self, c: list[Any]) -> A.BoolOp:
        return A.BoolOp("and", c[0], c[2], _s(c[0]), _e(c[2]))

    def not_op(self, c: list[Any]) -> A.Not:
        return A.Not(c[1], c[0].start_pos, _e(c[1]))

    def compare(self, c: list[Any]) -> A.Compare:
        return A.Compare(c[0::2], c[1::2], _s(c[0]), _e(c[-1]))

    def comp_op(self, c: list[Token]) -> str:
        t = str(c[0]).lower()
        return "not in" if t.startswith("not") else t

    qcomp_op = comp_op

    def binop(self, c: list[Any]) -> A.BinOp:
        return A.BinOp(str(c[1]), c[0], c[2], _s(c[0]), _e(c[2]))

    def unary(self, c: list[Any]) -> A.Unary:
        return A.Unary(str(c[0]), c[1], c[0].start_pos, _e(c[1]))

    def power_op(self, c: list[Any]) -> A.Power:
        return A.Power(c[0], c[2], _s(c[0]), _e(c[2]))

    def attr(self, c: list[Any]) -> A.Attr:
        return A.Attr(c[0], str(c[2]), _s(c[0]), c[2].end_pos)

    def index(self, c: list[Any]) -> A.Index:
        return A.Index(c[0], int(str(c[2])), _s(c[0]), c[2].end_pos)

    def call(self, c: list[Any]) -> A.Call:
        name, _lp, args, rp = c
        return A.Call(str(name), args or [], name.start_pos, rp.end_pos, name.end_pos)

    def arglist(self, c: list[Any]) -> list[A.Expr]:
        return [x for x in c if not isinstance(x, Token)]

    def name(self, c: list[Token]) -> A.Name:
        return A.Name(str(c[0]), c[0].start_pos, c[0].end_pos)

    def int_lit(self, c: list[Token]) -> A.Literal:
        return A.Literal(int(str(c[0])), c[0].start_pos, c[0].end_pos)

    def str_lit(self, c: list[Token]) -> A.Literal:
        return A.Literal(str(c[0]), c[0].start_pos, c[0].end_pos)

    def true_lit(self, c: list[Token]) -> A.Literal:
        return A.Literal(True, c[0].start_pos, c[0].end_pos)

    def false_lit(self, c: list[Token]) -> A.Literal:
        return A.Literal(False, c[0].start_pos, c[0].end_pos)

    def nil_lit(self, c: list[Token]) -> A.Literal:
        return A.Literal(None, c[0].start_pos, c[0].end_pos)

    def list_lit(self, c: list[Any]) -> A.ListLit:
        return A.ListLit(c[1] or [], c[0].start_pos, c[2].end_pos)

    def paren(self, c: list[Any]) -> A.Expr:
        inner = c[1]  # the parentheses belong to the node's span: '(tgt.0).bp' starts at '('
        inner.start = c[0].start_pos
        inner.end = c[2].end_pos
        return inner

    def quant_all(self, c: list[Any]) -> A.Quantifier:
        return A.Quantifier("all", c[1], c[3], c[0].start_pos, _e(c[3]))

    def quant_any(self, c: list[Any]) -> A.Quantifier:
        return A.Quantifier("any", c[1], c[3], c[0].start_pos, _e(c[3]))


@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    return lark.Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", lexer=_PreTokenized,
                     start=START_SYMBOLS, maybe_placeholders=True, transformer=_ToAst())


class _ParseFailure(Exception):
    def __init__(self, token: Token, expected: set[str]) -> None:
        super().__init__(token.type)
        self.token = token
        self.expected = expected


class _Driver:
    """Runs lark's LALR(1) table for our grammar with a tight loop.

    lark builds the table and the callbacks (our inline transformer, with its placeholder handling);
    this loop only replaces lark's general-purpose token feeder, whose per-token bookkeeping was half
    of the compile time.  Each row maps a terminal to ``(True, next_state)`` for a shift or
    ``(False, (size, callback, non_terminal))`` for a reduction.
    """

    def __init__(self, lk: lark.Lark) -> None:
        inner = lk.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> _Parser
        table = inner.parse_table
        callbacks = inner.callbacks
        self.rows: dict[int, dict[str, tuple[bool, Any]]] = {}
        for state, actions in table.states.items():
            row: dict[str, tuple[bool, Any]] = {}
            for symbol, (action, arg) in actions.items():
                # plain str keys: lark's symbol names may be its own Token class, slow to compare
                if action.name == "Shift":
                    row[str(symbol)] = (True, arg)
                elif arg.options.expand1 and arg.alias is None and len(arg.expansion) == 1:
                    # a '?rule' with one child passes the child through: only the state changes
                    row[str(symbol)] = (False, (-1, None, str(arg.origin.name)))
                else:
                    row[str(symbol)] = (False, (len(arg.expansion), callbacks[arg], str(arg.origin.name)))
            self.rows[state] = row
        self.start_states = dict(table.start_states)
        self.end_states = dict(table.end_states)

    def parse(self, tokens: list[Token], start: str, end_pos: int) -> Any:
        rows = self.rows
        states = [self.start_states[start]]
        values: list[Any] = []
        for tok in tokens:
            kind = tok.type
            while True:
                row = rows[states[-1]]
                act = row.get(kind)
                if act is None:
                    raise _ParseFailure(tok, {k for k in row if k.isupper()})
                shift, arg = act
                if shift:
                    states.append(arg)
                    values.append(tok)
                    break
                size, callback, origin = arg
                if size < 0:
                    states.pop()
                elif size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                    values.append(callback(children))
                else:
                    values.append(callback([]))
                states.append(rows[states[-1]][origin][1])
        end_state = self.end_states[start]
        while True:
            row = rows[states[-1]]
            act = row.get("$END")
            if act is None or act[0]:
                raise _ParseFailure(Token("$END", "", start_pos=end_pos, end_pos=end_pos),
                                    {k for k in row if k.isupper()})
            size, callback, origin = act[1]
            if size < 0:
                states.pop()
            elif size:
                children = values[-size:]
                del states[-size:]
                del values[-size:]
                values.append(callback(children))
            else:
                values.append(callback([]))
            states.append(rows[states[-1]][origin][1])
            if states[-1] == end_state:
                return values[-1]


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


def _parse(tokens: list[Token], start: str, text_len: int, base: int) -> Any:
    try:
        return _driver().parse(tokens, start, base + text_len)
    except _ParseFailure as exc:
        tok = exc.token
        context = _CONTEXT[start]
        if tok.type == "$END":
            pos = base + text_len
            raise LexError(f"unexpected end of {context}", max(base, pos - 1) if text_len else base, pos,
                           _expected(exc.expected, start)) from None
        shown = str(tok) if tok.type not in ("ARGS", "SELARG", "COST", "TRIGGER") else tok.type.lower()
        start_pos, end_pos = tok.start_pos, tok.end_pos or tok.start_pos + 1
        if tok.type.startswith("G_"):
            shown = "[[" + tok.type[2:].lower()
            start_pos, end_pos = tok.line, tok.line + len(shown)
        msg = f"unexpected '{shown}' in {context}"
        if tok.type == "LPAR" and start in ("expr", "vars_value", "each_head"):
            msg = f"unexpected '(' in {context}: only functions can be called (no method calls)"
        if tok.type == "POW":
            msg = "the power operator '**' is not allowed"
        raise LexError(msg, start_pos, end_pos, _expected(exc.expected, start)) from None


def _check_depth(tokens: list[Token]) -> None:
    depth = 0
    for t in tokens:
        if t.type in ("LPAR", "LSQB"):
            depth += 1
            if depth > MAX_DEPTH:
                raise LexError(f"expression nested deeper than {MAX_DEPTH} levels", t.start_pos, t.end_pos,
                               code="RS510")
        elif t.type in ("RPAR", "RSQB"):
            depth -= 1
    ops = sum(1 for t in tokens if t.type in ("KW_NOT", "MINUS", "PLUS"))
    if ops > MAX_DEPTH * 4:
        raise LexError(f"expression nested deeper than {MAX_DEPTH} levels", tokens[0].start_pos,
                       tokens[0].end_pos, code="RS510")


def parse_action(text: str) -> A.ActionValue:
    return _parse(tokenize_statements(text), "action_value", len(text), 0)


def parse_auto(text: str) -> A.AutoValue:
    return _parse(tokenize_statements(text, allow_trigger=True), "auto_value", len(text), 0)


def parse_chain(text: str, base: int) -> A.Body:
    return _parse(tokenize_statements(text, base), "chain_value", len(text), base)


def parse_filters(text: str, base: int = 0) -> list[A.Filter]:
    if not text.strip():
        raise LexError("empty target filter", base, base + 1, ("a filter",))
    return _parse(tokenize_filter(text, base), "filter_list", len(text), base)


def parse_requisite(text: str, base: int = 0) -> list[A.Filter]:
    if not text.strip():
        raise LexError("empty requisite", base, base + 1, ("a filter",))
    return _parse(tokenize_filter(text, base, allow_andand=True), "requisite_value", len(text), base)


def _expr_tokens(text: str, base: int) -> list[Token]:
    toks = tokenize_expr(text, base)
    if not toks:
        raise LexError("empty expression", base, base + 1, ("an expression",))
    _check_depth(toks)
    return toks


def _simple_expr(toks: list[Token]) -> A.Expr | None:
    """The AST of the commonest tiny expressions (``250``, ``-200``, ``_x``, ``me.hand.size``, ``tgt.0``)
    built without running the parser; anything else returns None.  tests/compiler/test_parser.py
    checks that this gives exactly the tree the grammar gives."""
    first = toks[0]
    kind = first.type
    if len(toks) == 1:
        if kind == "INT":
            return A.Literal(int(first), first.start_pos, first.end_pos)
        if kind == "NAME":
            return A.Name(str(first), first.start_pos, first.end_pos)
        return None
    if len(toks) == 2 and kind in ("PLUS", "MINUS") and toks[1].type == "INT":
        num = toks[1]
        return A.Unary(str(first), A.Literal(int(num), num.start_pos, num.end_pos), first.start_pos, num.end_pos)
    if kind != "NAME" or len(toks) % 2 == 0:
        return None
    node: A.Expr = A.Name(str(first), first.start_pos, first.end_pos)
    for i in range(1, len(toks), 2):
        dot, part = toks[i], toks[i + 1]
        if dot.type != "DOT":
            return None
        if part.type == "NAME":
            node = A.Attr(node, str(part), first.start_pos, part.end_pos)
        elif part.type == "DIGITS":
            node = A.Index(node, int(part), first.start_pos, part.end_pos)
        else:
            return None
    return node


def parse_expr(text: str, base: int = 0) -> A.Expr:
    toks = _expr_tokens(text, base)
    return _simple_expr(toks) or _parse(toks, "expr", len(text), base)


def parse_vars(text: str, base: int = 0) -> list[tuple[Token, A.Expr]]:
    return _parse(_expr_tokens(text, base), "vars_value", len(text), base)


def parse_each_head(text: str, base: int) -> tuple[A.Expr, A.Expr]:
    return _parse(_expr_tokens(text, base), "each_head", len(text), base)


PARSERS: dict[str, Callable[..., Any]] = {
    "action": parse_action, "auto": parse_auto, "filters": parse_filters, "requisite": parse_requisite,
    "expr": parse_expr, "vars": parse_vars,
}
