"""``wwrf render``: a WWRF book as a werewolf game folder (``game.yaml``, ``cards.yaml``, ``rules/*.ini``).

The mapping, construct by construct, is documented in ``docs/werewolf.md``.
"""

from __future__ import annotations

from .book import RenderResult, render_book, render_files, write_game
from .exprs import Coverage, Unsupported, slug

__all__ = ["RenderResult", "render_book", "render_files", "write_game", "Coverage", "Unsupported", "slug"]
