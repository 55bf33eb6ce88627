"""rulescript watch on a werewolf game: a saved WWRF file is re-rendered, recompiled and its scenarios
re-run; a broken save keeps the last good rules (and writes nothing)."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from rulescript.sim.scenario_result import RULES_OVERRIDE
from rulescript.wolf_watch import WolfWatcher

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


class Session:
    """A copy of the game under a werewolf watcher that has done its initial run."""

    def __init__(self, tmp_path: Path) -> None:
        self.game = tmp_path / "werewolf"
        shutil.copytree(GAME, self.game)
        self.out = io.StringIO()
        self.watcher = WolfWatcher(self.game, self.out)
        assert self.watcher.process(initial=True) and self.watcher.last_failed == 0

    def save(self, rel: str, old: str, new: str) -> tuple[bool, str]:
        """Replace ``old`` by ``new`` in a file, let the watcher process it; (accepted, its output)."""
        path = self.game / rel
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        self.out.seek(0)
        self.out.truncate(0)
        ok = self.watcher.process([path])
        return ok, self.out.getvalue()


@pytest.fixture
def session(tmp_path):
    s = Session(tmp_path)
    yield s
    RULES_OVERRIDE.pop(str(s.game.resolve()), None)


def test_a_saved_role_is_rerendered_and_its_scenarios_rerun(session):
    ok, text = session.save("roles/seer", "is a werewolf.", "howls at night.")
    assert ok and "rendered: rules/seer.ini" in text and "reloaded in" in text
    assert "FAIL seer reads a werewolf on night 1" in text      # the scenario expects the old text
    assert "PASS a dead seer divines no more" in text
    assert "judge" not in text                                   # unrelated scenarios are not re-run
    assert "howls at night." in (session.game / "rules" / "seer.ini").read_text(encoding="utf-8")


def test_a_broken_save_keeps_the_last_good_rules(session):
    good = dict(session.watcher.rules)
    ini = (session.game / "rules" / "bodyguard.ini").read_text(encoding="utf-8")
    ok, text = session.save("roles/bodyguard", "Protect @Selection", "Protect @Selection from")
    assert not ok and "bodyguard:" in text and "error[" in text and "rejected in" in text
    assert session.watcher.rules == good and RULES_OVERRIDE[str(session.game.resolve())] == good
    assert (session.game / "rules" / "bodyguard.ini").read_text(encoding="utf-8") == ini   # nothing written
    ok, _text = session.save("roles/bodyguard", "Protect @Selection from", "Protect @Selection")
    assert ok and session.watcher.last_failed == 0


def test_a_hand_edit_of_a_rule_file_reruns_the_scenarios_of_that_section(session):
    ok, text = session.save("rules/medium.ini", "snarls: a werewolf.", "growls.")
    assert ok and "FAIL medium learns that the lynched player was a werewolf" in text
    assert "seer reads" not in text
