"""Checking target filters (rulescript.md section 4) and lowering them to IR.

A filter's IR is a dict::

    {"qty": {"mode": "all"} | {"mode": "choose", "min": a, "max": b or None} | {"mode": "random", "n": k},
     "types": [[term, ...], ...],      # an OR of ANDs; term = {"t": kind, "v": value, "not": b, "notself": b}
     "selects": "card" | "player" | "mixed", "plural": bool,
     "pick": k or None, "block": [[atom, ...], ...] or None,
     "zone": {"z": zone, "p": prefix}, "zone_written": bool,
     "selector": {"s": name, "x": expression} or None, "at": [line, col, end_col]}

Term kinds: ``any`` (``*``), ``kw`` (a profile type keyword), ``ctype`` (card type), ``subtype``,
``name`` (quoted card name).  Atom kinds: ``word``, ``ctype``, ``subtype``, ``cmp``, ``ext``.
"""

from __future__ import annotations

import re
from typing import Any

from rulescript import ast as A
from rulescript.compile_expr import compile_expr_text
from rulescript.context import Ctx
from rulescript.lexer import LexError
from rulescript.parser import parse_filters, parse_requisite

IR = Any
_QTY_RE = re.compile(r"^\s*(?:(\d{1,15})|(\d{0,15})\s*,\s*(\d{1,15})|[rR]\s*(\d{0,15})|\*\*)\s*$")
_PICK_RE = re.compile(r"^\s*([+-]?)\s*(\d{1,15})\s*$")
_ORDER = {"qty": 0, "types": 1, "pick": 2, "block": 3, "zone": 4, "selector": 5}
_SEGMENT_NAMES = {"qty": "'<…>'", "types": "a type", "pick": "'<…>'", "block": "'['", "zone": "'@'",
                  "selector": "'::'"}


_LONGEST_FIRST: dict[int, tuple[dict[str, Any], list[str]]] = {}


def longest_first(prefixes: dict[str, Any]) -> list[str]:
    """The keys of a profile's prefix table, longest first (memoised per table)."""
    memo = _LONGEST_FIRST.get(id(prefixes))
    if memo is None or memo[0] is not prefixes:
        memo = _LONGEST_FIRST[id(prefixes)] = (prefixes, sorted(prefixes, key=len, reverse=True))
    return memo[1]


class FilterCompiler:
    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    # entry points --------------------------------------------------------------------------------
    def filters(self, text: str, base: int, forced_zone: str | None = None, cost: str = "") -> list[IR]:
        try:
            nodes = parse_filters(text, base)
        except LexError as exc:
            raise self.ctx.lex_error(exc) from None
        return [self.filter(f, forced_zone, cost) for f in nodes]

    def requisite(self, text: str, base: int) -> list[IR]:
        try:
            nodes = parse_requisite(text, base)
        except LexError as exc:
            raise self.ctx.lex_error(exc) from None
        return [self.filter(f) for f in nodes]

    def literal(self, text: str, base: int) -> IR:
        """The string-literal argument of a filter function (getTargets('…')), compiled at load time."""
        return self.filters(text, base)

    # one filter ----------------------------------------------------------------------------------
    def filter(self, node: A.Filter, forced_zone: str | None = None, cost: str = "") -> IR:
        ctx = self.ctx
        prof = ctx.profile
        qty = pick = types = block = zone = selector = None
        last = -1
        for kind, payload, start, end in node.segments:
            if kind == "angle":
                kind = "qty" if last < _ORDER["types"] and types is None and qty is None else "pick"
            order = _ORDER[kind]
            if order <= last:
                expected = [n for k, n in _SEGMENT_NAMES.items() if _ORDER[k] > last]
                raise ctx.fail("RS101", f"unexpected {_SEGMENT_NAMES[kind]} in target filter", start, end,
                               (f"expected one of: {', '.join(dict.fromkeys(expected))}, ';', end of value",))
            last = order
            if kind == "qty":
                qty = payload
            elif kind == "pick":
                pick = payload
            elif kind == "types":
                types = payload
            elif kind == "block":
                block = payload
            elif kind == "zone":
                zone = (payload, start, end)
            else:
                selector = (payload, start, end)
        type_ir, selects, plural = self._types(types)
        out: dict[str, Any] = {"types": type_ir, "selects": selects, "plural": plural}
        out["qty"] = self._qty(qty, plural)
        out["pick"] = self._pick(pick) if pick is not None else None
        if pick is not None and qty is None:
            out["qty"] = {"mode": "all"}
        out["block"] = self._block(block) if block is not None else None
        if zone is not None:
            word, zstart, zend = zone
            if forced_zone:
                ctx.warn("RS902", f"the zone of a {{{cost}}} cost is always the controller's {forced_zone}; "
                         f"'@{word.text}' is ignored", zstart, zend)
                out["zone"] = {"z": forced_zone, "p": prof.default_zone_prefix}
                out["zone_written"] = False
            else:
                out["zone"] = self._zone(word.text, word.start, word.end)
                out["zone_written"] = True
                if selects == "player":
                    ctx.warn("RS910", "a zone written with a player type is ignored", zstart, zend)
        else:
            out["zone"] = {"z": forced_zone or prof.default_zone, "p": prof.default_zone_prefix}
            out["zone_written"] = False
        if selector is not None:
            (name, raw), sstart, send = selector
            low = name.text.lower()
            if low not in prof.selectors:
                raise ctx.unknown("RS214", "selector", name.text, prof.selectors, name.start, name.end)
            ctx.mark("selectors", low)
            expr = compile_expr_text(ctx, raw.text, raw.start, self.literal)
            out["selector"] = {"s": low, "x": expr}
        else:
            out["selector"] = None
        out["at"] = ctx.at(node.start, node.end)
        return out

    # segments ------------------------------------------------------------------------------------
    def _qty(self, angle: A.Angle | None, plural: bool) -> IR:
        if angle is None:
            return {"mode": "all"} if plural else {"mode": "choose", "min": 1, "max": 1}
        ctx = self.ctx
        m = _QTY_RE.match(angle.text)
        if not m:
            raise ctx.fail("RS101", f"invalid quantity '<{angle.text}>'", angle.start, angle.end,
                           ("expected one of: <n>, <a,b>, <,b>, <**>, <r>, <rN>",))
        exact, lo, hi, rnd = m.groups()
        text = angle.text.strip()
        if exact is not None:
            n = int(exact)
            if n == 0:
                raise ctx.fail("RS305", "a quantity of 0 selects nothing", angle.start, angle.end)
            ctx.mark("quantities", "<n>")
            return {"mode": "choose", "min": n, "max": n}
        if hi is not None:
            a = int(lo) if lo else 1
            b = int(hi)
            ctx.mark("quantities", "<a,b>" if lo else "<,b>")
            if b == 0:
                raise ctx.fail("RS305", "the maximum of a quantity must be at least 1", angle.start, angle.end)
            if a > b:
                raise ctx.fail("RS305", f"the minimum {a} is above the maximum {b}", angle.start, angle.end)
            return {"mode": "choose", "min": a, "max": b}
        if text.lower().startswith("r"):
            n = int(rnd) if rnd else 1
            if n == 0:
                raise ctx.fail("RS305", "a random quantity of 0 selects nothing", angle.start, angle.end)
            ctx.mark("quantities", "<rN>" if rnd else "<r>")
            return {"mode": "random", "n": n}
        ctx.mark("quantities", "<**>")
        return {"mode": "choose", "min": 1, "max": None}

    def _pick(self, angle: A.Angle) -> int:
        m = _PICK_RE.match(angle.text)
        if not m:
            raise self.ctx.fail("RS101", f"invalid pick '<{angle.text}>': the forms r, rN, ** and a,b are only "
                                "valid as quantities, at the start of a filter", angle.start, angle.end,
                                ("expected one of: <k>, <-k>",))
        n = int(m.group(2))
        if n == 0:
            raise self.ctx.fail("RS305", "a pick of <0> selects nothing", angle.start, angle.end)
        self.ctx.mark("picks", "<-k>" if m.group(1) == "-" else "<k>")
        return -n if m.group(1) == "-" else n

    def _word_type(self, word: str) -> tuple[str, str, bool] | None:
        """(kind, canonical value, plural) of a type word, per the plural rules of section 4.3."""
        low = word.lower()
        memo = self.ctx.cards.word_types  # the vocabulary is fixed for one card database and profile
        entry = memo.get(low)
        if entry is None or entry[0] is not self.ctx.profile:
            entry = memo[low] = (self.ctx.profile, self._resolve_word_type(low))
        return entry[1]

    def _resolve_word_type(self, low: str) -> tuple[str, str, bool] | None:
        prof = self.ctx.profile
        cards = self.ctx.cards

        def lookup(w: str) -> tuple[str, str] | None:
            if w in prof.type_keywords:
                return ("kw", w)
            if w in prof.card_types:
                return ("ctype", w)
            if w in cards.subtypes:
                return ("subtype", w)
            return None

        hit = lookup(low)
        if hit:
            return hit[0], hit[1], bool(prof.type_keywords.get(hit[1], {}).get("plural")) if hit[0] == "kw" else False
        if low.endswith("s") and (hit := lookup(low[:-1])):
            return hit[0], hit[1], True
        if low.endswith("es") and (hit := lookup(low[:-2])):
            return hit[0], hit[1], True
        return None

    def _types(self, conjs: list[list[A.TypeTerm]] | None) -> tuple[IR, str, bool]:
        ctx = self.ctx
        prof = ctx.profile
        if conjs is None:
            return [[{"t": "any", "v": "*", "not": False, "notself": False}]], "card", False
        out = []
        kinds: set[str] = set()
        plural = False
        for conj in conjs:
            terms = []
            conj_kinds: set[str] = set()
            for term in conj:
                if term.base == "*":
                    ir = {"t": "any", "v": "*"}
                    plural |= term.plural_suffix
                    conj_kinds.add("card")
                    ctx.mark("type_keywords", "*s" if term.plural_suffix else "*")
                elif term.quoted:
                    ir = {"t": "name", "v": term.base.lower()}
                    plural |= term.plural_suffix
                    conj_kinds.add("card")
                    ctx.mark("type_keywords", '"Name"s' if term.plural_suffix else '"Name"')
                    if not ctx.cards.empty and term.base.lower() not in ctx.cards.names:
                        ctx.warn("RS913", f"no card is named \"{term.base}\" in the card database",
                                 term.start, term.end)
                else:
                    found = self._word_type(term.base)
                    if found is None:
                        wstart = term.end - len(term.base)
                        if ctx.cards.empty:
                            ctx.warn("RS914", f"'{term.base}' is not a type keyword or card type; it is read as "
                                     "a subtype (no card database is loaded to check it)", wstart, term.end)
                            found = ("subtype", term.base.lower(), False)
                        else:
                            known = list(prof.type_keywords) + list(prof.card_types) + sorted(ctx.cards.subtypes)
                            raise ctx.unknown("RS204", "type", term.base, known, wstart, term.end)
                    kind, value, is_plural = found
                    plural |= is_plural
                    ir = {"t": kind, "v": value}
                    if kind == "kw":
                        sel = prof.type_keywords[value].get("selects", "card")
                        conj_kinds.add(str(sel))
                        ctx.mark("type_keywords", value)
                    else:
                        conj_kinds.add("card")
                        ctx.mark("card_types" if kind == "ctype" else "subtypes", value)
                        if kind == "ctype":
                            ctx.mark("type_keywords", value + ("s" if is_plural else ""))
                ir["not"] = term.negate
                ir["notself"] = term.exclude_self
                if term.negate:
                    ctx.mark("type_prefixes", "!")
                if term.exclude_self:
                    ctx.mark("type_prefixes", "^")
                terms.append(ir)
            if len(conj_kinds) > 1:
                raise ctx.fail("RS304", "the terms of one '&' conjunction must all be players or all be cards",
                               conj[0].start, conj[-1].end, ("use ',' to offer either a player or cards",))
            if len(conj) > 1:
                ctx.mark("type_prefixes", "&")
            kinds |= conj_kinds
            out.append(terms)
        if len(conjs) > 1:
            ctx.mark("type_prefixes", ",")
        selects = kinds.pop() if len(kinds) == 1 else "mixed"
        return out, selects, plural

    def _block(self, fexpr: list[list[A.Atom]]) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        out = []
        for conj in fexpr:
            atoms = []
            for atom in conj:
                low = atom.word.lower()
                neg = atom.prefix in ("-", "!", "^")
                if atom.prefix:
                    ctx.mark("atom_prefixes", atom.prefix)
                if atom.kind == "word":
                    if low in prof.filter_words:
                        ir = {"a": "word", "w": low}
                        ctx.mark("filter_words", low)
                    elif low in prof.card_types:
                        ir = {"a": "ctype", "w": low}
                        ctx.mark("filter_words", low)
                    elif low in ctx.cards.subtypes or (ctx.cards.empty and low not in prof.stats):
                        if ctx.cards.empty:
                            ctx.warn("RS914", f"'{atom.word}' is not a filter keyword; it is read as a subtype "
                                     "(no card database is loaded to check it)", atom.word_start, atom.word_end)
                        ir = {"a": "subtype", "w": low}
                        ctx.mark("filter_words", "subtype")
                    else:
                        known = list(prof.filter_words) + list(prof.card_types) + sorted(ctx.cards.subtypes)
                        raise ctx.unknown("RS205", "filter keyword", atom.word, known, atom.word_start, atom.word_end)
                elif atom.kind == "cmp":
                    if low not in prof.stats:
                        raise ctx.unknown("RS205", "stat", atom.word, prof.stats, atom.word_start, atom.word_end)
                    ir = {"a": "cmp", "stat": low, "op": atom.op, "v": atom.value}
                    ctx.mark("filter_words", f"{low} CMP n")
                    ctx.mark("comparisons", atom.op)
                else:
                    if low not in prof.stats:
                        raise ctx.unknown("RS205", "stat", atom.word, prof.stats, atom.word_start, atom.word_end)
                    which = str(atom.value).lower()
                    if which not in prof.extremes:
                        raise ctx.unknown("RS205", "extreme", str(atom.value), prof.extremes,
                                          atom.end - len(str(atom.value)), atom.end)
                    ir = {"a": "ext", "stat": low, "w": which}
                    ctx.mark("filter_words", f"{low}:{which}")
                ir["neg"] = neg
                ir["notself"] = atom.prefix == "^"
                atoms.append(ir)
            out.append(atoms)
        return out

    def _zone(self, word: str, start: int, end: int) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        low = word.lower()
        if low in prof.zones:
            ctx.mark("zones", low)
            return {"z": low, "p": prof.default_zone_prefix}
        for prefix in longest_first(prof.zone_prefixes):
            if low.startswith(prefix) and low[len(prefix):] in prof.zones:
                zone = low[len(prefix):]
                if not prof.zones[zone].get("prefixes", True):
                    raise ctx.fail("RS206", f"the zone '{zone}' takes no prefix", start, end,
                                   (f"write '@{zone}'",))
                only = prof.prefix_only_for.get(prefix)
                if only and zone not in only:
                    raise ctx.fail("RS206", f"the prefix '{prefix}' only applies to: {', '.join(only)}", start,
                                   start + len(prefix))
                ctx.mark("zones", zone)
                ctx.mark("zone_prefixes", prefix)
                return {"z": zone, "p": prefix}
        known = list(prof.zones) + [p + z for p in prof.zone_prefixes for z in prof.zones
                                    if prof.zones[z].get("prefixes", True)]
        raise ctx.unknown("RS206", "zone", word, known, start, end)
