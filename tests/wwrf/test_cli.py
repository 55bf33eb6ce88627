"""The ``wwrf`` command: exit codes, text and JSON diagnostics, dump, fmt."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .support import EXAMPLES
from wwrf_adapter.cli import main

BAD = "**Fog Weaver** | Werewolf Power\n__Formalized__\nImmediate Night: Obstrukt Investigating for @Selection (~Phase)\n"


@pytest.fixture()
def bad_dir(tmp_path: Path) -> Path:
    (tmp_path / "fog weaver").write_text(BAD, encoding="utf-8")
    (tmp_path / "hunter").write_text("**Hunter** | Townsfolk Killing\n__Formalized__\nOn Deth: Kill @Target\n", encoding="utf-8")
    return tmp_path


def test_check_clean_examples_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "30 file(s): 0 error(s)" in captured.err


def test_check_errors_text_with_caret_and_suggestion(bad_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bad_dir)]) == 1
    out = capsys.readouterr().out.splitlines()
    head = f"{bad_dir / 'fog weaver'}:3:18: error[WW202]: unknown ability 'Obstrukt'"
    i = out.index(head)
    assert out[i + 1] == "    Immediate Night: Obstrukt Investigating for @Selection (~Phase)"
    assert out[i + 2] == "    " + " " * 17 + "^~~~~~~~"
    assert out[i + 3] == "    did you mean: Obstruct"
    assert any(line.startswith(f"{bad_dir / 'hunter'}:3:1: error[WW201]: unknown trigger 'On Deth'") for line in out)


def test_check_json(bad_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", str(bad_dir / "fog weaver"), str(bad_dir / "hunter")]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(Path(d["file"]).name, d["line"], d["column"], d["code"]) for d in data] == [
        ("fog weaver", 3, 18, "WW202"), ("hunter", 3, 1, "WW201")]
    assert data[0]["severity"] == "error" and data[0]["notes"] == ["did you mean: Obstruct"]


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["check"]) == 2
    assert main(["check", str(tmp_path / "missing")]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["check", "--format", "xml", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for word in ("check", "dump", "fmt", "exit status"):
        assert word in text


def test_dump_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dump", "--json", str(EXAMPLES / "seer")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["node"] == "Element" and data["kind"] == "role" and data["name"] == "Seer"
    block = data["items"][1]
    assert block["node"] == "TriggerBlock" and block["trigger"]["name"] == "Immediate Night"
    assert block["span"]["line"] == 14 and block["body"][0]["node"] == "Process"


def test_fmt_prints_canonical_text_and_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "wanderer"
    shutil.copy(EXAMPLES / "wanderer", src)
    assert main(["fmt", str(src)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("**Wanderer** | Unaligned Miscellaneous - Drifters Team\n")
    assert "Passive Start Day: Increment Counter [Temporal: Day 2+, Status: Any]" in printed
    assert main(["fmt", "--write", str(src)]) == 0
    assert src.read_text(encoding="utf-8") == printed
    assert main(["check", str(src)]) == 0


def test_fmt_refuses_files_with_errors(bad_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(bad_dir / "hunter")]) == 1
    assert "not formatting" in capsys.readouterr().err


def test_single_file_is_checked_against_its_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", str(EXAMPLES / "werewolf"), str(EXAMPLES / "turncoat")]) == 0
    assert json.loads(capsys.readouterr().out) == []  # Inherit and role names resolve via the siblings


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


BOOK = {
    "_paths/roles": "roles\n\n  archive/roles  \n",
    "_paths/groups": "groups\n",
    "_paths/polls": "polls/\n",
    "roles/seer": "**Seer** | Townsfolk Investigative\n__Formalized__\nImmediate Night: Role Investigate @Selection\n",
    "roles/helpers/ignored": "**Ignored** | Townsfolk Power\n__Formalized__\nImmediate Nite: Kill @Self\n",
    "archive/roles/baker": "**Baker** | Townsfolk Group\n__Formalized__\nStarting: Join #Coyotes\n",
    "groups/coyotes": "**Coyotes** | Unaligned Group\n__Formalized__\nStarting: Create `Coyotes` Poll in #Coyotes\n",
    "polls/coyotes": "**Coyotes** | Poll\nAvailable Options: @Members\n",
    "drafts/broken": "**Broken** | Townsfolk Power\n__Formalized__\nStarting: Kil @Self\n",
    "LICENSE": "All rights reserved.\n",
}


def test_book_with_paths_reads_exactly_the_listed_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, BOOK)
    assert main(["check", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == "4 file(s): 0 error(s), 0 warning(s)"
    from wwrf_adapter import load_project

    project = load_project(tmp_path)
    assert sorted((el.kind, el.name) for el in project.elements.values()) == [
        ("group", "Coyotes"), ("poll", "Coyotes"), ("role", "Baker"), ("role", "Seer")]
    coyotes = project.get("coyotes", "group")  # '| Unaligned Group' in the groups list is a group
    assert coyotes.header.role_class is None and project.get("Baker").header.category == "Group"


def test_book_with_a_missing_listed_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {**BOOK, "_paths/teams": "teams\n", "_paths/displays": "displays\n", "_paths/old/roles": "roles\n"})
    assert main(["check", "--format", "json", str(tmp_path)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(Path(d["file"]).name, d["line"], d["column"], d["severity"], d["code"]) for d in data] == [
        ("displays", 1, 1, "note", "WW915"), ("old", 1, 1, "note", "WW915"), ("teams", 1, 1, "error", "WW106")]
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / '_paths' / 'teams'}:1:1: error[WW106]: folder 'teams' (of the teams list) not found" in out
    assert "\n    teams\n    ^~~~~\n" in out


def test_folder_without_paths_skips_files_without_a_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {"seer": BOOK["roles/seer"], "LICENSE": BOOK["LICENSE"], "notes/todo": "- more roles\n",
                      "villager": "**Villager** | Townsfolk Miscellaneous\n__Formalized__\nNo Abilities\n"
                                  "Starting: Learn `@Self` [Quantity: 1] [Quantity: 2]\n"})
    assert main(["check", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert f"{tmp_path / 'LICENSE'}:1:1: note[WW915]: no element header (**Name**) on line 1: not an element, skipped" in captured.out
    assert f"{tmp_path / 'notes' / 'todo'}:1:1: note[WW915]" in captured.out
    assert captured.err.strip() == "2 file(s): 0 error(s), 1 warning(s); 2 file(s) skipped (no element header)"
    assert main(["check", "--no-warnings", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == "2 file(s): 0 error(s); 2 file(s) skipped (no element header)"
    assert main(["check", str(tmp_path / "LICENSE")]) == 1  # a file named directly must be an element
    assert "error[WW100]" in capsys.readouterr().out
