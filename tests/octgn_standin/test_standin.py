"""The stand-in behaves as shared/spec/octgn.md sections 4-6 describe OCTGN: script loading, job
queues, event delivery, remoteCall's sandbox, rnd, global variables, turns and control."""
import zipfile

import pytest

from .octgn import Room, StandInError
from .package import Package

GUID = "11111111-2222-3333-4444-555555555555"
CARD = "aaaaaaaa-0000-0000-0000-000000000001"

DEFINITION = """<?xml version="1.0" encoding="utf-8"?>
<game name="Probe" id="%s" version="1.0.0.0" scriptVersion="3.1.0.2">
<scripts><script src="Scripts/a.py"/><script src="Scripts/b.py"/><script src="Scripts/c.py"/></scripts>
<events>
<event name="OnTableLoaded" action="onTable"/><event name="OnGameStarted" action="onStarted"/>
<event name="OnGlobalVariableChanged" action="onGvar"/>
<event name="OnPlayerGlobalVariableChanged" action="onPvar"/>
<event name="OnCounterChanged" action="onCounter"/><event name="OnMarkerChanged" action="onMarker"/>
<event name="OnScriptedCardsMoved" action="onScripted"/><event name="OverrideCardsMoved" action="onOverride"/>
<event name="OnTurnPassed" action="onTurn"/><event name="OnDeckLoaded" action="onDeck"/>
<event name="OnPlayerConnected" action="onConnected"/>
</events>
<phases><phase name="One" icon="x"/><phase name="Two" icon="x"/></phases>
<globalvariables><globalvariable name="g" value="start"/></globalvariables>
<table name="Table" width="100" height="100">
<groupaction menu="Hidden" execute="hello" showIf="never"/><groupaction menu="Shown" execute="hello"/>
</table>
<player><counter name="HP" default="20"/><globalvariable name="pv" value=""/>
<group name="Hand" visibility="me"/><group name="Deck" visibility="none"/><group name="O'Pile" visibility="all"/>
</player>
<deck><section name="Main" group="Deck"/><section name="Lost" group="Nowhere"/></deck>
</game>""" % GUID

SCRIPT_A = '''
LOG = []
import probe
def rec(*x):
    LOG.append(x)
def onTable():
    rec("OnTableLoaded")
def onStarted():
    rec("OnGameStarted")
def onGvar(args):
    rec("gvar", args.name, args.oldValue, args.value, getGlobalVariable(args.name))
def onPvar(args):
    rec("pvar", args.player._id, args.name, args.value)
def onCounter(args):
    rec("counter", args.player._id, args.counter, args.value)
def onMarker(args):
    rec("marker", args.card._id, args.id, args.value, args.scripted)
def onScripted(args):
    rec("scripted", args.player._id, [c._id for c in args.cards], [g.name for g in args.toGroups])
def onOverride(args):
    rec("override", [c._id for c in args.cards], args.xs, args.ys, args.nosuchfield)
def onTurn(args):
    rec("turn", args.player._id if args.player else None, args.turn)
def onDeck(args):
    rec("deck", args.player._id, [g.name for g in args.groups])
def onConnected(args):
    rec("connected", args.player._id)
def hello(*args):
    rec("hello", [a._id if hasattr(a, "_id") else a for a in args])
def never(*a):
    return False
def send(pid, fn, args):
    remoteCall(Player(pid), fn, args)
    rec("sent", fn)
def write(name, value):
    setGlobalVariable(name, value)
    rec("wrote", getGlobalVariable(name))
def read(name):
    rec("read", getGlobalVariable(name))
'''
SCRIPT_B = "BROKEN_DEFINED = True\nraise ValueError('this script is broken')\n"
SCRIPT_C = "SEEN = ('LOG' in globals(), 'BROKEN_DEFINED' in globals())\n"
PROBE = "COUNT = [0]\ndef bump():\n    COUNT[0] += 1\n    return COUNT[0]\n"
SET = ('<set name="S" id="bbbbbbbb-0000-0000-0000-000000000001" gameId="%s"><cards>'
       '<card id="%s" name="Pawn"><property name="Cost" value="3"/></card></cards></set>' % (GUID, CARD))
DECK = ('<deck game="%s"><section name="Main"><card qty="3" id="%s">Pawn</card></section>'
        '<section name="Lost"><card qty="1" id="%s">Pawn</card></section></deck>' % (GUID, CARD, CARD))


@pytest.fixture
def probe_zip(tmp_path):
    path = tmp_path / "probe.zip"
    files = {"def/definition.xml": DEFINITION, "def/Scripts/a.py": SCRIPT_A, "def/Scripts/b.py": SCRIPT_B,
             "def/Scripts/c.py": SCRIPT_C, "def/probe/__init__.py": PROBE,
             "def/Sets/s/set.xml": SET, "def/Sets/s/Decks/d.o8d": DECK}
    with zipfile.ZipFile(str(path), "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return str(path)


def answers(log):
    """A scripted player that records each dialog and answers from a dict kind -> answer."""
    def answer(client, kind, info):
        log.append((client.state.name, kind))
        return log.answers[kind](client, info) if hasattr(log.answers[kind], "__call__") else log.answers[kind]
    return answer


class Dialogs(list):
    answers = {}


@pytest.fixture
def room(probe_zip):
    room = Room(Package(probe_zip), seed=9)
    dialogs = Dialogs()
    room.dialogs = dialogs
    room.join("Alice", answers(dialogs))
    room.join("Bob", answers(dialogs))
    room.start()
    room.run()
    return room


def first_card(room):
    """Alice loads the deck; the id of the top card of her Deck pile."""
    a = room.clients[0]
    room.load_deck(a, "d")
    room.run()
    return room.pile_of(a.state, "Deck").cards[0].cid


def log_of(client):
    return client.ns["LOG"]


def control_warnings(room):
    return [w for w in room.warnings if "control" in w[1]]


def kinds(client, kind):
    return [e for e in log_of(client) if e[0] == kind]


# ---------------------------------------------------------------------- scripts
def test_scripts_run_in_order_into_one_namespace_and_a_broken_one_only_warns(room):
    a, b = room.clients
    assert a.ns["SEEN"] == (True, True)                 # c.py sees a.py and b.py's globals
    assert [w for w in a.warnings if "Scripts/b.py failed to load" in w]
    assert log_of(a) == [("OnTableLoaded",), ("OnGameStarted",)] == log_of(b)


def test_every_client_has_its_own_modules_and_a_reload_starts_from_nothing(room):
    a, b = room.clients
    a.do("rec", "bump", None)
    a.queue.append(lambda: a.ns["rec"]("count", a.ns["probe"].bump()))
    b.queue.append(lambda: b.ns["rec"]("count", b.ns["probe"].bump()))
    room.run()
    assert kinds(a, "count") == [("count", 1)] and kinds(b, "count") == [("count", 1)]
    assert a.ns["probe"] is not b.ns["probe"]
    old = a.ns
    a.reload_scripts()
    room.run()
    assert a.ns is not old and log_of(a) == []          # no start event after a reload
    a.queue.append(lambda: a.ns["rec"]("count", a.ns["probe"].bump()))
    room.run()
    assert kinds(a, "count") == [("count", 1)]          # a new module, not the old one


def test_a_deck_loads_into_the_piles_of_its_sections_and_every_client_hears_it(room):
    a, b = room.clients
    room.load_deck(a, "d")
    room.run()
    assert [c.guid for c in room.pile_of(a.state, "Deck").cards] == [CARD] * 3   # "Lost" names no pile
    assert kinds(a, "deck") == [("deck", a.state.pid, ["Deck"])] == kinds(b, "deck")


# ---------------------------------------------------------------------- queues
def test_events_and_remote_calls_caused_by_a_job_run_after_it(room):
    a, b = room.clients

    def job():
        a.ns["send"](b.state.pid, "hello", [1])
        a.ns["write"]("g", "x")
        assert kinds(b, "hello") == [] and kinds(a, "gvar") == []
        a.ns["rec"]("job ends")
    a.queue.append(job)
    room.run()
    assert [e[0] for e in log_of(a)[2:]] == ["sent", "wrote", "job ends", "gvar"]
    assert kinds(b, "hello") == [("hello", [1])]


def test_a_dialog_holds_the_queue(room):
    a, b = room.clients
    seen = []

    def during_dialog(client, info):
        seen.append((list(kinds(a, "hello")), len(a.queue)))
        with pytest.raises(StandInError):
            room.run()                                   # nothing else runs while the dialog is open
        return True
    room.dialogs.answers = {"confirm": during_dialog}
    a.do("rec", "first")
    a.queue.append(lambda: a.ns["rec"]("confirmed", a.ns["confirm"]("sure?")))
    b.do("send", a.state.pid, "hello", [2])
    room.run()
    assert seen == [([], 1)]                            # Bob's call waited in Alice's queue
    assert [e[0] for e in log_of(a)[2:]] == ["first", "confirmed", "hello"]


# ---------------------------------------------------------------------- events
def test_which_clients_hear_an_event(room):
    a, b = room.clients
    cid = first_card(room)

    def job():
        card = a.ns["Card"](cid)
        a.ns["me"].counters["HP"].value = 17
        card.markers[("Hot", "m-1")] = 2
        card.moveTo(a.ns["me"].piles["Hand"])
    a.queue.append(job)
    room.run()
    assert kinds(a, "counter") == [("counter", a.state.pid, "HP", 20)] and kinds(b, "counter") == []
    for c in (a, b):
        assert kinds(c, "marker") == [("marker", cid, "m-1", 0, True)]
        assert kinds(c, "scripted") == [("scripted", a.state.pid, [cid], ["Hand"])]
    a.drag(cid, "table", x=5, y=6)                      # OverrideCardsMoved replaces the UI move
    room.run()
    assert kinds(a, "override") == [("override", [cid], [5], [6], None)] and kinds(b, "override") == []
    assert room.cards[cid].group.name == "Hand"


# ---------------------------------------------------------------------- remoteCall
@pytest.mark.parametrize("fn,args", [
    ("hello", (1, 2)),                                  # a tuple
    ("hello", [(1, 2)]),
    ("hello", ['say "hi"']), ("hello", ["a\\x41"]), ("hello", ["\\u0041"]), ("hello", ["'''"]),
    ("hello", [{"card": "CARD"}]),                      # an object inside a dict
    ("hello", ["COUNTER"]),                             # counters are always refused
    ("a.b", []), ("eval", ["1"]), ("getattr", []),
])
def test_remote_call_refusals_are_alerts_to_everybody(room, fn, args):
    a, b = room.clients
    room.load_deck(a, "d")
    room.run()

    card = room.pile_of(a.state, "Deck").cards[0].cid

    def real(x, ns):
        if x == "CARD":
            return ns["Card"](card)
        if x == "COUNTER":
            return ns["me"].counters["HP"]
        if isinstance(x, dict):
            return dict((k, real(v, ns)) for k, v in x.items())
        return x

    def job():
        ns = a.ns
        sent = args if isinstance(args, tuple) else [real(x, ns) for x in args]
        ns["remoteCall"](ns["players"][1], fn, sent)
    a.queue.append(job)
    room.run()
    assert kinds(b, "hello") == []
    for c in (a, b):
        assert [line for line in c.chat if line.startswith("SECURITY ALERT")]


def test_remote_call_delivers_what_the_sandbox_allows(room):
    a, b = room.clients
    cid = first_card(room)

    def job():
        ns = a.ns
        args = [None, True, 7, -2, "it's fine", ns["me"], ns["Card"](cid), ns["table"], [1, [2]],
                {"k": [1, "v"]}, ns["me"].piles["Deck"]]
        ns["remoteCall"](ns["players"][1], "hello", args)
    a.queue.append(job)
    room.run()
    got = kinds(b, "hello")[0][1]
    assert got[:7] == [None, True, 7, -2, "it's fine", a.state.pid, cid]
    assert got[8:10] == [[1, [2]], {"k": [1, "v"]}] and room.alerts == []
    # one double-quoted string per call: a second one is refused where it arrives
    a.queue.append(lambda: a.ns["remoteCall"](a.ns["players"][1], "hello", ["one", ["two"]]))
    room.run()
    assert room.alerts and "string segment" in room.alerts[-1] and len(kinds(b, "hello")) == 1
    # a pile whose name holds ' breaks the call on the receiving side
    a.queue.append(lambda: a.ns["remoteCall"](a.ns["players"][1], "hello", [a.ns["me"].piles["O'Pile"]]))
    room.run()
    assert b.errors and "SyntaxError" in b.errors[-1]


# ---------------------------------------------------------------------- rnd, variables, turns, control
def test_rnd_answers_its_caller_only(room):
    a, b = room.clients
    a.queue.append(lambda: a.ns["rec"]("rnd", a.ns["rnd"](1, 6)))
    before = len(room.traffic)
    room.run()
    v = kinds(a, "rnd")[0][1]
    assert 1 <= v <= 6 and room.rnd_calls == [(a.state.pid, 1, 6, v)]
    assert len(room.traffic) == before and log_of(b) == [("OnTableLoaded",), ("OnGameStarted",)]


def test_global_variables_echo_to_the_others_after_the_writer_and_the_last_write_wins(room):
    a, b = room.clients
    a.do("write", "g", "one")
    b.do("read", "g")                                   # runs before the echo reaches Bob
    room.run()
    assert kinds(a, "wrote") == [("wrote", "one")] and kinds(b, "read") == [("read", "start")]
    assert ("gvar", "g", "start", "one", "one") in log_of(a) and ("gvar", "g", "start", "one", "one") in log_of(b)
    a.do("write", "g", "A")
    b.do("write", "g", "B")                             # at the same time: the server takes Alice's first
    room.run()
    assert a.gvars["g"] == b.gvars["g"] == room.gvars["g"] == "B"
    a.do("write", "g", 'say "hi"')                      # pasted into the handler's source: breaks it
    room.run()
    assert [e for e in a.errors if "breaks the handler" in e] and [e for e in b.errors if "breaks" in e]
    a.do("read", "undeclared")
    room.run()
    assert kinds(a, "read")[-1] == ("read", "") and [w for w in a.warnings if "not declared" in w]
    a.queue.append(lambda: a.ns["me"].setGlobalVariable("pv", "7"))
    room.run()
    assert ("pvar", a.state.pid, "pv", "7") in log_of(b)
    b.queue.append(lambda: b.ns["players"][1].setGlobalVariable("pv", "8"))   # not his own
    room.run()
    assert b.errors and "his own" in b.errors[-1]


def test_only_the_active_player_or_anybody_when_nobody_is_drives_turns_and_phases(room):
    a, b = room.clients
    a.queue.append(lambda: a.ns["nextTurn"](a.ns["me"], True))     # nobody is active: allowed
    room.run()
    assert room.active is a.state and room.turn == 1
    b.queue.append(lambda: (b.ns["nextTurn"](b.ns["me"], True), b.ns["setPhase"](2, True)))
    room.run()
    assert room.active is a.state and room.phase == 0    # Bob is not active: nothing happens
    a.queue.append(lambda: (a.ns["setPhase"](2, True), a.ns["setActivePlayer"](a.ns["players"][1])))
    room.run()
    assert room.phase == 2 and room.active is b.state and room.turn == 1
    assert kinds(b, "turn")[-1] == ("turn", a.state.pid, 1)
    with pytest.raises(StandInError):
        a.pass_turn()                                    # the turn button is the active player's


def test_changing_a_card_one_does_not_control_warns_and_happens_but_delete_refuses(room):
    a, b = room.clients
    cid = first_card(room)
    b.queue.append(lambda: (b.ns["Card"](cid).moveToTable(1, 2), b.ns["Card"](cid).delete()))
    room.run()
    assert room.cards[cid].group is room.table and cid in room.cards
    # the move warns Alice, who controls the card; the refused delete warns Bob
    assert [w for w in a.warnings if "does not control" in w] and [w for w in b.warnings if "delete refused" in w]
    assert [pid for pid, text in room.warnings if "control" in text] == [a.state.pid, b.state.pid]


def test_menus_show_only_items_whose_show_if_is_true(room):
    a, b = room.clients
    assert a.table_menu() == ["Shown"]
    with pytest.raises(StandInError):
        a.click_table_menu("Hidden")


def test_dialog_answers_are_checked(room):
    a, b = room.clients
    room.load_deck(a, "d")
    room.run()
    ids = [c.cid for c in room.pile_of(a.state, "Deck").cards]

    def pick(client, info):
        return [client.api.card(ids[0]), client.api.card(ids[0])]
    room.dialogs.answers = {"cardDlg": pick, "askChoice": 5}

    def job():
        dlg = a.ns["cardDlg"]([a.ns["Card"](i) for i in ids])
        dlg.min, dlg.max = 1, 2
        dlg.show()
    a.queue.append(job)
    a.queue.append(lambda: a.ns["askChoice"]("which?", ["x", "y"]))
    room.run()
    assert len(a.errors) == 2 and "twice" in a.errors[0] and "askChoice answered 5" in a.errors[1]


def test_a_rejoining_player_gets_a_new_engine_and_the_others_hear_it(room):
    a, b = room.clients
    a.do("write", "g", "while-away")
    room.disconnect(b)
    room.run()
    assert b.gvars["g"] == "start"
    room.reconnect(b)
    room.run()
    assert b.loads == 2 and b.gvars["g"] == "while-away" and log_of(b) == []
    assert kinds(a, "connected") == [("connected", b.state.pid)]


def test_three_clients_hear_events_and_echoes(probe_zip):
    room = Room(Package(probe_zip), seed=1)
    dialogs = Dialogs()
    for name in ("Alice", "Bob", "Carol"):
        room.join(name, answers(dialogs))
    room.start()
    room.run()
    a, b, c = room.clients
    a.do("write", "g", "all")
    a.do("send", c.state.pid, "hello", ["only Carol"])
    room.run()
    for client in (a, b, c):
        assert ("gvar", "g", "start", "all", "all") in log_of(client)
    assert kinds(c, "hello") == [("hello", ["only Carol"])] and kinds(b, "hello") == []
    assert [p._id for p in b.ns["getPlayers"]()] == [b.state.pid, a.state.pid, c.state.pid]   # me first


# ---------------------------------------------------------------------- OCTGN's behaviour the host relies on
def test_a_variable_change_fires_on_every_echo_with_the_writers_old_value(room):
    a, b = room.clients
    a.do("write", "g", "one")
    b.do("write", "g", "two")            # before Alice's echo reaches Bob
    room.run()
    # Bob's write, echoed to Alice: the old value is Bob's ("start"), not the "one" Alice had
    assert ("gvar", "g", "start", "two", "two") in log_of(a)
    assert ("gvar", "g", "start", "one", "one") in log_of(b)
    a.do("write", "g", "two")            # the same value again: the event fires all the same
    room.run()
    assert [e for e in kinds(b, "gvar") if e[2:4] == ("two", "two")] and \
        [e for e in kinds(a, "gvar") if e[2:4] == ("two", "two")]
    a.queue.append(lambda: a.ns["me"].setGlobalVariable("pv", ""))   # unchanged: fires too
    room.run()
    assert ("pvar", a.state.pid, "pv", "") in log_of(b)


def test_counters_reach_everybody_a_second_late_the_writer_too(room):
    a, b = room.clients
    seen = []
    a.queue.append(lambda: (setattr(a.ns["me"].counters["HP"], "value", 17),
                            seen.append(("a", a.ns["me"].counters["HP"].value))))
    b.queue.append(lambda: seen.append(("b", b.ns["players"][1].counters["HP"].value)))
    room.run()
    assert seen == [("a", 17), ("b", 20)]          # Bob still shows the old value
    assert room.snapshot()["counters"][a.state.pid]["HP"] == 17
    b.queue.append(lambda: seen.append(("b", b.ns["players"][1].counters["HP"].value)))
    room.run()
    assert seen[-1] == ("b", 17)


def test_next_turn_takes_effect_when_the_servers_echo_arrives(room):
    a, b = room.clients
    seen = []
    a.queue.append(lambda: (a.ns["nextTurn"](a.ns["me"], True), seen.append(a.ns["getActivePlayer"]())))
    room.run()
    assert seen == [None] and room.active is a.state and room.turn == 1


def test_remote_calls_are_checked_by_the_receiver_with_octgns_rules(room):
    a, b = room.clients
    cid = first_card(room)
    deck = room.pile_of(a.state, "Deck")
    a.queue.append(lambda: a.ns["remoteCall"](a.ns["players"][1], "hello", [1, "x", a.ns["me"].piles["Deck"],
                                                                            [2, a.ns["Card"](cid)]]))
    room.run()
    sent = [t["text"] for t in room.traffic if t["kind"] == "remoteCall"][-1]
    assert sent == 'hello(1,"x",Pile(%d, \'Deck\', Player(%d)),[2,Card(%d)])' % (deck.gid, a.state.pid, cid)
    got = kinds(b, "hello")[-1][1]
    assert got[:3] == [1, "x", deck.gid] and got[3][0] == 2 and got[3][1]._id == cid and room.alerts == []
    for fn, args in (("hasattr", [1, "x"]), ("apply", []), ("webRead", ["u"]), ("nosuch", []),
                     ("hello", ['a";hello("b']), ("hello", ["a\\x41"])):
        a.queue.append(lambda fn=fn, args=args: a.ns["remoteCall"](a.ns["players"][1], fn, args))
        room.run()
        assert room.alerts and ("by Bob" in room.alerts[-1]), (fn, args)   # refused where it arrives
        room.alerts[:] = []
    assert len(kinds(b, "hello")) == 1
    a.queue.append(lambda: a.ns["remoteCall"](a.ns["players"][1], "type", ["x"]))   # not on OCTGN's list
    room.run()
    assert room.alerts == [] and b.errors == []


def test_a_card_moved_into_a_pile_gets_its_controller_and_turns_face_up(room):
    a, b = room.clients
    cid = first_card(room)
    a.queue.append(lambda: a.ns["Card"](cid).moveTo(a.ns["players"][1].piles["Hand"]))
    room.run()
    card = room.cards[cid]
    assert card.controller is b.state and card.face_up and control_warnings(room) == []
    b.queue.append(lambda: b.ns["Card"](cid).moveToTable(3, 4, True))   # Bob's now: no warning
    room.run()
    assert control_warnings(room) == [] and card.controller is b.state and not card.face_up


def test_mute_silences_the_automatic_lines_of_its_job(room):
    a, b = room.clients
    cid = first_card(room)
    a.queue.append(lambda: a.ns["Card"](cid).moveTo(a.ns["me"].piles["Hand"]))
    room.run()
    assert [line for line in b.chat if line == "Alice moves Pawn to Hand."]
    n = len(b.chat)
    a.queue.append(lambda: (a.ns["mute"](), a.ns["Card"](cid).moveTo(a.ns["me"].piles["Deck"]),
                            setattr(a.ns["me"].counters["HP"], "value", 3)))
    room.run()
    assert b.chat[n:] == [] and room.cards[cid].group.name == "Deck"
