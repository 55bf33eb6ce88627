"""``def/definition.xml``: the game definition, from the project, the table face and the host manifest.

Player piles, counters, markers, phases and deck sections come from the table face; card properties
from the project (profile fields and ``cards.yaml`` fields); events, menu functions and global
variables from the host manifest (``octgn_pack/host/manifest.py``).  Every file the definition
names is one the builder writes (``resources`` gives their paths).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from octgn_pack.project import Project, slug
from octgn_pack.xmlwrite import El, el

SCRIPT_VERSION = "3.1.0.2"
OCTGN_VERSION = "3.4.0.0"


@dataclass(frozen=True)
class Resources:
    """Paths (relative to ``def/``) of the generated images and documents."""

    back: str = "Resources/back.png"
    front: str = "Resources/front.png"
    table: str = "Resources/table.png"
    document_icon: str = "Resources/document.png"
    proxy_def: str = "Proxy/proxydef.xml"
    proxy_template: str = "Proxy/template.png"
    reference: str = "Documents/rules-reference.html"

    @staticmethod
    def pile_icon(name: str) -> str:
        return _image("Piles", slug(name) or "pile")

    @staticmethod
    def counter_icon(name: str) -> str:
        return _image("Counters", slug(name) or "counter")

    @staticmethod
    def phase_icon(i: int) -> str:
        return _image("Phases", f"{i + 1:02d}")

    @staticmethod
    def marker_image(marker_id: str) -> str:
        return _image("Markers", slug(marker_id) or "marker")


def _image(folder: str, stem: str) -> str:
    return f"Resources/{folder}/{stem}.png"


RES = Resources()


def _fn(template: str | None, do: str) -> str | None:
    return template.replace("{do}", do) if template else None


def _menus(parent: El, face: Any, manifest: Any, cards: bool, games: bool) -> None:
    if cards:
        spec = manifest.CARD_ACTION
        for i, item in enumerate(face.CARD_ACTIONS):
            batch = _fn(spec.get("batch"), item["do"])
            parent.add("cardaction", ("menu", item["menu"]),
                       ("batchExecute", batch) if batch else ("execute", _fn(spec.get("execute"), item["do"])),
                       ("showIf", _fn(spec.get("showIf"), item["do"])), ("default", True) if i == 0 else None)
    if games:
        spec = manifest.GAME_ACTION
        for item in face.GAME_ACTIONS:
            parent.add("groupaction", ("menu", item["menu"]), ("execute", _fn(spec.get("execute"), item["do"])),
                       ("showIf", _fn(spec.get("showIf"), item["do"])))


def definition(p: Project, manifest: Any, scripts: list[str], has_reference: bool) -> El:
    """The ``<game>`` element.  ``scripts``: paths under ``def/`` in load order."""
    face = p.face
    g = el("game", ("name", p.name), ("id", p.guid), ("version", p.version), ("octgnVersion", OCTGN_VERSION),
           ("scriptVersion", SCRIPT_VERSION), ("setsurl", p.setsurl), ("gameurl", p.gameurl),
           ("authors", p.authors), ("description", p.description), ("tags", p.tags), ("iconurl", p.iconurl),
           ("markersize", p.markersize), ("usetwosidedtable", p.twosided))
    s = g.add("scripts")
    for src in scripts:
        s.add("script", ("src", src))
    ev = g.add("events")
    for name, action in manifest.EVENTS:
        ev.add("event", ("name", name), ("action", action))
    g.add("proxygen", ("definitionsrc", RES.proxy_def))
    gv = g.add("globalvariables")
    for name, value in manifest.GLOBAL_VARIABLES:
        gv.add("globalvariable", ("name", name), ("value", value))
    if has_reference:
        d = g.add("documents")
        d.add("document", ("name", "Rules reference"), ("src", RES.reference), ("icon", RES.document_icon))
    m = g.add("markers")
    for mk in face.MARKERS:
        m.add("marker", ("id", mk["id"]), ("name", mk["name"]), ("src", RES.marker_image(mk["id"])))
    ph = g.add("phases")
    for i, phase in enumerate(face.PHASES):
        ph.add("phase", ("name", phase["name"]), ("icon", RES.phase_icon(i)))
    card = g.add("card", ("back", RES.back), ("front", RES.front), ("width", p.card_width),
                 ("height", p.card_height), ("cornerRadius", p.card_corner))
    for prop in p.properties:
        card.add("property", ("name", prop.name), ("type", prop.type), ("hidden", True) if prop.hidden else None,
                 origin=prop.span)
    table = g.add("table", ("name", "Table"), ("visibility", "undefined"), ("ordered", False),
                  ("width", p.table_width), ("height", p.table_height), ("background", RES.table),
                  ("backgroundStyle", "uniformToFill"))
    _menus(table, face, manifest, cards=True, games=True)
    summary = " ".join(f"{c['name']}: {{#{c['name']}}}" for c in face.COUNTERS)
    player = g.add("player", ("summary", summary or None))
    for c in face.COUNTERS:
        player.add("counter", ("name", c["name"]), ("default", c.get("default", 0)), ("icon", RES.counter_icon(c["name"])))
    for pile in face.PILES:
        grp = player.add("group", ("name", pile["name"]), ("visibility", pile.get("visibility", "none")),
                         ("ordered", bool(pile.get("ordered", True))), ("icon", RES.pile_icon(pile["name"])),
                         ("viewState", pile.get("view") or None))
        _menus(grp, face, manifest, cards=pile.get("visibility", "none") != "none", games=True)
    deck = g.add("deck")
    for sec in face.DECK_SECTIONS:
        deck.add("section", ("name", sec["name"]), ("group", sec["pile"]))
    return g
