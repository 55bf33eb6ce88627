"""The render benchmark's generated book is a valid 300-file book that renders with no diagnostic."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from wwrf_adapter.render import render_book

BENCH = Path(__file__).resolve().parents[2] / "tools" / "bench" / "render.py"


def test_generated_book_renders_clean(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_render", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    assert mod.make_book(tmp_path / "book", 300) == 300
    result = render_book(tmp_path / "book", None, write=False)
    assert not result.diagnostics
    assert len(result.elements) == 299  # the ability set renders into the roles that inherit it
