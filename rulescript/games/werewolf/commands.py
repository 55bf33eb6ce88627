"""The werewolf profile's commands: the WWRF abilities as RuleScript commands.

The engine calls ``run_command(res, eff, S, restr)`` for every command effect (False when it failed),
``run_ability`` for ``+ability`` effects (the werewolf profile has none) and the cost functions (it
has no costs either).  ``S`` is the statement's targets (Card/Player values) or None when unset;
``restr`` is the duration restriction (phase, nextday, persistent, permanent, untiluse ...).
Every change goes through the game (``res.game``), which records it and raises the events.  An
ability used on a player goes through ``game.use_on`` first: obstructions, redirections and the
visit (unless the rule's ``params`` say ``visitless``).
"""
from __future__ import absolute_import, division, print_function

from ...runtime import expr as _expr
from ...runtime.resolution import Card, Player

PURE_COMMANDS = ()


def _players(res, S):
    """Player-default commands: the players of S, or the owner when S holds none (an element of no
    player, a team or a group, has no default player)."""
    ps = [v.idx for v in S or () if isinstance(v, Player)]
    if ps:
        return ps
    ctrl = res.controller
    return [ctrl] if ctrl is not None and ctrl >= 0 else []


def _arg(eff, i, default=None):
    args = eff.get("args") or []
    return args[i] if i < len(args) else default


def _value(res, eff, i):
    root = _arg(eff, i)
    return None if root is None else res.engine.evaluate(res, root)


def _text(res, eff, i):
    root = _arg(eff, i)
    if root is None:
        return None
    return _expr.to_str(res, res.engine.evaluate(res, root))


def _key(text):
    return (text or "").strip().lower().replace(" ", "-").replace("_", "-")


def _params(res):
    return ((res.rule or {}).get("keys") or {}).get("params") or []


def _results(res):
    if not hasattr(res, "ww_results"):
        res.ww_results = []
    return res.ww_results


def _set_result(res, value, success=True, message=None):
    """The result of an ability (WWRF @Result, @ResultN) and what became of it: ``success`` (False when
    it was obstructed or cancelled) and ``message``, the feedback its user gets (the result as text
    unless given)."""
    res.ww_result = value
    _results(res).append(value)
    if not hasattr(res, "ww_outcomes"):
        res.ww_outcomes = []
    res.ww_outcomes.append({"success": "Success" if success else "Failure", "result": value,
                            "message": message if message is not None else
                            ("" if value is None else _expr.to_str(res, value))})
    res.game.last_result = value  # for On Action (@ActionResult)


def _actor(res):
    """Who uses the ability: the owner, or for an element of no player (a group's poll result) the
    poll's executor."""
    if res.controller is not None and res.controller >= 0:
        return res.controller
    ev = res.event or {}
    return (ev.get("bindings") or {}).get("executor")


def _visit(res, seat, atype, asub, parameters=(None, None)):
    """Use an ability on ``seat``: returns the seat reached, or None (obstructed, cancelled).
    ``parameters``: the visit's parameters (WWRF @VisitParameter, @SecondVisitParameter)."""
    target, feedback = res.game.use_on(res.source, _actor(res), seat, atype, asub, _params(res), parameters)
    if target is None:  # obstructed or cancelled: the result is the feedback, else a failure
        _set_result(res, feedback if feedback is not None else "Failure", False)
    return target


def _first_target(res, S, atype, asub, parameters=(None, None)):
    """The one target of a single-target ability, visited: (seat reached or None, whether S held one)."""
    ps = _players(res, S)
    if not ps:
        return None, False
    return _visit(res, ps[0], atype, asub, parameters), True


def _each_target(res, S, atype, asub, fn, parameters=(None, None)):
    done = False
    for p in _players(res, S):
        seat = _visit(res, p, atype, asub, parameters)
        if seat is not None:
            if fn(seat) is not False:
                done = True
    return done


# ---------------------------------------------------------------------------- information
def _cmd_learn(res, eff, S, restr):
    res.game.note("announcement", "learn")
    res.game.learn(res.controller, _text(res, eff, 0), res.source)


def _cmd_reveal(res, eff, S, restr):
    res.game.note("announcement", "reveal")
    where = _value(res, eff, 1)
    text = _text(res, eff, 0)
    if isinstance(where, (Player, list)):  # players (a selector, @AttackLocation a player): each learns it
        for v in where if isinstance(where, list) else [where]:
            if isinstance(v, Player):
                res.game.learn(v.idx, text, res.source)
        return
    if where is None:  # no place (@AttackLocation of a killing by nobody)
        return False
    res.game.reveal(_key(_expr.to_str(res, where)), text, res.source, res.controller)


def _cmd_announce(res, eff, S, restr):
    res.game.note("announcement", "announce")
    res.game.announce(_text(res, eff, 0), res.source)


def _cmd_investigate(res, eff, S, restr):
    what = _arg(eff, 0)
    levels = _arg(eff, 1)
    seat, had = _first_target(res, S, "investigating", what)
    if seat is None:
        return had  # obstructed or cancelled: the result is the feedback
    _set_result(res, res.game.investigate(res.controller, seat, what, None, res.source, levels))
    return True


def _cmd_investigate_attribute(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    seat, had = _first_target(res, S, "investigating", "attribute", (name, None))
    if seat is None:
        return had
    _set_result(res, res.game.investigate(res.controller, seat, "attribute", name, res.source))
    return True


def _cmd_count_role(res, eff, S, restr):
    res.game.note("investigating", "count")
    _set_result(res, res.game.count_role(_key(_text(res, eff, 0)), _arg(eff, 1)))


def _cmd_count_players(res, eff, S, restr):
    res.game.note("investigating", "player count")
    _set_result(res, len([v for v in S or () if isinstance(v, Player)]))


def _cmd_store(res, eff, S, restr):
    res.game.note("storing", None)
    _set_result(res, _value(res, eff, 0))


def _cmd_log(res, eff, S, restr):
    res.game.emit({"type": "log", "value": _expr.to_str(res, _value(res, eff, 0))})


# ---------------------------------------------------------------------------- targeting, killing
def _cmd_set_target(res, eff, S, restr):
    kind = _arg(eff, 0)
    if kind not in (None, "player"):  # a target that is not a player: no visit
        value = _value(res, eff, 1)
        if isinstance(value, list):
            if len(value) != 1:  # a target is one value
                _set_result(res, "Failure")
                return False
            value = value[0]
        if value is None:
            return False
        if kind in ("role", "attribute") and not isinstance(value, bool):
            value = _key(_expr.to_str(res, value))
        elif kind != "boolean":
            value = _expr.to_str(res, value)
        res.game.note("targeting", "target")
        res.game.set_target(res.source, value, kind)
        return True
    seat, _had = _first_target(res, S, "targeting", "target")
    if seat is not None:
        res.game.set_target(res.source, seat)
    return seat is not None


def _cmd_untarget(res, eff, S, restr):
    res.game.note("targeting", "untarget")
    res.game.set_target(res.source, None)


def _killing(kind):
    def run(res, eff, S, restr):
        return _each_target(res, S, "killing", kind,
                            lambda seat: res.game.killing(kind, seat, res.source, _actor(res)))
    return run


def _cmd_resurrect(res, eff, S, restr):
    res.game.note("resurrecting", None)
    done = False
    for p in _players(res, S):
        done = res.game.resurrect(p) or done
    return done


def _protection_terms(res, eff):
    """A protection's third and fourth arguments: the phase it holds in (None: always) and the seats
    whose killings it stops (None: everyone's)."""
    during = _arg(eff, 2)
    during = None if during in (None, "always") else during
    flt = _arg(eff, 3)
    by = None
    if flt is not None:  # only killings by these players are stopped
        by = [v.idx for v in res.engine.resolve(res, flt["filters"], "silent") if isinstance(v, Player)]
    return during, by


def _cmd_protect(res, eff, S, restr):
    against, kind = _arg(eff, 0), _arg(eff, 1)
    during, by = _protection_terms(res, eff)
    return _each_target(res, S, "protecting", kind,
                        lambda seat: res.game.add_defense(seat, against, kind, res.source, restr or "permanent", by,
                                                          during),
                        (against, kind))


def _cmd_absent(res, eff, S, restr):
    """An absence at a place (WWRF Protect P from F through Absence at L): a player (their home) or the
    id of a group or location."""
    place = _value(res, eff, 0)
    if isinstance(place, list):
        place = [v for v in place if v is not None]
        if len(place) != 1:  # an absence location must be one place
            _set_result(res, "Failure")
            return False
        place = place[0]
    if isinstance(place, Player):
        place = place.idx
    elif isinstance(place, Card):
        place = res.game._model_of(place.iid)
    elif place is None:
        _set_result(res, "Failure")
        return False
    else:
        place = _key(_expr.to_str(res, place))
    against = _arg(eff, 1)
    during, by = _protection_terms(res, eff)
    return _each_target(res, S, "protecting", "absence",
                        lambda seat: res.game.add_defense(seat, against, "absence", res.source, restr or "permanent",
                                                          by, during, place),
                        (against, "absence"))


def _cmd_disguise(res, eff, S, restr):
    strength = _arg(eff, 0)
    role = _key(_text(res, eff, 1))
    sub = "strongly" if strength == "strong" else "weakly"
    return _each_target(res, S, "disguising", sub,
                        lambda seat: res.game.add_disguise(seat, strength, role, res.source, restr or "permanent"),
                        (role, strength))


# ---------------------------------------------------------------------------- attributes
def _cmd_apply(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    values = [_text(res, eff, i) for i in (1, 2, 3) if _arg(eff, i) is not None]
    return _each_target(res, S, "applying", "add",
                        lambda seat: res.game.apply_attribute(seat, name, res.source, restr or "permanent", values),
                        (name, values[0] if values else None))


def _cmd_remove_attribute(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    return _each_target(res, S, "applying", "remove", lambda seat: res.game.remove_attribute(seat, name),
                        (name, None))


def _cmd_change_value(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    index = _arg(eff, 1)
    value = _value(res, eff, 2)
    if isinstance(value, (Player, Card)):
        value = _expr.to_str(res, value)
    return _each_target(res, S, "applying", "change",
                        lambda seat: res.game.change_value(seat, name, index, value))


def _cmd_redirect(res, eff, S, restr):
    abilities = _key(_text(res, eff, 0)).replace("-", " ")
    flt = _arg(eff, 1)
    frm = None
    if flt is not None:
        frm = [v.idx for v in res.engine.resolve(res, flt["filters"], "silent") if isinstance(v, Player)]
    done = False
    for p in _players(res, S):
        seat = _visit(res, p, "redirecting", None)
        if seat is not None:
            res.game.add_redirect(res.controller, abilities, frm, seat, res.source, restr or "permanent")
            done = True
    return done


def _cmd_obstruct(res, eff, S, restr):
    abilities = _text(res, eff, 0)
    abilities = abilities.strip().lower() if abilities else "all"
    feedback = _value(res, eff, 1)
    weights = None
    if isinstance(feedback, list):  # fake feedbacks drawn by chance (weights in thousandths)
        weights = [int(w) for w in (_value(res, eff, 2) or [])]
        feedback = [_expr.to_str(res, f) for f in feedback]
        if len(weights) != len(feedback):
            raise res.fail("RS510", "obstruct: %d fake feedbacks and %d chances" % (len(feedback), len(weights)),
                           eff.get("at"))
    elif feedback is not None:
        feedback = _expr.to_str(res, feedback)
    return _each_target(res, S, "obstructing", None,
                        lambda seat: res.game.add_obstruction(seat, abilities, feedback, res.source,
                                                              restr or "permanent", weights))


# ---------------------------------------------------------------------------- votes and polls
def _cmd_voting_power(res, eff, S, restr):
    which, op = _arg(eff, 0), _arg(eff, 1)
    n = res.engine.number(res, _arg(eff, 2), "a number of votes")
    sub = "absolute" if op == "set" else "relative"
    return _each_target(res, S, "manipulating", sub,
                        lambda seat: res.game.add_power(seat, which, op, n, res.source, restr or "permanent"))


def _cmd_poll_manipulate(res, eff, S, restr):
    poll = _key(_text(res, eff, 0))
    what = _arg(eff, 1)
    n = res.engine.number(res, _arg(eff, 2), "a number of votes") if _arg(eff, 2) is not None else None
    res.game.note("poll", "manipulation")
    for p in _players(res, S):
        res.game.add_poll_effect(what, poll, p, n, res.source, restr or "nextphase")
    return True


def _poll_effect(kind):
    def run(res, eff, S, restr):
        res.game.note("poll", kind)
        extra = _arg(eff, 1) if kind == "pollcancel" else None
        res.game.add_poll_effect(kind, _key(_text(res, eff, 0)), None, extra, res.source, restr or "untiluse")
    return run


def _cmd_create_poll(res, eff, S, restr):
    res.game.note("poll", "creation")
    res.game.create_poll(_key(_text(res, eff, 0)), _key(_text(res, eff, 1)), res.source, _text(res, eff, 2))


def _cmd_whisper(res, eff, S, restr):
    res.game.note("whispering", None)
    res.game.add_whisper(res.controller, _key(_text(res, eff, 0)), _text(res, eff, 1),
                         _key(_text(res, eff, 2)) if _arg(eff, 2) is not None else None, res.source,
                         restr or "persistent")


# ---------------------------------------------------------------------------- groups, roles, teams
def _cmd_join(res, eff, S, restr):
    group = _key(_text(res, eff, 0))
    res.game.note("joining", "add")
    for p in _players(res, S):
        res.game.join_group(p, group, res.source, restr or "persistent")


def _cmd_leave(res, eff, S, restr):
    group = _key(_text(res, eff, 0))
    res.game.note("joining", "remove")
    done = False
    for p in _players(res, S):
        done = res.game.leave_group(p, group) or done
    return done


def _cmd_disband(res, eff, S, restr):
    res.game.note("disband", None)
    if _arg(eff, 0) is not None:  # another group than the element's own (WWRF Disband #G)
        return res.game.disband_named(_key(_text(res, eff, 0)))
    res.game.disband(res.source)


def _cmd_group_change(res, eff, S, restr):
    res.game.note("changing", "group")
    return res.game.group_change(_key(_text(res, eff, 0)), _key(_text(res, eff, 1)))


def _cmd_grant(res, eff, S, restr):
    role = _key(_text(res, eff, 0))
    if not role:  # no element named (a selector that was nil): the ability fails
        return False
    return _each_target(res, S, "granting", "add", lambda seat: res.game.grant(seat, role, res.source), (role, None))


def _cmd_revoke(res, eff, S, restr):
    role = _key(_text(res, eff, 0))
    if not role:  # no element named (a selector that was nil): the ability fails
        return False
    return _each_target(res, S, "granting", "remove", lambda seat: res.game.revoke(seat, role), (role, None))


def _cmd_transfer(res, eff, S, restr):
    seat, _had = _first_target(res, S, "granting", "transfer")
    if seat is None:
        return False
    res.game.transfer(res.source, seat)
    return True


def _cmd_loyalty(res, eff, S, restr):
    kind = _arg(eff, 0)
    name = _key(_text(res, eff, 1))
    res.game.note("loyalty", kind)
    for p in _players(res, S):
        res.game.state["players"][p]["loyal"][kind] = name
        res.game.emit({"type": "loyalty", "player": p, "kind": kind, "to": name})


def _cmd_role_change(res, eff, S, restr):
    role = _key(_text(res, eff, 0))
    if not role:  # no element named (a selector that was nil): the ability fails
        return False
    return _each_target(res, S, "changing", "role", lambda seat: res.game.change_role(seat, role, res.controller),
                        (role, None))


def _cmd_alignment_change(res, eff, S, restr):
    team = _key(_text(res, eff, 0))
    if not team:  # no element named (a selector that was nil): the ability fails
        return False
    return _each_target(res, S, "changing", "alignment", lambda seat: res.game.set_team(seat, team, res.source),
                        (team, None))


# ---------------------------------------------------------------------------- choices, counters, displays
def _cmd_choices(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    options = [o.strip() for o in (_text(res, eff, 1) or "").split(",") if o.strip()]
    res.game.note("choices", "creation")
    ask = _arg(eff, 2) == "ask"  # no `Choice Choose` answers it: the player it is sent to is asked now
    for p in _players(res, S):
        res.game.create_choice(p, name, options, res.source)
        if ask:
            res.game.choose(p, name, None)


def _cmd_choose(res, eff, S, restr):
    res.game.note("choices", "choosing")
    sel = None
    for v in res.tgt or ():
        if isinstance(v, Player):
            sel = v.idx
            break
    fixed = _text(res, eff, 1) if _arg(eff, 1) is not None else None
    return res.game.choose(res.controller, _key(_text(res, eff, 0)), sel, fixed) is not None


def _cmd_counter(res, eff, S, restr):
    mode = _arg(eff, 0)
    n = res.engine.number(res, _arg(eff, 1), "a counter value")
    game = res.game
    game.note("counting", mode)
    # an element's own counter only when the statement names it (to(this)); without a target clause the
    # statement targets are the rule's, and the counter is the owner's
    cards = [v.iid for v in S or () if isinstance(v, Card)] if S is not res.tgt else []
    if cards and not [v for v in S if isinstance(v, Player)]:
        for iid in cards:
            game.set_card_counter(iid, n if mode == "set" else game.state["cards"][iid]["counter"] + n)
        return True
    for p in _players(res, S):
        game.set_counter(p, n if mode == "set" else game.state["players"][p]["counter"] + n)
    return True


def _cmd_emit(res, eff, S, restr):
    value = _text(res, eff, 0)
    end = _arg(eff, 1) == "end"
    res.game.note("emit", "end" if end else None)
    for p in _players(res, S):
        res.game.emit_value(p, value, end)


def _cmd_display(res, eff, S, restr):
    res.game.note("displaying", "create")
    values = [v.strip() for v in (_text(res, eff, 1) or "").split(",")]
    res.game.display(res.controller, _key(_text(res, eff, 0)), values)


def _cmd_update_display(res, eff, S, restr):
    res.game.note("displaying", "change")
    res.game.update_display(res.controller, _key(_text(res, eff, 0)), _arg(eff, 1), _text(res, eff, 2))


def _cmd_cancel(res, eff, S, restr):
    fb = _arg(eff, 0)
    if fb == "text":  # a feedback text (WWRF Cancel with `text`)
        return res.game.cancel_visit(_text(res, eff, 1))
    return res.game.cancel_visit(None if fb is None else fb.title())


def _cmd_reset(res, eff, S, restr):
    res.game.note("reset", None)
    if _arg(eff, 0) is not None:  # another element's channel (WWRF Conversation Reset #G)
        return res.game.reset_conversation(_key(_text(res, eff, 0)), res.source)
    res.game.emit({"type": "conversation_reset", "player": res.controller, "source": res.game._model_of(res.source)})


def _leave(how):
    def run(res, eff, S, restr):
        res.game.note(how, None)
        done = False
        for p in _players(res, S):
            done = res.game.leave_game(p, how) or done
        return done
    return run


def _cmd_win(res, eff, S, restr):
    res.game.note("win", None)
    res.game.team_wins(res.source)


def _cmd_each(res, eff, S, restr):
    arg = _arg(eff, 0)
    chain = arg["chain"]
    found = res.engine.resolve(res, arg["filters"], "silent") if arg.get("form") == "filter" else \
        res.engine.evaluate(res, {"e": arg["seq"], "at": arg.get("at"), "text": "", "type": None})
    for obj in list(found or []):
        res.elements.append(obj)
        try:
            res.engine.run_chain(res, chain, [obj])
        finally:
            res.elements.pop()
    return True


def _cmd_remember(res, eff, S, restr):
    res.ww_branch = _value(res, eff, 0)


def _cmd_check(res, eff, S, restr):
    return bool(_value(res, eff, 0))


def _cmd_activate(res, eff, S, restr):
    res.game.note("activating", _arg(eff, 0))
    for p in _players(res, S):
        res.game.state["players"][p]["active_while"] = _arg(eff, 0)
        res.game.emit({"type": "activate", "player": p, "while": _arg(eff, 0)})


def _lock(locked):
    def run(res, eff, S, restr):
        res.game.note("locking", "lock" if locked else "unlock")
        res.game.set_lock(_key(_text(res, eff, 0)), locked)
    return run


def _cmd_switch(res, eff, S, restr):
    seat, _had = _first_target(res, S, "switching", None)
    if seat is None or seat == res.controller:
        return False
    res.game.switch_roles(res.controller, seat)
    return True


def _cmd_copy(res, eff, S, restr):
    seat, _had = _first_target(res, S, "copying", None)
    if seat is None:
        return False
    # suppressed (WWRF Copy P (Suppressed)): the copied role's Starting triggers do not run
    return res.game.change_role(res.controller, res.game.role_of(seat), res.controller,
                                suppressed=_arg(eff, 0) == "suppressed")


def _cmd_shuffle(res, eff, S, restr):
    values = [v.strip() for v in (_text(res, eff, 0) or "").split(",") if v.strip()]
    res.game.note("shuffle", None)
    if not values:
        return False
    pick = values[res.game.randbelow(len(values))]
    res.game.emit({"type": "shuffle", "values": values, "result": pick})
    _set_result(res, pick)
    return True


def _cmd_execute(res, eff, S, restr):
    res.game.note("executing", _arg(eff, 0))
    _set_result(res, res.game.host_command(_arg(eff, 0), _key(_text(res, eff, 1)), res.source, res.controller))


def _cmd_format(res, eff, S, restr):
    """The template once per element of the value ($ is the element), one per line.  With a separator
    (WWRF ``split by `sep` as `type` ``) the value is a text split there first, each piece an element
    (read as ``type``: a player's name stays a name, a role id becomes the role's name)."""
    value = _value(res, eff, 0)
    template = (_text(res, eff, 1) or "$").replace("\\n", "\n")
    sep = _text(res, eff, 2)
    kind = _arg(eff, 3)
    res.game.note("formatting", "split" if sep else None)
    if sep:
        text = value if isinstance(value, str) else _expr.to_str(res, value)
        items = [piece.strip() for piece in text.split(sep) if piece.strip()]
        if kind == "role":
            items = [res.game.models.get(_key(i), {}).get("name", i) for i in items]
        _set_result(res, "\n".join(template.replace("$", i) for i in items))
        return
    items = value if isinstance(value, list) else [value]
    _set_result(res, "\n".join(template.replace("$", _expr.to_str(res, v)) for v in items))


COMMANDS = {
    "learn": _cmd_learn, "reveal": _cmd_reveal, "announce": _cmd_announce,
    "investigate": _cmd_investigate, "investigateattribute": _cmd_investigate_attribute,
    "countrole": _cmd_count_role, "countplayers": _cmd_count_players, "store": _cmd_store, "log": _cmd_log,
    "settarget": _cmd_set_target, "untarget": _cmd_untarget,
    "kill": _killing("kill"), "attack": _killing("attack"), "lynch": _killing("lynch"),
    "truekill": _killing("true kill"), "banish": _killing("banish"), "truebanish": _killing("true banish"),
    "resurrect": _cmd_resurrect, "protect": _cmd_protect, "absent": _cmd_absent, "disguise": _cmd_disguise,
    "apply": _cmd_apply, "removeattribute": _cmd_remove_attribute, "changevalue": _cmd_change_value,
    "redirect": _cmd_redirect, "obstruct": _cmd_obstruct,
    "votingpower": _cmd_voting_power, "pollmanipulate": _cmd_poll_manipulate,
    "addpoll": _poll_effect("polladd"), "cancelpoll": _poll_effect("pollcancel"),
    "deletepoll": _poll_effect("polldelete"), "createpoll": _cmd_create_poll, "whisper": _cmd_whisper,
    "join": _cmd_join, "leave": _cmd_leave, "disband": _cmd_disband, "groupchange": _cmd_group_change,
    "grant": _cmd_grant, "revoke": _cmd_revoke, "transfer": _cmd_transfer, "loyalty": _cmd_loyalty,
    "rolechange": _cmd_role_change, "alignmentchange": _cmd_alignment_change,
    "choices": _cmd_choices, "choose": _cmd_choose, "counter": _cmd_counter, "emit": _cmd_emit,
    "display": _cmd_display, "updatedisplay": _cmd_update_display, "cancel": _cmd_cancel,
    "resetconversation": _cmd_reset, "ascend": _leave("ascended"), "descend": _leave("descended"),
    "win": _cmd_win, "each": _cmd_each, "check": _cmd_check, "remember": _cmd_remember, "activate": _cmd_activate, "lock": _lock(True), "unlock": _lock(False),
    "switch": _cmd_switch, "copy": _cmd_copy, "shuffle": _cmd_shuffle, "execute": _cmd_execute,
    "format": _cmd_format,
}


def run_command(res, eff, S, restr):
    fn = COMMANDS.get(eff["cmd"])
    if fn is None:
        raise res.fail("RS510", "the werewolf game has no command '%s'" % eff["cmd"], eff.get("at"), eff["cmd"])
    return fn(res, eff, S, restr)


def run_ability(res, eff, S, restr, withdraw):
    raise res.fail("RS510", "the werewolf game has no abilities ('%s')" % eff.get("ability"), eff.get("at"))


def cost_can_pay(res, cost, reserved=None):
    return False


def cost_choose(res, cost, planned=None):
    return None


def cost_pay(res, cost, plan):
    return None
