"""game.yaml's ``octgn:`` section from definition.xml (rulescript/importer/octgnmap.py), on a small
plugin whose definition disagrees with the CFC table face in every way it can: the section holds
exactly the builder's fields, each difference is reported at its element, and the game folder builds."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from octgn_pack.build import build
from octgn_pack.images import card_png
from octgn_pack.project import OCTGN_KEYS
from rulescript.importer import import_plugin_folder
from rulescript.importer.definition import read_definition
from rulescript.importer.octgnmap import octgn_section
from rulescript.importer.setxml import read_set_xml

GAME = "1b2c3d4e-0000-4000-8000-000000000001"
DEFINITION = f"""\
<game name="Odd Game" id="{{{GAME.upper()}}}" version="2.0.0.1" markersize="big" usetwosidedtable="maybe"
      gameurl="not a url" authors="Ana, Bo" scriptVersion="3.1.0.0" noteBackgroundColor="#ffffff">
<card width="x" height="88" back="../outside.png" front="Resources/front.png">
  <property name="Set" type="String"/>
  <property name="Flavor" type="RichText" hidden="True"/>
  <property name="Level" type="Integer"/>
  <property name="Kind"/>
  <property name="Cost" type="String" textKind="Tokens"/>
</card>
<table name="Board" visibility="undefined" width="900" height="700" background="resources/TABLE.png"/>
<player summary="Life: {{#Life}}">
  <counter name="HP" default="2000"/>
  <counter name="Gold" default="0"/>
  <counter name="SP" default="0" reset="False"/>
  <group name="Hand" visibility="all"/>
  <group name="Graveyard" visibility="all"/>
  <globalvariable name="x" value="1"/>
</player>
<shared><group name="Table pile"/></shared>
<phases><phase name="Main" icon="p.png"/><phase name="Upkeep" icon="p.png"/></phases>
<deck><section name="Main" group="Hand"/><section name="Side" group="Deck"/></deck>
<sharedDeck><section name="Pool" group="Table pile"/></sharedDeck>
<markers><marker id="m1" name="Poison" src="m.png"/></markers>
<sounds><sound name="ding" src="d.wav"/></sounds>
<scripts><script src="Scripts\\rules.py"/><script src="Scripts/helpers.py"/></scripts>
</game>
"""
CARD_1 = "aaaaaaaa-0000-4000-8000-000000000001"
CARD_2 = "aaaaaaaa-0000-4000-8000-000000000002"
SET_XML = f"""\
<set name="Core Set" id="{{CCCCCCCC-0000-4000-8000-000000000001}}" gameId="{GAME}" version="1.0.0.0">
<cards>
<card id="{CARD_1}" name="Spark">
  <property name="Kind" value="Action"/><property name="Cost" value="-1"/>
  <property name="Set" value="Core"/><property name="Flavor">A <b>bright</b> spark.</property>
  <property name="Level" value="3"/>
</card>
<card id="{CARD_2}" name="Ember">
  <property name="Kind" value="Action"/><property name="Cost" value="0"/>
  <property name="flavor" value="Warm."/><property name="Level" value="X"/><property name="Artist" value="Ana"/>
</card>
</cards>
</set>
"""
RULES_PY = f'GameRules = {{"{CARD_1}": "action = draw()"}}\n'


def _plugin(tmp_path: Path, images: bool = True) -> Path:
    plugin = tmp_path / "plugin"
    (plugin / "Sets" / "cccccccc-0000-4000-8000-000000000001").mkdir(parents=True)
    (plugin / "Scripts").mkdir()
    (plugin / "definition.xml").write_text(DEFINITION, encoding="utf-8")
    (plugin / "Sets" / "cccccccc-0000-4000-8000-000000000001" / "set.xml").write_text(SET_XML, encoding="utf-8")
    (plugin / "Scripts" / "rules.py").write_text(RULES_PY, encoding="utf-8")
    (plugin / "Scripts" / "helpers.py").write_text("def helper():\n    pass\n", encoding="utf-8")
    if images:
        (plugin / "Resources").mkdir()
        (plugin / "Resources" / "Table.png").write_bytes(card_png(40, 30, "#102030"))
    (tmp_path / "outside.png").write_bytes(card_png(10, 10, "#ffffff"))
    return plugin


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def test_the_section_holds_only_builder_fields_and_reports_every_difference(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path)
    d = read_definition(plugin / "definition.xml")
    sets = [read_set_xml(plugin / "Sets" / "cccccccc-0000-4000-8000-000000000001" / "set.xml", None, d.properties)]
    sec = octgn_section(d, plugin, sets, "Odd Game", GAME, {"scripts/rules.py"})
    assert sec.fields == {
        "authors": "Ana, Bo", "set": "Core Set",
        "table": {"width": 900, "height": 700, "background": "Resources/Table.png"},  # found without regard to case
        "card": {"height": 88},
        "properties": {"type": {"name": "Kind"}, "sp": {"name": "Cost", "type": "String"}},
        "extra_properties": {"Card Set": {}, "Flavor": {"hidden": True}, "Level": {}, "Artist": {}}}
    assert set(sec.fields) <= set(OCTGN_KEYS)
    assert sec.images == {"Resources/Table.png": plugin / "Resources" / "Table.png"}
    # the cards' display-only values follow the package's names ('Set' is reserved, 'flavor' is 'Flavor')
    assert [c["octgn"] for c in sets[0].cards] == [{"Card Set": "Core", "Flavor": "A bright spark.", "Level": "3"},
                                                   {"Flavor": "Warm.", "Level": "X", "Artist": "Ana"}]
    got = {(x.code, x.severity, x.span.line, x.span.col) for x in sec.diagnostics if x.span.file == d.path}
    t = DEFINITION

    def has(code: str, severity: str, needle: str, words: str) -> None:
        line = _line(t, needle)
        hits = [x for x in sec.diagnostics if (x.code, x.severity, x.span.line) == (code, severity, line)]
        assert any(words in x.message for x in hits), (needle, code, [x.message for x in hits])

    has("RI212", "warning", "<game ", "markersize=\"big\"> is not a whole number")
    has("RI212", "warning", "<game ", "usetwosidedtable=\"maybe\"> is not True or False")
    has("RI212", "warning", "<game ", "gameurl=\"not a url\"> is not an absolute URL")
    has("RI216", "note", "<game ", "the package declares 3.1.0.2")
    has("RI216", "note", "<game ", "noteBackgroundColor")
    has("RI212", "warning", "<card ", "width=\"x\"> is not a whole number")
    has("RI213", "warning", "<card ", "'../outside.png' is not a file inside the plugin folder")
    has("RI216", "note", "<card ", "card front 'Resources/front.png'")
    has("RI215", "note", 'name="Set"', "is called 'Card Set' in the package")
    has("RI215", "note", 'name="Flavor"', "not RichText")
    has("RI215", "note", 'name="Level"', "not every card gives a whole number")
    has("RI216", "note", "<table ", "<table name=\"Board\"> is not carried over")
    has("RI214", "note", "<player ", "the player summary 'Life: {#Life}' is not carried over")
    has("RI214", "warning", "<player ", "also have Deck, Discards, Removed")
    has("RI216", "note", 'name="Cost"', 'property textKind="Tokens" is not carried over')
    has("RI214", "note", '<counter name="SP"', 'reset="False" is not carried over')
    has("RI214", "warning", '<counter name="HP"', "it starts at 3000 (here 2000)")
    has("RI214", "warning", '<counter name="Gold"', "is not in the package")
    has("RI214", "warning", '<group name="Hand"', "visibility is me (here all)")
    has("RI214", "warning", '<group name="Graveyard"', "the pile 'Graveyard' is not in the package")
    has("RI216", "note", "<globalvariable", "the player variable 'x'")
    has("RI214", "warning", "<shared>", "the shared pile 'Table pile' is not in the package")
    has("RI214", "note", "<phases>", "it is phase 3 (here 1)")
    has("RI214", "warning", "<phases>", "the phase 'Upkeep' is not in the package")
    has("RI214", "warning", "<phases>", "also has the phases Activate, Draw, Attack")
    has("RI214", "warning", "<deck>", "loads into the pile 'Deck' in the package (here 'Hand')")
    has("RI214", "warning", "<deck>", "the deck section 'Side' is not in the package")
    has("RI214", "warning", "<sharedDeck>", "the shared deck section 'Pool'")
    has("RI216", "note", "<markers>", "the engine's (Frozen, Used")
    has("RI216", "note", "<sounds>", "the builder has no <sounds>")
    has("RI216", "note", "<scripts>", "its rules dict became rules/*.ini")
    has("RI216", "note", "<scripts>", "the script 'Scripts/helpers.py' is not carried over")
    assert not any(x.is_error for x in sec.diagnostics)
    assert len(got) == len({(x.code, x.severity, x.span.line, x.span.col) for x in sec.diagnostics
                            if x.span.file == d.path})
    lines = [x.span.line for x in sec.diagnostics if x.span.file == d.path]
    assert lines == sorted(lines)  # in the order of the file


def test_the_imported_folder_builds_and_carries_images_and_properties(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path)
    out = tmp_path / "game"
    report = import_plugin_folder(plugin, out)
    assert report.exit_code == 0, report.render()
    assert (out / "Resources" / "Table.png").read_bytes() == (plugin / "Resources" / "Table.png").read_bytes()
    assert not (out / "outside.png").exists() and not list(out.rglob("outside.png"))
    game = yaml.safe_load((out / "game.yaml").read_text(encoding="utf-8"))
    assert game["octgn"]["table"]["background"] == "Resources/Table.png"
    b = build(out, tmp_path / "dist", check_py27=False)
    assert b.ok, b.render()
    assert not [x for x in b.diagnostics if x.severity == "warning"], b.render()
    assert b.files["Resources/table.png"] == (plugin / "Resources" / "Table.png").read_bytes()
    definition = b.files["definition.xml"].decode("utf-8")
    for prop in ('name="Kind"', 'name="Cost" type="String"', 'name="Card Set"', 'name="Flavor" type="String" '
                 'hidden="True"', 'name="Level" type="String"', 'name="Artist"'):
        assert "<property " + prop in definition, prop
    assert 'markersize="16"' in definition and 'usetwosidedtable="True"' in definition
    set_xml = next(v for k, v in b.files.items() if k.endswith("set.xml")).decode("utf-8")
    assert re.search(r'name="Card Set" value="Core"', set_xml) and 'name="Artist" value="Ana"' in set_xml


def test_absent_images_are_left_out_with_a_warning_and_the_build_generates_them(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path, images=False)
    report = import_plugin_folder(plugin, tmp_path / "game")
    assert report.exit_code == 0
    warn = [x for x in report.diagnostics if x.code == "RI213"]
    assert [x.span.line for x in warn] == [_line(DEFINITION, "<card "), _line(DEFINITION, "<table ")]
    assert "'resources/TABLE.png' is not in the plugin folder" in warn[1].message
    game = yaml.safe_load((tmp_path / "game" / "game.yaml").read_text(encoding="utf-8"))
    assert "background" not in game["octgn"]["table"] and "back" not in game["octgn"]["card"]
    assert build(tmp_path / "game", tmp_path / "dist", check_py27=False).ok


def test_the_two_file_form_declares_the_properties_its_cards_use(tmp_path: Path) -> None:
    (tmp_path / "set.xml").write_text(SET_XML, encoding="utf-8")
    (tmp_path / "rules.py").write_text(RULES_PY, encoding="utf-8")
    from rulescript.importer import import_plugin

    report = import_plugin(tmp_path / "rules.py", tmp_path / "set.xml", tmp_path / "game")
    assert report.exit_code == 0, report.render()
    game = yaml.safe_load((tmp_path / "game" / "game.yaml").read_text(encoding="utf-8"))
    # without a definition every display-only property is a String, spelt as the first card spells it; the
    # game is named after the set, so octgn.set is not needed
    assert game["name"] == "Core Set"
    assert game["octgn"] == {"extra_properties": {"Card Set": {}, "Flavor": {}, "Level": {},
                                                                      "Artist": {}}}
    assert build(tmp_path / "game", tmp_path / "dist", check_py27=False).ok


def test_sets_keep_their_names_and_a_repeated_or_missing_name_is_said() -> None:
    from rulescript.importer.setxml import SetData

    def card(i: int) -> dict:
        return {"id": f"c-{i}", "name": f"C{i}", "type": "action", "sp": 0}

    sets = [SetData("a.xml", "Core", "s1", cards=[card(1)]), SetData("b.xml", "Tide", "s2", cards=[card(2)]),
            SetData("c.xml", "Tide", "s3", cards=[card(3)]), SetData("d.xml", None, "s4", cards=[card(4)])]
    sec = octgn_section(None, None, sets, "Game", GAME)
    assert sec.fields == {"set": "Core"}
    assert [c.get("set") for s in sets for c in s.cards] == [None, "Tide", "Tide", None]
    said = [(d.span.file, d.message) for d in sec.diagnostics if "its cards are in" in d.message]
    assert said == [("c.xml", "this set has the name of another set: its cards are in the package's set 'Tide'"),
                    ("d.xml", "this set has no name: its cards are in the package's set 'Core'")]
