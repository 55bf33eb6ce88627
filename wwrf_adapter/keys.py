"""Name keys, bullet glyphs and the keyword table shared by the lexer and the parser."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

GRAMMAR_PATH = Path(__file__).with_name("wwrf.lark")

#: bullet glyph → depth (the glyph gives the depth, not the indentation)
GLYPH_DEPTH: dict[str, int] = {"•": 1, "‣": 2, "◦": 3, "·": 4, "⁃": 5, "⹀": 6}
DEPTH_GLYPH: dict[int, str] = {d: g for g, d in GLYPH_DEPTH.items()}

#: terminals the lexer produces that are not keyword words
STRUCTURAL_TERMINALS = frozenset(
    "BT SEL HOST VAR NUMBER ANN PGROUP DUR FILTER LPAR RPAR PLUS SLASH POSS ARROW BANG GT LT WORD COMMA".split()
)

_KEY_DROP = re.compile(r"[^0-9a-z ]+")
_SPACES = re.compile(r" +")


_NAME_KEYS: dict[str, str] = {}


def name_key(name: str) -> str:
    """The comparison key of an element name: lower case, ``-``/``_`` as spaces, letters/digits only.

    Memoised (a pure function of the text; the table is bounded by clearing it when it grows large)."""
    try:
        return _NAME_KEYS[name]
    except KeyError:
        pass
    low = name.lower().replace("-", " ").replace("_", " ")
    key = _SPACES.sub(" ", _KEY_DROP.sub("", low)).strip()
    if len(_NAME_KEYS) >= 65536:
        _NAME_KEYS.clear()
    _NAME_KEYS[name] = key
    return key


@lru_cache(maxsize=1)
def keyword_terminals() -> frozenset[str]:
    """All keyword terminals declared in the grammar (each is a word, upper case, ``-`` as ``_``)."""
    names: set[str] = set()
    for line in GRAMMAR_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("%declare"):
            names.update(line.split()[1:])
    return frozenset(names - STRUCTURAL_TERMINALS)


_KW_CACHE: dict[str, str | None] = {}


def keyword_terminal(word: str) -> str | None:
    """The terminal of a keyword word (case-insensitive), or None for an ordinary word."""
    try:
        return _KW_CACHE[word]
    except KeyError:
        term = word.upper().replace("-", "_")
        result = term if term in keyword_terminals() else None
        _KW_CACHE[word] = result
        return result
