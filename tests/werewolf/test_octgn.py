"""The rendered werewolf game builds as an OCTGN package that validates, with the werewolf table face:
no deck (the game deals the role cards), night actions on the card menu, the role lists carried for
the host's start (votes are dialogs: tests/octgn_host/test_werewolf.py plays it)."""
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
        gamedata = z.read("def/Scripts/gamedata.py").decode("ascii")
    assert "<deck" not in definition and '<group name="Past" visibility="none"' in definition
    assert "Use this role's action" in definition and '<groupaction menu="Decline the action"' in definition
    assert '<phase name="Night"' in definition and '<globalvariable name="rs_cards"' in definition
    ns: dict = {}
    exec(gamedata, ns)
    assert ns["GAME"]["fields"]["role_lists"][5] == ["seer", "possessed", "werewolf", "villager", "villager"]
