"""Play a complete game in the stand-in with random players who use menus and dialogs only.

    python -m octgn_standin.play PACKAGE.zip SEED [PLAYERS]   (with tests/ on sys.path; Python 2.7 or 3)
    python -m octgn_standin.play PACKAGE.zip FIRST-LAST [PLAYERS]

prints a Python literal with what the engines of the clients reached (see :func:`summary`), or the
verdict of each game (:func:`verdict`).
"""
from __future__ import absolute_import, division, print_function

import sys

from .bots import RandomPlayer
from .octgn import Room
from .package import Package

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory",
         "Niaj", "Olivia", "Peggy", "Rupert", "Sybil")


def setup(package, seed, players=2, decks=None, stop=0.3):
    """A started room with ``players`` random players who loaded their decks (the package's decks in
    turn, unless ``decks`` names them; none when the package has none)."""
    if not isinstance(package, Package):
        package = Package(package)
    room = Room(package, seed=seed)
    names = sorted(package.decks)
    if decks is None and names:   # a game that deals every card itself ships no deck: nobody loads one
        decks = [names[i % len(names)] for i in range(players)]
    clients = [room.join(NAMES[i], RandomPlayer(seed * 31 + i + 1, stop)) for i in range(players)]
    room.start()
    room.run()
    for c, d in zip(clients, decks or []):
        room.load_deck(c, d)
        room.run()
    return room, clients


def play(room, clients, max_actions=20000):
    """Let the players act (round robin among those who have a menu item) until nobody can."""
    actions = 0
    turn = 0
    while actions < max_actions:
        room.run()
        acted = False
        for k in range(len(clients)):
            c = clients[(turn + k) % len(clients)]
            if c.connected and c.answer.act(c):
                acted = True
                turn = (turn + k + 1) % len(clients)
                break
        if not acted:
            break
        actions += 1
    room.run()
    return actions


def host(client):
    return client.ns.get("_rs_host")


def summary(room, clients):
    """Plain data: each client's engine (log, decisions, state, result), chats, errors, traffic."""
    out = {"clients": [], "traffic": room.traffic, "alerts": room.alerts, "table": room.snapshot(),
           "jobs": room.jobs_run}
    for c in clients:
        h = host(c)
        s = h.session if h is not None else None
        out["clients"].append({
            "name": c.state.name, "pid": c.state.pid, "chat": c.chat, "errors": c.errors,
            "warnings": c.warnings, "host_errors": [repr(e) for e in (h.errors if h else [])],
            "off": h.off if h else None,
            "log": list(s.log) if s else None, "state": s.state if s else None,
            "result": s.result if s else None, "seed": s.seed if s else None,
            "decks": s.decks if s else None, "cid": dict(h.cid) if h else None,
            "pids": list(h.pids) if h else None, "runs": s.runs if s else 0,
            "seat": h.seat() if h else None,
        })
    return out


def verdict(room, clients, seed):
    """What a long campaign checks of one game: it ended, every engine equal, nothing went wrong."""
    s = summary(room, clients)
    first = s["clients"][0]
    return {"seed": seed, "over": first["result"] is not None,
            "equal": all([c["state"] == first["state"] and c["log"] == first["log"] for c in s["clients"]]),
            "warnings": len(room.warnings), "alerts": len(room.alerts),
            "errors": sum([len(c["errors"]) + len(c["host_errors"]) for c in s["clients"]]),
            "off": [c["off"] for c in s["clients"] if c["off"] is not None]}


def main(argv):
    """``PACKAGE SEED [PLAYERS]``: the summary of one game; ``PACKAGE FIRST-LAST [PLAYERS]``: the
    verdict of each game of those seeds."""
    players = int(argv[3]) if len(argv) > 3 else 2
    if "-" in argv[2]:
        lo, hi = [int(x) for x in argv[2].split("-")]
        out = []
        for seed in range(lo, hi + 1):
            room, clients = setup(argv[1], seed, players=players)
            play(room, clients)
            out.append(verdict(room, clients, seed))
        sys.stdout.write(repr(out) + "\n")
        return
    room, clients = setup(argv[1], int(argv[2]), players=players)
    play(room, clients)
    sys.stdout.write(repr(summary(room, clients)) + "\n")


if __name__ == "__main__":
    main(sys.argv)
