"""Reading an OCTGN ``definition.xml`` (OCTGN's game definition): the game's identity and its table.

What is kept is what a game folder needs (``game.yaml``): the game's id, name and version, and the
OCTGN-facing facts a package builder needs to rebuild the table: card size and images, the card
properties, each player's piles and counters, shared piles and counters, the phases and the deck
sections.  Anything unreadable is a located diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.xmlread import Node, read_root

_PILE_KEYS = ("visibility", "ordered", "shuffle", "viewState", "moveto", "icon", "shortcut")


@dataclass(slots=True)
class Definition:
    path: str
    id: str | None = None
    name: str | None = None
    version: str | None = None
    octgn: dict[str, Any] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)  # declared card property name -> type
    scripts: list[str] = field(default_factory=list)           # <script src> in load order
    diagnostics: list[Diagnostic] = field(default_factory=list)


def normalise_guid(text: str) -> str:
    return text.strip().strip("{}").strip().lower()


def _int(node: Node, name: str, out: Definition) -> int | None:
    raw = node.get(name)
    if raw is None:
        return None
    try:
        return int(raw.strip())
    except ValueError:
        out.diagnostics.append(Diagnostic("warning", "RI212", f"<{node.tag} {name}=\"{raw}\"> is not an integer; "
                                          "it is left out of game.yaml", Span(out.path, node.line, node.col)))
        return None


def _bool(raw: str | None) -> bool | None:
    if raw is None:
        return None
    return raw.strip().lower() == "true"


def _pile(node: Node) -> dict[str, Any]:
    pile: dict[str, Any] = {"name": node.get("name", "")}
    for key in _PILE_KEYS:
        raw = node.get(key)
        if raw is None:
            continue
        pile[key] = _bool(raw) if key in ("ordered", "shuffle") else raw
    return pile


def _counter(node: Node, out: Definition) -> dict[str, Any]:
    counter: dict[str, Any] = {"name": node.get("name", "")}
    default = _int(node, "default", out)
    if default is not None:
        counter["default"] = default
    for key in ("reset", "icon"):
        if node.get(key) is not None:
            counter[key] = _bool(node.get(key)) if key == "reset" else node.get(key)
    return counter


def _side(node: Node | None, out: Definition) -> dict[str, Any]:
    if node is None:
        return {}
    side: dict[str, Any] = {}
    piles = [_pile(g) for g in node.findall("group")]
    counters = [_counter(c, out) for c in node.findall("counter")]
    if piles:
        side["piles"] = piles
    if counters:
        side["counters"] = counters
    if node.get("summary"):
        side["summary"] = node.get("summary")
    return side


def read_definition(path: Path) -> Definition:
    out = Definition(str(path))
    root = read_root(path, "game", "RI210", out.diagnostics)
    if root is None:
        return out
    out.id = normalise_guid(root.get("id") or "") or None
    out.name = " ".join((root.get("name") or "").split()) or None
    out.version = (root.get("version") or "").strip() or None
    for attr, key in (("id", "id"), ("name", "name"), ("version", "version")):
        if getattr(out, key) is None:
            out.diagnostics.append(Diagnostic("warning", "RI211", f"<game> has no '{attr}' attribute",
                                              Span(out.path, root.line, root.col)))
    octgn: dict[str, Any] = {}
    for attr in ("authors", "description", "gameurl", "setsurl", "iconurl", "tags", "octgnVersion",
                 "scriptVersion", "markersize", "usetwosidedtable"):
        if root.get(attr) is not None:
            octgn[attr] = root.get(attr)
    card = root.find("card")
    if card is not None:
        size: dict[str, Any] = {}
        for key in ("width", "height", "cornerRadius"):
            value = _int(card, key, out)
            if value is not None:
                size[key] = value
        for key in ("front", "back"):
            if card.get(key):
                size[key] = card.get(key)
        octgn["card"] = size
        props = []
        for prop in card.findall("property"):
            name = prop.get("name") or ""
            if not name:
                continue
            out.properties[name] = prop.get("type") or "String"
            entry: dict[str, Any] = {"name": name, "type": out.properties[name]}
            for key in ("textKind", "hidden", "ignoreText"):
                if prop.get(key) is not None:
                    entry[key] = prop.get(key)
            props.append(entry)
        octgn["properties"] = props
    else:
        out.diagnostics.append(Diagnostic("warning", "RI211", "<game> has no <card> element (card size unknown)",
                                          Span(out.path, root.line, root.col)))
    table = root.find("table")
    if table is not None:
        octgn["table"] = {k: v for k, v in (("name", table.get("name")), ("width", _int(table, "width", out)),
                                            ("height", _int(table, "height", out)),
                                            ("background", table.get("background"))) if v is not None}
    player = _side(root.find("player"), out)
    if player:
        octgn["player"] = player
    shared = _side(root.find("shared"), out)
    if shared:
        octgn["shared"] = shared
    phases = root.find("phases")
    if phases is not None:
        octgn["phases"] = [{k: v for k, v in (("name", p.get("name")), ("icon", p.get("icon"))) if v is not None}
                           for p in phases.findall("phase")]
    for tag in ("deck", "sharedDeck"):
        deck = root.find(tag)
        if deck is not None:
            octgn["deck_sections" if tag == "deck" else "shared_deck_sections"] = [
                {"name": s.get("name", ""), "group": s.get("group", "")} for s in deck.findall("section")]
    markers = root.find("markers")
    if markers is not None:
        octgn["markers"] = [{k: v for k, v in m.attrib.items() if k in ("id", "name", "src")}
                            for m in markers.findall("marker")]
    scripts = root.find("scripts")
    if scripts is not None:
        out.scripts = [s.get("src", "") for s in scripts.findall("script") if s.get("src")]
        octgn["scripts"] = list(out.scripts)
    out.octgn = octgn
    return out
