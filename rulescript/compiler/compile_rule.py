"""Checking one rule section (its properties, costs, triggers, statements and command arguments) against
the profile and lowering it to IR.  See ``docs/ir.md`` for the IR format."""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from rulescript.compiler.compile_filter import FilterCompiler
from rulescript.compiler.context import Abort, Ctx
from rulescript.diagnostics import Span, did_you_mean
from rulescript.compiler.ini import Property, Section
from rulescript.compiler.lexer import CLAUSE_WORDS, LexError, Tok, find_top_level, split_top_level
from rulescript.compiler.parser import (Item, OutlineBody, OutlineStatement, parse_each_head, parse_vars, read_action,
                               read_auto, read_chain)
from rulescript.compiler.profile import CommandSpec, Profile

IR = Any
KEYS = ("target", "target?", "action", "label", "abilities", "auto", "requisite", "vars")
_KEY_SET = frozenset(KEYS)
REPEATABLE = frozenset({"action", "label"})
_COST_RE = re.compile(r"^\s*([A-Za-z])\s*(?:\((.*)\))?\s*$", re.S)
_INT_RE = re.compile(r"^\s*([+-]?\d{1,15})\s*$")
_MUL_RE = re.compile(r"^\s*[xX]\s*(\d{1,15})\s*$")
_WORD_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*$")


_MARK_SCAN = re.compile(r"[;,@.\[\](){}'\"]")
# matches when the first of those marks is a filter mark (one of ;,@[)
_FILTER_HEAD = re.compile(r"[^;,@.\[\](){}'\"]*[;,@\[]").match
# every spelling of a clause word (the lexer accepts any case) -> the word: a lookup instead of lower()
_CLAUSE_KINDS = {"".join(letters): word for word in CLAUSE_WORDS
                 for letters in product(*[(c, c.upper()) for c in word])}
_EACH_IN = re.compile(r"(?i)(?:^|[\s)\]])in(?:[\s(\[]|$)")
_IN_SCAN = re.compile(r"(?i)[()\[\]'\"]|\bin\b")  # what decides whether a word 'in' is at the top level


def _top_level_shape(text: str) -> str:
    """'filter' when one of ``;,@[`` occurs outside brackets and quotes, else 'dotted' when a '.' does,
    else 'plain' (one pass, which stops at the first filter mark)."""
    dotted = False
    depth = 0
    search = _MARK_SCAN.search
    m = search(text)
    while m is not None:
        ch = m.group()
        i = m.start()
        if ch == "'" or ch == '"':
            j = text.find(ch, i + 1)
            if j < 0:  # an unterminated quote hides the rest
                break
            m = search(text, j + 1)
            continue
        if ch == "[":
            if depth == 0:
                return "filter"
            depth += 1
        elif ch == "(" or ch == "{":
            depth += 1
        elif ch == ")" or ch == "]" or ch == "}":
            depth -= 1
        elif depth == 0:
            if ch != ".":
                return "filter"
            dotted = True
        m = search(text, i + 1)
    return "dotted" if dotted else "plain"


class _Tables:
    """Lookups derived from a profile, built once per profile (see :func:`_tables`)."""

    def __init__(self, prof: Profile) -> None:
        # the names a plain clause target denotes as an expression: lists, cards and players
        # (user variables aside, which the rule declares)
        self.target_names = frozenset(low for low, spec in prof.names.items() if low not in prof.type_keywords
                                      and str(spec.get("type", "")).rstrip("?") in ("list", "card", "player"))
        # a command's (lower-case name, spec) by its lower-case and its canonical spelling: the commonest
        # spellings are found without lowering the written name
        spellings: dict[str, tuple[str, CommandSpec]] = {low: (low, spec) for low, spec in prof.commands.items()}
        for low, spec in prof.commands.items():
            if spec.name.lower() == low:  # (what name.lower() would find)
                spellings.setdefault(spec.name, (low, spec))
        self.command_spellings = spellings
        # (group, suffix) of the event suffixes that are a group's default, in profile order
        self.default_groups = [(sspec["group"], s) for s, sspec in prof.event_suffixes.items()
                               if sspec.get("default") and sspec.get("group")]
        # the groups of an event without suffixes (filled as _events fills them)
        self.default_group_map: dict[str, str] = {}
        for group, s in self.default_groups:
            if group not in self.default_group_map:
                self.default_group_map[str(group)] = s


_TABLES: dict[int, tuple[Profile, _Tables]] = {}


def _tables(prof: Profile) -> _Tables:
    """The :class:`_Tables` of ``prof`` (memoised by identity: a loaded profile does not change)."""
    memo = _TABLES.get(id(prof))
    if memo is None or memo[0] is not prof:
        memo = _TABLES[id(prof)] = (prof, _Tables(prof))
    return memo[1]


class RuleCompiler:
    """Compiles sections; one instance per (profile, card database, diagnostics bag)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        # ctx.used, the coverage sets: marks are added to them directly (one Python call less per mark
        # than ctx.mark, which does the same)
        self.used = ctx.used
        self.filters = FilterCompiler(ctx)
        self.exprs = self.filters.exprs
        self.tables = _tables(ctx.profile)
        self.type_keywords = ctx.profile.type_keywords
        self.commands = ctx.profile.commands
        self.command_spellings = self.tables.command_spellings

    # ------------------------------------------------------------------------------------------
    def section(self, section: Section) -> IR | None:
        ctx = self.ctx
        bag = ctx.bag
        items_before = len(bag.items)
        first: dict[str, Property] = {}
        actions: list[Property] = []
        labels: list[Property] = []
        own_keys: list[Property] = []
        for prop in section.properties:
            key = prop.key
            if key == "action":  # the commonest keys first
                actions.append(prop)
            elif key == "label":
                labels.append(prop)
            elif key in ctx.profile.rule_keys:
                own_keys.append(prop)
            elif key not in _KEY_SET:
                bag.error("RS202", f"unknown key '{prop.raw_key}'", prop.key_span,
                          self._suggest(prop.raw_key, KEYS + tuple(ctx.profile.rule_keys)) or ("card data belongs in the card database (cards.yaml)",))
            else:
                canon = "target" if key == "target?" else key
                if canon in first:
                    bag.warning("RS901", f"repeated key '{prop.raw_key}' is ignored; only the first one counts",
                                prop.key_span, (f"first given at line {first[canon].key_span.line}",))
                else:
                    first[canon] = prop
        if ctx.user_vars:  # (the variables of the previous rule)
            ctx.user_vars = {}
        guard = self._guard
        vars_ir: IR = []
        target_ir: IR = None
        requisite_ir: IR = None
        abilities_ir: IR = []
        auto_ir: IR = None
        if first:
            # vars first: every later expression may use them
            if "vars" in first:
                vars_ir = guard(first["vars"], self._vars) or []
            if "target" in first:
                target_ir = guard(first["target"], self._target)
            if "requisite" in first:
                requisite_ir = guard(first["requisite"], self._requisite)
            if "abilities" in first:
                abilities_ir = guard(first["abilities"], self._abilities) or []
        actions_ir = []
        for i, prop in enumerate(actions):
            compiled = guard(prop, self._action)
            if compiled is not None:
                compiled["label"] = self._label(labels[i]) if i < len(labels) else None
                actions_ir.append(compiled)
        if labels:
            for extra in labels[len(actions):]:
                bag.warning("RS903", "this label has no action: there are more labels than actions", extra.key_span)
            self.used["keys"].add("label")
        if "auto" in first:
            auto_ir = guard(first["auto"], self._auto)
        keys_ir = self._rule_keys(own_keys, len(actions)) if own_keys else None
        if not actions and "auto" not in first and "abilities" not in first and not own_keys:
            bag.warning("RS906", f"rule '{section.raw_id}' has no action, auto or abilities: it does nothing",
                        section.span)
        if "requisite" in first and not actions:
            bag.warning("RS907", "a requisite without an action is never checked (autos do not check requisites)",
                        first["requisite"].key_span)
        items = bag.items
        if len(items) != items_before:
            for k in range(items_before, len(items)):
                if items[k].severity == "error":
                    return None
        span = section.span
        rule = {"id": section.rule_id, "src": [span.file, span.line, span.col], "vars": vars_ir, "target": target_ir,
                "requisite": requisite_ir, "abilities": abilities_ir, "actions": actions_ir, "auto": auto_ir}
        if keys_ir:
            rule["keys"] = keys_ir
        return rule

    def _rule_keys(self, props: list[Property], n_actions: int) -> IR:
        """The profile's own rule keys (``rule_keys:``): each value checked against its kind and lowered to
        a plain value; a repeating key gives a list (paired with the actions by position, like labels)."""
        specs = self.ctx.profile.rule_keys
        bag = self.ctx.bag
        out: dict[str, Any] = {}
        for prop in props:
            spec = specs[prop.key]
            value = self._guard(prop, lambda p: self._rule_key_value(p, spec))
            if value is None:
                continue
            if spec.get("repeat"):
                out.setdefault(prop.key, []).append(value)
            elif prop.key in out:
                bag.warning("RS901", f"repeated key '{prop.raw_key}' is ignored; only the first one counts",
                            prop.key_span)
            else:
                out[prop.key] = value
        for key, values in out.items():
            if specs[key].get("repeat") and specs[key].get("per_action") and len(values) > max(n_actions, 1):
                bag.warning("RS903", f"more '{key}' keys than actions", props[-1].key_span)
        return out

    def _rule_key_value(self, prop: Property, spec: dict[str, Any]) -> Any:
        ctx = self.ctx
        text = prop.value.text
        stripped = text.strip()
        lead = len(text) - len(text.lstrip())
        kind = spec["kind"]
        if kind == "filter":
            return self.filters.filters(text, 0)
        if kind == "expr":
            return self.exprs.compile_as(text, 0, len(text), "value", f"{prop.raw_key} = expression")
        if kind == "int":
            try:
                return int(stripped)
            except ValueError:
                raise ctx.fail("RS302", f"'{prop.raw_key}' takes an integer, not '{stripped}'", lead,
                               lead + len(stripped)) from None
        if kind == "text":
            written = len(stripped)  # the error spans the value as written, its quotes too
            if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "'\"":
                stripped = stripped[1:-1]
            regex = spec.get("regex")
            if regex is not None and not regex.fullmatch(stripped):
                raise ctx.fail("RS302", f"'{stripped}' is not a valid value of '{prop.raw_key}'", lead,
                               lead + written, (f"expected: {spec.get('doc') or spec.get('pattern')}",))
            return stripped
        words = []
        pos = 0
        for part in text.split(",") if kind == "words" else [text]:
            word = part.strip()
            start = pos + len(part) - len(part.lstrip())
            pos += len(part) + 1
            low = word.lower()
            if low not in spec["values"]:
                raise ctx.unknown("RS210", f"value of '{prop.raw_key}'", word, spec["values"], start,
                                  start + max(1, len(word)))
            words.append(low)
        return words if kind == "words" else words[0]

    def _guard(self, prop: Property, fn: Any) -> Any:
        """``fn(prop)`` with ``prop`` as the current value, or None when it reported an error."""
        ctx = self.ctx
        value = prop.value
        pieces = value.pieces
        if len(pieces) == 1:  # ctx.enter(value), inline for a value on one line (the commonest case)
            ctx.value = value
            _, ctx.line, ctx.col = pieces[0]
        else:
            ctx.enter(value)
        self.used["keys"].add(prop.key)
        try:
            return fn(prop)
        except Abort:
            return None

    @staticmethod
    def _suggest(name: str, known: Any) -> tuple[str, ...]:
        return did_you_mean(name, known)

    # properties --------------------------------------------------------------------------------
    def _target(self, prop: Property) -> IR:
        return {"filters": self.filters.filters(prop.value.text, 0), "optional": prop.key == "target?"}

    def _requisite(self, prop: Property) -> IR:
        return self.filters.requisite(prop.value.text, 0)

    def _label(self, prop: Property) -> str:
        text = prop.value.text.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
        return text

    def _vars(self, prop: Property) -> IR:
        ctx = self.ctx
        try:
            decls = parse_vars(prop.value.text, 0)
        except LexError as exc:
            raise ctx.lex_error(exc) from None
        out = []
        for name_tok, node in decls:
            low = str(name_tok).lower()
            if low in ctx.profile.names or low in ctx.profile.functions:
                raise ctx.fail("RS311", f"the variable '{name_tok}' reuses a built-in name", name_tok.start_pos,
                               name_tok.end_pos, ("user variables conventionally start with '_', as in _coin",))
            root = self.exprs.root(node, prop.value.text[node.start:node.end])
            ctx.user_vars[low] = len(out)
            self.used["names"].add("user variables")
            out.append([low, root])
        return out

    def _abilities(self, prop: Property) -> IR:
        ctx = self.ctx
        out = []
        try:
            pieces = split_top_level(prop.value.text, ",")
        except LexError as exc:
            raise ctx.lex_error(exc) from None
        for piece, off in pieces:
            word = piece.strip()
            start = off + (len(piece) - len(piece.lstrip()))
            if not word:
                raise ctx.fail("RS101", "empty ability name", start, start + 1, ("expected one of: an ability",))
            low = word.lower()
            if low not in ctx.profile.abilities:
                raise ctx.unknown("RS208", "ability", word, ctx.profile.abilities, start, start + len(word))
            if ctx.profile.abilities[low].get("holder") == "player":
                ctx.warn("RS911", f"'{word}' is a player ability; on a card it has no effect", start,
                         start + len(word))
            self.used["abilities"].add(low)
            out.append(low)
        return out

    # action and auto ------------------------------------------------------------------------------
    def _action(self, prop: Property) -> IR:
        ctx = self.ctx
        ctx.events = ()
        text = prop.value.text
        if "~" in text and text.lstrip()[:1] == "~":
            stripped = text.lstrip()
            start = len(text) - len(stripped)
            end = text.find("~", start + 1)
            raise ctx.fail("RS307", "an action has no trigger: events belong in an 'auto'", start,
                           end + 1 if end > 0 else start + 1)
        try:
            costs, statements = read_action(text)
        except LexError as exc:
            raise ctx.lex_error(exc) from None
        costs_ir = [self._cost(tok) for tok in costs] if costs else []
        stmts = self._statements(statements, auto=False)
        line, col, _ = ctx.at(0, 0)  # where the value starts
        return {"costs": costs_ir, "stmts": stmts, "src": [prop.value.file, line, col]}

    def _auto(self, prop: Property) -> IR:
        ctx = self.ctx
        text = prop.value.text
        try:
            trigger, statements = read_auto(text)
        except LexError as exc:
            if exc.message == "unexpected 'cost' in auto":
                raise ctx.fail("RS306", "an auto has no cost block: costs belong to actions", exc.start - 1,
                               exc.end + 1) from None
            raise ctx.lex_error(exc) from None
        events = self._events(trigger) if trigger else []
        ctx.events = tuple([e["event"] for e in events])
        if not statements:
            raise ctx.fail("RS101", "an auto needs at least one statement after its trigger", len(text) - 1,
                           len(text), ("expected one of: a command, '[[if …]]'",))
        stmts = self._statements(statements, auto=True)
        if not events:
            for st, (*_, start, end) in zip(stmts, statements):
                if st["kind"] == "if":
                    ctx.warn("RS904", "the condition of an auto without a trigger is evaluated only once, when "
                             "its rules load", start, end,
                             ("add a trigger such as ~myHandChanges~ or ~ringChanges~ to re-check it",))
                    break
        line, col, _ = ctx.at(0, 0)
        return {"events": events, "stmts": stmts, "static": not events, "src": [prop.value.file, line, col]}

    def _cost(self, tok: Tok) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        _, text, start, end = tok
        m = _COST_RE.match(text)
        if not m:
            raise ctx.fail("RS101", f"malformed cost '{{{text}}}'", start - 1, end + 1,
                           ("expected one of: {F}, {S}, {S(filter)}, {D}, {D(n)}, {D(filter)}",))
        letter, arg = m.groups()
        letter = letter.upper()
        spec = prof.costs.get(letter)
        if spec is None:
            lstart = start + m.start(1)
            raise ctx.unknown("RS203", "cost", letter, prof.costs, lstart, lstart + 1)
        if spec.get("unsupported"):
            raise ctx.fail("RS401", f"{{{letter}}} is not supported: {spec['unsupported']}", start - 1, end + 1,
                           (f"alternative: {spec['alternative']}",) if spec.get("alternative") else ())
        self.used["costs"].add(letter)
        out: dict[str, Any] = {"cost": letter}
        if arg is None:
            return out
        arg_start = start + m.start(2)
        kind = spec.get("arg", "none")
        if kind == "none":
            raise ctx.fail("RS301", f"the cost {{{letter}}} takes no argument", arg_start - 1, arg_start + len(arg) + 1,
                           (f"signature: {{{letter}}}",))
        zone = prof.cost_zones.get(letter)
        if kind == "int_or_filter" and _INT_RE.match(arg):
            n = int(arg)
            if n < 1:
                raise ctx.fail("RS305", f"{{{letter}({n})}} must discard at least one card", arg_start,
                               arg_start + len(arg))
            self.used["costs"].add(f"{letter}(n)")
            out["count"] = n
            return out
        filters = self.filters.filters(arg, arg_start, forced_zone=zone, cost=letter)
        if len(filters) != 1:
            raise ctx.fail("RS301", f"the cost {{{letter}(…)}} takes one filter", arg_start, arg_start + len(arg))
        self.used["costs"].add(f"{letter}(filter)")
        if filters[0]["qty"].get("mode") == "random":
            self.used["costs"].add(f"{letter}(<r>)")
        out["filter"] = filters[0]
        return out

    def _events(self, trigger: Tok) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        out = []
        try:
            pieces = split_top_level(trigger[1], ",", trigger[2])
        except LexError as exc:
            raise ctx.lex_error(exc) from None
        for piece, off in pieces:
            parts = piece.split(":")
            word = parts[0].strip()
            wstart = off + (len(parts[0]) - len(parts[0].lstrip()))
            if not word:
                raise ctx.fail("RS101", "empty event in trigger", wstart, wstart + 1, ("expected one of: an event",))
            low = word.lower()
            hit = prof.event_words.get(low)
            if hit is None:
                known = list(prof.events) + list(prof.hooks)
                known += [p + e for p in prof.event_prefixes for e in known]
                raise ctx.unknown("RS207", "event", word, known, wstart, wstart + len(word))
            name, prefix = hit
            hook = name in prof.hooks
            spec = prof.hooks[name] if hook else prof.events[name]
            self.used["hooks" if hook else "events"].add(name)
            if prefix is None:
                prefix = prof.default_event_prefix
            else:
                self.used["event_prefixes"].add(prefix)
            if len(parts) == 1:  # no suffix (the common case): every group has its default
                out.append({"event": name, "hook": hook, "prefix": prefix, "has_object": bool(spec.get("object")),
                            "state": bool(spec.get("state")), "groups": self.tables.default_group_map.copy(),
                            "flags": []})
                continue
            suffixes: list[str] = []
            groups: dict[str, str] = {}
            pos = wstart + len(word)
            for suf in parts[1:]:
                sstart = pos + 1 + (len(suf) - len(suf.lstrip()))
                pos += 1 + len(suf)
                s = suf.strip().lower()
                if s not in prof.event_suffixes:
                    raise ctx.unknown("RS207", "event suffix", suf.strip(), prof.event_suffixes, sstart,
                                      sstart + len(suf.strip()))
                sspec = prof.event_suffixes[s]
                canon = str(sspec.get("same_as", s))
                group = sspec.get("group")
                if group:
                    if group in groups and groups[group] != canon:
                        raise ctx.fail("RS312", f"the suffixes ':{groups[group]}' and ':{s}' exclude each other",
                                       sstart, sstart + len(s))
                    groups[group] = canon
                if sspec.get("needs_object") and not spec.get("object"):
                    ctx.warn("RS909", f"':{s}' has no effect on '{name}', an event without an object", sstart,
                             sstart + len(s))
                self.used["event_suffixes"].add(s)
                suffixes.append(s)
            for group, s in self.tables.default_groups:
                if group not in groups:
                    groups[str(group)] = s
            out.append({"event": name, "hook": hook, "prefix": prefix, "has_object": bool(spec.get("object")),
                        "state": bool(spec.get("state")),
                        "groups": groups, "flags": [s for s in suffixes if not prof.event_suffixes[s].get("group")]})
        return out

    # statements ----------------------------------------------------------------------------------
    def _statements(self, stmts: list[OutlineStatement], auto: bool) -> IR:
        ctx = self.ctx
        out = []
        for kind, body, guard, branches, start, end in stmts:
            if kind == "plain":
                out.append({"kind": "plain", "branches": [{"cond": None, "body": self._body(body)}],
                            "at": ctx.at(start, end)})
            elif kind == "may":
                question = guard[1].strip()
                if question:
                    if len(question) >= 2 and question[0] == question[-1] and question[0] in "'\"":
                        question = question[1:-1]
                    else:
                        raise ctx.fail("RS101", "the question of [[may …]] must be a quoted string",
                                       guard[2], guard[3], ("expected one of: ']]', a string",))
                self.used["conditions"].add("may 'text'" if question else "may")
                out.append({"kind": "may", "question": question or None,
                            "branches": [{"cond": None, "body": self._body(body)}], "at": ctx.at(start, end)})
            else:
                branches_ir = []
                cond_only = True  # no branch has a body
                for keyword, condition, branch_body, branch_start, branch_end in branches:
                    self.used["conditions"].add(keyword)
                    cond = None
                    if condition is not None:  # the guard token of an 'if' or 'elif'
                        cond_text = condition[1]
                        if keyword == "else":
                            if cond_text.strip():
                                raise ctx.fail("RS101", "[[else]] takes no condition", condition[2], condition[3])
                        elif not cond_text.strip():
                            raise ctx.fail("RS101", f"[[{keyword}]] needs a condition", branch_start, branch_end,
                                           ("expected one of: an expression",))
                        else:
                            cond = self.exprs.compile(cond_text, condition[2])
                    body_ir = None
                    if branch_body is not None:
                        cond_only = False
                        body_ir = self._body(branch_body)
                    elif not auto:
                        raise ctx.fail("RS403", "a condition-only statement is only supported in an auto",
                                       start, branch_end, ("alternative: use a requisite, or give the [[if]] a body",))
                    branches_ir.append({"cond": cond, "body": body_ir})
                if cond_only:
                    self.used["conditions"].add("condition-only")
                out.append({"kind": "if", "cond_only": cond_only, "branches": branches_ir, "at": ctx.at(start, end)})
        return out

    def _body(self, items: OutlineBody, in_each: bool = False, element_scope: bool = False) -> IR:
        effects: list[dict[str, Any]] = []
        clause = None
        restriction = None
        pending_op: str | None = None
        expect_effect = True
        grants = False  # an effect is +ability or -ability
        for item in items:
            kind = item[0]
            if kind == "CALL":  # the commonest item first
                if not expect_effect:
                    raise self._missing_operator(item)
                effects.append({"op": pending_op, "eff": self._command(item, element_scope)})
                pending_op = None
                expect_effect = False
            elif kind == "ABILITY":
                if not expect_effect:
                    raise self._missing_operator(item)
                effects.append({"op": pending_op, "eff": self._ability_effect(item)})
                grants = True
                pending_op = None
                expect_effect = False
            elif kind == "CLAUSE":
                if in_each:
                    raise self.ctx.fail("RS108", "the chain inside each() cannot have a target clause", item[2],
                                        item[3])
                if clause is not None:
                    raise self.ctx.fail("RS108", "a statement has at most one target clause", item[2], item[3],
                                        ("split it into two statements with ';'",))
                clause = self._clause(item, element_scope)
            elif kind == "WORD":
                ctx = self.ctx
                word = item[1]
                low = word.lower()
                if low not in ctx.profile.restrictions:
                    notes = self._suggest(word, ctx.profile.restrictions)
                    if low in ctx.profile.commands:
                        notes = (f"a command needs parentheses: {word}()",)
                    raise ctx.fail("RS209", f"unknown restriction '{word}'", item[2], item[3], notes)
                if in_each:
                    raise ctx.fail("RS108", "the chain inside each() cannot have a restriction", item[2], item[3])
                if restriction is not None:
                    raise ctx.fail("RS108", "a statement has at most one restriction", item[2], item[3])
                restriction = (low, item)
                self.used["restrictions"].add(low)
            else:  # a chain operator: '&', '&&' or '||'
                op = item[1]
                if expect_effect:
                    raise self.ctx.fail("RS101", f"unexpected '{op}': an effect must come before it", item[2], item[3],
                                   ("expected one of: a command, '+ability', '-ability'",))
                pending_op = op
                expect_effect = True
                self.used["chains"].add(op)
        if expect_effect:
            ctx = self.ctx
            end = items[-1][3]
            if pending_op is not None:
                raise ctx.fail("RS101", f"the chain ends with '{pending_op}': an effect must follow", end - 1,
                               end, ("expected one of: a command, '+ability', '-ability'",))
            raise ctx.fail("RS101", "a statement needs at least one effect", items[0][2], end,
                           ("expected one of: a command, '+ability', '-ability'",))
        if restriction is not None:
            lasting = [e for e in effects if "ability" in e["eff"] or self._is_lasting(e["eff"])]
            if not lasting:
                _, word, start, end = restriction[1]
                raise self.ctx.fail("RS303", f"the restriction '{word}' needs a lasting effect in its statement",
                               start, end,
                               ("lasting effects: +ability, -ability, enableRule, disableRule, modRule, alterCost",))
        if grants and clause is not None and "filters" in clause:
            self._check_ability_holders(effects, clause["filters"])
        return {"effects": effects, "clause": clause, "restr": restriction[0] if restriction else None}

    def _missing_operator(self, item: Item) -> Abort:
        return self.ctx.fail("RS101", "missing chain operator between two effects", item[2], item[3],
                             ("expected one of: '&', '&&', '||', ';'",))

    def _is_lasting(self, eff: IR) -> bool:
        spec = self.ctx.profile.commands.get(eff.get("cmd", ""))
        return bool(spec and spec.lasting)

    def _check_ability_holders(self, effects: list[dict[str, Any]], filters: IR) -> None:
        """Warn about abilities granted to targets (the clause's ``filters``) that cannot hold them."""
        selects = {f["selects"] for f in filters}
        for e in effects:
            eff = e["eff"]
            if "ability" not in eff:
                continue
            holder = self.ctx.profile.abilities[eff["ability"]].get("holder")
            if selects == {"player"} and holder != "player" or selects == {"card"} and holder == "player":
                line, col, end = eff["at"]
                self.ctx.bag.warning("RS911", f"'{eff['ability']}' is a {holder} ability; granted to "
                                     f"{'players' if holder != 'player' else 'cards'} it has no effect",
                                     Span(self.ctx.value.file, line, col, line, end))

    def _ability_effect(self, item: Item) -> IR:
        ctx = self.ctx
        _, text, start, end = item
        sign, name = text[0], text[1:]
        low = name.lower()
        if low not in ctx.profile.abilities:
            raise ctx.unknown("RS208", "ability", name, ctx.profile.abilities, start + 1, end)
        self.used["abilities"].add(low)
        self.used["commands"].add(sign + "ability")
        return {"ability": low, "sign": sign, "at": ctx.at(start, end)}

    def _clause(self, item: Item, element_scope: bool) -> IR:
        _, word, start, end, optional, raw = item
        _, text, raw_start, raw_end = raw
        kind = _CLAUSE_KINDS.get(word) or word.lower()
        clauses = self.used["clauses"]
        clauses.add(kind + "?" if optional else kind)
        at = self.ctx.at(start, end)
        # docs/language.md 5.7: the target is an expression when it has a '.' access or names a variable, a
        # list or a card (decided here, inline: the commonest targets are filters and plain words)
        stripped = text.strip()
        if not stripped or stripped[0] in "<*^!'\"":
            shape = "filter"
        elif stripped.isidentifier():  # (it has none of the marks _top_level_shape looks for)
            shape = "plain"
        elif _FILTER_HEAD(stripped) is not None:  # the first mark is a filter mark (so it is outside brackets)
            shape = "filter"
        else:
            shape = _top_level_shape(stripped)
        if shape == "plain":
            low = stripped.lower()
            is_expr = low not in self.type_keywords and (low in self.ctx.user_vars or low in self.tables.target_names)
        else:
            is_expr = shape == "dotted"
        if is_expr:
            expr = self.exprs.compile_as(text, raw_start, raw_end, "targets", f"{kind}(filter or expression)",
                                         element_scope)
            clauses.add("expression target")
            return {"kind": kind, "opt": optional, "at": at, "expr": expr}
        return {"kind": kind, "opt": optional, "at": at, "filters": self.filters.filters(text, raw_start)}

    # commands ------------------------------------------------------------------------------------
    def _command(self, item: Item, element_scope: bool) -> IR:
        _, name, start, end, ask, raw = item
        try:
            low, spec = self.command_spellings[name]
        except KeyError:  # (a subscript is cheaper than get(); a try costs nothing when it passes)
            low = name.lower()
            spec = self.commands.get(low)
            if spec is None:
                raise self._unknown_command(name, low, start) from None
        self.used["commands"].add(spec.name)
        if ask:
            self.used["commands"].add("cmd?()")
        # the arguments, from the ARGS token (inline: one call less per command)
        text = raw[1]
        if not text or text.isspace():
            if spec.required:
                raise self._arg_count_error(spec, raw, 0)
            args = []
        elif spec.whole_text or ("," not in text and "'" not in text and '"' not in text):
            # one piece, not blank (split_top_level gives the same when there is no ',')
            if spec.required > 1 or not spec.params:
                raise self._arg_count_error(spec, raw, 1)
            args = [self._arg(spec, 0, text, raw[2], element_scope, ())]
        else:
            args = self._split_args(spec, raw, element_scope)
        ctx = self.ctx
        if spec.only_in_events and not (set(ctx.events) & set(spec.only_in_events)):
            ctx.warn("RS908", f"{spec.name}() only works inside a listener of: {', '.join(spec.only_in_events)}; "
                     "here it does nothing", start, end)
        line = ctx.line
        if line and end > start:  # ctx.at(start, end), inline for a value on one line (the commonest case)
            col = ctx.col
            return {"cmd": low, "ask": ask, "args": args, "at": [line, col + start, col + end]}
        return {"cmd": low, "ask": ask, "args": args, "at": ctx.at(start, end)}

    def _unknown_command(self, name: str, low: str, start: int) -> Abort:
        ctx = self.ctx
        prof = ctx.profile
        reserved = {"may", "if", "elif", "else"} | set(prof.restrictions)
        if low in reserved:
            return ctx.fail("RS101", f"'{name}' is a reserved word, not a command", start, start + len(name))
        known = [c.name for c in prof.commands.values()]
        return ctx.unknown("RS201", "command", name, known, start, start + len(name))

    def _split_args(self, spec: CommandSpec, raw: Tok, element_scope: bool) -> IR:
        """The arguments of a command whose argument text has commas or quotes."""
        params = spec.params
        _, text, base, _ = raw
        pieces = split_top_level(text, ",", base)
        if spec.greedy_tail and len(pieces) > len(params):
            keep = len(params) - 1
            tail_start = pieces[keep][1]
            pieces = pieces[:keep] + [(text[tail_start - base:], tail_start)]
        if not spec.required <= len(pieces) <= len(params):
            raise self._arg_count_error(spec, raw, len(pieces))
        out: list[Any] = []
        for i, (piece, off) in enumerate(pieces):
            out.append(self._arg(spec, i, piece, off, element_scope, out))
        return out

    def _arg_count_error(self, spec: CommandSpec, raw: Tok, got: int) -> Abort:
        required, n = spec.required, len(spec.params)
        want = str(n) if required == n else f"{required} to {n}"
        return self.ctx.fail("RS301", f"{spec.name}() takes {want} argument{'s' if n != 1 else ''}, got {got}",
                             raw[2] - 1, raw[3] + 1, (f"signature: {spec.signature}",))

    def _bad_arg(self, spec: CommandSpec, index: int, what: str, start: int, end: int) -> Abort:
        return self.ctx.fail("RS302", f"argument {index + 1} of {spec.name}() must be {what}", start, end,
                             (f"signature: {spec.signature}",))

    def _arg(self, spec: CommandSpec, index: int, piece: str, offset: int, element_scope: bool,
             previous: list[Any] | tuple[()]) -> IR:
        """Argument ``index`` of a command: ``piece`` of its argument list, at ``offset``."""
        ctx = self.ctx
        text = piece.strip()
        # (strip() returns the very same str when there is nothing to strip)
        start = offset if text is piece else offset + (len(piece) - len(piece.lstrip()))
        if not text:
            raise ctx.fail("RS301", f"argument {index + 1} of {spec.name}() is empty", start - 1 if start else 0,
                           start + 1, (f"signature: {spec.signature}",))
        end = start + len(text)
        param = spec.params[index]
        kind = param.kind
        self.used["arg_kinds"].add(kind)
        # the kinds are tested commonest first
        if kind == "num":
            return self.exprs.compile_as(text, start, end, "num", spec, element_scope)
        if kind == "spval":
            if text.startswith("="):
                self.used["arg_forms"].add("spval:=e")
                return {"op": "set", "x": self.exprs.compile_as(text[1:], start + 1, end, "num", spec, element_scope)}
            self.used["arg_forms"].add("spval:+n")
            return {"op": "add", "x": self.exprs.compile_as(text, start, end, "num", spec, element_scope)}
        if kind == "int":
            m = _INT_RE.match(text)
            if not m:
                raise self._bad_arg(spec, index, "an integer", start, end)
            return int(m.group(1))
        if kind == "bpval":
            m = _MUL_RE.match(text)
            if m:
                self.used["arg_forms"].add("bpval:xN")
                return {"op": "mul", "n": int(m.group(1))}
            if text.startswith("="):
                self.used["arg_forms"].add("bpval:=e")
                return {"op": "set", "x": self.exprs.compile_as(text[1:], start + 1, end, "num", spec, element_scope)}
            self.used["arg_forms"].add("bpval:+n")
            return {"op": "add", "x": self.exprs.compile_as(text, start, end, "num", spec, element_scope)}
        if kind == "word":
            prof = ctx.profile
            m = _WORD_RE.match(text)
            low = text.lower()
            if not m or low not in param.values:
                is_rule = set(param.values) <= set(prof.game_rules)
                code = "RS210" if is_rule else "RS302"
                category = "game rule" if is_rule else f"value for {spec.name}()"
                if not m:
                    raise self._bad_arg(spec, index, f"one of: {', '.join(param.values)}", start, end)
                raise ctx.unknown(code, category, text, param.values, start, end)
            self.used["game_rules" if low in prof.game_rules and spec.lasting else "words"].add(low)
            return low
        if kind == "pile":
            return self._pile(spec, text, start, end)
        if kind == "each":
            return self._each(text, start, element_scope)
        if kind == "count_or_filter":
            m = _INT_RE.match(text)
            if m:
                self.used["arg_forms"].add(f"{spec.name}(n)")
                return {"count": int(m.group(1))}
            self.used["arg_forms"].add(f"{spec.name}(filter)")
            filters = self.filters.filters(text, start, forced_zone=None)
            for f in filters:
                if not f["zone_written"] and param.zone:
                    f["zone"] = {"z": param.zone, "p": ctx.profile.default_zone_prefix}
            return {"filters": filters}
        if kind == "filter":
            return {"filters": self.filters.filters(text, start)}
        if kind == "card":
            return self.exprs.compile_as(text, start, end, "card", spec, element_scope)
        if kind in ("text", "value"):
            return self.exprs.compile_as(text, start, end, kind, spec, element_scope)
        if kind == "model":
            if text[:1] in "'\"" and text[-1:] == text[:1] and len(text) >= 2:
                model = text[1:-1].lower()
                if not ctx.cards.empty and model not in ctx.cards.cards:
                    raise ctx.unknown("RS216", "card model", text[1:-1], ctx.cards.cards, start + 1, end - 1)
                return {"model": model}
            return {"x": self.exprs.compile_as(text, start, end, "card", spec, element_scope)}
        if kind == "pos":
            low = text.lower()
            if low in ("true", "false"):
                ctx.warn("RS905", f"a boolean in the position slot of {spec.name}() means reveal "
                         "(legacy spelling)", start, end, (f"write {spec.name}(…, top, {low})",))
                return {"pos": 0, "reveal": low == "true"}
            if low == "top":
                self.used["positions"].add("top")
                return {"pos": 0}
            if low == "bottom":
                self.used["positions"].add("bottom")
                return {"pos": -1}
            if low == "?":
                self.used["positions"].add("?")
                return {"pos": "choose"}
            m = _INT_RE.match(text)
            if not m:
                raise self._bad_arg(spec, index, "a position: top, bottom, an integer or ?", start, end)
            self.used["positions"].add("integer")
            return {"pos": int(m.group(1))}
        if kind == "flag":
            low = text.lower()
            if low in ("true", "false"):
                if previous and isinstance(previous[-1], dict) and "reveal" in previous[-1]:
                    raise ctx.fail("RS302", "reveal is already given in the position slot", start, end,
                                   (f"signature: {spec.signature}",))
                return low == "true"
            if low == "toggle" and param.toggle:
                self.used["arg_forms"].add("flag:toggle")
                return "toggle"
            raise self._bad_arg(spec, index, "true or false" + (" or toggle" if param.toggle else ""), start, end)
        if kind == "costval":
            body = text[1:] if text.startswith("=") else text
            m = _INT_RE.match(body)
            if not m:
                raise self._bad_arg(spec, index, "an integer or '=' followed by an integer", start, end)
            return {"op": "set" if text.startswith("=") else "add", "n": int(m.group(1))}
        raise AssertionError(kind)  # pragma: no cover - the profile loader checks kinds

    def _pile(self, spec: CommandSpec, text: str, start: int, end: int) -> IR:
        ctx = self.ctx
        prof = ctx.profile
        low = text.lower()
        hit = prof.pile_words.get(low)
        if hit is None:
            if low in prof.zone_words:
                raise ctx.fail("RS402", f"{spec.name}() to the zone '{text}' is not supported: only piles are "
                               "valid destinations", start, end,
                               (f"piles: {', '.join(prof.piles)}; to put a character into play, play it",))
            known = list(prof.piles) + [p + x for p in prof.pile_prefixes for x in prof.piles]
            raise ctx.unknown("RS215", "pile", text, known, start, end)
        pile, owner = hit
        if owner is None:
            owner = prof.default_pile_prefix
        self.used["piles"].add(pile)
        self.used["pile_prefixes"].add(owner)
        return {"pile": pile, "owner": owner}

    def _each(self, text: str, start: int, element_scope: bool) -> IR:
        ctx = self.ctx
        arrow = find_top_level(text, "=>")
        if arrow < 0:
            raise ctx.fail("RS101", "each() needs '=>' between its list and its chain", start, start + len(text),
                           ("expected one of: '=>'",))
        head = text[:arrow]
        chain_text = text[arrow + 2:]
        if not chain_text.strip():
            raise ctx.fail("RS101", "each() needs a chain after '=>'", start + arrow, start + arrow + 2,
                           ("expected one of: a command",))
        out: dict[str, Any]
        if _EACH_IN.search(head) and self._in_at_top(head):
            try:
                elem, seq = parse_each_head(head, start)
            except LexError as exc:
                raise ctx.lex_error(exc) from None
            seq_ir, seq_t = self.exprs.lower_top(seq, element_scope)
            if seq_t not in ("list", "any"):
                raise ctx.fail("RS302", f"each() ranges over a list (this is a {seq_t})", seq.start, seq.end)
            elem_ir, _ = self.exprs.lower_top(elem, True)
            self.used["arg_forms"].add("each(E in L => …)")
            out = {"form": "expr", "elem": elem_ir, "seq": seq_ir, "at": ctx.at(start, start + arrow)}
        else:
            self.used["arg_forms"].add("each(filter => …)")
            filters = self.filters.filters(head, start)
            out = {"form": "filter", "filters": filters, "at": ctx.at(start, start + arrow)}
        try:
            chain = read_chain(chain_text, start + arrow + 2)
        except LexError as exc:
            raise ctx.lex_error(exc) from None
        out["chain"] = self._body(chain, in_each=True, element_scope=True)["effects"]
        return out

    @staticmethod
    def _in_at_top(text: str) -> bool:
        """Whether the word 'in' occurs outside quotes and outside ( ) and [ ] (one pass)."""
        depth = 0
        quote = ""
        for m in _IN_SCAN.finditer(text):
            ch = m.group()
            if quote:
                if ch == quote:
                    quote = ""
            elif ch == "'" or ch == '"':
                quote = ch
            elif ch == "(" or ch == "[":
                depth += 1
            elif ch == ")" or ch == "]":
                depth -= 1
            elif depth == 0:  # the word 'in'
                return True
        return False
