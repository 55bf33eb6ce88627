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
from .initext import is_ini_safe


_ANNOTATION = re.compile(r"\[[a-z ]+\]")


class Unsupported(Exception):
    code = "WW401"

    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


class Ambiguous(Unsupported):
    """A name that several elements of different kinds share, where the line does not say which."""

    code = "WW403"


#: the WWRF types of a value that name an element, and the element kind each names
TYPE_KINDS = {"role": ("role",), "extra_role": ("role",), "active_extra_role": ("role",), "team": ("team",),
              "alignment": ("team",), "attribute": ("attribute",), "active_attribute": ("attribute",),
              "group": ("group", "location"), "location": ("location", "group"), "poll": ("poll",),
              "display": ("display",)}


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
    """A RuleScript string literal (no escapes: the quote that the text does not contain).  A text that
    :func:`~.initext.ini_text` would have to escape (a line break, a control character) cannot be one."""
    if not is_ini_safe(text):
        raise Unsupported("a text holding a line break or a control character cannot be written as a "
                          "RuleScript string", span)
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    raise Unsupported("a text holding both kinds of quote cannot be written as a RuleScript string", span)


#: player selectors that name one value of the resolution (RuleScript expression names)
SINGLE = {"self": "me", "selection": "selection", "this": "subject", "winner": "winner", "joiner": "joiner",
          "target": "targeted", "visitor": "visitor", "attacker": "attacker", "attacked": "subject",
          "secondaryselection": "secondary", "ind": "ind", "actiontarget": "actiontarget", "vote": "vote",
          "voter": "subject", "executor": "executor", "rolechanger": "attacker", "targetdead": "targeted",
          "chooser": "chooser", "oldvote": "oldvote", "newvote": "newvote", "attacklocation": "attacklocation",
          "result": "result", "thisattr": "me"}  # @Result: a poll's result in its listeners; @ThisAttr: its holder
#: player properties (``@Self->Counter``) and the player attribute of the werewolf profile
PLAYER_PROPS = {"counter": "counter", "alignment": "team", "role": "role", "class": "class", "category": "category",
                "target": "target", "publicvotingpower": "votingpower", "originalrole": "originalrole",
                "privatevotingpower": "privatevotingpower"}
#: the kind of value each player property gives (for property chains)
PLAYER_PROP_KINDS = {"role": "role", "originalrole": "role", "alignment": "team", "target": "player"}
#: role properties (``->Role->Category``): the roleInfo() property
ROLE_PROPS = ("category", "class", "team", "type", "players")
#: the last properties of a chain whose element stands for players (a team's, a group's, a role's)
STANDS_FOR_PLAYERS = ("members", "alignment", "role", "originalrole")
#: the last properties of a chain that give players (the chain may be the targets of an ability)
PLAYER_VALUED = ("target", "randomplayer", "players", "source")
#: result properties (``@Result->Success``): the outcome() property
OUTCOME_PROPS = ("success", "message", "result")
#: keys of advanced role selectors (``^(Cat:Killing)``) and of team selectors (``&(Align:T)``)
ROLE_KEYS = {"cat": "category", "category": "category", "class": "class", "team": "team", "type": "type"}
TEAM_KEYS = {"align": "align", "alignment": "align", "attr": "attr", "attribute": "attr"}
#: selectors of event values that are not players: the profile's name for each
TEXT_NAMES = {"visittype": "visittype", "actionabilitytype": "abilitytype", "visitsubtype": "visitsubtype",
              "defensetype": "defensetype", "actionresult": "actionresult", "actionfeedback": "actionfeedback",
              "attacksource": "attacksource", "visitparameter": "visitparameter",
              "secondvisitparameter": "secondvisitparameter", "killingtype": "deathtype",
              "votetext": "str(vote)", "oldvotetext": "str(oldvote)", "newvotetext": "str(newvote)",
              "triggersource": "triggersource"}
#: WWRF variables and the werewolf profile's names for them
VARIABLES = {"living": "living", "total": "total", "phase": "phase", "dead": "dead", "ghostly": "ghosts",
             "phname": "phasename", "haunting": "haunting"}
#: player selectors that name a set of players: the coverage label and the filter (None: the base set)
SETS = {"all": ("@All", None), "living": ("@All", None), "alive": ("@All", None),
        "dead": ("@Dead", "players[dead]"), "others": ("@Others", "players[alive]::not(me)"),
        "ghostly": ("@Ghostly", "players[ghostly]"), "deadalive": ("@DeadAlive", "players"),
        "nobody": ("@Nobody", "players::keep(nil)")}
#: player selectors that name a list of players of the resolution
LISTS = {"voters": "voters", "othervoters": "othervoters"}
#: advanced selector keys and the werewolf profile selector that keeps matching players
FILTER_KEYS = {"attr": ("has", "lacks"), "attribute": ("has", "lacks"), "attrrole": ("has", "lacks"),
               "align": ("team", None), "alignment": ("team", None), "group": ("group", None),
               "role": ("role", None), "class": ("class", None), "cat": ("category", None),
               "category": ("category", None), "fullcat": ("fullcat", None), "origrole": ("origrole", None),
               "origclass": ("origclass", None), "origcat": ("origcategory", None),
               "origalign": ("origteam", None), "origfullcat": ("origfullcat", None), "attrself": ("mine", None)}
#: special keys of an advanced selector: they change the players searched or how they are taken, not the test
SPECIAL_KEYS = ("aliveonly", "ghostly", "selectall", "random")
#: the quantity of a selector whose players come in a random order (every one of them: more than a game seats)
RANDOM_ORDER = 99
KILLING_TYPES = ("attack", "kill", "lynch", "true kill", "banish", "true banish")


class Exprs:
    """Renders values for one trigger block of element ``element`` (its slug) of kind ``kind``."""

    def __init__(self, coverage: Coverage, ids: "dict[str, dict[str, str]] | None" = None) -> None:
        self.cov = coverage
        self.element = ""
        self.kind = ""
        self.ids = ids or {}  # a name several kinds share: kind -> the id of that kind's element
        self.selects = False  # the block's action selects a value that is not a player (@Selection is it)
        self.each_teams = False  # inside For Each over teams (&Ind is the team)

    def eid(self, name: str, kinds: tuple[str, ...] | str | None, span: Span | None) -> str:
        """The id of the element a name refers to, as a string literal: its slug, or for a name that
        elements of several kinds share, the id of the element of the kind the line gives."""
        return quote(self.raw_id(name, kinds, span), span)

    def raw_id(self, name: str, kinds: tuple[str, ...] | str | None, span: Span | None) -> str:
        s = slug(name)
        shared = self.ids.get(s)
        if not shared:
            return s
        if isinstance(kinds, str) or kinds is None:
            kinds = TYPE_KINDS.get(kinds or "", ())
        for k in kinds:
            if k in shared:
                return shared[k]
        raise Ambiguous(f"'{name}' names elements of several kinds ({', '.join(sorted(shared))}) and this line "
                        "does not say which; rename one of them", span)

    # ---------------------------------------------------------------- players
    def player_filter(self, v: Value, dead: bool = False) -> str:
        """A selector of several players as a filter (``players[alive]::has('lupine')``)."""
        if v.kind == "host" and v.type == "player":  # %Player1%: the player the host named
            return f"players::keep({self._host(v)})"
        if v.kind not in ("selector", "constant", "words", "host"):
            raise Unsupported(f"'{v.text}' is not a player selector the renderer can turn into a filter", v.span)
        name = (v.name or "").lower()
        base = "players" if dead else "players[alive]"
        if v.sigil == "#" and v.name and [p.lower() for p in v.props] == ["members"]:
            self.cov.add("selector", "->Members")
            return f"{base}::group({self.eid(v.name, ('group',), v.span)})"
        if v.kind == "selector" and v.props and v.props[-1].lower() in PLAYER_VALUED:
            # a property that gives players (->Target, ->Role->Players, ->Attr(A)->Source, ->RandomPlayer)
            inner = self._attr_property(v) if v.props[0].lower().startswith("attr(") else self._chain(v)
            return f"players::keep({inner})"
        if v.kind == "selector" and v.props and v.props[-1].lower() in STANDS_FOR_PLAYERS:
            return f"{base}::keep(playersOf({self._stands(v)}))"
        if v.kind == "selector" and v.props:
            raise Unsupported(f"'{v.text}' is not a player selector the renderer can turn into a filter", v.span)
        if v.sigil == "&" or v.kind in ("constant", "words") or (v.kind == "host" and v.type == "role"):
            # a team (its players), a role or class name (its holders), a role the host names
            return f"{base}::keep(playersOf({self._stands(v)}))"
        one = self._one_player(v)
        if one is not None:
            return f"players::keep({one})"
        if v.sigil == "@" and name in SETS and not v.filters:
            label, text = SETS[name]
            self.cov.add("selector", label)
            return base if text is None else text
        if v.sigil == "@" and name in LISTS:
            self.cov.add("selector", f"@{v.name}")
            return f"players::keep({LISTS[name]})"
        if v.sigil == "@" and name == "members":
            self.cov.add("selector", "@Members")
            return f"{base}::group({quote(self.element, v.span)})"
        if v.sigil == "#" and v.name:
            self.cov.add("selector", "#Group (members)")
            return f"{base}::group({self.eid(v.name, ('group',), v.span)})"
        if v.sigil == "@" and name in SINGLE and not v.filters:
            expr = SINGLE[name]
            self.cov.add("selector", f"@{v.name}")
            return self._single_filter(expr, base, v)
        if v.sigil == "@" and v.filters:
            parts = []
            quantity = ""
            extra = ""
            for f in v.filters:
                key = f.key.lower()
                if key in SPECIAL_KEYS:
                    self.cov.add("selector", f"@({f.key}:…)")
                    on = f.value.lower() == "true"
                    if key == "aliveonly" and not on:
                        base = "players"
                    elif key == "ghostly" and on:
                        base = "players[ghostly]"
                    elif key == "selectall" and not on:  # one player drawn at random
                        quantity = "<r>"
                    elif key == "random" and on:  # every player, in a random order
                        quantity = quantity or f"<r{RANDOM_ORDER}>"
                    continue
                if key == "attrdisguise":  # wearing a disguise that the player @Value made
                    self.cov.add("selector", f"@({f.key}:…)")
                    maker = self.player_expr(Value("selector", "@" + f.value, "player", None, "@", f.value,
                                                   [], [], [], None, v.span))
                    extra += f"::{'not(players::disguisedby(' + maker + '))' if f.negated else 'disguisedby(' + maker + ')'}"
                    continue
                if key not in FILTER_KEYS:
                    raise Unsupported(f"the selector key '{f.key}' in '{v.text}'", v.span)
                pos, neg = FILTER_KEYS[key]
                sel = neg if f.negated else pos
                if sel is None:  # a negated key: the where test with '!='
                    sel = pos + "!"
                self.cov.add("selector", f"@({f.key}:{'!' if f.negated else ''}…)")
                kinds = {"group": ("group",), "role": ("role",), "origrole": ("role",), "team": ("team",),
                         "origteam": ("team",), "has": ("attribute", "role"), "lacks": ("attribute", "role"),
                         "mine": ("attribute",)}.get(pos, ())
                parts.append((sel, self.raw_id(f.value, kinds, v.span) if kinds else slug(f.value)))
            base = quantity + base
            if not parts:
                return base + extra
            if len(parts) == 1 and parts[0][0] not in ("fullcat", "origfullcat") and not parts[0][0].endswith("!"):
                sel, val = parts[0]
                return f"{base}::{sel}({quote(val, v.span)}){extra}"
            # several keys (or class and category): every test must hold (the where selector)
            if len(parts) > 1:
                self.cov.add("selector", "@(A,B) (several keys)")
            tests = []
            for sel, val in parts:
                if sel.rstrip("!") in ("fullcat", "origfullcat"):
                    if sel.endswith("!"):
                        raise Unsupported(f"a negated '{sel.rstrip('!')}' key in '{v.text}'", v.span)
                    cls, _, cat = val.partition("-")
                    pre = "orig" if sel == "origfullcat" else ""
                    tests += [f"{pre}class={cls}", f"{pre}category={cat}"]
                else:
                    tests.append(f"{sel}={val}")
            return f"{base}::where({quote(', '.join(tests), v.span)}){extra}"
        raise Unsupported(f"the selector '{v.text}' as a set of players", v.span)

    def _one_player(self, v: Value) -> str | None:
        """A selector of one player that is not a name of the resolution: ``@Winner1`` (a poll's
        numbered winners), ``@ID:42`` (Player 42); None for any other."""
        if v.kind != "selector" or v.sigil != "@" or v.props or v.filters:
            return None
        name = v.name or ""
        m = re.fullmatch(r"winner(\d+)", name.lower())
        if m:
            self.cov.add("selector", "@WinnerN")
            return f"winner({int(m.group(1))})"
        m = re.fullmatch(r"ID:(\d+)", name, re.I)
        if m:
            self.cov.add("selector", "@ID:…")
            return f"playerById({int(m.group(1))})"
        return None

    def _single_filter(self, expr: str, base: str, v: Value) -> str:
        if expr == "me":
            return "me"
        return f"players::keep({expr})"

    def player_expr(self, v: Value) -> str:
        """A selector of one player (or a list) as an expression."""
        if v.kind == "host" and v.type == "player":
            return self._host(v)
        if v.kind != "selector":
            raise Unsupported(f"'{v.text}' is not a player", v.span)
        name = (v.name or "").lower()
        if v.sigil == "@" and not v.filters and not v.props and name in SINGLE:
            self.cov.add("selector", f"@{v.name}")
            return SINGLE[name]
        one = self._one_player(v)
        if one is not None:
            return one
        if v.sigil == "@" and name.startswith("result") and name[6:].isdigit() and not v.props:
            self.cov.add("selector", "@ResultN")
            return f"results.{int(name[6:]) - 1}"
        if v.sigil == "@" and name in LISTS and not v.props:
            self.cov.add("selector", f"@{v.name}")
            return LISTS[name]
        if v.props and len(v.props) == 1 and v.props[0].lower() == "mostfreqrole":
            base = Value(v.kind, v.text.rsplit("->", 1)[0], v.type, None, v.sigil, v.name, v.filters, [], [],
                         None, v.span)
            self.cov.add("selector", "->MostFreqRole")
            return f"mostFreqRole({self.player_expr(base)})"
        if v.props and len(v.props) == 1 and v.props[0].lower() == "count":
            base = Value(v.kind, v.text.rsplit("->", 1)[0], v.type, None, v.sigil, v.name, v.filters, [], [],
                         None, v.span)
            self.cov.add("selector", "->Count")
            return f"len({self._found(base)})"
        return self._found(v)

    def _found(self, v: Value) -> str:
        """The players of a selector as a list expression: ``getTargets`` (which takes no decision and
        draws nothing), wrapped in ``pick`` for a selector that draws players at random."""
        flt = self.player_filter(v)
        m = re.match(r"<r(\d*)>", flt)
        if m is None:
            return f"getTargets({quote(flt, v.span)})"
        n = 1 if not m.group(1) else 0  # SelectAll:False draws one; Random:True shuffles them all
        return f"pick(getTargets({quote(flt[m.end():], v.span)}), {n})"

    def clause(self, v: Value) -> str:
        """A target clause ``to(...)`` for the players a value names."""
        name = (v.name or "").lower()
        if v.kind == "selector" and v.sigil == "@" and not v.filters and not v.props and name in SINGLE:
            self.cov.add("selector", f"@{v.name}")
            if name == "self":
                return "to(me)"
            if name == "result":  # a value of any kind: the players among it
                return "to(players::keep(result))"
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
                expr = self.scalar(item)
                parts.append(expr if expr.startswith("str(") and expr.endswith(")") and expr.count("(") == 1
                             else f"str({expr})")
                m = _ANNOTATION.match(rest)
                if m:  # a type annotation written after the selector ([role]) is not text
                    self.cov.add("value", "annotation")
                    rest = rest[m.end():]
            if rest:
                parts.append(quote(rest, v.span))
            return " + ".join(parts) if parts else "''"
        if v.kind == "number":
            return quote(v.text, v.span)
        if v.kind == "selector":  # a selector as a text (`End Emit @Option`, Feedback: @Result)
            self.cov.add("value", "a selector as a text")
            return f"str({self.scalar(v)})"
        raise Unsupported(f"the {v.kind} value '{v.text}' as a text", v.span)

    def name(self, v: Value) -> str:
        """The name of an element (attribute, group, poll, location) as a string literal of its id; a
        role the host names (``Role Change @Self to %Role%``) as ``host('Role')``."""
        if v.kind == "host" and v.type == "role":
            return self._host(v)
        if v.kind == "constant" or (v.kind == "selector" and v.sigil == "#" and v.name):
            self.cov.add("value", "#name" if v.sigil == "#" else "element name")
            kinds = ("group", "location") if v.sigil == "#" else v.type
            return self.eid(v.name if v.sigil == "#" and v.name else v.text, kinds, v.span)
        if v.kind == "selector" and v.sigil == "@" and not v.filters:
            # a selector where an element name is expected: the element it gives, read when the line runs
            name = (v.name or "").lower()
            if not v.props and name in ("self", "thisattr") and (name == "thisattr" or self.kind in ("group", "poll")):
                self.cov.add("element name", f"@{v.name} (this element)")
                return quote(self.element, v.span)
            if not v.props and name == "selection" and self.selects:
                self.cov.add("element name", "@Selection (a selected value)")
                return "selectedvalue"
            if not v.props and name in ("option", "chosen", "target", "targetdead", "result"):
                self.cov.add("element name", f"@{v.name}")
                if name in ("option", "chosen"):
                    return "option"
                value = "result" if name == "result" else "targeted"
                return f"(str({value}) if {value} != nil else '')"  # nil (no target): no element, the ability fails
            if v.props and v.props[-1].lower() in ("role", "originalrole", "alignment", "mostfreqrole"):
                self.cov.add("element name", f"->{v.props[-1]}")
                return self.scalar(v)
        raise Unsupported(f"'{v.text}' as an element name", v.span)

    def role_text(self, v: Value) -> str:
        """A player as the text of a reveal (``Reveal @Selection to #Square``): 'Player 3 is Seer'."""
        who = self.player_expr(v)
        self.cov.add("value", "a player's role as a text")
        return f"str({who}) + ' is ' + str(roleInfo({who}.role, 'name'))"

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
            if var in VARIABLES:
                self.cov.add("value", f"${var}")
                return VARIABLES[var]
            raise Unsupported(f"the variable '{v.text}'", v.span)
        if v.kind == "list":
            self.cov.add("value", "list")
            return "[" + ", ".join(self.scalar(i) for i in v.items) + "]"
        if v.kind == "boolean":
            self.cov.add("value", "boolean")
            return "true" if v.text.lower() in ("true", "yes") else "false"
        if v.kind == "info":
            return self.text(v)
        if v.kind == "host":
            return self._host(v)
        if v.kind == "selector" and (len(v.props) > 1 and not v.props[0].lower().startswith("attr(")
                                     or [p.lower() for p in v.props] in (["randomplayer"], ["members"],
                                                                         ["players"], ["source"])
                                     or (v.props and v.props[-1].lower() in OUTCOME_PROPS and
                                         (v.name or "").lower().startswith("result"))):
            return self._chain(v)
        if v.kind == "selector" and v.sigil in ("&", "^") and (v.filters or (v.name or "").lower() == "all"):
            return self._set_of(v)
        if v.kind == "selector":
            name = (v.name or "").lower()
            if v.sigil == "@" and name == "result" and not v.props:
                self.cov.add("selector", "@Result")
                return "result"
            if v.sigil == "@" and name == "result" and [p.lower() for p in v.props] in (["number"], ["text"], ["value"]):
                self.cov.add("selector", f"@Result->{v.props[0]}")  # the result itself, read as a number / text
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
            if v.sigil == "@" and name in TEXT_NAMES and not v.props:
                self.cov.add("selector", f"@{v.name}")
                return TEXT_NAMES[name]
            if v.sigil == "@" and name == "thisattr" and v.props:
                prop = v.props[0].lower()
                if prop in ("value1", "value2", "value3", "counter"):
                    self.cov.add("selector", f"@ThisAttr->{v.props[0]}")
                    return f"this.{prop}"
            if v.sigil == "@" and name == "deathtype":
                self.cov.add("selector", "@DeathType")
                return "deathtype"
            if v.props and v.props[0].lower().startswith("attr(") and v.props[0].endswith(")"):
                return self._attr_property(v)
            if v.props and len(v.props) == 1:
                prop = v.props[0].lower()
                base = Value(v.kind, v.text.rsplit("->", 1)[0], None, None, v.sigil, v.name, v.filters, [], [],
                             None, v.span)
                if prop == "count":
                    return self.player_expr(v)
                if prop in PLAYER_PROPS:
                    self.cov.add("selector", f"->{v.props[0]}")
                    return f"{self.player_expr(base)}.{PLAYER_PROPS[prop]}"
            if v.sigil == "&" and v.name and not v.filters and not v.props:
                low = v.name.lower()
                if low == "ind" and self.each_teams:  # For Each over teams: the team itself
                    self.cov.add("selector", "&Ind (For Each team)")
                    return "ind"
                if low in ("self", "ind"):  # the team of the owner / of the For Each player
                    self.cov.add("selector", f"&{v.name}")
                    return f"{'me' if low == 'self' else 'ind'}.team"
                if low == "all":
                    raise Unsupported("'&All' (every team): the renderer has no list of teams", v.span)
                self.cov.add("selector", "&Team")
                return self.eid(v.name, ("team",), v.span)
            return self.player_expr(v)
        raise Unsupported(f"the {v.kind} value '{v.text}'", v.span)

    def _host(self, v: Value) -> str:
        """Host information as ``host('name')``: ``%Role%`` (``%Role2%``, ``%RoleOnFile%``: any text
        after the kind), ``%Player1%``, ``%Number%``, ``%String%``, ``%PartialRoleList%``, options
        ``%Yes|No%``; ``%Role:^(…)%`` and ``%Player:@(…)%`` as ``host('role', roles(...))``,
        ``host('player', getTargets(...))``: the value comes from that list."""
        name, sep, target = v.text.strip().strip("%").partition(":")
        low = re.sub(r"[\s_-]+", "", name.lower())
        if "|" in name and not sep:
            if any(not o.strip() for o in name.split("|")):
                raise Unsupported(f"the host information '{v.text}': an option is empty", v.span)
            self.cov.add("value", "%A|B% (options)")
            return f"host({quote(name, v.span)})"
        kind = next((k for k in ("role", "player", "number", "string") if low.startswith(k)), None)
        if low == "partialrolelist":
            kind = "partialrolelist"
        if kind is None:
            raise Unsupported(f"the host information '{v.text}': not a kind the guides know (Role…, "
                              "Player…, Number…, String…, PartialRoleList, options a|b)", v.span)
        label = {"partialrolelist": "%PartialRoleList%"}.get(kind, f"%{kind.capitalize()}%")
        key = quote(re.sub(r"\s+", "", name), v.span)  # as written: a rule error names it so
        if not sep:
            self.cov.add("value", label)
            return f"host({key})"
        if kind not in ("role", "player"):
            raise Unsupported(f"the host information '{v.text}': only %Role:…% and %Player:…% come from "
                              "a list of their type", v.span)
        among = v.items[0] if v.items else Value("constant", target, span=v.span)
        if kind == "role" and among.sigil == "^" and not among.props:
            expr = self._set_of(among)
        elif kind == "player" and among.sigil in ("@", "#"):
            expr = self._found(among)
        else:
            raise Unsupported(f"the host information '{v.text}': '{among.text}' is not a list of "
                              f"{kind}s (a selector {'^(…)' if kind == 'role' else '@(…)'})", v.span)
        self.cov.add("value", f"%{kind.capitalize()}:…%")
        return f"host({key}, {expr})"

    def _set_of(self, v: Value) -> str:
        """A team set (``&All``, ``&(Align:T)``) or a role list (``^All``, ``^(Cat:C)``) as the list of
        their ids: ``teams('...')``, ``roles('...')``."""
        team = v.sigil == "&"
        keys = TEAM_KEYS if team else ROLE_KEYS
        if not v.filters:
            self.cov.add("selector", f"{v.sigil}All")
            return "teams('')" if team else "roles('')"
        tests = []
        for f in v.filters:
            key = keys.get(f.key.lower())
            if key is None:
                raise Unsupported(f"the key '{f.key}' of '{v.text}'", v.span)
            tests.append(f"{key}{'!' if f.negated else ''}={slug(f.value)}")
        self.cov.add("selector", f"{v.sigil}(…)")
        if team and any(t.startswith("attr") for t in tests):
            self.cov.add("selector", "&(Attr:…)")
        if team and len(tests) > 1:
            self.cov.add("selector", "&(A,B) (several keys)")
        return f"{'teams' if team else 'roles'}({quote(', '.join(tests), v.span)})"

    def _chain(self, v: Value) -> str:
        """A property chain (``@Selection->Role->Category``, ``@Result->Success``,
        ``#Lovers->Members``, ``@All->RandomPlayer``): each step applies to what the one before gave."""
        props = [p.lower() for p in v.props]
        name = (v.name or "").lower()
        bare = Value(v.kind, v.text.split("->")[0], None, None, v.sigil, v.name, v.filters, [], [], None, v.span)
        if len(props) > 1:
            self.cov.add("selector", "property chain")
        if v.sigil == "@" and (name == "result" or re.fullmatch(r"result\d", name)):
            n = 0 if name == "result" else int(name[6:])
            self.cov.add("selector", "@Result" if name == "result" else "@ResultN")
            if len(props) != 1 or props[0] not in OUTCOME_PROPS:
                raise Unsupported(f"the properties '{'->'.join(v.props)}' of a result", v.span)
            self.cov.add("selector", f"->{v.props[0]}")
            return f"outcome({n}, '{props[0]}')"
        if v.sigil == "#" and v.name and props[0] == "members":
            expr, kind = f"getTargets({quote(self.player_filter(Value(v.kind, v.text, None, None, '#', v.name, [], v.props[:1], [], None, v.span)), v.span)})", "players"
        elif props[0] == "players":  # the players a value stands for: a player, a role's, a group's ...
            self.cov.add("selector", "->Players")
            expr, kind = f"playersOf({self._holder(bare)})", "players"
        elif props[0] == "source" and name == "thisattr":
            self.cov.add("selector", "@ThisAttr->Source")
            expr, kind = "this.source", "player"
        elif props[0] == "randomplayer":
            self.cov.add("selector", "->RandomPlayer (value)")
            expr, kind = f"randomPlayer({self._found(bare)})", "player"
        elif props[0] in PLAYER_PROPS:
            self.cov.add("selector", f"->{v.props[0]}")
            expr = f"{self.player_expr(bare)}.{PLAYER_PROPS[props[0]]}"
            kind = PLAYER_PROP_KINDS.get(props[0], "value")
        else:
            raise Unsupported(f"the property chain '{v.text}'", v.span)
        for p, shown in zip(props[1:], v.props[1:]):
            if kind == "role" and p in ROLE_PROPS:
                self.cov.add("selector", f"role ->{shown}")
                expr, kind = f"roleInfo({expr}, '{p}')", {"team": "team", "players": "players"}.get(p, "value")
            elif kind == "player" and p in PLAYER_PROPS:
                self.cov.add("selector", f"->{shown}")
                expr, kind = f"{expr}.{PLAYER_PROPS[p]}", PLAYER_PROP_KINDS.get(p, "value")
            elif kind == "players" and p == "randomplayer":
                self.cov.add("selector", "->RandomPlayer (value)")
                expr, kind = f"randomPlayer({expr})", "player"
            elif kind == "players" and p == "count":
                self.cov.add("selector", "->Count")
                expr, kind = f"len({expr})", "value"
            else:
                raise Unsupported(f"the property '->{shown}' in '{v.text}'", v.span)
        return expr

    def _stands(self, v: Value) -> str:
        """What a value that stands for players is (for ``playersOf``): a team id (``&Werewolf``), the
        teams of ``&All`` / ``&(…)``, a role or class name, ``%Role%``, a chain's element (``->Members``
        of a team or group, ``->Alignment``, ``->Role``)."""
        props = [p.lower() for p in v.props]
        bare = Value(v.kind, v.text.split("->")[0], None, None, v.sigil, v.name, v.filters, [], [], None, v.span)
        if props and props[-1] == "members":
            self.cov.add("selector", "->Members")
            if len(props) > 1:
                return self._stands(Value(v.kind, v.text.rsplit("->", 1)[0], None, None, v.sigil, v.name, v.filters,
                                          v.props[:-1], [], None, v.span))
            if v.sigil == "@" and (v.name or "").lower() == "self":  # a group's (or team's) own members
                return quote(self.element, v.span)
            return self._stands(bare)
        if props:  # ->Alignment, ->Role, ->OriginalRole: the players of that team / role
            self.cov.add("selector", f"->{v.props[-1]} (its players)")
            return self.scalar(v)
        if v.kind == "host":
            self.cov.add("selector", "%Role% (its holders)")
            return self._host(v)
        if v.kind in ("constant", "words"):
            self.cov.add("selector", "a role, class or category name (its players)")
            return quote(slug(v.text), v.span)
        if v.sigil == "&" and (v.filters or (v.name or "").lower() == "all"):
            self.cov.add("selector", "&All / &(…) (their players)" if v.filters else "&All (players)")
            return self._set_of(v)
        if v.sigil == "&" and v.name and (v.name or "").lower() in ("self", "ind"):
            return self.scalar(v)
        if v.sigil == "&" and v.name:
            self.cov.add("selector", "&Team (its players)")
            return self.eid(v.name, ("team",), v.span)
        return self._holder(v)

    def _holder(self, v: Value) -> str:
        """A value whose players ``playersOf`` gives (``@Target``, ``@ThisAttr``, an element name)."""
        name = (v.name or "").lower()
        if v.kind == "selector" and v.sigil == "@" and name == "thisattr" and not v.props:
            self.cov.add("selector", "@ThisAttr")
            return "this"
        if v.kind == "selector" and v.sigil in ("&", "#") and v.name and not v.filters:
            return self.eid(v.name, ("team",) if v.sigil == "&" else ("group", "location"), v.span)
        if v.kind == "constant":
            return self.eid(v.text, v.type, v.span)
        if v.kind == "selector" and v.sigil == "@" and not v.props and not v.filters and name in SINGLE:
            self.cov.add("selector", f"@{v.name}")
            return SINGLE[name]
        return self.scalar(v) if v.props else self._found(v)

    def _attr_property(self, v: Value) -> str:
        """``P->Attr(Name)`` (the attribute card of that name on the player), then at most one of its
        properties: ``->Value1``..``->Value3``, ``->Counter``."""
        name = v.props[0][5:-1].strip().strip("`")
        base = Value(v.kind, v.text.split("->")[0], None, None, v.sigil, v.name, v.filters, [], [], None, v.span)
        self.cov.add("selector", "->Attr(Name)")
        expr = f"attr({self.player_expr(base)}, {self.eid(name, ('attribute',), v.span)})"
        rest = [p.lower() for p in v.props[1:]]
        if not rest:
            return expr
        if len(rest) == 1 and rest[0] in ("value1", "value2", "value3", "counter", "source"):
            self.cov.add("selector", f"->Attr(Name)->{v.props[1]}")
            return f"{expr}.{rest[0]}"
        raise Unsupported(f"the property '{v.props[1]}' of an attribute", v.span)

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
            if left.kind == "selector" and (left.filters or (left.name or "").lower() in ("all", "dead", "others", "members")
                                            or (left.props and left.props[-1].lower() in ("players", "members"))):
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
