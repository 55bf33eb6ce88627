"""The front end's speed-ups must not change what a load returns.

- memos (parse actions per token-type sequence, name keys, keyword spellings) are pure functions of
  their keys: an edited file is seen by the next load in the same process;
- a parse replayed from the action memo builds the same tree as a fresh parse;
- the garbage collector is paused only while a project loads, and its state is restored;
- the folder scan finds the same files, in the same order, as ``Path.rglob``.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from wwrf_adapter import grammar, load_project, parse_text
from wwrf_adapter.grammar import lex, parse_tokens
from wwrf_adapter.jsonout import to_data
from wwrf_adapter.keys import name_key
from wwrf_adapter.project import collect_files

SEER = """**Seer** | Townsfolk Power | Default

__Formalized__
Immediate Night: Role Investigate @Selection (SD, WD) [Temporal: Night 1+] |seer.check|
"""


def _dump(path: Path) -> object:
    project = load_project(path)
    return to_data(list(project.elements.values())), [d.render() for d in project.diagnostics]


def test_edit_between_loads_is_seen(tmp_path: Path) -> None:
    f = tmp_path / "seer"
    f.write_text(SEER, encoding="utf-8")
    first = load_project(tmp_path)
    ab = first.get("Seer").items[0].body[0]  # type: ignore[union-attr]
    assert ab.type == "investigating" and first.diagnostics == []

    # same shape of tokens (the action memo is hit), different words and a different trigger phase
    f.write_text(SEER.replace("Immediate Night: Role Investigate", "Start Day: Class Investigate")
                 .replace("Night 1+", "Day 2+"), encoding="utf-8")
    second = load_project(tmp_path)
    block = second.get("Seer").items[0]  # type: ignore[union-attr]
    assert block.trigger.name == "Start Day"
    assert block.body[0].subtype == "class"
    assert block.params.restrictions[0].phase == "Day" and block.params.restrictions[0].number == 2

    # an edit that breaks the line is reported by the next load
    f.write_text(SEER.replace("@Selection (SD, WD)", "@Selectoin (SD, WD)"), encoding="utf-8")
    third = load_project(tmp_path)
    assert any(d.code == "WW206" and "@Selectoin" in d.message for d in third.diagnostics)

    # and going back gives the first result again
    f.write_text(SEER, encoding="utf-8")
    assert _dump(tmp_path) == (to_data(list(first.elements.values())), [])


def test_element_rename_between_loads_is_seen(tmp_path: Path) -> None:
    (tmp_path / "wolf pack").write_text("**Wolf Pack** | Werewolves Team Group\n", encoding="utf-8")
    (tmp_path / "seer").write_text(SEER.replace("@Selection (SD, WD)", "#Wolf_Pack"), encoding="utf-8")
    assert [d for d in load_project(tmp_path).diagnostics if d.code == "WW907"] == []
    (tmp_path / "wolf pack").unlink()
    (tmp_path / "howlers").write_text("**Howlers** | Werewolves Team Group\n", encoding="utf-8")
    assert any(d.code == "WW907" and "Wolf_Pack" in d.message for d in load_project(tmp_path).diagnostics)


@pytest.mark.parametrize(("start", "texts"), [
    ("ability", ["Kill @Selection", "Ascend", "Learn `@Self is here`", "Weakly Disguise @Self as @Selection (~NextDay)",
                 "Redirect `all` from @Others to @Selection (~Phase)"]),
    ("trigger", ["Immediate Night", "On @(Role:Seer) Death", "On Visited [!Investigating]"]),
    ("condition", ["(@Self->Counter > 2) and (@Self->Alignment is &Villagers)", "@Selection is not @Self"]),
])
def test_replayed_parse_builds_the_same_tree(start: str, texts: list[str]) -> None:
    for text in texts:
        grammar.clear_memos()
        fresh = parse_tokens(lex(text, 1), start, len(text) + 1)
        replayed = parse_tokens(lex(text, 1), start, len(text) + 1)  # from the memo
        assert replayed == fresh
        assert replayed is not fresh


def test_memo_is_keyed_by_token_types_not_text() -> None:
    grammar.clear_memos()
    a = parse_tokens(lex("Kill @Selection", 1), "ability", 16)
    b = parse_tokens(lex("Kill @Target", 1), "ability", 13)
    assert str(b.children[-1].children[0].children[0]) == "@Target"
    assert a != b


def test_failed_parse_is_not_memoised() -> None:
    grammar.clear_memos()
    text = "**X** | Townsfolk Power | Default\n\n__Formalized__\nImmediate Night: Kill Kill\n"
    first = [d.render() for d in parse_text(text)[1]]
    assert first and len(grammar._ACTIONS) == 1  # only the trigger parsed: the ability is not memoised
    assert [d.render() for d in parse_text(text)[1]] == first


def test_name_key_memo() -> None:
    assert name_key("Wolf_Pack") == name_key("wolf-pack") == "wolf pack"
    assert name_key("Wolf_Pack") == "wolf pack"  # memo hit returns the same key


def test_gc_state_is_restored(tmp_path: Path) -> None:
    (tmp_path / "seer").write_text(SEER, encoding="utf-8")
    assert gc.isenabled()
    load_project(tmp_path)
    assert gc.isenabled()
    gc.disable()
    try:
        load_project(tmp_path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def _rglob_files(p: Path) -> list[Path]:
    """The folder scan as it was written with ``Path.rglob`` (the reference)."""
    return [f for f in sorted(p.rglob("*"))
            if f.is_file() and not f.suffix and not any(part.startswith(".") for part in f.relative_to(p).parts)]


def test_folder_scan_matches_rglob(tmp_path: Path) -> None:
    (tmp_path / "a" / "dir.v").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "sub").mkdir()
    for rel in ["Zeta", "alpha", "a/x", "a/b c", "a/dir.v/f", ".hidden/y", ".dot", "notes.md", "sub/weird."]:
        (tmp_path / rel).write_text("**X**\n", encoding="utf-8")
    if hasattr(os, "symlink"):
        os.symlink(tmp_path / "a", tmp_path / "linked folder")
        os.symlink(tmp_path / "alpha", tmp_path / "linked file")
        os.symlink(tmp_path / "missing", tmp_path / "broken")
    assert collect_files([tmp_path]) == _rglob_files(tmp_path)
    assert collect_files([tmp_path / "alpha"]) == [tmp_path / "alpha"]


def test_ctx_span_builds_ordinary_spans() -> None:
    from rulescript.diagnostics import DiagnosticBag, Span

    from wwrf_adapter.context import Ctx

    ctx = Ctx("f", DiagnosticBag(), line=3)
    sp = ctx.span(4, 9)
    assert type(sp) is Span and sp == Span("f", 3, 4, 3, 9) and hash(sp) == hash(Span("f", 3, 4, 3, 9))
    assert ctx.span(0, None) == Span("f", 3, 1, 3, 2)
    assert ctx.span(5, 2, line=0) == Span("f", 1, 5, 1, 6)
    with pytest.raises(AttributeError):
        sp.col = 2  # type: ignore[misc]


@pytest.mark.parametrize("text", ["1", "12", "-2", "0.5", "$living", "$Total", "$phname", "$haunting"])
def test_simple_values_equal_the_parsed_ones(text: str) -> None:
    from rulescript.diagnostics import DiagnosticBag
    from wwrf_adapter.context import Ctx
    from wwrf_adapter.params import _parse_value, simple_value

    fast, slow = DiagnosticBag(), DiagnosticBag()
    value = simple_value(text, 7, Ctx("f", fast, 3))
    expected = _parse_value(text, 7, Ctx("f", slow, 3))
    assert value is not None and value == expected and value.span == expected.span
    assert (value.type, value.kind) == (expected.type, expected.kind) and fast.items == slow.items == []


@pytest.mark.parametrize("text", ["$lving", "@Self", "1x", "`1`", "$living/2", "x2"])
def test_other_values_take_the_parser(text: str) -> None:
    from rulescript.diagnostics import DiagnosticBag
    from wwrf_adapter.context import Ctx
    from wwrf_adapter.params import simple_value

    assert simple_value(text, 1, Ctx("f", DiagnosticBag())) is None
