"""Run-time effects of the werewolf game behind the last guide constructs: fake feedbacks drawn by chance,
hidden voting power and lynch starting votes, ~DelayedPhase, absences at another place, targets that are
not players.  The scenarios of cards/werewolf play them in whole games; these tests pin the rules down."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import load_wolf_table

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
ROLES = ["villager", "werewolf", "villager", "villager", "seer", "villager"]


class Records:
    def __init__(self):
        self.records = []

    def emit(self, rec):
        self.records.append(rec)


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


def _game(table, seed=0, roles=ROLES):
    sink = Records()
    game, _eng = table.new_game(list(roles), seed, RandomDecider(seed), sink, deal=False)
    assert game.run(stop_at=("day", 0)) is None  # dealt, before the first phase
    return game, sink


def _role_card(game, seat):
    return game.state["players"][seat]["role"]


def test_a_fake_feedback_is_drawn_by_chance_with_the_seeded_generator(table):
    def feedback(seed, weights):
        game, _ = _game(table, seed)
        game.add_obstruction(4, "investigating", ["Success", "Failure"], _role_card(game, 1), "persistent", weights)
        target, fb = game.use_on(_role_card(game, 4), 4, 1, "investigating", "attribute")
        assert target is None  # obstructed: the ability does not reach its target
        return fb

    drawn = [feedback(seed, [500, 500]) for seed in range(30)]
    assert drawn == [feedback(seed, [500, 500]) for seed in range(30)]  # a seed replays the draw
    assert set(drawn) == {"Success", "Failure"}
    assert {feedback(seed, [1000, 0]) for seed in range(10)} == {"Success"}
    # what the chances leave free gives the default feedback (None: the ability's result is Failure)
    assert None in {feedback(seed, [100, 100]) for seed in range(30)}


def test_hidden_voting_power_counts_in_the_tally_but_not_in_its_display(table):
    game, sink = _game(table)
    src = _role_card(game, 0)
    game.add_power(0, "hidden", "add", 1, src, "persistent")
    assert game.power_of(0) == 1 and game.power_of(0, hidden=True) == 2
    poll = {"poll": "lynch", "votes": {0: 2, 1: 3}, "where": "village-square", "creator": None, "open": True}
    shown = {}
    tally, _eligible, tied = game._poll_tally(poll, shown)
    assert tally == {2: 2, 3: 1} and shown == {2: 1, 3: 1} and tied == [2]
    game._close_poll(poll)
    close = [r for r in sink.records if r["type"] == "poll_close"][-1]
    assert close["winner"] == 2 and close["votes"] == [[2, 1], [3, 1]] and close["hidden"] == [[2, 1]]


def test_lynch_starting_votes_count_in_the_lynch_only(table):
    game, _ = _game(table)
    game.add_power(5, "lynchstart", "add", 2, _role_card(game, 0), "phase")
    lynch = {"poll": "lynch", "where": "village-square", "votes": {0: 2}}
    assert game._poll_tally(lynch)[0] == {5: 2, 2: 1}
    assert game._poll_tally({"poll": "pack-hunt", "where": "werewolf-pack", "votes": {1: 2}})[0] == {2: 1}


@pytest.mark.parametrize("effects, votes", [
    ([("add", 2), ("set", 1)], 1),    # oldest first: 0 + 2, then set to 1
    ([("set", 3), ("add", 2)], 5),    # set to 3, then 3 + 2
    ([("add", 2), ("add", -5)], 0),   # 2 - 5 = -3: no player starts a poll with fewer than 0 votes
])
def test_lynch_starting_votes_apply_their_manipulations_oldest_first(table, effects, votes):
    """WWRF ``Manipulate @P's `lynch starting votes` by N`` adds N, ``to N`` sets it; the
    manipulations apply in the order they were made (docs/werewolf.md, the manipulation table)."""
    game, _ = _game(table)
    for op, n in effects:
        game.add_power(5, "lynchstart", op, n, _role_card(game, 0), "phase")
    assert game.starting_votes(5, "lynch") == votes
    assert game.starting_votes(5, "pack-hunt") == 0


def test_a_delayed_phase_effect_comes_into_force_with_the_next_phase_and_ends_with_it(table):
    game, sink = _game(table)
    st = game.state
    game.add_obstruction(4, "all", None, _role_card(game, 0), "delayedphase")
    assert not [e for e in st["lasting"] if e["type"] == "obstruct"]  # not yet in force
    assert game.use_on(_role_card(game, 4), 4, 1, "investigating", "attribute")[0] == 1
    st["pindex"] += 1  # the next phase starts
    game._start_delayed()
    assert [e["ends_at"] for e in st["lasting"] if e["type"] == "obstruct"] == [st["pindex"]]
    assert game.use_on(_role_card(game, 4), 4, 1, "investigating", "attribute")[0] is None
    game._expire()  # the phase ends
    assert not [e for e in st["lasting"] if e["type"] == "obstruct"] and not st["delayed"]
    assert any(r["type"] == "delayed_start" for r in sink.records)


def test_an_absence_at_a_player_dodges_attacks_on_the_absent_and_is_not_recursive(table):
    game, _ = _game(table)
    src = _role_card(game, 4)
    game.add_defense(0, "attacks", "absence", src, "persistent", at=2)   # 0 is away at 2's home
    game.killing("attack", 0, _role_card(game, 1), 1)
    assert game.state["players"][0]["alive"]  # nobody was home
    game, _ = _game(table)
    game.add_defense(0, "attacks", "absence", src, "persistent", at=2)
    game.add_defense(3, "attacks", "absence", src, "persistent", at=0)   # 3 is away at 0's home
    game.killing("attack", 2, _role_card(game, 1), 1)
    assert not game.state["players"][2]["alive"] and not game.state["players"][0]["alive"]
    assert game.state["players"][3]["alive"]  # the attack at 0 through 0's absence does not go on to 3


def test_an_absence_at_a_group_is_hit_by_the_killings_made_there(table):
    game, _ = _game(table)
    game.add_defense(3, "attacks", "absence", _role_card(game, 4), "persistent", at="werewolf-pack")
    game.killing("attack", 2, _role_card(game, 1), 1)  # a player's own attack: not made at the pack's place
    assert game.state["players"][3]["alive"]
    pack = game.state["groups"]["werewolf-pack"]["card"]
    game.killing("attack", 5, pack, 1)  # the pack's hunt is made at the pack's place
    assert not game.state["players"][5]["alive"] and not game.state["players"][3]["alive"]


def test_an_action_may_select_values_that_are_not_players(table):
    game, sink = _game(table)
    assert "seer" in game.value_options(0, "role") and "lupine" in game.value_options(0, "attribute")
    assert "Investigative" in game.value_options(0, "category")
    assert "Townsfolk-Investigative" in game.value_options(0, "fullcategory")
    assert game.value_options(0, "boolean") == ["true", "false"]
    assert game.value_options(0, "option") == []
    game.create_choice(0, "side", ["Good", "Bad"], _role_card(game, 0))
    assert game.value_options(0, "option") == ["Good", "Bad"]
    game.set_target(_role_card(game, 0), "seer", "role")
    assert game.card(_role_card(game, 0))["target"] == "seer"
    assert sink.records[-1] == {"type": "target", "player": 0, "target": "seer", "kind": "role"}
