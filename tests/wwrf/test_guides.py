"""Every formal line of the two guides parses (fixture written by ``extract_guide_lines.py``).

Templates were instantiated with fixed samples; rows the extractor could not instantiate are listed
in ``EXCLUDED`` with the reason, so that nothing is dropped silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import GUIDE_LINES, SHARED
from wwrf_adapter import parse_line

EXCLUDED: dict[str, str] = {
    "Temporal: {Phase}": "syntax column with a {Phase} placeholder; the row's Example column "
                         "('Temporal: Day 0') is tested instead",
    "Temporal: {Phase}+": "syntax column with a {Phase} placeholder; the row's Example column "
                          "('Temporal: Night 2+') is tested instead",
    "<Trigger Type>:": "schematic complex-action block of the older guide (placeholder trigger and "
                       "'[<Condition> | Otherwise]: [...]' bullets); the concrete Process/Evaluate "
                       "shapes are exercised by the examples and tests/wwrf/test_structure.py",
    "<Trigger Type>: [<Action Restriction>] {<Action Compulsion>} ⟨<Action Scaling>⟩":
        "schematic 'No Process Format' header of the older guide: every group is a placeholder",
    "For Each <Target>:": "schematic header; For Each is exercised by the firestarter example",
}


def _rows() -> list[tuple[str, str, str, str]]:
    if not GUIDE_LINES.exists():
        return []
    rows = []
    for line in GUIDE_LINES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        guide, no, start, text, _original = line.split("\t")
        rows.append((f"{guide}:{no}", start, text.replace("\u200b", ""), _original))
    return rows


ROWS = _rows()
PARSED = [r for r in ROWS if r[1] != "unresolved"]
UNRESOLVED = [r for r in ROWS if r[1] == "unresolved"]


def _parse(start: str, text: str):  # type: ignore[no-untyped-def]
    if start == "duration":
        return parse_line(f"Obstruct @Target ({text})", "ability")
    if start == "prompt":
        return parse_line(f"Immediate: Untarget {text}", "line")
    return parse_line(text, start)


def test_fixture_is_substantial() -> None:
    if not GUIDE_LINES.exists():
        pytest.skip("guide_lines.tsv missing")
    assert len(PARSED) >= 350
    starts = {r[1] for r in PARSED}
    assert {"ability", "trigger", "condition", "value", "restrictions", "scaling", "other", "prompt", "duration"} <= starts
    guides = {r[0].split(":")[0] for r in PARSED}
    assert guides == {"newer", "older"}


@pytest.mark.parametrize("where,start,text,original", PARSED, ids=[f"{r[0]}:{r[1]}:{r[2][:50]}" for r in PARSED])
def test_guide_line_parses(where: str, start: str, text: str, original: str) -> None:
    node, diags = _parse(start, text)
    errors = [d.render(text) for d in diags if d.is_error]
    assert errors == [], f"{where} ({original!r})"
    assert node is not None


@pytest.mark.parametrize("where,start,text,original", UNRESOLVED, ids=[f"{r[0]}:{r[2][:50]}" for r in UNRESOLVED])
def test_unresolved_guide_line_is_listed_with_reason(where: str, start: str, text: str, original: str) -> None:
    assert text in EXCLUDED, f"{where}: template {text!r} was not instantiated and has no stated reason"


def test_fixture_is_current() -> None:
    """The fixture matches what the extractor produces from the guides.

    The guides are design documents kept next to a checkout (``../shared/seeds``), not in the
    repository; this is the only WWRF test that needs them, and it skips in a lone clone."""
    if not (SHARED / "seeds").is_dir():
        pytest.skip(f"the WWRF guides are not next to this checkout ({SHARED / 'seeds'} is absent): "
                    "cannot compare guide_lines.tsv with them")
    import importlib.util

    spec = importlib.util.spec_from_file_location("extract_guide_lines", Path(__file__).with_name("extract_guide_lines.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows: list = []
    mod.newer(SHARED / "seeds" / "wwrf-formalization-guide.md", rows)
    mod.older(SHARED / "seeds" / "wwrf-formalization-guide-older.txt", rows)
    produced = {(r[2], r[3]) for r in rows}
    assert {(r[1], r[2]) for r in ROWS} == produced
