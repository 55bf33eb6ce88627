import pytest

from rulescript.games.cfc.ops import insert_at, round_bp
from rulescript.runtime.errors import GameError, GameOver


@pytest.mark.parametrize("pos,expected", [
    ("top", ["x", 1, 2, 3]), (0, ["x", 1, 2, 3]), ("bottom", [1, 2, 3, "x"]), (-1, [1, 2, 3, "x"]),
    (1, [1, "x", 2, 3]), (-2, [1, 2, "x", 3]), (9, [1, 2, 3, "x"]), (-9, ["x", 1, 2, 3]),
])
def test_insert_positions(pos, expected):
    pile = [1, 2, 3]
    insert_at(pile, "x", pos)
    assert pile == expected


@pytest.mark.parametrize("e,r", [(0, 0), (49, 0), (50, 100), (149, 100), (150, 200), (-50, -100),
                                 (-149, -100), (1234, 1200), (1250, 1300)])
def test_round_bp_halves_away_from_zero(e, r):
    assert round_bp(e) == r


def test_move_changes_controller_and_positions(table):
    g = table.game
    d = table.deck(1, ["tiny", "grunt", "ninja"])
    mine = table.card(0, "mid")
    g.move_cards([mine], 1, "deck", 1)
    assert table.p(1)["deck"] == [d[0], mine, d[1], d[2]]
    assert table.c(mine)["ctrl"] == 1 and table.c(mine)["owner"] == 0
    assert table.rules.names() == ["handchanges"]
    g.move_cards([d[0]], 0, "hand")
    assert table.p(0)["hand"][-1] == d[0]
    with pytest.raises(GameError):
        g.move_cards([d[0]], 0, "ring")


def test_leaving_ring_discards_backups_fires_removed_then_ringchanges(table):
    g = table.game
    host = table.ring(0, "brute")
    b = table.card(0, "ninja")
    g.backup(0, b, host)
    table.rules.events[:] = []
    g.add_grant("pierce", host, card=host)                       # unrestricted, source = host
    kept = g.add_grant("pierce", host, card=host, until={"when": "ueot", "player": 0})
    g.move_cards([host], 0, "hand")
    assert table.c(host)["zone"] == "hand" and table.c(host)["bp"] == 0
    assert table.c(b)["zone"] == "discards"
    assert table.rules.names() == ["removed", "ringchanges", "handchanges"]
    assert table.rules.left == [host]
    assert [e["id"] for e in g.state["lasting"]] == [kept["id"]]


def test_draw_fewer_when_deck_runs_out_is_not_a_loss(table):
    g = table.game
    table.deck(0, ["tiny", "grunt"])
    got = g.draw(0, 5)
    assert len(got) == 2 and table.p(0)["deck"] == [] and not g.state["over"]


def test_discard_chosen_random_and_trash(table):
    g = table.game
    h = [table.card(1, m) for m in ("tiny", "grunt", "ninja")]
    table.decider.answers = [[h[2]]]
    assert g.discard_chosen(0, 1, 1) == [h[2]]
    req = table.decider.requests[0]
    assert req["kind"] == "choose_targets" and req["player"] == 0 and req["min"] == req["max"] == 1
    gone = g.discard_random(1, 5)
    assert sorted(gone) == sorted(h[:2]) and table.p(1)["hand"] == []
    d = table.deck(1, ["tiny", "grunt", "ninja"])
    assert g.trash(1, 2) == d[:2]
    assert table.p(1)["discards"][:2] == [d[1], d[0]]


def test_damage_character_is_min_of_damage_and_bp_and_kos(table):
    g = table.game
    a = table.ring(1, "grunt")
    g.damage_chars([a], 200)
    assert table.c(a)["bp"] == 300
    g.damage_chars([a], 0)
    assert table.c(a)["bp"] == 300
    g.damage_chars([a], 900)
    assert table.c(a)["zone"] == "discards" and table.c(a)["lastBP"] == 300


def test_damage_player_adjustment_ncdamaged_and_character_source(table):
    g = table.game
    src = table.card(0, "jab")
    table.rules.damage_adj = -100
    assert g.damage_player(1, 300, src) == 200
    assert table.p(1)["hp"] == 2800 and table.p(1)["ncDamaged"]
    table.rules.damage_adj = -500
    assert g.damage_player(1, 300, src) == 0
    chr_ = table.ring(0, "grunt")
    table.rules.damage_adj = -300
    assert g.damage_player(1, 300, chr_) == 300           # a character source: no beforedamage
    assert table.p(1)["hp"] == 2500


def test_lose_life_is_not_damage_and_hp_floor_and_loss(table):
    g = table.game
    g.lose_life(1, 100)
    assert table.p(1)["hp"] == 2900 and not table.p(1)["ncDamaged"]
    g.add_hp(1, 500)
    assert table.p(1)["hp"] == 3400
    with pytest.raises(GameOver):
        g.add_hp(1, -5000)
    assert table.p(1)["hp"] == 0 and g.state["winner"] == 0 and g.state["result"] == "win"


def test_sp_floor_and_lost_sp_bookkeeping(table):
    g = table.game
    g.add_sp(0, 5)
    assert table.p(0)["sp"] == 5 and table.p(0)["lostSP"] == 0 and not g.opp_lost_sp(1)
    g.add_sp(0, -2)
    assert table.p(0)["lostSP"] == 2 and g.opp_lost_sp(1) and not g.opp_lost_sp(0)
    g.add_sp(0, -10)
    assert table.p(0)["sp"] == 0 and table.p(0)["lostSP"] == 3
    g.set_sp(0, 4)
    assert table.p(0)["sp"] == 4 and table.p(0)["lostSP"] == 3


def test_bp_add_mul_set(table):
    g = table.game
    a = table.ring(0, "grunt")
    g.bp_add([a], 250)
    assert table.c(a)["bp"] == 750
    g.bp_mul([a], 2)
    assert table.c(a)["bp"] == 1500
    g.bp_set([a], 1249)
    assert table.c(a)["bp"] == 1200
    g.bp_set([a], 40)
    assert table.c(a)["zone"] == "discards" and table.c(a)["lastBP"] == 1200
    outside = table.card(0, "tiny")
    g.bp_add([outside], 100)                               # not in a ring: nothing
    assert table.c(outside)["bp"] == 0


def test_freeze_toggle_unfreeze(table):
    g = table.game
    a = table.ring(0, "grunt")
    g.freeze([a])
    assert table.c(a)["frozen"]
    table.c(a)["used"] = True
    g.freeze([a], toggle=True)
    assert not table.c(a)["frozen"] and not table.c(a)["used"]
    g.freeze([a], toggle=True)
    assert table.c(a)["frozen"]


def test_transform_keeps_state_and_reverts(table):
    g = table.game
    a = table.ring(0, "brute", slot=2)
    b = table.card(0, "grunt")
    g.backup(0, b, a)
    table.c(a)["frozen"] = True
    table.rules.events[:] = []
    g.transform([a], "mid")
    c = table.c(a)
    assert c["model"] == "mid" and c["orig"] == "brute" and c["slot"] == 2 and c["frozen"]
    assert c["bp"] == 700 and c["backups"] == [] and table.c(b)["zone"] == "discards"
    assert table.rules.names() == ["powerless", "removed"]
    assert table.rules.left == [a] and table.rules.entered == [a]
    g.move_cards([a], 0, "hand")
    assert table.c(a)["model"] == "mid"                 # a hand keeps the new identity
    g.move_cards([a], 0, "deck")
    assert table.c(a)["model"] == "brute" and table.c(a)["orig"] is None
    h = table.card(0, "tiny")
    g.transform([h], "big")
    assert table.c(h)["model"] == "big" and table.rules.left == [a, a]
    g.move_cards([h], 0, "removed")
    assert table.c(h)["model"] == "tiny"


def test_swap_chars_piles_and_move_pile(table):
    g = table.game
    a = table.ring(0, "grunt", slot=0)
    b = table.ring(0, "ninja", slot=3)
    g.swap_chars(a, b)
    assert table.p(0)["ring"] == [b, None, None, a] and table.c(a)["slot"] == 3
    d0 = table.deck(0, ["tiny", "mid"])
    d1 = table.deck(1, ["big"])
    g.swap_piles(0, "deck", 1, "deck")
    assert table.p(0)["deck"] == d1 and table.p(1)["deck"] == d0
    assert table.c(d0[0])["ctrl"] == 1
    g.move_pile(1, "deck", 0, "discards")
    assert table.p(0)["discards"] == d0 and table.p(1)["deck"] == []


def test_move_to_slot_asks(table):
    g = table.game
    a = table.ring(0, "grunt", slot=0)
    table.ring(0, "tiny", slot=1)
    table.decider.answers = [3]
    assert g.move_to_slot(a)
    assert table.decider.requests[0]["options"] == [2, 3]
    assert table.p(0)["ring"][3] == a and table.p(0)["ring"][0] is None


def test_destroy_and_extra_turns_skip(table):
    g = table.game
    a = table.ring(1, "grunt")
    h = table.card(1, "tiny")
    g.destroy([a, h])
    assert table.c(a)["zone"] == "discards" and table.c(h)["zone"] == "discards"
    g.add_extra_turns(0, 2)
    g.skip_phase(1, "draw")
    assert table.p(0)["extra_turns"] == 2 and table.p(1)["skip"] == ["draw"]
    with pytest.raises(GameError):
        g.skip_phase(1, "lunch")


def test_set_rules_unloads_ends_effects_and_loads(table):
    g = table.game
    a = table.ring(0, "trig")
    table.c(a)["used"] = True
    g.add_grant("pierce", a, card=a)
    g.set_rules(a, "inst", {"kind": "instant", "name": "copied"})
    assert table.rules.names() == ["powerless"]
    assert table.rules.left == [a] and table.rules.entered == [a] and table.rules.resolved == []
    assert table.c(a)["rules"] == "inst" and table.c(a)["ability"]["kind"] == "instant"
    assert not table.c(a)["used"] and g.state["lasting"] == []
    g.set_rules(a, None, None)                       # loseAbility
    assert table.c(a)["rules"] is None and table.c(a)["ability"] is None
    assert table.rules.entered == [a]


def test_prophecy_arranges_and_puts_back(table):
    g = table.game
    d = table.deck(1, ["tiny", "grunt", "ninja", "mid"])
    table.decider.answers = [[d[2], d[0], d[1]], "bottom"]
    assert g.prophecy(0, 1, "deck", 3) == [d[2], d[0], d[1]]
    assert table.p(1)["deck"] == [d[3], d[2], d[0], d[1]]
    assert [r["kind"] for r in table.decider.requests] == ["arrange", "top_or_bottom"]
    table.decider.answers = [[d[2], d[3]]]
    g.prophecy(0, 1, "deck", 2, "top")
    assert table.p(1)["deck"] == [d[2], d[3], d[0], d[1]]


def test_flip_coin_uses_game_generator(make_table):
    results = []
    for _ in range(2):
        t = make_table()
        t.decider.answers = ["heads"] * 20
        results.append([t.game.flip_coin(0) for _ in range(20)])
    assert results[0] == results[1] and True in results[0] and False in results[0]


def test_ko_happens_when_the_command_ends_not_per_target(table):
    g = table.game
    a = table.ring(1, "tiny", slot=0)
    b = table.ring(1, "ninja", slot=1)
    seen = []
    table.rules.on_event["removed"] = lambda game, p, obj: seen.append(
        (obj, game.state["cards"][a]["bp"], game.state["cards"][b]["bp"]))
    g.damage_chars([a, b], 400)
    # both targets were damaged before the first KO; KO order follows the slots
    assert seen == [(a, 0, 0), (b, 0, 0)]
    assert table.p(1)["discards"] == [b, a]
    assert table.c(a)["lastBP"] == 100 and table.c(b)["lastBP"] == 300
