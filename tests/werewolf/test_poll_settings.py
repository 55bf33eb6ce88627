"""Game settings for how polls end: revotes after a tie, and ties broken by the decider."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.wolf import load_wolf_table

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
ROLES = ["villager", "villager", "seer", "possessed", "werewolf"]   # dealt in seat order (deal=False)


@pytest.fixture(scope="module")
def table():
    return load_wolf_table(GAME)


class TiedVotes(RandomDecider):
    """Day 1: seats 0 and 1 vote for seat 2, seats 2 and 3 for seat 0, seat 4 for seat 3: a 2-2 tie
    between seats 0 and 2 in every round. Ties are broken for ``tie_answer``. ``asked``: day 1's
    requests (the phase is read from the game's records in ``sink``)."""

    def __init__(self, sink, tie_answer=2):
        super().__init__(1)
        self.sink = sink
        self.asked = []
        self.tie_answer = tie_answer

    def day1(self):
        phases = [(r["phase"], r["number"]) for r in self.sink.records if r["type"] == "phase"]
        return phases[-1:] == [("day", 1)]

    def decide(self, request):
        if not self.day1():
            return super().decide(request)
        self.asked.append((request["kind"], request["player"], request["prompt"], list(request["options"])))
        if request["kind"] == "vote" and request["prompt"] == "lynch":
            return {0: 2, 1: 2, 2: 0, 3: 0, 4: 3}[request["player"]]
        if request["kind"] == "choose_player":
            return self.tie_answer
        if request["kind"] == "change_vote":   # everybody keeps their vote (its first option)
            return request["options"][0]
        return super().decide(request)


def first_day(records):
    out = []
    for rec in records:
        if rec["type"] == "phase" and rec["phase"] == "night" and rec["number"] == 2:
            break
        out.append(rec)
    return out


def test_without_settings_a_tie_is_drawn_and_nobody_votes_twice(table):
    sink = ListSink()
    d = TiedVotes(sink)
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False)
    game.run()
    day1 = first_day(sink.records)
    assert not [r for r in day1 if r["type"] == "poll_revote"]
    assert len([a for a in d.asked if a[:1] == ("vote",) and a[2] == "lynch"]) == 5
    assert not [a for a in d.asked if a[0] == "choose_player"]
    (close,) = [r for r in day1 if r["type"] == "poll_close"]
    assert close["winner"] in (0, 2)


def test_a_revote_asks_every_voter_again_and_a_tie_that_stays_is_asked_of_the_decider(table):
    sink = ListSink()
    d = TiedVotes(sink, tie_answer=2)
    settings = {"revotes": {"lynch": 1}, "ties": "decide"}
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False, settings=settings)
    game.run()
    day1 = first_day(sink.records)
    (revote,) = [r for r in day1 if r["type"] == "poll_revote"]
    assert revote["poll"] == "lynch" and revote["round"] == 2 and revote["tied"] == [0, 2]
    assert revote["votes"] == [[0, 2], [1, 2], [2, 0], [3, 0], [4, 3]]
    lynch_votes = [a for a in d.asked if a[0] == "vote" and a[2] == "lynch"]
    assert [a[1] for a in lynch_votes] == [0, 1, 2, 3, 4] * 2
    ties = [a for a in d.asked if a[0] == "choose_player"]
    assert ties[0] == ("choose_player", -1, "lynch.tie", [0, 2])
    (close,) = [r for r in day1 if r["type"] == "poll_close"]
    assert close["winner"] == 2
    deaths = [r for r in day1 if r["type"] == "death"]
    assert deaths[0]["player"] == 2 and deaths[0]["killing"] == "lynch"


def test_the_decided_tie_is_the_decider_s_choice(table):
    sink = ListSink()
    game, eng = table.new_game(ROLES, 3, TiedVotes(sink, tie_answer=0), sink, deal=False,
                               settings={"revotes": {"lynch": 1}, "ties": "decide"})
    game.run()
    (close,) = [r for r in first_day(sink.records) if r["type"] == "poll_close"]
    assert close["winner"] == 0


def test_a_revote_that_breaks_the_tie_ends_the_poll(table):
    class Changes(TiedVotes):
        def decide(self, request):
            if self.day1() and request["kind"] == "vote" and request["prompt"] == "lynch" and request["player"] == 4 \
                    and len([a for a in self.asked if a[:3] == ("vote", 4, "lynch")]) == 1:
                self.asked.append(("vote", 4, "lynch", []))
                return 0  # the second round: 3 votes for seat 0
            return super().decide(request)

    sink = ListSink()
    d = Changes(sink)
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False, settings={"revotes": {"lynch": 2}, "ties": "decide"})
    game.run()
    day1 = first_day(sink.records)
    assert len([r for r in day1 if r["type"] == "poll_revote"]) == 1  # two revotes allowed, one needed
    (close,) = [r for r in day1 if r["type"] == "poll_close"]
    assert close["winner"] == 0
    assert not [a for a in d.asked if a[0] == "choose_player"]


def test_settings_and_seat_order_deals_are_in_the_log_and_replay(table):
    settings = {"revotes": {"lynch": 1, "pack-hunt": 1}, "ties": "decide"}
    game, log = table.play(15, 21, RandomDecider(8), settings=settings)
    assert log["settings"] == settings and game.state["settings"] == settings
    assert table.replay(log).state == game.state
    assert any(d[0] == "choose_player" and d[1] == -1 for d in log["decisions"]) or \
        not any(d[0] == "vote" for d in log["decisions"])


def test_standing_ties_elect_nobody_after_the_last_round(table):
    sink = ListSink()
    d = TiedVotes(sink)
    settings = {"revotes": {"lynch": 1}, "ties": "decide", "standing_ties": ["lynch"]}
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False, settings=settings)
    game.run()
    day1 = first_day(sink.records)
    assert len([a for a in d.asked if a[0] == "vote" and a[2] == "lynch"]) == 10  # a vote and a revote
    assert not [a for a in d.asked if a[0] == "choose_player"]  # nobody breaks the tie
    (close,) = [r for r in day1 if r["type"] == "poll_close"]
    assert close["winner"] is None
    assert not [r for r in day1 if r["type"] == "death" and r["killing"] == "lynch"]


class NoHunt(RandomDecider):
    """Every lynch vote is for the first human it may name (never seat 4, the wolf); every wolf abstains from the hunt (``vote``
    pack-hunt: None); a tie of the hunt is broken for
    ``tie_answer``; ``hunts``: (round, options) of each pack-hunt vote asked."""

    def __init__(self, tie_answer):
        super().__init__(5)
        self.tie_answer = tie_answer
        self.hunts = []
        self.ties = []

    def decide(self, request):
        if request["kind"] == "vote" and request["prompt"] == "pack-hunt":
            self.hunts.append(list(request["options"]))
            return None
        if request["kind"] == "vote" and request["prompt"] == "lynch":  # the villagers lynch each other
            return next((o for o in request["options"] if o not in (4, request["player"])), request["options"][0])
        if request["kind"] == "choose_player" and request["prompt"] == "pack-hunt.tie":
            self.ties.append(list(request["options"]))
            return self.tie_answer if self.tie_answer in request["options"] else request["options"][0]
        return super().decide(request)


def test_option_votes_make_a_hunt_without_votes_attack_one_of_its_options(table):
    # AIWolf's forced attack: every option counts one vote; no wolf vote, all tie; an empty round is voted again
    sink = ListSink()
    d = NoHunt(tie_answer=1)
    settings = {"revotes": {"pack-hunt": 1}, "ties": "decide", "revote_empty": True,
                "option_votes": {"pack-hunt": 1}}
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False, settings=settings)
    game.run()
    assert d.hunts and d.ties  # the first hunt: asked twice (a round and a revote), then the tie is broken
    first = d.hunts[0]
    assert d.hunts[1] == first and d.ties[0] == first and 4 not in first  # the living humans, not the wolf
    closes = [r for r in sink.records if r["type"] == "poll_close" and r["poll"] == "pack-hunt"]
    assert closes[0]["winner"] == (1 if 1 in first else first[0])
    attacks = [r for r in sink.records if r["type"] in ("death", "defended") and r.get("killing") == "attack"]
    assert attacks and attacks[0]["player"] == closes[0]["winner"]


def test_without_option_votes_a_hunt_without_votes_attacks_nobody(table):
    sink = ListSink()
    d = NoHunt(tie_answer=1)
    settings = {"revotes": {"pack-hunt": 1}, "ties": "decide", "revote_empty": True}
    game, eng = table.new_game(ROLES, 3, d, sink, deal=False, settings=settings)
    game.run()
    closes = [r for r in sink.records if r["type"] == "poll_close" and r["poll"] == "pack-hunt"]
    assert closes and all(c["winner"] is None for c in closes) and not d.ties
    assert len(d.hunts) == 2 * len(closes)  # revote_empty: each empty hunt is voted again once
    assert not [r for r in sink.records if r["type"] == "death" and r["killing"] == "attack"]
