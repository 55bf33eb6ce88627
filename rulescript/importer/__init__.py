"""Migration from existing OCTGN plugins, one module per step:

``plugin``      finds and reads a plugin folder's parts (definition, scripts, sets, decks) as data
``xmlread``     XML with positions, refusing DTDs and entities
``definition``  ``definition.xml``: game id, name, version and the table (piles, counters, phases, card size)
``glyphs``      the plugin's ability glyphs, read from its scripts
``pysource``    reads the plugin's rules dict from its Python source (with ``ast``, never executed)
``setxml``      ``set.xml`` card data → card fields
``decks``       ``.o8d`` decks, checked against the deck rules
``rewrite``     the compatibility rewrites from the original engine's dialect to this compiler's
``yamlout``     ``cards.yaml``, ``game.yaml`` and ``decks/*.yaml`` as written
``migrate``     the whole import: convert, check, report, and write the game folder atomically
"""
from __future__ import annotations

from rulescript.importer.migrate import (ImportReport, ImportUsageError, add_arguments, build_parser, cmd_import,
                                         import_plugin, import_plugin_folder, main_import)

__all__ = ["ImportReport", "ImportUsageError", "add_arguments", "build_parser", "cmd_import", "import_plugin",
           "import_plugin_folder", "main_import"]
