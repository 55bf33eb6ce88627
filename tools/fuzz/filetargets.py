"""The fuzzer's targets for hostile files (issue 23): game folders packaged by ``octgn-pack build``,
packages checked by ``octgn-pack validate``, plugin folders converted by ``rulescript import`` and role
books rendered by ``wwrf render``.

Each input runs the command's own entry point in the worker (``octgn_pack.cli._main``,
``main_import``, ``wwrf_adapter.cli._main``: the functions under the console scripts' exit-3 guard, so
that an exception the command would turn into exit 3 reaches the worker as a finding with its
traceback), with its output captured, and then checks:

* no exception, and no exit status but 0, 1 and 2 (3 would be an internal error); no ``Traceback``
  in the output;
* nothing written outside the output folder: every file under the input's scratch folder that was
  not there before the command ran must lie in the output folder (the inputs sit four folders deep, so
  that a ``../`` climb out of them still lands where it is seen);
* ``wwrf render``: the rendered rule files hold exactly the sections and keys the renderer made
  (read back with the rule-file reader): no name or text of the book became a rule.

Time (``--slow``) and memory (``--memory``) are the harness's checks.
"""
from __future__ import annotations

import base64
import contextlib
import io
import os
from pathlib import Path

import yaml

import mutate as M
from targets import DEMO, HOSTILE, ROOT, WEREWOLF, Refused, Target, _write

PLUGIN = ROOT / "tests" / "importer" / "fixtures" / "harbor-lights"
NEST = ("a", "b", "c", "d")  # the input's folder, four levels under the scratch folder


class OutsideWrite(AssertionError):
    """The command wrote a file outside its output folder."""


class InternalError(AssertionError):
    """The command returned 3 or printed a traceback."""


def _snapshot(top: Path) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(top):
        for n in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            out.add(os.path.join(dirpath, n))
    return out


def _check_writes(top: Path, before: set[str], out: Path) -> None:
    new = sorted(_snapshot(top) - before)
    outside = [p for p in new if not (p + os.sep).startswith(str(out) + os.sep)]
    if outside:
        raise OutsideWrite("written outside the output folder: %s" % ", ".join(repr(os.path.relpath(p, top))
                                                                             for p in outside[:5]))


def _run_cli(fn, argv):
    """Run a command's entry point with its output captured; returns (status, output)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            status = fn(argv)
        except SystemExit as exc:  # argparse
            status = exc.code if isinstance(exc.code, int) else 2
    text = buf.getvalue()
    if status not in (0, 1, 2):
        raise InternalError("exit status %r:\n%s" % (status, text[-3000:]))
    if "Traceback (most recent call last)" in text:
        raise InternalError("a traceback in the output:\n%s" % text[-3000:])
    return status, text


def _refused_if(status, what):
    if status != 0:
        raise Refused("%s: exit %d" % (what, status))


def _place(tmp):
    top = Path(tmp)
    base = top.joinpath(*NEST)
    base.mkdir(parents=True, exist_ok=True)
    return top, base


# ---------------------------------------------------------------------------- octgn-pack build
OCTGN_GAME = """profile: cfc
id: 11111111-2222-3333-4444-555555555555
name: "Fuzz Game"
version: "1.2"
octgn:
  authors: Fuzz
  extra_properties:
    Flavor: {type: String}
"""
SCRIPT = "def hello(group, x=0, y=0):\n    notify('{} says hello'.format(me))\n"


def _octgn_game():
    """The hostile fixture's cards of its deck (as the ``game`` target's mini game), with an OCTGN
    section, a card image reference, a script and two decks."""
    files = {}
    cards = yaml.safe_load((HOSTILE / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    deck = yaml.safe_load((HOSTILE / "decks" / "hostile.yaml").read_text(encoding="utf-8"))
    keep = set(deck["cards"])
    cards = [c for c in cards if c["id"] in keep][:12]
    for c in cards[:2]:
        c["octgn"] = {"Flavor": "salty"}
    cards[0]["image"] = "images/first.png"
    counts = {c["id"]: 1 for c in cards}
    files["game.yaml"] = OCTGN_GAME
    files["cards.yaml"] = M.yaml_dump({"cards": cards})
    files["decks/starter.yaml"] = M.yaml_dump({"name": "Starter", "cards": counts})
    files["decks/second.yaml"] = M.yaml_dump({"name": "Second", "cards": dict(list(counts.items())[:3])})
    files["rules/hostile.ini"] = (HOSTILE / "rules" / "hostile.ini").read_text(encoding="utf-8")
    files["scripts/hello.py"] = SCRIPT
    return files


PNG = base64.b64decode(  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
IMAGE_REFS = ["../outside.png", "/etc/hostname.png", "images/../../../outside.png", "images/first.png",
              "images\\first.png", "images/first.PNG", "", ".", "images", "images/missing.png", "\x00.png"]


class OctgnBuildTarget(Target):
    """``octgn-pack build GAME -o OUT --no-py27`` on a hostile game folder: mutated YAML (trees and
    text), hostile deck, script and image file names, mutated scripts, image references that climb."""
    name = "octgn-build"

    def corpus(self):
        self.seeds = [_octgn_game()]

    def generate(self, rng):
        files = dict(self.seeds[0])
        extra = {}
        for _ in range(rng.randint(1, 2)):
            k = rng.random()
            if k < 0.55:
                name = rng.choice(["game.yaml", "cards.yaml", "cards.yaml", "decks/starter.yaml"])
                if rng.random() < 0.5:
                    try:  # (a file an earlier edit of this input made deep or broken is edited as text)
                        files[name] = M.yaml_dump(M.mutate_tree(rng, yaml.safe_load(files[name])))
                    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError):
                        # (not YAML; a scalar its tag cannot hold, "!!int 99 x"; M.TooBigToEdit)
                        files[name] = M.mutate_yaml_text(rng, files[name])
                else:
                    files[name] = M.mutate_yaml_text(rng, files[name])
            elif k < 0.7:  # a deck or script under a hostile file name
                if rng.random() < 0.5:
                    files["decks/%s.yaml" % M.hostile_name(rng, "deck")] = files.pop("decks/second.yaml", "name: x\n")
                else:
                    files["scripts/%s.py" % M.hostile_name(rng, "hello")] = files.pop("scripts/hello.py", SCRIPT)
            elif k < 0.8:
                files["scripts/hello.py"] = M.mutate_python_text(rng, files.get("scripts/hello.py", SCRIPT))
            elif k < 0.9:  # a card image reference anywhere
                try:  # (the file may have been mutated out of shape already)
                    cards = yaml.safe_load(files["cards.yaml"])
                    cards["cards"][rng.randrange(len(cards["cards"]))]["image"] = rng.choice(IMAGE_REFS)
                    files["cards.yaml"] = M.yaml_dump(cards)
                except (yaml.YAMLError, RecursionError, TypeError, KeyError, ValueError, IndexError, AttributeError):
                    pass
            else:  # hostile names and texts in the deck and game names
                files["decks/starter.yaml"] = files["decks/starter.yaml"].replace(
                    "Starter", M.hostile_name(rng, "Starter").replace("\\", "\\\\").replace('"', '\\"'), 1)
                files["game.yaml"] = files["game.yaml"].replace("Fuzz Game", M.hostile_name(rng, "Fuzz").replace(
                    "\\", "\\\\").replace('"', '\\"'), 1)
        extra["image"] = rng.random() < 0.8
        return {"files": files, **extra}

    def setup(self):
        import tempfile

        from octgn_pack.cli import _main
        self.main = _main
        self.corpus()
        with tempfile.TemporaryDirectory(prefix="fuzz-warm-") as tmp:  # imports and caches, once
            self.run({"files": self.seeds[0], "image": True}, tmp)

    def run(self, inp, tmp):
        top, base = _place(tmp)
        game, out = base / "game", base / "dist"
        _write(game, inp["files"])
        if inp.get("image"):
            (game / "images").mkdir(exist_ok=True)
            (game / "images" / "first.png").write_bytes(PNG)
        (top / "outside.png").write_bytes(PNG)
        before = _snapshot(top)
        status, _text = _run_cli(self.main, ["build", str(game), "-o", str(out), "--no-py27", "-q"])
        _check_writes(top, before, out)
        _refused_if(status, "build")
        return {"packages": len(list(out.glob("*.o8g")))}


# ---------------------------------------------------------------------------- octgn-pack validate
class OctgnValidateTarget(Target):
    """``octgn-pack validate PACKAGE --no-py27`` on a mutated package (``mutate_zip``: entries, names,
    headers, sizes, methods, flags, data)."""
    name = "octgn-validate"

    def corpus(self):
        import tempfile

        from octgn_pack.build import build
        with tempfile.TemporaryDirectory(prefix="fuzz-seed-") as tmp:
            game = Path(tmp) / "game"
            _write(game, _octgn_game())
            (game / "images").mkdir()
            (game / "images" / "first.png").write_bytes(PNG)
            b = build(game, Path(tmp) / "dist", check_py27=False)
            if not b.ok:
                raise SystemExit("fuzz: the seed game of octgn-validate does not build:\n" + b.render())
            self.seeds = [b.package]

    def generate(self, rng):
        data = M.mutate_zip(rng, rng.choice(self.seeds))
        return {"files": {"package.o8g.b64": base64.b64encode(data).decode("ascii")}}

    def setup(self):
        import tempfile

        from octgn_pack.cli import _main
        self.main = _main
        self.corpus()
        with tempfile.TemporaryDirectory(prefix="fuzz-warm-") as tmp:
            self.run({"files": {"package.o8g.b64": base64.b64encode(self.seeds[0]).decode("ascii")}}, tmp)

    def run(self, inp, tmp):
        top, base = _place(tmp)
        path = base / "package.o8g"
        path.write_bytes(base64.b64decode(inp["files"]["package.o8g.b64"]))
        before = _snapshot(top)
        status, _text = _run_cli(self.main, ["validate", str(path), "--no-py27"])
        _check_writes(top, before, base / "nothing")
        _refused_if(status, "validate")
        return {}


# ---------------------------------------------------------------------------- rulescript import
def _plugin_files():
    files = {}
    for p in sorted(PLUGIN.rglob("*")):
        if p.is_file():
            files[p.relative_to(PLUGIN).as_posix()] = p.read_text(encoding="utf-8")
    return files


class ImportTarget(Target):
    """``rulescript import PLUGIN -o OUT`` on a mutated plugin folder: the XML of definition.xml, the
    set.xml files and the decks, the scripts as text, hostile deck and set names."""
    name = "import"

    def corpus(self):
        self.seeds = [_plugin_files()]

    def generate(self, rng):
        files = dict(self.seeds[0])
        for _ in range(rng.randint(1, 2)):
            k = rng.random()
            names = sorted(files)
            if k < 0.75:
                name = rng.choice([n for n in names if n.endswith((".xml", ".o8d"))] + ["Sets"] * 2)
                if name == "Sets":
                    name = rng.choice([n for n in names if n.endswith("set.xml")])
                files[name] = M.mutate_xml_text(rng, files[name])
            elif k < 0.9:
                name = rng.choice([n for n in names if n.endswith(".py")])
                files[name] = M.mutate_python_text(rng, files[name])
            else:
                name = rng.choice([n for n in names if n.endswith(".o8d") or n.endswith("set.xml")])
                head, _, tail = name.rpartition("/")
                if tail == "set.xml":  # the set's folder gets the hostile name
                    top, _, folder = head.rpartition("/")
                    new = "%s/%s/set.xml" % (top, M.hostile_name(rng, folder))
                else:
                    new = "%s/%s.o8d" % (head, M.hostile_name(rng, tail[:-4]))
                files[new] = files.pop(name)
        return {"files": files}

    def setup(self):
        import tempfile

        from rulescript.importer import main_import
        self.main = main_import
        self.corpus()
        with tempfile.TemporaryDirectory(prefix="fuzz-warm-") as tmp:
            self.run({"files": self.seeds[0]}, tmp)

    def run(self, inp, tmp):
        top, base = _place(tmp)
        plugin, out = base / "plugin", base / "game"
        _write(plugin, inp["files"])
        before = _snapshot(top)
        status, _text = _run_cli(self.main, [str(plugin), "-o", str(out), "-q"])
        _check_writes(top, before, out)
        _refused_if(status, "import")
        return {}


# ---------------------------------------------------------------------------- wwrf render
BOOK_ROLES = ["werewolf", "seer", "bodyguard", "villager", "wolf blood", "canvasser", "herald", "lovers",
              "lynch", "werewolves", "villagers", "werewolf pack"]
RENDER_GLYPHS = M.NAME_GLYPHS + M.NAME_INJECTIONS


class WwrfRenderTarget(Target):
    """``wwrf render BOOK -o OUT`` on a book of a dozen of the werewolf game's element files whose file
    names, element names and lines are hostile (line breaks of every kind, INI syntax, injections)."""
    name = "wwrf-render"

    def corpus(self):
        roles = WEREWOLF / "roles"
        self.seeds = [{n: (roles / n).read_text(encoding="utf-8") for n in BOOK_ROLES if (roles / n).is_file()}]

    def generate(self, rng):
        files = dict(self.seeds[0])
        for _ in range(rng.randint(1, 3)):
            k = rng.random()
            name = rng.choice(sorted(files))
            if k < 0.35:  # a hostile file name
                files[M.hostile_name(rng, name)] = files.pop(name)
            elif k < 0.55:  # a hostile element name in the header
                text = files[name]
                end = text.find("**", 2)
                if text.startswith("**") and end > 2:
                    files[name] = "**" + M.hostile_name(rng, text[2:end]) + text[end:]
            else:  # hostile text in the lines (WWRF glyphs, line breaks, injections)
                files[name] = M.mutate_text(rng, files[name], RENDER_GLYPHS + ["`", "@", "#", "~", "(", ")"],
                                            ["Starting: ", "Immediate Night: ", "`Calm, Restless`", "@Self"])
        return {"files": {"book/" + n: t for n, t in files.items()}}

    def setup(self):
        from rulescript.compiler.ini import read_rule_file
        from rulescript.diagnostics import DiagnosticBag, render
        from wwrf_adapter.render import render_book
        self.read_rule_file, self.Bag, self.render, self.render_book = read_rule_file, DiagnosticBag, render, \
            render_book
        import tempfile
        self.corpus()
        with tempfile.TemporaryDirectory(prefix="fuzz-warm-") as tmp:
            self.run({"files": {"book/" + n: t for n, t in self.seeds[0].items()}}, tmp)

    def run(self, inp, tmp):
        top, base = _place(tmp)
        out = base / "game"
        _write(base, inp["files"])
        before = _snapshot(top)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            result = self.render_book(base / "book", out)
            for d in result.diagnostics:
                self.render(d, result.sources.get(d.span.file))
        _check_writes(top, before, out)
        if out.exists():
            self._same_rules(result, out)
        if not result.ok:
            raise Refused("render: %d errors" % sum(1 for d in result.diagnostics if d.is_error))
        return {"elements": len(result.elements)}

    def _same_rules(self, result, out):
        """The rule files read back hold exactly the renderer's sections and keys."""
        made = {}
        for r in result.elements:
            for s in r.sections:
                made[s.id.lower()] = [(k.lower(), " ".join(v.split())) for k, v in s.keys]
        read = {}
        for p in sorted((out / "rules").glob("*.ini")):
            bag = self.Bag()
            rf = self.read_rule_file(p.read_text(encoding="utf-8"), p.name, bag)
            for s in rf.sections:
                read[s.rule_id] = [(prop.key, " ".join(prop.value.text.split())) for prop in s.properties]
        if read != made:
            extra = sorted(set(read) ^ set(made)) or [k for k in made if read.get(k) != made[k]]
            raise AssertionError("the rendered rule files do not hold what the renderer made: %r" % extra[:5])


FILE_TARGETS = [OctgnBuildTarget, OctgnValidateTarget, ImportTarget, WwrfRenderTarget]
