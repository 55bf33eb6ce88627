"""Bad input never crashes: only diagnostics come out, each at a valid position.

Three hypothesis properties, 10,500 generated inputs in total: mutated lines of the real examples
(wrapped in a role file), mutated whole example files, and random text from WWRF's alphabet. When a
mutated file still parses without errors, its canonical form must parse back to the same AST.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .support import example_files
from rulescript.diagnostics import SourceText, render
from wwrf_adapter import format_element, parse_line, parse_text

FILES = [(p.name, p.read_text(encoding="utf-8")) for p in example_files()]
LINES = [line for _, text in FILES for line in text.split("\n") if line.strip()]
GLYPHS = ["•", "‣", "◦", "·", "⁃", "⹀", "`", "[", "]", "(", ")", "{", "}", "⟨", "⟩", "〈", "|", ":", ": ",
          "@", "#", "&", "^", "%", "$", "~", "!", ",", "+", "->", "-", ">", "<", "⇒", "=>", "'", "'s", " ",
          "  ", "\t", "\u200b", "\r", "\n", "`x`", "@(", "(~", " [", "[Quantity: ", "||", "__", "**", "x2",
          "Process:", "Evaluate:", "Otherwise: ", "For Each ", "Inherit: `Wolf Blood`", "No Abilities"]
SETTINGS = dict(deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_op = st.tuples(st.sampled_from(["delete", "insert", "swap", "duplicate", "cut"]),
                st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from(GLYPHS))


def mutate(text: str, ops: list[tuple[str, int, int, str]]) -> str:
    for kind, a, b, glyph in ops:
        n = len(text)
        i = a % (n + 1)
        j = b % (n + 1)
        if kind == "delete" and n:
            text = text[: min(i, n - 1)] + text[min(i, n - 1) + 1 + (b % 3) :]
        elif kind == "insert":
            text = text[:i] + glyph + text[i:]
        elif kind == "swap" and n > 1:
            x, y = sorted((i % n, j % n))
            text = text[:x] + text[y] + text[x + 1 : y] + text[x] + text[y + 1 :] if x != y else text
        elif kind == "duplicate":
            x, y = sorted((i, j))
            text = text[:y] + text[x:y] + text[y:]
        elif kind == "cut":
            x, y = sorted((i, j))
            text = text[:x] + text[y:]
    return text


def check(text: str, file: str = "fuzzed") -> None:
    el, diags = parse_text(text, file)
    lines = SourceText(file, text).lines
    for d in diags:
        assert d.span.file == file
        assert 1 <= d.span.line <= len(lines), d
        assert d.span.col >= 1 and (d.span.end_col is None or d.span.end_col > d.span.col), d
        assert d.code.startswith("WW") and d.severity in ("error", "warning")
        render(d, text)
    if not any(d.is_error for d in diags):
        again, diags2 = parse_text(format_element(el), file)
        assert not any(d.is_error for d in diags2), [d.render() for d in diags2]
        assert again == el


@pytest.mark.timeout(600)  # 5,000 examples: about 40 s alone, several minutes on a loaded two-core machine
@settings(max_examples=5000, **SETTINGS)
@given(st.integers(0, max(0, len(LINES) - 1)), st.lists(_op, min_size=1, max_size=4))
def test_mutated_example_lines(index: int, ops: list[tuple[str, int, int, str]]) -> None:
    line = mutate(LINES[index], ops)
    check("**Fuzz** | Townsfolk Power\n__Formalized__\nImmediate Night: Kill @Selection\n" + line + "\n")
    node, diags = parse_line(line.strip() or "x", "ability")
    for d in diags:
        assert d.span.line == 1 and d.span.col >= 1


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 190 s on a loaded two-core machine
@settings(max_examples=3500, **SETTINGS)
@given(st.integers(0, max(0, len(FILES) - 1)), st.lists(_op, min_size=1, max_size=8))
def test_mutated_example_files(index: int, ops: list[tuple[str, int, int, str]]) -> None:
    name, text = FILES[index]
    check(mutate(text, ops), name)


@settings(max_examples=2000, **SETTINGS)
@given(st.lists(st.sampled_from(GLYPHS + ["Kill", "Immediate", "Night", "On", "Death", "Learn", "@Self",
                                          "`a`", "[Temporal: Day 2+]", "Role", "Change", "to", "is", "not",
                                          "\n  • ", "\n    ‣ ", "\n", "(SD, WD)", "(~Phase)", "Choice"]),
                max_size=40))
def test_random_wwrf_text(parts: list[str]) -> None:
    body = "".join(parts)
    check("**Noise** | Townsfolk Power\n__Formalized__\n" + body)
    check(body)


@pytest.mark.parametrize("header", ["**Fuzz*For Each * **| Townsfolk Power", "**Star * ** | Townsfolk Power",
                                    "**a * **", "***Lead** | Townsfolk Power"])
def test_a_header_name_with_a_star_at_an_end_keeps_its_canonical_form(header: str) -> None:
    """tools/fuzz (wwrf target): "**Name * **" names "Name *", whose canonical form was "**Name ***",
    read back as "Name"."""
    el, diags = parse_text(header + "\n`t`\n", "role.wwrf")
    assert el.header.name.endswith("*") or el.header.name.startswith("*")
    check(header + "\n`t`\n")
