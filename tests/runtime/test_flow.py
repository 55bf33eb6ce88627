"""Setup and whole turns on a real table, with scripted decisions."""
import pytest

from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.errors import GameOver
from rulescript.games.cfc.lasting import restriction

from runtime_table import MODELS, Recorder, Script

DECK = ["tiny", "grunt", "ninja", "mid", "jab", "wall"] * 8 + ["tiny", "grunt"]


def new_game(answers=(), first=0, rules=None, seed=3, decks=None):
    dec = Script(answers)
    g = CfcGame(MODELS, decks or [list(DECK), list(DECK)], dec, rules=rules or Recorder(), seed=seed,
                first=first)
    return g, dec


def test_setup_shuffles_draws_five_and_first_player():
    g, _ = new_game(first=1)
    g.setup()
    st = g.state
    for p in (0, 1):
        assert len(st["players"][p]["hand"]) == 5 and len(st["players"][p]["deck"]) == 45
    assert st["first"] == 1 and st["active"] == 1
    assert st["players"][0]["deck"] != st["players"][1]["deck"]
    order = [g.state["cards"][i]["model"] for i in st["players"][0]["hand"] + st["players"][0]["deck"]]
    assert sorted(order) == sorted(DECK) and order != DECK
    g2, _ = new_game(first=None, seed=3)
    g2.setup()
    assert g2.state["first"] in (0, 1)
    firsts = set()
    for seed in range(12):
        g3, _ = new_game(first=None, seed=seed)
        g3.setup()
        firsts.add(g3.state["first"])
    assert firsts == {0, 1}


def test_first_turn_skips_draw_second_draws_and_turn_order():
    g, dec = new_game()
    g.setup()
    pas = lambda req: req["options"][-1]          # noqa: E731  pass / done
    dec.answers = [pas] * 20
    g.play_turn()
    assert len(g.state["players"][0]["hand"]) == 5
    assert g.state["next_player"] == 1
    g.play_turn()
    assert g.state["active"] == 1 and len(g.state["players"][1]["hand"]) == 6
    g.play_turn()
    assert g.state["active"] == 0 and len(g.state["players"][0]["hand"]) == 6
    assert g.state["turn"] == 3
    assert [r["kind"] for r in dec.requests] == ["choose_main_action"] * 3


def test_phase_events_in_order():
    rules = Recorder()
    g, dec = new_game(rules=rules)
    g.setup()
    dec.answers = [lambda r: {"do": "pass"}]
    rules.events[:] = []
    g.play_turn()
    names = [e[0] for e in rules.events if e[0].endswith("phase")]
    assert names == ["activatephase", "endphase", "cleanupphase"]     # first turn: no draw
    dec.answers = [lambda r: {"do": "pass"}]
    rules.events[:] = []
    g.play_turn()
    names = [e[0] for e in rules.events if e[0].endswith("phase")]
    assert names == ["activatephase", "drawphase", "endphase", "cleanupphase"]
    assert all(e[1] == 1 for e in rules.events if e[0].endswith("phase"))


def test_activate_phase_unfreezes_clears_marks_discards_table():
    g, dec = new_game()
    g.setup()
    st = g.state
    a = g.create_card("grunt", 0, "hand")
    st["players"][0]["hand"].remove(a)
    c = st["cards"][a]
    c.update({"zone": "ring", "slot": 0, "bp": 500, "frozen": True, "fresh": True, "used": True})
    st["players"][0]["ring"][0] = a
    f = g.create_card("ninja", 0, "hand")
    st["players"][0]["hand"].remove(f)
    st["cards"][f].update({"zone": "ring", "slot": 1, "bp": 300, "frozen": True})
    st["players"][0]["ring"][1] = f
    g.add_grant("frosted", None, card=f)
    jab = g.create_card("jab", 0, "hand")
    st["players"][0]["sp"] = 1
    g.play_action(0, jab)
    st["turn"] = 1
    st["next_player"] = 0
    g.phase_activate(0)
    assert not c["frozen"] and not c["fresh"] and not c["used"]
    assert st["cards"][f]["frozen"]
    assert st["players"][0]["table"] == [] and st["cards"][jab]["zone"] == "discards"


def test_empty_deck_draw_phase_loses():
    g, dec = new_game()
    g.setup()
    g.state["players"][1]["deck"][:] = []
    dec.answers = [lambda r: {"do": "pass"}]
    with pytest.raises(GameOver):
        g.play_turn()
        g.play_turn()
    assert g.state["winner"] == 0 and "empty deck" in g.state["reason"]
    res = g.run()
    assert res["winner"] == 0 and res["result"] == "win"


def test_skip_and_extra_turns():
    rules = Recorder()
    g, dec = new_game(rules=rules)
    g.setup()
    dec.answers = [lambda r: {"do": "pass"}] * 5
    g.skip_phase(0, "main")
    g.add_extra_turns(0, 1)
    g.play_turn()
    assert dec.requests == [] and g.state["players"][0]["skip"] == []
    assert g.state["next_player"] == 0
    g.play_turn()
    assert g.state["active"] == 0 and len(g.state["players"][0]["hand"]) == 6
    assert g.state["next_player"] == 1 and g.state["players"][0]["extra_turns"] == 0


def test_per_turn_counters_reset_and_kept_state():
    g, dec = new_game()
    g.setup()
    pl = g.state["players"]
    pl[0].update({"chars_played": 1, "chars_allowed": 2, "backups_played": 1, "ncDamaged": True,
                  "lostSP": 3, "lost_sp_any": True})
    pl[1]["ncDamaged"] = True
    g.add_grant("cantplayac", None, player=0)
    pl[1]["skip"].append("attack")
    dec.answers = [lambda r: {"do": "pass"}]
    g.play_turn()
    assert pl[0]["chars_allowed"] == 1 and pl[0]["backups_played"] == 0 and pl[0]["lostSP"] == 0
    assert not pl[0]["ncDamaged"] and not pl[1]["ncDamaged"] and not pl[0]["lost_sp_any"]
    assert g.player_has_ability(0, "cantplayac") and pl[1]["skip"] == ["attack"]


def _ring(g, p, model, slot, **kw):
    iid = g.create_card(model, p, "hand")
    g.state["players"][p]["hand"].remove(iid)
    c = g.state["cards"][iid]
    c.update({"zone": "ring", "slot": slot, "bp": MODELS[model]["bp"]})
    c.update(kw)
    g.state["players"][p]["ring"][slot] = iid
    return iid


def test_full_attack_turn_with_reaction_block_freeze_and_discards():
    rules = Recorder()
    g, dec = new_game(rules=rules)
    g.setup()
    st = g.state
    st["players"][0]["hp"] = 3000
    a = _ring(g, 0, "mid", 0)                 # 700
    u = _ring(g, 0, "ninja", 1)               # 300, unfreezable
    g.add_grant("unfreezable", None, card=u)
    b = _ring(g, 1, "grunt", 0)               # 500
    wall = g.create_card("wall", 1, "hand")
    st["players"][1]["sp"] = 1
    dec.answers = [
        {"do": "pass"},                                   # main
        {"do": "attack", "card": a},
        {"do": "attack", "card": u},
        {"do": "done"},
        {"do": "reaction", "card": wall},                 # defender
        {"do": "block", "card": b, "attack": a},
        {"do": "pass"},
    ]
    g.play_turn()
    assert dec.answers == []
    assert st["cards"][b]["zone"] == "discards"           # 700 vs 500
    assert st["cards"][a]["bp"] == 200 and st["cards"][a]["frozen"]
    assert not st["cards"][u]["frozen"]
    assert st["players"][1]["hp"] == 2700                 # the unblocked 300
    assert st["cards"][wall]["zone"] == "discards" and st["players"][1]["sp"] == 0
    assert (wall, "reaction") in rules.resolved
    assert st["attacks"] == [] and not st["cards"][a]["attacking"]
    names = [e[0] for e in rules.events]
    i = names.index("blockphase")
    assert names[i + 1:i + 3] == ["attacks", "attacks"]
    assert names.index("blocks") < names.index("endphase") < names.index("cleanupphase")
    kinds = [r["kind"] for r in dec.requests]
    assert kinds == ["choose_main_action", "choose_attack", "choose_attack", "choose_attack",
                     "choose_defense", "choose_defense", "choose_defense"]
    assert dec.requests[4]["player"] == 1


def test_action_discarded_when_attack_phase_starts_or_at_end():
    g, dec = new_game()
    g.setup()
    st = g.state
    a = _ring(g, 0, "mid", 0)
    jab = g.create_card("jab", 0, "hand")
    st["players"][0]["sp"] = 1
    seen = []
    dec.answers = [{"do": "action", "card": jab}, {"do": "pass"},
                   lambda r: seen.append(st["cards"][jab]["zone"]) or {"do": "done"}]
    g.play_turn()
    assert seen == ["discards"]
    g2, dec2 = new_game()
    g2.setup()
    jab2 = g2.create_card("jab", 0, "hand")
    g2.state["players"][0]["sp"] = 1
    zones = []
    g2.rules.on_event["endphase"] = lambda game, p, o: zones.append(game.state["cards"][jab2]["zone"])
    dec2.answers = [{"do": "action", "card": jab2}, {"do": "pass"}]
    g2.play_turn()                             # no attacker: Attack phase skipped
    assert zones == ["table"] and g2.state["cards"][jab2]["zone"] == "discards"


def test_restriction_expiry_timing():
    rules = Recorder()
    g, dec = new_game(rules=rules)
    g.setup()
    a = _ring(g, 0, "grunt", 0)
    e_ueot0 = g.add_grant("pierce", a, card=a, until=restriction("ueot", 0))
    e_ueot1 = g.add_grant("pierce", a, card=a, until=restriction("oppueot", 0))
    e_unac0 = g.add_grant("pierce", a, card=a, until=restriction("unac", 0))
    e_uynt0 = g.add_grant("pierce", a, card=a, until=restriction("uynt", 0))
    e_uynt1 = g.add_grant("pierce", a, card=a, until=restriction("oppuynt", 0))
    alive = lambda: [e["id"] for e in g.state["lasting"]]   # noqa: E731
    seen = {}
    rules.on_event["activatephase"] = lambda game, p, o: seen.setdefault(p, list(alive()))
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()                                  # player 0's turn
    # at activatephase of player 0, its uynt effect still existed
    assert e_uynt0["id"] in seen[0]
    assert alive() == [e_ueot1["id"], e_uynt1["id"]]
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()                                  # player 1's turn
    assert alive() == []


def test_unac_ends_when_the_next_action_is_paid():
    g, dec = new_game()
    g.setup()
    a = _ring(g, 0, "grunt", 0)
    e = g.add_cost_mod("action", "=", 0, a, until=restriction("unac", 0))
    other = g.add_cost_mod("action", "+", 0, a, until=restriction("unac", 1))
    jab = g.create_card("jab", 0, "hand")
    jab2 = g.create_card("jab", 0, "hand")
    assert g.cost_value("action", 0, jab) == 0
    g.play_action(0, jab)                           # free, then the modifier ends
    assert g.state["lasting"] == [other]
    assert g.cost_value("action", 0, jab2) == -1


def test_hp_zero_loses_and_both_draw():
    g, dec = new_game()
    g.setup()
    with pytest.raises(GameOver):
        g.damage_player(1, 5000)
    assert g.state["winner"] == 0 and g.state["result"] == "win"
    g2, _ = new_game()
    g2.setup()
    g2.state["players"][0]["hp"] = 0
    g2.state["players"][1]["hp"] = 0
    with pytest.raises(GameOver):
        g2.settle()
    assert g2.state["winner"] is None and g2.state["result"] == "draw"


def test_combat_damage_to_zero_ends_game_before_later_attacks():
    rules = Recorder()
    g, dec = new_game(rules=rules)
    g.setup()
    g.state["players"][1]["hp"] = 600
    a = _ring(g, 0, "mid", 0)
    b = _ring(g, 0, "mid", 1)
    dec.answers = [{"do": "pass"}, {"do": "attack", "card": a}, {"do": "attack", "card": b},
                   {"do": "done"}]
    res = g.run()
    assert res["winner"] == 0 and g.state["players"][1]["hp"] == 0
    assert [e[0] for e in rules.events].count("playercombatdamaged") == 0


def test_turn_limit_is_a_draw():
    g, dec = new_game()
    g.state["turn_limit"] = 4
    dec.answers = [lambda r: r["options"][-1]] * 100
    res = g.run()
    assert res == {"winner": None, "result": "draw", "reason": "turn limit (4 turns)", "turns": 4}


def test_a_skipped_cleanup_still_clears_combat_but_ueot_effects_wait_for_the_next_cleanup():
    """docs/cfc-rules.md §6: if the Cleanup phase is skipped, combat state is still cleared, but the
    ``ueot`` and ``unac`` effects wait for the next Cleanup (of that player); §3: a member of a United
    Attack is marked (its listeners suppressed) until the turn ends.  Player 0 attacks with a United
    Attack of a grunt (500) and a ninja (300) and skips its Cleanup; player 1 cannot defend."""
    g, dec = new_game()
    g.setup()
    st = g.state
    a, b = _ring(g, 0, "grunt", 0), _ring(g, 0, "ninja", 1)
    st["players"][0]["sp"] = 5
    e = g.add_grant("pierce", a, card=a, until=restriction("ueot", 0))
    g.skip_phase(0, "cleanup")
    dec.answers = [{"do": "pass"}, {"do": "attack", "card": a}, {"do": "join", "card": b, "lead": a},
                   {"do": "done"}]
    g.play_turn()
    assert dec.answers == [] and st["players"][1]["hp"] == 3000 - 800 and st["players"][0]["sp"] == 0
    assert st["attacks"] == [] and st["players"][0]["skip"] == []
    assert [(st["cards"][i]["attacking"], st["cards"][i]["ua"], st["cards"][i]["ua_member"], st["cards"][i]["frozen"])
            for i in (a, b)] == [(False, None, False, True)] * 2
    assert st["lasting"] == [e]                     # the ueot effect waits
    dec.answers = [lambda r: r["options"][-1]] * 3   # pass, done
    g.play_turn()                                   # player 1's Cleanup ends only its own
    assert st["lasting"] == [e]
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()                                   # player 0's next Cleanup
    assert st["lasting"] == []


def test_a_skipped_activate_phase_leaves_frozen_characters_frozen_once():
    """docs/cfc-rules.md §6: a phase on P's skip list is skipped once and taken off the list; the
    Activate phase is where P's characters unfreeze and lose their fresh and used marks.  Player 0's
    grunt is frozen, fresh and used, and player 0 skips its next Activate phase: after that turn the
    grunt is still all three; after player 0's following turn it is none."""
    g, dec = new_game()
    g.setup()
    st = g.state
    a = _ring(g, 0, "grunt", 0, frozen=True, fresh=True, used=True)
    g.skip_phase(0, "activate")
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()
    assert st["players"][0]["skip"] == []
    assert [st["cards"][a][k] for k in ("frozen", "fresh", "used")] == [True, True, True]
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()                                   # player 1
    dec.answers = [lambda r: r["options"][-1]] * 3
    g.play_turn()                                   # player 0 again: its Activate phase takes place
    assert [st["cards"][a][k] for k in ("frozen", "fresh", "used")] == [False, False, False]
