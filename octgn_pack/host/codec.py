"""Inputs as text: what OCTGN clients send each other, and the checksum of an engine state.

Clients exchange only the *inputs* of a game (docs/octgn-host.md).  An input is one short item of
plain ASCII text; a log is items joined by ``;``.  Items never hold ``"``, ``\\``, ``'``, a newline or
a space, so they pass OCTGN's ``remoteCall`` sandbox and fit in a global variable:

``S<format>,<build>,<seed>,<pid>:<cards>,<pid>:<cards>...``
    the start: the build fingerprint, the seed, and for each seat (in seat order) the OCTGN player id
    and the OCTGN ids of the cards of that player's deck in canonical (ascending) order, written as
    ranges (``65537-65586.65600``)
``<i>``      the answer to the pending decision: the index of the chosen option
``<i>.<j>``  the answer to a list decision (``choose_targets``, ``arrange``): the indexes in order;
             ``e`` is the empty list
``n``        None (a cancelled decision that allows cancelling)
``Q<seat>``  the player of that seat concedes

Every client computes the same decision requests (the engines run in lockstep), so an index is all
an answer needs, whatever the option holds.
"""
from __future__ import absolute_import, division, print_function

from rulescript.runtime.ports import LIST_KINDS, index_of

FORMAT = "1"
SEP = ";"
BACKSLASH = chr(92)
TRIPLE = chr(39) * 3
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_TEXT = tuple(set([str, type("".encode("ascii").decode("ascii"))]))


class InputError(Exception):
    """An input that does not fit the game where it arrives (a desync, or a corrupt message)."""


def token(text):
    """``text`` with every character other than a letter, digit, ``.``, ``_`` or ``-`` replaced by
    ``_`` (for fingerprints and names that travel inside items)."""
    return "".join([c if c in _SAFE else "_" for c in str(text)])


def safe_text(text):
    """``text`` as remoteCall's sandbox and global variables accept it: no double quote, backslash,
    newline or triple quote."""
    out = str(text).replace('"', "'").replace(BACKSLASH, "/").replace("\n", " ").replace("\r", " ")
    while TRIPLE in out:
        out = out.replace(TRIPLE, "'")
    return out


def split(text):
    """The items of a log text (the empty text is no item)."""
    if not text:
        return []
    return text.split(SEP)


def join(items):
    return SEP.join(items)


# ---------------------------------------------------------------------- answers
def encode_answer(request, answer):
    """The item for ``answer`` to ``request`` (the answer must be valid for it)."""
    if answer is None:
        return "n"
    options = request["options"]
    if request["kind"] in LIST_KINDS:
        if not answer:
            return "e"
        out = []
        for a in answer:
            i = index_of(options, a)
            if i < 0:
                raise InputError("%r is not an option of %s" % (a, request["kind"]))
            out.append(str(i))
        return ".".join(out)
    i = index_of(options, answer)
    if i < 0:
        raise InputError("%r is not an option of %s" % (answer, request["kind"]))
    return str(i)


def _index(text, options, kind):
    if not text.isdigit() or int(text) >= len(options):
        raise InputError("input %r does not name one of the %d options of %s" % (text, len(options), kind))
    return int(text)


def decode_answer(request, item):
    """The answer an item gives to ``request`` (raises InputError when it does not fit)."""
    kind = request["kind"]
    options = request["options"]
    if item == "n":
        if not request.get("cancel"):
            raise InputError("input cancels %s, which cannot be cancelled" % kind)
        return None
    if kind in LIST_KINDS:
        if item == "e":
            return []
        return [options[_index(p, options, kind)] for p in item.split(".")]
    return options[_index(item, options, kind)]


def is_decision(item):
    return bool(item) and (item[0].isdigit() or item in ("n", "e"))


def concede_item(seat):
    return "Q%d" % seat


def conceding_seat(item):
    """The seat of a concede item, or None for another item."""
    if item[:1] == "Q" and item[1:].isdigit():
        return int(item[1:])
    return None


# ---------------------------------------------------------------------- the start
def encode_ranges(ids):
    """Ascending ints as ranges: [1, 2, 3, 7] -> '1-3.7'."""
    out = []
    i = 0
    ids = sorted(ids)
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return ".".join(out)


def decode_ranges(text):
    out = []
    if not text:
        return out
    for part in text.split("."):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise InputError("bad card range %r" % part)
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def encode_start(build, seed, seats):
    """The start item.  ``seats``: ``[(player id, [card ids])]`` in seat order."""
    parts = ["S" + FORMAT, token(build), str(int(seed))]
    for pid, cards in seats:
        parts.append("%d:%s" % (pid, encode_ranges(cards)))
    return ",".join(parts)


def decode_start(item):
    """``{"format", "build", "seed", "seats": [{"pid", "cards"}]}`` (raises InputError)."""
    parts = item.split(",")
    if len(parts) < 3 or parts[0][:1] != "S":
        raise InputError("not a start item: %r" % item[:40])
    if parts[0][1:] != FORMAT:
        raise InputError("start item of format %r; this host reads format %s" % (parts[0][1:], FORMAT))
    seats = []
    for p in parts[3:]:
        pid, _, cards = p.partition(":")
        if not pid.isdigit():
            raise InputError("bad seat %r" % p[:20])
        seats.append({"pid": int(pid), "cards": decode_ranges(cards)})
    seed = parts[2]
    if not seed.lstrip("-").isdigit():
        raise InputError("bad seed %r" % seed)
    return {"format": FORMAT, "build": parts[1], "seed": int(seed), "seats": seats}


# ---------------------------------------------------------------------- global variables
def encode_pairs(pairs):
    """``[(engine iid, OCTGN card id)]`` as ``iid:cid,iid:cid`` (the cards made during the game)."""
    return ",".join(["%d:%d" % (int(a), int(b)) for a, b in pairs])


def decode_pairs(text):
    """The pairs of :func:`encode_pairs` (malformed parts are skipped)."""
    out = []
    for part in (text or "").split(","):
        a, colon, b = part.partition(":")
        if colon and a.isdigit() and b.isdigit():
            out.append((int(a), int(b)))
    return out


def encode_part(first, items):
    """A slice of the log for a global variable: ``<index of its first item>|<items>``."""
    return "%d|%s" % (first, join(items))


def decode_part(text):
    """``(first, items)`` of :func:`encode_part`, or ``(0, [])`` for an empty or malformed value."""
    head, bar, rest = (text or "").partition("|")
    if not bar or not head.isdigit():
        return 0, []
    return int(head), split(rest)


def encode_check(count, pid, digest):
    return "%d.%d.%s" % (count, pid, digest)


def decode_check(text):
    """``(count, writer pid, digest)`` or None."""
    parts = (text or "").split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1]), parts[2]


# ---------------------------------------------------------------------- checksum
_M = 0xFFFFFFFF
_P = 16777619
_STR = {}


def _text_hash(s):
    h = _STR.get(s)
    if h is None:
        h = 2166136261
        for ch in s:
            h = ((h ^ ord(ch)) * _P) & _M
        if len(_STR) < 4096:
            _STR[s] = h
    return h


def checksum(state, skip=()):
    """A 32-bit digest of plain data (8 hex digits), the same on Python 2.7, 3 and IronPython: dict
    order does not matter, and 1, True and "1" differ.  Dict keys must be all text or all ints.
    Top-level keys in ``skip`` are left out."""
    h = 2166136261
    if skip:
        state = dict((k, v) for k, v in state.items() if k not in skip)
    stack = [state]
    pop = stack.pop
    push = stack.append
    text = _TEXT
    cache = _STR
    while stack:
        x = pop()
        if type(x) is dict:
            try:
                items = sorted(x.items())
            except TypeError:
                items = sorted(x.items(), key=lambda kv: _key(kv[0]))
            h = ((h ^ (0x100 + len(items))) * _P) & _M
        else:
            items = enumerate(x)
            h = ((h ^ (0x200 + len(x))) * _P) & _M
        for k, v in items:
            if not isinstance(k, text):
                h = ((h ^ (int(k) & _M)) * _P) & _M
            else:
                kh = cache.get(k)
                h = ((h ^ (kh if kh is not None else _text_hash(k))) * _P) & _M
            t = type(v)
            if t is dict or t is list or t is tuple:
                push(v)
            elif v is None:
                h = ((h ^ 0x301) * _P) & _M
            elif t is bool:
                h = ((h ^ (0x302 if v else 0x303)) * _P) & _M
            elif isinstance(v, text):
                vh = cache.get(v)
                h = ((h ^ (vh if vh is not None else _text_hash(v)) ^ 0x304) * _P) & _M
            else:
                v = int(v)
                h = ((h ^ (v & _M)) * _P) & _M
                h = ((h ^ ((v >> 32) & _M) ^ 0x305) * _P) & _M
    return "%08x" % h


def _key(k):
    if isinstance(k, _TEXT):
        return (1, k, 0)
    return (0, "", k)
