"""One WWRF trigger block (or key line) as one RuleScript section in the werewolf profile."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ast import Ability, Evaluate, ForEach, KeyLine, Process, Restriction, TriggerBlock, Value
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
          "on vote add": "voteadd", "on defense": "defense"}
#: death-like triggers -> a guard on the kind of death
DEATHS = {"on death": None, "on killed": "deathtype in ['kill', 'attack', 'true kill']", "on lynch": "deathtype == 'lynch'",
          "on banishment": "deathtype == 'banish' or deathtype == 'true banish'",
          "on banished": "deathtype == 'banish' or deathtype == 'true banish'"}
PHASE_EVENTS = {"passive start phase": ("startday", "startnight"), "passive end phase": ("endday", "endnight")}
DURATIONS = {d: d for d in ("phase", "phaseattribute", "nextphase", "nextphaseattribute", "nextday",
                            "nextdayattribute", "nextnight", "nextnightattribute", "persistent", "permanent",
                            "attribute", "untiluse", "untilseconduse", "untiluseattribute")}
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

    def __init__(self, element: str, kind: str, coverage: Coverage) -> None:
        self.element = element
        self.kind = kind
        self.book_cov = coverage
        self.cov = coverage
        self.x = Exprs(coverage)
        self.condition_keys: list[str] = []

    def _begin(self) -> _Tracking:
        cov = _Tracking()
        self.cov = cov
        self.x = Exprs(cov)
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

    def poll_key(self, line: KeyLine) -> tuple[str, str]:
        key = line.key.lower()
        self.book_cov.add("key line", line.key)
        x = Exprs(self.book_cov)
        x.element, x.kind = self.element, self.kind
        if key in ("available options", "allowed voters"):
            if len(line.values) != 1:
                raise Unsupported(f"'{line.key}' with {len(line.values)} values", line.span)
            return ("options" if key == "available options" else "voters", x.player_filter(line.values[0]))
        if key == "show voters":
            return ("showvoters", "yes" if line.text.strip().lower() in ("yes", "true") else "no")
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
                if r.count is None or r.count.kind != "number":
                    raise Unsupported("a quantity that is not a number", r.span)
                keys.append(("quantity", r.count.text))
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
            keys.append(("scaling", self._scaling(params.scaling)))
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
            if target is None and self._uses(tb, "Selection", "Chosen", "SecondarySelection"):
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
            if name == "on visit":
                raise Unsupported("On Visit (reference only): use On Action", tb.span)
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
        if name == "on poll win":
            if value is not None:
                guards.append(f"poll == {quote(slug(value.text), value.span)}")
            return "~mypollwin~"
        if name in ("on emitted", "on end emitted"):
            if value is not None:
                guards.append(f"emitted == {quote(value.text, value.span)}")
            return "~myemitted~" if name == "on emitted" else "~myendemitted~"
        if name == "on whisper":
            if value is not None:
                guards.append(f"whispername == {quote(value.text, value.span)}")
            return "~mywhisper~"
        if name == "choice chosen":
            if value is not None:
                guards.append(f"option == {quote(value.text, value.span)}")
            return "~choicechosen~"
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
            field = "visittype" if trig.name.lower() == "on visited" else "abilitytype"
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
                var = (left.text if left is not None else "$living").lstrip("$").lower()
                num = right.text if right is not None else str(it.threshold)
                out.append(f"{var}{COMPARATORS.get(it.comparator or '=', '=')}{num} -> {it.count}")
            elif it.kind == "value":
                out.append(str(it.count if it.count is not None else it.value))
            else:
                raise Unsupported(f"the scaling form '{it.kind}'", it.span)
        return ", ".join(out)

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
            return [self.ability(a) for a in st.abilities]
        if isinstance(st, Evaluate):
            self.cov.add("structure", "Evaluate")
            out: list[str] = []
            parts: list[str] = []
            for br in st.branches:
                body = " & ".join(self._body_effects(br.body, br))
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
                    parts.append(f"[[else]] {body}")
                    out.append(" ".join(parts))
                    parts = []
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
            return out
        if isinstance(st, ForEach):
            self.cov.add("structure", "For Each")
            flt = self.x.player_filter(st.selector)
            chain = " & ".join(self._body_effects(st.body, st, in_each=True))
            return [f"each({flt} => {chain})"]
        raise Unsupported(f"the statement {type(st).__name__}", any_span(st, tb))

    def _body_effects(self, body: list, node, in_each: bool = False) -> list[str]:
        """The effects of one body (a branch, an each chain): one shared target clause at most, written
        after the last effect."""
        effects = []
        clauses = set()
        for a in body:
            if not isinstance(a, Ability):
                raise Unsupported("a nested block inside a branch", any_span(a, node))
            text = self.ability(a, in_each=in_each)
            for marker in (" to(", " to?("):
                if marker in text:
                    i = text.index(marker)
                    end = _clause_end(text, i + len(marker) - 1)
                    clauses.add(text[i:end])
                    text = text[:i] + text[end:]
            effects.append(text)
        if in_each:
            if clauses:
                raise Unsupported("an ability with its own targets inside For Each (its targets are @Ind)",
                                  any_span(node))
            return effects
        if len(clauses) > 1:
            raise Unsupported("abilities with different targets in one branch", any_span(node))
        if clauses:
            effects[-1] += clauses.pop()
        return effects

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
        x = self.x
        args = a.args
        restr = self._restr(a)
        to = lambda key="target": self._to(args.get(key), in_each)  # noqa: E731
        if t == "feedback":
            v = args["value"]
            if v.kind == "success":
                return f"store({quote(v.text, v.span)})"
            return f"learn({x.text(v)})"
        if t == "announcement":
            info = x.text(args["info"])
            if sub == "learn":
                return f"learn({info})"
            if sub == "announce":
                return f"announce({info})"
            if sub == "reveal":
                where = args.get("location")
                if where is None:
                    raise Unsupported("Reveal without a place", a.span)
                if where.sigil == "@" and (where.name or "").lower() == "self":
                    return f"reveal({info}, 'self')"
                return f"reveal({info}, {x.name(where)})"
        if t == "investigating":
            levels = LEVELS.get(tuple(o.upper() for o in a.options))
            lv = f", {levels}" if levels else ""
            if sub == "attribute":
                return f"investigateAttribute({x.name(args['attribute'])}){to()}"
            if sub in ("role", "class", "category", "alignment"):
                return f"investigate({sub}{lv}){to()}"
            if sub == "count":
                return f"countRole({x.name(args['role'])}{lv})"
            if sub == "player count":
                return f"countPlayers() to?({x.player_filter(args['target'], dead=True)})"
        if t == "targeting":
            if sub == "target":
                return f"setTarget(){to()}"
            return "untarget()"
        if t == "killing" and sub in KILLINGS:
            return f"{KILLINGS[sub]}(){to()}"
        if t == "resurrecting":
            return f"resurrect(){to()}"
        if t == "protecting" and sub in DEFENSES:
            against = args["killings"].text.lower()
            if against not in AGAINST:
                raise Unsupported(f"protection from '{args['killings'].text}'", a.span)
            by = args.get("by")
            if by is not None and not (by.sigil == "@" and (by.name or "").lower() == "all"):
                raise Unsupported("a protection limited to some killers ('by')", a.span)
            if sub == "absence":
                loc = args.get("location")
                if loc is None or not (loc.sigil == "@" and (loc.name or "").lower() == "self"):
                    raise Unsupported("an absence at another place than @Self", a.span)
            return f"protect({AGAINST[against]}, {DEFENSES[sub]}){to()}{restr}"
        if t == "disguising":
            role = args["role"]
            rtext = "secondaryrole" if role.name == "SecondarySelection" else x.name(role)
            return f"disguise({'strong' if sub == 'strongly' else 'weak'}, {rtext}){to()}{restr}"
        if t == "applying":
            attr = args.get("attribute")
            aname = self._attr_name(attr)
            if sub == "add":
                vals = "".join(", " + self._apply_value(o, a) for o in a.options)
                return f"apply({aname}{vals}){to()}{restr}"
            if sub == "remove":
                return f"removeAttribute({aname}){to()}"
            if sub == "change":
                return f"changeValue({aname}, {int(args['index'].text)}, {x.text(args['value'])}){to()}"
        if t == "redirecting":
            frm = args.get("from")
            ftext = f", {x.player_filter(frm)}" if frm is not None and not self._is_all(frm) else ""
            return f"redirect({quote(args['abilities'].text.lower(), a.span)}{ftext}){to()}{restr}"
        if t == "manipulating":
            prop = (a.words.get("property") or (args.get("property").text if args.get("property") else "")).lower()
            which = {"public voting power": "public", "special public voting power": "special",
                     "private voting power": "private"}.get(prop)
            if which is None:
                raise Unsupported(f"manipulating '{prop}'", a.span)
            op = "add" if sub == "relative" else "set"
            return f"votingPower({which}, {op}, {x.scalar(args['amount'])}){to()}{restr}"
        if t == "whispering":
            dest = args["target"]
            dtext = x.name(dest) if dest.sigil == "#" else f"str({x.player_expr(dest)})"
            name = f", {x.text(args['name'])}" if "name" in args else (", ''" if "from" in args else "")
            frm = f", {x.name(args['from'])}" if "from" in args else ""
            return f"whisper({dtext}{name}{frm}){restr}"
        if t == "joining":
            group = args.get("group") or args.get("target")
            subject = args.get("subject") or (args.get("target") if "group" in args else None)
            if sub == "add":
                m = args.get("membership")
                mem = f", {m.text.lower()}" if m is not None and m.text.lower() != "member" else ""
                return f"join({x.name(group)}{mem}){self._to(subject, in_each) if subject is not None and not self._is_self(subject) else ''}{restr}"
            if sub == "remove":
                return f"leave({x.name(group)}){self._to(subject, in_each) if subject is not None and not self._is_self(subject) else ''}"
        if t == "granting":
            role = args["role"]
            if sub == "transfer":
                return f"transfer(){to()}"
            rname = x.name(role)
            return f"{'grant' if sub == 'add' else 'revoke'}({rname}){to()}"
        if t == "loyalty":
            kind = (a.options[0] if a.options else "Alignment").lower()
            return f"loyalty({kind}, {x.name(args['target'])})"
        if t == "changing":
            if sub == "role":
                return f"roleChange({x.name(args['role'])}){to()}"
            if sub == "alignment":
                return f"alignmentChange({x.name(args['team'])}){to()}"
            if sub == "group":
                return f"groupChange({x.name(args['group'])}, {x.name(args['new_group'])})"
        if t == "obstructing":
            ab = a.words.get("abilities")
            neg = "!" if a.words.get("negated") else ""
            fb = args.get("feedback")
            parts = []
            if ab or fb is not None:
                parts.append(quote(neg + (ab or "all").lower(), a.span))
            if fb is not None:
                parts.append(quote(fb.text, fb.span))
            return f"obstruct({', '.join(parts)}){to()}{restr}"
        if t == "poll":
            poll = args.get("poll")
            pname = x.name(poll) if poll is not None else quote(self.element, a.span)
            if sub == "creation":
                where = args.get("location")
                if where is None or "name" in args:
                    raise Unsupported("a poll creation without a place, or with a display name", a.span)
                return f"createPoll({pname}, {x.name(where)})"
            if sub == "addition":
                return f"addPoll({pname}){restr}"
            if sub in ("cancellation", "silent cancellation"):
                return f"cancelPoll({pname}{', silent' if sub.startswith('silent') else ''}){restr}"
            if sub == "deletion":
                return f"deletePoll({pname}){restr}"
            if sub == "manipulation":
                c = a.condition
                if c is None or c.left is None:
                    raise Unsupported("a poll manipulation without its condition", a.span)
                clause = self._to(c.left)
                if c.op == "is":
                    what = (c.right.text if c.right is not None else "").lower()
                    if what not in ("unvotable", "disqualified"):
                        raise Unsupported(f"a poll manipulation '{what}'", a.span)
                    return f"pollManipulate({pname}, {what}){clause}{restr}"
                hidden = "hiddenvotes" if "hidden" in c.connectives else "votes"
                return f"pollManipulate({pname}, {hidden}, {x.scalar(c.right)}){clause}{restr}"
        if t == "choices":
            if sub == "creation":
                opts = quote(", ".join(a.options), a.span)
                return f"choices({x.name(args['choice'])}, {opts}){to()}"
            if sub == "choosing":
                return f"choose({x.name(args['choice'])})"
        if t == "counting":
            amount = args.get("amount")
            n = self._number(amount) if amount is not None else "1"
            tgt = args.get("target")
            clause = self._counter_target(tgt, in_each)
            if sub == "increment":
                return f"counter(add, {n}){clause}"
            if sub == "decrement":
                return f"counter(add, -({n})){clause}"
            return f"counter(set, {n}){clause}"
        if t == "emit":
            return f"emit({x.text(args['value'])}{', end' if sub == 'end' else ''}){to()}"
        if t == "displaying":
            if sub == "create":
                return f"display({x.name(args['display'])}, {quote(', '.join(a.options), a.span)})"
            return f"updateDisplay({x.name(args['display'])}, {int(args['index'].text)}, {x.text(args['value'])})"
        if t == "cancel":
            fb = args.get("feedback")
            return f"cancel({fb.text.lower()})" if fb is not None else "cancel()"
        if t == "reset":
            return "resetConversation()"
        if t in ("ascend", "descend", "win"):
            return f"{t}()"
        if t == "disband":
            return "disband()"
        if t == "storing":
            return f"store({x.scalar(args['value']) if args['value'].kind != 'info' else x.text(args['value'])})"
        if t == "log":
            return f"log({x.text(args['value']) if args['value'].kind in ('info', 'constant') else x.scalar(args['value'])})"
        raise Unsupported(f"the ability '{a.text}' ({t}{'/' + sub if sub else ''})", a.span)

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


def _clause_end(text: str, open_at: int) -> int:
    """The index after the parenthesis that closes the one at ``open_at`` (quotes are opaque)."""
    depth = 0
    quote_ch = None
    for i in range(open_at, len(text)):
        ch = text[i]
        if quote_ch:
            if ch == quote_ch:
                quote_ch = None
        elif ch in "'\"":
            quote_ch = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _abilities(body: list):
    for st in body:
        if isinstance(st, Ability):
            yield st
        elif isinstance(st, Process):
            yield from st.abilities
        elif isinstance(st, Evaluate):
            for br in st.branches:
                yield from _abilities(br.body)
        elif isinstance(st, ForEach):
            yield from _abilities(st.body)
