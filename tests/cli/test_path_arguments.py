"""Every path argument of the four commands against the README's exit statuses: a missing file or
folder, a folder given for a file, a file given for a folder, an output that cannot be written are
usage or I/O errors (exit status 2), with one line that names the path the user gave."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import DEMO, ROOT, fails, run

WOLF = ROOT / "cards" / "werewolf"
RULES_PY = ROOT / "tests" / "importer" / "fixtures" / "plugin" / "rules.py"

# (command, arguments, what the message says); {d}: a folder, {f}: a file, {m}: a missing path, all under tmp
CASES = [
    ("rulescript", ["check", "{m}"], "no such file or folder: {m}"),
    ("rulescript", ["compile", "{m}", "-o", "{d}/out.json"], "no such file or folder: {m}"),
    ("rulescript", ["compile", DEMO, "-o", "{d}"], "{d} is a folder; give a file name"),
    ("rulescript", ["compile", DEMO, "-o", "{f}/out.json"], "{f} is not a folder"),
    ("rulescript", ["compile", DEMO, "-o", "{f}/sub/out.json"], "{f} is not a folder"),
    ("rulescript", ["docs", "-o", "{d}"], "{d} is a folder; give a file name"),
    ("rulescript", ["check", DEMO, "--cache-dir", "{f}"], "{f} is not a folder"),
    ("rulescript", ["check", DEMO, "--profile", "{m}.yaml"], "unknown profile '{m}.yaml'"),
    ("rulescript", ["docs", "{m}.yaml"], "unknown profile '{m}.yaml'"),
    ("rulescript", ["test", "{m}"], "no such file or folder: {m}"),
    ("rulescript", ["simulate", "{m}", "--games", "1"], "no such file or folder: {m}"),
    ("rulescript", ["simulate", "{f}", "--games", "1"], "{f} is not a folder: give a game folder"),
    ("rulescript", ["play", "{m}", "--auto"], "no such file or folder: {m}"),
    ("rulescript", ["play", "{f}", "--auto"], "{f} is not a folder: give a game folder"),
    ("rulescript", ["play", DEMO, "--replay", "{m}"], "no such saved game file (--replay): {m}"),
    ("rulescript", ["play", DEMO, "--replay", "{d}"], "{d} is a folder; give a saved game file (--replay)"),
    ("rulescript", ["play", DEMO, "--load", "{m}"], "no such saved game file (--load): {m}"),
    ("rulescript", ["play", DEMO, "--load", "{d}"], "{d} is a folder; give a saved game file (--load)"),
    ("rulescript", ["play", WOLF, "--replay", "{m}"], "no such saved game file (--replay): {m}"),
    ("rulescript", ["play", WOLF, "--replay", "{d}"], "{d} is a folder; give a saved game file (--replay)"),
    ("rulescript", ["play", DEMO, "--auto", "--log", "{d}"], "{d} is a folder; give a file name"),
    ("rulescript", ["play", DEMO, "--auto", "--log", "{f}/x.log"], "{f} is not a folder"),
    ("rulescript", ["play", WOLF, "--auto", "--log", "{d}"], "{d} is a folder; give a file name"),
    ("rulescript", ["watch", "{m}"], "no such file or folder: {m}"),
    ("rulescript", ["watch", "{f}"], "{f} is not a game folder"),
    ("rulescript", ["watch", DEMO, "--octgn", "{m}"], "the game is not installed in {m}"),
    ("rulescript", ["import", "{m}", "-o", "{d}/out"], "no such rules file: {m}"),
    ("rulescript", ["import", RULES_PY, "--set", "{m}", "-o", "{d}/out"], "no such set.xml file (--set): {m}"),
    ("rulescript", ["import", RULES_PY, "--set", "{d}", "-o", "{d}/out"], "{d} is a folder; give a set.xml file"),
    ("rulescript", ["import", RULES_PY, "-o", "{f}"], "{f} is not a folder"),
    ("rulescript", ["import", RULES_PY, "-o", "{f}/sub"], "{f} is not a folder"),
    ("wwrf", ["render", WOLF / "roles", "-o", "{f}/sub"], "{f} is not a folder"),
    ("wwrf", ["check", "{m}"], "no such file or folder: {m}"),
    ("wwrf", ["dump", "{m}"], "no such file or folder: {m}"),
    ("wwrf", ["fmt", "{m}"], "no such file or folder: {m}"),
    ("wwrf", ["render", "{m}", "-o", "{d}/game"], "no such book folder: {m}"),
    ("wwrf", ["render", "{f}", "-o", "{d}/game"], "{f} is not a folder; give a book folder"),
    ("wwrf", ["render", WOLF / "roles", "-o", "{f}"], "{f} is not a folder"),
    ("aiwolf", ["check", "{m}"], "cannot read {m}: No such file or directory"),
    ("aiwolf", ["check", "{d}"], "cannot read {d}: Is a directory"),
    ("aiwolf", ["log", "{m}"], "cannot read {m}: No such file or directory"),
    ("aiwolf", ["log", "{d}"], "cannot read {d}: Is a directory"),
    ("aiwolf", ["log", "{f}", "--game", "{m}"], "no werewolf game to replay in: {m}"),
    ("aiwolf", ["serve", "{m}", "--players", "5", "--port", "0"], "{m} is not a game folder"),
    ("aiwolf", ["serve", "{f}", "--players", "5", "--port", "0"], "{f} is not a game folder"),
    ("aiwolf", ["serve", WOLF, "--players", "5", "--port", "0", "--log-dir", "{f}", "--wait", "0.1"],
     "cannot write logs to {f}"),
    ("aiwolf", ["agent", "{m}.py", "--port", "1"], "no such file: {m}.py"),
    ("octgn-pack", ["build", "{m}", "-o", "{d}/dist"], "no such game folder: {m}"),
    ("octgn-pack", ["build", "{f}", "-o", "{d}/dist"], "no such game folder: {f}"),
    ("octgn-pack", ["build", DEMO, "-o", "{f}"], "{f} is not a folder"),
    ("octgn-pack", ["validate", "{m}"], "no such file or folder: {m}"),
    ("octgn-pack", ["validate", "{d}"], "{d} is not a package"),
    ("octgn-pack", ["deploy", "{m}", "--data", "{d}"], "no such game folder: {m}"),
    ("octgn-pack", ["deploy", DEMO, "--data", "{f}"], "{f} is not a folder"),
]


@pytest.mark.parametrize("prog, args, message", CASES,
                         ids=[f"{c[0]}-{'-'.join(str(a) for a in c[1] if not isinstance(a, Path))}" for c in CASES])
def test_every_path_argument_is_a_usage_error(tmp_path: Path, prog: str, args: list, message: str) -> None:
    folder, afile, missing = tmp_path / "folder", tmp_path / "afile.txt", tmp_path / "missing"
    folder.mkdir()
    afile.write_text("not what the command wants\n", encoding="utf-8")
    names = {"d": folder, "f": afile, "m": missing}
    argv = [str(a).format(**names) if not isinstance(a, Path) else str(a) for a in args]
    proc = run(prog, *argv, cwd=tmp_path, timeout=180)
    fails(proc, 2, message.format(**names))
    assert ".tmp" not in proc.stderr  # never a temporary file's name
    assert not missing.exists()       # nothing made where the user's path was missing


def test_an_unwritable_output_is_found_before_the_game_is_played(tmp_path: Path) -> None:
    """/proc takes no new files, even from root: the log's folder is tried before the game is played."""
    proc = run("rulescript", "play", DEMO, "--auto", "--log", "/proc/game.log", cwd=tmp_path)
    fails(proc, 2, "cannot write /proc/game.log")
    assert proc.stdout == ""  # no game was played
    proc = run("rulescript", "compile", DEMO, "-o", "/proc/rules.ir.json", cwd=tmp_path)
    err = fails(proc, 2, "cannot write /proc/rules.ir.json")
    assert ".tmp" not in err and "rules compiled" not in err


@pytest.mark.parametrize("prog, args, message", [
    ("octgn-pack", ["build", DEMO, "-o", "/proc/dist"], "cannot write into /proc/dist"),
    ("rulescript", ["import", RULES_PY, "-o", "/proc/imported"], "cannot write into /proc/imported"),
    ("wwrf", ["render", WOLF / "roles", "-o", "/proc/wolves"], "cannot write into /proc/wolves"),
    ("rulescript", ["docs", "-o", "/proc/reference.md"], "cannot write /proc/reference.md"),
])
def test_unwritable_output_folders_are_found_before_the_work(tmp_path: Path, prog: str, args: list,
                                                             message: str) -> None:
    proc = run(prog, *args, cwd=tmp_path)
    err = fails(proc, 2, message)
    assert ".tmp" not in err and "probe" not in err
    assert "wrote" not in err and "error[" not in err


def test_validate_of_a_folder_of_packages_lists_them(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    (dist / "old").mkdir(parents=True)
    for name in ("a-1.0.0.0.o8g", "a-1.0.0.0.nupkg", "old/a-0.9.0.0.o8g"):
        (dist / name).write_bytes(b"PK\x05\x06" + b"\0" * 18)
    err = fails(run("octgn-pack", "validate", "dist/", cwd=tmp_path), 2,
                "dist is not a package: give a package file (.o8g or .nupkg), an unpacked package (a folder holding "
                "def/) or an installed game (GameDatabase/<game guid>/); packages found in it: dist/a-1.0.0.0.nupkg, "
                "dist/a-1.0.0.0.o8g, dist/old/a-0.9.0.0.o8g")
    assert "OP220" not in err
