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
import weakref
from typing import Any

from rulescript import ast as A
from rulescript.compile_expr import ExprCompiler
from rulescript.context import Ctx
from rulescript.lexer import LexError
from rulescript.parser import parse_filters, parse_requisite

IR = Any
# (kind, canonical value, plural, what it selects, coverage marks) of a type word
TypeWord = tuple[str, str, bool, str, tuple[tuple[str, str], ...]]
# (zone, prefix, coverage marks) of a zone word
ZoneWord = tuple[str, str, tuple[tuple[str, str], ...]]
_QTY_RE = re.compile(r"^\s*(?:(\d{1,15})|(\d{0,15})\s*,\s*(\d{1,15})|[rR]\s*(\d{0,15})|\*\*)\s*$")
_PICK_RE = re.compile(r"^\s*([+-]?)\s*(\d{1,15})\s*$")
# the place of each kind of segment in a filter (an angle is the quantity, 0, or after the types the pick, 2)
_ORDER = {"angle": 0, "types": 1, "block": 3, "zone": 4, "selector": 5}
_SEGMENT_NAMES = ("'<…>'", "a type", "'<…>'", "'['", "'@'", "'::'")  # by place


class FilterCompiler:
    """Compiles target filters; owns the expression compiler of the file, because each may contain the
    other (a selector holds an expression, and an expression may hold a filter literal)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        # The expression compiler reaches back to this one through a weak reference: no reference cycle,
        # so a file's compilers are freed as soon as it is compiled (rulescript.compiler relies on it).
        this = weakref.ref(self)
        self.exprs = ExprCompiler(ctx, lambda text, base: this().literal(text, base))  # type: ignore[union-attr]
        self.type_words: dict[str, TypeWord] = ctx.cards.word_memo(ctx.profile)
        # written zone word -> (zone, prefix, coverage marks) of the zones met so far (the profile decides)
        self.zone_words: dict[str, ZoneWord] = {}

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
        # the segments by their place (_ORDER), which the written order must follow
        found: list[Any] = [None] * len(_SEGMENT_NAMES)
        last = -1
        for segment in node.segments:
            order = _ORDER[segment[0]]
            if order == 0 and last >= 0:  # an angle after the types is a pick
                order = 2
            if order <= last:
                expected = ", ".join(dict.fromkeys(_SEGMENT_NAMES[last + 1:]))
                raise ctx.fail("RS101", f"unexpected {_SEGMENT_NAMES[order]} in target filter", segment[2],
                               segment[3], (f"expected one of: {expected}, ';', end of value",))
            last = order
            found[order] = segment
        qty, types, pick, block, zone, selector = found
        # each part is checked in the order of the IR's keys (so are the diagnostics), then the IR is built
        if types is None:
            type_ir, selects, plural = [[{"t": "any", "v": "*", "not": False, "notself": False}]], "card", False
        elif len(types[1]) == 1 and len(types[1][0]) == 1:  # one term, the common case: nothing to combine
            term_ir, selects, plural = self._term(types[1][0][0])
            type_ir = [[term_ir]]
        else:
            type_ir, selects, plural = self._types(types[1])
        if qty is not None:
            qty_ir = self._qty(qty[1])
        elif plural or pick is not None:
            qty_ir = {"mode": "all"}
        else:
            qty_ir = {"mode": "choose", "min": 1, "max": 1}
        pick_ir = self._pick(pick[1]) if pick is not None else None
        block_ir = self._block(block[1]) if block is not None else None
        if zone is None:
            zone_ir = {"z": forced_zone or prof.default_zone, "p": prof.default_zone_prefix}
            written = False
        elif forced_zone:
            ctx.warn("RS902", f"the zone of a {{{cost}}} cost is always the controller's {forced_zone}; "
                     f"'@{zone[1].text}' is ignored", zone[2], zone[3])
            zone_ir = {"z": forced_zone, "p": prof.default_zone_prefix}
            written = False
        else:
            word = zone[1]
            name, prefix, marks = self.zone_words.get(word.text) or self._zone(word.text, word.start, word.end)
            for category, entry in marks:
                ctx.mark(category, entry)
            zone_ir = {"z": name, "p": prefix}
            written = True
            if selects == "player":
                ctx.warn("RS910", "a zone written with a player type is ignored", zone[2], zone[3])
        selector_ir = self._selector(*selector[1]) if selector is not None else None
        return {"types": type_ir, "selects": selects, "plural": plural, "qty": qty_ir, "pick": pick_ir,
                "block": block_ir, "zone": zone_ir, "zone_written": written, "selector": selector_ir,
                "at": ctx.at(node.start, node.end)}

    def _selector(self, name: A.Raw, raw: A.Raw) -> IR:
        """The IR of a ``::name(expression)`` segment."""
        ctx = self.ctx
        low = name.text.lower()
        if low not in ctx.profile.selectors:
            raise ctx.unknown("RS214", "selector", name.text, ctx.profile.selectors, name.start, name.end)
        ctx.mark("selectors", low)
        return {"s": low, "x": self.exprs.compile(raw.text, raw.start)}

    # segments ------------------------------------------------------------------------------------
    def _qty(self, angle: A.Angle) -> IR:
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

    def _types(self, conjs: list[list[A.TypeTerm]]) -> tuple[IR, str, bool]:
        ctx = self.ctx
        out = []
        kinds: set[str] = set()
        plural = False
        for conj in conjs:
            terms = []
            conj_kinds: set[str] = set()
            for term in conj:
                ir, selects, term_plural = self._term(term)
                terms.append(ir)
                conj_kinds.add(selects)
                plural |= term_plural
            if len(conj_kinds) > 1:
                raise ctx.fail("RS304", "the terms of one '&' conjunction must all be players or all be cards",
                               conj[0].start, conj[-1].end, ("use ',' to offer either a player or cards",))
            if len(conj) > 1:
                ctx.mark("type_prefixes", "&")
            kinds |= conj_kinds
            out.append(terms)
        if len(conjs) > 1:
            ctx.mark("type_prefixes", ",")
        return out, kinds.pop() if len(kinds) == 1 else "mixed", plural

    def _term(self, term: A.TypeTerm) -> tuple[IR, str, bool]:
        """(IR, what it selects, plural) of one type term."""
        ctx = self.ctx
        mark = ctx.mark
        base = term.base
        if base == "*":
            value, kind, selects, plural = "*", "any", "card", term.plural_suffix
            mark("type_keywords", "*s" if plural else "*")
        elif term.quoted:
            value, kind, selects, plural = base.lower(), "name", "card", term.plural_suffix
            mark("type_keywords", '"Name"s' if plural else '"Name"')
            if not ctx.cards.empty and value not in ctx.cards.names:
                ctx.warn("RS913", f"no card is named \"{base}\" in the card database", term.start, term.end)
        else:
            meaning = self.type_words.get(base.lower())
            if meaning is None:
                meaning = self._type_word(term)
            kind, value, plural, selects, marks = meaning
            for category, entry in marks:
                mark(category, entry)
        if term.negate:
            mark("type_prefixes", "!")
        if term.exclude_self:
            mark("type_prefixes", "^")
        return {"t": kind, "v": value, "not": term.negate, "notself": term.exclude_self}, selects, plural

    def _type_word(self, term: A.TypeTerm) -> TypeWord:
        """What the type word of ``term`` means (memoised in type_words); a word that is no type is an
        error, or a subtype with a warning when no card database is loaded."""
        ctx = self.ctx
        low = term.base.lower()
        meaning = self._resolve_type_word(low)
        if meaning is not None:
            self.type_words[low] = meaning
            return meaning
        wstart = term.end - len(term.base)
        if ctx.cards.empty:
            ctx.warn("RS914", f"'{term.base}' is not a type keyword or card type; it is read as "
                     "a subtype (no card database is loaded to check it)", wstart, term.end)
            return "subtype", low, False, "card", (("subtypes", low),)
        prof = ctx.profile
        known = list(prof.type_keywords) + list(prof.card_types) + sorted(ctx.cards.subtypes)
        raise ctx.unknown("RS204", "type", term.base, known, wstart, term.end)

    def _resolve_type_word(self, low: str) -> TypeWord | None:
        """The meaning of a type word, per the plural rules of section 4.3, or None."""
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
            kind, value = hit
            plural = bool(prof.type_keywords.get(value, {}).get("plural")) if kind == "kw" else False
        elif low.endswith("s") and (hit := lookup(low[:-1])):
            (kind, value), plural = hit, True
        elif low.endswith("es") and (hit := lookup(low[:-2])):
            (kind, value), plural = hit, True
        else:
            return None
        if kind == "kw":
            selects = str(prof.type_keywords[value].get("selects", "card"))
            return kind, value, plural, selects, (("type_keywords", value),)
        if kind == "ctype":
            marks = (("card_types", value), ("type_keywords", value + ("s" if plural else "")))
            return kind, value, plural, "card", marks
        return kind, value, plural, "card", (("subtypes", value),)

    def _block(self, fexpr: list[list[A.Atom]]) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        cards = ctx.cards
        mark = ctx.mark
        out = []
        for conj in fexpr:
            atoms = []
            for atom in conj:
                low = atom.word.lower()
                prefix = atom.prefix
                neg = prefix in ("-", "!", "^")
                notself = prefix == "^"
                if prefix:
                    mark("atom_prefixes", prefix)
                kind = atom.kind
                if kind == "word":
                    if low in prof.filter_words:
                        ir = {"a": "word", "w": low, "neg": neg, "notself": notself}
                        mark("filter_words", low)
                    elif low in prof.card_types:
                        ir = {"a": "ctype", "w": low, "neg": neg, "notself": notself}
                        mark("filter_words", low)
                    elif low in cards.subtypes or (cards.empty and low not in prof.stats):
                        if cards.empty:
                            ctx.warn("RS914", f"'{atom.word}' is not a filter keyword; it is read as a subtype "
                                     "(no card database is loaded to check it)", atom.word_start, atom.word_end)
                        ir = {"a": "subtype", "w": low, "neg": neg, "notself": notself}
                        mark("filter_words", "subtype")
                    else:
                        known = list(prof.filter_words) + list(prof.card_types) + sorted(cards.subtypes)
                        raise ctx.unknown("RS205", "filter keyword", atom.word, known, atom.word_start, atom.word_end)
                elif low not in prof.stats:
                    raise ctx.unknown("RS205", "stat", atom.word, prof.stats, atom.word_start, atom.word_end)
                elif kind == "cmp":
                    ir = {"a": "cmp", "stat": low, "op": atom.op, "v": atom.value, "neg": neg, "notself": notself}
                    mark("filter_words", f"{low} CMP n")
                    mark("comparisons", atom.op)
                else:
                    which = str(atom.value).lower()
                    if which not in prof.extremes:
                        raise ctx.unknown("RS205", "extreme", str(atom.value), prof.extremes,
                                          atom.end - len(str(atom.value)), atom.end)
                    ir = {"a": "ext", "stat": low, "w": which, "neg": neg, "notself": notself}
                    mark("filter_words", f"{low}:{which}")
                atoms.append(ir)
            out.append(atoms)
        return out

    def _zone(self, word: str, start: int, end: int) -> ZoneWord:
        """(zone, prefix, coverage marks) of a zone word, memoised in zone_words; an unknown zone or a
        prefix it does not take is an error."""
        ctx = self.ctx
        prof = ctx.profile
        low = word.lower()
        hit = prof.zone_words.get(low)
        if hit is None:
            known = list(prof.zones) + [p + z for p in prof.zone_prefixes for z in prof.zones
                                        if prof.zones[z].get("prefixes", True)]
            raise ctx.unknown("RS206", "zone", word, known, start, end)
        zone, prefix = hit
        if prefix is None:
            meaning: ZoneWord = (zone, prof.default_zone_prefix, (("zones", zone),))
        elif not prof.zones[zone].get("prefixes", True):
            raise ctx.fail("RS206", f"the zone '{zone}' takes no prefix", start, end, (f"write '@{zone}'",))
        elif (only := prof.prefix_only_for.get(prefix)) and zone not in only:
            raise ctx.fail("RS206", f"the prefix '{prefix}' only applies to: {', '.join(only)}", start,
                           start + len(prefix))
        else:
            meaning = (zone, prefix, (("zones", zone), ("zone_prefixes", prefix)))
        self.zone_words[word] = meaning
        return meaning
