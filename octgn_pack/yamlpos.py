"""YAML with source positions: every value and key of a document keeps its file, line and column.

``load(path)`` returns a :class:`YamlDoc`: ``data`` (plain Python data, as ``yaml.safe_load`` gives)
and ``span(*path)`` / ``key_span(*path)`` for any path of keys and list indices (the nearest
enclosing node when a path does not exist).  A syntax error, or a key repeated in one mapping (PyYAML
would silently keep the last), is a diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulescript.diagnostics import Diagnostic, SourceText, Span

_Path = tuple[Any, ...]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: the same nodes, faster


@dataclass
class YamlDoc:
    file: str
    text: str
    data: Any = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    values: dict[_Path, Span] = field(default_factory=dict)
    keys: dict[_Path, Span] = field(default_factory=dict)

    @property
    def source(self) -> SourceText:
        return SourceText(self.file, self.text)

    def span(self, *path: Any) -> Span:
        """Where the value at ``path`` is written (or the closest enclosing value)."""
        p = tuple(path)
        while p and p not in self.values:
            p = p[:-1]
        return self.values.get(p, Span(self.file, 1, 1))

    def key_span(self, *path: Any) -> Span:
        """Where the key of the entry at ``path`` is written (a list item: its value)."""
        p = tuple(path)
        return self.keys.get(p) or self.span(*p)


def _span(file: str, node: yaml.Node) -> Span:
    s, e = node.start_mark, node.end_mark
    end_col = e.column + 1 if e.line == s.line else None
    return Span(file, s.line + 1, s.column + 1, s.line + 1, end_col)


def load_text(text: str, file: str) -> YamlDoc:
    doc = YamlDoc(file, text)
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return doc
        doc.data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        doc.diagnostics.append(Diagnostic("error", "OP100", f"invalid YAML: {getattr(exc, 'problem', None) or exc}",
                                          span))
        return doc
    finally:
        loader.dispose()
    _walk(doc, node, doc.data, ())
    return doc


def _walk(doc: YamlDoc, node: yaml.Node, data: Any, path: _Path) -> None:
    doc.values[path] = _span(doc.file, node)
    if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
        seen: dict[Any, Span] = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                continue
            key = _scalar_key(knode, data)
            kspan = _span(doc.file, knode)
            if key in seen:
                doc.diagnostics.append(Diagnostic(
                    "error", "OP101", f"the key '{key}' is repeated in this mapping", kspan,
                    (f"first written at line {seen[key].line}",)))
            seen[key] = kspan
            doc.keys[path + (key,)] = kspan
            if key in data:
                _walk(doc, vnode, data[key], path + (key,))
    elif isinstance(node, yaml.SequenceNode) and isinstance(data, list):
        for i, (vnode, item) in enumerate(zip(node.value, data)):
            _walk(doc, vnode, item, path + (i,))


def _scalar_key(knode: yaml.ScalarNode, data: dict) -> Any:
    """The constructed key of a scalar key node (an int key stays an int, as safe_load gives it)."""
    raw = knode.value
    if raw in data:
        return raw
    for k in data:
        if str(k) == raw or (isinstance(k, bool) and raw.lower() in ("true", "false", "yes", "no", "on", "off")):
            return k
    return raw


def load(path: str | Path) -> YamlDoc:
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        doc = YamlDoc(str(p), "")
        doc.diagnostics.append(Diagnostic("error", "OP102", f"cannot read the file: {exc.strerror}", Span(str(p), 1, 1)))
        return doc
    return load_text(text, str(p))
