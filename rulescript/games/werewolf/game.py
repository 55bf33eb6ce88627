"""The werewolf game: players, role cards, elements on the table, visits, killings and defenses, polls,
lasting effects and the night/day flow.

    game = WerewolfGame(models, roles, decider, sink=None, rules=None, seed=1, names=None, deal=True)
    result = game.run()    # {"winner": team id or None, "winners": [seats], "result", "reason", "days"}

``models`` maps element id to its cards.yaml entry; ``roles`` is the role list, one role id per seat
(``deal=True`` shuffles it with the game's generator before dealing, so seats get random roles).

Decision points (each one ``decider.decide(request)`` call with plain-data options):

* ``use_ability`` -- a player may use an action of their role (``prompt``: the WWRF prompt key such
  as ``seer.divine``; ``source``: the element card; options: the seats it may target, role ids for
  a role selection, or ``["use"]`` for an action without a target; ``cancel`` true: None declines);
  an action with a second selection asks a second ``use_ability`` whose prompt ends in ``#2``;
* ``vote`` -- a voter of an open poll votes (``prompt``: the poll id such as ``lynch`` or
  ``pack-hunt``; options: the seats that may be voted for; None abstains); a poll with revotes
  (the setting below) asks its voters again after a tie;
* ``choose_player`` of the narrator (player -1, prompt ``<poll>.tie``, options: the tied seats) --
  who wins a tied poll, when the setting ``ties`` is ``decide``;
* any decision a rule asks while it resolves (``choose_action`` for a choice, ``choose_player``...).

Talking (day talk, the wolves' whispers) is host behaviour outside the engine; ``speak(seat, name)``
tells the game that a player spoke through a whisper connection.

``settings`` (plain data, kept in the state) let a host choose how polls end; the defaults are WWRF's:

* ``revotes``: {poll id: n} -- after a tie the voters vote again, up to n more rounds (record
  ``poll_revote`` with the tied seats and the round's votes before each new round);
* ``ties``: ``random`` (the game's generator breaks a tie that remains) or ``decide`` (the decider is
  asked, see above);
* ``option_votes``: {poll id: n} -- every option of the poll counts n votes in each round besides the
  votes cast (AIWolf's forced attack: every living human counts one vote, so a night whose wolves cast
  no valid vote still attacks one of them);
* ``revote_empty``: True -- a round in which nobody has a vote is voted again too, like a tie;
* ``standing_ties``: [poll id, ...] -- a tie that remains after the last round elects nobody (AIWolf's
  enableNoExecution and enableNoAttack).
"""
from __future__ import absolute_import, division, print_function

from . import data
from ...runtime import rng as _rng
from ...runtime.errors import GameError, GameOver
from ...runtime.plain import deep_copy
from ...runtime.ports import GamePorts, NoRules, NullSink
from ...runtime.resolution import Player


def host_key(name):
    """The key of a host information name: ``%Player 1%``, ``player1`` and ``Player_1`` are ``player1``;
    the options of ``%Yes | No%`` are kept apart (``yes|no``)."""
    text = ("%s" % (name,)).strip().strip("%").strip().lower()
    if "|" in text:
        return "|".join(o.strip() for o in text.split("|"))
    return "".join(ch for ch in text if not (ch.isspace() or ch in "_-"))


def host_kind(key):
    """What a host information key holds: role, player, number, string, partialrolelist, option, or
    None for a name the guides do not know."""
    if "|" in key:
        return "option"
    if key == "partialrolelist":
        return key
    for kind in ("role", "player", "number", "string"):
        if key.startswith(kind):
            return kind
    return None


def _is_seat(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _word(w):
    """A poll's word option as the game keeps it: Abstain and Random in lower case, others as written."""
    w = w.strip()
    return w.lower() if w.lower() in ("abstain", "random") else w


def vote_order(v):
    """Sort key of what a poll's votes name: the seats in seat order, then the word options."""
    return (0, v, "") if _is_seat(v) else (1, 0, "%s" % (v,))


def host_options(name):
    """The options of ``%a|b|c%`` as written."""
    return [o.strip() for o in ("%s" % (name,)).strip().strip("%").split("|")]


def _phase_word(temporal):
    """``night 2+`` -> ("night", 2, True); ``night`` -> ("night", None, True)."""
    parts = temporal.lower().split()
    if len(parts) == 1:
        return parts[0], None, True
    num = parts[1]
    return parts[0], int(num.rstrip("+")), num.endswith("+")


def _matches_type(spec, atype, asub):
    """An ability filter (``killing``, ``attack killing``, ``!killing``, ``all``) against a type."""
    spec = (spec or "all").strip().lower()
    neg = spec.startswith("!")
    spec = spec.lstrip("!").strip()
    if spec in ("all", "all abilities"):
        hit = True
    elif spec == "non-killing abilities":
        hit = atype != "killing"
    else:
        words = spec.split()
        if len(words) >= 2:
            hit = words[-1] == atype and " ".join(words[:-1]) == (asub or "")
        else:
            hit = spec == atype or spec == (asub or "")
    return hit != neg


class WerewolfGame(GamePorts):
    def __init__(self, models, roles=None, decider=None, sink=None, rules=None, seed=0, names=None,
                 deal=True, state=None, day_limit=None, settings=None):
        self.models = models
        self.decider = decider
        self.sink = sink if sink is not None else NullSink()
        self.rules = rules if rules is not None else NoRules()
        self._visits = []      # the visits being resolved (innermost last), for cancel()
        self._noted = []       # (type, subtype, target, result) of the abilities of the running action
        self._secondary = None  # the second selection of the action being resolved
        self._selected = None   # the value an action selected that is not a player (a role, a category...)
        self.completed = set()  # ids of the rules that resolved to their end (not state: for coverage)
        self._table_version = 0  # changes whenever a card enters, leaves or changes owner
        self._removing = set()  # attributes whose On Removal is running (a removal in it is the same one)
        self._index_key = None
        self._index = {}
        self.last_result = None    # the latest result and feedback of an ability (for On Action)
        self.last_feedback = None
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
        self.state["settings"] = deep_copy(settings or {})
        # the roles to deal are state: a state saved before the deal resumes exactly
        self.state["deal"] = {"roles": roles, "shuffle": bool(deal)}

    # ------------------------------------------------------------------ ports
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
        for iid in pl["attrs"] + pl["extras"]:
            model = self.state["cards"][iid]["model"]
            if model == name or name in (self.models[model].get("attributes") or []):
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

    def _model_of(self, iid):
        c = self.state["cards"].get(iid)
        return None if c is None else c["model"]

    def _owner(self, iid):
        c = self.state["cards"].get(iid)
        return data.NARRATOR if c is None else c["owner"]

    # ------------------------------------------------------------------ trigger parameters
    def rule_allowed(self, iid, rule, event=None):
        """Whether the rule of element card ``iid`` may run now: its temporal limit, its owner's status
        (a dead owner's rules run only for their own death, unless ``status`` allows), its quantity
        and its succession limit.  ``event``: the event dict of a listener (None for an action)."""
        keys = rule.get("keys") or {}  # every caller has the rule (an action's, a listener's)
        st = self.state
        card = st["cards"].get(iid)
        if card is None:
            return False  # a card the game does not have: nothing of it runs
        owner = card["owner"]
        # a dead owner's element still hears its own death, and an attribute its own removal
        own_death = event is not None and (event["name"] == "death" and event["player"] == owner or
                                           event["name"] == "removal" and event["obj"] == iid)
        if owner >= 0 and not own_death:
            # the rule's own status, else what an Activate ability set for the owner, else alive
            status = keys.get("status")
            model = self.models[card["model"]]  # a card in play is always of an element of the game
            if status is None and model.get("ghostly"):  # WWRF Ghostly Role/Attribute: only while ghostly
                status = "ghostly"
            elif status is None and model.get("haunted"):  # WWRF Haunted ...: alive and ghostly
                status = "alive-or-ghost"
            if status is None:  # an Activate ability widens when the owner's elements work
                status = {"ghostly": "alive-or-ghost", "always": "any"}.get(
                    st["players"][owner].get("active_while"), "alive")
            alive = st["players"][owner]["alive"]
            if status == "alive-or-ghost":
                status = "alive" if alive else "ghostly"
            if status == "alive" and not alive:
                return False
            if status == "ghostly" and (alive or not self.has_attribute(owner, "ghostly")):
                return False
        elif owner < 0 and self.models[card["model"]].get("ghostly"):
            # a Ghostly Group: its rules run while one of its members is a ghost
            g = st["groups"].get(card["model"]) or {}
            if not [p for p in g.get("members", ()) if not st["players"][p]["alive"] and
                    self.has_attribute(p, "ghostly")]:
                return False
        temporal = keys.get("temporal")
        if temporal is not None:
            kind, num, onward = _phase_word(temporal)
            if st["phase"] != kind:
                return False
            now = st["day"] if kind == "day" else st["night"]
            if num is not None and (now < num or (now != num and not onward)):
                return False
        ukey = "%s:%s" % (iid, rule["id"])
        limit = keys.get("quantity")
        if limit is None and "quantityof" in keys:
            limit = self._quantity_of(iid, rule)
        if limit is not None and st["uses"].get(ukey, 0) >= limit:
            return False
        if keys.get("succession") == "no succession":
            last = st["last_used"].get(ukey)
            if last is not None and last[0] == st["pindex"] - 2:
                return False
        return True

    def _quantity_of(self, iid, rule):
        """A quantity that is a value (WWRF ``Quantity: @Self->Counter``), read now; a value that is
        not a number allows no use."""
        values = getattr(self.rules, "key_values", None)
        if values is None:
            return 0  # a rules port that reads no values (NoRules) checks no rule
        got = values(self, iid, rule["id"], "quantityof")
        n = got[0] if got else 0
        if isinstance(n, bool) or not isinstance(n, (int, float)):
            return 0
        return int(n)

    def host_info(self, name, among=None):
        """Host information (WWRF %Role%, %Role2%, %Player1%, %Number%, %String%, %PartialRoleList%,
        %Yes|No%): what the game's settings say under ``host`` (a mapping of names such as ``Role``,
        ``Player1``, ``Number``; names match without case, spaces or ``%``), else derived from the game
        where a host without notes could: ``partialrolelist`` counts the dealt roles by class and
        category ("2 Townsfolk Miscellaneous, 1 Werewolf Killing"); ``role...`` is a role of the dealt
        list and ``player...`` a player (a seat) drawn once by the game's generator (a different one for
        each name while there are), then kept; ``a|b|c`` is one of its options drawn the same way.
        ``number...`` and ``string...`` cannot be derived: a GameError says the host did not set them.
        ``among`` (WWRF %Role:^(...)%, %Player:@(...)%) is the list the value must come from."""
        st = self.state
        key = host_key(name)
        kind = host_kind(key)
        if kind is None:
            raise GameError("%r is not host information (Role..., Player..., Number..., String..., "
                            "PartialRoleList or options a|b)" % (name,))
        shown = "%" + ("%s" % (name,)).strip().strip("%") + "%"
        given = dict((host_key(k), v) for k, v in (st.get("settings", {}).get("host") or {}).items())
        if key in given:
            return self._host_given(shown, name, kind, given[key], among)
        if kind in ("number", "string"):
            raise GameError("the host did not set %s: a %s cannot be derived from the role list "
                            "(the settings' host mapping has %s)" % (
                                shown, kind, ", ".join(sorted(given)) or "nothing"))
        kept = st.setdefault("host", {})
        if key in kept:
            return kept[key]
        roles = sorted(st["deal"]["roles"])
        if kind == "partialrolelist":
            counts = {}
            for r in roles:
                m = self.models[r]
                k = (m.get("class") or "", m.get("category") or "")
                counts[k] = counts.get(k, 0) + 1
            # a role without a class (or category) is counted by what it has: "3 Miscellaneous"
            value = ", ".join(" ".join(["%d" % counts[k]] + [w for w in k if w]) for k in sorted(counts))
        else:
            if kind == "option":
                pool = host_options(name)
            elif kind == "role":
                pool = roles if among is None else ([r for r in roles if r in among] or sorted(set(among)))
            else:
                seats = [p["idx"] for p in st["players"]]
                pool = seats if among is None else [p for p in seats if p in among]
            if not pool:
                raise GameError("%s has nothing to be drawn from" % (shown,))
            used = [v for k, v in kept.items() if host_kind(k) == kind]
            fresh = [v for v in pool if v not in used] or pool
            value = fresh[self.randbelow(len(fresh))]
        kept[key] = value
        return value

    def _host_given(self, shown, name, kind, v, among):
        """A value the host set, checked: a role of the game, a player of the game (a number n for
        Player n, or a player's name), a number, one of the options; and one of ``among``."""
        if kind == "role":
            v = ("%s" % (v,)).strip().lower().replace(" ", "-").replace("_", "-")
            if (self.models.get(v) or {}).get("type") != "role":
                raise GameError("the host information %s names %r, which is not a role of the game" % (shown, v))
        elif kind == "player":
            players = self.state["players"]
            text = ("%s" % (v,)).strip()
            digits = text[6:].strip() if text.lower().startswith("player") else text
            seat = int(digits) - 1 if digits.isdigit() else None
            if seat is None:
                seat = next((p["idx"] for p in players if p["name"].lower() == text.lower()), None)
            if seat is None or isinstance(v, bool) or not 0 <= seat < len(players):
                raise GameError("the host information %s names %r, which is not a player of the game" % (shown, v))
            v = seat
        elif kind == "number":
            try:
                n = float(("%s" % (v,)).strip())  # (True and False are texts here: not numbers)
            except ValueError:
                n = None
            if n is None or n - n != 0:  # not a number, or nan or infinite (their difference is nan)
                raise GameError("the host information %s is %r, which is not a number" % (shown, v))
            v = int(n) if n == int(n) else n  # a whole number is an int, however the host wrote it
        elif kind == "option":
            low = ("%s" % (v,)).strip().lower()
            options = [o for o in host_options(name) if o.lower() == low]
            if not options:
                raise GameError("the host information %s is %r, which is not one of its options" % (shown, v))
            v = options[0]
        else:
            v = "%s" % (v,)
        if among is not None and v not in among:
            if kind == "player":
                raise GameError("the host information %s is Player %d, who is not one of %s" % (
                    shown, v + 1, ", ".join("Player %d" % (p + 1) for p in among) or "no player"))
            raise GameError("the host information %s is %r, which is not one of %s" % (
                shown, v, ", ".join("%s" % (a,) for a in among) or "nothing"))
        return v

    def count_use(self, iid, rule_id):
        key = "%s:%s" % (iid, rule_id)
        self.state["uses"][key] = self.state["uses"].get(key, 0) + 1

    def repeats(self, iid, rule):
        """How many times the rule runs now (its ``scaling`` key; 1 without one)."""
        text = ((rule or {}).get("keys") or {}).get("scaling")
        if not text:
            return 1
        st = self.state
        n = 1
        # by the phase's number (Day 0, Night 1, Day 1, Night 2...: Night 2 is even); Night N and the
        # Day N after it both have the night number N
        odd = st["night"] % 2 == 1
        for item in [t.strip() for t in text.split(",") if t.strip()]:
            if item.startswith("x"):
                return int(item[1:])
            if item.startswith("odd ") or item.startswith("even "):
                if (item.startswith("odd ") and odd) or (item.startswith("even ") and not odd):
                    return int(item.split()[1].lstrip("x"))
                n = 0  # like a condition that does not hold: `odd x1` alone runs 0 times in an even phase
                continue
            var = len(self.living()) if item.startswith("living") else len(st["players"])
            if "->" in item:
                cond, value = [x.strip() for x in item.split("->")]
                for op in (">=", "<=", "=", ">", "<"):
                    if op in cond:
                        k = int(cond.split(op)[1])
                        ok = {">=": var >= k, "<=": var <= k, "=": var == k, ">": var > k, "<": var < k}[op]
                        break
                if ok:
                    return int(value)
                n = 0
                continue
            if "/" in item:
                return var // int(item.split("/")[1])
            if item == "counter":  # the owner's counter (WWRF scaling by @Self->Counter)
                owner = self._owner(iid)
                return max(0, st["players"][owner]["counter"]) if owner >= 0 else 0
            if item == "value":  # a number read now: the rule key scalingof (WWRF scaling by @(...)->Count)
                values = getattr(self.rules, "key_values", None)
                got = values(self, iid, rule["id"], "scalingof") if values is not None else []
                v = got[0] if got else 0
                return max(0, int(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0
            return int(item)
        return n

    # ------------------------------------------------------------------ elements in play
    def _new_card(self, model, owner, source=None):
        st = self.state
        iid = st["next_iid"]
        st["next_iid"] = iid + 1
        m = self.models[model]
        card = data.new_card(iid, model, owner, m.get("type"), m.get("rules") or [], source)
        st["cards"][iid] = card
        st["table"].append(iid)
        self._table_version += 1
        return iid

    def _enter(self, iid):
        """Load the card's rules and run its Starting triggers."""
        self.rules.card_entered_play(self, iid)
        self.fire("starting", self.state["cards"][iid]["owner"], obj=iid)

    def _leave(self, iid):
        st = self.state
        if iid not in st["table"]:
            return
        self.rules.card_left_play(self, iid)
        st["table"].remove(iid)
        self._table_version += 1
        for pl in st["players"]:
            if iid in pl["attrs"]:
                pl["attrs"].remove(iid)
            if iid in pl["extras"]:
                pl["extras"].remove(iid)

    def end_effects_of(self, source):
        """Effects tied to an element (~Permanent from a role, ~Attribute ...) end when it leaves play."""
        st = self.state
        st["lasting"] = [e for e in st["lasting"] if not (e["source"] == source and e["until"] in data.TIED_TO_SOURCE)]
        for iid in list(st["table"]):
            c = st["cards"][iid]
            if c["source"] == source and c["until"] in data.TIED_TO_SOURCE and c["kind"] == "attribute":
                self._remove_card(iid)

    def _ends_at(self, duration):
        """The phase index at whose end an effect of this duration ends (None: it does not)."""
        st = self.state
        now = st["pindex"]
        d = duration.replace("attribute", "")  # ~PhaseAttribute ends as ~Phase; ~Attribute (now "") never
        if d == "phase":
            return now
        if d == "nextphase":
            return now + 1
        if d == "nextday":
            return now + 2 if st["phase"] == "day" else now + 1
        if d == "nextnight":
            return now + 2 if st["phase"] == "night" else now + 1
        return None

    def _lasting(self, entry, source, duration):
        st = self.state
        entry["id"] = st["next_lasting"]
        st["next_lasting"] += 1
        entry["source"] = source
        entry["until"] = duration
        entry["ends_at"] = self._ends_at(duration)
        entry["uses_left"] = {"untiluse": 1, "untiluseattribute": 1, "untilseconduse": 2}.get(duration)
        if duration == "delayedphase":  # WWRF ~DelayedPhase: in force from the start of the next phase to its end
            entry["starts_at"] = entry["ends_at"] = st["pindex"] + 1
            st.setdefault("delayed", []).append(entry)
            return entry
        st["lasting"].append(entry)
        return entry

    def _start_delayed(self):
        """The effects made with ~DelayedPhase for this phase come into force (attributes are put on)."""
        st = self.state
        now = st["pindex"]
        due = [e for e in st.get("delayed") or [] if e["starts_at"] <= now]
        if not due:
            return
        st["delayed"] = [e for e in st["delayed"] if e["starts_at"] > now]
        for e in due:
            self.emit({"type": "delayed_start", "player": e.get("player"), "effect": e["type"]})
            if e["type"] == "attribute":
                self.apply_attribute(e["player"], e["name"], e["source"], "phase", e["values"])
            else:
                st["lasting"].append(e)

    def _use(self, entry):
        """An effect was used: one with a use limit may end."""
        if entry.get("uses_left") is not None:
            entry["uses_left"] -= 1
            if entry["uses_left"] <= 0 and entry in self.state["lasting"]:
                self.state["lasting"].remove(entry)

    # ------------------------------------------------------------------ visits
    def note(self, atype, asub, target=None, result=None):
        """A command tells the game which ability it used (for On Action)."""
        self._noted.append((atype, asub, target, result))

    def use_on(self, source, actor, target, atype, asub, params=(), parameters=(None, None)):
        """``actor`` uses an ability of type ``atype`` on ``target``: obstructions, redirections and the
        visit (the actor's ``visit`` fires, then the target's ``visited``, which may cancel it).
        ``parameters``: what the ability carries besides its target (the attribute applied, the role of a
        disguise...), WWRF's @VisitParameter and @SecondVisitParameter.  Returns (final target or None,
        feedback or None)."""
        st = self.state
        self.note(atype, asub, target)
        if actor is not None and actor >= 0:
            for e in st["lasting"]:
                if e["type"] == "obstruct" and e["player"] == actor and _matches_type(e["abilities"], atype, asub):
                    self.emit({"type": "obstructed", "player": actor, "ability": atype,
                               "source": self._model_of(source)})
                    self._use(e)
                    return None, self._fake_feedback(e)
        if "visitless" in params or atype not in data.VISITING or target is None:
            return target, None
        if "direct" not in params:
            for e in list(st["lasting"]):
                if e["type"] == "redirect" and e["player"] == target and _matches_type(e["abilities"], atype, asub) \
                        and (e["from"] is None or actor in e["from"]):
                    self.emit({"type": "redirected", "player": target, "to": e["to"], "visitor": actor})
                    holder = target
                    target = e["to"]
                    self._use(e)
                    self.fire("redirect", holder, bindings={"visitor": actor})
                    break
        visit = {"cancelled": False, "feedback": None}
        first, second = parameters
        if actor is not None and actor >= 0:
            self.fire("visit", actor, bindings={"actiontarget": target, "visittype": atype, "visitsubtype": asub,
                                                "visitparameter": first, "secondvisitparameter": second,
                                                "subject": actor})
        self._visits.append(visit)
        try:
            self.fire("visited", target, bindings={"visitor": actor, "visittype": atype, "visitsubtype": asub,
                                                   "visitparameter": first, "secondvisitparameter": second,
                                                   "subject": target})
        finally:
            self._visits.pop()
        if visit["cancelled"]:
            self.emit({"type": "cancelled", "player": target, "visitor": actor, "ability": atype})
            return None, visit["feedback"]
        return target, None

    def _fake_feedback(self, obstruction):
        """The feedback an obstruction gives: its text, or one of its texts drawn by chance with the
        game's generator (weights in thousandths; what they leave free gives the default feedback, None)."""
        fb = obstruction.get("feedback")
        weights = obstruction.get("weights")
        if not isinstance(fb, list):
            return fb
        roll = self.randbelow(max(1000, sum(weights)))
        for text, w in zip(fb, weights):
            if roll < w:
                return text
            roll -= w
        return None

    def cancel_visit(self, feedback):
        if not self._visits:
            return False
        self._visits[-1]["cancelled"] = True
        self._visits[-1]["feedback"] = feedback
        return True

    # ------------------------------------------------------------------ information
    def learn(self, seat, text, source):
        if seat is None or seat < 0:
            return self.announce(text, source)
        self.state["players"][seat]["learned"].append(text)
        self.last_feedback = text
        self.emit({"type": "learn", "player": seat, "text": text, "source": self._model_of(source)})

    def reveal(self, where, text, source, seat):
        """``text`` said in the place ``where`` (a group's channel: its members learn it).  ``self``: the
        player ``seat`` (whose rule reveals) learns it; for an element of nobody (``seat`` None or the
        narrator's -1) it is said in that group's own channel."""
        if where in ("self", "@self"):
            if seat is not None and seat >= 0:
                return self.learn(seat, text, source)
            for name, g in self.state["groups"].items():  # a group's own channel
                if g["card"] == source:
                    where = name
        g = self.state["groups"].get(where)
        if g is not None:
            for p in g["members"]:
                self.state["players"][p]["learned"].append(text)
        self.emit(self._where({"type": "reveal", "where": where, "text": text, "source": self._model_of(source)}))

    def _where(self, record):
        """A record of something that happens in a group's channel names the members who see it
        (``to``, the seats at that moment); a record in a public location has no ``to``."""
        g = self.state["groups"].get(record.get("where"))
        if g is not None:
            record["to"] = sorted(g["members"])
        return record

    def announce(self, text, source):
        self.state["story"].append(text)
        self.emit({"type": "announce", "text": text, "source": self._model_of(source)})

    def _visible_role(self, seat, levels):
        """The role an investigation sees: WWRF's disguise levels say which disguises affect it (fool
        it): strong ones with (sd), weak ones with (wd), none without; a strong one goes first."""
        role = self.role_of(seat)
        levels = levels or "none"
        best = None
        for e in self.state["lasting"]:
            if e["type"] == "disguise" and e["player"] == seat:
                if e["strength"] == "strong" and "sd" in levels:
                    best = e
                elif e["strength"] == "weak" and "wd" in levels and (best is None or best["strength"] != "strong"):
                    best = e
        return best["role"] if best is not None else role

    def investigate(self, seat, target, what, value, source, levels=None):
        if what == "attribute":
            result = "Success" if self.has_attribute(target, value) else "Failure"
        else:
            role = self._visible_role(target, levels)
            m = self.models.get(role) or {}
            if what == "role":
                result = m.get("name")
            elif what == "alignment":
                result = self.state["players"][target]["team"] if role == self.role_of(target) else m.get("team")
            else:
                result = m.get(what)
        self.emit({"type": "investigate", "player": seat, "target": target, "what": what, "value": value,
                   "result": result, "source": self._model_of(source)})
        return result

    def count_role(self, role, levels):
        return len([p for p in self.living() if self._visible_role(p, levels) == role])

    # ------------------------------------------------------------------ lasting effects of commands
    def add_defense(self, seat, against, kind, source, duration, by=None, during=None, at=None):
        """A defense; ``by``: only killings by these seats are stopped; ``during``: only in that kind of
        phase (day, night).  An absence has a place ``at``: a seat (that player's home; default the
        owner's) or the id of a non-player place (a group, a location)."""
        if kind == "absence" and at is None:
            at = self._owner(source)
        self._lasting({"type": "defense", "player": seat, "against": against, "kind": kind, "by": by,
                       "during": during, "at": at if kind == "absence" else None}, source, duration)
        self.emit({"type": "protect", "player": seat, "against": against, "kind": kind,
                   "source": self._model_of(source), "protector": self._owner(source)})

    def add_disguise(self, seat, strength, role, source, duration):
        self._lasting({"type": "disguise", "player": seat, "strength": strength, "role": role}, source, duration)
        self.emit({"type": "disguise", "player": seat, "strength": strength, "role": role})

    def add_redirect(self, holder, abilities, from_seats, to, source, duration):
        self._lasting({"type": "redirect", "player": holder, "abilities": abilities, "from": from_seats,
                       "to": to}, source, duration)
        self.emit({"type": "redirect", "player": holder, "abilities": abilities, "to": to})

    def add_obstruction(self, seat, abilities, feedback, source, duration, weights=None):
        """An obstruction; ``feedback``: the fake feedback, or a list of them drawn by chance with the
        ``weights`` (thousandths)."""
        self._lasting({"type": "obstruct", "player": seat, "abilities": abilities or "all",
                       "feedback": feedback, "weights": weights}, source, duration)
        self.emit({"type": "obstruct", "player": seat, "abilities": abilities or "all"})

    def add_power(self, seat, which, op, n, source, duration):
        self._lasting({"type": "power", "player": seat, "which": which, "op": op, "n": n}, source, duration)
        self.emit({"type": "voting_power", "player": seat, "which": which, "op": op, "n": n})

    def add_poll_effect(self, kind, poll, seat, n, source, duration):
        self._lasting({"type": kind, "poll": poll, "player": seat, "n": n}, source, duration)
        self.emit({"type": kind, "poll": poll, "player": seat, "n": n})

    def add_whisper(self, owner, to, name, frm, source, duration):
        """A whisper connection (host behaviour); to a role or an attribute, it reaches the living players
        who hold it now (``players``)."""
        self._lasting({"type": "whisper", "player": owner, "to": to, "as": name, "from": frm}, source, duration)
        rec = {"type": "whisper", "player": owner, "to": to, "as": name, "from": frm}
        kind = (self.models.get(to) or {}).get("type")
        if kind in ("role", "attribute"):
            rec["players"] = [p for p in self.living()
                              if (self.role_of(p) == to if kind == "role" else self.has_attribute(p, to))]
        self.emit(rec)

    def speak(self, seat, name):
        """A player spoke through a whisper connection under ``name`` (host behaviour reports it)."""
        self.fire("whisper", seat, bindings={"whispername": name})

    def power_of(self, seat, kind="public", hidden=False):
        """The player's voting power (manipulations oldest first, special ones after the others):
        ``public`` (public and special public voting power: polls in a location; with ``hidden`` the
        hidden public voting power counts too, as the tally counts it; without, as it is shown) or
        ``private`` (polls held in a group's channel)."""
        if kind == "private":
            kinds = ("private",)
        else:
            kinds = ("public", "special", "hidden") if hidden else ("public", "special")
        n = 1
        for e in sorted([e for e in self.state["lasting"] if e["type"] == "power" and e["player"] == seat
                         and e["which"] in kinds], key=lambda e: (e["which"] == "special", e["id"])):
            n = e["n"] if e["op"] == "set" else n + e["n"]
        return max(0, n)

    def starting_votes(self, seat, poll):
        """The votes ``seat`` starts poll ``poll`` with: its lynch starting votes in the lynch (the poll
        ``lynch``), oldest first."""
        if poll != "lynch":
            return 0
        n = 0
        for e in self.state["lasting"]:
            if e["type"] == "power" and e["player"] == seat and e["which"] == "lynchstart":
                n = e["n"] if e["op"] == "set" else n + e["n"]
        return max(0, n)

    # ------------------------------------------------------------------ killings
    def killing(self, kind, seat, source, by, sheltered=False):
        """A killing of ``kind`` on ``seat``: the first defense that stops it is used; else the player dies.
        Players absent at ``seat``'s home are hit too, and so are the players absent at the group's place
        where the killing is made (its @AttackLocation: the pack's hunt is made at the pack's place)."""
        pl = self.state["players"][seat]
        if not pl["alive"]:
            return False
        stop = data.STOPPED_BY.get(kind, ())
        died = True
        for dkind in data.DEFENSE_ORDER:
            if dkind == "absence" and sheltered:
                continue
            found = [e for e in self.state["lasting"] if e["type"] == "defense" and e["player"] == seat
                     and e["kind"] == dkind and e["against"] in stop and (e.get("by") is None or by in e["by"])
                     and e.get("during") in (None, self.state["phase"])]
            if found:
                e = found[0]
                self.emit({"type": "defended", "player": seat, "killing": kind, "kind": dkind,
                           "defense": self._model_of(e["source"])})
                self._use(e)
                if e["source"] in self.state["table"]:
                    self.fire("defense", self._owner(e["source"]), obj=e["source"],
                              bindings={"subject": seat, "attacker": by, "defensetype": dkind, "deathtype": kind,
                                        "attacksource": self._model_of(source),
                                        "attacklocation": self.attack_location(source, by)})
                died = False
                break
        if died:
            self.die(seat, kind, source, by)
        if not sheltered:  # absences are not recursive
            self.hit_absent(seat, kind, source, by)
            place = self.attack_location(source, by)
            if place is not None and not isinstance(place, int):  # made at a group's place (the pack's hunt)
                self.hit_absent(place, kind, source, by)
        return died

    def hit_absent(self, place, kind, source, by):
        """A killing at ``place`` (a player's home: a seat; a group or location: its id) also hits the
        players absent there, each killing on its own (not recursive: an absence at one of them is not
        followed)."""
        if kind not in ("attack", "kill"):
            return
        for e in list(self.state["lasting"]):
            if e["type"] == "defense" and e["kind"] == "absence" and e["at"] == place and e["player"] != place \
                    and e in self.state["lasting"]:
                self.killing(kind, e["player"], source, by, sheltered=True)

    def die(self, seat, kind, source=None, by=None):
        pl = self.state["players"][seat]
        pl["alive"] = False
        if kind in ("banish", "true banish"):
            self._ghost(seat)
        pl["death"] = {"type": kind, "phase": self.phase_name()}
        self.emit({"type": "death", "player": seat, "killing": kind, "role": self.role_of(seat)})
        self.fire("death", seat, bindings={"subject": seat, "deathtype": kind, "attacker": by,
                                           "attacksource": self._model_of(source),
                                           "attacklocation": self.attack_location(source, by)})
        self.passive_round()

    def attack_location(self, source, by):
        """WWRF @AttackLocation: the group whose element made the killing (the pack's hunt is carried out
        at the pack's place), else the attacking player; None for a killing of nobody (the narrator)."""
        model = self._model_of(source)
        if model is not None and self.models.get(model, {}).get("type") == "group":
            return model
        return by if by is not None and by >= 0 else None

    def _ghost(self, seat):
        if "ghostly" in self.models and not self.has_attribute(seat, "ghostly"):
            iid = self._new_card("ghostly", seat)
            self.state["players"][seat]["attrs"].append(iid)

    def resurrect(self, seat):
        pl = self.state["players"][seat]
        if pl["alive"] or pl["left"]:
            return False
        pl["alive"] = True
        pl["death"] = None
        self.emit({"type": "resurrect", "player": seat})
        self.passive_round()
        return True

    def concede(self, player):
        """The player leaves the game (a host's Concede): out of the game like a dead player, without a
        death; the win conditions are checked at once (GameOver if a team now wins)."""
        self.leave_game(player, "left")

    def leave_game(self, seat, how):
        pl = self.state["players"][seat]
        if pl["left"] or not pl["alive"]:
            return False  # already out of the game
        pl["alive"] = False
        pl["left"] = how
        self.emit({"type": how, "player": seat})
        self.passive_round()
        return True

    # ------------------------------------------------------------------ attributes
    def apply_attribute(self, seat, name, source, duration, values=None):
        if name not in self.models:
            raise GameError("unknown attribute %r" % (name,))
        if duration == "delayedphase":  # put on at the start of the next phase, for that phase
            self._lasting({"type": "attribute", "player": seat, "name": name, "values": list(values or [])},
                          source, duration)
            return True
        if self.has_attribute(seat, name):
            return False
        iid = self._new_card(name, seat, source)
        card = self.state["cards"][iid]
        card["until"] = duration
        card["ends_at"] = self._ends_at(duration)
        card["values"] = (list(values or []) + [None, None, None])[:3]
        self.state["players"][seat]["attrs"].append(iid)
        self.emit({"type": "attribute", "player": seat, "attribute": name, "on": True})
        self._enter(iid)
        return True

    def _remove_card(self, iid):
        """An attribute leaves: its On Removal runs, then it leaves play, once. A removal of the same
        attribute by its own On Removal is that removal (it is already leaving), not a second one."""
        if iid in self._removing or iid not in self.state["table"]:
            return
        c = self.state["cards"][iid]
        self._removing.add(iid)
        try:
            self.fire("removal", c["owner"], obj=iid)
        finally:
            self._removing.discard(iid)
        self._leave(iid)
        self.emit({"type": "attribute", "player": c["owner"], "attribute": c["model"], "on": False})

    def remove_attribute(self, seat, name):
        found = [i for i in self.state["players"][seat]["attrs"] if self.state["cards"][i]["model"] == name]
        for iid in found:
            self._remove_card(iid)
        return bool(found)

    def change_value(self, seat, name, index, value):
        for iid in self.state["players"][seat]["attrs"]:
            c = self.state["cards"][iid]
            if c["model"] == name and 1 <= index <= 3:
                c["values"][index - 1] = value
                self.emit({"type": "value", "player": seat, "attribute": name, "index": index, "value": value})

    # ------------------------------------------------------------------ groups, teams, roles
    def join_group(self, seat, group, source, duration):
        st = self.state
        g = st["groups"].get(group)
        if g is None:
            if group not in self.models:
                raise GameError("unknown group %r" % (group,))
            iid = self._new_card(group, data.NARRATOR, source)
            g = st["groups"][group] = {"card": iid, "members": [seat]}
            self.emit({"type": "join", "player": seat, "group": group})
            self._enter(iid)  # the group's Starting triggers see its first member
            self.fire("join", data.NARRATOR, obj=iid, bindings={"joiner": seat})  # WWRF On Join of the group
            return
        if seat not in g["members"]:
            g["members"].append(seat)
            self.emit({"type": "join", "player": seat, "group": group})
            self.fire("join", data.NARRATOR, obj=g["card"], bindings={"joiner": seat})

    def leave_group(self, seat, group):
        g = self.state["groups"].get(group)
        if g is not None and seat in g["members"]:
            g["members"].remove(seat)
            self.emit({"type": "leave", "player": seat, "group": group})
            return True
        return False

    def disband(self, group_iid):
        st = self.state
        for name, g in list(st["groups"].items()):
            if g["card"] == group_iid:
                self.fire("disbandment", data.NARRATOR, obj=group_iid)
                del st["groups"][name]
                self._leave(group_iid)
                self.emit({"type": "disband", "group": name})

    def disband_named(self, group):
        """Disband the group ``group`` (an id) from another element; False if it is not in play."""
        g = self.state["groups"].get(group)
        if g is None:
            return False
        self.disband(g["card"])
        return True

    def reset_conversation(self, where, source):
        """The channel of another element (a group, a location) starts empty: host behaviour, recorded;
        its members at that moment read the record."""
        self.emit(self._where({"type": "channel_reset", "where": where, "source": self._model_of(source)}))
        return True

    def group_change(self, old, new):
        """Group ``old`` becomes group ``new`` with its members; False (nothing changes) when ``old`` is not
        in play or ``new`` is not an element of the game."""
        st = self.state
        if old not in st["groups"] or new not in self.models:
            return False
        g = st["groups"].pop(old)
        self._leave(g["card"])
        self.emit({"type": "group_change", "group": old, "to": new})
        if new in st["groups"]:  # the members join the existing group
            for seat in g["members"]:
                if seat not in st["groups"][new]["members"]:
                    st["groups"][new]["members"].append(seat)
            return True
        iid = self._new_card(new, data.NARRATOR)
        st["groups"][new] = {"card": iid, "members": g["members"]}
        self._enter(iid)
        return True

    def set_team(self, seat, team, source=None):
        pl = self.state["players"][seat]
        loyal = pl["loyal"].get("alignment")
        if team == pl["team"]:
            return False
        if loyal is not None and team != loyal:
            self.emit({"type": "loyal", "player": seat, "team": loyal})
            return False
        pl["team"] = team
        self.emit({"type": "team", "player": seat, "team": team})
        tiid = self.state["teams"].get(team)
        if tiid is not None:
            self.fire("join", data.NARRATOR, obj=tiid, bindings={"joiner": seat})
        return True

    def change_role(self, seat, role, by=None, suppressed=False):
        st = self.state
        pl = st["players"][seat]
        if role not in self.models or self.models[role].get("type") != "role":
            raise GameError("unknown role %r" % (role,))
        team = self.models[role].get("team")
        loyal = pl["loyal"].get("alignment")
        if loyal is not None and team != loyal:
            self.emit({"type": "loyal", "player": seat, "team": loyal})
            return False
        # just before the change (On Changed): the old role is still the player's
        self.fire("changing", seat, bindings={"subject": seat, "attacker": by})
        old = pl["role"]
        iid = self._new_card(role, seat)
        pl["role"] = iid
        self.emit({"type": "role_change", "player": seat, "role": role})
        # the old role still hears the change (On Role Change), then leaves with what it made
        self.fire("rolechange", seat, bindings={"subject": seat, "attacker": by})
        if old is not None:
            self._leave(old)
        for name, g in list(st["groups"].items()):
            if seat in g["members"]:
                self.fire("betrayal", data.NARRATOR, obj=g["card"], bindings={"subject": seat})
        self.set_team(seat, team)
        if suppressed:  # the new role's rules are loaded, its Starting triggers do not run
            self.rules.card_entered_play(self, iid)
        else:
            self._enter(iid)
        self.passive_round()
        return True

    def grant(self, seat, role, source):
        iid = self._new_card(role, seat, source)
        self.state["players"][seat]["extras"].append(iid)
        self.emit({"type": "grant", "player": seat, "role": role})
        self._enter(iid)
        self.fire("assigned", seat, obj=iid)

    def revoke(self, seat, role):
        found = [i for i in self.state["players"][seat]["extras"] if self.state["cards"][i]["model"] == role]
        for iid in found:
            self._leave(iid)
            self.emit({"type": "revoke", "player": seat, "role": role})
        return bool(found)

    def transfer(self, iid, seat):
        st = self.state
        card = st["cards"][iid]
        old = card["owner"]
        if old >= 0 and iid in st["players"][old]["extras"]:
            st["players"][old]["extras"].remove(iid)
        card["owner"] = card["ctrl"] = seat
        self._table_version += 1
        st["players"][seat]["extras"].append(iid)
        self.emit({"type": "transfer", "from": old, "player": seat, "role": card["model"]})
        self.fire("assigned", seat, obj=iid)

    def switch_roles(self, a, b):
        """Players ``a`` and ``b`` exchange role cards (each card changes owner)."""
        st = self.state
        pa, pb = st["players"][a], st["players"][b]
        ra, rb = pa["role"], pb["role"]
        for iid, seat in ((ra, b), (rb, a)):
            card = st["cards"][iid]
            card["owner"] = card["ctrl"] = seat
        pa["role"], pb["role"] = rb, ra
        self._table_version += 1
        self.emit({"type": "switch", "player": a, "with": b})
        self.set_team(a, self.models[st["cards"][rb]["model"]].get("team"))
        self.set_team(b, self.models[st["cards"][ra]["model"]].get("team"))
        self.passive_round()

    def host_command(self, command, where, source, seat):
        """``Execute`` a host command: the answer is revealed in the location, as ``reveal`` does (``self``:
        to ``seat``, the player whose rule runs it; from an element of nobody, its group's channel)."""
        st = self.state
        names = lambda seats: ", ".join(st["players"][p]["name"] for p in seats)  # noqa: E731
        if command == "listalive":
            text = names(self.living())
        elif command == "listdead":
            text = names([p["idx"] for p in st["players"] if not p["alive"]])
        elif command == "listplayers":
            text = names([p["idx"] for p in st["players"]])
        elif command == "listroles":
            text = ", ".join(sorted(set(self.models[self.role_of(p["idx"])]["name"] for p in st["players"])))
        else:  # substitutes and mentors: a headless game has none
            text = ""
        self.reveal(where, text, source, seat)
        return text

    def set_lock(self, where, locked):
        st = self.state
        if locked and where not in st["locked"]:
            st["locked"].append(where)
        elif not locked and where in st["locked"]:
            st["locked"].remove(where)
        self.emit({"type": "lock" if locked else "unlock", "where": where})

    # ------------------------------------------------------------------ choices, counters, displays, emits
    def create_choice(self, seat, name, options, source):
        self.state["choices"]["%s:%s" % (seat, name)] = {"options": list(options), "source": source}
        self.emit({"type": "choice", "player": seat, "choice": name, "options": list(options)})

    def choose(self, seat, name, selection, option=None):
        """``seat`` answers its choice ``name``: asked (choose_action), or ``option`` when the rule names it
        (an option the choice does not offer answers nothing)."""
        ch = self.state["choices"].get("%s:%s" % (seat, name))
        if ch is None or not ch["options"]:
            return None
        if option is not None:
            found = [o for o in ch["options"] if o.lower() == option.lower()]
            if not found:
                return None
            option = found[0]
        del self.state["choices"]["%s:%s" % (seat, name)]
        if option is None:
            option = self.ask("choose_action", seat, list(ch["options"]), 1, 1, name, ch["source"], False)
        self.emit({"type": "chosen", "player": seat, "choice": name, "option": option})
        if ch["source"] in self.state["table"]:
            self.fire("choicechosen", seat, obj=ch["source"],
                      bindings={"option": option, "selection": selection, "chooser": seat})
        return option

    def set_counter(self, seat, value):
        self.state["players"][seat]["counter"] = value
        self.emit({"type": "counter", "player": seat, "value": value})

    def set_card_counter(self, iid, value):
        self.state["cards"][iid]["counter"] = value
        self.emit({"type": "counter", "card": iid, "value": value})

    def set_target(self, iid, seat, kind="player"):
        """The element's target: a seat, or a value of another kind (a role or attribute id, a category,
        a boolean, a choice's option)."""
        self.state["cards"][iid]["target"] = seat
        self.emit({"type": "target", "player": self._owner(iid), "target": seat, "kind": kind})

    def value_options(self, seat, kind):
        """What an action that selects a value of ``kind`` offers (WWRF Target @Selection (Kind))."""
        ms = self.models
        roles = [m for m in sorted(ms) if ms[m].get("type") == "role"]
        if kind == "role":
            return roles
        if kind == "attribute":
            return [m for m in sorted(ms) if ms[m].get("type") == "attribute"]
        if kind == "category":
            return sorted(set(ms[r]["category"] for r in roles if ms[r].get("category")))
        if kind == "fullcategory":
            return sorted(set("%s-%s" % (ms[r]["class"], ms[r]["category"]) for r in roles
                              if ms[r].get("class") and ms[r].get("category")))
        if kind == "boolean":
            return ["true", "false"]
        if kind == "option":  # the options of the player's open choices
            out = []
            for key in sorted(self.state["choices"]):
                if key.split(":", 1)[0] == str(seat):
                    out.extend(o for o in self.state["choices"][key]["options"] if o not in out)
            return out
        return []

    def display(self, seat, name, values):
        self.state["displays"]["%s:%s" % (seat, name)] = list(values)
        self.emit({"type": "display", "player": seat, "display": name, "values": list(values)})

    def update_display(self, seat, name, index, value):
        d = self.state["displays"].get("%s:%s" % (seat, name))
        if d is not None and 1 <= index <= len(d):
            d[index - 1] = value
            self.emit({"type": "display", "player": seat, "display": name, "values": list(d)})

    def emit_value(self, seat, value, end):
        if end:
            self.state["emits"].append([seat, value])
            return
        self.emit({"type": "emitted", "player": seat, "value": value})
        self.fire("emitted", seat, bindings={"emitted": value})

    # ------------------------------------------------------------------ polls
    def create_poll(self, poll, where, creator, title=None):
        st = self.state
        if poll not in self.models or self.models[poll].get("type") != "poll":
            raise GameError("unknown poll %r" % (poll,))
        for e in list(st["lasting"]):
            if e["type"] == "polldelete" and e["poll"] == poll:
                st["lasting"].remove(e)
                self.emit({"type": "poll_deleted", "poll": poll})
                return
        copies = 1
        for e in list(st["lasting"]):
            if e["type"] == "polladd" and e["poll"] == poll:
                copies += 1
                self._use(e)
        for _ in range(copies):
            pid = st["next_poll"]
            st["next_poll"] = pid + 1
            st["polls"].append({"id": pid, "poll": poll, "where": where, "creator": creator, "open": True,
                                "votes": {}, "title": title})
            self.emit(self._where({"type": "poll_open", "poll": poll, "where": where, "title": title}))

    def _poll_card(self, poll):
        for iid in self.state["table"]:
            if self.state["cards"][iid]["model"] == poll:
                return iid
        raise GameError("poll %r is not on the table" % (poll,))

    def _poll_mod(self, poll, kind, seat):
        """The poll manipulations of that kind (unvotable, disqualified) on ``seat`` in poll ``poll``."""
        return [e for e in self.state["lasting"] if e["type"] == kind and e["poll"] == poll and e["player"] == seat]

    def run_polls(self):
        """Every open poll: its voters vote, in seat order (again after a tie, as many rounds as the
        ``revotes`` setting allows); then it closes."""
        st = self.state
        finder = getattr(self.rules, "key_targets", None)
        revotes = st.get("settings", {}).get("revotes") or {}
        vote_changes = st.get("settings", {}).get("vote_changes", True)
        for poll in [p for p in st["polls"] if p["open"]]:
            card = self._poll_card(poll["poll"])
            found = (lambda key: finder(self, card, key)) if finder is not None else (lambda key: [])
            options = [v.idx for v in found("options") if isinstance(v, Player)]
            options = [o for o in options if not self._poll_mod(poll["poll"], "unvotable", o)]
            options += [w for w in self._poll_words(card) if w not in options]  # Yes, No, Abstain, Random
            voters = [v.idx for v in found("voters") if isinstance(v, Player)]
            poll["options"] = list(options)
            rounds = 1 + int(revotes.get(poll["poll"], 0))
            revote_empty = bool(st.get("settings", {}).get("revote_empty"))
            for rnd in range(rounds):
                if rnd:
                    self.emit(self._where({"type": "poll_revote", "poll": poll["poll"], "round": rnd + 1,
                                           "tied": tied, "where": poll["where"],
                                           "votes": [[v, t] for v, t in sorted(poll["votes"].items())]}))
                    poll["votes"] = {}
                self._vote_round(poll, card, voters, options)
                if vote_changes:
                    self._reconsider(poll, voters, options, card)
                tied = self._poll_tally(poll)[2]
                if len(tied) == 1 or (not tied and not revote_empty):
                    break
            self._close_poll(poll)

    def _poll_words(self, card):
        """The options of a poll that are words, not players (WWRF ``Available Options: Yes, No, Abstain``,
        ``Random``): the rule key ``optionwords``, lower case."""
        for rule in self.rules.rules_of(self, card) if hasattr(self.rules, "rules_of") else []:
            words = (rule.get("keys") or {}).get("optionwords")
            if words:
                return [_word(w) for w in ("%s" % (words,)).split(",") if w.strip()]
        return []

    def _vote_round(self, poll, card, voters, options):
        for voter in voters:
            if not options:
                break
            choice = self.ask("vote", voter, list(options), 1, 1, poll["poll"], card, True)
            if choice is None or choice == "abstain":  # an abstention (the option Abstain says it aloud)
                if choice == "abstain":
                    self.emit(self._where({"type": "vote", "poll": poll["poll"], "player": voter,
                                           "target": choice, "where": poll["where"]}))
                continue
            poll["votes"][voter] = choice
            self.emit(self._where({"type": "vote", "poll": poll["poll"], "player": voter, "target": choice,
                                   "where": poll["where"]}))
            self.fire("voteadd", voter, bindings={"vote": choice, "poll": poll["poll"], "subject": voter})

    def _reconsider(self, poll, voters, options, card):
        """Before the poll closes, every voter who voted may keep, change or withdraw their vote (WWRF
        On Vote Change / On Vote Remove): a ``change_vote`` decision whose first option is the vote
        itself; None withdraws it."""
        name = poll["poll"]
        for voter in voters:
            old = poll["votes"].get(voter)
            if old is None:
                continue
            opts = [old] + [o for o in options if o != old]
            choice = self.ask("change_vote", voter, opts, 1, 1, name, card, True)
            if choice == old:
                continue
            if choice is None or choice == "abstain":  # an abstention takes the vote back
                del poll["votes"][voter]
                self.emit(self._where({"type": "unvote", "poll": name, "player": voter, "target": old,
                                       "where": poll["where"]}))
                self.fire("voteremove", voter, bindings={"vote": old, "poll": name, "subject": voter})
            else:
                poll["votes"][voter] = choice
                self.emit(self._where({"type": "revote", "poll": name, "player": voter, "target": choice,
                                       "old": old, "where": poll["where"]}))
                self.fire("votechange", voter, bindings={"oldvote": old, "newvote": choice, "vote": choice,
                                                         "poll": name, "subject": voter})

    def _poll_tally(self, poll, shown=None):
        """(votes per seat, the eligible ones, the seats with the most eligible votes, sorted).  A voter's
        vote counts their voting power with its hidden part; a player starts the lynch with their
        starting votes; poll manipulations add votes.  ``shown`` (a dict) receives the votes the tally
        display shows: without hidden voting power and hidden votes."""
        st = self.state
        name = poll["poll"]
        tally = {}
        where = self.models.get(poll["where"]) or {}
        kind = "private" if where.get("type") == "group" else "public"
        shown = {} if shown is None else shown

        def add(seat, n, hidden=0):
            tally[seat] = tally.get(seat, 0) + n
            shown[seat] = shown.get(seat, 0) + n - hidden

        for seat in range(len(st["players"])):
            n = self.starting_votes(seat, name)
            if n:
                add(seat, n)
        base = int((st.get("settings", {}).get("option_votes") or {}).get(name, 0))
        if base:
            for seat in poll.get("options") or ():
                add(seat, base)
        for voter in sorted(poll["votes"]):
            power = self.power_of(voter, kind, hidden=True)
            add(poll["votes"][voter], power, power - self.power_of(voter, kind))
        for e in st["lasting"]:
            if e["type"] in ("votes", "hiddenvotes") and e["poll"] == name and e["n"]:
                add(e["player"], e["n"], e["n"] if e["type"] == "hiddenvotes" else 0)
        eligible = dict((t, n) for t, n in tally.items() if n > 0 and not self._poll_mod(name, "disqualified", t))
        tied = []
        if eligible:
            top = max(eligible.values())
            tied = sorted([t for t, n in eligible.items() if n == top], key=vote_order)
        return tally, eligible, tied

    def _break_tie(self, name, tied):
        if self.state.get("settings", {}).get("ties") == "decide":
            return self.ask("choose_player", data.NARRATOR, list(tied), 1, 1, name + ".tie", self._poll_card(name),
                            False)
        return tied[self.randbelow(len(tied))]

    def _close_poll(self, poll):
        st = self.state
        poll["open"] = False
        name = poll["poll"]
        shown = {}
        tally, _eligible, tied = self._poll_tally(poll, shown)
        winner = None
        standing = name in (st.get("settings", {}).get("standing_ties") or ())
        if len(tied) == 1:
            winner = tied[0]
        elif tied and not standing:
            winner = self._break_tie(name, tied)
        votes = [[t, shown[t]] for t in sorted(shown, key=vote_order) if shown[t] or tally[t] == shown[t]]  # the display
        hidden = [[t, tally[t] - shown[t]] for t in sorted(tally, key=vote_order) if tally[t] != shown[t]]
        voters = sorted(v for v, t in poll["votes"].items() if t == winner)   # WWRF @Voters
        others = [v for v in voters if v != winner]                           # WWRF @OtherVoters
        if winner == "random":  # WWRF Random: a player drawn from the poll's `random` players (default all)
            winner = self._random_pick(poll)
        self.emit(self._where({"type": "poll_close", "poll": name, "winner": winner, "votes": votes,
                               "hidden": hidden, "where": poll["where"]}))
        for e in list(st["lasting"]):
            if e["type"] == "pollcancel" and e["poll"] == name:
                st["lasting"].remove(e)
                self.emit({"type": "poll_cancelled", "poll": name, "silent": e["n"] == "silent"})
                return
        seat = winner if _is_seat(winner) else None  # a word option (Yes, No) is no player
        if seat is not None and tally.get(winner, 0) * 2 > sum(tally.values()):
            self.fire("hammer", winner, bindings={"winner": winner, "poll": name})
        if seat is not None:  # the winner hears of it first (a lynched player may still leave the game)
            self.fire("pollwin", winner, bindings={"poll": name, "winner": winner, "voters": voters,
                                                   "othervoters": others, "winners": list(tied)})
        creator = poll["creator"]
        # the executor of a poll's result: for a poll of a group or a team, one of the voters for the
        # winner, drawn by the game's generator (it is who visits, for an attack)
        backers = sorted(v for v, t in poll["votes"].items() if t == winner) or sorted(poll["votes"])
        executor = backers[self.randbelow(len(backers))] if backers else None

        if creator in st["table"]:
            if winner is None:
                self.fire("pollskipped", st["cards"][creator]["owner"], obj=creator,
                          bindings={"poll": name, "executor": executor})
            else:
                self.fire("pollclosed", st["cards"][creator]["owner"], obj=creator,
                          bindings={"winner": winner, "poll": name, "executor": executor, "voters": voters,
                                    "othervoters": others, "winners": list(tied)})

    def _random_pick(self, poll):
        """The player a poll's option Random lands on: one of the poll's `random` players (WWRF
        ``Random:``; every living player without it), drawn by the game's generator; None if none."""
        finder = getattr(self.rules, "key_targets", None)
        card = self._poll_card(poll["poll"])
        pool = [v.idx for v in finder(self, card, "random") if isinstance(v, Player)] if finder is not None else []
        if not pool and not self._has_key(card, "random"):
            pool = self.living()
        if not pool:
            return None
        pick = pool[self.randbelow(len(pool))]
        self.emit(self._where({"type": "poll_random", "poll": poll["poll"], "player": pick, "where": poll["where"]}))
        return pick

    def _has_key(self, card, key):
        rules = self.rules.rules_of(self, card) if hasattr(self.rules, "rules_of") else []
        return any(key in (r.get("keys") or {}) for r in rules)

    # ------------------------------------------------------------------ the end
    def team_wins(self, source):
        st = self.state
        card = st["cards"][source]
        if card["kind"] == "team":
            team = card["model"]
            winners = [p["idx"] for p in st["players"] if p["team"] == team and p["left"] not in ("descended", "left")]
        else:
            team = st["players"][card["owner"]]["team"] if card["owner"] >= 0 else None
            winners = [card["owner"]] if card["owner"] >= 0 else []
        winners = sorted(set(winners) | set(p["idx"] for p in st["players"] if p["left"] == "ascended"))
        st["over"] = True
        st["winner"] = team
        st["winners"] = winners
        st["result"] = "win"
        st["reason"] = "win condition of %s" % (self.models[team]["name"] if team in self.models else team)
        self.emit({"type": "win", "team": team, "players": winners})
        raise GameOver(team, st["reason"])

    # ------------------------------------------------------------------ actions
    def _conditions(self, iid, rid, tgt):
        values = getattr(self.rules, "key_values", None)
        if values is None:
            return True
        for v in values(self, iid, rid, "condition", tgt):
            if not v:
                return False
        return True

    def _selection_options(self, iid, rid, rule):
        found = self.rules.action_targets(self, iid, rid)
        if found is None:
            return ["use"] if self._conditions(iid, rid, None) else []
        keys = rule.get("keys") or {}
        options = [v.idx for v in found if isinstance(v, Player)]
        if keys.get("succession") == "no target succession":
            last = self.state["last_used"].get("%s:%s" % (iid, rid))
            if last is not None and last[0] == self.state["pindex"] - 2:
                options = [o for o in options if o != last[1]]
        return [o for o in options if self._conditions(iid, rid, [Player(o)])]

    def use_action(self, seat, iid, rid, timing):
        """Offer one action to its owner and resolve it; True if it was used."""
        rule = self.rules.rules.get(rid)
        if rule is None or iid not in self.state["table"] or not self.rule_allowed(iid, rule):
            return False
        keys = rule.get("keys") or {}
        prompt = keys.get("prompt") or rid
        selects = keys.get("selects")  # the action selects a value that is not a player
        if selects is not None:
            options = self.value_options(seat, selects) if self._conditions(iid, rid, None) else []
        else:
            options = self._selection_options(iid, rid, rule)
        if not options:
            return False
        answer = self.ask("use_ability", seat, options, 1, 1, prompt, iid, True)
        params = keys.get("params") or []
        if answer is None and "forced" in params:
            pool = options
            finder = getattr(self.rules, "key_targets", None)
            if keys.get("forced") and finder is not None:
                forced = [v.idx for v in finder(self, iid, "forced") if isinstance(v, Player)]
                pool = [o for o in options if o in forced] or options
            answer = pool[self.randbelow(len(pool))]
            self.emit({"type": "forced", "player": seat, "ability": rid, "target": answer})
        if answer is None:
            return False
        pre = None if answer == "use" or selects is not None else [Player(answer)]
        self._selected = None
        if selects is not None:
            self._selected = (answer == "true") if selects == "boolean" else answer
        self._secondary = None
        second = keys.get("secondary")
        if second is not None:
            if second == "role":
                opts2 = sorted(m for m in self.models if self.models[m].get("type") == "role")
            else:
                opts2 = [o for o in self._selection_options(iid, rid, rule) if o != answer]
            if not opts2:
                return False
            ans2 = self.ask("use_ability", seat, opts2, 1, 1, prompt + "#2", iid, "forced" not in params)
            if ans2 is None:
                return False
            if second == "role":
                self._secondary = ans2
            else:
                pre = pre + [Player(ans2)]
            if not self._conditions(iid, rid, pre):
                self.emit({"type": "refused", "player": seat, "ability": rid})
                return False
        self.emit({"type": "use", "player": seat, "ability": rid, "prompt": prompt,
                   "target": None if answer == "use" or selects is not None else answer,
                   "value": answer if selects is not None else None})
        self._noted = []
        self.last_result = self.last_feedback = None
        ok = self.rules.resolve_action(self, iid, timing, rule_id=rid, preselected=pre)
        self._secondary = self._selected = None
        if ok:
            self.state["last_used"]["%s:%s" % (iid, rid)] = [self.state["pindex"], None if answer == "use" else answer]
            noted = self._noted[0] if self._noted else (None, None, None, None)
            if iid in self.state["table"]:
                self.fire("action", seat, obj=iid, bindings={
                    "actiontarget": None if answer == "use" or selects is not None else answer,
                    "abilitytype": noted[0],
                    "abilitysubtype": noted[1], "subject": seat, "actionresult": self.last_result,
                    "actionfeedback": self.last_feedback, "triggersource": self.state["cards"][iid]["model"]})
        return bool(ok)

    def _action_index(self):
        """{timing: {seat: [(iid, rule)]}} of the actions on the table, rebuilt when the table or the
        rules changed (cards come and go, change owners; a hot reload replaces the rules)."""
        key = (self._table_version, id(getattr(self.rules, "rules", None)))
        if self._index_key == key:
            return self._index
        st = self.state
        index = {}
        for iid in st["table"]:
            owner = st["cards"][iid]["owner"]
            if owner < 0:
                continue
            for rule in self.rules.rules_of(self, iid):
                timing = (rule.get("keys") or {}).get("timing")
                if rule["actions"] and timing:
                    index.setdefault(timing, {}).setdefault(owner, []).append((iid, rule))
        self._index, self._index_key = index, key
        return index

    def offer_actions(self, timing):
        """Offer the actions of this timing, seat by seat."""
        st = self.state
        if getattr(self.rules, "rules_of", None) is None:
            return
        by_seat = self._action_index().get(timing, {})
        for seat in sorted(by_seat):
            for iid, rule in list(by_seat[seat]):
                if st["cards"][iid]["owner"] != seat or iid not in st["table"] or not self.rule_allowed(iid, rule):
                    continue
                for _ in range(self.repeats(iid, rule)):
                    self.use_action(seat, iid, rule["id"], timing)

    # ------------------------------------------------------------------ the flow
    def setup(self):
        st = self.state
        roles = list(st["deal"]["roles"])
        if st["deal"]["shuffle"]:
            self.shuffle_list(roles)
        self.emit({"type": "setup", "players": [p["name"] for p in st["players"]]})
        self.rules.start(self)
        entered = []
        for seat, role in enumerate(roles):
            iid = self._new_card(role, seat)
            st["players"][seat]["role"] = iid
            st["players"][seat]["original_role"] = role
            st["players"][seat]["team"] = self.models[role].get("team")
            self.emit({"type": "deal", "player": seat, "role": role})
            entered.append(iid)
        for role in sorted(set(roles)):  # WWRF Include: the host information a dealt role needs, fixed now
            for name in self.models[role].get("includes") or []:
                self.emit({"type": "host", "role": role, "name": name, "value": self.host_info(name)})
        for eid in sorted(self.models):
            m = self.models[eid]
            if m.get("type") in ("team", "poll"):
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
            # (an attribute that left with its source, removed earlier in this loop, is not removed again)
            if iid in st["table"] and c["kind"] == "attribute" and c.get("ends_at") is not None and c["ends_at"] <= now:
                self._remove_card(iid)

    def play_phase(self, kind):
        st = self.state
        st["phase"] = kind
        st["pindex"] += 1
        if kind == "day":
            st["day"] += 1
        else:
            st["night"] += 1
        self.emit({"type": "phase", "phase": kind, "number": st["day"] if kind == "day" else st["night"]})
        self._start_delayed()
        self.fire("start" + kind, data.NARRATOR)
        self.passive_round()
        for timing in data.TIMINGS[kind]:
            if timing in data.POLLS_BEFORE:
                self.run_polls()
            self.offer_actions(timing)
        emits, st["emits"] = st["emits"], []
        for seat, value in emits:
            self.emit({"type": "emitted", "player": seat, "value": value, "end": True})
            self.fire("endemitted", seat, bindings={"emitted": value})
        self.fire("end" + kind, data.NARRATOR)
        self._expire()
        self.passive_round()

    def next_phase(self):
        """(kind, number) of the phase the flow plays next."""
        st = self.state
        if st["phase"] in ("setup", "night"):
            return "day", st["day"] + 1
        return "night", st["night"] + 1

    def run(self, stop_at=None, checkpoint=None):
        """Play to the end of the game; with ``stop_at`` = (kind, number), return None as that phase is
        about to start (a state saved there resumes exactly with another ``run``).  ``checkpoint(game)``
        is called between phases (after the deal, then before each phase), where the state can be
        copied and resumed exactly (the OCTGN host replays inputs from there)."""
        st = self.state
        try:
            if st["phase"] == "setup" and st["pindex"] < 0 and not st["table"]:
                self.setup()
                self.passive_round()
            while True:
                if stop_at is not None and self.next_phase() == tuple(stop_at):
                    return None
                if checkpoint is not None:
                    checkpoint(self)
                if st["day"] >= st["day_limit"] or not self.living():
                    st["over"] = True
                    st["result"] = "draw"  # nobody alive: nothing can happen any more, nobody won
                    st["reason"] = "day limit (%d days)" % st["day_limit"] if self.living() else "nobody is alive"
                    raise GameOver(None, st["reason"])
                self.play_phase("day" if st["phase"] in ("setup", "night") else "night")
        except GameOver:
            st["over"] = True
        try:
            self.fire("end", data.NARRATOR)
        except GameOver:
            pass
        self.emit({"type": "gameover", "winner": st["winner"], "winners": st["winners"], "reason": st["reason"]})
        return {"winner": st["winner"], "winners": list(st["winners"]), "result": st["result"],
                "reason": st["reason"], "days": max(0, st["day"])}
