"""The sentence parser: accepted variants, normalisation, and a located error for each mistake."""

from __future__ import annotations

import pytest

from wwrf_adapter.aiwolf import ast as A
from wwrf_adapter.aiwolf import normalize, normalize_text, parse, parse_sentence, resolve, serialize
from wwrf_adapter.aiwolf.diagnostics import SentenceError
from wwrf_adapter.aiwolf.parser import MAX_DEPTH


def diag(text: str) -> tuple[str, int, int]:
    """(code, column, end column) of the only diagnostic of ``text``."""
    result = parse(text)
    assert result.utterance is None
    assert len(result.diagnostics) == 1, result.diagnostics
    d = result.diagnostics[0]
    assert d.severity == "error" and d.span.line == 1
    return d.code, d.span.col, d.span.end_col or 0


def col(text: str, part: str, nth: int = 0) -> int:
    i = -1
    for _ in range(nth + 1):
        i = text.index(part, i + 1)
    return i + 1


# ---------------------------------------------------------------- the AST of each shape


def test_every_shape_builds_its_node() -> None:
    a1, a2, a3 = A.Agent(1), A.Agent(2), A.Agent(3)
    vote = A.ActionSentence("VOTE", None, a3)
    assert parse_sentence("Agent[01] ESTIMATE Agent[02] WEREWOLF") == A.RoleSentence("ESTIMATE", a1, a2, A.Role.WEREWOLF)
    assert parse_sentence("COMINGOUT ANY ANY") == A.RoleSentence("COMINGOUT", None, A.ANY, A.Role.ANY)
    assert parse_sentence("IDENTIFIED Agent[02] HUMAN") == A.SpeciesSentence("IDENTIFIED", None, a2, A.Species.HUMAN)
    assert parse_sentence("ANY ATTACKED Agent[02]") == A.ActionSentence("ATTACKED", A.ANY, a2)
    assert parse_sentence("DISAGREE WHISPER day0 ID:12") == \
        A.AgreeSentence("DISAGREE", None, A.TalkRef("WHISPER", 0, 12))
    assert parse_sentence("INQUIRE Agent[01] (VOTE Agent[03])") == A.Directed("INQUIRE", None, a1, vote)
    assert parse_sentence("BECAUSE (VOTE Agent[03]) (NOT (VOTE Agent[03]))") == A.Because(None, vote, A.Not(None, vote))
    assert parse_sentence("XOR (VOTE Agent[03]) (VOTE Agent[03])") == A.Xor(None, vote, vote)
    assert parse_sentence("Agent[02] DAY 3 (VOTE Agent[03])") == A.DaySentence(a2, 3, vote)
    assert parse_sentence("OR (VOTE Agent[03]) (VOTE Agent[03]) (VOTE Agent[03])") == \
        A.Junction("OR", None, (vote, vote, vote))
    assert parse_sentence("Skip") == A.SKIP and parse_sentence("Over") == A.OVER


def test_positions_are_recorded_but_not_compared() -> None:
    s = parse_sentence("  Agent[01]  VOTE\tAgent[2]")
    assert isinstance(s, A.ActionSentence)
    assert s.pos == {"subject": (3, 12), "verb": (14, 18), "target": (19, 27), "sentence": (3, 27)}
    assert s == parse_sentence("Agent[01] VOTE Agent[02]") and hash(s) == hash(parse_sentence("Agent[1] VOTE Agent[2]"))


# ---------------------------------------------------------------- accepted variants and normalisation


@pytest.mark.parametrize("text, normal", [
    ("Agent[3] VOTE Agent[003]", "Agent[03] VOTE Agent[03]"),
    ("VOTE Agent[00]", "VOTE ANY"),
    ("Agent[0] VOTE Agent[1]", "ANY VOTE Agent[01]"),
    ("Agent[01]VOTE Agent[02]", "Agent[01] VOTE Agent[02]"),
    (" \t AND(VOTE Agent[1])(VOTE Agent[2]) \t", "AND (VOTE Agent[01]) (VOTE Agent[02])"),
    ("NOT (  VOTE   Agent[1]  )", "NOT (VOTE Agent[01])"),
    ("Agent[123] VOTE Agent[1]", "Agent[123] VOTE Agent[01]"),
    ("REQUEST (Agent[02] DIVINATION Agent[03])", "REQUEST Agent[02] (DIVINATION Agent[03])"),
    ("REQUEST (DIVINATION Agent[03])", "REQUEST ANY (DIVINATION Agent[03])"),
    ("INQUIRE (Agent[04] VOTED ANY)", "INQUIRE Agent[04] (VOTED ANY)"),
    ("Agent[01] NOT (Agent[01] VOTE Agent[02])", "Agent[01] NOT (VOTE Agent[02])"),
    ("Agent[01] REQUEST Agent[02] (Agent[01] VOTE Agent[03])", "Agent[01] REQUEST Agent[02] (Agent[01] VOTE Agent[03])"),
    ("Agent[01] REQUEST Agent[02] (Agent[02] VOTE Agent[03])", "Agent[01] REQUEST Agent[02] (VOTE Agent[03])"),
    ("REQUEST ANY (ANY VOTE Agent[03])", "REQUEST ANY (ANY VOTE Agent[03])"),
    ("Agent[05] AND (DAY 1 (Agent[05] VOTED Agent[1])) (Agent[5] XOR (Agent[5] VOTE Agent[2]) (VOTE Agent[3]))",
     "Agent[05] AND (DAY 1 (VOTED Agent[01])) (XOR (VOTE Agent[02]) (VOTE Agent[03]))"),
    ("AGREE TALK day01 ID:007", "AGREE TALK day1 ID:7"),
    ("DAY 02 (VOTE Agent[1])", "DAY 2 (VOTE Agent[01])"),
])
def test_normalisation(text: str, normal: str) -> None:
    assert normalize_text(text) == normal
    assert normalize_text(normal) == normal


def test_top_level_subject_is_dropped_only_for_the_given_speaker() -> None:
    assert normalize_text("Agent[01] VOTE Agent[02]", speaker=A.Agent(1)) == "VOTE Agent[02]"
    assert normalize_text("Agent[01] VOTE Agent[02]", speaker=A.Agent(3)) == "Agent[01] VOTE Agent[02]"
    assert normalize_text("Agent[03] NOT (Agent[03] VOTE Agent[02])", speaker=A.Agent(3)) == "NOT (VOTE Agent[02])"


def test_resolve_fills_omitted_subjects_by_the_inheritance_rules() -> None:
    u = parse_sentence("BECAUSE (REQUEST Agent[02] (VOTE Agent[03])) (Agent[04] NOT (VOTE Agent[02]))")
    assert serialize(resolve(u, A.Agent(1))) == (
        "Agent[01] BECAUSE (Agent[01] REQUEST Agent[02] (Agent[02] VOTE Agent[03])) "
        "(Agent[04] NOT (Agent[04] VOTE Agent[02]))")
    # without a speaker the top-level subject and what inherits it stay omitted
    assert serialize(resolve(u)) == \
        "BECAUSE (REQUEST Agent[02] (Agent[02] VOTE Agent[03])) (Agent[04] NOT (Agent[04] VOTE Agent[02]))"
    assert resolve(normalize(u), A.Agent(1)) == resolve(u, A.Agent(1))


# ---------------------------------------------------------------- the reference parser's weaknesses


@pytest.mark.parametrize("text, code, at", [
    # operand counts, which the reference never checks
    ("NOT (VOTE Agent[01]) (VOTE Agent[02])", "AW201", "(VOTE Agent[02])"),
    ("Agent[01] XOR (VOTE Agent[01]) (VOTE Agent[02]) (VOTE Agent[03])", "AW201", "(VOTE Agent[03])"),
    ("DAY 1 (VOTE Agent[01]) (VOTE Agent[02])", "AW201", "(VOTE Agent[02])"),
    ("REQUEST Agent[01] (VOTE Agent[02]) (VOTE Agent[03])", "AW201", "(VOTE Agent[03])"),
    ("BECAUSE (VOTE Agent[01])", "AW201", "BECAUSE"),  # crashes the reference server
    ("Agent[03] XOR (VOTE Agent[01])", "AW201", "XOR"),
    ("AND (VOTE Agent[01])", "AW201", "AND"),
    ("OR (VOTE Agent[01])", "AW201", "OR"),
    ("NOT", "AW201", "NOT"),
    # text between and after groups, which the reference ignores
    ("AND (VOTE Agent[01]) Agent[02] (VOTE Agent[03])", "AW202", "Agent[02]"),
    ("BECAUSE (VOTE Agent[01])x(VOTE Agent[03])", "AW202", "x"),
    ("OR (VOTE Agent[01]) (VOTE Agent[03]) trailing words", "AW202", "trailing words"),
    ("NOT (VOTE Agent[01]) ESTIMATE", "AW202", "ESTIMATE"),
    # Skip and Over nested, which the reference accepts
    ("NOT (Skip)", "AW203", "Skip"),
    ("AND (VOTE Agent[01]) (Over)", "AW203", "Over"),
    ("REQUEST ANY (Agent[02] Skip)", "AW203", "Skip"),
    ("Agent[01] Over", "AW203", "Over"),
])
def test_reference_weaknesses_are_errors_at_their_column(text: str, code: str, at: str) -> None:
    start = text.rindex(at) + 1 if code == "AW201" and at.startswith("(") else col(text, at)
    assert diag(text) == (code, start, start + len(at))


def test_all_weaknesses_of_one_sentence_are_reported() -> None:
    text = "AND (VOTE Agent[01]) junk (Skip) (VOTE Agent[02]) more"
    codes = [(d.code, d.span.col) for d in parse(text).diagnostics]
    assert codes == [("AW202", col(text, "junk")), ("AW203", col(text, "Skip")), ("AW202", col(text, "more"))]


# ---------------------------------------------------------------- other mistakes


@pytest.mark.parametrize("text, code, at", [
    ("", "AW110", None),
    ("   \t ", "AW110", None),
    ("VOTE Agent[01];", "AW101", ";"),
    ("VOTE\u00a0Agent[01]", "AW101", "\u00a0"),
    ("VOTE Agent[01] Agent[02]", "AW111", "Agent[02]"),
    ("(VOTE Agent[01])", "AW102", "("),
    ("VOTE Agent[01])", "AW102", ")"),
    ("NOT (VOTE Agent[01]", "AW102", "("),
    ("NOT ()", "AW102", ")"),
    ("NOT VOTE Agent[01]", "AW102", "VOTE"),
    ("VOTE", "AW102", None),
    ("Agent[01]", "AW102", None),
    ("VOTE SEER", "AW102", "SEER"),
    ("COMINGOUT Agent[01] VOTE", "AW103", "VOTE"),
    ("DIVINED Agent[01] SEER", "AW103", "SEER"),
    ("VOTES Agent[01]", "AW103", "VOTES"),
    ("VOTEAgent[01]", "AW103", "VOTEAgent[01]"),
    ("comingout Agent[01] SEER", "AW104", "comingout"),
    ("COMINGOUT Agent[01] seer", "AW104", "seer"),
    ("VOTE any", "AW104", "any"),
    ("VOTE Agent3", "AW105", "Agent3"),
    ("VOTE agent[03]", "AW105", "agent[03]"),
    ("VOTE Agent[x]", "AW105", "Agent[x]"),
    ("VOTE Agent[1234567890]", "AW106", "Agent[1234567890]"),
    ("DAY 99999999999 (VOTE ANY)", "AW106", "99999999999"),
    ("OVER", "AW107", "OVER"),
    ("skip", "AW107", "skip"),
    ("Over Over", "AW111", "Over"),
    ("AGREE day1 ID:3", "AW113", "day1"),
    ("AGREE TALK 1 ID:3", "AW113", "1"),
    ("AGREE TALK day1 3", "AW113", "3"),
    ("AGREE TALK day1", "AW113", None),
])
def test_located_errors(text: str, code: str, at: str | None) -> None:
    got = diag(text)
    if at is None:
        assert got[0] == code
    else:
        start = col(text, at, 1 if text == "Over Over" else 0)
        assert got == (code, start, start + len(at))


def test_messages_help() -> None:
    (d,) = parse("COMINGOUT Agent[01] SEEER").diagnostics
    assert d.notes == ("did you mean: SEER",)
    (d,) = parse("VOTEAgent[01]").diagnostics
    assert d.notes == ("put a blank after VOTE",)
    (d,) = parse("OVER").diagnostics
    assert "Over" in d.message and "read by the platform as Skip" in d.notes[0]
    d1, d2 = parse("Agent1 VOTE Agent12").diagnostics
    assert "Agent[01]" in d1.message and "Agent[12]" in d2.message


def test_nesting_is_bounded() -> None:
    ok = "NOT (" * MAX_DEPTH + "VOTE ANY" + ")" * MAX_DEPTH
    assert parse(ok).ok
    deep = "NOT (" * (MAX_DEPTH + 1) + "VOTE ANY" + ")" * (MAX_DEPTH + 1)
    code, c, _ = diag(deep)
    assert code == "AW112" and c == 5 * MAX_DEPTH + 5  # the first "(" too many


def test_parse_sentence_raises_with_the_diagnostics() -> None:
    with pytest.raises(SentenceError) as info:
        parse_sentence("NOT (Skip)")
    assert info.value.diagnostics[0].code == "AW203" and "column 6" in str(info.value)


def test_file_and_line_are_those_given() -> None:
    (d,) = parse("VOTE Agent1", "talk.txt", 7).diagnostics
    assert (d.span.file, d.span.line, d.span.col) == ("talk.txt", 7, 6)


def test_agent_zero_is_any_and_not_an_agent() -> None:
    with pytest.raises(ValueError):
        A.Agent(0)
    assert str(A.Agent(7)) == "Agent[07]" and str(A.Agent(100)) == "Agent[100]"


def test_only_a_keyword_glued_to_what_follows_is_told_to_take_a_blank() -> None:
    """An unknown word where a verb goes (AW103): when it starts with a keyword (the longest one:
    DIVINED, not DIVINE) the note says to put a blank after it; otherwise the note names the keywords
    it resembles, or there is none."""
    (d,) = parse("DIVINEDAgent[01] HUMAN").diagnostics
    assert (d.code, d.notes) == ("AW103", ("put a blank after DIVINED",))
    (d,) = parse("VOTX Agent[01]").diagnostics
    assert d.code == "AW103" and len(d.notes) == 1
    assert d.notes[0].startswith("did you mean: ") and "VOTE" in d.notes[0].split(": ", 1)[1].split(", ")
    (d,) = parse("XYZZY").diagnostics
    assert (d.code, d.notes) == ("AW103", ())


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_an_empty_sentence_is_reported_at_column_1(text: str) -> None:
    """AW110 (docs/aiwolf.md: an empty sentence): a sentence with no token is reported at its start,
    column 1 (columns count from 1), one character wide; the note says what to write instead."""
    (d,) = parse(text).diagnostics
    assert (d.code, d.span.line, d.span.col, d.span.end_col) == ("AW110", 1, 1, 2)
    assert d.notes == ("write Skip or Over to pass",)
