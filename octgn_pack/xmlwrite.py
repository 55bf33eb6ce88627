"""A small XML writer with exact output: one element per line, attributes in the given order, every
name and text escaped, and the line of each element remembered with the input that caused it.

Element ``origin`` spans (``game.yaml``/``cards.yaml``/a deck) let the validator point a problem of
the generated XML back at the input line that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulescript.diagnostics import Span

_ATTR = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;", "\n": "&#10;"}  # one element per line


def escape_attr(text: str) -> str:
    return "".join(_ATTR.get(c, c) for c in text)


def escape_text(text: str) -> str:
    return "".join(_TEXT.get(c, c) for c in text)


@dataclass
class El:
    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list["El"] = field(default_factory=list)
    text: str | None = None
    origin: Span | None = None

    def add(self, tag: str, *attrs: tuple[str, Any] | None, text: str | None = None,
            origin: Span | None = None) -> "El":
        """Append a child; attributes whose value is None are left out.  Returns the child."""
        el = El(tag, [(k, _attr_text(v)) for a in attrs if a is not None for k, v in [a] if v is not None],
                text=text, origin=origin)
        self.children.append(el)
        return el


def _attr_text(v: Any) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    return str(v)


def el(tag: str, *attrs: tuple[str, Any] | None, origin: Span | None = None) -> El:
    root = El("")
    return root.add(tag, *attrs, origin=origin)


def serialize(root: El, comment: str | None = None) -> tuple[bytes, dict[int, Span]]:
    """The document as UTF-8 bytes and {line: origin span} of the elements that have one."""
    lines = ['<?xml version="1.0" encoding="utf-8"?>']
    if comment:
        lines.append("<!-- " + comment.replace("--", "- -") + " -->")
    origins: dict[int, Span] = {}

    def write(e: El, depth: int) -> None:
        pad = "  " * depth
        if e.origin is not None:
            origins[len(lines) + 1] = e.origin
        head = "<" + e.tag + "".join(f' {k}="{escape_attr(v)}"' for k, v in e.attrs)
        if e.children:
            lines.append(pad + head + ">")
            for c in e.children:
                write(c, depth + 1)
            lines.append(pad + "</" + e.tag + ">")
        elif e.text:
            lines.append(pad + head + ">" + escape_text(e.text) + "</" + e.tag + ">")
        else:
            lines.append(pad + head + " />")

    write(root, 0)
    return ("\n".join(lines) + "\n").encode("utf-8"), origins
