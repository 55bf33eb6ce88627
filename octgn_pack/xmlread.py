"""Reading XML with positions (expat): every element knows its line and column, and the column of
each attribute can be found, so that a diagnostic points at the exact spot of a given or generated
file.  A DOCTYPE (and so any entity declaration) is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from rulescript.diagnostics import Diagnostic, Span


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    line: int
    col: int
    file: str
    text: str = ""
    children: list["Node"] = field(default_factory=list)
    offset: int = 0
    doc: "XmlDoc | None" = None

    def find(self, tag: str) -> "Node | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def all(self, tag: str) -> list["Node"]:
        return [c for c in self.children if c.tag == tag]

    def span(self) -> Span:
        return Span(self.file, self.line, self.col, self.line, self.col + 1 + len(self.tag))

    def attr_span(self, name: str) -> Span:
        """Where the value of attribute ``name`` is written (the element when it has none)."""
        if self.doc is not None and name in self.attrs:
            m = re.compile(r"\s" + re.escape(name) + r"\s*=\s*([\"'])").search(self.doc.text, self.offset)
            if m is not None:
                start = m.start(1)
                line = self.doc.text.count("\n", 0, start) + 1
                col = start - (self.doc.text.rfind("\n", 0, start) + 1) + 1
                return Span(self.file, line, col, line, col + len(self.attrs[name]) + 2)
        return self.span()


@dataclass
class XmlDoc:
    file: str
    text: str
    root: Node | None = None


class _Doctype(Exception):
    pass


def parse(data: bytes, file: str) -> tuple[XmlDoc, Diagnostic | None]:
    text = data.decode("utf-8", errors="replace")
    doc = XmlDoc(file, text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    raw_lines = data.split(b"\n")

    def char_col(line: int, byte_col: int) -> int:
        """expat counts bytes; a column is counted in characters."""
        if 1 <= line <= len(raw_lines):
            return len(raw_lines[line - 1][:byte_col].decode("utf-8", errors="replace")) + 1
        return byte_col + 1

    parser = expat.ParserCreate()
    stack: list[Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        line = parser.CurrentLineNumber
        col = char_col(line, parser.CurrentColumnNumber)
        off = line_starts[line - 1] + col - 1 if line - 1 < len(line_starts) else 0
        node = Node(tag, dict(attrs), line, col, file, offset=off, doc=doc)
        if stack:
            stack[-1].children.append(node)
        else:
            doc.root = node
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data_: str) -> None:
        if stack:
            stack[-1].text += data_

    def doctype(*_a: object) -> None:
        raise _Doctype()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except _Doctype:
        return doc, Diagnostic("error", "OP200", "a DOCTYPE (entity declarations) is not allowed here",
                               Span(file, parser.CurrentLineNumber,
                                    char_col(parser.CurrentLineNumber, parser.CurrentColumnNumber)))
    except expat.ExpatError as exc:
        return doc, Diagnostic("error", "OP200", f"not well-formed XML: {expat.ErrorString(exc.code)}",
                               Span(file, exc.lineno, char_col(exc.lineno, exc.offset)))
    return doc, None
