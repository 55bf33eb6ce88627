"""Python-literal modules that Python 2.7 (and IronPython) and Python 3 read the same way.

``repr()`` of a Python 3 string keeps printable non-ASCII characters, which Python 2.7 rejects in a
file without an encoding declaration and, with one, reads as a byte string.  :func:`py_literal`
writes ASCII only: a string holding non-ASCII characters becomes a ``u'...'`` literal with
``\\u`` escapes (a unicode string on Python 2, the same ``str`` on Python 3), every other value is
written by ``repr``.  :func:`python_module` adds the ``# -*- coding: utf-8 -*-`` line anyway, so a
hand edit with non-ASCII text keeps loading.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

CODING_LINE = "# -*- coding: utf-8 -*-\n"


def py_literal(value: Any) -> str:
    """``value`` (dicts, lists, tuples, strings, ints, finite floats, bools, None) as an ASCII Python
    literal; ValueError for an infinite or NaN float, TypeError for anything else."""
    out: list[str] = []
    _write(value, out.append)
    return "".join(out)


def _write(value: Any, put: Any) -> None:
    if isinstance(value, str):
        if value.isascii():
            put(repr(value))
        else:
            put("u" + ascii(value))
    elif isinstance(value, dict):
        put("{")
        first = True
        for k, v in value.items():
            if not first:
                put(", ")
            first = False
            _write(k, put)
            put(": ")
            _write(v, put)
        put("}")
    elif isinstance(value, (list, tuple)):
        is_list = isinstance(value, list)
        put("[" if is_list else "(")
        for i, v in enumerate(value):
            if i:
                put(", ")
            _write(v, put)
        put("]" if is_list else ",)" if len(value) == 1 else ")")
    elif isinstance(value, float) and not math.isfinite(value):
        # repr gives 'inf'/'nan', a NameError when the module is loaded: the callers check their data first
        raise ValueError(f"{value!r} cannot be written as a Python literal")
    elif value is None or isinstance(value, (bool, int, float)):
        put(repr(value))
    else:
        raise TypeError(f"not plain data: {type(value).__name__}")


def python_module(header: str, assignments: Iterable[tuple[str, Any]]) -> str:
    """A module of ``NAME = literal`` lines after an encoding line and ``header`` (comment lines)."""
    lines = [CODING_LINE.rstrip("\n")]
    lines.extend("# " + h if h and not h.startswith("#") else h for h in header.splitlines())
    for name, value in assignments:
        lines.append(f"{name} = {py_literal(value)}")
    return "\n".join(lines) + "\n"
