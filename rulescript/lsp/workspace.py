"""What the language server knows of the files it serves: open buffers and what each file is.

A file is one of ``rules`` (``rules/*.ini`` of a game folder, or a lone ``.ini`` file), ``cards``
(a game's ``cards.yaml``), ``game`` (its ``game.yaml``), ``scenario`` (``scenarios/**/*.yaml``), or
``wwrf`` (an extension-less WWRF element file: its first line is an element header ``**Name**``).
Anything else is not served.  Open buffers live in :data:`rulescript.textfile.OVERLAY`, where every
checker's file reader finds them: the checkers see the text being edited, not the file on disk.
This module checks nothing itself (see :mod:`rulescript.lsp.checks`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from rulescript import textfile
from rulescript.compiler.driver import find_game_root
from rulescript.watch import classify

#: buffers larger than this are not checked as they are typed (a warning is logged instead)
LIVE_CHECK_BYTES = 1_000_000


def uri_to_path(uri: str) -> str | None:
    """The absolute path of a ``file:`` URI (None for any other scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return os.path.abspath(unquote(parsed.path))


def path_to_uri(path: str | Path) -> str:
    return "file://" + quote(os.path.abspath(str(path)))


@dataclass(frozen=True)
class FileInfo:
    """A served file: its path, kind, and the game folder or WWRF book it belongs to."""

    path: str
    kind: str            # rules, cards, game, scenario or wwrf
    root: str | None     # the game folder (rules, cards, game, scenario) or the book folder (wwrf)


def book_root(path: Path) -> Path:
    """The WWRF book of an element file: the nearest folder above it with a ``_paths/`` folder (within
    three levels), else the file's own folder (``wwrf check FILE`` reads the file's folder too)."""
    for folder in list(path.parents)[:3]:
        if (folder / "_paths").is_dir():
            return folder
    return path.parent


def describe(path: str, text: str | None = None) -> FileInfo | None:
    """What ``path`` is (``text``: its buffer, when open), or None for a file that is not served."""
    p = Path(path)
    if p.suffix == "" and not p.name.startswith("."):
        if text is None:
            text = read(path)
        if text is not None and _has_header(text):
            return FileInfo(path, "wwrf", str(book_root(p)))
        return None
    game = find_game_root(p.parent)
    if game is not None:
        try:
            rel = p.relative_to(game).as_posix()
        except ValueError:
            rel = ""
        kind = classify(rel, (game / "rules").is_dir()) if rel else None
        if kind is not None:
            return FileInfo(path, kind, str(game))
    if p.suffix.lower() == ".ini":
        return FileInfo(path, "rules", None)      # a lone rule file: checked like `rulescript check FILE`
    return None


def _has_header(text: str) -> bool:
    from wwrf_adapter.source import has_header

    return has_header(text.lstrip("\ufeff"))


def read(path: str) -> str | None:
    """A file's text: its open buffer, else the file on disk; None when it cannot be read as text."""
    try:
        return textfile.read_text(path)
    except (OSError, textfile.NotText):
        return None


class Buffers:
    """The open documents (absolute path → text), mirrored into :data:`textfile.OVERLAY` (except a
    buffer larger than :data:`LIVE_CHECK_BYTES`: the checkers keep reading that file from disk, so
    that a huge buffer never slows the checks of the files around it)."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def set(self, path: str, text: str) -> None:
        self.texts[path] = text
        if len(text) > LIVE_CHECK_BYTES:
            textfile.OVERLAY.pop(path, None)
        else:
            textfile.OVERLAY[path] = text

    def close(self, path: str) -> None:
        self.texts.pop(path, None)
        textfile.OVERLAY.pop(path, None)

    def get(self, path: str) -> str | None:
        return self.texts.get(path)

    def open_paths(self) -> list[str]:
        return list(self.texts)
