"""Hand-broken game folders: each is refused with a located diagnostic and no package is written;
names and texts with XML's special characters and non-ASCII are escaped, never rejected."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from octgn_pack.build import build
from octgn_pack.cli import main
from tests.octgn.conftest import CARDS_YAML, DECK_YAML, GAME_YAML, entries, run_py27, write_game


def _refused(tmp_path, capsys, **game):
    root = write_game(tmp_path / "g", **game)
    dist = tmp_path / "dist"
    code = main(["build", str(root), "-o", str(dist), "-q"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert not dist.exists() or list(dist.iterdir()) == [], "no package (and no temporary file) is written"
    assert "no package written" in err
    return root, err


def _located(err: str, path: str, line: int, code: str) -> str:
    """The diagnostic of ``code`` at ``path:line``; returns its block."""
    for block in err.split("\n\n"):
        head = block.splitlines()[0] if block.strip() else ""
        if head.startswith(f"{path}:{line}:") and f"error[{code}]" in head:
            return block
    raise AssertionError(f"no {code} at {path}:{line} in:\n{err}")


def test_undeclared_property(tmp_path, capsys):
    cards = CARDS_YAML.replace('    text: "Deals damage."\n', '    text: "Deals damage."\n    octgn: {Flavor: "hot"}\n')
    root, err = _refused(tmp_path, capsys, cards=cards)
    block = _located(err, str(root / "cards.yaml"), 9, "OP132")
    assert "undeclared property 'Flavor'" in block and "octgn: {Flavor" in block and "^~~~~~" in block


def test_declared_extra_property_is_written(tmp_path):
    cards = CARDS_YAML.replace('    text: "Deals damage."\n', '    text: "Deals damage."\n    octgn: {Flavor: "hot"}\n')
    game = GAME_YAML + "octgn:\n  extra_properties:\n    Flavor: {type: String}\n"
    b = build(write_game(tmp_path / "g", game=game, cards=cards), tmp_path / "dist")
    assert b.ok, b.render()
    files = entries(b.package)
    set_xml = ET.fromstring(next(v for k, v in files.items() if k.endswith("set.xml")))
    assert [(p.get("name"), p.get("value")) for p in set_xml.iter("property") if p.get("name") == "Flavor"] == [
        ("Flavor", "hot")]
    assert "Flavor" in [p.get("name") for p in ET.fromstring(files["def/definition.xml"]).find("card")]


def test_duplicate_card_id(tmp_path, capsys):
    cards = CARDS_YAML.replace("id: quick-tea", "id: Ember-Monk")
    root, err = _refused(tmp_path, capsys, cards=cards)
    block = _located(err, str(root / "cards.yaml"), 9, "OP123")
    assert "duplicate card id 'Ember-Monk'" in block and "first used at line 2" in block


def test_deck_naming_a_missing_card(tmp_path, capsys):
    deck = DECK_YAML.replace("quick-tea: 2", "quick-tee: 2")
    root, err = _refused(tmp_path, capsys, decks={"starter": deck})
    block = _located(err, str(root / "decks" / "starter.yaml"), 4, "OP145")
    assert "'quick-tee'" in block and "did you mean: quick-tea" in block


@pytest.mark.parametrize("octgn, line", [
    ("  properties:\n    text: {name: Set}\n", 7),
    ("  extra_properties:\n    ALTERNATE: {type: String}\n", 7),
])
def test_reserved_property_name(tmp_path, capsys, octgn, line):
    root, err = _refused(tmp_path, capsys, game=GAME_YAML + "octgn:\n" + octgn)
    block = _located(err, str(root / "game.yaml"), line, "OP129")
    assert "reserved property name" in block


def test_a_type_field_is_renamed_not_rejected(tmp_path):
    b = build(write_game(tmp_path / "g"), tmp_path / "dist")
    assert b.ok
    props = [p.get("name") for p in ET.fromstring(entries(b.package)["def/definition.xml"]).find("card")]
    assert "Card Type" in props and not {"type", "name", "id", "set"} & {p.lower() for p in props}


def test_script_with_python3_only_syntax(tmp_path, capsys, python27):
    script = "def greet(name):\n    return f'hi {name}'\n"
    root, err = _refused(tmp_path, capsys, scripts={"greet.py": script})
    block = _located(err, str(root / "scripts" / "greet.py"), 2, "OP280")
    assert "Python 2.7" in block and "return f'hi {name}'" in block


def test_script_check_is_skipped_with_a_message_without_python27(tmp_path, capsys, monkeypatch):
    import octgn_pack.validate as v

    monkeypatch.setattr(v, "compile_py27", lambda sources: None)
    root = write_game(tmp_path / "g", scripts={"greet.py": "x = 1\n"})
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 0
    assert "Python 2.7 check skipped" in capsys.readouterr().err


def test_global_named_result_in_a_shared_script(tmp_path, capsys):
    root, err = _refused(tmp_path, capsys, scripts={"bad.py": "x = 1\nresult = 2\n"})
    _located(err, str(root / "scripts" / "bad.py"), 2, "OP282")


def test_bad_version_and_colour_point_into_game_yaml(tmp_path, capsys):
    game = GAME_YAML.replace('"1.2"', '"1.2.x"') + "octgn:\n  colors: {back: red}\n"
    root, err = _refused(tmp_path, capsys, game=game)
    _located(err, str(root / "game.yaml"), 4, "OP109")
    _located(err, str(root / "game.yaml"), 6, "OP114")


@pytest.mark.parametrize("version", ["1." + "9" * 5000, "1.2.2147483648", "1.99999999999"])
def test_a_version_number_too_large_for_octgn_is_op109(tmp_path, capsys, version):
    """Issue 23 (fuzz, octgn-build input 82320 of seed 1201): a version part of 5,000 digits was exit 3
    (Python's limit on reading a number of more than 4,300 digits); every part must be below 2**31."""
    root, err = _refused(tmp_path, capsys, game=GAME_YAML.replace('"1.2"', '"%s"' % version))
    _located(err, str(root / "game.yaml"), 4, "OP109")
    assert "Traceback" not in err


def test_control_character_cannot_be_escaped(tmp_path, capsys):
    cards = CARDS_YAML.replace('"Deals damage."', '"Deals\\u0001damage."')
    root, err = _refused(tmp_path, capsys, cards=cards)
    _located(err, str(root / "cards.yaml"), 8, "OP126")


def test_rule_errors_stop_the_build(tmp_path, capsys):
    root, err = _refused(tmp_path, capsys, rules="[ember-monk]\naction = {F}: damge(100)\n")
    assert f"{root / 'rules' / 'cards.ini'}:2:" in err and "RS201" in err


ODD = "Fish & Chips <b>\"Deluxe\"</b> 'é' ☃ — Ünïcödé"


def test_special_characters_are_escaped_and_read_back_exactly(tmp_path, python27):
    game = GAME_YAML.replace('"Tiny Game"', '"Tiny & <Odd> \\"Game\\" é"')
    cards = CARDS_YAML.replace('"Ember Monk"', '"Fish & Chips <b>\\"Deluxe\\"</b> \'é\' ☃ — Ünïcödé"').replace(
        '"Deals damage."', '"Deal 100 & <draw>\\nthen \\"more\\" — ü\\ttab"')
    deck = DECK_YAML.replace('"Starter"', '"Dëck & <co> \\"A\\""')
    root = write_game(tmp_path / "g", game=game, cards=cards, decks={"starter": deck})
    b = build(root, tmp_path / "dist")
    assert b.ok, b.render()
    files = entries(b.package)
    g = ET.fromstring(files["def/definition.xml"])
    assert g.get("name") == 'Tiny & <Odd> "Game" é'
    s = ET.fromstring(next(v for k, v in files.items() if k.endswith("set.xml")))
    card = s.find("cards")[0]
    assert card.get("name") == ODD
    assert [p.get("value") for p in card if p.get("name") == "Text"] == ['Deal 100 & <draw>\nthen "more" — ü\ttab']
    deck_entry = [k for k in files if k.endswith(".o8d")]
    assert len(deck_entry) == 1 and "%C3%AB" in deck_entry[0]
    d = ET.fromstring(files[deck_entry[0]])
    assert d.find("section")[0].text == ODD
    # the same text reaches the engine's card table, under Python 2.7 too
    (tmp_path / "gamedata.py").write_bytes(files["def/Scripts/gamedata.py"])
    code = ("import gamedata\nc = [x for x in gamedata.GAME['cards'].values() if x['id'] == 'ember-monk'][0]\n"
            "out(c['name'] + u'|' + gamedata.GAME['name'])")
    assert run_py27(python27, tmp_path, code) == ODD + '|Tiny & <Odd> "Game" é'


def test_duplicate_yaml_key_in_a_deck(tmp_path, capsys):
    deck = DECK_YAML + "  ember-monk: 1\n"
    root, err = _refused(tmp_path, capsys, decks={"starter": deck})
    _located(err, str(root / "decks" / "starter.yaml"), 5, "OP101")


def test_two_decks_with_one_file_name(tmp_path, capsys):
    other = DECK_YAML.replace('"Starter"', '"starter!"')
    root, err = _refused(tmp_path, capsys, decks={"a": DECK_YAML, "b": other})
    _located(err, str(root / "decks" / "b.yaml"), 1, "OP142")
