"""docs/game-format.md: the example game of the page checks cleanly, loads, and passes its scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.cli import main
from rulescript.sim.cards import load_game
from tests.conftest import ROOT
from tests.docs import mdblocks

PAGE = ROOT / "docs" / "game-format.md"
BLOCKS = mdblocks.blocks(PAGE)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    written = []
    for b in BLOCKS:
        rel = b.option("file")
        if rel:
            path = tmp_path / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b.text, encoding="utf-8")
            written.append(rel)
    assert sorted(written) == ["tiny/cards.yaml", "tiny/game.yaml", "tiny/rules/tiny.ini",
                               "tiny/scenarios/tiny.yaml"]
    return tmp_path / "tiny"


def test_example_game_checks_without_any_diagnostic(tiny: Path, capsys) -> None:
    assert main(["check", "-W", str(tiny)]) == 0
    captured = capsys.readouterr()
    assert "warning[" not in captured.out + captured.err
    shown = [b.text.strip() for b in BLOCKS if b.info == ["text"]][-1]
    assert shown in captured.err


def test_example_cards_pass_the_game_checks(tiny: Path) -> None:
    data = load_game(tiny)
    assert sorted(data.models) == ["quick-heal", "spark-imp", "stone-golem"]
    assert data.models["spark-imp"]["ability"] == {"kind": "instant", "name": "Sparks"}


def test_example_scenario_passes(tiny: Path, capsys) -> None:
    assert main(["test", str(tiny)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_a_broken_rule_fails_the_check(tiny: Path, capsys) -> None:
    rules = tiny / "rules" / "tiny.ini"
    rules.write_text(rules.read_text().replace("hp(+300)", "hp(+300"), encoding="utf-8")
    assert main(["check", str(tiny)]) == 1
    assert "error[RS101]" in capsys.readouterr().out


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.option("excerpt")], ids=lambda b: b.option("excerpt"))
def test_excerpts_are_the_start_of_the_file_they_quote(block: mdblocks.Block) -> None:
    source = (ROOT / block.option("excerpt")).read_text(encoding="utf-8")
    assert source.startswith(block.text)
