"""Every scenario of cards/werewolf passes (each is a test item), and the runner reports failures."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulescript.sim.scenario import run_file, scenario_files

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"
FILES = scenario_files(GAME)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenarios_of_the_werewolf_game(path):
    results = run_file(path)
    assert results
    bad = [f"{r.name}: {r.failures}" for r in results if r.status == "fail"]
    assert not bad, "\n".join(bad)


def test_every_role_has_scenarios():
    """Every role of the game is dealt (or, for an extra role, granted) in some scenario."""
    import yaml

    cards = yaml.safe_load((GAME / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    roles = {c["id"] for c in cards if c["type"] == "role"}
    text = "\n".join(f.read_text(encoding="utf-8") for f in FILES)
    named = set()
    for f in FILES:
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        named.update(data.get("roles", []))
        for sc in data.get("scenarios", []):
            named.update(sc.get("roles", []))
    extras = {r for r in roles - named if f"extras: {{" in text and f"[{r}]" in text}
    assert roles <= named | extras, roles - named - extras


def test_a_wrong_expectation_fails_with_its_location(tmp_path):
    sc = GAME / "scenarios" / "zz-tmp-failing.yaml"
    sc.write_text("game: ..\nroles: [seer, werewolf, villager, villager, possessed]\nscenarios:\n"
                  "  - name: wrong\n    until: day 1\n    decisions:\n"
                  "      - {kind: use_ability, player: 0, answer: 1}\n"
                  "    expect:\n      learned: {0: ['Player 2 is human.']}\n", encoding="utf-8")
    try:
        (r,) = run_file(sc)
    finally:
        sc.unlink()
    assert r.status == "fail"
    assert any("zz-tmp-failing.yaml:4: learned by seat 0: expected ['Player 2 is human.'], "
               "got ['Player 2 is a werewolf.']" in f for f in r.failures)
