"""The forms book (cards/werewolf-forms): roles of our own that use every form of the public Werewolves
Revamped book the renderer once left out, each in each position (issue 21). The book renders whole (no
WW401, no error), its game folder is up to date, every scenario passes, and the meanings the guides
give (the team of a role's class, `- <Name> Team`, disguise levels, a choice asked at once, ids
distinct per kind) hold; the renderer itself never crashes on a whole book."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from rulescript.sim.scenario import run_file, scenario_files
from wwrf_adapter.cli import main as wwrf_main
from wwrf_adapter.render import render_book

ROOT = Path(__file__).resolve().parents[2]
FORMS = ROOT / "cards" / "werewolf-forms"
BOOKS = [ROOT / "cards" / "werewolf" / "roles", FORMS / "roles"]
SCENARIOS = scenario_files(FORMS)


def test_the_forms_book_renders_whole_and_its_game_folder_is_up_to_date():
    result = render_book(FORMS / "roles", FORMS, write=False)
    assert [d.render() for d in result.diagnostics if d.is_error] == []
    assert result.unsupported == []
    for rel, text in result.files.items():
        assert (FORMS / rel).read_text(encoding="utf-8") == text, f"{rel} is stale: wwrf render it again"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_of_the_forms_book(path):
    results = run_file(path)
    assert results
    bad = [f"{r.name}: {r.failures}" for r in results if r.status == "fail"]
    assert not bad, "\n".join(bad)


def test_every_role_of_the_forms_book_plays_in_a_scenario():
    cards = yaml.safe_load((FORMS / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    roles = {c["id"] for c in cards if c["type"] == "role"}
    dealt = set()
    for f in SCENARIOS:
        dealt.update(yaml.safe_load(f.read_text(encoding="utf-8")).get("roles", []))
    assert roles <= dealt, roles - dealt


def test_the_report_lists_the_coverage_of_the_new_forms(capsys, tmp_path):
    assert wwrf_main(["render", str(FORMS / "roles"), "-o", str(tmp_path / "game"), "--report"]) == 0
    out = capsys.readouterr().out
    for form in ("poll option:", "abstain", "random", "a word (Yes, No …)", "nested Evaluate in a branch",
                 "several targets in one branch", "For Each team", "&Team (its players)", "->Members",
                 "@ThisAttr (the holder)", "element name:", "@Selection (a selected value)",
                 "Win Condition (empty)", "Haunting", "haunted", "ghostly", "include",
                 "role team (of its class)", "role team (header)", "announcement/reveal (to players)",
                 "whispering (to a role's or attribute's holders)", "choices/creation (asked at once)"):
        assert form in out, form


# ---------------------------------------------------------------- the two crashes


def _book(tmp_path: Path, files: dict[str, str]) -> Path:
    book = tmp_path / "book"
    book.mkdir()
    base = {
        "townsfolk": "**Townsfolk**\n__Formalized__\nWin Condition: @(Attr:!Fang)\n",
        "werewolf": "**Werewolf**\n__Formalized__\nWin Condition: @(Align:Werewolf)\n",
        "fang": "**Fang** | Attribute\n__Formalized__\nNo Abilities\n",
        "farmer": "**Farmer** | Townsfolk Miscellaneous\n__Formalized__\nNo Abilities\n",
    }
    for name, text in {**base, **files}.items():
        (book / name).write_text(text, encoding="utf-8")
    return book


def _render(book: Path, out: Path):
    result = render_book(book, out)
    return result, {rel: text for rel, text in result.files.items()}


def test_a_target_set_from_an_attribute_source_or_a_role_is_read_back_without_recursion(tmp_path):
    book = _book(tmp_path, {
        "oath": "**Oath** | Attribute\n__Formalized__\n"
                "Starting: Target @ThisAttr->Source (Player)\n"
                "Passive Start Day: Learn `Sworn to @Target`\n"
                "Passive End Day: Kill @Target->Players [Condition: @Target->Players exists]\n",
        "oracle": "**Oracle** | Townsfolk Investigative\n__Formalized__\n"
                  "Immediate Night: |oracle.name|\n"
                  "  • Process: Target @Selection (Role)\n"
                  "  • Evaluate:\n"
                  "    ‣ @Target->Players exists: `Someone is @Target.`\n"
                  "Passive Start Day: Kill @Target->Players->RandomPlayer\n",
    })
    result, files = _render(book, tmp_path / "game")
    assert [d.render() for d in result.diagnostics if d.is_error] == []
    oath = files["rules/oath.ini"]
    assert "auto = ~starting~ setTarget() to(players::keep(this.source))" in oath
    # @Target->Players: the players the target stands for (a player itself, a role its holders)
    assert "kill() to(players::keep(playersOf(targeted)))" in oath
    assert "[[if len(getTargets('players::keep(playersOf(targeted))')) > 0]]" in oath
    oracle = files["rules/oracle.ini"]
    assert "kill() to(players::keep(randomPlayer(playersOf(targeted))))" in oracle


def test_for_each_with_a_condition_in_starting_and_in_process_renders(tmp_path):
    book = _book(tmp_path, {
        "beacon": "**Beacon** | Townsfolk Miscellaneous\n__Formalized__\n"
                  "Starting:\n"
                  "  • For Each @All: @Ind has `Fang`: Learn `@Ind howls.`\n"
                  "Passive Start Day:\n"
                  "  • Process:\n"
                  "    ‣ For Each @All: @Ind is not @Self: Apply `Fang` to @Ind (~Permanent)\n",
    })
    result, files = _render(book, tmp_path / "game")
    assert [d.render() for d in result.diagnostics if d.is_error] == []
    beacon = files["rules/beacon.ini"]
    assert "each(players[alive] => check(has(ind, 'fang')) && learn(str(ind) + ' howls.'))" in beacon
    # ~Permanent is the commands' default: a chain inside each() takes no restriction
    assert "each(players[alive] => check(ind != me) && apply('fang'))" in beacon


# ---------------------------------------------------------------- meanings


def test_a_role_without_a_team_is_of_its_class_team_and_a_solo_team_is_named_with_team(tmp_path):
    book = _book(tmp_path, {
        "bard team": "**Bard Team**\n__Formalized__\nWin Condition: @Self\n",
        "bard": "**Bard** | Solo Miscellaneous - Bard Team\n__Formalized__\nNo Abilities\n",
        "jester": "**Jester** | Solo Miscellaneous - Jester Team\n__Formalized__\nNo Abilities\n",
        "howler": "**Howler** | Werewolf Killing\n__Formalized__\nRole Attribute: `Fang`\n",
        "stray": "**Stray** | Unaligned Miscellaneous\n__Formalized__\nNo Abilities\n",
        "hermit": "**Hermit** | Solo Miscellaneous\n__Formalized__\nNo Abilities\n",
    })
    result, files = _render(book, tmp_path / "game")
    cards = {c["id"]: c for c in yaml.safe_load(files["cards.yaml"])["cards"]}
    assert cards["farmer"]["team"] == "townsfolk" and cards["howler"]["team"] == "werewolf"
    assert cards["bard"]["team"] == "bard-team"
    assert "team" not in cards["stray"] and "team" not in cards["jester"]
    errors = sorted((Path(d.span.file).name, d.span.line, d.code, d.message) for d in result.diagnostics if d.is_error)
    assert errors == [
        ("hermit", 1, "WW402", "a Solo role names its team in its header ('- <Name> Team')"),
        ("jester", 1, "WW402", "the role's team 'Jester Team' is not a team of the book (teams: bard-team, "
                               "townsfolk, werewolf)"),
    ]


def test_a_poll_and_a_group_of_one_name_get_ids_of_their_own(tmp_path):
    book = _book(tmp_path, {
        "den": "**Den** | Werewolf Team Group\n__Formalized__\n"
               "Passive Start Night: Create `Den` Poll in #Den\nOn Poll Closed: Attack @Winner\n",
        "den poll": "**Den** | Poll\nAvailable Options: @(Attr:!Fang)\nAllowed Voters: @(Group:Den)\n",
    })
    result, files = _render(book, tmp_path / "game")
    assert [d.render() for d in result.diagnostics if d.is_error] == []
    cards = {c["id"]: c for c in yaml.safe_load(files["cards.yaml"])["cards"]}
    assert (cards["den"]["type"], cards["den-poll"]["type"]) == ("group", "poll")
    assert cards["den"]["rules"] == ["den--1", "den--2"] and cards["den-poll"]["rules"] == ["den-poll--poll"]
    assert "createPoll('den-poll', 'den')" in files["rules/den.ini"]
    assert "voters = players[alive]::group('den')" in files["rules/den-poll.ini"]


def test_an_id_that_still_collides_is_a_located_error(tmp_path):
    book = _book(tmp_path, {
        "den": "**Den** | Werewolf Team Group\n__Formalized__\nNo Abilities\n",
        "den poll": "**Den** | Poll\nAvailable Options: @All\n",
        "den poll attr": "**Den Poll** | Attribute\n__Formalized__\nNo Abilities\n",
    })
    result, _ = _render(book, tmp_path / "game")
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert (Path(d.span.file).name, d.span.line, d.code) == ("den poll", 1, "WW404")
    assert result.written is None and not (tmp_path / "game").exists()  # one rules file would replace the other
    assert d.message == "the poll 'Den' shares its name with the group 'Den', and its own id 'den-poll' is taken too: rename it"


# ---------------------------------------------------------------- what wwrf render says it wrote


def test_render_says_what_it_wrote_or_why_nothing(tmp_path, capsys):
    book = _book(tmp_path, {})
    out = tmp_path / "game"
    assert wwrf_main(["render", str(book), "-o", str(out)]) == 0
    # game.yaml, cards.yaml and the rules of the two teams (the attribute and the role have none)
    assert f"written to {out} (4 file(s) changed)" in capsys.readouterr().err
    assert wwrf_main(["render", str(book), "-o", str(out)]) == 0
    assert f"{out} is up to date (nothing changed)" in capsys.readouterr().err
    (book / "broken").write_text("**Broken** | Townsfolk Miscellaneous\n__Formalized__\nImmediate Night: Frobnicate @All\n",
                                 encoding="utf-8")
    assert wwrf_main(["render", str(book), "-o", str(tmp_path / "other")]) == 1
    err = capsys.readouterr().err
    assert f"nothing written to {tmp_path / 'other'}: 1 error(s) that would make the rules wrong" in err
    assert not (tmp_path / "other").exists()


# ---------------------------------------------------------------- the renderer never crashes on a book


def _trigger_lines(book: Path) -> list[str]:
    lines = []
    for f in sorted(p for p in book.rglob("*") if p.is_file() and "." not in p.name):
        block: list[str] = []
        for ln in f.read_text(encoding="utf-8").splitlines():
            if ln.startswith((" ", "\t")) and block:
                block.append(ln)
                continue
            if block:
                lines.append("\n".join(block))
            block = [ln] if ":" in ln and not ln.startswith(("**", "__")) else []
        if block:
            lines.append("\n".join(block))
    return lines


@pytest.mark.parametrize("seed", range(6))
def test_whole_books_with_lines_moved_between_elements_render_without_a_crash(tmp_path, seed):
    """Both bundled books, with lines of any element moved into elements of other kinds (a poll's line
    in an attribute, a role's in a team): `wwrf render` never raises, every diagnostic is located, and
    every element renders."""
    rng = random.Random(seed)
    pool = [ln for b in BOOKS for ln in _trigger_lines(b)]
    book = tmp_path / "book"
    for src in BOOKS:
        for f in sorted(p for p in src.rglob("*") if p.is_file()):
            dest = book / src.parent.name / f.relative_to(src)
            dest.parent.mkdir(parents=True, exist_ok=True)
            text = f.read_text(encoding="utf-8")
            if "." not in f.name and "__Formalized__" in text or f.read_text(encoding="utf-8").count("\n") < 8:
                text = text.rstrip("\n") + "\n" + "\n".join(rng.sample(pool, 3)) + "\n"
            dest.write_text(text, encoding="utf-8")
    result = render_book(book, None, write=False)
    assert result.elements
    for d in result.diagnostics:
        assert d.span.line >= 1 and d.span.col >= 1, d.render()
        assert "internal error" not in d.message, d.render()


def test_an_unexpected_exception_of_the_renderer_becomes_a_located_not_supported_report():
    from rulescript.diagnostics import Span
    from wwrf_adapter.render.book import _internal

    span = Span("roles/oracle", 4, 1)
    exc = _internal(RecursionError("maximum recursion depth exceeded"), span)
    assert (exc.code, exc.span) == ("WW401", span)
    assert exc.message == "internal error of the renderer on this line (endless recursion); please report it"
    exc = _internal(KeyError("role"), span)
    assert exc.message == "internal error of the renderer on this line (KeyError: 'role'); please report it"


def test_a_nested_evaluate_without_otherwise_still_takes_its_outer_branch(tmp_path):
    """`A: (C: X)` then `Otherwise: Y`: when A holds and C does not, nothing runs (the outer branch was
    taken), so Y must not run: the flattened chain keeps `A` as a branch that does nothing."""
    book = _book(tmp_path, {
        "bard": "**Bard** | Townsfolk Miscellaneous\n__Formalized__\n"
                "Immediate Night: [Condition: @Selection is not @Self] |bard.sing|\n"
                "  • Process: Attribute Investigate @Selection for `Fang`\n"
                "  • Evaluate:\n"
                "    ‣ @Result is `Success`:\n"
                "      ◦ @Selection has `Fang`: `Again a fang.`\n"
                "    ‣ Otherwise: Apply `Fang` to @Selection (~Phase)\n",
    })
    result, files = _render(book, tmp_path / "game")
    assert [d.render() for d in result.diagnostics if d.is_error] == []
    assert ("[[if (result == 'Success') and (has(selection, 'fang'))]] learn('Again a fang.') "
            "[[elif result == 'Success']] check(false) [[else]] apply('fang') phase to(selection)") in files["rules/bard.ini"]
