"""The rulescript CLI (check, compile) and the compile cache."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulescript.cli import main
from rulescript.compiler import CompileCache, compile_game, compile_text
from tests.conftest import DEMO

BAD = "[a]\naction = damge(1)\n"


def test_check_demo_game_exits_zero(capsys) -> None:
    assert main(["check", str(DEMO)]) == 0
    assert "0 errors" in capsys.readouterr().err


def test_check_reports_located_errors_and_exits_one(tmp_path, capsys) -> None:
    f = tmp_path / "bad.ini"
    f.write_text(BAD)
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert f"{f}:2:10: error[RS201]: unknown command 'damge'" in out
    assert "          ^~~~~" in out and "did you mean: damage" in out


def test_check_json_format(tmp_path, capsys) -> None:
    f = tmp_path / "bad.ini"
    f.write_text(BAD)
    assert main(["check", "--format", "json", str(f)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data[0]["code"] == "RS201" and data[0]["line"] == 2 and data[0]["column"] == 10


def test_check_warnings_flag(tmp_path, capsys) -> None:
    f = tmp_path / "w.ini"
    f.write_text("[a]\nabilities = rush\nabilities = pierce\n")
    assert main(["check", "--no-warnings", str(f)]) == 0
    captured = capsys.readouterr()
    assert "RS901" not in captured.out and "1 warning (hidden by --no-warnings)" in captured.err
    assert main(["check", str(f)]) == 0  # warnings are shown by default, as by wwrf check
    assert "warning[RS901]" in capsys.readouterr().out
    assert main(["check", "-W", str(f)]) == 0
    assert "warning[RS901]" in capsys.readouterr().out


def test_usage_errors_exit_two(tmp_path, capsys) -> None:
    assert main(["check", str(tmp_path / "missing.ini")]) == 2
    assert main(["check"]) == 2
    assert main([]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["--help"]) == 0


def test_compile_json_and_py_literal(tmp_path) -> None:
    out_json = tmp_path / "ir.json"
    out_py = tmp_path / "ir.py"
    assert main(["compile", str(DEMO), "-o", str(out_json)]) == 0
    assert main(["compile", str(DEMO), "-o", str(out_py), "--format", "py"]) == 0
    doc = json.loads(out_json.read_text())
    assert doc["format"] == "rulescript-ir" and doc["version"] == 1 and doc["profile"] == "cfc"
    ns: dict = {}
    exec(compile(out_py.read_text(), str(out_py), "exec"), ns)  # noqa: S102 - our own generated literal
    assert ns["IR"] == doc


def test_compile_writes_nothing_on_errors(tmp_path) -> None:
    f = tmp_path / "bad.ini"
    f.write_text(BAD)
    out = tmp_path / "ir.json"
    out.write_text("previous good output")
    assert main(["compile", str(f), "-o", str(out)]) == 1
    assert out.read_text() == "previous good output"


def test_console_script_is_installed() -> None:
    exe = shutil.which("rulescript")
    if exe is None:
        pytest.skip("the console script is not on PATH (package not installed)")
    proc = subprocess.run([exe, "check", str(DEMO)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_module_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "rulescript.cli", "check", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "diagnostic" in proc.stdout


def test_cache_returns_the_same_result_for_unchanged_text() -> None:
    cache = CompileCache()
    first = compile_text("[a]\naction = draw()\n", cache=cache)
    second = compile_text("[a]\naction = draw()\n", cache=cache)
    assert cache.misses == 1 and cache.hits == 1
    assert second.files[0].cached is False or second.rules == first.rules
    assert second.rules["a"] is first.rules["a"]
    third = compile_text("[a]\naction = draw(2)\n", cache=cache)
    assert cache.misses == 2 and third.rules["a"] is not first.rules["a"]


def test_cache_key_includes_file_name_and_cards() -> None:
    cache = CompileCache()
    compile_text("[a]\naction = draw()\n", filename="x.ini", cache=cache)
    compile_text("[a]\naction = draw()\n", filename="y.ini", cache=cache)
    compile_text("[a]\naction = draw()\n", filename="y.ini", cards=[{"id": "a", "name": "A"}], cache=cache)
    assert cache.misses == 3


def test_disk_cache_survives_a_new_cache_object(tmp_path) -> None:
    compile_text(BAD, filename="b.ini", cache=CompileCache(tmp_path))
    fresh = CompileCache(tmp_path)
    res = compile_text(BAD, filename="b.ini", cache=fresh)
    assert fresh.hits == 1 and res.files[0].cached
    assert [d.code for d in res.diagnostics] == ["RS201"]
    assert res.diagnostics[0].span.col == 10


def test_recompiling_an_unchanged_game_hits_the_cache_for_every_file() -> None:
    cache = CompileCache()
    compile_game(DEMO, cache=cache)
    misses, hits = cache.misses, cache.hits
    again = compile_game(DEMO, cache=cache)  # (its time is measured in tools/bench/compile.py, not here)
    assert cache.misses == misses and again.ok
    assert cache.hits - hits == len(again.files) == 4  # the demo game's four rule files


def test_a_long_lived_process_keeps_a_bounded_memory_of_what_it_compiled(tmp_path) -> None:
    """Issue 13 (fuzz: the game target's worker grew by 50 KB a game folder, past 800 MB): the parsed
    YAML files and card lists are remembered for the last MEMO_ENTRIES paths, compiled files for at
    most ``max_source_bytes`` of source (the process's cache: 4 MB) and ``max_entries`` files."""
    from rulescript.compiler import driver

    for i in range(driver.MEMO_ENTRIES + 5):
        game = tmp_path / f"g{i}"
        (game / "rules").mkdir(parents=True)
        (game / "game.yaml").write_text("profile: cfc\nname: G\n")
        (game / "cards.yaml").write_text("cards:\n- {id: a, name: A, type: action, sp: 0}\n")
        (game / "rules" / "a.ini").write_text(f"[a]\naction = draw({i % 3 + 1})\n")
        assert compile_game(game).ok
    assert len(driver._YAML_MEMO) <= driver.MEMO_ENTRIES and len(driver._CARDS_MEMO) <= driver.MEMO_ENTRIES
    assert str(tmp_path / "g0" / "cards.yaml") not in driver._YAML_MEMO
    assert str(game / "cards.yaml") in driver._YAML_MEMO
    assert driver.DEFAULT_CACHE.max_source_bytes == 4 * 1024 * 1024

    cache = CompileCache(max_source_bytes=200)
    texts = [f"[a]\naction = draw({n})\n" for n in range(20)]  # 21 or 22 bytes each
    for text in texts:
        compile_text(text, cache=cache)
    assert 200 - 22 < cache.source_bytes <= 200 and len(cache.memory) == 9
    compile_text(texts[-1], cache=cache)                          # the newest are kept
    assert cache.hits == 1
    compile_text(texts[0], cache=cache)                           # the oldest were forgotten
    assert cache.misses == 21 and cache.source_bytes <= 200
    small = CompileCache(max_entries=3)
    for text in texts[:5]:
        compile_text(text, cache=small)
    assert len(small.memory) == 3
    small.clear()
    assert small.memory == {} and small.source_bytes == 0
