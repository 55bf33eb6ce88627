"""Diagnostics over stdio: unsaved buffers checked by the project's own checkers, the same codes,
messages, ranges and severities as the command lines, and re-checks across files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from lsprotocol import types

from tests.lsp.conftest import ROOT, Docs

pytestmark = pytest.mark.asyncio(loop_scope="module")
ERROR, WARNING = types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning


def _cli(module: str, *args: str, cwd) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    return json.loads(out.stdout)


def _summary(d: types.Diagnostic) -> tuple:
    r = d.range
    return (d.code, d.message, d.severity, r.start.line, r.start.character, r.end.line, r.end.character)


async def test_a_clean_rule_file_has_no_diagnostics(client, games):
    assert await Docs(client).open(games / "cfc-demo" / "rules" / "powers.ini") == []


async def test_an_unsaved_typo_is_reported_as_rulescript_check_reports_it(client, games, tmp_path):
    docs = Docs(client)
    path = games / "cfc-demo" / "rules" / "actions.ini"
    text = path.read_text(encoding="utf-8")
    assert "draw(" in text
    bad = text.replace("draw(", "drwa(", 1)
    await docs.open(path)
    diags = await docs.change(path, bad)
    line = bad[:bad.index("drwa(")].count("\n")
    col = bad.index("drwa(") - (bad.rfind("\n", 0, bad.index("drwa(")) + 1)
    assert [_summary(d) for d in diags] == [("RS201", "unknown command 'drwa'", ERROR, line, col, line, col + 4)]
    assert diags[0].related_information[0].message == "did you mean: draw"
    # the file on disk is untouched; `rulescript check` on a saved copy says the same
    saved = tmp_path / "game"
    import shutil

    shutil.copytree(games / "cfc-demo", saved)
    (saved / "rules" / "actions.ini").write_text(bad, encoding="utf-8")
    cli = _cli("rulescript", "check", "--format", "json", str(saved), cwd=tmp_path)
    assert [(d["code"], d["message"], d["line"] - 1, d["column"] - 1, d["end_column"] - 1) for d in cli] == \
        [("RS201", "unknown command 'drwa'", line, col, col + 4)]
    assert path.read_text(encoding="utf-8") == text
    assert await docs.change(path, text) == []
    docs.close(path)


async def test_editing_cards_yaml_rechecks_the_rules_that_name_its_cards(client, games):
    docs = Docs(client)
    rules = games / "cfc-demo" / "rules" / "powers.ini"
    cards = games / "cfc-demo" / "cards.yaml"
    await docs.open(rules)
    text = cards.read_text(encoding="utf-8")
    client.diagnostics.pop(docs_uri(rules), None)
    await docs.open(cards)
    assert "id: warlord-brakka" in text
    await docs.change(cards, text.replace("id: warlord-brakka", "id: warlord-braka"))
    diags = await docs.diagnostics(rules)
    rules_text = rules.read_text(encoding="utf-8")
    line = rules_text.splitlines().index("[warlord-brakka]")
    assert ("RS915", "no card in cards.yaml has the rule id 'warlord-brakka'", WARNING, line, 1, line, 15) in \
        [_summary(d) for d in diags]
    client.diagnostics.pop(docs_uri(rules), None)
    await docs.change(cards, text)
    assert await docs.diagnostics(rules) == []
    docs.close(cards)


def docs_uri(path):
    from tests.lsp.conftest import uri

    return uri(path)


async def test_a_broken_game_yaml_is_a_diagnostic_of_game_yaml(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    await docs.open(path)
    diags = await docs.change(path, text.replace("profile: cfc", "profile: cfx"))
    assert [(d.code, d.message, d.severity) for d in diags] == [("RP201", "unknown profile 'cfx'", ERROR)]
    diags = await docs.change(path, text.replace("profile: cfc", "profile: [cfc"))
    assert [(d.code, d.severity) for d in diags] == [("RD101", ERROR)]
    assert await docs.change(path, text) == []
    docs.close(path)


async def test_scenario_checks_of_rulescript_test(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "scenarios" / "powers.yaml"
    text = path.read_text(encoding="utf-8")
    assert await docs.open(path) == []
    bad = text.replace("- attack: cave-bear", "- attack: cave-beer", 1)
    diags = await docs.change(path, bad)
    line = bad.splitlines().index("    - attack: cave-beer")
    assert [_summary(d) for d in diags] == [
        ("SC106", "steps[1].attack: unknown card id 'cave-beer'", ERROR, line, 14, line, 15)]
    assert diags[0].data == {"notes": ["did you mean: cave-bear"]}
    docs.close(path)


async def test_werewolf_scenarios_are_checked_like_rulescript_test_checks_them(client, games, tmp_path):
    """A werewolf scenario file: the checks its runner makes before it runs (unknown fields with a
    suggestion, a phase that is not 'day N' / 'night N'), as you type, and the same from `rulescript test`
    (run from a folder that holds a copy named `werewolf`: the profile name still names the shipped profile)."""
    docs = Docs(client)
    path = games / "werewolf" / "scenarios" / "seer.yaml"
    text = path.read_text(encoding="utf-8")
    assert await docs.open(path) == []
    bad = text.replace("      learned: {0: [\"Player 2", "      lerned: {0: [\"Player 2", 1).replace(
        "    until: day 1", "    until: dawn 1", 1)
    diags = await docs.change(path, bad)
    lines = bad.splitlines()
    typo, until = lines.index(next(ln for ln in lines if "lerned:" in ln)), lines.index("    until: dawn 1")
    got = sorted((d.code, d.message, d.range.start.line, d.range.start.character) for d in diags)
    assert got == sorted([
        ("SC103", "unknown field 'lerned' in scenario 'seer reads a werewolf on night 1'.expect", typo, 6),
        ("SC105", "scenario 'seer reads a werewolf on night 1'.until must be a phase such as 'day 2' or "
                  "'night 1', got 'dawn 1'", until, 11)])
    typo_diag = next(d for d in diags if d.code == "SC103")
    assert typo_diag.data == {"notes": ["did you mean: learned"]}
    assert await docs.change(path, text) == []
    docs.close(path)
    saved = tmp_path / "werewolf"
    import shutil

    shutil.copytree(games / "werewolf", saved)
    (saved / "scenarios" / "seer.yaml").write_text(bad, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rulescript", "test", str(saved / "scenarios" / "seer.yaml")],
                         capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         timeout=120)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"seer.yaml:{typo + 1}:7: error[SC103]: unknown field 'lerned'" in out.stdout
    assert f"seer.yaml:{until + 1}:12: error[SC105]: " in out.stdout


async def test_wwrf_elements_are_checked_like_wwrf_check(client, games, tmp_path):
    docs = Docs(client)
    path = games / "werewolf" / "roles" / "bodyguard"
    text = path.read_text(encoding="utf-8")
    assert await docs.open(path) == []
    bad = text.replace("Immediate Night: Protect @Selection", "Immediate Night: Protec @Selection")
    diags = await docs.change(path, bad)
    line = next(i for i, ln in enumerate(bad.splitlines()) if "Protec @" in ln)
    assert [_summary(d) for d in diags] == [("WW202", "unknown ability 'Protec'", ERROR, line, 17, line, 23)]
    saved = tmp_path / "roles"
    import shutil

    shutil.copytree(games / "werewolf" / "roles", saved)
    (saved / "bodyguard").write_text(bad, encoding="utf-8")
    cli = _cli("wwrf_adapter.cli", "check", "--format", "json", str(saved / "bodyguard"), cwd=tmp_path)
    assert [(d["code"], d["message"], d["line"] - 1, d["column"] - 1, d["end_column"] - 1) for d in cli] == \
        [("WW202", "unknown ability 'Protec'", line, 17, 23)]
    assert await docs.change(path, text) == []
    docs.close(path)


async def test_editing_an_ability_set_rechecks_the_roles_that_inherit_it(client, games):
    docs = Docs(client)
    role = games / "werewolf" / "roles" / "den keeper"
    blood = games / "werewolf" / "roles" / "wolf blood"
    assert "Inherit: `Wolf Blood`" in role.read_text(encoding="utf-8")
    assert await docs.open(role) == []
    text = blood.read_text(encoding="utf-8")
    await docs.open(blood)
    client.diagnostics.pop(docs_uri(role), None)
    await docs.change(blood, text.replace("**Wolf Blood**", "**Wolf Bloods**"))
    diags = await docs.diagnostics(role)
    line = role.read_text(encoding="utf-8").splitlines().index("Inherit: `Wolf Blood`")
    assert [_summary(d) for d in diags] == [
        ("WW907", "unknown ability set 'Wolf Blood': nothing inherited", WARNING, line, 9, line, 21)]
    client.diagnostics.pop(docs_uri(role), None)
    await docs.change(blood, text)
    assert await docs.diagnostics(role) == []
    docs.close(blood)
    docs.close(role)
