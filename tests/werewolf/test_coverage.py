"""Every WWRF construct of the spec and the guides (the list in ``guide_constructs.py``) is rendered by
``wwrf render`` and exercised by a scenario that really resolved the rule section it was rendered into
(a section whose guard failed does not count); the reserved triggers are rendered as listeners that a
scenario loads and no game fires; what is not rendered gets a located "not supported" diagnostic.  The
list itself is checked against every name the WWRF front end knows."""
from __future__ import annotations

import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from rulescript.sim.scenario import run_file, scenario_files
from wwrf_adapter import vocab
from wwrf_adapter.lines import OTHER_KEYWORDS, RESTRICTION_KEYWORDS
from wwrf_adapter.render import render_book

from .guide_constructs import CONSTRUCTS, RESERVED, SCENARIO

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
#: the categories of constructs the renderer records (see docs/werewolf.md)
CATEGORIES = ("trigger", "ability", "restriction", "scaling", "parameter", "condition", "selector", "structure",
              "duration", "trigger filter", "key line", "value")
RENDERED = [c for c in CONSTRUCTS if c[3] in (SCENARIO, RESERVED)]
#: the rows rendered in a probe role (key lines belong to teams and polls: the book's are checked)
PROBED = [i for i, c in enumerate(CONSTRUCTS) if c[0] != "key line"]
NOT_RENDERED = [c for c in CONSTRUCTS if c[3] not in (SCENARIO, RESERVED)]


@lru_cache(maxsize=1)
def _scenarios() -> tuple[frozenset, frozenset]:
    """(rules resolved, rules loaded) by the passing scenarios of the game."""
    done, loaded = set(), set()
    for f in scenario_files(GAME):
        for r in run_file(f):
            if r.status == "pass":
                done |= r.ran
                loaded |= r.loaded
    return frozenset(done), frozenset(loaded)


def constructs_by_section() -> dict:
    result = render_book(GAME / "roles", GAME, write=False)
    out: dict = {}
    for el in result.elements:
        for sec in el.sections:
            for cat, name in sec.constructs:
                out.setdefault((cat, name), set()).add(sec.id)
    return out


@lru_cache(maxsize=1)
def _probe() -> tuple[dict, dict]:
    """Every sample of the list rendered in one role file beside the book: {row index: [diagnostics]} and
    {row index: {(category, name) recorded by its section}}."""
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="wwrf-probe-"))
    try:
        book = tmp / "book"
        shutil.copytree(GAME / "roles", book)
        text = ["**Prober** | Townsfolk Power - Villagers Team", "__Formalized__"]
        first_line = {}
        for i in PROBED:
            first_line[len(text) + 1] = i
            text.extend(CONSTRUCTS[i][2].split("\n"))
        (book / "prober").write_text("\n".join(text) + "\n", encoding="utf-8")
        result = render_book(book, tmp / "game", write=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    diags: dict = {}
    for d in result.diagnostics:  # (the samples name elements the book lacks: the book check's WW92x are not the renderer's)
        if Path(d.span.file).name == "prober" and not d.code.startswith("WW92"):
            row = max(n for n in first_line if n <= d.span.line)
            diags.setdefault(first_line[row], []).append(d)
    recorded: dict = {}
    for el in result.elements:
        for sec in el.sections:
            m = re.match(r"prober:(\d+)\s", sec.comments[0]) if sec.comments else None
            if m and int(m.group(1)) in first_line:
                recorded[first_line[int(m.group(1))]] = set(sec.constructs)
    return diags, recorded


def _row_id(row) -> str:
    return f"{row[0] or 'not rendered'}:{row[1] or row[2][:40]}"


@pytest.mark.parametrize("index", PROBED, ids=[_row_id(CONSTRUCTS[i]) for i in PROBED])
def test_each_sample_renders_as_the_list_says(index):
    cat, name, sample, how = CONSTRUCTS[index]
    diags, recorded = _probe()
    mine = [d.render() for d in diags.get(index, [])]
    if how in (SCENARIO, RESERVED):
        assert not mine, f"{sample!r} should render: {mine}"
        assert (cat, name) in recorded.get(index, set()), f"{sample!r} did not record {cat}: {name}"
    else:
        assert how.strip(), "a construct that is not rendered needs its reason"
        assert mine and all("error[WW401]" in m for m in mine), f"{sample!r} should be reported as not supported"


def test_every_rendered_construct_of_the_list_is_in_the_book_and_resolved_by_a_scenario():
    done, loaded = _scenarios()
    book = constructs_by_section()
    missing, never = [], []
    for cat, name, _sample, how in RENDERED:
        secs = book.get((cat, name), set())
        if how == SCENARIO and not secs & done:
            missing.append(f"{cat}: {name} (in {', '.join(sorted(secs)) or 'no role of the book'})")
        if how == RESERVED and not (secs and secs <= loaded and not secs & done):
            never.append(f"{cat}: {name} (sections {sorted(secs)}: loaded {sorted(secs & loaded)}, "
                         f"resolved {sorted(secs & done)})")
    assert not missing, "constructs no passing scenario resolved:\n" + "\n".join(missing)
    assert not never, "reserved triggers must be loaded by a scenario and never fire:\n" + "\n".join(never)


def test_every_construct_of_the_book_is_resolved_by_a_scenario():
    done, _loaded = _scenarios()
    reserved = {(c[0], c[1]) for c in RENDERED if c[3] == RESERVED}
    missing = sorted(f"{cat}: {name} (in {', '.join(sorted(secs))})"
                     for (cat, name), secs in constructs_by_section().items()
                     if (cat, name) not in reserved and not secs & done)
    assert not missing, "constructs no passing scenario resolved:\n" + "\n".join(missing)


def test_the_book_uses_every_category_of_construct():
    cats = {cat for cat, _ in constructs_by_section()}
    assert set(CATEGORIES) <= cats, set(CATEGORIES) - cats


def _samples() -> str:
    return "\n".join(c[2] for c in CONSTRUCTS)


def test_the_list_names_every_trigger_of_the_front_end():
    names = {c[1] for c in CONSTRUCTS if c[0] == "trigger"}
    missing = [t for t in vocab.TRIGGERS if t not in names and not re.search(rf"(?m)^{re.escape(t)}\b", _samples())]
    assert not missing, missing


@pytest.mark.parametrize("kind,names,pattern", [
    ("selector", vocab.BASIC_SELECTORS, r"@{}(?![A-Za-z])"),
    ("selector key", vocab.PLAYER_KEYS, r"[(,]{}:"),
    ("property", vocab.PROPERTIES, r"->{}(?![a-z])"),
    ("duration", vocab.DURATIONS, r"~{}\)"),
    ("variable", vocab.VARIABLES, r"\${}(?![a-z])"),
    ("restriction", RESTRICTION_KEYWORDS, r"\[(?:[^]]*, )?{}:"),
    ("other parameter", OTHER_KEYWORDS, r"\{{{}[}}:]"),
    ("ability", vocab.ABILITY_WORDS, r"(?<![A-Za-z]){}(?![a-z])"),
], ids=lambda v: v if isinstance(v, str) and not v.startswith(("@", "[", "-", "~", "\\", "(")) else None)
def test_the_list_has_a_sample_of_every_name_of_the_front_end(kind, names, pattern):
    text = _samples()
    missing = [n for n in names if not re.search(pattern.format(re.escape(n)), text, re.I if kind == "variable" else 0)]
    assert not missing, f"{kind}s without a sample in guide_constructs.py: {missing}"


def test_what_is_not_rendered_is_stated_in_the_documentation():
    """docs/werewolf.md lists every construct of the list that is not rendered, with the same reason."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "werewolf.md").read_text(encoding="utf-8")
    assert "### Not rendered" in doc, "docs/werewolf.md needs its 'Not rendered' section"
    section = doc.split("### Not rendered", 1)[1].split("\n## ", 1)[0]
    absent = [f"{c[2]!r}: {c[3]}" for c in NOT_RENDERED if f"`` {c[2].split(': ', 1)[1]} `` | {c[3]} |" not in section]
    assert not absent, "not in the 'Not rendered' table of docs/werewolf.md:\n" + "\n".join(absent)
