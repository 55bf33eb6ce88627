"""Hover texts: a profile word's signature and description, a card's data, a WWRF element's header
and summary."""

from __future__ import annotations

from lsprotocol import types

from rulescript.lsp import names
from rulescript.lsp.bookindex import element_markdown
from rulescript.lsp.gameindex import card_markdown
from rulescript.lsp.positions import at, line_range, lines_of
from rulescript.lsp.vocab import vocabulary


def hover(state, info, text: str, pos: types.Position) -> types.Hover | None:
    lines = lines_of(text)
    line, col = at(lines, pos)
    if info.kind == "wwrf":
        hit = names.wwrf_name(line, col)
        if hit is None:
            return None
        name, how, start, end = hit
        raw = state.book(info.root).find(name, names.kinds_of(how))
        if raw is None:
            return None
        return _hover(element_markdown(raw), pos.line, start, end, lines)
    hit = names.rulescript_word(line, col)
    if hit is None:
        return None
    word, start, end = hit
    if info.root is not None:
        card = state.game(info.root).cards().get(word.lower())
        if card is not None:
            return _hover(card_markdown(card), pos.line, start, end, lines)
    if info.kind != "rules":
        return None
    profile = state.profile_of(info)
    if profile is None:
        return None
    doc = vocabulary(profile).hover(word)
    return _hover(doc, pos.line, start, end, lines) if doc else None


def _hover(markdown: str, line0: int, start: int, end: int, lines: list[str]) -> types.Hover:
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
                       range=line_range(line0, start, end, lines))
