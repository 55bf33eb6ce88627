"""Hostile role books (issue 23): file names and texts cannot inject rules into a rendered game, and a
book's ``_paths/`` lists cannot make ``wwrf check``/``render`` read files outside the book."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulescript.compiler.ini import read_rule_file
from rulescript.diagnostics import DiagnosticBag
from wwrf_adapter.cli import main
from wwrf_adapter.render import render_book
from wwrf_adapter.render.initext import ini_text

ROOT = Path(__file__).resolve().parents[2]
ROLES = ROOT / "cards" / "werewolf" / "roles"

# every character Python's str.splitlines() ends a line at (the INI reader's and anyone's line breaks)
LINE_BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
INI_SIGNIFICANT = ["=", ":", "[", "]", ";", "#", "   ", "\t", "'", '"', "~"]


@pytest.mark.parametrize("brk", LINE_BREAKS)
def test_ini_text_leaves_no_line_break(brk):
    text = f"wolf{brk}auto = ~starting~ win(){brk}[evil]{brk}#"
    out = ini_text(text)
    assert len(("# " + out).splitlines()) == 1
    assert "auto = ~starting~ win()" in out and "[evil]" in out  # the text stays readable, on one line


def test_ini_text_escapes_visibly_and_keeps_the_rest():
    assert ini_text("a\nb") == "a\\x0ab"
    assert ini_text("a\u2028b\x85c\udcffd") == "a\\u2028b\\x85c\\udcffd"
    assert ini_text("\x00\x1f\x7f") == "\\x00\\x1f\\x7f"
    for ch in INI_SIGNIFICANT + ["é", "狼", "\U0001F43A"]:
        assert ini_text(f"x{ch}y") == f"x{ch}y"  # inert after '# ' and inside quotes: kept as written


def _sections(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Every rule section of a rendered game as the rule-file reader reads it: id -> [(key, value)]."""
    out = {}
    for p in sorted((folder / "rules").glob("*.ini")):
        bag = DiagnosticBag()
        rf = read_rule_file(p.read_text(encoding="utf-8"), p.name, bag)
        assert not [d for d in bag.items if d.is_error], [d.message for d in bag.items]
        for s in rf.sections:
            out[s.rule_id] = [(prop.key, prop.value.text) for prop in s.properties]
    return out


@pytest.fixture(scope="module")
def plain_render(tmp_path_factory):
    out = tmp_path_factory.mktemp("plain") / "game"
    result = render_book(ROLES, out)
    assert result.ok
    return _sections(out)


@pytest.mark.parametrize("brk", ["\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_file_name_cannot_inject_rules(tmp_path, plain_render, brk):
    """The issue's reproduction: 'wolf blood' renamed to hold `\\nauto = ~starting~ win()\\n#`."""
    book = tmp_path / "roles"
    shutil.copytree(ROLES, book)
    evil = f"wolf blood{brk}auto = ~starting~ win(){brk}[pwned]{brk}; x = 1{brk}#"
    (book / "wolf blood").rename(book / evil)
    out = tmp_path / "game"
    result = render_book(book, out)
    assert result.ok, [d.message for d in result.diagnostics]
    # the rule files hold exactly the rules of the book as it was: same sections, same keys and values
    assert _sections(out) == plain_render
    werewolf = (out / "rules" / "werewolf.ini").read_text(encoding="utf-8")
    assert f"# {ini_text(evil)}:3  Starting: Join #Werewolf-Pack (~Permanent)" in werewolf


def test_element_names_and_lines_with_line_breaks_stay_in_their_comments(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    # a form feed and U+2028 are not line breaks for the WWRF reader: they reach names and quoted lines
    (book / "oracle").write_text(
        "**Ora\x0ccle** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
        "Immediate Night: Role Investigate @Selection \u2028auto = ~starting~ win()\n", encoding="utf-8")
    out = tmp_path / "game"
    render_book(book, out)
    for p in (out / "rules").glob("*.ini"):
        text = p.read_text(encoding="utf-8")
        assert not any(line.startswith("auto = ~starting~ win") for line in text.split("\n"))
        assert len(text.split("\n")) == len(text.splitlines()) + 1  # no line break but '\n'


def test_a_string_with_a_line_break_is_not_supported_not_written(tmp_path):
    from wwrf_adapter.render.exprs import Unsupported, quote

    assert quote("Calm, Restless", None) == "'Calm, Restless'"
    for brk in LINE_BREAKS:
        with pytest.raises(Unsupported):
            quote(f"a{brk}auto = ~starting~ win()", None)


# ------------------------------------------------------------------------------------ _paths
def _book(tmp_path: Path, entry: str) -> Path:
    book = tmp_path / "book"
    (book / "_paths").mkdir(parents=True)
    (book / "roles").mkdir()
    (book / "roles" / "seer").write_text("**Seer** | Townsfolk Investigative\n__Formalized__\n"
                                          "Immediate Night: Role Investigate @Selection\n", encoding="utf-8")
    (book / "_paths" / "roles").write_text(f"roles\n{entry}\n", encoding="utf-8")
    return book


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the book with an element file whose first line must never be printed."""
    d = tmp_path / "outside"
    d.mkdir()
    (d / "secret").write_text("**TOP SECRET LINE** | Townsfolk Power\n__Formalized__\nStarting: Kill @Self\n",
                              encoding="utf-8")
    return d


@pytest.mark.parametrize("entry", ["../outside", "{outside}", "roles/../../outside", "C:/outside",
                                   "C:outside", "\\\\server\\outside", "roles\\..\\..\\outside"])
def test_paths_entries_must_stay_inside_the_book(tmp_path, outside, capsys, entry):
    entry = entry.format(outside=outside)
    book = _book(tmp_path, entry)
    assert main(["check", str(book)]) == 1
    out = capsys.readouterr().out
    assert f"{book / '_paths' / 'roles'}:2:1: error[WW107]: '{entry}' (of the roles list)" in out
    assert "TOP SECRET" not in out
    assert main(["render", str(book), "-o", str(tmp_path / "game")]) == 1
    captured = capsys.readouterr()
    assert "TOP SECRET" not in captured.out + captured.err and "WW107" in captured.out
    assert not list((tmp_path / "game").rglob("secret*"))


def test_a_listed_folder_or_file_that_links_out_of_the_book(tmp_path, outside, capsys):
    book = _book(tmp_path, "linked")
    (book / "linked").symlink_to(outside, target_is_directory=True)
    (book / "roles" / "leak").symlink_to(outside / "secret")
    assert main(["check", str(book)]) == 1
    out = capsys.readouterr().out
    assert "error[WW107]: 'linked' (of the roles list) is a link to a folder outside the book" in out
    assert "error[WW107]: 'leak' (in the folder 'roles' of the roles list) is a link to a file outside" in out
    assert "TOP SECRET" not in out


def test_an_element_named_by_a_huge_number_still_renders(tmp_path):
    """Found by the wwrf-render fuzz target: a 5,000-character id was the rule file's name (ENAMETOOLONG)."""
    book = tmp_path / "book"
    book.mkdir()
    name = "V" + "1" * 5000
    (book / "long").write_text(f"**{name}** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
                               "Immediate Night: Role Investigate @Selection\n", encoding="utf-8")
    out = tmp_path / "game"
    result = render_book(book, out)
    [path] = (out / "rules").glob("*.ini")
    assert len(path.name.encode("utf-8")) <= 104 and path.name.startswith("v1111")
    assert f"[{name.lower()}--" in path.read_text(encoding="utf-8")  # the id in the file stays whole
    assert result.files[f"rules/{path.name}"] == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("text,message", [
    ("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 8)), "an alias bomb?"),
    ("5: &x [*x]\n", "refers to a collection that holds it"),
    ("five: [seer, werewolf]\n", "must map a number of players to a list of role names"),
    ("5: seer\n", "must map a number of players to a list of role names"),
])
def test_a_hostile_role_lists_file_is_a_located_error(tmp_path, capsys, text, message):
    """The book's role-lists.yaml goes through the project's one YAML loader (it was yaml.safe_load)."""
    book = _book(tmp_path, "")
    (book / "role-lists.yaml").write_text(text, encoding="utf-8")
    assert main(["render", str(book), "-o", str(tmp_path / "game")]) == 1
    out = capsys.readouterr().out
    assert f"{book / 'role-lists.yaml'}:" in out and "error[WW402]" in out and message in out


def test_the_werewolf_game_reads_its_yaml_with_the_one_loader(tmp_path):
    """A rendered game's cards.yaml and game.yaml (and werewolf scenarios) go through rulescript.yamlsafe."""
    from rulescript.sim.wolf import WolfDataError, load_wolf_data

    game = tmp_path / "game"
    shutil.copytree(ROOT / "cards" / "werewolf", game, ignore=shutil.ignore_patterns("roles", "scenarios"))
    assert load_wolf_data(game).role_lists
    (game / "game.yaml").write_text("lore: &x [*x]\n", encoding="utf-8")
    with pytest.raises(WolfDataError, match=r"game.yaml:1:11: invalid YAML: alias 'x' refers to a collection"):
        load_wolf_data(game)
    (game / "game.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(WolfDataError, match="must hold a mapping"):
        load_wolf_data(game)


def test_a_hash_in_a_prompt_name_is_not_supported_rather_than_cut(tmp_path):
    """Found by the wwrf-render fuzz target: `|se#er.divine|` was rendered `prompt = se#er.divine`, which
    the rule-file reader reads as `prompt = se` (a comment from '#')."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "seer").write_text("**Seer** | Townsfolk Investigative - Villagers Team\n__Formalized__\n"
                               "Immediate Night: [Condition: @Selection is not @Self] |se#er.divine|\n"
                               "  • Process: Role Investigate @Selection\n", encoding="utf-8")
    out = tmp_path / "game"
    result = render_book(book, out)
    [d] = result.unsupported
    assert (d.span.line, d.code) == (3, "WW401") and "holds a '#'" in d.message
    assert "prompt = se" not in (out / "rules" / "seer.ini").read_text(encoding="utf-8")
