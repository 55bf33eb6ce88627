"""Located diagnostics: codes, 1-based physical positions, suggestions, recovery per line and file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.diagnostics import Diagnostic, render
from wwrf_adapter import load_project, parse_text

HEAD = "**Tester** | Townsfolk Power\n__Formalized__\n"


def _diags(body: str, head: str = HEAD) -> list[Diagnostic]:
    _, diags = parse_text(head + body, "tester")
    return diags


def _one(body: str, code: str) -> Diagnostic:
    found = [d for d in _diags(body) if d.code == code]
    assert len(found) == 1, [d.render() for d in _diags(body)]
    return found[0]


def test_unknown_trigger_names_closest() -> None:
    d = _one("Immediate Nite: Kill @Selection\n", "WW201")
    assert d.is_error and (d.span.line, d.span.col) == (3, 1)
    assert "Immediate Night" in d.notes[0]


def test_unknown_ability_with_caret_and_suggestion() -> None:
    text = HEAD.replace("Tester", "Fog Weaver") + "Immediate Night: Obstrukt Investigating for @Selection ⇒ `Failure` (~Phase) |fog.veil|\n"
    _, diags = parse_text(text, "fog weaver")
    (d,) = diags
    assert d.code == "WW202" and (d.span.line, d.span.col, d.span.end_col) == (3, 18, 26)
    shown = render(d, text)
    assert shown.splitlines()[0] == "fog weaver:3:18: error[WW202]: unknown ability 'Obstrukt'"
    assert shown.splitlines()[2] == "    " + " " * 17 + "^~~~~~~~"
    assert "did you mean: Obstruct" in shown


def test_misspelled_inner_word_and_expected_note() -> None:
    d = _one("Immediate Night: Role Investigat @Selection\n", "WW202")
    assert d.span.col == 23 and "Investigate" in d.notes[0]
    d = _one("Immediate Night: Kill @Self @Self\n", "WW102")
    assert d.span.col == 29 and d.notes == ("expected: end of text",)


def test_unknown_selector_key_duration_property_selector() -> None:
    d = _one("Immediate Night: Kill @(Rol:Seer)\n", "WW203")
    assert "Role" in d.notes[0] and d.span.col == 23
    d = _one("Immediate Night: Obstruct @Selection (~Phse)\n", "WW204")
    assert "~Phase" in d.notes[0] and d.span.col == 38
    d = _one("Immediate Night: Learn @Selection->Rolle\n", "WW205")
    assert "Role" in d.notes[0]
    d = _one("Immediate Night: Kill @Selecton\n", "WW206")
    assert "@Selection" in d.notes[0]
    d = _one("Immediate Night: Learn `x`[rol]\n", "WW301")
    assert "role" in d.notes[0]


def test_unknown_names_reported_even_when_the_shape_fails() -> None:
    codes = sorted(d.code for d in _diags("Immediate Night: Kill @Selecton (~Phse)\n"))
    assert codes == ["WW102", "WW204", "WW206"]


def test_bullet_depth_errors() -> None:
    d = _one("Immediate Night:\n    ‣ Kill @Self\n", "WW103")
    assert (d.span.line, d.span.col) == (4, 5)
    d = _one("  • Kill @Self\nStarting: Kill @Self\n", "WW103")
    assert d.span.line == 3


def test_indentation_and_parameter_warnings() -> None:
    w = _one("Immediate Night:\n    • Process:\n  ‣ Kill @Self\n", "WW901")
    assert w.severity == "warning" and w.span.line == 5
    w = _one("Immediate Night:\n  • Kill @Self [Quantity: 1]\n", "WW903")
    assert w.severity == "warning" and w.span.col == 16
    w = _one("Immediate Night: Kill @Self |p.q| [Quantity: 1]\n", "WW902")
    assert w.severity == "warning"
    w = _one("Immediate Night: Kill @Self [Quantity: 1] [Temporal: Night]\n", "WW904")
    assert w.severity == "warning"
    w = _one("Passive: Kill @Self ⟨$living>=5 => x2⟩\n", "WW905")
    assert w.severity == "warning"


def test_syntax_errors_positions() -> None:
    d = _one("Immediate Day:\n  • Learn `unterminated\n", "WW101")
    assert (d.span.line, d.span.col) == (4, 11)
    d = _one("Immediate Day: Protect @Self from `Attacks` through\n", "WW102")
    assert d.span.line == 3 and d.span.col >= 44
    d = _one("Immediate Day: Kill @Self [Temporal: Noon 2]\n", "WW104")
    assert d.span.col == 38  # the N of "Noon"
    d = _one("Immediate Day: Shuffle @A @B @C @D @E @F\n".replace("@A", "@Self").replace("@B", "@All").replace("@C", "@Dead")
             .replace("@D", "@Others").replace("@E", "@Target").replace("@F", "@Ind"), "WW302")
    assert d.is_error


def test_every_bad_line_of_a_file_is_reported() -> None:
    diags = _diags("Immediate Nite: Kill @Self\nStarting: Kil @Self\nPassive: Obstruct @Self (~Nope)\nOn Death: Kill @Self\n")
    assert sorted((d.span.line, d.code) for d in diags if d.is_error) == [(3, "WW201"), (4, "WW202"), (5, "WW204")]


def test_all_files_of_a_project_report_errors(tmp_path: Path) -> None:
    for i, bad in enumerate(["Immediate Nite: Kill @Self", "Starting: Kil @Self", "Passive: Kill @(Rol:X)"]):
        (tmp_path / f"role {i}").write_text(f"**Role {i}** | Townsfolk Power\n__Formalized__\n{bad}\n", encoding="utf-8")
    (tmp_path / "fine").write_text("**Fine** | Townsfolk Power\n__Formalized__\nStarting: Learn `ok`\n", encoding="utf-8")
    project = load_project(tmp_path)
    files = sorted(Path(d.span.file).name for d in project.diagnostics if d.is_error)
    assert files == ["role 0", "role 1", "role 2"]
    assert len(project.elements) == 4


def test_bad_trigger_filter() -> None:
    d = _one("On Visited [Killng]: Learn `x`\n", "WW211")
    assert "Killing" in d.notes[0] and d.span.col == 12


def test_unresolved_names_and_header_mismatch(example_project) -> None:  # type: ignore[no-untyped-def]
    text = HEAD + "Immediate Day: Grant `Lantern Bearr` to @Selection\nStarting: Join #Werewolf-Pak\n"
    _, diags = parse_text(text, "tester", context=example_project)
    warns = [d for d in diags if d.code == "WW907"]
    assert len(warns) == 2 and all(d.severity == "warning" for d in warns)
    assert "Lantern Bearer" in warns[0].notes[0] and "Werewolf Pack" in warns[1].notes[0]
    _, diags = parse_text("**Pack Hunt** | Poll\nShow Voters: Yes\n", "lynch")
    assert [d.code for d in diags] == ["WW906"]


def test_bad_header_and_key_values() -> None:
    _, diags = parse_text("Seer | Townsfolk\n__Formalized__\nStarting: Learn `x`\n", "seer")
    assert [d.code for d in diags] == ["WW100"]
    _, diags = parse_text("**Seer** | Townsfok Investigative\n__Formalized__\nStarting: Learn `x`\n", "seer")
    assert [(d.code, d.span.col, d.notes) for d in diags] == [("WW100", 12, ("did you mean: Townsfolk",))]
    _, diags = parse_text("**Square**\nSort Index: one\nMembers: Alive, Dwarves\n", "square")
    assert sorted((d.code, d.severity) for d in diags) == [("WW303", "error"), ("WW912", "warning")]


@pytest.mark.parametrize("line", ["Immediate Night: Kill @Self", "  • Kill @Self", "Passive: Kill @(Rol:X) (~Nope)"])
def test_positions_are_physical_and_one_based(line: str) -> None:
    text = "**T** | Townsfolk Power\n\n__Basics__\nx\n\n__Formalized__\n\n" + line + "\n"
    _, diags = parse_text(text, "t")
    for d in diags:
        assert d.span.line == 8 and d.span.col >= 1
