"""A fuzzing worker: runs one target's inputs, one at a time, for tools/fuzz/run.py.

    python tools/fuzz/worker.py TARGET [--corpus PATH ...]

Protocol on stdin/stdout: messages are a 4-byte big-endian length and a JSON object.  The worker
sends ``{"ready": true}`` after its set-up, then answers each ``{"input": {...}}`` with
``{"status": "ok"|"refused"|"crash", "seconds", "cpu_seconds", "rss_mb", "signature", "detail", "info"}``.  After a
MemoryError it answers and exits (its heap may be in pieces); the campaign starts a new worker.
Its memory limit (RLIMIT_AS) is set by the campaign before it starts; anything the front ends print
goes to stderr, never into the protocol.
"""
from __future__ import annotations

import json
import os
import resource
import struct
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import targets as T  # noqa: E402


def send(out, obj):
    data = json.dumps(obj, ensure_ascii=True).encode("ascii")
    out.write(struct.pack(">I", len(data)) + data)
    out.flush()


def recv(inp):
    head = inp.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    data = inp.read(n)
    return json.loads(data.decode("ascii"))


def signature(exc):
    """Exception type and the innermost frame inside the repository: findings with the same
    signature are one bug."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = "?"
    for fr in reversed(tb):
        f = fr.filename
        if f.startswith(str(ROOT)) and "/tools/fuzz/" not in f:
            where = "%s:%s" % (os.path.relpath(f, ROOT), fr.name)
            break
    else:
        if tb:
            where = "%s:%s" % (os.path.basename(tb[-1].filename), tb[-1].name)
    return "%s at %s" % (type(exc).__name__, where)


def main(argv):
    name = argv[0]
    corpus = argv[argv.index("--corpus") + 1:] if "--corpus" in argv else []
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints go to stderr
    proto_in = os.fdopen(os.dup(0), "rb")
    sys.setrecursionlimit(4000)
    target = T.TARGETS[name](corpus)
    target.setup()
    send(proto_out, {"ready": True})
    while True:
        msg = recv(proto_in)
        if msg is None:
            return 0
        inp = msg["input"]
        reply = {"status": "ok", "signature": None, "detail": None, "info": None}
        fatal = False
        t0 = time.perf_counter()
        c0 = time.process_time()
        with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
            try:
                reply["info"] = target.run(inp, tmp)
            except T.Refused as exc:
                reply["status"] = "refused"
                reply["info"] = str(exc)[:200]
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # noqa: BLE001 - everything else is a finding
                fatal = isinstance(exc, MemoryError)
                reply["status"] = "crash"
                reply["signature"] = signature(exc)
                try:
                    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                except BaseException:  # noqa: BLE001 - a traceback that cannot be printed
                    text = type(exc).__name__
                reply["detail"] = text[-6000:]
        reply["seconds"] = time.perf_counter() - t0
        reply["cpu_seconds"] = time.process_time() - c0  # the worker's own CPU time (children excluded)
        reply["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        send(proto_out, reply)
        if fatal:
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
