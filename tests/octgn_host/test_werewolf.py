"""The rendered werewolf game (``octgn-pack build cards/werewolf``) played in the OCTGN stand-in by five
and fifteen clients through menus and dialogs only: nobody loads a deck, the game deals the role
cards face down (each player looks at their own), night actions are card menu items of the player's
own role card followed by a dialog of seats, votes are dialogs, the chat tells the narrative of
``rulescript play --auto`` with private lines whispered to their readers only, and the game ends
where the headless engine (``rulescript/sim/wolf.py``) ends with the same seed and decisions."""
from __future__ import annotations

import ast
import collections
import os
import subprocess

import pytest

from octgn_pack.host import codec
from octgn_pack.host.lockstep import Session
from octgn_pack.py27 import find_python27
from rulescript.games import werewolf
from rulescript.games.werewolf import narrative
from rulescript.games.werewolf import table as face
from rulescript.runtime.ports import ListSink
from rulescript.sim.deciders import ScriptedDecider
from rulescript.sim.wolf import load_wolf_table
from tests.conftest import ROOT
from tests.octgn_host.conftest import WOLF, Signer, table_differences
from tests.octgn_host.test_game import assert_clean, finished
from tests.octgn_standin import play

#: what the host itself says (not the game's narrative)
HOST_TEXT = ("Your decision", "Automation", "RuleScript host error", "The question is still open",
             "It is ", "Another player", "The game", "You closed the dialog")


@pytest.fixture(scope="module")
def wolf():
    return load_wolf_table(WOLF)


def headless(wolf, client):
    """The headless game with the seed, the players' names and the decisions the client's engine had."""
    st = client["state"]
    names = [p["name"] for p in st["players"]]
    sink = ListSink()
    game, eng = wolf.new_game(wolf.roles_for(len(names)), client["seed"], ScriptedDecider(st["log"], strict=True),
                              sink=sink, names=names)
    result = game.run()
    assert eng.errors == []
    return game, result, sink.records


def narrative_of(records, client):
    """``[(line, readers)]`` of the headless records, with the OCTGN players' names."""
    names = [p["name"] for p in client["state"]["players"]]
    out = []
    for rec in records:
        line = face.describe(rec, lambda eid: WOLF_NAMES.get(eid, eid), lambda p: names[p])
        if line:
            out.append((line, narrative.audience(rec)))
    return out


WOLF_NAMES: dict = {}


def is_subsequence(items, seq):
    it = iter(seq)
    return all(any(x == y for y in it) for x in items)


def game_lines(chat):
    return [line for line in chat if not line.startswith(HOST_TEXT)]


def table_shows(summary, state, client):
    """Where the stand-in's table differs from the werewolf view of ``state`` (places, sides, markers,
    and who looked at a face-down card)."""
    view = face.view(state, {})
    out = table_differences(summary["table"], view, client["cid"], client["pids"], face)
    cards = summary["table"]["cards"]
    for iid, v in view["cards"].items():
        c = cards[client["cid"][iid]]
        if v["pile"] is None and c["face_up"] != v["face_up"]:
            out.append((iid, "face up" if v["face_up"] else "face down", c["face_up"]))
        if v["pile"] is None and not v["face_up"] and c["peeked_by"] != [client["pids"][s] for s in v["seen_by"]]:
            out.append((iid, "seen by", v["seen_by"], c["peeked_by"]))
    return out


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_five_clients_play_a_complete_game_equal_to_the_headless_engine(wolf, wolf_zip, seed):
    WOLF_NAMES.update((k, m.get("name", k)) for k, m in wolf.data.models.items())
    room, clients, s, actions = finished(wolf_zip, seed, 5)
    assert_clean(s)
    a = s["clients"][0]
    assert a["result"] is not None and a["result"]["result"] == "win", "the game did not end"
    for c in s["clients"][1:]:
        assert c["state"] == a["state"] and c["log"] == a["log"]
    # nobody loaded a deck: the game dealt the role list for five players
    assert a["decks"] == [[]] * 5 and sorted(wolf.roles_for(5)) == sorted(
        a["state"]["cards"][p["role"]]["model"] for p in a["state"]["players"])
    assert [p["name"] for p in a["state"]["players"]] == list(play.NAMES[:5])
    game, result, records = headless(wolf, a)
    assert game.state == a["state"] and result == a["result"]
    # the night actions came from a card menu (then a dialog of seats), every vote from a dialog
    kinds = collections.Counter(d[0] for d in a["state"]["log"])
    assert kinds["use_ability"] >= 1 and kinds["vote"] >= 5 and actions >= 1
    dialogs = [d for c in clients for d in c.dialogs]
    assert all(kind == "askChoice" for kind, _info in dialogs)
    declined = [d for d in a["state"]["log"] if d[2] is None]   # with the table menu, no dialog
    assert len(dialogs) == len(a["state"]["log"]) - len(declined)
    assert all(d[0] == "use_ability" for d in declined)
    for kind, info in dialogs:        # seats are named by their players
        assert set(info["choices"]) <= set(play.NAMES[:5]) | {"Use it"}
    # the table shows the final state: dead players' roles face up, the living's face down and seen
    # by their owner only; every element card the game made has its OCTGN card
    assert table_shows(s, a["state"], a) == []
    # the chat: public lines of the narrative for everybody (the acting client's notify), every other
    # line whispered to its readers only
    lines = narrative_of(records, a)
    for c in s["clients"]:
        seat = c["seat"]
        want = [text for text, readers in lines if readers is None or seat in readers]
        # in the game's order: a private line (the seer's result, the deal) comes before the public
        # lines that follow it in the game
        assert game_lines(c["chat"]) == want, c["name"]
    assert any(line.startswith("Werewolves win:") or line.startswith("Villagers win:") for line in a["chat"])


def test_private_results_reach_only_their_player(wolf, wolf_zip):
    WOLF_NAMES.update((k, m.get("name", k)) for k, m in wolf.data.models.items())
    room, clients, s, _ = finished(wolf_zip, 2, 5)   # a game that reaches the pack's hunt (night 2)
    assert_clean(s)
    a = s["clients"][0]
    st = a["state"]
    roles = [st["cards"][p["role"]]["model"] for p in st["players"]]
    seer = roles.index("seer")
    chats = [c["chat"] for c in s["clients"]]
    divined = [line for line in chats[seer] if " investigates " in line]
    learned = [line for line in chats[seer] if " learns: " in line]
    assert divined and learned                              # the seer used the action and heard back
    for k, chat in enumerate(chats):
        if k != seer:
            assert not set(divined + learned) & set(chat)
            assert not [line for line in chat if "seer.divine" in line]
    # the pack's channel and its hunt only for its members
    pack = st["groups"]["werewolf-pack"]["members"]
    hunt = [line for line in chats[pack[0]] if "Pack Hunt" in line]
    assert hunt
    for k, chat in enumerate(chats):
        assert bool([line for line in chat if "Pack Hunt" in line]) == (k in pack)
    # each player was told their own role, and only theirs
    for k, chat in enumerate(chats):
        dealt = [line for line in chat if " is dealt " in line]
        assert dealt == ["%s is dealt %s (face down)." % (play.NAMES[k], WOLF_NAMES[roles[k]])]
    # whoever is asked a night action is not named to the others
    assert not [line for chat in chats for line in chat if line.startswith("It is ") and "seer" in line]


class Watching(object):
    """A player who checks the shared table before each move, once every client has run every input
    (each client turns only its own player's role card): role cards lie face down and only their
    owner sees them while the player lives; a dead player's role is face up for all."""

    def __init__(self, inner, room, clients, seen):
        self.inner, self.room, self.clients, self.seen = inner, room, clients, seen

    def act(self, client):
        self.check(client)
        return self.inner.act(client)

    def __call__(self, client, kind, info):
        return self.inner(client, kind, info)

    def check(self, client):
        h = play.host(client)
        if h is None or h.session is None or h.session.over:
            return  # (at the end every role is revealed: checked after the game)
        st = h.session.state
        for seat, p in enumerate(st["players"]):
            cid = h.cid.get(p["role"])
            if cid is None:
                continue
            card = self.room.cards[cid]
            assert card.face_up == (not p["alive"]), (seat, p["alive"])
            for k, other in enumerate(self.clients):
                assert (other.sees(cid) is not None) == (k == seat or not p["alive"]), (seat, k)
            self.seen.add((seat, p["alive"]))


def test_role_cards_are_face_down_until_death(wolf_zip):
    room, clients = play.setup(str(wolf_zip), 2, players=5)
    seen: set = set()
    for c in clients:
        c.answer = Watching(c.answer, room, clients, seen)
    play.play(room, clients)
    s = play.summary(room, clients)
    assert_clean(s)
    a = s["clients"][0]
    assert a["result"] is not None
    # the checks ran while players were alive and after some had died
    assert {alive for _seat, alive in seen} == {True, False} and len(seen) >= 6
    # (Watching checked the living's cards while the game went on); at the end every role is revealed
    for seat, p in enumerate(a["state"]["players"]):
        cid = a["cid"][p["role"]]
        for k, other in enumerate(clients):
            assert other.sees(cid) is not None


def test_a_forced_desync_is_detected_reported_and_repaired(wolf, wolf_zip):
    WOLF_NAMES.update((k, m.get("name", k)) for k, m in wolf.data.models.items())
    room, clients = play.setup(str(wolf_zip), 5, players=5)
    play.play(room, clients, max_actions=1)
    hosts = [play.host(c) for c in clients]
    assert hosts[0].session.pending is not None and hosts[0].session.log == hosts[1].session.log
    hosts[1].session.ckpt["players"][0]["counter"] += 7       # Bob's engine no longer matches the others'
    play.play(room, clients)
    s = play.summary(room, clients)
    reported = [line for c in clients for line in c.chat if "desync detected" in line]
    assert reported and all([line for line in c.chat if "desync detected" in line] for c in clients)
    assert [line for line in clients[0].chat if "Bob's client is in step again" in line]
    assert_clean(s)
    a = s["clients"][0]
    for c in s["clients"][1:]:
        assert c["state"] == a["state"]
    game, result, _ = headless(wolf, a)
    assert game.state == a["state"] and result == a["result"]


@pytest.mark.parametrize("who", [[2], [0, 3]])
def test_reloaded_clients_rebuild_and_learn_the_cards_others_made(wolf, wolf_zip, who):
    room, clients = play.setup(str(wolf_zip), 4, players=5)
    play.play(room, clients, max_actions=1)
    for k in who:
        clients[k].reload_scripts()                   # all Python state of that client is gone
        assert "_rs_host" not in clients[k].ns
    for k in who:
        clients[k].table_menu()                       # the first call makes the host, which rebuilds
        h = play.host(clients[k])
        assert h.cid == play.host(clients[1]).cid     # the OCTGN cards of the game, from rs_cards
        role = h.session.state["players"][k]["role"]
        assert clients[k].sees(h.cid[role]) is not None   # and its player still sees their own role
    play.play(room, clients)
    s = play.summary(room, clients)
    assert_clean(s)
    a = s["clients"][0]
    assert all(c["state"] == a["state"] for c in s["clients"])
    game, result, _ = headless(wolf, a)
    assert game.state == a["state"] and result == a["result"]
    assert table_shows(s, a["state"], a) == []


def test_a_player_who_leaves_is_out_and_the_game_goes_on(wolf_zip):
    room, clients = play.setup(str(wolf_zip), 3, players=5)
    play.play(room, clients, max_actions=1)
    carol = clients[2]
    assert "Leave the game" in carol.table_menu()

    def yes(client, kind, info):
        assert kind == "confirm"
        return True
    answer, carol.answer = carol.answer, yes
    carol.click_table_menu("Leave the game")
    room.run()
    carol.answer = answer
    play.play(room, clients)
    s = play.summary(room, clients)
    assert_clean(s)
    a = s["clients"][0]
    assert all(c["state"] == a["state"] for c in s["clients"])
    left = a["state"]["players"][2]
    assert left["left"] == "left" and not left["alive"] and a["result"] is not None
    assert 2 not in a["result"]["winners"]
    assert all("Carol leaves the game (left)." in c.chat for c in clients)
    assert room.cards[a["cid"][left["role"]]].face_up           # out of the game: the role is shown
    # nothing was asked of Carol after she left (but the question that was open, if it was hers)
    out = [i for i, d in enumerate(a["state"]["log"]) if d[1] == 2]
    head = 1 + len(a["pids"])        # the start item and one seed share per seat
    q = [i for i, item in enumerate(a["log"]) if item.split("~")[0] == "Q2"][0] - head   # decisions before it
    assert len([i for i in out if i >= q]) <= 1


def test_the_game_waits_for_a_number_of_players_it_has_a_role_list_for(wolf_zip):
    room, clients = play.setup(str(wolf_zip), 1, players=4)
    s = play.summary(room, clients)
    assert all(c["log"] is None for c in s["clients"])
    assert [line for line in clients[0].chat if "this game is for 5 or 15 players and 4 are playing" in line]


def test_a_session_of_the_werewolf_game_resumes_from_its_checkpoints(wolf):
    """The host's replay from the last checkpoint: a day or a night at most, never the whole game."""
    roles = wolf.roles_for(5)
    models = wolf.data.models
    sign = Signer(5)
    s = Session(werewolf, models, wolf.compiled.rules, ["S2,b"], [[]] * 5, 9, sign.ends,
                lambda m, d, seed: face.new_game(m, d, seed, {"role_lists": {5: roles}}))
    s.add([])
    answers = []
    while not s.over:
        req = s.pending
        answer = req["options"][len(answers) % len(req["options"])]
        item = sign(s, codec.encode_answer(req, answer))
        answers.append([req["kind"], req["player"], answer])
        before = s.ckpt_at
        s.add([item])
        assert s.ckpt_at >= before
        assert len(s.log) - s.ckpt_at <= 5 + 5     # at most a phase of votes and actions to replay
    game, _eng = wolf.new_game(roles, 9, ScriptedDecider(answers, strict=True))
    assert game.run() == s.result and game.state == s.state


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 200 s on a loaded two-core machine
@pytest.mark.parametrize("seed", [3])
def test_fifteen_clients_play_a_complete_game(wolf, wolf_zip, seed):
    WOLF_NAMES.update((k, m.get("name", k)) for k, m in wolf.data.models.items())
    room, clients, s, _ = finished(wolf_zip, seed, 15)
    assert_clean(s)
    a = s["clients"][0]
    assert a["result"] is not None and all(c["state"] == a["state"] for c in s["clients"])
    game, result, records = headless(wolf, a)
    assert game.state == a["state"] and result == a["result"]
    assert table_shows(s, a["state"], a) == []
    lines = narrative_of(records, a)
    for c in s["clients"]:
        want = [text for text, readers in lines if readers is None or c["seat"] in readers]
        assert game_lines(c["chat"]) == want, c["name"]
    # choosing among 15 players: pages of named players, never a number; titles in words
    dialogs = [info for c in clients for kind, info in c.dialogs]
    assert dialogs and all(kind == "askChoice" for c in clients for kind, _info in c.dialogs)
    for info in dialogs:
        assert set(info["choices"]) <= set(play.NAMES[:15]) | {"Use it"} and len(info["choices"]) <= 12
        assert " - " in info["text"] and not any(w in info["text"] for w in (".", "pack-hunt", ": lynch"))
    assert any(info["buttons"] == ["More"] for info in dialogs)
    titles = {info["text"].split(" (")[0] for info in dialogs}
    assert "Lynch - vote for a player" in titles
    # the seats lie on a ring inside OCTGN's table (1000 x 600 around 0, 0), each role card its own place
    places = [(c["x"], c["y"]) for cid, c in s["table"]["cards"].items()
              if cid in {a["cid"][p["role"]] for p in a["state"]["players"]}]
    assert len(set(places)) == 15
    assert all(-500 <= x <= 500 - face.CARD_W and -300 <= y <= 300 - face.CARD_H for x, y in places)


def run_py27(python, zip_path, seed, players):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
    proc = subprocess.run([python, "-m", "octgn_standin.play", str(zip_path), str(seed), str(players)],
                          capture_output=True, text=True, cwd=str(ROOT / "tests"), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return ast.literal_eval(proc.stdout.strip())


def test_five_clients_play_the_same_game_under_python_27(wolf, wolf_zip):
    py27 = find_python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available (set PYTHON27 to one)")
    s27 = run_py27(py27, wolf_zip, 2, 5)
    assert_clean(s27)
    a = s27["clients"][0]
    assert a["result"] is not None and all(c["state"] == a["state"] for c in s27["clients"])
    # the same seed in this Python 3 gives the very same game, table, chats and traffic
    room, clients, s3, _ = finished(wolf_zip, 2, 5)
    assert s3["clients"][0]["state"] == a["state"] and s3["clients"][0]["log"] == a["log"]
    assert [t["text"] for t in s3["traffic"]] == [t["text"] for t in s27["traffic"]]
    assert s3["table"] == s27["table"]
    assert [c["chat"] for c in s3["clients"]] == [c["chat"] for c in s27["clients"]]
    # and the headless engine agrees; the checksums written under 2.7 are Python 3's
    game, result, _ = headless(wolf, a)
    assert game.state == a["state"] and result == a["result"]
    checks = [t["text"][len("rs_check"):] for t in s27["traffic"] if t["kind"] == "gvar" and
              t["text"].startswith("rs_check")]
    n, _pid, digest = codec.decode_check(checks[-1])
    assert n == len(a["log"]) and digest == play.host(clients[0]).session.digest()
