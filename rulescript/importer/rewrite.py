"""Converting one card's rule text from an OCTGN plugin into the body of an INI section.

The rule text of the original plugin is INI-like (``target = …``, ``action = …`` lines, ``#``
comments, indented as the Python string happened to be).  :func:`parse_rule_text` reads it into
properties; :class:`RuleConverter` applies the compatibility rewrites of ``docs/language.md`` §11 to
every value and records each change it made (or each statement it wants a human to look at).

The rewrites work on tokens, never on raw lines: statement values go through the project's
statement tokenizer (:func:`rulescript.compiler.lexer.tokenize_statements`), and arguments, filters and
expressions are scanned with small quote- and bracket-aware scanners, so that ``"Tom & Jerry"`` or a
``;`` inside ``to(…)`` are never mistaken for separators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulescript.compiler.ini import strip_comment
from rulescript.compiler.lexer import LexError, Token, find_closing, find_top_level, split_top_level, tokenize_statements
from rulescript.compiler.profile import Profile

KNOWN_KEYS = ("target", "target?", "action", "label", "abilities", "auto", "requisite", "vars")
_PROP_RE = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*\??)\s*=(?!=)\s*(.*)$")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ZONE_WORD = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")

# Codes of the importer's notes and warnings (docs/language.md §11).
MOVETO = "RI901"            # moveTo(zone, bool) -> moveTo(zone, top, bool)
TGT = "RI902"               # tgt used as one card -> tgt.0
TYPE_AMP = "RI903"          # "A"&"B" -> "A","B"
TYPE_AMP_KEYWORD = "RI904"  # the same, with a keyword type involved (warning)
CLAUSE_MOVED = "RI905"      # target clause moved to the canonical place
EVENT_PREFIX = "RI906"      # object-event prefix rewritten
HAND_TRIGGER = "RI907"      # ~myHandChanges~ added
PERSPECTIVE = "RI908"       # me/opp swapped
ANY_REVIEW = "RI909"        # any-prefixed listener uses me/opp (warning)
IF_CHAIN = "RI910"          # if-chain followed by more statements (warning)
MIXED_REVIEW = "RI911"      # listener mixes opponent-dispatched and other events (warning)
SHARED_REVIEW = "RI912"     # target/vars shared by a swapped auto and an action (warning)
PICK_EACH = "RI913"         # "A"&"B"<k>: the pick applied to each name -> one filter per name
PICK_REVIEW = "RI914"       # the same where one filter per name cannot be written (warning)


class ConversionError(Exception):
    """The rule text cannot be converted; ``prop`` is the index of the property at fault (or None)."""

    def __init__(self, message: str, prop: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.prop = prop


@dataclass(slots=True)
class Change:
    code: str
    severity: str  # "note" for a rewrite that was made, "warning" for something to review
    message: str
    prop: int      # index of the property in the rule
    before: str = ""
    after: str = ""


@dataclass(slots=True)
class RuleProp:
    key: str            # lower case, as written (``target?`` kept)
    raw_key: str
    value: str          # continuation lines joined by one space, comments removed
    lines: list[tuple[str, str]]  # (value piece, inline comment) of each physical line, for verbatim output
    text_line: int      # index (0-based) of its first line in the rule text
    new_value: str = ""


@dataclass(slots=True)
class RuleText:
    items: list[RuleProp | str]  # properties and comment lines, in order
    props: list[RuleProp] = field(default_factory=list)


def parse_rule_text(text: str) -> RuleText:
    """Read an INI-like rule body: ``key = value`` lines, indented continuations and ``#`` comments."""
    items: list[RuleProp | str] = []
    props: list[RuleProp] = []
    current: RuleProp | None = None
    key_indent: int | None = None
    for index, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            items.append(stripped)
            continue
        body = strip_comment(raw)
        comment = raw[len(body):].strip()
        indent = len(raw) - len(raw.lstrip())
        m = _PROP_RE.match(body)
        is_prop = bool(m) and (m.group(2).lower() in KNOWN_KEYS or current is None
                               or (key_indent is not None and indent <= key_indent))
        if m and is_prop:
            key_indent = indent if key_indent is None else min(key_indent, indent)
            current = RuleProp(m.group(2).lower(), m.group(2), m.group(3).strip(), [(m.group(3).strip(), comment)],
                               index)
            items.append(current)
            props.append(current)
            continue
        if current is None:
            raise ConversionError(f"line {index + 1} of the rule text is not 'key = value': {stripped[:40]!r}")
        piece = body.strip()
        if piece:
            current.value = f"{current.value} {piece}" if current.value else piece
        current.lines.append((piece, comment))
    return RuleText(items, props)


# ---------------------------------------------------------------------------------------------------
# small scanners


def _blank_strings(text: str) -> str:
    """The text with the inside of every quoted string replaced by spaces (same length)."""
    out = []
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
                out.append(ch)
            else:
                out.append(" ")
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        else:
            out.append(ch)
    return "".join(out)


def _split_andand(text: str) -> list[tuple[str, int]]:
    """Split at ``&&`` outside brackets and quotes; (piece, offset) pairs."""
    parts: list[tuple[str, int]] = []
    start = 0
    while True:
        i = find_top_level(text[start:], "&&")
        if i < 0:
            parts.append((text[start:], start))
            return parts
        parts.append((text[start:start + i], start))
        start += i + 2


def _split_terms(seg: str, sep: str) -> list[str]:
    """Split a type segment at ``sep`` outside quotes (``&&`` is never a type separator)."""
    parts = []
    last = 0
    i = 0
    while i < len(seg):
        ch = seg[i]
        if ch in "'\"":
            j = seg.find(ch, i + 1)
            if j < 0:
                raise LexError(f"unterminated string (missing {ch})", i)
            i = j + 1
            continue
        if ch == sep:
            parts.append(seg[last:i])
            last = i + 1
        i += 1
    parts.append(seg[last:])
    return parts


def _swapped(prefix: str, rest: str) -> str | None:
    """The word with its my/opp prefix swapped (no prefix counts as my); None for other prefixes."""
    if prefix in ("", "my"):
        return "opp" + _cap(rest)
    if prefix == "opp":
        return "my" + _cap(rest)
    return None


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


def _uncap(word: str) -> str:
    return word[:1].lower() + word[1:]


@dataclass(slots=True)
class _Part:
    kind: str       # trigger cost colon semi guard call clause ability op word
    start: int
    end: int
    text: str
    tok: Token | None = None
    name: str = ""
    args: tuple[int, int] = (0, 0)  # offsets of the argument text (calls, clauses, guards, costs)
    gap: str = ""   # the text between the previous part and this one


class RuleConverter:
    """Applies the compatibility rewrites to the properties of one rule."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.changes: list[Change] = []
        self.prop = 0
        self.swap = False
        self.user_vars: set[str] = set()
        self.object_events = {n for n, e in {**profile.events, **profile.hooks}.items()
                              if isinstance(e, dict) and e.get("object")}
        self.split_ok = False    # a filter may become one filter per name (a target or a target clause)
        self.split_done = False  # ... and one did

    # ------------------------------------------------------------------ entry point
    def convert(self, rule: RuleText) -> list[Change]:
        self.changes = []
        self.user_vars = set()
        props = rule.props
        self._keys = [p.raw_key for p in props]
        for p in props:
            if p.key == "vars":
                try:
                    pieces = split_top_level(p.value, ";")
                except LexError:
                    continue  # reported when the value itself is converted
                for piece, _ in pieces:
                    name = piece.split(":=", 1)[0].strip().lower()
                    if name:
                        self.user_vars.add(name)
        has_action = any(p.key == "action" for p in props)
        autos = [i for i, p in enumerate(props) if p.key == "auto"]
        swap_rule = False
        for i, p in enumerate(props):
            p.new_value = p.value
        for i in autos:
            self.prop = i
            props[i].new_value, swap = self._guarded(i, lambda v: self.auto(v), props[i].value)
            swap_rule = swap_rule or swap
        split_target: int | None = None
        for i, p in enumerate(props):
            self.prop = i
            if p.key in ("target", "target?"):
                self.swap = swap_rule and not has_action
                self.split_ok, self.split_done = True, False
                try:
                    p.new_value = self._guarded(i, lambda v: self.filters(v), p.value)
                finally:
                    self.split_ok = False
                if self.split_done and p.key == "target":
                    split_target = i
                if swap_rule and has_action and self._would_swap(lambda: self.filters(p.value), p.value):
                    self._shared_review(p.raw_key)
            elif p.key == "requisite":
                self.swap = False
                p.new_value = self._guarded(i, lambda v: self.filters(v, requisite=True), p.value)
            elif p.key == "action":
                self.swap = False
                p.new_value = self._guarded(i, lambda v: self.action(v), p.value)
            elif p.key == "vars":
                self.swap = swap_rule and not has_action
                p.new_value = self._guarded(i, lambda v: self.vars(v), p.value)
                if swap_rule and has_action and self._would_swap(lambda: self.vars(p.value), p.value):
                    self._shared_review(p.raw_key)
        self.swap = False
        if split_target is not None:
            self._keep_required(rule, split_target, swap_rule and not has_action)
        return self.changes

    def _keep_required(self, rule: RuleText, index: int, swap: bool) -> None:
        """A required ``target`` whose filter became one filter per name: in the original, the activation
        stopped only when *all* of them found nothing, whereas each filter of a ``target`` list is required
        on its own.  So the key becomes ``target?`` and the requirement is kept as it was: a requisite (the
        filters of the original list, each with its names as alternatives) for the actions, a leading
        condition for the auto."""
        target = rule.props[index]
        self.prop = index
        saved, changes = self.swap, list(self.changes)
        self.swap = swap
        try:  # the union form of each filter (the notes were made when the target itself was converted)
            checks = [self.filter(piece).strip() for piece, _ in split_top_level(target.value, ";")]
        finally:
            self.swap, self.changes = saved, changes
        old_key = target.raw_key
        target.raw_key = old_key + "?"
        target.key = "target?"
        self.note(PICK_EACH, "note", f"'{old_key} =' became '{target.raw_key} =': its filters now take each name on its "
                  "own, and the activation still stops only when none of the names is found (kept as a "
                  "requisite or a leading condition)", f"{old_key} = {target.value}",
                  f"{target.raw_key} = {target.new_value}")
        actions = [p for p in rule.props if p.key == "action"]
        autos = [i for i, p in enumerate(rule.props) if p.key == "auto"]
        if actions:
            req = next((p for p in rule.props if p.key == "requisite"), None)
            joined = " && ".join(checks)
            if req is not None:
                before = req.new_value
                req.new_value = f"{req.new_value} && {joined}"
                self.prop = rule.props.index(req)
                self.note(PICK_EACH, "note", "the requirement of the target was added to the requisite",
                          f"requisite = {before}", f"requisite = {req.new_value}")
            else:
                new = RuleProp("requisite", "requisite", joined, [(joined, "")], target.text_line, joined)
                rule.items.insert(rule.items.index(target) + 1, new)
                rule.props.append(new)
                self.prop = len(rule.props) - 1
                self.note(PICK_EACH, "note", "the requirement of the target became a requisite", "",
                          f"requisite = {joined}")
        for i in autos:
            auto = rule.props[i]
            conds = []
            for c in checks:
                if "'" not in c:
                    conds.append(f"getTargets('{c}')")
                elif '"' not in c:
                    conds.append(f'getTargets("{c}")')
                else:
                    raise ConversionError("the auto's target takes each name on its own, and its requirement "
                                          "cannot be written as a condition (the filter holds both quote "
                                          "characters)", index)
            guard = f"[[if {' and '.join(conds)}]]"
            value = auto.new_value
            lead = len(value) - len(value.lstrip())
            body_at = lead
            if value[lead:lead + 1] in ("~", "?"):
                close = value.find(value[lead], lead + 1)
                body_at = close + 1 if close > 0 else lead
            head, body = value[:body_at], value[body_at:].lstrip()
            auto.new_value = f"{head} {guard}; {body}".strip() if head.strip() else f"{guard}; {body}"
            self.prop = i
            self.note(PICK_EACH, "note", "the requirement of the target became the auto's leading condition",
                      value.strip(), auto.new_value.strip())

    def _shared_review(self, key: str) -> None:
        self.note(SHARED_REVIEW, "warning", f"the auto of this rule was converted to its controller's point of "
                  f"view, but '{key}' is shared with an action and was left as written: review it")

    def _guarded(self, index: int, fn, value: str):  # type: ignore[no-untyped-def]
        try:
            return fn(value)
        except LexError as exc:
            raise ConversionError(f"cannot read {self.prop_name(index)}: {exc.message}", index) from None

    def prop_name(self, index: int) -> str:
        keys = getattr(self, "_keys", [])
        return f"'{keys[index]}'" if index < len(keys) else f"property {index + 1}"

    def note(self, code: str, severity: str, message: str, before: str = "", after: str = "") -> None:
        self.changes.append(Change(code, severity, message, self.prop, before, after))

    # ------------------------------------------------------------------ expressions
    def expr(self, text: str) -> str:
        """``tgt.bp`` → ``tgt.0.bp``; with perspective swap, ``me`` ↔ ``opp``; filters in getTargets()."""
        out = []
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch in "'\"":
                j = text.find(ch, i + 1)
                if j < 0:
                    raise LexError(f"unterminated string (missing {ch})", i)
                out.append(text[i:j + 1])
                i = j + 1
                continue
            m = _IDENT.match(text, i) if (ch.isalpha() or ch == "_") else None
            if not m:
                out.append(ch)
                i += 1
                continue
            word = m.group(0)
            low = word.lower()
            end = m.end()
            prev = text[:i].rstrip()[-1:]
            after_dot = prev == "."
            if not after_dot and low in ("tgt", "prevtgt"):
                k = end
                while k < n and text[k] == " ":
                    k += 1
                if k < n and text[k] == ".":
                    am = _IDENT.match(text, k + 1) or re.compile(r"\d+").match(text, k + 1)
                    attr = am.group(0) if am else ""
                    if attr and not attr.isdigit() and attr.lower() != "size":
                        out.append(word + ".0")
                        self.note(TGT, "note", f"'{word}' is a list: '{word}.{attr}' was rewritten to "
                                  f"'{word}.0.{attr}'", f"{word}.{attr}", f"{word}.0.{attr}")
                        i = end
                        continue
            if not after_dot and self.swap and low in ("me", "opp"):
                out.append(self._swapped_word(word))
                i = end
                continue
            if not after_dot and low == "gettargets":
                k = end
                while k < n and text[k] == " ":
                    k += 1
                if k < n and text[k] == "(":
                    close = find_closing(text, k, "(")
                    inner = text[k + 1:close]
                    s = inner.strip()
                    if len(s) >= 2 and s[0] in "'\"" and s[-1] == s[0]:
                        lead = inner[:len(inner) - len(inner.lstrip())]
                        tail = inner[len(inner.rstrip()):]
                        new = s[0] + self.filters(s[1:-1]) + s[0]
                        out.append(text[i:k + 1] + lead + new + tail + ")")
                        i = close + 1
                        continue
            out.append(word)
            i = end
        return "".join(out)

    def _swapped_word(self, word: str) -> str:
        new = "opp" if word.lower() == "me" else "me"
        if word.isupper():
            new = new.upper()
        self.note(PERSPECTIVE, "note", f"'{word}' → '{new}' (the event was dispatched by the opponent)", word, new)
        return new

    def vars(self, value: str) -> str:
        pieces = []
        for piece, _ in split_top_level(value, ";"):
            if ":=" in piece:
                name, rhs = piece.split(":=", 1)
                lead = rhs[:len(rhs) - len(rhs.lstrip())]
                pieces.append(f"{name}:={lead}{self.expr(rhs.lstrip())}")
            else:
                pieces.append(piece)
        return ";".join(pieces)

    # ------------------------------------------------------------------ filters
    def filters(self, text: str, requisite: bool = False) -> str:
        """Rewrite a filter list (``;``-separated; ``&&`` too in a requisite)."""
        out = []
        for piece, _ in split_top_level(text, ";"):
            if requisite:
                out.append("&&".join(self.filter(p) for p, _ in _split_andand(piece)))
            else:
                out.append(self.filter(piece))
        return ";".join(out)

    def _would_swap(self, fn, text: str) -> bool:  # type: ignore[no-untyped-def]
        """Whether the perspective swap would change ``text`` (``fn`` rewrites it); changes nothing."""
        saved, changes = self.swap, list(self.changes)
        self.swap = True
        try:
            return bool(fn() != text)
        except LexError:
            return False
        finally:
            self.swap = saved
            self.changes = changes

    def filter(self, text: str) -> str:
        """One filter: ``<qty>types<pick>[block]@zone::selector(expr)``."""
        n = len(text)
        i = 0
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] == "<":
            j = text.find(">", i)
            if j < 0:
                raise LexError("unbalanced '<': missing '>'", i)
            i = j + 1
        # the type segment runs to the first '<', '[', '@' or '::' outside quotes
        t0 = i
        while i < n:
            ch = text[i]
            if ch in "'\"":
                j = text.find(ch, i + 1)
                if j < 0:
                    raise LexError(f"unterminated string (missing {ch})", i)
                i = j + 1
                continue
            if ch in "<[@(" or text.startswith("::", i):
                break
            i += 1
        seg = text[t0:i]
        if text[i:].lstrip().startswith("<") and any(len(_split_terms(alt, "&")) > 1 for alt in _split_terms(seg, ",")):
            split = self.split_per_name(text[:t0], seg, text[i:])
            if split is not None:
                return split
        types = self.types(seg)
        rest = self.filter_tail(text[i:])
        return text[:t0] + types + rest

    def split_per_name(self, qty: str, seg: str, tail: str) -> str | None:
        """``"A"&"B"<k>@zone``: the original engine took the pick from each name on its own (one A *and*
        one B).  Where a filter list is allowed and there is no quantity, that is one filter per name;
        elsewhere the union is kept and flagged (returns None)."""
        terms = [t for alt in _split_terms(seg, ",") for t in _split_terms(alt, "&")]
        if not self.split_ok or qty.strip():
            where = "a quantity is given" if qty.strip() else "only one filter is allowed here"
            self.note(PICK_REVIEW, "warning", "the original engine took the pick from each name of "
                      f"'{seg.strip()}' on its own; {where}, so one filter per name cannot be written and the "
                      "names became alternatives of one pick: review it", seg.strip(), seg.strip())
            return None
        saved = list(self.changes)
        rest = self.filter_tail(tail)
        pieces = [self.types(t) + rest for t in terms]
        keyword = [t.strip() for t in terms if not t.strip().lstrip("^!").startswith(("'", '"'))]
        self.changes = saved + [c for c in self.changes[len(saved):] if c.code not in (TYPE_AMP, TYPE_AMP_KEYWORD)]
        lead = qty[:len(qty) - len(qty.lstrip())]
        after = "; ".join(p.strip() for p in pieces)
        self.split_done = True
        self.note(PICK_EACH, "warning" if keyword else "note",
                  "'&' between types with a pick: the original engine took the pick from each of them "
                  f"(one of each), so the filter became one filter per {'type' if keyword else 'name'}"
                  + (f"; a keyword type is involved ({', '.join(keyword)}): check it" if keyword else ""),
                  (seg + tail).strip(), after)
        return lead + after

    def types(self, seg: str) -> str:
        if not seg.strip():
            return seg
        alts = [_split_terms(alt, "&") for alt in _split_terms(seg, ",")]
        changed = False
        if any(len(terms) > 1 for terms in alts):
            keyword = [t.strip() for terms in alts if len(terms) > 1 for t in terms
                       if not t.strip().lstrip("^!").startswith(("'", '"'))]
            new_seg = ",".join(t for terms in alts for t in terms)
            if keyword:
                self.note(TYPE_AMP_KEYWORD, "warning", "'&' between types meant 'either' in the original and was "
                          f"rewritten to ','; a keyword type is involved ({', '.join(keyword)}): check that "
                          "'either' was meant", seg.strip(), new_seg.strip())
            else:
                self.note(TYPE_AMP, "note", "'&' between types meant 'either' in the original: rewritten to ','",
                          seg.strip(), new_seg.strip())
            alts = [[t] for terms in alts for t in terms]
            changed = True
        if self.swap:
            new_alts = []
            for terms in alts:
                new_terms = []
                for t in terms:
                    core = t.strip()
                    marks = core[:len(core) - len(core.lstrip("^!"))]
                    word = core[len(marks):]
                    if word.lower() in ("me", "opp"):
                        lead = t[:len(t) - len(t.lstrip())]
                        tail = t[len(t.rstrip()):]
                        t = lead + marks + self._swapped_word(word) + tail
                        changed = True
                    new_terms.append(t)
                new_alts.append(new_terms)
            alts = new_alts
        if not changed:
            return seg
        return ",".join("&".join(terms) for terms in alts)

    def filter_tail(self, text: str) -> str:
        """Pick, block, zone and selector of a filter (only the zone and the selector change)."""
        out = []
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "<":
                j = text.find(">", i)
                if j < 0:
                    raise LexError("unbalanced '<': missing '>'", i)
                out.append(text[i:j + 1])
                i = j + 1
            elif ch in "[(":
                j = find_closing(text, i, ch)
                out.append(text[i:j + 1])
                i = j + 1
            elif ch in "'\"":
                j = text.find(ch, i + 1)
                if j < 0:
                    raise LexError(f"unterminated string (missing {ch})", i)
                out.append(text[i:j + 1])
                i = j + 1
            elif ch == "@":
                k = i + 1
                while k < n and text[k] == " ":
                    k += 1
                m = _ZONE_WORD.match(text, k)
                if not m:
                    out.append(ch)
                    i += 1
                    continue
                out.append(text[i:k] + self.zone(m.group(0)))
                i = m.end()
            elif text.startswith("::", i):
                k = i + 2
                m = _ZONE_WORD.match(text, k)
                if m:
                    p = text.find("(", m.end())
                    if p >= 0 and not text[m.end():p].strip():
                        close = find_closing(text, p, "(")
                        out.append(text[i:p + 1] + self.expr(text[p + 1:close]) + ")")
                        i = close + 1
                        continue
                out.append("::")
                i += 2
            else:
                out.append(ch)
                i += 1
        return "".join(out)

    def zone(self, word: str) -> str:
        if not self.swap:
            return word
        prof = self.profile
        low = word.lower()
        prefix, zone = "", low
        if low not in prof.zones:
            for p in sorted(prof.zone_prefixes, key=len, reverse=True):
                if low.startswith(p) and low[len(p):] in prof.zones:
                    prefix, zone = p, low[len(p):]
                    break
            else:
                return word
        if not (prof.zones.get(zone) or {}).get("prefixes", True):
            return word
        new = _swapped(prefix, word[len(prefix):])
        if new is None:
            return word
        self.note(PERSPECTIVE, "note", f"zone '{word}' → '{new}' (the event was dispatched by the opponent)",
                  word, new)
        return new

    def pile(self, word: str) -> str:
        if not self.swap:
            return word
        prof = self.profile
        low = word.strip().lower()
        prefix = ""
        if low not in prof.piles:
            for p in sorted(prof.pile_prefixes, key=len, reverse=True):
                if low.startswith(p) and low[len(p):] in prof.piles:
                    prefix = p
                    break
            else:
                return word
        core = word.strip()
        new = _swapped(prefix, core[len(prefix):])
        if new is None:
            return word
        self.note(PERSPECTIVE, "note", f"pile '{core}' → '{new}' (the event was dispatched by the opponent)",
                  core, new)
        lead = word[:len(word) - len(word.lstrip())]
        return lead + new + word[len(word.rstrip()):]

    # ------------------------------------------------------------------ statements
    def _parts(self, value: str, allow_trigger: bool) -> list[_Part]:
        toks = tokenize_statements(value, 0, allow_trigger)
        parts: list[_Part] = []
        i = 0
        while i < len(toks):
            t = toks[i]
            kind = t.type
            if kind == "TRIGGER":
                parts.append(_Part("trigger", t.start_pos - 1, t.end_pos + 1, "", t, args=(t.start_pos, t.end_pos)))
            elif kind == "COST":
                parts.append(_Part("cost", t.start_pos - 1, t.end_pos + 1, "", t, args=(t.start_pos, t.end_pos)))
            elif kind in ("G_MAY", "G_IF", "G_ELIF", "G_ELSE"):
                parts.append(_Part("guard", t.line, t.end_line, "", t, name=kind[2:].lower(),
                                   args=(t.start_pos, t.end_pos)))
            elif kind in ("CALL", "CLAUSE"):
                j = i + 1
                if j < len(toks) and toks[j].type == "QMARK":
                    j += 1
                a = toks[j]
                parts.append(_Part("call" if kind == "CALL" else "clause", t.start_pos, a.end_pos + 1, "", t,
                                   name=str(t), args=(a.start_pos, a.end_pos)))
                i = j
            elif kind == "ABILITY":
                parts.append(_Part("ability", t.start_pos, t.end_pos, "", t))
            elif kind in ("AMP", "ANDAND", "OROR"):
                parts.append(_Part("op", t.start_pos, t.end_pos, "", t))
            elif kind == "SEMI":
                parts.append(_Part("semi", t.start_pos, t.end_pos, "", t))
            elif kind == "COLON":
                parts.append(_Part("colon", t.start_pos, t.end_pos, "", t))
            else:
                parts.append(_Part("word", t.start_pos, t.end_pos, "", t))
            i += 1
        last = 0
        for p in parts:
            p.gap = value[last:p.start]
            p.text = value[p.start:p.end]
            last = p.end
        return parts

    @staticmethod
    def _join(value: str, parts: list[_Part]) -> str:
        if not parts:
            return value
        tail = value[max(p.end for p in parts):]
        return "".join(p.gap + p.text for p in parts) + tail

    def action(self, value: str) -> str:
        parts = self._parts(value, allow_trigger=False)
        for p in parts:
            if p.kind == "cost":
                p.text = "{" + self.cost(value[p.args[0]:p.args[1]]) + "}"
        n = 0
        while n < len(parts) and parts[n].kind == "cost":
            n += 1
        if n < len(parts) and parts[n].kind == "colon":
            n += 1
        head, body = parts[:n], parts[n:]
        return self._join(value, head + self.statements(value, body))

    def cost(self, inner: str) -> str:
        s = inner.strip()
        m = re.match(r"(?i)^([SD])\s*\(", s)
        if not m:
            return inner
        close = find_closing(s, m.end() - 1, "(")
        arg = s[m.end():close]
        if m.group(1).upper() == "D" and arg.strip().lstrip("+-").isdigit():
            return inner
        new = s[:m.end()] + self.filters(arg) + s[close:]
        return inner.replace(s, new) if new != s else inner

    def auto(self, value: str) -> tuple[str, bool]:
        """Returns the new value and whether the listener's statements were swapped to the controller's
        point of view."""
        parts = self._parts(value, allow_trigger=True)
        trig = parts[0] if parts and parts[0].kind == "trigger" else None
        mode = "normal"
        if trig is not None:
            events, mode = self.trigger(value[trig.args[0]:trig.args[1]])
            trig.text = value[trig.start] + events + value[trig.end - 1]
        body = [p for p in parts if p.kind != "trigger"]
        if trig is None and self._reads_hand_size(value, body):
            ev = "~myHandChanges~"
            first = body[0] if body else None
            if first is not None:
                first.gap = first.gap + ev + " "
            self.note(HAND_TRIGGER, "note", "an auto without an event whose condition reads me.hand.size: added "
                      f"the trigger {ev} (the original derived one that never fired)", value.strip(),
                      f"{ev} {value.strip()}")
        self.swap = mode == "swap"
        try:
            body = self.statements(value, body, review_any=(mode == "any"))
        finally:
            self.swap = False
        return self._join(value, ([trig] if trig is not None else []) + body), mode == "swap"

    def _reads_hand_size(self, value: str, body: list[_Part]) -> bool:
        for p in body:
            if p.kind == "guard" and p.name in ("if", "elif"):
                cond = _blank_strings(value[p.args[0]:p.args[1]])
                if re.search(r"(?i)(?<![\w.])me\s*\.\s*hand\s*\.\s*size\b", cond):
                    return True
        return False

    def trigger(self, text: str) -> tuple[str, str]:
        """Rewrite the events of a trigger; returns (new text, mode) where mode is ``swap`` when every
        event was dispatched by the opponent of the listener's controller, ``any`` when an event is
        any-prefixed, ``mixed`` or ``normal``."""
        prof = self.profile
        pieces = text.split(",")
        out = []
        classes = []
        for piece in pieces:
            lead = piece[:len(piece) - len(piece.lstrip())]
            tail = piece[len(piece.rstrip()):]
            ref = piece.strip()
            word, *suffixes = [s.strip() for s in ref.split(":")]
            low = word.lower()
            prefix, name, name_text = "", low, word
            if low not in prof.events and low not in prof.hooks:
                for p in sorted(prof.event_prefixes, key=len, reverse=True):
                    if low.startswith(p) and (low[len(p):] in prof.events or low[len(p):] in prof.hooks):
                        prefix, name, name_text = p, low[len(p):], word[len(p):]
                        break
            sufs = [s.lower() for s in suffixes]
            new_prefix = prefix
            if name in self.object_events:
                if "any" in sufs:
                    if prefix != "any":
                        new_prefix = "any"
                        why = (f"the prefix '{prefix}' was ignored" if prefix else
                               "without a prefix it matched both players")
                        self.note(EVENT_PREFIX, "note", f"'{word}:any': {why} on an event with an object in the "
                                  "original; rewritten to 'any'", word, "any" + _cap(name_text))
                else:
                    # the object is the listener's own card: who performs the event is fixed
                    player = "opp" if name == "canblock" else "my"
                    effective = prefix or prof.default_event_prefix
                    if effective not in (player, "any"):
                        new_prefix = "opp" if player == "opp" else ""
                        after = (new_prefix + _cap(name_text)) if new_prefix else _uncap(name_text)
                        self.note(EVENT_PREFIX, "note", f"'{word}': the original ignored the prefix of an event with "
                                  f"an object; on the listener's own card this event is performed by "
                                  f"{'the opponent' if player == 'opp' else 'its controller'}, so it is now "
                                  f"'{after}'", word, after)
            if new_prefix != prefix:
                word = (new_prefix + _cap(name_text)) if new_prefix else _uncap(name_text)
            out.append(lead + ":".join([word] + suffixes) + tail)
            # who dispatched the event in the original
            own_object = name in self.object_events and "any" not in sufs
            if new_prefix == "any":
                classes.append("any")
            elif name in ("canblock", "blocks") and own_object:
                classes.append("swap")
            elif name.endswith("phase") and name not in self.object_events and new_prefix == "opp":
                classes.append("swap")
            else:
                classes.append("normal")
        mode = "normal"
        if "swap" in classes and len(set(classes)) > 1:
            mode = "mixed"
            self.note(MIXED_REVIEW, "warning", "this listener mixes events dispatched by the opponent with other "
                      "events; me/opp were left as written: review them", text.strip(), text.strip())
        elif "swap" in classes:
            mode = "swap"
        elif "any" in classes:
            mode = "any"
        return ",".join(out), mode

    def statements(self, value: str, parts: list[_Part], review_any: bool = False) -> list[_Part]:
        """Rewrite the statements of an action or auto; returns the parts in their new order."""
        stmts: list[list[_Part]] = [[]]
        semis: list[_Part] = []
        for p in parts:
            if p.kind == "semi":
                stmts.append([])
                semis.append(p)
            else:
                stmts[-1].append(p)
        out: list[_Part] = []
        for n, stmt in enumerate(stmts):
            if n:
                out.append(semis[n - 1])
            before = "".join(p.gap + p.text for p in stmt).strip()
            for p in stmt:
                self.part(value, p)
            if review_any:
                saved = list(self.changes)
                self.swap = True
                try:
                    probe = [_Part(p.kind, p.start, p.end, p.text, p.tok, p.name, p.args, p.gap) for p in stmt]
                    for p in probe:
                        self.part(value, p)
                finally:
                    self.swap = False
                    self.changes = saved
                if [p.text for p in probe] != [p.text for p in stmt]:
                    self.note(ANY_REVIEW, "warning", f"statement {n + 1} of a listener of an any-prefixed event "
                              "uses me/opp or my/opp zones: the original read them from the point of view of the "
                              "machine that dispatched the event, which may have been either player; review it",
                              before, before)
            guards = [p.name for p in stmt if p.kind == "guard"]
            if ("elif" in guards or "else" in guards) and n + 1 < len(stmts) and any(stmts[n + 1:]):
                self.note(IF_CHAIN, "warning", f"statement {n + 1} is an if-chain followed by more statements: "
                          "these now run whichever branch was taken (the original skipped them after an "
                          "elif/else branch)", before, before)
            out.extend(self.canonical_order(stmt))
        return out

    def canonical_order(self, stmt: list[_Part]) -> list[_Part]:
        """Move target clauses and restrictions after the effects of their body; returns the new order."""
        bodies: list[list[_Part]] = [[]]
        for p in stmt:
            if p.kind == "guard":
                bodies.append([])
            else:
                bodies[-1].append(p)
        result = list(stmt)
        for body in bodies:
            kinds = [p.kind for p in body]
            effects = [i for i, k in enumerate(kinds) if k in ("call", "ability")]
            if not effects:
                continue
            last_effect = effects[-1]
            misplaced = any(k in ("clause", "word") and i < last_effect for i, k in enumerate(kinds)) or any(
                k == "word" and "clause" in kinds[i + 1:] for i, k in enumerate(kinds))
            if not misplaced or not set(kinds) <= {"call", "ability", "op", "clause", "word"}:
                continue  # in place, or malformed (a stray ':' or cost): the compiler reports it
            before = "".join(p.gap + p.text for p in body).strip()
            first_gap = body[0].gap
            ordered = ([p for p in body if p.kind in ("call", "ability", "op")]
                       + [p for p in body if p.kind == "clause"] + [p for p in body if p.kind == "word"])
            positions = [result.index(p) for p in body]
            for k, p in enumerate(ordered):
                p.gap = first_gap if k == 0 else " "
            for pos, p in zip(positions, ordered):
                result[pos] = p
            after = "".join(p.gap + p.text for p in ordered).strip()
            self.note(CLAUSE_MOVED, "note", "a target clause or restriction was written before the effects: "
                      "moved to the canonical place ([[guard]] effects to(filter) restriction)", before, after)
        return result

    def part(self, value: str, p: _Part) -> None:
        if p.kind == "guard":
            if p.name in ("if", "elif"):
                a, b = p.args
                p.text = value[p.start:a] + self.expr(value[a:b]) + value[b:p.end]
        elif p.kind == "clause":
            a, b = p.args
            inner = value[a:b]
            if self._is_expression_target(inner):
                new = self.expr(inner)
            else:
                self.split_ok = True
                try:
                    new = self.filters(inner)
                finally:
                    self.split_ok = False
            p.text = value[p.start:a] + new + ")"
        elif p.kind == "call":
            a, b = p.args
            p.text = value[p.start:a] + self.args(p.name, value[a:b]) + ")"

    def _is_expression_target(self, text: str) -> bool:
        s = text.strip()
        if not s or s[0] in "<*^!'\"":
            return False
        flat = _blank_strings(s)
        depth = 0
        marks = set()
        for ch in flat:
            if ch in "([{":
                if ch == "[" and depth == 0:
                    marks.add("[")
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif depth == 0 and ch in ";,@.":
                marks.add(ch)
        if marks & set(";,@["):
            return False
        if "." in marks:
            return True
        low = s.lower()
        if low in self.profile.type_keywords:
            return False
        if low in self.user_vars:
            return True
        spec = self.profile.names.get(low)
        return spec is not None and str(spec.get("type", "")).rstrip("?") in ("list", "card", "player")

    def args(self, name: str, text: str) -> str:
        spec = self.profile.commands.get(name.lower())
        if spec is None or not text.strip():
            return text
        params = spec.params
        if params and params[-1].kind in ("filter", "each", "count_or_filter") and len(params) == 1:
            pieces = [text]
        else:
            pieces = [p for p, _ in split_top_level(text, ",")]
            if params and params[-1].kind in ("filter", "each") and len(pieces) > len(params):
                keep = len(params) - 1
                pieces = pieces[:keep] + [",".join(pieces[keep:])]
        if len(pieces) > len(params):
            return text  # an arity error: the compiler reports it
        new = [self.arg(spec.name, params[i].kind, piece) for i, piece in enumerate(pieces)]
        if spec.name.lower() == "moveto" and len(new) == 2 and new[1].strip().lower() in ("true", "false"):
            before = f"moveTo({text.strip()})"
            new = [new[0], " top", new[1]]
            after = f"moveTo({','.join(new).strip()})"
            self.note(MOVETO, "note", "a boolean in the position slot of moveTo() means reveal: made explicit",
                      before, after)
        return ",".join(new)

    def arg(self, command: str, kind: str, piece: str) -> str:
        lead = piece[:len(piece) - len(piece.lstrip())]
        tail = piece[len(piece.rstrip()):]
        core = piece.strip()
        if not core:
            return piece
        if kind in ("card", "model"):
            if core.lower() in ("tgt", "prevtgt"):
                self.note(TGT, "note", f"'{core}' is a list: {command}() needs one card, so '{core}' was rewritten "
                          f"to '{core}.0'", f"{command}({core})", f"{command}({core}.0)")
                return lead + core + ".0" + tail
            if core[0] in "'\"":
                return piece
            return lead + self.expr(core) + tail
        if kind in ("num", "bpval", "spval"):
            return lead + self.expr(core) + tail
        if kind == "pile":
            return self.pile(piece)
        if kind == "filter":
            return lead + self.filters(core) + tail
        if kind == "count_or_filter":
            if core.lstrip("+-").isdigit():
                return piece
            return lead + self.filters(core) + tail
        if kind == "each":
            return lead + self.each(core) + tail
        return piece

    def each(self, text: str) -> str:
        arrow = find_top_level(text, "=>")
        if arrow < 0:
            return text
        head, chain = text[:arrow], text[arrow + 2:]
        if re.search(r"(?i)(?<![\w.])in(?![\w])", _blank_strings(head)):
            new_head = self.expr(head)
        else:
            new_head = self.filters(head)
        parts = self._parts(chain, allow_trigger=False)
        for p in parts:
            self.part(chain, p)
        return new_head + "=>" + self._join(chain, parts)
