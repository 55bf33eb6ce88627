"""The proxy definition: a generated card template that prints a card's name, its type line, its
stats and its text, so that a game without card art is playable (OCTGN draws every card from it)."""

from __future__ import annotations

from octgn_pack.project import Project
from octgn_pack.xmlwrite import El, el

SCALE = 5  # template pixels per card unit


def template_size(p: Project) -> tuple[int, int]:
    return p.card_width * SCALE, p.card_height * SCALE


def proxydef(p: Project, template_src: str) -> El:
    w, h = template_size(p)
    pad = max(8, w // 20)
    color = p.colors["text"]
    size = max(10, w // 16)
    root = el("templates")
    blocks = root.add("blocks")
    lines = [("name", 2, size + 4), ("type", 1, size - 2), ("stats", 1, size)]
    boxes = []
    y = pad
    for bid, rows, fsize in lines:
        height = rows * (fsize + 8)
        boxes.append((bid, y, height, fsize))
        y += height + 4
    boxes.append(("text", y, h - pad - y, size - 2))
    for bid, by, bh, fsize in boxes:
        b = blocks.add("block", ("type", "text"), ("id", bid))
        b.add("location", ("x", pad), ("y", by))
        b.add("text", ("color", color), ("size", fsize))
        b.add("wordwrap", ("height", bh), ("width", w - 2 * pad))
    t = root.add("template", ("src", template_src), ("default", True))
    tb = t.add("textblocks")
    link = tb.add("link", ("block", "name"))
    link.add("property", ("name", "Name"))
    for bid, sep in (("type", " - "), ("stats", "   ")):
        names = p.proxy.get(bid) or []
        if names:
            link = tb.add("link", ("block", bid), ("separator", sep))
            for n in names:
                link.add("property", ("name", n), ("format", n + " {}") if bid == "stats" else None)
    if p.proxy.get("text"):
        link = tb.add("link", ("block", "text"))
        for n in p.proxy["text"]:
            link.add("property", ("name", n))
    return root
