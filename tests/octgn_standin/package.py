"""Reading a built OCTGN package (a zip whose files live under ``def/``) the way OCTGN uses it.

``Package(path)`` gives the parsed ``definition.xml`` (piles, counters, markers, phases, global
variables, scripts, events, card and group actions, deck sections), the card database of every
``set.xml``, the pre-built decks (``.o8d``) and the Python sources under ``def/``: the scripts listed in
``<scripts>`` and the importable packages (``sys.path`` holds the installed ``def/`` folder).
"""
from __future__ import absolute_import, division, print_function

import sys
import types
import zipfile
import xml.etree.ElementTree as ET

PY2 = sys.version_info[0] == 2


def _bool(text, default=False):
    if text is None:
        return default
    return text.strip().lower() == "true"


class Package(object):
    def __init__(self, path):
        self.path = path
        zf = zipfile.ZipFile(path)
        try:
            self.files = dict((n, zf.read(n)) for n in zf.namelist() if n.startswith("def/"))
        finally:
            zf.close()
        root = ET.fromstring(self.files["def/definition.xml"])
        self.game_id = root.get("id")
        self.name = root.get("name")
        self.script_version = root.get("scriptVersion")
        self.scripts = [s.get("src") for s in root.findall("scripts/script")]
        self.events = [(e.get("name"), e.get("action")) for e in root.findall("events/event")]
        self.phases = [p.get("name") for p in root.findall("phases/phase")]
        self.markers = [(m.get("id"), m.get("name")) for m in root.findall("markers/marker")]
        self.global_variables = [(g.get("name"), g.get("value") or "")
                                 for g in root.findall("globalvariables/globalvariable")]
        player = root.find("player")
        self.player_variables = [(g.get("name"), g.get("value") or "") for g in player.findall("globalvariable")]
        self.counters = [(c.get("name"), int(c.get("default") or 0)) for c in player.findall("counter")]
        self.piles = []
        self.pile_card_actions = {}
        for g in player.findall("group"):
            self.piles.append({"name": g.get("name"), "visibility": g.get("visibility") or "none",
                               "ordered": _bool(g.get("ordered"), True)})
            self.pile_card_actions[g.get("name")] = _actions(g, "cardaction")
        table = root.find("table")
        self.table_card_actions = _actions(table, "cardaction")
        self.table_group_actions = _actions(table, "groupaction")
        self.deck_sections = [(s.get("name"), s.get("group")) for s in root.findall("deck/section")]
        self.cards = {}
        for name, data in sorted(self.files.items()):
            if name.endswith("/set.xml") and name.startswith("def/Sets/"):
                s = ET.fromstring(data)
                for c in s.findall("cards/card"):
                    props = dict((p.get("name"), p.get("value") if p.get("value") is not None else (p.text or ""))
                                 for p in c.findall("property"))
                    self.cards[c.get("id").lower()] = {"name": c.get("name"), "set": s.get("id"),
                                                       "properties": props}
        self.decks = {}
        for name, data in sorted(self.files.items()):
            if name.endswith(".o8d"):
                self.decks[name.rsplit("/", 1)[-1][:-4]] = _deck(data)

    def source(self, path):
        """The bytes of a script (compiled as bytes, so that a coding declaration is honoured)."""
        return self.files["def/" + path]

    def modules(self):
        """Python modules importable from the installed ``def/`` folder: name -> (file, source, is_pkg)."""
        out = {}
        for name, data in self.files.items():
            if not name.endswith(".py"):
                continue
            parts = name[len("def/"):-3].split("/")
            if len(parts) < 2 and parts[0] != "__init__":
                continue  # a loose .py at the def/ root is not part of a package
            if parts[-1] == "__init__":
                mod, is_pkg = parts[:-1], True
            else:
                mod, is_pkg = parts, False
            # a module belongs to a package only if every folder on its way has an __init__.py
            ok = all(("def/" + "/".join(parts[:k + 1]) + "/__init__.py") in self.files
                     for k in range(len(mod) - (0 if is_pkg else 1)))
            if ok and mod:
                out[".".join(mod)] = (name, data, is_pkg)
        return out


def _actions(el, tag):
    out = []
    for a in el.findall(tag):
        out.append({"menu": a.get("menu"), "execute": a.get("execute"), "showIf": a.get("showIf"),
                    "getName": a.get("getName"), "default": _bool(a.get("default")),
                    "batchExecute": a.get("batchExecute")})
    return out


def _deck(data):
    """An .o8d deck: [(section name, card guid, quantity)] in file order."""
    root = ET.fromstring(data)
    out = []
    for sec in root.findall("section"):
        for c in sec.findall("card"):
            out.append((sec.get("name"), c.get("id").lower(), int(c.get("qty") or 1)))
    return out


class ModuleSet(object):
    """A client's own modules: a meta-path finder over the package sources, and the module objects it
    made.  Each OCTGN client is its own process with its own script engine, so :meth:`enter` installs
    this client's modules in ``sys.modules`` for the duration of one of its jobs (and :meth:`leave`
    takes them out again); a "reload scripts" or a reconnect starts from a new ModuleSet."""

    def __init__(self, sources):
        self.sources = sources
        self.tops = set(n.split(".")[0] for n in sources)
        self.prefixes = tuple(self.tops) + tuple(t + "." for t in self.tops)
        self.loaded = {}
        self.saved = None

    # importlib (Python 3)
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.sources:
            return None
        import importlib.util  # novermin (Python 3 only: find_spec is not called on 2.7)
        return importlib.util.spec_from_loader(fullname, self, origin=self.sources[fullname][0],  # novermin
                                               is_package=self.sources[fullname][2])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        fname, src, _ = self.sources[module.__name__]
        module.__file__ = fname
        exec(compile(src, fname, "exec"), module.__dict__)

    # PEP 302 (Python 2)
    def find_module(self, fullname, path=None):
        return self if fullname in self.sources else None

    def load_module(self, fullname):
        if fullname in sys.modules:
            return sys.modules[fullname]
        fname, src, is_pkg = self.sources[fullname]
        mod = types.ModuleType(fullname)
        mod.__file__ = fname
        mod.__loader__ = self
        mod.__package__ = fullname if is_pkg else fullname.rpartition(".")[0]
        if is_pkg:
            mod.__path__ = []
        sys.modules[fullname] = mod
        try:
            exec(compile(src, fname, "exec"), mod.__dict__)
        except BaseException:
            del sys.modules[fullname]
            raise
        return mod

    def _ours(self):
        pre = self.prefixes
        tops = self.tops
        return [k for k in list(sys.modules) if k.startswith(pre) and (k in tops or "." in k and
                                                                      k.split(".", 1)[0] in tops)]

    def enter(self):
        mods = sys.modules
        self.saved = dict((k, mods.pop(k)) for k in self._ours())
        mods.update(self.loaded)
        sys.meta_path.insert(0, self)

    def leave(self):
        sys.meta_path.remove(self)
        mods = sys.modules
        self.loaded = dict((k, mods.pop(k)) for k in self._ours())
        mods.update(self.saved)
        self.saved = None
