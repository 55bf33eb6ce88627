"""The readers of a plugin's parts on their own: glyphs, definition.xml, decks, XML safety."""
from __future__ import annotations

from pathlib import Path

from rulescript.importer.decks import read_deck
from rulescript.importer.definition import read_definition
from rulescript.importer.glyphs import read_glyphs
from rulescript.importer.setxml import read_set_xml

CARDS = {"c-1": {"id": "c-1", "name": "Alpha"}, "c-2": {"id": "c-2", "name": "Beta"}}


def test_glyphs_from_a_python2_script(tmp_path: Path) -> None:
    py = tmp_path / "constants.py"
    py.write_text('print "hi"\nInstantAbility = u"\\xa2"\nTriggerAbility = u"\\xa3"\nAUTO_ABILITY = "\\xa4"\n'
                  'AutoPlay = "x"\n', encoding="utf-8")
    g = read_glyphs([py])
    assert (g.kind("\xa2"), g.kind("\xa3"), g.kind("\xa4"), g.kind("x")) == ("instant", "trigger", "auto", None)
    assert g.kind("▲") == "instant"  # the shapes always count
    assert g.shapes("use \xa3 or \xa2") == "use ■ or ▲"
    assert g.defined_at["\xa3"].line == 3 and not g.diagnostics


def test_a_glyph_defined_for_two_kinds_is_an_error(tmp_path: Path) -> None:
    py = tmp_path / "c.py"
    py.write_text('InstantAbility = "\\xa2"\nAutoAbility = "\\xa2"\nTriggerAbility = "ab"\n', encoding="utf-8")
    g = read_glyphs([py])
    assert [(d.code, d.severity, d.span.line) for d in g.diagnostics] == [("RI302", "error", 2),
                                                                         ("RI301", "warning", 3)]
    assert g.kind("\xa2") == "instant"


def test_set_xml_with_glyphs_backups_and_located_drops(tmp_path: Path) -> None:
    py = tmp_path / "c.py"
    py.write_text('TriggerAbility = "\\xa3"\n', encoding="utf-8")
    xml = tmp_path / "set.xml"
    xml.write_text('<set name="S" id="{ABC}">\n<cards>\n<card id="{C-1}" name="Alpha">\n'
                   '  <property name="Type" value="Character"/><property name="BP" value="400"/>\n'
                   '  <property name="Backup 1" value="Ninja"/><property name="Backup 3" value="Mage"/>\n'
                   '  <property name="Ability Type" value="&#xa3;"/><property name="Ability Name" value="JAB"/>\n'
                   '  <property name="Rules">&#xa3; Freeze: <b>jab</b>.</property>\n'
                   '  <alternate name="Night" type="b"/>\n</card>\n'
                   '<card id="c-2" name="Beta"><property name="Type" value="Action"/>'
                   '<property name="BP" value="300"/><property name="SP" value="-1"/></card>\n'
                   '</cards>\n</set>\n', encoding="utf-8")
    data = read_set_xml(xml, read_glyphs([py]), {"Type": "String", "BP": "Integer"})
    alpha, beta = data.cards
    assert alpha["id"] == "c-1" and data.set_id == "abc"
    assert alpha["backup"] == ["ninja", "mage"] and alpha["ability"] == {"kind": "trigger", "name": "JAB"}
    assert alpha["text"] == "■ Freeze: jab."
    assert beta == {"id": "c-2", "name": "Beta", "type": "action", "sp": -1}
    drops = [(d.code, d.span.line, d.span.col) for d in data.diagnostics if d.is_error]
    assert drops == [("RI221", 8, 3), ("RI220", 10, 66)]  # the alternate face, an Action's BP
    assert data.dropped_fields == 2
    undeclared = [d for d in data.diagnostics if d.code == "RI205"]
    assert {d.message.split("'")[1] for d in undeclared} == {"Backup 1", "Backup 3", "Ability Type", "Ability Name", "SP",
                                                             "Rules"}


def test_definition_reads_the_table(tmp_path: Path) -> None:
    xml = tmp_path / "definition.xml"
    xml.write_text('<game name=" My  Game " id="{1B2C}" version="2.0.0.1">\n<card width="x" height="88"/>\n'
                   '<player><counter name="HP" default="3000"/><group name="Deck" shuffle="True"/></player>\n'
                   '<shared><group name="Table pile"/></shared>\n'
                   '<deck><section name="Main" group="Deck"/></deck></game>', encoding="utf-8")
    d = read_definition(xml)
    assert (d.id, d.name, d.version) == ("1b2c", "My Game", "2.0.0.1")
    assert d.octgn["card"] == {"height": 88}
    assert [(x.code, x.span.line) for x in d.diagnostics] == [("RI212", 2)]
    assert d.octgn["player"] == {"piles": [{"name": "Deck", "shuffle": True}],
                                 "counters": [{"name": "HP", "default": 3000}]}
    assert d.octgn["shared"] == {"piles": [{"name": "Table pile"}]}
    assert d.octgn["deck_sections"] == [{"name": "Main", "group": "Deck"}]


def test_deck_sections_names_and_entities(tmp_path: Path) -> None:
    deck = tmp_path / "d.o8d"
    deck.write_text('<deck game="g">\n<section name="Main">\n<card qty="2" id="{C-1}">Alpha</card>\n'
                    '<card qty="1" id="zzz">beta</card>\n<card qty="x" id="c-1">Alpha</card>\n</section>\n'
                    '<section name="Sideboard"><card qty="1" id="c-2">Beta</card></section>\n</deck>\n',
                    encoding="utf-8")
    got = read_deck(deck, "d", CARDS, ["Main"], "g")
    assert got.counts == {"c-1": 2, "c-2": 1}  # the second entry matched by its name, as OCTGN does
    assert [(d.code, d.span.line) for d in got.diagnostics if d.severity != "note"] == [
        ("RI235", 4), ("RI234", 5), ("RI231", 7), ("RI232", 1)]
    assert got.dropped == 2 and got.problems == ["3 cards (a deck holds 50)"]
    bad = tmp_path / "bad.o8d"
    bad.write_text('<!DOCTYPE deck [<!ENTITY a "aaaa">]><deck game="g"/>', encoding="utf-8")
    refused = read_deck(bad, "bad", CARDS, None, None)
    assert not refused.readable and refused.dropped == 1 and refused.diagnostics[0].code == "RI230"
    assert "DOCTYPE" in refused.diagnostics[0].message
