"""Cước of the final hand in classic Chắn ([[cuoc]] in spec/classic.toml, model/chan/cuoc.py).

Golden hands are checked by hand against the seeds' cước sections: seed 000 "[Cước]"
items 13-18 (thập thành, bạch định, tám đỏ, kính tứ chi, lèo, tôm) and seed 001
"[Cách tính điểm]" bullets 4, 5, 11-14 (their điểm and dịch).  The property test compares
the evaluation with an independent brute force over the hand's card list."""

from __future__ import annotations

import copy
import functools
import json
import tomllib
from typing import Any

from chanspec.model.chan import cards, cuoc, table, win
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_classic import CLASSIC_TEXT, run_cli
from test_table import _has, problems_of, to_toml

RED = {"chi", "8v", "8s", "9v", "9s"}
FACES = [f"{r}{s}" for s in "vns" for r in range(2, 10)] + ["chi"]


def _judge(hand: str, with_card: str, laid: tuple[str, ...] = (),
           **options: str) -> tuple[table.Rules, list[cuoc.CuocHit]]:
    rules = table.rules("classic", 4, options or None)
    held = cards.parse_many(hand)
    groups = [win.group_of(cards.parse_many(g), rules) for g in laid]
    w = cards.parse(with_card)
    verdict = win.engine(rules).judge(held, groups, w, "u")
    assert verdict.win, verdict.reason_en
    concealed = cards.counts(held)
    for g in groups:
        for f in g.faces:
            concealed[f] -= 1
    concealed[w] += 1
    return rules, cuoc.hand_cuoc(rules, concealed, groups, verdict)


def _rows(hits: list[cuoc.CuocHit]) -> dict[str, cuoc.CuocHit]:
    return {h.row: h for h in hits}


# --------------------------------------------------------------------------- golden hands


def test_ten_chan_all_black_is_thap_thanh_and_bach_dinh() -> None:
    # 000 [Cước] #13 (ten chắn) and #14 (no red card); 001 •14 12/9, •11 7/4
    _, hits = _judge("2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 7s 2n 2n 3s 3s 4v 4v 5n", "5n")
    got = _rows(hits)
    assert set(got) == {"cuoc-thap-thanh", "cuoc-bach-dinh"}
    assert (got["cuoc-thap-thanh"].diem, got["cuoc-thap-thanh"].dich) == (12, 9)
    assert (got["cuoc-bach-dinh"].diem, got["cuoc-bach-dinh"].dich) == (7, 4)
    assert got["cuoc-thap-thanh"].name_vi == "Thập thành"


def test_eight_red_is_tam_do_and_nine_is_not() -> None:
    # 000 [Cước] #15: exactly eight red; 001 •12: eight red, twelve black, 8/5
    _, hits = _judge("8v 8v 8s 8s 9v 9v 9s 9s 2v 2v 3n 3n 4s 4s 5v 5v 6n 6v 7s", "7n")
    assert set(_rows(hits)) == {"cuoc-tam-do"}
    assert (hits[0].diem, hits[0].dich) == (8, 5)
    # the cạ of Lục swapped for a cạ of Bát (8n + 8v): nine red, no tám đỏ
    _, hits = _judge("8v 8v 8s 8s 9v 9v 9s 9s 2v 2v 3n 3n 4s 4s 5v 5v 8n 8v 7s", "7n")
    assert "cuoc-tam-do" not in _rows(hits)


def test_four_chi_as_the_only_red_is_kinh_tu_chi() -> None:
    # 000 [Cước] #16: exactly four red, all Chi Chi; 001 •13: four chi, sixteen black, 12/9
    _, hits = _judge("chi chi chi chi 2v 2v 3n 3n 4s 4s 5v 5v 6n 6v 7s 7n 2n 2n 3s", "3s")
    assert set(_rows(hits)) == {"cuoc-kinh-tu-chi"}
    assert (hits[0].diem, hits[0].dich) == (12, 9)
    # a chắn of Bát Vạn instead of Nhị Vạn: six red cards, no kính tứ chi
    _, hits = _judge("chi chi chi chi 8v 8v 3n 3n 4s 4s 5v 5v 6n 6v 7s 7n 2n 2n 3s", "3s")
    assert "cuoc-kinh-tu-chi" not in _rows(hits)


def test_two_sets_of_leo_and_a_tom() -> None:
    # 000 [Cước] #17 (up to four lèo, one per set) and #18; 001 •5 5/2, •4 4/1
    hand = "chi chi 9v 9v 8s 8s 9v 9s 8s 8v 3v 3v 3s 3s 7n 7n 2v 2v 4n"
    _, hits = _judge(hand, "4n")
    got = _rows(hits)
    assert set(got) == {"cuoc-leo", "cuoc-tom"}
    assert got["cuoc-leo"].times == 2 and (got["cuoc-leo"].diem, got["cuoc-leo"].dich) == (5, 2)
    assert got["cuoc-tom"].times == 1 and (got["cuoc-tom"].diem, got["cuoc-tom"].dich) == (4, 1)
    # 001 read literally (open row cuoc-leo-count): lèo counts once
    _, hits = _judge(hand, "4n", **{"cuoc-leo-count": "once"})
    assert _rows(hits)["cuoc-leo"].times == 1


def test_laid_cards_are_part_of_the_final_hand() -> None:
    # a laid chíu of Bát Vạn (two chắn, row chiu-counts-two) keeps thập thành and is red
    hand = "8v 8v 8v 8v 3n 3n 4s 4s 5v 5v 6n 6n 7s 7s 2n 2n 3s 3s 4v"
    _, hits = _judge(hand, "4v", laid=("8v 8v 8v 8v",))
    assert set(_rows(hits)) == {"cuoc-thap-thanh"}


def test_a_hand_with_no_cuoc() -> None:
    _, hits = _judge("2v 2v 3n 3n 4s 4s 5v 5v 6n 6v 7s 7n 2n 2n 3s 3s 4n 4n 8v", "8v")
    assert hits == []
    code, out, _ = run_cli("win", "--ruleset", "classic", "--lang", "en", "2v", "2v", "3n",
                           "3n", "4s", "4s", "5v", "5v", "6n", "6v", "7s", "7n", "2n", "2n",
                           "3s", "3s", "4n", "4n", "8v", "--with", "8v")
    assert code == 0 and "none of the table's cước" in out


def test_a_losing_hand_has_no_cuoc() -> None:
    rules = table.rules("classic", 4)
    held = cards.parse_many("2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 7s 2n 2n 3s 3s 4v 4v 5n")
    verdict = win.engine(rules).judge(held, [], cards.parse("9s"), "u")
    assert not verdict.win
    assert cuoc.hand_cuoc(rules, cards.counts(held), [], verdict) == []


def test_cli_shows_and_carries_the_cuoc() -> None:
    args = ["win", "--ruleset", "classic", "2v", "2v", "3n", "3n", "4s", "4s", "5v", "5v",
            "6n", "6n", "7s", "7s", "2n", "2n", "3s", "3s", "4v", "4v", "5n", "--with", "5n"]
    code, out, _ = run_cli(*args)
    assert code == 0
    assert "Thập thành" in out and "[cuoc-thap-thanh]" in out and "12 điểm" in out
    code, out, _ = run_cli(*args, "--json")
    doc = json.loads(out)
    assert [c["row"] for c in doc["cuoc"]] == ["cuoc-thap-thanh", "cuoc-bach-dinh"]
    assert doc["cuoc"][1] == {"row": "cuoc-bach-dinh", "name_vi": "Bạch định",
                              "name_en": "Bạch định (no red card)", "times": 1,
                              "diem": 7, "dich": 4}


def test_family_output_has_no_cuoc_key() -> None:
    code, out, _ = run_cli("win", "--json", "2v", "2v", "3n", "3n", "4s", "4s", "5v", "5v",
                           "6n", "6n", "7s", "8v", "8v", "9n", "9n", "1v", "1v", "2n", "2n",
                           "3s", "3s", "4v", "4v", "--with", "7s")
    assert code == 0 and "cuoc" not in json.loads(out)


# --------------------------------------------------------------------------- loader errors


def _cuoc_data() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(CLASSIC_TEXT))


def _entry(data: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(c for c in data["cuoc"] if c["rule"] == rid)


def test_unknown_selector_is_refused_naming_row_and_field() -> None:
    data = _cuoc_data()
    _entry(data, "cuoc-bach-dinh")["all"][0]["count"] = "reds"
    probs = problems_of(to_toml(data))
    assert _has(probs, "cuoc 'cuoc-bach-dinh'", "all[0].count", "unknown selector", "red"), probs


def test_bad_comparisons_are_refused() -> None:
    data = _cuoc_data()
    _entry(data, "cuoc-tam-do")["all"][0] = {"count": "red", "eq": 8, "ge": 1}
    _entry(data, "cuoc-tom")["all"][0] = {"sets": ["3v", "3s", "7n"], "gt": 1}
    _entry(data, "cuoc-bach-dinh")["all"][0]["eq"] = "none"
    probs = problems_of(to_toml(data))
    assert _has(probs, "cuoc 'cuoc-tam-do'", "all[0]", "exactly one comparison"), probs
    assert _has(probs, "cuoc 'cuoc-tom'", "all[0].gt", "unknown key"), probs
    assert _has(probs, "cuoc 'cuoc-bach-dinh'", "all[0].eq", "whole number"), probs


def test_other_cuoc_mistakes_are_refused() -> None:
    data = _cuoc_data()
    _entry(data, "cuoc-leo")["all"][0]["sets"] = ["9v", "8x"]
    del _entry(data, "cuoc-leo")["times_if"]["is"]
    _entry(data, "cuoc-tom")["rule"] = "cuoc-tomm"
    _entry(data, "cuoc-kinh-tu-chi")["dich"] = -1
    _entry(data, "cuoc-thap-thanh")["all"] = []
    probs = problems_of(to_toml(data))
    assert _has(probs, "cuoc 'cuoc-leo'", "all[0].sets[1]"), probs
    assert _has(probs, "cuoc 'cuoc-leo'", "times_if"), probs
    assert _has(probs, "cuoc 'cuoc-tomm'", "rule", "no [[rule]] row", "cuoc-tom"), probs
    assert _has(probs, "cuoc 'cuoc-kinh-tu-chi'", "dich", "whole number"), probs
    assert _has(probs, "cuoc 'cuoc-thap-thanh'", "all", "non-empty"), probs


def test_a_cuoc_row_needs_a_title() -> None:
    data = _cuoc_data()
    row = next(r for r in data["rule"] if r["id"] == "cuoc-tom")
    del row["title_en"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "cuoc-tom", "title_en", "[[cuoc]]"), probs


# --------------------------------------------------------------------------- property


def _max_chan(hand: tuple[str, ...]) -> int | None:
    """Largest chắn count over every split of `hand` into pairs (chắn: two identical
    cards; cạ: one rank, two suits; Chi Chi only as a chắn), by brute force."""

    @functools.cache
    def best(rest: tuple[str, ...]) -> int | None:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        out: int | None = None
        for i, c in enumerate(others):
            if c == first:
                gain = 1
            elif first != "chi" and c != "chi" and c[0] == first[0]:
                gain = 0
            else:
                continue
            sub = best(others[:i] + others[i + 1:])
            if sub is not None and (out is None or sub + gain > out):
                out = sub + gain
        return out

    return best(tuple(sorted(hand)))


@st.composite
def winning_hands(draw: st.DrawFn) -> list[str]:
    left = {f: 4 for f in FACES}
    out: list[str] = []
    n_chan = draw(st.integers(6, 10))
    for k in range(10):
        if k < n_chan:
            f = draw(st.sampled_from([f for f in FACES if left[f] >= 2]))
            left[f] -= 2
            out += [f, f]
        else:
            rank = draw(st.sampled_from("23456789"))
            suits = draw(st.permutations("vns"))[:2]
            a, b = (f"{rank}{s}" for s in suits)
            assume(left[a] and left[b])
            left[a] -= 1
            left[b] -= 1
            out += [a, b]
    return out


@settings(max_examples=150, deadline=None)
@given(winning_hands(), st.sampled_from(["each-set", "once"]))
def test_evaluation_matches_brute_force(hand: list[str], leo: str) -> None:
    rules = table.rules("classic", 4, {"cuoc-leo-count": leo})
    last = next(i for i in range(len(hand) - 1, -1, -1) if hand[i] != "chi")
    held = hand[:last] + hand[last + 1:]
    w = cards.parse(hand[last])
    verdict = win.engine(rules).judge(cards.parse_list(held), [], w, "u")
    assume(verdict.win)
    counts = cards.counts(cards.parse_list(hand))
    # each measure against a count over the card list
    red = sum(c in RED for c in hand)
    assert cuoc.measure({"count": "red"}, rules, counts, verdict) == red
    assert cuoc.measure({"count": "black"}, rules, counts, verdict) == 20 - red
    assert cuoc.measure({"count": "cards"}, rules, counts, verdict) == len(hand)
    assert cuoc.measure({"count": ["chi", "2v"]}, rules, counts, verdict) == sum(
        c in ("chi", "2v") for c in hand)
    leo_sets = min(hand.count("9v"), hand.count("8s"), hand.count("chi"))
    tom_sets = min(hand.count("3v"), hand.count("3s"), hand.count("7n"))
    assert cuoc.measure({"sets": ["9v", "8s", "chi"]}, rules, counts, verdict) == leo_sets
    chan = _max_chan(tuple(hand))
    assert cuoc.measure({"count": "chan"}, rules, counts, verdict) == chan
    # each cước as the seed texts define it (000 [Cước] #13-18)
    want = {
        "cuoc-thap-thanh": chan == 10,
        "cuoc-bach-dinh": red == 0,
        "cuoc-tam-do": red == 8,
        "cuoc-kinh-tu-chi": hand.count("chi") == 4 and red == 4,
        "cuoc-leo": leo_sets >= 1,
        "cuoc-tom": tom_sets >= 1,
    }
    got = _rows(cuoc.hand_cuoc(rules, counts, [], verdict))
    assert set(got) == {k for k, v in want.items() if v}
    if "cuoc-leo" in got:
        assert got["cuoc-leo"].times == (leo_sets if leo == "each-set" else 1)


def test_brute_force_helper_can_fail() -> None:
    assert _max_chan(("2v", "2v", "2n", "2s")) == 1
    assert _max_chan(("2v", "3n")) is None


def test_jsonl_carries_the_cuoc_for_classic_only() -> None:
    import argparse
    import io

    from chanspec.checks.cli import cmd_win

    line = json.dumps({"hand": "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 7s 2n 2n 3s 3s 4v 4v 5n".split(),
                       "with": "5n"})
    out = io.StringIO()
    args = argparse.Namespace(ruleset="classic", option=None, players=4)
    assert cmd_win.run_jsonl(args, io.StringIO(line + "\n"), out) == 0
    doc = json.loads(out.getvalue())
    assert [c["row"] for c in doc["cuoc"]] == ["cuoc-thap-thanh", "cuoc-bach-dinh"]
