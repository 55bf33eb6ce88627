"""``wwrf`` command line: check, dump and fmt WWRF element files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from rulescript.diagnostics import render, to_json

if TYPE_CHECKING:
    from .project import Project

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2

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
  wwrf dump roles/seer --json         the typed AST of one element as JSON
  wwrf fmt roles/seer                 canonical WWRF text on stdout
  wwrf fmt --write roles/             rewrite files in canonical form
  wwrf render roles/ -o game/ --report  render a book into a werewolf game folder

exit status: 0 no errors, 1 errors found, 2 usage error (bad option, missing path)."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wwrf", description=_DESCRIPTION, epilog=_EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="parse and type-check files or folders; report diagnostics",
                       description="Parse every element and report all errors and warnings.")
    c.add_argument("paths", nargs="+", metavar="PATH", help="element files or folders")
    c.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: file:line:col with the source line and a caret (default); json: a list")
    c.add_argument("--no-warnings", action="store_true",
                   help="report errors only (warnings and notes are neither printed nor counted)")
    d = sub.add_parser("dump", help="print the typed AST", description="Print the AST of the elements.")
    d.add_argument("paths", nargs="+", metavar="PATH", help="element files or folders (folders give context)")
    d.add_argument("--json", action="store_true", help="JSON output (the schema is docs/wwrf-ast.md)")
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

    book = Path(args.book)
    if not book.is_dir():
        print(f"wwrf: error: no such book folder: {args.book}", file=sys.stderr)
        return EXIT_USAGE
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
          f"{errors} error(s)" + ("" if args.check else f"; written to {args.output}"), file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


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

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise FileNotFoundError(", ".join(missing))
    return load_project(list(paths), siblings=True)


def _summary(project: "Project", warnings: bool) -> str:
    """``12 file(s): 1 error(s), 2 warning(s); 3 file(s) skipped (no element header)``."""
    errors = sum(1 for d in project.diagnostics if d.is_error)
    text = f"{len(project.files)} file(s): {errors} error(s)"
    if warnings:
        text += f", {sum(1 for d in project.diagnostics if d.severity == 'warning')} warning(s)"
    if project.skipped:
        text += f"; {len(project.skipped)} file(s) skipped (no element header)"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("wwrf: error: a command is required (check, dump, fmt or render)", file=sys.stderr)
        return EXIT_USAGE
    if args.command == "render":
        return _cmd_render(args)
    try:
        project = _load(args.paths)
    except FileNotFoundError as exc:
        print(f"wwrf: error: no such file or folder: {exc}", file=sys.stderr)
        return EXIT_USAGE
    diags = project.diagnostics
    if args.command == "check":
        shown = [d for d in diags if d.is_error or not args.no_warnings]
        if args.format == "json":
            print(to_json(shown))
        else:
            for d in shown:
                print(render(d, project.sources.get(d.span.file)))
            print(_summary(project, warnings=not args.no_warnings), file=sys.stderr)
        return EXIT_ERRORS if project.has_errors else EXIT_OK
    wanted = set(project.files)
    elements = [el for el in project.elements.values() if el.file in wanted]
    if args.command == "dump":
        from .jsonout import to_data

        if args.json:
            data = to_data(elements, spans=not args.no_spans)
            import json

            print(json.dumps(data if len(elements) != 1 else data[0], ensure_ascii=False, indent=2))
        else:
            for el in elements:
                print(repr(el))
        for d in diags:
            if d.is_error:
                print(render(d, project.sources.get(d.span.file)), file=sys.stderr)
        return EXIT_ERRORS if project.has_errors else EXIT_OK
    from .fmt import format_element

    if project.has_errors:
        for d in diags:
            if d.is_error:
                print(render(d, project.sources.get(d.span.file)), file=sys.stderr)
        print("wwrf: not formatting files with errors", file=sys.stderr)
        return EXIT_ERRORS
    for el in elements:
        text = format_element(el)
        if args.write:
            Path(el.file).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
            if len(elements) > 1:
                sys.stdout.write("\n")
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
