"""Everything that explores the rule table's machine, and the command line that runs it.

One sub-package per job; data flows one way (``tests/test_layout.py`` enforces it):

* `explore` (model checker, Hypothesis, random play) reads the model through the kind's
  protocol; `chan` and `chiha` are the kinds' own checks (Chắn: the win judges by Z3 and
  brute force, all-hands questions, cước searches, scaled-down games, the packed search;
  Chiha: its meld judges);
* `findings` turns their results into witnesses, frequencies and OPEN_QUESTIONS.md;
* `report` draws and writes for people (the family's site, diagrams, narration);
* `conform` is the implementers' kit (logs, ITF, replay, vectors, differential testing),
  and depends on the model only;
* `cli` is the ``chanspec`` command line: it may use everything; nothing uses it.

`output` (bilingual lines, atomic files) may be used by all of them.
"""
