"""Go to definition and find references.

A card id leads from a rule section or a scenario to its ``cards.yaml`` entry, and from the
``cards.yaml`` entry to its rule section(s); its references are the entry, the sections and every
scenario that names it.  A WWRF name (``Inherit``, ``#Group``, a poll, a role, an attribute) leads to
its element's file; its references are every place of the book that names it.
"""

from __future__ import annotations

from lsprotocol import types

from rulescript.lsp import names
from rulescript.lsp.gameindex import Place
from rulescript.lsp.positions import at, line_range, lines_of
from rulescript.lsp.workspace import path_to_uri, read


def _location(path: str, line0: int, start: int, end: int) -> types.Location:
    text = read(path) or ""
    return types.Location(uri=path_to_uri(path), range=line_range(line0, start, end, lines_of(text)))


def _place(p: Place) -> types.Location:
    return _location(p.path, p.line, p.start, p.end)


def _card_id(state, info, text: str, pos: types.Position) -> str | None:
    if info.root is None or info.kind == "wwrf":
        return None
    line, col = at(lines_of(text), pos)
    hit = names.rulescript_word(line, col)
    if hit is None:
        return None
    game = state.game(info.root)
    word = hit[0].lower()
    if word in game.cards() or (info.kind == "rules" and game.rule_sections(word)):
        return word
    return None


def definition(state, info, text: str, pos: types.Position) -> list[types.Location]:
    if info.kind == "wwrf":
        raw = _element(state, info, text, pos)
        if raw is None:
            return []
        first = (read(raw.file) or "").split("\n", 1)[0]
        return [_location(raw.file, 0, 0, len(first))]
    cid = _card_id(state, info, text, pos)
    if cid is None:
        return []
    game = state.game(info.root)
    if info.kind == "cards":
        return [_place(p) for p in game.rule_sections(cid)]
    entry = game.card_entry(cid)
    return [_place(entry)] if entry is not None else [_place(p) for p in game.rule_sections(cid)]


def references(state, info, text: str, pos: types.Position, include_declaration: bool = True) -> list[types.Location]:
    if info.kind == "wwrf":
        raw = _element(state, info, text, pos)
        if raw is None:
            return []
        found = state.book(info.root).references(raw)
        if not include_declaration:
            found = [f for f in found if not (f[0] == raw.file and f[1] == 0)]
        return [_location(*f) for f in found]
    cid = _card_id(state, info, text, pos)
    if cid is None:
        return []
    game = state.game(info.root)
    places = game.references(cid)
    if not include_declaration:
        entry = game.card_entry(cid)
        places = [p for p in places if p != entry]
    return [_place(p) for p in places]


def _element(state, info, text: str, pos: types.Position):
    line, col = at(lines_of(text), pos)
    hit = names.wwrf_name(line, col)
    if hit is None:
        return None
    return state.book(info.root).find(hit[0], names.kinds_of(hit[1]))
