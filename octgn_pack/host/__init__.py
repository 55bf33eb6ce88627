"""The OCTGN side of the runtime (the table host); shipped in packages as ``def/octgn_pack/host/``."""
