"""Plain data helpers: copying, checking, snapshots.

Plain data is dict, list, str, int, bool and None (tuples are tolerated when copying). The game
state is plain data so that it can be copied, compared, written with repr() and read back with a
literal parser.
"""
from __future__ import absolute_import, division, print_function

# Python 2 has two text types (str, unicode) and two int types (int, long); these expressions give
# them without naming them, and collapse to (str,) / (int,) on Python 3.
_TEXT = tuple(set([str, type("".encode("ascii").decode("ascii"))]))
_INTS = tuple(set([int, type(2 ** 64)]))

_ATOMS = _TEXT + _INTS + (bool, type(None))


def deep_copy(x):
    """Return an independent copy of plain data ``x`` (fast path for dicts and lists)."""
    t = type(x)
    if t is dict:
        out = {}
        for k, v in x.items():
            tv = type(v)
            if tv is dict or tv is list or tv is tuple:
                out[k] = deep_copy(v)
            else:
                out[k] = v
        return out
    if t is list:
        out = []
        add = out.append
        for v in x:
            tv = type(v)
            if tv is dict or tv is list or tv is tuple:
                add(deep_copy(v))
            else:
                add(v)
        return out
    if t is tuple:
        return tuple([deep_copy(v) for v in x])
    return x


def is_plain(x):
    """True if ``x`` is made only of dicts (with text or int keys), lists, text, ints, bools, None."""
    t = type(x)
    if t is dict:
        for k, v in x.items():
            if not isinstance(k, _TEXT + _INTS):
                return False
            if not is_plain(v):
                return False
        return True
    if t is list:
        for v in x:
            if not is_plain(v):
                return False
        return True
    return isinstance(x, _ATOMS)


def snapshot(state, skip=(), copier=None):
    """A copy of ``state`` to restore later with :func:`restore`; keys in ``skip`` are left out
    (pass the same keys as ``keep`` to :func:`restore`), e.g. the append-only decision log.
    ``copier`` replaces :func:`deep_copy` (a host may give a faster one for plain data)."""
    if copier is not None:  # one call: a host copier is fastest on the whole tree at once
        top = dict(state)
        for k in skip:
            top.pop(k, None)
        return copier(top)
    out = {}
    for k, v in state.items():
        if k not in skip:
            out[k] = deep_copy(v)
    return out


def restore(state, snap, keep=()):
    """Make the dict ``state`` equal to ``snap`` again, in place, and return it.

    Containers present in both are updated in place rather than replaced, so references that
    the game flow holds into the state (a player dict, the cards table, a card) stay valid after
    a rule engine rolls a resolution back. Keys listed in ``keep`` keep their current value:
    pass ``keep=("log",)`` so that the decisions a failed resolution asked stay recorded.
    The state must be a tree (no dict or list reachable twice), as the game keeps it.
    """
    for k in list(state.keys()):
        if k not in snap and k not in keep:
            del state[k]
    for k, v in snap.items():
        if k in keep:
            continue
        _sync_item(state, k, v)
    return state


def _sync_item(container, key, v):
    """container[key] := copy of v, reusing the existing dict/list there when the types match."""
    tv = type(v)
    if tv is dict or tv is list:
        cur = container[key] if _has(container, key) else None
        if type(cur) is tv:
            if tv is dict:
                _sync_dict(cur, v)
            else:
                _sync_list(cur, v)
            return
    if type(container) is list and key >= len(container):
        container.append(deep_copy(v))
    else:
        container[key] = deep_copy(v)


def _has(container, key):
    if type(container) is dict:
        return key in container
    return key < len(container)


def _sync_dict(cur, snap):
    for k in list(cur.keys()):
        if k not in snap:
            del cur[k]
    for k, v in snap.items():
        _sync_item(cur, k, v)


def _sync_list(cur, snap):
    del cur[len(snap):]
    for i in range(len(snap)):
        _sync_item(cur, i, snap[i])


def is_tree(x):
    """True if no dict or list is reachable twice inside ``x`` (what :func:`restore` needs)."""
    seen = set()
    stack = [x]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is dict or t is list:
            if id(v) in seen:
                return False
            seen.add(id(v))
            if t is dict:
                stack.extend(v.values())
            else:
                stack.extend(v)
    return True
