"""The RuleScript language server (``rulescript lsp``): the compiler's and the WWRF front end's
knowledge in any editor, over the Language Server Protocol on stdio.

It is not a second checker: every diagnostic comes from the project's own checkers run on the
editor's unsaved buffers (:mod:`rulescript.lsp.checks`).  Modules: ``workspace`` (what a file is,
the buffers), ``checks`` (diagnostics), ``vocab`` (a profile's words), ``gameindex`` and
``bookindex`` (where card ids and WWRF names are), ``names`` (the name under the cursor), ``hover``,
``complete``, ``navigate``, ``actions`` (quick fixes), ``outline`` (symbols, WWRF formatting),
``positions`` (spans ↔ protocol ranges) and ``server`` (the protocol wiring).
"""
