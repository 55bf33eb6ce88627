"""A stand-in of OCTGN for tests (the common subset of Python 2.7 and 3): clients that run a built
package's scripts, one shared table, global variables, events, remoteCall and dialogs, modelled on
OCTGN's scripting API as documented in ``shared/spec/octgn.md`` sections 4-6."""
