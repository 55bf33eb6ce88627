"""`rulescript import PLUGIN_DIR` on a whole OCTGN plugin folder (tests/importer/fixtures/harbor-lights).

The plugin is invented for these tests: two sets, a configuration script whose ability glyphs are font
code points, backups in Backup 1..3, actions and reactions, a multi-name pick, four decks (one of them
a test deck that breaks the deck rules) in Decks/ and folders below it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulescript.cli import main as cli_main
from rulescript.compiler import compile_game
from rulescript.importer import import_plugin_folder, main_import
from rulescript.importer import rewrite
from rulescript.sim.cards import load_game
from rulescript.sim.scenario import run_folder

FIXTURES = Path(__file__).parent / "fixtures"
PLUGIN = FIXTURES / "harbor-lights"
EXPECTED_CARDS = FIXTURES / "harbor-lights-cards.yaml"
SCENARIOS = FIXTURES / "harbor-lights-scenarios"
SET1 = "31ef2acf-4bfc-5735-b7b6-b5606917210b"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple:
    base = tmp_path_factory.mktemp("harbor")
    plugin = base / "plugin"
    shutil.copytree(PLUGIN, plugin)
    out = base / "game"
    report = import_plugin_folder(plugin, out)
    return report, out, plugin


def _line_of(path: Path, needle: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {path}")


# --------------------------------------------------------------------------- what is written

def test_the_plugin_imports_without_dropping_anything(imported) -> None:
    report, out, plugin = imported
    assert report.ok and report.exit_code == 0, report.render()
    assert report.dropped == 0 and not report.failed
    assert len(report.converted) == 22 and report.cards == 27
    assert report.summary().startswith("ok: 22 rules converted, 0 not converted")
    assert "dropped: 0 rules, 0 card fields, 0 cards, 0 deck entries, 0 unreadable inputs" in report.summary()
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "cards.yaml", "decks/broken/tests-all-gulls.yaml", "decks/harbor-patrol.yaml", "decks/smugglers-run.yaml",
        "decks/tournament-mixed-tides.yaml", "game.yaml", "rules/rules.ini"]
    assert not list(plugin.rglob("EXECUTED.txt"))  # no script of the plugin ran


def test_cards_yaml_equals_the_expected_one_field_by_field(imported) -> None:
    _, out, _ = imported
    got = yaml.safe_load((out / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    want = yaml.safe_load(EXPECTED_CARDS.read_text(encoding="utf-8"))["cards"]
    assert [c["id"] for c in got] == [c["id"] for c in want]
    for g, w in zip(got, want):
        for key in sorted(set(g) | set(w)):
            assert g.get(key) == w.get(key), f"{w['name']}: field {key!r}"
    by_name = {c["name"]: c for c in got}
    # the fields the issue found dropped: ability kind and backups, from font code points and Backup 1..3
    assert by_name["Harbor Master"]["ability"] == {"kind": "auto", "name": "ROLL CALL"}
    assert by_name["Harbor Master"]["backup"] == ["keeper", "sailor", "smuggler"]
    assert by_name["Foghorn Crab"]["ability"] == {"kind": "auto", "name": "FOGHORN"}  # glyph in 'Ability' only
    assert "£" not in by_name["Harbor Master"]["text"] and "■ abilities" in by_name["Harbor Master"]["text"]
    assert {c["type"] for c in got} == {"character", "action", "reaction"}
    assert all(c["sp"] <= 0 for c in got if c["type"] != "character")


def test_game_yaml_carries_the_definition(imported) -> None:
    _, out, _ = imported
    game = yaml.safe_load((out / "game.yaml").read_text(encoding="utf-8"))
    assert (game["profile"], game["id"], game["name"], game["version"]) == (
        "cfc", "a03c3f4f-cd5b-5b62-9cf8-1fdb3e35b273", "Harbor Lights", "1.0.3.0")
    octgn = game["octgn"]
    assert octgn["card"] == {"width": 63, "height": 88, "cornerRadius": 3, "front": "Resources/front.png",
                             "back": "Resources/back.png"}
    assert [p["name"] for p in octgn["player"]["piles"]] == ["Hand", "Deck", "Discard pile", "Removed pile"]
    assert octgn["player"]["piles"][1] == {"name": "Deck", "visibility": "none", "shuffle": True,
                                           "viewState": "pile", "icon": "Resources/deck.png"}
    assert octgn["player"]["counters"] == [{"name": "HP", "default": 3000, "icon": "Resources/hp.png"},
                                           {"name": "SP", "default": 0, "icon": "Resources/sp.png"}]
    assert [p["name"] for p in octgn["phases"]] == ["Activate", "Draw", "Main", "Attack", "Counter-attack", "End",
                                                    "Cleanup"]
    assert octgn["deck_sections"] == [{"name": "Main", "group": "Deck"}]
    assert [p["name"] for p in octgn["properties"]][:4] == ["Type", "Subtype", "BP", "SP"]
    assert octgn["table"]["width"] == 1200 and octgn["scriptVersion"] == "3.1.0.2"


def test_ids_are_normalised_everywhere(imported) -> None:
    _, out, plugin = imported
    assert "{A03C3F4F" in (plugin / "definition.xml").read_text(encoding="utf-8")
    assert "{" in (plugin / "Decks" / "Harbor Patrol.o8d").read_text(encoding="utf-8")
    guid = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            found = guid.findall(text)
            assert found and all(g == g.lower() for g in found), path
            assert not re.search(r"\{" + guid.pattern, text), path


def test_decks_are_converted_and_the_test_deck_is_reported(imported) -> None:
    report, out, plugin = imported
    data = load_game(out)  # the simulator's own checks: 50 cards, at most 3 copies, known ids
    assert data.deck_names() == ["harbor-patrol", "smugglers-run", "tournament-mixed-tides"]
    assert {n: len(data.deck_list(n)) for n in data.deck_names()} == dict.fromkeys(data.deck_names(), 50)
    assert data.decks["tournament-mixed-tides"]["name"] == "Mixed Tides"
    assert report.broken_decks == ["tests-all-gulls"]
    deck = plugin / "Decks" / "Tests" / "All Gulls.o8d"
    warnings = {(d.span.line, d.message) for d in report.diagnostics if d.code == "RI232"}
    assert warnings == {(_line_of(deck, 'qty="4"'), "the deck breaks the deck rules: 4 copies of 'Gull Rider' (at most 3)"),
                        (_line_of(deck, "<deck "), "the deck breaks the deck rules: 10 cards (a deck holds 50)")}
    broken = yaml.safe_load((out / "decks" / "broken" / "tests-all-gulls.yaml").read_text(encoding="utf-8"))
    assert broken["name"] == "All Gulls" and sum(broken["cards"].values()) == 10


def test_rules_and_glyphs_come_from_the_scripts(imported) -> None:
    report, out, _ = imported
    ini = (out / "rules" / "rules.ini").read_text(encoding="utf-8")
    assert 'target?("Red Buoy"<1>@myDeck; "Green Buoy"<1>@myDeck)' in ini
    assert 'target? = "Red Buoy"<1>@myDeck; "Green Buoy"<1>@myDeck\nrequisite = "Red Buoy","Green Buoy"<1>@myDeck' in ini
    # GameRulesDefaults in constants.py names "rules" but holds none: it is not read as rules
    assert not [d for d in report.diagnostics if d.span.file.endswith("constants.py")]


# --------------------------------------------------------------------------- it plays

def test_the_imported_game_checks_and_simulates_with_full_coverage(imported) -> None:
    _, out, _ = imported
    assert cli_main(["check", str(out), "--no-cache"]) == 0
    from rulescript.sim.host import load_table, new_engine
    from rulescript.sim.simulate import simulate

    table = load_table(out)
    res = simulate(out, 500, 1, data=table.data, rules_factory=lambda: new_engine(table.rules), rules_ir=table.rules)
    assert res["games"] == 500 and res["errors"] == 0 and res["rule_errors"] == 0, res["error_groups"]
    cov = res["coverage"]
    assert cov["never_in_decks"] == [] and cov["errors"] == []
    assert set(cov["in_decks"]) <= set(cov["resolved"]) | set(cov["present"])
    assert cov["present"] == ["5123831c-c353-5f8c-9ba2-3e71d498887b"]  # Gull Rider: abilities only
    assert len(cov["resolved"]) == 21


def test_one_scenario_per_rewrite_keeps_the_original_meaning(imported, tmp_path: Path) -> None:
    _, out, _ = imported
    game = tmp_path / "game"
    shutil.copytree(out, game)
    shutil.copytree(SCENARIOS, game / "scenarios")
    results = run_folder(game)
    assert len(results) == 18
    assert [r.name for r in results if r.status != "pass"] == [], "\n".join(
        f for r in results for f in r.failures)
    codes = {m for r in results for m in re.findall(r"RI9\d\d", r.name)}
    assert codes == {"RI901", "RI902", "RI903", "RI904", "RI905", "RI906", "RI907", "RI908", "RI913"}


def test_the_pick_scenarios_fail_with_the_old_union_rewrite(tmp_path: Path, monkeypatch) -> None:
    """The scenarios can tell: with '&' turned into ',' (the first of either name), they fail."""
    monkeypatch.setattr(rewrite.RuleConverter, "split_per_name", lambda self, qty, seg, tail: None)
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    import_plugin_folder(plugin, tmp_path / "game")
    shutil.copytree(SCENARIOS, tmp_path / "game" / "scenarios")
    failed = sorted(r.name for r in run_folder(tmp_path / "game") if r.status != "pass")
    assert failed == ["RI913 required target with several names: Signal Flares takes one of each",
                      "RI913 several names with a pick: Twin Beacons takes one Red Buoy and one Green Buoy"]


# --------------------------------------------------------------------------- nothing dropped silently

def _plugin_copy(tmp_path: Path) -> Path:
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    return plugin


def test_a_dropped_card_field_exits_non_zero_and_says_where(tmp_path: Path, capsys) -> None:
    plugin = _plugin_copy(tmp_path)
    set_xml = plugin / "Sets" / SET1 / "set.xml"
    text = set_xml.read_text(encoding="utf-8")
    start = text.index('name="Gull Rider"')
    at = text.index('<property name="Ability Type" value="&#xa4;"/>', start)
    set_xml.write_text(text[:at] + '<property name="Ability Type" value="&#xa5;"/>'
                       + text[at + len('<property name="Ability Type" value="&#xa4;"/>'):], encoding="utf-8")
    line = _line_of(set_xml, "&#xa5;")
    code = main_import([str(plugin), "-o", str(tmp_path / "g")])
    captured = capsys.readouterr()
    assert code == 1
    assert (f"{set_xml}:{line}:7: error[RI222]: card 'Gull Rider': unknown ability kind '¥'" in captured.out)
    assert captured.err.startswith("INCOMPLETE: ")
    assert "dropped: 0 rules, 1 card fields, 0 cards" in captured.err
    cards = yaml.safe_load((tmp_path / "g" / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    assert "ability" not in next(c for c in cards if c["name"] == "Gull Rider")
    # --allow-partial accepts it, and still says what was dropped
    assert main_import([str(plugin), "-o", str(tmp_path / "g"), "--force", "--allow-partial"]) == 0
    captured = capsys.readouterr()
    assert "error[RI222]" in captured.out and "accepted with --allow-partial" in captured.err


def test_a_dropped_deck_entry_and_a_rejected_card_are_counted(tmp_path: Path) -> None:
    plugin = _plugin_copy(tmp_path)
    deck = plugin / "Decks" / "Harbor Patrol.o8d"
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        "</section>", '<card qty="2" id="00000000-0000-0000-0000-0000000000ff">Lost Card</card></section>'),
        encoding="utf-8")
    set_xml = plugin / "Sets" / SET1 / "set.xml"
    set_xml.write_text(set_xml.read_text(encoding="utf-8").replace('value="700"', 'value="750"'), encoding="utf-8")
    report = import_plugin_folder(plugin, tmp_path / "g")
    assert report.exit_code == 1 and not report.ok
    # the lost card, and the rejected Iron Bollard in the two decks that hold it
    assert (report.dropped_deck_entries, report.dropped_cards, report.dropped_fields) == (3, 1, 0)
    assert sum("the card 'Iron Bollard' was not imported" in d.message for d in report.diagnostics) == 2
    lost = next(d for d in report.diagnostics if d.code == "RI234" and "Lost Card" in d.message)
    assert lost.span.file == str(deck) and lost.span.line == _line_of(deck, "Lost Card")
    assert "Lost Card" in lost.message and "2 copies dropped" in lost.message
    rejected = next(d for d in report.diagnostics if d.code == "RI204")
    assert "Iron Bollard" in rejected.message and rejected.span.line == _line_of(set_xml, 'name="Iron Bollard"')
    assert "# NOT IMPORTED: BP must be 100..1500" in (tmp_path / "g" / "cards.yaml").read_text(encoding="utf-8")


def test_the_command_line_takes_a_plugin_folder(tmp_path: Path, capsys) -> None:
    out = tmp_path / "g"
    assert cli_main(["import", str(PLUGIN), "-o", str(out), "-q"]) == 0
    assert capsys.readouterr().err.startswith("ok: 22 rules converted")
    assert compile_game(out, cache=None).ok
    assert main_import([str(PLUGIN), "--set", "x.xml", "-o", str(tmp_path / "h")]) == 2
