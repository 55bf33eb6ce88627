"""RuleScript: a compiler from INI card rules to a validated IR, and the engine that runs it."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["compile_file", "compile_text", "__version__"]


def compile_file(path: Any, profile: str = "cfc", **kwargs: Any) -> Any:
    """Compile one rule file (see :func:`rulescript.compiler.compile_file`)."""
    from rulescript.compiler import compile_file as _compile_file

    return _compile_file(path, profile=profile, **kwargs)


def compile_text(text: str, profile: str = "cfc", filename: str = "<text>", **kwargs: Any) -> Any:
    """Compile rule text (see :func:`rulescript.compiler.compile_text`)."""
    from rulescript.compiler import compile_text as _compile_text

    return _compile_text(text, profile=profile, filename=filename, **kwargs)
