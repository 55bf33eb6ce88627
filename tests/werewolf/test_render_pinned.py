"""Renderer rules that a one-line change used to break without a failing test (issue 22's mutation
test), each rendered from an Oracle (or a poll) added to the book of cards/werewolf and checked against
docs/werewolf.md: @ResultN (``@Result1``…``@Result7`` are ``results.0``…``results.6``, as text and as a
player), host information as a player, selectors of several keys, polls of words, a team's members,
``@Selection is not …``, nested Evaluates, section ids, a player's role where an element name goes."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from rulescript.compiler import compile_game
from wwrf_adapter.render import render_book

GAME = Path(__file__).resolve().parents[2] / "cards" / "werewolf"


def _book(tmp_path: Path, files: dict[str, str], roles: Path = GAME / "roles") -> Path:
    """``tmp_path / "book"``: a copy of the book ``roles`` (cards/werewolf's) with ``files`` (name: text) added."""
    book = tmp_path / "book"
    shutil.copytree(roles, book)
    for name, text in files.items():
        (book / name).write_text(text, encoding="utf-8")
    return book


def _oracle(tmp_path: Path, *lines: str):
    """The book of cards/werewolf with an Oracle whose formalized lines are ``lines``, rendered:
    (the render result, the Oracle's diagnostics, the keys of its rendered sections)."""
    book = _book(tmp_path, {"oracle": "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
                                      + "".join(line + "\n" for line in lines)})
    result = render_book(book, tmp_path / "game")
    mine = [(d.code, d.message) for d in result.diagnostics if Path(d.span.file).name == "oracle"]
    oracle = next((el for el in result.elements if el.card["id"] == "oracle"), None)
    return result, mine, [dict(sec.keys) for sec in oracle.sections] if oracle else []


def test_only_a_players_host_information_is_a_player(tmp_path: Path) -> None:
    """docs/werewolf.md: ``%Player1%`` is host information naming a player (``host('Player1')``),
    ``%Number%`` names a number.  ``X has `Lupine``` tests a player: with %Player1% it renders, with
    %Number% it is the renderer's WW401 (a number is not a player), not a test of a number."""
    _, diags, keys = _oracle(tmp_path / "a", "Immediate Night: Learn `y` [Condition: %Player1% has `Lupine`]")
    assert diags == [] and keys[0]["condition"] == "has(host('Player1'), 'lupine')"
    _, diags, keys = _oracle(tmp_path / "b", "Immediate Night: Learn `x` [Condition: %Number% has `Lupine`]")
    assert diags == [("WW401", "not supported by the werewolf renderer: '%Number%' is not a player")]
    assert keys == []


def test_a_selector_of_one_key_is_not_counted_as_several_keys(tmp_path: Path) -> None:
    """docs/werewolf.md: ``@(Group:G,Attr:A)`` (several keys) is its own construct of the coverage
    report (``--report``).  The same book with an Oracle line without a selector, with
    ``@(Role:!Seer)`` (one key, negated: a where test) and with ``@(Role:Seer,Attr:Lupine)`` (two
    keys): only the last adds one to the count of selectors of several keys."""
    def several(tag: str, condition: str) -> int:
        result, diags, _ = _oracle(tmp_path / tag, "Immediate Night: Learn `x`" + condition)
        assert diags == []
        return result.coverage.counts["selector"]["@(A,B) (several keys)"]

    base = several("base", "")
    assert several("one", " [Condition: @(Role:!Seer) exists]") == base
    assert several("two", " [Condition: @(Role:Seer,Attr:Lupine) exists]") == base + 1


def test_result_n_is_element_n_minus_one_as_text_and_as_a_player(tmp_path: Path) -> None:
    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    (book / "oracle").write_text(
        "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
        "Immediate Night: Learn `x @Result1->Number x` [Temporal: Night 1]\n"
        "Immediate Night: Learn `seen` [Temporal: Night 1, Condition: @Result3 has `Lupine`]\n"
        "Immediate Night: Learn `y` [Temporal: Night 1, Condition: @Result7 lacks `Lupine`]\n",
        encoding="utf-8")
    out = tmp_path / "game"
    result = render_book(book, out)
    assert [d for d in result.diagnostics if Path(d.span.file).name == "oracle"] == []
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    keys = [dict(sec.keys) for sec in oracle.sections]
    assert keys[0]["action"] == "learn('x ' + str(results.0) + ' x')"
    assert keys[1]["condition"] == "has(results.2, 'lupine')"
    assert keys[2]["condition"] == "not has(results.6, 'lupine')"
    assert _compile_errors(out) == []


def _compile_errors(out: Path) -> list[str]:
    """The codes of the errors of compiling the rendered game in ``out`` (with cards/werewolf's
    game.yaml and cards.yaml where the render wrote none)."""
    for name in ("game.yaml", "cards.yaml"):
        if not (out / name).exists():
            shutil.copy(GAME / name, out / name)
    compiled = compile_game(out, cache=None)
    return [d.code for d in compiled.diagnostics if d.is_error]


def test_a_selector_without_a_name_where_an_element_name_goes_is_reported_as_such(tmp_path: Path) -> None:
    """WWRF ``Join <group>`` takes an element name.  ``@(Foo)`` is a selector whose one item is not
    Key:Value (the parser's WW102) and that has no name: the renderer reports the value it cannot use
    as an element name (WW401 naming it), as for any other selector there, not an unexpected form."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Join @(Foo)")
    assert diags == [("WW102", "selector item 'Foo' must be Key:Value"),
                     ("WW401", "not supported by the werewolf renderer: '@(Foo)' as an element name")]
    assert keys == []


def test_a_poll_of_words_alone_offers_no_player(tmp_path: Path) -> None:
    """docs/werewolf.md (Polls): ``Available Options:`` lists players and words; the players are the
    key ``options`` (a filter), the words ``optionwords``.  A poll whose options are ``Yes, No`` alone
    offers no player: its filter is ``@Nobody``'s, ``players::keep(nil)``, and the rendered game
    compiles (an empty filter would be the compiler's RS101)."""
    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    (book / "referendum").write_text("**Referendum** | Poll\nAvailable Options: Yes, No\nAllowed Voters: @All\n",
                                     encoding="utf-8")
    result = render_book(book, tmp_path / "game")
    assert [(d.code, d.message) for d in result.diagnostics] == []
    poll = next(el for el in result.elements if el.card["id"] == "referendum")
    assert [dict(sec.keys) for sec in poll.sections] == [
        {"options": "players::keep(nil)", "optionwords": "Yes, No", "voters": "players[alive]"}]
    assert _compile_errors(tmp_path / "game") == []


def test_the_members_of_a_team_are_its_players(tmp_path: Path) -> None:
    """docs/werewolf.md (Elements that stand for players): a team stands for its players, also as
    ``&Werewolves->Members`` and ``&(Attr:!Lupine)->Members`` (the teams of the players without the
    attribute): ``playersOf`` of the team, or of ``teams(...)``; only ``@Self->Members`` names the
    element itself."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Reveal `the pack hunts` to &Werewolves->Members",
                             "Immediate Night: Kill &(Attr:!Lupine)->Members")
    assert diags == []
    assert keys[0]["action"] == ("reveal('the pack hunts', "
                                 "getTargets(\"players[alive]::keep(playersOf('werewolves'))\"))")
    assert keys[1]["action"] == "kill() to(players[alive]::keep(playersOf(teams('attr!=lupine'))))"


def test_only_a_selection_that_is_not_oneself_is_the_target_filter(tmp_path: Path) -> None:
    """docs/werewolf.md: ``Condition: @Selection is not @Self`` of a prompting line is the target filter
    ``player[alive]::not(me)``; any other condition is the key ``condition`` (checked per offered
    target).  ``@Selection is not %Player1%`` (host information naming a player, a value without a
    name) is such a condition: ``selection != host('Player1')``."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Learn `a` [Condition: @Selection is not %Player1%] |oracle.a|",
                             "Immediate Night: Learn `b` [Condition: @Selection is not @Self] |oracle.b|")
    assert diags == []
    assert keys == [
        {"timing": "immediate night", "prompt": "oracle.a", "condition": "selection != host('Player1')",
         "action": "learn('a')"},
        {"timing": "immediate night", "prompt": "oracle.b", "target": "player[alive]::not(me)", "action": "learn('b')"}]


def _divining(*nested: str) -> tuple[str, ...]:
    """An Oracle line that divines another player for `Lupine`: on Success the ``nested`` lines (an
    Evaluate under the branch), Otherwise 'human'."""
    return ("Immediate Night: [Condition: @Selection is not @Self] |oracle.read|",
            "  • Process: Attribute Investigate @Selection for `Lupine`", "  • Evaluate:",
            "    ‣ @Result is `Success`:", *nested, "    ‣ Otherwise: `@Selection is human.`")


def test_a_nested_otherwise_under_a_condition_keeps_the_outer_condition(tmp_path: Path) -> None:
    """docs/werewolf.md (Structure): a branch whose body is a nested Evaluate joins the outer if-chain,
    ``A: (C: X; Otherwise: Y)`` being ``A and C: X``, then ``A: Y``; the outer Otherwise stays last.
    The Oracle divines a player: a werewolf who is Inked, a werewolf, a human."""
    _, diags, keys = _oracle(tmp_path, *_divining("      ◦ @Selection has `Inked`: `@Selection is an inked wolf.`",
                                                  "      ◦ Otherwise: `@Selection is a wolf.`"))
    assert diags == []
    assert keys[0]["action"] == (
        "investigateAttribute('lupine') to(selection)\n"
        "; [[if (result == 'Success') and (has(selection, 'inked'))]] learn(str(selection) + ' is an inked wolf.')"
        " [[elif result == 'Success']] learn(str(selection) + ' is a wolf.')"
        " [[else]] learn(str(selection) + ' is human.')")


def test_a_section_without_a_prompt_takes_the_next_free_number(tmp_path: Path) -> None:
    """docs/werewolf.md: ``rules/<element>.ini`` has one section per WWRF line; a prompting line's
    section is named by its prompt key (``|oracle.2|``: ``oracle--2``, as ``matchmaker--pair``), a line
    without one by its number among the element's sections (``lovers--1``...).  The second line's
    number, 2, is taken by the first line's prompt: it is ``oracle--3``; the third is ``oracle--watch``
    (a search for a free id that no longer ends fails by the suite's per-test timeout)."""
    result, diags, _ = _oracle(tmp_path, "Immediate Night: Learn `a` |oracle.2|", "Immediate Night: Learn `b`",
                               "Immediate Night: Learn `c` |oracle.watch|")
    assert diags == []
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    assert [sec.id for sec in oracle.sections] == ["oracle--2", "oracle--3", "oracle--watch"]
    assert oracle.card["rules"] == ["oracle--2", "oracle--3", "oracle--watch"]


def test_a_players_role_or_team_where_an_element_name_goes_is_read_when_the_line_runs(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors where an element name is expected): ``Role Change @Self to
    @TargetDead->Role`` reads the role when the line runs; ``->Role``, ``->Alignment``,
    ``->OriginalRole`` are ``.role``, ``.team``, ``.originalrole``, ``@TargetDead`` is ``targeted``."""
    _, diags, keys = _oracle(tmp_path, "On Death: Role Change @Self to @TargetDead->Role",
                             "Immediate Night: Alignment Change @Self to @Selection->Alignment |oracle.turn|",
                             "Immediate Night: Role Change @Self to @Selection->OriginalRole |oracle.copy|")
    assert diags == []
    assert [k.get("auto") or k["action"] for k in keys] == [
        "~mydeath~ roleChange(targeted.role) to(me)", "alignmentChange(selection.team) to(me)",
        "roleChange(selection.originalrole) to(me)"]


def test_the_players_of_a_target_or_of_a_set_of_players(tmp_path: Path) -> None:
    """docs/werewolf.md: ``@Target->Players`` is ``playersOf(targeted)``, the players the target stands
    for; of a set of players (``@Dead`` is ``players[dead]``, ``@(Attr:Lupine)`` is
    ``players[alive]::has('lupine')``) the set's players, found when the line runs
    (``getTargets``); as targets of an ability, ``players::keep(...)``."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Kill @Target->Players", "Immediate Night: Kill @Dead->Players",
                             "Immediate Night: Kill @(Attr:Lupine)->Players")
    assert diags == []
    assert [k["action"] for k in keys] == [
        "kill() to(players::keep(playersOf(targeted)))",
        "kill() to(players::keep(playersOf(getTargets('players[dead]'))))",
        "kill() to(players::keep(playersOf(getTargets(\"players[alive]::has('lupine')\"))))"]


def test_a_scaling_by_the_owners_counter_is_counted_as_a_counter(tmp_path: Path) -> None:
    """docs/werewolf.md: the coverage report (``--report``) counts each construct the book uses; a
    scaling ``⟨@Self->Counter⟩`` (the rule runs as many times as its owner's counter: ``scaling =
    counter``) is a use of ``->Counter``.  The same book with an Oracle line without scaling and with
    it: the second counts one more ``->Counter``."""
    def counters(tag: str, line: str) -> int:
        result, diags, keys = _oracle(tmp_path / tag, line)
        assert diags == []
        return result.coverage.counts["selector"]["->Counter"], keys[0].get("scaling")

    base, none = counters("base", "Passive Start Day: Learn `x`")
    more, scaling = counters("counter", "Passive Start Day: Learn `x` ⟨@Self->Counter⟩")
    assert (none, scaling) == (None, "counter")
    assert more == base + 1


def test_a_nested_evaluate_without_otherwise_still_stops_the_outer_chain(tmp_path: Path) -> None:
    """docs/werewolf.md (Structure): ``A: (C: X)`` joins the outer chain as ``A and C: X``; when A holds
    and C does not, the outer branch was still taken, so the outer Otherwise must not run: an empty
    ``A`` branch (``check(false)``) comes before it.  A werewolf who is not Inked is not told
    'human'."""
    _, diags, keys = _oracle(tmp_path, *_divining("      ◦ @Selection has `Inked`: `@Selection is an inked wolf.`"))
    assert diags == []
    assert keys[0]["action"] == (
        "investigateAttribute('lupine') to(selection)\n"
        "; [[if (result == 'Success') and (has(selection, 'inked'))]] learn(str(selection) + ' is an inked wolf.')"
        " [[elif result == 'Success']] check(false)"
        " [[else]] learn(str(selection) + ' is human.')")


def test_a_forced_action_among_a_class_falls_on_its_living_players(tmp_path: Path) -> None:
    """docs/werewolf.md: ``{Forced: S}`` is ``params = forced`` and ``forced = S`` (a declined action is
    used on a random target among S); a class name stands for the players whose role has it
    (``{Forced: Townsfolk}``): ``players[alive]::keep(playersOf('townsfolk'))``."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Protect @Selection from `Attacks` through Active Defense "
                                       "(~Phase) {Forced: Townsfolk} |oracle.guard|")
    assert diags == []
    assert keys == [{"timing": "immediate night", "forced": "players[alive]::keep(playersOf('townsfolk'))",
                     "prompt": "oracle.guard", "params": "forced", "target": "player[alive]",
                     "action": "protect(attacks, active) to(selection) phase"}]


def test_an_attribute_named_by_a_selector_is_read_when_the_line_runs(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors where an element name is expected): the attribute of ``Apply A to P``
    may be a selector, read when the line runs; ``@Result`` there is ``(str(result) if result != nil
    else '')`` (no result: no element, the ability fails), not the element of the line (only
    ``@ThisAttr`` is that).  Without a duration the attribute is ``~Permanent`` (the default: it ends
    when the element that made it leaves play)."""
    _, diags, keys = _oracle(tmp_path, "On Death: Apply @Result to @Self")
    assert diags == []
    assert keys == [{"auto": "~mydeath~ apply((str(result) if result != nil else '')) to(me) permanent"}]


def test_a_role_count_of_a_team_or_a_role_list_is_reported_and_left_out(tmp_path: Path) -> None:
    """docs/werewolf.md: ``Investigate `R` Count`` is ``countRole('r')``, R one role (or a role held as
    a value, ``@Target``); a team (``&Werewolves``, also the checker's WW304) or a list of roles
    (``^(Cat:Killing)``) is not one role's name: the renderer reports each (WW401) and renders neither
    line, where ``Investigate `Seer` Count`` renders."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Investigate &Werewolves Count",
                             "Immediate Night: Investigate ^(Cat:Killing) Count",
                             "Immediate Night: Investigate `Seer` Count")
    assert diags == [
        ("WW304", "the role of 'Investigate' must be a role, but '&Werewolves' is a team"),
        ("WW401", "not supported by the werewolf renderer: '&Werewolves' as an element name"),
        ("WW401", "not supported by the werewolf renderer: '^(Cat:Killing)' as an element name")]
    assert keys == [{"timing": "immediate night", "action": "countRole('seer')"}]


def test_targeting_a_role_takes_a_role_name_or_a_value_as_it_is(tmp_path: Path) -> None:
    """docs/werewolf.md: ``Target V (Role)`` is ``setTarget(role, V)``, the target that value: a role's
    name is its id (``Seer``: ``'seer'``), a value is written as it is (``@Result``: ``result``,
    ``@Target->Role``: ``targeted.role``, ``%Role%``: ``host('Role')``); a word option's target is the
    word (``Target `Yes` (Option)``)."""
    _, diags, keys = _oracle(tmp_path, "On Death: Target `Seer` (Role)", "On Death: Target @Result (Role)",
                             "On Death: Target @Target->Role (Role)", "On Death: Target %Role% (Role)",
                             "On Death: Target `Yes` (Option)")
    assert diags == []
    assert [k["auto"] for k in keys] == [
        "~mydeath~ setTarget(role, 'seer')", "~mydeath~ setTarget(role, result)",
        "~mydeath~ setTarget(role, targeted.role)", "~mydeath~ setTarget(role, host('Role'))",
        "~mydeath~ setTarget(option, 'Yes')"]


def test_a_nested_evaluate_in_for_each_renders_one_condition_and_refuses_two(tmp_path: Path) -> None:
    """docs/werewolf.md (Structure): an Evaluate nested in For Each with one condition and no Otherwise
    is ``check(c) && effects``; with two conditions the renderer does not render it (WW401) rather
    than drop the second (seed-37 survivor rules.py:569)."""
    each = ("Starting:", "  • For Each @All:", "    ‣ Evaluate:", "      ◦ @Ind has `Inked`: Learn `@Ind is inked.`")
    _, diags, keys = _oracle(tmp_path / "one", *each)
    assert diags == []
    assert keys == [{"auto": "~starting~ each(players[alive] => check(has(ind, 'inked')) && learn(str(ind) + ' is inked.'))"}]
    _, diags, keys = _oracle(tmp_path / "two", *each, "      ◦ @Ind has `Lupine`: Learn `@Ind howls.`")
    assert diags == [("WW401", "not supported by the werewolf renderer: a nested block inside a branch (only one "
                      "condition, at the end of the branch, is rendered)")] and keys == []


def test_one_player_as_a_set_of_players_is_kept_from_every_player_but_oneself_is_me(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors and values): ``@Self`` is ``me``, ``@Target`` is ``targeted``,
    ``@Attacker`` ``attacker``; where a set of players goes (``{Forced: S}``, ``Reveal X to S``) a value
    of one player is the set ``players::keep(x)`` (as ``%Player1%`` is ``to(players::keep(host(...)))``),
    but ``@Self`` is ``me`` itself (seed-37 survivor exprs.py:280)."""
    forced = "Immediate Night: Protect @Selection from `Attacks` through Active Defense (~Phase) {Forced: %s} |oracle.%s|"
    _, diags, keys = _oracle(tmp_path, forced % ("@Self", "a"), forced % ("@Target", "b"),
                             "Immediate Night: Reveal `x` to @Attacker")
    assert diags == []
    assert [k.get("forced") for k in keys] == ["me", "players::keep(targeted)", None]
    assert keys[2]["action"] == "reveal('x', getTargets('players::keep(attacker)'))"
    assert _compile_errors(tmp_path / "game") == []


def test_an_include_names_host_information_and_other_meta_lines_are_reported(tmp_path: Path) -> None:
    """docs/werewolf.md (Ghosts): ``Include: %Role%`` is the card's ``includes`` (the game fixes that
    host information when the role is dealt), the name without its ``%``; an ``Include:`` of anything but
    host information, and ``Identity:`` (known only to the reference parser), are not rendered (WW401
    naming the meta line) rather than taken for host information."""
    result, diags, keys = _oracle(tmp_path, "Include: %Role%", "Include: `Seer`", "Identity: `Seer`", "Immediate Night: Learn `x`")
    assert diags == [("WW401", "not supported by the werewolf renderer: the meta line 'include'"),
                     ("WW401", "not supported by the werewolf renderer: the meta line 'identity'")]
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    assert oracle.card["includes"] == ["Role"] and keys == [{"timing": "immediate night", "action": "learn('x')"}]


def test_a_role_list_is_keyed_by_a_number_of_players_of_up_to_three_ascii_digits(tmp_path: Path) -> None:
    """docs/werewolf.md: the book's ``role-lists.yaml`` maps a number of players to a list of roles,
    copied into game.yaml's ``role_lists`` (role names as ids); a key written as a string of up to three
    digits (``"5"``, ``"100"``) is that number. A key that is not one (``five``, ``"٣"`` an Arabic-Indic digit, ``"1234"``
    more players than a game seats) is a WW402 error at the file's start."""
    import yaml

    def render(text: str, tag: str) -> tuple[list, Any]:
        book = tmp_path / tag / "book"
        shutil.copytree(GAME / "roles", book)
        (book / "role-lists.yaml").write_text(text, encoding="utf-8")
        result = render_book(book, tmp_path / tag / "game")
        game = tmp_path / tag / "game" / "game.yaml"
        lists = yaml.safe_load(game.read_text(encoding="utf-8"))["role_lists"] if game.exists() else None
        return [(d.code, d.message, d.span.line) for d in result.diagnostics if d.code == "WW402"], lists

    hundred = "[Seer, Werewolf" + ", Villager" * 98 + "]"
    assert render(f'"5": [Seer, Possessed, Werewolf, Villager, Villager]\n"100": {hundred}\n', "ok") == (
        [], {5: ["seer", "possessed", "werewolf", "villager", "villager"], 100: ["seer", "werewolf"] + ["villager"] * 98})
    for tag, key in (("word", "five"), ("arabic", '"٣"'), ("long", '"1234"')):
        shown = key.strip('"')
        assert render(f"{key}: [seer]\n", tag)[0] == [
            ("WW402", f"the role list '{shown}' must map a number of players to a list of role names", 1)]


def test_only_a_players_role_team_or_most_frequent_role_names_an_element(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors where an element name is expected): a chain ending in ``->Role``,
    ``->OriginalRole``, ``->Alignment`` or ``->MostFreqRole`` gives an element name, read when the line
    runs (``S->MostFreqRole`` is ``mostFreqRole(S)``); a chain ending in another property (``->Target``, a
    player) is not an element name, nor is a player (``Join @Attacker``, also the checker's WW304): WW401,
    and the line is not rendered."""
    _, diags, keys = _oracle(tmp_path, "On Death: Role Change @Self to @TargetDead->MostFreqRole",
                             "On Death: Join @Self->Target", "On Death: Join @Attacker")
    assert diags == [("WW304", "the group of 'Join' must be a group, but '@Attacker' is a player"),
                     ("WW401", "not supported by the werewolf renderer: '@Self->Target' as an element name"),
                     ("WW401", "not supported by the werewolf renderer: '@Attacker' as an element name")]
    assert keys == [{"auto": "~mydeath~ roleChange(mostFreqRole(targeted)) to(me)"}]


def test_a_choice_for_this_attribute_goes_to_its_holder_and_one_for_a_player_to_that_player(tmp_path: Path) -> None:
    """docs/werewolf.md (Choices): a choice is sent to its target (``for @Target``: ``to(targeted)``), or
    the holder of ``@ThisAttr`` (in an attribute, the player who holds it: the current player, so no
    target clause), else to the current player; with no ``Choice Choose`` line for it, they are asked at
    once (``ask``)."""
    book = _book(tmp_path, {"omen": "**Omen** | Attribute\n__Formalized__\n"
                                    "Starting: `Mood` Choice Creation for @ThisAttr (Calm, Restless)\n"
                                    "Starting: `Fate` Choice Creation for @Target (Good, Bad)\n"
                                    "Starting: `Luck` Choice Creation (High, Low)\n"})
    result = render_book(book, tmp_path / "game")
    assert [d for d in result.diagnostics if Path(d.span.file).name == "omen"] == []
    omen = next(el for el in result.elements if el.card["id"] == "omen")
    assert [dict(sec.keys)["auto"] for sec in omen.sections] == [
        "~starting~ choices('mood', 'Calm, Restless', ask)",
        "~starting~ choices('fate', 'Good, Bad', ask) to(targeted)",
        "~starting~ choices('luck', 'High, Low', ask)"]


def test_a_possessive_in_an_info_text_is_the_value_then_its_s(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors and values): ``… @Selection's …`` in an info text is
    ``'…' + str(selection) + "'s …"``: the selector without ``'s``, then the text from ``'s`` on (a text
    holding ``'`` is written between double quotes); also for a selector of keys (``@(Role:Seer)'s``, its
    players found when the line runs)."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Learn `@Target's door, @Self's key`",
                             "Immediate Night: Learn `@(Role:Seer)'s door`")
    assert diags == []
    assert [k["action"] for k in keys] == [
        "learn(str(targeted) + \"'s door, \" + str(me) + \"'s key\")",
        "learn(str(getTargets(\"players[alive]::role('seer')\")) + \"'s door\")"]


def test_a_branchs_target_clause_is_written_after_its_last_effect_and_a_text_keeps_its_words(tmp_path: Path) -> None:
    """docs/werewolf.md (Structure) and the renderer: the effects of a branch share one target clause,
    written after the last effect, so after its duration too (``protect(attacks, active) phase
    to(selection)``); a text that holds the words `` to(`` is a text, not a target clause: it stays as it
    is. The rendered game compiles."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: [Condition: @Selection is not @Self] |oracle.read|",
                             "  • Process: Attribute Investigate @Selection for `Lupine`", "  • Evaluate:",
                             "    ‣ @Result is `Success`: Protect @Selection from `Attacks` through Active Defense (~Phase)",
                             "    ‣ Otherwise: `Go to(the) square`")
    assert diags == []
    assert keys[0]["action"] == (
        "investigateAttribute('lupine') to(selection)\n"
        "; [[if result == 'Success']] protect(attacks, active) phase to(selection) [[else]] learn('Go to(the) square')")
    assert _compile_errors(tmp_path / "game") == []


def test_reveals_of_a_players_role_and_to_the_attack_location_and_values_as_texts(tmp_path: Path) -> None:
    """docs/werewolf.md (Reveals, Values): ``Reveal <player> to <place>`` shows that player's role there
    (``str(p) + ' is ' + str(roleInfo(p.role, 'name'))``, 'Player 2 is Howler'); a reveal to
    ``@AttackLocation`` goes to ``attacklocation`` (the group whose killing it was, else the player); a
    selector where a text is expected is its value as text (``End Emit @Option``: ``str(option)``) and a
    number is its digits (``Emit 3``: ``'3'``)."""
    _, diags, keys = _oracle(tmp_path, "On Death: Reveal @Attacker to @Self",
                             "On Death: Reveal `wolves hunt here` to @AttackLocation",
                             "On Death: End Emit @Option", "On Death: Emit 3")
    assert diags == []
    assert [k["auto"] for k in keys] == [
        "~mydeath~ reveal(str(attacker) + ' is ' + str(roleInfo(attacker.role, 'name')), 'self')",
        "~mydeath~ reveal('wolves hunt here', attacklocation)",
        "~mydeath~ emit(str(option), end) to(me)", "~mydeath~ emit('3') to(me)"]
    assert _compile_errors(tmp_path / "game") == []


def test_for_each_team_binds_the_team_and_for_each_player_the_players_team(tmp_path: Path) -> None:
    """docs/werewolf.md (Structure, Selectors): ``For Each &All:`` runs once per team in play
    (``each(ind in teams('') => …)``) and ``&Ind`` there is the team itself (``ind``); in ``For Each @All:``
    (the players) ``&Ind`` is that player's team (``ind.team``)."""
    _, diags, keys = _oracle(tmp_path / "teams", "Starting:", "  • For Each &All:", "    ‣ Learn `&Ind plays`")
    assert diags == [] and keys == [{"auto": "~starting~ each(ind in teams('') => learn(str(ind) + ' plays'))"}]
    _, diags, keys = _oracle(tmp_path / "players", "Starting:", "  • For Each @All:", "    ‣ Learn `&Ind plays`")
    assert diags == [] and keys == [{"auto": "~starting~ each(players[alive] => learn(str(ind.team) + ' plays'))"}]


def test_a_selected_value_of_a_kind_and_a_scaling_by_a_value(tmp_path: Path) -> None:
    """docs/werewolf.md: ``Target @Selection (Role)`` (and ``(Attribute)``) is ``setTarget(role,
    selectedvalue)`` with the rule key ``selects = role``: the action offers values of that kind; a scaling
    by a variable, ``⟨$living⟩``, runs the line as many times as that value (``scaling = value``,
    ``scalingof = living``)."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Target @Selection (Role) |oracle.r|",
                             "Immediate Night: Target @Selection (Attribute) |oracle.a|",
                             "Passive Start Day: Learn `y` ⟨$living⟩")
    assert diags == []
    assert keys == [
        {"timing": "immediate night", "prompt": "oracle.r", "selects": "role", "action": "setTarget(role, selectedvalue)"},
        {"timing": "immediate night", "prompt": "oracle.a", "selects": "attribute",
         "action": "setTarget(attribute, selectedvalue)"},
        {"scaling": "value", "scalingof": "living", "auto": "~startday~ learn('y')"}]
    assert _compile_errors(tmp_path / "game") == []


def test_a_selector_keeps_the_living_unless_alive_only_is_false(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors and values): ``@(…,AliveOnly:False)`` searches every player, dead ones
    too (``players…``); ``AliveOnly:True`` is the default, the living (``players[alive]…``)."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Kill @(Role:Seer,AliveOnly:True)",
                             "Immediate Night: Kill @(Role:Seer,AliveOnly:False)")
    assert diags == []
    assert [k["action"] for k in keys] == ["kill() to(players[alive]::role('seer'))", "kill() to(players::role('seer'))"]


def test_a_role_whose_team_the_book_lacks_is_a_located_error(tmp_path: Path) -> None:
    """docs/werewolf.md (Elements): a role's header names its team (``- <Name> Team``, or the team of its
    class); a Solo role without one, or a team the book does not have, is a WW402 error at the header
    (line 1), besides the book checker's WW924."""
    for tag, header, problem in (
            ("solo", "**Hermit** | Solo Miscellaneous", "a Solo role names its team in its header ('- <Name> Team')"),
            ("team", "**Hermit** | Townsfolk Miscellaneous - Hermits Team",
             "the role's team 'Hermits Team' is not a team of the book (teams: travellers, villagers, werewolves)")):
        book = tmp_path / tag / "book"
        shutil.copytree(GAME / "roles", book)
        (book / "hermit").write_text(header + "\n__Formalized__\nNo Abilities\n", encoding="utf-8")
        result = render_book(book, tmp_path / tag / "game")
        assert [(d.code, d.message, d.span.line, d.span.col) for d in result.diagnostics
                if Path(d.span.file).name == "hermit" and d.code == "WW402"] == [("WW402", problem, 1, 1)]


def test_a_chain_before_members_that_cannot_stand_for_players_is_quoted_up_to_members(tmp_path: Path) -> None:
    """docs/werewolf.md (Elements that stand for players): ``X->Members`` stands for the players of X,
    so a chain X that stands for no players is what the error quotes: the whole chain before
    ``->Members`` (one property or several), not only its first element.  ``->Bogus`` is also an
    unknown property (WW205)."""
    _, diags, _ = _oracle(tmp_path / "a", "Immediate Night: Reveal `x` to @Self->Bogus->Members")
    assert diags == [("WW205", "unknown property '->Bogus'"),
                     ("WW401", "not supported by the werewolf renderer: '@Self->Bogus' is not a player "
                               "selector the renderer can turn into a filter")]
    _, diags, _ = _oracle(tmp_path / "b", "Immediate Night: Kill @Self->Role->Bogus->Members")
    assert diags == [("WW205", "unknown property '->Bogus'"),
                     ("WW401", "not supported by the werewolf renderer: the property '->Bogus' in "
                               "'@Self->Role->Bogus'")]


def test_a_selector_the_book_does_not_know_is_left_out_with_its_line(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors): a selector that is not one of the guide's (``@Bogus``) is the book
    checker's WW206; the renderer cannot turn it into a set of players either (WW401), and the line is left
    out, quoted in the rules file under the error with its file and line (the Oracle's third line)."""
    result, diags, keys = _oracle(tmp_path, "Immediate Night: Reveal `x` to @Bogus")
    assert diags == [("WW206", "unknown selector '@Bogus'"),
                     ("WW401", "not supported by the werewolf renderer: the selector '@Bogus' as a set of players")]
    assert keys == []
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    assert oracle.unsupported == ["NOT SUPPORTED: the selector '@Bogus' as a set of players",
                                  "oracle:3  Immediate Night: Reveal `x` to @Bogus"]


def test_each_constant_text_is_counted_once_in_the_coverage_report(tmp_path: Path) -> None:
    """docs/werewolf.md (coverage report, ``--report``): each info text written as a constant (```x```)
    that a line renders counts once under the values; two Oracle lines that each reveal one add two."""
    def constants(tag: str, *lines: str) -> int:
        result, diags, _ = _oracle(tmp_path / tag, *lines)
        assert diags == []
        return result.coverage.counts["value"]["constant"]

    base = constants("none")
    assert constants("two", "Immediate Night: Reveal `x` to @Voters", "Immediate Night: Reveal `y` to @Self") == base + 2


def test_a_long_id_gets_a_cut_file_name_and_a_rerender_removes_only_its_own_stale_files(tmp_path: Path) -> None:
    """docs/werewolf.md (wwrf render): each element's rules go to ``rules/<id>.ini``; an id longer than 100
    bytes is cut to 83 and given ``-`` and 16 hex digits of a hash of the whole (100 bytes), while the
    section ids inside stay whole; an id of 100 bytes is kept. Rendering again writes only what changed and
    removes a rules file the book no longer makes (also one whose element's name fills more than 300
    characters of its first line), but never a rules file the renderer did not write."""
    import re

    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    name = "Keeper Of The " + "Very " * 60 + "Long Name"
    card_id = "keeper-of-the-" + "very-" * 60 + "long-name"
    for file, title in (("keeper", name), ("hundred", "Q" * 100)):
        (book / file).write_text(f"**{title}** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
                                 "Immediate Night: Reveal `x` to @Self\n", encoding="utf-8")
    game = tmp_path / "game"
    result = render_book(book, game)
    assert result.ok
    (rules,) = (game / "rules").glob("keeper*")
    assert re.fullmatch(re.escape(card_id[:83]) + "-[0-9a-f]{16}", rules.stem) and len(rules.stem) == 100
    assert f"\n[{card_id}--1]\n" in rules.read_text(encoding="utf-8")
    assert (game / "rules" / ("q" * 100 + ".ini")).exists() and (game / "rules" / "almanac-keeper.ini").exists()
    assert render_book(book, game).written == []  # nothing changed
    (book / "keeper").unlink()
    # hand-written: a comment that does not name the renderer on the first line, a first line that is no comment
    mine = {"mine.ini": "# my own rules\n[x]\naction = draw()\n# kept when I run wwrf render\n",
            "other.ini": "[y] ; not from wwrf render\naction = draw()\n"}
    for file, text in mine.items():
        (game / "rules" / file).write_text(text, encoding="utf-8")
    assert render_book(book, game).written == ["cards.yaml", f"rules/{rules.name}"]
    assert not rules.exists()
    assert {file: (game / "rules" / file).read_text(encoding="utf-8") for file in mine} == mine


def test_the_source_of_this_attribute_is_the_player_who_applied_it(tmp_path: Path) -> None:
    """docs/werewolf.md (Selectors and values): ``@ThisAttr`` is ``this``, the attribute's card, and an
    attribute's ``->Source`` is the player whose element applied it (``.source``): so in an attribute
    ``@ThisAttr->Source`` is ``this.source``, a player, as a target and as a set of players, each use
    counted once under its own name in the coverage report."""
    book = tmp_path / "book"
    shutil.copytree(GAME / "roles", book)
    (book / "marked").write_text("**Marked** | Attribute\n__Formalized__\n"
                                 "Immediate Night: Reveal `x` to @ThisAttr->Source\n"
                                 "Passive Start Day: Kill @ThisAttr->Source\n"
                                 # another property of the holder is the holder's; a player has no ->Source
                                 "Immediate Night: Kill @ThisAttr->Target\nImmediate Night: Kill @Self->Source\n",
                                 encoding="utf-8")
    result = render_book(book, tmp_path / "game")
    assert [(d.code, d.message) for d in result.diagnostics if Path(d.span.file).name == "marked"] == [
        ("WW401", "not supported by the werewolf renderer: the property chain '@Self->Source'")]
    marked = next(el for el in result.elements if el.card["id"] == "marked")
    assert [dict(sec.keys) for sec in marked.sections] == [
        {"timing": "immediate night", "action": "reveal('x', getTargets('players::keep(this.source)'))"},
        {"auto": "~startday~ kill() to(players::keep(this.source))"},
        {"timing": "immediate night", "action": "kill() to(players::keep(me.target))"}]
    assert result.coverage.counts["selector"]["@ThisAttr->Source"] == 2


def test_a_reveal_of_a_player_and_a_team_set_are_counted_under_their_own_names(tmp_path: Path) -> None:
    """docs/werewolf.md (coverage report, ``--report``): each construct a line renders counts once under its
    own name: a reveal of a player (``Reveal @Selection to @Self``, the text 'Player 3 is Seer') as "a
    player's role as a text", and the players of every team as "&All (players)", of a team found by keys
    (``&(…)``) as "&All / &(…) (their players)"."""
    def counts(tag: str, *lines: str) -> tuple[int, int, int]:
        result, diags, _ = _oracle(tmp_path / tag, *lines)
        assert diags == []
        c = result.coverage.counts
        return (c["value"]["a player's role as a text"], c["selector"]["&All (players)"],
                c["selector"]["&All / &(…) (their players)"])

    base = counts("none")
    assert counts("reveal", "Immediate Night: Reveal @Selection to @Self") == (base[0] + 1, base[1], base[2])
    assert counts("all", "Immediate Night: Kill &All->Members") == (base[0], base[1] + 1, base[2])
    assert counts("keys", "Immediate Night: Kill &(Attr:!Lupine)->Members") == (base[0], base[1], base[2] + 1)


def test_the_later_effects_of_a_branch_with_several_targets_are_statements_guarded_by_the_branch(tmp_path: Path) -> None:
    """docs/werewolf.md: a branch whose effects have several targets runs its first effect in place and
    remembers the branch (``remember(1)``); each later effect, with its own target clause or none (a text
    learned), is a statement of its own guarded by ``branch == 1``, in the written order."""
    book = _book(tmp_path, {"oracle": (
        "**Oracle** | Townsfolk Investigative\n__Formalized__\nImmediate Night: |oracle.visit|\n"
        "  • Process: Attribute Investigate @Selection for `Fang`\n  • Evaluate:\n    ‣ @Result is `Success`:\n"
        "      ◦ Apply `Hoarse` to @Self (~Phase)\n      ◦ Apply `Marked` to @Selection (~Persistent)\n"
        "      ◦ `You found it.`\n    ‣ Otherwise: `Nothing.`\n")}, roles=GAME.parent / "werewolf-forms" / "roles")
    result = render_book(book, tmp_path / "game")
    assert [d for d in result.diagnostics if Path(d.span.file).name == "oracle"] == []
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    assert [dict(sec.keys)["action"] for sec in oracle.sections] == [
        "investigateAttribute('fang') to(selection)\n"
        "; [[if result == 'Success']] apply('hoarse') phase to(me) & remember(1) [[else]] learn('Nothing.')\n"
        "; [[if branch == 1]] apply('marked') persistent to(selection)\n"
        "; [[if branch == 1]] learn('You found it.')"]


def test_a_scaling_by_a_comparison_names_the_player_count_it_compares(tmp_path: Path) -> None:
    """docs/werewolf.md (Scaling) and the WWRF guide (Dynamic Scaling: ``[$total|$living]<Comparison>
    <Number> ⇒ <Count>``): ``⟨$living≥8 ⇒ x1, 2⟩`` is ``scaling = living>=8 -> 1, 2`` and ``⟨$Total<3 ⇒
    x2⟩`` is ``total<3 -> 2``, the count on the left without its ``$``, in lower case.  Any other left
    side (``$Dead``, a counter) or a right side that is not a number is the renderer's WW401: the game
    counts only the living or all players, and once rendered such a line ran as a count of all players."""
    _, diags, keys = _oracle(tmp_path / "a", "Passive Start Day: Learn `a` ⟨$living≥8 ⇒ x1, 2⟩",
                             "Passive Start Day: Learn `b` ⟨$Total<3 ⇒ x2⟩")
    assert diags == []
    assert [k["scaling"] for k in keys] == ["living>=8 -> 1, 2", "total<3 -> 2"]
    assert _compile_errors(tmp_path / "a" / "game") == []
    for n, scaling in enumerate(("$Dead<3 ⇒ x2", "@Self->Counter≥3 ⇒ x1", "$living>@Self->Counter ⇒ x1")):
        _, diags, keys = _oracle(tmp_path / str(n), f"Passive Start Day: Learn `b` ⟨{scaling}⟩")
        left, _, _ = scaling.partition(" ⇒")
        assert diags == [("WW401", f"not supported by the werewolf renderer: the scaling comparison '{left.replace('>=', '≥')}' "
                                   "(only $total or $living against a number)")], scaling
        assert keys == []


def test_a_name_several_kinds_share_on_a_line_that_does_not_say_which_is_a_located_ww403(tmp_path: Path) -> None:
    """docs/werewolf.md (Ids): elements of different kinds may share a name (a group and a poll ``Den``);
    a line that names it where its kind is not given (``Remove `Den` from @Self``: an attribute's place)
    is a located ``error[WW403]`` naming the kinds, and the line is left out of the rules with an
    ``ERROR:`` comment, not reported as a form the renderer does not support (WW401)."""
    book = _book(tmp_path, {
        "den": "**Den** | Werewolf Team Group\n__Formalized__\nNo Abilities\n",
        "den poll": "**Den** | Poll\nAvailable Options: @All\n",
        "oracle": "**Oracle** | Townsfolk Investigative - Villagers Team\n__Formalized__\nImmediate Night: Remove `Den` from @Self\n"})
    result = render_book(book, tmp_path / "game", write=False)
    # the book's checker adds its own WW920 (no attribute 'Den'); the renderer's report is WW403, not WW401
    (d,) = [d for d in result.diagnostics if Path(d.span.file).name == "oracle" and d.code != "WW920"]
    assert (d.severity, d.code, d.span.line, d.span.col) == ("error", "WW403", 3, 25)
    assert d.message == ("'Den' names elements of several kinds (group, poll) and this line does not say which; "
                         "rename one of them")
    assert d.notes == ("the line is left out of the rendered rules",)
    oracle = next(el for el in result.elements if el.card["id"] == "oracle")
    assert oracle.sections == [] and oracle.unsupported[0] == (
        "ERROR: 'Den' names elements of several kinds (group, poll) and this line does not say which; "
        "rename one of them")
    assert "# ERROR: 'Den' names" in result.files["rules/oracle.ini"]
    assert "NOT SUPPORTED" not in result.files["rules/oracle.ini"]


def test_the_members_of_self_are_the_owners_team_in_a_role(tmp_path: Path) -> None:
    """docs/werewolf.md (Elements that stand for players): ``->Members`` of a team stands for its players;
    in a role, ``&Self`` is the owner's team, so ``Kill &Self->Members`` kills the living players of the
    owner's team (``playersOf(me.team)``), not the holders of the role itself (only ``@Self->Members``
    written in a group or team is that element's own members)."""
    _, diags, keys = _oracle(tmp_path, "Immediate Night: Kill &Self->Members")
    assert diags == []
    assert keys == [{"timing": "immediate night", "action": "kill() to(players[alive]::keep(playersOf(me.team)))"}]
    assert _compile_errors(tmp_path / "game") == []
