"""Compiling the shipped scripts with a real Python 2.7 (OCTGN runs IronPython 2.7).

:func:`find_python27` looks for ``python2.7`` on ``PATH``, then ``$PYTHON27``, then pyenv's usual
place, and keeps the first that runs and reports major version 2.  :func:`compile_py27` compiles
many sources in one subprocess and returns ``(name, line, column, message)`` per failure, or None
when no Python 2.7 is available (the caller says the check was skipped).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import shutil
import subprocess

_CANDIDATES = ("/root/.pyenv/versions/2.7.18/bin/python2.7", "/usr/bin/python2.7", "/usr/local/bin/python2.7")
_CHECKER = r'''
import sys, json, base64
out = []
for name, b64 in json.loads(sys.stdin.read()):
    try:
        compile(base64.b64decode(b64), name, "exec")
    except SyntaxError as e:
        out.append([name, e.lineno or 1, e.offset or 1, str(e.msg)])
    except Exception as e:
        out.append([name, 1, 1, "%s: %s" % (type(e).__name__, e)])
sys.stdout.write(json.dumps(out))
'''


@functools.lru_cache(maxsize=None)
def find_python27() -> str | None:
    cands = [shutil.which("python2.7"), os.environ.get("PYTHON27")] + list(_CANDIDATES)
    for c in cands:
        if not c or not os.path.exists(c):
            continue
        try:
            proc = subprocess.run([c, "-c", "import sys; print(sys.version_info[0])"], capture_output=True,
                                  text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode == 0 and proc.stdout.strip() == "2":
            return c
    return None


def compile_py27(sources: dict[str, bytes]) -> list[tuple[str, int, int, str]] | None:
    exe = find_python27()
    if exe is None:
        return None
    payload = json.dumps([[n, base64.b64encode(b).decode("ascii")] for n, b in sorted(sources.items())])
    proc = subprocess.run([exe, "-c", _CHECKER], input=payload, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"{exe} failed: {proc.stderr.strip()[-400:]}")
    return [(n, int(line), int(col), msg) for n, line, col, msg in json.loads(proc.stdout)]
