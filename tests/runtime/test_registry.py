import pytest

from rulescript.runtime.errors import GameError
from rulescript.games.cfc.lasting import restriction


def test_rule_defaults(table):
    g = table.game
    assert g.rule("attack", 0) is True and g.rule("backup_fresh", 1) is False
    assert g.rule("play_char_bp_limit", 0) is None
    with pytest.raises(GameError):
        g.add_rule_entry("no_such_rule", None, None, True)


def test_bool_rule_false_if_any_entry_false_and_scopes(table):
    g = table.game
    g.add_rule_entry("attack", 10, 0, True)
    assert g.rule("attack", 0) is True
    g.add_rule_entry("attack", 11, 1, False)
    assert g.rule("attack", 0) is True and g.rule("attack", 1) is False
    g.add_rule_entry("attack", 12, None, False)
    assert g.rule("attack", 0) is False
    g.add_rule_entry("backup_fresh", 13, 0, True)
    assert g.rule("backup_fresh", 0) is True and g.rule("backup_fresh", 1) is False


def test_same_rule_source_scope_replaces(table):
    g = table.game
    g.add_rule_entry("piercing", 10, 1, False)
    g.add_rule_entry("piercing", 10, 1, True)
    assert len(g.state["lasting"]) == 1 and g.rule("piercing", 1) is True
    g.add_rule_entry("piercing", 10, 0, False)
    g.add_rule_entry("piercing", 11, 1, False)
    assert len(g.state["lasting"]) == 3


def test_grant_and_mask(table):
    g = table.game
    a = table.ring(0, "grunt")
    assert not g.has_ability(a, "unblockable")
    e1 = g.add_grant("unblockable", 50, card=a)
    g.add_grant("unblockable", 51, card=a)
    assert g.has_ability(a, "unblockable")
    m = g.add_grant("unblockable", 52, card=a, mask=True)
    assert not g.has_ability(a, "unblockable")
    g.end_lasting([m["id"]])
    assert g.has_ability(a, "unblockable")
    g.end_lasting([e1["id"]])
    assert g.has_ability(a, "unblockable")                 # the second grant is still active
    g.withdraw_grant("unblockable", 51, card=a)
    assert not g.has_ability(a, "unblockable")
    g.add_grant("cantplayre", None, player=1)
    assert g.player_has_ability(1, "cantplayre") and not g.player_has_ability(0, "cantplayre")
    assert not g.has_ability(a, "cantplayre")


def test_rush_grant_clears_fresh(table):
    g = table.game
    a = table.ring(0, "grunt", fresh=True)
    g.add_grant("rush", None, card=a)
    assert not table.c(a)["fresh"]


@pytest.mark.parametrize("word,ctrl,expected", [
    ("ueot", 0, {"when": "ueot", "player": 0}), ("myUeot", 1, {"when": "ueot", "player": 1}),
    ("oppUeot", 0, {"when": "ueot", "player": 1}), ("oppunac", 1, {"when": "unac", "player": 0}),
    ("uynt", 1, {"when": "uynt", "player": 1}), ("oppUynt", 1, {"when": "uynt", "player": 0}),
    (None, 0, None),
])
def test_restriction_words(word, ctrl, expected):
    assert restriction(word, ctrl) == expected


def test_source_leaving_play_ends_only_its_unrestricted_effects(table):
    g = table.game
    src = table.ring(0, "grunt")
    other = table.ring(1, "grunt")
    g.add_rule_entry("attack", src, 1, False)
    g.add_grant("cantblock", src, card=other)
    g.add_cost_mod("action", "+", 1, src)
    keep = g.add_grant("unblockable", src, card=other, until=restriction("oppueot", 0))
    other_src = g.add_grant("pierce", other, card=other)
    assert g.rule("attack", 1) is False
    g.damage_chars([src], 1000)
    assert table.c(src)["zone"] == "discards"
    assert [e["id"] for e in g.state["lasting"]] == [keep["id"], other_src["id"]]
    assert g.rule("attack", 1) is True and not g.has_ability(other, "cantblock")


def test_unknown_ability_or_cost_kind_is_an_error(table):
    g = table.game
    a = table.ring(0, "grunt")
    with pytest.raises(GameError, match="unknown ability"):
        g.add_grant("flying", None, card=a)
    with pytest.raises(GameError, match="exactly one"):
        g.add_grant("pierce", None)
    with pytest.raises(GameError, match="unknown cost kind"):
        g.add_cost_mod("ua4", "+", 1, None)
    with pytest.raises(GameError, match="op"):
        g.add_cost_mod("ua2", "-", 1, None)
