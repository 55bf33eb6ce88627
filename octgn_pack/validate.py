"""Checking a package (``.o8g``/``.nupkg``) or a folder against OCTGN's rules (docs/octgn.md, section 3) and
its build tool's (o8build) checks, before OCTGN ever sees it.

A folder may be an unpacked package (holding ``def/``), or a game folder as OCTGN installs it
(``GameDatabase/<guid>/``, holding ``definition.xml``).  Package-level checks (the NuGet manifest,
``[Content_Types].xml``, ``_rels/.rels``, entry names) apply to zips.

Every problem is a diagnostic located in the file that has it (``PACKAGE!/def/...`` inside a zip),
at the element or attribute; when the builder passes ``origins`` (``{path: {line: span}}``), a
problem of a generated element is reported at the ``cards.yaml``/deck entry that produced it, with
the generated place in a note.  Every ``.py`` is compiled by Python 2.7 when one is installed.
"""

from __future__ import annotations

import ast
import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from rulescript.diagnostics import Diagnostic, SourceText, Span, did_you_mean, render
from octgn_pack import ids
from octgn_pack.package import CONTENT_TYPES, MANIFEST_REL, NUSPEC_NS, part_path
from octgn_pack.project import RESERVED_PROPERTIES
from octgn_pack.py27 import compile_py27, find_python27
from octgn_pack.xmlread import Node, XmlDoc, parse

GAME_CHILDREN = ("scripts", "events", "proxygen", "phases", "markers", "globalvariables", "documents", "sounds",
                 "card", "table", "player", "shared", "deck", "sharedDeck", "fonts", "symbols", "gameModes",
                 "gameboards")
REQUIRED_CHILDREN = ("card", "table", "player", "proxygen")
GAME_ATTRS = ("id", "version", "octgnVersion", "setsurl", "gameurl", "authors", "description", "tags", "iconurl",
              "name")
EVENTS = frozenset("""OnTableLoaded OnGameStarted OnPlayerConnected OnPlayerQuit OnDeckLoaded OnTurnPassed
OnPhasePassed OnCardsMoved OnScriptedCardsMoved OnCardTargeted OnCardArrowTargeted OnCardClicked
OnCardDoubleClicked OnMarkerChanged OnCounterChanged OnGlobalVariableChanged OnPlayerGlobalVariableChanged
OverrideCardsMoved OverrideTurnPassed OverridePhaseClicked OnTurnPaused OnCardControllerChanged
OverrideGameReset OverrideGameSoftReset""".split())
BOOL_ATTRS = {"game": ("usetwosidedtable",), "property": ("hidden",), "group": ("ordered",),
              "table": ("ordered",), "cardaction": ("default",), "groupaction": ("default",),
              "section": ("shared",), "counter": ("reset",)}
PILE_VISIBILITY = ("none", "me", "all", "undefined")
VIEW_STATES = ("collapsed", "expanded", "pile")
PROPERTY_TYPES = ("String", "Integer", "Char", "RichText")
TEXT_KINDS = ("Free", "Enum", "Tokens")
RICH_TAGS = frozenset({"b", "i", "u", "c", "s", "t"})
IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://\S+$")
COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
KEYS = {"ctrl", "control", "alt", "shift", "windows", "win"}
_KEY_RE = re.compile(r"^([A-Z]|D?[0-9]|F([1-9]|1[0-9]|2[0-4])|NumPad[0-9]|Space|Enter|Return|Tab|Escape|Esc|"
                     r"Delete|Del|Insert|Ins|Home|End|PageUp|PageDown|Prior|Next|Up|Down|Left|Right|Back|"
                     r"Add|Subtract|Multiply|Divide|Decimal|OemPlus|OemMinus|OemComma|OemPeriod)$", re.IGNORECASE)


def _whole(text: str) -> bool:
    """A whole number the checks read: ASCII digits, at most 9 (``str.isdigit`` takes '²', and Python
    refuses to convert 4,300 digits)."""
    return re.fullmatch(r"[0-9]{1,9}", text) is not None


@dataclass
class Tree:
    """The files of a package or folder: ``{path relative to the package root: bytes}``.

    Only the files the checks read (XML, decks, the manifest and relationships, Python) keep their
    bytes; any other file (images, fonts, sounds) maps to ``b""``: its name is what the checks use."""

    label: str                     # what diagnostics name: the zip or folder path
    files: dict[str, bytes]
    is_zip: bool
    prefix: str = "def/"           # where the game definition lives in ``files``
    raw_names: list[str] = field(default_factory=list)   # zip entry names as written
    problems: list[Diagnostic] = field(default_factory=list)  # entries that cannot be read or used

    def display(self, path: str) -> str:
        return f"{self.label}!/{path}" if self.is_zip else str(Path(self.label) / path)


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceText] = field(default_factory=dict)
    py27: str = ""                 # what the Python 2.7 check did (or why it was skipped)
    files: int = 0

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors

    def render(self) -> str:
        return "\n\n".join(render(d, self.sources.get(d.span.file)) for d in self.diagnostics)


class LoadError(Exception):
    """The path is not a package or a folder that can be checked (a usage or I/O error)."""


# What reading a package may cost, whatever its headers claim (docs/octgn.md, "Hostile packages"):
READ_SUFFIXES = (".xml", ".o8d", ".nuspec", ".rels", ".py")  # the files whose bytes the checks read
MAX_READ_ENTRY = 16 * 1024 * 1024      # bytes of one such file, inflated
MAX_READ_TOTAL = 64 * 1024 * 1024      # bytes of all of them
MAX_INFLATED = 512 * 1024 * 1024       # bytes inflated in all (other entries are streamed and dropped)
MAX_RATIO = 200                        # inflated / compressed bytes of an entry, past RATIO_FROM bytes
RATIO_FROM = 1024 * 1024
MAX_DIRECTORY = 8 * 1024 * 1024        # bytes of the zip's central directory (about 100,000 entries)
CHUNK = 256 * 1024
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}  # what OCTGN's reader reads
_DRIVE = re.compile(r"^[A-Za-z]:")
_S_IFMT, _S_IFLNK = 0o170000, 0o120000


def _keeps(name: str) -> bool:
    return name.lower().endswith(READ_SUFFIXES)


def load_tree(path: str | Path) -> Tree:
    p = Path(path)
    if p.is_dir():
        return _tree_from_folder(p)
    if not p.is_file():
        raise LoadError(f"no such file or folder: {path}")
    return tree_from_zip(p, str(p))


def _tree_from_folder(p: Path) -> Tree:
    files: dict[str, bytes] = {}
    problems: list[Diagnostic] = []
    total = 0
    for f in sorted(p.rglob("*")):
        if f.is_file() and "__pycache__" not in f.parts:
            rel = f.relative_to(p).as_posix()
            data = b""
            if _keeps(rel):
                size = f.stat().st_size
                if size > MAX_READ_ENTRY or total + size > MAX_READ_TOTAL:
                    problems.append(Diagnostic("error", "OP315", f"the file is too large to check ({size:,} bytes; "
                                               f"at most {MAX_READ_ENTRY:,} a file, {MAX_READ_TOTAL:,} in all)",
                                               Span(str(f), 1, 1)))
                else:
                    data = f.read_bytes()[:MAX_READ_ENTRY]
                    total += len(data)
            files[rel] = data
    if "definition.xml" in files and not any(k.startswith("def/") for k in files):
        return Tree(str(p), files, False, prefix="", problems=problems)
    return Tree(str(p), files, False, problems=problems)


def _shown(name: str) -> str:
    """An entry name as diagnostics print it: control characters (a line break) escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in name)


def _name_problem(raw: str) -> str | None:
    """Why an entry name would be written outside the folder it is unpacked into (None: it would not)."""
    for name in dict.fromkeys((raw, part_path(raw))):  # as written, and percent-decoded as OCTGN reads it
        if "\\" in name:
            return "holds a backslash (a Windows path separator)"
        if name.startswith("/"):
            return "is an absolute path"
        if _DRIVE.match(name):
            return "starts with a drive letter"
        segments = name.split("/")
        if ".." in segments:
            return "has a '..' segment (it would be unpacked outside the package's folder)"
        if "\0" in name:
            return "holds a NUL character"
    return None


class _Budget:
    def __init__(self) -> None:
        self.inflated = 0
        self.kept = 0


def _read_entry(z: zipfile.ZipFile, info: zipfile.ZipInfo, keep: bool, budget: _Budget) -> tuple[bytes, str | None]:
    """The bytes of an entry (``b""`` when not kept) or why it cannot be read.  Streamed in chunks: at
    most ``MAX_READ_ENTRY`` bytes are held, whatever the headers claim."""
    if info.flag_bits & 0x1:
        return b"", "is encrypted (OCTGN cannot read a password-protected entry)"
    if info.compress_type not in ZIP_METHODS:
        return b"", (f"uses compression method {info.compress_type}: OCTGN reads only stored (0) and "
                     "deflated (8) entries")
    limit = MAX_READ_ENTRY if keep else MAX_INFLATED
    chunks: list[bytes] = []
    size = 0
    try:
        with z.open(info) as fh:
            while True:
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                budget.inflated += len(chunk)
                if size > limit:
                    return b"", f"inflates to more than {limit:,} bytes"
                if size > RATIO_FROM and size > MAX_RATIO * max(info.compress_size, 1):
                    return b"", (f"inflates to more than {MAX_RATIO} times its compressed size "
                                 f"({info.compress_size:,} bytes): a zip bomb?")
                if budget.inflated > MAX_INFLATED:
                    return b"", f"the package inflates to more than {MAX_INFLATED:,} bytes in all"
                if keep:
                    budget.kept += len(chunk)
                    if budget.kept > MAX_READ_TOTAL:
                        return b"", f"the package's XML and scripts inflate to more than {MAX_READ_TOTAL:,} bytes"
                    chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError,
            struct.error) as exc:
        return b"", f"cannot be read: {_shown(str(exc)) or type(exc).__name__} (a corrupt package?)"
    return b"".join(chunks), None


def _open_zip(source: bytes | Path, label: str) -> zipfile.ZipFile:
    fh = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")
    try:
        end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]  # the end record: the directory's size
        if end is not None and end[zipfile._ECD_SIZE] > MAX_DIRECTORY:  # type: ignore[attr-defined]
            raise LoadError(f"{label}: the zip's directory is {end[zipfile._ECD_SIZE]:,} bytes "  # type: ignore[attr-defined]
                            f"(at most {MAX_DIRECTORY:,}: about 100,000 entries)")
        return zipfile.ZipFile(fh)
    except LoadError:
        fh.close()
        raise
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, struct.error, UnicodeDecodeError, NotImplementedError,
            RuntimeError) as exc:
        fh.close()
        raise LoadError(f"{label} is not a zip (a .o8g/.nupkg package is one): {_shown(str(exc))}") from exc


def tree_from_zip(source: bytes | Path, label: str) -> Tree:
    """The entries of a package (its bytes or its path).  An entry that cannot be read safely (encrypted,
    an unknown compression method, corrupt data, a zip bomb) or whose name leads out of the folder it
    is unpacked into (or is a link) is a located OP31x problem of the tree; LoadError when the file is
    not a zip at all."""
    problems: list[Diagnostic] = []
    budget = _Budget()

    def problem(code: str, raw: str, message: str) -> None:
        problems.append(Diagnostic("error", code, f"the entry '{_shown(raw)}' {message}", Span(f"{label}!/{_shown(raw)}", 1, 1)))

    with _open_zip(source, label) as z:
        infos = z.infolist()
        names = [i.filename for i in infos if not i.filename.endswith("/")]
        files = {}
        for info in infos:
            raw = info.filename
            why = _name_problem(raw)
            if why is not None:
                problem("OP312", raw, why)
                continue
            if (info.external_attr >> 16) & _S_IFMT == _S_IFLNK:
                problem("OP313", raw, "is a symbolic link (an unpacked link can point anywhere)")
                continue
            if raw.endswith("/"):
                continue
            name = raw if raw == "[Content_Types].xml" else part_path(raw)
            keep = _keeps(name)
            data, why = _read_entry(z, info, keep, budget)
            if why is not None:
                problem("OP314", raw, why)
                if budget.inflated > MAX_INFLATED:
                    break
                continue
            files[name] = data
    return Tree(label, files, True, raw_names=names, problems=problems)


class Validator:
    def __init__(self, tree: Tree, origins: dict[str, dict[int, Span]] | None = None,
                 check_py27: bool = True, copied: dict[str, str] | None = None) -> None:
        self.t = tree
        self.copied = copied or {}
        self.r = Report(files=len(tree.files))
        self.origins = origins or {}
        self.check_py27 = check_py27
        self.game_guid: str | None = None
        self.version: str | None = None
        self.name: str | None = None
        self.properties: set[str] = set()
        self.piles: list[str] = []
        self.shared_piles: list[str] = []
        self.sections: list[str] = []
        self.card_guids: dict[str, tuple[str, Node]] = {}   # guid -> (set folder, node)
        self.card_names: set[str] = set()
        self.shared_scripts: list[str] = []

    # ---------------------------------------------------------------------------- reporting
    def err(self, code: str, msg: str, span: Span, notes: Iterable[str] = (), severity: str = "error") -> None:
        notes = tuple(notes)
        rel = self._rel.get(span.file)
        table = self.origins.get(rel) if rel is not None else None
        if table and span.line in table:
            notes = notes + (f"in the generated {span.file}:{span.line}:{span.col}",)
            span = table[span.line]
        elif rel in self.copied:
            notes = notes + (f"shipped as {span.file}",)
            span = span.with_file(self.copied[rel])
        self.r.diagnostics.append(Diagnostic(severity, code, msg, span, notes))  # type: ignore[arg-type]

    def warn(self, code: str, msg: str, span: Span, notes: Iterable[str] = ()) -> None:
        self.err(code, msg, span, notes, "warning")

    def whole(self, path: str) -> Span:
        return Span(self.t.display(path), 1, 1)

    _rel: dict[str, str]

    def xml(self, path: str) -> Node | None:
        shown = self.t.display(path)
        self._rel[shown] = path
        doc, diag = parse(self.t.files[path], shown)
        self.r.sources[shown] = SourceText(shown, doc.text)
        if diag is not None:
            self.err(diag.code, diag.message, diag.span)
            return None
        return doc.root

    def exists(self, rel: str) -> bool:
        return (self.t.prefix + rel.replace("\\", "/")) in self.t.files

    def need_file(self, node: Node, attr: str, what: str, required: bool = True) -> None:
        value = node.attrs.get(attr)
        if value is None or not value.strip():
            if required:
                self.err("OP210", f"<{node.tag}> needs a '{attr}' ({what})", node.span())
            return
        if not self.exists(value):
            self.err("OP211", f"{what} '{value}' is not in the package", node.attr_span(attr))

    def need_attr(self, node: Node, attr: str) -> str | None:
        v = node.attrs.get(attr)
        if v is None or not v.strip():
            self.err("OP210", f"<{node.tag}> needs a non-empty '{attr}'", node.span())
            return None
        return v

    def bools(self, node: Node) -> None:
        for attr in BOOL_ATTRS.get(node.tag, ()):
            v = node.attrs.get(attr)
            if v is not None and v not in ("True", "False"):
                self.err("OP212", f"'{attr}' must be True or False (with a capital letter), not '{v}'",
                         node.attr_span(attr))
        for c in node.children:
            self.bools(c)

    # ---------------------------------------------------------------------------- the run
    def run(self) -> Report:
        self._rel = {}
        self.r.diagnostics.extend(self.t.problems)
        if self.t.is_zip:
            self.package()
        self.layout()
        if self.t.prefix + "definition.xml" in self.t.files:
            self.definition()
            self.sets()
            self.decks()
        self.scripts()
        return self.r

    # ---------------------------------------------------------------------------- §1: package
    def package(self) -> None:
        t = self.t
        seen: dict[str, str] = {}
        for raw in t.raw_names:
            if raw == "[Content_Types].xml":
                continue
            low = part_path(raw).casefold()
            where = Span(t.display(_shown(raw)), 1, 1)
            if low in seen:
                what = "have the same name" if part_path(seen[low]) == part_path(raw) else "differ only in case"
                self.err("OP300", f"two entries {what}: '{_shown(seen[low])}' and '{_shown(raw)}' (unpacked on "
                         "Windows, one overwrites the other)", where)
            seen[low] = raw
            if re.search(r"[^A-Za-z0-9/\-._~%!$&'()*+,;=:@]", raw):
                self.err("OP301", f"the entry name '{_shown(raw)}' is not a part URI (percent-encode it; a space is %20)",
                         where)
        ct = "[Content_Types].xml"
        if ct not in t.files:
            self.err("OP302", "the package has no [Content_Types].xml (an OPC package needs one)", Span(t.label, 1, 1))
        else:
            root = self.xml(ct)
            if root is not None:
                exts = {n.attrs.get("Extension", "").lower() for n in root.all("Default")}
                over = {n.attrs.get("PartName", "") for n in root.all("Override")}
                for name in t.files:
                    if name == ct:
                        continue
                    ext = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
                    if ext not in exts and "/" + name not in over:
                        self.err("OP303", f"no content type for '{name}' (add a Default for '{ext}')", root.span())
                        break
        rels = "_rels/.rels"
        nuspec = None
        if rels not in t.files:
            self.err("OP304", "the package has no _rels/.rels: OCTGN fails with \"Package does not contain a manifest\"",
                     Span(t.label, 1, 1))
        else:
            root = self.xml(rels)
            if root is not None:
                for rel in root.all("Relationship"):
                    if rel.attrs.get("Type") == MANIFEST_REL:
                        nuspec = part_path(rel.attrs.get("Target", "").lstrip("/"))
                        if nuspec not in t.files:
                            self.err("OP305", f"the manifest relationship points at '{nuspec}', which is not in the "
                                     "package", rel.attr_span("Target"))
                            nuspec = None
                        break
                else:
                    self.err("OP305", f"_rels/.rels has no relationship of type {MANIFEST_REL}: OCTGN fails with "
                             "\"Package does not contain a manifest\"", root.span())
        roots = [n for n in t.files if "/" not in n and n.endswith(".nuspec")]
        if nuspec is None and roots:
            nuspec = roots[0]
        if nuspec is not None:
            self._nuspec = nuspec
        if not any(n.startswith("def/") for n in t.files):
            self.err("OP306", "the package has no def/ folder: OCTGN would install nothing", Span(t.label, 1, 1))

    def nuspec(self, path: str) -> None:
        root = self.xml(path)
        if root is None:
            return
        if root.tag != "package" or root.attrs.get("xmlns") != NUSPEC_NS:
            self.err("OP307", f"the manifest must be <package xmlns=\"{NUSPEC_NS}\">", root.span())
        md = root.find("metadata")
        if md is None:
            self.err("OP307", "the manifest has no <metadata>", root.span())
            return
        values = {c.tag: (c.text.strip(), c) for c in md.children}
        for key in ("id", "version", "authors", "description"):
            if not values.get(key, ("", None))[0]:
                self.err("OP308", f"the manifest needs <{key}>", md.span())
        if "id" in values and self.game_guid and values["id"][0] != self.game_guid:
            self.err("OP309", f"the manifest id '{values['id'][0]}' is not the game id '{self.game_guid}' (OCTGN "
                     "installs into GameDatabase/<package id>)", values["id"][1].span())
        if "version" in values and self.version and values["version"][0] != self.version:
            self.err("OP309", f"the manifest version '{values['version'][0]}' is not the game version "
                     f"'{self.version}'", values["version"][1].span())
        if "title" in values and self.name and values["title"][0] != self.name:
            self.err("OP309", "the manifest title is not the game name", values["title"][1].span())
        for key in ("projectUrl", "iconUrl"):
            if key in values and not URL_RE.match(values[key][0]):
                self.err("OP310", f"<{key}> must be an absolute URI", values[key][1].span())

    def layout(self) -> None:
        pre = self.t.prefix
        if pre + "definition.xml" not in self.t.files:
            where = "def/" if pre else "this folder"
            hint = (("this is a game folder: build it with 'octgn-pack build' and validate the package",)
                    if "game.yaml" in self.t.files and not self.t.is_zip else ())
            self.err("OP220", f"no definition.xml in {where}", Span(self.t.label, 1, 1), hint)
        root_files = sorted(n[len(pre):] for n in self.t.files if n.startswith(pre) and "/" not in n[len(pre):])
        extra = [n for n in root_files if n != "definition.xml"]
        if extra:
            self.err("OP221", f"definition.xml must be the only file at the root of {pre or 'the game folder'} "
                     f"(found also {', '.join(extra[:5])})", self.whole(pre + extra[0]))
        if any(n.startswith(pre + "_rels/") for n in self.t.files) and pre:
            self.err("OP222", "def/ must not hold a _rels folder", Span(self.t.label, 1, 1))

    # ---------------------------------------------------------------------------- §2: definition.xml
    def definition(self) -> None:
        path = self.t.prefix + "definition.xml"
        g = self.xml(path)
        if g is None:
            return
        if g.tag != "game":
            self.err("OP223", f"the root element is <{g.tag}>, expected <game>", g.span())
            return
        if "xmlns" in g.attrs:
            self.err("OP224", "definition.xml has no XML namespace", g.attr_span("xmlns"))
        for a in GAME_ATTRS:
            self.need_attr(g, a)
        gid = g.attrs.get("id", "")
        if gid and not ids.is_guid(gid):
            self.err("OP225", f"the game id '{gid}' must be a GUID written lower case, hyphenated, without braces",
                     g.attr_span("id"))
        self.game_guid = gid or None
        self.name = g.attrs.get("name")
        for a in ("version", "octgnVersion"):
            v = g.attrs.get(a)
            if v and not ids.is_four_part(v):
                self.err("OP226", f"'{a}' must have exactly four numeric parts (1.0.0.0), not '{v}'", g.attr_span(a))
        self.version = g.attrs.get("version")
        sv = g.attrs.get("scriptVersion")
        if sv != "3.1.0.2":
            self.err("OP227", "scriptVersion must be 3.1.0.2: events fire only with that version",
                     g.attr_span("scriptVersion") if sv else g.span())
        for a in ("gameurl", "iconurl", "setsurl"):
            v = g.attrs.get(a)
            if v and not URL_RE.match(v):
                self.warn("OP228", f"'{a}' should be an absolute URL (the package manifest needs one)", g.attr_span(a))
        self.bools(g)
        seen: dict[str, Node] = {}
        for c in g.children:
            if c.tag not in GAME_CHILDREN:
                self.err("OP229", f"unknown element <{c.tag}> in <game>", c.span(), did_you_mean(c.tag, GAME_CHILDREN))
            elif c.tag in seen:
                self.err("OP229", f"<{c.tag}> appears twice in <game>", c.span())
            seen[c.tag] = c
        for tag in REQUIRED_CHILDREN:
            if tag not in seen:
                self.err("OP230", f"<game> needs a <{tag}>", g.span())
        if "scripts" in seen:
            for s in seen["scripts"].all("script"):
                self.need_file(s, "src", "script")
                if s.attrs.get("src"):
                    self.shared_scripts.append(s.attrs["src"])
        if "events" in seen:
            for e in seen["events"].all("event"):
                name, action = e.attrs.get("name", ""), e.attrs.get("action", "")
                if name not in EVENTS:
                    self.err("OP231", f"unknown event '{name}'", e.attr_span("name"), did_you_mean(name, EVENTS))
                if not IDENT_RE.match(action):
                    self.err("OP232", f"the action of an event must be a function name, not '{action}'",
                             e.attr_span("action"))
        if "proxygen" in seen:
            self.need_file(seen["proxygen"], "definitionsrc", "proxy definition")
            src = seen["proxygen"].attrs.get("definitionsrc")
            if src and self.exists(src):
                self.proxydef(self.t.prefix + src)
        self._named(seen.get("phases"), "phase", "icon", "phase icon")
        self._named(seen.get("documents"), "document", "src", "document")
        for d in (seen["documents"].all("document") if "documents" in seen else []):
            self.need_file(d, "icon", "document icon", required=False)
        self._named(seen.get("sounds"), "sound", "src", "sound")
        if "markers" in seen:
            names: set[str] = set()
            for m in seen["markers"].all("marker"):
                mid = self.need_attr(m, "id")
                if mid and mid.lower() in ids.BUILTIN_MARKER_IDS:
                    self.err("OP233", f"'{mid}' is one of OCTGN's built-in marker ids", m.attr_span("id"))
                self._unique(m, "name", names, "marker")
                self.need_file(m, "src", "marker image")
        if "globalvariables" in seen:
            gv: set[str] = set()
            for v in seen["globalvariables"].all("globalvariable"):
                self._unique(v, "name", gv, "global variable")
        if "card" in seen:
            self.card(seen["card"])
        if "table" in seen:
            t = seen["table"]
            for a in ("width", "height"):
                v = t.attrs.get(a, "")
                if not _whole(v) or int(v) <= 0:
                    self.err("OP234", f"the table '{a}' must be a whole number above 0", t.attr_span(a))
            self.need_file(t, "background", "table background")
            self.actions(t)
        if "player" in seen:
            self.piles = self.player(seen["player"])
        if "shared" in seen:
            self.shared_piles = self.player(seen["shared"])
        for tag, piles in (("deck", self.piles), ("sharedDeck", self.shared_piles)):
            if tag in seen:
                secs = seen[tag].all("section")
                if not secs:
                    self.err("OP235", f"<{tag}> needs at least one <section>", seen[tag].span())
                for s in secs:
                    grp = s.attrs.get("group", "")
                    if grp.lower() not in (p.lower() for p in piles):
                        self.err("OP236", f"deck section '{s.attrs.get('name', '')}' loads into '{grp}', which is not "
                                 f"a {'player' if tag == 'deck' else 'shared'} pile", s.attr_span("group"),
                                 did_you_mean(grp, piles))
                    if tag == "deck":
                        self.sections.append(s.attrs.get("name", ""))
        if getattr(self, "_nuspec", None):
            self.nuspec(self._nuspec)

    def _named(self, parent: Node | None, tag: str, attr: str, what: str) -> None:
        if parent is None:
            return
        names: set[str] = set()
        for n in parent.all(tag):
            self._unique(n, "name", names, what)
            self.need_file(n, attr, what)

    def _unique(self, node: Node, attr: str, seen: set[str], what: str) -> None:
        v = self.need_attr(node, attr)
        if v is None:
            return
        if v.lower() in seen:
            self.err("OP237", f"two {what}s are called '{v}'", node.attr_span(attr))
        seen.add(v.lower())

    def card(self, c: Node) -> None:
        for a in ("width", "height"):
            v = c.attrs.get(a, "")
            if not _whole(v) or int(v) <= 0:
                self.err("OP238", f"<card> needs a whole-number '{a}' above 0 (OCTGN crashes without it)",
                         c.attr_span(a) if a in c.attrs else c.span())
        self.need_file(c, "back", "card back")
        self.need_file(c, "front", "card front")
        for size in c.all("size"):
            self.need_file(size, "back", "card back")
            self.need_file(size, "front", "card front")
        seen: set[str] = set()
        for p in c.all("property"):
            name = self.need_attr(p, "name")
            if name is None:
                continue
            if name.lower() in RESERVED_PROPERTIES:
                self.err("OP239", f"'{name}' is a reserved property name "
                         f"({', '.join(sorted(RESERVED_PROPERTIES))}, in any case)", p.attr_span("name"))
            elif name.lower() in seen:
                self.err("OP240", f"the property '{name}' is declared twice (OCTGN crashes on a duplicate)",
                         p.attr_span("name"))
            seen.add(name.lower())
            self.properties.add(name)
            t = p.attrs.get("type")
            if t not in PROPERTY_TYPES:
                self.err("OP241", f"a property needs a type: {', '.join(PROPERTY_TYPES)}",
                         p.attr_span("type") if t is not None else p.span())
            k = p.attrs.get("textKind")
            if k is not None and k not in TEXT_KINDS:
                self.err("OP241", f"textKind must be one of {', '.join(TEXT_KINDS)}", p.attr_span("textKind"))

    def actions(self, parent: Node) -> None:
        for a in parent.all("cardaction") + parent.all("groupaction") + [
                x for m in parent.all("cardactions") + parent.all("groupactions") for x in m.children]:
            if a.tag not in ("cardaction", "groupaction"):
                self.actions(a)
                continue
            if not a.attrs.get("menu"):
                self.err("OP242", f"<{a.tag}> needs a 'menu' label", a.span())
            if not (a.attrs.get("execute") or a.attrs.get("batchExecute")):
                self.err("OP242", f"<{a.tag}> needs 'execute' or 'batchExecute'", a.span())
            for attr in ("execute", "batchExecute", "showIf", "getName"):
                v = a.attrs.get(attr)
                if v is not None and not IDENT_RE.match(v):
                    self.err("OP243", f"'{attr}' must be a function name, not '{v}'", a.attr_span(attr))
            self.shortcut(a)

    def shortcut(self, node: Node) -> None:
        v = node.attrs.get("shortcut")
        if v is None:
            return
        parts = [x.strip() for x in v.split("+")]
        if not parts or not _KEY_RE.match(parts[-1]) or any(x.lower() not in KEYS for x in parts[:-1]):
            self.err("OP244", f"'{v}' is not a key gesture (like Ctrl+Shift+A)", node.attr_span("shortcut"))

    def player(self, pl: Node) -> list[str]:
        names: list[str] = []
        seen: set[str] = set()
        for c in pl.all("counter"):
            self._unique(c, "name", seen, "counter")
            self.need_file(c, "icon", "counter icon")
            v = c.attrs.get("default")
            if v is not None and not re.fullmatch(r"-?\d+", v):
                self.err("OP245", "a counter's default must be a whole number", c.attr_span("default"))
        for grp in pl.all("group"):
            name = self.need_attr(grp, "name")
            self._unique(grp, "name", seen, "pile")
            if name:
                names.append(name)
                if "'" in name:
                    self.warn("OP246", "a pile name with ' breaks remoteCall in OCTGN", grp.attr_span("name"))
            self.need_file(grp, "icon", "pile icon")
            vis = grp.attrs.get("visibility")
            if vis is not None and vis not in PILE_VISIBILITY:
                self.err("OP247", f"visibility must be one of {', '.join(PILE_VISIBILITY)}", grp.attr_span("visibility"))
            vs = grp.attrs.get("viewState")
            if vs is not None and vs not in VIEW_STATES:
                self.err("OP247", f"viewState must be one of {', '.join(VIEW_STATES)}", grp.attr_span("viewState"))
            ps = grp.attrs.get("protectionState")
            if ps is not None and ps not in ("false", "true", "ask"):
                self.err("OP247", "protectionState must be false, true or ask", grp.attr_span("protectionState"))
            self.shortcut(grp)
            self.actions(grp)
        return names

    def proxydef(self, path: str) -> None:
        root = self.xml(path)
        if root is None:
            return
        if root.tag != "templates":
            self.err("OP248", f"the proxy definition's root is <{root.tag}>, expected <templates>", root.span())
            return
        temps = root.all("template")
        if not temps:
            self.err("OP248", "the proxy definition has no <template>", root.span())
        if temps and sum(1 for t in temps if t.attrs.get("default") == "True") != 1:
            self.err("OP248", "exactly one proxy template must be default=\"True\"", root.span())
        blocks = {b.attrs.get("id") for bl in root.all("blocks") for b in bl.all("block")}
        for t in temps:
            self.need_file(t, "src", "proxy template image")
            self.bools(t)
            for tb in t.all("textblocks") + t.all("overlayblocks"):
                for link in tb.all("link"):
                    if link.attrs.get("block") not in blocks:
                        self.err("OP248", f"the proxy template links the unknown block '{link.attrs.get('block')}'",
                                 link.attr_span("block"))
        for bl in root.all("blocks"):
            for b in bl.all("block"):
                if b.attrs.get("src"):
                    self.need_file(b, "src", "proxy block image")

    # ---------------------------------------------------------------------------- §3: sets and decks
    def sets(self) -> None:
        pre = self.t.prefix + "Sets/"
        folders = sorted({n[len(pre):].split("/", 1)[0] for n in self.t.files if n.startswith(pre)})
        for folder in folders:
            base = pre + folder + "/"
            if "set.xml" not in (n[len(base):] for n in self.t.files if n.startswith(base)):
                self.err("OP250", f"the set folder '{folder}' has no set.xml", self.whole(base))
                continue
            self.set_xml(folder, base)
        for folder in folders:
            base = pre + folder + "/"
            for n in sorted(x for x in self.t.files if x.startswith(base)):
                rest = n[len(base):]
                top = rest.split("/", 1)[0]
                if rest == "set.xml":
                    continue
                if top not in ("Cards", "Markers", "Decks") or "/" not in rest:
                    self.err("OP251", f"a set folder holds set.xml, Cards/, Markers/ and Decks/ only, not '{rest}'",
                             self.whole(n))
                elif top == "Cards" and not rest.startswith("Cards/Crops/"):
                    fname = rest.split("/", 1)[1]
                    gid = fname.split(".", 1)[0]
                    if "/" in fname or not ids.is_guid(gid):
                        self.err("OP252", f"Cards/ holds only <card guid>.<ext> images, not '{fname}'", self.whole(n))
                    elif gid not in self.card_guids or self.card_guids[gid][0] != folder:
                        self.err("OP253", f"the image '{fname}' belongs to no card of this set", self.whole(n))

    def set_xml(self, folder: str, base: str) -> None:
        root = self.xml(base + "set.xml")
        if root is None:
            return
        if root.tag != "set":
            self.err("OP254", f"the root element is <{root.tag}>, expected <set>", root.span())
            return
        sid = root.attrs.get("id", "")
        if not ids.is_guid(sid):
            self.err("OP255", "a set id must be a GUID written lower case, hyphenated, without braces",
                     root.attr_span("id"))
        elif sid != folder:
            self.err("OP255", f"the set folder is named '{folder}' but the set id is '{sid}'", root.attr_span("id"))
        if not root.attrs.get("name"):
            self.err("OP210", "<set> needs a 'name'", root.span())
        gid = root.attrs.get("gameId")
        if self.game_guid and gid != self.game_guid:
            self.err("OP256", f"gameId '{gid}' is not the game's id '{self.game_guid}'",
                     root.attr_span("gameId") if gid else root.span())
        v = root.attrs.get("version")
        if not ids.is_four_part(v):
            self.err("OP226", f"the set version must have exactly four numeric parts, not '{v}'",
                     root.attr_span("version") if v else root.span())
        order = [c.tag for c in root.children]
        expected = [t for t in ("packaging", "markers", "cards") if t in order]
        if order != expected:
            self.err("OP257", "<set> holds <packaging>, <markers>, <cards>, in this order and once each", root.span())
        cards = root.find("cards")
        for c in (cards.children if cards is not None else []):
            if c.tag != "card":
                self.err("OP257", f"<cards> holds <card> elements only, not <{c.tag}>", c.span())
                continue
            cid = c.attrs.get("id", "")
            if not ids.is_guid(cid):
                self.err("OP258", "a card id must be a GUID written lower case, hyphenated, without braces",
                         c.attr_span("id") if cid else c.span())
            elif cid in self.card_guids:
                self.err("OP259", f"the card id '{cid}' is used twice", c.attr_span("id"),
                         (f"also in {self.t.display(self.t.prefix + 'Sets/' + self.card_guids[cid][0] + '/set.xml')}"
                          f":{self.card_guids[cid][1].line}",))
            else:
                self.card_guids[cid] = (folder, c)
            if not c.attrs.get("name", "").strip():
                self.err("OP210", "a card needs a 'name'", c.span())
            self.card_names.add(c.attrs.get("name", "").lower())
            self.card_props(c, alternate=False)

    def card_props(self, c: Node, alternate: bool) -> None:
        seen_alt = False
        for p in c.children:
            if p.tag == "alternate":
                seen_alt = True
                if alternate:
                    self.err("OP260", "an <alternate> cannot hold another", p.span())
                if not p.attrs.get("type"):
                    self.err("OP210", "an <alternate> needs a 'type' (the value card.alternate takes)", p.span())
                self.card_props(p, alternate=True)
                continue
            if p.tag != "property":
                self.err("OP260", f"a card holds <property> and <alternate> elements, not <{p.tag}>", p.span())
                continue
            if seen_alt:
                self.err("OP260", "every <property> comes before the first <alternate>", p.span())
            name = p.attrs.get("name", "")
            if name not in self.properties:
                self.err("OP261", f"undeclared property '{name}': definition.xml declares no such card property "
                         "(names are case-sensitive)", p.attr_span("name"), did_you_mean(name, self.properties))
            has_text = bool(p.text.strip()) or bool(p.children)
            if "value" in p.attrs and has_text:
                self.err("OP262", "a property has either a 'value' or text content, never both", p.span())
            for rich in p.children:
                self._rich(rich)

    def _rich(self, node: Node) -> None:
        if node.tag not in RICH_TAGS:
            self.err("OP263", f"<{node.tag}> is not allowed in rich text (b, i, u, c, s, t)", node.span())
        if node.tag in ("c", "s") and "value" not in node.attrs:
            self.err("OP263", f"<{node.tag}> in rich text needs a 'value'", node.span())
        if node.tag == "c" and "value" in node.attrs and not COLOR_RE.match(node.attrs["value"]):
            self.err("OP264", "a colour is written #RRGGBB", node.attr_span("value"))
        for c in node.children:
            self._rich(c)

    def decks(self) -> None:
        pre = self.t.prefix
        for n in sorted(self.t.files):
            if not (n.startswith(pre) and n.lower().endswith(".o8d")):
                continue
            root = self.xml(n)
            if root is None:
                continue
            if root.tag != "deck":
                self.err("OP270", f"the root element is <{root.tag}>, expected <deck>", root.span())
                continue
            if self.game_guid and root.attrs.get("game") != self.game_guid:
                self.err("OP271", f"the deck is for game '{root.attrs.get('game')}', not '{self.game_guid}'",
                         root.attr_span("game") if "game" in root.attrs else root.span())
            for sec in root.all("section"):
                sname = sec.attrs.get("name", "")
                shared = sec.attrs.get("shared", "False")
                if shared not in ("True", "False"):
                    self.err("OP212", "'shared' must be True or False", sec.attr_span("shared"))
                if shared == "False" and sname.lower() not in (s.lower() for s in self.sections):
                    self.err("OP272", f"no deck section '{sname}' in definition.xml (OCTGN drops its cards)",
                             sec.attr_span("name"), did_you_mean(sname, self.sections))
                for c in sec.all("card"):
                    q = c.attrs.get("qty", "")
                    if not _whole(q) or int(q) < 1:
                        self.err("OP273", "'qty' must be a whole number above 0", c.attr_span("qty") if q else c.span())
                    cid = c.attrs.get("id", "")
                    if cid not in self.card_guids and c.text.strip().lower() not in self.card_names:
                        self.err("OP274", f"the deck names a card that no set holds: '{c.text.strip() or cid}'",
                                 c.attr_span("id") if cid else c.span())

    # ---------------------------------------------------------------------------- scripts
    def scripts(self) -> None:
        pys = {n: b for n, b in self.t.files.items() if n.startswith(self.t.prefix) and n.endswith(".py")}
        for n in self.shared_scripts:
            path = self.t.prefix + n
            if path in pys:
                self._shared_script(path, pys[path])
        if not self.check_py27:
            self.r.py27 = "Python 2.7 check not requested"
            return
        if not pys:
            self.r.py27 = "no scripts"
            return
        failures = compile_py27(pys)
        if failures is None:
            self.r.py27 = "Python 2.7 check skipped: no python2.7 found (set PYTHON27 or put python2.7 on PATH)"
            return
        self.r.py27 = f"{len(pys)} scripts compile under Python 2.7 ({find_python27()})" if not failures else \
            f"{len(failures)} of {len(pys)} scripts do not compile under Python 2.7"
        for name, line, col, msg in failures:
            shown = self._script_source(name, pys[name].decode("utf-8", "replace"))
            self.err("OP280", f"does not compile under Python 2.7 (OCTGN runs IronPython 2.7): {msg}",
                     Span(shown, line, max(1, col)))

    def _script_source(self, path: str, text: str) -> str:
        """Register a script's text for rendering (also under the file it was copied from)."""
        shown = self.t.display(path)
        self._rel[shown] = path
        self.r.sources.setdefault(shown, SourceText(shown, text))
        if path in self.copied:
            self.r.sources.setdefault(self.copied[path], SourceText(self.copied[path], text))
        return shown

    def _shared_script(self, path: str, data: bytes) -> None:
        """Scripts run in OCTGN's shared namespace: no global 'result', no 'ShowDialog()' text."""
        text = data.decode("utf-8", "replace")
        shown = self._script_source(path, text)
        for i, line in enumerate(text.splitlines(), 1):
            if "ShowDialog()" in line and "#" not in line:
                self.warn("OP281", "OCTGN rewrites lines holding ShowDialog() without a '#'",
                          Span(shown, i, line.index("ShowDialog()") + 1))
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # not Python 3 (the Python 2.7 check reports it), or too deeply nested for the parser
            # ("Parser stack overflowed" is a MemoryError, raised at once: found by the octgn-build fuzz target)
            return
        for node in tree.body:
            targets = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                targets = [(node.name, node)]
            elif isinstance(node, ast.Assign):
                targets = [(t.id, t) for t in node.targets if isinstance(t, ast.Name)]
            for name, n in targets:
                if name == "result":
                    self.err("OP282", "a shared-namespace script must not define a global named 'result' (OCTGN's "
                             "action dispatch assigns it)", Span(shown, n.lineno, n.col_offset + 1))


def validate_tree(tree: Tree, origins: dict[str, dict[int, Span]] | None = None, check_py27: bool = True,
                  copied: dict[str, str] | None = None) -> Report:
    return Validator(tree, origins, check_py27, copied).run()


def validate_path(path: str | Path, check_py27: bool = True) -> Report:
    """Validate a package file or a folder; LoadError when it is neither."""
    return validate_tree(load_tree(path), check_py27=check_py27)
