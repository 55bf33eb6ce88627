"""Forms the guides allow that a full-size role book uses and the front end once rejected.

Each test parses made-up lines in the shape of the book's, checks the AST they give and, where the
fix touched printing, that the canonical text parses back to the same AST.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.diagnostics import Diagnostic
from wwrf_adapter import format_element, load_project, parse_line, parse_text, vocab
from wwrf_adapter.ast import Ability, Element, Evaluate, ForEach, Process, TriggerBlock

HEAD = "**Tester** | Townsfolk Power\n__Formalized__\n"


def _parse(body: str, head: str = HEAD, file: str = "tester") -> tuple[Element, list[Diagnostic]]:
    el, diags = parse_text(head + body, file)
    if not any(d.is_error for d in diags):
        again, _ = parse_text(format_element(el), file)
        assert again == el, format_element(el)
    return el, diags


def _blocks(el: Element) -> list[TriggerBlock]:
    return [i for i in el.items if isinstance(i, TriggerBlock)]


def _clean(body: str, head: str = HEAD) -> list[TriggerBlock]:
    el, diags = _parse(body, head)
    assert [d.render() for d in diags] == []
    return _blocks(el)


# ---------------------------------------------------------------- @Winner1 / @Winner2


def test_numbered_poll_winners() -> None:
    closed, skipped = _clean("On Poll Closed: Kill @Winner1\nOn Poll Skipped: Learn `@Winner2 tied with @Winner1`\n")
    assert closed.body[0].args["target"].name == "Winner1"
    assert [v.text for v in skipped.body[0].args["info"].items] == ["@Winner2", "@Winner1"]
    _, diags = _parse("On Poll Closed: Kill @Winner3\n")
    assert [d.code for d in diags] == ["WW206"]


# ---------------------------------------------------------------- {Forced: default}


def test_forced_default_is_an_option_of_the_choice() -> None:
    create, choose = _clean("Starting: `Side` Choice Creation (Townsfolk, Werewolf)\n"
                            "Immediate Night: `Side` Choice Choose @Chosen {Forced: Townsfolk} |t.side|\n")
    forced = choose.params.other[0]
    assert forced.name == "Forced" and forced.value.kind == "words"
    assert (forced.value.text, forced.value.type) == ("Townsfolk", "option")


def test_forced_default_role_or_selector(example_project) -> None:  # type: ignore[no-untyped-def]
    text = HEAD + ("Immediate Night: Role Change @Self to @Selection {Forced: Seer}\n"
                   "Immediate Day: Role Change @Self to @Selection {Forced: `Medium`}\n"
                   "Start Day: Kill @Selection {Forced: @Others->RandomPlayer}\n"
                   "End Day: Role Change @Self to @Selection {Forced: Sear}\n")
    el, diags = parse_text(text, "tester", context=example_project)
    bare, quoted, selector, unknown = (b.params.other[0].value for b in _blocks(el))
    assert (bare.kind, bare.type) == ("words", "role")
    assert (quoted.kind, quoted.type) == ("constant", "role")
    assert selector.kind == "selector" and selector.props == ["RandomPlayer"]
    (warning,) = diags
    assert (warning.code, warning.severity, warning.span.line) == ("WW907", "warning", 6)
    assert "Seer" in warning.notes[0] and unknown.text == "Sear"


# ---------------------------------------------------------------- dynamic scaling


def test_scaling_compares_number_values() -> None:
    (block,) = _clean("Passive Start Night: Kill @Self ⟨$living>@Self->Counter ⇒ x1, @Self->Counter≥3 ⇒ 2, 1⟩\n")
    first, second, last = block.params.scaling
    assert (first.kind, first.left.text, first.comparator, first.right.text, first.count) == (
        "compare", "$living", ">", "@Self->Counter", 1)
    assert first.right.type == "number" and first.right.span.col == 42
    assert (second.left.props, second.comparator, second.right.text, second.count) == (["Counter"], "≥", "3", 2)
    assert last.kind == "value"


def test_scaling_constant_threshold_and_ascii_stand_ins() -> None:
    params, diags = parse_line("$total<10 ⇒ 1, $total>=10 => 2", "scaling")
    assert [(s.left.text, s.comparator, s.right.text, s.count) for s in params.scaling] == [
        ("$total", "<", "10", 1), ("$total", "≥", "10", 2)]
    assert [d.code for d in diags] == ["WW905"]


@pytest.mark.parametrize("item,code", [(">3 ⇒ 1", "WW104"), ("$living>@Selfie ⇒ 2", "WW206"), ("@Self->Counter ⇒ 2", "WW104")])
def test_bad_scaling_comparisons(item: str, code: str) -> None:
    _, diags = parse_line(item, "scaling")
    assert [d.code for d in diags] == [code]


# ---------------------------------------------------------------- For Each inside Process


def test_for_each_with_condition_inside_a_process_block() -> None:
    (block,) = _clean("Starting:\n"
                      "  • Process:\n"
                      "    ‣ For Each @Others: @Ind has `Lupine`: Kill @Ind\n"
                      "    ‣ Learn `Counted.`\n"
                      "  • Evaluate:\n"
                      "    ‣ @Result1 exists: `Done.`\n")
    process, evaluate = block.body
    assert isinstance(process, Process) and isinstance(evaluate, Evaluate)
    loop, learn = process.abilities
    assert isinstance(loop, ForEach) and loop.selector.text == "@Others"
    (inner,) = loop.body
    assert isinstance(inner, Evaluate) and inner.branches[0].condition.op == "has"
    assert inner.branches[0].body[0].type == "killing" and learn.subtype == "learn"


def test_inline_process_for_each() -> None:
    (block,) = _clean("Starting: Process: For Each @Others: @Ind has `Lupine`: Kill @Ind\n  • @Result exists: `x`\n")
    process, evaluate = block.body
    assert isinstance(process.abilities[0], ForEach) and isinstance(evaluate, Evaluate)
    (block,) = _clean("Starting: Process: For Each @Others:\n  • Kill @Ind\n")
    (process,) = block.body
    assert isinstance(process.abilities[0], ForEach) and process.abilities[0].body[0].type == "killing"


def test_process_errors_point_at_the_bullet() -> None:
    _, diags = _parse("Starting:\n  • Process:\n    ‣ Kill @Self\n    ‣ @Self has `Lupine`: Kill @Self\n")
    (d,) = diags
    assert (d.code, d.span.line, d.span.col, d.span.end_col) == ("WW103", 6, 5, 37)
    _, diags = _parse("Starting: Process: @Self exists: Kill @Self\n")
    assert [(d.code, d.span.line) for d in diags] == [("WW103", 3)]


# ---------------------------------------------------------------- Obstruct <type> for …


@pytest.mark.parametrize("kind", vocab.ABILITY_TYPES)
def test_obstruct_every_ability_type(kind: str) -> None:
    for written in (kind.capitalize(), "!" + kind.capitalize()):
        ab, diags = parse_line(f"Obstruct {written} for @Target (~Phase)", "ability")
        assert diags == [] and ab.type == "obstructing"
        assert ab.words["abilities"] == kind.capitalize() and ab.args["target"].text == "@Target"
        assert ("negated" in ab.words) == written.startswith("!")


def test_obstruct_subtypes_and_unknown_type() -> None:
    (ascend, creation, attack) = _clean("Starting: Obstruct Ascend for @Target\n"
                                        "Immediate Night: Obstruct Creation Poll for @Selection ⇒ `Failure`\n"
                                        "Immediate Day: Obstruct !Attack Killing for @Selection\n")
    assert ascend.body[0].words["abilities"] == "Ascend"
    assert creation.body[0].words["abilities"] == "Creation Poll"
    assert attack.body[0].words == {"negated": "true", "abilities": "Attack Killing"}
    _, diags = parse_line("Obstruct Asend for @Target", "ability")
    (d,) = diags
    assert d.code == "WW211" and d.span.col == 10 and "Ascend" in d.notes[0]


# ---------------------------------------------------------------- location audiences


def test_unknown_location_audience_is_a_warning() -> None:
    el, diags = parse_text("**Green**\nSort Index: 2\nMembers: Alive, Host\nViewers: *All*\n", "green")
    (d,) = diags
    assert (d.code, d.severity, d.span.line, d.span.col) == ("WW912", "warning", 3, 17)
    assert el.items[1].text == "Alive, Host"


# ---------------------------------------------------------------- role and group headers


@pytest.mark.parametrize("header,kind,role_class,category", [
    ("Townsfolk Group", "role", "Townsfolk", "Group"),
    ("Werewolf Group - Pack Team", "role", "Werewolf", "Group"),
    ("Villagers Team Group", "group", None, None),
    ("Werewolf Team Group", "group", None, None),
    ("Coven Group", "group", None, None),
])
def test_group_category_roles_and_group_headers(header: str, kind: str, role_class: str | None, category: str | None) -> None:
    el, diags = parse_text(f"**Baker** | {header}\n__Formalized__\nStarting: Learn `x`\n", "baker")
    assert diags == []
    assert (el.kind, el.header.role_class, el.header.category) == (kind, role_class, category)


# ---------------------------------------------------------------- element identity


def test_elements_of_different_kinds_share_a_name(tmp_path: Path) -> None:
    (tmp_path / "groups").mkdir()
    (tmp_path / "polls").mkdir()
    (tmp_path / "groups" / "coyotes").write_text(
        "**Coyotes** | Drifters Team Group\n__Formalized__\nStarting: Create `Coyotes` Poll in #Coyotes\n", encoding="utf-8")
    (tmp_path / "polls" / "coyotes").write_text("**Coyotes** | Poll\nAvailable Options: @Members, Abstain\n", encoding="utf-8")
    project = load_project(tmp_path)
    assert [d.render() for d in project.diagnostics] == []
    assert sorted(project.elements) == [("group", "coyotes"), ("poll", "coyotes")]
    assert project.get("Coyotes", "poll").kind == "poll" and project.get("coyotes", "group").kind == "group"
    with pytest.raises(LookupError, match="group, poll"):
        project.get("Coyotes")
    create = _blocks(project.get("Coyotes", "group"))[0].body[0]
    assert (create.args["poll"].type, create.args["location"].type) == ("poll", "group")


def test_second_element_of_the_same_kind_and_name_is_reported(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "seer").write_text(f"**Seer** | Townsfolk Investigative\n__Formalized__\nStarting: Learn `{folder}`\n",
                                                encoding="utf-8")
    project = load_project(tmp_path)
    (d,) = project.diagnostics
    assert (d.code, d.severity, d.span.file) == ("WW913", "warning", str(tmp_path / "b" / "seer"))
    assert str(tmp_path / "a" / "seer") in d.message
    assert project.get("Seer").file == str(tmp_path / "b" / "seer")


# ---------------------------------------------------------------- values against parameter types


@pytest.mark.parametrize("line,message", [
    ("Starting: Join @Self", "the group of 'Join' must be a group, but '@Self' is a player in a role"),
    ("Starting: Role Change @Self to @Self", "the role of 'Role Change' must be a role, but '@Self' is a player in a role"),
    ("Passive: Kill $living", "the target of 'Kill' must be a player, but '$living' is a number"),
    ("Starting: Apply `Lupine` to @Self->Counter", "the target of 'Apply' must be an actor, but '@Self->Counter' is a number"),
    ("Starting: Set Counter to $phname", "the amount of 'Set Counter' must be a number, but '$phname' is a string"),
    ("Passive: Kill @Self ⟨$living>@Self ⇒ x1⟩", "a scaling value must be a number, but '@Self' is a player in a role"),
    ("Passive: Kill @Self [Quantity: @Others]", "a Quantity must be a number, but '@Others' is a player"),
])
def test_values_that_cannot_have_the_parameter_type(line: str, message: str) -> None:
    _, diags = _parse(line + "\n")
    (d,) = diags
    assert (d.code, d.severity, d.message) == ("WW304", "error", message)
    assert d.span.line == 3 and line[d.span.col - 1 : d.span.end_col - 1] == message.split("'")[-2]


@pytest.mark.parametrize("line", [
    "Starting: Join #Pack",                                 # a group
    "Immediate Night: Join @Selection",                     # only run time knows
    "Starting: Grant `Mayor` to @Self",                     # a constant is read as the expected type
    "Starting: Remove @ThisAttr from @Self",                # an actor
    "Starting: Protect @Self from `Attacks` through Absence at @Self",  # a player is a location
    "Starting: Target @Self->Role (Role)",
    "Starting: Set Counter to @Self->Counter",
    # an element that stands for players where players are expected: a team's players, a role's holders
    "Starting: Kill &Villagers",
    "Starting: Apply `Lupine` to @Self->Role",
    "Immediate Night: Kill @Selection[role]",
    "Starting: Join #Pack (~Phase)\nPassive: Kill @Self [Quantity: @Self->Counter] ⟨$living>@Target->Counter ⇒ x1⟩",
])
def test_values_that_may_have_the_parameter_type(line: str) -> None:
    _, diags = _parse(line + "\n")
    assert [d.render() for d in diags if d.is_error] == []


def test_self_is_the_group_in_a_group_and_the_poll_in_a_poll() -> None:
    group = "**Pack** | Werewolves Team Group\n__Formalized__\n"
    _, diags = _parse("Starting: Join @Self\nStarting: Reveal `x` to @Self\n", group, "pack")
    assert diags == []
    _, diags = _parse("Starting: Kill @Self\n", group, "pack")
    assert [d.message for d in diags] == ["the target of 'Kill' must be a player, but '@Self' is a group in a group"]
    _, diags = _parse("Starting: Kill @Self\n", "**Vote** | Poll\n", "vote")
    assert [d.message for d in diags] == ["the target of 'Kill' must be a player, but '@Self' is a poll in a poll"]
