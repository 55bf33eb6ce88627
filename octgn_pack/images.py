"""The images a package needs when the game brings none: card back and front, the proxy template,
the table background, and icons for piles, counters, phases, markers and documents.

PNG files written with ``zlib`` only, byte-for-byte the same on every build: a filled rectangle with
an optional border and rounded corners, or a filled disc, in the game's colours (``octgn.colors``).
"""

from __future__ import annotations

import functools
import struct
import zlib


def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


@functools.lru_cache(maxsize=64)  # the same few images on every build of a game: drawn once a process
def card_png(width: int, height: int, fill: str, border: str | None = None, border_px: int = 0,
             radius: int = 0) -> bytes:
    """A card-shaped image: ``fill`` inside a ``border`` of ``border_px`` pixels, corners of ``radius``."""
    f = bytes(_rgb(fill)) + b"\xff"
    b = bytes(_rgb(border)) + b"\xff" if border else f
    clear = b"\x00\x00\x00\x00"
    inner = (radius - border_px) ** 2
    plain_rows: dict[bool, bytes] = {}
    rows = []
    for y in range(height):
        dy = max(radius - y, y - (height - 1 - radius), 0)
        edge = y < border_px or y >= height - border_px
        if not dy:  # no rounded corner on this row: border, fill, border
            if edge not in plain_rows:
                plain_rows[edge] = b * width if edge else b * border_px + f * (width - 2 * border_px) + b * border_px
            rows.append(plain_rows[edge])
            continue
        row = bytearray()
        for x in range(width):
            dx = max(radius - x, x - (width - 1 - radius), 0)
            d = dx * dx + dy * dy
            if dx and d > radius * radius:
                row += clear
            elif edge or x < border_px or x >= width - border_px or (dx and d > inner):
                row += b
            else:
                row += f
        rows.append(bytes(row))
    return _png(width, height, rows)


@functools.lru_cache(maxsize=64)
def disc_png(size: int, fill: str, ring: str | None = None) -> bytes:
    """A round icon of ``size`` pixels: a ``fill`` disc with an optional one-pixel ``ring``."""
    f = bytes(_rgb(fill)) + b"\xff"
    r_ = bytes(_rgb(ring)) + b"\xff" if ring else f
    c = (size - 1) / 2.0
    outer, inner = (size / 2.0) ** 2, (size / 2.0 - 1.5) ** 2
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            d = (x - c) ** 2 + (y - c) ** 2
            row += f if d <= inner else r_ if d <= outer else b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return _png(size, size, rows)


PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac")


def palette(i: int) -> str:
    """A distinct colour per index (markers, phases), repeating after ten."""
    return PALETTE[i % len(PALETTE)]
