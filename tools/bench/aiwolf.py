"""Benchmark of ``aiwolf serve``: games per second with 15 built-in agents over localhost TCP, and the
server's added latency per request.

    python tools/bench/aiwolf.py [--players 15] [--games 20] [--fill rule] [--processes 1] [--json] [--check]
    python tools/bench/aiwolf.py --soak 10000 [--players 5] [--warmup 100] [--log-dir DIR]

The server runs in this process (the same ``Server`` that ``aiwolf serve`` runs); the agents are the
project's own agent classes run by the client library (``run_agent``) in ``--processes`` other
processes (threads inside each), connected over 127.0.0.1. Measured:

1. **games per second** over TCP: ``--games`` games, wall time from the first INITIALIZE to the last
   FINISH; with the CPU seconds of the server process and of the agent processes beside it.
2. **added latency per request**: for every request the server writes, the time from the moment it
   had what it needed (the previous reply read, or the previous notice written) to the moment it
   starts writing the request: the engine's work, the talk rules, building and encoding the packet,
   checking the reply. Median and p99, in wall time and in the server thread's CPU time (the CPU
   figure does not grow when other programs share the machine). Target: p99 ≤ 2 ms.
3. for reference, **games per second in-process**: the same agent classes driven without TCP.

``--json`` prints one object (keys: ``players``, ``games``, ``tcp_games_per_s``, ``tcp_wall_s``,
``server_cpu_s``, ``agents_cpu_s``, ``requests``, ``latency_ms`` {``median``, ``p99``, ``max``},
``latency_cpu_ms`` {...}, ``inprocess_games_per_s``, ``load_before``, ``load_after``);
p99 (CPU) over 2 ms prints FAIL and exits 1.

``--soak N`` measures instead whether a long tournament keeps its memory flat: ``--warmup`` games, then
N more, with built-in agents in-process (the server's own bookkeeping is what grows, not the
transport), and prints the server process's resident memory (RSS) after the warm-up, every tenth of
the run and at the end. Target: less than 20 MB of growth over 10,000 5-player games (``--check``
exits 1 when it is more).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks and _verdict
from _verdict import exit_status, mark  # noqa: E402

GAME = ROOT / "cards" / "werewolf"
TARGET_P99_MS = 2.0
TARGET_SOAK_MB = 20.0

_AGENTS = """
import sys, threading
from wwrf_adapter.aiwolf.agents import RandomAgent, RuleAgent
from wwrf_adapter.aiwolf.client import run_agent
port, count, fill, first = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
cls = {"rule": RuleAgent, "random": RandomAgent}[fill]
def play(i):
    agent = cls()
    agent.rng.seed(first + i)
    run_agent(agent, "127.0.0.1", port, retry=30, log=lambda m: None)
threads = [threading.Thread(target=play, args=(i,)) for i in range(count)]
for t in threads: t.start()
for t in threads: t.join()
"""


def quantiles(samples: list[float]) -> dict:
    s = sorted(samples)
    if not s:
        return {"median": 0.0, "p99": 0.0, "max": 0.0}
    return {"median": s[len(s) // 2] * 1000, "p99": s[min(len(s) - 1, int(len(s) * 0.99))] * 1000, "max": s[-1] * 1000}


def bench_tcp(table, players: int, games: int, fill: str, processes: int) -> dict:
    from wwrf_adapter.aiwolf.server import ServeConfig, Server

    server = Server(table, ServeConfig(players, games=games, port=0, wait=60, fill=fill, seed=1, stats=True,
                                       keep=games))
    port = server.bind()
    per = [players // processes + (1 if i < players % processes else 0) for i in range(processes)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs, first = [], 0
    for count in per:
        procs.append(subprocess.Popen([sys.executable, "-c", _AGENTS, str(port), str(count), fill, str(first)], env=env))
        first += count
    server.accept()
    if len(server.remote) != players:
        raise SystemExit(f"only {len(server.remote)} of {players} agents connected")
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    records = server.run()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    for p in procs:
        p.wait(timeout=120)
    agents_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    failed = [r.number for r in records if r.winner is None]
    if failed:
        raise SystemExit(f"games without a winner: {failed}")
    return {"tcp_wall_s": wall, "tcp_games_per_s": games / wall, "server_cpu_s": cpu,
            "agents_cpu_s": agents_cpu.ru_utime + agents_cpu.ru_stime,
            "requests": sum(r.requests for r in records), "latency_ms": quantiles(server.clock.samples),
            "latency_cpu_ms": quantiles(server.clock.cpu),
            "incidents": sum(len(r.incidents) for r in records)}


def bench_inprocess(table, players: int, games: int, fill: str) -> dict:
    from wwrf_adapter.aiwolf.server import ServeConfig, Server

    server = Server(table, ServeConfig(players, games=games, port=0, agents=0, wait=0, fill=fill, seed=1))
    server.bind()
    server.accept()
    t0 = time.perf_counter()
    server.run()
    wall = time.perf_counter() - t0
    return {"inprocess_games_per_s": games / wall}


def rss_mb() -> float:
    """This process's resident memory now (Linux /proc), in MB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def soak(table, players: int, games: int, warmup: int, fill: str, log_dir: Path | None) -> dict:
    """RSS after ``warmup`` games and after ``games`` more (one server, built-in agents in-process)."""
    import gc

    from wwrf_adapter.aiwolf.server import ServeConfig, Server

    server = Server(table, ServeConfig(players, games=warmup + games, port=0, agents=0, wait=0, fill=fill, seed=1,
                                       log_dir=log_dir))
    server.bind()
    server.accept()
    for number in range(1, warmup + 1):
        server.play(number)
    gc.collect()
    base = rss_mb()
    print(f"after {warmup} warm-up games: RSS {base:.1f} MB", flush=True)
    t0 = time.perf_counter()
    step = max(1, games // 10)
    samples = []
    for i in range(1, games + 1):
        server.play(warmup + i)
        if i % step == 0 or i == games:
            gc.collect()
            samples.append((i, rss_mb()))
            print(f"  {i:6d} games: RSS {samples[-1][1]:.1f} MB ({samples[-1][1] - base:+.1f} MB), "
                  f"{i / (time.perf_counter() - t0):.1f} games/s", flush=True)
    server.close()
    return {"players": players, "warmup": warmup, "games": games, "rss_after_warmup_mb": base,
            "rss_end_mb": samples[-1][1], "growth_mb": samples[-1][1] - base, "samples": samples,
            "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=15)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--fill", choices=("rule", "random"), default="rule", help="the agent class (default rule)")
    p.add_argument("--processes", type=int, default=1, help="agent processes (default 1, threads inside)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true",
                   help=f"exit 1 if p99 (CPU) > {TARGET_P99_MS} ms (with --soak: if RSS grows by {TARGET_SOAK_MB} MB or more)")
    p.add_argument("--soak", type=int, metavar="N", help="measure RSS growth over N games after the warm-up instead")
    p.add_argument("--warmup", type=int, default=100, metavar="G", help="warm-up games of --soak (default 100)")
    p.add_argument("--log-dir", type=Path, help="--soak writes the logs here (default: no logs)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from rulescript.sim.wolf import load_wolf_table

    table = load_wolf_table(GAME)
    if args.soak:
        players = args.players if "--players" in (argv or sys.argv) else 5
        res = soak(table, players, args.soak, args.warmup, args.fill, args.log_dir)
        ok = res["growth_mb"] < TARGET_SOAK_MB
        if args.json:
            print(json.dumps(res, indent=2))
        else:
            print(f"aiwolf serve soak, {players} players: RSS {res['rss_after_warmup_mb']:.1f} MB after "
                  f"{args.warmup} games, {res['rss_end_mb']:.1f} MB after {args.soak} more: "
                  f"{res['growth_mb']:+.1f} MB ({res['seconds']:.0f} s); target < {TARGET_SOAK_MB} MB over "
                  f"10,000 games: {mark(ok)}")
        return exit_status([ok], args.check)
    load_before = os.getloadavg()
    res = {"players": args.players, "games": args.games, "fill": args.fill, "processes": args.processes}
    res.update(bench_tcp(table, args.players, args.games, args.fill, args.processes))
    res.update(bench_inprocess(table, args.players, args.games, args.fill))
    res["load_before"], res["load_after"] = list(load_before), list(os.getloadavg())
    ok = res["latency_cpu_ms"]["p99"] <= TARGET_P99_MS
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        lat, cpu = res["latency_ms"], res["latency_cpu_ms"]
        print(f"aiwolf serve, {args.players} players, {args.games} games, {args.players} {args.fill} agents "
              f"in {args.processes} process(es) over 127.0.0.1")
        print(f"  games/s over TCP     {res['tcp_games_per_s']:8.2f}   ({res['tcp_wall_s']:.2f} s wall; CPU: server "
              f"{res['server_cpu_s']:.2f} s, agents {res['agents_cpu_s']:.2f} s; {res['requests']} requests)")
        print(f"  added latency        median {lat['median']:.3f} ms, p99 {lat['p99']:.3f} ms, max {lat['max']:.2f} ms (wall)")
        print(f"                       median {cpu['median']:.3f} ms, p99 {cpu['p99']:.3f} ms, max {cpu['max']:.2f} ms "
              f"(server CPU)   target p99 <= {TARGET_P99_MS} ms: {mark(ok)}")
        print(f"  games/s in-process   {res['inprocess_games_per_s']:8.2f}   (the same agents without TCP)")
        print(f"  load average         {res['load_before'][0]:.2f} before, {res['load_after'][0]:.2f} after "
              f"({os.cpu_count()} CPUs)")
    return exit_status([ok], args.check)


if __name__ == "__main__":
    sys.exit(main())
