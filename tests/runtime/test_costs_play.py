import pytest

from rulescript.runtime.errors import GameError, InvalidDecision


def test_character_gains_sp_enters_fresh_and_fires_events_in_order(table):
    g = table.game
    iid = table.card(0, "tiny")
    table.decider.answers = [2]
    g.play_character(0, iid)
    c = table.c(iid)
    assert table.p(0)["sp"] == 3
    assert c["zone"] == "ring" and c["slot"] == 2 and table.p(0)["ring"][2] == iid
    assert c["bp"] == 100 and c["fresh"] and not c["frozen"]
    assert table.p(0)["chars_played"] == 1
    assert table.rules.entered == [iid]
    assert table.rules.names() == ["handchanges", "ringchanges"]
    assert table.decider.requests[0]["kind"] == "choose_slot"
    assert table.decider.requests[0]["options"] == [0, 1, 2, 3]


def test_slot_answer_is_validated(table):
    g = table.game
    table.ring(0, "grunt", slot=1)
    iid = table.card(0, "tiny")
    table.decider.answers = [1]
    with pytest.raises(InvalidDecision) as err:
        g.play_character(0, iid)
    assert "choose_slot" in str(err.value) and "not one of the options" in str(err.value)


def test_paid_character_and_affordability(table):
    g = table.game
    iid = table.card(0, "brute")
    assert not g.can_play_character(0, iid)
    table.p(0)["sp"] = 2
    assert g.can_play_character(0, iid)
    g.play_character(0, iid, slot=0)
    assert table.p(0)["sp"] == 0


def test_one_character_per_turn_and_play_extra_char(table):
    g = table.game
    a, b, c = table.card(0, "tiny"), table.card(0, "tiny"), table.card(0, "tiny")
    g.play_character(0, a, 0)
    assert not g.can_play_character(0, b)
    g.play_extra_char(0)
    assert g.can_play_character(0, b)
    g.play_character(0, b, 1)
    assert not g.can_play_character(0, c)


def test_full_ring_blocks_play(table):
    g = table.game
    for s in range(4):
        table.ring(0, "tiny", slot=s)
    assert not g.can_play_character(0, table.card(0, "tiny"))


def test_bp_limit_rule_uses_smallest_entry(table):
    g = table.game
    big = table.card(0, "grunt")  # 500 BP, gives 1
    assert g.can_play_character(0, big)
    g.add_rule_entry("play_char_bp_limit", None, 0, 900)
    assert g.can_play_character(0, big)
    g.add_rule_entry("play_char_bp_limit", 77, None, 500)
    assert not g.can_play_character(0, big)   # at or above the limit
    assert g.can_play_character(0, table.card(0, "ninja"))
    assert g.rule("play_char_bp_limit", 1) == 500
    assert g.rule("play_char_bp_limit", 0) == 500


@pytest.mark.parametrize("mods,adj,printed,expected", [
    ([], 0, -3, -3),
    ([("+", 1)], 0, -3, -2),
    ([("+", 5)], 0, -3, -1),        # never below 1 SP for a paid card
    ([("-", 2)], 0, -3, -5),
    ([("=", 0)], 0, -3, 0),
    ([("=", -5)], 0, -1, -5),
    ([("=", -4), ("+", 1)], 0, -1, -3),
    ([("+", 1), ("=", -4)], 0, -1, -3),   # '=' sets the base, '+' adds to M in any order
    ([], 2, -3, -1),                 # beforepaycost adjustment from the rules port
    ([("+", 1)], 1, -3, -1),
])
def test_action_cost_computation(table, mods, adj, printed, expected):
    g = table.game
    table.game.models = dict(g.models)
    table.game.models["x"] = {"id": "x", "name": "X", "type": "action", "sp": printed}
    iid = table.card(0, "x")
    for op, v in mods:
        if op == "-":
            g.add_cost_mod("action", "+", -v, None)
        else:
            g.add_cost_mod("action", op, v, None)
    table.rules.cost_m["action"] = adj
    assert g.cost_value("action", 0, iid) == expected


def test_cost_modifiers_are_per_kind_and_never_raise_a_character_gain(table):
    g = table.game
    tiny = table.card(0, "tiny")      # gives 3
    jab = table.card(0, "jab")        # costs 1
    g.add_cost_mod("character", "+", 2, None)
    assert g.cost_value("character", 0, tiny) == 3       # M != 0 and value >= 0: max(base, -1)
    assert g.cost_value("action", 0, jab) == -1
    g.add_cost_mod("action", "+", 3, None)
    assert g.cost_value("action", 0, jab) == -1          # paid card: never below 1 SP
    g.add_cost_mod("action", "=", 4, None)
    assert g.cost_value("action", 0, jab) == 0           # an Action never gives SP
    brute = table.card(0, "brute")
    assert g.cost_value("character", 0, brute) == -1     # -2 + 2 = 0 >= 0 -> max(-2, -1)


def test_action_card_pays_goes_to_table_resolves_and_ends_unac(table):
    g = table.game
    table.p(0)["sp"] = 3
    src = table.ring(0, "grunt")
    mine = g.add_grant("unblockable", src, card=src, until={"when": "unac", "player": 0})
    theirs = g.add_grant("unblockable", src, card=src, until={"when": "unac", "player": 1})
    jab = table.card(0, "jab")
    assert g.play_action(0, jab) is True
    assert table.p(0)["sp"] == 2
    assert table.p(0)["table"] == [jab] and table.c(jab)["zone"] == "table"
    assert table.rules.resolved == [(jab, "action")]
    ids = [e["id"] for e in g.state["lasting"]]
    assert mine["id"] not in ids and theirs["id"] in ids


def test_action_that_stops_stays_played(table):
    g = table.game
    table.rules.result = False
    table.p(0)["sp"] = 1
    jab = table.card(0, "jab")
    assert g.play_action(0, jab) is False
    assert table.p(0)["sp"] == 0 and table.c(jab)["zone"] == "table"


def test_cantplayac_forbids_actions(table):
    g = table.game
    table.p(0)["sp"] = 5
    jab = table.card(0, "jab")
    assert g.can_play_action(0, jab)
    g.add_grant("cantplayac", None, player=0)
    assert not g.can_play_action(0, jab)
    assert {"do": "action", "card": jab} not in g.main_options(0)


def test_pay_refuses_when_short(table):
    g = table.game
    with pytest.raises(GameError):
        g.pay("action", 0, table.card(0, "jab"))


def test_instant_ability_resolves_on_entry_unless_rule_off(make_table):
    t = make_table()
    g = t.game
    a = t.card(0, "inst")
    g.play_character(0, a, 0)
    assert t.rules.resolved == [(a, "instant")]
    t2 = make_table()
    t2.game.add_rule_entry("ab_instant_act", None, None, False)
    b = t2.card(0, "inst")
    t2.game.play_character(0, b, 0)
    assert t2.rules.resolved == []


def test_trigger_activation_conditions_and_used_mark(table):
    g = table.game
    t = table.ring(0, "trig", fresh=True)
    table.rules.actions.add(t)
    assert not g.can_activate(t)                      # fresh
    g.add_rule_entry("ab_trigger_fresh", None, 0, True)
    assert g.can_activate(t)
    table.c(t)["fresh"] = False
    assert g.activate(t) is True
    assert table.c(t)["used"] and not g.can_activate(t)
    g.freeze([t])
    g.unfreeze([t])                                    # unfreezing clears used
    assert not table.c(t)["used"] and g.can_activate(t)
    table.rules.result = "clear"
    g.activate(t)
    assert not table.c(t)["used"]                      # clear(): not marked used
    table.rules.result = False
    g.activate(t)
    assert not table.c(t)["used"]                      # stopped: not marked used
    g.add_rule_entry("ab_trigger_act", None, None, False)
    assert not g.can_activate(t)


def test_trigger_needs_an_action_and_not_frozen_or_attacking(table):
    g = table.game
    t = table.ring(0, "trig")
    assert not g.can_activate(t)
    table.rules.actions.add(t)
    assert g.can_activate(t)
    table.c(t)["frozen"] = True
    assert not g.can_activate(t)
    table.c(t)["frozen"] = False
    g.declare_attack(t)
    assert not g.can_activate(t)


def test_main_phase_offers_everything_and_passes(table):
    g = table.game
    table.p(0)["sp"] = 1
    host = table.ring(0, "grunt")
    t = table.ring(0, "trig")
    table.rules.actions.add(t)
    nin = table.card(0, "ninja")
    jab = table.card(0, "jab")
    opts = g.main_options(0)
    assert {"do": "play", "card": nin} in opts
    assert {"do": "backup", "card": nin, "host": host} in opts
    assert {"do": "action", "card": jab} in opts
    assert {"do": "activate", "card": t} in opts
    assert opts[-1] == {"do": "pass"}
    table.decider.answers = [{"do": "backup", "card": nin, "host": host}, {"do": "pass"}]
    g.main_phase(0)
    assert table.c(host)["bp"] == 800


def test_play_removed_rule_allows_removed_cards(table):
    g = table.game
    r = table.card(0, "tiny", "removed")
    assert {"do": "play", "card": r} not in g.main_options(0)
    g.add_rule_entry("play_removed", None, 0, True)
    assert {"do": "play", "card": r} in g.main_options(0)
    g.play_character(0, r, 3)
    assert table.p(0)["removed"] == [] and table.c(r)["zone"] == "ring"
