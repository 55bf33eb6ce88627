"""The 30 example elements: every file parses without errors, has the expected shape, round-trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import example_files
from wwrf_adapter import format_element, parse_text
from wwrf_adapter.ast import Ability, Evaluate, ForEach, Inherit, KeyLine, Meta, Process, TriggerBlock
from wwrf_adapter.jsonout import to_data

FILES = example_files()
KINDS = {
    "villager": "role", "seer": "role", "lynch": "poll", "pack hunt": "poll", "wolf blood": "ability set",
    "lupine": "attribute", "kindled": "attribute", "overrun": "attribute", "village square": "location",
    "potion shelf": "display", "villagers": "team", "werewolves": "team", "drifters": "team",
    "werewolf pack": "group", "sweethearts": "group", "lantern bearer": "role",
}


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def test_thirty_examples_present() -> None:
    assert len(FILES) == 30


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_example_parses_without_errors(path: Path, example_project) -> None:  # type: ignore[no-untyped-def]
    errors = [d for d in example_project.diagnostics if d.span.file == str(path) and d.is_error]
    assert errors == []
    el = example_project.get(path.name)
    assert el.file == str(path)
    if path.name in KINDS:
        assert el.kind == KINDS[path.name]
    if el.kind not in ("display", "location") and "No Abilities" not in path.read_text(encoding="utf-8"):
        assert any(isinstance(i, (TriggerBlock, Inherit, KeyLine)) for i in el.items)


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_example_round_trips(path: Path, example_project) -> None:  # type: ignore[no-untyped-def]
    el = example_project.get(path.name)
    text = format_element(el)
    again, diags = parse_text(text, str(path), context=example_project)
    assert [d for d in diags if d.is_error] == []
    assert again == el  # spans are excluded from equality
    assert to_data(again, spans=False) == to_data(el, spans=False)
    assert format_element(again) == text  # canonical form is a fixed point


def test_examples_have_no_warnings(example_project) -> None:  # type: ignore[no-untyped-def]
    assert [d.render() for d in example_project.diagnostics] == []


def _blocks(project, name: str) -> list[TriggerBlock]:  # type: ignore[no-untyped-def]
    return [i for i in project.get(name).items if isinstance(i, TriggerBlock)]


def test_inherit_is_expanded(example_project) -> None:  # type: ignore[no-untyped-def]
    el = example_project.get("werewolf")
    (inherit,) = el.items
    assert isinstance(inherit, Inherit) and inherit.set_name == "Wolf Blood"
    meta, block = inherit.items
    assert isinstance(meta, Meta) and meta.kind == "role attribute" and meta.value.text == "Lupine"
    assert meta.value.type == "attribute"
    assert isinstance(block, TriggerBlock) and block.trigger.name == "Starting"
    join = block.body[0]
    assert isinstance(join, Ability) and join.type == "joining" and join.duration == "Permanent"
    assert join.args["group"].type == "group"
    assert block.span.file.endswith("wolf blood")  # spliced lines map back to the set file


def test_seer_process_evaluate_and_lifted_parameters(example_project) -> None:  # type: ignore[no-untyped-def]
    (block,) = _blocks(example_project, "seer")
    assert block.trigger.name == "Immediate Night" and block.trigger.prompting
    assert block.params.prompt.name == "seer.divine"
    assert block.params.restrictions[0].kind == "condition"
    process, evaluate = block.body
    assert isinstance(process, Process) and process.abilities[0].subtype == "attribute"
    assert process.abilities[0].args["attribute"].type == "attribute"
    assert isinstance(evaluate, Evaluate)
    assert [b.kind for b in evaluate.branches] == ["condition", "otherwise"]
    cond = evaluate.branches[0].condition
    assert cond.op == "is" and cond.left.text == "@Result" and cond.right.type == "success"


def test_implied_evaluate_under_trigger(example_project) -> None:  # type: ignore[no-untyped-def]
    (block,) = _blocks(example_project, "medium")
    assert block.trigger.name == "On Death" and block.trigger.selector.text == "@All"
    (evaluate,) = block.body
    assert isinstance(evaluate, Evaluate)
    assert [b.kind for b in evaluate.branches] == ["condition", "otherwise"]
    assert evaluate.branches[0].condition.op == "has"
    witch = _blocks(example_project, "witch")[1]
    assert isinstance(witch.body[0], Evaluate) and len(witch.body[0].branches) == 3


def test_always_line_and_several_results(example_project) -> None:  # type: ignore[no-untyped-def]
    morning, night = _blocks(example_project, "census taker")
    process, evaluate = morning.body
    assert [a.subtype for a in process.abilities] == ["count", "player count"]
    assert process.abilities[0].args["role"].type == "role"
    assert [b.kind for b in evaluate.branches] == ["always", "condition", "otherwise"]
    assert night.params.scaling[0].kind == "static" and night.params.scaling[0].count == 2
    listed = night.body[1].branches[1].condition.right
    assert listed.kind == "list" and listed.annotation == "role" and len(listed.items) == 3
    info = night.body[1].branches[1].body[0].args["value"]
    assert info.kind == "info" and [e.annotation for e in info.items] == [None, "role", "alignment"]


def test_for_each_end_emit_and_attribute_values(example_project) -> None:  # type: ignore[no-untyped-def]
    soak, ignite = _blocks(example_project, "firestarter")
    apply = soak.body[0]
    assert apply.type == "applying" and apply.options == ["smoldering", "$phase"]
    assert apply.duration == "Persistent" and soak.params.scaling[0].kind == "ratio"
    assert soak.params.restrictions[0].kind == "attribute" and not soak.params.restrictions[0].has
    for_each, emit = ignite.body
    assert isinstance(for_each, ForEach) and for_each.selector.filters[0].key == "Attr"
    assert for_each.body[0].subtype == "change" and for_each.body[0].args["index"].text == "1"
    assert emit.type == "emit" and emit.subtype == "end"
    assert [o.name for o in ignite.params.other] == ["Visitless"]


def test_add_remove_disambiguation(example_project) -> None:  # type: ignore[no-untyped-def]
    betrayal = _blocks(example_project, "sweethearts")[2]
    assert betrayal.body[0].type == "joining" and betrayal.body[0].subtype == "remove"
    removal = _blocks(example_project, "kindled")[2]
    assert removal.body[1].type == "applying" and removal.body[1].subtype == "remove"
    assert "attribute" in removal.body[1].args and "subject" not in removal.body[1].args
    cupid = _blocks(example_project, "cupid")[0]
    assert cupid.body[0].type == "joining" and cupid.params.other[0].name == "Forced"


def test_parameters_and_special_forms(example_project) -> None:  # type: ignore[no-untyped-def]
    hand = _blocks(example_project, "lamplighter")[0]
    forced = hand.params.other[0]
    assert forced.name == "Forced" and forced.value.props == ["RandomPlayer"]
    shelter = _blocks(example_project, "lantern bearer")[1]
    assert [r.kind for r in shelter.params.restrictions] == ["succession", "condition", "condition"]
    assert shelter.body[0].subtype == "absence" and shelter.body[0].args["location"].text == "@Self"
    passing = _blocks(example_project, "lantern bearer")[4]
    assert passing.params.prompt.silent and passing.params.other[0].name == "Vanishing"
    double, _, pardon, decree, _ = _blocks(example_project, "magistrate")
    assert double.params.scaling[0].kind == "compare" and double.params.scaling[0].comparator == "≥"
    assert pardon.body[0].condition.op == "is" and decree.body[0].condition.op == "votes"
    assert pardon.body[0].args["poll"].type == "poll"
    assert _blocks(example_project, "turncoat")[0].trigger.filter == "Attack Killing"
    loyalty = _blocks(example_project, "wanderer")[0].body[0]
    assert loyalty.subtype == "alignment" and loyalty.args["target"].type == "team"
    assert _blocks(example_project, "witch")[0].body[0].args["display"].type == "display"


def test_keys_and_headers(example_project) -> None:  # type: ignore[no-untyped-def]
    lynch = example_project.get("lynch")
    keys = [i.key for i in lynch.items if isinstance(i, KeyLine)]
    assert keys == ["Available Options", "Allowed Voters", "Show Voters"]
    square = example_project.get("village square")
    assert [(i.key, i.text) for i in square.items] == [("Sort Index", "1"), ("Members", "Alive"), ("Viewers", "Dead, Spectator")]
    wanderer = example_project.get("wanderer").header
    assert (wanderer.role_class, wanderer.category, wanderer.team) == ("Unaligned", "Miscellaneous", "Drifters")
    wolves = example_project.get("werewolves")
    win = wolves.items[0]
    assert isinstance(win, KeyLine) and [v.filters[0].key for v in win.values] == ["Align", "Attr"]
    assert example_project.get("potion shelf").template == ["Healing draught: $1", "Poison draught: $2"]
    assert example_project.get("village square").kind == "location"


def test_lynch_location_is_typed(example_project) -> None:  # type: ignore[no-untyped-def]
    create = _blocks(example_project, "lynch")[0].body[0]
    assert create.type == "poll" and create.subtype == "creation"
    assert create.args["location"].type == "location"
