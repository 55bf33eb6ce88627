"""Long-run fuzzer of the front ends and the runtime (README.md beside this file).

    python tools/fuzz/run.py --target compiler --inputs 100000 [--jobs 2] [--seed 1]
    python tools/fuzz/run.py --target games --inputs 5000 --timeout 10 --memory 1024
    python tools/fuzz/run.py --target wwrf --corpus PATH_TO_WWRF_EXAMPLES --hours 8

Each input is generated here (grammar-aware mutation of the target's seeds, tools/fuzz/mutate.py)
and run in a worker subprocess (tools/fuzz/worker.py) under a wall-clock limit (``--timeout``) and
an address-space limit (``--memory``, RLIMIT_AS).  A crash, a hang (killed at the timeout), a worker
that dies, or an input slower than ``--slow`` seconds is a finding: the input is saved as files under
``--crashes DIR/<target>/<kind>-<signature>/<n>/`` with ``finding.txt``, and the campaign goes on
with a new worker.  Progress goes to stderr every ``--progress`` seconds; the summary (inputs,
outcomes, findings by signature, slowest input, peak RSS, time) to stdout, or as JSON with ``--json``.
Exit status: 0 without findings, 1 with findings, 2 on bad usage.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import targets as T  # noqa: E402

SETUP_TIMEOUT = 120.0


class Worker:
    def __init__(self, target, corpus, memory_mb, log):
        self.target = target
        limit = int(memory_mb * 1024 * 1024)

        def limits():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            os.setsid()

        cmd = [sys.executable, str(HERE / "worker.py"), target]
        if corpus:
            cmd += ["--corpus"] + [str(c) for c in corpus]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                     preexec_fn=limits, cwd=str(ROOT))
        self.job = None        # (index, input) running
        self.started = None
        self.ready = False
        self.born = time.monotonic()

    def fileno(self):
        return self.proc.stdout.fileno()

    def send(self, index, inp):
        data = json.dumps({"input": inp}, ensure_ascii=True).encode("ascii")
        self.proc.stdin.write(struct.pack(">I", len(data)) + data)
        self.proc.stdin.flush()
        self.job = (index, inp)
        self.started = time.monotonic()

    def read(self):
        head = _read_exact(self.proc.stdout, 4)
        if head is None:
            return None
        (n,) = struct.unpack(">I", head)
        body = _read_exact(self.proc.stdout, n)
        return None if body is None else json.loads(body.decode("ascii"))

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()


def _read_exact(fh, n):
    buf = b""
    while len(buf) < n:
        chunk = fh.read(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


class Campaign:
    def __init__(self, args):
        self.args = args
        self.target = T.TARGETS[args.target](args.corpus)
        self.target.corpus()
        if not self.target.seeds:
            raise SystemExit("fuzz: target %s has no seed inputs" % args.target)
        self.rng = random.Random("%s:%s" % (args.target, args.seed))
        self.crash_dir = Path(args.crashes) / args.target
        self.counts = {"ok": 0, "refused": 0, "crash": 0, "timeout": 0, "died": 0, "slow": 0}
        self.findings = {}     # signature -> {"kind", "count", "saved": [paths], "first": detail}
        self.slowest = (0.0, None, None)
        self.slowest_wall = 0.0
        self.peak_rss = 0.0
        self.done = 0
        self.started = time.monotonic()
        self.restarts = 0
        self.log = open(os.devnull, "wb") if not args.worker_log else open(args.worker_log, "ab")

    # ------------------------------------------------------------------ findings
    def _save(self, kind, sig, index, inp, detail, seconds):
        entry = self.findings.setdefault(sig, {"kind": kind, "count": 0, "saved": [], "detail": detail,
                                                "seconds": seconds})
        entry["count"] += 1
        if len(entry["saved"]) >= self.args.max_saved:
            return None
        slug = re.sub(r"[^A-Za-z0-9]+", "-", sig)[:60].strip("-")
        h = hashlib.sha1(sig.encode("utf-8")).hexdigest()[:8]
        d = self.crash_dir / ("%s-%s-%s" % (kind, slug, h)) / str(index)
        d.mkdir(parents=True, exist_ok=True)
        for rel, text in inp["files"].items():
            p = d / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8", errors="surrogatepass")
        meta = dict((k, v) for k, v in inp.items() if k != "files")
        (d / "finding.txt").write_text(
            "target: %s\nkind: %s\nsignature: %s\ninput: %d (seed %s)\nseconds: %.3f\nmeta: %s\n\n%s\n" % (
                self.args.target, kind, sig, index, self.args.seed, seconds, json.dumps(meta),
                detail or ""), encoding="utf-8")
        (d / "input.json").write_text(json.dumps(inp, ensure_ascii=True), encoding="ascii")
        entry["saved"].append(str(d))
        return str(d)

    def _result(self, index, inp, reply):
        # wall-clock seconds, or the worker's CPU seconds (--slow-clock cpu: on a machine shared with
        # other jobs, what the input costs rather than how long it waited for a core)
        secs = reply["cpu_seconds"] if self.args.slow_clock == "cpu" and "cpu_seconds" in reply else reply["seconds"]
        self.slowest_wall = max(self.slowest_wall, reply["seconds"])
        self.peak_rss = max(self.peak_rss, reply.get("rss_mb") or 0.0)
        status = reply["status"]
        self.counts[status] += 1
        path = None
        if status == "crash":
            path = self._save("crash", reply["signature"], index, inp, reply["detail"], secs)
        if secs > self.args.slow:
            self.counts["slow"] += 1
            p = self._save("slow", "slow input (%s)" % (reply.get("signature") or status), index, inp,
                           "took %.2f s (limit %.1f s)\n%s" % (secs, self.args.slow, json.dumps(reply.get("info"))),
                           secs)
            path = path or p
        if secs > self.slowest[0]:
            if path is None and self.args.keep_slowest:
                path = self._keep_slowest(index, inp, secs)
            self.slowest = (secs, index, path)

    def _keep_slowest(self, index, inp, secs):
        d = self.crash_dir / "slowest"
        d.mkdir(parents=True, exist_ok=True)
        (d / "input.json").write_text(json.dumps(inp, ensure_ascii=True), encoding="ascii")
        (d / "finding.txt").write_text("slowest input so far: %d, %.3f s\n" % (index, secs), encoding="utf-8")
        return str(d)

    # ------------------------------------------------------------------ the loop
    def _spawn(self):
        return Worker(self.args.target, self.args.corpus, self.args.memory, self.log)

    def run(self):
        args = self.args
        n_jobs = max(1, args.jobs)
        for _ in range(args.start):  # a resumed campaign: the inputs already run, generated and skipped
            self.target.generate(self.rng)
        workers = [self._spawn() for _ in range(n_jobs)]
        next_index = args.start
        ahead = []             # an input generated before a worker is free for it
        last_progress = time.monotonic()
        deadline = self.started + args.hours * 3600 if args.hours else None
        try:
            while True:
                finished = self.done >= args.inputs - args.start or (deadline is not None and time.monotonic() > deadline)
                if finished and not any(w.job for w in workers):
                    break
                for i, w in enumerate(workers):
                    if w.ready and w.job is None and not finished and next_index < args.inputs:
                        inp = ahead.pop() if ahead else self.target.generate(self.rng)
                        try:
                            w.send(next_index, inp)
                        except (BrokenPipeError, OSError):
                            self._died(w, (next_index, inp))
                            workers[i] = self._spawn()
                        next_index += 1
                if not ahead and not finished and next_index < args.inputs and any(w.job for w in workers):
                    # the next input is generated while the workers run theirs (the same inputs in the
                    # same order: only the time they are made moves)
                    ahead.append(self.target.generate(self.rng))
                now = time.monotonic()
                waits = []
                for w in workers:
                    if not w.ready:
                        waits.append(w.born + SETUP_TIMEOUT - now)
                    elif w.job is not None:
                        waits.append(w.started + args.timeout - now)
                timeout = max(0.0, min(waits)) if waits else 0.5
                busy = [w for w in workers if w.job is not None or not w.ready]
                readable, _, _ = select.select(busy, [], [], min(timeout, 1.0)) if busy else ([], [], [])
                for w in readable:
                    msg = w.read()
                    i = workers.index(w)
                    if msg is None:
                        if not w.ready:
                            w.kill()
                            raise SystemExit("fuzz: a %s worker died during set-up (see --worker-log)" % args.target)
                        self._died(w, w.job)
                        workers[i] = self._spawn()
                        continue
                    if "ready" in msg:
                        w.ready = True
                        continue
                    job = w.job
                    w.job = None
                    self.done += 1
                    self._result(job[0], job[1], msg)
                    if msg["status"] == "crash" and msg["signature"] and msg["signature"].startswith("MemoryError"):
                        w.close()
                        workers[i] = self._spawn()
                        self.restarts += 1
                now = time.monotonic()
                for i, w in enumerate(workers):
                    if w.job is not None and now - w.started > args.timeout:
                        job = w.job
                        w.kill()
                        self.done += 1
                        self.counts["timeout"] += 1
                        self._save("timeout", "timeout (over %.0f s)" % args.timeout, job[0], job[1],
                                   "killed after %.1f s" % (now - w.started), now - w.started)
                        self.slowest = max(self.slowest, (now - w.started, job[0], None), key=lambda t: t[0])
                        workers[i] = self._spawn()
                        self.restarts += 1
                    elif not w.ready and now - w.born > SETUP_TIMEOUT:
                        w.kill()
                        raise SystemExit("fuzz: a %s worker did not start in %.0f s" % (args.target, SETUP_TIMEOUT))
                if args.progress and time.monotonic() - last_progress >= args.progress:
                    last_progress = time.monotonic()
                    self._progress()
        finally:
            for w in workers:
                if w.job is None:
                    w.close()
                else:
                    w.kill()
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
        self.peak_rss = max(self.peak_rss, children)
        return self.summary()

    def _died(self, w, job):
        rc = w.proc.poll()
        if rc is None:
            w.kill()
            rc = w.proc.returncode
        self.restarts += 1
        if job is None:
            return
        self.done += 1
        self.counts["died"] += 1
        sig = "worker died (exit status %s)" % rc
        self._save("died", sig, job[0], job[1], "the worker process ended while running this input", 0.0)

    def _progress(self):
        el = time.monotonic() - self.started
        n_find = sum(e["count"] for e in self.findings.values())
        sys.stderr.write("fuzz %s: %d/%d inputs, %.0f/s, %d findings (%d unique), slowest %.2f s, peak RSS %.0f MB, %.0f s\n" % (
            self.args.target, self.args.start + self.done, self.args.inputs, self.done / el if el else 0.0, n_find,
            len(self.findings), self.slowest[0], self.peak_rss, el))
        sys.stderr.flush()

    def summary(self):
        el = time.monotonic() - self.started
        return {"target": self.args.target, "seed": self.args.seed, "inputs": self.done, "start": self.args.start,
                "seconds": round(el, 1), "inputs_per_s": round(self.done / el, 1) if el else 0.0,
                "outcomes": self.counts, "findings": self.findings,
                "unique_findings": len(self.findings),
                "slowest": {"seconds": round(self.slowest[0], 3), "input": self.slowest[1],
                            "saved": self.slowest[2], "clock": self.args.slow_clock,
                            "wall_seconds": round(self.slowest_wall, 3)},
                "peak_rss_mb": round(self.peak_rss, 1), "worker_restarts": self.restarts,
                "limits": {"timeout_s": self.args.timeout, "slow_s": self.args.slow, "slow_clock": self.args.slow_clock,
                           "memory_mb": self.args.memory}}


def render(s):
    lines = ["fuzz %s: %d inputs in %.1f s (%.1f/s), seed %s" % (s["target"], s["inputs"], s["seconds"],
                                                               s["inputs_per_s"], s["seed"]),
             "  outcomes: " + ", ".join("%s %d" % kv for kv in s["outcomes"].items()),
             "  slowest input: %.3f s (input %s)%s" % (s["slowest"]["seconds"], s["slowest"]["input"],
                                                      (" saved in " + s["slowest"]["saved"]) if s["slowest"]["saved"] else ""),
             "  peak RSS: %.0f MB (limit %d MB); worker restarts: %d" % (s["peak_rss_mb"], s["limits"]["memory_mb"],
                                                                          s["worker_restarts"]),
             "  findings: %d unique" % s["unique_findings"]]
    for sig, e in sorted(s["findings"].items(), key=lambda kv: -kv[1]["count"]):
        lines.append("    %5d x %s: %s" % (e["count"], e["kind"], sig))
        if e["saved"]:
            lines.append("          e.g. %s" % e["saved"][0])
    return "\n".join(lines)


def replay_saved(path, args):
    """Run one saved input again (``--replay DIR``) in a worker and print its outcome."""
    inp = json.loads((Path(path) / "input.json").read_text(encoding="ascii"))
    w = Worker(args.target, args.corpus, args.memory, open(os.devnull, "wb"))
    msg = w.read()
    if msg is None or "ready" not in msg:
        raise SystemExit("fuzz: the worker did not start")
    w.send(0, inp)
    ready, _, _ = select.select([w], [], [], args.timeout)
    if not ready:
        w.kill()
        print("timeout (over %.0f s)" % args.timeout)
        return 1
    msg = w.read()
    w.close()
    if msg is None:
        print("worker died")
        return 1
    print("%s %.3f s%s" % (msg["status"], msg["seconds"], (": " + msg["signature"]) if msg["signature"] else ""))
    if msg["detail"]:
        print(msg["detail"])
    return 0 if msg["status"] != "crash" else 1


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/fuzz/run.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", required=True, choices=sorted(T.TARGETS))
    ap.add_argument("--inputs", type=int, default=1000, help="number of inputs (default 1000)")
    ap.add_argument("--start", type=int, default=0,
                    help="resume a stopped campaign of the same --seed: generate and skip its first START inputs, "
                         "then run inputs START to --inputs (their indices as in the whole campaign)")
    ap.add_argument("--hours", type=float, default=0, help="stop after this many hours (with --inputs as a cap)")
    ap.add_argument("--seed", default="1", help="seed of the input generator (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds before an input is killed as a hang (default 10)")
    ap.add_argument("--slow", type=float, default=2.0, help="seconds above which an input is a slow finding (default 2)")
    ap.add_argument("--slow-clock", choices=["wall", "cpu"], default="wall",
                    help="what --slow and the slowest input measure: wall-clock or the worker's CPU seconds "
                         "(default wall; cpu on a machine shared with other jobs)")
    ap.add_argument("--memory", type=float, default=1024, help="address-space limit per worker in MB (default 1024)")
    ap.add_argument("--crashes", default=str(HERE / "crashes"), help="where findings are saved (default tools/fuzz/crashes)")
    ap.add_argument("--max-saved", type=int, default=3, help="inputs saved per finding signature (default 3)")
    ap.add_argument("--corpus", action="append", default=[], help="more seed files or folders (wwrf: example files)")
    ap.add_argument("--progress", type=float, default=10.0, help="seconds between progress lines (0: none)")
    ap.add_argument("--keep-slowest", action="store_true", help="also save the slowest input")
    ap.add_argument("--scratch", help="folder for the inputs' temporary folders (default /dev/shm when "
                    "writable, else the system's temporary folder)")
    ap.add_argument("--worker-log", help="append the workers' stderr to this file")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--replay", metavar="DIR", help="run one saved finding again and print its outcome")
    args = ap.parse_args(argv)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # the generator writes huge numbers (the workers keep the default)
    # the workers' temporary folders go into one scratch folder of this run, removed at its end: a
    # worker killed at the timeout or the memory limit cannot clean up after itself
    scratch = tempfile.mkdtemp(prefix="rulescript-fuzz-", dir=_scratch_parent(args.scratch))
    os.environ["TMPDIR"] = scratch  # inherited by the workers
    try:
        return _run(args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _scratch_parent(wanted):
    """Where the run's scratch folder goes: ``--scratch``, else a memory file system when the machine has
    one (/dev/shm: creating and removing an input's folders there takes a fiftieth of the time it takes
    on a disk, where it was most of an input's wall time), else the system's temporary folder."""
    if wanted:
        return wanted
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


def _run(args):
    if args.replay:
        return replay_saved(args.replay, args)
    if args.hours and args.inputs == 1000:
        args.inputs = 10 ** 12
    # a campaign stopped with SIGTERM still ends its workers and prints its summary
    signal.signal(signal.SIGTERM, lambda signum, frame: (_ for _ in ()).throw(KeyboardInterrupt()))
    campaign = Campaign(args)
    try:
        summary = campaign.run()
    except KeyboardInterrupt:
        summary = campaign.summary()
        summary["interrupted"] = True
    print(json.dumps(summary, indent=1) if args.json else render(summary))
    return 1 if summary["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
