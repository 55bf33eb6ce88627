"""A plugin with the shape of a full CFC plugin (tests/importer/fixtures/lantern-court) imports cleanly.

The fixture is invented: its card rules are the dictionary ``CardsRS`` (Scripts/cards_rs.py) that the
engine script reads by card (``CardsRS.get(card.model, "")``); ``Scripts/config_messages.py`` holds a
chat message dictionary named ``RULE_MESSAGES`` (some entries are not literals); a hidden set holds
the plugin's interface (2 Button cards with an alternate face each, 2 Status, 2 Avatar).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulescript.importer import import_plugin_folder

FIXTURES = Path(__file__).parent / "fixtures"
PLUGIN = FIXTURES / "lantern-court"
ROOT = Path(__file__).resolve().parents[2]
GAME_CARDS = {"9132abbc-ec7a-553d-b08d-c908b9cd0fef", "2dabd9b6-be56-529d-995f-3ec93aede6b1",
              "517dd672-2477-58a8-919a-16f97650d492", "293503ae-d2b4-5cca-a27b-b3812af471e6",
              "2dc331b6-0478-5583-ba68-1b76cf63fd68", "c7f2b89f-aa68-51be-a4eb-a587b8ebb967"}


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple:
    base = tmp_path_factory.mktemp("lantern")
    plugin = base / "plugin"
    shutil.copytree(PLUGIN, plugin)
    out = base / "game"
    return import_plugin_folder(plugin, out), out, plugin


def test_the_plugin_imports_with_nothing_lost(imported) -> None:
    report, out, _ = imported
    assert report.exit_code == 0 and report.ok, report.render()
    assert report.dropped == 0 and not report.failed and not report.input_errors
    assert sorted(report.converted) == sorted(GAME_CARDS)
    assert report.cards == 6
    assert report.summary().startswith("ok: 6 rules converted, 0 not converted")
    assert sorted(p.name for p in (out / "rules").iterdir()) == ["cards-rs.ini"]


def test_the_report_names_the_dictionary_read_and_the_one_left_alone(imported) -> None:
    report, _, plugin = imported
    read = [d for d in report.diagnostics if d.code == "RI109"]
    assert len(read) == 1 and read[0].severity == "note"
    assert read[0].message == "the card rules are read from the dictionary 'CardsRS'"
    assert read[0].span.file == str(plugin / "Scripts" / "cards_rs.py") and read[0].span.line == 6
    assert "6 of its 6 keys are GUIDs of the plugin's cards" in read[0].notes
    assert 'the scripts read card rules from it (Scripts/engine.py:8: return CardsRS.get(card.model, ""))' \
        in read[0].notes
    other = [d for d in report.diagnostics if d.code == "RI110"]
    assert len(other) == 1 and "'RULE_MESSAGES' is not read as card rules" in other[0].message
    assert other[0].span.file == str(plugin / "Scripts" / "config_messages.py")
    # the message entries that are not literals are not errors: the dictionary is not rules
    assert not [d for d in report.all_diagnostics() if d.code in ("RI102", "RI103")]


def test_the_interface_set_is_one_note_and_no_lost_card(imported) -> None:
    report, out, plugin = imported
    notes = [d for d in report.diagnostics if d.code == "RI209"]
    assert len(notes) == 1 and notes[0].severity == "note"
    assert notes[0].span.file == str(plugin / "Sets" / "f00dface-0000-4a1b-8c2d-1f2e3d4c5b6a" / "set.xml")
    assert notes[0].message == (
        "the hidden set 'Lantern Court Interface' is the plugin's interface, not game cards (2 Button (Pass "
        "Button, Attack Button), 2 Status (Frozen, Used), 2 Avatar (Lantern Avatar, Moth Avatar), 2 alternate "
        "faces); it is not imported")
    assert [n.split(":")[0] for n in notes[0].notes] == [
        "instead of the Button cards", "instead of the Status cards", "instead of the Avatar cards"]
    assert "turn button" in notes[0].notes[0] and "markers" in notes[0].notes[1]
    assert not [d for d in report.all_diagnostics() if d.code in ("RI204", "RI221")]
    assert report.dropped_cards == 0 and report.dropped_fields == 0
    cards_text = (out / "cards.yaml").read_text(encoding="utf-8")
    assert "Button" not in cards_text and "Avatar" not in cards_text
    assert {c["id"] for c in yaml.safe_load(cards_text)["cards"]} == GAME_CARDS


def test_a_hidden_set_holding_game_cards_is_read_as_cards(tmp_path) -> None:
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    game_set = plugin / "Sets" / "6d1f0a3c-2b4e-4c1d-9a7e-51c0de5e7a01" / "set.xml"
    game_set.write_text(game_set.read_text(encoding="utf-8").replace('version="2.1.0.0">',
                                                                      'version="2.1.0.0" hidden="true">'),
                        encoding="utf-8")
    report = import_plugin_folder(plugin, tmp_path / "game")
    assert report.ok and report.cards == 6
    assert len([d for d in report.diagnostics if d.code == "RI209"]) == 1  # the interface set only


def test_without_a_sign_every_rules_named_dictionary_is_read_as_before(tmp_path) -> None:
    """No script reads CardsRS by card and its keys are not the sets' cards: the name decides, as for one
    file, so the message dictionary is read too (and its non-literal entries are errors)."""
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    (plugin / "Scripts" / "engine.py").write_text("def rulesOf(card):\n    return ''\n", encoding="utf-8")
    for s in (plugin / "Sets").iterdir():
        shutil.rmtree(s)
    report = import_plugin_folder(plugin, tmp_path / "game", allow_partial=True)
    assert not [d for d in report.diagnostics if d.code in ("RI109", "RI110")]
    assert len([d for d in report.diagnostics if d.code == "RI102"]) == 3  # handFull, needSP, badPhase


def test_the_command_exits_0_and_says_so(tmp_path) -> None:
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    proc = subprocess.run([sys.executable, "-m", "rulescript", "import", str(plugin), "-o", str(tmp_path / "g")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout + proc.stderr
    assert "note[RI109]: the card rules are read from the dictionary 'CardsRS'" in out
    assert out.count("[RI209]") == 1
    assert "error[" not in out


def test_the_imported_game_builds_into_a_package(imported, tmp_path) -> None:
    from octgn_pack.build import build

    _, out, _ = imported
    b = build(out, tmp_path / "dist", check_py27=False)
    assert b.ok, [d.message for d in b.diagnostics if d.is_error]
    assert sorted(p.name for p in b.written) == ["lantern-court-2.1.0.0.nupkg", "lantern-court-2.1.0.0.o8g"]
