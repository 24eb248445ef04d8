"""The machine's own decisions, found by mutation (`chanspec audit`).

`mutants` lists every condition of the audited modules (legality, claims, bans, wins,
consequences, the classic table's declaration, payment and session) and writes each
mutant's source; `play` plays seeded hands on the real and a mutated machine in
lockstep and reports the first divergence; `inventory` runs every mutant, accounts for
each decision (a row's ``decides``, a proposed row, an internal invariant) and writes
``docs/decisions.md`` and ``docs/decisions.json``.
"""
