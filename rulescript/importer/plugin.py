"""Finding and reading the parts of an OCTGN plugin (an OCTGN game definition folder) as data.

A plugin folder holds ``definition.xml``, ``Scripts/*.py`` (one holds the rules dict, another the
configuration constants such as the ability glyphs), ``Sets/<set-guid>/set.xml`` (one or more sets),
``Decks/**/*.o8d`` (and ``Sets/<guid>/Decks/*.o8d``), plus ``Proxy/`` and ``Resources/``, which the
import does not need.  :func:`read_plugin` reads all of it (XML with expat, Python with ``ast``; nothing
is executed) into :class:`Sources`, which :mod:`rulescript.importer.migrate` turns into a game folder.
The two-file form (a rules file and one set.xml) gives the same :class:`Sources` via
:func:`read_files`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.decks import Deck, deck_slug, find_decks, read_deck
from rulescript.importer.definition import Definition, read_definition
from rulescript.importer.glyphs import Glyphs, read_glyphs
from rulescript.importer.pysource import PySource, read_rules_py
from rulescript.importer.ruledicts import choose_rule_dicts, interface_note, is_interface_set
from rulescript.importer.setxml import SetData, read_set_xml


@dataclass(slots=True)
class Sources:
    """Everything read from a plugin, before conversion."""

    root: Path
    rule_files: list[PySource] = field(default_factory=list)
    sets: list[SetData] = field(default_factory=list)
    definition: Definition | None = None
    glyphs: Glyphs = field(default_factory=Glyphs)
    decks: list[tuple[str, Deck]] = field(default_factory=list)   # (slug, deck)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    read_paths: list[Path] = field(default_factory=list)          # files whose text a report may quote

    @property
    def cards(self) -> list[dict[str, Any]]:
        return [c for s in self.sets for c in s.cards]

    @property
    def duplicate_free_cards(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in self.cards}


def _child(folder: Path, name: str) -> Path | None:
    """``folder/name`` matched without regard to case (plugins come from Windows)."""
    exact = folder / name
    if exact.exists():
        return exact
    for p in folder.iterdir() if folder.is_dir() else []:
        if p.name.lower() == name.lower():
            return p
    return None


def _scripts(root: Path, definition: Definition | None) -> list[Path]:
    folder = _child(root, "Scripts")
    found = sorted((p for p in folder.glob("*") if p.is_file() and p.suffix.lower() == ".py"),
                   key=lambda p: p.name.lower()) if folder is not None else []
    if definition is None or not definition.scripts:
        return found
    ordered: list[Path] = []
    for src in definition.scripts:  # the load order of definition.xml first, then any other script
        for p in found:
            if p.relative_to(root).as_posix().lower() == src.replace("\\", "/").lower() and p not in ordered:
                ordered.append(p)
    return ordered + [p for p in found if p not in ordered]


def _set_files(root: Path) -> list[Path]:
    folder = _child(root, "Sets")
    if folder is None:
        return []
    out = []
    for sub in sorted((p for p in folder.iterdir() if p.is_dir()), key=lambda p: p.name.lower()):
        xml = _child(sub, "set.xml")
        if xml is not None and xml.is_file():
            out.append(xml)
    return out


def _deck_files(root: Path) -> list[Path]:
    found: list[Path] = []
    decks = _child(root, "Decks")
    if decks is not None:
        found.extend(find_decks(decks))
    sets = _child(root, "Sets")
    if sets is not None:
        for sub in sorted((p for p in sets.iterdir() if p.is_dir()), key=lambda p: p.name.lower()):
            d = _child(sub, "Decks")
            if d is not None:
                found.extend(find_decks(d))
    return found


def _check_duplicate_cards(src: Sources) -> None:
    seen: dict[str, str] = {}
    for s in src.sets:
        kept = []
        for card in s.cards:
            if card["id"] in seen:
                s.rejected.append((card, f"the id '{card['id']}' is already used by a card of {seen[card['id']]}"))
                s.diagnostics.append(Diagnostic("error", "RI207", f"card '{card['name']}': its id is already used by "
                                                f"a card of {seen[card['id']]}; this one is written commented out",
                                                Span(s.path, *s.positions.get(card["id"], (1, 1)))))
                continue
            seen[card["id"]] = s.path
            kept.append(card)
        s.cards = kept


def read_plugin(root: Path) -> Sources:
    """Read a plugin folder."""
    src = Sources(root)
    definition_path = _child(root, "definition.xml")
    if definition_path is None:
        src.diagnostics.append(Diagnostic("error", "RI210", "the plugin has no definition.xml (game name, id and "
                                          "table are unknown)", Span(str(root), 1, 1)))
    else:
        src.definition = read_definition(definition_path)
        src.diagnostics.extend(src.definition.diagnostics)
        src.read_paths.append(definition_path)
    scripts = _scripts(root, src.definition)
    src.glyphs = read_glyphs(scripts)
    src.diagnostics.extend(src.glyphs.diagnostics)
    set_files = _set_files(root)
    declared = src.definition.properties if src.definition is not None and src.definition.properties else None
    sets: list[SetData] = []
    interface: list[Diagnostic] = []
    for path in set_files:
        data = read_set_xml(path, src.glyphs, declared)
        src.read_paths.append(path)
        if is_interface_set(data):  # buttons, markers, avatars: not game cards
            interface.append(interface_note(data))
            continue
        sets.append(data)
        if src.definition is not None and src.definition.id and data.game_id and data.game_id != src.definition.id:
            data.diagnostics.append(Diagnostic("warning", "RI208", f"the set is for the game {data.game_id}, not "
                                               f"this plugin's {src.definition.id}", Span(str(path), 1, 1)))
    card_ids = {c["id"] for s in sets for c in s.cards + [r for r, _ in s.rejected] if c.get("id")}
    chosen, dict_notes = choose_rule_dicts(scripts, root, card_ids)
    for path in scripts:
        if chosen is not None and path not in chosen:
            continue
        py = read_rules_py(path, chosen[path] if chosen is not None else None)
        if py.entries:  # a script without a rules dict (table actions, constants) is not the importer's
            src.rule_files.append(py)
            src.diagnostics.extend(py.diagnostics)
            src.read_paths.append(path)
    src.diagnostics.extend(dict_notes)
    if not src.rule_files:
        where = Span(str(_child(root, "Scripts") or root), 1, 1)
        src.diagnostics.append(Diagnostic("error", "RI100", "no script of the plugin holds a rules dict (a "
                                          "module-level dict literal whose name contains 'rule', or keyed by card "
                                          "GUIDs)", where, tuple(f"read: {p}" for p in scripts)))
    if not set_files:
        src.diagnostics.append(Diagnostic("error", "RI202", "the plugin has no Sets/<set-guid>/set.xml",
                                          Span(str(root), 1, 1)))
    src.sets = sets
    src.diagnostics.extend(interface)
    _check_duplicate_cards(src)
    for s in src.sets:
        src.diagnostics.extend(s.diagnostics)
    cards = src.duplicate_free_cards
    sections = src.definition.deck_sections if src.definition is not None and src.definition.deck_sections else None
    game_id = src.definition.id if src.definition is not None else None
    rejected = {c["id"]: c.get("name", "") for s in src.sets for c, _ in s.rejected if c.get("id")}
    taken: set[str] = set()
    decks_root = _child(root, "Decks") or root
    for path in _deck_files(root):
        try:
            rel = path.relative_to(decks_root).with_suffix("").as_posix()
        except ValueError:
            rel = path.relative_to(root).with_suffix("").as_posix()
        deck = read_deck(path, Path(rel).name, cards, sections, game_id, rejected)
        src.decks.append((deck_slug(rel, taken), deck))
        src.diagnostics.extend(deck.diagnostics)
        src.read_paths.append(path)
    return src


def read_files(rules_py: Path, set_xml: Path | None) -> Sources:
    """The two-file form: one rules file and (optionally) one set.xml, no definition, no decks."""
    src = Sources(rules_py.parent)
    py = read_rules_py(rules_py)
    src.rule_files.append(py)
    src.diagnostics.extend(py.diagnostics)
    src.read_paths.append(rules_py)
    src.glyphs = read_glyphs([rules_py])
    if set_xml is not None:
        data = read_set_xml(set_xml, src.glyphs)
        src.sets.append(data)
        src.diagnostics.extend(data.diagnostics)
        src.read_paths.append(set_xml)
    return src
