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
