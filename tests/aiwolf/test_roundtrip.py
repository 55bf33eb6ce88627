"""Property tests: ``parse(serialize(x)) == x`` over generated sentences, and the accepted variants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import normalize, parse, resolve, serialize

from .strategies import noisy_text, utterances

SETTINGS = settings(max_examples=400, deadline=None, derandomize=True, database=None)


@SETTINGS
@given(utterances)
def test_parse_of_serialize_is_identity(u: A.Utterance) -> None:
    text = serialize(u)
    result = parse(text)
    assert result.diagnostics == []
    assert result.utterance == u
    assert serialize(result.utterance) == text


@SETTINGS
@given(st.data(), utterances)
def test_every_accepted_spelling_parses_to_the_same_ast(data: st.DataObject, u: A.Utterance) -> None:
    text = data.draw(noisy_text(u))
    result = parse(text)
    assert result.diagnostics == [], text
    assert result.utterance == u


@SETTINGS
@given(utterances, st.one_of(st.none(), st.integers(1, 20).map(A.Agent)))
def test_normalisation_is_idempotent_and_keeps_the_meaning(u: A.Utterance, speaker: A.Agent | None) -> None:
    n = normalize(u, speaker)
    assert normalize(n, speaker) == n
    assert resolve(n, speaker) == resolve(u, speaker)
    assert parse(serialize(n)).utterance == n
    assert len(serialize(n)) <= len(serialize(u))
