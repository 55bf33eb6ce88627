"""The hooks a host needs to play a game as a replay of its inputs: checkpoints between turns that
resume exactly, a decider that stops a run (NeedDecision) from anywhere, rule resolutions included,
and conceding."""
import pytest

from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.errors import GameOver, NeedDecision
from rulescript.runtime.plain import deep_copy
from rulescript.sim.deciders import RandomDecider
from rulescript.sim.host import load_table
from tests.conftest import DEMO


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


def _decks(t):
    names = t.data.deck_names()
    return [t.data.deck_list(names[0]), t.data.deck_list(names[-1])]


class Upto(object):
    """Answers from a recorded log, then raises NeedDecision."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.pos = 0
        self.asked = None

    def decide(self, req):
        if self.pos >= len(self.answers):
            self.asked = req
            raise NeedDecision(req)
        self.pos += 1
        return self.answers[self.pos - 1]


def test_checkpoints_between_turns_resume_exactly(demo):
    saved = []
    game = CfcGame(demo.data.models, _decks(demo), RandomDecider(3), rules=demo.engine(), seed=3)
    game.run(checkpoint=lambda g: saved.append((deep_copy(g.state), len(g.state["log"]))))
    assert len(saved) == game.state["turn"] - 1 and len(saved) > 4
    answers = [d[2] for d in game.state["log"]]
    for st, pos in saved[::3]:
        again = CfcGame(demo.data.models, decider=Upto(answers[pos:]), rules=demo.engine(), state=st)
        again.run()
        assert again.state == game.state


def test_need_decision_stops_the_run_anywhere_and_a_rerun_continues(demo):
    game = CfcGame(demo.data.models, _decks(demo), RandomDecider(8), rules=demo.engine(), seed=8)
    game.run()
    log = game.state["log"]
    answers = [d[2] for d in log]
    kinds = set()
    start = CfcGame(demo.data.models, _decks(demo), None, seed=8).state
    for n in range(0, len(log), 7):
        dec = Upto(answers[:n])
        run = CfcGame(demo.data.models, decider=dec, rules=demo.engine(), state=deep_copy(start))
        with pytest.raises(NeedDecision) as info:
            run.run()
        assert info.value.request is dec.asked
        assert [dec.asked["kind"], dec.asked["player"]] == log[n][:2]
        kinds.add(log[n][0])
    # decisions asked by rules (inside a transaction) stop the run too
    assert kinds & {"choose_targets", "yes_no", "choose_player", "top_or_bottom", "arrange", "choose_action"}
    final = CfcGame(demo.data.models, decider=Upto(answers), rules=demo.engine(), state=deep_copy(start))
    final.run()
    assert final.state == game.state


def test_concede_ends_the_game_for_the_other_player(demo):
    game = CfcGame(demo.data.models, _decks(demo), RandomDecider(1), rules=demo.engine(), seed=1)
    game.setup()
    with pytest.raises(GameOver):
        game.concede(1)
    st = game.state
    assert st["over"] and st["winner"] == 0 and st["result"] == "win" and "conceded" in st["reason"]
