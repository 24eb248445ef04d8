"""Reading cards: one JSON element is one card; codes are never joined into a name."""

from __future__ import annotations

import pytest
from chanspec.model.chan import cards
from hypothesis import given, settings
from hypothesis import strategies as st

hands = st.lists(st.integers(0, cards.NUM_FACES - 1), max_size=30)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_codes_read_back_as_the_same_hand_in_every_form(hand: list[int]) -> None:
    codes = cards.codes(hand)
    assert cards.parse_many(codes) == hand            # one argument per card
    assert cards.parse_many(" ".join(codes)) == hand  # one string
    assert cards.parse_many(",".join(codes)) == hand
    assert cards.parse_list(codes) == hand             # a JSON list


@settings(max_examples=200, deadline=None)
@given(hands)
def test_names_as_single_arguments_read_back(hand: list[int]) -> None:
    names = [cards.name(f) for f in hand]
    assert cards.parse_many(names) == hand
    assert cards.parse_list(names) == hand


def test_two_chi_chi_codes_are_two_cards() -> None:
    chi = cards.CHI
    assert cards.parse_many(["chi", "chi"]) == [chi, chi]
    assert cards.parse_many("chi chi") == [chi, chi]
    two_v, three_n = cards.parse("2v"), cards.parse("3n")
    assert cards.parse_many(["2v", "chi", "chi", "3n"]) == [two_v, chi, chi, three_n]
    assert cards.parse_list(["chi", "chi"]) == [chi, chi]


def test_a_two_word_name_is_one_card_as_one_argument_or_when_unambiguous() -> None:
    assert cards.parse_many(["Chi Chi"]) == [cards.CHI]
    assert cards.parse_many(["Chi Chi", "Chi Chi"]) == [cards.CHI, cards.CHI]
    tam_van = cards.face_of(1, 3)
    assert cards.parse_many(["Tam Văn"]) == [tam_van]
    assert cards.parse_many(["Tam", "Văn", "2v"]) == [tam_van, 1]   # shell-split name
    assert cards.parse_many("Tam Văn, Nhị Vạn") == [tam_van, 1]


def test_a_json_element_is_never_split_or_joined() -> None:
    with pytest.raises(cards.CardError, match="'Tam'"):
        cards.parse_list(["Tam", "Văn"])
    with pytest.raises(cards.CardError, match="2v 2v"):
        cards.parse_list(["2v 2v"])
    with pytest.raises(cards.CardError, match="card 2 of the list"):
        cards.parse_list(["2v", 3])  # type: ignore[list-item]
