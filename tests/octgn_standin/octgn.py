"""A stand-in of OCTGN for tests: one room (the server and the shared table) and one client per
player, each running the scripts of a built package in its own namespace.

What it models (shared/spec/octgn.md sections 4-6, checked against OCTGN's source):

* every client executes the package's ``<scripts>`` in order into one shared namespace holding the
  API; importable packages come from the package's ``def/`` folder, and each client has its own
  modules (its own script engine); a script that fails to load only warns;
* one FIFO job queue per client: menu actions, events and remote calls are jobs; events and remote
  calls caused by a job run after it; a blocking call (``rnd``, a dialog, ``update``) holds the queue
  because the job has not ended;
* events fire on every client, except ``OnCardClicked``, ``OnCardDoubleClicked``, ``OnCounterChanged``
  and every ``Override*`` event, which fire only on the client that acted; a declared
  ``OverrideCardsMoved`` replaces UI moves, ``OverrideTurnPassed`` the UI turn pass;
* ``remoteCall`` is delivered asynchronously, in order per sender, as the source text OCTGN's API
  wrapper makes (arguments joined by commas without spaces, a pile as ``Pile(id, 'name', Player(n))``)
  and checked by the **receiver** as ``ExecuteFunctionSecureNoFormat`` does: the function must exist
  there and not be one of OCTGN's blocked names, no ``;`` or newline outside quotes, one call and
  nothing else, no string with ``\\x``, ``\\u`` or triple quotes; what the wrapper cannot send (tuples,
  counters, objects inside dicts) never leaves; every refusal is a SECURITY ALERT to everybody;
* global variables are strings; the writer sees a new value at once, the others after the server's
  echo (which also reaches the writer, so the last write wins); ``OnGlobalVariableChanged`` /
  ``OnPlayerGlobalVariableChanged`` fire on **every** echo, on every client, with the writer's old
  value; a value with ``"``, ``\\`` or a newline breaks the handler;
* counters: a write changes the writer's own display at once; the update reaches the server (and
  every client, the writer included) about a second later, after everything else in flight;
* ``nextTurn``/``setActivePlayer`` change the active player when the server's echo arrives (after the
  job), not at once;
* moving a card into a pile gives it the pile's controller and turns it face up;
* ``mute()`` silences the automatic chat lines of the job that calls it (moves, counters);
* every warning OCTGN shows a player is counted (``Client.warnings``, ``Room.warnings``): changing a
  card one does not control warns that card's controller;
* ``rnd`` is answered by the server to its caller only;
* ``table.create``/``pile.create`` make cards owned by the local player, with ids the creating client
  makes (``player id << 16 | its count of cards``); ``peek()`` lets the local player (only) see a
  face-down card, until the card is turned face up or leaves its group; :meth:`Client.sees` tells
  what a player sees of a card;
* ``nextTurn``/``setActivePlayer``/``setPhase`` do nothing unless the local player is active or
  nobody is; changing a card one does not control warns and still happens; ``delete`` refuses.

Dialogs are answered by a scripted player: ``answer(client, kind, info) -> answer``.
"""
from __future__ import absolute_import, division, print_function

import re
import sys
import time

try:
    import __builtin__ as _builtins
except ImportError:
    import builtins as _builtins

from .package import ModuleSet

PY2 = sys.version_info[0] == 2
TEXT = (str, type(u""))
INTS = (int, type(2 ** 64))

LOCAL_EVENTS = ("OnCardClicked", "OnCardDoubleClicked", "OnCounterChanged")
#: the names OCTGN's remoteCall refuses (its own list: ``apply``, ``hasattr`` and the web calls are in
#: it; ``type``, ``object`` and ``help`` are not)
DANGEROUS = frozenset(["exec", "eval", "execfile", "compile", "getattr", "setattr", "delattr", "hasattr",
                       "globals", "locals", "vars", "__import__", "open", "file", "input", "raw_input",
                       "reload", "dir", "apply", "exit", "quit", "memoryview", "breakpoint", "webRead",
                       "webPost"])
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Rand(object):
    """A small xorshift generator (the same numbers on Python 2 and 3)."""

    def __init__(self, seed):
        self.s = [(seed * 2654435761 + k * 40503 + 1) & 0xFFFFFFFF or 1 for k in range(4)]
        for _ in range(8):
            self.u32()

    def u32(self):
        s = self.s
        t = s[3]
        t = (t ^ (t << 11)) & 0xFFFFFFFF
        t ^= t >> 8
        s[3], s[2], s[1] = s[2], s[1], s[0]
        s[0] = (t ^ s[0] ^ (s[0] >> 19)) & 0xFFFFFFFF
        return s[0]

    def below(self, n):
        return self.u32() % n

    def between(self, lo, hi):
        return lo + self.below(hi - lo + 1)


_clock = getattr(time, "perf_counter", time.time)
# the process's CPU time (what a job costs on a core, not the wait for one): Python 3 has
# process_time; Python 2.7's clock() is the CPU time on Unix
_cpu = getattr(time, "process_time", None) or time.clock


def _labelled(label, job):
    job.label = label
    return job


class StandInError(Exception):
    """A test used the stand-in in a way OCTGN does not allow (a hidden menu item, a busy client)."""


# ---------------------------------------------------------------------- server-side state
class CardState(object):
    def __init__(self, cid, guid, owner, group):
        self.cid = cid
        self.guid = guid
        self.owner = owner
        self.controller = owner
        self.group = group
        self.x = 0
        self.y = 0
        self.face_up = False
        self.markers = {}
        self.highlight = None
        self.filter = None
        self.orientation = 0
        self.alternate = ""
        self.targeted_by = None
        self.peeked_by = set()      # players who peeked at the face-down card


class GroupState(object):
    def __init__(self, gid, name, owner, visibility="none", ordered=True):
        self.gid = gid
        self.name = name
        self.owner = owner
        self.visibility = visibility
        self.ordered = ordered
        self.cards = []  # top first


class PlayerState(object):
    def __init__(self, pid, name):
        self.pid = pid
        self.name = name
        self.counters = {}
        self.piles = []


class Args(object):
    """Event arguments: a missing field reads as None."""

    def __init__(self, **fields):
        self.__dict__.update(fields)
        self._fields = sorted(fields)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return None


class Room(object):
    """The server and the shared table of one game."""

    def __init__(self, package, seed=1):
        self.package = package
        self.seed = seed
        self.rand = Rand(seed)
        self.players = []
        self.clients = []
        self.cards = {}
        self.next_gid = 0x01000000
        self.table = self._group("Table", None, "all")
        self.gvars = dict(package.global_variables)
        self.pvars = {}
        self.active = None
        self.turn = 0
        self.phase = 0
        self.current = None      # the client whose job runs
        self.traffic = []        # every message between clients: dicts with kind, from, to, bytes, text
        self.alerts = []
        self.warnings = []       # (player id shown to, text): every warning OCTGN would show a player
        self.delayed = []        # counter updates on their way to the server
        self.rnd_calls = []
        self.jobs_run = 0
        self.started = False
        self.timings = None      # a list to record (player id, job label, seconds, CPU seconds) of every job

    def _group(self, name, owner, visibility, ordered=True):
        g = GroupState(self.next_gid, name, owner, visibility, ordered)
        self.next_gid += 1
        return g

    # ------------------------------------------------------------------ players and the start
    def join(self, name, answer=None, package=None):
        pid = len(self.players) + 1
        p = PlayerState(pid, name)
        for pile in self.package.piles:
            p.piles.append(self._group(pile["name"], p, pile["visibility"], pile["ordered"]))
        for cname, default in self.package.counters:
            p.counters[cname] = default
        self.players.append(p)
        client = Client(self, p, package or self.package, answer)
        self.clients.append(client)
        return client

    def start(self):
        """The game starts: every client loads the scripts, then OnTableLoaded and OnGameStarted."""
        self.started = True
        for c in self.clients:
            c.load_scripts()
        for event in ("OnTableLoaded", "OnGameStarted"):
            for c in self.clients:
                c.fire(event, None)

    def reset(self):
        """OCTGN's game reset: the table is cleared, counters and global variables get their declared
        defaults, nobody is active; Python state survives and OnGameStarted fires again."""
        for g in [self.table] + [g for p in self.players for g in p.piles]:
            g.cards = []
        self.cards = {}
        for p in self.players:
            p.counters = dict(self.package.counters)
        self.delayed = []
        self.gvars = dict(self.package.global_variables)
        self.pvars = {}
        self.active = None
        self.turn = 0
        self.phase = 0
        for c in self.connected():
            c.gvars = dict(self.gvars)
            c.pvars = {}
            c.counters = self.counter_values()
            c.fire("OnGameStarted", None)

    def load_deck(self, client, deck):
        """``client``'s player loads a deck (a deck name of the package, or [(section, guid, qty)])."""
        if isinstance(deck, TEXT):
            deck = self.package.decks[deck]
        p = client.state
        groups = []
        p.loaded = getattr(p, "loaded", 0)
        n = p.loaded
        for section, guid, qty in deck:
            pile_name = None
            for sname, gname in client.package.deck_sections:
                if sname.lower() == section.lower():
                    pile_name = gname
            group = [g for g in p.piles if pile_name and g.name.lower() == pile_name.lower()]
            if not group:
                continue  # a deck section whose group names no pile is silently dropped
            group = group[0]
            for _ in range(qty):
                n += 1
                p.loaded = n
                cid = (p.pid << 16) | n
                card = CardState(cid, guid, p, group)
                self.cards[cid] = card
                group.cards.append(card)
            if group not in groups:
                groups.append(group)
        for c in self.connected():
            c.fire("OnDeckLoaded", lambda cl: Args(player=cl.api.player(p), isLimited=False,
                                                   groups=[cl.api.group(g) for g in groups]))

    def pile_of(self, p, name):
        for g in p.piles:
            if g.name.lower() == name.lower():
                return g
        raise KeyError(name)

    def connected(self):
        return [c for c in self.clients if c.connected]

    def disconnect(self, client):
        client.connected = False
        client.queue = []

    def reconnect(self, client):
        """A player rejoins: a new script engine (nothing of the old Python state), no start event;
        OnPlayerConnected fires on the other clients."""
        client.connected = True
        client.gvars = dict(self.gvars)      # the server sends the game's current state
        client.pvars = dict(self.pvars)
        client.counters = self.counter_values()
        client.load_scripts()
        for c in self.connected():
            if c is not client:
                c.fire("OnPlayerConnected", lambda cl: Args(player=cl.api.player(client.state)))

    # ------------------------------------------------------------------ delivery
    def post(self, target, job):
        """Queue ``job`` on ``target``: now if no job runs, else when the running job ends."""
        if self.current is not None:
            self.current.outbox.append((target, job))
        elif target is None:
            job()
        elif target.connected:
            target.queue.append(job)

    def run(self, limit=1000000):
        """Run jobs until every queue is empty; returns how many ran.  Counter updates reach everybody
        when nothing else is in flight (OCTGN sends them about a second late)."""
        if self.current is not None:
            raise StandInError("a job of %s is running (a dialog holds the queue)" % self.current.state.name)
        ran = 0
        while ran < limit:
            progressed = False
            for c in self.clients:
                if c.queue and c.connected:
                    c.run_job(c.queue.pop(0))
                    ran += 1
                    progressed = True
            if not progressed:
                if not self.delayed:
                    break
                self.flush_counters()
        return ran

    def counter_values(self):
        return dict(((p.pid, n), v) for p in self.players for n, v in p.counters.items())

    def flush_counters(self):
        """The delayed counter updates reach the server, then every client (the writer too)."""
        updates, self.delayed = self.delayed, []
        for state, name, value in updates:
            state.counters[name] = value
            for c in self.connected():
                c.counters[(state.pid, name)] = value

    def idle(self):
        return not [c for c in self.clients if c.queue and c.connected]

    def move(self, card, group, index, x, y, face_up):
        if group is not card.group or face_up:
            card.peeked_by = set()   # a peek lasts while the card stays face down in its group
        card.group.cards.remove(card)
        if group is self.table:
            group.cards.append(card)
            card.x, card.y = x, y
            card.face_up = face_up
        else:
            if index is None:
                index = 0
            group.cards.insert(max(0, min(index, len(group.cards))), card)
            if group.owner is not None:     # Group.AddAt: the pile's controller, face up
                card.controller = group.owner
            card.face_up = True
        card.group = group

    def pass_turn(self, client, target, force):
        old = self.active
        self.active = target
        self.turn += 1
        for c in self.connected():
            c.fire("OnTurnPassed", lambda cl: Args(player=cl.api.player(old) if old else None, turn=self.turn,
                                                   force=force))

    def note(self, kind, sender, to, text):
        self.traffic.append({"kind": kind, "from": sender.pid, "to": to.pid if to is not None else None,
                             "bytes": len(text), "text": text, "job": self.jobs_run})

    def client_of(self, state):
        for c in self.clients:
            if c.state is state:
                return c
        return None

    def auto(self, client, text):
        """An automatic chat line of OCTGN (unless the job called ``mute()``)."""
        if not client.muted:
            for c in self.connected():
                c.chat.append(text)

    def alert(self, text):
        self.alerts.append(text)
        for c in self.connected():
            c.chat.append("SECURITY ALERT: " + text)

    def snapshot(self):
        """The table as plain data: card id -> (group owner pid or None, group name, index, x, y,
        face up, markers {(name, id): n}, highlight); and counters {pid: {name: value}}."""
        cards = {}
        for g in [self.table] + [g for p in self.players for g in p.piles]:
            for i, c in enumerate(g.cards):
                cards[c.cid] = {"owner": g.owner.pid if g.owner else None, "group": g.name, "index": i,
                                "x": c.x, "y": c.y, "face_up": c.face_up,
                                "peeked_by": sorted([p.pid for p in c.peeked_by]), "guid": c.guid,
                                "markers": dict((k, v) for k, v in c.markers.items() if v),
                                "highlight": c.highlight}
        counters = dict((p.pid, dict(p.counters)) for p in self.players)
        return {"cards": cards, "counters": counters}


class Client(object):
    """One OCTGN client: its player, its scripts' namespace and modules, its job queue and chat."""

    def __init__(self, room, state, package, answer):
        self.room = room
        self.state = state
        self.package = package
        self.answer = answer
        self.connected = True
        self.queue = []
        self.outbox = []
        self.busy = False
        self.chat = []
        self.warnings = []
        self.errors = []
        self.dialogs = []
        self.gvars = dict(room.package.global_variables)
        self.pvars = {}
        self.ns = None
        self.modules = None
        self.api = None
        self.rand = Rand(state.pid * 7919 + room.seed * 104729)   # rndArray: local, differs per game
        self.settings = {}          # getSetting/setSetting: local, kept over reloads and rejoins
        self.counters = room.counter_values()   # the counters as this client shows them
        self.muted = False
        self.loads = 0
        self.depth = 0

    # ------------------------------------------------------------------ scripts
    def load_scripts(self):
        """A new script engine: fresh modules and namespace, then every script in order."""
        self.modules = ModuleSet(self.package.modules())
        self.api = Api(self)
        self.ns = self.api.namespace()
        self.loads += 1
        self.depth = 0
        self.open_scripts()
        try:
            for src in self.package.scripts:
                try:
                    code = compile(self.package.source(src), src, "exec")
                    exec(code, self.ns)
                except Exception as e:  # OCTGN prints a warning and loads the other scripts
                    self.api.warn("script %s failed to load: %s: %s" % (src, type(e).__name__, e))
        finally:
            self.close_scripts()

    def reload_scripts(self):
        """The developer window's "reload scripts": this client only; no start event fires."""
        self.load_scripts()

    def handlers(self, event):
        return [action for name, action in self.package.events if name == event]

    # ------------------------------------------------------------------ jobs
    def run_job(self, job):
        room = self.room
        room.current = self
        self.busy = True
        self.open_scripts()
        t0 = _clock()
        c0 = _cpu()
        try:
            job()
        except Exception as e:
            self.errors.append("%s: %s" % (type(e).__name__, e))
            self.chat.append("script error: %s: %s" % (type(e).__name__, e))
        finally:
            if room.timings is not None:
                room.timings.append((self.state.pid, getattr(job, "label", "job"), _clock() - t0, _cpu() - c0))
            self.close_scripts()
            self.busy = False
            self.muted = False
            room.current = None
            room.jobs_run += 1
        out, self.outbox = self.outbox, []
        for target, job in out:
            if target is None:
                job()            # the server applies it (a global variable write)
            elif target.connected:
                target.queue.append(job)

    def fire(self, event, make_args):
        """Queue this client's handlers of ``event`` (``make_args(client) -> Args`` or None)."""
        for action in self.handlers(event):
            self.room.post(self, _labelled("event:" + event, self._event_job(action, make_args)))

    def _event_job(self, action, make_args):
        def job():
            args = make_args(self) if make_args is not None else None
            if args is not None:
                for k in args._fields:
                    v = getattr(args, k)
                    if isinstance(v, TEXT) and ('"' in v or "\\" in v or "\n" in v):
                        raise SyntaxError("event argument %s=%r breaks the handler's source text" % (k, v))
            fn = self.ns.get(action)
            if fn is None:
                raise NameError("event handler %r is not defined" % action)
            if args is None:
                fn()
            else:
                fn(args)
        return job

    # ------------------------------------------------------------------ the player's hands (UI)
    def _actions_of(self, card):
        if card.group is self.room.table:
            return self.package.table_card_actions
        return self.package.pile_card_actions.get(card.group.name, [])

    def _label(self, action, arg):
        if action.get("getName"):
            return self.call(action["getName"], arg, 0, 0)
        return action["menu"]

    def _shown(self, action, arg):
        if not action.get("showIf"):
            return True
        try:
            return bool(self.call(action["showIf"], arg, 0, 0))
        except Exception:
            return True  # a showIf that raises counts as true

    def call(self, name, *args):
        """Call a script function now (what OCTGN does to build a menu)."""
        if self.busy or self.room.current is not None:
            raise StandInError("cannot open a menu while a job runs")
        self.open_scripts()
        try:
            return self.ns[name](*args)
        finally:
            self.close_scripts()

    def open_scripts(self):
        """Make this client's modules current (nested calls are counted)."""
        if self.depth == 0:
            self.modules.enter()
        self.depth += 1

    def close_scripts(self):
        self.depth -= 1
        if self.depth == 0:
            self.modules.leave()

    def card_menu(self, cid, x=None, y=None):
        """The labels of the card's context menu (only the items whose showIf is true)."""
        card = self.room.cards[cid]
        arg = [self.api.card(cid)]
        self.open_scripts()
        try:
            return [self._label(a, arg) for a in self._actions_of(card) if self._shown(a, arg)]
        finally:
            self.close_scripts()

    def table_menu(self):
        arg = self.api.table
        self.open_scripts()
        try:
            return [self._label(a, arg) for a in self.package.table_group_actions if self._shown(a, arg)]
        finally:
            self.close_scripts()

    def click_card_menu(self, cid, label, x=None, y=None):
        """Choose ``label`` in the card's context menu (on the table with ``x``/``y``: ``fn(card, x, y)``;
        from a pile: ``fn(card)``)."""
        card = self.room.cards[cid]
        for a in self._actions_of(card):
            if self._label(a, [self.api.card(cid)]) == label:
                if not self._shown(a, [self.api.card(cid)]):
                    raise StandInError("menu item %r of card %s is not shown" % (label, cid))
                fn = a["execute"]
                if x is not None and card.group is self.room.table:
                    self.queue.append(_labelled("card:" + label, lambda: self.ns[fn](self.api.card(cid), x, y)))
                else:
                    self.queue.append(_labelled("card:" + label, lambda: self.ns[fn](self.api.card(cid))))
                return
        raise StandInError("card %s has no menu item %r" % (cid, label))

    def click_table_menu(self, label):
        for a in self.package.table_group_actions:
            if self._label(a, self.api.table) == label:
                if not self._shown(a, self.api.table):
                    raise StandInError("table menu item %r is not shown" % label)
                fn = a["execute"]
                self.queue.append(_labelled("table:" + label, lambda: self.ns[fn](self.api.table, 0, 0)))
                return
        raise StandInError("the table has no menu item %r" % label)

    def do(self, name, *args):
        """Queue a job that calls the script function ``name`` (what a menu item or shortcut does)."""
        self.queue.append(lambda: self.ns[name](*args))

    def sees(self, cid):
        """The card GUID this client's player sees on card ``cid``, or None when it shows its back: a
        face-up card on the table, a card in a pile the player may look at, or a face-down card the
        player peeked at."""
        card = self.room.cards[cid]
        g = card.group
        if g is self.room.table:
            shown = card.face_up or self.state in card.peeked_by
        else:
            shown = g.visibility == "all" or (g.visibility == "me" and g.owner is self.state)
        return card.guid if shown else None

    def double_click(self, cid):
        card = self.room.cards[cid]
        self.fire("OnCardDoubleClicked", lambda cl: Args(card=cl.api.card(cid), mouseButton=0, keysDown=[]))
        for a in self._actions_of(card):
            if a["default"]:
                fn = a["execute"]
                self.queue.append(lambda: self.ns[fn](self.api.card(cid)))
                return

    def drag(self, cid, to, index=None, x=0, y=0):
        """Move a card with the mouse: ``to`` is ``"table"``, a pile name of this player, or
        ``(player id, pile name)``."""
        room = self.room
        card = room.cards[cid]
        if to == "table":
            group = room.table
        elif isinstance(to, tuple):
            group = room.pile_of([p for p in room.players if p.pid == to[0]][0], to[1])
        else:
            group = room.pile_of(self.state, to)
        if self.handlers("OverrideCardsMoved"):
            def make(cl):
                return Args(cards=[cl.api.card(cid)], toGroups=[cl.api.group(group)], indexs=[index or 0],
                            xs=[x], ys=[y], faceups=[True])
            self.fire("OverrideCardsMoved", make)
            return
        old = card.group
        oldi = old.cards.index(card)
        room.move(card, group, index, x, y, True)
        for c in room.connected():
            c.fire("OnCardsMoved", lambda cl: Args(player=cl.api.player(self.state), cards=[cl.api.card(cid)],
                                                   fromGroups=[cl.api.group(old)], toGroups=[cl.api.group(group)],
                                                   indexs=[oldi], xs=[x], ys=[y]))

    def pass_turn(self, to=None):
        """The turn button (only the active player, or anybody when nobody is active)."""
        room = self.room
        if room.active is not None and room.active is not self.state:
            raise StandInError("only the active player can pass the turn")
        target = to or [p for p in room.players if p is not self.state][0]
        if self.handlers("OverrideTurnPassed"):
            self.fire("OverrideTurnPassed", lambda cl: Args(player=cl.api.player(target)))
            return
        room.pass_turn(self, target, True)


# ---------------------------------------------------------------------- the API one client sees
class Api(object):
    """The API objects and functions of one client (``me`` differs per client)."""

    def __init__(self, client):
        self.client = client
        self.room = client.room
        self.table = Table(self, self.room.table)

    def card(self, cid):
        return CardApi(self, cid)

    def player(self, state):
        return PlayerApi(self, state)

    def group(self, g):
        if g is self.room.table:
            return self.table
        return Pile(self, g)

    def warn(self, text, to=None):
        """A warning OCTGN shows the player of ``to`` (a client; default this one)."""
        to = to or self.client
        to.warnings.append(text)
        self.room.warnings.append((to.state.pid, text))

    def touch(self, card):
        """Changing a card another player controls: it happens, and its controller is warned."""
        if card.controller is not self.client.state:
            owner = self.room.client_of(card.controller)
            self.warn("%s changed card %s, but %s does not control it" % (
                self.client.state.name, card.cid, self.client.state.name), to=owner)

    def create_card(self, model, group, x, y, face_up):
        room = self.room
        guid = str(model).lower()
        if guid not in room.package.cards:
            raise ValueError("no card %r in the game's sets" % (model,))
        p = self.client.state
        p.loaded = getattr(p, "loaded", 0) + 1
        cid = (p.pid << 16) | p.loaded
        card = CardState(cid, guid, p, group)
        room.cards[cid] = card
        if group is room.table:
            group.cards.append(card)
            card.x, card.y = x, y
            card.face_up = face_up
        else:
            group.cards.insert(0, card)
        return self.card(cid)

    def scripted_move(self, s, group, index, x, y, face_up):
        room = self.room
        self.touch(s)
        old = s.group
        oldi = old.cards.index(s)
        room.move(s, group, index, x, y, face_up)
        me = self.client.state
        room.auto(self.client, "%s moves %s to %s." % (me.name, room.package.cards[s.guid]["name"], group.name))
        for c in room.connected():
            c.fire("OnScriptedCardsMoved",
                   lambda cl: Args(player=cl.api.player(me), cards=[cl.api.card(s.cid)],
                                   fromGroups=[cl.api.group(old)], toGroups=[cl.api.group(group)], indexs=[oldi],
                                   xs=[x], ys=[y]))

    def namespace(self):
        client = self.client
        room = self.room
        me = self.player(client.state)
        ns = {
            "me": me, "players": [me] + [self.player(p) for p in room.players if p is not client.state],
            "shared": None, "table": self.table, "version": "3.4.445.0", "gameVersion": "1.0.0.0",
            "cardProperties": [], "Rot0": 0, "Rot90": 1, "Rot180": 2, "Rot270": 3,
            "getPlayers": lambda: [me] + [self.player(p) for p in room.players if p is not client.state],
            "notify": self.notify, "whisper": self.whisper,
            "notifyBar": lambda color, msg: client.chat.append(msg), "mute": self.mute,
            "rnd": self.rnd, "rndArray": self.rnd_array,
            "confirm": self.confirm, "askInteger": self.ask_integer, "askString": self.ask_string,
            "askChoice": self.ask_choice, "cardDlg": self.card_dlg, "askCard": self.ask_card,
            "queryCard": self.query_card,
            "turnNumber": lambda: room.turn, "nextTurn": self.next_turn,
            "getActivePlayer": lambda: self.player(room.active) if room.active else None,
            "setActivePlayer": self.set_active_player, "currentPhase": self.current_phase,
            "setPhase": self.set_phase, "setStop": lambda index, stop: None,
            "getGlobalVariable": self.get_global, "setGlobalVariable": self.set_global,
            "getSetting": lambda name, default=None: client.settings.get(name, default),
            "setSetting": lambda name, value: client.settings.__setitem__(name, value),
            "remoteCall": self.remote_call, "update": lambda: None, "playSound": lambda name: None,
            "Card": self.card, "Player": lambda pid: self.player([p for p in room.players if p.pid == pid][0]),
            "Pile": self.pile_by_id,
        }
        return ns

    def pile_by_id(self, gid, name, player):
        """The API wrapper's ``Pile(id, name, player)`` (how a remote call names a pile)."""
        for g in player._state.piles:
            if g.gid == gid:
                return Pile(self, g)
        raise ValueError("no pile %r" % (gid,))

    def mute(self):
        self.client.muted = True

    # ------------------------------------------------------------------ chat and dialogs
    def notify(self, msg):
        for c in self.room.connected():
            c.chat.append(str(msg))

    def whisper(self, msg):
        self.client.chat.append(str(msg))

    def _ask(self, kind, **info):
        client = self.client
        client.dialogs.append((kind, info))
        if client.answer is None:
            raise StandInError("%s has no scripted player to answer %s" % (client.state.name, kind))
        return client.answer(client, kind, info)

    def confirm(self, msg):
        return bool(self._ask("confirm", text=msg))

    def ask_integer(self, question, default):
        v = self._ask("askInteger", text=question, default=default)
        return None if v is None else int(v)

    def ask_string(self, question, default):
        return self._ask("askString", text=question, default=default)

    def ask_choice(self, question, choices, colors=None, customButtons=None):
        buttons = list(customButtons or [])
        v = self._ask("askChoice", text=question, choices=list(choices), buttons=buttons)
        if not isinstance(v, INTS) or isinstance(v, bool) or not (
                -len(buttons) <= v <= len(choices)) or (v < 0 and not buttons):
            raise StandInError("askChoice answered %r with %d choices and %d buttons" % (v, len(choices),
                                                                                        len(buttons)))
        return v

    def card_dlg(self, cards, bottomCards=None):
        return CardDlg(self, list(cards), bottomCards)

    def ask_card(self, properties=None, operator=None, title=None):
        return self._ask("askCard", properties=properties, title=title)

    def query_card(self, properties, exact=True):
        out = []
        for guid, c in sorted(self.room.package.cards.items()):
            ok = True
            for k, v in properties.items():
                have = c["name"] if k.lower() == "name" else c["properties"].get(k, "")
                ok = ok and (have == v if exact else str(v).lower() in have.lower())
            if ok:
                out.append(guid)
        return out

    def rnd(self, lo, hi):
        v = self.room.rand.between(lo, hi)
        self.room.rnd_calls.append((self.client.state.pid, lo, hi, v))
        return v

    def rnd_array(self, lo, hi, n):
        return [self.client.rand.between(lo, hi) for _ in range(n)]

    # ------------------------------------------------------------------ turns and phases
    def _may_drive(self):
        return self.room.active is None or self.room.active is self.client.state

    def next_turn(self, player=None, force=False):
        """Asks the server; the active player changes when its echo arrives (after this job)."""
        if not self._may_drive():
            return
        room = self.room
        client = self.client
        target = player._state if player is not None else None
        room.post(None, lambda: room.pass_turn(client, target, force))

    def set_active_player(self, player):
        if not self._may_drive():
            return
        room = self.room

        def server():
            old = room.active
            room.active = player._state
            for c in room.connected():
                c.fire("OnTurnPassed", lambda cl: Args(player=cl.api.player(old) if old else None, turn=room.turn,
                                                       force=False))
        room.post(None, server)

    def current_phase(self):
        room = self.room
        if room.phase == 0:
            return (None, 0)
        return (room.package.phases[room.phase - 1], room.phase)

    def set_phase(self, index, force=False):
        if not self._may_drive():
            return
        room = self.room
        if not 1 <= index <= len(room.package.phases):
            raise ValueError("no phase %r" % index)
        old = self.current_phase()
        room.phase = index
        for c in room.connected():
            c.fire("OnPhasePassed", lambda cl: Args(name=old[0], id=old[1], force=force))

    # ------------------------------------------------------------------ global variables
    def get_global(self, name):
        if name not in self.client.gvars:
            self.warn("global variable %r is not declared" % name)
            return ""
        return self.client.gvars[name]

    def set_global(self, name, value):
        self._write(self.client.gvars, None, name, str(value), "OnGlobalVariableChanged")

    def get_player_global(self, state, name):
        key = (state.pid, name)
        if key not in self.client.pvars:
            declared = dict(self.room.package.player_variables)
            if name not in declared:
                self.warn("player global variable %r is not declared" % name)
                return ""
            return declared[name]
        return self.client.pvars[key]

    def set_player_global(self, state, name, value):
        if state is not self.client.state:
            raise ValueError("a player can only set his own global variables")
        self._write(self.client.pvars, state, name, str(value), "OnPlayerGlobalVariableChanged")

    def _write(self, store, state, name, value, event):
        client = self.client
        room = self.room
        key = name if state is None else (state.pid, name)
        old = store.get(key, "") if state is None else self.get_player_global(state, name)
        store[key] = value
        room.note("gvar" if state is None else "pvar", client.state, None, name + value)

        def server():
            (room.gvars if state is None else room.pvars)[key] = value
            for c in room.connected():
                room.post(c, _echo(c, store is client.gvars, key, value, event, _var_args(state, name, old, value)))
        room.post(None, server)

    # ------------------------------------------------------------------ remote calls
    def remote_call(self, player, fn, args):
        """The API wrapper makes the source text; the receiver checks it before running it."""
        room = self.room
        sender = self.client.state
        try:
            if not isinstance(args, list):
                raise _Refused("arguments must be a list, not %s" % type(args).__name__)
            text = "%s(%s)" % (fn, ",".join([_source(a) for a in args]))
        except _Refused as e:
            room.alert("%s's remoteCall refused: %s" % (sender.name, e))
            return
        target = [c for c in room.clients if c.state is player._state][0]
        room.note("remoteCall", sender, target.state, text)

        def job():
            why = _insecure(str(fn), text, target.ns)
            if why is not None:
                room.alert("%s's remoteCall refused by %s: %s" % (sender.name, target.state.name, why))
                return
            eval(compile(text, "<remoteCall>", "eval"), target.ns)
        room.post(target, _labelled("remote:" + str(fn), job))


def _var_args(state, name, old, value):
    def make(cl):
        if state is None:
            return Args(name=name, oldValue=old, value=value)
        return Args(player=cl.api.player(state), name=name, oldValue=old, value=value)
    return make


def _echo(client, game_wide, key, value, event, make_args):
    """The server's echo of a variable write on one client: the value is set and the event fires,
    every time, with the writer's old value (ClientHandler.SetGlobalVariable)."""
    def job():
        (client.gvars if game_wide else client.pvars)[key] = value
        for action in client.handlers(event):
            client._event_job(action, make_args)()
    return job


class _Refused(Exception):
    pass


def _insecure(fn, text, ns):
    """Why the receiver refuses a remote call's source text (ExecuteFunctionSecureNoFormat), or None:
    the function must exist there and not be a blocked name; the text holds at most one double-quoted
    string segment, no escape or triple quote, and no ``;`` or newline outside that string."""
    if not _IDENT.match(fn) or fn in DANGEROUS:
        return "function name %r" % fn
    if not callable(ns.get(fn, getattr(_builtins, fn, None))):
        return "no function %r here" % fn
    if "\\x" in text or "\\u" in text or "'''" in text:
        return "an escape or a triple quote in %r" % text[:40]
    parts = text.split('"')
    if len(parts) > 3:
        return "more than one string segment in %r" % text[:40]
    if len(parts) == 2:
        return "a string that is not closed in %r" % text[:40]
    bare = parts[0] + parts[-1] if len(parts) == 3 else text
    if ";" in bare or "\n" in bare or "\r" in bare:
        return "more than one statement in %r" % text[:40]
    return None


def _source(a):
    """One remoteCall argument as the source text the receiver evaluates (or _Refused)."""
    if a is None or isinstance(a, bool):
        return repr(a)
    if isinstance(a, INTS) or isinstance(a, float):
        return repr(int(a)) if isinstance(a, INTS) else repr(a)
    if isinstance(a, TEXT):
        return '"%s"' % a
    if isinstance(a, PlayerApi):
        return "Player(%d)" % a._id
    if isinstance(a, CardApi):
        return "Card(%d)" % a._id
    if isinstance(a, Table):
        return "table"
    if isinstance(a, Pile):
        return "Pile(%d, '%s', Player(%d))" % (a._id, a.name, a._state.owner.pid)
    if isinstance(a, list):
        return "[%s]" % ",".join([_source(x) for x in a])
    if isinstance(a, dict):
        for k, v in a.items():
            if not _plain(k) or not _plain(v):
                raise _Refused("a dict holding %r" % (v,))
        return str(a)
    raise _Refused("an argument of type %s" % type(a).__name__)


def _plain(v):
    if v is None or isinstance(v, (bool, float) + INTS + TEXT):
        return True
    if isinstance(v, list):
        return all([_plain(x) for x in v])
    if isinstance(v, dict):
        return all([_plain(k) and _plain(x) for k, x in v.items()])
    return False


# ---------------------------------------------------------------------- API objects
class _ById(object):
    """API wrappers compare by their ``_id`` (as OCTGN's do)."""

    def __eq__(self, other):
        return isinstance(other, type(self)) and other._id == self._id

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((type(self).__name__, self._id))


class CardApi(_ById):
    def __init__(self, api, cid):
        self.__dict__["_api"] = api
        self.__dict__["_id"] = cid

    @property
    def _s(self):
        return self._api.room.cards[self._id]

    def __repr__(self):
        return "Card(%d)" % self._id

    @property
    def name(self):
        return self._api.room.package.cards[self._s.guid]["name"]

    @property
    def model(self):
        return self._s.guid

    @property
    def set(self):
        return self._api.room.package.cards[self._s.guid]["set"]

    @property
    def properties(self):
        return dict(self._api.room.package.cards[self._s.guid]["properties"])

    @property
    def owner(self):
        return self._api.player(self._s.owner)

    @property
    def controller(self):
        return self._api.player(self._s.controller)

    @property
    def group(self):
        return self._api.group(self._s.group)

    @property
    def position(self):
        return (self._s.x, self._s.y)

    @property
    def index(self):
        return self._s.group.cards.index(self._s)

    @property
    def markers(self):
        return Markers(self._api, self._s)

    @property
    def targetedBy(self):
        t = self._s.targeted_by
        return self._api.player(t) if t is not None else None

    def __getattr__(self, name):
        props = self._api.room.package.cards[self._s.guid]["properties"]
        if name in props:
            return props[name]
        raise AttributeError(name)

    def __setattr__(self, name, value):
        s = self._s
        api = self._api
        fields = {"alternate": "alternate", "isFaceUp": "face_up", "orientation": "orientation",
                  "highlight": "highlight", "filter": "filter"}
        if name in fields:
            api.touch(s)
            setattr(s, fields[name], value)
            if name == "isFaceUp" and value:
                s.peeked_by = set()
        elif name == "controller":
            room = api.room
            api.touch(s)

            def request():
                s.controller = value._state
            room.post(None, request)  # an asynchronous request
        else:
            raise AttributeError("cannot set card.%s" % name)

    def __getattribute__(self, name):
        if name in ("alternate", "isFaceUp", "orientation", "highlight", "filter"):
            s = object.__getattribute__(self, "_s")
            return getattr(s, {"isFaceUp": "face_up"}.get(name, name))
        return object.__getattribute__(self, name)

    def moveTo(self, group, index=None):
        self._api.scripted_move(self._s, group._state, index, 0, 0, True)

    def moveToBottom(self, group):
        self._api.scripted_move(self._s, group._state, len(group._state.cards), 0, 0, True)

    def moveToTable(self, x, y, forceFaceDown=False):
        self._api.scripted_move(self._s, self._api.room.table, None, x, y, not forceFaceDown)

    def target(self, active=True):
        self._s.targeted_by = self._api.client.state if active else None

    def select(self):
        pass

    def peek(self):
        s = self._s
        if not s.face_up:
            s.peeked_by.add(self._api.client.state)

    def arrow(self, other, active=True):
        pass

    def delete(self):
        s = self._s
        if s.controller is not self._api.client.state:
            self._api.warn("delete refused: %s does not control card %s" % (self._api.client.state.name, s.cid))
            return
        s.group.cards.remove(s)
        del self._api.room.cards[s.cid]


class Markers(object):
    def __init__(self, api, s):
        self.api = api
        self.s = s

    def __getitem__(self, key):
        return self.s.markers.get(tuple(key), 0)

    def __setitem__(self, key, value):
        key = tuple(key)
        api = self.api
        api.touch(self.s)
        old = self.s.markers.get(key, 0)
        if value:
            self.s.markers[key] = int(value)
        else:
            self.s.markers.pop(key, None)
        cid = self.s.cid
        for c in api.room.connected():
            c.fire("OnMarkerChanged", lambda cl: Args(card=cl.api.card(cid), marker=key[0], id=key[1],
                                                      value=old, scripted=True))

    def __iter__(self):
        return iter([k for k, v in self.s.markers.items() if v])


class Pile(_ById):
    def __init__(self, api, state):
        self._api = api
        self._state = state

    @property
    def _id(self):
        return self._state.gid

    @property
    def name(self):
        return self._state.name

    @property
    def player(self):
        return self._api.player(self._state.owner) if self._state.owner else None

    @property
    def visibility(self):
        return self._state.visibility

    def __len__(self):
        return len(self._state.cards)

    def __getitem__(self, i):
        return self._api.card(self._state.cards[i].cid)

    def __iter__(self):
        return iter([self._api.card(c.cid) for c in self._state.cards])

    def top(self, n=None):
        cards = self._state.cards
        if n is None:
            return self._api.card(cards[0].cid) if cards else None
        return (self._api.card(c.cid) for c in cards[:n])

    def bottom(self, n=None):
        cards = self._state.cards
        if n is None:
            return self._api.card(cards[-1].cid) if cards else None
        return (self._api.card(c.cid) for c in cards[-n:])

    def create(self, model, quantity=1):
        out = [self._api.create_card(model, self._state, 0, 0, True) for _ in range(quantity)]
        return out[0] if quantity == 1 else out

    def random(self):
        cards = self._state.cards
        return self._api.card(cards[self._api.client.rand.below(len(cards))].cid) if cards else None

    def shuffle(self):
        cards = self._state.cards
        rand = self._api.room.rand
        for i in range(len(cards) - 1, 0, -1):
            j = rand.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


class Table(Pile):
    def create(self, model, x, y, quantity=1, persist=False, facedown=False):
        """Make ``quantity`` cards of ``model`` on the table, owned by the local player: one Card, or a
        list when ``quantity`` is not 1."""
        out = [self._api.create_card(model, self._api.room.table, x, y, not facedown) for _ in range(quantity)]
        return out[0] if quantity == 1 else out


class PlayerApi(_ById):
    def __init__(self, api, state):
        self.__dict__["_api"] = api
        self.__dict__["_state"] = state

    @property
    def _id(self):
        return self._state.pid

    @property
    def name(self):
        return self._state.name

    @property
    def color(self):
        return "#%06x" % (self._state.pid * 0x334455 & 0xFFFFFF)

    @property
    def isActive(self):
        return self._api.room.active is self._state

    @property
    def counters(self):
        return dict((n, Counter(self._api, self._state, n)) for n in self._state.counters)

    @property
    def piles(self):
        return _Piles([(g.name, Pile(self._api, g)) for g in self._state.piles])

    @property
    def hand(self):
        return self.piles["Hand"]

    def getGlobalVariable(self, name):
        return self._api.get_player_global(self._state, name)

    def setGlobalVariable(self, name, value):
        self._api.set_player_global(self._state, name, value)

    def __repr__(self):
        return "Player(%d)" % self._id

    def __getattr__(self, name):
        for g in self._state.piles:
            if g.name.lower() == name.lower():
                return Pile(self._api, g)
        if name in self._state.counters:
            return self._api.client.counters[(self._state.pid, name)]
        raise AttributeError(name)

    def __setattr__(self, name, value):
        if name in self._state.counters:
            Counter(self._api, self._state, name).value = value
            return
        raise AttributeError("cannot set player.%s" % name)


class _Piles(object):
    """Piles by name, case-insensitive."""

    def __init__(self, items):
        self.items = items

    def __getitem__(self, name):
        for n, p in self.items:
            if n.lower() == name.lower():
                return p
        raise KeyError(name)

    def keys(self):
        return [n for n, _ in self.items]


class Counter(object):
    def __init__(self, api, state, name):
        self._api = api
        self._state = state
        self.name = name

    @property
    def player(self):
        return self._api.player(self._state)

    @property
    def value(self):
        return self._api.client.counters[(self._state.pid, self.name)]

    @value.setter
    def value(self, v):
        """Counter.SetValue: the writer's display changes at once; the update reaches the server and
        every client (the writer too) about a second later."""
        api = self._api
        client = api.client
        old = client.counters[(self._state.pid, self.name)]
        client.counters[(self._state.pid, self.name)] = int(v)
        api.room.delayed.append((self._state, self.name, int(v)))
        api.room.auto(client, "%s sets %s's %s to %d." % (client.state.name, self._state.name, self.name, int(v)))
        state = self._state
        name = self.name
        api.client.fire("OnCounterChanged", lambda cl: Args(player=cl.api.player(state), counter=name,
                                                            value=old, scripted=True))


class CardDlg(object):
    def __init__(self, api, cards, bottom):
        self._api = api
        self.cards = cards
        self.bottom = bottom
        self.title = ""
        self.label = ""
        self.text = ""
        self.min = None
        self.max = None

    def show(self):
        picked = self._api._ask("cardDlg", cards=list(self.cards), title=self.title, text=self.text,
                                min=self.min, max=self.max)
        if picked is None:
            return None
        ids = [c._id for c in self.cards]
        for c in picked:
            if c._id not in ids:
                raise StandInError("cardDlg answered with a card it did not show")
        if len(set([c._id for c in picked])) != len(picked):
            raise StandInError("cardDlg answered with a card twice")
        lo = self.min if self.min is not None else 0
        hi = self.max if self.max is not None else len(self.cards)
        if not lo <= len(picked) <= hi:
            raise StandInError("cardDlg answered %d cards (min %s, max %s)" % (len(picked), self.min, self.max))
        return list(picked)
