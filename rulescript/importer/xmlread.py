"""Reading a plugin's XML files (definition.xml, set.xml, .o8d decks) as located data.

The standard library's expat parser is used directly so that every element keeps the line and
column where it starts (ElementTree forgets them).  A document type declaration, an entity
declaration or an entity reference other than the five predefined ones is refused: plugin files
are data, and nothing in them may expand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from xml.parsers import expat

from rulescript.diagnostics import Diagnostic, Span


@dataclass(slots=True)
class Node:
    """One XML element: its tag, attributes, children, text and where it starts (1-based)."""

    tag: str
    attrib: dict[str, str]
    line: int
    col: int
    children: list["Node"] = field(default_factory=list)
    text: str = ""   # the text before the first child
    tail: str = ""   # the text after this element, up to its next sibling

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def find(self, tag: str) -> "Node | None":
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list["Node"]:
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str) -> Iterator["Node"]:
        if self.tag == tag:
            yield self
        for c in self.children:
            yield from c.iter(tag)

    def itertext(self) -> str:
        return self.text + "".join(c.itertext() + c.tail for c in self.children)

    def span(self, file: str) -> Span:
        return Span(file, self.line, self.col)


MAX_DIGITS = 9  # of a number in a plugin file (a count, a stat): longer is an error, never a conversion


def whole_number(text: str, signed: bool = False) -> int | None:
    """The integer ``text`` writes (ASCII digits, at most MAX_DIGITS, a sign when ``signed``; spaces
    and a minus sign U+2212 allowed), or None: a caller reports None as a located error."""
    v = text.strip().replace("\u2212", "-")
    if signed and v[:1] in ("+", "-"):
        sign, v = (-1 if v[0] == "-" else 1), v[1:]
    else:
        sign = 1
    if not v or len(v) > MAX_DIGITS or not v.isascii() or not v.isdigit():
        return None
    return sign * int(v)


class XmlError(Exception):
    """The file is not XML the importer reads; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def parse_xml(data: bytes, path: str, code: str = "RI201") -> Node:
    """The root element of ``data``; raises :class:`XmlError` with a located diagnostic."""
    parser = expat.ParserCreate()
    stack: list[Node] = []
    root: list[Node] = []
    refused: list[str] = []

    def where() -> tuple[int, int]:
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def refuse(what: str) -> None:
        refused.append(what)
        raise expat.ExpatError(what)

    def start(tag: str, attrs: dict[str, str]) -> None:
        flush()
        line, col = where()
        node = Node(tag, dict(attrs), line, col)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    # the text since the last start or end tag, joined once when the next tag comes (appending each
    # piece to a string took time quadratic in a long text: 300,000 lines, 21 s)
    pieces: list[str] = []

    def flush() -> None:
        if pieces and stack:
            parent = stack[-1]
            text = "".join(pieces)
            if parent.children:
                parent.children[-1].tail += text
            else:
                parent.text += text
        pieces.clear()

    def end(_tag: str) -> None:
        flush()
        stack.pop()

    def chars(text: str) -> None:
        pieces.append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = lambda *a: refuse("a DOCTYPE declaration is not allowed in plugin XML")
    parser.EntityDeclHandler = lambda *a: refuse("an entity declaration is not allowed in plugin XML")
    parser.ExternalEntityRefHandler = lambda *a: refuse("an external entity is not allowed in plugin XML")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True  # one call per run of text, not one per line and entity
    parser.buffer_size = 1 << 16
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        line, col = where()
        message = refused[0] if refused else f"invalid XML: {expat.ErrorString(exc.code) if exc.code else exc}"
        raise XmlError(Diagnostic("error", code, message, Span(path, line, col))) from None
    except (LookupError, UnicodeError) as exc:  # the encoding its declaration names is unknown or wrong
        line, col = where()
        raise XmlError(Diagnostic("error", code, f"invalid XML: the text cannot be decoded as its XML declaration "
                                  f"says ({exc})", Span(path, line, col))) from None
    finally:
        # the handlers hold the parser (through ``where``): without this the parser, its 64 KB buffer
        # and expat's tables would wait for a full collection of the cyclic garbage collector
        parser = None
    if not root:
        raise XmlError(Diagnostic("error", code, "the file holds no XML element", Span(path, 1, 1)))
    return root[0]


def read_xml(path: Path, code: str = "RI201") -> Node:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise XmlError(Diagnostic("error", code, f"cannot read the file: {exc.strerror}", Span(str(path), 1, 1))) \
            from None
    return parse_xml(data, str(path), code)


def read_root(path: Path, tag: str, code: str, diagnostics: list[Diagnostic]) -> Node | None:
    """The root element of the file when it is ``<tag>``; otherwise None, with the reason added to
    ``diagnostics`` (an error located where the file stops being what is expected)."""
    try:
        root = read_xml(path, code)
    except XmlError as exc:
        diagnostics.append(exc.diagnostic)
        return None
    if root.tag != tag:
        diagnostics.append(Diagnostic("error", code, f"the root element is <{root.tag}>, expected <{tag}>",
                                      Span(str(path), root.line, root.col)))
        return None
    return root
