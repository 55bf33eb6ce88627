"""``rulescript lsp [--stdio]``: start the language server on standard input and output.

The server needs pygls and lsprotocol (the ``lsp`` extra: ``pip install 'rulescript-bridge[lsp]'``);
without them the command says so (exit status 2) instead of failing on an import.
"""

from __future__ import annotations

import argparse
import os
import sys

from rulescript import cliutil
from rulescript.cliutil import UsageError


def main_lsp(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="rulescript lsp",
        description="Start the RuleScript language server on standard input and output (the Language Server "
        "Protocol). Editors start it; see docs/editors.md. It serves rule files, cards.yaml, game.yaml, "
        "scenario files and WWRF element files: diagnostics as you type, hover, completion, go to definition, "
        "references, quick fixes, outline and WWRF formatting.",
        epilog=cliutil.EXIT_STATUS_HELP)
    parser.add_argument("--stdio", action="store_true", help="use standard input and output (the default and "
                        "only transport; accepted because editors pass it)")
    args = cliutil.parse_args(parser, list(argv or []))
    if isinstance(args, int):
        return args
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("the language server needs pygls and lsprotocol: pip install 'rulescript-bridge[lsp]'") \
            from None
    from rulescript.lsp.server import build_server

    build_server().start_io(sys.stdin.buffer, sys.stdout.buffer)
    if sys.stdout.closed:  # pygls closes the stream at the client's exit: nothing more is written
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    return cliutil.EXIT_OK
