"""``rulescript import``: migrate an OCTGN plugin to a game folder.

::

    rulescript import PLUGIN_DIR -o OUT_DIR [--name NAME] [--force] [--allow-partial]
    rulescript import RULES_PY [--set SET_XML] -o OUT_DIR ...

1. The plugin is read as data (:mod:`rulescript.importer.plugin`): ``definition.xml`` (game id, name,
   version, table), every script with :mod:`ast` (the rules dict and the ability glyphs; never
   executed), every ``Sets/<guid>/set.xml`` and every ``.o8d`` deck.
2. Every rule text becomes an INI section ``[card-id]`` in ``rules/<script>.ini``; the compatibility
   rewrites of ``docs/language.md`` §11 are applied and recorded (:mod:`rulescript.importer.rewrite`).
3. The sets become ``cards.yaml`` with every card field of the game filled; ``game.yaml`` names the
   game and carries, under ``octgn:``, what the package builder takes from it (in the builder's
   schema, :mod:`rulescript.importer.octgnmap`; the card back and table background are copied); what
   the package shows instead of the rest of ``definition.xml`` is reported, located there; decks
   become ``decks/*.yaml`` (``decks/broken/`` for decks that break the deck rules).
4. Each converted rule is compiled; a rule that cannot be converted or does not compile is written
   commented out, with the reason, so the folder still passes ``rulescript check``.
5. The folder is written atomically (a temporary folder moved into place) and then compiled with
   :func:`rulescript.compiler.compile_game`; its diagnostics are part of the report.

Nothing is dropped silently: every rule, card field, card or deck entry left out is a located
diagnostic and is counted in the summary line.  Exit codes of :func:`main_import`: 0 nothing was
dropped and the game compiles (or ``--allow-partial`` accepted the drops), 1 something was dropped
(or the game does not compile), 2 usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from rulescript import cliutil
from rulescript.compiler import CompileResult, compile_game, compile_text
from rulescript.diagnostics import Diagnostic, SourceText, Span, render
from rulescript.compiler.ini import GUID_RE, SLUG_RE
from rulescript.importer.octgnmap import octgn_section
from rulescript.importer.plugin import Sources, read_files, read_plugin
from rulescript.importer.pysource import RuleEntry
from rulescript.importer.rewrite import Change, ConversionError, RuleConverter, RuleText, parse_rule_text
from rulescript.importer.yamlout import cards_yaml, deck_yaml, game_yaml
from rulescript.compiler.profile import load_profile
from octgn_pack import ids

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class ImportUsageError(Exception):
    """Bad arguments: a missing input, or an output folder that may not be overwritten."""


@dataclass(slots=True)
class FailedRule:
    """A rule that was not converted; it is in the INI file commented out."""

    card_id: str | None
    py_span: Span             # the dict entry in the Python file
    ini_span: Span | None     # where the commented-out rule starts in the INI file
    reason: str

    def render(self) -> str:
        where = f"{self.py_span.file}:{self.py_span.line}:{self.py_span.col}"
        ini = f" (written commented out at {self.ini_span.file}:{self.ini_span.line})" if self.ini_span else ""
        return f"{where}: rule '{self.card_id or '?'}' not converted: {self.reason}{ini}"


@dataclass(slots=True)
class ImportChange:
    """One rewrite made (severity ``note``) or one statement flagged for review (``warning``)."""

    card_id: str
    code: str
    severity: str
    message: str
    py_span: Span
    ini_span: Span
    before: str
    after: str


@dataclass(slots=True)
class ImportReport:
    rules_py: Path                     # the (first) rules file
    set_xml: Path | None
    out_dir: Path
    ini_path: Path                     # the (first) INI file written
    converted: list[str] = field(default_factory=list)
    failed: list[FailedRule] = field(default_factory=list)
    changes: list[ImportChange] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # reading the inputs (scripts, XML, decks)
    compile: CompileResult | None = None                         # compile_game of the written folder
    cards: int = 0
    written: bool = False
    sources: dict[str, SourceText] = field(default_factory=dict)
    plugin_dir: Path | None = None
    dropped_fields: int = 0            # card field values that could not be mapped
    dropped_cards: int = 0             # cards the game cannot use (written commented out)
    dropped_deck_entries: int = 0      # deck files, sections or card entries that could not be read
    decks: list[str] = field(default_factory=list)          # decks/<slug>.yaml written
    broken_decks: list[str] = field(default_factory=list)   # decks/broken/<slug>.yaml (break the deck rules)
    allow_partial: bool = False
    octgn_differences: int = 0         # parts of definition.xml the package shows otherwise (RI212-RI217)

    @property
    def compile_errors(self) -> list[Diagnostic]:
        return self.compile.errors if self.compile is not None else []

    @property
    def input_errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def dropped(self) -> int:
        """Everything that did not make it into the game: rules, card fields, cards, deck entries, and
        inputs that could not be read at all."""
        counted = {"RI204", "RI207", "RI220", "RI221", "RI222", "RI230", "RI231", "RI234"}
        unread = sum(1 for d in self.input_errors if d.code not in counted and d.code not in ("RI102", "RI103",
                                                                                            "RI101"))
        return (len(self.failed) + self.dropped_fields + self.dropped_cards + self.dropped_deck_entries + unread)

    @property
    def ok(self) -> bool:
        return self.written and not self.dropped and not self.compile_errors

    @property
    def exit_code(self) -> int:
        if self.ok or (self.allow_partial and self.written and not self.compile_errors):
            return EXIT_OK
        return EXIT_ERRORS

    def all_diagnostics(self) -> list[Diagnostic]:
        """Input diagnostics, then one per change, then the compile diagnostics of the written game."""
        out = list(self.diagnostics)
        for c in self.changes:
            notes = [f"from {c.py_span.file}:{c.py_span.line}:{c.py_span.col} (rule '{c.card_id}')"]
            if c.before != c.after:
                notes.append(f"was: {c.before}")
                notes.append(f"now: {c.after}")
            elif c.before:
                notes.append(f"statement: {c.before}")
            out.append(Diagnostic("note" if c.severity == "note" else "warning", c.code, c.message, c.ini_span,
                                  tuple(notes)))
        if self.compile is not None:
            out.extend(self.compile.diagnostics)
        return out

    def render(self, notes: bool = True) -> str:
        sources = dict(self.sources)
        if self.compile is not None:
            sources.update(self.compile.sources)
        parts = [render(d, sources.get(d.span.file)) for d in self.all_diagnostics()
                 if notes or d.severity != "note"]
        parts.extend(f.render() for f in self.failed)
        return "\n\n".join(parts)

    def summary(self) -> str:
        rewrites = sum(1 for c in self.changes if c.severity == "note")
        reviews = sum(1 for c in self.changes if c.severity != "note")
        errors = len(self.compile_errors)
        if self.ok:
            state = "ok"
        elif self.exit_code == EXIT_OK:
            state = "INCOMPLETE (accepted with --allow-partial)"
        else:
            state = "INCOMPLETE"
        where = f"wrote {self.out_dir}" if self.written else "nothing written"
        decks = ""
        if self.plugin_dir is not None:
            decks = (f"{len(self.decks) + len(self.broken_decks)} decks ({len(self.broken_decks)} breaking the deck "
                     "rules, in decks/broken/); ")
        octgn = (f"{self.octgn_differences} thing{'s' if self.octgn_differences != 1 else ''} the OCTGN package "
                 "shows otherwise (RI212-RI217); "
                 if self.plugin_dir is not None or self.octgn_differences else "")
        unread = self.dropped - len(self.failed) - self.dropped_fields - self.dropped_cards - self.dropped_deck_entries
        return (f"{state}: {len(self.converted)} rules converted, {len(self.failed)} not converted "
                f"(commented out), {rewrites} rewrites, {reviews} statements to review, {self.cards} cards; {decks}"
                f"dropped: {len(self.failed)} rules, {self.dropped_fields} card fields, {self.dropped_cards} cards, "
                f"{self.dropped_deck_entries} deck entries, {unread} unreadable inputs; {octgn}"
                f"{errors} compile errors; {where}")


# ---------------------------------------------------------------------------------------------------
# building the INI file


@dataclass(slots=True)
class _Rule:
    entry: RuleEntry
    card_id: str | None
    rule: RuleText | None = None
    changes: list[Change] = field(default_factory=list)
    reason: str | None = None
    # filled while writing
    start: int = 0
    end: int = 0
    prop_lines: list[int] = field(default_factory=list)


def _normalise_id(key: str) -> str:
    """GUIDs lose their braces; ids are compared without regard to case, so they are written lower case."""
    k = key.strip()
    if k.startswith("{") and k.endswith("}"):
        k = k[1:-1].strip()
    return k.lower()


def _one_line(text: str) -> str:
    """Text that stays on one physical line (nothing from the inputs may start a new INI line)."""
    return re.sub(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+", " ", text)


def _comment(text: str) -> str:
    text = _one_line(text)
    return "# " + text if text else "#"


def _rule_lines(r: _Rule, names: dict[str, str]) -> tuple[list[str], list[int | None]]:
    """Lines of one rule's block, and for each line the index of the property it starts (or None)."""
    lines: list[str] = []
    marks: list[int | None] = []

    def add(line: str, mark: int | None = None) -> None:
        lines.append(line)
        marks.append(mark)

    e = r.entry
    for c in e.comments:
        add(_one_line(c) if c.startswith("#") else _comment(c))
    name = names.get(r.card_id or "")
    if name and any(name.lower() in c.lower() for c in e.comments):
        name = ""  # the plugin's own comment already names the card
    if r.reason is not None:
        add(_comment(f"NOT CONVERTED ({e.span.file}:{e.span.line}:{e.span.col}): {r.reason}"))
        if name:
            add(_comment(f"card: {name}"))
        add(_comment(f"[{r.card_id if r.card_id else e.key if e.key is not None else '?'}]"), -1)
        body = textwrap.dedent((e.text if e.text is not None else e.source).replace("\r\n", "\n"))
        if r.rule is not None:
            add("# original:")
        for raw in body.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            if raw.strip():
                add(_comment(raw.rstrip()))
        if r.rule is not None:
            add("# converted:")
            for p in r.rule.props:
                add(_comment(f"{p.raw_key} = {p.new_value}"))
        return lines, marks
    assert r.rule is not None
    if name:
        add(_comment(name))
    assert r.card_id is not None and (GUID_RE.match(r.card_id) or SLUG_RE.match(r.card_id))
    add(f"[{r.card_id}]", -1)
    prop_index = {id(p): i for i, p in enumerate(r.rule.props)}
    for item in r.rule.items:
        if isinstance(item, str):
            add(item)
            continue
        i = prop_index[id(item)]
        comments = [c for _, c in item.lines if c]
        if item.new_value == item.value and len(item.lines) > 1:
            first = True
            for piece, comment in item.lines:
                tail = f"  {comment}" if comment else ""
                if first:
                    add(f"{item.raw_key} = {piece}{tail}".rstrip(), i)
                    first = False
                elif piece:
                    add(f"    {piece}{tail}")
                elif comment:
                    add(comment)
            continue
        if len(comments) > 1:
            for c in comments:
                add(c)
            comments = []
        tail = f"  {comments[0]}" if comments else ""
        add(f"{item.raw_key} = {item.new_value}{tail}".rstrip(), i)
    return lines, marks


def _build_ini(rules: list[_Rule], names: dict[str, str], header: list[str]) -> str:
    lines = list(header)
    for r in rules:
        lines.append("")
        block, marks = _rule_lines(r, names)
        r.start = len(lines) + 1
        r.prop_lines = []
        for line, mark in zip(block, marks):
            lines.append(line)
            if mark is not None and mark >= 0:
                while len(r.prop_lines) <= mark:
                    r.prop_lines.append(len(lines))
                r.prop_lines[mark] = len(lines)
            elif mark == -1:
                r.start = len(lines)
        r.end = len(lines)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------
# writing the folder


_SURROGATES = re.compile("[\ud800-\udfff]")


def _write_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # a plugin's file name that is not UTF-8 (surrogate escapes in a deck name or a quoted path) is
    # written with U+FFFD for its bytes: the files written are UTF-8 text
    text = _SURROGATES.sub("\ufffd", text)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def _check_target(out_dir: Path, force: bool) -> None:
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise ImportUsageError(f"{out_dir} exists and is not a folder; not overwriting it")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise ImportUsageError(f"{out_dir} is not empty; use --force to replace it")


def write_folder_atomically(out_dir: Path, files: dict[str, str | bytes], force: bool) -> None:
    """Write ``files`` (relative path → text, or bytes for a copied image) as the folder ``out_dir``: all
    of it, or nothing."""
    out_dir = Path(out_dir)
    parent = out_dir.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    _check_target(out_dir, force)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.import-", dir=parent))
    try:
        for rel, text in files.items():
            if isinstance(text, bytes):
                (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                (tmp / rel).write_bytes(text)
            else:
                _write_file(tmp / rel, text)
        _check_target(out_dir, force)  # again: something may have appeared meanwhile
        if out_dir.is_dir():
            if not any(out_dir.iterdir()):
                out_dir.rmdir()
            else:  # --force: swap the folders, then delete the old one
                old = parent / f".{out_dir.name}.old-{uuid.uuid4().hex[:8]}"
                os.rename(out_dir, old)
                try:
                    os.rename(tmp, out_dir)
                except BaseException:
                    os.rename(old, out_dir)
                    raise
                shutil.rmtree(old, ignore_errors=True)
                return
        os.rename(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# ---------------------------------------------------------------------------------------------------
# the import


def _slug(text: str, default: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or default


def _prepare(entries: list[RuleEntry]) -> list[_Rule]:
    rules: list[_Rule] = []
    last: dict[str, _Rule] = {}
    for e in entries:
        if e.key is None:
            rules.append(_Rule(e, None, reason=e.reason or "the key is not a literal string"))
            continue
        cid = _normalise_id(e.key)
        r = _Rule(e, cid, reason=e.reason)
        if r.reason is None and not (GUID_RE.match(cid) or SLUG_RE.match(cid)):
            r.reason = (f"'{e.key}' is not a valid rule id (a GUID, or a slug of letters, digits, '_' and '-')")
        if cid in last:
            prev = last[cid]
            if prev.reason is None:
                prev.reason = (f"the id '{cid}' is given again at {e.span.file}:{e.span.line}:{e.span.col}; "
                               "Python keeps the last value, so this one was never used")
        last[cid] = r
        rules.append(r)
    return rules


def _convert(r: _Rule, profile) -> None:  # type: ignore[no-untyped-def]
    assert r.entry.text is not None
    try:
        r.rule = parse_rule_text(r.entry.text)
        if not r.rule.props:
            raise ConversionError("the rule text holds no 'key = value' line")
        r.changes = RuleConverter(profile).convert(r.rule)
    except ConversionError as exc:
        r.reason = f"unparseable rule text: {exc.message}"
        r.rule = None


def _py_span_of(r: _Rule, prop: int | None) -> Span:
    e = r.entry
    if prop is None or r.rule is None or prop >= len(r.rule.props) or not e.line_map:
        return e.span
    text_line = r.rule.props[prop].text_line
    if text_line >= len(e.line_map):
        return e.span
    line = e.line_map[text_line]
    raw = e.text.replace("\r\n", "\n").split("\n")[text_line] if e.text else ""
    indent = len(raw) - len(raw.lstrip())
    col = (e.text_col + indent) if text_line == 0 else indent + 1
    return Span(e.span.file, line, col)


def _reject_uncompilable(rules: list[_Rule], names: dict[str, str], header: list[str], profile, cards: list,
                         ini_path: str) -> None:  # type: ignore[no-untyped-def]
    """Compile the converted rules as they will be written; a rule with errors is marked not converted
    (so it is written commented out), until the whole file compiles."""
    for _ in range(len(rules) + 1):
        text = _build_ini(rules, names, header)
        try:
            result = compile_text(text, profile, filename=ini_path, cards=cards, cache=None)
        except Exception:  # a compiler bug must not sink the whole import: find the rule that triggers it
            if not _isolate_crashes(rules, profile, cards, ini_path):
                raise
            continue
        compile_errors: dict[int, list[Diagnostic]] = {}
        for d in result.errors:
            owner = next((i for i, r in enumerate(rules)
                          if r.reason is None and r.start <= d.span.line <= r.end), None)
            if owner is not None:
                compile_errors.setdefault(owner, []).append(d)
        if not compile_errors:
            return
        lines = text.split("\n")
        for i, diags in compile_errors.items():
            first = diags[0]
            rules[i].reason = (f"does not compile after conversion: {first.message} [{first.code}] in "
                               f"'{lines[first.span.line - 1].strip()}'"
                               + (f" (and {len(diags) - 1} more)" if len(diags) > 1 else ""))
            rules[i].changes = []


def _isolate_crashes(rules: list[_Rule], profile, cards: list, ini_path: str) -> bool:  # type: ignore[no-untyped-def]
    """Compile each rule alone; those on which the compiler itself fails are marked not converted."""
    found = False
    for r in rules:
        if r.reason is not None:
            continue
        block, _ = _rule_lines(r, {})
        try:
            compile_text("\n".join(block) + "\n", profile, filename=ini_path, cards=cards, cache=None)
        except Exception as exc:  # noqa: BLE001 - reported, with the rule kept commented out
            r.reason = (f"the compiler failed on this rule (internal error {type(exc).__name__}: {exc}); "
                        "please report it")
            r.changes = []
            found = True
    return found


def import_plugin(rules_py: Path, set_xml: Path | None, out_dir: Path, *, name: str | None = None,
                  force: bool = False, allow_partial: bool = False) -> ImportReport:
    """Convert an OCTGN plugin's rule dictionary (and set.xml) into a RuleScript game folder."""
    rules_py = Path(rules_py)
    out_dir = Path(out_dir)
    for path, what in ((rules_py, "rules file"), (set_xml, "set.xml file (--set)")):
        if path is None:
            continue
        if Path(path).is_dir():
            raise ImportUsageError(f"{path} is a folder; give a {what}")
        if not Path(path).is_file():
            raise ImportUsageError(f"no such {what}: {path}")
    _check_target(out_dir, force)
    src = read_files(rules_py, Path(set_xml) if set_xml is not None else None)
    report = ImportReport(rules_py, Path(set_xml) if set_xml else None, out_dir, out_dir / "rules",
                          allow_partial=allow_partial)
    source_note = rules_py.name + (f" and {Path(set_xml).name}" if set_xml else "")
    set_data = src.sets[0] if src.sets else None
    game_name = name or (set_data.set_name if set_data and set_data.set_name else None) or rules_py.stem
    game_id = (set_data.game_id if set_data and set_data.game_id else None)
    version = (set_data.version if set_data and set_data.version else None)
    return _import(src, report, out_dir, game_name, game_id, version, source_note,
                   source_note if set_data else f"{rules_py.name} (no set.xml given)", None, force)


def import_plugin_folder(plugin_dir: Path, out_dir: Path, *, name: str | None = None, force: bool = False,
                         allow_partial: bool = False) -> ImportReport:
    """Convert a whole OCTGN plugin folder (definition.xml, Scripts/, Sets/, Decks/) into a game folder."""
    plugin_dir = Path(plugin_dir)
    out_dir = Path(out_dir)
    if not plugin_dir.is_dir():
        raise ImportUsageError(f"no such folder: {plugin_dir}")
    _check_target(out_dir, force)
    src = read_plugin(plugin_dir)
    first_rules = Path(src.rule_files[0].path) if src.rule_files else plugin_dir / "Scripts"
    report = ImportReport(first_rules, None, out_dir, out_dir / "rules", plugin_dir=plugin_dir,
                          allow_partial=allow_partial)
    d = src.definition
    first_set = src.sets[0] if src.sets else None
    game_name = name or (d.name if d else None) or (first_set.set_name if first_set else None) or plugin_dir.name
    game_id = (d.id if d else None) or (first_set.game_id if first_set else None)
    version = (d.version if d else None) or (first_set.version if first_set else None)
    note = f"the OCTGN plugin {plugin_dir.name}"
    sets = ", ".join(f"{Path(s.path).parent.name}/set.xml" for s in src.sets) or "no set"
    return _import(src, report, out_dir, game_name, game_id, version, note, f"{note} ({sets})", plugin_dir, force)


def _import(src: Sources, report: ImportReport, out_dir: Path, game_name: str, game_id: str | None,
            version: str | None, source_note: str, cards_note: str, plugin_dir: Path | None,
            force: bool) -> ImportReport:
    profile = load_profile("cfc")
    report.diagnostics.extend(src.diagnostics)
    for path in src.read_paths:
        report.sources[str(path)] = SourceText(str(path), path.read_bytes().decode("utf-8", "replace"))
    cards = src.cards
    names = {c["id"]: c["name"] for c in cards if c.get("id")}
    for s in src.sets:
        report.dropped_fields += s.dropped_fields
        report.dropped_cards += len(s.rejected)
        for card, _ in s.rejected:
            if card.get("id"):
                names.setdefault(card["id"], card.get("name", ""))
    report.cards = len(cards)

    files: dict[str, str | bytes] = {}
    all_rules = _prepare([e for py in src.rule_files for e in py.entries])
    taken: set[str] = set()
    first_ini = True
    for py in src.rule_files:
        rules = [r for r in all_rules if r.entry.span.file == py.path]
        for r in rules:
            if r.reason is None:
                _convert(r, profile)
        stem = _slug(Path(py.path).stem, "imported")
        ini_rel = f"rules/{stem}.ini"
        n = 2
        while ini_rel in taken:
            ini_rel = f"rules/{stem}-{n}.ini"
            n += 1
        taken.add(ini_rel)
        header = [_comment(f"{game_name}: RuleScript rules imported by `rulescript import` from "
                           f"{Path(py.path).name}."),
                  "# Rules that could not be converted are kept below as comments marked NOT CONVERTED."]
        ini_path = str(out_dir / ini_rel)
        if first_ini:
            report.ini_path = out_dir / ini_rel
            first_ini = False
        _reject_uncompilable(rules, names, header, profile, cards, ini_path)
        text = _build_ini(rules, names, header)
        _record(report, rules, ini_path)
        report.sources[ini_path] = SourceText(ini_path, text)
        files[ini_rel] = text

    game_id = (game_id or str(uuid.uuid5(uuid.NAMESPACE_URL, f"rulescript-import:{game_name}"))).strip("{}").lower()
    rule_scripts = set()
    for py in src.rule_files:
        try:
            rule_scripts.add(Path(py.path).relative_to(plugin_dir).as_posix().lower() if plugin_dir else "")
        except ValueError:
            pass
    octgn = octgn_section(src.definition, plugin_dir, src.sets, game_name, ids.game_guid(game_id), rule_scripts)
    report.diagnostics.extend(octgn.diagnostics)
    report.octgn_differences = len(octgn.diagnostics)
    provenance = f"Imported by `rulescript import` from {source_note}."
    files["game.yaml"] = game_yaml(game_id, game_name, version or "0.1.0", octgn.description or provenance,
                                   octgn.fields, provenance if octgn.description else None)
    for rel, image in octgn.images.items():
        files[rel] = image.read_bytes()
    files["cards.yaml"] = cards_yaml(src.sets, cards_note)
    for slug, deck in src.decks:
        report.dropped_deck_entries += deck.dropped
        if not deck.readable:
            continue
        header = [f"Deck '{deck.name}' imported by `rulescript import` from {deck.path}."]
        if deck.problems:
            header.append("It breaks the deck rules, so the simulator does not draw it: " + "; ".join(deck.problems))
            files[f"decks/broken/{slug}.yaml"] = deck_yaml(deck.name, deck.counts, names, header)
            report.broken_decks.append(slug)
        else:
            files[f"decks/{slug}.yaml"] = deck_yaml(deck.name, deck.counts, names, header)
            report.decks.append(slug)
    write_folder_atomically(out_dir, files, force)
    report.written = True
    report.compile = compile_game(out_dir, cache=None)
    return report


def _record(report: ImportReport, rules: list[_Rule], ini_path: str) -> None:
    for r in rules:
        if r.reason is not None:
            report.failed.append(FailedRule(r.card_id, r.entry.span, Span(ini_path, r.start, 1), r.reason))
            continue
        report.converted.append(r.card_id or "")
        for c in r.changes:
            line = r.prop_lines[c.prop] if c.prop < len(r.prop_lines) else r.start
            key = r.rule.props[c.prop].raw_key if r.rule and c.prop < len(r.rule.props) else ""
            ini_span = Span(ini_path, line, len(key) + 4 if key else 1)
            report.changes.append(ImportChange(r.card_id or "", c.code, c.severity, c.message,
                                               _py_span_of(r, c.prop), ini_span, c.before, c.after))


# ---------------------------------------------------------------------------------------------------
# command line


DESCRIPTION = ("Migrate an OCTGN plugin to a RuleScript game folder. Give the plugin folder (definition.xml, "
               "Scripts/, Sets/<guid>/set.xml, Decks/): the scripts are read with ast, never executed; the rules "
               "dict gets the compatibility rewrites (docs/language.md §11); game.yaml, cards.yaml, rules/*.ini and "
               "decks/*.yaml are written, then compiled. The older form takes the rules file and one set.xml.")
EPILOG = ("Exit codes: 0 nothing was dropped and the game compiles; 1 a rule, a card field, a card or a deck entry "
          "was dropped (each is reported with file:line) - --allow-partial accepts that; 2 usage errors.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``rulescript import`` (for wiring it as a subcommand: add these, then
    ``p.set_defaults(func=cmd_import)``)."""
    p.add_argument("rules_py", metavar="PLUGIN", help="the plugin folder, or the plugin's Python file holding the "
                   "rules dict")
    p.add_argument("--set", dest="set_xml", metavar="SET_XML", help="with a rules file: the plugin's set.xml")
    p.add_argument("-o", "--output", required=True, metavar="OUT_DIR", help="the game folder to create")
    p.add_argument("--name", help="the game's name (default: definition.xml's, else the set's, else the file name)")
    p.add_argument("--force", action="store_true", help="replace OUT_DIR if it exists and is not empty")
    p.add_argument("--allow-partial", action="store_true", help="exit 0 even if something was dropped (it is "
                   "still reported)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="report format (default: text)")
    p.add_argument("--quiet", "-q", action="store_true", help="do not list the rewrites (notes)")


def build_parser() -> argparse.ArgumentParser:
    p = cliutil.CommandParser(prog="rulescript import", description=DESCRIPTION, epilog=EPILOG)
    add_arguments(p)
    return p


def cmd_import(args: argparse.Namespace) -> int:
    """Run an import from parsed arguments; prints the report, returns the exit code."""
    try:
        cliutil.output_folder(args.output, writable=True)  # before the work
    except cliutil.UsageError as exc:
        print(f"rulescript import: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        source = Path(args.rules_py)
        if source.is_dir():
            if args.set_xml:
                raise ImportUsageError("--set is for the rules-file form; a plugin folder's sets are read from "
                                       "its Sets/ folder")
            report = import_plugin_folder(source, Path(args.output), name=args.name, force=args.force,
                                          allow_partial=args.allow_partial)
        else:
            report = import_plugin(source, Path(args.set_xml) if args.set_xml else None, Path(args.output),
                                   name=args.name, force=args.force, allow_partial=args.allow_partial)
    except ImportUsageError as exc:
        print(f"rulescript import: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # nothing was written: the folder is moved into place only when complete
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"rulescript import: error: {where}{exc.strerror or exc}; nothing was written", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        diags = [d.to_dict() for d in report.all_diagnostics() if not (args.quiet and d.severity == "note")]
        failed = [{"card_id": f.card_id, "file": f.py_span.file, "line": f.py_span.line, "column": f.py_span.col,
                   "ini_file": f.ini_span.file if f.ini_span else None,
                   "ini_line": f.ini_span.line if f.ini_span else None, "reason": f.reason} for f in report.failed]
        print(json.dumps({"diagnostics": diags, "failed": failed, "converted": report.converted,
                          "dropped": {"rules": len(report.failed), "card_fields": report.dropped_fields,
                                      "cards": report.dropped_cards, "deck_entries": report.dropped_deck_entries,
                                      "total": report.dropped},
                          "decks": report.decks, "broken_decks": report.broken_decks,
                          "summary": report.summary(), "exit": report.exit_code}, indent=1, ensure_ascii=False))
    else:
        text = report.render(notes=not args.quiet)
        if text:
            print(text + "\n")
    print(report.summary(), file=sys.stderr)
    return report.exit_code


def main_import(argv: Sequence[str] | None = None) -> int:
    """``rulescript import`` with ``argv`` = the arguments after ``import``."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    return cmd_import(args)


if __name__ == "__main__":
    sys.exit(main_import())
