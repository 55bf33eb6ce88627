"""Writing the imported game folder's YAML by hand: a stable layout like the bundled demo's, with room
for comments (cards that could not be imported are kept, commented out, next to the others)."""

from __future__ import annotations

import json
import re
from typing import Any

from rulescript.importer.setxml import SetData

CARD_KEYS = ("id", "name", "type", "subtype", "bp", "sp", "backup", "ability", "text", "octgn")


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    # a JSON string is a valid YAML double-quoted scalar; YAML also breaks lines at these three
    text = json.dumps(str(value), ensure_ascii=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\u0085")


_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def key(name: Any) -> str:
    """A mapping key: plain when it is a simple word YAML reads as that string, else quoted."""
    text = str(name)
    return text if _PLAIN_KEY.match(text) and text.lower() not in _YAML_WORDS else scalar(text)


def flow(value: Any) -> str:
    """A value on one line (flow style)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def block(value: dict[str, Any], indent: int = 0) -> list[str]:
    """A mapping in block style; lists of mappings one item a line, other lists and mappings in flow
    style once they hold only scalars."""
    pad = " " * indent
    lines: list[str] = []
    for name, v in value.items():
        if isinstance(v, dict) and v and any(isinstance(x, (dict, list)) for x in v.values()):
            lines.append(f"{pad}{key(name)}:")
            lines.extend(block(v, indent + 2))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            lines.append(f"{pad}{key(name)}:")
            lines.extend(f"{pad}  - {flow(x)}" for x in v)
        else:
            lines.append(f"{pad}{key(name)}: {flow(v)}")
    return lines


def card_lines(card: dict[str, Any]) -> list[str]:
    lines = []
    first = True
    for key in CARD_KEYS:
        if key not in card or (card[key] is None and key != "type"):
            continue
        lines.append(("  - " if first else "    ") + f"{key}: {flow(card[key])}")
        first = False
    return lines


def cards_yaml(sets: list[SetData], source_note: str) -> str:
    out = [f"# Card database imported by `rulescript import` from {source_note}.",
           "# A card has rules exactly when rules/*.ini has a section with its id.", ""]
    cards = [c for s in sets for c in s.cards]
    if not cards:
        out.append("cards: []")
    else:
        out.append("cards:")
        for s in sets:
            if len(sets) > 1 and s.cards:
                out.append(f"  # set {scalar(s.set_name or s.path)} ({s.set_id or 'no id'})")
            for card in s.cards:
                out.extend(card_lines(card))
    for s in sets:
        for card, reason in s.rejected:
            out.append("")
            out.append(f"# NOT IMPORTED: {reason}")
            out.extend("# " + line for line in card_lines(card))
    return "\n".join(out) + "\n"


def game_yaml(game_id: str, name: str, version: str, description: str, octgn: dict[str, Any] | None = None) -> str:
    lines = ["profile: cfc", f"id: {scalar(game_id)}", f"name: {scalar(name)}", f"version: {scalar(version)}",
             f"description: {scalar(description)}"]
    if octgn:
        lines.append("# What the OCTGN plugin's definition.xml says about its table (for `octgn-pack build`).")
        lines.extend(block({"octgn": octgn}))
    return "\n".join(lines) + "\n"


def deck_yaml(name: str, counts: dict[str, int], names: dict[str, str], header: list[str]) -> str:
    lines = [f"# {h}" for h in header]
    lines.append(f"name: {scalar(name)}")
    lines.append("cards:" if counts else "cards: {}")
    for cid, n in counts.items():
        label = names.get(cid)
        lines.append(f"  {scalar(cid)}: {n}" + (f"  # {label}" if label else ""))
    return "\n".join(lines) + "\n"
