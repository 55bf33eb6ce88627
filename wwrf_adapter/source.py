"""Files → header, element kind and sections (with physical line numbers)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulescript import textfile
from rulescript.diagnostics import DiagnosticBag, Span, did_you_mean

from .ast import Header

_HEADER = re.compile(r"^\*\*(?P<name>.+?)\*\*(?P<rest>.*)$")
_SECTION = re.compile(r"^\s*__([^_]+)__\s*$")
_LOCATION_KEYS = re.compile(r"^\s*(sort index|members|viewers|haunting)\s*:", re.I)
ROLE_CLASSES = ("Townsfolk", "Werewolf", "Solo", "Unaligned", "Extra")
ELEMENT_KINDS = ("role", "team", "group", "poll", "attribute", "ability set", "location", "display")


@dataclass
class RawSection:
    title: str
    title_line: int
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class RawElement:
    """A decoded file cut into header, kind and sections; ``formal`` holds the lines to parse."""

    file: str
    file_name: str
    text: str
    header: Header
    kind: str
    sections: list[RawSection] = field(default_factory=list)
    formal: list[tuple[int, str]] = field(default_factory=list)
    loose: list[tuple[int, str]] = field(default_factory=list)


def decode(data: bytes) -> str:
    """The text of an element file's bytes (``textfile.decode``: UTF-8 with or without a BOM, UTF-16/32
    with their BOM; anything else raises ``textfile.NotText``), with line ends made ``\\n``."""
    return decode_text(textfile.decode(data))


def decode_text(text: str) -> str:
    """Element text with every line end as ``\\n`` and no zero-width spaces."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u200b", "")


_PART_KINDS = {"Poll": "poll", "Attribute": "attribute", "Ability Set": "ability set"}


def part_kind(first: str) -> str | None:
    """The element kind that a header's first part names: ``poll``, ``attribute``, ``ability set``,
    ``group`` (``<Team> Team Group``, or ``… Group`` after a word that is not a role class), ``role``
    (``<Class> <Category>…``, so ``Townsfolk Group`` is a role of category Group) or None."""
    kind = _PART_KINDS.get(first)
    if kind is not None:
        return kind
    is_role = first.split(" ", 1)[0] in ROLE_CLASSES
    if first.endswith(" Team Group") or (first.endswith("Group") and not is_role):
        return "group"
    return "role" if is_role else None


def parse_header(line: str, file: str, diags: DiagnosticBag) -> Header:
    stripped = line.strip()
    m = _HEADER.match(stripped)
    if not m:
        diags.error("WW100", "line 1 must be a header of the form **Name** ⟦| …⟧", Span(file, 1, 1, 1, max(2, len(line) + 1)))
        name = stripped.strip("*").split("|")[0].strip() or "?"
        return Header(name=name, span=Span(file, 1, 1))
    rest = m.group("rest").strip()
    if rest and not rest.startswith("|"):
        start = len(line) - len(line.lstrip()) + line.lstrip().index(m.group("rest").lstrip()) + 1 if m.group("rest").strip() else 1
        diags.error("WW100", "unexpected text after the header name: parts are separated by ' | '", Span(file, 1, start, 1, len(line) + 1))
    parts = [p.strip() for p in m.group("rest").split("|")[1:]]
    header = Header(name=m.group("name").strip(), parts=parts, span=Span(file, 1, 1, 1, len(line) + 1))
    if any(not p for p in parts):
        diags.error("WW100", "empty header part after '|'", Span(file, 1, 1, 1, len(line) + 1))
    elif parts and part_kind(parts[0]) is None:
        word = parts[0].split(" ", 1)[0]
        col = line.index(parts[0]) + 1 if parts[0] in line else 1
        diags.error("WW100", f"unknown header part '{word}': expected a role class, Poll, Attribute, "
                    "Ability Set or '… Group'", Span(file, 1, col, 1, col + len(word)),
                    did_you_mean(word, (*ROLE_CLASSES, "Poll", "Attribute", "Ability Set")))
    if parts and part_kind(parts[0]) == "role":
        main, _, team = parts[0].partition(" - ")
        words = main.split()
        header.role_class = words[0]
        header.category = " ".join(words[1:]) or None
        if team:
            team = team.strip()
            header.team = team[: -len(" Team")] if team.endswith(" Team") else team
        header.role_type = parts[1] if len(parts) > 1 else None
    return header


def element_kind(header: Header, sections: list[RawSection], loose: list[tuple[int, str]]) -> str:
    if header.parts:
        return part_kind(header.parts[0]) or "role"
    titles = {s.title.lower() for s in sections}
    if "description" in titles:
        return "location"
    if "formalized" in titles:
        return "team"
    nonempty = [t for _, t in loose if t.strip()]
    if nonempty and all(_LOCATION_KEYS.match(t) for t in nonempty):
        return "location"
    return "display"


def has_header(text: str) -> bool:
    """Whether the first line of ``text`` is an element header (``**Name**`` ⟦``| …``⟧)."""
    end = text.find("\n")
    return _HEADER.match((text if end < 0 else text[:end]).strip()) is not None


def read_element(file: str, text: str, diags: DiagnosticBag, file_name: str | None = None,
                 kind: str | None = None) -> RawElement:
    """Cut ``text`` into header and sections; choose the formalized lines for the element's kind
    (``kind``: the kind the book's ``_paths/`` gives the file; by default the header decides)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u200b", "").split("\n")
    header = parse_header(lines[0] if lines else "", file, diags)
    if kind is not None and kind != "role":  # a group's '<Team> Group' is no role class and category
        header.role_class = header.category = header.team = header.role_type = None
    sections: list[RawSection] = []
    loose: list[tuple[int, str]] = []
    add = loose.append  # lines before the first section title are loose
    for number, line in enumerate(lines[1:], start=2):
        m = _SECTION.match(line) if "__" in line else None  # (a title needs "__")
        if m:
            sec = RawSection(m.group(1).strip(), number)
            sections.append(sec)
            add = sec.lines.append
        else:
            add((number, line))
    if kind is None:
        kind = element_kind(header, sections, loose)
    formal: list[tuple[int, str]] = []
    for sec in sections:
        if sec.title.lower() == "formalized":
            formal.extend(sec.lines)
    if kind in ("poll", "ability set") or (kind in ("location", "attribute", "team") and not sections):
        formal = loose + formal
    if kind == "display":
        formal = []
    formal = [(n, t) for n, t in formal if t.strip()]
    base = file_name if file_name is not None else file.replace("\\", "/").rsplit("/", 1)[-1]
    return RawElement(file, base, text, header, kind, sections, formal, loose)
