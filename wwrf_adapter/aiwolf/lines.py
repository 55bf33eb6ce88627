"""Bounded line reading for protocol connections.

:class:`LineBuffer` is the sans-I/O core: feed it bytes, get complete lines. It never holds more than
``limit`` bytes of an unfinished line: a longer line raises :class:`LineTooLong` at once, an error
for that connection only. :class:`SocketLines` (blocking sockets) and :class:`StreamLines`
(asyncio streams) put it on a connection.
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque

from .jsoncodec import ProtocolError

DEFAULT_LIMIT = 1 << 20  # 1 MiB: a server's gameInfo with a whole day of talk fits many times
CHUNK = 1 << 16


class LineTooLong(ProtocolError):
    pass


class LineBuffer:
    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        if limit < 1:
            raise ValueError("the line limit must be positive")
        self.limit = limit
        self._buf = bytearray()
        self._lines: deque[str] = deque()

    def feed(self, data: bytes) -> None:
        """Add received bytes; complete lines become available through :meth:`pop`."""
        start = len(self._buf)
        self._buf += data
        while True:
            nl = self._buf.find(b"\n", start)
            if nl < 0:
                break
            if nl > self.limit:
                self._fail(nl)
            raw = bytes(self._buf[:nl])
            del self._buf[:nl + 1]
            start = 0
            self._lines.append(_decode(raw[:-1] if raw.endswith(b"\r") else raw))
        if len(self._buf) > self.limit:
            self._fail(len(self._buf))

    def _fail(self, size: int) -> None:
        self._buf.clear()
        raise LineTooLong(f"a line longer than {self.limit} bytes ({size}+ bytes without a newline)")

    def pop(self) -> str | None:
        """The oldest complete line, or None when there is none yet."""
        return self._lines.popleft() if self._lines else None

    def finish(self) -> str | None:
        """At the end of the input: an unfinished last line, or None."""
        if not self._buf:
            return None
        raw = bytes(self._buf)
        self._buf.clear()
        return _decode(raw)

    @property
    def buffered(self) -> int:
        return len(self._buf)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"a line that is not UTF-8 (byte {exc.start})") from None


class SocketLines:
    """Lines from a blocking socket; ``readline`` returns None at the end of the connection."""

    def __init__(self, sock: socket.socket, limit: int = DEFAULT_LIMIT) -> None:
        self.sock = sock
        self.buffer = LineBuffer(limit)
        self._eof = False

    def readline(self) -> str | None:
        while True:
            line = self.buffer.pop()
            if line is not None or self._eof:
                return line
            data = self.sock.recv(CHUNK)
            if not data:
                self._eof = True
                return self.buffer.finish()
            self.buffer.feed(data)


class StreamLines:
    """Lines from an asyncio stream; ``readline`` returns None at the end of the stream."""

    def __init__(self, reader: asyncio.StreamReader, limit: int = DEFAULT_LIMIT) -> None:
        self.reader = reader
        self.buffer = LineBuffer(limit)
        self._eof = False

    async def readline(self) -> str | None:
        while True:
            line = self.buffer.pop()
            if line is not None or self._eof:
                return line
            data = await self.reader.read(CHUNK)
            if not data:
                self._eof = True
                return self.buffer.finish()
            self.buffer.feed(data)
