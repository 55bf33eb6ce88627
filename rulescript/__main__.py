"""``python -m rulescript``: the ``rulescript`` command."""
import sys

try:
    from rulescript.cli import main
except KeyboardInterrupt:  # Ctrl-C while the program starts
    sys.stderr.write("rulescript: interrupted\n")
    sys.exit(130)

sys.exit(main())
