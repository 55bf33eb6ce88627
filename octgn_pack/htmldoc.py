"""A Markdown document (the profile's generated reference) as one self-contained HTML page, for
OCTGN's document viewer.  Handles what the generated references use: headings, paragraphs, lists,
tables, fenced code, inline code, bold and italics.  Everything else is escaped text."""

from __future__ import annotations

import functools
import html
import re

_STYLE = ("body{font-family:Segoe UI,Arial,sans-serif;margin:1.5em;max-width:60em;color:#1b1b1b}"
          "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;"
          "vertical-align:top}code{background:#f1f1f1;padding:0 .2em}pre{background:#f1f1f1;padding:.5em}")


def _inline(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append("<code>" + html.escape(part[1:-1]) + "</code>")
        else:
            t = html.escape(part)
            t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
            t = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", t)
            out.append(t)
    return "".join(out)


def _cells(line: str) -> list[str]:
    body = line.strip().strip("|")
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


@functools.lru_cache(maxsize=8)  # the profile's reference, the same on every build: converted once a process
def markdown_html(text: str, title: str) -> bytes:
    lines = text.splitlines()
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>' + html.escape(title) + "</title>",
           "<style>" + _STYLE + "</style></head><body>"]
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append("<pre>" + html.escape("\n".join(lines[i + 1:j])) + "</pre>")
            i = j + 1
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", line)
        if m:
            flush()
            n = len(m.group(1))
            out.append(f"<h{n}>{_inline(m.group(2))}</h{n}>")
        elif line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|?\s*$", lines[i + 1]):
            flush()
            out.append("<table><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in _cells(line)) + "</tr>")
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                out.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in _cells(lines[i])) + "</tr>")
                i += 1
            out.append("</table>")
            continue
        elif re.match(r"^\s*[-*]\s+", line):
            flush()
            out.append("<ul>")
            while i < len(lines) and re.match(r"^\s*[-*]\s+", lines[i]):
                out.append("<li>" + _inline(re.sub(r"^\s*[-*]\s+", "", lines[i])) + "</li>")
                i += 1
            out.append("</ul>")
            continue
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
        i += 1
    flush()
    out.append("</body></html>")
    return ("\n".join(out) + "\n").encode("utf-8")
