"""Whatever text comes in, the parser returns diagnostics, never an exception.

Inputs: random text over the sentence alphabet, and valid sentences damaged by character and token
mutations (deleted, doubled, swapped and inserted tokens; case changes; unbalanced parentheses;
huge numbers; control characters and non-ASCII blanks). Every diagnostic must be well formed:
an ``AWnnn`` code, line 1, a column inside the text (or just past its end), a message, and it
must render. A sentence that parses must round-trip.

The fast test runs 1,500 hypothesis examples. ``test_100k_fuzzed_inputs`` (marked slow) runs 100,000
inputs from a seeded generator (about 10 s on the 2-core machine).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulescript.diagnostics import render
from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import parse, serialize
from wwrf_adapter.aiwolf.parser import KEYWORDS

from .strategies import utterances

CODE = re.compile(r"AW\d{3}$")
WORDS = sorted(KEYWORDS) + ["Skip", "Over", "ANY", "TALK", "WHISPER", "day1", "ID:3", "Agent[01]", "Agent[00]",
                            "Agent[7]", "Agent1", "SEER", "HUMAN", "WEREWOLF", "FOX", "vote", "OVER", "(", ")",
                            "((", "))", "Agent[", "]", "99999999999999999999", "0", "12", "ID:", "day", "\t", " ",
                            "\u00a0", "\n", "é", "Agent[0000000000000000000000000003]"]
ALPHABET = "AgentANYVOTEDSkipOver[]()0123456789 \t:dayID_\n\x00é"


def check(text: str) -> None:
    result = parse(text)
    assert result.ok == (result.utterance is not None)
    assert result.ok == (not result.diagnostics), (text, result.diagnostics)
    for d in result.diagnostics:
        assert CODE.match(d.code), d
        assert d.severity == "error" and d.message
        assert d.span.line == 1 and 1 <= d.span.col <= len(text) + 1, (text, d)
        assert d.span.end_col is not None and d.span.end_col > d.span.col
        assert render(d, text)
    if result.utterance is not None:
        assert parse(serialize(result.utterance)).utterance == result.utterance


def mutate(rng: random.Random, text: str) -> str:
    kind = rng.randrange(8)
    tokens = re.findall(r"Agent\[[^\]]*\]|[()]|[^\s()]+|\s+", text) or [""]
    i = rng.randrange(len(tokens))
    if kind == 0:  # delete a token
        del tokens[i]
    elif kind == 1:  # double a token
        tokens.insert(i, tokens[i])
    elif kind == 2:  # swap two tokens
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 3:  # insert a word
        tokens.insert(i, rng.choice(WORDS))
    elif kind == 4:  # change case
        tokens[i] = rng.choice([str.lower, str.upper, str.capitalize])(tokens[i])
    elif kind == 5:  # replace a word
        tokens[i] = rng.choice(WORDS)
    else:  # character damage
        s = "".join(tokens)
        p = rng.randrange(len(s) + 1)
        if kind == 6:
            return s[:p] + rng.choice(ALPHABET) + s[p:]
        return s[:p] + s[p + 1:]
    return "".join(tokens)


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) + rng.choice(["", " ", " "]) for _ in range(rng.randrange(12)))


FUZZ = settings(max_examples=1500, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.one_of(
    st.text(alphabet=ALPHABET, max_size=80),
    st.lists(st.sampled_from(WORDS), max_size=15).map(" ".join),
    st.tuples(utterances, st.randoms(use_true_random=False), st.integers(1, 4)).map(
        lambda t: _damage(serialize(t[0]), t[1], t[2])),
))
def test_fuzzed_inputs_give_only_diagnostics(text: str) -> None:
    check(text)


def _damage(text: str, rng: random.Random, times: int) -> str:
    for _ in range(times):
        text = mutate(rng, text)
    return text


def test_known_nasty_inputs() -> None:
    for text in ["(" * 10_000, ")" * 10_000, "NOT (" * 5000, "Agent[" + "9" * 10_000 + "]",
                 "DAY " + "1" * 5000 + " (VOTE ANY)", "AND " + "(VOTE ANY)" * 3000, "\x00", "\ud800",
                 "AGREE TALK day" + "9" * 5000 + " ID:1", "ANY " * 5000]:
        check(text)


@pytest.mark.slow
@pytest.mark.timeout(600)  # about 60 s on a loaded two-core machine
def test_100k_fuzzed_inputs() -> None:
    rng = random.Random(20190306)
    seeds = [serialize(u) for u in _seed_sentences(rng)]
    for n in range(100_000):
        if n % 5 == 0:
            text = random_text(rng)
        else:
            text = rng.choice(seeds)
            for _ in range(rng.randrange(1, 4)):
                text = mutate(rng, text)
        check(text)


def _seed_sentences(rng: random.Random) -> list[A.Utterance]:
    """A few hundred valid sentences, drawn from the round-trip strategy with a fixed seed."""
    out: list[A.Utterance] = []

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(utterances)
    def collect(u: A.Utterance) -> None:
        out.append(u)

    collect()
    assert len(out) >= 100
    return out
