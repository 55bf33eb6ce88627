"""The benchmark's corpus generator: big enough, varied, and free of errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from wwrf_adapter import load_project

BENCH = Path(__file__).resolve().parents[2] / "tools" / "bench" / "wwrf.py"


def _bench_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_wwrf", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.timeout(300)  # about 10 s on a loaded two-core machine
def test_generated_corpus_size_and_cleanliness(tmp_path: Path) -> None:
    files, lines = _bench_module().generate(tmp_path, copies=18)
    assert files >= 300 and lines >= 1300
    project = load_project(tmp_path)
    assert len(project.elements) == files
    assert [d.render() for d in project.diagnostics if d.is_error] == []
    names = {el.name for el in project.elements.values()}
    assert "Seer 17" in names and "Witch 5" in names
