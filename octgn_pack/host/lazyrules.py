"""The compiled rules of a package, read one rule at a time.

``Scripts/rules.py`` holds each rule's IR (``docs/ir.md``) as the text of a Python literal, and
:class:`LazyRules` is the mapping rule id -> IR dict built on those texts: a rule's text is
evaluated the first time the rule is read, and kept.  Loading the module then compiles only string
constants (OCTGN loads every script at each game start and at each "reload scripts"); the engine
reads a rule when a card that has it is looked at or comes into play, so a game reads the rules of
the cards it meets, not the whole card pool.

``Engine(rules, ...)`` keys its rules by lower-case id; :meth:`LazyRules.lowered` gives it that
view without reading anything (``rulescript/runtime/engine.py``).  Iterating ids, ``in`` and
``len`` read nothing either; ``items()``, ``values()`` and ``==`` read every rule.  It is a mapping,
not a ``dict``: test for ``keys`` rather than ``isinstance(x, dict)``.

Python 2.7/3 subset, importing nothing: it ships inside the package (``def/octgn_pack/host/``).
"""
from __future__ import absolute_import, division, print_function

# The names a rule's literal may use: True and False are names in Python 2; nothing else is reachable.
_NAMES = {"__builtins__": {}, "True": True, "False": False, "None": None}


class LazyRules(object):
    """rule id -> IR dict, each rule evaluated from ``texts[id]`` (a Python literal) when first read."""

    __slots__ = ("_texts", "_rules", "_lowered")

    def __init__(self, texts, read=None):
        self._texts = texts
        self._rules = read if read is not None else {}
        self._lowered = None

    def __getitem__(self, rule_id):
        try:
            return self._rules[rule_id]
        except KeyError:
            text = self._texts[rule_id]  # an unknown id raises KeyError, as a dict does
            rule = self._rules[rule_id] = eval(text, _NAMES)  # noqa: S307 - the package's own literal
            return rule

    def get(self, rule_id, default=None):
        if rule_id in self._texts:
            return self[rule_id]
        return default

    def __contains__(self, rule_id):
        return rule_id in self._texts

    def __iter__(self):
        return iter(list(self._texts))

    def __len__(self):
        return len(self._texts)

    def keys(self):
        return list(self._texts)

    def items(self):
        return [(k, self[k]) for k in list(self._texts)]

    def values(self):
        return [self[k] for k in list(self._texts)]

    def read_ids(self):
        """The ids of the rules read so far."""
        return list(self._rules)

    def lowered(self):
        """The same rules keyed by lower-case id (a later id wins over an earlier one that differs only
        in case, as a dict built from ``items()`` would), sharing what was already read.  Always the
        same object (``self`` when every id is lower case already), so the engines a host builds one
        after the other (a reset, a rebuild after "reload scripts") read each rule once."""
        if self._lowered is None:
            if all(k == k.lower() for k in self._texts):
                self._lowered = self
            else:
                texts = {}
                read = {}
                for k in self._texts:
                    texts[k.lower()] = self._texts[k]
                    if k in self._rules:
                        read[k.lower()] = self._rules[k]
                    else:
                        read.pop(k.lower(), None)
                self._lowered = LazyRules(texts, read)
        return self._lowered

    def __eq__(self, other):
        if isinstance(other, LazyRules):
            other = dict(other.items())
        if not isinstance(other, dict):
            return NotImplemented
        return dict(self.items()) == other

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __repr__(self):
        return "<LazyRules: %d rules, %d read>" % (len(self._texts), len(self._rules))
