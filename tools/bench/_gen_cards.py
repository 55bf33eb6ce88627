"""Generate a varied, valid CFC card set for the compiler benchmark.

    python tools/bench/_gen_cards.py OUTDIR [--rules 1000] [--seed 11]

Writes a game folder (``game.yaml``, ``cards.yaml``, ``rules/*.ini``) whose rules are assembled from
templates of costs, triggers, commands, target filters, restrictions and expressions, with random
numbers, names, subtypes, zones and structure (targets, vars, requisites, labels, several actions,
if/elif/else chains, ``[[may]]``, ``each``, quantifiers, selectors, continuation lines and comments).
No two rules are copies of each other; the generator checks that every rule text is distinct.
The set is meant to compile with zero errors: ``compile.py`` asserts that before timing it.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SUBTYPES = ["ninja", "kung-fu", "boss", "robot", "mage", "beast"]
PLURALS = {"ninja": "ninjas", "kung-fu": "kung-fus", "boss": "bosses", "robot": "robots", "mage": "mages",
           "beast": "beasts"}
ABILITIES = ["unblockable", "cantattack", "cantblock", "unfreezable", "pierce", "preventpierce", "rush"]
LASTING_ABILITIES = ["unfreezable", "cantblock", "cantattack", "frosted", "preventpierce"]
RESTRICTIONS = ["ueot", "myueot", "oppueot", "uynt", "oppuynt", "unac"]
FILTER_WORDS = ["frozen", "fresh", "powerful", "powerless", "backedup", "abinstant", "abtrigger", "abauto"]
EVENTS = ["myEndPhase", "oppEndPhase", "myActivatePhase", "myDrawPhase", "oppDrawPhase", "myCleanupPhase",
          "ringChanges", "myHandChanges", "oppHandChanges", "attacks", "blocks", "blocked", "myBlockPhase"]
RULE_WORDS = ["ab_trigger_fresh", "ab_instant_act", "piercing", "backup_fresh", "attack_freeze", "backup_limit"]
NAME_PARTS = ["Iron", "Jade", "Storm", "Night", "Ember", "Frost", "Silent", "Crimson", "Hollow", "Bright",
              "Tiger", "Crane", "Viper", "Golem", "Sage", "Drake", "Lotus", "Wolf", "Monk", "Ronin"]


class Gen:
    """Builds one rule at a time from templates; ``names`` are card names that exist in cards.yaml."""

    def __init__(self, rnd: random.Random, names: list[str]) -> None:
        self.r = rnd
        self.names = names

    # -- small pieces ----------------------------------------------------------------------------
    def num(self, lo: int = 1, hi: int = 9, step: int = 100) -> int:
        return self.r.randint(lo, hi) * step

    def pick(self, seq: list[str]) -> str:
        return self.r.choice(seq)

    def ring(self) -> str:
        return self.pick(["@myRing", "@oppRing", "@arena", "@oppRing", "@myRing", ""])

    def fblock(self) -> str:
        atoms = []
        for _ in range(self.r.randint(1, 3)):
            kind = self.r.random()
            if kind < 0.4:
                atoms.append(f"bp{self.pick(['<=', '>=', '<', '>', '=', '!='])}{self.num(1, 15)}")
            elif kind < 0.85:
                atoms.append(self.pick(["", "-", "!"]) + self.pick(FILTER_WORDS))
            else:
                atoms.append(f"bp:{self.pick(['lowest', 'highest'])}")
                break
        return "[" + self.pick([" & ", "&", ", "]).join(atoms) + "]"

    def char_filter(self, zone: str | None = None, plural: bool | None = None) -> str:
        plural = self.r.random() < 0.5 if plural is None else plural
        qty = ""
        if plural and self.r.random() < 0.4:
            qty = self.pick([f"<,{self.r.randint(2, 4)}>", f"<{self.r.randint(1, 3)}>", "<**>"])
        base = self.r.random()
        if base < 0.55:
            typ = "characters" if plural else "character"
        elif base < 0.8:
            sub = self.pick(SUBTYPES)
            typ = PLURALS[sub] if plural else sub
        elif base < 0.9:
            typ = ("characters" if plural else "character") + "&" + self.pick(SUBTYPES)
        else:
            typ = '"' + self.pick(self.names) + '"' + ("s" if plural else "")
        block = self.fblock() if self.r.random() < 0.6 else ""
        return qty + typ + block + (self.ring() if zone is None else zone)

    def pile_filter(self) -> str:
        zone = self.pick(["@myDiscards", "@myDeck", "@myHand", "@oppDiscards", "@myRemoved"])
        typ = self.pick(["*", "character", "characters", "action", "reaction", "*[character]", "*[action, reaction]"])
        qty = self.pick(["", "", f"<,{self.r.randint(2, 3)}>", "<r>"]) if typ in ("*", "characters") else ""
        return qty + typ + zone

    # -- expressions --------------------------------------------------------------------------------
    def number_expr(self, depth: int = 0) -> str:
        k = self.r.random()
        if depth > 1 or k < 0.25:
            return str(self.num(1, 9))
        if k < 0.45:
            return f"{self.pick(['me', 'opp'])}.{self.pick(['hand', 'ring', 'discards', 'deck'])}.size * {self.num(1, 3)}"
        if k < 0.6:
            return f"{self.pick(['min', 'max'])}({self.number_expr(depth + 1)}, {self.num(1, 9)})"
        if k < 0.7:
            return f"abs({self.pick(['me', 'opp'])}.hp - {self.num(5, 20)}) // {self.r.randint(2, 9)}"
        if k < 0.8:
            return f"len({self.pick(['me.hand', 'opp.ring', 'me.discards'])}) * {self.num(1, 2)} + {self.r.randint(0, 99)}"
        if k < 0.9:
            sub = self.pick(SUBTYPES)
            return f"getTargets('{PLURALS[sub]}@{self.pick(['myRing', 'oppRing', 'arena'])}').size * {self.num(1, 3)}"
        return f"{self.num(2, 4)} if {self.condition(depth + 1)} else {self.num(1, 2)}"

    def condition(self, depth: int = 0) -> str:
        k = self.r.random()
        if depth > 1 or k < 0.3:
            return (f"{self.pick(['me', 'opp'])}.{self.pick(['hp', 'sp'])} "
                    f"{self.pick(['<', '>', '<=', '>=', '==', '!='])} {self.r.randint(1, 30) * 50}")
        if k < 0.45:
            return f"{self.pick(['me', 'opp'])}.hand.size {self.pick(['<', '>=', '%  2 =='])} {self.r.randint(1, 6)}"
        if k < 0.55:
            return f"all card.bp >= {self.num(2, 8)} in {self.pick(['me.ring', 'opp.ring'])}"
        if k < 0.65:
            return f"any card.subtype == '{self.pick(SUBTYPES)}' in {self.pick(['me.ring', 'opp.ring', 'me.hand'])}"
        if k < 0.72:
            return self.pick(["alone", "soloAttack", "oppLostSP", "flipCoin()", "not alone"])
        if k < 0.85:
            return f"{self.condition(depth + 1)} {self.pick(['and', 'or'])} {self.condition(depth + 1)}"
        return f"{self.r.randint(0, 3)} < len(me.hand) <= {self.r.randint(4, 9)}"

    # -- statements --------------------------------------------------------------------------------
    def effect(self) -> str:
        k = self.r.randint(0, 17)
        n = self.num
        if k == 0:
            return f"damage({self.number_expr()}) to({self.pick(['opp', self.char_filter('@oppRing')])})"
        if k == 1:
            return f"bp({self.pick(['+', '-'])}{n(1, 6)}) to({self.char_filter()})"
        if k == 2:
            return f"bp(x{self.r.randint(2, 3)}) to({self.char_filter('@myRing', plural=False)})"
        if k == 3:
            return f"sp({self.pick(['+', '-'])}{self.r.randint(1, 3)})"
        if k == 4:
            return f"hp(+{self.number_expr()})"
        if k == 5:
            return f"draw({self.pick(['', str(self.r.randint(1, 3)), self.number_expr()])})"
        if k == 6:
            return f"discard({self.r.randint(1, 2)}) to(opp)"
        if k == 7:
            return f"trash({self.r.randint(1, 5)}) to({self.pick(['opp', 'me'])})"
        if k == 8:
            return f"freeze() to({self.char_filter('@oppRing')})"
        if k == 9:
            return f"moveTo({self.pick(['hand', 'deck', 'removed'])}) to({self.pile_filter()})"
        if k == 10:
            return f"destroy() to({self.char_filter('@oppRing', plural=False)})"
        if k == 11:
            return f"+{self.pick(LASTING_ABILITIES)} {self.pick(RESTRICTIONS)} to({self.char_filter('@myRing')})"
        if k == 12:
            return f"disableRule({self.pick(RULE_WORDS)}) to(opp) oppueot"
        if k == 13:
            return f"prophecy({self.r.randint(1, 4)}, {self.pick(['top', 'bottom'])}) to(player)"
        if k == 14:
            return f"loseLife({n(1, 5)}) to(opp)"
        if k == 15:
            return f"rndDiscard({self.r.randint(1, 2)}) to(opp)"
        if k == 16:
            return f"shuffle({self.pick(['', 'myDeck', 'oppDeck'])})"
        return f"unfreeze() to({self.char_filter('@myRing')})"

    def body(self) -> str:
        parts = [self.effect()]
        # only effects without their own target clause may be chained under one clause
        if self.r.random() < 0.25:
            parts = [self.pick(["draw()", f"sp(+{self.r.randint(1, 2)})", "shuffle()", "peek()"]),
                     self.pick(["&", "&&", "||"]),
                     self.pick(["draw()", f"hp(+{self.num(1, 3)})", "playExtraChar()"])]
        return " ".join(parts)

    def statement(self) -> str:
        k = self.r.random()
        if k < 0.55:
            return self.body()
        if k < 0.75:
            out = f"[[if {self.condition()}]] {self.body()}"
            if self.r.random() < 0.4:
                out += f" [[elif {self.condition()}]] {self.body()}"
            if self.r.random() < 0.6:
                out += f" [[else]] {self.body()}"
            return out
        if k < 0.85:
            prompt = self.pick(["", f' "{self.pick(NAME_PARTS)} {self.pick(NAME_PARTS)}?"'])
            return f"[[may{prompt}]] {self.body()}"
        if k < 0.93:
            return (f"each({self.pick(['char', 'card'])} in {self.pick(['me.ring', 'opp.ring', 'me.hand'])}"
                    f" => {self.pick(['draw()', 'sp(+1)', 'hp(+100)'])})")
        return (f"freeze() to({self.char_filter('@oppRing', plural=True)}"
                f"::not({self.pick(['prevTgt', 'tgt'])}))")

    def statements(self) -> str:
        stmts = [self.statement() for _ in range(self.r.randint(1, 3))]
        sep = self.pick(["; ", ";\n    ", "; "])
        return sep.join(stmts)

    def cost(self) -> str:
        if self.r.random() < 0.6:
            return ""
        costs = self.pick(["{F}", "{D}", "{F}{D}", f"{{D({self.r.randint(1, 2)})}}", "{S}",
                           f"{{S({self.char_filter('', plural=False)})}}", "{D(action)}"])
        return costs + ": "

    # -- a whole rule --------------------------------------------------------------------------------
    def rule(self, rid: str) -> str:
        lines = [f"[{rid}]"]
        if self.r.random() < 0.15:
            lines.append(f"# {self.pick(NAME_PARTS)} {self.pick(NAME_PARTS)}: generated rule")
        kind = self.r.random()
        if kind < 0.1:
            lines.append("abilities = " + ", ".join(self.r.sample(ABILITIES, self.r.randint(1, 3))))
            if self.r.random() < 0.5:
                lines.append(f"auto = ~{self.pick(EVENTS)}~ {self.statements()}")
            return "\n".join(lines)
        if kind < 0.35:
            events = self.pick(EVENTS)
            if self.r.random() < 0.2:
                events += "," + self.pick(EVENTS)
            lines.append(f"auto = ~{events}~ {self.statements()}")
            return "\n".join(lines)
        if self.r.random() < 0.35:
            lines.append(f"target = {self.char_filter(plural=self.r.random() < 0.4)}")
        if self.r.random() < 0.2:
            lines.append(f"vars = _a{self.r.randint(0, 9)} := {self.number_expr()}; "
                         f"_b := {self.condition()}")
        if self.r.random() < 0.15:
            lines.append(f"requisite = {self.char_filter('@myRing')} && {self.char_filter('@oppRing')}")
        for i in range(self.r.choice([1, 1, 1, 2])):
            if self.r.random() < 0.3:
                lines.append(f"label = {self.pick(NAME_PARTS)} {self.pick(['strike', 'guard', 'call', 'step'])} {i}")
            lines.append(f"action = {self.cost() if i == 0 else '{F}: '}{self.statements()}")
        return "\n".join(lines)


def generate(target: Path, n_rules: int = 1000, seed: int = 11, per_file: int = 100) -> list[str]:
    """Write the game folder into ``target``; returns the rule ids."""
    rnd = random.Random(seed)
    target.mkdir(parents=True, exist_ok=True)
    (target / "rules").mkdir(exist_ok=True)
    ids = [f"gen-{i:05d}" for i in range(n_rules)]
    names = []
    cards = ["# generated by tools/bench/_gen_cards.py", "cards:"]
    for i, cid in enumerate(ids):
        name = f"{rnd.choice(NAME_PARTS)} {rnd.choice(NAME_PARTS)} {i}"
        names.append(name)
        ctype = rnd.choice(["character", "character", "character", "action", "reaction"])
        cards += [f"  - id: {cid}", f'    name: "{name}"', f"    type: {ctype}"]
        if ctype == "character":
            cards += [f"    subtype: {rnd.choice(SUBTYPES)}", f"    bp: {rnd.randint(1, 15) * 100}",
                      f"    sp: {rnd.randint(-2, 2)}"]
        else:
            cards.append(f"    sp: {-rnd.randint(0, 3)}")
    (target / "cards.yaml").write_text("\n".join(cards) + "\n", encoding="utf-8")
    (target / "game.yaml").write_text("profile: cfc\nname: Generated benchmark set\n", encoding="utf-8")
    gen = Gen(rnd, names)
    seen: set[str] = set()
    texts: list[str] = []
    for cid in ids:
        for _ in range(50):
            text = gen.rule(cid)
            body = text.split("\n", 1)[1] if "\n" in text else ""
            if body not in seen:
                break
        else:
            raise RuntimeError(f"could not generate a distinct rule for {cid}")
        seen.add(body)
        texts.append(text)
    for start in range(0, len(texts), per_file):
        chunk = texts[start:start + per_file]
        header = f"# generated rules {start}..{start + len(chunk) - 1}\n\n"
        (target / "rules" / f"gen-{start // per_file:03d}.ini").write_text(
            header + "\n\n".join(chunk) + "\n", encoding="utf-8")
    return ids


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--rules", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    ids = generate(args.outdir, args.rules, args.seed)
    print(f"wrote {len(ids)} rules to {args.outdir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
