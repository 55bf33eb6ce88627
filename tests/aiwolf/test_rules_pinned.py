"""AIWolf rules that a one-line change used to break without a failing test (issue 22's mutation
test): the sentence parser's limits (docs/aiwolf.md: numbers up to 999,999,999; BECAUSE takes two
sentences) and the server's rules in real games over TCP (AIWolf protocol 3.6: no agent votes for
itself; the medium learns the species of the executed player, never of itself)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import parse
from wwrf_adapter.aiwolf.client import Agent
from wwrf_adapter.aiwolf.gameinfo import Status, Vote
from wwrf_adapter.aiwolf.host import GameRecord
from wwrf_adapter.aiwolf.packets import Request
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import Running, agent_thread, assert_finished_and_legal, roles_of


def _games(agents: list[Agent], players: int = 0, games: int = 1, **config) -> list[GameRecord]:
    """The games of ``players`` seats (default: one per agent) that ``agents`` play over TCP (built-in
    agents in the other seats)."""
    run = Running(ServeConfig(players or len(agents), games=games, agents=len(agents), wait=10, **config))
    errors: list[BaseException] = []
    threads = [agent_thread(a, run.port, errors) for a in agents]
    records = run.join()
    for t in threads:
        t.join(10)
    assert errors == []
    return records


def _one_game(agents: list[Agent], **config) -> GameRecord:
    """One game of as many seats as ``agents``, all of them these agents."""
    (record,) = _games(agents, **config)
    return record


def _edited_game(tmp_path, rules: str, old: str, new: str) -> Path:
    """A copy of cards/werewolf whose ``rules/RULES`` has the line ``old`` changed to ``new``."""
    import shutil

    from .serving import GAME

    game = tmp_path / "werewolf"
    shutil.copytree(GAME, game, ignore=shutil.ignore_patterns(".rulescript-cache"))
    path = game / "rules" / rules
    text = path.read_text(encoding="utf-8")
    assert text.count(old + "\n") == 1
    path.write_text(text.replace(old + "\n", new + "\n"), encoding="utf-8")
    return game


def _serve(game: Path, config: ServeConfig, agents: list[Agent] = ()) -> GameRecord:
    """The games of ``config`` on the werewolf game folder ``game`` with ``agents`` connected; the
    last game's record."""
    from rulescript.sim.wolf import load_wolf_table
    from wwrf_adapter.aiwolf.server import Server

    config.port = 0
    server = Server(load_wolf_table(game), config)
    port = server.bind()
    errors: list[BaseException] = []
    threads = [agent_thread(a, port, errors) for a in agents]
    try:
        server.accept()
        server.run()
    finally:
        server.close()
    for t in threads:
        t.join(10)
    assert errors == []
    return server.records[-1]


def codes(text: str) -> list[str]:
    return [d.code for d in parse(text).diagnostics]


@pytest.mark.parametrize("text, expected", [
    ("DISAGREE TALK day999999999 ID:999999999", []),     # nine digits: the largest number
    ("DISAGREE TALK day1 ID:000000007", []),             # leading zeros do not count
    ("DISAGREE TALK day1 ID:1000000000", ["AW106"]),     # ten digits: over 999,999,999
    ("DISAGREE TALK day1000000000 ID:1", ["AW106"]),
])
def test_numbers_up_to_nine_digits(text: str, expected: list[str]) -> None:
    assert codes(text) == expected


@pytest.mark.parametrize("groups, expected", [
    ("(VOTE Agent[01])", ["AW201"]),
    ("(VOTE Agent[01]) (VOTE Agent[02])", []),
    ("(VOTE Agent[01]) (VOTE Agent[02]) (VOTE Agent[03])", ["AW201"]),
])
def test_because_takes_exactly_two_sentences(groups: str, expected: list[str]) -> None:
    assert codes("BECAUSE " + groups) == expected


class SelfVoter(Agent):
    """Votes for itself, every time."""

    def vote(self) -> int | None:
        return self.me


def test_a_vote_for_oneself_is_not_counted_as_one() -> None:
    run = Running(ServeConfig(5, games=2, agents=1, wait=10, seed=4))
    errors: list[BaseException] = []
    t = agent_thread(SelfVoter(), run.port, errors)
    records = run.join()
    t.join(10)
    assert errors == []
    for record in records:
        assert_finished_and_legal(record)
        votes = [line.split(",") for line in record.aiwolf_log if line.split(",")[1] == "vote"]
        assert votes and all(voter != target for _d, _v, voter, target in votes)
        mine = [i for i in record.incidents if i.agent == 1 and i.request == Request.VOTE.value]
        assert mine and all(i.problem == "Agent[01] is not a vote for a living agent other than itself"
                            and i.action.startswith("drawn at random") for i in mine)


class Mob(Agent):
    """Five of these play a game: the one that asked to be the medium says who it is, and the others
    vote it out on day 1; it keeps what it is told each day."""

    def __init__(self, shared: dict, medium: bool) -> None:
        super().__init__()
        self.shared = shared
        self.requested_role = A.Role.MEDIUM if medium else None
        self.told: list[tuple[int, object]] = []

    def initialize(self) -> None:
        if self.role is A.Role.MEDIUM:
            self.shared["medium"] = self.me

    def day_start(self) -> None:
        if self.role is A.Role.MEDIUM:
            assert self.info is not None
            self.told.append((self.info.day, self.info.medium_result))

    def vote(self) -> int | None:
        medium = self.shared.get("medium")
        return medium if medium not in (None, self.me) else self.random_other()


def test_an_executed_medium_learns_nothing_of_itself() -> None:
    roles = ["villager", "seer", "medium", "werewolf", "possessed"]
    run = Running(ServeConfig(5, games=1, agents=5, wait=10, seed=5, roles=roles))
    shared: dict = {}
    mob = [Mob(shared, medium=(i == 0)) for i in range(5)]
    errors: list[BaseException] = []
    threads = [agent_thread(m, run.port, errors) for m in mob]
    (record,) = run.join()
    for t in threads:
        t.join(10)
    assert errors == []
    medium = shared["medium"]
    assert record.roles[medium] is A.Role.MEDIUM
    assert f"1,execute,{medium},MEDIUM" in record.aiwolf_log     # four votes against it on day 1
    told = mob[0].told
    assert [day for day, _ in told][:3] == [0, 1, 2]               # the game goes on to day 2
    assert [result for _, result in told] == [None] * len(told)


class Pack(Agent):
    """Five of these play a game: everyone votes out the lowest-numbered living human other than
    itself; each werewolf whispers its attack target and keeps the whisper list of the gameInfo of
    each ATTACK request."""

    def __init__(self, shared: dict) -> None:
        super().__init__()
        self.shared = shared
        self.seen_at_attack: list[tuple[int, list[tuple[int, int, str]]]] = []
        self.whispers_seen = 0  # whispers in the gameInfo of each day start, vote and finish

    def _look(self) -> None:
        self.whispers_seen += len(self.info.whisper_list) if self.info else 0

    def initialize(self) -> None:
        self.shared[self.me] = self.role

    def day_start(self) -> None:
        self._look()

    def finish(self) -> None:
        self._look()

    def _human(self) -> int | None:
        alive = self.info.alive if self.info else []
        humans = [a for a in sorted(alive) if a != self.me and self.shared.get(a) is not A.Role.WEREWOLF]
        return humans[0] if humans else None

    def vote(self) -> int | None:
        self._look()
        return self._human()

    def whisper(self) -> str:
        said = [t for t in self.info.whisper_list if t.agent == self.me] if self.info else []
        return "Over" if said or any(t.agent == self.me and t.day == self.day for t in self.whispers) \
            else f"ATTACK Agent[{self._human():02d}]"

    def attack(self) -> int | None:
        assert self.info is not None
        self.seen_at_attack.append((self.day, [(t.day, t.agent, t.text) for t in self.info.whisper_list]))
        return self._human()


def test_a_werewolfs_full_game_info_carries_the_nights_whispers() -> None:
    """docs/aiwolf.md: at the start of each night the living werewolves whisper (two or more); the
    requests of a night after an execution carry a full gameInfo, and a werewolf's gameInfo holds the
    whispers (AIWolf's whisperList; the other roles never see them).  Day 1 executes a human (four
    votes), so night 1's ATTACK requests carry a full gameInfo: each wolf sees both wolves' whispers."""
    roles = ["villager", "seer", "werewolf", "werewolf", "villager"]
    run = Running(ServeConfig(5, games=1, agents=5, wait=10, seed=6, roles=roles))
    shared: dict = {}
    pack = [Pack(shared) for _ in range(5)]
    errors: list[BaseException] = []
    threads = [agent_thread(p, run.port, errors) for p in pack]
    (record,) = run.join()
    for t in threads:
        t.join(10)
    assert errors == []
    assert_finished_and_legal(record)
    # docs/aiwolf.md: the host plays a seat whose connection is lost; these five never lose theirs
    assert [i for i in record.incidents if "connection is lost" in i.problem] == []
    wolves = sorted(a for a, r in record.roles.items() if r is A.Role.WEREWOLF)
    assert len(wolves) == 2 and [line for line in record.aiwolf_log if ",execute," in line][0].startswith("1,")
    for p in pack:
        if p.me not in wolves:
            assert p.seen_at_attack == [] and p.whispers_seen == 0
            continue
        day, whispers = p.seen_at_attack[0]
        assert day == 1
        assert sorted({(d, agent) for d, agent, _ in whispers}) == [(1, wolves[0]), (1, wolves[1])]
        assert [text for _, _, text in whispers if text.startswith("ATTACK")] != []


class SelfDiviner(Agent):
    """Asks to be the seer and divines itself, every night."""

    requested_role = A.Role.SEER

    def divine(self) -> int | None:
        return self.me


def _one_agent_as_the_seer(agent: Agent) -> GameRecord:
    """The record of one five-player game whose one external agent (Agent[01]) is the seer, the other
    seats played by the host's own agents."""
    roles = ["seer", "villager", "villager", "werewolf", "possessed"]
    run = Running(ServeConfig(5, games=1, agents=1, wait=10, seed=4, roles=roles))
    errors: list[BaseException] = []
    t = agent_thread(agent, run.port, errors)
    (record,) = run.join()
    t.join(10)
    assert errors == []
    assert record.roles[1] is A.Role.SEER
    return record


def test_a_seer_divining_itself_is_an_incident_naming_the_agent() -> None:
    """AIWolf protocol 3.6: the seer divines another living agent; the host refuses a divination of
    itself, with no divination that night, and its incident names the target as the protocol writes an
    agent: the one external agent is Agent[01], so ``Agent[01]``, not ``1``."""
    record = _one_agent_as_the_seer(SelfDiviner())
    mine = [i for i in record.incidents if i.agent == 1 and i.request == Request.DIVINE.value]
    assert (mine[0].day, mine[0].problem, mine[0].action) == (
        0, "Agent[01] is not a living agent other than itself", "no divination tonight")


class NoDiviner(Agent):
    """Asks to be the seer and answers every DIVINE with no choice (``{"agentIdx":-1}``)."""

    requested_role = A.Role.SEER

    def divine(self) -> int | None:
        return None


def test_a_divination_of_nobody_is_an_incident_saying_no_choice() -> None:
    """docs/aiwolf.md: a DIVINE reply of -1 or null means no choice, and a missing divination is not
    made; the incident says what the agent did (``no choice``) and what the host did (``no divination
    tonight``). The one external agent asked to be the seer and is Agent[01]; night 0 always has a
    divination, so its first incident is of day 0."""
    record = _one_agent_as_the_seer(NoDiviner())
    mine = [(i.day, i.problem, i.action) for i in record.incidents if i.agent == 1 and i.request == "DIVINE"]
    assert mine[0] == (0, "no choice", "no divination tonight")
    assert all(m[1:] == ("no choice", "no divination tonight") for m in mine)
    assert [line for line in record.aiwolf_log if ",divine,1," in line] == []


class Splitter(Pack):
    """A :class:`Pack` whose two werewolves never agree: the lower-numbered wolf attacks the
    lowest-numbered living human, the other the highest-numbered one."""

    def attack(self) -> int | None:
        super().attack()
        alive = self.info.alive if self.info else []
        humans = sorted(a for a in alive if self.shared.get(a) is not A.Role.WEREWOLF)
        wolves = sorted(a for a, r in self.shared.items() if r is A.Role.WEREWOLF)
        return humans[0] if self.me == wolves[0] else humans[-1]


def _left_after_the_day_1_execution(record):
    """(the wolves, the humans still alive) of a game whose only execution is on day 1."""
    wolves = sorted(a for a, r in record.roles.items() if r is A.Role.WEREWOLF)
    executions = [line for line in record.aiwolf_log if ",execute," in line]
    assert len(executions) == 1 and executions[0].startswith("1,")
    executed = int(executions[0].split(",")[2])
    return wolves, sorted(a for a in range(1, 6) if a not in wolves and a != executed)


@pytest.mark.parametrize("revotes", [1, 2])
def test_a_tied_attack_after_the_deciding_execution_is_voted_max_attack_revote_more_times(revotes: int) -> None:
    """docs/aiwolf.md: after an attack vote with no single winner the wolves vote again, up to
    maxAttackRevote more times; a tie that remains is drawn (enableNoAttack off). Day 1 executes a human
    (four votes, as in the test above): two wolves and two humans are left, so the werewolves win, and
    the server still plays night 1 as the reference does. The two wolves vote for the two humans, one
    each, in every round: each round is a tie, so night 1 has 1 + ``revotes`` rounds of two attack votes,
    then one attack of one of the two humans."""
    roles = ["villager", "seer", "werewolf", "werewolf", "villager"]
    shared: dict = {}
    record = _one_game([Splitter(shared) for _ in range(5)], seed=6, roles=roles, rules={"max_attack_revote": revotes})
    assert record.winner == "WEREWOLF"
    wolves, humans = _left_after_the_day_1_execution(record)
    votes = [line.split(",")[2:4] for line in record.aiwolf_log if line.startswith("1,attackVote,")]
    one_round = sorted([[str(wolves[0]), str(humans[0])], [str(wolves[1]), str(humans[1])]])
    assert len(votes) == 2 * (1 + revotes)
    assert [sorted(votes[i:i + 2]) for i in range(0, len(votes), 2)] == [one_round] * (1 + revotes)
    attacks = [line for line in record.aiwolf_log if line.startswith("1,attack,")]
    assert len(attacks) == 1 and int(attacks[0].split(",")[2]) in humans


def test_a_seer_may_not_divine_itself_even_when_the_game_offers_it(tmp_path) -> None:
    """docs/aiwolf.md: whatever the game, a DIVINE of oneself is not made (AIWolf protocol 3.6: the
    seer divines another living agent). A game whose seer rule offers every living player, itself
    included (cards/werewolf with the seer's ``::not(me)`` left out), is served: the host still refuses
    the seer's divination of itself, with the same incident as in the bundled game, and no divination."""
    game = _edited_game(tmp_path, "seer.ini", "target = player[alive]::not(me)", "target = player[alive]")
    roles = ["seer", "villager", "villager", "werewolf", "possessed"]
    record = _serve(game, ServeConfig(5, games=1, agents=1, wait=10, seed=4, roles=roles), [SelfDiviner()])
    assert record.roles[1] is A.Role.SEER
    mine = [i for i in record.incidents if i.agent == 1 and i.request == Request.DIVINE.value]
    assert mine and all((i.problem, i.action) == ("Agent[01] is not a living agent other than itself",
                                                  "no divination tonight") for i in mine)
    assert [line for line in record.aiwolf_log if ",divine,1," in line] == []


class Timeline(Pack):
    """A :class:`Pack` that writes each DIVINE and WHISPER request it gets, with its day, into a list
    the seven agents share (the server asks one agent at a time, so the list is in the server's order)."""

    def __init__(self, shared: dict, timeline: list) -> None:
        super().__init__(shared)
        self.timeline = timeline

    def divine(self) -> int | None:
        self.timeline.append((self.day, "DIVINE"))
        return self.random_other()

    def whisper(self) -> str:
        self.timeline.append((self.day, "WHISPER"))
        return super().whisper()


def test_the_seer_divines_before_the_werewolves_whisper_from_night_1() -> None:
    """docs/aiwolf.md: after DAILY_FINISH come, in this order, the execution vote, the seer's
    divination, the whispers of the living werewolves (two or more), the guard and the attack vote; on
    night 0 the wolves whisper before the divination. Seven agents: day 1 executes a human (Pack's
    votes), two wolves and four humans are left, so the game goes on through night 1."""
    roles = ["seer", "werewolf", "werewolf", "villager", "villager", "villager", "villager"]
    shared: dict = {}
    timeline: list = []
    record = _one_game([Timeline(shared, timeline) for _ in range(7)], seed=3, roles=roles)
    assert_finished_and_legal(record)
    assert [line for line in record.aiwolf_log if ",execute," in line][0].startswith("1,")
    night = {day: [what for d, what in timeline if d == day] for day in (0, 1)}
    assert night[0][0] == "WHISPER" and "DIVINE" in night[0]
    assert night[1][0] == "DIVINE" and "WHISPER" in night[1]


def test_a_drawn_vote_is_the_agent_its_incident_names() -> None:
    """docs/aiwolf.md: a VOTE for oneself is replaced by a random living agent other than the voter, and
    the incident says which (``drawn at random: Agent[NN]``): that is the vote the AIWolf log has for it,
    round after round (a revote draws again)."""
    for record in _games([SelfVoter()], players=5, games=2, seed=4):
        votes = [(int(d), f"Agent[{int(target):02d}]") for d, kind, voter, target in
                 (line.split(",")[:4] for line in record.aiwolf_log) if kind == "vote" and voter == "1"]
        drawn = [(i.day, i.action.removeprefix("drawn at random: ")) for i in record.incidents
                 if i.agent == 1 and i.request == Request.VOTE.value]
        assert votes and drawn == votes


class Guarded(Pack):
    """A :class:`Pack` that votes out the lowest-numbered living human that is not the bodyguard; each
    GUARD request it gets is written (day, agent) into a shared list, and the bodyguard guards itself."""

    def __init__(self, shared: dict, guards: list) -> None:
        super().__init__(shared)
        self.guards = guards

    def _human(self) -> int | None:
        alive = self.info.alive if self.info else []
        humans = [a for a in sorted(alive) if a != self.me
                  and self.shared.get(a) not in (A.Role.WEREWOLF, A.Role.BODYGUARD)]
        return humans[0] if humans else None

    def guard(self) -> int | None:
        self.guards.append((self.day, self.me))
        return self.me


def test_after_the_deciding_execution_only_the_bodyguard_guards_and_not_itself() -> None:
    """docs/aiwolf.md: after an execution that decides the game the server still plays that night as
    the reference does: the seer divines, the wolves whisper, the bodyguard guards, the wolves attack;
    a GUARD of oneself is not made. Day 1 executes the seer or the villager (four votes), leaving two
    wolves and two humans: the werewolves win, and in night 1 only the bodyguard is asked to guard;
    its guard of itself is an incident naming it, with no guard."""
    roles = ["bodyguard", "seer", "werewolf", "werewolf", "villager"]
    shared: dict = {}
    guards: list = []
    record = _one_game([Guarded(shared, guards) for _ in range(5)], seed=6, roles=roles)
    assert_finished_and_legal(record)
    (bodyguard,) = roles_of(record, A.Role.BODYGUARD)
    assert record.winner == "WEREWOLF"
    assert [line for line in record.aiwolf_log if ",execute," in line][0].startswith("1,")
    assert guards == [(1, bodyguard)]
    assert [(i.day, i.agent, i.request, i.problem, i.action) for i in record.incidents if i.request == "GUARD"] == [
        (1, bodyguard, "GUARD", f"Agent[{bodyguard:02d}] is not a living agent other than itself", "no guard tonight")]
    assert [line for line in record.aiwolf_log if ",guard," in line] == []


def test_a_decision_no_aiwolf_request_answers_is_drawn_and_names_the_seat_it_was_for(tmp_path) -> None:
    """docs/aiwolf.md maps the engine's decisions onto AIWolf requests (the bodyguard's `use_ability`
    `bodyguard.guard` is GUARD). A game whose bodyguard rule has another prompt asks a decision that no
    AIWolf request answers: the server draws it at random, and the incident names the agent it was for
    (the bodyguard), with no request."""
    game = _edited_game(tmp_path, "bodyguard.ini", "prompt = bodyguard.guard", "prompt = bodyguard.shield")
    record = _serve(game, ServeConfig(15, games=1, agents=0, wait=0, seed=1))
    (bodyguard,) = roles_of(record, A.Role.BODYGUARD)
    odd = [i for i in record.incidents if i.request == ""]
    assert odd and all((i.agent, i.problem) == (bodyguard, "the game asks use_ability 'bodyguard.shield', "
                                                "which no AIWolf request answers") for i in odd)
    assert all(i.action.startswith("drawn at random: ") for i in odd)


@pytest.mark.parametrize("agents, attack", [(Pack, "agreed"), (Splitter, "tied")])
def test_after_the_deciding_execution_with_enable_no_attack_only_a_single_winner_is_attacked(agents, attack) -> None:
    """docs/aiwolf.md, enableNoAttack on: an attack vote with a single winner attacks it, a tie that
    remains after the revotes attacks nobody (``d,attack,-1,false``); the night after a deciding
    execution is played by the same rule. Day 1 executes a human (four votes, as above), leaving two
    wolves and two humans; in night 1 both Pack wolves attack the lower-numbered human (one round), while
    the Splitter wolves split over the two humans in both rounds (maxAttackRevote 1)."""
    roles = ["villager", "seer", "werewolf", "werewolf", "villager"]
    shared: dict = {}
    record = _one_game([agents(shared) for _ in range(5)], seed=6, roles=roles, rules={"enable_no_attack": True})
    assert record.winner == "WEREWOLF"
    wolves, humans = _left_after_the_day_1_execution(record)
    votes = [line for line in record.aiwolf_log if line.startswith("1,attackVote,")]
    attacks = [line for line in record.aiwolf_log if line.startswith("1,attack,")]
    if attack == "agreed":
        assert sorted(votes) == [f"1,attackVote,{w},{humans[0]}" for w in wolves]
        assert attacks == [f"1,attack,{humans[0]},true"]
    else:
        assert len(votes) == 4
        assert attacks == ["1,attack,-1,false"]


class Shield(Agent):
    """Five of these play a game: everyone votes out the lowest-numbered living villager other than
    itself; the bodyguard guards the seer and the werewolf attacks the seer. The werewolf keeps the
    ``attackedAgent`` of each day's gameInfo."""

    def __init__(self, shared: dict) -> None:
        super().__init__()
        self.shared = shared
        self.attacked_seen: list[tuple[int, int]] = []

    def initialize(self) -> None:
        self.shared[self.me] = self.role

    def day_start(self) -> None:
        if self.role is A.Role.WEREWOLF and self.info is not None:
            self.attacked_seen.append((self.info.day, self.info.attacked_agent))

    def _first(self, role: A.Role) -> int | None:
        alive = self.info.alive if self.info else []
        found = [a for a in sorted(alive) if a != self.me and self.shared.get(a) is role]
        return found[0] if found else None

    def vote(self) -> int | None:
        return self._first(A.Role.VILLAGER) or self.random_other()

    def guard(self) -> int | None:
        return self._first(A.Role.SEER)

    def attack(self) -> int | None:
        return self._first(A.Role.SEER)


def _guarded_seer_game(agent_class: type) -> tuple[GameRecord, list[Any]]:
    """One seed-2 game of a bodyguard, a seer, a werewolf and two villagers, every seat an
    ``agent_class`` sharing one dict: the record and the agents."""
    shared: dict = {}
    agents = [agent_class(shared) for _ in range(5)]
    return _one_game(agents, seed=2, roles=["bodyguard", "seer", "werewolf", "villager", "villager"]), agents


def test_a_guarded_attack_is_still_the_wolves_attacked_agent() -> None:
    """docs/aiwolf.md: ``attackedAgent`` (wolves only) is whom they attacked last night, also when the
    bodyguard saved it. Day 1 executes the lower-numbered villager (four votes), leaving one wolf and
    three humans; in night 1 the bodyguard guards the seer and the wolf attacks the seer, who survives
    (``1,attack,SEER,false``); on day 2 the wolf is told the seer as attackedAgent (on day 1: nobody,
    -1, as night 0 has no attack)."""
    record, agents = _guarded_seer_game(Shield)
    (seer,) = roles_of(record, A.Role.SEER)
    (wolf,) = roles_of(record, A.Role.WEREWOLF)
    villagers = roles_of(record, A.Role.VILLAGER)
    assert f"1,execute,{min(villagers)},VILLAGER" in record.aiwolf_log
    assert f"1,guard,{roles_of(record, A.Role.BODYGUARD)[0]},{seer},SEER" in record.aiwolf_log
    assert f"1,attack,{seer},false" in record.aiwolf_log
    (shown,) = [a for a in agents if a.me == wolf]
    assert shown.attacked_seen[1:3] == [(1, -1), (2, seer)]


def test_the_votes_of_a_poll_aiwolf_does_not_have_are_neither_votes_nor_attack_votes(tmp_path) -> None:
    """docs/aiwolf.md maps two polls onto AIWolf: ``lynch`` is VOTE and ``pack-hunt`` is ATTACK; the
    attack vote is the wolves' (AIWolf log: ``d,attackVote,WOLF,TARGET``). A game whose village team
    also opens the bundled ``straw-poll`` every day from day 1 (every living player votes in it) asks
    votes that no AIWolf request answers: each is drawn (an incident naming the poll), and none of
    them is written as an attack vote or a vote."""
    old = "auto = ~wincheck~ [[if living > 0 and len(getTargets(\"players[alive]::lacks('lupine')\")) == living]] win()"
    game = _edited_game(tmp_path, "villagers.ini", old, old + "\n\n[villagers--9]\ntemporal = day 1+\n"
                        "auto = ~startday~ createPoll('straw-poll', 'village-square')")
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert text.count("  - villagers--win\n") == 1
    cards.write_text(text.replace("  - villagers--win\n", "  - villagers--win\n  - villagers--9\n"), encoding="utf-8")
    record = _serve(game, ServeConfig(5, games=1, agents=0, wait=0, seed=1))
    straw = [i for i in record.incidents if i.problem == "the game asks vote 'straw-poll', which no AIWolf request answers"]
    assert straw and {i.day for i in straw} == {1}
    wolves = {str(a) for a in roles_of(record, A.Role.WEREWOLF)}
    rows = [line.split(",") for line in record.aiwolf_log]
    attack_votes = [r for r in rows if r[1] == "attackVote"]
    assert attack_votes and all(r[2] in wolves for r in attack_votes)
    # day 1's vote: one line per living agent (five: no tie, no revote), the execution's poll only
    assert len([r for r in rows if r[:2] == ["1", "vote"]]) == 5


@pytest.mark.parametrize("text, code", [
    ("NOT (", "AW102"),                      # a group that holds nothing yet: a sentence is expected
    ("AND (VOTE ANY) (", "AW102"),
    ("REQUEST ANY (", "AW102"),
    ("AGREE", "AW113"),                      # a talk reference: TALK or WHISPER, dayD, ID:N
    ("DISAGREE TALK", "AW113"),
    ("AGREE WHISPER day2", "AW113"),
])
def test_a_sentence_that_stops_short_is_one_error_just_after_its_end(text: str, code: str) -> None:
    """docs/aiwolf.md: the parser reports bad input as a located diagnostic and never raises; what is
    missing at the end of a sentence (AW102 a sentence in a group, AW113 a part of a talk reference)
    is reported one column wide just after the last character."""
    result = parse(text)
    assert result.utterance is None
    (d,) = result.diagnostics
    assert (d.code, d.span.col, d.span.end_col) == (code, len(text) + 1, len(text) + 2)


class Looker(Shield):
    """A :class:`Shield` that keeps the gameInfo of its INITIALIZE and of each DAILY_INITIALIZE."""

    def __init__(self, shared: dict) -> None:
        super().__init__(shared)
        self.seen: list = []

    def initialize(self) -> None:
        super().initialize()
        self.seen.append(self.info)

    def day_start(self) -> None:
        super().day_start()
        self.seen.append(self.info)


def test_what_each_agent_is_told_at_the_start_of_each_day() -> None:
    """docs/aiwolf.md, What a gameInfo holds. The game of ``test_a_guarded_attack...`` (seed 2): day 1
    executes the lower-numbered villager; in night 1 the bodyguard guards the seer and the wolf attacks
    the seer, who survives. So:

    * at INITIALIZE every agent knows only its own role, has ``maxTalk`` (10) talks, and the game's
      roles are listed in the protocol's order (VILLAGER, SEER, BODYGUARD, WEREWOLF);
    * day 1: everybody alive, nobody executed or dead; with one werewolf there are no whispers at all;
    * day 2: ``executedAgent`` is the villager executed on day 1, for everyone; nobody died in the
      night (``lastDeadAgentList`` empty); ``voteList`` holds day 1's five votes and ``latestVoteList``
      is empty; only the living four have talks; only the bodyguard is told whom it guarded (the seer),
      only the wolf whom it attacked and how it voted (``attackVoteList``); only the seer has a divine
      result, and nobody a medium's."""
    record, agents = _guarded_seer_game(Looker)
    (seer,) = roles_of(record, A.Role.SEER)
    (wolf,) = roles_of(record, A.Role.WEREWOLF)
    (bodyguard,) = roles_of(record, A.Role.BODYGUARD)
    executed = min(roles_of(record, A.Role.VILLAGER))
    assert f"1,execute,{executed},VILLAGER" in record.aiwolf_log and f"1,attack,{seer},false" in record.aiwolf_log
    assert [line for line in record.aiwolf_log if ",whisper," in line] == []     # one wolf: nobody to whisper to
    for a in agents:
        me = a.seen[0].agent
        init, day1, day2 = a.seen[0], a.seen[2], a.seen[3]
        assert [i.day for i in a.seen[:4]] == [0, 0, 1, 2]
        assert init.role_map == {me: record.roles[me]}
        assert init.remain_talk_map == {k: 10 for k in range(1, 6)}
        assert init.existing_role_list == (A.Role.VILLAGER, A.Role.SEER, A.Role.BODYGUARD, A.Role.WEREWOLF)
        assert set(day1.status_map.values()) == {Status.ALIVE}
        assert (day1.executed_agent, day1.last_dead_agent_list) == (-1, ())
        assert (day2.executed_agent, day2.latest_executed_agent, day2.last_dead_agent_list) == (executed, -1, ())
        assert day2.status_map == {k: Status.DEAD if k == executed else Status.ALIVE for k in range(1, 6)}
        assert len(day2.vote_list) == 5 and {v.day for v in day2.vote_list} == {1} and day2.latest_vote_list == ()
        assert sorted(day2.remain_talk_map) == [k for k in range(1, 6) if k != executed]
        assert day2.guarded_agent == (seer if me == bodyguard else -1)
        assert day2.attacked_agent == (seer if me == wolf else -1)
        assert day2.attack_vote_list == ((Vote(wolf, 1, seer),) if me == wolf else ())
        assert (day2.divine_result is not None) == (me == seer) and day2.medium_result is None
        assert (day2.remain_whisper_map == {}) == (me != wolf)


class Known(Pack):
    """A :class:`Pack` that keeps the roleMap of its INITIALIZE and of its FINISH."""

    def __init__(self, shared: dict) -> None:
        super().__init__(shared)
        self.maps: list[dict] = []

    def initialize(self) -> None:
        super().initialize()
        self.maps.append(dict(self.info.role_map))

    def finish(self) -> None:
        super().finish()
        self.maps.append(dict(self.info.role_map))


def test_a_werewolf_knows_every_werewolf_and_finish_shows_every_role() -> None:
    """docs/aiwolf.md (the roleMap of the gameInfo, as the reference server fills it): a werewolf is
    told the role of every werewolf, any other agent only its own; FINISH shows every role to all. The
    living werewolves, when there are two or more, whisper in the night of day 0 (the log's
    ``0,whisper,IDX,TURN,AGENT,TEXT``)."""
    roles = ["villager", "seer", "werewolf", "werewolf", "villager"]
    shared: dict = {}
    agents = [Known(shared) for _ in range(5)]
    record = _one_game(agents, seed=6, roles=roles)
    wolves = roles_of(record, A.Role.WEREWOLF)
    assert len(wolves) == 2
    for a in agents:
        first, last = a.maps
        assert first == ({w: A.Role.WEREWOLF for w in wolves} if a.me in wolves else {a.me: record.roles[a.me]})
        assert last == record.roles
    # two living wolves whisper in the night of day 0, and only they
    night0 = [line.split(",") for line in record.aiwolf_log if line.startswith("0,whisper,")]
    assert night0 and {int(r[4]) for r in night0} == set(wolves)
    # docs/aiwolf.md, Game logs: a night's lines come in the order divine, whisper, guard, attackVote, attack
    order = ["divine", "whisper", "guard", "attackVote", "attack"]
    for day in ("0", "1"):
        kinds = [line.split(",")[1] for line in record.aiwolf_log if line.split(",")[0] == day]
        night = [k for k in kinds if k in order]
        assert night == sorted(night, key=order.index), (day, night)
        assert day == "1" or {"divine", "whisper"} <= set(night)


@pytest.mark.parametrize("text, code, message", [
    ("AND (VOTE Agent[01]) x (VOTE Agent[02])", "AW202", "text between groups"),
    ("NOT (VOTE Agent[01]) x", "AW202", "text after the last group"),
    ("Agent[01] Over", "AW203", "Over takes no subject"),
    ("NOT (Agent[01] Skip)", "AW203", "Skip and Over cannot be nested in another sentence"),
    ("NOT (Skip)", "AW203", "Skip cannot be nested in another sentence"),
    ("AND (VOTE ANY)", "AW201", "AND takes two or more sentences; found 1"),
    ("BECAUSE", "AW201", "BECAUSE takes two sentences (the reason, then what follows from it); found 0"),
    ("NOT (VOTE ANY) (VOTE ANY)", "AW201", "NOT takes one sentence; this is sentence 2"),
    ("XOR (VOTE ANY) (VOTE ANY) (VOTE ANY)", "AW201", "XOR takes two sentences; this is sentence 3"),
    ("INQUIRE Agent[01] (VOTE ANY) (VOTE ANY)", "AW201", "INQUIRE takes one sentence; this is sentence 2"),
    ("REQUEST Agent[01] (VOTE ANY) (VOTE ANY)", "AW201", "REQUEST takes one sentence; this is sentence 2"),
    ("DAY 1 (VOTE ANY) (VOTE ANY)", "AW201", "DAY takes one sentence; this is sentence 2"),
    ("INQUIRE Agent[01]", "AW201", "INQUIRE takes one sentence; found 0"),
    ("Agent[01] (VOTE ANY)", "AW102", "expected a verb or an operator after the subject, found '('"),
    ("XYZZY", "AW103", "unknown word 'XYZZY': expected a verb or an operator"),
    ("Agent[01] VOTE", "AW102", "expected the target: an agent (Agent[NN]) or ANY"),
    ("VOTE any", "AW104", "keywords are written in upper case: ANY"),
    ("vote ANY", "AW104", "keywords are written in upper case: VOTE"),
    ("VOTE Agent3", "AW105", "agents are written Agent[NN]: Agent[03], not Agent3"),
    ("VOTE Agent0", "AW105", "agents are written Agent[NN]: ANY, not Agent0"),
    ("COMINGOUT Agent[01]", "AW102", "expected a role (VILLAGER, SEER, MEDIUM, BODYGUARD, WEREWOLF, POSSESSED, "
                                     "FOX, FREEMASON, ANY), found the end of the sentence"),
    ("DIVINED Agent[01] SEER", "AW103", "unknown species 'SEER'"),
    ("AGREE talk day1 ID:1", "AW104", "keywords are written in upper case: TALK"),
    ("AGREE TALK day1 ID:1234567890", "AW106", "the talk id is too large (at most 999999999)"),
    ("DAY x (VOTE ANY)", "AW102", "expected the day number after DAY, found 'x'"),
    ("VOTE Agent[01] )", "AW102", "unmatched ')'"),
    ("NOT (VOTE Agent[01] x)", "AW111", "unexpected 'x' in a group: expected ')'"),
])
def test_each_mistake_says_what_is_wrong(text: str, code: str, message: str) -> None:
    """docs/aiwolf.md, Diagnostics: each code's message says which of its cases it is (text between
    groups or after the last; Skip/Over given a subject or nested; too few sentences, or which one is
    too many) and gives the fix (AW104, AW105 the right spelling)."""
    ds = parse(text).diagnostics
    assert [(d.code, d.message) for d in ds][:1] == [(code, message)]


def test_after_the_deciding_execution_a_seat_the_host_plays_attacks_a_living_human() -> None:
    """docs/aiwolf.md: a seat whose connection is lost is played by the host (random choices), also in
    the night after a deciding execution, which the server plays as the reference does: a werewolf's
    attack vote there is for a living human. Five Pack agents connect one after the other (so they are
    Agent[01] to Agent[05]) and ask for the roles villager, seer, werewolf, villager, werewolf (granted:
    each is free). Agent[05] closes its connection at DAILY_FINISH of day 1. Day 1 executes Agent[01]
    (the lowest-numbered human: three or four votes), leaving the wolves 3 and 5 and the humans 2 and 4:
    the werewolves win, and in night 1 the host's attack vote for Agent[05] is Agent[02] or Agent[04]."""
    import time

    from .serving import Fault, FaultyAgent

    asked = [A.Role.VILLAGER, A.Role.SEER, A.Role.WEREWOLF, A.Role.VILLAGER, A.Role.WEREWOLF]
    run = Running(ServeConfig(5, games=1, agents=5, wait=20, seed=6,
                              roles=["villager", "seer", "werewolf", "villager", "werewolf"]))
    shared: dict = {}
    errors: list[BaseException] = []
    threads = []
    faulty = None
    for k, role in enumerate(asked, 1):
        agent = Pack(shared)
        agent.requested_role = role
        if k < 5:
            threads.append(agent_thread(agent, run.port, errors))
        else:
            faulty = FaultyAgent(run.port, Fault("disconnect", Request.DAILY_FINISH, day=1), agent=agent)
            threads.append(faulty.start())
        run.wait_for_seats(k)
    (record,) = run.join()
    for th in threads:
        th.join(10)
    assert errors == [] and faulty is not None and faulty.error is None
    assert [record.roles[a] for a in range(1, 6)] == asked
    assert "1,execute,1,VILLAGER" in record.aiwolf_log and record.winner == "WEREWOLF"
    assert [i.agent for i in record.incidents if "the connection is lost" in i.problem] == [5]
    votes = [line.split(",")[2:4] for line in record.aiwolf_log if line.startswith("1,attackVote,")]
    assert [v for v in votes if v[0] == "5"] and all(target in ("2", "4") for _, target in votes)


class NumberDiviner(Agent):
    """Asks to be the seer and divines the number it was made with (no agent has it)."""

    requested_role = A.Role.SEER

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number

    def divine(self) -> int | None:
        return self.number


@pytest.mark.parametrize("number", [0, -2])
def test_a_divination_of_a_number_no_agent_has_is_an_incident_quoting_it(number: int) -> None:
    """docs/aiwolf.md: a DIVINE reply is ``{"agentIdx":N}``; -1 is no choice, and agents are numbered
    from 1 (``Agent[01]``). A seer that divines 0 or -2 divines nobody that is a living agent: the
    divination is not made, and the incident quotes the number as it came (there is no ``Agent[00]``)."""
    roles = ["seer", "villager", "villager", "werewolf", "possessed"]
    run = Running(ServeConfig(5, games=1, agents=1, wait=10, seed=4, roles=roles))
    errors: list[BaseException] = []
    t = agent_thread(NumberDiviner(number), run.port, errors)
    (record,) = run.join()
    t.join(10)
    assert errors == [] and record.error is None
    assert record.roles[1] is A.Role.SEER
    mine = [(i.day, i.problem, i.action) for i in record.incidents if i.agent == 1 and i.request == "DIVINE"]
    assert mine[0] == (0, f"{number} is not a living agent other than itself", "no divination tonight")
    assert [line for line in record.aiwolf_log if ",divine,1," in line] == []


class NumberVoter(Agent):
    """Votes for the number it was made with, every time (None: no choice)."""

    def __init__(self, number: int | None) -> None:
        super().__init__()
        self.number = number

    def vote(self) -> int | None:
        return self.number


@pytest.mark.parametrize("number, said", [(0, "0"), (-3, "-3"), (None, "no choice"), (9, "Agent[09]")])
def test_a_vote_for_no_living_agent_is_drawn_and_its_incident_quotes_it(number: int | None, said: str) -> None:
    """docs/aiwolf.md: a VOTE for no one, or for no living agent, is replaced by a random living agent
    other than the voter; the incident quotes the vote: a number as it came (agents are numbered from
    1), an agent number as ``Agent[NN]``, no choice (``{"agentIdx":-1}``) as ``no choice``."""
    (record,) = _games([NumberVoter(number)], players=5, seed=4)
    mine = [i for i in record.incidents if i.agent == 1 and i.request == "VOTE"]
    assert mine and all(i.problem == f"{said} is not a vote for a living agent other than itself"
                        and i.action.startswith("drawn at random: Agent[") for i in mine)
    assert all(line.split(",")[3] not in ("0", "1", str(number)) for line in record.aiwolf_log
               if line.split(",")[1:3] == ["vote", "1"])
