"""The benchmarks' verdicts and exit status, shared by every script of tools/bench.

A verdict is ``True`` (the target is met: PASS), ``False`` (missed: FAIL) or ``None`` (not measured
here, e.g. no python2.7: n/a).  Every printed FAIL makes the exit status 1, with or without
``--check``; ``--check`` is the strict mode for CI: a target that could not be measured fails too.
"""
from __future__ import annotations

from typing import Iterable, Optional

MARKS = {True: "PASS", False: "FAIL", None: "n/a"}


def mark(ok: Optional[bool]) -> str:
    """The word a benchmark prints for a verdict."""
    return MARKS[ok]


def exit_status(verdicts: Iterable[Optional[bool]], check: bool = False) -> int:
    """1 if a verdict is FAIL, or (under ``--check``) n/a; else 0."""
    verdicts = list(verdicts)
    if any(v is False for v in verdicts):
        return 1
    return 1 if check and any(v is None for v in verdicts) else 0
