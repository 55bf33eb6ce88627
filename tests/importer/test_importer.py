"""`rulescript import` end to end on an invented plugin (tests/importer/fixtures/plugin)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulescript.importer import migrate as importer
from rulescript.compiler import compile_game
from rulescript.importer.pysource import read_rules_py
from rulescript.importer import ImportUsageError, import_plugin, main_import

FIXTURE = Path(__file__).parent / "fixtures" / "plugin"

FAILED = {
    "262a1a5f-b665-497f-90cf-5193bd94516a": "not a literal string (a function call to make_rule())",
    "4ed683b6-07bc-4722-ac3b-03ad2d8fbd61": "unknown command 'smash'",
    "b04881f5-ad36-4771-9d35-2b11d8e32f7c": "unbalanced '('",
    "eafba7cf-c2d8-4a70-a672-6f88d354b734": "not a literal string (an f-string)",
}


@pytest.fixture()
def plugin(tmp_path: Path) -> Path:
    """A private copy of the fixture plugin: if rules.py ever ran, its marker would appear here."""
    dest = tmp_path / "plugin"
    shutil.copytree(FIXTURE, dest)
    return dest


@pytest.fixture()
def imported(plugin: Path, tmp_path: Path):
    out = tmp_path / "game"
    report = import_plugin(plugin / "rules.py", plugin / "set.xml", out)
    return report, out, plugin


def _line_col(path: Path, needle: str) -> tuple[int, int]:
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")


def _section(ini: str, card_id: str) -> str:
    m = re.search(rf"^\[{card_id}\]\n(.*?)(?=\n\n|\Z)", ini, re.S | re.M)
    assert m, card_id
    return m.group(1)


# --------------------------------------------------------------------------- never executed

def test_rules_py_is_never_executed(imported) -> None:
    report, out, plugin = imported
    assert report.written
    assert not (plugin / "EXECUTED.txt").exists()
    assert not (FIXTURE / "EXECUTED.txt").exists()


def test_the_fixture_would_leave_its_marker_if_it_ran(tmp_path: Path) -> None:
    """Proves the previous test can fail: running the plugin file does write the marker and exit non-zero."""
    import subprocess
    import sys

    copy = tmp_path / "ran"
    shutil.copytree(FIXTURE, copy)
    proc = subprocess.run([sys.executable, str(copy / "rules.py")], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "must never be executed" in proc.stderr
    assert (copy / "EXECUTED.txt").read_text() == "the importer executed rules.py\n"


def test_reader_finds_every_entry_and_ignores_other_dicts(plugin: Path) -> None:
    src = read_rules_py(plugin / "rules.py")
    assert src.dict_names == ["RulesDict"]
    assert len(src.entries) == 20
    assert "debug" not in {e.key for e in src.entries}
    by_key = {e.key.lower().strip("{}"): e for e in src.entries}
    assert by_key["7c7e8b0c-279e-4c8a-ace3-ee9aa947cb43"].text == "target = character@myRing\naction = bp(=tgt.bp * 2)"
    assert by_key["cc3ff3df-d61f-49c8-86f8-a936879e6057"].comments == ["# Gale Courier: a legacy boolean in the position slot"]
    assert by_key["6a87eb07-4a3d-46d3-ae48-303d64cfad05"].comments == ["# Echo Striker: tgt used as one card"]


def test_non_literal_values_are_reported_with_position(plugin: Path) -> None:
    src = read_rules_py(plugin / "rules.py")
    errors = {d.span.line: d for d in src.diagnostics if d.is_error}
    line, col = _line_col(plugin / "rules.py", 'make_rule("damage')
    assert errors[line].code == "RI102" and errors[line].span.col == col
    assert "function call" in errors[line].message
    line, col = _line_col(plugin / "rules.py", 'f"action = damage(')
    assert errors[line].span.col == col and "f-string" in errors[line].message


def test_columns_are_characters_and_big_files_are_read_quickly(tmp_path: Path) -> None:
    import time

    py = tmp_path / "wide.py"
    body = "".join(f"    'card-{i}': '''\n        abilities = rush\n    ''',\n" for i in range(3000))
    py.write_text("RULES = {'ñandú-señal': 'abilities = rush', 'b-card': bad()}\n\fMORE_RULES = {\n" + body + "}\n",
                  encoding="utf-8")
    start = time.perf_counter()
    src = read_rules_py(py)
    assert time.perf_counter() - start < 10  # linear in the file size (ast.get_source_segment is quadratic)
    assert len(src.entries) == 3002
    [err] = [d for d in src.diagnostics if d.is_error]
    line = py.read_text(encoding="utf-8").split("\n")[0]
    assert (err.span.line, err.span.col) == (1, line.index("bad()") + 1)
    assert src.entries[2].line_map == [3, 4, 5] and src.entries[-1].line_map[0] == 3 + 3 * 2999


def test_python2_plugin_is_read_statement_by_statement(tmp_path: Path) -> None:
    py = tmp_path / "rules2.py"
    py.write_text('print "loading rules"\nRULES = {\n    "paper-crow": "abilities = rush",  # a bird\n}\n'
                  'def f(x):\n    print x\n', encoding="utf-8")
    src = read_rules_py(py)
    assert [(e.key, e.text, e.comments) for e in src.entries] == [("paper-crow", "abilities = rush", ["# a bird"])]
    assert not any(d.is_error for d in src.diagnostics)


def test_python2_rules_statement_is_reported_and_kept(tmp_path: Path) -> None:
    py = tmp_path / "old.py"
    py.write_text("print 'x'\nRULES = {'a-b': ur'abilities = rush'}\nRULES['c-d'] = 'action = draw()'\n",
                  encoding="utf-8")
    report = import_plugin(py, None, tmp_path / "g")
    assert report.converted == ["c-d"] and report.exit_code == 1
    [failed] = report.failed
    assert (failed.py_span.line, failed.py_span.col) == (2, 1) and "not valid Python 3" in failed.reason
    ini = (tmp_path / "g" / "rules" / "old.ini").read_text(encoding="utf-8")
    assert "# RULES = {'a-b': ur'abilities = rush'}" in ini
    assert ini.index("# RULES = {") < ini.index("[c-d]")  # source order is kept
    assert any(d.code == "RI101" and d.span.line == 2 for d in report.diagnostics)


def test_names_bound_to_literal_strings_and_update_calls_are_read(tmp_path: Path) -> None:
    py = tmp_path / "consts.py"
    py.write_text('FIRE = """\naction = damage(100) to(opp)\n"""\nICE = "action = freeze() to(character@oppRing)"\n'
                  'CARD = "ice-card"\n'
                  'RULES = {"fire-card": FIRE, CARD: ICE + "; draw()", "late": LATER}\n'
                  'LATER = "abilities = rush"\nICE = ICE.upper()\n'
                  'RULES.update({"ice2": ICE, "warm": FIRE})\nRULES.setdefault("x", "y")\n', encoding="utf-8")
    src = read_rules_py(py)
    got = {e.key: (e.text, e.reason) for e in src.entries}
    assert got["fire-card"] == ("\naction = damage(100) to(opp)\n", None)
    assert got["ice-card"] == ("action = freeze() to(character@oppRing); draw()", None)
    assert got["warm"][0] == got["fire-card"][0]
    assert "the name 'LATER'" in got["late"][1]          # bound only after the dict was built
    assert "the name 'ICE'" in got["ice2"][1]            # rebound to a call result
    codes = sorted((d.code, d.span.line) for d in src.diagnostics)
    assert codes == [("RI102", 6), ("RI102", 9), ("RI108", 10)]


def test_file_without_rules_dict_is_an_error(tmp_path: Path) -> None:
    py = tmp_path / "empty.py"
    py.write_text("X = 1\n", encoding="utf-8")
    src = read_rules_py(py)
    assert [d.code for d in src.diagnostics] == ["RI100"]


# --------------------------------------------------------------------------- conversion and compile

def test_converted_game_compiles_without_errors(imported) -> None:
    report, out, _ = imported
    result = compile_game(out, cache=None)
    assert result.ok, result.render()
    assert len(result.rules) == 16
    assert report.compile is not None and report.compile.ok
    from rulescript.cli import main as cli_main
    assert cli_main(["check", str(out), "--no-cache"]) == 0


def test_every_rewrite_lands_in_the_ini(imported) -> None:
    _, out, _ = imported
    ini = (out / "rules" / "rules.ini").read_text(encoding="utf-8")
    expected = {
        "cc3ff3df-d61f-49c8-86f8-a936879e6057": "target = character@myRing\naction = moveTo(hand, top, true)",
        "6721cd16-5b27-4d77-adb3-03690c236f5a": "target = character@oppRing\naction = {F}: copyAbility(tgt.0)",
        "6a87eb07-4a3d-46d3-ae48-303d64cfad05": "target = character@oppRing\naction = damage(tgt.0.bp) to(opp)",
        "101c88c7-ab62-4719-821e-8e6b75c97eab":
            'action = moveTo(hand) to("Red Lantern"<1>@myDeck; "Blue Lantern"<1>@myDeck)',
        "5fd6676f-4be9-469c-819c-4cd41da0f7e9": 'target = character,"Iron Gatekeeper"@myRing\naction = bp(+200)',
        "5aa887d5-7865-482d-a101-870e3246070e": "action = {F}: damage(100) to(characters@oppRing)",
        "94d2153e-6010-4736-b188-806766d7e1b9": "auto = ~anyRemoved:any~ sp(+1)",
        "0849b0d3-cc9b-4eee-8f23-00397699d4b5": "auto = ~myHandChanges~ [[if me.hand.size == 0]] +unblockable",
        "e36b4d2d-a7a8-4401-a3a4-96ca95f93d12":
            "auto = ~oppEndPhase~ [[if opp.hand.size > 3]] moveTo(oppDeck) to(<r>*@oppHand)",
        "87f68a17-f9c4-46d3-9e79-880f8439642b": "auto = ?oppCanBlock? [[if opp.hand.size <= 2]]",
        "74d84ad6-d82b-4c6a-b091-bc62e7d50548": "auto = ~blocks~ damage(200) to(opp)",
        "2b0ef9b9-9b8e-4753-9aac-0eb0d34bde5a": "auto = ~anyDrawPhase~ hp(-100) to(opp)",
        "ab216bfa-77e7-4f3a-a30e-338140ea100d":
            "auto = ~myEndPhase~ [[if me.sp == 0]] sp(+2) [[else]] draw(); hp(+100)",
        "b34dce18-b92d-4cc9-9b04-68e8b2d53d3f": "# Silent Step: cannot be blocked\nabilities = unblockable",
        "f0e2a51d-2c6b-4e3d-803b-7bd2c54e696d": ("target = <,2>characters[bp<=400]@oppRing  # weak fighters only\n"
                                                 "action = {F}: damage(250)\n    ; draw() to(me)  # then draw"),
        "7c7e8b0c-279e-4c8a-ace3-ee9aa947cb43": "target = character@myRing\naction = bp(=tgt.0.bp * 2)",
    }
    for card_id, body in expected.items():
        assert _section(ini, card_id) == body, card_id
    # upper-case keys and braces are normalised; the plugin's comments are kept above the section
    assert "CC3FF3DF" not in ini and "{b34dce18" not in ini
    assert "# Gale Courier: a legacy boolean in the position slot\n[cc3ff3df-" in ini
    assert "# Paper Ninja keeps its comments\n[b34dce18-" in ini


def test_each_kind_of_rewrite_is_reported_with_both_locations(imported) -> None:
    report, out, plugin = imported
    seen = {c.code for c in report.changes}
    # RI903 ('&' as 'either' without a pick) is not in this plugin; RI913 (one filter per name) is
    assert seen == {f"RI9{n:02d}" for n in range(1, 11)} - {"RI903"} | {"RI913"}
    ini = (out / "rules" / "rules.ini").read_text(encoding="utf-8").split("\n")
    by_code = {c.code: c for c in report.changes}
    mv = by_code["RI901"]
    assert ini[mv.ini_span.line - 1] == "action = moveTo(hand, top, true)"
    assert (mv.py_span.line, mv.py_span.col) == _line_col(plugin / "rules.py", "action = moveTo(hand, true)")
    warnings = sorted(c.code for c in report.changes if c.severity == "warning")
    assert warnings == ["RI904", "RI909", "RI910"]


def test_every_unconvertible_rule_is_reported_and_kept_commented(imported) -> None:
    report, out, plugin = imported
    assert {f.card_id: f.reason for f in report.failed}.keys() == FAILED.keys()
    ini_path = out / "rules" / "rules.ini"
    ini = ini_path.read_text(encoding="utf-8").split("\n")
    rules_py = (plugin / "rules.py").read_text(encoding="utf-8").split("\n")
    for f in report.failed:
        assert FAILED[f.card_id] in f.reason
        # the Python location is the dict entry (its key)
        assert f.py_span.file == str(plugin / "rules.py")
        assert rules_py[f.py_span.line - 1][f.py_span.col - 1:].lower().startswith(
            ("'" + f.card_id, "rulesdict['" + f.card_id))
        # the INI location is the commented-out header, preceded by the reason
        assert f.ini_span.file == str(ini_path)
        assert ini[f.ini_span.line - 1] == f"# [{f.card_id}]"
        block = "\n".join(ini[f.ini_span.line - 4:f.ini_span.line])
        assert f"NOT CONVERTED ({plugin / 'rules.py'}:{f.py_span.line}:{f.py_span.col})" in block
        assert f.render().startswith(f"{plugin / 'rules.py'}:{f.py_span.line}:{f.py_span.col}: ")
    text = "\n".join(ini)
    assert '# make_rule("damage(100) to(opp)")' in text
    assert "# action = {F}: smash(300) to(character@oppRing)" in text
    assert "# action = damage(100 to(opp)" in text
    assert '# f"action = damage({100 + 200})"' in text
    assert report.exit_code == 1 and not report.ok


def test_cards_and_game_yaml(imported) -> None:
    _, out, _ = imported
    game = yaml.safe_load((out / "game.yaml").read_text(encoding="utf-8"))
    assert game == {"profile": "cfc", "id": "9b6e7d3c-1f4a-4c2e-8b9d-0a1b2c3d4e5f", "name": "Dusk Market",
                    "version": "1.2.0.0", "description": game["description"]}
    cards = yaml.safe_load((out / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    assert len(cards) == 19
    by_name = {c["name"]: c for c in cards}
    assert by_name["Mirror Adept"] == {
        "id": "6721cd16-5b27-4d77-adb3-03690c236f5a", "name": "Mirror Adept", "type": "character",
        "subtype": "mage", "bp": 400, "sp": 1, "backup": ["mage", "ninja"],
        "ability": {"kind": "trigger", "name": "Borrowed Art"},
        "text": "Freeze: copy the ability of an opposing character."}
    assert by_name["Storm Caller"]["ability"] == {"kind": "trigger", "name": "Thunderclap"}
    assert by_name["Gale Courier"]["type"] == "action" and by_name["Gale Courier"]["sp"] == -1
    assert "Glass Golem" not in by_name
    assert "# NOT IMPORTED: unknown card type 'Monster'" in (out / "cards.yaml").read_text(encoding="utf-8")
    # the headless simulator accepts the card table as written
    from rulescript.sim.cards import load_cards
    assert len(load_cards(out / "cards.yaml")) == 19


def test_duplicate_and_invalid_ids_are_reported(tmp_path: Path) -> None:
    py = tmp_path / "dups.py"
    py.write_text('RULES = {\n    "Swift-Hare": "abilities = rush",\n    "bad id!": "abilities = rush",\n'
                  '    "swift-hare": "abilities = unblockable",\n}\n', encoding="utf-8")
    report = import_plugin(py, None, tmp_path / "g")
    failed = {(f.py_span.line, f.card_id): f.reason for f in report.failed}
    assert "given again at" in failed[(2, "swift-hare")] and f"{py}:4:5" in failed[(2, "swift-hare")]
    assert "not a valid rule id" in failed[(3, "bad id!")]
    assert report.converted == ["swift-hare"]
    ini = (tmp_path / "g" / "rules" / "dups.ini").read_text(encoding="utf-8")
    assert "[swift-hare]\nabilities = unblockable" in ini and "# abilities = rush" in ini
    assert compile_game(tmp_path / "g", cache=None).ok


def test_a_compiler_crash_on_one_rule_does_not_sink_the_import(plugin: Path, tmp_path: Path, monkeypatch) -> None:
    real = importer.compile_text

    def crashing(text: str, *args, **kwargs):
        if "\naction = {F}: damage(100) to(characters@oppRing)" in text:  # Storm Caller, not commented out
            raise RuntimeError("boom")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(importer, "compile_text", crashing)
    report = import_plugin(plugin / "rules.py", plugin / "set.xml", tmp_path / "g")
    failed = {f.card_id: f.reason for f in report.failed}
    assert "internal error RuntimeError: boom" in failed["5aa887d5-7865-482d-a101-870e3246070e"]
    assert len(report.converted) == 15 and report.compile is not None and report.compile.ok


# --------------------------------------------------------------------------- command line and writing

def _clean_plugin(tmp_path: Path) -> Path:
    py = tmp_path / "clean_rules.py"
    py.write_text('RULES = {\n    "paper-crow": "action = moveTo(hand, false) to(character@myRing)",\n'
                  '    "ink-heron": """\n        abilities = rush\n    """,\n}\n', encoding="utf-8")
    return py


def test_exit_code_0_when_everything_converts(tmp_path: Path, capsys) -> None:
    out = tmp_path / "clean"
    assert main_import([str(_clean_plugin(tmp_path)), "-o", str(out), "--name", "Clean Birds"]) == 0
    assert yaml.safe_load((out / "game.yaml").read_text())["name"] == "Clean Birds"
    assert yaml.safe_load((out / "cards.yaml").read_text()) == {"cards": []}
    assert "moveTo(hand, top, false)" in (out / "rules" / "clean-rules.ini").read_text()
    err = capsys.readouterr().err
    assert err.startswith("ok: 2 rules converted, 0 not converted")


def test_exit_code_1_when_some_rules_fail(plugin: Path, tmp_path: Path, capsys) -> None:
    code = main_import([str(plugin / "rules.py"), "--set", str(plugin / "set.xml"), "-o", str(tmp_path / "g")])
    assert code == 1
    captured = capsys.readouterr()
    assert "error[RI102]" in captured.out and "not converted" in captured.out
    assert captured.err.startswith("INCOMPLETE: 16 rules converted, 4 not converted")


def test_json_report(plugin: Path, tmp_path: Path, capsys) -> None:
    code = main_import([str(plugin / "rules.py"), "-o", str(tmp_path / "g"), "--format", "json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 == data["exit"]
    assert {f["card_id"] for f in data["failed"]} == set(FAILED)
    assert not any(d["severity"] == "note" for d in data["diagnostics"])


@pytest.mark.parametrize("argv", [["missing.py", "-o", "OUT"], ["RULES"], ["RULES", "-o", "OUT", "--set", "nope.xml"],
                                  ["RULES", "-o", "OUT", "--bogus"]])
def test_exit_code_2_on_usage_errors(argv: list[str], plugin: Path, tmp_path: Path) -> None:
    argv = [a.replace("RULES", str(plugin / "rules.py")).replace("OUT", str(tmp_path / "o")) for a in argv]
    assert main_import(argv) == 2
    assert not (tmp_path / "o").exists()


def test_refuses_a_non_empty_folder_without_force(plugin: Path, tmp_path: Path) -> None:
    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main_import([str(plugin / "rules.py"), "-o", str(out)]) == 2
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    with pytest.raises(ImportUsageError):
        import_plugin(plugin / "rules.py", None, out)
    (tmp_path / "afile").write_text("x")
    assert main_import([str(plugin / "rules.py"), "-o", str(tmp_path / "afile"), "--force"]) == 2


def test_empty_folder_is_used_and_force_replaces(plugin: Path, tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    assert main_import([str(_clean_plugin(tmp_path)), "-o", str(out)]) == 0
    (out / "stale.txt").write_text("old")
    assert main_import([str(plugin / "rules.py"), "-o", str(out), "--force"]) == 1  # written, with errors in the input (RI102)
    assert not (out / "stale.txt").exists()
    assert (out / "rules" / "rules.ini").exists() and not (out / "rules" / "clean-rules.ini").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_failed_write_leaves_nothing_behind(plugin: Path, tmp_path: Path, monkeypatch) -> None:
    real = importer._write_file
    calls = []

    def flaky(path: Path, text: str) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(importer, "_write_file", flaky)
    out = tmp_path / "new"
    with pytest.raises(OSError):
        import_plugin(plugin / "rules.py", plugin / "set.xml", out)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["plugin"]  # no temporary folder left

    # with --force, the folder that was there survives a failed import untouched
    monkeypatch.setattr(importer, "_write_file", real)
    assert main_import([str(_clean_plugin(tmp_path)), "-o", str(out)]) == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    calls.clear()
    monkeypatch.setattr(importer, "_write_file", flaky)
    assert main_import([str(plugin / "rules.py"), "-o", str(out), "--force"]) == 2  # an I/O error
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean_rules.py", "new", "plugin"]
