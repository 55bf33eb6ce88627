"""The expression evaluator (rulescript/runtime/expr.py) on real compiled rules and a real table.

Expressions are compiled from rule text by the real compiler (as the ``vars`` of a test rule) and
evaluated against a CfcGame laid out with the runtime tests' Table helper.  The rule engine that will
own ``Resolution.engine`` is still under construction, so the tests give the resolution a tiny engine
object carrying only what expr/targets read from it: ``vocab`` (the CFC vocabulary).
"""
import pytest

import rulescript
from rulescript.runtime import expr
from rulescript.games.cfc.vocab import CfcVocab
from rulescript.runtime.resolution import Card, Player, Resolution, RuleError
from rulescript.sim.deciders import ScriptedDecider
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


def compile_vars(decls):
    r = rulescript.compile_text("[t]\nvars = %s\naction = draw()\n" % decls, filename="test.ini",
                                cards=CARDS)
    assert r.ok, r.render()
    return r.rules["t"]


def make_res(table, source=None, controller=0, event=None, answers=(), rule=None):
    table.game.decider = ScriptedDecider(list(answers))
    return Resolution(table.game, EngineStub(), source, controller, rule or compile_vars("_z := 0"),
                      "test", event)


def run(res, decls):
    """Evaluate every declaration of ``vars = decls`` in order into res.vars; return the last value.

    A variable already set in res.vars keeps its value (declare it as ``_x := nil`` so that the
    compiler knows it): that is how the tests hand cards to expressions."""
    rule = compile_vars(decls)
    res.rule = rule
    res.file = rule["src"][0]
    preset = dict(res.vars)
    value = None
    try:
        for name, root in rule["vars"]:
            value = preset[name] if name in preset else expr.evaluate(res, root)
            res.vars[name] = value
    finally:
        res.vars = preset
    return value


def err(res, decls):
    with pytest.raises(RuleError) as ei:
        run(res, decls)
    return ei.value


@pytest.fixture
def res(table):
    return make_res(table)


# ---------------------------------------------------------------------------- operators
@pytest.mark.parametrize("text,value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 2 - 3", 5), ("7 / 2", 3.5), ("8 / 2", 4),
    ("-7 / 2", -3.5), ("7 // 2", 3), ("-7 // 2", -4), ("7 % 3", 1), ("-7 % 3", 2), ("-(2 + 3)", -5),
    ("+4", 4), ("(7 / 2) * 2", 7), ("[1, 2] + [3]", [1, 2, 3]), ("'ab' + 'cd'", "abcd"),
    ("[]", []), ("[1, 'x', nil, true]", [1, "x", None, True]),
])
def test_arithmetic_and_displays(res, text, value):
    v = run(res, "_v := %s" % text)
    assert v == value and type(v) is type(value)


def test_exact_quotient_is_an_int_and_inexact_a_float(res):
    assert type(run(res, "_v := 6 / 3")) is int
    assert run(res, "_v := 1 / 3") == pytest.approx(1 / 3)


@pytest.mark.parametrize("text,value", [
    ("1 < 2 <= 2 < 3", True), ("1 < 3 < 2", False), ("3 > 2 >= 2 > 1", True), ("'a' < 'b'", True),
    ("1 == 1", True), ("1 != 1", False), ("nil == nil", True), ("nil == 0", False), ("0 == false", False),
    ("true == 1", False), ("[1, [2]] == [1, [2]]", True), ("[1] == [true]", False), ("'1' == 1", False),
    ("2 in [1, 2]", True), ("3 not in [1, 2]", True), ("'ell' in 'hello'", True), ("'x' not in 'hello'", True),
    ("true in [1]", False), ("nil in [0, nil]", True),
])
def test_comparisons(res, text, value):
    assert run(res, "_v := %s" % text) is value


def test_comparison_chain_stops_at_the_first_false_link(res):
    # 2 < 1 is false, so the last operand (which would fail) is never evaluated
    assert run(res, "_a := [] ; _v := 2 < 1 < _a.0") is False


@pytest.mark.parametrize("text,value", [
    ("0 or 'x'", "x"), ("'' or 0", 0), ("3 and 4", 4), ("[] and 4", []), ("nil or nil", None),
    ("not []", True), ("not 5", False), ("1 if true else 2", 1), ("1 if 0 else 2", 2),
    ("'a' if [] else 'b'", "b"),
])
def test_boolean_operators_return_an_operand(res, text, value):
    assert run(res, "_v := %s" % text) == value


def test_and_or_short_circuit(res):
    assert run(res, "_a := []; _v := false and _a.0") is False
    assert run(res, "_a := []; _v := true or _a.0") is True
    assert run(res, "_a := []; _v := 1 if true else _a.0") == 1


def test_truthy_helper():
    assert [expr.truthy(v) for v in (0, "", [], None, False, 1, "a", [0], Card(1), Player(0))] == \
        [False] * 5 + [True] * 5


# ---------------------------------------------------------------------------- errors of operators
def test_rs504_arithmetic_on_wrong_types_names_the_operands(res):
    e = err(res, "_a := true; _v := _a + 1")
    assert e.code == "RS504"
    assert e.message == "cannot apply '+' to a boolean and a number in '_a + 1'"
    assert e.values == [("_a", True), ("1", 1)]
    assert e.text == "_a + 1" and e.file == "test.ini" and e.at[0] == 2
    assert err(res, "_a := nil; _v := _a * 2").code == "RS504"
    assert err(res, "_a := 'x'; _v := _a - 'y'").code == "RS504"
    assert err(res, "_a := [1]; _v := _a + 'y'").code == "RS504"
    assert err(res, "_a := me; _v := 1 + _a").message == \
        "cannot apply '+' to a number and a player in '1 + _a'"


def test_rs504_unary_and_ordering(res):
    e = err(res, "_a := 'x'; _v := -_a")
    assert e.code == "RS504" and "unary '-'" in e.message and e.values == [("_a", "x")]
    assert err(res, "_a := nil; _v := +_a").code == "RS504"
    e = err(res, "_a := 'x'; _v := 1 < _a")
    assert e.code == "RS504"
    assert e.message == "cannot order a number and a string with '<' in '1 < _a'"
    assert err(res, "_a := true; _v := _a >= 0").code == "RS504"
    # nil is in no order: an ordering comparison with nil is false (it is not an error)
    assert [run(res, "_a := nil; _v := _a %s 0" % op) for op in ("<", "<=", ">", ">=")] == [False] * 4
    assert run(res, "_a := nil; _v := 0 < _a < 5") is False
    assert run(res, "_a := nil; _v := not (_a < 5)") is True
    assert err(res, "_a := me; _v := _a > opp").code == "RS504"


def test_rs504_membership_needs_a_list_or_strings(res):
    e = err(res, "_v := 1 in 2")
    assert e.code == "RS504" and "'in' needs a list" in e.message
    assert err(res, "_a := 1; _v := _a in 'x1'").code == "RS504"
    assert err(res, "_a := nil; _v := 1 not in _a").code == "RS504"


@pytest.mark.parametrize("op", ["/", "//", "%"])
def test_rs505_division_by_zero(res, op):
    e = err(res, "_z := 0; _v := 5 %s _z" % op)
    assert e.code == "RS505"
    assert e.message == "division by zero in '5 %s _z'" % op
    assert e.values == [("_z", 0)]


def test_an_error_message_writes_a_filter_call_as_written_without_its_filter(res):
    """docs/runtime.md (errors): a run-time error quotes the expression it happened in, names as written;
    a ``getTargets(...)`` inside it is written with its name as written and ``(...)`` for its filter.
    Player 1 has no character, so the divisor is 0."""
    e = err(res, "_v := 1 / (len(getTargets('characters@oppRing')) * 2)")
    assert (e.code, e.message) == ("RS505", "division by zero in '1 / (len(getTargets(...)) * 2)'")
    e = err(res, "_v := 7 // len(GETTARGETS('characters@oppRing'))")
    assert (e.code, e.message) == ("RS505", "division by zero in '7 // len(GETTARGETS(...))'")


# ---------------------------------------------------------------------------- functions
@pytest.mark.parametrize("text,value", [
    ("len([1, 2, 3])", 3), ("len('abcd')", 4), ("abs(-4)", 4), ("abs(-7 / 2)", 3.5),
    ("min(3, 1, 2)", 1), ("max([3, 9, 2])", 9), ("min(['b', 'a'])", "a"), ("max('b', 'c')", "c"),
    ("sum([1, 2, 3])", 6), ("sum([])", 0), ("sum([1 / 2, 1 / 2])", 1),
    ("any([0, '', 3])", True), ("any([])", False), ("all([1, 'x'])", True), ("all([1, 0])", False),
    ("all([])", True), ("round(5 / 2)", 3), ("round(-5 / 2)", -3), ("round(7 / 3)", 2), ("round(4)", 4),
    ("round(1250, -2)", 1300), ("round(-1250, -2)", -1300), ("round(1249, -2)", 1200),
    ("round(7 / 4, 1)", 1.8), ("round(5, 1)", 5), ("int(7 / 2)", 3), ("int(-7 / 2)", -3),
    ("int('12')", 12), ("int('-3')", -3), ("int(5)", 5), ("str(12)", "12"), ("str('a')", "a"),
    ("str(me)", "player 1"), ("str(opp)", "player 2"), ("str(7 / 2)", "3.5"),
])
def test_builtin_functions(res, text, value):
    v = run(res, "_v := %s" % text)
    assert v == value and type(v) is type(value)


def test_str_of_a_card_is_its_name_and_of_a_list_its_elements(table):
    iid = table.ring(0, "grunt")
    res = make_res(table, source=iid)
    assert run(res, "_v := str(this)") == "Grunt"
    assert run(res, "_v := str([this, 1, nil])") == "[Grunt, 1, None]"


def test_function_errors(res):
    e = err(res, "_a := 5; _v := len(_a)")
    assert e.code == "RS503" and e.message == "len(): '_a' is a number, not a list or a string"
    assert err(res, "_a := nil; _v := len(_a)").code == "RS502"
    e = err(res, "_a := 'x'; _v := abs(_a)")
    assert e.code == "RS506" and e.message == "abs(): '_a' is not a number (it is a string)"
    assert err(res, "_a := true; _v := round(_a)").code == "RS506"
    assert err(res, "_a := nil; _v := round(5, _a)").code == "RS506"
    e = err(res, "_v := sum([1, true])")
    assert e.code == "RS506" and "holds a boolean" in e.message
    assert err(res, "_a := 1; _v := sum(_a)").code == "RS503"
    e = err(res, "_v := min([])")
    assert e.code == "RS501" and e.message == "min() of an empty list ('[]')"
    assert err(res, "_v := max(1, 'a')").code == "RS504"
    assert err(res, "_v := max([me, opp])").code == "RS504"
    e = err(res, "_v := int('x1')")
    assert e.code == "RS506" and e.message == "int(): ''x1'' is not a number (it is a string)"
    assert err(res, "_a := nil; _v := int(_a)").code == "RS506"
    assert err(res, "_a := 3; _v := any(_a)").code == "RS503"
    assert err(res, "_a := nil; _v := all(_a)").code == "RS502"


def test_vocab_functions_ischar_and_inuattack(table):
    a = table.ring(0, "grunt")
    b = table.ring(0, "ninja")
    jab = table.card(0, "jab")
    g = table.game
    g.state["attacks"] = [{"lead": a, "followers": [b], "blocker": None}]
    g._sync_attack_flags(g.state["attacks"][0])
    res = make_res(table, source=a)
    res.vars["_jab"] = Card(jab)
    assert run(res, "_jab := nil; _v := [isChar(this), isChar(_jab), isChar(me), isChar(nil), isChar(3)]") == \
        [True, False, False, False, False]
    assert run(res, "_v := [inUAttack(this), inUAttack(me)]") == [True, False]
    res.source = jab
    assert run(res, "_v := inUAttack(this)") is False


@pytest.mark.parametrize("call", ["heads", "tails"])
def test_flipcoin_asks_the_controller_and_reports_whether_the_call_was_right(table, call):
    src = table.ring(1, "tiny")
    res = make_res(table, source=src, controller=1, answers=[call])
    got = run(res, "_v := flipCoin()")
    coin = [r for r in table.sink.records if r["type"] == "coin"]
    assert len(coin) == 1 and coin[0]["player"] == 1 and coin[0]["call"] == call
    assert got is (coin[0]["side"] == call)
    assert table.game.state["log"][-1][:2] == ["coin_call", 1]


def test_gettargets_resolves_silently(table):
    d = table.deck(1, ["tiny", "grunt", "jab"])
    table.card(0, "tiny")
    res = make_res(table)  # no answers: a decision would fail the test
    assert run(res, "_v := getTargets('characters@anyDeck')") == [Card(d[0]), Card(d[1])]
    assert run(res, "_v := getTargets('player').size") == 2
    assert run(res, "_v := getTargets('*s@oppHand')") == []


# ---------------------------------------------------------------------------- names
def test_tgt_prevtgt_this_me_opp(table):
    src = table.ring(1, "grunt")
    res = make_res(table, source=src, controller=1)
    assert run(res, "_v := [tgt, prevTgt]") == [[], []]
    res.tgt = [Card(src)]
    res.prev = [Player(0)]
    assert run(res, "_v := [tgt, prevTgt, this, me, opp]") == \
        [[Card(src)], [Player(0)], Card(src), Player(1), Player(0)]
    assert run(res, "_v := tgt.0 == this and me != opp") is True


def test_trigger_and_combat_bindings(table):
    a = table.ring(0, "brute")
    b = table.ring(1, "ninja")
    res = make_res(table, source=b, controller=1)
    assert run(res, "_v := [trigger, attacker, blocker, uaBP]") == [None, None, None, None]
    res.event = {"name": "blocks", "player": 1, "obj": b, "trigger": b,
                 "bindings": {"attacker": a, "blocker": b, "uaBP": 1300}}
    assert run(res, "_v := [trigger, attacker, blocker, uaBP]") == [Card(b), Card(a), Card(b), 1300]
    assert run(res, "_v := attacker.bp - blocker.bp") == 700


def test_card_char_action_reaction_elements_and_trigger_fallback(table):
    g = table.ring(0, "grunt")
    jab = table.card(0, "jab")
    wall = table.card(0, "wall")
    res = make_res(table, source=g)
    res.event = {"name": "x", "player": 0, "obj": None, "trigger": jab, "bindings": None}
    # outside any element: trigger if it is of that type
    assert run(res, "_v := [char, action, reaction]") == [None, Card(jab), None]
    res.event = None
    assert run(res, "_v := [char, action, reaction]") == [None, None, None]
    res.vars["_all"] = [Card(g), Card(jab), Card(wall), Player(0)]
    assert run(res, "_all := nil; _v := any char == this in _all") is True
    assert run(res, "_all := nil; _v := all card != nil in _all") is True
    assert run(res, "_all := nil; _v := any reaction != nil in _all") is True
    assert run(res, "_all := nil; _v := all ((char == nil) == (card != this)) in _all") is True
    # a player element is none of the card types
    res.elements.append(Player(0))
    assert run(res, "_v := [char, action, reaction]") == [None, None, None]
    res.elements.pop()


def test_card_outside_an_element_is_an_error_at_run_time(res):
    root = {"e": ["name", "card"], "at": [1, 1, 5], "text": "card"}
    with pytest.raises(RuleError) as ei:
        expr.evaluate(res, root)
    assert ei.value.code == "RS503" and "only defined inside" in ei.value.message


def test_quantifiers_bind_card_and_restore_the_element_stack(table):
    table.ring(1, "tiny")
    table.ring(1, "mid")
    res = make_res(table)
    assert run(res, "_v := all card.bp >= 100 in opp.ring") is True
    assert run(res, "_v := all card.bp > 100 in opp.ring") is False
    assert run(res, "_v := any card.bp > 600 in opp.ring") is True
    assert run(res, "_v := any card.bp > 700 in opp.ring") is False
    assert run(res, "_v := [all card in [], any card in []]") == [True, False]
    # nested: the inner card is the inner element, the outer one comes back after it
    assert run(res, "_v := all any card.bp > 100 in opp.ring in opp.ring") is True
    assert run(res, "_v := any ((any card.bp > 600 in opp.ring) and card.bp == 100) in opp.ring") is True
    assert run(res, "_v := any ((all card.bp < 500 in opp.ring) and card.bp == 700) in opp.ring") is False
    assert res.elements == []
    res.vars["_n"] = None
    e = err(res, "_n := 1; _v := all card in _n")
    assert e.code == "RS502" and res.elements == []
    e = err(res, "_a := 5; _v := any card in _a")
    assert e.code == "RS503"
    # an error inside the element pops the element again
    e = err(res, "_v := all card.bp / 0 in opp.ring")
    assert e.code == "RS505" and res.elements == []


def test_constants_results_and_user_variables(res):
    assert run(res, "_v := [instant, triggered, auto]") == ["instant", "triggered", "auto"]
    res.results["discarded"] = [5, 6]
    res.results["sacrificed"] = [7]
    assert run(res, "_v := [discarded, trashed, destroyed, moved, sacrificed]") == \
        [[Card(5), Card(6)], [], [], [], [Card(7)]]
    assert run(res, "_a := 2; _b := nil; _v := [_a * 3, _b]") == [6, None]


def test_undefined_variable_is_an_error(res):
    root = {"e": ["var", "_ghost"], "at": [1, 1, 7], "text": "_ghost"}
    with pytest.raises(RuleError) as ei:
        expr.evaluate(res, root)
    assert ei.value.code == "RS503" and "'_ghost'" in ei.value.message


def test_alone_soloattack_opplostsp(table):
    a = table.ring(0, "grunt")
    res = make_res(table, source=a)
    assert run(res, "_v := [alone, soloAttack, oppLostSP]") == [True, False, False]
    b = table.ring(0, "tiny")
    g = table.game
    g.state["attacks"] = [{"lead": a, "followers": [], "blocker": None}]
    assert run(res, "_v := [alone, soloAttack]") == [False, True]
    g.state["attacks"][0]["followers"] = [b]  # a United Attack: both members count
    assert run(res, "_v := soloAttack") is False
    g.state["players"][1]["sp"] = 3
    g.add_sp(1, -2)
    assert run(res, "_v := oppLostSP") is True
    res.controller = 1
    assert run(res, "_v := oppLostSP") is False


# ---------------------------------------------------------------------------- attributes
def test_card_attributes(table):
    g = table.game
    r = table.ring(1, "grunt")
    h = table.card(1, "trig")
    jab = table.card(0, "jab")
    table.c(r)["bp"] = 800
    table.c(r)["lastBP"] = 800
    res = make_res(table, source=r)
    res.vars.update({"_h": Card(h), "_j": Card(jab)})
    assert run(res, "_v := [this.bp, this.lastBP, this.sp, this.name, this.type, this.subtype]") == \
        [800, 800, 1, "Grunt", "character", "Brawler"]
    assert run(res, "_h := nil; _v := [_h.bp, _h.lastBP, _h.sp, _h.ability, this.ability]") == \
        [400, 0, 0, "triggered", None]
    assert run(res, "_j := nil; _v := [_j.name, _j.type, _j.subtype, _j.sp, _j.ability]") == \
        ["Jab", "action", "", -1, None]
    assert run(res, "_j := nil; _v := [this.controller, _j.controller]") == [Player(1), Player(0)]
    g.move_cards([r], 1, "discards")  # left the ring: printed BP, lastBP kept
    assert run(res, "_v := [this.bp, this.lastBP]") == [500, 800]
    table.c(h)["ability"] = {"kind": "instant", "name": "x"}
    assert run(res, "_h := nil; _v := _h.ability == instant") is True
    table.c(h)["ability"] = {"kind": "auto", "name": "x"}
    assert run(res, "_h := nil; _v := _h.ability == auto") is True


def test_player_attributes(table):
    g = table.game
    d = table.deck(0, ["tiny", "mid"])
    h = table.card(0, "jab")
    x = table.card(0, "wall", "discards")
    y = table.card(0, "tiny", "removed")
    s3 = table.ring(0, "ninja", slot=3)
    s1 = table.ring(0, "big", slot=1)
    res = make_res(table)
    g.state["players"][0]["sp"] = 4
    assert run(res, "_v := [me.hp, me.sp, me.hand, me.deck, me.discards, me.removed, me.ring]") == \
        [3000, 4, [Card(h)], [Card(d[0]), Card(d[1])], [Card(x)], [Card(y)], [Card(s1), Card(s3)]]
    assert run(res, "_v := [me.ncDamaged, me.lostSP, opp.hand.size, me.deck.1.name]") == \
        [False, 0, 0, "Mid"]
    g.damage_player(0, 300)
    g.add_sp(0, -3)
    assert run(res, "_v := [me.hp, me.ncDamaged, me.lostSP, me.sp]") == [2700, True, 3, 1]


def test_rs501_index_out_of_range_message(table):
    res = make_res(table)
    e = err(res, "_top := getTargets('*s@myDeck'); _v := _top.0.bp")
    assert e.code == "RS501"
    assert e.message == "index 0 out of range for '_top' (empty list)"
    assert e.values == [("_top", [])]
    assert e.text == "_top.0.bp"
    assert e.at[0] == 2 and e.at[2] - e.at[1] == len("_top.0")
    res.tgt = [Player(0), Player(1)]
    e = err(res, "_v := tgt.2")
    assert e.message == "index 2 out of range for 'tgt' (2 elements)"
    e = err(res, "_v := prevTgt.12")
    assert e.message == "index 12 out of range for 'prevTgt' (empty list)"
    assert run(res, "_v := tgt.1") == Player(1)


def test_rs502_attribute_or_element_of_nil(res):
    e = err(res, "_v := trigger.bp")
    assert e.code == "RS502"
    assert e.message == "attribute 'bp' of nil ('trigger' is nil)"
    assert e.values == [("trigger", None)]
    e = err(res, "_n := nil; _v := _n.0")
    assert e.code == "RS502" and e.message == "element 0 of nil ('_n' is nil)"
    e = err(res, "_v := attacker.controller.hand")
    assert e.code == "RS502" and "'attacker' is nil" in e.message


def test_rs503_attribute_the_object_lacks(table):
    jab = table.card(0, "jab")
    res = make_res(table)
    res.vars["_j"] = Card(jab)
    e = err(res, "_p := me; _v := _p.bp")
    assert e.code == "RS503" and e.message == "a player has no attribute 'bp' ('_p')"
    assert e.values == [("_p", Player(0))]
    # a stat the card does not have reads as nil (docs/language.md 8.6, docs/runtime.md "Limits")
    assert run(res, "_j := nil; _v := _j.bp") is None
    assert run(res, "_j := nil; _v := _j.bp <= 300") is False
    e = err(res, "_j := nil; _v := _j.bp + 100")
    assert e.code == "RS504" and e.message == "cannot apply '+' to nil and a number in '_j.bp + 100'"
    e = err(res, "_l := [1]; _v := _l.hp")
    assert e.code == "RS503" and e.message == "a list has no attribute 'hp' ('_l')"
    e = err(res, "_c := me; _v := _c.0")
    assert e.code == "RS503" and e.message == "element 0 of a player ('_c' is not a list)"
    e = err(res, "_s := 'abc'; _v := _s.size")
    assert e.code == "RS503"


def test_spelling_of_attributes_in_messages(res):
    e = err(res, "_p := [1]; _v := _p.lastBP")
    assert e.message == "a list has no attribute 'lastBP' ('_p')"


def test_number_helper_truncates_and_rejects_non_numbers(res):
    rule = compile_vars("_a := 7 / 2; _b := -7 / 2; _c := true; _d := nil; _e := 'x'; _f := 5")
    roots = dict(rule["vars"])
    res.rule = rule
    assert expr.number(res, roots["_a"], "damage") == 3
    assert expr.number(res, roots["_b"], "damage") == -3
    assert expr.number(res, roots["_f"]) == 5
    for name, kind in (("_c", "a boolean"), ("_d", "nil"), ("_e", "a string")):
        with pytest.raises(RuleError) as ei:
            expr.number(res, roots[name], "damage")
        assert ei.value.code == "RS506"
        assert ei.value.message == "damage: '%s' is not a number (it is %s)" % (roots[name]["text"], kind)
        assert ei.value.values == [(roots[name]["text"], res.vars.get(name, roots[name]["e"][1]))]


def test_node_text_rebuilds_parenthesised_source():
    rule = compile_vars("_v := -(1 + 2) * 3 if not (1 < 2) and [1] else (all card in [1]) or 'q'")
    root = rule["vars"][0][1]
    assert expr.node_text(root, root["e"]) == \
        "-(1 + 2) * 3 if not 1 < 2 and [1] else (all card in [1]) or 'q'"


# ---------------------------------------------------------------------------- Python 2.7 (IronPython's language)
PY_SCRIPT = r'''
from __future__ import print_function
import sys
sys.path.insert(0, sys.argv[1])
from rulescript.games.cfc.game import CfcGame
from rulescript.games.cfc.vocab import CfcVocab
from rulescript.runtime.resolution import Card, Player, Resolution, RuleError
from rulescript.runtime import expr, targets
models, rule, filters = eval(sys.argv[2]), eval(sys.argv[3]), eval(sys.argv[4])


class Engine(object):
    vocab = CfcVocab()

    def resolve(self, res, filters, purpose):
        return targets.resolve(res, filters, purpose)


class Dec(object):
    def decide(self, req):
        if req["kind"] == "choose_targets":
            return req["options"][:req["max"]]
        return req["options"][-1]


def plain(v):
    if isinstance(v, Card):
        return ("card", v.iid)
    if isinstance(v, Player):
        return ("player", v.idx)
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


g = CfcGame(models, [[], []], Dec(), seed=5, first=0)
for p, mid, zone in ((1, "tiny", "deck"), (1, "jab", "deck"), (0, "wall", "hand"), (0, "grunt", "ring"),
                     (0, "ninja", "ring"), (1, "big", "ring"), (1, "mid", "ring")):
    iid = g.create_card(mid, p, "hand" if zone == "ring" else zone)
    if zone == "ring":
        g.state["players"][p]["hand"].remove(iid)
        slot = g.free_slots(p)[0]
        c = g.state["cards"][iid]
        c.update({"zone": "ring", "slot": slot, "bp": models[mid]["bp"], "lastBP": models[mid]["bp"]})
        g.state["players"][p]["ring"][slot] = iid
res = Resolution(g, Engine(), 4, 0, rule, "test")
out = []
for name, root in rule["vars"]:
    try:
        v = expr.evaluate(res, root)
        res.vars[name] = v
        out.append(("ok", plain(v)))
    except RuleError as e:
        out.append(("err", e.code, e.message))
for f in filters:
    out.append(plain(targets.resolve(res, f, "clause")))
out.append(g.state["rng"])
print(repr(out))
'''

PY_VARS = ("_a := 7 / 2; _b := -7 // 2; _c := round(-5 / 2); _d := round(1250, -2); _e := int(-7 / 2); "
           "_f := str(7 / 2) + str(this) + str(opp); _g := [1, 'a'] + [nil, true]; _h := 'ab' < 'b' <= 'b'; "
           "_i := 1 < 2 > 3; _j := all card.bp >= 500 in opp.ring; _k := any card.name == 'Ninja' in me.ring; "
           "_l := getTargets('*s@oppDeck'); _m := [me.hp, opp.ring.size, this.lastBP, this.ability, this.subtype]; "
           "_n := max(me.ring.0.bp, opp.ring.1.bp); _o := sum([1, 2, 3]) % 4; _p := 'x' in 'xyz'; "
           "_q := 1 / 3 * 3; _r := true; _s := _r + 1; _t := _l.5; _u := 5 // (_o - 2); _v := min([])")


def test_same_results_on_python_27_and_3():
    import ast
    import subprocess
    import sys
    from pathlib import Path
    from test_py27 import _python27

    root = Path(__file__).resolve().parents[2]
    rule = compile_vars(PY_VARS)
    filters = [compile_rule_filters(t) for t in ("characters[bp:lowest, bp>1000]", "<2>*s@oppDeck",
                                                 "<r>characters", "^characters@myRing::not(tgt)",
                                                 "player", '"mid",ninjas')]
    args = [str(root), repr(MODELS), repr(rule), repr(filters)]

    def run_with(python):
        proc = subprocess.run([python, "-c", PY_SCRIPT] + args, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return ast.literal_eval(proc.stdout.strip())

    out3 = run_with(sys.executable)
    assert out3[:5] == [("ok", 3.5), ("ok", -4), ("ok", -3), ("ok", 1300), ("ok", -3)]
    assert out3[5] == ("ok", "3.5Gruntplayer 2")
    assert out3[18][:2] == ("err", "RS504") and out3[19][:2] == ("err", "RS501")
    assert out3[20][:2] == ("err", "RS505") and out3[21][:2] == ("err", "RS501")
    py27 = _python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available")
    assert run_with(py27) == out3


def compile_rule_filters(text):
    r = rulescript.compile_text("[t]\ntarget = %s\naction = draw()\n" % text, cards=CARDS)
    assert r.ok, r.render()
    return r.rules["t"]["target"]["filters"]


# ---------------------------------------------------------------------------- blind sample, seed 41
def test_cards_and_players_are_equal_only_to_themselves(table):
    """docs/language.md §8: ``==`` compares values; a card is one object of the table and a player one
    seat, so each equals itself only: two cards of the same model are two cards, and a card never
    equals a player."""
    a = table.ring(0, "grunt")
    table.ring(0, "grunt")
    res = make_res(table, source=a)
    assert run(res, "_v := [this == this, me == me, opp == opp, this == me, me == opp, "
                    "me.ring.0 == this, me.ring.1 == this, me.ring.1 != this, this != this]") == [
        True, True, True, False, False, True, False, True, False]


@pytest.mark.parametrize("text,digits", [("'1000000000000000000'", 19), ("'-0012345678901234567890'", 22)])
def test_int_of_a_text_of_more_than_18_significant_digits_is_rs511(res, text, digits):
    """docs/runtime.md, Limits: ``int()`` of a string takes at most 18 significant digits, checked
    before converting (RS511); the message quotes the argument as written and counts its digits
    (leading zeros included, the sign not).  10^18 has 19; the second has 20 significant digits."""
    e = err(res, "_v := int(%s)" % text)
    assert e.code == "RS511"
    assert e.message == ("int(): '%s' is out of range (%d digits; a rule's numbers stay between "
                         "-999999999999999999 and 999999999999999999)" % (text, digits))


def test_int_of_a_text_counts_only_significant_digits(res):
    """docs/runtime.md, Limits: 18 *significant* digits: leading zeros do not count, so a text of 22
    characters that is -1 converts, and so does the largest number of 18 digits."""
    assert run(res, "_v := int('-0000000000000000000001')") == -1
    assert run(res, "_v := int('+999999999999999999')") == 999999999999999999


def test_string_work_costs_one_step_per_16_characters(table):
    """docs/runtime.md, Limits: joining strings and searching a string in a string cost one step per 16
    characters (rounded down), on top of the evaluation's own cost, which is the same for every length
    here (the text of the expression does not change).  ``_a + _a`` of 2k characters and ``'x' in _a``
    of k characters: the steps spent beyond those of the shortest string, by hand."""
    def spent(decls, k):
        res = make_res(table)
        res.vars["_a"] = "a" * k
        before = res.budget[0]
        run(res, "_a := nil; " + decls)
        res.vars.pop("_a")
        return before - res.budget[0]

    join = {k: spent("_b := _a + _a", k) for k in (7, 8, 15, 16, 24)}   # 14, 16, 30, 32, 48 characters
    assert {k: n - join[7] for k, n in join.items()} == {7: 0, 8: 1, 15: 1, 16: 2, 24: 3}
    search = {k: spent("_b := 'x' in _a", k) for k in (15, 16, 31, 32)}
    assert {k: n - search[15] for k, n in search.items()} == {15: 0, 16: 1, 31: 1, 32: 2}
