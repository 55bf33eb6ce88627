"""One encoding policy for every reader (rulescript/textfile.py): UTF-8 with or without a BOM is read;
Latin-1 text and binary files are one located error naming the problem, and no command prints the
bytes of a binary file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LATIN1 = "**Café Owner** | Townsfolk Miscellaneous - Villagers Team\n__Formalized__\nNo Abilities\n".encode("latin-1")
BINARY = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", *args], cwd=tmp, env=env, capture_output=True, timeout=120)


def _clean(out: bytes) -> None:
    text = out.decode("utf-8")  # what a command prints is UTF-8 ...
    assert "\x00" not in text and "\ufffd" not in text and "ELF" not in text  # ... and never the file's bytes
    assert len(text.splitlines()) < 10


@pytest.mark.parametrize("module,command", [("wwrf_adapter.cli", "check"), ("wwrf_adapter.cli", "fmt"),
                                            ("wwrf_adapter.aiwolf.cli", "log"), ("wwrf_adapter.aiwolf.cli", "check")])
def test_binary_files_are_one_located_error(tmp_path, module, command):
    (tmp_path / "blob").write_bytes(BINARY)
    r = _run(tmp_path, module, command, "blob")
    assert r.returncode == 1
    assert b"blob:1:8: " in r.stdout + r.stderr and b"not a text file (it holds NUL bytes)" in r.stdout + r.stderr
    _clean(r.stdout)
    _clean(r.stderr)


def test_a_latin1_wwrf_file_is_a_located_error_and_utf8_with_a_bom_reads(tmp_path):
    (tmp_path / "cafe owner").write_bytes(LATIN1)
    r = _run(tmp_path, "wwrf_adapter.cli", "check", "cafe owner")
    assert r.returncode == 1
    # 'é' is the byte 0xE9, the 6th character of line 1
    assert "cafe owner:1:6: error[WW107]: not UTF-8 text: byte 0xE9 cannot be decoded" in r.stdout.decode()
    _clean(r.stdout)
    (tmp_path / "cafe owner").write_bytes(b"\xef\xbb\xbf" + LATIN1.decode("latin-1").encode("utf-8"))
    r = _run(tmp_path, "wwrf_adapter.cli", "check", "cafe owner")
    assert r.returncode == 0, r.stdout
    assert "Café Owner" in r.stdout.decode() and "\ufffd" not in r.stdout.decode()


def test_a_latin1_role_list_and_scenario_are_located_errors(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "villager").write_text("**Villager** | Townsfolk Miscellaneous - Villagers Team\n__Formalized__\n"
                                   "No Abilities\n", encoding="utf-8")
    (book / "role-lists.yaml").write_bytes("1: [villag\u00e9r]\n".encode("latin-1"))
    r = _run(tmp_path, "wwrf_adapter.cli", "render", "book", "-o", "game")
    assert r.returncode == 1
    assert "book/role-lists.yaml:1:11: error[WW923]: not UTF-8 text: byte 0xE9" in r.stdout.decode()
    assert b"Traceback" not in r.stderr
    scen = tmp_path / "s.yaml"
    scen.write_bytes("- name: caf\u00e9\n  roles: [seer]\n".encode("latin-1"))
    sys.path.insert(0, str(ROOT))
    from rulescript.sim.wolf_scenarios import run_file

    (res,) = run_file(scen)
    assert not res.passed and res.failures == [f"{scen}:1:12: not UTF-8 text: byte 0xE9 cannot be decoded (save the file as UTF-8)"]
