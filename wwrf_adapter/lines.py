"""The line layer: classify a formalized line and split it into head segments and parameter groups.

Only characters outside backtick strings and at bracket depth 0 may separate. The parameter tail
starts at the first `` [Keyword:``, `` ⟨``, `` {Keyword`` or `` |name|`` (spec §2.2); the head is
split at top-level ``": "``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .keys import GLYPH_DEPTH
from .lexer import LexError, match_close

META_FLAGS = re.compile(r"^(Unique|Ghostly|Haunted) (Role|Group|Attribute)$", re.I)
META_PREFIX = re.compile(r"^(Inherit|Require|Role Attribute|Include|Identity):\s*(.*)$", re.I)
_META_FIRST = frozenset("GHIRUghiru\u0130\u0131")
KEY_LINES = {
    "team": ("Win Condition",),
    "poll": ("Available Options", "Allowed Voters", "Show Voters", "Random", "Hammer"),
    "location": ("Sort Index", "Members", "Viewers", "Haunting"),
}
RESTRICTION_KEYWORDS = ("Temporal", "Attribute", "Succession", "Quantity", "Condition", "Status")
OTHER_KEYWORDS = ("Forced", "Direct", "Visitless", "Vanishing", "Repeating")
_RESTR_START = re.compile(r"\[\s*(" + "|".join(RESTRICTION_KEYWORDS) + r")\s*:", re.I)
_OTHER_START = re.compile(r"\{\s*(" + "|".join(OTHER_KEYWORDS) + r")\b", re.I)
_PROMPT_START = re.compile(r"\|[^|\s][^|]*\|")
_OPEN = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "〈": "〉"}
_CLOSE = {v: k for k, v in _OPEN.items()}
GROUP_KIND = {"[": "restrictions", "⟨": "scaling", "〈": "scaling", "{": "other", "|": "prompt"}


@dataclass(slots=True)
class Segment:
    text: str
    col: int  # 1-based column of text[0]


@dataclass(slots=True)
class ParamGroup:
    kind: str  # restrictions, scaling, other, prompt
    inner: str
    col: int  # column of the opening bracket
    inner_col: int
    end_col: int
    ascii_standin: bool = False


@dataclass(slots=True)
class LineInfo:
    line: int
    text: str
    kind: str  # meta, key, trigger, bullet
    depth: int = 0
    indent: int = 0
    glyph_col: int = 0
    segments: list[Segment] = field(default_factory=list)
    opens_block: bool = False
    params: list[ParamGroup] = field(default_factory=list)
    meta: tuple[str, str] | None = None


def _match(text: str, start: int, col0: int) -> int:
    """Index of the bracket closing ``text[start]`` (``|`` closes ``|``), backtick-aware."""
    open_ch = text[start]
    if open_ch == "|":
        j = text.find("|", start + 1)
        if j < 0:
            raise LexError("unterminated prompt '|…|'", col0 + start, col0 + len(text), "WW104")
        return j
    return match_close(text, start, open_ch, _OPEN[open_ch], col0)


_TAIL_SCAN = re.compile(r"[`(\[{⟨〈)\]}⟩〉|]")
_HEAD_SCAN = re.compile(r"[`(\[{⟨〈)\]}⟩〉]|: ")
_HEAD_SPECIAL = re.compile(r"[`(\[{⟨〈)\]}⟩〉]").search


def _tail_start(text: str, col0: int) -> int:
    """Index where the parameter tail starts (``len(text)`` if there is none).

    Only the interesting characters are visited (a regex jumps over ordinary text)."""
    if "[" not in text and "|" not in text and "{" not in text and "⟨" not in text and "〈" not in text:
        # no group can start: only the backticks need checking
        if text.count("`") % 2:
            raise LexError("unterminated backtick string", col0 + text.rfind("`"), col0 + len(text))
        return len(text)
    depth = 0
    in_bt = False
    for m in _TAIL_SCAN.finditer(text):
        ch = m.group()
        i = m.start()
        if ch == "`":
            in_bt = not in_bt
            continue
        if in_bt:
            continue
        if depth == 0 and (i == 0 or text[i - 1] == " "):
            if ch == "[" and _RESTR_START.match(text, i):
                return i
            if ch in "⟨〈":
                return i
            if ch == "{" and _OTHER_START.match(text, i):
                return i
            if ch == "|" and _PROMPT_START.match(text, i):
                return i
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
    if in_bt:
        raise LexError("unterminated backtick string", col0 + text.rfind("`"), col0 + len(text))
    return len(text)


def split_params(text: str, col0: int) -> tuple[str, list[ParamGroup]]:
    """Split ``text`` (starting at column ``col0``) into its head and its parameter groups."""
    start = _tail_start(text, col0)
    groups: list[ParamGroup] = []
    i = start
    while i < len(text):
        ch = text[i]
        if ch == " ":
            i += 1
            continue
        if ch not in GROUP_KIND:
            raise LexError(f"unexpected text after the parameters: '{text[i:].strip()[:20]}'", col0 + i, col0 + len(text.rstrip()), "WW104")
        j = _match(text, i, col0)
        groups.append(ParamGroup(GROUP_KIND[ch], text[i + 1 : j], col0 + i, col0 + i + 1, col0 + j + 1, ch == "〈"))
        i = j + 1
    return text[:start].rstrip(), groups


def _split_head_scan(head: str, col0: int, seg_start: int, parts: list[tuple[str, int]]) -> int:
    """Split ``head[seg_start:]`` at top-level ``": "`` into ``parts``; return the last segment's start."""
    depth = 0
    in_bt = False
    n = len(head)
    for m in _HEAD_SCAN.finditer(head, seg_start):
        ch = m.group()
        i = m.start()
        if ch == "`":
            in_bt = not in_bt
        elif in_bt or i < seg_start:
            continue
        elif ch == ": ":
            if depth == 0:
                parts.append((head[seg_start:i], col0 + seg_start))
                j = i + 1
                while j < n and head[j] == " ":
                    j += 1
                seg_start = j
        elif ch in _OPEN:
            depth += 1
        else:
            depth = max(0, depth - 1)
    return seg_start


def split_head(head: str, col0: int) -> tuple[list[Segment], bool]:
    """Split a head at top-level ``": "``; report whether it ends in ``:`` (announcing children)."""
    parts: list[tuple[str, int]] = []
    seg_start = 0
    n = len(head)
    # fast path: split at each ": " while the text before it has no bracket or backtick
    while True:
        i = head.find(": ", seg_start)
        if i < 0:
            break
        if _HEAD_SPECIAL(head, seg_start, i):
            seg_start = _split_head_scan(head, col0, seg_start, parts)
            break
        parts.append((head[seg_start:i], col0 + seg_start))
        j = i + 1
        while j < n and head[j] == " ":
            j += 1
        seg_start = j
    tail = head[seg_start:]
    opens = False
    if tail.endswith(":"):
        tail = tail[:-1]
        opens = True
    if tail.strip() or not parts:
        parts.append((tail, col0 + seg_start))
    elif parts:
        opens = True
    out = []
    for text, col in parts:
        out.append(Segment(text.strip(), col + (len(text) - len(text.lstrip()))))
    return out, opens


def classify(line: int, text: str, element_kind: str) -> LineInfo:
    """Classify one non-empty formalized line (raises LexError for unbalanced or stray brackets)."""
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    info = LineInfo(line, text, "trigger", indent=lead)
    # both meta patterns start with one of these letters (case-insensitively: also 'İ' and 'ı')
    maybe_meta = stripped[:1] in _META_FIRST
    if stripped in ("No Abilities", "N/A", "TBD") or (maybe_meta and META_FLAGS.match(stripped)):
        info.kind = "meta"
        info.meta = (stripped, "")
        return info
    m = META_PREFIX.match(stripped) if maybe_meta else None
    if m:
        info.kind = "meta"
        info.meta = (m.group(1), m.group(2))
        info.segments = [Segment(m.group(2).strip(), lead + m.start(2) + 1)]
        return info
    for key in KEY_LINES.get(element_kind, ()):
        if stripped.lower().startswith(key.lower() + ":"):
            info.kind = "key"
            info.meta = (key, stripped[len(key) + 1 :].strip())
            value_off = len(key) + 1
            while value_off < len(stripped) and stripped[value_off] == " ":
                value_off += 1
            info.segments = [Segment(stripped[value_off:], lead + value_off + 1)]
            return info
    body_off = lead
    if stripped[:1] in GLYPH_DEPTH:
        info.kind = "bullet"
        info.depth = GLYPH_DEPTH[stripped[0]]
        info.glyph_col = lead + 1
        body_off = lead + 1
        while body_off < len(text) and text[body_off] == " ":
            body_off += 1
    body = text[body_off:].rstrip()
    head, params = split_params(body, body_off + 1)
    info.params = params
    if head:
        info.segments, info.opens_block = split_head(head, body_off + 1)
    return info
