"""How often each cước and each fault comes up in seeded random play of classic Chắn
(checks/chan/cuoc_freq.py; ``chanspec score --frequency N --seed S``).

The counts are checked against a second, independent pass over the same hands: each
hand replayed from its seed, its faults summed from ``result["faults"]`` (or
``State.faults`` for a hand that never ended), its win judged through the CLI's own
scorer from the hand's log."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from chanspec.checks.chan import cuoc_freq
from chanspec.checks.cli.cmd_score import evaluate
from chanspec.model.chan import cuoc, table
from test_classic import run_cli

N = 40


def _rules() -> table.Rules:
    return table.rules("classic", 4)


def test_reproducible_by_seed() -> None:
    a = cuoc_freq.frequency(_rules(), N, seed=5).as_json()
    b = cuoc_freq.frequency(_rules(), N, seed=5).as_json()
    c = cuoc_freq.frequency(_rules(), N, seed=6).as_json()
    assert a == b
    assert a != c
    assert a["hand_seeds"] == f"{5_000_000}..{5_000_000 + N - 1}"


@pytest.mark.parametrize("policy", ["greedy", "uniform"])
def test_counts_agree_with_an_independent_pass(policy: str) -> None:
    rules = _rules()
    f = cuoc_freq.frequency(rules, N, seed=2, policy=policy)
    assert f.hands == N == sum(f.ended.values())
    faults = 0
    by_row: Counter[str] = Counter()
    declared: Counter[str] = Counter()
    wins = 0
    for i in range(N):
        st = cuoc_freq.play(rules, cuoc_freq.hand_seed(2, i), policy)
        recs = (st.result or {}).get("faults", st.faults)
        faults += len(recs)
        by_row.update(r for x in recs for r in x["rules"])
        if st.result is not None and st.result["result"] == "win":
            wins += 1
            won = cuoc.won_hand(st)
            res = evaluate(rules, list(won.hand), list(won.laid), won.ctx)
            j = res["judgement"]
            assert j is not None and len(j.declared) >= 1  # ù xuông when nothing else
            declared.update(h.row for h in j.declared)
    assert f.fault_records == faults and f.faults == by_row
    assert f.wins == wins and sum(f.totals.values()) == wins
    assert f.declared == declared
    for row, n in f.declared.items():
        assert n <= f.held[row] and f.times[row] >= n
    assert all(f.fault_hands[r] <= min(f.hands, f.faults[r]) for r in f.faults)
    if policy == "greedy":
        assert wins > 0 and faults > 0  # the check has something to compare


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        cuoc_freq.frequency(_rules(), 1, policy="smart")


def test_cli_frequency_json_and_text() -> None:
    code, out, err = run_cli("score", "--frequency", "12", "--seed", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc == {"options": {}, **cuoc_freq.frequency(_rules(), 12, 4).as_json()}
    code, out, _ = run_cli("score", "--frequency", "12", "--seed", "4", "--lang", "en")
    assert code == 0 and "seed 4" in out and "Faults of the rules of play" in out
    code, _, err = run_cli("score", "--frequency", "0")
    assert code == 2 and "--frequency" in err
    code, _, err = run_cli("score", "--frequency", "3", "--log", "x.ndjson")
    assert code == 2 and "--log" in err
    code, _, err = run_cli("score", "--frequency", "3", "--ruleset", "family")
    assert code == 2 and "no cước" in err
