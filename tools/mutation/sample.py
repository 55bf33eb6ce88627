"""The fixed sample of mutants that CI runs (tests/tooling/test_mutation.py, ``run.py --sample``)
beside the mutants of issue 22 (known.py): a few of each area, drawn from the seeded sample of
``run.py AREA -n 20 --seed 29`` among the mutants that sample's run killed (and one each of runtime, cfc
and werewolf from the blind seed-41 samples, one of runtime and one of cfc from the blind seed-61 samples,
and one each of aiwolf and octgn from the seed-160 samples, killed by the tests written for them), each with the tests that
kill it (so that CI runs a few test functions per mutant, not the area's whole test list).

A mutant is named by its key (``Mutant.key``: file, line text, column, change), so it is found again
after edits elsewhere in the file.  When its line is changed the key no longer matches and CI says
so: draw the area's mutant again (``run.py --list AREA -n 20 --seed 29``) and record its killing tests.
"""
from __future__ import annotations

from dataclasses import dataclass

SEED = 29  # the seed of the runs the sample was drawn from


@dataclass(frozen=True)
class Sampled:
    area: str
    key: str                  # Mutant.key
    tests: tuple[str, ...]    # pytest node ids that fail with the mutant applied


RT = "tests/runtime/test_rules_pinned.py::"
RN = "tests/werewolf/test_render_pinned.py::"
WW = "tests/werewolf/test_rules_pinned.py::"
CP = "tests/compiler/test_checks_pinned.py::"
AW = "tests/aiwolf/test_rules_pinned.py::"
OC = "tests/octgn_host/test_rules_pinned.py::"

SAMPLE: list[Sampled] = [
    # runtime
    Sampled("runtime", "rulescript/runtime/engine.py | out.append(rule) | 20: out.append(rule) -> pass",
            (RT + "test_a_card_with_a_list_of_rules_has_every_section",)),
    Sampled("runtime", 'rulescript/runtime/engine.py | for flt in rule["requisite"] or []: | 19: '
            'rule["requisite"] or [] -> []', (RT + "test_a_host_is_offered_no_targets_while_a_requisite_fails",)),
    Sampled("runtime", 'rulescript/runtime/engine.py | owner = game.state["cards"][source]["ctrl"] if source in '
            'game.state["cards"] else player | 55: source in game.state["cards"] -> False',
            (RT + "test_the_player_of_before_damage_is_the_controller_of_the_source",)),
    Sampled("runtime", "rulescript/runtime/expr.py | charge(res, len(res.prev), root, node) | 4: "
            "charge(res, len(res.prev), root, node) -> pass",  # (from the blind seed-41 sample)
            (RT + "test_reading_tgt_or_prevtgt_costs_a_step_per_card",)),
    # cfc
    # the blind seed-61 sample (tests/runtime/test_rules_pinned_more.py)
    Sampled("runtime", "rulescript/runtime/expr.py | if isinstance(y, list): | 15: isinstance(y, list) -> False",
            ("tests/runtime/test_rules_pinned_more.py::test_the_size_of_an_element_expression_counts_its_nodes",)),
    Sampled("cfc", 'rulescript/games/cfc/combat.py | kind = "ua2" if n == 1 else "ua3" | 26: == -> !=',
            ("tests/runtime/test_rules_pinned_more.py::test_a_united_attack_pays_the_cost_of_its_size",)),
    Sampled("cfc", 'rulescript/games/cfc/combat.py | if a["lead"] == iid or len(a["followers"]) == 1: | 11: '
            'a["lead"] == iid or len(a["followers"]) == 1 -> a["lead"] == iid',
            (RT + "test_a_united_attack_left_with_one_member_breaks_up_and_a_member_that_cannot_attack_stops",)),
    Sampled("cfc", "rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 17: 0 -> 1",
            (RT + "test_one_point_of_combat_damage_lowers_a_blockers_bp_by_one",)),
    Sampled("cfc", "rulescript/games/cfc/game.py | pile.insert(pos, iid) | 12: pile.insert(pos, iid) -> pass",
            (RT + "test_a_card_created_at_a_position_of_a_pile_lies_there",)),  # (blind seed 41)
    # werewolf
    Sampled("werewolf", "rulescript/games/werewolf/game.py | shown = {} if shown is None else shown | 22: shown is None -> True",
            ("tests/werewolf/test_game_effects.py::test_hidden_voting_power_counts_in_the_tally_but_not_in_its_display",)),
    Sampled("werewolf", 'rulescript/games/werewolf/game.py | if seat not in st["groups"][new]["members"]: | 19: '
            'seat not in st["groups"][new]["members"] -> True',
            (WW + "test_a_player_in_both_groups_of_a_group_change_is_a_member_once",)),
    Sampled("werewolf", 'rulescript/games/werewolf/game.py | if getattr(self.rules, "rules_of", None) is None: | 11: '
            'getattr(self.rules, "rules_of", None) is None -> False',
            (WW + "test_a_game_without_card_rules_plays_its_phases_to_the_day_limit",)),
    Sampled("werewolf", 'rulescript/games/werewolf/game.py | if status == "ghostly" and (alive or not '
            'self.has_attribute(owner, "ghostly")): | 46: or -> and',  # (blind seed 41)
            (WW + "test_a_rule_with_status_ghostly_runs_only_for_a_ghost",)),
    # compiler
    Sampled("compiler", "rulescript/compiler/compile_rule.py | if n < 1: | 15: n < 1 -> True",
            (CP + "test_a_discard_cost_discards_at_least_one_card",)),
    Sampled("compiler", "rulescript/compiler/compile_rule.py | pos += len(part) + 1 | 31: 1 -> 0",
            (CP + "test_an_unknown_word_of_a_list_is_reported_at_that_word",)),
    Sampled("compiler", "rulescript/compiler/driver.py | return [], [Diagnostic(\"error\", \"RD102\", \"cards.yaml must "
            "hold a list under the key 'cards'\", Span(str(path), 1, 1))] | 121: 1 -> 2",
            (CP + "test_a_cards_file_without_a_card_list_is_reported_at_its_start",)),
    # renderer
    Sampled("renderer", "wwrf_adapter/render/exprs.py | if len(parts) > 1: | 26: > -> >=",
            (RN + "test_a_selector_of_one_key_is_not_counted_as_several_keys",)),
    Sampled("renderer", 'wwrf_adapter/render/exprs.py | if v.kind == "host" and v.type == "player": | 11: '
            'v.kind == "host" and v.type == "player" -> v.kind == "host"',
            (RN + "test_only_a_players_host_information_is_a_player",)),
    # aiwolf
    Sampled("aiwolf", "wwrf_adapter/aiwolf/host.py | allowed = [o + 1 for o in options if o != seat]  # whatever the "
            "game offers, never oneself | 47: != -> ==", (AW + "test_a_vote_for_oneself_is_not_counted_as_one",)),
    Sampled("aiwolf", "wwrf_adapter/aiwolf/host.py | for rnd in range(self.setting.max_attack_revote + 1): | 58: 1 -> 2",
            (AW + "test_a_tied_attack_after_the_deciding_execution_is_voted_max_attack_revote_more_times",)),
    Sampled("aiwolf", 'wwrf_adapter/aiwolf/parser.py | notes = (f"put a blank after {glued}",) if glued else '
            "did_you_mean(text, sorted(KEYWORDS)) | 51: glued -> True",
            ("tests/aiwolf/test_parser.py::test_only_a_keyword_glued_to_what_follows_is_told_to_take_a_blank",)),
    Sampled("aiwolf", 'wwrf_adapter/aiwolf/host.py | if which == "ATTACK": | 21: == -> !=',
            ("tests/aiwolf/test_host_pinned.py::test_revotes_by_day_and_night_and_whispers_before_an_attack_revote",)),
    # octgn
    Sampled("octgn", "octgn_pack/host/codec.py | h = ((h ^ 0x301) * _P) & _M | 26: 0x301 -> 770",
            (OC + "test_the_checksum_tells_every_one_step_value_apart",)),
    Sampled("octgn", "octgn_pack/host/codec.py | MAX_START = 1 << 16      # characters of the start item | 12: 1 -> 2",
            (OC + "test_a_start_item_holds_at_most_64_kib",)),
    Sampled("octgn", "octgn_pack/host/codec.py | if len(parts) > limit: | 18: > -> >=",
            (OC + "test_card_ranges_are_ascending_without_overlap_and_counted",)),
    Sampled("octgn", "octgn_pack/host/codec.py | if len(fields) != 4 or pid is None: | 28: or -> and",
            (OC + "test_a_start_item_is_read_seat_by_seat",)),
]
