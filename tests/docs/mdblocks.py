"""Reading the fenced code blocks (and hidden directives) of a Markdown document, for doc tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_FENCE = re.compile(r"^(```+)(.*)$")
_DIRECTIVE = re.compile(r"^<!--\s*([a-z-]+):\s*(.*?)\s*-->\s*$")


@dataclass
class Block:
    """A fenced block: its info string split into words (``ini error RS401`` -> ``["ini", "error",
    "RS401"]``), its text, and the line of its opening fence (1-based)."""

    info: list[str]
    text: str
    line: int

    @property
    def lang(self) -> str:
        return self.info[0] if self.info else ""

    def option(self, key: str) -> str | None:
        """The value of a ``key=value`` word of the info string."""
        for word in self.info[1:]:
            if word.startswith(key + "="):
                return word[len(key) + 1:]
        return None


@dataclass
class Directive:
    """A hidden ``<!-- name: argument -->`` line between blocks."""

    name: str
    arg: str
    line: int


def read(path: Path) -> list[Block | Directive]:
    """Every fenced block and directive of the document, in order."""
    items: list[Block | Directive] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m:
            fence, info = m.group(1), m.group(2).split()
            start = i + 1
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith(fence):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise AssertionError(f"{path.name}:{start}: unclosed code block")
            items.append(Block(info, "\n".join(body) + "\n", start))
        else:
            d = _DIRECTIVE.match(lines[i])
            if d:
                items.append(Directive(d.group(1), d.group(2), i + 1))
        i += 1
    return items


def blocks(path: Path, lang: str | None = None) -> list[Block]:
    return [b for b in read(path) if isinstance(b, Block) and (lang is None or b.lang == lang)]
