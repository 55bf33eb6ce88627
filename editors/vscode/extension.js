// The RuleScript extension: starts `rulescript lsp` (the language server of rulescript-bridge) for
// RuleScript rule files, cards.yaml, game.yaml, scenario files and WWRF element files.
// Syntax highlighting comes from the TextMate grammars in syntaxes/ and needs no server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rulescript").get("server.command") || ["rulescript", "lsp"];
  const server = { command: command[0], args: command.slice(1), transport: TransportKind.stdio };
  client = new LanguageClient("rulescript", "RuleScript", server, {
    documentSelector: [
      { scheme: "file", language: "rulescript" },
      { scheme: "file", language: "wwrf" },
      { scheme: "file", pattern: "**/cards.yaml" },
      { scheme: "file", pattern: "**/game.yaml" },
      { scheme: "file", pattern: "**/scenarios/**/*.{yaml,yml}" },
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
