"""``rulescript explain``: text generated from real compiled rules, the disagreements with printed
text, and everywhere a card is shown (the table, watch, the OCTGN package, the docs).

Expected texts and disagreements are written by hand from the rules' meaning (docs/language.md and
the CFC rules), not computed by the generator.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from rulescript.compiler import compile_game
from rulescript.compiler.profile import ProfileError, load_profile, missing_card_text, profile_from_text
from rulescript.explain.measure import score_corpus, write_game
from rulescript.explain.report import explain_cards
from rulescript.watch import Watcher
from tests.cli.conftest import fails, run

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"
WEREWOLF = ROOT / "cards" / "werewolf"
HERE = Path(__file__).resolve().parent


def game_of(tmp_path: Path, *cards: dict) -> Path:
    """A CFC game folder holding these corpus-style cards ({id, type, kind?, rule, text})."""
    root = tmp_path / "game"
    write_game(list(cards), root)
    return root


def explained(root: Path) -> dict:
    result = compile_game(root, cache=None)
    assert not result.errors, result.render()
    return {e.id: e for e in explain_cards(result.cards, result.rules, load_profile(result.profile), root)}


# ---------------------------------------------------------------- generated text
@pytest.mark.parametrize("card, expected", [
    ({"type": "action", "rule": "action = damage(200) to(characters@oppRing)"},
     "Deal 200 damage to each character in your opponent's ring."),
    ({"type": "action", "rule": "target = character[bp<=500]@oppRing\naction = destroy()"},
     "KO target character in your opponent's ring with 500 BP or less."),
    ({"type": "action", "rule": "action = draw(2)"}, "Draw 2 cards."),
    ({"type": "action", "rule": "action = draw() to(opp)"}, "Your opponent draws a card."),
    ({"type": "action", "rule": "action = sp(-2) to(opp)"}, "Your opponent gains -2 SP."),
    ({"type": "character", "kind": "auto", "rule": "abilities = unblockable, cantblock"},
     "This character cannot be blocked. This character cannot block."),
    ({"type": "character", "kind": "instant", "rule": "target = character[-frozen]@oppRing\naction = freeze()"},
     "When this character enters the ring: freeze target unfrozen character in your opponent's ring."),
    ({"type": "character", "kind": "trigger", "rule": "action = {F}{D}: bp(+200) to(this)"},
     "Freeze this character and discard a card: this character gets +200 BP."),
    ({"type": "character", "kind": "auto", "rule": "auto = ~myEndPhase~ hp(+100)"},
     "At the End phase of your turn, gain 100 HP."),
    ({"type": "character", "kind": "auto", "rule": "auto = ~blocks~ [[if attacker.bp > this.bp]] bp(+300) to(this)"},
     "When this character blocks, if the attacker's BP is more than this character's BP, this character gets +300 BP."),
    ({"type": "action", "rule": "action = [[may]] draw(2) & discard()"}, "You may draw 2 cards, and discard a card."),
    ({"type": "action", "rule": "action = +cantplayac to(opp) oppueot"},
     "Your opponent cannot play Action cards until the end of your opponent's next turn."),
    ({"type": "action", "rule": "target = character@oppRing\naction = freeze() & +frosted oppuynt"},
     "Freeze target character in your opponent's ring, and it does not unfreeze in its controller's Activate "
     "phase until your opponent's next Activate phase."),
    ({"type": "action", "rule": "action = damage(100) to(<,2>characters@oppRing)"},
     "Deal 100 damage to one or two characters in your opponent's ring."),
    ({"type": "action", "rule": "action = bp(+100) to(<,3>characters@myRing)"},
     "One to three characters in your ring get +100 BP."),
])
def test_rules_read_as_card_text(tmp_path, card, expected):
    root = game_of(tmp_path, {"id": "x", "text": "", **card})
    assert explained(root)["x"].generated == expected


def test_werewolf_rules_read_as_card_text():
    result = compile_game(WEREWOLF, cache=None)
    cards = [c for c in result.cards if c["id"] in ("werewolf", "lamplighter")]
    texts = {e.id: e.generated for e in explain_cards(cards, result.rules, load_profile("werewolf"))}
    assert texts["werewolf"] == "When this role comes into play, join the group “werewolf-pack” while you keep this role."
    assert "Immediate night: protect the chosen player from attacks (active defense) for this phase." in texts["lamplighter"]


# ---------------------------------------------------------------- disagreements
@pytest.mark.parametrize("rule, text, kind, message", [
    ("target = character@oppRing\naction = damage(200)", "Deal 300 damage to an opposing character.", "number",
     "damage: the text says 300, the rules say 200"),
    ("target = character@myRing\naction = bp(+300)", "One of your characters gets +200 BP.", "number",
     "BP: the text says +200, the rules say +300"),
    ("action = draw(2)", "Draw three cards.", "number", "cards drawn: the text says 3, the rules say 2"),
    ("action = peek()", "Look at your opponent's hand. Draw a card.", "number",
     "the text states cards drawn (1) that the rules never change"),
    ("action = damage(200) to(characters@myRing)", "Deal 200 damage to each opposing character.", "side",
     "whose cards: the text says enemy, the rules own"),
    ("target = character@oppRing\naction = damage(200)", "Deal 200 damage to each opposing character.", "quantity",
     "how many: the text says all, the rules one"),
])
def test_a_text_that_says_otherwise_is_a_disagreement(tmp_path, rule, text, kind, message):
    root = game_of(tmp_path, {"id": "x", "type": "action", "rule": rule, "text": text})
    found = explained(root)["x"].disagreements
    assert [(d.kind, d.message) for d in found] == [(kind, message)]


def test_keywords_and_triggers_disagree_both_ways(tmp_path):
    root = game_of(tmp_path,
                   {"id": "a", "type": "character", "kind": "auto", "rule": "abilities = cantblock",
                    "text": "This character cannot be blocked."},
                   {"id": "b", "type": "character", "kind": "auto", "rule": "auto = ~attacks~ bp(+200) to(this)",
                    "text": "When this character blocks, it gets +200 BP."},
                   {"id": "c", "type": "character", "kind": "auto", "rule": "abilities = cantblock",
                    "text": "Reckless. This character can't block."})
    e = explained(root)
    assert sorted(d.message for d in e["a"].disagreements) == [
        "the rules give 'cannot block', the text does not say so",
        "the text says 'cannot be blocked', the rules do not"]
    assert [d.message for d in e["b"].disagreements] == ["when: the text says blocks, the rules attacks"]
    assert e["c"].disagreements == []


def test_what_the_text_leaves_out_is_not_a_disagreement(tmp_path):
    root = game_of(tmp_path,
                   {"id": "cost", "type": "action", "rule": "action = {D}: draw(2)", "text": "Draw two cards."},
                   {"id": "flavour", "type": "action", "rule": "action = draw(2)", "text": "The night market never sleeps."},
                   {"id": "reminder", "type": "character", "kind": "auto", "rule": "abilities = rush",
                    "text": "This character is never fresh (it may attack the turn it is played)."})
    assert {k: v.disagreements for k, v in explained(root).items()} == {"cost": [], "flavour": [], "reminder": []}


def test_explain_cli_reports_located_warnings_and_exits_1(tmp_path):
    root = game_of(tmp_path, {"id": "ok", "type": "action", "rule": "action = draw()", "text": "Draw a card."},
                   {"id": "bad", "type": "action", "rule": "action = damage(200) to(opp)",
                    "text": "Deal 300 damage to your opponent."})
    proc = run("rulescript", "explain", root)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    # the rule [bad] is the second section of rules/corpus.ini: line 4, the id after '[' at column 2
    assert re.search(r"rules/corpus\.ini:4:2: warning\[RX101\]: Corpus Card 2 \(bad\): damage: the text says 300, "
                     r"the rules say 200", out), out
    assert "  printed:   Deal 300 damage to your opponent." in out
    assert "  generated: Deal 200 damage to your opponent." in out
    assert "[bad]\n" in out and "^~~" in out  # the source line and a caret
    assert out.rstrip().endswith("2 cards explained: 1 disagreement in 1 card")


def test_explain_cli_json_and_card_selection(tmp_path):
    root = game_of(tmp_path, {"id": "ok", "type": "action", "rule": "action = draw()", "text": "Draw a card."},
                   {"id": "bad", "type": "action", "rule": "action = damage(200) to(opp)",
                    "text": "Deal 300 damage to your opponent."})
    proc = run("rulescript", "explain", root, "ok", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"cards": [{"id": "ok", "name": "Corpus Card 1", "printed": "Draw a card.",
                                                  "generated": "Draw a card.", "disagreements": []}]}
    proc = run("rulescript", "explain", root, "--format", "json")
    assert proc.returncode == 1
    bad = json.loads(proc.stdout)["cards"][1]
    assert bad["disagreements"] == [{"kind": "number", "printed": "damage 300", "rules": "damage 200",
                                     "message": "damage: the text says 300, the rules say 200"}]


def test_explain_cli_usage_errors(tmp_path):
    fails(run("rulescript", "explain", tmp_path / "missing"), 2, "no such file or folder")
    fails(run("rulescript", "explain", DEMO, "ink-vipr"), 2, "no card 'ink-vipr'", "ink-viper")
    broken = tmp_path / "broken"
    shutil.copytree(DEMO, broken)
    (broken / "rules" / "actions.ini").write_text("[second-wind]\naction = draww(2)\n", encoding="utf-8")
    fails(run("rulescript", "explain", broken), 1, "fix them first")


@pytest.mark.parametrize("game, count", [(DEMO, 119), (WEREWOLF, 53)])
def test_the_bundled_games_agree_with_themselves(game, count):
    proc = run("rulescript", "explain", game)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert proc.stdout.rstrip().endswith(f"{count} cards explained: no disagreement")


# ---------------------------------------------------------------- measured on labelled corpora
@pytest.mark.parametrize("corpus, cards", [("corpus.yaml", 162), ("holdout.yaml", 62)])
def test_precision_and_recall_on_labelled_corpora(corpus, cards):
    score = score_corpus(HERE / corpus)
    assert score.cards == cards
    assert score.precision >= 0.9, score.false_alarms
    assert score.recall >= 0.9, score.misses


# ---------------------------------------------------------------- the profile's templates
@pytest.mark.parametrize("name", ["cfc", "werewolf"])
def test_every_profile_entry_has_a_card_text_template(name):
    assert missing_card_text(load_profile(name)) == []


def test_a_card_text_template_for_an_unknown_entry_or_a_bad_pattern_is_a_located_error():
    text = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text(encoding="utf-8")
    bad = text.replace("    clear: {text: \"this does not use up the ability\"}",
                       "    clearr: {text: \"this does not use up the ability\"}")
    bad = bad.replace("      unite: ['\\bjoins? (?:a|the) United Attack']", "      unite: ['(unclosed']")
    with pytest.raises(ProfileError) as exc:
        profile_from_text(bad, "profile.yaml")
    found = {(d.code, d.message.split(":")[0]) for d in exc.value.diagnostics}
    assert found == {("RP302", "card_text.commands"), ("RP303", "card_text.printed.keywords.unite")}
    line = next(i for i, l in enumerate(bad.splitlines(), 1) if l.startswith("    clearr:"))
    assert any(d.code == "RP302" and d.span.line == line for d in exc.value.diagnostics)


def test_docs_show_the_templates():
    proc = run("rulescript", "docs", "cfc")
    assert proc.returncode == 0
    assert "### Command texts" in proc.stdout
    assert "| `damage` | deal {0} damage to {targets} | counts damage |" in proc.stdout
    assert "| `unblockable` | {holder} cannot be blocked | keyword unblockable |" in proc.stdout


# ---------------------------------------------------------------- everywhere a card is shown
def test_the_table_shows_what_the_rules_do():
    proc = run("rulescript", "play", DEMO, stdin="show ink-viper\nquit\n")
    assert ("  rules: When this character enters the ring: freeze target unfrozen character in your opponent's ring "
            "with 500 BP or less, and it does not unfreeze") in proc.stdout


def test_watch_prints_the_new_text_of_a_changed_rule(tmp_path):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game, ignore=shutil.ignore_patterns("scenarios"))
    out = []

    class Sink:
        def write(self, text):
            out.append(text)
            return len(text)

        def flush(self):
            pass

    w = Watcher(game, Sink(), scenarios=False)
    try:
        assert w.initial().ok
        p = game / "rules" / "actions.ini"
        p.write_text(p.read_text(encoding="utf-8").replace("action = draw(3) & discard(2)",
                                                           "action = draw(4) & discard(2)"), encoding="utf-8")
        res = w.process(["rules/actions.ini"])
        assert res.changed_rules == {"second-wind"}
    finally:
        w.stop()
    assert "  second-wind: Draw 4 cards, and discard 2 cards.\n" in "".join(out)


def test_the_octgn_package_shows_generated_text_for_a_card_without_printed_text(tmp_path):
    game = tmp_path / "demo"
    shutil.copytree(DEMO, game)
    data = yaml.safe_load((game / "cards.yaml").read_text(encoding="utf-8"))
    for card in data["cards"]:
        if card["id"] == "shade-sparrow":
            del card["text"]
    (game / "cards.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    proc = run("octgn-pack", "build", game, "-o", tmp_path / "dist")
    assert proc.returncode == 0, proc.stderr
    package = next((tmp_path / "dist").glob("*.o8g"))
    with zipfile.ZipFile(package) as z:
        set_xml = next(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith("set.xml"))
    sparrow = set_xml[set_xml.index('name="Shade Sparrow"'):]
    sparrow = sparrow[:sparrow.index("</card>")]
    assert '<property name="Text" value="This character cannot be blocked." />' in sparrow
    viper = set_xml[set_xml.index('name="Ink Viper"'):]
    assert 'value="When Ink Viper enters the ring: freeze an unfrozen opposing character' in viper[:viper.index("</card>")]
