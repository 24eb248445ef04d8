"""What the README says every question has, checked against the saved findings.

The README must not restate the findings (they change with every recompute): it names
what the checker gives each question and links to OPEN_QUESTIONS.md.  Each such claim is
listed here with the check that makes it true against ``OPEN_QUESTIONS*.json`` and the
committed Markdown; a sentence of the README about every (or each) question or choice
that is not a listed claim fails the test, so a hand-written "every question has..."
cannot come back (issue 25: the README said every question had a scaled-down scenario
while two had none).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.findings import compute, render
from chanspec.model.chan import table

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("family", "classic")


def _docs() -> dict[str, dict[str, Any]]:
    return {r: json.loads((ROOT / compute.file_name(r)).read_text(encoding="utf-8"))
            for r in RULESETS}


def _md(ruleset: str) -> str:
    name = "OPEN_QUESTIONS.md" if ruleset == "family" else f"OPEN_QUESTIONS-{ruleset}.md"
    return (ROOT / name).read_text(encoding="utf-8")


def _scenarios_counted(docs: dict[str, dict[str, Any]]) -> None:
    """Each question has a scenario when one was found, and the file counts and names
    those with none, under its #scenarios anchor."""
    for r, doc in docs.items():
        t = table.load(r)
        c = render.scenario_counts(doc, t)
        md = _md(r)
        head, _, section = md.partition('<a id="scenarios"></a>')
        assert section, f"{r}: no #scenarios section"
        section = section.split("\n## ", 2)[1]
        assert f"{len(c['full'])} have a hand of the full-size game" in section, r
        assert f"{len(c['scaled'])} only a scaled-down game" in section, r
        assert f"{len(c['none'])} no scenario" in section, r
        for rid in c["none"]:
            assert f"(#{rid})" in section, (r, rid)
        assert f"({len(c['both'])} of them also a scaled-down game)" in section, r
        for rid in c["full"] + c["scaled"]:
            q = doc["questions"][rid]
            assert q.get("full_witness") or q.get("witness"), (r, rid)
        for rid in c["full"]:
            assert (rid in c["both"]) == bool(doc["questions"][rid].get("witness")), (r, rid)


def _placebo_beside(docs: dict[str, dict[str, Any]]) -> None:
    """Every "changes the result" figure has its placebo and chance mark, in the JSON
    and in the Markdown next to it."""
    for r, doc in docs.items():
        n = 0
        for rid, q in doc["questions"].items():
            for v, f in q.get("frequency", {}).items():
                for pf in compute.measured(f):
                    assert {"placebo", "placebo_per_10000", "placebo_ci95", "chance"} <= set(pf), \
                        (r, rid, v)
                    n += 1
        assert n > 0, r
        md = _md(r)
        assert md.count("đổi kết quả ở") <= md.count("(may rủi "), r
        assert md.count("changes the result in") <= md.count("(placebo "), r


def _players_measured(docs: dict[str, dict[str, Any]]) -> None:
    """Greedy and uniform runs at 4 and 5 players for the family's table, 4 for classic."""
    want = {"family": [4, 5], "classic": [4]}
    for r, doc in docs.items():
        assert doc["params"]["frequency_players"] == want[r], r
        for rid, q in doc["questions"].items():
            for v, f in q.get("frequency", {}).items():
                got = [(pf["players"], pf["policy"]) for pf in compute.measured(f)]
                assert got == [(n, p) for n in want[r] for p in ("greedy", "uniform")], \
                    (r, rid, v, got)


# (words of the README, the check that makes them true)
CLAIMS: list[tuple[str, Callable[[dict[str, dict[str, Any]]], None]]] = [
    ("for each open question a scenario where the readings part ways when one is found",
     _scenarios_counted),
    ("how often it changes the result beside a placebo", _placebo_beside),
    ("how often each choice comes up and changes the result beside a placebo", _placebo_beside),
    ("at 4 and 5 players (classic Chắn at 4)", _players_measured),
]
# what a sentence about all the questions or choices looks like
UNIVERSAL = re.compile(r"\b(every|each|all)\b[^.|]{0,20}\b(open )?(question|choice)s?\b",
                       re.IGNORECASE)


def _readme() -> str:
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


@pytest.mark.parametrize("words,check", CLAIMS, ids=[c[0][:40] for c in CLAIMS])
def test_each_claim_is_in_the_readme_and_true(
        words: str, check: Callable[[dict[str, dict[str, Any]]], None]) -> None:
    assert words in _readme(), f"the README no longer says: {words!r} (update CLAIMS)"
    check(_docs())


def test_no_other_sentence_says_what_every_question_has() -> None:
    text = _readme()
    known = [w for w, _ in CLAIMS]
    # the sentences (or table cells) of the README that speak of every question/choice
    pieces = re.split(r"(?<=[.!?])\s+|\s\|\s", text)
    loose = [p for p in pieces if UNIVERSAL.search(p) and not any(w in p for w in known)
             and "what each choice would change" not in p]  # the one-line summary: no figure
    assert not loose, ("a README sentence about every question is neither generated nor "
                       f"checked here (add it to CLAIMS with its check): {loose}")


def test_a_false_claim_would_fail() -> None:
    """The checks are not vacuous: a question stripped of its scenarios, or a figure of
    its placebo, is caught."""
    docs = _docs()
    rid = next(r for r, q in docs["family"]["questions"].items() if q.get("witness"))
    bad = json.loads(json.dumps(docs))
    bad["family"]["questions"][rid]["witness"] = None
    bad["family"]["questions"][rid]["full_witness"] = None
    with pytest.raises(AssertionError):
        _scenarios_counted(bad)
    bad = json.loads(json.dumps(docs))
    q = next(q for q in bad["family"]["questions"].values() if q.get("frequency"))
    next(iter(q["frequency"].values())).pop("placebo")
    with pytest.raises(AssertionError):
        _placebo_beside(bad)
