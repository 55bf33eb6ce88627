"""Every example sentence of the protocol 3.6 text parses, round-trips and means what the text says.

The examples are read from ``shared/seeds/aiwolf-protocol-3.6.md`` at test time. The 3.6 text writes
agents ``Agent1`` and uses placeholders; the platform writes ``Agent[01]``. :func:`wire_forms` turns
an example into the wire spelling: ``AgentN`` → ``Agent[NN]``, ``[role]`` → every 3.6 role,
``[species]`` → every species, ``[agent]`` → ``Agent[05]``, ``[talk number]`` → ``TALK day1 ID:3``,
the one lower-case keyword (``vote``) upper-cased, and the ellipsis of an elided list dropped.
"""

from __future__ import annotations

import re

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import normalize, parse, parse_sentence, serialize
from wwrf_adapter.aiwolf.expand import expand_any
from wwrf_adapter.aiwolf.game import GameContext
from wwrf_adapter.aiwolf.parser import KEYWORDS

from ..conftest import SHARED

SEED = SHARED / "seeds" / "aiwolf-protocol-3.6.md"
pytestmark = pytest.mark.skipif(not SEED.is_file(), reason="shared/ is not next to this checkout")

_QUOTED = re.compile(r"“([^”\n]*)”?")
_STARTS_FORMAL = re.compile(r"^(?:Agent\d+ )?([A-Z]+)\b(?!,)")
ROLES_36 = ["VILLAGER", "SEER", "MEDIUM", "BODYGUARD", "WEREWOLF", "POSSESSED", "ANY"]


def spec_examples() -> list[str]:
    """The formal sentences of the 3.6 text: quoted ones, and the unquoted OR (...) equivalence."""
    if not SEED.is_file():
        return []
    found: list[str] = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        candidates = _QUOTED.findall(line)
        if line.startswith("OR ("):
            candidates.append(line)
        for text in candidates:
            m = _STARTS_FORMAL.match(text.strip())
            if m and m.group(1) in KEYWORDS and text.strip() not in found:
                found.append(text.strip())
    return found


def wire_forms(example: str) -> list[str]:
    text = re.sub(r"Agent(\d+)", lambda m: f"Agent[{int(m.group(1)):02d}]", example)
    text = text.replace("[talk number]", "TALK day1 ID:3").replace("[agent]", "Agent[05]")
    text = re.sub(r"\bvote\b", "VOTE", text)
    text = re.sub(r"\s*(…|\.\.\.)\s*", "", text)
    forms = [text]
    for placeholder, values in (("[role]", ROLES_36), ("[species]", ["HUMAN", "WEREWOLF", "ANY"])):
        if placeholder in text:
            forms = [f.replace(placeholder, v) for f in forms for v in values]
    return forms


EXAMPLES = spec_examples()


def test_the_examples_are_all_found() -> None:
    # 30 distinct formal examples in the 3.6 text (one is given twice), plus the unquoted OR expansion
    assert len(EXAMPLES) == 30
    assert "Agent2 BECAUSE (DAY  1  (Agent1 VOTE Agent2)) (vote Agent1)" in EXAMPLES
    assert any(e.startswith("OR (REQUEST Agent1") for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_parses_and_round_trips(example: str) -> None:
    for text in wire_forms(example):
        assert "[" not in text.replace("Agent[", "")  # no placeholder left
        result = parse(text)
        assert result.diagnostics == [], (text, result.diagnostics)
        u = result.utterance
        assert u is not None
        canonical = serialize(u)
        assert parse_sentence(canonical) == u
        assert serialize(parse_sentence(canonical)) == canonical
        norm = normalize(u)
        assert normalize(parse_sentence(serialize(norm))) == norm


@pytest.mark.parametrize("example", [e for e in EXAMPLES if re.search(r"Agent\d", e)])
def test_example_as_written_in_the_text_points_at_the_agent_spelling(example: str) -> None:
    text = re.sub(r"\[(role|species|talk number|agent)\]", "ANY", example).replace("[talk number]", "")
    text = text.replace("AGREE ANY", "AGREE TALK day1 ID:3").replace("DISAGREE ANY", "DISAGREE TALK day1 ID:3")
    text = re.sub(r"\s*(…|\.\.\.)\s*", "", text)
    result = parse(text)
    assert result.utterance is None
    first = re.search(r"Agent\d+", text)
    assert first is not None
    agent_errors = [d for d in result.diagnostics if d.code == "AW105"]
    assert agent_errors and agent_errors[0].span.col == first.start() + 1
    assert "Agent[" in agent_errors[0].message


def test_lower_case_keyword_of_the_because_example_is_located() -> None:
    text = "Agent[02] BECAUSE (DAY  1  (Agent[01] VOTE Agent[02])) (vote Agent[01])"
    (d,) = parse(text).diagnostics
    assert (d.code, d.span.col, d.span.end_col) == ("AW104", text.index("vote") + 1, text.index("vote") + 5)
    assert "VOTE" in d.message


def test_request_without_inner_subject_is_identical_to_the_explicit_one() -> None:
    short = parse_sentence("REQUEST Agent[02] (DIVINATION Agent[03])")
    full = parse_sentence("REQUEST Agent[02] (Agent[02] DIVINATION Agent[03])")
    assert short != full and normalize(full) == short


def test_any_expansions_of_the_text() -> None:
    game = GameContext(3, {A.Role.SEER: 1, A.Role.WEREWOLF: 1, A.Role.VILLAGER: 1})
    u = parse_sentence("Agent[02] INQUIRE Agent[01] (VOTED ANY)")
    assert serialize(expand_any(u, game)) == \
        "Agent[02] INQUIRE Agent[01] (OR (VOTED Agent[01]) (VOTED Agent[02]) (VOTED Agent[03]))"
    u = parse_sentence("REQUEST ANY (DIVINED Agent[05] HUMAN)")
    assert serialize(expand_any(u, game)) == ("OR (REQUEST Agent[01] (DIVINED Agent[05] HUMAN)) "
                                              "(REQUEST Agent[02] (DIVINED Agent[05] HUMAN)) "
                                              "(REQUEST Agent[03] (DIVINED Agent[05] HUMAN))")
