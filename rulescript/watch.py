"""Hot reload: ``rulescript watch GAME`` recompiles what changed and re-runs the affected scenarios.

Entry points (the CLI's ``watch`` subcommand calls one of the first two)::

    main_watch(argv: list[str]) -> int
        argparse front end: ``GAME [--debounce MS] [--no-scenarios] [--once] [--octgn DIR]``;
        ``--help`` explains.
        Exit status: 0 clean (or stopped with Ctrl-C), 1 errors/failures (``--once``), 2 usage.
    run_watch(game_dir, out=None, *, debounce=0.05, scenarios=True, once=False) -> int
        the same without argument parsing (``out``: a text stream, default ``sys.stdout``).

    w = Watcher(game_dir, out, debounce=0.05)   # debounce in seconds
    w.on_reload(callback)      # callback(ReloadResult) after every completed reload (initial one too)
    w.start()                  # initial full compile + scenario run (printed), then watch
    w.process(["rules/x.ini"]) # the synchronous core: what the event thread calls after debouncing
    w.stop()                   # or w.run_forever() until Ctrl-C
    w.rules                    # the rules in force (last good compile), or None

What one reload does
--------------------
1. The watchdog observer (recursive on the game folder) reports created/modified/closed/moved/
   deleted events for ``rules/**/*.ini``, ``cards.yaml``, ``game.yaml`` and
   ``scenarios/**/*.yaml|yml``.  Editor temp and backup names (``*.tmp``, ``*~``, ``*.swp``,
   ``.#x``, ``#x#``, hidden files) are ignored; a rename *onto* a watched name (an "atomic save")
   counts as a change of that name.  Events are coalesced: the reload runs once the folder has
   been quiet for ``debounce`` seconds.
2. The game is compiled with the watcher's own compile cache, so only files whose text changed are
   compiled again; the files that were compiled are reported.
3. If the compile has errors, they are printed like the compiler prints them (``file:line:col``, the
   source line, a caret) and **the last good rules stay in force** (``errors: keeping the last good
   rules (loaded HH:MM:SS)``).  Scenarios are *not* re-run against broken rules: the changes are
   remembered and the affected scenarios run as soon as a save compiles again (``recovered: rules
   reloaded``).
4. Otherwise the new rules become the rules in force (``rulescript.sim.scenario.RULES_OVERRIDE``
   for this folder is set to them) and the scenarios that involve a changed card are re-run: a
   scenario involves a card when the card's rule resolved or was loaded in that scenario's last run,
   or when the card id appears in the scenario.  A changed scenario file re-runs all of its own
   scenarios; a change to ``cards.yaml`` or ``game.yaml`` re-runs every scenario.  A rule counts as
   changed when its IR differs other than in source positions (inserting a line above a rule does
   not re-run that rule's scenarios).
5. Results are printed (``PASS name`` / ``FAIL name`` with indented reasons, ``N passed, M
   failed``) and a final line gives the time from the first file event of the burst to the printed
   result: ``reloaded in 38 ms (1 file recompiled, 3 scenarios; ...)``, or ``rejected in ...`` when
   the save did not compile.

The watcher never dies on bad input: an exception while processing is printed (type and message),
the rules in force are kept and the watcher goes on.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from rulescript import cliutil
from rulescript.rule_diff import changed_rule_ids  # noqa: F401  (tests patch it here)
from rulescript.compiler import driver as _compiler
from rulescript.compiler import CompileCache, CompileResult, FileResult, compile_game
from rulescript.diagnostics import Diagnostic, SourceText, render
from rulescript.sim import scenario as _scenario

__all__ = ["ReloadResult", "Watcher", "main_watch", "run_watch", "classify"]

SCENARIO_SUFFIXES = (".yaml", ".yml")
TEMP_SUFFIXES = (".tmp", ".temp", ".swp", ".swo", ".swx", ".bak", ".orig", ".part", ".crdownload")
# watchdog event types that mean "the content (or the existence) of this path may have changed";
# opened / closed_no_write / attrib are left out, since the watcher's own reads produce them
CHANGE_EVENTS = frozenset({"created", "modified", "closed", "moved", "deleted"})


# ------------------------------------------------------------------------------------------ helpers
def _is_temp_name(name: str) -> bool:
    """Editor temp, lock, swap and backup files: never a change of the game."""
    low = name.lower()
    return (name.startswith((".", "#")) or name.endswith("~") or low.endswith(TEMP_SUFFIXES)
            or name == "4913")  # vim's probe file


def classify(rel: str, has_rules_dir: bool = True) -> str | None:
    """The kind of a path relative to the game folder (``/``-separated): ``rules``, ``cards``,
    ``game``, ``scenario``, or None for a path the watcher ignores."""
    parts = [p for p in rel.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts or any(_is_temp_name(p) for p in parts):
        return None
    name = parts[-1]
    if len(parts) == 1 and name == "cards.yaml":
        return "cards"
    if len(parts) == 1 and name == "game.yaml":
        return "game"
    if parts[0] == "scenarios" and len(parts) > 1 and name.lower().endswith(SCENARIO_SUFFIXES):
        return "scenario"
    if name.lower().endswith(".ini") and (parts[0] == "rules" if has_rules_dir else parts[0] != "scenarios"):
        return "rules"
    return None


def _strings(value: Any, acc: set[str]) -> set[str]:
    """Every string (lower case) inside a scenario's data: the card ids it mentions, and more."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            acc.add(v.lower())
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return acc


def _indent(text: str, pad: str = "    ") -> str:
    return "\n".join(pad + ln for ln in str(text).split("\n"))


def _ms(seconds: float) -> str:
    return "%.0f ms" % (seconds * 1000.0)


def _plural(n: int, word: str) -> str:
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


class _TrackingCache(CompileCache):
    """A compile cache that records which files were really compiled (a miss is followed by put)."""

    def __init__(self, directory: str | Path | None = None) -> None:
        super().__init__(directory, max_entries=200_000)
        self.compiled: list[str] = []

    def put(self, key: str, result: FileResult, size: int = 0) -> None:
        self.compiled.append(result.filename)
        super().put(key, result, size)


def _chunks(text: str) -> list[tuple[int, str]]:
    """A rule file cut before every line that starts with ``[`` (a section header, or a malformed
    one): ``(first line - 1, text)`` pieces.  The INI reader resets its state at such a line, so each
    piece reads the same alone as in the file, apart from the checks across sections (duplicate ids;
    a property before any section), which :func:`compile_by_section` leaves to a whole-file compile."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [0] + [i for i in range(1, len(lines)) if lines[i].startswith("[")]
    if len(starts) > 1 and not lines[0].startswith("["):
        del starts[1]  # the lines before the first section (comments) go with it: not a section of their own
    ends = starts[1:] + [len(lines)]
    return [(s, "\n".join(lines[s:e])) for s, e in zip(starts, ends)]


def compile_by_section(text: str, filename: str, profile: Any, cards: Any, cache: CompileCache,
                       cards_fp: str, keep_errors: bool = False) -> FileResult | None:
    """Compile a rule file one section at a time through ``cache`` (each section keyed by its text
    and first line), so that editing one rule of a large file compiles that rule only.  Returns the
    same FileResult as compiling the whole file, or None when a piece has an error or two pieces
    define the same id: then only a whole-file compile gives the exact diagnostics.

    With ``keep_errors`` (the language server), a piece with errors is kept: the diagnostics are the
    same as the whole file's, but in piece order (a whole-file compile gives the INI reader's
    diagnostics of every section before the compiler's)."""
    rules: dict[str, Any] = {}
    diags: list[Diagnostic] = []
    used: dict[str, set[str]] = {}
    for first, piece in _chunks(text):
        # padding with empty lines keeps every line number (and so every span and "src") exact
        fr = _compiler.compile_source("\n" * first + piece, filename, profile, cards, cache, cards_fp)
        if not keep_errors and any(d.is_error for d in fr.diagnostics):
            return None
        for rid, ir in fr.rules.items():
            if rid in rules:
                return None
            rules[rid] = ir
        diags.extend(fr.diagnostics)
        for cat, names in fr.used.items():
            used.setdefault(cat, set()).update(names)
    return FileResult(filename, rules, diags, used)


# ------------------------------------------------------------------------------------------ results
@dataclass
class ReloadResult:
    """What one reload did; passed to the ``on_reload`` callbacks.  Times are in the watcher's clock
    (seconds); ``total_seconds`` runs from the first file event of the burst to the printed result."""

    initial: bool = False
    changed: list[str] = field(default_factory=list)      # relative paths that triggered it
    recompiled: list[str] = field(default_factory=list)   # relative paths of files really compiled
    sections_compiled: dict[str, int] = field(default_factory=dict)  # file -> sections compiled
                                                          # one by one (absent: compiled whole)
    ok: bool = False                                      # the compile had no errors
    kept_last_good: bool = False                          # errors: the previous rules stay in force
    recovered: bool = False                               # first good compile after errors
    diagnostics: list[Diagnostic] = field(default_factory=list)   # every diagnostic of the compile
    changed_rules: set[str] = field(default_factory=set)
    scenarios: list[Any] = field(default_factory=list)    # ScenarioResult of the scenarios re-run
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    scenarios_note: str = ""                              # why scenarios were (not) run
    error: str | None = None                              # "Type: message" of an exception
    rules: dict[str, Any] | None = None                   # the rules in force after this reload
    rules_loaded_at: str | None = None                    # wall-clock time they were loaded
    event_time: float = 0.0
    start_time: float = 0.0
    compile_seconds: float = 0.0
    scenario_seconds: float = 0.0
    printed_at: float = 0.0

    @property
    def total_seconds(self) -> float:
        return self.printed_at - self.event_time

    @property
    def wait_seconds(self) -> float:
        """From the first event to the start of processing: observer latency plus debounce."""
        return self.start_time - self.event_time


@dataclass
class _Entry:
    """What the watcher knows about one scenario: its position and the cards it involves."""

    file: str          # relative path of its file
    index: int         # position among the file's scenarios
    name: str
    mentions: set[str]
    involved: set[str] = field(default_factory=set)   # ran | loaded in the last run
    status: str = ""


# ------------------------------------------------------------------------------------------ watcher
class Watcher:
    """Watches a game folder; see the module documentation."""

    def __init__(self, game_dir: str | Path, out: Any = None, *, debounce: float = 0.05,
                 clock: Callable[[], float] = time.perf_counter, scenarios: bool = True,
                 cache_dir: str | Path | None = None, by_section: bool = True) -> None:
        self.game_dir = Path(game_dir)
        self.root = os.path.abspath(str(game_dir))
        self.out = out if out is not None else sys.stdout
        self.debounce = float(debounce)
        self.clock = clock
        self.run_scenarios = scenarios
        self.by_section = by_section          # compile changed files section by section
        self.cache = _TrackingCache(cache_dir)
        self.callbacks: list[Callable[[ReloadResult], Any]] = []
        self.reloads = 0                      # completed reloads (the initial one included)
        self.last_result: ReloadResult | None = None

        self._key = str(self.game_dir.resolve())
        self._out_lock = threading.Lock()
        self._lock = threading.RLock()        # one reload at a time
        self._cv = threading.Condition()
        self._pending: dict[str, str] = {}    # relative path -> last event type
        self._first_event = 0.0
        self._last_event = 0.0
        self._stopping = False
        self._observer: Any = None
        self._thread: threading.Thread | None = None
        self._override_before: Any = None
        self._had_override = False
        self._guarded = False

        self._good_rules: dict[str, Any] | None = None
        self._good_at: str | None = None
        self._broken = False
        self._pending_all = False              # a change that re-runs every scenario is waiting
        self._pending_files: set[str] = set()  # scenario files changed while the rules were broken
        self._shown_warnings: set[Diagnostic] = set()
        self._entries: dict[tuple[str, int], _Entry] = {}
        self._last_status: dict[tuple[str, str], str] = {}   # (file, scenario name) -> its last status
        self._loaded: dict[str, tuple[list[Any], list[Diagnostic]]] = {}

    # -------------------------------------------------------------------------------- public API
    @property
    def rules(self) -> dict[str, Any] | None:
        """The rules in force: those of the last save that compiled (None before any did)."""
        return self._good_rules

    @property
    def rules_loaded_at(self) -> str | None:
        return self._good_at

    def on_reload(self, callback: Callable[[ReloadResult], Any]) -> Callable[[ReloadResult], Any]:
        """Register ``callback(result)``, called after every completed reload; usable as a decorator."""
        self.callbacks.append(callback)
        return callback

    def start(self) -> ReloadResult:
        """Start observing, then do (and print) the initial full compile and scenario run."""
        self._install_override_guard()
        self._stopping = False
        self._start_observer()
        self._thread = threading.Thread(target=self._worker, name="rulescript-watch", daemon=True)
        self._thread.start()
        self._emit("watching %s (debounce %s)%s; Ctrl-C stops\n" % (
            self.game_dir, _ms(self.debounce), "" if self.run_scenarios else ", scenarios off"))
        return self.initial()

    def stop(self) -> None:
        """Stop the observer and the reload thread; restore the previous RULES_OVERRIDE entry."""
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        obs, self._observer = self._observer, None
        if obs is not None:
            try:
                obs.stop()
                obs.join(timeout=5)
            except Exception as exc:  # noqa: BLE001 - stopping must not raise
                self._emit("note: stopping the observer: %s: %s\n" % (type(exc).__name__, exc))
        th, self._thread = self._thread, None
        if th is not None and th is not threading.current_thread():
            th.join(timeout=30)
        with self._lock:
            if self._guarded:
                if self._had_override:
                    _scenario.RULES_OVERRIDE[self._key] = self._override_before
                else:
                    _scenario.RULES_OVERRIDE.pop(self._key, None)
                self._guarded = False

    def run_forever(self, poll: float = 0.2) -> int:
        """Start and block until Ctrl-C (returns 130, as every command interrupted) or ``stop()`` from
        another thread (returns 0)."""
        self.start()
        try:
            while not self._stopping:
                time.sleep(poll)
        except KeyboardInterrupt:
            self._emit("\nstopped\n")
            return 130
        finally:
            self.stop()
        return 0

    def check_once(self) -> int:
        """Compile and run every scenario once, without watching: 0 if clean, else 1."""
        self._install_override_guard()
        try:
            res = self.initial()
        finally:
            self.stop()
        return 0 if (res.ok and res.error is None and res.failed == 0) else 1

    def initial(self) -> ReloadResult:
        """The full compile and scenario run done at start (also usable on its own)."""
        return self.process([], initial=True)

    def process(self, paths: Iterable[str | Path], event_time: float | None = None, *,
                initial: bool = False) -> ReloadResult:
        """Handle a change of ``paths`` (absolute, or relative to the game folder) synchronously:
        recompile, re-run the affected scenarios, print, call the callbacks.  Never raises for a
        problem in the game's files; any exception is printed and recorded in ``result.error``."""
        t_event = self.clock() if event_time is None else event_time
        with self._lock:
            res = ReloadResult(initial=initial, event_time=t_event, start_time=self.clock())
            try:
                self._reload(list(paths), res)
            except Exception as exc:  # noqa: BLE001 - the watcher must survive anything
                # what this reload left undone is not known: the next good one re-runs everything
                self._broken = self._pending_all = True
                res.error = "%s: %s" % (type(exc).__name__, exc)
                tb = traceback.extract_tb(exc.__traceback__)
                where = " (at %s:%d)" % (tb[-1].filename, tb[-1].lineno) if tb else ""
                self._emit("error while reloading: %s%s\n%s\n" % (
                    res.error, where, self._keeping_line()))
                self._finish(res, "failed")
            self.reloads += 1
            self.last_result = res
            for cb in list(self.callbacks):
                try:
                    cb(res)
                except Exception as exc:  # noqa: BLE001 - a broken callback must not stop reloads
                    self._emit("error in a reload callback: %s: %s\n" % (type(exc).__name__, exc))
            return res

    # -------------------------------------------------------------------------------- events
    def _start_observer(self) -> None:
        from watchdog.events import FileSystemEventHandler

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:  # noqa: D401 - watchdog callback
                try:
                    watcher._on_event(event)
                except Exception as exc:  # noqa: BLE001 - the observer thread must survive
                    watcher._emit("error in the file observer: %s: %s\n" % (type(exc).__name__, exc))

        try:
            from watchdog.observers import Observer
            obs = Observer()
            obs.schedule(Handler(), self.root, recursive=True)
            obs.start()
        except OSError as exc:     # e.g. no inotify watches left: poll instead
            from watchdog.observers.polling import PollingObserver
            self._emit("note: file events unavailable (%s); polling the folder instead\n" % exc)
            obs = PollingObserver(timeout=0.25)
            obs.schedule(Handler(), self.root, recursive=True)
            obs.start()
        self._observer = obs

    def _on_event(self, event: Any) -> None:
        if event.event_type not in CHANGE_EVENTS:
            return
        paths = [event.src_path]
        if event.event_type == "moved":
            paths.append(event.dest_path)   # a rename onto a watched name is a save of that name
        if event.is_directory:
            # a folder of rules or scenarios moved or deleted as a whole: its files give no events
            if event.event_type not in ("moved", "deleted"):
                return
            rels = [r for r in (self._relative(p, folder=True) for p in paths) if r is not None]
        else:
            rels = [r for r in (self._relative(p) for p in paths) if r is not None]
        if not rels:
            return
        now = self.clock()
        with self._cv:
            if not self._pending:
                self._first_event = now
            for rel in rels:
                self._pending[rel] = event.event_type
            self._last_event = now
            self._cv.notify_all()

    def _relative(self, path: Any, folder: bool = False) -> str | None:
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        rel = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        if rel.startswith("../") or rel == ".." or rel == ".":
            return None
        if folder:
            return rel + "/" if rel.split("/")[0] in ("rules", "scenarios") else None
        return rel if classify(rel, os.path.isdir(os.path.join(self.root, "rules"))) else None

    def _worker(self) -> None:
        while True:
            with self._cv:
                while not self._pending and not self._stopping:
                    self._cv.wait()
                if self._stopping:
                    return
                while not self._stopping:   # debounce: wait until the folder has been quiet
                    left = self._last_event + self.debounce - self.clock()
                    if left <= 0:
                        break
                    self._cv.wait(left)
                if self._stopping:
                    return
                batch, first = sorted(self._pending), self._first_event
                self._pending = {}
            try:
                self.process(batch, first)
            except BaseException as exc:  # noqa: BLE001 - process() already catches; belt and braces
                self._emit("error in the reload thread: %s: %s\n" % (type(exc).__name__, exc))

    # -------------------------------------------------------------------------------- output
    def _emit(self, text: str) -> None:
        with self._out_lock:
            try:
                self.out.write(text)
                flush = getattr(self.out, "flush", None)
                if flush is not None:
                    flush()
            except Exception:  # noqa: BLE001 - a closed stream must not kill the watcher
                pass

    def _keeping_line(self) -> str:
        if self._good_rules is None:
            return "errors: no good rules yet; scenarios are not run until the rules compile"
        return ("errors: keeping the last good rules (loaded %s); scenarios are not re-run "
                "until the rules compile" % self._good_at)

    def _finish(self, res: ReloadResult, verb: str) -> None:
        parts = [_plural(len(res.recompiled), "file") + " recompiled"]
        if res.ok:
            parts.append(_plural(len(res.scenarios), "scenario"))
        elif res.error is None:
            parts.append("last good rules kept" if self._good_rules is not None else "no good rules")
        detail = "compile %s" % _ms(res.compile_seconds)
        if res.scenarios:
            detail += ", scenarios %s" % _ms(res.scenario_seconds)
        if not res.initial:
            detail += ", waited %s" % _ms(res.start_time - res.event_time)
        now = self.clock()
        self._emit("%s in %s (%s; %s)\n" % (verb, _ms(now - res.event_time), ", ".join(parts), detail))
        res.printed_at = self.clock()

    def _render(self, diag: Diagnostic, result: CompileResult | None) -> str:
        src = result.sources.get(diag.span.file) if result is not None else None
        if src is None:
            try:
                src = SourceText(diag.span.file, _compiler.read_text(Path(diag.span.file)))
            except OSError:
                src = None
        return render(diag, src)

    # -------------------------------------------------------------------------------- the reload
    def _rel_of(self, filename: str) -> str:
        return os.path.relpath(os.path.abspath(filename), self.root).replace(os.sep, "/")

    def _reload(self, paths: list[str | Path], res: ReloadResult) -> None:
        rels: list[str] = []
        for p in paths:
            p = str(p)
            rel = self._rel_of(p if os.path.isabs(p) else os.path.join(self.root, p))
            if p.endswith(("/", os.sep)):
                rel += "/"            # a folder event (see _on_event)
            if rel not in rels:
                rels.append(rel)
        res.changed = rels
        has_rules_dir = os.path.isdir(os.path.join(self.root, "rules"))
        kinds = {rel: classify(rel, has_rules_dir) for rel in rels}
        stamp = time.strftime("%H:%M:%S")
        if res.initial:
            self._emit("[%s] initial compile of %s\n" % (stamp, self.game_dir))
        else:
            shown = []
            for rel in rels:
                gone = not os.path.exists(os.path.join(self.root, rel))
                shown.append(rel + (" (deleted)" if gone else ""))
            self._emit("[%s] changed: %s\n" % (stamp, ", ".join(shown) or "(nothing)"))

        # caches outside the watcher that would serve stale data for these files; a whole folder
        # that moved or went away ("rules/", "scenarios/x/") counts as a change of everything
        everything = res.initial or any(k in ("cards", "game") for k in kinds.values()) or any(
            rel.endswith("/") for rel in rels)
        for rel, kind in kinds.items():
            if kind in ("cards", "game"):
                for key in (str(self.game_dir / rel), os.path.join(self.root, rel)):
                    getattr(_compiler, "_YAML_MEMO", {}).pop(key, None)
            if kind == "scenario":
                self._loaded.pop(rel, None)
                getattr(_scenario, "_SOURCES", {}).pop(str(self.game_dir / rel), None)
        if everything:
            from rulescript.sim import scenario_format
            getattr(scenario_format, "_GAMES", {}).pop(self._key, None)
            self._loaded.clear()
            getattr(_scenario, "_SOURCES", {}).clear()

        # ---- compile
        self.cache.compiled = []
        t0 = self.clock()
        try:
            sections = self._prefill() if self.by_section else {}
            result: CompileResult | None = compile_game(self.game_dir, cache=self.cache)
            crash = None
        except Exception as exc:  # noqa: BLE001 - e.g. a file deleted or unreadable mid-compile
            result, crash, sections = None, exc, {}
        res.compile_seconds = self.clock() - t0
        # compile_game compiles a rule file under its path in the game folder (driver.source_name)
        res.recompiled = list(dict.fromkeys(f if not os.path.isabs(f) else self._rel_of(f)
                                            for f in self.cache.compiled))
        res.sections_compiled = {rel: sections.get(rel, 0) for rel in res.recompiled if rel in sections}
        if crash is not None:
            self._emit("error: cannot compile the game: %s: %s\n" % (type(crash).__name__, crash))
            res.error = "%s: %s" % (type(crash).__name__, crash)
        else:
            res.diagnostics = list(result.diagnostics)
        res.ok = crash is None and result.ok

        if res.recompiled and not res.initial:
            self._emit("recompiled: %s\n" % ", ".join(
                "%s (%s)" % (rel, _plural(res.sections_compiled[rel], "section")
                             if rel in res.sections_compiled else "whole file")
                for rel in res.recompiled))
        elif not res.initial and any(k == "rules" for k in kinds.values()):
            self._emit("recompiled: nothing (the compile cache already held this text)\n")
        if result is not None:
            warnings = {d for d in result.diagnostics if not d.is_error}
            shown = [d for d in result.diagnostics if d.is_error or d not in self._shown_warnings]
            self._shown_warnings = warnings
            if shown:
                self._emit("\n\n".join(self._render(d, result) for d in shown) + "\n")
            if res.initial:
                self._emit("compiled %s from %s: %s, %s\n" % (
                    _plural(len(result.rules), "rule"), _plural(len(result.files), "file"),
                    _plural(len(result.errors), "error"), _plural(len(result.warnings), "warning")))

        scen_changed = {rel for rel, k in kinds.items() if k == "scenario"}
        if not res.ok:
            # keep the last good rules in force; remember what the scenarios still have to see
            self._broken = True
            self._pending_all = self._pending_all or everything
            self._pending_files |= scen_changed
            res.kept_last_good = self._good_rules is not None
            res.rules, res.rules_loaded_at = self._good_rules, self._good_at
            self._emit(self._keeping_line() + "\n")
            res.scenarios_note = "not run: the rules have errors"
            self._finish(res, "rejected")
            return

        # ---- the new rules are in force
        assert result is not None
        old = self._good_rules
        if self._broken and old is not None:
            res.recovered = True
            self._emit("recovered: rules reloaded\n")
        run_all = everything or self._pending_all or old is None
        res.changed_rules = set() if run_all else changed_rule_ids(old, result.rules)
        scen_changed |= self._pending_files
        self._broken, self._pending_all, self._pending_files = False, False, set()
        self._good_rules = result.rules
        self._good_at = time.strftime("%H:%M:%S")
        self._install_override_guard()
        _scenario.RULES_OVERRIDE[self._key] = result.rules
        res.rules, res.rules_loaded_at = self._good_rules, self._good_at
        if res.changed_rules:
            names = sorted(res.changed_rules)
            more = "" if len(names) <= 12 else " and %d more" % (len(names) - 12)
            self._emit("rules changed: %s%s\n" % (", ".join(names[:12]), more))
            self._emit(_new_texts(result, names[:12]))

        # ---- scenarios
        if self.run_scenarios:
            t1 = self.clock()
            self._run_scenarios(res, run_all, scen_changed, res.changed_rules)
            res.scenario_seconds = self.clock() - t1
        else:
            res.scenarios_note = "scenarios off"
        self._finish(res, "loaded" if res.initial else "reloaded")

    def _prefill(self) -> dict[str, int]:
        """Before ``compile_game`` runs, put into the cache every rule file whose text it does not
        hold yet, compiled section by section (see :func:`compile_by_section`): compile_game then
        finds it and still does every check across files.  Returns {relative path: sections compiled}
        of the files done this way; any other file is left to compile_game (a whole-file compile)."""
        done: dict[str, int] = {}
        name, _ = _compiler.game_profile_name(self.game_dir)
        try:
            prof = _compiler.load_profile(name)
        except Exception:  # noqa: BLE001 - compile_game reports a bad profile
            return done
        cards, _ = _compiler.load_cards(self.game_dir / "cards.yaml")
        db, fp = _compiler._card_database(cards)
        for path in _compiler.rule_files(self.game_dir):
            text, problem = _compiler.read_source(path)
            if problem is not None:
                continue      # compile_game meets it too and the reload reports it
            name = _compiler.source_name(Path(self.game_dir), path)
            key = _compiler._cache_key(prof, fp, name, text)
            if key in self.cache.memory:
                continue
            before = len(self.cache.compiled)
            fr = compile_by_section(text, name, prof, db, self.cache, fp)
            if fr is not None:
                done[self._rel_of(str(path))] = len(self.cache.compiled) - before
                self.cache.put(key, fr)
                self.cache.compiled.pop()     # the file's own entry is not one more compile
        return done

    # -------------------------------------------------------------------------------- scenarios
    def _scenario_files(self) -> list[str]:
        return [self._rel_of(str(p)) for p in _scenario.scenario_files(self.game_dir)]

    def _load(self, rel: str) -> tuple[list[Any], list[Diagnostic]]:
        got = self._loaded.get(rel)
        if got is None:
            got = _scenario.load_scenarios(self.game_dir / rel)
            self._loaded[rel] = got
            for key in [k for k in self._entries if k[0] == rel]:
                del self._entries[key]
            for i, sc in enumerate(got[0]):
                self._entries[(rel, i)] = _Entry(rel, i, sc.name, _strings(sc.raw, {sc.name.lower()}))
        return got

    def _run_scenarios(self, res: ReloadResult, run_all: bool, files: set[str],
                       cards: set[str]) -> None:
        present = self._scenario_files()
        for gone in {k[0] for k in self._entries} - set(present):
            for key in [k for k in self._entries if k[0] == gone]:
                del self._entries[key]
            self._loaded.pop(gone, None)
        selected: dict[str, set[int] | None] = {}    # file -> indices (None: all of them)
        for rel in present:
            if run_all or rel in files:
                selected[rel] = None
        if cards:
            for (rel, i), e in self._entries.items():
                if rel in selected and selected[rel] is None:
                    continue
                if (e.mentions | e.involved) & cards:
                    selected.setdefault(rel, set()).add(i)
        why = "all scenarios" if run_all else "affected scenarios"
        if not selected:
            res.scenarios_note = "no scenarios" if run_all else "no scenario involves the change"
            self._emit(res.scenarios_note + "\n")
            return
        lines: list[str] = []
        unlisted = 0
        for rel in present:
            if rel not in selected:
                continue
            scenarios, diags = self._load(rel)
            if diags:
                fail = _scenario.ScenarioResult(
                    name=rel, passed=False, file=str(self.game_dir / rel), line=diags[0].span.line,
                    status="fail", diagnostics=list(diags),
                    failures=[self._render(d, None) for d in diags])
                self._record(res, fail, lines)
            want = selected[rel]
            for i, sc in enumerate(scenarios):
                if want is not None and i not in want:
                    continue
                r = _scenario.run_scenario(sc)
                entry = self._entries.get((rel, i))
                if entry is not None:
                    entry.involved = {x.lower() for x in (r.ran | r.loaded)}
                    entry.status = r.status
                before = self._last_status.get((rel, sc.name))
                self._last_status[(rel, sc.name)] = r.status
                # a run of every scenario (cards.yaml or game.yaml changed, a broken save fixed) lists
                # what changed only: a pass that was a pass already is counted, not listed
                if run_all and before == "pass" and r.status == "pass" and not res.initial:
                    res.passed += 1
                    res.scenarios.append(r)
                    unlisted += 1
                    continue
                self._record(res, r, lines)
        lines.append("%d passed, %d failed%s%s" % (
            res.passed, res.failed, " (%d skipped)" % res.skipped if res.skipped else "",
            " (%d passes unchanged, not listed)" % unlisted if unlisted else ""))
        res.scenarios_note = why
        self._emit("\n".join(lines) + "\n")

    def _record(self, res: ReloadResult, r: Any, lines: list[str]) -> None:
        res.scenarios.append(r)
        if r.status == "pass":
            res.passed += 1
            if not res.initial:   # the first run prints failures and the summary line only
                lines.append("PASS %s" % r.name)
        elif r.status == "skip":
            res.skipped += 1
            lines.append("SKIP %s (pending: %s)" % (r.name, r.pending))
        else:
            res.failed += 1
            lines.append("FAIL %s" % r.name)
            lines.extend(_indent(m) for m in r.failures)

    def _install_override_guard(self) -> None:
        """Remember the RULES_OVERRIDE entry that was there before, for stop() to restore."""
        if not self._guarded:
            self._guarded = True
            self._had_override = self._key in _scenario.RULES_OVERRIDE
            self._override_before = _scenario.RULES_OVERRIDE.get(self._key)


# ------------------------------------------------------------------------------------------ CLI
def run_watch(game_dir: str | Path, out: Any = None, *, debounce: float = 0.05, scenarios: bool = True,
              once: bool = False, octgn: str | Path | None = None) -> int:
    """Watch ``game_dir`` until Ctrl-C (0), or with ``once`` compile and test once (0 if clean).
    ``octgn``: an OCTGN data folder where the game is installed; its ``Scripts/rules.py`` is rewritten
    after every good reload (``octgn_pack.deploy.RulesSync``)."""
    out = out if out is not None else sys.stdout
    root = Path(game_dir)
    if not root.exists():
        sys.stderr.write("rulescript watch: error: no such file or folder: %s\n" % game_dir)
        return 2
    if not root.is_dir() or not any((root / n).exists() for n in ("game.yaml", "cards.yaml", "rules")):
        sys.stderr.write("rulescript watch: error: %s is not a game folder (no game.yaml, cards.yaml or "
                         "rules/)\n" % game_dir)
        return 2
    from rulescript.wolf_watch import WolfWatcher, is_wolf_game

    if is_wolf_game(root):  # a werewolf game rendered from its WWRF book: watch the book
        ww = WolfWatcher(root, out, debounce=debounce, scenarios=scenarios)
        if once:
            return 0 if ww.process(initial=True) and not ww.last_failed else 1
        return ww.run_forever()
    w = Watcher(root, out, debounce=debounce, scenarios=scenarios)
    if octgn is not None:
        from octgn_pack.deploy import DeployError, RulesSync

        try:
            w.on_reload(RulesSync(root, octgn, out))
        except DeployError as exc:
            sys.stderr.write("rulescript watch: error: %s\n" % exc)
            return 2
    if once:
        return w.check_once()
    return w.run_forever()


def build_parser() -> argparse.ArgumentParser:
    p = cliutil.CommandParser(
        prog="rulescript watch",
        description="Watch a game folder: on every save of rules/*.ini, cards.yaml, game.yaml or "
        "scenarios/*.yaml, recompile only the files that changed, re-run the scenarios that involve "
        "the changed cards, and print diagnostics, PASS/FAIL lines and the reload time. A save with "
        "errors keeps the last good rules in force (scenarios are not re-run against broken rules); "
        "the next good save recovers. Ctrl-C stops.")
    p.add_argument("game", metavar="GAME", help="the game folder (with game.yaml / cards.yaml / rules/)")
    p.add_argument("--debounce", type=float, default=50.0, metavar="MS",
                   help="wait until the folder has been quiet this long before reloading, so that a "
                   "burst of saves gives one reload (default: 50)")
    p.add_argument("--no-scenarios", action="store_true", help="only compile; do not run scenarios")
    p.add_argument("--octgn", metavar="DIR",
                   help="an OCTGN data folder where the game is installed ('octgn-pack deploy GAME --data DIR'): "
                   "after every good save, rewrite the installed Scripts/rules.py so that OCTGN's reload scripts "
                   "(developer mode) picks up the change; a broken save leaves it as it was")
    p.add_argument("--once", action="store_true",
                   help="compile and run every scenario once, then exit: 0 if there are no errors and "
                   "no failures, else 1")
    return p


def _new_texts(result: Any, rule_ids: list[str]) -> str:
    """What each changed rule now does, in words (``rulescript explain``), one indented line each."""
    from rulescript.compiler.profile import ProfileError, load_profile
    from rulescript.explain.generate import Generator

    try:
        gen = Generator(load_profile(result.profile), {str(c.get("id")): c for c in result.cards if isinstance(c, dict)})
    except ProfileError:
        return ""
    lines = []
    for rid in rule_ids:
        if rid in result.rules:
            lines.append("  %s: %s\n" % (rid, gen.rule(result.rules[rid]).text))
    return "".join(lines)


def main_watch(argv: list[str] | None = None) -> int:
    """``rulescript watch`` (argv without the program and subcommand names); returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:        # --help (0) and usage errors (2)
        return int(exc.code or 0)
    if args.debounce < 0:
        sys.stderr.write("rulescript watch: error: --debounce must be >= 0\n")
        return 2
    return run_watch(args.game, sys.stdout, debounce=args.debounce / 1000.0,
                     scenarios=not args.no_scenarios, once=args.once, octgn=args.octgn)


if __name__ == "__main__":  # pragma: no cover - python -m rulescript.watch GAME
    sys.exit(main_watch(sys.argv[1:]))
