"""WWRF front-end tests (a package, so module names cannot clash with other suites)."""
