"""Reading XML with positions (expat): every element knows its line and column, and the column of
each attribute can be found, so that a diagnostic points at the exact spot of a given or generated
file.  A DOCTYPE (and so any entity declaration) is refused."""

from __future__ import annotations

import bisect
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
                line = bisect.bisect_right(self.doc.line_starts, start) if self.doc.line_starts else \
                    self.doc.text.count("\n", 0, start) + 1
                col = start - (self.doc.text.rfind("\n", 0, start) + 1) + 1
                return Span(self.file, line, col, line, col + len(self.attrs[name]) + 2)
        return self.span()


@dataclass
class XmlDoc:
    file: str
    text: str
    root: Node | None = None
    line_starts: list[int] = field(default_factory=list)  # offset of each line in ``text``


class _Doctype(Exception):
    pass


def parse(data: bytes, file: str) -> tuple[XmlDoc, Diagnostic | None]:
    text = data.decode("utf-8", errors="replace")
    doc = XmlDoc(file, text)
    line_starts = doc.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    raw_lines = data.split(b"\n")
    at: dict[int, tuple[int, int]] = {}  # line -> (byte column, its character column) met last

    def char_col(line: int, byte_col: int) -> int:
        """expat counts bytes; a column is counted in characters (decoding each line once, from the
        last element met on it: linear in the line however many elements it holds)."""
        if not 1 <= line <= len(raw_lines):
            return byte_col + 1
        raw = raw_lines[line - 1]
        if line not in at:
            at[line] = (-1, 0) if raw.isascii() else (0, 0)
        done, chars = at[line]
        if done < 0:  # an ASCII line: bytes are characters
            return byte_col + 1
        if byte_col < done:
            done, chars = 0, 0
        chars += len(raw[done:byte_col].decode("utf-8", errors="replace"))
        at[line] = (byte_col, chars)
        return chars + 1

    parser = expat.ParserCreate()
    stack: list[Node] = []
    pieces: list[str] = []  # the text of the innermost open element since its last child (joined once)

    def flush() -> None:
        if pieces:
            stack[-1].text += "".join(pieces)
            pieces.clear()

    def start(tag: str, attrs: dict[str, str]) -> None:
        if stack:
            flush()
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
        flush()
        stack.pop()

    def chars(data_: str) -> None:
        if stack:
            pieces.append(data_)

    def doctype(*_a: object) -> None:
        raise _Doctype()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = doctype
    parser.buffer_text = True  # one call per run of text, not one per line and entity
    parser.buffer_size = 1 << 16
    try:
        parser.Parse(data, True)
    except _Doctype:
        return doc, Diagnostic("error", "OP200", "a DOCTYPE (entity declarations) is not allowed here",
                               Span(file, parser.CurrentLineNumber,
                                    char_col(parser.CurrentLineNumber, parser.CurrentColumnNumber)))
    except expat.ExpatError as exc:
        return doc, Diagnostic("error", "OP200", f"not well-formed XML: {expat.ErrorString(exc.code)}",
                               Span(file, exc.lineno, char_col(exc.lineno, exc.offset)))
    except (LookupError, UnicodeError) as exc:  # the encoding its declaration names is unknown or wrong
        return doc, Diagnostic("error", "OP200", f"the text cannot be decoded as its XML declaration says ({exc})",
                               Span(file, parser.CurrentLineNumber, 1))
    return doc, None
