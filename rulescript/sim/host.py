"""The headless host with rules: a game folder's card data, its compiled rules, and an engine per game.

``load_table(game_dir)`` compiles ``rules/*.ini`` (errors stop it: a game with broken rules is not
played) and loads ``cards.yaml`` and the decks.  ``Table.engine()`` makes a fresh rule engine for
one game; ``Table.play()`` plays one seeded game; ``Table.replay()`` replays a log.
"""
from __future__ import annotations

import marshal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TextIO

from rulescript.compiler import CompileResult, compile_game
from rulescript.games import cfc
from rulescript.runtime.engine import Engine
from rulescript.sim.cards import GameData, load_game
from rulescript.sim.gamelog import format_record, play_game, replay


def new_engine(rules: dict[str, Any]) -> Engine:
    """The engine as the headless host runs it: snapshots are serialised with ``marshal`` (C speed)
    and decoded only when a resolution is rolled back; the OCTGN host uses the pure-Python default."""
    return Engine(rules, game=cfc, copier=marshal.dumps, thaw=marshal.loads)


class RulesError(Exception):
    """The game's rules do not compile; ``result`` holds the diagnostics."""

    def __init__(self, result: CompileResult) -> None:
        super().__init__(result.render())
        self.result = result


@dataclass
class Table:
    data: GameData
    compiled: CompileResult

    @property
    def rules(self) -> dict[str, Any]:
        return self.compiled.rules

    def engine(self) -> Engine:
        """A new engine of the rules (not kept: a table plays and replays game after game)."""
        return new_engine(self.compiled.rules)

    def play(self, seed: int, decider: Any, decks: list[Any] | None = None, sink: Any = None,
             first: int | None = None, turn_limit: int = 200) -> tuple[Any, dict[str, Any], Engine]:
        """Play one game to its end; the log records rule errors too (``log["rule_errors"]``)."""
        names = self.data.deck_names()
        decks = decks or [names[0], names[-1]]
        eng = self.engine()
        game, log = play_game(self.data, decks, seed, decider, first=first, sink=sink, rules=eng,
                              turn_limit=turn_limit)
        log["rule_errors"] = list(eng.errors)
        return game, log, eng

    def replay(self, log: dict[str, Any], sink: Any = None, partial: bool = False) -> Any:
        return replay(self.data, log, sink=sink, rules=self.engine(), partial=partial)


def load_table(game_dir: str | Path) -> Table:
    compiled = compile_game(game_dir)
    if not compiled.ok:
        raise RulesError(compiled)
    return Table(load_game(game_dir), compiled)


def render_rule_error(rec: dict[str, Any], game: Any = None, root: str | Path | None = None) -> str:
    """A rule error as the compiler prints diagnostics, with the source line when the file exists.
    A game's rules name their files by their path in the game folder: ``root`` is that folder."""
    from rulescript.diagnostics import Diagnostic, SourceText, Span, render

    line = rec.get("line") or 1
    col = rec.get("col") or 1
    file = rec.get("file") or "<rules>"
    if root is not None and rec.get("file") and not Path(file).is_absolute():
        file = str(Path(root) / file)
    span = Span(file, line, col, line, rec.get("end_col") or col + 1)
    card = rec.get("card") or ["?", "?"]
    who = f"card: {card[1]} (#{card[0]}), started by {rec.get('why')}, turn {rec.get('turn')}, {rec.get('phase')} phase"
    values = "; ".join(f"{n} = {v!r}" for n, v in rec.get("values") or [])
    notes = [who + (f"; {values}" if values else ""), "the resolution was aborted and the game state restored"]
    source = None
    path = Path(file)
    if rec.get("file") and path.is_file():
        source = SourceText(str(path), path.read_text(encoding="utf-8", errors="replace"))
    return render(Diagnostic("error", rec["code"], rec["message"], span, tuple(notes)), source)


def print_log_lines(records: list[dict[str, Any]], game: Any, out: TextIO, root: str | Path | None = None) -> None:
    for rec in records:
        if rec.get("type") == "rule_error":
            out.write(render_rule_error(rec["error"], game, root) + "\n")
        else:
            out.write(format_record(rec, game) + "\n")


class Recorder:
    """An effect sink that keeps every record (and forwards them, if asked)."""

    def __init__(self, forward: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.records: list[dict[str, Any]] = []
        self.forward = forward

    def emit(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        if self.forward is not None:
            self.forward(record)
