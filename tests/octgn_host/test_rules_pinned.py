"""OCTGN host rules that a one-line change used to break without a failing test (issue 22's mutation
test): the state checksum tells every value apart (True from False too), a player who concedes
during their own decision that may not be declined is asked again, and two clients exchanging inputs
never ask each other to resend what they already have (a change there made the suite hang)."""
from __future__ import annotations

import pytest

from octgn_pack.host import codec
from octgn_pack.host.lockstep import Session
from rulescript.games import cfc
from rulescript.runtime.plain import deep_copy
from rulescript.sim.host import load_table
from tests.conftest import DEMO
from tests.octgn_host.conftest import Signer, cfc_that_goes_on
from tests.octgn_standin import play


@pytest.fixture(scope="module")
def demo():
    return load_table(DEMO)


def _session(demo, game_package=cfc, sign=None):
    decks = [demo.data.deck_list(n) for n in demo.data.deck_names()]
    sign = sign or Signer()
    s = Session(game_package, demo.data.models, demo.rules, ["S2,b"], decks, 4, sign.ends)
    s.add([])
    return s


def test_the_checksum_tells_true_from_false_in_a_real_game_state(demo):
    s = _session(demo)
    state = deep_copy(s.state)
    card = next(c for c in state["cards"].values() if c.get("frozen") is False)
    before = codec.checksum(state, skip=("log",))
    card["frozen"] = True
    frozen = codec.checksum(state, skip=("log",))
    card["frozen"] = False
    assert frozen != before == codec.checksum(state, skip=("log",))
    assert codec.checksum({"x": True}) != codec.checksum({"x": False})
    assert codec.checksum({"x": [False, True]}) != codec.checksum({"x": [True, False]})


def test_conceding_during_ones_own_decision_that_cannot_be_declined_asks_it_again(demo):
    """docs: a conceding player's open decision is declined if it may be (None), else asked on.  The
    Main-phase action choice may not be declined (``cancel`` false): the same question stays open and
    the next input answers it.  The game here is CFC whose concede() only notes the player, so that
    the game goes on as a many-player game does."""
    conceded: list = []
    sign = Signer()
    s = _session(demo, cfc_that_goes_on(conceded), sign)
    req = s.pending
    assert req["kind"] == "choose_main_action" and not req.get("cancel")
    n = len(s.state["log"])
    s.add([sign(s, codec.concede_item(req["player"]))])
    assert conceded == [req["player"]] and not s.over
    assert s.pending == req and len(s.state["log"]) == n      # nothing was answered
    s.add([sign(s, "0")])
    assert s.state["log"][n] == [req["kind"], req["player"], req["options"][0]]


@pytest.mark.timeout(60)  # the bug this pins made the clients ask each other to resend for ever
def test_clients_in_step_never_ask_for_a_resend(demo_zip):
    room, clients = play.setup(str(demo_zip), 2, players=2)
    actions = play.play(room, clients, max_actions=8)
    s = play.summary(room, clients)
    assert actions == 8
    calls = [t["text"] for t in s["traffic"] if t["kind"] == "remoteCall"]
    assert [c for c in calls if c.startswith("rs_in(")] and not [c for c in calls if c.startswith("rs_resend(")]
    a, b = s["clients"]
    assert a["log"] == b["log"] and len(a["log"]) > 8 and a["off"] is None and b["off"] is None


def test_a_check_whose_count_or_writer_is_not_a_number_is_refused():
    """docs/octgn-host.md: ``rs_check`` is ``<input count>.<writer pid>.<checksum>``, and whatever
    arrives in a global variable is checked for shape before it is used: a check whose count or whose
    writer is not a number is no check at all (None), whichever of the two is wrong."""
    assert codec.decode_check("12.3.0abc") == (12, 3, "0abc")
    assert codec.decode_check("12.x.0abc") is None
    assert codec.decode_check("x.3.0abc") is None
    assert codec.decode_check("12.3") is None
    assert codec.decode_check("12.3.0abc.9") is None


def test_a_start_item_holds_at_most_64_kib():
    """docs/octgn-host.md, Bounded decoding: the start item holds at most 64 KiB (65,536 characters).
    One seat "1:e:c:5" after ``S2,<build>,``: a build name of 65,536 - 3 - 1 - 7 characters makes the
    item exactly 65,536 long (read), one character more is refused."""
    seat = [(1, "e", "c", [5])]
    item = codec.encode_start("b" * (65536 - 11), seat)
    assert len(item) == 65536
    assert codec.decode_start(item)["seats"] == [{"pid": 1, "end": "e", "commitment": "c", "cards": [5]}]
    with pytest.raises(codec.InputError):
        codec.decode_start(codec.encode_start("b" * (65536 - 10), seat))


def test_card_ranges_are_ascending_without_overlap_and_counted():
    """docs/octgn-host.md, Bounded decoding: a deck's card ids travel as ascending ranges (``1-3.5``),
    counted before they are expanded.  A range that starts at or before the end of the one before it
    is refused (``1-3.3``, ``1-3.2``); ``limit`` ranges are read, one more is refused."""
    assert codec.decode_ranges("1-3.5") == [1, 2, 3, 5]
    assert codec.decode_ranges("1-3.4") == [1, 2, 3, 4]
    for bad in ("1-3.3", "1-3.2", "5.1", "3-1"):
        with pytest.raises(codec.InputError):
            codec.decode_ranges(bad)
    assert codec.decode_ranges("1.3.5", limit=3) == [1, 3, 5]
    with pytest.raises(codec.InputError):
        codec.decode_ranges("1.3.5.7", limit=3)


def test_a_start_item_is_read_seat_by_seat():
    """docs/octgn-host.md: the start item is ``S<format>,<build>`` and then one ``pid:end:commitment:cards``
    per seat.  A seat of three fields is refused (an InputError, not a traceback); the build alone is
    a start of no seats."""
    assert codec.decode_start("S2,b") == {"format": "2", "build": "b", "seats": []}
    assert codec.decode_start("S2,b,1:e:c:4")["seats"] == [{"pid": 1, "end": "e", "commitment": "c", "cards": [4]}]
    for bad in ("S2,b,1:e:c", "S2,b,x:e:c:4", "S2", "X2,b"):
        with pytest.raises(codec.InputError):
            codec.decode_start(bad)


def test_the_card_map_keeps_its_good_pairs_and_skips_the_malformed_ones():
    """docs/octgn-host.md: the cards made during a game travel as ``iid:cid`` pairs joined by commas;
    a global variable is checked before it is read: a pair without two numbers is skipped."""
    assert codec.decode_pairs(codec.encode_pairs([(3, 7), (4, 9)])) == [(3, 7), (4, 9)]
    assert codec.decode_pairs("3:7,x:2,5:y,6,4:9") == [(3, 7), (4, 9)]


MIXED_KEYS = [{"": "a", 5: "b"}, {1: 0, "a": 0}, {"": 1, 0: 1}, {"x": {"": 1, 0: 1}, 2: [{"b": 1, 7: None}]}]


def _reversed(d):
    """The same dict built in the other order (its nested dicts too)."""
    return {k: _reversed(v) if isinstance(v, dict) else v for k, v in reversed(list(d.items()))}


def test_a_dict_of_int_and_text_keys_has_one_checksum_whatever_its_order():
    """codec.checksum: dict order does not matter. Python 3 cannot sort int keys with text keys
    (Python 2.7 puts the ints first); the checksum still orders them one way, so a dict built in the
    other order, even one whose values are all equal, or whose text key is empty, has the same
    checksum, and different values still differ."""
    for d in MIXED_KEYS:
        assert list(_reversed(d)) != list(d)
        assert codec.checksum(_reversed(d)) == codec.checksum(d), d
    assert codec.checksum({"": 1, 0: 2}) != codec.checksum({"": 2, 0: 1})


def test_a_dict_of_int_and_text_keys_has_the_checksum_python_27_gives_it():
    """codec.checksum is the same on Python 2.7 and 3 (docs/octgn-host.md: every client compares
    32-bit digests, whatever its Python): for dicts whose keys mix ints and text, which Python 2.7
    sorts natively (ints first) and Python 3 cannot sort."""
    import os
    import subprocess

    from octgn_pack.py27 import find_python27
    from tests.conftest import ROOT

    py27 = find_python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available (set PYTHON27 to one)")
    script = "from octgn_pack.host import codec\nprint([codec.checksum(d) for d in %r])" % (MIXED_KEYS,)
    proc = subprocess.run([py27, "-c", script], capture_output=True, text=True, cwd=str(ROOT),
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == str([codec.checksum(d) for d in MIXED_KEYS])


def test_a_refused_start_item_is_quoted_by_at_most_its_first_40_characters():
    """docs/octgn-host.md, Bounded decoding: an item is checked for size and shape before anything is
    read, and what is refused is quoted short: a start item of a format this host does not read
    (``S<format>,...``, format 2) names the format as the first 40 characters of the item hold it
    (the 39 after the ``S``); an item that is no start at all is quoted by its first 40 characters."""
    digits = "".join(str(i % 10) for i in range(100))
    with pytest.raises(codec.InputError) as info:
        codec.decode_start("S" + digits + ",b,1:e:c:4")
    assert str(info.value) == \
        "start item of format '%s'; this host reads format 2" % "012345678901234567890123456789012345678"
    with pytest.raises(codec.InputError) as info:
        codec.decode_start("X" + digits)
    assert str(info.value) == "not a start item: 'X012345678901234567890123456789012345678'"


def test_an_item_holds_at_most_160_characters_of_the_item_alphabet():
    """docs/octgn-host.md, Bounded decoding: an item other than the start holds at most 160 characters
    (the start, an item starting with ``S``, at most 64 KiB), all of the item alphabet (letters, digits
    and ``._-,:~``); anything else is refused like a forged item, naming the seat it came from and
    quoting at most its first 40 characters."""
    codec.check_item("1" * 160)
    codec.check_item("S2,b" + "1" * 65532)
    codec.check_item("Q1~AZaz09-_.,:")
    for bad, why in (("1" * 161, "an item of 161 characters"), ("", "an item of 0 characters"),
                     ("S" + "1" * 65536, "an item of 65537 characters"),
                     ("1 2", "an item with the character ' '"), ('1"', "an item with the character '\"'"),
                     ("1;2", "an item with the character ';'"), ("1|2", "an item with the character '|'")):
        with pytest.raises(codec.Forged) as info:
            codec.check_item(bad, seat=3)
        assert (info.value.seat, info.value.why, info.value.item) == (3, why, bad[:40])


def test_numbers_in_items_have_at_most_nine_digits():
    """docs/octgn-host.md: indexes and numbers in an item have at most 9 digits: the answer
    ``000000001`` is option 1, ``0000000001`` (ten digits) is refused; the same holds for a seat, a
    card id and a checksum's count."""
    req = {"kind": "choose_slot", "player": 0, "options": [0, 5, 7]}
    assert codec.decode_answer(req, "000000001") == 5
    with pytest.raises(codec.InputError):
        codec.decode_answer(req, "0000000001")
    assert codec.conceding_seat("Q000000002") == 2 and codec.conceding_seat("Q0000000002") is None
    assert codec.conceding_seat("Q") is None and codec.conceding_seat("Qx") is None
    assert codec.decode_ranges("999999999") == [999999999]
    with pytest.raises(codec.InputError):
        codec.decode_ranges("1000000000")
    assert codec.decode_check("123456789.1.d") == (123456789, 1, "d") and codec.decode_check("1234567890.1.d") is None


def test_a_list_answer_has_no_more_indexes_than_options():
    """docs/octgn-host.md: a list answer (``i.j``, ``e`` for the empty list) has no more indexes than
    the decision has options; each index names an option (0 to options - 1); ``n`` answers only a
    decision that may be cancelled."""
    req = {"kind": "arrange", "player": 0, "options": [4, 6, 8], "min": 3, "max": 3}
    assert codec.decode_answer(req, "2.0.1") == [8, 4, 6]
    assert codec.decode_answer(req, "e") == []
    for bad in ("2.0.1.0", "3", "0.3", "n", "0..1", ""):
        with pytest.raises(codec.InputError):
            codec.decode_answer(req, bad)
    assert codec.decode_answer(dict(req, cancel=True), "n") is None
    assert codec.encode_answer(req, [8, 4, 6]) == "2.0.1" and codec.encode_answer(req, []) == "e"
    assert codec.encode_answer(req, None) == "n"
    with pytest.raises(codec.InputError):
        codec.encode_answer(req, [4, 5])


def test_a_start_item_holds_at_most_64_seats():
    """docs/octgn-host.md, Bounded decoding: the start holds at most 64 seats: 64 are read, 65 refused."""
    seats = [(k + 1, "e", "c", [k + 1]) for k in range(64)]
    start = codec.decode_start(codec.encode_start("b", seats))
    assert [s["pid"] for s in start["seats"]] == list(range(1, 65)) and start["seats"][-1]["cards"] == [64]
    with pytest.raises(codec.InputError):
        codec.decode_start(codec.encode_start("b", seats + [(65, "e", "c", [65])]))


def test_a_seats_deck_holds_at_most_the_deck_limit():
    """docs/octgn-host.md: a seat's deck holds at most MAX_DECK (1000) cards, or the lower DECK_MAX of
    a table face: the limit is counted before the ranges are expanded."""
    assert len(codec.decode_start("S2,b,1:e:c:1-1000")["seats"][0]["cards"]) == 1000
    with pytest.raises(codec.InputError):
        codec.decode_start("S2,b,1:e:c:1-1001")
    assert codec.decode_start("S2,b,1:e:c:1-40", deck_limit=40)["seats"][0]["cards"] == list(range(1, 41))
    with pytest.raises(codec.InputError):
        codec.decode_start("S2,b,1:e:c:1-40.50", deck_limit=40)


def test_a_log_part_and_seat_items_are_read_by_their_shape():
    """docs/octgn-host.md: a slice of the log in a global variable is ``<index of its first item>|<items>``
    (a value without the bar or the number is no slice: ``(0, [])``); a seed share is
    ``R<seat>~<share>`` and a concession ``Q<seat>``."""
    assert codec.decode_part("7|") == (7, [])
    assert codec.decode_part("7|1;2.0;Q1") == (7, ["1", "2.0", "Q1"])
    assert codec.decode_part("|1;2") == (0, []) and codec.decode_part("x|1") == (0, []) and codec.decode_part(None) == (0, [])
    assert codec.revealing_seat(codec.reveal_item(3, "abc")) == 3 and codec.reveal_item(3, "abc") == "R3~abc"
    assert codec.revealing_seat("Q3") is None and codec.revealing_seat("R~abc") is None
    assert codec.split("") == [] and codec.split("1;n") == ["1", "n"] and codec.join(["1", "n"]) == "1;n"


def test_text_for_remote_calls_holds_no_quote_backslash_or_newline():
    """docs/octgn-host.md: what travels in a remoteCall or a global variable holds no double quote,
    backslash, newline or triple quote (OCTGN's sandbox), and names inside items keep only letters,
    digits, ``.``, ``_`` and ``-``."""
    assert codec.safe_text('say "hi"\\now\nthen\rend') == "say 'hi'/now then end"
    assert codec.safe_text("a''''''b") == "a''b" and codec.safe_text("a'''b") == "a'b" and codec.safe_text("a''b") == "a''b"
    assert codec.token("Build 1.2_x-y/z:é") == "Build_1.2_x-y_z__"


def test_the_checksum_tells_every_64_bit_int_apart_and_forgets_no_early_difference():
    """codec.checksum: numbers differ by value (both 32-bit halves of a 64-bit int count), and a
    difference at the start of a long list is still seen after hundreds of later items."""
    values = [0, 1, -1, 1 << 31, 1 << 32, (1 << 32) - 1, 1 << 33, (1 << 63) + 1, -(1 << 32)]
    assert len({codec.checksum({"n": v}) for v in values}) == len(values)
    assert codec.checksum([1] + [0] * 500) != codec.checksum([0] * 501)
    assert codec.checksum({"a": [1] + [0] * 500}) != codec.checksum({"a": [2] + [0] * 500})



def test_the_checksum_sees_top_bits_flipped_in_two_words_at_once():
    """codec.checksum: a desync that flips the top bit of two 32-bit words (of two numbers, or the two
    halves of one 64-bit number, as in the random generator's state) is still a different checksum;
    an FNV step alone carries a flipped bit 31 unchanged to the end, so two such flips cancelled."""
    top = 1 << 31
    assert codec.checksum([top, top]) != codec.checksum([0, 0])
    assert codec.checksum({"n": top}) != codec.checksum({"n": 1 << 63})
    assert codec.checksum({"a": top, "b": [top]}) != codec.checksum({"a": 0, "b": [0]})
    assert codec.checksum({top: 1, 0: 2}) != codec.checksum({0: 1, top: 2})
    base = [5, 6, 7, 8]
    for i in range(4):
        for j in range(i + 1, 4):
            flipped = list(base)
            flipped[i] ^= top
            flipped[j] ^= top
            assert codec.checksum(flipped) != codec.checksum(base), (i, j)

def _refused_as_forged(s, item):
    """The Forged error of adding ``item`` to session ``s``, which must stay as it was."""
    log, pending, state, verified = list(s.log), s.pending, s.state, s.verified
    with pytest.raises(codec.Forged) as info:
        s.add([item])
    assert (s.log, s.pending, s.state, s.verified) == (log, pending, state, verified)
    return info.value


def test_an_input_in_another_seats_name_or_of_no_running_game_is_refused_as_forged(demo):
    """docs/octgn-host.md, Trust: every input after the start and the seed shares carries the token of
    its seat (the seat whose decision it answers, or the conceding seat); an input with another seat's
    token, with a token used already, or that is no input of a running game (a start, a seed share, a
    concession of no seat) is refused as forged, the same on every client, naming the seat it claims,
    and the session stays as it was: the right input still answers the decision."""
    sign = Signer()
    s = _session(demo, sign=sign)
    seat = s.pending["player"]
    other = 1 - seat
    assert _refused_as_forged(s, sign(s, "0", seat=other)).seat == seat       # the decision is seat's
    for item in ("S2,b", "R%d" % seat, "Qx"):        # a start, a seed share, a concession of no seat
        e = _refused_as_forged(s, sign(s, item, seat=seat))
        assert e.why == "not an input of a running game" and e.item == item
    assert _refused_as_forged(s, "0").why == "malformed token"                  # no token at all
    good = sign(s, "0")
    s.add([good])
    assert len(s.log) == 2 and s.state["log"][0][1] == seat
    assert _refused_as_forged(s, good).why == "wrong or reused token"          # the same input again


def test_a_session_remembers_the_checksums_of_the_last_256_counts(demo):
    """lockstep.KEEP_SUMS: a session keeps the checksums of the last 256 input counts (a check that
    arrives later is not compared): computing one more drops the oldest, and only it."""
    d = _session(demo).digest()
    s = _session(demo)
    for k in range(-200, 0):            # fewer than 256: every one is kept
        s.sums[k] = "old"
    assert s.digest() == d and len(s.sums) == 201
    s = _session(demo)
    for k in range(-256, 0):            # 256 checksums of earlier counts
        s.sums[k] = "old"
    assert s.digest() == d
    assert len(s.sums) == 256 and -256 not in s.sums and -255 in s.sums and s.sums[len(s.log)] == d


def test_the_inputs_since_the_checkpoint_are_those_after_the_start_of_the_turn(demo):
    """docs/octgn-host.md: a session runs from its last checkpoint, taken between turns; a client that
    reloads asks for the inputs since the last turn's end: ``since_checkpoint`` is the index of the
    first input after the checkpoint and those inputs."""
    sign = Signer()
    s = _session(demo, sign=sign)
    assert s.since_checkpoint() == (1, [])
    s.add([sign(s, "0")])
    first, items = s.since_checkpoint()
    assert items == s.log[first:] and 1 <= first <= len(s.log)


def test_an_input_after_the_end_of_the_game_is_refused_as_forged_by_nobody(demo):
    """docs/octgn-host.md, Trust: an input no decision asks for is no seat's input: after a concession
    ends the game (two players: the other wins), a further input is refused as forged, claiming no
    seat, and the finished session stays as it was."""
    sign = Signer()
    s = _session(demo, sign=sign)
    seat = s.pending["player"]
    s.add([sign(s, codec.concede_item(seat))])
    assert s.over and s.pending is None and s.result["winner"] == 1 - seat
    e = _refused_as_forged(s, sign(s, "0", seat=1 - seat))
    assert (e.seat, e.why) == (None, "an input after the end of the game") and s.over


def test_items_are_written_exactly_as_the_format_says():
    """docs/octgn-host.md and codec: ``S<format>,<build>,<pid>:<end>:<commitment>:<cards>`` with the cards
    as ascending ranges (``1-3.7``), an answer's indexes joined by ``.``, ``Q<seat>``, ``R<seat>~<share>``,
    ``payload~proof``, a log slice ``<first>|<items joined by ;>``, a check ``<count>.<pid>.<digest>``
    and the card map ``iid:cid,iid:cid``."""
    assert codec.encode_ranges([7, 1, 2, 3]) == "1-3.7"
    assert [codec.encode_ranges(x) for x in ([], [5], [1, 3], [1, 2], [4, 5, 6, 9, 10])] == ["", "5", "1.3", "1-2", "4-6.9-10"]
    assert codec.decode_ranges("") == [] and codec.decode_ranges("4-6.9-10") == [4, 5, 6, 9, 10]
    assert codec.encode_start("b", [(1, "e", "c", [5, 4]), (2, "f", "d", [])]) == "S2,b,1:e:c:4-5,2:f:d:"
    assert codec.decode_start("S2,b,1:e:c:4-5,2:f:d:")["seats"][1] == {"pid": 2, "end": "f", "commitment": "d", "cards": []}
    assert codec.concede_item(2) == "Q2" and codec.sign("1.0", "tok") == "1.0~tok"
    assert codec.unsign("1~a~b") == ("1", "a~b") and codec.unsign("1") == ("1", "")
    assert codec.encode_part(4, ["1", "Q0"]) == "4|1;Q0" and codec.encode_check(12, 3, "0abc") == "12.3.0abc"
    assert codec.encode_pairs([(3, 7), (4, 9)]) == "3:7,4:9" and codec.encode_pairs([]) == ""


def _declinable(conceded: list):
    """CFC whose concede() only notes the player (as ``cfc_that_goes_on``) and whose Main-phase action
    choice may be declined (``cancel``): declining it passes."""
    base = cfc_that_goes_on(conceded)

    class Game(base.Game):
        def ask(self, kind, player, options, mn=1, mx=1, prompt="", source=None, cancel=False):
            cancel = cancel or kind == "choose_main_action"
            answer = base.Game.ask(self, kind, player, options, mn, mx, prompt, source, cancel)
            if answer is None and kind == "choose_main_action":
                return next(o for o in options if o.get("do") == "pass")
            return answer

    class Package(object):
        commands = base.commands
        VOCAB = base.VOCAB

    Package.Game = Game
    return Package


@pytest.mark.parametrize("who", ["decider", "other"])
def test_a_concession_declines_only_the_conceders_own_decision_that_may_be_declined(demo, who):
    """docs/octgn-host.md: a conceding player's open decision is declined if it may be (None), else
    asked on. Here the Main-phase action choice may be declined: when the player deciding it concedes,
    it is declined (the decision log has its None); when the other player concedes, it is not theirs,
    so the same question stays open and the next input answers it."""
    conceded: list = []
    sign = Signer()
    s = _session(demo, _declinable(conceded), sign)
    req = s.pending
    assert req["kind"] == "choose_main_action" and req.get("cancel")
    seat = req["player"] if who == "decider" else 1 - req["player"]
    n = len(s.state["log"])
    s.add([sign(s, codec.concede_item(seat))])
    assert conceded == [seat] and not s.over
    if who == "decider":
        assert s.state["log"][n] == [req["kind"], req["player"], None]
    else:
        assert s.pending == req and len(s.state["log"]) == n
        s.add([sign(s, "0")])
        assert s.state["log"][n] == [req["kind"], req["player"], req["options"][0]]


def test_an_answer_that_is_not_an_option_cannot_be_encoded():
    """docs/octgn-host.md: an answer travels as the index of the chosen option, so only an option of
    the request can be sent: anything else is an InputError naming it and the kind of decision (a list
    answer is checked item by item); None is ``n`` and the empty list ``e``."""
    from rulescript.runtime.ports import make_request

    slot = make_request("choose_slot", 0, [0, 2, 3])
    with pytest.raises(codec.InputError) as info:
        codec.encode_answer(slot, 5)
    assert str(info.value) == "5 is not an option of choose_slot"
    targets = make_request("choose_targets", 1, [5, 9], 0, 2)
    with pytest.raises(codec.InputError) as info:
        codec.encode_answer(targets, [9, 7])
    assert str(info.value) == "7 is not an option of choose_targets"
    assert [codec.encode_answer(slot, 3), codec.encode_answer(targets, [9, 5]), codec.encode_answer(targets, []),
            codec.encode_answer(slot, None)] == ["2", "1.0", "e", "n"]


@pytest.mark.parametrize("decode, why", [
    # an answer: an index of one of the options (quoted by its first 20 characters), n only when the
    # decision may be cancelled, no more indexes than options
    (lambda: codec.decode_answer(_req("choose_slot", [0, 2]), "7"), "input '7' does not name one of the 2 options of choose_slot"),
    (lambda: codec.decode_answer(_req("choose_slot", [0, 2]), "1234567890123456789012345"),
     "input '12345678901234567890' does not name one of the 2 options of choose_slot"),
    (lambda: codec.decode_answer(_req("choose_slot", [0, 2]), "n"), "input cancels choose_slot, which cannot be cancelled"),
    (lambda: codec.decode_answer(_req("choose_targets", [5, 9]), "0.1.0"), "input of more than 2 indexes for choose_targets"),
    # card ranges: ascending, each quoted by its first 30 characters, at most `limit` cards
    (lambda: codec.decode_ranges("5-3"), "bad card range '5-3'"),
    (lambda: codec.decode_ranges("4.4"), "bad card range '4'"),
    (lambda: codec.decode_ranges("1-3.3-5"), "bad card range '3-5'"),
    (lambda: codec.decode_ranges("1." + "1234567890" * 4), "bad card range '123456789012345678901234567890'"),
    (lambda: codec.decode_ranges("1.3.5.7", limit=3), "more than 3 card ranges"),
    (lambda: codec.decode_ranges("1-4", limit=3), "more than 3 cards in a deck"),
    # the start: seats of four fields (quoted by their first 20 characters), at most 64 of them
    (lambda: codec.decode_start("S2,b,1:e:c"), "bad seat '1:e:c'"),
    (lambda: codec.decode_start("S2,b,x:e:c:4"), "bad seat 'x:e:c:4'"),
    (lambda: codec.decode_start("S2,b,1:e:c:4:" + "9" * 30), "bad seat '1:e:c:4:999999999999'"),
    (lambda: codec.decode_start("S2,b" + ",1:e:c:4" * 65), "a start item of more than 64 seats"),
])
def test_each_input_that_does_not_fit_says_why(decode, why):
    """docs/octgn-host.md, Bounded decoding: a bad input is an InputError that says what is wrong and
    quotes what it refused, cut short."""
    with pytest.raises(codec.InputError) as info:
        decode()
    assert str(info.value) == why


def _req(kind, options):
    from rulescript.runtime.ports import make_request

    return make_request(kind, 0, options, 0, len(options)) if kind == "choose_targets" else \
        make_request(kind, 0, options)


def test_a_start_of_64_seats_and_ranges_of_exactly_the_limit_are_read():
    """The limits themselves are allowed: 64 seats, a deck of exactly ``limit`` cards in as many ranges."""
    start = codec.decode_start("S2,b" + ",1:e:c:4" * 64)
    assert len(start["seats"]) == 64 and start["seats"][0] == {"pid": 1, "end": "e", "commitment": "c", "cards": [4]}
    assert codec.decode_ranges("1.3.5", limit=3) == [1, 3, 5]
    assert codec.decode_ranges("1-3", limit=3) == [1, 2, 3]


def test_the_checksum_tells_every_one_step_value_apart():
    """docs/octgn-host.md: the checksum tells the states of two clients apart whatever differs: None,
    True, False, numbers and texts are told apart from each other (a None for a True, a 0 for a False,
    an empty text for None), in a list, as a dict's value, and next to other values."""
    values = [None, True, False, 0, 1, -1, 2, "", "1", "None", "True", 1 << 40]
    for wrap in (lambda v: [v], lambda v: {"k": v}, lambda v: [0, v, "x"], lambda v: {"a": 1, "k": v}):
        digests = [codec.checksum(wrap(v)) for v in values]
        assert len(set(digests)) == len(values), wrap(None)


def test_the_digest_covers_every_effect_record_since_the_checkpoint(demo):
    """docs/octgn-host.md: the digest a client compares is of the state at the last checkpoint (the
    start of the turn), of every effect record since it, in order, and of the decision the game waits
    for (Session.digest). Fed the decisions of a headless game one at a time, after every input the
    session's running checksum holds one step per record delivered since the checkpoint, each step the
    checksum of the step before ("" first) and the record."""
    from tests.octgn_host.test_lockstep import SIGN, headless, session

    game, decks, _ = headless(demo, 5)
    s = session(demo, decks, 5)
    delivered = s.add([])
    for _kind, _player, answer in game.state["log"][:40]:
        delivered += s.add([SIGN(s, codec.encode_answer(s.pending, answer))])
        since = delivered[len(delivered) - s.ckpt_seen:] if s.ckpt_seen else []
        chain = []
        for rec in since:
            chain.append(codec.checksum([chain[-1] if chain else "", rec]))
        assert s.tail == chain
        assert s.digest() == codec.checksum([codec.checksum(s.ckpt, skip=("log",)), chain[-1] if chain else "",
                                             s.pending])


def test_what_a_long_bad_item_or_check_is_cut_to():
    """docs/octgn-host.md, Bounded decoding: what is refused is quoted by its first 40 characters,
    also when the bad character is further on; a checksum variable is read from its first 64
    characters only (``count.pid.digest``: a longer digest is cut there)."""
    item = "1" * 50 + " "
    with pytest.raises(codec.Forged) as info:
        codec.check_item(item, seat=1)
    assert (info.value.why, info.value.item) == ("an item with the character ' '", "1" * 40)
    assert codec.decode_check("1.2." + "a" * 70) == (1, 2, "a" * 60)
    assert codec.decode_check("12.3.abc") == (12, 3, "abc")
