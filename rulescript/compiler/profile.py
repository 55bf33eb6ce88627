"""Game profiles: the vocabulary the game-agnostic compiler checks rules against.

A profile is a YAML file (``rulescript/games/<name>/profile.yaml`` or any path).  :func:`load_profile`
validates its shape (a malformed profile is reported as diagnostics with file, line and column, like
any other input) and builds lower-case lookup tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from rulescript.diagnostics import Diagnostic, Span

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
PARAM_KINDS = frozenset({"int", "num", "bpval", "spval", "costval", "card", "model", "pile", "pos", "flag",
                         "word", "count_or_filter", "filter", "each", "text", "value"})
RULE_KEY_KINDS = ("word", "words", "int", "text", "filter", "expr")
DEFAULTS = frozenset({"card", "player", "none", "player_if_args"})


class ProfileError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(d.render() for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass(frozen=True, slots=True)
class Param:
    kind: str
    optional: bool = False
    values: tuple[str, ...] = ()
    toggle: bool = False
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str  # canonical spelling, as in the profile
    params: tuple[Param, ...]
    default: str
    doc: str
    lasting: bool = False
    fails: bool = False
    sets: str | None = None
    only_in_events: tuple[str, ...] = ()
    # derived from params: how many parameters are not optional, and whether the argument text is not
    # split at commas (one filter-like parameter) or its extra commas belong to a last filter parameter
    required: int = field(init=False, default=0, repr=False, compare=False)
    whole_text: bool = field(init=False, default=False, repr=False, compare=False)
    greedy_tail: bool = field(init=False, default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        params = self.params
        object.__setattr__(self, "required", sum(1 for p in params if not p.optional))
        object.__setattr__(self, "whole_text",
                           len(params) == 1 and params[0].kind in ("filter", "each", "count_or_filter"))
        object.__setattr__(self, "greedy_tail", bool(params) and params[-1].kind in ("filter", "each"))

    @property
    def signature(self) -> str:
        parts = []
        for p in self.params:
            text = f"word({', '.join(p.values)})" if p.kind == "word" and len(p.values) <= 8 else p.kind
            if p.kind == "word" and len(p.values) > 8:
                text = "word"
            parts.append(f"[{text}]" if p.optional else text)
        return f"{self.name}({', '.join(parts)})"


@dataclass(slots=True)
class Profile:
    name: str
    title: str
    version: int
    path: str
    raw: dict[str, Any]
    card_types: dict[str, str]
    subtype_of: str | None
    type_keywords: dict[str, dict[str, Any]]
    stats: dict[str, dict[str, Any]]
    extremes: tuple[str, ...]
    filter_words: dict[str, str]
    zones: dict[str, dict[str, Any]]
    default_zone: str
    zone_prefixes: dict[str, str]
    default_zone_prefix: str
    default_pile_prefix: str
    default_event_prefix: str
    prefix_only_for: dict[str, tuple[str, ...]]
    cost_zones: dict[str, str]
    selectors: dict[str, dict[str, Any]]
    piles: tuple[str, ...]
    pile_prefixes: dict[str, str]
    commands: dict[str, CommandSpec]  # keyed by lower-case name
    costs: dict[str, dict[str, Any]]
    abilities: dict[str, dict[str, Any]]
    events: dict[str, dict[str, Any]]
    hooks: dict[str, dict[str, Any]]
    event_prefixes: dict[str, str]
    event_suffixes: dict[str, dict[str, Any]]
    restrictions: dict[str, dict[str, Any]]
    game_rules: dict[str, dict[str, Any]]
    names: dict[str, dict[str, Any]]
    functions: dict[str, dict[str, Any]]
    attributes: dict[str, dict[str, dict[str, Any]]]
    # extra per-rule keys a profile declares (``rule_keys:``): key -> {kind, values, pattern, repeat, doc}
    rule_keys: dict[str, dict[str, Any]] = field(default_factory=dict)
    all_attributes: dict[str, set[str]] = field(default_factory=dict)
    # Lookup tables derived from the ones above by profile_from_text, so that the compiler resolves a
    # word with one dictionary lookup.  Types are static types: a trailing '?' (may be none) is dropped.
    name_types: dict[str, str] = field(default_factory=dict)  # expression name -> type
    element_names: frozenset[str] = frozenset()  # names defined only inside a quantifier or an each
    attribute_types: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, attribute) -> type
    attribute_union_types: dict[str, str] = field(default_factory=dict)  # attribute -> type, owner unknown
    # a zone, pile or event, bare or prefixed -> (zone, pile or event, prefix or None when bare)
    zone_words: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    pile_words: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    event_words: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    def spelling(self, table: dict[str, dict[str, Any]], key: str) -> str:
        entry = table.get(key) or {}
        return str(entry.get("spelling", key)) if isinstance(entry, dict) else key


def _lower_map(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    return {str(k).lower(): (v if v is not None else {}) for k, v in value.items()}


def _node_span(path: str, node: yaml.Node | None) -> Span:
    if node is None:
        return Span(path, 1, 1)
    m = node.start_mark
    return Span(path, m.line + 1, m.column + 1, m.line + 1, m.column + 2)


def _find_node(root: yaml.Node | None, *keys: str) -> yaml.Node | None:
    node = root
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            return node
        for k, v in node.value:
            if str(k.value) == key:
                node = v
                break
        else:
            return node
    return node


REQUIRED_SECTIONS = ("card_types", "type_keywords", "stats", "filter_words", "zones", "default_zone",
                     "zone_prefixes", "piles", "commands", "costs", "abilities", "events", "hooks",
                     "event_prefixes", "event_suffixes", "restrictions", "game_rules", "expressions")


def profile_from_text(text: str, path: str) -> Profile:
    """Build a profile from YAML text; a malformed profile raises :class:`ProfileError`."""
    diags: list[Diagnostic] = []
    from rulescript import yamlsafe

    try:
        root, loader = yamlsafe.compose(text, path, "RP101")
        data = yamlsafe.construct(root, loader, path, "RP101")
    except yamlsafe.YamlError as exc:
        raise ProfileError([exc.diagnostic]) from None
    if not isinstance(data, dict):
        raise ProfileError([Diagnostic("error", "RP101", "a profile must be a YAML mapping", Span(path, 1, 1))])

    def err(msg: str, *keys: str) -> None:
        diags.append(Diagnostic("error", "RP301", msg, _node_span(path, _find_node(root, *keys))))

    for key in REQUIRED_SECTIONS:
        if key not in data:
            err(f"profile lacks the section '{key}'")
    if diags:
        raise ProfileError(diags)
    rules = _lower_map(data["game_rules"])
    commands: dict[str, CommandSpec] = {}
    for name, spec in (data.get("commands") or {}).items():
        spec = spec or {}
        params = []
        for i, p in enumerate(spec.get("params") or []):
            kind = p.get("kind") if isinstance(p, dict) else None
            if kind not in PARAM_KINDS:
                err(f"command '{name}': parameter {i + 1} has unknown kind '{kind}' "
                    f"(known: {', '.join(sorted(PARAM_KINDS))})", "commands", name)
                continue
            values = p.get("values", ())
            if values == "@game_rules":
                values = tuple(rules)
            elif values == "@number_rules":
                values = tuple(k for k, v in rules.items() if (v or {}).get("kind") == "number")
            params.append(Param(kind, bool(p.get("optional")), tuple(str(v).lower() for v in values or ()),
                                bool(p.get("toggle")), p.get("zone")))
        default = str(spec.get("default", "none"))
        if default not in DEFAULTS:
            err(f"command '{name}': unknown default '{default}'", "commands", name)
        commands[str(name).lower()] = CommandSpec(
            str(name), tuple(params), default, str(spec.get("doc", "")), bool(spec.get("lasting")),
            bool(spec.get("fails")), spec.get("sets"), tuple(str(e).lower() for e in spec.get("only_in_events", ())))
    expressions = data["expressions"] or {}
    attributes = {str(k).lower(): _lower_map(v) for k, v in (expressions.get("attributes") or {}).items()}
    rule_keys = _lower_map(data.get("rule_keys"))
    for key, spec in rule_keys.items():
        if not isinstance(spec, dict) or spec.get("kind") not in RULE_KEY_KINDS:
            err(f"rule key '{key}': kind must be one of {', '.join(RULE_KEY_KINDS)}", "rule_keys", key)
        elif spec.get("kind") in ("word", "words"):
            spec["values"] = tuple(str(v).lower() for v in spec.get("values") or ())
            if not spec["values"]:
                err(f"rule key '{key}': a word key needs its values", "rule_keys", key)
        elif spec.get("pattern") is not None:
            try:
                spec["regex"] = re.compile(str(spec["pattern"]), re.IGNORECASE)
            except re.error as exc:
                err(f"rule key '{key}': bad pattern: {exc}", "rule_keys", key)
    default_zone = str(data["default_zone"]).lower()
    zones = _lower_map(data["zones"])
    if default_zone not in zones:
        err(f"default_zone '{default_zone}' is not a zone", "default_zone")
    if diags:
        raise ProfileError(diags)
    prof = Profile(
        name=str(data.get("profile", Path(path).stem)), title=str(data.get("title", "")),
        version=int(data.get("version", 1)), path=path, raw=data,
        card_types={str(k).lower(): str((v or {}).get("doc", "")) for k, v in data["card_types"].items()},
        subtype_of=(str(data["subtype_of"]).lower() if data.get("subtype_of") else None),
        type_keywords=_lower_map(data["type_keywords"]), stats=_lower_map(data["stats"]),
        extremes=tuple(str(x).lower() for x in data.get("extremes", ())),
        filter_words={str(k).lower(): str(v) for k, v in data["filter_words"].items()},
        zones=zones, default_zone=default_zone,
        zone_prefixes={str(k).lower(): str(v) for k, v in data["zone_prefixes"].items()},
        default_zone_prefix=str(data.get("default_zone_prefix", next(iter(data["zone_prefixes"])))).lower(),
        default_pile_prefix=str(data.get("default_pile_prefix", next(iter(data.get("pile_prefixes") or {"": ""})))).lower(),
        default_event_prefix=str(data.get("default_event_prefix", next(iter(data["event_prefixes"])))).lower(),
        prefix_only_for={str(k).lower(): tuple(str(z).lower() for z in v)
                         for k, v in (data.get("prefix_only_for") or {}).items()},
        cost_zones={str(k).upper(): str(v).lower() for k, v in (data.get("cost_zones") or {}).items()},
        selectors=_lower_map(data.get("selectors")), piles=tuple(str(p).lower() for p in data["piles"]),
        pile_prefixes={str(k).lower(): str(v) for k, v in (data.get("pile_prefixes") or {}).items()},
        commands=commands, costs={str(k).upper(): (v or {}) for k, v in data["costs"].items()},
        abilities=_lower_map(data["abilities"]), events=_lower_map(data["events"]),
        hooks=_lower_map(data["hooks"]),
        event_prefixes={str(k).lower(): str(v) for k, v in data["event_prefixes"].items()},
        event_suffixes=_lower_map(data["event_suffixes"]), restrictions=_lower_map(data["restrictions"]),
        game_rules=rules, names=_lower_map(expressions.get("names")),
        functions=_lower_map(expressions.get("functions")), attributes=attributes, rule_keys=rule_keys,
    )
    for table in attributes.values():
        for attr, spec in table.items():
            prof.all_attributes.setdefault(attr, set())
    for kind, table in attributes.items():
        for attr in table:
            prof.all_attributes[attr].add(kind)
    _derive_tables(prof)
    diags.extend(_check_card_text(prof, root, path))
    if diags:
        raise ProfileError(diags)
    return prof


# card_text tables whose keys name entries of another table of the profile
CARD_TEXT_KEYS = {"commands": "commands", "costs": "costs", "abilities": "abilities", "events": "events",
                  "hooks": "hooks", "restrictions": "restrictions", "filter_words": "filter_words",
                  "game_rules": "game_rules", "rule_keys": "rule_keys", "card_types": "card_types",
                  "type_keywords": "type_keywords", "stats": "stats", "zones": "zones"}


def _check_card_text(prof: Profile, root: yaml.Node | None, path: str) -> list[Diagnostic]:
    """The ``card_text`` section names only entries the profile has, and its patterns are valid regular
    expressions (a located error for each mistake)."""
    text = prof.raw.get("card_text")
    if text is None:
        return []
    out: list[Diagnostic] = []

    def err(code: str, msg: str, *keys: str) -> None:
        out.append(Diagnostic("error", code, msg, _node_span(path, _find_node(root, "card_text", *keys))))

    if not isinstance(text, dict):
        err("RP302", "card_text must be a mapping")
        return out
    for table, target in CARD_TEXT_KEYS.items():
        entries = text.get(table) or {}
        if not isinstance(entries, dict):
            err("RP302", f"card_text.{table} must be a mapping", table)
            continue
        known = getattr(prof, target)
        for key in entries:
            name = str(key).upper() if table == "costs" else str(key).lower()
            if name not in known:
                err("RP302", f"card_text.{table}: '{key}' is not an entry of {target}", table, str(key))
    printed = text.get("printed") or {}
    for family, patterns in (printed.items() if isinstance(printed, dict) else ()):
        lists = patterns.items() if isinstance(patterns, dict) else [("", patterns)]
        for label, pats in lists:
            for pat in [pats] if isinstance(pats, str) else list(pats or ()):
                try:
                    re.compile(str(pat))
                except re.error as exc:
                    keys = (family, str(label)) if label else (family,)
                    err("RP303", f"card_text.printed.{family}{'.' + str(label) if label else ''}: bad pattern "
                        f"{pat!r}: {exc}", "printed", *keys)
    return out


def missing_card_text(prof: Profile) -> list[str]:
    """The entries of a profile that have no card-text template (``table.name``), for completeness checks."""
    text = prof.raw.get("card_text") or {}
    missing = []
    for table in ("commands", "costs", "abilities", "events", "hooks", "restrictions", "filter_words", "game_rules"):
        have = {str(k).upper() if table == "costs" else str(k).lower() for k in (text.get(table) or {})}
        for name in getattr(prof, table):
            entry = getattr(prof, table)[name]
            if table == "costs" and isinstance(entry, dict) and entry.get("unsupported"):
                continue  # a reserved cost the profile does not implement has no text
            if name not in have:
                missing.append(f"{table}.{name}")
    return missing


def _declared_type(spec: Any) -> str:
    """The type an entry of ``names`` or ``attributes`` declares."""
    return str(spec.get("type", "any")) if isinstance(spec, dict) else "any"


def _static_type(declared: str) -> str:
    """A declared type without its '?' (may be none)."""
    return declared[:-1] if declared.endswith("?") else declared


def _prefixed_words(names: Any, prefixes: Any) -> dict[str, tuple[str, str | None]]:
    """Every spelling of a name, bare or after a prefix, mapped to (name, prefix or None for bare).

    A spelling that more than one prefix can produce belongs to the prefix that comes first in
    ``prefixes``; a bare name wins over any prefixed reading."""
    words: dict[str, tuple[str, str | None]] = {}
    for prefix in prefixes:
        for name in names:
            words.setdefault(prefix + name, (name, prefix))
    words.update((name, (name, None)) for name in names)
    return words


def _derive_tables(prof: Profile) -> None:
    """Fill the profile's derived lookup tables (see the fields after ``all_attributes``)."""
    prof.name_types = {name: _static_type(_declared_type(spec)) for name, spec in prof.names.items()}
    prof.element_names = frozenset(name for name, spec in prof.names.items()
                                   if isinstance(spec, dict) and spec.get("element"))
    prof.attribute_types = {(owner, attr): _static_type(_declared_type(spec))
                            for owner, table in prof.attributes.items() for attr, spec in table.items()}
    for attr, owners in prof.all_attributes.items():
        types = {_declared_type(prof.attributes[owner][attr]) for owner in owners}
        prof.attribute_union_types[attr] = _static_type(types.pop() if len(types) == 1 else "any")
    # zones and piles try the longest prefix first; events try their prefixes in profile order
    prof.zone_words = _prefixed_words(prof.zones, sorted(prof.zone_prefixes, key=len, reverse=True))
    prof.pile_words = _prefixed_words(prof.piles, sorted(prof.pile_prefixes, key=len, reverse=True))
    prof.event_words = _prefixed_words(list(prof.events) + list(prof.hooks), prof.event_prefixes)


def resolve_profile_path(profile: str | Path) -> Path:
    """A shipped profile's name (``cfc``, ``werewolf``) names it, even where the working folder holds
    something of that name (a copy of the werewolf game); anything else is a path."""
    p = Path(profile)
    shipped = GAMES_DIR / str(profile) / "profile.yaml"
    if len(p.parts) == 1 and p.suffix not in (".yaml", ".yml") and shipped.is_file():
        return shipped
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return shipped


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> Profile:
    from rulescript import yamlsafe

    if not Path(path).is_file():
        raise ProfileError([Diagnostic("error", "RP201",
                                       f"profile {path} is not a regular file (a profile is a YAML file)",
                                       Span(path, 1, 1))])
    try:
        text = yamlsafe.read_file_text(path, "RP101")
    except yamlsafe.YamlError as exc:
        raise ProfileError([exc.diagnostic]) from None
    return profile_from_text(text, path)


def known_profiles() -> list[str]:
    """The names of the games that ship with a profile (``rulescript/games/<name>/profile.yaml``)."""
    return sorted(p.parent.name for p in GAMES_DIR.glob("*/profile.yaml"))


def load_profile(profile: "str | Path | Profile" = "cfc") -> Profile:
    """Load a profile by name (``cfc``) or by path; cached per file and modification time."""
    if isinstance(profile, Profile):
        return profile
    path = resolve_profile_path(profile)
    if not path.exists():
        known = known_profiles()
        raise ProfileError([Diagnostic("error", "RP201", f"unknown profile '{profile}'", Span(str(path), 1, 1),
                                       (f"known profiles: {', '.join(known)}",))])
    return _load_cached(str(path), path.stat().st_mtime)


def profile_fingerprint(profile: Profile) -> str:
    import hashlib

    return hashlib.sha256(Path(profile.path).read_bytes()).hexdigest()[:16] if Path(profile.path).exists() \
        else hashlib.sha256(repr(profile.raw).encode()).hexdigest()[:16]
