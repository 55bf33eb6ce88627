"""rulescript watch on a werewolf game: a saved WWRF file is re-rendered, recompiled and its scenarios
re-run; a broken save keeps the last good rules (and writes nothing)."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

from rulescript.sim.scenario_result import RULES_OVERRIDE
from rulescript.wolf_watch import WolfWatcher

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


def _copy(tmp_path: Path) -> Path:
    game = tmp_path / "werewolf"
    shutil.copytree(GAME, game)
    return game


def test_a_saved_role_is_rerendered_and_its_scenarios_rerun(tmp_path):
    game = _copy(tmp_path)
    out = io.StringIO()
    w = WolfWatcher(game, out)
    try:
        assert w.process(initial=True) and w.last_failed == 0
        seer = game / "roles" / "seer"
        seer.write_text(seer.read_text(encoding="utf-8").replace("is a werewolf.", "howls at night."), encoding="utf-8")
        out.seek(0)
        out.truncate(0)
        assert w.process([seer])
        text = out.getvalue()
        assert "rendered: rules/seer.ini" in text and "reloaded in" in text
        assert "FAIL seer reads a werewolf on night 1" in text      # the scenario expects the old text
        assert "PASS a dead seer divines no more" in text
        assert "judge" not in text                                   # unrelated scenarios are not re-run
        assert "howls at night." in (game / "rules" / "seer.ini").read_text(encoding="utf-8")
    finally:
        RULES_OVERRIDE.pop(str(game.resolve()), None)


def test_a_broken_save_keeps_the_last_good_rules(tmp_path):
    game = _copy(tmp_path)
    out = io.StringIO()
    w = WolfWatcher(game, out)
    try:
        assert w.process(initial=True)
        good = dict(w.rules)
        ini = (game / "rules" / "bodyguard.ini").read_text(encoding="utf-8")
        bg = game / "roles" / "bodyguard"
        bg.write_text(bg.read_text(encoding="utf-8").replace("Protect @Selection", "Protect @Selection from"), encoding="utf-8")
        out.seek(0)
        out.truncate(0)
        assert not w.process([bg])
        text = out.getvalue()
        assert "bodyguard:" in text and "error[" in text and "rejected in" in text
        assert w.rules == good and RULES_OVERRIDE[str(game.resolve())] == good
        assert (game / "rules" / "bodyguard.ini").read_text(encoding="utf-8") == ini   # nothing written
        bg.write_text((GAME / "roles" / "bodyguard").read_text(encoding="utf-8"), encoding="utf-8")
        assert w.process([bg]) and w.last_failed == 0
    finally:
        RULES_OVERRIDE.pop(str(game.resolve()), None)
