"""The OCTGN host: OCTGN's events, menus and dialogs on one side, the engine's ports on the other.

Every client runs the scripts and keeps its own engine (a :class:`lockstep.Session`); the engines
stay identical because a game is determined by its seed, decks and inputs, and clients exchange
only inputs (``remoteCall``).  docs/octgn-host.md describes the protocol; in short:

* every client announces its build and its commitments (the end of its hash chain, its seed share's
  commitment: :mod:`auth`); the elected client (lowest player ``_id``) writes the *start* input
  (seats, commitments, the cards of each deck) once every player has loaded a deck and announced
  the same build; every client then reveals its seed share, and the seed comes from all of them;
* every input carries the token of its seat, which every client checks: an input in another seat's
  name is refused on every client (and said in the chat), and the game goes on;
* the engine stops at every decision it has no input for.  Main/attack/defense decisions are
  answered with card and table menus, any other decision with a dialog that opens at once on the
  client of the player who decides;
* the client that made an input (the *acting* client) runs the engine, writes the result on the
  shared table (moves, markers, counters, highlight; effect records become chat lines), sends the
  input to every other client and writes the log and a checksum of its engine state into global
  variables; the others run the same input and compare checksums;
* an input from a player who is not the one deciding (conceding) is forwarded to the client of the
  player who decides, which puts it in the one order every client follows.
"""
from __future__ import absolute_import, division, print_function

from rulescript.games import load as load_game
from rulescript.runtime.ports import LIST_KINDS

from . import auth, codec, dialogs, tablesync
from .lockstep import Session

HOST_VERSION = "1"

# global variables; manifest.py declares them
LOG = "rs_log"
CHECK = "rs_check"
CARDS = "rs_cards"
# functions other clients call with remoteCall
REMOTE_HELLO = "rs_hello"
REMOTE_IN = "rs_in"
REMOTE_RESEND = "rs_resend"
REMOTE_FORWARD = "rs_forward"
REMOTE_OFF = "rs_off"
REMOTE_REBUILD = "rs_rebuild"
REMOTE_REVEAL = "rs_reveal"
#: the local setting that keeps this client's secret (a reloaded client needs it to go on playing)
SECRET = "rs_secret"


class Octgn(object):
    """OCTGN's API as the host uses it: every name is looked up in the scripts' shared namespace when
    it is used (imported modules do not see the API globals)."""

    def __init__(self, ns):
        self.ns = ns
        self._players = {}

    def __getattr__(self, name):
        try:
            return self.ns[name]
        except KeyError:
            raise AttributeError(name)

    @property
    def me(self):
        return self.ns["me"]

    def card(self, cid):
        return self.ns["Card"](cid)

    def players(self):
        return sorted(self.ns["getPlayers"](), key=lambda p: p._id)

    def player(self, pid):
        p = self._players.get(pid)
        if p is None:
            for q in self.ns["getPlayers"]():
                self._players[q._id] = q
            p = self._players.get(pid)
        return p

    def pile(self, pid, name):
        return self.player(pid).piles[name]

    def table(self):
        return self.ns["table"]


class Host(object):
    """The host of one client.  ``ns`` is the scripts' shared namespace: OCTGN's API plus ``GAME``
    (gamedata.py) and ``RULES``/``RULES_FINGERPRINT`` (rules.py)."""

    def __init__(self, ns):
        self.octgn = Octgn(ns)
        data = ns["GAME"]
        rules = ns["RULES"]
        # rules.py's RULES is the IR document; its "rules" map (rule id -> IR) may be a LazyRules
        if isinstance(rules, dict) and hasattr(rules.get("rules"), "keys") and "format" in rules:
            rules = rules["rules"]
        self.rules = rules
        self.package = load_game(data["profile"])
        self.face = __import__(self.package.__name__ + ".table", {}, {}, ["view"], 0)
        self.models = {}
        self.model_of_guid = {}
        self.guid_of_model = {}
        for guid, card in data["cards"].items():
            self.models[card["id"]] = card
            self.model_of_guid[str(guid).lower()] = card["id"]
            self.guid_of_model[card["id"]] = str(guid)
        self.fields = data.get("fields") or {}
        self.build = codec.token("%s.%s.%s" % (str(data.get("fingerprint"))[:16],
                                               str(ns.get("RULES_FINGERPRINT"))[:16], HOST_VERSION))
        self.card_dos = [a["do"] for a in self.face.CARD_ACTIONS]
        self.game_dos = [a["do"] for a in self.face.GAME_ACTIONS]
        self.labels = dict((a["do"], a["menu"]) for a in self.face.CARD_ACTIONS + self.face.GAME_ACTIONS)
        self.sections = [s["pile"] for s in self.face.DECK_SECTIONS]
        self.errors = []
        self.builds = {}     # player id -> the build that player's client announced (kept on resets)
        self.commits = {}    # player id -> "chain end:share commitment" that player's client announced
        self.keys = None     # this client's secrets (auth.Keys)
        self.keys_used = False
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self, new_game=True):
        """Forget the game (OnGameStarted fires again on every reset); ``new_game`` False keeps this
        client's secrets (a rebuild of the same game)."""
        self.session = None
        self.pids = []       # seat -> OCTGN player id
        self.cid = {}        # engine iid -> OCTGN card id
        self.iid = {}        # OCTGN card id -> engine iid
        self.names = {}      # engine iid -> card name
        self.view = None     # the table view the shared table shows
        self.hl = None       # the highlighted card (iid)
        self.off = None      # why automation is off, or None
        self.checks = {}     # input count -> (writer pid, checksum) not compared yet
        self.prompted = None
        self.told = set()    # one-time explanations already given
        self.hint = None
        self.writer = None
        self.created = {}    # engine iid -> OCTGN card id of the cards made on the table during the game
        self.peeked = {}     # engine iid -> where the local player last looked at the face-down card
        self.stale = False   # True: the table may show more than self.view (rebuilt after a reload)
        self.starting = None  # (start item, decoded) while the seed shares come in
        self.shares = {}     # seat -> seed-share item
        self.early = []      # seed-share items that came before the start
        self.refused = set()  # refused inputs already said in the chat
        if self.keys_used and new_game:   # a new game needs new secrets (announced again)
            self.keys = None
            self.keys_used = False
            self.commits = {}

    def me_id(self):
        return self.octgn.me._id

    def seat(self):
        """The local player's seat, or None (not seated, or no game)."""
        me = self.me_id()
        return self.pids.index(me) if me in self.pids else None

    def elected(self, exclude=None):
        ids = [p._id for p in self.octgn.players() if p._id != exclude]
        return bool(ids) and self.me_id() == min(ids)

    def automating(self):
        return self.off is None and self.session is not None and not self.session.over

    def pending(self):
        return self.session.pending if self.session is not None else None

    def mine(self):
        req = self.pending()
        return req is not None and self.off is None and req["player"] == self.seat()

    def gate(self, request):
        """The menu item that opens ``request`` (the table face's ``menu_for``: ``{"do", "card",
        "decline"}``), or None.  Such a decision waits for that item, then asks its options in a dialog;
        the ``decline`` item (a table menu item) answers None where the decision allows it."""
        menu_for = getattr(self.face, "menu_for", None)
        if menu_for is None or request is None:
            return None
        return menu_for(request)

    def secret(self, request):
        """True when the other players must not learn who decides ``request`` (the table face's
        ``secret(request, state)``): no highlight, and nobody is named as deciding."""
        secret = getattr(self.face, "secret", None)
        if secret is None or request is None or self.session is None:
            return False
        return bool(secret(request, self.session.state))

    def is_menu(self, request):
        if self.gate(request) is not None:
            return True
        dos = self.card_dos + self.game_dos
        for o in request["options"]:
            if not isinstance(o, dict) or o.get("do") not in dos:
                return False
        return bool(request["options"])

    # ------------------------------------------------------------------ names
    def card_name(self, iid):
        """The name of an engine card, or of a card id of the game (``seer``)."""
        name = self.names.get(iid)
        if name is not None:
            return name
        model = iid if isinstance(iid, _TEXT) else None
        if model is None and self.view is not None and iid in self.view["cards"]:
            model = self.view["cards"][iid].get("model")
        if model in self.models:
            return self.models[model].get("name", model)
        return "card #%s" % (iid,)

    def player_name(self, seat):
        if 0 <= seat < len(self.pids):
            p = self.octgn.player(self.pids[seat])
            if p is not None:
                return p.name
        return "player %s" % (seat + 1,)

    def describe(self, kind, option):
        """A readable label for a decision option (or, with kind ``card``, for a card)."""
        if kind == "card":
            return self.card_name(option)
        own = getattr(self.face, "option_text", None)
        text = own(kind, option, self.player_name, self.card_name) if own is not None else None
        if text is not None:
            return text
        if isinstance(option, dict):
            if "do" in option:
                parts = [self.labels.get(option["do"], option["do"])]
                for k in sorted(option):
                    v = option[k]
                    if k == "do":
                        continue
                    if k == "player":
                        parts.append(self.player_name(v))
                    elif v in self.cid and not isinstance(v, bool):
                        parts.append(self.card_name(v) if k == "card" else "%s %s" % (k, self.card_name(v)))
                    else:
                        parts.append("%s %s" % (k, v))
                return ": ".join(parts[:1] + [", ".join(parts[1:])]) if len(parts) > 1 else parts[0]
            if "player" in option:
                return self.player_name(option["player"])
        if isinstance(option, bool):
            return "Yes" if option else "No"
        if isinstance(option, int):
            if kind in ("choose_player", "choose_ring"):
                return self.player_name(option)
            if kind == "choose_slot":
                return "Slot %d" % (option + 1)
            if kind in LIST_KINDS and option in self.cid:
                return self.card_name(option)
        return str(option)

    def question(self, request):
        """The dialog title the table face gives a decision (None: the prompt, as dialogs.py makes it)."""
        own = getattr(self.face, "question", None)
        if own is None or self.session is None:
            return None
        return own(request, self.session.state, self.card_name, self.player_name)

    def title(self, request):
        """A dialog's title: the question in words and what closing the dialog does."""
        text = self.question(request)
        note = getattr(self.face, "closing", None)
        note = note(request) if text and note is not None else None
        return "%s %s" % (text, note) if note else text

    def closed(self, request):
        """Tell the player what closing the dialog did (the table face's words), if anything."""
        own = getattr(self.face, "closed", None)
        text = own(request, self.card_name, self.player_name) if own is not None else None
        if text:
            self.tell(text)

    def card_of(self, option):
        if isinstance(option, int) and not isinstance(option, bool) and option in self.cid:
            return self.octgn.card(self.cid[option])
        return None

    # ------------------------------------------------------------------ chat
    def say(self, text):
        self.octgn.notify(text)

    def tell(self, text):
        self.octgn.whisper(text)

    def lines(self, records):
        """``[(text, readers)]`` of the records: ``readers`` None for everybody, else the seats that may
        read the line (the table face's ``audience(record)``)."""
        describe = getattr(self.face, "describe", None)
        audience = getattr(self.face, "audience", None)
        out = []
        for rec in records:
            line = describe(rec, self.card_name, self.player_name) if describe else _generic_line(rec)
            if line:
                out.append((line, audience(rec) if audience is not None else None))
        return out

    def narrate(self, records, author):
        """Every client writes the lines its player may read into its own chat (``whisper`` is local),
        as it runs the inputs: public and private lines then read in the game's order on every client
        (a line the acting client sent with ``notify`` would overtake the private lines before it)."""
        me = self.seat()
        for text, readers in self.lines(records):
            if readers is None or (me is not None and me in readers):
                self.tell(text)

    # ------------------------------------------------------------------ OCTGN events
    def on_game_started(self):
        """OnGameStarted fires at the start and again on every reset: forget the game (the builds the
        other clients announced stay known, and a mismatch keeps automation off)."""
        self.reset()
        for pid, build in sorted(self.builds.items()):
            if build != self.build:
                self.version_mismatch(self.octgn.player(pid), build)
        if self.keys is None:    # the secrets of the last game are spent: announce new ones
            self.hello()

    def hello(self, to=None, reply=False):
        """Tell the other clients which build this client runs and its commitments (they answer with
        theirs): ``rs_hello(pid, "<build>,<chain end>:<share commitment>", reply)`` (one string: OCTGN
        takes one string segment per remote call)."""
        me = self.me_id()
        text = "%s,%s" % (self.build, self.my_commit())
        for p in self.octgn.players():
            if p._id != me and (to is None or p._id == to):
                self.octgn.remoteCall(p, REMOTE_HELLO, [me, text, 1 if reply else 0])

    def remote_hello(self, pid, text, reply):
        build, _, commit = str(text)[:200].partition(",")
        self.builds[pid] = build
        if build != self.build:
            self.version_mismatch(self.octgn.player(pid), build)
        parts = commit.split(":")
        if len(parts) == 2 and auth.is_token(parts[0]) and auth.is_token(parts[1], auth.SHARE_LEN):
            self.commits[pid] = commit
        if not reply:
            self.hello(to=pid, reply=True)
        self.try_start()

    # ------------------------------------------------------------------ secrets
    def my_keys(self):
        """This client's secrets: made for a new game from local random numbers, kept in a local setting
        so that the client goes on after "reload scripts" or a rejoin."""
        if self.keys is None:
            octgn = self.octgn
            numbers = list(octgn.rndArray(0, (1 << 30) - 1, 8)) + [self.me_id(), octgn.me.name]
            secret = auth.new_secret(numbers)
            self.keys = auth.Keys(secret)
            octgn.setSetting(SECRET, secret)
        return self.keys

    def my_commit(self):
        keys = self.my_keys()
        return "%s:%s" % (keys.end(0), auth.share_commitment(keys.share()))

    def stored_keys(self):
        """The secrets kept in the local setting (after a reload), or None."""
        secret = str(self.octgn.getSetting(SECRET, "") or "")
        if auth.is_token(secret, auth.SHARE_LEN):
            self.keys = auth.Keys(secret)
            self.keys_used = True
        return self.keys

    def sign(self, payload):
        """An input of the local player: the payload with the next token of its seat."""
        seat = self.seat()
        if self.keys is None or seat is None:
            raise codec.InputError("this client has not the secret of its seat (it was made for another game)")
        return codec.sign(payload, self.keys.token(self.session.chains.count[seat]))

    def prepare_keys(self):
        """Compute the next chain segment ahead (off the action path)."""
        seat = self.seat()
        if self.keys is not None and seat is not None and self.session is not None:
            self.keys.prepare(self.session.chains.count[seat])

    def refuse(self, exc, pid=None):
        """An input that proves no seat (forged, replayed or malformed): nothing changes, and the
        player of this client reads it once in the chat."""
        seat = getattr(exc, "seat", None)
        at = len(self.session.log) if self.session is not None else -1
        key = (seat, getattr(exc, "why", str(exc)), getattr(exc, "item", ""), at)
        if key in self.refused:
            return
        self.refused.add(key)
        pids = self.pids or [p._id for p in self.octgn.players()]    # before the start: the players
        who = "no seat"
        if seat is not None and 0 <= seat < len(pids):
            player = self.octgn.player(pids[seat])
            who = "seat %d (%s)" % (seat + 1, player.name if player is not None else "?")
        self.tell("Automation: refused an input in the name of %s: %s. The game goes on." % (
            who, getattr(exc, "why", str(exc))))

    def wake(self):
        """After "reload scripts", or for a client that rejoined: no start event fires, so the host is
        made on the first call and rebuilds the game from the inputs kept in the global variables (the
        log up to the last turn's end), then asks another client for the inputs since."""
        log = self.read_log()
        if log:
            self.stored_keys()
        self.hello()
        if log and self.off is None:
            try:
                self.rebuild(log)
            except codec.InputError as e:
                self.turn_off("this client cannot rebuild the game: %s" % e, broadcast=False)
                return
            self.stale = True    # the table shows the game after the inputs still to come
            self.ask_tail()

    def ask_tail(self):
        """Ask the other clients for the inputs after this client's log (every one: another may have
        reloaded too; inputs that overlap what this client has are skipped)."""
        if self.session is None:
            return
        me = self.me_id()
        for p in self.octgn.players():
            if p._id != me:
                self.ask_resend(p._id, len(self.session.log))

    def on_deck_loaded(self, args):
        if self.session is not None and args is not None and getattr(args, "player", None) is not None:
            if args.player._id == self.me_id():
                self.tell("The automated game has started: cards loaded now are not part of it.")
        self.try_start()

    def on_global_variable(self, args):
        name = getattr(args, "name", None)
        if name == CHECK:
            self.check(args.value)
        elif name == CARDS and self.session is not None:
            self.merge_created(args.value)
            self.peek_own()      # a card made by another client for this player: look at it now

    def on_player_connected(self, args):
        """A player rejoined: the first other client sends it the whole input log."""
        who = getattr(args, "player", None)
        if who is None or self.session is None or who._id == self.me_id():
            return
        if self.elected(exclude=who._id):
            self.octgn.remoteCall(who, REMOTE_IN, [self.me_id(), 0, codec.join(self.session.log)])

    # ------------------------------------------------------------------ the start
    def seat_counts(self):
        """The numbers of players the game allows (the table face's ``seat_counts(fields)``), or None."""
        counts = getattr(self.face, "seat_counts", None)
        return list(counts(self.fields)) if counts is not None else None

    def seats_ok(self, n):
        counts = self.seat_counts()
        if counts is not None:
            return n in counts
        seats = getattr(self.face, "SEATS", None)
        if seats is None:
            return n >= 1
        if isinstance(seats, int):
            return n == seats
        return seats[0] <= n <= seats[1]

    def try_start(self):
        """On the elected client: start once every player has a deck and the same build."""
        if self.session is not None or self.off is not None or not self.elected():
            return
        if self.octgn.getGlobalVariable(LOG):
            return
        players = self.octgn.players()
        if not self.seats_ok(len(players)):
            if "seats" not in self.told:
                self.told.add("seats")
                self.say("Automation waits: this game is for %s players and %d are playing." % (
                    _seats_text(getattr(self.face, "SEATS", None), self.seat_counts()), len(players)))
            return
        if self.starting is not None:
            return
        seats = []
        for p in players:
            if p._id != self.me_id() and self.builds.get(p._id) != self.build:
                return  # no (or another) build announced yet
            commit = self.my_commit() if p._id == self.me_id() else self.commits.get(p._id)
            if commit is None:
                return  # no commitments yet
            cards = self.deck_of(p)
            if not cards and self.sections:
                return      # no deck yet (a game without deck sections deals every card itself)
            end, commitment = commit.split(":")
            seats.append((p._id, end, commitment, cards))
        for pid, _end, _c, cards in seats:
            for cid in cards:
                if str(self.octgn.card(cid).model).lower() not in self.model_of_guid:
                    self.turn_off("card %s of %s is not a card of this game" % (
                        self.octgn.card(cid).name, self.octgn.player(pid).name), broadcast=False)
                    return
        item = codec.encode_start(self.build, seats)
        me = self.me_id()
        for p in players:
            if p._id != me:
                self.octgn.remoteCall(p, REMOTE_IN, [me, 0, item])
        self.take_start(item)

    def deck_of(self, player):
        """The OCTGN ids of the cards in the player's deck piles, ascending."""
        cards = []
        for name in self.sections:
            cards.extend([c._id for c in player.piles[name]])
        return sorted(cards)

    def deck_limit(self):
        return getattr(self.face, "DECK_MAX", codec.MAX_DECK)

    def take_start(self, item):
        """The start item of a new game (every client): checked against what this client knows (the
        players, their decks, the commitments they announced, its own), then this client reveals its
        seed share; the game begins once every share is in."""
        start = codec.decode_start(item, self.deck_limit())
        if start["build"] != self.build:
            raise Refused("the game was started with build %s; this client runs build %s" % (
                start["build"], self.build))
        players = self.octgn.players()
        if [s["pid"] for s in start["seats"]] != [p._id for p in players]:
            raise codec.Forged(None, "a start whose seats are not the players of this game", item[:40])
        me = self.me_id()
        for seat, (s, p) in enumerate(zip(start["seats"], players)):
            known = self.my_commit() if p._id == me else self.commits.get(p._id)
            if known is not None and known != "%s:%s" % (s["end"], s["commitment"]):
                raise codec.Forged(seat, "a start with commitments that are not this seat's", item[:40])
            if s["cards"] != self.deck_of(p):
                raise codec.Forged(seat, "a start with cards that are not this seat's deck", item[:40])
        self.starting = (item, start)
        self.keys_used = True
        seat = [p._id for p in players].index(me)
        own = codec.reveal_item(seat, self.my_keys().share())
        self.shares[seat] = own
        for p in players:
            if p._id != me:
                self.octgn.remoteCall(p, REMOTE_REVEAL, [me, own])
        early, self.early = self.early, []
        for share in early:
            self.remote_reveal(None, share)
        self.try_begin()

    def remote_reveal(self, pid, item):
        """A seed share from another client: kept if it opens its seat's commitment."""
        if self.off is not None or not isinstance(item, _TEXT):
            return
        try:
            codec.check_item(item)
            seat = codec.revealing_seat(item)
            if self.session is not None:     # the game began: only the shares it began with
                if item not in self.session.log[:self.session.head]:
                    raise codec.Forged(seat if seat is not None and seat < len(self.pids) else None,
                                       "a seed share after the start", item[:40])
                return
            if self.starting is None:
                if seat is not None and len(self.early) < codec.MAX_SEATS:
                    self.early.append(item)
                return
            seats = self.starting[1]["seats"]
            if self.shares.get(seat) == item:
                return       # the same share again
            if seat is None or seat >= len(seats) or seat in self.shares:
                raise codec.Forged(seat if seat is not None and seat < len(seats) else None,
                                   "a seed share that is not expected", item[:40])
            share = codec.unsign(item)[1]
            if auth.share_commitment(share) != seats[seat]["commitment"]:
                raise codec.Forged(seat, "a seed share that does not open the seat's commitment", item[:40])
        except codec.Forged as e:
            self.refuse(e, pid)
            return
        self.shares[seat] = item
        self.try_begin()

    def try_begin(self):
        """Once every seed share is in: begin the game (every client), the elected client writes the
        log, and the player who decides first is asked."""
        item, start = self.starting
        n = len(start["seats"])
        if len(self.shares) < n:
            return
        head = [item] + [self.shares[k] for k in range(n)]
        self.begin(head)
        records = self.session.add([])
        elected = self.elected()
        self.after_run(records, author=elected)
        if elected:
            sess = self.session
            self.octgn.setGlobalVariable(LOG, codec.encode_part(0, sess.log))
            self.octgn.setGlobalVariable(CHECK, codec.encode_check(len(sess.log), self.me_id(), sess.digest()))
        self.continue_here()

    def head_of(self, log):
        """The head of an input log: the start item and one seed share per seat."""
        start = codec.decode_start(log[0], self.deck_limit())
        return log[:1 + len(start["seats"])]

    def begin(self, head):
        """Make the session of the start item and the seed shares (every client); returns the
        checkpoint index.  Raises ``codec.Forged`` when a share does not open its commitment."""
        item = head[0]
        start = codec.decode_start(item, self.deck_limit())
        if start["build"] != self.build:
            raise Refused("the game was started with build %s; this client runs build %s" % (
                start["build"], self.build))
        n = len(start["seats"])
        if len(head) != n + 1:
            raise codec.InputError("the log holds %d of the %d seed shares" % (len(head) - 1, n))
        shares = []
        for seat, share_item in enumerate(head[1:]):
            share = codec.unsign(share_item)[1]
            if codec.revealing_seat(share_item) != seat or auth.share_commitment(share) != \
                    start["seats"][seat]["commitment"]:
                raise codec.Forged(seat, "a seed share that does not open the seat's commitment",
                                   share_item[:40])
            shares.append(share)
        seed = auth.seed_of(shares)
        self.pids = [s["pid"] for s in start["seats"]]
        me = self.seat()
        if me is not None and (self.keys is None or self.keys.end(0) != start["seats"][me]["end"]):
            self.keys = None     # not this game's secret: this client cannot make inputs
            self.tell("Automation: this client has not the secret it started this game with; it can "
                      "follow the game but not make inputs.")
        decks = []
        for s in start["seats"]:
            decks.append([self.model_of_guid.get(str(self.octgn.card(cid).model).lower())
                          for cid in s["cards"]])
            if None in decks[-1]:
                raise codec.InputError("a card of the start is not a card of this game")
        new_game = getattr(self.face, "new_game", None)
        if new_game is not None and getattr(self.face, "GAME_FIELDS", None) is not None:
            # the long form: the game.yaml fields the package carries and the players' names by seat
            fields, own = self.fields, new_game
            names = [self.player_name(seat) for seat in range(len(self.pids))]
            new_game = lambda models, decks, seed: own(models, decks, seed, fields, names)  # noqa: E731
        self.session = Session(self.package, self.models, self.rules, head, decks, seed,
                               [s["end"] for s in start["seats"]], new_game)
        if me is not None and self.keys is not None:
            self.session.chains.own = (me, self.keys)   # its own tokens need no hashing to check
        first = self.face.view(self.session.initial, self.models)["cards"]
        self.cid = {}
        self.iid = {}
        self.names = {}
        for seat, s in enumerate(start["seats"]):
            mine = [(self.sections.index(v["pile"]), v["index"], iid) for iid, v in first.items()
                    if v["player"] == seat and v["pile"] in self.sections]
            mine.sort()
            if len(mine) != len(s["cards"]):
                raise codec.InputError("seat %d: the game made %d cards of a %d-card deck" % (
                    seat, len(mine), len(s["cards"])))
            for (_, _, iid), cid, model in zip(mine, s["cards"], decks[seat]):
                self.cid[iid] = cid
                self.iid[cid] = iid
                self.names[iid] = self.models[model].get("name", model)
        self.writer = tablesync.TableWriter(self.octgn, self.face, self.cid, self.pids, self.guid_of_model)
        self.view = self.face.view(self.session.initial, self.models)
        self.hl = None
        self.created = {}
        self.merge_created(self.octgn.getGlobalVariable(CARDS))
        return self.session.ckpt_at

    # ------------------------------------------------------------------ cards made during the game
    def merge_created(self, value):
        """Learn the OCTGN cards another client made for engine cards (the global variable ``rs_cards``:
        ``iid:card id`` pairs), written by the acting client before it sends its inputs."""
        for iid, cid in codec.decode_pairs(value):
            if iid not in self.cid and cid not in self.iid:
                self.cid[iid] = cid
                self.iid[cid] = iid
                self.created[iid] = cid

    def note_created(self):
        """After the table writer made cards: remember them and tell the other clients."""
        fresh = self.writer.made
        if not fresh:
            return
        self.writer.made = []
        for iid, cid in fresh:
            self.iid[cid] = iid
            self.created[iid] = cid
        self.octgn.setGlobalVariable(CARDS, codec.encode_pairs(sorted(self.created.items())))

    def peek_own(self):
        """Look at the face-down cards the view lets the local player see (``seen_by``); OCTGN forgets a
        peek when the card moves, so a card is looked at again when its place changes."""
        me = self.seat()
        if me is None or self.view is None:
            return
        for iid, v in sorted(self.view["cards"].items()):
            if v["face_up"] or me not in (v.get("seen_by") or ()) or iid not in self.cid:
                if iid in self.peeked and v["face_up"]:
                    del self.peeked[iid]
                continue
            where = (v["player"], v["pile"], v["slot"], v["index"])
            if self.peeked.get(iid) != where:
                self.octgn.card(self.cid[iid]).peek()
                self.peeked[iid] = where

    # ------------------------------------------------------------------ running inputs
    def after_run(self, records, author):
        """After the engine ran: the acting client writes the table and the chat; everyone keeps the
        view, syncs the active player and phase, compares checksums and prompts its player."""
        sess = self.session
        view = self.face.view(sess.state, self.models)
        req = sess.pending
        hl = req.get("source") if req is not None and not self.secret(req) else None
        self.writer.write(None if self.stale else self.view, view, self.hl, hl, create=author)
        self.stale = False
        if author:
            self.note_created()
            if self.writer.unshown and "unshown" not in self.told:
                self.told.add("unshown")
                self.say("Automation: %d card(s) of the game have no card on the table (the table face "
                         "names no card of the game for them)." % len(self.writer.unshown))
        else:
            sess.digest()  # the end of a batch another client sent: its writer publishes this checksum
        self.narrate(records, author)
        self.view = view
        self.hl = hl
        self.peek_own()
        self.sync_turn()
        self.compare_checks()
        self.prompt()

    def publish(self, first, items, ck_before):
        """The acting client sends its inputs to every other client and writes the log and the
        checksum into global variables."""
        if not items:
            return
        sess = self.session
        me = self.me_id()
        text = codec.join(items)
        for p in self.octgn.players():
            if p._id != me:
                self.octgn.remoteCall(p, REMOTE_IN, [me, first, text])
        ck = sess.ckpt_at
        if ck != ck_before or first == 0 or sess.over:
            self.octgn.setGlobalVariable(LOG, codec.encode_part(0, sess.log[:ck]))
        n = len(sess.log)
        self.octgn.setGlobalVariable(CHECK, codec.encode_check(n, me, sess.digest()))

    def submit(self, payloads, hint=None):
        """Inputs made on this client (a menu item, a move): signed with its seat's tokens, run, own
        dialogs answered, published."""
        try:
            items = [self.sign(p) for p in payloads]
        except codec.InputError as e:
            self.tell("Automation: %s." % e)
            return
        self.submit_signed(items, hint)

    def submit_signed(self, items, hint=None):
        sess = self.session
        first = len(sess.log)
        ck = sess.ckpt_at
        records = self.run_local(items)
        if records is None:
            return
        self.after_run(records, author=True)
        self.hint = hint
        more = self.answer_dialogs()
        self.publish(first, items + more, ck)

    def run_local(self, items):
        """Run inputs made on this client for the decision its player saw; None if they were not run.

        They were made for the open decision, so they fit unless this engine no longer replays its own
        inputs: that is a desync of this client, reported and repaired by rebuilding the engine from
        its inputs (then the inputs run if the decision is still the same)."""
        req = self.session.pending
        try:
            return self.session.add(items)
        except codec.Forged as e:
            self.refuse(e)
            return None
        except codec.InputError as e:
            self.say("Automation: desync detected on %s's client: its engine does not replay its own "
                     "inputs (%s). Rebuilding it from the inputs." % (self.octgn.me.name, e))
        log = list(self.session.log)
        try:
            self.rebuild(log)
            if self.session.pending != req:
                self.tell("The game was rebuilt and asks something else now: choose again.")
                return None
            records = self.session.add(items)
        except codec.InputError:   # a Forged too: its own inputs no longer prove its seat
            self.turn_off("the engine of %s does not replay its own inputs" % self.octgn.me.name,
                          broadcast=True)
            return None
        self.writer.write(None, self.view, None, self.hl)
        self.say("Automation: %s's client is in step again (input %d); the table is redrawn." % (
            self.octgn.me.name, len(log)))
        return records

    def answer_dialogs(self):
        """Open a dialog for each decision of the local player that menus do not answer; returns the
        input items answered (the caller publishes them)."""
        out = []
        sess = self.session
        while self.mine() and not self.is_menu(sess.pending):
            req = sess.pending
            hint, self.hint = self.hint, None
            if hint is not None and req["kind"] == "choose_slot" and req["options"]:
                answer = tablesync.slot_at(self.face, self.seat(), hint[0], req["options"])
            else:
                ok, answer = dialogs.ask(self.octgn, req, self.describe, self.card_of, title=self.title(req))
                if ok and answer is None:  # a closed dialog that answers: say what it did
                    self.closed(req)
                if not ok:
                    self.tell("The question is still open (%s): double-click a card, press the turn "
                              "button or use the table menu Answer the open question." % answer)
                    break
            item = self.sign(codec.encode_answer(req, answer))
            records = self.run_local([item])
            if records is None:
                break
            sess = self.session
            out.append(item)
            self.after_run(records, author=True)
        return out

    def answer_open(self):
        """Table menu: reopen the dialog of the local player's open decision."""
        if not self.mine() or self.is_menu(self.session.pending):
            self.tell(self.why_not() or "No question is open for you.")
            return
        self.continue_here()

    def remote_in(self, pid, first, text):
        """Inputs from another client (``first``: the log index of the first one).  Items that prove no
        seat (a forged, replayed or malformed input) are refused on every client alike."""
        if self.off is not None or not isinstance(text, _TEXT) or not isinstance(first, int):
            return
        try:
            items = codec.split(text[:codec.MAX_START * 4])
            for item in items:
                try:
                    codec.check_item(item)
                except codec.Forged as e:
                    e.seat = self.claimed(item)
                    raise
            self.take_inputs(pid, first, items)
        except codec.Forged as e:
            self.refuse(e, pid)
        self.prepare_keys()

    def claimed(self, item):
        """The seat an input claims to come from: the conceding seat, else the seat that decides."""
        seat = codec.conceding_seat(item[:codec.MAX_DIGITS + 1].partition(codec.PROOF)[0])
        if seat is None and self.session is not None and self.session.pending is not None and \
                item[:1] not in ("S", "R"):
            seat = self.session.pending["player"]
        return seat if seat is not None and seat < len(self.pids) else None

    def take_inputs(self, pid, first, items):
        if not items:
            return
        fresh = False
        if self.session is None:
            if first != 0:
                self.ask_resend(pid, 0)
                return
            try:
                if len(items) == 1:          # a new game: the start, before the seed shares
                    if self.starting is not None:
                        if items[0] != self.starting[0]:
                            raise codec.Forged(None, "a second start", items[0][:40])
                        return
                    self.take_start(items[0])
                    return
                head = self.head_of(items)   # a running game (this client rejoined)
                self.begin(head)
            except Refused as e:
                self.turn_off(str(e), broadcast=True)
                return
            except codec.Forged:
                self.session = None
                raise
            except codec.InputError as e:
                self.session = None
                raise codec.Forged(None, str(e), items[0][:40])
            items = items[len(head):]
            first = len(head)
            fresh = True
        sess = self.session
        n = len(sess.log)
        if first > n:
            self.ask_resend(pid, n)
            return
        known = sess.log[first:n]
        if items[:len(known)] != known:
            raise codec.Forged(None, "inputs %d.. that differ from the inputs every client has" % first,
                               codec.join(items)[:40])
        items = items[len(known):]
        if not items and not fresh:
            self.continue_here()
            return
        try:
            records = sess.add(items)
        except codec.Forged:
            raise
        except codec.InputError as e:
            self.inputs_do_not_fit(pid, items, str(e))
            return
        self.after_run(records, author=False)
        self.continue_here()

    def continue_here(self):
        """If the game now waits for a dialog of the local player, open it (this client acts)."""
        sess = self.session
        first = len(sess.log)
        ck = sess.ckpt_at
        self.publish(first, self.answer_dialogs(), ck)

    def ask_resend(self, pid, first):
        self.octgn.remoteCall(self.octgn.player(pid), REMOTE_RESEND, [self.me_id(), first])

    def remote_resend(self, pid, first):
        if self.session is not None and first < len(self.session.log):
            self.octgn.remoteCall(self.octgn.player(pid), REMOTE_IN,
                                  [self.me_id(), first, codec.join(self.session.log[first:])])

    def remote_forward(self, pid, item):
        """An input made by a player who does not decide now (a concession, signed by its seat): the
        client of the player who decides puts it in the order of the inputs (every client checks its
        token when it runs it)."""
        if not self.automating() or not isinstance(item, _TEXT):
            return
        try:
            codec.check_item(item)
        except codec.Forged as e:
            e.seat = self.claimed(item)
            self.refuse(e, pid)
            return
        seat = codec.conceding_seat(codec.unsign(item)[0])
        if seat is None or seat >= len(self.pids):
            return
        if self.mine():
            self.submit_signed([item])
        else:
            self.forward(item)

    def forward(self, item):
        holder = self.pids[self.session.pending["player"]]
        self.octgn.remoteCall(self.octgn.player(holder), REMOTE_FORWARD, [self.me_id(), item])

    def remote_off(self, pid, reason):
        if self.off is None:
            self.off = reason
            self.tell("Automation is off (%s, says %s's client): move the cards by hand." % (
                reason, self.octgn.player(pid).name))

    # ------------------------------------------------------------------ reload, rejoin, resync
    def read_log(self):
        """The log kept in the global variable (up to the end of the last turn)."""
        first, items = codec.decode_part(self.octgn.getGlobalVariable(LOG))
        if first != 0 or not items:
            return []
        return items

    def rebuild(self, log):
        """Rebuild the engine from an input log (the table already shows the game)."""
        off = self.off
        self.reset(new_game=False)
        self.off = off
        try:
            head = self.head_of(log)
            self.begin(head)
        except Refused as e:
            self.turn_off(str(e), broadcast=True)
            return
        self.session.add(log[len(head):])
        self.session.digest()
        self.view = self.face.view(self.session.state, self.models)
        req = self.session.pending
        self.hl = req.get("source") if req is not None and not self.secret(req) else None
        self.compare_checks()
        self.peek_own()
        self.prompt()

    def resync(self):
        """Table menu: rebuild the engine from the shared log and make the table show it (this client
        acts); automation that a desync turned off is turned on again."""
        shared = self.read_log()
        own = list(self.session.log) if self.session is not None else []
        log = own if len(own) >= len(shared) and own[:len(shared)] == shared else shared
        if not log:
            self.tell("No automated game to resynchronise.")
            return
        self.off = None
        try:
            self.rebuild(log)
        except codec.InputError as e:
            self.turn_off("the shared log does not rebuild: %s" % e, broadcast=False)
            return
        self.writer.write(None, self.view, None, self.hl)
        self.say("%s resynchronised the table with the automated game (input %d)." % (
            self.octgn.me.name, len(self.session.log)))
        self.ask_tail()

    # ------------------------------------------------------------------ desync and versions
    def check(self, value):
        parsed = codec.decode_check(value)
        if parsed is None or self.session is None:
            return
        n, pid, digest = parsed
        if pid == self.me_id():
            return
        self.checks[n] = (pid, digest)
        self.compare_checks()

    def compare_checks(self):
        if self.session is None:
            return
        have = len(self.session.log)
        for n in sorted(self.checks):
            if n > have:
                break
            pid, digest = self.checks.pop(n)
            mine = self.session.sums.get(n)
            if mine is not None and mine != digest and self.off is None:
                self.desync(n, mine, pid, digest)
                return

    def desync(self, n, mine, pid, theirs):
        """Report a desync to everybody and repair it: this client rebuilds its engine from its inputs;
        if it still differs from the writer's, the writer is asked to rebuild (either may be the wrong
        one); if that does not help either, automation stops for everybody."""
        who = self.octgn.player(pid).name
        self.say("Automation: desync detected on %s's client: the engine state after input %d differs "
                 "from %s's (checksum %s, not %s). Rebuilding it from the inputs." % (
                     self.octgn.me.name, n, who, mine, theirs))
        if self.recover(n, theirs):
            return
        self.octgn.remoteCall(self.octgn.player(pid), REMOTE_REBUILD,
                              [self.me_id(), n, self.session.sums.get(n) or ""])

    def inputs_do_not_fit(self, pid, items, why):
        """Inputs from another client do not fit this engine: report it, rebuild the engine from its
        inputs and try them again; automation stops for everybody if they still do not fit."""
        who = self.octgn.player(pid).name
        self.say("Automation: desync detected on %s's client: the inputs from %s do not fit (%s). "
                 "Rebuilding it from the inputs." % (self.octgn.me.name, who, why))
        log = list(self.session.log)
        try:
            self.rebuild(log)
            records = self.session.add(items)
        except codec.InputError:
            self.turn_off("the inputs from %s do not fit the game of %s" % (who, self.octgn.me.name),
                          broadcast=True)
            return
        self.after_run(records, author=False)
        self.writer.write(None, self.view, None, self.hl)
        self.say("Automation: %s's client is in step again (input %d); the table is redrawn." % (
            self.octgn.me.name, len(self.session.log)))
        self.continue_here()

    def recover(self, n, want):
        """Rebuild the engine from its own inputs; True (and the table is redrawn) if the state after
        input ``n`` then has the checksum ``want``."""
        log = list(self.session.log)
        try:
            self.rebuild(log[:n])
            got = self.session.sums.get(n)
            if len(log) > n:
                self.session.add(log[n:])
                self.view = self.face.view(self.session.state, self.models)
        except codec.InputError:
            return False
        if got != want:
            return False
        self.writer.write(None, self.view, None, self.hl)
        self.say("Automation: %s's client is in step again (input %d); the table is redrawn." % (
            self.octgn.me.name, n))
        return True

    def remote_rebuild(self, pid, n, digest):
        """Another client found that this client's checksum after input ``n`` differs from its own
        ``digest``, and rebuilding did not change its own: rebuild here."""
        if self.session is None or self.off is not None:
            return
        if self.recover(n, digest):
            return
        self.turn_off("the game states of %s and %s differ after input %d" % (
            self.octgn.me.name, self.octgn.player(pid).name, n), broadcast=True)

    def version_mismatch(self, player, build):
        if self.off is not None:
            return
        reason = "%s runs build %s of the game scripts and %s runs build %s" % (
            player.name, build, self.octgn.me.name, self.build)
        self.off = reason
        text = "Automation is off: %s; clients with different builds cannot automate a game together." % reason
        if self.elected():
            self.say(text)
        else:
            self.tell(text)

    def turn_off(self, reason, broadcast):
        if self.off is not None:
            return
        self.off = reason
        self.say("Automation is off: %s. Play on by hand: moves are no longer checked." % reason)
        if broadcast:
            safe = codec.safe_text(reason)
            for p in self.octgn.players():
                if p._id != self.me_id():
                    self.octgn.remoteCall(p, REMOTE_OFF, [self.me_id(), safe])

    def fail(self, exc):
        """An unexpected error in the host: reported, and this client stops automating."""
        self.errors.append(exc)
        self.tell("RuleScript host error: %s: %s" % (type(exc).__name__, exc))
        if self.session is not None:
            self.turn_off("a host error on %s's client" % self.octgn.me.name, broadcast=True)

    # ------------------------------------------------------------------ turn, phase, prompts
    def sync_turn(self):
        """OCTGN lets only the active player (or anybody when nobody is) change the turn and phase,
        so the client allowed to does it when the engine's differ."""
        v = self.view
        if v is None or v.get("active") is None or not self.pids:
            return
        octgn = self.octgn
        target = self.pids[v["active"]]
        cur = octgn.getActivePlayer()
        me = self.me_id()
        allowed = self.elected() if cur is None else cur._id == me
        if allowed and (cur is None or cur._id != target):
            octgn.nextTurn(octgn.player(target), True)
            cur = octgn.getActivePlayer()
        if cur is not None and cur._id == me and v.get("phase") is not None:
            names = [p["name"] for p in self.face.PHASES]
            idx = names.index(v["phase"]) + 1
            if octgn.currentPhase()[1] != idx:
                octgn.setPhase(idx, True)

    def prompt(self):
        if self.session is None:
            return
        if self.session.over:
            return
        key = len(self.session.log)
        if not self.mine() or self.prompted == key:
            return
        self.prompted = key
        req = self.session.pending
        gate = self.gate(req)
        if gate is not None:
            where = ("card menu %s of %s" % (self.labels.get(gate["do"], gate["do"]), self.card_name(gate["card"]))
                     if gate.get("card") is not None else "table menu %s" % self.labels.get(gate["do"], gate["do"]))
            decline = gate.get("decline")
            if decline and req.get("cancel"):
                where += "; table menu %s" % self.labels.get(decline, decline)
            self.tell("Your decision (%s): %s." % (self.question(req) or req.get("prompt") or req["kind"], where))
        elif self.is_menu(req):
            cards = [self.labels[d] for d in self.card_dos if [o for o in req["options"] if o["do"] == d]]
            table = [self.labels[d] for d in self.game_dos if [o for o in req["options"] if o["do"] == d]]
            self.tell("Your decision (%s): card menu %s; table menu %s." % (
                req.get("prompt") or req["kind"], ", ".join(cards) or "-", ", ".join(table) or "-"))

    def why_not(self, iid=None):
        """Why the local player cannot act now, or None."""
        if self.off is not None:
            return "Automation is off (%s)." % self.off
        if self.session is None:
            return "The automated game has not started (it starts when every player has loaded a deck)."
        if self.session.over:
            return "The game is over."
        req = self.session.pending
        if req["player"] != self.seat():
            if self.secret(req):
                return "Another player is deciding now."
            return "It is %s's decision now (%s)." % (self.player_name(req["player"]),
                                                     req.get("prompt") or req["kind"])
        if not self.is_menu(req):
            return ("Answer the open question first (double-click a card, press the turn button or use "
                    "the table menu Answer the open question).")
        return None

    # ------------------------------------------------------------------ menus
    def options(self, do, iid=None, card=True):
        """Indexes of the open decision's options with this ``do`` (and card)."""
        if not self.mine():
            return []
        req = self.session.pending
        if not self.is_menu(req):
            return []
        gate = self.gate(req)
        if gate is not None:   # "ask": the item opens the dialog of the decision; "n": it declines
            if do == gate["do"] and (gate.get("card") == iid if card else gate.get("card") is None):
                return ["ask"] if (iid is not None or not card) else []
            if not card and do == gate.get("decline") and req.get("cancel"):
                return ["n"]
            return []
        out = []
        for i, o in enumerate(req["options"]):
            if o.get("do") != do:
                continue
            if card and o.get("card") == iid and iid is not None:
                out.append(i)
            elif not card and "card" not in o:
                out.append(i)
        return out

    def card_shown(self, do, cards):
        if not cards or not self.automating():
            return False
        return bool(self.options(do, self.iid.get(cards[0]._id)))

    def card_action(self, do, card, x=0, y=0):
        iid = self.iid.get(card._id)
        if do == self.card_dos[0] and self.answer_shown():   # double click: reopen an open question
            self.continue_here()
            return
        why = self.why_not()
        if why:
            self.tell(why)
            return
        found = self.options(do, iid)
        if not found and do == self.card_dos[0]:  # the default action (double click): any action
            for d in self.card_dos:
                found = self.options(d, iid)
                if found:
                    break
        if not found:
            self.tell("%s: %s is not possible now." % (self.card_name(iid) if iid else card.name,
                                                      self.labels.get(do, do)))
            return
        if self.gated(found):
            return
        i = self.pick(found)
        if i is not None:
            self.submit([str(i)])

    def gated(self, found):
        """A menu item of a decision that a menu opens (see :meth:`gate`): ask it in a dialog, or
        decline it.  False for the options of an ordinary menu decision."""
        if found == ["n"]:
            self.submit(["n"])
            return True
        if found != ["ask"]:
            return False
        req = self.session.pending
        ok, answer = dialogs.ask(self.octgn, req, self.describe, self.card_of, close_cancels=False,
                                 title=self.question(req))  # (closing leaves it open: no closing note)
        if not ok:
            self.tell("The question is still open (%s): use the menu item again." % answer)
            return True
        self.submit([codec.encode_answer(req, answer)])
        return True

    def pick(self, found):
        """One option among several for the same menu item (a dialog), or None."""
        if len(found) == 1:
            return found[0]
        req = self.session.pending
        labels = [self.describe(req["kind"], req["options"][i]) for i in found]
        k = self.octgn.askChoice("Which one?", labels, [], [])
        if not k or k < 1 or k > len(found):
            return None
        return found[k - 1]

    def game_shown(self, do):
        if not self.automating():
            return False
        if do == "concede":
            return self.seat() is not None and hasattr(self.package.Game, "concede")
        return bool(self.options(do, card=False))

    def game_action(self, do):
        if do == "concede":
            self.concede()
            return
        why = self.why_not()
        if why:
            self.tell(why)
            return
        found = self.options(do, card=False)
        if not found:
            self.tell("%s is not possible now." % self.labels.get(do, do))
            return
        if self.gated(found):
            return
        i = self.pick(found)
        if i is not None:
            self.submit([str(i)])

    def answer_shown(self):
        return self.automating() and self.mine() and not self.is_menu(self.session.pending)

    def concede(self):
        seat = self.seat()
        if not self.automating() or seat is None:
            self.tell(self.why_not() or "You are not playing this game.")
            return
        if not self.octgn.confirm("Concede the game?"):
            return
        try:
            item = self.sign(codec.concede_item(seat))
        except codec.InputError as e:
            self.tell("Automation: %s." % e)
            return
        if self.mine():
            self.submit_signed([item])
        else:
            self.forward(item)

    # ------------------------------------------------------------------ moves by hand
    def cards_moved_by_hand(self, args):
        """OverrideCardsMoved: a move a player made with the mouse.  With automation on it answers the
        open decision when it means one of its options (a card dropped on the table plays it; dropped
        onto another card, the option naming both); otherwise it is refused with the reason."""
        cards = list(args.cards or [])
        groups = list(args.toGroups or [])
        idx = list(args.indexs or [])
        xs = list(args.xs or [])
        ys = list(args.ys or [])
        faceups = list(args.faceups or [])
        for k, card in enumerate(cards):
            group = groups[k] if k < len(groups) else None
            x = xs[k] if k < len(xs) else 0
            y = ys[k] if k < len(ys) else 0
            iid = self.iid.get(card._id)
            if not self.automating() or iid is None:
                self.move_as_asked(card, group, idx[k] if k < len(idx) else None, x, y,
                                   faceups[k] if k < len(faceups) else True)
                continue
            self.move_to_option(card, iid, group, x, y)

    def move_as_asked(self, card, group, index, x, y, faceup):
        if tablesync.same(group, self.octgn.table()):
            card.moveToTable(x, y, not faceup)
        elif index is None:
            card.moveTo(group)
        else:
            card.moveTo(group, index)

    def move_to_option(self, card, iid, group, x, y):
        name = self.card_name(iid)
        here = self.view["cards"].get(iid) if self.view else None
        if not tablesync.same(group, self.octgn.table()) or (here is not None and here["pile"] is None):
            self.tell("%s stays where it is: the game moves its cards itself; use the card menu." % name)
            return
        why = self.why_not()
        if why:
            self.tell("%s stays where it is. %s" % (name, why))
            return
        found = []
        for do in self.card_dos:
            found = self.options(do, iid)
            if found:
                break
        if not found:
            self.tell("%s stays where it is: it cannot be played now." % name)
            return
        if self.gated(found):
            return
        if len(found) > 1:
            near = self.dropped_on(found, x, y)
            found = [near] if near is not None else found
        i = self.pick(found)
        if i is not None:
            self.submit([str(i)], hint=(x, y))

    def dropped_on(self, found, x, y):
        """The option naming the card under (x, y), among ``found``."""
        best = None
        options = self.session.pending["options"]
        for i in found:
            for k, v in options[i].items():
                if k in ("do", "card") or v not in self.cid or isinstance(v, bool):
                    continue
                pos = self.octgn.card(self.cid[v]).position
                d = abs(pos[0] - x) + abs(pos[1] - y)
                if d < tablesync.STEP_X and (best is None or d < best[0]):
                    best = (d, i)
        return best[1] if best else None

    def turn_passed_by_hand(self, args):
        """OverrideTurnPassed: the turn button answers the open decision with its option that has no
        card (pass, done) when there is exactly one; the engine passes the turn itself."""
        if not self.automating():
            if args is not None and getattr(args, "player", None) is not None:
                self.octgn.nextTurn(args.player, True)
            return
        if self.answer_shown():
            self.continue_here()
            return
        why = self.why_not()
        if why:
            self.tell("The turn passes by itself when the game gets there. " + why)
            return
        found = []
        for do in self.game_dos:
            found.extend(self.options(do, card=False))
        if len(found) != 1:
            self.tell("Use the table menu to say what you do now.")
            return
        if self.gated(found):
            return
        self.submit([str(found[0])])


class Refused(Exception):
    """This client cannot join the automation of a game (another build)."""


_TEXT = tuple(set([str, type("".encode("ascii").decode("ascii"))]))


def _seats_text(seats, counts=None):
    if counts is not None:
        return " or ".join([str(n) for n in counts])
    if isinstance(seats, int):
        return str(seats)
    return "%s to %s" % (seats[0], seats[1])


def _generic_line(rec):
    t = rec.get("type")
    if t == "message":
        return rec.get("text")
    if t == "gameover":
        return "Game over: %s" % (rec.get("reason"),)
    if t == "rule_error":
        return "Rule error: %s" % (rec["error"].get("message"),)
    return None
