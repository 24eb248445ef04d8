"""What the checker found, for the family: witnesses for every open question, how often
each choice matters, and OPEN_QUESTIONS.md/.json rendered from them.  Imports the model,
`explore` and `oracles`; the report and the command line read its results.
"""
