"""Reading an OCTGN plugin's rule dictionary from Python source, without ever running it.

The file is parsed with :mod:`ast` and only literal data is taken from it:

* module-level assignments of a dict display to a name (``RulesDict = {...}``; several dicts are fine),
  where the dict is a *rules dict* when its name contains ``rule`` or most of its string keys are GUIDs;
* module-level subscript assignments to a rules dict (``RulesDict['<guid>'] = '''...'''``) and
  ``RulesDict.update({...})`` with a dict display.

Keys and values must be literal strings (implicit concatenation, triple quotes and ``+`` between
literal strings are folded; a name bound earlier at module level to a literal string counts as that
string, as Python would see it at that point).  Everything else inside a rules dict (a call, a name, an f-string, a
comprehension...) is reported with ``file:line:col`` and its source text is kept so that the importer
can write it out commented.  Code outside the rules dicts is ignored.

Python 2 plugins: when the whole file does not parse as Python 3, each top-level statement is parsed
on its own, so a ``print "x"`` elsewhere in the file does not hide the rule dictionary.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from rulescript.diagnostics import Diagnostic, Span

_OPENING = re.compile(r"(?i)^([rbuf]*)('''|\"\"\"|'|\")")
GUID_KEY = re.compile(r"^\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?$")


@dataclass(slots=True)
class RuleEntry:
    """One entry of a rules dict: its key, its rule text (None when not literal), where it stands."""

    key: str | None          # the literal key, or None when the key is not a literal string
    text: str | None         # the rule text, or None when the value is not a literal string
    span: Span               # the entry (its key) in the Python file
    value_span: Span         # the value in the Python file
    source: str              # the source text of the value (kept for commenting out)
    reason: str | None = None  # why the entry cannot be converted (None: it can)
    comments: list[str] = field(default_factory=list)  # Python comments next to the entry
    dict_name: str = ""
    # physical line in the Python file of each line of ``text`` (None: not exactly known)
    line_map: list[int] | None = None
    end_line: int = 0
    block_start: int = 0     # comments at or before this line never belong to the entry
    text_col: int = 0        # column of the first character of the text (when line_map is known)


@dataclass(slots=True)
class PySource:
    path: str
    entries: list[RuleEntry]
    diagnostics: list[Diagnostic]
    dict_names: list[str]


MAX_FOLDED = 1_000_000  # characters: the longest string the importer folds from a sum of literals
_TOO_LONG = (f"a string sum longer than {MAX_FOLDED:,} characters once folded (the importer folds sums of "
             "literal strings up to that size)")


class _Reader:
    def __init__(self, path: str, text: str, only: frozenset[str] | None = None) -> None:
        self.path = path
        self.only = only  # the names of the rules dicts to read (None: decide by name and keys)
        self.text = text
        # physical lines as Python counts them (only \r\n, \r and \n end a line), with their endings
        self.src_lines = _physical_lines(text)
        self.lines = [ln.rstrip("\r\n") for ln in self.src_lines]
        self.diags: list[Diagnostic] = []
        self.entries: list[RuleEntry] = []
        self.rule_dicts: set[str] = set()
        self.block_start = 0
        self.constants: dict[str, str | None] = {}  # module-level names bound to literal strings (None: other)
        self.constant_why: dict[str, str] = {}  # names whose string sum was too long to fold: why

    # ------------------------------------------------------------------ positions
    def _col(self, line: int, byte_col: int) -> int:
        """1-based character column of a UTF-8 byte offset (what ast reports) on a 1-based line."""
        if 1 <= line <= len(self.lines):
            raw = self.lines[line - 1].encode("utf-8")
            return len(raw[:byte_col].decode("utf-8", errors="replace")) + 1
        return byte_col + 1

    def span(self, node: ast.AST) -> Span:
        line = getattr(node, "lineno", 1)
        col = self._col(line, getattr(node, "col_offset", 0))
        end_line = getattr(node, "end_lineno", None) or line
        end_col = self._col(end_line, getattr(node, "end_col_offset", 0) or 0)
        return Span(self.path, line, col, end_line, end_col)

    def source_of(self, node: ast.AST) -> str | None:
        """The source text of a node (like ast.get_source_segment, without re-splitting the file)."""
        try:
            line, end_line = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
            col, end_col = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
        except AttributeError:
            return None
        if end_line is None or end_col is None or not 0 <= line <= end_line < len(self.src_lines):
            return None
        if line == end_line:
            return self.src_lines[line].encode("utf-8")[col:end_col].decode("utf-8", errors="replace")
        first = self.src_lines[line].encode("utf-8")[col:].decode("utf-8", errors="replace")
        last = self.src_lines[end_line].encode("utf-8")[:end_col].decode("utf-8", errors="replace")
        return "".join([first, *self.src_lines[line + 1:end_line], last])

    def segment(self, node: ast.AST) -> str:
        seg = self.source_of(node)
        return seg if seg is not None else ast.unparse(node)

    def error(self, code: str, message: str, node: ast.AST, notes: tuple[str, ...] = ()) -> None:
        self.diags.append(Diagnostic("error", code, message, self.span(node), notes))

    def warning(self, code: str, message: str, node: ast.AST, notes: tuple[str, ...] = ()) -> None:
        self.diags.append(Diagnostic("warning", code, message, self.span(node), notes))

    # ------------------------------------------------------------------ literals
    def literal_string(self, node: ast.AST) -> tuple[str | None, str]:
        """(value, reason): the folded literal string, or None and why it is not one.  A sum of any
        number of terms is folded without recursion, and no folded string grows past MAX_FOLDED
        characters (``A = A + A`` repeated would double it each time)."""
        parts: list[str] = []
        size = 0
        todo = [node]
        while todo:
            n = todo.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                todo.append(n.right)
                todo.append(n.left)
                continue
            value, why = self._leaf_string(n)
            if value is None:
                return None, why
            size += len(value)
            if size > MAX_FOLDED:
                return None, _TOO_LONG
            parts.append(value)
        return "".join(parts), ""

    def _leaf_string(self, node: ast.AST) -> tuple[str | None, str]:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value, ""
            return None, f"a {type(node.value).__name__} literal, not a string"
        if isinstance(node, ast.Name):
            known = self.constants.get(node.id)
            if known is not None:  # a module-level literal string assigned earlier: literal data too
                return known, ""
            why = self.constant_why.get(node.id)
            if why:
                return None, f"the name '{node.id}', whose value is {why}"  # (why is _TOO_LONG)
            return None, f"the name '{node.id}', which is not a literal string assigned earlier at module level"
        return None, _describe(node)

    def line_map(self, node: ast.AST, text: str) -> list[int] | None:
        """Physical line of every line of a literal's text, when the literal is one plain string."""
        if not isinstance(node, ast.Constant):
            return None
        seg = self.source_of(node)
        if seg is None:
            return None
        m = _OPENING.match(seg)
        if not m:
            return None
        quote = m.group(2)
        body = seg[m.end():len(seg) - len(quote)] if seg.endswith(quote) else None
        if body != text:  # escapes or implicit concatenation: lines are not known exactly
            return None
        first = node.lineno
        return [first + i for i in range(text.count("\n") + 1)]

    # ------------------------------------------------------------------ statements
    def named_rules(self, name: str) -> bool:
        """Whether a name may hold card rules going by the name alone."""
        return "rule" in name.lower() if self.only is None else name in self.only

    def is_rule_dict(self, name: str, node: ast.Dict) -> bool:
        if self.only is not None:
            return name in self.only
        if "rule" in name.lower():
            # a settings dict such as GameRulesDefaults = {'ab_trigger_fresh': False}: every value a
            # literal that is not a string, and no GUID key
            values = [v for v in node.values if v is not None]
            if values and all(_is_plain_literal(v) and not isinstance(getattr(v, "value", None), str)
                              for v in values) and not any(
                    isinstance(k, ast.Constant) and isinstance(k.value, str) and GUID_KEY.match(k.value)
                    for k in node.keys):
                return False
            return True
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return bool(keys) and sum(1 for k in keys if GUID_KEY.match(k)) * 2 >= len(keys)

    def statement(self, stmt: ast.stmt) -> None:
        self.block_start = getattr(self, "last_end", 0)
        self.last_end = getattr(stmt, "end_lineno", None) or stmt.lineno
        self.rules_statement(stmt)
        self.track_constants(stmt)

    def track_constants(self, stmt: ast.stmt) -> None:
        """Remember which module-level names hold a literal string after this statement."""
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value, why = self.literal_string(stmt.value)
            for t in targets:
                if isinstance(t, ast.Name):
                    self.constants[t.id] = value
                    self.constant_why[t.id] = _TOO_LONG if value is None and _TOO_LONG in why else ""
        else:
            for node in ast.walk(stmt):  # any other binding (augmented assignment, import, def, loop...)
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    self.constants[node.id] = None
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    self.constants[node.name] = None
                elif isinstance(node, ast.alias):
                    self.constants[(node.asname or node.name).split(".")[0]] = None

    def rules_statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = stmt.value
            if value is None:
                return
            for target in targets:
                if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
                    if self.is_rule_dict(target.id, value):
                        self.rule_dicts.add(target.id)
                        self.dict_entries(target.id, value)
                    return
                if isinstance(target, ast.Name) and self.named_rules(target.id) and not _is_plain_literal(value) \
                        and self.literal_string(value)[0] is None:
                    if isinstance(value, ast.Call) and _call_name(value) == "dict" and not value.args \
                            and not value.keywords:
                        self.rule_dicts.add(target.id)  # RulesDict = dict(): filled later
                        return
                    self.warning("RI108", f"'{target.id}' is not assigned a dict literal; it is ignored", value,
                                 (f"found {_describe(value)}",))
                    return
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and (
                        target.value.id in self.rule_dicts or (self.named_rules(target.value.id)
                                                               and self.literal_string(target.slice)[0] is not None)):
                    self.rule_dicts.add(target.value.id)
                    self.entry(target.value.id, target.slice, value, target)
                    return
            return
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                    and func.value.id in self.rule_dicts:
                if func.attr == "update" and len(call.args) == 1 and isinstance(call.args[0], ast.Dict) \
                        and not call.keywords:
                    self.dict_entries(func.value.id, call.args[0])  # RulesDict.update({...}): literal data
                    return
                self.warning("RI108", f"a call on the rules dict '{func.value.id}' is not read (only literal "
                             "assignments are)", stmt.value, ("move these entries into the dict literal",))

    def dict_entries(self, name: str, node: ast.Dict) -> None:
        self.block_start = node.lineno
        for key, value in zip(node.keys, node.values):
            if key is None:  # {**other}
                self.error("RI103", "a '**' expansion in the rules dict is not read", value,
                           (f"found {_describe(value)}",))
                self.entries.append(RuleEntry(None, None, self.span(value), self.span(value),
                                              "**" + self.segment(value), "a '**' expansion, not a literal entry",
                                              dict_name=name, end_line=value.end_lineno or value.lineno,
                                              block_start=self.block_start))
                continue
            self.entry(name, key, value, key)

    def entry(self, name: str, key: ast.AST, value: ast.AST, where: ast.AST) -> None:
        key_text, why_key = self.literal_string(key)
        text, why_value = self.literal_string(value)
        reason = None
        if key_text is None:
            reason = f"the key is not a literal string ({why_key})"
            self.error("RI103", reason, key, ("rule ids must be literal strings",))
        elif text is None:
            reason = f"the rule text is not a literal string ({why_value})"
            self.error("RI102", reason, value, (f"rule '{key_text}' is written to the INI file commented out",))
        entry = RuleEntry(key_text, text, self.span(where), self.span(value), self.segment(value), reason,
                          dict_name=name, end_line=getattr(value, "end_lineno", None) or value.lineno,
                          block_start=self.block_start)
        if text is not None:
            entry.line_map = self.line_map(value, text)
            if entry.line_map is not None:
                opening = _OPENING.match(self.source_of(value) or "")
                entry.text_col = entry.value_span.col + (len(opening.group(0)) if opening else 0)
        self.entries.append(entry)


def _physical_lines(text: str) -> list[str]:
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _is_plain_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        name = _call_name(node)
        return f"a function call{f' to {name}()' if name else ''}"
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    if isinstance(node, ast.Name):
        return f"the name '{node.id}'"
    if isinstance(node, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
        return "a comprehension"
    if isinstance(node, ast.Lambda):
        return "a lambda"
    if isinstance(node, ast.BinOp):
        return "an expression"
    if isinstance(node, ast.Attribute):
        return "an attribute access"
    if isinstance(node, ast.Subscript):
        return "a subscript"
    if isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        return f"a {type(node).__name__.lower()} display"
    if isinstance(node, ast.Constant):
        return f"a {type(node.value).__name__} literal"
    return f"a {type(node).__name__} expression"


def decode_source(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    text = data.decode(encoding, errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def top_level_chunks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of every top-level logical line, found with the tokenizer (Python 2 safe)."""
    return list(_top_level_chunks(text))


# An import reads each script two or three times (which dicts hold rules, the rules, the glyphs): the
# tokenizer's results are kept for the last few texts (pure functions of the text; tuples, unchangeable).
@functools.lru_cache(maxsize=16)
def _top_level_chunks(text: str) -> tuple[tuple[int, str], ...]:
    lines = text.splitlines(keepends=True)
    chunks: list[tuple[int, str]] = []
    start: int | None = None
    depth_indent = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.INDENT:
                depth_indent += 1
            elif tok.type == tokenize.DEDENT:
                depth_indent -= 1
            elif tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING):
                continue
            elif tok.type == tokenize.NEWLINE:
                if start is not None:
                    chunks.append((start, "".join(lines[start - 1:tok.end[0]])))
                start = None
            elif start is None and depth_indent == 0 and tok.type != tokenize.ENDMARKER:
                start = tok.start[0]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return tuple(chunks)


@functools.lru_cache(maxsize=16)
def _comments(text: str) -> tuple[tuple[int, int, str], ...]:
    """(line, col, text) of every Python comment."""
    out: list[tuple[int, int, str]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.start[1], tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return tuple(out)


def _attach_comments(reader: _Reader, text: str) -> None:
    """Give each entry the Python comments written before it (since the previous entry) or after it
    on its last line."""
    entries = sorted((e for e in reader.entries), key=lambda e: (e.span.line, e.span.col))
    if not entries:
        return
    comments = _comments(text)
    prev_end = 0
    for i, e in enumerate(entries):
        prev_end = max(prev_end, e.block_start)
        nxt_start = entries[i + 1].span.line if i + 1 < len(entries) else None
        for line, _col, body in comments:
            leading = prev_end < line < e.span.line or (line == e.span.line and prev_end < line)
            trailing = line == e.end_line and (nxt_start is None or nxt_start > line)
            inside = e.span.line < line < e.end_line
            if leading or trailing or inside:
                e.comments.append(body)
        prev_end = e.end_line


def read_rules_py(path: Path, only: frozenset[str] | None = None) -> PySource:
    """Read the rule dictionaries of a plugin file (never executed).  ``only``: the names of the dicts
    that hold card rules, when the caller knows them (a plugin folder); by default a dict holds rules
    when its name says so or its keys are GUIDs."""
    data = Path(path).read_bytes()
    text = decode_source(data)
    reader = _Reader(str(path), text, only)
    try:
        module = ast.parse(text, filename=str(path))
        for stmt in module.body:
            try:
                reader.statement(stmt)
            except (RecursionError, MemoryError):
                reader.diags.append(Diagnostic(
                    "error", "RI104", "this statement is nested too deeply to be read (it is skipped)",
                    Span(str(path), stmt.lineno, stmt.col_offset + 1)))
    except (RecursionError, MemoryError):
        reader.diags.append(Diagnostic("error", "RI104", "the file is nested too deeply to be read",
                                       Span(str(path), 1, 1)))
    except SyntaxError as exc:
        # Python 2 (or broken) source: read the top-level statements one by one.
        unreadable: list[tuple[int, str, SyntaxError]] = []
        for first, chunk in top_level_chunks(text):
            try:
                sub = ast.parse("\n" * (first - 1) + chunk, filename=str(path))
            except SyntaxError as chunk_exc:
                unreadable.append((first, chunk, chunk_exc))
                continue
            for stmt in sub.body:
                reader.statement(stmt)
        for first, chunk, chunk_exc in unreadable:
            target = re.match(r"\s*([A-Za-z_]\w*)\s*(?:\[|=(?!=)|\.\s*update\b)", chunk)
            if target and (reader.named_rules(target.group(1)) or target.group(1) in reader.rule_dicts):
                span = Span(str(path), first, 1, first, 1 + len(chunk.splitlines()[0]))
                why = f"line {chunk_exc.lineno}: {chunk_exc.msg}"
                reader.diags.append(Diagnostic(
                    "error", "RI101", "this statement is not valid Python 3 and holds rules: it is not read", span,
                    (f"{why}; the importer reads Python 3 literals only (no ur'' strings, backticks or print "
                     "statements)",)))
                end = first + chunk.rstrip("\n").count("\n")
                reader.entries.append(RuleEntry(None, None, span, span, chunk.rstrip(),
                                                f"the statement is not valid Python 3 ({why})",
                                                dict_name=target.group(1), end_line=end, block_start=first - 1))
        if not reader.entries and not reader.rule_dicts:
            reader.diags.append(Diagnostic("error", "RI101", f"invalid Python: {exc.msg}",
                                           Span(str(path), exc.lineno or 1, exc.offset or 1)))
    if not reader.entries and not any(d.is_error for d in reader.diags):
        reader.diags.append(Diagnostic("error", "RI100", "no rule dictionary found (a module-level dict literal "
                                       "whose name contains 'rule', or keyed by card GUIDs)", Span(str(path), 1, 1)))
    reader.entries.sort(key=lambda e: (e.span.line, e.span.col))
    _attach_comments(reader, text)
    return PySource(str(path), reader.entries, reader.diags, sorted(reader.rule_dicts))
