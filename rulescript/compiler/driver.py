"""The RuleScript compiler's public face: text, files and game folders in; IR and diagnostics out.

* :func:`compile_text` and :func:`compile_file` compile one rule file.
* :func:`compile_game` compiles a game folder (``game.yaml``, ``cards.yaml``, ``rules/*.ini``),
  checking rule ids across files and against the card database.
* Results are cached by content hash (profile, card database, file name and text), in memory and,
  when a cache directory is given, on disk; a cached result is shared, so treat IR as read-only.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from rulescript import textfile, yamlsafe
from rulescript.compiler.compile_rule import RuleCompiler
from rulescript.compiler.context import CardDatabase, Ctx
from rulescript.diagnostics import Diagnostic, DiagnosticBag, SourceText, Span, did_you_mean, render
from rulescript.compiler.ini import Value, read_rule_file
from rulescript.compiler.profile import Profile, ProfileError, load_profile, profile_fingerprint

IR_FORMAT = "rulescript-ir"
IR_VERSION = 1


@dataclass(slots=True)
class FileResult:
    filename: str
    rules: dict[str, Any]
    diagnostics: list[Diagnostic]
    used: dict[str, set[str]]
    cached: bool = False


@dataclass(slots=True)
class CompileResult:
    """Compiled rules (id → IR) with every diagnostic found, and the sources to render them."""

    profile: str
    rules: dict[str, Any] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceText] = field(default_factory=dict)
    used: dict[str, set[str]] = field(default_factory=dict)
    files: list[FileResult] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def render(self) -> str:
        return "\n\n".join(render(d, self.sources.get(d.span.file)) for d in self.diagnostics)

    def document(self) -> dict[str, Any]:
        """The IR document: plain data that ``json`` and ``repr`` can both write."""
        return {"format": IR_FORMAT, "version": IR_VERSION, "profile": self.profile,
                "rules": {k: self.rules[k] for k in sorted(self.rules)}}

    def merge(self, fr: FileResult, source: SourceText, display: str | None = None) -> None:
        """Add a compiled file; ``display`` is the name its diagnostics show when the file was
        compiled under another (a game folder's files are compiled under their path in the folder)."""
        self.files.append(fr)
        if display is None or display == fr.filename:
            self.sources[fr.filename] = source
            self.diagnostics.extend(fr.diagnostics)
        else:
            self.sources[display] = SourceText(display, source.text)
            self.diagnostics.extend(d if d.span.file != fr.filename else
                                    Diagnostic(d.severity, d.code, d.message, d.span.with_file(display), d.notes)
                                    for d in fr.diagnostics)
        for cat, names in fr.used.items():
            self.used.setdefault(cat, set()).update(names)


class CompileCache:
    """Compiled files keyed by a content hash; optionally persisted as JSON files in a directory."""

    def __init__(self, directory: str | Path | None = None, max_entries: int = 4096,
                 max_source_bytes: int | None = None) -> None:
        self.memory: dict[str, FileResult] = {}
        self.directory = Path(directory) if directory else None
        self.max_entries = max_entries
        # the memory kept is bounded by the source text of the results too (their IR weighs some
        # 40 times the text): the entries given a size sum to at most ``max_source_bytes``
        self.max_source_bytes = max_source_bytes
        self.sizes: dict[str, int] = {}
        self.source_bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> FileResult | None:
        hit = self.memory.get(key)
        if hit is None and self.directory is not None:
            path = self.directory / f"{key}.json"
            if path.exists():
                try:
                    hit = _file_result_from_json(json.loads(path.read_text(encoding="utf-8")))
                except (OSError, ValueError, KeyError, TypeError):
                    hit = None
                if hit is not None:
                    self._keep(key, hit, 0)
        if hit is None:
            self.misses += 1
        else:
            self.hits += 1
        return hit

    def put(self, key: str, result: FileResult, size: int = 0) -> None:
        """Keep ``result`` (compiled from ``size`` bytes of source; on disk too with a directory)."""
        self._keep(key, result, size)
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            data = json.dumps(_file_result_to_json(result))
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(data)
            os.replace(tmp, self.directory / f"{key}.json")  # atomic: a failed write loses nothing

    def _keep(self, key: str, result: FileResult, size: int) -> None:
        """In memory, the oldest entries forgotten past ``max_entries`` or ``max_source_bytes``."""
        self._forget(key)
        limit = self.max_source_bytes
        while self.memory and (len(self.memory) >= self.max_entries
                               or (limit is not None and self.source_bytes + size > limit)):
            self._forget(next(iter(self.memory)))
        self.memory[key] = result
        if size:
            self.sizes[key] = size
            self.source_bytes += size

    def _forget(self, key: str) -> None:
        self.memory.pop(key, None)
        self.source_bytes -= self.sizes.pop(key, 0)

    def clear(self) -> None:
        self.memory.clear()
        self.sizes.clear()
        self.source_bytes = 0


def _file_result_to_json(r: FileResult) -> dict[str, Any]:
    return {"filename": r.filename, "rules": r.rules, "diagnostics": [d.to_dict() for d in r.diagnostics],
            "used": {k: sorted(v) for k, v in r.used.items()}}


def _file_result_from_json(d: dict[str, Any]) -> FileResult:
    diags = [Diagnostic(x["severity"], x["code"], x["message"],
                        Span(x["file"], x["line"], x["column"], x["end_line"], x["end_column"]), tuple(x["notes"]))
             for x in d["diagnostics"]]
    return FileResult(d["filename"], d["rules"], diags, {k: set(v) for k, v in d["used"].items()}, cached=True)


#: the process's cache: up to 4 MB of rule source (some 160 MB of IR) stays compiled
DEFAULT_CACHE = CompileCache(max_source_bytes=4 * 1024 * 1024)


_DB_MEMO: dict[int, tuple[list[dict[str, Any]], CardDatabase, str]] = {}


def _card_database(cards: list[dict[str, Any]]) -> tuple[CardDatabase, str]:
    """The database and fingerprint of a card list; reused while the same (memoised) list comes back."""
    memo = _DB_MEMO.get(id(cards))
    if memo is not None and memo[0] is cards:
        return memo[1], memo[2]
    db = CardDatabase.from_cards(cards)
    fp = _cards_fingerprint(db)
    _DB_MEMO.clear()
    _DB_MEMO[id(cards)] = (cards, db, fp)
    return db, fp


def _cards_fingerprint(cards: CardDatabase) -> str:
    if cards.empty:
        return "-"
    h = hashlib.sha256()
    for cid in sorted(cards.cards):
        c = cards.cards[cid]
        h.update(f"{cid}|{c.get('name')}|{c.get('type')}|{c.get('subtype')}\n".encode())
    return h.hexdigest()[:16]


def _cache_key(profile: Profile, cards_fp: str, filename: str, text: str) -> str:
    h = hashlib.sha256()
    head = f"{IR_VERSION}\0{profile.name}\0{_profile_fp(profile)}\0{cards_fp}\0{filename}\0"
    h.update(head.encode("utf-8", "surrogatepass"))  # (a file name's undecodable bytes are surrogates)
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


#: how many files (or profiles) the memos below remember: a long-lived process (a table with hot
#: reload, a server, the fuzzer) meets game folders without end, and each entry holds a parsed file
MEMO_ENTRIES = 64


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """``memo[key] = value``, the oldest entry forgotten when the memo holds :data:`MEMO_ENTRIES`."""
    memo.pop(key, None)
    while len(memo) >= MEMO_ENTRIES:
        memo.pop(next(iter(memo)))
    memo[key] = value


_PROFILE_FPS: dict[int, tuple[Profile, str]] = {}


def _profile_fp(profile: Profile) -> str:
    memo = _PROFILE_FPS.get(id(profile))
    if memo is not None and memo[0] is profile:  # (the profile is kept: its id is not reused)
        return memo[1]
    fp = profile_fingerprint(profile)
    _remember(_PROFILE_FPS, id(profile), (profile, fp))
    return fp


def compile_source(text: str, filename: str, profile: Profile, cards: CardDatabase,
                   cache: CompileCache | None = DEFAULT_CACHE, cards_fp: str | None = None,
                   progress: Any = None) -> FileResult:
    """Compile the text of one rule file (the unit of caching)."""
    key = None
    if cache is not None:
        key = _cache_key(profile, cards_fp if cards_fp is not None else _cards_fingerprint(cards), filename, text)
        hit = cache.get(key)
        if hit is not None:
            return hit
    bag = DiagnosticBag()
    # Compiling allocates many small, short-lived containers and makes no reference cycles: the cyclic
    # garbage collector is paused while a file compiles instead of running every few hundred allocations.
    gc_paused = gc.isenabled()
    if gc_paused:
        _collect_callers_young_objects()
        gc.disable()
    try:
        rules, used = _compile_sections(text, filename, profile, cards, bag, progress)
    finally:
        if gc_paused:
            _promote_young_objects()
            gc.enable()
    result = FileResult(filename, rules, list(bag), used)
    if cache is not None and key is not None:
        cache.put(key, result, len(text))
    return result


def _collect_callers_young_objects() -> None:
    """Collect the young generations before a compile pauses the collector, and count their survivors.

    The promotion after the compile (:func:`_promote_young_objects`) moves every young object into the
    oldest generation, so the caller's young garbage is collected first (a few thousand objects at most:
    well under a millisecond); otherwise a reference cycle the caller just dropped would wait for a full
    collection (a fuzzing worker importing plugins grew by 0.4 MB an import, the cycles of its XML
    parsers).  What the caller still holds survives into the oldest generation and may become garbage
    later (a command's argument parser, full of cycles): those objects are counted, and once the count
    reaches a quarter of what survived the last full collection (the collector's own rule for the
    survivors of its middle generation), a full collection runs, as the collector would have run it.
    The compile's own objects are not counted: it makes no reference cycles, so its IR is freed by
    reference counting when it is dropped and never waits for a full collection.
    """
    if gc.get_freeze_count():
        gc.collect(1)
        return
    callers = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
    gc.collect(1)
    _PROMOTED[0] += callers
    if _PROMOTED[0] > max(FULL_COLLECTION_MIN, _PROMOTED[1] // 4):
        gc.collect()
        gc.freeze()  # (counting the survivors walks them once: after a full collection, which did too)
        _PROMOTED[:] = [0, gc.get_freeze_count()]
        gc.unfreeze()


def _promote_young_objects() -> None:
    """Move the objects allocated since the last collection into the collector's oldest generation.

    What a compile leaves alive is its IR, which lives as long as the compiled game (it is cached and
    handed to the runtime): the collector would scan it in the young generation and again in the middle
    one, only to promote it, as it does with every long-lived object (about a tenth of the compile time
    of a file).  gc.freeze() followed by gc.unfreeze() moves every tracked object into the oldest
    generation without scanning any (two list splices) and resets the young generation's count.  A
    compile makes no reference cycles (the compilers of a file are freed by reference counting), so no
    garbage of its own is kept waiting for a full collection.  Skipped when the program has frozen
    objects itself (gc.freeze() before forking, say): unfreezing would give those back to the collector.
    """
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


FULL_COLLECTION_MIN = 100_000
_PROMOTED = [0, 0]  # the callers' objects promoted since the last full collection here; what survived it


def _compile_sections(text: str, filename: str, profile: Profile, cards: CardDatabase,
                      bag: DiagnosticBag, progress: Any = None) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """The IR of every error-free section of one file (id → IR) and the profile entries it used;
    ``progress(done, total)`` is called every 256 sections."""
    rule_file = read_rule_file(text, filename, bag)
    ctx = Ctx(profile, cards, bag, Value("", filename, [(0, 1, 1)]))
    compiler = RuleCompiler(ctx)
    rules: dict[str, Any] = {}
    sections = rule_file.sections
    rule_file.sections = []
    sections.reverse()
    total = len(sections)
    for i in range(total):
        section = sections.pop()  # each section is freed once compiled: a large file is never held twice
        ir = compiler.section(section)
        if ir is not None:
            rules[section.rule_id] = ir
        if progress is not None and i % 256 == 255:
            progress(i + 1, total)
    return rules, dict(ctx.used)


def _as_profile(profile: str | Path | Profile) -> Profile:
    return profile if isinstance(profile, Profile) else load_profile(profile)


def compile_text(text: str, profile: str | Path | Profile = "cfc", filename: str = "<text>",
                 cards: Iterable[dict[str, Any]] | CardDatabase | None = None,
                 cache: CompileCache | None = DEFAULT_CACHE, progress: Any = None) -> CompileResult:
    """Compile RuleScript text.  ``cards`` (a card list or database) enables subtype and model checks."""
    prof = _as_profile(profile)
    db = cards if isinstance(cards, CardDatabase) else CardDatabase.from_cards(cards or [])
    result = CompileResult(prof.name)
    fr = compile_source(text, filename, prof, db, cache, progress=progress)
    result.merge(fr, SourceText(filename, text))
    result.rules.update(fr.rules)
    return result


def compile_file(path: str | Path, profile: str | Path | Profile = "cfc",
                 cards: Iterable[dict[str, Any]] | CardDatabase | None = None,
                 cache: CompileCache | None = DEFAULT_CACHE, progress: Any = None) -> CompileResult:
    """Compile one rule file.  Without ``cards``, the game folder around the file supplies them."""
    p = Path(path)
    if cards is None:
        game = find_game_root(p)
        if game is not None:
            cards = load_cards(game / "cards.yaml")[0]
    text, problem = read_source(p)
    if problem is not None:
        result = CompileResult(_as_profile(profile).name)
        result.diagnostics.append(problem)
        return result
    result = compile_text(text, profile, str(path), cards, cache, progress)
    _warn_if_empty(result, result.files[0], text, str(path))
    return result


def _warn_if_empty(result: CompileResult, fr: FileResult, text: str, name: str) -> None:
    """RS917 for a rule file without a single section header (an empty file, or only comments)."""
    if not fr.rules and not fr.diagnostics and not any(line.lstrip().startswith("[") for line in text.splitlines()):
        result.diagnostics.append(Diagnostic("warning", "RS917", "the file holds no rules (no [section] header)",
                                             Span(name, 1, 1)))


def read_text(path: Path) -> str:
    """A file's text, leniently (undecodable bytes replaced); OSError when it cannot be read."""
    data = Path(path).read_bytes()
    try:
        return textfile.decode(data)
    except textfile.NotText:
        return data.decode("utf-8", errors="replace")


def read_source(path: Path) -> tuple[str, Diagnostic | None]:
    """A rule file's text, or a diagnostic (RD103) that says why it cannot be read as text."""
    return textfile.read_located(path, "RD103")


def source_name(root: Path, path: Path) -> str:
    """The name a rule file of a game folder is compiled under: its path inside the folder (so that the
    IR is the same bytes whatever the working folder)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def find_game_root(path: Path) -> Path | None:
    for parent in [path] + list(path.resolve().parents)[:3]:
        if (parent / "cards.yaml").exists() or (parent / "game.yaml").exists():
            return parent
    return None


_YAML_MEMO: dict[str, tuple[tuple[Any, ...], Any, list[Diagnostic]]] = {}


def load_yaml_file(path: Path) -> tuple[Any, list[Diagnostic]]:
    """Read a YAML file (memoised by modification time and size); a syntax error becomes a diagnostic."""
    buffered = textfile.overlay_text(path)
    if buffered is not None:  # an editor's unsaved buffer (the language server): memoised by its text
        stamp: tuple[Any, ...] = ("buffer", hashlib.sha256(buffered.encode("utf-8", "surrogatepass")).digest())
    else:
        try:
            st = path.stat()
        except OSError:
            return None, [Diagnostic("error", "RD100", "cannot read the file", Span(str(path), 1, 1))]
        stamp = (st.st_mtime_ns, st.st_size)
    memo = _YAML_MEMO.get(str(path))
    if memo is not None and memo[0] == stamp:
        return memo[1], memo[2]
    data, diags = _read_yaml(path)
    _remember(_YAML_MEMO, str(path), (stamp, data, diags))
    return data, diags


def _read_yaml(path: Path) -> tuple[Any, list[Diagnostic]]:
    try:
        return yamlsafe.load_file(path, "RD101"), []
    except yamlsafe.YamlError as exc:
        return None, [exc.diagnostic]


_CARDS_MEMO: dict[str, tuple[list[Any], list[dict[str, Any]]]] = {}


def load_cards(path: Path) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    if not path.exists() and textfile.overlay_text(path) is None:
        return [], []
    data, diags = load_yaml_file(path)
    if diags:
        return [], diags
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return [], [Diagnostic("error", "RD102", "cards.yaml must hold a list under the key 'cards'", Span(str(path), 1, 1))]
    memo = _CARDS_MEMO.get(str(path))
    if memo is not None and memo[0] is cards:
        return memo[1], []
    kept = [c for c in cards if isinstance(c, dict)]
    _remember(_CARDS_MEMO, str(path), (cards, kept))
    return kept, []


def game_profile_name(root: Path, default: str = "cfc") -> tuple[Any, list[Diagnostic]]:
    """The profile of a game folder (a name, or the path of a YAML file inside the folder) and the
    diagnostics of its game.yaml."""
    manifest = root / "game.yaml"
    if not manifest.exists() and textfile.overlay_text(manifest) is None:  # (an editor's new, unsaved game.yaml counts)
        return default, []
    data, diags = load_yaml_file(manifest)
    if diags:
        return default, diags
    if data is None:
        return default, []
    if not isinstance(data, dict):
        return default, [Diagnostic("error", "RD102", "game.yaml must be a mapping (profile: NAME, name: ...)",
                                    Span(str(manifest), 1, 1))]
    name = data.get("profile", default)
    if not isinstance(name, str) or not name:
        return default, [Diagnostic("error", "RD102", "'profile' must be the name of a profile (such as cfc)",
                                    Span(str(manifest), 1, 1))]
    return game_profile(root, name, manifest)


def game_profile(root: Path, name: str, manifest: Path) -> tuple[Any, list[Diagnostic]]:
    """What a game's ``profile:`` names: a profile that ships with the project (by name), or a YAML file
    inside the game folder (a relative path); nothing else (no folder, device or file elsewhere)."""
    from rulescript.compiler.profile import GAMES_DIR, known_profiles

    if name in known_profiles():
        return name, []
    where = Span(str(manifest), 1, 1)
    if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
        return name, [Diagnostic("error", "RP201", f"unknown profile '{name}'", where,
                                 (f"known profiles: {', '.join(known_profiles())}; or give the path of a .yaml "
                                  "file inside the game folder",))]
    try:
        path = (root / name).resolve()
        inside = path.is_relative_to(root.resolve()) and not Path(name).is_absolute()
        regular = inside and path.is_file() and path.suffix in (".yaml", ".yml")
    except (OSError, ValueError):
        inside = regular = False
    if not inside:
        return GAMES_DIR / "cfc" / "profile.yaml", [Diagnostic(
            "error", "RP202", f"profile '{name[:80]}' is not inside the game folder: a profile is a name "
            f"({', '.join(known_profiles())}) or the path of a .yaml file in the game folder", where)]
    if not regular:
        return GAMES_DIR / "cfc" / "profile.yaml", [Diagnostic(
            "error", "RP202", f"profile '{name[:80]}' is not a .yaml file of the game folder", where)]
    return path, []


def rule_files(root: Path) -> list[Path]:
    rules = root / "rules"
    base = rules if rules.is_dir() else root
    return sorted(p for p in base.rglob("*.ini") if p.is_file())


def compile_game(root: str | Path, profile: str | Path | Profile | None = None,
                 cache: CompileCache | None = DEFAULT_CACHE, progress: Any = None) -> CompileResult:
    """Compile every rule file of a game folder and check ids across files and against cards.yaml."""
    root = Path(root)
    diags: list[Diagnostic] = []
    if profile is None:
        name, d = game_profile_name(root)
        if d:  # the game's profile cannot be used: its diagnostics, and nothing compiled against another
            result = CompileResult(str(name))
            result.diagnostics.extend(d)
            return result
        profile = name
    try:
        prof = _as_profile(profile)
    except ProfileError as exc:
        result = CompileResult(str(profile))
        result.diagnostics.extend(exc.diagnostics)
        return result
    cards, d = load_cards(root / "cards.yaml")
    diags.extend(d)
    db, fp = _card_database(cards)
    result = CompileResult(prof.name, cards=cards)
    result.diagnostics.extend(diags)
    first_seen: dict[str, str] = {}
    files = rule_files(root)
    for i, path in enumerate(files):
        text, problem = read_source(path)
        if problem is not None:
            result.diagnostics.append(problem)
            continue
        fr = compile_source(text, source_name(root, path), prof, db, cache, fp)
        add_rule_file(result, fr, path, text, first_seen)
        if progress is not None:
            progress(i + 1, len(files), path)
    if cards:
        check_against_cards(result, db, root, prof)
    elif any(x.is_error for x in d):
        # cards.yaml is there but cannot be read: its error says it all, not one "no card database is
        # loaded" warning per subtype the rules name
        result.diagnostics = [x for x in result.diagnostics if x.code != "RS914"]
    return result


def add_rule_file(result: CompileResult, fr: FileResult, path: Path, text: str, first_seen: dict[str, str]) -> None:
    """Add a compiled rule file of a game folder to ``result``, as :func:`compile_game` does for each:
    its diagnostics under the file's path, RS917 when it holds no rules, RS104 for an id that an
    earlier file defined (``first_seen``: id → file, updated); its other rules join ``result.rules``."""
    result.merge(fr, SourceText(str(path), text), str(path))
    _warn_if_empty(result, fr, text, str(path))
    for rid, ir in fr.rules.items():
        if rid in first_seen:
            line = ir["src"][1]
            result.diagnostics.append(Diagnostic(
                "error", "RS104", f"duplicate section id '{rid}'", Span(str(path), line, 2, line, 2 + len(rid)),
                (f"first defined in {first_seen[rid]}",)))
            continue
        first_seen[rid] = str(path)
        result.rules[rid] = ir


def check_against_cards(result: CompileResult, db: CardDatabase, root: Path, prof: Profile) -> None:
    """The checks of the rules of ``result`` against the card database that :func:`compile_game` makes
    after compiling every file, when cards.yaml lists cards (RS915, RS916)."""
    _check_against_cards(result, db, root)
    _check_actions_can_run(result, db, root, prof)
    _check_element_names(result, db, root, prof)


def _check_element_names(result: CompileResult, db: CardDatabase, root: Path, prof: Profile) -> None:
    """RS105: a literal argument that names a card (the profile's ``element_args``) or an entry of a
    game.yaml list of card ids (``element_lists``) that cards.yaml has no card of that type for: the
    game would stop there with an unknown-element error."""
    spec = prof.raw.get("element_args")
    if isinstance(spec, dict):
        for ir in result.rules.values():
            file = ir["src"][0] if isinstance(ir, dict) and ir.get("src") else ""
            file = str(root / file) if file and not Path(file).is_absolute() else file
            for eff in _commands_in(ir):
                for index, kind in (spec.get(eff["cmd"]) or {}).items():
                    args = eff.get("args") or []
                    arg = args[int(index)] if int(index) < len(args) else None
                    expr = arg.get("e") if isinstance(arg, dict) else None
                    if not (isinstance(expr, list) and len(expr) == 2 and expr[0] == "lit" and isinstance(expr[1], str)):
                        continue
                    name = expr[1].strip().lower().replace(" ", "-").replace("_", "-")
                    line, col, end = (arg.get("at") or [1, 1, 2])[:3]
                    _require_card(result, db, name, str(kind), Span(file, line, col, line, end))
    lists = prof.raw.get("element_lists")
    manifest = root / "game.yaml"
    if isinstance(lists, dict):  # (a missing or unreadable game.yaml gives no lists; an unsaved buffer counts)
        game, _ = load_yaml_file(manifest)
        for key, kind in lists.items():
            value = game.get(key) if isinstance(game, dict) else None
            groups = value.values() if isinstance(value, dict) else [value] if isinstance(value, list) else []
            for ids in groups:
                for name in ids if isinstance(ids, list) else []:
                    _require_card(result, db, str(name).lower(), str(kind), Span(str(manifest), 1, 1),
                                  f" (game.yaml {key})")


def _commands_in(node: Any) -> Iterable[dict[str, Any]]:
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if isinstance(x.get("cmd"), str):
                yield x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


def _require_card(result: CompileResult, db: CardDatabase, name: str, kind: str, span: Span, where: str = "") -> None:
    card = db.cards.get(name)
    if card is not None and str(card.get("type", "")).lower() == kind:
        return
    known = sorted(cid for cid, c in db.cards.items() if str(c.get("type", "")).lower() == kind)
    what = f"'{name}' is a {card.get('type')} card, not a {kind}" if card is not None else f"no {kind} card '{name}' in cards.yaml"
    result.diagnostics.append(Diagnostic(
        "error", "RS105", f"{what}{where}: the game would stop here with an unknown {kind}", span,
        did_you_mean(name, known) or (f"the {kind} cards: {', '.join(known) or '(none)'}",)))


def _check_actions_can_run(result: CompileResult, db: CardDatabase, root: Path, prof: Profile) -> None:
    """Warn (RS916) about a rule's ``action`` that its card can never use, by the profile's
    ``actions_run_on`` (the card types whose cards always can, and the ability kinds that let a card of
    another type use one)."""
    spec = prof.raw.get("actions_run_on")
    if not isinstance(spec, dict):
        return
    types = {str(t).lower() for t in spec.get("card_types") or ()}
    kinds = {str(k).lower() for k in spec.get("ability_kinds") or ()}
    kinds_text = " or ".join(sorted(kinds)) or "(none)"
    shown = _FileNames(root)
    for rid, ir in result.rules.items():
        card = db.cards.get(rid)
        actions = ir.get("actions") if isinstance(ir, dict) else None
        if card is None or not actions or str(card.get("type", "")).lower() in types:
            continue
        ability = card.get("ability")
        kind = str(ability.get("kind", "")).lower() if isinstance(ability, dict) else ""
        if kind in kinds:
            continue
        file, line, col = actions[0]["src"]
        file = shown[file]
        has = f"its ability is {kind}" if kind else "it has no ability"
        result.diagnostics.append(Diagnostic(
            "warning", "RS916", f"the action of '{rid}' can never run: {has} in cards.yaml",
            Span(file, line, col, line, col + 6),
            (f"a {card.get('type')} card uses its action only with an ability of kind {kinds_text}",)))


class _FileNames(dict):  # type: ignore[type-arg]
    """The name a diagnostic shows for a rule file compiled under its path in the game folder
    (``root / file``; an absolute path as it is), worked out once per file."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def __missing__(self, file: str) -> str:
        shown = self[file] = str(self.root / file) if not Path(file).is_absolute() else file
        return shown


def _check_against_cards(result: CompileResult, db: CardDatabase, root: Path) -> None:
    # a card may name its rule sections in a `rules:` list (a card with several sections)
    listed = {str(r).lower() for c in db.cards.values() if isinstance(c.get("rules"), list) for r in c["rules"]}
    shown = _FileNames(root)
    for rid, ir in result.rules.items():
        if rid not in db.cards and rid not in listed:
            file, line, col = ir["src"]
            file = shown[file]
            # "src" is the column of the id (just after the '[')
            result.diagnostics.append(Diagnostic("warning", "RS915", f"no card in cards.yaml has the rule id '{rid}'",
                                                 Span(file, line, col, line, col + len(rid))))
