"""Every statement form of rulescript.md compiles, and compiles to the IR it means."""

from __future__ import annotations


import pytest

from tests.compiler.helpers import compile_rules, errors

# One entry per grammar form of rulescript.md sections 1-9 (the compatibility forms of section 9
# included).  Each is a complete section body.
FORMS = {
    "cost F": "action = {F}: damage(250) to(character[-frozen]@oppRing)",
    "cost S": "action = {S}: draw(2)",
    "cost S(filter)": "action = {S(character[bp<=300])}: sp(+2)",
    "cost D": "action = {D}: draw(2)",
    "cost D(n)": "action = {D(2)}: damage(300) to(opp)",
    "cost D(filter)": "action = {D(reaction)}: unfreeze() to(character@myRing)",
    "cost D(<r>) and F": "action = {D(<r>)}{F}: damage(400) to(characters[fresh]@oppRing)",
    "target list": "target = <,2>characters[bp<=400]@myRing; me\naction = bp(+300)",
    "target?": "target? = character[frozen]@oppRing\naction = damage(100)",
    "labels": "action = draw()\nlabel = Draw one\naction = sp(+1)\nlabel = \"Gain #1\"",
    "abilities": "abilities = unblockable, pierce",
    "requisite": "requisite = character@myRing && character@oppRing\naction = draw()",
    "vars": "vars = _n := me.hand.size; _big := _n > 3\naction = draw(_n) to(me)",
    "continuation": "target = <,2>characters[frozen]@oppRing\naction = {F}: bp(-200)\n    ; draw() to(me)",
    "may": "action = [[may]] draw(2)",
    "may question": "action = [[may 'Draw two?']] draw(2)",
    "if elif else": ("auto = ~myEndPhase~ [[if me.sp == 0]] sp(+2) [[elif opp.ring.size > me.ring.size]] draw()"
                     " [[else]] bp(+100) to(characters@myRing); hp(+100)"),
    "condition-only auto": "auto = ?oppCanBlock:this? [[if opp.hand.size <= 2]]",
    "if with list in condition": "vars = _n := 1\naction = [[if _n in [1, 2]]] draw()",
    "chain &": "action = freeze() & +frosted oppUynt\ntarget = character@oppRing",
    "chain &&": "action = draw?() && sp(+1)",
    "chain ||": "action = discard(reaction) || loseLife(300)",
    "cmd?": "action = draw?(2)",
    "to?": "action = destroy() to?(character[frozen]@oppRing)",
    "target clause": "action = damage(100) target(character@oppRing)",
    "from clause": "action = moveTo(hand) from(<1>character@myDiscards)",
    "clause before effect": "action = to(character@oppRing) damage(100)",
    "expression target tgt.0": "target = character@oppRing\naction = damage(100) to(tgt.0)",
    "expression target attr": "auto = ~removed~ damage(100) to(trigger.controller)",
    "expression target var": "vars = _victim := getTargets('character@oppRing')\naction = destroy() to(_victim)",
    "expression target prevTgt": "action = freeze() to(character@oppRing); damage(100) to(prevTgt)",
    "three filters in to()": "action = bp(+100) to(character@myRing; character@oppRing)",
    "name with separators": "action = moveTo(hand) to(\"Tom & Jerry, Ltd. #2; Mk (II)\"@myDeck)",
    "selector not": "vars = _spared := getTargets('<1>character@oppRing')\naction = freeze() to(characters[-frozen]::not(_spared))",
    "selector in target": "target = <2>character@oppRing\naction = bp(-200) to(characters@oppRing::not(tgt))",
    "type and": "target = character&!\"Mirror Gate\"@oppRing\naction = destroy()",
    "type or pick": "action = moveTo(hand) to(\"Red Twin\",\"Blue Twin\"<1>@myDeck)",
    "mixed player/card": "action = damage(250) to(opp, characters[frozen]@oppRing)",
    "^ exclude self": "action = bp(+100) to(^characters[frozen]@myRing)",
    "quantity and pick": "action = moveTo(hand) to(<2>*<3>@oppDeck)",
    "pick from bottom": "action = moveTo(hand) to(*<-2>@myDeck)",
    "qty <**>": "action = destroy() to(<**>character@oppRing)",
    "qty <r> <r2>": "action = destroy() to(<r>character@oppRing); discard(<r2>)",
    "qty <1,3>": "action = destroy() to(<1,3>characters@oppRing)",
    "no type segment": "action = moveTo(removed) to(<r>@myDeck)",
    "quoted plural": "action = destroy() to(\"Q-Bot\"s@myRing)",
    "*s": "action = moveTo(removed) to(*s@myDiscards)",
    "all": "action = moveTo(deck) to(all@myHand)",
    "player types": "action = hp(+100) to(players); draw() to(player); sp(+1) to(me); sp(-1) to(opp)",
    "subtype plural": "action = bp(+100) to(bosses@myRing); bp(+100) to(ninjas@myRing)",
    "subtype with dash": "action = bp(+100) to(kung-fu@myRing)",
    "filter atoms": ("action = destroy() to(characters[frozen, fresh, attack, uattack, block, blocked, backedup,"
                     " powerful, powerless, abinstant, abtrigger, abauto, character, boss]@arena)"),
    "filter comparisons": ("action = destroy() to(characters[bp==100, bp=200, bp!=300, bp<400, bp<=500, bp>600,"
                           " sp>=1]@oppRing); hp(+1) to(players[hp<1000, sp>-1])"),
    "filter extremes": "action = destroy() to(character[bp:lowest & -frozen]@oppRing); bp(+1) to(character[bp:highest])",
    "filter prefixes": "action = destroy() to(characters[+frozen & -fresh & !block & ^attack]@arena)",
    "zones": ("action = moveTo(hand) to(*@myDiscards); moveTo(deck) to(*@oppHand); destroy() to(character@infront);"
              " moveTo(hand) to(*@removed); destroy() to(character@anyRing); destroy() to(character@sameRing);"
              " destroy() to(character@ctrlRing); moveTo(hand) to(*@deck)"),
    "bp forms": "action = bp(+300); bp(x2); bp(=me.hp / 10); bp(-100)",
    "sp forms": "action = sp(+2); sp(=0); sp(+_g * 2)\nvars = _g := 1",
    "alterCost": "action = alterCost(character, +1) ueot; alterCost(action, =0) oppueot; alterCost(ua2, -2) unac",
    "rules": "action = disableRule(attack) to(opp) oppueot; enableRule(piercing) ueot; modRule(play_char_bp_limit, 800) uynt",
    "moveTo positions": "action = moveTo(deck, bottom) to(*@myHand); moveTo(oppDeck, 2, true) to(*@myHand); moveTo(ctrlHand, ?) to(*@arena)",
    "moveTo legacy reveal": "action = moveTo(hand, true) to(<1>*@myDeck)",
    "freeze toggle": "action = freeze(toggle) to(character@oppRing); freeze(true) to(character@myRing); freeze()",
    "each expr": "action = each(char in me.discards => hp(+50)); trash(2)",
    "each filter": "action = each(characters[frozen]@oppRing => damage(100)) to(opp)",
    "each nested": "action = each(card.bp > 100 in me.ring => each(char in me.hand => draw()))",
    "ability effects": "target = character@myRing\naction = +unblockable & -cantattack ueot",
    "many commands": ("action = activate(tgt.0); clear(); copyAbility(tgt.0); loseAbility(); modDamage(-100);"
                      " movePile(myDeck, myDiscards); moveRevealedTo(hand); moveToSlot(); peek(); pileView(removed, expanded);"
                      " playExtraChar(); prophecy(3, top); prophecy(); removeFromAttack(); reveal(); reveal(hand);"
                      " rndDiscard(2); shuffle(); shuffle(oppDeck); skip(draw) to(opp); steal(); steal(character@myRing);"
                      " swapAbilities(); swapChars(); swapPiles(myDeck, myDiscards); transform('sub-boss'); transform(tgt.0);"
                      " turns(1); unfreeze(); unite()\ntarget = character@oppRing"),
    "modCost in listener": "auto = ~beforePayCostCharacter~ modCost(character, 1)",
    "events and suffixes": ("auto = ~myActivatePhase,oppDrawPhase,anyBlockPhase,endPhase,cleanupPhase,handChanges,"
                            "ringChanges,removed:any,powerless:this,backedUp,beforeDamage,attacks:fromthis,blocks:any:once,"
                            "blocked:char,playerCombatDamaged:any:action,beforePayCostUa3:reaction~ draw()"),
    "hook with ~": "auto = ~cancelCombatDamage:this~ damage(400) to(characters@oppRing)",
    "static auto": "auto = +rush",
    "expressions": ("vars = _a := 1 < 2 <= 3 and not false or nil; _b := 7 // 2 + 7 / 2 - 7 % 3 * -1;"
                    " _c := 'x' if _a else \"y\"; _d := [1, 2] + [3]; _e := 2 not in [1]; _f := all card.bp >= 500 in opp.ring;"
                    " _g := any isChar(card) in me.hand; _h := len(getTargets('*s@hand')); _i := min(1, 2) + max(1, 2, 3);"
                    " _j := abs(-1) + sum([1]) + round(5) + int('3'); _k := str(this) + this.name; _l := flipCoin();"
                    " _m := inUAttack(this) or this.lastBP > 0; _n := prevTgt.12; _o := uaBP; _p := True and None == NIL\n"
                    "action = draw()"),
    "context names": ("vars = _a := [tgt, prevTgt, this, me, opp, trigger, attacker, blocker, uaBP, discarded, trashed,"
                      " destroyed, moved, sacrificed, alone, soloAttack, oppLostSP, instant, triggered, auto, char, action,"
                      " reaction]\naction = draw()"),
    "attributes": ("vars = _a := [this.bp, this.lastBP, this.sp, this.ability, this.name, this.type, this.subtype,"
                   " this.controller, me.hp, me.sp, me.hand, me.deck, me.discards, me.removed, me.ring, me.ncDamaged,"
                   " me.lostSP, me.hand.size, me.hand.0]\naction = draw()"),
    "case insensitivity": "ACTION = {f}: DAMAGE(250) TO(CHARACTER[-FROZEN]@OPPRING)",
    "comment lines": "# a comment\naction = draw() # trailing\n; column-one comment\n  # indented comment\naction = sp(+1)",
}


@pytest.mark.parametrize("name", list(FORMS))
def test_form_compiles(name: str) -> None:
    body = FORMS[name]
    res = compile_rules(f"[card-x]\n{body}\n")
    assert not errors(res), res.render()
    assert "card-x" in res.rules


def test_ir_of_a_typical_action() -> None:
    res = compile_rules("[hit]\naction = {F}: damage(250) to(character[-frozen]@oppRing)\n")
    action = res.rules["hit"]["actions"][0]
    assert action["costs"] == [{"cost": "F"}]
    stmt = action["stmts"][0]
    assert stmt["kind"] == "plain"
    body = stmt["branches"][0]["body"]
    eff = body["effects"][0]["eff"]
    assert eff["cmd"] == "damage" and eff["args"][0]["e"] == ["lit", 250]
    flt = body["clause"]["filters"][0]
    assert flt["zone"] == {"z": "ring", "p": "opp"}
    assert flt["block"] == [[{"a": "word", "w": "frozen", "neg": True, "notself": False}]]
    assert flt["qty"] == {"mode": "choose", "min": 1, "max": 1}


def test_quantity_forms_lower_to_modes() -> None:
    res = compile_rules("[q]\naction = destroy() to(<3>character; <1,2>character; <,4>character; <**>character;"
                        " <r>character; <r3>character; characters)\n")
    filters = res.rules["q"]["actions"][0]["stmts"][0]["branches"][0]["body"]["clause"]["filters"]
    assert [f["qty"] for f in filters] == [
        {"mode": "choose", "min": 3, "max": 3}, {"mode": "choose", "min": 1, "max": 2},
        {"mode": "choose", "min": 1, "max": 4}, {"mode": "choose", "min": 1, "max": None},
        {"mode": "random", "n": 1}, {"mode": "random", "n": 3}, {"mode": "all"}]


def test_plural_resolution_uses_vocabulary() -> None:
    res = compile_rules("[p]\naction = destroy() to(boss); destroy() to(bosses); destroy() to(characters)\n")
    stmts = res.rules["p"]["actions"][0]["stmts"]
    flts = [s["branches"][0]["body"]["clause"]["filters"][0] for s in stmts]
    assert [(f["types"][0][0]["v"], f["plural"]) for f in flts] == [("boss", False), ("boss", True),
                                                                    ("character", True)]


def test_amp_between_types_is_intersection_and_comma_is_union() -> None:
    res = compile_rules('[t]\naction = destroy() to("A"&"B"@oppRing); destroy() to("A","B"@oppRing)\n')
    stmts = res.rules["t"]["actions"][0]["stmts"]
    and_types = stmts[0]["branches"][0]["body"]["clause"]["filters"][0]["types"]
    or_types = stmts[1]["branches"][0]["body"]["clause"]["filters"][0]["types"]
    assert len(and_types) == 1 and len(and_types[0]) == 2
    assert len(or_types) == 2


def test_last_filter_argument_keeps_its_commas() -> None:
    res = compile_rules("[d]\naction = discard(character,reaction)\n")
    arg = res.rules["d"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"][0]
    assert len(arg["filters"][0]["types"]) == 2
    assert arg["filters"][0]["zone"]["z"] == "hand"


def test_if_chain_keeps_following_statements() -> None:
    res = compile_rules(f"[l]\n{FORMS['if elif else']}\n")
    stmts = res.rules["l"]["auto"]["stmts"]
    assert [s["kind"] for s in stmts] == ["if", "plain"]
    assert len(stmts[0]["branches"]) == 3 and stmts[0]["branches"][2]["cond"] is None


def test_events_lower_with_prefix_and_suffixes() -> None:
    res = compile_rules("[e]\nauto = ~oppEndPhase,anyRemoved:any:once,blocked:char~ draw()\n")
    ev = res.rules["e"]["auto"]["events"]
    assert ev[0]["event"] == "endphase" and ev[0]["prefix"] == "opp"
    assert ev[1]["event"] == "removed" and ev[1]["prefix"] == "any" and ev[1]["groups"]["object"] == "any"
    assert ev[1]["flags"] == ["once"]
    assert ev[2]["groups"] == {"trigger_type": "char", "object": "this"}


def test_expression_ir_is_a_tree_with_locations() -> None:
    res = compile_rules("[x]\nvars = _v := 1 + me.hand.size * 2\naction = draw(_v)\n")
    name, root = res.rules["x"]["vars"][0]
    assert name == "_v"
    assert root["e"][0] == "bin" and root["e"][1] == "+"
    assert root["at"][0] == 2 and root["text"] == "1 + me.hand.size * 2"


def test_legacy_boolean_position_is_reveal_with_warning() -> None:
    res = compile_rules("[m]\naction = moveTo(hand, true) to(<1>*@myDeck)\n")
    assert not errors(res)
    warn = [d for d in res.diagnostics if d.code == "RS905"]
    assert warn and warn[0].span.line == 2 and warn[0].span.col == 23
    args = res.rules["m"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"]
    assert args[1] == {"pos": 0, "reveal": True}
