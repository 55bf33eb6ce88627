"""One element file → :class:`Element`: meta and key lines, the bullet tree and trigger blocks."""

from __future__ import annotations

import re
from typing import Callable

from rulescript.diagnostics import DiagnosticBag

from .ast import Element, Inherit, Item, KeyLine, Meta, Params, Section, Value
from .build import value_source
from .context import Ctx
from .grammar import SegmentError
from .keys import DEPTH_GLYPH, name_key
from .lexer import LexError
from .lines import LineInfo, classify
from .params import parse_value_text, split_top_commas
from .source import RawElement
from .structure import LineNode, build_trigger_block, parse_line

SetResolver = Callable[[str], "list[Item] | None"]
_FLAGS = re.compile(r"^(Unique|Ghostly|Haunted) (Role|Group|Attribute)$", re.I)
_WORDS = re.compile(r"[\w ]+")
_INTEGER = re.compile(r"-?\d+")
_BT_NAME = re.compile(r"^`([^`]+)`$")
_AUDIENCE = ("Alive", "Dead", "Ghost", "Substitute", "Spectator", "Mentor", "Ghost Mentor", "*All*", "*None*")
_SELECTOR_KEYS = ("Win Condition", "Allowed Voters", "Random")


def _meta_item(info: LineInfo, ctx: Ctx, resolve: SetResolver | None) -> Item | None:
    assert info.meta is not None
    head, rest = info.meta
    flags = _FLAGS.match(head)
    if flags:
        return Meta(flags.group(1).lower(), flags.group(2).capitalize(), span=ctx.span(1 + info.indent))
    if head == "No Abilities":
        return Meta("no abilities", span=ctx.span(1 + info.indent))
    kind = head.lower()
    seg = info.segments[0]
    try:
        value = parse_value_text(seg.text, seg.col, ctx)
    except SegmentError as exc:
        ctx.error("WW102", f"{head}: {exc.message}", exc.col, exc.end_col)
        return None
    if kind == "inherit":
        m = _BT_NAME.match(seg.text)
        name = m.group(1) if m else seg.text
        items = resolve(name) if resolve is not None else None
        if items is None:
            ctx.warning("WW907", f"unknown ability set '{name}': nothing inherited", seg.col, seg.col + len(seg.text))
            items = []
        return Inherit(name, items, span=ctx.span(seg.col, seg.col + len(seg.text)))
    if kind == "identity":
        ctx.warning("WW909", "'Identity:' is only known to the reference parser", 1 + info.indent)
    value.type = "attribute" if kind == "role attribute" else "role"
    return Meta(kind, value=value, span=ctx.span(seg.col, seg.col + len(seg.text)))


def _key_item(info: LineInfo, ctx: Ctx) -> KeyLine:
    assert info.meta is not None
    key, _ = info.meta
    seg = info.segments[0]
    kl = KeyLine(key, text=seg.text.strip(), span=ctx.span(1 + info.indent, len(info.text) + 1))
    if key in _SELECTOR_KEYS or key == "Available Options":
        for text, col in split_top_commas(seg.text, seg.col):
            if key == "Available Options" and _WORDS.fullmatch(text):
                kl.values.append(Value("words", text, type="option", span=ctx.span(col, col + len(text))))
                continue
            try:
                kl.values.append(parse_value_text(text, col, ctx))
            except SegmentError as exc:
                ctx.error(exc.code, f"{key}: {exc.message}", exc.col, exc.end_col)
        kl.text = ", ".join(value_source(v) if v.kind != "words" else v.text for v in kl.values)
    elif key in ("Show Voters", "Hammer", "Haunting"):
        if seg.text.strip().lower() not in ("yes", "no"):
            ctx.error("WW303", f"{key} takes Yes or No", seg.col, seg.col + max(1, len(seg.text)))
        kl.text = seg.text.strip().capitalize()
    elif key == "Sort Index":
        if not _INTEGER.fullmatch(seg.text.strip()):
            ctx.error("WW303", "Sort Index takes a number", seg.col, seg.col + max(1, len(seg.text)))
    elif key in ("Members", "Viewers"):
        items = split_top_commas(seg.text, seg.col)
        low = {a.lower(): a for a in _AUDIENCE}
        for text, col in items:
            if text.lower() not in low:  # a server role, say: allowed, but worth a look
                ctx.warning("WW912", f"'{text}' in {key} is not an audience class: kept as a name (a server role?)",
                            col, col + len(text), _AUDIENCE, text)
        kl.text = ", ".join(low.get(t.lower(), t) for t, _ in items)
    return kl


def parse_element(raw: RawElement, diags: DiagnosticBag, resolve: SetResolver | None = None) -> Element:
    """Parse one element (errors go to ``diags``; every line is tried, so all errors are reported)."""
    ctx = Ctx(raw.file, diags)
    el = Element(raw.kind, raw.header.name, raw.file, raw.header)
    for sec in raw.sections:
        formal = sec.title.lower() == "formalized"
        el.sections.append(Section(sec.title, "" if formal else "\n".join([t for _, t in sec.lines]).strip("\n"), formal))
    if raw.kind == "display":
        el.template = [t for _, t in raw.loose if t.strip()]
    if not raw.file_name.startswith("<") and name_key(raw.header.name) != name_key(raw.file_name):
        ctx.line = 1
        ctx.warning("WW906", f"header name '{raw.header.name}' does not match the file name '{raw.file_name}'", 3)
    entries: list[Item | LineNode] = []
    params_of: dict[int, Params] = {}
    stack: list[LineNode] = []
    for number, text in raw.formal:
        ctx.line = number
        ctx.parsed.clear()
        if not entries and text.strip() in ("N/A", "TBD"):
            el.unfinished = True
            break
        try:
            info = classify(number, text, raw.kind)
        except LexError as exc:
            ctx.error(exc.code, exc.message, exc.col, exc.end_col)
            stack = stack[:1] if stack and stack[0].info.kind == "trigger" else []
            continue
        if info.kind == "meta":
            item = _meta_item(info, ctx, resolve)
            if item is not None:
                entries.append(item)
            stack = []
            continue
        if info.kind == "key":
            entries.append(_key_item(info, ctx))
            stack = []
            continue
        if info.kind == "trigger":
            params = Params()
            node = parse_line(info, ctx, params)
            params_of[id(node)] = params
            entries.append(node)
            stack = [node]
            continue
        # bullet
        if not stack:
            ctx.error("WW103", "bullet line without a trigger line above it", info.glyph_col, info.glyph_col + 1)
            continue
        trigger_node = stack[0]
        node = parse_line(info, ctx, params_of[id(trigger_node)])
        depth = info.depth
        if depth > len(stack):
            want = DEPTH_GLYPH.get(len(stack), "•")
            ctx.error("WW103", f"bullet depth {depth} jumps more than one level (expected '{want}' or shallower)",
                      info.glyph_col, info.glyph_col + 1)
            depth = len(stack)
        parent = stack[depth - 1]
        if parent.info.kind == "bullet" and info.indent <= parent.info.indent:
            ctx.warning("WW901", f"indentation disagrees with the bullet glyph (depth {info.depth})", 1, info.glyph_col + 1)
        parent.children.append(node)
        del stack[depth:]
        stack.append(node)
    for entry in entries:
        if isinstance(entry, LineNode):
            if entry.broken or entry.trigger is None:
                continue
            ctx.line = entry.info.line
            el.items.append(build_trigger_block(entry, params_of[id(entry)], ctx))
        else:
            el.items.append(entry)
    return el
