"""The OCTGN host: the RuleScript engine inside an OCTGN game (IronPython 2.7).

Written in the common subset of Python 2.7 and 3; imports only ``rulescript.runtime``,
``rulescript.games`` and itself.  Nothing here knows a particular game: the game package
(``rulescript.games.<profile>``: ``Game``, ``commands``, ``VOCAB`` and its table face ``table``) brings
everything game-specific.  Modules:

``manifest``   what the package declares for the host (events, menus, variables), read by the builder
``glue``       the functions OCTGN calls by name, installed into the scripts' namespace
``host``       the host: OCTGN events, menus and dialogs <-> the engine's ports; lockstep multiplayer
``lockstep``   one game as a replay of its inputs (the engine of one client)
``codec``      inputs as sandbox-safe text, and the checksum of an engine state
``dialogs``    decisions asked with OCTGN's dialogs
``tablesync``  the engine's table view written onto the shared table

See docs/octgn-host.md.
"""
from __future__ import absolute_import, division, print_function
