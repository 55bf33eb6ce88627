"""The werewolf game's rules function by function, every branch with values worked out by hand from
docs/werewolf.md, the project's WWRF spec and the WWRF guide: when an element's rule may run (status,
temporal limits, quantities, succession), how many times it runs (scaling), how long an effect lasts,
what host information holds, the helpers that read ability filters, phases and poll options.  Each test
runs the real game of cards/werewolf (dealt in seat order, before its first phase) and reads what the
game records and keeps (issue 22: the mutation test found these functions' outputs read by no test)."""
from __future__ import annotations

import shutil

import pytest

from rulescript.games.werewolf import game as ww
from rulescript.games.werewolf.game import WerewolfGame
from rulescript.runtime.errors import GameError, GameOver, InvalidDecision
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import load_wolf_table

from .test_rules_pinned import GAME, ROLES, Records, _with_prophet_section


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


def _game(table, roles=ROLES, decider=None, settings=None):
    sink = Records()
    game, _eng = table.new_game(list(roles), 0, decider or RandomDecider(0), sink, deal=False)
    if settings is not None:
        game.state["settings"] = settings
    assert game.run(stop_at=("day", 0)) is None  # dealt, before the first phase
    sink.records[:] = []
    return game, sink


def _role(game, seat):
    return game.state["players"][seat]["role"]


def _at(game, phase, number):
    """Put the game in ``phase`` number ``number`` as the flow numbers them (Day 0, Night 1, Day 1,
    Night 2...: the phase index counts from 0 at Day 0)."""
    st = game.state
    st["phase"] = phase
    if phase == "day":
        st["day"], st["night"], st["pindex"] = number, number, 2 * number
    else:
        st["day"], st["night"], st["pindex"] = number - 1, number, 2 * number - 1


def _rule(**keys):
    return {"id": "extra-rule", "keys": keys}


# ---------------------------------------------------------------------------- pure helpers

@pytest.mark.parametrize("name, key, kind", [
    ("%Player 1%", "player1", "player"),
    ("player_1", "player1", "player"),
    ("Player-1", "player1", "player"),
    (" %Role2% ", "role2", "role"),
    ("%Number%", "number", "number"),
    ("String", "string", "string"),
    ("%PartialRoleList%", "partialrolelist", "partialrolelist"),
    ("%Yes | No%", "yes|no", "option"),
    ("%Mayor%", "mayor", None),
])
def test_a_host_information_name_has_a_key_and_a_kind(name, key, kind):
    """WWRF host information: names match without case, blanks, ``_``, ``-`` or ``%``; options stay apart."""
    assert ww.host_key(name) == key
    assert ww.host_kind(key) == kind


def test_the_options_of_a_host_information_name_as_written():
    assert ww.host_options("%Yes | No|Maybe %") == ["Yes", "No", "Maybe"]


@pytest.mark.parametrize("temporal, parsed", [
    ("Night", ("night", None, True)),
    ("night 2+", ("night", 2, True)),
    ("Day 1", ("day", 1, False)),
    ("day 10+", ("day", 10, True)),
])
def test_a_temporal_limit_is_a_kind_of_phase_a_number_and_onward(temporal, parsed):
    assert ww._phase_word(temporal) == parsed


@pytest.mark.parametrize("spec, atype, asub, hit", [
    (None, "killing", "attack", True),              # no filter: every ability
    ("all", "investigating", None, True),
    ("All Abilities", "killing", "kill", True),
    ("!all", "killing", "kill", False),
    ("non-killing abilities", "investigating", "role", True),
    ("non-killing abilities", "killing", "attack", False),
    ("killing", "killing", "attack", True),         # a type
    ("killing", "investigating", "role", False),
    ("attack", "killing", "attack", True),          # a subtype alone
    ("attack", "killing", "kill", False),
    ("attack killing", "killing", "attack", True),  # a subtype and its type
    ("attack killing", "killing", "kill", False),
    ("attack killing", "protecting", "attack", False),
    ("true banish killing", "killing", "true banish", True),
    ("true banish killing", "killing", "banish", False),
    ("!killing", "killing", "attack", False),       # negated
    ("! killing", "investigating", "role", True),
    ("Killing", "killing", None, True),             # case does not matter
])
def test_an_ability_filter_matches_types_and_subtypes(spec, atype, asub, hit):
    """docs/werewolf.md (obstructions, redirections): a filter names every ability, a type, a subtype or a
    subtype and its type; ``!`` negates it."""
    assert ww._matches_type(spec, atype, asub) is hit


def test_poll_options_sort_seats_first_then_words():
    assert sorted(["random", 10, "abstain", 0, 2], key=ww.vote_order) == [0, 2, 10, "abstain", "random"]
    assert ww._word(" Abstain ") == "abstain" and ww._word("RANDOM") == "random" and ww._word(" Yes") == "Yes"


# ---------------------------------------------------------------------------- when a rule may run

def test_a_rule_of_a_card_not_in_the_game_never_runs(table):
    game, _ = _game(table)
    assert game.rule_allowed(999, _rule(status="any")) is False


@pytest.mark.parametrize("status, active_while, dead, ghostly, allowed", [
    (None, None, False, False, True),          # the default: while alive
    (None, None, True, False, False),
    (None, None, True, True, False),
    ("alive", None, True, False, False),
    ("any", None, True, False, True),
    ("any", None, False, False, True),
    ("ghostly", None, False, False, False),    # only a dead player with the Ghostly attribute
    ("ghostly", None, True, False, False),
    ("ghostly", None, True, True, True),
    ("alive-or-ghost", None, False, False, True),
    ("alive-or-ghost", None, True, False, False),
    ("alive-or-ghost", None, True, True, True),
    (None, "ghostly", False, False, True),     # WWRF Activate: also while a ghost
    (None, "ghostly", True, True, True),
    (None, "ghostly", True, False, False),
    (None, "always", True, False, True),       # ... or always
    ("alive", "always", True, False, False),   # the rule's own status first
])
def test_a_rule_runs_by_its_owners_status(table, status, active_while, dead, ghostly, allowed):
    """WWRF ``Status: Alive/Ghostly/Any`` (docs/werewolf.md: a dead owner's rules otherwise run only for their
    own death); an Activate ability widens what a rule without a status allows.  The owner is seat 0."""
    game, _ = _game(table)
    st = game.state
    st["players"][0]["active_while"] = active_while
    if dead:
        game.die(0, "kill")
    if ghostly:
        game.apply_attribute(0, "ghostly", _role(game, 4), "persistent")
    assert game.rule_allowed(_role(game, 0), _rule(status=status) if status else _rule()) is allowed


def test_a_dead_owners_rule_runs_for_its_own_death_or_its_elements_removal(table):
    """A dead owner's element still hears its own death (``death`` of the owner) and an attribute its own
    removal (``removal`` of that card), no other event."""
    game, _ = _game(table)
    game.die(0, "kill")
    card = _role(game, 0)
    rule = _rule()
    assert game.rule_allowed(card, rule, {"name": "death", "player": 0, "obj": None}) is True
    assert game.rule_allowed(card, rule, {"name": "death", "player": 3, "obj": card}) is False
    assert game.rule_allowed(card, rule, {"name": "removal", "player": 3, "obj": card}) is True
    assert game.rule_allowed(card, rule, {"name": "removal", "player": 0, "obj": card + 1}) is False
    assert game.rule_allowed(card, rule, {"name": "visited", "player": 0, "obj": card}) is False
    assert game.rule_allowed(card, rule, None) is False


def _models_with(table, eid, **flags):
    models = dict(table.data.models)
    models[eid] = dict(models[eid], **flags)
    return models


@pytest.mark.parametrize("flag, dead, ghostly, status, allowed", [
    ("ghostly", False, False, None, False),    # WWRF Ghostly Role: only while a ghost
    ("ghostly", True, False, None, False),
    ("ghostly", True, True, None, True),
    ("ghostly", False, False, "alive", True),  # the rule's own status first
    ("haunted", False, False, None, True),     # WWRF Haunted Role: alive or a ghost
    ("haunted", True, True, None, True),
    ("haunted", True, False, None, False),
    ("haunted", True, True, "alive", False),   # the rule's own status first
])
def test_a_ghostly_or_haunted_role_runs_while_its_owner_is_a_ghost(table, flag, dead, ghostly, status, allowed):
    game = WerewolfGame(_models_with(table, "villager", **{flag: True}), ROLES, RandomDecider(0), deal=False)
    assert game.run(stop_at=("day", 0)) is None
    if dead:
        game.die(0, "kill")
    if ghostly:
        game.apply_attribute(0, "ghostly", _role(game, 4), "persistent")
    assert game.rule_allowed(_role(game, 0), _rule(status=status) if status else _rule()) is allowed


@pytest.mark.parametrize("ghostly_group, dead, ghostly, allowed", [
    (False, False, False, True),    # a group's rules run whatever its members are
    (True, False, False, False),    # a Ghostly Group: while one of its members is a ghost
    (True, False, True, False),     # alive with the attribute is no ghost
    (True, True, False, False),     # dead without it neither
    (True, True, True, True),
])
def test_a_ghostly_groups_rules_run_while_a_member_is_a_ghost(table, ghostly_group, dead, ghostly, allowed):
    models = _models_with(table, "lovers", ghostly=True) if ghostly_group else table.data.models
    game = WerewolfGame(models, ROLES, RandomDecider(0), deal=False)
    assert game.run(stop_at=("day", 0)) is None
    game.join_group(2, "lovers", _role(game, 4), "persistent")
    game.join_group(3, "lovers", _role(game, 4), "persistent")
    if dead:
        game.die(3, "kill")
    if ghostly:
        game.apply_attribute(3, "ghostly", _role(game, 4), "persistent")
    card = game.state["groups"]["lovers"]["card"]
    assert game.card(card)["owner"] == -1
    assert game.rule_allowed(card, _rule()) is allowed


@pytest.mark.parametrize("phase, number, temporal, allowed", [
    ("day", 2, "day", True),
    ("day", 2, "night", False),
    ("day", 2, "day 2", True),
    ("day", 2, "day 1", False),
    ("day", 2, "day 3", False),
    ("day", 2, "day 1+", True),
    ("day", 2, "day 2+", True),
    ("day", 2, "day 3+", False),
    ("day", 2, "night 2", False),
    ("night", 3, "night 3", True),      # Night 3 follows Day 2: the night's own number counts
    ("night", 3, "night 2", False),
    ("night", 3, "night 3+", True),
    ("night", 3, "night 4+", False),
    ("night", 3, "night", True),
    ("night", 3, "day 2+", False),
])
def test_a_temporal_limit_names_the_phase(table, phase, number, temporal, allowed):
    """WWRF ``Temporal: Day 1`` (only then), ``Night 2+`` (from then on), ``Night`` (every night)."""
    game, _ = _game(table)
    _at(game, phase, number)
    assert game.rule_allowed(_role(game, 0), _rule(temporal=temporal)) is allowed


@pytest.mark.parametrize("quantity, uses, allowed", [
    (2, 0, True), (2, 1, True), (2, 2, False), (2, 3, False), (0, 0, False), (1, 0, True),
])
def test_a_quantity_allows_that_many_uses_in_the_game(table, quantity, uses, allowed):
    """WWRF ``Quantity: n``: at most n uses per game, counted per element card and rule."""
    game, _ = _game(table)
    card = _role(game, 0)
    for _ in range(uses):
        game.count_use(card, "extra-rule")
    game.count_use(card, "another-rule")
    game.count_use(_role(game, 2), "extra-rule")
    assert game.state["uses"]["%s:extra-rule" % card] == uses if uses else True
    assert game.rule_allowed(card, _rule(quantity=quantity)) is allowed


@pytest.mark.parametrize("last, allowed", [(None, True), (5, False), (6, True), (3, True)])
def test_no_succession_skips_the_next_phase_of_the_kind(table, last, allowed):
    """WWRF ``Succession: No Succession``: after a use, the next phase of the same kind is skipped (used on
    night 2, not on night 3).  Now: Night 4, phase index 7; a use at index 5 (Night 3) forbids it."""
    game, _ = _game(table)
    _at(game, "night", 4)
    card = _role(game, 0)
    if last is not None:
        game.state["last_used"]["%s:extra-rule" % card] = [last, 2]
    game.state["last_used"]["%s:other" % card] = [5, 2]
    assert game.rule_allowed(card, _rule(succession="no succession")) is allowed
    assert game.rule_allowed(card, _rule(succession="no target succession")) is True  # checked per target


# ---------------------------------------------------------------------------- how many times a rule runs

@pytest.mark.parametrize("scaling, phase, number, times", [
    (None, "day", 1, 1),                  # no scaling: once
    ("", "day", 1, 1),
    ("x3", "night", 2, 3),                # static
    ("odd x1, even x2", "day", 0, 2),     # by the phase's number: Day 0, Night 1, Day 1, Night 2 ...
    ("odd x1, even x2", "day", 1, 1),
    ("odd x1, even x2", "day", 2, 2),
    ("odd x1, even x2", "night", 1, 1),
    ("odd x1, even x2", "night", 2, 2),
    ("odd x1, even x2", "night", 3, 1),
    ("odd x3", "day", 1, 3),
    ("odd x3", "day", 2, 0),              # the spec: ⟨Odd: x1⟩ gives 0 on even phases
    ("even x2", "night", 2, 2),
    ("even x2", "night", 1, 0),
    ("4", "day", 1, 4),                   # a bare number
    (" , ", "day", 1, 1),                 # no item: once
])
def test_static_and_phase_scaling(table, scaling, phase, number, times):
    """WWRF scaling ``⟨x3⟩`` and ``⟨Odd: x1, Even: x2⟩`` (the spec: odd and even by phase number; Games start
    with Day 0, then Night 1, Day 1, Night 2)."""
    game, _ = _game(table)
    _at(game, phase, number)
    keys = {} if scaling is None else {"scaling": scaling}
    assert game.repeats(_role(game, 0), {"id": "extra-rule", "keys": keys}) == times


@pytest.mark.parametrize("scaling, dead, times", [
    ("living/2", 0, 3),                   # 6 living
    ("living/2", 1, 2),                   # 5 living: rounded down
    ("living/4", 3, 0),                   # 3 living
    ("total/2", 1, 3),                    # every player, the dead too
    ("total/4", 3, 1),
    ("living>=6 -> 4", 0, 4),             # each comparison, true then false
    ("living>=6 -> 4", 1, 0),
    ("living<=5 -> 4", 1, 4),
    ("living<=5 -> 4", 0, 0),
    ("living=5 -> 4", 1, 4),
    ("living=5 -> 4", 0, 0),
    ("living>5 -> 4", 0, 4),
    ("living>5 -> 4", 1, 0),
    ("living<6 -> 4", 1, 4),
    ("living<6 -> 4", 0, 0),
    ("total>=6 -> 4", 2, 4),              # total counts the dead
    ("living>=6 -> 1, 2", 1, 2),          # the first item that holds, else the last value
    ("living<5 -> 2, x1", 0, 1),
    ("living<5 -> 2, x1", 2, 2),
    ("total<10 -> 1, total>=10 -> 2, 3", 0, 1),
])
def test_dynamic_scaling_by_the_living_or_all_players(table, scaling, dead, times):
    """WWRF ``⟨$living/6⟩`` (rounded down) and ``⟨$living≥8 ⇒ x1, 2⟩`` (docs/werewolf.md: ``living/6``,
    ``living>=8 -> 1, 2``): six players, ``dead`` of them (the last seats) killed."""
    game, _ = _game(table)
    for seat in range(5, 5 - dead, -1):
        game.state["players"][seat]["alive"] = False
    assert game.repeats(_role(game, 0), _rule(scaling=scaling)) == times


@pytest.mark.parametrize("counter, times", [(3, 3), (0, 0), (-2, 0)])
def test_scaling_by_the_owners_counter(table, counter, times):
    """WWRF ``⟨@Self->Counter⟩`` (``scaling = counter``): the owner's counter, never below 0; an element of
    nobody (a group) has none."""
    game, _ = _game(table)
    game.set_counter(0, counter)
    game.set_counter(5, 5)
    assert game.repeats(_role(game, 0), _rule(scaling="counter")) == times
    pack = game.state["groups"]["werewolf-pack"]["card"]
    assert game.repeats(pack, _rule(scaling="counter")) == 0


# ---------------------------------------------------------------------------- how long an effect lasts

@pytest.mark.parametrize("phase, number, duration, ends_at, uses", [
    ("day", 2, "phase", 4, None),           # Day 2 is phase index 4: ends at its end
    ("day", 2, "nextphase", 5, None),       # ... at the end of Night 3
    ("day", 2, "nextday", 6, None),         # ... of Day 3
    ("day", 2, "nextnight", 5, None),       # ... of Night 3
    ("night", 3, "nextday", 6, None),       # Night 3 is index 5: Day 3
    ("night", 3, "nextnight", 7, None),     # Night 4
    ("night", 3, "phase", 5, None),
    ("day", 2, "persistent", None, None),   # until the game ends
    ("day", 2, "permanent", None, None),    # until its source leaves play
    ("day", 2, "attribute", None, None),
    ("day", 2, "untiluse", None, 1),        # until used once
    ("day", 2, "untilseconduse", None, 2),
    ("day", 2, "phaseattribute", 4, None),  # ~Phase tied to an attribute: the same end
    ("day", 2, "nextphaseattribute", 5, None),
    ("day", 2, "nextdayattribute", 6, None),
    ("night", 3, "nextnightattribute", 7, None),
    ("day", 2, "untiluseattribute", None, 1),
])
def test_an_effect_ends_by_its_duration(table, phase, number, duration, ends_at, uses):
    """WWRF durations (~Phase, ~NextPhase, ~NextDay, ~NextNight, ~Persistent, ~Permanent, ~UntilUse,
    ~UntilSecondUse and their ``Attribute`` forms): the phase index at whose end an effect ends, and its
    uses left.  Each effect gets the next effect id."""
    game, _ = _game(table)
    _at(game, phase, number)
    first = game.state["next_lasting"]
    game.add_power(0, "public", "add", 1, _role(game, 4), duration)
    entry = game.state["lasting"][-1]
    assert (entry["ends_at"], entry["uses_left"], entry["until"]) == (ends_at, uses, duration)
    assert entry["id"] == first and game.state["next_lasting"] == first + 1 and entry["source"] == _role(game, 4)


def test_a_delayed_phase_effect_holds_from_the_next_phase_to_its_end(table):
    """WWRF ~DelayedPhase: made on Day 2 (index 4), in force during Night 3 (index 5) only."""
    game, sink = _game(table)
    _at(game, "day", 2)
    game.add_power(0, "public", "add", 2, _role(game, 4), "delayedphase")
    assert game.power_of(0) == 1 and [e for e in game.state["lasting"] if e["type"] == "power"] == []
    (entry,) = game.state["delayed"]
    assert (entry["starts_at"], entry["ends_at"]) == (5, 5)
    game._start_delayed()                    # still Day 2: not yet
    assert game.power_of(0) == 1 and len(game.state["delayed"]) == 1 and not sink.of("delayed_start")
    game.state["pindex"] = 5
    game._start_delayed()
    assert game.power_of(0) == 3 and game.state["delayed"] == []
    assert [(r["player"], r["effect"]) for r in sink.of("delayed_start")] == [(0, "power")]
    game._expire()                           # the end of Night 3
    assert game.power_of(0) == 1


def test_effects_and_attributes_expire_at_the_end_of_their_phase(table):
    game, sink = _game(table)
    _at(game, "day", 2)
    src = _role(game, 4)
    for duration in ("phase", "nextphase", "persistent"):
        game.add_power(0, "public", "add", 1, src, duration)
    assert game.apply_attribute(2, "inked", src, "phase") is True
    assert game.apply_attribute(3, "inked", src, "nextday") is True
    assert game.power_of(0) == 4
    game._expire()                           # the end of Day 2
    assert game.power_of(0) == 3
    assert not game.has_attribute(2, "inked") and game.has_attribute(3, "inked")
    assert [(r["player"], r["on"]) for r in sink.of("attribute")][-1] == (2, False)
    game.state["pindex"] = 5
    game._expire()                           # the end of Night 3
    assert game.power_of(0) == 2 and game.has_attribute(3, "inked")
    game.state["pindex"] = 6
    game._expire()                           # the end of Day 3
    assert not game.has_attribute(3, "inked") and game.power_of(0) == 2


@pytest.mark.parametrize("duration, obstructed", [("untiluse", 1), ("untilseconduse", 2), ("persistent", 3)])
def test_an_effect_used_up_ends(table, duration, obstructed):
    """~UntilUse: the obstruction stops one use, ~UntilSecondUse two; a persistent one every use."""
    game, sink = _game(table)
    game.add_obstruction(4, "all", None, _role(game, 1), duration)
    reached = [game.use_on(_role(game, 4), 4, 1, "investigating", "role")[0] for _ in range(3)]
    assert reached == [None] * obstructed + [1] * (3 - obstructed)
    assert len(sink.of("obstructed")) == obstructed


class Declining:
    """Declines every action and abstains from every vote."""

    def decide(self, req):
        return None


@pytest.mark.parametrize("value, runs", [
    ("me.counter", 3), ("7 / 2", 3), ("-1", 0), ("'three'", 0), ("true", 0), (None, 0),
])
def test_scaling_by_a_value_read_when_the_rule_runs(tmp_path, value, runs):
    """WWRF scaling by a number value ``⟨@(...)->Count⟩`` (``scaling = value`` with ``scalingof = …``): the
    value read now (7 / 2 rounded down), never below 0; a value that is not a number (a text, a boolean) or no
    value runs the rule 0 times.  The Prophet (seat 2, counter 3) learns 'dawn' at the start of Day 0."""
    keys = "auto = ~startday~ learn('dawn')\nscaling = value\n"
    if value is not None:
        keys += "scalingof = %s\n" % value
    table = _with_prophet_section(tmp_path, keys)
    game, _sink = _game(table, ["villager", "werewolf", "prophet", "villager", "seer", "villager"], Declining())
    game.set_counter(2, 3)
    game.play_phase("day")
    assert game.state["players"][2]["learned"].count("dawn") == runs


# ---------------------------------------------------------------------------- host information

def _host_game(table, host=None, names=None):
    game, _ = _game(table)
    if host is not None:
        game.state["settings"] = {"host": host}
    for p, name in zip(game.state["players"], names or ()):
        p["name"] = name
    return game


@pytest.mark.parametrize("name, given, value", [
    ("%Role%", "Town Crier", "town-crier"),      # a role's name or id, spaces and _ as -
    ("Role2", "town_crier", "town-crier"),
    ("%Role%", " SEER ", "seer"),
    ("%Player1%", "Player 3", 2),                # Player n is seat n - 1
    ("%Player1%", "player3", 2),
    ("%Player1%", "6", 5),
    ("%Player1%", 1, 0),
    ("%Player1%", " erin ", 3),                  # a player's name, without case
    ("%Number%", 5, 5),
    ("%Number%", "7", 7),
    ("%Number%", " 4.0 ", 4),                    # a whole number is an int
    ("%Number%", "2.5", 2.5),
    ("%Number%", 3.5, 3.5),
    ("%Number%", 4.0, 4),
    ("%Number%", "-2", -2),
    ("%String%", 12, "12"),
    ("%Yes|No%", "yes", "Yes"),                  # the option as written
    ("%Yes | No%", " NO", "No"),
])
def test_host_information_the_host_set(table, name, given, value):
    """Host information the settings' ``host`` mapping gives (names without case, blanks or ``%``), checked
    and read as its kind."""
    key = name.strip("%").replace(" ", "")
    game = _host_game(table, {key.lower() if key[0] == "Y" else key: given},
                      ["Ann", "Ben", "Cid", "Erin", "Eve", "Fay"])
    got = game.host_info(name)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("name, given, among, message", [
    ("%Role%", "lovers", None, "the host information %Role% names 'lovers', which is not a role of the game"),
    ("%Role%", "nobody", None, "the host information %Role% names 'nobody', which is not a role of the game"),
    ("%Player1%", "Player 0", None, "the host information %Player1% names 'Player 0', which is not a player of "
                                    "the game"),
    ("%Player1%", "7", None, "the host information %Player1% names '7', which is not a player of the game"),
    ("%Player1%", "Zed", None, "the host information %Player1% names 'Zed', which is not a player of the game"),
    ("%Player1%", True, None, "the host information %Player1% names True, which is not a player of the game"),
    ("%Number%", "many", None, "the host information %Number% is 'many', which is not a number"),
    ("%Number%", True, None, "the host information %Number% is True, which is not a number"),
    ("%Number%", "nan", None, "the host information %Number% is 'nan', which is not a number"),
    ("%Number%", "-inf", None, "the host information %Number% is '-inf', which is not a number"),
    ("%Number%", float("inf"), None, "the host information %Number% is inf, which is not a number"),
    ("%Yes|No%", "maybe", None, "the host information %Yes|No% is 'maybe', which is not one of its options"),
    ("%Player1%", "Player 3", [0, 1], "the host information %Player1% is Player 3, who is not one of "
                                      "Player 1, Player 2"),
    ("%Player1%", "Player 3", [], "the host information %Player1% is Player 3, who is not one of no player"),
    ("%Role%", "seer", ["werewolf", "villager"], "the host information %Role% is 'seer', which is not one of "
                                                 "werewolf, villager"),
    ("%Role%", "seer", [], "the host information %Role% is 'seer', which is not one of nothing"),
])
def test_host_information_the_host_set_wrong_is_an_error_saying_why(table, name, given, among, message):
    key = name.strip("%")
    game = _host_game(table, {key.lower() if key[0] == "Y" else key: given}, ["Ann", "True", "Cid", "Erin"])
    with pytest.raises(GameError) as err:
        game.host_info(name, among)
    assert str(err.value) == message


def test_host_information_that_cannot_be_derived_says_what_the_host_set(table):
    game = _host_game(table, {"Player 1": "2", "%Role%": "seer"})
    with pytest.raises(GameError) as err:
        game.host_info("%Number 2%")
    assert str(err.value) == ("the host did not set %Number 2%: a number cannot be derived from the role list "
                              "(the settings' host mapping has player1, role)")
    with pytest.raises(GameError) as err:
        _host_game(table).host_info("String")
    assert str(err.value) == ("the host did not set %String%: a string cannot be derived from the role list "
                              "(the settings' host mapping has nothing)")
    with pytest.raises(GameError) as err:
        game.host_info("%Mayor%")
    assert str(err.value) == ("'%Mayor%' is not host information (Role..., Player..., Number..., String..., "
                              "PartialRoleList or options a|b)")


def test_the_partial_role_list_counts_the_dealt_roles_by_class_and_category(table):
    """Villager x3 and Town Crier (Townsfolk Miscellaneous), Werewolf (Werewolf Killing), Seer (Townsfolk
    Investigative), in the order of class and category."""
    game = _host_game(table)
    assert game.host_info("%PartialRoleList%") == ("1 Townsfolk Investigative, 4 Townsfolk Miscellaneous, "
                                                   "1 Werewolf Killing")


def test_derived_host_information_is_drawn_once_a_different_one_per_name(table):
    """Each %PlayerN% is a different player while there are (six players), then any; each %RoleN% a different
    dealt role while there are (four different roles dealt); each is drawn once and kept."""
    game = _host_game(table)
    players = [game.host_info("Player%d" % i) for i in range(1, 7)]
    assert sorted(players) == [0, 1, 2, 3, 4, 5]
    assert game.host_info("Player7") in players
    assert [game.host_info("%%Player%d%%" % i) for i in range(1, 7)] == players  # kept
    roles = [game.host_info("Role%d" % i) for i in range(1, 5)]
    assert sorted(roles) == ["seer", "town-crier", "villager", "werewolf"]
    assert game.host_info("Role5") in roles and game.host_info("Role") in roles
    assert game.host_info("Role1") == roles[0]
    option = game.host_info("%Yes|No%")
    assert option in ("Yes", "No") and game.host_info("yes | no") == option


@pytest.mark.parametrize("name, among, value", [
    ("%Player%", [3], 3),
    ("%Player%", [9, 4], 4),                            # only the game's players
    ("%Role%", ["mimic", "werewolf"], "werewolf"),      # a dealt role of the list
    ("%Role%", ["mimic"], "mimic"),                     # none dealt: one of the list
])
def test_derived_host_information_comes_from_its_list(table, name, among, value):
    """WWRF %Player:@(...)%, %Role:^(...)%: the value is drawn from the list (a role of the list that was
    dealt, else any of the list)."""
    assert _host_game(table).host_info(name, among) == value


@pytest.mark.parametrize("name", ["%Player%", "%Role%"])
def test_derived_host_information_from_an_empty_list_is_an_error(table, name):
    with pytest.raises(GameError) as err:
        _host_game(table).host_info(name, [])
    assert str(err.value) == "%s has nothing to be drawn from" % name


# ---------------------------------------------------------------------------- visits

def test_an_obstruction_stops_its_holders_abilities_of_its_kind_with_its_feedback(table):
    """docs/werewolf.md (Obstruct): the obstructed player's abilities of the filter do not happen (visit or
    not); the user gets the fake feedback.  Another player's, and another kind, are not stopped."""
    game, sink = _game(table)
    game.add_obstruction(4, "investigating", "Failure", _role(game, 1), "persistent")
    assert game.use_on(_role(game, 4), 4, 1, "investigating", "role") == (None, "Failure")
    assert game.use_on(_role(game, 4), 4, 1, "investigating", "role", ("visitless",)) == (None, "Failure")
    assert sink.of("obstructed")[0] == {"type": "obstructed", "player": 4, "ability": "investigating",
                                        "source": "seer"}
    assert game.use_on(_role(game, 4), 4, 1, "protecting", "active") == (1, None)
    assert game.use_on(_role(game, 0), 0, 1, "investigating", "role") == (1, None)
    assert game.use_on(_role(game, 4), None, 1, "investigating", "role") == (1, None)   # nobody's ability
    assert game.use_on(_role(game, 4), -1, 1, "investigating", "role") == (1, None)     # the narrator's
    assert len(sink.of("obstructed")) == 2


def test_an_obstruction_without_feedback_gives_none(table):
    game, _ = _game(table)
    game.add_obstruction(0, None, None, _role(game, 1), "persistent")      # every ability
    assert game.use_on(_role(game, 0), 0, 3, "killing", "attack") == (None, None)


@pytest.mark.parametrize("abilities, frm, actor, atype, params, reached", [
    ("all", None, 4, "investigating", (), 3),
    ("killing", None, 4, "investigating", (), 0),       # another kind: not redirected
    ("killing", None, 4, "killing", (), 3),
    ("all", [2, 4], 4, "killing", (), 3),               # from these players only
    ("all", [2, 5], 4, "killing", (), 0),
    ("all", None, 4, "killing", ("direct",), 0),        # {Direct}: no redirection
    ("all", None, 4, "killing", ("visitless",), 0),     # no visit
    ("all", None, 4, "announcement", (), 0),            # not a visiting ability
])
def test_a_redirection_sends_the_visits_it_matches_elsewhere(table, abilities, frm, actor, atype, params, reached):
    """WWRF ``Redirect F from S to P``: seat 0's visitors (the kinds F, from S) reach seat 3 instead."""
    game, sink = _game(table)
    game.add_redirect(0, abilities, frm, 3, _role(game, 2), "persistent")
    assert game.use_on(_role(game, actor), actor, 0, atype, "role", params) == (reached, None)
    assert [(r["player"], r["to"], r["visitor"]) for r in sink.of("redirected")] == (
        [(0, 3, actor)] if reached == 3 else [])


def test_only_the_first_redirection_applies_and_one_used_up_ends(table):
    game, sink = _game(table)
    game.add_redirect(2, "all", None, 5, _role(game, 0), "persistent")       # another holder's
    game.add_redirect(0, "all", None, 3, _role(game, 2), "untiluse")
    game.add_redirect(0, "all", None, 5, _role(game, 2), "persistent")
    assert game.use_on(_role(game, 4), 4, 0, "investigating", "role") == (3, None)
    assert game.use_on(_role(game, 4), 4, 0, "investigating", "role") == (5, None)
    assert [r["to"] for r in sink.of("redirected")] == [3, 5]


def test_an_ability_on_nobody_visits_nobody(table):
    game, sink = _game(table)
    game.add_redirect(0, "all", None, 3, _role(game, 2), "persistent")
    assert game.use_on(_role(game, 4), 4, None, "killing", "attack") == (None, None)
    assert sink.of("redirected") == [] and sink.of("cancelled") == []


@pytest.mark.parametrize("atype, reached, feedback", [
    ("investigating", None, "Nobody home"),   # the Hermit cancels investigations with a text
    ("protecting", 0, None),
])
def test_a_cancelled_visit_reaches_nobody_with_the_cancellations_feedback(table, atype, reached, feedback):
    game, sink = _game(table, ["hermit", "werewolf", "villager", "villager", "seer"])
    assert game.use_on(_role(game, 4), 4, 0, atype, "role") == (reached, feedback)
    assert [(r["player"], r["visitor"], r["ability"]) for r in sink.of("cancelled")] == (
        [(0, 4, atype)] if reached is None else [])
    assert game.cancel_visit("late") is False     # no visit is being resolved


# ---------------------------------------------------------------------------- killings

@pytest.mark.parametrize("kind, against, stopped", [
    ("attack", "attacks", True), ("attack", "kills", True), ("attack", "attacks-lynches", True),
    ("attack", "all", True), ("attack", "lynches", False), ("attack", "banishments", False),
    ("kill", "kills", True), ("kill", "all", True), ("kill", "attacks", False),
    ("lynch", "lynches", True), ("lynch", "attacks-lynches", True), ("lynch", "all", True),
    ("lynch", "kills", False),
    ("banish", "banishments", True), ("banish", "all", False),
    ("true kill", "all", False), ("true banish", "banishments", False),
])
def test_a_defense_stops_the_killings_it_protects_from(table, kind, against, stopped):
    """WWRF section 4.1: which defense stops which killing; true killings are stopped by none."""
    game, sink = _game(table)
    game.add_defense(0, against, "active", _role(game, 4), "persistent")
    assert game.killing(kind, 0, _role(game, 1), 1) is (not stopped)
    assert game.state["players"][0]["alive"] is (stopped)
    assert len(sink.of("defended")) == (1 if stopped else 0)


def test_defenses_are_used_in_their_order_and_in_their_phase(table):
    """The first defense of the order absence, active, passive, partial, recruitment is used (an ~UntilUse
    one is used up); a defense ``during`` night does not hold by day."""
    game, sink = _game(table)
    _at(game, "day", 1)
    game.add_defense(0, "attacks", "passive", _role(game, 4), "untiluse")
    game.add_defense(0, "attacks", "partial", _role(game, 4), "untiluse", during="night")
    game.add_defense(0, "attacks", "active", _role(game, 5), "untiluse")
    assert game.killing("attack", 0, _role(game, 1), 1) is False
    assert game.killing("attack", 0, _role(game, 1), 1) is False
    assert [(r["kind"], r["defense"], r["killing"]) for r in sink.of("defended")] == [
        ("active", "town-crier", "attack"), ("passive", "seer", "attack")]
    assert game.killing("attack", 0, _role(game, 1), 1) is True    # the night's defense: not by day
    assert game.state["players"][0]["death"] == {"type": "attack", "phase": "Day 1"}
    assert game.killing("attack", 0, _role(game, 1), 1) is False   # the dead are not killed again
    assert [r["player"] for r in sink.of("death")] == [0]


def test_a_death_is_recorded_with_its_killing_and_role_and_a_banished_player_is_a_ghost(table):
    game, sink = _game(table)
    _at(game, "night", 2)
    assert game.killing("banish", 4, _role(game, 1), 1) is True
    assert sink.of("death") == [{"type": "death", "player": 4, "killing": "banish", "role": "seer"}]
    assert game.state["players"][4]["death"] == {"type": "banish", "phase": "Night 2"}
    assert game.has_attribute(4, "ghostly")
    game.die(2, "true banish")
    assert game.has_attribute(2, "ghostly")
    game.die(3, "lynch")
    assert not game.has_attribute(3, "ghostly")
    assert [len([a for a in game.state["players"][s]["attrs"]]) for s in (2, 3, 4)] == [1, 0, 1]


def test_an_absent_player_is_hit_where_they_are(table):
    """WWRF absence: a player absent at another's home is safe at their own (the absence is a defense) and
    is hit by an attack or a kill at that home (each killing on its own); a lynch there does not reach them."""
    game, sink = _game(table)
    game.add_defense(2, "attacks", "absence", _role(game, 2), "persistent", at=3)
    assert game.killing("attack", 2, _role(game, 1), 1) is False        # not at home
    assert sink.of("defended")[-1]["kind"] == "absence"
    game.add_defense(3, "all", "active", _role(game, 4), "persistent")
    assert game.killing("attack", 3, _role(game, 1), 1) is False        # the host survives ...
    assert game.state["players"][2]["alive"] is False                    # ... the guest at 3 does not
    assert [(r["player"], r["killing"]) for r in sink.of("death")] == [(2, "attack")]


def test_a_lynch_does_not_reach_the_absent(table):
    game, _ = _game(table)
    game.add_defense(2, "attacks", "absence", _role(game, 2), "persistent", at=3)
    game.killing("lynch", 3, None, None)
    assert game.state["players"][2]["alive"] is True and game.state["players"][3]["alive"] is False


def test_a_pack_attack_hits_who_is_absent_at_the_packs_place(table):
    """The pack's hunt is made at the pack's place (its @AttackLocation): players absent there are hit too."""
    game, _ = _game(table)
    pack = game.state["groups"]["werewolf-pack"]["card"]
    game.add_defense(5, "attacks", "absence", _role(game, 5), "persistent", at="werewolf-pack")
    game.add_defense(2, "attacks", "absence", _role(game, 2), "persistent", at="lovers")
    assert game.killing("attack", 0, pack, 1) is True
    alive = [p["alive"] for p in game.state["players"]]
    assert alive == [False, True, True, True, True, False]


@pytest.mark.parametrize("source, by, location", [
    ("pack", 1, "werewolf-pack"), ("wolf", 1, 1), ("wolf", 0, 0), (None, None, None), ("wolf", -1, None),
])
def test_the_attack_location_is_the_groups_place_else_the_attacker(table, source, by, location):
    game, _ = _game(table)
    iid = {"pack": game.state["groups"]["werewolf-pack"]["card"], "wolf": _role(game, 1), None: None}[source]
    assert game.attack_location(iid, by) == location


def test_resurrection_and_leaving_the_game(table):
    """A living player cannot be resurrected nor one who left; a dead one can.  A player leaves the game only
    while alive and only once."""
    game, sink = _game(table)
    st = game.state
    assert game.resurrect(0) is False
    game.die(0, "kill")
    assert game.resurrect(0) is True and st["players"][0]["alive"] and st["players"][0]["death"] is None
    assert sink.of("resurrect") == [{"type": "resurrect", "player": 0}]
    assert game.leave_game(2, "ascended") is True
    assert st["players"][2]["left"] == "ascended" and st["players"][2]["alive"] is False
    assert sink.of("ascended") == [{"type": "ascended", "player": 2}]
    assert game.leave_game(2, "descended") is False and st["players"][2]["left"] == "ascended"
    game.die(3, "kill")
    assert game.leave_game(3, "left") is False and st["players"][3]["left"] is None


# ---------------------------------------------------------------------------- voting power and polls

def test_voting_power_special_manipulations_come_after_the_others(table):
    """WWRF voting power: manipulations apply oldest first, the special ones after the others; hidden power
    counts only where the tally counts it; private power is another number (polls in a group's channel)."""
    game, _ = _game(table)
    src = _role(game, 4)
    game.add_power(0, "public", "add", 2, src, "persistent")
    game.add_power(0, "special", "set", 5, src, "persistent")
    game.add_power(0, "public", "add", 1, src, "persistent")
    game.add_power(0, "hidden", "add", 3, src, "persistent")
    game.add_power(0, "private", "add", -4, src, "persistent")
    game.add_power(1, "public", "set", 7, src, "persistent")
    game.add_power(2, "hidden", "add", 3, src, "persistent")
    assert game.power_of(0) == 5 and game.power_of(0, hidden=True) == 5    # the special one is last
    assert game.power_of(2) == 1 and game.power_of(2, hidden=True) == 4
    assert game.power_of(0, "private") == 0 and game.power_of(1, "private") == 1 and game.power_of(3) == 1
    assert game.power_of(1) == 7


@pytest.mark.parametrize("effects, poll, votes", [
    ([("add", 2), ("add", 1)], "lynch", 3),
    ([("add", 2), ("set", 1), ("add", 1)], "lynch", 2),
    ([("add", -2)], "lynch", 0),
    ([("add", 2)], "straw-poll", 0),       # lynch starting votes count in the lynch only
    ([], "lynch", 0),
])
def test_lynch_starting_votes(table, effects, poll, votes):
    game, _ = _game(table)
    for op, n in effects:
        game.add_power(3, "lynchstart", op, n, _role(game, 4), "persistent")
    game.add_power(2, "lynchstart", "add", 5, _role(game, 4), "persistent")
    game.add_power(3, "public", "add", 4, _role(game, 4), "persistent")
    assert game.starting_votes(3, poll) == votes


class Script:
    """Votes as ``votes`` says (seat -> answer), answers ``change_vote`` from ``changes`` (default: keep);
    ``asked``: (kind, player, options) of every request."""

    def __init__(self, votes, changes=None):
        self.votes, self.changes, self.asked = votes, changes or {}, []

    def decide(self, req):
        self.asked.append((req["kind"], req["player"], list(req["options"])))
        if req["kind"] == "vote":
            return self.votes.get(req["player"])
        if req["kind"] == "change_vote":
            return self.changes.get(req["player"], req["options"][0])
        raise AssertionError(req)


def test_a_poll_asks_its_voters_in_seat_order_records_the_votes_and_closes(table):
    """The Straw Poll (options and voters: the living; seat 3 is dead) in the village square: seat 1 abstains
    silently, seat 4 too; the Town Crier (seat 5) hears of each vote cast; everybody keeps their vote."""
    script = Script({0: 2, 1: None, 2: 4, 4: None, 5: 0})
    game, sink = _game(table, decider=script)
    game.die(3, "kill")
    game.create_poll("straw-poll", "village-square", None)
    assert sink.of("poll_open") == [{"type": "poll_open", "poll": "straw-poll", "where": "village-square",
                                     "title": None}]
    game.run_polls()
    living = [0, 1, 2, 4, 5]
    assert [(k, p, o) for k, p, o in script.asked if k == "vote"] == [("vote", s, living) for s in living]
    assert [(p, o) for k, p, o in script.asked if k == "change_vote"] == [
        (0, [2, 0, 1, 4, 5]), (2, [4, 0, 1, 2, 5]), (5, [0, 1, 2, 4, 5])]
    assert [(r["player"], r["target"]) for r in sink.of("vote")] == [(0, 2), (2, 4), (5, 0)]
    assert game.state["players"][5]["learned"] == ["Player 4 was killed.",
        "A vote was cast for Player 3.", "A vote was cast for Player 5.", "A vote was cast for Player 1."]
    (close,) = sink.of("poll_close")
    assert close["winner"] in (0, 2, 4) and close["votes"] == [[0, 1], [2, 1], [4, 1]] and close["hidden"] == []
    assert [p["open"] for p in game.state["polls"]] == [False]
    game.run_polls()                      # a closed poll is not voted again
    assert len(sink.of("poll_close")) == 1


def test_a_vote_can_be_withdrawn_or_changed_before_the_poll_closes(table):
    """WWRF On Vote Remove / On Vote Change: seats 0 and 2 withdraw (no answer), seat 3 moves from 4 to 5:
    5 wins with 2 votes."""
    script = Script({0: 2, 2: 4, 3: 4, 4: 5}, {0: None, 2: None, 3: 5})
    game, sink = _game(table, decider=script)
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert [(r["player"], r["target"]) for r in sink.of("unvote")] == [(0, 2), (2, 4)]
    assert [(r["player"], r["old"], r["target"]) for r in sink.of("revote")] == [(3, 4, 5)]
    close = sink.of("poll_close")[0]
    assert close["winner"] == 5 and close["votes"] == [[5, 2]]


def test_vote_changes_can_be_turned_off(table):
    script = Script({0: 2, 2: 4})
    game, sink = _game(table, decider=script, settings={"vote_changes": False})
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert [k for k, _p, _o in script.asked] == ["vote"] * 6


def test_unvotable_and_disqualified_players(table):
    """Poll manipulations: an unvotable player is no option; a disqualified one cannot win (the next most
    voted does).  Each holds for its poll only."""
    script = Script({0: 2, 1: 2, 2: 3, 3: 1, 4: 3, 5: 2})
    game, sink = _game(table, decider=script)
    src = _role(game, 4)
    game.add_poll_effect("unvotable", "straw-poll", 4, None, src, "persistent")
    game.add_poll_effect("unvotable", "lynch", 5, None, src, "persistent")
    game.add_poll_effect("disqualified", "straw-poll", 2, None, src, "persistent")
    game.add_poll_effect("disqualified", "lynch", 3, None, src, "persistent")
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert script.asked[0] == ("vote", 0, [0, 1, 2, 3, 5])
    close = sink.of("poll_close")[0]
    assert close["winner"] == 3 and close["votes"] == [[1, 1], [2, 3], [3, 2]]


def test_votes_added_to_a_player_count_hidden_ones_are_not_shown(table):
    game, sink = _game(table)
    src = _role(game, 4)
    game.add_poll_effect("votes", "lynch", 3, 2, src, "persistent")
    game.add_poll_effect("hiddenvotes", "lynch", 0, 3, src, "persistent")
    game.add_poll_effect("votes", "straw-poll", 4, 9, src, "persistent")
    game.add_poll_effect("votes", "lynch", 4, 0, src, "persistent")
    poll = {"poll": "lynch", "votes": {1: 3, 2: 0}, "where": "village-square", "creator": None, "open": True}
    shown = {}
    tally, eligible, tied = game._poll_tally(poll, shown)
    assert tally == {3: 3, 0: 4} and shown == {3: 3, 0: 1} and tied == [0]
    game._close_poll(poll)
    close = sink.of("poll_close")[0]
    assert close["winner"] == 0 and close["votes"] == [[0, 1], [3, 3]] and close["hidden"] == [[0, 3]]


def test_a_poll_in_a_groups_channel_weighs_private_voting_power(table):
    """The pack's hunt is held in the pack's channel: a vote there weighs the voter's private voting power,
    and its records name the members who see them."""
    game, sink = _game(table)
    game.add_power(1, "private", "set", 3, _role(game, 4), "persistent")
    game.add_power(1, "public", "set", 0, _role(game, 4), "persistent")
    poll = {"poll": "pack-hunt", "votes": {1: 2}, "where": "werewolf-pack", "creator": None, "open": True}
    assert game._poll_tally(poll)[0] == {2: 3}
    game._close_poll(poll)
    close = sink.of("poll_close")[0]
    assert close["winner"] == 2 and close["to"] == [1] and close["votes"] == [[2, 3]]


def test_deleted_added_and_cancelled_polls(table):
    """Delete Poll: the next creation opens nothing (used up); Add Poll: one more copy opens; Cancel Poll:
    the poll closes without its result (the lynch kills nobody), silently or not."""
    game, sink = _game(table, decider=Script({0: 2, 1: 2}))
    src = _role(game, 4)
    game.add_poll_effect("polldelete", "lynch", None, None, src, "untiluse")
    lynch = game._poll_card("lynch")
    game.create_poll("lynch", "village-square", lynch)
    assert sink.of("poll_deleted") == [{"type": "poll_deleted", "poll": "lynch"}] and game.state["polls"] == []
    game.add_poll_effect("polladd", "lynch", None, None, src, "untiluse")
    game.create_poll("lynch", "village-square", lynch)
    assert len(game.state["polls"]) == 2 and len(sink.of("poll_open")) == 2
    assert [e for e in game.state["lasting"] if e["type"] in ("polladd", "polldelete")] == []
    game.add_poll_effect("pollcancel", "lynch", None, "silent", src, "untiluse")
    game.run_polls()
    assert sink.of("poll_cancelled") == [{"type": "poll_cancelled", "poll": "lynch", "silent": True}]
    assert game.state["players"][2]["alive"] is False      # the second copy closed: seat 2 lynched
    assert [r["player"] for r in sink.of("death")] == [2]


def test_a_poll_the_game_lacks_is_an_error(table):
    game, _ = _game(table)
    for poll in ("mayor", "lovers"):
        with pytest.raises(GameError) as err:
            game.create_poll(poll, "village-square", None)
        assert str(err.value) == "unknown poll %r" % poll
    game.state["table"].remove(game._poll_card("straw-poll"))
    with pytest.raises(GameError) as err:
        game._poll_card("straw-poll")
    assert str(err.value) == "poll 'straw-poll' is not on the table"


@pytest.mark.parametrize("votes, executor", [({0: 2, 3: 2, 4: 5}, (0, 3)), ({4: 3}, (4,))])
def test_the_lynch_is_carried_out_by_a_voter_for_its_winner(table, votes, executor):
    """The lynch's result (its rule ``~pollclosed~ lynch() to(winner)`` and ``log(str(executor) + ' reads the
    verdict.')``): the executor is one of the voters for the winner."""
    game, sink = _game(table, decider=Script(votes))
    game.create_poll("lynch", "village-square", game._poll_card("lynch"))
    game.run_polls()
    winner = sink.of("poll_close")[0]["winner"]
    assert game.state["players"][winner]["alive"] is False
    (log,) = sink.of("log")
    assert log["value"] in ["Player %d reads the verdict." % (s + 1) for s in executor]


def test_a_poll_nobody_votes_in_is_skipped(table):
    game, sink = _game(table, decider=Script({}))
    game.create_poll("lynch", "village-square", game._poll_card("lynch"))
    game.run_polls()
    assert sink.of("poll_close")[0]["winner"] is None and sink.of("death") == []
    assert [r["text"] for r in sink.of("announce")] == ["No one could be agreed upon; the gallows stay empty today."]


@pytest.fixture(scope="module")
def worded(tmp_path_factory):
    """The werewolf game whose Straw Poll also offers the words Abstain and Random (WWRF ``Available Options:
    @All, Abstain, Random``), Random landing on a living player who is not lupine."""
    game_dir = tmp_path_factory.mktemp("worded") / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "straw-poll.ini"
    text = ini.read_text(encoding="utf-8")
    assert "options = players[alive]\n" in text
    ini.write_text(text.replace("options = players[alive]\n", "options = players[alive]\noptionwords = Abstain, "
                                "Random\nrandom = players[alive]::lacks('lupine')\n"), encoding="utf-8")
    return load_wolf_table(game_dir)


def test_abstain_said_aloud_is_recorded_and_takes_a_vote_back(worded):
    """WWRF option Abstain: an abstention said aloud (a vote record for ``abstain``, no vote counted); as the
    answer to reconsidering, it withdraws the vote."""
    script = Script({0: "abstain", 2: 4, 3: 4, 4: 3}, {2: "abstain"})
    game, sink = _game(worded, decider=script)
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert script.asked[0] == ("vote", 0, [0, 1, 2, 3, 4, 5, "abstain", "random"])
    assert [(r["player"], r["target"]) for r in sink.of("vote")] == [(0, "abstain"), (2, 4), (3, 4), (4, 3)]
    assert [(p, o[0]) for k, p, o in script.asked if k == "change_vote"] == [(2, 4), (3, 4), (4, 3)]
    assert [(r["player"], r["target"]) for r in sink.of("unvote")] == [(2, 4)]
    assert game.state["players"][5]["learned"] == [
        "A vote was cast for Player 5.", "A vote was cast for Player 5.", "A vote was cast for Player 4."]
    close = sink.of("poll_close")[0]
    assert close["votes"] == [[3, 1], [4, 1]] and close["winner"] in (3, 4)


def test_a_random_winning_lands_on_one_of_the_polls_random_players(worded):
    """WWRF option Random: when Random wins, the poll's result is a player drawn from its ``random`` players
    (here the living who are not lupine: never the werewolf at seat 1)."""
    picks = set()
    for voter in range(6):
        game, sink = _game(worded, decider=Script({0: "random", 2: "random", 3: 4, voter: "random"}))
        game.create_poll("straw-poll", "village-square", None)
        game.run_polls()
        (drawn,) = sink.of("poll_random")
        close = sink.of("poll_close")[0]
        assert close["votes"][-1][0] == "random" and close["winner"] == drawn["player"]
        picks.add(drawn["player"])
    assert picks <= {0, 2, 3, 4, 5}


# ---------------------------------------------------------------------------- actions offered and used

ACTIONS = {
    # a target among the living others who are not lupine, never the same twice in a row
    "one": "timing = immediate day\nprompt = px.one\ntarget = player[alive]::not(me)\n"
           "condition = not has(selection, 'lupine')\nsuccession = no target succession\n"
           "action = learn('chose ' + str(selection))\n",
    # no target and no prompt key: the rule's id is the prompt
    "bare": "timing = immediate day\naction = learn('used')\n",
    # two players, forced, of two teams
    "pair": "timing = immediate day\nprompt = px.pair\nparams = forced\nsecondary = player\n"
            "condition = secondary == nil or selection.team != secondary.team\ntarget = <2>player[alive]\n"
            "action = learn(str(selection) + ' & ' + str(secondary))\n",
    # a player, then a role
    "mask": "timing = immediate day\nprompt = px.mask\nsecondary = role\ntarget = player[alive]::not(me)\n"
            "action = learn(str(selection) + ' as ' + str(secondaryrole))\n",
    # forced, among the lupine
    "push": "timing = immediate day\nprompt = px.push\nparams = forced\nforced = players[alive]::has('lupine')\n"
            "target = player[alive]\naction = learn('pushed ' + str(selection))\n",
    # a value that is not a player
    "vow": "timing = immediate day\nprompt = px.vow\nselects = boolean\naction = setTarget(boolean, selectedvalue)\n",
    "later": "timing = immediate day\ntemporal = day 3+\naction = learn('late')\n",
}


@pytest.fixture(scope="module")
def acting(tmp_path_factory):
    """The werewolf game whose Prophet has the actions of ACTIONS too (sections ``prophet--NAME``)."""
    game_dir = tmp_path_factory.mktemp("acting") / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "prophet.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "".join(
        "\n[prophet--%s]\n%s" % (name, keys) for name, keys in ACTIONS.items()), encoding="utf-8")
    cards = game_dir / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("  - prophet--2\n", "  - prophet--2\n" + "".join(
        "  - prophet--%s\n" % name for name in ACTIONS)), encoding="utf-8")
    return load_wolf_table(game_dir)


class Answers:
    """Answers ``use_ability`` by prompt (a list: one answer per request, in turn); ``asked``: (prompt,
    options, cancel) of each request."""

    def __init__(self, **answers):
        self.answers = dict((k.replace("_2", "#2").replace("_", "."), list(v)) for k, v in answers.items())
        self.asked = []

    def decide(self, req):
        self.asked.append((req["prompt"], list(req["options"]), req.get("cancel")))
        got = self.answers.get(req["prompt"])
        return got.pop(0) if got else None


ACTORS = ["villager", "werewolf", "prophet", "villager", "seer", "villager"]


def _acting_game(acting, **answers):
    d = Answers(**answers)
    game, sink = _game(acting, ACTORS, d)
    _at(game, "day", 1)
    return game, sink, d


def test_an_action_offers_its_targets_and_resolves_on_the_answer(acting):
    game, sink, d = _acting_game(acting, px_one=[3])
    prophet = _role(game, 2)
    assert game.use_action(2, prophet, "prophet--one", "immediate day") is True
    # the living others from the next seat on, the wolf refused
    assert d.asked == [("px.one", [3, 4, 5, 0], True)]
    assert game.state["players"][2]["learned"] == ["chose Player 4"]
    assert sink.of("use") == [{"type": "use", "player": 2, "ability": "prophet--one", "prompt": "px.one",
                               "target": 3, "value": None}]
    assert game.state["last_used"]["%s:prophet--one" % prophet] == [2, 3]


@pytest.mark.parametrize("phases_later, options", [(1, [4, 5, 0]), (2, [3, 4, 5, 0])])
def test_no_target_succession_refuses_the_last_target_in_the_next_phase_of_the_kind(acting, phases_later, options):
    """WWRF ``No Target Succession``: used on seat 3 on Day 1, not on seat 3 on Day 2; on Day 3 again."""
    game, _sink, d = _acting_game(acting, px_one=[3, None])
    prophet = _role(game, 2)
    game.use_action(2, prophet, "prophet--one", "immediate day")
    _at(game, "day", 1 + phases_later)
    assert game.use_action(2, prophet, "prophet--one", "immediate day") is False   # declined
    assert d.asked[-1] == ("px.one", options, True)
    assert game.state["last_used"]["%s:prophet--one" % prophet] == [2, 3]          # the declined one: no use


def test_an_action_without_a_target_is_offered_as_use_under_its_rules_id(acting):
    game, sink, d = _acting_game(acting, **{"prophet--bare": ["use"]})
    prophet = _role(game, 2)
    assert game.use_action(2, prophet, "prophet--bare", "immediate day") is True
    assert d.asked == [("prophet--bare", ["use"], True)]
    assert sink.of("use")[0]["target"] is None and sink.of("use")[0]["prompt"] == "prophet--bare"
    assert game.state["last_used"]["%s:prophet--bare" % prophet] == [2, None]
    assert game.state["players"][2]["learned"] == ["used"]


def test_an_action_that_may_not_run_or_has_no_target_is_not_offered(acting):
    game, sink, d = _acting_game(acting)
    prophet = _role(game, 2)
    assert game.use_action(2, prophet, "prophet--later", "immediate day") is False   # temporal: day 3+
    assert game.use_action(2, prophet, "prophet--nothing", "immediate day") is False  # no such rule
    for seat in (0, 3, 4, 5):
        game.state["players"][seat]["alive"] = False
    assert game.use_action(2, prophet, "prophet--one", "immediate day") is False     # nobody to target
    assert d.asked == [] and sink.of("use") == []


def test_an_action_of_a_card_no_longer_in_play_is_not_offered(acting):
    game, _sink, d = _acting_game(acting, **{"prophet--bare": ["use"]})
    prophet = _role(game, 2)
    game.state["table"].remove(prophet)
    assert game.use_action(2, prophet, "prophet--bare", "immediate day") is False and d.asked == []


def test_a_declined_action_is_not_used(acting):
    game, sink, d = _acting_game(acting, px_one=[None])
    assert game.use_action(2, _role(game, 2), "prophet--one", "immediate day") is False
    assert len(d.asked) == 1 and sink.of("use") == [] and game.state["players"][2]["learned"] == []


def test_a_forced_action_declined_falls_on_a_random_option_and_asks_the_second_selection_uncancellable(acting):
    """WWRF {Forced}: a declined first selection is drawn among the options; the second selection of a
    forced action cannot be declined; it offers the options but the first."""
    game, sink, d = _acting_game(acting, px_pair=[None], px_pair_2=[1])
    assert game.use_action(2, _role(game, 2), "prophet--pair", "immediate day") is True
    (forced,) = sink.of("forced")
    first = forced["target"]
    assert forced["player"] == 2 and forced["ability"] == "prophet--pair" and first in (0, 1, 2, 3, 4, 5)
    everyone = [2, 3, 4, 5, 0, 1]        # the living from the player's own seat on
    assert d.asked[0] == ("px.pair", everyone, True)
    assert d.asked[1] == ("px.pair#2", [o for o in everyone if o != first], False)
    assert first != 1 and game.state["players"][2]["learned"] == ["Player %d & Player 2" % (first + 1)]


def test_a_pair_the_condition_refuses_is_no_use(acting):
    """The pair must be of two teams (``condition``, checked once both are chosen): two villagers are refused."""
    game, sink, d = _acting_game(acting, px_pair=[0], px_pair_2=[3])
    assert game.use_action(2, _role(game, 2), "prophet--pair", "immediate day") is False
    assert sink.of("refused") == [{"type": "refused", "player": 2, "ability": "prophet--pair"}]
    assert sink.of("use") == [] and game.state["players"][2]["learned"] == []


def test_a_declined_second_selection_is_no_use(acting):
    game, sink, d = _acting_game(acting, px_pair=[0], px_pair_2=[None])
    with pytest.raises(InvalidDecision):
        game.use_action(2, _role(game, 2), "prophet--pair", "immediate day")   # a forced one cannot be declined
    game, sink, d = _acting_game(acting, px_mask=[0], px_mask_2=[None])
    assert game.use_action(2, _role(game, 2), "prophet--mask", "immediate day") is False
    assert d.asked[1][2] is True and sink.of("use") == []


def test_a_second_selection_of_a_role_offers_every_role(acting):
    game, sink, d = _acting_game(acting, px_mask=[4], px_mask_2=["werewolf"])
    assert game.use_action(2, _role(game, 2), "prophet--mask", "immediate day") is True
    roles = sorted(m for m, v in acting.data.models.items() if v.get("type") == "role")
    assert d.asked[1] == ("px.mask#2", roles, True)
    assert game.state["players"][2]["learned"] == ["Player 5 as werewolf"]


def test_a_forced_action_falls_among_its_forced_players(acting):
    """WWRF {Forced: S}: a declined action falls on one of S among the options (the werewolf, seat 1)."""
    game, sink, d = _acting_game(acting)
    assert game.use_action(2, _role(game, 2), "prophet--push", "immediate day") is True
    assert sink.of("forced")[0]["target"] == 1 and game.state["players"][2]["learned"] == ["pushed Player 2"]


@pytest.mark.parametrize("answer, target", [("true", True), ("false", False)])
def test_an_action_that_selects_a_boolean(acting, answer, target):
    game, sink, d = _acting_game(acting, px_vow=[answer])
    prophet = _role(game, 2)
    assert game.use_action(2, prophet, "prophet--vow", "immediate day") is True
    assert d.asked == [("px.vow", ["true", "false"], True)]
    assert game.card(prophet)["target"] is target
    use = sink.of("use")[0]
    assert use["target"] is None and use["value"] == answer
    assert game.state["last_used"]["%s:prophet--vow" % prophet] == [2, answer]


# ---------------------------------------------------------------------------- roles, teams, attributes, groups

def test_a_players_attributes_come_from_their_roles_and_the_attributes_they_wear(table):
    """A role's ``attributes`` (the Werewolf is Lupine), an attribute worn, an extra role and its attributes."""
    game, _ = _game(table)
    assert game.has_attribute(1, "lupine") and not game.has_attribute(0, "lupine")
    game.apply_attribute(0, "inked", _role(game, 4), "persistent")
    assert game.has_attribute(0, "inked") and not game.has_attribute(0, "doused")
    game.grant(3, "den-keeper", _role(game, 4))
    assert game.has_attribute(3, "den-keeper") and game.has_attribute(3, "lupine")
    assert not game.has_attribute(2, "den-keeper")


def test_an_attribute_is_worn_once_with_up_to_three_values_and_removed(table):
    game, sink = _game(table)
    src = _role(game, 4)
    assert game.apply_attribute(0, "inked", src, "persistent", ["a", "b", "c", "d"]) is True
    assert game.apply_attribute(0, "inked", src, "persistent", ["x"]) is False      # already worn
    (iid,) = game.state["players"][0]["attrs"]
    card = game.card(iid)
    assert (card["values"], card["source"], card["owner"], card["until"]) == (["a", "b", "c"], src, 0, "persistent")
    game.change_value(0, "inked", 2, "B")
    game.change_value(0, "inked", 0, "none")       # values count from 1 to 3
    game.change_value(0, "inked", 4, "none")
    game.change_value(0, "doused", 1, "none")      # not worn
    assert card["values"] == ["a", "B", "c"]
    assert [(r["index"], r["value"]) for r in sink.of("value")] == [(2, "B")]
    with pytest.raises(GameError) as err:
        game.apply_attribute(0, "glowing", src, "persistent")
    assert str(err.value) == "unknown attribute 'glowing'"
    assert game.remove_attribute(0, "inked") is True and game.remove_attribute(0, "inked") is False
    assert game.state["players"][0]["attrs"] == [] and iid not in game.state["table"]
    assert [(r["attribute"], r["on"]) for r in sink.of("attribute")] == [("inked", True), ("inked", False)]


def test_a_role_that_leaves_play_takes_its_effects_and_attributes_with_it(table):
    """Effects tied to an element (~Permanent, the ~Attribute durations) end when it leaves play; ~Persistent
    ones stay, and so do another element's."""
    game, _ = _game(table)
    seer, crier = _role(game, 4), _role(game, 5)
    game.add_power(0, "public", "add", 1, seer, "permanent")
    game.add_power(0, "public", "add", 10, seer, "persistent")
    game.add_power(0, "public", "add", 100, crier, "permanent")
    game.apply_attribute(2, "inked", seer, "permanent")
    game.apply_attribute(3, "inked", seer, "nextdayattribute")
    game.apply_attribute(2, "doused", seer, "persistent")
    game.apply_attribute(3, "doused", crier, "permanent")
    assert game.power_of(0) == 112
    assert game.change_role(4, "villager") is True
    assert game.power_of(0) == 111
    assert [game.has_attribute(2, "inked"), game.has_attribute(3, "inked")] == [False, False]
    assert [game.has_attribute(2, "doused"), game.has_attribute(3, "doused")] == [True, True]
    assert seer not in game.state["table"] and game.role_of(4) == "villager"


def test_a_role_change_deals_a_new_card_and_sets_the_team(table):
    game, sink = _game(table)
    old = _role(game, 0)
    assert game.change_role(0, "werewolf", by=4) is True
    st = game.state
    assert st["players"][0]["role"] != old and game.role_of(0) == "werewolf"
    assert st["players"][0]["team"] == "werewolves"
    assert old not in st["table"] and st["players"][0]["role"] in st["table"]
    assert sink.of("role_change") == [{"type": "role_change", "player": 0, "role": "werewolf"}]
    assert sink.of("team") == [{"type": "team", "player": 0, "team": "werewolves"}]
    assert st["players"][0]["original_role"] == "villager"
    with pytest.raises(GameError) as err:
        game.change_role(0, "lovers")
    assert str(err.value) == "unknown role 'lovers'"


def test_loyalty_keeps_a_player_on_their_team(table):
    game, sink = _game(table)
    game.state["players"][0]["loyal"]["alignment"] = "villagers"
    assert game.change_role(0, "werewolf") is False and game.role_of(0) == "villager"
    assert game.set_team(0, "werewolves") is False and game.state["players"][0]["team"] == "villagers"
    assert sink.of("loyal") == [{"type": "loyal", "player": 0, "team": "villagers"}] * 2
    assert game.change_role(0, "seer") is True and game.role_of(0) == "seer"
    assert game.set_team(2, "villagers") is False             # already there: no change
    assert game.set_team(2, "travellers") is True and game.state["players"][2]["team"] == "travellers"
    assert sink.of("team") == [{"type": "team", "player": 2, "team": "travellers"}]


def test_granting_revoking_and_transferring_extra_roles(table):
    game, sink = _game(table)
    st = game.state
    game.grant(3, "torch-bearer", _role(game, 4))
    (torch,) = st["players"][3]["extras"]
    assert game.card(torch)["owner"] == 3 and torch in st["table"]
    assert sink.of("grant") == [{"type": "grant", "player": 3, "role": "torch-bearer"}]
    game.transfer(torch, 0)
    assert st["players"][3]["extras"] == [] and st["players"][0]["extras"] == [torch]
    assert (game.card(torch)["owner"], game.card(torch)["ctrl"]) == (0, 0)
    assert sink.of("transfer") == [{"type": "transfer", "from": 3, "player": 0, "role": "torch-bearer"}]
    assert game.revoke(3, "torch-bearer") is False
    assert game.revoke(0, "torch-bearer") is True
    assert torch not in st["table"] and sink.of("revoke") == [{"type": "revoke", "player": 0, "role": "torch-bearer"}]
    assert st["players"][0]["extras"] == []


def test_switching_roles_swaps_the_cards_and_the_teams(table):
    game, sink = _game(table)
    a, b = _role(game, 0), _role(game, 1)
    game.switch_roles(0, 1)
    st = game.state
    assert (st["players"][0]["role"], st["players"][1]["role"]) == (b, a)
    assert (game.card(a)["owner"], game.card(b)["owner"]) == (1, 0)
    assert (st["players"][0]["team"], st["players"][1]["team"]) == ("werewolves", "villagers")


def test_joining_and_leaving_groups(table):
    """A group comes into play with its first member; a member joins once; leaving needs membership."""
    game, sink = _game(table)
    st = game.state
    assert "lovers" not in st["groups"]
    game.join_group(2, "lovers", _role(game, 4), "persistent")
    game.join_group(3, "lovers", _role(game, 4), "persistent")
    game.join_group(3, "lovers", _role(game, 4), "persistent")
    assert st["groups"]["lovers"]["members"] == [2, 3] and game.is_member(3, "lovers")
    card = st["groups"]["lovers"]["card"]
    assert game.card(card)["owner"] == -1 and card in st["table"]
    assert [(r["player"], r["group"]) for r in sink.of("join")] == [(2, "lovers"), (3, "lovers")]
    assert game.leave_group(0, "lovers") is False and game.leave_group(2, "nothing") is False
    assert game.leave_group(2, "lovers") is True and st["groups"]["lovers"]["members"] == [3]
    assert sink.of("leave") == [{"type": "leave", "player": 2, "group": "lovers"}]
    with pytest.raises(GameError) as err:
        game.join_group(0, "gang", _role(game, 4), "persistent")
    assert str(err.value) == "unknown group 'gang'"
    assert game.disband_named("gang") is False
    assert game.disband_named("lovers") is True
    assert "lovers" not in st["groups"] and card not in st["table"] and not game.is_member(3, "lovers")
    assert sink.of("disband") == [{"type": "disband", "group": "lovers"}]


def test_a_group_change_into_a_new_group(table):
    game, sink = _game(table)
    st = game.state
    game.join_group(2, "lovers", _role(game, 4), "persistent")
    old = st["groups"]["lovers"]["card"]
    assert game.group_change("lovers", "nothing") is False and "lovers" in st["groups"]
    assert game.group_change("gang", "lovers") is False
    del st["groups"]["werewolf-pack"]   # the pack out of play (its card aside): a group change creates it
    assert game.group_change("lovers", "werewolf-pack") is True
    assert "lovers" not in st["groups"] and st["groups"]["werewolf-pack"]["members"] == [2]
    assert old not in st["table"] and st["groups"]["werewolf-pack"]["card"] in st["table"]
    assert sink.of("group_change") == [{"type": "group_change", "group": "lovers", "to": "werewolf-pack"}]


# ---------------------------------------------------------------------------- information

def test_learning_revealing_and_announcing(table):
    """``learn`` tells one player (the narrator's learning is an announcement); ``reveal`` says a text in a
    group's channel (its members learn it), to ``self`` (the player whose rule reveals), or in a place."""
    game, sink = _game(table)
    st = game.state
    game.learn(3, "psst", _role(game, 4))
    assert st["players"][3]["learned"] == ["psst"] and game.last_feedback == "psst"
    assert sink.of("learn") == [{"type": "learn", "player": 3, "text": "psst", "source": "seer"}]
    game.learn(-1, "hear ye", _role(game, 4))
    game.learn(None, "hear me", _role(game, 4))
    assert st["story"] == ["hear ye", "hear me"]
    assert [r["text"] for r in sink.of("announce")] == ["hear ye", "hear me"]
    game.reveal("werewolf-pack", "howl", _role(game, 4), 4)
    assert st["players"][1]["learned"] == ["howl"] and sink.of("reveal")[-1]["to"] == [1]
    game.reveal("self", "me", _role(game, 5), 5)
    assert st["players"][5]["learned"] == ["me"]
    game.reveal("village-square", "all", _role(game, 5), 5)
    assert "to" not in sink.of("reveal")[-1] and sink.of("reveal")[-1]["where"] == "village-square"
    pack = st["groups"]["werewolf-pack"]["card"]
    game.reveal("@self", "from the pack", pack, None)
    assert st["players"][1]["learned"] == ["howl", "from the pack"]
    assert sink.of("reveal")[-1]["where"] == "werewolf-pack"


@pytest.mark.parametrize("command, text", [
    ("listalive", "Player 1, Player 3, Player 5, Player 6"),
    ("listdead", "Player 2, Player 4"),
    ("listplayers", "Player 1, Player 2, Player 3, Player 4, Player 5, Player 6"),
    ("listroles", "Seer, Town Crier, Villager, Werewolf"),
    ("listsubstitutes", ""),
])
def test_host_commands_answer_in_their_place(table, command, text):
    game, sink = _game(table)
    game.state["players"][1]["alive"] = False
    game.state["players"][3]["alive"] = False
    assert game.host_command(command, "werewolf-pack", _role(game, 4), 4) == text
    assert sink.of("reveal")[-1]["text"] == text and game.state["players"][1]["learned"] == [text]


def test_choices_are_answered_once_by_a_named_option_or_by_asking(table):
    class Chooser:
        asked = []

        def decide(self, req):
            Chooser.asked.append((req["kind"], req["player"], req["options"], req["prompt"]))
            return req["options"][-1]

    game, sink = _game(table, decider=Chooser())
    game.create_choice(2, "path", ["Left", "Right"], _role(game, 2))
    assert sink.of("choice") == [{"type": "choice", "player": 2, "choice": "path", "options": ["Left", "Right"]}]
    assert game.choose(2, "path", None, "up") is None and "2:path" in game.state["choices"]
    assert game.choose(3, "path", None, "left") is None
    assert game.choose(2, "path", 4, "LEFT") == "Left" and "2:path" not in game.state["choices"]
    assert game.choose(2, "path", 4, "left") is None                  # answered once
    game.create_choice(2, "door", ["Red", "Blue"], _role(game, 2))
    assert game.choose(2, "door", None) == "Blue" and Chooser.asked == [("choose_action", 2, ["Red", "Blue"], "door")]
    assert [(r["choice"], r["option"]) for r in sink.of("chosen")] == [("path", "Left"), ("door", "Blue")]
    game.create_choice(2, "none", [], _role(game, 2))
    assert game.choose(2, "none", None) is None


def test_the_values_an_action_may_select(table):
    game, _ = _game(table)
    roles = sorted(m for m, v in table.data.models.items() if v["type"] == "role")
    assert game.value_options(0, "role") == roles and len(roles) == 44
    assert game.value_options(0, "attribute") == ["chronicle", "doused", "ghostly", "inked", "lupine", "overrun"]
    assert game.value_options(0, "category") == ["Investigative", "Killing", "Miscellaneous", "Power", "Protective",
                                                 "Social", "Support"]
    assert game.value_options(0, "fullcategory") == [
        "Extra-Power", "Townsfolk-Investigative", "Townsfolk-Killing", "Townsfolk-Miscellaneous", "Townsfolk-Power",
        "Townsfolk-Protective", "Townsfolk-Social", "Unaligned-Miscellaneous", "Werewolf-Killing",
        "Werewolf-Miscellaneous", "Werewolf-Support"]
    assert game.value_options(0, "boolean") == ["true", "false"]
    assert game.value_options(0, "colour") == []
    game.create_choice(2, "b", ["Yes", "No"], _role(game, 2))
    game.create_choice(2, "a", ["Maybe", "Yes"], _role(game, 2))
    game.create_choice(3, "c", ["Other"], _role(game, 3))
    assert game.value_options(2, "option") == ["Maybe", "Yes", "No"]
    assert game.value_options(4, "option") == [] and game.value_options(2, "colour") == []


def test_counters_displays_locks_and_emitted_values(table):
    game, sink = _game(table)
    st = game.state
    game.set_counter(2, 4)
    game.set_card_counter(_role(game, 3), 7)
    assert st["players"][2]["counter"] == 4 and game.card(_role(game, 3))["counter"] == 7
    assert sink.of("counter") == [{"type": "counter", "player": 2, "value": 4},
                                  {"type": "counter", "card": _role(game, 3), "value": 7}]
    game.display(2, "herbs", ["a", "b", "c"])
    game.update_display(2, "herbs", 3, "C")
    game.update_display(2, "herbs", 1, "A")
    game.update_display(2, "herbs", 0, "x")
    game.update_display(2, "herbs", 4, "x")
    game.update_display(3, "herbs", 1, "x")
    assert st["displays"]["2:herbs"] == ["A", "b", "C"] and "3:herbs" not in st["displays"]
    assert [r["values"] for r in sink.of("display")] == [["a", "b", "c"], ["a", "b", "C"], ["A", "b", "C"]]
    game.set_lock("village-square", True)
    game.set_lock("village-square", True)
    assert st["locked"] == ["village-square"]
    game.set_lock("village-square", False)
    game.set_lock("werewolf-pack", False)
    assert st["locked"] == [] and [r["type"] for r in sink.of("lock") + sink.of("unlock")] == ["lock", "lock",
                                                                                                 "unlock", "unlock"]
    game.emit_value(3, "Beacon Lit", False)
    game.emit_value(4, "Dawn", True)
    assert sink.of("emitted") == [{"type": "emitted", "player": 3, "value": "Beacon Lit"}]
    assert st["emits"] == [[4, "Dawn"]]


# ---------------------------------------------------------------------------- commands

CMDS = {
    "trole": "setTarget(role, 'Town Crier') && learn('set')",
    "tattr": "setTarget(attribute, 'Inked')",
    "tcat": "setTarget(category, 'Town Crier')",
    "tbool": "setTarget(boolean, true)",
    "tone": "setTarget(role, ['seer'])",
    "ttwo": "setTarget(role, ['seer', 'villager']) || learn('two: ' + str(result))",
    "tnil": "setTarget(role, nil) || learn('none')",
    "tplayer": "setTarget() to(selection) || learn('off: ' + str(result))",
    "untarget": "untarget()",
    "absent": "absent(selection, attacks) to(me)",
    "absentpack": "absent('Werewolf Pack', kills, night, players[alive]::has('lupine')) to(me)",
    "absentone": "absent([selection], all) to(me)",
    "absenttwo": "absent(getTargets(\"players[alive]::has('lupine')\") + [selection], all) to(me) "
                 "|| learn('two: ' + str(result))",
    "absentnil": "absent(nil, all) to(me) || learn('nil: ' + str(result))",
    "counter": "counter(add, 2) to(me) ; counter(add, 2) to(me) ; counter(add, 1) ; counter(set, 5) to(players[alive]"
               "::has('lupine')) ; counter(add, 3) to(this)",
    "format": "format(['a', 'b'], '<$>') ; learn(str(result))",
    "formatone": "format('x', '$!') ; learn(str(result))",
    "formatroles": "format('seer, werewolf', '* $', ', ', role) ; learn(str(result))",
    "formatnames": "format('Ann;Ben;', '$ and', ';') ; learn(str(result))",
    "obstruct": "obstruct('Investigating', 'Nope') to(selection)",
    "obstructall": "obstruct() to(selection)",
    "obstructchance": "obstruct('killing', ['A', 'B'], [300, 700]) to(selection)",
    "obstructbad": "obstruct('killing', ['A', 'B'], [300]) to(selection)",
    "reveal": "reveal('hi', selection)",
    "revealpack": "reveal('howl', 'Werewolf Pack')",
    "revealself": "reveal('mine', 'self')",
    "revealnil": "reveal('lost', nil) || learn('nowhere')",
    "reveallist": "reveal('all of you', getTargets(\"players[alive]::has('lupine')\") + [selection])",
    "obstructnum": "obstruct('All', 3) to(selection)",
    "votes": "pollManipulate('Lynch', votes, 2) to(selection)",
    "unvotable": "pollManipulate('lynch', unvotable) to(selection)",
    "cancelpoll": "cancelPoll('Lynch', silent)",
    "deletepoll": "deletePoll('Straw Poll')",
    "whisper": "whisper('Seer', 'Ghost', 'Werewolf Pack')",
    "whisperinked": "whisper('Inked')",
    "choices": "choices('Path', 'Left, Right,') to(me) ; choose('Path', 'right')",
    "shuffle": "shuffle('a, b, ,c') ; learn(str(result))",
    "choicesask": "choices('Door', 'Red, Blue', ask) to(selection) ; choices('Gate', 'In, Out') to(me) "
                  "; choose('gate') && learn('chose') ; choose('gate') || learn('none left')",
    "shufflenone": "shuffle(' , ') || learn('nothing')",
    "disguise": "disguise(weak, 'Seer') to(selection)",
    "disguisenight": "disguise(strong, 'town_crier') to(selection) nextnight",
    "protect": "protect(attacks, active) to(selection)",
    "protectday": "protect(all, passive, day, players[alive]::has('lupine')) to(selection) phase",
    "apply": "apply('Inked', 'one', 'two') to(selection)",
    "redirect": "redirect('Killing', players[alive]::has('lupine')) to(selection)",
    "power": "votingPower(public, add, 2) to(selection)",
    "join": "join('Lovers') to(selection)",
    "lock": "lock('Village Square')",
    "unlock": "lock('Village Square') ; unlock('village square') ; lock('Werewolf Pack')",
    "loyalty": "loyalty(alignment, 'Villagers') to(selection)",
    "activate": "activate(ghostly) to(selection)",
    "reset": "resetConversation()",
    "resetpack": "resetConversation('Werewolf Pack')",
    "display": "display('Herb Rack', 'a, b') ; updateDisplay('herb rack', 2, 'B')",
    "updatedisplay": "updateDisplay('herb rack', 2, 'B') ; display('Herb Rack', 'a, b')",
    "emit": "emit('Dawn') to(selection) ; emit('Dusk', end) to(me)",
    "execute": "execute(listalive, 'self') ; learn('> ' + str(result))",
    "countplayers": "countPlayers() to(players[alive]::has('lupine')) ; learn(str(result))",
    "countrole": "countRole('Villager') ; learn(str(result))",
    "countrolewd": "countRole('Seer', wd) ; countRole('Seer', sd) ; learn(str(results.0) + str(results.1))",
    "investigatewd": "investigate(role, wd) to(selection) ; investigate(role) to(selection) "
                     "; learn(str(results.0) + '/' + str(results.1))",
    "store": "store(7) ; learn(str(result))",
    "check": "check(1 > 2) && learn('one') ; check(2 > 1) && learn('two')",
    "descend": "descend() to(selection) && learn('gone')",
    "investigate": "investigate(role) to(selection) ; learn(str(result))",
    "grant": "grant('Torch Bearer') to(selection)",
    "revoke": "grant('torch-bearer') to(selection) ; revoke('Torch Bearer') to(selection) && learn('revoked')",
    "rolechange": "roleChange('Seer') to(selection)",
    "alignment": "alignmentChange('Travellers') to(selection)",
    "groupchange": "join('Lovers') to(selection) ; groupChange('lovers', 'Werewolf Pack')",
    "disband": "join('Lovers') to(selection) ; disband('Lovers') && learn('disbanded')",
    "kill": "kill() to(selection)",
    "banish": "banish() to(selection)",
    "outcome": "investigate(role) to(selection) ; learn(str(outcome(0, 'success')) + '/' + str(outcome(0, 'message'))"
               " + '/' + str(outcome(0, 'result')))",
    "results": "store(1) ; store('two') ; learn(str(results.0) + str(results.1) + str(result))",
    "changevalue": "apply('Inked', 'a') to(selection) ; changeValue('inked', 2, selection) to(selection) "
                   "; changeValue('inked', 1, 'z') to(selection)",
    "resurrect": "resurrect() to(players[dead]) && learn('back') || learn('nobody')",
    "copy": "copy() to(selection)",
    "each": "each(players[alive]::has('lupine') => learn('wolf ' + str(ind)))",
    "eachteam": "each(card in teams('') => learn('team ' + str(ind)))",
    "switch": "switch() to(selection) && learn('switched')",
    "switchself": "switch() to(me) || learn('not with myself')",
}


@pytest.fixture(scope="module")
def commanding(tmp_path_factory):
    """The werewolf game whose Prophet has one action per CMDS entry (``prophet--c-NAME``, prompt ``c.NAME``):
    on a living other player (``selection``), by day; and logs the type and subtype of the first ability of
    each of its actions used (WWRF On Action: @AbilityType, @AbilitySubtype); the Seer announces what visits
    it (WWRF On Visited: @VisitType, @VisitSubtype, @VisitParameter, @SecondVisitParameter)."""
    game_dir = tmp_path_factory.mktemp("commanding") / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "prophet.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "".join(
        "\n[prophet--c-%s]\ntiming = immediate day\nprompt = c.%s\ntarget = player[alive]::not(me)\naction = %s\n"
        % (name, name, action) for name, action in CMDS.items())
        + "\n[prophet--heard]\nauto = ~myaction~ log(str(abilitytype) + '/' + str(abilitysubtype))\n", encoding="utf-8")
    cards = game_dir / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("  - prophet--2\n", "  - prophet--2\n" + "".join(
        "  - prophet--c-%s\n" % name for name in CMDS) + "  - prophet--heard\n").replace(
        "  - seer--divine\n", "  - seer--divine\n  - seer--visited\n"), encoding="utf-8")
    seer = game_dir / "rules" / "seer.ini"
    seer.write_text(seer.read_text(encoding="utf-8") + "\n[seer--visited]\nauto = ~myvisited~ announce(str(visittype) "
                    "+ '/' + str(visitsubtype) + '/' + str(visitparameter) + '/' + str(secondvisitparameter))\n",
                    encoding="utf-8")
    return load_wolf_table(game_dir)


def _command(commanding, name, selection=3, game=None):
    """Run the Prophet's (seat 2) action ``name`` on ``selection`` by day 1: (game, sink, used)."""
    if game is None:
        game, sink = _game(commanding, ACTORS, Answers(**{"c_" + name: [selection]}))
        _at(game, "day", 1)
    else:
        game.decider.answers["c." + name] = [selection]
        sink = game.sink
    used = game.use_action(2, _role(game, 2), "prophet--c-" + name, "immediate day")
    return game, sink, used


@pytest.mark.parametrize("name, target, kind, used, learned", [
    ("trole", "town-crier", "role", True, ["set"]),        # a role's name read as its id
    ("tattr", "inked", "attribute", True, []),
    ("tcat", "Town Crier", "category", True, []),          # another value as written
    ("tbool", True, "boolean", True, []),
    ("tone", "seer", "role", True, []),                    # a list of one value is that value
    ("ttwo", None, None, False, ["two: Failure"]),         # a target is one value
    ("tnil", None, None, False, ["none"]),
    ("tplayer", 3, "player", True, []),
])
def test_set_target_takes_one_value_or_the_first_target(commanding, name, target, kind, used, learned):
    """docs/werewolf.md: ``Target V (Role)`` is ``setTarget(role, V)``: the element's target is that value (a
    role or attribute by its id), without a visit; ``setTarget()`` targets the first target player."""
    game, sink, ok = _command(commanding, name)
    assert ok is True                                     # the action resolved (a failed command is no error)
    assert game.card(_role(game, 2))["target"] == target
    assert [(r["target"], r["kind"]) for r in sink.of("target")] == ([(target, kind)] if used else [])
    assert game.state["players"][2]["learned"] == learned


def test_set_target_on_a_player_is_a_visit_an_obstruction_stops(commanding):
    game, sink = _game(commanding, ACTORS, Answers(c_tplayer=[3]))
    _at(game, "day", 1)
    game.add_obstruction(2, "targeting", None, _role(game, 1), "persistent")
    game.use_action(2, _role(game, 2), "prophet--c-tplayer", "immediate day")
    assert game.card(_role(game, 2))["target"] is None and game.state["players"][2]["learned"] == ["off: Failure"]
    game.card(_role(game, 2))["target"] = 4
    _command(commanding, "untarget", game=game)
    assert game.card(_role(game, 2))["target"] is None


@pytest.mark.parametrize("name, at, against, during, by, learned", [
    ("absent", 3, "attacks", None, None, []),                      # a player's home
    ("absentpack", "werewolf-pack", "kills", "night", [1], []),    # a group's place, by night, from lupine
    ("absentone", 3, "all", None, None, []),                       # a list of one place
    ("absenttwo", None, None, None, None, ["two: Failure"]),        # a list of two places: no absence
    ("absentnil", None, None, None, None, ["nil: Failure"]),
])
def test_an_absence_is_at_one_place(commanding, name, at, against, during, by, learned):
    game, sink, _ = _command(commanding, name)
    found = [(e["player"], e["at"], e["against"], e["during"], e["by"], e["until"]) for e in game.state["lasting"]
             if e["type"] == "defense"]
    assert found == ([(2, at, against, during, by, "permanent")] if at is not None else [])
    assert game.state["players"][2]["learned"] == learned


def test_counters_of_the_owner_a_target_and_the_element(commanding):
    game, _, _ = _command(commanding, "counter")
    st = game.state
    # the owner's twice, the selection's (the rule's targets), the lupine's, the element card's own
    assert [p["counter"] for p in st["players"]] == [0, 5, 4, 1, 0, 0]
    assert game.card(_role(game, 2))["counter"] == 3


@pytest.mark.parametrize("name, learned", [
    ("format", "<a>\n<b>"),
    ("formatone", "x!"),
    ("formatroles", "* Seer\n* Werewolf"),                 # pieces read as role ids: the roles' names
    ("formatnames", "Ann and\nBen and"),                   # a text split at `;`, empty pieces left out
])
def test_format_puts_each_element_in_the_template(commanding, name, learned):
    game, _, _ = _command(commanding, name)
    assert game.state["players"][2]["learned"] == [learned]


@pytest.mark.parametrize("name, abilities, feedback, weights", [
    ("obstruct", "investigating", "Nope", None),
    ("obstructall", "all", None, None),
    ("obstructchance", "killing", ["A", "B"], [300, 700]),
    ("obstructnum", "all", "3", None),                    # a feedback that is no text: as text
])
def test_an_obstruction_holds_its_kind_and_feedback(commanding, name, abilities, feedback, weights):
    game, _, _ = _command(commanding, name)
    (e,) = [e for e in game.state["lasting"] if e["type"] == "obstruct"]
    assert (e["player"], e["abilities"], e["feedback"], e["weights"]) == (3, abilities, feedback, weights)


def test_an_obstruction_with_more_feedbacks_than_chances_is_a_run_time_error(commanding):
    game, sink, _ = _command(commanding, "obstructbad")
    lines = (commanding.data.root / "rules" / "prophet.ini").read_text(encoding="utf-8").splitlines()
    line = lines.index("[prophet--c-obstructbad]") + 5      # its action line
    assert [(e["code"], e["message"], e["file"], e["line"], e["col"]) for e in
            [r["error"] for r in sink.of("rule_error")]] == [
        ("RS510", "obstruct: 2 fake feedbacks and 1 chances", "rules/prophet.ini", line, 10)]
    assert [e for e in game.state["lasting"] if e["type"] == "obstruct"] == []


def test_reveals_to_a_player_a_group_oneself_and_nowhere(commanding):
    game, sink, _ = _command(commanding, "reveal")
    assert game.state["players"][3]["learned"] == ["hi"]
    game, sink, _ = _command(commanding, "revealpack")
    assert game.state["players"][1]["learned"] == ["howl"] and sink.of("reveal")[0]["where"] == "werewolf-pack"
    game, sink, _ = _command(commanding, "revealself")
    assert game.state["players"][2]["learned"] == ["mine"]
    game, sink, _ = _command(commanding, "revealnil")
    assert game.state["players"][2]["learned"] == ["nowhere"] and sink.of("reveal") == []
    game, sink, _ = _command(commanding, "reveallist")               # a list of players: each learns it
    assert [p["learned"] for p in game.state["players"]] == [[], ["all of you"], [], ["all of you"], [], []]


def test_poll_manipulations_and_poll_effects(commanding):
    game, _, _ = _command(commanding, "votes")
    (e,) = [e for e in game.state["lasting"] if e["type"] == "votes"]
    assert (e["poll"], e["player"], e["n"], e["until"], e["ends_at"]) == ("lynch", 3, 2, "nextphase", 3)
    game, _, _ = _command(commanding, "unvotable")
    (e,) = [e for e in game.state["lasting"] if e["type"] == "unvotable"]
    assert (e["poll"], e["player"], e["n"]) == ("lynch", 3, None)
    game, _, _ = _command(commanding, "cancelpoll")
    (e,) = [e for e in game.state["lasting"] if e["type"] == "pollcancel"]
    assert (e["poll"], e["player"], e["n"], e["until"], e["uses_left"]) == ("lynch", None, "silent", "untiluse", 1)
    game, _, _ = _command(commanding, "deletepoll")
    (e,) = [e for e in game.state["lasting"] if e["type"] == "polldelete"]
    assert (e["poll"], e["n"]) == ("straw-poll", None)


def test_a_whisper_connection_is_recorded(commanding):
    game, sink, _ = _command(commanding, "whisper")
    assert sink.of("whisper") == [{"type": "whisper", "player": 2, "to": "seer", "as": "Ghost",
                                   "from": "werewolf-pack", "players": [4]}]
    game, sink, _ = _command(commanding, "whisperinked")
    assert sink.of("whisper") == [{"type": "whisper", "player": 2, "to": "inked", "as": None, "from": None,
                                   "players": []}]
    (e,) = [e for e in game.state["lasting"] if e["type"] == "whisper"]
    assert e["until"] == "persistent"


def test_choices_offered_and_chosen_by_the_rule(commanding):
    game, sink, _ = _command(commanding, "choices")
    assert [(r["player"], r["options"]) for r in sink.of("choice")] == [(2, ["Left", "Right"])]
    assert [(r["player"], r["choice"], r["option"]) for r in sink.of("chosen")] == [(2, "path", "Right")]


def test_shuffle_draws_one_of_its_values(commanding):
    game, sink, _ = _command(commanding, "shuffle")
    (rec,) = sink.of("shuffle")
    assert rec["values"] == ["a", "b", "c"] and game.state["players"][2]["learned"] == [rec["result"]]
    game, sink, _ = _command(commanding, "shufflenone")
    assert sink.of("shuffle") == [] and game.state["players"][2]["learned"] == ["nothing"]


def test_switching_with_another_player_not_with_oneself(commanding):
    game, _, _ = _command(commanding, "switch")
    assert game.role_of(2) == "villager" and game.role_of(3) == "prophet"
    assert [game.state["players"][s]["learned"] for s in (2, 3)] == [["switched"], []]   # told its user
    game, _, _ = _command(commanding, "switchself")
    assert game.role_of(2) == "prophet" and game.state["players"][2]["learned"] == ["not with myself"]


# ---------------------------------------------------------------------------- investigations and disguises

@pytest.mark.parametrize("disguises, levels, seen", [
    ([], None, "werewolf"),
    ([("weak", "seer")], None, "werewolf"),             # no level: no disguise fools it
    ([("weak", "seer")], "none", "werewolf"),
    ([("weak", "seer")], "wd", "seer"),
    ([("weak", "seer")], "sd", "werewolf"),
    ([("weak", "seer")], "sd-wd", "seer"),
    ([("strong", "villager")], "sd", "villager"),
    ([("strong", "villager")], "wd", "werewolf"),
    ([("strong", "villager"), ("weak", "seer")], "sd-wd", "villager"),   # a strong one goes first
    ([("weak", "seer"), ("strong", "villager")], "sd-wd", "villager"),
    ([("strong", "villager"), ("weak", "seer")], "wd", "seer"),
    ([("weak", "seer"), ("weak", "medium")], "wd", "medium"),           # the latest of a kind
    ([("strong", "seer"), ("strong", "medium")], "sd", "medium"),
])
def test_an_investigation_sees_the_disguises_its_levels_say(table, disguises, levels, seen):
    """WWRF disguise levels: (sd) is fooled by strong disguises, (wd) by weak ones, none by neither; a strong
    disguise goes before a weak one.  The werewolf (seat 1) wears the disguises; seat 3 wears a Mimic's."""
    game, sink = _game(table)
    game.add_disguise(3, "strong", "mimic", _role(game, 4), "persistent")
    for strength, role in disguises:
        game.add_disguise(1, strength, role, _role(game, 4), "persistent")
    assert game._visible_role(1, levels) == seen
    name = table.data.models[seen]["name"]
    assert game.investigate(4, 1, "role", None, _role(game, 4), levels) == name
    assert sink.of("investigate")[-1] == {"type": "investigate", "player": 4, "target": 1, "what": "role",
                                          "value": None, "result": name, "source": "seer"}


def test_an_investigation_of_class_category_alignment_or_attribute(table):
    """The class and category are the visible role's; the alignment is the player's own team when the
    visible role is their own (a team changed by an alignment change shows), else the disguise's team."""
    game, _ = _game(table)
    src = _role(game, 4)
    assert game.investigate(4, 1, "class", None, src) == "Werewolf"
    assert game.investigate(4, 1, "category", None, src) == "Killing"
    assert game.investigate(4, 1, "alignment", None, src) == "werewolves"
    game.set_team(0, "travellers")
    assert game.investigate(4, 0, "alignment", None, src) == "travellers"
    game.add_disguise(1, "weak", "seer", src, "persistent")
    assert game.investigate(4, 1, "alignment", None, src, "wd") == "villagers"
    assert game.investigate(4, 1, "category", None, src, "wd") == "Investigative"
    assert game.investigate(4, 1, "attribute", "lupine", src) == "Success"
    assert game.investigate(4, 0, "attribute", "lupine", src) == "Failure"


def test_counting_a_role_counts_the_living_as_they_are_seen(table):
    game, _ = _game(table)
    assert game.count_role("villager", None) == 3
    game.add_disguise(1, "weak", "villager", _role(game, 4), "persistent")
    game.state["players"][0]["alive"] = False
    assert game.count_role("villager", "wd") == 3 and game.count_role("villager", "sd") == 2
    assert game.count_role("werewolf", "none") == 1


# ---------------------------------------------------------------------------- the win and the flow

def test_a_team_wins_with_its_players_who_did_not_leave_and_the_ascended(table):
    game, sink = _game(table)
    st = game.state
    game.leave_game(4, "ascended")
    game.leave_game(0, "left")
    wolves = st["teams"]["werewolves"]
    with pytest.raises(GameOver):
        game.team_wins(wolves)
    assert (st["over"], st["winner"], st["winners"], st["result"]) == (True, "werewolves", [1, 4], "win")
    assert st["reason"] == "win condition of Werewolves"
    assert sink.of("win") == [{"type": "win", "team": "werewolves", "players": [1, 4]}]


def test_a_role_wins_for_its_owner_and_their_team(table):
    game, _ = _game(table)
    with pytest.raises(GameOver):
        game.team_wins(_role(game, 3))
    assert (game.state["winner"], game.state["winners"]) == ("villagers", [3])
    game, _ = _game(table)
    with pytest.raises(GameOver):
        game.team_wins(game.state["groups"]["werewolf-pack"]["card"])   # an element of nobody
    assert (game.state["winner"], game.state["winners"], game.state["reason"]) == (None, [], "win condition of None")


def test_a_new_game_checks_its_role_list(table):
    models = table.data.models
    for roles, message in (([], "a werewolf game needs a role list"), (["villager", "mayor"], "unknown role 'mayor'"),
                           (["villager", "lovers"], "unknown role 'lovers'")):
        with pytest.raises(GameError) as err:
            WerewolfGame(models, roles, RandomDecider(0))
        assert str(err.value) == message
    game = WerewolfGame(models, ["seer", "werewolf"], RandomDecider(0), settings={"ties": "decide"}, day_limit=4)
    st = game.state
    assert [p["name"] for p in st["players"]] == ["Player 1", "Player 2"]
    assert st["day_limit"] == 4 and st["settings"] == {"ties": "decide"}
    assert st["deal"] == {"roles": ["seer", "werewolf"], "shuffle": True}
    assert WerewolfGame(models, ["seer"], None).state["day_limit"] == 100


def test_the_setup_deals_in_seat_order_and_puts_the_teams_and_polls_in_play(table):
    sink = Records()
    game, _eng = table.new_game(["werewolf", "seer", "villager"], 0, RandomDecider(0), sink, deal=False)
    assert game.run(stop_at=("day", 0)) is None
    st = game.state
    assert [(r["player"], r["role"]) for r in sink.of("deal")] == [(0, "werewolf"), (1, "seer"), (2, "villager")]
    assert [p["original_role"] for p in st["players"]] == ["werewolf", "seer", "villager"]
    assert [p["team"] for p in st["players"]] == ["werewolves", "villagers", "villagers"]
    assert sorted(st["teams"]) == ["travellers", "villagers", "werewolves"]
    in_play = sorted(game.card(i)["model"] for i in st["table"] if game.card(i)["owner"] == -1)
    assert in_play == ["lynch", "pack-hunt", "straw-poll", "travellers", "villagers", "werewolf-pack", "werewolves"]
    assert (st["phase"], st["day"], st["night"], st["pindex"]) == ("setup", -1, 0, -1)


def test_a_shuffled_deal_deals_every_role_once(table):
    sink = Records()
    roles = ["werewolf", "seer", "villager", "town-crier", "villager"]
    dealt = set()
    for seed in range(6):
        game, _eng = table.new_game(roles, seed, RandomDecider(0), sink, deal=True)
        assert game.run(stop_at=("day", 0)) is None
        got = [game.role_of(s) for s in range(5)]
        assert sorted(got) == sorted(roles)
        dealt.add(tuple(got))
    assert len(dealt) > 1


def test_the_phases_follow_each_other_and_number_themselves(table):
    game, sink = _game(table)
    st = game.state
    assert game.next_phase() == ("day", 0) and game.phase_name() == "setup"     # dealt, no phase yet
    game.play_phase("day")
    assert (st["phase"], st["day"], st["night"], st["pindex"], game.phase_name()) == ("day", 0, 0, 0, "Day 0")
    assert game.next_phase() == ("night", 1)
    game.play_phase("night")
    assert (st["phase"], st["day"], st["night"], st["pindex"], game.phase_name()) == ("night", 0, 1, 1, "Night 1")
    assert game.next_phase() == ("day", 1)
    assert [(r["phase"], r["number"]) for r in sink.of("phase")] == [("day", 0), ("night", 1)]


def test_values_emitted_for_the_end_of_a_phase_fire_at_its_end(table):
    game, sink = _game(table)
    game.emit_value(3, "Dusk", True)
    game.play_phase("day")
    assert [r for r in sink.of("emitted")] == [{"type": "emitted", "player": 3, "value": "Dusk", "end": True}]
    assert game.state["emits"] == []


@pytest.mark.parametrize("limit, dead, reason, days", [
    (2, False, "day limit (2 days)", 2),
    (0, False, "day limit (0 days)", 0),
    (3, True, "nobody is alive", 0),
])
def test_a_game_ends_in_a_draw_at_its_day_limit_or_when_nobody_is_alive(table, limit, dead, reason, days):
    sink = Records()
    game = WerewolfGame(table.data.models, ROLES[:4], RandomDecider(0), sink=sink, deal=False, day_limit=limit)
    seen = []
    assert game.run(stop_at=("day", 0)) is None
    if dead:
        for p in game.state["players"]:
            p["alive"] = False
    result = game.run(checkpoint=lambda g: seen.append(g.next_phase()))
    assert result == {"winner": None, "winners": [], "result": "draw", "reason": reason, "days": days}
    assert sink.of("gameover") == [{"type": "gameover", "winner": None, "winners": [], "reason": reason}]
    # the checkpoint comes before each phase, and before the check that ends the game
    phases = [("day", 0), ("night", 1), ("day", 1), ("night", 2), ("day", 2), ("night", 3)]
    assert seen == (phases[:1] if dead else phases[:2 * days + 2])


@pytest.mark.parametrize("name, kind, entry", [
    ("disguise", "disguise", {"player": 3, "strength": "weak", "role": "seer", "until": "permanent", "ends_at": None}),
    ("disguisenight", "disguise", {"player": 3, "strength": "strong", "role": "town-crier", "until": "nextnight",
                                   "ends_at": 3}),
    ("protect", "defense", {"player": 3, "against": "attacks", "kind": "active", "by": None, "during": None,
                            "until": "permanent"}),
    ("protectday", "defense", {"player": 3, "against": "all", "kind": "passive", "by": [1], "during": "day",
                               "until": "phase", "ends_at": 2}),
    ("redirect", "redirect", {"player": 2, "abilities": "killing", "from": [1], "to": 3, "until": "permanent"}),
    ("power", "power", {"player": 3, "which": "public", "op": "add", "n": 2, "until": "permanent"}),
    ("obstructall", "obstruct", {"player": 3, "until": "permanent"}),
])
def test_a_lasting_command_without_a_duration_lasts_by_its_default(commanding, name, kind, entry):
    """The werewolf profile's defaults when a command names no duration: ~Permanent for the abilities on
    players (tied to the element that made them), Day 1 being phase index 2."""
    game, _, _ = _command(commanding, name)
    (e,) = [e for e in game.state["lasting"] if e["type"] == kind]
    assert dict((k, e[k]) for k in entry) == entry


def test_an_attribute_applied_and_a_group_joined_by_a_command(commanding):
    game, sink, _ = _command(commanding, "apply")
    (iid,) = game.state["players"][3]["attrs"]
    card = game.card(iid)
    assert (card["model"], card["values"], card["until"], card["source"]) == ("inked", ["one", "two", None],
                                                                             "permanent", _role(game, 2))
    game, sink, _ = _command(commanding, "join")
    assert game.state["groups"]["lovers"]["members"] == [3]


@pytest.mark.parametrize("name, heard", [
    ("trole", "targeting/target"), ("untarget", "targeting/untarget"), ("tplayer", "targeting/target"),
    ("absent", "protecting/absence"), ("counter", "counting/add"), ("format", "formatting/None"),
    ("formatroles", "formatting/split"), ("obstruct", "obstructing/None"), ("reveal", "announcement/reveal"),
    ("votes", "poll/manipulation"), ("cancelpoll", "poll/pollcancel"), ("deletepoll", "poll/polldelete"),
    ("whisper", "whispering/None"), ("choices", "choices/creation"), ("shuffle", "shuffle/None"),
    ("disguise", "disguising/weakly"), ("disguisenight", "disguising/strongly"),
    ("protect", "protecting/active"), ("apply", "applying/add"), ("redirect", "redirecting/None"),
    ("power", "manipulating/relative"), ("join", "joining/add"),
    ("lock", "locking/lock"), ("loyalty", "loyalty/alignment"), ("activate", "activating/ghostly"),
    ("reset", "reset/None"), ("resetpack", "reset/None"), ("display", "displaying/create"), ("updatedisplay", "displaying/change"),
    ("emit", "emit/None"), ("execute", "executing/listalive"), ("countplayers", "investigating/player count"),
    ("countrole", "investigating/count"), ("store", "storing/None"), ("descend", "descended/None"),
    ("investigate", "investigating/role"), ("grant", "granting/add"), ("rolechange", "changing/role"),
    ("alignment", "changing/alignment"), ("kill", "killing/kill"), ("banish", "killing/banish"),
    ("changevalue", "applying/add"), ("each", "announcement/learn"), ("tattr", "targeting/target"),
])
def test_an_action_listener_hears_the_type_of_the_first_ability_used(commanding, name, heard):
    """WWRF On Action ``@AbilityType``/``@AbilitySubtype``: the WWRF ability type of the command and its
    subtype (None where the type has none).  (A switch or a copy takes the Prophet's role away from its
    user: the role no longer hears its own action.)"""
    game, sink, _ = _command(commanding, name)
    assert [r["value"] for r in sink.of("log")] == [heard]


def _p(game, seat):
    return game.state["players"][seat]


@pytest.mark.parametrize("name, check", [
    ("lock", lambda g, k: g.state["locked"] == ["village-square"]),
    ("unlock", lambda g, k: g.state["locked"] == ["werewolf-pack"] and [r["where"] for r in k.of("unlock")] ==
     ["village-square"]),
    ("loyalty", lambda g, k: _p(g, 3)["loyal"] == {"alignment": "villagers"} and k.of("loyalty") == [
        {"type": "loyalty", "player": 3, "kind": "alignment", "to": "villagers"}]),
    ("activate", lambda g, k: _p(g, 3)["active_while"] == "ghostly" and _p(g, 2)["active_while"] is None and
     k.of("activate") == [{"type": "activate", "player": 3, "while": "ghostly"}]),
    ("reset", lambda g, k: k.of("conversation_reset") == [{"type": "conversation_reset", "player": 2,
                                                           "source": "prophet"}]),
    ("resetpack", lambda g, k: [(r["where"], r["to"]) for r in k.of("channel_reset")] == [("werewolf-pack", [1])]),
    ("display", lambda g, k: g.state["displays"] == {"2:herb-rack": ["a", "B"]}),
    ("emit", lambda g, k: [(r["player"], r["value"]) for r in k.of("emitted")] == [(3, "Dawn")] and
     g.state["emits"] == [[2, "Dusk"]]),
    ("execute", lambda g, k: _p(g, 2)["learned"] == ["Player 1, Player 2, Player 3, Player 4, Player 5, Player 6",
                                                    "> Player 1, Player 2, Player 3, Player 4, Player 5, Player 6"]),
    ("countplayers", lambda g, k: _p(g, 2)["learned"] == ["1"]),
    ("countrole", lambda g, k: _p(g, 2)["learned"] == ["3"]),
    ("store", lambda g, k: _p(g, 2)["learned"] == ["7"]),
    ("check", lambda g, k: _p(g, 2)["learned"] == ["two"]),
    ("descend", lambda g, k: _p(g, 3)["left"] == "descended" and _p(g, 2)["learned"] == ["gone"]),
    ("investigate", lambda g, k: _p(g, 2)["learned"] == ["Villager"]),
    ("grant", lambda g, k: [g.card(i)["model"] for i in _p(g, 3)["extras"]] == ["torch-bearer"]),
    ("revoke", lambda g, k: _p(g, 3)["extras"] == [] and _p(g, 2)["learned"] == ["revoked"]),
    ("rolechange", lambda g, k: g.role_of(3) == "seer"),
    ("alignment", lambda g, k: _p(g, 3)["team"] == "travellers"),
    ("groupchange", lambda g, k: g.state["groups"]["werewolf-pack"]["members"] == [1, 3] and
     "lovers" not in g.state["groups"]),
    ("disband", lambda g, k: "lovers" not in g.state["groups"] and _p(g, 2)["learned"] == ["disbanded"]),
    ("kill", lambda g, k: [(r["player"], r["killing"]) for r in k.of("death")] == [(3, "kill")]),
    ("banish", lambda g, k: [(r["player"], r["killing"]) for r in k.of("death")] == [(3, "banish")] and
     g.has_attribute(3, "ghostly")),
])
def test_a_command_does_what_the_profile_says(commanding, name, check):
    """The werewolf profile's commands (profile.yaml), each used by the Prophet (seat 2) on seat 3 by day."""
    game, sink, used = _command(commanding, name)
    assert used is True and check(game, sink)


@pytest.mark.parametrize("name, given, among, value", [
    ("%Player1%", "Player 3", [1, 2], 2),
    ("%Role%", "Seer", ["werewolf", "seer"], "seer"),
    ("%Yes|No%", "no", ["No"], "No"),
])
def test_host_information_the_host_set_from_its_list(table, name, given, among, value):
    key = name.strip("%")
    game = _host_game(table, {key.lower() if key[0] == "Y" else key: given})
    assert game.host_info(name, among) == value


@pytest.mark.parametrize("obstructed, learned", [(False, "Success/Villager/Villager"), (True, "Failure/Fake/Fake")])
def test_an_abilitys_outcome_says_whether_it_succeeded_and_what_its_user_was_told(commanding, obstructed, learned):
    """docs/werewolf.md: ``@Result->Success`` is ``outcome(0, 'success')``: Success, or Failure when the ability
    was obstructed; its message is the feedback its user gets (the obstruction's), else the result as text."""
    game, sink = _game(commanding, ACTORS, Answers(c_outcome=[3]))
    _at(game, "day", 1)
    if obstructed:
        game.add_obstruction(2, "investigating", "Fake", _role(game, 1), "persistent")
    game.use_action(2, _role(game, 2), "prophet--c-outcome", "immediate day")
    assert _p(game, 2)["learned"] == [learned]


@pytest.mark.parametrize("name, dead, check", [
    ("results", None, lambda g: _p(g, 2)["learned"] == ["1twotwo"]),
    ("changevalue", None, lambda g: g.card(_p(g, 3)["attrs"][0])["values"] == ["z", "Player 4", None]),
    ("resurrect", 0, lambda g: _p(g, 0)["alive"] and _p(g, 2)["learned"] == ["back"]),
    ("resurrect", None, lambda g: _p(g, 2)["learned"] == []),     # no target player: the statement does nothing
    ("copy", None, lambda g: g.role_of(2) == "villager" and g.role_of(3) == "villager"),
    ("each", None, lambda g: _p(g, 2)["learned"] == ["wolf Player 2"]),
    ("eachteam", None, lambda g: sorted(_p(g, 2)["learned"]) == ["team travellers", "team villagers",
                                                                  "team werewolves"]),     # For Each &All
])
def test_results_values_resurrection_copies_and_for_each(commanding, name, dead, check):
    game, sink = _game(commanding, ACTORS, Answers(**{"c_" + name: [3]}))
    _at(game, "day", 1)
    if dead is not None:
        game.die(dead, "kill")
    assert game.use_action(2, _role(game, 2), "prophet--c-" + name, "immediate day") is True
    assert check(game)


def test_each_lasting_effect_is_recorded_when_it_is_made(table):
    """The game's record (what the narrative and the table show) of every lasting effect made."""
    game, sink = _game(table)
    seer = _role(game, 4)
    game.add_defense(0, "attacks", "active", seer, "phase")
    game.add_defense(2, "kills", "absence", seer, "phase")                  # at the protector's home
    game.add_disguise(1, "weak", "villager", seer, "phase")
    game.add_redirect(0, "killing", [1], 3, seer, "phase")
    game.add_obstruction(1, None, "Failure", seer, "phase")
    game.add_power(3, "public", "add", -1, seer, "phase")
    game.add_poll_effect("votes", "lynch", 5, 2, seer, "phase")
    game.add_poll_effect("pollcancel", "lynch", None, "silent", seer, "untiluse")
    kinds = ("protect", "disguise", "redirect", "obstruct", "voting_power", "votes", "pollcancel")
    assert [r for r in sink.records if r["type"] in kinds] == [
        {"type": "protect", "player": 0, "against": "attacks", "kind": "active", "source": "seer", "protector": 4},
        {"type": "protect", "player": 2, "against": "kills", "kind": "absence", "source": "seer", "protector": 4},
        {"type": "disguise", "player": 1, "strength": "weak", "role": "villager"},
        {"type": "redirect", "player": 0, "abilities": "killing", "to": 3},
        {"type": "obstruct", "player": 1, "abilities": "all"},
        {"type": "voting_power", "player": 3, "which": "public", "op": "add", "n": -1},
        {"type": "votes", "poll": "lynch", "player": 5, "n": 2},
        {"type": "pollcancel", "poll": "lynch", "player": None, "n": "silent"},
    ]
    absence = [e for e in game.state["lasting"] if e["type"] == "defense"]
    assert [(e["player"], e["at"]) for e in absence] == [(0, None), (2, 4)]


def test_the_host_information_a_dealt_role_includes_is_fixed_at_the_deal(table):
    """WWRF Include: a role that includes %Role% or %Player1% gets it fixed when the roles are dealt, once per
    dealt role (the Villager is dealt twice, its includes are fixed once); a role not dealt fixes nothing."""
    models = _models_with(table, "villager", includes=["%Player1%"])
    models["mimic"] = dict(models["mimic"], includes=["%Number%"])
    sink = Records()
    game = WerewolfGame(models, ["villager", "werewolf", "villager", "seer"], RandomDecider(0), sink=sink, deal=False,
                        settings={"host": {"Player1": "Player 3"}})
    assert game.run(stop_at=("day", 0)) is None
    assert sink.of("host") == [{"type": "host", "role": "villager", "name": "%Player1%", "value": 2}]


def test_passive_triggers_run_after_every_change_of_who_is_alive_or_what_they_are(tmp_path):
    """docs/werewolf.md: ``Passive`` is ``~passive~``, run after every change (then the win conditions).  The
    Prophet (seat 0) learns 'passive' at each passive round."""
    table = _with_prophet_section(tmp_path, "auto = ~passive~ learn('passive')\n")
    game, _ = _game(table, ["prophet", "werewolf", "villager", "villager", "seer", "villager"])
    learned = game.state["players"][0]["learned"]
    steps = [(lambda: game.die(3, "kill"), 1), (lambda: game.resurrect(3), 1), (lambda: game.resurrect(3), 0),
             (lambda: game.leave_game(4, "descended"), 1), (lambda: game.leave_game(4, "left"), 0),
             (lambda: game.change_role(5, "seer"), 1), (lambda: game.switch_roles(2, 3), 1),
             (lambda: game.killing("kill", 2, _role(game, 1), 1), 1)]
    for step, more in steps:
        before = learned.count("passive")
        step()
        assert learned.count("passive") - before == more


def test_poll_effects_of_another_poll_or_kind_change_nothing_when_a_poll_opens(table):
    """Delete Poll and Add Poll of the Straw Poll, and extra votes in the lynch, leave the lynch's opening
    alone: one lynch opens, and the Straw Poll's effects wait for it."""
    game, sink = _game(table)
    src = _role(game, 4)
    game.add_poll_effect("polldelete", "straw-poll", None, None, src, "untiluse")
    game.add_poll_effect("polladd", "straw-poll", None, None, src, "untiluse")
    game.add_poll_effect("votes", "lynch", 3, 2, src, "persistent")
    game.create_poll("lynch", "village-square", None)
    assert [p["poll"] for p in game.state["polls"]] == ["lynch"] and sink.of("poll_deleted") == []
    assert sorted(e["type"] for e in game.state["lasting"]) == ["polladd", "polldelete", "votes"]


def test_a_choice_chosen_is_heard_with_the_option_the_chooser_and_the_selection(tmp_path):
    """WWRF ``Choice Chosen`` (``~choicechosen~``): the element that offered the choice hears the option, the
    chooser and the selection of the action that chose (``choose`` in an action on seat 3)."""
    table = _with_prophet_section(tmp_path, "timing = immediate day\nprompt = px.pick\ntarget = player[alive]::not(me)\n"
                                            "action = choices('Path', 'Left, Right') to(me) ; choose('path', 'left')\n"
                                            "\n[prophet--heard]\nauto = ~choicechosen~ log(str(option) + ' by ' "
                                            "+ str(chooser) + ' on ' + str(selection))\n")
    cards = table.data.root / "cards.yaml"
    assert "prophet--heard" not in cards.read_text(encoding="utf-8")
    cards.write_text(cards.read_text(encoding="utf-8").replace("  - prophet--extra\n",
                                                               "  - prophet--extra\n  - prophet--heard\n"),
                     encoding="utf-8")
    table = load_wolf_table(table.data.root)
    game, sink = _game(table, ACTORS, Answers(px_pick=[3]))
    _at(game, "day", 1)
    assert game.use_action(2, _role(game, 2), "prophet--extra", "immediate day") is True
    assert [r["value"] for r in sink.of("log")] == ["Left by Player 3 on Player 4"]


class SecondFirst(Answers):
    """Declines every action, and answers a second selection (which a forced action cannot decline) with
    its first option."""

    def decide(self, req):
        self.asked.append((req["player"], req["prompt"]))
        return req["options"][0] if req["prompt"].endswith("#2") else None


def test_the_actions_of_a_timing_are_offered_seat_by_seat_in_the_order_of_their_rules(acting):
    """Each action of the timing is offered to its card's owner, seats in order, a card's actions in the
    order of its rules, each as many times as its scaling says; an action its temporal limit forbids is
    not (the Prophet's ``later``: Day 3+)."""
    game, sink = _game(acting, ACTORS, SecondFirst())
    _at(game, "day", 1)
    game.offer_actions("immediate day")
    prompts = [p for _seat, p in game.decider.asked]
    assert [s for s, _p in game.decider.asked] == [2] * len(prompts)
    assert prompts == ["px.one", "prophet--bare", "px.pair", "px.pair#2", "px.mask", "px.push", "px.vow"]
    game.decider.asked[:] = []
    game.offer_actions("immediate night")
    assert game.decider.asked == [(2, "prophet.name"), (4, "seer.divine")]
    game.decider.asked[:] = []
    game.switch_roles(2, 4)
    game.offer_actions("immediate day")
    assert [s for s, _p in game.decider.asked] == [4] * 7


def test_the_tally_display_shows_what_is_not_hidden(table):
    """The poll's display: each player's shown votes, a player whose votes are all hidden is left out (their
    hidden votes are listed apart), and a vote of power 0 shows as 0 (no vote counted, nobody wins)."""
    game, sink = _game(table)
    src = _role(game, 4)
    game.add_power(0, "public", "set", 0, src, "persistent")
    game.add_poll_effect("hiddenvotes", "straw-poll", 3, 2, src, "persistent")
    game._close_poll({"poll": "straw-poll", "votes": {0: 2}, "where": "village-square", "creator": None, "open": True})
    close = sink.of("poll_close")[0]
    assert (close["winner"], close["votes"], close["hidden"]) == (3, [[2, 0]], [[3, 2]])


@pytest.mark.parametrize("atype, asub, actor, reached, feedback", [
    ("killing", "attack", 1, None, "Success"),    # a lupine's attack: cancelled, its user told Success
    ("killing", "kill", 1, 0, None),              # another killing: not
    ("killing", "attack", 3, 0, None),            # an attack by a player who is not lupine: not
])
def test_the_deserter_cancels_a_werewolf_attack_with_success(table, atype, asub, actor, reached, feedback):
    """The Deserter (seat 0): ``~myvisited~`` by a lupine's attack while a villager: ``cancel(success)``
    (WWRF Cancel: the visiting ability does not take effect; its user gets the feedback Success)."""
    game, sink = _game(table, ["deserter", "werewolf", "villager", "villager", "seer"])
    assert game.use_on(_role(game, actor), actor, 0, atype, asub) == (reached, feedback)


@pytest.mark.parametrize("name, visit", [
    ("apply", "applying/add/inked/one"), ("protect", "protecting/active/attacks/active"),
    ("disguise", "disguising/weakly/seer/weak"),
    ("investigate", "investigating/role/None/None"), ("tplayer", "targeting/target/None/None"),
    ("grant", "granting/add/torch-bearer/None"), ("rolechange", "changing/role/seer/None"),
    ("alignment", "changing/alignment/travellers/None"), ("kill", "killing/kill/None/None"),
    ("obstruct", "obstructing/None/None/None"), ("redirect", "redirecting/None/None/None"),
    ("power", "manipulating/relative/None/None"), ("switch", "switching/None/None/None"),
    ("outcome", "investigating/role/None/None"),
])
def test_a_visit_carries_its_type_subtype_and_parameters(commanding, name, visit):
    """docs/werewolf.md: ``@VisitParameter``, ``@SecondVisitParameter``: what the visiting ability carries (the
    attribute applied and its first value, the killings and kind of a protection, the role and strength of a
    disguise, the role of a role change or grant, the team of an alignment change).  The Seer (seat 4) is
    visited."""
    game, sink, _ = _command(commanding, name, selection=4)
    assert game.state["story"] == [visit]


def test_investigations_and_role_counts_through_a_weak_disguise(commanding):
    """``investigate(role, wd)`` and ``countRole('Seer', wd)`` see weak disguises; without a level, or with
    (sd), they do not.  Seat 3 (a villager) is weakly disguised as a Seer."""
    game, sink = _game(commanding, ACTORS, Answers(c_investigatewd=[3], c_countrolewd=[3]))
    _at(game, "day", 1)
    game.add_disguise(3, "weak", "seer", _role(game, 1), "persistent")
    game.use_action(2, _role(game, 2), "prophet--c-investigatewd", "immediate day")
    game.use_action(2, _role(game, 2), "prophet--c-countrolewd", "immediate day")
    assert _p(game, 2)["learned"] == ["Seer/Villager", "21"]


def test_the_winner_of_a_poll_hears_its_voters(tmp_path):
    """WWRF On Poll Win (``~mypollwin~``): ``voters`` are the players who voted for the winner (@Voters),
    ``othervoters`` those of them but the winner (@OtherVoters), ``winner(1)``/``winner(2)`` the candidates
    tied with the most votes (no tie: the winner, then nil).  The Prophet (seat 2) wins the Straw Poll with
    the votes of seats 0, 2 and 3."""
    table = _with_prophet_section(tmp_path, "auto = ~mypollwin~ log(str(len(voters)) + ' ' + str(len(othervoters)) "
                                            "+ ' ' + str(winner(1)) + ' ' + str(winner(2)) + ' ' + str(poll))\n")
    game, sink = _game(table, ACTORS, Script({0: 2, 2: 2, 3: 2, 4: 5}))
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert [r["value"] for r in sink.of("log")] == ["3 2 Player 3 None straw-poll"]


def test_the_winner_of_a_decided_tie_hears_both_tied(tmp_path):
    """A 1-1 tie between seats 2 and 5, decided for seat 2 (setting ``ties: decide``): the narrator is asked
    with the tied seats, and the Prophet hears ``winner(1)`` and ``winner(2)``, the two in seat order."""
    class Decide(Script):
        def decide(self, req):
            if req["kind"] == "choose_player":
                self.asked.append((req["kind"], req["player"], list(req["options"])))
                return 2
            return Script.decide(self, req)

    table = _with_prophet_section(tmp_path, "auto = ~mypollwin~ log(str(len(voters)) + ' ' + str(len(othervoters)) "
                                            "+ ' ' + str(winner(1)) + ' ' + str(winner(2)))\n")
    script = Decide({0: 2, 4: 5})
    game, sink = _game(table, ACTORS, script, settings={"ties": "decide"})
    game.create_poll("straw-poll", "village-square", None)
    game.run_polls()
    assert ("choose_player", -1, [2, 5]) in script.asked
    assert [r["value"] for r in sink.of("log")] == ["1 1 Player 3 Player 6"]


def test_a_choice_asked_at_once_and_a_choice_answered_by_asking(commanding):
    """``choices(..., ask)``: each target player is asked the choice at once (choose_action); ``choose('c')``
    without an option asks the owner; a choice is answered once (a second ``choose`` fails)."""
    class Chooser(Answers):
        def decide(self, req):
            if req["kind"] == "choose_action":
                self.asked.append((req["player"], req["prompt"], list(req["options"])))
                return req["options"][-1]
            return Answers.decide(self, req)

    game, sink = _game(commanding, ACTORS, Chooser(c_choicesask=[3]))
    _at(game, "day", 1)
    game.use_action(2, _role(game, 2), "prophet--c-choicesask", "immediate day")
    asked = [a for a in game.decider.asked if len(a) == 3 and a[1] in ("door", "gate")]
    assert asked == [(3, "door", ["Red", "Blue"]), (2, "gate", ["In", "Out"])]
    assert [(r["player"], r["choice"], r["option"]) for r in sink.of("chosen")] == [(3, "door", "Blue"),
                                                                                    (2, "gate", "Out")]
    assert _p(game, 2)["learned"] == ["chose", "none left"]


def test_a_player_who_concedes_leaves_the_game(table):
    game, sink = _game(table)
    game.concede(3)
    assert game.state["players"][3]["left"] == "left" and game.state["players"][3]["alive"] is False
    assert sink.of("left") == [{"type": "left", "player": 3}] and sink.of("death") == []


def test_an_attribute_that_leaves_with_its_source_at_the_end_of_a_phase_is_removed_once(table):
    """Inked (~Phase, from the Seer) applied Doused with ~PhaseAttribute (tied to Inked): at the end of the
    phase both end, Doused once (one removal, one record), whether it leaves with Inked or by its own end."""
    game, sink = _game(table)
    _at(game, "day", 1)
    assert game.apply_attribute(2, "inked", _role(game, 4), "phase")
    (inked,) = game.state["players"][2]["attrs"]
    assert game.apply_attribute(3, "doused", inked, "phaseattribute")
    game._expire()
    assert not game.has_attribute(2, "inked") and not game.has_attribute(3, "doused")
    assert [(r["player"], r["attribute"], r["on"]) for r in sink.of("attribute")] == [
        (2, "inked", True), (3, "doused", True), (3, "doused", False), (2, "inked", False)]


def test_an_attribute_removed_again_by_its_own_on_removal_leaves_once(tmp_path):
    """WWRF On Removal runs as the attribute is removed; a ``Remove`` of the same attribute inside it is
    that same removal (the attribute is already leaving), not a second one.  Doused gets one more On
    Removal line: while its second value is ``again``, set it to ``done`` and remove Doused from its
    holder.  Removing Doused from seat 3 runs On Removal once (one "smell is gone"), and Doused leaves
    once (one record that it is off), without an error."""
    game_dir = tmp_path / "werewolf"
    shutil.copytree(GAME, game_dir)
    ini = game_dir / "rules" / "doused.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "\n[doused--again]\nauto = ~removal~ [[if this.value2 == 'again']] ; "
                   "changeValue('doused', 2, 'done') to(me) ; removeAttribute('doused') to(me)\n", encoding="utf-8")
    cards = game_dir / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("  - doused--4\n", "  - doused--4\n  - doused--again\n"),
                     encoding="utf-8")
    game, sink = _game(load_wolf_table(game_dir))
    assert game.apply_attribute(3, "doused", _role(game, 4), "persistent")
    game.change_value(3, "doused", 2, "again")
    assert game.remove_attribute(3, "doused") is True
    assert not game.has_attribute(3, "doused") and game.rules.errors == []
    assert [(r["player"], r["attribute"], r["on"]) for r in sink.of("attribute")] == [(3, "doused", True), (3, "doused", False)]
    assert [r["text"] for r in sink.of("learn")] == ["Your doorstep smells of oil.", "The smell of oil is gone."]


def test_a_role_without_a_class_or_category_has_no_full_category_nor_category(table):
    """``fullcategory`` values are ``Class-Category`` of the roles that have both; a role without a category
    adds no category (a copy of the game whose Villager has no class and whose Seer has no category)."""
    models = dict(table.data.models)
    models["villager"] = dict((k, v) for k, v in models["villager"].items() if k != "class")
    models["seer"] = dict((k, v) for k, v in models["seer"].items() if k != "category")
    game = WerewolfGame(models, ["villager", "werewolf", "seer"], RandomDecider(0), deal=False)
    full = game.value_options(0, "fullcategory")
    assert "Townsfolk-Miscellaneous" in full and not [f for f in full if "None" in f]
    assert "Townsfolk-Investigative" in full                 # other investigative townsfolk remain
    assert game.value_options(0, "category") == ["Investigative", "Killing", "Miscellaneous", "Power",
                                                 "Protective", "Social", "Support"]
    assert len(full) == 11
