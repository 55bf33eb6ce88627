"""The entry points OCTGN calls by name, defined in the scripts' shared namespace.

``install(ns)`` is all the glue script (``scripts/rs_host.py``) does.  The host object lives in the
namespace (``ns["_rs_host"]``) and is made on the first call: after OCTGN's "reload scripts", or in a
client that rejoined a game, the namespace is new and no start event fires, so the first event, menu
or remote call makes a host that rebuilds the game from the inputs (:meth:`Host.wake`).  Every entry
point mutes OCTGN's automatic chat messages and turns an unexpected error into a report in the chat
(the client then stops automating) instead of a half-done step.
"""
from __future__ import absolute_import, division, print_function

from rulescript.games import load as load_game

from . import manifest
from .host import Host

HOST_KEY = "_rs_host"


def function_name(template, do):
    """The function a menu item calls: the manifest's template with ``{do}`` replaced by ``do``, which
    must be a Python identifier (OCTGN calls the function by its name in source text)."""
    name = template.replace("{do}", do)
    if not name or not (name[0].isalpha() or name[0] == "_") or not all(
            [c.isalnum() and ord(c) < 128 or c == "_" for c in name]):
        raise ValueError("menu item %r does not make a function name (%r)" % (do, name))
    return name


def host_of(ns):
    h = ns.get(HOST_KEY)
    if h is None:
        h = Host(ns)
        ns[HOST_KEY] = h
        try:
            h.wake()
        except Exception as e:  # noqa: BLE001 - reported in the chat, never silent
            h.fail(e)
    return h


def _entry(ns, body):
    def entry(*args):
        mute = ns.get("mute")
        if mute is not None:
            mute()
        h = host_of(ns)
        try:
            return body(h, *args)
        except Exception as e:  # noqa: BLE001 - reported in the chat, never silent
            h.fail(e)
        return None
    return entry


def _shown(ns, body):
    def shown(*args):
        h = host_of(ns)
        try:
            return bool(body(h, *args))
        except Exception as e:  # noqa: BLE001 - a showIf that raises would show the item
            h.fail(e)
        return False
    return shown


def _arg(args):
    return args[0] if args else None


def table_face(ns):
    """The table face of the game ``GAME`` names (the menus depend on it)."""
    package = load_game(ns["GAME"]["profile"])
    return __import__(package.__name__ + ".table", {}, {}, ["view"], 0)


def install(ns):
    """Define every function the manifest names (and the remote functions) in ``ns``.  No host is
    made yet and no API is called: that waits for the first event, menu or remote call."""
    face = table_face(ns)
    handlers = {
        "rs_on_table_loaded": lambda host, *a: None,
        "rs_on_game_started": lambda host, *a: host.on_game_started(),
        "rs_on_deck_loaded": lambda host, *a: host.on_deck_loaded(_arg(a)),
        "rs_hello": lambda host, pid, text, reply: host.remote_hello(pid, text, reply),
        "rs_reveal": lambda host, pid, item: host.remote_reveal(pid, item),
        "rs_on_global_variable_changed": lambda host, *a: host.on_global_variable(_arg(a)),
        "rs_on_player_connected": lambda host, *a: host.on_player_connected(_arg(a)),
        "rs_override_cards_moved": lambda host, *a: host.cards_moved_by_hand(_arg(a)),
        "rs_override_turn_passed": lambda host, *a: host.turn_passed_by_hand(_arg(a)),
        "rs_in": lambda host, pid, first, text: host.remote_in(pid, first, text),
        "rs_resend": lambda host, pid, first: host.remote_resend(pid, first),
        "rs_forward": lambda host, pid, item: host.remote_forward(pid, item),
        "rs_off": lambda host, pid, reason: host.remote_off(pid, reason),
        "rs_rebuild": lambda host, pid, n, digest: host.remote_rebuild(pid, n, digest),
        "rs_answer": lambda host, *a: host.answer_open(),
        "rs_resync": lambda host, *a: host.resync(),
    }
    for _event, name in manifest.EVENTS:
        ns[name] = _entry(ns, handlers[name])
    for name in manifest.REMOTE_FUNCTIONS:
        ns[name] = _entry(ns, handlers[name])
    for item in manifest.HOST_GAME_ACTIONS:
        ns[item["execute"]] = _entry(ns, handlers[item["execute"]])
    ns["rs_answer_shown"] = _shown(ns, lambda host, *a: host.answer_shown())
    for a in face.CARD_ACTIONS:
        ns[function_name(manifest.CARD_ACTION["execute"], a["do"])] = _entry(ns, _card_action(a["do"]))
        ns[function_name(manifest.CARD_ACTION["showIf"], a["do"])] = _shown(ns, _card_shown(a["do"]))
    for a in face.GAME_ACTIONS:
        ns[function_name(manifest.GAME_ACTION["execute"], a["do"])] = _entry(ns, _game_action(a["do"]))
        ns[function_name(manifest.GAME_ACTION["showIf"], a["do"])] = _shown(ns, _game_shown(a["do"]))


def _card_action(do):
    return lambda host, card, x=0, y=0: host.card_action(do, card, x, y)


def _card_shown(do):
    return lambda host, cards, x=0, y=0: host.card_shown(do, cards)


def _game_action(do):
    return lambda host, group=None, x=0, y=0: host.game_action(do)


def _game_shown(do):
    return lambda host, group=None, x=0, y=0: host.game_shown(do)
