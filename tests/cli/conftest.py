"""Driving the three commands (``rulescript``, ``wwrf``, ``aiwolf``) through a real subprocess.

Every test here gives a command a bad input and checks what a user sees: the exit status
(0 success, 1 errors in the input, 2 usage or I/O error, 3 internal error, 130 interrupted), one
clear message, never a ``Traceback``, and nothing half-written.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"
MODULES = {"rulescript": "rulescript", "wwrf": "wwrf_adapter.cli", "aiwolf": "wwrf_adapter.aiwolf.cli",
           "octgn-pack": "octgn_pack.cli"}


def run(prog: str, *args: Any, cwd: Path | None = None, env: dict[str, str] | None = None,
        stdin: str | bytes | None = None, timeout: float = 120, umask: int | None = None) -> subprocess.CompletedProcess:
    """Run ``prog args`` (as ``python -m``) and return the finished process (text output)."""
    crashes = Path(cwd).resolve() / "crashes" if cwd else Path(tempfile.gettempdir()) / "rulescript-test-crashes"
    full_env = {**os.environ, "NO_COLOR": "1", "RULESCRIPT_CRASH_DIR": str(crashes)}
    full_env.pop("RULESCRIPT_CACHE_DIR", None)
    full_env.update(env or {})
    preexec = (lambda: os.umask(umask)) if umask is not None else None
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", MODULES[prog], *map(str, args)], cwd=cwd, env=full_env,
                          input=data if data is not None else b"", capture_output=True, timeout=timeout,
                          preexec_fn=preexec)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def fails(proc: subprocess.CompletedProcess, status: int, *messages: str) -> str:
    """Assert a clean failure: this exit status, no traceback, and every message on stderr or stdout;
    returns stderr."""
    text = proc.stderr + proc.stdout
    assert proc.returncode == status, f"exit {proc.returncode}, not {status}:\n{text}"
    assert "Traceback" not in text, text
    for m in messages:
        assert m in text, f"{m!r} not in:\n{text}"
    return proc.stderr


def one_line(stderr: str) -> str:
    """The single line of a one-line error message."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, f"one line expected:\n{stderr}"
    return lines[0]


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    """A copy of the demo game (cards, decks, rules, scenarios)."""
    dest = tmp_path / "game"
    shutil.copytree(DEMO, dest)
    return dest


@pytest.fixture()
def small_game(tmp_path: Path) -> Path:
    """The demo game's cards and decks with one rule file and one scenario (quick to test)."""
    dest = tmp_path / "small"
    (dest / "rules").mkdir(parents=True)
    (dest / "scenarios").mkdir()
    for name in ("cards.yaml", "game.yaml"):
        shutil.copy(DEMO / name, dest / name)
    shutil.copytree(DEMO / "decks", dest / "decks")
    (dest / "rules" / "mine.ini").write_text("[baron-cinder]\ntarget = character@oppRing\n"
                                            "action = {F}: damage(250)\n", encoding="utf-8")
    (dest / "scenarios" / "mine.yaml").write_text(
        "name: a scenario that needs no rules\nrules: false\nsetup:\n  players:\n    - hp: 3000\n"
        "expect:\n  players:\n    - hp: 3000\n", encoding="utf-8")
    return dest
