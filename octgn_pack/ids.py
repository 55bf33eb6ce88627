"""Stable identifiers and OCTGN versions.

Every GUID a package holds is derived from the game's own id, so that two builds of a game give the
same ids and an updated package replaces the installed game (OCTGN installs into
``GameDatabase/<game guid>`` and finds card images by set and card GUID):

* the game GUID is ``game.yaml``'s ``id`` when it is a GUID, else ``uuid5(NAMESPACE_URL,
  "rulescript-game:" + id)``;
* a card GUID is the card id when it is a GUID (an imported OCTGN game keeps its ids), else
  ``uuid5(game guid, "card:" + card id)``;
* a set GUID is ``uuid5(game guid, "set:" + set name)``.

GUIDs are written lower case, hyphenated, without braces.
"""

from __future__ import annotations

import re
import uuid

GUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_LOOSE_GUID_RE = re.compile(r"^\{?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\}?$")
VERSION_RE = re.compile(r"^\d+(\.\d+){3}$")
BUILTIN_MARKER_IDS = frozenset("00000000-0000-0000-0000-00000000000" + c for c in "123456789a")


def as_guid(text: str) -> str | None:
    """``text`` as a canonical GUID (lower case, no braces) if it spells one, else None."""
    m = _LOOSE_GUID_RE.match(text.strip())
    return m.group(1).lower() if m else None


def is_guid(text: str | None) -> bool:
    """True for a GUID written the way a package must write it."""
    return bool(text) and GUID_RE.match(text) is not None


def game_guid(game_id: str) -> str:
    return as_guid(game_id) or str(uuid.uuid5(uuid.NAMESPACE_URL, "rulescript-game:" + game_id))


def card_guid(game: str, card_id: str) -> str:
    return as_guid(card_id) or str(uuid.uuid5(uuid.UUID(game), "card:" + card_id))


def set_guid(game: str, set_name: str) -> str:
    return str(uuid.uuid5(uuid.UUID(game), "set:" + set_name))


def four_part_version(text: str) -> str | None:
    """``"0.1"`` -> ``"0.1.0.0"``; None unless it has one to four numeric parts (each < 2**31)."""
    parts = str(text).strip().split(".")
    if not 1 <= len(parts) <= 4 or not all(p.isdigit() and p.isascii() and len(p) <= 10 for p in parts):
        return None  # (2**31 - 1 has 10 digits: a longer part is too large before it is read)
    nums = [int(p) for p in parts]
    if any(n > 2**31 - 1 for n in nums):
        return None
    return ".".join(str(n) for n in nums + [0] * (4 - len(nums)))


def is_four_part(text: str | None) -> bool:
    return bool(text) and VERSION_RE.match(text) is not None and four_part_version(text) == text
