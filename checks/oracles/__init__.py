"""Independent judges of winning hands: the Z3 encoding (`z3win`), plain recursive
pairing (`brute`), and the questions asked over all hands at once (`hands`).  They share
no code with the fast engine of `chanspec.model.win`; they import the model's cards only.
"""
