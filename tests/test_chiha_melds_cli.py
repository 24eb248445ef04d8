"""``chanspec melds``: a Chiha hand's lệnh and splits from the command line.  Golden hands
checked by hand against seed 004 (its section "Nhóm bài hợp lệ", the note under it, and
"Luật vứt bài"), the command's figures against the brute-force oracle on drawn hands, and
every bad input as one line with exit 2."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter

import pytest
from chanspec.checks.chiha.melds_brute import ChihaBrute
from chanspec.checks.cli import app as cli
from chanspec.model import kinds
from hypothesis import given, settings
from hypothesis import strategies as st

RULES = kinds.rules("chiha", 3)
DECK = RULES.deck
BRUTE = ChihaBrute(RULES)


def capped(cards: list[int]) -> list[int]:
    """At most the deck's copies of each face."""
    seen: Counter[int] = Counter()
    out = []
    for f in cards:
        seen[f] += 1
        if seen[f] <= DECK.copies:
            out.append(f)
    return out


def melds(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert cli.main(["melds", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_three_generals_in_hand_are_worth_six(capsys) -> None:
    # "Nhóm bài hợp lệ", note 1: three Tướng held in the hand count 4 + 2 = 6 lệnh; a
    # Tướng may never be discarded, nor a card of a khạp ("Luật vứt bài" •3)
    doc = melds(capsys, "tgd", "tgd", "tgd")
    assert doc["best"]["lenh"] == 6 and doc["exact"]["lenh"] == 6
    assert [m["rule"] for m in doc["best"]["melds"]] == ["meld-khap"]
    assert doc["best"]["trash"] == []
    assert doc["player"]["lenh"] == 6
    assert doc["discard"] == {"tgd": ["discard-no-tuong", "discard-no-khap-quan"]}


def test_a_shown_triple_loses_the_bonus_and_a_xep_keeps_it(capsys) -> None:
    # bộ ba Tướng: 4 lệnh; +2 only in the hand or face down in the xệp (note 1)
    shown = melds(capsys, "tgd", "--laid", "tgx tgx tgx")
    assert shown["laid"][0]["lenh"] == 4 and not shown["laid"][0]["concealed"]
    assert shown["player"]["lenh"] == 4 + 1  # and the single Tướng in the hand
    down = melds(capsys, "tgd", "--xep", "tgx tgx tgx")
    assert down["laid"][0]["lenh"] == 6 and down["laid"][0]["concealed"]
    assert down["player"]["lenh"] == 6 + 1


def test_four_chot_of_four_colours(capsys) -> None:
    # bộ bốn Chốt khác màu: 4 lệnh (bullet 8); with exactly those four in hand no Chốt may
    # go ("Luật vứt bài" •3, read by row discard-chot-scope)
    doc = melds(capsys, "chd", "chv", "chx", "cht")
    assert doc["best"]["lenh"] == 4 and len(doc["best"]["melds"]) == 1
    assert all("discard-chot-scope" in why for why in doc["discard"].values())


def test_a_general_advisor_elephant_of_one_colour_and_the_thresholds(capsys) -> None:
    # Tướng–Sĩ–Tượng cùng màu: 2 lệnh (bullet 5); Xe–Pháo–Mã: 1 (bullet 6); far from the
    # 15 lệnh of a win ("Ù" và kết thúc ván bài •1)
    doc = melds(capsys, "tgv", "siv", "tuv", "xed", "phd", "mad", "xex")
    assert doc["best"]["lenh"] == 2 + 1 + 0
    assert doc["best"]["trash"] == ["xex"] and doc["exact"] is None
    p = doc["player"]
    assert not p["wins"] and not p["quan"]
    assert p["threshold"] == {"lenh": 15, "more_than": False, "rule": "u-threshold"}
    more = melds(capsys, "tgv", "--option", "u-threshold=more-than")
    assert more["player"]["threshold"]["more_than"] is True


def test_the_player_chooses_reading_counts_the_given_split(capsys) -> None:
    args = ("tgd", "sid", "tud", "--option", "lenh-partition=player-chooses")
    own = melds(capsys, *args, "--arrange", "tgd sid tud")
    assert own["player"]["lenh"] == 2 and own["player"]["trash"] == []
    singles = melds(capsys, *args, "--arrange", "tgd")  # only the Tướng as a meld
    assert singles["player"]["lenh"] == 1 and sorted(singles["player"]["trash"]) == ["sid",
                                                                                     "tud"]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(list(DECK.faces)), min_size=1, max_size=12))
def test_the_figures_are_the_brute_force_oracles(hand: list[int]) -> None:
    hand = capped(hand)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["melds", *(DECK.code(f) for f in hand), "--json"]) == 0
    doc = json.loads(out.getvalue())
    assert doc["best"]["lenh"] == BRUTE.best(hand)
    exact = BRUTE.exact(hand)
    assert (None if doc["exact"] is None else doc["exact"]["lenh"]) == exact
    may = [DECK.parse(c) for c, why in doc["discard"].items() if not why]
    assert may == BRUTE.discards(hand)
    told = Counter(c for m in doc["best"]["melds"] for c in m["cards"]) + \
        Counter(doc["best"]["trash"])
    assert told == Counter(DECK.code(f) for f in hand)


def test_the_text_says_the_same_in_both_languages(capsys) -> None:
    assert cli.main(["melds", "tgd", "tgd", "tgd"]) == 0
    vi = capsys.readouterr().out
    assert "6 lệnh" in vi and "Tướng đỏ" in vi and "(en)" in vi and "discard-no-tuong" in vi
    assert cli.main(["melds", "tgd", "tgd", "tgd", "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "red General" in en and "(en)" not in en and "6 lệnh" in en


@pytest.mark.parametrize(("argv", "said"), [
    (["tgq"], "unknown card 'tgq'"),
    (["tgd"] * 5, "the deck has 4 of each face"),
    (["tgd", "--laid", "tgd sid"], "not a meld of this table"),
    (["tgd", "--option", "lenh-partition=player-chooses"], "give it with --arrange"),
    (["tgd", "--arrange", "tgd"], "counted only under lenh-partition=player-chooses"),
    ([], "no cards given"),
    (["2v", "--ruleset", "family"], "which has no melds; for a Chắn hand use chanspec win"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], said: str) -> None:
    assert cli.main(["melds", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
