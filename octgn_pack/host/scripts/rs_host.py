# RuleScript OCTGN host: defines the event handlers, menu functions and remote functions that
# definition.xml names (octgn_pack/host/manifest.py), on top of GAME (gamedata.py) and RULES (rules.py).
from octgn_pack.host.glue import install as _rs_install

_rs_install(globals())
