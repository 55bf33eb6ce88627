"""Ctrl-C: every command exits 130 with one line, and no process of it prints a traceback.

A terminal's Ctrl-C sends SIGINT to the whole foreground process group, so the tests send it to the
group too (``os.killpg``): the worker processes of ``simulate --jobs 2`` get it as well."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, one_line


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _start(*args: str) -> subprocess.Popen:
    # a session of its own: a process group to signal, as a terminal does; SIGINT back to its default
    return subprocess.Popen([sys.executable, "-m", "rulescript", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True,
                            env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("delay", [0.2, 0.8, 1.5])
def test_ctrl_c_during_simulate_with_jobs_leaves_no_worker_traceback(small_game: Path, delay: float) -> None:
    proc = _start("simulate", str(small_game), "--games", "100000", "--jobs", "2", "--quiet")
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:  # the two workers are running
        time.sleep(0.05)
    assert len(_children(proc.pid)) >= 2, "the worker processes did not start"
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "ForkPoolWorker" not in text and "KeyboardInterrupt" not in text, text
    assert one_line(text) == "rulescript: interrupted"


def test_ctrl_c_stops_watch_with_130(small_game: Path) -> None:
    proc = _start("watch", str(small_game))
    assert proc.stdout is not None
    seen = ""
    while not seen.splitlines()[-1:] or not seen.splitlines()[-1].startswith("loaded in"):
        line = proc.stdout.readline().decode()  # up to "loaded in ...": it is waiting for saves now
        assert line, seen
        seen += line
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out + err).decode()
    assert "Traceback" not in err.decode()
    assert out.decode().strip().endswith("stopped")
