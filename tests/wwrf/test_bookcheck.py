"""A book checked as a game (wwrf_adapter/bookcheck.py): the small broken book of issue 25 (Seer,
Villager, Werewolf, a Hedge Witch, two teams, Wolf Blood joining an undefined pack, no lynch poll)
fails `wwrf check` and `wwrf render` with located errors; the rendered game of a book with a
reference `wwrf` cannot see (a hand-edited rule) fails `rulescript check` (RS105) instead of stopping
at run time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SEER = """**Seer** | Townsfolk Investigative - Villagers Team
__Formalized__
Unique Role
Immediate Night: [Condition: @Selection is not @Self] |seer.divine|
  • Process: Attribute Investigate @Selection for `Lupine`
  • Evaluate:
    ‣ @Result is `Success`: `@Selection is a werewolf.`
    ‣ Otherwise: `@Selection is human.`
"""
VILLAGER = "**Villager** | Townsfolk Miscellaneous - Villagers Team\n__Formalized__\nNo Abilities\n"
WEREWOLF = "**Werewolf** | Werewolf Killing - Werewolves Team\n__Formalized__\nInherit: `Wolf Blood`\n"
WOLF_BLOOD = "**Wolf Blood** | Ability Set\nRole Attribute: `Lupine`\nStarting: Join #Werewolf-Pack (~Permanent)\n"
LUPINE = "**Lupine** | Attribute\n__Formalized__\nNo Abilities\n"
HEDGE_WITCH = """**Hedge Witch** | Townsfolk Power - Village Team
__Formalized__
Immediate Night: Protect @Selection from `Attacks` through Active Defense (~Phase) |hedgewitch.shield|
"""
VILLAGERS = "**Villagers**\n__Formalized__\nWin Condition: @(Attr:!Lupine)\n"
WEREWOLVES = "**Werewolves**\n__Formalized__\nWin Condition: @(Align:Werewolves)\n"
PACK = """**Werewolf Pack** | Werewolves Team Group
__Formalized__
Unique Group
Passive Start Night: Create `Pack Hunt` Poll in #Werewolf-Pack [Temporal: Night 2+]
On Poll Closed: Attack @Winner
"""
HUNT = """**Pack Hunt** | Poll
Available Options: @(Attr:!Lupine)
Allowed Voters: @(Group:Werewolf-Pack)
Show Voters: Yes
"""
LYNCH = """**Lynch** | Poll
Available Options: @All
Allowed Voters: @All
Show Voters: Yes
Passive Start Day: Create Poll in #Village-Square [Temporal: Day 1+]
On Poll Closed: Lynch @Winner
"""
SQUARE = "**Village Square**\n__Description__\nWhere the village meets.\n\n__Formalized__\nSort Index: 1\nMembers: Alive\n"


def _book(tmp_path: Path, files: dict[str, str], lists: str) -> Path:
    book = tmp_path / "book"
    book.mkdir()
    for name, text in files.items():
        (book / name).write_text(text, encoding="utf-8")
    (book / "role-lists.yaml").write_text(lists, encoding="utf-8")
    return book


def _run(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


BROKEN = {"seer": SEER, "villager": VILLAGER, "werewolf": WEREWOLF, "wolf blood": WOLF_BLOOD,
          "lupine": LUPINE, "hedge witch": HEDGE_WITCH, "villagers": VILLAGERS, "werewolves": WEREWOLVES}


def test_the_broken_book_fails_check_and_render_with_located_errors(tmp_path):
    book = _book(tmp_path, BROKEN, "5: [seer, hedge-witch, werewolf, villager, villager]\n"
                                   "6: [seer, seer, werewolf, villager, villager, villager]\n"
                                   "7: [seer, werewolf, villager]\n")
    r = _run("wwrf_adapter.cli", "check", "book", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout
    # the pack is used but not defined
    assert "book/wolf blood:3:16: error[WW920]: unknown group or location 'Werewolf-Pack'" in out
    # the Hedge Witch's team is 'Village', not 'Villagers'
    assert ("book/hedge witch:1:1: error[WW924]: the role 'Hedge Witch': the role's team 'Village Team' is not a "
            "team of the book") in out
    assert "did you mean: Villagers" in out
    # no lynch poll
    assert "book/role-lists.yaml:1:1: error[WW921]: no lynch poll" in out
    # the unique Seer twice in the 6-player list (line 2, the second 'seer' at column 11)
    assert "book/role-lists.yaml:2:11: error[WW923]: the role list for 6 players deals the unique role 'Seer' twice" in out
    # 3 roles for 7 players
    assert "book/role-lists.yaml:3:4: error[WW923]: the role list for 7 players has 3 role(s)" in out
    assert "WW907" not in out  # the warnings became errors
    g = _run("wwrf_adapter.cli", "render", "book", "-o", "game", cwd=tmp_path)
    assert g.returncode == 1
    assert "error[WW920]" in g.stdout and "error[WW921]" in g.stdout
    assert not (tmp_path / "game").exists()  # nothing written


def test_a_fixed_book_is_playable_and_a_hand_edited_rule_fails_rulescript_check(tmp_path):
    files = dict(BROKEN, **{"hedge witch": HEDGE_WITCH.replace("Village Team", "Villagers Team"),
                            "werewolf pack": PACK, "pack hunt": HUNT, "lynch": LYNCH, "village square": SQUARE})
    book = _book(tmp_path, files, "5: [seer, hedge-witch, werewolf, villager, villager]\n")
    r = _run("wwrf_adapter.cli", "check", "book", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "error" not in r.stdout
    g = _run("wwrf_adapter.cli", "render", "book", "-o", "game", cwd=tmp_path)
    assert g.returncode == 0, g.stdout + g.stderr
    assert _run("rulescript", "check", "game", cwd=tmp_path).returncode == 0
    play = _run("rulescript", "play", "game", "--auto", "--seed", "3", cwd=tmp_path)
    assert play.returncode == 0, play.stdout + play.stderr
    assert "RULE ERROR" not in play.stdout and " win" in play.stdout.lower()
    # a rule edited by hand to join a group the game has no card for, a role list naming no role
    ini = tmp_path / "game" / "rules" / "werewolf.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace("join('werewolf-pack')", "join('wolf-pack')"),
                   encoding="utf-8")
    gy = tmp_path / "game" / "game.yaml"
    gy.write_text(gy.read_text(encoding="utf-8").replace("- hedge-witch", "- hedge-wich"), encoding="utf-8")
    c = _run("rulescript", "check", "game", cwd=tmp_path)
    assert c.returncode == 1
    assert "error[RS105]: no group card 'wolf-pack' in cards.yaml" in c.stdout
    assert "the group cards: werewolf-pack" in c.stdout
    assert "error[RS105]: no role card 'hedge-wich' in cards.yaml (game.yaml role_lists)" in c.stdout
