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
    "rulescript/runtime/engine.py | return found[0] if found else None | 27: found -> False":
        "Engine.rule_of is called nowhere (no module of the project, no test, no host or game: they all use "
        "rules_of, docs/runtime.md), so a change inside it cannot change what the program does",
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
    'octgn_pack/host/codec.py | return bool(item) and (item[0].isdigit() or item in ("n", "e")) | 32: 0 -> 1':
        "codec.is_decision is called nowhere (no module of the project, no test, no OCTGN script uses it): a change inside it cannot change what the program does",
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
        "codec._text_hash: the starting value of a text's hash (the FNV offset basis) only has to be the "
        "same on every client: a text still hashes to one number, two texts still differ as often, and a "
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
}
