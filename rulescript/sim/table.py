"""``rulescript play GAME``: an interactive headless table in the terminal.

Both seats answer at the terminal (or one seat is a seeded random player with ``--opponent
random``).  At every question the player may also type a command:

    show (s)      the table: phase, HP/SP, rings with BP and marks, pile sizes, your hand
    show CARD     a card's data and rules (a name, an id, or #N for a card on the table)
    hand (h)      the hand of the player asked
    log [N]       the last N lines of the game log (default 15)
    undo (u)      take back the last decision
    save FILE     write the game so far (a game log: seed, decks, decisions)
    load FILE     continue a saved game (or replay a finished one)
    replay FILE   print a saved game's log from start to end
    help (?)      this list
    quit (q)      leave

Undo, load and replay all rest on one fact of the engine: a game is fully determined by its seed,
its decks and the list of decisions.  Undo replays the game from the start with every decision but
the last; load replays the saved decisions and goes on asking.  With ``--watch``, edited rule files
are recompiled at the next question and apply to cards already in play at their next resolution.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from rulescript.cliutil import UsageError
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.errors import Interrupt, InvalidDecision
from rulescript.runtime.plain import deep_copy
from rulescript.runtime.ports import check_answer
from rulescript.sim.deciders import LIST_KINDS, InputEnded, PrefixDecider
from rulescript.sim.gamelog import (LOG_FORMAT, SaveError, describe_option, format_record, load_log,
                                   save_log)

HELP = ("At every question, type the number of an answer (slots are numbered as the game numbers them) "
        "or a command:\n\n" + __doc__.split("\n\n")[2] + "\n\nUndo, load and replay replay the game from "
        "its seed, decks and decisions.")


class _Undo(Interrupt):
    pass


class _Load(Interrupt):
    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


class _Quit(Interrupt):
    pass


class BadSave(Exception):
    """A save whose decisions do not fit the game they name."""


class _Sink:
    """Prints effects as they happen (not while a prefix of decisions is being replayed)."""

    def __init__(self, session: "Session") -> None:
        self.session = session
        self.lines: list[str] = []

    def emit(self, rec: dict[str, Any]) -> None:
        game = self.session.game
        if rec.get("type") == "rule_error":
            from rulescript.sim.host import render_rule_error

            line = render_rule_error(rec["error"], game, self.session.table.data.root)
        else:
            line = format_record(rec, game)
        self.lines.append(line)
        if not self.session.replaying and rec.get("type") != "decision":
            self.session.out.write(line + "\n")


class _Decider(PrefixDecider):
    """Answers from the prefix first (a replay, each answer checked against its request), then from
    the seat's player: terminal or random."""

    def __init__(self, session: "Session", prefix: list[Any]) -> None:
        super().__init__(session, prefix, session.seed + 7919)

    def recorded(self, req: dict[str, Any], answer: Any) -> Any:
        try:
            return check_answer(req, answer)
        except InvalidDecision as exc:
            raise BadSave(f"decision {len(self.given) + 1} of the save ({req['kind']} of player "
                          f"{req['player']}) does not fit the game: {exc}") from None

    def live(self, req: dict[str, Any]) -> Any:
        s = self.session
        s.maybe_reload()
        return self.random.decide(req) if req["player"] in s.random_seats else s.ask(req)


class Session:
    """One interactive game on a table (``Table`` from rulescript.sim.host)."""

    def __init__(self, table: Any, decks: list[str], seed: int, inp: TextIO, out: TextIO,
                 random_seats: tuple[int, ...] = (), turn_limit: int = 200, watch: bool = False) -> None:
        self.table = table
        self.decks = decks
        self.seed = seed
        self.inp = inp
        self.out = out
        self.random_seats = random_seats
        self.turn_limit = turn_limit
        self.watch = watch
        self.game: Any = None
        self.engine: Any = None
        self.decider: _Decider | None = None
        self.sink: _Sink | None = None
        self.replaying = False
        self.loaded_from: tuple[str, Any] | None = None
        self._stamp = self._rules_stamp() if watch else None
        self._pending: Any = None
        self._watcher: Any = None

    # ---------------------------------------------------------------- game lifecycle
    def _new_game(self, prefix: list[Any]) -> None:
        self.engine = self.table.engine()
        self.sink = _Sink(self)
        self.decider = _Decider(self, prefix)
        self.replaying = bool(prefix)
        data = self.table.data
        decks = [data.deck_list(self.decks[0]), data.deck_list(self.decks[1])]
        self.game = CfcGame(data.models, decks, self.decider, sink=self.sink, rules=self.engine, seed=self.seed,
                            turn_limit=self.turn_limit)

    def log(self) -> dict[str, Any]:
        data = self.table.data
        return {"format": LOG_FORMAT, "seed": self.seed, "first": None,
                "first_player": self.game.state["first"], "turn_limit": self.turn_limit,
                "decks": [{"name": d, "cards": data.deck_list(d)} for d in self.decks],
                "decisions": deep_copy(self.game.state["log"]), "answers": list(self.decider.given),
                "result": None, "error": None}

    def run(self, prefix: list[Any] | None = None) -> int:
        prefix = list(prefix or [])
        self.out.write(f"rulescript play: seed {self.seed}, decks {self.decks[0]} vs {self.decks[1]}. "
                       "Type 'help' at any question.\n")
        while True:
            self._new_game(prefix)
            try:
                result = self.game.run()
            except _Undo:
                given = self.decider.given
                prefix = self._undo_prefix(given) if given else []
                self.out.write(f"undone: back to decision {len(prefix) + 1}\n" if given else "nothing to undo\n")
                continue
            except _Load as req:
                here = (self.seed, self.decks, self.turn_limit, list(self.decider.given))
                try:
                    prefix = self.adopt(load_log(req.path, self.table.data, named_decks=True))
                except (OSError, SaveError) as exc:
                    self.out.write(f"cannot load {req.path}: {_why(exc)}\n")
                    self.seed, self.decks, self.turn_limit, prefix = here  # go on where we were
                    continue
                self.loaded_from = (req.path, here)
                self.out.write(f"loaded {req.path}: {len(prefix)} decisions replayed\n")
                continue
            except BadSave as exc:
                if self.loaded_from is None:
                    raise
                path, here = self.loaded_from
                self.loaded_from = None
                self.out.write(f"cannot load {path}: {exc}\n")
                self.seed, self.decks, self.turn_limit, prefix = here
                continue
            except _Quit:
                self.out.write("bye\n")
                return 0
            except EOFError:
                self.out.write("\ninput ended\n")
                return 0
            who = "a draw" if result["winner"] is None else f"player {result['winner']} wins"
            self.out.write(f"game over after {result['turns']} turns: {who} ({result['reason']})\n")
            return 0

    def adopt(self, log: dict[str, Any]) -> list[Any]:
        """Take a save's seed, decks and turn limit (checked by ``load_log(..., named_decks=True)``:
        decks of this game); return its answers (to replay)."""
        names = [d["name"] for d in log["decks"]]
        self.seed = log["seed"]
        self.decks = names
        self.turn_limit = log.get("turn_limit", self.turn_limit)
        return list(log.get("answers") or [d[2] for d in log["decisions"]])

    def _undo_prefix(self, given: list[Any]) -> list[Any]:
        """Every decision but the last one a human made (random seats' answers are replayed)."""
        log = self.game.state["log"]
        cut = len(given) - 1
        while cut > 0 and log[cut][1] in self.random_seats:
            cut -= 1
        return given[:cut]

    # ---------------------------------------------------------------- questions
    def ask(self, req: dict[str, Any]) -> Any:
        kind = req["kind"]
        opts = req["options"]
        while True:
            self.out.write(f"[player {req['player']}] {kind}: {req['prompt']}\n")
            slots = kind == "choose_slot" and all(isinstance(o, int) and not isinstance(o, bool) for o in opts)
            labels = [o if slots else i + 1 for i, o in enumerate(opts)]
            for label, o in zip(labels, opts):
                self.out.write(f"  {label}) {'slot ' + str(o) if slots else describe_option(self.game, o, kind)}\n")
            if kind == "arrange":
                hint = "all numbers in the new order"
            elif kind in LIST_KINDS:
                hint = f"{req['min']} to {req['max']} numbers"
            else:
                hint = "a number"
            if req.get("cancel"):
                hint += " (0 cancels)"
            self.out.write(f"{hint}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise InputEnded("input ended")
            words = line.strip().split()
            if not words:
                continue
            if self._command(words, req):
                continue
            try:
                nums = [int(w) for w in line.replace(",", " ").split()]
            except ValueError:
                self.out.write(f"unknown command '{words[0]}' (type 'help')\n")
                continue
            if req.get("cancel") and nums == [0]:
                return None
            if any(n not in labels for n in nums):
                self.out.write(f"the numbers are {', '.join(str(x) for x in labels)}\n" if slots
                               else f"numbers go from 1 to {len(opts)}\n")
                continue
            picked = [opts[labels.index(n)] for n in nums]
            answer = picked if kind in LIST_KINDS else (picked[0] if len(picked) == 1 else None)
            if answer is None:
                self.out.write("choose exactly one\n")
                continue
            try:
                return check_answer(req, answer)
            except InvalidDecision as exc:
                self.out.write(f"not allowed: {exc}\n")

    def _command(self, words: list[str], req: dict[str, Any]) -> bool:
        cmd = words[0].lower()
        arg = " ".join(words[1:])
        if cmd in ("help", "?"):
            self.out.write(HELP + "\n")
        elif cmd in ("show", "s"):
            if arg:
                self.show_card(arg)
            else:
                self.show(req["player"])
        elif cmd in ("hand", "h"):
            self.show_hand(req["player"])
        elif cmd == "log":
            n = int(arg) if arg.isdigit() else 15
            for line in self.sink.lines[-n:]:
                self.out.write(line + "\n")
        elif cmd in ("undo", "u"):
            raise _Undo()
        elif cmd == "save":
            if not arg:
                self.out.write("save FILE\n")
            else:
                try:
                    save_log(self.log(), arg)
                except (OSError, ValueError, UsageError) as exc:  # a typo at the table never ends the game
                    self.out.write(f"cannot save to {arg}: {_why(exc)}\n")
                else:
                    self.out.write(f"saved to {arg} ({len(self.decider.given)} decisions)\n")
        elif cmd == "load":
            if not arg:
                self.out.write("load FILE\n")
            else:
                raise _Load(arg)
        elif cmd == "replay":
            self.replay_file(arg)
        elif cmd in ("quit", "q", "exit"):
            raise _Quit()
        else:
            return False
        return True

    # ---------------------------------------------------------------- display
    def show(self, viewer: int) -> None:
        g = self.game
        st = g.state
        self.out.write(f"turn {st['turn']}, player {st['active']}'s {st['phase']} phase\n")
        for pl in st["players"]:
            ring = []
            for iid in pl["ring"]:
                if iid is None:
                    ring.append("--")
                    continue
                c = st["cards"][iid]
                marks = [m for m in ("frozen", "fresh", "used") if c[m]]
                if c["attacking"]:
                    marks.append("attacking")
                ring.append(f"{describe_option(g, iid)} {c['bp']}BP" + (f" ({', '.join(marks)})" if marks else ""))
            self.out.write(f"  P{pl['idx']}: HP {pl['hp']}  SP {pl['sp']}  hand {len(pl['hand'])}  deck {len(pl['deck'])}"
                           f"  discards {len(pl['discards'])}  removed {len(pl['removed'])}\n")
            self.out.write("      ring: " + " | ".join(ring) + "\n")
        self.show_hand(viewer)

    def show_hand(self, p: int) -> None:
        hand = self.game.state["players"][p]["hand"]
        names = ", ".join(describe_option(self.game, iid) for iid in hand) or "(empty)"
        self.out.write(f"  hand of P{p}: {names}\n")

    def show_card(self, query: str) -> None:
        """A card's data and the text of its rule section."""
        models = self.table.data.models
        q = query.strip().lstrip("#")
        model = None
        if q.isdigit() and self.game is not None and int(q) in self.game.state["cards"]:
            model = self.game.state["cards"][int(q)]["model"]
        else:
            low = query.strip().lower()
            model = next((m for m in models if m.lower() == low), None) or next(
                (m for m, c in models.items() if str(c.get("name", "")).lower() == low), None)
        if model is None:
            close = [c.get("name", m) for m, c in models.items() if query.strip().lower() in str(c.get("name", "")).lower()]
            self.out.write(f"no card '{query}'" + (f" (did you mean: {', '.join(close[:3])})" if close else "") + "\n")
            return
        c = models[model]
        stats = [c.get("type", "")]
        if c.get("type") == "character":
            stats.append(f"{c.get('bp')} BP, {c.get('sp', 0)} SP, {c.get('subtype') or 'no subtype'}")
        ab = c.get("ability")
        if ab:
            stats.append(f"ability: {ab.get('name') or '-'} ({ab.get('kind')})")
        self.out.write(f"{c.get('name')} [{model}]: {'; '.join(s for s in stats if s)}\n")
        if c.get("text"):
            self.out.write(f"  {c['text']}\n")
        generated = self._generated_text(c)
        if generated:
            self.out.write(f"  rules: {generated}\n")
        self.out.write(self._rule_text(model) + "\n")

    def _generated_text(self, card: dict[str, Any]) -> str:
        """What the card's rules do, in words (``rulescript explain``)."""
        from rulescript.compiler.profile import load_profile
        from rulescript.explain.report import generated_text

        compiled = self.table.compiled
        return generated_text(card, compiled.rules, load_profile(compiled.profile))

    def _rule_text(self, model: str) -> str:
        rule = self.table.rules.get(model)
        if rule is None:
            return "  (no rule: the card has no scripted effect)"
        file, line = rule["src"][0], rule["src"][1]
        path = Path(file) if Path(file).is_absolute() else Path(self.table.data.root) / file
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return f"  (rule in {path}:{line}, which cannot be read)"
        body = [lines[line - 1]] if 0 < line <= len(lines) else []
        for text in lines[line:]:
            if text.startswith("["):
                break
            body.append(text)
        while body and not body[-1].strip():
            body.pop()
        return f"  rule ({path}:{line}):\n" + "\n".join("    " + t for t in body)

    def replay_file(self, path: str, err: TextIO | None = None, prefix: str = "") -> int:
        """Print a saved game's log (a game saved mid-way: up to where it was saved); 0, or 1 when
        the save cannot be replayed (why goes to ``err``, by default the table's output)."""
        err = err if err is not None else self.out
        try:
            log = load_log(path, self.table.data)
        except (OSError, SaveError) as exc:
            err.write(f"{prefix}cannot read {path}: {_why(exc)}\n")
            return 1
        from rulescript.sim.deciders import ReplayDiverged
        from rulescript.sim.host import Recorder, print_log_lines

        rec = Recorder()
        try:
            game = self.table.replay(log, sink=rec, partial=True)
        except (ReplayDiverged, InvalidDecision) as exc:
            err.write(f"{prefix}cannot replay {path}: {exc}\n")
            return 1
        print_log_lines(rec.records, game, self.out, root=self.table.data.root)
        if game.replay_stopped is not None:
            self.out.write(f"(the game was saved here, after {game.replay_stopped} decisions)\n")
        return 0

    # ---------------------------------------------------------------- hot reload
    def _rules_stamp(self) -> tuple[Any, ...]:
        root = Path(self.table.data.root) / "rules"
        return tuple(sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in root.rglob("*.ini")))

    def maybe_reload(self) -> None:
        """At a question: put rules reloaded since the last one in force."""
        if not self.watch:
            return
        if self._watcher is None:
            self._poll()          # no watcher thread (a test driving the session): look now
        result, self._pending = self._pending, None
        if result is not None and self.engine is not None:
            self.table.compiled = result
            self.engine.replace_rules(result.rules)

    def _poll(self) -> None:
        """Compile the rules if a file changed since the last look; print the result at once."""
        stamp = self._rules_stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        from rulescript.compiler import compile_game

        result = compile_game(self.table.data.root)
        if not result.ok:
            self.out.write("\n" + result.render() + "\nrules have errors: keeping the last good rules\n")
        else:
            self._pending = result
            self.out.write(f"\nrules reloaded ({len(result.rules)} rules): cards in play use them from their next "
                           "resolution\n")
        self.out.flush()

    def start_watching(self, interval: float = 0.3) -> None:
        """Look for saved rule files in the background, so that the reload message shows when the file
        is saved (not at the next answer)."""
        import threading

        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(interval):
                try:
                    self._poll()
                except Exception:  # noqa: BLE001 - a failed look is retried at the next one
                    pass

        thread = threading.Thread(target=loop, name="rulescript-play-watch", daemon=True)
        self._watcher = stop
        thread.start()

    def stop_watching(self) -> None:
        if self._watcher is not None:
            self._watcher.set()


def _why(exc: BaseException) -> str:
    if isinstance(exc, SaveError):
        return exc.line()
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def run_interactive(table: Any, decks: list[str], args: Any, inp: TextIO, out: TextIO) -> int:
    """Returns the exit status: 0, or 1 when a save given with --load or --replay cannot be used."""
    seats: tuple[int, ...] = (1,) if getattr(args, "opponent", "human") == "random" else ()
    session = Session(table, decks, args.seed, inp, out, random_seats=seats,
                      turn_limit=args.turn_limit, watch=bool(getattr(args, "watch", False)))
    if getattr(args, "replay", None):
        import sys
        return session.replay_file(args.replay, sys.stderr, "rulescript: error: ")
    prefix: list[Any] = []
    if getattr(args, "load", None):
        try:
            prefix = session.adopt(load_log(args.load, table.data, named_decks=True))
        except (OSError, SaveError) as exc:
            import sys
            print(f"rulescript: error: cannot load {args.load}: {_why(exc)}", file=sys.stderr)
            return 1
    if session.watch:
        session.start_watching()
    try:
        return session.run(prefix)
    except BadSave as exc:
        import sys
        print(f"rulescript: error: cannot load {args.load}: {exc}", file=sys.stderr)
        return 1
    finally:
        session.stop_watching()
