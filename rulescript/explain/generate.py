"""Plain-English card text generated from compiled rules (the IR), with the facts the rules state.

Every word comes from the profile's ``card_text`` section: templates for commands, costs, abilities,
events, hooks, restrictions, guards and rule keys, and the words of filters, zones, piles and
expressions.  The generator only walks the IR (docs/ir.md) and fills the templates in; it never reads
rule source text, except an expression's own text where no template says it better.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rulescript.compiler.profile import Profile
from rulescript.explain.facts import Fact, number

CMP_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
             ">=": "is at least", "in": "is in", "not in": "is not in"}
BIN_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "//": "divided by", "%": "modulo"}


@dataclass(slots=True)
class Phrase:
    text: str
    plural: bool = False
    selects: str = "card"  # card | player | mixed


@dataclass(slots=True)
class RuleText:
    rule_id: str
    src: tuple[str, int, int]
    sentences: list[str] = field(default_factory=list)
    facts: set[Fact] = field(default_factory=set)

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip().rstrip(";,")
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _pair(entry: Any, plural: bool) -> str:
    """A noun (or adjective pair) given as a string or [singular, plural] / [yes, no]."""
    if isinstance(entry, (list, tuple)):
        return str(entry[1 if plural and len(entry) > 1 else 0])
    return str(entry)


class Generator:
    """Text and facts for the rules of one game (one profile and its card table)."""

    def __init__(self, profile: Profile, cards: dict[str, dict[str, Any]] | None = None) -> None:
        self.profile = profile
        self.t: dict[str, Any] = dict(profile.raw.get("card_text") or {})
        self.cards = cards or {}
        self.card: dict[str, Any] = {}
        self.card_type = ""
        self.facts: set[Fact] = set()
        self.collect = True  # facts are gathered from effects, not from conditions or costs
        self.mentioned: set[str] = set()  # target phrases already written in full in this rule
        self.command_texts = {str(k).lower(): v for k, v in self.section("commands").items()}

    # ---------------------------------------------------------------- words
    def section(self, name: str) -> dict[str, Any]:
        return self.t.get(name) or {}

    def this(self) -> str:
        words = self.section("this")
        return str(words.get(self.card_type, words.get("default", "this card")))

    def number(self, n: int) -> str:
        """A small count in words ("two"), as card text writes it, when the profile gives the words."""
        words = self.t.get("number_words") or []
        return str(words[n]) if 0 <= n < len(words) else str(n)

    def fill(self, template: str, **values: Any) -> str:
        values.setdefault("this", self.this())

        def one(m: re.Match[str]) -> str:
            key = m.group(1)
            return str(values.get(key, m.group(0)))
        return re.sub(r"\{(\w+)\}", one, template)

    # ---------------------------------------------------------------- expressions
    def expr(self, x: Any) -> str:
        if isinstance(x, dict) and "e" in x:
            return self.node(x["e"], x.get("text", ""))
        return self.node(x, "")

    def node(self, n: Any, text: str = "") -> str:
        if not isinstance(n, (list, tuple)) or not n:
            return str(n)
        op = n[0]
        if op == "lit":
            v = n[1]
            return "nothing" if v is None else f"“{v}”" if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)
        if op in ("name", "var"):
            return self.fill(str(self.section("names").get(n[1], n[1])))
        if op == "attr":
            words = self.section("attributes")
            owner = self.node(n[1])
            owner = {"you": "your"}.get(owner, owner + ("'" if owner.endswith("s") else "'s"))
            return f"{owner} {words.get(n[2], n[2])}"
        if op == "index":
            nth = ("first", "second", "third", "fourth")[n[2]] if 0 <= n[2] < 4 else f"number {n[2] + 1}"
            return f"the {nth} of {self.node(n[1])}"
        if op == "list":
            return ", ".join(self.node(x) for x in n[1]) or "nothing"
        if op == "call":
            tmpl = self.section("functions").get(n[1])
            args = [self.node(a) for a in n[2]]
            if tmpl:
                return self.fill(str(tmpl), **{str(i): a for i, a in enumerate(args)})
            return f"{n[1]}({', '.join(args)})"
        if op == "filter_call":
            return " or ".join(self.filter_phrase(f, collect=False).text for f in n[2])
        if op == "bin" and n[1] == "+" and self._is_text(n):
            return "“" + "".join(self._pieces(n)) + "”"
        if op == "bin":
            return f"{self.node(n[2])} {BIN_WORDS.get(n[1], n[1])} {self.node(n[3])}"
        if op == "neg":
            inner = self.node(n[1])
            return "-" + inner if inner.isdigit() else f"minus {inner}"
        if op == "pos":
            return self.node(n[1])
        if op == "cmp":
            parts = [self.node(n[1][0])]
            for o, y in zip(n[2], n[1][1:]):
                parts.append(f"{CMP_WORDS.get(o, o)} {self.node(y)}")
            return " ".join(parts)
        if op in ("and", "or"):
            return f"{self.node(n[1])} {op} {self.node(n[2])}"
        if op == "not":
            return f"not ({self.node(n[1])})"
        if op == "if":
            return f"{self.node(n[2])} if {self.node(n[1])}, else {self.node(n[3])}"
        if op in ("qall", "qany"):
            return f"{'every' if op == 'qall' else 'some'} card of {self.node(n[2])} has {self.node(n[1])}"
        return f"`{text}`" if text else str(op)

    def _is_text(self, n: Any) -> bool:
        """Whether a sum is a text: one of its terms is a string literal."""
        if isinstance(n, (list, tuple)) and n and n[0] == "bin" and n[1] == "+":
            return self._is_text(n[2]) or self._is_text(n[3])
        return isinstance(n, (list, tuple)) and len(n) > 1 and n[0] == "lit" and isinstance(n[1], str)

    def _pieces(self, n: Any) -> list[str]:
        """The parts of a text sum: literal text as it is, anything else in words."""
        if isinstance(n, (list, tuple)) and n and n[0] == "bin" and n[1] == "+":
            return self._pieces(n[2]) + self._pieces(n[3])
        if isinstance(n, (list, tuple)) and n and n[0] == "lit" and isinstance(n[1], str):
            return [n[1]]
        if isinstance(n, (list, tuple)) and n and n[0] == "call" and n[1] == "str" and len(n[2]) == 1:
            n = n[2][0]
        return ["[" + self.node(n) + "]"]

    @staticmethod
    def literal(x: Any) -> int | None:
        """The integer an argument expression stands for, when it is a literal (with a sign)."""
        n = x.get("e") if isinstance(x, dict) else x
        sign = 1
        while isinstance(n, (list, tuple)) and n and n[0] in ("pos", "neg"):
            sign = -sign if n[0] == "neg" else sign
            n = n[1]
        if isinstance(n, (list, tuple)) and n and n[0] == "lit" and isinstance(n[1], int) and not isinstance(n[1], bool):
            return sign * n[1]
        return None

    # ---------------------------------------------------------------- filters (what a rule acts on)
    def filter_phrase(self, f: dict[str, Any], collect: bool = True) -> Phrase:
        words = self.section
        qty = f.get("qty") or {"mode": "all"}
        plural = bool(f.get("plural"))
        if qty.get("mode") == "choose":
            plural = (qty.get("max") or 2) > 1
        elif qty.get("mode") == "random":
            plural = qty.get("n", 1) > 1
        else:
            plural = False  # "each X"
        nouns, pronoun = [], None
        for group in f.get("types") or []:
            parts, adjectives = [], []
            for term in group:
                t, v = term.get("t"), term.get("v")
                if t == "kw":
                    entry = words("type_keywords").get(v, v)
                    text = self.fill(_pair(entry, plural))
                    if not isinstance(entry, list):
                        pronoun = text
                    parts.append(text)
                elif t == "ctype":
                    parts.append(_pair(words("card_types").get(v, v), plural))
                elif t == "subtype":
                    adjectives.append(str(v).title())
                elif t == "name":
                    parts.append(f"“{v}”")
                else:
                    parts.append(_pair(words("type_keywords").get("all", ["card", "cards"]), plural))
                if term.get("not"):
                    parts[-1:] = ["non-" + parts[-1]] if parts else []
                if term.get("notself"):
                    adjectives.insert(0, "other")
            if adjectives and not parts:
                subtype_of = self.profile.subtype_of or ""
                parts.append(_pair(words("card_types").get(subtype_of, subtype_of), plural))
            nouns.append(" ".join(adjectives + parts))
        noun = " or ".join(n for n in nouns if n) or _pair(words("type_keywords").get("all", ["card", "cards"]), plural)
        before, after = [], []
        for alternative in (f.get("block") or [])[:1]:
            for atom in alternative:
                a = atom.get("a")
                if a == "word":
                    before.append(_pair(words("filter_words").get(atom["w"], atom["w"]), bool(atom.get("neg"))) if
                                  isinstance(words("filter_words").get(atom["w"]), list) else
                                  ("not " if atom.get("neg") else "") + str(words("filter_words").get(atom["w"], atom["w"])))
                elif a in ("ctype", "subtype"):
                    before.append(("non-" if atom.get("neg") else "") + str(atom["w"]).title())
                elif a == "cmp":
                    stat = words("stats").get(atom["stat"], atom["stat"].upper())
                    tmpl = words("comparisons").get(atom["op"], "with {stat} {op} {v}")
                    after.append(self.fill(str(tmpl), stat=stat, v=atom["v"], op=atom["op"]))
                elif a == "ext":
                    stat = words("stats").get(atom["stat"], atom["stat"].upper())
                    after.append(self.fill(str(words("extremes").get(atom["w"], "with the {w} {stat}")), stat=stat,
                                           w=atom["w"]))
        zone = f.get("zone") or {}
        side = None
        if zone and (f.get("zone_written") or zone.get("z") != self.profile.default_zone):
            z, p = zone.get("z"), zone.get("p")
            entry = words("zones").get(z) or {}
            if isinstance(entry, dict) and entry:
                text = entry.get(p) or next(iter(entry.values()))
                after.insert(0, self.fill(str(text)))
            if (self.profile.zones.get(z) or {}).get("prefixes", True):
                side = (words("zone_sides") or {}).get(p)
        if pronoun is not None and len(nouns) == 1 and not before and not after:
            phrase = pronoun
        else:
            phrase = " ".join(before + [noun] + after)
            mode = qty.get("mode")
            q = words("quantities")
            if mode == "all":
                phrase = f"{q.get('all', 'each')} {phrase}" if f.get("plural") else phrase
            elif mode == "random":
                n = qty.get("n", 1)
                phrase = self.fill(str(q.get("random" if n == 1 else "randoms", "{n} random")), n=n) + " " + phrase
            elif mode == "choose":
                lo, hi = qty.get("min", 1), qty.get("max")
                if lo == hi == 1:
                    phrase = f"{q.get('one', 'target')} {phrase}"
                elif hi is None or not lo:
                    phrase = self.fill(str(q.get("upto", "up to {max}")),
                                       max=self.number(hi) if hi is not None else "any number of") + " " + phrase
                elif lo == hi:
                    phrase = self.fill(str(q.get("exactly", "{n}")), n=self.number(lo)) + " " + phrase
                else:
                    key = "pair" if hi == lo + 1 and "pair" in q else "range"
                    phrase = self.fill(str(q.get(key, "{min} to {max}")), min=self.number(lo), max=self.number(hi)) + " " + phrase
        sel = f.get("selector")
        if sel:
            tmpl = (words("selectors") or {}).get(sel.get("s"), "({s}: {x})")
            phrase += " " + self.fill(str(tmpl), s=sel.get("s"), x=self.expr(sel.get("x")))
        if collect and self.collect:
            self._who_facts(f, side, pronoun)
        return Phrase(phrase.strip(), plural, str(f.get("selects", "card")))

    def _who_facts(self, f: dict[str, Any], side: str | None, pronoun: str | None) -> None:
        for group in f.get("types") or []:
            for term in group:
                if term.get("t") == "kw" and term.get("v") in ("opp",):
                    side = "enemy"
        if side:
            self.facts.add(Fact("side", side))
        qty = f.get("qty") or {}
        mode = qty.get("mode")
        if pronoun is not None:
            return
        if mode == "all" and f.get("plural"):
            self.facts.add(Fact("quantity", "all"))
        elif mode == "random":
            self.facts.add(Fact("quantity", "random"))
        elif mode == "choose" and qty.get("max") == 1:
            self.facts.add(Fact("quantity", "one"))
        elif mode == "choose":
            hi = qty.get("max")
            label = "upto" if hi is None or not qty.get("min") else "range"
            self.facts.add(Fact("quantity", label, "" if hi is None else str(hi)))

    def clause_phrase(self, clause: dict[str, Any] | None, default: str, rule_target: Phrase | None) -> Phrase:
        if clause:
            if "expr" in clause:
                return Phrase(self.expr(clause["expr"]))
            phrases = [self.filter_phrase(f) for f in clause.get("filters") or []]
            text = " and ".join(p.text for p in phrases)
            return Phrase(text + (" (if any)" if clause.get("opt") else ""), any(p.plural for p in phrases))
        if rule_target is not None and (default == "card" or (default == "player" and rule_target.selects != "card")):
            return self.again(rule_target)
        if default == "player":
            return Phrase(str(self.t.get("you", "you")), selects="player")
        if default == "card" or rule_target is None:
            return Phrase(self.this())
        return self.again(rule_target)

    def again(self, phrase: Phrase) -> Phrase:
        """The rule's target: in full the first time, then "it" or "them"."""
        if phrase.text in self.mentioned and phrase.selects == "card":
            return Phrase("them" if phrase.plural else "it", phrase.plural, phrase.selects)
        self.mentioned.add(phrase.text)
        return phrase

    # ---------------------------------------------------------------- commands and effects
    def arg(self, kind: str, value: Any, counts: str | None) -> str:
        words = self.section
        if kind == "int" and counts == "cost" and isinstance(value, int):
            if self.collect:
                self.facts.add(number(counts, abs(value)))
            return f" {abs(value)} SP {'less' if value >= 0 else 'more'}"
        if kind in ("int", "num"):
            n = value if isinstance(value, int) else self.literal(value)
            if counts and self.collect:
                label = counts
                if n is not None and n < 0 and counts in ("hp", "sp"):
                    label, n = counts + "lost", -n
                self.facts.add(number(label, "?" if n is None else n))
            return str(n) if n is not None else self.expr(value)
        if kind == "bpval" and isinstance(value, dict):
            op = value.get("op")
            n = self.literal(value.get("x")) if "x" in value else value.get("n")
            canon = {"add": f"{'+' if (n or 0) >= 0 else '-'}{abs(n or 0)}", "mul": f"x{n}", "set": f"={n}"}.get(op, "?")
            if n is None:
                canon = "?"
            if counts and self.collect:
                self.facts.add(number(counts, canon))
            if op == "mul":
                return "double BP" if n == 2 else f"×{n} BP"
            if op == "set":
                return f"BP {n if n is not None else self.expr(value.get('x'))} (set)"
            return f"{canon} BP" if n is not None else f"BP plus {self.expr(value.get('x'))}"
        if kind in ("spval", "costval") and isinstance(value, dict):
            n = self.literal(value.get("x")) if "x" in value else value.get("n")
            if kind == "costval":
                if counts and self.collect and n is not None:
                    self.facts.add(number(counts, abs(n)))
                if value.get("op") == "set":
                    return f" exactly {n} SP"
                return f" {abs(n or 0)} SP {'less' if (n or 0) >= 0 else 'more'}"
            if counts and self.collect:
                label = counts + "lost" if n is not None and n < 0 else counts
                self.facts.add(number(label, "?" if n is None else (f"={n}" if value.get("op") == "set" else abs(n))))
            if value.get("op") == "set":
                return f"SP set to {n}"
            return f"{n} SP" if n is not None else f"{self.expr(value.get('x'))} SP"
        if kind == "pile" and isinstance(value, dict):
            entry = words("piles").get(value.get("pile")) or {}
            return self.fill(str(entry.get(value.get("owner"), value.get("pile"))))
        if kind == "pos" and isinstance(value, dict):
            pos = value.get("pos")
            return "on top" if pos == 0 else "at the bottom" if pos == -1 else "where you choose" if pos == "choose" else f"at position {pos}"
        if kind == "flag":
            return "" if value is True else "not" if value is False else "toggling"
        if kind == "word":
            return str(words("game_rules").get(value, value))
        if kind == "model" and isinstance(value, dict):
            if "model" in value:
                return f"“{(self.cards.get(value['model']) or {}).get('name', value['model'])}”"
            return self.expr(value.get("x"))
        if kind == "count_or_filter" and isinstance(value, dict):
            if "count" in value:
                n = value["count"]
                if counts and self.collect:
                    self.facts.add(number(counts, n))
                return "a card" if n == 1 else f"{n} cards"
            filters = value.get("filters") or []
            for f in filters:
                qty = f.get("qty") or {}
                n = qty.get("n") if qty.get("mode") == "random" else qty.get("max") if qty.get("mode") == "choose" and qty.get("min") == qty.get("max") else None
                if counts and self.collect and n:
                    self.facts.add(number(counts, n))
            return " or ".join(self.filter_phrase(f, collect=False).text for f in filters)
        if kind == "filter" and isinstance(value, dict):
            return " or ".join(self.filter_phrase(f, collect=False).text for f in value.get("filters") or [])
        if kind == "each" and isinstance(value, dict):
            if value.get("form") == "filter":
                over = " or ".join(self.filter_phrase(f, collect=False).text for f in value.get("filters") or [])
            else:
                over = self.node(value.get("seq"))
            chain = self.effects(value.get("chain") or [], Phrase("it"))
            return f"for each {over}: {chain}"
        if kind in ("text", "value", "card"):
            return self.expr(value)
        return str(value)

    def command(self, eff: dict[str, Any], targets: Phrase) -> str:
        name = eff["cmd"]
        spec = self.profile.commands.get(name)
        entry = self.command_texts.get(name) or {}
        entry = {"text": entry} if isinstance(entry, str) else entry
        counts = entry.get("counts")
        if counts and self.collect and spec is not None:
            # a count that the command takes by default (draw() draws 1)
            kinds = [p.kind for p in spec.params]
            if kinds and kinds[0] in ("num", "int", "count_or_filter") and not eff.get("args"):
                self.facts.add(number(counts, 1))
        if entry.get("keyword") and self.collect:
            self.facts.add(Fact("keyword", str(entry["keyword"])))
        raw_args = eff.get("args") or []
        if self.collect and entry.get("toggle_keyword") and any(a in (True, "toggle") for a in raw_args):
            self.facts.add(Fact("keyword", str(entry["toggle_keyword"])))
        by_arg = entry.get("keywords_by_arg") or {}
        if self.collect and raw_args and isinstance(raw_args[0], str) and raw_args[0] in by_arg:
            self.facts.add(Fact("keyword", str(by_arg[raw_args[0]])))
        params = spec.params if spec else ()
        args: dict[str, str] = {}
        for i, value in enumerate(eff.get("args") or []):
            kind = params[i].kind if i < len(params) else "value"
            args[str(i)] = self.arg(kind, value, counts if i == 0 or kind in ("costval", "int") else None)
            args[f"{i}:card"] = self._count_noun(value)
        for i in range(len(eff.get("args") or []), len(params)):
            args.setdefault(str(i), "a card" if params[i].kind == "count_or_filter" else "")
            args.setdefault(f"{i}:card", "a card")
        tmpl = str(entry.get("text") or (spec.doc if spec else name))
        text = targets.text
        you = str(self.t.get("you", "you"))
        s = "" if targets.plural or text == you else "s"
        be = "are" if targets.plural or text == you else "is"
        if tmpl.startswith("{targets} ") and text == you:
            tmpl = tmpl[len("{targets} "):]
        out = re.sub(r"\{(\d+:card|\d+|targets|s|is|this)\}",
                     lambda m: {"targets": text, "s": s, "is": be, "this": self.this()}.get(m.group(1), args.get(m.group(1), "")),
                     tmpl)
        return ("maybe " if eff.get("ask") else "") + out

    def _count_noun(self, value: Any) -> str:
        n = value if isinstance(value, int) else self.literal(value)
        if n is None:
            return f"{self.expr(value)} cards"
        return "a card" if n == 1 else f"{n} cards"

    def ability_effect(self, eff: dict[str, Any], holder: Phrase) -> str:
        name = eff["ability"]
        entry = self.section("abilities").get(name) or {}
        entry = {"text": entry} if isinstance(entry, str) else entry
        if entry.get("keyword") and self.collect:  # gained or lost, the rule names the keyword
            self.facts.add(Fact("keyword", str(entry["keyword"])))
        subject = {"them": "they"}.get(holder.text, holder.text)
        plural = holder.plural or subject in ("they", str(self.t.get("you", "you")))
        verbs = {"s": "" if plural else "s", "is": "are" if plural else "is", "does": "do" if plural else "does"}
        if eff.get("sign", "+") == "+":
            return self.fill(str(entry.get("text") or "{holder} gains " + name), holder=subject, **verbs)
        lost = self.fill(str(entry.get("text") or name), holder="it", s="s", **{"is": "is", "does": "does"})
        return f"{subject} lose{verbs['s']} “{lost}”"

    def effects(self, items: list[dict[str, Any]], targets: Phrase) -> str:
        joins = {"&": ", and ", "&&": ", then ", "||": ", or else "}
        out = ""
        for i, item in enumerate(items):
            eff = item.get("eff") or item
            if i == 1:
                self.mentioned.add(targets.text)
                targets = self.again(targets)
            text = self.command(eff, targets) if "cmd" in eff else self.ability_effect(eff, targets)
            out += (joins.get(item.get("op"), "") if out else "") + text
        return out

    def body(self, body: dict[str, Any] | None, default_target: Phrase | None) -> str:
        if not body:
            return ""
        effects = body.get("effects") or []
        first = (effects[0].get("eff") or {}) if effects else {}
        spec = self.profile.commands.get(first.get("cmd", "")) if "cmd" in first else None
        default = spec.default if spec else ("card" if "ability" in first else "none")
        targets = self.clause_phrase(body.get("clause"), default, default_target)
        text = self.effects(effects, targets)
        restr = body.get("restr")
        if restr:
            text += " " + str(self.section("restrictions").get(restr, restr))
        return text

    def statement(self, stmt: dict[str, Any], target: Phrase | None) -> str:
        guards = self.section("guards")
        kind = stmt.get("kind")
        branches = stmt.get("branches") or []
        if kind == "may":
            return self.fill(str(guards.get("may", "you may {body}")), body=self.body(branches[0].get("body"), target))
        if kind == "if":
            parts = []
            for br in branches:
                self.collect = False
                cond = self.expr(br["cond"]) if br.get("cond") else None
                self.collect = True
                body = self.body(br.get("body"), target) if br.get("body") else ""
                if cond is None:
                    parts.append(self.fill(str(guards.get("else", "otherwise, {body}")), body=body))
                elif body:
                    parts.append(self.fill(str(guards.get("if", "if {cond}, {body}")), cond=cond, body=body))
                else:
                    parts.append(f"only if {cond}")
            return "; ".join(parts)
        return self.body(branches[0].get("body") if branches else None, target)

    def statements(self, stmts: list[dict[str, Any]], target: Phrase | None) -> str:
        return "; ".join(t for t in (self.statement(s, target) for s in stmts) if t)

    # ---------------------------------------------------------------- whole rules
    def costs(self, costs: list[dict[str, Any]]) -> str:
        words = self.section("costs")
        out = []
        self.collect = False
        for c in costs:
            entry = words.get(c.get("cost")) or {}
            entry = {"text": entry} if isinstance(entry, str) else entry
            if "filter" in c:
                what = self.filter_phrase(c["filter"], collect=False).text
            elif "count" in c:
                what = "a card" if c["count"] == 1 else f"{c['count']} cards"
            else:
                what = "a card" if c.get("cost") == "D" else self.this()
            out.append(self.fill(str(entry.get("text", c.get("cost"))), **{"0": what}))
        self.collect = True
        return " and ".join(out)

    def event(self, ev: dict[str, Any]) -> str:
        name = ev.get("event", "")
        table = self.section("hooks" if ev.get("hook") else "events")
        tmpl = str(table.get(name) or f"on {name}")
        prefix = ev.get("prefix", "")
        groups = ev.get("groups") or {}
        obj = self.fill(str(self.section("event_objects").get(groups.get("object", "this"), "{this}")))
        if self.collect:
            self.facts.add(Fact("trigger", name))
        return self.fill(tmpl, of=self.section("event_prefixes").get(prefix, ""),
                         whose=self.section("event_whose").get(prefix, "a"), object=obj, cond="the rule allows it")

    def rule_keys(self, keys: dict[str, Any]) -> str:
        words = self.section("rule_keys")
        out = []
        for k, v in keys.items():
            tmpl = words.get(k)
            if not tmpl:
                continue
            if isinstance(v, list) and v and isinstance(v[0], dict) and "qty" in v[0]:
                value = " or ".join(self.filter_phrase(f, collect=False).text for f in v)
            elif isinstance(v, dict) and "e" in v:
                value = self.expr(v)
            elif isinstance(v, list):
                value = ", ".join(str(x) for x in v)
            else:
                value = str(v)
            out.append(self.fill(str(tmpl), value=value))
        return ", ".join(x for x in out if x)

    def rule(self, ir: dict[str, Any], card: dict[str, Any] | None = None) -> RuleText:
        self.card = card or self.cards.get(ir["id"]) or {}
        self.card_type = str(self.card.get("type", "")).lower()
        self.facts = set()
        self.mentioned = set()
        src = ir.get("src") or ["", 1, 1]
        out = RuleText(ir["id"], (str(src[0]), int(src[1]), int(src[2])))
        for name in ir.get("abilities") or []:
            out.sentences.append(_sentence(self.ability_effect({"ability": name, "sign": "+"}, Phrase(self.this()))))
        head = self.rule_keys(ir.get("keys") or {})
        target = None
        if ir.get("target"):
            phrases = [self.filter_phrase(f) for f in ir["target"].get("filters") or []]
            target = Phrase(" and ".join(p.text for p in phrases) + (" (if any)" if ir["target"].get("optional") else ""),
                            any(p.plural for p in phrases))
        if ir.get("requisite"):
            self.collect = False
            need = " and ".join(self.filter_phrase(f).text for f in ir["requisite"])
            self.collect = True
            out.sentences.append(_sentence(self.fill(str(self.section("guards").get("requisite", "play only if {cond}")),
                                                     cond=f"there is {need}")))
        ability = self.card.get("ability")
        kind = str(ability.get("kind", "")).lower() if isinstance(ability, dict) else ""
        lead_words = self.section("actions")
        for action in ir.get("actions") or []:
            lead = self.fill(str(lead_words.get(kind, lead_words.get("default", ""))))
            costs = self.costs(action.get("costs") or [])
            text = self.statements(action.get("stmts") or [], target)
            label = action.get("label")
            pieces = (f"{label}: " if label else "") + (f"{head}: " if head else "") + lead + (f"{costs}: " if costs else "")
            out.sentences.append(_sentence(pieces + (text if text else "nothing happens")))
        auto = ir.get("auto")
        if auto:
            events = " or ".join(self.event(e) for e in auto.get("events") or [])
            text = self.statements(auto.get("stmts") or [], target)
            if events:
                text = f"{events}, {text}"
            elif auto.get("static"):
                text = f"while {self.this()} is in play, {text}"
            out.sentences.append(_sentence((f"{head}: " if head else "") + text))
        elif head and not ir.get("actions"):
            out.sentences.append(_sentence(head))
        out.facts = set(self.facts)
        return out
