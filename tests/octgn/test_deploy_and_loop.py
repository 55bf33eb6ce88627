"""octgn-pack deploy (the layout OCTGN's installer makes), rulescript watch --octgn (the installed
rules.py follows every good save and stays as it was after a broken one), and an imported plugin
packaged end to end."""

from __future__ import annotations

import io
import shutil
import uuid
from pathlib import Path

from octgn_pack.build import build
from octgn_pack.cli import main
from octgn_pack.deploy import RulesSync, installed_game
from octgn_pack.images import card_png
from octgn_pack.validate import validate_path
from rulescript.cli import main as rulescript_main
from rulescript.watch import Watcher, main_watch
from tests.octgn.conftest import write_game

GUID = "11111111-2222-3333-4444-555555555555"


def _game_with_image(tmp_path: Path) -> Path:
    game = write_game(tmp_path / "g")
    (game / "images").mkdir()
    (game / "images" / "ember-monk.png").write_bytes(card_png(10, 14, "#ff0000"))
    return game


def test_deploy_lays_the_game_out_as_octgn_installs_it(tmp_path, capsys):
    game = _game_with_image(tmp_path)
    data = tmp_path / "data"
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 0
    target = data / "GameDatabase" / GUID
    assert (target / "definition.xml").is_file() and (target / "Scripts" / "rules.py").is_file()
    assert (target / "rulescript" / "runtime" / "engine.py").is_file()
    sets = list((target / "Sets").iterdir())
    assert len(sets) == 1 and (sets[0] / "set.xml").is_file() and not (sets[0] / "Cards").exists()
    card = str(uuid.uuid5(uuid.UUID(GUID), "card:ember-monk"))
    assert (data / "ImageDatabase" / GUID / "Sets" / sets[0].name / "Cards" / f"{card}.png").is_file()
    assert (data / "Decks" / "Tiny Game" / "Starter.o8d").is_file()
    assert validate_path(target, check_py27=False).ok
    assert "installed Tiny Game 1.2.0.0" in capsys.readouterr().err


def test_redeploy_replaces_the_installed_game(tmp_path):
    game = write_game(tmp_path / "g")
    data = tmp_path / "data"
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 0
    stale = data / "GameDatabase" / GUID / "Scripts" / "stale.py"
    stale.write_text("x = 1\n")
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 0
    assert not stale.exists()
    assert sorted(p.name for p in (data / "GameDatabase").iterdir()) == [GUID], "no staging folder left"


def test_deploy_of_a_broken_game_installs_nothing(tmp_path, capsys):
    game = write_game(tmp_path / "g", rules="[ember-monk]\naction = {F}: damge(1)\n")
    data = tmp_path / "data"
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 1
    assert not (data / "GameDatabase").exists()
    assert "nothing installed" in capsys.readouterr().err


def test_watch_octgn_rewrites_rules_py_and_keeps_it_on_a_broken_save(tmp_path):
    game = write_game(tmp_path / "g")
    data = tmp_path / "data"
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 0
    rules_py = installed_game(game, data) / "Scripts" / "rules.py"
    deployed = rules_py.read_bytes()
    out = io.StringIO()
    w = Watcher(game, out, scenarios=False)
    sync = w.on_reload(RulesSync(game, data, out))
    try:
        w.initial()
        assert rules_py.read_bytes() == deployed, "the watcher writes what the build wrote"
        ini = game / "rules" / "cards.ini"
        ini.write_text("[ember-monk]\naction = {F}: damage(250) to(character@oppRing)\n")
        res = w.process([ini])
        assert res.ok and sync.writes == 2
        good = rules_py.read_bytes()
        assert b"250" in good and good != deployed
        ns: dict = {}
        exec(compile(good, "rules.py", "exec"), ns)  # noqa: S102 - our own literal
        assert ns["RULES"]["rules"]["ember-monk"]["src"][0] == "rules/cards.ini"
        ini.write_text("[ember-monk]\naction = {F}: damage(250 to(character@oppRing)\n")
        res = w.process([ini])
        assert not res.ok and rules_py.read_bytes() == good and sync.writes == 2
        assert "kept as it was" in out.getvalue()
    finally:
        w.stop()
    # the rules a build would ship are the ones the loop wrote
    b = build(game.parent / "g", tmp_path / "dist")
    assert not b.ok  # the folder still holds the broken save
    ini.write_text("[ember-monk]\naction = {F}: damage(250) to(character@oppRing)\n")
    b = build(game, tmp_path / "dist")
    assert b.ok and b.files["Scripts/rules.py"] == good


def test_watch_octgn_needs_an_installed_game(tmp_path, capsys):
    game = write_game(tmp_path / "g")
    assert main_watch([str(game), "--octgn", str(tmp_path / "empty"), "--once", "--no-scenarios"]) == 2
    assert "octgn-pack deploy" in capsys.readouterr().err


def test_watch_octgn_once_from_the_command_line(tmp_path, capsys):
    game = write_game(tmp_path / "g")
    data = tmp_path / "data"
    assert main(["deploy", str(game), "--data", str(data), "-q"]) == 0
    rules_py = installed_game(game, data) / "Scripts" / "rules.py"
    rules_py.write_text("RULES = {}\n")
    assert main_watch([str(game), "--octgn", str(data), "--once", "--no-scenarios"]) == 0
    assert "octgn: wrote" in capsys.readouterr().out
    assert rules_py.read_text().startswith("# -*- coding: utf-8 -*-")


def test_an_imported_plugin_builds_and_validates(tmp_path, capsys, root):
    plugin = tmp_path / "plugin"
    shutil.copytree(root / "tests" / "importer" / "fixtures" / "plugin", plugin)
    out = tmp_path / "imported"
    code = rulescript_main(["import", str(plugin / "rules.py"), "--set", str(plugin / "set.xml"), "-o", str(out)])
    assert code in (0, 1), capsys.readouterr().err  # 1: some rules were kept as comments (reported)
    dist = tmp_path / "dist"
    assert main(["build", str(out), "-o", str(dist), "-q"]) == 0, capsys.readouterr().err
    packages = sorted(dist.glob("*.o8g"))
    assert [p.name for p in packages] == ["dusk-market-1.2.0.0.o8g"]
    assert main(["validate", str(packages[0])]) == 0
    # an imported card keeps its OCTGN GUID
    b = build(out, tmp_path / "dist2")
    assert "cc3ff3df-d61f-49c8-86f8-a936879e6057" in {c.guid for c in b.project.cards}
