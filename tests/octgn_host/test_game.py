"""Two clients play complete demo games in the OCTGN stand-in through menus and dialogs only; each
engine ends where the headless engine ends with the same seed, decks and decisions, and the shared
table shows the final state."""
from __future__ import annotations

import pytest

from octgn_pack.host import codec
from rulescript.games.cfc import table as cfc_table
from rulescript.sim.deciders import ScriptedDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from rulescript.runtime.ports import ListSink
from tests.conftest import DEMO
from tests.octgn_host.conftest import bytes_per_action, median, table_differences
from tests.octgn_standin import play


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


def headless(demo, client):
    """The headless game with the seed, decks and decisions the client's engine had."""
    answers = [d[2] for d in client["state"]["log"]]
    sink = ListSink()
    game, log = play_game(demo.data, client["decks"], client["seed"], ScriptedDecider(answers), sink=sink,
                          rules=demo.engine())
    return game, log, sink.records


def finished(zip_path, seed, players=2, **kw):
    room, clients = play.setup(str(zip_path), seed, players=players, **kw)
    actions = play.play(room, clients)
    return room, clients, play.summary(room, clients), actions


def assert_clean(summary):
    for c in summary["clients"]:
        assert c["errors"] == [] and c["host_errors"] == [], (c["name"], c["errors"], c["host_errors"])
        assert c["off"] is None, c["off"]
        assert c["warnings"] == [], (c["name"], c["warnings"][:3])   # no OCTGN warning in a whole game
    assert summary["alerts"] == []


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_complete_game_equals_the_headless_engine(demo, demo_zip, seed):
    room, clients, s, actions = finished(demo_zip, seed)
    assert_clean(s)
    a, b = s["clients"]
    assert a["result"] is not None and a["result"]["result"] in ("win", "draw"), "the game did not end"
    assert a["state"] == b["state"] and a["log"] == b["log"]
    game, log, records = headless(demo, a)
    assert game.state == a["state"]
    assert log["decisions"] == a["state"]["log"] and log["result"] == a["result"]
    assert log["error"] is None
    # the decks the engine got are the decks the players loaded
    loaded = sorted(sorted(d) for d in a["decks"])
    assert loaded == sorted(sorted(demo.data.deck_list(n)) for n in demo.data.deck_names())
    # the table shows the final state
    view = cfc_table.view(a["state"], demo.data.models)
    assert table_differences(s["table"], view, a["cid"], a["pids"]) == []
    # every player's chat ends with the result (the acting client's notify reaches everybody)
    assert any(line.startswith("Game over:") for line in a["chat"]) and any(
        line.startswith("Game over:") for line in b["chat"])
    assert actions > 10


def test_each_engine_record_becomes_chat_once(demo, demo_zip):
    """Re-runs from the checkpoint repeat records; only new ones reach the chat, exactly once.  The
    expected lines are written here from the headless game's records in the chat's wording (a turn,
    a KO, damage to a player, the end), not with the host's own describe()."""
    room, clients, s, _ = finished(demo_zip, 3)
    a = s["clients"][0]
    _game, _log, records = headless(demo, a)
    name = {seat: play.NAMES[pid - 1] for seat, pid in enumerate(a["pids"])}   # clients join in NAMES order

    def card(iid):
        return demo.data.models[a["state"]["cards"][iid]["model"]]["name"]

    chat = [line for line in a["chat"] if not line.startswith("Your decision")]
    first = [r for r in records if r["type"] == "setup"][0]["first"]
    assert chat[0] == "%s goes first" % name[first] and chat.count(chat[0]) == 1
    assert [line for line in chat if line.startswith("Turn ")] == [
        "Turn %d: %s" % (r["turn"], name[r["player"]]) for r in records if r["type"] == "turn"]
    assert [line for line in chat if line.endswith(" is knocked out")] == [
        "%s is knocked out" % card(r["card"]) for r in records if r["type"] == "ko"]
    assert [line for line in chat if " damage (HP " in line] == [
        "%s takes %s damage (HP %s)" % (name[r["player"]], r["damage"], r["value"])
        for r in records if r["type"] == "stat" and "player" in r and r.get("damage") is not None]
    over = [line for line in chat if line.startswith("Game over:")]
    assert len(over) == 1 and a["result"] is not None


def test_clients_send_only_inputs(demo_zip):
    room, clients, s, _ = finished(demo_zip, 2)
    a = s["clients"][0]
    calls = [t for t in s["traffic"] if t["kind"] == "remoteCall"]
    hellos = [t for t in calls if t["text"].startswith("rs_hello(")]
    sent = [t for t in calls if t["text"].startswith("rs_in(")]
    reveals = [t for t in calls if t["text"].startswith("rs_reveal(")]
    assert len(hellos) == 4                 # each client announces its build once, the other answers
    assert len(reveals) == 2                # each client reveals its seed share to the other
    assert sent and len(sent) + len(hellos) + len(reveals) == len(calls)
    # the remote calls carry exactly the input log, once, in order: the start, then (after the seed
    # shares, sent with rs_reveal) the inputs
    head = a["log"][:3]
    assert sorted(t["text"].split('"')[1] for t in reveals) == head[1:]
    items = []
    for t in sent:
        args = t["text"][len("rs_in("):-1].split(",", 2)
        first, text = int(args[1]), args[2].strip('"')
        if first == 0:
            assert items == [] and codec.split(text) == head[:1]
            items = list(head)
            continue
        assert first == len(items)
        items.extend(codec.split(text))
    assert items == a["log"]
    calls, total = bytes_per_action(s["traffic"])
    assert median(calls) <= 40 and median(total) <= 100, (median(calls), median(total))
    assert max(t["bytes"] for t in s["traffic"] if t["kind"] == "gvar") < 8 * len(codec.join(a["log"])) + 100


def test_the_other_player_decides_in_the_middle_of_an_action(gate_dir, gate_zip):
    """A Gatekeeper asks its controller whenever the opponent's ring changes: the acting client's run
    stops, the other client opens the dialog in its remote call, answers, and the game goes on."""
    room, clients, s, _ = finished(gate_zip, 6)
    assert_clean(s)
    a, b = s["clients"]
    assert a["state"] == b["state"] and a["result"] is not None
    asked = [d for d in a["state"]["log"] if d[0] == "yes_no"]
    assert len(asked) >= 2 and {d[1] for d in asked} == {0, 1}
    for seat, client in enumerate(clients):
        confirms = [d for d in client.dialogs if d[0] == "confirm"]
        assert len(confirms) == len([d for d in asked if d[1] == seat])
        assert all("Gain 1 SP" in d[1]["text"] for d in confirms)
    # each yes/no came right after an input of the other player (its run stopped for it)
    log = a["state"]["log"]
    assert any(log[i][0] == "yes_no" and log[i - 1][1] != log[i][1] for i in range(1, len(log)))
    gate = load_table(gate_dir)
    answers = [d[2] for d in log]
    game, hlog = play_game(gate.data, a["decks"], a["seed"], ScriptedDecider(answers), rules=gate.engine())
    assert game.state == a["state"] and hlog["result"] == a["result"]
