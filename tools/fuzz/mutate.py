"""Grammar-aware mutations for the fuzzer (tools/fuzz/run.py).

Every function takes a ``random.Random`` and returns new text (or data); nothing here runs a front
end.  The mutations know the shapes of the inputs:

* RuleScript (INI sections): token-level edits with the words and symbols the language gives a
  meaning to (commands, filter words, zones, events, ``[[if]]``, ``~…~``, ``{F}``, ``=>``), splices
  of tokens and whole values from other rules, huge numbers, long strings, deep nesting, and
  templates that stress the runtime's limits (doubling in ``vars``, nested ``each``);
* YAML (scenarios, game files): line edits, scalar substitutions (huge or negative numbers, wrong
  types, unknown ids), deep nesting, anchors and aliases, duplicated keys, and tree edits of the
  parsed document dumped back;
* Python literals (saved game logs): number, string and bracket edits of the text, and tree edits of
  the parsed literal written back with ``repr``;
* plain text (WWRF): character, glyph and line edits.
"""
from __future__ import annotations

import ast
import contextlib
import random
import re

import yaml

HUGE_NUMBERS = ["0", "-1", "1", "99", "-999999999", "999999999999999", "1" + "0" * 18, "9" * 19,
                "9" * 400, "1" * 5000, "2147483648", "-9223372036854775809", "18446744073709551616"]
RS_WORDS = [
    # commands, abilities, events, hooks and filter vocabulary of the CFC profile
    "damage", "draw", "discard", "rndDiscard", "trash", "destroy", "hp", "sp", "bp", "freeze",
    "unfreeze", "moveTo", "moveRevealedTo", "movePile", "swapPiles", "shuffle", "moveToSlot", "peek",
    "reveal", "pileView", "playExtraChar", "prophecy", "removeFromAttack", "unite", "skip", "turns",
    "swapChars", "loseAbility", "steal", "swapAbilities", "transform", "each", "activate", "clear",
    "copyAbility", "alterCost", "modCost", "modDamage", "enableRule", "disableRule", "modRule",
    "+rush", "-rush", "+pierce", "+cantblock", "+unblockable", "+cantattack",
    "character", "characters", "action", "reaction", "*", "*s", "me", "opp", "player", "players",
    "@myRing", "@oppRing", "@arena", "@myHand", "@oppHand", "@myDeck", "@myDiscards", "@oppDiscards",
    "@myRemoved", "@infront", "@ctrlRing", "[bp<=300]", "[bp>=1000]", "[-frozen]", "[+frozen]",
    "[fresh]", "[powerless]", "[ninja]", "<1>", "<,2>", "<r>", "<2,>", "::not(tgt)", "::not(this)",
    "~myEndPhase~", "~oppEndPhase~", "~anyRingChanges~", "~myHandChanges~", "~removed~", "~attacks~",
    "~blocked~", "~blocks~", "~backedup~", "~playerCombatDamaged~", "~beforeDamage~",
    "~beforePayCostAction~", "?oppCanBlock?", "?canBlock?", "?cancelCombatDamage?", ":once", ":any",
    ":char", "[[if", "]]", "[[elif", "[[else]]", "[[may]]", "{F}", "{S}", "{D}", "{D(action)}",
    "{S(character)}", "to(", "to(opp)", "to(me)", "to(tgt)", "to(prevTgt)", "ueot", "unac", "uynt",
    "myUeot", "oppUnac", "=>", "&&", "||", "&", ";", ":", "(", ")", "[", "]", ",", "'", '"', "#",
    "tgt", "prevTgt", "this", "trigger", "attacker", "blocker", "uaBP", "discarded", "trashed",
    "destroyed", "moved", "sacrificed", "alone", "soloAttack", "oppLostSP", "card", "char",
    "me.hand", "opp.ring", "me.discards", "me.deck", "card.bp", "card.sp", "card.name", "this.bp",
    "tgt.0", "tgt.size", "len(", "abs(", "min(", "max(", "sum(", "any(", "all(", "round(", "int(",
    "str(", "isChar(", "inUAttack(", "flipCoin()", "getTargets('*s@arena')", "all card.bp > 0 in",
    "any card in", "nil", "true", "false", "and", "or", "not", "if", "else", "in", "not in",
    "+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "_x", "_y", ":=",
]
GLYPHS = ["\x00", "\t", "\r", "\n", "\n    ; ", "\u200b", "\u00e9", "\U0001F600", "\\", "`", "$", "%",
          "\ufeff", "[", "]", "(", ")", "{", "}", "'", '"', "=", ":", ";", "#", "~", "?", "@", "&", "|"]
TEMPLATES = [
    # the shapes of the issue-13 findings, with random sizes
    "vars = {doubling_int}\naction = draw(); damage(1) to(opp)",
    "vars = {doubling_str}\naction = draw(); hp(+len(_v{last}))",
    "vars = {doubling_list}\naction = draw(); each(card > 0 in _v{last} => sp(+1))",
    "vars = {doubling_list}; _w := all all card > 0 in _v{last} in _v{last}\naction = draw()",
    "vars = {doubling_list}\naction = each(card > 0 in _v{last} => each(card > 0 in _v{last} => hp(+1)))",
    "vars = {nesting}\naction = hp(+len(str(_n{last})))",
    "action = damage(round({num}, {num2})) to(opp)",
    "action = damage(round({num} / 3, {num2})) to(opp)",
    "vars = {doubling_str9}; _i := int(_v{last})\naction = damage(_i % 1000) to(opp)",
    "action = damage(min(me.discards.size, {num}) * {num}) to(opp)",
    "action = each(card.bp <= 300 in me.discards => hp(+100))",
    "action = each(card.sp >= 0 in me.hand => sp(+1))",
    "action = {D}{D}: draw()",
    "action = {D}{D}{D}: hp(+1)",
    "auto = ?oppCanBlock:this? destroy()",
    "auto = ?oppCanBlock? [[if blocker.bp > this.bp]]",
    "auto = ?canBlock? [[may]] hp(+1)",
    "auto = ~myRingChanges~ [[may]] sp(+1)",
    "auto = ~anyHandChanges~ draw()",
    "auto = ~anyRingChanges~ moveTo(hand) to(character@myRing)",
]


def rs_tokens(text):
    return re.findall(r"\s+|\d+|[A-Za-z_][A-Za-z_0-9]*|'[^']*'|\"[^\"]*\"|\[\[|\]\]|=>|:=|<=|>=|==|!=|//|&&|\|\||.",
                      text, re.S)


def _template(rng):
    t = rng.choice(TEMPLATES)
    n = rng.randint(2, 40) if rng.random() < 0.5 else rng.randint(9, 12)  # 9..12: lists of 1-8k elements

    def doubling(first, op):
        parts = ["_v0 := %s" % first]
        parts += ["_v%d := _v%d %s _v%d" % (i, i - 1, op, i - 1) for i in range(1, n)]
        return "; ".join(parts)

    nest = rng.randint(2, 9)
    nesting = "_n0 := [1]; " + "; ".join("_n%d := %s_n%d%s" % (i, "[" * 10, i - 1, "]" * 10) for i in range(1, nest))
    last = (nest - 1) if "{nesting}" in t else (n - 1)
    subs = {"{doubling_int}": doubling(rng.choice(["2", "10", "1000", "-7", "99999"]), "*"),
            "{doubling_str}": doubling("'ab'", "+"), "{doubling_list}": doubling("[1, 2, 3, 4]", "+"),
            "{doubling_str9}": doubling("'9'", "+"), "{nesting}": nesting, "{last}": str(last),
            "{num}": rng.choice(HUGE_NUMBERS[:8]),
            "{num2}": rng.choice(["-999999999", "400", "-30", "0", "18", "19", "-19"])}
    for k, v in subs.items():
        t = t.replace(k, v)
    return t


def mutate_rules(rng, text, donors=(), edits=None):
    """A mutated RuleScript INI text (token edits, splices, templates)."""
    lines = text.split("\n")
    for _ in range(edits or rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.12 and lines:
            # replace a whole value with a template that stresses the runtime
            i = rng.randrange(len(lines))
            if "=" in lines[i] and not lines[i].startswith("["):
                lines[i:i + 1] = _template(rng).split("\n")
            else:
                lines.insert(i, _template(rng))
            continue
        if kind < 0.2 and donors:
            # splice a line from another rule
            d = rng.choice(donors).split("\n")
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(d))
            continue
        if kind < 0.25 and lines:
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        if kind < 0.3 and lines:
            del lines[rng.randrange(len(lines))]
            continue
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        toks = rs_tokens(lines[i])
        lines[i] = "".join(_mutate_tokens(rng, toks))
    return "\n".join(lines)


def _mutate_tokens(rng, toks):
    k = rng.random()
    pos = rng.randrange(len(toks) + 1)
    if k < 0.3:
        toks.insert(pos, rng.choice(RS_WORDS))
    elif k < 0.45 and toks:
        toks[min(pos, len(toks) - 1)] = rng.choice(RS_WORDS)
    elif k < 0.55 and toks:
        del toks[min(pos, len(toks) - 1)]
    elif k < 0.65:
        nums = [i for i, t in enumerate(toks) if t.isdigit()]
        if nums:
            toks[rng.choice(nums)] = rng.choice(HUGE_NUMBERS)
        else:
            toks.insert(pos, rng.choice(HUGE_NUMBERS))
    elif k < 0.72:
        depth = rng.choice([5, 40, 63, 64, 65, 200, 1000])
        toks.insert(pos, "(" * depth + "1" + ")" * depth if rng.random() < 0.5 else "[" * depth + "]" * depth)
    elif k < 0.78:
        toks.insert(pos, "'" + "x" * rng.choice([10, 1000, 3000, 100000]) + "'")
    elif k < 0.86 and toks:
        a = rng.randrange(len(toks))
        b = min(len(toks), a + rng.randint(1, 6))
        toks[pos:pos] = toks[a:b] * rng.randint(1, 8)
    elif k < 0.93:
        toks.insert(pos, rng.choice(GLYPHS))
    elif toks:
        a = rng.randrange(len(toks))
        del toks[a:a + rng.randint(1, 5)]
    return toks


# ---------------------------------------------------------------------------- plain text (WWRF)
def mutate_text(rng, text, glyphs, words=(), edits=None):
    """Character, glyph and line edits of plain text."""
    for _ in range(edits or rng.randint(1, 6)):
        n = len(text)
        i = rng.randint(0, n)
        j = rng.randint(0, n)
        a, b = min(i, j), max(i, j)
        k = rng.random()
        if k < 0.3:
            text = text[:i] + rng.choice(glyphs) + text[i:]
        elif k < 0.45 and words:
            text = text[:i] + rng.choice(words) + text[i:]
        elif k < 0.6 and n:
            text = text[:i] + text[i + 1 + rng.randrange(3):]
        elif k < 0.7:
            text = text[:b] + text[a:b] * rng.randint(1, 5) + text[b:]
        elif k < 0.8:
            text = text[:a] + text[b:]
        elif k < 0.9:
            lines = text.split("\n")
            if len(lines) > 1:
                x = rng.randrange(len(lines))
                y = rng.randrange(len(lines))
                lines[x], lines[y] = lines[y], lines[x]
            text = "\n".join(lines)
        elif k < 0.95:
            text = text[:i] + rng.choice(HUGE_NUMBERS) + text[i:]
        else:
            runs = [m.span() for m in re.finditer(r"\d+", text)]
            if runs:  # a number where the grammar has one: Day 2+, x2, Quantity
                x, y = rng.choice(runs)
                text = text[:x] + rng.choice(HUGE_NUMBERS) + text[y:]
    return text


# ---------------------------------------------------------------------------- YAML
YAML_SCALARS = [None, True, False, 0, -1, 1, 7, 10 ** 19, -(10 ** 30), 1.5, float("inf"), "", "x",
                "ash-pup", "cave-bear", "nosuchcard", "main", "cleanup", "over", "#1", "@0", "@9",
                "x" * 10000, [], {}, [None], {"card": None}, [[[[[]]]]], "\u200b", "RS511"]
YAML_TEXT_EDITS = ["&a [1, 2]", "*a", "!!python/object:os.system", "!!binary x", "{", "}", "[", "]",
                   "- ", ": ", "? ", "|", ">", "---", "...", "%YAML 1.1", "\t", "'", '"', "\\",
                   "<<: *a", "!!str", "!!int 9999999999999999999999", "9" * 5000, "1e400", ".nan",
                   "0x" + "f" * 40, "\x00", "\ufeff"]


def mutate_yaml_text(rng, text):
    """Text-level YAML edits (may not parse: the loader's diagnostics are part of what is fuzzed)."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        k = rng.random()
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        if k < 0.3:
            line = lines[i]
            c = rng.randint(0, len(line))
            lines[i] = line[:c] + rng.choice(YAML_TEXT_EDITS) + line[c:]
        elif k < 0.45:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif k < 0.55:
            del lines[i]
        elif k < 0.7:
            m = re.search(r":\s*(\S.*)$", lines[i])
            if m:
                lines[i] = lines[i][:m.start(1)] + rng.choice(["null", "-1", "9" * rng.choice([5, 19, 400, 5000]),
                                                               "[]", "{}", "true", "x", "[[[[[[]]]]]]", "1.5"])
        elif k < 0.8:
            # deep nesting; 5000 levels rarely (a pure-Python YAML loader takes seconds on it)
            depth = rng.choice([10, 30, 100, 100, 300, 1000]) if rng.random() < 0.97 else 5000
            lines.insert(i, "x" + str(i) + ": " + "[" * depth + "]" * depth)
        elif k < 0.81:
            # a billion-laughs style alias expansion (rare: a loader that expands it takes seconds)
            lines.insert(0, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]")
            for d in range(1, rng.randint(2, 7)):
                lines.insert(d, "a%d: &a%d [%s]" % (d, d, ", ".join(["*a%d" % (d - 1)] * 10)))
        else:
            lines[i] = "  " * rng.randint(0, 6) + lines[i].lstrip()
    return "\n".join(lines)


class TooBigToEdit(ValueError):
    """A parsed document whose values, aliases expanded, are too many to copy and write out again (an
    alias bomb an earlier text edit made): the caller edits its text instead."""


TREE_EDIT_LIMIT = 20000  # values; the seeds hold a few hundred


def _expanded_size(x, cap):
    """The number of values of ``x`` with shared (aliased) values counted at every use, up to ``cap``."""
    n, todo = 0, [x]
    while todo and n <= cap:
        v = todo.pop()
        n += 1
        if isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
    return n


def mutate_tree(rng, data, scalars=YAML_SCALARS, edits=None):
    """Edits of a parsed document (dicts and lists): replace, delete, duplicate, wrap, deepen.
    Raises TooBigToEdit for a document of more than TREE_EDIT_LIMIT values once expanded (copying
    one of an alias bomb's would write out millions of values: minutes and gigabytes)."""
    if _expanded_size(data, TREE_EDIT_LIMIT) > TREE_EDIT_LIMIT:
        raise TooBigToEdit("the document has more than %d values" % TREE_EDIT_LIMIT)
    data = _copy(data)
    for _ in range(edits or rng.randint(1, 4)):
        paths = list(_paths(data, ()))
        if not paths:
            return rng.choice(scalars)
        path = rng.choice(paths)
        parent, key = _parent(data, path)
        if parent is None:
            continue
        k = rng.random()
        if k < 0.45:
            parent[key] = _copy(rng.choice(scalars))
        elif k < 0.6:
            if isinstance(parent, list):
                del parent[key]
            else:
                parent.pop(key, None)
        elif k < 0.7:
            v = parent[key]
            parent[key] = [v] if rng.random() < 0.5 else {"x": v}
        elif k < 0.8 and isinstance(parent, list):
            parent.insert(key, _copy(parent[key]))
        elif k < 0.9 and isinstance(parent, dict):
            parent[rng.choice(["name", "card", "hp", "sp", "ring", "hand", "seed", "zzz", 0, 1, None])] = \
                _copy(rng.choice(scalars))
        else:
            v = parent[key]
            for _ in range(rng.choice([2, 20, 90])):
                v = [v]
            parent[key] = v
    return data


def _copy(x):
    if isinstance(x, dict):
        return dict((k, _copy(v)) for k, v in x.items())
    if isinstance(x, list):
        return [_copy(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_copy(v) for v in x)
    return x


def _paths(x, prefix, depth=0):
    if depth > 12:
        return
    if isinstance(x, dict):
        for k, v in list(x.items())[:60]:
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,), depth + 1)
    elif isinstance(x, list):
        for i, v in enumerate(x[:60]):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,), depth + 1)


def _parent(data, path):
    cur = data
    for k in path[:-1]:
        try:
            cur = cur[k]
        except (KeyError, IndexError, TypeError):
            return None, None
    if isinstance(cur, (dict, list)):
        try:
            cur[path[-1]]
        except (KeyError, IndexError, TypeError):
            return None, None
        return cur, path[-1]
    return None, None


def yaml_dump(data):
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        try:
            return repr(data)
        except (RecursionError, ValueError):
            return "[" * 5000 + "]" * 5000


# ---------------------------------------------------------------------------- Python literals (saves)
LITERAL_SCALARS = [None, True, False, 0, -1, 10 ** 19, -(10 ** 40), 10 ** 5000, 1.5, "", "x" * 10000,
                   "play", "pass", [], {}, (), {"do": "pass"}, {"do": "play", "card": 10 ** 20},
                   ["yes_no", 0, True], ["choose_slot", 5, 99], [None, None, None]]


def mutate_literal_text(rng, text):
    """Text edits of a Python literal (a saved log): numbers, brackets, strings, cuts."""
    toks = re.findall(r"\d+|'[^']*'|\"[^\"]*\"|[A-Za-z_]+|\s+|.", text)
    for _ in range(rng.randint(1, 5)):
        if not toks:
            toks = ["{}"]
        k = rng.random()
        i = rng.randrange(len(toks))
        if k < 0.35:
            nums = [j for j, t in enumerate(toks) if t.isdigit()]
            if nums:
                toks[rng.choice(nums)] = rng.choice(HUGE_NUMBERS)
        elif k < 0.5:
            toks.insert(i, rng.choice(["[", "]", "{", "}", "(", ")", ",", ":", "'", "None", "True",
                                       "1e400", "-", "0x1", "b'x'", "u'x'", "...", "__import__('os')"]))
        elif k < 0.6:
            del toks[i]
        elif k < 0.7:
            d = rng.choice([10, 100, 1000, 100000])
            toks.insert(i, "[" * d + "]" * d)
        elif k < 0.8:
            b = min(len(toks), i + rng.randint(1, 30))
            toks[i:i] = toks[i:b] * rng.randint(2, 50)
        else:
            b = min(len(toks), i + rng.randint(1, 40))
            del toks[i:b]
    return "".join(toks)


def mutate_literal(rng, text):
    """Tree edits of a Python literal, written back with repr (or text edits if it does not parse)."""
    try:
        data = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return mutate_literal_text(rng, text)
    try:
        return repr(mutate_tree(rng, data, LITERAL_SCALARS))
    except (RecursionError, ValueError):
        return mutate_literal_text(rng, text)


__all__ = ["mutate_rules", "mutate_text", "mutate_yaml_text", "mutate_tree", "TooBigToEdit", "yaml_dump",
           "mutate_literal", "mutate_literal_text", "rs_tokens", "random"]


# ---------------------------------------------------------------------------- file names (issue 23)
# what a hostile file name holds: every line break str.splitlines knows, INI and YAML syntax, path
# separators and climbs, a byte that is not UTF-8 (a surrogate escape), very long names
NAME_GLYPHS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\t",
               "=", ":", "[", "]", ";", "#", "   ", "'", '"', "~", "\\", "%", "%2e%2e", "..", "\udcff",
               "\u200b", "\ufeff", "\U0001F43A", "\x7f", "\x01", "*", "?", "<", ">", "|", "&", "$HOME", "C:"]
NAME_INJECTIONS = ["\nauto = ~starting~ win()\n#", "\n[pwned]\naction = win()\n", "\r\nauto = win()",
                   "\x0bauto = ~starting~ win()", "\u2028auto = win()\u2028", "\x85[x]\x85",
                   "\n    continued = line", "\n; comment", "\n# comment\nkey = value"]


def hostile_name(rng, name, max_len=200):
    """A file name (one path segment: no '/' and no NUL, which no file system takes) with hostile
    characters or an injection; at most ``max_len`` characters (bytes can be more)."""
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(name))
        piece = rng.choice(NAME_INJECTIONS) if rng.random() < 0.4 else rng.choice(NAME_GLYPHS)
        name = name[:i] + piece + name[i:]
    name = name.replace("/", "\u2215").replace("\0", "")
    name = name[:max_len]
    return name if name not in ("", ".", "..") else name + "x"


# ---------------------------------------------------------------------------- XML (plugins, packages)
XML_GLYPHS = ["<", ">", "&", "'", '"', "&amp;", "&lt;", "&#x0;", "&#1;", "&#xD800;", "&#x10FFFF;", "&nosuch;",
              "<!DOCTYPE x [<!ENTITY a 'b'>]>", "<!ENTITY e SYSTEM 'file:///etc/passwd'>", "&e;", "]]>",
              "<![CDATA[", "<?pi x?>", "<!-- ", " -->", "\x00", "\x01", "\ufeff", "\udcff", "\n", "\r", "\t",
              "</card>", "<card>", "</section>", "<property name=\"BP\" value=\"9\"/>", "xmlns:x=\"y\"",
              "=", "/", "{", "}", "\u2028", "é", "{9A2309DB-C833-5DA0-862F-7514531F1E24}"]
XML_WORDS = ["qty=\"" + "9" * 5000 + "\"", "qty=\"-1\"", "qty=\"²\"", "value=\"" + "1" * 5000 + "\"",
             "value=\"\u22125\"", "name=\"Type\"", "name=\"BP\"", "name=\"Rules\"", "id=\"\"", "shared=\"True\"",
             "<section name=\"Main\">", "<card qty=\"3\" id=\"x\">x</card>", "line &amp; more\n" * 200,
             "x" * 100000, "<a>" * 200 + "</a>" * 200]


def mutate_xml_text(rng, text):
    """Character, markup and number edits of an XML text (it may stop being XML)."""
    return mutate_text(rng, text, XML_GLYPHS, XML_WORDS)


PY_GLYPHS = ["\n", "\t", "    ", "(", ")", "[", "]", "{", "}", ":", "'", '"', "\\", "#", "\x00", "\udcff",
             "lambda", "def ", "return", "print ", "9" * 5000, "0x" + "f" * 5000, "u'", "b'", "\"\"\"", "$"]


def mutate_python_text(rng, text):
    return mutate_text(rng, text, PY_GLYPHS, ["    " * 100 + "x", "(" * 500, "[" * 500, "x = " + "1 + " * 3000 + "1"])


# ---------------------------------------------------------------------------- zip packages
_ZIP_ENTRIES = {}


_DEFLATED = {}  # (level, an entry's data) -> its raw deflate stream (the seeds' entries, deflated once)


class _CachedDeflate:
    """A raw deflate compressor for zipfile whose result for data seen before comes from ``_DEFLATED``
    (the same bytes: deflate is deterministic): a package is mostly its seed's unchanged entries."""

    def __init__(self, level):
        self.level = -1 if level is None else level  # (zlib's default)
        self.parts = []

    def compress(self, data):
        self.parts.append(bytes(data))
        return b""

    def flush(self, *mode):
        import zlib
        data = b"".join(self.parts)
        hit = _DEFLATED.get((self.level, data))
        if hit is None:
            c = zlib.compressobj(self.level, zlib.DEFLATED, -15)
            hit = c.compress(data) + c.flush()
            if len(_DEFLATED) < 256 and len(data) < (1 << 16):
                _DEFLATED[(self.level, data)] = hit
        return hit


@contextlib.contextmanager
def _deflate_once():
    import zipfile
    real = zipfile._get_compressor
    zipfile._get_compressor = lambda kind, level=None: _CachedDeflate(level) if kind == zipfile.ZIP_DEFLATED \
        else real(kind, level)
    try:
        yield
    finally:
        zipfile._get_compressor = real


def mutate_zip(rng, data):
    """A zip package edited the way a hostile one can be: entries added under hostile names (climbs,
    absolute, drive letters, backslashes, case twins, links), headers with other flags, methods and
    sizes, corrupt or cut data, a zip bomb, XML entries with mutated text.  Returns bytes (the result
    may not be a zip at all)."""
    import io
    import struct
    import zipfile
    import zlib

    if data not in _ZIP_ENTRIES:  # the seeds' entries, read once
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                _ZIP_ENTRIES[data] = [(i.filename, z.read(i), i.external_attr, i.compress_type) for i in z.infolist()]
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError, NotImplementedError,
                struct.error, UnicodeDecodeError):
            return data
    entries = [list(e) for e in _ZIP_ENTRIES[data]]
    for _ in range(rng.randint(1, 3)):
        k = rng.random()
        i = rng.randrange(len(entries)) if entries else 0
        if k < 0.25 and entries:  # an XML or script entry's text
            xml = [e for e in entries if e[0].endswith((".xml", ".o8d", ".nuspec", ".rels", ".py"))]
            e = rng.choice(xml or entries)
            text = e[1].decode("utf-8", errors="replace")
            text = mutate_python_text(rng, text) if e[0].endswith(".py") else mutate_xml_text(rng, text)
            e[1] = text.encode("utf-8", errors="surrogatepass")
        elif k < 0.45:  # an entry under a hostile name
            base = rng.choice(entries)[0] if entries else "def/definition.xml"
            name = rng.choice(["../../evil.xml", "/tmp/evil.xml", "C:/evil.xml", "C:evil.xml", "def\\evil.xml",
                               "%2e%2e/evil.xml", "def/../../evil.xml", base.upper(), base.swapcase(), base,
                               base + "/", "def//x.xml", "./def/x.xml", "def/%5c.xml", "def/\u017f.xml",
                               hostile_name(rng, base.rsplit("/", 1)[-1])])
            attr = (0o120777 << 16) if rng.random() < 0.2 else 0
            entries.append([name, rng.choice([b"<x/>", b"/etc/passwd", b"", data[:200]]), attr,
                            rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])])
        elif k < 0.55 and entries:  # an entry becomes a link
            entries[i][2] = 0o120777 << 16
        elif k < 0.6:  # a small bomb: 2 MB of zeros in 2 KB, or a long text (header edits below can lie more)
            entries.append([rng.choice(["def/bomb.xml", "def/Sets/x/Cards/bomb.png", "bomb.bin"]),
                            bytes(2 << 20) if rng.random() < 0.5 else b"<a>" + b"x" * (1 << 20) + b"</a>", 0,
                            zipfile.ZIP_DEFLATED])
        elif k < 0.65 and entries:
            del entries[i]
        elif k < 0.7 and entries:
            entries.insert(rng.randrange(len(entries) + 1), list(rng.choice(entries)))
        else:
            break  # byte-level edits of the written zip below
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z, _deflate_once():
        for name, blob, attr, method in entries:
            info = zipfile.ZipInfo(name)
            info.external_attr = attr
            info.create_system = 3 if attr else 0
            info.compress_type = method
            try:
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    z.writestr(info, blob)
            except (ValueError, OSError):
                pass
    raw = bytearray(out.getvalue())
    for _ in range(rng.randint(0, 3)):
        heads = [m.start() for m in re.finditer(b"PK\x01\x02|PK\x03\x04", bytes(raw))]
        k = rng.random()
        if heads and k < 0.5:  # a header field: flags (encrypted), method, CRC, sizes, name length
            h = rng.choice(heads)
            central = raw[h + 2:h + 4] == b"\x01\x02"
            field = rng.choice([("flags", 8 if central else 6, 2), ("method", 10 if central else 8, 2),
                                ("crc", 16 if central else 14, 4), ("csize", 20 if central else 18, 4),
                                ("usize", 24 if central else 22, 4), ("namelen", 28 if central else 26, 2)])
            _name, off, width = field
            value = rng.choice([0, 1, 8, 9, 12, 14, 99, 0xFFFF, 0xFFFFFFFF, 1 << 30, rng.randrange(1 << (8 * width))])
            raw[h + off:h + off + width] = (value % (1 << (8 * width))).to_bytes(width, "little")
        elif k < 0.8 and raw:  # corrupt bytes somewhere (a deflate stream, a header)
            for _ in range(rng.randint(1, 8)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
        elif raw:  # a cut: some bytes out of the middle, or the end
            a = rng.randrange(len(raw))
            del raw[a:a + rng.randint(1, 64) if rng.random() < 0.7 else len(raw)]
    return bytes(raw)
