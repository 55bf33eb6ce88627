"""More rules of the engine and of CFC pinned for issue 22's mutation test: functions whose results
ran but that no test read.  Each test runs real RuleScript with the real engine on a real CfcGame
table (or the game's own code on a laid-out table) and checks values worked out by hand from
docs/runtime.md, docs/language.md and docs/cfc-rules.md."""
from __future__ import annotations

from test_rules_pinned import RulesTable


def test_copy_ability_gives_the_givers_rules_to_each_other_target_character_only():
    """docs/language.md 6.5: ``copyAbility(card)``: the target characters' rules become a copy of the
    card's rules, with its ability kind and name; a copied trigger ability starts unused; the rules
    of a card are replaced only after ``powerless``.  The source copies its own rules onto the
    characters of player 0's ring (itself among them) and onto the cards of player 0's hand (a
    character and an Action card).  The two other characters get ``src``; the source itself is left
    alone (its used mark stays, no rules record names it) and so is the Action card."""
    t = RulesTable("[src]\naction = copyAbility(this) to(characters@myRing); copyAbility(this) to(*s@myHand)\n")
    src, mate = t.ring(0, "src"), t.ring(0, "a")
    foe = t.ring(1, "foe")
    held, spell = t.game.create_card("b", 0, "hand"), t.game.create_card("bolt", 0, "hand")
    t.c(src)["used"] = t.c(mate)["used"] = True
    spell_before = (t.c(spell)["rules"], t.c(spell)["ability"])
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert [(t.c(i)["rules"], t.c(i)["ability"]) for i in (mate, held)] == [("src", {"kind": "trigger", "name": "src"})] * 2
    assert (t.c(src)["rules"], t.c(src)["used"], t.c(mate)["used"]) == ("src", True, False)
    assert (t.c(spell)["rules"], t.c(spell)["ability"]) == spell_before
    assert t.c(foe)["rules"] == "foe"
    assert [r["card"] for r in t.sink.records if r["type"] == "rules"] == [mate, held]


def test_costs_of_one_action_cannot_count_the_same_card_twice():
    """docs/language.md 5.3 and docs/runtime.md: the costs of an action are checked together before
    any is chosen or paid; a card one cost needs is not free for another.  ``{D}{D(2)}`` needs three
    cards of the hand: with two, the action does not resolve, and no question is asked (which card to
    discard would be one: none is scripted) and nothing is discarded.  With three cards both costs are
    paid (the first asks which card, the second takes the two left) and the action gives 100 HP."""
    t = RulesTable("[src]\naction = {D}{D(2)}: hp(+100)\n")
    src = t.ring(0, "src")
    hand = [t.game.create_card(m, 0, "hand") for m in ("a", "b")]
    assert t.engine.resolve_action(t.game, src, "trigger") is False and not t.engine.errors
    assert t.game.state["players"][0]["hand"] == hand and t.hp(0) == 3000
    third = t.game.create_card("c", 0, "hand")
    t.game.decider.answers = [[hand[1]]]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.game.state["players"][0]["hand"] == [] and t.hp(0) == 3100
    assert [t.c(i)["zone"] for i in hand + [third]] == ["discards"] * 3


def test_the_main_phase_plays_backs_up_plays_actions_and_activates_as_the_player_answers(table):
    """docs/cfc-rules.md 5 and 8: in the Main phase the player chooses, again and again until they
    pass, to play a character (into the slot they choose; SP gained when its printed SP is 0 or more),
    back one up, play an Action card (its cost paid, its action resolved) or activate a trigger
    ability; when passing is all that is left, nothing is asked.  Player 0 has 1 SP; plays Tiny (SP 3) into slot 3: 4 SP; backs up the Grunt (500 BP) with
    the Ninja: 800 BP, no SP; plays Jab (SP -1): 3 SP, Jab resolved; activates Trig: resolved; then only passing is left."""
    g = table.game
    table.p(0)["sp"] = 1
    host, trig = table.ring(0, "grunt"), table.ring(0, "trig")
    table.rules.actions.add(trig)
    tiny, nin, jab = table.card(0, "tiny"), table.card(0, "ninja"), table.card(0, "jab")
    table.decider.answers = [{"do": "play", "card": tiny}, 3, {"do": "backup", "card": nin, "host": host},
                             {"do": "action", "card": jab}, {"do": "activate", "card": trig}]
    g.main_phase(0)
    assert [r["kind"] for r in table.decider.requests] == ["choose_main_action", "choose_slot"] + ["choose_main_action"] * 3
    assert (table.c(tiny)["zone"], table.c(tiny)["slot"], table.p(0)["ring"][3]) == ("ring", 3, tiny)
    assert (table.c(nin)["zone"], table.c(host)["bp"]) == ("backup", 800)
    assert table.p(0)["sp"] == 3 and table.p(0)["hand"] == []
    assert table.rules.resolved == [(jab, "action"), (trig, "trigger")]
    # a second Jab in hand: the player is asked once more and passes; the Main phase ends, Jab stays
    jab2 = table.card(0, "jab")
    table.decider.answers = [{"do": "pass"}]
    g.main_phase(0)
    assert len(table.decider.requests) == 6 and table.p(0)["hand"] == [jab2] and table.p(0)["sp"] == 3
