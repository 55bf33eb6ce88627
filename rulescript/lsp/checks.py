"""Diagnostics of a served file, from the project's own checkers run on the open buffers.

Nothing here is a second checker: a game's rule files, ``cards.yaml`` and ``game.yaml`` are checked
by :func:`rulescript.compiler.driver.compile_game` (what ``rulescript check GAME`` runs), a lone rule
file by ``compile_file`` (``rulescript check FILE``), a scenario file by the scenario reader of
``rulescript test`` (:func:`rulescript.sim.scenario_format.parse_scenarios`), and a WWRF element by
the WWRF front end (:func:`wwrf_adapter.project.load_texts`, what ``wwrf check`` runs) in the context
of the other elements of its book.  The buffers reach the checkers through
:data:`rulescript.textfile.OVERLAY` (see :mod:`rulescript.lsp.workspace`).

Each check returns ``{path: diagnostics}`` for every file it covers (an empty list clears a file's
earlier diagnostics), so that one change re-checks what depends on it: a rule file or ``cards.yaml``
re-checks the whole game (the compile cache makes the unchanged files free; a changed rule file is
compiled section by section, as ``rulescript watch`` does), and a WWRF ability set re-checks the open
elements that inherit it (the server decides which, see :mod:`rulescript.lsp.server`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rulescript import textfile
from rulescript.compiler import driver
from rulescript.compiler.driver import CompileCache
from rulescript.diagnostics import Diagnostic, Span
from rulescript.lsp.workspace import LIVE_CHECK_BYTES, FileInfo

Found = dict[str, list[Diagnostic]]

#: the yaml code each kind of YAML file reports a file it cannot read with
_READ_CODES = {"cards": "RD101", "game": "RD101", "scenario": "SC101"}


def not_text(info: FileInfo, text: str) -> Found | None:
    """The diagnostic of a buffer that is not text (it holds NUL bytes, say), as the command line
    gives for such a file (RD103 for a rule file, the YAML reader's code for a YAML file)."""
    try:
        textfile.decode(text.encode("utf-8", "surrogatepass"))
    except textfile.NotText as exc:
        code = _READ_CODES.get(info.kind, "RD103")
        return {info.path: [Diagnostic("error", code, exc.message, Span(info.path, exc.line, exc.col))]}
    except UnicodeError:
        return {info.path: [Diagnostic("error", "RD103", "not UTF-8 text", Span(info.path, 1, 1))]}
    return None


@dataclass
class _GameState:
    """The last whole check of a game: what it depended on, each rule file's section ids, and the
    diagnostics of every file."""

    key: tuple[object, ...] | None
    ids: dict[str, tuple[str, ...]]
    found: Found


def _group(found: Found, root: str, diags: list[Diagnostic]) -> None:
    """Add diagnostics to ``found`` by the absolute path of their file."""
    where: dict[str, list[Diagnostic]] = {}
    for d in diags:
        bucket = where.get(d.span.file)
        if bucket is None:
            bucket = where[d.span.file] = found.setdefault(os.path.abspath(os.path.join(root, d.span.file)), [])
        bucket.append(d)


class Checker:
    """Runs the checkers; keeps their caches between changes (the compile cache, the WWRF raws)."""

    def __init__(self) -> None:
        self.cache = CompileCache(max_entries=200_000)
        self._raws: dict[str, tuple[object, object]] = {}
        self._games: dict[str, _GameState] = {}

    # ------------------------------------------------------------------ game folders
    def game(self, root: str, changed: str | None = None) -> Found:
        """``rulescript check GAME`` on the buffers: every rule file, cards.yaml and game.yaml.

        After an edit of one rule file whose rule ids stay apart from the other files' (no duplicate
        across files can come or go), only that file is checked again (the compiler's own per-file
        step and its checks against cards.yaml, as compile_game runs them): the other files'
        diagnostics cannot change.  Anything else checks the whole game."""
        game = Path(root)
        if changed is not None and changed.endswith(".ini"):
            self._prefill(game, changed)
            found = self._one_rule_file(game, changed)
            if found is not None:
                return found
        result = driver.compile_game(game, cache=self.cache)
        files = driver.rule_files(game)
        found: Found = {str(p): [] for p in files}
        for name in ("cards.yaml", "game.yaml"):
            if (game / name).exists() or textfile.overlay_text(game / name) is not None:
                found[str(game / name)] = []
        _group(found, root, result.diagnostics)
        by_name = {fr.filename: tuple(fr.rules) for fr in result.files}
        ids = {str(p): by_name.get(driver.source_name(game, p), ()) for p in files}
        self._games[root] = _GameState(self._game_key(game), ids, found)
        return found

    def _game_key(self, game: Path) -> tuple[object, ...] | None:
        """What the checks of a rule file depend on besides its text: the profile, the card database
        and the list of rule files (None when the profile cannot be used)."""
        name, diags = driver.game_profile_name(game)
        if diags:
            return None
        try:
            prof = driver.load_profile(name)
        except Exception:  # noqa: BLE001 - compile_game reports it
            return None
        cards, card_diags = driver.load_cards(game / "cards.yaml")
        db, fp = driver._card_database(cards)
        return (prof, db, fp, bool(cards), tuple(card_diags), tuple(str(p) for p in driver.rule_files(game)))

    def _one_rule_file(self, game: Path, path: str) -> Found | None:
        state = self._games.get(str(game))
        key = self._game_key(game)
        if state is None or key is None or state.key != key or path not in state.ids:
            return None
        prof, db, fp, has_cards = key[0], key[1], key[2], key[3]
        text, problem = driver.read_source(Path(path))
        if problem is not None:
            return None
        fr = driver.compile_source(text, driver.source_name(game, Path(path)), prof, db, self.cache, fp)
        ids = tuple(fr.rules)
        if ids != state.ids[path]:
            # a rule that came or went (a section with an error compiles to nothing) changes the
            # duplicates across files only when another file has that id too
            moved = set(ids) ^ set(state.ids[path])
            if any(moved.intersection(other_ids) for other, other_ids in state.ids.items() if other != path):
                return None
        first_seen: dict[str, str] = {}
        for other in state.ids:
            if other == path:
                break
            for rid in state.ids[other]:
                first_seen.setdefault(rid, other)
        result = driver.CompileResult(prof.name)
        driver.add_rule_file(result, fr, Path(path), text, first_seen)
        if has_cards:
            driver.check_against_cards(result, db, game, prof)
        found = dict(state.found)
        found[path] = []
        _group(found, str(game), result.diagnostics)
        state.found = found
        state.ids[path] = ids
        return {path: found[path]}

    def _prefill(self, game: Path, path: str) -> None:
        """Compile the changed rule file section by section into the cache (see rulescript.watch):
        editing one rule of a 1,000-rule game compiles that rule only, errors or not (the pieces give
        the whole file's diagnostics; tools/bench/lsp.py and tests/lsp check it)."""
        from rulescript.watch import compile_by_section

        name, diags = driver.game_profile_name(game)
        if diags:
            return
        try:
            prof = driver.load_profile(name)
        except Exception:  # noqa: BLE001 - compile_game reports a profile that cannot be loaded
            return
        text, problem = driver.read_source(Path(path))
        if problem is not None:
            return
        cards, _ = driver.load_cards(game / "cards.yaml")
        db, fp = driver._card_database(cards)
        source = driver.source_name(game, Path(path))
        key = driver._cache_key(prof, fp, source, text)
        if key in self.cache.memory:
            return
        fr = compile_by_section(text, source, prof, db, self.cache, fp, keep_errors=True)
        if fr is not None:
            self.cache.put(key, fr)

    def lone_rule_file(self, path: str) -> Found:
        """``rulescript check FILE`` for a rule file outside any game folder (the cfc profile)."""
        result = driver.compile_file(Path(path), "cfc", cards=[], cache=self.cache)
        return {path: [d for d in result.diagnostics if os.path.abspath(d.span.file) == path]}

    # ------------------------------------------------------------------ scenarios
    def scenario(self, path: str, text: str) -> Found:
        """The checks ``rulescript test`` makes before it runs a scenario: the file's and each
        scenario's diagnostics (a werewolf scenario: the checks its runner makes before it runs,
        :func:`rulescript.sim.wolf_scenarios.check_text`)."""
        from rulescript.sim import wolf_scenarios
        from rulescript.sim.scenario_format import parse_scenarios

        if wolf_scenarios.is_werewolf_scenario(path):
            return {path: wolf_scenarios.check_text(text, path)}
        scenarios, diags = parse_scenarios(text, path, Path(path).parent)
        found = list(diags)
        for sc in scenarios:
            found.extend(d for d in sc.diagnostics if d not in found)
        return {path: [d for d in found if os.path.abspath(d.span.file) == path]}

    @staticmethod
    def forget_game_data(root: str) -> None:
        """After cards.yaml changed: the scenario checker loads the card data again."""
        from rulescript.sim import scenario_format

        scenario_format._GAMES.pop(str(Path(root).resolve()), None)

    # ------------------------------------------------------------------ WWRF
    def wwrf(self, path: str, text: str, book: str) -> Found:
        """``wwrf check`` of one element, in the context of the other elements of its book."""
        project = self.wwrf_project(path, text, book)
        return {path: [d for d in project.diagnostics if d.span.file == path]}

    def wwrf_project(self, path: str, text: str, book: str):  # -> wwrf_adapter.project.Project
        """The WWRF project of one element's buffer, with the rest of its book as context (what
        ``wwrf check FILE`` and ``wwrf fmt FILE`` load)."""
        from wwrf_adapter.project import Project, element_key, load_texts

        context = Project()
        kinds = {}
        for other, kind in book_files(book):
            if other == path:
                if kind is not None:
                    kinds[path] = kind
                continue
            raw = self._raw(other, kind)
            if raw is not None:
                context.raws.setdefault(element_key(raw.kind, raw.header.name), raw)
        return load_texts([(path, text)], extra_context=context, kinds=kinds)

    def _raw(self, path: str, kind: str | None):  # -> RawElement | None
        """The header and sections of a book file (memoised by its text)."""
        from rulescript.diagnostics import DiagnosticBag
        from wwrf_adapter.source import decode, has_header, read_element

        text = textfile.overlay_text(path)
        if text is None:
            try:
                if os.path.getsize(path) > LIVE_CHECK_BYTES:
                    return None
                with open(path, "rb") as fh:
                    text = decode(fh.read())
            except OSError:
                return None
        memo = self._raws.get(path)
        if memo is not None and memo[0] == (text, kind):
            return memo[1]
        raw = read_element(path, text, DiagnosticBag(), kind=kind) if has_header(text) or kind else None
        self._raws[path] = ((text, kind), raw)
        return raw


def book_files(book: str) -> list[tuple[str, str | None]]:
    """The element files of a book and the kind its ``_paths/`` lists give them (else None), as
    ``wwrf check BOOK`` collects them."""
    from rulescript.diagnostics import DiagnosticBag
    from wwrf_adapter.project import collect_sources

    try:
        sources = collect_sources([book], DiagnosticBag(), {})
    except OSError:
        return []
    return [(os.path.abspath(s.path), s.kind) for s in sources]
