"""The rewrites of docs/language.md §11 applied by `rulescript import`, one rule text at a time."""

from __future__ import annotations

import pytest

from rulescript import compile_text
from rulescript.importer.rewrite import ConversionError, RuleConverter, parse_rule_text
from rulescript.compiler.profile import load_profile


def convert(text: str):
    rule = parse_rule_text(text)
    changes = RuleConverter(load_profile("cfc")).convert(rule)
    return [f"{p.raw_key} = {p.new_value}" for p in rule.props], changes


def codes(changes) -> list[str]:
    return [c.code for c in changes]


def compiles(lines: list[str]) -> None:
    result = compile_text("[probe-card]\n" + "\n".join(lines) + "\n", cache=None)
    assert result.ok, result.render()


# --------------------------------------------------------------------------- moveTo(zone, bool)

@pytest.mark.parametrize("flag", ["true", "false", "True"])
def test_moveto_boolean_position_becomes_top_and_flag(flag: str) -> None:
    lines, changes = convert(f"action = moveTo(hand, {flag}) to(character@myRing)")
    assert lines == [f"action = moveTo(hand, top, {flag}) to(character@myRing)"]
    assert codes(changes) == ["RI901"]
    assert changes[0].before == f"moveTo(hand, {flag})" and changes[0].after == f"moveTo(hand, top, {flag})"
    compiles(lines)


@pytest.mark.parametrize("text", ["action = moveTo(hand) to(character@myRing)",
                                  "action = moveTo(deck, bottom, true) to(character@myRing)",
                                  "action = moveTo(deck, 2) to(character@myRing)"])
def test_moveto_without_legacy_boolean_is_left_alone(text: str) -> None:
    lines, changes = convert(text)
    assert lines == [text] and changes == []


# --------------------------------------------------------------------------- tgt as one card

def test_tgt_as_card_argument_becomes_first_element() -> None:
    lines, changes = convert("target = character@oppRing\naction = {F}: copyAbility(tgt)")
    assert lines[1] == "action = {F}: copyAbility(tgt.0)"
    assert codes(changes) == ["RI902"]
    compiles(lines)


def test_tgt_attribute_becomes_first_element_attribute() -> None:
    lines, changes = convert("target = character@oppRing\naction = damage(tgt.bp) to(opp); bp(=prevTgt.bp * 2)")
    assert lines[1] == "action = damage(tgt.0.bp) to(opp); bp(=prevTgt.0.bp * 2)"
    assert codes(changes) == ["RI902", "RI902"]
    compiles(lines)


def test_tgt_list_uses_are_left_alone() -> None:
    text = ("target = <2>characters@oppRing\n"
            "action = damage(tgt.size * 100) to(tgt.1); bp(-100) to(characters@oppRing::not(tgt))")
    lines, changes = convert(text)
    assert lines == text.split("\n") and changes == []


def test_tgt_inside_a_string_is_not_touched() -> None:
    lines, changes = convert("action = [[may 'Copy tgt.bp?']] draw()")
    assert lines == ["action = [[may 'Copy tgt.bp?']] draw()"] and changes == []


def test_tgt_in_an_if_condition() -> None:
    lines, changes = convert("target = character@oppRing\naction = [[if tgt.bp > 300]] destroy()")
    assert lines[1] == "action = [[if tgt.0.bp > 300]] destroy()"
    compiles(lines)


# --------------------------------------------------------------------------- '&' between types

def test_ampersand_between_quoted_types_becomes_comma() -> None:
    lines, changes = convert('action = moveTo(hand) to("Red Lantern"&"Blue Lantern"@myDeck)')
    assert lines == ['action = moveTo(hand) to("Red Lantern","Blue Lantern"@myDeck)']
    assert [(c.code, c.severity) for c in changes] == [("RI903", "note")]


@pytest.mark.parametrize("clause", ["to", "target?", "from", "to?"])
def test_several_names_with_a_pick_become_one_filter_per_name(clause: str) -> None:
    """The original took the pick from each name: one Red *and* one Blue Lantern, not the first of either."""
    lines, changes = convert(f'action = moveTo(hand) {clause}("Red Lantern"&"Blue Lantern"<1>@myDeck)')
    assert lines == [f'action = moveTo(hand) {clause}("Red Lantern"<1>@myDeck; "Blue Lantern"<1>@myDeck)']
    assert [(c.code, c.severity) for c in changes] == [("RI913", "note")]
    compiles(lines)


def test_per_name_pick_keeps_the_block_zone_and_selector_on_every_filter() -> None:
    lines, _ = convert('target? = "A"&"B"<-2>[bp<=300]@oppDeck::not(prevTgt)\naction = moveTo(hand)')
    assert lines[0] == 'target? = "A"<-2>[bp<=300]@oppDeck::not(prevTgt); "B"<-2>[bp<=300]@oppDeck::not(prevTgt)'


def test_required_target_with_per_name_pick_keeps_its_requirement_as_a_requisite() -> None:
    """A required target stopped the activation only when no name was found at all; each filter of a
    target list is required on its own, so the list is optional and the old requirement a requisite."""
    lines, changes = convert('target = "A"&"B"<1>@myDeck; character@oppRing\nrequisite = character@myRing\n'
                             'action = moveTo(hand)')
    assert lines == ['target? = "A"<1>@myDeck; "B"<1>@myDeck; character@oppRing',
                     'requisite = character@myRing && "A","B"<1>@myDeck && character@oppRing',
                     'action = moveTo(hand)']
    assert {c.code for c in changes} == {"RI913"}


def test_required_target_of_an_auto_with_per_name_pick_gets_a_leading_condition() -> None:
    lines, _ = convert('target = "A"&"B"<1>@myDeck\nauto = ~myEndPhase~ moveTo(hand)')
    assert lines == ['target? = "A"<1>@myDeck; "B"<1>@myDeck',
                     """auto = ~myEndPhase~ [[if getTargets('"A","B"<1>@myDeck')]]; moveTo(hand)"""]


@pytest.mark.parametrize("text", ['action = moveTo(hand) to(<1>"A"&"B"<2>@myDeck)',
                                  "action = draw(getTargets('\"A\"&\"B\"<1>@myDeck').size)",
                                  'action = {S("A"&"B"<1>)}: draw()'])
def test_per_name_pick_that_cannot_be_written_is_flagged(text: str) -> None:
    _, changes = convert(text)
    assert ("RI914", "warning") in [(c.code, c.severity) for c in changes]


def test_ampersand_with_a_keyword_type_warns() -> None:
    lines, changes = convert('target = character&!"Iron Gate"@myRing\naction = bp(+100)')
    assert lines[0] == 'target = character,!"Iron Gate"@myRing'
    assert [(c.code, c.severity) for c in changes] == [("RI904", "warning")]
    assert "character" in changes[0].message


def test_ampersand_in_requisite_target_and_cost_filters() -> None:
    text = ('requisite = "A"&"B"@myRing && character@oppRing\n'
            'action = {S("A"&"B")}: draw()')
    lines, changes = convert(text)
    assert lines == ['requisite = "A","B"@myRing && character@oppRing', 'action = {S("A","B")}: draw()']
    assert codes(changes) == ["RI903", "RI903"]


def test_ampersand_inside_names_and_filter_blocks_is_kept() -> None:
    text = 'action = moveTo(hand) to("Tom & Jerry"s[bp<=300 & -frozen]@myDeck)'
    lines, changes = convert(text)
    assert lines == [text] and changes == []


def test_ampersand_in_a_gettargets_string() -> None:
    lines, changes = convert("action = draw(getTargets('\"A\"&\"B\"@myRing').size)")
    assert lines == ["action = draw(getTargets('\"A\",\"B\"@myRing').size)"]
    assert codes(changes) == ["RI903"]


# --------------------------------------------------------------------------- target clause placement

def test_clause_before_effects_moves_after_them() -> None:
    lines, changes = convert("action = {F}: to(characters@oppRing) damage(100) & freeze()")
    assert lines == ["action = {F}: damage(100) & freeze() to(characters@oppRing)"]
    assert codes(changes) == ["RI905"]
    compiles(lines)


def test_clause_and_restriction_move_in_every_branch() -> None:
    text = ("auto = ~ringChanges~ [[if alone]] ueot to(character@myRing) +unblockable "
            "[[else]] to(character@myRing) -unblockable")
    lines, changes = convert(text)
    assert lines == ["auto = ~ringChanges~ [[if alone]] +unblockable to(character@myRing) ueot "
                     "[[else]] -unblockable to(character@myRing)"]
    assert codes(changes) == ["RI905", "RI905"]
    compiles(lines)


def test_clause_move_keeps_the_may_guard_first_and_other_statements() -> None:
    lines, _ = convert("action = draw(); [[may 'Burn?']] to(character@oppRing) damage(200); hp(+100)")
    assert lines == ["action = draw(); [[may 'Burn?']] damage(200) to(character@oppRing); hp(+100)"]


def test_canonical_statement_is_not_touched() -> None:
    text = "action = freeze() & +frosted to(character@oppRing) oppUynt"
    assert convert(text) == ([text], [])


# --------------------------------------------------------------------------- event prefixes with :any

@pytest.mark.parametrize("event,expected", [("oppCanBlock:any", "anyCanBlock:any"),
                                            ("myRemoved:any", "anyRemoved:any"),
                                            ("removed:any", "anyRemoved:any"),
                                            ("OPPattacks:any:once", "anyAttacks:any:once")])
def test_object_event_with_any_gets_the_any_prefix(event: str, expected: str) -> None:
    lines, changes = convert(f"auto = ~{event}~ sp(+1)")
    assert lines == [f"auto = ~{expected}~ sp(+1)"]
    assert codes(changes) == ["RI906"]
    compiles(lines)


def test_object_event_on_own_card_gets_the_prefix_that_can_match() -> None:
    lines, changes = convert("auto = ~oppRemoved~ draw()")
    assert lines == ["auto = ~removed~ draw()"]
    assert codes(changes) == ["RI906"]


def test_phase_events_and_own_object_events_keep_their_prefix() -> None:
    for text in ("auto = ~myEndPhase~ draw()", "auto = ~attacks~ draw()", "auto = ~anyRemoved:any~ draw()"):
        assert convert(text) == ([text], [])


# --------------------------------------------------------------------------- [[if]] without an event

def test_hand_size_condition_without_event_gets_handchanges() -> None:
    lines, changes = convert("auto = [[if me.hand.size == 0]] +unblockable")
    assert lines == ["auto = ~myHandChanges~ [[if me.hand.size == 0]] +unblockable"]
    assert codes(changes) == ["RI907"]
    result = compile_text("[probe]\n" + lines[0] + "\n", cache=None)
    assert result.ok and not result.warnings  # RS904 (static auto with a condition) is gone


@pytest.mark.parametrize("text", ["auto = [[if opp.hand.size == 0]] +unblockable",
                                  "auto = ~ringChanges~ [[if me.hand.size == 0]] +unblockable",
                                  "auto = [[if me.ring.size == 1]] +unblockable"])
def test_no_handchanges_without_a_static_me_hand_size_condition(text: str) -> None:
    assert convert(text) == ([text], [])


# --------------------------------------------------------------------------- perspective swap

def test_opp_phase_listener_swaps_expressions_filters_and_piles() -> None:
    text = ("auto = ~oppEndPhase~ [[if me.hand.size > opp.hand.size]] moveTo(deck) to(<r>*@hand); "
            "moveTo(myDiscards) to(*@oppRemoved); damage(100) to(me); draw()")
    lines, changes = convert(text)
    assert lines == ["auto = ~oppEndPhase~ [[if opp.hand.size > me.hand.size]] moveTo(oppDeck) to(<r>*@oppHand); "
                     "moveTo(oppDiscards) to(*@myRemoved); damage(100) to(opp); draw()"]
    assert set(codes(changes)) == {"RI908"}
    compiles(lines)


def test_canblock_on_own_attacker_swaps_and_gets_the_opp_prefix() -> None:
    lines, changes = convert("auto = ?canBlock? [[if me.hand.size <= 2]]")
    assert lines == ["auto = ?oppCanBlock? [[if opp.hand.size <= 2]]"]
    assert codes(changes) == ["RI906", "RI908"]
    compiles(lines)


def test_blocks_on_own_blocker_swaps() -> None:
    lines, changes = convert("auto = ~blocks~ damage(200) to(me)")
    assert lines == ["auto = ~blocks~ damage(200) to(opp)"]
    assert codes(changes) == ["RI908"]


def test_swap_reaches_target_and_vars_of_a_pure_listener() -> None:
    text = "target? = character@ring\nvars = _n := me.hand.size\nauto = ~oppDrawPhase~ bp(+_n)"
    lines, _ = convert(text)
    assert lines == ["target? = character@oppRing", "vars = _n := opp.hand.size", "auto = ~oppDrawPhase~ bp(+_n)"]


def test_target_shared_with_an_action_is_flagged_not_swapped() -> None:
    text = "target = character@ring\naction = bp(+100)\nauto = ~oppEndPhase~ destroy()"
    lines, changes = convert(text)
    assert lines == text.split("\n")
    assert [(c.code, c.severity, c.prop) for c in changes] == [("RI912", "warning", 0)]


def test_swap_leaves_strings_ctrl_and_arena_alone() -> None:
    text = "auto = ~oppEndPhase~ [[may 'me or opp?']] moveTo(ctrlHand) to(characters@arena)"
    assert convert(text) == ([text], [])


def test_any_prefixed_listener_using_me_or_opp_is_flagged_not_changed() -> None:
    lines, changes = convert("auto = ~anyDrawPhase~ hp(-100) to(opp); draw(2)")
    assert lines == ["auto = ~anyDrawPhase~ hp(-100) to(opp); draw(2)"]
    assert [(c.code, c.severity) for c in changes] == [("RI909", "warning")]
    assert "statement 1" in changes[0].message


def test_mixed_trigger_is_flagged_not_swapped() -> None:
    lines, changes = convert("auto = ~oppEndPhase,myEndPhase~ damage(100) to(me)")
    assert lines == ["auto = ~oppEndPhase,myEndPhase~ damage(100) to(me)"]
    assert [(c.code, c.severity) for c in changes] == [("RI911", "warning")]


def test_my_phase_listener_is_not_swapped() -> None:
    text = "auto = ~myEndPhase~ damage(100) to(opp); moveTo(hand) to(*@discards)"
    assert convert(text) == ([text], [])


# --------------------------------------------------------------------------- if-chains

def test_if_chain_followed_by_statements_warns() -> None:
    lines, changes = convert("auto = ~myEndPhase~ [[if me.sp == 0]] sp(+2) [[else]] draw(); hp(+100)")
    assert lines == ["auto = ~myEndPhase~ [[if me.sp == 0]] sp(+2) [[else]] draw(); hp(+100)"]
    assert [(c.code, c.severity) for c in changes] == [("RI910", "warning")]


@pytest.mark.parametrize("text", ["action = draw(); [[if me.sp == 0]] sp(+2) [[elif me.hp < 500]] hp(+100)",
                                  "action = [[if me.sp == 0]] sp(+2); draw()"])
def test_no_if_chain_warning_when_nothing_follows_or_no_elif(text: str) -> None:
    assert convert(text) == ([text], [])


# --------------------------------------------------------------------------- reading the rule text

def test_comments_and_continuations_are_read() -> None:
    rule = parse_rule_text("""
        # a comment line
        target = <,2>characters[bp<=400]@oppRing   # inline
        action = {F}: damage(250)
            ; draw() to(me)   # second
    """)
    assert rule.items[0] == "# a comment line"
    assert [p.key for p in rule.props] == ["target", "action"]
    assert rule.props[1].value == "{F}: damage(250) ; draw() to(me)"
    assert rule.props[0].lines == [("<,2>characters[bp<=400]@oppRing", "# inline")]
    assert rule.props[1].lines[1] == ("; draw() to(me)", "# second")


def test_text_before_any_property_cannot_be_converted() -> None:
    with pytest.raises(ConversionError):
        parse_rule_text("damage(100)\naction = draw()")


def test_unbalanced_text_cannot_be_converted() -> None:
    with pytest.raises(ConversionError) as exc:
        convert("action = damage(100 to(opp)")
    assert "unbalanced" in exc.value.message and exc.value.prop == 0
    assert exc.value.message.startswith("cannot read 'action':")
