"""An edit of one rule file re-checks that file alone when no duplicate id across files can come or
go; the diagnostics are then exactly those of a whole `compile_game` (what `rulescript check` runs)
of the same buffers, for every file of the game."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulescript import textfile
from rulescript.compiler import driver
from rulescript.lsp.checks import Checker
from tests.lsp.conftest import ROOT


def _whole(game: Path) -> dict[str, list]:
    result = driver.compile_game(game, cache=None)
    found: dict[str, list] = {}
    for d in result.diagnostics:
        found.setdefault(os.path.abspath(os.path.join(game, d.span.file)), []).append(d)
    return found


@pytest.fixture()
def game(tmp_path: Path):
    shutil.copytree(ROOT / "cards" / "cfc-demo", tmp_path / "game")
    yield tmp_path / "game"
    textfile.OVERLAY.clear()


def test_incremental_checks_equal_whole_game_checks(game: Path):
    checker = Checker()
    powers = str(game / "rules" / "powers.ini")
    fighters = game / "rules" / "fighters.ini"
    text = Path(powers).read_text(encoding="utf-8")
    checker.game(str(game))
    other_id = next(ln[1:-1] for ln in fighters.read_text(encoding="utf-8").splitlines() if ln.startswith("["))
    edits = [
        ("a typo: the rule compiles to nothing", text.replace("modCost(action, -1)", "modCst(action, -1)", 1), True),
        ("the typo fixed", text, True),
        ("a new id no card has", text.replace("[warlord-brakka]", "[warlord-brakkka]"), True),
        ("an id of another file: a duplicate across files", text.replace("[warlord-brakka]", f"[{other_id}]"), False),
        ("a duplicate inside the file (the id of the other file goes away)",
         text.replace("[overlord-quillon]", "[warlord-brakka]"), False),
        ("the duplicate inside the file stays", text.replace("[overlord-quillon]", "[warlord-brakka]") + "\n", True),
        ("back", text, True),
    ]
    for what, buffer, alone in edits:
        textfile.OVERLAY[powers] = buffer
        got = checker.game(str(game), powers)
        assert (list(got) == [powers]) is alone, what
        whole = _whole(game)
        assert got[powers] == whole.get(powers, []), what
        state = checker._games[str(game)].found
        for path, diags in state.items():
            assert diags == whole.get(path, []), (what, path)
    assert any(d.code == "RS104" for d in _whole(game).get(str(fighters), [])) is False
