"""Bullet tree and control-flow normalisation (spec §2.1, §6).

Lines are attached by glyph depth; then each trigger's lines become statements:
Process/Evaluate pairs, implied Evaluate (condition lines under a trigger or under a condition),
implied Process (an ability line followed by deeper condition lines), *always* lines, ``Continue``,
``For Each`` and ``Action:``/parameter-only lines (whose parameters are lifted to the trigger).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .ast import Ability, Branch, Condition, Evaluate, ForEach, Params, Process, Statement, Trigger, TriggerBlock, Value
from .build import build_ability, build_prefix, build_trigger
from .context import Ctx
from .grammar import SegmentError
from .lines import LineInfo
from .params import parse_params


@dataclass
class Step:
    kind: str  # process, evaluate, otherwise, action, condition, foreach
    condition: Condition | None = None
    selector: Value | None = None


@dataclass
class LineNode:
    info: LineInfo
    depth: int
    trigger: Trigger | None = None
    chain: list[Step] = field(default_factory=list)
    ability: Ability | None = None
    params_only: bool = False
    children: list["LineNode"] = field(default_factory=list)
    broken: bool = False


def _report(ctx: Ctx, exc: SegmentError) -> None:
    from rulescript.diagnostics import did_you_mean

    from .grammar import describe_expected

    notes: list[str] = []
    if exc.known is not None and exc.name is not None:
        notes.extend(did_you_mean(exc.name, exc.known))
    expected = describe_expected(exc.expected) if exc.expected else []
    if expected and not notes and len(expected) <= 8:
        notes.append("expected: " + ", ".join(expected))
    ctx.diags.error(exc.code, exc.message, ctx.span(exc.col, exc.end_col), notes)


def _only_action(info: LineInfo) -> bool:
    """The line's segments are exactly ``Action`` (any case)."""
    segs = info.segments
    return len(segs) == 1 and segs[0].text.lower() == "action"


def parse_line(info: LineInfo, ctx: Ctx, params: Params | None) -> LineNode:
    """Parse the segments of a trigger or bullet line; errors are reported and the node marked broken."""
    ctx.line = info.line
    ctx.parsed.clear()
    node = LineNode(info, info.depth)
    segs = list(info.segments)
    try:
        if info.kind == "trigger":
            if not segs:
                raise SegmentError("missing trigger", 1, 2, "WW201")
            node.trigger = build_trigger(segs[0].text, segs[0].col, ctx)
            segs = segs[1:]
        last_is_ability = bool(segs) and not info.opens_block
        for i, seg in enumerate(segs):
            if i == len(segs) - 1 and last_is_ability:
                node.ability = build_ability(seg.text, seg.col, ctx)
                break
            kind, payload = build_prefix(seg.text, seg.col, ctx)
            if kind == "foreach":
                assert isinstance(payload, Value)
                node.chain.append(Step(kind, selector=payload))
            elif kind == "condition":
                assert isinstance(payload, Condition)
                node.chain.append(Step(kind, condition=payload))
            else:
                node.chain.append(Step(kind))
    except SegmentError as exc:
        _report(ctx, exc)
        node.broken = True
    if info.params:
        if params is not None:
            only_action = info.kind == "bullet" and (not info.segments or _only_action(info))
            if info.kind == "bullet" and not only_action:
                p = info.params[0]
                ctx.warning("WW903", "parameters on a bullet line belong to the trigger: hoisted", p.col, info.params[-1].end_col)
            node.params_only = only_action
            parse_params(info.params, ctx, params)
    elif info.kind == "bullet" and _only_action(info):
        node.params_only = True
    return node


# ------------------------------------------------------------------ normalisation

@dataclass
class _Unit:
    guard: str | None  # None (plain), condition, otherwise
    condition: Condition | None
    body: list[Statement]


def _is_guard(node: LineNode) -> bool:
    return bool(node.chain) and node.chain[0].kind in ("condition", "otherwise")


def statements(nodes: list[LineNode], ctx: Ctx) -> list[Statement]:
    """Statements of sibling lines: an Evaluate if any of them is a condition line."""
    if not nodes:
        return []
    units = [_unit(n, n.chain, n.ability, n.children, ctx) for n in _live(nodes)]
    if any(u.guard for u in units):
        return [Evaluate(_branches(units), span=None)]
    out: list[Statement] = []
    for u in units:
        out.extend(u.body)
    return out


def _live(nodes: list[LineNode]) -> list[LineNode]:
    """The lines that make statements (not broken, not parameter-only)."""
    return [n for n in nodes if not n.broken and not n.params_only]


def _branches(units: list[_Unit]) -> list[Branch]:
    branches: list[Branch] = []
    for u in units:
        if u.guard is None:
            branches.extend(Branch("always", body=[s]) for s in u.body)
            continue
        body = list(u.body)
        cont = False
        if body and isinstance(body[-1], Ability) and body[-1].type == "continue":
            body.pop()
            cont = True
        branches.append(Branch(u.guard, u.condition, body, cont))
    return branches


def _guarded(unit: _Unit) -> list[Statement]:
    """The statements of a unit; a guarded unit becomes a one-branch Evaluate."""
    return unit.body if unit.guard is None else [Evaluate(_branches([unit]))]


_PROCESS_ONLY = "a Process block holds abilities and For Each loops only"


def _line_error(ctx: Ctx, node: LineNode, message: str) -> None:
    """An error located on the whole of ``node``'s line (from its bullet glyph)."""
    info = node.info
    ctx.line = info.line
    ctx.error("WW103", message, info.glyph_col or info.indent + 1, len(info.text.rstrip()) + 1)


def _process(node: LineNode, rest: list[Step], ability: Ability | None, children: list[LineNode], ctx: Ctx) -> _Unit:
    """``Process:`` (its children are the block), ``Process: A`` and ``Process: For Each S: …``
    (one-line blocks; deeper lines follow them, typically an Evaluate)."""
    if rest and rest[0].kind != "foreach":
        _line_error(ctx, node, f"{_PROCESS_ONLY}: '{rest[0].kind}' cannot follow 'Process:' on a line")
        return _Unit(None, None, [])
    if ability is None and not rest:
        entries: list[Ability | ForEach] = []
        for child in _live(children):
            unit = _unit(child, child.chain, child.ability, child.children, ctx)
            if unit.guard is not None or not all(isinstance(s, (Ability, ForEach)) for s in unit.body):
                _line_error(ctx, child, f"{_PROCESS_ONLY}: conditions and Evaluate blocks go after it")
                continue
            entries.extend(unit.body)  # type: ignore[arg-type]
        return _Unit(None, None, [Process(entries)])
    if ability is None:  # `Process: For Each S:` with the loop's body below
        return _Unit(None, None, [Process(_unit(node, rest, None, children, ctx).body)])  # type: ignore[arg-type]
    head = _guarded(_unit(node, rest, ability, [], ctx)) if rest else [ability]
    return _Unit(None, None, [Process(head), *statements(children, ctx)])  # type: ignore[arg-type]


def _unit(node: LineNode, chain: list[Step], ability: Ability | None, children: list[LineNode], ctx: Ctx) -> _Unit:
    """The meaning of ``node``'s line from the step ``chain`` on (its prefixes not yet consumed)."""
    if not chain:
        if ability is None:
            return _Unit(None, None, statements(children, ctx))
        kids = _live(children) if children else children
        if kids and any(_is_guard(c) for c in kids):
            return _Unit(None, None, [Process([ability]), *statements(kids, ctx)])
        return _Unit(None, None, [ability, *statements(kids, ctx)])
    step, rest = chain[0], chain[1:]
    if step.kind == "action":
        return _unit(node, rest, ability, children, ctx)
    if step.kind == "process":
        return _process(node, rest, ability, children, ctx)
    if step.kind == "evaluate":
        if rest or ability is not None:
            inner = _unit(node, rest, ability, children, ctx)
            return _Unit(None, None, [Evaluate(_branches([inner]))])
        return _Unit(None, None, [Evaluate(_branches([_unit(c, c.chain, c.ability, c.children, ctx) for c in _live(children)]))])
    if step.kind == "foreach":
        assert step.selector is not None
        return _Unit(None, None, [ForEach(step.selector, _guarded(_unit(node, rest, ability, children, ctx)))])
    return _Unit(step.kind, step.condition, _guarded(_unit(node, rest, ability, children, ctx)))


def build_trigger_block(node: LineNode, params: Params, ctx: Ctx) -> TriggerBlock:
    assert node.trigger is not None
    body = _guarded(_unit(node, node.chain, node.ability, node.children, ctx))
    _check_results(body, ctx, node)
    return TriggerBlock(node.trigger, params, body, span=node.trigger.span)


_BARE_RESULT = re.compile(r"@Result(?![0-9A-Za-z])")


def _check_results(body: list[Statement], ctx: Ctx, node: LineNode) -> None:
    """Warn on ``@Result`` after a Process with several abilities (spec §6)."""
    for i, stmt in enumerate(body):
        if isinstance(stmt, Process) and len(stmt.abilities) > 1:
            if any(_BARE_RESULT.search(_walk_text(later)) for later in body[i + 1 :]):
                ctx.line = node.info.line
                ctx.warning("WW908", "@Result after a Process with several abilities: use @Result1…@Result7", 1)
                return


def _walk_text(stmt: Statement) -> str:
    from .build import condition_text

    if isinstance(stmt, Ability):
        return stmt.text + " "
    if isinstance(stmt, Evaluate):
        return " ".join((condition_text(b.condition) if b.condition else "") + " " + " ".join(_walk_text(s) for s in b.body) for b in stmt.branches) + " "
    if isinstance(stmt, ForEach):
        return " ".join(_walk_text(s) for s in stmt.body)
    if isinstance(stmt, Process):
        return " ".join(_walk_text(a) for a in stmt.abilities)
    return ""
