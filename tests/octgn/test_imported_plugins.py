"""`rulescript import` then `octgn-pack build` and `octgn-pack validate`, end to end, on both importer
fixtures: the whole plugin folder (tests/importer/fixtures/harbor-lights) and the older two-file form
(tests/importer/fixtures/plugin: one rules file and one set.xml).  The packages validate with the
Python 2.7 compile of every script, and carry what the plugins say that game.yaml can hold."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from octgn_pack.build import build
from octgn_pack.cli import main
from octgn_pack.images import card_png
from rulescript.cli import main as rulescript_main
from tests.octgn.conftest import entries

FIXTURES = Path(__file__).resolve().parents[1] / "importer" / "fixtures"


def _build_and_validate(game: Path, dist: Path, capsys, python27: str, monkeypatch) -> tuple[Path, dict[str, bytes]]:
    monkeypatch.setenv("PYTHON27", python27)
    assert main(["build", str(game), "-o", str(dist), "-q", "-W"]) == 0, capsys.readouterr()
    out = capsys.readouterr()
    assert "warning[" not in out.out + out.err  # every field of game.yaml is one the builder reads (no OP118)
    packages = sorted(dist.glob("*.o8g"))
    assert len(packages) == 1 and packages[0].with_suffix(".nupkg").read_bytes() == packages[0].read_bytes()
    assert main(["validate", str(packages[0])]) == 0
    out = capsys.readouterr()
    assert re.search(r"\d+ scripts compile under Python 2\.7", out.out + out.err), out
    assert "0 errors, 0 warnings" in out.out + out.err
    return packages[0], entries(packages[0].read_bytes())


def _xml(files: dict[str, bytes], path: str) -> ET.Element:
    return ET.fromstring(files[path])


def test_harbor_lights_imports_builds_and_validates(tmp_path: Path, capsys, python27: str, monkeypatch) -> None:
    plugin = tmp_path / "plugin"
    shutil.copytree(FIXTURES / "harbor-lights", plugin)
    game = tmp_path / "game"
    assert rulescript_main(["import", str(plugin), "-o", str(game), "-q"]) == 0
    out = capsys.readouterr()
    assert out.err.startswith("ok: 22 rules converted") and "things the OCTGN package shows otherwise" in out.err
    # -q hides the notes, not the warnings: the two images the plugin lacks
    assert out.out.count("warning[RI213]") == 2 and "note[" not in out.out
    package, files = _build_and_validate(game, tmp_path / "dist", capsys, python27, monkeypatch)
    assert package.name == "harbor-lights-1.0.3.0.o8g"
    d = _xml(files, "def/definition.xml")
    assert (d.get("id"), d.get("authors"), d.get("tags"), d.get("markersize"), d.get("usetwosidedtable")) == (
        "a03c3f4f-cd5b-5b62-9cf8-1fdb3e35b273", "Importer Tests", "cfc test", "20", "True")
    assert d.get("description") == "An invented card game for testing rulescript import."
    assert d.get("gameurl") == "https://example.invalid/harbor-lights"
    table = d.find("table")
    assert (table.get("width"), table.get("height")) == ("1200", "800")
    props = [p.get("name") for p in d.find("card").findall("property")]
    assert props == ["Card Type", "Subtype", "BP", "SP", "Backup", "Ability Type", "Ability Name", "Rules",
                     "Publisher", "Team", "Rarity", "Number", "Illustrator"]
    # the piles are the table face's, whatever definition.xml called them (reported by the import)
    assert [g.get("name") for g in d.find("player").findall("group")] == ["Hand", "Deck", "Discards", "Removed"]
    # two sets as in the plugin, every card keeps its GUID and its display-only properties
    sets = {k: _xml(files, k) for k in files if k.endswith("/set.xml")}
    assert sorted(s.get("name") for s in sets.values()) == ["Harbor Lights", "Tidewater"]
    tidewater = next(s for s in sets.values() if s.get("name") == "Tidewater")
    diver = next(c for c in tidewater.iter("card") if c.get("name") == "Wreck Diver")
    assert diver.get("id") == "9f341b48-6c63-54b5-a604-af72ab9139a3"
    values = {p.get("name"): p.get("value") for p in diver.findall("property")}
    assert values["Illustrator"] == "Test Artist 2" and values["Team"] == "Tide Runners"
    assert values["Ability Type"] == "auto" and values["Backup"] == "smuggler"
    assert sum(len(s.findall("cards/card")) for s in sets.values()) == 27
    assert len([k for k in files if k.endswith(".o8d")]) == 3


def test_harbor_lights_images_are_carried_into_the_package(tmp_path: Path, capsys, python27: str,
                                                           monkeypatch) -> None:
    plugin = tmp_path / "plugin"
    shutil.copytree(FIXTURES / "harbor-lights", plugin)
    back, table = card_png(63, 88, "#334455"), card_png(120, 80, "#0a3d20")
    (plugin / "Resources" / "back.png").write_bytes(back)
    (plugin / "Resources" / "table.png").write_bytes(table)
    game = tmp_path / "game"
    assert rulescript_main(["import", str(plugin), "-o", str(game), "-q"]) == 0
    assert "RI213" not in capsys.readouterr().out
    assert (game / "Resources" / "back.png").read_bytes() == back
    _, files = _build_and_validate(game, tmp_path / "dist", capsys, python27, monkeypatch)
    assert files["def/Resources/back.png"] == back and files["def/Resources/table.png"] == table


def test_the_two_file_plugin_imports_builds_and_validates(tmp_path: Path, capsys, python27: str,
                                                          monkeypatch) -> None:
    plugin = tmp_path / "plugin"
    shutil.copytree(FIXTURES / "plugin", plugin)
    game = tmp_path / "imported"
    code = rulescript_main(["import", str(plugin / "rules.py"), "--set", str(plugin / "set.xml"), "-o", str(game)])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("INCOMPLETE: 16 rules converted, 4 not converted")  # reported, kept as comments
    package, files = _build_and_validate(game, tmp_path / "dist", capsys, python27, monkeypatch)
    assert package.name == "dusk-market-1.2.0.0.o8g"
    # an imported card keeps its OCTGN GUID
    b = build(game, tmp_path / "dist2", check_py27=False)
    assert "cc3ff3df-d61f-49c8-86f8-a936879e6057" in {c.guid for c in b.project.cards}
    (s,) = [_xml(files, k) for k in files if k.endswith("/set.xml")]
    assert s.get("name") == "Dusk Market" and len(s.findall("cards/card")) == 19
    rules = files["def/Scripts/rules.py"].decode("utf-8")
    assert "cc3ff3df-d61f-49c8-86f8-a936879e6057" in rules


def test_an_old_style_game_yaml_is_reported_not_silently_ignored(tmp_path: Path, capsys) -> None:
    """A game.yaml written by the importer before it wrote the builder's schema: each foreign field is a
    warning (OP118) at its key, the build still succeeds with the builder's defaults."""
    game = tmp_path / "game"
    assert rulescript_main(["import", str(FIXTURES / "harbor-lights"), "-o", str(game), "-q"]) == 0
    text = (game / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("  card: {width: 63, height: 88, corner: 3}",
                        "  card: {width: 63, height: 88, cornerRadius: 3}\n  phases: [{name: Main}]")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(game), "-o", str(tmp_path / "dist"), "-q", "-W", "--no-py27"]) == 0
    out = capsys.readouterr().err
    assert "warning[OP118]: octgn.card.cornerRadius is not a field the builder reads" in out
    assert "did you mean: corner" in out
    assert "warning[OP118]: octgn.phases is not a field the builder reads" in out
