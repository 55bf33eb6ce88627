"""Expression-escape attempts: Python tricks that must be refused at compile time, with a location.

RuleScript expressions are parsed and checked, never handed to ``eval`` (rulescript.md §0, §8, §10).
Each case below hides a classic sandbox escape (dunder access, builtins, comprehensions, huge
powers, method calls, statements smuggled through ``;`` …) in a realistic place of a rule: ``vars``,
``[[if]]``/``[[elif]]``, a command argument, a ``to(…)`` expression, a selector, ``each`` and
``getTargets``.  For every case the compiler must reject the rule, and its first error must sit on
the physical line of the attempt, at the exact column of the offending token, with a message; the
rendered diagnostic must put its caret there too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.compiler import compile_text, load_cards
from rulescript.compiler.context import CardDatabase

ROOT = Path(__file__).resolve().parents[2]
CARDS = CardDatabase.from_cards(load_cards(ROOT / "cards" / "cfc-demo" / "cards.yaml")[0])
FILENAME = "escape.ini"
HEADER = "[escape-artist]\n# an escape attempt, in a place where rules really use expressions\n" \
         "target = character@oppRing\n"

DEEP = "(" * 65 + "1" + ")" * 65
LONG = " + ".join(["1"] * 700)  # about 2,800 characters: above the 2,000 character limit

# (id, rule text placed after HEADER, marker, offset): the first error must start at the column of
# ``rule.index(marker) + offset`` (on whatever physical line that character lies).
CASES = [
    ("dunder-import-in-vars", "vars = _x := __import__('os')\naction = draw()", "__import__", 0),
    ("class-bases-in-if", "action = [[if ().__class__.__bases__]] draw()", "__class__", 0),
    ("dunder-attr-in-damage", "action = damage(me.__class__) to(opp)", "__class__", 0),
    ("private-attr-in-damage", "action = damage(tgt._secret) to(opp)", "_secret", 0),
    ("private-attr-in-vars", "vars = _x := me._hp\naction = draw()", "_hp", 0),
    ("eval-in-damage", "action = damage(eval('1')) to(opp)", "eval", 0),
    ("exec-in-if", "action = [[if exec('x')]] draw()", "exec", 0),
    ("open-in-nested-call", "action = damage(len(open('f'))) to(opp)", "open", 0),
    ("getattr-in-each", "action = each(card in getattr(me, 'hand') => draw())", "getattr", 0),
    ("getattr-string-concat", "action = damage(getattr(me, '__' + 'class__')) to(opp)", "getattr", 0),
    ("lambda-in-if", "action = [[if lambda: 1]] draw()", ": 1", 0),
    ("comprehension-in-vars", "vars = _x := [x for x in tgt]\naction = draw()", "for", 0),
    ("dict-display", "vars = _x := {'a': 1}\naction = draw()", "{", 0),
    ("set-display", "vars = _x := {1, 2}\naction = draw()", "{", 0),
    ("huge-power", "action = damage(2 ** 999999) to(opp)", "2 **", 0),
    ("power-tower", "action = damage(9 ** 9 ** 9) to(opp)", "9 **", 0),
    ("method-call-in-if", "action = [[if me.hand.pop()]] draw()", ".pop(", 4),
    ("method-call-in-to", "action = destroy() to(me.ring.pop())", ".pop(", 4),
    ("method-call-on-gettargets", "action = damage(getTargets('characters@oppRing').pop()) to(opp)", ".pop(", 4),
    ("globals-call", "action = [[if globals()]] draw()", "globals", 0),
    ("builtins-name", "action = [[if __builtins__]] draw()", "__builtins__", 0),
    ("type-call", "action = damage(type(me)) to(opp)", "type", 0),
    ("f-string", "vars = _x := f'{me}'\naction = draw()", "'{me}'", 0),
    ("walrus-in-if", "action = [[if (y := 1)]] draw()", ":=", 0),
    ("slice", "action = damage(tgt[0:1]) to(opp)", "0:1", 1),
    ("subscript", "action = damage(tgt[0].bp) to(opp)", "[0]", 0),
    ("keyword-argument", "action = damage(max(a=1)) to(opp)", "a=1", 1),
    ("gettargets-non-literal", "vars = _f := 'characters'\naction = [[if getTargets(_f)]] draw()", "_f)", 0),
    ("gettargets-concat", "action = [[if getTargets('chara' + 'cters@oppRing')]] draw()", "'chara'", 0),
    ("gettargets-dunder-word", "action = damage(getTargets('characters[__x]@oppRing').size) to(opp)", "__x", 0),
    ("bitwise-or", "action = damage(1 | 2) to(opp)", "|", 0),
    ("bitwise-invert", "action = damage(~1) to(opp)", "~", 0),
    ("left-shift", "action = damage(1 << 64) to(opp)", "< 64", 0),
    ("nesting-65", "action = damage(" + DEEP + ") to(opp)", DEEP, 64),
    ("too-long", "action = damage(" + LONG + ") to(opp)", "1 + 1", 0),
    ("float", "action = damage(1.5) to(opp)", "1.5", 0),
    ("yield", "action = [[if yield]] draw()", "yield", 0),
    ("await", "action = [[if await me]] draw()", "me]]", 0),
    ("import-statement", "action = [[if import os]] draw()", "os]]", 0),
    ("semicolon-injection", "action = [[if 1; import os]] draw()", ";", 0),
    ("backslash-in-string", "vars = _x := 'a\\'b'\naction = draw()", "b'", 1),
    ("backslash-operator", "action = damage(1 \\ 2) to(opp)", "\\", 0),
    ("selector-dunder", "action = freeze() to(characters::not(me.__class__))", "__class__", 0),
    ("each-body-dunder", "action = each(card in tgt => damage(card.__dict__))", "__dict__", 0),
    ("each-head-dunder", "action = each(card.__class__ in tgt => damage(1))", "__class__", 0),
    ("to-expression-dunder", "action = destroy() to(tgt.0.__class__)", "__class__", 0),
    ("bp-set-import", "action = bp(=__import__('os')) to(character@myRing)", "__import__", 0),
    ("elif-exec", "action = [[if me.hp > 1]] draw() [[elif exec('1')]] draw()", "exec", 0),
    ("continued-line-exec", "action = draw();\n    [[if exec('import os')]] sp(+1)", "exec", 0),
    ("continued-vars-dunder", "vars = _a := 1;\n    _b := this.__globals__\naction = draw()", "__globals__", 0),
]


def _position(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


@pytest.mark.parametrize(("rule", "marker", "offset"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_escape_attempt_is_rejected_at_the_offending_token(rule: str, marker: str, offset: int) -> None:
    text = HEADER + rule + "\n"
    result = compile_text(text, filename=FILENAME, cards=CARDS, cache=None)
    assert not result.ok, f"accepted: {rule!r}"
    errors = result.errors
    assert errors
    first = errors[0]
    line, col = _position(text, len(HEADER) + rule.index(marker) + offset)
    assert (first.span.line, first.span.col) == (line, col), result.render()
    assert first.message.strip()
    assert first.code.startswith("RS")
    # the caret of the rendered diagnostic sits under the offending token
    rendered = result.render()
    source_line = text.split("\n")[line - 1]
    assert f"{FILENAME}:{line}:{col}: error[{first.code}]" in rendered
    assert "    " + source_line.expandtabs(1) + "\n    " + " " * (col - 1) + "^" in rendered


def test_battery_is_large_and_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) >= 30 and len(set(ids)) == len(ids)
    for _, rule, marker, _ in CASES:
        assert marker in rule


def test_the_same_places_accept_legal_expressions() -> None:
    """Control: with the escape replaced by a legal expression, every place in the battery compiles."""
    legal = [
        "vars = _x := me.hp\naction = draw()",
        "action = [[if me.hand.size > 1]] draw()",
        "action = damage(max(1, me.hp // 10)) to(opp)",
        "action = each(card in me.hand => draw())",
        "action = destroy() to(tgt.0)",
        "action = freeze() to(characters::not(tgt))",
        "action = each(card in tgt => damage(card.bp))",
        "action = damage(getTargets('characters@oppRing').size) to(opp)",
        "action = bp(=me.hp) to(character@myRing)",
        "action = [[if me.hp > 1]] draw() [[elif me.sp > 1]] draw()",
        "vars = _a := 1;\n    _b := this.bp\naction = draw()",
    ]
    for rule in legal:
        result = compile_text(HEADER + rule + "\n", filename=FILENAME, cards=CARDS, cache=None)
        assert result.ok, result.render()


@pytest.mark.parametrize("rule", [
    "action = damage(getTargets('characters[__x]@oppRing').size) to(opp)",
    "action = destroy() to(characters[__class__]@oppRing)",
    "action = destroy() to(__x)",
], ids=["gettargets", "to-filter-word", "to-type-word"])
def test_dunder_filter_word_is_rejected_without_card_database(rule: str) -> None:
    """Names beginning with '__' are rejected everywhere (rulescript.md §2), even with no card
    database, where an unknown filter or type word would otherwise only be warned about as a subtype.
    (Without a card database this was only a warning until commit eb57c19.)"""
    text = HEADER + rule + "\n"
    result = compile_text(text, filename=FILENAME, cards=None, cache=None)
    assert not result.ok, result.render()
    line, col = _position(text, len(HEADER) + rule.index("__"))
    assert (result.errors[0].span.line, result.errors[0].span.col) == (line, col)
