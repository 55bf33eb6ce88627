"""The one YAML loader for every YAML file the project reads: profiles, game.yaml, cards.yaml, decks and
scenarios.

It reads one document with PyYAML's safe schema (libyaml's parser when available) and limits what a
hostile file can do:

* size: a file larger than ``Limits.max_bytes`` is refused before it is parsed, and one of more than
  ``Limits.max_expanded`` values where the count passes it (a file near the limit still reads in
  about a second: a reader that keeps positions costs some 10 microseconds a value);
* control characters: located, instead of PyYAML's position-only reader error;
* nesting: the node tree is composed without recursion and refused past ``Limits.max_depth`` levels;
* aliases: the size of the document with every alias expanded is computed on the node graph (never by
  expanding it) and refused past ``Limits.max_expanded`` nodes (a billion-laughs document is a few
  hundred bytes);
* scalars: a value its tag cannot hold (``!!float x``, a 5,000-digit ``!!int``) is a located error.

Every failure is a :class:`YamlError` whose ``diagnostic`` names the file, line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml import events as ev
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulescript.diagnostics import Diagnostic, Span
from rulescript.textfile import NotText, read_text

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when available: ~10x faster
# characters YAML does not allow in a stream (tab, line breaks and BOM excepted)
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 16 * 1024 * 1024
    max_depth: int = 100
    # values of the document with every alias expanded: about 8,000 cards of a card table, and what
    # the slowest reader (octgn-pack build's, with positions) gets through in about a second
    max_expanded: int = 100_000


DEFAULT_LIMITS = Limits()


class YamlError(Exception):
    """A YAML file that cannot be read; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _Loader(_BASE):  # type: ignore[misc, valid-type]
    """The safe loader whose constructor turns a scalar its tag cannot hold into a located error."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError) as exc:
            if isinstance(exc, yaml.YAMLError):
                raise
            raise yaml.constructor.ConstructorError(
                None, None, f"{node.tag.rsplit(':', 1)[-1]} value {_short(node)} cannot be read: "
                f"{str(exc).split(';')[0]}", node.start_mark) from None


def _short(node: Node) -> str:
    value = node.value if isinstance(node, ScalarNode) else ""
    return repr(value if len(value) <= 24 else value[:20] + "...")


def _error(filename: str, code: str, message: str, line: int = 1, col: int = 1) -> YamlError:
    return YamlError(Diagnostic("error", code, message, Span(filename, line, col)))


def _mark_error(exc: yaml.YAMLError, filename: str, code: str) -> YamlError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    message = " ".join(str(p) for p in parts if p) or str(exc).split("\n")[0]
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return _error(filename, code, f"invalid YAML: {message}", line, col)


def check_text(text: str, filename: str, code: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse text that is too large or holds a character YAML does not allow (located)."""
    if len(text) > limits.max_bytes:
        raise _error(filename, code, f"the file is larger than {limits.max_bytes // (1024 * 1024)} MB")
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise _error(filename, code, f"invalid YAML: control character U+{ord(bad.group()):04X} is not "
                     "allowed (write it as an escape inside a double-quoted string)", line, col)


def compose(text: str, filename: str, code: str = "RD101",
            limits: Limits = DEFAULT_LIMITS) -> tuple[Node | None, _Loader]:
    """The node tree of a single-document YAML text (None when empty) and the loader that constructs
    values from it.  Raises :class:`YamlError`."""
    check_text(text, filename, code, limits)
    loader = _Loader(text)
    try:
        node, aliased = _compose(loader, filename, code, limits)
    except yaml.YAMLError as exc:
        loader.dispose()
        raise _mark_error(exc, filename, code) from None
    if node is not None and aliased:
        _check_expansion(node, filename, code, limits)
    return node, loader


_ENDS = (ev.SequenceEndEvent, ev.MappingEndEvent)


def _compose(loader: _Loader, filename: str, code: str, limits: Limits) -> tuple[Node | None, bool]:
    """The iterative counterpart of PyYAML's recursive composer, with a nesting limit and a limit on
    the number of values; also whether the document uses an alias."""
    loader.get_event()  # StreamStart
    if loader.check_event(ev.StreamEndEvent):
        return None, False
    loader.get_event()  # DocumentStart
    anchors: dict[str, Node] = {}
    stack: list[tuple[Node, list[Any]]] = []  # open collections and their items so far
    root: Node | None = None
    aliased = False  # without aliases, the count is the expanded size
    count = 0  # nodes so far: a document past the limit stops here, not after the whole file
    while root is None:
        event = loader.get_event()
        node: Node | None = None
        if not isinstance(event, _ENDS):
            count += 1
            if count > limits.max_expanded:
                m = event.start_mark
                raise _error(filename, code, f"invalid YAML: it holds more than {limits.max_expanded:,} values",
                             m.line + 1, m.column + 1)
        if isinstance(event, ev.AliasEvent):
            aliased = True
            if event.anchor not in anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                                  event.start_mark)
            node = anchors[event.anchor]
            if any(open_node is node for open_node, _items in stack):
                m = event.start_mark
                raise _error(filename, code, f"invalid YAML: alias {event.anchor!r} refers to a collection that "
                             "holds it", m.line + 1, m.column + 1)
        elif isinstance(event, ev.ScalarEvent):
            tag = event.tag if event.tag not in (None, "!") else loader.resolve(ScalarNode, event.value,
                                                                                 event.implicit)
            node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
        elif isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)):
            kind = SequenceNode if isinstance(event, ev.SequenceStartEvent) else MappingNode
            tag = event.tag if event.tag not in (None, "!") else loader.resolve(kind, None, event.implicit)
            coll = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
            if event.anchor is not None:
                anchors[event.anchor] = coll
            if len(stack) >= limits.max_depth:
                m = event.start_mark
                raise _error(filename, code, f"invalid YAML: nested more than {limits.max_depth} levels deep",
                             m.line + 1, m.column + 1)
            stack.append((coll, []))
            continue
        elif isinstance(event, (ev.SequenceEndEvent, ev.MappingEndEvent)):
            coll, items = stack.pop()
            coll.end_mark = event.end_mark
            coll.value = items if isinstance(coll, SequenceNode) else list(zip(items[0::2], items[1::2]))
            node = coll
        else:  # pragma: no cover - the parser gives no other event inside a document
            raise yaml.composer.ComposerError(None, None, f"unexpected {type(event).__name__}", event.start_mark)
        if isinstance(event, ev.ScalarEvent) and event.anchor is not None:
            anchors[event.anchor] = node
        if stack:
            stack[-1][1].append(node)
        else:
            root = node
    loader.get_event()  # DocumentEnd
    if not loader.check_event(ev.StreamEndEvent):
        extra = loader.get_event()
        raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                          "but found another document", extra.start_mark)
    return root, aliased


def _check_expansion(root: Node, filename: str, code: str, limits: Limits) -> None:
    """Refuse a document whose aliases expand it past ``limits.max_expanded`` nodes (computed on the
    node graph, children before parents, without expanding anything)."""
    size: dict[int, int] = {}
    order: list[Node] = []
    seen: set[int] = set()
    todo = [root]
    while todo:  # every distinct node once (aliases share nodes)
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        if isinstance(node, SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, MappingNode):
            for k, v in node.value:
                todo.extend((k, v))
    for node in reversed(order):  # a node's children were met after it
        total = 1
        if isinstance(node, SequenceNode):
            total += sum(size.get(id(c), 1) for c in node.value)
        elif isinstance(node, MappingNode):
            total += sum(size.get(id(k), 1) + size.get(id(v), 1) for k, v in node.value)
        size[id(node)] = total
        if total > limits.max_expanded:
            m = node.start_mark
            raise _error(filename, code, f"invalid YAML: its aliases expand it to more than "
                         f"{limits.max_expanded:,} values (an alias bomb?)", m.line + 1, m.column + 1)


def construct(node: Node | None, loader: _Loader, filename: str, code: str = "RD101") -> Any:
    """Plain Python values of a composed tree; a value its tag cannot hold is a located YamlError."""
    if node is None:
        return None
    try:
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _mark_error(exc, filename, code) from None
    finally:
        loader.dispose()


def load(text: str, filename: str, code: str = "RD101", limits: Limits = DEFAULT_LIMITS) -> Any:
    """The value of a single-document YAML text; raises :class:`YamlError`.

    Values are built straight from the parser's events (no node tree: a 3 MB card list takes a fifth
    of the memory), with the same limits as :func:`compose`; a document that uses collection tags
    other than the plain mapping and sequence (``!!set``, ``!!omap``...) goes through the node tree."""
    check_text(text, filename, code, limits)
    loader = _Loader(text)
    try:
        return _stream(loader, filename, code, limits)
    except _NeedsNodes:
        pass
    except yaml.YAMLError as exc:
        raise _mark_error(exc, filename, code) from None
    finally:
        loader.dispose()
    node, loader = compose(text, filename, code, limits)
    return construct(node, loader, filename, code)


class _NeedsNodes(Exception):
    """A collection tag that only PyYAML's node constructors build."""


_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"


def _stream(loader: _Loader, filename: str, code: str, limits: Limits) -> Any:
    """Plain values from the events of one document: dicts, lists and the safe scalars."""
    def fail(message: str, mark: Any) -> YamlError:
        return _error(filename, code, f"invalid YAML: {message}", mark.line + 1, mark.column + 1)

    loader.get_event()  # StreamStart
    if loader.check_event(ev.StreamEndEvent):
        return None
    loader.get_event()  # DocumentStart
    anchors: dict[str, tuple[Any, int]] = {}
    # open collections: [value, size so far, anchor, start mark, pending key (maps), merges (maps), explicit keys]
    stack: list[list[Any]] = []
    expanded = 0
    aliased = False
    done = False
    root: Any = None
    constructors = loader.yaml_constructors
    while not done:
        event = loader.get_event()
        if isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)):
            is_seq = isinstance(event, ev.SequenceStartEvent)
            tag = event.tag if event.tag not in (None, "!") else (_SEQ if is_seq else _MAP)
            if tag != (_SEQ if is_seq else _MAP):
                raise _NeedsNodes()
            if len(stack) >= limits.max_depth:
                raise fail(f"nested more than {limits.max_depth} levels deep", event.start_mark)
            expanded += 1
            stack.append([[] if is_seq else {}, 1, event.anchor, event.start_mark, _NO_KEY, [], set()])
            continue
        if isinstance(event, (ev.SequenceEndEvent, ev.MappingEndEvent)):
            value, size, anchor, _start, _key, merges, explicit = stack.pop()
            if merges:
                merged: dict[Any, Any] = {}
                for src in merges:
                    for k, v in src.items():
                        merged.setdefault(k, v)
                merged.update(value)
                value.clear()
                value.update(merged)
            if anchor is not None:
                anchors[anchor] = (value, size)
        elif isinstance(event, ev.AliasEvent):
            if event.anchor not in anchors:
                if any(entry[2] == event.anchor for entry in stack):
                    raise fail(f"alias {event.anchor!r} refers to a collection that holds it", event.start_mark)
                raise fail(f"found undefined alias {event.anchor!r}", event.start_mark)
            value, size = anchors[event.anchor]
            expanded += size
            aliased = True
        elif isinstance(event, ev.ScalarEvent):
            tag = event.tag if event.tag not in (None, "!") else loader.resolve(ScalarNode, event.value, event.implicit)
            size = 1
            expanded += 1
            if tag == _MERGE and stack and isinstance(stack[-1][0], dict) and stack[-1][4] is _NO_KEY:
                value = _MERGE_KEY
            else:
                node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
                build = constructors.get(tag) or constructors.get(None)
                try:
                    value = build(loader, node)
                except yaml.YAMLError:
                    raise
                except (ValueError, TypeError, OverflowError) as exc:
                    raise fail(f"{tag.rsplit(':', 1)[-1]} value {_short(node)} cannot be read: "
                               f"{str(exc).split(';')[0]}", event.start_mark) from None
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1)
        else:  # pragma: no cover - the parser gives no other event inside a document
            raise fail(f"unexpected {type(event).__name__}", event.start_mark)
        if expanded > limits.max_expanded:
            raise fail(f"its aliases expand it to more than {limits.max_expanded:,} values (an alias bomb?)"
                       if aliased else f"it holds more than {limits.max_expanded:,} values", event.start_mark)
        if not stack:
            root = value
            done = True
            continue
        top = stack[-1]
        top[1] += size
        holder = top[0]
        if isinstance(holder, list):
            holder.append(value)
        elif top[4] is _NO_KEY:
            if isinstance(value, (list, dict)) and value is not _MERGE_KEY:
                raise fail("found unhashable key", event.start_mark)
            top[4] = value
        else:
            key, top[4] = top[4], _NO_KEY
            if key is _MERGE_KEY:
                sources = value if isinstance(value, list) else [value]
                if not all(isinstance(x, dict) for x in sources):
                    raise fail("a merge key '<<' takes a mapping or a list of mappings", event.start_mark)
                top[5].extend(sources)
            else:
                holder[key] = value
    loader.get_event()  # DocumentEnd
    if not loader.check_event(ev.StreamEndEvent):
        extra = loader.get_event()
        raise fail("expected a single document in the stream but found another document", extra.start_mark)
    return root


_NO_KEY = object()
_MERGE_KEY = object()


def read_file_text(path: str | Path, code: str = "RD101", limits: Limits = DEFAULT_LIMITS) -> str:
    """The text of a YAML file; an unreadable, binary or oversized file is a YamlError."""
    try:
        return read_text(path, limits.max_bytes)
    except NotText as exc:
        raise _error(str(path), code, exc.message, exc.line, exc.col) from None
    except IsADirectoryError:
        raise _error(str(path), code, "is a folder, not a YAML file") from None
    except OSError as exc:
        raise _error(str(path), code, f"cannot read the file: {exc.strerror or exc}") from None


def load_file(path: str | Path, code: str = "RD101", limits: Limits = DEFAULT_LIMITS) -> Any:
    """The value of a YAML file; raises :class:`YamlError`."""
    return load(read_file_text(path, code, limits), str(path), code, limits)
