"""The fuzzer's targets: one per front end (tools/fuzz/run.py).

A target has two halves.  In the campaign process, ``Target.corpus()`` reads the seed inputs from the
repository (and from ``--corpus`` paths) and ``Target.generate(rng)`` turns one of them into a
mutated input: a dict ``{"files": {name: text}, ...}``, so that a finding is saved as files.  In a
worker process, ``Target.run(inp, tmp)`` feeds the input to the front end the way its command does
and raises when the front end lets an exception out that it should have turned into a diagnostic,
a rule error or a clean refusal (``Refused`` marks the documented refusals, which are not findings).

| target | front end | seeds |
|---|---|---|
| compiler | ``compile_text`` (``rulescript check``) | sections of cards/cfc-demo/rules and the hostile fixture rules |
| wwrf | ``wwrf_adapter.parse_text`` (``wwrf check``) and the canonical form round trip | tests/wwrf/guide_lines.tsv, ``--corpus`` files (WWRF examples) |
| scenarios | ``run_text`` (``rulescript test``) | every scenario of cards/cfc-demo and tests/sim/fixtures |
| game | ``load_game`` + ``compile_game`` (``rulescript check/play GAME``) and a short game | the vanilla, hostile and demo game folders |
| saves | ``load_log`` + ``replay`` (``rulescript play --load/--replay``) | logs of short seeded demo games and werewolf games |
| games | whole random games with generated rules (``rulescript simulate``) | the demo rules, mutated and mixed with the limit templates |
| selftest | the harness itself: sleeps, allocates or raises as the input says | fixed inputs |
| octgn-build, octgn-validate, import, wwrf-render | hostile files (``filetargets.py``) | see there |
"""
from __future__ import annotations

import ast
import os
import random
import time
from pathlib import Path

import yaml

import mutate as M

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "cards" / "cfc-demo"
HOSTILE = ROOT / "tests" / "sim" / "fixtures" / "hostile"
VANILLA = ROOT / "tests" / "sim" / "fixtures" / "vanilla"
WEREWOLF = ROOT / "cards" / "werewolf"
SCENARIO_DIRS = [DEMO / "scenarios", ROOT / "tests" / "sim" / "fixtures" / "scenarios", HOSTILE / "scenarios"]


class Refused(Exception):
    """A front end refused the input the documented way (not a finding)."""


def _sections(text):
    out = []
    cur = []
    for line in text.split("\n"):
        if line.startswith("[") and cur:
            out.append("\n".join(cur))
            cur = []
        if line.strip().startswith("#") and not cur:
            continue
        cur.append(line)
    if cur and any(x.strip() for x in cur):
        out.append("\n".join(cur))
    return [s for s in out if s.startswith("[")]


def rule_sections():
    out = []
    for d in (DEMO / "rules", HOSTILE / "rules"):
        for p in sorted(d.glob("*.ini")):
            out.extend(_sections(p.read_text(encoding="utf-8")))
    return out


class Target:
    name = ""
    #: seconds an input may take before it counts as slow (a finding too)
    slow = 2.0

    def __init__(self, corpus_paths=()):
        self.corpus_paths = [Path(p) for p in corpus_paths]
        self.seeds = []

    def corpus(self):
        raise NotImplementedError

    def generate(self, rng):
        raise NotImplementedError

    def setup(self):
        """Worker side: warm caches once."""

    def run(self, inp, tmp):
        raise NotImplementedError


# ---------------------------------------------------------------------------- compiler
class CompilerTarget(Target):
    name = "compiler"

    def corpus(self):
        self.seeds = rule_sections()

    def generate(self, rng):
        picks = [rng.choice(self.seeds) for _ in range(rng.randint(1, 3))]
        text = "\n".join(picks)
        return {"files": {"fuzz.ini": M.mutate_rules(rng, text, self.seeds)}}

    def setup(self):
        from rulescript.compiler import compile_text, load_cards
        self.compile_text = compile_text
        self.cards = load_cards(DEMO / "cards.yaml")[0]

    def run(self, inp, tmp):
        text = inp["files"]["fuzz.ini"]
        result = self.compile_text(text, profile="cfc", filename="fuzz.ini", cards=self.cards, cache=None)
        result.render()
        return {"rules": len(result.rules), "diagnostics": len(result.diagnostics)}


# ---------------------------------------------------------------------------- wwrf
WW_GLYPHS = ["\u2022", "\u2023", "\u25e6", "`", "[", "]", "(", ")", "{", "}", "|", ":", "@", "#", "~",
             "!", ",", "->", "=>", "'", " ", "  ", "\t", "\u200b", "\r", "\n", "@(", "(~", "[Quantity: ",
             "x2", "Process:", "Evaluate:", "Otherwise: ", "For Each ", "No Abilities", "\n  \u2022 ",
             "\n    \u2023 ", "**", "__", "`" * 50, "[" * 300, "(" * 300]
WW_WORDS = ["Kill", "Immediate", "Night", "On", "Death", "Learn", "@Self", "`a`", "[Temporal: Day 2+]",
            "Role", "Change", "to", "is", "not", "(SD, WD)", "(~Phase)", "Choice", "@Selection",
            "Townsfolk Power", "__Formalized__", "Inherit: ", "Quantity", "99999999999999999999"]


class WwrfTarget(Target):
    name = "wwrf"

    def corpus(self):
        seeds = []
        tsv = ROOT / "tests" / "wwrf" / "guide_lines.tsv"
        lines = [row.split("\t") for row in tsv.read_text(encoding="utf-8").split("\n")[1:] if row.strip()]
        for row in lines:
            if len(row) >= 4:
                seeds.append("**Fuzz** | Townsfolk Power\n__Formalized__\n" + row[3] + "\n")
        for p in self.corpus_paths:
            files = sorted(x for x in p.rglob("*") if x.is_file()) if p.is_dir() else [p]
            for f in files:
                try:
                    seeds.append(f.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    pass
        self.seeds = seeds

    def generate(self, rng):
        return {"files": {"role.wwrf": M.mutate_text(rng, rng.choice(self.seeds), WW_GLYPHS, WW_WORDS)}}

    def setup(self):
        import wwrf_adapter
        from rulescript.diagnostics import render
        self.ww = wwrf_adapter
        self.render = render

    def run(self, inp, tmp):
        text = inp["files"]["role.wwrf"]
        el, diags = self.ww.parse_text(text, "role.wwrf")
        for d in diags:
            self.render(d, text)
        if not any(d.is_error for d in diags):
            again, diags2 = self.ww.parse_text(self.ww.format_element(el), "role.wwrf")
            if any(d.is_error for d in diags2) or again != el:
                raise AssertionError("the canonical form of a clean file does not parse back to the same AST")
        return {"diagnostics": len(diags)}


# ---------------------------------------------------------------------------- scenarios
def scenario_seeds():
    out = []
    for d in SCENARIO_DIRS:
        for p in sorted(d.glob("*.yaml")):
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
            game = None
            items = data
            if isinstance(data, dict) and "scenarios" in data:
                items = data["scenarios"]
                game = data.get("game")
                for k in ("rules", "seed"):
                    if k in data:
                        for sc in items:
                            sc.setdefault(k, data[k])
            elif isinstance(data, dict):
                items = [data]
            game_dir = (p.parent / game).resolve() if game else p.parent.parent
            if not (game_dir / "cards.yaml").exists():
                game_dir = VANILLA
            for sc in items:
                sc = dict(sc)
                sc["game"] = str(game_dir)
                out.append(sc)
    return out


class ScenariosTarget(Target):
    name = "scenarios"

    def corpus(self):
        self.seeds = scenario_seeds()

    def generate(self, rng):
        sc = rng.choice(self.seeds)
        if rng.random() < 0.6:
            text = M.yaml_dump(M.mutate_tree(rng, sc))
        else:
            text = M.mutate_yaml_text(rng, M.yaml_dump(sc))
        return {"files": {"case.yaml": text}}

    def setup(self):
        from rulescript.sim.scenario import run_text
        self.run_text = run_text
        for g in (DEMO, HOSTILE):  # compile the games' rules once (the compile cache keeps them)
            run_text("game: %s\nname: warm\n" % g, "warm.yaml", ROOT)

    def run(self, inp, tmp):
        results = self.run_text(inp["files"]["case.yaml"], "case.yaml", ROOT)
        crashed = [f for r in results for f in r.failures if "the run crashed" in f]
        if crashed:
            raise AssertionError("scenario runner reported a crash: " + crashed[0])
        return {"scenarios": len(results), "passed": sum(1 for r in results if r.passed)}


# ---------------------------------------------------------------------------- game files
def _game_files(root):
    files = {}
    for rel in ["game.yaml", "cards.yaml"]:
        if (root / rel).exists():
            files[rel] = (root / rel).read_text(encoding="utf-8")
    for sub, pat in (("decks", "*.yaml"), ("rules", "*.ini")):
        for p in sorted((root / sub).glob(pat)) if (root / sub).is_dir() else []:
            files["%s/%s" % (sub, p.name)] = p.read_text(encoding="utf-8")
    return files


def _mini_game():
    """The hostile fixture game cut to the 17 cards of its hostile deck (every one with rules, or
    nearly): small files, so that the loaders, not YAML parsing, take the time of an input."""
    files = _game_files(HOSTILE)
    deck = yaml.safe_load(files["decks/hostile.yaml"])
    keep = set(deck["cards"])
    cards = [c for c in yaml.safe_load(files["cards.yaml"])["cards"] if c["id"] in keep]
    return {"game.yaml": "profile: cfc\nname: Mini\n", "cards.yaml": M.yaml_dump({"cards": cards}),
            "decks/hostile.yaml": files["decks/hostile.yaml"],
            "decks/mirror.yaml": files["decks/hostile.yaml"].replace("name: Hostile", "name: Mirror"),
            "rules/hostile.ini": files["rules/hostile.ini"]}


class GameTarget(Target):
    name = "game"

    def corpus(self):
        vanilla = _game_files(VANILLA)
        vanilla.setdefault("game.yaml", "profile: cfc\nname: Vanilla\n")
        self.seeds = [vanilla, _mini_game(), _game_files(DEMO)]

    def generate(self, rng):
        r = rng.random()
        files = self.seeds[0] if r < 0.3 else self.seeds[1] if r < 0.97 else self.seeds[2]
        files = dict(files)
        name = rng.choice([n for n in files if not n.endswith(".ini")] + ["cards.yaml"] * 2)
        if rng.random() < 0.5:
            try:
                tree = yaml.safe_load(files[name])
                files[name] = M.yaml_dump(M.mutate_tree(rng, tree))
            except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError):  # M.TooBigToEdit too
                files[name] = M.mutate_yaml_text(rng, files[name])
        else:
            files[name] = M.mutate_yaml_text(rng, files[name])
        return {"files": files, "seed": rng.randrange(10 ** 6)}

    def setup(self):
        from rulescript.compiler import compile_game
        from rulescript.sim.cards import CardDataError, load_game
        from rulescript.sim.deciders import RandomDecider
        from rulescript.sim.gamelog import play_game
        from rulescript.sim.host import new_engine
        self.compile_game, self.load_game, self.CardDataError = compile_game, load_game, CardDataError
        self.play_game, self.RandomDecider, self.new_engine = play_game, RandomDecider, new_engine

    def run(self, inp, tmp):
        root = Path(tmp) / "game"
        _write(root, inp["files"])
        result = self.compile_game(root)
        result.render()
        try:
            data = self.load_game(root)
        except self.CardDataError:
            raise Refused("card data refused")
        decks = sorted(data.decks)
        if result.ok and len(decks) >= 2:
            self.play_game(data, decks[:2], inp.get("seed", 1), self.RandomDecider(inp.get("seed", 1)),
                           rules=self.new_engine(result.rules), turn_limit=6)
        return {"rules": len(result.rules), "ok": result.ok}


def _write(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", errors="surrogatepass")


# ---------------------------------------------------------------------------- saves
class SavesTarget(Target):
    """Saved logs of both games, each fed to a game the way ``rulescript play GAME --replay/--load``
    feeds it: mostly to its own game, sometimes to the other one (a werewolf log given to a CFC game)."""
    name = "saves"

    def corpus(self):
        from rulescript.sim.deciders import RandomDecider
        from rulescript.sim.gamelog import play_game
        from rulescript.sim.host import load_table
        from rulescript.sim.wolf import load_wolf_table
        table = load_table(DEMO)
        self.seeds = []
        for seed in range(1, 13):
            _game, log = play_game(table.data, ["deck-a", "deck-b"], seed, RandomDecider(seed),
                                   rules=table.engine(), turn_limit=8)
            self.seeds.append(("cfc", repr(log)))
        wolf = load_wolf_table(WEREWOLF)
        for seed in range(1, 7):
            players = sorted(wolf.data.role_lists)[seed % len(wolf.data.role_lists)]
            _game, log = wolf.play(players, seed, RandomDecider(seed))
            self.seeds.append(("werewolf", repr(log)))

    def generate(self, rng):
        game, text = rng.choice(self.seeds)
        k = rng.random()
        if k < 0.4:  # a hand edit that keeps the save's shape: it reaches the replay
            text = repr(self._edit(rng, ast.literal_eval(text)))
        else:
            text = M.mutate_literal(rng, text) if k < 0.7 else M.mutate_literal_text(rng, text)
        if rng.random() < 0.1:
            game = "werewolf" if game == "cfc" else "cfc"
        # the CFC game replays a save (play --replay) or goes on from it (play --load: decks by name)
        return {"files": {"game.log": text}, "game": game, "load": rng.random() < 0.3}

    def _edit(self, rng, log):
        """One to three edits a player could make by hand: another seed, first player, turn limit,
        answer, player of a decision, card of a deck, role or poll setting; decisions cut, dropped,
        repeated or swapped."""
        decisions = log["decisions"]
        answers = [d[2] for d in decisions] + [None, -1, 0, 1, 99, [], [0, 0], "x", {"do": "pass"}]
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(9)
            i = rng.randrange(len(decisions)) if decisions else 0
            if k == 0:
                log["seed"] = rng.choice([rng.randrange(10 ** 6), 0, -1, 2 ** 62])
            elif k == 1 and decisions:
                decisions[i][2] = rng.choice(answers)
            elif k == 2 and decisions:
                decisions[i][1] = rng.choice([0, 1, 2, 3, 4, decisions[i][1] + 1])
            elif k == 3:
                del decisions[rng.randrange(len(decisions) + 1):]
            elif k == 4 and decisions:
                decisions.insert(i, list(rng.choice(decisions)))
            elif k == 5 and len(decisions) > 1:
                j = rng.randrange(len(decisions))
                decisions[i], decisions[j] = decisions[j], decisions[i]
            elif k == 6 and "decks" in log:
                deck = rng.choice(log["decks"])["cards"]
                other = rng.choice(log["decks"])["cards"]
                deck[rng.randrange(len(deck))] = rng.choice(other + ["x", ""])
                if rng.random() < 0.3:
                    deck.append(rng.choice(other))
            elif k == 6:
                roles = log["roles"]
                roles[rng.randrange(len(roles))] = rng.choice(roles + ["villager", "werewolf", "seer", "x"])
                if rng.random() < 0.3:
                    roles.append(rng.choice(roles))
            elif k == 7 and "decks" in log:
                log[rng.choice(["first", "turn_limit"])] = rng.choice([None, 0, 1, 2, 3, 100_000, 100_001])
            elif k == 7:
                revotes = {rng.choice(["lynch", "pack-hunt", "x"]): rng.choice([0, 1, 5, 100])}
                log["settings"] = rng.choice([{}, {"ties": "decide"}, {"ties": "random"}, {"vote_changes": False},
                                              {"revotes": revotes}, {"revotes": revotes, "ties": "decide"}])
            elif k == 8:
                log["deal"] = rng.choice([True, False])
        return log

    def setup(self):
        from rulescript.runtime.errors import InvalidDecision
        from rulescript.sim.deciders import ReplayDiverged
        from rulescript.sim.gamelog import SaveError, load_log
        from rulescript.sim.host import load_table
        from rulescript.sim.wolf import load_wolf_table
        self.table = load_table(DEMO)
        self.wolf = load_wolf_table(WEREWOLF)
        self.load_log, self.SaveError = load_log, SaveError
        # the typed ways a replay says the log does not fit the game (both `play --replay`s report them)
        self.misfits = (ReplayDiverged, InvalidDecision)

    def run(self, inp, tmp):
        path = Path(tmp) / "game.log"
        path.write_text(inp["files"]["game.log"], encoding="utf-8", errors="surrogatepass")
        werewolf = inp.get("game") == "werewolf"
        try:  # as cmd_play_werewolf, Session.replay_file and run_interactive (--load) read it
            if werewolf:
                log = self.load_log(path, werewolf=self.wolf.data)
            else:
                log = self.load_log(path, self.table.data, named_decks=bool(inp.get("load")))
        except (OSError, self.SaveError) as exc:
            raise Refused("unreadable: %s" % type(exc).__name__)
        try:
            game = (self.wolf if werewolf else self.table).replay(log, partial=True)
        except self.misfits as exc:
            raise Refused("log does not fit: %s" % type(exc).__name__)
        return {"stopped": game.replay_stopped}


# ---------------------------------------------------------------------------- games
class GamesTarget(Target):
    name = "games"
    slow = 2.0

    def corpus(self):
        self.seeds = rule_sections()
        ids = set()
        for p in sorted((DEMO / "decks").glob("*.yaml")):
            ids.update(yaml.safe_load(p.read_text(encoding="utf-8"))["cards"])
        self.demo_ids = sorted(ids)  # cards of the two decks: their rules do run

    def generate(self, rng):
        sections = []
        for _ in range(rng.randint(1, 8)):
            base = rng.choice(self.seeds)
            head, _, body = base.partition("\n")
            cid = rng.choice(self.demo_ids)  # the mutated rules replace a demo card's rules
            body = M.mutate_rules(rng, body, self.seeds, edits=rng.randint(0, 3)) if rng.random() < 0.65 \
                else M._template(rng)
            sections.append("[%s]\n%s" % (cid, body))
        return {"files": {"mutant.ini": "\n".join(sections)}, "seed": rng.randrange(10 ** 6),
                "turn_limit": rng.choice([20, 60, 200])}

    def setup(self):
        from rulescript.compiler import compile_game, compile_text, load_cards
        from rulescript.sim.cards import load_game
        from rulescript.sim.deciders import RandomDecider
        from rulescript.sim.gamelog import play_game
        from rulescript.sim.host import new_engine
        self.base = compile_game(DEMO).rules
        self.data = load_game(DEMO)
        self.cards = load_cards(DEMO / "cards.yaml")[0]
        self.compile_text, self.play_game = compile_text, play_game
        self.RandomDecider, self.new_engine = RandomDecider, new_engine

    def run(self, inp, tmp):
        result = self.compile_text(inp["files"]["mutant.ini"], profile="cfc", filename="mutant.ini",
                                   cards=self.cards, cache=None)
        rules = dict(self.base)
        rules.update(result.rules)
        engine = self.new_engine(rules)
        seed = inp.get("seed", 1)
        game, log = self.play_game(self.data, ["deck-a", "deck-b"], seed, self.RandomDecider(seed),
                                   rules=engine, turn_limit=inp.get("turn_limit", 200))
        codes = {}
        for e in engine.errors:
            codes[e["code"]] = codes.get(e["code"], 0) + 1
        if codes.get("RS530"):
            first = [e for e in engine.errors if e["code"] == "RS530"][0]
            raise EngineErrorFinding(first["message"])
        return {"mutants": len(result.rules), "turns": game.state["turn"], "errors": codes}


class EngineErrorFinding(Exception):
    """A game recorded an engine error (RS530): caught and the game went on, but it is a bug."""


# ---------------------------------------------------------------------------- selftest
class SelftestTarget(Target):
    """Inputs that hang, allocate, crash or pass, to test the harness's limits."""
    name = "selftest"

    def corpus(self):
        self.seeds = ["ok", "ok", "ok", "sleep 30", "alloc 4000", "raise", "slow 0.8", "exit"]

    def generate(self, rng):
        return {"files": {"cmd.txt": rng.choice(self.seeds)}}

    def run(self, inp, tmp):
        cmd = inp["files"]["cmd.txt"].split()
        if cmd[0] == "sleep":
            time.sleep(float(cmd[1]))
        elif cmd[0] == "slow":
            end = time.perf_counter() + float(cmd[1])
            while time.perf_counter() < end:
                pass
        elif cmd[0] == "alloc":
            blob = bytearray(int(cmd[1]) * 1024 * 1024)
            return {"n": len(blob)}
        elif cmd[0] == "raise":
            raise ValueError("selftest finding")
        elif cmd[0] == "exit":
            os._exit(3)
        return {}


TARGETS = {t.name: t for t in (CompilerTarget, WwrfTarget, ScenariosTarget, GameTarget, SavesTarget,
                               GamesTarget, SelftestTarget)}

from filetargets import FILE_TARGETS  # noqa: E402 - the hostile-file targets build on Target above

TARGETS.update((t.name, t) for t in FILE_TARGETS)

__all__ = ["TARGETS", "Refused", "Target", "random", "ast"]
