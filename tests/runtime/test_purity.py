"""The runtime and the games must run under IronPython 2.7: the 2.7/3 subset, and no imports outside
the engine (``rulescript.runtime``) and the games (``rulescript.games``).  These are the files an OCTGN
package ships, with the top-level ``rulescript/__init__.py`` that makes them one package."""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "rulescript"
RUNTIME = PACKAGE / "runtime"
GAMES = PACKAGE / "games"
ALLOWED = ("rulescript.runtime", "rulescript.games")
# standard modules allowed although OCTGN ships no standard library (none so far)
BUILTIN_MODULES = ()


def _engine_modules():
    return sorted(RUNTIME.rglob("*.py")) + sorted(GAMES.rglob("*.py"))


def _modules():
    """The engine modules plus the package's ``__init__`` (which imports the compiler only lazily, in
    the functions a CPython caller uses)."""
    return _engine_modules() + [PACKAGE / "__init__.py"]


def test_vermin_targets_2_7_and_3_0():
    exe = shutil.which("vermin")
    cmd = [exe] if exe else [sys.executable, "-m", "vermin"]
    proc = subprocess.run(cmd + ["-q", "-t=2.7-", "-t=3.0-", "--violations", str(RUNTIME), str(GAMES),
                                 str(PACKAGE / "__init__.py")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _bad_imports(tree):
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith(ALLOWED) and alias.name not in BUILTIN_MODULES:
                    bad.append(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level and node.level > 0:
                continue
            mod = node.module or ""
            if mod != "__future__" and mod not in BUILTIN_MODULES and not (
                    mod in ALLOWED or mod.startswith(tuple(a + "." for a in ALLOWED))):
                bad.append(mod)
    return bad


@pytest.mark.parametrize("path", _engine_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_runtime_module_imports_only_itself(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    assert _bad_imports(tree) == []


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_runtime_module_has_future_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    futures = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            futures.update(a.name for a in node.names)
    assert {"absolute_import", "division", "print_function"} <= futures


def test_import_checker_catches_stdlib_imports():
    tree = ast.parse("import random\nfrom json import dumps\nfrom . import plain\n"
                     "from __future__ import division\nimport rulescript.runtime.rng\n")
    assert _bad_imports(tree) == ["random", "json"]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_runtime_module_is_ascii(path):
    """Python 2.7 rejects non-ASCII source without an encoding declaration."""
    data = path.read_bytes()
    bad = [i for i, ch in enumerate(data) if ch > 127]
    assert not bad, "non-ASCII byte at offset %d" % bad[0]
