"""The ``aiwolf`` command: check, explain, agent, serve and log; exit codes; no tracebacks for user mistakes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from wwrf_adapter.aiwolf.cli import main

from .fake_server import FakeServer

WOLF = str(Path(__file__).resolve().parents[2] / "cards" / "werewolf")

TALK = """\
# a day of talk
COMINGOUT Agent[01] SEER
Agent[2]VOTE Agent[3]

NOT (VOTE Agent[01]) (VOTE Agent[02])
DAY 3 (VOTED Agent[01])
ESTIMATE Agent[09] MEDIUM
"""


@pytest.fixture()
def talk(tmp_path: Path) -> Path:
    p = tmp_path / "talk.txt"
    p.write_text(TALK, encoding="utf-8")
    return p


def test_check_reports_syntax_errors_like_a_compiler(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(talk)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == f"{talk}:5:22: error[AW201]: NOT takes one sentence; this is sentence 2"
    assert lines[1] == "    NOT (VOTE Agent[01]) (VOTE Agent[02])"
    assert lines[2] == "    " + " " * 21 + "^" + "~" * 15
    assert err == "5 sentence(s): 1 error(s)\n"


def test_check_with_a_game_checks_the_meaning(talk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--players", "5", "--day", "2", "--format", "json", str(talk)]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [
        ("AW201", 5, 22), ("AW303", 6, 5), ("AW301", 7, 10), ("AW302", 7, 20)]


def test_check_clean_input_from_stdin_normalised(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Agent[1]VOTE Agent[2]\r\nREQUEST (Agent[3] "
                                                                  b"DIVINATION Agent[004])\nOver\n")))
    assert main(["check", "--normalize", "--speaker", "1", "-"]) == 0
    out, err = capsys.readouterr()
    assert out == "VOTE Agent[02]\nREQUEST Agent[03] (DIVINATION Agent[04])\nOver\n"
    assert err == "3 sentence(s): 0 error(s)\n"


def test_check_reads_bad_bytes_as_located_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bytes.txt"
    p.write_bytes(b"VOTE Agent[01]\xff\n")
    assert main(["check", str(p)]) == 1  # the one encoding policy: text that is not UTF-8 is a located error
    assert f"{p}:1:15: not UTF-8 text: byte 0xFF cannot be decoded" in capsys.readouterr().err


def test_check_custom_roles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "t.txt"
    p.write_text("COMINGOUT Agent[03] FOX\nCOMINGOUT Agent[04] SEER\n")
    assert main(["check", "--roles", "FOX,SEER,WEREWOLF", str(p)]) == 1  # three agents, a fox among them
    out = capsys.readouterr().out
    assert out.startswith(f"{p}:2:11: error[AW301]: Agent[04] is not in this game") and out.count("error[") == 1
    assert main(["check", "--roles", "FOX,SEER,WEREWOLF=2", str(p)]) == 0


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "Agent[2]", "INQUIRE", "Agent[1]", "(VOTED", "ANY)"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Agent[02] INQUIRE Agent[01] (VOTED ANY)"
    assert out[1] == "  Agent[02] asks Agent[01] whether Agent[01] voted for any agent."
    assert out[2] == "with ANY expanded (5 agents; roles: VILLAGER, SEER, WEREWOLF, POSSESSED):"
    assert out[3].startswith("  Agent[02] INQUIRE Agent[01] (OR (VOTED Agent[01]) (VOTED Agent[02])")
    assert out[3].endswith("(VOTED Agent[05]))") and len(out) == 5


def test_explain_picks_the_fifteen_player_game_for_high_agent_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "REQUEST Agent[12] (DIVINATION ANY)"]) == 0
    out = capsys.readouterr().out
    assert "15 agents" in out and "(DIVINATION Agent[15])" in out
    assert main(["explain", "VOTE Agent[22]"]) == 0  # no ANY: no game needed
    assert main(["explain", "VOTE ANY", "--players", "5", "--speaker", "3"]) == 0
    assert "Agent[03] will vote for any agent" in capsys.readouterr().out


def test_explain_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "VOTE Agent1"]) == 1
    assert "<sentence>:1:6: error[AW105]" in capsys.readouterr().err
    assert main(["explain", "--players", "5", "VOTE Agent[07]"]) == 1
    assert "error[AW301]" in capsys.readouterr().err
    assert main(["explain", "VOTE Agent[22] AND", ]) == 1


@pytest.mark.parametrize("argv, message", [
    ([], "a command is required"),
    (["check"], "the following arguments are required"),
    (["check", "/no/such/file"], "cannot read /no/such/file"),
    (["check", "--players", "7", "-"], "give the roles with --roles"),
    (["check", "--roles", "KING=1", "-"], "bad role 'KING=1'"),
    (["check", "--day", "2", "-"], "--day needs --players or --roles"),
    (["check", "--players", "5", "--roles", "SEER", "-"], "1 roles dealt to 5 agents"),
    (["explain", "--speaker", "0", "Over"], "--speaker must be 1 or more"),
    (["agent", "no_such_module_xyz"], "cannot load no_such_module_xyz: ModuleNotFoundError"),
    (["agent", "wwrf_adapter.aiwolf.agents:Nope"], "has no agent class Nope"),
    (["agent", "wwrf_adapter.aiwolf.agents"], "defines 0 agent classes"),
    (["agent", "/no/such/agent.py"], "no such file"),
    (["serve", "/no/such/game", "--players", "5"], "/no/such/game is not a game folder"),
    (["serve", WOLF, "--players", "7"], "no role list for 7 players"),
    (["serve", WOLF, "--players", "5", "--roles", "SEER=1,FOX=1,VILLAGER=3"],
     "the game has no role for FOX"),
    (["serve", WOLF, "--players", "5", "--roles", "SEER=1,VILLAGER=3"], "deals 4 roles to 5 players"),
    (["serve", WOLF, "--players", "0"], "--players must be at least 1"),
    (["serve", WOLF, "--players", "5", "--time-limit", "0"], "--time-limit must be at least 1 ms, or -1 (no limit)"),
    (["serve", WOLF, "--players", "5", "--max-talk-turn", "0"], "--max-talk-turn must be at least 1"),
    (["serve", WOLF, "--players", "5", "--max-revote", "-1"], "--max-revote must be at least 0"),
    (["log", "/no/such/file.log"], "cannot read /no/such/file.log"),
    (["log", "--game", "/no/such/game", "x.log"], "no werewolf game to replay in"),
])
def test_usage_errors_exit_2_without_traceback(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_serve_needs_a_log_folder_it_can_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("not a folder")
    assert main(["serve", WOLF, "--players", "5", "--log-dir", str(tmp_path / "file"), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "cannot write logs to" in err and "Traceback" not in err


def test_help_of_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in ((["--help"], "exit status"), (["check", "--help"], "one a line"),
                        (["explain", "--help"], "expansion"), (["agent", "--help"], "RuleAgent"),
                        (["serve", "--help"], "--time-limit"), (["log", "--help"], "replay")):
        assert main(argv) == 0
        assert words in capsys.readouterr().out


def test_agent_from_a_file_against_a_server(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "from wwrf_adapter.aiwolf.client import Agent\n"
        "class Quiet(Agent):\n"
        "    name = 'quiet'\n"
        "    def talk(self):\n"
        "        return 'Skip' if self.day == 1 else 'Over'\n", encoding="utf-8")
    server = FakeServer(5, games=1, seed=3).start()
    procs = [subprocess.Popen([sys.executable, "-m", "wwrf_adapter.aiwolf.cli", "agent", str(tmp_path / "mine.py"),
                               "--port", str(server.port), "--host", "127.0.0.1", "--retry", "10", "--quiet"],
                              stderr=subprocess.PIPE, text=True) for _ in range(5)]
    errs = [p.communicate(timeout=120)[1] for p in procs]
    server.join()
    assert [p.returncode for p in procs] == [0] * 5 and errs == [""] * 5
    assert server.problems == [] and set(server.names.values()) == {"quiet"}


def test_agent_against_no_server_and_a_broken_one(capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import threading

    free = socket.create_server(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    assert main(["agent", "wwrf_adapter.aiwolf.agents:RandomAgent", "--host", "127.0.0.1", "--port", str(port)]) == 2
    assert "connection to 127.0.0.1:" in capsys.readouterr().err

    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with listener:
            conn, _ = listener.accept()
            with conn:
                conn.sendall(b'{"request":"DANCE"}\n')
                conn.recv(100)

    threading.Thread(target=serve, daemon=True).start()
    argv = ["agent", "wwrf_adapter.aiwolf.agents:RandomAgent", "--host", "127.0.0.1",
            "--port", str(listener.getsockname()[1])]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "the server broke the protocol: packet.request: expected one of NAME" in err and "Traceback" not in err


def test_serve_plays_by_the_setting_options_and_its_logs_replay(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", WOLF, "--players", "5", "--agents", "0", "--wait", "0", "--games", "2", "--port", "0",
            "--log-dir", str(tmp_path), "--time-limit", "-1", "--enable-no-attack", "--max-talk", "3",
            "--max-talk-turn", "5", "--no-vote-visible", "--talk-on-first-day", "--quiet"]
    assert main(argv) == 0
    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 2
    for log in logs:
        lines = log.read_text(encoding="utf-8").splitlines()
        talks = [x.split(",") for x in lines if x.split(",")[1] == "talk"]
        assert any(x[0] == "0" for x in talks) and max(int(x[3]) for x in talks) <= 4
    capsys.readouterr()
    assert main(["log", *map(str, logs)]) == 0
    assert "talkOnFirstDay=true" in capsys.readouterr().err
