"""Migration from existing OCTGN plugins, one module per step:

``pysource``  reads the plugin's rules dict from its Python source (with ``ast``, never executed)
``setxml``    reads the plugin's ``set.xml`` card data and writes ``cards.yaml`` / ``game.yaml``
``rewrite``   the compatibility rewrites from the original engine's dialect to this compiler's
``migrate``   the whole import: convert, check, report, and write the game folder atomically
"""
from __future__ import annotations

from rulescript.importer.migrate import (ImportReport, ImportUsageError, add_arguments, build_parser, cmd_import,
                                         import_plugin, main_import)

__all__ = ["ImportReport", "ImportUsageError", "add_arguments", "build_parser", "cmd_import", "import_plugin",
           "main_import"]
