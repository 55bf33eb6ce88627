"""Which rules changed between two compiles (source positions aside): what the hot reloaders re-test."""

from __future__ import annotations

from typing import Any

_POSITION_KEYS = frozenset({"src", "at"})


def _strip_positions(ir: Any) -> Any:
    """IR without its source positions, to tell a real change from lines that moved."""
    if isinstance(ir, dict):
        return {k: _strip_positions(v) for k, v in ir.items() if k not in _POSITION_KEYS}
    if isinstance(ir, (list, tuple)):
        return [_strip_positions(v) for v in ir]
    return ir


def changed_rule_ids(old: dict[str, Any] | None, new: dict[str, Any]) -> set[str]:
    """Rule ids (lower case) added, removed, or whose IR changed other than in positions."""
    old = old or {}
    out: set[str] = set()
    for rid in set(old) | set(new):
        a, b = old.get(rid), new.get(rid)
        if a is b:
            continue
        if a is None or b is None or _strip_positions(a) != _strip_positions(b):
            out.add(rid.lower())
    return out
