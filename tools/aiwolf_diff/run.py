"""Differential testing of the AIWolf part against the reference AIWolf server (not part of the tests).

For each game setting (``--config``) and agent mix (``--mix``) it plays ``--games`` games on the
reference server (``RefGames.java``, compiled against the reference jar given with ``--reference``)
and on ``aiwolf serve`` with the same setting and the same agents, then:

* checks every log the reference server wrote with ``aiwolf log`` (each must be a legal game);
* compares outcome statistics read from the logs of both: villager win rate, days per game,
  executions per day, and per night with an attack line the share that kills (``kills/night``) and
  that attacks nobody (``none/night``).

    nice -n 10 python3 tools/aiwolf_diff/run.py --reference PATH/TO/aiwolf --games 200 \\
        --config default no-attack --mix rule self-attack --out /tmp/aiwolf-diff

Prints one table row per (config, mix, server) and writes ``results.json`` in ``--out``. The
reference folder holds ``aiwolf-reference-server-0.6.3.jar``, ``jsonic-1.3.2.jar``, and for the
``mixed`` mix the Python sample agents (``python/``). Loopback only; every process it starts is
stopped by its id.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

#: game settings (reference GameSetting property names); {} is the reference default game
CONFIGS: dict[str, dict[str, object]] = {
    "default": {},
    "no-attack": {"enableNoAttack": True},
    "no-execution": {"enableNoExecution": True},
    "talk-day0": {"talkOnFirstDay": True},
    "hidden-votes": {"voteVisible": False},
    "vote-day0": {"votableInFirstDay": True},
    "whisper-revote": {"whisperBeforeRevote": True, "maxAttackRevote": 3},
    "revotes": {"maxRevote": 3, "maxAttackRevote": 3},
    "short-talk": {"maxTalk": 3, "maxTalkTurn": 4, "maxWhisper": 2, "maxWhisperTurn": 3, "maxSkip": 0},
    "no-validate": {"validateUtterance": False},
    "no-role-request": {"enableRoleRequest": False},
    # two wolves among five: whispers, split attack votes
    "two-wolves": {"roles": "SEER:1,VILLAGER:2,WEREWOLF:2"},
    "two-wolves-whisper-revote": {"roles": "SEER:1,VILLAGER:2,WEREWOLF:2", "whisperBeforeRevote": True,
                                  "maxAttackRevote": 2},
    "two-wolves-no-attack": {"roles": "SEER:1,VILLAGER:2,WEREWOLF:2", "enableNoAttack": True},
}

TIME_LIMIT_MS = 20000

#: agent mixes: a list of agent kinds, one per seat (5 players)
MIXES: dict[str, list[str]] = {
    "rule": ["rule"] * 5,
    "random": ["random"] * 5,
    "self-attack": ["selfattack"] * 5,
    "java": ["java"] * 5,
    "mixed": ["rule", "rule", "java", "java", "python"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    """Whether some process listens on TCP ``port`` (read from /proc/net; a probe connection would
    take a seat)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                return True
    return False


def wait_listening(port: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Wait until the server listens: the reference Java client gives up at once on a refused
    connection, and ``aiwolf serve`` then plays every seat with its built-in agents."""
    deadline = time.monotonic() + timeout
    while not listening(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not listen on port {port}")
        time.sleep(0.2)


def kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name)


class Runner:
    def __init__(self, reference: Path, out: Path) -> None:
        self.ref = reference
        self.out = out
        self.cp = f"{reference / 'aiwolf-reference-server-0.6.3.jar'}:{reference / 'jsonic-1.3.2.jar'}"
        self.classes = out / "classes"
        source = HERE / "RefGames.java"
        built = self.classes / "RefGames.class"
        if not built.is_file() or built.stat().st_mtime < source.stat().st_mtime:
            self.classes.mkdir(parents=True, exist_ok=True)
            subprocess.run(["javac", "-d", str(self.classes), "-cp", self.cp, str(HERE / "RefGames.java")], check=True)
        self.env = dict(os.environ, PYTHONPATH=str(ROOT))

    def agent_cmd(self, kind: str, port: int, i: int) -> tuple[list[str], dict]:
        aiwolf = [sys.executable, "-m", "wwrf_adapter.aiwolf.cli", "agent"]
        common = ["--port", str(port), "--host", "127.0.0.1", "--retry", "20", "--quiet", "--seed", str(i)]
        if kind == "rule":
            return aiwolf + ["wwrf_adapter.aiwolf.agents:RuleAgent", "--name", f"Rule{i}"] + common, self.env
        if kind == "random":
            return aiwolf + ["wwrf_adapter.aiwolf.agents:RandomAgent", "--name", f"Random{i}"] + common, self.env
        if kind == "selfattack":
            return aiwolf + [str(HERE / "agents.py") + ":SelfAttackAgent", "--name", f"SelfAtk{i}"] + common, self.env
        if kind == "java":
            return ["java", "-cp", self.cp, "org.aiwolf.common.bin.ClientStarter", "-h", "127.0.0.1", "-p", str(port),
                    "-c", "org.aiwolf.sample.player.SampleRoleAssignPlayer", "-n", f"Java{i}"], self.env
        if kind == "python":
            env = dict(os.environ, PYTHONPATH=str(self.ref / "python"))
            return [sys.executable, "-B", str(self.ref / "python" / "sample-agent" / "start.py"), "-h", "127.0.0.1",
                    "-p", str(port), "-n", f"Py{i}"], env
        raise ValueError(kind)

    def play(self, server: str, config: str, mix: str, games: int, seed: int) -> Path:
        logs = self.out / f"{config}-{mix}-{server}"
        shutil.rmtree(logs, ignore_errors=True)
        logs.mkdir(parents=True)
        port = free_port()
        # a generous time limit on both servers: a JVM that starts on a loaded machine may take seconds to
        # answer NAME (the reference server gives up on it); replies in time do not depend on it
        setting = {**CONFIGS[config], "timeLimit": TIME_LIMIT_MS}
        if server == "reference":
            cmd = ["java", "-cp", f"{self.cp}:{self.classes}", "RefGames", str(port), "5", str(games), str(logs),
                   str(seed)] + [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in setting.items()]
        else:
            cmd = [sys.executable, "-m", "wwrf_adapter.aiwolf.cli", "serve", str(ROOT / "cards" / "werewolf"),
                   "--players", "5", "--games", str(games), "--port", str(port), "--seed", str(seed), "--wait", "60",
                   "--log-dir", str(logs), "--quiet"]
            for k, v in setting.items():
                if k == "roles":
                    cmd += ["--roles", str(v).replace(":", "=")]
                    continue
                flag = "--" + kebab(k)
                cmd += [flag if v is True else "--no-" + flag[2:]] if isinstance(v, bool) else [flag, str(v)]
        procs = []
        with open(logs / "server.out", "w") as sout:
            srv = subprocess.Popen(cmd, stdout=sout, stderr=subprocess.STDOUT, env=self.env)
            procs.append(srv)
            try:
                wait_listening(port, srv)
                for i, kind in enumerate(MIXES[mix], 1):
                    acmd, env = self.agent_cmd(kind, port, i)
                    procs.append(subprocess.Popen(acmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
                    time.sleep(0.3)
                srv.wait(timeout=60 + games * 30)
            finally:
                for p in procs:
                    if p.poll() is None:
                        p.kill()
                        p.wait()
        return logs


NAME_PREFIX = {"rule": "Rule", "random": "Random", "selfattack": "SelfAtk", "java": "Java", "python": "Py"}


def foreign_seats(logs: Path, mix: str) -> int:
    """Logs in which a seat was not played by the mix's agents (e.g. a built-in agent of ``aiwolf
    serve`` took the seat of an agent that failed to connect): such a row measures something else."""
    want = {f"{NAME_PREFIX[k]}{i}" for i, k in enumerate(MIXES[mix], 1)}
    bad = 0
    for f in sorted(logs.glob("*.log")):
        names = {line.split(",")[5] for line in f.read_text(encoding="utf-8", errors="replace").splitlines()
                 if line.startswith("0,status,")}
        bad += not names <= want
    return bad


def stats(logs: Path) -> dict:
    from wwrf_adapter.aiwolf.logfile import read_log

    games = wins = days = execs = exec_days = nights = kills = none = 0
    for f in sorted(logs.glob("*.log")):
        events, diags = read_log(f.read_text(encoding="utf-8", errors="replace"), str(f))
        if diags or not events:
            continue
        result = [e for e in events if e.kind == "result"]
        if not result:
            continue
        games += 1
        wins += result[0]["team"] == "VILLAGER"
        days += result[0].day
        vote_days = {e.day for e in events if e.kind == "vote"}
        exec_days += len(vote_days)
        execs += sum(1 for e in events if e.kind == "execute")
        for e in events:
            if e.kind == "attack":
                nights += 1
                kills += e["success"]
                none += e["target"] < 0
    if not games:
        return {"games": 0}
    p = wins / games
    return {"games": games, "villager_win": p, "win_ci95": 1.96 * math.sqrt(p * (1 - p) / games),
            "days": days / games, "exec_per_day": execs / max(1, exec_days),
            "kills_per_night": kills / max(1, nights), "none_per_night": none / max(1, nights)}


def check_logs(logs: Path) -> tuple[int, int, list[str]]:
    from rulescript.sim.wolf import load_wolf_table
    from wwrf_adapter.aiwolf.logreplay import check_log

    table = load_wolf_table(ROOT / "cards" / "werewolf")
    ok = bad = 0
    first: list[str] = []
    implied: dict[str, int] = {}
    for f in sorted(logs.glob("*.log")):
        check = check_log(table, f.read_text(encoding="utf-8", errors="replace"), str(f))
        if check.ok:
            ok += 1
            for k in check.implied:
                implied[k] = implied.get(k, 0) + 1
        else:
            bad += 1
            if len(first) < 3:
                first.append(next(str(d) for d in check.diagnostics if d.is_error))
    return ok, bad, first + [f"implied {k} in {n} log(s)" for k, n in sorted(implied.items())]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reference", type=Path, required=True, help="folder of the reference AIWolf software")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--config", nargs="+", default=["default"], choices=sorted(CONFIGS))
    p.add_argument("--mix", nargs="+", default=["rule"], choices=sorted(MIXES))
    p.add_argument("--servers", nargs="+", default=["reference", "serve"], choices=("reference", "serve"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=Path("/tmp/aiwolf-diff"))
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    runner = Runner(args.reference.resolve(), args.out)
    results = []
    print(f"{'config':<15} {'mix':<11} {'server':<9} {'games':>5} {'V win':>12} {'days':>5} {'exec/day':>8} "
          f"{'kills/night':>11} {'none/night':>10}  aiwolf log")
    for config in args.config:
        for mix in args.mix:
            for server in args.servers:
                t0 = time.perf_counter()
                logs = runner.play(server, config, mix, args.games, args.seed)
                st = stats(logs)
                ok, bad, notes = check_logs(logs)
                foreign = foreign_seats(logs, mix)
                if foreign:
                    notes.append(f"NOT VALID: {foreign} log(s) with seats not played by the {mix} agents")
                st.update(config=config, mix=mix, server=server, seconds=time.perf_counter() - t0,
                          log_ok=ok, log_bad=bad, notes=notes, foreign_seats=foreign)
                results.append(st)
                if st["games"]:
                    print(f"{config:<15} {mix:<11} {server:<9} {st['games']:>5} "
                          f"{st['villager_win']:>6.3f}±{st['win_ci95']:.3f} {st['days']:>5.2f} {st['exec_per_day']:>8.3f} "
                          f"{st['kills_per_night']:>11.3f} {st['none_per_night']:>10.3f}  {ok} legal, {bad} not"
                          + "".join(f"\n    {n}" for n in notes), flush=True)
                else:
                    print(f"{config:<15} {mix:<11} {server:<9} no game finished (see {logs}/server.out)", flush=True)
                (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
