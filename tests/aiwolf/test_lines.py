"""The bounded line reader: lines split anywhere, a limit that holds, errors for one connection only."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from wwrf_adapter.aiwolf.jsoncodec import ProtocolError
from wwrf_adapter.aiwolf.lines import LineBuffer, LineTooLong, SocketLines, StreamLines


def drain(buf: LineBuffer) -> list[str]:
    out = []
    while (line := buf.pop()) is not None:
        out.append(line)
    return out


def test_lines_split_across_chunks_and_crlf() -> None:
    buf = LineBuffer(100)
    data = "NAME\r\n{\"a\":1}\n\nthé end\n".encode()
    for i in range(len(data)):
        buf.feed(data[i:i + 1])
    assert drain(buf) == ["NAME", '{"a":1}', "", "thé end"]
    buf.feed(b"partial")
    assert buf.pop() is None and buf.finish() == "partial" and buf.finish() is None


def test_a_line_at_the_limit_passes_and_one_byte_more_fails_before_its_newline() -> None:
    buf = LineBuffer(10)
    buf.feed(b"x" * 10 + b"\n")
    assert buf.pop() == "x" * 10
    buf.feed(b"y" * 10)
    with pytest.raises(LineTooLong):
        buf.feed(b"y")  # no newline yet: the reader does not wait for one
    assert buf.buffered == 0


def test_an_overlong_line_inside_one_chunk_fails() -> None:
    buf = LineBuffer(10)
    with pytest.raises(LineTooLong):
        buf.feed(b"ok\n" + b"z" * 11 + b"\nnext\n")
    assert buf.pop() == "ok"


def test_the_buffer_never_holds_more_than_the_limit() -> None:
    buf = LineBuffer(1000)
    for _ in range(100):
        buf.feed(b"a" * 9 + b"\n")
        drain(buf)
        assert buf.buffered <= 1000
    with pytest.raises(LineTooLong):
        for _ in range(1000):
            buf.feed(b"b" * 100)
            assert buf.buffered <= 1000


def test_bad_utf8_is_a_protocol_error() -> None:
    buf = LineBuffer(100)
    with pytest.raises(ProtocolError, match="not UTF-8"):
        buf.feed(b"ok\xff\n")


def test_socket_lines() -> None:
    a, b = socket.socketpair()
    with a, b:
        reader = SocketLines(a, limit=64)

        def write() -> None:
            b.sendall(b"one\ntw")
            b.sendall(b"o\nthree")
            b.shutdown(socket.SHUT_WR)

        t = threading.Thread(target=write)
        t.start()
        assert [reader.readline(), reader.readline(), reader.readline(), reader.readline()] == \
            ["one", "two", "three", None]
        t.join()


def test_socket_lines_overlong() -> None:
    a, b = socket.socketpair()
    with a, b:
        b.sendall(b"x" * 200)
        with pytest.raises(LineTooLong):
            SocketLines(a, limit=64).readline()


def test_stream_lines() -> None:
    async def run() -> list[str | None]:
        reader = asyncio.StreamReader()
        reader.feed_data(b"a\nb")
        reader.feed_data(b"c\n")
        reader.feed_eof()
        lines = StreamLines(reader, limit=8)
        return [await lines.readline(), await lines.readline(), await lines.readline()]

    assert asyncio.run(run()) == ["a", "bc", None]

    async def overlong() -> None:
        reader = asyncio.StreamReader()
        reader.feed_data(b"123456789")
        await StreamLines(reader, limit=8).readline()

    with pytest.raises(LineTooLong):
        asyncio.run(overlong())
