"""The words a game's profile gives RuleScript, as hover texts and completion items.

The texts are the profile's own (signature and description of a command, the description of a
filter keyword, zone, event, hook, ability, restriction, ...): what ``rulescript docs PROFILE``
prints in its tables (:mod:`rulescript.docgen`), one entry at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulescript.compiler.profile import Profile
from rulescript.docgen import DEFAULT_WORDS, _doc, command_notes


@dataclass(frozen=True)
class Entry:
    word: str        # as written in a rule
    kind: str        # command, filter keyword, zone, event, hook, ability, restriction, ...
    detail: str      # the signature, or the word
    doc: str

    def markdown(self) -> str:
        return f"**{self.kind}** `{self.detail}`\n\n{self.doc}".rstrip()


def _camel(prefix: str, word: str) -> str:
    return prefix + word[:1].upper() + word[1:] if prefix else word


class Vocabulary:
    """Every entry of a profile, by kind and by lower-case word."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        p = profile
        self.commands = [self._command(c) for _, c in sorted(p.commands.items())]
        self.filters = ([Entry(k, "type keyword", k, _doc(v)) for k, v in p.type_keywords.items()]
                        + [Entry(k, "card type", k, str(v)) for k, v in p.card_types.items()]
                        + [Entry(k, "filter keyword", k, str(v)) for k, v in p.filter_words.items()]
                        + [Entry(k, "stat", k, _doc(v)) for k, v in p.stats.items()])
        self.zones = [Entry(k, "zone", k, _doc(v)) for k, v in p.zones.items()]
        for word, (zone, prefix) in p.zone_words.items():
            if prefix:
                spelled = _camel(prefix, zone)
                self.zones.append(Entry(spelled, "zone", spelled,
                                        f"{_doc(p.zones.get(zone))} ({prefix}: {p.zone_prefixes.get(prefix, '')})"))
        self.events = [Entry(k, "event", k, _doc(v)) for k, v in p.events.items()]
        for word, (event, prefix) in p.event_words.items():
            if prefix and event in p.events:
                spelled = _camel(prefix, event)
                self.events.append(Entry(spelled, "event", spelled,
                                         f"{_doc(p.events.get(event))} ({prefix}: {p.event_prefixes.get(prefix, '')})"))
        self.hooks = [Entry(k, "hook", k, _doc(v)) for k, v in p.hooks.items()]
        self.hooks += [Entry(_camel(prefix, k), "hook", _camel(prefix, k),
                             f"{_doc(v)} ({prefix}: {text})")
                       for k, v in p.hooks.items() for prefix, text in p.event_prefixes.items()]
        self.others = ([Entry(k, "ability", k, _doc(v) + (f" (holder: {v.get('holder')})"
                                                            if isinstance(v, dict) and v.get("holder") else ""))
                          for k, v in p.abilities.items()]
                       + [Entry(k, "restriction", k, _doc(v)) for k, v in p.restrictions.items()]
                       + [Entry(k, "game rule", k, _doc(v)) for k, v in p.game_rules.items()]
                       + [Entry(k, "rule key", k, _doc(v)) for k, v in p.rule_keys.items()]
                       + [Entry(p.spelling(p.functions, k), "function", p.spelling(p.functions, k), _doc(v))
                          for k, v in p.functions.items()]
                       + [Entry(p.spelling(p.names, k), "name", p.spelling(p.names, k), _doc(v))
                          for k, v in p.names.items()])
        self.by_word: dict[str, list[Entry]] = {}
        for entry in self.commands + self.filters + self.zones + self.events + self.hooks + self.others:
            bucket = self.by_word.setdefault(entry.word.lower(), [])
            if entry not in bucket:
                bucket.append(entry)

    @staticmethod
    def _command(c: Any) -> Entry:
        notes = command_notes(c)
        default = DEFAULT_WORDS.get(c.default, c.default)
        doc = c.doc + (f"\n\nDefault: {default}" if default else "") + (f"; {', '.join(notes)}" if notes else "")
        return Entry(c.name, "command", c.signature, doc)

    def hover(self, word: str) -> str | None:
        entries = self.by_word.get(word.lower())
        if not entries:
            return None
        return "\n\n---\n\n".join(e.markdown() for e in entries)


_MEMO: dict[int, tuple[Profile, Vocabulary]] = {}


def vocabulary(profile: Profile) -> Vocabulary:
    """The vocabulary of a profile (built once per loaded profile)."""
    memo = _MEMO.get(id(profile))
    if memo is not None and memo[0] is profile:
        return memo[1]
    vocab = Vocabulary(profile)
    if len(_MEMO) > 16:
        _MEMO.clear()
    _MEMO[id(profile)] = (profile, vocab)
    return vocab
