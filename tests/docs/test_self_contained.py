"""The project documents itself: nothing outside tests/ refers to documents outside the repository,
and every link between the project's Markdown pages leads somewhere."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

# The design documents that sit next to the checkout during development, and their folder.  Users get
# the repository only, so nothing outside tests/ may send them there.
OUTSIDE = re.compile(r"\.\./shared|\bshared/|(?<!docs/)(?<![\w/-])(?:rulescript|cfc-game|octgn|aiwolf|wwrf)\.md\b"
                     r"|ARCHITECTURE\.md"
                     r"|rulescript-partial|wwrf-formalization-guide|aiwolf-protocol|mafia-engine-abilities")
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".rulescript-cache", "build", "dist"}


def repository_files() -> list[str]:
    """Every file of the checkout that git tracks or would track (relative, '/'-separated)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        files = [f for f in out.splitlines() if f and (ROOT / f).is_file()]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
            if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)
            and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]


def test_nothing_outside_tests_refers_to_documents_outside_the_repository() -> None:
    files = repository_files()
    assert "README.md" in files and "docs/language.md" in files
    found = []
    for rel in files:
        if rel.startswith("tests/"):
            continue
        try:
            text = (ROOT / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "references to documents outside the repository:\n" + "\n".join(found)


def test_the_pattern_finds_outside_references() -> None:
    for line in ("see ../shared/spec/rulescript.md", "(`shared/spec/cfc-game.md`)", "rulescript.md 5.5",
                 "cfc-game.md section 7", "ARCHITECTURE.md", "from shared/examples/wwrf"):
        assert OUTSIDE.search(line), line
    for line in ("docs/language.md §5.8", "docs/cfc-rules.md section 7", "a shared prefix", "docs/wwrf-ast.md",
                 "described in docs/aiwolf.md.", "``docs/octgn.md`` lists them", "`docs/aiwolf.md`"):
        assert not OUTSIDE.search(line), line


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "rulescript" / "games").rglob("*.md"),
                ROOT / "cards" / "cfc-demo" / "COVERAGE.md", ROOT / "tools" / "bench" / "README.md"])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_between_pages_resolve(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a URL
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(f"{target}: no heading with that anchor in {dest.name}")
    assert not bad, f"{page.relative_to(ROOT)}: " + "; ".join(bad)


def test_slugs_follow_github() -> None:
    assert _slug("5.9 Restrictions") == "59-restrictions"
    assert _slug("5. Playing cards and costs") == "5-playing-cards-and-costs"
    assert _slug("5.10 `each`") == "510-each"
    assert _slug("7. Attacks, blocks and combat") == "7-attacks-blocks-and-combat"
