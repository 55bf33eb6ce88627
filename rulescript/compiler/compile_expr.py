"""Checking expressions against the profile and lowering them to IR.

Expressions are never evaluated from text: they are parsed (rulescript.compiler.parser) and every name,
function, attribute and operator is checked here.  The IR is a nested list whose first element is the
node kind; nodes that can fail at run time carry ``[line, col, end_col]``.  A light static type
(``int``, ``str``, ``bool``, ``nil``, ``list``, ``card``, ``player``, ``constant``, ``any``) catches
mistakes such as using the list ``tgt`` as one card.
"""

from __future__ import annotations

from typing import Any, Callable

from rulescript.compiler import ast as A
from rulescript.compiler.context import Abort, Ctx
from rulescript.compiler.lexer import LexError
from rulescript.compiler.parser import _COMPARISONS, MAX_DEPTH, parse_expr, parse_other_expr, tiny_int, tiny_shape

IR = Any
MAX_AST_DEPTH = 200
_DEEPEST = MAX_AST_DEPTH + 1  # the depth of the deepest node lowered
_SCALARS = frozenset({"int", "str", "bool", "nil", "constant"})  # types that have no attributes
_LITERAL_TYPES = {type(None): "nil", bool: "bool", int: "int", str: "str"}
_NOT_NUMERIC = frozenset({"card", "player", "bool", "nil", "constant"})  # operands arithmetic refuses
_NOT_SIGNED = frozenset({"card", "player", "list", "str", "nil", "constant"})  # operands a sign refuses
_NOT_A = {
    "num": frozenset({"str", "list", "card", "player", "nil", "constant"}),
    "card": frozenset({"int", "str", "bool", "list", "player", "constant"}),
    "targets": frozenset({"int", "str", "bool", "constant"}),
    "text": frozenset({"list", "card", "player", "nil", "bool"}),
    "value": frozenset(),
}


class ExprCompiler:
    """Lowers expressions of the current value; ``filter_compiler`` compiles the literal of a filter function.

    One instance serves a whole file: :meth:`root` and :meth:`lower_top` set the element scope of the
    expression at hand.  They nest only through a filter literal (whose selector holds an expression),
    so :meth:`_Call` restores the outer scope after compiling one."""

    def __init__(self, ctx: Ctx, filter_compiler: Callable[[str, int], IR]):
        self.ctx = ctx
        self.filter_compiler = filter_compiler
        self.element_depth = 0  # > 0 inside a quantifier or an each, where element names are defined
        prof = ctx.profile
        self.name_types = prof.name_types
        self.element_names = prof.element_names
        self.attribute_types = prof.attribute_types

    # public ------------------------------------------------------------------------------------
    def compile(self, text: str, base: int, element_scope: bool = False) -> dict[str, Any]:
        """Parse and lower the expression ``text`` found at offset ``base`` of the current value."""
        root = self._tiny(text, base, element_scope)
        if root is not None:
            return root
        try:
            node = parse_other_expr(text, base)
        except LexError as exc:
            raise self.ctx.lex_error(exc) from None
        return self.root(node, text.strip(), element_scope)

    def _tiny(self, text: str, base: int, element_scope: bool) -> dict[str, Any] | None:
        """:meth:`compile` of a tiny expression (see parser._tiny_expr), lowered straight from its text: the
        same checks, errors and coverage marks, in the same order, as lowering the tree parse_expr makes,
        without making the tree.  None if ``text`` is not tiny.  tests/compiler/test_expr_fast.py compares
        the two on many expressions."""
        ctx = self.ctx
        signed = tiny_int(text)
        if signed is not None:  # '250', '+100': the commonest expressions
            sign, digits = signed
            at = ctx.at(base, base + len(text))
            ir: IR = ["lit", int(digits)]
            if sign:  # as _unary, which cannot fail on an int; the sign spans the whole text, as the root
                ctx.used["operators"].add("unary-" if sign == "-" else "unary+")
                ir = ["neg" if sign == "-" else "pos", ir, at.copy()]
            return {"e": ir, "at": at, "text": text, "type": "int"}
        shape = tiny_shape(text)
        if shape is None:
            return None
        sign, lparts, lstart, op, rparts, rstart = shape
        if len(lparts) + len(rparts) > MAX_DEPTH:  # a long chain of attributes, maybe too deep: the tree decides
            return self.root(parse_expr(text, base), text.strip(), element_scope)
        self.element_depth = 1 if element_scope else 0
        start = base + lstart
        ir, typ, end = self._tiny_operand(lparts, start)
        if sign:
            start -= 1
            ir, typ = self._unary(sign, ir, typ, start, end)
        if op is not None:
            left, lt, lend = ir, typ, end
            rstart += base
            right, rt, end = self._tiny_operand(rparts, rstart)
            if op in _COMPARISONS:  # as _Compare
                ctx.used["operators"].add(op)
                ir, typ = ["cmp", [left, right], [op], ctx.at(start, end)], "bool"
            else:
                ir, typ = self._binop(op, left, lt, right, rt, (start, lend), (rstart, end), start, end)
        return {"e": ir, "at": ctx.at(start, end), "text": text.strip(), "type": typ}

    def _tiny_operand(self, parts: list[str], start: int) -> tuple[IR, str, int]:
        """(IR, static type, end) of the parser.tiny_parts of an operand at ``start``: as the tree
        parser._tiny_node makes, lowered."""
        first = parts[0]
        end = start + len(first)
        if first[0] <= "9":  # an integer
            return ["lit", int(first)], "int", end
        ir, typ = self._name(first, start, end)
        for part in parts[1:]:
            end += 1 + len(part)
            if part[0] <= "9":
                ir, typ = self._index(ir, typ, int(part), start, end)
            else:
                ir, typ = self._attr(ir, typ, part, end)
        return ir, typ, end

    def compile_as(self, text: str, base: int, end: int, wanted: str, signature: Any,
                   element_scope: bool = False) -> dict[str, Any]:
        """:meth:`compile`, then reject a static type that cannot be a ``wanted`` (num, card, targets),
        reporting the range ``base``–``end``.  ``signature`` (shown in the note) is a string, or a command
        spec whose signature is shown."""
        root = self.compile(text, base, element_scope)
        typ = root["type"]
        if typ in _NOT_A[wanted]:
            if not isinstance(signature, str):
                signature = signature.signature
            extra = ()
            if wanted == "card" and typ == "list":
                extra = ("a list holds several cards: take one element, as in tgt.0",)
            what = {"num": "a number", "card": "a card", "text": "a text"}.get(wanted, "cards or players")
            raise self.ctx.fail("RS302", f"expected {what}, got a {typ}", base, end,
                                (f"signature: {signature}",) + extra)
        return root

    def root(self, node: A.Expr, text: str, element_scope: bool = False) -> dict[str, Any]:
        """The IR of a whole expression: lowered tree, position, source text and static type."""
        self.element_depth = 1 if element_scope else 0
        ir, typ = _LOWER[node.__class__](self, node, 1)
        return {"e": ir, "at": self.ctx.at(node.start, node.end), "text": text, "type": typ}

    def lower_top(self, node: A.Expr, element_scope: bool) -> tuple[IR, str]:
        """(IR, static type) of a tree lowered on its own, with element names defined or not."""
        self.element_depth = 1 if element_scope else 0
        return _LOWER[node.__class__](self, node, 1)

    # per node ----------------------------------------------------------------------------------
    # One method per node class (see _LOWER), called with the node and its depth in the tree (the root
    # is at 1).  A node lowers a child with _LOWER[child.__class__](self, child, d + 1): one call per
    # node, the commonest operation here; each method first refuses a node nested too deep.
    def _too_deep(self, n: A.Expr) -> Abort:
        return self.ctx.fail("RS510", f"expression nested deeper than {MAX_DEPTH} levels", n.start, n.end)

    def _Literal(self, n: A.Literal, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        v = n.value
        return ["lit", v], _LITERAL_TYPES.get(v.__class__, "str")

    def _ListLit(self, n: A.ListLit, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        items = []  # (a loop: a list comprehension costs one more call)
        for x in n.items:
            items.append(_LOWER[x.__class__](self, x, d + 1)[0])
        return ["list", items], "list"

    def _Name(self, n: A.Name, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        return self._name(n.name, n.start, n.end)

    def _name(self, name: str, start: int, end: int) -> tuple[IR, str]:
        """The name ``name`` written at ``start``–``end``: a user variable or a name of the profile."""
        ctx = self.ctx
        low = name.lower()
        if low in ctx.user_vars:
            ctx.used["names"].add("user variables")
            return ["var", low], "any"
        typ = self.name_types.get(low)
        if typ is None:
            prof = ctx.profile
            known = [prof.spelling(prof.names, k) for k in prof.names] + list(ctx.user_vars)
            if low.startswith("_"):
                raise ctx.unknown("RS211", "variable", name, known, start, end)
            raise ctx.unknown("RS211", "name", name, known, start, end)
        if self.element_depth == 0 and low in self.element_names:
            raise ctx.fail("RS309", f"'{name}' is only defined inside a quantifier (all/any … in …) or an each",
                           start, end, ("use 'trigger' or 'this' outside them",))
        ctx.used["names"].add(low)
        return ["name", low], typ

    def _Attr(self, n: A.Attr, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        obj, otyp = _LOWER[n.obj.__class__](self, n.obj, d + 1)
        return self._attr(obj, otyp, n.name, n.end)

    def _attr(self, obj: IR, otyp: str, name: str, end: int) -> tuple[IR, str]:
        """The attribute ``name``, ending at ``end``, of ``obj`` (IR) of static type ``otyp``."""
        ctx = self.ctx
        low = name.lower()
        start = end - len(name)
        typ = self.attribute_types.get((otyp, low))  # an attribute of a known owner type
        if typ is None or otyp in _SCALARS:
            typ = self._attr_type(otyp, low, name, start, end)
        ctx.used["attributes"].add(low)
        return ["attr", obj, low, ctx.at(start, end)], typ

    def _attr_type(self, otyp: str, low: str, name: str, start: int, end: int) -> str:
        """The type of the attribute ``low`` of an ``otyp`` the fast lookup did not resolve, or an error."""
        ctx = self.ctx
        prof = ctx.profile
        attrs = prof.attributes
        if low not in prof.all_attributes:
            known = [prof.spelling(t, a) for t in attrs.values() for a in t]
            raise ctx.unknown("RS213", "attribute", name, known, start, end)
        if otyp in attrs and low not in attrs[otyp]:
            owners = sorted(prof.all_attributes[low])
            hint = ()
            if otyp == "list" and ("card" in owners or "player" in owners):
                hint = ("a list holds cards or players: take one element first, as in tgt.0." + name,)
            raise ctx.fail("RS302", f"a {otyp} has no attribute '{name}' (it belongs to: {', '.join(owners)})",
                           start, end, hint)
        if otyp in _SCALARS:
            raise ctx.fail("RS302", f"a value of type {otyp} has no attributes", start, end)
        return prof.attribute_union_types[low]

    def _Index(self, n: A.Index, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        obj, otyp = _LOWER[n.obj.__class__](self, n.obj, d + 1)
        return self._index(obj, otyp, n.index, n.start, n.end)

    def _index(self, obj: IR, otyp: str, index: int, start: int, end: int) -> tuple[IR, str]:
        """Element ``index`` of ``obj`` (IR) of static type ``otyp``; the whole spans ``start``–``end``."""
        ctx = self.ctx
        if otyp not in ("list", "any"):
            raise ctx.fail("RS302", f"only a list can be indexed (this is a {otyp})", start, end)
        ctx.used["attributes"].add(".N")
        return ["index", obj, index, ctx.at(start, end)], "any"

    def _Call(self, n: A.Call, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
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
        ctx.used["functions"].add(low)
        at = ctx.at(n.start, n.end)
        if spec.get("filter_literal"):
            arg = n.args[0]
            if not (isinstance(arg, A.Literal) and isinstance(arg.value, str)):
                raise ctx.fail("RS310", f"the argument of {n.func}() must be a string literal holding a filter",
                               arg.start, arg.end)
            outer = self.element_depth
            flt = self.filter_compiler(arg.value, arg.start + 1)
            self.element_depth = outer  # a selector in the literal has set the scope of its own expression
            return ["filter_call", low, flt, at], "list"
        args = []
        for a in n.args:
            args.append(_LOWER[a.__class__](self, a, d + 1)[0])
        return ["call", low, args, at], str(spec.get("returns", "any"))

    def _BinOp(self, n: A.BinOp, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        left, lt = _LOWER[n.left.__class__](self, n.left, d + 1)
        right, rt = _LOWER[n.right.__class__](self, n.right, d + 1)
        a, b = n.left, n.right
        return self._binop(n.op, left, lt, right, rt, (a.start, a.end), (b.start, b.end), n.start, n.end)

    def _binop(self, op: str, left: IR, lt: str, right: IR, rt: str, left_span: tuple[int, int],
               right_span: tuple[int, int], start: int, end: int) -> tuple[IR, str]:
        """``left`` (of type ``lt``, spanning ``left_span``) ``op`` ``right``: an arithmetic operation."""
        if lt in _NOT_NUMERIC or rt in _NOT_NUMERIC:
            span, typ = (left_span, lt) if lt in _NOT_NUMERIC else (right_span, rt)
            raise self.ctx.fail("RS302", f"operator '{op}' needs numbers (this operand is a {typ})", *span)
        if lt == rt == "int":
            typ = "int"
        elif lt == "list" or rt == "list":
            typ = "list"
        else:
            typ = "str" if op == "+" and (lt == "str" or rt == "str") else "any"
        ctx = self.ctx
        ctx.used["operators"].add(op)
        return ["bin", op, left, right, ctx.at(start, end)], typ

    def _Unary(self, n: A.Unary, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        x, t = _LOWER[n.operand.__class__](self, n.operand, d + 1)
        return self._unary(n.op, x, t, n.start, n.end)

    def _unary(self, op: str, x: IR, t: str, start: int, end: int) -> tuple[IR, str]:
        """A sign ``op`` before ``x`` (IR) of type ``t``; the whole spans ``start``–``end``."""
        ctx = self.ctx
        if t in _NOT_SIGNED:
            raise ctx.fail("RS302", f"unary '{op}' needs a number (this is a {t})", start, end)
        ctx.used["operators"].add("unary-" if op == "-" else "unary+")
        return ["neg" if op == "-" else "pos", x, ctx.at(start, end)], "int"

    def _Power(self, n: A.Power, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        raise self.ctx.fail("RS401", "the power operator '**' is not supported (huge powers are refused)",
                            n.start, n.end, ("multiply explicitly, e.g. x * x",))

    def _Compare(self, n: A.Compare, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        operands = []
        for x in n.operands:
            operands.append(_LOWER[x.__class__](self, x, d + 1)[0])
        ctx = self.ctx
        ops = n.ops
        marks = ctx.used["operators"]
        marks.update(ops)
        if len(ops) > 1:
            marks.add("chained comparison")
        return ["cmp", operands, list(ops), ctx.at(n.start, n.end)], "bool"

    def _BoolOp(self, n: A.BoolOp, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        self.ctx.used["operators"].add(n.op)
        left, right = n.left, n.right
        left_ir = _LOWER[left.__class__](self, left, d + 1)[0]
        return [n.op, left_ir, _LOWER[right.__class__](self, right, d + 1)[0]], "any"

    def _Not(self, n: A.Not, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        self.ctx.used["operators"].add("not")
        return ["not", _LOWER[n.operand.__class__](self, n.operand, d + 1)[0]], "bool"

    def _Conditional(self, n: A.Conditional, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        self.ctx.used["operators"].add("conditional")
        then, tt = _LOWER[n.then.__class__](self, n.then, d + 1)
        orelse, et = _LOWER[n.orelse.__class__](self, n.orelse, d + 1)
        return ["if", _LOWER[n.test.__class__](self, n.test, d + 1)[0], then, orelse], tt if tt == et else "any"

    def _Quantifier(self, n: A.Quantifier, d: int) -> tuple[IR, str]:
        if d > _DEEPEST:
            raise self._too_deep(n)
        seq, st = _LOWER[n.seq.__class__](self, n.seq, d + 1)
        if st not in ("list", "any"):
            raise self.ctx.fail("RS302", f"a quantifier ranges over a list (this is a {st})", n.seq.start, n.seq.end)
        self.element_depth += 1
        elem, _ = _LOWER[n.element.__class__](self, n.element, d + 1)
        self.element_depth -= 1
        self.ctx.used["operators"].add("quantifier " + n.kind)
        return ["q" + n.kind, elem, seq, self.ctx.at(n.start, n.end)], "bool"


_LOWER: dict[type, Callable[[ExprCompiler, Any, int], tuple[IR, str]]] = {
    cls: getattr(ExprCompiler, "_" + cls.__name__)
    for cls in (A.Literal, A.ListLit, A.Name, A.Attr, A.Index, A.Call, A.BinOp, A.Unary, A.Power, A.Compare,
                A.BoolOp, A.Not, A.Conditional, A.Quantifier)
}
