"""Loading a WWRF project: files or folders → elements, symbol table, Inherit splicing, typing."""

from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from rulescript.diagnostics import Diagnostic, DiagnosticBag, SourceText, Span
from rulescript.textfile import read_located

from .ast import Element, Item
from .elements import parse_element
from .keys import name_key

from .source import RawElement, decode_text, has_header, read_element
from .symbols import SymbolTable, Typer


ElementKey = tuple[str, str]


def element_key(kind: str, name: str) -> ElementKey:
    """How a project files an element: by kind and name key (a group and a poll may share a name)."""
    return kind, name_key(name)


@dataclass
class Project:
    #: elements by ``(kind, name key)``, in load order
    elements: dict[ElementKey, Element] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceText] = field(default_factory=dict)
    symbols: SymbolTable = field(default_factory=SymbolTable)
    raws: dict[ElementKey, RawElement] = field(default_factory=dict)
    #: the files read as elements, in load order
    files: list[str] = field(default_factory=list)
    #: files found by walking a folder and left out: no element header on line 1 (each has a note)
    skipped: list[str] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def get(self, name: str, kind: str | None = None) -> Element | None:
        """The element called ``name`` (of ``kind``); without a kind, the name must be unique."""
        if kind is not None:
            return self.elements.get(element_key(kind, name))
        key = name_key(name)
        found = [el for (_, k), el in self.elements.items() if k == key]
        if len(found) > 1:
            raise LookupError(f"several elements are named '{name}' ({', '.join(el.kind for el in found)}): give the kind")
        return found[0] if found else None


#: ``_paths/`` file name → the kind of the elements in the folders it lists
PATH_KINDS = {"roles": "role", "teams": "team", "groups": "group", "polls": "poll", "attributes": "attribute",
              "sets": "ability set", "locations": "location"}


@dataclass(slots=True)
class SourceFile:
    """A file to load: ``kind`` when the book's ``_paths/`` gives it (else the header decides);
    ``walked`` when it was found by walking a folder (then a file without a header is skipped)."""

    path: Path
    kind: str | None = None
    walked: bool = False


def collect_sources(paths: list[str | Path], bag: DiagnosticBag, sources: dict[str, SourceText]) -> list[SourceFile]:
    """The files to load for ``paths``, each once. A folder with a ``_paths/`` folder is a book: the
    folders its files list (one per line, relative to the book) are read, not recursively, with the
    kind of the list; any other folder is walked (``collect_files``). Named files are read as given."""
    out: list[SourceFile] = []
    books = 0
    for p in map(Path, paths):
        if p.is_dir() and (p / "_paths").is_dir():
            out.extend(_book_sources(p, bag, sources))
            books += 1
        elif p.is_dir():
            out.extend(SourceFile(f, walked=True) for f in collect_files([p]))
        else:
            out.append(SourceFile(p))
    if len(paths) == 1 and not books:  # one file, or one walk: no file twice
        return out
    seen: set[str] = set()
    unique = []
    cwd = os.getcwd()
    for src in out:  # (normpath, not Path.resolve: no system call per file)
        real = os.path.normpath(os.path.join(cwd, src.path))
        if real not in seen:
            seen.add(real)
            unique.append(src)
    return unique


def _book_sources(root: Path, bag: DiagnosticBag, sources: dict[str, SourceText]) -> list[SourceFile]:
    out: list[SourceFile] = []
    lists = root / "_paths"
    real_root = root.resolve()
    for entry in sorted(lists.iterdir()):
        kind = PATH_KINDS.get(entry.name)
        if kind is None or not entry.is_file():
            if not entry.name.startswith("."):
                bag.add(Diagnostic("note", "WW915", f"'{entry.name}' is not a file named after a kind of element "
                                   f"({', '.join(PATH_KINDS)}): not read", Span(str(entry), 1, 1)))
            continue
        raw, problem = read_located(entry, "WW107")
        if problem is not None:
            bag.add(problem)
            continue
        text = decode_text(raw)
        sources[str(entry)] = SourceText(str(entry), text)
        for number, line in enumerate(text.split("\n"), start=1):
            name = line.strip()
            if not name:
                continue
            col = len(line) - len(line.lstrip()) + 1
            outside = _outside_book(name)
            if outside:
                bag.error("WW107", f"'{name}' (of the {entry.name} list) {outside}: a book lists folders inside it",
                          Span(str(entry), number, col, number, col + len(name)),
                          ("write the folder's path relative to the book, with '/' between folders",))
                continue
            folder = root / name
            if folder.is_dir() and not _inside(folder, real_root):
                bag.error("WW107", f"'{name}' (of the {entry.name} list) is a link to a folder outside the book",
                          Span(str(entry), number, col, number, col + len(name)))
                continue
            if not folder.is_dir():
                bag.error("WW106", f"folder '{name}' (of the {entry.name} list) not found in {root}",
                          Span(str(entry), number, col, number, col + len(name)))
                continue
            files = sorted(f for f in folder.iterdir() if f.is_file() and not f.suffix and not f.name.startswith("."))
            for f in files:
                if f.is_symlink() and not _inside(f, real_root):  # a link to a file elsewhere is not read
                    bag.error("WW107", f"'{f.name}' (in the folder '{name}' of the {entry.name} list) is a link to a "
                              "file outside the book: not read", Span(str(entry), number, col, number, col + len(name)))
                    continue
                out.append(SourceFile(f, kind))
    return out


_DRIVE = re.compile(r"^[A-Za-z]:")


def _outside_book(name: str) -> str | None:
    """Why a ``_paths/`` entry names a place outside the book (None when it does not)."""
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return "is an absolute path"
    if "\\" in name:
        return "holds a backslash"
    if ".." in name.split("/"):
        return "goes up out of the book ('..')"
    return None


def _inside(path: Path, real_root: Path) -> bool:
    """True when ``path``, with every link followed, lies in the book (``real_root`` is resolved)."""
    try:
        path.resolve().relative_to(real_root)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def collect_files(paths: list[str | Path]) -> list[Path]:
    """Files named directly, plus every extension-less regular file under named folders."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found: list[Path] = []
            _scan(p, found)
            out.extend(sorted(found))
        else:
            out.append(p)
    return out


def _scan(folder: Path, found: list[Path]) -> None:
    """Regular extension-less files under ``folder`` (as ``Path.rglob``: symlinked folders are not
    entered, unreadable folders are skipped), leaving out names that start with '.' at any depth."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except (PermissionError, FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        name = entry.name
        if name.startswith("."):
            continue
        try:
            if entry.is_dir():
                if not entry.is_symlink():
                    _scan(folder / name, found)
                continue
            if not entry.is_file():
                continue
        except OSError:
            continue
        path = folder / name
        if not path.suffix:
            found.append(path)


MAX_INHERIT_DEPTH = 40  # ability sets inheriting each other: deeper chains are an error, not a RecursionError


class _Loader:
    def __init__(self, raws: list[RawElement], symbols: SymbolTable, bag: DiagnosticBag) -> None:
        self.symbols = symbols
        self.bag = bag
        self.sets = {name_key(r.header.name): r for r in raws if r.kind == "ability set"}
        self.parsed_sets: dict[str, Element] = {}
        self.in_progress: set[str] = set()

    def resolve(self, name: str) -> list[Item] | None:
        key = name_key(name)
        if key in self.parsed_sets:
            return list(self.parsed_sets[key].items)
        raw = self.sets.get(key)
        if raw is None or key in self.in_progress:
            return None
        if len(self.in_progress) >= MAX_INHERIT_DEPTH:
            self.bag.error("WW111", f"ability set '{raw.header.name}' is inherited through a chain of more than "
                           f"{MAX_INHERIT_DEPTH} ability sets; nothing inherited", Span(raw.file, 1, 1))
            return []
        self.in_progress.add(key)
        el = self.parse(raw)
        self.in_progress.discard(key)
        return list(el.items)

    def parse(self, raw: RawElement) -> Element:
        key = name_key(raw.header.name)
        if raw.kind == "ability set" and key in self.parsed_sets:
            return self.parsed_sets[key]
        el = parse_element(raw, self.bag, self.resolve)
        Typer(self.symbols, self.bag, raw.file).element(el)
        if raw.kind == "ability set":
            self.parsed_sets[key] = el
        return el


def build_symbols(raws: list[RawElement]) -> SymbolTable:
    symbols = SymbolTable()
    for r in raws:
        symbols.add(r.kind, r.header.name)
        if r.kind not in ("role", "ability set"):
            symbols.add(r.kind, r.file_name)
    return symbols


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a project is built.

    Parsing allocates many small container objects (tokens, parse trees, AST nodes) but makes
    (almost) no reference cycles, so the collector's frequent passes over the young objects, and
    the full passes they trigger, find nothing to free: about 15 % of a load of the benchmark
    corpus. The young generation is collected once at the end: every object of the load is
    visited once (what the collector would do anyway, done here rather than deferred to the
    caller), and any cycle made meanwhile (e.g. by an exception on bad input) is freed. Nothing
    happens if the collector is already disabled (by the caller or an enclosing load)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def load_texts(texts: list[tuple[str, str]], extra_context: "Project | None" = None,
               kinds: dict[str, str] | None = None) -> Project:
    """Parse ``(file, text)`` pairs as one project (``extra_context`` adds symbols and ability sets;
    ``kinds`` gives the kind of some files, as a book's ``_paths/`` does)."""
    with _gc_paused():
        return _load_texts(texts, extra_context, kinds or {})


def _load_texts(texts: list[tuple[str, str]], extra_context: "Project | None", kinds: dict[str, str]) -> Project:
    bag = DiagnosticBag()
    project = Project()
    raws: list[RawElement] = []
    for file, text in texts:
        project.sources[file] = SourceText(file, text)
        project.files.append(file)
        raws.append(read_element(file, text, bag, kind=kinds.get(file)))
    context_raws = list(extra_context.raws.values()) if extra_context is not None else []
    own = {element_key(r.kind, r.header.name) for r in raws}
    all_raws = raws + [r for r in context_raws if element_key(r.kind, r.header.name) not in own]
    project.symbols = build_symbols(all_raws)
    loader = _Loader(all_raws, project.symbols, bag if extra_context is None else DiagnosticBag())
    loader.bag = bag
    if extra_context is not None:
        ctx_bag = DiagnosticBag()
        for r in context_raws:
            if r.kind == "ability set" and element_key(r.kind, r.header.name) not in own:
                saved = loader.bag
                loader.bag = ctx_bag
                loader.parse(r)
                loader.bag = saved
    for raw in raws:
        el = loader.parse(raw)
        key = element_key(raw.kind, raw.header.name)
        first = project.raws.get(key)
        if first is not None:
            bag.warning("WW913", f"a second {raw.kind} named '{raw.header.name}' (the first is in {first.file}): "
                        "this one replaces it", raw.header.span or Span(raw.file, 1, 1))
        project.elements[key] = el
        project.raws[key] = raw
    order = {file: i for i, (file, _) in enumerate(texts)}
    project.diagnostics = sorted(bag.items, key=lambda d: (order.get(d.span.file, len(order)), d.span.line, d.span.col))
    return project


def sibling_context(files: list[Path]) -> Project:
    """A context of the elements next to ``files`` (symbols and ability sets, read but not parsed),
    so that a single file is checked against its repository folder."""
    context = Project()
    wanted = {f.resolve() for f in files}
    seen: set[Path] = set()
    bag = DiagnosticBag()
    for folder in {f.resolve().parent for f in files}:
        for f in collect_files([folder]):
            rf = f.resolve()
            if rf in wanted or rf in seen:
                continue
            try:
                if f.stat().st_size > 1_000_000:  # not an element file
                    continue
            except OSError:
                continue
            seen.add(rf)
            text, problem = read_located(f, "WW107")
            if problem is not None:  # a sibling that is not text gives no context (it is not reported)
                continue
            raw = read_element(str(f), decode_text(text), bag)
            context.raws.setdefault(element_key(raw.kind, raw.header.name), raw)
    return context


def load_project(paths: str | Path | list[str | Path], siblings: bool = False) -> Project:
    """Load files and folders, one element per file (see ``collect_sources``: a book with a
    ``_paths/`` folder is read by its lists; other folders give every extension-less file that
    starts with an element header, and a note for each file skipped for lack of one).

    With ``siblings``, files named directly are checked in the context of the other elements of
    their folder (names resolve, ``Inherit`` finds its set); only the named files are reported."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    bag = DiagnosticBag()
    sources: dict[str, SourceText] = {}
    texts: list[tuple[str, str]] = []
    kinds: dict[str, str] = {}
    skipped: list[str] = []
    for src in collect_sources(list(paths), bag, sources):
        file = str(src.path)
        raw, problem = read_located(src.path, "WW107")
        if problem is not None:  # not UTF-8 text: one located error, never the file's bytes
            bag.add(problem)
            continue
        text = decode_text(raw)
        if src.walked and not has_header(text):
            skipped.append(file)
            bag.add(Diagnostic("note", "WW915", "no element header (**Name**) on line 1: not an element, skipped",
                               Span(file, 1, 1)))
            continue
        texts.append((file, text))
        if src.kind is not None:
            kinds[file] = src.kind
    direct = [Path(p) for p in paths if Path(p).is_file()]
    context = sibling_context(direct) if siblings and direct else None
    project = load_texts(texts, extra_context=context, kinds=kinds)
    project.skipped = skipped
    project.sources.update(sources)
    if bag.items:
        project.diagnostics = bag.items + project.diagnostics
    return project
