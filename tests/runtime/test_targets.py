"""Target filters at run time (rulescript/runtime/targets.py) on real compiled filters and a real table.

Filters are compiled by the real compiler from rule text; the table is a CfcGame laid out with the
runtime tests' Table helper and the game's own operations.  The rule engine that will own
``Resolution.engine`` is still under construction, so the resolution gets a tiny engine object with
only what targets/expr read from it: ``vocab`` (and, in one test, the optional ``has_rules``).
"""
import pytest

import rulescript
from rulescript.runtime import targets
from rulescript.games.cfc.vocab import CfcVocab
from rulescript.runtime.resolution import Cancelled, Card, NoTargets, Player, Resolution, RuleError
from rulescript.sim.deciders import DecisionsExhausted, ScriptedDecider
from runtime_table import MODELS

CARDS = list(MODELS.values())


def EngineStub(has_rules=None):
    """The real rule engine with no rules: expressions and filters use its vocabulary and resolver."""
    from rulescript.games import cfc
    from rulescript.runtime.engine import Engine
    eng = Engine({}, game=cfc)
    if has_rules is not None:
        eng.has_rules = has_rules
    return eng


class Recording(ScriptedDecider):
    """A ScriptedDecider that keeps the requests it answered."""

    def __init__(self, answers):
        ScriptedDecider.__init__(self, answers)
        self.requests = []

    def decide(self, request):
        self.requests.append(request)
        return ScriptedDecider.decide(self, request)


def compile_rule(text):
    r = rulescript.compile_text("[t]\n%s\n" % text, filename="test.ini", cards=CARDS)
    assert r.ok, r.render()
    return r.rules["t"]


def filt(text):
    """The filters of ``target = text``."""
    return compile_rule("target = %s\naction = draw()" % text)["target"]["filters"]


def make_res(table, source=None, controller=0, answers=(), engine=None):
    table.game.decider = Recording(list(answers))
    rule = compile_rule("action = draw()")
    return Resolution(table.game, engine or EngineStub(), source, controller, rule, "test")


def find(res, text, purpose="clause", **kw):
    return targets.resolve(res, filt(text), purpose, **kw)


def cards(*iids):
    return [Card(i) for i in iids]


def asked(res):
    return [(r["kind"], r["player"], r["options"], r["min"], r["max"], r["cancel"])
            for r in res.game.decider.requests]


# ---------------------------------------------------------------------------- zones and order
def test_arena_is_the_controllers_ring_then_the_opponents(board):
    res = make_res(board, source=board.m[0])
    assert find(res, "characters") == cards(*(board.m + board.o))
    res.controller = 1
    assert find(res, "characters") == cards(*(board.o + board.m))
    assert asked(res) == []


def test_ring_zone_slot_order_and_prefixes(board):
    t = board
    late = t.ring(1, "mid", 1)  # slot 1, placed last, still listed by slot
    res = make_res(t, source=t.m[0])
    assert find(res, "characters@oppRing") == cards(t.o[0], late, t.o[1], t.o[2])
    assert find(res, "characters@myRing") == cards(*t.m)
    assert find(res, "characters@ctrlRing") == cards(*t.m)
    assert find(res, "characters@ring") == cards(*t.m)


def test_piles_in_zone_order(table):
    t = table
    d = t.deck(1, ["tiny", "jab", "grunt"])               # top first
    h = [t.card(1, "mid"), t.card(1, "wall"), t.card(1, "tiny")]  # order of arrival
    g = t.game
    g.discard(1, [h[0]])
    g.discard(1, [h[2]])                                  # newest discard on top
    g.move_cards([d[1]], 1, "removed")
    res = make_res(t, controller=0)
    assert find(res, "*s@oppDeck") == cards(d[0], d[2])
    assert find(res, "*s@oppHand") == cards(h[1])
    assert find(res, "*s@oppDiscards") == cards(h[2], h[0])
    assert find(res, "*s@oppRemoved") == cards(d[1])
    assert find(res, "*s@myDeck") == []
    t.card(1, "big")
    assert find(res, "*s@oppHand") == cards(h[1], t.p(1)["hand"][-1])


def test_infront(board):
    t = board
    res = make_res(t, source=t.m[0])                      # slot 0 faces slot 3
    assert find(res, "*@infront") == cards(t.o[2])
    res.source = t.m[1]                                   # slot 1 faces slot 2
    assert find(res, "character@infront") == cards(t.o[1])
    res.source = t.m[2]                                   # slot 2 faces slot 1: empty
    assert find(res, "character@infront") == []
    res.source = t.card(0, "jab")                         # not in a ring
    assert find(res, "*@infront") == []


def test_any_prefix_asks_choose_player_and_same_asks_choose_ring(board):
    t = board
    t.deck(0, ["tiny"])
    d1 = t.deck(1, ["jab", "mid"])
    res = make_res(t, source=t.m[0], answers=[1, 0])
    assert find(res, "*s@anyDeck") == cards(*d1)
    assert find(res, "characters@sameRing") == cards(*t.m)
    assert [a[:3] for a in asked(res)] == [("choose_player", 0, [0, 1]), ("choose_ring", 0, [0, 1])]


def test_silent_takes_both_sides_for_any_and_same(board):
    t = board
    d0 = t.deck(0, ["tiny"])
    d1 = t.deck(1, ["jab"])
    res = make_res(t, source=t.m[0])
    assert find(res, "*s@anyDeck", "silent") == cards(d0[0], d1[0])
    assert find(res, "characters@sameRing", "silent") == cards(*(t.m + t.o))
    assert asked(res) == []


# ---------------------------------------------------------------------------- types
def test_player_keywords(board):
    res = make_res(board, source=board.m[0], controller=1, answers=[0])
    assert find(res, "me") == [Player(1)]
    assert find(res, "opp") == [Player(0)]
    assert find(res, "players") == [Player(1), Player(0)]
    assert find(res, "player") == [Player(0)]
    assert asked(res) == [("choose_player", 1, [1, 0], 1, 1, False)]
    assert find(res, "player", "silent") == [Player(1), Player(0)]


# The generator is xorshift128 (docs/runtime.md) on a state of four 32-bit words [s0, s1, s2, s3]: a
# step computes t = s3 ^ (s3 << 11), t ^= t >> 8, v = t ^ s0 ^ (s0 >> 19) and shifts the words to
# [v, s0, s1, s2]; randbelow(n) is v % n (v below the largest multiple of n under 2^32).  From the
# state [0, 0, 0, 1], worked out by hand: t = 1 ^ 2048 = 2049, 2049 ^ (2049 >> 8 = 8) = 2057, v = 2057,
# state [2057, 0, 0, 0]; the next step has t = 0, v = 2057 ^ (2057 >> 19 = 0) = 2057, state
# [2057, 2057, 0, 0].
def test_random_player(board):
    res = make_res(board, source=board.m[0])
    res.game.state["rng"] = [0, 0, 0, 1]
    assert find(res, "<r>player") == [Player(1)]                 # 2057 % 2 = 1: the second player
    assert asked(res) == [] and res.game.state["rng"] == [2057, 0, 0, 0]


def test_card_types_subtypes_names_and_all(board):
    t = board
    jab = t.card(0, "jab")
    wall = t.card(0, "wall")
    res = make_res(t, source=t.m[0])
    assert find(res, "*s@myHand") == cards(jab, wall)
    assert find(res, "all@myHand") == cards(jab, wall)
    assert find(res, "actions@myHand") == cards(jab)
    assert find(res, "reaction@myHand") == cards(wall)
    assert find(res, "ninjas") == cards(t.m[1], t.o[2])
    assert find(res, "mystic") == cards(t.m[2])
    assert find(res, '"NINJA"s') == cards(t.m[1], t.o[2])
    assert find(res, '"jab"@myHand') == cards(jab)


def test_this_keyword_and_the_written_zone(board):
    t = board
    jab = t.card(0, "jab")
    res = make_res(t, source=jab)
    # no zone written: the source is taken wherever it is
    assert find(res, "this") == cards(jab)
    # a written zone must hold it
    assert find(res, "this@myRing") == []
    assert find(res, "this@myHand") == cards(jab)
    res.source = t.m[2]
    assert find(res, "this") == cards(t.m[2])
    assert find(res, "this[bp>=800]") == []
    assert find(res, "this@oppRing") == []


def test_exclude_source_and_negation(board):
    t = board
    res = make_res(t, source=t.m[1])
    assert find(res, "^characters@myRing") == cards(t.m[0], t.m[2])
    assert find(res, "!ninjas") == cards(t.m[0], t.m[2], t.o[0], t.o[1])
    assert find(res, "^!mystics@myRing") == cards(t.m[0])
    assert find(res, '!"Ninja"s@oppRing') == cards(t.o[0], t.o[1])
    assert find(res, "^ninjas") == cards(t.o[2])


def test_and_is_intersection_and_comma_is_union_in_zone_order(board):
    t = board
    res = make_res(t, source=t.m[0])
    assert find(res, 'character&"Ninja"s') == cards(t.m[1], t.o[2])
    assert find(res, 'ninja&"Grunt"s') == []
    # union in zone order, without duplicates, whatever the written order
    assert find(res, '"Tiny","Grunt",ninjas') == cards(t.m[0], t.m[1], t.o[0], t.o[2])
    assert find(res, 'ninjas,characters&!mystic@myRing') == cards(t.m[0], t.m[1])


def test_mixed_alternatives_ask_choose_type(board):
    t = board
    res = make_res(t, source=t.m[0], answers=["ninja", [t.o[2]], "opp"])
    f = filt("ninja, opp")
    assert f[0]["selects"] == "mixed"
    assert targets.resolve(res, f, "clause") == cards(t.o[2])
    assert targets.resolve(res, f, "clause") == [Player(1)]
    kinds = asked(res)
    assert kinds[0][:4] == ("choose_type", 0, ["ninja", "opp"], 1)
    assert kinds[1][:2] == ("choose_targets", 0) and kinds[1][2] == [t.m[1], t.o[2]]
    assert kinds[2][:3] == ("choose_type", 0, ["ninja", "opp"])
    # silently both kinds are kept: players first, then the cards
    assert targets.resolve(res, f, "silent") == [Player(1)] + cards(t.m[1], t.o[2])


def test_mixed_plural_alternative_takes_all(board):
    t = board
    res = make_res(t, source=t.m[0], answers=["character"])
    got = find(res, "opp, characters[bp<400]@oppRing")
    assert got == cards(t.o[0], t.o[2])
    assert asked(res) == [("choose_type", 0, ["opp", "character"], 1, 1, False)]


# ---------------------------------------------------------------------------- filter block
def test_flag_words(board):
    t = board
    g = t.game
    g.state["players"][0]["sp"] = 20
    t.c(t.m[0])["frozen"] = True
    t.c(t.o[0])["fresh"] = True
    g.declare_attack(t.m[1])
    g.join_attack(t.m[2], t.m[1])                          # United Attack: m1 lead, m2 follower
    t.c(t.o[1])["fresh"] = False
    res = make_res(t, source=t.m[0])
    assert find(res, "characters[frozen]") == cards(t.m[0])
    assert find(res, "characters[fresh]") == cards(t.o[0])
    assert find(res, "characters[attack]") == cards(t.m[1])
    assert find(res, "characters[uattack]") == cards(t.m[1], t.m[2])
    assert find(res, "characters[blocked]") == []
    g.declare_block(t.o[1], t.m[1])
    assert find(res, "characters[block]") == cards(t.o[1])
    assert find(res, "characters[blocked]") == cards(t.m[1])
    assert find(res, "characters[-frozen & -attack & -block]") == cards(t.m[2], t.o[0], t.o[2])


def test_solo_attack_counts_as_attack(table):
    t = table
    a = t.ring(0, "grunt")
    res = make_res(t, source=a)
    t.game.declare_attack(a)
    assert find(res, "characters[attack]") == cards(a)
    assert find(res, "characters[uattack]") == []


def test_backedup_and_ability_words(table):
    t = table
    g = t.game
    host = t.ring(0, "brute")
    trig = t.ring(0, "trig")
    inst = t.ring(0, "inst")
    b = t.card(0, "ninja")
    g.backup(0, b, host)
    res = make_res(t, source=host)
    assert find(res, "characters[backedup]") == cards(host)
    assert find(res, "characters[abtrigger]") == cards(trig)
    assert find(res, "characters[abinstant]") == cards(inst)
    assert find(res, "characters[abauto]") == []
    t.c(host)["ability"] = {"kind": "auto", "name": "x"}
    assert find(res, "characters[abauto]") == cards(host)
    assert find(res, "characters[!abauto & !abtrigger]") == cards(inst)


def test_powerful_and_powerless(table):
    t = table
    a = t.ring(0, "grunt")
    b = t.ring(0, "tiny")
    c = t.ring(0, "mid")
    t.c(b)["rules"] = None
    res = make_res(t, source=a)
    res.engine = EngineStub(has_rules=lambda rid: rid is not None)  # every rules id has a section
    assert find(res, "characters[powerful]") == cards(a, c)
    assert find(res, "characters[powerless]") == cards(b)
    # an engine that knows which rule ids have sections decides "has rules"
    res.engine = EngineStub(has_rules=lambda rid: rid == "grunt")
    assert find(res, "characters[powerful]") == cards(a)
    assert find(res, "characters[-powerful]") == cards(b, c)


def test_type_and_subtype_atoms(board):
    t = board
    jab = t.card(0, "jab")
    res = make_res(t, source=t.m[0])
    assert find(res, "*s[character]@myHand") == []
    assert find(res, "*s[action]@myHand") == cards(jab)
    assert find(res, "*s[ninja]") == cards(t.m[1], t.o[2])
    assert find(res, "*s[-ninja]@myRing") == cards(t.m[0], t.m[2])


@pytest.mark.parametrize("atom,idx", [
    ("bp==300", [1, 5]), ("bp=300", [1, 5]), ("bp!=300", [0, 2, 3, 4]), ("bp<500", [1, 3, 5]),
    ("bp<=500", [0, 1, 3, 5]), ("bp>700", [4]), ("bp>=700", [2, 4]), ("-bp>=700", [0, 1, 3, 5]),
    ("sp>=1", [0, 1, 3, 5]), ("sp<0", [4]),
])
def test_stat_comparisons(board, atom, idx):
    t = board
    every = t.m + t.o
    res = make_res(t, source=t.m[0])
    assert find(res, "characters[%s]" % atom) == cards(*[every[i] for i in idx])


def test_bp_is_current_in_a_ring_printed_elsewhere_and_never_for_non_characters(table):
    t = table
    a = t.ring(0, "grunt")
    t.c(a)["bp"] = 900
    h = t.card(0, "grunt")
    jab = t.card(0, "jab")
    res = make_res(t, source=a)
    assert find(res, "characters[bp>=900]@myRing") == cards(a)
    assert find(res, "*s[bp==500]@myHand") == cards(h)
    assert find(res, "*s[bp<=10000]@myHand") == cards(h)
    assert find(res, "*s[-bp<=10000]@myHand") == cards(jab)
    assert find(res, "*s[sp==-1]@myHand") == cards(jab)


def test_player_stats(table):
    t = table
    g = t.game
    g.state["players"][0]["sp"] = 5
    g.state["players"][1]["hp"] = 900
    res = make_res(t)
    assert find(res, "players[sp>=5]") == [Player(0)]
    assert find(res, "players[hp<1000]") == [Player(1)]
    assert find(res, "players[-hp<1000]") == [Player(0)]
    assert find(res, "players[frozen]") == []
    assert find(res, "player[hp<1000]") == [Player(1)]   # only one candidate: no decision
    assert asked(res) == []


def test_lowest_and_highest_keep_ties(board):
    t = board
    res = make_res(t, source=t.m[0])
    assert find(res, "characters[bp:lowest]@myRing") == cards(t.m[1])
    assert find(res, "characters[bp:highest]") == cards(t.o[1])
    t.c(t.o[0])["bp"] = 300                                # tie with both ninjas
    assert find(res, "characters[bp:lowest]") == cards(t.m[1], t.o[0], t.o[2])
    assert find(res, "characters[-bp:lowest]") == cards(t.m[0], t.m[2], t.o[1])
    # non-characters have no BP: never the lowest
    t.card(0, "jab")
    assert find(res, "*s[bp:lowest]@myHand") == []


def test_atoms_apply_left_to_right_and_alternatives_unite_in_zone_order(board):
    t = board
    t.c(t.m[1])["frozen"] = True                           # the weakest of my ring is frozen
    res = make_res(t, source=t.m[0])
    assert find(res, "characters[bp:lowest & -frozen]@myRing") == []
    assert find(res, "characters[-frozen & bp:lowest]@myRing") == cards(t.m[0])
    assert find(res, "characters[bp:highest, frozen]@myRing") == cards(t.m[1], t.m[2])
    assert find(res, "characters[bp>=1000, bp<=100]") == cards(t.o[0], t.o[1])


# ---------------------------------------------------------------------------- selector and pick
def test_not_selector(board):
    t = board
    res = make_res(t, source=t.m[0])
    res.tgt = cards(t.o[0], t.o[1])
    assert find(res, "characters@oppRing::not(tgt)") == cards(t.o[2])
    assert find(res, "characters@oppRing::not(tgt.0)") == cards(t.o[1], t.o[2])
    assert find(res, "characters@oppRing::not(trigger)") == cards(*t.o)
    assert find(res, "players::not(me)") == [Player(1)]
    assert find(res, "characters::not(this)") == cards(*(t.m[1:] + t.o))


def test_not_selector_rejects_other_values(board):
    res = make_res(board, source=board.m[0])
    f = compile_rule("vars = _k := 3\naction = bp(+1) to(characters::not(_k))")
    res.vars["_k"] = 3
    flt = f["actions"][0]["stmts"][0]["branches"][0]["body"]["clause"]["filters"]
    with pytest.raises(RuleError) as ei:
        targets.resolve(res, flt, "clause")
    assert ei.value.code == "RS503" and "::not() needs a card, a player or a list" in ei.value.message


def test_picks(table):
    t = table
    d = t.deck(1, ["tiny", "jab", "grunt", "mid", "big"])
    res = make_res(t)
    assert find(res, "*<3>@oppDeck") == cards(*d[:3])
    assert find(res, "*<-2>@oppDeck") == cards(*d[3:])
    assert find(res, "characters<2>@oppDeck") == cards(d[0], d[2])
    assert find(res, "*<9>@oppDeck") == cards(*d)
    assert asked(res) == []


def test_quantity_with_a_pick_chooses_among_the_picked(table):
    t = table
    d = t.deck(1, ["tiny", "jab", "grunt", "mid", "big"])
    res = make_res(t, answers=[[d[2], d[0]]])
    assert find(res, "<2>*<3>@oppDeck") == cards(d[2], d[0])
    assert asked(res) == [("choose_targets", 0, d[:3], 2, 2, False)]


# ---------------------------------------------------------------------------- quantities
def test_singular_asks_one_unless_only_one(board):
    t = board
    res = make_res(t, source=t.m[0], answers=[[t.o[1]]])
    assert find(res, "character@oppRing") == cards(t.o[1])
    assert asked(res) == [("choose_targets", 0, t.o, 1, 1, False)]
    assert find(res, "mystic") == cards(t.m[2])           # one candidate: taken
    assert find(res, "character[bp>5000]") == []
    assert len(asked(res)) == 1


def test_ranges_and_cancel_in_the_target_property(board):
    t = board
    every = t.m + t.o
    res = make_res(t, source=t.m[0], answers=[[t.o[0]], [t.o[2], t.o[0]], every, [], None])
    assert find(res, "<,2>characters@oppRing", "target") == cards(t.o[0])
    assert find(res, "<2,3>characters@oppRing") == cards(t.o[2], t.o[0])
    assert find(res, "<**>characters") == cards(*every)
    assert find(res, "<0,1>characters") == []
    with pytest.raises(Cancelled):
        find(res, "<,2>characters@oppRing", "target")
    got = asked(res)
    assert got[0] == ("choose_targets", 0, t.o, 1, 2, True)
    assert got[1] == ("choose_targets", 0, t.o, 2, 3, False)
    assert got[2] == ("choose_targets", 0, every, 1, 6, False)
    assert got[3] == ("choose_targets", 0, every, 0, 1, False)
    assert got[4][5] is True


def test_fewer_candidates_than_the_minimum_are_all_taken(board):
    t = board
    res = make_res(t, source=t.m[0])
    assert find(res, "<3>ninjas") == cards(t.m[1], t.o[2])
    assert find(res, "<2,3>characters[bp<500]@oppRing") == cards(t.o[0], t.o[2])
    assert asked(res) == []


def test_random_quantity_draws_without_decisions(table):
    t = table
    d = t.deck(1, ["tiny", "jab", "grunt", "mid", "big"])
    res = make_res(t)
    t.game.state["rng"] = [0, 0, 0, 1]                            # see test_random_player
    # the first draw takes 2057 % 5 = 2 of the five (grunt), the second 2057 % 4 = 1 of the four left
    # (tiny, jab, mid, big): jab
    assert find(res, "<r2>*s@oppDeck") == cards(d[2], d[1])
    assert t.game.state["rng"] == [2057, 2057, 0, 0]
    assert len(find(res, "<r9>*s@oppDeck")) == 5          # fewer when not enough
    assert find(res, "<r>*s@myDeck") == []
    assert asked(res) == []


def test_silent_ignores_quantities(board):
    t = board
    res = make_res(t, source=t.m[0])
    assert find(res, "character@oppRing", "silent") == cards(*t.o)
    assert find(res, "<r>character", "silent") == cards(*(t.m + t.o))
    assert find(res, "<1,2>ninjas<1>", "silent") == cards(t.m[1])
    assert asked(res) == []


def test_cost_purpose_uses_the_forced_zone_and_decides(board):
    t = board
    t.card(0, "tiny")
    rule = compile_rule("action = {S(character)}: draw()")
    f = rule["actions"][0]["costs"][0]["filter"]
    assert f["zone"] == {"z": "ring", "p": "my"}
    res = make_res(t, source=t.m[0], answers=[[t.m[2]]])
    assert targets.resolve(res, [f], "cost") == cards(t.m[2])
    assert asked(res) == [("choose_targets", 0, t.m, 1, 1, False)]


# ---------------------------------------------------------------------------- lists, preselected, required
def test_filters_join_in_order_without_duplicates(board):
    t = board
    res = make_res(t, source=t.m[0])
    got = targets.resolve(res, filt("ninjas; characters@oppRing; me"), "clause")
    assert got == cards(t.m[1], t.o[2], t.o[0], t.o[1]) + [Player(0)]


def test_required_stops_at_the_first_empty_filter(board):
    t = board
    res = make_res(t, source=t.m[0])
    fs = filt("characters[bp>5000]; character@oppRing")
    with pytest.raises(NoTargets):
        targets.resolve(res, fs, "clause", required=True)
    assert asked(res) == []                                # the second filter asked nothing
    assert targets.resolve(res, filt("ninjas"), "clause", required=True) == cards(t.m[1], t.o[2])


def test_preselected_objects_are_taken_without_a_decision(board):
    t = board
    res = make_res(t, source=t.m[0], answers=[[t.o[0]], [t.o[1]]])
    assert find(res, "<,2>characters@oppRing", preselected=cards(t.o[2], t.o[1])) == cards(t.o[2], t.o[1])
    assert asked(res) == []
    # not all of them candidates: the decision is asked
    assert find(res, "<,2>characters@oppRing", preselected=cards(t.o[2], t.m[0])) == cards(t.o[0])
    # too many for the quantity: asked as well
    assert find(res, "character@oppRing", preselected=cards(t.o[0], t.o[1])) == cards(t.o[1])
    assert len(asked(res)) == 2
    # several filters: each takes those of the preselected objects that are its candidates
    got = targets.resolve(res, filt("character@oppRing; character@myRing"), "clause",
                          preselected=cards(t.m[2], t.o[0]))
    assert got == cards(t.o[0], t.m[2])
    assert len(asked(res)) == 2


def test_preselected_picks_the_alternative_of_a_mixed_filter(board):
    t = board
    res = make_res(t, source=t.m[0])
    assert find(res, "ninja, opp", preselected=[Player(1)]) == [Player(1)]
    assert find(res, "ninja, opp", preselected=cards(t.o[2])) == cards(t.o[2])
    assert asked(res) == []


def test_choose_targets_between_players(table):
    res = make_res(table, answers=[[{"player": 1}, {"player": 0}]])
    assert find(res, "<1,2>players") == [Player(1), Player(0)]
    assert asked(res) == [("choose_targets", 0, [{"player": 0}, {"player": 1}], 1, 2, False)]


def test_an_unscripted_decision_surfaces(board):
    res = make_res(board, source=board.m[0])
    with pytest.raises(DecisionsExhausted):
        find(res, "character@oppRing")


def test_matches_and_unknown_purpose(board):
    t = board
    res = make_res(t, source=t.m[0])
    f = filt("character[bp<500]@oppRing")[0]
    assert targets.matches(res, f, Card(t.o[0])) is True
    assert targets.matches(res, f, Card(t.o[1])) is False
    assert targets.matches(res, f, Card(t.m[1])) is False
    assert targets.matches(res, filt("player")[0], Player(1)) is True
    with pytest.raises(ValueError):
        targets.resolve(res, [f], "loud")
