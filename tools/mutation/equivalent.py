"""Surviving mutants that cannot change what the program does, each with why (key -> reason).

A key is ``Mutant.key`` (printed by ``run.py`` under each survivor): the file, the line's text, the
column and the change.  Add one only after reading the code: a mutant that *could* change behaviour
but no test notices is a missing test, not an equivalent mutant.
"""
from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    "rulescript/runtime/engine.py | if card is None: | 15: card is None -> False":
        "Engine._matching: a listener's source card is always in state['cards'] (the listeners are built "
        "from the cards of the state, and no game of the project ever deletes a card from it), so the "
        "guard never skips anything",
    'rulescript/runtime/engine.py | ext["next_listener"] = lid + 1 | 37: 1 -> 2':
        "Engine._load: a listener's id only has to differ from the ids given before it (ids grow either "
        "way); nothing reads a listener's id (listeners are kept, run and removed by their place in the "
        "list and their source card), and every client of a game runs the same code",
    'octgn_pack/host/codec.py | return bool(item) and (item[0].isdigit() or item in ("n", "e")) | 22: and -> or':
        "codec.is_decision is called nowhere (no module of the project, no test, no OCTGN script uses it): a change inside it cannot change what the program does",
    'octgn_pack/host/codec.py | return bool(item) and (item[0].isdigit() or item in ("n", "e")) | 27: '
    'item[0].isdigit() or item in ("n", "e") -> item in ("n", "e")':
        "codec.is_decision is called nowhere (no module of the project, no test, no OCTGN script uses it): a change inside it cannot change what the program does",
}
