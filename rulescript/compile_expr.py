"""Checking expressions against the profile and lowering them to IR.

Expressions are never evaluated from text: they are parsed (rulescript.parser) and every name,
function, attribute and operator is checked here.  The IR is a nested list whose first element is the
node kind; nodes that can fail at run time carry ``[line, col, end_col]``.  A light static type
(``int``, ``str``, ``bool``, ``nil``, ``list``, ``card``, ``player``, ``constant``, ``any``) catches
mistakes such as using the list ``tgt`` as one card.
"""

from __future__ import annotations

from typing import Any, Callable

from rulescript import ast as A
from rulescript.context import Abort, Ctx
from rulescript.lexer import LexError
from rulescript.parser import MAX_DEPTH, parse_expr

IR = Any
MAX_AST_DEPTH = 200
ARITH = {"+", "-", "*", "/", "//", "%"}


def _strip_optional(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


class ExprCompiler:
    """Lowers one expression tree; ``filter_compiler`` compiles the literal of a filter function."""

    def __init__(self, ctx: Ctx, filter_compiler: Callable[[str, int], IR], element_scope: bool = False):
        self.ctx = ctx
        self.filter_compiler = filter_compiler
        self.element_depth = 1 if element_scope else 0

    # public ------------------------------------------------------------------------------------
    def root(self, node: A.Expr, text: str) -> dict[str, Any]:
        ir, typ = self.lower(node, 0)
        return {"e": ir, "at": self.ctx.at(node.start, node.end), "text": text, "type": typ}

    # helpers -----------------------------------------------------------------------------------
    def lower(self, node: A.Expr, depth: int) -> tuple[IR, str]:
        if depth > MAX_AST_DEPTH:
            raise self.ctx.fail("RS510", f"expression nested deeper than {MAX_DEPTH} levels", node.start,
                                node.end)
        return _LOWER[type(node)](self, node, depth + 1)

    def _Literal(self, n: A.Literal, d: int) -> tuple[IR, str]:
        v = n.value
        typ = "nil" if v is None else "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str"
        return ["lit", v], typ

    def _ListLit(self, n: A.ListLit, d: int) -> tuple[IR, str]:
        return ["list", [self.lower(x, d)[0] for x in n.items]], "list"

    def _Name(self, n: A.Name, d: int) -> tuple[IR, str]:
        ctx = self.ctx
        low = n.name.lower()
        if low in ctx.user_vars:
            ctx.mark("names", "user variables")
            return ["var", low], "any"
        spec = ctx.profile.names.get(low)
        if spec is None:
            known = list(ctx.profile.names) + list(ctx.user_vars)
            known = [ctx.profile.spelling(ctx.profile.names, k) for k in ctx.profile.names] + list(ctx.user_vars)
            if low.startswith("_"):
                raise ctx.unknown("RS211", "variable", n.name, known, n.start, n.end)
            raise ctx.unknown("RS211", "name", n.name, known, n.start, n.end)
        if spec.get("element") and self.element_depth == 0:
            raise ctx.fail("RS309", f"'{n.name}' is only defined inside a quantifier (all/any … in …) or an each",
                           n.start, n.end, ("use 'trigger' or 'this' outside them",))
        ctx.mark("names", low)
        typ = str(spec.get("type", "any"))
        return ["name", low], _strip_optional(typ) if typ != "constant" else "constant"

    def _Attr(self, n: A.Attr, d: int) -> tuple[IR, str]:
        ctx = self.ctx
        obj, otyp = self.lower(n.obj, d)
        low = n.name.lower()
        attrs = ctx.profile.attributes
        start = n.end - len(n.name)
        if low not in ctx.profile.all_attributes:
            known = [ctx.profile.spelling(t, a) for t in attrs.values() for a in t]
            raise ctx.unknown("RS213", "attribute", n.name, known, start, n.end)
        if otyp in attrs and low not in attrs[otyp]:
            owners = sorted(ctx.profile.all_attributes[low])
            hint = ()
            if otyp == "list" and ("card" in owners or "player" in owners):
                hint = ("a list holds cards or players: take one element first, as in tgt.0." + n.name,)
            raise ctx.fail("RS302", f"a {otyp} has no attribute '{n.name}' (it belongs to: {', '.join(owners)})",
                           start, n.end, hint)
        if otyp in ("int", "str", "bool", "nil", "constant"):
            raise ctx.fail("RS302", f"a value of type {otyp} has no attributes", start, n.end)
        ctx.mark("attributes", low)
        if otyp in attrs:
            typ = str(attrs[otyp][low].get("type", "any"))
        else:
            types = {str(attrs[k][low].get("type", "any")) for k in ctx.profile.all_attributes[low]}
            typ = types.pop() if len(types) == 1 else "any"
        return ["attr", obj, low, ctx.at(start, n.end)], _strip_optional(typ)

    def _Index(self, n: A.Index, d: int) -> tuple[IR, str]:
        obj, otyp = self.lower(n.obj, d)
        if otyp not in ("list", "any"):
            raise self.ctx.fail("RS302", f"only a list can be indexed (this is a {otyp})", n.start, n.end)
        self.ctx.mark("attributes", ".N")
        return ["index", obj, n.index, self.ctx.at(n.start, n.end)], "any"

    def _Call(self, n: A.Call, d: int) -> tuple[IR, str]:
        ctx = self.ctx
        low = n.func.lower()
        spec = ctx.profile.functions.get(low)
        if spec is None:
            known = [ctx.profile.spelling(ctx.profile.functions, k) for k in ctx.profile.functions]
            raise ctx.unknown("RS212", "function", n.func, known, n.start, n.func_end)
        lo, hi = spec.get("args", [0, 8])
        if not lo <= len(n.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ctx.fail("RS308", f"{ctx.profile.spelling(ctx.profile.functions, low)}() takes {want} "
                           f"argument{'s' if hi != 1 else ''}, got {len(n.args)}", n.start, n.end)
        ctx.mark("functions", low)
        at = ctx.at(n.start, n.end)
        if spec.get("filter_literal"):
            arg = n.args[0]
            if not (isinstance(arg, A.Literal) and isinstance(arg.value, str)):
                raise ctx.fail("RS310", f"the argument of {n.func}() must be a string literal holding a filter",
                               arg.start, arg.end)
            flt = self.filter_compiler(arg.value, arg.start + 1)
            return ["filter_call", low, flt, at], "list"
        args = [self.lower(a, d)[0] for a in n.args]
        return ["call", low, args, at], str(spec.get("returns", "any"))

    def _BinOp(self, n: A.BinOp, d: int) -> tuple[IR, str]:
        left, lt = self.lower(n.left, d)
        right, rt = self.lower(n.right, d)
        for typ, side in ((lt, n.left), (rt, n.right)):
            if typ in ("card", "player", "bool", "nil", "constant") and not (n.op == "+" and typ == "list"):
                raise self.ctx.fail("RS302", f"operator '{n.op}' needs numbers (this operand is a {typ})",
                                    side.start, side.end)
        typ = "int" if lt == rt == "int" else ("list" if "list" in (lt, rt) else
                                             "str" if "str" in (lt, rt) and n.op == "+" else "any")
        self.ctx.mark("operators", n.op)
        return ["bin", n.op, left, right, self.ctx.at(n.start, n.end)], typ

    def _Unary(self, n: A.Unary, d: int) -> tuple[IR, str]:
        x, t = self.lower(n.operand, d)
        if t in ("card", "player", "list", "str", "nil", "constant"):
            raise self.ctx.fail("RS302", f"unary '{n.op}' needs a number (this is a {t})", n.start, n.end)
        self.ctx.mark("operators", "unary" + n.op)
        return ["neg" if n.op == "-" else "pos", x, self.ctx.at(n.start, n.end)], "int"

    def _Power(self, n: A.Power, d: int) -> tuple[IR, str]:
        raise self.ctx.fail("RS401", "the power operator '**' is not supported (huge powers are refused)",
                            n.start, n.end, ("multiply explicitly, e.g. x * x",))

    def _Compare(self, n: A.Compare, d: int) -> tuple[IR, str]:
        operands = [self.lower(x, d)[0] for x in n.operands]
        for op in n.ops:
            self.ctx.mark("operators", op)
        if len(n.ops) > 1:
            self.ctx.mark("operators", "chained comparison")
        return ["cmp", operands, list(n.ops), self.ctx.at(n.start, n.end)], "bool"

    def _BoolOp(self, n: A.BoolOp, d: int) -> tuple[IR, str]:
        self.ctx.mark("operators", n.op)
        return [n.op, self.lower(n.left, d)[0], self.lower(n.right, d)[0]], "any"

    def _Not(self, n: A.Not, d: int) -> tuple[IR, str]:
        self.ctx.mark("operators", "not")
        return ["not", self.lower(n.operand, d)[0]], "bool"

    def _Conditional(self, n: A.Conditional, d: int) -> tuple[IR, str]:
        self.ctx.mark("operators", "conditional")
        then, tt = self.lower(n.then, d)
        orelse, et = self.lower(n.orelse, d)
        return ["if", self.lower(n.test, d)[0], then, orelse], tt if tt == et else "any"

    def _Quantifier(self, n: A.Quantifier, d: int) -> tuple[IR, str]:
        seq, st = self.lower(n.seq, d)
        if st not in ("list", "any"):
            raise self.ctx.fail("RS302", f"a quantifier ranges over a list (this is a {st})", n.seq.start, n.seq.end)
        self.element_depth += 1
        try:
            elem, _ = self.lower(n.element, d)
        finally:
            self.element_depth -= 1
        self.ctx.mark("operators", "quantifier " + n.kind)
        return ["q" + n.kind, elem, seq, self.ctx.at(n.start, n.end)], "bool"


_LOWER: dict[type, Callable[[ExprCompiler, Any, int], tuple[IR, str]]] = {
    cls: getattr(ExprCompiler, "_" + cls.__name__)
    for cls in (A.Literal, A.ListLit, A.Name, A.Attr, A.Index, A.Call, A.BinOp, A.Unary, A.Power, A.Compare,
                A.BoolOp, A.Not, A.Conditional, A.Quantifier)
}


def compile_expr_text(ctx: Ctx, text: str, base: int, filter_compiler: Callable[[str, int], IR],
                      element_scope: bool = False) -> dict[str, Any]:
    """Parse and lower the expression ``text`` found at offset ``base`` of the current value."""
    try:
        node = parse_expr(text, base)
    except LexError as exc:
        raise ctx.lex_error(exc) from None
    return ExprCompiler(ctx, filter_compiler, element_scope).root(node, text.strip())


def static_type(root: dict[str, Any]) -> str:
    return str(root.get("type", "any"))


_NOT_A = {
    "num": frozenset({"str", "list", "card", "player", "nil", "constant"}),
    "card": frozenset({"int", "str", "bool", "list", "player", "constant"}),
    "targets": frozenset({"int", "str", "bool", "constant"}),
}


def expect_kind(ctx: Ctx, root: dict[str, Any], wanted: str, start: int, end: int, signature: Any) -> None:
    """Reject an expression whose static type cannot be a ``wanted`` (num, card, card_or_player).

    ``signature`` (shown in the note) is a string, or a command spec whose signature is shown."""
    typ = static_type(root)
    if typ in _NOT_A[wanted]:
        if not isinstance(signature, str):
            signature = signature.signature
        extra = ()
        if wanted == "card" and typ == "list":
            extra = ("a list holds several cards: take one element, as in tgt.0",)
        raise ctx.fail("RS302", f"expected {'a number' if wanted == 'num' else 'a card' if wanted == 'card' else 'cards or players'}"
                       f", got a {typ}", start, end, (f"signature: {signature}",) + extra)
