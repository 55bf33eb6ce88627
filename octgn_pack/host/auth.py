"""Inputs nobody can forge, and a seed nobody chooses: hash chains and commit-reveal per seat.

OCTGN's server knows who sent a ``remoteCall`` but a script never learns it, so any client could
send an input in another player's name.  Each client therefore keeps a secret (docs/octgn-host.md):

* a **hash chain** per segment ``j``: ``x0 = link(H("k" + secret + j))``, ``x(i+1) = link(x(i))``
  up to ``x(L)``, the segment's *end*.  The start item carries every seat's end of segment 0; the
  seat's ``i``-th input of a segment carries ``x(L-1-i)`` as its token, which every client checks with
  one hash (``link(token)`` must be the seat's last token) and which nobody could compute before it
  was revealed.  The last token of a segment carries the end of the next one, so a chain never runs
  out; the next segment is computed ahead, off the action path (:meth:`Keys.prepare`);
* a **seed share** ``r = B64(H("r" + secret))``, committed in the start item as ``B64(H("s" + r))``
  and revealed (item ``R<seat>~<r>``) only once every commitment is fixed; the seed comes from every
  share (:func:`seed_of`), so no client chooses it or learns it before every seat is committed.

Tokens are truncated to ``TOKEN_LEN`` characters of URL-safe base64 (48 bits: cheap to send, and
finding a preimage takes far longer than a game); seed commitments and shares keep 132 bits.
"""
from __future__ import absolute_import, division, print_function

from . import sha256

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
TOKEN_LEN = 8
SHARE_LEN = 22
SEGMENT = 64          # tokens per chain segment
AHEAD = 16            # the next segment is computed when fewer tokens than this are left
SEED_BITS = 30


def b64(octets, n):
    """The first ``n`` characters of the URL-safe base64 text of ``octets``."""
    out = []
    acc = 0
    bits = 0
    for o in octets:
        acc = (acc << 8) | o
        bits += 8
        while bits >= 6 and len(out) < n:
            bits -= 6
            out.append(ALPHABET[(acc >> bits) & 63])
        acc &= (1 << bits) - 1
        if len(out) >= n:
            break
    return "".join(out)


def link(token):
    """The chain value before ``token``: what a revealed token must hash to."""
    return b64(sha256.digest("c" + token), TOKEN_LEN)


def share_commitment(share):
    return b64(sha256.digest("s" + share), SHARE_LEN)


def seed_of(shares):
    """The game's seed from every seat's share (in seat order): 1 .. 2**30."""
    d = sha256.digest("seed." + ".".join(shares))
    v = (d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]
    return 1 + (v & ((1 << SEED_BITS) - 1))


def is_token(text, n=TOKEN_LEN):
    return len(text) == n and not [c for c in text if c not in ALPHABET]


def new_secret(numbers):
    """A secret from local random numbers (OCTGN's ``rndArray``) and anything else unique to the client."""
    return b64(sha256.digest("secret." + ".".join([str(x) for x in numbers])), SHARE_LEN)


class Keys(object):
    """The secrets of the local seat: its chain segments and its seed share."""

    def __init__(self, secret):
        self.secret = secret
        self.segments = {}

    def segment(self, j):
        """``[x0 .. xL]`` of segment ``j`` (computed once)."""
        chain = self.segments.get(j)
        if chain is None:
            x = b64(sha256.digest("k%s.%d" % (self.secret, j)), TOKEN_LEN)
            chain = [x]
            for _ in range(SEGMENT):
                x = link(x)
                chain.append(x)
            self.segments[j] = chain
            for old in [k for k in self.segments if k < j - 1]:
                del self.segments[old]
        return chain

    def end(self, j=0):
        return self.segment(j)[SEGMENT]

    def share(self):
        return b64(sha256.digest("r" + self.secret), SHARE_LEN)

    def token(self, count):
        """The token of the seat's input number ``count`` (from 0), with the end of the next segment
        when it is the segment's last: ``"<token>"`` or ``"<token>~<next end>"``."""
        j, i = divmod(count, SEGMENT)
        tok = self.segment(j)[SEGMENT - 1 - i]
        if i == SEGMENT - 1:
            return tok + "~" + self.end(j + 1)
        return tok

    def known_token(self, count):
        """:meth:`token` when its segment is at hand (None when it would have to be computed)."""
        if count // SEGMENT not in self.segments:
            return None
        return self.token(count)

    def prepare(self, count):
        """Compute the next segment ahead when few tokens are left (call it off the action path)."""
        j, i = divmod(count, SEGMENT)
        self.segment(j)
        if i >= SEGMENT - AHEAD:
            self.segment(j + 1)


class Chains(object):
    """What every client knows of every seat's chain: the last token accepted and how many."""

    def __init__(self, ends):
        self.last = list(ends)
        self.count = [0] * len(ends)
        # ``(seat, Keys)`` on the client that holds that seat's secret: a token of that seat that is
        # the one its chain gives next is accepted without hashing it (it links to ``last`` then)
        self.own = None

    def copy(self):
        c = Chains([])
        c.last = list(self.last)
        c.count = list(self.count)
        c.own = self.own
        return c

    def accept(self, seat, proof):
        """Check ``proof`` (the text after the first ``~`` of an item) for ``seat``'s next input and
        advance the chain; returns None, or why the proof is refused."""
        if seat is None or not 0 <= seat < len(self.last):
            return "no such seat"
        parts = proof.split("~")
        last_of_segment = self.count[seat] % SEGMENT == SEGMENT - 1
        if len(parts) != (2 if last_of_segment else 1) or not [p for p in parts if is_token(p)] == parts:
            return "malformed token"
        own = self.own
        if own is not None and own[0] == seat and own[1].known_token(self.count[seat]) == proof:
            pass
        elif link(parts[0]) != self.last[seat]:
            return "wrong or reused token"
        self.last[seat] = parts[1] if last_of_segment else parts[0]
        self.count[seat] += 1
        return None
