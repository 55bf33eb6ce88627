"""``octgn-pack build``: a game folder in, ``DIST/<name>-<version>.o8g`` and ``.nupkg`` out.

1. read and check the game folder (:mod:`octgn_pack.project`); compile its rules;
2. generate every file of ``def/`` in memory (definition, sets, decks, proxy, images, scripts);
3. pack them (:mod:`octgn_pack.package`) and validate the package (:mod:`octgn_pack.validate`),
   mapping problems of generated XML back to the YAML entries behind them;
4. only when nothing failed, write both files through temporary files and renames.

The same input gives the same bytes: entries are sorted, timestamps fixed, ids derived (ids.py).
"""

from __future__ import annotations

import os

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rulescript.compiler import compile_game
from rulescript.diagnostics import Diagnostic, SourceText, Span, render
from octgn_pack import images
from octgn_pack.definition import RES, definition
from octgn_pack.htmldoc import markdown_html
from octgn_pack.package import pack
from octgn_pack.project import Project, deck_file_name, read_project
from octgn_pack.proxy import proxydef, template_size
from octgn_pack.scripts import GAMEDATA, RULES, gamedata_module, rules_module, shipped_python
from octgn_pack.sets import deck_set, deck_xml, set_xml
from octgn_pack.validate import Report, tree_from_zip, validate_tree
from octgn_pack.xmlwrite import El, serialize

Progress = Callable[[str], None]


@dataclass
class Build:
    """What a build made; ``ok`` when the package was (or could be) written."""

    project: Project
    files: dict[str, bytes] = field(default_factory=dict)            # paths under def/
    origins: dict[str, dict[int, Span]] = field(default_factory=dict)  # package path -> {line: input span}
    copied: dict[str, str] = field(default_factory=dict)              # package path -> file copied
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceText] = field(default_factory=dict)
    package: bytes | None = None
    report: Report | None = None
    written: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.package is not None and not any(d.is_error for d in self.diagnostics)

    @property
    def file_stem(self) -> str:
        return f"{self.project.slug}-{self.project.version}"

    def render(self) -> str:
        return "\n\n".join(render(d, self.sources.get(d.span.file)) for d in self.diagnostics)


def _relativise(ir: Any, root: str) -> Any:
    """IR source positions name files relative to the game folder (``rules/x.ini``), not this machine."""
    if isinstance(ir, dict):
        out = {}
        for k, v in ir.items():
            if k == "src" and isinstance(v, list) and v and isinstance(v[0], str) and os.path.isabs(v[0]):
                # (compile_game already names them so; an absolute path comes from elsewhere)
                rel = os.path.relpath(os.path.abspath(v[0]), os.path.abspath(root))
                out[k] = [rel.replace(os.sep, "/")] + list(v[1:])
            else:
                out[k] = _relativise(v, root)
        return out
    if isinstance(ir, list):
        return [_relativise(v, root) for v in ir]
    return ir


def compile_rules(b: Build) -> dict[str, Any] | None:
    res = compile_game(b.project.root)
    b.sources.update(res.sources)
    errors = [d for d in res.diagnostics if d.is_error]
    if errors:
        b.diagnostics.extend(errors)
        return None
    return _relativise(res.document(), str(b.project.root))


def _generated_texts(p: Any, rules: dict[str, Any]) -> None:
    """A card with rules and no printed text shows the text generated from its rules (``rulescript
    explain``) in its text property."""
    from rulescript.compiler.driver import game_profile_name
    from rulescript.compiler.profile import ProfileError, load_profile
    from rulescript.explain.report import generated_text

    order = [pr.name for pr in p.properties]
    text_prop = next((pr.name for pr in p.properties if pr.path == ("text",)), None)
    if text_prop is None:
        return
    try:
        profile = load_profile(game_profile_name(p.root)[0])
    except ProfileError:  # pragma: no cover - the rules compiled, so the profile loads
        return
    for cs in p.sets:
        for card in cs.cards:
            if str(card.data.get("text") or "").strip():
                continue
            text = generated_text(card.data, rules.get("rules") or {}, profile)
            if text:
                values = dict(card.values)
                values[text_prop] = text
                card.values = sorted(values.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))


def _put_xml(b: Build, path: str, root: El, comment: str | None = None) -> None:
    data, origins = serialize(root, comment)
    b.files[path] = data
    if origins:
        b.origins["def/" + path] = origins


def _images(b: Build) -> None:
    p, face, col = b.project, b.project.face, b.project.colors
    w, h = template_size(p)
    radius = p.card_corner * 5
    b.files[RES.back] = p.card_back.read_bytes() if p.card_back else images.card_png(
        w, h, col["back"], col["accent"], max(6, w // 40), radius)
    b.files[RES.front] = images.card_png(w, h, col["front"], col["back"], max(4, w // 60), radius)
    b.files[RES.proxy_template] = images.card_png(w, h, col["front"], col["back"], max(4, w // 60), radius)
    b.files[RES.table] = p.table_background.read_bytes() if p.table_background else images.card_png(
        64, 64, col["table"])
    b.files[RES.document_icon] = images.card_png(32, 32, col["front"], col["text"], 2)
    for i, pile in enumerate(face.PILES):
        b.files[RES.pile_icon(pile["name"])] = images.card_png(32, 32, images.palette(i), col["text"], 2, 4)
    for i, c in enumerate(face.COUNTERS):
        b.files[RES.counter_icon(c["name"])] = images.disc_png(32, images.palette(i + 4), col["text"])
    for i, _ in enumerate(face.PHASES):
        b.files[RES.phase_icon(i)] = images.disc_png(32, images.palette(i), col["text"])
    for i, m in enumerate(face.MARKERS):
        b.files[RES.marker_image(m["id"])] = images.disc_png(32, images.palette(i), col["text"])


def _host_manifest() -> Any:
    from octgn_pack.host import manifest

    return manifest


def generate(b: Build, progress: Progress | None = None) -> None:
    """Fill ``b.files`` with the whole ``def/`` tree (only called for a project without errors)."""
    p = b.project
    say = progress or (lambda _m: None)
    say("compiling the rules")
    rules = compile_rules(b)
    if rules is None:
        return
    _generated_texts(p, rules)
    say("writing definition.xml, sets, decks and the proxy")
    scripts, order, copied = shipped_python(p)
    b.files.update(scripts)
    b.copied.update({"def/" + k: v for k, v in copied.items()})
    for cs in p.sets:
        _put_xml(b, f"Sets/{cs.guid}/set.xml", set_xml(p, cs))
        for card in cs.cards:
            if card.image is not None:
                b.files[f"Sets/{cs.guid}/Cards/{card.guid}{card.image.suffix.lower()}"] = card.image.read_bytes()
    for deck in p.decks:
        cs = deck_set(p, deck)
        _put_xml(b, f"Sets/{cs.guid}/Decks/{deck_file_name(deck.name)}", deck_xml(p, deck))
    _put_xml(b, RES.proxy_def, proxydef(p, RES.proxy_template))
    has_ref = p.reference is not None
    if has_ref:
        b.files[RES.reference] = markdown_html(p.reference.read_text(encoding="utf-8"), f"{p.name}: rules reference")
    _images(b)
    _put_xml(b, "definition.xml", definition(p, _host_manifest(), order, has_ref),
             "Generated by octgn-pack from game.yaml, cards.yaml and the game's table face. Do not edit.")
    say("writing the scripts")
    b.files[RULES] = rules_module(rules)
    b.files[GAMEDATA] = gamedata_module(p, b.files)


def assemble(game: str | Path, progress: Progress | None = None, check_py27: bool = True) -> Build:
    """Read, generate, pack and validate, without writing anything."""
    t0 = time.perf_counter()
    say = progress or (lambda _m: None)
    say(f"reading {game}")
    b = Build(read_project(game))
    b.sources.update(b.project.sources)
    b.diagnostics.extend(b.project.diagnostics)
    if b.project.ok:
        generate(b, progress)
    if not any(d.is_error for d in b.diagnostics) and b.files:
        say("packing and validating")
        data = pack(b.project, b.files)
        label = f"{b.file_stem}.o8g"
        b.report = validate_tree(tree_from_zip(data, label), b.origins, check_py27, b.copied)
        b.sources.update(b.report.sources)
        b.diagnostics.extend(b.report.diagnostics)
        if b.report.ok:
            b.package = data
    b.seconds = time.perf_counter() - t0
    return b


def write_atomic(files: dict[Path, bytes]) -> None:
    """Write every file through a temporary file in its folder, then rename them all; on any failure
    no temporary file stays and no target is touched that was not renamed yet."""
    temps: list[tuple[str, Path]] = []
    path = Path()
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name, suffix=".tmp")
            temps.append((tmp, path))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o666 & ~_umask())
        for tmp, path in temps:
            os.replace(tmp, path)
    except OSError as exc:  # the file the user asked for, never the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def build(game: str | Path, dist: str | Path, progress: Progress | None = None, check_py27: bool = True) -> Build:
    """Build the package and, when it validates, write ``<dist>/<name>-<version>.o8g`` and ``.nupkg``."""
    b = assemble(game, progress, check_py27)
    if b.ok and b.package is not None:
        dist = Path(dist)
        targets = {dist / f"{b.file_stem}.o8g": b.package, dist / f"{b.file_stem}.nupkg": b.package}
        old = dist / f"{b.file_stem}.o8g"
        if old.is_file() and old.read_bytes() != b.package and b.project.version_span is not None:
            b.diagnostics.append(Diagnostic(
                "warning", "OP311", f"{old} held another build of version {b.project.version}: OCTGN installs "
                "a package over an installed game only when its version is higher", b.project.version_span,
                ("bump 'version' in game.yaml before handing the package out",)))
        write_atomic(targets)
        b.written = list(targets)
    return b


def summary(b: Build) -> str:
    n_err = sum(1 for d in b.diagnostics if d.is_error)
    n_warn = sum(1 for d in b.diagnostics if d.severity == "warning")
    p = b.project
    if not b.ok:
        return f"FAILED: {n_err} errors, {n_warn} warnings; no package written"
    size = len(b.package or b"")
    return (f"ok: {p.name} {p.version} ({p.guid}): {len(p.cards)} cards in {len(p.sets)} "
            f"set{'s' if len(p.sets) != 1 else ''}, {len(p.decks)} decks, {len(b.files)} files, "
            f"{size / 1024:.0f} KiB in {b.seconds:.2f} s; {n_warn} warnings")


