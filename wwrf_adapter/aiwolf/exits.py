"""Exit statuses of the ``aiwolf`` command and the error for user mistakes (shared by its subcommands):
the same as every command of the project (:mod:`rulescript.cliutil`)."""
from __future__ import annotations

from rulescript.cliutil import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError

__all__ = ["EXIT_ERRORS", "EXIT_OK", "EXIT_USAGE", "UsageError"]
