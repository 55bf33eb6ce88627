"""Hostile plugin folders (issue 23): a long text in a set.xml is read in linear time, and a number of
any length in a plugin file is a located error, never an internal error."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from rulescript.importer import main_import
from rulescript.importer.xmlread import parse_xml, whole_number

PLUGIN = Path(__file__).parent / "fixtures" / "harbor-lights"
SET1 = "31ef2acf-4bfc-5735-b7b6-b5606917210b"


def _plugin_copy(tmp_path: Path) -> Path:
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin)
    return plugin


def _line_of(path: Path, needle: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {path}")


def test_text_and_tails_keep_their_content():
    root = parse_xml(b"<a>x<b>y&amp;<c/>z</b>w\nv<d/>u</a>", "f.xml")
    assert (root.text, root.children[0].text, root.children[0].tail, root.children[1].tail) == ("x", "y&", "w\nv", "u")
    assert root.children[0].children[0].tail == "z"


def test_a_set_xml_text_of_300k_lines_is_read_in_linear_time(tmp_path):
    plugin = _plugin_copy(tmp_path)
    set_xml = plugin / "Sets" / SET1 / "set.xml"
    text = set_xml.read_text(encoding="utf-8")
    rules = "When Lamp Keeper Ode enters the ring, draw a card."
    long_text = "line &amp; more\n" * 300_000  # expat hands each line (and each entity) over on its own
    set_xml.write_text(text.replace(rules, rules + long_text, 1), encoding="utf-8")
    t0 = time.perf_counter()
    root = parse_xml(set_xml.read_bytes(), str(set_xml))
    seconds = time.perf_counter() - t0
    prop = next(p for p in root.iter("property") if p.get("name") == "Rules")
    assert prop.text == rules + long_text.replace("&amp;", "&")
    assert seconds < 2.0, seconds  # 21.7 s when each piece was appended to the string
    main_import([str(plugin), "-o", str(tmp_path / "g"), "-q", "--allow-partial"])  # and the whole import runs


@pytest.mark.parametrize("qty", ["9" * 5000, "1" * 10, "²", "٣", "-1", "0", "1e3", " "])
def test_a_deck_qty_of_any_length_is_a_located_error(tmp_path, capsys, qty):
    plugin = _plugin_copy(tmp_path)
    deck = plugin / "Decks" / "Harbor Patrol.o8d"
    deck.write_text(deck.read_text(encoding="utf-8").replace('<card qty="3"', f'<card qty="{qty}"', 1),
                    encoding="utf-8")
    code = main_import([str(plugin), "-o", str(tmp_path / "g")])
    captured = capsys.readouterr()
    assert code == 1, captured.err
    line = _line_of(deck, "Lamp Keeper Ode")
    head = f"{deck}:{line}:5: error[RI234]: qty="
    assert head in captured.out, captured.out
    assert "is not a positive integer of at most 9 digits; the entry is dropped" in captured.out
    assert "Traceback" not in captured.err
    message = next(x for x in captured.out.splitlines() if x.startswith(head))
    assert len(message) < len(head) + 200  # a long number is shortened in the message


@pytest.mark.parametrize("bp", ["9" * 5000, "-" + "1" * 5000])
def test_a_huge_card_stat_is_a_located_card_error(tmp_path, capsys, bp):
    plugin = _plugin_copy(tmp_path)
    set_xml = plugin / "Sets" / SET1 / "set.xml"
    set_xml.write_text(set_xml.read_text(encoding="utf-8").replace('name="BP" value="300"', f'name="BP" value="{bp}"',
                                                                    1), encoding="utf-8")
    code = main_import([str(plugin), "-o", str(tmp_path / "g")])
    captured = capsys.readouterr()
    assert code == 1, captured.err
    line = _line_of(set_xml, 'name="Lamp Keeper Ode"')
    assert f"{set_xml}:{line}:5: error[RI204]: card 'Lamp Keeper Ode' cannot be used by the game (BP must be" \
        in captured.out


def test_whole_number():
    assert [whole_number(x) for x in ("3", " 12 ", "123456789", "1234567890", "²", "٣", "", "+1", "1.0")] == [
        3, 12, 123456789, None, None, None, None, None, None]
    assert [whole_number(x, signed=True) for x in ("-5", "+5", "\u22125", "--5", "-")] == [-5, 5, -5, None, None]


# ----------------------------------------------------------------------- found by the fuzzer (tools/fuzz)
@pytest.mark.parametrize("encoding", ["no-such-encoding", "utf-16"])
def test_an_xml_declaration_with_an_unusable_encoding_is_a_located_error(tmp_path, capsys, encoding):
    plugin = _plugin_copy(tmp_path)
    definition = plugin / "definition.xml"
    text = definition.read_text(encoding="utf-8")
    head, _, rest = text.partition("?>")
    definition.write_text(f'<?xml version="1.0" encoding="{encoding}"?>' + rest, encoding="utf-8")
    code = main_import([str(plugin), "-o", str(tmp_path / "g")])
    captured = capsys.readouterr()
    assert code in (1, 2) and "Traceback" not in captured.err
    assert f"{definition}:1:" in captured.out and "error[RI210]" in captured.out


def test_a_deck_file_name_that_is_not_utf8_is_imported(tmp_path):
    from rulescript.importer import import_plugin_folder

    plugin = _plugin_copy(tmp_path)
    deck = plugin / "Decks" / "Harbor Patrol.o8d"
    deck.rename(plugin / "Decks" / "Harbor\udcffPatrol.o8d")  # the byte 0xFF in the name
    report = import_plugin_folder(plugin, tmp_path / "g")
    assert report.ok, [d.message for d in report.diagnostics if d.is_error]
    names = [p.read_text(encoding="utf-8") for p in (tmp_path / "g" / "decks").glob("*.yaml")]
    assert any("Harbor\ufffdPatrol" in text for text in names)


@pytest.mark.parametrize("data", [b"<a>x<b y='1'>z</b></a>", b"<a><b></a>"],
                         ids=["good", "bad"])
def test_an_xml_parser_is_freed_when_the_file_is_read(data):
    """The parser's handlers refer to the parser: the cycle is broken when the file is read, so the
    parser and its buffers are freed at once, not at some later full collection (a fuzzing worker
    importing plugins grew by 0.4 MB an import)."""
    import gc

    from rulescript.importer.xmlread import XmlError
    gc.collect()
    gc.disable()
    try:
        try:
            parse_xml(data, "f.xml")
        except XmlError:
            pass
        assert gc.collect() == 0
    finally:
        gc.enable()
