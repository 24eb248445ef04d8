"""OPEN_QUESTIONS.json is what `chanspec check` computes today, not just today's table.

The staleness tests elsewhere catch a changed table (its digest) and a stale Markdown
rendering; this one recomputes every finding (witness searches, the seeded full-size
hands at 4 and 5 players, hand counts, Z3 questions) and compares with the committed
file, so a change to the machine or the checker that alters a finding cannot go
unnoticed.  A few minutes on two cores; marked slow (CI runs it: the README's test
command runs every test).
"""

from __future__ import annotations

import json

import pytest
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute as findings
from chanspec.model.chan import table


@pytest.mark.slow
def test_committed_findings_are_what_the_checker_computes_now() -> None:
    t = table.load("family")
    saved = findings.load()
    assert saved is not None, "OPEN_QUESTIONS.json is missing: run `chanspec check`"
    fresh = findings.compute(t, saved.get("params"), workers=explore.default_workers())
    a = json.loads(findings.dumps(saved))
    b = json.loads(findings.dumps(fresh))
    for key in sorted(set(a) | set(b)):
        assert a.get(key) == b.get(key), (
            f"OPEN_QUESTIONS.json differs from a fresh computation in {key!r}: "
            "run `chanspec check` (it rewrites OPEN_QUESTIONS.json and .md) and commit")
