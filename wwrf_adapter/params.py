"""Parameter groups: [restrictions] ⟨scaling⟩ {other} |prompt| (spec §2.3)."""

from __future__ import annotations

import re

from . import vocab
from .ast import OtherParam, Params, Prompt, Restriction, ScalingItem, Value
from .build import build_condition, build_value, condition_text, value_source
from .context import Ctx
from .grammar import SegmentError, lex, parse_tokens
from .lines import OTHER_KEYWORDS, RESTRICTION_KEYWORDS, ParamGroup

_RESTR_SPLIT = re.compile(r",\s*(?=(?:" + "|".join(RESTRICTION_KEYWORDS) + r")\s*:)", re.I)
_TEMPORAL = re.compile(r"^(Day|Night)(?:\s+(\d+)(\+)?)?$", re.I)
_STATIC = re.compile(r"^x(\d+)$", re.I)
_PARITY = re.compile(r"^(Odd|Even):\s*x(\d+)$", re.I)
_RATIO = re.compile(r"^\$(total|living)/(\d+)$", re.I)
_COUNT = re.compile(r"\s*(⇒|=>)\s*x?(\d+)$", re.I)
_COMPARATOR = re.compile(r"`|<=|>=|≤|≥|<|>|=|[(\[]|[)\]]")
_ATTRIBUTE = re.compile(r"^(?:(.*?)\s+)?(has|lacks)\s+(.+)$")
_ORDER = {"restrictions": 0, "scaling": 1, "other": 2, "prompt": 3}
_OTHER_CANON = {k.lower(): k for k in OTHER_KEYWORDS}
_RESTR_CANON = {k.lower(): k for k in RESTRICTION_KEYWORDS}


_NUMBER = re.compile(r"-?\d+(?:\.\d+)*")
_VARIABLE = re.compile(r"\$(\w+)")


def simple_value(text: str, col: int, ctx: Ctx) -> Value | None:
    """The value of a lone number or known ``$variable`` without the lexer and the grammar (the
    commonest Quantity and scaling values); None for anything else. Same result as ``_parse_value``."""
    if _NUMBER.fullmatch(text):
        return Value("number", text, type="number", span=ctx.span(col, col + len(text)))
    m = _VARIABLE.fullmatch(text)
    if m is not None and m.group(1).lower() in vocab.VARIABLES:
        return Value("variable", text, type=vocab.VARIABLE_TYPES.get(m.group(1).lower(), "number"),
                     span=ctx.span(col, col + len(text)))
    return None


def _value_of(text: str, col: int, ctx: Ctx) -> Value:
    """Parse a lone value (used for Quantity, Forced: v, scaling values, Win Condition items)."""
    return simple_value(text, col, ctx) or _parse_value(text, col, ctx)


def _parse_value(text: str, col: int, ctx: Ctx) -> Value:
    from lark import Tree

    tokens = lex(text, col, ctx)
    if not tokens:
        raise SegmentError("missing value", col, col + 1, "WW102")
    # a value is parsed through the ability start symbol: a bare value is a feedback ability
    tree = parse_tokens(tokens, "ability", col + len(text))
    if tree.data != "a_feedback":
        raise SegmentError(f"expected a value, found '{text}'", col, col + len(text), "WW102")
    child = tree.children[0]
    assert isinstance(child, Tree)
    return build_value(child, ctx)


#: bare words: an option name of a choice, or a role written without backticks
BARE_WORDS = re.compile(r"[^\W\d][\w ]*")
_ATOM_WORDS = frozenset({"true", "false", "success", "failure"})


def _forced_value(text: str, col: int, ctx: Ctx) -> Value:
    """The default of ``{Forced: …}``: a value, or bare words (an option of the choice or a role
    name, typed by the project pass)."""
    if BARE_WORDS.fullmatch(text) and text.lower() not in _ATOM_WORDS:
        return Value("words", text, span=ctx.span(col, col + len(text)))
    return _value_of(text, col, ctx)


def parse_value_text(text: str, col: int, ctx: Ctx) -> Value:
    """Parse a lone value (meta lines, key lines, restriction items, For Each selectors)."""
    return _value_of(text, col, ctx)


def _restriction(item: str, col: int, ctx: Ctx) -> Restriction:
    key, _, rest = item.partition(":")
    kind = _RESTR_CANON.get(key.strip().lower())
    rest_col = col + len(key) + 1 + (len(rest) - len(rest.lstrip()))
    rest = rest.strip()
    if kind is None:
        raise SegmentError(f"unknown restriction '{key.strip()}'", col, col + len(key), "WW208")
    r = Restriction(kind.lower(), span=ctx.span(col, col + len(item)))
    if kind == "Temporal":
        m = _TEMPORAL.match(rest)
        if not m:
            raise SegmentError(f"bad temporal restriction '{rest}' (expected Day|Night ⟦n⟧⟦+⟧)", rest_col, rest_col + len(rest), "WW104")
        r.phase = m.group(1).capitalize()
        r.number = int(m.group(2)) if m.group(2) else None
        r.onward = bool(m.group(3))
    elif kind == "Attribute":
        m = _ATTRIBUTE.match(rest)
        if not m:
            raise SegmentError(f"bad attribute restriction '{rest}' (expected ⟦actor⟧ has|lacks `A`)", rest_col, rest_col + len(rest), "WW104")
        if m.group(1):
            r.actor = _value_of(m.group(1), rest_col, ctx)
        r.has = m.group(2) == "has"
        r.attribute = _value_of(m.group(3), rest_col + m.start(3), ctx)
        r.attribute.type = r.attribute.annotation or "attribute"
    elif kind == "Succession":
        low = rest.lower()
        if low not in ("no succession", "no target succession"):
            raise SegmentError(f"bad succession restriction '{rest}'", rest_col, rest_col + len(rest), "WW104")
        r.target = low == "no target succession"
    elif kind == "Quantity":
        r.count = _value_of(rest, rest_col, ctx)
    elif kind == "Condition":
        r.condition = build_condition(rest, rest_col, ctx)
    elif kind == "Status":
        if rest.lower() not in ("alive", "ghostly", "any"):
            raise SegmentError(f"bad status restriction '{rest}' (expected Alive, Ghostly or Any)", rest_col, rest_col + len(rest), "WW104")
        r.status = rest.capitalize()
    return r


def _scaling(item: str, col: int, ctx: Ctx) -> ScalingItem:
    text = item.strip()
    span = ctx.span(col, col + len(item))
    if m := _STATIC.match(text):
        return ScalingItem("static", count=int(m.group(1)), span=span)
    if m := _PARITY.match(text):
        return ScalingItem(m.group(1).lower(), count=int(m.group(2)), span=span)
    if m := _RATIO.match(text):
        return ScalingItem("ratio", variable=m.group(1).lower(), divisor=int(m.group(2)), span=span)
    if (m := _COUNT.search(text)) and (found := _comparison(text, m.start())) is not None:
        i, j = found
        left, op, right = text[:i].strip(), text[i:j], text[j : m.start()].strip()
        if not left or not right:
            raise SegmentError(f"bad scaling item '{text}' (expected Number<Comparison>Number ⇒ Count)", col, col + len(item), "WW104")
        if op in ("<=", ">=") or m.group(1) == "=>":
            ctx.warning("WW905", "ASCII stand-in in scaling; write ⇒, ≤ and ≥", col, col + len(item))
        lcol = col + len(item) - len(item.lstrip())
        rcol = lcol + j + (len(text[j:]) - len(text[j:].lstrip()))
        return ScalingItem("compare", comparator={"<=": "≤", ">=": "≥"}.get(op, op), count=int(m.group(2)),
                           left=_value_of(left, lcol, ctx), right=_value_of(right, rcol, ctx), span=span)
    try:
        value = _value_of(text, col, ctx)
    except SegmentError:
        raise SegmentError(f"bad scaling item '{text}'", col, col + len(item), "WW104") from None
    return ScalingItem("value", value=value, span=span)


def _comparison(text: str, end: int) -> tuple[int, int] | None:
    """Start and end of the comparison operator in ``text[:end]``: the first one outside backticks and
    brackets that is not the ``>`` of a ``->`` property arrow."""
    depth = 0
    in_bt = False
    for m in _COMPARATOR.finditer(text, 0, end):
        ch = m.group()
        if ch == "`":
            in_bt = not in_bt
        elif in_bt:
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and not (ch[0] == ">" and m.start() > 0 and text[m.start() - 1] == "-"):
            return m.start(), m.end()
    return None


def split_top_commas(text: str, base: int) -> list[tuple[str, int]]:
    """Split at commas outside brackets and backticks: (stripped item, column of the item)."""
    out: list[tuple[str, int]] = []
    if "`" not in text and "(" not in text and "[" not in text and ")" not in text and "]" not in text:
        start = 0
        for part in text.split(","):
            out.append((part, base + start))
            start += len(part) + 1
        return [(t.strip(), c + (len(t) - len(t.lstrip()))) for t, c in out if t.strip()]
    depth = 0
    in_bt = False
    start = 0
    for i, ch in enumerate(text):
        if ch == "`":
            in_bt = not in_bt
        elif not in_bt and ch in "([":
            depth += 1
        elif not in_bt and ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0 and not in_bt:
            out.append((text[start:i], base + start))
            start = i + 1
    out.append((text[start:], base + start))
    return [(t.strip(), c + (len(t) - len(t.lstrip()))) for t, c in out if t.strip()]


def parse_params(groups: list[ParamGroup], ctx: Ctx, params: Params | None = None) -> Params:
    """Parse the groups of one line into ``params`` (merging duplicates with a warning)."""
    params = params if params is not None else Params()
    seen: list[str] = []
    for g in groups:
        if g.kind in seen:
            ctx.warning("WW904", f"second {g.kind} group merged into the first", g.col, g.end_col)
        elif seen and _ORDER[g.kind] < _ORDER[seen[-1]]:
            ctx.warning("WW902", "parameter groups should be ordered [restrictions] ⟨scaling⟩ {other} |prompt|", g.col, g.end_col)
        seen.append(g.kind)
        if g.ascii_standin:
            ctx.warning("WW905", "ASCII stand-in '〈〉' for '⟨⟩'", g.col, g.end_col)
        try:
            if g.kind == "restrictions":
                pos = 0
                for part in _RESTR_SPLIT.split(g.inner):
                    off = g.inner.index(part, pos)
                    pos = off + len(part)
                    lead = len(part) - len(part.lstrip())
                    if part.strip():
                        params.restrictions.append(_restriction(part.strip(), g.inner_col + off + lead, ctx))
            elif g.kind == "scaling":
                for text, col in split_top_commas(g.inner, g.inner_col):
                    params.scaling.append(_scaling(text, col, ctx))
            elif g.kind == "other":
                for text, col in split_top_commas(g.inner, g.inner_col):
                    name, sep, rest = text.partition(":")
                    canon = _OTHER_CANON.get(name.strip().lower())
                    if canon is None:
                        ctx.error("WW209", f"unknown parameter '{name.strip()}'", col, col + len(name), OTHER_KEYWORDS, name.strip())
                        continue
                    value = _forced_value(rest.strip(), col + len(name) + 1 + (len(rest) - len(rest.lstrip())), ctx) if sep else None
                    params.other.append(OtherParam(canon, value, span=ctx.span(col, col + len(text))))
            else:
                inner = g.inner.strip()
                silent = inner.lower().startswith("silent:")
                params.prompt = Prompt(inner[7:].strip() if silent else inner, silent, span=ctx.span(g.col, g.end_col))
        except SegmentError as exc:
            ctx.error(exc.code if exc.code != "WW102" else "WW104", exc.message, exc.col, exc.end_col)
    return params


def params_text(p: Params) -> str:
    """Canonical text: R ⟨S⟩ {O} |P| (spec §2.3)."""
    out: list[str] = []
    if p.restrictions:
        out.append("[" + ", ".join(restriction_text(r) for r in p.restrictions) + "]")
    if p.scaling:
        out.append("⟨" + ", ".join(scaling_text(s) for s in p.scaling) + "⟩")
    if p.other:
        out.append("{" + ", ".join(o.name + (f": {value_source(o.value)}" if o.value else "") for o in p.other) + "}")
    if p.prompt:
        out.append("|" + ("silent:" if p.prompt.silent else "") + p.prompt.name + "|")
    return " ".join(out)


def restriction_text(r: Restriction) -> str:
    if r.kind == "temporal":
        num = f" {r.number}" if r.number is not None else ""
        return f"Temporal: {r.phase}{num}{'+' if r.onward else ''}"
    if r.kind == "attribute":
        actor = value_source(r.actor) + " " if r.actor else ""
        assert r.attribute is not None
        return f"Attribute: {actor}{'has' if r.has else 'lacks'} {value_source(r.attribute)}"
    if r.kind == "succession":
        return "Succession: No Target Succession" if r.target else "Succession: No Succession"
    if r.kind == "quantity":
        assert r.count is not None
        return f"Quantity: {value_source(r.count)}"
    if r.kind == "condition":
        assert r.condition is not None
        return f"Condition: {condition_text(r.condition)}"
    return f"Status: {r.status}"


def scaling_text(s: ScalingItem) -> str:
    if s.kind == "static":
        return f"x{s.count}"
    if s.kind in ("odd", "even"):
        return f"{s.kind.capitalize()}: x{s.count}"
    if s.kind == "ratio":
        return f"${s.variable}/{s.divisor}"
    if s.kind == "compare":
        assert s.left is not None and s.right is not None
        return f"{value_source(s.left)}{s.comparator}{value_source(s.right)} ⇒ x{s.count}"
    assert s.value is not None
    return value_source(s.value)
