"""Inputs as text and the state checksum."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from octgn_pack.host import codec
from rulescript.runtime.ports import make_request

SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;-_|")

REQUESTS = [
    (make_request("choose_main_action", 0, [{"do": "play", "card": 3}, {"do": "pass"}]), {"do": "pass"}),
    (make_request("yes_no", 1, [True, False]), False),
    (make_request("choose_slot", 0, [0, 2, 3]), 2),
    (make_request("choose_action", 0, ['say "hi" \\ now', "b\nc"], cancel=True), "b\nc"),
    (make_request("choose_action", 0, ["a", "b"], cancel=True), None),
    (make_request("choose_targets", 0, [5, {"player": 1}, 9], 0, 3), [9, {"player": 1}]),
    (make_request("choose_targets", 0, [5, 9], 0, 2), []),
    (make_request("arrange", 1, [4, 6, 8], 3, 3), [8, 4, 6]),
    (make_request("choose_player", 0, [0, 1]), 1),
]


@pytest.mark.parametrize("req,answer", REQUESTS)
def test_answers_travel_as_indexes_in_safe_text(req, answer):
    item = codec.encode_answer(req, answer)
    assert set(item) <= SAFE and len(item) <= 8
    assert codec.decode_answer(req, item) == answer


def test_a_bool_never_stands_for_an_int():
    req = make_request("choose_action", 0, [1, True, 0, False])
    assert [codec.encode_answer(req, a) for a in (True, 1, False, 0)] == ["1", "0", "3", "2"]


@pytest.mark.parametrize("item", ["7", "x", "-1", "1.", "n", "0.0"])
def test_an_item_that_does_not_fit_is_an_input_error(item):
    req = make_request("choose_slot", 0, [0, 1])
    if item == "0.0":
        req = make_request("choose_targets", 0, [1, 2], 1, 2)
        assert codec.decode_answer(req, item) == [1, 1]   # decoded; the game's check refuses the repeat
        return
    with pytest.raises(codec.InputError):
        codec.decode_answer(req, item)


@given(st.lists(st.integers(1, 1 << 24), unique=True, max_size=60))
def test_card_ranges_round_trip(ids):
    text = codec.encode_ranges(ids)
    assert set(text) <= SAFE and codec.decode_ranges(text) == sorted(ids)


def test_the_start_item_round_trips_and_is_short():
    seats = [(1, "AAAAAAAA", "B" * 22, list(range(65537, 65587))),
             (2, "CCCCCCCC", "D" * 22, list(range(131073, 131123)))]
    item = codec.encode_start('build "x" 1', seats)
    assert set(item) <= SAFE and len(item) < 140
    start = codec.decode_start(item)
    assert start["build"] == "build__x__1"
    assert [(s["pid"], s["end"], s["commitment"], s["cards"]) for s in start["seats"]] == seats
    with pytest.raises(codec.InputError):
        codec.decode_start("S9,b,1:a:b:1")


def test_log_parts_and_checks():
    assert codec.decode_part(codec.encode_part(4, ["1", "Q0"])) == (4, ["1", "Q0"])
    assert codec.decode_part("") == (0, []) and codec.decode_part("junk") == (0, [])
    assert codec.decode_check(codec.encode_check(12, 3, "0abc")) == (12, 3, "0abc")
    assert codec.decode_check("1.2") is None
    assert codec.conceding_seat(codec.concede_item(1)) == 1 and codec.conceding_seat("1") is None


def test_checksum_ignores_dict_order_and_sees_every_difference():
    a = {"x": [1, {"b": 2, "a": None}], "cards": {3: {"z": "1"}, 1: {"z": True}}}
    b = {"cards": {1: {"z": True}, 3: {"z": "1"}}, "x": [1, {"a": None, "b": 2}]}
    assert codec.checksum(a) == codec.checksum(b)
    for changed in ({"x": [1, {"b": 2, "a": 0}]}, {"cards": {3: {"z": 1}, 1: {"z": True}}},
                    {"cards": {3: {"z": "1"}, 1: {"z": 1}}}, {"x": [{"b": 2, "a": None}, 1]},
                    {"x": [1, {"b": 2, "a": None}, None]}, {"x": [1, {"b": 2, "a": None}], "y": None}):
        c = dict(b)
        c.update(changed)
        assert codec.checksum(c) != codec.checksum(a), changed
    assert codec.checksum({"n": 1 << 40}) != codec.checksum({"n": 0})


def test_checksum_can_leave_top_level_keys_out():
    a = {"x": 1, "log": [1, 2]}
    assert codec.checksum(a, skip=("log",)) == codec.checksum({"x": 1}) != codec.checksum(a)
