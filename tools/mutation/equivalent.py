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
}
