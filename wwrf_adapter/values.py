"""Value tokens → :class:`Value` nodes, with checks of selectors, annotations and durations."""

from __future__ import annotations

import re

from lark import Token

from . import vocab
from .ast import Filter, Value
from .context import Ctx

_BASIC_LOWER = {s.lower(): s for s in vocab.BASIC_SELECTORS}
_KEYS_BY_SIGIL = {"@": vocab.PLAYER_KEYS, "&": vocab.TEAM_KEYS, "^": vocab.ROLE_KEYS}
_KEYS_LOWER = {s: frozenset(k.lower() for k in keys) for s, keys in _KEYS_BY_SIGIL.items()}
_NAMED_BY_SIGIL = {"&": vocab.TEAM_SELECTORS, "^": vocab.ROLE_SELECTORS}
_PROP_LOWER = {p.lower(): p for p in vocab.PROPERTIES}
_TYPE_LOWER = {t.lower() for t in vocab.TYPE_NAMES}
_DURATION_LOWER = {d.lower(): d for d in vocab.DURATIONS}
_EMBEDDED = re.compile(r"(?<![\w`])([@&%$^])[\w(]")
_PROP = re.compile(r"->(\w+)(\([^)]*\))?")
SIGIL_TYPES = {"@": "player", "&": "team", "^": "role", "#": "group"}
_SELECTOR_TYPES = {
    "result": "result", "thisattr": "attribute", "deathtype": "killing_type",
    "killingtype": "killing_type", "attacksource": "source", "visittype": "ability_subtype",
    "visitsubtype": "ability_type", "actionabilitytype": "ability_subtype", "actionresult": "result",
    "actionfeedback": "info", "option": "option", "chosen": "option", "votetext": "string",
    "oldvotetext": "string", "newvotetext": "string", "attacklocation": "location",
    "visitparameter": None, "secondvisitparameter": None, "target": None, "targetdead": None,
    "selection": None, "secondaryselection": None, "triggersource": "source",
}


def parse_selector(text: str, ctx: Ctx, col: int, check: bool = True) -> Value:
    """Build a selector value from its token text (``@Name``, ``@(K:V,…)->Prop`` …)."""
    sigil = text[0]
    val = Value("selector", text, sigil=sigil)
    rest = text[1:]
    arrow = rest.find("->") if not rest.startswith("(") else -1
    if rest.startswith("("):
        depth = 0
        end = 0
        for i, ch in enumerate(rest):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        inner = rest[1:end]
        chain = rest[end + 1 :]
        for item in [p for p in inner.split(",")]:
            item = item.strip()
            key, sep, v = item.partition(":")
            neg = v.startswith("!")
            if check and (not sep or not key):
                ctx.error("WW102", f"selector item '{item}' must be Key:Value", col, col + len(text))
                continue
            if check and key.lower() not in _KEYS_LOWER.get(sigil, frozenset()):
                ctx.error("WW203", f"unknown selector key '{key}' in {text}", col, col + len(text),
                          _KEYS_BY_SIGIL.get(sigil, ()), key)
            val.filters.append(Filter(key, v[1:] if neg else v, neg))
    else:
        name = rest if arrow < 0 else rest[:arrow]
        chain = "" if arrow < 0 else rest[arrow:]
        val.name = name
        if check and sigil == "@" and not name.startswith("ID:") and name.lower() not in _BASIC_LOWER:
            ctx.error("WW206", f"unknown selector '@{name}'", col, col + 1 + len(name),
                      [f"@{s}" for s in vocab.BASIC_SELECTORS], "@" + name)
    for m in _PROP.finditer(chain) if chain else ():
        prop = m.group(1)
        if check and prop.lower() not in _PROP_LOWER:
            pcol = col + len(text) - len(chain) + m.start()
            ctx.error("WW205", f"unknown property '->{prop}'", pcol, pcol + 2 + len(prop), vocab.PROPERTIES, prop)
        val.props.append(prop + (m.group(2) or ""))
    val.type = selector_type(val)
    return val


def selector_type(val: Value) -> str | None:
    if val.props:
        return vocab.PROPERTY_TYPES.get(val.props[-1].split("(")[0].lower())
    if val.sigil == "@" and val.name:
        low = val.name.lower()
        if low.startswith("result"):
            return "result"
        if low in _SELECTOR_TYPES:
            return _SELECTOR_TYPES[low]
    return SIGIL_TYPES.get(val.sigil or "")


def parse_backtick(text: str, ctx: Ctx, col: int, check: bool = False) -> Value:
    """A backtick constant, or an info string with embedded selectors (checked for delimiting)."""
    inner = text[1:-1]
    embedded: list[Value] = []
    taken = 0  # the end of the last embedded value: a selector inside %Player:@(…)% is part of it
    for m in _EMBEDDED.finditer(inner):
        start = m.start()
        if start < taken:
            continue
        end = start + 1
        sig = inner[start]
        if sig == "%":
            close = inner.find("%", start + 1)
            if close < 0:
                continue
            end = close + 1
        else:
            end = start + 1
            while end < len(inner) and (inner[end].isalnum() or inner[end] in "_(:,!-'>)"):
                if inner[end] == "-" and not inner.startswith("->", end):
                    if sig != "@" and sig != "#":
                        break
                if inner[end] == ")" and "(" not in inner[start:end]:
                    break
                end += 1
        sel_text = inner[start:end].rstrip(".,!:'")
        end = start + len(sel_text)
        ann = None
        if end < len(inner) and inner[end] == "[":
            close = inner.find("]", end)
            if close > 0:
                ann = inner[end + 1 : close]
                end = close + 1
        scol = col + 1 + start
        if sig in "@&^":
            sub = parse_selector(sel_text, ctx, scol, check=False)
        elif sig == "$":
            sub = Value("variable", sel_text, type=vocab.VARIABLE_TYPES.get(sel_text[1:].lower(), "number"))
        else:
            sub = host_value(sel_text, ctx, scol, check)
        taken = end
        sub.annotation = ann.lower() if ann else None
        if ann is not None:
            sub.type = ann.lower()
        before_ok = start == 0 or inner[start - 1] == " "
        after_ok = end >= len(inner) or inner[end] in " .,!?:;\\'"
        if check and sig in "@&" and not (before_ok and after_ok):
            ctx.warning("WW910", f"selector '{sel_text}' inside an info string is not delimited by spaces", scol, scol + len(sel_text))
        embedded.append(sub)
    kind = "info" if embedded and any(e.sigil or e.kind in ("host", "variable") for e in embedded) else "constant"
    return Value(kind, inner, items=embedded)


def host_value(text: str, ctx: Ctx, col: int, check: bool) -> Value:
    """Host information: ``%Role2%``, ``%Yes|No%``; ``%Role:^(Cat:Killing)%`` and ``%Player:@(…)%`` (the
    older guide's "from a provided target type") keep the target selector as their one item."""
    v = Value("host", text, type=_host_type(text))
    name, sep, target = text.strip("%").partition(":")
    if sep and target[:1] in ("@", "&", "^", "#"):
        v.items = [parse_selector(target, ctx, col + len(name) + 2, check=check)]
    return v


def _host_type(text: str) -> str | None:
    low = text.strip("%").lower()
    if "|" in low:
        return "string"
    if low.startswith("role"):
        return "role"
    if low.startswith("player"):
        return "player"
    if low.startswith("number"):
        return "number"
    if low.startswith("partialrolelist"):
        return "info"
    if low.startswith("string"):
        return "string"
    return None


_CHECKED_TOKENS = frozenset({"SEL", "DUR", "ANN", "VAR", "BT"})


def check_tokens(tokens: list[Token], ctx: Ctx) -> None:
    """Report unknown selectors, keys, properties, variables, durations and annotations of a segment
    (before the grammar runs, so they are reported even when the segment does not parse)."""
    for tok in tokens:
        t = tok.type
        if t not in _CHECKED_TOKENS:
            continue
        col = tok.column or 1
        if t == "SEL":
            ctx.parsed[(str(tok), col)] = parse_selector(str(tok), ctx, col, check=True)
        elif t == "DUR":
            duration(tok, ctx, check=True)
        elif t == "ANN":
            annotation(tok, ctx, check=True)
        elif t == "VAR":
            name = str(tok)[1:]
            if name.lower() not in vocab.VARIABLES:
                ctx.error("WW207", f"unknown variable '${name}'", col, col + len(tok), [f"${x}" for x in vocab.VARIABLES], "$" + name)
        elif t == "BT" and ("@" in tok or "&" in tok):
            # kept for atom_value (the check only adds warnings: the value is the same)
            ctx.parsed[(str(tok), col)] = parse_backtick(str(tok), ctx, col, check=True)


def atom_value(tok: Token, ctx: Ctx, span: bool = True) -> Value:
    """The value of one atom token (``span=False``: the caller sets the span)."""
    col = tok.column or 1
    t = tok.type
    if t == "BT":
        cached = ctx.parsed.pop((str(tok), col), None)
        v = cached if isinstance(cached, Value) else parse_backtick(str(tok), ctx, col)
    elif t == "SEL":
        cached = ctx.parsed.pop((str(tok), col), None)
        v = cached if isinstance(cached, Value) else parse_selector(str(tok), ctx, col, check=False)
    elif t == "HOST":
        v = host_value(str(tok), ctx, col, True)
    elif t == "VAR":
        name = str(tok)[1:]
        v = Value("variable", str(tok), type=vocab.VARIABLE_TYPES.get(name.lower(), "number"))
    elif t == "NUMBER":
        v = Value("number", str(tok), type="number")
    elif t in ("TRUE", "FALSE"):
        v = Value("boolean", str(tok).capitalize(), type="boolean")
    else:
        v = Value("success", str(tok).capitalize(), type="success")
    if span:
        v.span = ctx.span(col, tok.end_column)
    return v


def annotation(tok: Token, ctx: Ctx, check: bool = False) -> str:
    name = str(tok)[1:-1].strip()
    if check and name.lower() not in _TYPE_LOWER:
        ctx.error("WW301", f"unknown type annotation '[{name}]'", tok.column or 1, tok.end_column, vocab.TYPE_NAMES, name)
    return name.lower()


def duration(tok: Token, ctx: Ctx, check: bool = False) -> str:
    name = str(tok)[1:-1].strip().lstrip("~").strip()
    canon = _DURATION_LOWER.get(name.lower())
    if canon is None:
        if not check:
            return name
        ctx.error("WW204", f"unknown duration '~{name}'", tok.column or 1, tok.end_column,
                  [f"~{d}" for d in vocab.DURATIONS], "~" + name)
        return name
    if check and canon in vocab.GUIDE_ONLY_DURATIONS:
        ctx.warning("WW909", f"duration '~{canon}' appears only in a guide", tok.column or 1, tok.end_column)
    return canon


def split_list(text: str) -> list[str]:
    """Split the inside of a PGROUP at top-level commas (backtick- and bracket-aware)."""
    if "`" not in text and "(" not in text and "[" not in text and ")" not in text and "]" not in text:
        parts = text.split(",")
        if len(parts) == 1:
            return [parts[0].strip()] if parts[0].strip() else []
        return [p.strip() for p in parts]
    items: list[str] = []
    depth = 0
    in_bt = False
    cur = ""
    for ch in text:
        if ch == "`":
            in_bt = not in_bt
        elif not in_bt and ch in "([":
            depth += 1
        elif not in_bt and ch in ")]":
            depth -= 1
        if ch == "," and depth == 0 and not in_bt:
            items.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip() or items:
        items.append(cur.strip())
    return items
