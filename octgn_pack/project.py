"""Reading a game folder into what a package needs: ``game.yaml``, ``cards.yaml``, ``decks/*.yaml``,
the profile's card vocabulary and the game's table face (``rulescript/games/<profile>/table.py``).

Every problem is a diagnostic located in the YAML file that causes it.  Nothing here knows a game:
card properties come from the profile (its card type, subtype and card stats) and from whatever
fields ``cards.yaml`` holds.

``game.yaml``'s OCTGN-facing fields all live under ``octgn:`` and all have defaults (see
``docs/octgn.md``)::

    octgn:
      authors: "RuleScript"            # comma-separated
      tags: "rulescript cfc"           # space-separated
      gameurl / iconurl / setsurl      # absolute URLs (defaults under https://rulescript.invalid/)
      set: "<game name>"               # the set of cards that have no `set:` field
      table: {width: 1000, height: 600, background: null}   # background: an image of the game folder
      card: {width: 63, height: 88, corner: 3, back: null}  # back: an image of the game folder
      colors: {table, back, front, text, accent}            # "#RRGGBB" of the generated images
      markersize: 16
      twosided: true                   # usetwosidedtable
      properties: {FIELD: {name, type, hidden}}     # rename, retype or hide a cards.yaml field
      extra_properties: {NAME: {type, hidden}}      # OCTGN properties of the cards' `octgn:` maps
      proxy: {type: [FIELD...], stats: [FIELD...], text: FIELD}   # what the proxy card shows
"""

from __future__ import annotations

import importlib
import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rulescript.compiler import game_profile_name
from rulescript.compiler.profile import ProfileError, load_profile
from rulescript.diagnostics import Diagnostic, DiagnosticBag, SourceText, Span, did_you_mean
from octgn_pack import ids
from octgn_pack.yamlpos import YamlDoc, load as load_yaml

RESERVED_PROPERTIES = frozenset({"name", "id", "alternate", "size", "type", "set"})
PROPERTY_TYPES = ("String", "Integer", "Char", "RichText")
SPECIAL_FIELDS = ("id", "name", "set", "image", "octgn")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
FACE_NAMES = ("PILES", "COUNTERS", "MARKERS", "PHASES", "DECK_SECTIONS", "CARD_ACTIONS", "GAME_ACTIONS")
COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_COLORS = {"table": "#24543a", "back": "#1d3557", "front": "#f7f4ea", "text": "#1b1b1b",
                  "accent": "#b23a48"}
DEFAULT_URL = "https://rulescript.invalid/games/"
URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://\S+$")
# the keys of game.yaml's octgn: section (docs/octgn.md); any other is reported (OP118) and ignored
OCTGN_KEYS = ("authors", "tags", "gameurl", "iconurl", "setsurl", "set", "table", "card", "colors", "markersize",
              "twosided", "properties", "extra_properties", "proxy")
TABLE_KEYS = ("width", "height", "background")
CARD_KEYS = ("width", "height", "corner", "back")


@dataclass
class Property:
    """One declared card property: its OCTGN name and the card data it comes from."""

    name: str
    path: tuple[str, ...]            # ("bp",), ("ability", "kind"), or ("octgn", "Flavor")
    type: str = "String"
    hidden: bool = False
    span: Span | None = None         # where it is declared or first used


@dataclass
class Card:
    id: str
    name: str
    guid: str
    set_name: str
    data: dict[str, Any]              # the cards.yaml entry
    values: list[tuple[str, str]]     # (property name, text) in declaration order
    span: Span
    image: Path | None = None


@dataclass
class DeckCard:
    card: Card
    qty: int
    span: Span


@dataclass
class Deck:
    name: str
    stem: str
    sections: list[tuple[str, list[DeckCard]]]
    span: Span


@dataclass
class CardSet:
    name: str
    guid: str
    cards: list[Card] = field(default_factory=list)


@dataclass
class Project:
    root: Path
    profile: str = ""
    game_id: str = ""
    guid: str = ""
    name: str = ""
    version: str = "0.0.0.0"
    version_span: Span | None = None
    description: str = ""
    authors: str = "RuleScript"
    tags: str = ""
    gameurl: str = ""
    iconurl: str = ""
    setsurl: str = ""
    table_width: int = 1000
    table_height: int = 600
    table_background: Path | None = None
    card_width: int = 63
    card_height: int = 88
    card_corner: int = 3
    card_back: Path | None = None
    colors: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_COLORS))
    markersize: int = 16
    twosided: bool = True
    properties: list[Property] = field(default_factory=list)
    proxy: dict[str, Any] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    sets: list[CardSet] = field(default_factory=list)
    decks: list[Deck] = field(default_factory=list)
    scripts: list[Path] = field(default_factory=list)     # the game's own scripts/*.py
    fields: dict[str, Any] = field(default_factory=dict)   # game.yaml fields the table face's GAME_FIELDS names
    face: ModuleType | None = None
    reference: Path | None = None                          # the profile's generated reference.md
    sources: dict[str, SourceText] = field(default_factory=dict)
    diagnostics: DiagnosticBag = field(default_factory=DiagnosticBag)

    @property
    def ok(self) -> bool:
        return not self.diagnostics.has_errors

    @property
    def slug(self) -> str:
        return slug(self.name) or "game"

    def card_by_id(self) -> dict[str, Card]:
        return {c.id.lower(): c for c in self.cards}


def slug(text: str) -> str:
    """A file-name-safe ASCII form of a name: ``"CFC Demo"`` -> ``"cfc-demo"``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def deck_file_name(name: str) -> str:
    """The ``.o8d`` file name of a deck (OCTGN shows it as the deck's name)."""
    clean = " ".join(re.sub(r"[^\w .()-]+", "", name, flags=re.UNICODE).split()).strip(" .") or "deck"
    return clean + ".o8d"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


_YAML_KINDS = {"bytes": "!!binary value", "date": "date", "datetime": "timestamp", "set": "!!set",
               "tuple": "!!pairs value"}


def bad_xml_char(text: str) -> str | None:
    """The first character XML 1.0 cannot hold (even escaped), or None."""
    found = _NOT_XML.search(text)
    return None if found is None else found.group()


def card_stats(profile: Any) -> list[str]:
    """The profile's card stats (``bp``, ``sp``), in profile order: each is a card property."""
    return [k for k, v in (profile.stats.items() if profile is not None else ()) if "card" in (v.get("of") or ())]


def label(path: tuple[str, ...], stats: set[str]) -> str:
    """The default property name of a field: ``bp`` -> ``BP`` (a stat), ``ability.kind`` ->
    ``Ability Kind``; a reserved name gets ``Card `` in front (``type`` -> ``Card Type``)."""
    words: list[str] = []
    for part in path:
        if part.lower() in stats and len(path) == 1:
            words.append(part.upper())
        else:
            words.extend(w.capitalize() for w in re.split(r"[\s_\-]+", part) if w)
    text = " ".join(words) or "Field"
    return "Card " + text if text.lower() in RESERVED_PROPERTIES else text


def text_of(value: Any) -> str | None:
    """The text of a property value: ints as digits, lists joined with ``, ``; None stays absent."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple)):
        return ", ".join(t for t in (text_of(v) for v in value) if t is not None)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {text_of(v)}" for k, v in value.items())
    return str(value)


# ------------------------------------------------------------------------------------------ reading
class _Reader:
    def __init__(self, root: Path) -> None:
        self.p = Project(root=root)
        self.bag = self.p.diagnostics

    def error(self, code: str, msg: str, span: Span, notes: tuple[str, ...] | list[str] = ()) -> None:
        self.bag.error(code, msg, span, tuple(notes))

    def warning(self, code: str, msg: str, span: Span, notes: tuple[str, ...] = ()) -> None:
        self.bag.warning(code, msg, span, notes)

    def doc(self, path: Path) -> YamlDoc:
        d = load_yaml(path)
        self.p.sources[d.file] = d.source
        self.bag.extend(d.diagnostics)
        return d

    # -------------------------------------------------------------------------- game.yaml
    def game(self) -> YamlDoc | None:
        path = self.p.root / "game.yaml"
        if not path.exists():
            self.error("OP103", "a game folder needs game.yaml (profile, id, name, version)", Span(str(path), 1, 1))
            return None
        g = self.doc(path)
        if g.diagnostics:
            return None
        if not isinstance(g.data, dict):
            self.error("OP104", "game.yaml must be a mapping", g.span())
            return None
        p = self.p
        data = g.data

        def text(key: str, default: str | None = None) -> str | None:
            v = data.get(key, default)
            if v is None:
                return None
            if not isinstance(v, (str, int, float)) or isinstance(v, bool):
                self.error("OP105", f"'{key}' must be a text", g.span(key))
                return default
            v = str(v)
            ch = bad_xml_char(v)
            if ch is not None:
                self.error("OP106", f"'{key}' holds the character U+{ord(ch):04X}, which XML cannot hold", g.span(key))
            return v

        p.profile = text("profile", game_profile_name(p.root)[0]) or game_profile_name(p.root)[0]
        p.name = (text("name") or "").strip()
        if not p.name:
            self.error("OP107", "game.yaml needs a 'name' (OCTGN names the package and the deck folder after it)",
                       g.span("name") if "name" in data else g.span())
            p.name = "game"
        raw_id = text("id")
        if not raw_id or not raw_id.strip():
            p.game_id = ids.game_guid(p.name)
            self.error("OP108", "game.yaml needs an 'id': a GUID that stays the same in every version",
                       g.span(), (f"for example: id: {p.game_id}",))
        else:
            p.game_id = raw_id.strip()
        p.guid = ids.game_guid(p.game_id)
        version = text("version", "0.1.0") or "0.1.0"
        v4 = ids.four_part_version(version)
        if v4 is None:
            self.error("OP109", f"version '{version}' is not a version OCTGN accepts: one to four numbers "
                       "separated by dots (1.2.0 becomes 1.2.0.0)", g.span("version"))
            v4 = "0.0.0.0"
        p.version = v4
        p.version_span = g.span("version") if "version" in data else g.span()
        p.description = " ".join((text("description", "") or "").split()) or p.name

        o = data.get("octgn") or {}
        if not isinstance(o, dict):
            self.error("OP104", "'octgn' must be a mapping", g.span("octgn"))
            o = {}
        self.octgn(g, o)
        return g

    def octgn(self, g: YamlDoc, o: dict[str, Any]) -> None:
        p = self.p

        def at(*keys: Any) -> Span:
            return g.span("octgn", *keys)

        def s(key: str, default: str) -> str:
            v = o.get(key, default)
            if not isinstance(v, str) or not v.strip():
                self.error("OP110", f"octgn.{key} must be a non-empty text", at(key))
                return default
            ch = bad_xml_char(v)
            if ch is not None:
                self.error("OP106", f"octgn.{key} holds the character U+{ord(ch):04X}, which XML cannot hold", at(key))
            return v.strip()

        def num(mapping: dict[str, Any], key: str, default: int, where: tuple[str, ...], lo: int = 1,
                hi: int = 100000) -> int:
            v = mapping.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                self.error("OP111", f"octgn.{'.'.join(where + (key,))} must be a whole number from {lo} to {hi}",
                           at(*where, key))
                return default
            return v

        def mapping(key: str) -> dict[str, Any]:
            v = o.get(key) or {}
            if not isinstance(v, dict):
                self.error("OP104", f"octgn.{key} must be a mapping", at(key))
                return {}
            return v

        def image(mapping_: dict[str, Any], key: str, where: tuple[str, ...]) -> Path | None:
            v = mapping_.get(key)
            if v is None:
                return None
            path = p.root / str(v)
            if not isinstance(v, str) or path.suffix.lower() not in IMAGE_SUFFIXES or not self._in_game(path):
                self.error("OP112", f"octgn.{'.'.join(where + (key,))}: no PNG or JPEG image '{v}' in the game folder",
                           at(*where, key))
                return None
            return path

        self._unknown_keys(g, o, OCTGN_KEYS, ())
        base = DEFAULT_URL + (slug(p.name) or "game")
        p.authors = s("authors", "RuleScript")
        p.tags = s("tags", f"rulescript {p.profile}")
        for key, default in (("gameurl", base), ("iconurl", base + "/icon.png"), ("setsurl", base + "/sets")):
            value = s(key, default)
            if not URL_RE.match(value):
                self.error("OP113", f"octgn.{key} must be an absolute URL (https://...)", at(key))
            setattr(p, key, value)
        table = mapping("table")
        self._unknown_keys(g, table, TABLE_KEYS, ("table",))
        p.table_width = num(table, "width", 1000, ("table",))
        p.table_height = num(table, "height", 600, ("table",))
        p.table_background = image(table, "background", ("table",))
        card = mapping("card")
        self._unknown_keys(g, card, CARD_KEYS, ("card",))
        p.card_width = num(card, "width", 63, ("card",))
        p.card_height = num(card, "height", 88, ("card",))
        p.card_corner = num(card, "corner", 3, ("card",), lo=0, hi=100)
        p.card_back = image(card, "back", ("card",))
        colors = mapping("colors")
        for key, value in colors.items():
            if key not in DEFAULT_COLORS:
                self.error("OP114", f"unknown colour '{key}' (colours: {', '.join(DEFAULT_COLORS)})",
                           g.key_span("octgn", "colors", key))
            elif not isinstance(value, str) or not COLOR_RE.match(value):
                self.error("OP114", f"colour '{key}' must be written #RRGGBB", at("colors", key))
            else:
                p.colors[key] = value.lower()
        p.markersize = num(o, "markersize", 16, (), hi=200)
        tw = o.get("twosided", True)
        if not isinstance(tw, bool):
            self.error("OP115", "octgn.twosided must be true or false", at("twosided"))
        else:
            p.twosided = tw
        self._octgn = o
        self._g = g

    def _unknown_keys(self, g: YamlDoc, mapping_: dict[str, Any], known: tuple[str, ...],
                      where: tuple[str, ...]) -> None:
        """A key the builder does not read is ignored, and said so: a misspelt or foreign field
        (``cornerRadius`` for ``corner``) would otherwise be lost without a word."""
        for key in mapping_:
            if str(key) not in known:
                name = ".".join(("octgn",) + where + (str(key),))
                self.warning("OP118", f"{name} is not a field the builder reads; it is ignored",
                             g.key_span("octgn", *where, key),
                             (did_you_mean(str(key), known) or ()) + (f"fields: {', '.join(known)} (docs/octgn.md)",))

    # -------------------------------------------------------------------------- table face and profile
    def face(self, g: YamlDoc | None) -> None:
        p = self.p
        where = g.span("profile") if g is not None else Span(str(p.root / "game.yaml"), 1, 1)
        try:
            prof = load_profile(p.profile)
        except ProfileError as exc:
            self.bag.extend(exc.diagnostics)
            return
        except (OSError, ValueError):
            self.error("OP116", f"unknown profile '{p.profile}'", where)
            return
        self._profile = prof
        ref = Path(prof.path).with_name("reference.md")
        p.reference = ref if ref.is_file() else None
        try:
            face = importlib.import_module(f"rulescript.games.{p.profile}.table")
        except ImportError:
            self.error("OP117", f"the game package of profile '{p.profile}' has no table face "
                       f"(rulescript/games/{p.profile}/table.py)", where)
            return
        missing = [n for n in FACE_NAMES if not isinstance(getattr(face, n, None), list)]
        if missing:
            self.error("OP117", f"the table face of '{p.profile}' lacks {', '.join(missing)}", where)
            return
        p.face = face
        for key in getattr(face, "GAME_FIELDS", None) or []:
            if g is not None and isinstance(g.data, dict) and key in g.data:
                p.fields[key] = g.data[key]
                self._data_ok(g, (key,), g.data[key], xml=False)

    # -------------------------------------------------------------------------- cards.yaml
    def cards(self) -> None:
        p = self.p
        path = p.root / "cards.yaml"
        if not path.exists():
            self.error("OP120", "a game folder needs cards.yaml (a 'cards:' list)", Span(str(path), 1, 1))
            return
        d = self.doc(path)
        if d.diagnostics:
            return
        items = d.data.get("cards") if isinstance(d.data, dict) else None
        if not isinstance(items, list):
            self.error("OP120", "cards.yaml must hold a list under the key 'cards'", d.span())
            return
        default_set = self._set_name()
        seen: dict[str, Card] = {}
        guids: dict[str, Card] = {}
        entries: list[tuple[int, dict[str, Any]]] = []
        for i, c in enumerate(items):
            if not isinstance(c, dict):
                self.error("OP121", "a card must be a mapping (id, name, ...)", d.span("cards", i))
                continue
            cid, name = c.get("id"), c.get("name")
            if not isinstance(cid, str) or not cid.strip():
                self.error("OP122", "a card needs an 'id' (a non-empty text)", d.key_span("cards", i, "id")
                           if "id" in c else d.span("cards", i))
                continue
            if not isinstance(name, str) or not name.strip():
                self.error("OP122", f"card '{cid}' needs a 'name' (a non-empty text)",
                           d.span("cards", i, "name") if "name" in c else d.span("cards", i))
                continue
            key = cid.strip().lower()
            if key in seen:
                self.error("OP123", f"duplicate card id '{cid}'", d.span("cards", i, "id"),
                           (f"first used at line {seen[key].span.line}",))
                continue
            set_name = c.get("set", default_set)
            if not isinstance(set_name, str) or not set_name.strip():
                self.error("OP124", "'set' must be a non-empty text", d.span("cards", i, "set"))
                set_name = default_set
            guid = ids.card_guid(p.guid, cid.strip())
            if guid in guids:
                self.error("OP123", f"card '{cid}' has the same GUID as card '{guids[guid].id}'",
                           d.span("cards", i, "id"))
                continue
            card = Card(cid.strip(), " ".join(name.split()), guid, set_name.strip(), c, [], d.span("cards", i))
            seen[key] = guids[guid] = card
            p.cards.append(card)
            entries.append((i, c))
            self._data_ok(d, ("cards", i), c)
            self._image(d, i, card)
        self._declare(d, entries)
        for card, (i, c) in zip(p.cards, entries):
            card.values = self._values(d, i, c)
        by_name: dict[str, CardSet] = {}
        for card in p.cards:
            cs = by_name.get(card.set_name)
            if cs is None:
                cs = by_name[card.set_name] = CardSet(card.set_name, ids.set_guid(p.guid, card.set_name))
                p.sets.append(cs)
            cs.cards.append(card)
        if not p.cards:
            self.error("OP125", "cards.yaml holds no card: OCTGN needs at least one set", d.span())
        self._cards_doc = d

    def _set_name(self) -> str:
        o = getattr(self, "_octgn", {})
        v = o.get("set", self.p.name)
        if not isinstance(v, str) or not v.strip():
            self.error("OP124", "octgn.set must be a non-empty text", self._g.span("octgn", "set"))
            return self.p.name
        return v.strip()

    def _data_ok(self, d: YamlDoc, path: tuple[Any, ...], value: Any, xml: bool = True) -> None:
        """Every text of a card must be writable as XML (escaping handles &, <, quotes; not U+0001), and
        every value as a literal of ``Scripts/gamedata.py`` (``py_literal``: no inf or nan)."""
        todo = [(path, value, False)]
        while todo:
            where, v, is_key = todo.pop()
            if isinstance(v, str):
                ch = bad_xml_char(v) if xml else None
                if ch is not None:
                    self.error("OP126", f"the character U+{ord(ch):04X} cannot be written in XML (not even escaped)",
                               d.key_span(*where) if is_key else d.span(*where))
            elif isinstance(v, float) and not math.isfinite(v):
                self.error("OP136", f"the number {v!r} (.inf or .nan in YAML) cannot be written into the package's "
                           "scripts (Scripts/gamedata.py): write a finite number",
                           d.key_span(*where) if is_key else d.span(*where))
            elif isinstance(v, dict):  # (pushed in reverse: reported in the order of the file)
                for k, item in reversed(list(v.items())):
                    todo.append((where + (k,), item, False))
                    todo.append((where + (k,), k, True))
            elif isinstance(v, list):
                todo.extend((where + (j,), item, False) for j, item in reversed(list(enumerate(v))))
            elif not (v is None or isinstance(v, (bool, int, float))):
                # a tag's value: !!binary (bytes), a timestamp (a date), !!set, !!omap, !!pairs
                self.error("OP136", f"a YAML {_YAML_KINDS.get(type(v).__name__, type(v).__name__)} cannot be "
                           "written into the package's scripts (Scripts/gamedata.py): write it as text (quoted)",
                           d.key_span(*where) if is_key else d.span(*where))

    def _in_game(self, path: Path) -> bool:
        """True when ``path`` is a file inside the game folder, links followed (an image named
        ``../x.png`` or ``/etc/x.png``, or a link out of the folder, would be copied into the package)."""
        try:
            return path.is_file() and path.resolve().is_relative_to(self.p.root.resolve())
        except (OSError, RuntimeError, ValueError):
            return False

    def _image(self, d: YamlDoc, i: int, card: Card) -> None:
        ref = card.data.get("image")
        if ref is not None:
            path = self.p.root / str(ref)
            if not isinstance(ref, str) or path.suffix.lower() not in IMAGE_SUFFIXES or not self._in_game(path):
                self.error("OP127", f"card '{card.id}': no PNG or JPEG image '{ref}' in the game folder",
                           d.span("cards", i, "image"))
                return
            card.image = path
            return
        for suffix in (".png", ".jpg"):
            path = self.p.root / "images" / (card.id + suffix)
            if self._in_game(path):
                card.image = path
                return

    def _declare(self, d: YamlDoc, entries: list[tuple[int, dict[str, Any]]]) -> None:
        """The card properties: the profile's card fields, then every field cards.yaml uses."""
        g = self._g
        prof = getattr(self, "_profile", None)
        stat_order = card_stats(prof)
        stats = set(stat_order)
        paths: dict[tuple[str, ...], Span | None] = {}
        if prof is not None:
            paths[("type",)] = None
            if prof.subtype_of:
                paths[("subtype",)] = None
            for st in stat_order:
                paths[(st,)] = None
        values: dict[tuple[str, ...], list[Any]] = {}
        for i, c in entries:
            for k, v in c.items():
                if not isinstance(k, str) or k in SPECIAL_FIELDS:
                    continue
                if isinstance(v, dict):
                    for sk, sv in v.items():
                        pth = (k, str(sk))
                        paths.setdefault(pth, d.key_span("cards", i, k, sk))
                        values.setdefault(pth, []).append(sv)
                else:
                    paths.setdefault((k,), d.key_span("cards", i, k))
                    values.setdefault((k,), []).append(v)
        overrides = self._octgn.get("properties") or {}
        if not isinstance(overrides, dict):
            self.error("OP104", "octgn.properties must be a mapping of field to {name, type, hidden}",
                       g.span("octgn", "properties"))
            overrides = {}
        for key in overrides:
            pth = tuple(str(key).split("."))
            if pth not in paths:
                self.error("OP128", f"octgn.properties: no card has the field '{key}'",
                           g.key_span("octgn", "properties", key), did_you_mean(
                               str(key), [".".join(x) for x in paths]))
        props: list[Property] = []
        for pth, span in paths.items():
            vals = [v for v in values.get(pth, []) if v is not None]
            is_int = all(isinstance(v, int) and not isinstance(v, bool) for v in vals) and (
                bool(vals) or pth[0] in stats)
            prop = Property(label(pth, stats), pth, "Integer" if is_int else "String", False, span)
            spec = overrides.get(".".join(pth))
            if spec is not None:
                self._apply(prop, spec, ("octgn", "properties", ".".join(pth)))
            props.append(prop)
        extras = self._octgn.get("extra_properties") or {}
        if not isinstance(extras, dict):
            self.error("OP104", "octgn.extra_properties must be a mapping of property name to {type, hidden}",
                       g.span("octgn", "extra_properties"))
            extras = {}
        for name, spec in extras.items():
            prop = Property(str(name), ("octgn", str(name)), "String", False, g.key_span("octgn", "extra_properties", name))
            self._apply(prop, spec or {}, ("octgn", "extra_properties", name), rename=False)
            props.append(prop)
        seen: dict[str, Property] = {}
        for prop in props:
            where = prop.span or g.span("profile")
            if prop.name.lower() in RESERVED_PROPERTIES:
                self.error("OP129", f"'{prop.name}' is a reserved property name in OCTGN "
                           f"({', '.join(sorted(RESERVED_PROPERTIES))}, in any case)", where)
            elif prop.name.lower() in seen:
                self.error("OP130", f"two card properties are called '{prop.name}' (OCTGN ignores case here)", where,
                           (f"the other one comes from the field '{'.'.join(seen[prop.name.lower()].path)}'",))
            elif not prop.name.strip() or bad_xml_char(prop.name):
                self.error("OP131", "a property name must be a non-empty text XML can hold", where)
            seen[prop.name.lower()] = prop
        self.p.properties = props
        declared = {pr.path[1] for pr in props if pr.path[0] == "octgn"}
        for i, c in entries:
            extra = c.get("octgn")
            if extra is None:
                continue
            if not isinstance(extra, dict):
                self.error("OP104", "a card's 'octgn' must be a mapping of OCTGN property name to value",
                           d.span("cards", i, "octgn"))
                continue
            for name in extra:
                if str(name) not in declared:
                    notes = did_you_mean(str(name), declared) or ()
                    self.error("OP132", f"undeclared property '{name}': declare it in game.yaml under "
                               "octgn.extra_properties", d.key_span("cards", i, "octgn", name),
                               notes + ("OCTGN reports a game whose set.xml uses an undeclared property as broken",))
        self._proxy(stat_order)

    def _apply(self, prop: Property, spec: Any, where: tuple[Any, ...], rename: bool = True) -> None:
        g = self._g
        if not isinstance(spec, dict):
            self.error("OP104", "a property setting must be a mapping {name, type, hidden}", g.span(*where))
            return
        for key, value in spec.items():
            if key == "name" and rename:
                if not isinstance(value, str) or not value.strip():
                    self.error("OP131", "a property name must be a non-empty text", g.span(*where, key))
                else:
                    prop.name, prop.span = value.strip(), g.span(*where, key)
            elif key == "type":
                if value not in PROPERTY_TYPES:
                    self.error("OP133", f"property type must be one of {', '.join(PROPERTY_TYPES)}",
                               g.span(*where, key))
                else:
                    prop.type = value
            elif key == "hidden":
                if not isinstance(value, bool):
                    self.error("OP115", "hidden must be true or false", g.span(*where, key))
                else:
                    prop.hidden = value
            else:
                self.error("OP134", f"unknown property setting '{key}' (name, type, hidden)",
                           g.key_span(*where, key))

    def _values(self, d: YamlDoc, i: int, c: dict[str, Any]) -> list[tuple[str, str]]:
        out = []
        for prop in self.p.properties:
            head = c.get(prop.path[0])
            value = head.get(prop.path[1]) if len(prop.path) > 1 and isinstance(head, dict) else (
                head if len(prop.path) == 1 else None)
            t = text_of(value)
            if t is None or t == "":
                continue
            if prop.type == "Integer" and not re.fullmatch(r"[+-]?\d+", t):
                self.error("OP135", f"property '{prop.name}' is an Integer but this card gives '{t}'",
                           d.span("cards", i, *prop.path))
            out.append((prop.name, t))
        return out

    def _proxy(self, stats: list[str]) -> None:
        """Which properties the generated proxy shows: a type line, a stats line and a text box."""
        g = self._g
        spec = self._octgn.get("proxy") or {}
        by_path = {".".join(pr.path): pr.name for pr in self.p.properties}
        if not isinstance(spec, dict):
            self.error("OP104", "octgn.proxy must be a mapping {type, stats, text}", g.span("octgn", "proxy"))
            spec = {}

        def names(key: str, default: list[str]) -> list[str]:
            v = spec.get(key, default)
            v = [v] if isinstance(v, str) else v
            out = []
            for j, f in enumerate(v if isinstance(v, list) else []):
                if str(f) not in by_path:
                    self.error("OP128", f"octgn.proxy.{key}: no card property comes from the field '{f}'",
                               g.span("octgn", "proxy", key, j) if isinstance(spec.get(key), list) else
                               g.span("octgn", "proxy", key), did_you_mean(str(f), by_path))
                else:
                    out.append(by_path[str(f)])
            return out

        self.p.proxy = {
            "type": names("type", [f for f in ("type", "subtype") if f in by_path]),
            "stats": names("stats", [f for f in stats if f in by_path]),
            "text": names("text", ["text"] if "text" in by_path else []),
        }

    # -------------------------------------------------------------------------- decks
    def decks(self) -> None:
        p = self.p
        folder = p.root / "decks"
        if not folder.is_dir() or p.face is None:
            return
        sections = [s["name"] for s in p.face.DECK_SECTIONS]
        cards = p.card_by_id()
        names: dict[str, Path] = {}
        for path in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml")):
            d = self.doc(path)
            if d.diagnostics:
                continue
            if not isinstance(d.data, dict):
                self.error("OP140", "a deck must be a mapping (name, cards)", d.span())
                continue
            name = d.data.get("name", path.stem)
            if not isinstance(name, str) or not name.strip() or bad_xml_char(name):
                self.error("OP141", "a deck 'name' must be a non-empty text", d.span("name"))
                continue
            name = " ".join(name.split())
            key = deck_file_name(name).lower()
            if key in names:
                self.error("OP142", f"two decks would be written as '{deck_file_name(name)}'", d.span("name"),
                           (f"the other one is {names[key]}",))
            names[key] = path
            groups: list[tuple[str, Any, tuple[Any, ...]]] = []
            if "sections" in d.data:
                secs = d.data["sections"]
                if not isinstance(secs, dict):
                    self.error("OP143", "'sections' must map a section name to its cards", d.span("sections"))
                    continue
                for sname, counts in secs.items():
                    match = [s for s in sections if s.lower() == str(sname).lower()]
                    if not match:
                        self.error("OP144", f"no deck section '{sname}' (sections: {', '.join(sections)})",
                                   d.key_span("sections", sname), did_you_mean(str(sname), sections))
                        continue
                    groups.append((match[0], counts, ("sections", sname)))
            else:
                groups.append((sections[0] if sections else "Main", d.data.get("cards"), ("cards",)))
            deck = Deck(name, path.stem, [], d.span())
            for sname, counts, where in groups:
                if not isinstance(counts, dict):
                    self.error("OP143", "a deck lists its cards as a mapping of card id to count", d.span(*where))
                    continue
                entries = []
                for cid, qty in counts.items():
                    card = cards.get(str(cid).lower())
                    if card is None:
                        self.error("OP145", f"deck '{name}' names the card '{cid}', which cards.yaml does not hold",
                                   d.key_span(*where, cid), did_you_mean(str(cid), [c.id for c in p.cards]))
                        continue
                    if not isinstance(qty, int) or isinstance(qty, bool) or qty < 1:
                        self.error("OP146", f"the count of '{cid}' must be a whole number above 0",
                                   d.span(*where, cid))
                        continue
                    entries.append(DeckCard(card, qty, d.key_span(*where, cid)))
                deck.sections.append((sname, entries))
            p.decks.append(deck)

    # -------------------------------------------------------------------------- scripts
    def scripts(self) -> None:
        folder = self.p.root / "scripts"
        if folder.is_dir():
            for path in sorted(folder.glob("*.py")):
                # (a name that is not UTF-8 holds surrogate escapes, which XML cannot hold either)
                if bad_xml_char(path.name) or not self._in_game(path):
                    shown = path.name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                    self.error("OP150", f"the script '{shown}' cannot be shipped: its name must be UTF-8 text "
                               "XML can hold, and it must be a file inside the game folder", Span(str(path), 1, 1))
                    continue
                self.p.scripts.append(path)


def read_project(root: str | Path) -> Project:
    """Read and check a game folder.  ``project.ok`` is False when an input error was found."""
    r = _Reader(Path(root))
    g = r.game()
    if g is None:
        return r.p
    r.face(g)
    r.cards()
    r.decks()
    r.scripts()
    return r.p
