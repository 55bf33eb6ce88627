"""docs/tutorial.md, run as written: its files are written and its commands run, in a fresh folder.

The page is read top to bottom:

* ```LANG file=PATH   writes PATH (atomically: a rename, as many editors save);
* ```LANG append=PATH appends the block to PATH;
* ```LANG edit=PATH   each line of the block replaces the line of PATH it is closest to (one line that
  differs a little from it: a changed number or word), and PATH is written atomically;
* ```sh               runs each line with bash (the ``rulescript`` of this checkout first on PATH);
  every command must exit with 0, or with N for ```sh exit=N;
* ```sh background    starts the command and leaves it running (``rulescript watch``);
* ```text output      what the last command printed (stdout and stderr, in order): lines in order, a
  line ``...`` stands for any number of lines and ``...`` inside a line for any text; without a
  leading (trailing) ``...`` line the output must start (end) there.  While a background command
  runs, the block must appear in its output after what the previous block matched (waiting for it);
* ``<!-- tutorial: stop -->``            interrupts the background command (Ctrl-C): it must exit 0;
* ``<!-- tutorial: stdin a, b, c -->``   the next command reads these lines as its input.

The folder starts with a copy of ``cards/`` (the tutorial begins with ``rulescript new mygame --from
cards/cfc-demo``).
If the demo game changes so that a shown output no longer holds (the seeded game of step 5, say),
update the page: the failure shows the actual output.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.docs import mdblocks

PAGE = ROOT / "docs" / "tutorial.md"
WAIT = 60.0  # seconds a background command gets to print what the page shows
RUN_TIMEOUT = 300.0

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or os.name != "posix",
                                reason="the tutorial's commands are POSIX shell commands")


# ----------------------------------------------------------------------------------- output matching
def _line_rx(line: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in line.rstrip().split("...")))


def match_output(expected: str, actual: str, start: int = 0, anchored: bool = True) -> int | None:
    """Where the expected text ends in the lines of ``actual`` (an index of a line), searching from line
    ``start``; None if it is not there.  ``anchored``: a block that does not begin (end) with a ``...``
    line must match at ``start`` (at the last line)."""
    lines = [ln.rstrip() for ln in actual.splitlines()]
    want = expected.rstrip("\n").split("\n")
    head_gap, tail_gap = want[0] == "...", want[-1] == "..."
    chunks: list[list[re.Pattern]] = [[]]
    for w in want:
        if w == "...":
            chunks.append([])
        else:
            chunks[-1].append(_line_rx(w))
    chunks = [c for c in chunks if c]

    def fits(chunk: list[re.Pattern], at: int) -> bool:
        return at + len(chunk) <= len(lines) and all(rx.fullmatch(lines[at + k]) for k, rx in enumerate(chunk))

    pos = start
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        if i == 0 and anchored and not head_gap:
            candidates = [pos]
        elif last and anchored and not tail_gap:
            candidates = [len(lines) - len(chunk)] if len(lines) - len(chunk) >= pos else []
        else:
            candidates = range(pos, len(lines) - len(chunk) + 1)
        for at in candidates:
            if fits(chunk, at):
                pos = at + len(chunk)
                break
        else:
            return None
    if anchored and not tail_gap and pos != len(lines):
        return None
    return pos


def test_match_output_rules() -> None:
    out = "alpha\nbeta 12 ms\ngamma\ndelta\n"
    assert match_output("alpha\nbeta ... ms\ngamma\ndelta\n", out) == 4
    assert match_output("alpha\n...\ndelta\n", out) == 4
    assert match_output("...\ngamma\n...\n", out) == 3
    assert match_output("beta ... ms\n...\n", out) is None          # not at the start
    assert match_output("...\ngamma\n", out) is None                 # not at the end
    assert match_output("alpha\ngamma\n...\n", out) is None          # not consecutive
    assert match_output("...\ndelta\n...\nalpha\n", out) is None     # not in order
    assert match_output("gamma\n", out, start=2, anchored=False) == 3
    assert match_output("alpha\n", out, start=1, anchored=False) is None


# ----------------------------------------------------------------------------------- running the page
def _sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Background:
    """A running command and everything it printed so far."""

    def __init__(self, command: str, cwd: Path, env: dict) -> None:
        # SIGINT back to its default, as in a terminal: a test run started in the background by a shell
        # without job control (`.ci/run &`) has SIGINT ignored from the start (bash does that to every
        # asynchronous command), and an ignored or blocked signal is inherited (Ctrl-C would then never
        # reach the command)
        self.proc = subprocess.Popen(["bash", "-c", "exec " + command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True, preexec_fn=_sigint_as_in_a_terminal)
        self.command = command
        self.text = ""
        self.cv = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for chunk in iter(lambda: self.proc.stdout.readline(), ""):
            with self.cv:
                self.text += chunk
                self.cv.notify_all()

    def wait_for(self, expected: str, start: int, where: str) -> int:
        deadline = time.monotonic() + WAIT
        with self.cv:
            while True:
                end = match_output(expected, self.text, start, anchored=False)
                if end is not None:
                    return end
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None and not self.reader.is_alive():
                    raise AssertionError(f"{where}: '{self.command}' did not print the expected lines within "
                                         f"{WAIT:.0f} s.\nExpected:\n{expected}\nPrinted:\n{self.text}")
                self.cv.wait(min(left, 0.2))

    def interrupt(self) -> int:
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.reader.join(timeout=5)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


#: the commands of the project (pyproject.toml [project.scripts]) and the module of each
COMMANDS = {"rulescript": "rulescript.cli", "wwrf": "wwrf_adapter.cli", "octgn-pack": "octgn_pack.cli"}


def _shim(folder: Path) -> Path:
    """``rulescript``, ``wwrf`` and ``octgn-pack`` executables that run this checkout's command lines
    with this Python."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for name, module in COMMANDS.items():
        shim = bin_dir / name
        shim.write_text("#!/bin/sh\nexec %s -c 'import sys; from %s import main; sys.exit(main())' \"$@\"\n"
                        % (shlex.quote(sys.executable), module))
        shim.chmod(0o755)
    return bin_dir


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("." + path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def edit_lines(text: str, new_lines: str, where: str) -> str:
    """``text`` with each line of ``new_lines`` in place of the one line closest to it."""
    import difflib

    lines = text.split("\n")
    for new in new_lines.rstrip("\n").split("\n"):
        scores = sorted(((difflib.SequenceMatcher(None, old, new).ratio(), i) for i, old in enumerate(lines)),
                        reverse=True)
        (best, at), second = scores[0], scores[1][0] if len(scores) > 1 else 0.0
        assert best >= 0.9 and best > second and lines[at] != new, \
            f"{where}: no one line of the file is a small change away from {new!r}"
        lines[at] = new
    return "\n".join(lines)


def test_edit_lines_replaces_the_one_closest_line() -> None:
    text = 'a: "deal 200 damage"\nb: "deal 200 healing"\n'
    assert edit_lines(text, 'a: "deal 300 damage"\n', "t") == 'a: "deal 300 damage"\nb: "deal 200 healing"\n'
    with pytest.raises(AssertionError):
        edit_lines(text, "something else entirely\n", "t")


def test_tutorial_runs_as_written(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(ROOT / "cards" / "cfc-demo", work / "cards" / "cfc-demo")
    ran = run_page(PAGE, work, tmp_path)
    # the page takes the reader through every step
    joined = "\n".join(ran)
    for step in ("rulescript check mygame", "rulescript test mygame", "rulescript watch mygame",
                 "rulescript play mygame --auto"):
        assert step in joined, step
    assert (work / "mygame" / "decks" / "mine.yaml").exists()


def run_page(page: Path, work: Path, tmp_path: Path) -> list[str]:
    """Run a page as the module's docstring says, in the folder ``work``; the commands it ran."""
    env = dict(os.environ)
    env["PATH"] = str(_shim(tmp_path)) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("RULESCRIPT_CACHE_DIR", None)
    background: Background | None = None
    mark = 0                 # in the background command's output: the line after the last match
    last_output: str | None = None
    stdin: str | None = None
    ran: list[str] = []
    try:
        for item in mdblocks.read(page):
            where = f"{page.name}:{item.line}"
            if isinstance(item, mdblocks.Directive):
                if item.name != "tutorial":
                    continue
                verb, _, arg = item.arg.partition(" ")
                if verb == "stop":
                    assert background is not None, f"{where}: nothing to stop"
                    code = background.interrupt()
                    assert code == 130, f"{where}: '{background.command}' exited with {code}:\n{background.text}"
                    background = None
                elif verb == "stdin":
                    stdin = "".join(part.strip() + "\n" for part in arg.split(","))
                else:
                    raise AssertionError(f"{where}: unknown directive {item.arg!r}")
                continue
            if item.option("file"):
                _write_atomically(work / item.option("file"), item.text)
            elif item.option("edit"):
                target = work / item.option("edit")
                _write_atomically(target, edit_lines(target.read_text(encoding="utf-8"), item.text, where))
            elif item.option("append"):
                with open(work / item.option("append"), "a", encoding="utf-8") as fh:
                    fh.write(item.text)
            elif item.lang == "sh" and "background" in item.info:
                assert background is None, f"{where}: a background command is already running"
                background = Background(item.text.strip(), work, env)
                ran.append(item.text.strip())
                mark = 0
            elif item.lang == "sh":
                want = int(item.option("exit") or 0)
                last_output = ""
                for line in item.text.splitlines():
                    if not line.strip() or line.lstrip().startswith("#"):
                        continue
                    res = subprocess.run(["bash", "-c", line], cwd=work, env=env, input=stdin,
                                         stdin=None if stdin is not None else subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                         timeout=RUN_TIMEOUT)
                    stdin = None
                    ran.append(line)
                    last_output += res.stdout
                    assert res.returncode == want, \
                        f"{where}: '{line}' exited with {res.returncode}, not {want}:\n{res.stdout}"
            elif item.info == ["text", "output"]:
                if background is not None:
                    mark = background.wait_for(item.text, mark, where)
                else:
                    assert last_output is not None, f"{where}: an output block before any command"
                    assert match_output(item.text, last_output) is not None, \
                        f"{where}: the output differs from the page.\nPage:\n{item.text}\nActual:\n{last_output}"
        assert background is None, "the tutorial leaves a background command running"
    finally:
        if background is not None:
            background.kill()
    return ran
