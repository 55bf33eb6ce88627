"""Issue 14 item 2: every user mistake is one clear line (or located diagnostics), the documented exit
status and no traceback, for every command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.conftest import fails, one_line, run

MISSING = "no-such-folder"


@pytest.mark.parametrize("args", [
    ["check", MISSING], ["compile", MISSING, "-o", "out.json"], ["test", MISSING], ["play", MISSING, "--auto"],
    ["simulate", MISSING, "--games", "1"], ["watch", MISSING, "--once"],
])
def test_missing_path_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    line = one_line(fails(run("rulescript", *args, cwd=tmp_path), 2))
    assert MISSING in line and ("no such file or folder" in line or "not a game folder" in line), line
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("args", [["check", "{d}"], ["play", "{d}", "--auto"], ["simulate", "{d}", "--games", "1"]])
def test_a_folder_that_is_not_a_game(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("hello\n")
    err = fails(run("rulescript", *[a.format(d="notes") for a in args], cwd=tmp_path), 2)
    assert "not a game folder" in one_line(err)


def test_a_folder_without_scenarios_fails_the_test_command(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    proc = run("rulescript", "test", "notes", cwd=tmp_path)
    fails(proc, 1, "no scenarios found")
    assert proc.stdout.rstrip().endswith("0 passed, 0 failed")


@pytest.mark.parametrize("args", [["play", "{g}", "--auto"], ["simulate", "{g}", "--games", "1"]])
def test_a_game_without_decks_says_how_to_add_one(small_game: Path, args: list[str]) -> None:
    for deck in (small_game / "decks").iterdir():
        deck.unlink()
    err = fails(run("rulescript", *[a.format(g=small_game) for a in args]), 1)
    assert "has no decks: add one as decks/NAME.yaml" in one_line(err)


def test_output_path_that_is_a_folder(small_game: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    err = fails(run("rulescript", "compile", small_game, "-o", tmp_path / "out"), 2)
    assert "is a folder" in one_line(err)


def test_unwritable_output_leaves_nothing(small_game: Path, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder\n")
    err = fails(run("rulescript", "compile", small_game, "-o", tmp_path / "plain" / "ir.json"), 2)
    assert "is not a folder" in one_line(err)
    err = fails(run("rulescript", "compile", small_game, "-o", "/proc/rulescript-ir.json"), 2)
    assert "rulescript-ir" in one_line(err) or "/proc" in one_line(err)


def test_output_closed_early_is_one_line(small_game: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rulescript", "play", str(small_game), "--auto"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `| head -0`: the reader is gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 2
    assert "Traceback" not in err and "output closed early" in one_line(err)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_exits_130_without_traceback(small_game: Path) -> None:
    # (a test run in the background inherits an ignored SIGINT: the child gets the default back)
    proc = subprocess.Popen([sys.executable, "-m", "rulescript", "simulate", str(small_game), "--games", "100000",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while _cpu_seconds(proc.pid) < 2.0 and time.monotonic() < deadline:  # started: it is playing games
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err.decode() and one_line(err.decode()) == "rulescript: interrupted"


def test_non_utf8_locale_and_non_ascii_paths(tmp_path: Path, small_game: Path) -> None:
    folder = tmp_path / "jeu-été"
    small_game.rename(folder)
    (folder / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: damge(250) # é\n", encoding="utf-8")
    env = {"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"}
    proc = run("rulescript", "check", folder.name, cwd=tmp_path, env=env)
    fails(proc, 1, "jeu-été/rules/mine.ini:2:15: error[RS201]: unknown command 'damge'", "# \\xe9")
    # a file name that is not UTF-8 at all
    (folder / "rules" / "mine.ini").write_text("[baron-cinder]\naction = {F}: draw()\n", encoding="utf-8")
    os.rename(folder / "rules" / "mine.ini", os.path.join(os.fsencode(folder / "rules"), b"caf\xe9.ini"))
    proc = run("rulescript", "compile", folder.name, "-o", "ir.json", cwd=tmp_path, env=env)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr


def test_binary_rule_file_is_not_a_text_file(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_bytes(b"[baron-cinder]\x00\x01\x02action")
    fails(run("rulescript", "check", small_game), 1, "error[RD103]: not a text file (it holds NUL bytes)")


def test_binary_yaml_is_not_a_text_file(small_game: Path) -> None:
    (small_game / "cards.yaml").write_bytes(b"cards:\x00\xff")
    fails(run("rulescript", "check", small_game), 1, "cards.yaml:1:7: error[RD101]: not a text file")
    fails(run("rulescript", "play", small_game, "--auto"), 1, "cards.yaml:1:7: error[RD101]: not a text file")


def test_utf8_with_a_bom_is_read_and_utf16_utf32_are_refused(small_game: Path) -> None:
    text = "[baron-cinder]\naction = {F}: draw()\n"
    (small_game / "rules" / "mine.ini").write_bytes(text.encode("utf-8-sig"))
    proc = run("rulescript", "check", small_game)
    assert proc.returncode == 0 and "1 rule compiled" in proc.stderr, proc.stderr
    for codec, name in (("utf-16", "UTF-16"), ("utf-32", "UTF-32")):
        (small_game / "rules" / "mine.ini").write_bytes(text.encode(codec))
        fails(run("rulescript", "check", small_game), 1,
              f"mine.ini:1:1: error[RD103]: {name} text (it starts with a {name} byte-order mark): save it as UTF-8")


def test_utf16_without_bom_says_so(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_bytes("[baron-cinder]\naction = {F}: draw()\n".encode("utf-16-le"))
    fails(run("rulescript", "check", small_game), 1, "looks like UTF-16 or UTF-32 text without a byte-order mark")


def test_latin1_rules_name_the_byte(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_bytes("[baron-cinder]\n# café\naction = {F}: draw()\n".encode("latin-1"))
    fails(run("rulescript", "check", small_game), 1, "mine.ini:2:6: error[RD103]: not UTF-8 text: byte 0xE9")


def test_empty_rules_file_is_a_warning(small_game: Path) -> None:
    (small_game / "rules" / "mine.ini").write_text("# nothing yet\n")
    proc = run("rulescript", "check", small_game)
    assert proc.returncode == 0 and "warning[RS917]: the file holds no rules" in proc.stdout


def test_internal_error_prints_one_line_and_a_crash_report(tmp_path: Path) -> None:
    """The guard every command runs in, given a real bug (a ZeroDivisionError)."""
    code = "import sys; from rulescript import cliutil; sys.exit(cliutil.guarded('rulescript', lambda: 1 // 0))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "RULESCRIPT_CRASH_DIR": str(tmp_path / "crashes")})
    line = one_line(fails(proc, 3))
    assert line.startswith("rulescript: internal error (ZeroDivisionError: integer division or modulo by zero)")
    report = Path(line.split("Crash report: ")[1])
    assert report.parent == tmp_path / "crashes" and "Traceback" in report.read_text()


def test_errors_in_rules_are_printed_once(game: Path) -> None:
    with (game / "rules" / "actions.ini").open("a") as fh:
        fh.write("\n[oops-card]\naction = {F}: damge(100)\n")
    proc = run("rulescript", "test", game)
    fails(proc, 1, "do not compile; the scenarios that use them are not run")
    assert proc.stdout.count("unknown command 'damge'") == 1
    assert "PASS" not in proc.stdout and " not run (the rules do not compile)" in proc.stdout
    assert proc.stdout.rstrip().endswith(" failed")


def test_play_and_simulate_report_bad_deck_data(small_game: Path) -> None:
    deck = small_game / "decks" / "deck-a.yaml"
    lines = deck.read_text().splitlines()
    for i, ln in enumerate(lines):  # one card fewer: 49
        if ln.strip().endswith(": 2"):
            lines[i] = ln[:-1] + "1"
            break
    deck.write_text("\n".join(lines) + "\n")
    for args in (["play", small_game, "--auto"], ["simulate", small_game, "--games", "1"]):
        err = fails(run("rulescript", *args), 1, "deck-a.yaml:")
        assert "error[RD110]: a deck holds 50 cards, this one 49" in err
