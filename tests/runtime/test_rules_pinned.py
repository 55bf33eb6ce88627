"""Rules of the engine and of CFC that a one-line change used to break without a failing test
(issue 22's mutation test).  Each test compiles real RuleScript, runs it with the real engine on a
real CfcGame table, and checks values worked out by hand from docs/runtime.md and docs/cfc-rules.md."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.compiler import compile_text
from rulescript.games import cfc
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime import expr
from rulescript.runtime.engine import Engine
from rulescript.runtime.errors import GameError
from rulescript.runtime.ports import ListSink
from rulescript.runtime.resolution import MAX_STEPS, Card, Player, Resolution, RuleError
from rulescript.sim.deciders import ScriptedDecider
from runtime_table import enter_ring

ROOT = Path(__file__).resolve().parents[2]


def char(cid, bp=500, sp=0, ability="trigger"):
    return {"id": cid, "name": cid.title(), "type": "character", "subtype": "ninja", "bp": bp, "sp": sp,
            "backup": [], "ability": {"kind": ability, "name": cid}, "text": ""}


MODELS = [char("src"), char("ally"), char("foe"), char("wall", bp=1500), char("a"), char("b"), char("c"),
          char("d"), char("tiny", bp=1),
          {"id": "bolt", "name": "Bolt", "type": "action", "sp": -1, "text": ""}]


class RulesTable:
    """Player 0's Main phase, turn 1, the real engine running ``rules_text`` (compiled for MODELS)."""

    def __init__(self, rules_text="", answers=(), profile="cfc"):
        self.models = {m["id"]: m for m in MODELS}
        compiled = compile_text(rules_text, profile, filename="t.ini", cards=MODELS, cache=None)
        assert compiled.ok, compiled.render()
        self.engine = Engine(compiled.rules, game=cfc)
        self.sink = ListSink()
        self.game = CfcGame(self.models, [[], []], ScriptedDecider(list(answers)), sink=self.sink,
                            rules=self.engine, seed=3, first=0)
        st = self.game.state
        st["phase"], st["turn"], st["active"] = "main", 1, 0
        self.engine.start(self.game)

    def ring(self, p, model):
        return enter_ring(self.game, self.engine, p, model)

    def c(self, iid):
        return self.game.state["cards"][iid]

    def hp(self, p):
        return self.game.state["players"][p]["hp"]


# ---------------------------------------------------------------------------- the engine

def test_a_resolution_may_spend_its_whole_budget_but_not_one_step_more():
    """docs/runtime.md, Limits: 200,000 steps per cascade; the step past them is RS514."""
    t = RulesTable("[src]\naction = hp(+1)\n")
    src = t.ring(0, "src")
    res = Resolution(t.game, t.engine, src, 0, t.engine.rules["src"], "test")
    assert res.budget == [200000] == [MAX_STEPS]
    expr.charge(res, 199999)
    expr.charge(res, 1)                      # the last step of the budget: still fine
    assert res.budget == [0]
    with pytest.raises(RuleError) as err:
        expr.charge(res, 1)
    assert err.value.code == "RS514"


def test_a_run_time_error_without_a_place_of_its_own_points_at_its_rules_section(tmp_path):
    """docs/language.md: RS508 is the engine lacking a cost the profile has (a profile and engine that
    do not match); a run-time error is located, and one that has no place of its own in the rule points
    at the rule's section.  A profile with an extra cost X: the action ``{X}: hp(+1)`` compiles, the
    CFC engine fails on X; the error names t.ini, line 1 (``[src]``), column 2 (the section id)."""
    profile = tmp_path / "profile.yaml"
    text = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text(encoding="utf-8")
    assert text.count("  E: {unsupported") == 1
    profile.write_text(text.replace("  E: {unsupported", '  X: {arg: none, doc: "a cost CFC lacks"}\n  E: {unsupported'),
                       encoding="utf-8")
    t = RulesTable("[src]\naction = {X}: hp(+1)\n", profile=profile)
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    assert (err["code"], err["file"], err["line"], err["col"], err["card"]) == ("RS508", "t.ini", 1, 2, [src, "src"])


def test_a_card_with_a_list_of_rules_has_every_section():
    """docs/runtime.md: a card's ``rules`` may be a list of rule ids; every section is loaded and
    ``resolve_action`` resolves the one named (the first with an action when none is).  Player 0's
    card holds the sections src (+100 HP) and ally (+7 HP): ally gives 3007, then src 3107."""
    t = RulesTable("[src]\naction = hp(+100)\n[ally]\naction = hp(+7)\n")
    src = t.ring(0, "src")
    t.c(src)["rules"] = ["src", "ally"]
    assert t.engine.resolve_action(t.game, src, "trigger", rule_id="ally") is True and t.hp(0) == 3007
    assert t.engine.resolve_action(t.game, src, "trigger") is True and t.hp(0) == 3107
    assert not t.engine.errors


def test_the_player_of_before_damage_is_the_controller_of_the_source():
    """docs/language.md 6.4 and the event table: ``beforeDamage`` fires before a source that is not a
    character damages a player, and its player is the source's controller.  Player 0's Action card
    deals 300 to player 1; player 1's ward (``~oppBeforeDamage~``, -100) and player 0's own booster
    (``~beforeDamage~``, +50) both hear it: 300 - 100 + 50 = 250, so player 1 ends at 2750."""
    t = RulesTable("[bolt]\naction = damage(300) to(opp)\n[ally]\nauto = ~oppBeforeDamage~ modDamage(-100)\n"
                   "[foe]\nauto = ~beforeDamage~ modDamage(+50)\n")
    t.ring(1, "ally")
    t.ring(0, "foe")
    spell = t.game.create_card("bolt", 0, "table")
    assert t.engine.resolve_action(t.game, spell, "trigger") is True and not t.engine.errors
    assert (t.hp(0), t.hp(1)) == (3000, 2750)


def test_a_card_has_an_action_only_when_one_of_its_rules_holds_one():
    """docs/runtime.md, Rules port: ``has_action(game, iid)`` is True when the card's current rules hold
    an ``action`` a player can activate, else False (a bool, as the port's other hosts expect).  ``src``
    has an action, ``ally`` only a listener, ``foe`` no rules at all."""
    t = RulesTable("[src]\naction = hp(+1)\n[ally]\nauto = ~blocks~ hp(+1)\n")
    src, ally, foe = t.ring(0, "src"), t.ring(0, "ally"), t.ring(1, "foe")
    assert [t.engine.has_action(t.game, i) for i in (src, ally, foe)] == [True, False, False]
    assert [type(t.engine.has_action(t.game, i)) for i in (src, ally, foe)] == [bool, bool, bool]


def test_activating_a_card_without_rules_does_nothing():
    """docs/language.md: ``activate(card)`` resolves the action of that card's rules on behalf of the
    source.  The opposing character has no rule section: nothing is resolved, it is no error, and the
    rest of the statement goes on (player 0 gains 100 HP)."""
    t = RulesTable("[src]\ntarget = character@oppRing\naction = activate(tgt.0); hp(+100)\n")
    src = t.ring(0, "src")
    t.ring(1, "foe")
    assert t.engine.resolve_action(t.game, src, "trigger") is True
    assert t.engine.errors == [] and t.hp(0) == 3100


def test_an_activated_action_resolves_for_the_controller_of_the_resolution_that_activates_it():
    """docs/language.md: ``activate(card)`` resolves that card's action on behalf of the source, so
    its ``me`` is the activating resolution's controller.  Player 0's card first moves itself to the
    opponent's discards (it is now player 1's card), then activates the opposing character's action
    ``hp(+100)``: player 0, whose resolution it is, gains the 100 HP."""
    t = RulesTable("[src]\ntarget = character@oppRing\naction = moveTo(oppDiscards) to(this); activate(tgt.0)\n"
                   "[foe]\naction = hp(+100)\n")
    src = t.ring(0, "src")
    t.ring(1, "foe")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.c(src)["zone"] == "discards" and t.c(src)["ctrl"] == 1
    assert (t.hp(0), t.hp(1)) == (3100, 3000)


def test_reading_a_pile_as_a_list_costs_a_step_per_card():
    """docs/runtime.md, Limits: a pile read as a list (``me.discards``) costs one evaluation step per
    card.  The same action with 30 cards more in the discards spends exactly 30 steps more."""
    def spent(cards):
        t = RulesTable("[src]\nvars = _n := me.discards.size\naction = hp(+1)\n")
        src = t.ring(0, "src")
        for _ in range(cards):
            t.game.create_card("a", 0, "discards")
        assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
        return MAX_STEPS - t.engine._budget[0]

    assert spent(30) - spent(0) == 30


@pytest.mark.parametrize("active", [0, 1])
def test_the_active_players_listeners_run_first(active):
    """docs/runtime.md: listeners of one event run the active player's first, then in play order.
    Player 1's card enters play first, so only the active-player rule can put player 0's first."""
    t = RulesTable("[ally]\nauto = ~anyEndPhase~ hp(+100)\n[foe]\nauto = ~anyEndPhase~ hp(+7)\n")
    t.ring(1, "foe")
    t.ring(0, "ally")
    t.game.state["active"] = active
    t.sink.records[:] = []
    t.engine.fire(t.game, "endphase", active)
    assert not t.engine.errors
    assert (t.hp(0), t.hp(1)) == (3100, 3007)
    changed = [r["player"] for r in t.sink.records if r.get("stat") == "hp"]
    assert changed == ([0, 1] if active == 0 else [1, 0])


@pytest.mark.parametrize("kept", ["nothing", "an action"])
def test_a_listener_whose_section_a_reload_took_away_hears_nothing(kept):
    """docs/runtime.md: a card's rules are the sections its ``rules`` names; ``rulescript play --watch``
    puts edited rules in force at the next question (``Engine.replace_rules``), and they apply to the
    cards already in play.  Both cards listen to ``~anyEndPhase~``; the reload drops the ally's
    section (or leaves it an action only): the ally's listener no longer has an auto to run, the
    foe's still gains 7 HP, and nothing is an error."""
    t = RulesTable("[ally]\nauto = ~anyEndPhase~ hp(+100)\n[foe]\nauto = ~anyEndPhase~ hp(+7)\n")
    t.ring(0, "ally")
    t.ring(1, "foe")
    text = "[foe]\nauto = ~anyEndPhase~ hp(+7)\n" + ("[ally]\naction = hp(+100)\n" if kept == "an action" else "")
    reloaded = compile_text(text, "cfc", filename="t.ini", cards=MODELS, cache=None)
    assert reloaded.ok, reloaded.render()
    t.engine.replace_rules(reloaded.rules)
    t.engine.fire(t.game, "endphase", 0)
    assert (t.hp(0), t.hp(1)) == (3000, 3007) and not t.engine.errors


@pytest.mark.parametrize("name", ["tgt", "prevTgt"])
def test_reading_tgt_or_prevtgt_costs_a_step_per_card(name):
    """docs/runtime.md, Limits: ``tgt``, ``prevTgt`` (like a pile read as a list) cost one step per
    card.  Before the first statement ``prevTgt`` is the targets.  The action adds the number of
    targets to player 0's HP, read from ``NAME`` or from ``me.hand`` (an empty pile).  With 4 opposing characters instead of 1, the rule reading
    NAME spends exactly 3 steps more than the other one does (whatever else costs more with more
    characters costs both the same)."""
    def spent(expr_text, chars):
        t = RulesTable("[src]\ntarget = characters@oppRing\naction = hp(+1 + len(%s)) to(me)\n" % expr_text)
        src = t.ring(0, "src")
        for m in ("a", "b", "c", "d")[:chars]:
            t.ring(1, m)
        assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
        assert t.hp(0) == 3001 + (chars if expr_text == name else 0)
        return MAX_STEPS - t.engine._budget[0]

    plain = spent("me.hand", 4) - spent("me.hand", 1)
    assert spent(name, 4) - spent(name, 1) == plain + 3


@pytest.mark.parametrize("atom,kept", [
    ("bp<500", ["tiny"]), ("bp<=500", ["tiny", "foe"]), ("bp>500", ["wall"]), ("bp>=500", ["foe", "wall"]),
    ("bp==500", ["foe"]), ("bp=500", ["foe"]), ("bp!=500", ["tiny", "wall"]), ("-bp<500", ["foe", "wall"]),
    ("bp>-1", ["tiny", "foe", "wall"]), ("bp<1", []),
])
def test_a_stat_comparison_in_a_block_keeps_the_candidates_it_holds_for(atom, kept):
    """docs/language.md 4.3: ``bp`` *op* *n* is true for a character whose current BP compares so with
    n (op ``==``/``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, n signed), ``-`` negates the atom.  Player
    1's ring holds tiny (1 BP), foe (500) and wall (1500), in slot order."""
    t = RulesTable("[src]\ntarget = characters[%s]@oppRing\naction = damage(100)\n" % atom)
    src = t.ring(0, "src")
    names = {t.ring(1, m): m for m in ("tiny", "foe", "wall")}
    assert [names[v.iid] for v in t.engine.action_targets(t.game, src)] == kept


def test_a_player_stat_comparison_tests_each_players_own_value():
    """docs/language.md 4.3: ``hp`` *op* *n* is a player's HP, ``sp`` a player's SP.  Player 0 has
    2500 HP and 4 SP, player 1 3000 HP and 0 SP."""
    t = RulesTable("[src]\ntarget = players[hp<3000]\naction = hp(+1)\n[ally]\ntarget = players[sp>=4]\n"
                   "action = hp(+1)\n[foe]\ntarget = players[hp>2500 & sp<=0]\naction = hp(+1)\n")
    g = t.game
    g.state["players"][0]["hp"], g.state["players"][0]["sp"] = 2500, 4
    g.state["players"][1]["sp"] = 0
    got = [[v.idx for v in t.engine.action_targets(g, t.ring(0, m))] for m in ("src", "ally", "foe")]
    assert got == [[0], [0], [1]]


def _profile_with_keys(tmp_path):
    """The CFC profile with rule keys of its own (docs/ir.md ``keys``; the werewolf profile has such)."""
    text = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text(encoding="utf-8")
    assert "rule_keys:" not in text
    profile = tmp_path / "profile.yaml"
    profile.write_text(text + "\nrule_keys:\n  bonus: {kind: expr, repeat: true, doc: a}\n"
                       "  limit: {kind: expr, doc: b}\n  pick: {kind: filter, doc: c}\n", encoding="utf-8")
    return profile


def test_a_hosts_expression_rule_keys_are_evaluated_for_the_card_and_an_error_gives_false(tmp_path):
    """docs/runtime.md, services for other games: ``key_values(game, iid, rule_id, key, tgt)`` gives the
    values of an expression-valued rule key of the card's rule ``rule_id``, one per occurrence of a
    repeating key, with ``tgt`` as the rule targets; a rule error is recorded and gives False.  The card
    holds the sections src, ally and foe (no rule key); player 0 has 3000 HP and 4 SP, player 1 3000 HP."""
    t = RulesTable("[src]\nbonus = tgt.0.hp + 1\nbonus = 7\naction = hp(+1)\n"
                   "[ally]\nlimit = me.sp * 2\naction = hp(+2)\n[foe]\naction = hp(+3)\n",
                   profile=_profile_with_keys(tmp_path))
    src = t.ring(0, "src")
    t.c(src)["rules"] = ["src", "ally", "foe"]
    t.game.state["players"][0]["sp"] = 4
    e = t.engine
    assert e.key_values(t.game, src, "src", "bonus", [Player(1)]) == [3001, 7]
    assert e.key_values(t.game, src, "ALLY", "limit") == [8]        # one value, as a list; the id in any case
    assert e.key_values(t.game, src, "ally", "bonus") == []         # a key that rule lacks
    assert e.key_values(t.game, src, "wall", "limit") == []         # a rule the card lacks
    assert e.key_values(t.game, src, "foe", "limit") == []          # a rule without any rule key
    assert not e.errors and t.game.state["players"][0]["sp"] == 4
    assert e.key_values(t.game, src, "src", "bonus") == [False, 7]   # no targets: tgt.0 is RS501
    [err] = e.errors
    assert (err["code"], err["line"], err["col"], err["card"], err["why"]) == ("RS501", 2, 9, [src, "src"], "query")


def test_a_hosts_filter_rule_key_is_resolved_silently_for_the_first_rule_that_has_it(tmp_path):
    """docs/runtime.md: ``key_targets(game, iid, key)`` gives the objects a filter-valued rule key of
    the card selects, resolved silently (no decision even where a target would be chosen), for the first
    of its rules that has the key; [] when none has it.  The card's first section, src, has no rule
    key at all."""
    t = RulesTable("[src]\naction = hp(+1)\n[ally]\npick = character@oppRing\naction = hp(+2)\n"
                   "[foe]\npick = characters@myRing\naction = hp(+3)\n", profile=_profile_with_keys(tmp_path))
    src = t.ring(0, "src")
    t.c(src)["rules"] = ["src", "ally", "foe"]
    other = t.ring(0, "a")
    f1, f2 = t.ring(1, "b"), t.ring(1, "c")
    assert t.engine.key_targets(t.game, src, "pick") == [Card(f1), Card(f2)]
    t.c(src)["rules"] = ["src", "foe", "ally"]
    assert t.engine.key_targets(t.game, src, "pick") == [Card(src), Card(other)]
    t.c(src)["rules"] = ["src"]
    assert t.engine.key_targets(t.game, src, "pick") == []
    assert not t.engine.errors


@pytest.mark.parametrize("decl,kind,shown", [
    ("_a := this", "a card", "card #1"),
    ("_a := opp", "a player", "player 2"),
    ("_a := [[[[[1]]]], [this, me], 'x']", "a list", [[[["[...]"]]], ["card #1", "player 1"], "x"]),
    ("_s0 := '0123456789abcdef'; _s1 := _s0 + _s0; _s2 := _s1 + _s1; _s3 := _s2 + _s2; _a := _s3 + _s3",
     "a string", "0123456789abcdef" * 12 + "01234..." + " (256 characters)"),
    ("_s0 := '0123456789'; _s1 := _s0 + _s0; _s2 := _s1 + _s1 + _s0; _s3 := _s2 + _s2; _a := _s3 + _s3",
     "a string", "0123456789" * 20),
    ("_a := [%s]" % ", ".join(str(i) for i in range(20)), "a list", list(range(20))),
    ("_a := [%s]" % ", ".join(str(i) for i in range(21)), "a list", list(range(20)) + ["... 1 more"]),
])
def test_a_rule_errors_record_shows_its_values_as_plain_short_data(decl, kind, shown):
    """docs/runtime.md: a rule error is recorded with the values of its operands, as plain data: a card
    as ``card #iid``, a player as ``player N`` (seats 1 and 2), a list element by element but not
    deeper than four lists and its first 20 elements (then how many more), a text of more than 200
    characters cut to 197 and '...' with its length (one of 200 stays whole).
    Adding 1 to any of them is RS504, whose message names the kind of the operand."""
    t = RulesTable("[src]\nvars = %s; _x := _a + 1\naction = hp(+1)\n" % decl)
    src = t.ring(0, "src")
    assert src == 1
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    assert err["code"] == "RS504" and err["message"] == "cannot apply '+' to %s and a number in '_a + 1'" % kind
    assert err["values"] == [["_a", shown], ["1", 1]]


@pytest.mark.parametrize("tag_len", [3, 298, 299])
def test_an_exception_inside_a_resolution_is_rs530_with_its_text_cut_at_300_characters(tag_len):
    """docs/language.md RS530: an exception that is not a rule error, inside a resolution, is an engine
    error located at the rule's section; the state is restored and play goes on.  IR the compiler never
    writes (an unknown expression tag, as a damaged IR file would hold) makes the evaluator fail with a
    KeyError, whose text is the tag in quotes: 300 characters are shown whole, 301 cut to 297 and '...'."""
    t = RulesTable("[src]\nvars = _x := 1\naction = hp(+100)\n")
    tag = "k" * tag_len
    t.engine.rules["src"]["vars"][0][1]["e"] = [tag, 1]
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    shown = {3: "'kkk'", 298: "'" + "k" * 298 + "'", 299: "'" + "k" * 296 + "..."}[tag_len]
    assert (err["code"], err["file"], err["line"], err["col"], err["card"]) == ("RS530", "t.ini", 1, 2, [src, "src"])
    assert err["message"] == "engine error while resolving src: KeyError: " + shown
    assert err["values"] == [["exception", "KeyError"]]
    assert t.engine.resolve_action(t.game, src, "trigger") is False       # the game goes on: the same error again
    assert len(t.engine.errors) == 2


# ---------------------------------------------------------------------------- CFC

def test_a_united_attack_has_at_most_three_members_even_when_a_fourth_is_affordable():
    """docs/cfc-rules.md, Attacking: a lead, then up to two followers.  Player 0 has SP to spare, so
    only the size limit can refuse the fourth character."""
    t = RulesTable()
    g = t.game
    g.state["players"][0]["sp"] = 50
    lead, f1, f2, f3 = (t.ring(0, m) for m in ("a", "b", "c", "d"))
    g.declare_attack(lead)
    g.join_attack(f1, lead)
    g.join_attack(f2, lead)
    assert g.can_join(f3, lead) is False
    with pytest.raises(GameError):
        g.join_attack(f3, lead)
    assert g.state["attacks"] == [{"lead": lead, "followers": [f1, f2], "blocker": None}]
    # docs/cfc-rules.md: every member is marked attacking and United Attack; the refused one is not
    assert [(t.c(i)["attacking"], t.c(i)["ua"]) for i in (lead, f1, f2, f3)] == [
        (True, "lead"), (True, "follower"), (True, "follower"), (False, None)]


def test_a_united_attack_left_with_one_member_breaks_up_and_a_member_that_cannot_attack_stops():
    """docs/cfc-rules.md, Attacking: ``removeFromAttack()``: if only one member would be left, the
    United Attack breaks up: each remaining member attacks alone if it can, else stops.  A lead and
    one follower; the lead is frozen meanwhile (a frozen character cannot attack): taking the follower
    out leaves no attack at all.  With the lead unfrozen, it attacks alone."""
    for frozen in (True, False):
        t = RulesTable()
        g = t.game
        g.state["players"][0]["sp"] = 50
        lead, follower = t.ring(0, "a"), t.ring(0, "b")
        g.declare_attack(lead)
        g.join_attack(follower, lead)
        t.c(lead)["frozen"] = frozen
        g.remove_from_attack([follower])
        alone = [] if frozen else [{"lead": lead, "followers": [], "blocker": None}]
        assert g.state["attacks"] == alone
        assert [(t.c(i)["attacking"], t.c(i)["ua"]) for i in (lead, follower)] == [(not frozen, None), (False, None)]


def test_a_united_attack_of_three_keeps_two_when_a_follower_leaves_and_breaks_up_when_its_lead_does():
    """docs/cfc-rules.md, Attacking: taking out a follower of three leaves a United Attack of two;
    taking out its lead breaks it up, each remaining member attacking alone."""
    for out in ("follower", "lead"):
        t = RulesTable()
        g = t.game
        g.state["players"][0]["sp"] = 50
        lead, f1, f2 = t.ring(0, "a"), t.ring(0, "b"), t.ring(0, "c")
        g.declare_attack(lead)
        g.join_attack(f1, lead)
        g.join_attack(f2, lead)
        g.remove_from_attack([f1 if out == "follower" else lead])
        if out == "follower":
            assert g.state["attacks"] == [{"lead": lead, "followers": [f2], "blocker": None}]
            assert [t.c(i)["ua"] for i in (lead, f1, f2)] == ["lead", None, "follower"]
        else:
            assert g.state["attacks"] == [{"lead": f1, "followers": [], "blocker": None},
                                          {"lead": f2, "followers": [], "blocker": None}]
            assert [(t.c(i)["attacking"], t.c(i)["ua"]) for i in (lead, f1, f2)] == [
                (False, None), (True, None), (True, None)]


def test_a_character_frozen_by_a_rule_cannot_block():
    """docs/cfc-rules.md, Blocking: a blocker is unfrozen.  Player 1's only character is frozen by a
    rule of player 0; it is otherwise able to block (in the ring, not blocking, no cantblock)."""
    t = RulesTable("[src]\naction = freeze() to(character@oppRing)\n")
    g = t.game
    src = t.ring(0, "src")
    attacker = t.ring(0, "a")
    guard = t.ring(1, "wall")
    assert t.engine.resolve_action(g, src, "trigger") is True and not t.engine.errors
    assert t.c(guard)["frozen"] is True
    g.declare_attack(attacker)
    assert g.able_to_block(guard, attacker) is False
    assert g.defense_options(1) == [{"do": "pass"}]
    with pytest.raises(GameError):
        g.declare_block(guard, attacker)
    t.c(guard)["frozen"] = False                # the same character unfrozen may block
    assert g.able_to_block(guard, attacker) is True


def test_one_point_of_combat_damage_lowers_a_blockers_bp_by_one():
    """docs/cfc-rules.md, Combat (blocked by B): B takes the total T as damage and L takes B's BP;
    combat damage lowers BP by the damage, at most to 0, and a character at 0 BP is KO'd.  A lead of
    1 BP blocked by a wall of 1500: the wall ends at 1499, the lead at 0 and in the discards."""
    t = RulesTable()
    g = t.game
    tiny, wall = t.ring(0, "tiny"), t.ring(1, "wall")
    g.declare_attack(tiny)
    g.declare_block(wall, tiny)
    g.resolve_combat(0)
    assert t.c(wall)["bp"] == 1499 and t.c(wall)["zone"] == "ring"
    assert t.c(tiny)["zone"] == "discards" and t.hp(1) == 3000


def test_a_cost_modifier_sets_or_adds_and_nothing_else():
    """docs/cfc-rules.md, Costs: an ``alterCost`` modifier either sets the base (``=v``) or adds to it
    (``+v``/``-v``); the game refuses any other kind of modifier (a GameError), and keeps none."""
    t = RulesTable()
    src = t.ring(0, "src")
    before = list(t.game.state["lasting"])
    with pytest.raises(GameError):
        t.game.add_cost_mod("action", "*", 2, src)
    assert t.game.state["lasting"] == before
    t.game.add_cost_mod("action", "+", 1, src)
    assert len(t.game.state["lasting"]) == len(before) + 1


def test_the_listeners_of_a_payment_keep_their_effects_and_an_affordability_check_keeps_none():
    """docs/cfc-rules.md, Costs: ``beforepaycost<kind>`` fires when a cost is paid; docs/runtime.md:
    ``cost_adjustment`` is told ``paying`` False for affordability checks, which leave no trace.  A
    listener of player 0 gains 100 HP whenever a character's cost is computed: asking whether a
    character can be paid for changes nothing, playing one gives 3100 HP."""
    t = RulesTable("[ally]\nauto = ~beforePayCostCharacter~ hp(+100)\n")
    g = t.game
    t.ring(0, "ally")
    card = g.create_card("a", 0, "hand")
    assert g.can_afford("character", 0, card) is True and t.hp(0) == 3000
    g.play_character(0, card, slot=2)
    assert t.c(card)["zone"] == "ring" and t.hp(0) == 3100 and not t.engine.errors


def test_destroyed_lists_only_the_cards_this_destroy_moved():
    """docs/language.md: ``destroyed`` holds the cards handled by the latest destroy.  Both opposing
    characters already lie in the discards: destroying them moves nothing, so ``destroyed`` is empty
    and the rule gains 100 HP per card of it: 3000 + 0.  With one in the ring, it gains 100."""
    rule = "[src]\naction = destroy() to(characters@oppDiscards); hp(+100 * destroyed.size)\n"
    t = RulesTable(rule)
    g = t.game
    src = t.ring(0, "src")
    gone = [g.create_card(m, 1, "discards") for m in ("b", "c")]
    assert t.engine.resolve_action(g, src, "trigger") is True and not t.engine.errors
    assert all(t.c(i)["zone"] == "discards" for i in gone)
    assert t.hp(0) == 3000
    t = RulesTable(rule.replace("oppDiscards", "oppRing"))
    src = t.ring(0, "src")
    standing = t.ring(1, "a")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.c(standing)["zone"] == "discards" and t.hp(0) == 3100


def test_a_host_is_offered_no_targets_while_a_requisite_fails():
    """docs/runtime.md: ``action_targets`` gives [] when the requisites do not hold.  The requisite
    asks for an opposing character: none in player 1's ring, no targets; with one, player 0's
    character is offered."""
    t = RulesTable("[src]\nrequisite = character@oppRing\ntarget = character@myRing\naction = damage(100)\n")
    src = t.ring(0, "src")
    assert t.engine.action_targets(t.game, src) == []
    t.ring(1, "foe")
    assert [v.iid for v in t.engine.action_targets(t.game, src)] == [src]


def test_what_a_host_offers_as_targets_names_each_object_once():
    """docs/runtime.md: ``action_targets`` gives the objects the ``target`` property could take.  Two
    filters that both find the opposing character (the arena is both rings, the controller's first):
    it is offered once, after player 0's own one."""
    t = RulesTable("[src]\ntarget = character@arena; character@oppRing\naction = damage(100)\n")
    src = t.ring(0, "src")
    foe = t.ring(1, "foe")
    got = t.engine.action_targets(t.game, src)
    assert [v.iid for v in got] == [src, foe]


def test_multiplying_bp_succeeds_so_a_chain_goes_on():
    """docs/language.md §5.6: ``a && b`` runs b only if a succeeded; ``bp(x2)`` on a character succeeds:
    500 BP becomes 1000 and player 0 gains 100 HP."""
    t = RulesTable("[src]\naction = bp(x2) to(character@myRing) && hp(+100)\n")
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.c(src)["bp"] == 1000 and t.hp(0) == 3100


def test_a_run_time_error_quotes_an_any_quantifier_as_any():
    """docs/language.md §8.7: ``any e in list`` is true when e holds for at least one element, so for
    an empty hand it is false (and ``all`` true).  Player 0's hand is empty: the condition is false,
    the ``if`` gives nil, and reading ``.hp`` of nil is RS502, whose message quotes the expression as
    written (the quantifier in brackets inside the condition)."""
    t = RulesTable("[src]\naction = hp(+(me if any isChar(card) in me.hand else nil).hp)\n")
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    assert (err["code"], err["message"]) == (
        "RS502", "attribute 'hp' of nil ('me if (any isChar(card) in me.hand) else nil' is nil)")


def test_a_player_left_with_no_attacker_after_the_table_is_cleared_is_not_asked_to_attack():
    """docs/cfc-rules.md, turn table: the Attack phase is skipped if no character of P can attack;
    otherwise P's Action cards on the table are discarded, then P declares attacks (``choose_attack``)
    until done.  docs/language.md 7.4: a static auto's lasting effects last while its source stays in
    play.  Player 0's only character holds ``cantattack``; an Action card on the table masks it
    (``-cantattack``), so the phase takes place, but its discard gives ``cantattack`` back: nothing can
    attack, so there is nothing to declare and player 0 is not asked (no answer is scripted)."""
    t = RulesTable("[src]\nauto = +cantattack\n[bolt]\nauto = -cantattack to(characters@myRing)\n")
    g = t.game
    t.ring(0, "src")
    assert g.any_able_to_attack(0) is False
    spell = g.create_card("bolt", 0, "table")
    t.engine.card_entered_play(g, spell)
    assert g.any_able_to_attack(0) is True
    assert g.phase_attack(0) is True
    assert t.c(spell)["zone"] == "discards" and g.any_able_to_attack(0) is False
    assert g.state["attacks"] == [] and not t.engine.errors


def test_the_attack_declaration_joins_only_what_the_sp_pays_and_cancels_a_follower_alone(table):
    """docs/cfc-rules.md §7 and §12 (``choose_attack``): P attacks with a character, adds one to the
    United Attack (the lead first), cancels an attack, or finishes; a character may join only if P
    could pay the United Attack of the new size (5 SP per follower, §5), and cancelling a follower
    takes only it out.  Player 0 has three grunts (slots 0-2) and 5 SP: a United Attack of two, never
    of three."""
    g = table.game
    a, b, c = (table.ring(0, "grunt") for _ in range(3))
    table.p(0)["sp"] = 5
    attack, done = (lambda i: {"do": "attack", "card": i}), {"do": "done"}
    join, cancel = (lambda i: {"do": "join", "card": i, "lead": a}), (lambda i: {"do": "cancel", "card": i})
    table.decider.answers = [attack(a), join(b), attack(c), cancel(b), done]
    g.declare_attacks(0)
    assert [r["options"] for r in table.decider.requests] == [
        [attack(a), attack(b), attack(c), done],
        [attack(b), attack(c), join(b), join(c), cancel(a), done],
        [attack(c), cancel(a), cancel(b), done],                   # a third member would cost 10 SP
        [cancel(a), cancel(b), cancel(c), done],
        # two solo attacks again: b may join either of them (one United Attack at a time)
        [attack(b), join(b), {"do": "join", "card": b, "lead": c}, cancel(a), cancel(c), done]]
    assert g.state["attacks"] == [{"lead": a, "followers": [], "blocker": None},
                                  {"lead": c, "followers": [], "blocker": None}]
    assert [(table.c(i)["attacking"], table.c(i)["ua"]) for i in (a, b, c)] == [
        (True, None), (False, None), (True, None)]
    assert table.p(0)["sp"] == 5                                 # nothing is paid while declaring


def test_the_defense_declaration_blocks_withdraws_and_blocks_again(table):
    """docs/cfc-rules.md §7 Blocking and §12 (``choose_defense``): D blocks (blocker and attack),
    withdraws a block, or passes; one blocker per attack, one attack per blocker.  Player 0 attacks
    with grunts in slots 0 and 1; player 1 has two bigs.  D blocks the first attack with its first big,
    withdraws it, blocks it with the second, then the other attack with the first."""
    g = table.game
    a, c = table.ring(0, "grunt"), table.ring(0, "grunt")
    w1, w2 = table.ring(1, "big"), table.ring(1, "big")
    g.declare_attack(a)
    g.declare_attack(c)
    block = lambda w, lead: {"do": "block", "card": w, "attack": lead}   # noqa: E731
    withdraw, done = (lambda w: {"do": "withdraw", "card": w}), {"do": "pass"}
    table.decider.answers = [block(w1, a), withdraw(w1), block(w2, a), block(w1, c), done]
    g.declare_defense(1)
    everything = [block(w1, a), block(w1, c), block(w2, a), block(w2, c), done]
    assert [r["options"] for r in table.decider.requests] == [
        everything,
        [block(w2, c), withdraw(w1), done],
        everything,
        [block(w1, c), withdraw(w2), done],
        [withdraw(w1), withdraw(w2), done]]
    assert g.state["attacks"] == [{"lead": a, "followers": [], "blocker": w2},
                                  {"lead": c, "followers": [], "blocker": w1}]
    assert [table.c(w)["blocking"] for w in (w1, w2)] == [c, a]


def test_a_card_created_at_a_position_of_a_pile_lies_there(table):
    """docs/runtime.md / docs/scenarios.md: a host builds a table with the game's ``create_card(model,
    owner, zone, pos=None)``: without a position the card goes at the end of the pile, with one it is
    inserted there (the deck's top is position 0, docs/language.md 4.4)."""
    g = table.game
    first = g.create_card("grunt", 0, "deck")
    last = g.create_card("ninja", 0, "deck")
    top = g.create_card("big", 0, "deck", pos=0)
    middle = g.create_card("tiny", 0, "deck", pos=2)
    assert table.p(0)["deck"] == [top, first, middle, last]
    assert [table.c(i)["zone"] for i in (top, middle)] == ["deck", "deck"]


@pytest.mark.parametrize("action", [
    "steal() to(opp)",                                      # no card to steal from
    "steal(character@oppDiscards) to(character@oppRing)",   # the receiver filter finds nothing
    "steal(character@oppRing) to(character@oppRing)",       # the receiver is the first target itself
    "steal() to(this)",                                     # the source steals from itself
    "steal() to(^character@myRing)",                       # the first target has no rules
    "swapAbilities() to(character@oppRing)",                # one card: nothing to exchange
    "copyAbility(this) to(this)",                           # a card copying itself
])
def test_a_rules_command_with_nothing_to_move_changes_nothing_and_succeeds(action):
    """docs/language.md 6.2 and 6.5: ``steal([filter])``: the receiver (the source, or the card the
    filter chooses) copies the first target's rules, which the first target then loses; copying from a
    card without rules does nothing; ``swapAbilities()`` exchanges the rules of the first two targets.
    With no card to steal from, no receiver, a receiver that is the first target, a first target
    without rules, or one card to swap, no card's rules change, and the command succeeds: the ``&&``
    after it runs (5.6), on the statement's targets (player 0's cards, or player 1 for ``opp``)."""
    t = RulesTable("[src]\naction = %s && hp(+100)\n[foe]\nauto = ~anyEndPhase~ hp(+7)\n" % action)
    src, plain = t.ring(0, "src"), t.ring(0, "a")
    foe = t.ring(1, "foe")
    before = [(t.c(i)["rules"], t.c(i)["ability"]) for i in (src, plain, foe)]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert (t.hp(0), t.hp(1)) == ((3000, 3100) if "(opp)" in action else (3100, 3000))
    assert [(t.c(i)["rules"], t.c(i)["ability"]) for i in (src, plain, foe)] == before


def test_a_discard_cost_of_the_whole_hand_asks_nothing():
    """docs/cfc-rules.md §12: ``choose_targets`` is asked for cost cards only when there is a real
    choice; docs/language.md: ``{D(n)}`` discards n cards of the hand.  Player 0 holds exactly two
    cards: paying ``{D(2)}`` discards both without a question (no answer is scripted), then the
    action gives 100 HP.  With three cards the player is asked which two."""
    t = RulesTable("[src]\naction = {D(2)}: hp(+100)\n")
    src = t.ring(0, "src")
    hand = [t.game.create_card(m, 0, "hand") for m in ("a", "b")]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.game.state["players"][0]["hand"] == [] and [t.c(i)["zone"] for i in hand] == ["discards"] * 2
    assert t.hp(0) == 3100
    t = RulesTable("[src]\naction = {D(2)}: hp(+100)\n")
    src = t.ring(0, "src")
    hand = [t.game.create_card(m, 0, "hand") for m in ("a", "b", "c")]
    t.game.decider.answers = [[hand[0], hand[2]]]
    assert t.engine.resolve_action(t.game, src, "trigger") is True and not t.engine.errors
    assert t.game.state["players"][0]["hand"] == [hand[1]] and t.hp(0) == 3100


def test_a_run_time_error_quotes_an_element_read_inside_a_condition_as_written():
    """docs/language.md §8: ``list.N`` reads element N; a run-time error quotes the expression as
    written.  ``[1, 2].0 > 5`` is false, the ``if`` gives nil, and reading ``.hp`` of nil is RS502,
    whose message quotes the condition with its element read."""
    t = RulesTable("[src]\naction = hp(+(me if [1, 2].0 > 5 else nil).hp)\n")
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is False and t.hp(0) == 3000
    [err] = t.engine.errors
    assert (err["code"], err["message"]) == ("RS502", "attribute 'hp' of nil ('me if [1, 2].0 > 5 else nil' is nil)")


def test_a_block_whose_can_block_listener_froze_the_blocker_is_not_made():
    """docs/language.md 7.6: ``canBlock`` is asked when a block is declared, and a listener resolves
    normally (its verdict true when it ran to the end); docs/cfc-rules.md §7: a blocker is unfrozen.
    Player 0's attacker freezes the would-be blocker from its ``?oppCanBlock?`` listener: the verdict
    does not refuse the block, but the blocker can no longer block, so no block is made."""
    t = RulesTable("[a]\nauto = ?oppCanBlock? freeze() to(blocker)\n")
    g = t.game
    attacker, wall = t.ring(0, "a"), t.ring(1, "wall")
    g.declare_attack(attacker)
    assert g.defense_options(1) == [{"do": "block", "card": wall, "attack": attacker}, {"do": "pass"}]
    assert t.c(wall)["frozen"] is False                  # offering the block left no trace
    assert g.declare_block(wall, attacker) is False and not t.engine.errors
    assert t.c(wall)["frozen"] is True and t.c(wall)["blocking"] is None
    assert g.state["attacks"] == [{"lead": attacker, "followers": [], "blocker": None}]
    said = [r for r in t.sink.records if r["type"] == "message"]
    assert said == [{"type": "message", "text": "block no longer possible", "card": wall, "lead": attacker}]
    t = RulesTable("[a]\nauto = ?oppCanBlock? hp(+1)\n")       # a listener that leaves the blocker be
    attacker, wall = t.ring(0, "a"), t.ring(1, "wall")
    t.game.declare_attack(attacker)
    assert t.game.declare_block(wall, attacker) is True and t.c(wall)["blocking"] == attacker


def test_only_an_able_character_joins_and_only_the_lead_of_an_attack_is_joined(table):
    """docs/cfc-rules.md §7: a United Attack is a lead, then followers, each able to attack (in P's
    ring, unfrozen, not fresh); a United Attack is joined (and blocked) through its lead.  Player 0 has
    SP for a United Attack of three."""
    g = table.game
    table.p(0)["sp"] = 10
    lead, follower, idle = table.ring(0, "grunt"), table.ring(0, "grunt"), table.ring(0, "grunt")
    frozen = table.ring(0, "grunt", frozen=True)
    g.declare_attack(lead)
    g.join_attack(follower, lead)
    assert [g.can_join(idle, lead), g.can_join(idle, follower), g.can_join(frozen, lead),
            g.can_join(lead, idle)] == [True, False, False, False]


def test_only_an_opposing_character_in_the_ring_blocks_and_only_a_lead(table):
    """docs/cfc-rules.md §7, Blocking: the blocker is one of D's characters in the ring; a United
    Attack is blocked through its lead.  Player 0 attacks with a United Attack of two; player 1's
    character in the ring may block its lead only; a character in player 1's hand, or one of player
    0's own, may not block."""
    g = table.game
    table.p(0)["sp"] = 5
    lead, follower, own = table.ring(0, "grunt"), table.ring(0, "grunt"), table.ring(0, "big")
    guard = table.ring(1, "big")
    held = table.card(1, "big")
    g.declare_attack(lead)
    g.join_attack(follower, lead)
    assert [g.able_to_block(guard, lead), g.able_to_block(guard, follower), g.able_to_block(held, lead),
            g.able_to_block(own, lead)] == [True, False, False, False]


def test_a_discard_that_discards_succeeds_so_a_chain_goes_on():
    """docs/language.md: ``discard(all)`` makes each target player discard the whole hand and fails only
    when nothing was discarded; ``a && b`` runs b only if a succeeded; a statement has one target clause
    (RS108), so ``to(opp)`` is the target of both.  Player 1 holds two cards: both go to the discards
    and player 1 gains 100 HP.  Again with player 1's hand empty: the discard fails, no HP."""
    t = RulesTable("[src]\naction = discard(all) to(opp) && hp(+100)\n")
    src = t.ring(0, "src")
    held = [t.game.create_card(m, 1, "hand") for m in ("a", "b")]
    t.engine.resolve_action(t.game, src, "trigger")
    assert not t.engine.errors
    assert t.game.state["players"][1]["hand"] == [] and all(t.c(i)["zone"] == "discards" for i in held)
    assert (t.hp(0), t.hp(1)) == (3000, 3100)
    t.c(src)["frozen"] = False
    t.engine.resolve_action(t.game, src, "trigger")
    assert (t.hp(0), t.hp(1)) == (3000, 3100)
