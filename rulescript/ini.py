"""Reading RuleScript INI files with exact source positions.

The structure (sections, keys, values in order, repeated keys kept) is read by the standard
library's :mod:`configparser`, whose mapping type records every section and option as it is read,
so that repeated ``action`` and ``label`` keys keep every value in order.  A position scan over the
same physical lines records where every value starts, so that each character of a (possibly
continued) value maps back to its physical line and column; the two readings must agree.  The line kinds follow ``rulescript.md`` section 1:

* blank lines and comment lines (``#`` as first non-blank character, ``;`` in column 1) are ignored;
* ``[id]`` in column 1 starts a section; ``key = value`` in column 1 is a property;
* a line starting with a space or tab continues the previous property, joined by one space;
* ``#`` outside quotes starts a comment anywhere.
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass, field

from rulescript.diagnostics import DiagnosticBag, Span

GUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
SLUG_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
HEADER_RE = re.compile(r"^\[([^\]]*)\]\s*$")
KEY_RE = re.compile(r"^([^=\s\[][^=]*?)\s*=\s?(.*)$")


@dataclass(slots=True)
class Value:
    """A property value: its text (continuations joined by one space) and where each part lies."""

    text: str
    file: str
    # (offset in text, physical line, column of that offset) for every joined piece, in order
    pieces: list[tuple[int, int, int]]

    def position(self, offset: int) -> tuple[int, int]:
        """The physical (line, column) of character ``offset`` of :attr:`text`."""
        pieces = self.pieces
        if len(pieces) == 1:
            _, line, col = pieces[0]
            return line, col + offset
        i = len(pieces) - 1  # the last piece starting at or before offset (the first one if none does)
        while i > 0 and pieces[i][0] > offset:
            i -= 1
        start, line, col = pieces[i]
        return line, col + (offset - start)

    def span(self, start: int, end: int | None = None) -> Span:
        line, col = self.position(start)
        if end is None or end <= start:
            return Span(self.file, line, col, line, col + 1)
        eline, ecol = self.position(end - 1)
        if eline != line:
            return Span(self.file, line, col, line, col + 1)
        return Span(self.file, line, col, eline, ecol + 1)


@dataclass(slots=True)
class Property:
    key: str  # lower case
    raw_key: str
    value: Value
    line: int  # the physical line of the key (which starts in column 1)

    @property
    def key_span(self) -> Span:
        return Span(self.value.file, self.line, 1, self.line, len(self.raw_key) + 1)


@dataclass(slots=True)
class Section:
    rule_id: str  # normalised: lower case
    raw_id: str
    span: Span
    properties: list[Property] = field(default_factory=list)

    def get_all(self, key: str) -> list[Property]:
        return [p for p in self.properties if p.key == key]


@dataclass(slots=True)
class RuleFile:
    name: str
    sections: list[Section]


class _RecordingDict(dict):  # type: ignore[type-arg]
    """configparser's mapping type, which also writes down every section and option it is given.

    configparser stores a section with ``sections[name] = options`` and an option with
    ``options[key] = [first line]`` (a list that later continuation lines are appended to), so the
    log ends up holding the structure exactly as configparser read it, repeated keys included, in
    file order: ``("[", name)`` for a section and ``(key, [line, ...])`` for an option."""

    __slots__ = ("log",)

    def __init__(self, log: list[tuple[str, object]]) -> None:
        super().__init__()
        self.log = log

    def __setitem__(self, key: str, value: object) -> None:
        cls = value.__class__
        if cls is list:
            self.log.append((key, value))
        elif cls is _RecordingDict:
            self.log.append(("[", key))
        dict.__setitem__(self, key, value)


def strip_comment(line: str) -> str:
    """Remove a ``#`` comment that is outside quotes."""
    i = line.find("#")
    if i < 0:
        return line
    head = line[:i]
    if "'" not in head and '"' not in head:  # no quote before the first '#': it starts the comment
        return head
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def read_with_configparser(text: str) -> list[tuple[str, object]]:
    """configparser's reading of the structure of ``text`` (section headers, ``key = value`` lines and
    indented continuation lines; no comments or blank lines): the log of :class:`_RecordingDict`."""
    log: list[tuple[str, object]] = []
    parser = configparser.RawConfigParser(
        dict_type=lambda: _RecordingDict(log),
        strict=False,
        delimiters=("=",),
        comment_prefixes=(),
        inline_comment_prefixes=None,
        empty_lines_in_values=False,
        interpolation=None,
        default_section="\x00defaults",
    )
    parser.optionxform = str.lower  # type: ignore[assignment,method-assign]
    # Only the structure is read, never typed values: without converters, configparser gives each
    # section's proxy no getint/getfloat/getboolean getters (three objects per section, in cycles).
    for name in list(parser.converters):
        del parser.converters[name]
    parser.read_string(text)
    return log


def read_rule_file(text: str, filename: str, bag: DiagnosticBag) -> RuleFile:
    """Read one rule file; problems are added to ``bag`` and reading goes on."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    sections: list[Section] = []
    current: Section | None = None
    last_prop: Property | None = None
    kept: list[str] = []  # the lines handed to configparser ...
    kept_at: list[int] = []  # ... their physical line numbers ...
    expected: list[tuple[str, object]] = []  # ... and the structure configparser must find in them
    last_lines: list[str] = []  # the lines of last_prop's value, as configparser will hold them
    seen_ids: dict[str, Span] = {}
    for lineno, raw in enumerate(lines, 1):
        if not raw:
            continue
        stripped = raw.lstrip()
        if not stripped or stripped[0] == "#" or raw[0] == ";":
            continue
        body = (strip_comment(raw) if "#" in raw else raw).rstrip()
        if not body:
            continue
        if raw[0] in " \t":
            if last_prop is None:
                col = len(raw) - len(raw.lstrip()) + 1
                bag.error("RS102", "continuation line with no property before it",
                          Span(filename, lineno, col, lineno, len(body) + 1))
                continue
            piece = body.lstrip()
            col = len(body) - len(piece) + 1
            val = last_prop.value
            if val.text:
                val.pieces.append((len(val.text) + 1, lineno, col))
                val.text = f"{val.text} {piece}"
            else:
                val.pieces.append((0, lineno, col))
                val.text = piece
            kept.append("  " + piece)
            kept_at.append(lineno)
            last_lines.append(piece)
            continue
        header = HEADER_RE.match(body) if body[0] == "[" else None
        if header:
            raw_id = header.group(1).strip()
            span = Span(filename, lineno, 2, lineno, 2 + max(1, len(header.group(1))))
            last_prop = None
            if not raw_id or not (GUID_RE.match(raw_id) or SLUG_RE.match(raw_id)):
                bag.error("RS103", f"invalid section id '{raw_id}': expected a GUID or a slug "
                          "like 'ryu-hadoken' (letters, digits, '_' and '-')", span)
                current = None
                continue
            rule_id = raw_id.lower()
            if rule_id in seen_ids:
                first = seen_ids[rule_id]
                bag.error("RS104", f"duplicate section id '{raw_id}'", span,
                          (f"first defined at {first.file}:{first.line}:{first.col}",))
                current = None
                continue
            seen_ids[rule_id] = span
            current = Section(rule_id, raw_id, span)
            sections.append(current)
            kept.append(f"[{rule_id}]")
            kept_at.append(lineno)
            expected.append(("[", rule_id))
            continue
        if body.lstrip().startswith("["):
            bag.error("RS101", "malformed section header: expected '[id]'",
                      Span(filename, lineno, 1, lineno, len(body) + 1), ("expected one of: ']'",))
            current = None
            last_prop = None
            continue
        m = KEY_RE.match(body)
        if not m:
            bag.error("RS101", "expected 'key = value'", Span(filename, lineno, 1, lineno, len(body) + 1),
                      ("expected one of: '='",))
            last_prop = None
            continue
        raw_key = m.group(1).strip()
        if current is None:
            if not sections:
                bag.error("RS109", "property before the first section header",
                          Span(filename, lineno, 1, lineno, len(raw_key) + 1))
            last_prop = None
            continue
        raw_value = m.group(2)
        value_text = raw_value.strip()
        vstart = m.start(2) + (len(raw_value) - len(raw_value.lstrip()))
        key = raw_key.lower()
        last_prop = Property(key, raw_key, Value(value_text, filename, [(0, lineno, vstart + 1)]), lineno)
        current.properties.append(last_prop)
        kept.append(f"{key} = {value_text}")
        kept_at.append(lineno)
        last_lines = [value_text]
        expected.append((key, last_lines))
    _cross_check(kept, kept_at, expected, filename, bag)
    return RuleFile(filename, sections)


def _cross_check(kept: list[str], kept_at: list[int], expected: list[tuple[str, object]], filename: str,
                 bag: DiagnosticBag) -> None:
    """Let configparser read the kept lines and confirm that it finds the same sections, keys and
    value lines, in the same order, as the position scan."""
    try:
        found = read_with_configparser("\n".join(kept))
    except configparser.Error as exc:  # the position scan already reported what it found
        if not bag.has_errors:
            line = getattr(exc, "lineno", 1) or 1
            phys = kept_at[line - 1] if 0 < line <= len(kept_at) else 1
            bag.error("RS101", f"malformed INI structure: {exc.message}", Span(filename, phys, 1))
        return
    if found != expected:  # pragma: no cover - would be a bug in one of the readers
        k = next(i for i, (a, b) in enumerate(zip(found + [("", None)], expected + [("", None)])) if a != b)
        entry = kept_at[min(k, len(kept_at) - 1)] if kept_at else 1
        bag.error("RS100", "internal error: configparser and the position scan read this file differently "
                  "here; please report this file", Span(filename, entry, 1))
