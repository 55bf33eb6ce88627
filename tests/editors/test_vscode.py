"""The VS Code extension (editors/vscode): its TextMate grammars pass their tests
(vscode-tmgrammar-test on the sample files of test/grammar/), a wrong expectation fails them, and the
extension packages into a .vsix with @vscode/vsce.  The npm packages come from ``npm ci`` in
editors/vscode (.ci/run does it)."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "editors" / "vscode"
BIN = EXT / "node_modules" / ".bin"


def _tool(name: str) -> Path:
    tool = BIN / name
    if not tool.exists():
        pytest.fail(f"{tool} is missing: run 'npm ci' in editors/vscode (.ci/run does)")
    return tool


def _run(*args: str | Path, cwd: Path = EXT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_grammars_pass_their_sample_files():
    out = _run(_tool("vscode-tmgrammar-test"), "test/grammar/*.test.*")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("run successfuly") == 2


def test_a_wrong_expectation_fails_the_grammar_tests(tmp_path: Path):
    wrong = (EXT / "test" / "grammar" / "rules.test.ini").read_text(encoding="utf-8").replace(
        "#^^^^^^^^^^^^^^ entity.name.section.rulescript", "#^^^^^^^^^^^^^^ variable.other.key.rulescript")
    (tmp_path / "wrong.test.ini").write_text(wrong, encoding="utf-8")
    out = _run(_tool("vscode-tmgrammar-test"), "--config", EXT / "package.json", tmp_path / "wrong.test.ini")
    assert out.returncode != 0
    assert "missing required scopes: variable.other.key.rulescript" in out.stdout


def test_the_extension_packages_into_a_vsix(tmp_path: Path):
    target = tmp_path / "rulescript.vsix"
    out = _run(_tool("vsce"), "package", "--skip-license", "-o", target)
    assert out.returncode == 0, out.stdout + out.stderr
    with zipfile.ZipFile(target) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
    assert {"extension/extension.js", "extension/syntaxes/rulescript.tmLanguage.json",
            "extension/syntaxes/wwrf.tmLanguage.json",
            "extension/node_modules/vscode-languageclient/package.json"} <= names
    assert not any(n.startswith("extension/test/") for n in names)
    assert manifest["contributes"]["configuration"]["properties"]["rulescript.server.command"]["default"] == \
        ["rulescript", "lsp"]
    assert not list(EXT.glob("*.vsix"))  # nothing built inside the checkout
    assert shutil.which("node") is not None
