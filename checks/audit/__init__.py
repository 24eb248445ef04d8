"""The machine's own decisions, by mutation (`chanspec audit`): `mutants` changes one
condition of an audited module at a time, `play` replays seeded hands on the real and the
mutated machine in lockstep, `inventory` accounts for each decision (docs/decisions.md).
"""
