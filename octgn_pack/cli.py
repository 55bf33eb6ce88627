"""The ``octgn-pack`` command line: build, validate and deploy OCTGN packages of RuleScript games.

Exit codes: 0 success, 1 errors in the input (nothing written), 2 usage or I/O errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from rulescript import cliutil
from rulescript.diagnostics import render, to_json

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2

DESCRIPTION = """\
Package a RuleScript game folder (game.yaml, cards.yaml, rules/*.ini, decks/*.yaml) as an OCTGN game.

  octgn-pack build GAME -o DIST         write DIST/<name>-<version>.o8g and the same bytes as .nupkg
  octgn-pack validate PACKAGE|DIR       check a package or folder against OCTGN's rules
  octgn-pack deploy GAME --data DIR     install the game straight into an OCTGN data folder

In OCTGN: "Add o8g" with the .o8g, then Install it from the local feed (see docs/octgn.md).
"""


def _progress(quiet: bool):  # type: ignore[no-untyped-def]
    if quiet:
        return None
    return lambda msg: print(f"  {msg}...", file=sys.stderr, flush=True)


def _show(diags: list, sources: dict, ok: bool, args: argparse.Namespace, warnings: bool = False) -> None:
    """Print the errors (and with -W, ``warnings`` or on failure, the warnings too) as text on stderr or
    JSON on stdout."""
    shown = diags if warnings or getattr(args, "warnings", False) or not ok else [d for d in diags if d.is_error]
    if getattr(args, "format", "text") == "json":
        print(to_json(shown))
        return
    text = "\n\n".join(render(d, sources.get(d.span.file)) for d in shown)
    if text:
        print(text + "\n", file=sys.stderr)


def cmd_build(args: argparse.Namespace) -> int:
    from octgn_pack.build import build, summary

    game = Path(args.game)
    if not game.is_dir():
        print(f"octgn-pack: error: no such game folder: {args.game}", file=sys.stderr)
        return EXIT_USAGE
    try:
        cliutil.output_folder(args.output, writable=True)  # before the build
    except cliutil.UsageError as exc:
        print(f"octgn-pack: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        b = build(game, args.output, _progress(args.quiet or args.format == "json"), check_py27=not args.no_py27)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"octgn-pack: error: cannot write the package: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    _show(b.diagnostics, b.sources, b.ok, args, warnings=True)  # a build's warnings are about the package
    if b.report is not None and b.report.py27:
        print(f"  {b.report.py27}", file=sys.stderr)
    print(summary(b), file=sys.stderr)
    for path in b.written:
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK if b.ok else EXIT_ERRORS


PACKAGE_SUFFIXES = (".o8g", ".nupkg")


def _not_a_package_folder(folder: Path) -> str | None:
    """Why a folder is neither an (unpacked or installed) package nor a game folder, listing the
    packages found in it; None when it is one of those."""
    if not folder.is_dir() or any((folder / n).exists() for n in ("def", "definition.xml", "game.yaml")):
        return None
    found = sorted(p for p in folder.rglob("*") if p.suffix.lower() in PACKAGE_SUFFIXES and p.is_file())
    listed = (f"; packages found in it: {', '.join(str(p) for p in found[:10])}"
              + (f" and {len(found) - 10} more" if len(found) > 10 else "")) if found else \
        "; it holds no .o8g or .nupkg package"
    return (f"{folder} is not a package: give a package file (.o8g or .nupkg), an unpacked package (a folder "
            f"holding def/) or an installed game (GameDatabase/<game guid>/){listed}")


def cmd_validate(args: argparse.Namespace) -> int:
    from octgn_pack.validate import LoadError, validate_path

    why = _not_a_package_folder(Path(args.package))
    if why is not None:
        print(f"octgn-pack: error: {why}", file=sys.stderr)
        return EXIT_USAGE
    try:
        r = validate_path(args.package, check_py27=not args.no_py27)
    except (LoadError, OSError) as exc:
        print(f"octgn-pack: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _show(r.diagnostics, r.sources, r.ok, args)
    print(f"  {r.py27}", file=sys.stderr)
    errors = len(r.errors)
    warnings = len(r.diagnostics) - errors
    print(("ok" if r.ok else "FAILED") + f": {args.package}: {r.files} files; {errors} errors, {warnings} warnings",
          file=sys.stderr)
    return EXIT_OK if r.ok else EXIT_ERRORS


def cmd_deploy(args: argparse.Namespace) -> int:
    from octgn_pack.build import summary
    from octgn_pack.deploy import DeployError, deploy

    if not Path(args.game).is_dir():
        print(f"octgn-pack: error: no such game folder: {args.game}", file=sys.stderr)
        return EXIT_USAGE
    try:
        d = deploy(args.game, args.data, _progress(args.quiet), check_py27=not args.no_py27, replace=args.replace)
    except DeployError as exc:
        print(f"octgn-pack: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    b = d.build
    _show(b.diagnostics, b.sources, b.ok, args)
    if not b.ok:
        print(summary(b).replace("no package written", f"nothing installed in {args.data}"), file=sys.stderr)
        return EXIT_ERRORS
    print(f"installed {b.project.name} {b.project.version} into {d.game_dir} ({len(d.files)} files)", file=sys.stderr)
    print("  restart OCTGN (or use developer mode's reload scripts after 'rulescript watch GAME --octgn "
          f"{args.data}') to see it", file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = cliutil.CommandParser(prog="octgn-pack", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Exit codes: 0 ok, 1 errors in the input (nothing written), 2 usage or "
                                     "I/O errors, 3 an internal error (a crash report is written), 130 interrupted.  'octgn-pack "
                                     "COMMAND --help' explains each command.")
    cliutil.add_version(parser, "octgn-pack")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p: argparse.ArgumentParser, fmt: bool = True, quiet: bool = True) -> None:
        if fmt:
            p.add_argument("--format", choices=["text", "json"], default="text", help="diagnostics as text or JSON")
        if quiet:
            p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
        p.add_argument("--warnings", "-W", action="store_true", help="also show warnings (build always does)")
        p.add_argument("--no-py27", action="store_true",
                       help="skip compiling the scripts with Python 2.7 (done when python2.7 or $PYTHON27 exists)")

    p = sub.add_parser("build", help="build GAME into DIST/<name>-<version>.o8g and .nupkg",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Build an OCTGN package from a game folder: definition.xml (table, piles, "
                       "counters, phases, markers, card properties, menus, events), one set.xml per set, the decks "
                       "as .o8d, a proxy template that prints each card's name, type, stats and text, a card back, "
                       "the engine and the compiled rules as scripts.\n\nThe package is validated first (as "
                       "'octgn-pack validate' does); when anything fails, the problems are printed with file, line "
                       "and column and nothing is written.  Two builds of the same game are byte-identical.  The "
                       "file name carries the four-part version of game.yaml: bump 'version' there so that OCTGN "
                       "updates an installed game.")
    p.add_argument("game", metavar="GAME", help="the game folder")
    p.add_argument("-o", "--output", metavar="DIST", default="dist", help="output folder (default: dist)")
    common(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("validate", help="check a package (.o8g/.nupkg) or folder against OCTGN's rules",
                       description="Check a package or folder the way OCTGN and its build tool (o8build) would, and "
                       "more: the NuGet/OPC parts, definition.xml (required attributes, four-part versions, "
                       "True/False booleans, GUIDs, reserved and duplicate property names, files that exist, deck "
                       "sections, key gestures), every set.xml (declared properties, element order, rich text), "
                       "every deck (its cards are in a set), and every script compiled by Python 2.7 (skipped, with "
                       "a note, when no python2.7 is found).  A folder may hold def/ (an unpacked package) or be an "
                       "installed game (GameDatabase/<guid>).")
    p.add_argument("package", metavar="PACKAGE|DIR", help="a .o8g/.nupkg file or a folder")
    common(p, quiet=False)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("deploy", help="install GAME into an OCTGN data folder (development)",
                       description="Build GAME and install it into an OCTGN data folder the way OCTGN does: "
                       "GameDatabase/<game guid>/ (definition, scripts, sets), ImageDatabase/<game guid>/ (card "
                       "images), Decks/<game name>/ (decks).  The installed game folder is replaced as a whole.  "
                       "Nothing is installed when the package does not validate.  Then 'rulescript watch GAME "
                       "--octgn DIR' keeps Scripts/rules.py up to date for developer mode's reload scripts.")
    p.add_argument("game", metavar="GAME", help="the game folder")
    p.add_argument("--data", required=True, metavar="DIR",
                   help="the OCTGN data folder (%%OCTGN_DATA%%, or Documents\\Octgn)")
    p.add_argument("--replace", action="store_true",
                   help="replace another game installed under the same id (by default that is an error)")
    common(p, fmt=False)
    p.set_defaults(func=cmd_deploy)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return cliutil.run_main("octgn-pack", _main, argv)


def _main(argv: list[str]) -> int:
    args = cliutil.parse_command(build_parser(), argv, "build, validate or deploy")
    return args if isinstance(args, int) else int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
