"""The suite's per-test timeout (pyproject.toml, pytest-timeout): a test that never ends fails with a
timeout, and the run goes on with the next test instead of hanging CI."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_has_a_default_timeout() -> None:
    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert 30 <= int(opts["timeout"]) <= 300
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert any(d.startswith("pytest-timeout") for d in dev)


def test_a_hanging_test_fails_and_the_next_one_runs(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(
        "def test_spins():\n    while True:\n        pass\n\n\n"
        "def test_after():\n    assert sum([1, 1]) == 2\n")
    # the project's configuration, with the limit lowered so that this test stays short
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
                           str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-o", "timeout=2",
                           str(tmp_path / "test_hang.py")],
                          capture_output=True, text=True, timeout=90, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert "Timeout (>2.0s)" in proc.stdout
    assert "1 failed, 1 passed" in proc.stdout


def _marks(decorators: list) -> set[str]:
    import ast

    out = set()
    for d in decorators:
        node = d.func if isinstance(d, ast.Call) else d
        if isinstance(node, ast.Attribute) and "mark" in ast.unparse(node):
            out.add(node.attr)
    return out


def test_every_slow_or_fuzz_test_has_a_larger_timeout_of_its_own() -> None:
    """The long tests (markers ``slow``, ``fuzz``) carry an explicit ``@pytest.mark.timeout`` (on the
    test or in the module's ``pytestmark``) larger than the default."""
    import ast

    missing = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
                values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
                module |= _marks(values)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                marks = _marks(node.decorator_list) | module
                if marks & {"slow", "fuzz"} and "timeout" not in marks:
                    missing.append(f"{path.relative_to(ROOT)}::{node.name}")
    assert missing == []
