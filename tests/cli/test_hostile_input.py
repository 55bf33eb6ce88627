"""Issue 13, the loaders: every hostile input is a located diagnostic, never a hang or a crash."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.cli.conftest import DEMO, fails, run

BILLION_LAUGHS = "".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n']
    + [f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")])


# 5 levels of 8 aliases: 80,254 values once expanded (by hand: a holds 9 values with itself, b
# 8 * 9 + 1 = 73, c 585, d 4,681, e 37,449, g 37,450; the 6 keys and the root), under the loader's 100,000
MANY_ALIASES = "".join(
    ["a: &a [1, 1, 1, 1, 1, 1, 1, 1]\n"]
    + [f"{c}: &{c} [{', '.join(['*' + p] * 8)}]\n" for p, c in zip("abcd", "bcde")]
    + ["g: [*e]\n"])


def _scenario(game: Path, text: str) -> None:
    (game / "scenarios" / "mine.yaml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("text, where, message", [
    ("name: a\x01b\nsteps: []\n", "mine.yaml:1:8", "control character U+0001 is not allowed"),
    ("a: " + "[" * 500 + "]" * 500 + "\n", "mine.yaml:1:103", "nested more than 100 levels deep"),
    ("name: x\nseed: !!float x\n", "mine.yaml:2:7", "float value 'x' cannot be read"),
    ("name: x\nseed: !!int " + "9" * 4301 + "\n", "mine.yaml:2:7", "Exceeds the limit (4300 digits)"),
    ("name: x\ngame: " + "g" * 300 + "\n", "mine.yaml:2:7", "game is not a folder path: it is longer than a path"),
    # by hand: a holds 10 values, b 91, c 820, d 7,381, e 66,430, f 597,871: f (line 6) passes 100,000
    (BILLION_LAUGHS, "mine.yaml:6:4:", "its aliases expand it to more than 100,000 values"),
    ("x: &a [1, *a]\n", "mine.yaml:1:11", "alias 'a' refers to a collection that holds it"),
    ("name: x\n---\nname: y\n", "mine.yaml:2:1", "expected a single document"),
])
def test_hostile_scenario_yaml(small_game: Path, text: str, where: str, message: str) -> None:
    assert len(BILLION_LAUGHS) < 450
    _scenario(small_game, text)
    t0 = time.monotonic()
    out = fails(run("rulescript", "test", small_game, timeout=60), 1, where, message)
    assert time.monotonic() - t0 < 30, out


@pytest.mark.parametrize("manifest, code, message", [
    ("- a\n- b\n", "RD102", "game.yaml must be a mapping"),
    ("just text\n", "RD102", "game.yaml must be a mapping"),
    ("profile: /dev/zero\n", "RP202", "is not inside the game folder"),
    ("profile: ../../../etc/passwd\n", "RP202", "is not inside the game folder"),
    ("profile: rules/\n", "RP202", "is not a .yaml file of the game folder"),
    ("profile: nope\n", "RP201", "unknown profile 'nope'"),
    ("profile: [cfc]\n", "RD102", "'profile' must be the name of a profile"),
    ("profile: " + BILLION_LAUGHS.replace("\n", "\n  ") + "\n", "RD101", "invalid YAML"),
])
def test_hostile_game_yaml(small_game: Path, manifest: str, code: str, message: str) -> None:
    (small_game / "game.yaml").write_text(manifest, encoding="utf-8")
    fails(run("rulescript", "check", small_game, timeout=60), 1, "game.yaml:1:", f"error[{code}]: ", message)


def test_profile_inside_the_game_folder_is_used(small_game: Path) -> None:
    (small_game / "profile").mkdir()
    (small_game / "profile" / "mine.yaml").write_bytes((DEMO.parent.parent / "rulescript" / "games" / "cfc" /
                                                        "profile.yaml").read_bytes())
    (small_game / "game.yaml").write_text("profile: profile/mine.yaml\n")
    assert run("rulescript", "check", small_game).returncode == 0


@pytest.mark.parametrize("cards, message", [
    ("cards:\n  - id: x\n    name: [1\n", "cards.yaml:4:1: error[RD101]: invalid YAML"),
    ("cards: " + "[" * 300 + "]" * 300 + "\n", "nested more than 100 levels deep"),
    ("cards:\n  - {id: a, name: A, type: character, bp: !!int " + "1" * 4400 + "}\n", "int value"),
    ("cards:\n  - {id: \"\\udc80\", name: A, type: character}\n", "cards.yaml:2:"),
    ("cards:\n  - {id: a, name: A, type: wizard}\n", "cards.yaml:2:28: error[RD110]: card #1 (a): type must be one of"),
])
def test_play_and_test_read_cards_like_check(small_game: Path, cards: str, message: str) -> None:
    (small_game / "cards.yaml").write_text(cards, encoding="utf-8", errors="surrogatepass")
    fails(run("rulescript", "play", small_game, "--auto"), 1, message)
    fails(run("rulescript", "test", small_game), 1, message)


def test_deck_errors_are_located(small_game: Path) -> None:
    (small_game / "decks" / "deck-a.yaml").write_text("name: A\ncards:\n  no-such-card: 3\n")
    fails(run("rulescript", "play", small_game, "--auto"), 1,
          "deck-a.yaml:3:3: error[RD110]: unknown card id 'no-such-card'")


def test_importer_folding_is_bounded(tmp_path: Path) -> None:
    setxml = DEMO.parent.parent / "tests" / "importer" / "fixtures" / "plugin" / "set.xml"
    (tmp_path / "double.py").write_text('A = "xxxxxxxxxx"\n' + "A = A + A\n" * 24 + 'rules = {"abc": A}\n')
    (tmp_path / "sum.py").write_text('rules = {"abc": ' + " + ".join(['"x"'] * 20000) + "}\n")
    t0 = time.monotonic()
    proc = run("rulescript", "import", tmp_path / "double.py", "--set", setxml, "-o", tmp_path / "out1", cwd=tmp_path)
    fails(proc, 1, "double.py:26:17: error[RI102]", "a string sum longer than 1,000,000 characters once folded")
    proc = run("rulescript", "import", tmp_path / "sum.py", "--set", setxml, "-o", tmp_path / "out2", cwd=tmp_path)
    fails(proc, 1, "sum.py:1:1: error[RI104]: the file is nested too deeply to be read")
    assert time.monotonic() - t0 < 60


def test_wwrf_large_numbers_and_deep_inheritance(tmp_path: Path) -> None:
    fixture = DEMO.parent.parent / "tests" / "fixtures" / "wwrf-examples" / "lamplighter"
    one = tmp_path / "one"
    one.mkdir()
    (one / "lamplighter").write_text(fixture.read_text().replace("Night 2+", "Night " + "9" * 4301 + "+"))
    fails(run("wwrf", "check", one), 1, "error[WW104]: ", "number too large (4301 digits; at most 9)")
    chain = tmp_path / "chain"
    chain.mkdir()
    for i in range(250):
        body = f"Inherit: `Set {i + 1}`\n" if i < 249 else "Starting: Join #Werewolf-Pack (~Permanent)\n"
        (chain / f"set {i}").write_text(f"**Set {i}** | Ability Set\n{body}")
    fails(run("wwrf", "check", chain, timeout=120), 1, "error[WW111]: ability set", "chain of more than 40")


def test_spaces_before_equals_are_linear(tmp_path: Path) -> None:
    rules = tmp_path / "spaces.ini"
    rules.write_text("[a]\naction = {F}: draw()\nfoo" + " " * 80000 + "bar\nkey" + " " * 80000 + "x = 1\n")
    t0 = time.monotonic()
    fails(run("rulescript", "check", rules), 1, "spaces.ini:3:1: error[RS101]: expected 'key = value'",
          "spaces.ini:4:1: error[RS101]: a key of 80,004 characters")
    assert time.monotonic() - t0 < 20


def test_aliases_cost_the_file_not_their_expansion(small_game: Path, tmp_path: Path) -> None:
    """Issue 13 (fuzz: slow scenario and game files): a value met again through an alias is the value
    already built, so a document under the alias limit loads in time linear in the file."""
    from rulescript.sim.cards import load_cards
    from rulescript.sim.scenario import run_text
    from rulescript.sim.scenario_yaml import load_located

    def indent(n: int) -> str:
        return "".join(" " * n + line + "\n" for line in MANY_ALIASES.splitlines())

    t0 = time.monotonic()
    doc, dups = load_located(MANY_ALIASES, "x.yaml")
    assert dups == [] and doc["g"][0] is doc["e"] and doc["e"][7] is doc["d"]
    (res,) = run_text(f"game: {small_game}\nname: x\nrules: false\nx-junk:\n{indent(2)}", "case.yaml", small_game)
    assert "case.yaml:4:1: error[SC103]: unknown field 'x-junk'" in res.failures[0]
    cards = tmp_path / "cards.yaml"
    cards.write_text(f"cards:\n- id: a\n  name: A\n  type: action\n  extra:\n{indent(4)}")
    extra = load_cards(cards)["a"]["extra"]
    assert type(extra) is dict and extra["g"][0] is extra["e"] and len(extra["e"][7][7][7][7]) == 8
    assert time.monotonic() - t0 < 2.0


def test_the_value_limit_counts_a_file_without_aliases_too(tmp_path: Path) -> None:
    """Issue 23 (fuzz, octgn-build: a 15 MB file of 1.1 million values under the old limits took 25 s
    to refuse): a file of more than 100,000 values is refused where the count passes the limit."""
    from rulescript import yamlsafe

    # line 1 "a:", then one item per line: the mapping, the key "a" and the list are the first three
    # values, so the 100,001st value is item 99,998, on line 1 + 99,998
    text = "a:\n" + "- x\n" * 99_998
    with pytest.raises(yamlsafe.YamlError) as err:
        yamlsafe.compose(text, "big.yaml")
    d = err.value.diagnostic
    assert (d.span.line, d.span.col) == (99_999, 3) and "more than 100,000 values" in d.message
    with pytest.raises(yamlsafe.YamlError) as err:
        yamlsafe.load(text, "big.yaml")
    d = err.value.diagnostic
    assert (d.span.line, d.span.col) == (99_999, 3) and "it holds more than 100,000 values" in d.message
    # one value fewer reads
    assert len(yamlsafe.load("a:\n" + "- x\n" * 99_997, "ok.yaml")["a"]) == 99_997
