"""Exit statuses of the ``aiwolf`` command and the error for user mistakes (shared by its subcommands)."""
from __future__ import annotations

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A user mistake in the command line or an unreadable file: exit 2 with this message."""
