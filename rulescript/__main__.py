"""``python -m rulescript``: the ``rulescript`` command."""
import sys

from rulescript.cli import main

sys.exit(main())
