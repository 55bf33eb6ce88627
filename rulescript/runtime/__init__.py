"""The RuleScript runtime: game state as plain data, the CFC game flow and the ports to hosts.

Everything in this package runs unchanged under CPython 3 and IronPython 2.7 (OCTGN), so it is
written in the common subset of both and imports nothing outside itself. See docs/runtime.md.
"""
from __future__ import absolute_import, division, print_function
