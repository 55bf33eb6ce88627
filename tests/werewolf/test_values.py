"""Run-time values of the werewolf game that WWRF values render to: host information, private and
public voting power, and the role and team lists (docs/werewolf.md, "Selectors and values")."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.runtime.errors import GameError
from rulescript.runtime.resolution import Player
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import load_wolf_table
from rulescript.games.werewolf import vocab

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
ROLES = ["seer", "werewolf", "villager", "villager", "possessed"]


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


def new_game(table, settings=None, seed=3):
    game, _eng = table.new_game(list(ROLES), seed, RandomDecider(1), deal=False, settings=settings)
    game.setup()
    return game


def test_host_information_comes_from_the_settings(table):
    game = new_game(table, {"host": {"%Role%": "Bodyguard", "PartialRoleList": "a few wolves"}})
    assert game.host_info("Role") == "bodyguard"
    assert game.host_info("%PartialRoleList%") == "a few wolves"
    assert "host" not in game.state   # nothing was derived


def test_host_information_the_host_did_not_set_is_derived_from_the_dealt_roles_and_kept(table):
    game = new_game(table)
    assert game.host_info("partialrolelist") == ("1 Townsfolk Investigative, 2 Townsfolk Miscellaneous, "
                                                 "1 Werewolf Killing, 1 Werewolf Miscellaneous")
    first = game.host_info("role")
    assert first in ROLES
    assert [game.host_info("role") for _ in range(3)] == [first] * 3       # drawn once, then kept
    second = game.host_info("role2")
    assert second in ROLES and second != first                          # another role of the list
    assert game.state["host"] == {"partialrolelist": game.host_info("partialrolelist"), "role": first,
                                  "role2": second}


def test_host_information_that_is_wrong_or_unknown_is_an_error(table):
    with pytest.raises(GameError, match="not a role"):
        new_game(table, {"host": {"Role": "Dragon"}}).host_info("role")
    with pytest.raises(GameError, match="no host information"):
        new_game(table).host_info("number")


def test_private_voting_power_weighs_in_group_polls_and_public_in_the_square(table):
    game = new_game(table)
    game.add_power(1, "private", "add", 2, None, "persistent")
    game.add_power(2, "public", "set", 0, None, "persistent")
    assert (game.power_of(1, "private"), game.power_of(1)) == (3, 1)
    assert (game.power_of(2, "private"), game.power_of(2)) == (1, 0)
    votes = {1: 3, 2: 4, 4: 4}
    hunt = {"poll": "pack-hunt", "where": "werewolf-pack", "votes": votes}
    lynch = {"poll": "lynch", "where": "village-square", "votes": votes}
    assert game._poll_tally(hunt)[0] == {3: 3, 4: 2}
    assert game._poll_tally(lynch)[0] == {3: 1, 4: 1}


class _Res(object):
    def __init__(self, game):
        self.game = game
        self.event = None


def _fail(code, message, values=None):
    return ValueError(code + ": " + message)


def test_role_lists_team_sets_and_role_properties(table):
    game = new_game(table)
    res = _Res(game)
    roles = vocab._fn_roles(res, [""], _fail)
    assert roles == sorted(m for m in game.models if game.models[m]["type"] == "role") and "seer" in roles
    killing = vocab._fn_roles(res, ["category=killing"], _fail)
    assert "werewolf" in killing and "seer" not in killing
    assert all(game.models[r]["category"] != "Killing" for r in vocab._fn_roles(res, ["category!=killing"], _fail))
    assert vocab._fn_teams(res, [""], _fail) == sorted(game.state["teams"])
    assert vocab._fn_teams(res, ["align=villagers"], _fail) == ["villagers"]
    assert "villagers" not in vocab._fn_teams(res, ["align!=villagers"], _fail)
    assert vocab._fn_roleinfo(res, ["werewolf", "team"], _fail) == "werewolves"
    assert vocab._fn_roleinfo(res, [["seer", "werewolf"], "category"], _fail) == ["Investigative", "Killing"]
    assert vocab._fn_roleinfo(res, ["villager", "players"], _fail) == [Player(2), Player(3)]
    assert vocab._fn_playerbyid(res, [5], _fail) == Player(4)
    assert vocab._fn_playerbyid(res, [42], _fail) is None
