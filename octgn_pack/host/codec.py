"""Inputs as text: what OCTGN clients send each other, and the checksum of an engine state.

Clients exchange only the *inputs* of a game (docs/octgn-host.md).  An input is one short item of
plain ASCII text; a log is items joined by ``;``.  Items never hold ``"``, ``\\``, ``'``, a newline or
a space, so they pass OCTGN's ``remoteCall`` sandbox and fit in a global variable:

``S<format>,<build>,<pid>:<end>:<commitment>:<cards>,...``
    the start: the build fingerprint, and for each seat (in seat order) the OCTGN player id, the end
    of the seat's hash chain and the commitment to its seed share (:mod:`auth`), and the OCTGN ids of
    the cards of that player's deck in canonical (ascending) order, written as ranges
    (``65537-65586.65600``)
``R<seat>~<share>``  the seat's seed share (every seat's, in seat order, follow the start)
``<i>``      the answer to the pending decision: the index of the chosen option
``<i>.<j>``  the answer to a list decision (``choose_targets``, ``arrange``): the indexes in order;
             ``e`` is the empty list
``n``        None (a cancelled decision that allows cancelling)
``Q<seat>``  the player of that seat concedes

Every input after the start carries the token of its seat (``3~<token>``, :mod:`auth`).  Every client
computes the same decision requests (the engines run in lockstep), so an index is all an answer
needs, whatever the option holds.  Items are checked for size and shape before anything is expanded
(``MAX_ITEM``, ``MAX_START``, decks of at most ``MAX_DECK`` cards): a bad item is an ``InputError``,
never a ``MemoryError`` or a hang.
"""
from __future__ import absolute_import, division, print_function

from rulescript.runtime.errors import Interrupt
from rulescript.runtime.ports import LIST_KINDS, index_of

FORMAT = "2"
SEP = ";"
PROOF = "~"
MAX_ITEM = 160           # characters of an item other than the start
MAX_START = 1 << 16      # characters of the start item
MAX_DECK = 1000          # cards of one seat's deck (a table face may allow fewer: DECK_MAX)
MAX_SEATS = 64
MAX_DIGITS = 9           # digits of an index, a seat, a count in an item
BACKSLASH = chr(92)
TRIPLE = chr(39) * 3
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_TEXT = tuple(set([str, type("".encode("ascii").decode("ascii"))]))
_ITEM_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-,:~")


class InputError(Interrupt):
    """An input that does not fit the game where it arrives (a desync, or a corrupt message).  An
    ``Interrupt``: raised by the decider inside a resolution, it unwinds the run untouched (a rule
    engine does not take it for a rule error)."""


class Forged(InputError):
    """An input refused the same way on every client: its token or share does not prove the seat it
    claims, or it is malformed (``seat``: the seat it claims, or None)."""

    def __init__(self, seat, why, item=""):
        InputError.__init__(self, why)
        self.seat = seat
        self.why = why
        self.item = item


def _small_int(text):
    """``int(text)`` for a short run of digits, else None."""
    if not text or len(text) > MAX_DIGITS or not text.isdigit():
        return None
    return int(text)


def sign(payload, proof):
    """An item: its payload and the proof of its seat (``payload~proof``)."""
    return payload + PROOF + proof


def unsign(item):
    """``(payload, proof)`` of an item (``proof`` is "" when there is none)."""
    payload, _, proof = item.partition(PROOF)
    return payload, proof


def check_item(item, seat=None):
    """Raise ``Forged`` when an item from another client is too long or holds characters no item
    holds (before anything reads it)."""
    limit = MAX_START if item[:1] == "S" else MAX_ITEM
    if not item or len(item) > limit:
        raise Forged(seat, "an item of %d characters" % len(item), item[:40])
    for c in item:
        if c not in _ITEM_CHARS:
            raise Forged(seat, "an item with the character %r" % c, item[:40])


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
    i = _small_int(text)
    if i is None or i >= len(options):
        raise InputError("input %r does not name one of the %d options of %s" % (text[:20], len(options), kind))
    return i


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
        parts = item.split(".", len(options))
        if len(parts) > len(options):
            raise InputError("input of more than %d indexes for %s" % (len(options), kind))
        return [options[_index(p, options, kind)] for p in parts]
    return options[_index(item, options, kind)]


def concede_item(seat):
    return "Q%d" % seat


def conceding_seat(item):
    """The seat of a concede item, or None for another item."""
    if item[:1] == "Q":
        return _small_int(item[1:])
    return None


def reveal_item(seat, share):
    return sign("R%d" % seat, share)


def revealing_seat(item):
    """The seat of a seed-share item, or None for another item."""
    if item[:1] == "R":
        return _small_int(unsign(item)[0][1:])
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


def decode_ranges(text, limit=MAX_DECK):
    """The ids of :func:`encode_ranges`; at most ``limit`` of them, ascending (else InputError), checked
    before anything is expanded."""
    out = []
    if not text:
        return out
    parts = text.split(".", limit)
    if len(parts) > limit:
        raise InputError("more than %d card ranges" % limit)
    bounds = []
    total = 0
    for part in parts:
        lo, _, hi = part.partition("-")
        a = _small_int(lo)
        b = _small_int(hi) if hi else a
        if a is None or b is None or b < a or (bounds and a <= bounds[-1][1]):
            raise InputError("bad card range %r" % part[:30])
        total += b - a + 1
        if total > limit:
            raise InputError("more than %d cards in a deck" % limit)
        bounds.append((a, b))
    for a, b in bounds:
        out.extend(range(a, b + 1))
    return out


def encode_start(build, seats):
    """The start item.  ``seats``: ``[(player id, chain end, share commitment, [card ids])]`` in seat
    order."""
    parts = ["S" + FORMAT, token(build)]
    for pid, end, commitment, cards in seats:
        parts.append("%d:%s:%s:%s" % (pid, end, commitment, encode_ranges(cards)))
    return ",".join(parts)


def decode_start(item, deck_limit=MAX_DECK):
    """``{"format", "build", "seats": [{"pid", "end", "commitment", "cards"}]}`` (raises InputError)."""
    if len(item) > MAX_START:
        raise InputError("a start item of %d characters" % len(item))
    parts = item.split(",", MAX_SEATS + 2)
    if len(parts) < 2 or parts[0][:1] != "S":
        raise InputError("not a start item: %r" % item[:40])
    if parts[0][1:] != FORMAT:
        raise InputError("start item of format %r; this host reads format %s" % (parts[0][1:40], FORMAT))
    if len(parts) > MAX_SEATS + 2:
        raise InputError("a start item of more than %d seats" % MAX_SEATS)
    seats = []
    for p in parts[2:]:
        fields = p.split(":")
        pid = _small_int(fields[0])
        if len(fields) != 4 or pid is None:
            raise InputError("bad seat %r" % p[:20])
        seats.append({"pid": pid, "end": fields[1], "commitment": fields[2],
                      "cards": decode_ranges(fields[3], deck_limit)})
    return {"format": FORMAT, "build": parts[1], "seats": seats}


# ---------------------------------------------------------------------- global variables
def encode_pairs(pairs):
    """``[(engine iid, OCTGN card id)]`` as ``iid:cid,iid:cid`` (the cards made during the game)."""
    return ",".join(["%d:%d" % (int(a), int(b)) for a, b in pairs])


def decode_pairs(text):
    """The pairs of :func:`encode_pairs` (malformed parts are skipped)."""
    out = []
    for part in (text or "")[:MAX_START].split(","):
        a, colon, b = part.partition(":")
        a, b = _small_int(a), _small_int(b)
        if colon and a is not None and b is not None:
            out.append((a, b))
    return out


def encode_part(first, items):
    """A slice of the log for a global variable: ``<index of its first item>|<items>``."""
    return "%d|%s" % (first, join(items))


def decode_part(text):
    """``(first, items)`` of :func:`encode_part`, or ``(0, [])`` for an empty or malformed value."""
    head, bar, rest = (text or "").partition("|")
    first = _small_int(head)
    if not bar or first is None:
        return 0, []
    return first, split(rest)


def encode_check(count, pid, digest):
    return "%d.%d.%s" % (count, pid, digest)


def decode_check(text):
    """``(count, writer pid, digest)`` or None."""
    parts = (text or "")[:64].split(".")
    if len(parts) != 3 or _small_int(parts[0]) is None or _small_int(parts[1]) is None:
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
    Top-level keys in ``skip`` are left out.

    Each step is FNV's ``(h ^ w) * P``.  A multiplication carries a changed bit only upwards, so a
    32-bit word of a number is spread first, ``w ^ (w >> 16)`` (one-to-one on 32-bit words): a
    difference in its top half then also changes a low bit, which the steps after it carry up.
    Without it a flip of bit 31 stayed bit 31 to the end, and two such flips hid each other."""
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
                w = int(k) & _M
                h = ((h ^ w ^ (w >> 16)) * _P) & _M
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
                w = v & _M
                h = ((h ^ w ^ (w >> 16)) * _P) & _M  # spread: see the docstring
                w = (v >> 32) & _M
                h = ((h ^ w ^ (w >> 16) ^ 0x305) * _P) & _M
    return "%08x" % h


def _key(k):
    if isinstance(k, _TEXT):
        return (1, k, 0)
    return (0, "", k)
