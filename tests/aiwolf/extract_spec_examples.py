"""Writes ``spec_examples.txt``: the example sentences of the AIWolf protocol 3.6 text, one a line.

The text is a design document kept next to a checkout, not in the repository; the tests read only the
fixture. ``tools/dev/check_fixtures.py`` checks that the fixture is current (and rewrites it).
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE = "aiwolf-protocol-3.6.md"
_QUOTED = re.compile(r"“([^”\n]*)”?")
_STARTS_FORMAL = re.compile(r"^(?:Agent\d+ )?([A-Z]+)\b(?!,)")


def fixture_text(seeds: Path) -> str:
    """The formal sentences of the 3.6 text: the quoted ones and the unquoted OR (...) equivalence."""
    from wwrf_adapter.aiwolf.parser import KEYWORDS

    found: list[str] = []
    for line in (seeds / SOURCE).read_text(encoding="utf-8").splitlines():
        candidates = _QUOTED.findall(line)
        if line.startswith("OR ("):
            candidates.append(line)
        for text in candidates:
            m = _STARTS_FORMAL.match(text.strip())
            if m and m.group(1) in KEYWORDS and text.strip() not in found:
                found.append(text.strip())
    return (f"# the example sentences of {SOURCE}, one a line (written by tools/dev/check_fixtures.py; "
            "do not edit)\n" + "\n".join(found) + "\n")
