"""Werewolf rules that a one-line change used to break without a failing test (issue 22's mutation
test): protections limited to some attackers, poll tallies (0 votes, negative voting power, the
hammer at more than half), vote changes, winners and resurrection.  Each test runs the real game of
cards/werewolf (its compiled roles: the Town Crier announces a hammer, the Canvasser learns of moved
votes) and checks values worked out by hand from docs/werewolf.md and the WWRF guide."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulescript.games.werewolf.game import WerewolfGame
from rulescript.runtime.errors import GameOver
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import load_wolf_table

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
ROLES = ["villager", "werewolf", "villager", "villager", "seer", "town-crier"]
HAMMER = "The square falls silent: the vote is decided."


class Records:
    def __init__(self):
        self.records = []

    def emit(self, rec):
        self.records.append(rec)

    def of(self, kind):
        return [r for r in self.records if r["type"] == kind]


class Voters:
    """Each voter votes as ``votes`` says; on ``change_vote`` answers from ``changes`` (default: keep).
    ``requests``: every request asked."""

    def __init__(self, votes, changes=None):
        self.votes, self.changes = votes, changes or {}
        self.requests = []

    def decide(self, req):
        self.requests.append(req)
        if req["kind"] == "vote":
            return self.votes[req["player"]]
        if req["kind"] == "change_vote":
            return self.changes.get(req["player"], req["options"][0])
        raise AssertionError("unexpected decision %r" % (req,))


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


def _game(table, roles=ROLES, decider=None):
    sink = Records()
    game, _eng = table.new_game(list(roles), 0, decider or RandomDecider(0), sink, deal=False)
    assert game.run(stop_at=("day", 0)) is None  # dealt, before the first phase
    sink.records[:] = []
    return game, sink


def _role(game, seat):
    return game.state["players"][seat]["role"]


def _lynch(votes):
    return {"poll": "lynch", "votes": dict(votes), "where": "village-square", "creator": None, "open": True}


# ---------------------------------------------------------------------------- protections

def test_a_protection_from_one_attacker_does_not_stop_another():
    """WWRF ``Protect P from Attacks by S``: only killings by S are stopped."""
    t = load_wolf_table(GAME)
    game, sink = _game(t)
    game.add_defense(0, "attacks", "active", _role(game, 4), "persistent", by=[1])
    assert game.killing("attack", 0, _role(game, 3), 3) is True     # attacked by 3: not protected
    assert game.state["players"][0]["alive"] is False and not sink.of("defended")
    game, sink = _game(t)
    game.add_defense(0, "attacks", "active", _role(game, 4), "persistent", by=[1])
    assert game.killing("attack", 0, _role(game, 1), 1) is False    # attacked by 1: stopped
    assert game.state["players"][0]["alive"] is True and len(sink.of("defended")) == 1


# ---------------------------------------------------------------------------- polls

def test_a_player_with_no_counted_vote_does_not_win_a_poll(table):
    """The only voter has voting power 0: the tally is {2: 0}, nobody has a vote, the poll is skipped."""
    game, sink = _game(table)
    game.add_power(0, "public", "set", 0, _role(game, 4), "persistent")
    assert game.power_of(0) == 0
    game._close_poll(_lynch({0: 2}))
    assert [r["winner"] for r in sink.of("poll_close")] == [None]


def test_negative_voting_power_counts_as_zero(table):
    """1 - 3 = -2 is floored at 0: player 0's vote for 2 adds nothing; 3 has 3's and 4's votes.
    The tally display shows 2: 1 (from 1) and 3: 2."""
    game, sink = _game(table)
    game.add_power(0, "public", "add", -3, _role(game, 4), "persistent")
    assert game.power_of(0) == 0
    game._close_poll(_lynch({0: 2, 1: 2, 3: 3, 4: 3}))
    close = sink.of("poll_close")[-1]
    assert close["winner"] == 3 and close["votes"] == [[2, 1], [3, 2]]


@pytest.mark.parametrize("votes, hammer", [
    ({0: 2, 1: 3, 3: 4}, False),       # 2 has 2 of 4 votes: exactly half, no hammer
    ({0: 2, 1: 3}, True),              # 2 has 2 of 3 votes: more than half
])
def test_the_hammer_falls_on_more_than_half_of_the_votes(table, votes, hammer):
    """~hammer~ fires when the winner has more than half of the votes (the Town Crier announces it).
    Player 0 has voting power 2, the others 1."""
    game, sink = _game(table)
    game.add_power(0, "public", "set", 2, _role(game, 4), "persistent")
    game._close_poll(_lynch(votes))
    assert sink.of("poll_close")[-1]["winner"] == 2
    assert any(HAMMER in str(r.get("text")) for r in sink.of("announce")) is hammer


@pytest.mark.parametrize("change, moved", [(None, False), (3, True)])
def test_only_a_changed_vote_is_a_vote_change(table, change, moved):
    """Everyone votes for 2 and is asked to reconsider: keeping a vote is no vote change (the Canvasser,
    seat 5, learns of moved votes only); player 0 moving to 3 is one."""
    roles = ROLES[:5] + ["canvasser"]
    votes = {seat: 2 for seat in range(6) if seat != 2}
    votes[2] = 3
    game, sink = _game(table, roles, Voters(votes, {0: change} if change is not None else {}))
    game.create_poll("lynch", "village-square", None)
    game.run_polls()
    revotes = [(r["player"], r["old"], r["target"]) for r in sink.of("revote")]
    learned = [r for r in sink.records if "moved a vote" in str(r.get("text"))]
    if moved:
        assert revotes == [(0, 2, 3)] and len(learned) == 1
    else:
        assert revotes == [] and learned == []


# ---------------------------------------------------------------------------- the end, and coming back

def test_players_who_descended_or_left_are_not_among_the_winners(table):
    """docs/werewolf.md, Win: the team's players win; WWRF Descend takes a player out of the game as a
    loser.  Villagers' team: seats 0, 2, 3, 4, 5; 2 descended and 3 left: 0, 4, 5 win."""
    game, _ = _game(table)
    st = game.state
    assert game.leave_game(2, "descended") and game.leave_game(3, "left")
    team = [iid for iid, c in st["cards"].items() if c["kind"] == "team" and c["model"] == "villagers"]
    with pytest.raises(GameOver):
        game.team_wins(team[0])
    assert st["winners"] == [0, 4, 5]


def test_a_player_who_left_the_game_cannot_be_resurrected(table):
    game, _ = _game(table)
    st = game.state
    assert game.leave_game(2, "left")
    assert game.resurrect(2) is False and st["players"][2]["alive"] is False
    game.die(3, "kill")                          # a dead player can
    assert game.resurrect(3) is True and st["players"][3]["alive"] is True


def test_a_player_the_host_names_as_player_n_or_by_name(table):
    """Host information %PlayerN% set by the host: "Player 3", "3" or a player's name; seats count from
    0, so Player 3 is seat 2."""
    host = {"Player1": "Player 3", "Player2": "5", "Player3": "Erin", "Player4": "player 1"}
    game, _ = _game(table)
    game.state["settings"] = {"host": host}
    for p, name in zip(game.state["players"], ["Ann", "Ben", "Cid", "Erin", "Eve", "Fay"]):
        p["name"] = name                     # names that are not "Player N"
    assert [game.host_info("Player%d" % i) for i in (1, 2, 3, 4)] == [2, 4, 3, 0]


# ---------------------------------------------------------------------------- targets that are not players

def _with_prophet_rule(tmp_path, rule):
    """The werewolf game with one more rule on the Prophet's role (``rule``: the text after ``auto = ``)."""
    return _with_prophet_section(tmp_path, "auto = %s\n" % rule)


def _with_prophet_section(tmp_path, keys):
    """The werewolf game with one more rule on the Prophet's role, section ``prophet--extra`` (``keys``:
    its lines)."""
    game_dir = tmp_path / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "prophet.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "\n[prophet--extra]\n" + keys, encoding="utf-8")
    cards = game_dir / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert text.count("  - prophet--2\n") == 1
    cards.write_text(text.replace("  - prophet--2\n", "  - prophet--2\n  - prophet--extra\n"), encoding="utf-8")
    return load_wolf_table(game_dir)


def test_targeting_a_role_succeeds_so_what_follows_and_and_runs(tmp_path):
    """docs/werewolf.md: ``Target V (Role)`` is ``setTarget(role, V)``: the target is that value, with no
    visit.  docs/language.md 5.6: ``a && b`` runs b only if a succeeded, ``a || b`` only if a failed.
    A Prophet who names the werewolf role when the game starts has it as target and learns the first
    text, not the second."""
    table = _with_prophet_rule(tmp_path,
                               "~starting~ setTarget(role, 'werewolf') && learn('named') || learn('not named')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    prophet = game.state["players"][2]
    assert game.card(prophet["role"])["target"] == "werewolf"
    assert prophet["learned"] == ["named"]


@pytest.mark.parametrize("dead, alive", [(0, 3), (3, 0)])
def test_descending_several_players_succeeds_if_one_of_them_descends(tmp_path, dead, alive):
    """docs/werewolf.md: ``Descend`` is ``descend()``, for each of its target players; a player who is
    dead cannot descend.  docs/language.md 5.6: the command succeeded when it did something, so
    ``&&`` runs.  Villagers at seats 0 and 3; one of them dies, and on that death the Prophet (seat 2)
    makes both villagers descend: the living one does, the dead one does not (whichever comes last
    among the targets), and the command succeeded."""
    table = _with_prophet_rule(tmp_path, "~death~ descend() to(players::where('role=villager')) "
                                         "&& learn('descended') || learn('nobody descended')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.die(dead, "kill")
    st = game.state
    assert st["players"][alive]["left"] == "descended" and not st["players"][dead]["left"]
    assert st["players"][2]["learned"] == ["descended"]


def test_the_attack_location_is_the_group_of_a_pack_killing_else_the_attacker(tmp_path):
    """docs/werewolf.md: ``@AttackLocation`` is ``attacklocation``: the group whose element made the
    killing (the pack's hunt: ``werewolf-pack``), else the attacking player.  A killing by the werewolf's
    role (seat 1, "Player 2": seats count from 0) is located at that player; one by the pack's group
    at the group."""
    table = _with_prophet_rule(tmp_path, "~death~ learn(str(attacklocation))")
    roles = ["villager", "werewolf", "prophet", "villager", "seer", "villager"]
    game, _sink = _game(table, roles)
    assert game.killing("attack", 0, _role(game, 1), 1) is True
    pack = [iid for iid, c in game.state["cards"].items() if c["kind"] == "group" and c["model"] == "werewolf-pack"]
    assert game.killing("attack", 3, pack[0], 1) is True
    assert game.state["players"][2]["learned"] == ["Player 2", "werewolf-pack"]


def test_odd_and_even_scaling_follows_the_phase_number(tmp_path):
    """WWRF Phase Specific Scaling ``Odd: x1, Even: x2`` (docs/werewolf.md: ``scaling = odd x1, even
    x2``): the rule runs once in an odd phase, twice in an even one.  The game starts on day 0 (even:
    twice), then night 1 (odd: once), then day 1 (odd: once)."""
    table = _with_prophet_rule(tmp_path, "~startday~ learn('day ' + str(day))\nscaling = odd x1, even x2")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    learned = game.state["players"][2]["learned"]
    game.play_phase("day")
    assert learned == ["day 0", "day 0"]
    game.play_phase("night")
    game.play_phase("day")
    assert learned[-1:] == ["day 1"] and learned.count("day 1") == 1


def test_night_one_is_an_odd_phase(tmp_path):
    """As above for a night: night 1 is odd (the first night, and the second phase after day 0 counted
    from 0), so ``odd x1, even x2`` runs once."""
    table = _with_prophet_rule(tmp_path, "~startnight~ learn('night')\nscaling = odd x1, even x2")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    game.play_phase("day")
    game.play_phase("night")
    assert game.state["players"][2]["learned"].count("night") == 1


def test_the_rules_of_a_dead_player_at_seat_0_hear_only_their_own_death(tmp_path):
    """docs/werewolf.md (Status): without `status`, a dead owner's rules run only for their own death.  The
    Prophet at seat 0 ("Player 1") learns of every death: its own, then not that of seat 3."""
    table = _with_prophet_rule(tmp_path, "~death~ learn(str(subject))")
    game, _sink = _game(table, ["prophet", "werewolf", "villager", "villager", "seer", "villager"])
    game.die(0, "kill")
    game.die(3, "kill")
    assert game.state["players"][0]["learned"] == ["Player 1"]


# ---------------------------------------------------------------------------- groups, teams, the flow

def test_a_player_in_both_groups_of_a_group_change_is_a_member_once(table):
    """WWRF ``Group Change #A to #B`` (``groupChange('a', 'b')``): A's members join B.  The werewolf
    (seat 1) is in the pack from the deal; seats 0 and 1 are made Lovers; the Lovers change to the pack:
    the pack is seats 1 and 0, each once, so ``Remove P from #Pack`` (``leave``) takes the werewolf
    out of it for good and the pack's channel is seat 0's alone."""
    game, sink = _game(table)
    st = game.state
    assert st["groups"]["werewolf-pack"]["members"] == [1]
    game.join_group(0, "lovers", _role(game, 4), "persistent")
    game.join_group(1, "lovers", _role(game, 4), "persistent")
    assert game.group_change("lovers", "werewolf-pack") is True
    assert "lovers" not in st["groups"] and sorted(st["groups"]["werewolf-pack"]["members"]) == [0, 1]
    assert game.leave_group(1, "werewolf-pack") is True
    assert st["groups"]["werewolf-pack"]["members"] == [0]
    game.reveal("werewolf-pack", "the moon is full", _role(game, 4), None)
    assert sink.of("reveal")[-1]["to"] == [0]
    assert "the moon is full" not in st["players"][1]["learned"]


def test_an_alignment_change_succeeds_so_what_follows_and_and_runs(tmp_path):
    """docs/werewolf.md: ``Alignment Change P to T`` is ``alignmentChange('t') to(P)``; docs/language.md
    5.6: ``a && b`` runs b only if a succeeded, ``a || b`` only if a failed.  The Prophet (a villager)
    joins the werewolves when the game starts: that is a change, so it learns 'joined'; a second change
    to the team it is already on changes nothing and fails, so it learns 'already there'."""
    table = _with_prophet_rule(tmp_path, "~starting~ alignmentChange('werewolves') to(me) && learn('joined') "
                                         "; alignmentChange('werewolves') to(me) || learn('already there')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    prophet = game.state["players"][2]
    assert prophet["team"] == "werewolves"
    assert prophet["learned"] == ["joined", "already there"]


def test_the_game_starts_with_the_players_names_before_the_deal(table):
    """The record of a game starts with its setup: the players' names in seat order (the narrative's
    "A game of werewolf with 5 players: ..."), then one deal per seat."""
    sink = Records()
    names = ["Ann", "Ben", "Cid", "Dee", "Eve"]
    game, _eng = table.new_game(ROLES[:5], 0, RandomDecider(0), sink, deal=False, names=names)
    assert game.run(stop_at=("day", 0)) is None
    assert sink.records[0] == {"type": "setup", "players": names}
    assert [(r["player"], r["role"]) for r in sink.records[1:6]] == list(enumerate(ROLES[:5]))


def test_a_game_without_card_rules_plays_its_phases_to_the_day_limit(table):
    """A game whose cards have no rules (the rules port ``NoRules``, as a host without compiled rules
    makes it): nothing is offered, nobody dies, and with a day limit of 2 the game plays day 0, night 1,
    day 1, night 2 and day 2 and ends in a draw."""
    sink = Records()
    game = WerewolfGame(table.data.models, ROLES[:4], RandomDecider(0), sink=sink, seed=3, day_limit=2)
    result = game.run()
    assert result["result"] == "draw" and result["winners"] == [] and result["days"] == 2
    assert [(r["phase"], r["number"]) for r in sink.of("phase")] == [
        ("day", 0), ("night", 1), ("day", 1), ("night", 2), ("day", 2)]
    assert sink.of("death") == [] and all(p["alive"] for p in game.state["players"])


# ---------------------------------------------------------------------------- commands and durations

def test_a_for_each_succeeds_so_what_follows_and_and_runs(tmp_path):
    """docs/werewolf.md: ``For Each S: …`` is ``each(S => chain)``, the chain once per element (``ind``);
    docs/language.md 5.6: a command fails only when it says it can, and ``a && b`` runs b when a
    succeeded.  The Prophet (seat 2) learns the name of each of the five living players (in the
    filter's order), then 'done'."""
    table = _with_prophet_rule(tmp_path, "~starting~ each(players[alive] => learn(str(ind))) && learn('done')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    learned = game.state["players"][2]["learned"]
    assert sorted(learned[:-1]) == ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5"]
    assert learned[-1:] == ["done"]


def test_formatting_one_value_puts_it_once_in_the_template(tmp_path):
    """docs/werewolf.md: ``Format S as `* $` `` is ``format(S, '* $')``, the template once per element of
    S (``$`` the element), its result the text.  One player is one element: the Prophet (seat 2,
    "Player 3") formatting itself learns ``* Player 3``; a list of two gives two lines."""
    table = _with_prophet_rule(tmp_path, "~starting~ format(me, '* $') ; learn(str(result))"
                                         " ; format(getTargets('players::where(\"role=werewolf\"); me'), '* $')"
                                         " ; learn(str(result))")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    assert game.state["players"][2]["learned"] == ["* Player 3", "* Player 2\n* Player 3"]


def test_an_effect_until_the_next_day_laid_at_night_ends_with_the_following_day(tmp_path):
    """docs/werewolf.md (Durations): ``~NextDay`` ends with the next day.  Laid when night 1 starts,
    the Prophet's extra vote (voting power 1 + 1 = 2) holds through night 1 and day 1 and is gone when
    day 1 ends (power 1 again, before night 2 lays it anew)."""
    table = _with_prophet_rule(tmp_path, "~startnight~ votingPower(public, add, 1) to(me) nextday")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    game.play_phase("day")
    assert game.power_of(2) == 1
    game.play_phase("night")
    assert game.power_of(2) == 2
    game.play_phase("day")
    assert game.power_of(2) == 1


def test_a_command_the_profile_declares_but_the_game_lacks_is_a_located_run_time_error(tmp_path):
    """A game's ``profile:`` may be a YAML file in its folder (docs/game-format.md): the compiler accepts the
    commands it declares, and a command the werewolf game does not have is, when it runs, the run-time
    error RS510 at the command (a ``rule_error`` record), not an engine crash.  The Prophet's extra rule
    ``~starting~ ring('bell')`` is the last line of prophet.ini; ``ring`` starts at column 19."""
    game_dir = tmp_path / "werewolf"
    shutil.copytree(GAME, game_dir)
    profile = (Path(__file__).resolve().parents[2] / "rulescript" / "games" / "werewolf" / "profile.yaml").read_text(
        encoding="utf-8")
    ring = "  ring:\n    params: [{kind: text}]\n    default: none\n    doc: \"Rings a bell.\"\n"
    assert profile.count("  learn:\n") == 1
    (game_dir / "village.yaml").write_text(profile.replace("  learn:\n", ring + "  learn:\n"), encoding="utf-8")
    manifest = game_dir / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("profile: werewolf\n", "profile: village.yaml\n"),
                        encoding="utf-8")
    ini = game_dir / "rules" / "prophet.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "\n[prophet--extra]\nauto = ~starting~ ring('bell')\n",
                   encoding="utf-8")
    line = len(ini.read_text(encoding="utf-8").splitlines())
    cards = game_dir / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("  - prophet--2\n", "  - prophet--2\n  - prophet--extra\n"),
                     encoding="utf-8")
    sink = Records()
    game, _eng = load_wolf_table(game_dir).new_game(["villager", "werewolf", "prophet", "villager", "seer"], 0,
                                                    RandomDecider(0), sink, deal=False)
    assert game.run(stop_at=("day", 0)) is None
    errors = [r["error"] for r in sink.of("rule_error")]
    assert [(e["code"], e["message"], e["file"], e["line"], e["col"]) for e in errors] == [
        ("RS510", "the werewolf game has no command 'ring'", "rules/prophet.ini", line, 19)]


def test_the_host_commands_list_the_living_the_dead_every_player_and_the_roles(tmp_path):
    """docs/werewolf.md: ``Execute `ListAlive` to #L`` is ``execute(listalive, 'l')``, its result the
    host's answer (a list, also revealed in the location); the profile's commands are listalive,
    listdead, listplayers and listroles (and substitutes and mentors, which a headless game has none
    of).  Seat 3 ("Player 4") dies; on that death the Prophet (seat 2) asks for each list: the
    living are players 1, 2, 3 and 5, the dead player 4, the players all five, the roles in play (by
    name, each once, sorted) Prophet, Seer, Villager, Werewolf."""
    asks = " ; ".join("execute(%s, 'village-square') ; learn(str(result))" % c
                      for c in ("listalive", "listdead", "listplayers", "listroles"))
    table = _with_prophet_rule(tmp_path, "~death~ " + asks)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.die(3, "kill")
    assert game.state["players"][2]["learned"] == [
        "Player 1, Player 2, Player 3, Player 5", "Player 4", "Player 1, Player 2, Player 3, Player 4, Player 5",
        "Prophet, Seer, Villager, Werewolf"]


def test_a_vote_asks_each_voter_for_one_player_or_none(table):
    """docs/werewolf.md (Decisions): ``vote`` -- each voter of an open poll, in seat order; options the
    seats that may be voted for; the answer one seat, None abstaining.  docs/runtime.md: the request
    says so with ``min`` 1, ``max`` 1 and ``cancel`` true.  Everyone votes for seat 2 (seat 2 for 3)."""
    votes = {seat: 2 for seat in range(6) if seat != 2}
    votes[2] = 3
    decider = Voters(votes)
    game, _sink = _game(table, ROLES, decider)
    game.create_poll("lynch", "village-square", None)
    game.run_polls()
    asked = [r for r in decider.requests if r["kind"] == "vote"]
    assert [r["player"] for r in asked] == [0, 1, 2, 3, 4, 5]
    assert {(r["min"], r["max"], r["cancel"], r["prompt"]) for r in asked} == {(1, 1, True, "lynch")}


class Pairing:
    """Answers the Prophet's pairing action: ``first`` for its first selection, ``second`` for the
    second (``prophet.pair#2``)."""

    def __init__(self, first, second):
        self.first, self.second, self.asked = first, second, []

    def decide(self, req):
        assert req["kind"] == "use_ability" and req["prompt"].startswith("prophet.pair"), req
        self.asked.append((req["prompt"], req["cancel"]))
        return self.second if req["prompt"].endswith("#2") else self.first


@pytest.mark.parametrize("second, used", [(3, True), (None, False)])
def test_declining_the_second_selection_declines_the_action(tmp_path, second, used):
    """docs/werewolf.md (Decisions): an action with a second selection asks a second ``use_ability``
    whose prompt ends in ``#2``; None declines (``cancel`` is true when the action is not
    {Forced}).  The Prophet's pairing picks seat 0, then seat 3 ("Player 1 and Player 4", used) or
    nobody: then the action is not used (no ``use`` record, nothing learned)."""
    table = _with_prophet_section(tmp_path, "timing = immediate night\nprompt = prophet.pair\nsecondary = player\n"
                                            "target = <2>player[alive]\n"
                                            "action = learn(str(selection) + ' and ' + str(secondary))\n")
    decider = Pairing(0, second)
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"], decider)
    assert game.use_action(2, _role(game, 2), "prophet--extra", "immediate night") is used
    assert decider.asked == [("prophet.pair", True), ("prophet.pair#2", True)]
    assert [r["ability"] for r in sink.of("use")] == (["prophet--extra"] if used else [])
    assert game.state["players"][2]["learned"] == (["Player 1 and Player 4"] if used else [])


# ---------------------------------------------------------------------------- succession

class _Judge:
    """Plays the Judge (seat 0): silences seat 1 on the days listed, declines every other ability;
    nobody votes. ``offered``: the days judge.silence was offered."""

    def __init__(self, silence_on):
        self.silence_on, self.offered, self.game = silence_on, [], None

    def decide(self, req):
        if req["kind"] == "use_ability":
            if req["player"] == 0 and req["prompt"] == "judge.silence":
                day = self.game.state["day"]
                self.offered.append(day)
                if day in self.silence_on:
                    return 1
            return None
        if req["kind"] == "vote":
            return None
        raise AssertionError("unexpected decision %r" % (req,))


@pytest.mark.parametrize("silence_on, offered", [
    ((2,), [2, 4]),        # used on day 2: not on day 3 ("never two days in a row"), again on day 4
    ((), [2, 3, 4]),       # never used: offered every day from day 2 (Temporal: Day 2+)
    ((2, 4), [2, 4]),      # used on days 2 and 4: the days between and after are skipped
])
def test_an_ability_without_succession_skips_the_day_after_its_use(table, silence_on, offered):
    """WWRF ``Succession: No Succession`` (the Judge's silence, cards/werewolf/roles/judge): an ability
    used in a phase may not be used in the next phase of the same kind; the one after that it may."""
    judge = _Judge(silence_on)
    game, sink = _game(table, ["judge", "werewolf", "villager", "villager", "villager", "villager"], judge)
    judge.game = game
    game.run(stop_at=("night", 5))
    assert judge.offered == offered
    assert all(p["alive"] for p in game.state["players"])  # nobody voted, nobody hunted


# ---------------------------------------------------------------------------- loyalty, host information, host commands

@pytest.mark.parametrize("team", ["werewolves", "villagers"])
def test_a_loyal_player_resists_an_alignment_change_so_the_command_fails(tmp_path, team):
    """docs/werewolf.md (Role changes): loyalty to a team refuses a change away from it;
    docs/language.md 5.6: a command that did nothing failed, so ``a || b`` runs b.  The Prophet (a
    villager, seat 2) swears loyalty to the villagers, then is changed to the werewolves: refused, it
    stays a villager and learns 'stayed loyal'.  A change to the team it already
    has changes nothing: it fails too."""
    table = _with_prophet_rule(tmp_path, "~starting~ loyalty(alignment, 'villagers') to(me) ; "
                                         "alignmentChange('%s') to(me) || learn('stayed loyal')" % team)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    prophet = game.state["players"][2]
    assert prophet["team"] == "villagers" and prophet["learned"] == ["stayed loyal"]


@pytest.mark.parametrize("role, changed", [("werewolf", False), ("seer", True)])
def test_a_loyal_player_keeps_a_role_of_another_team_but_takes_one_of_its_own(tmp_path, role, changed):
    """As above for ``Role Change``: a role of another team would move the loyal Prophet off the
    villagers, so it is refused (the Prophet keeps its role and learns 'refused'); the Seer's role is a
    villagers' role, so the change is made (and the command succeeded: nothing learned)."""
    table = _with_prophet_rule(tmp_path, "~starting~ loyalty(alignment, 'villagers') to(me) ; "
                                         "roleChange('%s') to(me) || learn('refused')" % role)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    prophet = game.state["players"][2]
    assert game.card(prophet["role"])["model"] == (role if changed else "prophet")
    assert prophet["team"] == "villagers"
    assert prophet["learned"] == ([] if changed else ["refused"])


def test_a_role_without_a_class_is_counted_by_its_category_in_the_partial_role_list(tmp_path):
    """docs/werewolf.md (Host information): ``%PartialRoleList%`` the host did not set is the dealt roles
    counted by class and category, sorted.  A role without a class (WWRF's header may leave it out; here
    the Villager's ``class:`` is taken out of cards.yaml) is counted by its category alone and sorts
    first.  Dealt: 3 Villagers (Miscellaneous), the Werewolf (Werewolf Killing), the Seer (Townsfolk
    Investigative), the Town Crier (Townsfolk Miscellaneous)."""
    game_dir = tmp_path / "werewolf"
    shutil.copytree(GAME, game_dir)
    cards = game_dir / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    villager = "- id: villager\n  name: Villager\n  type: role\n  class: Townsfolk\n"
    assert text.count(villager) == 1
    cards.write_text(text.replace(villager, "- id: villager\n  name: Villager\n  type: role\n"), encoding="utf-8")
    game, _sink = _game(load_wolf_table(game_dir))
    assert game.host_info("PartialRoleList") == (
        "3 Miscellaneous, 1 Townsfolk Investigative, 1 Townsfolk Miscellaneous, 1 Werewolf Killing")


def test_a_host_command_answered_to_self_is_told_to_the_player_whose_rule_asked(tmp_path):
    """docs/werewolf.md: ``execute(listalive, 'l')`` reveals the host's answer in the location, and
    ``reveal(text, 'self')`` tells the owner of the rule (a group's own channel from a group).  So the
    answer of ``execute(listalive, 'self')`` goes to the Prophet (seat 2) who asked, like a reveal to
    itself: after seat 3 ("Player 4") dies, the living are players 1, 2, 3 and 5; nobody else learns it."""
    table = _with_prophet_rule(tmp_path, "~death~ execute(listalive, 'self')")
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.die(3, "kill")
    answer = "Player 1, Player 2, Player 3, Player 5"
    assert game.state["players"][2]["learned"] == [answer]
    assert [p["idx"] for p in game.state["players"] if answer in p["learned"]] == [2]
    assert [(r["player"], r["text"]) for r in sink.of("learn")] == [(2, answer)]


def test_a_reveal_to_self_by_an_element_of_nobody_goes_to_its_groups_channel(table):
    """``reveal(text, 'self')`` from a group (an element of nobody: no seat, or the narrator's -1) is
    said in the group's own channel: the pack's members (the werewolf, seat 1) learn it, the record
    names them."""
    game, sink = _game(table)
    pack = game.state["groups"]["werewolf-pack"]["card"]
    game.reveal("self", "the moon is full", pack, None)
    game.reveal("self", "the moon is new", pack, -1)
    assert game.state["players"][1]["learned"] == ["the moon is full", "the moon is new"]
    assert [(r["where"], r["to"]) for r in sink.of("reveal")] == [("werewolf-pack", [1])] * 2


@pytest.mark.parametrize("member, learned", [(0, []), (3, []), (None, ["nobody left"])])
def test_removing_several_players_from_a_group_succeeds_if_one_of_them_was_in_it(tmp_path, member, learned):
    """docs/werewolf.md: ``Remove P from #G`` is ``leave('g') to(P)``; docs/language.md 5.6: the command
    succeeded when it did something, else it failed and ``||`` runs.  Villagers at seats 0 and 3; one of
    them (or neither) is put in the pack; when the Seer dies the Prophet (seat 2) removes both villagers
    from the pack: whichever comes last among the targets, one removal is a success."""
    table = _with_prophet_rule(tmp_path, "~death~ leave('werewolf-pack') to(players::where('role=villager')) "
                                         "|| learn('nobody left')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    st = game.state
    if member is not None:
        game.join_group(member, "werewolf-pack", _role(game, 1), "persistent")
    game.die(4, "kill")
    assert st["groups"]["werewolf-pack"]["members"] == [1]
    assert st["players"][2]["learned"] == learned


@pytest.mark.parametrize("index, shown", [
    (1, ["x", "b", "c"]), (3, ["a", "b", "x"]),      # value n counts from 1; the last one is 3
    (0, ["a", "b", "c"]), (4, ["a", "b", "c"]),      # no value 0, no value 4: the display is unchanged
])
def test_updating_a_display_sets_its_value_n_counted_from_1(tmp_path, index, shown):
    """docs/werewolf.md: ``Display `D` (a, b)`` is ``display('d', 'a, b')`` (the owner sees it), ``Update `D`
    value `n` to `v` `` is ``updateDisplay('d', n, 'v')``.  The Prophet (seat 2) shows ``a, b, c``, then
    sets value ``index`` to ``x``; a display the Prophet never showed is not made by an update."""
    table = _with_prophet_rule(tmp_path, "~starting~ display('omens', 'a, b, c') ; updateDisplay('omens', %d, 'x') "
                                         "; updateDisplay('signs', 1, 'x')" % index)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    assert game.state["displays"] == {"2:omens": shown}


@pytest.mark.parametrize("fate, runs", [
    (None, False),           # alive: not a ghost
    ("ghostly", False),      # alive with the Ghostly attribute: still alive, not a ghost
    ("kill", False),         # dead, not banished: a dead player, not a ghost
    ("banish", True),        # banished: a ghost (the game has the Ghostly attribute)
])
def test_a_rule_with_status_ghostly_runs_only_for_a_ghost(tmp_path, fate, runs):
    """docs/werewolf.md: WWRF ``Status: Ghostly`` (``status = ghostly``): the rule runs only while its owner
    is ghostly, that is dead as a ghost (a banished player is a ghost when the book has a ``Ghostly``
    attribute; cards/werewolf has).  The Prophet (seat 2) learns the day at each day's start."""
    table = _with_prophet_rule(tmp_path, "~startday~ learn('day ' + str(day))\nstatus = ghostly")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    if fate == "ghostly":
        assert game.apply_attribute(2, "ghostly", _role(game, 4), "persistent") is True
    elif fate is not None:
        game.die(2, fate)
    game.play_phase("day")
    assert game.state["players"][2]["learned"] == (["day 0"] if runs else [])


@pytest.mark.parametrize("trigger, temporal, learned", [
    ("startnight", "night", ["Night 1", "Night 2"]),
    ("startnight", "day", []),                       # a day's limit never lets a night's trigger run
    ("startday", "day 1+", ["Day 1", "Day 2"]),
    ("startday", "night 1+", []),                    # nor a night's limit a day's (night 1 and 2 have passed)
    ("startday", "day 1", ["Day 1"]),                # a number without + is that phase alone
    ("startnight", "night 2", ["Night 2"]),
    ("startday", "day 2+", ["Day 2"]),
])
def test_a_temporal_limit_names_the_kind_of_phase_the_rule_runs_in(tmp_path, trigger, temporal, learned):
    """WWRF ``Temporal: Night``, ``Temporal: Day 1+`` (docs/werewolf.md: ``temporal = night``, ``day 1+``):
    the rule runs only in phases of that kind (from that number on).  The Prophet (seat 2) learns the
    phase's name when the trigger fires (besides what its prayers tell it); the game plays day 0, night 1,
    day 1, night 2, day 2."""
    table = _with_prophet_rule(tmp_path, "~%s~ learn(phasename)\ntemporal = %s" % (trigger, temporal))
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    for kind in ("day", "night", "day", "night", "day"):
        game.play_phase(kind)
    assert [t for t in game.state["players"][2]["learned"] if t.startswith(("Day ", "Night "))] == learned


@pytest.mark.parametrize("to, players", [
    ("seer", [4]),                 # a role: its living holder (seat 4)
    ("villager", [0, 5]),          # the living villagers: seat 3 is dead
    ("ghostly", [1]),              # an attribute: the living players who have it
    ("village-square", None),      # a location: no players named
])
def test_a_whisper_to_a_role_or_an_attribute_reaches_its_living_holders(tmp_path, to, players):
    """docs/werewolf.md: ``Whisper to L as N`` is ``whisper('l', 'N')``, a connection the host carries;
    ``Whisper to `Role` `` (or an attribute) reaches that role's holders now: the record's ``players``.
    Villagers at seats 0, 3 and 5 (3 dies first), the Seer at 4; the werewolf (seat 1) has the Ghostly
    attribute.  On seat 3's death the Prophet (seat 2) whispers to ``to`` as 'Omen'."""
    table = _with_prophet_rule(tmp_path, "~death~ whisper('%s', 'Omen')" % to)
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    assert game.apply_attribute(1, "ghostly", _role(game, 4), "persistent") is True
    game.die(3, "kill")
    whispers = sink.of("whisper")
    assert [(r["player"], r["to"], r["as"]) for r in whispers] == [(2, to, "Omen")]
    assert whispers[0].get("players") == players


class Offers:
    """Declines every ability and records (seat, prompt) of each one offered; nobody votes."""

    def __init__(self):
        self.offered = []

    def decide(self, req):
        if req["kind"] == "use_ability":
            self.offered.append((req["player"], req["prompt"]))
        return None


def test_after_a_role_switch_each_player_is_offered_the_actions_of_the_role_they_now_hold(table):
    """WWRF ``Switch`` (``switch() to(P)``): two players exchange role cards.  The Prophet (seat 2) and the
    Seer (seat 4) both act at night (``immediate night``: prophet.name, seer.divine).  Offered the night's
    actions, then (after a change of the table, an attribute put on seat 0) switched, seat 2 is offered
    the Seer's action and seat 4 the Prophet's."""
    offers = Offers()
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"], offers)
    game.play_phase("day")
    game.play_phase("night")
    game.offer_actions("immediate night")
    assert sorted(offers.offered[-2:]) == [(2, "prophet.name"), (4, "seer.divine")]
    offers.offered[:] = []
    assert game.apply_attribute(0, "ghostly", _role(game, 4), "persistent") is True
    game.switch_roles(2, 4)
    game.offer_actions("immediate night")
    assert sorted(offers.offered) == [(2, "seer.divine"), (4, "prophet.name")]


class Naming:
    """Answers the Prophet's night prayer (prophet.name) with ``role``; declines the rest, nobody votes."""

    def __init__(self, role):
        self.role = role

    def decide(self, req):
        if req["kind"] == "use_ability" and req["prompt"] == "prophet.name":
            assert self.role in req["options"], req["options"]
            return self.role
        return None


def test_an_action_listener_hears_the_type_and_subtype_of_the_ability_used(tmp_path):
    """docs/werewolf.md: ``On Action [F]`` is ``~myaction~`` with guards on ``abilitytype`` and
    ``abilitysubtype`` (the profile: the ability type and subtype used), and ``actiontarget``.  The
    Prophet's prayer is ``Target @Selection (Role)``: a Targeting ability of subtype Target; its target is
    a role, not a player, so there is no player target.  Naming the werewolf at night 1, the Prophet
    (seat 2) hears 'targeting target'."""
    table = _with_prophet_rule(tmp_path, "~myaction~ learn(str(abilitytype) + ' ' + str(abilitysubtype))")
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"], Naming("werewolf"))
    game.play_phase("day")
    game.play_phase("night")
    assert [(r["player"], r["ability"], r["value"]) for r in sink.of("use")] == [(2, "prophet--name", "werewolf")]
    assert game.card(_role(game, 2))["target"] == "werewolf"
    assert game.state["players"][2]["learned"] == ["targeting target"]


def test_a_reveal_to_players_tells_each_of_them_and_a_reveal_to_no_place_fails(tmp_path):
    """docs/werewolf.md (Reveals): to a selector of players each of them learns it (``reveal(text,
    getTargets(...))``), to one player that player; to ``@AttackLocation`` of a killing by nobody there is
    no place: the ability fails (``||`` runs).  Villagers at seats 0, 3 and 5; seat 3 dies by no one's
    hand; on that death the Prophet (seat 2) reveals a sign to the villagers (``players``: the dead one
    too), an omen to the dead player, then a text at the attack location."""
    table = _with_prophet_rule(tmp_path, "~death~ reveal('a sign', getTargets('players::where(\"role=villager\")'))"
                                         " ; reveal('an omen', subject) ; reveal('lost', attacklocation) || learn('nowhere')")
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    game.die(3, "kill")
    learned = [p["learned"] for p in game.state["players"]]
    assert learned == [["a sign"], [], ["nowhere"], ["a sign", "an omen"], [], ["a sign"]]
    assert sink.of("reveal") == []


@pytest.mark.parametrize("value, target, learned", [
    ("['seer']", "seer", []),                          # a list of one value is that value
    ("['seer', 'werewolf']", None, ["not one"]),       # a target is one value: two fail
    ("targeted", None, ["not one"]),                   # nil (no target yet): fails
    ("'Town Crier'", "town-crier", []),                # a role by its name: its id
])
def test_targeting_a_role_takes_one_value(tmp_path, value, target, learned):
    """docs/werewolf.md: ``Target V (Role)`` is ``setTarget(role, V)``: the target is that value (a role
    id: a name is read as its id), with no visit; the profile: a target is one value, so a list of two or
    nil sets nothing and the ability fails."""
    table = _with_prophet_rule(tmp_path, "~starting~ setTarget(role, %s) || learn('not one')" % value)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    assert game.card(_role(game, 2))["target"] == target
    assert game.state["players"][2]["learned"] == learned


@pytest.mark.parametrize("kind, value, target", [
    ("boolean", "true", True), ("boolean", "false", False),      # a boolean stays a boolean
    ("category", "'Killing'", "Killing"),                         # a category is kept as written
    ("option", "'Red'", "Red"),
])
def test_a_target_of_another_kind_keeps_its_value(tmp_path, kind, value, target):
    """As above for ``(Boolean)``, ``(Category)``, ``(Option)``: a boolean is the target as it is, a category or
    an option is kept as its text (not made an id)."""
    table = _with_prophet_rule(tmp_path, "~starting~ setTarget(%s, %s)" % (kind, value))
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    got = game.card(_role(game, 2))["target"]
    assert got == target and type(got) is type(target)


@pytest.mark.parametrize("place, away", [
    ("getTargets('players::where(\"role=seer\")')", True),     # one player: away at the Seer's home (seat 4)
    ("getTargets('players::where(\"role=villager\")')", False),  # two players: no one place, the ability fails
    ("targeted", False),                                          # nil: no place, fails
])
def test_an_absence_is_at_one_place(tmp_path, place, away):
    """docs/werewolf.md (Absences): ``Protect P from F through Absence at L`` is ``absent(L, f) to(P)``: P is
    away at L (a player's home); an attack on P fails, and an attack at L hits P too.  The profile: the
    place is one player or element; a list of two or nil is no place, and the ability fails (``||``
    runs).  The Prophet (seat 2) goes away when the game starts; villagers at seats 0 and 3, the Seer at
    4; then the werewolf (seat 1) attacks the Prophet, then the Seer."""
    table = _with_prophet_rule(tmp_path, "~starting~ absent(%s, attacks) to(me) || learn('nowhere')" % place)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    st = game.state
    assert st["players"][2]["learned"] == ([] if away else ["nowhere"])
    assert game.killing("attack", 2, _role(game, 1), 1) is (not away)
    assert game.killing("attack", 4, _role(game, 1), 1) is True
    assert [p["idx"] for p in st["players"] if not p["alive"]] == [2, 4]


@pytest.mark.parametrize("spec, stopped", [
    ("all", ["attack", "kill", "divine"]),
    ("killing", ["attack", "kill"]),
    ("!killing", ["divine"]),
    ("non-killing abilities", ["divine"]),
    ("attack killing", ["attack"]),                   # a subtype and its type: that subtype alone
    ("!attack killing", ["kill", "divine"]),
    ("attribute", ["divine"]),                        # one word: a type or a subtype
])
def test_an_obstruction_stops_the_abilities_its_filter_names(table, spec, stopped):
    """WWRF ``Obstruct P from F`` (docs/werewolf.md: ``obstruct('f') to(P)``): P's abilities that match F
    fail (the visit is not made; the obstruction's feedback, here none).  The guide's ability filters:
    ``all``, a type (``killing``), a subtype and its type (``attack killing``), ``non-killing abilities``,
    ``!`` negates.  The Seer (seat 4) is obstructed, then uses an attack, a kill and an attribute
    investigation (the divination) on seat 0."""
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.add_obstruction(4, spec, None, _role(game, 2), "persistent")
    uses = {"attack": ("killing", "attack"), "kill": ("killing", "kill"), "divine": ("investigating", "attribute")}
    reached = dict((name, game.use_on(_role(game, 4), 4, 0, atype, asub)[0]) for name, (atype, asub) in uses.items())
    assert sorted(name for name, seat in reached.items() if seat is None) == sorted(stopped)
    assert all(seat == 0 for name, seat in reached.items() if name not in stopped)
    assert len(sink.of("obstructed")) == len(stopped)


def _with_lynch_keys(tmp_path, keys):
    """The werewolf game whose lynch poll has more keys (``keys``: lines after ``showvoters = yes``)."""
    game_dir = tmp_path / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "lynch.ini"
    text = ini.read_text(encoding="utf-8")
    assert text.count("showvoters = yes\n") == 1
    ini.write_text(text.replace("showvoters = yes\n", "showvoters = yes\n" + keys), encoding="utf-8")
    return load_wolf_table(game_dir)


@pytest.mark.parametrize("keys, lynched", [
    ("optionwords = Random\nrandom = players[alive]::where('role=seer')\n", 4),   # Random lands on the Seer
    ("optionwords = Random\nrandom = players[alive]::where('role=prophet')\n", None),  # no Prophet: on nobody
])
def test_a_winning_random_vote_lands_on_a_player_of_the_polls_random_selector(tmp_path, keys, lynched):
    """docs/werewolf.md (Polls): ``Random`` is a vote that, when it wins, lands on a player of the poll's
    ``Random:`` selector, drawn by the game's generator (the rule key ``random``).  Everyone votes Random
    in the lynch; the selector holds only the Seer (seat 4), who is lynched; a selector that holds nobody
    lynches nobody."""
    table = _with_lynch_keys(tmp_path, keys)
    votes = dict((seat, "random") for seat in range(5))
    decider = Voters(votes)
    game, sink = _game(table, ["villager", "werewolf", "villager", "villager", "seer"], decider)
    lynch = [iid for iid, c in game.state["cards"].items() if c["model"] == "lynch"]
    game.create_poll("lynch", "village-square", lynch[0])      # as the lynch's rule creates it on day 1
    game.run_polls()
    assert all("random" in r["options"] for r in decider.requests if r["kind"] == "vote")
    assert [r["winner"] for r in sink.of("poll_close")] == [lynched]
    assert [(r["player"], r["killing"]) for r in sink.of("death")] == ([(lynched, "lynch")] if lynched is not None else [])


class Watching:
    """Plays the Prophet's extra night action (prophet.watch): seat 0 when offered, else seat 3; records
    the options of each night.  Declines everything else; nobody votes."""

    def __init__(self):
        self.options, self.game = [], None

    def decide(self, req):
        if req["kind"] == "use_ability" and req["prompt"] == "prophet.watch":
            self.options.append((self.game.state["night"], sorted(req["options"])))
            return 0 if 0 in req["options"] else 3
        return None


def test_an_ability_without_target_succession_skips_the_last_target_in_the_next_phase(tmp_path):
    """WWRF ``Succession: No Target Succession`` (``succession = no target succession``): the ability may not
    be used on the same target in two phases of its kind in a row.  The Prophet (seat 2) watches seat 0 on
    night 1; on night 2 seat 0 is not offered (it watches seat 3); on night 3 seat 0 is offered again and
    seat 3 is not."""
    table = _with_prophet_section(tmp_path, "timing = immediate night\nprompt = prophet.watch\n"
                                            "target = player[alive]::not(me)\nsuccession = no target succession\n"
                                            "action = learn('watched ' + str(selection))\n")
    decider = Watching()
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"], decider)
    decider.game = game
    for kind in ("day", "night", "day", "night", "day", "night"):
        game.play_phase(kind)
    assert decider.options == [(1, [0, 1, 3, 4]), (2, [1, 3, 4]), (3, [0, 1, 4])]
    assert [t for t in game.state["players"][2]["learned"] if t.startswith("watched")] == [
        "watched Player 1", "watched Player 4", "watched Player 1"]


class Declining:
    """Declines every decision; records (prompt, options) of each use_ability asked."""

    def __init__(self):
        self.asked = []

    def decide(self, req):
        if req["kind"] == "use_ability":
            self.asked.append((req["prompt"], sorted(req["options"])))
        return None


@pytest.mark.parametrize("offered, target", [
    ("player[alive]::not(me)", 4),                     # S (the Seer) holds one of the options: the Seer
    ("player[alive]::where('role=werewolf')", 1),      # S holds none of them: among the options (only seat 1)
])
def test_a_declined_forced_action_is_used_on_a_target_among_its_forced_players(tmp_path, offered, target):
    """docs/werewolf.md: ``{Forced}``, ``{Forced: S}`` (``params = forced`` + ``forced = S``): a declined action
    is used on a random target, among S when S holds some of the options.  The Prophet's (seat 2) extra
    night action, forced on the Seer (seat 4), offers the other players, or the werewolf (seat 1) alone;
    declined, it is used on the Seer, or on the werewolf (the one option)."""
    table = _with_prophet_section(tmp_path, "timing = immediate night\nprompt = prophet.watch\n"
                                            "target = %s\nparams = forced\n"
                                            "forced = players[alive]::where('role=seer')\n"
                                            "action = learn('watched ' + str(selection))\n" % offered)
    decider = Declining()
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"], decider)
    assert game.use_action(2, _role(game, 2), "prophet--extra", "immediate night") is True
    assert decider.asked == [("prophet.watch", [0, 1, 3, 4] if target == 4 else [1])]
    assert [(r["player"], r["ability"], r["target"]) for r in sink.of("forced")] == [(2, "prophet--extra", target)]
    assert game.state["players"][2]["learned"] == ["watched Player %d" % (target + 1)]


def test_an_attribute_laid_for_the_delayed_phase_holds_through_the_next_phase_only(tmp_path):
    """docs/werewolf.md (Durations): WWRF ``~DelayedPhase``: in force from the start of the next phase to its
    end.  The Prophet (seat 2) gives itself the Ghostly attribute for the delayed phase when the game
    starts: it does not have it before day 0, has it from day 0's start, and loses it at day 0's end.
    Applying an attribute the player already has changes nothing and fails (``||`` runs)."""
    table = _with_prophet_rule(tmp_path, "~starting~ apply('ghostly') to(me) delayedphase")
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    assert game.has_attribute(2, "ghostly") is False
    game.play_phase("day")
    assert [(r["type"], r.get("player"), r.get("attribute"), r.get("on")) for r in sink.records
            if r["type"] in ("phase", "attribute")] == [
        ("phase", None, None, None), ("attribute", 2, "ghostly", True), ("attribute", 2, "ghostly", False)]
    assert game.has_attribute(2, "ghostly") is False
    game.play_phase("night")
    assert game.has_attribute(2, "ghostly") is False and sink.of("attribute")[2:] == []


def test_applying_an_attribute_the_player_has_fails(tmp_path):
    """docs/language.md 5.6: a command that did nothing failed, so ``||`` runs: the second Ghostly
    attribute the Prophet (seat 2) gives itself is not laid (one attribute card), and it learns 'already'."""
    table = _with_prophet_rule(tmp_path, "~starting~ apply('ghostly') to(me) ; apply('ghostly') to(me) || learn('already')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    st = game.state
    assert [st["cards"][i]["model"] for i in st["players"][2]["attrs"]] == ["ghostly"]
    assert st["players"][2]["learned"] == ["already"]


def test_a_group_changes_into_a_group_not_in_play(table):
    """WWRF ``Group Change #A to #B`` (``groupChange('a', 'b')``): when B is not in play, A becomes B with
    its members (B's element enters play).  The pack (the werewolf, seat 1) becomes the Lovers; a group
    that is not in play, or a change to an element the game does not have, changes nothing and fails."""
    game, sink = _game(table)
    st = game.state
    assert game.group_change("lovers", "werewolf-pack") is False            # the Lovers are not in play
    assert game.group_change("werewolf-pack", "no-such-group") is False     # nothing to change into
    assert st["groups"]["werewolf-pack"]["members"] == [1]
    assert game.group_change("werewolf-pack", "lovers") is True
    assert list(st["groups"]) == ["lovers"] and st["groups"]["lovers"]["members"] == [1]
    assert st["cards"][st["groups"]["lovers"]["card"]]["model"] == "lovers"
    assert st["groups"]["lovers"]["card"] in st["table"]
    assert [(r["group"], r["to"]) for r in sink.of("group_change")] == [("werewolf-pack", "lovers")]


def test_counters_add_and_set_on_the_owner_or_on_the_element(tmp_path):
    """docs/werewolf.md: ``Increment/Decrement Counter [by n]``, ``Set Counter to n`` are ``counter(add, n)``,
    ``counter(add, -(n))``, ``counter(set, n)``, on the owner (``me.counter``); ``to(this)``: the element's own
    counter (``this.counter``).  The Prophet (seat 2): 0 + 2 + 3 - 1 = 4, set to 1; its role card's counter
    0 + 4 = 4, the player's stays 1."""
    table = _with_prophet_rule(tmp_path, "~starting~ counter(add, 2) ; counter(add, 3) ; counter(add, -(1))"
                                         " ; learn(str(me.counter)) ; counter(set, 1) ; learn(str(me.counter))"
                                         " ; counter(add, 4) to(this) ; learn(str(this.counter)) ; learn(str(me.counter))")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    st = game.state
    assert st["players"][2]["learned"] == ["4", "1", "4", "1"]
    assert st["players"][2]["counter"] == 1 and game.card(_role(game, 2))["counter"] == 4
    assert [p["counter"] for p in st["players"]] == [0, 0, 1, 0, 0]


@pytest.mark.parametrize("whom, switched", [("me", False), ("players::where('role=seer')", True)])
def test_switching_roles_with_oneself_fails(tmp_path, whom, switched):
    """WWRF ``Switch P`` (``switch() to(P)``): the owner and P exchange role cards; with oneself there is
    nothing to exchange: the ability fails (``||`` runs).  The Prophet (seat 2) switches with itself, or
    with the Seer (seat 4): then seat 2 holds the Seer's role and seat 4 the Prophet's."""
    table = _with_prophet_rule(tmp_path, "~starting~ switch() to(%s) || learn('no switch')" % whom)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    models = [game.card(_role(game, seat))["model"] for seat in (2, 4)]
    assert models == (["seer", "prophet"] if switched else ["prophet", "seer"])
    assert game.state["players"][2]["learned"] == ([] if switched else ["no switch"])


def test_a_choice_is_answered_once_by_an_option_it_offers(tmp_path):
    """docs/werewolf.md: `` `C` Choice Creation (A, B)`` is ``choices('c', 'A, B')``; `` `C` Choice Choose `O` ``
    is ``choose('c', 'O')``: the option is chosen without asking (options match without case, the option
    as the choice writes it).  An option the choice does not offer answers nothing (the ability fails);
    an answered choice is gone, so a second answer fails too."""
    table = _with_prophet_rule(tmp_path, "~starting~ choices('omen', 'Red, Black') ; choose('omen', 'green') "
                                         "|| learn('not offered') ; choose('omen', 'black') && learn('chosen') ; "
                                         "choose('omen', 'red') || learn('already answered')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    assert game.state["players"][2]["learned"] == ["not offered", "chosen", "already answered"]
    assert game.state["choices"] == {}


class Choosing:
    """Answers each choose_action with the last option; records (player, prompt, options, cancel)."""

    def __init__(self):
        self.asked = []

    def decide(self, req):
        if req["kind"] == "choose_action":
            self.asked.append((req["player"], req["prompt"], list(req["options"]), req["cancel"]))
            return req["options"][-1]
        return None


def test_a_choice_sent_with_ask_asks_each_of_its_players_at_once(tmp_path):
    """docs/werewolf.md (Choices): ``choices(..., ask)``: the players it is sent to are asked at once (a
    ``choose_action`` decision that cannot be declined, options as written).  The Prophet (seat 2) sends
    the choice to the villagers (seats 0 and 3, in the filter's order) when seat 4 dies; each answers
    Black."""
    table = _with_prophet_rule(tmp_path, "~death~ choices('omen', 'Red, Black', ask) to(players::where('role=villager'))")
    decider = Choosing()
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"], decider)
    game.die(4, "kill")
    assert sorted(decider.asked) == [(0, "omen", ["Red", "Black"], False), (3, "omen", ["Red", "Black"], False)]
    assert sorted((r["player"], r["choice"], r["option"]) for r in sink.of("chosen")) == [
        (0, "omen", "Black"), (3, "omen", "Black")]
    assert game.state["choices"] == {}


@pytest.mark.parametrize("disguises, levels, seen", [
    ([], "sd-wd", "Werewolf"),                                        # no disguise: the role
    ([("weak", "villager")], "none", "Werewolf"),                     # no level: no disguise fools it
    ([("weak", "villager")], "sd", "Werewolf"),                       # (SD): strong ones only
    ([("weak", "villager")], "wd", "Villager"),                       # (WD): weak ones
    ([("strong", "seer")], "wd", "Werewolf"),
    ([("strong", "seer")], "sd", "Seer"),
    ([("strong", "seer"), ("weak", "villager")], "sd-wd", "Seer"),   # both: a strong one goes first
    ([("weak", "villager"), ("strong", "seer")], "sd-wd", "Seer"),   # whichever was laid first
    ([("weak", "villager"), ("strong", "seer")], "wd", "Villager"),
])
def test_a_role_investigation_is_fooled_by_the_disguises_its_levels_name(table, disguises, levels, seen):
    """docs/werewolf.md (Meanings, disguise levels): ``(SD)`` is affected by strong disguises only, ``(WD)``
    by weak ones only, both by both, none without; affected means fooled, and a strong disguise goes
    before a weak one.  The werewolf (seat 1) wears the disguises; the Seer (seat 4) investigates its
    role."""
    game, _sink = _game(table, ["villager", "werewolf", "villager", "villager", "seer"])
    for strength, role in disguises:
        game.add_disguise(1, strength, role, _role(game, 2), "persistent")
    assert game.investigate(4, 1, "role", None, _role(game, 4), levels) == seen


def test_an_alignment_investigation_sees_the_players_team_unless_a_disguise_fools_it(table):
    """``Alignment Investigate P``: the player's team (which an alignment change moved away from the role's
    team), unless a disguise fools it: then the team of the disguise's role.  Class and category are the
    role's (or the disguise's)."""
    game, _sink = _game(table, ["villager", "werewolf", "villager", "villager", "seer"])
    assert game.set_team(0, "werewolves") is True
    assert game.investigate(4, 0, "alignment", None, _role(game, 4)) == "werewolves"
    assert [game.investigate(4, 1, what, None, _role(game, 4)) for what in ("alignment", "class", "category")] == [
        "werewolves", "Werewolf", "Killing"]
    game.add_disguise(1, "weak", "seer", _role(game, 2), "persistent")
    assert [game.investigate(4, 1, what, None, _role(game, 4), "wd") for what in ("alignment", "class", "category")] == [
        "villagers", "Townsfolk", "Investigative"]


def test_a_role_count_counts_the_living_players_who_seem_to_hold_it(tmp_path):
    """docs/werewolf.md: ``Investigate `R` Count (SD)`` is ``countRole('r', sd)``: the living players who
    seem to hold R (a disguise of the levels named counts as its role); ``Investigate S Player Count`` is
    ``countPlayers() to?(S)``.  Villagers at seats 0, 3 and 5; seat 3 dies; the werewolf (seat 1) wears a
    weak Villager disguise.  Villagers counted without levels: 2 (0 and 5); with (WD): 3; with (SD): 2;
    werewolves with (WD): 0; the living players: 5."""
    counts = " ; ".join("countRole('%s'%s) ; learn(str(result))" % (role, levels) for role, levels in (
        ("villager", ""), ("villager", ", wd"), ("villager", ", sd"), ("werewolf", ", wd")))
    table = _with_prophet_rule(tmp_path, "~death~ %s ; countPlayers() to(players[alive]) ; learn(str(result))" % counts)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"])
    game.add_disguise(1, "weak", "villager", _role(game, 4), "persistent")
    game.die(3, "kill")
    assert game.state["players"][2]["learned"] == ["2", "3", "2", "0", "5"]


@pytest.mark.parametrize("scaling, day0, day1", [
    ("x2", 2, 2),
    ("living/2", 3, 2),                     # 6 living, then 5: 6 // 2, 5 // 2
    ("total/4", 1, 1),                      # 6 players, dead ones too
    ("living>=6 -> 1, 2", 1, 2),            # 6 living: 1; else 2
])
def test_dynamic_scaling_counts_the_players_when_the_rule_runs(tmp_path, scaling, day0, day1):
    """docs/werewolf.md (Scaling): ``⟨x2⟩``, ``⟨$living/6⟩``, ``⟨$living≥8 ⇒ x1, 2⟩`` are ``scaling = x2``,
    ``living/6``, ``living>=8 -> 1, 2``: the rule runs that many times (the living or all players divided,
    rounded down; the first value whose condition holds, else the last).  Six players; the Prophet (seat 2)
    learns the day's number at each day's start; seat 3 dies after day 0 (nobody acts or votes)."""
    table = _with_prophet_rule(tmp_path, "~startday~ learn('day ' + str(day))\nscaling = %s" % scaling)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"], Declining())
    game.play_phase("day")
    game.die(3, "kill")
    game.play_phase("night")
    game.play_phase("day")
    learned = game.state["players"][2]["learned"]
    assert (learned.count("day 0"), learned.count("day 1")) == (day0, day1)


@pytest.mark.parametrize("atype, params, reached", [
    ("investigating", (), 3),                   # a visit: redirected from seat 0 to seat 3
    ("investigating", ("visitless",), 0),       # visitless: no visit, no redirection
    ("announcement", (), 0),                    # not a visiting type: no visit
])
def test_only_a_visit_is_redirected(table, atype, params, reached):
    """docs/werewolf.md (Visits): an ability used on a player (killing, investigating, ...) is a visit unless
    the rule says ``visitless``, and only a visit meets the target's redirections (``Redirect `all` from S
    to P``).  Seat 0's visitors are redirected to seat 3; the Seer (seat 4) uses an ability on seat 0."""
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.add_redirect(0, "all", None, 3, _role(game, 2), "persistent")
    assert game.use_on(_role(game, 4), 4, 0, atype, "role", params) == (reached, None)
    assert [(r["player"], r["to"]) for r in sink.of("redirected")] == ([(0, 3)] if reached == 3 else [])


def test_a_switch_is_recorded_with_both_players(table):
    """The record of a game says what happened: a role switch names both players (``switch``, then each
    player's new team: the werewolf's seat joins the villagers and the other seat the werewolves)."""
    game, sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.switch_roles(1, 4)
    assert [(r["type"], r.get("player"), r.get("with"), r.get("team")) for r in sink.records
            if r["type"] in ("switch", "team")] == [
        ("switch", 1, 4, None), ("team", 1, None, "villagers"), ("team", 4, None, "werewolves")]


def test_descending_only_a_dead_player_fails(tmp_path):
    """docs/werewolf.md: ``Descend`` is ``descend()``; a player who is dead cannot descend, so the command did
    nothing and failed (docs/language.md 5.6: ``||`` runs).  On seat 3's death the Prophet (seat 2) makes
    the dead player descend."""
    table = _with_prophet_rule(tmp_path, "~death~ descend() to(subject) || learn('nobody descended')")
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer"])
    game.die(3, "kill")
    assert not game.state["players"][3]["left"]
    assert game.state["players"][2]["learned"] == ["nobody descended"]


@pytest.mark.parametrize("quantity, runs", [("2", 2), ("'three'", 0), ("true", 0)])
def test_a_quantity_that_is_not_a_number_allows_no_use(tmp_path, quantity, runs):
    """docs/werewolf.md: ``Quantity: @Self->Counter`` (a value) is ``quantityof = …``: the value is read
    whenever the rule could run, and the rule runs while its uses in the game are fewer; a value that is not
    a number (a text, a boolean) allows none.  The Prophet (seat 2) learns 'dawn' at each of three day
    starts (nobody acts or votes)."""
    table = _with_prophet_rule(tmp_path, "~startday~ learn('dawn')\nquantityof = %s" % quantity)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"], Declining())
    for kind in ("day", "night", "day", "night", "day"):
        game.play_phase(kind)
    assert game.state["players"][2]["learned"].count("dawn") == runs


def test_a_rule_that_ends_the_game_counts_as_resolved(tmp_path):
    """docs/scenarios.md: a werewolf scenario's ``ran`` lists the rule sections that resolved to their end.
    A Prophet rule ``~startday~ win()`` ends the game as it resolves (its team, the Villagers, wins on
    Day 0): it did resolve, so it is among them, with the win rules that ran before it."""
    table = _with_prophet_section(tmp_path, "auto = ~startday~ win()\n")
    sink = Records()
    game, _eng = table.new_game(["villager", "werewolf", "prophet", "villager", "seer"], 0, RandomDecider(0), sink,
                                deal=False)
    result = game.run()
    assert (result["winner"], result["days"]) == ("villagers", 0)
    assert "prophet--extra" in game.completed
