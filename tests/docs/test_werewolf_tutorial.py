"""docs/werewolf-tutorial.md, run as written in an empty folder (the runner of test_tutorial.py):
a book written file by file, checked (first with the errors the page shows), rendered, checked by
rulescript, tested, simulated, played at the table and built for OCTGN."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT
from tests.docs.test_tutorial import pytestmark, run_page  # noqa: F401  (the same POSIX condition)

PAGE = ROOT / "docs" / "werewolf-tutorial.md"


def test_the_werewolf_tutorial_runs_as_written(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    ran = "\n".join(run_page(PAGE, work, tmp_path))
    for step in ("wwrf check mybook", "wwrf render mybook -o mygame", "rulescript check mygame",
                 "rulescript test mygame", "rulescript simulate mygame --players 7", "rulescript play mygame",
                 "octgn-pack build mygame -o dist"):
        assert step in ran, step
    assert (work / "dist" / "hedge-village-0.1.0.0.o8g").is_file()
    roles = (work / "mygame" / "game.yaml").read_text(encoding="utf-8")
    assert "7:\n  - seer\n  - hedge-witch\n" in roles
