"""Reading an OCTGN ``set.xml`` (the card set of an OCTGN game) into RuleScript card data (``cards.yaml`` entries).

A card is ``<card id="guid" name="…">`` with ``<property name="…" value="…"/>`` children (or rich text
content).  CFC plugins name their properties in several ways, so property names are matched without
regard to case, spaces, ``_`` and ``-``; missing or malformed properties are reported as warnings
and left out.  Every card is checked against what the game needs (docs/cfc-rules.md §3, docs/game-format.md): a card that
cannot be used is still written, commented out, so that nothing is lost.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulescript.diagnostics import Diagnostic, Span

CARD_TYPES = ("character", "action", "reaction")

# normalised property name -> field
PROPERTY_FIELDS = {
    "type": "type", "cardtype": "type", "kind": "type",
    "subtype": "subtype", "subtypes": "subtype", "class": "subtype",
    "bp": "bp", "battlepoints": "bp", "power": "bp",
    "sp": "sp", "specialpoints": "sp", "cost": "sp",
    "backup": "backup", "backups": "backup", "backupslots": "backup", "backupto": "backup",
    "abilitytype": "ability_kind", "abilitykind": "ability_kind", "abilitysymbol": "ability_kind",
    "abilityname": "ability_name", "ability": "ability",
    "rules": "text", "text": "text", "abilitytext": "text", "rulestext": "text", "effect": "text",
    "cardtext": "text",
}
KIND_WORDS = {
    "instant": "instant", "▲": "instant", "△": "instant", "i": "instant",
    "trigger": "trigger", "triggered": "trigger", "■": "trigger", "□": "trigger", "t": "trigger",
    "auto": "auto", "automatic": "auto", "●": "auto", "○": "auto", "a": "auto",
}
_SYMBOLS = "▲△■□●○"


@dataclass(slots=True)
class SetData:
    path: str
    set_name: str | None = None
    set_id: str | None = None
    game_id: str | None = None
    version: str | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[tuple[dict[str, Any], str]] = field(default_factory=list)  # (card, reason)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).lower()


def _line_of(text: str, needle: str) -> int:
    """Line of the first occurrence of ``needle`` in the file (ElementTree keeps no positions)."""
    i = text.find(needle)
    return text.count("\n", 0, i) + 1 if i >= 0 else 1


def _int(value: str) -> int | None:
    v = value.strip().replace("\u2212", "-")
    return int(v) if re.fullmatch(r"[+-]?\d+", v) else None


def read_set_xml(path: Path) -> SetData:
    out = SetData(str(path))
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        out.diagnostics.append(Diagnostic("error", "RI201", f"cannot read the file: {exc.strerror}",
                                          Span(str(path), 1, 1)))
        return out
    text = raw.decode("utf-8", errors="replace")
    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.IGNORECASE):
        out.diagnostics.append(Diagnostic("error", "RI201", "set.xml must not declare a DOCTYPE or entities",
                                          Span(str(path), _line_of(text, "<!"), 1)))
        return out
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        line, col = exc.position
        out.diagnostics.append(Diagnostic("error", "RI201", f"invalid XML: {exc}", Span(str(path), line, col + 1)))
        return out
    if root.tag != "set":
        out.diagnostics.append(Diagnostic("error", "RI201", f"the root element is <{root.tag}>, expected <set>",
                                          Span(str(path), 1, 1)))
        return out
    out.set_name = " ".join(root.get("name", "").split()) or None
    out.set_id = root.get("id")
    out.game_id = root.get("gameId") or root.get("gameid")
    out.version = root.get("version")
    cards = root.find("cards")
    for el in (cards if cards is not None else []):
        if el.tag != "card":
            continue
        _read_card(el, text, out)
    if not out.cards and not out.rejected:
        out.diagnostics.append(Diagnostic("warning", "RI202", "set.xml holds no cards", Span(str(path), 1, 1)))
    return out


def _warn(out: SetData, line: int, message: str, code: str = "RI203") -> None:
    out.diagnostics.append(Diagnostic("warning", code, message, Span(out.path, line, 1)))


def _read_card(el: ET.Element, text: str, out: SetData) -> None:
    cid = (el.get("id") or "").strip().strip("{}").lower()
    name = " ".join((el.get("name") or "").split())  # a character reference may hide a line break
    line = _line_of(text, el.get("id") or name or "<card") if (el.get("id") or name) else 1
    card: dict[str, Any] = {"id": cid, "name": name}
    fields: dict[str, str] = {}
    extra: dict[str, str] = {}
    for prop in el.findall("property"):
        pname = prop.get("name") or ""
        value = prop.get("value")
        if value is None:
            value = "".join(prop.itertext())
        value = re.sub(r"\s+", " ", value).strip()
        f = PROPERTY_FIELDS.get(_norm(pname))
        if f is None:
            if value:
                extra[pname] = value
            continue
        if f in fields and fields[f] != value:
            _warn(out, line, f"card '{name or cid}': property '{pname}' repeats a value already read; "
                  "the first one is kept")
            continue
        fields[f] = value
    if el.find("alternate") is not None:
        _warn(out, line, f"card '{name or cid}': alternate faces are not imported")
    problems: list[str] = []
    if not cid:
        problems.append("the card has no id")
    if not name:
        problems.append("the card has no name")
    ctype = fields.get("type", "").strip().lower()
    if ctype not in CARD_TYPES:
        problems.append(f"unknown card type '{fields.get('type', '')}'" if ctype else "no Type property")
    card["type"] = ctype or None
    if ctype == "character":
        if fields.get("subtype"):
            card["subtype"] = fields["subtype"].strip().lower()
        bp = _int(fields.get("bp", ""))
        if bp is None or not 100 <= bp <= 1500 or bp % 100:
            problems.append(f"BP must be 100..1500 in steps of 100 (found {fields.get('bp', 'nothing')!r})")
        card["bp"] = bp
    sp = _int(fields.get("sp", "0") or "0")
    if sp is None:
        problems.append(f"SP must be an integer (found {fields.get('sp')!r})")
    elif ctype in ("action", "reaction") and sp > 0:
        problems.append(f"an {ctype} card cannot give SP (found {sp})")
    card["sp"] = sp
    if ctype == "character":
        slots = [s.strip().lower() for s in re.split(r"[,;/|]", fields.get("backup", "")) if s.strip()]
        if len(slots) > 3:
            problems.append(f"at most 3 backup slots (found {len(slots)})")
        card["backup"] = slots
    ability = _ability(fields)
    if ability is not None:
        if ability.get("kind") is None:
            _warn(out, line, f"card '{name or cid}': unknown ability kind {fields.get('ability_kind') or fields.get('ability')!r}; "
                  "the ability is left out")
        else:
            card["ability"] = ability
    if fields.get("text"):
        card["text"] = fields["text"]
    if extra:
        card["octgn"] = extra
    if problems:
        reason = "; ".join(problems)
        out.rejected.append((card, reason))
        out.diagnostics.append(Diagnostic("warning", "RI204", f"card '{name or cid}' cannot be used by the game "
                                          f"({reason}); it is written to cards.yaml commented out",
                                          Span(out.path, line, 1)))
    else:
        out.cards.append(card)


def _ability(fields: dict[str, str]) -> dict[str, Any] | None:
    kind_text = fields.get("ability_kind", "").strip()
    name = fields.get("ability_name", "").strip()
    combined = fields.get("ability", "").strip()
    if combined and not kind_text:
        # "▲ Venom Ink" or "Instant: Venom Ink" or just "Instant"
        m = re.match(rf"^([{_SYMBOLS}])\s*(.*)$", combined)
        if m:
            kind_text, rest = m.group(1), m.group(2)
        else:
            head, _, rest = combined.partition(":")
            if head.strip().lower() in KIND_WORDS:
                kind_text = head.strip()
            else:
                kind_text, rest = "", combined
        name = name or rest.strip()
    if not kind_text and not name:
        return None
    if kind_text and kind_text[0] in _SYMBOLS and not name:
        name = kind_text[1:].strip()
        kind_text = kind_text[0]
    kind = KIND_WORDS.get(kind_text.lower()) if kind_text else None
    return {"kind": kind, "name": name}


# ---------------------------------------------------------------------------------------------------
# writing YAML by hand: stable layout like the bundled demo, and room for comments


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    # a JSON string is a valid YAML double-quoted scalar; YAML also breaks lines at these three
    text = json.dumps(str(value), ensure_ascii=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\u0085")


def _card_lines(card: dict[str, Any]) -> list[str]:
    lines = []
    first = True
    for key in ("id", "name", "type", "subtype", "bp", "sp", "backup", "ability", "text", "octgn"):
        if key not in card or (card[key] is None and key not in ("type",)):
            continue
        value = card[key]
        if key == "backup":
            text = "[" + ", ".join(_scalar(v) for v in value) + "]"
        elif key == "ability":
            text = "{kind: " + _scalar(value["kind"]) + ", name: " + _scalar(value.get("name", "")) + "}"
        elif key == "octgn":
            text = "{" + ", ".join(f"{_scalar(k)}: {_scalar(v)}" for k, v in value.items()) + "}"
        else:
            text = _scalar(value)
        lines.append(("  - " if first else "    ") + f"{key}: {text}")
        first = False
    return lines


def cards_yaml(data: SetData | None, source_note: str) -> str:
    out = [f"# Card database imported by `rulescript import` from {source_note}.",
           "# A card has rules exactly when rules/*.ini has a section with its id.", ""]
    cards = data.cards if data is not None else []
    if not cards:
        out.append("cards: []")
    else:
        out.append("cards:")
        for card in cards:
            out.extend(_card_lines(card))
    for card, reason in (data.rejected if data is not None else []):
        out.append("")
        out.append(f"# NOT IMPORTED: {reason}")
        out.extend("# " + line for line in _card_lines(card))
    return "\n".join(out) + "\n"


def game_yaml(game_id: str, name: str, version: str, description: str) -> str:
    return "\n".join([
        "profile: cfc",
        f"id: {_scalar(game_id)}",
        f"name: {_scalar(name)}",
        f"version: {_scalar(version)}",
        f"description: {_scalar(description)}",
    ]) + "\n"
