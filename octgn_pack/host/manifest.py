"""What the OCTGN package must declare for the host (read by the package builder, ``octgn_pack``).

Plain data only (the builder may read it with ``ast.literal_eval`` of each assignment).

``EVENTS``            ``[(OCTGN event name, handler function name)]`` for ``<events>``
``CARD_ACTION``       one ``<cardaction>`` per entry of the game's table face ``CARD_ACTIONS``, in
                      that order, the first with ``default="True"``, in the table and in every player
                      pile (OCTGN takes a card's menu from the group it is in): ``menu`` is the entry's ``menu``;
                      ``execute``, ``showIf`` (and ``getName`` when not None) are these templates with
                      ``%(do)s`` replaced by the entry's ``do`` in which every character other than an
                      ASCII letter or digit is replaced by ``_``
``GAME_ACTION``       the same for each entry of ``GAME_ACTIONS``, as ``<groupaction>`` of the table
``HOST_GAME_ACTIONS`` more ``<groupaction>`` items of the table, after those: ``menu``, ``execute``,
                      ``showIf`` (None: no showIf)
``GLOBAL_VARIABLES``  ``[(name, default)]`` for ``<globalvariables>``
``PLAYER_VARIABLES``  ``[(name, default)]`` for ``<player><globalvariable .../></player>``
``REMOTE_FUNCTIONS``  the functions other clients call with ``remoteCall`` (documentation)
``SCRIPTS``           the glue scripts (``octgn_pack/host/scripts/``), listed in ``<scripts>`` after
                      ``Scripts/gamedata.py`` and ``Scripts/rules.py``, in this order

Every function named here is defined in the scripts' shared namespace by the glue script
(``scripts/rs_host.py``, which calls :func:`octgn_pack.host.glue.install`).  Handlers of card actions
take ``(card, x=0, y=0)``, their ``showIf`` ``(cards, x=0, y=0)``; table actions and their ``showIf``
take ``(group, x=0, y=0)``.
"""
from __future__ import absolute_import, division, print_function

EVENTS = [
    ("OnTableLoaded", "rsOnTableLoaded"),
    ("OnGameStarted", "rsOnGameStarted"),
    ("OnDeckLoaded", "rsOnDeckLoaded"),
    ("OnPlayerGlobalVariableChanged", "rsOnPlayerVariable"),
    ("OnGlobalVariableChanged", "rsOnGlobalVariable"),
    ("OnPlayerConnected", "rsOnPlayerConnected"),
    ("OverrideCardsMoved", "rsOverrideCardsMoved"),
    ("OverrideTurnPassed", "rsOverrideTurnPassed"),
]

CARD_ACTION = {"execute": "rsCard_%(do)s", "showIf": "rsCardShow_%(do)s", "getName": None}

GAME_ACTION = {"execute": "rsTable_%(do)s", "showIf": "rsTableShow_%(do)s", "getName": None}

HOST_GAME_ACTIONS = [
    {"menu": "Answer the open question", "execute": "rsAnswer", "showIf": "rsAnswerShow"},
    {"menu": "Automation: resynchronise the table", "execute": "rsResync", "showIf": None},
]

GLOBAL_VARIABLES = [("rsLog", ""), ("rsTurn", ""), ("rsCheck", "")]

PLAYER_VARIABLES = [("rsVersion", "")]

REMOTE_FUNCTIONS = ["rsIn", "rsResend", "rsForward", "rsOff", "rsRebuild"]

SCRIPTS = ["rs_host.py"]
