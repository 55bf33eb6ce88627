"""No mistake typed at the interactive table ends the game: a bad path for save, load or replay is a
message, and the game goes on (the game in progress is never lost)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import run


def test_bad_paths_at_the_table_are_messages_and_the_game_goes_on(small_game: Path, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile.txt").write_text("x\n", encoding="utf-8")
    typed = ["save folder", "save afile.txt/x.log", "save /proc/x.log", "load folder", "load missing.log",
             "replay folder", "replay missing.log", "save kept.log", "quit"]
    proc = run("rulescript", "play", small_game, "--opponent", "random", cwd=tmp_path,
               stdin="\n".join(typed) + "\n")
    out = proc.stdout
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.strip() == "", proc.stderr
    assert "cannot save to folder: folder is a folder; give a file name" in out
    assert "cannot save to afile.txt/x.log: afile.txt is not a folder" in out
    assert "cannot save to /proc/x.log: cannot write /proc/x.log" in out
    assert "cannot load folder" in out and "cannot load missing.log" in out
    assert "saved to kept.log (" in out  # the game was still there after every mistake
    assert "decisions" in (tmp_path / "kept.log").read_text(encoding="utf-8")
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
