"""Nothing in the compiler names a CFC concept: the vocabulary comes only from the profile file."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from rulescript.compiler.profile import load_profile, profile_from_text

ROOT = Path(__file__).resolve().parents[2]
COMPILER_MODULES = sorted(str(p.relative_to(ROOT / "rulescript")) for p in (ROOT / "rulescript" / "compiler").iterdir()
                          if p.suffix in (".py", ".lark")) + ["cli.py", "diagnostics.py"]
# Words of the RuleScript core (rulescript.md sections 1-3, 8) that a profile may also use.
CORE = {"action", "target", "auto", "label", "abilities", "requisite", "vars", "all", "any", "this", "me", "opp",
        "card", "player", "not", "to", "from", "if", "else", "elif", "may", "in", "and", "or", "true", "false",
        "none", "nil", "int", "str", "len", "abs", "min", "max", "sum", "round", "each", "word", "filter",
        "flag", "pos", "num", "model", "once", "mixed", "name", "type", "size",
        # core grammar terms (rulescript.md 3, 3.3, 4): filter block, subtypes from the card database,
        # +ability/-ability effects, pile and position argument kinds, the auto trigger
        "block", "subtype", "ability", "pile", "top", "bottom", "reveal", "trigger", "players"}


def cfc_vocabulary() -> set[str]:
    prof = load_profile("cfc")
    words: set[str] = set()
    for table in (prof.card_types, prof.type_keywords, prof.stats, prof.filter_words, prof.zones, prof.zone_prefixes,
                  prof.piles, prof.pile_prefixes, prof.abilities, prof.events, prof.hooks, prof.event_prefixes,
                  prof.event_suffixes, prof.restrictions, prof.game_rules, prof.names, prof.functions):
        words |= {str(w).lower() for w in table}
    words |= {c.lower() for c in prof.commands}
    words |= {a for t in prof.attributes.values() for a in t}
    words |= {v for c in prof.commands.values() for p in c.params for v in p.values}
    return {w for w in words if w not in CORE and len(w) > 1}


def string_literals(path: Path) -> set[str]:
    if path.suffix == ".lark":
        return {tok.strip('"').lower() for tok in path.read_text().split() if tok.startswith('"')}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value.lower())
    return found


def test_no_cfc_word_is_a_string_literal_in_the_compiler() -> None:
    vocab = cfc_vocabulary()
    assert {"damage", "ring", "ueot", "frozen", "bp"} <= vocab  # the check has teeth
    assert "compiler/parser.py" in COMPILER_MODULES and "compiler/rulescript.lark" in COMPILER_MODULES
    leaks = {}
    for name in COMPILER_MODULES:
        hits = string_literals(ROOT / "rulescript" / name) & vocab
        if hits:
            leaks[name] = sorted(hits)
    assert not leaks, f"CFC vocabulary hard-coded in the compiler: {leaks}"


def test_a_different_profile_changes_the_language(tmp_path) -> None:
    """Renaming a command in a copy of the profile makes the old spelling an error and the new one valid."""
    from rulescript.compiler import compile_text

    data = yaml.safe_load((ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text())
    data["commands"]["hurt"] = data["commands"].pop("damage")
    data["zones"]["arena2"] = data["zones"].pop("arena")
    data["default_zone"] = "arena2"
    text = data["card_text"]  # its card text names the entries too
    text["commands"]["hurt"] = text["commands"].pop("damage")
    text["zones"]["arena2"] = text["zones"].pop("arena")
    path = tmp_path / "other.yaml"
    path.write_text(yaml.safe_dump(data))
    other = profile_from_text(path.read_text(), str(path))
    ok = compile_text("[a]\naction = hurt(1) to(character@arena2)\n", profile=other, cache=None)
    assert ok.ok, ok.render()
    bad = compile_text("[a]\naction = damage(1)\n", profile=other, cache=None)
    assert [d.code for d in bad.errors] == ["RS201"]


def test_malformed_profile_is_a_located_diagnostic(tmp_path) -> None:
    from rulescript.compiler.profile import ProfileError

    text = (ROOT / "rulescript" / "games" / "cfc" / "profile.yaml").read_text().replace("{kind: num}]", "{kind: nmu}]", 1)
    try:
        profile_from_text(text, "broken.yaml")
    except ProfileError as exc:
        d = exc.diagnostics[0]
        assert d.code == "RP301" and "nmu" in d.message and d.span.file == "broken.yaml" and d.span.line > 1
    else:
        raise AssertionError("a malformed profile was accepted")
