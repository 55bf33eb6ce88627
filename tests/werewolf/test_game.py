"""The werewolf game played by the engine: whole games, determinism, replays, decision points."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.cli import main as rs_main
from rulescript.runtime.errors import InvalidDecision
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.host import Recorder
from rulescript.sim.wolf import load_wolf_table, print_narrative, simulate

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


@pytest.mark.parametrize("players", [5, 15])
def test_random_games_end_by_a_win_condition_without_errors(table, players):
    res = simulate(table, players, 40, seed=7)
    assert res["errors"] == 0 and res["rule_errors"] == 0, res["error_samples"][:1]
    assert res["no_win"] == 0
    assert set(res["wins"]) <= {"villagers", "werewolves"} and sum(res["wins"].values()) == 40
    assert len(res["wins"]) == 2  # both teams win some games


def test_the_same_seed_and_decisions_give_the_same_game_and_a_replay_reproduces_it(table):
    g1, log1 = table.play(15, 11, RandomDecider(5))
    g2, log2 = table.play(15, 11, RandomDecider(5))
    assert g1.state == g2.state and log1 == log2
    assert table.replay(log1).state == g1.state
    g3, _ = table.play(15, 12, RandomDecider(5))
    assert g3.state != g1.state


def test_roles_are_dealt_face_down_from_the_role_list(table):
    game, _ = table.play(15, 3, RandomDecider(1))
    roles = sorted(game.role_of(p) for p in range(15))
    assert roles == sorted(table.roles_for(15))
    assert all(game.card(game.state["players"][p]["role"])["face"] == "down" for p in range(15))


class Recording(RandomDecider):
    def __init__(self, seed):
        super().__init__(seed)
        self.requests = []

    def decide(self, request):
        self.requests.append(request)
        return super().decide(request)


def test_decision_points_are_plain_data(table):
    d = Recording(4)
    game, log = table.play(15, 9, d)
    kinds = {(r["kind"], r["prompt"]) for r in d.requests}
    assert ("use_ability", "seer.divine") in kinds and ("vote", "lynch") in kinds
    assert ("vote", "pack-hunt") in kinds and ("use_ability", "bodyguard.guard") in kinds
    for r in d.requests:
        assert all(isinstance(o, int) for o in r["options"]), r
        if r["kind"] == "use_ability":
            assert r["cancel"] is True and r["player"] not in r["options"]  # never on oneself
        if r["prompt"] == "pack-hunt":
            wolves = [p for p in range(15) if game.role_of(p) == "werewolf"]
            assert r["player"] in wolves and not set(r["options"]) & set(wolves)


def test_a_bad_answer_is_refused(table):
    class Bad:
        def decide(self, request):
            return 99

    with pytest.raises(InvalidDecision):
        game, eng = table.new_game(table.roles_for(5), 1, Bad())
        game.run()


def test_play_auto_prints_a_night_day_narrative(capsys, tmp_path):
    log = tmp_path / "g.log"
    assert rs_main(["play", str(GAME), "--auto", "--seed", "1", "--players", "15", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "== Day 0 ==" in out and "== Night 1 ==" in out and "uses seer.divine on" in out
    assert "Poll Lynch opens in village-square" in out and "Game over: win condition of" in out
    assert rs_main(["play", str(GAME), "--replay", str(log)]) == 0
    assert capsys.readouterr().out == out


def test_simulate_reports_win_rates_per_team(capsys):
    assert rs_main(["simulate", str(GAME), "--players", "5", "--games", "30", "--seed", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "villagers" in out and "werewolves" in out and "engine errors: 0" in out


def test_an_unknown_player_count_is_a_usage_error(capsys):
    assert rs_main(["simulate", str(GAME), "--players", "7", "--games", "1"]) == 2
    assert "no role list for 7 players" in capsys.readouterr().err


def test_narrative_names_deaths_and_the_winner(table):
    rec = Recorder()
    game, _ = table.play(5, 2, RandomDecider(3), sink=rec)
    import io

    buf = io.StringIO()
    print_narrative(rec.records, game, buf)
    text = buf.getvalue()
    assert " dies (" in text and " win: " in text


def test_the_table_face_shows_every_card_once_with_the_names_of_the_cfc_table(table):
    from rulescript.games.cfc import table as cfc_table
    from rulescript.games.werewolf import table as T

    public = {"PILES", "COUNTERS", "MARKERS", "PHASES", "DECK_SECTIONS", "CARD_ACTIONS", "GAME_ACTIONS", "SLOTS", "view"}
    assert public <= set(dir(cfc_table))
    assert public <= set(dir(T))
    game, _ = table.play(15, 5, RandomDecider(2))
    v = T.view(game.state, table.data.models)
    assert set(v["cards"]) == set(game.state["cards"])
    for p in game.state["players"]:
        shown = v["cards"][p["role"]]
        assert shown["player"] == p["idx"] and shown["face_up"]  # the game is over: every role is shown
        assert ("ww-dead" in shown["markers"]) == (not p["alive"])
        assert shown["seen_by"] == []
    # while the game goes on, a living player's role is face down and only its owner looks at it
    game, _ = table.play(15, 5, RandomDecider(2))
    st = dict(game.state, over=False)
    v = T.view(st, table.data.models)
    for p in st["players"]:
        shown = v["cards"][p["role"]]
        assert shown["face_up"] == (not p["alive"])
        assert shown["seen_by"] == ([] if shown["face_up"] else [p["idx"]])
    for iid, shown in v["cards"].items():
        assert shown["model"] == game.state["cards"][iid]["model"]
        if shown["player"] < 0 or shown["pile"] is not None:
            assert shown["seen_by"] == []
    # a player's counter is their role's business: the table shows no counter
    assert v["counters"] == [{} for p in game.state["players"]] and T.COUNTERS == []


def test_interactive_play_shows_the_human_only_what_their_seat_may_see(table):
    import io

    from rulescript.sim.wolf import play_interactive

    out = io.StringIO()
    game = play_interactive(table, 5, 2, 0, io.StringIO("1\n" * 40), out)
    text = out.getvalue()
    assert game.state["over"] and "Game over: win condition of" in text
    mine = game.role_of(0)
    others = {game.role_of(p) for p in range(1, 5)} - {mine}
    assert f"Player 1 is dealt {table.data.models[mine]['name']}" in text
    assert not any(f"is dealt {table.data.models[r]['name']}" in text for r in others)
    if not game.is_member(0, "werewolf-pack"):  # the pack's business is private
        assert "joins Werewolf Pack" not in text and "Pack Hunt" not in text
    assert "[player 0] vote: lynch" in text
