"""``rulescript play`` of a werewolf game: a table for people in the terminal.

You play seat 1 (or, with ``--hot-seat``, every seat is a person at the same screen); the others are
seeded random players.  Seats are numbered from 1 everywhere (seat 1 is the first player), and every
question names its options in words: the role or poll it belongs to, what it does, the players by
name.  At every question a player may also type a command:

    show (s)      your role and what it can do, the living players by seat, the votes so far, the
                  messages of your channels
    undo (u)      take back your last decision
    save FILE     write the game so far (a werewolf game log: seed, roles, decisions)
    load FILE     continue a saved game
    help (?)      this list
    quit (q)      leave

With ``--hot-seat``, before each question the screen is cleared and the named player is asked to
take the keyboard (press Enter), so that nobody sees another player's role or private messages.

Undo and load rest on one fact of the engine: a game is fully determined by its seed, its role list
and its decisions.  Undo replays the game from the start with every decision but your last one.
"""
from __future__ import annotations

from typing import Any, TextIO

from rulescript.games.werewolf import narrative
from rulescript.runtime.plain import deep_copy
from rulescript.sim.deciders import InputEnded, PrefixDecider
from rulescript.cliutil import UsageError
from rulescript.sim.gamelog import WOLF_LOG_FORMAT, SaveError, load_log, save_log
from rulescript.sim.table import _Load, _Quit, _Undo, _why

HELP = ("At every question, type the number of an answer or a command:\n\n" + __doc__.split("\n\n")[2]
        + "\n")
CLEAR = "\x1b[2J\x1b[H"


class _Sink:
    """Keeps every record; prints what the player(s) at the screen may read, as it happens."""

    def __init__(self, session: "WolfSession") -> None:
        self.session = session
        self.records: list[dict[str, Any]] = []

    def emit(self, rec: dict[str, Any]) -> None:
        self.records.append(rec)
        s = self.session
        if s.replaying or s.game is None or rec.get("type") == "decision":
            return
        seats = narrative.audience(rec)
        if seats is not None and not s.may_read(seats):
            return
        text = s.line(rec)
        if text is not None:
            s.out.write(text + "\n")


class _Decider(PrefixDecider):
    """The recorded prefix first (undo, load), then the people at the screen and the random players."""

    def __init__(self, session: "WolfSession", prefix: list[Any]) -> None:
        super().__init__(session, prefix, session.seed + 1)

    def live(self, req: dict[str, Any]) -> Any:
        s = self.session
        return s.ask(req) if req["player"] in s.people else self.random.decide(req)


class WolfSession:
    def __init__(self, table: Any, players: int, seed: int, inp: TextIO, out: TextIO,
                 people: tuple[int, ...] = (0,), hot_seat: bool = False, names: list[str] | None = None) -> None:
        self.table = table
        self.players = players
        self.seed = seed
        self.roles = table.roles_for(players)
        self.inp = inp
        self.out = out
        self.people = set(people)
        self.hot_seat = hot_seat
        self.names = list(names) if names else None
        self.game: Any = None
        self.sink: _Sink | None = None
        self.decider: _Decider | None = None
        self.replaying = False
        self.at_keyboard: int | None = None  # hot seat: the player who has the keyboard
        self.seen: dict[int, int] = {}  # hot seat: how many records each player had read

    # ---------------------------------------------------------------- the game
    def _new_game(self, prefix: list[Any]) -> None:
        self.sink = _Sink(self)
        self.decider = _Decider(self, prefix)
        self.replaying = bool(prefix)
        self.game = None
        self.at_keyboard = None
        self.seen = {}
        self.game, _eng = self.table.new_game(self.roles, self.seed, self.decider, self.sink, names=self.names)

    def log(self) -> dict[str, Any]:
        return {"format": WOLF_LOG_FORMAT, "seed": self.seed, "roles": list(self.roles),
                "decisions": deep_copy(self.game.state["log"]), "result": None, "error": None}

    def run(self, prefix: list[Any] | None = None) -> int:
        prefix = list(prefix or [])
        who = "every seat is a person (hot seat)" if self.hot_seat else "you are seat 1"
        self.out.write(f"rulescript play: werewolf, {self.players} players, seed {self.seed}; {who}. "
                       "Type 'help' at any question.\n")
        while True:
            self._new_game(prefix)
            try:
                self.game.run()
            except _Undo:
                prefix = self._undo_prefix()
                self.out.write(f"undone: back to decision {len(prefix) + 1}\n" if self.decider.given
                               else "nothing to undo\n")
                continue
            except _Load as req:
                try:
                    log = load_log(req.path, werewolf=self.table.data)
                except (OSError, SaveError) as exc:
                    self.out.write(f"cannot load {req.path}: {_why(exc)}\n")
                    prefix = list(self.decider.given)
                    continue
                self.seed, self.roles = log["seed"], list(log["roles"])
                self.players = len(self.roles)
                prefix = [d[2] for d in log["decisions"]]
                self.out.write(f"loaded {req.path}: {len(prefix)} decisions replayed\n")
                continue
            except _Quit:
                self.out.write("bye\n")
                return 0
            except (InputEnded, EOFError):
                self.out.write("\ninput ended\n")
                return 0
            return 0

    def _undo_prefix(self) -> list[Any]:
        """Every decision before the last one a person made (the random players' are replayed)."""
        given = self.decider.given
        log = self.game.state["log"]
        cut = len(given) - 1
        while cut > 0 and log[cut][1] not in self.people:
            cut -= 1
        return given[:max(cut, 0)]

    # ---------------------------------------------------------------- words
    def name(self, seat: Any) -> str:
        players = self.game.state["players"]
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
            return players[seat]["name"]
        return "the narrator"

    def element(self, eid: Any) -> str:
        return self.game.models.get(eid, {}).get("name", eid) if eid else "?"

    def line(self, rec: dict[str, Any]) -> str | None:
        return narrative.player_line(rec, self.element, self.name)

    def may_read(self, seats: list[int]) -> bool:
        if self.hot_seat:  # only the player at the keyboard reads private lines
            return self.at_keyboard is not None and self.at_keyboard in seats
        return any(s in seats for s in self.people)

    def question(self, req: dict[str, Any]) -> tuple[str, str]:
        """The question in words and what 0 does (empty: 0 is not allowed)."""
        kind, prompt = req["kind"], str(req["prompt"])
        source = self.game.state["cards"].get(req.get("source"), {}).get("model")
        owner = self.element(source)
        if kind == "use_ability":
            verb = narrative.action_words(prompt)
            opts = req["options"]
            what = "a player" if opts and isinstance(opts[0], int) and not isinstance(opts[0], bool) else "one"
            if opts == ["use"]:
                return f"{owner} — {verb}?", "0 does not use it"
            return f"{owner} — {verb} {what}:", "0 does not use it"
        poll = self.element(prompt.split(".")[0]) if kind != "vote" else self.element(prompt)
        if kind == "vote":
            return f"{poll} — vote for a player:", ("0 abstains" if req.get("cancel") else "")
        if kind == "change_vote":
            return (f"{poll} — keep your vote ({self.name(req['options'][0])}) or change it:",
                    "0 withdraws your vote")
        if kind == "choose_player":
            return f"{poll} — break the tie:", ""
        return f"{owner} — {narrative.action_words(prompt)}:", ("0 declines" if req.get("cancel") else "")

    def option(self, o: Any) -> str:
        if isinstance(o, int) and not isinstance(o, bool) and 0 <= o < len(self.game.state["players"]):
            return f"{self.name(o)} (seat {o + 1})"
        if o == "use":
            return "use it"
        return self.element(o) if isinstance(o, str) else str(o)

    # ---------------------------------------------------------------- questions
    def ask(self, req: dict[str, Any]) -> Any:
        seat = req["player"]
        if self.hot_seat and self.at_keyboard != seat:
            self.out.write(CLEAR + f"{self.name(seat)} (seat {seat + 1}), take the keyboard and press Enter.\n")
            self.out.flush()
            if not self.inp.readline():
                raise InputEnded("input ended")
            self.out.write(CLEAR)
            if self.at_keyboard is not None:
                self.seen[self.at_keyboard] = len(self.sink.records)
            self.at_keyboard = seat
            # what this player may read since they last had the keyboard (their role, the night...)
            for rec in self.sink.records[self.seen.get(seat, 0):]:
                seats = narrative.audience(rec)
                text = self.line(rec) if seats is None or seat in seats else None
                if text is not None:
                    self.out.write(text + "\n")
        text, cancel = self.question(req)
        opts = req["options"]
        while True:
            self.out.write(f"[{self.name(seat)}, seat {seat + 1}] {text}\n")
            for i, o in enumerate(opts):
                self.out.write(f"  {i + 1}) {self.option(o)}\n")
            self.out.write(f"a number{', or ' + cancel if cancel else ''}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise InputEnded("input ended")
            words = line.strip().split()
            if not words:
                continue
            if self._command(words, seat):
                continue
            if not words[0].isdigit() or len(words) != 1:
                self.out.write(f"unknown command '{words[0]}' (type 'help')\n")
                continue
            n = int(words[0])
            if n == 0 and cancel:
                return None
            if not 1 <= n <= len(opts):
                self.out.write(f"numbers go from 1 to {len(opts)}{' (or 0)' if cancel else ''}\n")
                continue
            return opts[n - 1]

    def _command(self, words: list[str], seat: int) -> bool:
        cmd, arg = words[0].lower(), " ".join(words[1:])
        if cmd in ("help", "?"):
            self.out.write(HELP)
        elif cmd in ("show", "s"):
            self.show(seat)
        elif cmd in ("undo", "u"):
            raise _Undo()
        elif cmd == "save":
            if not arg:
                self.out.write("save FILE\n")
                return True
            try:
                save_log(self.log(), arg)
            except (OSError, ValueError, UsageError) as exc:  # a typo at the table never ends the game
                self.out.write(f"cannot save to {arg}: {_why(exc)}\n")
            else:
                self.out.write(f"saved to {arg} ({len(self.decider.given)} decisions)\n")
        elif cmd == "load":
            if not arg:
                self.out.write("load FILE\n")
                return True
            raise _Load(arg)
        elif cmd in ("quit", "q", "exit"):
            raise _Quit()
        else:
            return False
        return True

    def show(self, seat: int) -> None:
        st = self.game.state
        me = st["players"][seat]
        out = self.out
        phase = st["phase"].title() if st["phase"] in ("day", "night") else st["phase"]
        number = st["day"] if st["phase"] == "day" else st["night"]
        out.write(f"{phase} {number}. You are {me['name']} (seat {seat + 1}).\n")
        role = st["cards"].get(me["role"], {}).get("model") if me["role"] is not None else None
        model = self.game.models.get(role, {})
        out.write(f"Your role: {model.get('name', '?')}" + (f" ({self.element(model['team'])})" if model.get("team") else "")
                  + "\n")
        does = model.get("simplified") or model.get("text")
        if does:
            out.write(f"  {does.strip()}\n")
        extras = [self.element(st["cards"][i]["model"]) for i in me["attrs"] + me["extras"] if i in st["cards"]]
        if extras:
            out.write(f"  You also have: {', '.join(extras)}\n")
        living = [f"{p['idx'] + 1}) {p['name']}" for p in st["players"] if p["alive"] and not p["left"]]
        out.write(f"Living players: {', '.join(living)}\n")
        dead = [f"{p['name']} (seat {p['idx'] + 1})" for p in st["players"] if not p["alive"] or p["left"]]
        if dead:
            out.write(f"Out of the game: {', '.join(dead)}\n")
        votes = self._votes_so_far(seat)
        out.write("Votes so far: " + ("; ".join(votes) if votes else "none") + "\n")
        private = [self.line(r) for r in self._readable(seat) if narrative.audience(r) is not None]
        private = [p.strip() for p in private if p]
        out.write("Your channels:" + ("" if private else " nothing yet") + "\n")
        for p in private[-10:]:
            out.write(f"  {p}\n")

    def _readable(self, seat: int) -> list[dict[str, Any]]:
        out = []
        for rec in self.sink.records:
            seats = narrative.audience(rec)
            if seats is None or seat in seats:
                out.append(rec)
        return out

    def _votes_so_far(self, seat: int) -> list[str]:
        """The votes of the open polls this player may see (a group's poll: its members only)."""
        seen = {r["poll"] for r in self._readable(seat) if r["type"] == "poll_open"}
        shown = []
        for p in self.game.state["polls"]:
            if p["open"] and p["poll"] in seen:
                votes = ", ".join(f"{self.name(v)} for {self.name(t)}" for v, t in sorted(p["votes"].items()))
                shown.append(f"{self.element(p['poll'])}: {votes or 'no votes yet'}")
        return shown


def play_table(table: Any, players: int, seed: int, inp: TextIO, out: TextIO, hot_seat: bool = False,
               names: list[str] | None = None) -> int:
    people = tuple(range(players)) if hot_seat else (0,)
    session = WolfSession(table, players, seed, inp, out, people, hot_seat, names)
    return session.run()
