"""OPEN_QUESTIONS-classic.json and .md are what `chanspec check --ruleset classic`
computes today.

Three levels, like the family's (tests/test_findings_fresh.py, tests/test_questions.py):

* the saved findings were computed for today's classic table (its digest) and today's
  parameters (`findings.PARAMS_CLASSIC`), and the Markdown is their rendering -- fast;
* the parts that take seconds are computed again and compared: the hand counts under
  every reading and the Z3 questions (in a fresh interpreter, as `compute` runs them) --
  a few seconds;
* the whole computation again (witness searches at the classic scales, 400 + 200
  full-size hands, blame runs, clauses) -- about 11 minutes on two cores, so marked slow
  like the family's.
"""

from __future__ import annotations

import json

import pytest
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import questions
from chanspec.checks.findings import render as render_mod
from chanspec.model.chan import table

CLASSIC = table.load("classic")
RUN = "run `chanspec check --ruleset classic` and commit OPEN_QUESTIONS-classic.md/.json"


def _saved() -> dict[str, object]:
    saved = findings.load(findings.default_path("classic"))
    assert saved is not None, f"OPEN_QUESTIONS-classic.json is missing: {RUN}"
    return saved


def test_classic_findings_are_for_todays_table_and_parameters() -> None:
    saved = _saved()
    assert saved["table"] == "classic"
    assert saved["table_digest"] == findings.table_digest(CLASSIC), f"the table changed: {RUN}"
    assert saved["params"] == findings.params_for(CLASSIC), f"the parameters changed: {RUN}"
    assert set(saved["questions"]) == {r.id for r in questions.question_rows(CLASSIC)}  # type: ignore[arg-type]


def test_classic_markdown_is_the_rendering_of_the_saved_findings() -> None:
    md = questions.default_path("classic")
    assert md.is_file(), f"OPEN_QUESTIONS-classic.md is missing: {RUN}"
    assert md.read_text(encoding="utf-8") == render_mod.render(CLASSIC, _saved()), RUN


def test_classic_hand_counts_and_z3_answers_are_fresh() -> None:
    saved = _saved()
    players = int(saved["params"]["players"])  # type: ignore[index]
    assert saved["hands"] == json.loads(json.dumps(findings.hand_counts(CLASSIC))), RUN
    assert saved["z3"] == findings.z3_fresh(CLASSIC, players), RUN


@pytest.mark.slow
def test_committed_classic_findings_are_what_the_checker_computes_now() -> None:
    saved = _saved()
    fresh = findings.compute(CLASSIC, saved.get("params"),  # type: ignore[arg-type]
                             workers=explore.default_workers())
    a = json.loads(findings.dumps(saved))
    b = json.loads(findings.dumps(fresh))
    for key in sorted(set(a) | set(b)):
        assert a.get(key) == b.get(key), (
            f"OPEN_QUESTIONS-classic.json differs from a fresh computation in {key!r}: {RUN}")
