"""The one way text from a WWRF book reaches a rendered rule file (``rules/<element>.ini``).

File names, element names, the quoted WWRF lines above each section and the texts of string literals
all come from files a user (or anyone who sent them the book) wrote.  A line break in any of them
would end the comment or the key line it is written in, and the rest of the text would be read as
rules (``auto = ~starting~ win()``).  :func:`ini_text` is the only function that turns such text into
rule-file text: every character that ends a line for ``str.splitlines`` (``\\n``, ``\\r``, ``\\x0b``,
``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028``, ``\\u2029``), every other control character and
every lone surrogate (a file name that is not UTF-8) is written as a visible escape (``\\x0b``,
``\\u2028``, ``\\udcff``).  Everything else (``=``, ``:``, ``[``, ``;``, ``#``, leading spaces) is inert
after the ``# `` of a comment line or inside a quoted string, and is kept as written.
"""

from __future__ import annotations

import re

# line breaks (str.splitlines), the other C0/C1 controls but the tab, DEL, and lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def ini_text(text: str) -> str:
    """``text`` as part of one line of a rendered rule file: the characters that could end the line
    (or cannot be written as UTF-8) become visible escapes."""
    return _UNSAFE.sub(_escape, text)


def is_ini_safe(text: str) -> bool:
    """True when :func:`ini_text` leaves ``text`` as it is (a string literal can hold it verbatim)."""
    return _UNSAFE.search(text) is None
