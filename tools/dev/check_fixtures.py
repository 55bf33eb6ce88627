"""Developer check: the test fixtures extracted from design documents are current.

Two fixtures of the test suite are extracted from design documents that are kept next to a checkout
(in the ``seeds`` folder of the project's shared folder) and not shipped with the repository; the
tests read only the fixtures, so the suite runs the same in a lone clone. When the documents change,
run this check; ``--write`` rewrites the fixtures:

* ``tests/wwrf/guide_lines.tsv``: every formal line of the two WWRF guides, extracted by
  ``tests/wwrf/extract_guide_lines.py``;
* ``tests/aiwolf/spec_examples.txt``: every example sentence of the AIWolf protocol 3.6 text,
  extracted by ``tests/aiwolf/extract_spec_examples.py``.

    python tools/dev/check_fixtures.py --seeds DIR [--write]

Exit status: 0 the fixtures are current (or were written), 1 a fixture is stale, 2 the documents are
not there.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
EXTRACTORS = ((ROOT / "tests" / "wwrf" / "guide_lines.tsv", ROOT / "tests" / "wwrf" / "extract_guide_lines.py"),
              (ROOT / "tests" / "aiwolf" / "spec_examples.txt", ROOT / "tests" / "aiwolf" / "extract_spec_examples.py"))


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=Path, required=True, metavar="DIR",
                    help="the folder of the design documents (the WWRF guides and the AIWolf protocol text)")
    ap.add_argument("--write", action="store_true", help="rewrite the fixtures from the documents")
    args = ap.parse_args(argv)
    if not args.seeds.is_dir():
        print(f"check_fixtures: {args.seeds} is not there: nothing to compare with", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    stale = 0
    for fixture, extractor in EXTRACTORS:
        text = _module(extractor).fixture_text(args.seeds)
        current = fixture.read_text(encoding="utf-8") if fixture.exists() else ""
        name = fixture.relative_to(ROOT)
        if current == text:
            print(f"ok: {name} is current")
        elif args.write:
            fixture.write_text(text, encoding="utf-8")
            print(f"wrote {name}")
        else:
            stale += 1
            print(f"STALE: {name} differs from the documents (run with --write)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
