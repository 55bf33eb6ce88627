"""`rulescript play`: a short game played as a user would, through standard input, with undo and a
save/load round trip; `--auto` prints a seeded game's log."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from rulescript.cli import main
from rulescript.sim.gamelog import load_log

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"


def play(lines: list[str], *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "rulescript.cli", "play", str(DEMO), *args],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def questions(out: str) -> list[str]:
    return re.findall(r"^\[player (\d)\] (\w+):", out, re.M)


def test_a_short_game_plays_to_the_end_with_undo(tmp_path):
    # "1" always picks the first option; with a 2-turn limit the game ends in a draw by turn limit
    out = play(["show"] + ["1"] * 3 + ["undo"] + ["1"] * 400, "--seed", "3", "--turn-limit", "2")
    assert "turn 1, player 1's main phase" in out          # the show command
    assert "undone: back to decision 3" in out
    assert "game over after 2 turns: a draw (turn limit (2 turns))" in out
    # after the undo the third question is asked again, identically
    asked = questions(out)
    assert asked[2] == asked[3]


def test_save_and_load_round_trip(tmp_path):
    saved = tmp_path / "game.log"
    out1 = play(["1", "1", "1", f"save {saved}", "quit"], "--seed", "5", "--turn-limit", "3")
    assert f"saved to {saved} (3 decisions)" in out1
    log = load_log(str(saved))
    assert log["seed"] == 5 and len(log["answers"]) == 3
    # continue from the file: the three decisions are replayed, then the next question is asked
    out2 = play(["show", "quit"], "--load", str(saved))
    assert "(the game continues)" in out2
    before = re.findall(r"turn \d+, player \d's \w+ phase$", out2, re.M)
    assert before, out2
    # the state shown after loading is the state the first session had reached: compare the table
    out3 = play(["1", "1", "1", "show", "quit"], "--seed", "5", "--turn-limit", "3")
    table1 = out3[out3.rindex("turn "):].split("[player")[0]
    table2 = out2[out2.rindex("turn "):].split("[player")[0]
    assert table1 == table2


def test_load_command_inside_a_session(tmp_path):
    saved = tmp_path / "g.log"
    play(["1", "1", f"save {saved}", "quit"], "--seed", "9", "--turn-limit", "3")
    out = play([f"load {saved}", "show", "quit"], "--seed", "1", "--turn-limit", "3")
    assert f"loaded {saved}: 2 decisions replayed" in out


def test_bad_input_is_asked_again():
    out = play(["frobnicate", "99", "1", "quit"], "--seed", "3")
    assert "unknown command 'frobnicate'" in out
    assert "numbers go from 1 to" in out


def test_auto_prints_a_seeded_game_and_saves_its_log(tmp_path, capsys):
    log_path = tmp_path / "auto.log"
    assert main(["play", str(DEMO), "--auto", "--seed", "4", "--log", str(log_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("  shuffle") and "** game over" in out
    assert main(["play", str(DEMO), "--replay", str(log_path)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.splitlines()[-1] == out.splitlines()[-1]


class _EditingInput:
    """Standard input that edits a rule file when it reaches a marker line."""

    def __init__(self, lines, edits):
        self.lines = list(lines)
        self.edits = edits  # marker -> callable

    def readline(self):
        while self.lines:
            line = self.lines.pop(0)
            if line in self.edits:
                self.edits[line]()
                continue
            return line + "\n"
        return ""


def test_play_watch_applies_edited_rules_to_cards_in_play(tmp_path):
    import io as _io
    import os
    import shutil
    import time

    from rulescript.sim.host import load_table
    from rulescript.sim.table import Session

    game = tmp_path / "game"
    shutil.copytree(DEMO, game)
    rules = game / "rules" / "fighters.ini"
    original = rules.read_text()

    def edit(text):
        def run():
            rules.write_text(text)
            st = rules.stat()
            os.utime(rules, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a visible change
            time.sleep(0.01)
        return run

    table = load_table(game)
    before = table.compiled.rules["ink-viper"]
    broken = original.replace("action = freeze() & +frosted oppuynt", "action = freeze() & +frosted oppuynt)")
    fixed = original.replace("action = freeze() & +frosted oppuynt", "action = freeze() & +rush oppuynt")
    out = _io.StringIO()
    inp = _EditingInput(["1", "EDIT-BROKEN", "1", "EDIT-FIXED", "1", "quit"],
                        {"EDIT-BROKEN": edit(broken), "EDIT-FIXED": edit(fixed)})
    session = Session(table, ["deck-a", "deck-b"], 3, inp, out, watch=True, turn_limit=3)
    assert session.run() == 0
    text = out.getvalue()
    assert "rules have errors: keeping the last good rules" in text
    assert "fighters.ini" in text and "error[RS" in text
    assert "rules reloaded" in text
    after = session.engine.rules["ink-viper"]
    assert after != before
    assert "'rush'" in repr(after) and "'frosted'" not in repr(after)
