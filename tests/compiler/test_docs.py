"""`rulescript docs`: the committed CFC reference is generated from the profile and up to date."""

from __future__ import annotations

from rulescript.cli import main
from rulescript.docgen import render
from rulescript.compiler.profile import load_profile
from tests.conftest import ROOT

COMMITTED = ROOT / "rulescript" / "games" / "cfc" / "reference.md"


def test_committed_reference_is_up_to_date() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == render("cfc"), \
        "rulescript/games/cfc/reference.md is stale: run 'rulescript docs cfc -o rulescript/games/cfc/reference.md'"


def test_reference_lists_every_profile_entry() -> None:
    text = render("cfc")
    prof = load_profile("cfc")
    for cmd in prof.commands.values():
        assert f"`{cmd.signature}`" in text
    for table in (prof.events, prof.hooks, prof.abilities, prof.restrictions, prof.game_rules, prof.zones,
                  prof.filter_words, prof.type_keywords):
        for name in table:
            assert f"`{name}`" in text, name


def test_check_flag_detects_a_stale_file(tmp_path, capsys) -> None:
    out = tmp_path / "cfc.md"
    assert main(["docs", "cfc", "-o", str(out)]) == 0
    assert main(["docs", "cfc", "-o", str(out), "--check"]) == 0
    out.write_text(out.read_text() + "edited by hand\n")
    assert main(["docs", "cfc", "-o", str(out), "--check"]) == 1
    assert "out of date" in capsys.readouterr().err


def test_docs_to_stdout(capsys) -> None:
    assert main(["docs"]) == 0
    assert capsys.readouterr().out.startswith("# RuleScript reference: the `cfc` profile")
