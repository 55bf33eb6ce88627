"""Bullet tree and Process/Evaluate normalisation on small made-up roles."""

from __future__ import annotations

from wwrf_adapter import format_element, parse_line, parse_text
from wwrf_adapter.ast import Ability, Evaluate, ForEach, Process, TriggerBlock

HEAD = "**Tester** | Townsfolk Power\n__Formalized__\n"


def _block(body: str) -> TriggerBlock:
    el, diags = parse_text(HEAD + body, "tester")
    assert [d.render() for d in diags if d.is_error] == []
    (block,) = [i for i in el.items if isinstance(i, TriggerBlock)]
    again, _ = parse_text(format_element(el), "tester")
    assert again == el, format_element(el)
    return block


def test_action_line_parameters_are_lifted() -> None:
    block = _block("Immediate Night:\n  • Action: [Quantity: 1] ⟨x2⟩ |t.p|\n  • Kill @Selection\n")
    assert block.params.restrictions[0].kind == "quantity"
    assert block.params.scaling[0].count == 2 and block.params.prompt.name == "t.p"
    assert [type(s) for s in block.body] == [Ability]


def test_inline_process_and_inline_evaluate() -> None:
    block = _block("Immediate Night: Process: Role Investigate @Selection\n  • Evaluate: @Result is `Seer`: `A seer.`\n")
    process, evaluate = block.body
    assert isinstance(process, Process) and isinstance(evaluate, Evaluate)
    assert evaluate.branches[0].condition.right.text == "Seer"


def test_implied_process() -> None:
    block = _block("Immediate Night:\n  • Role Investigate @Selection\n    ‣ @Result is `Seer`: `Seer!`\n    ‣ Otherwise: `No.`\n")
    process, evaluate = block.body
    assert isinstance(process, Process) and process.abilities[0].subtype == "role"
    assert [b.kind for b in evaluate.branches] == ["condition", "otherwise"]


def test_trigger_condition_ability_shape() -> None:
    block = _block("On Death: @Attacker exists: Kill @Attacker\n")
    (evaluate,) = block.body
    assert isinstance(evaluate, Evaluate) and evaluate.branches[0].condition.op == "exists"


def test_continue_and_nested_evaluate() -> None:
    block = _block(
        "Passive Start Day:\n"
        "  • @Self->Counter > 1:\n"
        "    ‣ Learn `Counter above one.`\n"
        "    ‣ Continue\n"
        "  • @Self->Counter > 0:\n"
        "    ‣ @Target exists: Kill @Target\n"
        "    ‣ Otherwise: Learn `No target.`\n"
        "  • Feedback: Learn `Done.`\n"
    )
    (evaluate,) = block.body
    first, second, last = evaluate.branches
    assert first.continues and isinstance(first.body[0], Ability) and len(first.body) == 1
    assert isinstance(second.body[0], Evaluate) and len(second.body[0].branches) == 2
    assert last.kind == "otherwise"


def test_for_each_inline_and_logic_conditions() -> None:
    block = _block("Starting: For Each @(Class:Werewolf,AliveOnly:False): Learn `@Ind is a wolf`\n"
                   "  • Action: [Condition: (@Self->Counter > 1) and (@Target exists) or (@Self has `Lupine`)]\n")
    (for_each,) = block.body
    assert isinstance(for_each, ForEach) and len(for_each.selector.filters) == 2
    cond = block.params.restrictions[0].condition
    assert cond.op == "and-or" and len(cond.operands) == 3


def test_parse_line_fragment_api() -> None:
    items, diags = parse_line("Immediate Day: Kill @Selection [Temporal: Day 2+]\n  • Learn `x`")
    assert diags == [] and len(items[0].body) == 2
    cond, diags = parse_line("not (@Target is in #Wolfpack)", "condition")
    assert diags == [] and cond.op == "not" and cond.operands[0].op == "in"
    params, diags = parse_line("$total<10 ⇒ 1, $total≥10 ⇒ 2, 3", "scaling")
    assert diags == [] and [s.kind for s in params.scaling] == ["compare", "compare", "value"]


def test_defaults_are_filled_and_marked() -> None:
    block = _block("Starting:\n  • Join #Pack\n  • Increment Counter\n  • Protect @Self from `Attacks` through Active Defense (~Phase)\n")
    join, count, protect = block.body
    assert join.duration == "Persistent" and join.args["membership"].text == "Member"
    assert join.args["target"].text == "@Self" and set(join.implicit) == {"duration", "target", "membership"}
    assert count.args["target"].text == "@Self" and count.args["amount"].text == "1"
    assert protect.duration == "Phase" and protect.args["by"].text == "@All" and protect.implicit == ["by"]


def test_trigger_canonical_names() -> None:
    cases = {
        "Choice Heal Chosen": ("Choice Chosen", "Heal"),
        "On `Blaze` End Emitted": ("On End Emitted", "Blaze"),
        "On Poll `Lynch` Win": ("On Poll Win", "Lynch"),
        "second pre-end night": ("Second Pre-End Night", None),
        "On @(Group:Watch) Visited [!Attack Killing]": ("On Visited", None),
    }
    for text, (name, value) in cases.items():
        trig, diags = parse_line(text, "trigger")
        assert diags == [] and trig.name == name, text
        assert (trig.value.text if trig.value else None) == value
    trig, _ = parse_line("On @(Group:Watch) Visited [!Attack Killing]", "trigger")
    assert trig.selector.filters[0].value == "Watch" and trig.filter == "Attack Killing" and trig.filter_negated
