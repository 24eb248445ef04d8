"""The implementers' kit: NDJSON game logs and ITF traces, step-by-step replay, the
conformance vectors, and differential testing of another engine over a JSON-lines
protocol (`refengine` is chanspec's own engine on it).  Depends on the model only.
"""
