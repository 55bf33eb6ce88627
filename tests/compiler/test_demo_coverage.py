"""The bundled demo game compiles cleanly and uses every entry of the CFC profile."""

from __future__ import annotations

import pytest

from rulescript.compiler import compile_game
from rulescript.compiler.profile import load_profile
from tests.conftest import DEMO


@pytest.fixture(scope="module")
def demo():
    return compile_game(DEMO, cache=None)


@pytest.fixture(scope="module")
def profile():
    return load_profile("cfc")


def test_demo_game_compiles_without_errors_or_warnings(demo) -> None:
    assert demo.ok, demo.render()
    assert not demo.warnings, demo.render()
    assert len(demo.rules) >= 60


def test_every_rule_has_a_card_and_every_card_with_text_rules_has_a_rule(demo) -> None:
    ids = {c["id"] for c in demo.cards}
    assert set(demo.rules) <= ids
    for card in demo.cards:
        if card.get("ability") or card["type"] in ("action", "reaction"):
            assert card["id"] in demo.rules, card["id"]


def _expected(profile) -> dict[str, set[str]]:
    commands = {c.name for c in profile.commands.values()} | {"+ability", "-ability", "cmd?()"}
    costs = {k for k, v in profile.costs.items() if not v.get("unsupported")}
    costs |= {"S(filter)", "D(n)", "D(filter)", "D(<r>)"}
    filter_words = set(profile.filter_words) | set(profile.card_types) | {"subtype"}
    filter_words |= {f"{stat} CMP n" for stat in profile.stats}
    filter_words |= {f"bp:{e}" for e in profile.extremes}
    types = set(profile.type_keywords) | {"*", "*s", '"Name"', '"Name"s'}
    types |= set(profile.card_types) | {t + "s" for t in profile.card_types}
    operators = {"+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or",
                 "not", "conditional", "unary-", "quantifier all", "quantifier any", "chained comparison"}
    return {
        "commands": commands,
        "costs": costs,
        "conditions": {"may", "may 'text'", "if", "elif", "else", "condition-only"},
        "chains": {"&", "&&", "||"},
        "clauses": {"to", "target", "from", "to?", "expression target"},
        "keys": {"target", "target?", "action", "label", "abilities", "auto", "requisite", "vars"},
        "filter_words": filter_words,
        "comparisons": {"==", "!=", "<", "<=", ">", ">="},
        "atom_prefixes": {"+", "-", "^", "!"},
        "type_keywords": types,
        "type_prefixes": {"^", "!", "&", ","},
        "quantities": {"<n>", "<a,b>", "<,b>", "<**>", "<r>", "<rN>"},
        "picks": {"<k>", "<-k>"},
        "zones": set(profile.zones),
        "zone_prefixes": set(profile.zone_prefixes),
        "selectors": set(profile.selectors),
        "piles": set(profile.piles),
        "pile_prefixes": set(profile.pile_prefixes),
        "positions": {"top", "bottom", "integer", "?"},
        "arg_forms": {"bpval:xN", "bpval:=e", "bpval:+n", "spval:=e", "spval:+n", "flag:toggle",
                      "each(E in L => …)", "each(filter => …)", "discard(n)", "discard(filter)"},
        "events": set(profile.events),
        "hooks": set(profile.hooks),
        "event_prefixes": set(profile.event_prefixes),
        "event_suffixes": set(profile.event_suffixes),
        "abilities": set(profile.abilities),
        "restrictions": set(profile.restrictions),
        "game_rules": set(profile.game_rules),
        "names": set(profile.names) | {"user variables"},
        "functions": set(profile.functions),
        "attributes": {a for table in profile.attributes.values() for a in table} | {".N"},
        "operators": operators,
    }


def test_every_profile_entry_is_used_by_the_demo_cards(demo, profile) -> None:
    missing = {}
    for category, wanted in _expected(profile).items():
        lacking = wanted - demo.used.get(category, set())
        if lacking:
            missing[category] = sorted(lacking)
    assert not missing, f"profile entries no demo card uses: {missing}"


def test_coverage_check_would_notice_a_missing_entry(profile) -> None:
    from rulescript.compiler import compile_text

    small = compile_text("[x]\naction = draw()\n", cache=None)
    lacking = _expected(profile)["commands"] - small.used.get("commands", set())
    assert "damage" in lacking and "draw" not in lacking
