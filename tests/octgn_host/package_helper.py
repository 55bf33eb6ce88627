"""A small package builder for the host's tests, following the ship contract of the OCTGN package
builder (``octgn_pack``): until ``octgn_pack.build`` exists, the stand-in runs packages made here.

Layout (all under ``def/``): ``definition.xml`` (scripts, events, phases, markers, global variables,
table and pile actions from ``octgn_pack/host/manifest.py`` and the game's table face, counters, piles,
deck sections), ``Scripts/gamedata.py`` (``GAME``), ``Scripts/rules.py`` (``RULES``,
``RULES_FINGERPRINT``), ``Scripts/<glue>.py``, the importable ``rulescript/`` (runtime and the game) and
``octgn_pack/host/``, one set with its ``set.xml`` and the decks as ``.o8d``.
"""
from __future__ import annotations

import hashlib
import uuid
import zipfile
from pathlib import Path
from xml.sax.saxutils import quoteattr

from octgn_pack.host import manifest
from octgn_pack.host.glue import function_name
from rulescript.compiler import compile_game
from rulescript.sim.cards import load_game

ROOT = Path(__file__).resolve().parents[2]
NS = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")


def literal(x) -> str:
    """A Python literal readable by Python 2.7 and 3 (non-ASCII text as u'' escapes)."""
    if isinstance(x, dict):
        return "{" + ", ".join("%s: %s" % (literal(k), literal(v)) for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in x) + "]"
    if isinstance(x, str):
        return repr(x) if x.isascii() else "u" + ascii(x)
    return repr(x)


def guid(*parts: str) -> str:
    return str(uuid.uuid5(NS, "/".join(parts)))


def build(game_dir: Path, out: Path, tweak=None, profile: str = "cfc") -> Path:
    """Build the package of ``game_dir`` into ``out`` (a .zip); ``tweak(models)`` may change the card
    data first (a different build)."""
    from importlib import import_module

    face = import_module("rulescript.games.%s.table" % profile)
    data = load_game(game_dir)
    compiled = compile_game(game_dir)
    assert compiled.ok, compiled.render()
    models = {k: dict(v) for k, v in data.models.items()}
    if tweak:
        tweak(models)
    game_id = guid("game", str(game_dir.name))
    set_id = guid("set", str(game_dir.name))
    card_guid = {cid: guid(game_id, cid) for cid in models}
    rules_text = literal(compiled.rules)
    rules_fp = hashlib.sha1(rules_text.encode()).hexdigest()[:16]
    gdata = {"profile": profile, "id": game_id, "name": "CFC Demo", "version": "0.1.0.0",
             "cards": {card_guid[c]: m for c, m in models.items()},
             "decks": {n: d["cards"] for n, d in data.decks.items()}}
    gtext = literal(gdata)
    gdata["fingerprint"] = hashlib.sha1((gtext + rules_text).encode()).hexdigest()[:16]
    files: dict[str, str | bytes] = {}
    files["def/Scripts/gamedata.py"] = "# generated\nGAME = %s\n" % literal(gdata)
    files["def/Scripts/rules.py"] = "# generated\nRULES = %s\nRULES_FINGERPRINT = %r\n" % (rules_text, rules_fp)
    scripts = ["Scripts/gamedata.py", "Scripts/rules.py"]
    for path in sorted((ROOT / "octgn_pack" / "host" / "scripts").glob("*.py")):
        files["def/Scripts/" + path.name] = path.read_text()
        scripts.append("Scripts/" + path.name)
    pkg = ROOT / "rulescript"
    ship = [pkg / "__init__.py"] + sorted((pkg / "runtime").glob("*.py")) + [pkg / "games" / "__init__.py"] \
        + sorted((pkg / "games" / profile).glob("*.py"))
    for p in ship:
        files["def/" + p.relative_to(ROOT).as_posix()] = p.read_text()
    files["def/octgn_pack/__init__.py"] = '"""OCTGN packaging: the host ships inside the package."""\n'
    for p in sorted((ROOT / "octgn_pack" / "host").rglob("*.py")):
        files["def/" + p.relative_to(ROOT).as_posix()] = p.read_text()
    files["def/definition.xml"] = definition(game_id, scripts, face)
    files["def/Sets/%s/set.xml" % set_id] = set_xml(game_id, set_id, models, card_guid)
    for name, deck in data.decks.items():
        files["def/Sets/%s/Decks/%s.o8d" % (set_id, name)] = o8d(game_id, deck["cards"], card_guid, models)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            zf.writestr(name, files[name])
    return out


def _attrs(**kw) -> str:
    return " ".join("%s=%s" % (k, quoteattr(str(v))) for k, v in kw.items())


def definition(game_id: str, scripts: list[str], face) -> str:
    card_actions = []
    for i, a in enumerate(face.CARD_ACTIONS):
        attrs = {"menu": a["menu"], "execute": function_name(manifest.CARD_ACTION["execute"], a["do"]),
                 "showIf": function_name(manifest.CARD_ACTION["showIf"], a["do"])}
        if i == 0:
            attrs["default"] = "True"
        card_actions.append("<cardaction %s/>" % _attrs(**attrs))
    group_actions = ["<groupaction %s/>" % _attrs(menu=a["menu"],
                                                  execute=function_name(manifest.GAME_ACTION["execute"], a["do"]),
                                                  showIf=function_name(manifest.GAME_ACTION["showIf"], a["do"]))
                     for a in face.GAME_ACTIONS]
    for a in manifest.HOST_GAME_ACTIONS:
        attrs = {"menu": a["menu"], "execute": a["execute"]}
        if a["showIf"]:
            attrs["showIf"] = a["showIf"]
        group_actions.append("<groupaction %s/>" % _attrs(**attrs))
    piles = "".join("<group %s>%s</group>" % (
        _attrs(name=p["name"], visibility=p["visibility"], ordered=str(p["ordered"]), icon="Resources/pile.png",
               viewState=p["view"], shuffle=str(p["shuffle"])), "".join(card_actions)) for p in face.PILES)
    return "".join([
        '<?xml version="1.0" encoding="utf-8"?>',
        "<game %s>" % _attrs(name="CFC Demo", id=game_id, version="0.1.0.0", scriptVersion="3.1.0.2",
                             octgnVersion="3.4.0.0", setsurl="http://example.org", gameurl="http://example.org",
                             authors="tests", description="test", tags="test", iconurl="http://example.org/i.png"),
        "<scripts>%s</scripts>" % "".join("<script %s/>" % _attrs(src=s) for s in scripts),
        "<events>%s</events>" % "".join("<event %s/>" % _attrs(name=e, action=f) for e, f in manifest.EVENTS),
        "<proxygen definitionsrc=\"Proxy/proxydef.xml\"/>",
        "<phases>%s</phases>" % "".join("<phase %s/>" % _attrs(name=p["name"], icon="Resources/phase.png")
                                        for p in face.PHASES),
        "<markers>%s</markers>" % "".join("<marker %s/>" % _attrs(id=m["id"], name=m["name"],
                                                                  src="Resources/marker.png") for m in face.MARKERS),
        "<globalvariables>%s</globalvariables>" % "".join(
            "<globalvariable %s/>" % _attrs(name=n, value=v) for n, v in manifest.GLOBAL_VARIABLES),
        "<card %s/>" % _attrs(back="Resources/back.png", front="Resources/front.png", width=63, height=88),
        "<table %s>%s%s</table>" % (_attrs(name="Table", visibility="undefined", width=1200, height=800,
                                           background="Resources/table.png"),
                                    "".join(card_actions), "".join(group_actions)),
        "<player %s>%s%s</player>" % (
            _attrs(summary="HP: {#HP}"),
            "".join("<counter %s/>" % _attrs(name=c["name"], default=c["default"], icon="Resources/c.png")
                    for c in face.COUNTERS),
            piles),
        "<deck>%s</deck>" % "".join("<section %s/>" % _attrs(name=s["name"], group=s["pile"])
                                    for s in face.DECK_SECTIONS),
        "</game>"])


def set_xml(game_id: str, set_id: str, models: dict, card_guid: dict) -> str:
    cards = []
    for cid, m in models.items():
        props = "".join("<property %s/>" % _attrs(name=k.title(), value=m[k]) for k in ("type", "bp", "sp")
                        if m.get(k) is not None)
        cards.append("<card %s>%s</card>" % (_attrs(id=card_guid[cid], name=m["name"]), props))
    return '<?xml version="1.0" encoding="utf-8"?><set %s><cards>%s</cards></set>' % (
        _attrs(name="Demo", id=set_id, gameId=game_id, version="1.0.0.0"), "".join(cards))


def o8d(game_id: str, cards: list[str], card_guid: dict, models: dict) -> str:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    body = "".join('<card qty="%d" id="%s">%s</card>' % (n, card_guid[c], models[c]["name"]) for c, n in counts.items())
    return '<?xml version="1.0" encoding="utf-8"?><deck game="%s"><section name="Main" shared="False">%s</section></deck>' % (
        game_id, body)
