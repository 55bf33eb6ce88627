"""More rules of the engine and of CFC pinned for issue 22's mutation test: functions whose results
ran but that no test read.  Each test runs real RuleScript with the real engine on a real CfcGame
table (or the game's own code on a laid-out table) and checks values worked out by hand from
docs/runtime.md, docs/language.md and docs/cfc-rules.md."""
from __future__ import annotations

import pytest

from rulescript.runtime import expr
from test_expr import compile_vars, make_res, run
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


@pytest.mark.parametrize("written, shown", [
    ("1 - (2 - 3)", "1 - (2 - 3)"),                     # the right operand of a left-to-right operator
    ("(1 - 2) - 3", "1 - 2 - 3"),
    ("(1 + 2) * 3", "(1 + 2) * 3"),
    ("1 + 2 * 3", "1 + 2 * 3"),
    ("7 // (2 % 3)", "7 // (2 % 3)"),
    ("-(1 + 2)", "-(1 + 2)"),                           # signs bind tighter than * and +
    ("-me.hp * 3", "-me.hp * 3"),
    ("+me.hp", "+me.hp"),
    ("(me.hp + 1) * -2", "(me.hp + 1) * -2"),
    ("-(not true)", "-(not true)"),
    ("not -1", "not -1"),
    ("not (1 < 2 and 2 < 3)", "not (1 < 2 and 2 < 3)"),  # not, and, or: looser and looser
    ("not 1 < 2", "not 1 < 2"),
    ("(not true) == false", "(not true) == false"),
    ("(1 or 2) and 3", "(1 or 2) and 3"),
    ("1 or 2 and 3", "1 or 2 and 3"),
    ("1 and (2 and 3)", "1 and (2 and 3)"),
    ("(1 and 2) and 3", "1 and 2 and 3"),
    ("1 or (2 or 3)", "1 or (2 or 3)"),
    ("(1 or 2) or 3", "1 or 2 or 3"),
    ("1 < 2 <= 3", "1 < 2 <= 3"),                       # a chain of comparisons; one as an operand of another
    ("(1 == 1) < 2", "(1 == 1) < 2"),
    ("1 not in [1]", "1 not in [1]"),
    ("(1 if 2 else 3) + 1", "(1 if 2 else 3) + 1"),     # a conditional is the loosest form
    ("1 if 2 else 3 if 4 else 5", "1 if 2 else 3 if 4 else 5"),
    ("(1 if 2 else 3) if 4 else 5", "(1 if 2 else 3) if 4 else 5"),
    ("1 if (2 if 3 else 4) else 5", "1 if (2 if 3 else 4) else 5"),
    ("all card.bp >= 500 in me.ring", "all card.bp >= 500 in me.ring"),
    ("(all card.bp >= 500 in me.ring) and true", "(all card.bp >= 500 in me.ring) and true"),
    ("not (any isChar(card) in me.hand)", "not (any isChar(card) in me.hand)"),
    ("1 if true else any card in me.hand", "1 if true else any card in me.hand"),
    ("any card.bp > 0 or card.sp > 0 in me.hand", "any card.bp > 0 or card.sp > 0 in me.hand"),  # or inside
    ("any (card.bp if true else 1) in [me.hand, [1]].0", "any (card.bp if true else 1) in [me.hand, [1]].0"),
    ("([1] + [2]).0", "([1] + [2]).0"),                 # an attribute or element of a bracketed operand
    ("(me.hand + me.ring).0.bp", "(me.hand + me.ring).0.bp"),
    ("Me.Hand.Size", "me.Hand.Size"),                   # names as the profile spells them, attributes as written
    ("me.hp +\n    me.Hand.size", "me.hp + me.hand.size"),  # written on a continuation line: the profile's spelling
    ("[\n    Len([1])]", "[len([1])]"),
    ("[1 if true else 2, 3]", "[1 if true else 2, 3]"),   # the elements of a list need no brackets
    ("len([1, 2])", "len([1, 2])"),
    ("[1, 'a', nil, true, false].0", "[1, 'a', nil, true, false].0"),
    ("\"it's\"", "\"it's\""),
    ("'abcdefghijabcdefghijabcdefghijabcdefghijX'", "'abcdefghijabcdefghijabcdefghijabcdefg...'"),
])
def test_a_run_time_error_quotes_an_expression_with_the_brackets_it_needs(written, shown):
    """docs/language.md 8: the forms of an expression from the loosest to the tightest (conditional;
    or; and; not; comparisons; + -; * / // %; signs; attributes, elements and calls; quantifiers);
    a run-time error quotes the expression it is about rebuilt from the rule (docs/runtime.md), with
    brackets only where the form needs them (a quantifier always bracketed as an operand) and a
    text of more than 40 characters cut to 37 and "...".  A function or attribute is quoted as written
    when it stands on the rule's first line, else as the profile spells it.  Expected texts written by hand."""
    root = compile_vars("_v := " + written)["vars"][0][1]
    assert expr.node_text(root, root["e"]) == shown


@pytest.mark.parametrize("text, value", [
    ("1 == [1]", False), ("[1] == 1", False), ("'a' == ['a']", False), ("[1, 2] == [1]", False),
    ("[1, 2] == [2, 1]", False), ("[] == []", True), ("[nil] == [false]", False), ("[[1, 2]] == [[1, 2]]", True),
    ("0 == nil", False), ("nil != nil", False), ("1 == true", False), ("false == false", True),
    ("false != true", True), ("1 == '1'", False), ("'a' == 'a'", True), ("'a' == 'A'", False),
    ("2 / 2 == 1", True), ("7 / 2 == 3", False), ("1 in [[1]]", False), ("[1] in [[1]]", True),
    ("me == me", True), ("me == opp", False), ("me == 0", False), ("[me] == [me]", True),
])
def test_equality_is_by_kind_then_by_value_and_lists_element_by_element(table, text, value):
    """docs/language.md 8.2 and 8.3: ``==`` and ``!=`` compare values of one kind (a boolean is not a
    number, nil equals only nil, a list is never equal to what is not a list of equal elements in the
    same order, a player only to itself); ``in`` uses ``==``."""
    assert run(make_res(table), "_v := %s" % text) is value


def _probe_block(rules_text):
    """Player 0's ``a`` attacks player 1's Wall; the engine probes ``canBlock`` for Wall blocking it
    with an error callback, a ran set and a last exception of the test's own in place."""
    t = RulesTable(rules_text)
    attacker = t.ring(0, "a")
    for m in ("b", "c"):
        if "[%s]" % m in rules_text:
            t.ring(0, m)
    wall, tiny = t.ring(1, "wall"), t.ring(1, "tiny")
    t.game.declare_attack(attacker)
    seen, marker = [], ValueError("an earlier exception")
    t.engine.on_error, t.engine.last_exception = seen.append, marker
    ran, records, decider, sink = set(t.engine.ran), len(t.sink.records), t.game.decider, t.game.sink
    verdicts = t.engine.probe_hook(t.game, "canblock", 1, attacker, attacker, {"attacker": attacker, "blocker": wall})
    assert (t.hp(0), t.hp(1), t.engine.errors, seen, t.engine.ran) == (3000, 3000, [], [], ran)
    assert t.engine.on_error == seen.append and t.engine.last_exception is marker
    assert (len(t.sink.records), t.game.decider, t.game.sink) == (records, decider, sink)
    assert [t.c(i)["bp"] for i in (wall, tiny)] == [1500, 1]
    return verdicts


def test_probing_a_hook_gives_each_listeners_verdict_and_leaves_no_trace():
    """docs/language.md 7.6: a listener's verdict is its first condition-only statement's value, else
    whether it ran to the end (a run-time error stops it); docs/runtime.md: ``probe_hook`` gives the
    verdicts ``ask_hook`` would give and leaves no trace (state, records, rule errors, the error
    callback, the rules that ran, the last exception); a listener that would ask a question makes it
    None (only asking can tell); no listener, no verdict.  Player 1 holds no card; ``a`` is the
    attacker (its listeners hear the hook on their own card), ``b`` and ``c`` hear it on any card."""
    assert _probe_block("[src]\naction = hp(+1)\n") == []
    assert _probe_block("[a]\nauto = ?oppCanBlock? hp(+100)\n"
                        "[b]\nauto = ?oppCanBlock:any? [[if opp.hand.size > 2]]\n"
                        "[c]\nauto = ?oppCanBlock:any? hp(+(me.hp // (me.hp - me.hp)))\n") == [True, False, False]
    assert _probe_block("[a]\nauto = ?oppCanBlock? [[if opp.hand.size <= 2]] hp(+100)\n") == [True]
    assert _probe_block("[a]\nauto = ?oppCanBlock? bp(-1) to(character@oppRing)\n") is None
    # the hook's bindings reach the listeners: the blocker is the Wall (1500 BP)
    assert _probe_block("[a]\nauto = ?oppCanBlock? [[if blocker.bp > 1000 and attacker.bp == 500]]\n") == [True]
    t = RulesTable("[a]\nauto = ?oppCanBlock? [[if opp.hand.size < 2]]\n")
    attacker = t.ring(0, "a")
    assert t.engine.probe_hook(t.game, "canblock", 1, attacker, attacker) == [True]   # no bindings given


@pytest.mark.parametrize("rules, answers", [
    ("auto = ~beforePayCostCharacter~ [[if flipCoin()]] modCost(character, 1)", ["heads"]),  # a coin flip
    ("auto = ~beforePayCostCharacter~ modCost(character, 1); +rush", []),                   # an ability given
    ("target = <r1>characters@oppRing\nauto = ~beforePayCostCharacter~ modCost(character, 1)", []),  # a random pick
    ("auto = ~beforePayCostCharacter~ modCost(character, 1) to(<r1>players)", []),           # a random target clause
    ("auto = ~beforePayCostCharacter~ [[if len([1, 2]) > 1]] modCost(character, 1)", []),       # pure: nothing to undo
])
def test_an_affordability_check_undoes_what_its_cost_listeners_change(rules, answers):
    """docs/runtime.md: ``cost_adjustment`` told ``paying`` False (an affordability check) leaves no
    trace; docs/cfc-rules.md, Costs: ``beforePayCost...`` listeners run while a cost is computed.  A
    listener of player 0 that flips a coin, gives its card an ability, or picks a random target (the
    game's random generator is part of the state) changes the state while it runs: asking whether a
    character can be paid for leaves the whole state as it was (the coin's question is asked)."""
    import copy

    t = RulesTable("[ally]\n%s\n" % rules, answers=answers)
    t.ring(0, "ally")
    t.ring(1, "foe"), t.ring(1, "wall")
    card = t.game.create_card("a", 0, "hand")
    before = copy.deepcopy(dict((k, v) for k, v in t.game.state.items() if k != "log"))
    assert t.game.can_afford("character", 0, card) is True and not t.engine.errors
    assert dict((k, v) for k, v in t.game.state.items() if k != "log") == before
    assert t.game.decider.pos == len(answers)


@pytest.mark.parametrize("statement", [
    "activate(tgt.0)",
    "alterCost(character, -1)",
    "bp(+100)",
    "clear()",
    "copyAbility(this) to(characters@myRing)",
    "damage(100) to(characters@oppRing)",
    "destroy() to(characters@oppRing)",
    "disableRule(backup_limit)",
    "enableRule(backup_limit)",
    "draw()",
    "freeze() to(characters@oppRing)",
    "hp(+1)",
    "loseAbility() to(characters@oppRing)",
    "loseLife(1)",
    "modCost(character, 1)",
    "modDamage(1)",
    "modRule(play_char_bp_limit, 1000)",
    "movePile(myDeck, myDiscards)",
    "moveRevealedTo(hand)",                        # no target: player 0's whole deck
    "moveTo(discards) to(characters@oppRing)",
    "peek()",
    "pileView(removed, expanded)",
    "playExtraChar()",
    "prophecy(1, top)",
    "removeFromAttack() to(characters@oppRing)",
    "reveal() to(characters@oppRing)",
    "reveal(hand)",
    "rndDiscard()",
    "shuffle()",
    "sp(+1)",
    "steal() to(characters@oppRing)",
    "swapAbilities() to(characters@oppRing)",
    "swapChars() to(characters@oppRing)",
    "swapPiles(myDeck, myDiscards)",
    "transform('tiny') to(characters@oppRing)",
    "trash()",
    "turns(1)",
    "unfreeze() to(characters@oppRing)",
    "unite() to(characters@myRing)",
    "bp(+100) to(opp)",                            # no card among the targets: nothing to do
    "bp(x2) to(opp)",
    "bp(=500) to(opp)",
    "moveTo(discards) to(opp)",
    "moveTo(deck, ?) to(opp)",                     # no card: no question either
    "copyAbility(tgt.0) to(characters@oppRing)",   # the card copied from has no rules: nothing to copy
    "damage(0) to(characters@oppRing)",            # nothing to deal
    "each(card.bp > 0 in opp.ring => sp(+1))",     # each, both forms
    "each(characters@oppRing => sp(+1))",
])
def test_a_command_that_does_its_work_succeeds_so_a_chain_goes_on(statement):
    """docs/language.md 5.6: ``a && b`` runs b only if a succeeded; 6.2: the commands that can fail
    are named (``discard`` and ``moveRevealedTo`` when nothing moves); 5.8: ``hp`` acts on the
    players among the statement targets, or on the controller when there is none.  Each command, in a
    form that does its work on a table where it can (or finds nothing to do), is followed by
    ``&& hp(+100)``: player 0 gains 100 HP, or player 1 when the statement's targets are ``opp``."""
    target = ("target = '%s'@myRing\n" % ("A" if "copy" in statement else "Ally")) if "tgt" in statement else ""
    t = RulesTable("[src]\n%saction = %s && hp(+100)\n[ally]\naction = sp(+1)\n" % (target, statement))
    src = t.ring(0, "src")
    t.ring(0, "ally"), t.ring(0, "a"), t.ring(1, "foe"), t.ring(1, "wall")
    for p, zone, models in ((0, "hand", "ab"), (1, "hand", "c"), (0, "deck", "dc"), (1, "deck", "ab")):
        for m in models:
            t.game.create_card(m, p, zone)
    assert t.engine.resolve_action(t.game, src, "trigger") in (True, "clear") and not t.engine.errors
    own = {"hp(+1)": 1, "loseLife(1)": -1}.get(statement, 0)
    assert (t.hp(0), t.hp(1)) == ((3000, 3100) if statement.endswith("to(opp)") else (3100 + own, 3000))


@pytest.mark.parametrize("hp, winner, reason", [
    ((0, 0), None, "both players at 0 HP"), ((0, 5), 1, "player 0 at 0 HP"), ((5, 0), 0, "player 1 at 0 HP"),
    ((-20, 1), 1, "player 0 at 0 HP"),
])
def test_a_player_at_0_hp_loses_at_the_next_check_and_both_at_once_is_a_draw(table, hp, winner, reason):
    """docs/cfc-rules.md 10: a player loses when their HP reaches 0, checked after every command; both at
    the same check is a draw; the game ends at once: every later check says the same."""
    from rulescript.runtime.errors import GameOver
    g = table.game
    table.p(0)["hp"], table.p(1)["hp"] = hp
    with pytest.raises(GameOver) as over:
        g.check_over()
    assert (over.value.winner, over.value.reason) == (winner, reason)
    st = g.state
    assert (st["over"], st["winner"], st["result"], st["reason"]) == (True, winner, "draw" if winner is None else "win", reason)
    table.p(0)["hp"] = table.p(1)["hp"] = 100      # no HP change brings a game back
    with pytest.raises(GameOver) as again:
        g.check_over()
    assert (again.value.winner, again.value.reason) == (winner, reason)
    with pytest.raises(GameOver) as conceded:
        g.concede(0)                                  # nor does a concession change who won
    assert (conceded.value.winner, conceded.value.reason) == (winner, reason)
    assert [r for r in table.sink.records if r["type"] == "gameover"] == [{"type": "gameover", "winner": winner, "reason": reason}]


def test_both_players_above_0_hp_go_on_and_a_concession_makes_the_other_player_win(table):
    """docs/cfc-rules.md 10; docs/runtime.md: a player may concede, the other wins."""
    from rulescript.runtime.errors import GameOver
    g = table.game
    table.p(0)["hp"], table.p(1)["hp"] = 1, 1
    g.check_over()
    assert g.state["over"] is False
    with pytest.raises(GameOver) as over:
        g.concede(1)
    assert (over.value.winner, over.value.reason, g.state["winner"]) == (0, "player 1 conceded", 0)


def test_the_game_refuses_unknown_rules_abilities_and_cost_kinds_and_keeps_nothing(table):
    """docs/cfc-rules.md 4 and 11: lasting effects are game-rule entries, abilities given to one card or one
    player, and cost modifiers of the five cost kinds; anything else is a GameError and no entry is kept."""
    from rulescript.runtime.errors import GameError
    g = table.game
    src = table.ring(0, "grunt")
    for call in (lambda: g.add_rule_entry("no_such_rule", src, None, True),
                 lambda: g.add_grant("no_such_ability", src, card=src),
                 lambda: g.add_grant("rush", src),
                 lambda: g.add_grant("rush", src, card=src, player=0),
                 lambda: g.add_cost_mod("spell", "+", 1, src)):
        with pytest.raises(GameError):
            call()
    assert g.state["lasting"] == []
    for kind in ("character", "action", "reaction", "ua2", "ua3"):
        g.add_cost_mod(kind, "=", 0, src)
    assert [e["cost"] for e in g.state["lasting"]] == ["character", "action", "reaction", "ua2", "ua3"]


def test_rush_given_to_a_fresh_character_lets_it_act_unless_rush_is_masked(table):
    """docs/cfc-rules.md 9 and docs/language.md 7.7: a fresh character that gains ``rush`` is no longer
    fresh; a ``-rush`` mask on it wins over the grant, so it stays fresh, until the mask ends."""
    g = table.game
    a, b = table.ring(0, "grunt", fresh=True), table.ring(0, "grunt", fresh=True)
    g.add_grant("rush", None, card=a)
    assert (table.c(a)["fresh"], table.c(b)["fresh"]) == (False, True)
    mask = g.add_grant("rush", None, card=b, mask=True)
    g.add_grant("rush", None, card=b)
    assert table.c(b)["fresh"] is True
    g.end_lasting([mask["id"]])
    assert table.c(b)["fresh"] is False


def test_a_run_time_error_is_recorded_whole_and_its_resolution_undone():
    """docs/runtime.md (rule errors) and docs/language.md 8.9: a run-time error stops its resolution,
    which is undone (the first statement's HP too), and is recorded once, in the engine's errors and
    as a ``rule_error`` record, with its code, message, file, line, the columns of the expression
    as written (its brackets included, the end one past the last character), the rule's text of it,
    the card and rule, why it resolved, the values that led to it, the turn and the phase.
    ``action = hp(+1); hp(+(me.hp // (me.hp - me.hp)))``: ``(`` of the division is column 22, its
    last ``)`` column 47.  Then a listener of a state event: it runs once when its card enters play
    (turn 1, Main phase), and again when the event fires (turn 4, Draw phase); its ``(`` is at 29."""
    t = RulesTable("[src]\naction = hp(+1); hp(+(me.hp // (me.hp - me.hp)))\n")
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    want = {"code": "RS505", "message": "division by zero in 'me.hp // (me.hp - me.hp)'", "file": "t.ini",
            "line": 2, "col": 22, "end_col": 48, "text": "+(me.hp // (me.hp - me.hp))", "card": [src, "src"],
            "why": "trigger", "values": [["me.hp - me.hp", 0]], "turn": 1, "phase": "main"}
    assert t.engine.errors == [want]
    assert [r for r in t.sink.records if r["type"] == "rule_error"] == [{"type": "rule_error", "error": want}]
    t = RulesTable("[ally]\nauto = ~oppHandChanges~ hp(+(me.hp // (me.hp - me.hp)))\n")
    ally = t.ring(0, "ally")
    t.game.state["phase"], t.game.state["turn"] = "draw", 4
    t.game.create_card("b", 1, "hand")
    t.game.fire("handchanges", 1)
    want = dict(want, col=29, end_col=55, card=[ally, "ally"], why="handchanges")
    assert t.engine.errors == [want, dict(want, turn=4, phase="draw")] and t.hp(0) == 3000


def test_moved_holds_the_cards_of_the_latest_move_and_none_after_one_that_moved_nothing():
    """docs/language.md 6.2: ``moveTo`` and ``moveRevealedTo`` set ``moved``; ``moveRevealedTo`` fails
    when it has nothing to move (its first target lies in no pile: a character in the ring).  Player 0
    moves the two cards of the hand to the discards (``moved``: 2 cards), then a ``moveRevealedTo`` of
    a character in the ring moves nothing and fails (``&&`` stops; ``moved`` is empty): HP + 0 + 7."""
    t = RulesTable("[src]\naction = moveTo(discards) to(*s@myHand); hp(+len(moved) * 10)"
                   "; moveRevealedTo(hand) to(characters@myRing) && hp(+100); hp(+len(moved) + 7)\n")
    src = t.ring(0, "src")
    held = [t.game.create_card(m, 0, "hand") for m in ("a", "b")]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert [t.c(i)["zone"] for i in held] == ["discards"] * 2 and t.c(src)["zone"] == "ring"
    assert t.hp(0) == 3000 + 20 + 7


def test_a_card_with_several_actions_asks_which_one_under_their_labels_and_may_be_cancelled():
    """docs/language.md 3.2: a section with several actions asks the controller (``choose_action``);
    ``label`` names the actions in order, an action without a label is offered under the name of its
    first command (``+rush`` for an ability), followed by a ``'`` per earlier action of the same
    name.  Player 0 chooses ``sp``: 1 SP and 7 HP; then cancels
    the question (``choose_action`` may be cancelled): the activation does nothing."""
    from runtime_table import Script
    t = RulesTable("[src]\naction = hp(+100)\nlabel = Heal Me\naction = sp(+1); hp(+7)\naction = draw()\naction = +rush\n")
    src = t.ring(0, "src")
    t.game.decider = Script(["sp", None])
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert (t.hp(0), t.game.state["players"][0]["sp"]) == (3007, 1)
    [req] = t.game.decider.requests
    assert (req["kind"], req["player"], req["options"], req["min"], req["max"]) == ("choose_action", 0, ["Heal Me", "sp", "draw", "+rush"], 1, 1)
    assert req["cancel"] is True
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert (t.hp(0), t.game.state["players"][0]["sp"], len(t.game.decider.requests)) == (3007, 1, 2)
    # two actions, both named by their first command: asked too, the second under "hp'"
    t = RulesTable("[src]\naction = hp(+100)\naction = hp(+5)\nlabel = hp\n")
    t.game.decider = Script(["hp'"])
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and t.hp(0) == 3005
    assert t.game.decider.requests[0]["options"] == ["hp", "hp'"]


@pytest.mark.parametrize("rule, foes, resolved, hp", [
    ("requisite = characters@oppRing\naction = {D}: hp(+100)", 0, False, 3000),   # a requisite that fails: nothing paid
    ("requisite = characters@oppRing\naction = {D}: hp(+100)", 1, True, 3100),
    ("requisite = characters@oppRing && characters@myDiscards\naction = hp(+100)", 1, False, 3000),  # every filter must find
    ("target = character@oppRing\naction = {D}: hp(+100)", 0, False, 3000),      # a target that finds nothing
    ("target = character@oppRing\naction = {D}: hp(+100)", 1, True, 3100),
])
def test_an_action_stops_before_its_costs_when_a_requisite_or_its_target_finds_nothing(rule, foes, resolved, hp):
    """docs/language.md 3.5: requisites are checked before anything else: when one finds nothing the
    activation stops and nothing changes; 5.1: the rule's target is found before the costs are paid.
    Player 0 holds one card (for ``{D}``); player 1 has 0 or 1 character in the ring."""
    t = RulesTable("[src]\n%s\n" % rule)
    src = t.ring(0, "src")
    for _ in range(foes):
        t.ring(1, "foe")
    held = t.game.create_card("a", 0, "hand")
    assert t.engine.resolve_action(t.game, src, "trigger") is resolved and not t.engine.errors
    assert t.hp(0) == hp
    assert t.c(held)["zone"] == ("discards" if resolved and "{D}" in rule else "hand")


@pytest.mark.parametrize("action, hp", [
    ("hp?(+100) && hp(+10); hp(+1)", 3111),                      # command?(...) asks; yes: it runs
    ("hp?(+100) && hp(+10); hp(+1)", 3001),                      # no: it is skipped and fails
])
def test_a_command_that_asks_first_runs_only_if_the_controller_says_yes(action, hp):
    """docs/language.md 5.6: ``command?(...)`` asks the controller (``yes_no``); declining skips it and counts as a failure."""
    from runtime_table import Script
    t = RulesTable("[src]\naction = %s\n" % action)
    t.game.decider = Script([hp != 3001])
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    [req] = t.game.decider.requests
    assert (req["kind"], req["player"], req["prompt"], req["options"], req["min"], req["max"]) == \
        ("yes_no", 0, "Use hp?", [True, False], 1, 1)
    assert t.hp(0) == hp


def test_an_auto_whose_target_finds_nothing_does_not_resolve():
    """docs/language.md 5.8 and 7.5: an auto with ``target`` acts on what it finds; one whose target
    finds nothing does not resolve.  A state listener runs once when its card enters play: with no
    opposing character nothing happens; with one, player 0 gains 100 HP."""
    rules = "[ally]\ntarget = characters@oppRing\nauto = ~myHandChanges~ hp(+100)\n"
    t = RulesTable(rules)
    t.ring(0, "ally")
    assert (t.hp(0), t.engine.errors) == (3000, [])
    t = RulesTable(rules)
    t.ring(1, "foe")
    t.ring(0, "ally")
    assert (t.hp(0), t.engine.errors) == (3100, [])


def test_a_listener_hears_only_triggers_of_its_type_and_objects_it_listens_for():
    """docs/language.md 7.3 suffixes: ``:action`` / ``:char``: the trigger must be a card of that type;
    no object suffix: the object must be the listener's own card; ``:any``: any object.  The trigger of
    ``beforePayCostAction`` is the Action card being paid: of player 0's two listeners only the
    ``:action`` one changes Bolt's cost (1 SP, now 2).  ``removed`` of player 0's character ``a``:
    the listener without a suffix (on ``ally``) does not hear it, the ``:any`` one (on ``foe``) does."""
    t = RulesTable("[ally]\nauto = ~beforePayCostAction:action~ modCost(action, -1)\n"
                   "[foe]\nauto = ~beforePayCostAction:char~ modCost(action, -5)\n")
    t.ring(0, "ally"), t.ring(0, "foe")
    bolt = t.game.create_card("bolt", 0, "hand")
    assert t.game.cost_value("action", 0, bolt) == -2 and not t.engine.errors
    t = RulesTable("[ally]\nauto = ~removed~ hp(+100)\n[foe]\nauto = ~removed:any~ hp(+10)\n")
    t.ring(0, "ally"), t.ring(0, "foe")
    gone = t.ring(0, "a")
    t.game.destroy([gone])
    assert (t.c(gone)["zone"], t.hp(0), t.engine.errors) == ("discards", 3010, [])


def test_a_listener_whose_card_an_earlier_listener_destroyed_does_not_run():
    """docs/language.md 7.5: a card that leaves play unsubscribes its listeners; the active player's
    listeners run first.  Player 1's ``foe`` heard ``handchanges`` once when it entered play (a state
    event: 100 HP).  When player 0's hand changes, player 0's ``ally`` runs first and destroys ``foe``,
    whose listener then does not run: player 1 stays at 3100."""
    t = RulesTable("[ally]\nauto = ~anyHandChanges~ destroy() to(characters@oppRing)\n"
                   "[foe]\nauto = ~anyHandChanges~ hp(+100)\n")
    t.ring(0, "ally")
    foe = t.ring(1, "foe")
    assert t.hp(1) == 3100
    t.game.create_card("b", 0, "hand")
    t.game.fire("handchanges", 0)
    assert (t.c(foe)["zone"], t.hp(1), t.engine.errors) == ("discards", 3100, [])


def test_an_attacker_destroyed_when_its_block_is_heard_deals_and_takes_no_combat_damage():
    """docs/cfc-rules.md 7: in the End phase, for a blocked attack ``blocks`` then ``blocked`` fire
    before damage; an attack whose lead has left the ring deals no damage.  Player 1's Wall (1500 BP)
    blocks player 0's ``a`` (500 BP) and its ``blocks`` listener destroys the attacker: the Wall keeps
    its 1500 BP, nobody loses HP, no combat is recorded."""
    t = RulesTable("[wall]\nauto = ~blocks~ destroy() to(attacker)\n")
    g = t.game
    attacker, wall = t.ring(0, "a"), t.ring(1, "wall")
    g.declare_attack(attacker)
    assert g.declare_block(wall, attacker) is True
    g.resolve_combat(0)
    assert (t.c(attacker)["zone"], t.c(wall)["bp"], t.hp(0), t.hp(1)) == ("discards", 1500, 3000, 3000)
    assert [r for r in t.sink.records if r["type"] == "combat"] == [] and not t.engine.errors


@pytest.mark.parametrize("written, labels", [
    ('^!"Grunt"&character, opp', ['^!"grunt"&character', "opp"]),
    ("opp, ^character, !ninja", ["opp", "^character", "!ninja"]),
    ('me, "Tiny", opp', ["me", '"tiny"', "opp"]),
    ("character, opp, character", ["character", "opp", "character'"]),   # the same alternative twice
])
def test_choose_type_offers_each_alternative_as_written_and_tells_equal_ones_apart(table, written, labels):
    """docs/language.md 4 (combining types, prefixes): when the alternatives of a ``,`` select players
    and cards, the controller first chooses an alternative (``choose_type``), offered as written
    (``^``, ``!``, quoted names, ``&``; names in lower case), an alternative written again with a
    ``'`` per earlier copy.  Choosing the last one then asks for its targets when it selects cards."""
    from test_targets import asked, filt, make_res
    from rulescript.runtime import targets
    from rulescript.runtime.resolution import Card, Player
    mine = [table.ring(0, "grunt", 0), table.ring(0, "ninja", 1)]
    theirs = [table.ring(1, "tiny", 0), table.ring(1, "big", 2)]
    res = make_res(table, source=mine[0], answers=[labels[-1], [theirs[0]]])
    got = targets.resolve(res, filt(written), "clause")
    assert asked(res)[0] == ("choose_type", 0, labels, 1, 1, False)
    assert got == ([Player(1)] if labels[-1] == "opp" else [Card(theirs[0])])


@pytest.mark.parametrize("action, yes, hp", [
    ("hp?(+1) || hp(+10)", False, 3010),
    ("hp?(+1) || hp(+10)", True, 3001),
    ("hp?(+1) && hp(+10) & hp(+100)", False, 3000),       # && after a failure skips the rest of the statement
    ("hp?(+1) && hp(+10) & hp(+100)", True, 3111),
    ("hp?(+1) || hp(+10) && hp(+100)", True, 3101),       # || after a success skips its effect alone
    ("hp?(+1) || hp(+10) && hp(+100)", False, 3110),
    ("hp?(+1) & hp(+10)", False, 3010),
    ("hp?(+1) && hp(+10); hp(+100)", False, 3100),        # the next statement still runs
])
def test_chains_run_each_effect_by_the_outcome_of_the_latest_one(action, yes, hp):
    """docs/language.md 5.6: ``a & b`` runs b; ``a && b`` runs b only if a succeeded, else skips b and
    the rest of the statement; ``a || b`` runs b only if a failed, else skips b alone; left to right.
    ``hp?(+1)`` asks first; answering no makes it fail."""
    t = RulesTable("[src]\naction = %s\n" % action, answers=[yes])
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.hp(0) == hp


@pytest.mark.parametrize("action, yes, hp, question", [
    ("[[may]] hp(+1); hp(+10)", True, 3011, "Use this effect?"),
    ("[[may]] hp(+1); hp(+10)", False, 3000, "Use this effect?"),      # no: every later statement is skipped
    ("hp(+100); [[may 'Take It?']] hp(+1); hp(+10)", False, 3100, "Take It?"),
])
def test_may_asks_its_question_and_no_ends_the_resolution(action, yes, hp, question):
    """docs/language.md 5.5: ``[[may]]`` asks the controller a yes/no question before the statement (its
    text may be given in quotes, case kept); answering no ends the resolution: this statement and every
    later one are skipped (what ran before stays)."""
    from runtime_table import Script
    t = RulesTable("[src]\naction = %s\n" % action)
    t.game.decider = Script([yes])
    src = t.ring(0, "src")
    t.engine.resolve_action(t.game, src, "trigger")
    [req] = t.game.decider.requests
    assert (req["kind"], req["player"], req["prompt"], req["options"], req["min"], req["max"]) == \
        ("yes_no", 0, question, [True, False], 1, 1)
    assert t.hp(0) == hp and not t.engine.errors


def test_a_once_listener_outlives_its_card_and_is_used_up_only_when_it_runs():
    """docs/language.md 7.5: listeners are unregistered when their card leaves play, after its own
    ``removed`` listeners ran; a ``:once`` listener outlives its card and is used up only when it runs.
    Player 0's ``ally`` (``~anyRemoved:any:once~``, +100 HP) and ``foe`` (``~anyRemoved:any~``, +10 HP):
    player 0's ``a`` is destroyed: 3110; then ``ally`` itself: its once listener is used up, ``foe``
    hears it: 3120; then ``foe``: it hears its own removal: 3130; then ``b``: nobody is left: 3130."""
    t = RulesTable("[ally]\nauto = ~anyRemoved:any:once~ hp(+100)\n[foe]\nauto = ~anyRemoved:any~ hp(+10)\n")
    ally, foe, a, b = t.ring(0, "ally"), t.ring(0, "foe"), t.ring(0, "a"), t.ring(0, "b")
    hp = []
    for gone in (a, ally, foe, b):
        t.game.destroy([gone])
        hp.append(t.hp(0))
    assert hp == [3110, 3120, 3130, 3130] and not t.engine.errors


def test_a_static_auto_lasts_while_its_card_stays_and_withdraw_mode_takes_back_a_grant():
    """docs/language.md 7.4: a static auto runs once when its rules load and its lasting effects last
    while the source stays in play; withdraw mode: when an auto's ``[[if]]`` is false (no ``[[else]]``)
    each ``+ability`` withdraws this source's grant to its targets.  ``ally`` gives itself
    ``unblockable`` while player 0's ring holds one character: alone it has it; when ``a`` enters, it
    no longer has it; when ``a`` leaves, again.  ``src`` (static) gives the characters of player 0's
    ring ``cantattack`` when it enters (``ally`` and itself) until it leaves play."""
    t = RulesTable("[src]\nauto = +cantattack to(characters@myRing)\n"
                   "[ally]\nauto = ~ringChanges~ [[if me.ring.size == 1]] +unblockable\n")
    g = t.game
    ally = t.ring(0, "ally")
    assert g.has_ability(ally, "unblockable") is True
    a = t.ring(0, "a")
    g.fire("ringchanges", 0)
    assert g.has_ability(ally, "unblockable") is False
    g.destroy([a])
    assert g.has_ability(ally, "unblockable") is True
    src = t.ring(0, "src")
    assert [g.has_ability(i, "cantattack") for i in (ally, src)] == [True, True]
    g.destroy([src])
    assert g.has_ability(ally, "cantattack") is False and not t.engine.errors


@pytest.mark.parametrize("pos, one, two", [
    ("top", "dabc", "dtabc"), ("0", "dabc", "dtabc"), ("bottom", "abcd", "abcdt"), ("-1", "abcd", "abcdt"),
    ("1", "adbc", "adtbc"), ("2", "abdc", "abdtc"), ("-2", "abdc", "abdtc"), ("-3", "adbc", "adtbc"),
    ("9", "abcd", "abcdt"), ("-9", "dabc", "dtabc"),       # past the end of the pile: its bottom, its top
])
def test_move_to_puts_the_cards_at_their_position_in_their_order(pos, one, two):
    """docs/language.md 6.3: positions ``top`` or ``0``, ``bottom`` or ``-1``, ``k`` (the k-th place
    from the top, from 0) and ``-k`` (from the bottom); the cards moved keep their order.  Player 0's
    deck is a, b, c (top first); the hand's d (then d and Tiny, t) go into it."""
    letters = {"a": "a", "b": "b", "c": "c", "d": "d", "tiny": "t"}
    for hand, want in ((("d",), one), (("d", "tiny"), two)):
        t = RulesTable("[src]\naction = moveTo(deck, %s) to(*s@myHand)\n" % pos)
        src = t.ring(0, "src")
        for m in "abc":
            t.game.create_card(m, 0, "deck")
        for m in hand:
            t.game.create_card(m, 0, "hand")
        assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
        assert "".join(letters[t.c(i)["model"]] for i in t.game.state["players"][0]["deck"]) == want


@pytest.mark.parametrize("answer, want", [("top", "dtabc"), ("bottom", "abcdt")])
def test_move_to_a_chosen_end_asks_once_for_all_the_cards(answer, want):
    """docs/language.md 6.3: ``?``: the controller chooses top or bottom, once for all the targets."""
    from runtime_table import Script
    t = RulesTable("[src]\naction = moveTo(deck, ?) to(*s@myHand)\n")
    t.game.decider = Script([answer])
    src = t.ring(0, "src")
    for m in "abc":
        t.game.create_card(m, 0, "deck")
    t.game.create_card("d", 0, "hand"), t.game.create_card("tiny", 0, "hand")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    [req] = t.game.decider.requests
    assert (req["kind"], req["options"]) == ("top_or_bottom", ["top", "bottom"])
    letters = {"a": "a", "b": "b", "c": "c", "d": "d", "tiny": "t"}
    assert "".join(letters[t.c(i)["model"]] for i in t.game.state["players"][0]["deck"]) == want


@pytest.mark.parametrize("written, nodes", [
    ("1", 1), ("1 + 2 * 3", 5), ("[1, 2]", 3), ("len([1, 2])", 4), ("1 if 2 else 3", 4), ("-me.hp", 3),
    ("[1, [2, [3]]].0", 7), ("not true and me.hp", 5),
])
def test_the_size_of_an_element_expression_counts_its_nodes(written, nodes):
    """docs/runtime.md, Limits: every element a quantifier or ``each`` visits costs the number of nodes
    of its element expression: one per literal, name, attribute, element, call, list, operator and
    condition (``[1, [2, [3]]].0``: the element, three lists, three literals)."""
    root = compile_vars("_v := " + written)["vars"][0][1]
    assert expr.node_size(root["e"]) == nodes


def test_each_record_a_resolution_makes_the_game_emit_costs_five_steps():
    """docs/runtime.md, Limits: every record the game emits while a resolution runs costs 5 steps, and
    every filter resolved 5 + 3 per candidate it examines.  Moving the whole hand to the discards with
    ten cards more in it examines ten candidates more and emits ten ``move`` records more (one per
    card): 10 * (3 + 5) = 80 steps more."""
    from rulescript.runtime.resolution import MAX_STEPS

    def spent(cards):
        t = RulesTable("[src]\naction = moveTo(discards) to(*s@myHand)\n")
        src = t.ring(0, "src")
        for _ in range(cards):
            t.game.create_card("a", 0, "hand")
        assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
        assert t.game.state["players"][0]["hand"] == []
        return MAX_STEPS - t.engine._budget[0]

    assert spent(11) - spent(1) == 80


def test_the_members_of_a_united_attack_hear_nothing_until_the_turn_ends():
    """docs/language.md 7.5 (suppression): while a character is a member of a United Attack, until the
    turn ends, its listeners do not run.  Player 0's ``a`` leads a United Attack that ``b`` joins;
    ``c`` stays out.  Each heard ``handChanges`` once when it entered play (100 + 10 + 1 HP); ``a``
    attacking alone still hears it (+ 111); once the United Attack is formed only ``c`` does (+ 1),
    also after the follower left the attack (+ 1)."""
    t = RulesTable("[a]\nauto = ~anyHandChanges~ hp(+100)\n[b]\nauto = ~anyHandChanges~ hp(+10)\n"
                   "[c]\nauto = ~anyHandChanges~ hp(+1)\n")
    g = t.game
    g.state["players"][0]["sp"] = 10
    lead, follower, _ = t.ring(0, "a"), t.ring(0, "b"), t.ring(0, "c")
    assert t.hp(0) == 3111
    g.declare_attack(lead)                     # attacking alone: no United Attack, it still hears
    g.fire("handchanges", 0)
    assert t.hp(0) == 3222
    g.join_attack(follower, lead)
    g.fire("handchanges", 0)
    assert t.hp(0) == 3223
    g.remove_from_attack([follower])
    g.fire("handchanges", 0)
    assert t.hp(0) == 3224 and not t.engine.errors


@pytest.mark.parametrize("followers, sp, left, dissolved", [
    (1, 10, 7, False),      # two members: base -5, the ua2 modifier +2: pays 3
    (2, 20, 7, False),      # three members: base -10, the ua3 modifier -3: pays 13
    (1, 2, 2, True),        # cannot pay 3: the United Attack dissolves, nothing paid
    (1, 3, 0, False),       # exactly 3
])
def test_a_united_attack_pays_the_cost_of_its_size(table, followers, sp, left, dissolved):
    """docs/cfc-rules.md 5 (Costs): a United Attack of two members is the cost kind ``ua2``, of three
    ``ua3``; its base is -5 per follower, its kind's ``alterCost`` modifiers add to it; a player with
    less SP cannot form it (it dissolves, each member attacking alone)."""
    g = table.game
    lead = table.ring(0, "grunt")
    members = [table.ring(0, "grunt") for _ in range(followers)]
    table.p(0)["sp"] = 20
    g.declare_attack(lead)
    for f in members:
        g.join_attack(f, lead)
    g.add_cost_mod("ua2", "+", 2, None)
    g.add_cost_mod("ua3", "+", -3, None)
    table.p(0)["sp"] = sp
    g.pay_united_attack(0)
    assert table.p(0)["sp"] == left
    assert (g.united_attack() is None) is dissolved
    said = [r["text"] for r in table.sink.records if r["type"] == "message"]
    assert said == (["the United Attack cannot be paid; it dissolves"] if dissolved else [])


def test_a_united_attack_that_costs_nothing_is_formed_by_a_player_without_sp_and_its_cost_listeners_keep_their_effects():
    """docs/cfc-rules.md 5 (Costs): the value is base + M (a ``+5`` modifier makes a United Attack of two
    cost 0: a player with 0 SP forms it); ``beforepaycostua2`` fires when it is paid, and the effects
    of its listeners stay (this is a payment, not an affordability check): player 0 gains 100 HP."""
    t = RulesTable("[c]\nauto = ~beforePayCostUa2~ hp(+100)\n")
    g = t.game
    g.state["players"][0]["sp"] = 5
    lead, follower = t.ring(0, "a"), t.ring(0, "b")
    t.ring(0, "c")
    g.declare_attack(lead)
    g.join_attack(follower, lead)
    g.add_cost_mod("ua2", "+", 5, None)
    g.state["players"][0]["sp"] = 0
    before = t.hp(0)
    g.pay_united_attack(0)
    assert (g.state["players"][0]["sp"], t.hp(0) - before) == (0, 100)
    assert g.united_attack() is not None and not t.engine.errors


def test_a_character_in_front_is_the_one_in_the_facing_slot_and_a_card_outside_a_ring_faces_none():
    """docs/language.md 4 (zones): ``infront`` is the character facing the source in the other ring
    (slot 0 faces slot 3, 1 faces 2); a card that is not in a ring faces nothing.  Player 0's source in
    slot 1 freezes the character in player 1's slot 2; the facing slot of ``a`` (slot 0) is empty."""
    t = RulesTable("[src]\naction = freeze() to(characters@infront)\n")
    g = t.game
    a, src = t.ring(0, "a"), t.ring(0, "src")
    wall, foe = t.ring(1, "wall"), t.ring(1, "foe")
    g.state["players"][1]["ring"] = [None, None, None, None]
    for slot, iid in ((1, wall), (2, foe)):
        g.state["players"][1]["ring"][slot] = iid
        t.c(iid)["slot"] = slot
    assert (t.c(a)["slot"], t.c(src)["slot"]) == (0, 1)
    assert (g.infront(src), g.infront(a), g.infront(wall)) == (foe, None, None)
    held = g.create_card("b", 0, "hand")
    assert g.infront(held) is None
    assert t.engine.resolve_action(g, src, "trigger") is True and not t.engine.errors
    assert (t.c(foe)["frozen"], t.c(wall)["frozen"]) == (True, False)


def test_a_character_played_remembers_its_printed_bp_as_its_last_bp_above_0():
    """docs/language.md 8.6: ``lastBP`` is the last BP above 0 the card had in a ring; docs/cfc-rules.md
    5: a played character enters with its printed BP.  Tiny (1 BP) played: BP 1, lastBP 1."""
    t = RulesTable()
    tiny = t.game.create_card("tiny", 0, "hand")
    t.game.play_character(0, tiny, slot=0)
    assert (t.c(tiny)["bp"], t.c(tiny)["lastBP"]) == (1, 1)
    # a character printed with 0 BP whose last BP above 0 was 100 (it had it in a ring before), played:
    # it enters with 0 BP (and is KO'd), its lastBP stays 100
    from test_rules_pinned import char
    t.models["zero"] = char("zero", bp=0)
    zero = t.game.create_card("zero", 0, "hand")
    t.game.play_character(0, zero, slot=1)
    assert (t.c(zero)["zone"], t.c(zero)["lastBP"]) == ("discards", 0)
    zero = t.game.create_card("zero", 0, "hand")
    t.c(zero)["lastBP"] = 100
    t.game.play_character(0, zero, slot=1)
    assert (t.c(zero)["zone"], t.c(zero)["bp"], t.c(zero)["lastBP"]) == ("discards", 0, 100)


@pytest.mark.parametrize("value, hp, sp", [
    ("[me, opp]", (3100, 3100), 1),             # the players and cards of a list
    ("opp", (3000, 3100), 1),
    ("nil", (3000, 3000), 0),                   # no targets: the clause stops the resolution
])
def test_a_target_clause_of_an_expression_takes_the_players_and_cards_it_holds(value, hp, sp):
    """docs/language.md 5.7: a target clause may be an expression; its targets are the card or player it
    gives, or the cards and players of a list; nil gives no targets, and a clause that finds nothing
    stops the resolution (without ``?``): the next statement, ``sp(+1)``, does not run."""
    t = RulesTable("[src]\nvars = _v := %s\naction = hp(+100) to(_v); sp(+1)\n" % value)
    src = t.ring(0, "src")
    t.engine.resolve_action(t.game, src, "trigger")
    assert (t.hp(0), t.hp(1), t.game.state["players"][0]["sp"], t.engine.errors) == hp + (sp, [])


def test_a_character_already_attacking_cannot_attack_again(table):
    """docs/cfc-rules.md 7: a character attacks once per turn: while attacking it is not able to attack
    (``able_to_attack`` is False), though it still counts as able for what follows its declaration."""
    g = table.game
    a, b = table.ring(0, "grunt"), table.ring(0, "grunt")
    assert (g.able_to_attack(a), g.able_to_attack(b)) == (True, True)
    g.declare_attack(a)
    assert (g.able_to_attack(a), g.able_to_attack(a, ignore_attacking=True), g.able_to_attack(b)) == (False, True, True)


@pytest.mark.parametrize("clause", ["*s@myHand; characters@myRing", "characters@oppRing; characters@myRing"])
def test_swap_chars_swaps_only_two_characters_of_one_ring(clause):
    """docs/language.md 6.2: ``swapChars()``: the first two targets, characters of one ring, exchange
    slots.  A first target in the hand, or two characters of different rings: nothing moves, and the
    command succeeds."""
    t = RulesTable("[src]\naction = swapChars() to(%s) && hp(+100)\n" % clause)
    src, a = t.ring(0, "src"), t.ring(0, "a")
    foe = t.ring(1, "foe")
    t.game.create_card("b", 0, "hand")
    slots = [t.c(i)["slot"] for i in (src, a, foe)]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert [t.c(i)["slot"] for i in (src, a, foe)] == slots and t.hp(0) == 3100


def test_a_blocker_stronger_than_the_lead_by_1_deals_1_to_the_follower(table):
    """docs/cfc-rules.md 7: when a United Attack is blocked by a character with more BP than its lead,
    the excess (blocker BP - lead BP) is dealt to the followers in order, each taking at most its BP.
    Lead and follower 500 BP each, blocker 501: the follower loses 1 BP."""
    g = table.game
    table.p(0)["sp"] = 10
    lead, follower = table.ring(0, "grunt"), table.ring(0, "grunt")
    blocker = table.ring(1, "big")
    table.c(blocker)["bp"] = 501
    g.declare_attack(lead)
    g.join_attack(follower, lead)
    assert g.declare_block(blocker, lead) is True
    g.resolve_combat(0)
    assert (table.c(follower)["bp"], table.c(lead)["zone"], table.c(blocker)["zone"]) == (499, "discards", "discards")


def test_an_attack_taken_out_of_combat_by_an_earlier_attacks_listener_is_not_resolved():
    """docs/cfc-rules.md 7: attacks are resolved one by one in the slot order of their leads, and an
    attack that is no longer in combat when its turn comes deals no damage, even when its lead is still
    in the ring.  Player 0 attacks with ``a`` (slot 0, blocked by player 1's Wall) and ``b`` (slot 1,
    unblocked, 500 BP); the Wall's ``blocks`` listener takes ``b`` out of its attack
    (``removeFromAttack``): ``b`` stays in the ring, attacks no more, and player 1 keeps 3000 HP (with
    ``b`` resolved it would lose 500)."""
    t = RulesTable("[wall]\nauto = ~blocks~ removeFromAttack() to('B'@oppRing)\n")
    g = t.game
    a, b, wall = t.ring(0, "a"), t.ring(0, "b"), t.ring(1, "wall")
    g.declare_attack(a)
    g.declare_attack(b)
    assert g.declare_block(wall, a) is True
    g.resolve_combat(0)
    assert (t.c(b)["zone"], t.c(b)["attacking"], t.hp(1)) == ("ring", False, 3000)
    assert [(r["lead"], r["blocker"]) for r in t.sink.records if r["type"] == "combat"] == [(a, wall)]
    assert (t.c(a)["zone"], t.c(wall)["bp"], t.engine.errors) == ("discards", 1000, [])
