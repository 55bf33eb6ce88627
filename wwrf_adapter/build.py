"""Lark trees of segments → AST nodes (triggers, conditions, abilities)."""

from __future__ import annotations

from lark import Token, Tree

from . import vocab
from .ast import Ability, Condition, Trigger, Value
from .context import Ctx
from .grammar import SegmentError, canonical_word, lex, parse_tokens, render_tokens
from .values import annotation, atom_value, duration, split_list

# alias → (ability type, default subtype, {preceding keyword: argument name})
ABILITY_SHAPES: dict[str, tuple[str, str | None, dict[str | None, str]]] = {
    "a_feedback": ("feedback", None, {None: "value"}),
    "a_continue": ("continue", None, {}),
    "a_killing": ("killing", None, {None: "target", "KILL": "target", "ATTACK": "target", "LYNCH": "target", "BANISH": "target"}),
    "a_investigate": ("investigating", None, {"INVESTIGATE": "target"}),
    "a_attr_investigate": ("investigating", "attribute", {"INVESTIGATE": "target", "FOR": "attribute"}),
    "a_count_investigate": ("investigating", "count", {"INVESTIGATE": "role"}),
    "a_player_count": ("investigating", "player count", {"INVESTIGATE": "target"}),
    "a_target": ("targeting", "target", {"TARGET": "target"}),
    "a_untarget": ("targeting", "untarget", {}),
    "a_disguise": ("disguising", None, {"DISGUISE": "target", "AS": "role"}),
    "a_protect": ("protecting", None, {"PROTECT": "target", "FROM": "killings", "BY": "by", "AT": "location"}),
    "a_apply": ("applying", "add", {"APPLY": "attribute", "TO": "target"}),
    "a_add": ("joining", "add", {"ADD": "subject", "TO": "target", "AS": "membership"}),
    "a_remove": ("joining", "remove", {"REMOVE": "subject", "FROM": "target"}),
    "a_change_value": ("applying", "change", {"CHANGE": "attribute", "VALUE": "index", "TO": "value", "FOR": "target"}),
    "a_redirect": ("redirecting", None, {"REDIRECT": "abilities", "FROM": "from", "TO": "target"}),
    "a_manipulate": ("manipulating", None, {"MANIPULATE": "target", "TO": "amount", "BY": "amount"}),
    "a_poll_manipulate": ("poll", "manipulation", {"MANIPULATE": "poll"}),
    "a_whisper": ("whispering", None, {"FROM": "from", "TO": "target", "AS": "name"}),
    "a_join": ("joining", "add", {"JOIN": "group", "AS": "membership"}),
    "a_leave": ("joining", "remove", {"LEAVE": "group"}),
    "a_grant": ("granting", "add", {"GRANT": "role", "TO": "target"}),
    "a_revoke": ("granting", "remove", {"REVOKE": "role", "FROM": "target"}),
    "a_transfer": ("granting", "transfer", {"TRANSFER": "role", "FROM": "from", "TO": "target"}),
    "a_loyalty": ("loyalty", None, {"TO": "target"}),
    "a_obstruct": ("obstructing", None, {"OBSTRUCT": "target"}),
    "a_obstruct_type": ("obstructing", None, {"OBSTRUCT": "abilities", "BANG": "abilities", "FOR": "target", "ARROW": "feedback"}),
    "a_poll_add": ("poll", "addition", {"ADD": "poll"}),
    "a_poll_cancel": ("poll", "cancellation", {"CANCEL": "poll"}),
    "a_poll_silent_cancel": ("poll", "silent cancellation", {"CANCEL": "poll"}),
    "a_poll_delete": ("poll", "deletion", {"DELETE": "poll"}),
    "a_poll_create": ("poll", "creation", {"CREATE": "poll", "IN": "location", "AS": "name"}),
    "a_cancel": ("cancel", None, {"WITH": "feedback"}),
    "a_learn": ("announcement", "learn", {"LEARN": "info", "KNOW": "info"}),
    "a_reveal": ("announcement", "reveal", {"REVEAL": "info", "TO": "location"}),
    "a_announce": ("announcement", "announce", {"ANNOUNCE": "info"}),
    "a_role_change": ("changing", "role", {"CHANGE": "target", "TO": "role"}),
    "a_alignment_change": ("changing", "alignment", {"CHANGE": "target", "TO": "team"}),
    "a_group_change": ("changing", "group", {"CHANGE": "group", "TO": "new_group"}),
    "a_choice_create": ("choices", "creation", {None: "choice", "FOR": "target"}),
    "a_choice_choose": ("choices", "choosing", {None: "choice", "CHOOSE": "option"}),
    "a_count_step": ("counting", None, {"BY": "amount", "FOR": "target"}),
    "a_count_set": ("counting", "set", {"TO": "amount", "FOR": "target"}),
    "a_emit": ("emit", None, {"EMIT": "value", "FOR": "target"}),
    "a_store": ("storing", None, {"STORE": "value"}),
    "a_log": ("log", None, {"LOG": "value", "AS": "label"}),
    "a_ascend": ("ascend", None, {}),
    "a_descend": ("descend", None, {}),
    "a_win": ("win", None, {}),
    "a_disband": ("disband", None, {"DISBAND": "group"}),
    "a_reset": ("reset", None, {"RESET": "target"}),
    "a_switch": ("switching", None, {"WITH": "target"}),
    "a_shuffle": ("shuffle", None, {"SHUFFLE": "value"}),
    "a_copy": ("copying", None, {"COPY": "target"}),
    "a_display": ("displaying", "create", {"DISPLAY": "display"}),
    "a_update": ("displaying", "change", {"UPDATE": "display", "VALUE": "index", "TO": "value"}),
    "a_lock": ("locking", None, {"LOCK": "location", "UNLOCK": "location"}),
    "a_execute": ("executing", None, {"EXECUTE": "command", "TO": "location"}),
    "a_activate": ("activating", "while", {"ACTIVATE": "target", "WHILE": "status"}),
    "a_activate_always": ("activating", "always", {"ACTIVATE": "target"}),
    "a_resurrect": ("resurrecting", None, {"RESURRECT": "target"}),
    "a_format": ("formatting", None, {"FORMAT": "value", "AS": "template", "BY": "separator"}),
}
REF_ONLY = frozenset({"a_lock", "a_execute", "a_activate", "a_activate_always", "a_resurrect", "a_format", "a_poll_silent_cancel"})

_WORD_KEYS = {"DAY": "phase", "NIGHT": "phase", "WEAKLY": "strength", "STRONGLY": "strength",
              "INCREMENT": "direction", "DECREMENT": "direction", "LOCK": "mode", "UNLOCK": "mode"}


def _tokens_of(tree: Tree | Token) -> list[Token]:
    if isinstance(tree, Token):
        return [tree]
    out: list[Token] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            out.append(node)
        else:
            stack.extend(reversed(node.children))
    return out


def _edge(tree: Tree | Token, last: bool) -> Token:
    node = tree
    while not isinstance(node, Token):
        node = node.children[-1 if last else 0]
    return node


def build_value(tree: Tree, ctx: Ctx) -> Value:
    """``single``/``listval``/``num``/``division`` trees → Value."""
    data = tree.data
    if data == "single":  # atom ANN?: the common case, without the generic walk below
        children = tree.children
        tok = children[0].children[0]
        val = atom_value(tok, ctx, span=False)
        last = tok
        if len(children) > 1:
            last = children[1]
            val.annotation = val.type = annotation(last, ctx)
        val.span = ctx.span(tok.column or 1, last.end_column)
        return val
    if data == "num":
        return build_value(tree.children[0], ctx)
    if data in ("division", "plain_division"):
        kids = [c for c in tree.children if isinstance(c, Tree)]
        rounding = None
        if data == "division":
            rounding = str(kids[0].children[0]).lower()
            kids = kids[1:]
        items = [atom_value(k.children[0], ctx) for k in kids]
        text = (rounding + " " if rounding else "") + "/".join(i.text if i.kind not in ("constant", "info") else f"`{i.text}`" for i in items)
        return Value("division", text, type="number", items=items, rounding=rounding)
    atoms: list[Value] = []
    ann: str | None = None
    for child in tree.children:
        if isinstance(child, Tree) and child.data == "atom":
            atoms.append(atom_value(child.children[0], ctx))
        elif isinstance(child, Token) and child.type == "ANN":
            ann = annotation(child, ctx)
    if data == "listval":
        text = "+".join(_value_text(a) for a in atoms)
        val = Value("list", text, items=atoms)
    else:
        val = atoms[0]
    if ann is not None:
        val.annotation = ann
        val.type = ann
    first, last = _edge(tree, False), _edge(tree, True)
    val.span = ctx.span(first.column or 1, last.end_column)
    return val


def _value_text(v: Value) -> str:
    if v.kind in ("constant", "info"):
        return f"`{v.text}`"
    return v.text


def value_source(v: Value) -> str:
    """Canonical WWRF text of a value (used by the printer and for word lists)."""
    if v.kind == "list":
        base = "+".join(value_source(i) for i in v.items)
    else:
        base = _value_text(v)
    return base + (f"[{v.annotation}]" if v.annotation else "")


# ------------------------------------------------------------------ triggers

_TRIGGER_LOWER = {t.lower(): t for t in vocab.TRIGGERS}


def build_trigger(text: str, col: int, ctx: Ctx) -> Trigger:
    tokens = lex(text, col, ctx)
    if not tokens:
        raise SegmentError("missing trigger", col, col + 1, "WW201")
    try:
        tree = parse_tokens(tokens, "trigger", col + len(text))
    except SegmentError as exc:
        words = text.split(" [")[0]
        exc.code = "WW201"
        exc.message = f"unknown trigger '{words}'"
        exc.col, exc.end_col = col, col + len(words)
        exc.expected = frozenset()
        exc.known, exc.name = list(vocab.TRIGGERS), words
        raise
    trig = Trigger(name="", span=ctx.span(col, col + len(text)))
    for item in tree.children:
        if isinstance(item, Tree) and item.data in ("single", "listval"):
            v = build_value(item, ctx)
            if tree.data in ("t_poll_win", "t_emitted_value", "t_whisper", "t_choice"):
                trig.value = v
            else:
                trig.selector = v
        elif isinstance(item, Tree) and item.data == "word":
            word = item.children[0]
            trig.value = Value("words", str(word), type="option", span=ctx.span(word.column or col, word.end_column))
    all_toks = _tokens_of(tree)
    for tok in all_toks:
        if tok.type == "FILTER":
            inner = str(tok)[1:-1].strip()
            trig.filter_negated = inner.startswith("!")
            trig.filter = inner.lstrip("!").strip()
            kind = trig.filter.split()[-1].lower() if trig.filter else ""
            if kind not in vocab.ABILITY_TYPES:
                ctx.error("WW211", f"unknown ability type '{kind}' in trigger filter", tok.column or col,
                          tok.end_column, [t.capitalize() for t in vocab.ABILITY_TYPES], kind.capitalize())
    # canonical name from keyword tokens only (selectors / values / filters removed)
    val_toks = set()
    for item in tree.children:
        if isinstance(item, Tree) and item.data in ("single", "listval", "word"):
            val_toks.update([id(t) for t in _tokens_of(item)])
    name = " ".join([canonical_word(t) for t in all_toks if t.type != "FILTER" and id(t) not in val_toks])
    trig.name = _TRIGGER_LOWER.get(name.lower(), name)
    if trig.name in ("On Visit",):
        ctx.warning("WW909", "'On Visit' is only known to the reference parser", col, col + len(text))
    trig.prompting = trig.name in vocab.PROMPTING_TRIGGERS
    return trig


def trigger_text(t: Trigger) -> str:
    """Canonical WWRF text of a trigger."""
    words = t.name.split()
    filt = f" [{'!' if t.filter_negated else ''}{t.filter}]" if t.filter is not None else ""
    if t.selector is not None:
        return f"{words[0]} {value_source(t.selector)} {' '.join(words[1:])}{filt}"
    if t.value is not None:
        if t.name == "Choice Chosen":
            return f"Choice {value_source(t.value)} Chosen"
        if t.name == "On Poll Win":
            return f"On Poll {value_source(t.value)} Win"
        return f"On {value_source(t.value)} {' '.join(words[1:])}"
    return t.name + filt


# ------------------------------------------------------------------ conditions

_COND_OPS = {"c_is": "is", "c_is_not": "is not", "c_gt": ">", "c_lt": "<", "c_exists": "exists",
             "c_has": "has", "c_lacks": "lacks", "c_in": "in", "c_part_of": "part of",
             "pm_is": "is", "pm_votes": "votes"}


def build_condition_tree(tree: Tree, ctx: Ctx) -> Condition:
    if tree.data == "condition":
        return build_condition_tree(tree.children[0], ctx)
    if tree.data == "c_not":
        inner = [c for c in tree.children if isinstance(c, Tree)][0]
        return Condition("not", operands=[build_condition_tree(inner, ctx)])
    if tree.data == "c_logic":
        ops = [build_condition_tree(c, ctx) for c in tree.children if isinstance(c, Tree)]
        conns = [str(t).lower() for t in tree.children if isinstance(t, Token) and t.type in ("AND", "OR")]
        if not conns:
            return ops[0]
        if len(set(conns)) == 1:
            op = conns[0]
            if len(ops) > 4:
                first = _tokens_of(tree)[0]
                ctx.warning("WW911", f"'{op}' chains of more than four operands are rejected by the reference parser", first.column or 1)
        elif conns in (["and", "or"], ["or", "and"]):
            op = "-".join(conns)
        else:
            op = "mixed"
            first = _tokens_of(tree)[0]
            ctx.warning("WW911", "this mixture of 'and' and 'or' is rejected by the reference parser", first.column or 1)
        return Condition(op, operands=ops, connectives=conns)
    values = [build_value(c, ctx) for c in tree.children if isinstance(c, Tree)]
    cond = Condition(_COND_OPS[tree.data], left=values[0], right=values[1] if len(values) > 1 else None)
    if tree.data == "pm_votes":
        cond.connectives = ["hidden"] if any(isinstance(t, Token) and t.type == "HIDDEN" for t in tree.children) else []
    return cond


def build_condition(text: str, col: int, ctx: Ctx, start: str = "condition") -> Condition:
    tokens = lex(text, col, ctx)
    if not tokens:
        raise SegmentError("missing condition", col, col + 1)
    tree = parse_tokens(tokens, start, col + len(text))
    cond = build_condition_tree(tree, ctx)
    cond.span = ctx.span(col, col + len(text))
    return cond


def condition_text(c: Condition) -> str:
    if c.op == "not":
        return f"not ({condition_text(c.operands[0])})"
    if c.operands:
        parts = [f"({condition_text(c.operands[0])})"]
        for conn, op in zip(c.connectives, c.operands[1:]):
            parts.append(f"{conn} ({condition_text(op)})")
        return " ".join(parts)
    left = value_source(c.left) if c.left else ""
    if c.op == "exists":
        return f"{left} exists"
    if c.op == "votes":
        hidden = " hidden" if c.connectives else ""
        return f"{left} has {value_source(c.right)}{hidden} votes" if c.right else left
    op = {"in": "is in", "part of": "is part of"}.get(c.op, c.op)
    return f"{left} {op} {value_source(c.right) if c.right else ''}"


# ------------------------------------------------------------------ prefixes

_PREFIX_KINDS = {"p_process": "process", "p_evaluate": "evaluate", "p_otherwise": "otherwise",
                 "p_action": "action", "p_foreach": "foreach", "p_condition": "condition"}


def build_prefix(text: str, col: int, ctx: Ctx) -> tuple[str, Condition | Value | None]:
    """A segment between the trigger and the ability: ``(kind, condition or For Each selector)``."""
    tokens = lex(text, col, ctx)
    if not tokens:
        raise SegmentError("empty segment", col, col + 1)
    try:
        tree = parse_tokens(tokens, "prefix", col + len(text))
    except SegmentError as exc:
        exc.message = f"{exc.message} in condition '{text}'"
        raise
    kind = _PREFIX_KINDS[tree.data]
    if kind == "foreach":
        return kind, build_value([c for c in tree.children if isinstance(c, Tree)][0], ctx)
    if kind == "condition":
        cond = build_condition_tree(tree.children[0], ctx)
        cond.span = ctx.span(col, col + len(text))
        return kind, cond
    return kind, None


# ------------------------------------------------------------------ abilities


def build_ability(text: str, col: int, ctx: Ctx) -> Ability:
    tokens = lex(text, col, ctx)
    if not tokens:
        raise SegmentError("missing ability", col, col + 1)
    try:
        tree = parse_tokens(tokens, "ability", col + len(text))
    except SegmentError as exc:
        if exc.first or (exc.token is not None and tokens and exc.token is tokens[1 if len(tokens) > 1 else 0]
                         and tokens[0].type == "WORD"):
            word = str(tokens[0])
            exc.code = "WW202"
            exc.message = f"unknown ability '{word}'"
            exc.col, exc.end_col = tokens[0].column or col, tokens[0].end_column or col + 1
            exc.expected = frozenset()
            exc.known, exc.name = list(vocab.ABILITY_WORDS), word
        elif exc.token is not None and exc.token.type == "WORD":
            from .grammar import describe_expected

            exc.code = "WW202"
            exc.known = [w for w in describe_expected(exc.expected) if w[:1].isalpha() and w != "word"]
            exc.name = str(exc.token)
            exc.message = f"unknown word '{exc.token}' in ability '{text}'"
        else:
            exc.message = f"{exc.message} in ability '{text}'"
        raise
    alias = tree.data
    atype, subtype, names = ABILITY_SHAPES[alias]
    ab = Ability(type=atype, subtype=subtype, span=ctx.span(col, col + len(text)))
    if alias in REF_ONLY:
        ctx.warning("WW909", f"'{text.split()[0]}' abilities are only known to the reference parser", col, col + len(text.split()[0]))
    last_kw: str | None = None
    for child in tree.children:
        if isinstance(child, Token):
            t = child.type
            if t == "DUR":
                ab.duration = duration(child, ctx)
            elif t == "PGROUP":
                inner = str(child)[1:-1]
                if alias == "a_poll_manipulate":
                    ab.condition = build_condition(inner, (child.column or 1) + 1, ctx, "poll_manip")
                elif alias == "a_obstruct_type" and last_kw == "ARROW":
                    ab.options = split_list(inner)
                    ab.words["feedback"] = "chance"
                else:
                    ab.options = split_list(inner)
            elif t == "BANG":
                ab.words["negated"] = "true"
                last_kw = t
            else:
                if t in _WORD_KEYS:
                    ab.words[_WORD_KEYS[t]] = str(child).lower()
                if t == "END" and alias == "a_emit":
                    ab.subtype = "end"
                if t in ("TO", "BY") and alias == "a_manipulate":
                    ab.subtype = "absolute" if t == "TO" else "relative"
                last_kw = t
            continue
        d = child.data
        if d in ("single", "listval", "num", "division", "plain_division"):
            name = names.get(last_kw, names.get(None, (last_kw or "value").lower()))
            base = name
            k = 2
            while name in ab.args:
                name = f"{base}{k}"
                k += 1
            if alias == "a_format" and base == "template" and "separator" in ab.args:
                name = "split_type"
            ab.args[name] = build_value(child, ctx)
        elif d == "kill_kind":
            ab.subtype = " ".join(str(t).lower() for t in child.children)
        elif d == "inv_kind":
            ab.subtype = str(child.children[0]).lower()
        elif d == "defense":
            kind_tree = [c for c in child.children if isinstance(c, Tree) and c.data == "defense_kind"]
            if kind_tree:
                ab.subtype = str(kind_tree[0].children[0]).lower()
            else:
                ab.subtype = "absence"
                ab.args["location"] = build_value([c for c in child.children if isinstance(c, Tree)][0], ctx)
        elif d in ("manip_prop", "ability_type", "label", "fake"):
            inner = child.children[0]
            key = {"manip_prop": "property", "ability_type": "abilities", "label": "label", "fake": "feedback"}[d]
            if isinstance(inner, Tree) and inner.data in ("words", "type_words"):
                ab.words[key] = " ".join(str(t) for t in _tokens_of(inner))
                if d == "ability_type":
                    _check_ability_type(_tokens_of(inner), ctx)
            elif isinstance(inner, Tree):
                val = build_value(inner, ctx)
                if d == "ability_type" and val.kind == "success":  # the ability types Success, Failure
                    ab.words[key] = val.text
                else:
                    ab.args[key] = val
            elif isinstance(inner, Token) and inner.type == "PGROUP":
                ab.options = split_list(str(inner)[1:-1])
                ab.words["feedback"] = "chance"
            else:
                ab.words[key] = str(inner)[1:-1] if inner.type == "BT" else str(inner)
        elif d == "counter_mod":
            kw = str(child.children[0]).upper()
            ab.args[names[kw]] = build_value(child.children[1], ctx)
    if alias == "a_count_step":
        ab.subtype = ab.words.get("direction")
    if alias == "a_disguise":
        ab.subtype = ab.words.get("strength")
    if alias == "a_lock":
        ab.subtype = ab.words.get("mode")
    if alias == "a_loyalty" and ab.options:
        ab.subtype = ab.options[0].lower()
    _check_arity(alias, ab, ctx, col, col + len(text))
    ab.text = render_tokens(tokens)
    return ab


def _check_ability_type(tokens: list[Token], ctx: Ctx) -> None:
    """``Obstruct T for …``: ``T`` is an ability type, or a subtype followed by its type."""
    last = tokens[-1]
    kind = str(last).lower()
    if kind not in vocab.ABILITY_TYPES:
        ctx.error("WW211", f"unknown ability type '{last}' (expected a type such as Killing, or 'Subtype Type')",
                  last.column or 1, last.end_column, [t.capitalize() for t in vocab.ABILITY_TYPES], str(last).capitalize())


_ARITY = {"a_shuffle": (1, 5, "values"), "a_display": (0, 4, "display values"),
          "a_apply": (0, 3, "attribute values"), "a_add": (0, 3, "attribute values"),
          "a_choice_create": (1, 5, "options")}


def _check_arity(alias: str, ab: Ability, ctx: Ctx, col: int, end: int) -> None:
    limits = _ARITY
    if alias in limits:
        lo, hi, what = limits[alias]
        n = sum(1 for k in ab.args if k.startswith("value")) if alias == "a_shuffle" else len(ab.options)
        if n > hi or n < lo:
            ctx.error("WW302", f"{ab.type} takes {lo}–{hi} {what}, got {n}", col, end)
