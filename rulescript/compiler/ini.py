"""Reading RuleScript INI files with exact source positions.

The structure (sections, keys, values in order, repeated keys kept) is read by the standard
library's :mod:`configparser`, which keeps every occurrence of a key as an option of its own, so that
repeated ``action`` and ``label`` keys keep every value in order.  A position scan over the same
physical lines records where every value starts, so that each character of a (possibly continued)
value maps back to its physical line and column; the two readings must agree.  The scan takes one
regular expression match per line that matters for plain files (valid headers, ``key = value`` and
continuation lines, no ``#`` after text) and goes line by line, reporting problems, for any other file.
The line kinds follow ``docs/language.md`` section 1.2:

* blank lines and comment lines (``#`` as first non-blank character, ``;`` in column 1) are ignored;
* ``[id]`` in column 1 starts a section; ``key = value`` in column 1 is a property;
* a line starting with a space or tab continues the previous property, joined by one space;
* ``#`` outside quotes starts a comment anywhere.
"""

from __future__ import annotations

import configparser
import io
import itertools
import re
from collections.abc import Iterable
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


# What configparser reads from a file: for every section in order, its id and its options, each under the
# key (occurrence number in the file, lower-case key) so that repeated keys keep every value, in order;
# a value is its lines joined by newlines, as configparser joins them.
Structure = list[tuple[str, dict[tuple[int, str], str]]]


class _StructureReader(configparser.RawConfigParser):
    """configparser set up to read the structure of rule files: ``=`` as the only delimiter, no comment
    prefixes (the position scan hands over no comments), case-insensitive keys, every key occurrence an
    option of its own (see :meth:`optionxform`) and no interpolation.  Setting one up costs more than
    reading a rule file (the constructor looks up every ``get*`` method), so each is reused, reset to the
    state of a new one before every read."""

    def __init__(self) -> None:
        super().__init__(strict=False, delimiters=("=",), comment_prefixes=(), inline_comment_prefixes=None,
                         empty_lines_in_values=False, interpolation=None, default_section="\x00defaults")
        # Only the structure is read, never typed values: without converters, configparser gives each
        # section's proxy no getint/getfloat/getboolean getters (three objects per section, in cycles).
        for name in list(self.converters):
            del self.converters[name]
        self._default_proxy = self._proxies[self.default_section]
        self._occurrence = itertools.count(1).__next__

    def optionxform(self, optionstr: str) -> tuple[int, str]:  # type: ignore[override]
        """The key of an option: its occurrence number in the file and the key in lower case."""
        return self._occurrence(), optionstr.lower()

    def read_structure(self, lines: Iterable[str]) -> Structure:
        """The sections and options that configparser reads in ``lines``."""
        # Reading changes only these three mappings (and what they hold): fresh ones make the parser a new
        # one again.  The default section's proxy holds nothing but the parser and its name.
        self._sections = self._dict()
        self._defaults = self._dict()
        self._proxies = self._dict()
        self._proxies[self.default_section] = self._default_proxy
        self._occurrence = itertools.count(1).__next__
        self.read_file(lines, "<string>")  # as read_string() names its source
        return list(self._sections.items())


_READERS: list[_StructureReader] = []  # idle readers: one per thread that reads at the same time


def read_with_configparser(lines: Iterable[str]) -> Structure:
    """configparser's reading of the structure of ``lines`` (section headers, ``key = value`` lines and
    indented continuation lines; no comments or blank lines)."""
    try:
        reader = _READERS.pop()
    except IndexError:
        reader = _StructureReader()
    try:
        return reader.read_structure(lines)
    finally:
        _READERS.append(reader)


def read_rule_file(text: str, filename: str, bag: DiagnosticBag) -> RuleFile:
    """Read one rule file; problems are added to ``bag`` and reading goes on."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    plain = _read_plain(text, filename)
    if plain is not None:
        sections, lines, expected = plain
        try:
            agrees = read_with_configparser(lines) == expected
        except configparser.Error:
            agrees = False
        if agrees:
            return RuleFile(filename, sections)
    sections = _scan_exact(text, filename, bag)
    _cross_check(sections, filename, bag)
    return RuleFile(filename, sections)


def _configparser_input(sections: list[Section], at: list[int] | None = None) -> tuple[list[str], Structure]:
    """The lines that configparser reads for ``sections`` (``[id]``, ``key = value`` and indented
    continuation lines, as the position scan read them) and the structure it must find in them; with
    ``at``, the physical line number of every line is appended to it."""
    lines: list[str] = []
    expected: Structure = []
    occurrence = 0
    for section in sections:
        lines.append(f"[{section.rule_id}]")
        options: dict[tuple[int, str], str] = {}
        expected.append((section.rule_id, options))
        if at is not None:
            at.append(section.span.line)
        for prop in section.properties:
            occurrence += 1
            value = prop.value
            pieces = value.pieces
            if len(pieces) == 1:
                lines.append(f"{prop.key} = {value.text}")
                options[occurrence, prop.key] = value.text
            else:
                text = value.text
                ends = [start - 1 for start, _, _ in pieces[1:]] + [len(text)]  # each piece ends before a space
                parts = [text[start:max(start, end)] for (start, _, _), end in zip(pieces, ends)]
                lines.append(f"{prop.key} = {parts[0]}")
                lines.extend("  " + part for part in parts[1:])
                options[occurrence, prop.key] = "\n".join(parts)
            if at is not None:
                at.extend(line for _, line, _ in pieces)
    return lines, expected


# One match per significant line of a plain file, as a tuple of its groups (findall): a continuation line
# (indent, text), or the blank and comment lines before a section header or a ``key = value`` line (skipped)
# and that line (id, or key, separator and value); or the blank and comment lines at the end of the text
# (all groups empty); or ``bad``: any other line (a header with spaces or an invalid id, a line the exact
# reader reports, ...).  Whitespace is Unicode whitespace as for str.strip(); ``[^\S\n]`` is whitespace
# within a line, and ``(?<=\S)`` after a greedy run drops its trailing whitespace (cheaper for the regex
# engine than a lazy run).  '#' inside a value is left to the caller.
_PLAIN_LINE_RE = re.compile(r"""
    ([ \t][^\S\n]*)([^\s\#].*(?<=\S))[^\S\n]*(?:\n|\Z)
  | ((?:[^\S\n]*(?:\#.*)?\n|;.*\n)*+)
    (?: \[([A-Za-z0-9][A-Za-z0-9_-]*)\][^\S\n]*(?:\n|\Z)
      | ([^\s=\[;\#][^=\n\#]*(?<=\S))([^\S\n]*=[^\S\n]*)(\S.*(?<=\S))[^\S\n]*(?:\n|\Z)
      | (?:[^\S\n]*(?:\#.*)?|;.*)\Z
      | ([^\n]*\n?)
    )
""", re.VERBOSE)


def _read_plain(text: str, filename: str) -> tuple[list[Section], list[str], Structure] | None:
    """The sections of a file that has nothing for the exact reader to report and no '#' after text, as
    :func:`_scan_exact` reads them, with what :func:`_configparser_input` makes of them; None for any
    other file.

    One regular expression match per header, property and continuation line (blank and comment lines are
    skipped inside the match) and no match objects, instead of a Python loop step per physical line; the
    lines for configparser are made on the way instead of in a second pass over the sections."""
    sections: list[Section] = []
    current: Section | None = None
    last_value: Value | None = None
    lines: list[str] = []
    expected: Structure = []
    options: dict[tuple[int, str], str] = {}
    option = (0, "")  # the key in ``options`` of last_value
    line = 1  # the physical line where the current match starts
    for indent, piece, skipped, raw_id, raw_key, sep, value_text, bad in _PLAIN_LINE_RE.findall(text):
        if skipped:
            line += skipped.count("\n")
        if value_text:
            if current is None or "#" in value_text:
                return None
            key = raw_key.lower()
            last_value = Value(value_text, filename, [(0, line, len(raw_key) + len(sep) + 1)])
            current.properties.append(Property(key, raw_key, last_value, line))
            lines.append(f"{key} = {value_text}")
            option = (option[0] + 1, key)
            options[option] = value_text
        elif piece:
            if last_value is None or "#" in piece:
                return None
            last_value.pieces.append((len(last_value.text) + 1, line, len(indent) + 1))
            last_value.text = f"{last_value.text} {piece}"
            lines.append("  " + piece)
            options[option] = f"{options[option]}\n{piece}"
        elif raw_id:
            rule_id = raw_id.lower()
            current = Section(rule_id, raw_id, Span(filename, line, 2, line, 2 + len(raw_id)), [])
            sections.append(current)
            last_value = None
            lines.append(f"[{rule_id}]")
            options = {}
            expected.append((rule_id, options))
        elif bad:
            return None
        line += 1
    if len({section.rule_id for section in sections}) < len(sections):  # a duplicate id
        return None
    return sections, lines, expected


def _scan_exact(text: str, filename: str, bag: DiagnosticBag) -> list[Section]:
    """The position scan of any file, line by line, reporting what is wrong with it."""
    lines = text.split("\n")
    sections: list[Section] = []
    current: Section | None = None
    last_prop: Property | None = None
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
    return sections


def _cross_check(sections: list[Section], filename: str, bag: DiagnosticBag) -> None:
    """Let configparser read the lines of ``sections`` and confirm that it finds the same sections, keys
    and value lines, in the same order, as the position scan."""
    kept_at: list[int] = []
    kept, expected = _configparser_input(sections, kept_at)
    try:
        found = read_with_configparser(io.StringIO("\n".join(kept)))
    except configparser.Error as exc:  # the position scan already reported what it found
        if not bag.has_errors:
            line = getattr(exc, "lineno", 1) or 1
            phys = kept_at[line - 1] if 0 < line <= len(kept_at) else 1
            bag.error("RS101", f"malformed INI structure: {exc.message}", Span(filename, phys, 1))
        return
    if found != expected:  # pragma: no cover - would be a bug in one of the readers
        k = next(i for i, (a, b) in enumerate(zip(found + [("", {})], expected + [("", {})])) if a != b)
        entry = sections[min(k, len(sections) - 1)].span.line if sections else 1
        bag.error("RS100", "internal error: configparser and the position scan read this file differently "
                  "here; please report this file", Span(filename, entry, 1))
