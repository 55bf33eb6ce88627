"""Surviving mutants that cannot change what the program does, each with why (key -> reason).

A key is ``Mutant.key`` (printed by ``run.py`` under each survivor): the file, the line's text, the
column and the change.  Add one only after reading the code: a mutant that *could* change behaviour
but no test notices is a missing test, not an equivalent mutant.
"""
from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    'rulescript/runtime/expr.py | check_length(res, root, node, out, "a list") | 4: check_length(res, root, node, out, "a list") -> pass':
        "expr._ev_list: a list literal's text is at most 2,000 characters (the compiler's RS107), so it holds fewer than 1,000 elements and never passes the 10,000 of RS512 (a longer list comes from a join, checked in _ev_bin)",
    'rulescript/runtime/engine.py | return False  # nothing to activate (cmd_activate does not read the result) | 19: False -> None':
        "Engine.activate: its result is read by nobody: its one caller, the CFC command activate() (commands.cmd_activate through _activate), ignores it and always succeeds (docs/language.md 6.2)",
    'rulescript/runtime/engine.py | return bool(self._activate(res.game, res.source, rule, "activate", res.controller)) | 15: bool(self._activate(res.game, res.source, rule, "activate", res.controller)) -> None':
        "Engine.activate: its result is read by nobody: its one caller, the CFC command activate() (commands.cmd_activate through _activate), ignores it and always succeeds (docs/language.md 6.2)",
    'rulescript/runtime/targets.py | if len(conj) != 1: | 7: len(conj) != 1 -> True':
        "targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`",
    'rulescript/runtime/targets.py | if len(conj) != 1: | 20: 1 -> 0':
        "targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`",
    'rulescript/runtime/targets.py | return False  # not the shortcut: each candidate is tested | 15: False -> None':
        "targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`",
    'rulescript/runtime/targets.py | return t["t"] == "kw" and t["v"] in ("players", "player") and not t["not"] and not t["notself"] | 11: t["t"] == "kw" and t["v"] in ("players", "player") and not t["not"] and not t["notself"] -> None':
        "targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`",
    'rulescript/runtime/targets.py | return t["t"] == "kw" and t["v"] in ("players", "player") and not t["not"] and not t["notself"] | 83: not t["notself"] -> t["notself"]':
        "targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`",
    'rulescript/runtime/engine.py | verdict = False | 18: False -> True':
        "Engine._run_listener: the initial verdict is returned only when the game's `repeats` runs a listener 0 times; only the werewolf game has `repeats`, and it has no hooks, while the result of a listener that is not a hook is read by no caller (_dispatch keeps verdicts of hooks only, _load ignores it)",
    'rulescript/runtime/engine.py | return False  # impure (_pure reads it as a truth value) | 15: False -> None':
        "_pure_auto: its result only decides whether an affordability check (_adjustment with paying False) snapshots and restores the state around its listeners; None is read as False (`all(...)`, and `_pure` computes a None again instead of caching it), and False or None for a pure auto only adds a snapshot and a restore of a state its listeners leave unchanged (docs/runtime.md, Rules port)",
    'rulescript/runtime/engine.py | return False  # impure (_pure reads it as a truth value) | 23: False -> None':
        "_pure_auto: its result only decides whether an affordability check (_adjustment with paying False) snapshots and restores the state around its listeners; None is read as False (`all(...)`, and `_pure` computes a None again instead of caching it), and False or None for a pure auto only adds a snapshot and a restore of a state its listeners leave unchanged (docs/runtime.md, Rules port)",
    'rulescript/runtime/engine.py | return True  # pure: an affordability check needs no snapshot | 11: True -> False':
        "_pure_auto: its result only decides whether an affordability check (_adjustment with paying False) snapshots and restores the state around its listeners; None is read as False (`all(...)`, and `_pure` computes a None again instead of caching it), and False or None for a pure auto only adds a snapshot and a restore of a state its listeners leave unchanged (docs/runtime.md, Rules port)",
    'rulescript/runtime/engine.py | return True  # pure: an affordability check needs no snapshot | 11: True -> None':
        "_pure_auto: its result only decides whether an affordability check (_adjustment with paying False) snapshots and restores the state around its listeners; None is read as False (`all(...)`, and `_pure` computes a None again instead of caching it), and False or None for a pure auto only adds a snapshot and a restore of a state its listeners leave unchanged (docs/runtime.md, Rules port)",
    'rulescript/runtime/expr.py | if v is True or v is False: | 7: v is True or v is False -> v is False':
        "expr._atom_text: these only keep a boolean out of this branch (or let none in), and a boolean that reaches the last line gives str(v) too (is_number is false for a bool, _norm leaves it)",
    'rulescript/runtime/expr.py | if v is True or v is False: | 7: v is True or v is False -> v is True':
        "expr._atom_text: these only keep a boolean out of this branch (or let none in), and a boolean that reaches the last line gives str(v) too (is_number is false for a bool, _norm leaves it)",
    'rulescript/runtime/expr.py | if v is True or v is False: | 7: v is True or v is False -> False':
        "expr._atom_text: these only keep a boolean out of this branch (or let none in), and a boolean that reaches the last line gives str(v) too (is_number is false for a bool, _norm leaves it)",
    'rulescript/runtime/expr.py | if v is True or v is False: | 12: True -> False':
        "expr._atom_text: these only keep a boolean out of this branch (or let none in), and a boolean that reaches the last line gives str(v) too (is_number is false for a bool, _norm leaves it)",
    'rulescript/runtime/expr.py | if v is True or v is False: | 17: or -> and':
        "expr._atom_text: these only keep a boolean out of this branch (or let none in), and a boolean that reaches the last line gives str(v) too (is_number is false for a bool, _norm leaves it)",
    'rulescript/games/cfc/lasting.py | state["next_id"] += 1 | 21: += -> -=':
        "lasting._new_id: an entry's id only names it (remove_ids, expiring and of_source test membership, records and a resolution's lasting_ids carry it); ids counting down from -1 are as unique as ids counting up, nothing orders or counts entries by id (they are kept in creation order in state['lasting']), and the counter is part of the state, so a saved game goes on with the same ids",
    'rulescript/games/cfc/commands.py | q = f.get("qty") or {"mode": "all"} | 8: f.get("qty") or {"mode": "all"} -> f.get("qty")':
        "commands._minimum: every FILTER the compiler makes has a qty ({'mode': 'all'} when none is written; docs/ir.md, FILTER), and a cost's filter is such a FILTER, so f.get('qty') is never empty and the default is never taken",
    'rulescript/games/cfc/combat.py | if e <= 0: | 27: e <= 0 -> False':
        'CombatMixin.resolve_attack, the excess passed to the followers: once e is 0 or less, every later step deals e, 0 or less, which _take_combat ignores (it changes BP only for damage above 0), so going on instead of stopping gives the same BPs and records',
    'rulescript/games/cfc/combat.py | if e <= 0: | 29: <= -> <':
        "CombatMixin.resolve_attack, the excess passed to the followers: at e = 0 the loop may go on one more step only to deal 0 combat damage, which _take_combat ignores (it changes BP only for damage above 0), and e then drops below 0 (a follower's BP is above 0), so the loop ends with the same BPs and records",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 11: dmg > 0 and bp > 0 -> bp > 0':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 11: dmg > 0 and bp > 0 -> dmg > 0':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 11: dmg > 0 and bp > 0 -> True':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 15: > -> >=':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 19: and -> or':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/combat.py | if dmg > 0 and bp > 0: | 26: > -> >=':
        "CombatMixin._take_combat: the damage and the BP it compares are always above 0 where it is called (a character at 0 BP is KO'd when the command or damage step that lowered it ends, so every member and blocker that combat reads is above 0; the blocker's BP and the total are the BP of such characters, and the excess is passed only while above 0), so `dmg > 0 and bp > 0` is true at every call, as each of these forms is",
    'rulescript/games/cfc/commands.py | if not iids:  # no card among the targets: bp_set and bp_add would only settle | 7: not iids -> False':
        'cmd_bp: with no card among the targets, bp_set and bp_add loop over no card and only settle, and every operation that changes BP or HP settles before it returns (as for the if-cards guards)',
    'rulescript/games/cfc/combat.py | if v < 0 and pl["sp"] < -v: | 11: v < 0 and pl["sp"] < -v -> pl["sp"] < -v':
        "pay_united_attack: a United Attack never gives SP (its value is at most 0, docs/cfc-rules.md 5) and a player's SP is never below 0, so `sp < -v` alone decides: at v = 0 it is false, as `v < 0`, `v <= 0` and `v < 1` are",
    'rulescript/games/cfc/combat.py | if v < 0 and pl["sp"] < -v: | 13: < -> <=':
        "pay_united_attack: a United Attack never gives SP (its value is at most 0, docs/cfc-rules.md 5) and a player's SP is never below 0, so `sp < -v` alone decides: at v = 0 it is false, as `v < 0`, `v <= 0` and `v < 1` are",
    'rulescript/games/cfc/combat.py | if v < 0 and pl["sp"] < -v: | 15: 0 -> 1':
        "pay_united_attack: a United Attack never gives SP (its value is at most 0, docs/cfc-rules.md 5) and a player's SP is never below 0, so `sp < -v` alone decides: at v = 0 it is false, as `v < 0`, `v <= 0` and `v < 1` are",
    'rulescript/runtime/engine.py | ctrl = (card["ctrl"] if card is not None else game.state.get("active", 0)) \\ | 32: card is not None -> True':
        "Engine._run_guarded: the source of every resolution is a card of the state (resolve_action and key_values read state['cards'][iid] before, listeners and static autos are cards' rules), so card is never None",
    'rulescript/runtime/engine.py | return src[0], [src[1], src[2], (src[2] or 0) + 1] | 51: 0 -> 1':
        "_rule_at: a rule's src is [file, line, column] with a column from 1 (the compiler sets it for every section and the cache keeps it), so `src[2] or 0` is never the 0",
    'rulescript/runtime/expr.py | if v is True or v is False: | 25: False -> True':
        'expr._atom_text: without this test a boolean reaches the last line, which gives str(v) too (a bool is not a number for is_number, and _norm leaves it as it is)',
    'rulescript/runtime/engine.py | if not found: | 11: not found -> False':
        'the two `if not found:` of engine.py: with no matching listener, going on in probe_hook snapshots and restores the state, dispatches to the empty list of listeners it found and returns their verdicts, [], as the early return does; in _adjustment it dispatches to no listener and returns the untouched sum, 0, as the early return does',
    'rulescript/runtime/expr.py | if a is None or b is None: | 7: a is None or b is None -> b is None':
        'expr.equal: when a or b is nil, the tests after this one give the same answer (nil is not a bool, a list, a number or a text, so only the last test, a == b, is reached: true exactly when both are nil)',
    'rulescript/runtime/expr.py | if a is None or b is None: | 7: a is None or b is None -> False':
        'expr.equal: when a or b is nil, the tests after this one give the same answer (nil is not a bool, a list, a number or a text, so only the last test, a == b, is reached: true exactly when both are nil)',
    'rulescript/runtime/expr.py | if a is None or b is None: | 17: or -> and':
        'expr.equal: when a or b is nil, the tests after this one give the same answer (nil is not a bool, a list, a number or a text, so only the last test, a == b, is reached: true exactly when both are nil)',
    "rulescript/runtime/expr.py | if a is None or b is None: | 7: a is None or b is None -> a is None":
        "expr.equal: with b nil and a not nil every later test gives False (a bool needs b a bool, a list b a "
        "list, a number b a number, a text b a text, and a card or player is equal only to itself), as the "
        "dropped test does",
    "rulescript/games/cfc/commands.py | if cards: | 7: cards -> True":
        "the six `if cards:` guards of commands.py (damage, freeze, unfreeze, removeFromAttack, unite, transform) "
        "only skip calling the game's operation with no card: each operation then loops over no card and only "
        "settles (ops.py damage_chars, freeze, unfreeze, transform; combat.py remove_from_attack, unite, which "
        "re-applies the flags its United Attack already has), and every operation that changes BP or HP "
        "settles before it returns, so there is never anything to settle",
    'rulescript/runtime/expr.py | return _unparse(root, node[1], 8) + "." + _slice(root, node[3], node[2]) | 39: 8 -> 7':
        "node_text: the operand of an attribute is bracketed when its form binds looser than 8; the only "
        "form of precedence 7 is a sign, whose value is a number, and the compiler refuses an attribute of a "
        "number (RS302 'a value of type int has no attributes'), so no expression the runtime gets has it",
    'rulescript/runtime/expr.py | return _unparse(root, node[1], 8) + "." + _slice(root, node[3], node[2]) | 39: 8 -> 9':
        "node_text: no form has precedence 8 (the forms that bind tighter, literals, lists, names, attributes, "
        "elements and calls, return their text without brackets), so 'looser than 8' and 'looser than 9' name the same forms",
    'rulescript/runtime/expr.py | return _unparse(root, node[1], 8) + "." + str(node[2]) | 39: 8 -> 7':
        "node_text: as for an attribute, the only form of precedence 7 is a sign, which gives a number, and "
        "the compiler refuses an element of a number (RS302 'only a list can be indexed')",
    'rulescript/runtime/expr.py | return _unparse(root, node[1], 8) + "." + str(node[2]) | 39: 8 -> 9':
        "node_text: no form has precedence 8, so 'looser than 8' and 'looser than 9' name the same forms",
    "rulescript/games/cfc/commands.py | if reserved is None: | 7: reserved is None -> False":
        "cost_can_pay: its one caller, Engine._action_body, always passes the list of cards the action's "
        "other costs reserve, never None",
    'rulescript/games/cfc/play.py | elif do == "activate": | 17: do == "activate" -> True':
        "main_phase: the answer is checked against the options (ports.check_answer), whose 'do' is pass, "
        "play, backup, action or activate; the four others are taken by the branches before, so this test is "
        "always true when reached",
    "rulescript/runtime/engine.py | if card is None: | 15: card is None -> False":
        "Engine._matching: a listener's source card is always in state['cards'] (the listeners are built "
        "from the cards of the state, and no game of the project ever deletes a card from it), so the "
        "guard never skips anything",
    'rulescript/runtime/engine.py | ext["next_listener"] = lid + 1 | 37: 1 -> 2':
        "Engine._load: a listener's id only has to differ from the ids given before it (ids grow either "
        "way); nothing reads a listener's id (listeners are kept, run and removed by their place in the "
        "list and their source card), and every client of a game runs the same code",
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
        "vocab.listener_suppressed, `not self.rule_allowed(...)` in use_action and offer_actions): None and False "
        "both mean the rule may not run",
    "rulescript/games/werewolf/game.py | self._table_version += 1 | 31: 1 -> 2":
        "WerewolfGame._table_version only keys the cache of _action_index, compared for equality with the key "
        "of the last build; every change adds 1 or (the mutant) 2, so the number still grows at every change "
        "and never comes back to a value an older index was built at (the key names the four lines that add 1: "
        "_new_card, _leave, transfer and switch_roles)",
    'wwrf_adapter/render/rules.py | if sub != "manipulation": | 7: sub != "manipulation" -> False':
        "render/rules._poll: a poll ability's subtype is one of the six of build.ABILITY_SHAPES (creation, "
        "addition, cancellation, silent cancellation, deletion, manipulation; no later step of build_ability "
        "changes a poll's), and the five others return before this test, so it is always false: the "
        "`return None` after it is never reached",
    'rulescript/games/werewolf/game.py | st["next_iid"] = iid + 1 | 31: 1 -> 2':
        "WerewolfGame._new_card: an instance id only names a card (the keys of state['cards'], the lists "
        "table, attrs, extras, the players' role) and orders cards (sorted ids in the table view); ids that "
        "grow by 2 are still unique and in the same order, and no code reads an id as a count or an index "
        "(next_iid is read only here; checked: the werewolf area's tests and the OCTGN host's werewolf tests "
        "pass with the mutant)",
    'rulescript/games/werewolf/game.py | self.emit({"type": "phase", "phase": kind, "number": st["day"] if kind == '
    '"day" else st["night"]}) | 74: kind == "day" -> False':
        "WerewolfGame.play_phase: the game starts with day -1 and night 0 (data.new_state) and play_phase is "
        "called only by run, which alternates day and night from day 0, so when a day starts the numbers of "
        "days and nights are equal (day 0 after no night, day n after night n): st['night'] is st['day'] there",
    "rulescript/games/werewolf/commands.py | text = value if isinstance(value, str) else _expr.to_str(res, value) | 24: "
    "isinstance(value, str) -> False":
        "_cmd_format: to_str of a text is that text (expr._atom_text returns a string as it is, and the length "
        "limit applies only to lists), so a text value gives the same pieces either way",
    "rulescript/games/werewolf/game.py | return 0  # a rules port that reads no values (NoRules) checks no rule | 19: "
    "0 -> 1":
        "WerewolfGame._quantity_of: only a rules port without key_values (NoRules, a game without card rules) "
        "gets there, and under it no rule is ever checked: rule_allowed is reached from the engine's listeners, "
        "from offer_actions (which returns at once without rules_of) and from use_action (which reads "
        "self.rules.rules, which NoRules has not)",
    "rulescript/games/werewolf/game.py | return False  # already out of the game | 19: False -> None":
        "WerewolfGame.leave_game: its callers read the answer as a truth value (`leave_game(...) or done` in "
        "commands._leave, starting from False, so None or False gives False), or not at all (concede)",
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
    "rulescript/runtime/engine.py | return False  # declined: the effect failed (run_chain reads it as a truth "
    "value) | 23: False -> None":
        "Engine._effect (a declined `ask` effect): its result is read only by run_chain, as `not last` and "
        "`if last`, where None and False are alike; run_chain's own result is read by no caller (Engine._body, "
        "CFC's each and the werewolf game's each ignore it)",
    'rulescript/runtime/engine.py | if "ability" in node and "sign" in node: | 15: "ability" in node and "sign" in '
    'node -> "ability" in node':
        "_pure_auto: in the IR of a statement only an ability effect has the key 'ability', and it always has "
        "'sign' too (docs/ir.md: {\"ability\": name, \"sign\": \"+\" | \"-\", \"at\": [...]}, made only by "
        "RuleCompiler._ability_effect), so the two tests are true together",
    'rulescript/games/cfc/flow.py | if c["ua_member"]: | 15: c["ua_member"] -> True':
        "CfcGame._end_turn_marks: the test only skips setting ua_member to False on a card where it is "
        "already False; setting it on every card leaves the same state",
    "rulescript/runtime/engine.py | if _expr.is_number(value) and not -_expr.MAX_INT <= value <= _expr.MAX_INT: | 7: "
    "_expr.is_number(value) and not -_expr.MAX_INT <= value <= _expr.MAX_INT -> _expr.is_number(value)":
        "engine._show: expr._short_number gives a float and an int within the limits back unchanged, so "
        "passing every number through it shows the same value as returning it as it is",
    'rulescript/runtime/engine.py | return "action" | 11: "action" -> None':
        "engine._default_label: every action the compiler accepts has an effect in one of its branches (an "
        "action needs a command, and a condition-only statement is refused in an action, RS403), so the "
        "loop always returns before this line",
    "rulescript/runtime/expr.py | return None if res.source is None else Card(res.source) | 19: res.source is None -> False":
        "expr._name_this: the engine makes every Resolution with the iid of a card (a listener's source, the "
        "card activated, the card a host queries), so res.source is never None in the program",
    "octgn_pack/host/codec.py | if len(_STR) < 4096: | 21: < -> >=":
        "codec._text_hash: _STR only remembers the hashes of texts already seen (the checksum reads it with "
        "cache.get and computes _text_hash when a text is not there); whether a hash is stored changes how "
        "fast a checksum is computed, never its value (_text_hash computes the same number again)",
    "octgn_pack/host/codec.py | if len(_STR) < 4096: | 23: 4096 -> 4095":
        "codec._text_hash: the size of the memo _STR (4096 or 4095 texts) changes only how many hashes are "
        "remembered, not any hash: a text not in it is hashed again to the same number",
    "wwrf_adapter/aiwolf/parser.py | if text.startswith(k) and len(text) > len(k)), None) | 58: > -> >=":
        "_Parser.keyword: a text equal to a keyword returned three lines above (`if text in KEYWORDS ... "
        "return text`), so a keyword k that the text starts with is always shorter than the text here: "
        "`len(text) >= len(k)` and `len(text) > len(k)` hold together",
    'wwrf_adapter/aiwolf/parser.py | if tok.kind == "word": | 11: tok.kind == "word" -> True':
        "_Parser.who: the token here is not an agent token (handled above), so it is a word, '(', ')' or "
        "a number of digits (lexer.Kind); for '(', ')' and digits the branch finds nothing: their text is "
        "not ANY in any case and does not match _AGENTISH (it starts with 'agent'), so the same error "
        "is raised after the `if` either way",
    "octgn_pack/host/codec.py | h = 2166136261 | 12: 2166136261 -> 2166136262":
        "codec._text_hash and codec.checksum (both start from a line of this text): the starting value of a "
        "text's hash or of the digest (the FNV offset basis) only has to be the same on every client: a text still hashes to one number, two texts still differ as often, and a "
        "checksum is only compared between clients of the same build (docs/octgn-host.md: on a build "
        "mismatch no client automates), like the tag of None (0x301 -> 0x300) above",
    "octgn_pack/host/codec.py | return (1, k, 0) | 16: 1 -> 2":
        "codec._key: the sort key of a dict of int and text keys puts ints (0, '', n) before texts; a "
        "first element of 1 or 2 for texts gives the same order (both are greater than 0, and texts "
        "compare among themselves by k), so the same items are hashed in the same order",
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
    "rulescript/games/werewolf/game.py | return isinstance(v, int) and not isinstance(v, bool) | 11: "
    "isinstance(v, int) and not isinstance(v, bool) -> isinstance(v, int)":
        "werewolf _is_seat is asked only of what a poll's votes name, its tally's keys and its winner: seats "
        "(the ints of Player values, options of `found('options')`), the words of `optionwords` (texts), a "
        "seat drawn for Random, or None; never a bool, so leaving out the bool test changes no answer",
    'rulescript/games/werewolf/game.py | st["next_poll"] = pid + 1 | 34: + -> -':
        "werewolf create_poll: a poll's `id` (from `next_poll`) is read by nothing: no module of the project "
        "reads a poll's id (polls are found by their poll id `poll` and kept in order in the state's list), so "
        "ids growing by 2, by 0 or going down change no behaviour",
    'rulescript/games/werewolf/game.py | st["next_poll"] = pid + 1 | 36: 1 -> 0':
        "werewolf create_poll: a poll's `id` (from `next_poll`) is read by nothing: no module of the project "
        "reads a poll's id (polls are found by their poll id `poll` and kept in order in the state's list), so "
        "ids growing by 2, by 0 or going down change no behaviour",
    'rulescript/games/werewolf/game.py | st["next_poll"] = pid + 1 | 36: 1 -> 2':
        "werewolf create_poll: a poll's `id` (from `next_poll`) is read by nothing: no module of the project "
        "reads a poll's id (polls are found by their poll id `poll` and kept in order in the state's list), so "
        "ids growing by 2, by 0 or going down change no behaviour",
    'wwrf_adapter/aiwolf/host.py | if st["phase"] == "day" and self.winner is not None and end_day > 0: | 72: > -> >=':
        "AiwolfHost.run: a game that ends in the day phase with a winner ended at an execution (only a death changes "
        "the winner, and by day only the vote kills), and day 0 has no vote (docs/aiwolf.md: votableInFirstDay is "
        "only sent to agents, the server never holds a vote on day 0); a game won before it starts ends in the "
        "setup phase. So end_day is at least 1 whenever the first two conditions hold, and > 0 and >= 0 agree",
    "wwrf_adapter/aiwolf/host.py | most = max(count.values(), default=0) | 47: 0 -> 1":
        "AiwolfHost._night_after_end: the default is only taken when `count` is empty, and then `top`, the "
        "targets whose count equals it, is empty whatever the default is",
    'wwrf_adapter/aiwolf/host.py | latest_attack_vote_list=self.latest["ATTACK"] if wolf else (), | 61: wolf -> True':
        "AiwolfHost._info: latest['ATTACK'] holds votes only from an attack vote's first round to the start of the "
        "next day (_new_day empties it before DAILY_INITIALIZE, and before FINISH), and in that stretch the only "
        "packets written are the wolves' own (a revote's ATTACK, the whispers before it): no other agent is sent "
        "a gameInfo while it is not empty",
    "wwrf_adapter/aiwolf/parser.py | return enum(tok.text.upper()) | 19: enum(tok.text.upper()) -> None":
        "_Parser.enum_word: this return follows an AW104 error (a role or species in lower case), and parse() "
        "gives no utterance when there are errors; the value only goes into the RoleSentence/SpeciesSentence "
        "built from it, never into a message or a position",
    'wwrf_adapter/aiwolf/host.py | if kind == "choose_player" and seat == NARRATOR and prompt.endswith(".tie"): | 35: and -> or':
        "AiwolfHost.decide: the werewolf engine asks choose_player in one place only, a poll's tie "
        "(WerewolfGame, game.py: ask('choose_player', NARRATOR, tied, ..., name + '.tie')), whatever the game "
        "folder: a choose_player decision is always the narrator's and its prompt always ends in .tie, so the "
        "three conditions are true together and false together, and joining any two with or changes nothing",
    'wwrf_adapter/aiwolf/host.py | if kind == "choose_player" and seat == NARRATOR and prompt.endswith(".tie"): | 56: and -> or':
        "AiwolfHost.decide: the werewolf engine asks choose_player in one place only, a poll's tie "
        "(WerewolfGame, game.py: ask('choose_player', NARRATOR, tied, ..., name + '.tie')), whatever the game "
        "folder: a choose_player decision is always the narrator's and its prompt always ends in .tie, so the "
        "three conditions are true together and false together, and joining any two with or changes nothing",
    'wwrf_adapter/aiwolf/host.py | after_execution = self.night and self.executed_today >= 0 and request is not Request.VOTE | 61: >= -> >':
        'AiwolfHost._decision_packet: executed_today is -1 (nobody executed today) or the number of the executed agent, and agents are numbered from 1: `>= 0`, `> 0` and `>= 1` are the same test',
    'wwrf_adapter/aiwolf/host.py | after_execution = self.night and self.executed_today >= 0 and request is not Request.VOTE | 64: 0 -> 1':
        'AiwolfHost._decision_packet: executed_today is -1 (nobody executed today) or the number of the executed agent, and agents are numbered from 1: `>= 0`, `> 0` and `>= 1` are the same test',
    'wwrf_adapter/aiwolf/host.py | if self.roles.get(medium) is A.Role.MEDIUM and not self.night and self.executed_today > 0 \\ | 94: > -> >=':
        'AiwolfHost._on_learn: executed_today is -1 or an agent number, at least 1: `> 0` and `>= 0` are the same test',
    'octgn_pack/host/codec.py | h = 2166136261 | 12: 2166136261 -> 2166136260':
        "codec.checksum: the starting value of the digest (FNV's offset basis) only has to be the same on every client of a build (docs/octgn-host.md: checksums are compared only between clients of one build); any start gives a digest that tells the same states apart; the key also names _text_hash's line, the same text: see its entry above",
    'octgn_pack/host/codec.py | if len(_STR) < 4096: | 11: len(_STR) < 4096 -> False':
        'codec._text_hash: whether and up to which size the memo _STR keeps a hash (never, always, 4096 or 4097 texts) changes how fast a checksum is computed, never a hash: a text not in the memo is hashed again to the same number (see the two entries of this line above)',
    'octgn_pack/host/codec.py | if len(_STR) < 4096: | 11: len(_STR) < 4096 -> True':
        'codec._text_hash: whether and up to which size the memo _STR keeps a hash (never, always, 4096 or 4097 texts) changes how fast a checksum is computed, never a hash: a text not in the memo is hashed again to the same number (see the two entries of this line above)',
    'octgn_pack/host/codec.py | if len(_STR) < 4096: | 21: < -> <=':
        'codec._text_hash: whether and up to which size the memo _STR keeps a hash (never, always, 4096 or 4097 texts) changes how fast a checksum is computed, never a hash: a text not in the memo is hashed again to the same number (see the two entries of this line above)',
    'octgn_pack/host/codec.py | if len(_STR) < 4096: | 23: 4096 -> 4097':
        'codec._text_hash: whether and up to which size the memo _STR keeps a hash (never, always, 4096 or 4097 texts) changes how fast a checksum is computed, never a hash: a text not in the memo is hashed again to the same number (see the two entries of this line above)',
    'octgn_pack/host/codec.py | h = ((h ^ (0x100 + len(items))) * _P) & _M | 23: 0x100 -> 255':
        'codec.checksum: the tag of a dict (0x100 + its size) and of a list (0x200 + its length) only has to be the same on every client of a build and to tell a dict from a list of a few hundred items: a base one lower or higher still does (a dict of n items and a list of m share a tag only when n is 255 or 257 more than m instead of 256), like the tag of None (0x301 -> 0x300) above',
    'octgn_pack/host/codec.py | h = ((h ^ (0x100 + len(items))) * _P) & _M | 23: 0x100 -> 257':
        'codec.checksum: the tag of a dict (0x100 + its size) and of a list (0x200 + its length) only has to be the same on every client of a build and to tell a dict from a list of a few hundred items: a base one lower or higher still does (a dict of n items and a list of m share a tag only when n is 255 or 257 more than m instead of 256), like the tag of None (0x301 -> 0x300) above',
    'octgn_pack/host/codec.py | h = ((h ^ (0x200 + len(x))) * _P) & _M | 23: 0x200 -> 511':
        'codec.checksum: the tag of a dict (0x100 + its size) and of a list (0x200 + its length) only has to be the same on every client of a build and to tell a dict from a list of a few hundred items: a base one lower or higher still does (a dict of n items and a list of m share a tag only when n is 255 or 257 more than m instead of 256), like the tag of None (0x301 -> 0x300) above',
    'octgn_pack/host/codec.py | h = ((h ^ (0x200 + len(x))) * _P) & _M | 23: 0x200 -> 513':
        'codec.checksum: the tag of a dict (0x100 + its size) and of a list (0x200 + its length) only has to be the same on every client of a build and to tell a dict from a list of a few hundred items: a base one lower or higher still does (a dict of n items and a list of m share a tag only when n is 255 or 257 more than m instead of 256), like the tag of None (0x301 -> 0x300) above',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16)) * _P) & _M | 36: 16 -> 15':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16)) * _P) & _M | 36: 16 -> 17':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16)) * _P) & _M  # spread: see the docstring | 36: 16 -> 15':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16)) * _P) & _M  # spread: see the docstring | 36: 16 -> 17':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16) ^ 0x305) * _P) & _M | 36: 16 -> 15':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16) ^ 0x305) * _P) & _M | 36: 16 -> 17':
        'codec.checksum: the spread of a 32-bit word, w ^ (w >> k), is one-to-one for any shift k from 1 to 31 and moves a flip of the top bit down into the low bits, which is all the docstring asks of it; k = 15 or 17 instead of 16 gives other digests, the same on every client of a build (checksums are compared only between clients of one build)',
    'octgn_pack/host/codec.py | h = ((h ^ (0x302 if v else 0x303)) * _P) & _M | 43: 0x303 -> 772':
        "codec.checksum: None, True and False are one step each, h ^ tag (0x301, 0x302, 0x303), and tests/octgn_host/test_rules_pinned.py checks that they stay apart; a text is h ^ hash ^ 0x304 and a number's second step h ^ spread ^ 0x305, a hash or spread word XORed in: a tag one off there only makes False and a text whose 32-bit hash is 0 (or the like) share a step, as likely as any two texts sharing a hash, and checksums are compared only between clients of one build",
    'octgn_pack/host/codec.py | h = ((h ^ (vh if vh is not None else _text_hash(v)) ^ 0x304) * _P) & _M | 70: 0x304 -> 771':
        "codec.checksum: None, True and False are one step each, h ^ tag (0x301, 0x302, 0x303), and tests/octgn_host/test_rules_pinned.py checks that they stay apart; a text is h ^ hash ^ 0x304 and a number's second step h ^ spread ^ 0x305, a hash or spread word XORed in: a tag one off there only makes False and a text whose 32-bit hash is 0 (or the like) share a step, as likely as any two texts sharing a hash, and checksums are compared only between clients of one build",
    'octgn_pack/host/codec.py | h = ((h ^ (vh if vh is not None else _text_hash(v)) ^ 0x304) * _P) & _M | 70: 0x304 -> 773':
        "codec.checksum: None, True and False are one step each, h ^ tag (0x301, 0x302, 0x303), and tests/octgn_host/test_rules_pinned.py checks that they stay apart; a text is h ^ hash ^ 0x304 and a number's second step h ^ spread ^ 0x305, a hash or spread word XORed in: a tag one off there only makes False and a text whose 32-bit hash is 0 (or the like) share a step, as likely as any two texts sharing a hash, and checksums are compared only between clients of one build",
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16) ^ 0x305) * _P) & _M | 42: 0x305 -> 772':
        "codec.checksum: None, True and False are one step each, h ^ tag (0x301, 0x302, 0x303), and tests/octgn_host/test_rules_pinned.py checks that they stay apart; a text is h ^ hash ^ 0x304 and a number's second step h ^ spread ^ 0x305, a hash or spread word XORed in: a tag one off there only makes False and a text whose 32-bit hash is 0 (or the like) share a step, as likely as any two texts sharing a hash, and checksums are compared only between clients of one build",
    'octgn_pack/host/codec.py | h = ((h ^ w ^ (w >> 16) ^ 0x305) * _P) & _M | 42: 0x305 -> 774':
        "codec.checksum: None, True and False are one step each, h ^ tag (0x301, 0x302, 0x303), and tests/octgn_host/test_rules_pinned.py checks that they stay apart; a text is h ^ hash ^ 0x304 and a number's second step h ^ spread ^ 0x305, a hash or spread word XORed in: a tag one off there only makes False and a text whose 32-bit hash is 0 (or the like) share a step, as likely as any two texts sharing a hash, and checksums are compared only between clients of one build",
    'wwrf_adapter/aiwolf/host.py | want = self.names.role_id(seat.requested_role) if seat.requested_role else None | 66: seat.requested_role -> True':
        "AiwolfHost._deal: names.role_id(None) is None (it looks for the game's role id whose AIWolf role is the one given, and no role is None), so asking it for a seat that requested no role gives the None the condition gives",
    'wwrf_adapter/aiwolf/host.py | if rec["killing"] == "attack":  # the wolves are still told whom they attacked | 11: rec["killing"] == "attack" -> True':
        "AiwolfHost._on_defended: the only protection of the AIWolf roles is the bodyguard's, protect(attacks, active) for the night (cards/werewolf/rules/bodyguard.ini), so every defended record of an AIWolf game is of an attack",
    'wwrf_adapter/aiwolf/host.py | requests: int = 0 | 20: 0 -> 1':
        "GameRecord.requests: the default is never used, the one GameRecord of the program (AiwolfHost.run) is made with the game's count of requests",
    'octgn_pack/host/codec.py | return (1, k, 0) | 22: 0 -> 1':
        'codec._key: texts sort by (1, k, 0): the keys of one dict are all different, so two texts are always told apart by k and the third element is never compared',
    'wwrf_adapter/render/book.py | first = p.read_text(encoding="utf-8").split("\\n", 1)[0] | 58: 1 -> 2':
        "write_game: the first line of a rules file is the first item of the split at line ends whether the "
        "split stops after one line end or two",
    "rulescript/compiler/compile_rule.py | if spec.greedy_tail and len(pieces) > len(params): | 44: > -> >=":
        "RuleCompiler._split_args: with as many pieces as parameters, the greedy tail is the last piece from its "
        "start to the end of the argument text, which is what split_top_level made that last piece already "
        "(it runs to the end of the text): the same pieces and offsets",
    "rulescript/compiler/compile_filter.py | if head.isalpha() or head == \"*\":  # 'opp', 'character@myRing', '*@myDiscards' | 34: or -> and":
        "FilterCompiler.filters: the condition can then never hold, so no filter takes the shortcut for the commonest "
        "filters (_simple_filter) and each takes the regex reading (_lower), which gives the same IR, positions and "
        "diagnostics, as for `or head == \"*\"` dropped above (checked: the rules of the three bundled games and 504 "
        "filters, twelve heads by seven zones in six places, compile alike with and without the mutant)",
    'wwrf_adapter/render/exprs.py | if left.kind == "selector" and (left.filters or (left.name or "").lower() in ("all", "dead", "others", "members") | 61: left.name or "" -> left.name':
        "condition() of an `exists` test: a selector value's name is None only in the `@(K:V,…)` form, and that form always has filters (values.parse_selector appends one per item, and an empty `@()` is WW102 at parse), so `left.filters` is true first and `left.name` is never read as None (other selectors are built with a name: exprs.py's `@Value` filters, defaults.py)",
    'rulescript/runtime/targets.py | if len(alts) == 1: | 7: len(alts) == 1 -> False':
        'targets._block: the branch for one alternative is a shortcut of the general one: every atom (_atom) keeps a subset of what it is given in the same order, and `kept` holds each object once, so the union of one alternative read back in the order of `kept` is the list the shortcut returns; a block is never empty (`if f["block"]` before the call), so sending one alternative, or none, down the general path changes nothing',
    'rulescript/runtime/targets.py | if len(alts) == 1: | 20: 1 -> 0':
        'targets._block: the branch for one alternative is a shortcut of the general one: every atom (_atom) keeps a subset of what it is given in the same order, and `kept` holds each object once, so the union of one alternative read back in the order of `kept` is the list the shortcut returns; a block is never empty (`if f["block"]` before the call), so sending one alternative, or none, down the general path changes nothing',
    'rulescript/runtime/targets.py | if len(alts) == 1: | 20: 1 -> 2':
        'targets._block: the branch for one alternative is a shortcut of the general one: every atom (_atom) keeps a subset of what it is given in the same order, and `kept` holds each object once, so the union of one alternative read back in the order of `kept` is the list the shortcut returns; a block is never empty (`if f["block"]` before the call), so sending one alternative, or none, down the general path changes nothing',
    'rulescript/compiler/compile_filter.py | if zone.isalpha() or not at: | 15: zone.isalpha() or not at -> zone.isalpha()':
        "FilterCompiler.filters: the test only chooses the fast reading (_simple_filter) for common filters; without it a filter with no '@' ('opp', 'character[bp:highest]') is read by match_filters and _lower, which give the same IR and diagnostics (test_checks_pinned.py and test_parser.py check that the fast reading and the exact one agree)",
    'rulescript/compiler/compile_rule.py | if j < 0:  # an unterminated quote hides the rest | 19: 0 -> 1':
        "compile_rule's mark scan: j is text.find(quote, i + 1) with i >= 0, so a found quote is at 1 or later and only the -1 of no closing quote is below 1, as it is below 0",
    'wwrf_adapter/aiwolf/host.py | if not seat.connected and agent not in self._lost_told: | 11: not seat.connected and agent not in self._lost_told -> not seat.connected':
        'AiwolfGame._notes: it runs only right after a request to a seat that was connected (_tell and _ask return before it for a seat already lost, as the role request does), so a seat is seen lost here once, at the request during which its connection went; `agent not in self._lost_told` is then always true',
    'rulescript/compiler/driver.py | if cache is not None and key is not None: | 25: and -> or':
        'compile_source: key is set exactly when cache is not None (both are decided by the first `if cache is not None`), so `cache is not None and key is not None` and `... or ...` are both that one test',
    'rulescript/games/cfc/flow.py | self.rules.start(self) | 8: self.rules.start(self) -> pass':
        "CfcGame.setup: the rules port's start only prepares the engine's list of listeners in the state's ext (Engine.start; NoRules.start does nothing), and Engine._listeners makes that same empty list the first time anything reads or adds a listener, so every later step sees the same listeners",
    'rulescript/runtime/targets.py | if len(conjs) == 1 and _every_player(conjs[0]): | 7: len(conjs) == 1 and _every_player(conjs[0]) -> False':
        'targets._every_player only chooses a shortcut of _candidates: when it is false the candidates are tested term by term (_conj_ok), which keeps every player for a lone `players` or `player` term, with or without `^` (it leaves out the source, a card); these mutants only make it false (or None) more often, or true for a lone `^players`/`^player`',
}
