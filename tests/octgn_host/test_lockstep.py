"""A session plays a game as a replay of its inputs: it stops at every decision it has no input for,
re-runs at most one turn, delivers each effect record once, and ends where the headless engine ends."""
from __future__ import annotations

import pytest

from octgn_pack.host import codec
from octgn_pack.host.lockstep import Session
from rulescript.games import cfc
from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from tests.conftest import DEMO
from tests.octgn_host.conftest import Signer

SIGN = Signer()


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


def headless(demo, seed):
    names = demo.data.deck_names()
    decks = [demo.data.deck_list(names[0]), demo.data.deck_list(names[-1])]
    sink = ListSink()
    game, log = play_game(demo.data, decks, seed, RandomDecider(seed), sink=sink, rules=demo.engine())
    return game, decks, sink.records


def session(demo, decks, seed):
    return Session(cfc, demo.data.models, demo.rules, ["S2,b"], decks, seed, SIGN.ends)


def advanced(demo, seed, n, digest=False):
    """A session of the headless game of ``seed`` given its first ``n`` decisions, and that game."""
    game, decks, _ = headless(demo, seed)
    s = session(demo, decks, seed)
    s.add([])
    for kind, player, answer in game.state["log"][:n]:
        s.add([SIGN(s, codec.encode_answer(s.pending, answer))])
        if digest:
            s.digest()
    return s, game


@pytest.mark.parametrize("seed", [1, 6])
def test_a_session_fed_one_input_at_a_time_is_the_headless_game(demo, seed):
    game, decks, records = headless(demo, seed)
    s = session(demo, decks, seed)
    got = s.add([])
    longest = 0
    for kind, player, answer in game.state["log"]:
        req = s.pending
        assert [req["kind"], req["player"]] == [kind, player]
        before = s.ckpt_at
        got += s.add([SIGN(s, codec.encode_answer(req, answer))])
        longest = max(longest, len(s.log) - before)
    assert s.over and s.pending is None and s.state == game.state
    assert got == records                              # every record once, in order
    per_turn = [0]
    for rec in records:
        if rec["type"] == "turn":
            per_turn.append(0)
        elif rec["type"] == "decision":
            per_turn[-1] += 1
    # a run replays the decisions since the last checkpoint: at most one turn's, never the game's
    assert longest <= max(per_turn) + 1 < len(game.state["log"])
    assert s.runs == len(game.state["log"]) + 1


def test_an_input_that_does_not_fit_leaves_the_session_as_it_was(demo):
    s, game = advanced(demo, 2, 15)
    log, state, ckpt, pending = list(s.log), s.state, s.ckpt, s.pending
    with pytest.raises(codec.InputError):
        s.add([SIGN(s, "99")])
    assert s.log == log and s.state is state and s.ckpt is ckpt and s.pending is pending
    s.add([SIGN(s, codec.encode_answer(s.pending, game.state["log"][15][2]))])
    assert len(s.log) == len(log) + 1


def test_a_concession_ends_the_game_at_the_open_decision(demo):
    s, _game = advanced(demo, 3, 9)
    seat = s.pending["player"]
    records = s.add([SIGN(s, codec.concede_item(seat))])
    assert s.over and s.result["winner"] == 1 - seat and "conceded" in s.result["reason"]
    assert records[-1]["type"] == "gameover"
    with pytest.raises(codec.InputError):
        s.add([SIGN(s, "0", seat=0)])                  # nothing is asked after the end


def test_checksums_are_kept_for_recent_inputs(demo):
    s, _game = advanced(demo, 1, 20, digest=True)
    assert s.sums[len(s.log)] == s.digest()
    assert sorted(s.sums) == list(range(2, len(s.log) + 1))
    assert len(set(s.sums.values())) == len(s.sums)    # every input changed what the game shows


def _turn_starts(game):
    """Indices (in the decision log) of the first decision of each turn after the first."""
    out, turn = [], None
    for i, (kind, player, _answer) in enumerate(game.state["log"]):
        if turn is not None and player != turn and kind == "choose_main_action":
            out.append(i)
        turn = player if kind == "choose_main_action" else turn
    return out


def test_a_hidden_difference_shows_in_the_checksum_by_the_next_turn(demo):
    """The checksum covers the checkpoint's whole state once a turn, and the effects and the open
    decision after every input: a client whose engine differs in a card nobody sees (a deck card's
    BP, which no effect shows) is told apart at the start of the next turn at the latest."""
    game, decks, _ = headless(demo, 1)
    a, b = session(demo, decks, 1), session(demo, decks, 1)
    a.add([])
    b.add([])
    log = game.state["log"]
    start = next(i for i in _turn_starts(game) if i > 4)
    for kind, player, answer in log[:4]:
        for s in (a, b):
            s.add([SIGN(s, codec.encode_answer(s.pending, answer))])
    assert a.digest() == b.digest()
    deck_card = b.ckpt["players"][0]["deck"][-1]
    b.ckpt["cards"][deck_card]["bp"] += 7              # b's engine differs where nothing shows yet
    b.ckpt_sum = None
    differ = []
    for i in range(4, start + 1):
        for s in (a, b):
            s.add([SIGN(s, codec.encode_answer(s.pending, log[i][2]))])
        differ.append(a.digest() != b.digest())
    assert differ[-1]                                   # the next turn's checkpoint holds it


def test_a_different_open_decision_changes_the_checksum(demo):
    s, _game = advanced(demo, 1, 6)
    before = s.digest()
    s.pending = dict(s.pending, player=1 - s.pending["player"])
    del s.sums[len(s.log)]
    assert s.digest() != before


def test_a_table_face_may_make_the_new_game_itself(demo):
    game, decks, _ = headless(demo, 4)
    made = []

    def new_game(models, given, seed):
        made.append((given, seed))
        return cfc.Game(models, [list(reversed(d)) for d in given], None, seed=seed + 1)
    s = Session(cfc, demo.data.models, demo.rules, ["S2,b"], decks, 4, SIGN.ends, new_game)
    s.add([])
    assert made == [(decks, 4)] and s.initial["seed"] == 5
