"""Hostile game folders, packages and data folders (issue 23): the YAML of a game folder goes through the
project's one hardened loader; numbers Python cannot write are refused; ``validate`` refuses entries
that leave the package's folder and archives that cannot be read safely, in bounded memory; ``deploy``
never writes through a link in the data folder."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import zipfile
import zlib
from pathlib import Path

import pytest

from octgn_pack.build import build
from octgn_pack.cli import main
from octgn_pack.images import card_png
from tests.octgn.conftest import CARDS_YAML, DECK_YAML, GAME_YAML, write_game

ROOT = Path(__file__).resolve().parents[2]
GUID = "11111111-2222-3333-4444-555555555555"


def _located(err: str, path: str, code: str) -> str:
    """The first line of the ``code`` diagnostic at ``path`` (raises when there is none)."""
    for line in err.splitlines():
        if line.startswith(f"{path}:") and f"error[{code}]" in line:
            return line
    raise AssertionError(f"no {code} at {path} in:\n{err}")


# ------------------------------------------------------------------------------------ YAML (item 2)
def _alias_bomb(levels: int = 7, width: int = 10) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("where", ["game", "cards", "deck"])
def test_an_alias_bomb_is_a_located_error_not_a_memory_error(tmp_path, capsys, where):
    bomb = _alias_bomb()
    assert len(bomb) < 500  # a few hundred bytes: 10**8 values expanded
    kw = {"game": {"game": GAME_YAML + "lore:\n" + "".join("  " + x + "\n" for x in bomb.splitlines())},
          "cards": {"cards": CARDS_YAML + "lore:\n" + "".join("  " + x + "\n" for x in bomb.splitlines())},
          "deck": {"decks": {"starter": DECK_YAML + "lore:\n" + "".join("  " + x + "\n" for x in bomb.splitlines())}}}
    root = write_game(tmp_path / "g", **kw[where])
    t0 = time.perf_counter()
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    assert time.perf_counter() - t0 < 10
    err = capsys.readouterr().err
    file = {"game": root / "game.yaml", "cards": root / "cards.yaml", "deck": root / "decks" / "starter.yaml"}[where]
    line = _located(err, str(file), "OP100")
    assert "aliases expand it to more than 100,000 values" in line


def test_a_recursive_alias_is_a_located_error(tmp_path, capsys):
    root = write_game(tmp_path / "g", game=GAME_YAML + "lore: &x [*x]\n")
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    line = _located(capsys.readouterr().err, str(root / "game.yaml"), "OP100")
    assert line.startswith(f"{root / 'game.yaml'}:5:11:") and "alias 'x' refers to a collection that holds it" in line


def test_the_same_limits_as_rulescript_check(tmp_path, capsys):
    """Nesting and control characters: refused by the one loader, located."""
    deep = GAME_YAML + "lore: " + "[" * 150 + "]" * 150 + "\n"
    root = write_game(tmp_path / "g", game=deep)
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    assert "nested more than 100 levels deep" in _located(capsys.readouterr().err, str(root / "game.yaml"), "OP100")
    root = write_game(tmp_path / "h", cards=CARDS_YAML.replace("Deals damage.", "Deals\x07damage."))
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    line = _located(capsys.readouterr().err, str(root / "cards.yaml"), "OP100")
    assert line.startswith(f"{root / 'cards.yaml'}:8:") and "control character U+0007" in line


def test_aliases_still_work_and_are_located(tmp_path):
    cards = CARDS_YAML.replace("    subtype: ninja\n", "    subtype: &st ninja\n") + \
        "  - id: twin-monk\n    name: Twin Monk\n    type: character\n    subtype: *st\n    bp: 300\n    sp: 1\n"
    b = build(write_game(tmp_path / "g", cards=cards), tmp_path / "dist")
    assert b.ok, b.render()


# ------------------------------------------------------------------------- non-finite numbers (item 3)
@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", ".NaN", "1.0e+999"])
def test_a_non_finite_number_is_refused_where_it_is_written(tmp_path, capsys, value):
    cards = CARDS_YAML.replace("    bp: 300\n", f"    bp: 300\n    power: {value}\n")
    root = write_game(tmp_path / "g", cards=cards)
    dist = tmp_path / "dist"
    assert main(["build", str(root), "-o", str(dist), "-q"]) == 1
    line = _located(capsys.readouterr().err, str(root / "cards.yaml"), "OP136")
    assert line.startswith(f"{root / 'cards.yaml'}:7:12:") and "cannot be written into the package's scripts" in line
    assert not dist.exists() or not list(dist.iterdir())


def test_a_non_finite_key_and_bp_are_refused(tmp_path, capsys):
    cards = CARDS_YAML.replace("    bp: 300\n", "    bp: .inf\n    extra: {.nan: 1}\n")
    root = write_game(tmp_path / "g", cards=cards)
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if "error[OP136]" in x]
    # (a NaN key is no key of its mapping, NaN being unequal to itself: it is located at the mapping)
    assert [x.split(": error")[0] for x in lines] == [f"{root / 'cards.yaml'}:6:9", f"{root / 'cards.yaml'}:7:12"]


@pytest.mark.parametrize("entry, kind, where", [
    # fuzz, octgn-build seed 1201 input 92898: a bytes key was exit 3 (a key that is not text is located
    # at its mapping, the card: its written form is not the key)
    ("!!binary eHg=: x", "!!binary value", "2:5"),
    ("blob: !!binary eHg=", "!!binary value", "7:11"),
    ("released: 2024-05-01", "date", "7:15"),
    ("seen: 2024-05-01 10:00:00", "timestamp", "7:11"),
    ("tags: !!set {a, b}", "!!set", "7:11"),
])
def test_a_value_the_scripts_cannot_hold_is_refused_where_it_is_written(tmp_path, capsys, entry, kind, where):
    """Issue 23 item 3: anything the Python-literal writer cannot write is a located error, not exit 3."""
    cards = CARDS_YAML.replace("    bp: 300\n", f"    bp: 300\n    {entry}\n")
    root = write_game(tmp_path / "g", cards=cards)
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    line = _located(capsys.readouterr().err, str(root / "cards.yaml"), "OP136")
    assert line.startswith(f"{root / 'cards.yaml'}:{where}:") and f"a YAML {kind} cannot be written" in line


def test_py_literal_refuses_non_finite_floats():
    from rulescript.pyliteral import py_literal

    assert py_literal({"bp": 1.5}) == "{'bp': 1.5}"
    for v in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValueError):
            py_literal({"bp": [v]})


# ------------------------------------------------------------------------------ packages (items 4, 5)
@pytest.fixture(scope="module")
def package(tmp_path_factory) -> bytes:
    tmp = tmp_path_factory.mktemp("pkg")
    b = build(write_game(tmp / "g"), tmp / "dist")
    assert b.ok, b.render()
    return b.package


def _with_entry(package: bytes, path: Path, info: zipfile.ZipInfo | str, data: bytes = b"<x/>") -> Path:
    with zipfile.ZipFile(io.BytesIO(package)) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for i in src.infolist():
            out.writestr(i, src.read(i))
        out.writestr(info, data)
    return path


def _validate(path: Path, capsys) -> tuple[int, str]:
    code = main(["validate", str(path), "--no-py27"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("name,why", [
    ("../../evil.xml", "has a '..' segment"), ("def/../../evil.xml", "has a '..' segment"),
    ("%2e%2e/evil.xml", "has a '..' segment"), ("/tmp/evil.xml", "is an absolute path"),
    ("C:/evil.xml", "starts with a drive letter"), ("C:evil.xml", "starts with a drive letter"),
    ("def\\..\\evil.xml", "holds a backslash"), ("def%5cevil.xml", "holds a backslash"),
])
def test_validate_refuses_entries_that_leave_the_package(tmp_path, capsys, package, name, why):
    path = _with_entry(package, tmp_path / "p.o8g", name)
    code, err = _validate(path, capsys)
    assert code == 1, err
    line = _located(err, f"{path}!/{name}", "OP312")
    assert f"the entry '{name}' {why}" in line


def test_validate_refuses_a_symlink_entry(tmp_path, capsys, package):
    info = zipfile.ZipInfo("def/link.xml")
    info.create_system = 3
    info.external_attr = (0o120777 << 16)
    path = _with_entry(package, tmp_path / "p.o8g", info, b"/etc/passwd")
    code, err = _validate(path, capsys)
    assert code == 1
    assert "is a symbolic link" in _located(err, f"{path}!/def/link.xml", "OP313")


def test_validate_refuses_names_that_collide_after_case_folding(tmp_path, capsys, package):
    with zipfile.ZipFile(io.BytesIO(package)) as z:
        definition = z.read("def/definition.xml")
    for other in ("def/DEFINITION.xml", "def/Definition.XML", "def/definition.xml"):
        path = _with_entry(package, tmp_path / "p.o8g", other, definition)
        code, err = _validate(path, capsys)
        assert code == 1, err
        line = _located(err, f"{path}!/{other}", "OP300")
        assert "def/definition.xml" in line and other in line
    # 'ß' folds to 'ss': Windows and OCTGN see one file
    path = _with_entry(_with_entry(package, tmp_path / "a.o8g", "def/Sets/strasse.txt", b"a").read_bytes(),
                       tmp_path / "b.o8g", "def/Sets/stra%C3%9Fe.txt", b"b")
    code, err = _validate(path, capsys)
    assert code == 1 and "differ only in case" in _located(err, f"{path}!/def/Sets/stra%C3%9Fe.txt", "OP300")


def _raw_entry(package: bytes, path: Path, name: str, method: int, payload: bytes, size: int, crc: int,
               flags: int = 0) -> Path:
    """``package`` plus one entry written byte by byte: any method, flags and sizes."""
    with zipfile.ZipFile(io.BytesIO(package)) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for i in src.infolist():
            out.writestr(i, src.read(i))
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        cd_offset = z.start_dir
    entries_cd = bytes(data[cd_offset:])
    eocd_at = entries_cd.rfind(b"PK\x05\x06")
    cd, eocd = entries_cd[:eocd_at], bytearray(entries_cd[eocd_at:])
    raw_name = name.encode("utf-8")
    local = (b"PK\x03\x04" + (20).to_bytes(2, "little") + flags.to_bytes(2, "little") + method.to_bytes(2, "little")
             + bytes(4) + crc.to_bytes(4, "little") + len(payload).to_bytes(4, "little") + size.to_bytes(4, "little")
             + len(raw_name).to_bytes(2, "little") + bytes(2) + raw_name)
    central = (b"PK\x01\x02" + (20).to_bytes(2, "little") + (20).to_bytes(2, "little") + flags.to_bytes(2, "little")
               + method.to_bytes(2, "little") + bytes(4) + crc.to_bytes(4, "little")
               + len(payload).to_bytes(4, "little") + size.to_bytes(4, "little") + len(raw_name).to_bytes(2, "little")
               + bytes(12) + cd_offset.to_bytes(4, "little") + raw_name)
    body = bytes(data[:cd_offset]) + local + payload
    new_cd = cd + central
    eocd[8:10] = (int.from_bytes(eocd[8:10], "little") + 1).to_bytes(2, "little")
    eocd[10:12] = (int.from_bytes(eocd[10:12], "little") + 1).to_bytes(2, "little")
    eocd[12:16] = len(new_cd).to_bytes(4, "little")
    eocd[16:20] = len(body).to_bytes(4, "little")
    path.write_bytes(body + new_cd + bytes(eocd))
    return path


def _deflate(data: bytes) -> bytes:
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    return co.compress(data) + co.flush()


@pytest.mark.parametrize("case", ["encrypted", "method 99", "bzip2", "corrupt deflate", "crc", "truncated"])
def test_validate_reports_an_unreadable_entry_where_it_is(tmp_path, capsys, package, case):
    text = b"<card/>" * 100
    payload, method, flags, crc, size = _deflate(text), 8, 0, zlib.crc32(text), len(text)
    if case == "encrypted":
        flags = 1
    elif case == "method 99":
        method = 99
    elif case == "bzip2":
        method = 12
    elif case == "corrupt deflate":
        payload = b"\xff" * 40
    elif case == "crc":
        crc ^= 1
    elif case == "truncated":
        payload = payload[:5]
    path = _raw_entry(package, tmp_path / "p.o8g", "def/extra.xml", method, payload, size, crc, flags)
    code, err = _validate(path, capsys)
    assert code == 1, err
    line = _located(err, f"{path}!/def/extra.xml", "OP314")
    assert {"encrypted": "is encrypted", "method 99": "compression method 99", "bzip2": "compression method 12",
            "corrupt deflate": "cannot be read", "crc": "cannot be read", "truncated": "cannot be read"}[case] in line


GIB_ZEROS_CRC = 0x5B64C2B0  # zlib.crc32 of 2**30 zero bytes


def _gib_of_zeros() -> bytes:
    """A raw deflate stream of 2**30 zero bytes in about 1 MB (one full-flushed block repeated)."""
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(bytes(1 << 20)) + co.flush(zlib.Z_FULL_FLUSH)
    return block * 1024 + co.flush()


@pytest.mark.parametrize("name,claimed,why", [
    ("def/Sets/bomb.png", 1 << 30, "inflates to more than 200 times its compressed size"),
    ("def/bomb.xml", 1 << 30, "inflates to more than 16,777,216 bytes"),
    ("def/liar.xml", 1000, "cannot be read: Bad CRC-32"),   # read up to the size it claims, no further
])
def test_validate_a_zip_bomb_in_bounded_memory(tmp_path, package, name, claimed, why):
    """A 1.1 MB package holding 1 GB of zeros (whether its headers say so or lie): a located error, in a
    process that never holds more than 200 MB."""
    payload = _gib_of_zeros()
    path = _raw_entry(package, tmp_path / "bomb.o8g", name, 8, payload, claimed, GIB_ZEROS_CRC)
    assert path.stat().st_size < 1_300_000
    # VmHWM: the peak resident memory of this process's own memory map (ru_maxrss would also count the
    # parent's: Linux carries it over a fork and an exec)
    code = ("import sys\nfrom octgn_pack.cli import main\nrc = main(sys.argv[1:])\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
            "print('PEAK', int(hwm.split()[1]) // 1024)\nsys.exit(rc)\n")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, "validate", str(path), "--no-py27"], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert proc.returncode == 1, proc.stderr
    line = _located(proc.stderr, f"{path}!/{name}", "OP314")
    assert why in line
    peak_mb = int(proc.stdout.split("PEAK")[1])
    assert peak_mb < 200, peak_mb
    assert time.perf_counter() - t0 < 30


def test_validate_a_file_that_is_not_a_zip_is_still_a_usage_error(tmp_path, capsys):
    (tmp_path / "junk.o8g").write_bytes(b"PK\x05\x06" + bytes(18))
    code, err = _validate(tmp_path / "junk.o8g", capsys)
    assert code in (1, 2) and "Traceback" not in err


# ------------------------------------------------------------------------------------- deploy (item 7)
def _deploy(game: Path, data: Path, capsys) -> tuple[int, str]:
    code = main(["deploy", str(game), "--data", str(data), "-q", "--no-py27"])
    return code, capsys.readouterr().err


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


@pytest.mark.parametrize("link", ["Decks/Tiny Game", "Decks", f"GameDatabase/{GUID}", f"GameDatabase/.{GUID}.old",
                                  f"GameDatabase/.{GUID}.new", "ImageDatabase", "GameDatabase"])
def test_deploy_never_writes_through_a_link_in_the_data_folder(tmp_path, capsys, link):
    game = write_game(tmp_path / "g")
    (game / "images").mkdir()
    (game / "images" / "ember-monk.png").write_bytes(card_png(10, 14, "#ff0000"))
    data = tmp_path / "data"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    (data / link).parent.mkdir(parents=True, exist_ok=True)
    (data / link).symlink_to(elsewhere, target_is_directory=True)
    before = _tree(data)
    code, err = _deploy(game, data, capsys)
    assert code == 2, err
    assert f"{data / link} is a symbolic link" in err and "nothing was installed" in err
    assert _tree(elsewhere) == ["keep.txt"], "nothing written where the link points"
    assert _tree(data) == before, "nothing written in the data folder either"
    assert (data / link).is_symlink()


def test_deploy_with_a_linked_game_folder_leaves_the_installed_game_alone(tmp_path, capsys):
    """The issue's second case: GameDatabase/<guid> a link; deploy used to install, then fail with
    'Cannot call rmtree on a symbolic link' and leave a .<guid>.old link behind."""
    game = write_game(tmp_path / "g")
    data = tmp_path / "data"
    real = tmp_path / "real-install"
    assert _deploy(game, tmp_path / "first", capsys)[0] == 0
    os.rename(tmp_path / "first" / "GameDatabase" / GUID, real)
    (data / "GameDatabase").mkdir(parents=True)
    (data / "GameDatabase" / GUID).symlink_to(real, target_is_directory=True)
    before, inside = _tree(data), _tree(real)
    code, err = _deploy(game, data, capsys)
    assert code == 2 and "is a symbolic link" in err
    assert _tree(data) == before and _tree(real) == inside
    assert not (data / "GameDatabase" / f".{GUID}.old").exists()


def test_deploy_into_a_data_folder_that_is_itself_a_link_is_fine(tmp_path, capsys):
    game = write_game(tmp_path / "g")
    real = tmp_path / "real-data"
    real.mkdir()
    (tmp_path / "data").symlink_to(real, target_is_directory=True)
    code, err = _deploy(game, tmp_path / "data", capsys)
    assert code == 0, err
    assert (real / "GameDatabase" / GUID / "definition.xml").is_file()


@pytest.mark.parametrize("ref", ["../outside.png", "{abs}", "images/../../outside.png", "images/link.png"])
def test_a_card_image_outside_the_game_folder_is_not_packaged(tmp_path, capsys, ref):
    from octgn_pack.images import card_png

    (tmp_path / "outside.png").write_bytes(card_png(10, 14, "#00ff00"))
    ref = ref.format(abs=tmp_path / "outside.png")
    cards = CARDS_YAML.replace("    bp: 300\n", f"    bp: 300\n    image: '{ref}'\n")
    root = write_game(tmp_path / "g", cards=cards)
    (root / "images").mkdir()
    (root / "images" / "link.png").symlink_to(tmp_path / "outside.png")
    assert main(["build", str(root), "-o", str(tmp_path / "dist"), "-q"]) == 1
    line = _located(capsys.readouterr().err, str(root / "cards.yaml"), "OP127")
    assert line.startswith(f"{root / 'cards.yaml'}:7:") and "no PNG or JPEG image" in line


def test_a_script_whose_name_is_not_utf8_is_a_located_error(tmp_path):
    """Found by the octgn-build fuzz target: the name went into definition.xml (UnicodeEncodeError)."""
    root = write_game(tmp_path / "g", scripts={"ok.py": "x = 1\n"})
    (root / "scripts" / "ok.py").rename(root / "scripts" / "he\udcffllo.py")
    b = build(root, tmp_path / "dist", check_py27=False)
    assert not b.ok and b.package is None
    [d] = [d for d in b.diagnostics if d.code == "OP150"]
    assert d.span.file == str(root / "scripts" / "he\udcffllo.py")
    assert d.message.startswith("the script 'he\ufffdllo.py' cannot be shipped")


def test_an_xml_entry_with_an_unknown_encoding_is_a_located_error(tmp_path, capsys, package):
    path = _with_entry(package, tmp_path / "p.o8g", "def/extra.xml", b'<?xml version="1.0" encoding="nope"?><x/>')
    code, err = _validate(path, capsys)
    assert code == 1 and "Traceback" not in err


def test_a_script_too_deeply_nested_for_the_parser_is_not_an_internal_error(tmp_path):
    """Found by the octgn-build fuzz target: Python's parser raises MemoryError ("Parser stack
    overflowed") at once on a deeply nested expression; the shared-script check let it out."""
    text = (Path(__file__).parent / "fixtures" / "parser-overflow.py.txt").read_text(encoding="utf-8")  # the input
    import ast
    with pytest.raises(MemoryError):
        ast.parse(text)
    root = write_game(tmp_path / "g", scripts={"deep.py": text})
    b = build(root, tmp_path / "dist", check_py27=False)
    assert b.ok, b.render()
