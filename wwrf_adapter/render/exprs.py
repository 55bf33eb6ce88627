"""WWRF values, selectors and conditions as RuleScript text in the werewolf profile.

Every function returns RuleScript source text and records the construct it rendered in the
coverage (:class:`Coverage`); a form it cannot render raises :class:`Unsupported` with the span of
the value, so the caller reports a located "not supported" diagnostic instead of dropping it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rulescript.diagnostics import Span

from ..ast import Condition, Value
from ..keys import name_key


_ANNOTATION = re.compile(r"\[[a-z ]+\]")


class Unsupported(Exception):
    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


@dataclass
class Coverage:
    """How many times each WWRF construct was rendered, per category."""

    counts: dict[str, Counter] = field(default_factory=dict)

    def add(self, category: str, name: str) -> None:
        self.counts.setdefault(category, Counter())[name] += 1

    def merge(self, other: "Coverage") -> None:
        for cat, cnt in other.counts.items():
            self.counts.setdefault(cat, Counter()).update(cnt)


def slug(name: str) -> str:
    """An element name as a RuleScript id and a werewolf name: lower case, words joined by '-'."""
    return name_key(name).replace(" ", "-")


def quote(text: str, span: Span | None) -> str:
    """A RuleScript string literal (no escapes: the quote that the text does not contain)."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    raise Unsupported("a text holding both kinds of quote cannot be written as a RuleScript string", span)


#: player selectors that name one value of the resolution (RuleScript expression names)
SINGLE = {"self": "me", "selection": "selection", "this": "subject", "winner": "winner", "joiner": "joiner",
          "target": "targeted", "visitor": "visitor", "attacker": "attacker", "attacked": "subject",
          "secondaryselection": "secondary", "ind": "ind", "actiontarget": "actiontarget", "vote": "vote",
          "voter": "subject", "executor": "winner", "rolechanger": "attacker"}
#: advanced selector keys and the werewolf profile selector that keeps matching players
FILTER_KEYS = {"attr": ("has", "lacks"), "attrrole": ("has", "lacks"), "align": ("team", None),
               "group": ("group", None), "role": ("role", None)}
KILLING_TYPES = ("attack", "kill", "lynch", "true kill", "banish", "true banish")


class Exprs:
    """Renders values for one trigger block of element ``element`` (its slug) of kind ``kind``."""

    def __init__(self, coverage: Coverage) -> None:
        self.cov = coverage
        self.element = ""
        self.kind = ""

    # ---------------------------------------------------------------- players
    def player_filter(self, v: Value, dead: bool = False) -> str:
        """A selector of several players as a filter (``players[alive]::has('lupine')``)."""
        if v.kind != "selector" or v.props:
            raise Unsupported(f"'{v.text}' is not a player selector the renderer can turn into a filter", v.span)
        name = (v.name or "").lower()
        base = "players" if dead else "players[alive]"
        if v.sigil == "@" and name in ("all", "living", "alive"):
            self.cov.add("selector", "@All")
            return base
        if v.sigil == "@" and name == "dead":
            self.cov.add("selector", "@Dead")
            return "players[dead]"
        if v.sigil == "@" and name == "others":
            self.cov.add("selector", "@Others")
            return "players[alive]::not(me)"
        if v.sigil == "@" and name == "members":
            self.cov.add("selector", "@Members")
            return f"{base}::group({quote(self.element, v.span)})"
        if v.sigil == "#" and v.name:
            self.cov.add("selector", "#Group (members)")
            return f"{base}::group({quote(slug(v.name), v.span)})"
        if v.sigil == "@" and name in SINGLE and not v.filters:
            expr = SINGLE[name]
            self.cov.add("selector", f"@{v.name}")
            return self._single_filter(expr, base, v)
        if v.sigil == "@" and v.filters:
            parts = []
            for f in v.filters:
                key = f.key.lower()
                if key not in FILTER_KEYS:
                    raise Unsupported(f"the selector key '{f.key}' in '{v.text}'", v.span)
                pos, neg = FILTER_KEYS[key]
                sel = neg if f.negated else pos
                if sel is None:
                    raise Unsupported(f"a negated '{f.key}' key in '{v.text}'", v.span)
                self.cov.add("selector", f"@({f.key}:{'!' if f.negated else ''}…)")
                parts.append((sel, slug(f.value)))
            if len(parts) == 1:
                sel, val = parts[0]
                return f"{base}::{sel}({quote(val, v.span)})"
            # several keys: every key must hold (the where selector takes them all)
            self.cov.add("selector", "@(A,B) (several keys)")
            spec = ", ".join(f"{sel}={val}" for sel, val in parts)
            return f"{base}::where({quote(spec, v.span)})"
        raise Unsupported(f"the selector '{v.text}' as a set of players", v.span)

    def _single_filter(self, expr: str, base: str, v: Value) -> str:
        if expr == "me":
            return "me"
        return f"players::keep({expr})"

    def player_expr(self, v: Value) -> str:
        """A selector of one player (or a list) as an expression."""
        if v.kind != "selector":
            raise Unsupported(f"'{v.text}' is not a player", v.span)
        name = (v.name or "").lower()
        if v.sigil == "@" and not v.filters and not v.props and name in SINGLE:
            self.cov.add("selector", f"@{v.name}")
            return SINGLE[name]
        if v.sigil == "@" and name.startswith("result") and name[6:].isdigit() and not v.props:
            self.cov.add("selector", "@ResultN")
            return f"results.{int(name[6:]) - 1}"
        if v.props and len(v.props) == 1 and v.props[0].lower() == "count":
            base = Value(v.kind, v.text.rsplit("->", 1)[0], v.type, None, v.sigil, v.name, v.filters, [], [],
                         None, v.span)
            self.cov.add("selector", "->Count")
            return f"len(getTargets({quote(self.player_filter(base), v.span)}))"
        return f"getTargets({quote(self.player_filter(v), v.span)})"

    def clause(self, v: Value) -> str:
        """A target clause ``to(...)`` for the players a value names."""
        name = (v.name or "").lower()
        if v.kind == "selector" and v.sigil == "@" and not v.filters and not v.props and name in SINGLE:
            self.cov.add("selector", f"@{v.name}")
            if name == "self":
                return "to(me)"
            return f"to({SINGLE[name]})"
        return f"to({self.player_filter(v)})"

    # ---------------------------------------------------------------- texts and constants
    def text(self, v: Value) -> str:
        """An info string (``@Selection is human.``) as a string expression."""
        if v.kind in ("constant", "string"):
            self.cov.add("value", "constant")
            return quote(v.text, v.span)
        if v.kind == "info":
            self.cov.add("value", "info")
            parts: list[str] = []
            rest = v.text
            for item in v.items:
                i = rest.find(item.text)
                if i < 0:
                    raise Unsupported(f"cannot find '{item.text}' in the info text", v.span)
                if rest[:i]:
                    parts.append(quote(rest[:i], v.span))
                rest = rest[i + len(item.text):]
                if item.kind == "selector" and item.text.endswith("'s") and not item.props:
                    # a possessive (@Selection's door): the selector, then the text 's
                    item = Value(item.kind, item.text[:-2], item.type, item.annotation, item.sigil,
                                 (item.name or "")[:-2] if (item.name or "").endswith("'s") else item.name,
                                 item.filters, [], [], None, item.span)
                    rest = "'s" + rest
                    self.cov.add("value", "possessive")
                parts.append(f"str({self.scalar(item)})")
                m = _ANNOTATION.match(rest)
                if m:  # a type annotation written after the selector ([role]) is not text
                    self.cov.add("value", "annotation")
                    rest = rest[m.end():]
            if rest:
                parts.append(quote(rest, v.span))
            return " + ".join(parts) if parts else "''"
        if v.kind == "number":
            return quote(v.text, v.span)
        raise Unsupported(f"the {v.kind} value '{v.text}' as a text", v.span)

    def name(self, v: Value) -> str:
        """The name of an element (attribute, group, poll, location) as a string literal of its id."""
        if v.kind == "constant" or (v.kind == "selector" and v.sigil == "#" and v.name):
            self.cov.add("value", "#name" if v.sigil == "#" else "element name")
            return quote(slug(v.name if v.sigil == "#" and v.name else v.text), v.span)
        raise Unsupported(f"'{v.text}' as an element name", v.span)

    def scalar(self, v: Value) -> str:
        if v.kind == "number":
            self.cov.add("value", "number")
            return v.text
        if v.kind == "success":
            self.cov.add("value", "success")
            return quote(v.text, v.span)
        if v.kind == "constant":
            self.cov.add("value", "constant")
            if v.text.strip().lstrip("-").isdigit():
                return str(int(v.text.strip()))
            low = v.text.lower()
            return quote(low if low in KILLING_TYPES else v.text, v.span)
        if v.kind == "variable":
            var = v.text.lstrip("$").lower()
            if var in ("living", "total"):
                self.cov.add("value", f"${var}")
                return var
            if var == "phase":
                self.cov.add("value", "$phase")
                return "phase"
            raise Unsupported(f"the variable '{v.text}'", v.span)
        if v.kind == "list":
            self.cov.add("value", "list")
            return "[" + ", ".join(self.scalar(i) for i in v.items) + "]"
        if v.kind == "boolean":
            self.cov.add("value", "boolean")
            return "true" if v.text.lower() in ("true", "yes") else "false"
        if v.kind == "info":
            return self.text(v)
        if v.kind == "selector":
            name = (v.name or "").lower()
            if v.sigil == "@" and name == "result" and not v.props:
                self.cov.add("selector", "@Result")
                return "result"
            if v.sigil == "@" and name.startswith("result") and name[6:].isdigit():
                self.cov.add("selector", "@ResultN")
                if v.props and v.props[0].lower() not in ("number", "role", "class", "alignment", "category",
                                                           "text", "value"):
                    raise Unsupported(f"the property '{v.props[0]}' of a result", v.span)
                if v.props:
                    self.cov.add("selector", f"->{v.props[0]}")
                return f"results.{int(name[6:]) - 1}"
            if v.sigil == "@" and name in ("option", "chosen"):
                self.cov.add("selector", f"@{v.name}")
                return "option"
            if v.sigil == "@" and name in ("visittype", "actionabilitytype", "visitsubtype", "defensetype"):
                self.cov.add("selector", f"@{v.name}")
                return {"visittype": "visittype", "actionabilitytype": "abilitytype",
                        "visitsubtype": "visitsubtype", "defensetype": "defensetype"}[name]
            if v.sigil == "@" and name == "thisattr" and v.props:
                prop = v.props[0].lower()
                if prop in ("value1", "value2", "value3", "counter"):
                    self.cov.add("selector", f"@ThisAttr->{v.props[0]}")
                    return f"this.{prop}"
            if v.sigil == "@" and name == "deathtype":
                self.cov.add("selector", "@DeathType")
                return "deathtype"
            if v.props and len(v.props) == 1:
                prop = v.props[0].lower()
                base = Value(v.kind, v.text.rsplit("->", 1)[0], None, None, v.sigil, v.name, v.filters, [], [],
                             None, v.span)
                if prop == "count":
                    return self.player_expr(v)
                if prop in ("counter", "alignment", "role", "class", "category"):
                    self.cov.add("selector", f"->{v.props[0]}")
                    attr = {"counter": "counter", "alignment": "team", "role": "role", "class": "class",
                            "category": "category"}[prop]
                    return f"{self.player_expr(base)}.{attr}"
            if v.sigil == "&" and v.name:
                self.cov.add("selector", "&Team")
                return quote(slug(v.name), v.span)
            return self.player_expr(v)
        raise Unsupported(f"the {v.kind} value '{v.text}'", v.span)

    # ---------------------------------------------------------------- conditions
    def condition(self, c: Condition) -> str:
        op = c.op
        self.cov.add("condition", op)
        if op in ("and", "or"):
            return f" {op} ".join(f"({self.condition(x)})" for x in c.operands)
        if op == "and-or":
            a, *rest = c.operands
            return f"({self.condition(a)}) and (" + " or ".join(f"({self.condition(x)})" for x in rest) + ")"
        if op == "or-and":
            *rest, z = c.operands
            return "(" + " or ".join(f"({self.condition(x)})" for x in rest) + f") and ({self.condition(z)})"
        if op == "not":
            return f"not ({self.condition(c.operands[0])})"
        if op == "exists":
            assert c.left is not None
            left = c.left
            if left.kind == "selector" and (left.filters or (left.name or "").lower() in ("all", "dead", "others", "members")):
                return f"len({self.player_expr(left)}) > 0"
            return f"{self.scalar(left)} != nil"
        if op == "in":
            assert c.left is not None and c.right is not None
            if c.right.sigil == "#":
                return f"isMember({self.player_expr(c.left)}, {self.name(c.right)})"
            return f"{self.scalar(c.left)} in {self.scalar(c.right)}"
        if op == "part of":
            assert c.left is not None and c.right is not None
            right = c.right
            rtext = self.scalar(right) if right.kind in ("list", "selector") else f"[{self.scalar(right)}]"
            return f"{self.scalar(c.left)} in {rtext}"
        if op in ("has", "lacks"):
            assert c.left is not None and c.right is not None
            test = f"has({self.player_expr(c.left)}, {self.name(c.right)})"
            return test if op == "has" else f"not {test}"
        if op in ("is", "is not", ">", "<"):
            assert c.left is not None and c.right is not None
            left = self.scalar(c.left)
            right = self.scalar(c.right)
            sym = {"is": "==", "is not": "!=", ">": ">", "<": "<"}[op]
            return f"{left} {sym} {right}"
        raise Unsupported(f"the condition form '{op}'", c.span)

    def selection_excludes_self(self, c: Condition) -> bool:
        """``@Selection is not @Self``: a condition the target filter takes over (``::not(me)``)."""
        return (c.op == "is not" and c.left is not None and c.right is not None
                and (c.left.name or "").lower() == "selection" and (c.right.name or "").lower() == "self"
                and not c.left.props and not c.right.props)


def any_span(*nodes: Any) -> Span | None:
    for n in nodes:
        span = getattr(n, "span", None)
        if span is not None:
            return span
    return None
