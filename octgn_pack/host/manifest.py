"""What the OCTGN package must declare for the host (read by the package builder, ``octgn_pack``).

Plain data only (the builder may read it with ``ast.literal_eval`` of each assignment).

``EVENTS``            ``[(OCTGN event name, handler function name)]`` for ``<events>``
``CARD_ACTION``       one ``<cardaction>`` per entry of the game's table face ``CARD_ACTIONS``, in
                      that order, the first with ``default="True"``, on the table and in every pile a
                      player can see (OCTGN takes a card's menu from the group it is in): ``menu`` is
                      the entry's ``menu``; ``execute`` and ``showIf`` are these templates with
                      ``{do}`` replaced by the entry's ``do`` (a Python identifier: ``rsCard_play``)
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
    ("OnTableLoaded", "rsOnTableLoaded"),
    ("OnGameStarted", "rsOnGameStarted"),
    ("OnDeckLoaded", "rsOnDeckLoaded"),
    ("OnGlobalVariableChanged", "rsOnGlobalVariable"),
    ("OnPlayerConnected", "rsOnPlayerConnected"),
    ("OverrideCardsMoved", "rsOverrideCardsMoved"),
    ("OverrideTurnPassed", "rsOverrideTurnPassed"),
]

CARD_ACTION = {"execute": "rsCard_{do}", "showIf": "rsCardShow_{do}"}

GAME_ACTION = {"execute": "rsTable_{do}", "showIf": "rsTableShow_{do}"}

HOST_GAME_ACTIONS = [
    {"menu": "Answer the open question", "execute": "rsAnswer", "showIf": "rsAnswerShow"},
    {"menu": "Automation: resynchronise the table", "execute": "rsResync", "showIf": None},
]

GLOBAL_VARIABLES = [("rsLog", ""), ("rsTurn", ""), ("rsCheck", "")]

REMOTE_FUNCTIONS = ["rsHello", "rsIn", "rsResend", "rsForward", "rsOff", "rsRebuild"]
