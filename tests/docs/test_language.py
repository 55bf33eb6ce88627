"""docs/language.md: every example compiles as the page says it does.

Each ```ini block of the page is a complete rule file, compiled with the CFC profile against the demo
game's card database:

* ```ini                 -- no diagnostic at all;
* ```ini error RSnnn     -- at least one error, every error has that code;
* ```ini warning RSnnn   -- no error, at least one warning, every warning has that code;
* a ```text rendered block right after an example is exactly what the compiler prints for it (the
  example compiled as ``example.ini``).

The other tests keep the page complete: every diagnostic code the package can emit is listed, and
every construct the page must teach has a clean example.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulescript
from rulescript.compiler import load_cards
from tests.conftest import DEMO, ROOT
from tests.docs import mdblocks

PAGE = ROOT / "docs" / "language.md"
ITEMS = mdblocks.read(PAGE)
EXAMPLES = [b for b in ITEMS if isinstance(b, mdblocks.Block) and b.lang == "ini"]
CARDS = load_cards(DEMO / "cards.yaml")[0]


def compile_example(block: mdblocks.Block):
    return rulescript.compile_text(block.text, filename="example.ini", cards=CARDS, cache=None)


def _mark(block: mdblocks.Block) -> tuple[str, str | None]:
    """('clean', None), ('error', code) or ('warning', code) from the info string."""
    if len(block.info) == 1:
        return "clean", None
    assert len(block.info) == 3 and block.info[1] in ("error", "warning") and re.fullmatch(r"RS\d{3}", block.info[2]), \
        f"language.md:{block.line}: the info string must be 'ini', 'ini error RSnnn' or 'ini warning RSnnn'"
    return block.info[1], block.info[2]


@pytest.mark.parametrize("block", EXAMPLES, ids=[f"line{b.line}" for b in EXAMPLES])
def test_example_compiles_as_marked(block: mdblocks.Block) -> None:
    res = compile_example(block)
    kind, code = _mark(block)
    where = f"language.md:{block.line}:\n{block.text}\n{res.render()}"
    if kind == "clean":
        assert not res.diagnostics, where
        assert res.rules, where
    elif kind == "error":
        assert res.errors, where
        assert {d.code for d in res.errors} == {code}, where
    else:
        assert not res.errors, where
        assert res.warnings, where
        assert {d.code for d in res.warnings} == {code}, where


RENDERED = [(ITEMS[i - 1], b) for i, b in enumerate(ITEMS)
            if isinstance(b, mdblocks.Block) and b.info == ["text", "rendered"]]


@pytest.mark.parametrize("pair", RENDERED, ids=[f"line{b.line}" for _, b in RENDERED])
def test_rendered_diagnostics_are_what_the_compiler_prints(pair) -> None:
    example, shown = pair
    assert isinstance(example, mdblocks.Block) and example.lang == "ini", \
        f"language.md:{shown.line}: a 'text rendered' block must follow an ini example"
    assert compile_example(example).render() + "\n" == shown.text


def test_the_page_has_many_examples_of_each_kind() -> None:
    marks = [_mark(b)[0] for b in EXAMPLES]
    assert marks.count("clean") >= 40
    assert marks.count("error") >= 30
    assert marks.count("warning") >= 8
    assert len(RENDERED) >= 6


def _package_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "rulescript").rglob("*.py"):
        codes.update(re.findall(r"[\"'](RS\d{3})[\"']", path.read_text(encoding="utf-8")))
    return codes


def test_every_diagnostic_code_of_the_package_is_documented() -> None:
    codes = _package_codes()
    assert len(codes) >= 50  # the scan finds the codes (RS101, RS201, ... RS915)
    text = PAGE.read_text(encoding="utf-8")
    table = set(re.findall(r"^\| (RS\d{3}) \|", text, re.M))
    assert not codes - table, f"codes missing from the table of section 10: {sorted(codes - table)}"
    assert not table - codes, f"codes in the table that nothing emits: {sorted(table - codes)}"


def test_every_code_an_example_claims_is_in_the_table() -> None:
    table = set(re.findall(r"^\| (RS\d{3}) \|", PAGE.read_text(encoding="utf-8"), re.M))
    claimed = {_mark(b)[1] for b in EXAMPLES} - {None}
    assert claimed <= table


# Each construct the page teaches, and a pattern that a clean example must contain.
CONSTRUCTS = {
    "section with a GUID id": r"^\[[0-9a-f]{8}-[0-9a-f]{4}-",
    "comment line": r"^#|^;",
    "trailing comment": r"\S.*#",
    "continuation line": r"^[ \t]+;",
    "target": r"^target\s*=",
    "target?": r"^target\?\s*=",
    "several actions with labels": r"(?s)^action\s*=.*^label\s*=.*^action\s*=.*^label\s*=",
    "abilities": r"^abilities\s*=",
    "auto with a trigger": r"^auto\s*=\s*~",
    "static auto": r"^auto\s*=\s*[+-]",
    "requisite with &&": r"^requisite\s*=.*&&",
    "vars": r"^vars\s*=.*:=",
    "type & and !": r"&!\"",
    "type ,": r"\(opp, characters",
    "type ^": r"\^characters",
    "plural subtype": r"bosses",
    "quoted name": r"\"Alley Cat\"",
    "block , and &": r"\[[^\]]*&[^\]]*,[^\]]*\]",
    "block comparison": r"\[bp<=\d+",
    "block extreme": r"bp:lowest",
    "zone prefixes": r"@myDiscards",
    "infront": r"@infront",
    "same ring": r"@sameRing",
    "selector": r"::not\(",
    "quantity <n>": r"<2>\*",
    "quantity <a,b>": r"<0,2>",
    "quantity <,b>": r"<,2>",
    "quantity <**>": r"<\*\*>",
    "quantity <r>": r"<r>",
    "quantity <rN>": r"<r2>",
    "pick <k>": r"\*<3>",
    "pick <-k>": r"<-2>",
    "cost F": r"\{F\}:",
    "cost S(filter)": r"\{S\(",
    "cost D(n)": r"\{D\(2\)\}",
    "cost D(<r>)": r"\{D\(<r>\)\}",
    "may": r"\[\[may\]\]",
    "may with a question": r"\[\[may '",
    "if elif else": r"(?s)\[\[if .*\[\[elif .*\[\[else\]\]",
    "condition-only": r"\[\[if [^\]]*\]\]\s*(;|$)",
    "chain &": r"\) & ",
    "chain &&": r"&&",
    "chain ||": r"\|\|",
    "ask before a command": r"\w\?\(",
    "to": r"\bto\(",
    "from": r"\bfrom\(",
    "to?": r"\bto\?\(",
    "expression target": r"to\(trigger\.controller\)",
    "variable target": r"to\(_victim\)",
    "prevTgt": r"prevTgt",
    "restriction": r"\b(ueot|oppueot|oppUynt|uynt)\b",
    "each with a condition": r"each\(\w+ in ",
    "each with a filter": r"each\(characters",
    "event prefixes": r"oppEndPhase",
    "event suffixes": r":once~",
    "hook": r"\?oppCanBlock\?",
    "quantifier": r"all card\.bp",
    "getTargets": r"getTargets\('",
    "functions": r"flipCoin\(\)",
    "ability effects": r"\+cantplayre.*-cantblock",
    "game rules": r"disableRule\(",
}


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_every_construct_has_a_clean_example(name: str) -> None:
    rx = re.compile(CONSTRUCTS[name], re.M)
    clean = [b for b in EXAMPLES if _mark(b)[0] == "clean"]
    assert any(rx.search(b.text) for b in clean), f"no clean example in language.md shows: {name}"


def test_language_page_is_linked_from_the_readme() -> None:
    assert "docs/language.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_examples_are_files_with_sections() -> None:
    for b in EXAMPLES:
        if _mark(b) not in (("error", "RS109"), ("error", "RS102")):
            assert re.search(r"^\[", b.text, re.M), f"language.md:{b.line}: an example is a whole rule file"


def test_page_sections_are_numbered_in_order() -> None:
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", PAGE.read_text(encoding="utf-8"), re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 12


def test_mdblocks_reads_info_strings(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("text\n```ini error RS101\n[a]\n```\n<!-- run: x -->\n```yaml file=a/b.yaml\nk: 1\n```\n")
    items = mdblocks.read(page)
    assert [type(i).__name__ for i in items] == ["Block", "Directive", "Block"]
    assert items[0].info == ["ini", "error", "RS101"] and items[0].text == "[a]\n" and items[0].line == 2
    assert items[1].name == "run" and items[1].arg == "x"
    assert items[2].option("file") == "a/b.yaml" and items[2].option("append") is None


def test_readme_examples_compile_cleanly() -> None:
    examples = mdblocks.blocks(ROOT / "README.md", "ini")
    assert examples
    for b in examples:
        res = compile_example(b)
        assert not res.diagnostics and res.rules, f"README.md:{b.line}:\n{res.render()}"
