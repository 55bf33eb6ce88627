"""``rulescript lsp``: the language server, on stdio, wired with pygls.

This module holds the protocol side only: which request calls which feature module, the open
buffers, publishing diagnostics, and turning any failure into a log message (``window/logMessage``)
instead of a crash.  The features are in :mod:`~rulescript.lsp.checks` (diagnostics),
:mod:`~rulescript.lsp.hover`, :mod:`~rulescript.lsp.complete`, :mod:`~rulescript.lsp.navigate`,
:mod:`~rulescript.lsp.actions` and :mod:`~rulescript.lsp.outline`.
"""

from __future__ import annotations

import functools
import os
import traceback
from typing import Any, Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rulescript import cliutil
from rulescript.diagnostics import Diagnostic
from rulescript.lsp import actions, complete, hover, navigate, outline
from rulescript.lsp.bookindex import BookIndex
from rulescript.lsp.checks import Checker, not_text
from rulescript.lsp.gameindex import GameIndex
from rulescript.lsp.positions import lines_of, span_range
from rulescript.lsp.workspace import (LIVE_CHECK_BYTES, Buffers, FileInfo, describe, path_to_uri, read,
                                      uri_to_path)

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "note": types.DiagnosticSeverity.Information}
TRIGGERS = [":", ";", "=", "@", "~", "?", "[", "#", "`", "(", " "]


class State:
    """What the server remembers between requests."""

    def __init__(self, server: "RuleScriptServer") -> None:
        self.server = server
        self.checker = Checker()
        self.buffers = Buffers()
        self._games: dict[str, GameIndex] = {}
        self._books: dict[str, BookIndex] = {}
        self.shown: dict[str, list[Diagnostic]] = {}   # path → the diagnostics last published
        self.too_large: set[str] = set()
        self._kinds: dict[str, FileInfo | None] = {}

    def game(self, root: str) -> GameIndex:
        if root not in self._games:
            self._games[root] = GameIndex(root)
        return self._games[root]

    def book(self, root: str) -> BookIndex:
        if root not in self._books:
            self._books[root] = BookIndex(self.checker, root)
        return self._books[root]

    def profile_of(self, info: FileInfo) -> Any:
        if info.root is None:
            from rulescript.compiler.profile import load_profile

            return load_profile("cfc")
        return self.game(info.root).profile()

    def info(self, uri: str) -> tuple[FileInfo, str] | None:
        path = uri_to_path(uri)
        if path is None:
            return None
        text = self.buffers.get(path)
        if text is None:
            text = read(path)
        if text is None:
            return None
        found = describe(path, text)
        return (found, text) if found is not None else None

    # ------------------------------------------------------------------ diagnostics
    def refresh(self, path: str) -> None:
        """Check the buffer of ``path`` and what depends on it; publish what changed."""
        text = self.buffers.get(path)
        if text is None:
            return
        info = self.describe(path)
        if info is None:
            self.publish({path: []}, first=path)
            return
        bad = not_text(info, text)
        if bad is not None:
            self.publish(bad)
            return
        if len(text) > LIVE_CHECK_BYTES:
            if path not in self.too_large:
                self.too_large.add(path)
                self.server.log(types.MessageType.Warning,
                                f"{path} is larger than {LIVE_CHECK_BYTES // 1_000_000} MB: it is not checked as you "
                                "type (run rulescript check or wwrf check on it)")
            self.publish({path: []}, first=path)
            return
        self.too_large.discard(path)
        self.publish(self.check(info, text), first=path)
        for other in self.dependents(info):
            other_text = self.buffers.get(other)
            other_info = self.describe(other)
            if other_info is not None and not_text(other_info, other_text or "") is None:
                self.publish(self.check(other_info, other_text or ""))

    def check(self, info: FileInfo, text: str) -> dict[str, list[Diagnostic]]:
        if info.kind == "wwrf":
            return self.checker.wwrf(info.path, text, info.root or os.path.dirname(info.path))
        if info.kind == "scenario":
            return self.checker.scenario(info.path, text)
        if info.root is None:
            return self.checker.lone_rule_file(info.path)
        if info.kind == "cards":
            self.checker.forget_game_data(info.root)
        return self.checker.game(info.root, info.path)

    def describe(self, path: str) -> FileInfo | None:
        """What an open file is (a file with an extension keeps its kind while open; a WWRF element's
        header is read again, since the text decides whether it is one)."""
        text = self.buffers.get(path)
        if text is None:
            return None
        if os.path.splitext(path)[1]:
            if path not in self._kinds:
                self._kinds[path] = describe(path, text)
            return self._kinds[path]
        return describe(path, text)

    def dependents(self, info: FileInfo) -> list[str]:
        """Open files to check again after ``info`` changed: a game's scenarios after its cards.yaml,
        the other elements of a WWRF book after an element (an ability set they inherit, a group or
        a poll they name)."""
        out = []
        for other in self.buffers.open_paths():
            if other == info.path:
                continue
            o = self.describe(other)
            if o is None or o.root != info.root:
                continue
            if (info.kind == "cards" and o.kind == "scenario") or (info.kind == "wwrf" and o.kind == "wwrf"):
                out.append(other)
        return out

    def publish(self, found: dict[str, list[Diagnostic]], first: str | None = None) -> None:
        order = sorted(found, key=lambda p: p != first)
        for path in order:
            diags = found[path]
            if path != first and self.shown.get(path, []) == diags:
                continue
            self.shown[path] = list(diags)
            text = self.buffers.get(path)
            if text is None:
                text = read(path) or ""
            lines = lines_of(text)
            uri = path_to_uri(path)
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, diagnostics=[to_lsp(d, uri, lines) for d in diags]))


def to_lsp(d: Diagnostic, uri: str, lines: list[str]) -> types.Diagnostic:
    """The protocol's form of a diagnostic: same code, message, range and severity; the notes (such as
    "did you mean: ...") as related information, and in ``data`` for the quick fixes."""
    rng = span_range(d.span, lines)
    related = [types.DiagnosticRelatedInformation(location=types.Location(uri=uri, range=rng), message=n)
               for n in d.notes] or None
    return types.Diagnostic(range=rng, message=d.message, severity=SEVERITY.get(d.severity),
                            code=d.code, source="rulescript", related_information=related,
                            data={"notes": list(d.notes)})


class RuleScriptServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulescript-lsp", cliutil.version(),
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.state = State(self)

    def log(self, kind: types.MessageType, message: str) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 - the client went away: nothing more to say
            pass


def guarded(server: RuleScriptServer, what: str, default: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A handler that never fails: an exception is logged (window/logMessage) and ``default`` returned."""
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except RecursionError as exc:
                server.log(types.MessageType.Error, f"{what}: input too deeply nested ({exc})")
            except Exception as exc:  # noqa: BLE001 - a bug: logged, the server goes on
                tb = traceback.extract_tb(exc.__traceback__)[-1]
                server.log(types.MessageType.Error, f"{what} failed: {type(exc).__name__}: {exc} "
                           f"(at {os.path.basename(tb.filename)}:{tb.lineno}); this is a bug")
            return default
        return run
    return wrap


def build_server() -> RuleScriptServer:
    server = RuleScriptServer()
    state = server.state

    def doc_text(uri: str) -> str:
        return server.workspace.get_text_document(uri).source

    def sync(uri: str) -> None:
        path = uri_to_path(uri)
        if path is not None:
            state.buffers.set(path, doc_text(uri))
            state.refresh(path)

    @server.feature(types.INITIALIZED)
    @guarded(server, "initialized")
    def initialized(_params: types.InitializedParams) -> None:
        server.log(types.MessageType.Info, f"rulescript lsp {cliutil.version()} ready")

    for method in (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_SAVE):
        # open, change and save: the buffer is taken from pygls's copy and checked
        server.feature(method)(guarded(server, method)(lambda params: sync(params.text_document.uri)))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(server, "didClose")
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is not None:
            state.buffers.close(path)
            state._kinds.pop(path, None)
            state.too_large.discard(path)

    def with_file(what: str, default: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
        @guarded(server, what, default)
        def run(params: Any) -> Any:
            found = state.info(params.text_document.uri)
            if found is None:
                return default
            info, text = found
            if len(text) > LIVE_CHECK_BYTES * 8:
                return default
            return fn(info, text, params)
        return run

    server.feature(types.TEXT_DOCUMENT_HOVER)(with_file(
        "hover", None, lambda info, text, p: hover.hover(state, info, text, p.position)))
    server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGERS))(with_file(
        "completion", None,
        lambda info, text, p: types.CompletionList(is_incomplete=False,
                                                   items=complete.complete(state, info, text, p.position))))
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(with_file(
        "definition", None, lambda info, text, p: navigate.definition(state, info, text, p.position) or None))
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(with_file(
        "references", None, lambda info, text, p: navigate.references(
            state, info, text, p.position, p.context.include_declaration) or None))
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix]))(with_file(
            "codeAction", None, lambda info, text, p: actions.quick_fixes(
                p.text_document.uri, text, list(p.context.diagnostics)) or None))
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(with_file(
        "documentSymbol", None, lambda info, text, p: outline.symbols(info.kind, text) or None))

    def formatting(info: FileInfo, text: str, p: Any) -> list[types.TextEdit] | None:
        if info.kind != "wwrf":
            return None
        out = outline.format_wwrf(info.path, text, state.checker, info.root or os.path.dirname(info.path))
        if out is None:
            return None
        lines = lines_of(text)
        end = types.Position(len(lines) - 1, len(lines[-1].encode("utf-16-le")) // 2)
        return [types.TextEdit(range=types.Range(types.Position(0, 0), end), new_text=out)]

    server.feature(types.TEXT_DOCUMENT_FORMATTING)(with_file("formatting", None, formatting))
    return server
