"""Bad input never crashes or hangs the server: a binary buffer, a 5 MB buffer, files outside any game,
a broken game.yaml, a workspace with no game.  The server answers with diagnostics or nothing, and
says what it skipped through window/logMessage."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, Docs, initialize, position_of, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
TD = types.TextDocumentIdentifier


def _no_bug_logged(client) -> None:
    assert not [m.message for m in client.log_messages if m.type == types.MessageType.Error]


async def _hover(client, path, pos):
    return await client.text_document_hover_async(types.HoverParams(text_document=TD(uri(path)), position=pos))


async def test_a_binary_buffer_is_the_not_text_diagnostic(client, games):
    path = games / "cfc-demo" / "rules" / "powers.ini"
    docs = Docs(client)
    await docs.open(path)
    diags = await docs.change(path, "[warlord-brakka]\nauto = \x00\x01\x02")
    assert [(d.code, d.message, d.range.start.line, d.range.start.character) for d in diags] == [
        ("RD103", "not a text file (it holds NUL bytes)", 1, 7)]
    assert await _hover(client, path, types.Position(1, 8)) is None
    assert await docs.change(path, path.read_text(encoding="utf-8")) == []
    _no_bug_logged(client)


async def test_a_5_mb_buffer_is_not_checked_as_typed_and_the_server_stays_responsive(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "rules" / "huge.ini"
    section = "[warlord-brakka]\naction = {F}: damage(300) to(opp)\n"
    text = section * (5_000_000 // len(section) + 1)
    assert len(text) > 5_000_000
    assert await docs.open(path, text) == []
    assert any("huge.ini is larger than 1 MB" in m.message and m.type == types.MessageType.Warning
               for m in client.log_messages)
    h = await _hover(client, path, position_of(section, "damage", 2))
    assert h.contents.value.startswith("**command** `damage(")
    # the other files of the game are still checked against the file on disk (there is none)
    other = games / "cfc-demo" / "rules" / "powers.ini"
    assert await docs.change(other, other.read_text(encoding="utf-8")) == []
    docs.close(path)
    _no_bug_logged(client)


async def test_files_outside_any_game(client, tmp_path):
    docs = Docs(client)
    notes = tmp_path / "notes.txt"
    notes.write_text("nothing to see\n", encoding="utf-8")
    assert await docs.open(notes) == []
    assert await _hover(client, notes, types.Position(0, 2)) is None
    lone = tmp_path / "lone.ini"
    lone.write_text("[some-card]\naction = drwa()\n", encoding="utf-8")
    diags = await docs.open(lone)
    assert [(d.code, d.message) for d in diags] == [("RS201", "unknown command 'drwa'")]
    _no_bug_logged(client)


async def test_a_broken_game_yaml_leaves_hover_and_completion_quiet(client, games):
    docs = Docs(client)
    game = games / "cfc-demo" / "game.yaml"
    rules = games / "cfc-demo" / "rules" / "powers.ini"
    text = game.read_text(encoding="utf-8")
    await docs.open(game)
    diags = await docs.change(game, "- just\n- a list\n")
    assert [(d.code, d.message) for d in diags] == [("RD102", "game.yaml must be a mapping (profile: NAME, name: ...)")]
    rtext = rules.read_text(encoding="utf-8")
    assert await _hover(client, rules, position_of(rtext, "disableRule", 2)) is None
    res = await client.text_document_completion_async(types.CompletionParams(
        text_document=TD(uri(rules)), position=position_of(rtext, "{F}: ", 5)))
    assert res is None or not res.items
    assert await docs.change(game, text) == []
    _no_bug_logged(client)


@pytest_lsp.fixture(config=SERVER, scope="module")
async def empty_client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    await initialize(lsp_client, tmp_path_factory.mktemp("empty"))
    yield
    await lsp_client.shutdown_session()


async def test_a_workspace_with_no_game(empty_client, tmp_path):
    docs = Docs(empty_client)
    readme = tmp_path / "README"
    readme.write_text("just some words\nand more\n", encoding="utf-8")
    assert await docs.open(readme) == []
    assert await _hover(empty_client, readme, types.Position(0, 3)) is None
    got = await empty_client.text_document_document_symbol_async(types.DocumentSymbolParams(TD(uri(readme))))
    assert got is None
    _no_bug_logged(empty_client)
