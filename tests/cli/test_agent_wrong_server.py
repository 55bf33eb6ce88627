"""`aiwolf agent` pointed at a server that is not an AIWolf server: a clear message and exit status 2,
never a hang."""

from __future__ import annotations

import socket
import threading
import time

from tests.cli.conftest import fails, one_line, run

AGENT = "wwrf_adapter.aiwolf.agents:RuleAgent"


class Listener:
    """A TCP server on a free port that accepts connections and sends ``greeting`` (maybe nothing)."""

    def __init__(self, greeting: bytes = b"") -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.greeting = greeting
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            while True:
                conn, _ = self.sock.accept()
                self.conns.append(conn)
                if self.greeting:
                    conn.sendall(self.greeting)
        except OSError:
            pass

    def close(self) -> None:
        for c in self.conns:
            c.close()
        self.sock.close()


def test_a_silent_server_is_reported_after_the_first_wait() -> None:
    server = Listener()
    try:
        t0 = time.monotonic()
        proc = run("aiwolf", "agent", AGENT, "--host", "127.0.0.1", "--port", server.port, "--first-wait", "1",
                   timeout=60)
        took = time.monotonic() - t0
    finally:
        server.close()
    err = fails(proc, 2, f"127.0.0.1:{server.port} is not an AIWolf server: no request within 1 s of connecting")
    assert one_line(err)
    assert took < 30


def test_a_server_speaking_another_protocol_is_reported_at_once() -> None:
    server = Listener(b"SSH-2.0-OpenSSH_9.6\r\n")
    try:
        proc = run("aiwolf", "agent", AGENT, "--host", "127.0.0.1", "--port", server.port, timeout=60)
    finally:
        server.close()
    err = fails(proc, 2, "is not an AIWolf server: its first line is not an AIWolf packet (a JSON object): 'SSH-2.0-OpenSSH_9.6'")
    assert one_line(err)


def test_first_wait_must_be_positive() -> None:
    fails(run("aiwolf", "agent", AGENT, "--port", "1", "--first-wait", "0"), 2, "--first-wait must be more than 0")
