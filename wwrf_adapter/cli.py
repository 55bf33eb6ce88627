"""``wwrf`` command line: check, dump and fmt WWRF element files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from rulescript import cliutil
from rulescript.cliutil import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError, colour_diagnostics, use_colour
from rulescript.diagnostics import render, to_json

if TYPE_CHECKING:
    from .project import Project

_DESCRIPTION = """\
Front end for WWRF (Werewolves Revamped Formalization) element files: roles, teams, groups, polls,
attributes, ability sets, locations and displays (extension-less text files, one element per file).

A folder that holds a _paths/ folder is a role book: each file of _paths/ (roles, teams, groups,
polls, attributes, sets, locations) lists folders of the book, one per line, and exactly the files
of those folders are read, as elements of that kind. Any other folder is read recursively: every
extension-less file that starts with an element header (**Name**) is one element; other files are
skipped with a note."""

_EPILOG = """\
examples:
  wwrf check roles/                   check every element under roles/
  wwrf check --format json seer lynch diagnostics as a JSON list
  wwrf dump --format json roles/seer  the typed AST of one element as JSON
  wwrf fmt roles/seer                 canonical WWRF text on stdout
  wwrf fmt --write roles/             rewrite files in canonical form
  wwrf render roles/ -o game/ --report  render a book into a werewolf game folder

""" + cliutil.EXIT_STATUS_HELP


def _parser() -> argparse.ArgumentParser:
    p = cliutil.CommandParser(prog="wwrf", description=_DESCRIPTION, epilog=_EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    cliutil.add_version(p, "wwrf")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="parse and type-check files or folders; report diagnostics",
                       description="Parse every element and report all errors and warnings.")
    c.add_argument("paths", nargs="+", metavar="PATH", help="element files or folders")
    c.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: file:line:col with the source line and a caret (default); json: a list")
    c.add_argument("--book", action="store_true",
                   help="check every folder as a whole game (as done for a folder with a role-lists.yaml): unknown elements, a lynch poll, win conditions, role lists")
    c.add_argument("--no-warnings", action="store_true",
                   help="report errors only (warnings are counted in the summary, not printed)")
    c.add_argument("--warnings", "-W", action="store_false", dest="no_warnings",
                   help="show warnings too (the default)")
    d = sub.add_parser("dump", help="print the typed AST", description="Print the AST of the elements.")
    d.add_argument("paths", nargs="+", metavar="PATH", help="element files or folders (folders give context)")
    d.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the AST as Python values (default); json: the schema of docs/wwrf-ast.md")
    d.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")
    d.add_argument("--no-spans", action="store_true", help="leave source spans out of the JSON")
    f = sub.add_parser("fmt", help="print canonical WWRF text", description="Print elements in canonical form.")
    f.add_argument("paths", nargs="+", metavar="PATH", help="element files or folders")
    f.add_argument("--write", action="store_true", help="rewrite the files instead of printing")
    r = sub.add_parser("render", help="render a book into a werewolf game folder",
                       description="Render a WWRF book (a folder of element files) into a game folder of the "
                       "werewolf profile: game.yaml, cards.yaml (one card per element) and rules/*.ini. A line "
                       "the renderer cannot render is reported as a located WW401 'not supported' error.")
    r.add_argument("book", metavar="BOOK", help="the folder of WWRF element files")
    r.add_argument("-o", "--output", required=True, metavar="GAME", help="the game folder to write")
    r.add_argument("--name", help="the game's name in game.yaml (default: the book folder's name)")
    r.add_argument("--report", action="store_true",
                   help="print coverage: how often each ability type, trigger, selector and condition form was rendered")
    r.add_argument("--check", action="store_true", help="write nothing; exit 1 if the game folder is not up to date")
    return p


def _cmd_render(args: argparse.Namespace) -> int:
    from .render import render_book

    book = cliutil.input_folder(args.book, "book folder")
    if not args.check:
        cliutil.output_folder(args.output, writable=True)
    result = render_book(book, args.output, name=args.name, write=not args.check)
    for d in result.diagnostics:
        print(render(d, result.sources.get(d.span.file)))
    if args.report:
        print(coverage_report(result.coverage))
    unsupported = len(result.unsupported)
    errors = sum(1 for d in result.diagnostics if d.is_error)
    if args.check:
        stale = [rel for rel, text in result.files.items()
                 if not (Path(args.output) / rel).is_file() or (Path(args.output) / rel).read_text(encoding="utf-8") != text]
        if stale:
            print(f"wwrf: {args.output} is out of date ({', '.join(stale)}): run wwrf render {args.book} -o {args.output}",
                  file=sys.stderr)
            return EXIT_ERRORS
    sections = sum(len(r.sections) for r in result.elements)
    print(f"{len(result.elements)} element(s), {sections} rule section(s); {unsupported} not supported, "
          f"{errors} error(s)" + ("" if args.check else "; " + _written(result, args.output)), file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


def _written(result, out: str) -> str:
    """What ``wwrf render`` wrote: the files changed, or nothing and why."""
    if result.written is None:
        n = len(result.blocking)
        return (f"nothing written to {out}: {n} error(s) that would make the rules wrong (the book's own, or "
                "two elements with one id); fix them and render again")
    if not result.written:
        return f"{out} is up to date (nothing changed)"
    return f"written to {out} ({len(result.written)} file(s) changed)"


def coverage_report(cov) -> str:
    """Coverage per category (ability type, trigger, selector, condition form, ...): name and count."""
    lines = []
    for cat in sorted(cov.counts):
        lines.append(f"{cat}:")
        for name, n in sorted(cov.counts[cat].items()):
            lines.append(f"  {name:<40} {n}")
    return "\n".join(lines)


def _load(paths: list[str]) -> "Project":
    from .project import load_project

    for p in paths:
        try:
            found = Path(p).exists()
        except (OSError, ValueError):
            found = False
        if not found:
            raise UsageError(f"no such file or folder: {p}")
    return load_project(list(paths), siblings=True)


def _check_books(project: "Project", paths: list[str], forced: bool) -> None:
    """Check each book among the paths as a game (bookcheck.py): a folder with a role-lists.yaml, or
    every folder with --book.  Its unknown references become errors (WW920), in
    place of the element-level WW907 warnings."""
    from .bookcheck import check_book, is_book

    books = [Path(p) for p in paths if Path(p).is_dir() and (forced or is_book(Path(p)))]
    if not books:
        return
    found = []
    for book in books:
        found.extend(check_book(project, book))
    project.diagnostics = [d for d in project.diagnostics if d.code != "WW907"] + found


def _summary(project: "Project", warnings_shown: bool) -> str:
    """``ok: 12 files; 1 error, 2 warnings; 3 files skipped (no element header)``."""
    errors = sum(1 for d in project.diagnostics if d.is_error)
    warnings = sum(1 for d in project.diagnostics if d.severity == "warning")
    extra = f"; {cliutil.plural(len(project.skipped), 'file')} skipped (no element header)" if project.skipped else ""
    return cliutil.summary(not errors, cliutil.plural(len(project.files), "file"), errors, warnings, warnings_shown,
                           use_colour(sys.stderr), extra)


def main(argv: Sequence[str] | None = None) -> int:
    return cliutil.run_main("wwrf", _main, argv)


def _main(argv: list[str]) -> int:
    args = cliutil.parse_command(_parser(), argv, "check, dump, fmt or render")
    if isinstance(args, int):
        return args
    if args.command == "render":
        return _cmd_render(args)
    project = _load(args.paths)
    if args.command == "check":
        _check_books(project, args.paths, args.book)
    diags = project.diagnostics
    colour = use_colour(sys.stdout)
    if args.command == "check":
        shown = [d for d in diags if d.is_error or not args.no_warnings]
        if args.format == "json":
            print(to_json(shown))
        else:
            for d in shown:
                print(colour_diagnostics(render(d, project.sources.get(d.span.file)), colour))
            print(_summary(project, warnings_shown=not args.no_warnings), file=sys.stderr)
        return EXIT_ERRORS if project.has_errors else EXIT_OK
    wanted = set(project.files)
    elements = [el for el in project.elements.values() if el.file in wanted]
    if args.command == "dump":
        from .jsonout import to_data

        if args.format == "json":
            data = to_data(elements, spans=not args.no_spans)
            import json

            print(json.dumps(data if len(elements) != 1 else data[0], ensure_ascii=False, indent=2))
        else:
            for el in elements:
                print(repr(el))
        for d in diags:
            if d.is_error:
                print(colour_diagnostics(render(d, project.sources.get(d.span.file)), use_colour(sys.stderr)),
                      file=sys.stderr)
        return EXIT_ERRORS if project.has_errors else EXIT_OK
    from .fmt import format_element

    if project.has_errors:
        for d in diags:
            if d.is_error:
                print(colour_diagnostics(render(d, project.sources.get(d.span.file)), use_colour(sys.stderr)),
                      file=sys.stderr)
        print("wwrf: not formatting files with errors", file=sys.stderr)
        return EXIT_ERRORS
    for el in elements:
        text = format_element(el)
        if args.write:
            _rewrite(Path(el.file), text)
        else:
            sys.stdout.write(text)
            if len(elements) > 1:
                sys.stdout.write("\n")
    return EXIT_OK


def _rewrite(path: Path, text: str) -> None:
    """Write canonical text over a file, keeping its line endings (LF or CRLF), its encoding (UTF-8,
    UTF-16 or UTF-32 by its byte-order mark) and its permissions; atomically."""
    from rulescript.textfile import bom_of

    original = path.read_bytes()
    bom, codec = bom_of(original)
    if "\r\n" in original[len(bom):].decode(codec, errors="replace"):
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    data = bom + text.encode(codec)
    if data != original:
        cliutil.write_atomic(path, data)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
