"""A real language client (pytest-lsp) talking to ``rulescript lsp`` over stdio, on copies of the
demo game and of the werewolf game (with its WWRF book in ``roles/``)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "rulescript", "lsp"],
                            server_env={**os.environ, "PYTHONPATH": str(ROOT)})


def copy_games(base: Path) -> Path:
    """A workspace holding a copy of the demo game and of the werewolf game."""
    shutil.copytree(ROOT / "cards" / "cfc-demo", base / "cfc-demo")
    shutil.copytree(ROOT / "cards" / "werewolf", base / "werewolf")
    return base


def uri(path: Path | str) -> str:
    from rulescript.lsp.workspace import path_to_uri

    return path_to_uri(path)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_games(tmp_path_factory.mktemp("games"))


async def initialize(client: LanguageClient, base: Path) -> None:
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=uri(base),
        workspace_folders=[types.WorkspaceFolder(uri=uri(base), name=base.name)]))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    await initialize(lsp_client, request.getfixturevalue("games"))
    yield
    await lsp_client.shutdown_session()


class Docs:
    """Open, change and wait for the diagnostics of documents through a client."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.versions: dict[str, int] = {}

    async def diagnostics(self, path: Path | str, timeout: float = 20.0) -> list[types.Diagnostic]:
        u = uri(path)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while u not in self.client.diagnostics:
            if loop.time() > end:
                raise AssertionError(f"no diagnostics for {path} within {timeout} s")
            await asyncio.sleep(0.01)
        return list(self.client.diagnostics[u])

    async def open(self, path: Path, text: str | None = None, wait: bool = True) -> list[types.Diagnostic]:
        u = uri(path)
        self.client.diagnostics.pop(u, None)
        body = text if text is not None else path.read_text(encoding="utf-8")
        self.versions[u] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=u, language_id="rulescript", version=1, text=body)))
        return await self.diagnostics(path) if wait else []

    async def change(self, path: Path, text: str, wait: bool = True) -> list[types.Diagnostic]:
        """Replace the whole buffer (unsaved) and wait for its diagnostics."""
        u = uri(path)
        self.client.diagnostics.pop(u, None)
        self.versions[u] = self.versions.get(u, 1) + 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=self.versions[u]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        return await self.diagnostics(path) if wait else []

    def close(self, path: Path) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path))))


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    """The position of ``needle`` (plus ``offset`` characters) in ``text`` (ASCII lines)."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return types.Position(line=line, character=i - (text.rfind("\n", 0, i) + 1))
