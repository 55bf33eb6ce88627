"""SHA-256 (FIPS 180-4) in plain Python, the same on Python 2.7, 3 and IronPython.

OCTGN's IronPython ships no standard library (no ``hashlib``), so the host brings its own hash for
the tokens that authenticate inputs (:mod:`auth`).  ``digest(data)`` gives the 32 bytes as a list of
ints, ``hexdigest(data)`` as 64 hex digits; ``data`` is text (encoded as UTF-8) or bytes.
"""
from __future__ import absolute_import, division, print_function

_K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]
_H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
_M = 0xFFFFFFFF
_BYTES = type(b"")
_STR_IS_BYTES = _BYTES is str


def _octets(data):
    """The bytes of ``data`` as a list of ints."""
    if isinstance(data, (bytearray, list)):
        return list(data)
    if isinstance(data, _BYTES):
        return [ord(c) for c in data] if _STR_IS_BYTES else list(data)
    encoded = data.encode("utf-8")
    if isinstance(encoded, _BYTES) and not _STR_IS_BYTES:
        return list(encoded)
    return [ord(c) & 0xFF for c in encoded]


def _compress(h, block, k=_K, M=_M, rounds=tuple(range(64)), later=tuple(range(16, 64))):
    w = block[:]
    add = w.append
    for t in later:
        x = w[t - 15]
        y = w[t - 2]
        add((w[t - 16] + w[t - 7]
             + ((((x >> 7) | (x << 25)) ^ ((x >> 18) | (x << 14)) ^ (x >> 3)) & M)
             + ((((y >> 17) | (y << 15)) ^ ((y >> 19) | (y << 13)) ^ (y >> 10)) & M)) & M)
    a, b, c, d, e, f, g, hh = h
    for t in rounds:
        t1 = (hh + ((((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))) & M)
              + ((e & f) ^ (~e & g)) + k[t] + w[t]) & M
        hh = g
        g = f
        f = e
        e = (d + t1) & M
        d = c
        c = b
        b = a
        a = (t1 + ((((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))) & M)
             + ((a & c) ^ (a & d) ^ (c & d))) & M
    return [(h[0] + a) & M, (h[1] + b) & M, (h[2] + c) & M, (h[3] + d) & M,
            (h[4] + e) & M, (h[5] + f) & M, (h[6] + g) & M, (h[7] + hh) & M]


def digest(data):
    """The SHA-256 digest of ``data``: a list of 32 ints."""
    msg = _octets(data)
    n = len(msg)
    msg.append(0x80)
    while len(msg) % 64 != 56:
        msg.append(0)
    bits = n * 8
    msg.extend([(bits >> (8 * i)) & 0xFF for i in range(7, -1, -1)])
    h = _H0[:]
    for off in range(0, len(msg), 64):
        block = [(msg[off + 4 * i] << 24) | (msg[off + 4 * i + 1] << 16) | (msg[off + 4 * i + 2] << 8)
                 | msg[off + 4 * i + 3] for i in range(16)]
        h = _compress(h, block)
    out = []
    for x in h:
        out.extend([(x >> 24) & 0xFF, (x >> 16) & 0xFF, (x >> 8) & 0xFF, x & 0xFF])
    return out


def hexdigest(data):
    """The SHA-256 digest of ``data`` as 64 lower-case hex digits."""
    return "".join(["%02x" % b for b in digest(data)])
