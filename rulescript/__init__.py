"""RuleScript: a compiler from INI card rules to a validated IR, and the engine that runs it.

This file is read by Python 2.7 too (the runtime and the games ship inside OCTGN packages and are
imported as ``rulescript.runtime`` and ``rulescript.games.<name>``), so it imports nothing at load
time and keeps to the common subset of Python 2.7 and 3.
"""
from __future__ import absolute_import, division, print_function

__version__ = "0.1.0"

__all__ = ["compile_file", "compile_text", "__version__"]


def compile_file(path, profile="cfc", **kwargs):
    """Compile one rule file (see :func:`rulescript.compiler.compile_file`)."""
    from rulescript.compiler import compile_file as _compile_file

    return _compile_file(path, profile=profile, **kwargs)


def compile_text(text, profile="cfc", filename="<text>", **kwargs):
    """Compile rule text (see :func:`rulescript.compiler.compile_text`)."""
    from rulescript.compiler import compile_text as _compile_text

    return _compile_text(text, profile=profile, filename=filename, **kwargs)
