"""The importer on odd input: random rule texts, already-converted rules, hostile card data."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from rulescript.compiler import compile_game, compile_text, load_cards
from rulescript.diagnostics import DiagnosticBag
from rulescript.importer.rewrite import ConversionError, RuleConverter, parse_rule_text
from rulescript.importer.setxml import read_set_xml
from rulescript.importer import import_plugin
from rulescript.compiler.ini import read_rule_file
from rulescript.compiler.profile import load_profile

DEMO = Path(__file__).resolve().parents[2] / "cards" / "cfc-demo"

FRAGMENTS = [
    "moveTo(hand, true)", "to(character@oppRing)", "copyAbility(tgt)", "tgt.bp", '"A"&"B"', "&", "&&", "||",
    "[[if me.hand.size > 1]]", "[[else]]", "[[elif opp.sp]]", "[[may 'q?']]", "~oppEndPhase~", "?canBlock?",
    "~oppRemoved:any~", ";", ",", "(", ")", "[", "]", "{F}:", '{S("A"&character)}', "ueot", "+unblockable",
    "each(char in me.ring => bp(+tgt.bp))", "each(characters@ring => damage(1))", "getTargets('me')", "'", '"',
    "::not(tgt)", "@hand", "<2>", "<r>", "damage(", "draw()", " ", "=", "#", "?", ":", "~",
    "moveTo(deck, false)", "discard(character@hand)", "to(me)", "to(tgt.0)", "to(_v)",
]
KEYS = ["action = ", "auto = ", "target = ", "requisite = ", "vars = _v := ", "label = "]
FIRST_PASS = {"RI901", "RI902", "RI903", "RI904", "RI905", "RI906", "RI907"}


def _random_rule(rng: random.Random) -> str:
    return "".join(rng.choice(KEYS) + "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 8))) + "\n"
                   for _ in range(rng.randint(1, 3)))


def test_random_rule_texts_convert_or_fail_cleanly() -> None:
    rng = random.Random(20261122)
    profile = load_profile("cfc")
    converted = 0
    for _ in range(3000):
        text = _random_rule(rng)
        try:
            rule = parse_rule_text(text)
            RuleConverter(profile).convert(rule)
        except ConversionError:
            continue
        converted += 1
        # converting the result again finds nothing left to rewrite (the perspective swap aside)
        again = parse_rule_text("\n".join(f"{p.raw_key} = {p.new_value}" for p in rule.props))
        leftover = [c for c in RuleConverter(profile).convert(again) if c.code in FIRST_PASS]
        assert not leftover, (text, [(c.code, c.before) for c in leftover])
    assert converted > 500  # the generator does produce readable rules


def test_rules_that_already_compile_still_compile_after_conversion() -> None:
    profile = load_profile("cfc")
    cards = load_cards(DEMO / "cards.yaml")[0]
    sections = 0
    for path in sorted((DEMO / "rules").glob("*.ini")):
        for sec in read_rule_file(path.read_text(encoding="utf-8"), str(path), DiagnosticBag()).sections:
            sections += 1
            rule = parse_rule_text("\n".join(f"{p.raw_key} = {p.value.text}" for p in sec.properties))
            RuleConverter(profile).convert(rule)
            text = f"[{sec.rule_id}]\n" + "\n".join(f"{p.raw_key} = {p.new_value}" for p in rule.props) + "\n"
            result = compile_text(text, cards=cards, cache=None)
            assert result.ok, result.render()
    assert sections > 100


def test_hostile_ids_and_names_cannot_inject_ini_or_yaml(tmp_path: Path) -> None:
    py = tmp_path / "rules.py"
    py.write_text('RULES = {\n    "bad\\n[evil]\\naction = draw()": "abilities = rush",\n'
                  '    "fine-card": "abilities = rush",\n}\n', encoding="utf-8")
    xml = tmp_path / "set.xml"
    xml.write_text('<set name="Odd &amp; Co: &quot;#1&quot;&#10;[x]" id="s" gameId="g" version="1.0.0.0"><cards>'
                   '<card id="fine-card" name="Ni&#241;a: &quot;Ace&quot; #2 \\ &#10;[evil]">'
                   '<property name="Type" value="Character"/><property name="BP" value="300"/>'
                   '<property name="Subtype" value="Ninja"/></card></cards></set>', encoding="utf-8")
    report = import_plugin(py, xml, tmp_path / "g")
    out = tmp_path / "g"
    ini = (out / "rules" / "rules.ini").read_text(encoding="utf-8")
    assert "\n[evil]" not in ini and "\naction = draw()" not in ini
    assert [f.card_id for f in report.failed] == ["bad\n[evil]\naction = draw()"]
    cards = yaml.safe_load((out / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    assert cards[0]["name"] == 'Niña: "Ace" #2 \\ [evil]'  # XML newlines in attributes are normalised
    assert yaml.safe_load((out / "game.yaml").read_text(encoding="utf-8"))["name"] == 'Odd & Co: "#1" [x]'
    assert compile_game(out, cache=None).ok


def test_broken_set_xml_is_reported_with_its_position(tmp_path: Path) -> None:
    xml = tmp_path / "set.xml"
    xml.write_text('<set name="S">\n  <cards>\n    <card id="a-card" name="A">\n  </cards>\n</set>\n',
                   encoding="utf-8")
    data = read_set_xml(xml)
    [d] = data.diagnostics
    assert d.code == "RI201" and d.is_error and d.span.line == 4
    py = tmp_path / "rules.py"
    py.write_text('RULES = {"a-card": "abilities = rush"}\n', encoding="utf-8")
    report = import_plugin(py, xml, tmp_path / "g")
    assert report.exit_code == 1 and report.converted == ["a-card"] and not report.failed


def test_entity_declarations_are_refused(tmp_path: Path) -> None:
    xml = tmp_path / "set.xml"
    xml.write_text('<?xml version="1.0"?>\n<!DOCTYPE set [<!ENTITY x "xxxxxxxx">]>\n<set name="&x;"><cards/></set>\n',
                   encoding="utf-8")
    data = read_set_xml(xml)
    assert [d.code for d in data.diagnostics] == ["RI201"] and data.diagnostics[0].span.line == 2


@pytest.mark.parametrize("props,expected", [
    ('<property name="Ability Type" value="Auto"/><property name="Ability Name" value="Wall"/>',
     {"kind": "auto", "name": "Wall"}),
    ('<property name="ability" value="&#9650; Quick Step"/>', {"kind": "instant", "name": "Quick Step"}),
    ('<property name="Ability" value="Triggered: Tail Swipe"/>', {"kind": "trigger", "name": "Tail Swipe"}),
])
def test_ability_property_spellings(tmp_path: Path, props: str, expected: dict) -> None:
    xml = tmp_path / "set.xml"
    xml.write_text(f'<set name="S"><cards><card id="c-1" name="C"><property name="type" value="character"/>'
                   f'<property name="B P" value="500"/>{props}</card></cards></set>', encoding="utf-8")
    [card] = read_set_xml(xml).cards
    assert card["ability"] == expected and card["bp"] == 500


def test_cards_failing_game_checks_are_kept_commented(tmp_path: Path) -> None:
    xml = tmp_path / "set.xml"
    xml.write_text('<set name="S"><cards>'
                   '<card id="c-1" name="Too Big"><property name="Type" value="Character"/>'
                   '<property name="BP" value="1550"/></card>'
                   '<card id="c-2" name="Greedy"><property name="Type" value="Action"/>'
                   '<property name="SP" value="2"/></card></cards></set>', encoding="utf-8")
    data = read_set_xml(xml)
    assert data.cards == []
    reasons = [r for _, r in data.rejected]
    assert "BP must be 100..1500" in reasons[0] and "cannot give SP" in reasons[1]
    assert [d.code for d in data.diagnostics] == ["RI204", "RI204"]
