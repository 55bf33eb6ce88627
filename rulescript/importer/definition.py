"""Reading an OCTGN ``definition.xml`` (OCTGN's game definition): the game's identity, and the whole
definition as a located tree.

What the rest of the import needs directly is kept as fields: the game's id, name and version, the
declared card properties (the set reader checks against them), the script load order and the deck
sections (the deck reader checks against them).  The tree itself (``root``, every element with its
line and column) goes to :mod:`rulescript.importer.octgnmap`, which writes game.yaml's ``octgn:``
section in the package builder's schema and reports, located here, what the package shows instead of
each part of the definition the builder does not take from game.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.xmlread import Node, read_root


@dataclass(slots=True)
class Definition:
    path: str
    root: Node | None = None                                   # the <game> element, None when unreadable
    id: str | None = None
    name: str | None = None
    version: str | None = None
    properties: dict[str, str] = field(default_factory=dict)  # declared card property name -> type
    scripts: list[str] = field(default_factory=list)           # <script src> in load order
    deck_sections: list[str] = field(default_factory=list)     # <deck><section name>
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def span(self, node: Node) -> Span:
        return Span(self.path, node.line, node.col)


def normalise_guid(text: str) -> str:
    return text.strip().strip("{}").strip().lower()


def read_definition(path: Path) -> Definition:
    out = Definition(str(path))
    root = read_root(path, "game", "RI210", out.diagnostics)
    if root is None:
        return out
    out.root = root
    out.id = normalise_guid(root.get("id") or "") or None
    out.name = " ".join((root.get("name") or "").split()) or None
    out.version = (root.get("version") or "").strip() or None
    for attr, key in (("id", "id"), ("name", "name"), ("version", "version")):
        if getattr(out, key) is None:
            out.diagnostics.append(Diagnostic("warning", "RI211", f"<game> has no '{attr}' attribute",
                                              out.span(root)))
    card = root.find("card")
    if card is None:
        out.diagnostics.append(Diagnostic("warning", "RI211", "<game> has no <card> element (card size unknown)",
                                          out.span(root)))
    else:
        for prop in card.findall("property"):
            if prop.get("name"):
                out.properties[prop.get("name") or ""] = prop.get("type") or "String"
    scripts = root.find("scripts")
    if scripts is not None:
        out.scripts = [s.get("src", "") or "" for s in scripts.findall("script") if s.get("src")]
    deck = root.find("deck")
    if deck is not None:
        out.deck_sections = [s.get("name", "") or "" for s in deck.findall("section")]
    return out
