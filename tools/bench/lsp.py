"""Benchmark of the language server: change-to-diagnostics, hover and completion times over stdio.

    python tools/bench/lsp.py [--rules 1000] [--changes 100] [--requests 200] [--seed 11]
                              [--json] [--check]

Set-up (not timed): ``_gen_cards.py`` writes a game folder of ``--rules`` generated cards into a
temporary folder (``rules/gen-NNN.ini``, 100 rules a file), then ``rulescript lsp`` is started as a
subprocess and driven over its stdin and stdout by a small JSON-RPC client in this script (the same
bytes an editor sends).  The first ``rules/gen-000.ini`` is opened: its first diagnostics need a full
cold compile of the game (reported as the baseline, ``open_ms``).

Timed, with ``time.perf_counter`` from just before the request is written to the moment its answer
(or the ``publishDiagnostics`` of the changed file) has been read:

* change → diagnostics: ``--changes`` incremental edits (``didChange`` with a range) of one rule
  each, going round the first three rule files (all open); every other edit turns a command name
  into a typo (an RS201 error with a "did you mean") and the next one puts it back, so the
  diagnostics really change;
* hover: ``--requests`` hovers on commands and card ids of the open files;
* completion: ``--requests`` completions after ``: `` (commands) and after ``@`` (zones);
* cards.yaml: ``--changes // 10`` edits of a card's name in ``cards.yaml`` (re-checks the whole game:
  its 1,000-card YAML is parsed again), reported apart, without a target.

Targets: change → diagnostics p95 ≤ 100 ms; hover and completion p95 ≤ 50 ms (printed PASS/FAIL;
``--check`` exits 1 on FAIL).  JSON keys: ``rules``, ``open_ms``, ``change_ms``, ``hover_ms``,
``completion_ms``, ``cards_change_ms`` (each ``p50``, ``p95``, ``mean``, ``max``, ``n``),
``server_cpu_ms`` (the server's mean CPU time per change, hover and completion, read from /proc:
what the server itself spent, apart from waiting for a busy machine), ``load_average`` (the 1-minute
load at the end: the wall-clock numbers mean little on a machine that is busy with other work),
``targets_ms``, ``pass``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _gen_cards import generate  # noqa: E402
from _verdict import exit_status, mark  # noqa: E402

TARGETS = {"change": 100.0, "hover": 50.0, "completion": 50.0}


class Client:
    """A minimal language client over a subprocess's pipes (requests are answered in order)."""

    def __init__(self, cwd: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-m", "rulescript", "lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.diagnostics: dict[str, list[Any]] = {}

    def send(self, method: str, params: Any, request: bool = False) -> int | None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        rid = None
        if request:
            self.next_id += 1
            rid = msg["id"] = self.next_id
        body = json.dumps(msg).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return rid

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def request(self, method: str, params: Any) -> Any:
        rid = self.send(method, params, request=True)
        while True:
            msg = self.read()
            if msg.get("id") == rid and "method" not in msg:
                return msg.get("result")
            self._note(msg)

    def wait_diagnostics(self, uri: str) -> list[Any]:
        while True:
            msg = self.read()
            if self._note(msg) == uri:
                return self.diagnostics[uri]

    def _note(self, msg: dict[str, Any]) -> str | None:
        if msg.get("method") == "textDocument/publishDiagnostics":
            self.diagnostics[msg["params"]["uri"]] = msg["params"]["diagnostics"]
            return msg["params"]["uri"]
        if "id" in msg and "method" in msg:  # a request from the server: answer it
            self.send_response(msg["id"])
        return None

    def send_response(self, rid: Any) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": None}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def cpu_ms(self) -> float:
        """The server's CPU time so far (user + system, from /proc; 0 where there is none)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.send("exit", None)
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - the numbers are taken; make sure the process is gone
            self.proc.kill()


def uri_of(path: Path) -> str:
    from urllib.parse import quote

    return "file://" + quote(str(path.resolve()))


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(pct(values, 0.5), 2), "p95": round(pct(values, 0.95), 2),
            "mean": round(statistics.mean(values), 2), "max": round(max(values), 2), "n": len(values)}


_COMMAND = re.compile(r"(?<=[:;] )(damage|draw|freeze|bp|sp|discard)\(")


def run(n_rules: int, changes: int, requests: int, seed: int) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="lsp-bench-"))
    game = tmp / "game"
    generate(game, n_rules, seed)
    files = sorted((game / "rules").glob("*.ini"))[:3]
    texts = {f: f.read_text(encoding="utf-8") for f in files}
    client = Client(tmp)
    client.request("initialize", {"processId": os.getpid(), "rootUri": uri_of(tmp), "capabilities": {}})
    client.send("initialized", {})
    t0 = time.perf_counter()
    for i, f in enumerate(files):
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri_of(f), "languageId": "ini", "version": 1,
                                                              "text": texts[f]}})
        client.wait_diagnostics(uri_of(f))
        if i == 0:
            open_ms = (time.perf_counter() - t0) * 1000
    # every command of the open files: (file, line, column) of its first letter
    spots = [(f, i, m.start()) for f in files for i, line in enumerate(texts[f].split("\n"))
             for m in _COMMAND.finditer(line)]
    versions = {f: 1 for f in files}
    change_ms: list[float] = []
    cpu: dict[str, float] = {}
    typo_at: tuple[Path, int, int] | None = None
    k = 0
    for n in range(2 * ((changes + 1) // 2) + 6):  # the first six warm the caches up, untimed; an even count ends clean
        if typo_at is None:
            f, line, col = spots[(k * 7919) % len(spots)]
            k += 1
            # an "x" before the command's name: damage( → xdamage(, an unknown command
            edit = ({"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}, "x")
            typo_at = (f, line, col)
        else:
            f, line, col = typo_at
            edit = ({"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "")
            typo_at = None
        versions[f] += 1
        start = time.perf_counter()
        client.send("textDocument/didChange", {
            "textDocument": {"uri": uri_of(f), "version": versions[f]},
            "contentChanges": [{"range": edit[0], "text": edit[1]}]})
        diags = client.wait_diagnostics(uri_of(f))
        took = (time.perf_counter() - start) * 1000
        if typo_at is not None and not any(d["code"] == "RS201" for d in diags):
            raise RuntimeError(f"the typo at {f.name}:{line + 1} was not reported: {diags[:2]}")
        if n == 5:
            cpu0 = client.cpu_ms()
        if n >= 6:
            change_ms.append(took)
    cpu["change"] = (client.cpu_ms() - cpu0) / max(1, changes)
    cpu0 = client.cpu_ms()
    hover_ms: list[float] = []
    for n in range(requests):
        f, line, col = spots[(n * 104729) % len(spots)]
        if n % 2:  # a card id: the section header above the command
            lines = texts[f].split("\n")
            line = max(i for i in range(line + 1) if lines[i].startswith("["))
            col = 2
        start = time.perf_counter()
        got = client.request("textDocument/hover", {"textDocument": {"uri": uri_of(f)},
                                                    "position": {"line": line, "character": col + 1}})
        hover_ms.append((time.perf_counter() - start) * 1000)
        if not got:
            raise RuntimeError(f"no hover at {f.name}:{line + 1}:{col + 2}")
    cpu["hover"] = (client.cpu_ms() - cpu0) / max(1, requests)
    cpu0 = client.cpu_ms()
    completion_ms: list[float] = []
    for n in range(requests):
        f, line, col = spots[(n * 15485863) % len(spots)]
        text_line = texts[f].split("\n")[line]
        at = text_line.find("@")
        char = at + 1 if n % 2 and at >= 0 else col
        start = time.perf_counter()
        got = client.request("textDocument/completion", {"textDocument": {"uri": uri_of(f)},
                                                         "position": {"line": line, "character": char}})
        completion_ms.append((time.perf_counter() - start) * 1000)
        if not got or not got.get("items"):
            raise RuntimeError(f"no completion at {f.name}:{line + 1}:{char + 1}")
    cpu["completion"] = (client.cpu_ms() - cpu0) / max(1, requests)
    cards = game / "cards.yaml"
    ctext = cards.read_text(encoding="utf-8")
    client.send("textDocument/didOpen", {"textDocument": {"uri": uri_of(cards), "languageId": "yaml", "version": 1,
                                                          "text": ctext}})
    client.wait_diagnostics(uri_of(cards))
    clines = ctext.split("\n")
    name_lines = [i for i, ln in enumerate(clines) if ln.startswith("    name: ")]
    cards_ms: list[float] = []
    for n in range(max(1, changes // 10)):
        line = name_lines[(n * 31) % len(name_lines)]
        col = clines[line].index('"') + 1
        start = time.perf_counter()
        client.send("textDocument/didChange", {
            "textDocument": {"uri": uri_of(cards), "version": n + 2},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": col}}, "text": "X"}]})
        client.wait_diagnostics(uri_of(cards))
        cards_ms.append((time.perf_counter() - start) * 1000)
    client.close()
    res = {"rules": n_rules, "open_ms": round(open_ms, 1), "change_ms": summary(change_ms),
           "hover_ms": summary(hover_ms), "completion_ms": summary(completion_ms),
           "cards_change_ms": summary(cards_ms),
           "server_cpu_ms": {k: round(v, 2) for k, v in cpu.items()},
           "load_average": round(os.getloadavg()[0], 1), "targets_ms": {f"{k}_p95": v for k, v in TARGETS.items()}}
    res["pass"] = (res["change_ms"]["p95"] <= TARGETS["change"] and res["hover_ms"]["p95"] <= TARGETS["hover"]
                   and res["completion_ms"]["p95"] <= TARGETS["completion"])
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", type=int, default=1000)
    ap.add_argument("--changes", type=int, default=100)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)
    res = run(args.rules, args.changes, args.requests, args.seed)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(f"rulescript lsp on a generated {res['rules']}-card game (over stdio)")
        print(f"  open (full cold compile, the baseline): {res['open_ms']:.0f} ms")
        for key, label, target in (("change_ms", "change → diagnostics", TARGETS["change"]),
                                   ("hover_ms", "hover", TARGETS["hover"]),
                                   ("completion_ms", "completion", TARGETS["completion"])):
            s = res[key]
            ok = mark(s["p95"] <= target)
            print(f"  {label:<22} p50 {s['p50']:7.1f} ms  p95 {s['p95']:7.1f} ms  max {s['max']:7.1f} ms  "
                  f"(n={s['n']}; target p95 ≤ {target:.0f} ms: {ok}; p95 = {s['p95'] / res['open_ms']:.3f} × open; "
                  f"server CPU {res['server_cpu_ms'][key[:-3]]:.1f} ms each)")
        s = res["cards_change_ms"]
        print(f"  cards.yaml change      p50 {s['p50']:7.1f} ms  p95 {s['p95']:7.1f} ms  (n={s['n']}; no target: "
              "the whole card list is parsed again)")
        print(f"  load average: {res['load_average']} (on {os.cpu_count()} cores)")
    return exit_status([res["pass"]], args.check)


if __name__ == "__main__":
    sys.exit(main())
