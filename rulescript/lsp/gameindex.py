"""Where a game's card ids are: their ``cards.yaml`` entries, rule sections and scenarios.

Built from the buffers and files of one game folder, memoised per file by its text, so that a
1,000-card game answers a hover or a go-to-definition without reading more than changed.  The card
data itself comes from the compiler's reader (:func:`rulescript.compiler.driver.load_cards`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulescript.compiler import driver
from rulescript.compiler.profile import Profile, load_profile
from rulescript.lsp import workspace

_ID_LINE = re.compile(r"^(\s*-?\s*id\s*:\s*)([\"']?)([^\"'#\s]+)")
_SECTION = re.compile(r"^\[([^\]\[]+)\]")


@dataclass(frozen=True)
class Place:
    """A card id's place in a file: 0-based line and code-point columns."""

    path: str
    line: int
    start: int
    end: int


_SCANS: dict[tuple[str, str], tuple[str, Any]] = {}


def _scan(path: str, how: str, fn: Any) -> Any:
    """``fn(text)`` for the current text of ``path``, memoised by that text."""
    text = workspace.read(path)
    if text is None:
        return fn("")
    memo = _SCANS.get((path, how))
    if memo is not None and memo[0] == text:
        return memo[1]
    value = fn(text)
    _SCANS[(path, how)] = (text, value)
    return value


def _card_lines(text: str) -> dict[str, tuple[int, int, int]]:
    out: dict[str, tuple[int, int, int]] = {}
    for i, line in enumerate(workspace_lines(text)):
        m = _ID_LINE.match(line)
        if m:
            out.setdefault(m.group(3).lower(), (i, m.start(3), m.end(3)))
    return out


def _sections(text: str) -> dict[str, list[tuple[int, int, int]]]:
    out: dict[str, list[tuple[int, int, int]]] = {}
    for i, line in enumerate(workspace_lines(text)):
        if line.startswith("["):
            m = _SECTION.match(line)
            if m:
                rid = m.group(1).strip()
                out.setdefault(rid.lower(), []).append((i, 1, 1 + len(m.group(1))))
    return out


def workspace_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class GameIndex:
    """One game folder: its profile, card data and where each card id is written."""

    def __init__(self, root: str) -> None:
        self.root = root

    def profile(self) -> Profile | None:
        name, diags = driver.game_profile_name(Path(self.root))
        if diags:
            return None
        try:
            return load_profile(name)
        except Exception:  # noqa: BLE001 - a broken profile is the checker's diagnostic, not a hover
            return None

    def cards(self) -> dict[str, dict[str, Any]]:
        cards, _ = driver.load_cards(Path(self.root) / "cards.yaml")
        return {str(c.get("id", "")).lower(): c for c in cards if c.get("id") is not None}

    @property
    def cards_path(self) -> str:
        return os.path.join(self.root, "cards.yaml")

    def card_entry(self, cid: str) -> Place | None:
        hit = _scan(self.cards_path, "ids", _card_lines).get(cid.lower())
        return Place(self.cards_path, *hit) if hit else None

    def rule_files(self) -> list[str]:
        return [str(p) for p in driver.rule_files(Path(self.root))]

    def scenario_files(self) -> list[str]:
        base = Path(self.root) / "scenarios"
        if not base.is_dir():
            return []
        return sorted(str(p) for p in base.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())

    def rule_sections(self, cid: str) -> list[Place]:
        out = []
        for path in self.rule_files():
            for line, start, end in _scan(path, "sections", _sections).get(cid.lower(), ()):
                out.append(Place(path, line, start, end))
        return out

    def section_ids(self) -> list[str]:
        ids: list[str] = []
        for path in self.rule_files():
            ids.extend(_scan(path, "sections", _sections))
        return ids

    def mentions(self, cid: str, paths: list[str]) -> list[Place]:
        """Every place where ``cid`` is written as a whole word in ``paths``."""
        word = re.compile(r"(?<![\w-])" + re.escape(cid) + r"(?![\w-])", re.I)
        out = []
        for path in paths:
            text = workspace.read(path)
            if not text or cid.lower() not in text.lower():
                continue
            for i, line in enumerate(workspace_lines(text)):
                for m in word.finditer(line):
                    out.append(Place(path, i, m.start(), m.end()))
        return out

    def references(self, cid: str) -> list[Place]:
        """The cards.yaml entry, the rule sections and every scenario that names the card."""
        out = []
        entry = self.card_entry(cid)
        if entry is not None:
            out.append(entry)
        out.extend(self.rule_sections(cid))
        out.extend(self.mentions(cid, self.scenario_files()))
        return out


def card_markdown(card: dict[str, Any]) -> str:
    """A card's hover: its name and id, type and stats, and its text."""
    head = f"**{card.get('name', card.get('id'))}** (`{card.get('id')}`)"
    stats = [str(card["type"])] if card.get("type") else []
    for key, value in card.items():
        if key in ("id", "name", "type", "text") or isinstance(value, (dict, list)) or value is None:
            continue
        stats.append(f"{key} {value}" if key != "subtype" else str(value))
    ability = card.get("ability")
    if isinstance(ability, dict) and ability:
        stats.append("ability: " + ", ".join(f"{k} {v}" for k, v in ability.items()))
    parts = [head, " · ".join(stats)]
    if card.get("text"):
        parts.append(str(card["text"]))
    return "\n\n".join(p for p in parts if p)
