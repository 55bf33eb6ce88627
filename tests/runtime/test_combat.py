import pytest

from rulescript.runtime.errors import GameError


def attack(t, *leads_and_followers):
    """attack(t, [lead, f1, f2], [lead2]) declares attacks directly."""
    for group in leads_and_followers:
        t.game.declare_attack(group[0])
        for f in group[1:]:
            t.game.join_attack(f, group[0])


def test_unblocked_attack_hits_player_and_fires_playercombatdamaged(table):
    g = table.game
    a = table.ring(0, "grunt")
    attack(table, [a])
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 2500 and not table.p(1)["ncDamaged"]
    hooks = table.rules.hook_calls
    assert hooks == [("cancelcombatdamage", 0, a, {"attacker": a, "blocker": None, "uaBP": 500})]
    assert table.rules.events[-1] == ("playercombatdamaged", 0, a, a,
                                      {"attacker": a, "blocker": None, "uaBP": 500})


def test_cancelcombatdamage_verdict_true_cancels_but_event_still_fires(table):
    g = table.game
    a = table.ring(0, "grunt")
    table.rules.hooks["cancelcombatdamage"] = [False, True]
    attack(table, [a])
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 3000
    assert "playercombatdamaged" in table.rules.names()


def test_dmg_combat_deal_off_for_attacker(table):
    g = table.game
    g.add_rule_entry("dmg_combat_deal", None, 0, False)
    a = table.ring(0, "grunt")
    attack(table, [a])
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 3000


def test_blocked_solo_exchange_and_ko_events(table):
    g = table.game
    a = table.ring(0, "brute")       # 1000
    b = table.ring(1, "grunt")       # 500
    attack(table, [a])
    assert g.declare_block(b, a)
    g.resolve_combat(0)
    assert table.c(a)["bp"] == 500
    assert table.c(b)["zone"] == "discards" and table.c(b)["lastBP"] == 500
    assert table.p(1)["hp"] == 3000                  # no pierce on a solo attack
    names = table.rules.names()
    assert names[:2] == ["blocks", "blocked"]
    assert table.rules.events[0] == ("blocks", 1, b, b, {"attacker": a, "blocker": b, "uaBP": 1000})
    assert table.rules.events[1][:4] == ("blocked", 0, a, a)
    assert names[2:] == ["removed", "ringchanges"]
    assert table.rules.events[2][1:3] == (1, b)


def test_pierce_ability_on_solo_attacker(table):
    g = table.game
    a = table.ring(0, "brute")
    b = table.ring(1, "ninja")                      # 300
    g.add_grant("pierce", None, card=a)
    attack(table, [a])
    g.declare_block(b, a)
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 3000 - 700


def test_united_attack_excess_to_followers_and_piercing(table):
    g = table.game
    table.p(0)["sp"] = 10
    lead = table.ring(0, "ninja", slot=0)           # 300
    f1 = table.ring(0, "tiny", slot=1)              # 100
    f2 = table.ring(0, "grunt", slot=2)             # 500
    blk = table.ring(1, "big")                      # 1500
    attack(table, [lead, f1, f2])
    assert table.c(lead)["ua"] == "lead" and table.c(f2)["ua"] == "follower"
    g.declare_block(blk, lead)
    g.resolve_combat(0)
    # total 900 vs 1500: lead takes 1500 (KO), excess 1200 -> f1 takes it (KO), e = 1100 -> f2 KO
    assert table.c(lead)["zone"] == "discards"
    assert table.c(f1)["zone"] == "discards"
    assert table.c(f2)["zone"] == "discards"
    assert table.c(blk)["bp"] == 600
    assert table.p(1)["hp"] == 3000


def test_united_attack_excess_stops(table):
    g = table.game
    table.p(0)["sp"] = 10
    lead = table.ring(0, "grunt", slot=0)           # 500
    f1 = table.ring(0, "mid", slot=1)               # 700
    f2 = table.ring(0, "ninja", slot=2)             # 300
    blk = table.ring(1, "brute")                    # 1000
    attack(table, [lead, f1, f2])
    g.declare_block(blk, lead)
    g.resolve_combat(0)
    # e = 500 -> f1 takes 500 (700 -> 200), e = 500 - 700 < 0: f2 untouched
    assert table.c(lead)["zone"] == "discards"
    assert table.c(f1)["bp"] == 200
    assert table.c(f2)["bp"] == 300
    # T = 1500 vs 1000: blocker KO, pierce 500 for a United Attack
    assert table.c(blk)["zone"] == "discards"
    assert table.p(1)["hp"] == 2500


def test_preventpierce_and_piercing_rule(make_table):
    for setup, hp in (("preventpierce", 3000), ("rule_off", 3000), ("none", 2700)):
        t = make_table()
        g = t.game
        t.p(0)["sp"] = 10
        lead = t.ring(0, "grunt", slot=0)
        f1 = t.ring(0, "ninja", slot=1)
        blk = t.ring(1, "grunt")
        if setup == "preventpierce":
            g.add_grant("preventpierce", None, card=blk)
        if setup == "rule_off":
            g.add_rule_entry("piercing", None, 0, False)
        attack(t, [lead, f1])
        g.declare_block(blk, lead)
        g.resolve_combat(0)
        assert t.p(1)["hp"] == hp, setup


def test_pierce_not_stopped_by_preventpierce(table):
    g = table.game
    a = table.ring(0, "brute")
    b = table.ring(1, "ninja")
    g.add_grant("pierce", None, card=a)
    g.add_grant("preventpierce", None, card=b)
    attack(table, [a])
    g.declare_block(b, a)
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 2300


def test_join_only_if_affordable_and_cost_paid_in_counter_attack(table):
    g = table.game
    lead = table.ring(0, "grunt", slot=0)
    f1 = table.ring(0, "ninja", slot=1)
    f2 = table.ring(0, "tiny", slot=2)
    g.declare_attack(lead)
    assert not g.can_join(f1, lead)                 # ua2 costs 5
    table.p(0)["sp"] = 5
    assert g.can_join(f1, lead)
    g.join_attack(f1, lead)
    assert not g.can_join(f2, lead)                 # ua3 costs 10
    table.p(0)["sp"] = 10
    g.join_attack(f2, lead)
    assert table.p(0)["sp"] == 10                   # nothing paid while declaring
    g.pay_united_attack(0)
    assert table.p(0)["sp"] == 0
    with pytest.raises(GameError):
        g.join_attack(table.ring(0, "mid", slot=3), lead)   # at most three members


def test_united_attack_dissolves_when_unpaid(table):
    g = table.game
    table.p(0)["sp"] = 5
    lead = table.ring(0, "grunt", slot=0)
    f1 = table.ring(0, "ninja", slot=1)
    g.declare_attack(lead)
    g.join_attack(f1, lead)
    table.p(0)["sp"] = 4
    g.pay_united_attack(0)
    assert table.p(0)["sp"] == 4
    assert [(a["lead"], a["followers"]) for a in g.state["attacks"]] == [(lead, []), (f1, [])]
    assert table.c(lead)["ua"] is None and table.c(f1)["attacking"]


def test_one_united_attack_per_turn(table):
    g = table.game
    table.p(0)["sp"] = 20
    a, b, c, d = [table.ring(0, m, slot=s) for s, m in enumerate(["grunt", "ninja", "tiny", "mid"])]
    g.declare_attack(a)
    g.join_attack(b, a)
    g.declare_attack(c)
    assert not g.can_join(d, c)
    assert g.can_join(d, a)


def test_remove_from_attack_dissolves(table):
    g = table.game
    table.p(0)["sp"] = 20
    a, b, c = [table.ring(0, m, slot=s) for s, m in enumerate(["grunt", "ninja", "tiny"])]
    attack(table, [a, b, c])
    g.remove_from_attack([c])                       # two remain: still a United Attack
    assert g.state["attacks"] == [{"lead": a, "followers": [b], "blocker": None}]
    g.remove_from_attack([a])                       # lead gone: dissolves, b attacks alone
    assert g.state["attacks"] == [{"lead": b, "followers": [], "blocker": None}]
    assert not table.c(a)["attacking"] and table.c(b)["attacking"] and table.c(b)["ua"] is None
    assert table.c(b)["ua_member"]                  # its listeners stay suppressed this turn


def test_dissolve_drops_members_that_cannot_attack(table):
    g = table.game
    table.p(0)["sp"] = 20
    a, b, c = [table.ring(0, m, slot=s) for s, m in enumerate(["grunt", "ninja", "tiny"])]
    attack(table, [a, b, c])
    table.c(c)["frozen"] = True
    g.remove_from_attack([a])
    assert g.state["attacks"] == [{"lead": b, "followers": [], "blocker": None}]
    assert not table.c(c)["attacking"]


def test_unite_is_free_and_caps_at_three(table):
    g = table.game
    a, b, c, d = [table.ring(0, m, slot=s) for s, m in enumerate(["grunt", "ninja", "tiny", "mid"])]
    for x in (a, b, c, d):
        g.declare_attack(x)
    g.unite([b, a, c, d])
    ua = g.united_attack()
    assert ua["lead"] == b and ua["followers"] == [a, c]
    assert len(g.state["attacks"]) == 2 and table.p(0)["sp"] == 0


def test_cantattack_grant_removes_attacker_and_cantblock_cancels_block(table):
    g = table.game
    a = table.ring(0, "grunt")
    b = table.ring(1, "grunt")
    g.declare_attack(a)
    g.declare_block(b, a)
    g.add_grant("cantblock", None, card=b)
    assert table.c(b)["blocking"] is None and not table.c(a)["blocked"]
    g.add_grant("cantattack", None, card=a)
    assert g.state["attacks"] == [] and not table.c(a)["attacking"]
    assert not g.able_to_attack(a)


def test_block_conditions(table):
    g = table.game
    a = table.ring(0, "grunt", slot=0)
    a2 = table.ring(0, "ninja", slot=1)
    b = table.ring(1, "grunt", slot=0, fresh=True)   # fresh characters may block
    b2 = table.ring(1, "tiny", slot=1)
    g.declare_attack(a)
    g.declare_attack(a2)
    assert g.able_to_block(b, a)
    g.add_grant("unblockable", None, card=a)
    assert not g.able_to_block(b, a)
    assert g.declare_block(b, a2)
    assert not g.able_to_block(b2, a2)               # already blocked
    assert not g.able_to_block(b, a2)
    table.c(b2)["frozen"] = True
    opts = g.defense_options(1)
    assert {"do": "withdraw", "card": b} in opts
    assert not [o for o in opts if o["do"] == "block"]
    g.withdraw_block(b)
    assert g.able_to_block(b, a2)


def test_canblock_hook_refuses(table):
    g = table.game
    a = table.ring(0, "grunt")
    b = table.ring(1, "grunt")
    g.declare_attack(a)
    table.rules.hooks["canblock"] = [True, False]
    assert g.declare_block(b, a) is False
    assert table.c(b)["blocking"] is None
    assert table.rules.hook_calls[-1] == ("canblock", 1, a, {"attacker": a, "blocker": b})


def test_attack_requires_unfrozen_unfresh_rule_and_ability(table):
    g = table.game
    a = table.ring(0, "grunt", fresh=True)
    assert not g.able_to_attack(a)
    table.c(a)["fresh"] = False
    assert g.able_to_attack(a)
    g.add_rule_entry("attack", 5, 0, False)
    assert not g.able_to_attack(a)


def test_combat_order_is_by_lead_slot(table):
    g = table.game
    a = table.ring(0, "grunt", slot=3)
    b = table.ring(0, "ninja", slot=0)
    g.declare_attack(a)
    g.declare_attack(b)
    g.resolve_combat(0)
    leads = [e[2] for e in table.rules.events if e[0] == "playercombatdamaged"]
    assert leads == [b, a]
    assert table.p(1)["hp"] == 2200


def test_attacker_left_ring_before_combat_deals_nothing(table):
    g = table.game
    a = table.ring(0, "grunt")
    g.declare_attack(a)
    g.move_cards([a], 0, "hand")
    assert g.state["attacks"] == []
    g.resolve_combat(0)
    assert table.p(1)["hp"] == 3000


def test_blocker_leaving_before_combat_unblocks_and_during_combat_stops_damage(make_table):
    t = make_table()
    g = t.game
    a = t.ring(0, "grunt")
    b = t.ring(1, "tiny")
    g.declare_attack(a)
    g.declare_block(b, a)
    g.move_cards([b], 1, "hand")
    assert not t.c(a)["blocked"] and g.state["attacks"][0]["blocker"] is None
    g.resolve_combat(0)
    assert t.p(1)["hp"] == 2500
    t2 = make_table()
    g2 = t2.game
    a2 = t2.ring(0, "grunt")
    b2 = t2.ring(1, "tiny")
    g2.declare_attack(a2)
    g2.declare_block(b2, a2)
    t2.rules.on_event["blocks"] = lambda game, p, obj: game.move_cards([obj], 1, "hand")
    g2.resolve_combat(0)
    assert t2.p(1)["hp"] == 3000 and t2.c(a2)["bp"] == 500
