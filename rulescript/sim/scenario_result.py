"""What a scenario run gives back (shared by the card scenarios and the werewolf scenarios)."""
from __future__ import annotations

from dataclasses import dataclass, field

# game folder (resolved path) -> rules (rule id -> IR) that scenarios of that game must use instead
# of compiling the folder; the watcher sets it to its last good rules (rulescript.watch)
RULES_OVERRIDE: dict = {}


@dataclass
class ScenarioResult:
    """The outcome of one scenario. ``status``: ``pass``, ``fail`` or ``skip`` (pending)."""

    name: str
    passed: bool
    failures: list = field(default_factory=list)
    log: list = field(default_factory=list)
    file: str = ""
    line: int = 0
    status: str = "fail"
    pending: str | None = None
    diagnostics: list = field(default_factory=list)
    game: object = None
    seconds: float = 0.0
    ran: set = field(default_factory=set)  # ids of the rules that resolved during the scenario
    loaded: set = field(default_factory=set)  # ids of the rules loaded onto cards in play

    @property
    def where(self):
        return "%s:%d" % (self.file, self.line)
