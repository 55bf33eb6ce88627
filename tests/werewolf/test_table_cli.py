"""The werewolf table of `rulescript play` for people, through the real command line with stdin:
commands at every question, one seat numbering, options in words, what 0 does, hot seat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "cards" / "werewolf"
NAMES = "Ann,Bob,Cid,Dee,Eve"
CLEAR = "\x1b[2J\x1b[H"


def play(stdin: str, *extra: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "rulescript", "play", str(GAME), "--players", "5", "--seed", "1",
                           "--names", NAMES, *extra], input=stdin, env=env, capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_commands_at_every_question_and_options_in_words():
    r = play("help\n?\nshow\nfoo\n1\nshow\n1\n1\nquit\n")
    out = r.stdout
    assert r.returncode == 0, r.stderr
    assert "please type numbers" not in out and "[player 0]" not in out
    assert out.count("undo (u)      take back your last decision") == 2  # help and ?
    # seat 1 is Ann everywhere; the Seer's action in words, players by name and seat
    assert "[Ann, seat 1] Seer — divine a player:\n  1) Bob (seat 2)\n  2) Cid (seat 3)" in out
    assert "a number, or 0 does not use it> " in out
    # show: role and what it does, living players by seat, votes, channels
    assert "Night 1. You are Ann (seat 1).\nYour role: Seer (Villagers)\n" in out
    assert "Living players: 1) Ann, 2) Bob, 3) Cid, 4) Dee, 5) Eve\nVotes so far: none\nYour channels:\n" \
           "  Ann is dealt Seer (face down).\n" in out
    assert "unknown command 'foo' (type 'help')" in out
    assert "Ann uses the power of the Seer to divine Bob." in out and "seer.divine" not in out
    # the lynch, then the change of vote: what 0 does is said at the question
    assert "[Ann, seat 1] Lynch — vote for a player:" in out and "a number, or 0 abstains> " in out
    assert "[Ann, seat 1] Lynch — keep your vote (Ann) or change it:" in out
    assert "a number, or 0 withdraws your vote> " in out
    assert out.rstrip().endswith("bye")


def test_the_second_show_lists_the_votes_so_far_and_the_seers_channel():
    r = play("1\n1\nshow\nquit\n")
    out = r.stdout.split("Day 1. You are Ann", 1)[1]
    assert "Votes so far: Lynch: Ann for Ann, Bob for " in out
    assert "  Ann learns: Bob is human." in out


def test_save_load_and_undo(tmp_path):
    r = play("1\nsave s.log\nquit\n", cwd=tmp_path)
    assert "saved to s.log (1 decisions)" in r.stdout
    loaded = play("load s.log\nquit\n", cwd=tmp_path)
    assert "loaded s.log: 1 decisions replayed\n(the game continues)\n[Ann, seat 1] Lynch — vote for a player:" \
        in loaded.stdout
    resumed = play("quit\n", "--load", "s.log", cwd=tmp_path)
    assert "[Ann, seat 1] Lynch — vote for a player:" in resumed.stdout
    assert "[Ann, seat 1] Seer" not in resumed.stdout  # the divination was replayed, not asked
    undone = play("1\nundo\nquit\n")
    assert "undone: back to decision 1\n" in undone.stdout
    assert undone.stdout.count("[Ann, seat 1] Seer — divine a player:") == 2


def test_hot_seat_clears_the_screen_and_hands_the_keyboard_over():
    r = play("\n1\n1\n\n", "--hot-seat")
    out = r.stdout
    first = out.index("Ann (seat 1), take the keyboard and press Enter.")
    assert out[first - len(CLEAR):first] == CLEAR
    before = out[:first]
    assert "is dealt" not in before  # nobody's role shows before its player has the keyboard
    ann = out[first:out.index("Bob (seat 2), take the keyboard")]
    assert "Ann is dealt Seer (face down)." in ann and "Bob is dealt" not in ann
    bob = out[out.index("Bob (seat 2), take the keyboard"):]
    assert bob.startswith("Bob (seat 2), take the keyboard and press Enter.\n" + CLEAR)
    assert "Ann is dealt" not in bob and "Ann learns" not in bob
    assert "Bob is dealt" in bob


def test_a_protection_is_told_to_the_protector_not_to_its_target():
    # WWRF (docs/werewolf.md "In OCTGN"): protecting gives a defense and tells nobody; the narrative
    # line goes to the player who protected
    from rulescript.games.werewolf import narrative

    rec = {"type": "protect", "player": 3, "against": "attacks", "kind": "active", "source": "bodyguard",
           "protector": 1}
    assert narrative.audience(rec) == [1]
