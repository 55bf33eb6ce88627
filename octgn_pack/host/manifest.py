"""What the OCTGN host needs declared in ``definition.xml``: events, menu functions, global variables.

Plain data, read by the package builder (``octgn_pack.definition``) in CPython 3; shipped too, so the
host can read the same names.  The builder combines it with the game's table face
(``rulescript/games/<profile>/table.py``):

``EVENTS``            ``[(OCTGN event name, function name)]``, written to ``<events>`` in this order.
``CARD_ACTION``       how each ``CARD_ACTIONS`` item of the table face becomes a ``<cardaction>``:
                      ``"execute"`` and ``"showIf"`` are function names in which ``{do}`` is replaced by
                      the item's ``do`` (``rs_do_play``, ``rs_can_play``); ``"batch"``, when not None,
                      is written as ``batchExecute`` (a function receiving the list of selected cards)
                      instead of ``execute``.  The first item is the double-click default.  Card
                      actions are offered on the table and in every pile a player can see.
``GAME_ACTION``       the same for ``GAME_ACTIONS`` (``pass``, ``done``, ``concede``), written as
                      ``<groupaction>`` on the table and on every pile.
``GLOBAL_VARIABLES``  ``[(name, default text)]``, written to ``<globalvariables>``.

The functions live in the host's shared-namespace scripts (``octgn_pack/host/scripts/*.py``), which
must define every name produced here, for example with one dispatcher per menu kind::

    def rs_card_action(card, do): ...            # the engine answers its pending decision
    for _item in CARD_ACTIONS:                   # from the table face
        globals()["rs_do_" + _item["do"]] = (lambda do: lambda card, x=0, y=0: rs_card_action(card, do))(_item["do"])

Signatures OCTGN calls them with: ``execute(card, x=0, y=0)``, ``showIf(cards, x=0, y=0)``
(a list), ``batchExecute(cards, x=0, y=0)``; group actions get the pile or table instead of a card.
"""

EVENTS = [
    ("OnTableLoaded", "rs_on_table_loaded"),
    ("OnGameStarted", "rs_on_game_started"),
    ("OnDeckLoaded", "rs_on_deck_loaded"),
    ("OnPlayerConnected", "rs_on_player_connected"),
    ("OnTurnPassed", "rs_on_turn_passed"),
    ("OnPhasePassed", "rs_on_phase_passed"),
    ("OnCardsMoved", "rs_on_cards_moved"),
    ("OnScriptedCardsMoved", "rs_on_cards_moved"),
    ("OnGlobalVariableChanged", "rs_on_global_variable_changed"),
]

CARD_ACTION = {"execute": "rs_do_{do}", "showIf": "rs_can_{do}", "batch": None}

GAME_ACTION = {"execute": "rs_game_{do}", "showIf": "rs_game_can_{do}"}

GLOBAL_VARIABLES = [
    ("rs_seed", ""),
    ("rs_inputs", ""),
    ("rs_checksum", ""),
]
