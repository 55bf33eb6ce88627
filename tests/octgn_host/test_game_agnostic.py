"""Nothing in the host knows CFC: an invented game package (its own Game class, table face and
decisions, no rings, no HP, no RuleScript rules) is packaged by octgn-pack, played by two clients of
the stand-in through menus and dialogs, and ends where the same game ends headless."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import rulescript.games
from rulescript.compiler import profile as profile_mod
from rulescript.sim.deciders import ScriptedDecider
from tests.conftest import ROOT
from tests.octgn_host.conftest import make_package, table_differences
from tests.octgn_standin import play

INIT = '''"""Duel: an invented two-player game (tests only)."""
from __future__ import absolute_import, division, print_function

from .game import DuelGame as Game

NAME = "duel"
commands = object()
VOCAB = object()
'''

GAME = '''"""Each turn the active player draws and may play a card from the hand for its value; the other
player may then block it (the card is discarded and the blocker loses a point).  After TURNS turns
the higher score wins."""
from __future__ import absolute_import, division, print_function

from ...runtime import rng as _rng
from ...runtime.errors import GameOver
from ...runtime.ports import NullSink, check_answer, make_request

TURNS = 8


class DuelGame(object):
    def __init__(self, models, decks=None, decider=None, sink=None, rules=None, seed=0, state=None):
        self.models = models
        self.decider = decider
        self.sink = sink if sink is not None else NullSink()
        if state is not None:
            self.state = state
            return
        st = {"seed": seed, "rng": _rng.seed_state(seed), "turn": 0, "active": 0, "phase": "setup",
              "players": [], "cards": {}, "next": 0, "log": [], "over": False, "winner": None,
              "result": None, "reason": None}
        for p, deck in enumerate(decks):
            pl = {"hand": [], "deck": [], "discards": [], "table": [], "score": 0}
            for model in deck:
                st["next"] += 1
                st["cards"][st["next"]] = {"model": model, "owner": p}
                pl["deck"].append(st["next"])
            st["players"].append(pl)
        self.state = st

    def ask(self, kind, player, options, prompt=""):
        req = make_request(kind, player, options, 1, 1, prompt)
        answer = check_answer(req, self.decider.decide(req))
        self.state["log"].append([kind, player, answer])
        self.sink.emit({"type": "decision", "kind": kind, "player": player, "answer": answer})
        return answer

    def end(self, winner, reason):
        st = self.state
        st.update(over=True, winner=winner, result="draw" if winner is None else "win", reason=reason)
        self.sink.emit({"type": "gameover", "winner": winner, "reason": reason})
        raise GameOver(winner, reason)

    def concede(self, player):
        self.end(1 - player, "player %d conceded" % player)

    def draw(self, p):
        pl = self.state["players"][p]
        if pl["deck"]:
            pl["hand"].append(pl["deck"].pop(0))

    def run(self, checkpoint=None):
        st = self.state
        try:
            if st["phase"] == "setup":
                for p, pl in enumerate(st["players"]):
                    _rng.shuffle(st["rng"], pl["deck"])
                    for _ in range(3):
                        self.draw(p)
                st["phase"] = "ready"
            while not st["over"]:
                if st["turn"] >= TURNS:
                    a, b = [pl["score"] for pl in st["players"]]
                    self.end(None if a == b else (0 if a > b else 1), "after %d turns" % TURNS)
                self.turn()
                if checkpoint is not None:
                    checkpoint(self)
        except GameOver:
            pass
        return {"winner": st["winner"], "result": st["result"], "reason": st["reason"], "turns": st["turn"]}

    def turn(self):
        st = self.state
        st["turn"] += 1
        p = st["active"] = (st["turn"] - 1) % 2
        st["phase"] = "play"
        self.sink.emit({"type": "turn", "turn": st["turn"], "player": p})
        self.draw(p)
        pl = st["players"][p]
        opts = [{"do": "play", "card": c} for c in pl["hand"]] + [{"do": "rest"}]
        a = self.ask("choose_main_action", p, opts, "play a card")
        if a["do"] == "play":
            c = a["card"]
            pl["hand"].remove(c)
            pl["table"].append(c)
            pl["score"] += self.models[st["cards"][c]["model"]]["value"]
            if self.ask("yes_no", 1 - p, [True, False], "block it") :
                pl["table"].remove(c)
                pl["discards"].insert(0, c)
                pl["score"] -= self.models[st["cards"][c]["model"]]["value"]
                st["players"][1 - p]["score"] -= 1
'''

TABLE = '''"""Table face of the duel."""
from __future__ import absolute_import, division, print_function

PILES = [
    {"name": "Hand", "zone": "hand", "visibility": "me", "ordered": False, "shuffle": False, "view": "expanded"},
    {"name": "Library", "zone": "deck", "visibility": "none", "ordered": True, "shuffle": False, "view": "pile"},
    {"name": "Graveyard", "zone": "discards", "visibility": "all", "ordered": True, "shuffle": False,
     "view": "pile"},
]
COUNTERS = [{"name": "Score", "stat": "score", "default": 0}]
MARKERS = [{"id": "duel-new", "name": "New", "doc": "played this turn"}]
PHASES = [{"name": "Play", "phase": "play"}]
DECK_SECTIONS = [{"name": "Main", "pile": "Library"}]
CARD_ACTIONS = [{"do": "play", "menu": "Put it down"}]
GAME_ACTIONS = [{"do": "rest", "menu": "Rest this turn"}, {"do": "concede", "menu": "Concede"}]
SLOTS = 0
SEATS = 2


def view(state, models):
    cards = {}
    for p, pl in enumerate(state["players"]):
        for pile in PILES:
            for i, c in enumerate(pl[pile["zone"]]):
                cards[c] = {"player": p, "pile": pile["name"], "index": i, "slot": None,
                            "face_up": pile["visibility"] == "all", "markers": {}}
        for i, c in enumerate(pl["table"]):
            new = i == len(pl["table"]) - 1 and state["active"] == p
            cards[c] = {"player": p, "pile": None, "index": i, "slot": None, "face_up": True,
                        "markers": {"duel-new": 1} if new else {}}
    phase = "Play" if state["phase"] == "play" else None
    return {"cards": cards, "counters": [{"Score": pl["score"]} for pl in state["players"]],
            "active": state["active"], "phase": phase}


def describe(record, card_name, player_name):
    if record["type"] == "gameover":
        return "Game over: %s" % record["reason"]
    if record["type"] == "decision" and record["kind"] == "yes_no":
        return "%s %s" % (player_name(record["player"]), "blocks" if record["answer"] else "lets it be")
    return None
'''


@pytest.fixture
def duel(tmp_path, monkeypatch) -> Path:
    games = tmp_path / "games"
    pkg = games / "duel"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "game.py").write_text(GAME)
    (pkg / "table.py").write_text(TABLE)
    cfc = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text(encoding="utf-8")
    (pkg / "profile.yaml").write_text(cfc.replace("profile: cfc", "profile: duel", 1), encoding="utf-8")
    monkeypatch.setattr(profile_mod, "GAMES_DIR", games)
    monkeypatch.setattr(rulescript.games, "__path__", list(rulescript.games.__path__) + [str(games)])
    game = tmp_path / "duel-game"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text("profile: duel\nid: 7c0a5d2e-1b1f-4f43-9d0e-3c6a8b2f9e10\nname: Duel\n"
                                    "version: '1.0'\ndescription: an invented game\n")
    (game / "cards.yaml").write_text("cards:\n" + "".join(
        "  - {id: n%d, name: \"Number %d\", type: action, value: %d}\n" % (k, k, k) for k in range(1, 8)))
    for name in ("low", "high"):
        (game / "decks" / (name + ".yaml")).write_text(
            "name: %s\ncards: {n1: 2, n2: 2, n3: 2, n4: 2, n5: 2, n6: 2, n7: 2}\n" % name)
    yield game
    for name in [m for m in sys.modules if m.startswith("rulescript.games.duel")]:
        del sys.modules[name]


@pytest.mark.parametrize("seed", [1, 3])
def test_an_invented_game_plays_through_the_same_host(duel, tmp_path, seed):
    path = make_package(duel, tmp_path / "dist")
    room, clients = play.setup(str(path), seed)
    play.play(room, clients)
    s = play.summary(room, clients)
    a, b = s["clients"]
    for c in s["clients"]:
        assert c["errors"] == [] and c["host_errors"] == [] and c["off"] is None, c
    assert a["result"] is not None and a["state"] == b["state"]
    blocks = [d for d in a["state"]["log"] if d[0] == "yes_no"]
    assert blocks and all(d[1] != a["state"]["log"][i - 1][1] for i, d in enumerate(a["state"]["log"])
                          if d[0] == "yes_no")                # asked of the player who did not act
    confirms = [d for c in clients for d in c.dialogs if d[0] == "confirm"]
    assert len(confirms) == len(blocks)
    # the same game headless: the package's Game class with the same seed, decks and decisions
    from rulescript.games.duel.game import DuelGame
    from rulescript.games.duel import table as face
    models = {"n%d" % k: {"id": "n%d" % k, "value": k} for k in range(1, 8)}
    game = DuelGame(models, a["decks"], ScriptedDecider([d[2] for d in a["state"]["log"]]), seed=a["seed"])
    assert game.run() == a["result"]
    assert game.state == a["state"]
    assert table_differences(s["table"], face.view(a["state"], models), a["cid"], a["pids"], face) == []
    assert any("blocks" in line or "lets it be" in line for line in a["chat"])
