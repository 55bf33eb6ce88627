"""Completion in context.

In a rule file: commands after ``:``, ``;`` or ``=`` (and after ``&``, ``]]``, ``~event~``), filter
keywords inside ``[...]``, zones after ``@``, events inside ``~...~``, hooks inside ``?...?``, card
ids in a section header.
In a scenario file: card ids.  In a WWRF element: triggers at the start of a line, ability types
after the trigger's ``:``, targets after ``@``, groups, polls and locations after ``#``, and the
book's roles, attributes, teams and ability sets inside ``(Key:...)`` or backticks.
"""

from __future__ import annotations

import re

from lsprotocol import types

from rulescript.lsp.positions import at, line_range, lines_of
from rulescript.lsp.vocab import Entry, vocabulary

K = types.CompletionItemKind

_COMMAND_AT = re.compile(r"(?:^\s*\w+\s*=|[:;&=~]|\]\])\s*([A-Za-z]*)$")
_ZONE_AT = re.compile(r"@([A-Za-z]*)$")
_PARTIAL = re.compile(r"([A-Za-z0-9_\-]*)$")


def complete(state, info, text: str, pos: types.Position) -> list[types.CompletionItem]:
    lines = lines_of(text)
    line, col = at(lines, pos)
    before = line[:col]
    if info.kind == "wwrf":
        return _wwrf(state, info, before, pos, lines)
    if info.kind == "scenario" and info.root is not None:
        return _cards(state, info, before, pos, lines)
    if info.kind != "rules":
        return []
    if before.startswith("[") and "]" not in before:
        return _cards(state, info, before, pos, lines) if info.root else []
    profile = state.profile_of(info)
    if profile is None:
        return []
    vocab = vocabulary(profile)
    if before.lstrip().startswith(("#", ";")):
        return []               # a comment
    body = before
    if body.count("~") % 2 == 1:
        return _items(vocab.events, _partial(before), K.Event, pos, lines)
    if body.count("?") % 2 == 1:
        return _items(vocab.hooks, _partial(before), K.Event, pos, lines)
    m = _ZONE_AT.search(body)
    if m:
        return _items(vocab.zones, m.group(1), K.Module, pos, lines)
    if _open_filter(body):
        extra = []
        if info.root is not None:
            subtypes = sorted({str(c.get("subtype")) for c in state.game(info.root).cards().values()
                               if c.get("subtype")})
            extra = [Entry(s, "subtype", s, "a subtype of the card database") for s in subtypes]
        return _items(vocab.filters + extra, _partial(before), K.Keyword, pos, lines)
    m = _COMMAND_AT.search(body)
    if m:
        return _items(vocab.commands, m.group(1), K.Function, pos, lines)
    return []


def _partial(before: str) -> str:
    m = _PARTIAL.search(before)
    return m.group(1) if m else ""


def _open_filter(body: str) -> bool:
    """Whether the cursor is inside a filter block ``[...]`` (not a ``[[condition]]``)."""
    depth = 0
    i = 0
    while i < len(body):
        if body.startswith("[[", i) or body.startswith("]]", i):
            i += 2
            continue
        if body[i] == "[":
            depth += 1
        elif body[i] == "]":
            depth = max(0, depth - 1)
        i += 1
    return depth > 0


def _edit_range(pos: types.Position, partial: str, lines: list[str]) -> types.Range:
    line, col = at(lines, pos)
    return line_range(pos.line, col - len(partial), col, lines)


def _items(entries: list[Entry], partial: str, kind: types.CompletionItemKind, pos: types.Position,
           lines: list[str]) -> list[types.CompletionItem]:
    low = partial.lower()
    rng = _edit_range(pos, partial, lines)
    seen: set[str] = set()
    out = []
    for e in entries:
        if not e.word.lower().startswith(low) or e.word.lower() in seen:
            continue
        seen.add(e.word.lower())
        out.append(types.CompletionItem(
            label=e.word, kind=kind, detail=f"{e.kind}: {e.detail}",
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=e.markdown()),
            text_edit=types.TextEdit(range=rng, new_text=e.word)))
    return out


def _cards(state, info, before: str, pos: types.Position, lines: list[str]) -> list[types.CompletionItem]:
    partial = _partial(before)
    low = partial.lower()
    rng = _edit_range(pos, partial, lines)
    out = []
    for cid, card in state.game(info.root).cards().items():
        if cid.startswith(low):
            label = str(card.get("id"))
            out.append(types.CompletionItem(label=label, kind=K.Value,
                                            detail=f"{card.get('name', '')} ({card.get('type', '')})",
                                            text_edit=types.TextEdit(range=rng, new_text=label)))
    return out


# ------------------------------------------------------------------------------------------ WWRF
_W_AT = re.compile(r"@([A-Za-z0-9]*)$")
_W_HASH = re.compile(r"#([A-Za-z0-9_\-]*)$")
_W_KEY = re.compile(r"\(\s*!?([A-Za-z]+)\s*:\s*!?([^()@,:]*)$")
_W_TICK = re.compile(r"`([^`]*)$")
_W_ABILITY = re.compile(r"^\s*[A-Z][A-Za-z0-9 \-]*:\s*([A-Za-z ]*)$")
_W_TRIGGER = re.compile(r"^\s*([A-Za-z \-]*)$")


def _wwrf(state, info, before: str, pos: types.Position, lines: list[str]) -> list[types.CompletionItem]:
    from rulescript.lsp.names import KEY_KINDS
    from wwrf_adapter import vocab

    book = state.book(info.root)
    m = _W_AT.search(before)
    if m:
        return _words([(s, "target") for s in vocab.BASIC_SELECTORS], m.group(1), K.Variable, pos, lines)
    m = _W_HASH.search(before)
    if m:
        return _words([(n.replace(" ", "-"), k) for n, k in book.names(KEY_KINDS["#"])], m.group(1),
                      K.Module, pos, lines)
    m = _W_KEY.search(before)
    if m and KEY_KINDS.get(m.group(1).lower()):
        return _words(book.names(KEY_KINDS[m.group(1).lower()]), m.group(2), K.Class, pos, lines)
    m = _W_TICK.search(before)
    if m and before.count("`") % 2 == 1:
        kinds = ("ability set",) if "inherit" in before.lower() else ("role", "attribute", "ability set", "team")
        return _words(book.names(kinds), m.group(1), K.Class, pos, lines)
    m = _W_ABILITY.match(before)
    if m:
        return _words([(w, "ability type") for w in vocab.ABILITY_WORDS], m.group(1), K.Function, pos, lines)
    m = _W_TRIGGER.match(before)
    if m and pos.line > 0:
        return _words([(t, "trigger") for t in vocab.TRIGGERS] + [("Inherit", "ability set")], m.group(1),
                      K.Event, pos, lines)
    return []


def _words(words: list[tuple[str, str]], partial: str, kind: types.CompletionItemKind, pos: types.Position,
           lines: list[str]) -> list[types.CompletionItem]:
    low = partial.lower()
    rng = _edit_range(pos, partial, lines)
    out = []
    seen: set[str] = set()
    for word, what in words:
        if word.lower().startswith(low) and word.lower() not in seen:
            seen.add(word.lower())
            out.append(types.CompletionItem(label=word, kind=kind, detail=what,
                                            text_edit=types.TextEdit(range=rng, new_text=word)))
    return out
