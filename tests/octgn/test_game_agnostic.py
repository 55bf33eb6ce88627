"""Nothing in octgn_pack knows CFC: an invented game package with its own table face (a village with
roles, no rings, no HP) is packaged by the same code, and its own piles, counters, markers, phases,
menus and card fields reach the package."""

from __future__ import annotations

import ast
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import rulescript.games
from octgn_pack.build import build
from rulescript.compiler import profile as profile_mod
from tests.conftest import ROOT
from tests.octgn.conftest import entries

TABLE = '''\
"""Table face of an invented village game."""
from __future__ import absolute_import, division, print_function

PILES = [
    {"name": "Role", "zone": "hand", "visibility": "me", "ordered": False, "shuffle": False, "view": "expanded"},
    {"name": "Village Deck", "zone": "deck", "visibility": "none", "ordered": True, "shuffle": True, "view": "pile"},
    {"name": "Graveyard", "zone": "discards", "visibility": "all", "ordered": True, "shuffle": False, "view": "pile"},
]
COUNTERS = [{"name": "Votes", "stat": "votes", "default": 0}]
MARKERS = [{"id": "vg-dead", "name": "Dead", "doc": "killed"}, {"id": "vg-protected", "name": "Protected", "doc": ""}]
PHASES = [{"name": "Night", "phase": "night"}, {"name": "Day", "phase": "day"}, {"name": "Vote", "phase": "vote"}]
DECK_SECTIONS = [{"name": "Roles", "pile": "Village Deck"}]
CARD_ACTIONS = [{"do": "accuse", "menu": "Accuse"}, {"do": "protect", "menu": "Protect"}]
GAME_ACTIONS = [{"do": "sleep", "menu": "Go to sleep"}]
SLOTS = []
'''


@pytest.fixture
def village(tmp_path, monkeypatch) -> Path:
    games = tmp_path / "games"
    pkg = games / "village"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""An invented village game (tests only)."""\nNAME = "village"\n')
    (pkg / "table.py").write_text(TABLE)
    cfc = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text(encoding="utf-8")
    (pkg / "profile.yaml").write_text(cfc.replace("profile: cfc", "profile: village", 1), encoding="utf-8")
    monkeypatch.setattr(profile_mod, "GAMES_DIR", games)
    monkeypatch.setattr(rulescript.games, "__path__", list(rulescript.games.__path__) + [str(games)])
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("rulescript.games.village")]:
        del sys.modules[name]


def test_an_invented_game_is_packaged_from_its_own_table_face(village):
    game = village / "mygame"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: village\nid: 22222222-3333-4444-5555-666666666666\nname: Village\n"
                                    "version: 3\n")
    (game / "cards.yaml").write_text(textwrap.dedent("""\
        cards:
          - {id: seer, name: Seer, type: character, team: village, night_order: 2}
          - {id: wolf, name: Werewolf, type: character, team: wolves, night_order: 1}
        """))
    (game / "decks" / "six.yaml").write_text("name: Six players\nsections:\n  roles: {seer: 1, wolf: 2}\n")
    b = build(game, village / "dist")
    assert b.ok, b.render()
    files = entries(b.package)
    g = ET.fromstring(files["def/definition.xml"])
    assert [x.get("name") for x in g.find("player").findall("group")] == ["Role", "Village Deck", "Graveyard"]
    assert [x.get("name") for x in g.find("player").findall("counter")] == ["Votes"]
    assert g.find("player").get("summary") == "Votes: {#Votes}"
    assert [m.get("id") for m in g.find("markers")] == ["vg-dead", "vg-protected"]
    assert [p.get("name") for p in g.find("phases")] == ["Night", "Day", "Vote"]
    assert [(s.get("name"), s.get("group")) for s in g.find("deck")] == [("Roles", "Village Deck")]
    assert [a.get("execute") for a in g.find("table").findall("cardaction")] == ["rs_do_accuse", "rs_do_protect"]
    props = {p.get("name"): p.get("type") for p in g.find("card")}
    assert props["Team"] == "String" and props["Night Order"] == "Integer"
    assert "def/rulescript/games/village/table.py" in files and "def/rulescript/games/cfc/table.py" not in files
    deck = ET.fromstring(next(v for k, v in files.items() if k.endswith(".o8d")))
    assert deck.find("section").get("name") == "Roles"
    assert [c.get("qty") for c in deck.iter("card")] == ["1", "2"]


def _code_strings(path: Path) -> set[str]:
    """The string constants of a module's code (docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return {n.value.lower() for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs}


def test_octgn_pack_code_names_no_cfc_thing():
    words = {"cfc", "ring", "bp", "sp", "hp", "backup", "character", "reaction", "frozen", "deck-a"}
    for path in sorted((ROOT / "octgn_pack").glob("*.py")):
        assert not words & _code_strings(path), path.name
