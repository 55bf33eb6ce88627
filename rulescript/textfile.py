"""Reading a source file as text: UTF-8 (with or without a BOM), UTF-16/32 by their BOM, and a clear
error for anything else (a binary file, UTF-16 without a BOM, bytes that are not UTF-8).

Every front end (rule files, YAML files, WWRF elements, scenario files) reads its files here, so a
wrong file gives the same one-line message everywhere: :class:`NotText` carries it with a line and a
column.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

# (byte-order mark, codec, name): the 4-byte UTF-32 marks come before UTF-16's, which they start with
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"))

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class NotText(ValueError):
    """The bytes of a file are not text this project reads; ``line``/``col`` locate the problem."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def _where(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    return line, len(data[start:offset].decode("utf-8", errors="replace")) + 1


def _looks_wide(head: bytes) -> bool:
    """UTF-16 or UTF-32 text without a byte-order mark: in each group of 2 (or 4) bytes, one position
    is rarely NUL and the others nearly always are (a binary file has NULs everywhere)."""
    for width in (2, 4):
        columns = [head[k::width] for k in range(width)]
        if len(head) < 2 * width or not all(columns):
            continue
        zeros = [c.count(0) / len(c) for c in columns]
        for k in range(width):
            if zeros[k] < 0.25 and all(z > 0.75 for j, z in enumerate(zeros) if j != k):
                return True
    return False


def bom_of(data: bytes) -> tuple[bytes, str]:
    """The byte-order mark a file starts with and the codec of the text after it (b"", "utf-8" when none)."""
    for bom, codec, _name in _BOMS:
        if data.startswith(bom):
            return bom, codec
    return b"", "utf-8"


def decode(data: bytes) -> str:
    """The text of a file's bytes; raises :class:`NotText` with a message that says what the file is."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            if name != "UTF-8":  # one policy for every reader: UTF-8, with or without its byte-order mark
                raise NotText(f"{name} text (it starts with a {name} byte-order mark): save it as UTF-8")
            try:
                return data[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise NotText(f"invalid {name} text (it starts with a {name} byte-order mark): "
                              f"{exc.reason} at byte {exc.start + len(bom)}") from None
    nul = data.find(b"\0")
    if nul >= 0:
        if _looks_wide(data[:400]):
            raise NotText("the file looks like UTF-16 or UTF-32 text without a byte-order mark: "
                          "save it as UTF-8")
        line, col = _where(data, nul)
        raise NotText("not a text file (it holds NUL bytes)", line, col)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _where(data, exc.start)
        raise NotText(f"not UTF-8 text: byte 0x{data[exc.start]:02X} cannot be decoded (save the file as "
                      "UTF-8)", line, col) from None


#: Unsaved editor buffers that readers take instead of the files on disk (absolute path → text).
#: Empty, so without effect, except in the language server (``rulescript lsp``), which keeps the
#: open documents here so that the checkers see what the author sees.
OVERLAY: dict[str, str] = {}


def overlay_text(path: str | Path) -> str | None:
    """The unsaved buffer of ``path`` (see :data:`OVERLAY`), or None."""
    if not OVERLAY:
        return None
    return OVERLAY.get(os.path.abspath(path))


def read_text(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read and :func:`decode` a file (its unsaved buffer, when :data:`OVERLAY` holds one).  OSError
    for a missing or unreadable file; NotText for a file that is not text or larger than ``max_bytes``
    (a device that never ends is cut off there)."""
    buffered = overlay_text(path)
    if buffered is not None:
        return buffered
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise NotText(f"the file is larger than {max_bytes // (1024 * 1024)} MB")
    return decode(data)


def read_located(path: str | Path, code: str = "RD103", max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, "Diagnostic | None"]:
    """The one reading policy of every front end: a file's text, or ``("", diagnostic)`` located at the
    problem (``code`` for text that is not UTF-8, RD100 for a file that cannot be read).  The message
    names the problem (not UTF-8, a binary file, UTF-16 without a byte-order mark) and never quotes
    the file's bytes."""
    from rulescript.diagnostics import Diagnostic, Span

    try:
        return read_text(path, max_bytes), None
    except NotText as exc:
        return "", Diagnostic("error", code, exc.message, Span(str(path), exc.line, exc.col))
    except OSError as exc:
        return "", Diagnostic("error", "RD100", f"cannot read the file: {exc.strerror or exc}", Span(str(path), 1, 1))
