"""Every resolution has a budget (issue 13, runtime half; docs/runtime.md, "Limits").

Each finding of the issue is a rule compiled by the real compiler and resolved by the real engine on
a real table: it ends in a located RuleError (RS511 number, RS512 length, RS513 nesting, RS514
steps, RS530 engine error), never a hang or a crash; the state is restored and play goes on.
"""
from __future__ import annotations

import time

import pytest

from rulescript.compiler import compile_text
from rulescript.games import cfc
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.engine import Engine
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import ListSink
from rulescript.runtime.resolution import MAX_STEPS
from rulescript.sim.deciders import DecisionsExhausted, ScriptedDecider
from runtime_table import enter_ring


def char(cid, bp=500, sp=0, subtype="ninja", ability="trigger"):
    return {"id": cid, "name": cid.replace("-", " ").title(), "type": "character", "subtype": subtype,
            "bp": bp, "sp": sp, "backup": [], "ability": {"kind": ability, "name": cid}, "text": ""}


def action(cid, sp=0):
    return {"id": cid, "name": cid.title(), "type": "action", "sp": sp, "text": ""}


MODELS = [char("src"), char("other"), action("jab")] + [char("c%d" % i, bp=100 * (i + 1)) for i in range(4)]


class Table:
    """Player 0's Main phase, turn 1, with the real engine running the compiled ``rules_text``."""

    def __init__(self, rules_text, answers=(), ir_edit=None):
        self.models = {m["id"]: m for m in MODELS}
        result = compile_text(rules_text, filename="t.ini", cards=MODELS, cache=None)
        assert result.ok, result.render()
        rules = deep_copy(result.rules)
        if ir_edit is not None:
            ir_edit(rules)
        self.engine = Engine(rules, game=cfc)
        self.sink = ListSink()
        self.decider = ScriptedDecider(list(answers))
        self.game = CfcGame(self.models, [[], []], self.decider, sink=self.sink, rules=self.engine,
                            seed=3, first=0)
        st = self.game.state
        st["phase"], st["turn"], st["active"] = "main", 1, 0
        self.engine.start(self.game)
        for i in range(4):
            self.game.create_card("c%d" % i, 0, "deck")

    def ring(self, p, model):
        return enter_ring(self.game, self.engine, p, model)

    def state(self):
        st = deep_copy(self.game.state)
        st.pop("log")
        return st


def resolve(rule_line, **kw):
    """Resolve ``[src]`` with ``rule_line`` once; returns (result, errors, table, seconds, unchanged)."""
    t = Table("[src]\n" + rule_line + "\n", **kw)
    src = t.ring(0, "src")
    before = t.state()
    t0 = time.perf_counter()
    result = t.engine.resolve_action(t.game, src, "trigger")
    took = time.perf_counter() - t0
    return result, t.engine.errors, t, took, t.state() == before


def doubling(name, first, n, op="+"):
    parts = ["%s0 := %s" % (name, first)]
    parts += ["%s%d := %s%d %s %s%d" % (name, i, name, i - 1, op, name, i - 1) for i in range(1, n)]
    return "; ".join(parts)


def one_error(errors, code):
    assert len(errors) == 1, errors
    e = errors[0]
    assert e["code"] == code, e
    assert e["file"] == "t.ini" and e["line"] is not None and e["card"][1] == "src"
    return e


# ---------------------------------------------------------------------------- numbers (RS511)
def test_round_to_far_negative_digits_does_not_compute_ten_to_the_n():
    result, errors, t, took, _ = resolve("action = damage(round(1, -999999999) + 300) to(opp)")
    assert result is True and errors == [] and took < 1
    assert t.game.state["players"][1]["hp"] == 2700


def test_round_to_400_digits_is_no_overflow_error():
    result, errors, t, _, _ = resolve("action = damage(round(1 / 3, 400) * 3 * 100) to(opp)")
    assert result is True and errors == []
    assert t.game.state["players"][1]["hp"] == 2900


@pytest.mark.parametrize("n", [6, 40])
def test_squaring_in_vars_is_stopped_by_the_integer_limit(n):
    result, errors, t, took, unchanged = resolve(
        "vars = %s\naction = draw(); damage(1) to(opp)" % doubling("_a", "1000", n, "*"))
    e = one_error(errors, "RS511")
    assert result is False and unchanged and took < 1
    assert e["message"].startswith("number out of range in '_a2 * _a2'")
    assert e["line"] == 2 and e["text"] == "_a2 * _a2" and e["col"] > 30  # the declaration of _a3
    assert e["values"] == [["_a2 * _a2", "a number of about 25 digits"]]


def test_dividing_past_the_limit_is_rs511_not_overflow_error():
    # the original finding: an integer of more than 308 digits divided by 3 (OverflowError)
    _, errors, _, _, unchanged = resolve("vars = _a := 999999999999999 * 1000 + 999; _b := (_a + 1) / 3\n"
                                         "action = draw()")
    assert one_error(errors, "RS511")["message"].startswith("number out of range in '_a + 1'")
    assert unchanged


def test_int_of_a_4096_digit_string_is_rs511_on_every_host():
    _, errors, _, _, unchanged = resolve("vars = %s; _n := int(_s9)\naction = draw()"
                                         % doubling("_s", "'99999999'", 10))
    e = one_error(errors, "RS511")
    assert e["message"].startswith("int(): '_s9' is out of range (4096 digits")
    assert unchanged


def test_int_of_18_digits_is_fine_and_19_digits_is_not():
    _, errors, t, _, _ = resolve("vars = _n := int('000999999999999999999') - 999999999999999 * 1000\n"
                                 "action = damage(_n) to(opp)")
    assert errors == [] and t.game.state["players"][1]["hp"] == 3000 - 999
    _, errors, _, _, _ = resolve("vars = _n := int('1000000000000000000')\naction = draw()")
    assert one_error(errors, "RS511")


def test_a_huge_literal_in_the_ir_is_rs511_when_a_command_uses_it():
    # the compiler allows 15 digits; a hand-edited IR file (or one from another writer) may hold more
    def edit(rules):
        rules["src"]["actions"][0]["stmts"][0]["branches"][0]["body"]["effects"][0]["eff"]["args"][0]["e"] = \
            ["lit", 10 ** 30]
    _, errors, _, _, unchanged = resolve("action = damage(12) to(opp)", ir_edit=edit)
    assert one_error(errors, "RS511") and unchanged

    def edit_str(rules):  # str() of it: Python 3 refuses past 4300 digits, Python 2 does not
        rules["src"]["vars"][0][1]["e"][2][0] = ["lit", 10 ** 5000]
    _, errors, _, _, _ = resolve("vars = _t := str(1)\naction = draw()", ir_edit=edit_str)
    assert one_error(errors, "RS511")["message"].startswith("str(): '<a number of about 5001 digits>' holds")

    def edit_vars(rules):
        rules["src"]["vars"][0][1]["e"][3] = ["lit", 10 ** 5000]
    _, errors, _, _, _ = resolve("vars = _x := 'a' + 1\naction = draw()", ir_edit=edit_vars)
    e = one_error(errors, "RS504")  # the error report does not print the 5000-digit number
    assert e["values"][1][1] == "a number of about 5001 digits"
    assert "<a number of about 5001 digits>" in e["message"]


# ---------------------------------------------------------------------------- lengths (RS512)
@pytest.mark.parametrize("first,what,last", [("'ab'", "a string", 12), ("[1]", "a list", 13)])
def test_doubling_a_string_or_a_list_40_times_is_stopped_by_the_length_limit(first, what, last):
    result, errors, _, took, unchanged = resolve("vars = %s\naction = draw()" % doubling("_s", first, 40))
    e = one_error(errors, "RS512")
    assert e["message"].startswith("%s too long in '_s%d + _s%d': 16384 " % (what, last, last))
    assert result is False and unchanged and took < 1


def test_str_of_a_long_list_is_rs512_before_the_text_is_built():
    _, errors, _, _, _ = resolve("vars = %s; _t := str([_l10, _l10])\naction = draw()"
                                 % doubling("_l", "[1, 2, 3, 4, 5, 6, 7, 8]", 11))
    e = one_error(errors, "RS512")
    assert e["message"] == "str(): the text of '[_l10, _l10]' is longer than 10000 characters"


# ---------------------------------------------------------------------------- nesting (RS513)
def test_lists_nested_past_the_limit_are_rs513_and_the_report_does_not_recurse():
    decl = "_n0 := [1]; " + "; ".join("_n%d := [[[[[[[[[[_n%d]]]]]]]]]]" % (i, i - 1) for i in range(1, 5))
    _, errors, _, _, unchanged = resolve("vars = %s\naction = draw(); hp(+len(str(_n4)))" % decl)
    e = one_error(errors, "RS513")
    assert e["message"] == "lists nested deeper than 32 levels in '[[_n3]]'"
    assert unchanged
    # just below the limit, str(), min() and the error report work on 31 levels without recursing
    _, errors, t, _, _ = resolve("vars = %s; _m := min(_n3)\naction = draw()" % decl.rsplit(";", 1)[0])
    e = one_error(errors, "RS504")
    assert e["message"] == "min() cannot order a list and a list"
    assert e["values"] == [["min(_n3)", [[[["[...]"]]]]]]  # shown 4 levels deep
    _, errors, t, _, _ = resolve("vars = %s\naction = hp(+len(str(_n3)))" % decl.rsplit(";", 1)[0])
    assert errors == [] and t.game.state["players"][0]["hp"] == 3000 + 31 + 1 + 31


def test_shared_sublists_cannot_multiply_the_work():
    # 30 levels of four references to the same list: 4**30 leaves if walked naively
    decl = "; ".join("_%s0 := [1, 2]; " % x + "; ".join(
        "_%s%d := [_%s%d, _%s%d, _%s%d, _%s%d]" % ((x, i) + (x, i - 1) * 4) for i in range(1, 30))
        for x in "de")
    for use, code in (("len(str(_d29))", "RS512"), ("1 if _d29 == _e29 else 2", "RS514"),
                      ("1 if [0] in _d29 else 2", None), ("1 if _d29 == _d29 + [] else 2", None)):
        _, errors, t, took, _ = resolve("vars = %s; _e := %s\naction = draw()" % (decl, use))
        assert took < 2, use
        if code is None:
            assert errors == []
        else:
            assert one_error(errors, code)


# ---------------------------------------------------------------------------- steps (RS514)
BIG = doubling("_l", "[1, 2, 3, 4, 5, 6, 7, 8]", 11)  # _l10 has 8192 elements


@pytest.mark.parametrize("body", [
    "vars = %s; _x := all all card > 0 in _l10 in _l10\naction = draw()" % BIG,
    "vars = %s\naction = draw(); each(card > 0 in _l10 => each(card > 0 in _l10 => sp(+1)))" % BIG,
    "vars = %s\naction = draw(); each(card > 0 in _l10 => sp(+1)); each(card > 0 in _l10 => sp(+1))" % BIG,
    "vars = %s; %s; _x := any (card in _z10) in _l10\naction = draw()" % (BIG, doubling("_z", "['a', 'b']", 11)),
])
def test_loops_past_the_step_budget_are_rs514_within_a_second(body):
    result, errors, _, took, unchanged = resolve(body)
    e = one_error(errors, "RS514")
    assert "used up its %d evaluation steps" % MAX_STEPS in e["message"]
    assert result is False and unchanged and took < 1.5


def test_a_normal_resolution_uses_a_small_part_of_the_budget():
    t = Table("[src]\nvars = _x := len(getTargets('characters@myRing'))\n"
              "action = each(char in me.deck => sp(+1)); damage(100 * _x) to(opp)\n")
    src = t.ring(0, "src")
    assert t.engine.resolve_action(t.game, src, "trigger") is True
    assert t.engine.errors == []
    used = MAX_STEPS - t.engine._budget[0]
    assert 0 < used < 500


# ---------------------------------------------------------------------------- engine errors (RS530)
def _break_expression(rules):
    """IR the compiler never writes (a hand-edited or damaged IR file): an unknown node tag."""
    rules["src"]["vars"][0][1]["e"] = ["no-such-node", 1]


def test_an_exception_inside_a_resolution_is_an_engine_error_and_play_goes_on():
    t = Table("[src]\nvars = _x := 1\naction = draw(); damage(_x) to(opp)\n[other]\naction = draw()\n",
              ir_edit=_break_expression)
    src = t.ring(0, "src")
    other = t.ring(0, "other")
    before = t.state()
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    assert t.state() == before
    (e,) = t.engine.errors
    assert e["code"] == "RS530" and e["card"] == [src, "src"] and e["file"] == "t.ini" and e["line"] == 1
    assert e["message"].startswith("engine error while resolving src: KeyError")
    assert isinstance(t.engine.last_exception, KeyError)
    assert [r for r in t.sink.records if r["type"] == "rule_error"][0]["error"] == e
    assert t.engine.resolve_action(t.game, other, "trigger") is True  # the game goes on
    assert len(t.game.state["players"][0]["hand"]) == 1


def test_strict_engines_let_engine_errors_propagate():
    t = Table("[src]\nvars = _x := 1\naction = draw()\n", ir_edit=_break_expression)
    src = t.ring(0, "src")
    t.engine.strict = True
    with pytest.raises(KeyError):
        t.engine.resolve_action(t.game, src, "trigger")


def test_a_host_interrupt_passes_through_a_resolution():
    # the scripted decider has no answer: the host must see its own exception, not a rule error
    t = Table("[src]\naction = [[may]] draw()\n")
    src = t.ring(0, "src")
    with pytest.raises(DecisionsExhausted):
        t.engine.resolve_action(t.game, src, "trigger")
    assert t.engine.errors == []


def test_error_records_shorten_big_values():
    _, errors, _, _, _ = resolve("vars = %s; _x := _l10 + 'a'\naction = draw()" % BIG)
    e = one_error(errors, "RS504")
    shown = dict(e["values"])["_l10"]
    assert len(shown) == 21 and shown[-1] == "... 8172 more"


# ---------------------------------------------------------------------------- same text on every host
def test_str_of_a_float_is_its_repr():
    # Python 2's str(1/3) has 12 digits, its repr and Python 3's str have 16
    _, errors, t, _, _ = resolve("vars = _t := str(1 / 3)\naction = damage(len(_t) * 100) to(opp)")
    assert errors == [] and t.game.state["players"][1]["hp"] == 3000 - 1800
    _, errors, t, _, _ = resolve("vars = _t := str([1 / 10, 5 / 2, 7])\naction = damage(len(_t) * 10) to(opp)")
    assert errors == [] and t.game.state["players"][1]["hp"] == 3000 - 130  # '[0.1, 2.5, 7]'


def _cmp_atoms(node):
    """Every comparison atom of a filter (``bp>=300``) anywhere in a piece of IR."""
    if isinstance(node, dict):
        if node.get("a") == "cmp":
            yield node
        for v in node.values():
            yield from _cmp_atoms(v)
    elif isinstance(node, list):
        for v in node:
            yield from _cmp_atoms(v)


def test_a_comparison_the_engine_does_not_know_in_a_damaged_ir_is_an_engine_error():
    """docs/runtime.md (errors): IR the compiler never writes (a hand-edited or damaged file) stops the
    resolution with RS530 and undoes it; it is never read as some other comparison.  The filter
    ``characters[bp>=300]@myRing`` with its operator changed to ``=>``: RS530, where the compiled
    filter counts the three characters of 300 BP or more in player 0's ring (300, 400 and the source's
    500; not the one of 100)."""
    line = "vars = _n := len(getTargets('characters[bp>=300]@myRing'))\naction = hp(+_n)"
    t = Table("[src]\n" + line + "\n")
    for model in ("c0", "c2", "c3"):  # 100, 300 and 400 BP
        t.ring(0, model)
    assert t.engine.resolve_action(t.game, t.ring(0, "src"), "trigger") is True and t.engine.errors == []
    assert t.game.state["players"][0]["hp"] == 3003

    def edit(rules):
        (atom,) = _cmp_atoms(rules["src"])
        atom["op"] = "=>"
    t = Table("[src]\n" + line + "\n", ir_edit=edit)
    for model in ("c0", "c2", "c3"):
        t.ring(0, model)
    src = t.ring(0, "src")
    before = t.state()
    assert t.engine.resolve_action(t.game, src, "trigger") is False
    (e,) = t.engine.errors
    assert e["code"] == "RS530" and "ValueError: unknown comparison '=>'" in e["message"]
    assert t.state() == before
