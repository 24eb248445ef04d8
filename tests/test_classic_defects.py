"""Golden cases for the classic table's known defects (issue 25, item 5), each checked by
hand against seed 000 and citing the section it follows.

Positions are hand-made: seat 1 (19 cards) is given in full, seat 0 (the opener) holds
the card it discards first; the rest of the deck fills seat 0 and the nọc.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State

CLASSIC = table.load("classic")


def _rules(players: int = 2, **options: str) -> table.Rules:
    return CLASSIC.resolve(players, {k.replace("_", "-"): v for k, v in options.items()})


def _deal(rules: table.Rules, hands: Sequence[Sequence[str]], noc: Sequence[str]) -> Deal:
    rest = [f for f in rules.faces for _ in range(rules.copies)]
    for c in [c for h in hands for c in h] + list(noc):
        rest.remove(cards.parse(c))
    random.Random(7).shuffle(rest)
    out: list[tuple[int, ...]] = []
    for seat, h in enumerate(hands):
        k = rules.variant.opener_cards if seat == 0 else rules.variant.other_cards
        fill = [rest.pop() for _ in range(k - len(h))]
        out.append(tuple(sorted([cards.parse(c) for c in h] + fill)))
    return Deal(tuple(out), tuple(cards.parse(c) for c in noc) + tuple(rest), 0)


def _offered(hand: Sequence[str], discard: str, **options: str) -> State:
    """Seat 0 discards `discard`; seat 1, holding `hand`, may eat it (eat-discard)."""
    assert len(hand) == 19
    rules = _rules(restriction_mode="penalise", **options)
    s = State(rules, _deal(rules, [[discard], hand], ["chi"]))
    s.apply(Action("discard", 0, cards.parse(discard)))
    assert s.phase == "window" and s.window is not None and s.window.turn == 1
    return s


def _fault_rows(s: State, act: Action) -> set[str]:
    """The rows of play a legal `act` breaks here: those the forbid twin cites."""
    assert act in s.legal_actions(act.seat)
    forbid = s.under(s.rules.with_options(restriction_mode="forbid"))
    if act in forbid.legal_actions(act.seat):
        return set()
    return {r for r in forbid.explain(act).rules if r.startswith("loi-")}


FIVE_CHAN = ["2v", "2v", "3v", "3v", "4v", "4v", "2n", "2n", "3n", "3n"]


# ---------------------------------------------------------------- (a) rule 4, waiting


def test_rule_4_needs_a_hand_waiting_to_win() -> None:
    """000 [Luật đánh bài] #4 s1-3: the fault is eating a cạ with the card one waits on
    to win (the example: 5 chắn or more, one què, no ba đầu).  Three chắn, six cạ and a
    loose Cửu Vạn wait on nothing (a tenth pair would leave 4 chắn, not 6): eating the
    discarded Cửu Văn with that Cửu Vạn breaks no rule."""
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5n", "6v", "6n", "7v", "7n",
            "8v", "8n", "2n", "2s", "3n", "3s", "9v"]
    s = _offered(hand, "9n")
    assert _fault_rows(s, Action("eat", 1, cards.parse("9v"))) == set()
    # 001's reading (one loose card left, whatever the wait) still faults it
    s = _offered(hand, "9n", loi_4_an_ca_chuyen_cho="one-loose-card")
    assert _fault_rows(s, Action("eat", 1, cards.parse("9v"))) == {"loi-4-an-ca-chuyen-cho"}


def test_rule_4_as_000s_example() -> None:
    """000 [Luật đánh bài] #4 s2-3: five chắn, four cạ, only Cửu Vạn loose, no ba đầu (a
    Cửu Vạn completes six chắn): eating Cửu Văn with the Cửu Vạn is rule 4, alone."""
    hand = FIVE_CHAN + ["5v", "5n", "6v", "6n", "7v", "7n", "8v", "8n", "9v"]
    s = _offered(hand, "9n")
    assert _fault_rows(s, Action("eat", 1, cards.parse("9v"))) == {"loi-4-an-ca-chuyen-cho"}


# ---------------------------------------------------------------- (b) ba đầu wait


@pytest.mark.parametrize("used", ["9v", "9s"])
def test_a_ba_dau_wait_is_rule_1_only(used: str) -> None:
    """000 [Luật đánh bài] #4 s4: waiting on a ba đầu of Cửu and eating Cửu Văn with a
    Cửu of the ba đầu is treo tranh (rule 1), not rule 4, whichever Cửu is used (it used
    to depend on the first face in deck order); nor rule 3 (a ba đầu is no held cạ)."""
    hand = FIVE_CHAN + ["5v", "5n", "6v", "6n", "7v", "7n", "9v", "9n", "9s"]
    s = _offered(hand, "9n")
    assert _fault_rows(s, Action("eat", 1, cards.parse(used))) == {"loi-1-an-treo-tranh"}


# ---------------------------------------------------------------- (c) rule 1's example


def test_rule_1s_own_example_is_not_rule_3() -> None:
    """000 [Luật đánh bài] #1 s2: holding Cửu Vạn and Cửu Văn, taking Cửu Vạn and laying
    Cửu Văn with it as a cạ is rule 1 (ăn treo tranh) only, although the two held made a
    cạ (rule 3's wording, #3 s1)."""
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5n", "6v", "6n", "7v", "7n",
            "8v", "8n", "2n", "2s", "3n", "9v", "9n"]
    s = _offered(hand, "9v")
    assert _fault_rows(s, Action("eat", 1, cards.parse("9n"))) == {"loi-1-an-treo-tranh"}


def test_rule_3s_own_example_is_still_rule_3() -> None:
    """000 [Luật đánh bài] #3 s2: with the cạ Cửu Vạn + Cửu Văn, eating Cửu Sách with the
    Cửu Vạn is rule 3; #3 s3-4: one Cửu Vạn beside two Cửu Văn is no cạ, so eating Cửu
    Sách with that Cửu Vạn is not."""
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5n", "6v", "6n", "7v", "7n",
            "8v", "8n", "2n", "2s", "3n", "9v", "9n"]
    s = _offered(hand, "9s")
    assert _fault_rows(s, Action("eat", 1, cards.parse("9v"))) == {"loi-3-an-chon-ca"}
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5n", "6v", "6n", "7v", "7n",
            "8v", "8n", "2n", "2s", "9n", "9v", "9n"]
    s = _offered(hand, "9s")
    assert "loi-3-an-chon-ca" not in _fault_rows(s, Action("eat", 1, cards.parse("9v")))


# ---------------------------------------------------------------- (d) the hoa cước


def _won(hand: str, card: str, laid: tuple[str, ...], **options: str) -> set[str]:
    """The cước declared for a win on `card` drawn by the winner (chì)."""
    from chanspec.model.chan import cuoc, win

    rules = table.rules("classic", 4, {k.replace("_", "-"): v for k, v in options.items()})
    held = cards.parse_many(hand)
    groups = [win.group_of(cards.parse_many(g), rules) for g in laid]
    w = cards.parse(card)
    verdict = win.engine(rules).judge(held, groups, w, "u")
    assert verdict.win, verdict.reason_en
    concealed = cards.counts(held)
    for g in groups:
        for f in g.faces:
            concealed[f] -= 1
    concealed[w] += 1
    ctx = cuoc.WinContext(kind="u", card=w, source="own-draw")
    return {h.row for h in cuoc.judge(rules, concealed, groups, verdict, ctx).declared}


def test_hoa_counts_an_eaten_chan_or_a_chiu_of_the_face_not_a_ca() -> None:
    """000 [Cước] #21 s2: Ngũ Vạn 'on the mat' means a chắn of Ngũ Vạn eaten, or a chíu of
    it.  A chì bạch thủ on Nhị Vạn whose only laid Ngũ Vạn is in the cạ Ngũ Vạn + Ngũ Văn
    is a plain chì bạch thủ (chắn 3n 4s 7v 9n 8n and the winning 2v; cạ 5v-5n laid, 3v-3s,
    6n-6s, 7n-7s; the loose Nhị Vạn waits alone), not hoa rơi cửa phật (20 points)."""
    hand = "5v 5n 3n 3n 4s 4s 7v 7v 9n 9n 3v 3s 6n 6s 7n 7s 8n 8n 2v"
    got = _won(hand, "2v", ("5v 5n",))
    assert {"cuoc-chi", "cuoc-bach-thu"} <= got and "cuoc-hoa-roi-cua-phat" not in got
    # a chíu of Ngũ Vạn (two chắn) does count: chắn 3n 4s 7v, cạ 3v-3s 6n-6s 7n-7s 8n-8s
    hand = "5v 5v 5v 5v 3n 3n 4s 4s 7v 7v 3v 3s 6n 6s 7n 7s 8n 8s 2v"
    got = _won(hand, "2v", ("5v 5v 5v 5v",))
    assert "cuoc-hoa-roi-cua-phat" in got and not {"cuoc-chi", "cuoc-bach-thu"} & got


def test_cuoc_dat_trong_hoa_does_not_count_a_laid_ca_either() -> None:
    """000 [Cước] #25 s1-2 (like #21, Lục Vạn for Ngũ Vạn; #21 s2 explains 'on the mat'):
    a laid cạ Lục Vạn + Lục Văn is no cuốc đất trồng hoa."""
    hand = "6v 6n 3n 3n 4s 4s 7v 7v 9n 9n 3v 3s 5n 5s 7n 7s 8n 8n 2v"
    got = _won(hand, "2v", ("6v 6n",))
    assert "cuoc-cuoc-dat-trong-hoa" not in got and "cuoc-bach-thu" in got


def test_laid_chan_takes_a_list_of_faces() -> None:
    """A clear error names the entry and field when `laid_chan` is not a list of faces."""
    import tomllib

    from test_classic import CLASSIC_TEXT
    from test_table import _has, problems_of, to_toml

    data = tomllib.loads(CLASSIC_TEXT)
    entry = next(c for c in data["cuoc"] if c["rule"] == "cuoc-hoa-roi-cua-phat")
    entry["all"][-1] = {"laid_chan": "5v", "ge": 1}
    probs = problems_of(to_toml(data))
    assert _has(probs, "cuoc 'cuoc-hoa-roi-cua-phat'", "all[3].laid_chan", "list of face"), probs
    entry["all"][-1] = {"laid_chan": ["5x"], "ge": 1}
    assert problems_of(to_toml(data))


# ---------------------------------------------------------------- (f) a cost per fault


RULE_1_HAND = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5n", "6v", "6n", "7v", "7n",
               "8v", "8n", "2n", "2s", "3n", "9v", "9n"]


def _after_fault(hand: Sequence[str], discard: str, used: str, **options: str) -> State:
    """Seat 1 eats the discarded `discard` with `used` under restriction-mode=penalise
    and pay-fault=bao (the act stands and is recorded as a fault)."""
    s = _offered(hand, discard, pay_fault="bao", **options)
    s.apply(Action("eat", 1, cards.parse(used)))
    assert s.faults and s.faults[0]["seat"] == 1
    return s


def test_rule_1_is_treo_tranh_by_its_name_under_a_cost_per_fault() -> None:
    """000 [Luật đánh bài] #1 s1 calls fault 1 "ăn treo tranh"; [Cước] #2 s1 speaks of a
    báo win.  Read by rule (fault-class=by-rule), the rule-1 fault of 000's own example
    (#1 s2) does not make seat 1 báo, though pay-fault reads báo; read as one cost for
    every fault (the default), it does, as before."""
    one = _after_fault(RULE_1_HAND, "9v", "9n")
    assert "loi-1-an-treo-tranh" in one.faults[0]["rules"]
    assert one.bao_seat() == 1
    per = _after_fault(RULE_1_HAND, "9v", "9n", fault_class="by-rule")
    assert per.faults == one.faults and per.bao_seat() is None


def test_rule_3_follows_pay_fault_under_a_cost_per_fault() -> None:
    """Fault 3 (000 [Luật đánh bài] #3 s2's example) has no cost named by the text: read
    by rule it follows pay-fault, báo here."""
    s = _after_fault(RULE_1_HAND, "9s", "9v", fault_class="by-rule")
    assert "loi-3-an-chon-ca" in s.faults[0]["rules"]
    assert s.bao_seat() == 1


def test_settling_a_cost_per_fault() -> None:
    """The settlement of a hand whose winner committed fault 1 (by rule: treo tranh,
    unpaid), against one whose winner committed fault 9 (by rule: pay-fault's báo, ù báo,
    unpaid) and one where another seat's fault 1 comes first and seat 2's fault 9 second
    (by rule: seat 2 is the báo seat and pays for the table)."""
    from types import SimpleNamespace

    from chanspec.model.chan import pay

    def hand(winner: int, faults: Sequence[tuple[int, str]]) -> SimpleNamespace:
        score = {"total": 6, "ga": 0, "allowed": True, "rules": ["score-formula"]}
        res = {"result": "win", "winner": winner, "kind": "u",
               "declaration": {"judgement": "correct", "consequence": "paid", "paid": score,
                               "den": None, "rules": ["xuong"]},
               "faults": [{"seat": s, "action": {}, "rules": [r, "restriction-mode"]}
                          for s, r in faults]}
        return SimpleNamespace(n=4, phase="over", result=res,
                               events=[{"type": "draw", "seat": 0, "card": "4v"},
                                       {"type": "end"}])

    by_rule = table.rules("classic", 4, {"pay-fault": "bao", "fault-class": "by-rule"})
    one = table.rules("classic", 4, {"pay-fault": "bao"})
    s = pay.settle(by_rule, hand(1, [(1, "loi-1-an-treo-tranh")]))
    assert (s.case, s.net, s.offender) == ("treo-tranh", (0,) * 4, 1)
    assert {"fault-class", "loi-1-an-treo-tranh"} <= set(s.rules)
    assert pay.settle(one, hand(1, [(1, "loi-1-an-treo-tranh")])).case == "u-bao"
    s = pay.settle(by_rule, hand(1, [(1, "loi-9-bo-chan-danh-chan")]))
    assert s.case == "u-bao"
    s = pay.settle(by_rule, hand(3, [(0, "loi-1-an-treo-tranh"), (2, "loi-9-bo-chan-danh-chan")]))
    assert (s.case, s.offender, s.net) == ("bao", 2, (0, 0, -18, 18))
    # one cost for every fault: the first offender, seat 0, is the báo seat
    s = pay.settle(one, hand(3, [(0, "loi-1-an-treo-tranh"), (2, "loi-9-bo-chan-danh-chan")]))
    assert (s.case, s.offender) == ("bao", 0)


# ---------------------------------------------------------------- (e) keeping the Chi wait


CHI_WAIT = ["2v", "2v", "3v", "3v", "4v", "4v", "2n", "2n", "3n", "3n", "4n", "4n",
            "5v", "5n", "6v", "6n", "7v", "7n", "chi"]


def _play_to_the_end(s: State) -> State:
    """Seat 1 wins when it may and declares what it holds; otherwise every seat passes
    when it may, or plays its first legal action."""
    while s.phase != "over":
        legal = s.legal_actions()
        pick = (next((a for a in legal if a.kind == "u"), None)
                or next((a for a in legal if a.kind == "declare"), None)
                or next((a for a in legal if a.kind == "pass"), legal[0]))
        s.apply(pick)
    return s


@pytest.mark.parametrize("fine", ["fined", "none"])
def test_keeping_the_chi_wait_then_winning_chi_rong(fine: str) -> None:
    """000 [Cước] #20 s1 and ¶3 s2-3 (the note under it): six chắn, three cạ and Chi Chi
    alone loose is the ù chi rộng wait (chi-completes=chi-rong lets it win).  Letting the
    discarded Nhị Văn go, which it could eat, keeps the wait; then drawing the other Chi
    Chi wins ù chi rộng, and (chi-rong-giu-cho=fined) that win is unpaid and the winner
    pays the 17 points of the fine (two seats: 17 to the other)."""
    from chanspec.model.chan import pay

    s = _offered(CHI_WAIT, "2n", chi_completes="chi-rong", chi_rong_giu_cho=fine)
    assert Action("eat", 1, cards.parse("2n")) in s.legal_actions(1)
    s.apply(Action("pass", 1))
    assert s.kept_chi == [False, fine == "fined"]
    _play_to_the_end(s)
    assert s.result is not None and s.result["winner"] == 1
    assert "cuoc-u-chi-rong" in s.result["declaration"]["expected"]
    settled = pay.settle(s.rules, s)
    if fine == "fined":
        assert s.result["kept_chi_wait"] == ["chi-rong-giu-cho"]
        assert (settled.case, settled.net) == ("chi-rong-fine", (17, -17))
        assert {"chi-rong-giu-cho", "cuoc-u-chi-rong"} <= set(settled.rules)
    else:
        assert "kept_chi_wait" not in s.result and settled.case == "paid"


def test_changing_the_wait_is_no_fine() -> None:
    """Eating the Nhị Văn and discarding the Chi Chi (what the note, 000 [Cước] ¶3 s2-3,
    asks for) records nothing; a hand not waiting on Chi Chi alone records nothing when it
    passes."""
    s = _offered(CHI_WAIT, "2n", chi_completes="chi-rong")
    s.apply(Action("eat", 1, cards.parse("2n")))
    assert s.kept_chi == [False, False]
    other = [*CHI_WAIT[:-1], "8v"]  # the loose card is Bát Vạn, not Chi Chi
    s = _offered(other, "2n", chi_completes="chi-rong")
    s.apply(Action("pass", 1))
    assert s.kept_chi == [False, False]
