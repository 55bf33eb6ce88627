"""Running a checked scenario: build the table, drive the game's own flow, check expectations.

The table is built with the game's own ``create_card`` and placed the way ``play_character`` and
``backup`` place cards (without paying or firing events, since the cards are already there). The
game is then driven through its own phase functions (``phase_activate``, ``main_phase``,
``phase_attack``, ``phase_counter_attack``, ``phase_end``, ``phase_cleanup``) in the order of
``play_turn``; the players' Main/Attack/Defense choices come from the scenario's ``steps`` through a
decider, and every other question (slots, targets, yes/no...) from its ``decisions``.

The run stops as soon as the steps are used up: right after the last step took effect, at the next
Main/Attack/Defense question, or at the next phase boundary, whichever comes first (docs/scenarios.md).
"""
from __future__ import annotations

from rulescript.games.cfc.data import BACKUP_BP, PHASES
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.errors import GameOver, Interrupt
from rulescript.sim.gamelog import describe_option

LOOP_KINDS = {"choose_main_action": "main", "choose_attack": "attack",
              "choose_defense": "counter-attack"}
STOP_ANSWER = {"choose_main_action": {"do": "pass"}, "choose_attack": {"do": "done"},
               "choose_defense": {"do": "pass"}}
STEP_LOOP = {"play": "choose_main_action", "action": "choose_main_action",
             "activate": "choose_main_action", "backup": "choose_main_action",
             "attack": "choose_attack", "join": "choose_attack", "cancel": "choose_attack",
             "block": "choose_defense", "withdraw": "choose_defense", "reaction": "choose_defense"}
REF_FIELDS = ("card", "host", "lead", "attack")
PASS_PHASE = {"main": "main", "attack": "attack", "counter-attack": "counter-attack",
              "defense": "counter-attack"}
LOOP_NAMES = {"choose_main_action": "the Main phase question",
              "choose_attack": "the attack declaration question",
              "choose_defense": "the defense (reactions and blocks) question"}


class ScenarioFailure(Interrupt):
    """A step or a decision could not be applied; the message says which and why."""


class _Halt(Interrupt):
    """The steps are used up: stop the game here and check the expectations."""


class Step:
    def __init__(self, index, kind, value, at):
        self.index = index
        self.kind = kind
        self.value = value
        self.at = at

    def label(self, file):
        v = self.value
        if isinstance(v, dict):
            v = dict(v)
        return "step %d (%s: %s) at %s:%d" % (self.index + 1, self.kind, v, file, self.at[0])


# ---------------------------------------------------------------------- building the table
def _players_of(value):
    if value is None:
        return []
    if isinstance(value, list):
        return [(i, v) for i, v in enumerate(value[:2]) if v is not None]
    return [(k, v) for k, v in value.items() if v is not None]


def _slots_of(ring):
    if isinstance(ring, list):
        return list(enumerate(ring))
    return sorted(ring.items())


def build_game(sc, decider, sink, rules):
    """A :class:`CfcGame` whose state is the scenario's ``setup``."""
    s = sc.raw.get("setup") or {}
    turn = s.get("turn", 1)
    active = s.get("active", 0)
    first = s.get("first", active if turn % 2 == 1 else 1 - active)
    game = CfcGame(sc.data.models, None, decider, sink=sink, rules=rules, seed=sc.seed, first=first,
                   turn_limit=s.get("turn_limit", 200))
    if isinstance(decider, Driver):
        decider.game = game  # rules that load below may already ask questions
    st = game.state
    st["turn"] = turn
    st["active"] = active
    st["phase"] = s.get("phase", "main")
    st["players"][first]["turns_taken"] = (turn + 1) // 2
    st["players"][1 - first]["turns_taken"] = turn // 2
    game.emit({"type": "setup", "first": first, "seed": sc.seed})
    entered = []
    grants = []
    for p, pv in _players_of(s.get("players")):
        pl = st["players"][p]
        for key in ("hp", "sp", "extra_turns", "chars_played", "chars_allowed", "backups_played"):
            if key in pv:
                pl[key] = pv[key]
        if "skip" in pv:
            pl["skip"] = list(pv["skip"])
        for pile in ("hand", "deck", "discards", "removed"):
            for cid in pv.get(pile) or []:
                game.create_card(cid, p, pile)
        for cid in pv.get("table") or []:
            entered.append(game.create_card(cid, p, "table"))
        for slot, v in _slots_of(pv.get("ring") or []):
            if v is None:
                continue
            spec = {"card": v} if isinstance(v, str) else v
            iid = _place_in_ring(game, p, slot, spec)
            entered.append(iid)
            for ab in spec.get("abilities") or []:
                grants.append(("card", iid, ab))
        for ab in pv.get("abilities") or []:
            grants.append(("player", p, ab))
        for rule, value in (pv.get("rules") or {}).items():
            grants.append(("rule", p, (rule, value)))
    for a in s.get("attacks") or []:
        _place_attack(game, active, a)
    game.rules.start(game)
    for iid in entered:
        game.rules.card_entered_play(game, iid)
    for what, who, x in grants:
        if what == "card":
            game.add_grant(x, None, card=who)
        elif what == "player":
            game.add_grant(x, None, player=who)
        else:
            game.add_rule_entry(x[0], None, who, x[1])
    return game


def _place_in_ring(game, p, slot, spec):
    """Put a character in ``p``'s ring the way play_character does, without cost or events."""
    st = game.state
    iid = game.create_card(spec["card"], p, "hand")
    c = st["cards"][iid]
    game._detach(iid)
    c["zone"] = "ring"
    c["ctrl"] = p
    c["slot"] = slot
    st["players"][p]["ring"][slot] = iid
    c["rules"] = c["model"]
    game._set_bp_entry(iid)
    c["fresh"] = bool(spec.get("fresh", False))
    c["frozen"] = bool(spec.get("frozen", False))
    c["used"] = bool(spec.get("used", False))
    for bid in spec.get("backups") or []:
        b = game.create_card(bid, p, "hand")
        game._detach(b)
        bc = st["cards"][b]
        bc["zone"] = "backup"
        bc["ctrl"] = p
        bc["host"] = iid
        c["backups"].append(b)
        c["bp"] += BACKUP_BP
        c["lastBP"] = c["bp"]
    if "bp" in spec:
        c["bp"] = spec["bp"]
        if spec["bp"] > 0:
            c["lastBP"] = spec["bp"]
    return iid


def _place_attack(game, active, a):
    st = game.state
    ring = st["players"][active]["ring"]
    oring = st["players"][1 - active]["ring"]
    lead = ring[a["lead"]]
    if lead is None:
        raise ScenarioFailure("setup.attacks: no character in slot %d of player %d's ring"
                              % (a["lead"], active))
    followers = []
    for f in a.get("followers") or []:
        if ring[f] is None:
            raise ScenarioFailure("setup.attacks: no character in slot %d of player %d's ring"
                                  % (f, active))
        followers.append(ring[f])
    blocker = None
    if a.get("blocker") is not None:
        blocker = oring[a["blocker"]]
        if blocker is None:
            raise ScenarioFailure("setup.attacks: no character in slot %d of player %d's ring"
                                  % (a["blocker"], 1 - active))
    entry = {"lead": lead, "followers": followers, "blocker": blocker}
    st["attacks"].append(entry)
    game._sync_attack_flags(entry)
    if blocker is not None:
        st["cards"][blocker]["blocking"] = lead


# ---------------------------------------------------------------------- card references
def ref_matches(game, ref, iid, player):
    """Does card ``iid`` match a step reference (card id, ``#k`` of ``player``'s hand, ``@n``)?"""
    st = game.state
    c = st["cards"].get(iid)
    if c is None:
        return False
    if isinstance(ref, str) and ref.startswith("#"):
        hand = st["players"][player]["hand"]
        k = int(ref[1:])
        return k <= len(hand) and hand[k - 1] == iid
    if isinstance(ref, str) and ref.startswith("@"):
        return c["zone"] == "ring" and c["slot"] == int(ref[1:])
    return c["model"] == ref


_WHAT = {"activate": "action", "action": "action card", "play": "play", "backup": "backup", "attack": "attack",
         "block": "block", "unite": "united attack"}


def _why_not_offered(game, kind, ref, player):
    """Why the game offers no ``kind`` option for the card ``ref`` of ``player``, as far as the card
    data and the table tell (e.g. "ember-monk's action is not offered: its card has no triggered
    ability"); None when nothing explains it."""
    if ref is None:
        return None
    st = game.state
    found = [iid for iid in st["cards"] if ref_matches(game, ref, iid, player)]
    name = ref if isinstance(ref, str) and not ref.startswith(("#", "@")) else "the card %s" % (ref,)
    head = "%s's %s is not offered" % (name, _WHAT.get(kind, kind))
    if not found:
        return "%s: no such card is in the game" % head
    mine = [i for i in found if st["cards"][i]["ctrl"] == player] or found
    c = st["cards"][mine[0]]
    if kind == "activate":
        ab = c.get("ability")
        if ab is None:
            return "%s: its card has no ability (an action needs a triggered ability)" % head
        if ab.get("kind") != "trigger":
            return "%s: its card has no triggered ability (its ability is %s)" % (head, ab.get("kind"))
        if c["zone"] != "ring":
            return "%s: it is in the %s, not in the ring" % (head, c["zone"])
        for mark, text in (("frozen", "it is frozen"), ("attacking", "it is attacking"),
                           ("used", "it was used this turn")):
            if c.get(mark):
                return "%s: %s" % (head, text)
        if c.get("fresh"):
            return "%s: it came into play this turn (fresh)" % head
        return "%s: its rule has no action it can use now" % head
    if kind in ("play", "action", "backup") and c["zone"] != "hand":
        return "%s: it is in the %s, not in the hand" % (head, c["zone"])
    if kind == "attack" and c["zone"] != "ring":
        return "%s: it is in the %s, not in the ring" % (head, c["zone"])
    return None


def _is_card(game, o):
    return isinstance(o, int) and not isinstance(o, bool) and o in game.state["cards"]


def _card_ref_matches(game, ref, o, player):
    """A decision's card reference: ``{card, player, zone, slot, pos}`` (all but card optional)."""
    if not _is_card(game, o):
        return False
    c = game.state["cards"][o]
    owner = ref.get("player", player)
    if "card" in ref and not ref_matches(game, ref["card"], o, owner):
        return False
    if "player" in ref and c["ctrl"] != ref["player"]:
        return False
    if "zone" in ref and c["zone"] != ref["zone"]:
        return False
    if "slot" in ref and not (c["zone"] == "ring" and c["slot"] == ref["slot"]):
        return False
    return True


# ---------------------------------------------------------------------- the decider and driver
class Driver:
    """Drives a game from the scenario's starting point with its steps and decisions."""

    def __init__(self, sc, steps, answers):
        self.sc = sc
        self.file = sc.file
        self.steps = steps          # [Step]
        self.pos = 0
        self.answers = answers      # [(value, at)]
        self.apos = 0
        self.game = None
        self.pending_slot = None    # (iid, slot) of the play step being resolved

    # -------------------------------------------------------------- steps
    def current(self):
        return self.steps[self.pos] if self.pos < len(self.steps) else None

    def _fail(self, step, text):
        raise ScenarioFailure("%s: %s" % (step.label(self.file), text))

    def _immediate(self):
        """Run ``fire`` steps at the head of the list."""
        while True:
            step = self.current()
            if step is None or step.kind != "fire":
                return step
            v = step.value
            g = self.game
            obj = None
            if "card" in v:
                found = [i for i in g.ring_chars(v["player"]) if ref_matches(g, v["card"], i, v["player"])]
                if not found:
                    self._fail(step, "no card %r in player %d's ring" % (v["card"], v["player"]))
                obj = found[0]
            self.pos += 1
            g.fire(v["event"], v["player"], obj, obj)
            g.settle()

    def _until_reached(self, step, entered_phase):
        st = self.game.state
        v = step.value
        if v == "over":
            return False
        if "turn" in v and st["turn"] != v["turn"]:
            if st["turn"] > v["turn"]:
                self._fail(step, "turn %d passed without reaching it (now turn %d, %s)"
                           % (v["turn"], st["turn"], st["phase"]))
            return False
        if "phase" in v:
            return entered_phase == v["phase"]
        return True

    def checkpoint(self, entered_phase=None):
        """Between two parts of the flow: pop a reached ``run_until``, run ``fire`` steps, and
        stop if no step is left."""
        while True:
            step = self._immediate()
            if step is None:
                raise _Halt()
            if step.kind == "run_until" and self._until_reached(step, entered_phase):
                self.pos += 1
                continue
            return

    def phase_done(self, name):
        """A phase ended (or was skipped): a ``pass`` step naming it has done its job."""
        step = self.current()
        if step is not None and step.kind == "pass" and PASS_PHASE.get(step.value) == name:
            self.pos += 1

    def turn_done(self):
        step = self.current()
        if step is not None and step.kind == "pass" and step.value == "turn":
            self.pos += 1

    # -------------------------------------------------------------- the decider port
    def decide(self, request):
        kind = request["kind"]
        if kind in LOOP_KINDS:
            self.pending_slot = None
            return self._loop_answer(request)
        if kind == "choose_slot" and self.pending_slot is not None \
                and request["source"] == self.pending_slot[0]:
            slot = self.pending_slot[1]
            self.pending_slot = None
            return slot
        return self._next_answer(request)

    def _loop_answer(self, request):
        kind = request["kind"]
        while True:
            step = self._immediate()
            if step is None:
                raise _Halt()
            if step.kind == "run_until":
                if self._until_reached(step, None):
                    self.pos += 1
                    continue
                return STOP_ANSWER[kind]
            if step.kind == "pass":
                if step.value == "turn":
                    return STOP_ANSWER[kind]
                if PASS_PHASE[step.value] != LOOP_KINDS[kind]:
                    self._fail(step, "the game asks %s of player %d (phase %s), not a question of "
                               "the %s phase" % (LOOP_NAMES[kind], request["player"],
                                                 self.game.state["phase"], step.value))
                self.pos += 1
                return STOP_ANSWER[kind]
            want = STEP_LOOP[step.kind]
            if want != kind:
                v = step.value if isinstance(step.value, dict) else {"card": step.value}
                why = _why_not_offered(self.game, step.kind, v.get("card"), request["player"])
                self._fail(step, "%sthe game asks %s of player %d (phase %s) but this step answers %s"
                           % ("%s; " % why if why else "", LOOP_NAMES[kind], request["player"],
                              self.game.state["phase"], LOOP_NAMES[want]))
            option = self._step_option(step, request)
            self.pos += 1
            if step.kind == "play" and isinstance(step.value, dict) and "slot" in step.value:
                self.pending_slot = (option["card"], step.value["slot"])
            return option

    def _step_option(self, step, request):
        g = self.game
        p = request["player"]
        v = step.value if isinstance(step.value, dict) else {"card": step.value}
        for o in request["options"]:
            if o.get("do") != step.kind:
                continue
            if all(ref_matches(g, v[f], o.get(f), p) for f in REF_FIELDS if f in v):
                return o
        offered = ", ".join(describe_option(g, o) for o in request["options"])
        why = _why_not_offered(g, step.kind, v.get("card"), p)
        self._fail(step, "%snot offered to player %d now; the game offers: %s"
                   % ("%s: " % why if why else "", p, offered))

    def _next_answer(self, request):
        g = self.game
        if self.apos >= len(self.answers):
            raise ScenarioFailure(
                "no decision left for %s of player %d (%s); options: %s (%d decisions used)"
                % (request["kind"], request["player"], request["prompt"],
                   ", ".join(describe_option(g, o, request["kind"]) for o in request["options"]),
                   self.apos))
        value, at = self.answers[self.apos]
        self.apos += 1
        where = "decisions[%d] at %s:%d" % (self.apos - 1, self.file, at[0])
        if isinstance(value, dict) and "answer" in value:
            if "kind" in value and value["kind"] != request["kind"]:
                raise ScenarioFailure("%s: expected a %s question, but the game asks %s of player %d "
                                      "(%s)" % (where, value["kind"], request["kind"],
                                                request["player"], request["prompt"]))
            if "player" in value and value["player"] != request["player"]:
                raise ScenarioFailure("%s: expected a question to player %d, but the game asks "
                                      "player %d (%s)" % (where, value["player"], request["player"],
                                                          request["kind"]))
            value = value["answer"]
        try:
            return self._resolve(value, request, where)
        except _NoMatch as exc:
            raise ScenarioFailure("%s: %s; the game asks %s of player %d (%s), options: %s" % (
                where, exc, request["kind"], request["player"], request["prompt"],
                ", ".join(describe_option(g, o, request["kind"]) for o in request["options"])))

    def _resolve(self, value, request, where):
        opts = request["options"]
        p = request["player"]
        if isinstance(value, list):
            out = []
            for x in value:
                out.append(self._resolve_one(x, opts, p, exclude=out))
            return out
        return self._resolve_one(value, opts, p, exclude=[])

    def _resolve_one(self, value, opts, p, exclude):
        g = self.game
        if isinstance(value, dict) and "card" in value:
            for o in opts:
                if o not in exclude and _card_ref_matches(g, value, o, p):
                    return o
            raise _NoMatch("no offered card matches %s" % dict(value))
        if isinstance(value, dict) and "do" in value:
            for o in opts:
                if isinstance(o, dict) and o.get("do") == value["do"] and all(
                        ref_matches(g, value[f], o.get(f), p) for f in REF_FIELDS if f in value):
                    return o
            raise _NoMatch("no offered option matches %s" % dict(value))
        if isinstance(value, str) and value not in opts:
            for o in opts:
                if o not in exclude and _is_card(g, o) and g.state["cards"][o]["model"] == value:
                    return o
        return value


class _NoMatch(Exception):
    pass


def drive(game, driver):
    """Run the game from its starting point until the steps are used up or the game ends.
    Returns ``"halt"``, ``"over"``."""
    st = game.state
    start = PHASES.index(st["phase"])
    first = True
    attacked = bool(st["attacks"])
    try:
        while True:
            p = st["active"]
            d = 1 - p
            for name in PHASES[start:]:
                if first:
                    first = False
                    entered = True
                else:
                    driver.checkpoint()
                    if name == "counter-attack" and not st["attacks"]:
                        driver.phase_done(name)
                        continue
                    entered = game._phase(p, name)
                if entered:
                    driver.checkpoint(name)
                    took_place = _phase_body(game, name, p, d, attacked)
                    if name == "attack":
                        attacked = took_place
                elif name == "cleanup":
                    game.clear_combat()
                    game._end_turn_marks()
                driver.phase_done(name)
            pl = st["players"][p]
            if pl["extra_turns"] > 0:
                pl["extra_turns"] -= 1
                st["next_player"] = p
            else:
                st["next_player"] = d
            driver.turn_done()
            driver.checkpoint()
            game._start_turn(st["next_player"])
            start = 0
            attacked = False
            driver.checkpoint("turn-start")
    except _Halt:
        return "halt"
    except GameOver:
        step = driver.current()
        if step is not None and step.kind == "run_until" and step.value == "over":
            driver.pos += 1
        return "over"


def _phase_body(game, name, p, d, attacked):
    st = game.state
    if name == "activate":
        game.phase_activate(p)
    elif name == "draw":
        if p == st["first"] and st["players"][p]["turns_taken"] == 1:
            game.emit({"type": "message", "text": "the first player skips the first draw"})
        else:
            game.phase_draw(p)
    elif name == "main":
        game.main_phase(p)
    elif name == "attack":
        return game.phase_attack(p)
    elif name == "counter-attack":
        game.phase_counter_attack(p, d)
    elif name == "end":
        game.phase_end(p, d, attacked)
    elif name == "cleanup":
        game.phase_cleanup(p)
    return None


__all__ = ["Driver", "ScenarioFailure", "Step", "build_game", "drive", "ref_matches"]
