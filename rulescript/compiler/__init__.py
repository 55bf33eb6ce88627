"""The RuleScript compiler, one module per stage of the pipeline:

``ini``          reads a rule file: sections, keys, values with exact positions (configparser)
``lexer``        one tokenizer per lexical mode (statements, filters, expressions)
``parser``       the LALR grammar (``rulescript.lark``) and the exact fast paths for common shapes
``ast``          the typed AST the parser builds
``profile``      loads a game profile (the vocabulary the checks use)
``context``      per-file checking context: positions, diagnostics, the card database
``compile_expr``, ``compile_filter``, ``compile_rule``
                 check the AST against the profile and lower it to IR
``driver``       files and games: compile_text/compile_file/compile_game, the cache, results

Everything a caller needs is re-exported here from ``driver``.
"""
from __future__ import annotations

from rulescript.compiler.driver import (CompileCache, CompileResult, FileResult, _card_database,
                                        _cards_fingerprint, _cache_key, compile_file, compile_game,
                                        compile_source, compile_text, find_game_root, game_profile_name,
                                        load_cards, load_yaml_file, read_source, read_text, rule_files,
                                        source_name)

__all__ = ["CompileCache", "CompileResult", "FileResult", "compile_file", "compile_game", "compile_source",
           "compile_text", "find_game_root", "game_profile_name", "load_cards", "load_yaml_file",
           "read_source", "read_text", "rule_files", "source_name"]
