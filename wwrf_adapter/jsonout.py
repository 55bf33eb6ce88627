"""AST → plain JSON data (schema in ``docs/wwrf-ast.md``)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rulescript.diagnostics import Span


def _span(sp: Span) -> dict[str, Any]:
    return {"file": sp.file, "line": sp.line, "col": sp.col, "end_col": sp.end_col}


def to_data(node: Any, spans: bool = True) -> Any:
    """Convert a node (or list/dict of nodes) to JSON-compatible data.

    Every dataclass becomes an object with ``"node"`` set to its class name; ``span`` becomes
    ``{"file", "line", "col", "end_col"}`` (omitted when ``spans`` is False or unknown)."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        if isinstance(node, Span):
            return _span(node)
        out: dict[str, Any] = {"node": type(node).__name__}
        for f in dataclasses.fields(node):
            val = getattr(node, f.name)
            if f.name == "span":
                if spans and val is not None:
                    out["span"] = _span(val)
                continue
            out[f.name] = to_data(val, spans)
        return out
    if isinstance(node, list):
        return [to_data(v, spans) for v in node]
    if isinstance(node, dict):
        return {str(k): to_data(v, spans) for k, v in node.items()}
    return node


def dumps(node: Any, spans: bool = True) -> str:
    return json.dumps(to_data(node, spans), ensure_ascii=False, indent=2)
