"""The INI reader: the fast path for plain files reads exactly what the line-by-line scan reads, and the
reused configparser readers behave like new ones."""

from __future__ import annotations

import configparser
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulescript.compiler import ini
from rulescript.diagnostics import DiagnosticBag

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden" / "compile_golden.json"


def exact_reading(text: str, filename: str = "f.ini") -> tuple[ini.RuleFile, list[object]]:
    """What read_rule_file() returns and reports when every file takes the line-by-line scan."""
    bag = DiagnosticBag()
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    sections = ini._scan_exact(text, filename, bag)
    ini._cross_check(sections, filename, bag)
    return ini.RuleFile(filename, sections), list(bag)


def check_same_reading(text: str) -> bool:
    """read_rule_file() gives exactly the exact reading; True when the fast path was taken."""
    bag = DiagnosticBag()
    got = ini.read_rule_file(text, "f.ini", bag)
    assert (got, list(bag)) == exact_reading(text)
    plain = text[1:] if text.startswith("\ufeff") else text
    fast = ini._read_plain(plain.replace("\r\n", "\n").replace("\r", "\n"), "f.ini")
    if fast is None:
        return False
    sections, lines, structure = fast
    assert (lines, structure) == ini._configparser_input(sections)  # made on the way, as from the sections
    return True


def golden_texts(set_name: str) -> list[str]:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return [f["text"] for s in data["sets"] if s["name"] == set_name for f in s["files"]]


@pytest.mark.parametrize("set_name", ["cfc-demo", "generated"])
def test_valid_files_take_the_fast_path(set_name: str) -> None:
    texts = golden_texts(set_name)
    assert texts
    for text in texts:
        assert check_same_reading(text)


def test_damaged_files_read_as_line_by_line() -> None:
    texts = golden_texts("mutated")
    fast = sum(check_same_reading(text) for text in texts)
    assert 0 < fast < len(texts)  # both paths are exercised


# Line parts: (usual, unusual).  Most generated files are plain, to test the fast path on many inputs;
# the others mix in what makes it hand the file to the line-by-line scan.
HEADERS = (["[a]", "[b]", "[gen-001]", "[Abc]", "[a]\u3000", "[0c1d2e3f-0000-1111-2222-333344445555]"],
           ["[A]", "[ a ]", "[a b]", "[]", "[x]]", "[a] x", " [a]", "[é]", "[a #c]"])
KEYS = (["action", "Label", "a b", "k:x", "ké", "key\xa0", "Σ", "x[1]"], ["#k", ";k", "=v", "[k", "\xa0k"])
SEPS = ([" = ", "=", "  =\t", "\xa0=\u3000", " =", "= ", " == "], [])
VALUES = (["draw()", "v\x0b", "\u2003v\u2003", "a = b", "[[if x]] y", "  spaced  ", "\x00", "é", "'x'", ";"],
          ["", " ", "x # c", "'#' y", '"a#b"', "#"])
INDENTS = ([" ", "\t", "  \t", "\xa0", "\u3000", " \xa0"], [])
OTHER = (["", "  ", "\x0c", "# comment", "; comment", "  # comment", "  ; comment", "\t#", ";", "#"],
         ["junk", "= x", "\xa0junk"])


def pick(draw: st.DrawFn, parts: tuple[list[str], list[str]], unusual: int) -> str:
    usual, odd = parts
    return draw(st.sampled_from(usual * 8 + odd * unusual))


@st.composite
def ini_text(draw: st.DrawFn) -> str:
    unusual = draw(st.sampled_from([0, 0, 0, 1, 4]))
    lines = [pick(draw, HEADERS, unusual)] if draw(st.integers(0, 4)) else []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["header", "property", "property", "property", "continuation", "other"]))
        if kind == "header":
            lines.append(pick(draw, HEADERS, unusual) if draw(st.booleans()) else f"[r{draw(st.integers(0, 99))}]")
        elif kind == "property":
            lines.append(pick(draw, KEYS, unusual) + pick(draw, SEPS, unusual) + pick(draw, VALUES, unusual))
        elif kind == "continuation":
            lines.append(pick(draw, INDENTS, unusual) + pick(draw, VALUES, unusual))
        else:
            lines.append(pick(draw, OTHER, unusual))
    ends = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = ends.join(lines) + draw(st.sampled_from(["", "\n", ends, "\n\n"]))
    return draw(st.sampled_from(["", "", "\ufeff"])) + text


@settings(max_examples=2000, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(ini_text())
def test_fast_path_reads_exactly_as_line_by_line(text: str) -> None:
    check_same_reading(text)


@pytest.mark.parametrize("text", [
    "[a]\naction = x\n  y\n\n  z\n",          # blank line inside a continued value
    "[a]\naction = x\n# note\n  y\n",         # comment line inside a continued value
    "[a]\naction = x # c\n",                  # '#' after text
    "[a]\naction =\n  y\n  z\n",              # empty first line
    "[a]\n[A]\naction = x\n",                 # duplicate id, other case
    "[ a ]\naction = x\n",                    # padded id
    "action = x\n[a]\n",                      # property before the first header
    "[a]\n  x\n",                             # continuation after a header
    "[a]\naction = x\n# end",                 # comment as last line without a newline
    "[a]\naction = x\n  y",                   # continuation as last line without a newline
    "",
    "# only a comment\n",
])
def test_fast_path_edge_cases(text: str) -> None:
    check_same_reading(text)


def test_plain_file_fast_path_positions() -> None:
    text = "# c\n\n[Abc]\nAction  =  draw()\n \t more()  \nlabel=x\n"
    plain = ini._read_plain(text, "f")
    assert plain is not None
    (sec,) = plain[0]
    assert (sec.rule_id, sec.raw_id, sec.span.line, sec.span.col, sec.span.end_col) == ("abc", "Abc", 3, 2, 5)
    action, label = sec.properties
    assert (action.key, action.raw_key, action.line) == ("action", "Action", 4)
    assert action.value.text == "draw() more()"
    assert action.value.pieces == [(0, 4, 12), (7, 5, 4)]
    assert (label.key, label.value.text, label.value.pieces) == ("label", "x", [(0, 6, 7)])


def test_configparser_input_splits_continued_values() -> None:
    bag = DiagnosticBag()
    sections = ini._scan_exact("[a]\nk = x\n  y z\n  w\nk =\n  v\nj = 1\n[b]\n", "f", bag)
    at: list[int] = []
    lines, structure = ini._configparser_input(sections, at)
    assert lines == ["[a]", "k = x", "  y z", "  w", "k = ", "  v", "j = 1", "[b]"]
    assert at == [1, 2, 3, 4, 5, 6, 7, 8]
    assert structure == [("a", {(1, "k"): "x\ny z\nw", (2, "k"): "\nv", (3, "j"): "1"}), ("b", {})]
    assert ini.read_with_configparser(lines) == structure


def test_reused_reader_reads_like_a_new_one() -> None:
    first = ["[a]", "k = 1", "  2", "K = 3"]
    second = ["[b]", "k = 4"]
    expected_second = ini._StructureReader().read_structure(second)
    reader = ini._StructureReader()
    assert reader.read_structure(first) == [("a", {(1, "k"): "1\n2", (2, "k"): "3"})]
    assert reader.read_structure(second) == expected_second == [("b", {(1, "k"): "4"})]
    with pytest.raises(configparser.Error):
        reader.read_structure(["k = 1"])  # no section header
    assert reader.read_structure(second) == expected_second
    # After a read, the reader's state is that of a new one apart from what it has read.
    fresh = ini._StructureReader()
    reader.read_structure([])
    assert vars(reader).keys() == vars(fresh).keys()
    assert (reader._sections, reader._defaults, list(reader._proxies)) == \
        (fresh._sections, fresh._defaults, list(fresh._proxies))


def test_readers_are_not_shared_between_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def read(i: int) -> bool:
        lines = [f"[r{i}]"] + [f"k{j} = {i}" for j in range(i % 7)] + ["  more"] * (i % 2 and i % 7 > 0)
        return all(ini.read_with_configparser(lines) == ini._StructureReader().read_structure(lines)
                   for _ in range(20))

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(read, range(40)))
