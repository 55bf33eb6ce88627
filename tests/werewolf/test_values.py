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
    with pytest.raises(GameError, match="not a player of the game"):
        new_game(table, {"host": {"Player1": 6}}).host_info("Player1")
    with pytest.raises(GameError, match="not a player of the game"):
        new_game(table, {"host": {"Player": True}}).host_info("Player")
    with pytest.raises(GameError, match="not a number"):
        new_game(table, {"host": {"Number": "many"}}).host_info("Number")
    with pytest.raises(GameError, match="not one of its options"):
        new_game(table, {"host": {"Yes|No": "Maybe"}}).host_info("%Yes|No%")
    with pytest.raises(GameError, match="not host information"):
        new_game(table).host_info("Banana")


def test_a_number_or_a_text_the_host_did_not_set_is_an_error_that_names_it(table):
    game = new_game(table, {"host": {"Number": 3}})
    with pytest.raises(GameError, match=r"the host did not set %String%: a string cannot be derived.*has number"):
        game.host_info("String")
    with pytest.raises(GameError, match=r"the host did not set %Number2%"):
        game.host_info("Number2")
    assert "host" not in game.state


def test_host_players_numbers_texts_and_options(table):
    game = new_game(table, {"host": {"Player 1": "Player 4", "PlayerTwo": "player 2", "Player3": 5,
                                     "Number": "2.5", "NumberTwo": "4", "String": 17, "Left|Right": "right"}})
    assert [game.host_info(n) for n in ("%Player1%", "playertwo", "Player3")] == [3, 1, 4]
    assert game.host_info("Number") == 2.5 and game.host_info("NumberTwo") == 4
    assert game.host_info("String") == "17"
    assert game.host_info("%Left | Right%") == "Right"          # the option as the rule writes it
    named, _eng = table.new_game(list(ROLES), 3, RandomDecider(1), deal=False, names=["Ann", "Bo", "Cy", "Di", "Ed"],
                                 settings={"host": {"Player": "cy"}})
    named.setup()
    assert named.host_info("Player") == 2                       # a player's name


def test_host_players_and_options_are_drawn_once_and_differ_while_they_can(table):
    game = new_game(table)
    players = [game.host_info("Player%d" % i) for i in range(1, 6)]
    assert sorted(players) == [0, 1, 2, 3, 4]                   # five names, five different players
    assert game.host_info("Player6") in players                 # then any player again
    assert [game.host_info("Player1") for _ in range(3)] == [players[0]] * 3
    assert game.host_info("Up|Down") in ("Up", "Down")
    assert game.state["host"]["up|down"] == game.host_info("%up|down%")


def test_host_information_from_a_list(table):
    game = new_game(table)
    assert game.host_info("Role", among=["werewolf", "possessed", "bodyguard"]) in ("werewolf", "possessed")
    assert game.host_info("Player", among=[1, 4]) in (1, 4)
    assert game.host_info("Role2", among=["bodyguard"]) == "bodyguard"   # none dealt: the list itself
    with pytest.raises(GameError, match="nothing to be drawn"):
        game.host_info("Player2", among=[])
    given = new_game(table, {"host": {"Player": 2, "Player2": 1, "Role": "Seer"}})
    assert given.host_info("Player", among=[1, 4]) == 1                  # Player 2 is seat 1
    with pytest.raises(GameError, match="not one of"):
        given.host_info("Player2", among=[1, 4])
    with pytest.raises(GameError, match="not one of"):
        given.host_info("Role", among=["werewolf"])


def test_host_values_in_rules(table):
    """host() gives a player as the player, and checks a list it is given (players by seat, roles by id)."""
    game = new_game(table, {"host": {"Player1": 2, "Role": "Werewolf"}})
    res = _Res(game)
    assert vocab._fn_host(res, ["Player1"], _fail) == Player(1)
    assert vocab._fn_host(res, ["Player1", [Player(1), Player(3)]], _fail) == Player(1)
    assert vocab._fn_host(res, ["Role", ["seer", "werewolf"]], _fail) == "werewolf"
    with pytest.raises(ValueError, match="RS506: the host information %Player1% is Player 2, who is not one of Player 4"):
        vocab._fn_host(res, ["Player1", [Player(3)]], _fail)
    with pytest.raises(ValueError, match="RS506: the host did not set %Number%"):
        vocab._fn_host(res, ["Number"], _fail)


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
    # the Werewolves team's element has the Lupine attribute (its Role Attribute)
    assert vocab._fn_teams(res, ["attr=lupine"], _fail) == ["werewolves"]
    assert vocab._fn_teams(res, ["attr!=lupine"], _fail) == ["travellers", "villagers"]
    assert vocab._fn_teams(res, ["align=villagers, attr!=lupine"], _fail) == ["villagers"]
    assert vocab._fn_teams(res, ["align!=werewolves, attr=lupine"], _fail) == []
    assert vocab._fn_roleinfo(res, ["werewolf", "team"], _fail) == "werewolves"
    assert vocab._fn_roleinfo(res, [["seer", "werewolf"], "category"], _fail) == ["Investigative", "Killing"]
    assert vocab._fn_roleinfo(res, ["villager", "players"], _fail) == [Player(2), Player(3)]
    assert vocab._fn_playerbyid(res, [5], _fail) == Player(4)
    assert vocab._fn_playerbyid(res, [42], _fail) is None
