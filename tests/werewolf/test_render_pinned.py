"""The renderer's @ResultN (issue 22's mutation test): docs/werewolf.md maps ``@Result1``…``@Result7``
to ``results.0``…``results.6`` (the first result of the processed abilities is element 0), as text
and as a player (``@Result3 has `Lupine```); the rendered role compiles with the game."""
from __future__ import annotations

import shutil
from pathlib import Path

from rulescript.compiler import compile_game
from wwrf_adapter.render import render_book

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


def test_result_n_is_element_n_minus_one_as_text_and_as_a_player(tmp_path: Path) -> None:
    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    (book / "oracle").write_text(
        "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
        "Immediate Night: Learn `x @Result1->Number x` [Temporal: Night 1]\n"
        "Immediate Night: Learn `seen` [Temporal: Night 1, Condition: @Result3 has `Lupine`]\n"
        "Immediate Night: Learn `y` [Temporal: Night 1, Condition: @Result7 lacks `Lupine`]\n",
        encoding="utf-8")
    out = tmp_path / "game"
    result = render_book(book, out)
    assert [d for d in result.diagnostics if Path(d.span.file).name == "oracle"] == []
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    keys = [dict(sec.keys) for sec in oracle.sections]
    assert keys[0]["action"] == "learn('x ' + str(results.0) + ' x')"
    assert keys[1]["condition"] == "has(results.2, 'lupine')"
    assert keys[2]["condition"] == "not has(results.6, 'lupine')"
    for name in ("game.yaml", "cards.yaml"):
        if not (out / name).exists():
            shutil.copy(GAME / name, out / name)
    compiled = compile_game(out, cache=None)
    assert [d.code for d in compiled.diagnostics if d.is_error] == []
