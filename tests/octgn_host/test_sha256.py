"""The host's own SHA-256 (OCTGN's IronPython has no hashlib): the test vectors published with
FIPS 180-2 / NIST's SHA examples, agreement with hashlib, the same digests under Python 2.7, and the
hash chains built on it."""
from __future__ import annotations

import hashlib
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from octgn_pack.host import auth, sha256
from octgn_pack.py27 import find_python27
from tests.conftest import ROOT

# (message, digest) from FIPS 180-2 appendix B and NIST's "SHA-256 examples"
VECTORS = [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
]


@pytest.mark.parametrize("message,digest", VECTORS)
def test_published_vectors(message, digest):
    assert sha256.hexdigest(message) == digest
    assert sha256.hexdigest(message.encode("ascii")) == digest


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_million_a_vector():
    assert sha256.hexdigest("a" * 1000000) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_it_agrees_with_hashlib_at_every_length(data):
    assert sha256.hexdigest(data) == hashlib.sha256(data).hexdigest()


def test_the_same_digests_under_python_27():
    py27 = find_python27()
    if py27 is None:
        pytest.skip("no Python 2.7 interpreter available (set PYTHON27 to one)")
    code = ("import sys; sys.path.insert(0, %r)\nfrom octgn_pack.host import sha256\n"
            "for m in sys.argv[1:]: print(sha256.hexdigest(m))" % str(ROOT))
    out = subprocess.run([py27, "-c", code] + [m for m, _ in VECTORS[:1] + VECTORS[2:]], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [d for _, d in VECTORS[:1] + VECTORS[2:]]


def test_a_chain_reveals_its_tokens_backwards_and_recommits_when_a_segment_ends():
    keys = auth.Keys(auth.new_secret([1, 2, 3]))
    chains = auth.Chains([keys.end(0)])
    seen = set()
    for count in range(auth.SEGMENT + 3):
        proof = keys.token(count)
        assert ("~" in proof) == (count == auth.SEGMENT - 1)    # the last token carries the next end
        assert chains.accept(0, proof) is None
        assert chains.accept(0, proof) is not None                  # never twice
        seen.add(proof.split("~")[0])
    assert len(seen) == auth.SEGMENT + 3 and chains.count == [auth.SEGMENT + 3]
    # every token is the hash preimage of the one before it, in 8 base64 characters
    assert auth.link(keys.token(1)) == keys.token(0) and auth.is_token(keys.token(1))
    other = auth.Keys(auth.new_secret([1, 2, 4]))
    fresh = auth.Chains([keys.end(0)])
    assert fresh.accept(0, other.token(0)) == "wrong or reused token"
    assert fresh.accept(0, keys.token(0) + "~" + keys.end(1)) == "malformed token"
    assert fresh.accept(1, keys.token(0)) == "no such seat"
