"""The one-line bugs of issue 22 that once passed the whole suite, each with the tests that now fail
on it.  ``run.py --known`` (and tests/tooling/test_mutation.py in CI) applies each to a copy of the
checkout and checks that its tests fail.  A mutant is found by a piece of its line's text, so it
survives edits elsewhere in the file."""
from __future__ import annotations

from dataclasses import dataclass

RUNTIME = "tests/runtime/test_rules_pinned.py"
WEREWOLF = "tests/werewolf/test_rules_pinned.py"
COMPILER = "tests/compiler/test_checks_pinned.py"
RENDER = "tests/werewolf/test_render_pinned.py"
AIWOLF = "tests/aiwolf/test_rules_pinned.py"
OCTGN = "tests/octgn_host/test_rules_pinned.py"


@dataclass(frozen=True)
class Known:
    file: str
    line: int       # the line the issue names (the anchor's line nearest to it is mutated)
    anchor: str     # text of the line
    old: str        # text found once in that line
    new: str
    what: str       # the bug, in words
    tests: tuple[str, ...]

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        at = sorted((i for i, line in enumerate(lines) if self.anchor in line), key=lambda i: abs(i + 1 - self.line))
        if not at:
            raise LookupError(f"{self.file}: no line holds {self.anchor!r}")
        line = lines[at[0]]
        if line.count(self.old) != 1:
            raise LookupError(f"{self.file}:{at[0] + 1}: {self.old!r} is not once in {line.strip()!r}")
        lines[at[0]] = line.replace(self.old, self.new)
        return "".join(lines)

    def describe(self) -> str:
        return f"{self.file}:{self.line}: {self.old} -> {self.new} ({self.what})"


KNOWN = [
    Known("rulescript/runtime/expr.py", 222, "if b[0] < 0:", "< 0", "< -1",
          "one step over the budget still finishes", (RUNTIME,)),
    Known("rulescript/runtime/engine.py", 522, 'found.append((0 if card["ctrl"] == active', "== active", "!= active",
          "the active player's listeners no longer run first", (RUNTIME,)),
    Known("rulescript/games/cfc/combat.py", 89, 'if len(a["followers"]) >= 2:', ">= 2", "> 2",
          "a United Attack of four", (RUNTIME,)),
    Known("rulescript/games/cfc/combat.py", 232, 'if bc["frozen"] or bc["blocking"]', 'bc["frozen"] or ', "",
          "frozen characters may block", (RUNTIME,)),
    Known("rulescript/games/cfc/commands.py", 301, 'done = [i for i in iids if cards[i]["zone"] != "discards"]',
          'cards[i]["zone"] != "discards"', "True", "'destroyed' lists cards already in the discards", (RUNTIME,)),
    Known("rulescript/games/werewolf/game.py", 680, '(e.get("by") is None or by in e["by"])',
          '(e.get("by") is None or by in e["by"])', "True",
          "a protection limited to some attackers stops every attacker", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 1181, "eligible = dict((t, n) for t, n in tally.items() if n > 0",
          "n > 0", "n >= 0", "a player with 0 votes can win a poll", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 1286, "tally.get(winner, 0) * 2 > sum(tally.values())", "* 2 >", "* 2 >=",
          "~hammer~ fires at exactly half", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 652, "return max(0, n)", "max(0, n)", "n",
          "negative voting power is not floored at 0", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 1240, 'p["left"] not in ("descended", "left")]', '("descended", "left")',
          '("left",)', "descended players count as winners", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 1141, "if choice == old:", "choice == old", "False",
          "an unchanged vote fires votechange", (WEREWOLF,)),
    Known("rulescript/games/werewolf/game.py", 741, 'if pl["alive"] or pl["left"]:', ' or pl["left"]', "",
          "a player who left can be resurrected", (WEREWOLF,)),
    Known("rulescript/compiler/compile_filter.py", 267, "if a > b:", "a > b", "a >= b",
          "a valid <2,2> is rejected", (COMPILER,)),
    Known("rulescript/compiler/compile_filter.py", 272, "if n == 0:", "n == 0", "n < 0",
          "<r0> is accepted", (COMPILER,)),
    Known("rulescript/compiler/compile_filter.py", 265, "if b == 0:", "b == 0", "b < 0",
          "<0,0> is accepted", (COMPILER,)),
    Known("rulescript/compiler/compile_rule.py", 406, "if n < 1:", "n < 1", "n < 0",
          "{D(0)} is accepted", (COMPILER,)),
    Known("rulescript/compiler/compile_expr.py", 305, "if t in _NOT_SIGNED:", "t in _NOT_SIGNED", "False",
          "-'text' is accepted", (COMPILER,)),
    Known("rulescript/compiler/driver.py", 510, "if rid in first_seen:", "rid in first_seen", "False",
          "the same section id in two files is not reported", (COMPILER,)),
    Known("wwrf_adapter/render/exprs.py", 246, 'return f"results.{int(name[6:]) - 1}"', "int(name[6:]) - 1",
          "int(name[6:])", "@ResultN as a player is off by one", (RENDER,)),
    Known("wwrf_adapter/aiwolf/parser.py", 117, "if len(value) > len(str(MAX_NUMBER)):", "len(value) >",
          "len(value) >=", "9-digit numbers are rejected", (AIWOLF,)),
    Known("wwrf_adapter/aiwolf/parser.py", 33, '"BECAUSE": (2, 2)', '"BECAUSE": (2, 2)', '"BECAUSE": (2, 3)',
          "BECAUSE with 3 sentences is accepted", (AIWOLF,)),
    Known("wwrf_adapter/aiwolf/host.py", 411, "allowed = [o + 1 for o in options if", "o != seat", "o != -1",
          "an agent may vote for itself", (AIWOLF,)),
    Known("wwrf_adapter/aiwolf/host.py", 513, "and self.executed_today != medium", "self.executed_today != medium",
          "True", "an executed Medium gets its own result", (AIWOLF,)),
    Known("octgn_pack/host/codec.py", 267, "h = ((h ^ (0x302 if v else 0x303)) * _P) & _M", "0x302 if v else 0x303",
          "0x302", "the state checksum does not tell True from False", (OCTGN,)),
    Known("octgn_pack/host/lockstep.py", 45, 'if request["player"] == seat and request.get("cancel"):',
          ' and request.get("cancel")', "",
          "a player who concedes in their own non-cancellable decision gets None as the answer", (OCTGN,)),
    Known("octgn_pack/host/host.py", 599, "if first > n:", "first > n", "first >= n",
          "clients ask each other to resend for ever (a hang)", (OCTGN,)),
]
