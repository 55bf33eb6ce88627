"""octgn-pack validate on hand-edited packages and folders: each OCTGN rule, located in the file."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from octgn_pack.cli import main
from octgn_pack.validate import tree_from_zip, validate_path
from tests.octgn.conftest import entries


@pytest.fixture
def unpacked(demo_build, tmp_path) -> Path:
    """The demo package unpacked the way OCTGN reads it (part names decoded: %20 is a space)."""
    b, _ = demo_build
    for name, data in tree_from_zip(b.package, "x").files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path / "pkg"


def _edit(path: Path, old: str, new: str, count: int = 1) -> int:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def _set_xml(root: Path) -> Path:
    return next((root / "def" / "Sets").glob("*/set.xml"))


def _codes(report, file: Path | None = None) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in report.errors if file is None or d.span.file == str(file)]


def test_the_unpacked_package_validates(unpacked):
    r = validate_path(unpacked, check_py27=False)
    assert r.ok, r.render()


def test_undeclared_property_in_set_xml(unpacked, capsys):
    s = _set_xml(unpacked)
    line = _edit(s, 'name="Text" value=', 'name="Txt" value=')
    assert main(["validate", str(unpacked), "--no-py27"]) == 1
    err = capsys.readouterr().err
    m = re.search(re.escape(str(s)) + r":(\d+):(\d+): error\[OP261\]: undeclared property 'Txt'", err)
    assert m and int(m.group(1)) == line
    col = int(m.group(2))
    src_line = s.read_text(encoding="utf-8").splitlines()[line - 1]
    assert src_line[col - 1:].startswith('"Txt"')


def test_reserved_duplicate_and_untyped_properties(unpacked):
    d = unpacked / "def" / "definition.xml"
    l1 = _edit(d, '<property name="Subtype" type="String" />', '<property name="SET" type="String" />')
    l2 = _edit(d, '<property name="Backup" type="String" />', '<property name="bp" type="Integer" />')
    l3 = _edit(d, '<property name="Text" type="String" />', '<property name="Text" />')
    codes = _codes(validate_path(unpacked, check_py27=False), d)
    assert ("OP239", l1) in codes and ("OP240", l2) in codes and ("OP241", l3) in codes


def test_booleans_versions_and_guids(unpacked):
    d = unpacked / "def" / "definition.xml"
    l1 = _edit(d, 'usetwosidedtable="True"', 'usetwosidedtable="true"')
    _edit(d, 'version="0.1.0.0"', 'version="0.1.0"')
    _edit(d, 'id="006c09f0-79a0-42b2-8d36-cc863c998ee8"', 'id="{006C09F0-79A0-42B2-8D36-CC863C998EE8}"')
    codes = _codes(validate_path(unpacked, check_py27=False), d)
    assert ("OP212", l1) in codes and ("OP226", l1) in codes and ("OP225", l1) in codes


def test_missing_files_and_bad_sections(unpacked):
    d = unpacked / "def" / "definition.xml"
    (unpacked / "def" / "Resources" / "Piles" / "hand.png").unlink()
    line = _edit(d, '<section name="Main" group="Deck" />', '<section name="Main" group="Library" />')
    codes = _codes(validate_path(unpacked, check_py27=False), d)
    assert ("OP211", d.read_text().count("\n", 0, d.read_text().index("Piles/hand.png")) + 1) in codes
    assert ("OP236", line) in codes


def test_a_deck_card_missing_from_every_set(unpacked):
    deck = next((unpacked / "def" / "Sets").glob("*/Decks/Lantern Dojo.o8d"))
    text = deck.read_text(encoding="utf-8")
    gid = re.search(r'<card qty="\d+" id="([^"]+)">Shade Sparrow', text).group(1)
    deck.write_text(text.replace(gid, "00000000-1111-2222-3333-444444444444").replace(">Shade Sparrow<", ">Nobody<"))
    codes = _codes(validate_path(unpacked, check_py27=False), deck)
    assert [c for c, _ in codes] == ["OP274"]


def test_duplicate_card_guid_across_the_set(unpacked):
    s = _set_xml(unpacked)
    text = s.read_text(encoding="utf-8")
    ids = re.findall(r'<card id="([^"]+)"', text)
    s.write_text(text.replace(ids[1], ids[0]), encoding="utf-8")
    r = validate_path(unpacked, check_py27=False)
    assert "OP259" in [c for c, _ in _codes(r, s)]


def test_only_definition_xml_at_the_def_root_and_set_folder_rules(unpacked):
    (unpacked / "def" / "notes.txt").write_text("x")
    s = _set_xml(unpacked)
    (s.parent / "Cards").mkdir()
    (s.parent / "Cards" / "not-a-guid.png").write_bytes(b"x")
    (s.parent / "extra.xml").write_text("<x/>")
    codes = [c for c, _ in _codes(validate_path(unpacked, check_py27=False))]
    assert {"OP221", "OP251", "OP252"} <= set(codes)


def test_a_zip_without_the_manifest_relationship(demo_build, tmp_path):
    b, _ = demo_build
    files = entries(b.package)
    out = tmp_path / "broken.o8g"
    with zipfile.ZipFile(out, "w") as z:
        for name, data in files.items():
            if name != "_rels/.rels":
                z.writestr(name, data)
    r = validate_path(out, check_py27=False)
    assert "OP304" in [d.code for d in r.errors]
    assert any(str(out) == d.span.file for d in r.errors)


def test_a_zip_with_a_wrong_nuspec_id_and_an_unencoded_name(demo_build, tmp_path):
    b, _ = demo_build
    files = entries(b.package)
    out = tmp_path / "broken.o8g"
    nuspec = next(n for n in files if n.endswith(".nuspec"))
    with zipfile.ZipFile(out, "w") as z:
        for name, data in files.items():
            if name == nuspec:
                data = data.replace(b"<id>006c09f0", b"<id>116c09f0")
            z.writestr(name.replace("%20", " "), data)
    r = validate_path(out, check_py27=False)
    codes = {d.code for d in r.errors}
    assert {"OP309", "OP301"} <= codes
    where = [d for d in r.errors if d.code == "OP309"][0].span
    assert where.file == f"{out}!/{nuspec}" and where.line > 1


def test_not_well_formed_xml_is_located(unpacked):
    s = _set_xml(unpacked)
    line = _edit(s, 'name="Shade Sparrow"', 'name="Shade & Sparrow"')
    errs = [d for d in validate_path(unpacked, check_py27=False).errors if d.span.file == str(s)]
    assert [(d.code, d.span.line) for d in errs] == [("OP200", line)]
    text_line = s.read_text(encoding="utf-8").splitlines()[line - 1]
    assert text_line[errs[0].span.col - 1:].startswith("& ") or text_line[errs[0].span.col - 2:].startswith("& ")


def test_python27_failures_in_a_shipped_module(unpacked, python27):
    mod = unpacked / "def" / "rulescript" / "runtime" / "rng.py"
    mod.write_text(mod.read_text() + "\ndef f(*, key):\n    return key\n")
    errs = [d for d in validate_path(unpacked).errors if d.code == "OP280"]
    assert [d.span.file for d in errs] == [str(mod)]
    assert errs[0].span.line == len(mod.read_text().splitlines()) - 1


def test_json_output(demo_build, capsys, tmp_path, unpacked):
    _edit(_set_xml(unpacked), 'name="Text" value=', 'name="Txt" value=')
    assert main(["validate", str(unpacked), "--no-py27", "--format", "json"]) == 1
    import json

    diags = json.loads(capsys.readouterr().out)
    assert diags and diags[0]["code"] == "OP261" and diags[0]["line"] > 1 and diags[0]["column"] > 1


def test_validating_a_game_folder_says_to_build_it(capsys):
    from tests.conftest import DEMO

    assert main(["validate", str(DEMO), "--no-py27"]) == 1
    assert "octgn-pack build" in capsys.readouterr().err
