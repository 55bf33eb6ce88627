"""The CFC commands, ability effects and costs (rulescript/games/cfc/commands.py).

Every test compiles real RuleScript text with ``rulescript.compile_text`` and runs the resulting IR
on a real :class:`CfcGame` table, answering decisions with the headless ``ScriptedDecider``; the
assertions are on the game state (and, for presentation-only commands, on the emitted records).

About the engine used here
--------------------------
``commands`` calls five engine services (``evaluate``, ``number``, ``resolve``, ``run_chain``,
``activate``).  :class:`MiniEngine` provides them with the runtime's real expression evaluator and
filter resolver (``expr.py``, ``targets.py``, ``games/cfc/vocab.py``).  The engine proper (``engine.py``)
was being written at the same time, so the statement driver is a small stand-in written here:
costs (through the commands module), the target property, vars, plain/may/if statements, target clauses
(``to?`` included), restrictions, effect chains (& && ||) and withdraw mode for autos.  It does
not do requisites, choose_action, transactions or listeners (the ``Listeners`` port below runs
chosen autos for beforedamage/beforepaycost only).  The last tests run a few rules through the real
``Engine`` to check the contract between it and the commands module.

It is a test fixture, not the engine; the bulk of each test checks what the command did to the game.
"""
import pytest

import rulescript
from rulescript.games.cfc import commands as cmds
from rulescript.runtime import expr, targets
from rulescript.games.cfc.vocab import CfcVocab
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.errors import GameOver
from rulescript.runtime.ports import ListSink, NoRules
from rulescript.runtime.resolution import Card, Player, Resolution, RuleError
from rulescript.sim.deciders import ScriptedDecider


def _char(cid, name, bp, sp, subtype, ability=None):
    m = {"id": cid, "name": name, "type": "character", "subtype": subtype, "bp": bp, "sp": sp,
         "backup": [], "text": ""}
    if ability:
        m["ability"] = {"kind": ability[0], "name": ability[1]}
    return m


CARDS = [
    _char("scout", "Scout", 300, 1, "ninja"),
    _char("brawler", "Brawler", 500, 0, "kung-fu"),
    _char("titan", "Titan", 1000, -2, "boss"),
    _char("mage", "Mage", 400, 1, "mage", ("trigger", "Spark")),
    _char("golem", "Golem", 800, 0, "robot", ("auto", "Stone Skin")),
    {"id": "bolt", "name": "Bolt", "type": "action", "sp": -1, "text": ""},
    {"id": "parry", "name": "Parry", "type": "reaction", "sp": -1, "text": ""},
]
MODELS = dict((m["id"], m) for m in CARDS)

# Rules that exist for the card ids above (used by copyAbility/steal/activate and has_rules).
BASE_RULES = """
[mage]
action = {F}: draw()
[golem]
abilities = unblockable
"""


# ---------------------------------------------------------------------------- the stand-in engine

class MiniEngine(object):
    """The engine services the commands module calls, over a real CfcGame: expressions and filters are the
    runtime's own (expr.py, targets.py, games/cfc/vocab.py); only the statement driver below is a
    stand-in (see the module docstring)."""

    def __init__(self, rules):
        self.rules = dict((k.lower(), v) for k, v in rules.items())   # rule id -> RULE IR
        self.vocab = CfcVocab()
        self.activated = []

    # ---- services used by the commands module
    def evaluate(self, res, root):
        return expr.evaluate(res, root)

    def number(self, res, root, what):
        return expr.number(res, root, what)

    def resolve(self, res, filters, purpose):
        return targets.resolve(res, filters, purpose)

    def run_chain(self, res, chain, S, restr=None):
        return self.run_effects(res, chain, S, restr)

    def activate(self, res, iid):
        self.activated.append(iid)
        rule = self.rules[res.game.state["cards"][iid]["model"]]
        sub = Resolution(res.game, self, res.source, res.controller, rule, "activate")
        return self.run_action(sub, 0)

    # ---- statements of an action (costs, targets, guards, clauses, chains)
    def run_effects(self, res, effects, S, restr, withdraw=False):
        last = True
        for link in effects:
            op, eff = link["op"], link["eff"]
            if op == "&&" and not last:
                break
            if op == "||" and last:
                continue
            if "ability" in eff:
                last = cmds.run_ability(res, eff, S, restr, withdraw)
            elif withdraw:
                continue
            elif eff["ask"] and not res.game.ask("yes_no", res.controller, [True, False],
                                                 prompt=eff["cmd"], source=res.source):
                last = False
            else:
                last = cmds.run_command(res, eff, S, restr)
        return last

    def run_action(self, res, index=0):
        """Resolve one action of ``res.rule``; returns False if it stopped before its statements."""
        rule = res.rule
        if rule["target"] is not None:
            res.tgt = self.resolve(res, rule["target"]["filters"], "target")
            if not res.tgt and not rule["target"]["optional"]:
                return False
        for name, root in rule["vars"]:
            res.vars[name] = self.evaluate(res, root)
        action = rule["actions"][index]
        if not all(cmds.cost_can_pay(res, c) for c in action["costs"]):
            return False
        plans = [cmds.cost_choose(res, c) for c in action["costs"]]
        for c, plan in zip(action["costs"], plans):
            cmds.cost_pay(res, c, plan)
        res.prev = list(res.tgt or [])
        self.run_statements(res, action["stmts"])
        return True

    def run_statements(self, res, stmts, withdraw_when_idle=False):
        for st in stmts:
            body = None
            if st["kind"] == "may":
                if not res.game.ask("yes_no", res.controller, [True, False],
                                    prompt=st["question"] or "", source=res.source):
                    return
                body = st["branches"][0]["body"]
            elif st["kind"] == "if":
                for br in st["branches"]:
                    if br["cond"] is None or expr.truthy(self.evaluate(res, br["cond"])):
                        body = br["body"]
                        break
            else:
                body = st["branches"][0]["body"]
            withdraw = False
            if body is None:
                if not withdraw_when_idle:
                    res.prev = []
                    continue
                body = [b for b in st["branches"] if b["body"]][0]["body"]
                withdraw = True
            S = res.tgt
            clause = body["clause"]
            if clause is not None:
                S = self.resolve(res, clause["filters"], "clause")
                if not S and not clause["opt"]:
                    return
            self.run_effects(res, body["effects"], S, body["restr"], withdraw)
            res.prev = list(S or [])


class Listeners(NoRules):
    """A rules port that runs chosen autos for beforedamage / beforepaycost (modDamage, modCost)."""

    def __init__(self, engine):
        self.engine = engine
        self.damage_autos = []      # (source iid, rule id)
        self.cost_autos = []

    def _sum(self, game, autos, kind, trigger):
        total = 0
        for src, rid in autos:
            res = Resolution(game, self.engine, src, game.state["cards"][src]["ctrl"],
                             self.engine.rules[rid], "event")
            res.tgt = [Card(src)]
            res.adjust = {"kind": kind, "sum": 0}
            self.engine.run_statements(res, res.rule["auto"]["stmts"])
            total += res.adjust["sum"]
        return total

    def damage_adjustment(self, game, source, player):
        return self._sum(game, self.damage_autos, "damage", source)

    def cost_adjustment(self, game, kind, player, card, paying):
        return self._sum(game, self.cost_autos, kind, card)


class Table(object):
    """A game in the Main phase of player 0's turn, laid out directly."""

    def __init__(self, text, answers=()):
        result = rulescript.compile_text(BASE_RULES + text, cards=CARDS)
        errors = [d for d in result.diagnostics if d.severity == "error"]
        assert not errors, errors
        self.ir = result.rules
        self.engine = MiniEngine(self.ir)
        self.port = Listeners(self.engine)
        self.decider = ScriptedDecider(list(answers))
        self.sink = ListSink()
        self.game = CfcGame(MODELS, [[], []], self.decider, sink=self.sink, rules=self.port,
                            seed=3, first=0)
        st = self.game.state
        st["phase"] = "main"
        st["turn"] = 1
        st["active"] = 0

    # ---- layout
    def ring(self, p, model, frozen=False):
        g = self.game
        iid = g.create_card(model, p, "hand")
        g.state["players"][p]["hand"].remove(iid)
        slot = g.free_slots(p)[0]
        c = g.state["cards"][iid]
        c.update({"zone": "ring", "slot": slot, "bp": MODELS[model]["bp"],
                  "lastBP": MODELS[model]["bp"], "frozen": frozen})
        g.state["players"][p]["ring"][slot] = iid
        return iid

    def pile(self, p, zone, models):
        return [self.game.create_card(m, p, zone) for m in models]

    def c(self, iid):
        return self.game.state["cards"][iid]

    def p(self, idx):
        return self.game.state["players"][idx]

    def messages(self, what):
        return [r for r in self.sink.records if r["type"] == "message" and r["what"] == what]

    # ---- running rules
    def res(self, source, rule="r"):
        ctrl = self.c(source)["ctrl"]
        return Resolution(self.game, self.engine, source, ctrl, self.ir[rule], "test")

    def act(self, source, rule="r", index=0):
        res = self.res(source, rule)
        res.ran = self.engine.run_action(res, index)
        return res

    def first_effect(self, rule="r"):
        return self.ir[rule]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]


def R(text):
    return "[r]\n" + text + "\n"


# ---------------------------------------------------------------------------- damage, bp, hp, sp

def test_damage_to_characters_takes_min_of_e_and_bp_and_kos_at_zero():
    t = Table(R("action = damage(300) to(characters@oppRing)"))
    me = t.ring(0, "scout")
    big, small = t.ring(1, "brawler"), t.ring(1, "scout")
    t.act(me)
    assert t.c(big)["bp"] == 200 and t.c(big)["zone"] == "ring"
    assert t.c(small)["zone"] == "discards" and t.c(small)["lastBP"] == 300
    assert t.p(1)["discards"] == [small]


def test_damage_to_a_player_and_nothing_when_not_positive():
    t = Table(R("action = damage(450) to(opp)\naction = damage(0) to(opp)\n"
                "action = damage(100 - 300) to(opp)"))
    spell = t.pile(0, "table", ["bolt"])[0]
    t.act(spell, index=1)
    t.act(spell, index=2)
    assert t.p(1)["hp"] == 3000 and not t.p(1)["ncDamaged"]
    t.act(spell)
    assert t.p(1)["hp"] == 2550 and t.p(1)["ncDamaged"]
    assert t.p(0)["hp"] == 3000


def test_player_damage_goes_through_beforedamage_unless_the_source_is_a_character():
    t = Table(R("action = damage(300) to(opp)") + "[shield]\nauto = ~beforeDamage~ modDamage(-100)\n")
    guard = t.ring(1, "golem")
    t.port.damage_autos.append((guard, "shield"))
    spell = t.pile(0, "table", ["bolt"])[0]
    t.act(spell)
    assert t.p(1)["hp"] == 2800          # 300 - 100
    fighter = t.ring(0, "scout")
    t.act(fighter)
    assert t.p(1)["hp"] == 2500          # a character source: no beforedamage


def test_moddamage_and_modcost_only_inside_a_matching_adjustment():
    t = Table(R("action = modDamage(50)") + "[c]\naction = modCost(action, 2)\n")
    src = t.ring(0, "scout")
    res = t.res(src)
    assert cmds.run_command(res, t.first_effect(), None, None) is True      # no adjustment
    res.adjust = {"kind": "action", "sum": 0}
    cmds.run_command(res, t.first_effect(), None, None)
    assert res.adjust["sum"] == 0                                            # wrong kind
    res.adjust = {"kind": "damage", "sum": 10}
    cmds.run_command(res, t.first_effect(), None, None)
    assert res.adjust["sum"] == 60
    res2 = t.res(src, "c")
    res2.adjust = {"kind": "character", "sum": 0}
    cmds.run_command(res2, t.first_effect("c"), None, None)
    assert res2.adjust["sum"] == 0
    res2.adjust = {"kind": "action", "sum": 1}
    cmds.run_command(res2, t.first_effect("c"), None, None)
    assert res2.adjust["sum"] == 3


def test_modcost_listener_changes_the_cost_of_a_card_being_played():
    t = Table("[discount]\nauto = ~beforePayCostCharacter~ modCost(character, 1)\n"
              "[r]\naction = draw()\n")
    shop = t.ring(0, "golem")
    t.port.cost_autos.append((shop, "discount"))
    bolt = t.pile(0, "hand", ["bolt"])[0]
    titan = t.pile(0, "hand", ["titan"])[0]
    assert t.game.cost_value("character", 0, titan) == -1    # -2 + 1
    assert t.game.cost_value("action", 0, bolt) == -1        # another kind: unchanged


def test_bp_add_multiply_set_and_card_default():
    t = Table(R("action = bp(+200)\naction = bp(x2) to(characters@myRing)\n"
                "action = bp(=450) to(character@oppRing)\naction = bp(-1000) to(character@oppRing)"))
    me = t.ring(0, "scout")
    mate = t.ring(0, "brawler")
    foe = t.ring(1, "titan")
    in_hand = t.pile(0, "hand", ["scout"])[0]
    t.act(me)                                   # no target: this
    assert t.c(me)["bp"] == 500 and t.c(mate)["bp"] == 500
    t.act(me, index=1)
    assert (t.c(me)["bp"], t.c(mate)["bp"]) == (1000, 1000)
    t.act(me, index=2)
    assert t.c(foe)["bp"] == 500                # 450 rounds half away from zero
    t.act(me, index=3)
    assert t.c(foe)["zone"] == "discards"       # floor 0 is a KO
    assert t.c(in_hand)["bp"] == 0


def test_card_default_with_an_empty_optional_clause_does_nothing():
    t = Table(R("action = bp(+100) to?(characters[frozen]@oppRing); destroy() to?('Titan'@oppRing)"))
    me = t.ring(0, "scout")
    t.ring(1, "scout")
    t.act(me)
    assert t.c(me)["bp"] == 300 and t.c(me)["zone"] == "ring"


def test_hp_adds_and_reaching_zero_loses_the_game():
    t = Table(R("action = hp(+250); hp(-100) to(opp)\naction = hp(-5000) to(opp)"))
    me = t.ring(0, "scout")
    t.act(me)
    assert t.p(0)["hp"] == 3250 and t.p(1)["hp"] == 2900
    with pytest.raises(GameOver):
        t.act(me, index=1)
    assert t.game.state["winner"] == 0 and t.p(1)["hp"] == 0


def test_loselife_is_not_damage():
    t = Table(R("action = loseLife(300) to(opp)") + "[shield]\nauto = ~beforeDamage~ modDamage(-100)\n")
    guard = t.ring(1, "golem")
    t.port.damage_autos.append((guard, "shield"))
    spell = t.pile(0, "table", ["bolt"])[0]
    t.act(spell)
    assert t.p(1)["hp"] == 2700 and not t.p(1)["ncDamaged"]


def test_sp_add_set_and_lost_sp():
    t = Table(R("action = sp(+3)\naction = sp(-2) to(opp)\naction = sp(=1)"))
    me = t.ring(0, "scout")
    t.p(1)["sp"] = 5
    t.act(me)
    assert t.p(0)["sp"] == 3
    t.act(me, index=1)
    assert t.p(1)["sp"] == 3 and t.p(1)["lostSP"] == 2 and t.game.opp_lost_sp(0)
    t.act(me, index=2)
    assert t.p(0)["sp"] == 1 and t.p(0)["lostSP"] == 2


def test_player_default_with_cards_only_acts_on_the_controller():
    t = Table(R("action = draw() to(character@oppRing)"))
    me = t.ring(0, "scout")
    t.ring(1, "titan")
    mine = t.pile(0, "deck", ["brawler"])
    t.pile(1, "deck", ["scout"])
    t.act(me)
    assert t.p(0)["hand"] == mine and len(t.p(1)["hand"]) == 0


# ---------------------------------------------------------------------------- destroy, discard, draw, trash

def test_destroy_this_by_default_and_sets_destroyed():
    t = Table(R("action = destroy()\naction = destroy() to(characters@oppRing); "
                "hp(+100 * destroyed.size)"))
    me = t.ring(0, "scout")
    foes = [t.ring(1, "scout"), t.ring(1, "titan")]
    res = t.act(me, index=1)
    assert [t.c(i)["zone"] for i in foes] == ["discards", "discards"]
    assert res.results["destroyed"] == foes and t.p(0)["hp"] == 3200
    res = t.act(me)
    assert t.c(me)["zone"] == "discards" and res.results["destroyed"] == [me]


def test_discard_default_one_chosen_by_the_controller_from_the_target_hand():
    t = Table(R("action = discard() to(opp)"))
    me = t.ring(0, "scout")
    h = t.pile(1, "hand", ["scout", "bolt", "titan"])
    t.decider.answers.append([h[1]])
    res = t.act(me)
    assert t.p(1)["hand"] == [h[0], h[2]] and t.p(1)["discards"] == [h[1]]
    assert res.results["discarded"] == [h[1]]
    assert t.game.state["log"][-1][:2] == ["choose_targets", 0]     # the controller chose


def test_discard_count_all_plural_and_matching_filter():
    t = Table(R("action = discard(2)\naction = discard(all) to(opp)\n"
                "action = discard(characters)\naction = discard(reaction)"))
    me = t.ring(0, "scout")
    h = t.pile(0, "hand", ["scout", "bolt", "titan", "parry", "brawler"])
    t.decider.answers.append([h[0], h[1]])
    t.act(me)
    assert t.p(0)["hand"] == h[2:]
    t.act(me, index=2)                                          # every character
    assert t.p(0)["hand"] == [h[3]]
    t.act(me, index=3)                                          # the only reaction: no decision
    assert t.p(0)["hand"] == [] and t.p(0)["discards"][0] == h[3]
    oh = t.pile(1, "hand", ["scout", "bolt"])
    res = t.act(me, index=1)
    assert t.p(1)["hand"] == [] and sorted(res.results["discarded"]) == sorted(oh)


def test_discard_random_and_failure_when_nothing_is_discarded():
    t = Table(R("action = discard(<r>) to(opp)\naction = discard() || loseLife(300)\n"
                "action = discard(reaction) || loseLife(200)"))
    me = t.ring(0, "scout")
    h = t.pile(1, "hand", ["scout", "bolt", "titan"])
    res = t.act(me)                                             # no decision asked
    assert len(t.p(1)["hand"]) == 2 and len(res.results["discarded"]) == 1
    assert res.results["discarded"][0] in h and t.game.state["log"] == []
    t.act(me, index=1)                                          # my hand is empty: fails
    assert t.p(0)["hp"] == 2700
    t.pile(0, "hand", ["bolt"])
    res = t.act(me, index=2)                                    # no reaction: fails
    assert t.p(0)["hp"] == 2500 and res.results["discarded"] == [] and len(t.p(0)["hand"]) == 1


def test_rnddiscard_and_trash_set_their_results():
    t = Table(R("action = rndDiscard(2) to(opp)\naction = trash(2); trash() to(opp)"))
    me = t.ring(0, "scout")
    h = t.pile(1, "hand", ["scout", "bolt", "titan"])
    res = t.act(me)
    assert len(t.p(1)["hand"]) == 1 and len(res.results["discarded"]) == 2
    assert set(res.results["discarded"]) | set(t.p(1)["hand"]) == set(h)
    d0 = t.pile(0, "deck", ["scout", "bolt", "titan"])
    d1 = t.pile(1, "deck", ["parry", "mage"])
    res = t.act(me, index=1)
    assert t.p(0)["deck"] == [d0[2]] and t.p(0)["discards"] == [d0[1], d0[0]]
    assert t.p(1)["deck"] == [d1[1]] and res.results["trashed"] == [d1[0]]


def test_draw_default_count_zero_and_running_out():
    t = Table(R("action = draw()\naction = draw(3) to(opp)\naction = draw(0)\naction = draw(9)"))
    me = t.ring(0, "scout")
    d0 = t.pile(0, "deck", ["scout", "bolt", "titan"])
    d1 = t.pile(1, "deck", ["scout", "bolt", "titan", "parry"])
    t.act(me)
    assert t.p(0)["hand"] == [d0[0]]
    t.act(me, index=1)
    assert t.p(1)["hand"] == d1[:3]
    t.act(me, index=2)
    assert t.p(0)["hand"] == [d0[0]]
    t.act(me, index=3)
    assert t.p(0)["hand"] == d0 and not t.game.state["over"]


# ---------------------------------------------------------------------------- each

def test_each_expression_form_counts_characters_in_my_discards():
    t = Table(R("action = each(char in me.discards => hp(+50))"))
    me = t.ring(0, "scout")
    t.pile(0, "discards", ["scout", "bolt", "titan", "parry", "brawler"])
    res = t.act(me)
    assert t.p(0)["hp"] == 3150 and res.elements == []


def test_each_binds_card_for_the_chain_and_runs_on_the_statement_targets():
    t = Table(R("action = each(card.bp >= 500 in opp.ring => damage(card.bp)) to(opp)"))
    me = t.ring(0, "scout")
    t.ring(1, "titan")
    t.ring(1, "scout")
    t.ring(1, "brawler")
    t.act(me)
    assert t.p(1)["hp"] == 3000 - 1000 - 500


def test_each_filter_form_resolves_silently():
    t = Table(R("action = each(characters[frozen]@oppRing => damage(100) & draw()) to(opp)"))
    me = t.ring(0, "scout")
    t.ring(1, "titan", frozen=True)
    t.ring(1, "scout")
    t.ring(1, "brawler", frozen=True)
    t.pile(1, "deck", ["scout", "bolt", "titan"])
    t.act(me)
    assert t.p(1)["hp"] == 2800 and len(t.p(1)["hand"]) == 2 and t.game.state["log"] == []


# ---------------------------------------------------------------------------- freeze

def test_freeze_unfreeze_and_toggle():
    t = Table(R("action = freeze() to(characters@oppRing)\naction = freeze(toggle) to(characters@oppRing)\n"
                "action = freeze(true) to(characters@oppRing)\naction = unfreeze() to(characters@oppRing)\n"
                "action = freeze()"))
    me = t.ring(0, "scout")
    a, b = t.ring(1, "titan", frozen=True), t.ring(1, "scout")
    t.act(me)
    assert t.c(a)["frozen"] and t.c(b)["frozen"]
    t.c(b)["frozen"] = False
    t.act(me, index=1)
    assert (t.c(a)["frozen"], t.c(b)["frozen"]) == (False, True)
    t.act(me, index=2)
    assert (t.c(a)["frozen"], t.c(b)["frozen"]) == (True, False)
    t.c(a)["used"] = True
    t.act(me, index=3)
    assert not t.c(a)["frozen"] and not t.c(a)["used"]
    t.act(me, index=4)                          # no default target: nothing
    assert not t.c(me)["frozen"]


# ---------------------------------------------------------------------------- lasting effects

def test_altercost_restricted_and_unrestricted():
    t = Table(R("action = alterCost(action, =0) ueot\naction = alterCost(character, +1)"))
    me = t.ring(0, "scout")
    bolt = t.pile(0, "hand", ["bolt"])[0]
    titan = t.pile(0, "hand", ["titan"])[0]
    t.act(me)
    assert t.game.cost_value("action", 0, bolt) == 0
    entry = t.game.state["lasting"][-1]
    assert entry["until"] == {"when": "ueot", "player": 0} and entry["source"] == me
    t.act(me, index=1)
    assert t.game.cost_value("character", 0, titan) == -1
    t.game.destroy([me])                        # the source leaves play
    assert t.game.cost_value("character", 0, titan) == -2
    assert t.game.cost_value("action", 0, bolt) == 0
    t.game.expire(("ueot",), 0)
    assert t.game.cost_value("action", 0, bolt) == -1


def test_enable_disable_rule_scope_restriction_and_replacement():
    t = Table(R("action = disableRule(attack) to(opp) oppUeot\naction = enableRule(play_removed)\n"
                "action = disableRule(attack) to(opp) oppUeot"))
    me = t.ring(0, "scout")
    t.act(me)
    g = t.game
    assert g.rule("attack", 1) is False and g.rule("attack", 0) is True
    e = g.state["lasting"][-1]
    assert (e["scope"], e["until"]) == (1, {"when": "ueot", "player": 1})
    t.act(me, index=1)
    assert g.rule("play_removed", 0) and g.rule("play_removed", 1)
    assert g.state["lasting"][-1]["scope"] is None
    t.act(me, index=2)
    assert len([x for x in g.state["lasting"] if x["rule"] == "attack"]) == 1
    g.expire(("ueot",), 1)
    assert g.rule("attack", 1) is True and g.rule("play_removed", 1) is True
    g.destroy([me])
    assert g.rule("play_removed", 1) is False


def test_modrule_sets_a_number_rule():
    t = Table(R("action = modRule(play_char_bp_limit, 500) to(opp) oppUynt"))
    me = t.ring(0, "scout")
    t.act(me)
    assert t.game.rule("play_char_bp_limit", 1) == 500
    assert t.game.rule("play_char_bp_limit", 0) is None
    assert t.game.state["lasting"][-1]["until"] == {"when": "uynt", "player": 1}


# ---------------------------------------------------------------------------- piles

def test_moveto_my_pile_changes_control_and_sets_moved():
    t = Table(R("action = moveTo(hand) to(character@oppRing)"))
    me = t.ring(0, "scout")
    foe = t.ring(1, "titan")
    res = t.act(me)
    assert t.p(0)["hand"] == [foe] and t.c(foe)["ctrl"] == 0 and t.c(foe)["owner"] == 1
    assert t.p(1)["ring"] == [None] * 4 and res.results["moved"] == [foe]


def test_moveto_ctrl_pile_goes_to_each_controller():
    t = Table(R("action = moveTo(ctrlHand) to(characters)"))
    me = t.ring(0, "scout")
    foe = t.ring(1, "titan")
    t.act(me)
    assert t.p(0)["hand"] == [me] and t.p(1)["hand"] == [foe]
    assert t.c(foe)["ctrl"] == 1


def test_moveto_positions_and_reveal():
    t = Table(R("action = moveTo(deck, bottom) to(character@oppRing)\n"
                "action = moveTo(deck, 1, true) to(character@oppRing)\n"
                "action = moveTo(deck, -2) to(character@oppRing)\n"
                "action = moveTo(oppDeck) to(character@oppRing)"))
    me = t.ring(0, "scout")
    d = t.pile(0, "deck", ["scout", "bolt", "titan"])
    a, b, c, e = [t.ring(1, m) for m in ("scout", "brawler", "titan", "mage")]
    t.decider.answers.extend([[a], [b], [c]])          # the last one is alone: no decision
    t.act(me)
    assert t.p(0)["deck"] == d + [a]
    assert not t.messages("reveal")
    t.act(me, index=1)
    assert t.p(0)["deck"] == [d[0], b, d[1], d[2], a]
    assert t.messages("reveal")[-1]["cards"] == [b]
    t.act(me, index=2)
    assert t.p(0)["deck"] == [d[0], b, d[1], d[2], c, a]
    t.act(me, index=3)
    assert t.p(1)["deck"] == [e] and t.c(e)["ctrl"] == 1


def test_moveto_choose_asks_once_and_keeps_the_order():
    t = Table(R("action = moveTo(deck, ?) to(characters@oppRing)"))
    me = t.ring(0, "scout")
    d = t.pile(0, "deck", ["bolt"])
    foes = [t.ring(1, "scout"), t.ring(1, "titan")]
    t.decider.answers.append("top")
    res = t.act(me)
    assert t.p(0)["deck"] == foes + d and res.results["moved"] == foes
    assert [e[0] for e in t.game.state["log"]] == ["top_or_bottom"]


def test_moverevealedto_above_the_first_target_whole_deck_and_failure():
    t = Table(R("action = moveRevealedTo(discards) to(reaction<1>@myDeck)\n"
                "action = moveRevealedTo(hand)\n"
                "action = moveRevealedTo(hand) || hp(+100)"))
    me = t.ring(0, "scout")
    d = t.pile(0, "deck", ["scout", "bolt", "parry", "titan"])
    res = t.act(me)
    assert t.p(0)["deck"] == d[2:] and sorted(t.p(0)["discards"]) == sorted(d[:2])
    assert res.results["moved"] == d[:2]
    assert t.messages("reveal")[-1]["cards"] == d[:3]
    res = t.act(me, index=1)
    assert t.p(0)["hand"] == d[2:] and t.p(0)["deck"] == [] and res.results["moved"] == d[2:]
    t.act(me, index=2)                          # the deck is empty: fails
    assert t.p(0)["hp"] == 3100


def test_moverevealedto_target_on_top_moves_nothing_but_succeeds():
    t = Table(R("action = moveRevealedTo(discards) to(reaction<1>@myDeck) || hp(+100)"))
    me = t.ring(0, "scout")
    d = t.pile(0, "deck", ["parry", "bolt"])
    res = t.act(me)
    assert t.p(0)["deck"] == d and res.results["moved"] == [] and t.p(0)["hp"] == 3000


def test_movepile_swappiles_and_shuffle():
    t = Table(R("action = movePile(discards, deck)\naction = swapPiles(hand, oppHand)\n"
                "action = shuffle(oppDeck)\naction = shuffle()"))
    me = t.ring(0, "scout")
    deck = t.pile(0, "deck", ["bolt"])
    disc = t.pile(0, "discards", ["scout", "titan"])
    t.act(me)
    assert t.p(0)["deck"] == disc + deck and t.p(0)["discards"] == []
    mine = t.pile(0, "hand", ["parry"])
    theirs = t.pile(1, "hand", ["mage", "golem"])
    t.act(me, index=1)
    assert t.p(0)["hand"] == theirs and t.p(1)["hand"] == mine
    assert t.c(theirs[0])["ctrl"] == 0 and t.c(mine[0])["ctrl"] == 1
    od = t.pile(1, "deck", ["scout", "bolt", "titan", "parry", "mage", "golem", "brawler"])
    t.act(me, index=2)
    assert sorted(t.p(1)["deck"]) == sorted(od)
    shuffles = [r for r in t.sink.records if r["type"] == "shuffle"]
    assert shuffles[-1]["player"] == 1
    t.act(me, index=3)
    assert [r for r in t.sink.records if r["type"] == "shuffle"][-1]["player"] == 0


def test_peek_reveal_and_pileview_emit_messages():
    t = Table(R("action = peek()\naction = reveal(hand) to(opp)\naction = reveal() to(characters@oppRing)\n"
                "action = reveal(hand)\naction = pileView(removed, expanded)"))
    me = t.ring(0, "scout")
    oh = t.pile(1, "hand", ["bolt", "parry"])
    mh = t.pile(0, "hand", ["titan"])
    foe = t.ring(1, "titan")
    t.act(me)
    assert t.messages("peek")[-1]["cards"] == oh
    t.act(me, index=1)
    assert t.messages("reveal")[-1]["cards"] == oh and t.messages("reveal")[-1]["owner"] == 1
    t.act(me, index=2)
    assert t.messages("reveal")[-1]["cards"] == [foe]
    t.act(me, index=3)
    assert t.messages("reveal")[-1]["cards"] == mh
    t.act(me, index=4)
    assert t.messages("pileview")[-1]["pile"] == "removed"
    assert t.p(1)["hand"] == oh and t.p(0)["hand"] == mh        # nothing moved


def test_prophecy_defaults_target_player_and_bottom():
    t = Table(R("action = prophecy()\naction = prophecy(2, bottom) to(opp)\n"
                "action = prophecy(3, top)"))
    me = t.ring(0, "scout")
    d0 = t.pile(0, "deck", ["scout", "bolt", "titan", "parry"])
    d1 = t.pile(1, "deck", ["scout", "bolt", "titan"])
    t.decider.answers.append("bottom")             # 1 card: no arrange, where asked
    t.act(me)
    assert t.p(0)["deck"] == d0[1:] + [d0[0]]
    t.decider.answers.append([d1[1], d1[0]])
    t.act(me, index=1)
    assert t.p(1)["deck"] == [d1[2], d1[1], d1[0]]
    cur = list(t.p(0)["deck"])
    t.decider.answers.append([cur[2], cur[0], cur[1]])
    t.act(me, index=2)
    assert t.p(0)["deck"] == [cur[2], cur[0], cur[1], cur[3]]
    assert [e[0] for e in t.game.state["log"]] == ["top_or_bottom", "arrange", "arrange"]


# ---------------------------------------------------------------------------- turns and ring

def test_playextrachar_turns_and_skip():
    t = Table(R("action = playExtraChar(); turns(2); skip(draw) to(opp)\naction = skip(end)"))
    me = t.ring(0, "scout")
    t.act(me)
    assert t.p(0)["chars_allowed"] == 2 and t.p(0)["extra_turns"] == 2
    assert t.p(1)["skip"] == ["draw"] and t.p(0)["skip"] == []
    t.act(me, index=1)                               # no players in S: nobody skips
    assert t.p(0)["skip"] == [] and t.p(1)["skip"] == ["draw"]


def test_swapchars_and_movetoslot():
    t = Table(R("action = swapChars() to(<2>characters@myRing)\naction = moveToSlot() to('Titan')\n"
                "action = swapChars() to(character@myRing)"))
    me = t.ring(0, "scout")
    mate = t.ring(0, "titan")
    t.act(me)                                        # exactly two: no decision
    assert (t.c(me)["slot"], t.c(mate)["slot"]) == (1, 0)
    assert t.p(0)["ring"][:2] == [mate, me]
    t.decider.answers.append(3)
    t.act(me, index=1)
    assert t.c(mate)["slot"] == 3 and t.p(0)["ring"] == [None, me, None, mate]
    t.decider.answers.append([me])
    t.act(me, index=2)                               # one target: nothing
    assert t.p(0)["ring"] == [None, me, None, mate]


def test_removefromattack_and_unite():
    t = Table(R("action = unite() to(characters[-frozen]@oppRing)\n"
                "action = removeFromAttack() to('Titan'@oppRing)"))
    me = t.ring(0, "scout")
    g = t.game
    foes = [t.ring(1, "titan"), t.ring(1, "scout"), t.ring(1, "brawler")]
    for f in foes:
        g.declare_attack(f)
    t.act(me)
    ua = g.united_attack()
    assert ua["lead"] == foes[0] and ua["followers"] == foes[1:] and len(g.state["attacks"]) == 1
    t.act(me, index=1)                               # the lead leaves: the UA dissolves
    assert not t.c(foes[0])["attacking"]
    assert g.united_attack() is None


# ---------------------------------------------------------------------------- rules of cards

def test_copyability_copies_current_rules_and_ability():
    t = Table(R("action = copyAbility(tgt.0) to(this)") .replace("[r]\n", "[r]\ntarget = 'Mage'@oppRing\n")
              + "[s]\naction = copyAbility(tgt.0) to(this)\ntarget = character@oppRing\n")
    me = t.ring(0, "brawler")
    mage = t.ring(1, "mage")
    t.act(me)
    assert t.c(me)["rules"] == "mage" and t.c(me)["ability"] == {"kind": "trigger", "name": "Spark"}
    plain = t.ring(1, "titan")
    t.decider.answers.append([plain])
    t.act(me, "s")                                    # the titan has no rules: nothing
    assert t.c(me)["rules"] == "mage"
    assert t.c(mage)["rules"] == "mage"


def test_steal_swapabilities_and_loseability():
    t = Table(R("action = steal() to('Golem'@oppRing)\naction = swapAbilities() to(<2>characters)\n"
                "action = loseAbility() to(characters@oppRing)"))
    me = t.ring(0, "brawler")
    golem = t.ring(1, "golem")
    t.act(me)
    assert t.c(me)["rules"] == "golem" and t.c(me)["ability"]["name"] == "Stone Skin"
    assert t.c(golem)["rules"] is None and t.c(golem)["ability"] is None
    mage = t.ring(1, "mage")
    t.decider.answers.append([mage, me])
    t.act(me, index=1)
    assert t.c(me)["rules"] == "mage" and t.c(mage)["rules"] == "golem"
    assert t.c(mage)["ability"]["name"] == "Stone Skin"
    t.act(me, index=2)
    assert t.c(mage)["rules"] is None and t.c(mage)["ability"] is None
    assert t.c(me)["rules"] == "mage"


def test_steal_with_a_receiver_filter_and_legacy_reveal_flag():
    t = Table(R("action = steal(character@myRing) to('Mage'@oppRing)\n"
                "action = moveTo(hand, true) to('Mage'@oppRing)"))
    me = t.ring(0, "scout")
    mate = t.ring(0, "brawler")
    mage = t.ring(1, "mage")
    t.decider.answers.append([mate])
    t.act(me)
    assert t.c(mate)["rules"] == "mage" and t.c(me)["rules"] == "scout"
    assert t.c(mage)["rules"] is None
    t.act(me, index=1)
    assert t.p(0)["hand"] == [mage] and t.messages("reveal")[-1]["cards"] == [mage]


def test_transform_by_id_and_by_card_expression():
    t = Table(R("action = transform(\"titan\") to(character@oppRing)\n"
                "action = transform(tgt.0) to(characters@myRing)").replace(
        "[r]\n", "[r]\ntarget? = 'Golem'@oppRing\n"))
    me = t.ring(0, "scout")
    foe = t.ring(1, "scout")
    t.c(foe)["frozen"] = True
    t.act(me)
    assert t.c(foe)["model"] == "titan" and t.c(foe)["bp"] == 1000 and t.c(foe)["frozen"]
    assert t.c(foe)["orig"] == "scout" and t.c(foe)["slot"] == 0
    golem = t.ring(1, "golem")
    t.act(me, index=1)
    assert t.c(me)["model"] == "golem" and t.c(me)["bp"] == 800
    assert t.c(golem)["model"] == "golem"


def test_activate_resolves_another_cards_action_for_this():
    t = Table(R("action = activate(tgt.0)").replace("[r]\n", "[r]\ntarget = 'Mage'@oppRing\n"))
    me = t.ring(0, "scout")
    mage = t.ring(1, "mage")
    t.pile(0, "deck", ["bolt"])
    t.pile(1, "deck", ["bolt"])
    t.act(me)
    assert t.engine.activated == [mage]
    assert len(t.p(0)["hand"]) == 1 and len(t.p(1)["hand"]) == 0     # drawn by me
    assert not t.c(mage)["frozen"] and t.c(mage)["zone"] == "ring"   # mage pays nothing, F is mine
    assert t.c(me)["frozen"]


def test_clear_marks_the_resolution():
    t = Table(R("action = clear()"))
    me = t.ring(0, "scout")
    assert t.act(me).cleared is True


def test_wrong_kind_and_unknown_command_are_rule_errors():
    t = Table(R("target = opp\naction = copyAbility(tgt.0)"))
    me = t.ring(0, "scout")
    with pytest.raises(RuleError) as err:
        t.act(me)
    assert err.value.code == "RS507"
    with pytest.raises(RuleError):
        cmds.run_command(t.res(me), {"cmd": "teleport", "ask": False, "args": [], "at": [1, 1, 2]},
                         None, None)


# ---------------------------------------------------------------------------- abilities

def test_grant_and_mask_character_abilities():
    t = Table(R("action = +unblockable to(characters@myRing)\naction = -unblockable to('Golem')\n"
                "action = +pierce ueot"))
    me = t.ring(0, "scout")
    golem = t.ring(0, "golem")
    g = t.game
    t.act(me)
    assert g.has_ability(me, "unblockable") and g.has_ability(golem, "unblockable")
    t.act(me, index=1)
    assert not g.has_ability(golem, "unblockable") and g.has_ability(me, "unblockable")
    t.act(me, index=2)                                   # card-default: this
    assert g.has_ability(me, "pierce")
    assert g.state["lasting"][-1]["until"] == {"when": "ueot", "player": 0}


def test_player_abilities_only_on_players():
    t = Table(R("action = +cantplayac to(opp) oppUeot\naction = +cantplayre\n"
                "action = +pierce to(opp)"))
    me = t.ring(0, "scout")
    g = t.game
    t.act(me)
    assert g.player_has_ability(1, "cantplayac") and not g.player_has_ability(0, "cantplayac")
    assert g.state["lasting"][-1]["until"] == {"when": "ueot", "player": 1}
    n = len(g.state["lasting"])
    t.act(me, index=1)                                   # a player ability on a card: nothing
    t.act(me, index=2)                                   # a card ability on a player: nothing
    assert len(g.state["lasting"]) == n
    assert not g.player_has_ability(0, "cantplayre")


def test_withdraw_mode_and_source_leaving_play():
    t = Table("[lone]\nauto = ~ringChanges~ [[if me.ring.size == 1]] +unblockable\n"
              "[hider]\naction = -rush to(characters@oppRing)\n")
    me = t.ring(0, "scout")
    g = t.game
    res = t.res(me, "lone")
    res.tgt = [Card(me)]
    t.engine.run_statements(res, t.ir["lone"]["auto"]["stmts"], withdraw_when_idle=True)
    assert g.has_ability(me, "unblockable")
    t.ring(0, "titan")
    res = t.res(me, "lone")
    res.tgt = [Card(me)]
    t.engine.run_statements(res, t.ir["lone"]["auto"]["stmts"], withdraw_when_idle=True)
    assert not g.has_ability(me, "unblockable") and g.state["lasting"] == []
    foe = t.ring(1, "scout")
    g.add_grant("rush", None, card=foe)
    t.act(me, "hider")
    assert not g.has_ability(foe, "rush")
    eff = t.first_effect("hider")
    cmds.run_ability(t.res(me, "hider"), eff, [Card(foe)], None, True)    # lift the mask
    assert g.has_ability(foe, "rush")
    t.act(me, "hider")
    g.destroy([me])                                      # unrestricted: ends with its source
    assert g.has_ability(foe, "rush")


# ---------------------------------------------------------------------------- costs

def test_cost_f_requires_an_unfrozen_character_in_a_ring():
    t = Table(R("action = {F}: draw()"))
    me = t.ring(0, "scout")
    t.pile(0, "deck", ["bolt", "titan"])
    cost = {"cost": "F"}
    assert cmds.cost_can_pay(t.res(me), cost)
    res = t.act(me)
    assert res.ran and t.c(me)["frozen"] and len(t.p(0)["hand"]) == 1
    assert not cmds.cost_can_pay(t.res(me), cost)
    assert t.act(me).ran is False and len(t.p(0)["hand"]) == 1
    spell = t.pile(0, "table", ["bolt"])[0]
    assert not cmds.cost_can_pay(t.res(spell), cost)


def test_cost_s_sacrifices_this_and_later_statements_still_run():
    t = Table(R("action = {S}: hp(+100 * sacrificed.size)"))
    me = t.ring(0, "scout")
    res = t.act(me)
    assert t.c(me)["zone"] == "discards" and res.results["sacrificed"] == [me]
    assert t.p(0)["hp"] == 3100
    in_hand = t.pile(0, "hand", ["scout"])[0]
    assert not cmds.cost_can_pay(t.res(in_hand), {"cost": "S"})
    assert t.act(in_hand).ran is False and t.c(in_hand)["zone"] == "hand"


def test_cost_s_of_a_filter_kos_the_chosen_characters():
    t = Table(R("action = {S(<2>^characters)}: hp(+100 * sacrificed.size)"))
    me = t.ring(0, "titan")
    a = t.ring(0, "scout")
    assert t.act(me).ran is False and t.c(a)["zone"] == "ring"     # only one other character
    b, c = t.ring(0, "brawler"), t.ring(0, "mage")
    t.decider.answers.append([a, c])
    res = t.act(me)
    assert res.results["sacrificed"] == [a, c]
    assert t.c(a)["zone"] == "discards" and t.c(c)["zone"] == "discards"
    assert t.c(b)["zone"] == "ring" and t.c(me)["zone"] == "ring" and t.p(0)["hp"] == 3200


def test_cost_d_one_n_and_random():
    t = Table(R("action = {D}: draw()\naction = {D(2)}: hp(+1)\naction = {D(<r>)}{F}: hp(+5)"))
    me = t.ring(0, "scout")
    assert t.act(me).ran is False                       # empty hand
    h = t.pile(0, "hand", ["bolt", "parry", "titan"])
    t.pile(0, "deck", ["mage"])
    t.decider.answers.append([h[1]])
    res = t.act(me)
    assert res.results["discarded"] == [h[1]] and t.p(0)["discards"] == [h[1]]
    assert len(t.p(0)["hand"]) == 3
    hand = list(t.p(0)["hand"])
    t.decider.answers.append([hand[0], hand[2]])
    res = t.act(me, index=1)
    assert t.p(0)["hand"] == [hand[1]] and t.p(0)["hp"] == 3001
    assert not cmds.cost_can_pay(t.res(me), {"cost": "D", "count": 2})
    t.pile(0, "hand", ["golem"])
    before = len(t.game.state["log"])
    res = t.act(me, index=2)
    assert len(res.results["discarded"]) == 1 and len(t.p(0)["hand"]) == 1
    assert len(t.game.state["log"]) == before and t.c(me)["frozen"] and t.p(0)["hp"] == 3006


def test_costs_are_checked_before_anything_is_paid():
    t = Table(R("action = {D}{F}: draw()"))
    me = t.ring(0, "scout", frozen=True)
    h = t.pile(0, "hand", ["bolt"])
    assert t.act(me).ran is False
    assert t.p(0)["hand"] == h and t.game.state["log"] == []


def test_ctrl_pile_of_other_commands_is_the_first_target_cards_controller():
    t = Table(R("action = movePile(ctrlDiscards, ctrlDeck) to(character@oppRing)\n"
                "action = shuffle(ctrlDeck)\naction = reveal(oppHand)"))
    me = t.ring(0, "scout")
    t.ring(1, "titan")
    mine = t.pile(0, "discards", ["bolt"])
    theirs = t.pile(1, "discards", ["parry", "mage"])
    t.act(me)
    assert t.p(1)["deck"] == theirs and t.p(1)["discards"] == [] and t.p(0)["discards"] == mine
    t.act(me, index=1)                               # no target card: this one's controller
    assert [r for r in t.sink.records if r["type"] == "shuffle"][-1]["player"] == 0
    oh = t.pile(1, "hand", ["scout"])
    t.act(me, index=2)                               # no target player: the written prefix
    assert t.messages("reveal")[-1]["owner"] == 1 and t.messages("reveal")[-1]["cards"] == oh


# ---------------------------------------------------------------------------- with the real engine
# The engine looks rules up by the card's id, so these sections are named after card ids.

def _with_engine(text):
    from rulescript.runtime.engine import Engine
    t = Table(text)
    eng = Engine(t.ir, commands=cmds, vocab=CfcVocab())
    t.game.rules = eng
    return t, eng


def test_engine_pays_costs_and_runs_commands():
    t, eng = _with_engine("[brawler]\naction = {F}{D}: damage(200) to(opp); "
                          "draw() & moveTo(deck, bottom) to(character@oppRing)\n")
    me = t.ring(0, "brawler")
    foe = t.ring(1, "titan")
    h = t.pile(0, "hand", ["bolt", "parry"])
    d = t.pile(0, "deck", ["scout"])
    t.decider.answers.append([h[1]])
    assert eng.resolve_action(t.game, me, "trigger") is True and eng.errors == []
    assert t.c(me)["frozen"] and t.p(0)["discards"] == [h[1]]
    assert t.p(1)["hp"] == 2800 and t.p(0)["hand"] == [h[0]] + d     # draw() ran on the controller
    assert t.p(0)["deck"] == [foe] and t.c(foe)["ctrl"] == 0


def test_engine_rolls_back_a_command_rule_error():
    t, eng = _with_engine("[brawler]\ntarget = opp\naction = draw(); copyAbility(tgt.0)\n")
    me = t.ring(0, "brawler")
    t.pile(0, "deck", ["scout"])
    assert not eng.resolve_action(t.game, me, "trigger")
    assert [e["code"] for e in eng.errors] == ["RS507"]
    assert t.p(0)["hand"] == [] and len(t.p(0)["deck"]) == 1         # the draw was undone


# ---------------------------------------------------------------------------- Python 2.7 (IronPython)

PY_SCRIPT = r'''
from __future__ import print_function
import sys
sys.path.insert(0, sys.argv[1])
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.resolution import Card, Player, Resolution
from rulescript.games.cfc import commands as C
models = eval(sys.argv[2])
steps = eval(sys.argv[3])

class Dec(object):
    def decide(self, req):
        if req["kind"] == "choose_targets":
            return req["options"][:req["min"]]
        if req["kind"] == "arrange":
            return list(reversed(req["options"]))
        return req["options"][-1]

def ev(n):
    if n[0] == "lit":
        return n[1]
    if n[0] == "neg":
        return -ev(n[1])
    if n[0] == "pos":
        return ev(n[1])
    raise ValueError(n)

class Lit(object):
    """Literal-only engine services: enough for commands whose arguments are literals."""
    rules = {}
    def evaluate(self, res, root):
        return ev(root["e"])
    def number(self, res, root, what):
        return int(ev(root["e"]))
    def resolve(self, res, filters, purpose):
        return []
    def run_chain(self, res, chain, S, restr=None):
        return True
    def activate(self, res, iid):
        return False

g = CfcGame(models, [["scout"] * 6, ["bolt"] * 6], Dec(), seed=5, first=0)
def ring(p, model):
    iid = g.create_card(model, p, "hand")
    g.state["players"][p]["hand"].remove(iid)
    slot = g.free_slots(p)[0]
    c = g.state["cards"][iid]
    c.update({"zone": "ring", "slot": slot, "bp": models[model]["bp"], "lastBP": models[model]["bp"]})
    g.state["players"][p]["ring"][slot] = iid
    return iid
A, B, X, Y = ring(0, "scout"), ring(0, "brawler"), ring(1, "titan"), ring(1, "mage")
for p in (0, 1):
    for m in ("parry", "titan", "bolt"):
        g.create_card(m, p, "hand")
names = {"A": A, "B": B, "X": X, "Y": Y}
eng = Lit()
for src, eff, S, restr in steps:
    if S is not None:
        S = [Player(int(s[1])) if s[0] == "p" else Card(names[s]) for s in S]
    res = Resolution(g, eng, names[src], g.state["cards"][names[src]]["ctrl"], None, "py27")
    if "ability" in eff:
        C.run_ability(res, eff, S, restr, False)
    else:
        C.run_command(res, eff, S, restr)
print(repr(g.state))
'''

PY_STEPS = [
    ("A", "bp(+200)", None, None), ("A", "damage(300)", ["X", "Y", "p1"], None),
    ("A", "draw(2)", ["p1"], None), ("A", "discard(2)", None, None),
    ("A", "moveTo(deck, ?, true)", ["Y"], None), ("A", "freeze(toggle)", ["A", "B"], None),
    ("A", "sp(=4)", None, None), ("B", "sp(-1)", ["p0"], None),
    ("A", "alterCost(action, =0)", None, "oppueot"), ("A", "+pierce", ["B"], "ueot"),
    ("A", "-pierce", ["B"], None), ("A", "trash(2)", ["p0", "p1"], None),
    ("A", "prophecy(3)", None, None), ("A", "movePile(discards, deck)", None, None),
    ("A", "swapPiles(hand, oppHand)", None, None), ("A", "shuffle(oppDeck)", None, None),
    ("A", "skip(draw)", ["p1"], None), ("A", "turns(1)", None, None),
    ("A", "enableRule(play_removed)", None, None), ("A", "rndDiscard()", ["p1"], None),
    ("A", "unfreeze()", ["A", "B"], None), ("A", "swapChars()", ["B", "A"], None),
    ("A", "transform('titan')", ["A"], None), ("A", "hp(-250)", ["p0", "p1"], None),
]


def _py27():
    import os
    import shutil
    for c in [os.environ.get("PYTHON27"), shutil.which("python2.7"),
              "/root/.pyenv/versions/2.7.18/bin/python"]:
        if c and os.path.exists(c):
            import subprocess
            proc = subprocess.run([c, "-c", "import sys; print(sys.version_info[0])"],
                                  capture_output=True, text=True)
            if proc.returncode == 0 and proc.stdout.strip() == "2":
                return c
    return None


def test_commands_give_the_same_state_on_python_27_and_3():
    import ast
    import subprocess
    import sys
    from pathlib import Path
    py27 = _py27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available")
    steps = []
    for src, text, S, restr in PY_STEPS:
        ir = rulescript.compile_text("[r]\naction = " + text + "\n", cards=CARDS).rules["r"]
        eff = ir["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]
        steps.append((src, eff, S, restr))
    root = str(Path(cmds.__file__).resolve().parents[3])
    out = []
    for python in (sys.executable, py27):
        proc = subprocess.run([python, "-c", PY_SCRIPT, root, repr(MODELS), repr(steps)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        out.append(ast.literal_eval(proc.stdout.strip()))
    st3, st27 = out
    assert st27 == st3
    assert st3["players"][1]["skip"] == ["draw"] and st3["players"][0]["extra_turns"] == 1
    assert st3["players"][0]["hp"] == 2750 and st3["players"][1]["hp"] == 2450
    # transform() replaced A's rules: its unrestricted mask and rule entry ended, the restricted stay
    assert [e["type"] for e in st3["lasting"]] == ["cost", "grant"]
    changed = [c for c in st3["cards"].values() if c["orig"] == "scout"]
    assert len(changed) == 1 and changed[0]["model"] == "titan" and changed[0]["bp"] == 1000
    assert changed[0]["zone"] == "ring" and changed[0]["slot"] == 1        # after swapChars
