"""A WWRF book checked as a game (``wwrf check`` on a book, ``wwrf render``).

The typing pass (symbols.py) checks each element; this module checks the book as a whole, as the
game it renders to:

* WW920: every element a book refers to is defined in it (groups and locations ``#...``, teams
  ``&...`` and a role's team, roles, attributes, polls, displays, inherited ability sets);
* WW921: something lets the village act: a poll that is created and whose closing lynches or kills;
* WW922: every team has a win condition and a role in some role list to reach it;
* WW923: ``role-lists.yaml`` deals: each entry is a player count and a list of that many defined
  roles, a unique role at most once;
* WW924: every role names a team the book defines (a role no team can contain cannot win).

Each diagnostic is located on the line that causes it (the role list entry, the team's header, the
reference); what is missing altogether is located on the book's ``role-lists.yaml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from rulescript import yamlsafe
from rulescript.textfile import read_located
from rulescript.diagnostics import Diagnostic, Span, did_you_mean

from .ast import Ability, Element, Inherit, KeyLine, Meta, TriggerBlock, Value
from .keys import name_key
from .project import Project
from . import symbols
from .symbols import iter_abilities
from .teams import role_team

ROLE_LISTS_FILE = "role-lists.yaml"
#: selector filter keys and typed constants -> the kind of element they name (the typing pass's tables)
_FILTER_KINDS = symbols._FILTER_KINDS
_CONSTANT_KINDS = symbols._CHECKED
_TEAM_WORDS = ("all", "self", "ind")


def is_book(folder: Path) -> bool:
    """A folder checked as a game: it has a role list (``role-lists.yaml``)."""
    return folder.is_dir() and (folder / ROLE_LISTS_FILE).is_file()


def check_book(project: Project, book: Path) -> list[Diagnostic]:
    return _BookCheck(project, book).run()


def _slug(name: str) -> str:
    return name_key(name).replace(" ", "-")


def own_values(items: list) -> Iterator[Value]:
    """Every value of an element's own lines (not those of the ability sets it inherits: they are the
    set's lines, checked once in the set)."""
    return symbols.values_of(items, skip=(Inherit,))


class _BookCheck:
    def __init__(self, project: Project, book: Path) -> None:
        self.project = project
        self.book = book
        self.diags: list[Diagnostic] = []
        self.by_kind: dict[str, dict[str, Element]] = {}
        for el in project.elements.values():
            self.by_kind.setdefault(el.kind, {})[name_key(el.name)] = el
        self.lists_file = book / ROLE_LISTS_FILE

    # ------------------------------------------------------------------ helpers
    def has(self, kind: str, name: str) -> bool:
        return name_key(name) in self.by_kind.get(kind, {})

    def names(self, *kinds: str) -> list[str]:
        return sorted(el.name for k in kinds for el in self.by_kind.get(k, {}).values())

    def add(self, severity: str, code: str, message: str, span: Span | None, file: str, notes: tuple[str, ...] = ()) -> None:
        self.diags.append(Diagnostic(severity, code, message, span or Span(file, 1, 1), notes))

    def book_span(self) -> Span:
        return Span(str(self.lists_file if self.lists_file.is_file() else self.book), 1, 1)

    # ------------------------------------------------------------------ the checks
    def run(self) -> list[Diagnostic]:
        for el in self.project.elements.values():
            self.references(el)
        self.roles_have_teams()
        self.role_lists()
        self.village_can_act()
        self.teams_can_win()
        return sorted(self.diags, key=lambda d: (d.span.file, d.span.line, d.span.col))

    def unknown(self, kind: str, name: str, span: Span | None, file: str, kinds: tuple[str, ...] = ()) -> None:
        known = self.names(*(kinds or (kind,)))
        notes = did_you_mean(name, known) or ((f"the book's {kind}s: {', '.join(known)}",) if known
                                              else (f"the book defines no {kind}: add a file for it",))
        self.add("error", "WW920", f"unknown {kind} '{name}': the book does not define it", span, file, notes)

    def references(self, el: Element) -> None:
        for item in el.items:
            if isinstance(item, Inherit) and not self.has("ability set", item.set_name):
                self.unknown("ability set", item.set_name, item.span, el.file)
            if isinstance(item, Meta) and item.kind == "role attribute" and item.value is not None:
                if not self.has("attribute", item.value.text):
                    self.unknown("attribute", item.value.text, item.value.span or item.span, el.file)
        for v in own_values(el.items):
            self.value(v, el.file)

    def value(self, v: Value, file: str) -> None:
        if v.kind == "selector":
            name = v.name or ""
            if v.sigil == "#" and name and not (self.has("group", name) or self.has("location", name)):
                self.unknown("group or location", name, v.span, file, ("group", "location"))
            elif v.sigil == "&" and name and name.lower() not in _TEAM_WORDS and not self.has("team", name):
                self.unknown("team", name, v.span, file)
            for f in v.filters:
                kind = _FILTER_KINDS.get(f.key.lower())
                if kind and not self.has(kind, f.value):
                    self.unknown(kind, f.value, v.span, file)
        elif v.kind == "constant":
            kind = _CONSTANT_KINDS.get(v.type or "")
            if kind and not self.has(kind, v.text):
                self.unknown(kind, v.text, v.span, file)

    def team_names(self) -> dict[str, str]:
        """The book's teams: name key -> name."""
        return {key: el.name for key, el in self.by_kind.get("team", {}).items()}

    def team_of(self, role: Element) -> str | None:
        """The name key of the team a role belongs to (the renderer's reading, :mod:`wwrf_adapter.teams`)."""
        team = role_team(role.header, self.team_names())[0]
        return name_key(team) if team else None

    def roles_have_teams(self) -> None:
        teams = self.team_names()
        for role in self.by_kind.get("role", {}).values():
            if (role.header.role_class or "").lower() == "extra":
                continue  # an extra role is granted beside a player's role: the player's team holds it
            team, problem, _how = role_team(role.header, teams)
            if problem:
                known = sorted(teams.values())
                self.add("error", "WW924", f"the role '{role.name}': {problem}: no team can contain it",
                         role.header.span, role.file,
                         did_you_mean(role.header.team, known) if role.header.team else
                         ("write its team in the header: **Name** | Class Category - Team Name Team",))

    # ------------------------------------------------------------------ role lists
    def role_lists(self) -> dict[int, list[str]]:
        """The lists that deal (player count -> role slugs); WW923 for each one that cannot."""
        path = self.lists_file
        if not path.is_file():
            self.add("error", "WW923", f"the book has no {ROLE_LISTS_FILE}: no number of players can be dealt",
                     None, str(self.book), ("write one list of roles per player count, e.g. '7: [seer, werewolf, "
                                            "werewolf, villager, villager, villager, villager]' (docs/werewolf-tutorial.md)",))
            return {}
        text, problem = read_located(path, "WW923")
        if problem is not None:
            self.diags.append(problem)
            return {}
        file = str(path)
        try:
            node, loader = yamlsafe.compose(text, file, "WW923")
        except yamlsafe.YamlError as exc:
            self.diags.append(exc.diagnostic)
            return {}
        loader.dispose()
        self.project.sources.setdefault(file, _source(file, text))
        if node is None or node.tag != "tag:yaml.org,2002:map":
            self.add("error", "WW923", f"{ROLE_LISTS_FILE} must map player counts to lists of roles",
                     _span(node, file) if node is not None else None, file)
            return {}
        roles = {_slug(el.name): el for el in self.by_kind.get("role", {}).values()}
        lists: dict[int, list[str]] = {}
        for key, value in node.value:
            count = int(key.value) if key.value.isdigit() else 0
            if count < 1:
                self.add("error", "WW923", f"'{key.value}' is not a number of players", _span(key, file), file)
                continue
            if value.tag != "tag:yaml.org,2002:seq":
                self.add("error", "WW923", f"the role list for {count} players must be a list of roles",
                         _span(value, file), file)
                continue
            dealt: list[str] = []
            ok = True
            for item in value.value:
                name = str(item.value) if not isinstance(item.value, list) else ""
                role = roles.get(_slug(name))
                if role is None:
                    ok = False
                    known = sorted(roles)
                    self.add("error", "WW923", f"the role list for {count} players deals '{name}', which is not a "
                             "role of the book", _span(item, file), file,
                             did_you_mean(_slug(name), known) or (f"the book's roles: {', '.join(known) or '(none)'}",))
                    continue
                if _is_unique(role) and _slug(name) in dealt:
                    ok = False
                    self.add("error", "WW923", f"the role list for {count} players deals the unique role "
                             f"'{role.name}' twice", _span(item, file), file)
                dealt.append(_slug(name))
            if len(value.value) != count:
                ok = False
                self.add("error", "WW923", f"the role list for {count} players has {len(value.value)} role(s)",
                         _span(value, file), file, ("a role list deals one role to each player",))
            if ok:
                lists[count] = dealt
                self.one_team_only(count, dealt, _span(value, file), file)
        return lists

    def one_team_only(self, count: int, dealt: list[str], span: Span, file: str) -> None:
        roles = {_slug(el.name): el for el in self.by_kind.get("role", {}).values()}
        teams = {self.team_of(roles[r]) for r in dealt}
        if len(teams) == 1:
            self.add("warning", "WW923", f"every role of the list for {count} players is on one team: the game is "
                     "won before anybody acts", span, file)

    # ------------------------------------------------------------------ the village acts, teams win
    def village_can_act(self) -> None:
        created = set()
        for el in self.project.elements.values():
            for ab in iter_abilities(el.items):
                if ab.type == "poll":
                    poll = ab.args.get("poll")
                    created.add(name_key(poll.text) if poll is not None else name_key(el.name))
        for poll in self.by_kind.get("poll", {}).values():
            if name_key(poll.name) in created and _closing_kills(poll):
                return
        polls = self.names("poll")
        self.add("error", "WW921", "no lynch poll: nothing lets the village act against the werewolves",
                 self.book_span(), str(self.book),
                 ("a lynch poll is a poll that is created (e.g. 'Passive Start Day: Create Poll in #Village-Square') "
                  "and whose 'On Poll Closed' lynches or kills @Winner"
                  + (f"; the book's polls ({', '.join(polls)}) are never created or kill nobody" if polls else ""),))

    def teams_can_win(self) -> None:
        roles = self.by_kind.get("role", {}).values()
        teams_of_roles = {self.team_of(r) for r in roles}
        for team in self.by_kind.get("team", {}).values():
            if not any(isinstance(i, KeyLine) and i.key.lower() == "win condition" for i in team.items):
                self.add("error", "WW922", f"the team '{team.name}' has no win condition: it can never win",
                         team.header.span, team.file, ("add a line 'Win Condition: @(Align:...)'",))
            elif name_key(team.name) not in teams_of_roles and not _joinable(team, self.project):
                self.add("warning", "WW922", f"no role of the book is on the team '{team.name}' and nothing makes a "
                         "player join it: it can never win", team.header.span, team.file)


def _is_unique(role: Element) -> bool:
    return any(isinstance(i, Meta) and i.kind == "unique" for i in role.items)


def _closing_kills(poll: Element) -> bool:
    for item in poll.items:
        if isinstance(item, TriggerBlock) and item.trigger.name.lower() == "on poll closed":
            if any(isinstance(ab, Ability) and ab.type == "killing" for ab in iter_abilities([item])):
                return True
    return False


def _joinable(team: Element, project: Project) -> bool:
    """Some ability names the team (a loyalty or an alignment change makes a player join it)."""
    key = name_key(team.name)
    return any(name_key(v.text) == key for el in project.elements.values()
               for ab in iter_abilities(el.items) for v in ab.args.values())


def _span(node, file: str) -> Span:
    start, end = node.start_mark, node.end_mark
    end_col = end.column + 1 if end.line == start.line else None
    return Span(file, start.line + 1, start.column + 1, start.line + 1, end_col) if end_col else Span(file, start.line + 1, start.column + 1)


def _source(file: str, text: str):
    from rulescript.diagnostics import SourceText

    return SourceText(file, text)
