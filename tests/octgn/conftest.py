"""Helpers for the package builder's tests: small game folders written on the fly, the demo's
package built once per session, and a real Python 2.7 when the machine has one."""

from __future__ import annotations

import io
import textwrap
import zipfile
from pathlib import Path

import pytest

from octgn_pack.build import build
from octgn_pack.py27 import find_python27
from tests.conftest import DEMO

GAME_YAML = """\
profile: cfc
id: 11111111-2222-3333-4444-555555555555
name: "Tiny Game"
version: "1.2"
"""

CARDS_YAML = """\
cards:
  - id: ember-monk
    name: "Ember Monk"
    type: character
    subtype: ninja
    bp: 300
    sp: 1
    text: "Deals damage."
  - id: quick-tea
    name: "Quick Tea"
    type: action
    sp: 0
"""

DECK_YAML = """\
name: "Starter"
cards:
  ember-monk: 3
  quick-tea: 2
"""

RULES_INI = """\
[ember-monk]
action = {F}: damage(100) to(character@oppRing)
"""


def write_game(root: Path, game: str = GAME_YAML, cards: str = CARDS_YAML, decks: dict[str, str] | None = None,
               rules: str | None = RULES_INI, scripts: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(textwrap.dedent(game), encoding="utf-8")
    (root / "cards.yaml").write_text(textwrap.dedent(cards), encoding="utf-8")
    (root / "decks").mkdir(exist_ok=True)
    for name, text in (decks if decks is not None else {"starter": DECK_YAML}).items():
        (root / "decks" / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    if rules is not None:
        (root / "rules").mkdir(exist_ok=True)
        (root / "rules" / "cards.ini").write_text(rules, encoding="utf-8")
    for name, text in (scripts or {}).items():
        (root / "scripts").mkdir(exist_ok=True)
        (root / "scripts" / name).write_text(text, encoding="utf-8")
    return root


def entries(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory: pytest.TempPathFactory):
    dist = tmp_path_factory.mktemp("dist")
    b = build(DEMO, dist)
    assert b.ok, b.render()
    return b, dist


@pytest.fixture
def python27() -> str:
    exe = find_python27()
    if exe is None:
        pytest.skip("no Python 2.7 on this machine (python2.7 on PATH or $PYTHON27)")
    return exe


def run_py27(python27: str, folder: Path, code: str) -> str:
    """Run ``code`` under Python 2.7 with ``folder`` on ``sys.path``; the code answers with
    ``out(text)`` (unicode, written as UTF-8 so non-ASCII text comes back exactly).  Returns the answer."""
    import subprocess

    answer = folder / "_py27_answer.txt"
    prelude = ("import sys, io\nsys.path.insert(0, sys.argv[1])\n"
               "def out(text):\n    io.open(sys.argv[2], 'w', encoding='utf-8').write(u'%s' % (text,))\n")
    proc = subprocess.run([python27, "-c", prelude + code, str(folder), str(answer)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return answer.read_text(encoding="utf-8")
