"""Installing a game straight into an OCTGN data folder, and the development loop.

``deploy(game, data)`` builds the package in memory (it must validate) and lays it out the way
OCTGN's installer does:

* ``def/*``                      -> ``DATA/GameDatabase/<game guid>/``  (card images left out)
* ``def/Sets/<set>/Cards/*``     -> ``DATA/ImageDatabase/<game guid>/Sets/<set>/Cards/``
* ``def/Sets/<set>/Decks/*.o8d`` -> ``DATA/Decks/<game name>/`` (and kept in the game folder)

The game folder is replaced as a whole: the new one is written beside it and swapped in by renames,
so OCTGN never sees half a game.  ``write_rules`` is the development loop's step
(``rulescript watch GAME --octgn DATA``): it rewrites ``Scripts/rules.py`` of the installed game
(a temporary file and a rename), which OCTGN's "reload scripts" (developer mode) then reads.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from octgn_pack.build import Build, Progress, _relativise, assemble, write_atomic
from octgn_pack.ids import game_guid
from octgn_pack.scripts import RULES, rules_module


class DeployError(Exception):
    """The data folder cannot be used (a usage or I/O error)."""


@dataclass
class Deployed:
    build: Build
    game_dir: Path | None = None
    files: list[Path] = field(default_factory=list)


def _safe_folder_name(name: str) -> str:
    return "".join("_" if c in '<>:"/\\|?*' or ord(c) < 32 else c for c in name).strip(" .") or "game"


def install_dir(data: str | Path, guid: str) -> Path:
    return Path(data) / "GameDatabase" / guid


def installed_name(target: Path) -> str | None:
    """The name of the game installed in ``target`` (its definition.xml's ``<game name>``), if any."""
    import html
    import re

    try:
        with open(target / "definition.xml", "rb") as fh:
            head = fh.read(8192).decode("utf-8", "replace")
    except OSError:
        return None
    m = re.search(r"<game\b[^>]*?\bname\s*=\s*(\"([^\"]*)\"|'([^']*)')", head)
    return html.unescape(m.group(2) if m.group(2) is not None else m.group(3)) if m else None


SOURCES = ".octgn-pack-deployed.json"   # in the data folder: game guid -> the game folder deployed there


def _sources(data: Path) -> dict[str, str]:
    import json

    try:
        found = json.loads((data / SOURCES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _another_game(data: Path, target: Path, guid: str, name: str, game: Path) -> str | None:
    """What is installed under this id when it is another game than ``game``: installed from another
    folder (octgn-pack remembers where it deployed from), or under another name."""
    other = installed_name(target)
    if other is None:
        return None
    source = _sources(data).get(guid)
    if source is not None and Path(source) != game.resolve():
        return f"'{other}' deployed from {source}"
    if other != name:
        return f"'{other}'"
    return None


def deploy(game: str | Path, data: str | Path, progress: Progress | None = None, check_py27: bool = True,
           replace: bool = False) -> Deployed:
    """Install ``game`` into the data folder ``data``.  Another game installed under the same id (a
    game copied without a new id) is not replaced unless ``replace``: DeployError says so first."""
    data = Path(data)
    if data.exists() and not data.is_dir():
        raise DeployError(f"{data} is not a folder")
    b = assemble(game, progress, check_py27)
    out = Deployed(b)
    if not b.ok:
        return out
    guid, name = b.project.guid, b.project.name
    target = install_dir(data, guid)
    other = _another_game(data, target, guid, name, Path(game))
    if other is not None and not replace:
        raise DeployError(f"{target} holds another game with the same id: {other}; installing '{name}' from {game} would "
                          f"replace it. Give {game} an id of its own ('rulescript new GAME --from {game}' makes a "
                          "copy with a new id), or use --replace to replace it")
    images: dict[Path, bytes] = {}
    decks: dict[Path, bytes] = {}
    tree: dict[str, bytes] = {}
    for rel, blob in b.files.items():
        parts = rel.split("/")
        if parts[0] == "Sets" and len(parts) > 3 and parts[2] == "Cards":
            images[data / "ImageDatabase" / guid / rel] = blob
            continue
        if parts[0] == "Sets" and len(parts) > 3 and parts[2] == "Decks":
            decks[data / "Decks" / _safe_folder_name(name) / parts[-1]] = blob
        tree[rel] = blob
    staging = target.with_name("." + guid + ".new")
    old = target.with_name("." + guid + ".old")
    _no_links(data, [target, staging, old, data / SOURCES] + list(images) + list(decks))  # before anything is written
    try:
        for p in (staging, old):
            if p.exists():
                shutil.rmtree(p)
        for rel, blob in tree.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(blob)
        write_atomic({**images, **decks})
        if target.exists():
            os.replace(target, old)
        os.replace(staging, target)
        if old.exists():
            shutil.rmtree(old)
        _remember_source(data, guid, Path(game))
    except OSError as exc:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
        if old.exists() and not target.exists():
            os.replace(old, target)
        raise DeployError(f"cannot install into {data}: {exc}") from exc
    out.game_dir = target
    out.files = sorted([target / r for r in tree] + list(images) + list(decks))
    return out


def _no_links(data: Path, paths: list[Path]) -> None:
    """DeployError when writing or removing any of ``paths`` would go through a symbolic link inside the
    data folder (``DATA/Decks/<game>`` linked to a folder elsewhere, ``GameDatabase/<guid>`` or its
    ``.old`` backup a link): deploy never follows a link out of the data folder.  The data folder itself
    may be a link (the user named it)."""
    checked: set[Path] = set()
    for path in paths:
        rel = path.relative_to(data)
        at = data
        for part in rel.parts:
            at = at / part
            if at in checked:
                continue
            checked.add(at)
            if at.is_symlink():
                raise DeployError(f"{at} is a symbolic link (to {os.readlink(at)}): deploy does not write through "
                                  f"links in the data folder; remove it (nothing was installed)")


def _remember_source(data: Path, guid: str, game: Path) -> None:
    import json

    sources = _sources(data)
    sources[guid] = str(game.resolve())
    write_atomic({data / SOURCES: (json.dumps(sources, indent=1, sort_keys=True) + "\n").encode("utf-8")})


# ------------------------------------------------------------------------------------------ dev loop
def installed_game(game: str | Path, data: str | Path) -> Path:
    """The installed folder of ``game`` in ``data``; DeployError when it is not installed there."""
    from octgn_pack.yamlpos import load

    doc = load(Path(game) / "game.yaml")
    gid = (doc.data or {}).get("id") if isinstance(doc.data, dict) else None
    if not gid:
        raise DeployError(f"{game}/game.yaml has no id")
    target = install_dir(data, game_guid(str(gid)))
    _no_links(Path(data), [target / RULES])  # the dev loop writes Scripts/rules.py there
    if not (target / "definition.xml").is_file():
        raise DeployError(f"the game is not installed in {data} (no {target}/definition.xml): "
                          f"run 'octgn-pack deploy {game} --data {data}' first")
    return target


LAZY_LOADER = "octgn_pack/host/lazyrules.py"   # what the rules.py written by write_rules imports


def rules_document(rules: dict[str, Any], profile: str) -> dict[str, Any]:
    from rulescript.compiler.driver import IR_FORMAT, IR_VERSION

    return {"format": IR_FORMAT, "version": IR_VERSION, "profile": profile,
            "rules": {k: rules[k] for k in sorted(rules)}}


def write_rules(target: Path, rules: dict[str, Any], profile: str, game_root: str | Path) -> Path:
    """Rewrite ``Scripts/rules.py`` of an installed game with these compiled rules."""
    doc = _relativise(rules_document(rules, profile), str(Path(game_root)))
    path = target / RULES
    write_atomic({path: rules_module(doc)})
    return path


class RulesSync:
    """A ``Watcher.on_reload`` callback: after every good reload, rewrite ``Scripts/rules.py`` of the
    game installed in an OCTGN data folder; after a broken save, leave it as it is."""

    def __init__(self, game: str | Path, data: str | Path, out: Any) -> None:
        from rulescript.compiler import game_profile_name

        self.root = Path(game)
        self.target = installed_game(game, data)
        loader = self.target / LAZY_LOADER
        if not loader.is_file():
            raise DeployError(f"{self.target} was installed by an older octgn-pack (it has no {LAZY_LOADER}, which "
                              f"Scripts/rules.py imports now): run 'octgn-pack deploy {game} --data {data}' again")
        self.profile = game_profile_name(self.root)[0]
        self.out = out
        self.writes = 0

    def __call__(self, res: Any) -> None:
        if res.ok and res.error is None and res.rules is not None:
            path = write_rules(self.target, res.rules, self.profile, self.root)
            self.writes += 1
            self.out.write("octgn: wrote %s (%d rules); use reload scripts in OCTGN's developer window\n"
                           % (path, len(res.rules)))
        else:
            self.out.write("octgn: %s kept as it was (this save does not compile)\n" % (self.target / RULES))
