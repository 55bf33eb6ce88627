"""The werewolf game: players, role cards, elements on the table, deaths, polls, lasting effects and the
night/day flow.

    game = WerewolfGame(models, roles, decider, sink=None, rules=None, seed=1, names=None, deal=True)
    result = game.run()    # {"winner": team id or None, "winners": [seats], "result", "reason", "days"}

``models`` maps element id to its cards.yaml entry; ``roles`` is the role list, one role id per seat
(``deal=True`` shuffles it with the game's generator before dealing, so seats get random roles).

Decision points (each one ``decider.decide(request)`` call with plain-data options):

* ``use_ability`` -- a player may use an action of their role (``prompt``: the WWRF prompt key such
  as ``seer.divine``; ``source``: the element card; options: the seats it may target, or
  ``["use"]`` for an action without a target; ``cancel`` true: None declines);
* ``vote`` -- a voter of an open poll votes (``prompt``: the poll id such as ``lynch`` or
  ``pack-hunt``; options: the seats that may be voted for);
* any decision a rule asks while it resolves (``choose_player``, ``choose_targets``, ``yes_no``).

Talking (day talk, the wolves' whispers) is host behaviour outside the engine.
"""
from __future__ import absolute_import, division, print_function

from . import data
from ...runtime import rng as _rng
from ...runtime.errors import GameError, GameOver
from ...runtime.plain import deep_copy
from ...runtime.ports import NoRules, NullSink, check_answer, make_request
from ...runtime.resolution import Player


def _phase_word(temporal):
    """``night 2+`` -> ("night", 2, True)."""
    parts = temporal.lower().split()
    num = parts[1]
    onward = num.endswith("+")
    return parts[0], int(num.rstrip("+")), onward


class WerewolfGame(object):
    def __init__(self, models, roles=None, decider=None, sink=None, rules=None, seed=0, names=None,
                 deal=True, state=None, day_limit=None):
        self.models = models
        self.decider = decider
        self.sink = sink if sink is not None else NullSink()
        self.rules = rules if rules is not None else NoRules()
        if state is not None:
            self.state = state
            return
        roles = list(roles or [])
        if not roles:
            raise GameError("a werewolf game needs a role list")
        for r in roles:
            if r not in models or models[r].get("type") != "role":
                raise GameError("unknown role %r" % (r,))
        names = list(names or ["Player %d" % (i + 1) for i in range(len(roles))])
        self.state = data.new_state(seed, _rng.seed_state(seed), names)
        if day_limit is not None:
            self.state["day_limit"] = day_limit
        self._roles = roles
        self._deal = deal

    # ------------------------------------------------------------------ ports
    def emit(self, record):
        self.sink.emit(record)

    def ask(self, kind, player, options, mn=1, mx=1, prompt="", source=None, cancel=False):
        if self.decider is None:
            raise GameError("no decider to answer %s" % kind)
        req = make_request(kind, player, options, mn, mx, prompt, source, cancel)
        answer = check_answer(req, self.decider.decide(req))
        self.state["log"].append([kind, player, deep_copy(answer)])
        self.emit({"type": "decision", "kind": kind, "player": player, "answer": answer, "prompt": prompt})
        return answer

    def fire(self, event, player, obj=None, trigger=None, bindings=None):
        self.rules.fire(self, event, player, obj, trigger, bindings)

    def randbelow(self, n):
        return _rng.randbelow(self.state["rng"], n)

    def shuffle_list(self, items):
        return _rng.shuffle(self.state["rng"], items)

    # ------------------------------------------------------------------ queries
    def model(self, iid):
        return self.models[self.state["cards"][iid]["model"]]

    def card(self, iid):
        return self.state["cards"][iid]

    def living(self):
        return [p["idx"] for p in self.state["players"] if p["alive"]]

    def role_of(self, seat):
        iid = self.state["players"][seat]["role"]
        return None if iid is None else self.state["cards"][iid]["model"]

    def has_attribute(self, seat, name):
        pl = self.state["players"][seat]
        role = self.role_of(seat)
        if role is not None and name in (self.models[role].get("attributes") or []):
            return True
        for iid in pl["attrs"]:
            if self.state["cards"][iid]["model"] == name:
                return True
        return False

    def is_member(self, seat, group):
        g = self.state["groups"].get(group)
        return g is not None and seat in g["members"]

    def phase_name(self):
        st = self.state
        if st["phase"] == "day":
            return "Day %d" % st["day"]
        if st["phase"] == "night":
            return "Night %d" % st["night"]
        return st["phase"]

    # ------------------------------------------------------------------ trigger parameters
    def rule_allowed(self, iid, rule, event=None):
        """Whether the rule of element card ``iid`` may run now: its temporal limit, its owner's status
        (a dead owner's rules run only for their own death, unless ``status`` allows) and its quantity.
        ``event``: the event dict of a listener (None for an action)."""
        keys = (rule or {}).get("keys") or {}
        st = self.state
        card = st["cards"].get(iid)
        if card is None:
            return False
        owner = card["owner"]
        own_death = event is not None and event["name"] == "death" and event["player"] == owner
        if owner >= 0 and not st["players"][owner]["alive"] and not own_death:
            status = keys.get("status", "alive")
            if status == "alive" or (status == "ghostly" and not self.has_attribute(owner, "ghostly")):
                return False
        temporal = keys.get("temporal")
        if temporal is not None:
            kind, num, onward = _phase_word(temporal)
            if st["phase"] != kind:
                return False
            now = st["day"] if kind == "day" else st["night"]
            if now < num or (now != num and not onward):
                return False
        limit = keys.get("quantity")
        if limit is not None and st["uses"].get("%s:%s" % (iid, rule["id"]), 0) >= limit:
            return False
        return True

    def count_use(self, iid, rule_id):
        key = "%s:%s" % (iid, rule_id)
        self.state["uses"][key] = self.state["uses"].get(key, 0) + 1

    # ------------------------------------------------------------------ elements in play
    def _new_card(self, model, owner, source=None):
        st = self.state
        iid = st["next_iid"]
        st["next_iid"] = iid + 1
        m = self.models[model]
        card = data.new_card(iid, model, owner, m.get("type"), m.get("rules") or [], source)
        st["cards"][iid] = card
        st["table"].append(iid)
        return iid

    def _enter(self, iid):
        """Load the card's rules and run its Starting triggers."""
        self.rules.card_entered_play(self, iid)
        card = self.state["cards"][iid]
        self.fire("starting", card["owner"], obj=iid)

    def _leave(self, iid):
        st = self.state
        if iid not in st["table"]:
            return
        self.rules.card_left_play(self, iid)
        st["table"].remove(iid)
        for pl in st["players"]:
            if iid in pl["attrs"]:
                pl["attrs"].remove(iid)

    def end_effects_of(self, source):
        """Persistent effects end when the element that made them leaves play."""
        st = self.state
        st["lasting"] = [e for e in st["lasting"] if not (e["source"] == source and e["until"] == "persistent")]
        for iid in list(st["table"]):
            c = st["cards"][iid]
            if c["source"] == source and c["until"] == "persistent" and c["kind"] == "attribute":
                self._leave(iid)

    def _ends_at(self, duration):
        """The phase index at whose end an effect of this duration ends (None: it does not)."""
        st = self.state
        now = st["pindex"]
        if duration == "phase":
            return now
        if duration == "nextphase":
            return now + 1
        if duration == "nextday":
            return now + 1 if st["phase"] == "day" else now
        return None

    # ------------------------------------------------------------------ operations (commands)
    def learn(self, seat, text, source):
        if seat is None or seat < 0:
            return self.announce(text, source)
        self.state["players"][seat]["learned"].append(text)
        self.emit({"type": "learn", "player": seat, "text": text, "source": self._model_of(source)})

    def reveal(self, where, text, source, seat):
        if where in ("self", "@self"):
            return self.learn(seat, text, source)
        g = self.state["groups"].get(where)
        if g is not None:
            for p in g["members"]:
                self.state["players"][p]["learned"].append(text)
        self.emit({"type": "reveal", "where": where, "text": text, "source": self._model_of(source)})

    def announce(self, text, source):
        self.state["story"].append(text)
        self.emit({"type": "announce", "text": text, "source": self._model_of(source)})

    def _model_of(self, iid):
        c = self.state["cards"].get(iid)
        return None if c is None else c["model"]

    def investigate(self, seat, target, what, value, source):
        if what == "attribute":
            result = "Success" if self.has_attribute(target, value) else "Failure"
        elif what == "role":
            result = self.models[self.role_of(target)].get("name")
        elif what == "alignment":
            result = self.state["players"][target]["team"]
        else:
            result = self.models[self.role_of(target)].get(what)
        self.emit({"type": "investigate", "player": seat, "target": target, "what": what, "value": value,
                   "result": result, "source": self._model_of(source)})
        return result

    def add_defense(self, seat, against, kind, source, duration):
        st = self.state
        lid = st["next_lasting"]
        st["next_lasting"] = lid + 1
        st["lasting"].append({"id": lid, "type": "defense", "player": seat, "against": against, "kind": kind,
                              "source": source, "until": duration, "ends_at": self._ends_at(duration)})
        self.emit({"type": "protect", "player": seat, "against": against, "kind": kind,
                   "source": self._model_of(source)})

    def killing(self, kind, seat, source, by):
        """A killing of ``kind`` on ``seat``: the first defense that stops it is used; else the player dies."""
        pl = self.state["players"][seat]
        if not pl["alive"]:
            return False
        stop = data.STOPPED_BY.get(kind, ())
        for dkind in data.DEFENSE_ORDER:
            for e in self.state["lasting"]:
                if e["type"] == "defense" and e["player"] == seat and e["kind"] == dkind and e["against"] in stop:
                    self.emit({"type": "defended", "player": seat, "killing": kind, "kind": dkind,
                               "defense": self._model_of(e["source"])})
                    if e["until"] == "untiluse":
                        self.state["lasting"].remove(e)
                    return False
        self.die(seat, kind, source)
        return True

    def die(self, seat, kind, source=None):
        pl = self.state["players"][seat]
        pl["alive"] = False
        pl["death"] = {"type": kind, "phase": self.phase_name()}
        self.emit({"type": "death", "player": seat, "killing": kind, "role": self.role_of(seat)})
        self.fire("death", seat, bindings={"victim": seat, "deathtype": kind})
        self.passive_round()

    def apply_attribute(self, seat, name, source, duration):
        if name not in self.models:
            raise GameError("unknown attribute %r" % (name,))
        if self.has_attribute(seat, name):
            return False
        iid = self._new_card(name, seat, source)
        card = self.state["cards"][iid]
        card["until"] = duration
        card["ends_at"] = self._ends_at(duration)
        self.state["players"][seat]["attrs"].append(iid)
        self.emit({"type": "attribute", "player": seat, "attribute": name, "on": True})
        self._enter(iid)
        return True

    def remove_attribute(self, seat, name):
        found = [i for i in self.state["players"][seat]["attrs"] if self.state["cards"][i]["model"] == name]
        for iid in found:
            self._leave(iid)
            self.emit({"type": "attribute", "player": seat, "attribute": name, "on": False})
        return bool(found)

    def join_group(self, seat, group, source, duration):
        st = self.state
        g = st["groups"].get(group)
        if g is None:
            if group not in self.models:
                raise GameError("unknown group %r" % (group,))
            iid = self._new_card(group, data.NARRATOR, source)
            g = st["groups"][group] = {"card": iid, "members": []}
            self._enter(iid)
        if seat not in g["members"]:
            g["members"].append(seat)
            self.emit({"type": "join", "player": seat, "group": group})

    def leave_group(self, seat, group):
        g = self.state["groups"].get(group)
        if g is not None and seat in g["members"]:
            g["members"].remove(seat)
            self.emit({"type": "leave", "player": seat, "group": group})

    def create_poll(self, poll, where, creator):
        st = self.state
        if poll not in self.models or self.models[poll].get("type") != "poll":
            raise GameError("unknown poll %r" % (poll,))
        pid = st["next_poll"]
        st["next_poll"] = pid + 1
        st["polls"].append({"id": pid, "poll": poll, "where": where, "creator": creator, "open": True,
                            "votes": {}})
        self.emit({"type": "poll_open", "poll": poll, "where": where})

    def set_counter(self, seat, value):
        self.state["players"][seat]["counter"] = value
        self.emit({"type": "counter", "player": seat, "value": value})

    def team_wins(self, source):
        st = self.state
        card = st["cards"][source]
        team = card["model"] if card["kind"] == "team" else (
            st["players"][card["owner"]]["team"] if card["owner"] >= 0 else None)
        winners = [p["idx"] for p in st["players"] if p["team"] == team]
        st["over"] = True
        st["winner"] = team
        st["winners"] = winners
        st["result"] = "win"
        st["reason"] = "win condition of %s" % (self.models[team]["name"] if team in self.models else team)
        self.emit({"type": "win", "team": team, "players": winners})
        raise GameOver(team, st["reason"])

    # ------------------------------------------------------------------ polls
    def _poll_rule_targets(self, poll_card, key):
        engine = self.rules
        finder = getattr(engine, "key_targets", None)
        if finder is None:
            return []
        return finder(self, poll_card, key)

    def run_polls(self):
        """Every open poll: its voters vote, in seat order; then it closes."""
        st = self.state
        for poll in [p for p in st["polls"] if p["open"]]:
            card = self._poll_card(poll["poll"])
            options = [v.idx for v in self._poll_rule_targets(card, "options") if isinstance(v, Player)]
            voters = [v.idx for v in self._poll_rule_targets(card, "voters") if isinstance(v, Player)]
            for voter in voters:
                if not options:
                    break
                choice = self.ask("vote", voter, list(options), 1, 1, poll["poll"], card, False)
                poll["votes"][voter] = choice
                self.emit({"type": "vote", "poll": poll["poll"], "player": voter, "target": choice})
            self._close_poll(poll)

    def _poll_card(self, poll):
        for iid in self.state["table"]:
            if self.state["cards"][iid]["model"] == poll:
                return iid
        raise GameError("poll %r is not on the table" % (poll,))

    def _close_poll(self, poll):
        poll["open"] = False
        tally = {}
        for voter in sorted(poll["votes"]):
            t = poll["votes"][voter]
            tally[t] = tally.get(t, 0) + 1
        winner = None
        if tally:
            top = max(tally.values())
            tied = sorted(t for t, n in tally.items() if n == top)
            winner = tied[0] if len(tied) == 1 else tied[self.randbelow(len(tied))]
        votes = [[t, tally[t]] for t in sorted(tally)]
        self.emit({"type": "poll_close", "poll": poll["poll"], "winner": winner, "votes": votes})
        creator = poll["creator"]
        if creator not in self.state["table"]:
            return
        if winner is None:
            self.fire("pollskipped", self.state["cards"][creator]["owner"], obj=creator)
        else:
            self.fire("pollclosed", self.state["cards"][creator]["owner"], obj=creator,
                      bindings={"winner": winner})

    # ------------------------------------------------------------------ actions
    def offered_actions(self, seat, timing):
        """[(card iid, rule id, prompt)] of the actions ``seat`` may use at this timing."""
        engine = self.rules
        rules_of = getattr(engine, "rules_of", None)
        if rules_of is None:
            return []
        out = []
        st = self.state
        for iid in list(st["table"]):
            card = st["cards"][iid]
            if card["owner"] != seat:
                continue
            for rule in rules_of(self, iid):
                keys = rule.get("keys") or {}
                if rule["actions"] and keys.get("timing") == timing and self.rule_allowed(iid, rule):
                    out.append((iid, rule["id"], keys.get("prompt") or rule["id"]))
        return out

    def offer_actions(self, timing):
        st = self.state
        for seat in range(len(st["players"])):
            for iid, rid, prompt in self.offered_actions(seat, timing):
                if iid not in st["table"]:
                    continue
                rule = self.rules.rules.get(rid)
                if rule is None or not self.rule_allowed(iid, rule):
                    continue
                found = self.rules.action_targets(self, iid, rid)
                if found is None:
                    options = ["use"]
                else:
                    options = [v.idx for v in found if isinstance(v, Player)]
                if not options:
                    continue
                answer = self.ask("use_ability", seat, options, 1, 1, prompt, iid, True)
                if answer is None:
                    continue
                self.emit({"type": "use", "player": seat, "ability": rid, "prompt": prompt,
                           "target": None if answer == "use" else answer})
                pre = None if answer == "use" else [Player(answer)]
                self.rules.resolve_action(self, iid, timing, rule_id=rid, preselected=pre)

    # ------------------------------------------------------------------ the flow
    def setup(self):
        st = self.state
        roles = list(self._roles)
        if self._deal:
            self.shuffle_list(roles)
        self.emit({"type": "setup", "players": [p["name"] for p in st["players"]]})
        self.rules.start(self)
        entered = []
        for seat, role in enumerate(roles):
            iid = self._new_card(role, seat)
            st["players"][seat]["role"] = iid
            st["players"][seat]["team"] = self.models[role].get("team")
            self.emit({"type": "deal", "player": seat, "role": role})
            entered.append(iid)
        for eid in sorted(self.models):
            m = self.models[eid]
            if m.get("type") in ("team", "poll") and m.get("rules"):
                iid = self._new_card(eid, data.NARRATOR)
                if m.get("type") == "team":
                    st["teams"][eid] = iid
                entered.append(iid)
        for iid in entered:
            self._enter(iid)

    def passive_round(self):
        """Passive triggers, then the win conditions."""
        self.fire("passive", data.NARRATOR)
        self.fire("wincheck", data.NARRATOR)

    def _expire(self):
        st = self.state
        now = st["pindex"]
        st["lasting"] = [e for e in st["lasting"] if e["ends_at"] is None or e["ends_at"] > now]
        for iid in list(st["table"]):
            c = st["cards"][iid]
            if c["kind"] == "attribute" and c.get("ends_at") is not None and c["ends_at"] <= now:
                self._leave(iid)
                self.emit({"type": "attribute", "player": c["owner"], "attribute": c["model"], "on": False})

    def play_phase(self, kind):
        st = self.state
        st["phase"] = kind
        st["pindex"] += 1
        if kind == "day":
            st["day"] += 1
        else:
            st["night"] += 1
        self.emit({"type": "phase", "phase": kind, "number": st["day"] if kind == "day" else st["night"]})
        self.fire("start" + kind, data.NARRATOR)
        self.passive_round()
        for timing in data.TIMINGS[kind]:
            self.offer_actions(timing)
            if timing.startswith("immediate"):
                self.run_polls()
        self.fire("end" + kind, data.NARRATOR)
        self._expire()
        self.passive_round()

    def next_phase(self):
        """(kind, number) of the phase the flow plays next."""
        st = self.state
        if st["phase"] in ("setup", "night"):
            return "day", st["day"] + 1
        return "night", st["night"] + 1

    def run(self, stop_at=None):
        """Play to the end of the game; with ``stop_at`` = (kind, number), return (None) as that phase
        is about to start (a state saved there resumes exactly with another ``run``)."""
        st = self.state
        try:
            if st["phase"] == "setup" and st["pindex"] < 0 and not st["table"]:
                self.setup()
                self.passive_round()
            while True:
                if stop_at is not None and self.next_phase() == tuple(stop_at):
                    return None
                if st["day"] >= st["day_limit"]:
                    st["over"] = True
                    st["result"] = "draw"
                    st["reason"] = "day limit (%d days)" % st["day_limit"]
                    raise GameOver(None, st["reason"])
                self.play_phase("day" if st["phase"] in ("setup", "night") else "night")
        except GameOver:
            st["over"] = True
        self.emit({"type": "gameover", "winner": st["winner"], "winners": st["winners"], "reason": st["reason"]})
        return {"winner": st["winner"], "winners": list(st["winners"]), "result": st["result"],
                "reason": st["reason"], "days": max(0, st["day"])}
