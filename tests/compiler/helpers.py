"""Small helpers for compiler tests."""

from __future__ import annotations

from rulescript.compiler import CompileResult, compile_text
from rulescript.diagnostics import Diagnostic

SUBTYPES = [{"id": f"sub-{s}", "name": f"Sub {s}", "type": "character", "subtype": s}
            for s in ("boss", "kung-fu", "ninja", "robot")]


def compile_rules(text: str, cards: list[dict] | None = None) -> CompileResult:
    return compile_text(text, filename="rules.ini", cards=SUBTYPES if cards is None else cards, cache=None)


def errors(result: CompileResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.is_error]


def only_error(text: str, cards: list[dict] | None = None) -> Diagnostic:
    res = compile_rules(text, cards)
    errs = errors(res)
    assert len(errs) == 1, res.render() or "no error"
    return errs[0]
