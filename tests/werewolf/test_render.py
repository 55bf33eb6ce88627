"""wwrf render: the AIWolf standard game renders with no 'not supported' line, the project's game is
up to date with its WWRF sources, and what cannot be rendered is reported where it is written."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulescript.compiler import compile_game
from wwrf_adapter.cli import main as wwrf_main
from wwrf_adapter.render import render_book

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "cards" / "werewolf"
EXAMPLES = ROOT / "tests" / "fixtures" / "wwrf-examples"  # the 30 WWRF example files of the project
AIWOLF = ["villager", "seer", "medium", "bodyguard", "werewolf", "possessed", "villagers", "werewolves",
          "werewolf pack", "pack hunt", "lynch", "wolf blood", "lupine", "overrun", "village square"]


def test_the_rendered_game_is_up_to_date_with_its_wwrf_sources(tmp_path):
    result = render_book(GAME / "roles", GAME, write=False)
    assert not result.diagnostics, [d.render() for d in result.diagnostics]
    stale = [rel for rel, text in result.files.items() if (GAME / rel).read_text(encoding="utf-8") != text]
    assert not stale, f"run: wwrf render cards/werewolf/roles -o cards/werewolf ({stale})"
    rendered = {f"rules/{p.name}" for p in (GAME / "rules").glob("*.ini")}
    assert rendered == {rel for rel in result.files if rel.startswith("rules/")}


def test_the_rendered_game_compiles_clean():
    compiled = compile_game(GAME)
    assert compiled.ok and not compiled.diagnostics, compiled.render()
    assert {"seer--divine", "bodyguard--guard", "medium--1", "werewolves--win", "lynch--poll"} <= set(compiled.rules)


def test_the_aiwolf_example_files_render_with_no_unsupported_line(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    for name in AIWOLF:
        (book / name).write_bytes((EXAMPLES / name).read_bytes())
    out = tmp_path / "game"
    result = render_book(book, out)
    assert not result.diagnostics, [d.render() for d in result.diagnostics]
    compiled = compile_game(out)
    assert compiled.ok and not [d for d in compiled.diagnostics if d.is_error], compiled.render()


def test_each_section_quotes_its_wwrf_line():
    text = (GAME / "rules" / "bodyguard.ini").read_text(encoding="utf-8")
    assert "# bodyguard:12  Immediate Night: Protect @Selection from `Attacks` through Active Defense" in text
    assert "temporal = night 2+" in text and "protect(attacks, active) to(selection) phase" in text
    # lines spliced in from an ability set point at the set's file
    assert "# wolf blood:3  Starting: Join #Werewolf-Pack (~Permanent)" in (GAME / "rules" / "werewolf.ini").read_text()


def test_an_unsupported_line_gets_a_located_diagnostic_and_the_rest_is_rendered(tmp_path, capsys):
    book = tmp_path / "book"
    book.mkdir()
    (book / "oracle").write_text(
        "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
        "Immediate Night: Learn `You feel watched.` [Temporal: Night 1]\n"
        "On Death: Learn `The count was %Number:@All%.`\n", encoding="utf-8")
    out = tmp_path / "game"
    code = wwrf_main(["render", str(book), "-o", str(out)])
    printed = capsys.readouterr().out
    assert code == 1
    # a number "from a list of players" means nothing: only %Role:…% and %Player:…% come from a list
    assert (f"{book / 'oracle'}:4:1: error[WW401]: not supported by the werewolf renderer: the host "
            "information '%Number:@All%': only %Role:…% and %Player:…% come from a list of their type") in printed
    ini = (out / "rules" / "oracle.ini").read_text(encoding="utf-8")
    assert "[oracle--1]" in ini and "learn('You feel watched.')" in ini
    assert "# NOT SUPPORTED: the host information '%Number:@All%'" in ini and "# oracle:4  On Death" in ini


def test_host_information_and_team_sets_render_to_host_and_teams(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    (book / "oracle").write_text(
        "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
        "Starting: Learn `%Player 2% %RoleOnFile% %Number% %String_Motto% %Left | Right%`\n"
        "Starting: Learn `%Role:^(Cat:Killing)% %Player1:@(Align:Werewolves)% &(Attr:Lupine)`\n"
        "Passive Start Night: Protect %Player2% from `Attacks` through Passive Defense\n"
        "Starting: Role Change @Self to %Role:^(Team:Villagers)%\n"
        "Starting: Learn `%Banana%`\n"
        "Starting: Learn `%Role:Townsfolk%`\n"
        "Starting: Learn `%Player:^All%`\n"
        "Starting: Learn `%Yes||No%`\n", encoding="utf-8")
    result = render_book(book, tmp_path / "game", write=False)
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    text = "\n".join(v for sec in oracle.sections for _k, v in sec.keys)
    for expr in ("host('Player2')", "host('RoleOnFile')", "host('Number')", "host('String_Motto')",
                 "host('Left | Right')", "host('Role', roles('category=killing'))", "teams('attr=lupine')",
                 "host('Player1', getTargets(\"players[alive]::team('werewolves')\"))",
                 "to(players::keep(host('Player2')))", "roleChange(host('Role', roles('team=villagers'))) to(me)"):
        assert expr in text, (expr, text)
    mine = [d for d in result.diagnostics if Path(d.span.file).name == "oracle"]
    assert [d.code for d in mine] == ["WW401"] * 4
    assert sorted((d.span.line, d.message.split(": ", 1)[1]) for d in mine) == [
        (7, "the host information '%Banana%': not a kind the guides know (Role…, Player…, Number…, String…, "
            "PartialRoleList, options a|b)"),
        (8, "the host information '%Role:Townsfolk%': 'Townsfolk' is not a list of roles (a selector ^(…))"),
        (9, "the host information '%Player:^All%': '^All' is not a list of players (a selector @(…))"),
        (10, "the host information '%Yes||No%': an option is empty")]


def test_report_counts_constructs(capsys):
    assert wwrf_main(["render", str(GAME / "roles"), "-o", str(GAME), "--check", "--report"]) == 0
    out = capsys.readouterr().out
    assert "investigating/attribute" in out and "Immediate Night" in out and "@(Attr:!…)" in out


def test_all_thirty_example_files_render_with_no_unsupported_line_and_compile(tmp_path):
    out = tmp_path / "game"
    result = render_book(EXAMPLES, out)
    assert not result.diagnostics, [d.render() for d in result.diagnostics]
    assert len(result.elements) == 29  # the ability set is rendered into the roles that inherit it
    compiled = compile_game(out)
    assert compiled.ok and not [d for d in compiled.diagnostics if d.is_error], compiled.render()
