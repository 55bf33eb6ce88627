"""One WWRF trigger block (or key line) as one RuleScript section in the werewolf profile."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..ast import Ability, Branch, Condition, Evaluate, ForEach, KeyLine, Process, Restriction, TriggerBlock, Value
from .exprs import Coverage, Exprs, Unsupported, any_span, quote, slug

#: prompting WWRF triggers -> the `timing` key of an action
TIMINGS = {t: t for t in (
    "immediate night", "immediate day", "immediate phase", "immediate", "start night", "start day",
    "start phase", "end night", "end day", "end phase", "pre-end night", "pre-end day",
    "second pre-end night", "second pre-end day", "third pre-end night", "third pre-end day",
    "fourth pre-end night", "fourth pre-end day")}
#: automatic WWRF triggers without a selector -> RuleScript events
EVENTS = {"passive start day": "startday", "passive start night": "startnight",
          "passive end day": "endday", "passive end night": "endnight", "passive": "passive",
          "starting": "starting", "on assigned": "assigned", "on poll closed": "pollclosed",
          "on poll skipped": "pollskipped", "on join": "join", "on redirect": "myredirect",
          "on role change": "myrolechange", "on removal": "removal", "on end": "end",
          "on betrayal": "betrayal", "on disbandment": "disbandment", "on hammer": "hammer",
          "on vote add": "voteadd", "on vote remove": "voteremove", "on vote change": "votechange",
          "on defense": "defense"}
#: WWRF's election triggers: accepted by the reference parser, never fired (reserved); the werewolf game
#: holds no elections, so they are listeners of the `election` event, which the game never fires
ELECTIONS = {"on election": None, "on mayor election": "mayor", "on reporter election": "reporter",
             "on guardian election": "guardian"}
#: death-like triggers -> a guard on the kind of death
DEATHS = {"on death": None, "on killed": "deathtype in ['kill', 'attack', 'true kill']", "on lynch": "deathtype == 'lynch'",
          "on banishment": "deathtype == 'banish' or deathtype == 'true banish'",
          "on banished": "deathtype == 'banish' or deathtype == 'true banish'"}
#: triggers with an optional constant (``On Poll `P` Win``): the name bound to it, the event, and
#: whether the constant is an element name (compared as its id)
VALUED = {"on poll win": ("poll", "~mypollwin~", True), "on emitted": ("emitted", "~myemitted~", False),
          "on end emitted": ("emitted", "~myendemitted~", False),
          "on whisper": ("whispername", "~mywhisper~", False), "choice chosen": ("option", "~choicechosen~", False)}
PHASE_EVENTS = {"passive start phase": ("startday", "startnight"), "passive end phase": ("endday", "endnight")}
DURATIONS = {d: d for d in ("phase", "phaseattribute", "nextphase", "nextphaseattribute", "nextday",
                            "nextdayattribute", "nextnight", "nextnightattribute", "persistent", "permanent",
                            "attribute", "untiluse", "untilseconduse", "untiluseattribute", "delayedphase")}
KILLINGS = {"attack": "attack", "kill": "kill", "lynch": "lynch", "true kill": "trueKill", "banish": "banish",
            "true banish": "trueBanish"}
DEFENSES = {"active": "active", "passive": "passive", "partial": "partial", "recruitment": "recruitment",
            "absence": "absence"}
AGAINST = {"attacks": "attacks", "kills": "kills", "lynches": "lynches", "attacks & lynches": "attacks-lynches",
           "all": "all", "banishments": "banishments"}
LEVELS = {(): None, ("SD",): "sd", ("WD",): "wd", ("SD", "WD"): "sd-wd", ("WD", "SD"): "sd-wd"}
COMPARATORS = {"≥": ">=", "≤": "<=", "=": "=", ">": ">", "<": "<"}


@dataclass
class RuleSection:
    id: str
    comments: list[str] = field(default_factory=list)
    keys: list[tuple[str, str]] = field(default_factory=list)
    constructs: list[tuple[str, str]] = field(default_factory=list)  # (category, name) rendered here

    def text(self) -> str:
        lines = [f"[{self.id}]"] + [f"# {c}" for c in self.comments]
        for k, v in self.keys:
            first, *rest = v.split("\n")
            lines.append(f"{k} = {first}")
            lines.extend(f"    {r}" for r in rest)
        return "\n".join(lines) + "\n"


class _Tracking(Coverage):
    """Coverage of one block, merged into the book's only when the block rendered."""


class BlockRenderer:
    """Renders trigger blocks of one element (``element`` is its slug, ``kind`` its element kind)."""

    def __init__(self, element: str, kind: str, coverage: Coverage,
                 ids: "dict[str, dict[str, str]] | None" = None) -> None:
        self.element = element
        self.kind = kind
        self.book_cov = coverage
        self.cov = coverage
        self.ids = ids or {}
        self.x = Exprs(coverage, self.ids)
        self.choosing: set[str] = set()  # the choices (slugs) a `Choice Choose` line of the element answers
        self._branches = 0  # branches with several targets in the block (remember(n))
        self._followups: list[tuple[int, str]] = []  # their later effects: (n, effect with its clause)
        self.condition_keys: list[str] = []

    def _begin(self) -> _Tracking:
        cov = _Tracking()
        self.cov = cov
        self.x = Exprs(cov, self.ids)
        self.x.element = self.element
        self.x.kind = self.kind
        return cov

    def _commit(self, cov: _Tracking) -> list[tuple[str, str]]:
        self.book_cov.merge(cov)
        return [(cat, name) for cat, cnt in cov.counts.items() for name in cnt]

    # ---------------------------------------------------------------- key lines
    def win_condition(self, line: KeyLine) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        cov = self._begin()
        if not line.values:
            raise Unsupported("an empty win condition", line.span)
        filters = "; ".join(self.x.player_filter(v) for v in line.values)
        self.cov.add("key line", "Win Condition")
        keys = [("auto", f"~wincheck~ [[if living > 0 and len(getTargets({quote(filters, line.span)})) == living]] win()")]
        return keys, self._commit(cov)

    def poll_key(self, line: KeyLine) -> list[tuple[str, str]]:
        key = line.key.lower()
        self.book_cov.add("key line", line.key)
        x = Exprs(self.book_cov, self.ids)
        x.element, x.kind = self.element, self.kind
        if key == "available options":  # players (selectors) and word options (Yes, No, Abstain, Random)
            filters = [x.player_filter(v) for v in line.values if v.kind in ("selector", "host")]
            words = [v.text.strip() for v in line.values if v.kind not in ("selector", "host")]
            for w in words:
                if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 _-]*", w):
                    raise Unsupported(f"the poll option '{w}'", line.span)
                low = w.lower()
                self.book_cov.add("poll option", low if low in ("abstain", "random") else "a word (Yes, No …)")
            if len(line.values) > 1:
                self.book_cov.add("poll option", "several options")
            out = [("options", "; ".join(filters) or "players::keep(nil)")]
            if words:
                out.append(("optionwords", ", ".join(words)))
            return out
        if key in ("allowed voters", "random"):
            filters = "; ".join(x.player_filter(v) for v in line.values)
            if not filters:
                raise Unsupported(f"'{line.key}' without a value", line.span)
            return [("voters" if key == "allowed voters" else "random", filters)]
        if key == "show voters":
            return [("showvoters", "yes" if line.text.strip().lower() in ("yes", "true") else "no")]
        raise Unsupported(f"the poll key '{line.key}'", line.span)

    # ---------------------------------------------------------------- trigger blocks
    def block(self, tb: TriggerBlock) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        cov = self._begin()
        keys = self._block(tb)
        return keys, self._commit(cov)

    def _block(self, tb: TriggerBlock) -> list[tuple[str, str]]:
        trig = tb.trigger
        name = trig.name.lower()
        keys: list[tuple[str, str]] = []
        guards: list[str] = []
        self.condition_keys = []
        self._branches, self._followups = 0, []
        target: str | None = None
        params = tb.params
        self.second = self._secondary_kind(tb)
        # the trigger
        event = self._trigger(trig, name, guards, tb)
        self.cov.add("trigger", trig.name + (" (complex)" if trig.selector is not None else ""))
        if event is None and name in TIMINGS:
            keys.append(("timing", TIMINGS[name]))
        # parameters
        sel_conditions: list[str] = []
        for r in params.restrictions:
            self.cov.add("restriction", r.kind)
            if r.kind == "temporal":
                text = (r.phase or "").lower() + (f" {r.number}{'+' if r.onward else ''}" if r.number is not None else "")
                keys.append(("temporal", text))
            elif r.kind == "quantity":
                if r.count is None:
                    raise Unsupported("a quantity without a value", r.span)
                if r.count.kind == "number":
                    keys.append(("quantity", r.count.text))
                else:  # a value read whenever the rule could run (Quantity: @Self->Counter)
                    self.cov.add("restriction", "quantity (value)")
                    keys.append(("quantityof", self.x.scalar(r.count)))
            elif r.kind == "status":
                keys.append(("status", (r.status or "alive").lower()))
            elif r.kind == "succession":
                keys.append(("succession", "no target succession" if r.target else "no succession"))
            elif r.kind == "condition":
                assert r.condition is not None
                if event is None and self.x.selection_excludes_self(r.condition):
                    target = "player[alive]::not(me)"
                    self.cov.add("condition", "is not (selection)")
                elif event is None:
                    sel_conditions.append(self.x.condition(r.condition))
                else:
                    guards.append(self.x.condition(r.condition))
            elif r.kind == "attribute":
                test = self._attribute_restriction(r)
                (sel_conditions if event is None else guards).append(test)
            else:
                raise Unsupported(f"the {r.kind} restriction", r.span)
        if params.scaling:
            self._scaling_of: list[str] = []
            keys.append(("scaling", self._scaling(params.scaling)))
            keys.extend(("scalingof", e) for e in self._scaling_of[:1])
        words = []
        for o in params.other:
            words.append(o.name.lower())
            self.cov.add("parameter", o.name + (": value" if o.value is not None else ""))
            if o.value is not None:
                keys.append(("forced", self._forced(o.value)))
        if params.prompt is not None:
            if params.prompt.silent:
                words.append("silent")
            keys.append(("prompt", params.prompt.name))
            self.cov.add("parameter", "prompt" + (" (silent)" if params.prompt.silent else ""))
        if words:
            keys.append(("params", ", ".join(words)))
        if event is None:
            for c in sel_conditions + self.condition_keys:
                keys.append(("condition", c))
            if self.second == "role":
                keys.append(("secondary", "role"))
            elif self.second == "player":
                keys.append(("secondary", "player"))
            selects = self._selects_kind(tb)
            self.x.selects = selects is not None
            if selects is not None:  # the selection is a value that is not a player (Target @Selection (Role))
                if self.second is not None or target is not None:
                    raise Unsupported("a selection that is both a player and a value of another kind", tb.span)
                keys.append(("selects", selects))
            elif target is None and self._uses(tb, "Selection", "Chosen", "SecondarySelection"):
                # a resurrection picks among the dead
                target = "player[dead]" if any(a.type == "resurrecting" for a in _abilities(tb.body)) \
                    else "player[alive]"
            if target is not None and self.second == "player":
                target = "<2>" + target.replace("player[alive]::not(me)", "player[alive]::not(me)")
            if target is not None:
                keys.append(("target", target))
            keys.append(("action", self._statements(tb.body, tb)))
        else:
            stmts = "".join(f"[[if {g}]] ; " for g in guards) + self._statements(tb.body, tb)
            keys.append(("auto", f"{event} {stmts}"))
        return keys

    def _trigger(self, trig, name: str, guards: list[str], tb: TriggerBlock) -> str | None:
        """The event of an automatic trigger (guards appended), or None for a prompting one."""
        sel = trig.selector
        value = trig.value
        if name in TIMINGS:
            return None
        if name in DEATHS:
            if DEATHS[name]:
                guards.append(DEATHS[name])
            if sel is None:
                return "~mydeath~"
            if not self._is_all(sel):
                guards.append(f"subject in getTargets({quote(self._all_players(sel), sel.span)})")
            return "~death~"
        if name in PHASE_EVENTS:
            return "~" + ", ".join(PHASE_EVENTS[name]) + "~"
        if name == "on changed":  # just before a role change
            if sel is None:
                return "~mychanging~"
            if not self._is_all(sel):
                guards.append(f"subject in getTargets({quote(self._all_players(sel), sel.span)})")
            return "~changing~"
        if name in ELECTIONS:
            if ELECTIONS[name]:
                guards.append(f"election == {quote(ELECTIONS[name], tb.span)}")
            return "~election~"
        if name in ("on visited", "on action", "on any action", "on visit"):
            flt = self._ability_filter(trig)
            if flt:
                guards.append(flt)
            if name == "on visited":
                if sel is None:
                    return "~myvisited~"
                if not self._is_all(sel):
                    guards.append(f"subject in getTargets({quote(self._all_players(sel), sel.span)})")
                return "~visited~"
            if name == "on visit":  # the owner (or a player of the selector) visits someone
                if sel is None:
                    return "~myvisit~"
                if not self._is_all(sel):
                    guards.append(f"subject in getTargets({quote(self._all_players(sel), sel.span)})")
                return "~visit~"
            if sel is not None:
                if not self._is_all(sel):
                    guards.append(f"subject in getTargets({quote(self._all_players(sel), sel.span)})")
                return "~action:any~"
            return "~myaction~" if name == "on action" else "~myaction:any~"
        if name.endswith(" defense") and name.startswith("on ") and name != "on defense":
            kind = name[3:-len(" defense")]
            if kind not in DEFENSES:
                raise Unsupported(f"the trigger '{trig.name}'", tb.span)
            guards.append(f"defensetype == {quote(kind, tb.span)}")
            return "~defense~"
        if name in VALUED:
            field, event, as_id = VALUED[name]
            if value is not None:
                guards.append(f"{field} == {self.x.eid(value.text, ('poll',), value.span) if as_id else quote(value.text, value.span)}")
            return event
        if name in EVENTS:
            if value is not None or sel is not None:
                raise Unsupported(f"the trigger '{trig.name}' with a value or selector", tb.span)
            return f"~{EVENTS[name]}~"
        raise Unsupported(f"the trigger '{trig.name}'", tb.span)

    def _is_all(self, sel: Value) -> bool:
        return sel.sigil == "@" and (sel.name or "").lower() == "all" and not sel.filters and not sel.props

    def _all_players(self, sel: Value) -> str:
        """A selector as a filter over every player, dead ones included (death-like triggers)."""
        return self.x.player_filter(sel).replace("players[alive]", "players", 1)

    def _ability_filter(self, trig) -> str | None:
        f = trig.filter
        if not f:
            return None
        words = f.strip().lower().split()
        if words[-1] in ("killing", "investigating", "targeting", "disguising", "protecting", "applying",
                         "redirecting", "manipulating", "whispering", "joining", "granting", "loyalty",
                         "obstructing", "announcements", "changing", "choices", "counting", "emit",
                         "displaying", "poll"):
            typ = "announcement" if words[-1] == "announcements" else words[-1]
            field = "visittype" if trig.name.lower() in ("on visited", "on visit") else "abilitytype"
            test = f"{field} == {quote(typ, trig.span)}"
            if len(words) > 1:
                sub = " ".join(words[:-1]).replace("true-kill", "true kill")
                test += f" and {field.replace('type', 'subtype')} == {quote(sub, trig.span)}"
            self.cov.add("trigger filter", ("!" if trig.filter_negated else "") + ("subtype" if len(words) > 1 else "type"))
            return f"not ({test})" if trig.filter_negated else test
        raise Unsupported(f"the ability filter [{f}]", trig.span)

    def _attribute_restriction(self, r: Restriction) -> str:
        assert r.attribute is not None
        who = "me"
        if r.actor is not None:
            who = self.x.player_expr(r.actor)
        elif self.kind == "attribute":
            who = "me"
        test = f"has({who}, {self.x.name(r.attribute)})"
        return test if r.has else f"not {test}"

    def _scaling(self, items) -> str:
        out = []
        for it in items:
            self.cov.add("scaling", it.kind)
            if it.kind == "static":
                out.append(f"x{it.count}")
            elif it.kind in ("odd", "even"):
                out.append(f"{it.kind} x{it.count}")
            elif it.kind == "ratio":
                out.append(f"{(it.variable or 'living').lstrip('$')}/{it.divisor}")
            elif it.kind == "compare":
                left = getattr(it, "left", None)
                right = getattr(it, "right", None)
                written = (left.text if left is not None else "$living").strip()
                var = written.lstrip("$").lower()
                num = (right.text if right is not None else str(it.threshold)).strip()
                if var not in ("total", "living") or not num.isdigit():
                    # the guide's dynamic scaling compares a player count ($total or $living) with a number
                    raise Unsupported(f"the scaling comparison '{written}{it.comparator or '='}{num}' "
                                      "(only $total or $living against a number)", it.span)
                out.append(f"{var}{COMPARATORS.get(it.comparator or '=', '=')}{num} -> {it.count}")
            elif it.kind == "value":
                out.append(self._scaling_value(it))
            else:
                raise Unsupported(f"the scaling form '{it.kind}'", it.span)
        return ", ".join(out)

    def _scaling_value(self, it) -> str:
        """A bare number item (``⟨2⟩``) or the owner's counter (``⟨@Self->Counter⟩``)."""
        if it.count is not None:
            return str(it.count)
        v = it.value
        if v is not None and v.kind == "number":
            return v.text
        if v is not None and v.kind == "selector" and self._is_self(Value(v.kind, v.text, v.type, None, v.sigil,
                                                                            v.name, v.filters, [], [], None,
                                                                            v.span)) \
                and [p.lower() for p in v.props] == ["counter"]:
            self.cov.add("selector", "->Counter")
            return "counter"
        if v is not None and v.kind in ("selector", "variable") and not self._scaling_of:
            # a number read when the rule could run (⟨@(AttrSelf:A,AliveOnly:False)->Count⟩)
            self.cov.add("scaling", "a selector's value")
            self._scaling_of.append(self.x.scalar(v))
            return "value"
        raise Unsupported(f"a scaling by '{getattr(v, 'text', v)}'", it.span)

    def _forced(self, v: Value) -> str:
        props = [p.lower() for p in v.props]
        if props == ["randomplayer"]:
            base = Value(v.kind, v.text.split("->")[0], v.type, None, v.sigil, v.name, v.filters, [], [], None, v.span)
            self.cov.add("selector", "->RandomPlayer")
            return self.x.player_filter(base)
        return self.x.player_filter(v)

    def _secondary_kind(self, tb: TriggerBlock) -> str | None:
        text = repr(tb.body) + repr(tb.params)
        if "'SecondarySelection'" not in text:
            return None
        for a in _abilities(tb.body):
            for arg, v in a.args.items():
                if v.name == "SecondarySelection" and arg == "role":
                    return "role"
        return "player"

    def _selects_kind(self, tb: TriggerBlock) -> str | None:
        """The kind of value the action selects when a ``Target @Selection (Kind)`` names a kind that is
        not a player (None: the selection, if any, is a player)."""
        for a in _abilities(tb.body):
            v = a.args.get("target")
            if a.type == "targeting" and a.subtype == "target" and a.options and v is not None \
                    and v.sigil == "@" and (v.name or "").lower() == "selection" and not v.props:
                kind = VALUE_TARGETS.get(a.options[0].lower())
                if kind is not None:
                    return kind
            for key, kind in (("role", "role"), ("team", "team")):  # Disguise … as @Selection: a role
                w = a.args.get(key)
                if kind == "role" and w is not None and w.sigil == "@" and (w.name or "").lower() == "selection" \
                        and not w.props and a.type in ("disguising", "granting", "changing"):
                    self.cov.add("selector", "@Selection (a role)")
                    return "role"
        return None

    def _uses(self, tb: TriggerBlock, *names: str) -> bool:
        text = repr(tb.body)
        return any(f"'{n}'" in text for n in names)

    # ---------------------------------------------------------------- statements
    def _statements(self, body: list, tb: TriggerBlock) -> str:
        out = []
        for st in body:
            out.extend(self._statement(st, tb))
        if not out:
            raise Unsupported("a trigger with no ability", tb.span)
        return "\n; ".join(out)

    def _statement(self, st, tb: TriggerBlock) -> list[str]:
        if isinstance(st, Ability):
            return [self.ability(st)]
        if isinstance(st, Process):
            self.cov.add("structure", "Process")
            out = []
            for a in st.abilities:  # abilities, and For Each loops
                out.extend([self.ability(a)] if isinstance(a, Ability) else self._statement(a, tb))
            return out
        if isinstance(st, Evaluate):
            self.cov.add("structure", "Evaluate")
            out: list[str] = []
            parts: list[str] = []
            followups, self._followups = self._followups, []
            for br in self._flatten(st.branches):
                body = " & ".join(self._body_effects(br.body, br)) or "check(false)"  # check(false): nothing
                if br.continues:
                    self.cov.add("structure", "Continue")
                if br.kind == "always":
                    self.cov.add("structure", "always line")
                    if parts:
                        out.append(" ".join(parts))
                        parts = []
                    out.append(body)
                elif br.kind == "otherwise":
                    self.cov.add("structure", "Otherwise")
                    if parts:
                        parts.append(f"[[else]] {body}")
                        out.append(" ".join(parts))
                        parts = []
                    else:  # first, or after a branch that continues: it always holds
                        out.append(body)
                else:
                    assert br.condition is not None
                    cond = self.x.condition(br.condition)
                    if br.continues or not parts:
                        if parts:
                            out.append(" ".join(parts))
                        parts = [f"[[if {cond}]] {body}"]
                        if br.continues:
                            out.append(" ".join(parts))
                            parts = []
                    else:
                        parts.append(f"[[elif {cond}]] {body}")
            if parts:
                out.append(" ".join(parts))
            out.extend(f"[[if branch == {k}]] {text}" for k, text in self._followups)
            self._followups = followups
            return out
        if isinstance(st, ForEach):
            self.cov.add("structure", "For Each")
            sel = st.selector
            if sel.sigil == "&" and not sel.props:  # For Each &All / &(…): once per team, &Ind is the team
                self.cov.add("structure", "For Each team")
                self.x.each_teams = True
                try:
                    chain = " & ".join(self._body_effects(st.body, st, in_each=True))
                finally:
                    self.x.each_teams = False
                teams = self.x._set_of(sel) if (sel.filters or (sel.name or "").lower() == "all") \
                    else f"[{self.x.eid(sel.name or '', ('team',), sel.span)}]"
                return [f"each(ind in {teams} => {chain})"]
            flt = self.x.player_filter(sel)
            chain = " & ".join(self._body_effects(st.body, st, in_each=True))
            return [f"each({flt} => {chain})"]
        raise Unsupported(f"the statement {type(st).__name__}", any_span(st, tb))

    def _flatten(self, branches: list) -> list:
        """Branches whose whole body is a nested Evaluate (condition lines under a condition line) joined
        into the outer chain: ``A: (C: X; Otherwise: Y)`` is ``A and C: X; A: Y``, with the same meaning
        since nothing runs between the two tests."""
        out = []
        for k, br in enumerate(branches):
            inner = br.body[0] if len(br.body) == 1 and isinstance(br.body[0], Evaluate) else None
            if inner is None or br.kind not in ("condition", "otherwise") or br.continues or any(
                    b.continues or b.kind not in ("condition", "otherwise") for b in inner.branches):
                out.append(br)
                continue
            self.cov.add("structure", "nested Evaluate in a branch")
            for b in self._flatten(inner.branches):
                if br.kind == "condition" and b.kind == "condition":
                    cond = Condition("and", operands=[br.condition, b.condition], span=b.span)
                    out.append(Branch("condition", cond, b.body, False, b.span))
                elif br.kind == "condition":  # the nested Otherwise: the outer condition alone
                    out.append(Branch("condition", br.condition, b.body, False, b.span))
                else:  # under Otherwise: the nested branches as they are
                    out.append(b)
                if b.kind == "otherwise":
                    break
            else:
                if br.kind == "condition" and k < len(branches) - 1:
                    # no nested line held: the outer branch was still taken, so the later ones are not tried
                    out.append(Branch("condition", br.condition, [], False, br.span))
        return out

    def _body_effects(self, body: list, node, in_each: bool = False) -> list[str]:
        """The effects of one body (a branch, an each chain): one shared target clause at most, written
        after the last effect."""
        effects = []
        clauses = set()
        own: list[tuple[str, str | None]] = []  # (effect, its clause)
        for k, a in enumerate(body):
            if not isinstance(a, Ability):
                # a nested block: its effects run when its condition holds, read when the chain gets there
                own.append((self._nested(a, node, in_each, last=k == len(body) - 1), None))
                continue
            text = self.ability(a, in_each=in_each)
            clause = None
            for marker in (" to(", " to?("):
                i = _top_level(text, marker)
                if i >= 0:
                    end = _clause_end(text, i + len(marker) - 1)
                    clause = text[i:end]
                    text = text[:i] + text[end:]
            own.append((text, clause))
            if clause is not None:
                clauses.add(clause)
        if in_each and clauses:
            raise Unsupported("an ability with its own targets inside For Each (its targets are @Ind)",
                              any_span(node))
        if len(clauses) > 1:
            # several targets: the first effect runs here and the branch is remembered; each later one is a
            # statement of its own (its own targets and duration) guarded by that branch
            self.cov.add("structure", "several targets in one branch")
            self._branches += 1
            k = self._branches
            first, clause = own[0]
            self._followups.extend((k, text + (clause or "")) for text, clause in own[1:])
            return [first + (clause or ""), f"remember({k})"]
        effects = [text for text, _ in own]
        if clauses:
            effects[-1] += clauses.pop()
        return effects

    def _nested(self, st, node, in_each: bool, last: bool) -> str:
        """A block nested in a branch (or in For Each): a Process runs its abilities; an Evaluate with one
        condition branch (no Otherwise) is ``check(c) && effects`` at the end of the chain."""
        if isinstance(st, Process):
            self.cov.add("structure", "nested Process")
            return " & ".join(self._body_effects(list(st.abilities), st, in_each))
        if isinstance(st, Evaluate) and last and len(st.branches) == 1 and st.branches[0].kind == "condition" \
                and not st.branches[0].continues:
            br = st.branches[0]
            assert br.condition is not None
            self.cov.add("structure", "nested condition")
            effects = self._body_effects(br.body, br, in_each)
            return f"check({self.x.condition(br.condition)}) && " + " & ".join(effects)
        raise Unsupported("a nested block inside a branch (only one condition, at the end of the branch, is "
                          "rendered)", any_span(st, node))

    # ---------------------------------------------------------------- abilities
    def _restr(self, a: Ability) -> str:
        if a.duration is None:
            return ""
        d = a.duration.lower().replace(" ", "")
        if d not in DURATIONS:
            raise Unsupported(f"the duration ~{a.duration}", a.span)
        self.cov.add("duration", a.duration)
        return " " + DURATIONS[d]

    def _to(self, v: Value | None, in_each: bool = False) -> str:
        if v is None:
            return ""
        if in_each and v.sigil == "@" and (v.name or "").lower() == "ind":
            self.cov.add("selector", "@Ind")
            return ""
        return " " + self.x.clause(v)

    def ability(self, a: Ability, in_each: bool = False) -> str:
        try:
            return self._ability(a, in_each)
        except (KeyError, IndexError, ValueError, AttributeError) as exc:
            # a shape the renderer does not know yet: reported where it is written, never a crash
            raise Unsupported(f"the ability '{a.text}' ({a.type}{'/' + a.subtype if a.subtype else ''}): "
                              f"unexpected form ({type(exc).__name__}: {exc})", a.span) from None

    def _ability(self, a: Ability, in_each: bool = False) -> str:
        t, sub = a.type, (a.subtype or "")
        self.cov.add("ability", f"{t}/{sub}" if sub else t)
        render = ABILITIES.get(t)
        restr = self._restr(a)
        if in_each and restr:  # a chain inside each() has no restriction: ~Permanent is the commands' default
            if restr.strip() != "permanent":
                raise Unsupported(f"the duration ~{a.duration} inside For Each", a.span)
            restr = ""
        text = render(self, _Use(a, sub, a.args, self.x, restr, in_each)) if render else None
        if text is not None:
            return text
        raise Unsupported(f"the ability '{a.text}' ({t}{'/' + sub if sub else ''})", a.span)

    def to(self, u: "_Use", key: str = "target") -> str:
        """The target clause of the ability's argument ``key`` (none inside For Each: the targets are @Ind)."""
        return self._to(u.args.get(key), u.in_each)

    def _is_self(self, v: Value) -> bool:
        return v.sigil == "@" and (v.name or "").lower() == "self" and not v.props

    def _attr_name(self, v: Value | None) -> str:
        if v is None:
            raise Unsupported("an attribute ability without its attribute", None)
        if v.sigil == "@" and (v.name or "").lower() == "thisattr":
            self.cov.add("selector", "@ThisAttr")
            return quote(self.element, v.span)
        return self.x.name(v)

    def _apply_value(self, o: str, a: Ability) -> str:
        if o.startswith("$"):
            var = o[1:].lower()
            if var in ("living", "total", "phase"):
                self.cov.add("value", f"${var}")
                return f"str({var})"
            raise Unsupported(f"the variable '{o}'", a.span)
        return quote(o, a.span)

    def _counter_target(self, v: Value | None, in_each: bool) -> str:
        if v is None or self._is_self(v):
            return ""
        if v.sigil == "@" and (v.name or "").lower() == "thisattr":
            self.cov.add("selector", "@ThisAttr")
            return " to(this)"
        return self._to(v, in_each)

    def _number(self, v: Value) -> str:
        if v.kind == "division":
            self.cov.add("value", f"division ({v.rounding or 'floor'})")
            a, b = v.items
            left, right = self.x.scalar(a), self.x.scalar(b)
            fn = {"ceil": "ceil", "floor": "floor", "round": "round"}.get((v.rounding or "floor").lower(), "floor")
            return f"{fn}({left} / {right})"
        return self.x.scalar(v)


@dataclass
class _Use:
    """One ability being rendered: the AST node, its subtype, its arguments, the value renderer, the
    duration suffix (`` phase``) and whether it sits inside For Each."""

    a: Ability
    sub: str
    args: dict
    x: Exprs
    restr: str
    in_each: bool


def _killing(r: "BlockRenderer", u: _Use) -> str | None:
    return f"{KILLINGS[u.sub]}(){r.to(u)}" if u.sub in KILLINGS else None


def _investigating(r: "BlockRenderer", u: _Use) -> str | None:
    levels = LEVELS.get(tuple(o.upper() for o in u.a.options))
    lv = f", {levels}" if levels else ""
    if u.sub == "attribute":
        return f"investigateAttribute({u.x.name(u.args['attribute'])}){r.to(u)}"
    if u.sub in ("role", "class", "category", "alignment"):
        return f"investigate({u.sub}{lv}){r.to(u)}"
    if u.sub == "count":
        role = u.args['role']
        if role.kind == "selector" and role.sigil == "@":  # a role held as a value (@Target of a role target)
            return f"countRole(str({u.x.player_expr(role)}){lv})"
        return f"countRole({u.x.name(role)}{lv})"
    if u.sub == "player count":
        return f"countPlayers() to?({u.x.player_filter(u.args['target'], dead=True)})"
    return None


#: the kinds of a target that is not a player (``Target X (Kind)``) -> the setTarget kind
VALUE_TARGETS = {"role": "role", "attribute": "attribute", "category": "category", "full category": "fullcategory",
                 "boolean": "boolean", "option": "option"}


def _targeting(r: "BlockRenderer", u: _Use) -> str | None:
    if u.sub != "target":
        return "untarget()"
    kind = (u.a.options[0] if u.a.options else "Player").lower()
    if kind in VALUE_TARGETS:
        v = u.args["target"]
        r.cov.add("ability", "targeting/target (not a player)")
        if v.sigil == "@" and (v.name or "").lower() == "selection" and not v.props:
            value = "selectedvalue"  # the action selects a value of that kind (rule key `selects`)
        elif v.kind == "constant" and kind in ("role", "attribute"):
            value = u.x.name(v)
        elif v.kind == "constant":
            value = quote(v.text, v.span)
        else:
            value = u.x.scalar(v)
        return f"setTarget({VALUE_TARGETS[kind]}, {value})"
    if kind not in ("player", "player optional", "dead", "ghost"):
        raise Unsupported(f"a target of the kind ({u.a.options[0]})", u.a.span)
    return f"setTarget(){r.to(u)}"


def _protecting(r: "BlockRenderer", u: _Use) -> str | None:
    if u.sub not in DEFENSES:
        return None
    against = u.args["killings"].text.lower()
    if against not in AGAINST:
        raise Unsupported(f"protection from '{u.args['killings'].text}'", u.a.span)
    during = (u.a.words.get("phase") or "").lower()
    if during:
        r.cov.add("ability", "protecting (during)")
    by = u.args.get("by")
    by_text = ""
    if by is not None and not r._is_all(by):  # only killings by these players are stopped
        r.cov.add("ability", "protecting (by)")
        by_text = f", {u.x.player_filter(by, dead=True)}"
    if during or by_text:
        by_text = f", {during or 'always'}{by_text}"
    if u.sub == "absence":
        loc = u.args.get("location")
        if loc is None:
            raise Unsupported("an absence without its place", u.a.span)
        if not r._is_self(loc):  # away at another place: a player's home, or a group's or location's place
            r.cov.add("ability", "protecting/absence (another place)")
            place = u.x.name(loc) if loc.sigil == "#" else u.x.player_expr(loc)
            return f"absent({place}, {AGAINST[against]}{by_text}){r.to(u)}{u.restr}"
    return f"protect({AGAINST[against]}, {DEFENSES[u.sub]}{by_text}){r.to(u)}{u.restr}"


def _disguising(r: "BlockRenderer", u: _Use) -> str | None:
    role = u.args["role"]
    rtext = "secondaryrole" if role.name == "SecondarySelection" else u.x.name(role)
    return f"disguise({'strong' if u.sub == 'strongly' else 'weak'}, {rtext}){r.to(u)}{u.restr}"


def _applying(r: "BlockRenderer", u: _Use) -> str | None:
    aname = r._attr_name(u.args.get("attribute"))
    if u.sub == "add":
        vals = "".join(", " + r._apply_value(o, u.a) for o in u.a.options)
        return f"apply({aname}{vals}){r.to(u)}{u.restr}"
    if u.sub == "remove":
        return f"removeAttribute({aname}){r.to(u)}"
    if u.sub == "change":
        return f"changeValue({aname}, {int(u.args['index'].text)}, {u.x.text(u.args['value'])}){r.to(u)}"
    return None


def _redirecting(r: "BlockRenderer", u: _Use) -> str | None:
    frm = u.args.get("from")
    ftext = f", {u.x.player_filter(frm)}" if frm is not None and not r._is_all(frm) else ""
    return f"redirect({quote(u.args['abilities'].text.lower(), u.a.span)}{ftext}){r.to(u)}{u.restr}"


def _manipulating(r: "BlockRenderer", u: _Use) -> str | None:
    prop = (u.a.words.get("property") or (u.args["property"].text if u.args.get("property") else "")).lower()
    which = {"public voting power": "public", "special public voting power": "special",
             "private voting power": "private", "hidden public voting power": "hidden",
             "lynch starting votes": "lynchstart"}.get(prop)
    if which is None:
        raise Unsupported(f"manipulating '{prop}'", u.a.span)
    if which in ("hidden", "lynchstart"):
        r.cov.add("ability", f"manipulating ({prop})")
    op = "add" if u.sub == "relative" else "set"
    return f"votingPower({which}, {op}, {u.x.scalar(u.args['amount'])}){r.to(u)}{u.restr}"


def _whispering(r: "BlockRenderer", u: _Use) -> str | None:
    dest, x = u.args["target"], u.x
    if dest.sigil == "#" or dest.kind == "constant":  # a group or location, or a role or attribute (its holders)
        dtext = x.name(dest)
        if dest.kind == "constant":
            r.cov.add("ability", "whispering (to a role's or attribute's holders)")
    else:
        dtext = f"str({x.player_expr(dest)})"
    name = f", {x.text(u.args['name'])}" if "name" in u.args else (", ''" if "from" in u.args else "")
    frm = f", {x.name(u.args['from'])}" if "from" in u.args else ""
    return f"whisper({dtext}{name}{frm}){u.restr}"


def _joining(r: "BlockRenderer", u: _Use) -> str | None:
    args = u.args
    group = args.get("group") or args.get("target")
    subject = args.get("subject") or (args.get("target") if "group" in args else None)
    if "group" not in args and group is not None and group.sigil == "@":
        # the newer guide's `Add ‹attribute› to ‹actor›` (guide only: the reference parser reads a joining)
        raise Unsupported(f"'{u.a.text}': the guide's Add of an attribute to a player (write Apply)", u.a.span)
    clause = r._to(subject, u.in_each) if subject is not None and not r._is_self(subject) else ""
    if u.sub == "add":
        m = args.get("membership")
        mem = f", {m.text.lower()}" if m is not None and m.text.lower() != "member" else ""
        return f"join({u.x.name(group)}{mem}){clause}{u.restr}"
    if u.sub == "remove":
        return f"leave({u.x.name(group)}){clause}"
    return None


def _granting(r: "BlockRenderer", u: _Use) -> str | None:
    if u.sub == "transfer":
        return f"transfer(){r.to(u)}"
    role = u.args["role"]
    if u.sub == "remove" and r.kind == "attribute" and role.sigil == "@" and (role.name or "").lower() == "thisattr":
        r.cov.add("ability", "granting/remove (@ThisAttr: the attribute itself)")  # the attribute leaves its holder
        return f"removeAttribute({quote(r.element, role.span)}){r.to(u)}"
    return f"{'grant' if u.sub == 'add' else 'revoke'}({u.x.name(role)}){r.to(u)}"


def _changing(r: "BlockRenderer", u: _Use) -> str | None:
    x = u.x
    if u.sub == "role":
        return f"roleChange({x.name(u.args['role'])}){r.to(u)}"
    if u.sub == "alignment":
        return f"alignmentChange({x.name(u.args['team'])}){r.to(u)}"
    if u.sub == "group":
        return f"groupChange({x.name(u.args['group'])}, {x.name(u.args['new_group'])})"
    return None


def _obstructing(r: "BlockRenderer", u: _Use) -> str | None:
    ab = u.a.words.get("abilities")
    neg = "!" if u.a.words.get("negated") else ""
    fb = u.args.get("feedback")
    parts = []
    if ab or fb is not None or u.a.words.get("feedback") == "chance":
        parts.append(quote(neg + (ab or "all").lower(), u.a.span))
    if u.a.words.get("feedback") == "chance":  # ⇒ (p:`a`, q:`b`): one drawn by chance (thousandths)
        r.cov.add("ability", "obstructing (chance)")
        texts, weights = [], []
        for item in u.a.options:
            p, _, text = item.partition(":")
            texts.append(quote(text.strip().strip("`"), u.a.span))
            weights.append(str(int(round(float(p.strip()) * 1000))))
        if not texts or sum(int(w) for w in weights) > 1000:
            raise Unsupported("fake feedbacks whose chances add up to more than 1", u.a.span)
        parts.append(f"[{', '.join(texts)}]")
        parts.append(f"[{', '.join(weights)}]")
    elif fb is not None:
        parts.append(quote(fb.text, fb.span))
    return f"obstruct({', '.join(parts)}){r.to(u)}{u.restr}"


def _poll(r: "BlockRenderer", u: _Use) -> str | None:
    poll, x, sub, restr = u.args.get("poll"), u.x, u.sub, u.restr
    pname = x.name(poll) if poll is not None else quote(r.element, u.a.span)
    if sub == "creation":
        where = u.args.get("location")
        if where is None:
            raise Unsupported("a poll creation without a place", u.a.span)
        title = f", {x.text(u.args['name'])}" if "name" in u.args else ""
        return f"createPoll({pname}, {x.name(where)}{title})"
    if sub == "addition":
        return f"addPoll({pname}){restr}"
    if sub in ("cancellation", "silent cancellation"):
        return f"cancelPoll({pname}{', silent' if sub.startswith('silent') else ''}){restr}"
    if sub == "deletion":
        return f"deletePoll({pname}){restr}"
    if sub != "manipulation":
        return None
    c = u.a.condition
    if c is None or c.left is None:
        raise Unsupported("a poll manipulation without its condition", u.a.span)
    clause = r._to(c.left)
    if c.op == "is":
        what = (c.right.text if c.right is not None else "").lower()
        if what not in ("unvotable", "disqualified"):
            raise Unsupported(f"a poll manipulation '{what}'", u.a.span)
        return f"pollManipulate({pname}, {what}){clause}{restr}"
    hidden = "hiddenvotes" if "hidden" in c.connectives else "votes"
    return f"pollManipulate({pname}, {hidden}, {x.scalar(c.right)}){clause}{restr}"


def _choices(r: "BlockRenderer", u: _Use) -> str | None:
    if u.sub == "creation":
        name = u.x.name(u.args["choice"])
        # the guide: the choice is sent to the target (or location), else the current player chooses; an
        # element with no `Choice Choose` line for it asks them at once (docs/werewolf.md, "Choices")
        ask = "" if slug(u.args["choice"].text) in r.choosing else ", ask"
        if ask:
            r.cov.add("ability", "choices/creation (asked at once)")
        where = u.args.get("target")
        if where is not None and where.sigil == "#":  # a location or group: its members choose
            clause = f" to({u.x.player_filter(where)})"
        elif where is not None and where.sigil == "@" and (where.name or "").lower() == "thisattr":
            r.cov.add("selector", "@ThisAttr (the holder)")
            clause = ""  # the attribute's holder is the current player
        else:
            clause = r.to(u)
        return f"choices({name}, {quote(', '.join(u.a.options), u.a.span)}{ask}){clause}"
    if u.sub == "choosing":
        option = u.args.get("option")
        if option is None or (option.sigil == "@" and (option.name or "").lower() == "chosen"):
            r.cov.add("selector", "@Chosen")  # the owner is asked (with a selection, as a prompt)
            return f"choose({u.x.name(u.args['choice'])})"
        r.cov.add("ability", "choices/choosing (fixed option)")
        return f"choose({u.x.name(u.args['choice'])}, {quote(option.text, option.span)})"
    return None


def _counting(r: "BlockRenderer", u: _Use) -> str | None:
    amount = u.args.get("amount")
    n = r._number(amount) if amount is not None else "1"
    clause = r._counter_target(u.args.get("target"), u.in_each)
    if u.sub == "increment":
        return f"counter(add, {n}){clause}"
    if u.sub == "decrement":
        return f"counter(add, -({n})){clause}"
    return f"counter(set, {n}){clause}"


def _displaying(r: "BlockRenderer", u: _Use) -> str | None:
    if u.sub == "create":
        return f"display({u.x.name(u.args['display'])}, {quote(', '.join(u.a.options), u.a.span)})"
    return f"updateDisplay({u.x.name(u.args['display'])}, {int(u.args['index'].text)}, {u.x.text(u.args['value'])})"


def _announcement(r: "BlockRenderer", u: _Use) -> str | None:
    info = u.x.text(u.args["info"])
    if u.sub in ("learn", "announce"):
        return f"{u.sub}({info})"
    if u.sub != "reveal":
        return None
    where = u.args.get("location")
    if where is None:
        raise Unsupported("Reveal without a place", u.a.span)
    what = u.args["info"]
    if what.kind == "selector" and what.sigil == "@":  # Reveal <player> to <place>: that player's role
        info = u.x.role_text(what)
    if r._is_self(where):
        return f"reveal({info}, 'self')"
    if where.sigil == "#" or where.kind == "constant":
        return f"reveal({info}, {u.x.name(where)})"
    if (where.name or "").lower() == "attacklocation" and not where.props:  # a group's place, or a player
        r.cov.add("ability", "announcement/reveal (to @AttackLocation)")
        return f"reveal({info}, attacklocation)"
    r.cov.add("ability", "announcement/reveal (to players)")  # every player of the selector learns it
    return f"reveal({info}, getTargets({quote(u.x.player_filter(where), where.span)}))"


def _formatting(r: "BlockRenderer", u: _Use) -> str | None:
    split = ""
    if "separator" in u.args:  # split by `sep` as `type`: the value is a text of pieces
        kind = (u.args["split_type"].text if "split_type" in u.args else "text").strip("`").lower()
        if kind not in ("player", "role", "text"):
            raise Unsupported(f"formatting pieces as '{kind}'", u.a.span)
        r.cov.add("ability", "formatting (split)")
        split = f", {u.x.text(u.args['separator'])}, {kind}"
    return f"format({u.x.scalar(u.args['value'])}, {u.x.text(u.args['template'])}{split})"


def _activating(r: "BlockRenderer", u: _Use) -> str | None:
    status = u.args.get("status")
    word = "always" if u.sub == "always" or status is None else status.text.lower()
    target = u.args.get("target")
    return f"activate({word}){'' if target is None or r._is_self(target) else ' ' + u.x.clause(target)}"


def _copying(r: "BlockRenderer", u: _Use) -> str | None:
    if [o.lower() for o in u.a.options] == ["suppressed"]:  # the copied role's Starting triggers do not run
        r.cov.add("ability", "copying (suppressed)")
        return f"copy(suppressed){r.to(u)}"
    if u.a.options:
        raise Unsupported(f"a copy ({', '.join(u.a.options)})", u.a.span)
    return f"copy(){r.to(u)}"


def _feedback(r: "BlockRenderer", u: _Use) -> str | None:
    v = u.args["value"]
    return f"store({quote(v.text, v.span)})" if v.kind == "success" else f"learn({u.x.text(v)})"


def _cancel(r: "BlockRenderer", u: _Use) -> str | None:
    fb = u.args.get("feedback")
    if fb is None:
        return "cancel()"
    if fb.kind != "success" and fb.text.lower() not in ("success", "failure"):
        r.cov.add("ability", "cancel (feedback text)")  # the visitor's feedback is the text
        return f"cancel(text, {u.x.text(fb)})"
    return f"cancel({fb.text.lower()})"


def _log(r: "BlockRenderer", u: _Use) -> str | None:
    v = u.args["value"]
    text = u.x.text(v) if v.kind in ("info", "constant") else u.x.scalar(v)
    label = u.args.get("label")
    return f"log({u.x.text(label)} + ': ' + str({text}))" if label is not None else f"log({text})"


def _of_element(command: str, key: str, label: str) -> Any:
    """An ability of the element itself (``disband()``), or of another element it names
    (``disband('lovers')``)."""
    def render(r: "BlockRenderer", u: _Use) -> str:
        v = u.args.get(key)
        if v is None or r._is_self(v):
            return f"{command}()"
        r.cov.add("ability", label)
        return f"{command}({u.x.name(v)})"
    return render


def _fixed(command: str, targeted: bool = False) -> Any:
    """An ability rendered as one fixed command; ``targeted``: the command takes the target clause."""
    def render(r: "BlockRenderer", u: _Use) -> str:
        return command + (r.to(u) if targeted else "")
    return render


#: ability type -> its renderer: the RuleScript text of one ability, or None for a form not rendered
ABILITIES = {
    "killing": _killing, "investigating": _investigating, "targeting": _targeting, "protecting": _protecting,
    "disguising": _disguising, "applying": _applying, "redirecting": _redirecting, "manipulating": _manipulating,
    "whispering": _whispering, "joining": _joining, "granting": _granting, "changing": _changing,
    "obstructing": _obstructing, "poll": _poll, "choices": _choices, "counting": _counting,
    "displaying": _displaying, "announcement": _announcement, "formatting": _formatting,
    "activating": _activating, "copying": _copying, "feedback": _feedback, "cancel": _cancel, "log": _log,
    "loyalty": lambda r, u: f"loyalty({(u.a.options[0] if u.a.options else 'Alignment').lower()}, "
                            f"{u.x.name(u.args['target'])})",
    "locking": lambda r, u: f"{'unlock' if u.sub == 'unlock' else 'lock'}({u.x.name(u.args['location'])})",
    "switching": lambda r, u: f"switch(){r.to(u)}",
    "shuffle": lambda r, u: "shuffle(%s)" % quote(", ".join(u.args[k].text for k in sorted(u.args)
                                                            if k.startswith("value")), u.a.span),
    "executing": lambda r, u: f"execute({u.args['command'].text.lower()}, {u.x.name(u.args['location'])})",
    "emit": lambda r, u: f"emit({u.x.text(u.args['value'])}{', end' if u.sub == 'end' else ''}){r.to(u)}",
    "storing": lambda r, u: "store(%s)" % (u.x.scalar(u.args["value"]) if u.args["value"].kind != "info"
                                           else u.x.text(u.args["value"])),
    "reset": _of_element("resetConversation", "target", "reset (another channel)"),
    "disband": _of_element("disband", "group", "disband (another group)"),
    "ascend": _fixed("ascend()"), "descend": _fixed("descend()"), "win": _fixed("win()"),
    "resurrecting": _fixed("resurrect()", targeted=True),
}


def _unquoted(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """(index, character, depth of brackets before it) of each character of ``text`` from ``start`` that
    stands outside quotes (the quote characters themselves are left out)."""
    depth = 0
    quote_ch = None
    for i in range(start, len(text)):
        ch = text[i]
        if quote_ch:
            if ch == quote_ch:
                quote_ch = None
        elif ch in "'\"":
            quote_ch = ch
        else:
            yield i, ch, depth
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1


def _clause_end(text: str, open_at: int) -> int:
    """The index after the parenthesis that closes the one at ``open_at`` (quotes are opaque)."""
    for i, ch, depth in _unquoted(text, open_at):
        if ch == ")" and depth == 1:
            return i + 1
    return len(text)


def _top_level(text: str, marker: str) -> int:
    """Where ``marker`` first stands in ``text`` outside quotes and brackets (the target clause of an
    ability), or -1: a text such as 'go to(the) square' holds none."""
    for i, ch, depth in _unquoted(text):
        if depth == 0 and ch not in "([)]" and text.startswith(marker, i):
            return i
    return -1


def _abilities(body: list):
    for st in body:
        if isinstance(st, Ability):
            yield st
        elif isinstance(st, Process):
            yield from _abilities(st.abilities)
        elif isinstance(st, Evaluate):
            for br in st.branches:
                yield from _abilities(br.body)
        elif isinstance(st, ForEach):
            yield from _abilities(st.body)
