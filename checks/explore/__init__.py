"""The model checker and its companions: exhaustive small-scope search (`search`, and
`packed_search` on the packed machine), the scaled-down games (`scale`), per-state
invariants, Hypothesis stateful testing and seeded random play.  Imports the model only.
"""
