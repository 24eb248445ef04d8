"""Everything drawn or written for people: the family's static site (`site`), diagrams of
the rules and of explored states (`diagrams`), and games told in Vietnamese (`narrate`).
Reads the model, `explore`, `oracles` and `findings`; nothing below it imports it.
"""
