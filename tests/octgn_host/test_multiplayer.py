"""Lockstep in the stand-in: desyncs are detected and reported, builds that differ do not automate,
reloaded and rejoining clients rebuild from the inputs, conceding out of turn, moves by hand and the
turn button."""
from __future__ import annotations

import pytest

from rulescript.games.cfc import table as cfc_table
from rulescript.sim.deciders import ScriptedDecider
from rulescript.sim.gamelog import play_game
from rulescript.sim.host import load_table
from tests.conftest import DEMO
from tests.octgn_host.conftest import table_differences
from tests.octgn_standin import play
from tests.octgn_standin.octgn import Room
from tests.octgn_standin.package import Package
from tests.octgn_standin.bots import RandomPlayer


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


def hosts(clients):
    return [play.host(c) for c in clients]


def same_as_headless(demo, room, clients):
    """Every engine holds the same finished game as the headless engine, and the table shows it."""
    s = play.summary(room, clients)
    a = s["clients"][0]
    assert a["result"] is not None
    for c in s["clients"][1:]:
        assert c["state"] == a["state"] and c["log"] == a["log"]
    answers = [d[2] for d in a["state"]["log"]]
    game, log = play_game(demo.data, a["decks"], a["seed"], ScriptedDecider(answers), rules=demo.engine())
    assert game.state == a["state"] and log["result"] == a["result"]
    view = cfc_table.view(a["state"], demo.data.models)
    assert table_differences(s["table"], view, a["cid"], a["pids"]) == []
    return s


def lines(client, text):
    return [line for line in client.chat if text in line]


# ---------------------------------------------------------------------- desync
def test_a_forced_desync_is_detected_reported_and_repaired(demo, demo_zip):
    room, clients = play.setup(str(demo_zip), 2)
    play.play(room, clients, max_actions=12)
    a, b = hosts(clients)
    assert a.session.log == b.session.log and a.session.pending is not None
    b.session.ckpt["players"][0]["hp"] -= 700        # Bob's engine no longer matches Alice's
    b.session.ckpt_sum = None                         # (as if its own run had made that checkpoint)
    play.play(room, clients)
    for c in clients:                                 # reported to everybody ...
        assert lines(c, "desync detected on Alice's client") and lines(c, "Bob's client is in step again")
    assert not lines(clients[0], "Automation is off")
    # Bob wrote the checksum, so Alice found the difference; her rebuild changed nothing, and she
    # asked Bob, the wrong one, to rebuild
    assert [t for t in room.traffic if t["text"].startswith("rs_rebuild(") and t["to"] == clients[1].state.pid]
    same_as_headless(demo, room, clients)            # ... and the game went on, in step


def test_a_desync_that_a_rebuild_does_not_repair_stops_automation_everywhere(demo_zip):
    room, clients = play.setup(str(demo_zip), 4)
    play.play(room, clients, max_actions=6)
    a, b = hosts(clients)
    for model in b.models.values():                   # Bob's card data differ for good
        if model.get("bp"):
            model["bp"] += 100
    play.play(room, clients, max_actions=40)
    for c, h in zip(clients, (a, b)):
        assert lines(c, "desync detected on")
        assert h.off is not None and "differ" in h.off
        assert lines(c, "Automation is off")
    # with automation off, the players move cards by hand: the host redoes the move as asked
    hand = [card.cid for card in room.pile_of(clients[0].state, "Hand").cards]
    clients[0].drag(hand[0], "table", x=300, y=40)
    room.run()
    assert room.cards[hand[0]].group is room.table and (room.cards[hand[0]].x, room.cards[hand[0]].y) == (300, 40)


def test_the_checksum_is_compared_whichever_arrives_first(demo_zip):
    """The writer's checksum may arrive before or after the inputs it covers."""
    room, clients = play.setup(str(demo_zip), 7)
    play.play(room, clients, max_actions=8)
    b = hosts(clients)[1]
    n = len(b.session.log)
    b.check("%d.%d.%s" % (n + 1, clients[0].state.pid, "00000000"))   # a check for an input not yet here
    assert (n + 1) in b.checks
    b.check("%d.%d.%s" % (n, clients[0].state.pid, b.session.sums[n]))  # a matching one: nothing to say
    assert n not in b.checks and not lines(clients[1], "desync")


# ---------------------------------------------------------------------- versions
def test_clients_with_different_builds_refuse_to_automate(demo_zip, demo_zip_other_build):
    pa, pb = Package(str(demo_zip)), Package(str(demo_zip_other_build))
    room = Room(pa, seed=3)
    a = room.join("Alice", RandomPlayer(1))
    b = room.join("Bob", RandomPlayer(2), package=pb)
    room.start()
    room.run()
    for c, d in zip((a, b), sorted(pa.decks)):
        room.load_deck(c, d)
        room.run()
    ha, hb = play.host(a), play.host(b)
    assert ha.build != hb.build
    assert ha.session is None and hb.session is None and not room.rnd_calls
    assert ha.off and hb.off
    for c in (a, b):
        assert lines(c, "Automation is off") and lines(c, "cannot automate a game together")
    assert a.table_menu() == ["Automation: resynchronise the table"]


def test_a_start_from_another_build_is_refused(demo_zip):
    room, clients = play.setup(str(demo_zip), 5)
    b = hosts(clients)[1]
    b.build = "other"
    b.rebuild(list(b.session.log))
    assert b.off and "started with build" in b.off
    room.run()
    assert hosts(clients)[0].off                      # Bob told Alice
    assert lines(clients[0], "Automation is off")


# ---------------------------------------------------------------------- reload and rejoin
@pytest.mark.parametrize("who", [[1], [0], [0, 1]])
def test_reloaded_clients_rebuild_from_the_inputs(demo, demo_zip, who):
    room, clients = play.setup(str(demo_zip), 2)
    play.play(room, clients, max_actions=30)
    before = [len(h.session.log) for h in hosts(clients)]
    for k in who:
        clients[k].reload_scripts()                   # all Python state of that client is gone
        assert "_rs_host" not in clients[k].ns        # and no start event makes a new host
    play.play(room, clients)
    for k in who:
        assert clients[k].loads == 2
    s = same_as_headless(demo, room, clients)
    assert all(len(c["log"]) > n for c, n in zip(s["clients"], before))
    assert not [c for c in s["clients"] if c["errors"] or c["host_errors"] or c["off"]]


def test_a_reloaded_client_rebuilds_even_from_its_own_menu(demo_zip):
    room, clients = play.setup(str(demo_zip), 3)
    play.play(room, clients, max_actions=10)
    log = list(hosts(clients)[0].session.log)
    clients[1].reload_scripts()
    assert "_rs_host" not in clients[1].ns
    clients[1].table_menu()                           # the first call makes the host, which rebuilds
    assert log[:len(play.host(clients[1]).session.log)] == play.host(clients[1]).session.log
    room.run()                                        # from the log up to the turn's end, then asks
    assert play.host(clients[1]).session.log == log   # another client for the inputs since


def test_a_rejoining_client_catches_up(demo, demo_zip):
    room, clients = play.setup(str(demo_zip), 2)
    play.play(room, clients, max_actions=10)
    a = hosts(clients)[0]
    # Bob drops while Alice has decisions to make; Alice plays on alone until she waits for Bob
    while a.session.pending is not None and a.session.pending["player"] != 0:
        play.play(room, clients, max_actions=1)
    room.disconnect(clients[1])
    acted = 0
    while a.session.pending is not None and a.session.pending["player"] == 0 and acted < 20:
        clients[0].answer.act(clients[0])
        room.run()
        acted += 1
    assert acted > 0
    room.reconnect(clients[1])                        # new script engine, no start event
    room.run()
    assert play.host(clients[1]).session.log == a.session.log
    play.play(room, clients)
    same_as_headless(demo, room, clients)


# ---------------------------------------------------------------------- out of turn, by hand
def test_conceding_out_of_turn_goes_through_the_deciding_client(demo_zip):
    room, clients = play.setup(str(demo_zip), 6)
    play.play(room, clients, max_actions=5)
    a, b = hosts(clients)
    seat = a.session.pending["player"]
    other = clients[1 - seat]
    other.answer = lambda client, kind, info: True if kind == "confirm" else None
    other.click_table_menu("Concede")
    room.run()
    for h in (a, b):
        assert h.session.over and h.session.result["winner"] == seat
        assert "conceded" in h.session.result["reason"]
    assert a.session.state == b.session.state
    forwards = [t for t in room.traffic if t["text"].startswith("rs_forward(")]
    assert len(forwards) == 1 and forwards[0]["from"] == other.state.pid
    assert clients[0].table_menu() == ["Automation: resynchronise the table"]


def _to_main_phase(room, clients, seat):
    """Play until ``seat`` has an open Main phase decision with a character to play."""
    for _ in range(400):
        h = play.host(clients[0])
        req = h.session.pending
        if req and req["player"] == seat and req["kind"] == "choose_main_action" and \
                [o for o in req["options"] if o["do"] == "play"]:
            return req
        play.play(room, clients, max_actions=1)
    raise AssertionError("no main phase with a character to play")


def test_a_card_dropped_on_the_table_is_played_in_the_slot_under_it(demo_zip):
    from octgn_pack.host.tablesync import place
    room, clients = play.setup(str(demo_zip), 8)
    req = _to_main_phase(room, clients, 0)
    h = play.host(clients[0])
    iid = [o["card"] for o in req["options"] if o["do"] == "play"][0]
    cid = h.cid[iid]
    free = [s for s in range(4) if h.session.state["players"][0]["ring"][s] is None]
    slot = free[-1]
    x, y = place(cfc_table, 0, slot, 0, False)
    clients[0].drag(cid, "table", x=x + 7, y=y)
    room.run()
    card = h.session.state["cards"][iid]
    assert card["zone"] == "ring" and card["slot"] == slot
    assert room.cards[cid].group is room.table and (room.cards[cid].x, room.cards[cid].y) == (x, y)
    assert h.session.state["log"][-2:] == [["choose_main_action", 0, {"do": "play", "card": iid}],
                                           ["choose_slot", 0, slot]]


def test_moves_that_mean_nothing_now_are_refused_with_the_reason(demo_zip):
    room, clients = play.setup(str(demo_zip), 8)
    _to_main_phase(room, clients, 0)
    h = play.host(clients[0])
    log = list(h.session.log)
    bob_card = room.pile_of(clients[1].state, "Hand").cards[0]
    clients[1].drag(bob_card.cid, "table", x=0, y=-150)                # not Bob's decision
    room.run()
    assert bob_card.group.name == "Hand"
    assert lines(clients[1], "stays where it is. It is Alice's decision now")
    alice_card = room.pile_of(clients[0].state, "Hand").cards[0]
    clients[0].drag(alice_card.cid, "Discards")                        # cards move by the rules
    room.run()
    assert alice_card.group.name == "Hand"
    assert lines(clients[0], "stays where it is: the game moves its cards itself")
    assert h.session.log == log and play.host(clients[1]).session.log == log


def test_the_turn_button_answers_pass(demo_zip):
    room, clients = play.setup(str(demo_zip), 8)
    req = _to_main_phase(room, clients, 0)
    h = play.host(clients[0])
    assert room.active is clients[0].state             # the host made the engine's active player OCTGN's
    clients[0].pass_turn()
    room.run()
    assert h.session.state["log"][-1] == ["choose_main_action", 0, {"do": "pass"}]
    assert h.session.pending is not req


def test_a_closed_dialog_leaves_the_question_open(gate_zip):
    room, clients = play.setup(str(gate_zip), 6)
    h = play.host(clients[0])
    for _ in range(300):                               # until a slot is to be chosen by Alice
        req = h.session.pending
        if req and req["player"] == 0 and req["kind"] == "choose_main_action" and \
                [o for o in req["options"] if o["do"] == "play"]:
            break
        play.play(room, clients, max_actions=1)
    bot = clients[0].answer
    clients[0].answer = lambda client, kind, info: 0 if kind == "askChoice" else bot(client, kind, info)
    play_item = [o for o in req["options"] if o["do"] == "play"][0]
    clients[0].click_card_menu(h.cid[play_item["card"]], "Play")
    room.run()
    assert h.session.pending["kind"] == "choose_slot" and lines(clients[0], "The question is still open")
    assert "Answer the open question" in clients[0].table_menu()
    assert "Answer the open question" not in clients[1].table_menu()
    clients[0].answer = bot
    clients[0].click_table_menu("Answer the open question")
    room.run()
    log = h.session.state["log"]
    k = log.index(["choose_main_action", 0, play_item])
    assert log[k + 1][:2] == ["choose_slot", 0]
    assert play.host(clients[1]).session.log == h.session.log


def test_a_game_reset_starts_a_new_automated_game(demo, demo_zip):
    room, clients = play.setup(str(demo_zip), 3)
    play.play(room, clients)
    first = list(hosts(clients)[0].session.log)
    room.reset()                                      # OnGameStarted again: the hosts forget the game
    room.run()
    assert all(h.session is None and h.off is None for h in hosts(clients))
    for c, d in zip(clients, sorted(room.package.decks)):
        room.load_deck(c, d)
        room.run()
    play.play(room, clients)
    s = same_as_headless(demo, room, clients)
    assert s["clients"][0]["log"][0] != first[0]      # other cards (new ids), new commitments
    assert s["clients"][0]["log"][1:3] != first[1:3]  # new seed shares: another seed
    assert room.rnd_calls == []


def test_inputs_that_do_not_fit_are_reported_and_stop_automation_if_a_rebuild_does_not_help(demo_zip):
    room, clients = play.setup(str(demo_zip), 2)
    play.play(room, clients, max_actions=8)
    a, b = hosts(clients)
    seat = a.session.pending["player"]
    holder, other = clients[seat], clients[1 - seat]
    n = len(b.session.log)
    item = hosts(clients)[seat].sign("99")   # signed by the seat that decides: its client is out of step
    other.queue.append(lambda: other.ns["rs_in"](holder.state.pid, n, item))
    room.run()
    for c, h in zip(clients, (a, b)):
        assert lines(c, "the inputs from %s do not fit (input '99' does not name one of the" % holder.state.name)
        assert h.off and "do not fit" in h.off
    assert len(hosts(clients)[1 - seat].session.log) == n   # the bad input was not kept


def test_every_kind_of_desync_is_repaired(demo, demo_zip):
    """Bob's engine loses the hand of the player who decides: depending on who acts next, Bob's own
    input does not replay, Alice's inputs do not fit Bob's game, or the checksums differ; each is
    reported to both players and repaired by rebuilding from the inputs."""
    seen = set()
    for seed in (1, 5, 6):
        room, clients = play.setup(str(demo_zip), seed)
        play.play(room, clients, max_actions=8)
        b = hosts(clients)[1]
        b.session.ckpt["players"][b.session.pending["player"]]["hand"] = []
        play.play(room, clients)
        for c in clients:
            found = lines(c, "desync detected on")
            assert found and lines(c, "is in step again"), (seed, c.chat[-5:])
        for text in ("does not replay its own inputs", "do not fit", "differs from"):
            if [line for line in found if text in line]:
                seen.add(text)
        same_as_headless(demo, room, clients)
    assert seen == {"does not replay its own inputs", "do not fit", "differs from"}


def test_a_table_with_too_many_players_waits_and_says_why(demo_zip):
    room, clients = play.setup(str(demo_zip), 1, players=3)
    assert all(play.host(c).session is None for c in clients) and not room.rnd_calls
    for c in clients:
        assert len(lines(c, "Automation waits: this game is for 2 players and 3 are playing.")) == 1
