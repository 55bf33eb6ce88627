"""`rulescript new GAME [--from SOURCE]`: a clean copy with an id and a name of its own, and
`octgn-pack deploy` refusing (until --replace) to replace another game installed under the same id."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from rulescript.compiler import compile_game
from tests.cli.conftest import DEMO, fails, run

DEMO_ID = "006c09f0-79a0-42b2-8d36-cc863c998ee8"


def _game_yaml(folder: Path) -> dict:
    return yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))


def test_new_makes_a_clean_copy_of_the_demo_with_its_own_id_and_name(tmp_path: Path) -> None:
    proc = run("rulescript", "new", "mygame", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    game = tmp_path / "mygame"
    doc = _game_yaml(game)
    assert doc["name"] == "mygame" and doc["id"] != DEMO_ID
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", doc["id"])
    assert doc["description"] == "mygame: a game made with `rulescript new` from CFC Demo."
    assert doc["octgn"] == _game_yaml(DEMO)["octgn"] and doc["profile"] == "cfc"
    assert f"made mygame: the game 'mygame' (id {doc['id']})" in proc.stderr
    for part in ("cards.yaml", "rules", "decks", "scenarios"):
        assert sorted(p.relative_to(game).as_posix() for p in (game / part).rglob("*")) == \
            sorted(p.relative_to(DEMO).as_posix() for p in (DEMO / part).rglob("*") if "__pycache__" not in p.parts)
    result = compile_game(game)
    assert result.ok and len(result.rules) == len(compile_game(DEMO).rules)
    again = run("rulescript", "new", "other", cwd=tmp_path)
    assert _game_yaml(tmp_path / "other")["id"] != doc["id"]  # every new game is another game


def test_new_from_another_game_leaves_hidden_files_caches_and_packages_behind(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(DEMO, src)
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref\n")
    (src / "dist").mkdir()
    (src / "dist" / "cfc-demo-0.1.0.0.o8g").write_bytes(b"PK")
    (src / "rules" / "__pycache__").mkdir()
    (src / "rules" / "actions.ini.x1.tmp").write_text("half\n")
    proc = run("rulescript", "new", "copy", "--from", src, "--name", "Night Market", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    game = tmp_path / "copy"
    assert _game_yaml(game)["name"] == "Night Market"
    assert not (game / ".git").exists() and not (game / "dist").exists()
    assert not (game / "rules" / "__pycache__").exists() and not (game / "rules" / "actions.ini.x1.tmp").exists()


def test_new_refuses_what_it_cannot_make(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine\n")
    fails(run("rulescript", "new", "taken", cwd=tmp_path), 2, "taken already exists; give a new folder")
    fails(run("rulescript", "new", "x", "--from", "missing", cwd=tmp_path), 2, "no such game folder: missing")
    fails(run("rulescript", "new", "x", "--from", "taken", cwd=tmp_path), 2, "taken is not a game folder")
    assert not (tmp_path / "x").exists()


def test_deploy_does_not_silently_replace_another_game_with_the_same_id(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert run("octgn-pack", "deploy", DEMO, "--data", data, "-q", "--no-py27", cwd=tmp_path).returncode == 0
    shutil.copytree(DEMO, tmp_path / "copied")  # cp -r: the same id and name as the demo
    err = fails(run("octgn-pack", "deploy", "copied", "--data", data, "-q", "--no-py27", cwd=tmp_path), 2,
                f"holds another game with the same id: 'CFC Demo' deployed from {DEMO}",
                "rulescript new GAME --from copied", "--replace")
    assert "installed" not in err
    # redeploying the same game is the development loop: no question asked
    assert run("octgn-pack", "deploy", DEMO, "--data", data, "-q", "--no-py27", cwd=tmp_path).returncode == 0
    # a game made with `rulescript new` is another game: installed beside the demo
    assert run("rulescript", "new", "mygame", cwd=tmp_path).returncode == 0
    assert run("octgn-pack", "deploy", "mygame", "--data", data, "-q", "--no-py27", cwd=tmp_path).returncode == 0
    installed = sorted(p.name for p in (data / "GameDatabase").iterdir())
    assert DEMO_ID in installed and len(installed) == 2
    # --replace says yes
    proc = run("octgn-pack", "deploy", "copied", "--data", data, "-q", "--no-py27", "--replace", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
