"""game.yaml's ``octgn:`` section from a plugin's ``definition.xml``, in the package builder's schema.

``octgn-pack build`` is the consumer, and its schema (``docs/octgn.md``, "game.yaml: the OCTGN-facing
fields") is the only one: this module writes exactly those fields (``authors``, ``tags``, the URLs,
``set``, ``table``, ``card``, ``markersize``, ``twosided``, ``properties``, ``extra_properties``) and
nothing else.  The images the builder takes from the game folder (card back, table background) are
copied from the plugin when it holds them.

The builder takes the rest of the table from the game profile's table face
(``rulescript/games/<profile>/table.py``) and its own host: piles, counters, phases, deck sections,
markers, menus, events, scripts, the proxy template, icons.  Each part of the definition that the
package shows otherwise is compared with what the package will have and reported at its element in
``definition.xml`` (file:line:col), saying what the package shows instead.  None of this counts as
dropped (the cards, rules and decks are all there), so none of it changes the exit status; values
that could not be written at all are warnings.

Codes: RI212 a value game.yaml cannot hold (left out: the builder's default), RI213 an image the
plugin names but does not hold (left out: a generated one), RI214 piles, counters, phases and deck
sections that differ from the table face, RI215 card properties the package names or types
otherwise, RI216 parts of the definition the package replaces (scripts, events, menus, markers, the
proxy, documents, sounds...), RI217 sets whose GUID the package derives anew.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

from octgn_pack import ids
from octgn_pack.definition import OCTGN_VERSION, SCRIPT_VERSION, player_summary
from octgn_pack.host import manifest
from octgn_pack.project import (IMAGE_SUFFIXES, PROPERTY_TYPES, RESERVED_PROPERTIES, SPECIAL_FIELDS, URL_RE,
                                card_stats, label)
from rulescript.compiler.profile import load_profile
from rulescript.diagnostics import Diagnostic, Severity, Span
from rulescript.importer.definition import Definition
from rulescript.importer.setxml import PROPERTY_FIELDS, SetData, norm_name
from rulescript.importer.xmlread import Node, whole_number

# a set.xml property mapped to one card field -> the field's path in cards.yaml (docs/octgn.md, card properties)
FIELD_PATHS = {"type": ("type",), "subtype": ("subtype",), "bp": ("bp",), "sp": ("sp",), "backup": ("backup",),
               "text": ("text",), "ability_kind": ("ability", "kind"), "ability_name": ("ability", "name")}
_MENUS = ("cardaction", "groupaction", "cardactions", "groupactions")
# the <game> attributes game.yaml carries, or that the package sets itself
_GAME_ATTRS = {"id", "name", "version", "description", "authors", "tags", "gameurl", "iconurl", "setsurl",
               "markersize", "usetwosidedtable", "octgnVersion", "scriptVersion"}
_REPLACED = {  # root elements the package writes from its host and table face: what it shows instead
    "events": "the package's event handlers are the OCTGN host's ({events})",
    "proxygen": "the package generates its own proxy template (game.yaml octgn.proxy); Proxy/ is not used",
    "documents": "the package's one document is the profile's rules reference",
    "globalvariables": "the package's global variables are the OCTGN host's ({variables})",
    "markers": "the package's markers are the engine's ({markers}), set by the engine",
}


@dataclass(slots=True)
class OctgnSection:
    """What the import writes for OCTGN: the ``octgn:`` mapping, the images to copy, the report."""

    fields: dict[str, Any] = field(default_factory=dict)
    description: str | None = None                         # the plugin's <game description>
    images: dict[str, Path] = field(default_factory=dict)   # game-folder path -> plugin file
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _key(text: str) -> str:
    """A name compared the way a player reads it: case, spaces, dashes and a trailing 's'/'pile' ignored."""
    k = re.sub(r"[^a-z0-9]+", "", text.lower())
    k = re.sub(r"pile$", "", k) or k
    return k[:-1] if k.endswith("s") and len(k) > 3 else k


def _bool(raw: str | None) -> bool | None:
    text = (raw or "").strip().lower()
    return True if text == "true" else False if text == "false" else None


def _find_file(root: Path, rel: PurePosixPath) -> Path | None:
    """``root/rel`` matched part by part without regard to case (plugins come from Windows)."""
    here = root
    for part in rel.parts:
        exact = here / part
        if exact.exists():
            here = exact
            continue
        found = [p for p in here.iterdir() if p.name.lower() == part.lower()] if here.is_dir() else []
        if not found:
            return None
        here = found[0]
    return here


class _Mapper:
    def __init__(self, d: Definition | None, plugin_root: Path | None, sets: list[SetData], game_name: str,
                 game_guid: str, rule_scripts: set[str], profile: str) -> None:
        self.d = d
        self.root = plugin_root
        self.sets = sets
        self.game_name = game_name
        self.game_guid = game_guid
        self.rule_scripts = rule_scripts
        self.out = OctgnSection()
        self.prof = load_profile(profile)
        self.face: ModuleType = importlib.import_module(f"rulescript.games.{profile}.table")
        self.cards = [c for s in sets for c in s.cards]

    # ------------------------------------------------------------------ reporting
    def say(self, severity: Severity, code: str, node: Node, message: str, notes: tuple[str, ...] = ()) -> None:
        assert self.d is not None
        self.out.diagnostics.append(Diagnostic(severity, code, message, self.d.span(node), notes))

    def replaced(self, node: Node, what: str, instead: str) -> None:
        self.say("note", "RI216", node, f"{what} is not carried over: {instead}")

    def unread(self, node: Node, attrs: tuple[str, ...], children: tuple[str, ...] = ()) -> None:
        """Whatever else ``node`` says (an attribute not in ``attrs``, a child not in ``children``) is
        not carried over: one note each, so that nothing is left out without a word."""
        for attr in node.attrib:
            if attr not in attrs:
                self.say("note", "RI216", node, f"{node.tag} {attr}=\"{node.get(attr)}\" is not carried over: the "
                         "builder has no such setting")
        for child in node.children:
            if child.tag not in children:
                self.replaced(child, f"<{child.tag}> in <{node.tag}>", "the builder has no such setting")

    # ------------------------------------------------------------------ the whole section
    def run(self) -> OctgnSection:
        o = self.out.fields
        root = self.d.root if self.d is not None else None
        if root is not None:
            self.game(root)
        self.set_names()
        self.properties(root.find("card") if root is not None else None)
        if root is not None:
            self.table_face(root)
            self.others(root)
        # the builder's order (docs/octgn.md), whatever order the values were found in
        order = ("authors", "tags", "gameurl", "iconurl", "setsurl", "set", "table", "card", "markersize", "twosided",
                 "properties", "extra_properties")
        self.out.fields = {k: o[k] for k in order if k in o and o[k] not in ({}, None)}
        self.out.diagnostics.sort(key=lambda d: (d.span.file != (self.d.path if self.d else ""), d.span.file,
                                                 d.span.line, d.span.col))
        return self.out

    def game(self, root: Node) -> None:
        o = self.out.fields
        for attr in ("authors", "tags"):
            value = " ".join((root.get(attr) or "").split())
            if value:
                o[attr] = value
            elif root.get(attr) is not None:
                self.say("warning", "RI212", root, f"<game {attr}> is empty; game.yaml leaves it out and the "
                         "package uses the builder's default")
        for attr in ("gameurl", "iconurl", "setsurl"):
            value = (root.get(attr) or "").strip()
            if value and URL_RE.match(value):
                o[attr] = value
            elif root.get(attr) is not None:
                self.say("warning", "RI212", root, f"<game {attr}=\"{value}\"> is not an absolute URL; game.yaml "
                         "leaves it out and the package uses the builder's placeholder "
                         "(https://rulescript.invalid/...)")
        description = " ".join((root.get("description") or "").split())
        self.out.description = description or None
        size = self.number(root, "markersize", 1, 200)
        if size is not None:
            o["markersize"] = size
        if root.get("usetwosidedtable") is not None:
            two = _bool(root.get("usetwosidedtable"))
            if two is None:
                self.say("warning", "RI212", root, f"<game usetwosidedtable=\"{root.get('usetwosidedtable')}\"> is "
                         "not True or False; game.yaml leaves it out (the package's table is two-sided)")
            else:
                o["twosided"] = two
        for attr, package in (("scriptVersion", SCRIPT_VERSION), ("octgnVersion", OCTGN_VERSION)):
            if root.get(attr) is not None and (root.get(attr) or "").strip() != package:
                self.say("note", "RI216", root, f"<game {attr}=\"{root.get(attr)}\"> is not carried over: the package "
                         f"declares {package} (the version its host is written for)")
        for attr in root.attrib:
            if attr not in _GAME_ATTRS:
                self.say("note", "RI216", root, f"<game {attr}=\"{root.get(attr)}\"> is not carried over: the builder "
                         "has no such setting (the package uses OCTGN's default)")
        table = root.find("table")
        if table is not None:
            o["table"] = self.sized(table, (("width", "width", 1, 100000), ("height", "height", 1, 100000)),
                                    ("background", "background", "table background"))
            for attr, package in (("name", "Table"), ("visibility", "undefined"), ("ordered", "False"),
                                  ("backgroundStyle", "uniformToFill")):
                value = table.get(attr)
                if value is not None and value.strip().lower() != package.lower():
                    self.say("note", "RI216", table, f"<table {attr}=\"{value}\"> is not carried over: the package's "
                             f"table has {attr}=\"{package}\"")
            self.unread(table, ("name", "visibility", "ordered", "backgroundStyle", "width", "height", "background"),
                        _MENUS)
            self.menus(table, "the table")
        card = root.find("card")
        if card is not None:
            o["card"] = self.sized(card, (("width", "width", 1, 100000), ("height", "height", 1, 100000),
                                          ("cornerRadius", "corner", 0, 100)), ("back", "back", "card back"))
            if card.get("front"):
                self.say("note", "RI216", card, f"the card front '{card.get('front')}' is not carried over: the "
                         "package draws every card without art from its proxy template, and its front image in the "
                         "game's colours (game.yaml octgn.colors)")
            self.unread(card, ("width", "height", "cornerRadius", "back", "front"), ("property", "size"))
            for size in card.findall("size"):
                self.replaced(size, f"the card size '{size.get('name') or '?'}'", "the package has one card size")

    def sized(self, node: Node, numbers: tuple[tuple[str, str, int, int], ...],
              image: tuple[str, str, str]) -> dict[str, Any]:
        """``octgn.table`` or ``octgn.card``: the whole numbers (attribute, field, lowest, highest) and
        the image (attribute, field, what it is) that ``node`` gives."""
        out: dict[str, Any] = {}
        for attr, key, lo, hi in numbers:
            value = self.number(node, attr, lo, hi)
            if value is not None:
                out[key] = value
        path = self.image(node, image[0], image[2])
        if path is not None:
            out[image[1]] = path
        return out

    def number(self, node: Node, attr: str, lo: int, hi: int) -> int | None:
        raw = node.get(attr)
        if raw is None:
            return None
        value = whole_number(raw, signed=True)
        if value is None or not lo <= value <= hi:
            self.say("warning", "RI212", node, f"<{node.tag} {attr}=\"{raw}\"> is not a whole number from {lo} to "
                     f"{hi}; game.yaml leaves it out and the package uses the builder's default")
            return None
        return value

    def image(self, node: Node, attr: str, what: str) -> str | None:
        """Copy the image ``node[attr]`` names into the game folder (same relative path); None (and a
        warning) when the plugin does not hold it."""
        raw = (node.get(attr) or "").strip()
        if not raw:
            return None
        rel = PurePosixPath(raw.replace("\\", "/"))
        problem = None
        src = None
        if rel.is_absolute() or ".." in rel.parts or self.root is None:
            problem = "is not a file inside the plugin folder"
        else:
            src = _find_file(self.root, rel)
            if src is None or not src.is_file() or not src.resolve().is_relative_to(self.root.resolve()):
                problem = "is not in the plugin folder"
            elif src.suffix.lower() not in IMAGE_SUFFIXES:
                problem = "is not a PNG or JPEG image (the images OCTGN packages hold)"
        if problem is not None or src is None or self.root is None:
            self.say("warning", "RI213", node, f"the {what} '{raw}' {problem}; game.yaml leaves it out and the package "
                     f"uses a generated {what} in the game's colours")
            return None
        dest = src.relative_to(self.root).as_posix()
        self.out.images[dest] = src
        return dest

    # ------------------------------------------------------------------ sets
    def set_names(self) -> None:
        """The first set's cards go to ``octgn.set`` (when it is not the game's name), every other set's
        cards carry ``set:``; the package derives set GUIDs from their names."""
        named = [s for s in self.sets if s.cards]
        if not named:
            return
        first = named[0].set_name or self.game_name
        if first != self.game_name:
            self.out.fields["set"] = first
        seen = {first}
        for s in named[1:]:
            if s.set_name and s.set_name not in seen:
                seen.add(s.set_name)
                for card in s.cards:
                    card["set"] = s.set_name
                continue
            joined = s.set_name or first
            for card in s.cards:
                if joined != first:
                    card["set"] = joined
            self.out.diagnostics.append(Diagnostic(
                "note", "RI217", f"this set has {'the name of another set' if s.set_name else 'no name'}: its cards "
                f"are in the package's set '{joined}'", Span(s.path, *s.root_pos)))
        for s in named:
            guid = ids.set_guid(self.game_guid, s.set_name or self.game_name)
            if s.set_id and s.set_id != guid:
                self.out.diagnostics.append(Diagnostic(
                    "note", "RI217", f"the set '{s.set_name or first}' gets the GUID {guid} in the package (derived "
                    f"from the game's id and the set's name), not this set.xml's {s.set_id}; the cards keep their "
                    "GUIDs, so decks still load", Span(s.path, *s.root_pos)))

    # ------------------------------------------------------------------ card properties
    def properties(self, card: Node | None) -> None:
        stats = card_stats(self.prof)
        stat_set = set(stats)
        paths: list[tuple[str, ...]] = [("type",)] + ([("subtype",)] if self.prof.subtype_of else []) + [
            (s,) for s in stats]
        values: dict[tuple[str, ...], list[Any]] = {}
        for c in self.cards:
            for k, v in c.items():
                if k in SPECIAL_FIELDS:
                    continue
                for pth, val in ([((k, str(sk)), sv) for sk, sv in v.items()] if isinstance(v, dict) else [((k,), v)]):
                    if pth not in paths:
                        paths.append(pth)
                    values.setdefault(pth, []).append(val)

        def inferred(pth: tuple[str, ...]) -> str:
            vals = [v for v in values.get(pth, []) if v is not None]
            ints = all(isinstance(v, int) and not isinstance(v, bool) for v in vals)
            return "Integer" if ints and (vals or pth[0] in stat_set) else "String"

        names = {pth: label(pth, stat_set) for pth in paths}
        overrides: dict[str, dict[str, Any]] = {}
        declared: list[tuple[str, str, Node | None]] = []   # (name, type, element) of display-only properties
        renamed_by: dict[tuple[str, ...], Node] = {}
        many: list[tuple[Node, str, str]] = []              # properties shown within another one
        plugin_names: set[str] = set()
        for prop in card.findall("property") if card is not None else []:
            self.unread(prop, ("name", "type", "hidden"))
            name = (prop.get("name") or "").strip()
            if not name:
                continue
            plugin_names.add(name.lower())
            ptype = (prop.get("type") or "String").strip()
            if ptype not in PROPERTY_TYPES:
                self.say("warning", "RI212", prop, f"property '{name}' has the unknown type '{ptype}'; it is "
                         "declared as String")
                ptype = "String"
            hidden = _bool(prop.get("hidden"))
            if prop.get("hidden") is not None and hidden is None:
                self.say("warning", "RI212", prop, f"property '{name}': hidden=\"{prop.get('hidden')}\" is not True "
                         "or False; it is left out (not hidden)")
            f = PROPERTY_FIELDS.get(norm_name(name))
            if f is None:
                declared.append((name, ptype, prop))
                if hidden:
                    overrides.setdefault("\0" + name, {})["hidden"] = True
                continue
            pth = FIELD_PATHS.get(f)
            if pth is None or pth not in names:
                many.append((prop, name, f))
                continue
            if pth in renamed_by:
                self.say("note", "RI215", prop, f"property '{name}' holds the same card field as "
                         f"'{renamed_by[pth].get('name')}' (line {renamed_by[pth].line}); the package shows it once, "
                         f"as '{names[pth]}'")
                continue
            renamed_by[pth] = prop
            spec: dict[str, Any] = {}
            if name != names[pth]:
                if name.lower() in RESERVED_PROPERTIES:
                    self.say("note", "RI215", prop, f"property '{name}' is called '{names[pth]}' in the package: OCTGN "
                             f"reserves the names {', '.join(sorted(RESERVED_PROPERTIES))} (in any case)")
                else:
                    spec["name"] = name
            have = inferred(pth)
            if ptype != have:
                if ptype in ("String", "Char"):
                    spec["type"] = ptype
                else:
                    why = ("the importer keeps card text plain, its formatting is not carried" if ptype == "RichText"
                           else "the imported values are not all whole numbers")
                    self.say("note", "RI215", prop, f"property '{name}' is declared {have} in the package, not "
                             f"{ptype}: {why}")
            if hidden:
                spec["hidden"] = True
            if spec:
                overrides[".".join(pth)] = spec
        for key, spec in list(overrides.items()):
            if not key.startswith("\0") and "name" in spec:
                names[tuple(key.split("."))] = spec["name"]
        taken: dict[str, tuple[str, ...]] = {}
        for pth, name in names.items():  # a rename must not take a name another field already shows
            other = taken.get(name.lower())
            if other is not None and ".".join(pth) in overrides and "name" in overrides[".".join(pth)]:
                node = renamed_by[pth]
                del overrides[".".join(pth)]["name"]
                names[pth] = label(pth, stat_set)
                self.say("note", "RI215", node, f"property '{name}' keeps the package's name '{names[pth]}': "
                         f"'{name}' is the name of the field '{'.'.join(other)}'")
            taken[names[pth].lower()] = pth
        for prop, name, f in many:
            self.many_to_one(prop, name, f, names)
        self.extras(declared, overrides, names, card)
        props = {k: v for k, v in overrides.items() if not k.startswith("\0") and v}
        if props:
            self.out.fields["properties"] = props
        added = [n for n in names.values() if n.lower() not in plugin_names]
        if card is not None and added:
            self.say("note", "RI215", card, "the package declares card properties definition.xml does not: "
                     f"{', '.join(added)} (every card field of cards.yaml and the profile is a property)")

    def many_to_one(self, prop: Node, name: str, f: str, names: dict[tuple[str, ...], str]) -> None:
        if f.startswith("backup"):
            shown = names.get(("backup",))
            instead = (f"the package shows the backup slots together, as the property '{shown}' (e.g. "
                       "'keeper, sailor')" if shown else "no card has backup slots")
        elif f == "ability":
            kind, nm = names.get(("ability", "kind")), names.get(("ability", "name"))
            instead = (f"the package shows the ability as '{kind}' and '{nm}' (glyph and name apart)" if kind
                       else "no card has an ability")
        else:
            instead = "no card has this field"
        self.say("note", "RI215", prop, f"property '{name}' is not a property of its own in the package: {instead}")

    def extras(self, declared: list[tuple[str, str, Node | None]], overrides: dict[str, dict[str, Any]],
               names: dict[tuple[str, ...], str], card: Node | None) -> None:
        """``extra_properties``: the display-only properties (declared, or only used by the cards)."""
        by_lower = {n.lower(): n for n, _, _ in declared}
        used: dict[str, list[str]] = {}
        for c in self.cards:  # a name spelt in another case takes the declared (else the first) spelling
            extra = c.get("octgn")
            if isinstance(extra, dict):
                fixed = {by_lower.setdefault(k.lower(), k): v for k, v in extra.items()}
                c["octgn"] = fixed
                for k, v in fixed.items():
                    used.setdefault(k, []).append(str(v))
        for k in used:
            if k not in {n for n, _, _ in declared}:
                declared.append((k, "String", None))
        taken = {n.lower() for n in names.values()} | set(RESERVED_PROPERTIES)
        out: dict[str, dict[str, Any]] = {}
        for name, ptype, node in declared:
            spec: dict[str, Any] = dict(overrides.get("\0" + name, {}))
            vals = used.get(name, [])
            if ptype == "Integer" and not all(re.fullmatch(r"[+-]?\d+", v) for v in vals):
                ptype = "String"
                if node is not None:
                    self.say("note", "RI215", node, f"property '{name}' is declared String in the package: not every "
                             "card gives a whole number")
            elif ptype == "RichText":
                ptype = "String"
                if node is not None:
                    self.say("note", "RI215", node, f"property '{name}' is declared String in the package, not "
                             "RichText: the importer keeps card text plain, its formatting is not carried")
            if ptype != "String":
                spec["type"] = ptype
            final = name
            if final.lower() in taken:
                final = "Card " + name if name.lower() in RESERVED_PROPERTIES else name
                n = 2
                while final.lower() in taken:
                    final = f"{name} {n}"
                    n += 1
                for c in self.cards:
                    if isinstance(c.get("octgn"), dict) and name in c["octgn"]:
                        c["octgn"] = {(final if k == name else k): v for k, v in c["octgn"].items()}
                where = node if node is not None else card
                message = (f"property '{name}' is called '{final}' in the package: '{name}' is reserved by OCTGN or "
                           "is the name of another card property")
                if where is not None:
                    self.say("note", "RI215", where, message)
                else:
                    self.out.diagnostics.append(Diagnostic("note", "RI215", message, Span(self.sets[0].path, 1, 1)))
            taken.add(final.lower())
            out[final] = spec
        if out:
            self.out.fields["extra_properties"] = out

    # ------------------------------------------------------------------ piles, counters, phases, deck sections
    def table_face(self, root: Node) -> None:
        face = self.face
        player = root.find("player")
        piles = {_key(p["name"]): p for p in face.PILES}
        piles.update({_key(p["zone"]): p for p in face.PILES})
        counters = {_key(c["name"]): c for c in face.COUNTERS}
        pile_names = ", ".join(p["name"] for p in face.PILES)
        counter_names = ", ".join(c["name"] for c in face.COUNTERS)
        if player is not None:
            seen: set[str] = set()
            self.unread(player, ("summary",), ("group", "counter", "globalvariable"))
            for g in player.findall("group"):
                seen.add(self.pile(g, piles.get(_key(g.get("name") or "")), pile_names))
            for c in player.findall("counter"):
                seen.add(self.counter(c, counters.get(_key(c.get("name") or "")), counter_names))
            missing = [x["name"] for x in face.PILES + face.COUNTERS if x["name"] not in seen]
            if missing:
                self.say("warning", "RI214", player, f"the package's players also have {', '.join(missing)} (from "
                         "the table face), which definition.xml does not")
            summary = player.get("summary")
            if summary is not None and summary.strip() != player_summary(face):
                self.say("note", "RI214", player, f"the player summary '{summary}' is not carried over: the package "
                         f"shows '{player_summary(face)}'")
            for v in player.findall("globalvariable"):
                self.replaced(v, f"the player variable '{v.get('name') or '?'}'",
                              "the engine keeps the game's state itself")
        else:
            self.say("warning", "RI214", root, f"definition.xml has no <player>: the package's players have the piles "
                     f"{pile_names} and the counters {counter_names} (from the table face)")
        shared = root.find("shared")
        if shared is not None:
            self.unread(shared, ("summary",), ("group", "counter"))
        for x in (shared.children if shared is not None else []):
            if x.tag in ("group", "counter"):
                kind = "pile" if x.tag == "group" else "counter"
                self.say("warning", "RI214", x, f"the shared {kind} '{x.get('name') or '?'}' is not in the package: "
                         "the table face has no shared piles or counters")
        self.phases(root.find("phases"))
        for tag in ("deck", "sharedDeck"):
            self.sections(root.find(tag), tag)

    def face_element(self, node: Node, kind: str, item: dict[str, Any] | None, names: str,
                     differences: list[str], material: bool) -> str:
        """A ``<group>`` or ``<counter>`` against its table-face ``item`` (None: the package has no such
        one); ``differences``: what else differs.  Returns the package's name of it ("" for none)."""
        name = node.get("name") or "?"
        if item is None:
            self.say("warning", "RI214", node, f"the {kind} '{name}' is not in the package; each player's {kind}s "
                     f"are {names} (the table face)")
            return ""
        if node.get("icon"):
            differences.append(f"its icon is drawn by the builder ('{node.get('icon')}' is not used)")
        if differences or item["name"] != name:
            self.say("warning" if material else "note", "RI214", node, f"the {kind} '{name}' is shown as the "
                     f"package's {kind} '{item['name']}'" + "".join(": " + "; ".join(differences)
                                                                 for _ in differences[:1]))
        return str(item["name"])

    def pile(self, g: Node, pile: dict[str, Any] | None, names: str) -> str:
        diffs: list[str] = []
        material = False
        package = {"visibility": (pile or {}).get("visibility", "none"),
                   "ordered": bool((pile or {}).get("ordered", True)), "viewState": (pile or {}).get("view")}
        for attr, value in package.items():
            raw = g.get(attr)
            if raw is None or value is None:
                continue
            mine: Any = _bool(raw) if attr == "ordered" else raw.strip().lower()
            if mine != (value.lower() if isinstance(value, str) else value):
                diffs.append(f"{attr} is {value} (here {raw})")
                material = material or attr == "visibility"
        for attr in g.attrib:
            if attr not in ("name", "visibility", "ordered", "viewState", "icon"):
                diffs.append(f"{attr}=\"{g.get(attr)}\" is not carried over")
        menus = [c for c in g.children if c.tag in _MENUS]
        if menus:
            diffs.append(f"its {len(menus)} menu entries are replaced by the host's ({self.menu_names()})")
        return self.face_element(g, "pile", pile, names, diffs, material)

    def counter(self, c: Node, counter: dict[str, Any] | None, names: str) -> str:
        diffs: list[str] = []
        raw = c.get("default")
        start = (counter or {}).get("default", 0)
        material = raw is not None and raw.strip() != str(start)
        if material:
            diffs.append(f"it starts at {start} (here {raw})")
        for attr in c.attrib:
            if attr not in ("name", "default", "icon"):
                diffs.append(f"{attr}=\"{c.get(attr)}\" is not carried over (the engine sets the counters)")
        return self.face_element(c, "counter", counter, names, diffs, material)

    def phases(self, node: Node | None) -> None:
        face = [p["name"] for p in self.face.PHASES]
        keys = [_key(n) for n in face]
        if node is None:
            root = self.d.root if self.d is not None else None
            if face and root is not None:
                self.say("warning", "RI214", root, f"definition.xml has no <phases>: the package has the phases "
                         f"{', '.join(face)} (the table face)")
            return
        seen: set[int] = set()
        self.unread(node, (), ("phase",))
        for i, ph in enumerate(node.findall("phase")):
            self.unread(ph, ("name", "icon"))
            name = ph.get("name") or "?"
            k = _key(name)
            if k not in keys:
                self.say("warning", "RI214", ph, f"the phase '{name}' is not in the package; its phases are "
                         f"{', '.join(face)} (the table face)")
                continue
            j = keys.index(k)
            seen.add(j)
            diffs = []
            if j != i:
                diffs.append(f"it is phase {j + 1} (here {i + 1})")
            if ph.get("icon"):
                diffs.append(f"its icon is drawn by the builder ('{ph.get('icon')}' is not used)")
            if diffs or face[j] != name:
                self.say("note", "RI214", ph, f"the phase '{name}' is the package's phase '{face[j]}'"
                         + "".join(": " + "; ".join(diffs) for _ in diffs[:1]))
        missing = [face[j] for j in range(len(face)) if j not in seen]
        if missing:
            self.say("warning", "RI214", node, f"the package also has the phases {', '.join(missing)} (the table "
                     "face), which definition.xml does not")

    def sections(self, node: Node | None, tag: str) -> None:
        face = {s["name"].lower(): s for s in self.face.DECK_SECTIONS}
        if node is None:
            return
        seen = set()
        self.unread(node, (), ("section",))
        for s in node.findall("section"):
            self.unread(s, ("name", "group"))
            name = s.get("name") or "?"
            if tag == "sharedDeck":
                self.say("warning", "RI214", s, f"the shared deck section '{name}' is not in the package: the table "
                         "face has no shared piles")
                continue
            sec = face.get(name.lower())
            if sec is None:
                self.say("warning", "RI214", s, f"the deck section '{name}' is not in the package; its deck sections "
                         f"are {', '.join(x['name'] for x in self.face.DECK_SECTIONS)} (the table face)")
                continue
            seen.add(name.lower())
            if (s.get("group") or "").lower() != sec["pile"].lower():
                self.say("warning", "RI214", s, f"the deck section '{name}' loads into the pile '{sec['pile']}' in the "
                         f"package (here '{s.get('group')}')")
        missing = [x["name"] for k, x in face.items() if k not in seen]
        if tag == "deck" and missing:
            self.say("warning", "RI214", node, f"the package also has the deck sections {', '.join(missing)} (the "
                     "table face)")

    # ------------------------------------------------------------------ what the host replaces
    def menu_names(self) -> str:
        return ", ".join(a["menu"] for a in self.face.CARD_ACTIONS + self.face.GAME_ACTIONS)

    def menus(self, node: Node, where: str) -> None:
        for m in node.children:
            if m.tag in _MENUS:
                self.replaced(m, f"the menu entry '{m.get('menu') or m.get('name') or '?'}' of {where}",
                              f"the package's menus are the OCTGN host's, one per move the engine offers "
                              f"({self.menu_names()})")

    def others(self, root: Node) -> None:
        fill = {"events": ", ".join(e for e, _ in manifest.EVENTS),
                "variables": ", ".join(n for n, _ in manifest.GLOBAL_VARIABLES),
                "markers": ", ".join(m["name"] for m in self.face.MARKERS)}
        for child in root.children:
            tag = child.tag
            if tag in ("card", "table", "player", "shared", "phases", "deck", "sharedDeck"):
                continue
            if tag == "scripts":
                for s in child.findall("script"):
                    src = s.get("src") or "?"
                    rules = src.replace("\\", "/").lower() in self.rule_scripts
                    self.replaced(s, f"the script '{src}'", (
                        "its rules dict became rules/*.ini; the rest of it is replaced" if rules else
                        "it is replaced") + " by the engine and the OCTGN host the package ships")
            elif tag in _REPLACED:
                items = child.children or [child]
                for item in items:
                    what = f"<{item.tag}{' ' + repr(item.get('name')) if item.get('name') else ''}>"
                    self.replaced(item, what, _REPLACED[tag].format(**fill))
            else:
                for item in child.children or [child]:
                    what = f"<{item.tag}{' ' + repr(item.get('name')) if item.get('name') else ''}>"
                    self.replaced(item, what, f"the builder has no <{tag}> (the package has none)")


def octgn_section(definition: Definition | None, plugin_root: Path | None, sets: list[SetData], game_name: str,
                  game_guid: str, rule_scripts: set[str] | None = None, profile: str = "cfc") -> OctgnSection:
    """game.yaml's ``octgn:`` section for an imported plugin, the images to copy, and the report.

    ``sets``: the imported sets (their cards get ``set:`` when they are not in the first set, and
    their ``octgn:`` maps the package's property names); ``rule_scripts``: the ``<script src>`` of the
    scripts whose rules dict was imported, lower case with ``/``."""
    return _Mapper(definition, plugin_root, sets, game_name, game_guid, rule_scripts or set(), profile).run()
