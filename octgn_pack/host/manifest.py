"""What the OCTGN package must declare for the host (read by the package builder, ``octgn_pack``).

Plain data only (the builder may read it with ``ast.literal_eval`` of each assignment).

``EVENTS``            ``[(OCTGN event name, handler function name)]`` for ``<events>``
``CARD_ACTION``       one ``<cardaction>`` per entry of the game's table face ``CARD_ACTIONS``, in
                      that order, the first with ``default="True"``, on the table and in every pile a
                      player can see (OCTGN takes a card's menu from the group it is in): ``menu`` is
                      the entry's ``menu``; ``execute`` and ``showIf`` are these templates with
                      ``{do}`` replaced by the entry's ``do`` (a Python identifier: ``rs_do_play``)
``GAME_ACTION``       the same for each entry of ``GAME_ACTIONS``, as ``<groupaction>`` (table and piles)
``HOST_GAME_ACTIONS`` the host's own ``<groupaction>`` items, after those: ``menu``, ``execute``,
                      ``showIf`` (None: no showIf).  Optional: without them an open question is
                      reopened by double-clicking a card or with the turn button, and a resync needs
                      a game reset
``GLOBAL_VARIABLES``  ``[(name, default)]`` for ``<globalvariables>``
``REMOTE_FUNCTIONS``  the functions other clients call with ``remoteCall`` (nothing to declare)

Every function named here is defined in the scripts' shared namespace by the glue script
(``scripts/rs_host.py``, which calls :func:`octgn_pack.host.glue.install`).  Card actions are called
as ``(card, x=0, y=0)``, their ``showIf`` as ``(cards, x=0, y=0)``; table actions and their ``showIf``
as ``(group, x=0, y=0)``.
"""
from __future__ import absolute_import, division, print_function

EVENTS = [
    ("OnTableLoaded", "rs_on_table_loaded"),
    ("OnGameStarted", "rs_on_game_started"),
    ("OnDeckLoaded", "rs_on_deck_loaded"),
    ("OnGlobalVariableChanged", "rs_on_global_variable_changed"),
    ("OnPlayerConnected", "rs_on_player_connected"),
    ("OverrideCardsMoved", "rs_override_cards_moved"),
    ("OverrideTurnPassed", "rs_override_turn_passed"),
]

CARD_ACTION = {"execute": "rs_do_{do}", "showIf": "rs_can_{do}"}

GAME_ACTION = {"execute": "rs_game_{do}", "showIf": "rs_game_can_{do}"}

HOST_GAME_ACTIONS = [
    {"menu": "Answer the open question", "execute": "rs_answer", "showIf": "rs_answer_shown"},
    {"menu": "Automation: resynchronise the table", "execute": "rs_resync", "showIf": None},
]

GLOBAL_VARIABLES = [("rs_log", ""), ("rs_check", ""), ("rs_cards", "")]

REMOTE_FUNCTIONS = ["rs_hello", "rs_in", "rs_resend", "rs_forward", "rs_off", "rs_rebuild", "rs_reveal"]
