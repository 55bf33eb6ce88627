"""Issue 14 items 3, 4, 6 and 7 through the real commands: exit statuses, output files others can use,
progress, and the same command line everywhere."""

from __future__ import annotations

import json
import os
import pty
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import DEMO, fails, one_line, run


# ------------------------------------------------------------------------------ item 3: exit statuses
@pytest.mark.parametrize("args, message", [
    (["simulate", "{g}", "--games", "-5"], "argument --games: -5 is too small (the least is 1)"),
    (["simulate", "{g}", "--games", "0"], "argument --games: 0 is too small"),
    (["simulate", "{g}", "--games", "many"], "argument --games: 'many' is not a whole number"),
    (["simulate", "{g}", "--turn-limit", "-1"], "argument --turn-limit: -1 is too small"),
    (["play", "{g}", "--auto", "--seed", "1e3"], "argument --seed: '1e3' is not a whole number"),
    (["play", "{g}", "--auto", "--turn-limit", "0"], "argument --turn-limit: 0 is too small"),
    (["docs", "--check"], "docs --check compares with a file: give it with -o FILE"),
    (["docs", "no-such-profile"], "unknown profile 'no-such-profile'"),
    (["check", "{g}", "--profile", "nope"], "unknown profile 'nope'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_usage_errors_exit_2(small_game: Path, args: list[str], message: str) -> None:
    fails(run("rulescript", *[a.format(g=small_game) for a in args]), 2, message)


def test_statuses_of_check_and_test(small_game: Path) -> None:
    assert run("rulescript", "check", small_game).returncode == 0
    assert run("rulescript", "test", small_game).returncode == 0
    (small_game / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: damge(1)\n")
    fails(run("rulescript", "check", small_game), 1, "error[RS201]")
    (small_game / "scenarios" / "mine.yaml").write_text("name: x\nrules: false\nexpect:\n  players:\n    - hp: 1\n")
    fails(run("rulescript", "test", small_game), 1, "FAIL x")


def test_version_and_python_m() -> None:
    for prog in ("rulescript", "wwrf", "aiwolf", "octgn-pack"):
        proc = run(prog, "--version")
        assert proc.returncode == 0 and proc.stdout.startswith(f"{prog} ") and "rulescript-bridge" in proc.stdout


def test_a_missing_command_is_a_usage_error_that_names_the_commands() -> None:
    for prog, commands in (("wwrf", "check, dump, fmt or render"), ("aiwolf", "check, explain, agent, serve or log"),
                           ("octgn-pack", "build, validate or deploy")):
        proc = run(prog)
        assert proc.returncode == 2 and f"{prog}: error: a command is required ({commands})" in proc.stderr
        assert "Traceback" not in proc.stderr


# ------------------------------------------------------------------------------ item 4: outputs
def test_same_game_same_bytes_from_any_folder(tmp_path: Path) -> None:
    here = run("rulescript", "compile", DEMO, "-o", tmp_path / "a.json", "--no-cache")
    inside = run("rulescript", "compile", ".", "-o", tmp_path / "b.json", "--no-cache", cwd=DEMO)
    above = run("rulescript", "compile", os.path.relpath(DEMO, DEMO.parent.parent), "-o", tmp_path / "c.json",
                "--no-cache", cwd=DEMO.parent.parent)
    assert here.returncode == inside.returncode == above.returncode == 0
    a, b, c = ((tmp_path / n).read_bytes() for n in ("a.json", "b.json", "c.json"))
    assert a == b == c
    doc = json.loads(a)
    assert doc["rules"]["baron-cinder"]["src"][0] == "rules/powers.ini"


def test_outputs_get_the_umask_permissions(small_game: Path, tmp_path: Path) -> None:
    for umask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"ir-{umask:o}.json"
        assert run("rulescript", "compile", small_game, "-o", out, umask=umask).returncode == 0
        assert stat.S_IMODE(out.stat().st_mode) == mode
    docs = tmp_path / "reference.md"
    assert run("rulescript", "docs", "-o", docs, umask=0o022).returncode == 0
    assert stat.S_IMODE(docs.stat().st_mode) == 0o644
    log = tmp_path / "game.log"
    assert run("rulescript", "play", small_game, "--auto", "--log", log, umask=0o022).returncode == 0
    assert stat.S_IMODE(log.stat().st_mode) == 0o644


def test_nothing_half_written_when_the_rules_have_errors(small_game: Path, tmp_path: Path) -> None:
    out = tmp_path / "ir.json"
    out.write_text("the previous IR\n")
    (small_game / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: damge(1)\n")
    fails(run("rulescript", "compile", small_game, "-o", out), 1, f"{out} was not written")
    assert out.read_text() == "the previous IR\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ir.json", "small"]  # no temporary file left


def test_ir_json_is_compact(tmp_path: Path) -> None:
    out = tmp_path / "ir.json"
    assert run("rulescript", "compile", DEMO, "-o", out).returncode == 0
    text = out.read_text()
    source = sum(p.stat().st_size for p in (DEMO / "rules").glob("*.ini"))
    assert text.count("\n") == 1 and ": " not in text[:200] and len(text) < 12 * source
    pretty = tmp_path / "pretty.json"
    assert run("rulescript", "compile", DEMO, "-o", pretty, "--pretty").returncode == 0
    assert json.loads(pretty.read_text()) == json.loads(text)


# ------------------------------------------------------------------------------ item 6/7: terminal output
def _on_terminal(args: list[str], env: dict[str, str], cwd: Path | None = None) -> str:
    """Run a command with its stdout and stderr on a pseudo-terminal; what the terminal showed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "rulescript", *map(str, args)], stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL, cwd=cwd, env={**os.environ, **env})
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=600)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_terminal_unless_no_color(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: damge(1)\n")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    coloured = _on_terminal(["check", small_game], {**env, "TERM": "xterm"})
    assert "\x1b[31merror\x1b[0m[RS201]" in coloured and "\x1b[31mFAILED\x1b[0m" in coloured
    plain = _on_terminal(["check", small_game], {"NO_COLOR": "1", "TERM": "xterm"})
    assert "\x1b[" not in plain and "error[RS201]" in plain
    piped = run("rulescript", "check", small_game, env={"TERM": "xterm", "NO_COLOR": ""})
    assert "\x1b[" not in piped.stdout + piped.stderr


def test_progress_only_on_a_terminal(tmp_path: Path) -> None:
    rules = tmp_path / "many.ini"
    rules.write_text("".join(f"[card-{i}]\naction = {{F}}: damage({100 + i % 5 * 100}) to(character@oppRing)\n"
                             for i in range(30000)))
    piped = run("rulescript", "check", rules)
    assert piped.returncode == 0 and "\r" not in piped.stderr and "compiling" not in piped.stderr
    # progress starts after a second of work; a zero delay makes the check independent of the machine's speed
    shown = _on_terminal(["check", rules], {"NO_COLOR": "1", "RULESCRIPT_PROGRESS_DELAY": "0"})
    assert "compiling: " in shown and "\r" in shown and "ok: 30000 rules compiled from 1 file" in shown


def test_check_json_and_warnings_the_same_way_as_wwrf(small_game: Path, tmp_path: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("[baron-cinder]\nabilities = rush\nabilities = pierce\n")
    shown = run("rulescript", "check", small_game)
    assert "warning[RS901]" in shown.stdout and "1 warning" in shown.stderr
    hidden = run("rulescript", "check", "--no-warnings", small_game)
    assert "RS901" not in hidden.stdout and "1 warning (hidden by --no-warnings)" in hidden.stderr
    data = json.loads(run("rulescript", "check", "--format", "json", small_game).stdout)
    assert [d["code"] for d in data] == ["RS901"]
    role = tmp_path / "roles" / "seer"
    role.parent.mkdir()
    role.write_text("**Seer** | Townsfolk\nBasics: Investigate\n")
    wshown = run("wwrf", "check", role.parent)
    whidden = run("wwrf", "check", "--no-warnings", role.parent)
    for proc in (shown, wshown):  # one summary style: "ok: ...; N errors, M warnings"
        assert proc.stderr.splitlines()[-1].startswith(("ok: ", "FAILED: ")) and " error" in proc.stderr
    assert "hidden by --no-warnings" in whidden.stderr or " 0 warnings" in whidden.stderr


def test_test_command_json(small_game: Path) -> None:
    proc = run("rulescript", "test", "--format", "json", small_game)
    assert proc.returncode == 0
    assert [(r["name"], r["status"]) for r in json.loads(proc.stdout)] == [("a scenario that needs no rules", "pass")]


def test_watch_starts_with_a_summary(game: Path) -> None:
    proc = run("rulescript", "watch", game, "--once")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS " not in proc.stdout and " passed, 0 failed" in proc.stdout
