"""Quick fixes: every diagnostic whose notes say ``did you mean: a, b`` offers each name as a fix
that replaces the word the message quotes: the diagnostic's range, or the whole word from its start
when the range is a caret on the word's first character (as the scenario checks give)."""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from rulescript.lsp.positions import codepoint_col, line_range, lines_of

PREFIX = "did you mean: "


def suggestions(diag: types.Diagnostic) -> list[str]:
    notes = _notes(diag.data)
    out: list[str] = []
    for note in notes:
        if note.startswith(PREFIX):
            out.extend(s.strip() for s in note[len(PREFIX):].split(",") if s.strip())
    return out


def _notes(data: Any) -> list[str]:
    if isinstance(data, dict):
        notes = data.get("notes")
        if isinstance(notes, list):
            return [str(n) for n in notes]
    return []


def quick_fixes(uri: str, text: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    lines = lines_of(text)
    out = []
    for diag in diagnostics:
        names = suggestions(diag)
        r = diag.range
        if not names or r.start.line != r.end.line or r.start.line >= len(lines):
            continue
        line = lines[r.start.line]
        start, end = codepoint_col(line, r.start.character), codepoint_col(line, r.end.character)
        word = _word_from(line, start)
        if word is not None and end <= word[1] and f"'{line[start:word[1]]}'" in diag.message:
            end = word[1]       # a caret on the first character of a word the message quotes
        wrong = line[start:end]
        if not wrong or wrong not in diag.message:
            continue
        rng = line_range(r.start.line, start, end, lines)
        for name in names:
            if name == wrong:
                continue
            out.append(types.CodeAction(
                title=f"Replace '{wrong}' with '{name}'", kind=types.CodeActionKind.QuickFix,
                diagnostics=[diag], is_preferred=name == names[0],
                edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=rng, new_text=name)]})))
    return out


_WORD = re.compile(r"[\w\-.]+")


def _word_from(line: str, start: int) -> tuple[int, int] | None:
    m = _WORD.match(line, start)
    return (m.start(), m.end()) if m else None
