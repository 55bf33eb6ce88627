"""The host ships inside an OCTGN package and runs under IronPython 2.7: the 2.7/3 subset, ASCII,
imports of the engine, the games and itself only; the manifest is plain data and the glue defines
every function it names.  The stand-in of OCTGN is in the same subset (its game runs under 2.7)."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from octgn_pack.host import glue, manifest
from rulescript.games.cfc import table as cfc_table
from tests.conftest import ROOT
from tests.runtime.test_purity import _bad_imports

HOST = ROOT / "octgn_pack" / "host"
STANDIN = ROOT / "tests" / "octgn_standin"
HOST_FILES = sorted(HOST.rglob("*.py"))


def test_vermin_targets_2_7_and_3_0():
    exe = shutil.which("vermin") or str(Path(sys.executable).with_name("vermin"))
    proc = subprocess.run([exe, "-q", "-t=2.7-", "-t=3.0-", "--violations", str(HOST), str(STANDIN)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("path", HOST_FILES, ids=lambda p: str(p.relative_to(HOST)))
def test_host_module_imports_the_engine_the_games_and_itself_only(path):
    tree = ast.parse(path.read_text(encoding="ascii"), str(path))   # ASCII, or this raises
    own = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and
           n.module.startswith("octgn_pack.host") and n.level == 0]
    bad = [m for m in _bad_imports(tree) if not m.startswith("octgn_pack.host")]
    assert bad == [] and (own == [] or path.parent.name == "scripts")


@pytest.mark.parametrize("path", [p for p in HOST_FILES if p.parent == HOST],
                         ids=lambda p: p.name)
def test_host_module_has_future_imports(path):
    tree = ast.parse(path.read_text(encoding="ascii"))
    futures = {a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"
               for a in n.names}
    assert {"absolute_import", "division", "print_function"} <= futures


def test_no_script_text_that_octgn_rewrites():
    for path in HOST_FILES:
        for line in path.read_text().splitlines():
            assert "ShowDialog()" not in line or "#" in line, path


def test_the_manifest_is_plain_data():
    tree = ast.parse((HOST / "manifest.py").read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names[node.targets[0].id] = ast.literal_eval(node.value)
        else:
            assert isinstance(node, (ast.Expr, ast.ImportFrom)), ast.dump(node)
    assert names["EVENTS"] == manifest.EVENTS and names["CARD_ACTION"] == manifest.CARD_ACTION


def test_the_glue_defines_every_function_the_manifest_names():
    ns = {"GAME": {"profile": "cfc"}}
    glue.install(ns)
    want = [f for _, f in manifest.EVENTS] + list(manifest.REMOTE_FUNCTIONS)
    for item in manifest.HOST_GAME_ACTIONS:
        want += [item["execute"]] + ([item["showIf"]] if item["showIf"] else [])
    for template, actions in ((manifest.CARD_ACTION, cfc_table.CARD_ACTIONS),
                              (manifest.GAME_ACTION, cfc_table.GAME_ACTIONS)):
        for a in actions:
            want += [glue.function_name(template[k], a["do"]) for k in ("execute", "showIf") if template[k]]
    missing = [f for f in want if not callable(ns.get(f))]
    assert missing == [] and "_rs_host" not in ns          # no host (and no API call) at script load
    assert glue.function_name("rs_do_{do}", "main_action") == "rs_do_main_action"
    with pytest.raises(ValueError):
        glue.function_name("rs_do_{do}", "main-action")
