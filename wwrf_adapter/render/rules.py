"""One WWRF trigger block (or key line) as one RuleScript section in the werewolf profile."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ast import Ability, Evaluate, ForEach, KeyLine, Process, TriggerBlock
from .exprs import Coverage, Exprs, Unsupported, any_span, quote

#: prompting WWRF triggers -> the `timing` key of an action
TIMINGS = {"immediate night": "immediate night", "immediate day": "immediate day",
           "start night": "start night", "start day": "start day", "end night": "end night",
           "end day": "end day"}
#: automatic WWRF triggers -> RuleScript events
EVENTS = {"passive start day": "startday", "passive start night": "startnight",
          "passive end day": "endday", "passive end night": "endnight", "passive": "passive",
          "starting": "starting", "on poll closed": "pollclosed", "on poll skipped": "pollskipped",
          "on join": "join"}
#: WWRF durations -> RuleScript restrictions
DURATIONS = {"phase": "phase", "nextphase": "nextphase", "nextday": "nextday", "persistent": "persistent",
             "permanent": "permanent", "untiluse": "untiluse"}
KILLINGS = {"attack": "attack", "kill": "kill", "lynch": "lynch", "true kill": "trueKill"}
DEFENSES = {"active": "active", "passive": "passive", "partial": "partial", "recruitment": "recruitment"}
AGAINST = {"attacks": "attacks", "kills": "kills", "lynches": "lynches", "attacks & lynches": "attacks-lynches",
           "all": "all", "banishments": "banishments"}


@dataclass
class RuleSection:
    id: str
    comments: list[str] = field(default_factory=list)
    keys: list[tuple[str, str]] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"[{self.id}]"] + [f"# {c}" for c in self.comments]
        for k, v in self.keys:
            first, *rest = v.split("\n")
            lines.append(f"{k} = {first}")
            lines.extend(f"    {r}" for r in rest)
        return "\n".join(lines) + "\n"


class BlockRenderer:
    """Renders trigger blocks of one element (``element`` is its slug, ``kind`` its element kind)."""

    def __init__(self, element: str, kind: str, coverage: Coverage) -> None:
        self.element = element
        self.kind = kind
        self.cov = coverage
        self.x = Exprs(coverage)

    # ---------------------------------------------------------------- key lines
    def win_condition(self, line: KeyLine) -> list[tuple[str, str]]:
        if not line.values:
            raise Unsupported("an empty win condition", line.span)
        filters = "; ".join(self.x.player_filter(v) for v in line.values)
        self.cov.add("key line", "Win Condition")
        return [("auto", f"~wincheck~ [[if living > 0 and len(getTargets({quote(filters, line.span)})) == living]] win()")]

    def poll_key(self, line: KeyLine) -> tuple[str, str]:
        key = line.key.lower()
        self.cov.add("key line", line.key)
        if key in ("available options", "allowed voters"):
            if len(line.values) != 1:
                raise Unsupported(f"'{line.key}' with {len(line.values)} values", line.span)
            return ("options" if key == "available options" else "voters", self.x.player_filter(line.values[0]))
        if key == "show voters":
            return ("showvoters", "yes" if line.text.strip().lower() in ("yes", "true") else "no")
        raise Unsupported(f"the poll key '{line.key}'", line.span)

    # ---------------------------------------------------------------- trigger blocks
    def block(self, tb: TriggerBlock) -> list[tuple[str, str]]:
        trig = tb.trigger
        name = trig.name.lower()
        keys: list[tuple[str, str]] = []
        guards: list[str] = []
        target: str | None = None
        params = tb.params
        # the trigger
        if name in TIMINGS:
            keys.append(("timing", TIMINGS[name]))
            event = None
        elif name == "on death":
            if trig.selector is None:
                event = "~mydeath~"
            else:
                event = "~death~"
                sel = trig.selector
                if not (sel.sigil == "@" and (sel.name or "").lower() == "all" and not sel.filters):
                    guards.append(f"victim in getTargets({quote(self._dead_filter(sel), sel.span)})")
        elif name in EVENTS:
            event = f"~{EVENTS[name]}~"
            if trig.value is not None or trig.selector is not None:
                raise Unsupported(f"the trigger '{trig.name}' with a value or selector", tb.span)
        else:
            raise Unsupported(f"the trigger '{trig.name}'", tb.span)
        self.cov.add("trigger", trig.name + (" (complex)" if trig.selector is not None else ""))
        # parameters
        for r in params.restrictions:
            self.cov.add("restriction", r.kind)
            if r.kind == "temporal":
                keys.append(("temporal", f"{(r.phase or '').lower()} {r.number}{'+' if r.onward else ''}"))
            elif r.kind == "quantity":
                if r.count is None or r.count.kind != "number":
                    raise Unsupported("a quantity that is not a number", r.span)
                keys.append(("quantity", r.count.text))
            elif r.kind == "status":
                keys.append(("status", (r.status or "alive").lower()))
            elif r.kind == "condition":
                assert r.condition is not None
                if event is None and self.x.selection_excludes_self(r.condition):
                    target = "player[alive]::not(me)"
                    self.cov.add("condition", "is not (selection)")
                else:
                    guards.append(self.x.condition(r.condition))
            elif r.kind == "attribute":
                assert r.attribute is not None
                who = self.x.player_expr(r.actor) if r.actor is not None else "me"
                test = f"has({who}, {self.x.name(r.attribute)})"
                guards.append(test if r.has else f"not {test}")
            else:
                raise Unsupported(f"the {r.kind} restriction", r.span)
        if params.scaling:
            raise Unsupported("scaling", params.scaling[0].span or tb.span)
        words = []
        for o in params.other:
            if o.value is not None:
                raise Unsupported(f"{{{o.name}: …}} with a value", o.span or tb.span)
            words.append(o.name.lower())
            self.cov.add("parameter", o.name)
        if words:
            keys.append(("params", ", ".join(words)))
        if params.prompt is not None:
            keys.append(("prompt", params.prompt.name))
            self.cov.add("parameter", "prompt")
        if event is None:
            if guards:
                raise Unsupported("a condition on an action that does not concern @Selection", tb.span)
            if target is None:
                target = "player[alive]" if self._uses_selection(tb) else None
            if target is not None:
                keys.append(("target", target))
            keys.append(("action", self._statements(tb.body, tb)))
        else:
            stmts = "".join(f"[[if {g}]] ; " for g in guards) + self._statements(tb.body, tb)
            keys.append(("auto", f"{event} {stmts}"))
        return keys

    def _dead_filter(self, sel) -> str:
        text = self.x.player_filter(sel)
        return text.replace("players[alive]", "players", 1)

    def _uses_selection(self, tb: TriggerBlock) -> bool:
        return "@Selection" in repr(tb.body) or "'Selection'" in repr(tb.body)

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
            parts = []
            for i, br in enumerate(st.branches):
                if br.continues:
                    raise Unsupported("Continue in an Evaluate", br.span)
                body = " & ".join(self._body_effects(br.body, br))
                if br.kind == "otherwise":
                    self.cov.add("structure", "Otherwise")
                    parts.append(f"[[else]] {body}")
                elif br.kind == "condition":
                    assert br.condition is not None
                    parts.append(f"[[{'if' if not parts else 'elif'} {self.x.condition(br.condition)}]] {body}")
                else:
                    raise Unsupported("an always line inside an Evaluate", br.span)
            return [" ".join(parts)]
        if isinstance(st, ForEach):
            raise Unsupported("For Each", st.span)
        raise Unsupported(f"the statement {type(st).__name__}", any_span(st, tb))

    def _body_effects(self, body: list, node) -> list[str]:
        effects = []
        for a in body:
            if not isinstance(a, Ability):
                raise Unsupported("a nested block inside an Evaluate branch", any_span(a, node))
            text = self.ability(a)
            if " to(" in text:
                raise Unsupported("an ability with its own targets inside an Evaluate branch", a.span)
            effects.append(text)
        return effects

    # ---------------------------------------------------------------- abilities
    def ability(self, a: Ability) -> str:
        t, sub = a.type, (a.subtype or "")
        self.cov.add("ability", f"{t}/{sub}" if sub else t)
        x = self.x
        args = a.args
        restr = ""
        if a.duration is not None:
            d = a.duration.lower().replace(" ", "")
            if d not in DURATIONS:
                raise Unsupported(f"the duration ~{a.duration}", a.span)
            restr = " " + DURATIONS[d]
            self.cov.add("duration", a.duration)
        if t == "feedback":
            return f"learn({x.text(args['value'])})"
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
        if t == "investigating" and sub == "attribute":
            return f"investigate(attribute, {x.name(args['attribute'])}) {x.clause(args['target'])}"
        if t == "killing" and sub in KILLINGS:
            return f"{KILLINGS[sub]}() {x.clause(args['target'])}"
        if t == "protecting" and sub in DEFENSES:
            against = args["killings"].text.lower()
            if against not in AGAINST:
                raise Unsupported(f"protection from '{args['killings'].text}'", a.span)
            by = args.get("by")
            if by is not None and not (by.sigil == "@" and (by.name or "").lower() == "all"):
                raise Unsupported("a protection limited to some killers ('by')", a.span)
            return f"protect({AGAINST[against]}, {DEFENSES[sub]}) {x.clause(args['target'])}{restr}"
        if t == "applying" and sub == "add" and not a.options:
            return f"apply({x.name(args['attribute'])}) {x.clause(args['target'])}{restr}"
        if t == "joining" and sub == "add" and (args.get("membership") is None or args["membership"].text == "Member"):
            target = args.get("target")
            clause = "" if target is None or (target.name or "").lower() == "self" else " " + x.clause(target)
            return f"join({x.name(args['group'])}){clause}{restr}"
        if t == "poll" and sub == "creation":
            poll = args.get("poll")
            where = args.get("location")
            if where is None or "name" in args:
                raise Unsupported("a poll creation without a place, or with a display name", a.span)
            pname = x.name(poll) if poll is not None else quote(self.element, a.span)
            return f"createPoll({pname}, {x.name(where)})"
        raise Unsupported(f"the ability '{a.text}' ({t}{'/' + sub if sub else ''})", a.span)
