"""One-line mutants of a Python source file, found with ``ast`` (the kinds of change real bugs make).

A mutant replaces one span of one line by another text; the rest of the file stays byte for byte, so
code in the common subset of Python 2.7 and 3 stays in it.  Operators (``Mutant.op``):

``cmp``     a comparison flipped or moved by one: ``<`` to ``>=`` or ``<=``, ``==`` to ``!=``, ``in`` to
            ``not in``, ``is`` to ``is not``, and back
``bool``    ``and`` to ``or`` and back
``drop``    one operand of a two-operand ``and``/``or`` dropped (the other kept); ``not x`` to ``x``
``if``      the condition of an ``if`` or of a conditional expression replaced by ``True`` or ``False``
``const``   an integer constant plus or minus one; ``True`` to ``False`` and back
``arith``   ``+`` to ``-`` and back (also in ``+=``/``-=``)
``stmt``    a statement that is a call, on one line, replaced by ``pass``
``return``  ``return x`` to ``return None``

Lines holding ``# pragma: no mutate``, decorators, default values, f-strings and ``__main__`` guards
are skipped.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

CMP_SWAPS: dict[type, tuple[str, ...]] = {
    ast.Lt: (">=", "<="), ast.LtE: (">", "<"), ast.Gt: ("<=", ">="), ast.GtE: ("<", ">"),
    ast.Eq: ("!=",), ast.NotEq: ("==",), ast.In: ("not in",), ast.NotIn: ("in",),
    ast.Is: ("is not",), ast.IsNot: ("is",),
}
NO_MUTATE = "pragma: no mutate"


@dataclass(frozen=True)
class Mutant:
    file: str       # path relative to the checkout, with forward slashes
    line: int       # 1-based
    start: int      # character offsets in the line
    end: int
    old: str
    new: str
    op: str
    text: str       # the line, stripped (for keys and reports)

    @property
    def key(self) -> str:
        """A name that survives edits elsewhere in the file: the file, the line's text, where in it, the change."""
        return f"{self.file} | {self.text} | {self.start}: {self.old} -> {self.new}"

    def describe(self) -> str:
        return f"{self.file}:{self.line} [{self.op}] {self.old} -> {self.new}    | {self.text}"

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        line = lines[self.line - 1]
        assert line[self.start:self.end] == self.old, (self, line)
        lines[self.line - 1] = line[:self.start] + self.new + line[self.end:]
        return "".join(lines)


class _Finder(ast.NodeVisitor):
    def __init__(self, rel: str, text: str):
        self.rel = rel
        self.lines = text.splitlines(keepends=True)
        self.found: list[Mutant] = []

    # ------------------------------------------------------------------ positions
    def _char(self, line: int, byte_col: int) -> int:
        return len(self.lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def _span(self, node: ast.AST) -> tuple[int, int, int] | None:
        """(line, start, end) in characters, if the node is on one line."""
        if getattr(node, "end_lineno", None) != node.lineno:
            return None
        return node.lineno, self._char(node.lineno, node.col_offset), self._char(node.lineno, node.end_col_offset)

    def _skip(self, line: int) -> bool:
        return NO_MUTATE in self.lines[line - 1]

    def _add(self, line: int, start: int, end: int, new: str, op: str) -> None:
        if self._skip(line):
            return
        old = self.lines[line - 1][start:end]
        if old != new:
            self.found.append(Mutant(self.rel, line, start, end, old, new, op, self.lines[line - 1].strip()))

    def _between(self, a: ast.AST, b: ast.AST, word: str) -> tuple[int, int, int] | None:
        """The span of the operator ``word`` between nodes a and b (on one line), with its spaces."""
        sa, sb = self._span(a), self._span(b)
        if sa is None or sb is None or sa[0] != sb[0]:
            return None
        line, gap = sa[0], self.lines[sa[0] - 1][sa[2]:sb[1]]
        at = gap.find(word)
        if at < 0:
            return None
        return line, sa[2] + at, sa[2] + at + len(word)

    # ------------------------------------------------------------------ operators
    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        words = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
                 ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
        for op, right in zip(node.ops, node.comparators):
            word = words[type(op)]
            span = self._between(left, right, word)
            if span is not None:
                line, s, e = span
                if type(op) is ast.Is and self.lines[line - 1][s:s + 6] == "is not":
                    span = None
                if span is not None:
                    for new in CMP_SWAPS[type(op)]:
                        self._add(line, s, e, new, "cmp")
            left = right
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        word, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        for a, b in zip(node.values, node.values[1:]):
            span = self._between(a, b, word)
            if span is not None:
                self._add(*span, other, "bool")
        whole = self._span(node)
        if whole is not None and len(node.values) == 2:
            for keep in node.values:
                ks = self._span(keep)
                if ks is not None:
                    self._add(whole[0], whole[1], whole[2], self.lines[ks[0] - 1][ks[1]:ks[2]], "drop")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        whole, inner = self._span(node), self._span(node.operand)
        if isinstance(node.op, ast.Not) and whole and inner:
            self._add(whole[0], whole[1], whole[2], self.lines[inner[0] - 1][inner[1]:inner[2]], "drop")
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            return  # -1 is one constant: its digits are mutated below, not the sign
        self.generic_visit(node)

    def _condition(self, test: ast.AST) -> None:
        span = self._span(test)
        if span is not None:
            for new in ("True", "False"):
                self._add(*span, new, "if")

    def visit_If(self, node: ast.If) -> None:
        self._condition(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._condition(node.test)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        span = self._span(node)
        if span is None:
            return
        v = node.value
        if isinstance(v, bool):
            self._add(*span, "False" if v else "True", "const")
        elif isinstance(v, int):
            for new in (v + 1, v - 1):
                if new >= 0:
                    self._add(*span, str(new), "const")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, (ast.Add, ast.Sub)) and not _is_text(node):
            word, other = ("+", "-") if isinstance(node.op, ast.Add) else ("-", "+")
            span = self._between(node.left, node.right, word)
            if span is not None:
                self._add(*span, other, "arith")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.op, (ast.Add, ast.Sub)) and not _is_text(node.value):
            word, other = ("+=", "-=") if isinstance(node.op, ast.Add) else ("-=", "+=")
            span = self._between(node.target, node.value, word)
            if span is not None:
                self._add(*span, other, "arith")
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call):
            span = self._span(node)
            if span is not None:
                self._add(*span, "pass", "stmt")
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        v = node.value
        if v is not None and not (isinstance(v, ast.Constant) and v.value is None):
            span = self._span(v)
            if span is not None:
                self._add(*span, "None", "return")
        self.generic_visit(node)

    # ------------------------------------------------------------------ things not to touch
    def visit_Module(self, node: ast.Module) -> None:
        for stmt in node.body:
            if not _is_main_guard(stmt):
                self.visit(stmt)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for stmt in node.body:
            self.visit(stmt)  # not the decorators nor the defaults

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for stmt in node.body:
            self.visit(stmt)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return  # text in messages


def _is_text(node: ast.AST) -> bool:
    """A ``+`` that joins strings (or f-strings) is not arithmetic."""
    for n in ast.walk(node):
        if isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str)):
            return True
    return False


def _is_main_guard(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and "__name__" in ast.dump(stmt.test)


def find_mutants(root: Path, rel: str) -> list[Mutant]:
    text = (root / rel).read_text(encoding="utf-8")
    finder = _Finder(rel, text)
    finder.visit(ast.parse(text))
    return sorted(set(finder.found), key=lambda m: (m.line, m.start, m.op, m.new))


def compiles(m: Mutant, text: str) -> bool:
    """Whether the mutated file is still Python (the finder's changes nearly always are)."""
    try:
        compile(m.apply(text), m.file, "exec")
    except SyntaxError:
        return False
    return True
