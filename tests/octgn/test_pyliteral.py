"""The Python-literal writer shared by `rulescript compile --format py` and the package's scripts:
ASCII output that Python 2.7 reads as the same values (non-ASCII text as unicode)."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from rulescript.cli import main as rulescript_main
from rulescript.pyliteral import py_literal, python_module
from tests.octgn.conftest import run_py27

VALUE = {"name": "Fish & Chips 'é' ☃ \U0001F600", "n": [1, -2, 3.5, True, None], "t": ("x",), 7: {"k": "\n\t\\"}}

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(plain)
@settings(max_examples=200, deadline=None)
def test_literal_is_ascii_and_reads_back(value):
    text = py_literal(value)
    assert text.isascii()
    assert ast.literal_eval(text) == value


def test_module_reads_back_under_python27(tmp_path, python27):
    mod = tmp_path / "m.py"
    mod.write_text(python_module("a header", [("VALUE", VALUE)]), encoding="ascii")
    code = ("import m\nv = m.VALUE\nassert isinstance(v['name'], unicode)\n"
            "out(v['name'] + u'|' + repr(v['n']) + u'|' + repr(v[7]))")
    name, n, k = run_py27(python27, tmp_path, code).split("|")
    assert name == VALUE["name"] and n == "[1, -2, 3.5, True, None]" and ast.literal_eval(k) == VALUE[7]


def test_compile_format_py_with_non_ascii_loads_under_python27(tmp_path, python27):
    game = tmp_path / "g"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: cfc\nid: x\nname: G\n")
    (game / "cards.yaml").write_text('cards:\n  - {id: a, name: "Ä", type: action, sp: 0}\n', encoding="utf-8")
    (game / "rules" / "r.ini").write_text('[a]\naction = [[may "Zieh éine Karte?"]] draw()\n', encoding="utf-8")
    out = tmp_path / "ir.py"
    assert rulescript_main(["compile", str(game), "-o", str(out), "--format", "py", "--no-cache"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# -*- coding: utf-8 -*-\n") and text.isascii()
    code = "import ir\nout(ir.IR['rules']['a']['actions'][0]['stmts'][0]['question'])"
    assert run_py27(python27, tmp_path, code) == "Zieh éine Karte?"
