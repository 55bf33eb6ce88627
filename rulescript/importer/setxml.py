"""Reading an OCTGN ``set.xml`` (the card set of an OCTGN game) into RuleScript card data (``cards.yaml`` entries).

A card is ``<card id="guid" name="…">`` with ``<property name="…" value="…"/>`` children (or rich text
content).  Property names are matched without regard to case, spaces, ``_`` and ``-``.  Every card
field of the CFC game (docs/cfc-rules.md §3) is filled: type, subtype, BP, SP, backup slots (``Backup``, or
``Backup 1`` … ``Backup 3``), ability kind and name (``Ability Type`` holds a glyph, ``Ability`` a glyph
and a name; the plugin's glyphs come from its scripts, :mod:`rulescript.importer.glyphs`) and the
printed text, with the glyphs turned into ▲ ■ ●.  Display-only properties (``Publisher``, ``Rarity``…)
are kept under ``octgn:``.

Nothing is left out silently: a value that cannot be mapped is an error diagnostic (code ``RI22x``)
located at its ``<property>`` element, counted in :attr:`SetData.dropped_fields`; a card the game
cannot use at all is written to ``cards.yaml`` commented out (``RI204``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulescript.diagnostics import Diagnostic, Span
from rulescript.importer.definition import normalise_guid
from rulescript.importer.glyphs import Glyphs
from rulescript.importer.xmlread import Node, read_root, whole_number

CARD_TYPES = ("character", "action", "reaction")

# normalised property name -> field
PROPERTY_FIELDS = {
    "type": "type", "cardtype": "type", "kind": "type",
    "subtype": "subtype", "subtypes": "subtype", "class": "subtype",
    "bp": "bp", "battlepoints": "bp", "power": "bp",
    "sp": "sp", "specialpoints": "sp", "cost": "sp",
    "backup": "backup", "backups": "backup", "backupslots": "backup", "backupto": "backup",
    "backup1": "backup1", "backup2": "backup2", "backup3": "backup3",
    "abilitytype": "ability_kind", "abilitykind": "ability_kind", "abilitysymbol": "ability_kind",
    "abilityname": "ability_name", "ability": "ability",
    "rules": "text", "text": "text", "abilitytext": "text", "rulestext": "text", "effect": "text",
    "cardtext": "text",
}
KIND_WORDS = {
    "instant": "instant", "i": "instant",
    "trigger": "trigger", "triggered": "trigger", "t": "trigger",
    "auto": "auto", "automatic": "auto", "a": "auto",
}


@dataclass(slots=True)
class SetData:
    path: str
    set_name: str | None = None
    set_id: str | None = None
    game_id: str | None = None
    version: str | None = None
    hidden: bool = False           # <set hidden="true">: OCTGN does not show it in the deck editor
    cards: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[tuple[dict[str, Any], str]] = field(default_factory=list)  # (card, reason)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dropped_fields: int = 0        # card field values that could not be mapped (each one an RI22x error)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # card id -> line, col of <card>
    root_pos: tuple[int, int] = (1, 1)                                   # line, col of <set>


def norm_name(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).lower()


def _int(value: str) -> int | None:
    return whole_number(value, signed=True)


def read_set_xml(path: Path, glyphs: Glyphs | None = None, declared: dict[str, str] | None = None) -> SetData:
    """Read one set.xml.  ``glyphs``: the plugin's ability glyphs; ``declared``: the card properties
    that definition.xml declares (an undeclared one is reported)."""
    out = SetData(str(path))
    root = read_root(path, "set", "RI201", out.diagnostics)
    if root is None:
        return out
    out.root_pos = (root.line, root.col)
    out.set_name = " ".join(root.get("name", "").split()) or None
    out.set_id = normalise_guid(root.get("id") or "") or None
    out.game_id = normalise_guid(root.get("gameId") or root.get("gameid") or "") or None
    out.version = root.get("version")
    out.hidden = (root.get("hidden") or "").strip().lower() == "true"
    reader = _CardReader(out, glyphs or Glyphs(), declared)
    cards = root.find("cards")
    for el in (cards.children if cards is not None else []):
        if el.tag == "card":
            reader.card(el)
    if not out.cards and not out.rejected:
        out.diagnostics.append(Diagnostic("warning", "RI202", "set.xml holds no cards",
                                          Span(out.path, root.line, root.col)))
    return out


class _CardReader:
    def __init__(self, out: SetData, glyphs: Glyphs, declared: dict[str, str] | None) -> None:
        self.out = out
        self.glyphs = glyphs
        self.declared = {p.lower() for p in declared} if declared else None
        self.undeclared_seen: set[str] = set()

    def span(self, node: Node) -> Span:
        return Span(self.out.path, node.line, node.col)

    def drop(self, node: Node, card: str, message: str, code: str = "RI220") -> None:
        """A card field value that cannot be mapped: an error, counted."""
        self.out.dropped_fields += 1
        self.out.diagnostics.append(Diagnostic("error", code, f"card '{card}': {message}; the value is dropped",
                                               self.span(node)))

    def warn(self, node: Node, message: str, code: str = "RI203") -> None:
        self.out.diagnostics.append(Diagnostic("warning", code, message, self.span(node)))

    def card(self, el: Node) -> None:
        cid = normalise_guid(el.get("id") or "")
        name = " ".join((el.get("name") or "").split())  # a character reference may hide a line break
        label = name or cid or "?"
        card: dict[str, Any] = {"id": cid, "name": name}
        self.out.positions.setdefault(cid, (el.line, el.col))
        fields: dict[str, tuple[str, Node]] = {}
        extra: dict[str, str] = {}
        for prop in el.findall("property"):
            pname = prop.get("name") or ""
            value = prop.get("value")
            if value is None:
                value = prop.itertext()
            value = re.sub(r"\s+", " ", value).strip()
            if self.declared is not None and pname.lower() not in self.declared \
                    and pname.lower() not in self.undeclared_seen:
                self.undeclared_seen.add(pname.lower())
                self.warn(prop, f"property '{pname}' is not declared in definition.xml (OCTGN reports the game "
                          "as broken); it is read all the same", "RI205")
            f = PROPERTY_FIELDS.get(norm_name(pname))
            if f is None:
                if value:
                    extra[pname] = value
                continue
            if f in fields and fields[f][0] != value:
                self.drop(prop, label, f"property '{pname}' repeats a value already read ({fields[f][0]!r})")
                continue
            fields[f] = (value, prop)
        for alt in el.findall("alternate"):
            self.out.dropped_fields += 1
            self.out.diagnostics.append(Diagnostic(
                "error", "RI221", f"card '{label}': the alternate face '{alt.get('name') or alt.get('type') or '?'}' "
                "cannot be imported (the game has one face per card); it is dropped", self.span(alt)))
        problems: list[str] = []
        if not cid:
            problems.append("the card has no id")
        if not name:
            problems.append("the card has no name")
        ctype = fields.get("type", ("", el))[0].strip().lower()
        if ctype not in CARD_TYPES:
            problems.append(f"unknown card type '{fields['type'][0]}'" if ctype else "no Type property")
        card["type"] = ctype or None
        if ctype == "character":
            self.character(card, fields, label, problems)
        else:
            self.not_character(fields, label, ctype)
        self.sp(card, fields, ctype, problems)
        if ctype == "character":
            ability = self.ability(fields, label)
            if ability is not None:
                card["ability"] = ability
        if fields.get("text", ("",))[0]:
            card["text"] = self.glyphs.shapes(fields["text"][0])
        if extra:
            card["octgn"] = extra
        if problems:
            reason = "; ".join(problems)
            self.out.rejected.append((card, reason))
            self.out.diagnostics.append(Diagnostic(
                "error", "RI204", f"card '{label}' cannot be used by the game ({reason}); it is written to "
                "cards.yaml commented out", self.span(el)))
        else:
            self.out.cards.append(card)

    def character(self, card: dict[str, Any], fields: dict[str, tuple[str, Node]], label: str,
                  problems: list[str]) -> None:
        if fields.get("subtype", ("",))[0]:
            card["subtype"] = fields["subtype"][0].strip().lower()
        raw, _node = fields.get("bp", ("", None))
        bp = _int(raw)
        if bp is None or not 100 <= bp <= 1500 or bp % 100:
            problems.append(f"BP must be 100..1500 in steps of 100 (found {raw or 'nothing'!r})")
        card["bp"] = bp
        slots: list[str] = []
        if "backup" in fields:
            slots = [s.strip().lower() for s in re.split(r"[,;/|]", fields["backup"][0]) if s.strip()]
        for key in ("backup1", "backup2", "backup3"):
            value = fields.get(key, ("",))[0].strip()
            if value:
                slots.append(value.lower())
        if len(slots) > 3:
            node = fields.get("backup", fields.get("backup3", ("", None)))[1]
            self.drop(node, label, f"at most 3 backup slots, found {len(slots)} ({', '.join(slots)}); the slots "
                      "after the third are")
            slots = slots[:3]
        card["backup"] = slots

    def not_character(self, fields: dict[str, tuple[str, Node]], label: str, ctype: str) -> None:
        """An Action or Reaction has no subtype, BP, backups or ability: a value there cannot be mapped."""
        if ctype not in ("action", "reaction"):
            return
        for key in ("subtype", "bp", "backup", "backup1", "backup2", "backup3", "ability", "ability_kind",
                    "ability_name"):
            value, node = fields.get(key, ("", None))
            if value.strip() and node is not None:
                self.drop(node, label, f"an {ctype} card has no {key.replace('_', ' ')} (found {value!r})")

    def sp(self, card: dict[str, Any], fields: dict[str, tuple[str, Node]], ctype: str,
           problems: list[str]) -> None:
        raw = fields.get("sp", ("0",))[0] or "0"
        sp = _int(raw)
        if sp is None:
            problems.append(f"SP must be an integer (found {raw!r})")
        elif ctype in ("action", "reaction") and sp > 0:
            problems.append(f"an {ctype} card cannot give SP (found {sp})")
        card["sp"] = sp

    def ability(self, fields: dict[str, tuple[str, Node]], label: str) -> dict[str, Any] | None:
        """``{kind, name}`` from Ability Type / Ability Name / Ability ("glyph name")."""
        kind_text, kind_node = fields.get("ability_kind", ("", None))
        name, name_node = fields.get("ability_name", ("", None))
        combined, comb_node = fields.get("ability", ("", None))
        kind_text, name, combined = kind_text.strip(), name.strip(), combined.strip()
        comb_kind: str | None = None
        comb_name = ""
        if combined:
            comb_kind, comb_name, bad = self.split_combined(combined)
            if bad is not None and comb_node is not None and not kind_text:
                self.drop(comb_node, label, f"unknown ability kind {bad!r} in {combined!r} (the plugin's glyphs: "
                          f"{self.known_glyphs()})", "RI222")
                return None
        kind: str | None = None
        if kind_text:
            kind = self.kind_of(kind_text)
            if kind is None:
                assert kind_node is not None
                self.drop(kind_node, label, f"unknown ability kind {kind_text!r} (the plugin's glyphs: "
                          f"{self.known_glyphs()})", "RI222")
                return None
            if comb_kind is not None and comb_kind != kind and comb_node is not None:
                self.warn(comb_node, f"card '{label}': the ability kind in {combined!r} ({comb_kind}) differs from "
                          f"the Ability Type ({kind}); the Ability Type is used", "RI206")
        else:
            kind = comb_kind
        name = name or comb_name
        if kind is None:
            if name:
                node = name_node or comb_node
                assert node is not None
                self.drop(node, label, f"the ability '{name}' has no kind (no Ability Type and no glyph)", "RI222")
            return None
        return {"kind": kind, "name": name}

    def kind_of(self, text: str) -> str | None:
        t = text.strip()
        if len(t) == 1 and self.glyphs.is_glyph(t):
            return self.glyphs.kind(t)
        return KIND_WORDS.get(t.lower().rstrip(":"))

    def split_combined(self, text: str) -> tuple[str | None, str, str | None]:
        """(kind, name, unknown kind text) of "▲ Venom Ink", "Instant: Venom Ink" or a bare name."""
        first = text[0]
        if self.glyphs.is_glyph(first):
            return self.glyphs.kind(first), text[1:].strip(), None
        head, sep, rest = text.partition(":")
        if sep and head.strip().lower() in KIND_WORDS:
            return KIND_WORDS[head.strip().lower()], rest.strip(), None
        if text.strip().lower() in KIND_WORDS:
            return KIND_WORDS[text.strip().lower()], "", None
        if not first.isalnum() and not first.isspace() and first not in "\"'(":
            return None, text[1:].strip(), first  # a symbol the plugin does not define
        return None, text, None

    def known_glyphs(self) -> str:
        return ", ".join(f"{g!r} {k}" for g, k in self.glyphs.kinds.items())
