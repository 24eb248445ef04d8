"""`chanspec check --verify`: which parts of two findings documents differ (the comparison
behind its exit code), on the committed family findings and planted changes of them."""

from __future__ import annotations

import copy

from chanspec.checks.cli.cmd_check import _differing_keys
from chanspec.checks.findings import compute as findings


def test_the_committed_findings_equal_themselves() -> None:
    doc = findings.load()
    assert doc is not None
    assert _differing_keys(doc, copy.deepcopy(doc)) == []


def test_a_changed_question_and_a_changed_key_are_named() -> None:
    doc = findings.load()
    assert doc is not None
    fresh = copy.deepcopy(doc)
    qid = sorted(fresh["questions"])[0]
    fresh["questions"][qid]["planted"] = 1
    fresh["table_digest"] = "planted"
    assert _differing_keys(doc, fresh) == [f"questions[{qid}]", "table_digest"]


def test_a_question_only_one_side_has_is_named_and_nothing_saved_is_missing() -> None:
    doc = findings.load()
    assert doc is not None
    fresh = copy.deepcopy(doc)
    qid = sorted(fresh["questions"])[-1]
    del fresh["questions"][qid]
    assert _differing_keys(doc, fresh) == [f"questions[{qid}]"]
    assert _differing_keys(None, doc) == ["(missing)"]
