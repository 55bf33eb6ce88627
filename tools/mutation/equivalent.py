"""Surviving mutants that cannot change what the program does, each with why (key -> reason).

A key is ``Mutant.key`` (printed by ``run.py`` under each survivor): the file, the line's text, the
column and the change.  Add one only after reading the code: a mutant that *could* change behaviour
but no test notices is a missing test, not an equivalent mutant.
"""
from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    "rulescript/runtime/engine.py | if card is None: | 15: card is None -> False":
        "Engine._matching: a listener's source card is always in state['cards'] (the listeners are built "
        "from the cards of the state, and no game of the project ever deletes a card from it), so the "
        "guard never skips anything",
    'rulescript/runtime/engine.py | ext["next_listener"] = lid + 1 | 37: 1 -> 2':
        "Engine._load: a listener's id only has to differ from the ids given before it (ids grow either "
        "way); nothing reads a listener's id (listeners are kept, run and removed by their place in the "
        "list and their source card), and every client of a game runs the same code",
    'octgn_pack/host/codec.py | return bool(item) and (item[0].isdigit() or item in ("n", "e")) | 22: and -> or':
        "codec.is_decision is called nowhere (no module of the project, no test, no OCTGN script uses it): a change inside it cannot change what the program does",
    'octgn_pack/host/codec.py | return bool(item) and (item[0].isdigit() or item in ("n", "e")) | 27: '
    'item[0].isdigit() or item in ("n", "e") -> item in ("n", "e")':
        "codec.is_decision is called nowhere (no module of the project, no test, no OCTGN script uses it): a change inside it cannot change what the program does",
    "octgn_pack/host/codec.py | h = ((h ^ 0x301) * _P) & _M | 26: 0x301 -> 768":
        "checksum: the tag of None only has to differ from the tags of the other one-step values (True "
        "0x302, False 0x303, text 0x304, numbers 0x305); 0x300 does (and is the first step of a list of "
        "256 items exactly as 0x301 is that of a list of 257), and a checksum is only compared between "
        "clients of the same build (docs/octgn-host.md: on a build mismatch no client automates)",
    "octgn_pack/host/codec.py | h = ((h ^ (vh if vh is not None else _text_hash(v)) ^ 0x304) * _P) & _M | 33: "
    "vh is not None -> False":
        "checksum: vh is _text_hash(v) taken from its cache (_STR holds only values _text_hash returned), "
        "so computing it again gives the same number",
    "rulescript/games/werewolf/game.py | return False  # a card the game does not have: nothing of it runs | 19: "
    "False -> None":
        "WerewolfGame.rule_allowed is read only as a truth value (`not game.rule_allowed(...)` in "
        "vocab.listener_suppressed, `and self.rule_allowed(...)` in offered_actions, `not self.rule_allowed(...)` in "
        "use_action and offer_actions): None and False both mean the rule may not run",
    "rulescript/games/werewolf/game.py | self._table_version += 1 | 31: 1 -> 2":
        "WerewolfGame._table_version only keys the cache of _action_index, compared for equality with the key "
        "of the last build; every change adds 1 or (the mutant) 2, so the number still grows at every change "
        "and never comes back to a value an older index was built at (the key names the four lines that add 1: "
        "_new_card, _leave, transfer and switch_roles)",
    'rulescript/games/werewolf/game.py | keys = rule.get("keys") or {} | 23: rule.get("keys") or {} -> {}':
        "WerewolfGame.offered_actions (the only line of this text at this depth) is called nowhere since the "
        "flow offers actions through _action_index (commit 0a9dc79): no module, test or host calls it, so a "
        "change inside it cannot change what the program does",
    'wwrf_adapter/render/rules.py | if sub != "manipulation": | 7: sub != "manipulation" -> False':
        "render/rules._poll: a poll ability's subtype is one of the six of build.ABILITY_SHAPES (creation, "
        "addition, cancellation, silent cancellation, deletion, manipulation; no later step of build_ability "
        "changes a poll's), and the five others return before this test, so it is always false: the "
        "`return None` after it is never reached",
    "rulescript/games/werewolf/commands.py | return True | 11: True -> None":
        "a command's result is read only by Engine._effect, as `ok is not False` (docs/language.md 5.6: "
        "a command fails only by returning False), so None and True both mean it succeeded; the key names "
        "the `return True` that ends _cmd_investigate, _cmd_investigate_attribute, _cmd_poll_manipulate, "
        "_cmd_transfer, _cmd_counter, _cmd_each, _cmd_switch and _cmd_shuffle, each called only through "
        "COMMANDS by run_command",
    'rulescript/compiler/compile_rule.py | raise ctx.fail("RS301", f"argument {index + 1} of {spec.name}() is empty", '
    "start - 1 if start else 0, | 111: 0 -> 1":
        "RuleCompiler._arg: `start` is where the argument sits in the value's text, and an argument always "
        "follows its command's name and '(' (the lexer's ARGS token starts after them, so at 2 or more), so "
        "`start` is never 0 and the `else 0` is never taken",
    'rulescript/compiler/compile_filter.py | if head.isalpha() or head == "*":  # \'opp\', \'character@myRing\', '
    "\'*@myDiscards\' | 19: head.isalpha() or head == \"*\" -> head.isalpha()":
        "FilterCompiler.filters: the test picks a shortcut that reads the commonest filters without the "
        "filter regex; '*' and '*@ZONE' left to the general reading give the same IR, positions and "
        "diagnostics (checked: every rule of cards/cfc-demo, cards/werewolf and cards/werewolf-forms, and "
        "'*' filters with nine zones in targets, target clauses, requisites and costs, compile to the same "
        "IR and diagnostics either way)",
    "rulescript/compiler/compile_filter.py | if 0 < segment[2] <= len(text) and text[segment[2] - 1] in \"\'\\\"\": | 31: 2 -> 3":
        "FilterCompiler.filter: segment[2] and segment[3] are the start and end of a segment of the value's "
        "text, so 0 <= start < end <= len(text); the segment that comes out of order is never the first "
        "one, so its start is at least 1, and both conditions hold together (checked: 8,640 rules of three "
        "segments, in targets, target clauses, continuation lines and requisites, give the same diagnostics "
        "either way, 2,244 of them with the note on quotes)",
    "wwrf_adapter/aiwolf/host.py | played = not self.seats[agent - 1].connected and agent in self._lost_told | 17: "
    "not self.seats[agent - 1].connected and agent in self._lost_told -> not self.seats[agent - 1].connected":
        "AiwolfHost.decide: a seat is disconnected only inside a request of the game (the server seats a "
        "built-in agent before each game in place of a lost connection), and every request (ROLE, _tell, "
        "_ask) reports a lost connection right after it (_notes adds the agent to _lost_told), so when "
        "decide runs a disconnected seat is always in _lost_told",
    "wwrf_adapter/aiwolf/host.py | played = not self.seats[agent - 1].connected and agent in self._lost_told | 17: "
    "not self.seats[agent - 1].connected and agent in self._lost_told -> agent in self._lost_told":
        "AiwolfHost.decide: an agent is put in _lost_told only when its seat is found disconnected (_notes), "
        "and a seat never connects again within a game, so an agent in _lost_told is always disconnected",
    'rulescript/compiler/driver.py | line, col, end = (arg.get("at") or [1, 1, 2])[:3] | 62: 2 -> 3':
        "_check_element_names: only an argument whose IR is a literal text gets here, and the IR of every "
        "expression carries its position (ExprCompiler.root: \"at\" is [line, col, end_col]), so the default "
        "position is never used",
    'rulescript/compiler/compile_rule.py | return {"pos": int(m.group(1))} | 39: 1 -> 0':
        "RuleCompiler._arg (a position argument): the match is of _INT_RE, ^\\s*([+-]?\\d{1,15})\\s*$, on `text`, which "
        "is the argument already stripped of blanks, so the whole match (group 0) is group 1 itself; and int() "
        "would ignore blanks around the digits anyway: int(m.group(0)) == int(m.group(1)) for every match",
    'wwrf_adapter/render/exprs.py | (item.name or "")[:-2] if (item.name or "").endswith("\'s") else item.name, | 59: '
    '(item.name or "").endswith("\'s") -> True':
        "Exprs.text (a possessive selector in an info text, @Selection's): the item's text ends with 's and it has "
        "no property, so its name (values.parse_selector: the text after the sigil, up to a '->' there is none of) "
        "ends with 's too, and both versions cut it; only a selector of keys (@(Role:Seer)'s) has no name, and "
        "the mutant gives it '' instead of None, which every reader of a name takes alike ((v.name or ''), "
        "`and v.name`)",
    "rulescript/compiler/compile_rule.py | if len(parts) == 1:  # no suffix (the common case): every group has its default | 29: 1 -> 0":
        "RuleCompiler._events: `parts` is the event split at ':', never empty, so the mutant sends an event without "
        "suffixes down the general path, which gives the same entry: no suffix is read, `groups` is filled from "
        "the profile's default_groups keeping the first default of each group (as default_group_map is built), "
        "and `flags` is empty",
    'rulescript/compiler/driver.py | file = ir["src"][0] if isinstance(ir, dict) and ir.get("src") else "" | 56: and -> or':
        "_check_element_names: every rule IR is a dict that carries \"src\" ([file, line, col], set by "
        "RuleCompiler for each section and kept by the cache's JSON), so `isinstance(ir, dict) or ir.get('src')` "
        "and `... and ...` are both true for every rule",
}
