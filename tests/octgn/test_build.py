"""octgn-pack build: the demo package, its layout, its ids, and reproducible, atomic output."""

from __future__ import annotations

import ast
import subprocess
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from octgn_pack.build import build
from octgn_pack.cli import main
from octgn_pack.package import MANIFEST_REL
from rulescript.compiler import compile_game
from rulescript.games.cfc import table as face
from tests.conftest import DEMO, ROOT
from tests.octgn.conftest import entries, run_py27, unpack, write_game

GUID = "006c09f0-79a0-42b2-8d36-cc863c998ee8"
NUSPEC_NS = "{http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd}"


def test_build_writes_o8g_and_nupkg_with_the_same_bytes(demo_build):
    b, dist = demo_build
    o8g, nupkg = dist / "cfc-demo-0.1.0.0.o8g", dist / "cfc-demo-0.1.0.0.nupkg"
    assert sorted(p.name for p in dist.iterdir()) == [nupkg.name, o8g.name]
    assert o8g.read_bytes() == nupkg.read_bytes() == b.package


def test_two_builds_are_byte_identical(demo_build, tmp_path):
    _, dist = demo_build
    assert main(["build", str(DEMO), "-o", str(tmp_path), "-q"]) == 0
    assert (tmp_path / "cfc-demo-0.1.0.0.o8g").read_bytes() == (dist / "cfc-demo-0.1.0.0.o8g").read_bytes()


def test_validate_accepts_the_built_package(demo_build, capsys):
    _, dist = demo_build
    assert main(["validate", str(dist / "cfc-demo-0.1.0.0.o8g")]) == 0
    assert "0 errors" in capsys.readouterr().err


def test_package_is_a_nuget_opc_zip(demo_build):
    b, _ = demo_build
    files = entries(b.package)
    names = list(files)
    assert names == sorted(names, key=lambda n: n), "entries are written in sorted order"
    rels = ET.fromstring(files["_rels/.rels"])
    rel = [r for r in rels if r.get("Type") == MANIFEST_REL]
    assert rel and rel[0].get("Target") == f"/{GUID}.nuspec"
    meta = ET.fromstring(files[f"{GUID}.nuspec"]).find(f"{NUSPEC_NS}metadata")
    get = {c.tag.replace(NUSPEC_NS, ""): c.text for c in meta}
    assert get["id"] == GUID and get["version"] == "0.1.0.0" and get["title"] == "CFC Demo"
    assert get["authors"] and get["description"].startswith("Lantern City Clash")
    assert get["projectUrl"].startswith("https://") and get["iconUrl"].startswith("https://")
    types = ET.fromstring(files["[Content_Types].xml"])
    exts = {d.get("Extension") for d in types}
    assert {n.rsplit(".", 1)[-1] for n in names if "." in n.rsplit("/", 1)[-1]} <= exts
    roots = [n for n in names if n.startswith("def/") and n.count("/") == 1]
    assert roots == ["def/definition.xml"]
    import zipfile, io
    with zipfile.ZipFile(io.BytesIO(b.package)) as z:
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_engine_and_host_ship_byte_for_byte(demo_build):
    b, _ = demo_build
    files = entries(b.package)
    shipped = [n for n in files if n.startswith("def/rulescript/")]
    expected = (["rulescript/__init__.py", "rulescript/games/__init__.py"]
                + [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "rulescript/runtime").glob("*.py"))]
                + [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "rulescript/games/cfc").glob("*.py"))])
    assert sorted(shipped) == sorted("def/" + e for e in expected)
    for e in expected:
        assert files["def/" + e] == (ROOT / e).read_bytes()
    for p in sorted((ROOT / "octgn_pack/host").glob("*.py")):
        assert files[f"def/octgn_pack/host/{p.name}"] == p.read_bytes()
    assert ast.get_docstring(ast.parse(files["def/octgn_pack/__init__.py"]))


def test_definition_comes_from_the_table_face_and_the_manifest(demo_build):
    from octgn_pack.host import manifest

    b, _ = demo_build
    g = ET.fromstring(entries(b.package)["def/definition.xml"])
    assert g.get("id") == GUID and g.get("version") == "0.1.0.0" and g.get("scriptVersion") == "3.1.0.2"
    player = g.find("player")
    assert [x.get("name") for x in player.findall("group")] == [p["name"] for p in face.PILES]
    assert [(x.get("name"), int(x.get("default"))) for x in player.findall("counter")] == [
        (c["name"], c["default"]) for c in face.COUNTERS]
    assert [m.get("id") for m in g.find("markers")] == [m["id"] for m in face.MARKERS]
    assert [p.get("name") for p in g.find("phases")] == [p["name"] for p in face.PHASES]
    assert [(s.get("name"), s.get("group")) for s in g.find("deck")] == [(s["name"], s["pile"]) for s in face.DECK_SECTIONS]
    assert [(e.get("name"), e.get("action")) for e in g.find("events")] == list(manifest.EVENTS)
    actions = g.find("table").findall("cardaction")
    assert [a.get("menu") for a in actions] == [a["menu"] for a in face.CARD_ACTIONS]
    assert actions[0].get("execute") == "rs_do_play" and actions[0].get("default") == "True"
    assert [a.get("execute") for a in g.find("table").findall("groupaction")] == [
        "rs_game_" + a["do"] for a in face.GAME_ACTIONS] + [a["execute"] for a in manifest.HOST_GAME_ACTIONS]
    scripts = [s.get("src") for s in g.find("scripts")]
    assert scripts[:2] == ["Scripts/gamedata.py", "Scripts/rules.py"]
    props = [p.get("name") for p in g.find("card")]
    assert props[:4] == ["Card Type", "Subtype", "BP", "SP"] and "Text" in props and "Ability Name" in props
    assert g.find("documents")[0].get("src") == "Documents/rules-reference.html"


def test_ids_are_uuid5_of_the_game_and_card_ids(demo_build):
    b, _ = demo_build
    files = entries(b.package)
    set_paths = [n for n in files if n.endswith("/set.xml")]
    assert len(set_paths) == 1
    s = ET.fromstring(files[set_paths[0]])
    assert s.get("id") == str(uuid.uuid5(uuid.UUID(GUID), "set:CFC Demo")) and s.get("gameId") == GUID
    first = s.find("cards")[0]
    assert first.get("id") == str(uuid.uuid5(uuid.UUID(GUID), "card:shade-sparrow"))
    assert first.get("name") == "Shade Sparrow"


def test_generated_scripts_load_and_hold_the_game(demo_build):
    b, _ = demo_build
    files = entries(b.package)
    ns: dict = {}
    exec(compile(files["def/Scripts/gamedata.py"], "gamedata.py", "exec"), ns)  # noqa: S102 - our own literal
    game = ns["GAME"]
    assert game["id"] == GUID and game["profile"] == "cfc" and game["version"] == "0.1.0.0"
    card = game["cards"][str(uuid.uuid5(uuid.UUID(GUID), "card:ink-viper"))]
    assert card["id"] == "ink-viper" and card["bp"] == 500
    assert [d["name"] for d in game["decks"]] == ["Lantern Dojo", "Iron Conclave"]
    assert len(game["fingerprint"]) == 32
    ns = {}
    exec(compile(files["def/Scripts/rules.py"], "rules.py", "exec"), ns)  # noqa: S102
    doc = compile_game(DEMO).document()
    assert set(ns["RULES"]["rules"]) == set(doc["rules"])
    assert ns["RULES"] == doc, "the compiled IR (compile_game names rule files by their path in the game folder)"
    assert ns["RULES"]["rules"]["ink-viper"]["src"][0] == "rules/fighters.ini"
    assert ns["RULES_FINGERPRINT"]


def test_generated_scripts_load_under_python27(demo_build, python27, tmp_path):
    """rules.py imports its loader from the package (octgn_pack/host/lazyrules.py): def/ on sys.path,
    as OCTGN puts it, and nothing of this checkout."""
    b, _ = demo_build
    files = entries(b.package)
    for name, data in files.items():
        if name.startswith("def/Scripts/") or name.startswith("def/octgn_pack/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(data)
    code = ("import os\nos.chdir(sys.argv[1])\nsys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"
            "sys.path.insert(0, sys.argv[1] + '/Scripts')\nimport gamedata, rules\n"
            "import octgn_pack.host.lazyrules as L\n"
            "assert rules.__file__.startswith(sys.argv[1]) and L.__file__.startswith(sys.argv[1])\n"
            "out('%d %d' % (len(gamedata.GAME['cards']), len(rules.RULES['rules'])))")
    assert run_py27(python27, tmp_path / "def", code).split() == ["127", str(len(compile_game(DEMO).rules))]


def test_the_shipped_engine_imports_and_plays_under_python27(demo_build, python27, tmp_path):
    """The def/ root is what OCTGN puts on sys.path: the engine must import from there."""
    b, _ = demo_build
    def_dir = unpack(b.package, tmp_path)
    code = ("sys.path.insert(0, sys.argv[1] + '/Scripts')\n"
            "from rulescript.games import load\nfrom rulescript.runtime.engine import Engine\n"
            "import rules\ng = load(rules.RULES['profile'])\nEngine(rules.RULES['rules'], game=g)\n"
            "from rulescript.games.cfc import table\nout(len(table.PILES))\n")
    assert run_py27(python27, def_dir, code) == str(len(face.PILES))


def test_vermin_passes_on_everything_the_package_ships(demo_build, tmp_path):
    import shutil, sys, zipfile, io
    b, _ = demo_build
    with zipfile.ZipFile(io.BytesIO(b.package)) as z:
        z.extractall(tmp_path)
    pys = sorted(str(p) for p in (tmp_path / "def").rglob("*.py"))
    assert len(pys) > 20
    exe = shutil.which("vermin")
    cmd = [exe] if exe else [sys.executable, "-m", "vermin"]
    proc = subprocess.run(cmd + ["-q", "-t=2.7-", "-t=3.0-", "--violations"] + pys, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_version_is_four_parts_and_names_the_file(tmp_path):
    game = write_game(tmp_path / "g")
    b = build(game, tmp_path / "dist")
    assert b.ok, b.render()
    assert [p.name for p in sorted((tmp_path / "dist").iterdir())] == ["tiny-game-1.2.0.0.nupkg", "tiny-game-1.2.0.0.o8g"]
    g = ET.fromstring(entries(b.package)["def/definition.xml"])
    assert g.get("version") == "1.2.0.0"


def test_a_new_version_keeps_every_guid(tmp_path):
    one = build(write_game(tmp_path / "a"), tmp_path / "d1")
    two = build(write_game(tmp_path / "b", game=(tmp_path / "a/game.yaml").read_text().replace('"1.2"', '"1.3"')),
                tmp_path / "d2")
    assert one.ok and two.ok
    sets1 = sorted(n for n in entries(one.package) if n.endswith("set.xml"))
    sets2 = sorted(n for n in entries(two.package) if n.endswith("set.xml"))
    assert sets1 == sets2
    ids1 = [c.get("id") for c in ET.fromstring(entries(one.package)[sets1[0]]).iter("card")]
    ids2 = [c.get("id") for c in ET.fromstring(entries(two.package)[sets2[0]]).iter("card")]
    assert ids1 == ids2 and len(ids1) == 2


def test_a_failed_build_writes_nothing_and_keeps_an_older_package(tmp_path):
    game = write_game(tmp_path / "g")
    dist = tmp_path / "dist"
    assert build(game, dist).ok
    before = {p.name: p.read_bytes() for p in dist.iterdir()}
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("id: quick-tea", "id: ember-monk"))
    b = build(game, dist)
    assert not b.ok and b.written == []
    assert {p.name: p.read_bytes() for p in dist.iterdir()} == before, "no temporary file, no change"


def test_game_images_ship_in_the_set_and_back(tmp_path):
    game = write_game(tmp_path / "g")
    from octgn_pack.images import card_png

    (game / "images").mkdir()
    (game / "images" / "ember-monk.png").write_bytes(card_png(10, 14, "#ff0000"))
    (game / "art.png").write_bytes(card_png(10, 14, "#00ff00"))
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "octgn:\n  card: {back: art.png}\n")
    b = build(game, tmp_path / "dist")
    assert b.ok, b.render()
    files = entries(b.package)
    cid = str(uuid.uuid5(uuid.UUID("11111111-2222-3333-4444-555555555555"), "card:ember-monk"))
    assert [n for n in files if "/Cards/" in n] == [n for n in files if n.endswith(f"/Cards/{cid}.png")]
    assert files["def/Resources/back.png"] == card_png(10, 14, "#00ff00")


def test_build_help_and_usage_errors(capsys, tmp_path):
    assert main(["--help"]) == 0
    assert "o8g" in capsys.readouterr().out
    assert main(["build", "--help"]) == 0
    assert main([]) == 2
    assert main(["build", str(tmp_path / "missing")]) == 2
    assert "no such game folder" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "missing.o8g")]) == 2
    (tmp_path / "junk.o8g").write_bytes(b"not a zip")
    assert main(["validate", str(tmp_path / "junk.o8g")]) == 2
    assert "not a zip" in capsys.readouterr().err


def test_console_script_is_declared(root: Path):
    text = (root / "pyproject.toml").read_text()
    assert 'octgn-pack = "octgn_pack.cli:main"' in text


@pytest.mark.parametrize("rel", ["def/Proxy/proxydef.xml"])
def test_proxy_prints_name_type_stats_and_text(demo_build, rel):
    b, _ = demo_build
    t = ET.fromstring(entries(b.package)[rel])
    linked = {link.get("block"): [p.get("name") for p in link] for link in t.iter("link")}
    assert linked == {"name": ["Name"], "type": ["Card Type", "Subtype"], "stats": ["BP", "SP"], "text": ["Text"]}
    assert t.find("template").get("default") == "True"


def test_rebuilding_a_changed_game_under_the_same_version_warns(tmp_path, capsys):
    game = write_game(tmp_path / "g")
    dist = tmp_path / "dist"
    assert main(["build", str(game), "-o", str(dist), "-q"]) == 0
    assert main(["build", str(game), "-o", str(dist), "-q"]) == 0
    assert "OP311" not in capsys.readouterr().err, "the same bytes again: nothing to say"
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("Deals damage.", "Deals more."))
    assert main(["build", str(game), "-o", str(dist), "-q"]) == 0
    err = capsys.readouterr().err
    assert f"{game / 'game.yaml'}:4:10: warning[OP311]" in err and "bump 'version'" in err


def test_an_unwritable_dist_is_an_io_error(tmp_path, capsys):
    blocker = tmp_path / "dist"
    blocker.write_text("a file, not a folder")
    assert main(["build", str(write_game(tmp_path / "g")), "-o", str(blocker), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{blocker} is not a folder" in err and "Traceback" not in err  # said before anything is built
