"""A line proxy for comparing what two AIWolf servers send (tools/aiwolf_diff, not part of the tests).

    python3 tools/aiwolf_diff/proxy.py LISTEN_PORT SERVER_PORT OUT.jsonl

Agents connect to ``LISTEN_PORT`` instead of the server; each connection is forwarded to the server
on ``127.0.0.1:SERVER_PORT``, and every line either way is written to ``OUT.jsonl`` as
``[connection, "s2a" | "a2s", time, line]``. Run one game of the same setting with the same agents
through it on each server, then compare the packets request by request. Loopback only; stop it with
Ctrl-C or by its process id.
"""
from __future__ import annotations

import asyncio
import json
import sys
import time

LIMIT = 1 << 24  # a gameInfo with a whole day's talk is long


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, out, conn: int, way: str) -> None:
    while line := await reader.readline():
        out.write(json.dumps([conn, way, time.time(), line.decode("utf-8", "replace").rstrip("\n")]) + "\n")
        out.flush()
        writer.write(line)
        await writer.drain()
    writer.close()


async def serve(listen: int, server: int, out) -> None:
    count = 0

    async def handle(agent_r: asyncio.StreamReader, agent_w: asyncio.StreamWriter) -> None:
        nonlocal count
        count += 1
        conn = count
        server_r, server_w = await asyncio.open_connection("127.0.0.1", server, limit=LIMIT)
        await asyncio.gather(_pipe(agent_r, server_w, out, conn, "a2s"), _pipe(server_r, agent_w, out, conn, "s2a"),
                             return_exceptions=True)

    listener = await asyncio.start_server(handle, "127.0.0.1", listen, limit=LIMIT)
    async with listener:
        await listener.serve_forever()


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[2], "w", encoding="utf-8") as out:
        try:
            asyncio.run(serve(int(argv[0]), int(argv[1]), out))
        except KeyboardInterrupt:
            return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
