"""``rulescript new GAME [--from SOURCE]``: a new game folder made from another game (by default the
bundled demo), with a game id and name of its own.

A plain ``cp -r`` keeps the source's id and name, so the copy and the source are the same game to
OCTGN (``octgn-pack deploy`` of the copy replaces the installed source).  ``new`` copies the game's
files (not hidden files, caches or built packages) and rewrites the ``id:``, ``name:`` and
``description:`` of ``game.yaml``; everything else (cards, rules, decks, scenarios, the ``octgn:``
section) is kept as it is.
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

from rulescript.cliutil import UsageError

BUNDLED_DEMO = Path(__file__).resolve().parent.parent / "cards" / "cfc-demo"
_SKIPPED = ("__pycache__", "dist")
_SKIPPED_SUFFIXES = (".o8g", ".nupkg", ".pyc", ".tmp")


def _copied(path: Path) -> bool:
    return not (path.name.startswith(".") or path.name in _SKIPPED or path.suffix.lower() in _SKIPPED_SUFFIXES)


def _ignore(folder: str, names: list[str]) -> list[str]:
    return [n for n in names if not _copied(Path(folder) / n)]


def _top_level_key(text: str, key: str) -> re.Match[str] | None:
    """The line ``key: ...`` at the top level of a YAML text, with its indented continuation lines."""
    return re.search(rf"(?m)^{key}:[^\n]*\n?(?:[ \t]+[^\n]*\n?|[ \t]*\n(?=[ \t]))*", text)


def _set_key(text: str, key: str, value: str) -> str:
    line = f"{key}: {json.dumps(value, ensure_ascii=False)}\n"
    m = _top_level_key(text, key)
    if m is None:
        return text + ("" if text.endswith("\n") or not text else "\n") + line
    return text[:m.start()] + line + text[m.end():]


def new_game(target: str | Path, source: str | Path | None = None, name: str | None = None) -> tuple[Path, str, str]:
    """Make ``target`` from ``source``; returns (target, new id, new name)."""
    src = Path(source) if source is not None else BUNDLED_DEMO
    out = Path(target)
    if not src.exists():
        raise UsageError(f"no such game folder: {src}")
    if not src.is_dir() or not (src / "game.yaml").is_file():
        raise UsageError(f"{src} is not a game folder (it has no game.yaml)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists; give a new folder")
    try:
        if out.resolve().is_relative_to(src.resolve()):
            raise UsageError(f"{out} is inside {src}; give a folder outside it")
    except OSError:
        pass
    from rulescript.cliutil import output_folder

    output_folder(out.parent)
    old_text = (src / "game.yaml").read_text(encoding="utf-8")
    old_name = re.search(r"(?m)^name:\s*(.*)$", old_text)
    source_name = old_name.group(1).strip().strip("\"'") if old_name else src.name
    game_name = name or out.name
    game_id = str(uuid.uuid4())
    text = _set_key(old_text, "id", game_id)
    text = _set_key(text, "name", game_name)
    text = _set_key(text, "description", f"{game_name}: a game made with `rulescript new` from {source_name}.")
    staging = out.with_name("." + out.name + ".new")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        shutil.copytree(src, staging, ignore=_ignore, symlinks=False)
        (staging / "game.yaml").write_text(text, encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty (checked above)
        staging.rename(out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out, game_id, game_name
