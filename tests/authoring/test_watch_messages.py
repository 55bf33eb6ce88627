"""What `rulescript watch` prints after a broken cards.yaml, after its fix, and how it counts sections
(driven through Watcher.process, the synchronous path, on a copy of the demo game)."""

from __future__ import annotations

import io
from pathlib import Path

from rulescript.watch import Watcher
from tests.authoring.test_watch import game  # noqa: F401  (the fixture: a demo copy with two scenario files)


def _take(out: io.StringIO) -> str:
    text = out.getvalue()
    out.truncate(0)
    out.seek(0)
    return text


def test_a_yaml_error_in_cards_yaml_is_the_one_message_and_the_fix_lists_only_changes(game: Path) -> None:
    out = io.StringIO()
    w = Watcher(game, out, debounce=0.0)
    try:
        first = w.initial()
        assert first.ok and first.failed == 0
        total = first.passed
        _take(out)
        cards = (game / "cards.yaml").read_text(encoding="utf-8")
        (game / "cards.yaml").write_text(cards.replace("cards:", "cards: [\n", 1), encoding="utf-8")
        broken = w.process(["cards.yaml"])
        text = _take(out)
        assert not broken.ok
        assert "error[RD101]: invalid YAML" in text
        assert "RS914" not in text and "no card database is loaded" not in text
        assert [d.code for d in broken.diagnostics if d.severity == "warning"] == []
        (game / "cards.yaml").write_text(cards, encoding="utf-8")
        fixed = w.process(["cards.yaml"])
        text = _take(out)
        assert fixed.ok and fixed.passed == total and fixed.failed == 0
        assert "PASS " not in text  # every scenario passed before and passes now: nothing to list
        assert f"{total} passed, 0 failed ({total} passes unchanged, not listed)" in text
    finally:
        w.stop()


def test_a_scenario_whose_result_changed_is_listed_in_a_full_run(game: Path) -> None:
    out = io.StringIO()
    w = Watcher(game, out, debounce=0.0)
    try:
        w.initial()
        rules = game / "rules" / "actions.ini"
        text = rules.read_text(encoding="utf-8")
        start = text.index("[second-wind]")
        end = text.index("\n[", start + 1)
        section = text[start:end]
        assert "draw(3)" in section, section
        rules.write_text(text[:start] + section.replace("draw(3)", "draw(2)") + text[end:], encoding="utf-8")
        w.process(["rules/actions.ini"])
        _take(out)
        (game / "game.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
        again = w.process(["game.yaml"])  # a change of game.yaml re-runs every scenario
        listed = _take(out)
        assert again.failed >= 1
        assert "FAIL second-wind draws three" in listed
        rules.write_text(text, encoding="utf-8")
        (game / "game.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
        w.process(["rules/actions.ini", "game.yaml"])
        listed = _take(out)
        passes = [ln for ln in listed.splitlines() if ln.startswith("PASS ")]
        assert passes and all("second-wind" in ln for ln in passes), listed  # the fixed one, no other
    finally:
        w.stop()


def test_a_one_section_file_with_a_comment_first_is_one_section(game: Path) -> None:
    out = io.StringIO()
    w = Watcher(game, out, debounce=0.0, scenarios=False)
    try:
        w.initial()
        _take(out)
        (game / "rules" / "mine.ini").write_text("# my first card\n\n[baron-cinder]\naction = {F}: damage(250)\n",
                                                 encoding="utf-8")
        res = w.process(["rules/mine.ini"])
        assert res.sections_compiled == {"rules/mine.ini": 1}
        assert "recompiled: rules/mine.ini (1 section)" in _take(out)
    finally:
        w.stop()
