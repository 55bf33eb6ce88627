"""``Scripts/rules.py``: one Python literal per rule, read the first time the rule is (``LazyRules``).

The host's view is unchanged: ``RULES["rules"]`` maps rule id -> IR dict and ``Engine(rules, ...)``
takes it; the engine keeps it lazy, and a game played on it is the same game, move for move."""

from __future__ import annotations

import pytest

from octgn_pack.host.lazyrules import LazyRules
from octgn_pack.scripts import rules_module
from rulescript.compiler import compile_game
from rulescript.games import cfc
from rulescript.runtime.engine import Engine
from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from tests.conftest import DEMO
from tests.octgn.conftest import run_py27, unpack

DOC = {"format": "rulescript-ir", "version": 1, "profile": "cfc",
       "rules": {"Ember-Monk": {"id": "Ember-Monk", "src": ["rules/a.ini", 2, 1], "abilities": [], "flag": True,
                                "none": None, "n": -3.5, "text": "d\u00e9j\u00e0 \u2603 'q' \"dq\" \\ \n"},
                 "se\u00f1al": {"id": "se\u00f1al", "actions": [{"stmts": [], "ok": False}]}}}


def _load(module: bytes) -> dict:
    ns: dict = {}
    exec(compile(module, "rules.py", "exec"), ns)  # noqa: S102 - the package's own literal
    return ns


def test_the_module_reads_each_rule_when_first_read() -> None:
    ns = _load(rules_module(DOC))
    rules = ns["RULES"]["rules"]
    assert isinstance(rules, LazyRules) and "_LazyRules" not in ns  # nothing left in the shared namespace
    assert {k: v for k, v in ns["RULES"].items() if k != "rules"} == {"format": "rulescript-ir", "version": 1,
                                                                       "profile": "cfc"}
    assert list(rules) == ["Ember-Monk", "se\u00f1al"] and len(rules) == 2 and "Ember-Monk" in rules
    assert rules.read_ids() == []
    assert rules["Ember-Monk"] == DOC["rules"]["Ember-Monk"]
    assert rules["Ember-Monk"] is rules["Ember-Monk"]  # read once, kept
    assert rules.read_ids() == ["Ember-Monk"]
    assert rules.get("nope") is None and rules.get("nope", 5) == 5 and "nope" not in rules
    with pytest.raises(KeyError):
        rules["nope"]
    assert ns["RULES"] == DOC and not ns["RULES"] != DOC  # == reads every rule
    assert rules.read_ids() == ["Ember-Monk", "se\u00f1al"]
    assert len(ns["RULES_FINGERPRINT"]) == 32
    other = dict(DOC, rules=dict(DOC["rules"], extra={"id": "extra"}))
    assert _load(rules_module(other))["RULES_FINGERPRINT"] != ns["RULES_FINGERPRINT"]


def test_lowered_keys_read_nothing_and_share_what_was_read() -> None:
    rules = _load(rules_module(DOC))["RULES"]["rules"]
    first = rules["Ember-Monk"]
    low = rules.lowered()
    assert sorted(low) == ["ember-monk", "se\u00f1al"] and low.read_ids() == ["ember-monk"]
    assert low["ember-monk"] is first and "Ember-Monk" not in low
    assert low == {k.lower(): v for k, v in DOC["rules"].items()}
    assert repr(low) == "<LazyRules: 2 rules, 2 read>"
    assert rules.lowered() is low  # one view: engines built one after the other read each rule once
    already = _load(rules_module(dict(DOC, rules={"a": {"id": "a"}, "b": {"id": "b"}})))["RULES"]["rules"]
    assert already.lowered() is already
    first_engine, second_engine = Engine(already, game=cfc), Engine(already, game=cfc)
    assert first_engine.rules.get("a") is second_engine.rules.get("a") and already.read_ids() == ["a"]


def test_the_engine_keeps_the_rules_lazy_and_plays_the_same_games() -> None:
    table = load_table(DEMO)
    data = table.data
    doc = compile_game(DEMO).document()
    decks = data.deck_names()
    in_decks = {cid for d in decks for cid in data.deck_list(d)}
    for seed in (1, 2, 3):
        plain_sink, lazy_sink = ListSink(), ListSink()
        _, plain_log = play_game(data, decks, seed, RandomDecider(seed), sink=plain_sink,
                                 rules=Engine(doc["rules"], game=cfc))
        lazy = _load(rules_module(doc))["RULES"]["rules"]
        engine = Engine(lazy, game=cfc)
        assert engine.rules.read_ids() == [] and lazy.read_ids() == []  # building the engine reads no rule
        _, lazy_log = play_game(data, decks, seed, RandomDecider(seed), sink=lazy_sink, rules=engine)
        assert lazy_log == plain_log and lazy_sink.records == plain_sink.records
        read = set(engine.rules.read_ids())
        assert read and read <= in_decks and len(read) < len(doc["rules"])  # only cards the game met


def test_the_package_loads_lazily_under_python27(demo_build, python27, tmp_path) -> None:
    """As OCTGN does: the package's def/ on sys.path, rules.py run, the engine built on RULES."""
    b, _ = demo_build
    def_dir = unpack(b.package, tmp_path)
    code = ("sys.path.insert(0, sys.argv[1] + '/Scripts')\n"
            "from rulescript.games import load\nfrom rulescript.runtime.engine import Engine\n"
            "import rules\nr = rules.RULES['rules']\ne = Engine(r, game=load(rules.RULES['profile']))\n"
            "before = len(e.rules.read_ids())\nrule = e.rules.get('ink-viper')\n"
            "out(u'%d %d %d %s %s' % (len(r), before, len(e.rules.read_ids()), rule['id'], rule['src'][0]))\n")
    n, before, after, rid, src = run_py27(python27, def_dir, code).split()
    assert (int(n), int(before), int(after), rid, src) == (len(compile_game(DEMO).rules), 0, 1, "ink-viper",
                                                           "rules/fighters.ini")


def test_non_ascii_rules_read_back_under_python27(python27, tmp_path) -> None:
    (tmp_path / "octgn_pack" / "host").mkdir(parents=True)
    from octgn_pack.scripts import PACK_INIT, HOST_DIR

    (tmp_path / "octgn_pack" / "__init__.py").write_bytes(PACK_INIT)
    for name in ("__init__.py", "lazyrules.py"):
        (tmp_path / "octgn_pack" / "host" / name).write_bytes((HOST_DIR / name).read_bytes())
    (tmp_path / "rules.py").write_bytes(rules_module(DOC))
    code = ("import rules\nr = rules.RULES['rules']\nt = r['Ember-Monk']['text']\nassert isinstance(t, unicode)\n"
            "assert r['Ember-Monk']['flag'] is True and r['Ember-Monk']['none'] is None\n"
            "assert r[u'se\\xf1al']['actions'][0]['ok'] is False\n"
            "out(t + u'|' + repr(r['Ember-Monk']['n']) + u'|' + u','.join(sorted(r)))")
    text, n, ids = run_py27(python27, tmp_path, code).split("|")
    assert text == DOC["rules"]["Ember-Monk"]["text"] and n == "-3.5" and ids == "Ember-Monk,se\u00f1al"
