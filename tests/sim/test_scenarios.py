"""Scenario testing: the fixture scenarios (vanilla cards), the demo game's scenarios (card rules),
the format's diagnostics (SC1xx), failure reports and the ``main_test`` report."""
from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from rulescript.pytest_scenarios import check_scenario, collect_cases, scenario_params
from rulescript.sim.scenario import (main_test, run_folder, run_path, run_scenario, run_text,
                                     scenario_files)
from rulescript.sim.scenario_format import parse_scenarios

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "scenarios"
VANILLA = HERE / "fixtures" / "vanilla"
DEMO = HERE.parents[1] / "cards" / "cfc-demo"


# ---------------------------------------------------------------------- every scenario is a test
@pytest.mark.parametrize("case", scenario_params([FIXTURES]))
def test_fixture_scenario(case):
    check_scenario(case)


@pytest.mark.parametrize("case", scenario_params([DEMO]))
def test_demo_scenario(case):
    check_scenario(case)


def test_there_are_scenarios_to_run():
    fixture = collect_cases([FIXTURES])
    assert len(fixture) >= 30
    assert all(c.scenario is not None and c.scenario.ok for c in fixture), [
        c.problems for c in fixture if c.problems]
    assert len(collect_cases([DEMO])) >= 10


# ---------------------------------------------------------------------- helpers
def _parse(body, game=VANILLA):
    text = "game: %s\nrules: false\n%s" % (game, textwrap.dedent(body))
    return parse_scenarios(text, "case.yaml", HERE)


def _run(body, game=VANILLA):
    text = "game: %s\nrules: false\n%s" % (game, textwrap.dedent(body))
    return run_text(text, "case.yaml", HERE)


def _codes(scenarios, file_diags):
    out = [(d.code, d.span.line, d.span.col) for d in file_diags]
    for sc in scenarios:
        out.extend((d.code, d.span.line, d.span.col) for d in sc.diagnostics)
    return out


# ---------------------------------------------------------------------- format errors
def test_unknown_field_is_located_with_a_suggestion():
    scs, diags = _parse("""\
        name: x
        setup:
          players:
            - hp: 100
              hnad: [ash-pup]
        """)
    assert _codes(scs, diags) == [("SC103", 7, 7)]
    d = scs[0].diagnostics[0]
    assert "hnad" in d.message and "did you mean: hand" in d.notes[0]
    rendered = run_text("game: %s\nname: x\nsetup: {players: [{hnad: []}]}\n" % VANILLA,
                        "case.yaml", HERE)[0]
    assert not rendered.passed and rendered.status == "fail"
    assert rendered.failures[0].startswith("case.yaml:3:")
    assert "error[SC103]" in rendered.failures[0]


def test_unknown_card_and_bad_values():
    scs, diags = _parse("""\
        name: x
        setup:
          phase: mian
          active: 2
          players:
            - hand: [ash-pupp]
              ring: [ash-pup, null, null, null, null]
        steps:
          - play: {card: "#0", slot: 4}
        """)
    got = _codes(scs, diags)
    assert ("SC105", 5, 10) in got          # phase
    assert ("SC105", 6, 11) in got          # active
    assert ("SC106", 8, 14) in got          # unknown card id
    assert ("SC105", 9, 13) in got          # five ring slots
    assert ("SC105", 11, 18) in got         # '#0'
    assert ("SC105", 11, 30) in got         # slot 4
    msgs = " | ".join(d.message for d in scs[0].diagnostics)
    assert "unknown card id 'ash-pupp'" in msgs
    assert any("did you mean: ash-pup" in n for d in scs[0].diagnostics for n in d.notes)


def test_step_kinds_and_shapes():
    scs, diags = _parse("""\
        name: x
        steps:
          - plya: ash-pup
          - {play: ash-pup, attack: brick-fist}
          - pass: mian
          - run_until: {}
          - block: {card: brick-fist}
        """)
    got = _codes(scs, diags)
    assert ("SC107", 5, 5) in got
    assert ("SC107", 6, 5) in got
    assert ("SC105", 7, 11) in got
    assert ("SC104", 8, 16) in got
    assert ("SC104", 9, 12) in got          # block needs an attack


def test_yaml_errors_duplicates_names_and_games():
    scs, diags = parse_scenarios("name: x\nsetup: [\n", "bad.yaml", HERE)
    assert scs == [] and diags[0].code == "SC101" and diags[0].span.line >= 2
    scs, diags = _parse("""\
        scenarios:
          - name: same
            seed: 1
            seed: 2
          - name: same
        """)
    got = _codes(scs, diags)
    assert ("SC108", 6, 5) in got
    assert ("SC110", 7, 11) in got
    scs, diags = _parse("""\
        name: x
        """, game=HERE / "no-such-game")
    assert [d.code for d in scs[0].diagnostics] == ["SC109"]
    scs, diags = parse_scenarios("- 1\n- 2\n", "list.yaml", HERE)
    assert [d.code for d in diags] == ["SC102", "SC102"]
    scs, diags = parse_scenarios("seed: 1\n", "noname.yaml", VANILLA)
    assert [d.code for d in scs[0].diagnostics] == ["SC104"]


def test_expectation_fields_are_checked():
    scs, diags = _parse("""\
        name: x
        expect:
          winnr: 0
          players:
            - ring: [{card: ash-pup, bp: "lots"}]
              hand: {cnt: 2}
        """)
    got = _codes(scs, diags)
    assert ("SC103", 5, 3) in got
    assert ("SC105", 7, 34) in got
    assert ("SC103", 8, 14) in got


# ---------------------------------------------------------------------- failures are reported
def test_failing_expectation_reports_expected_and_actual_with_its_line():
    res = _run("""\
        name: play and miscount
        setup:
          players:
            - sp: 2
              hand: [ash-pup]
        steps:
          - play: {card: ash-pup, slot: 1}
        expect:
          players:
            - sp: 4
              ring: [null, {card: ash-pup, bp: 300}]
              hand: [ash-pup]
        """)
    assert len(res) == 1 and not res[0].passed and res[0].status == "fail"
    f = res[0].failures
    assert "case.yaml:12: expect.players[0].sp: expected 4, got 5" in f
    assert "case.yaml:13: expect.players[0].ring[1].bp: expected 300, got 100 (ash-pup)" in f
    assert "case.yaml:14: expect.players[0].hand: expected ['ash-pup'], got []" in f
    assert len(f) == 3


def test_same_scenario_with_right_numbers_passes():
    res = _run("""\
        name: play and count
        setup:
          players:
            - sp: 2
              hand: [ash-pup]
        steps:
          - play: {card: ash-pup, slot: 1}
        expect:
          players:
            - sp: 5
              ring: [null, {card: ash-pup, bp: 100}]
              hand: []
        """)
    assert res[0].passed, res[0].failures


def test_step_that_is_not_offered_names_the_step_and_the_options():
    res = _run("""\
        name: cannot join without 5 SP
        setup:
          turn: 3
          players:
            - sp: 4
              ring: [brick-fist, dune-runner]
        steps:
          - pass: main
          - attack: brick-fist
          - join: {card: dune-runner, lead: brick-fist}
        """)
    (r,) = res
    assert not r.passed
    msg = r.failures[0]
    assert "step 3 (join:" in msg and "case.yaml:12" in msg
    assert "not offered to player 0" in msg and "attack card=Dune Runner" in msg


def test_step_asked_in_the_wrong_phase():
    (r,) = _run("""\
        name: attack in main
        setup:
          turn: 3
          players:
            - ring: [brick-fist]
              hand: [ash-pup]
        steps:
          - attack: brick-fist
        """)
    assert not r.passed
    assert "the game asks the Main phase question of player 0" in r.failures[0]


def test_decisions_missing_and_left_over():
    (r,) = _run("""\
        name: slot missing
        setup:
          players:
            - hand: [ash-pup]
        steps:
          - play: ash-pup
        """)
    assert not r.passed and "no decision left for choose_slot of player 0" in r.failures[0]
    (r,) = _run("""\
        name: slot twice
        setup:
          players:
            - hand: [ash-pup]
        steps:
          - play: ash-pup
        decisions: [1, 2]
        """)
    assert not r.passed
    assert r.failures == ["case.yaml:3: expect.decisions_left: expected 0, got 1 "
                          "(the first unused decision is at line 9: 2)"]
    (r,) = _run("""\
        name: slot of the wrong kind
        setup:
          players:
            - hand: [ash-pup]
        steps:
          - play: ash-pup
        decisions: [{kind: yes_no, answer: true}]
        """)
    assert not r.passed and "expected a yes_no question, but the game asks choose_slot" in r.failures[0]


def test_game_ending_before_the_steps_is_a_failure():
    (r,) = _run("""\
        name: lethal too early
        setup:
          turn: 3
          players:
            - ring: [brick-fist]
            - hp: 100
        steps:
          - pass: main
          - attack: brick-fist
          - pass: attack
          - run_until: {turn: 4, phase: main}
          - play: ash-pup
        expect:
          over: true
        """)
    assert not r.passed
    assert any("the game ended (player 1 at 0 HP) before 2 step(s) were used" in f for f in r.failures)


def test_log_and_pile_forms():
    (r,) = _run("""\
        name: piles
        setup:
          players:
            - deck: [ash-pup, jade-viper, ash-pup]
        expect:
          players:
            - deck: {count: 2, contains: [moss-titan], excludes: [jade-viper], set: [ash-pup],
                     top: [jade-viper], bottom: [ash-pup, ash-pup]}
          log: ["setup: seed 0"]
          no_log: ["setup"]
        """)
    f = r.failures
    assert any(".deck.count: expected 2, got 3" in x for x in f)
    assert any(".deck.contains: expected to contain ['moss-titan']" in x for x in f)
    assert any(".deck.excludes: expected no ['jade-viper']" in x for x in f)
    assert any(".deck.set: expected in any order ['ash-pup']" in x for x in f)
    assert any(".deck.top: expected on top ['jade-viper']" in x for x in f)
    assert any(".deck.bottom: expected at the bottom ['ash-pup', 'ash-pup']" in x for x in f)
    assert any("expect.no_log[0]: expected no log line containing 'setup'" in x for x in f)
    assert not any("expect.log[0]" in x for x in f)
    assert len(f) == 7


def test_pending_scenarios_are_skipped_and_not_run():
    (r,) = _run("""\
        name: later
        pending: engine not ready
        expect:
          turn: 99
        """)
    assert r.status == "skip" and not r.passed and r.pending == "engine not ready"


# ---------------------------------------------------------------------- main_test and folders
def _game_with_scenarios(tmp_path, body):
    game = tmp_path / "game"
    (game / "scenarios" / "more").mkdir(parents=True)
    (game / "cards.yaml").write_text((VANILLA / "cards.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (game / "scenarios" / "more" / "a.yaml").write_text(textwrap.dedent(body), encoding="utf-8")
    return game


def test_main_test_reports_each_scenario_and_the_totals(tmp_path):
    game = _game_with_scenarios(tmp_path, """\
        - name: good
          setup: {players: [{hp: 10}]}
          expect: {players: [{hp: 10}]}
        - name: bad
          setup: {players: [{hp: 10}]}
          expect: {players: [{hp: 11}]}
        - name: later
          pending: not yet
        """)
    assert [f.name for f in scenario_files(game)] == ["a.yaml"]
    results = run_folder(game)
    assert [(r.name, r.status) for r in results] == [("good", "pass"), ("bad", "fail"),
                                                     ("later", "skip")]
    out = io.StringIO()
    assert main_test([str(game)], out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == "PASS good"
    assert lines[1] == "FAIL bad"
    assert lines[2].startswith("    ") and "expect.players[0].hp: expected 11, got 10" in lines[2]
    assert lines[3] == "SKIP later (pending: not yet)"
    assert lines[-1] == "1 passed, 1 failed"


def test_main_test_returns_zero_when_all_pass_and_counts_bad_files(tmp_path):
    out = io.StringIO()
    assert main_test([str(FIXTURES)], out) == 0
    last = out.getvalue().splitlines()[-1]
    n = len(collect_cases([FIXTURES]))
    assert last == "%d passed, 0 failed" % n
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    out = io.StringIO()
    assert main_test([str(bad), str(tmp_path / "missing")], out) == 1
    text = out.getvalue()
    assert "FAIL broken.yaml" in text and "error[SC101]" in text
    assert "FAIL %s" % (tmp_path / "missing") in text
    assert text.splitlines()[-1] == "0 passed, 2 failed"


def test_run_path_accepts_a_file_and_the_game_defaults_to_the_enclosing_folder(tmp_path):
    game = _game_with_scenarios(tmp_path, """\
        name: no game field
        setup: {players: [{hand: [ash-pup]}]}
        expect: {players: [{hand: [ash-pup]}]}
        """)
    (r,) = run_path(game / "scenarios" / "more" / "a.yaml")
    assert r.passed, r.failures
    assert Path(r.file).name == "a.yaml" and r.line == 1


def test_rules_true_on_a_game_without_rules_needs_no_engine():
    (r,) = run_text("game: %s\nname: vanilla with rules\nrules: true\n"
                    "setup: {players: [{hand: [ash-pup]}]}\nsteps: [{play: {card: ash-pup, slot: 0}}]\n"
                    "expect: {players: [{sp: 3}]}\n" % VANILLA, "case.yaml", HERE)
    assert r.passed, r.failures


def test_every_fixture_scenario_would_notice_a_wrong_number():
    """Each fixture scenario with a player hp/sp expectation fails once that number is off by one
    (the framework really compares)."""
    checked = 0
    for case in collect_cases([FIXTURES]):
        sc = case.scenario
        exp = sc.raw.get("expect") or {}
        players = exp.get("players")
        if not isinstance(players, list) or not players or not isinstance(players[0], dict):
            continue
        p0 = players[0]
        key = "hp" if "hp" in p0 else "sp" if "sp" in p0 else None
        if key is None:
            continue
        old = p0[key]
        p0[key] = old + 1
        try:
            res = run_scenario(sc)
        finally:
            p0[key] = old
        assert not res.passed, sc.name
        assert any("expect.players[0].%s: expected %d, got %d" % (key, old + 1, old) in f
                   for f in res.failures), res.failures
        checked += 1
    assert checked >= 10


# ---------------------------------------------------------------------- rules and rule errors
def _rules_game(tmp_path, rule, scenarios):
    game = tmp_path / "errgame"
    (game / "rules").mkdir(parents=True)
    (game / "scenarios").mkdir()
    (game / "game.yaml").write_text("profile: cfc\nid: 11111111-2222-3333-4444-555555555555\n"
                                    "name: Error game\nversion: '0.1.0'\n", encoding="utf-8")
    (game / "cards.yaml").write_text(textwrap.dedent("""\
        cards:
        - {id: boom, name: Boom, type: action, sp: 0, text: 'HP: my SP // their SP.'}
        - {id: pal, name: Pal, type: character, subtype: ninja, bp: 500, sp: 0, backup: [], text: ''}
        """), encoding="utf-8")
    (game / "rules" / "x.ini").write_text(rule, encoding="utf-8")
    (game / "scenarios" / "a.yaml").write_text(textwrap.dedent(scenarios), encoding="utf-8")
    return game


def test_rule_errors_are_expected_or_fail_the_scenario(tmp_path):
    game = _rules_game(tmp_path, "[boom]\naction = hp(me.sp // opp.sp)\n", """\
        - name: expected error
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
          expect:
            errors: [{code: RS505, card: boom}]
            players: [{hp: 3000, table: [boom]}]
        - name: unexpected error
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
        - name: counted errors of the wrong code
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
          expect: {errors: {count: 1, code: RS501}}
        - name: no error
          setup: {players: [{sp: 4, hand: [boom]}, {sp: 2}]}
          steps: [{action: boom}]
          expect: {players: [{hp: 3002}], ran: [boom]}
        """)
    res = {r.name: r for r in run_folder(game)}
    assert res["expected error"].passed, res["expected error"].failures
    assert res["no error"].passed, res["no error"].failures
    bad = res["unexpected error"]
    assert not bad.passed
    assert "expect.errors: expected 0 rule error(s), got [\"RS505 division by zero" in bad.failures[0]
    assert any("rule error RS505" in ln for ln in bad.log)
    wrong = res["counted errors of the wrong code"]
    assert not wrong.passed and "1 rule error(s) matching {code: 'RS501'}" in wrong.failures[0]


def test_expect_errors_entries_of_the_wrong_type_are_located(tmp_path):
    """Issue 13 (fuzz: a TypeError in _error_matches): an expect.errors entry whose code, message,
    card or count is not what it must be is a located format error, not a crash."""
    game = _rules_game(tmp_path, "[boom]\naction = hp(me.sp // opp.sp)\n", """\
        - name: wrong types
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
          expect:
            errors: [{code: 505, message: [division], card: [boom], count: two}]
        - name: a number for a message
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
          expect: {errors: {message: 5}}
        - name: a negative count
          setup: {players: [{sp: 4, hand: [boom]}]}
          steps: [{action: boom}]
          expect: {errors: -1}
        """)
    res = {r.name: r for r in run_folder(game)}
    assert all(not r.passed for r in res.values())
    wrong = "\n".join(res["wrong types"].failures)
    for where, message in [("a.yaml:5:21", "expect.errors.code must be a string, got"),
                           ("a.yaml:5:35", "expect.errors.message must be a string, got"),
                           ("a.yaml:5:53", "expect.errors.card must be a card id, got"),
                           ("a.yaml:5:68", "expect.errors.count must be an integer, got")]:
        assert where in wrong and message in wrong, wrong
    assert "a.yaml:9:" in res["a number for a message"].failures[0]
    assert "expect.errors.message must be a string" in res["a number for a message"].failures[0]
    assert "expect.errors must be a count from 0, got -1" in res["a negative count"].failures[0]


def test_expected_piles_and_skips_of_the_wrong_type_are_located():
    """tools/fuzz (scenarios target: TypeErrors in _counts and player): an expected pile's card list
    that is null and an expected skip that is not a list of phases are located format errors."""
    scs, diags = _parse("""\
        name: x
        expect:
          players:
            - hand: {set: null, contains: null}
              skip: true
            - deck: {top: 3}
              skip: [draw, nap]
        """)
    got = _codes(scs, diags)
    assert sorted(got) == [("SC105", 6, 19), ("SC105", 6, 35), ("SC105", 7, 13), ("SC105", 8, 19),
                           ("SC105", 9, 20)], got
    messages = " ".join(d.message for sc in scs for d in sc.diagnostics)
    assert "expect.players[0].hand.set must be a list of card ids, got null" in messages
    assert "expect.players[0].skip must be a list of phases" in messages
    assert "expect.players[1].skip[1]: unknown phase 'nap'" in messages
    res = _run("""\
        name: x
        expect: {players: [{hand: {set: null}, skip: true}]}
        """)
    assert not res[0].passed and "error[SC105]" in res[0].failures[0]


def test_rules_that_do_not_compile_fail_every_scenario_with_the_diagnostics(tmp_path):
    game = _rules_game(tmp_path, "[boom]\naction = hp(me.sp // \n", """\
        - name: any
          setup: {players: [{hand: [boom]}]}
        """)
    (r,) = run_folder(game)
    assert not r.passed and "the game's rules do not compile" in r.failures[0]
    assert "x.ini:2:" in r.failures[0]


def test_demo_scenarios_depend_on_the_card_rules():
    """Run without rules, every demo scenario (except declared baselines) must fail: they test
    the cards' rules, not the vanilla game."""
    checked = 0
    for case in collect_cases([DEMO]):
        sc = case.scenario
        if sc.pending is not None or str(sc.raw.get("description", "")).startswith("baseline"):
            continue
        sc.rules = False
        try:
            res = run_scenario(sc)
        finally:
            sc.rules = True
        assert not res.passed, "%s passes without card rules" % sc.name
        checked += 1
    assert checked >= 10


def test_table_setup_and_fire_step():
    (r,) = _run("""\
        name: an Action card left on the table from the Main phase is discarded at the Attack phase
        setup:
          turn: 3
          players:
            - table: [quick-jab]
              ring: [brick-fist]
        steps:
          - fire: {event: drawphase, player: 0}
          - pass: main
          - run_until: {phase: attack}
          - attack: brick-fist
        expect:
          players:
            - table: []
              discards: [quick-jab]
        """)
    assert r.passed, r.failures


def test_a_slot_that_is_not_free_is_refused_by_the_game():
    (r,) = _run("""\
        name: occupied slot
        setup:
          players:
            - hand: [ash-pup]
              ring: [brick-fist]
        steps:
          - play: {card: ash-pup, slot: 0}
        """)
    assert not r.passed
    assert r.failures[0].startswith("the game refused (during step 1 (play:")
    assert "InvalidDecision" in r.failures[0] and "choose_slot" in r.failures[0]


def test_player_answers_and_mapping_answers_are_checked():
    scs, diags = _parse("""\
        name: x
        decisions:
          - {player: 1}
          - {player: 3}
          - {colour: red}
          - {card: ash-pup, zone: ring, slot: 2}
          - {answer: [{card: "@1", player: 1}], kind: choose_targets, player: 0}
        """)
    got = _codes(scs, diags)
    assert got == [("SC105", 6, 14), ("SC105", 7, 5)], got


def test_a_decision_that_names_no_offered_card_is_reported():
    body = """\
        name: clean-sweep on a boss
        setup:
          players:
            - sp: 2
              hand: [clean-sweep]
            - ring: [rust-hound, ghost-kunoichi, hollow-emperor]
        steps:
          - action: clean-sweep
        decisions:
          - [{card: hollow-emperor}]
        """
    (r,) = run_text("game: %s\n%s" % (DEMO, textwrap.dedent(body)), "case.yaml", HERE)
    assert not r.passed
    msg = r.failures[0]
    assert msg.startswith("decisions[0] at case.yaml:11: no offered card matches "
                          "{'card': 'hollow-emperor'}; the game asks"), msg
    assert "choose_targets of player 0" in msg and "Rust Hound#" in msg and "Ghost Kunoichi#" in msg


def test_the_example_of_the_documentation_passes():
    doc = (HERE.parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    marker = "```yaml\n# cards/cfc-demo/scenarios/example.yaml\n"
    assert marker in doc
    example = doc.split(marker, 1)[1].split("```", 1)[0]
    (r,) = run_text("game: %s\n%s" % (DEMO, example), "example.yaml", HERE)
    assert r.passed, r.failures
