"""YAML with source positions, for scenario files.

:func:`load_located` reads one YAML document and returns plain Python values in which every mapping
is an :class:`LDict` and every sequence an :class:`LList`. Both remember where they start and where
each of their keys and values is (1-based line and column), so a checker or a failing expectation
can point at ``file:line:col``. Scalars are built by PyYAML's safe constructor (ints, bools, null,
strings...). Duplicate keys are reported instead of silently keeping the last one.
"""
from __future__ import annotations

import yaml

from rulescript import yamlsafe
from rulescript.diagnostics import Diagnostic, Span


class LDict(dict):
    """A mapping from a YAML file. ``at``: (line, col) of the mapping; ``key_at[k]`` and
    ``val_at[k]``: (line, col) of key ``k`` and of its value."""

    at = (0, 0)

    def __init__(self, *args, **kw):
        dict.__init__(self, *args, **kw)
        self.key_at = {}
        self.val_at = {}

    def where(self, key=None, value=True):
        if key is None:
            return self.at
        table = self.val_at if value else self.key_at
        return table.get(key, self.at)


class LList(list):
    """A sequence from a YAML file. ``at``: (line, col) of the sequence; ``item_at[i]``: of item i."""

    at = (0, 0)

    def __init__(self, *args):
        list.__init__(self, *args)
        self.item_at = []

    def where(self, i=None):
        if i is None or i >= len(self.item_at):
            return self.at
        return self.item_at[i]


class YamlProblem(Exception):
    """The text is not YAML we can read; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic):
        Exception.__init__(self, diagnostic.message)
        self.diagnostic = diagnostic


def _pos(mark):
    return (mark.line + 1, mark.column + 1)


def _convert(node, loader, filename, dups, memo=None):
    """The located value of ``node``.  A node met again through an alias gives the value already
    built (as PyYAML shares it), so the work is linear in the file, whatever its aliases expand to."""
    if memo is None:
        memo = {}
    if id(node) in memo:
        return memo[id(node)]
    value = _build(node, loader, filename, dups, memo)
    memo[id(node)] = value
    return value


def _build(node, loader, filename, dups, memo):
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.at = _pos(node.start_mark)
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                merged = _convert(vnode, loader, filename, dups, memo)
                for src in (merged if isinstance(merged, list) else [merged]):
                    if isinstance(src, LDict):
                        for k, v in src.items():
                            if k not in out:
                                out[k] = v
                                out.key_at[k] = src.key_at.get(k, src.at)
                                out.val_at[k] = src.val_at.get(k, src.at)
                continue
            key = _convert(knode, loader, filename, dups, memo)
            if isinstance(key, (list, dict)):
                key = repr(key)
            if key in out:
                dups.append(Diagnostic("error", "SC108", "duplicate key %r (the first is on line %d)"
                                       % (key, out.key_at[key][0]),
                                       Span(filename, knode.start_mark.line + 1,
                                            knode.start_mark.column + 1)))
            out[key] = _convert(vnode, loader, filename, dups, memo)
            out.key_at[key] = _pos(knode.start_mark)
            out.val_at[key] = _pos(vnode.start_mark)
        return out
    if isinstance(node, yaml.SequenceNode):
        out = LList()
        out.at = _pos(node.start_mark)
        for item in node.value:
            out.append(_convert(item, loader, filename, dups, memo))
            out.item_at.append(_pos(item.start_mark))
        return out
    return loader.construct_object(node, deep=True)


def load_located(text, filename, code="SC101"):
    """Parse ``text``; return ``(value, diagnostics)``. Raises :class:`YamlProblem` (code SC101)
    when the text is not a single well-formed YAML document, or one the hardened loader refuses
    (:mod:`rulescript.yamlsafe`: size, control characters, nesting, alias expansion)."""
    try:
        node, loader = yamlsafe.compose(text, filename, code)
    except yamlsafe.YamlError as exc:
        raise YamlProblem(exc.diagnostic) from None
    try:
        if node is None:
            return None, []
        dups = []
        try:
            value = _convert(node, loader, filename, dups)
        except yaml.constructor.ConstructorError as exc:
            mark = exc.problem_mark
            line, col = (_pos(mark) if mark is not None else (1, 1))
            raise YamlProblem(Diagnostic("error", code, "YAML: %s" % (exc.problem or exc),
                                         Span(filename, line, col)))
        return value, dups
    finally:
        loader.dispose()
