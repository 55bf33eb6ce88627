from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Docs, uri, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_smoke(client, games):
    docs = Docs(client)
    path = games / "cfc-demo" / "rules" / "powers.ini"
    text = path.read_text()
    diags = await docs.open(path)
    print(diags)
    bad = text.replace("modCost(action, -1)", "modCst(action, -1)", 1)
    diags = await docs.change(path, bad)
    print(diags)
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri(path)), position=position_of(bad, "disableRule", 2)))
    print(h)
    print(client.log_messages)
    assert 0
