"""A table players can trust: an input in another seat's name (forged, replayed, malformed) is refused
the same way on every client and said once in each player's chat, the game goes on; nobody chooses
the seed; items are bounded before anything is expanded."""
from __future__ import annotations

import pytest

from octgn_pack.host import auth, codec
from tests.octgn_standin import play

FORGED = "AAAAAAAA"


def hosts(clients):
    return [play.host(c) for c in clients]


def remote(sender, target, fn, args, also_local=True):
    """``sender``'s client sends ``fn(*args)`` to ``target`` (and runs it itself, as a cheat would)."""
    def job():
        ns = sender.ns
        ns["remoteCall"](ns["Player"](target.state.pid), fn, args)
        if also_local:
            ns[fn](*args)
    sender.queue.append(job)


def refusals(client):
    return [line for line in client.chat if "refused an input in the name of" in line]


def assert_finished_in_step(room, clients):
    s = play.summary(room, clients)
    first = s["clients"][0]
    assert first["result"] is not None, "the game did not end"
    for c in s["clients"]:
        assert c["errors"] == [] and c["host_errors"] == [] and c["off"] is None, c
        assert c["state"] == first["state"] and c["log"] == first["log"]
    assert room.warnings == [] and room.alerts == []
    return s


def forge(room, clients, cheat, payload, claimed_seat, kind):
    """``cheat``'s client sends an input in ``claimed_seat``'s name to every other client; returns
    what each client's log was before."""
    hs = hosts(clients)
    logs = [list(h.session.log) for h in hs]
    n = len(logs[0])
    for c in clients:
        if c is not cheat:
            remote(cheat, c, "rs_in", [cheat.state.pid, n, payload], also_local=False)
    cheat.queue.append(lambda: cheat.ns["rs_in"](cheat.state.pid, n, payload))
    room.run()
    for c, h, log in zip(clients, hs, logs):
        assert h.session.log == log, (kind, payload)            # refused everywhere, nothing changed
        assert h.off is None
    return logs


MENU_KINDS = {"choose_main_action", "choose_attack", "choose_defense"}


def closing(bot, forged):
    """A random player who closes the first dialog of a decision kind not forged yet (the question
    stays open between jobs, so the other client can try to answer it)."""
    def answer(client, kind, info):
        h = play.host(client)
        req = h.session.pending if h is not None and h.session is not None else None
        if req is not None and req["kind"] not in forged and not req.get("cancel") and \
                kind in ("askChoice", "cardDlg"):
            return 0 if kind == "askChoice" else None
        return bot(client, kind, info)
    return answer


@pytest.mark.parametrize("seed", [3, 5])
def test_forged_inputs_of_every_kind_are_refused_everywhere_and_the_game_completes(demo_zip, seed):
    room, clients = play.setup(str(demo_zip), seed)
    hs = hosts(clients)
    kinds = {}
    bots = [c.answer for c in clients]
    for c, bot in zip(clients, bots):
        c.answer = closing(bot, kinds)
    actions = 0
    while actions < 3000:
        room.run()
        h = hs[0]
        req = h.session.pending if h.session else None
        if req is not None and req["kind"] not in kinds:
            seat = req["player"]
            cheat = clients[1 - seat]
            own = [i for i in h.session.log[h.session.head:]]
            replayed = own[-1].split("~", 1)[1] if own else FORGED
            attempts = ["0~" + FORGED, "0", "0~" + replayed, "0~" + FORGED + "~" + FORGED, "0~!!", "n~" + FORGED]
            before = len(refusals(clients[seat]))
            for payload in attempts:
                forge(room, clients, cheat, payload, seat, req["kind"])
            # each refusal is said once in every player's chat, naming the seat the input claimed
            said = refusals(clients[seat])[before:]
            assert said and all("seat %d" % (seat + 1) in line for line in said), said
            assert refusals(cheat)[-len(said):] == said       # the cheat's own engine refused them too
            kinds[req["kind"]] = len(said)
        acted = False
        for c, bot in zip(clients, bots):
            if bot.act(c):
                acted = True
                break
        if not acted:
            break
        actions += 1
    # the menu decisions and decisions asked in dialogs (left open by a closed dialog)
    assert MENU_KINDS <= set(kinds) and set(kinds) - MENU_KINDS, kinds
    assert_finished_in_step(room, clients)


def test_a_forged_concession_is_refused_and_a_real_one_goes_through(demo_zip):
    room, clients = play.setup(str(demo_zip), 2)
    play.play(room, clients, max_actions=8)
    a, b = clients
    ha, hb = hosts(clients)
    seat_a = ha.seat()
    # Bob concedes in Alice's name: without her token, with his own token, with a used token of hers
    theirs = [i.split("~", 1)[1] for i in ha.session.log[ha.session.head:] if "~" in i]
    for payload in ("Q%d" % seat_a, "Q%d~%s" % (seat_a, FORGED), "Q%d~%s" % (seat_a, theirs[0])):
        forge(room, clients, b, payload, seat_a, "concede")
        remote(b, a, "rs_forward", [b.state.pid, payload], also_local=False)
        room.run()
        assert not ha.session.over and not hb.session.over
    assert refusals(a) and all("seat %d" % (seat_a + 1) in line for line in refusals(a))
    play.play(room, clients)
    assert_finished_in_step(room, clients)


def test_a_forged_start_and_a_forged_seed_share_are_refused(demo_zip):
    from tests.octgn_standin.octgn import Room
    from tests.octgn_standin.package import Package
    from tests.octgn_standin.bots import RandomPlayer
    room = Room(Package(str(demo_zip)), seed=5)
    a = room.join("Alice", RandomPlayer(11))
    b = room.join("Bob", RandomPlayer(12))
    room.start()
    room.run()
    ha, hb = hosts([a, b])
    room.load_deck(b, sorted(room.package.decks)[1])
    room.run()
    # before Alice's deck is loaded, Bob (not the elected client) sends a start with his own numbers
    deck_b = hb.deck_of(hb.octgn.player(b.state.pid))
    fake = codec.encode_start(hb.build, [(a.state.pid, FORGED, "B" * 22, []),
                                         (b.state.pid, *hb.my_commit().split(":"), deck_b)])
    remote(b, a, "rs_in", [b.state.pid, 0, fake], also_local=False)
    room.run()
    assert ha.starting is None and refusals(a) and "seat 1" in refusals(a)[0]
    room.load_deck(a, sorted(room.package.decks)[0])
    room.run()
    # the real start is out; Bob sends a seed share in Alice's name before hers arrives... too late
    # here, so he sends a second one for her seat, and one that does not open his commitment
    for item in ("R0~" + "C" * 22, "R1~" + "D" * 22):
        remote(b, a, "rs_reveal", [b.state.pid, item], also_local=False)
    room.run()
    assert ha.session is not None and ha.session.log == hb.session.log
    assert len(refusals(a)) == 3
    play.play(room, [a, b])
    assert_finished_in_step(room, [a, b])


def test_no_client_chooses_the_seed(demo_zip):
    room, clients = play.setup(str(demo_zip), 4)
    ha, hb = hosts(clients)
    start = codec.decode_start(ha.session.log[0])
    shares = [codec.unsign(i)[1] for i in ha.session.log[1:3]]
    # every seat committed to its share in the start item, before anybody revealed one
    assert [auth.share_commitment(s) for s in shares] == [s["commitment"] for s in start["seats"]]
    assert shares == [ha.keys.share(), hb.keys.share()]
    # the seed is made of both shares: either player's share alone changes it; OCTGN's rnd is not used
    assert ha.session.seed == hb.session.seed == auth.seed_of(shares)
    assert auth.seed_of([shares[0], "X" * 22]) != ha.session.seed != auth.seed_of(["X" * 22, shares[1]])
    assert room.rnd_calls == []
    # a share that does not open its commitment is refused: Alice cannot reveal another one later
    with pytest.raises(Exception) as refused:    # the package's own codec module: compare by name
        ha.begin([ha.session.log[0], codec.reveal_item(0, "Z" * 22), ha.session.log[2]])
    assert type(refused.value).__name__ == "Forged" and refused.value.seat == 0


@pytest.mark.parametrize("text", [
    "S2,b,1:AAAAAAAA:" + "B" * 22 + ":0-100000000",       # a deck of 10**8 cards
    "S2,b,1:AAAAAAAA:" + "B" * 22 + ":" + ".".join(str(i * 2) for i in range(2000)),
    "S2,b," + ",".join("%d:A:B:1" % i for i in range(100)),   # more seats than any game
    "1" * 5000, "0." * 3000, "Q" + "9" * 400, "3~" + "A" * 300,
])
def test_oversized_items_are_refused_before_anything_is_expanded(demo_zip, text):
    room, clients = play.setup(str(demo_zip), 1, players=2, decks=[])   # no game yet
    a, b = clients
    remote(b, a, "rs_in", [b.state.pid, 0, text], also_local=False)
    room.run()
    ha = play.host(a)
    assert a.errors == [] and ha.errors == [] and ha.session is None and ha.off is None
    assert refusals(a)
    with pytest.raises(codec.InputError):
        codec.decode_start(text if text.startswith("S") else "S2,b,1:A:B:" + text)


def test_bounded_decoding_in_the_codec():
    assert codec.decode_ranges("1-3.7") == [1, 2, 3, 7]
    for bad in ("0-100000000", "5-3", "1.1", "3.2", "1-" + "9" * 40, "x"):
        with pytest.raises(codec.InputError):
            codec.decode_ranges(bad)
    with pytest.raises(codec.InputError):
        codec.decode_ranges("1-60", limit=50)
    from rulescript.runtime.ports import make_request
    req = make_request("choose_targets", 0, [1, 2, 3], 0, 3)
    with pytest.raises(codec.InputError):
        codec.decode_answer(req, "0.1.2.0")                   # more indexes than options
    with pytest.raises(codec.InputError):
        codec.decode_answer(req, "9" * 5000)                  # never an int of 5000 digits
    for bad in ("", "a" * (codec.MAX_ITEM + 1), "1 2", 'x"', "1;2"):
        with pytest.raises(codec.Forged):
            codec.check_item(bad)
