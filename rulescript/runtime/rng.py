"""A small seeded random generator whose whole state is a list of four 32-bit ints.

It is xorshift128 with every intermediate masked to 32 bits, so Python 2 and Python 3 produce the
same sequence. The state list lives inside the game state, which therefore saves and restores the
generator with everything else.
"""
from __future__ import absolute_import, division, print_function

MASK32 = 0xFFFFFFFF


def _mix(z):
    """A 32-bit integer hash (finaliser style) used to spread the seed over the four words."""
    z = (z + 0x9E3779B9) & MASK32
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & MASK32
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & MASK32
    return (z ^ (z >> 16)) & MASK32


def seed_state(seed):
    """The generator state (a list of 4 ints) for an integer seed (any size, any sign)."""
    s = int(seed)
    lo = s & MASK32
    hi = (s >> 32) & MASK32
    words = []
    z = lo ^ _mix(hi)
    for _ in range(4):
        z = _mix(z)
        words.append(int(z))
    if words == [0, 0, 0, 0]:
        words[0] = 1
    return words


def next_u32(st):
    """Advance the state list ``st`` in place and return the next 32-bit value."""
    t = st[3]
    s = st[0]
    st[3] = st[2]
    st[2] = st[1]
    st[1] = s
    t = (t ^ (t << 11)) & MASK32
    t = t ^ (t >> 8)
    v = (t ^ s ^ (s >> 19)) & MASK32
    st[0] = int(v)
    return st[0]


def randbelow(st, n):
    """A uniform int in [0, n) without modulo bias (n must be positive)."""
    n = int(n)
    if n <= 0:
        raise ValueError("randbelow needs n > 0, got %r" % (n,))
    if n == 1:
        return 0
    limit = ((MASK32 + 1) // n) * n
    while True:
        v = next_u32(st)
        if v < limit:
            return int(v % n)


def shuffle(st, items):
    """Shuffle the list ``items`` in place (Fisher-Yates)."""
    i = len(items) - 1
    while i > 0:
        j = randbelow(st, i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return items


def coin(st):
    """'heads' or 'tails'."""
    if randbelow(st, 2) == 0:
        return "heads"
    return "tails"


def choice(st, items):
    """One element of a non-empty list."""
    return items[randbelow(st, len(items))]


class Rng(object):
    """Convenience wrapper around a state list (for hosts); the list is shared, not copied."""

    def __init__(self, seed=0, state=None):
        if state is None:
            state = seed_state(seed)
        self.state = state

    def u32(self):
        return next_u32(self.state)

    def randbelow(self, n):
        return randbelow(self.state, n)

    def shuffle(self, items):
        return shuffle(self.state, items)

    def coin(self):
        return coin(self.state)

    def choice(self, items):
        return choice(self.state, items)
