"""Surviving mutants that cannot change what the program does, each with why (key -> reason).

A key is ``Mutant.key`` (printed by ``run.py`` under each survivor): the file, the line's text, the
column and the change.  Add one only after reading the code: a mutant that *could* change behaviour
but no test notices is a missing test, not an equivalent mutant.
"""
from __future__ import annotations

EQUIVALENT: dict[str, str] = {
}
