import ast

from hypothesis import given, settings, strategies as st

from rulescript.runtime import rng
from rulescript.runtime.plain import deep_copy, is_plain, is_tree, restore, snapshot


def test_same_seed_same_sequence_and_pinned_values():
    a = rng.seed_state(42)
    b = rng.seed_state(42)
    seq_a = [rng.next_u32(a) for _ in range(50)]
    seq_b = [rng.next_u32(b) for _ in range(50)]
    assert seq_a == seq_b
    assert len(set(seq_a)) == 50
    # pinned: pure 32-bit integer arithmetic, so these never change between Python versions
    # (a change here would break every recorded game log)
    assert rng.seed_state(42) == [3420838842, 3328960819, 115158375, 28104515]
    assert seq_a[:3] == [2895387466, 1137552810, 3665229457]


def test_different_seeds_differ_and_state_is_plain_ints():
    a, b = rng.seed_state(1), rng.seed_state(2)
    assert a != b
    assert all(type(x) is int and 0 <= x <= rng.MASK32 for x in a)
    rng.next_u32(a)
    assert is_plain(a) and len(a) == 4


@given(st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.integers(min_value=1, max_value=1000))
@settings(max_examples=200)
def test_randbelow_in_range(seed, n):
    s = rng.seed_state(seed)
    for _ in range(20):
        v = rng.randbelow(s, n)
        assert 0 <= v < n


def test_randbelow_roughly_uniform_and_coin():
    s = rng.seed_state(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(s, 6)] += 1
    assert all(800 < c < 1200 for c in counts), counts
    coins = [rng.coin(s) for _ in range(400)]
    assert set(coins) == {"heads", "tails"}
    assert 140 < coins.count("heads") < 260


def test_shuffle_is_a_permutation_and_reproducible():
    a = list(range(50))
    b = list(range(50))
    rng.shuffle(rng.seed_state(9), a)
    rng.shuffle(rng.seed_state(9), b)
    assert a == b and sorted(a) == list(range(50)) and a != list(range(50))


def test_rng_wrapper_shares_state():
    r = rng.Rng(5)
    st_ = r.state
    r.randbelow(10)
    assert r.state is st_
    assert st_ != rng.seed_state(5)


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=3) | st.integers(), kids,
                                                                max_size=4),
    max_leaves=20)


@given(plain_values)
def test_deep_copy_equal_and_independent(x):
    y = deep_copy(x)
    assert y == x
    assert is_plain(y)
    assert repr(y) == repr(x)
    assert ast.literal_eval(repr(y)) == x


def test_deep_copy_independence_nested():
    x = {"a": [1, {"b": [2, 3]}], "c": {"d": {}}}
    y = deep_copy(x)
    y["a"][1]["b"].append(4)
    y["c"]["d"]["e"] = 1
    assert x == {"a": [1, {"b": [2, 3]}], "c": {"d": {}}}


def test_is_plain_rejects_objects():
    assert not is_plain({"a": object()})
    assert not is_plain([1.5j])
    assert not is_plain({(1, 2): 3})


def test_snapshot_restore_in_place():
    state = {"x": [1, 2], "y": {"z": 1}}
    snap = snapshot(state)
    state["x"].append(3)
    state["w"] = 5
    same = state
    restore(state, snap)
    assert same == {"x": [1, 2], "y": {"z": 1}}
    state["x"].append(9)
    assert snap["x"] == [1, 2]


def test_restore_can_keep_the_log():
    state = {"log": [1], "x": 1}
    snap = snapshot(state, skip=("log",))
    assert snap == {"x": 1}
    state["log"].append(2)
    state["x"] = 5
    restore(state, snap, keep=("log",))
    assert state == {"log": [1, 2], "x": 1}


def test_restore_is_in_place_so_held_references_stay_valid():
    state = {"cards": {1: {"bp": 500, "tags": [1]}}, "players": [{"hp": 3000, "hand": [1, 2]}],
             "rng": [1, 2, 3, 4]}
    cards = state["cards"]
    card = state["cards"][1]
    hand = state["players"][0]["hand"]
    rng_list = state["rng"]
    snap = snapshot(state)
    card["bp"] = 0
    card["new"] = True
    cards[2] = {"bp": 1}
    hand.append(3)
    state["players"].append({"hp": 1})
    state["extra"] = 1
    rng_list[0] = 99
    restore(state, snap)
    assert state == {"cards": {1: {"bp": 500, "tags": [1]}}, "players": [{"hp": 3000, "hand": [1, 2]}],
                     "rng": [1, 2, 3, 4]}
    assert state["cards"] is cards and state["cards"][1] is card and card["bp"] == 500
    assert state["players"][0]["hand"] is hand and state["rng"] is rng_list
    card["bp"] = 7
    assert snap["cards"][1]["bp"] == 500          # no aliasing with the snapshot


@given(plain_values, plain_values)
def test_restore_gives_back_the_snapshot(a, b):
    state = {"v": deep_copy(a), "w": [deep_copy(a), deep_copy(b)]}
    snap = snapshot(state)
    state["v"] = deep_copy(b)         # a state is a tree: no container appears twice
    state["w"] = [deep_copy(b)]
    restore(state, snap)
    assert state == {"v": a, "w": [a, b]}


def test_is_tree_detects_shared_containers():
    inner = [1]
    assert is_tree({"a": [1], "b": [1]})
    assert not is_tree({"a": inner, "b": inner})
    assert not is_tree([{"x": inner}, inner])
