"""Hover, completion, go to definition, references, quick fixes, outline and WWRF formatting, over
stdio with a real client, in copies of the demo game and of the werewolf book."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from lsprotocol import types

from tests.lsp.conftest import ROOT, Docs, position_of, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
TD = types.TextDocumentIdentifier


async def _hover(client, path, text, needle, offset=1) -> str | None:
    h = await client.text_document_hover_async(types.HoverParams(TD(uri(path)), position_of(text, needle, offset)))
    return None if h is None else h.contents.value


async def _complete(client, path, text, needle) -> list[str]:
    """Completion labels at the end of ``needle`` in ``text`` (the buffer is changed to ``text``)."""
    res = await client.text_document_completion_async(types.CompletionParams(
        TD(uri(path)), position_of(text, needle, len(needle))))
    items = res.items if isinstance(res, types.CompletionList) else (res or [])
    return [i.label for i in items]


# ------------------------------------------------------------------------------------------ hover
async def test_hover_on_profile_words(client, games):
    path = games / "cfc-demo" / "rules" / "powers.ini"
    text = path.read_text(encoding="utf-8")
    await Docs(client).open(path)
    assert (await _hover(client, path, text, "disableRule(")).startswith("**command** `disableRule(word)`")
    assert await _hover(client, path, text, "[powerful") == "**filter keyword** `powerful`\n\na card that currently has rules"
    assert (await _hover(client, path, text, "@arena")).startswith("**zone** `arena`\n\nboth rings")
    event = await _hover(client, path, text, "~myEndPhase~", 3)
    assert event.startswith("**event** `myEndphase`") and "the event player is the listener's controller" in event
    hook = await _hover(client, path, text, "?oppCanBlock?", 3)
    assert hook.startswith("**hook** `oppCanblock`") and "a block is declared" in hook
    assert (await _hover(client, path, text, "abilities = pierce", 14)).startswith("**ability** `pierce`")
    assert (await _hover(client, path, text, "oppueot")).startswith("**restriction** `oppueot`")


async def test_hover_on_a_card_id(client, games):
    path = games / "cfc-demo" / "rules" / "powers.ini"
    text = path.read_text(encoding="utf-8")
    value = await _hover(client, path, text, "[warlord-brakka]", 3)
    assert value == ("**Warlord Brakka** (`warlord-brakka`)\n\ncharacter · boss · bp 1200 · sp -3 · ability: kind "
                     "auto, name Tyrant's Toll\n\nYour opponent's Action cards cost 1 more SP.")
    scen = games / "cfc-demo" / "scenarios" / "powers.yaml"
    await Docs(client).open(scen)
    assert (await _hover(client, scen, scen.read_text(encoding="utf-8"), "ring: [warlord-brakka]", 9)).startswith(
        "**Warlord Brakka**")


async def test_hover_on_wwrf_names(client, games):
    roles = games / "werewolf" / "roles"
    path = roles / "den keeper"
    text = path.read_text(encoding="utf-8")
    await Docs(client).open(path)
    value = await _hover(client, path, text, "`Wolf Blood`", 2)
    assert value.startswith("**Wolf Blood** | Ability Set\n\n*ability set* (`wolf blood`)")
    hunt = roles / "pack hunt"
    htext = hunt.read_text(encoding="utf-8")
    await Docs(client).open(hunt)
    attr = await _hover(client, hunt, htext, "Attr:!Lupine", 7)
    assert attr.startswith("**Lupine** | Attribute\n\n*attribute* (`lupine`)\n\nThe werewolf nature")
    group = await _hover(client, hunt, htext, "Group:Werewolf-Pack", 8)
    assert group.startswith("**Werewolf Pack** | Werewolves Team Group\n\n*group*")
    lynch = roles / "lynch"
    ltext = lynch.read_text(encoding="utf-8")
    await Docs(client).open(lynch)
    assert (await _hover(client, lynch, ltext, "#village_square", 2)).startswith("**Village Square**")
    assert (await _hover(client, lynch, ltext, "**Lynch**", 3)).startswith("**Lynch** | Poll\n\n*poll*")
    recluse = roles / "recluse"
    rtext = recluse.read_text(encoding="utf-8")
    await Docs(client).open(recluse)
    villager = await _hover(client, recluse, rtext, "(Role:Villager)", 8)
    assert villager.startswith("**Villager** | Townsfolk") and "*role* (`villager`)" in villager


# ------------------------------------------------------------------------------------------ completion
async def test_completion_in_rule_files(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "rules" / "scratch.ini"
    text = ("[warlord-brakka]\nauto = ~myEnd~ dam\naction = {F}: dr\n"
            "target = character[pow]@oppR\nauto = ?oppCanB? sp(1)\n[warl")
    path.write_text("", encoding="utf-8")
    await docs.open(path, text, wait=False)
    assert "damage" in await _complete(client, path, text, "~myEnd~ dam")
    assert set(await _complete(client, path, text, "{F}: dr")) >= {"draw"}
    assert set(await _complete(client, path, text, "~myEnd")) >= {"myEndphase"}
    assert set(await _complete(client, path, text, "[pow")) == {"powerful", "powerless"}
    assert set(await _complete(client, path, text, "@oppR")) == {"oppRing", "oppRemoved"}
    assert set(await _complete(client, path, text, "?oppCanB")) == {"oppCanblock"}
    assert set(await _complete(client, path, text, "\n[warl")) == {"warlord-brakka"}
    docs.close(path)
    path.unlink()


async def test_completion_of_card_ids_in_scenarios(client, games):
    path = games / "cfc-demo" / "scenarios" / "powers.yaml"
    saved = path.read_text(encoding="utf-8")
    text = saved.replace("ring: [warlord-brakka]", "ring: [warlord-b", 1)
    docs = Docs(client)
    await docs.open(path, saved)  # on its own: with xdist, the test that opened it may run on another worker
    await docs.change(path, text, wait=False)
    assert await _complete(client, path, text, "ring: [warlord-b") == ["warlord-brakka"]
    await docs.change(path, saved)


async def test_completion_in_wwrf_elements(client, games):
    path = games / "werewolf" / "roles" / "bodyguard"
    base = path.read_text(encoding="utf-8")
    text = base + "Immediate Night: Prot\nImmediate Night: Kill @Sel\nOn Death: Disband #Werewolf-P\n" \
        "Passive: Apply `Lup\nImmediate Night: Kill @(Role:Se\nOn Deat\nInherit: `Wolf"
    await Docs(client).open(path, text, wait=False)
    assert set(await _complete(client, path, text, "Immediate Night: Prot")) == {"Protect"}
    assert set(await _complete(client, path, text, "Kill @Sel")) == {"Self", "Selection"}
    assert set(await _complete(client, path, text, "#Werewolf-P")) == {"Werewolf-Pack"}
    assert "Lupine" in await _complete(client, path, text, "Apply `Lup")
    assert set(await _complete(client, path, text, "(Role:Se")) == {"Seer"}
    assert set(await _complete(client, path, text, "\nOn Deat")) == {"On Death"}
    assert set(await _complete(client, path, text, "Inherit: `Wolf")) == {"Wolf Blood"}
    await Docs(client).change(path, base)


# ------------------------------------------------------------------------------------------ navigation
async def test_card_id_definition_and_references(client, games):
    rules = games / "cfc-demo" / "rules" / "powers.ini"
    cards = games / "cfc-demo" / "cards.yaml"
    rtext, ctext = rules.read_text(encoding="utf-8"), cards.read_text(encoding="utf-8")
    entry_line = ctext.splitlines().index("  - id: warlord-brakka")
    section_line = rtext.splitlines().index("[warlord-brakka]")
    got = await client.text_document_definition_async(types.DefinitionParams(
        TD(uri(rules)), position_of(rtext, "[warlord-brakka]", 2)))
    assert [(g.uri, g.range.start.line, g.range.start.character, g.range.end.character) for g in got] == \
        [(uri(cards), entry_line, 8, 22)]
    await Docs(client).open(cards)
    got = await client.text_document_definition_async(types.DefinitionParams(
        TD(uri(cards)), position_of(ctext, "id: warlord-brakka", 5)))
    assert [(g.uri, g.range.start.line, g.range.start.character) for g in got] == [(uri(rules), section_line, 1)]
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=TD(uri(rules)), position=position_of(rtext, "[warlord-brakka]", 2),
        context=types.ReferenceContext(include_declaration=True)))
    scen = games / "cfc-demo" / "scenarios"
    in_scenarios = sum(ln.count("warlord-brakka") for f in scen.glob("*.yaml")
                       for ln in f.read_text(encoding="utf-8").splitlines())
    where = [(r.uri, r.range.start.line) for r in refs]
    assert where[:2] == [(uri(cards), entry_line), (uri(rules), section_line)]
    assert len(where) == 2 + in_scenarios and in_scenarios >= 3
    assert all(u.startswith(uri(scen)) for u, _ in where[2:])


async def test_wwrf_definition_and_references(client, games):
    roles = games / "werewolf" / "roles"
    path = roles / "den keeper"
    text = path.read_text(encoding="utf-8")
    got = await client.text_document_definition_async(types.DefinitionParams(
        TD(uri(path)), position_of(text, "`Wolf Blood`", 3)))
    assert [(g.uri, g.range.start.line) for g in got] == [(uri(roles / "wolf blood"), 0)]
    hunt = roles / "pack hunt"
    htext = hunt.read_text(encoding="utf-8")
    for needle, target in (("Attr:!Lupine", "lupine"), ("Group:Werewolf-Pack", "werewolf pack")):
        got = await client.text_document_definition_async(types.DefinitionParams(
            TD(uri(hunt)), position_of(htext, needle, len(needle) - 2)))
        assert [(g.uri, g.range.start.line) for g in got] == [(uri(roles / target), 0)]
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=TD(uri(path)), position=position_of(text, "`Wolf Blood`", 3),
        context=types.ReferenceContext(include_declaration=True)))
    files = {r.uri for r in refs}
    expected = {uri(f) for f in roles.iterdir() if f.is_file() and "wolf blood" in
                f.read_text(encoding="utf-8").lower()}
    assert files == expected and uri(roles / "den keeper") in files
    assert (refs[0].uri, refs[0].range.start.line) == (uri(roles / "wolf blood"), 0)


# ------------------------------------------------------------------------------------------ actions, outline, fmt
async def test_quick_fixes_for_did_you_mean(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "rules" / "actions.ini"
    text = path.read_text(encoding="utf-8")
    bad = text.replace("draw(", "drwa(", 1)
    await docs.open(path)
    diags = await docs.change(path, bad)
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=TD(uri(path)), range=diags[0].range, context=types.CodeActionContext(diagnostics=diags)))
    assert [(a.title, a.kind) for a in got] == [("Replace 'drwa' with 'draw'", types.CodeActionKind.QuickFix)]
    edit = got[0].edit.changes[uri(path)][0]
    assert (edit.range, edit.new_text) == (diags[0].range, "draw")
    await docs.change(path, text)
    wpath = games / "werewolf" / "roles" / "bodyguard"
    wtext = wpath.read_text(encoding="utf-8")
    await docs.open(wpath)
    wdiags = await docs.change(wpath, wtext.replace("Protect @Selection", "Protec @Selection"))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=TD(uri(wpath)), range=wdiags[0].range, context=types.CodeActionContext(diagnostics=wdiags)))
    assert [a.edit.changes[uri(wpath)][0].new_text for a in got] == ["Protect"]
    await docs.change(wpath, wtext)
    spath = games / "cfc-demo" / "scenarios" / "powers.yaml"
    stext = spath.read_text(encoding="utf-8")
    sbad = stext.replace("- attack: cave-bear", "- attack: cave-beer", 1)
    await docs.open(spath)
    sdiags = await docs.change(spath, sbad)
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=TD(uri(spath)), range=sdiags[0].range, context=types.CodeActionContext(diagnostics=sdiags)))
    assert [a.title for a in got] == ["Replace 'cave-beer' with 'cave-bear'"]
    edit = got[0].edit.changes[uri(spath)][0]
    line = sbad.splitlines()[edit.range.start.line]
    assert line[edit.range.start.character:edit.range.end.character] == "cave-beer"
    await docs.change(spath, stext)


async def test_document_symbols(client, games):
    rules = games / "cfc-demo" / "rules" / "powers.ini"
    got = await client.text_document_document_symbol_async(types.DocumentSymbolParams(TD(uri(rules))))
    sections = [ln[1:-1] for ln in rules.read_text(encoding="utf-8").splitlines() if ln.startswith("[")]
    assert [s.name for s in got] == sections
    assert [c.name for c in got[0].children] == ["auto"]
    cards = games / "cfc-demo" / "cards.yaml"
    got = await client.text_document_document_symbol_async(types.DocumentSymbolParams(TD(uri(cards))))
    assert got[0].name == "shade-sparrow" and len(got) == cards.read_text(encoding="utf-8").count("\n  - id: ")
    role = games / "werewolf" / "roles" / "bodyguard"
    got = await client.text_document_document_symbol_async(types.DocumentSymbolParams(TD(uri(role))))
    assert [(s.name, [c.name for c in s.children]) for s in got] == [
        ("Bodyguard", ["Basics", "Details", "Simplified", "Formalized", "Card"])]


async def test_formatting_a_wwrf_element_is_wwrf_fmt(client, games, tmp_path):
    path = games / "werewolf" / "roles" / "lynch"
    text = path.read_text(encoding="utf-8")
    messy = text.replace("Available Options: @All", "Available Options:   @All").replace(
        "On Poll Closed: Lynch @Winner", "On Poll Closed:   Lynch   @Winner")
    docs = Docs(client)
    await docs.open(path)  # (not left open by another test: with xdist, a module's tests may run apart)
    await docs.change(path, messy)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=TD(uri(path)), options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    shutil.copytree(games / "werewolf" / "roles", tmp_path / "roles")
    (tmp_path / "roles" / "lynch").write_text(messy, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "wwrf_adapter.cli", "fmt", str(tmp_path / "roles" / "lynch")],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert out.returncode == 0 and "Available Options: @All" in out.stdout
    assert len(edits) == 1 and edits[0].new_text == out.stdout
    assert edits[0].range.start == types.Position(0, 0)
    assert edits[0].range.end.line == messy.count("\n")
    # an element with errors is not formatted (wwrf fmt refuses it too)
    await Docs(client).change(path, messy.replace("Lynch   @Winner", "Protec @Winner"))
    assert await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=TD(uri(path)), options=types.FormattingOptions(tab_size=4, insert_spaces=True))) is None
    await Docs(client).change(path, text)
