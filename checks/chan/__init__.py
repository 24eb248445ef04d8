"""Chắn's own checks: the win judges (Z3 `z3win`, brute force `brute`, all hands `hands`,
`class_search`), the cước searches, the scaled-down games (`scale`) and the packed search;
the judges share no code with `chanspec.model.chan.win` (they import its cards only).
"""
