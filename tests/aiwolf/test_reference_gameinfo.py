"""What the reference AIWolf server tells agents and when, as ``aiwolf serve``'s host now does it
(docs/aiwolf.md, "What agents are told, request by request"). The rules were established by capturing
the packets both servers sent to the reference Java sample players in the same game setting.

Expected values are worked out by hand: 5 players dealt in a fixed seat order, agents whose choices
are fixed (``test_settings.play``)."""

from __future__ import annotations

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf.client import Agent
from wwrf_adapter.aiwolf.packets import Request
from wwrf_adapter.aiwolf.server import ServeConfig

from .serving import Fault, FaultyAgent, Running, assert_finished_and_legal
from .test_settings import FIVE, TWO_WOLVES, Chatter, SelfAttacker, SplitWolf, Tie, lines, play


def by_day(packets: list) -> dict[int, list]:
    """An agent's packets from each DAILY_INITIALIZE to the next (the day and the night after it)."""
    days: dict[int, list] = {}
    day = None
    for p in packets:
        if p.request is Request.DAILY_INITIALIZE:
            day = p.game_info.day
            days[day] = []
        if day is not None:
            days[day].append(p)
    return days


def test_an_agent_with_no_talks_left_says_over_in_every_turn_without_being_asked() -> None:
    # maxTalk 2: the two chatters talk in turns 0 and 1; in turn 2 they have nothing left (Over, not
    # asked) and the others say Over (the base agent), so turn 2 is all Over and the talk ends there
    agents = [Chatter(), Chatter(), Agent(), Agent(), Agent()]
    record, seen = play(agents, FIVE, max_talk=2)
    assert_finished_and_legal(record)
    day1 = [x.split(",", 5) for x in lines(record, "talk", 1)]
    assert len(day1) == 15  # three turns of five
    for turn in range(3):
        assert sorted(int(x[4]) for x in day1 if x[3] == str(turn)) == [1, 2, 3, 4, 5]
    for chatter in (1, 2):
        said = [x[5] for x in day1 if x[4] == str(chatter)]
        assert said[:2] == [s for s in said[:2] if s.startswith("ESTIMATE")] and said[2] == "Over"
        asked = [p for p in by_day(seen[chatter - 1])[1] if p.request is Request.TALK]
        assert len(asked) == 2
    assert [int(x[2]) for x in day1] == list(range(15))  # an Over counts in the day's talk numbers


def test_initialize_tells_every_agent_its_talks_and_every_wolf_the_whispers() -> None:
    record, seen = play([SelfAttacker() for _ in range(5)], TWO_WOLVES)
    assert_finished_and_legal(record)
    for agent in range(1, 6):
        first = seen[agent - 1][0]
        assert first.request is Request.INITIALIZE
        assert first.game_info.remain_talk_map == {1: 10, 2: 10, 3: 10, 4: 10, 5: 10}
        wolves = {4: 10, 5: 10} if agent in (4, 5) else {}
        assert first.game_info.remain_whisper_map == wolves


def test_at_night_the_vote_list_is_yesterdays_and_the_latest_vote_list_is_todays_last_round() -> None:
    # Agent[02..05] vote for Agent[01] on day 1 (Agent[01] at random): Agent[01] is executed
    record, seen = play([SelfAttacker() for _ in range(5)], FIVE)
    assert_finished_and_legal(record)
    assert lines(record, "execute", 1) == ["1,execute,1,VILLAGER"]
    day1_votes = [(int(x.split(",")[2]), int(x.split(",")[3])) for x in lines(record, "vote", 1)]
    assert sorted(v for v in day1_votes if v[0] != 1) == [(2, 1), (3, 1), (4, 1), (5, 1)]
    night1 = by_day(seen[3])[1]  # the seer: its divination after the execution gets the full gameInfo
    divine = [p for p in night1 if p.request is Request.DIVINE][0]
    info = divine.game_info
    assert info is not None and divine.talk_history is None and divine.whisper_history is None
    assert info.vote_list == ()  # yesterday (day 0) had no vote
    assert [(v.agent, v.target) for v in info.latest_vote_list] == day1_votes
    assert info.executed_agent == -1 and info.latest_executed_agent == 1
    day2 = by_day(seen[3])[2][0].game_info  # DAILY_INITIALIZE of day 2
    assert [(v.agent, v.target) for v in day2.vote_list] == day1_votes
    assert day2.latest_vote_list == () and day2.executed_agent == 1 and day2.latest_executed_agent == -1


def test_whispers_after_an_execution_get_the_full_game_info() -> None:
    # day 1 executes Agent[01]; the wolves whisper on night 0 (histories only) and night 1 (full info)
    agents = [SelfAttacker() for _ in range(3)] + [SplitWolf(True), SplitWolf(False)]
    record, seen = play(agents, TWO_WOLVES)
    assert_finished_and_legal(record)
    days = by_day(seen[3])
    night0 = [p for p in days[0] if p.request is Request.WHISPER]
    night1 = [p for p in days[1] if p.request is Request.WHISPER]
    assert night0 and all(p.game_info is None and p.whisper_history is not None for p in night0)
    assert night1 and all(p.game_info is not None and p.talk_history is None for p in night1)
    assert all(p.game_info.latest_executed_agent == 1 for p in night1)
    # the whispers so far are in the whisper list of the full gameInfo
    assert [len(p.game_info.whisper_list) for p in night1] == sorted(len(p.game_info.whisper_list) for p in night1)


def test_the_seer_divines_before_the_wolves_whisper_after_day_one() -> None:
    # a tie that stays with enableNoExecution: nobody is executed on day 1, so night 1 is a whole night
    order: list = []
    agents = [Tie(3), Tie(3), Tie(1), Tie(1), Tie(2)]  # 3:2, 1:2, 2:1 in every round
    record, _ = play(agents, TWO_WOLVES, order=order, enable_no_execution=True)
    assert_finished_and_legal(record)
    assert lines(record, "execute", 1) == []
    starts = [i for i, (_, r) in enumerate(order) if r is Request.DAILY_INITIALIZE]
    # night 0: the last DAILY_FINISH of day 0, then whispers, then the divination
    night0 = [r for _, r in order[starts[0]:starts[5]] if r in (Request.WHISPER, Request.DIVINE)]
    assert night0[0] is Request.WHISPER and night0[-1] is Request.DIVINE
    end = starts[10] if len(starts) > 10 else len(order)  # day 2, or the end of the game
    night1 = [r for _, r in order[starts[5]:end]
              if r in (Request.VOTE, Request.WHISPER, Request.DIVINE, Request.ATTACK)]
    first = {r: night1.index(r) for r in (Request.DIVINE, Request.WHISPER, Request.ATTACK)}
    assert max(i for i, r in enumerate(night1) if r is Request.VOTE) < first[Request.DIVINE]
    assert first[Request.DIVINE] < first[Request.WHISPER] < first[Request.ATTACK]


class Fixed(Agent):
    """Votes for ``vote``, guards ``guard`` and attack-votes for ``attack``."""

    def __init__(self, vote: int, guard: int = 1, attack: int = 1) -> None:
        super().__init__()
        self.target, self.guarded, self.victim = vote, guard, attack

    def vote(self) -> int | None:
        return self.target

    def guard(self) -> int | None:
        return self.guarded

    def attack(self) -> int | None:
        return self.victim


def test_the_wolves_are_told_whom_they_attacked_even_when_the_bodyguard_saved_it() -> None:
    roles = ["villager", "bodyguard", "seer", "werewolf", "villager"]
    agents = [Fixed(3), Fixed(3), Fixed(5), Fixed(3), Fixed(3)]  # day 1 executes the seer, Agent[03]
    record, seen = play(agents, roles)
    assert lines(record, "execute", 1) == ["1,execute,3,SEER"]
    assert lines(record, "guard", 1) == ["1,guard,2,1,VILLAGER"]
    assert lines(record, "attack", 1) == ["1,attack,1,false"]
    wolf_day2 = by_day(seen[3])[2][0].game_info
    assert wolf_day2.attacked_agent == 1 and wolf_day2.last_dead_agent_list == ()
    assert by_day(seen[0])[2][0].game_info.attacked_agent == -1  # only the wolves are told


def test_role_is_asked_before_each_game_only_when_role_requests_are_on() -> None:
    for on in (True, False):
        run = Running(ServeConfig(5, games=2, agents=1, wait=10, seed=2, rules={"enable_role_request": on}))
        me = FaultyAgent(run.port, Fault("none", Request.NAME))
        t = me.start()
        records = run.join()
        t.join(10)
        assert me.error is None and len(records) == 2
        requests = [p.request for p in me.received]
        assert requests.count(Request.NAME) == 1
        assert requests.count(Request.ROLE) == (2 if on else 0)
        if on:  # each game: ROLE, then INITIALIZE
            assert all(requests[i - 1] is Request.ROLE for i, r in enumerate(requests) if r is Request.INITIALIZE)


def test_a_divination_is_dated_the_day_it_is_told() -> None:
    # Agent[04] is the seer: night 0's divination is told on day 1, dated day 1 (not 0), all day 1
    record, seen = play([SelfAttacker() for _ in range(5)], FIVE)
    assert_finished_and_legal(record)
    (night0,) = [x.split(",") for x in lines(record, "divine", 0)]
    days = by_day(seen[3])
    told = days[1][0].game_info.divine_result  # DAILY_INITIALIZE of day 1
    assert (told.day, told.agent, told.target, told.result.value) == (1, 4, int(night0[3]), night0[4])
    divine = [p for p in days[1] if p.request is Request.DIVINE][0].game_info.divine_result
    assert divine == told  # still yesterday's result, dated today, when night 1's divination is asked
    assert days[0][0].game_info.divine_result is None
