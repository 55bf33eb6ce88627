"""End to end: ``aiwolf serve`` on localhost with 5 and with 15 agent processes (the project's own agents
run by ``aiwolf agent``, the client library), many complete games on the same connections. Every game
ends with the winner of the AIWolf win rule, and every AIWolf log replays in the engine.

The 15-player run of 20 games is marked ``slow`` (CI runs it too); the unmarked runs are 20 games of 5
players and 4 games of 15."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wwrf_adapter.aiwolf.logfile import read_log
from wwrf_adapter.aiwolf.logreplay import check_log

from .serving import GAME, ROOT, table

CLI = [sys.executable, "-m", "wwrf_adapter.aiwolf.cli"]
AGENTS = ["wwrf_adapter.aiwolf.agents:RuleAgent", "wwrf_adapter.aiwolf.agents:RandomAgent"]


def serve(tmp_path: Path, players: int, games: int) -> tuple[str, Path]:
    logs = tmp_path / "logs"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen(CLI + ["serve", str(GAME), "--players", str(players), "--games", str(games),
                                     "--port", "0", "--log-dir", str(logs), "--wait", "60", "--seed", str(players)],
                              stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    agents: list[subprocess.Popen[str]] = []
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        assert "listening on 127.0.0.1:" in first, first
        port = first.rsplit(":", 1)[1].strip()
        for i in range(players):
            agents.append(subprocess.Popen(CLI + ["agent", AGENTS[i % 2], "--port", port, "--retry", "20",
                                                  "--seed", str(i)], stderr=subprocess.PIPE, text=True, env=env))
        rest = server.stderr.read()
        assert server.wait(timeout=600) == 0, first + rest
        for a in agents:
            _out, err = a.communicate(timeout=60)
            assert a.returncode == 0, err
            assert err.count("aiwolf agent: ") == games, err  # one line per finished game, nothing else
    finally:
        for p in [server] + agents:
            if p.poll() is None:
                p.kill()
                p.wait()
    return first + rest, logs


def check_games(stderr: str, logs: Path, players: int, games: int) -> None:
    assert f"{players} agent(s) connected; 0 seat(s) played by built-in" in stderr
    assert f"{games} game(s): " in stderr and "0 without a winner; 0 incident(s)" in stderr
    assert "Traceback" not in stderr
    found = sorted(logs.glob("*.log"))
    assert [p.name for p in found] == [f"{n:03d}.log" for n in range(1, games + 1)]
    winners = set()
    for path in found:
        text = path.read_text()
        events, diags = read_log(text, str(path))
        assert diags == []
        result = events[-1]
        assert result.kind == "result"
        humans, wolves, team = result["humans"], result["wolves"], result["team"]
        assert team == ("VILLAGER" if wolves == 0 else "WEREWOLF" if humans <= wolves else None), path
        check = check_log(table(), text, str(path))
        assert check.ok and check.replayed and check.winner == team, [d.message for d in check.diagnostics]
        assert {e["name"] for e in events if e.kind == "status"} <= {"RuleAgent", "RandomAgent"}
        winners.add(team)
        game_log = path.with_suffix(".game")
        assert game_log.is_file()
    if games >= 20:
        assert winners == {"VILLAGER", "WEREWOLF"}


def test_five_agent_processes_play_20_games(tmp_path: Path) -> None:
    started = time.monotonic()
    stderr, logs = serve(tmp_path, 5, 20)
    check_games(stderr, logs, 5, 20)
    assert time.monotonic() - started < 300


def test_fifteen_agent_processes_play_a_few_games(tmp_path: Path) -> None:
    stderr, logs = serve(tmp_path, 15, 4)
    check_games(stderr, logs, 15, 4)


@pytest.mark.slow
@pytest.mark.timeout(600)  # about 60 s on a loaded two-core machine
def test_fifteen_agent_processes_play_20_games(tmp_path: Path) -> None:
    stderr, logs = serve(tmp_path, 15, 20)
    check_games(stderr, logs, 15, 20)


def test_the_engine_game_log_replays_with_rulescript_play(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    done = subprocess.run(CLI + ["serve", str(GAME), "--players", "5", "--games", "1", "--port", "0", "--wait", "0",
                                 "--log-dir", str(logs), "--quiet"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert "0 agent(s) connected; 5 seat(s) played by built-in rule agents" in done.stderr
    replay = subprocess.run([sys.executable, "-m", "rulescript.cli", "play", str(GAME), "--replay", str(logs / "001.game")],
                            capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert replay.returncode == 0, replay.stderr
    result = (logs / "001.log").read_text().splitlines()[-1].split(",")[-1]
    assert {"VILLAGER": "\nVillagers win: ", "WEREWOLF": "\nWerewolves win: "}[result] in replay.stdout
