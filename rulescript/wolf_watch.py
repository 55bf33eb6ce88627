"""Authoring loop of a werewolf game rendered from WWRF: ``rulescript watch cards/werewolf``.

When a game folder of the werewolf profile has a ``roles/`` book, the watcher follows the WWRF files:

1. a saved WWRF file, rule file (a game master's hand edit) or scenario is noticed; a burst of events
   gives one reload (``debounce``);
2. the whole book is rendered in memory (``wwrf render``): if it has errors (a parse error or a
   located WW401 "not supported"), they are printed and **nothing is written**: the last good
   ``rules/`` and rules in force stay;
3. otherwise the rendered files that changed are written and the game is compiled; a compile error
   keeps the last good rules in force too;
4. the new rules become the rules in force (``RULES_OVERRIDE``) and the scenarios of the changed
   sections are re-run: those whose last run resolved one of them (or, never run yet, whose text names
   the changed element); a changed scenario file re-runs itself;
5. the result ends with ``reloaded in N ms`` (or ``rejected in N ms``).

``WolfWatcher(game).process([paths])`` is the synchronous core (tests and the benchmark call it).
"""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterable

from rulescript.compiler import compile_game
from rulescript.diagnostics import render as render_diag
from rulescript.rule_diff import changed_rule_ids
from rulescript.sim import wolf_scenarios
from rulescript.sim.scenario_result import RULES_OVERRIDE


class WolfWatcher:
    def __init__(self, game_dir: str | Path, out: Any = None, debounce: float = 0.05,
                 scenarios: bool = True) -> None:
        self.game = Path(game_dir).resolve()
        self.book = self.game / "roles"
        self.out = out if out is not None else sys.stdout
        self.debounce = debounce
        self.scenarios = scenarios
        self.rules: dict | None = None
        self.last_ok = True
        self.involved: dict[str, set] = {}   # scenario file -> rule ids its scenarios resolved
        self._key = str(self.game)
        self._lock = threading.Lock()
        self.last_ms = 0.0
        self.last_passed = self.last_failed = 0

    # ------------------------------------------------------------------ core
    def _say(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def process(self, paths: Iterable[str | Path] = (), initial: bool = False, t0: float | None = None) -> bool:
        """Re-render, recompile and re-test after ``paths`` changed; True if the new rules are in force."""
        from wwrf_adapter.render import render_book, write_game

        t0 = time.perf_counter() if t0 is None else t0
        with self._lock:
            rels = [os.path.relpath(os.path.abspath(p), self.game).replace(os.sep, "/") for p in paths]
            scen_changed = {r for r in rels if r.startswith("scenarios/")}
            book_changed = initial or any(r.startswith("roles/") for r in rels)
            self._say("[%s] %s\n" % (time.strftime("%H:%M:%S"), "initial render of %s" % self.game if initial
                                      else "changed: " + ", ".join(rels)))
            changed_rules: set[str] = set()
            changed_elements: set[str] = set()
            if book_changed:
                result = render_book(self.book, self.game, write=False)
                if result.diagnostics:
                    for d in result.diagnostics:
                        self._say(render_diag(d, result.sources.get(d.span.file)) + "\n")
                    return self._reject(t0, "the book does not render")
                written = write_game(self.game, result.files)
                changed_elements = {rel[len("rules/"):-len(".ini")] for rel in written if rel.startswith("rules/")}
                if written:
                    self._say("rendered: %s\n" % ", ".join(written))
            compiled = compile_game(self.game)
            if not compiled.ok:
                self._say(compiled.render() + "\n")
                return self._reject(t0, "the rules do not compile")
            if self.rules is not None:  # a hand edit of rules/*.ini counts as well as a render
                changed_rules |= changed_rule_ids(self.rules, compiled.rules)
            self.rules = compiled.rules
            RULES_OVERRIDE[self._key] = compiled.rules
            if self.scenarios:
                self._run(initial, scen_changed, changed_rules, changed_elements)
            self.last_ms = (time.perf_counter() - t0) * 1000
            self.last_ok = True
            self._say("reloaded in %.0f ms\n" % self.last_ms)
            return True

    def _reject(self, t0: float, why: str) -> bool:
        self.last_ok = False
        self.last_ms = (time.perf_counter() - t0) * 1000
        kept = "the last good rules stay in force" if self.rules is not None else "no rules yet"
        self._say("errors (%s): %s\nrejected in %.0f ms\n" % (why, kept, self.last_ms))
        return False

    def _run(self, everything: bool, scen_changed: set, rules: set, elements: set) -> None:
        files = sorted((self.game / "scenarios").glob("*.yaml")) if (self.game / "scenarios").is_dir() else []
        passed = failed = 0
        for f in files:
            rel = "scenarios/" + f.name
            text = f.read_text(encoding="utf-8")
            # a scenario whose last run resolved a changed section; one that never ran, if it names the element
            wanted = everything or rel in scen_changed or bool(self.involved.get(rel, set()) & rules) or \
                (rel not in self.involved and any(e in text for e in elements))
            if not wanted:
                continue
            ran: set = set()
            for r in wolf_scenarios.run_file(f):
                ran |= r.ran
                if r.status == "fail":
                    failed += 1
                    self._say("FAIL %s\n%s\n" % (r.name, "\n".join("    " + x for x in r.failures)))
                else:
                    passed += 1
                    self._say("PASS %s\n" % r.name)
            self.involved[rel] = ran
        self.last_passed, self.last_failed = passed, failed
        self._say("%d passed, %d failed\n" % (passed, failed))

    # ------------------------------------------------------------------ the loop
    def run_forever(self) -> int:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        self.process(initial=True)
        pending: dict[str, float] = {}
        cv = threading.Condition()
        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:  # noqa: D401 - watchdog callback
                if event.is_directory:
                    return
                for p in (getattr(event, "src_path", None), getattr(event, "dest_path", None)):
                    if not p:
                        continue
                    rel = os.path.relpath(os.path.abspath(p), watcher.game).replace(os.sep, "/")
                    name = rel.rsplit("/", 1)[-1]
                    if name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp")):
                        continue
                    if rel.startswith("roles/") or (rel.startswith("scenarios/") and rel.endswith(".yaml")) or \
                            (rel.startswith("rules/") and rel.endswith(".ini")):
                        with cv:
                            pending.setdefault(rel, time.perf_counter())
                            cv.notify()

        obs = Observer()
        obs.schedule(Handler(), str(self.game), recursive=True)
        obs.start()
        try:
            while True:
                with cv:
                    while not pending:
                        cv.wait(0.5)
                    time.sleep(self.debounce)
                    batch = dict(pending)
                    pending.clear()
                self.process(sorted(batch), t0=min(batch.values()))
        except KeyboardInterrupt:
            self.out.write("\nstopped\n")
            return 130  # interrupted, as every command
        finally:
            obs.stop()


def is_wolf_game(game_dir: str | Path) -> bool:
    from rulescript.compiler.driver import game_profile_name

    root = Path(game_dir)
    return (root / "roles").is_dir() and game_profile_name(root)[0] == "werewolf"
