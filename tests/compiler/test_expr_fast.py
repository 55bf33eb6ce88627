"""ExprCompiler.compile lowers tiny expressions straight from their text (ExprCompiler._tiny): it must give
exactly what lowering the tree of parse_expr gives (IR, diagnostics, coverage marks and their order), on
valid, wrongly typed, unknown and damaged expressions."""

from __future__ import annotations

import random
from typing import Any

from rulescript.compiler import parser as P
from rulescript.compiler.compile_rule import RuleCompiler
from rulescript.compiler.context import Abort, CardDatabase, Ctx
from rulescript.diagnostics import DiagnosticBag
from rulescript.compiler.ini import Value
from rulescript.compiler.lexer import LexError
from rulescript.compiler.profile import load_profile

from .test_parser import _expression_corpus

PROFILE = load_profile("cfc")

_OPERANDS = ["me", "opp", "tgt", "card", "this", "trigger", "prevTgt", "ALONE", "foo", "_v", "_w", "all", "in",
             "__x", "Me", "0", "7", "250", "1" * 15, "1" * 16, "12abc", "x_1"]
_ATTRS = ["hand", "size", "bp", "hp", "sp", "ring", "controller", "lastBP", "zz", "0", "12", "_p", "in", "1x",
          "", "name", "Size"]
_OPS = ["==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "//", "/", "%", "**", "=", "in", "and"]


def _operand(rng: random.Random) -> str:
    text = rng.choice(_OPERANDS)
    while rng.random() < 0.5:
        text += "." + rng.choice(_ATTRS)
    return text


def _tiny_candidate(rng: random.Random) -> str:
    """A text close to the tiny shapes: maybe a sign, an operand, maybe an operator and another operand."""
    text = rng.choice(["", "", "", "+", "-", " ", "\t"]) + _operand(rng)
    if rng.random() < 0.6:
        text += rng.choice(["", " ", "  "]) + rng.choice(_OPS) + rng.choice(["", " "]) + _operand(rng)
    return text + rng.choice(["", "", " ", "\n"])


def _lower(text: str, fast: bool, element_scope: bool, pieces: list[tuple[int, int, int]]) -> Any:
    """The result of compiling ``text`` (fast: ExprCompiler.compile; else: the tree of parse_expr, lowered),
    the diagnostics reported and the coverage marks, in order."""
    bag = DiagnosticBag()
    ctx = Ctx(PROFILE, CardDatabase(), bag, Value(text, "t.ini", pieces))
    ctx.user_vars["_v"] = 0
    compiler = RuleCompiler(ctx)
    exprs = compiler.exprs
    try:
        if fast:
            out: Any = exprs.compile(text, 2, element_scope)
        else:
            try:
                node = P.parse_expr(text, 2)
            except LexError as exc:
                raise ctx.lex_error(exc) from None
            out = exprs.root(node, text.strip(), element_scope)
    except Abort:
        out = "abort"
    return out, [d.to_dict() for d in bag], [(k, sorted(v)) for k, v in ctx.used.items()]


def test_tiny_lowering_matches_the_tree() -> None:
    rng = random.Random(5)
    texts = [_tiny_candidate(rng) for _ in range(3000)] + _expression_corpus()[::4]
    taken = valid = 0
    for text in texts:
        if len(text) < 2:
            text += " "
        pieces = [(0, 3, 5)] if rng.random() < 0.8 else [(0, 3, 5), (len(text) // 2, 4, 1)]
        element_scope = rng.random() < 0.3
        fast = _lower(text, True, element_scope, pieces)
        assert fast == _lower(text, False, element_scope, pieces), text
        if P.tiny_int(text) is not None or P.tiny_shape(text) is not None:
            taken += 1
            valid += fast[0] != "abort"
    assert taken > 1000 and valid > 300, (taken, valid)  # the fast lowering was really exercised
