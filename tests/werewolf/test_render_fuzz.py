"""The renderer never crashes and never drops a line silently: mutated element files either render (each
trigger line as a section) or give located diagnostics (parse errors or WW401)."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.wwrf.test_fuzz import GLYPHS, mutate
from wwrf_adapter.render import render_book

BOOK = Path(__file__).resolve().parents[2] / "cards" / "werewolf" / "roles"
FILES = sorted(p for p in BOOK.iterdir() if p.is_file() and "." not in p.name)
SETTINGS = dict(deadline=None, database=None, derandomize=True, max_examples=150,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
_op = st.tuples(st.sampled_from(["delete", "insert", "swap", "duplicate", "cut"]),
                st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from(GLYPHS))


@settings(**SETTINGS)
@given(st.sampled_from(FILES), st.lists(_op, min_size=1, max_size=4))
def test_mutated_files_render_or_report(tmp_path_factory, path, ops):
    book = tmp_path_factory.mktemp("book")
    for p in FILES:  # the rest of the book gives the context (names, the ability set)
        (book / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    (book / path.name).write_text(mutate(path.read_text(encoding="utf-8"), ops), encoding="utf-8")
    result = render_book(book, None, write=False)
    for d in result.diagnostics:
        assert d.span.line >= 1 and d.span.col >= 1
    if not any(d.is_error for d in result.diagnostics):
        # every trigger line became a section: nothing dropped
        for r in result.elements:
            items = [i for i in r.element.items if type(i).__name__ == "TriggerBlock"]
            assert len(r.sections) >= len(items)
