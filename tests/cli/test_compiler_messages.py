"""Issue 14: compiler diagnostics that were off, through ``rulescript check``."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import fails, run


def test_rs915_caret_is_under_the_id(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("[no-such-card]\naction = {F}: draw()\n")
    out = run("rulescript", "check", small_game).stdout
    assert "mine.ini:1:2: warning[RS915]: no card in cards.yaml has the rule id 'no-such-card'" in out
    assert "    [no-such-card]\n     ^~~~~~~~~~~~\n" in out


def test_properties_under_a_bad_header_are_reported(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text(
        "[ember monk]\naction = {F}: draw()\n[baron-cinder]\naction = {F}: draw()\n"
        "[bad header\naction = {F}: draw()\nauto = ~myEndPhase~ hp(+100)\n")
    out = fails(run("rulescript", "check", small_game), 1) + run("rulescript", "check", small_game).stdout
    assert "mine.ini:1:2: error[RS103]: invalid section id 'ember monk'" in out
    assert "so the 1 property under it (line 2) is not compiled" in out and "RS109" not in out
    assert "mine.ini:5:1: error[RS101]: malformed section header" in out
    assert "so the 2 properties under it (lines 6-7) are not compiled" in out


def test_quote_inside_a_name_is_explained(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: to('it''s'@myDeck)\n")
    out = fails(run("rulescript", "check", small_game), 1) + run("rulescript", "check", small_game).stdout
    assert "error[RS101]: a card type cannot come here in a target filter" in out
    assert "unexpected a type" not in out
    assert """to put ' in it, delimit it with " ("it's")""" in out


def test_an_action_its_card_can_never_use(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("[pond-toad]\naction = {F}: draw()\n")
    out = run("rulescript", "check", small_game).stdout
    assert "mine.ini:2:10: warning[RS916]: the action of 'pond-toad' can never run: it has no ability" in out


def test_scenario_step_says_why_it_is_not_offered(small_game: Path) -> None:
    (small_game / "scenarios" / "mine.yaml").write_text(
        "name: activate a card without a triggered ability\nsetup:\n  players:\n    - ring: [shade-sparrow]\n"
        "steps:\n  - activate: shade-sparrow\n")
    fails(run("rulescript", "test", small_game), 1, "shade-sparrow's action is not offered: its card has no "
          "triggered ability (its ability is auto)")
