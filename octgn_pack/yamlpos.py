"""YAML with source positions: every value and key of a document keeps its file, line and column.

``load(path)`` returns a :class:`YamlDoc`: ``data`` (plain Python data, as ``yaml.safe_load`` gives)
and ``span(*path)`` / ``key_span(*path)`` for any path of keys and list indices (the nearest
enclosing node when a path does not exist).  A syntax error, or a key repeated in one mapping (PyYAML
would silently keep the last), is a diagnostic.

The text is read and composed by the project's one YAML loader (:mod:`rulescript.yamlsafe`), with its
limits (size, control characters, nesting, alias expansion, scalars a tag cannot hold): a file that
breaks one is an OP100 diagnostic where it does.  Positions are recorded once per node: the values
an alias shares are located where the anchor writes them, and a path below an alias use resolves to
the alias (the walk never expands aliases).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulescript import yamlsafe
from rulescript.diagnostics import Diagnostic, SourceText, Span

_Path = tuple[Any, ...]


@dataclass
class YamlDoc:
    file: str
    text: str
    data: Any = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # the node of each path (its span is made when asked: most are never asked for)
    values: dict[_Path, yaml.Node] = field(default_factory=dict)
    keys: dict[_Path, yaml.Node] = field(default_factory=dict)

    @property
    def source(self) -> SourceText:
        return SourceText(self.file, self.text)

    def span(self, *path: Any) -> Span:
        """Where the value at ``path`` is written (or the closest enclosing value)."""
        p = tuple(path)
        while p and p not in self.values:
            p = p[:-1]
        node = self.values.get(p)
        return Span(self.file, 1, 1) if node is None else _span(self.file, node)

    def key_span(self, *path: Any) -> Span:
        """Where the key of the entry at ``path`` is written (a list item: its value)."""
        p = tuple(path)
        node = self.keys.get(p)
        return self.span(*p) if node is None else _span(self.file, node)


def _span(file: str, node: yaml.Node) -> Span:
    s, e = node.start_mark, node.end_mark
    end_col = e.column + 1 if e.line == s.line else None
    return Span(file, s.line + 1, s.column + 1, s.line + 1, end_col)


def load_text(text: str, file: str) -> YamlDoc:
    doc = YamlDoc(file, text)
    try:
        node, loader = yamlsafe.compose(text, file, "OP100")
        doc.data = yamlsafe.construct(node, loader, file, "OP100")
    except yamlsafe.YamlError as exc:
        doc.diagnostics.append(exc.diagnostic)
        return doc
    if node is not None:
        _walk(doc, node, doc.data)
    return doc


def _walk(doc: YamlDoc, root: yaml.Node, data: Any) -> None:
    """Record where every value and key is written: each node once (a node an alias shares again is
    not walked again), without recursion."""
    seen: set[int] = set()
    todo: list[tuple[yaml.Node, Any, _Path]] = [(root, data, ())]
    while todo:
        node, value, path = todo.pop()
        doc.values[path] = node
        if id(node) in seen:
            continue
        seen.add(id(node))
        children: list[tuple[yaml.Node, Any, _Path]] = []
        if isinstance(node, yaml.MappingNode) and isinstance(value, dict):
            keys: dict[Any, yaml.Node] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    continue
                key = _scalar_key(knode, value)
                if key in keys:
                    doc.diagnostics.append(Diagnostic(
                        "error", "OP101", f"the key '{key}' is repeated in this mapping", _span(doc.file, knode),
                        (f"first written at line {keys[key].start_mark.line + 1}",)))
                keys[key] = knode
                doc.keys[path + (key,)] = knode
                if key in value:
                    children.append((vnode, value[key], path + (key,)))
        elif isinstance(node, yaml.SequenceNode) and isinstance(value, list):
            children = [(vnode, item, path + (i,)) for i, (vnode, item) in enumerate(zip(node.value, value))]
        todo.extend(reversed(children))  # in the order of the document: an anchor before its aliases


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
        text = yamlsafe.read_file_text(p, "OP102")
    except yamlsafe.YamlError as exc:
        doc = YamlDoc(str(p), "")
        doc.diagnostics.append(exc.diagnostic)
        return doc
    return load_text(text, str(p))
