"""The CFC game's functions pinned whole (issue 22's mutation test, the cfc area): combat of every
shape, the United Attack's payment, the commands on attacks, blocks, the phases and their records.

Each test runs the real CfcGame (and, where cards have rules, the real engine on compiled
RuleScript: ``RulesTable``) and checks every record the game emits and every mark it sets, with
values worked out by hand from docs/cfc-rules.md (sections cited in each test)."""
from __future__ import annotations

import pytest

from rulescript.runtime.errors import GameError, GameOver
from runtime_table import Script
from test_rules_pinned import RulesTable


def table(p0, p1=(), sp=10, rules=""):
    """A RulesTable with player 0's characters of the BPs ``p0`` (models a, b, c, d in slots 0-3) and
    player 1's of ``p1`` (models wall, foe, ally, src); player 0 has ``sp`` SP. Returns (t, mine, theirs)."""
    t = RulesTable(rules)
    mine = [t.ring(0, m) for m in ("a", "b", "c", "d")[:len(p0)]]
    theirs = [t.ring(1, m) for m in ("wall", "foe", "ally", "src")[:len(p1)]]
    for iid, bp in zip(mine + theirs, list(p0) + list(p1)):
        t.c(iid)["bp"] = t.c(iid)["lastBP"] = bp
    t.game.state["players"][0]["sp"] = sp
    return t, mine, theirs


def ua(t, lead, *followers):
    t.game.declare_attack(lead)
    for f in followers:
        t.game.join_attack(f, lead)


def combat(t):
    """Resolve combat in the End phase; the records it emitted."""
    t.sink.records[:] = []
    t.game.state["phase"] = "end"
    t.game.resolve_combat(0)
    return list(t.sink.records)


def bp(iid, v):
    return {"type": "stat", "card": iid, "stat": "bp", "value": v}


def hp(p, v, dealt):
    return {"type": "stat", "player": p, "stat": "hp", "value": v, "combat": dealt}


def kos(records):
    return sorted(r["card"] for r in records if r["type"] == "ko")


# ---------------------------------------------------------------------------- blocked combat (§7)

def test_a_blocked_united_attack_of_three_passes_the_excess_to_the_followers_until_it_runs_out():
    """§7, blocked, steps 2-5: L 400, F1 600, F2 200 against B 800. T = 1200. B takes 1200 (to 0), L
    takes 800 (to 0); the excess 800 - 400 = 400 passes to F1 (600 -> 200), then drops by F1's 600 to
    -200: F2 is untouched. Piercing 1200 - 800 = 400 (a United Attack, B lacks preventpierce) to
    player 1: 3000 -> 2600. L and B are KO'd."""
    t, (l, f1, f2), (b,) = table((400, 600, 200), (800,))
    ua(t, l, f1, f2)
    assert t.game.declare_block(b, l) is True
    recs = combat(t)
    assert recs[:5] == [{"type": "combat", "lead": l, "blocker": b, "total": 1200, "blocker_bp": 800},
                        bp(b, 0), bp(l, 0), bp(f1, 200), hp(1, 2600, 400)]
    assert kos(recs) == sorted([l, b])
    assert [t.c(i)["bp"] for i in (f1, f2)] == [200, 200] and t.hp(1) == 2600


def test_the_excess_stops_when_it_drops_to_exactly_0():
    """§7 step 3 ("until e is 0 or less"): L 400, F1 300, F2 200 against B 700. T = 900: B takes 900
    (to 0), L takes 700 (to 0); e = 300: F1 takes 300 (to 0), e = 0: F2 keeps 200. Piercing 200."""
    t, (l, f1, f2), (b,) = table((400, 300, 200), (700,))
    ua(t, l, f1, f2)
    t.game.declare_block(b, l)
    recs = combat(t)
    assert recs[:6] == [{"type": "combat", "lead": l, "blocker": b, "total": 900, "blocker_bp": 700},
                        bp(b, 0), bp(l, 0), bp(f1, 0), hp(1, 2800, 200), recs[5]]
    assert kos(recs) == sorted([l, f1, b]) and t.c(f2)["bp"] == 200 and t.c(f2)["zone"] == "ring"


def test_an_excess_larger_than_every_follower_reaches_both():
    """L 100, F1 200, F2 300 against B 1000: T = 600, B takes 600 (1000 -> 400), L takes 1000 (to 0);
    e = 900: F1 takes 900 (to 0), e = 700: F2 takes 700 (to 0). No piercing (600 - 1000 < 0)."""
    t, (l, f1, f2), (b,) = table((100, 200, 300), (1000,))
    ua(t, l, f1, f2)
    t.game.declare_block(b, l)
    recs = combat(t)
    assert recs[:5] == [{"type": "combat", "lead": l, "blocker": b, "total": 600, "blocker_bp": 1000},
                        bp(b, 400), bp(l, 0), bp(f1, 0), bp(f2, 0)]
    assert not [r for r in recs if r.get("stat") == "hp"] and t.hp(1) == 3000
    assert kos(recs) == sorted([l, f1, f2]) and t.c(b)["bp"] == 400 and t.c(b)["zone"] == "ring"


@pytest.mark.parametrize("blocker_bp, after", [
    (400, (0, 0, 300, 300)),    # B's BP equal to L's: no excess, F keeps 300; piercing 700 - 400 = 300
    (300, (0, 100, 300, 400)),  # B below L: L 400 -> 100, no excess; piercing 400
    (401, (0, 0, 299, 299)),    # one above: excess 1 to F (300 -> 299); piercing 299
])
def test_the_excess_of_a_blocker_over_the_lead_of_two(blocker_bp, after):
    """A United Attack of two, L 400 and F 300 (T = 700), blocked by B: B takes 700, L takes B's BP,
    F takes B - L when that is above 0; piercing T - B. ``after``: B's, L's and F's BP, then the damage
    to player 1."""
    t, (l, f), (b,) = table((400, 300), (blocker_bp,))
    ua(t, l, f)
    t.game.declare_block(b, l)
    combat(t)
    assert (t.c(b)["bp"], t.c(l)["bp"], t.c(f)["bp"], 3000 - t.hp(1)) == after


@pytest.mark.parametrize("lead_bp, blocker_bp, lead_has, blocker_has, dealt", [
    (500, 300, (), (), 0),                        # solo without pierce: no piercing
    (500, 300, ("pierce",), (), 200),             # solo with pierce: 500 - 300
    (500, 500, ("pierce",), (), 0),               # piercing 0 is not above 0
    (500, 499, ("pierce",), (), 1),               # piercing 1 is
    (500, 300, ("pierce",), ("preventpierce",), 200),  # preventpierce stops only a United Attack's
])
def test_a_solo_attack_pierces_only_with_pierce(lead_bp, blocker_bp, lead_has, blocker_has, dealt):
    """§7 step 4: p = T - B's BP; above 0, with piercing on, if (United Attack and B lacks
    preventpierce) or L has pierce, D takes p combat damage."""
    t, (l,), (b,) = table((lead_bp,), (blocker_bp,))
    for ab in lead_has:
        t.game.add_grant(ab, None, card=l)
    for ab in blocker_has:
        t.game.add_grant(ab, None, card=b)
    t.game.declare_attack(l)
    t.game.declare_block(b, l)
    recs = combat(t)
    assert t.hp(1) == 3000 - dealt
    assert [r for r in recs if r.get("stat") == "hp"] == ([hp(1, 3000 - dealt, dealt)] if dealt else [])
    assert t.c(l)["bp"] == max(0, lead_bp - blocker_bp) and t.c(b)["bp"] == max(0, blocker_bp - lead_bp)


@pytest.mark.parametrize("blocker_has, lead_has, dealt", [
    ((), (), 300),
    (("preventpierce",), (), 0),
    (("preventpierce",), ("pierce",), 300),   # the lead's pierce still pierces
])
def test_preventpierce_stops_a_united_attacks_piercing_unless_the_lead_has_pierce(blocker_has, lead_has, dealt):
    """L 300 and F 200 (T = 500) against B 200: piercing 300."""
    t, (l, f), (b,) = table((300, 200), (200,))
    for ab in blocker_has:
        t.game.add_grant(ab, None, card=b)
    for ab in lead_has:
        t.game.add_grant(ab, None, card=l)
    ua(t, l, f)
    t.game.declare_block(b, l)
    combat(t)
    assert t.hp(1) == 3000 - dealt
    assert (t.c(l)["bp"], t.c(f)["bp"], t.c(b)["bp"]) == (100, 200, 0)


def test_without_combat_damage_no_bp_changes_but_piercing_is_still_dealt_and_without_piercing_none():
    """§7 steps 3-4 are separate: ``dmg_combat_deal`` off for the attacker keeps every BP; piercing
    (L 300 + F 200 = 500 against B 200: 300) is dealt while ``piercing`` is on. With ``piercing`` off
    too, player 1 takes nothing."""
    for piercing_off, dealt in ((False, 300), (True, 0)):
        t, (l, f), (b,) = table((300, 200), (200,))
        t.game.add_rule_entry("dmg_combat_deal", None, 0, False)
        if piercing_off:
            t.game.add_rule_entry("piercing", None, 0, False)
        ua(t, l, f)
        t.game.declare_block(b, l)
        recs = combat(t)
        assert recs[0] == {"type": "combat", "lead": l, "blocker": b, "total": 500, "blocker_bp": 200}
        assert not [r for r in recs if r.get("stat") == "bp"] and not kos(recs)
        assert t.hp(1) == 3000 - dealt and (t.c(l)["bp"], t.c(f)["bp"], t.c(b)["bp"]) == (300, 200, 200)
        # the rules of the defending player do not count: rules of player 1 off leave player 0's combat alone
        t2, (l2,), (b2,) = table((500,), (300,))
        t2.game.add_rule_entry("dmg_combat_deal", None, 1, False)
        t2.game.declare_attack(l2)
        t2.game.declare_block(b2, l2)
        combat(t2)
        assert (t2.c(l2)["bp"], t2.c(b2)["zone"]) == (200, "discards")


# ---------------------------------------------------------------------------- unblocked combat

def test_an_unblocked_united_attack_deals_its_total_and_attacks_resolve_in_slot_order():
    """§6 End and §7: attacks resolve in the slot order of their leads, not the order declared. Player
    0 declares d (slot 3, 250) alone, then a United Attack of a (slot 0, 400) with c (slot 2, 300): it
    resolves first (700: 3000 -> 2300), then d (250: 2050)."""
    t, (a, b, c, d), _ = table((400, 100, 300, 250))
    t.game.declare_attack(d)
    ua(t, a, c)
    recs = combat(t)
    assert recs == [{"type": "combat", "lead": a, "blocker": None, "total": 700}, hp(1, 2300, 700),
                    {"type": "combat", "lead": d, "blocker": None, "total": 250}, hp(1, 2050, 250)]
    assert not t.game.state["players"][1]["ncDamaged"]


def test_an_unblocked_attack_without_combat_damage_deals_nothing():
    t, (a,), _ = table((400,))
    t.game.add_rule_entry("dmg_combat_deal", None, None, False)
    t.game.declare_attack(a)
    assert combat(t) == [{"type": "combat", "lead": a, "blocker": None, "total": 400}] and t.hp(1) == 3000


def test_combat_damage_takes_a_player_at_most_to_0_and_the_game_ends_at_once():
    """§7 and §10: 2500 then 600 against 3000 HP: 500, then 0 (not -100); the player at 0 HP loses at
    the check after that damage, and nothing more resolves (the game ends with GameOver)."""
    t, (a, b), _ = table((2500, 600))
    t.game.declare_attack(a)
    t.game.declare_attack(b)
    with pytest.raises(GameOver):
        combat(t)
    recs = t.sink.records
    assert recs == [{"type": "combat", "lead": a, "blocker": None, "total": 2500}, hp(1, 500, 2500),
                    {"type": "combat", "lead": b, "blocker": None, "total": 600}, hp(1, 0, 600),
                    {"type": "gameover", "winner": 0, "reason": "player 1 at 0 HP"}]


# ---------------------------------------------------------------------------- the United Attack (§5, §7)

def marks(t, *iids):
    """(attacking, ua, ua_member, blocked) of each card."""
    return [(t.c(i)["attacking"], t.c(i)["ua"], t.c(i)["ua_member"], t.c(i)["blocked"]) for i in iids]


def attacks(t):
    return [(a["lead"], a["followers"], a["blocker"]) for a in t.game.state["attacks"]]


@pytest.mark.parametrize("followers, sp, left", [(1, 5, 0), (1, 7, 2), (2, 10, 0), (2, 12, 2)])
def test_the_united_attack_is_paid_in_the_counter_attack_phase_by_its_size(followers, sp, left):
    """§5 Costs: a United Attack costs 5 SP per follower (ua2 5, ua3 10), paid in the Counter-attack
    phase; the record gives the new SP and the cost."""
    t, ids, _ = table((400, 300, 200), sp=sp)
    ua(t, ids[0], *ids[1:1 + followers])
    t.sink.records[:] = []
    t.game.pay_united_attack(0)
    assert t.sink.records == [{"type": "stat", "player": 0, "stat": "sp", "value": left, "cost": -5 * followers}]
    assert t.game.state["players"][0]["sp"] == left
    assert attacks(t) == [(ids[0], ids[1:1 + followers], None)]


def test_a_united_attack_that_can_no_longer_be_paid_breaks_up_into_solo_attacks_in_its_place():
    """§7: player 0 declares d alone, then a (lead) with b and c (10 SP, exactly ua3's cost). Before the
    Counter-attack phase player 0 has 9 SP and b is frozen: the United Attack breaks up; a and c attack
    alone in its place (after d's attack), b stops; no SP is spent."""
    t, (a, b, c, d), _ = table((400, 300, 200, 100), sp=10)
    t.game.declare_attack(d)
    ua(t, a, b, c)
    assert marks(t, a, b, c) == [(True, "lead", True, False), (True, "follower", True, False),
                                 (True, "follower", True, False)]
    t.game.state["players"][0]["sp"] = 9
    t.c(b)["frozen"] = True
    t.sink.records[:] = []
    t.game.pay_united_attack(0)
    assert t.sink.records == [{"type": "message", "text": "the United Attack cannot be paid; it dissolves"}]
    assert t.game.state["players"][0]["sp"] == 9
    assert attacks(t) == [(d, [], None), (a, [], None), (c, [], None)]
    # every member was in a United Attack this turn; only those still attacking attack
    assert marks(t, a, b, c, d) == [(True, None, True, False), (False, None, True, False),
                                    (True, None, True, False), (True, None, False, False)]
    t.game.pay_united_attack(0)           # no United Attack left: nothing to pay
    assert len(t.sink.records) == 1


def test_without_a_united_attack_nothing_is_paid():
    t, (a, b), _ = table((400, 300), sp=3)
    t.game.declare_attack(a)
    t.game.declare_attack(b)
    t.sink.records[:] = []
    t.game.pay_united_attack(0)
    assert t.sink.records == [] and t.game.state["players"][0]["sp"] == 3


def test_joining_needs_the_sp_of_the_new_size_a_lead_and_room_and_only_one_united_attack():
    """§7: a character may join only if P could pay the United Attack of the new size (ua2 5 SP, ua3
    10 SP), only an attack's lead can be joined, up to two followers, one United Attack per turn."""
    t, (a, b, c, d), _ = table((400, 300, 200, 100), sp=9)
    g = t.game
    g.declare_attack(a)
    assert g.can_join(b, a) is True           # ua2: 5 <= 9
    g.join_attack(b, a)
    assert g.can_join(c, a) is False          # ua3: 10 > 9
    g.state["players"][0]["sp"] = 10
    assert g.can_join(c, a) is True
    assert g.can_join(c, b) is False          # b is a follower, not a lead
    g.join_attack(c, a)
    g.state["players"][0]["sp"] = 99
    assert g.can_join(d, a) is False          # three members already
    t2, (a2, b2, c2, d2), _ = table((400, 300, 200, 100), sp=99)
    g2 = t2.game
    ua(t2, a2, b2)
    g2.declare_attack(c2)
    assert g2.can_join(d2, c2) is False       # a second United Attack
    assert g2.can_join(d2, a2) is True
    with pytest.raises(GameError):
        g2.join_attack(d2, c2)
    assert g2.can_join(d2, d2) is False       # d2 leads no attack


def test_cancelling_a_lead_cancels_its_attack_and_a_follower_leaves_alone():
    """§7: during the declaration, cancelling a follower takes only it out (the lead stays the lead of
    the rest); cancelling the lead cancels the whole attack. The records name the cancelled card."""
    t, (a, b, c), _ = table((400, 300, 200), sp=10)
    g = t.game
    ua(t, a, b, c)
    t.sink.records[:] = []
    g.cancel_attack(b)
    assert attacks(t) == [(a, [c], None)]
    assert marks(t, a, b, c) == [(True, "lead", True, False), (False, None, True, False),
                                 (True, "follower", True, False)]
    g.cancel_attack(c)
    assert attacks(t) == [(a, [], None)] and marks(t, a)[0][:2] == (True, None)
    g.join_attack(c, a)
    g.cancel_attack(a)
    assert attacks(t) == [] and [m[:2] for m in marks(t, a, b, c)] == [(False, None)] * 3
    assert t.sink.records == [{"type": "cancel_attack", "card": b}, {"type": "cancel_attack", "card": c},
                              {"type": "unite", "card": c, "lead": a}, {"type": "cancel_attack", "card": a}]
    with pytest.raises(GameError):
        g.cancel_attack(a)


def test_the_declaration_offers_attacks_joins_and_cancels_and_ends_when_done():
    """§6 Attack and §12: each choose_attack offers an attack for each able character (ring order), a
    join for each attack's lead and each able character that could join it, a cancel for each
    attacker, and done; with nothing but done to offer, nothing is asked. Player 0 has 5 SP (a
    United Attack of two, not of three)."""
    t, (a, b, c), _ = table((400, 300, 200), sp=5)
    script = t.game.decider = Script([{"do": "attack", "card": a}, {"do": "join", "card": b, "lead": a},
                                      {"do": "cancel", "card": b}, {"do": "done"}])
    t.game.declare_attacks(0)
    assert [r["options"] for r in script.requests] == [
        [{"do": "attack", "card": a}, {"do": "attack", "card": b}, {"do": "attack", "card": c}, {"do": "done"}],
        [{"do": "attack", "card": b}, {"do": "attack", "card": c}, {"do": "join", "card": b, "lead": a},
         {"do": "join", "card": c, "lead": a}, {"do": "cancel", "card": a}, {"do": "done"}],
        [{"do": "attack", "card": c}, {"do": "cancel", "card": a}, {"do": "cancel", "card": b}, {"do": "done"}],
        [{"do": "attack", "card": b}, {"do": "attack", "card": c}, {"do": "join", "card": b, "lead": a},
         {"do": "join", "card": c, "lead": a}, {"do": "cancel", "card": a}, {"do": "done"}]]
    assert [(r["kind"], r["player"], r["prompt"]) for r in script.requests] == [("choose_attack", 0, "declare attacks")] * 4
    assert attacks(t) == [(a, [], None)]
    # nobody able and no attack: done alone is not asked
    t2, (x,), _ = table((400,))
    t2.c(x)["frozen"] = True
    t2.game.decider = Script([])
    t2.game.declare_attacks(0)
    assert t2.game.decider.requests == []


# ---------------------------------------------------------------------------- a whole turn (§6)

def _phase(name, **more):
    return dict({"type": "phase", "player": 0, "phase": name}, **more)


def _decision(kind, player, answer, prompt):
    return {"type": "decision", "kind": kind, "player": player, "answer": answer, "prompt": prompt}


def test_a_turn_goes_through_its_seven_phases_with_every_record_in_order():
    """§6, the first turn of player 0 (the first player): a is frozen and used, b fresh, an Action card
    of player 0 was left on the table; player 1's wall (350 BP) stands opposite.

    Activate: a unfreezes and loses its used mark, b its fresh mark (a mark already off changes
    nothing, so no record), the Action card is discarded. Draw: skipped (first player, first turn).
    Main: nothing to play, nothing asked. Attack: a attacks, b joins it (5 of player 0's 6 SP), done.
    Counter-attack: the United Attack is paid (6 - 5 = 1 SP), player 1 blocks with wall, then passes.
    End: a and b freeze; combat: T = 400 + 300 = 700 against 350: wall to 0, a takes 350 (400 -> 50),
    no excess (350 < 400), piercing 700 - 350 = 350 (3000 -> 2650); wall is KO'd. Cleanup: combat
    state and the United Attack marks clear; player 1 plays next."""
    t, (a, b), (w,) = table((400, 300), (350,), sp=6)
    g = t.game
    g.state["turn"] = 0
    g.state["next_player"] = None           # the first player starts
    t.c(a)["frozen"] = t.c(a)["used"] = True
    t.c(b)["fresh"] = True
    jab = g.create_card("bolt", 0, "table")
    g.decider = Script([{"do": "attack", "card": a}, {"do": "join", "card": b, "lead": a}, {"do": "done"},
                        {"do": "block", "card": w, "attack": a}, {"do": "pass"}])
    t.sink.records[:] = []
    g.play_turn()
    marker = lambda iid, m, v: {"type": "marker", "card": iid, "marker": m, "value": v}
    atk, dfn = "declare attacks", "reactions and blocks"
    assert t.sink.records == [
        {"type": "turn", "turn": 1, "player": 0},
        _phase("activate"), marker(a, "frozen", False), marker(a, "used", False), marker(b, "fresh", False),
        {"type": "move", "card": jab, "from": [0, "table"], "to": [0, "discards"]},
        _phase("draw"), {"type": "message", "text": "the first player skips the first draw"},
        _phase("main"),
        _phase("attack"),
        _decision("choose_attack", 0, {"do": "attack", "card": a}, atk), {"type": "attack", "card": a},
        _decision("choose_attack", 0, {"do": "join", "card": b, "lead": a}, atk),
        {"type": "unite", "card": b, "lead": a},
        _decision("choose_attack", 0, {"do": "done"}, atk),
        _phase("counter-attack"), {"type": "stat", "player": 0, "stat": "sp", "value": 1, "cost": -5},
        _decision("choose_defense", 1, {"do": "block", "card": w, "attack": a}, dfn),
        {"type": "block", "card": w, "lead": a},
        _decision("choose_defense", 1, {"do": "pass"}, dfn),
        _phase("end"), marker(a, "frozen", True), marker(b, "frozen", True),
        {"type": "combat", "lead": a, "blocker": w, "total": 700, "blocker_bp": 350},
        bp(w, 0), bp(a, 50), hp(1, 2650, 350),
        {"type": "ko", "card": w}, {"type": "move", "card": w, "from": [1, "ring"], "to": [1, "discards"]},
        _phase("cleanup")]
    assert [r["options"] for r in g.decider.requests] == [
        [{"do": "attack", "card": a}, {"do": "attack", "card": b}, {"do": "done"}],
        [{"do": "attack", "card": b}, {"do": "join", "card": b, "lead": a}, {"do": "cancel", "card": a},
         {"do": "done"}],
        [{"do": "cancel", "card": a}, {"do": "cancel", "card": b}, {"do": "done"}],
        [{"do": "block", "card": w, "attack": a}, {"do": "pass"}],
        [{"do": "withdraw", "card": w}, {"do": "pass"}]]
    st = g.state
    assert (st["turn"], st["active"], st["next_player"], st["phase"], st["attacks"]) == (1, 0, 1, "cleanup", [])
    assert marks(t, a, b) == [(False, None, False, False)] * 2
    assert [(t.c(i)["frozen"], t.c(i)["bp"]) for i in (a, b)] == [(True, 50), (True, 300)]
    assert st["players"][0]["turns_taken"] == 1 and st["players"][1]["turns_taken"] == 0


def test_a_skipped_cleanup_keeps_the_effects_until_the_end_of_turn_and_an_extra_turn_is_used_up():
    """§6, turn 5 of player 1 (not the first player): player 1's frozen wall has frosted (it stays
    frozen, and no character can attack: the Attack phase has a message and no Counter-attack phase
    follows); the grant lasting until player 1's next turn (uynt) ends in Activate; player 1 draws;
    passes in Main. Cleanup is on player 1's skip list: skipped (and taken off the list), so the
    effects lasting until the end of player 1's turn (ueot, unac) stay. Player 1 had an extra turn:
    it is used up and player 1 plays again."""
    t, (a,), (w,) = table((400,), (350,))
    g = t.game
    st = g.state
    st["turn"], st["next_player"] = 4, 1
    t.c(w)["frozen"] = True
    g.add_grant("frosted", None, card=w)
    g.add_grant("pierce", None, card=a, until={"when": "ueot", "player": 1})
    uynt = g.add_grant("pierce", None, card=w, until={"when": "uynt", "player": 1})
    g.add_grant("pierce", None, card=a, until={"when": "uynt", "player": 0})
    g.add_grant("cantplayac", None, player=0, until={"when": "unac", "player": 1})
    st["players"][1]["skip"] = ["cleanup"]
    st["players"][1]["extra_turns"] = 1
    drawn = g.create_card("foe", 1, "deck")
    g.decider = Script([{"do": "pass"}])
    t.sink.records[:] = []
    g.play_turn()
    p1 = lambda name, **more: dict({"type": "phase", "player": 1, "phase": name}, **more)
    assert t.sink.records == [
        {"type": "turn", "turn": 5, "player": 1},
        p1("activate"), {"type": "lasting_end", "entry": uynt["id"], "what": "grant"},
        p1("draw"), {"type": "move", "card": drawn, "from": [1, "deck"], "to": [1, "hand"]},
        p1("main"), _decision("choose_main_action", 1, {"do": "pass"}, "main phase"),
        p1("attack"), {"type": "message", "text": "no character can attack"},
        p1("end"),
        p1("cleanup", skipped=True)]
    assert t.c(w)["frozen"] is True
    assert [(e["ability"], e["until"]) for e in st["lasting"]] == [
        ("frosted", None), ("pierce", {"when": "ueot", "player": 1}), ("pierce", {"when": "uynt", "player": 0}),
        ("cantplayac", {"when": "unac", "player": 1})]
    assert (st["players"][1]["skip"], st["players"][1]["extra_turns"], st["next_player"], st["active"]) == ([], 0, 1, 1)
    assert st["phase"] == "end"             # a skipped phase is not entered
    # the next turn is player 1's again; without an extra turn the one after is player 0's
    g.decider = Script([{"do": "pass"}] * 2)
    g.create_card("foe", 1, "deck")
    t.sink.records[:] = []
    g.play_turn()
    assert t.sink.records[0] == {"type": "turn", "turn": 6, "player": 1} and st["next_player"] == 0
    assert {"type": "phase", "player": 1, "phase": "cleanup"} in t.sink.records
    # Cleanup ended player 1's ueot and unac effects
    assert [(e["ability"], e["until"]) for e in st["lasting"]] == [
        ("frosted", None), ("pierce", {"when": "uynt", "player": 0})]


def test_a_player_who_must_draw_from_an_empty_deck_loses_and_a_game_at_its_turn_limit_is_a_draw():
    """§6 Draw and §10: player 1 (not the first player) has an empty deck at the Draw phase: player 1
    loses, player 0 wins, at once. §6: a game reaching its turn limit ends in a draw."""
    t, _, _ = table((400,), (350,))
    g = t.game
    g.state["turn"], g.state["next_player"] = 1, 1
    g.decider = Script([])
    t.sink.records[:] = []
    with pytest.raises(GameOver):
        g.play_turn()
    assert t.sink.records[-2:] == [{"type": "phase", "player": 1, "phase": "draw"},
                                   {"type": "gameover", "winner": 0, "reason": "player 1 must draw from an empty deck"}]
    st = g.state
    assert (st["over"], st["winner"], st["result"]) == (True, 0, "win")
    t2, _, _ = table((400,), (350,))
    g2 = t2.game
    g2.state["turn"], g2.state["turn_limit"], g2.state["next_player"] = 7, 7, 1
    t2.sink.records[:] = []
    assert g2.run() == {"winner": None, "result": "draw", "reason": "turn limit (7 turns)", "turns": 7}
    assert t2.sink.records == [{"type": "gameover", "winner": None, "reason": "turn limit (7 turns)"}]


def test_combat_damage_of_1_to_a_character_of_1_bp():
    """§7: combat damage lowers BP by the damage, at most to 0; the smallest amounts count. L 500
    blocked by B of 1 BP: B takes 500 (1 -> 0), L takes 1 (500 -> 499)."""
    t, (l,), (b,) = table((500,), (1,))
    t.game.declare_attack(l)
    t.game.declare_block(b, l)
    recs = combat(t)
    assert recs[:3] == [{"type": "combat", "lead": l, "blocker": b, "total": 500, "blocker_bp": 1},
                        bp(b, 0), bp(l, 499)]
    assert kos(recs) == [b] and t.c(l)["bp"] == 499


# ---------------------------------------------------------------------------- defence: reactions and blocks (§5, §7)

SHIELD = {"id": "shield", "name": "Shield", "type": "reaction", "sp": -1, "text": ""}


def defence_table(rules):
    """Player 0's a (500) and b (400) attack alone; player 1 holds wall (300) and foe (200) and, in
    the hand, the Reaction Shield (1 SP; player 1 has 1 SP)."""
    import test_rules_pinned as pinned
    saved = list(pinned.MODELS)
    pinned.MODELS.append(SHIELD)
    try:
        t = RulesTable(rules)
    finally:
        pinned.MODELS[:] = saved
    t.models["shield"] = SHIELD
    t.game.models["shield"] = SHIELD
    a, b = t.ring(0, "a"), t.ring(0, "b")
    wall, foe = t.ring(1, "wall"), t.ring(1, "foe")
    for iid, v in ((a, 500), (b, 400), (wall, 300), (foe, 200)):
        t.c(iid)["bp"] = t.c(iid)["lastBP"] = v
    shield = t.game.create_card("shield", 1, "hand")
    t.game.state["players"][1]["sp"] = 1
    t.game.state["phase"] = "counter-attack"
    t.game.declare_attack(a)
    t.game.declare_attack(b)
    return t, (a, b, wall, foe, shield)


def test_the_defender_plays_reactions_blocks_withdraws_and_passes_with_every_record():
    """§7 Blocking and §12: each choose_defense offers each Reaction player 1 can play, a block for
    each of player 1's characters and each attack it could block (the ``canblock`` hook asked without
    a trace: a's listener refuses blockers of 250 BP or less, so foe may not block a), a withdraw for
    each blocker, and pass. Player 1 plays Shield (1 SP to 0; its action gives 50 HP), blocks a with
    wall, withdraws it, blocks b with foe and passes."""
    t, (a, b, wall, foe, shield) = defence_table(
        "[a]\nauto = ?oppCanBlock? [[if blocker.bp > 250]]\n[shield]\naction = hp(+50)\n")
    g = t.game
    block = lambda x, lead: {"do": "block", "card": x, "attack": lead}
    g.decider = Script([{"do": "reaction", "card": shield}, block(wall, a), {"do": "withdraw", "card": wall},
                        block(foe, b), {"do": "pass"}])
    t.sink.records[:] = []
    g.declare_defense(1)
    assert [r["options"] for r in g.decider.requests] == [
        [{"do": "reaction", "card": shield}, block(wall, a), block(wall, b), block(foe, b), {"do": "pass"}],
        [block(wall, a), block(wall, b), block(foe, b), {"do": "pass"}],
        [block(foe, b), {"do": "withdraw", "card": wall}, {"do": "pass"}],
        [block(wall, a), block(wall, b), block(foe, b), {"do": "pass"}],
        [block(wall, a), {"do": "withdraw", "card": foe}, {"do": "pass"}]]
    dec = lambda answer: _decision("choose_defense", 1, answer, "reactions and blocks")
    assert t.sink.records == [
        dec({"do": "reaction", "card": shield}),
        {"type": "stat", "player": 1, "stat": "sp", "value": 0, "cost": -1},
        {"type": "move", "card": shield, "from": [1, "hand"], "to": [1, "table"]},
        {"type": "stat", "player": 1, "stat": "hp", "value": 3050},
        dec(block(wall, a)), {"type": "block", "card": wall, "lead": a},
        dec({"do": "withdraw", "card": wall}), {"type": "unblock", "card": wall, "lead": a},
        dec(block(foe, b)), {"type": "block", "card": foe, "lead": b},
        dec({"do": "pass"})]
    assert attacks(t) == [(a, [], None), (b, [], foe)]
    assert [(t.c(i)["blocked"], t.c(i)["blocking"]) for i in (a, b, wall, foe)] == [
        (False, None), (True, None), (False, None), (False, b)]
    with pytest.raises(GameError):
        g.declare_block(wall, b)             # b is blocked already
    with pytest.raises(GameError):
        g.declare_block(foe, a)              # foe blocks b already
    t.sink.records[:] = []
    g.withdraw_block(wall)                   # wall blocks nothing: nothing happens
    g.withdraw_block(foe)
    # a block the hook refuses, declared anyway: refused with a message, nothing changes
    assert g.declare_block(foe, a) is False
    assert t.sink.records == [{"type": "unblock", "card": foe, "lead": b},
                              {"type": "message", "text": "block refused", "card": foe, "lead": a}]
    assert attacks(t) == [(a, [], None), (b, [], None)]
    assert [(t.c(i)["blocked"], t.c(i)["blocking"]) for i in (a, b, wall, foe)] == [(False, None)] * 4


def test_with_no_attack_left_the_defender_is_asked_nothing():
    t, (a, b, wall, foe, shield) = defence_table("")
    g = t.game
    g.cancel_attack(a)
    g.cancel_attack(b)
    g.decider = Script([])
    g.declare_defense(1)
    assert g.decider.requests == []


# ---------------------------------------------------------------------------- removeFromAttack() and unite() (§7)

def test_remove_from_attack_takes_out_a_follower_then_the_lead_and_a_solo_attacker_and_frees_their_blocker():
    """§7: a (lead), b and c attack together, blocked by wall. removeFromAttack() of b (a follower of
    three) leaves a and c, still blocked; of a (the lead of two, one member would be left) breaks it
    up: c attacks alone, unblocked, wall blocks nothing; of wall (not attacking) does nothing; of c
    (alone) ends its attack. Each card taken out gets a record; the United Attack marks stay for the
    turn."""
    t, (a, b, c), (wall,) = table((400, 300, 200), (900,), sp=10)
    g = t.game
    ua(t, a, b, c)
    g.declare_block(wall, a)
    t.sink.records[:] = []
    g.remove_from_attack([b])
    assert attacks(t) == [(a, [c], wall)]
    assert marks(t, a, b, c) == [(True, "lead", True, True), (False, None, True, False),
                                 (True, "follower", True, False)]
    g.remove_from_attack([a, wall])
    assert attacks(t) == [(c, [], None)] and t.c(wall)["blocking"] is None
    assert marks(t, a, c) == [(False, None, True, False), (True, None, True, False)]
    g.remove_from_attack([c])
    assert attacks(t) == [] and marks(t, c) == [(False, None, True, False)]
    assert t.sink.records == [{"type": "remove_from_attack", "card": x} for x in (b, a, c)]


def test_remove_from_attack_of_a_blocked_solo_attack_frees_its_blocker():
    t, (a,), (wall,) = table((400,), (900,))
    g = t.game
    g.declare_attack(a)
    g.declare_block(wall, a)
    g.remove_from_attack([a])
    assert attacks(t) == [] and marks(t, a) == [(False, None, False, False)] and t.c(wall)["blocking"] is None


def test_the_lead_of_three_taken_out_leaves_its_followers_each_alone_if_they_can_attack():
    """§7: a led b and c; c is frozen meanwhile: taking a out breaks the United Attack up; b attacks
    alone in its place, c stops."""
    t, (a, b, c, d), _ = table((400, 300, 200, 100), sp=10)
    g = t.game
    ua(t, a, b, c)
    g.declare_attack(d)
    t.c(c)["frozen"] = True
    g.remove_from_attack([a])
    assert attacks(t) == [(b, [], None), (d, [], None)]
    assert marks(t, a, b, c) == [(False, None, True, False), (True, None, True, False), (False, None, True, False)]


def test_unite_forms_a_united_attack_for_free_from_the_first_free_attacker_up_to_three():
    """§7: unite() of b, d, c, a, all attacking alone (d blocked by wall): b leads, d and c join (d's
    block is withdrawn: one blocker per attack, and the United Attack is blocked through its lead), a
    finds no room; no SP is paid. Then unite() of a again: the United Attack is full, nothing."""
    t, (a, b, c, d), (wall,) = table((400, 300, 200, 100), (900,), sp=0)
    g = t.game
    for x in (a, b, c, d):
        g.declare_attack(x)
    g.declare_block(wall, d)
    t.sink.records[:] = []
    g.unite([b, d, c, a])
    assert attacks(t) == [(a, [], None), (b, [d, c], None)]
    assert t.sink.records == [{"type": "unite", "card": d, "lead": b}, {"type": "unite", "card": c, "lead": b}]
    assert marks(t, a, b, c, d) == [(True, None, False, False), (True, "lead", True, False),
                                    (True, "follower", True, False), (True, "follower", True, False)]
    assert t.c(wall)["blocking"] is None and g.state["players"][0]["sp"] == 0
    g.unite([a])
    assert attacks(t) == [(a, [], None), (b, [d, c], None)] and len(t.sink.records) == 2


def test_unite_extends_the_united_attack_with_free_attackers_and_ignores_the_rest():
    """§7: a United Attack of a and b; unite() of wall (player 1's, not attacking), b (already a member)
    and c (attacking alone) adds c only."""
    t, (a, b, c), (wall,) = table((400, 300, 200), (900,), sp=5)
    g = t.game
    ua(t, a, b)
    g.declare_attack(c)
    t.sink.records[:] = []
    g.unite([wall, b, c])
    assert attacks(t) == [(a, [b, c], None)]
    assert t.sink.records == [{"type": "unite", "card": c, "lead": a}]
    g.unite([])
    t2, (x, y), _ = table((400, 300))
    t2.game.declare_attack(x)
    t2.sink.records[:] = []
    t2.game.unite([x, y])                  # y is not attacking: x alone forms nothing
    assert attacks(t2) == [(x, [], None)] and marks(t2, x) == [(True, None, False, False)]
    assert t2.sink.records == []


# ---------------------------------------------------------------------------- the game object: ports, lasting effects, the end

@pytest.mark.parametrize("mn, mx, n, ok", [
    (0, 0, 0, True), (2, 2, 2, True), (0, 3, 1, True), (1, 1, 1, True),
    (3, 3, 2, False),      # more than there are options
    (2, 1, 5, False),      # min above max
    (-1, 1, 3, False),     # below 0
])
def test_a_choice_of_targets_must_be_possible(mn, mx, n, ok):
    """docs/runtime.md, Decisions: choose_targets asks for min..max distinct options; a request the
    player cannot answer is the game's error, named with the numbers and the prompt."""
    t, _, _ = table(())
    if ok:
        t.game.check_request("choose_targets", list(range(n)), mn, mx, "why")
    else:
        with pytest.raises(GameError) as err:
            t.game.check_request("choose_targets", list(range(n)), mn, mx, "why")
        assert str(err.value) == "cannot choose %d..%d of %d options (why)" % (mn, mx, n)
    t.game.check_request("choose_slot", [], 5, 1, "other kinds are not counted")


def test_grants_masks_and_their_ends_act_at_once_on_the_table():
    """§4, §7, §9: +rush on a fresh character ends its fresh mark; +cantattack on an attacker takes it
    out of its attack; +cantblock on a blocker withdraws its block; a mask (-cantattack) withdrawn
    lets cantattack act again. Each grant is a record; each end is a record of its entry."""
    t, (a, b), (wall,) = table((400, 300), (900,))
    g = t.game
    t.c(b)["fresh"] = True
    g.declare_attack(a)
    g.declare_block(wall, a)
    t.sink.records[:] = []
    e1 = g.add_grant("rush", 7, card=b)
    e2 = g.add_grant("cantblock", 7, card=wall)
    assert t.sink.records == [
        {"type": "ability", "ability": "rush", "card": b, "player": None, "mask": False},
        {"type": "marker", "card": b, "marker": "fresh", "value": False},
        {"type": "ability", "ability": "cantblock", "card": wall, "player": None, "mask": False},
        {"type": "unblock", "card": wall, "lead": a}]
    assert (e1["type"], e1["ability"], e1["card"], e1["player"], e1["source"], e1["until"]) == ("grant", "rush", b, None, 7, None)
    assert t.c(b)["fresh"] is False and attacks(t) == [(a, [], None)]
    # a mask first: the grant of cantattack does nothing while it lasts
    m = g.add_grant("cantattack", 8, card=a, mask=True)
    g.add_grant("cantattack", 9, card=a)
    assert attacks(t) == [(a, [], None)] and m["type"] == "mask"
    t.sink.records[:] = []
    g.withdraw_grant("cantattack", 8, card=a, mask=True)
    assert t.sink.records == [{"type": "lasting_end", "entry": m["id"], "what": "mask"},
                              {"type": "remove_from_attack", "card": a}]
    assert attacks(t) == []
    # withdrawing names one source, one ability and one holder
    t.sink.records[:] = []
    g.withdraw_grant("rush", 8, card=b)
    g.withdraw_grant("rush", 7, card=a)
    g.withdraw_grant("cantblock", 7, card=b)
    assert t.sink.records == []
    g.withdraw_grant("rush", 7, card=b)
    assert t.sink.records == [{"type": "lasting_end", "entry": e1["id"], "what": "grant"}]
    assert not g.has_ability(b, "rush") and g.has_ability(wall, "cantblock") and e2 in g.state["lasting"]
    pe = g.add_grant("cantplayac", None, player=1)
    assert t.sink.records[-1] == {"type": "ability", "ability": "cantplayac", "card": None, "player": 1, "mask": False}
    assert g.player_has_ability(1, "cantplayac") and not g.player_has_ability(0, "cantplayac") and pe["player"] == 1


def test_the_game_refuses_grants_rules_and_cost_modifiers_it_does_not_know():
    t, (a,), _ = table((400,))
    g = t.game
    for call, message in [(lambda: g.add_grant("flying", None, card=a), "unknown ability 'flying'"),
                          (lambda: g.add_grant("rush", None), "an ability goes to exactly one card or one player"),
                          (lambda: g.add_grant("rush", None, card=a, player=0), "an ability goes to exactly one card or one player"),
                          (lambda: g.add_rule_entry("gravity", None, None, True), "unknown game rule 'gravity'"),
                          (lambda: g.add_cost_mod("action", "*", 2, None), "alterCost op must be '=' or '+', got '*'"),
                          (lambda: g.add_cost_mod("spell", "+", 2, None), "unknown cost kind 'spell'")]:
        with pytest.raises(GameError) as err:
            call()
        assert str(err.value) == message
    assert g.state["lasting"] == []
    e = g.add_cost_mod("ua2", "=", -3, 5, until={"when": "ueot", "player": 0})
    assert {k: e[k] for k in ("type", "cost", "op", "value", "source", "until")} == {
        "type": "cost", "cost": "ua2", "op": "=", "value": -3, "source": 5, "until": {"when": "ueot", "player": 0}}
    assert g.cost_value("ua2", 0, None, 1) == -3


def test_a_rule_entry_from_the_same_source_and_scope_replaces_the_earlier_one():
    """§11: the same rule applied again from the same source and scope replaces the entry; another
    source or scope adds one. Each is a record."""
    t, _, _ = table(())
    g = t.game
    t.sink.records[:] = []
    g.add_rule_entry("attack", 4, 0, False)
    g.add_rule_entry("attack", 4, 0, True)
    g.add_rule_entry("attack", 4, 1, False)
    g.add_rule_entry("attack", 5, 0, False)
    assert [(e["rule"], e["source"], e["scope"], e["value"]) for e in g.state["lasting"]] == [
        ("attack", 4, 0, True), ("attack", 4, 1, False), ("attack", 5, 0, False)]
    assert t.sink.records == [{"type": "rule", "rule": "attack", "scope": s, "value": v, "source": src}
                              for src, s, v in ((4, 0, False), (4, 0, True), (4, 1, False), (5, 0, False))]
    assert g.rule("attack", 0) is False and g.rule("attack", 1) is False
    g.end_effects_of(5)
    assert g.rule("attack", 0) is True and g.rule("attack", 1) is False


@pytest.mark.parametrize("hp0, hp1, winner, reason", [
    (0, 0, None, "both players at 0 HP"), (0, 1, 1, "player 0 at 0 HP"), (1, 0, 0, "player 1 at 0 HP")])
def test_a_player_at_0_hp_loses_and_both_at_once_is_a_draw(hp0, hp1, winner, reason):
    t, _, _ = table(())
    g = t.game
    g.state["players"][0]["hp"], g.state["players"][1]["hp"] = hp0, hp1
    t.sink.records[:] = []
    with pytest.raises(GameOver) as over:
        g.check_over()
    assert (over.value.winner, over.value.reason) == (winner, reason)
    st = g.state
    assert (st["over"], st["winner"], st["result"], st["reason"]) == (True, winner, "draw" if winner is None else "win", reason)
    assert t.sink.records == [{"type": "gameover", "winner": winner, "reason": reason}]
    # once over, every later check (or concession) raises the same end and records nothing more
    st["players"][0]["hp"] = st["players"][1]["hp"] = 5
    for again in (g.check_over, lambda: g.concede(0)):
        with pytest.raises(GameOver) as over:
            again()
        assert (over.value.winner, over.value.reason) == (winner, reason)
    assert len(t.sink.records) == 1


def test_both_players_above_0_go_on_and_a_concession_ends_the_game():
    t, _, _ = table(())
    g = t.game
    g.state["players"][0]["hp"], g.state["players"][1]["hp"] = 1, 1
    g.check_over()
    assert g.state["over"] is False
    with pytest.raises(GameOver):
        g.concede(1)
    assert (g.state["winner"], g.state["reason"], g.state["result"]) == (0, "player 1 conceded", "win")


def test_settling_kos_every_character_at_0_bp_the_active_players_first_in_slot_order():
    """§10: characters at 0 BP are KO'd when the step ends, with their backups; the active player's
    ring first (the order of the records)."""
    t, (a, b, c), (x, y) = table((0, 300, 0), (0, 0))
    g = t.game
    g.state["active"] = 1
    t.sink.records[:] = []
    g.settle()
    assert kos(t.sink.records) == sorted([a, c, x, y])
    assert [r["card"] for r in t.sink.records if r["type"] == "ko"] == [x, y, a, c]
    assert [t.c(i)["zone"] for i in (a, b, c, x, y)] == ["discards", "ring", "discards", "discards", "discards"]


# ---------------------------------------------------------------------------- refusals and small queries

def test_the_game_refuses_moves_the_rules_forbid_with_a_message_naming_the_card():
    """§5, §7, §3: an attack by a character that cannot attack, a character played into a taken slot,
    a trigger ability that cannot be activated, a card id the game does not know."""
    t, (a, b), _ = table((400, 300))
    g = t.game
    t.c(a)["frozen"] = True
    hand = g.create_card("c", 0, "hand")
    g.state["players"][0]["sp"] = 10
    for call, message in [(lambda: g.declare_attack(a), "card %d cannot attack" % a),
                          (lambda: g.play_character(0, hand, slot=1), "slot 1 is not free"),
                          (lambda: g.activate(a), "card %d cannot activate its ability now" % a),
                          (lambda: g.create_card("nope", 0, "hand"), "unknown card id 'nope'"),
                          (lambda: g.join_attack(b, a), "card %d cannot join the attack of %d" % (b, a)),
                          (lambda: g.cancel_attack(b), "card %d is not attacking" % b)]:
        with pytest.raises(GameError) as err:
            call()
        assert str(err.value) == message
    assert g.card(a) is g.state["cards"][a] and attacks(t) == []


@pytest.mark.parametrize("word, controller, until", [
    (None, 0, None),
    ("ueot", 0, {"when": "ueot", "player": 0}), ("myUEOT", 1, {"when": "ueot", "player": 1}),
    ("oppueot", 0, {"when": "ueot", "player": 1}), ("unac", 1, {"when": "unac", "player": 1}),
    ("myunac", 0, {"when": "unac", "player": 0}), ("oppUnac", 1, {"when": "unac", "player": 0}),
    ("uynt", 0, {"when": "uynt", "player": 0}), ("myuynt", 1, {"when": "uynt", "player": 1}),
    ("oppuynt", 1, {"when": "uynt", "player": 0}),
])
def test_a_restriction_word_names_when_and_whose_turn_a_lasting_effect_ends(word, controller, until):
    """§4 and docs/language.md (restrictions): ueot / unac / uynt end at the end of the controller's
    turn, at their next Action card, at the start of their next turn; my... is the controller's, opp...
    the opponent's; case does not matter."""
    from rulescript.games.cfc import lasting
    assert lasting.restriction(word, controller) == until


def test_an_unknown_restriction_word_is_refused():
    from rulescript.games.cfc import lasting
    with pytest.raises(ValueError) as err:
        lasting.restriction("forever", 0)
    assert str(err.value) == "unknown restriction 'forever'"


def test_unite_counts_a_card_named_twice_once():
    """unite() of a, a, b (all attacking alone): a leads, b joins; the second a is a's own attack."""
    t, (a, b), _ = table((400, 300))
    g = t.game
    g.declare_attack(a)
    g.declare_attack(b)
    g.unite([a, a, b])
    assert attacks(t) == [(a, [b], None)]


def test_a_game_continues_from_a_saved_state_and_run_checks_in_between_turns():
    """docs/runtime.md: a game made with ``state=`` continues from it; ``run(checkpoint)`` calls the
    checkpoint between turns, not after the last one. Player 1 has no deck: turn 2 (player 1's) ends
    the game at its Draw phase, so the checkpoint runs once, after turn 1."""
    from rulescript.games.cfc.game import CfcGame
    t, (a,), _ = table((400,))
    g = t.game
    g.state["turn"], g.state["next_player"] = 0, 0
    seen = []
    g2 = CfcGame(t.models, None, Script([{"do": "done"}]), sink=t.sink, rules=t.engine, state=g.state)
    assert g2.state is g.state and g2.state["players"][0]["ring"][0] == a
    assert g2.run(checkpoint=lambda game: seen.append((game.state["turn"], game.state["next_player"]))) == {
        "winner": 0, "result": "win", "reason": "player 1 must draw from an empty deck", "turns": 2}
    assert seen == [(1, 1)]


# ---------------------------------------------------------------------------- commands on rules (docs/language.md 6.5)

def test_steal_takes_nothing_more_from_a_donor_that_lost_its_rules_meanwhile():
    """docs/language.md 6.5: ``steal()``: the receiver copies the first target's rules, which the
    first target then loses. Here the receiver's own listener (``~powerless~``, heard when its rules
    are replaced) already takes the donor's rules away: the donor loses them once (one record), the
    receiver holds the donor's rules."""
    t = RulesTable("[src]\naction = steal() to(character@oppRing)\nauto = ~powerless~ loseAbility() to(character@oppRing)\n"
                   "[foe]\naction = hp(+5)\n")
    src, foe = t.ring(0, "src"), t.ring(1, "foe")
    t.sink.records[:] = []
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.sink.records == [{"type": "rules", "card": foe, "rules": None},
                              {"type": "rules", "card": src, "rules": "foe"}]
    assert (t.c(src)["rules"], t.c(foe)["rules"]) == ("foe", None)


def test_cards_played_from_the_removed_pile_do_not_change_the_hand():
    """§5 (From the removed pile) and the event table: ``handChanges`` fires when a card leaves the
    hand; a card played from the removed pile (``play_removed`` on) does not. ally's listener adds
    100 HP per hand change (and ran once when it loaded: 3100). A Bolt from the removed pile: only its
    own +1 (3101); a Bolt from the hand: +100 then +1 (3202); character c from the removed pile: no
    change (3202); character d from the hand: +100 (3302)."""
    t = RulesTable("[ally]\nauto = ~handChanges~ hp(+100)\n[bolt]\naction = hp(+1)\n")
    g = t.game
    t.ring(0, "ally")
    assert t.hp(0) == 3100
    g.add_rule_entry("play_removed", None, 0, True)
    b1, b2, c1 = g.create_card("bolt", 0, "removed"), g.create_card("bolt", 0, "hand"), g.create_card("c", 0, "removed")
    g.state["players"][0]["sp"] = 5
    assert set(g.playable_from(0)) == {b1, b2, c1}
    t.sink.records[:] = []
    assert g.play_action(0, b1) is True and t.hp(0) == 3101
    assert g.play_action(0, b2) is True and t.hp(0) == 3202
    assert g.play_character(0, c1, slot=2) == c1 and t.hp(0) == 3202
    g.state["players"][0]["chars_allowed"] = 2
    d1 = g.create_card("d", 0, "hand")
    assert g.play_character(0, d1, slot=3) == d1 and t.hp(0) == 3302     # from the hand: +100
    assert [r for r in t.sink.records if r["type"] == "move"] == [
        {"type": "move", "card": b1, "from": [0, "removed"], "to": [0, "table"]},
        {"type": "move", "card": b2, "from": [0, "hand"], "to": [0, "table"]},
        {"type": "move", "card": c1, "from": [0, "removed"], "to": [0, "ring"], "slot": 2},
        {"type": "move", "card": d1, "from": [0, "hand"], "to": [0, "ring"], "slot": 3}]


# ---------------------------------------------------------------------------- costs with a filter (docs/language.md 5.3)

@pytest.mark.parametrize("cost, hand, ok, hp", [
    ("{D(<2,3>character)}", 1, False, 3000),   # fewer than the least number: the action stops, nothing paid
    ("{D(<2,3>character)}", 2, True, 3012),    # exactly two: both discarded, no question
    ("{D(<0,1>character)}", 0, True, 3010),    # a least number of 0: paid with no card
    ("{S(<0,1>^character@myRing)}", 0, True, 3010),
    ("{S(^character@myRing)}", 0, False, 3000),  # all (at least one) of none
])
def test_a_cost_with_a_filter_needs_the_least_number_its_quantity_names(cost, hand, ok, hp):
    """docs/language.md 5.3: a discard or sacrifice cost with a filter can be paid when the filter
    offers at least its least number of cards (``<a,b>``: a; a plain filter: one). The action adds
    10 HP plus one per card discarded or sacrificed."""
    size = "discarded" if cost.startswith("{D") else "sacrificed"
    t = RulesTable("[src]\naction = %s: hp(+10 + %s.size)\n" % (cost, size))
    src = t.ring(0, "src")
    cards = [t.game.create_card("a", 0, "hand") for _ in range(hand)]
    assert t.engine.resolve_action(t.game, src, "trigger") is ok and not t.engine.errors
    assert t.hp(0) == hp
    assert [t.c(i)["zone"] for i in cards] == (["discards"] * hand if ok else ["hand"] * hand)


def test_move_to_slot_moves_only_a_card_in_a_ring():
    """docs/language.md: ``moveToSlot()`` moves the first target, a character in a ring, to an empty
    slot of its ring; a first target elsewhere (a discard pile) is left alone, without an error."""
    t = RulesTable("[src]\naction = moveToSlot() to(character@myDiscards)\n")
    src = t.ring(0, "src")
    gone = t.game.create_card("a", 0, "discards")
    t.sink.records[:] = []
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.sink.records == [] and t.c(gone)["zone"] == "discards" and t.c(src)["slot"] == 0
    t2 = RulesTable("[src]\naction = moveToSlot() to(opp)\n")          # no card among the targets
    src2 = t2.ring(0, "src")
    assert t2.engine.resolve_action(t2.game, src2, "trigger") is True and not t2.engine.errors
    t3 = RulesTable("[src]\naction = moveToSlot() to(character@myRing)\n", answers=[2])
    src3 = t3.ring(0, "src")
    t3.sink.records[:] = []
    assert t3.engine.resolve_action(t3.game, src3, "trigger") is True and not t3.engine.errors
    assert t3.c(src3)["slot"] == 2 and t3.game.state["players"][0]["ring"] == [None, None, src3, None]
    assert {"type": "slot", "card": src3, "slot": 2} in t3.sink.records


def test_a_blocker_given_another_ability_keeps_its_block_and_an_attacker_too():
    """§7: only cantblock withdraws a block and only cantattack takes a character out of its attack;
    a blocker given pierce (or unfreezable) keeps blocking, an attacker given preventpierce keeps
    attacking."""
    t, (a,), (wall,) = table((400,), (900,))
    g = t.game
    g.declare_attack(a)
    g.declare_block(wall, a)
    for ability, who in (("pierce", wall), ("unfreezable", wall), ("preventpierce", a), ("rush", wall)):
        g.add_grant(ability, None, card=who)
    assert attacks(t) == [(a, [], wall)] and t.c(wall)["blocking"] == a and t.c(a)["blocked"] is True


def test_a_game_made_without_decks_starts_with_empty_piles():
    """docs/runtime.md: CfcGame(models) with no decks: both decks are empty (and a game with decks
    creates one card per id, in order, in each deck)."""
    from rulescript.games.cfc.game import CfcGame
    t, _, _ = table(())
    g = CfcGame(t.models)
    assert [pl["deck"] for pl in g.state["players"]] == [[], []] and g.state["cards"] == {}
    g2 = CfcGame(t.models, [["a", "b"], ["wall"]])
    assert [[g2.state["cards"][i]["model"] for i in pl["deck"]] for pl in g2.state["players"]] == [["a", "b"], ["wall"]]
    assert [g2.state["cards"][i]["owner"] for i in sorted(g2.state["cards"])] == [0, 0, 1]


# ---------------------------------------------------------------------------- what the player is shown (docs/language.md 6.2)

@pytest.mark.parametrize("command, shown", [
    ("peek()", [{"what": "peek", "viewer": 0, "owner": 1, "pile": "hand", "cards": ["h1"]}]),
    ("reveal() to(character@oppRing)", [{"what": "reveal", "cards": ["foe"]}]),
    ("reveal() to(opp)", []),                                   # no card among the targets: nothing shown
    ("reveal(oppHand)", [{"what": "reveal", "owner": 1, "pile": "hand", "cards": ["h1"]}]),
    ("reveal(hand)", [{"what": "reveal", "owner": 0, "pile": "hand", "cards": []}]),
    ("reveal(myDiscards) to(players)", [{"what": "reveal", "owner": 0, "pile": "discards", "cards": ["d0"]},
                                        {"what": "reveal", "owner": 1, "pile": "discards", "cards": ["d1"]}]),
    ("reveal(ctrlHand) to(character@oppRing)", [{"what": "reveal", "owner": 1, "pile": "hand", "cards": ["h1"]}]),
    ("reveal(hand) to(character@oppRing)", [{"what": "reveal", "owner": 0, "pile": "hand", "cards": []}]),  # my: the controller's
    ("pileView(removed, expanded)", [{"what": "pileview", "owner": 0, "pile": "removed", "style": "expanded"}]),
    ("pileView(oppDeck, collapsed)", [{"what": "pileview", "owner": 1, "pile": "deck", "style": "collapsed"}]),
])
def test_peek_reveal_and_pile_view_show_what_the_table_says(command, shown):
    """docs/language.md 6.2: ``peek()``: the controller looks at the opponent's hand; ``reveal()``
    shows the target cards, ``reveal(pile)`` the target players' pile (the controller's when no
    player is targeted; ``ctrl``: the first target card's controller's); ``pileView`` is presentation
    only. Each is a message record naming the controller and the source; nothing else changes."""
    t = RulesTable("[src]\naction = %s\n" % command)
    src, foe = t.ring(0, "src"), t.ring(1, "foe")
    names = {"foe": foe, "h1": t.game.create_card("a", 1, "hand"), "d0": t.game.create_card("b", 0, "discards"),
             "d1": t.game.create_card("c", 1, "discards")}
    t.sink.records[:] = []
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    expected = []
    for s in shown:
        rec = dict({"type": "message", "player": 0, "source": src}, **s)
        if "cards" in rec:
            rec["cards"] = [names[n] for n in rec["cards"]]
        expected.append(rec)
    assert t.sink.records == expected


class PortWithoutProbe(object):
    """A rules port written to the table of docs/runtime.md before ``probe_hook`` existed: NoRules'
    methods, but not that one."""

    def __init__(self):
        from rulescript.runtime.ports import NoRules
        self._base = NoRules()

    def __getattr__(self, name):
        if name == "probe_hook":
            raise AttributeError(name)
        return getattr(self._base, name)


@pytest.mark.parametrize("port", ["NoRules", "without probe_hook"])
def test_without_card_rules_every_block_the_table_allows_is_offered(port):
    """docs/runtime.md, Only legal options are offered: a block is offered unless the ``canblock``
    hook would refuse it; without card rules (NoRules, or a port that cannot probe hooks, where only
    asking could tell) every block the table allows is offered, and declared."""
    from rulescript.games.cfc.game import CfcGame
    models = {m: {"id": m, "name": m, "type": "character", "subtype": "x", "bp": 500, "sp": 0, "backup": [], "text": ""}
              for m in ("a", "b")}
    rules = None if port == "NoRules" else PortWithoutProbe()
    g = CfcGame(models, [[], []], Script([{"do": "block", "card": 2, "attack": 1}, {"do": "pass"}]), first=0,
                rules=rules)
    for p, m in ((0, "a"), (1, "b")):
        iid = g.create_card(m, p, "hand")
        g.state["players"][p]["hand"].remove(iid)
        g.state["cards"][iid].update(zone="ring", slot=0, bp=500, fresh=False)
        g.state["players"][p]["ring"][0] = iid
    g.state["phase"] = "counter-attack"
    g.declare_attack(1)
    assert g.block_allowed(2, 1) is True
    assert g.defense_options(1) == [{"do": "block", "card": 2, "attack": 1}, {"do": "pass"}]
    g.declare_defense(1)
    assert g.state["attacks"] == [{"lead": 1, "followers": [], "blocker": 2}]


def test_an_attack_taken_out_by_an_earlier_attacks_listener_deals_no_damage():
    """§7 and docs/language.md 4.3: attacks resolve one by one; an attack that an earlier attack's
    listener took out of combat (``removeFromAttack``) no longer deals damage, though its character
    stays in the ring. a (400, slot 0) hits player 1 (3000 -> 2600); its ``playerCombatDamaged``
    listener takes b (300, slot 1) out: player 1 stays at 2600."""
    t, (a, b), _ = table((400, 300), rules="[a]\nauto = ~playerCombatDamaged~ removeFromAttack() to('B'@myRing)\n")
    t.game.declare_attack(a)
    t.game.declare_attack(b)
    recs = combat(t)
    assert not t.engine.errors
    assert recs == [{"type": "combat", "lead": a, "blocker": None, "total": 400}, hp(1, 2600, 400),
                    {"type": "remove_from_attack", "card": b}]
    assert t.hp(1) == 2600 and t.c(b)["zone"] == "ring" and attacks(t) == [(a, [], None)]


def test_ending_lasting_effects_gives_back_the_entries_that_ended():
    """``end_lasting`` / ``expire`` / ``end_effects_of`` give back the entries that ended (an empty list
    when none did): player 0's ueot grant ends at player 0's end of turn, not at player 1's."""
    t, (a,), _ = table((400,))
    g = t.game
    e = g.add_grant("pierce", None, card=a, until={"when": "ueot", "player": 0})
    assert g.expire(("ueot",), 1) == [] and g.end_effects_of(a) == [] and g.end_lasting([]) == []
    assert g.expire(("ueot", "unac"), 0) == [e] and g.state["lasting"] == []
