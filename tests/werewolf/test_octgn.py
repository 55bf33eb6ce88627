"""The rendered werewolf game builds as an OCTGN package that validates, with the werewolf table face:
the role pile seen by its owner only, night actions on the card menu, votes from the table menu."""
from __future__ import annotations

import zipfile
from pathlib import Path

from octgn_pack.cli import main as octgn_main

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


def test_the_werewolf_game_builds_and_validates(tmp_path, capsys):
    assert octgn_main(["build", str(GAME), "-o", str(tmp_path)]) == 0
    (pkg,) = list(tmp_path.glob("*.o8g"))
    assert octgn_main(["validate", str(pkg)]) == 0
    with zipfile.ZipFile(pkg) as z:
        definition = z.read("def/definition.xml").decode("utf-8")
    assert '<group name="Role" visibility="me"' in definition
    assert "Use this role's action" in definition and '<groupaction menu="Vote"' in definition
    assert '<phase name="Night"' in definition
