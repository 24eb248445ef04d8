"""Chiha's own checks (seed 004): the independent judges of its meld questions, a brute
force (`melds_brute`) and a Z3 encoding (`melds_z3`), held against `chanspec.model.chiha.melds`."""
