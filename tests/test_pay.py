"""Who pays whom when a classic hand is over (spec/classic.toml [payment]; model/chan/pay.py).

Neither seed says who pays a win: 001 [Cách tính điểm] ¶1 s1 and 000 [Cước] ¶1 s1 say
only that the winner is paid by what the hand is worth, 000 [Xướng] ¶1 s3 that a wrong
declaration costs the winner (đền), 000 [Luật đánh bài] ¶1 s1 that a fault is punished
by a scoring section the text lacks, 000 [Cước] #2 s1 names treo tranh and ù báo, and
000 [Cước] #1 s2-3 lets a house refuse small wins.  Each of those silences is an open
row (pay-payers, pay-fault, pay-below-min); the golden cases below work each reading out
by hand on a finished hand reduced to what a settlement reads (the outcome, the events
that say who gave the winning card), and the properties check random classic hands
against the same arithmetic written out here."""

from __future__ import annotations

import random
import tomllib
from types import SimpleNamespace
from typing import Any

import pytest
from chanspec.checks.report import narrate
from chanspec.model.chan import cuoc, pay, table
from chanspec.model.chan.game import State, deal_random
from hypothesis import given, settings
from hypothesis import strategies as st
from test_classic import CLASSIC_TEXT
from test_table import _has, problems_of, to_toml


def _rules(**options: str) -> table.Rules:
    return table.rules("classic", 4, {k.replace("_", "-"): v for k, v in options.items()})


def _score(total: int, ga: int = 0, allowed: bool = True) -> dict[str, Any]:
    return {"total": total, "ga": ga, "allowed": allowed, "rules": ["score-formula"]}


def _hand(winner: int | None, *, judgement: str = "correct", paid: dict[str, Any] | None = None,
          den: dict[str, Any] | None = None, faults: tuple[tuple[int, str], ...] = (),
          last: tuple[str, int] = ("draw", 0), kind: str = "u") -> SimpleNamespace:
    """A finished four-seat hand as `pay.settle` reads it: `last` is the last window's
    event (its type and seat) before the win."""
    events: list[dict[str, Any]] = [{"type": last[0], "seat": last[1], "card": "4v"}]
    if winner is None:
        return SimpleNamespace(n=4, phase="over", events=events,
                               result={"result": "draw", "winner": None,
                                       "rules": ["noc-exhausted"]})
    consequence = "den" if den is not None else ("paid" if judgement == "correct"
                                                 else "paid-named")
    res: dict[str, Any] = {
        "result": "win", "winner": winner, "kind": kind,
        "declaration": {"judgement": judgement, "consequence": consequence,
                        "paid": paid, "den": den, "rules": ["xuong"]}}
    if faults:
        res["faults"] = [{"seat": s, "action": {}, "rules": [r, "restriction-mode"]}
                         for s, r in faults]
    return SimpleNamespace(n=4, phase="over", events=events + [{"type": "end"}], result=res)


def _moves(s: pay.Settlement) -> list[tuple[int, int, int]]:
    return [(t.payer, t.payee, t.amount) for t in s.transfers]


# --------------------------------------------------------------------------- golden cases


def test_everyone_pays_a_win_and_the_giver_pays_for_the_table() -> None:
    # worth = total + gà = 10 + 5 = 15; seat 1 discarded the winning card
    hand = _hand(2, paid=_score(10, 5), last=("discard", 1))
    s = pay.settle(_rules(), hand)
    assert (s.case, s.worth, s.giver) == ("paid", 15, 1)
    assert _moves(s) == [(0, 2, 15), (1, 2, 15), (3, 2, 15)]
    assert s.net == (-15, -15, 45, -15)
    s = pay.settle(_rules(pay_payers="giver"), hand)
    assert _moves(s) == [(1, 2, 45)] and s.net == (0, -45, 45, 0)
    assert {"pay-win", "pay-payers", "xuong", "score-formula"} <= set(s.rules)


def test_a_win_on_ones_own_card_is_paid_by_each_under_both_readings() -> None:
    # seat 2 drew the card at its own gate: nobody gave it
    for last in (("draw", 2), ("discard", 2)):
        for payers in ("each", "giver"):
            s = pay.settle(_rules(pay_payers=payers), _hand(2, paid=_score(4), last=last))
            assert s.giver is None and s.net == (-4, -4, 12, -4), (last, payers)
    s = pay.settle(_rules(pay_payers="giver"), _hand(2, paid=_score(4), kind="opening"))
    assert s.giver is None and s.net == (-4, -4, 12, -4)


def test_a_wrong_declaration_is_owed_to_the_payers() -> None:
    # 000 [Xướng] ¶1 s3: naming a cước not held costs the winner; den 7
    hand = _hand(0, judgement="over", den=_score(7), last=("returned", 3))
    s = pay.settle(_rules(), hand)
    assert s.case == "den" and _moves(s) == [(0, 1, 7), (0, 2, 7), (0, 3, 7)]
    s = pay.settle(_rules(pay_payers="giver"), hand)
    assert _moves(s) == [(0, 3, 21)] and s.giver == 3


def test_an_under_declaration_is_paid_for_what_was_named() -> None:
    s = pay.settle(_rules(), _hand(1, judgement="under", paid=_score(5), last=("draw", 0)))
    assert s.case == "paid" and s.net == (-5, 15, -5, -5)


def test_treo_tranh_leaves_the_offenders_win_unpaid_and_others_faults_free() -> None:
    faulted = _hand(2, paid=_score(9), faults=((2, "loi-9-bo-chan-danh-chan"),))
    s = pay.settle(_rules(), faulted)
    assert (s.case, s.transfers, s.net, s.offender) == ("treo-tranh", (), (0,) * 4, 2)
    assert {"pay-fault", "loi-9-bo-chan-danh-chan"} <= set(s.rules)
    other = _hand(2, paid=_score(9), faults=((0, "loi-9-bo-chan-danh-chan"),))
    assert pay.settle(_rules(), other).net == (-9, -9, 27, -9)


def test_bao_makes_the_first_offender_pay_for_the_table() -> None:
    faults = ((3, "loi-14-an-roi-danh"), (0, "loi-9-bo-chan-danh-chan"))
    s = pay.settle(_rules(pay_fault="bao"), _hand(2, paid=_score(6), faults=faults))
    assert (s.case, s.offender) == ("bao", 3)
    assert _moves(s) == [(3, 2, 18)] and s.net == (0, 0, 18, -18)
    # the offender wins: ù báo, unpaid
    s = pay.settle(_rules(pay_fault="bao"), _hand(3, paid=_score(6), faults=faults))
    assert (s.case, s.net) == ("u-bao", (0,) * 4)
    # a wrong declaration is owed whoever is báo
    s = pay.settle(_rules(pay_fault="bao"), _hand(3, judgement="over", den=_score(4),
                                                  faults=faults))
    assert s.case == "den" and s.net == (4, 4, 4, -12)


def test_a_win_below_the_house_minimum() -> None:
    low = _hand(1, paid=_score(2, allowed=False), last=("discard", 0))
    s = pay.settle(_rules(), low)
    assert (s.case, s.net) == ("below-min", (0,) * 4)
    s = pay.settle(_rules(pay_below_min="den"), low)
    assert s.case == "below-min-den" and s.net == (2, -6, 2, 2)
    s = pay.settle(_rules(pay_below_min="den", pay_payers="giver"), low)
    assert _moves(s) == [(1, 0, 6)]


def test_a_drawn_or_unfinished_hand_costs_nothing() -> None:
    s = pay.settle(_rules(), _hand(None))
    assert (s.case, s.net, s.worth) == ("draw", (0,) * 4, None)
    assert s.rules == ("pay-win", "noc-exhausted")
    unfinished = SimpleNamespace(n=4, phase="discard", events=[], result=None)
    assert pay.settle(_rules(), unfinished).case == "unfinished"


def test_a_table_without_payment_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no \[payment\]"):
        pay.settle(table.rules("family", 4), _hand(None))


def test_every_case_has_words_in_both_languages() -> None:
    made = {
        "paid": _hand(2, paid=_score(3)), "den": _hand(2, judgement="over", den=_score(3)),
        "draw": _hand(None),
    }
    for case, hand in made.items():
        s = pay.settle(_rules(), hand)
        vi, en = pay.words(s)
        assert s.case == case and vi and en and vi != en


# --------------------------------------------------------------------------- properties


def _played(seed: int, options: dict[str, str]) -> State:
    rules = table.rules("classic", 4, options)
    st = State(rules, deal_random(rules, seed, drawer=seed % 4))
    narrate.play_out(st, seed, "eager" if seed % 3 else "uniform")
    return st


OPTIONS = st.fixed_dictionaries({
    "pay-payers": st.sampled_from(("each", "giver")),
    "pay-fault": st.sampled_from(("treo-tranh", "bao")),
    "pay-below-min": st.sampled_from(("unpaid", "den")),
    "score-min": st.sampled_from(("any", "four", "five")),
    "restriction-mode": st.sampled_from(("penalise", "forbid")),
    "fault-class": st.sampled_from(("one-class", "by-rule")),
    "chi-rong-giu-cho": st.sampled_from(("fined", "none")),
})


def _class(options: dict[str, str], f: dict[str, Any]) -> str:
    """A fault's cost as the rows say, written out: by rule, fault 1 is treo tranh
    ([turn] fault_classes of spec/classic.toml); otherwise pay-fault's one class."""
    if options["fault-class"] == "by-rule" and "loi-1-an-treo-tranh" in f["rules"]:
        return "treo-tranh"
    return options["pay-fault"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), options=OPTIONS)
def test_random_hands_settle_as_the_readings_say(seed: int, options: dict[str, str]) -> None:
    s_ = _played(seed, options)
    s = pay.settle(s_.rules, s_)
    assert sum(s.net) == 0 and len(s.net) == 4
    out = s_.outcome()
    if out is None:
        assert s.case == "unfinished"
        return
    if out["result"] == "draw":
        assert s.case == "draw" and not s.transfers
        return
    w = out["winner"]
    d = out["declaration"]
    sc = d["den"] if d["consequence"] == "den" else d["paid"]
    worth = sc["total"] + sc["ga"]
    assert s.worth == worth
    # the giver, against where model/chan/cuoc.py says the winning card came from
    src = cuoc.won_hand(s_).ctx.source
    assert (s.giver is None) == (out["kind"] == "opening" or src == "own-draw"
                                 or s.giver == w)
    faults = out.get("faults", [])
    mine = [f for f in faults if f["seat"] == w and _class(options, f) == "treo-tranh"]
    bao = [f for f in faults if _class(options, f) == "bao"]
    owes = d["consequence"] == "den"
    if not owes and not sc["allowed"]:
        expect = "below-min" if options["pay-below-min"] == "unpaid" else "below-min-den"
    elif (not owes and out.get("kept_chi_wait") and options["chi-rong-giu-cho"] == "fined"
          and "cuoc-u-chi-rong" in d["expected"]):
        expect = "chi-rong-fine"
    elif not owes and mine:
        expect = "treo-tranh"
    elif not owes and bao:
        expect = "u-bao" if bao[0]["seat"] == w else "bao"
    else:
        expect = "den" if owes else "paid"
    assert s.case == expect, (seed, options, s)
    if expect == "chi-rong-fine":
        assert s.net[w] == -3 * 17
    elif expect in ("treo-tranh", "u-bao", "below-min"):
        assert s.net == (0,) * 4
    elif expect == "bao":
        b = bao[0]["seat"]
        assert s.net[w] == 3 * worth and s.net[b] == -3 * worth
    else:
        sign = -1 if expect in ("den", "below-min-den") else 1
        assert s.net[w] == sign * 3 * worth
        if options["pay-payers"] == "giver" and s.giver is not None:
            assert s.net[s.giver] == -sign * 3 * worth
        else:
            assert all(s.net[x] == -sign * worth for x in range(4) if x != w)


def test_random_hands_reach_every_case_but_the_unfinished() -> None:
    # the properties above are not vacuous: seeded play meets each case somewhere
    seen: set[str] = set()
    rng = random.Random(5)
    combos = [{"pay-fault": f, "pay-below-min": b, "score-min": m}
              for f in ("treo-tranh", "bao") for b in ("unpaid", "den")
              for m in ("any", "five")]
    for i in range(400):
        opts = combos[i % len(combos)]
        st_ = _played(rng.randrange(10**6), opts)
        seen.add(pay.settle(st_.rules, st_).case)
        if seen >= set(pay.CASES) - {"unfinished"}:
            break
    # (ù chi rộng after keeping the wait is too rare for seeded play: its golden case is
    # in tests/test_classic_defects.py)
    assert seen >= set(pay.CASES) - {"unfinished", "chi-rong-fine"}, seen


# --------------------------------------------------------------------------- the table


def _data() -> dict[str, Any]:
    return tomllib.loads(CLASSIC_TEXT)


def test_bad_payment_sections_are_refused_naming_the_field() -> None:
    data = _data()
    del data["payment"]["fault_rule"]
    data["payment"]["payers_rule"] = "pay-payer"
    data["session"]["thong_breaking_faults"] = "bo-u"
    data["session"]["thong_rule"] = "cuoc-chi-chi"
    probs = problems_of(to_toml(data))
    assert _has(probs, "payment", "fault_rule", "missing"), probs
    assert _has(probs, "payment", "payers_rule", "pay-payers"), probs
    assert _has(probs, "session", "thong_breaking_faults", "list of row ids"), probs
    assert _has(probs, "session", "thong_rule", "no [[cuoc]] entry"), probs


def test_bad_fault_classes_are_refused_naming_the_field() -> None:
    data = _data()
    data["turn"]["fault_classes"] = {"loi-1-an-treo-tranhh": "treo-tranh",
                                     "loi-2-chiu-an-thuong": "kick-out"}
    probs = problems_of(to_toml(data))
    assert _has(probs, "turn", "fault_classes.loi-1-an-treo-tranhh", "did you mean"), probs
    assert _has(probs, "turn", "fault_classes.loi-2-chiu-an-thuong", "treo-tranh, bao"), probs
    data = _data()
    del data["turn"]["fault_class_rule"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "turn", "fault_classes", "fault_class_rule"), probs
    data = _data()
    del data["payment"]
    del data["session"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "turn", "fault_class_rule", "[payment] fault_rule"), probs
    data = _data()
    data["turn"]["fault_classes"] = []
    assert _has(problems_of(to_toml(data)), "turn", "fault_classes", "rule id = class")


def test_a_payment_row_must_offer_the_values_the_module_knows() -> None:
    data = _data()
    row = next(r for r in data["rule"] if r["id"] == "pay-fault")
    row["values"]["kick-out"] = dict(row["values"]["bao"])
    probs = problems_of(to_toml(data))
    assert _has(probs, "payment", "fault_rule", "treo-tranh, bao"), probs


def test_a_session_needs_payment() -> None:
    data = _data()
    del data["payment"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "session", "rule", "[payment]"), probs


def test_settlements_cite_rows_of_the_table() -> None:
    rules = _rules(pay_fault="bao")
    for seed in range(30):
        st_ = _played(seed, {"pay-fault": "bao"})
        s = pay.settle(rules, st_)
        cited = set(s.rules) | {r for t in s.transfers for r in t.rules}
        assert cited and cited <= set(rules.table.rows), (seed, cited - set(rules.table.rows))


# --------------------------------------------------------------------------- báo in play


def test_a_bao_seat_only_draws_passes_and_wins() -> None:
    # pay-fault=bao: from the first fault on, its seat may not eat or chíu ([turn]
    # fault_play_rule); every refusal says so, citing the row and the fault's rows
    rules = _rules(pay_fault="bao")
    became = 0
    for seed in range(40):
        s_ = State(rules, deal_random(rules, seed, drawer=seed % 4))
        rng = random.Random(seed)
        after: list[Any] = []  # the báo seat's actions once it is báo
        while not s_.is_terminal() and s_.legal_actions():
            b = s_.bao_seat()
            if b is not None:
                for a in s_.candidate_actions(b):
                    if a.kind in CLAIMS_BARRED:
                        assert not s_.is_legal(a)
                        why = s_.explain(a)
                        assert why.rules[0] == "pay-fault", why
                        assert why.rules[1:] == tuple(s_.faults[0]["rules"])
            a = rng.choice(s_.legal_actions())
            if b is not None and a.seat == b:
                after.append(a)
            s_.apply(a)
        if s_.bao_seat() is not None:
            became += 1
            assert not [a for a in after if a.kind in CLAIMS_BARRED], (seed, after)
    assert became >= 10, became


CLAIMS_BARRED = ("eat", "chiu", "chiu-u", "reclaim")


def test_bao_plays_like_treo_tranh_up_to_the_first_fault() -> None:
    # the reading acts only once a seat has committed a fault: until then both readings
    # allow exactly the same actions at every step
    b_rules = _rules(pay_fault="bao")
    compared = 0
    for seed in range(30):  # faults come early: a few steps per hand
        a = _played(seed, {"pay-fault": "treo-tranh"})
        x, y = State(a.rules, a.deal), State(b_rules, a.deal)
        for act in a.history:
            if y.faults:
                break
            assert set(x.legal_actions()) == set(y.legal_actions()), (seed, len(x.history))
            compared += 1
            x.apply(act)
            y.apply(act)
    assert compared > 80, compared


def test_the_packed_machine_refuses_bao() -> None:
    from chanspec.model.chan import packed

    assert packed.unsupported(_rules(pay_fault="bao")) is not None
