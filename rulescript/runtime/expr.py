"""The expression evaluator (docs/language.md section 8), game-agnostic.

``evaluate(res, root)`` walks the IR of a root expression (docs/ir.md, "EXPR") and returns a value:
an int (or a float from an inexact ``/``), a string, a bool, None, a list, a Card or a Player.
Everything specific to a game (its context names, attributes and functions) comes from the
vocabulary object ``res.engine.vocab`` (for CFC: ``rulescript/games/cfc/vocab.py``).

Run-time errors are RuleErrors (``res.fail``) with the codes of docs/language.md section 8.9:
RS501 index out of range, RS502 attribute or element of nil, RS503 attribute the object lacks or an
object of the wrong kind, RS504 arithmetic or ordering on the wrong types, RS505 division by zero,
RS506 a non-number where a number is needed; and the limits of docs/runtime.md ("Limits"):
RS511 a number out of range, RS512 a string or list too long, RS513 lists nested too deep,
RS514 the evaluation steps of a resolution used up (``OverBudget``).

Every resolution has a budget (``res.budget``, a one-element list of the steps left, shared by the
nested resolutions of one cascade): each root evaluation costs ``1 + len(text) // 4`` steps, each
element a quantifier or ``each`` visits costs the size of its element expression, and work on data
(joining, comparing, searching, printing lists and strings) costs one step per element or per
``STR_CHUNK`` characters.  The limits are the same on Python 2.7 and 3, so both hosts play the same
game.
"""
from __future__ import absolute_import, division, print_function

from .resolution import MAX_STEPS, Card, OverBudget, Player

_GENERIC_SPELLINGS = {"prevtgt": "prevTgt"}
_DIGITS = "0123456789"

#: The limits of one resolution (docs/runtime.md, "Limits"). Every number a rule computes, converts
#: or passes to a command lies in [-MAX_INT, MAX_INT] (< 2**63: a plain int on every host).
MAX_INT = 10 ** 18 - 1
#: The most characters of a string and elements of a list.
MAX_LEN = 10000
#: The most levels of lists inside lists (``[[1]]`` has two).
MAX_NEST = 32
#: ``round(x, d)``: digits beyond these change nothing (|x| <= MAX_INT).
_ROUND_MIN = -19
_ROUND_MAX = 18
#: characters of string work that cost one step
STR_CHUNK = 16


class Lacks(Exception):
    """Raised by a vocabulary attribute when the object has no such attribute (an Action card has
    no BP); the argument describes the object ("an action card")."""

try:  # Python 2 / IronPython: unicode strings are strings too
    _STR_TYPES = (str, unicode)  # noqa: F821
except NameError:
    _STR_TYPES = (str,)
# Python 2's long (the type of a big int) is an int too
_INT_TYPES = (int,) if type(2 ** 64) is int else (int, type(2 ** 64))


# ---------------------------------------------------------------------------- value helpers
def truthy(v):
    """Truthiness of a RuleScript value (Python's)."""
    return bool(v)


def is_number(v):
    return (isinstance(v, _INT_TYPES) or isinstance(v, float)) and not isinstance(v, bool)


def is_str(v):
    return isinstance(v, _STR_TYPES)


def kind_of(v):
    """A short description of a value's kind, for messages."""
    if v is None:
        return "nil"
    if isinstance(v, bool):
        return "a boolean"
    if is_number(v):
        return "a number"
    if is_str(v):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, Card):
        return "a card"
    if isinstance(v, Player):
        return "a player"
    return "a %s" % type(v).__name__


def _norm(v):
    """An integral float becomes an int (``/`` gives the exact quotient)."""
    if isinstance(v, float) and v == int(v):
        return int(v)
    return v


def equal(a, b, res=None):
    """``==`` on RuleScript values: a bool is not a number, nil equals only nil.  With ``res`` the
    elements compared are charged to its budget."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return False
        if a is b:
            return True
        if res is not None:
            charge(res, len(a))
        for x, y in zip(a, b):
            if not equal(x, y, res):
                return False
        return True
    if isinstance(b, list):
        return False
    if is_number(a):
        return is_number(b) and a == b
    if is_str(a):
        return is_str(b) and a == b
    return a == b


def to_str(res, v, limit=None):
    """``str()`` of a value: a card gives its name, a player its name in the game's vocabulary
    (``vocab.player_name``) or 'player 1', 'player 2'.  A number is written as ``repr`` writes it
    (the same on Python 2.7 and 3).  The text of a list costs one step per element and may not
    grow past ``limit`` characters (default MAX_LEN): past it, :class:`TooLong` is raised."""
    if limit is None:
        limit = MAX_LEN
    if isinstance(v, list):
        parts = []
        size = [0]
        _list_text(res, v, parts, size, limit)
        return "".join(parts)
    return _atom_text(res, v)


class TooLong(Exception):
    """The text of a value would be longer than allowed (raised by to_str)."""


class OutOfRange(Exception):
    """to_str met a number past MAX_INT (only a damaged IR holds one: Python 3 may refuse to print
    it where Python 2 prints it, so no host prints it)."""


def _atom_text(res, v):
    if isinstance(v, Card):
        return res.engine.vocab.card_name(res, v.iid)
    if isinstance(v, Player):
        named = getattr(res.engine.vocab, "player_name", None)
        if named is not None:  # a game that names its players
            return named(res, v.idx)
        return "player %d" % (v.idx + 1)
    if v is None:
        return "None"
    if is_str(v):
        return v
    if v is True or v is False:
        return str(v)
    if is_number(v) and not -MAX_INT <= v <= MAX_INT:
        raise OutOfRange()
    v = _norm(v)
    return repr(v) if isinstance(v, float) else str(v)


def _list_text(res, v, parts, size, limit):
    charge(res, 1 + len(v))
    parts.append("[")
    size[0] += 1
    first = True
    for x in v:
        if not first:
            parts.append(", ")
            size[0] += 2
        first = False
        if isinstance(x, list):
            _list_text(res, x, parts, size, limit)
        else:
            t = _atom_text(res, x)
            parts.append(t)
            size[0] += len(t)
        if size[0] > limit:
            raise TooLong()
    parts.append("]")
    size[0] += 1
    if size[0] > limit:
        raise TooLong()


def nesting(res, v):
    """How many levels of lists ``v`` has (0 for a non-list), counting at most MAX_NEST + 1; each
    list visited costs a step per element."""
    if not isinstance(v, list):
        return 0
    seen = {}
    return _nesting(res, v, seen, 1)


def _nesting(res, v, seen, level):
    key = id(v)
    if key in seen:
        return seen[key]
    if level > MAX_NEST:
        return 1
    charge(res, len(v))
    best = 0
    for x in v:
        if isinstance(x, list):
            d = _nesting(res, x, seen, level + 1)
            if d > best:
                best = d
                if level + best > MAX_NEST:
                    break
    seen[key] = best + 1
    return best + 1


# ---------------------------------------------------------------------------- the budget
def charge(res, n, root=None, node=None):
    """Spend ``n`` steps of the resolution's budget (RS514 when it is used up)."""
    b = res.budget
    b[0] -= n
    if b[0] < 0:
        b[0] = -1
        raise over_budget(res, root, node)


def over_budget(res, root=None, node=None):
    at = _at(root, node) if root is not None else None
    text = root.get("text") if root is not None else None
    return OverBudget("RS514", "this resolution used up its %d evaluation steps (a rule that loops "
                      "over too much, or a trigger cascade that does too much)" % MAX_STEPS,
                      res.file, at, text)


def check_number(res, root, node, v):
    """``v`` if it is in range, else RS511."""
    if -MAX_INT <= v <= MAX_INT:
        return v
    text = node_text(root, node) if node is not None else root.get("text")
    raise fail(res, "RS511", "number out of range in '%s': a rule's numbers stay between -%d and %d"
               % (text, MAX_INT, MAX_INT), root, node, [(text, _short_number(v))])


def _short_number(v):
    if isinstance(v, float):
        return v
    # a huge int is shown by its size (printing it could be the very thing that is too big)
    if -MAX_INT <= v <= MAX_INT:
        return v
    return "a number of about %d digits" % (_bit_length(v) * 30103 // 100000 + 1)


def _bit_length(v):
    try:
        return abs(v).bit_length()
    except AttributeError:  # a host whose ints lack bit_length
        return len("%x" % abs(v)) * 4


def check_length(res, root, node, v, what):
    """RS512 if the string or list ``v`` (or its length ``v`` when an int) is too long."""
    n = v if isinstance(v, _INT_TYPES) else len(v)
    if n <= MAX_LEN:
        return
    text = node_text(root, node) if node is not None else root.get("text")
    unit = "characters" if what == "a string" else "elements"
    raise fail(res, "RS512", "%s too long in '%s': %d %s, at most %d" % (
        what, text, n, unit, MAX_LEN), root, node, [(text, "%s of %d %s" % (what, n, unit))])


def check_nesting(res, root, node, v):
    if nesting(res, v) > MAX_NEST:
        text = node_text(root, node)
        raise fail(res, "RS513", "lists nested deeper than %d levels in '%s'" % (MAX_NEST, text),
                   root, node, [(text, "a list nested more than %d deep" % MAX_NEST)])


# ---------------------------------------------------------------------------- source text of a node
_PREC_BIN = {"+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6}


def node_text(root, node):
    """The text of a sub-expression, rebuilt from the tree (names as spelled in the profile)."""
    return _unparse(root, node, 0)


def _lit_text(v):
    if v is None:
        return "nil"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if is_str(v):
        if len(v) > 40:
            v = v[:37] + "..."
        return "'%s'" % v if "'" not in v else '"%s"' % v
    if isinstance(v, _INT_TYPES) and not -MAX_INT <= v <= MAX_INT:
        return "<%s>" % _short_number(v)
    return repr(v) if isinstance(v, float) else str(v)


def _name_text(n):
    return _GENERIC_SPELLINGS.get(n, n)


def _slice(root, at, fallback):
    """The written spelling of one word at ``at`` (when the root's text lets us find it)."""
    try:
        rat = root["at"]
        if at[0] == rat[0]:
            s = root["text"][at[1] - rat[1]:at[2] - rat[1]]
            if s.lower() == fallback:
                return s
    except (KeyError, TypeError, IndexError):
        pass
    return fallback


def _unparse(root, node, outer):
    tag = node[0]
    if tag == "lit":
        return _lit_text(node[1])
    if tag in ("name", "var"):
        return _name_text(node[1])
    if tag == "list":
        return "[" + ", ".join([_unparse(root, x, 0) for x in node[1]]) + "]"
    if tag == "attr":
        return _unparse(root, node[1], 8) + "." + _slice(root, node[3], node[2])
    if tag == "index":
        return _unparse(root, node[1], 8) + "." + str(node[2])
    if tag == "call":
        return (_slice(root, [node[3][0], node[3][1], node[3][1] + len(node[1])], node[1]) + "(" +
                ", ".join([_unparse(root, x, 0) for x in node[2]]) + ")")
    if tag == "filter_call":  # getTargets('filter'): the name as written, the filter left out
        return _slice(root, [node[3][0], node[3][1], node[3][1] + len(node[1])], node[1]) + "(...)"
    if tag == "bin":
        p = _PREC_BIN[node[1]]
        s = "%s %s %s" % (_unparse(root, node[2], p), node[1], _unparse(root, node[3], p + 1))
    elif tag in ("neg", "pos"):
        p = 7
        s = ("-" if tag == "neg" else "+") + _unparse(root, node[1], 7)
    elif tag == "cmp":
        p = 4
        parts = [_unparse(root, node[1][0], 5)]
        for op, x in zip(node[2], node[1][1:]):
            parts.append(op)
            parts.append(_unparse(root, x, 5))
        s = " ".join(parts)
    elif tag == "and":
        p = 2
        s = "%s and %s" % (_unparse(root, node[1], 2), _unparse(root, node[2], 3))
    elif tag == "or":
        p = 1
        s = "%s or %s" % (_unparse(root, node[1], 1), _unparse(root, node[2], 2))
    elif tag == "not":
        p = 3
        s = "not " + _unparse(root, node[1], 3)
    elif tag == "if":
        p = 0
        s = "%s if %s else %s" % (_unparse(root, node[2], 1), _unparse(root, node[1], 1),
                                  _unparse(root, node[3], 0))
    else:  # "qall", "qany": every other tag of the IR (the keys of _EVAL) has its branch above
        p = 0  # a quantifier is bracketed wherever it is an operand
        s = "%s %s in %s" % ("all" if tag == "qall" else "any", _unparse(root, node[1], 1),
                             _unparse(root, node[2], 8))
    if p < outer:
        return "(" + s + ")"
    return s


# ---------------------------------------------------------------------------- errors
def _at(root, node):
    """The position of a node (its own ``at`` when it has one, else the root's)."""
    if node is not None:
        for x in node[2:]:
            if isinstance(x, list) and len(x) == 3 and isinstance(x[0], int) and not isinstance(x[0], bool):
                return x
    return root.get("at")


def fail(res, code, message, root, node=None, values=None):
    """A RuleError for ``node`` inside ``root`` (build it; the caller raises it)."""
    return res.fail(code, message, _at(root, node), root.get("text"), values)


def _arith_error(res, root, node, op, a, b):
    ln = node_text(root, node[2])
    rn = node_text(root, node[3])
    return fail(res, "RS504", "cannot apply '%s' to %s and %s in '%s'" % (
        op, kind_of(a), kind_of(b), node_text(root, node)), root, node, [(ln, a), (rn, b)])


def _number_error(res, root, node, v, what):
    text = node_text(root, node) if node is not None else root.get("text")
    prefix = (what + ": ") if what else ""
    return fail(res, "RS506", "%s'%s' is not a number (it is %s)" % (prefix, text, kind_of(v)),
                root, node, [(text, v)])


# ---------------------------------------------------------------------------- evaluation
def evaluate(res, root):
    """The value of a root expression ``{"e": node, "at": ..., "text": ...}``; costs
    ``1 + len(text) // 4`` steps of the resolution's budget."""
    b = res.budget
    b[0] -= 1 + (len(root.get("text") or "") >> 2)
    if b[0] < 0:
        b[0] = -1
        raise over_budget(res, root)
    node = root["e"]
    return _EVAL[node[0]](res, node, root)


def node_size(node):
    """The number of nodes of an expression tree (what evaluating it once costs, in steps)."""
    n = 0
    stack = [node]
    while stack:
        x = stack.pop()
        if x and is_str(x[0]):
            n += 1
        for y in x:
            if isinstance(y, list):
                stack.append(y)
    return n


def eval_node(res, node, root):
    """The value of a sub-node (for commands that hold nodes, such as each's element/sequence)."""
    return _EVAL[node[0]](res, node, root)


def number(res, root, what=""):
    """The value of ``root`` as an int, truncated toward zero (RS506 for a non-number)."""
    v = evaluate(res, root)
    if not is_number(v):
        raise _number_error(res, root, None, v, what)
    return int(check_number(res, root, None, v))


def _ev_lit(res, node, root):
    return node[1]


def _ev_list(res, node, root):
    out = [_EVAL[x[0]](res, x, root) for x in node[1]]
    check_length(res, root, node, out, "a list")
    for x in out:
        if isinstance(x, list):
            check_nesting(res, root, node, out)
            break
    return out


def _ev_name(res, node, root):
    n = node[1]
    f = _NAMES.get(n)
    if f is not None:
        return f(res, node, root)
    if n in res.results:
        charge(res, len(res.results[n]), root, node)
        return [Card(i) for i in res.results[n]]
    vocab = res.engine.vocab
    f = vocab.names.get(n)
    if f is not None:
        return f(res)
    if n in vocab.element_types:  # an element name of one card type (CFC: char, action, reaction)
        return _element_of_type(res, node, root)
    if n in getattr(vocab, "constants", ()):
        return n  # a constant of the game's vocabulary evaluates to its own name
    raise fail(res, "RS503", "unknown name '%s'" % n, root, node)


def _ev_var(res, node, root):
    try:
        return res.vars[node[1]]
    except KeyError:
        raise fail(res, "RS503", "the variable '%s' has no value yet" % node[1], root, node)


def _name_tgt(res, node, root):
    if res.tgt is None:
        return []
    charge(res, len(res.tgt), root, node)
    return list(res.tgt)


def _name_prev(res, node, root):
    # prev is always a list (a resolution starts with [] and the engine sets lists)
    charge(res, len(res.prev), root, node)
    return list(res.prev)


def _name_this(res, node, root):
    return None if res.source is None else Card(res.source)


def _name_me(res, node, root):
    return Player(res.controller)


def _name_opp(res, node, root):
    return Player(1 - res.controller)


def _trigger(res):
    ev = res.event
    if not ev or ev.get("trigger") is None:
        return None
    return Card(ev["trigger"])


def _name_trigger(res, node, root):
    return _trigger(res)


def _name_card(res, node, root):
    if not res.elements:
        raise fail(res, "RS503", "'card' is only defined inside a quantifier or each", root, node)
    return res.elements[-1]


def _element_of_type(res, node, root):
    vocab = res.engine.vocab
    want = vocab.element_types[node[1]]
    v = res.elements[-1] if res.elements else _trigger(res)
    if isinstance(v, Card) and vocab.ctype(res, v.iid) == want:
        return v
    return None


_NAMES = {"tgt": _name_tgt, "prevtgt": _name_prev, "this": _name_this, "me": _name_me,
          "opp": _name_opp, "trigger": _name_trigger, "card": _name_card}


def _ev_attr(res, node, root):
    obj = _EVAL[node[1][0]](res, node[1], root)
    name = node[2]
    if isinstance(obj, Card):
        f = res.engine.vocab.card_attrs.get(name)
        if f is not None:
            try:
                return f(res, obj.iid)
            except Lacks as e:
                text = node_text(root, node[1])
                raise fail(res, "RS503", "'%s' is %s and has no attribute '%s'" % (
                    text, e.args[0], _slice(root, node[3], name)), root, node, [(text, obj)])
    elif isinstance(obj, Player):
        f = res.engine.vocab.player_attrs.get(name)
        if f is not None:
            v = f(res, obj.idx)
            if isinstance(v, list):  # a pile: building it costs a step per card
                charge(res, len(v), root, node)
            return v
    elif isinstance(obj, list):
        if name == "size":
            return len(obj)
    elif obj is None:
        text = node_text(root, node[1])
        raise fail(res, "RS502", "attribute '%s' of nil ('%s' is nil)" % (
            _slice(root, node[3], name), text), root, node, [(text, None)])
    text = node_text(root, node[1])
    raise fail(res, "RS503", "%s has no attribute '%s' ('%s')" % (
        kind_of(obj), _slice(root, node[3], name), text), root, node, [(text, obj)])


def _ev_index(res, node, root):
    obj = _EVAL[node[1][0]](res, node[1], root)
    k = node[2]
    if isinstance(obj, list):
        if 0 <= k < len(obj):
            return obj[k]
        text = node_text(root, node[1])
        size = "empty list" if not obj else "%d element%s" % (len(obj), "" if len(obj) == 1 else "s")
        raise fail(res, "RS501", "index %d out of range for '%s' (%s)" % (k, text, size), root, node,
                   [(text, obj)])
    text = node_text(root, node[1])
    if obj is None:
        raise fail(res, "RS502", "element %d of nil ('%s' is nil)" % (k, text), root, node,
                   [(text, None)])
    raise fail(res, "RS503", "element %d of %s ('%s' is not a list)" % (k, kind_of(obj), text), root,
               node, [(text, obj)])


def _ev_bin(res, node, root):
    op = node[1]
    a = _EVAL[node[2][0]](res, node[2], root)
    b = _EVAL[node[3][0]](res, node[3], root)
    if is_number(a) and is_number(b):
        if op == "+":
            v = a + b
        elif op == "-":
            v = a - b
        elif op == "*":
            v = a * b
        else:
            v = _divide(res, node, root, op, a, b)
        if not -MAX_INT <= v <= MAX_INT:
            check_number(res, root, node, v)
        return _norm(v)
    if op == "+":
        if isinstance(a, list) and isinstance(b, list):
            n = len(a) + len(b)
            check_length(res, root, node, n, "a list")
            charge(res, n, root, node)
            return a + b
        if is_str(a) and is_str(b):
            n = len(a) + len(b)
            check_length(res, root, node, n, "a string")
            charge(res, n // STR_CHUNK, root, node)
            return a + b
    raise _arith_error(res, root, node, op, a, b)


def _divide(res, node, root, op, a, b):
    if b == 0:
        text = node_text(root, node[3])
        raise fail(res, "RS505", "division by zero in '%s'" % node_text(root, node), root, node,
                   [(text, b)])
    if op == "/":
        if isinstance(a, _INT_TYPES) and isinstance(b, _INT_TYPES) and a % b == 0:
            return a // b
        return a / b
    if op == "//":
        return a // b
    return a % b


def _ev_neg(res, node, root):
    v = _EVAL[node[1][0]](res, node[1], root)
    if not is_number(v):
        text = node_text(root, node[1])
        raise fail(res, "RS504", "cannot apply unary '-' to %s in '%s'" % (
            kind_of(v), node_text(root, node)), root, node, [(text, v)])
    return -v


def _ev_pos(res, node, root):
    v = _EVAL[node[1][0]](res, node[1], root)
    if not is_number(v):
        text = node_text(root, node[1])
        raise fail(res, "RS504", "cannot apply unary '+' to %s in '%s'" % (
            kind_of(v), node_text(root, node)), root, node, [(text, v)])
    return v


def _compare(res, root, node, op, a, b, xa, xb):
    if op == "==":
        return equal(a, b, res)
    if op == "!=":
        return not equal(a, b, res)
    if op in ("in", "not in"):
        if isinstance(b, list):
            charge(res, len(b), root, node)
            found = False
            for x in b:
                if equal(a, x, res):
                    found = True
                    break
        elif is_str(b) and is_str(a):
            charge(res, len(b) // STR_CHUNK, root, node)
            found = a in b
        else:
            ta = node_text(root, xa)
            tb = node_text(root, xb)
            raise fail(res, "RS504", "'%s' needs a list (or a string in a string), not %s %s %s" % (
                op, kind_of(a), op, kind_of(b)), root, node, [(ta, a), (tb, b)])
        return found if op == "in" else not found
    if a is None or b is None:
        return False  # a stat the card lacks is nil, and nil is in no order (docs/runtime.md)
    if (is_number(a) and is_number(b)) or (is_str(a) and is_str(b)):
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b
    ta = node_text(root, xa)
    tb = node_text(root, xb)
    raise fail(res, "RS504", "cannot order %s and %s with '%s' in '%s %s %s'" % (
        kind_of(a), kind_of(b), op, ta, op, tb), root, node, [(ta, a), (tb, b)])


def _ev_cmp(res, node, root):
    xs = node[1]
    ops = node[2]
    a = _EVAL[xs[0][0]](res, xs[0], root)
    for i in range(len(ops)):
        x = xs[i + 1]
        b = _EVAL[x[0]](res, x, root)
        if not _compare(res, root, node, ops[i], a, b, xs[i], x):
            return False
        a = b
    return True


def _ev_and(res, node, root):
    a = _EVAL[node[1][0]](res, node[1], root)
    if not a:
        return a
    return _EVAL[node[2][0]](res, node[2], root)


def _ev_or(res, node, root):
    a = _EVAL[node[1][0]](res, node[1], root)
    if a:
        return a
    return _EVAL[node[2][0]](res, node[2], root)


def _ev_not(res, node, root):
    return not _EVAL[node[1][0]](res, node[1], root)


def _ev_if(res, node, root):
    if _EVAL[node[1][0]](res, node[1], root):
        return _EVAL[node[2][0]](res, node[2], root)
    return _EVAL[node[3][0]](res, node[3], root)


def _quant_seq(res, node, root):
    seq = _EVAL[node[2][0]](res, node[2], root)
    if isinstance(seq, list):
        return seq
    text = node_text(root, node[2])
    if seq is None:
        raise fail(res, "RS502", "a quantifier over nil ('%s' is nil)" % text, root, node, [(text, None)])
    raise fail(res, "RS503", "a quantifier needs a list, '%s' is %s" % (text, kind_of(seq)), root, node,
               [(text, seq)])


def _quantify(res, node, root, wanted):
    """all (wanted False: stop at the first falsy element) / any (wanted True: at the first truthy)."""
    seq = _quant_seq(res, node, root)
    elem = node[1]
    f = _EVAL[elem[0]]
    stack = res.elements
    cost = node_size(elem)
    b = res.budget
    for v in seq:
        b[0] -= cost
        if b[0] < 0:
            b[0] = -1
            raise over_budget(res, root, node)
        stack.append(v)
        try:
            ok = f(res, elem, root)
        finally:
            stack.pop()
        if bool(ok) == wanted:
            return wanted
    return not wanted


def _ev_qall(res, node, root):
    return _quantify(res, node, root, False)


def _ev_qany(res, node, root):
    return _quantify(res, node, root, True)


def _ev_filter_call(res, node, root):
    # A filter used as a value (``@myRing``) is resolved by the engine's target resolver.
    found = res.engine.resolve(res, node[2], "silent")
    charge(res, 10 + len(found), root, node)
    return found


# ---------------------------------------------------------------------------- functions
def _need_number(res, root, node, i, v, fname):
    if not is_number(v):
        text = node_text(root, node[2][i])
        raise fail(res, "RS506", "%s(): '%s' is not a number (it is %s)" % (fname, text, kind_of(v)),
                   root, node, [(text, v)])
    return v


def _need_list(res, root, node, i, v, fname):
    if not isinstance(v, list):
        text = node_text(root, node[2][i])
        code = "RS502" if v is None else "RS503"
        raise fail(res, code, "%s(): '%s' is %s, not a list" % (fname, text, kind_of(v)), root, node,
                   [(text, v)])
    return v


def _f_len(res, root, node, args):
    v = args[0]
    if isinstance(v, list) or is_str(v):
        return len(v)
    text = node_text(root, node[2][0])
    code = "RS502" if v is None else "RS503"
    raise fail(res, code, "len(): '%s' is %s, not a list or a string" % (text, kind_of(v)), root, node,
               [(text, v)])


def _f_abs(res, root, node, args):
    return abs(_need_number(res, root, node, 0, args[0], "abs"))


def _extreme(res, root, node, args, fname, pick_max):
    if len(args) == 1:
        items = _need_list(res, root, node, 0, args[0], fname)
        if not items:
            text = node_text(root, node[2][0])
            raise fail(res, "RS501", "%s() of an empty list ('%s')" % (fname, text), root, node,
                       [(text, items)])
    else:
        items = args
    charge(res, len(items), root, node)
    best = items[0]
    nums = is_number(best)
    for v in items:
        if not ((nums and is_number(v)) or (not nums and is_str(best) and is_str(v))):
            raise fail(res, "RS504", "%s() cannot order %s and %s" % (fname, kind_of(best), kind_of(v)),
                       root, node, [(node_text(root, node), items)])
        if (v > best) if pick_max else (v < best):
            best = v
    return best


def _f_min(res, root, node, args):
    return _extreme(res, root, node, args, "min", False)


def _f_max(res, root, node, args):
    return _extreme(res, root, node, args, "max", True)


def _f_sum(res, root, node, args):
    items = _need_list(res, root, node, 0, args[0], "sum")
    charge(res, len(items), root, node)
    total = 0
    for v in items:
        if not is_number(v):
            text = node_text(root, node[2][0])
            raise fail(res, "RS506", "sum(): '%s' holds %s, not only numbers" % (text, kind_of(v)),
                       root, node, [(text, items)])
        total += v
    return _norm(check_number(res, root, node, total))


def _f_any(res, root, node, args):
    items = _need_list(res, root, node, 0, args[0], "any")
    charge(res, len(items), root, node)
    for v in items:
        if v:
            return True
    return False


def _f_all(res, root, node, args):
    items = _need_list(res, root, node, 0, args[0], "all")
    charge(res, len(items), root, node)
    for v in items:
        if not v:
            return False
    return True


def _round_half_away(x):
    """Nearest int, halves away from zero (Python 3's round() would round halves to even)."""
    if x >= 0:
        return int(x + 0.5) if isinstance(x, float) else x
    return -int(-x + 0.5) if isinstance(x, float) else x


def _round_to(x, digits):
    """x rounded to ``digits`` decimal places (digits <= 0: to a multiple of 10**-digits), halves
    away from zero; the result is an int when digits <= 0.  |x| <= MAX_INT, so digits below
    _ROUND_MIN give 0 and digits above _ROUND_MAX leave x as it is."""
    if digits > _ROUND_MAX:
        return _norm(x)
    if digits < _ROUND_MIN:
        return 0
    if digits <= 0:
        step = 10 ** (-digits)
        if isinstance(x, _INT_TYPES):
            q, r = divmod(abs(x), step)
            if 2 * r >= step:
                q += 1
            return q * step if x >= 0 else -q * step
        return _round_half_away(x / step) * step
    if isinstance(x, _INT_TYPES):
        return x
    scale = 10 ** digits
    return _norm(_round_half_away(x * scale) / scale)


def _f_round(res, root, node, args):
    x = _need_number(res, root, node, 0, args[0], "round")
    if len(args) == 1:
        return _round_half_away(x)
    d = _need_number(res, root, node, 1, args[1], "round")
    return check_number(res, root, node, _round_to(x, int(d)))


def _f_int(res, root, node, args):
    v = args[0]
    if is_number(v):
        return int(v)
    if is_str(v):
        s = v.strip()
        body = s[1:] if s[:1] in ("+", "-") else s
        if body and not [ch for ch in body if ch not in _DIGITS]:
            if len(body.lstrip("0")) > 18:  # checked before converting: hosts differ past 4300 digits
                text = node_text(root, node[2][0])
                raise fail(res, "RS511", "int(): '%s' is out of range (%d digits; a rule's numbers "
                           "stay between -%d and %d)" % (text, len(body), MAX_INT, MAX_INT), root,
                           node, [(text, "a string of %d digits" % len(body))])
            return int(s)
    text = node_text(root, node[2][0])
    raise fail(res, "RS506", "int(): '%s' is not a number (it is %s)" % (text, kind_of(v)), root, node,
               [(text, v)])


def _f_str(res, root, node, args):
    v = args[0]
    try:
        out = to_str(res, v)
    except TooLong:
        text = node_text(root, node[2][0])
        raise fail(res, "RS512", "str(): the text of '%s' is longer than %d characters" % (
            text, MAX_LEN), root, node,
            [(text, "%s of %d element%s" % (kind_of(v), len(v), "" if len(v) == 1 else "s"))])
    except OutOfRange:
        text = node_text(root, node[2][0])
        raise fail(res, "RS511", "str(): '%s' holds a number out of range (a rule's numbers stay "
                   "between -%d and %d)" % (text, MAX_INT, MAX_INT), root, node)
    check_length(res, root, node, out, "a string")
    return out


_FUNCS = {"len": _f_len, "abs": _f_abs, "min": _f_min, "max": _f_max, "sum": _f_sum, "any": _f_any,
          "all": _f_all, "round": _f_round, "int": _f_int, "str": _f_str}


def _ev_call(res, node, root):
    name = node[1]
    args = [_EVAL[a[0]](res, a, root) for a in node[2]]
    f = _FUNCS.get(name)
    if f is not None:
        return f(res, root, node, args)
    vf = res.engine.vocab.functions.get(name)
    if vf is None:
        raise fail(res, "RS503", "unknown function '%s'" % name, root, node)

    def vocab_fail(code, message, values=None):
        return fail(res, code, message, root, node, values)
    return vf(res, args, vocab_fail)


_EVAL = {"lit": _ev_lit, "list": _ev_list, "name": _ev_name, "var": _ev_var, "attr": _ev_attr,
         "index": _ev_index, "call": _ev_call, "filter_call": _ev_filter_call, "bin": _ev_bin,
         "neg": _ev_neg, "pos": _ev_pos, "cmp": _ev_cmp, "and": _ev_and, "or": _ev_or,
         "not": _ev_not, "if": _ev_if, "qall": _ev_qall, "qany": _ev_qany}
