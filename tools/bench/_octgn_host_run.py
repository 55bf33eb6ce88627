"""The measuring side of tools/bench/octgn_host.py, run by the interpreter being measured (Python 2.7
or 3): two clients of the OCTGN stand-in (tests/octgn_standin) playing a built package.

    python _octgn_host_run.py ZAP_PACKAGE DEMO_PACKAGE ACTIONS GAMES

prints one Python literal: the job times of single-target actions, the bytes sent per action and the
OCTGN warnings of each random demo game.
"""
from __future__ import absolute_import, division, print_function

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "tests"))

from octgn_standin import play  # noqa: E402
from octgn_standin.octgn import Room  # noqa: E402
from octgn_standin.package import Package  # noqa: E402

ZAP = "Use its action"
PREFERRED = ("Play", "Pass (end this phase)", "Done declaring attacks")


class ZapPlayer(object):
    """Fills its ring, then plays a Zap (one target among the opposing characters) whenever it can;
    never attacks; answers every dialog with its first choice."""

    def __call__(self, client, kind, info):
        if kind == "cardDlg":
            return list(info["cards"][:max(1, info["min"] or 0)])
        if kind == "askChoice":
            return 1
        if kind == "confirm":
            return True
        return info.get("default")

    def act(self, client):
        room = client.room
        client.open_scripts()
        try:
            shown = []
            for c in list(room.table.cards) + list(room.pile_of(client.state, "Hand").cards):
                for label in client.card_menu(c.cid):
                    shown.append((c.cid, label))
            table = client.table_menu()
        finally:
            client.close_scripts()
        for want in (ZAP, "Play"):
            for cid, label in shown:
                if label == want:
                    client.click_card_menu(cid, label)
                    return True
        for want in PREFERRED[1:]:
            if want in table:
                client.click_table_menu(want)
                return True
        return False


def single_target_actions(path, wanted):
    room = Room(Package(path), seed=5)
    clients = [room.join("Alice", ZapPlayer()), room.join("Bob", ZapPlayer())]
    room.start()
    room.run()
    for c, d in zip(clients, sorted(room.package.decks)):
        room.load_deck(c, d)
        room.run()
    room.timings = []
    acted = 0
    while acted < 100000:
        room.run()
        n = len([t for t in room.timings if t[1] == "card:" + ZAP])
        if n >= wanted or not [c for c in clients if c.answer.act(c)]:
            break
        acted += 1
    room.run()
    acting = [t[2] for t in room.timings if t[1] == "card:" + ZAP]
    acting_cpu = [t[3] for t in room.timings if t[1] == "card:" + ZAP]
    dialogs = sum([len([d for d in c.dialogs if d[0] == "cardDlg"]) for c in clients])
    remote, remote_cpu = [], []
    for i, t in enumerate(room.timings):
        if t[1] == "card:" + ZAP:
            after = [u for u in room.timings[i + 1:] if u[1] == "remote:rs_in" and u[0] != t[0]]
            if after:
                remote.append(after[0][2])
                remote_cpu.append(after[0][3])
    errors = [e for c in clients for e in c.errors] + [repr(e) for c in clients for e in play.host(c).errors]
    return {"acting": acting, "acting_cpu": acting_cpu, "remote": remote, "remote_cpu": remote_cpu, "dialogs": dialogs, "errors": errors,
            "over": play.host(clients[0]).session.over}


def bytes_per_action(path, games):
    calls, total, warnings = [], [], []
    for seed in range(1, games + 1):
        room, clients = play.setup(path, seed)
        play.play(room, clients)
        warnings.append(len(room.warnings))
        jobs = {}
        for t in room.traffic:
            jobs.setdefault(t["job"], []).append(t)
        for items in jobs.values():
            sent = [t for t in items if t["kind"] == "remoteCall" and t["text"].startswith("rs_in(")]
            if sent:
                calls.append(sum([t["bytes"] for t in sent]))
                total.append(sum([t["bytes"] for t in items]))
    return {"calls": calls, "total": total, "warnings": warnings}


def main(argv):
    out = {"python": "%d.%d.%d" % sys.version_info[:3]}
    out.update(single_target_actions(argv[1], int(argv[3])))
    out["bytes"] = bytes_per_action(argv[2], int(argv[4]))
    sys.stdout.write(repr(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
