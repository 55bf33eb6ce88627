"""The ``wwrf`` and ``aiwolf`` commands share the guard, the exit statuses and the output rules."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, fails, one_line, run

SEER = ROOT / "tests" / "fixtures" / "wwrf-examples" / "hunter"


@pytest.mark.parametrize("prog, args", [
    ("wwrf", ["check", "nope"]), ("wwrf", ["dump", "nope"]), ("wwrf", ["fmt", "nope"]), ("aiwolf", ["check", "nope"]),
])
def test_missing_path(tmp_path: Path, prog: str, args: list[str]) -> None:
    line = one_line(fails(run(prog, *args, cwd=tmp_path), 2))
    assert line.startswith(f"{prog}: error: ") and "nope" in line


def test_aiwolf_binary_and_utf16(tmp_path: Path) -> None:
    (tmp_path / "talk.bin").write_bytes(b"VOTE Agent[01]\x00\x00\x01")
    line = one_line(fails(run("aiwolf", "check", "talk.bin", cwd=tmp_path), 1))
    assert line == "aiwolf: error: talk.bin:1:15: not a text file (it holds NUL bytes)"
    (tmp_path / "talk.txt").write_bytes("VOTE Agent[01]\n".encode("utf-16"))
    line = one_line(fails(run("aiwolf", "check", "talk.txt", cwd=tmp_path), 1))
    assert line == "aiwolf: error: talk.txt:1:1: UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8"
    (tmp_path / "talk.txt").write_bytes("VOTE Agent[01]\n".encode("utf-8-sig"))
    assert run("aiwolf", "check", "talk.txt", cwd=tmp_path).returncode == 0


def test_wwrf_fmt_write_keeps_line_endings_encoding_and_mode(tmp_path: Path) -> None:
    text = SEER.read_text(encoding="utf-8")
    canonical = run("wwrf", "fmt", SEER).stdout
    crlf = tmp_path / "crlf" / "hunter"
    crlf.parent.mkdir()
    crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    crlf.chmod(0o640)
    utf8bom = tmp_path / "bom" / "hunter"
    utf8bom.parent.mkdir()
    utf8bom.write_bytes(text.encode("utf-8-sig"))
    for f in (crlf, utf8bom):
        proc = run("wwrf", "fmt", "--write", f)
        assert proc.returncode == 0, proc.stderr
    assert crlf.read_bytes() == canonical.replace("\n", "\r\n").encode("utf-8")
    assert stat.S_IMODE(crlf.stat().st_mode) == 0o640
    assert utf8bom.read_bytes() == canonical.encode("utf-8-sig")
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["hunter", "hunter"]


def test_wwrf_dump_format_json() -> None:
    proc = run("wwrf", "dump", "--format", "json", SEER)
    assert proc.returncode == 0 and json.loads(proc.stdout)["name"] == "Hunter"
    assert json.loads(run("wwrf", "dump", "--json", SEER).stdout) == json.loads(proc.stdout)


def test_numeric_options_are_checked() -> None:
    fails(run("aiwolf", "check", "--players", "-3", "-", stdin=""), 2, "argument --players: -3 is too small")
    fails(run("aiwolf", "agent", "x", "--port", "70000"), 2, "70000 is not a port")
