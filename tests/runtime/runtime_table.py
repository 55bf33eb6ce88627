"""A small real table for runtime tests: invented card models and helpers to lay out a game."""
from rulescript.games.cfc.game import CfcGame
from rulescript.runtime.ports import ListSink, NoRules


def char(cid, bp, sp, subtype="Brawler", backup=(), ability=None):
    m = {"id": cid, "name": cid.title(), "type": "character", "subtype": subtype, "bp": bp, "sp": sp,
         "backup": list(backup), "text": ""}
    if ability:
        m["ability"] = {"kind": ability, "name": cid + " ability"}
    return m


MODELS = {m["id"]: m for m in [
    char("tiny", 100, 3),
    char("grunt", 500, 1, backup=("Ninja",)),
    char("ninja", 300, 2, subtype="Ninja"),
    char("brute", 1000, -2, backup=("Brawler", "Brawler", "Ninja")),
    char("big", 1500, -5),
    char("mid", 700, 0, subtype="Mystic"),
    char("trig", 400, 0, ability="trigger"),
    char("inst", 400, 0, ability="instant"),
    {"id": "jab", "name": "Jab", "type": "action", "sp": -1, "text": ""},
    {"id": "freebie", "name": "Freebie", "type": "action", "sp": 0, "text": ""},
    {"id": "wall", "name": "Wall", "type": "reaction", "sp": -1, "text": ""},
]}


def enter_ring(game, engine, p, model):
    """Put a new ``model`` card straight into player p's first free slot the way a played character
    stands there (printed BP, not fresh) and let the rules engine load its rules; returns its iid."""
    iid = game.create_card(model, p, "hand")
    game.state["players"][p]["hand"].remove(iid)
    slot = game.free_slots(p)[0]
    bp = game.models[model]["bp"]
    game.state["cards"][iid].update(zone="ring", slot=slot, bp=bp, lastBP=bp, fresh=False)
    game.state["players"][p]["ring"][slot] = iid
    engine.card_entered_play(game, iid)
    return iid


class Script(object):
    """A decider answering from a list (and recording the requests it saw)."""

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.requests = []

    def decide(self, request):
        self.requests.append(request)
        if not self.answers:
            raise AssertionError("unexpected decision %s: %r" % (request["kind"], request["options"]))
        a = self.answers.pop(0)
        if callable(a):
            return a(request)
        return a


class Recorder(NoRules):
    """A rules port that records what the game tells it and answers hooks as configured."""

    def __init__(self):
        self.events = []
        self.entered = []
        self.left = []
        self.hooks = {}          # hook -> list of verdicts to return
        self.hook_calls = []
        self.cost_m = {}         # kind -> M
        self.damage_adj = 0
        self.actions = set()     # iids that have an action
        self.resolved = []
        self.result = True
        self.on_event = {}       # event -> callable(game, player, obj)

    def card_entered_play(self, game, iid):
        self.entered.append(iid)

    def card_left_play(self, game, iid):
        self.left.append(iid)

    def has_action(self, game, iid):
        return iid in self.actions

    def resolve_action(self, game, iid, why):
        self.resolved.append((iid, why))
        return self.result

    def fire(self, game, event, player, obj=None, trigger=None, bindings=None):
        self.events.append((event, player, obj, trigger, dict(bindings or {})))
        if event in self.on_event:
            self.on_event[event](game, player, obj)

    def ask_hook(self, game, hook, player, obj=None, trigger=None, bindings=None):
        self.hook_calls.append((hook, player, obj, dict(bindings or {})))
        return list(self.hooks.get(hook, []))

    def cost_adjustment(self, game, kind, player, card, paying):
        return self.cost_m.get(kind, 0)

    def damage_adjustment(self, game, source, player):
        return self.damage_adj

    def names(self):
        return [e[0] for e in self.events]


class Table(object):
    """Builds a game in a chosen position (direct state set-up for tests)."""

    def __init__(self, answers=(), rules=None, decks=None):
        self.decider = Script(answers)
        self.rules = rules or Recorder()
        self.sink = ListSink()
        self.game = CfcGame(MODELS, decks or [[], []], self.decider, sink=self.sink, rules=self.rules,
                            seed=1, first=0)
        self.game.state["phase"] = "main"
        self.game.state["turn"] = 1

    def card(self, p, model, zone="hand"):
        return self.game.create_card(model, p, zone)

    def ring(self, p, model, slot=None, fresh=False, frozen=False):
        g = self.game
        iid = g.create_card(model, p, "hand")
        g.state["players"][p]["hand"].remove(iid)
        if slot is None:
            slot = g.free_slots(p)[0]
        c = g.state["cards"][iid]
        c["zone"] = "ring"
        c["slot"] = slot
        c["bp"] = MODELS[model]["bp"]
        c["lastBP"] = c["bp"]
        c["fresh"] = fresh
        c["frozen"] = frozen
        g.state["players"][p]["ring"][slot] = iid
        return iid

    def deck(self, p, models):
        return [self.card(p, m, "deck") for m in models]

    def c(self, iid):
        return self.game.state["cards"][iid]

    def p(self, idx):
        return self.game.state["players"][idx]


