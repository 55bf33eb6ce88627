"""The RuleScript engine: executes compiled rules (IR) for a game through the rules port.

It implements the port the game calls (``docs/runtime.md``, "Rules port"): loading and unloading a
card's rules, resolving actions, dispatching events to listeners through one bus, asking hooks, and
collecting cost and damage adjustments.  Every resolution is a transaction: a snapshot of the state
is taken first and restored on any rule error, and the error is recorded with its source location.
A cascade of nested resolutions deeper than ``MAX_DEPTH`` is a loop: it is stopped with an error
naming the cards involved, and the state is restored as it was before the outermost resolution.

Every resolution has a budget (docs/runtime.md, "Limits"): numbers, string and list sizes, nesting
and evaluation steps are bounded, the same on Python 2.7 and 3.  A cascade (a resolution and the
ones nested in it) shares one budget of ``MAX_STEPS``; using it up (RS514) ends the whole cascade
like a loop.  No exception leaves a resolution: anything else raised inside one (a bug of the
engine or the game, or rules the game cannot carry out) is caught at the transaction boundary, the
state is restored, and it is recorded as an engine error (RS530) naming the rule and the card.
Only ``GameOver`` (the game ended), ``InvalidDecision`` (a decider's bad answer) and
``Interrupt`` (a host unwinding: undo, quit, a scripted decider that ran out) pass through.

The engine is game-agnostic: commands, costs and the vocabulary of names, attributes, zones and
filter words come from a game package (``rulescript/games/<name>``: its ``commands`` and ``VOCAB``).
"""
from __future__ import absolute_import, division, print_function

from . import expr as _expr
from . import plain
from . import targets as _targets
from .errors import GameOver, Interrupt, InvalidDecision
from .resolution import (COMMAND_STEPS, MAX_STEPS, RECORD_STEPS, RESOLUTION_STEPS, Cancelled, Card,
                         NoTargets, OverBudget, Player, Resolution, RuleError)

MAX_DEPTH = 32


class RuleLoop(RuleError):
    """Trigger chains that do not settle; handled by the outermost resolution."""


class _Stop(Exception):
    """Ends a resolution early (a declined [[may]], a to() that found nothing, a false guard)."""


def _by_lower_id(rules):
    """The rules keyed by lower-case id.  A mapping that reads its rules lazily (the OCTGN package's
    ``LazyRules``) gives that view itself, without reading any rule: ``lowered()``."""
    lowered = getattr(rules, "lowered", None)
    if lowered is not None:
        return lowered()
    return dict((k.lower(), v) for k, v in rules.items())


class Engine(object):
    """The rules port for RuleScript IR.

    ``rules``: rule id -> rule IR (``CompileResult.rules`` or the ``rules`` of an IR document).
    ``game``: the game package (``rulescript.games.load(name)``), which gives ``commands`` (the
    module with run_command, run_ability, cost_*) and ``vocab`` (the vocabulary object for
    expressions and filters); either may also be passed on its own.  ``errors`` collects every rule error
    as a plain dict; ``ran`` is the set of rule ids that resolved at least once.
    """

    def __init__(self, rules, game=None, commands=None, vocab=None, copier=None, thaw=None):
        if game is not None:
            commands = commands if commands is not None else game.commands
            vocab = vocab if vocab is not None else game.VOCAB
        if commands is None or vocab is None:
            raise ValueError("the engine needs a game: Engine(rules, game=rulescript.games.load(name))")
        self.rules = _by_lower_id(rules)
        self.commands = commands
        self.vocab = vocab
        self.errors = []
        self.ran = set()
        self.loaded = set()   # rule ids whose rules were loaded onto a card in play
        self.stack = []       # (iid, rule id) of the resolutions running, outermost first
        self.on_error = None  # optional callback(record)
        # How snapshots are taken: ``copier`` (default plain.deep_copy) makes the snapshot of the state
        # (less the decision log); ``thaw`` turns a snapshot back into plain data when a resolution is
        # rolled back.  A host may serialise on the way in (cheap) and decode only on a rollback (rare).
        self.copier = copier
        self.thaw = thaw
        self._purity = {}
        self._budget = [MAX_STEPS]  # the steps left to the cascade that is running
        # strict: let exceptions that are not rule errors propagate (for debugging the engine);
        # last_exception: the latest one caught as an engine error (RS530), for a host to show.
        self.strict = False
        self.last_exception = None
        self._recording = False     # an error record being emitted costs no steps
        # optional: the vocabulary hears of every resolution that ran to its end (a game that limits
        # how often a rule may run counts them there); ``result`` is the resolution's verdict
        self._resolved = getattr(vocab, "resolved", None)
        # optional: how many times a listener runs when its event comes (default once)
        self._repeats = getattr(vocab, "repeats", None)

    def snapshot(self, game):
        return plain.snapshot(game.state, skip=("log",), copier=self.copier)

    def restore(self, game, snap):
        plain.restore(game.state, self.thaw(snap) if self.thaw is not None else snap, keep=("log",))

    # ------------------------------------------------------------------ rule lookup
    def replace_rules(self, rules):
        """Hot reload: new rules apply to cards already in play at their next resolution."""
        self.rules = _by_lower_id(rules)

    def has_rules(self, rules_id):
        if isinstance(rules_id, list):
            return any(self.has_rules(r) for r in rules_id)
        return rules_id is not None and str(rules_id).lower() in self.rules

    def rules_of(self, game, iid):
        """The rules of card ``iid``: ``card["rules"]`` is one rule id, a list of them, or None."""
        rid = game.state["cards"][iid].get("rules")
        if rid is None:
            return []
        if isinstance(rid, list):
            out = []
            for r in rid:
                rule = self.rules.get(str(r).lower())
                if rule is not None:
                    out.append(rule)
            return out
        rule = self.rules.get(str(rid).lower())
        return [] if rule is None else [rule]

    def _listeners(self, game):
        ext = game.state["ext"]
        if "listeners" not in ext:
            ext["listeners"] = []
            ext["next_listener"] = 1
        return ext["listeners"]

    # ------------------------------------------------------------------ rules port
    def start(self, game):
        self._listeners(game)

    def has_action(self, game, iid):
        for rule in self.rules_of(game, iid):
            if rule["actions"]:
                return True
        return False

    def card_entered_play(self, game, iid):
        for rule in self.rules_of(game, iid):
            self._load(game, iid, rule)

    def _load(self, game, iid, rule):
        """Register abilities, run a static auto, subscribe listeners (state listeners run once)."""
        card = game.state["cards"][iid]
        self.loaded.add(rule["id"])
        for ability in rule["abilities"]:
            self.vocab.grant_printed_ability(game, iid, ability)
        auto = rule.get("auto")
        if not auto:
            return
        if auto["static"]:
            self._run_guarded(game, iid, rule, "static", lambda res: self._run_auto(res, rule, auto))
            return
        listeners = self._listeners(game)
        ext = game.state["ext"]
        lid = ext["next_listener"]
        ext["next_listener"] = lid + 1
        once = any("once" in ev["flags"] for ev in auto["events"])
        listeners.append({"id": lid, "src": iid, "rule": rule["id"], "once": once})
        for ev in auto["events"]:
            if ev.get("state"):
                event = {"name": ev["event"], "player": card["ctrl"], "obj": None, "trigger": None,
                         "bindings": {}}
                if not self.vocab.listener_suppressed(game, iid, rule, event):
                    self._run_listener(game, listeners[-1], rule, event, hook=False)
                break

    def card_left_play(self, game, iid):
        listeners = self._listeners(game)
        listeners[:] = [l for l in listeners if l["src"] != iid or l["once"]]
        game.end_effects_of(iid)

    def resolve_action(self, game, iid, why, rule_id=None, preselected=None):
        """Resolve the action of card ``iid`` (of its rule ``rule_id``, for a card with several rules).
        ``preselected``: Card/Player values picked with the activation request; the ``target``
        property takes them without a decision when they fit."""
        rule = self._rule_with_action(game, iid, rule_id)
        if rule is None:
            return False
        return self._activate(game, iid, rule, why, game.state["cards"][iid]["ctrl"], preselected=preselected)

    def _rule_with_action(self, game, iid, rule_id):
        for rule in self.rules_of(game, iid):
            if rule["actions"] and (rule_id is None or rule["id"] == str(rule_id).lower()):
                return rule
        return None

    def action_targets(self, game, iid, rule_id=None):
        """The objects the ``target`` property of the card's action could take, found silently (no
        decision, no change of state): what a host offers before it asks for an activation.  None when
        the rule has no ``target``; [] when its requisites do not hold."""
        rule = self._rule_with_action(game, iid, rule_id)
        if rule is None:
            return []
        ctrl = game.state["cards"][iid]["ctrl"]
        res = Resolution(game, self, iid, ctrl, rule, "query")
        for flt in rule["requisite"] or []:
            if not _targets.resolve(res, [flt], "silent"):
                return []
        if rule["target"] is None:
            return None
        found = []
        for flt in rule["target"]["filters"]:
            for v in _targets.resolve(res, [flt], "silent"):
                if v not in found:
                    found.append(v)
        return found

    def fire(self, game, event, player, obj=None, trigger=None, bindings=None):
        ev = {"name": event, "player": player, "obj": obj, "trigger": trigger, "bindings": bindings or {}}
        self._dispatch(game, ev, hook=False)

    def ask_hook(self, game, hook, player, obj=None, trigger=None, bindings=None):
        ev = {"name": hook, "player": player, "obj": obj, "trigger": trigger, "bindings": bindings or {}}
        return self._dispatch(game, ev, hook=True)

    def work(self, game, n):
        """The game emitted ``n`` records: inside a resolution they cost RECORD_STEPS each (a rule
        that moves whole piles in a loop uses its budget up like one that computes in a loop)."""
        if self.stack and not self._recording:
            b = self._budget
            b[0] -= n * RECORD_STEPS
            if b[0] < 0:
                b[0] = -1
                iid, rid = self.stack[-1]
                err = OverBudget("RS514", "this resolution used up its %d evaluation steps (a rule that "
                                 "loops over too much, or a trigger cascade that does too much)" % MAX_STEPS)
                rule = self.rules.get(rid)
                if rule is not None:
                    _locate(err, rule)
                raise err

    def probe_hook(self, game, hook, player, obj=None, trigger=None, bindings=None):
        """The verdicts ``ask_hook`` would give, leaving no trace: the state is restored, no record
        reaches the game's sink, no rule error is recorded, and a listener that would ask a
        question stops the probe (the answer is then None: only asking can tell).  The game
        offers only the options its hooks allow (a block that ``canblock`` refuses is not offered)."""
        ev = {"name": hook, "player": player, "obj": obj, "trigger": trigger, "bindings": bindings or {}}
        found = self._matching(game, ev, hook=True)
        if not found:
            return []
        snap = self.snapshot(game)
        saved = (getattr(game, "decider", None), getattr(game, "sink", None), len(self.errors),
                 self.on_error, set(self.ran), self.last_exception)
        game.decider = _NoQuestions()
        game.sink = _NoRecords()
        self.on_error = None
        try:
            verdicts = self._dispatch(game, ev, hook=True, found=found)
        except (_Asked, GameOver):
            verdicts = None
        finally:
            self.restore(game, snap)
            game.decider, game.sink = saved[0], saved[1]
            del self.errors[saved[2]:]
            self.on_error, self.ran, self.last_exception = saved[3], saved[4], saved[5]
        return verdicts

    def cost_adjustment(self, game, kind, player, card, paying):
        return self._adjustment(game, "beforepaycost" + kind, kind, player, card, paying)

    def damage_adjustment(self, game, source, player):
        # the event player of beforedamage is the source's controller (docs/language.md 7.2)
        owner = game.state["cards"][source]["ctrl"] if source in game.state["cards"] else player
        return self._adjustment(game, "beforedamage", "damage", owner, source, True)

    def _adjustment(self, game, event, kind, player, trigger, keep):
        ev = {"name": event, "player": player, "obj": None, "trigger": trigger, "bindings": {},
              "adjust": {"kind": kind, "sum": 0}}
        found = self._matching(game, ev, hook=False)
        if not found:
            return 0
        dry = not keep and not all(self._pure(rule) for _g, _p, _l, rule in found)
        snap = self.snapshot(game) if dry else None
        self._dispatch(game, ev, hook=False, found=found)
        if snap is not None:  # an affordability check must leave no trace
            self.restore(game, snap)
        return ev["adjust"]["sum"]

    def _pure(self, rule):
        """True if the rule's auto can only adjust a pending amount: no decisions, no randomness and
        no effect but the game's pure adjustment commands (an affordability check then needs no
        snapshot, because running it leaves the state as it was)."""
        rid = rule["id"]
        known = self._purity.get(rid)
        if known is None:
            known = self._purity[rid] = _pure_auto(rule, getattr(self.commands, "PURE_COMMANDS", ()))
        return known

    # ------------------------------------------------------------------ transactions

    def _run_guarded(self, game, iid, rule, why, body, controller=None, event=None):
        """One resolution as a transaction; returns (finished, result) or (False, None) on error."""
        if len(self.stack) >= MAX_DEPTH:
            names = []
            for sid, rid in self.stack[-MAX_DEPTH:] + [(iid, rule["id"])]:
                if rid not in names:
                    names.append(rid)
            err = RuleLoop("RS520", "trigger chain does not settle after %d nested resolutions; cards in the "
                           "loop: %s" % (MAX_DEPTH, ", ".join(names)), rule["src"][0], rule["src"][1:] + [rule["src"][2] + 1])
            err.card = (iid, rule["id"])
            err.why = why
            err.values = [("cards", names)]
            raise err
        card = game.state["cards"].get(iid)
        ctrl = (card["ctrl"] if card is not None else game.state.get("active", 0)) \
            if controller is None else controller
        res = Resolution(game, self, iid, ctrl, rule, why, event)
        if event is not None and "adjust" in event:
            res.adjust = event["adjust"]
        snap = res.snapshot = self.snapshot(game)
        outermost = not self.stack
        if outermost:
            self._budget = [MAX_STEPS]
        res.budget = self._budget
        self.stack.append((iid, rule["id"]))
        self.ran.add(rule["id"])
        try:
            _expr.charge(res, RESOLUTION_STEPS)
            result = body(res)
            done = self._resolved
            if done is not None:
                done(game, iid, rule, result)
            return True, result
        except GameOver:
            done = self._resolved
            if done is not None:  # the resolution ended the game: it did resolve
                done(game, iid, rule, True)
            raise
        except (Interrupt, InvalidDecision):
            raise
        except (RuleLoop, OverBudget) as err:
            if err.at is None:
                _locate(err, rule)
            if err.card is None:
                err.card = (iid, rule["id"])
                err.why = why
            if not outermost:
                raise
            # a chain that does not settle, or a cascade over its budget: the whole cascade is undone
            self.restore(game, snap)
            self._record(game, err)
            return False, None
        except RuleError as err:
            self.restore(game, snap)
            if err.at is None:
                _locate(err, rule)
            if err.card is None:
                err.card = (iid, rule["id"])
                err.why = why
            self._record(game, err)
            return False, None
        except Exception as exc:  # noqa: BLE001 - no exception leaves a resolution
            if self.strict:
                raise
            self.last_exception = exc
            self.restore(game, snap)
            self._record(game, _engine_error(exc, iid, rule, why))
            return False, None
        finally:
            self.stack.pop()

    def _record(self, game, err):
        at = err.at or [None, None, None]
        rec = {"code": err.code, "message": err.message, "file": err.file, "line": at[0], "col": at[1],
               "end_col": at[2] if len(at) > 2 else None, "text": err.text,
               "card": list(err.card) if err.card else None, "why": err.why,
               "values": [[n, _show(v)] for n, v in err.values],
               "turn": game.state.get("turn"), "phase": game.state.get("phase")}
        self.errors.append(rec)
        self._recording = True
        try:
            game.emit({"type": "rule_error", "error": rec})
        finally:
            self._recording = False
        if self.on_error is not None:
            self.on_error(rec)

    # ------------------------------------------------------------------ actions
    def key_values(self, game, iid, rule_id, key, tgt=None):
        """The values of an expression-valued rule key of the card's rule ``rule_id`` (a list: one value
        per occurrence of a repeating key), evaluated for that card with ``tgt`` as the rule targets.
        A rule error is recorded and gives False."""
        for rule in self.rules_of(game, iid):
            if rule["id"] != str(rule_id).lower():
                continue
            roots = (rule.get("keys") or {}).get(key)
            if roots is None:
                return []
            if not isinstance(roots, list):
                roots = [roots]
            res = Resolution(game, self, iid, game.state["cards"][iid]["ctrl"], rule, "query")
            res.tgt = list(tgt) if tgt is not None else None
            out = []
            for root in roots:
                try:
                    out.append(_expr.evaluate(res, root))
                except RuleError as err:
                    err.card = (iid, rule["id"])
                    err.why = "query"
                    self._record(game, err)
                    out.append(False)
            return out
        return []

    def key_targets(self, game, iid, key):
        """The objects a filter-valued rule key of the card (a profile's ``rule_keys`` of kind filter)
        selects, resolved silently for that card; [] when none of its rules has the key."""
        for rule in self.rules_of(game, iid):
            filters = (rule.get("keys") or {}).get(key)
            if filters:
                res = Resolution(game, self, iid, game.state["cards"][iid]["ctrl"], rule, "query")
                return _targets.resolve(res, filters, "silent")
        return []

    def _activate(self, game, iid, rule, why, controller, on_behalf=None, preselected=None):
        """Resolve an action of ``rule`` for source ``iid``; returns False, True or 'clear'."""
        def body(res):
            res.preselected = preselected
            return self._action_body(res, rule)
        ok, result = self._run_guarded(game, iid, rule, why, body, controller)
        return result if ok else False

    def _action_body(self, res, rule):
        game = res.game
        actions = rule["actions"]
        action = actions[0]
        if len(actions) > 1:
            labels = []
            for a in actions:  # equal names are told apart by a ' per earlier one (hp, hp')
                lab = a["label"] or _default_label(a)
                while lab in labels:
                    lab += "'"
                labels.append(lab)
            answer = game.ask("choose_action", res.controller, labels, 1, 1, "choose an action", res.source, True)
            if answer is None:
                return False
            action = actions[labels.index(answer)]
        snap = res.snapshot
        try:
            for flt in rule["requisite"] or []:
                if not _targets.resolve(res, [flt], "silent"):
                    raise _Stop()
            if rule["target"] is not None:
                res.tgt = self._rule_targets(res, rule["target"], res.preselected)
            self._vars(res, rule)
            costs = action["costs"]
            # costs are planned together: a card one cost will use is not available to another
            # ({D}{D} needs two cards); the check takes the costs with a filter first
            reserved = []
            for cost in sorted(costs, key=lambda c: c.get("filter") is None):
                if not self.commands.cost_can_pay(res, cost, reserved):
                    raise _Stop()
        except (_Stop, Cancelled, NoTargets):
            self.restore(game, snap)  # nothing changes before the costs are paid
            return False
        plans = []
        planned = []
        for cost in costs:
            plan = self.commands.cost_choose(res, cost, planned)
            if plan is None:
                self.restore(game, snap)
                return False
            plans.append(plan)
            planned.extend(plan)
        for cost, plan in zip(costs, plans):
            self.commands.cost_pay(res, cost, plan)
        res.prev = list(res.tgt or [])
        self._statements(res, action["stmts"], auto=False)
        return "clear" if res.cleared else True

    def _rule_targets(self, res, target, preselected=None):
        found = []
        for flt in target["filters"]:
            got = _targets.resolve(res, [flt], "target", preselected)
            if not got and not target["optional"]:
                raise NoTargets()
            for v in got:
                if v not in found:
                    found.append(v)
        return found

    def _vars(self, res, rule):
        for name, root in rule["vars"]:
            res.vars[name] = _expr.evaluate(res, root)

    def activate(self, res, iid):
        """``activate(c)``: resolve the action of c's rules on behalf of the source (the rules c has
        now: a card whose rules were replaced or lost resolves those it has, docs/language.md 6.2)."""
        rule = self._rule_with_action(res.game, iid, None)
        if rule is None:
            return False  # nothing to activate (cmd_activate does not read the result)
        return bool(self._activate(res.game, res.source, rule, "activate", res.controller))

    # ------------------------------------------------------------------ autos and events
    def _run_auto(self, res, rule, auto):
        try:
            res.tgt = self._rule_targets(res, rule["target"]) if rule["target"] is not None else [Card(res.source)]
        except (NoTargets, Cancelled):
            return False  # an auto whose required target finds nothing does not resolve
        self._vars(res, rule)
        res.prev = list(res.tgt)
        return self._statements(res, auto["stmts"], auto=True)

    def _matching(self, game, ev, hook):
        st = game.state
        listeners = self._listeners(game)
        active = st["active"]
        found = []
        for pos, lis in enumerate(listeners):
            rule = self.rules.get(lis["rule"])
            if rule is None or not rule.get("auto"):
                continue
            card = st["cards"].get(lis["src"])
            if card is None:
                continue
            for spec in rule["auto"]["events"]:
                if spec["event"] == ev["name"] and spec["hook"] == hook and self._matches(game, spec, lis, card, ev):
                    found.append((0 if card["ctrl"] == active else 1, pos, lis, rule))
                    break
        found.sort(key=lambda t: (t[0], t[1]))
        return found

    def _matches(self, game, spec, lis, card, ev):
        prefix = spec["prefix"]
        if prefix != "any":
            mine = ev["player"] == card["ctrl"]
            if (prefix == "opp") == mine:
                return False
        groups = spec["groups"]
        if spec["has_object"] and groups.get("object") != "any" and ev["obj"] != lis["src"]:
            return False
        want = groups.get("trigger_type")
        if want is not None:
            trig = ev["trigger"]
            if trig is None or not self.vocab.card_is_type(game, trig, want):
                return False
        if self.vocab.listener_suppressed(game, lis["src"], self.rules.get(lis["rule"]), ev):
            return False
        return True

    def _dispatch(self, game, ev, hook, found=None):
        verdicts = []
        for _grp, _pos, lis, rule in (found if found is not None else self._matching(game, ev, hook)):
            if lis not in self._listeners(game):
                continue  # unregistered by an earlier listener
            verdict = self._run_listener(game, lis, rule, ev, hook)
            if hook and verdict is not None:
                verdicts.append(verdict)
        return verdicts

    def _run_listener(self, game, lis, rule, ev, hook):
        if lis["once"]:
            listeners = self._listeners(game)
            if lis in listeners:
                listeners.remove(lis)  # consumed only because it actually runs
        times = self._repeats(game, lis["src"], rule) if self._repeats is not None else 1
        verdict = False
        for _ in range(times):  # a game may run a listener several times (or not at all)
            ok, verdict = self._run_guarded(game, lis["src"], rule, ev["name"],
                                            lambda res: self._run_auto(res, rule, rule["auto"]), event=ev)
            if not ok:
                return False
        return bool(verdict)

    # ------------------------------------------------------------------ statements
    def _statements(self, res, stmts, auto):
        """Run statements; returns the verdict (docs/language.md 7.6): the value of a leading
        condition-only statement, else whether the resolution ran to its end."""
        guarded = bool(stmts) and bool(stmts[0].get("cond_only"))
        for i, stmt in enumerate(stmts):
            try:
                self._statement(res, stmt, auto)
            except _Stop:
                return guarded and i > 0
        return True

    def _statement(self, res, stmt, auto):
        """Run one statement (its value is not used: a statement that stops raises _Stop)."""
        kind = stmt["kind"]
        game = res.game
        if kind == "may":
            question = stmt.get("question") or "Use this effect?"
            if not game.ask("yes_no", res.controller, [True, False], 1, 1, question, res.source):
                raise _Stop()
            self._body(res, stmt["branches"][0]["body"], withdraw=False)
            return
        if stmt.get("cond_only"):
            for br in stmt["branches"]:
                if br["cond"] is not None and not _expr.truthy(_expr.evaluate(res, br["cond"])):
                    raise _Stop()
            return
        # a plain statement is one branch without a condition
        for br in stmt["branches"]:
            if br["cond"] is None or _expr.truthy(_expr.evaluate(res, br["cond"])):
                if br["body"] is not None:  # [[if a]] (no body) [[elif b]] X: a true guard runs nothing
                    self._body(res, br["body"], withdraw=False)
                return
        if auto:
            for br in stmt["branches"]:
                if br["body"] is not None:
                    self._body(res, br["body"], withdraw=True)
        res.prev = []

    def _statement_targets(self, res, body, silent=False):
        clause = body["clause"]
        if clause is None:
            return res.tgt
        if "expr" in clause:
            found = _as_targets(_expr.evaluate(res, clause["expr"]))
        else:
            found = _targets.resolve(res, clause["filters"], "silent" if silent else "clause")
        if not found and not clause["opt"] and not silent:
            raise _Stop()
        return found

    def _body(self, res, body, withdraw):
        S = self._statement_targets(res, body, silent=withdraw)
        restr = body["restr"]
        if withdraw:
            for item in body["effects"]:
                eff = item["eff"]
                if "ability" in eff:
                    self.commands.run_ability(res, eff, S, restr, True)
            return True
        self.run_chain(res, body["effects"], S, restr)
        res.prev = list(S or [])
        return True

    def run_chain(self, res, chain, S, restr=None):
        """Run effects joined by & / && / || (docs/language.md 5.6); returns the last outcome."""
        last = True
        for item in chain:
            op = item["op"]
            if op == "&&" and not last:
                break
            if op == "||" and last:
                continue
            last = self._effect(res, item["eff"], S, restr)
        return last

    def _effect(self, res, eff, S, restr):
        b = res.budget
        b[0] -= COMMAND_STEPS
        if b[0] < 0:
            b[0] = -1
            raise _expr.over_budget(res, {"at": eff.get("at"), "text": eff.get("cmd") or eff.get("ability")})
        if "ability" in eff:
            self.commands.run_ability(res, eff, S, restr, False)
            return True
        if eff.get("ask"):
            if not res.game.ask("yes_no", res.controller, [True, False], 1, 1, "Use %s?" % eff["cmd"], res.source):
                return False  # declined: the effect failed (run_chain reads it as a truth value)
        ok = self.commands.run_command(res, eff, S, restr)
        return ok is not False

    # ------------------------------------------------------------------ services for commands
    def charge(self, res, steps):
        """Spend evaluation steps of the resolution's budget (RS514 when used up)."""
        _expr.charge(res, steps)

    def evaluate(self, res, root):
        return _expr.evaluate(res, root)

    def number(self, res, root, what="a number"):
        return _expr.number(res, root, what)

    def resolve(self, res, filters, purpose="clause", exclude=None):
        return _targets.resolve(res, filters, purpose, exclude=exclude)


class _Asked(Interrupt):
    """A probed hook would ask a question."""


class _NoQuestions(object):
    def decide(self, request):
        raise _Asked()


class _NoRecords(object):
    def emit(self, record):
        pass


def _pure_auto(rule, pure_commands):
    auto = rule.get("auto")
    if not auto or rule.get("target") is not None or rule.get("vars"):
        return False  # impure (_pure reads it as a truth value)
    stack = [auto["stmts"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("kind") == "may" or node.get("clause") is not None or node.get("ask"):
                return False  # impure (_pure reads it as a truth value)
            if "cmd" in node and node["cmd"] not in pure_commands:
                return False  # impure (_pure reads it as a truth value)
            if "ability" in node and "sign" in node:
                return False  # impure (_pure reads it as a truth value)
            stack.extend(node.values())
        elif isinstance(node, list):
            if node and node[0] in ("call", "filter_call") and len(node) > 1 and node[1] not in ("len", "abs", "min", "max", "sum", "any", "all", "round", "int", "str", "gettargets"):
                return False  # a game function may decide or draw randomly (flipCoin)
            stack.extend(node)
    return True  # pure: an affordability check needs no snapshot


def _as_targets(value):
    if value is None:
        return []
    if isinstance(value, (Card, Player)):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, (Card, Player))]
    return []


def _default_label(action):
    for stmt in action["stmts"]:
        for br in stmt["branches"]:
            body = br.get("body")
            if body and body["effects"]:
                eff = body["effects"][0]["eff"]
                return eff.get("cmd") or ("+" + eff.get("ability", "?"))
    return "action"


def _rule_at(rule):
    src = rule.get("src") or [None, None, None]
    if len(src) >= 3 and src[1] is not None:
        return src[0], [src[1], src[2], (src[2] or 0) + 1]
    return (src[0] if src else None), None


def _locate(err, rule):
    """A rule error raised without a position points at its rule's section."""
    f, at = _rule_at(rule)
    err.at = at
    if err.file is None:
        err.file = f


def _engine_error(exc, iid, rule, why):
    """RS530: an exception that is not a rule error, raised inside a resolution."""
    text = _clip(_exception_text(exc), 300)
    f, at = _rule_at(rule)
    err = RuleError("RS530", "engine error while resolving %s: %s: %s" % (
        rule.get("id"), type(exc).__name__, text), f, at, None,
        [("exception", type(exc).__name__)])
    err.card = (iid, rule.get("id"))
    err.why = why
    return err


def _exception_text(exc):
    try:
        return str(exc)
    except Exception:  # noqa: BLE001 - a message that cannot be printed
        return "(no message)"


def _clip(text, n):
    return text if len(text) <= n else text[:n - 3] + "..."


SHOW_ITEMS = 20
SHOW_CHARS = 200


def _show(value, depth=0):
    """A value as an error record shows it (plain data, lists and strings shortened)."""
    if isinstance(value, Card):
        return "card #%s" % (value.iid,)
    if isinstance(value, Player):
        return "player %d" % (value.idx + 1,)
    if isinstance(value, list):
        if depth >= 4:
            return "[...]"
        out = [_show(v, depth + 1) for v in value[:SHOW_ITEMS]]
        if len(value) > SHOW_ITEMS:
            out.append("... %d more" % (len(value) - SHOW_ITEMS))
        return out
    if _expr.is_str(value) and len(value) > SHOW_CHARS:
        return _clip(value, SHOW_CHARS) + " (%d characters)" % len(value)
    if _expr.is_number(value) and not -_expr.MAX_INT <= value <= _expr.MAX_INT:
        return _expr._short_number(value)  # printing a huge int may itself fail (Python 3 limits it)
    return value
