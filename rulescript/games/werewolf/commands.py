"""The werewolf profile's commands: the WWRF abilities as RuleScript commands.

The engine calls ``run_command(res, eff, S, restr)`` for every command effect (False when it failed),
``run_ability`` for ``+ability`` effects (the werewolf profile has none) and the cost functions (it
has no costs either).  ``S`` is the statement's targets (Card/Player values) or None when unset;
``restr`` is the duration restriction (phase, nextphase, nextday, persistent, permanent, untiluse).
Every change goes through the game (``res.game``), which records it and raises the events.
"""
from __future__ import absolute_import, division, print_function

from ...runtime.resolution import Player

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


def _text(res, eff, i):
    from ...runtime import expr as _expr
    root = _arg(eff, i)
    if root is None:
        return None
    return _expr.to_str(res, res.engine.evaluate(res, root))


def _key(text):
    return (text or "").strip().lower().replace(" ", "-").replace("_", "-")


def _cmd_learn(res, eff, S, restr):
    res.game.learn(res.controller, _text(res, eff, 0), res.source)


def _cmd_reveal(res, eff, S, restr):
    res.game.reveal(_key(_text(res, eff, 1)), _text(res, eff, 0), res.source, res.controller)


def _cmd_announce(res, eff, S, restr):
    res.game.announce(_text(res, eff, 0), res.source)


def _cmd_investigate(res, eff, S, restr):
    ps = _players(res, S)
    if not ps:
        res.ww_result = None
        return False
    what = _arg(eff, 0)
    value = _key(_text(res, eff, 1)) if _arg(eff, 1) is not None else None
    res.ww_result = res.game.investigate(res.controller, ps[0], what, value, res.source)
    return True


def _killing(kind):
    def run(res, eff, S, restr):
        done = False
        for p in _players(res, S):
            if res.game.killing(kind, p, res.source, res.controller):
                done = True
        return done
    return run


def _cmd_protect(res, eff, S, restr):
    against = _arg(eff, 0)
    kind = _arg(eff, 1)
    for p in _players(res, S):
        res.game.add_defense(p, against, kind, res.source, restr or "permanent")


def _cmd_apply(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    for p in _players(res, S):
        res.game.apply_attribute(p, name, res.source, restr or "permanent")


def _cmd_remove_attribute(res, eff, S, restr):
    name = _key(_text(res, eff, 0))
    removed = False
    for p in _players(res, S):
        if res.game.remove_attribute(p, name):
            removed = True
    return removed


def _cmd_join(res, eff, S, restr):
    group = _key(_text(res, eff, 0))
    for p in _players(res, S):
        res.game.join_group(p, group, res.source, restr or "persistent")


def _cmd_leave(res, eff, S, restr):
    group = _key(_text(res, eff, 0))
    for p in _players(res, S):
        res.game.leave_group(p, group)


def _cmd_create_poll(res, eff, S, restr):
    res.game.create_poll(_key(_text(res, eff, 0)), _key(_text(res, eff, 1)), res.source)


def _cmd_win(res, eff, S, restr):
    res.game.team_wins(res.source)


def _cmd_counter(res, eff, S, restr):
    mode = _arg(eff, 0)
    n = res.engine.number(res, _arg(eff, 1), "a counter value")
    for p in _players(res, S):
        res.game.set_counter(p, n if mode == "set" else res.game.state["players"][p]["counter"] + n)


COMMANDS = {
    "learn": _cmd_learn, "reveal": _cmd_reveal, "announce": _cmd_announce,
    "investigate": _cmd_investigate, "kill": _killing("kill"), "attack": _killing("attack"),
    "lynch": _killing("lynch"), "truekill": _killing("true kill"), "protect": _cmd_protect,
    "apply": _cmd_apply, "removeattribute": _cmd_remove_attribute, "join": _cmd_join,
    "leave": _cmd_leave, "createpoll": _cmd_create_poll, "win": _cmd_win, "counter": _cmd_counter,
}


def run_command(res, eff, S, restr):
    fn = COMMANDS.get(eff["cmd"])
    if fn is None:
        raise res.fail("RS510", "the werewolf game has no command '%s'" % eff["cmd"], eff.get("at"), eff["cmd"])
    return fn(res, eff, S, restr)


def run_ability(res, eff, S, restr, withdraw):
    raise res.fail("RS510", "the werewolf game has no abilities ('%s')" % eff.get("ability"), eff.get("at"))


def cost_can_pay(res, cost):
    return False


def cost_choose(res, cost):
    return None


def cost_pay(res, cost, plan):
    return None
