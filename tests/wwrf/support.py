"""Paths shared by the WWRF tests (kept out of conftest.py so test modules can import them)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "examples" / "wwrf"
GUIDE_LINES = Path(__file__).resolve().parent / "guide_lines.tsv"


def example_files() -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return sorted(p for p in EXAMPLES.iterdir() if p.is_file() and not p.suffix)


needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason=f"shared examples not found at {EXAMPLES}")
