"""The hot-reload watcher (rulescript/watch.py), driven through real watchdog events.

Every test copies the demo game into a temporary folder, starts a real :class:`Watcher` (a real
watchdog observer on that folder), edits files on disk the way editors do, and waits (with a
timeout) for the reloads it reports through ``on_reload`` and for the lines it prints.  The copy keeps
two scenario files of the demo (actions and reactions) so that the initial full run stays short.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from rulescript import watch as watch_mod
from rulescript.sim import scenario as scenario_mod
from rulescript.watch import Watcher, classify, main_watch

DEMO = Path(__file__).resolve().parents[2] / "cards" / "cfc-demo"
KEEP_SCENARIOS = ("actions.yaml", "reactions.yaml")
SECOND_WIND = "second-wind draws three, then discards the two chosen cards"
BLACK_MARKET = "black-market discards two cards as a cost and gives 2 SP"
TIMEOUT = 10.0


class Output:
    """A thread-safe text sink for the watcher, with waiting for lines."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._cv = threading.Condition()

    def write(self, text: str) -> int:
        with self._cv:
            self._parts.append(text)
            self._cv.notify_all()
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        with self._cv:
            return "".join(self._parts)

    def mark(self) -> int:
        return len(self.text())

    def wait_for(self, pattern: str, since: int = 0, timeout: float = TIMEOUT) -> re.Match:
        rx = re.compile(pattern, re.M)
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                m = rx.search("".join(self._parts)[since:])
                if m:
                    return m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no line matching %r within %.0f s; output since the mark:\n%s"
                                         % (pattern, timeout, "".join(self._parts)[since:]))
                self._cv.wait(left)


class Harness:
    """A started watcher on a game copy, its output, and the reload results as they arrive."""

    def __init__(self, game: Path, debounce: float = 0.05) -> None:
        self.game = game
        self.out = Output()
        self.watcher = Watcher(game, self.out, debounce=debounce)
        self.results: list = []
        self._cv = threading.Condition()
        self.watcher.on_reload(self._got)

    def _got(self, res) -> None:
        with self._cv:
            self.results.append(res)
            self._cv.notify_all()

    def start(self):
        return self.watcher.start()

    def next_reload(self, after: int, timeout: float = TIMEOUT):
        """The first reload result after the first ``after`` results."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while len(self.results) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no reload within %.0f s; output:\n%s" % (timeout, self.out.text()))
                self._cv.wait(left)
            return self.results[after]

    def save(self, rel: str, text: str):
        """Write a file like a plain editor and wait for the reload it causes.  On a busy machine the
        writer can be paused between truncating and writing for longer than the debounce; the watcher
        then reloads twice (the second time with the whole text), so the last reload that comes
        within a short settling time is the one returned."""
        n, mark = len(self.results), self.out.mark()
        (self.game / rel).write_text(text, encoding="utf-8")
        res = self.next_reload(n)
        with self._cv:
            while self._cv.wait_for(lambda: self.results[-1] is not res, timeout=0.15):
                res = self.results[-1]
        return res, mark

    def rules_text(self) -> str:
        return (self.game / "rules" / "actions.ini").read_text(encoding="utf-8")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    dst = tmp_path / "game"
    shutil.copytree(DEMO, dst)
    for f in (dst / "scenarios").iterdir():
        if f.name not in KEEP_SCENARIOS:
            f.unlink()
    return dst


@pytest.fixture
def harness(game: Path):
    made: list[Harness] = []

    def make(debounce: float = 0.05, prepare=None) -> Harness:
        if prepare is not None:
            prepare(game)
        h = Harness(game, debounce)
        made.append(h)
        h.start()
        return h

    yield make
    for h in made:
        h.watcher.stop()


def _set_rule(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _scenario_names(res) -> list[str]:
    return [r.name for r in res.scenarios]


# ---------------------------------------------------------------------------------------------- 1
def test_an_edit_that_fixes_a_card_reruns_only_its_scenarios(harness):
    def break_card(g: Path) -> None:
        p = g / "rules" / "actions.ini"
        p.write_text(_set_rule(p.read_text(), "action = draw(3) & discard(2)", "action = draw(2) & discard(2)"))

    h = harness(prepare=break_card)
    initial = h.results[0]
    assert initial.initial and initial.ok
    assert "FAIL %s" % SECOND_WIND in h.out.text()
    assert initial.failed >= 1 and initial.passed > 30       # every scenario ran at the start

    res, mark = h.save("rules/actions.ini", _set_rule(h.rules_text(), "draw(2) & discard(2)",
                                                      "draw(3) & discard(2)"))
    assert res.ok and not res.initial
    assert res.recompiled == ["rules/actions.ini"]
    assert res.sections_compiled == {"rules/actions.ini": 1}     # the edited rule only
    h.out.wait_for(r"^recompiled: rules/actions\.ini \(1 section\)$", mark)
    assert res.changed_rules == {"second-wind"}
    # only the scenarios that involve second-wind ran, and they pass now
    assert SECOND_WIND in _scenario_names(res)
    assert BLACK_MARKET not in _scenario_names(res)
    assert len(res.scenarios) < initial.passed + initial.failed
    h.out.wait_for(r"^PASS %s$" % re.escape(SECOND_WIND), mark)
    h.out.wait_for(r"^%d passed, 0 failed$" % len(res.scenarios), mark)
    h.out.wait_for(r"^reloaded in \d+ ms \(1 file recompiled, %s\b" %
                   re.escape(watch_mod._plural(len(res.scenarios), "scenario")), mark)
    assert 0 < res.total_seconds < TIMEOUT and res.wait_seconds >= h.watcher.debounce * 0.9

    # and breaking it again shows the FAIL line with its reason for that scenario only
    res, mark = h.save("rules/actions.ini", _set_rule(h.rules_text(), "draw(3) & discard(2)",
                                                      "draw(1) & discard(2)"))
    h.out.wait_for(r"^FAIL %s\n    \S" % re.escape(SECOND_WIND), mark)
    assert res.failed >= 1 and BLACK_MARKET not in _scenario_names(res)


# ---------------------------------------------------------------------------------------------- 2, 3
def test_a_syntax_error_keeps_the_last_good_rules_and_the_next_good_save_recovers(harness, game):
    h = harness()
    key = str(game.resolve())
    good = scenario_mod.RULES_OVERRIDE[key]
    assert good is h.watcher.rules and "second-wind" in good

    res, mark = h.save("rules/actions.ini", _set_rule(h.rules_text(), "draw(3) & discard(2)",
                                                      "draw(3 & discard(2)"))
    assert not res.ok and res.kept_last_good and res.scenarios == []
    text = h.out.wait_for(r"^rejected in \d+ ms", mark) and h.out.text()[mark:]
    # a located diagnostic, the source line and a caret, like the compiler prints it
    assert re.search(r"rules[/\\]actions\.ini:\d+:\d+: error\[RS\d+\]: ", text), text
    assert re.search(r"^    action = draw\(3 & discard\(2\)$\n^ +\^~*$", text, re.M), text
    assert re.search(r"^errors: keeping the last good rules \(loaded \d\d:\d\d:\d\d\)", text, re.M)
    assert not re.search(r"^(PASS|FAIL) ", text, re.M)      # nothing ran against broken rules
    # the scenarios still see the old rules
    assert scenario_mod.RULES_OVERRIDE[key] is good and h.watcher.rules is good
    ran = scenario_mod.run_file(game / "scenarios" / "actions.yaml")
    assert [r.status for r in ran if r.name == SECOND_WIND] == ["pass"]

    # a second broken save is still rejected and still keeps the same rules
    res, mark = h.save("rules/actions.ini", h.rules_text().replace("draw(3 & discard(2)", "draw(3) &"))
    assert not res.ok and scenario_mod.RULES_OVERRIDE[key] is good

    # 3: the next good save recovers without a restart, with the new rules in force
    res, mark = h.save("rules/actions.ini", h.rules_text().replace("action = draw(3) &\n",
                                                                   "action = draw(2) & discard(2)\n"))
    assert res.ok and res.recovered
    h.out.wait_for(r"^recovered: rules reloaded$", mark)
    assert scenario_mod.RULES_OVERRIDE[key] is res.rules is not good
    assert res.changed_rules == {"second-wind"}
    h.out.wait_for(r"^FAIL %s$" % re.escape(SECOND_WIND), mark)     # draw(2) really is in force
    h.out.wait_for(r"^reloaded in \d+ ms", mark)


# ---------------------------------------------------------------------------------------------- 4
def test_an_atomic_rename_save_is_seen_and_the_temp_file_is_ignored(harness, game):
    h = harness()
    n, mark = len(h.results), h.out.mark()
    target = game / "rules" / "actions.ini"
    tmp = game / "rules" / "actions.ini.tmp"
    tmp.write_text(_set_rule(h.rules_text(), "action = {D(2)}: sp(+2)", "action = {D(2)}: sp(+3)"))
    os.replace(tmp, target)
    res = h.next_reload(n)
    assert res.changed == ["rules/actions.ini"]                       # not the .tmp name
    assert res.recompiled == ["rules/actions.ini"] and res.changed_rules == {"black-market"}
    assert _scenario_names(res) == [BLACK_MARKET]
    h.out.wait_for(r"^FAIL %s$" % re.escape(BLACK_MARKET), mark)
    h.out.wait_for(r"^0 passed, 1 failed$", mark)
    # temp and backup files alone never cause a reload
    for name in ("actions.ini.tmp", "actions.ini~", ".#actions.ini", ".actions.ini.swp"):
        (game / "rules" / name).write_text("[broken\n")
    time.sleep(0.4)
    assert len(h.results) == n + 1


# ---------------------------------------------------------------------------------------------- 5
def test_a_burst_of_quick_saves_gives_one_reload(harness):
    h = harness(debounce=0.25)
    n, mark = len(h.results), h.out.mark()
    text = h.rules_text()
    path = h.game / "rules" / "actions.ini"
    for sp in (3, 4, 5, 6, 2):          # five saves; the last one is the original text
        path.write_text(_set_rule(text, "{D(2)}: sp(+2)", "{D(2)}: sp(+%d)" % sp), encoding="utf-8")
    res = h.next_reload(n)
    time.sleep(0.6)                     # more than the debounce: a second reload would have come
    assert len(h.results) == n + 1, h.out.text()[mark:]
    assert h.out.text()[mark:].count("reloaded in") == 1
    assert res.ok and res.changed_rules == set()     # the burst ended on the original text
    h.out.wait_for(r"^no scenario involves the change$", mark)


# ---------------------------------------------------------------------------------------------- 6
def test_bad_input_and_internal_errors_do_not_kill_the_watcher(harness, game, monkeypatch):
    h = harness()
    key = str(game.resolve())
    good = h.watcher.rules
    cards = (game / "cards.yaml").read_text(encoding="utf-8")

    # invalid YAML in cards.yaml: a located diagnostic; the last good rules stay
    res, mark = h.save("cards.yaml", cards.replace("cards:\n", "cards:\n  - id: [unclosed\n", 1))
    assert not res.ok and res.kept_last_good
    h.out.wait_for(r"cards\.yaml:\d+:\d+: error\[RD101\]: invalid YAML", mark)
    h.out.wait_for(r"^errors: keeping the last good rules", mark)
    assert scenario_mod.RULES_OVERRIDE[key] is good

    # a broken scenario file saved while the rules are broken is not run yet ...
    res, mark = h.save("scenarios/extra.yaml", "- name: [oops\n")
    assert not res.ok and res.scenarios == [] and scenario_mod.RULES_OVERRIDE[key] is good
    # ... but once cards.yaml is fixed, every scenario runs, and the broken file is one failure
    res, mark = h.save("cards.yaml", cards)
    assert res.ok and res.recovered
    assert any(r.status == "fail" and r.name == "scenarios/extra.yaml" for r in res.scenarios)
    h.out.wait_for(r"^FAIL scenarios/extra\.yaml\n    .*extra\.yaml:\d+:\d+: error\[SC\d+\]", mark)

    # an exception inside the watcher is printed with its type; the watcher goes on
    def boom(*_a, **_k):
        raise RuntimeError("boom in the diff")

    monkeypatch.setattr(watch_mod, "changed_rule_ids", boom)
    res, mark = h.save("rules/actions.ini", _set_rule(h.rules_text(), "sp(+2)", "sp(+1)"))
    assert res.error == "RuntimeError: boom in the diff"
    h.out.wait_for(r"^error while reloading: RuntimeError: boom in the diff", mark)
    monkeypatch.undo()

    # a deleted rule file is reported; its rules go away and the scenarios that used them re-run
    n, mark = len(h.results), h.out.mark()
    (game / "rules" / "reactions.ini").unlink()
    res = h.next_reload(n)
    assert res.ok and "rules/reactions.ini" in res.changed
    h.out.wait_for(r"^\[\d\d:\d\d:\d\d\] changed: rules/reactions\.ini \(deleted\)$", mark)
    assert "counter-stance" not in h.watcher.rules and res.failed >= 1

    # and it still reloads normally afterwards
    res, mark = h.save("rules/actions.ini", _set_rule(h.rules_text(), "draw(3) & discard(2)",
                                                      "draw(3) & discard(2) "))
    assert res.ok and res.error is None and res.recompiled == ["rules/actions.ini"]
    assert res.changed_rules == set()


@pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")   # watchdog re-adding a watch
def test_a_rules_folder_moved_away_and_back_is_seen(harness, game):
    h = harness()
    n, mark = len(h.results), h.out.mark()
    away = game.parent / "rules.off"
    os.rename(game / "rules", away)                     # out of the watched folder: a folder event
    res = h.next_reload(n)
    assert res.ok and "rules/" in res.changed and h.watcher.rules == {}
    assert res.failed > 0                               # every scenario re-ran without card rules
    h.out.wait_for(r"^\[\d\d:\d\d:\d\d\] changed: rules/ \(deleted\)$", mark)
    n, mark = len(h.results), h.out.mark()
    os.rename(away, game / "rules")
    res = h.next_reload(n)
    assert res.ok and "second-wind" in h.watcher.rules and res.failed == 0 and res.passed > 30


# ---------------------------------------------------------------------------------------------- misc
def test_stop_restores_rules_override_and_process_works_without_events(game):
    key = str(game.resolve())
    out = Output()
    w = Watcher(game, out, scenarios=False)
    assert key not in scenario_mod.RULES_OVERRIDE
    first = w.initial()
    assert first.ok and scenario_mod.RULES_OVERRIDE[key] is w.rules and first.scenarios == []
    p = game / "rules" / "powers.ini"
    p.write_text(p.read_text() + "\n# a comment\n")
    res = w.process(["rules/powers.ini"])            # the synchronous path, no observer
    assert res.ok and res.recompiled == ["rules/powers.ini"] and res.changed_rules == set()
    w.stop()
    assert key not in scenario_mod.RULES_OVERRIDE


@pytest.mark.parametrize("rel, kind", [
    ("rules/actions.ini", "rules"), ("rules/sub/x.ini", "rules"), ("cards.yaml", "cards"),
    ("game.yaml", "game"), ("scenarios/a.yaml", "scenario"), ("scenarios/deep/b.yml", "scenario"),
    ("rules/actions.ini.tmp", None), ("rules/actions.ini~", None), ("rules/.#actions.ini", None),
    ("rules/.actions.ini.swp", None), ("rules/#actions.ini#", None), ("decks/a.yaml", None),
    ("scenarios/a.yaml.swp", None), ("sub/cards.yaml", None), ("notes.ini", None),
])
def test_which_paths_are_watched(rel, kind):
    assert classify(rel) == kind


def test_main_watch_once_and_help(game, capsys):
    assert main_watch([str(game), "--once", "--no-scenarios"]) == 0
    assert "compiled 1" in capsys.readouterr().out
    p = game / "rules" / "actions.ini"
    p.write_text(p.read_text().replace("draw(3) & discard(2)", "draw(3 & discard(2)"))
    assert main_watch([str(game), "--once", "--no-scenarios"]) == 1
    assert main_watch(["--help"]) == 0
    assert "--debounce MS" in capsys.readouterr().out
    assert main_watch([str(game / "nowhere")]) == 2


def test_compiling_by_section_gives_the_whole_file_result():
    from rulescript.compiler import driver as C
    from rulescript.compiler import CompileCache
    from rulescript.watch import compile_by_section

    prof = C.load_profile("cfc")
    db, fp = C._card_database(C.load_cards(DEMO / "cards.yaml")[0])
    for f in C.rule_files(DEMO):
        for text in (C.read_text(f), "\ufeff" + C.read_text(f).replace("\n", "\r\n")):
            whole = C.compile_source(text, str(f), prof, db, None, fp)
            parts = compile_by_section(text, str(f), prof, db, CompileCache(), fp)
            assert parts is not None and whole.rules
            assert (parts.rules, parts.diagnostics, parts.used) == (whole.rules, whole.diagnostics, whole.used)
    # an edit of one rule compiles that rule only, and gives what a whole-file compile gives
    f = DEMO / "rules" / "actions.ini"
    cache = CompileCache()
    compile_by_section(C.read_text(f), str(f), prof, db, cache, fp)
    misses = cache.misses
    edited = _set_rule(C.read_text(f), "draw(3) & discard(2)", "draw(2) & discard(2)")
    parts = compile_by_section(edited, str(f), prof, db, cache, fp)
    assert cache.misses - misses == 1
    assert parts.rules == C.compile_source(edited, str(f), prof, db, None, fp).rules
    # an error, or an id defined twice, leaves the file to a whole-file compile (exact diagnostics)
    assert compile_by_section("[a-card]\naction = draw(\n", "x.ini", prof, db, CompileCache(), fp) is None
    dup = "[a-card]\naction = draw()\n\n[a-card]\naction = draw(2)\n"
    assert compile_by_section(dup, "x.ini", prof, db, CompileCache(), fp) is None
    assert any(d.code == "RS104" for d in C.compile_source(dup, "x.ini", prof, db, None, fp).diagnostics)
