"""Checking target filters (docs/language.md section 4) and lowering them to IR.

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

from rulescript.compiler import ast as A
from rulescript.compiler.compile_expr import ExprCompiler
from rulescript.compiler.context import Ctx
from rulescript.compiler.lexer import LexError
from rulescript.compiler.parser import (AtomValues, FilterMatch, atom_span, fast_type_terms, grammar_filters,
                               match_filters, whole_block)

IR = Any
# (kind, canonical value, plural, what it selects, coverage marks) of a type word
TypeWord = tuple[str, str, bool, str, tuple[tuple[str, str], ...]]
# (zone, prefix, coverage marks) of a zone word
ZoneWord = tuple[str, str, tuple[tuple[str, str], ...]]
Piece = tuple[str, int, int]  # (text, start, end) of a '< >' segment
_QTY_RE = re.compile(r"^\s*(?:(\d{1,15})|(\d{0,15})\s*,\s*(\d{1,15})|[rR]\s*(\d{0,15})|\*\*)\s*$")
_PICK_RE = re.compile(r"^\s*([+-]?)\s*(\d{1,15})\s*$")
# the place of each kind of segment in a filter (an angle is the quantity, 0, or after the types the pick, 2)
_ORDER = {"angle": 0, "types": 1, "block": 3, "zone": 4, "selector": 5}
_SEGMENT_NAMES = ("'<…>'", "a type", "'<…>'", "'['", "'@'", "'::'")  # by place
_SEGMENT_WHAT = ("a count '<…>'", "a card type", "a pick '<…>'", "a condition '[…]'", "a zone '@…'",
                 "a selector '::…'")  # what each place holds, for messages


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
    def filters(self, text: str, base: int, forced_zone: str | None = None, cost: str = "",
                requisite: bool = False) -> list[IR]:
        """The IR of a filter list, or of a requisite (filters joined by '&&')."""
        if text.isascii():  # the most common filters, read without the regex: see _simple_filter
            head, at, zone = text.partition("@")
            if zone.isalpha() or not at:
                if head.isalpha() or head == "*":  # 'opp', 'character@myRing', '*@myDiscards'
                    return [self._simple_filter(head, len(head), None, zone, base, forced_zone, cost)]
                word, bracket, _ = head.partition("[")  # 'character[bp:highest]@myRing', '*[action]'
                if bracket and (word.isalpha() or word == "*"):
                    block = whole_block(head, len(word) + 1)
                    if block is not None:
                        return [self._simple_filter(word, len(head), block, zone, base, forced_zone, cost)]
        found = match_filters(text, requisite)
        if found is not None:
            return self._lower(text, base, found, forced_zone, cost)
        try:
            nodes = grammar_filters(text, base, requisite)
        except LexError as exc:
            raise self.ctx.lex_error(exc) from None
        return [self.filter(f, forced_zone, cost) for f in nodes]

    def requisite(self, text: str, base: int) -> list[IR]:
        return self.filters(text, base, requisite=True)

    def literal(self, text: str, base: int) -> IR:
        """The string-literal argument of a filter function (getTargets('…')), compiled at load time."""
        return self.filters(text, base)

    # one filter ----------------------------------------------------------------------------------
    def _lower(self, text: str, base: int, found: list[FilterMatch], forced_zone: str | None, cost: str) -> list[IR]:
        """The IR of the filters the fast path of the parser matched (rulescript.compiler.parser.match_filters): the
        checks and IR of filter(), read straight off the regex groups instead of the tree."""
        out = []
        for m, groups, atoms in found:
            qty, _, caret, bang, word, _, _, _, more, pick, _, zone, zone_word, selector, name, arg, _ = groups
            # the filter's span: from its first segment to its last (a pick follows types: an angle before
            # any type is the quantity, group 1, which the pattern tries first)
            if qty is not None:
                start = m.start(1) - 1
            elif more is not None:
                start = m.start(2)
            elif atoms is not None:
                start = m.start(11)
            else:
                start = m.start(12) if zone is not None else m.start(14)
            if selector is not None:
                end = m.end(14)
            elif zone is not None:
                end = m.end(12)
            elif atoms is not None:
                end = m.end(11)
            elif pick is not None:
                end = m.end(10) + 1
            else:
                end = m.end(9) if more is not None else m.end(1) + 1
            end += base
            if more is None:
                type_ir, selects, plural = [[{"t": "any", "v": "*", "not": False, "notself": False}]], "card", False
            elif not more and word is not None and caret is None and bang is None:  # one plain word: the common case
                kind, value, plural, selects, _ = self._type_word(word, m.end(2) + base)
                type_ir = [[{"t": kind, "v": value, "not": False, "notself": False}]]
            else:
                type_ir, selects, plural = self._types(fast_type_terms(text, m, base))
            out.append(self._finish(
                type_ir, selects, plural,
                None if qty is None else (qty, m.start(1) - 1 + base, m.end(1) + 1 + base),
                None if pick is None else (pick, m.start(10) - 1 + base, m.end(10) + 1 + base),
                atoms,
                None if zone is None  # (without a selector, the zone is the last segment: it ends at ``end``)
                else (zone_word, end - len(zone_word), end, m.start(12) + base, end) if selector is None
                else (zone_word, m.start(13) + base, m.end(13) + base, m.start(12) + base, m.end(12) + base),
                None if selector is None else (name, m.start(15) + base, m.end(15) + base, arg, end - 1 - len(arg)),
                start + base, end, forced_zone, cost, base))
        return out

    def _simple_filter(self, word: str, head_len: int, block: list[list[AtomValues]] | None, zone: str, base: int,
                       forced_zone: str | None, cost: str) -> IR:
        """The IR of a filter that is a type word of ASCII letters or '*', maybe a block right after it (its
        first ``head_len`` characters), then maybe '@' and a zone word of ASCII letters, and nothing else: the
        lexer makes one WORD (or STAR) of each word, as the fast path's regex would."""
        end = base + len(word)
        if word == "*":
            type_ir, selects, plural = self._types([[A.TypeTerm("*", False, False, False, False, base, end)]])
        else:
            kind, value, plural, selects, _ = self._type_word(word, end)
            type_ir = [[{"t": kind, "v": value, "not": False, "notself": False}]]
        end = base + head_len
        if not zone:
            return self._finish(type_ir, selects, plural, None, None, block, None, None, base, end, forced_zone, cost,
                                base)
        zone_end = end + 1 + len(zone)
        return self._finish(type_ir, selects, plural, None, None, block, (zone, end + 1, zone_end, end, zone_end), None,
                            base, zone_end, forced_zone, cost, base)

    def filter(self, node: A.Filter, forced_zone: str | None = None, cost: str = "") -> IR:
        """The IR of a filter as the grammar read it (segments in any order)."""
        ctx = self.ctx
        # the segments by their place (_ORDER), which the written order must follow
        found: list[Any] = [None] * len(_SEGMENT_NAMES)
        last = -1
        for segment in node.segments:
            order = _ORDER[segment[0]]
            if order == 0 and last >= 0:  # an angle after the types is a pick
                order = 2
            if order <= last:
                expected = ", ".join(dict.fromkeys(_SEGMENT_NAMES[last + 1:]))
                notes = [f"expected one of: {expected}, ';', end of value"]
                text = ctx.value.text
                if 0 < segment[2] <= len(text) and text[segment[2] - 1] in "'\"":
                    quote = text[segment[2] - 1]
                    other = "\"" if quote == "'" else "'"
                    notes.append(f"a name is one quoted string with no escapes: to put {quote} in it, delimit it "
                                 f"with {other} ({other}it{quote}s{other})")
                raise ctx.fail("RS101", f"{_SEGMENT_WHAT[order]} cannot come here in a target filter", segment[2],
                               segment[3], notes)
            last = order
            found[order] = segment
        qty, types, pick, block, zone, selector = found
        if types is None:
            type_ir, selects, plural = [[{"t": "any", "v": "*", "not": False, "notself": False}]], "card", False
        else:
            type_ir, selects, plural = self._types(types[1])
        return self._finish(
            type_ir, selects, plural, None if qty is None else (qty[1].text, qty[1].start, qty[1].end),
            None if pick is None else (pick[1].text, pick[1].start, pick[1].end),
            None if block is None else [[(a.prefix, a.word, a.kind, a.op, a.value, a) for a in conj]
                                        for conj in block[1]],
            None if zone is None else (zone[1].text, zone[1].start, zone[1].end, zone[2], zone[3]),
            None if selector is None else (selector[1][0].text, selector[1][0].start, selector[1][0].end,
                                           selector[1][1].text, selector[1][1].start),
            node.start, node.end, forced_zone, cost, 0)

    def _finish(self, type_ir: IR, selects: str, plural: bool, qty: Piece | None, pick: Piece | None,
                block: list[list[AtomValues]] | None, zone: tuple[str, int, int, int, int] | None,
                selector: tuple[str, int, int, str, int] | None, start: int, end: int, forced_zone: str | None,
                cost: str, base: int) -> IR:
        """Checks the segments after the types (in the order of the IR's keys, so are the diagnostics) and
        builds the IR.  qty, pick: (text inside the '< >', start, end); zone: (word, start, end, segment start,
        segment end); selector: (name, start, end, argument, start); ``base``: the offset of the fast path's
        atom matches (see rulescript.compiler.parser.atom_span)."""
        ctx = self.ctx
        if qty is not None:
            qty_ir = self._qty(*qty)
        elif plural or pick is not None:
            qty_ir = {"mode": "all"}
        else:
            qty_ir = {"mode": "choose", "min": 1, "max": 1}
        pick_ir = self._pick(*pick) if pick is not None else None
        block_ir = self._block(block, base) if block is not None else None
        if zone is None:
            prof = ctx.profile
            zone_ir = {"z": forced_zone or prof.default_zone, "p": prof.default_zone_prefix}
            written = False
        else:
            word, wstart, wend, zstart, zend = zone
            if forced_zone:
                ctx.warn("RS902", f"the zone of a {{{cost}}} cost is always the controller's {forced_zone}; "
                         f"'@{word}' is ignored", zstart, zend)
                zone_ir = {"z": forced_zone, "p": ctx.profile.default_zone_prefix}
                written = False
            else:
                zname, prefix, marks = self.zone_words.get(word) or self._zone(word, wstart, wend)
                used = ctx.used
                for category, entry in marks:
                    used[category].add(entry)
                zone_ir = {"z": zname, "p": prefix}
                written = True
                if selects == "player":
                    ctx.warn("RS910", "a zone written with a player type is ignored", zstart, zend)
        selector_ir = self._selector(*selector) if selector is not None else None
        line = ctx.line  # ctx.at(start, end), without the call in the common case: a value on one line
        return {"types": type_ir, "selects": selects, "plural": plural, "qty": qty_ir, "pick": pick_ir,
                "block": block_ir, "zone": zone_ir, "zone_written": written, "selector": selector_ir,
                "at": [line, ctx.col + start, ctx.col + end] if line and end > start else ctx.at(start, end)}

    def _selector(self, name: str, start: int, end: int, arg: str, arg_start: int) -> IR:
        """The IR of a ``::name(expression)`` segment."""
        ctx = self.ctx
        low = name.lower()
        if low not in ctx.profile.selectors:
            raise ctx.unknown("RS214", "selector", name, ctx.profile.selectors, start, end)
        ctx.used["selectors"].add(low)
        return {"s": low, "x": self.exprs.compile(arg, arg_start)}

    # segments ------------------------------------------------------------------------------------
    def _qty(self, written: str, start: int, end: int) -> IR:
        """The IR of a quantity: ``written`` is the text between '<' at ``start`` and '>' before ``end``."""
        ctx = self.ctx
        m = _QTY_RE.match(written)
        if not m:
            raise ctx.fail("RS101", f"invalid quantity '<{written}>'", start, end,
                           ("expected one of: <n>, <a,b>, <,b>, <**>, <r>, <rN>",))
        exact, lo, hi, rnd = m.groups()
        text = written.strip()
        if exact is not None:
            n = int(exact)
            if n == 0:
                raise ctx.fail("RS305", "a quantity of 0 selects nothing", start, end)
            ctx.mark("quantities", "<n>")
            return {"mode": "choose", "min": n, "max": n}
        if hi is not None:
            a = int(lo) if lo else 1
            b = int(hi)
            ctx.mark("quantities", "<a,b>" if lo else "<,b>")
            if b == 0:
                raise ctx.fail("RS305", "the maximum of a quantity must be at least 1", start, end)
            if a > b:
                raise ctx.fail("RS305", f"the minimum {a} is above the maximum {b}", start, end)
            return {"mode": "choose", "min": a, "max": b}
        if text.lower().startswith("r"):
            n = int(rnd) if rnd else 1
            if n == 0:
                raise ctx.fail("RS305", "a random quantity of 0 selects nothing", start, end)
            ctx.mark("quantities", "<rN>" if rnd else "<r>")
            return {"mode": "random", "n": n}
        ctx.mark("quantities", "<**>")
        return {"mode": "choose", "min": 1, "max": None}

    def _pick(self, written: str, start: int, end: int) -> int:
        """The pick of ``<written>`` (from ``start`` to ``end``)."""
        m = _PICK_RE.match(written)
        if not m:
            raise self.ctx.fail("RS101", f"invalid pick '<{written}>': the forms r, rN, ** and a,b are only "
                                "valid as quantities, at the start of a filter", start, end,
                                ("expected one of: <k>, <-k>",))
        n = int(m.group(2))
        if n == 0:
            raise self.ctx.fail("RS305", "a pick of <0> selects nothing", start, end)
        self.ctx.mark("picks", "<-k>" if m.group(1) == "-" else "<k>")
        return -n if m.group(1) == "-" else n

    def _types(self, conjs: list[list[A.TypeTerm]]) -> tuple[IR, str, bool]:
        """(IR, what they select, plural) of the type terms: an OR of ANDs."""
        if len(conjs) == 1 and len(conjs[0]) == 1:  # one term, the common case: nothing to combine
            ir, selects, plural = self._term(conjs[0][0])
            return [[ir]], selects, plural
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
            kind, value, plural, selects, _ = self._type_word(base, term.end)
        if term.negate:
            mark("type_prefixes", "!")
        if term.exclude_self:
            mark("type_prefixes", "^")
        return {"t": kind, "v": value, "not": term.negate, "notself": term.exclude_self}, selects, plural

    def _type_word(self, word: str, end: int) -> TypeWord:
        """What a type word ending at ``end`` means; its coverage marks are marked as used."""
        meaning = self.type_words.get(word.lower()) or self._new_type_word(word, end)
        used = self.ctx.used
        for category, entry in meaning[4]:
            used[category].add(entry)
        return meaning

    def _new_type_word(self, word: str, end: int) -> TypeWord:
        """What a type word not met before means (memoised in type_words); a word that is no type is an
        error, or a subtype with a warning when no card database is loaded."""
        ctx = self.ctx
        low = word.lower()
        meaning = self._resolve_type_word(low)
        if meaning is not None:
            self.type_words[low] = meaning
            return meaning
        wstart = end - len(word)
        if ctx.cards.empty:
            ctx.warn("RS914", f"'{word}' is not a type keyword or card type; it is read as "
                     "a subtype (no card database is loaded to check it)", wstart, end)
            return "subtype", low, False, "card", (("subtypes", low),)
        prof = ctx.profile
        known = list(prof.type_keywords) + list(prof.card_types) + sorted(ctx.cards.subtypes)
        raise ctx.unknown("RS204", "type", word, known, wstart, end)

    def _resolve_type_word(self, low: str) -> TypeWord | None:
        """The meaning of a type word, per the plural rules of docs/language.md 4.2, or None."""
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

    def _block(self, fexpr: list[list[AtomValues]], base: int) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        cards = ctx.cards
        used = ctx.used
        out = []
        for conj in fexpr:
            atoms = []
            for prefix, word, kind, op, value, source in conj:
                low = word.lower()
                neg = prefix in ("-", "!", "^")
                notself = prefix == "^"
                if prefix:
                    used["atom_prefixes"].add(prefix)
                if kind == "word":
                    if low in prof.filter_words:
                        ir = {"a": "word", "w": low, "neg": neg, "notself": notself}
                        used["filter_words"].add(low)
                    elif low in prof.card_types:
                        ir = {"a": "ctype", "w": low, "neg": neg, "notself": notself}
                        used["filter_words"].add(low)
                    elif low in cards.subtypes or (cards.empty and low not in prof.stats):
                        if cards.empty:
                            _, _, word_start, word_end = atom_span(source, base)
                            ctx.warn("RS914", f"'{word}' is not a filter keyword; it is read as a subtype "
                                     "(no card database is loaded to check it)", word_start, word_end)
                        ir = {"a": "subtype", "w": low, "neg": neg, "notself": notself}
                        used["filter_words"].add("subtype")
                    else:
                        _, _, word_start, word_end = atom_span(source, base)
                        known = list(prof.filter_words) + list(prof.card_types) + sorted(cards.subtypes)
                        raise ctx.unknown("RS205", "filter keyword", word, known, word_start, word_end)
                elif low not in prof.stats:
                    _, _, word_start, word_end = atom_span(source, base)
                    raise ctx.unknown("RS205", "stat", word, prof.stats, word_start, word_end)
                elif kind == "cmp":
                    ir = {"a": "cmp", "stat": low, "op": op, "v": value, "neg": neg, "notself": notself}
                    used["filter_words"].add(f"{low} CMP n")
                    used["comparisons"].add(op)
                else:
                    which = str(value).lower()
                    if which not in prof.extremes:
                        end = atom_span(source, base)[1]
                        raise ctx.unknown("RS205", "extreme", str(value), prof.extremes, end - len(str(value)), end)
                    ir = {"a": "ext", "stat": low, "w": which, "neg": neg, "notself": notself}
                    used["filter_words"].add(f"{low}:{which}")
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
