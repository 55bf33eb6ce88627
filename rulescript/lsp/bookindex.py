"""The elements of a WWRF book for hover, completion and navigation: names, kinds, files, headers
and summaries, read with the WWRF front end's own reader (:func:`wwrf_adapter.source.read_element`,
memoised by :class:`rulescript.lsp.checks.Checker`)."""

from __future__ import annotations

import re
from typing import Any

from rulescript.lsp import workspace
from rulescript.lsp.checks import Checker, book_files
from wwrf_adapter.keys import name_key

#: the sections whose first paragraph summarises an element, in order of preference
SUMMARY_SECTIONS = ("basics", "simplified", "description", "details")


class BookIndex:
    def __init__(self, checker: Checker, book: str) -> None:
        self.checker = checker
        self.book = book

    def elements(self) -> list[Any]:
        """The RawElement of every element file of the book."""
        out = []
        for path, kind in book_files(self.book):
            raw = self.checker._raw(path, kind)
            if raw is not None:
                out.append(raw)
        return out

    def find(self, name: str, kinds: tuple[str, ...] = ()) -> Any | None:
        key = name_key(name)
        if not key:
            return None
        for raw in self.elements():
            if kinds and raw.kind not in kinds:
                continue
            if name_key(raw.header.name) == key or name_key(raw.file_name) == key:
                return raw
        return None

    def names(self, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
        """(name, kind) of the elements of ``kinds``."""
        return sorted({(raw.header.name, raw.kind) for raw in self.elements() if raw.kind in kinds})

    def references(self, raw: Any) -> list[tuple[str, int, int, int]]:
        """Where the element is named in the book: (path, line, start, end), its own header first."""
        words = {raw.header.name, raw.file_name}
        alts = "|".join(sorted({_loose(w) for w in words if w}, key=len, reverse=True))
        pattern = re.compile(r"(?<![\w-])(?:" + alts + r")(?![\w-])", re.I)
        out: list[tuple[str, int, int, int]] = []
        for path, _kind in book_files(self.book):
            text = workspace.read(path)
            if not text:
                continue
            for i, line in enumerate(text.replace("\r\n", "\n").split("\n")):
                for m in pattern.finditer(line):
                    out.append((path, i, m.start(), m.end()))
        out.sort(key=lambda p: (p[0] != raw.file, p))
        return out


def _loose(name: str) -> str:
    """A regular expression for a name in any of its spellings: spaces, '-' and '_' alike."""
    parts = [re.escape(p) for p in re.split(r"[\s_-]+", name.strip()) if p]
    return r"[\s_-]+".join(parts)


def element_markdown(raw: Any) -> str:
    """An element's hover: its header line, its kind, and the first paragraph of its summary."""
    header = raw.text.replace("\r\n", "\n").split("\n", 1)[0].strip()
    parts = [f"{header}", f"*{raw.kind}* (`{raw.file_name}`)"]
    by_title = {s.title.lower(): s for s in raw.sections}
    for title in SUMMARY_SECTIONS:
        sec = by_title.get(title)
        if sec is None:
            continue
        para = []
        for _n, text in sec.lines:
            if not text.strip():
                if para:
                    break
                continue
            para.append(text.strip())
        if para:
            parts.append(" ".join(para))
            break
    return "\n\n".join(parts)
