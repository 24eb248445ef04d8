"""Golden winning-hand cases, each worked out by hand from the family's text.

Every case is also put to the Z3 and brute-force oracles, so a golden value that all
three agree on is checked three independent ways.  Sections cite the family's text
(seed 002): part numbers and paragraph headings as in spec/family.toml.
"""

from __future__ import annotations

import pytest
from chanspec.checks.chan.brute import Brute
from chanspec.checks.chan.z3win import Z3Win
from chanspec.model.chan import cards, table, win
from chanspec.model.chan.table import Rules


def R(players: int = 4, **opts: str) -> Rules:
    return table.rules("family", players, {k.replace("_", "-"): v for k, v in opts.items()})


def H(text: str) -> list[int]:
    return cards.parse_many(text)


def verdict(rules: Rules, hand: str, cand: str | None, kind: str = "u",
            laid: tuple[tuple[str, str], ...] = ()) -> win.Verdict:
    """Engine verdict, after checking that Z3, brute force and is_win agree with it."""
    e = win.engine(rules)
    faces = H(hand)
    c = None if cand is None else cards.parse(cand)
    groups = [win.group_of(H(g), rules) for _, g in laid]
    assert [g.kind for g in groups] == [k for k, _ in laid]
    v = e.judge(faces, groups, c, kind)  # type: ignore[arg-type]
    olaid = [(g.kind, g.faces) for g in groups]
    z = Z3Win(rules).judge(faces, olaid, c, kind)
    b = Brute(rules).judge(faces, olaid, c, kind)
    assert (z.win, z.chan) == (b.win, b.chan) == (v.win, v.chan), (v, z, b)
    concealed = cards.counts(faces)
    for g in groups:
        for f in g.faces:
            concealed[f] -= 1
    if len(faces) + (c is not None) == 2 * rules.pairs:  # is_win trusts the card total
        # the counts the reading of laid groups splits (row laid-groups)
        counts, laid_chan = e.win_counts(concealed, groups)
        assert e.is_win(counts, laid_chan, c, kind) == v.win  # type: ignore[arg-type]
        if c is not None:
            idx = win.HandIndex(e, concealed, laid=groups)
            assert idx.wins_with(c, kind) == v.win  # type: ignore[arg-type]
    return v


# Eleven chắn of plain suited faces (22 cards), used as filler.
ELEVEN = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n 4n"
TEN = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n"


def test_s4_bullet2_chi_chi_never_completes_u() -> None:
    """§4 bullet 2: Chi Chi is never the completing card, though it would make a chắn."""
    rules = R()
    v = verdict(rules, ELEVEN + " chi", "chi")
    assert not v.win and v.chan == 12
    assert v.rules == (rules.rid("win.never_complete_rule"),) == ("yeu-never-completes",)
    # the same shape completed by a suited card wins
    ok = verdict(rules, ELEVEN + " 5n", "5n")
    assert ok.win and ok.chan == 12


@pytest.mark.parametrize("face", ["lao", "thang"])
def test_s4_bullet2_lao_thang_never_complete_even_by_chiu_u(face: str) -> None:
    """§4 bullet 2: Lão and Thang do not complete ù either, chíu-ù included."""
    rules = R()
    hand = TEN + f" {face} {face} {face}"
    assert not verdict(rules, hand, face, "chiu-u").win
    assert "yeu-never-completes" in verdict(rules, hand, face, "chiu-u").rules
    # a suited face in the same position is a chíu-ù
    assert verdict(rules, TEN + " 5s 5s 5s", "5s", "chiu-u").win


def test_s1_special_ca_may_be_in_a_winning_hand() -> None:
    """§1 Nhóm sáu quân đặc biệt: a special cạ (Chi Chi + Nhất Vạn) may sit in the hand."""
    rules = R()
    hand = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 3n 3n 4n chi 1v 2n 2s"
    v = verdict(rules, hand, "4n")
    assert v.win and v.chan == 10
    one_van_chi = (cards.parse("1v"), cards.parse("chi"))
    assert v.groups is not None and one_van_chi in [tuple(sorted(g)) for g in v.groups]
    assert rules.is_special(*one_van_chi)


def test_s1_special_ca_is_not_the_final_pair() -> None:
    """§1 Nhóm sáu quân đặc biệt: the pair the winning card completes is no special cạ."""
    rules = R()
    # Ten chắn, the cạ 5n + 5s, and Chi Chi waiting for a partner; Nhất Vạn would pair
    # with it only as a special cạ, which may not be the final pair.
    hand = TEN + " 5n 5s chi"
    v = verdict(rules, hand, "1v")
    assert not v.win and v.chan is None
    assert rules.rid("win.special_ca_final_rule") in v.rules
    # Nhất Vạn held and Chi Chi arriving: refused too (and Chi Chi never completes)
    hand2 = TEN + " 5n 5s 1v"
    assert not verdict(rules, hand2, "chi").win


def test_s1_ca_tam_van_tu_sach_is_no_ca() -> None:
    """§1 Cạ: Tam Văn and Tứ Sách do not pair (different ranks)."""
    rules = R()
    assert not rules.is_ca(cards.parse("Tam Văn"), cards.parse("Tứ Sách"))
    with pytest.raises(win.HandError, match="not a group"):
        win.group_of(H("3n 4s"), rules)
    v = verdict(rules, ELEVEN.replace("3n 3n", "5s 5s") + " 3n", "4s")
    assert not v.win and v.chan is None
    # Tam Văn with Tam Sách is a cạ (same rank, different suit)
    assert rules.is_ca(cards.parse("3n"), cards.parse("3s"))


def test_s4_first_paragraph_twelve_pairs_eight_chan_for_four() -> None:
    """§4 first paragraph: four players need 12 pairs with at least 8 chắn."""
    rules = R(4)
    assert (rules.pairs, rules.min_chan) == (12, 8)
    eight = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2s 3n 3s 4n 4s 5n"
    v = verdict(rules, eight, "5s")
    assert v.win and v.chan == 8
    seven = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9n 2n 2s 3n 3s 4n 4s 5n"
    v7 = verdict(rules, seven, "5s")
    assert not v7.win and v7.chan == 7
    assert rules.rid("win.counts_rule") in v7.rules


def test_s4_first_paragraph_ten_pairs_six_chan_for_five() -> None:
    """§4 first paragraph: five players need 10 pairs with at least 6 chắn."""
    rules = R(5)
    assert (rules.pairs, rules.min_chan) == (10, 6)
    six = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 2n 2s 3n 3s 4n 4s 5n"
    assert verdict(rules, six, "5s").chan == 6 and verdict(rules, six, "5s").win
    five = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7n 2n 2s 3n 3s 4n 4s 5n"
    v = verdict(rules, five, "5s")
    assert not v.win and v.chan == 5


def test_s4_first_paragraph_no_card_left_over() -> None:
    """§4 first paragraph: every card must be in a pair; a wrong card count never wins."""
    rules = R()
    v = verdict(rules, ELEVEN, "5n")  # 22 + 1 cards cannot make 12 pairs
    assert not v.win and v.chan is None and v.rules == ("win-shape",)


def test_chiu_counts_two_chan() -> None:
    """§2 Chíu and §4 first paragraph: a chíu counts as two chắn."""
    rules = R()
    # laid chíu of Cửu Sách + 6 chắn + 4 cạ: 2 + 6 = 8 chắn
    hand = "9s 9s 9s 9s 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 2n 2s 3n 3s 4n 4s 5n"
    v = verdict(rules, hand, "5s", laid=(("chiu", "9s 9s 9s 9s"),))
    assert v.win and v.chan == 8
    assert rules.rid("turn.chiu_counts_rule") in v.rules
    # the same six chắn and four cạ with an ordinary laid chắn in place of the chíu:
    # 7 chắn in 11 pairs is one pair short, so no win
    short = "9s 9s 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 2n 2s 3n 3s 4n 4s 5n"
    assert not verdict(rules, short, "5s", laid=(("chan", "9s 9s"),)).win
    # chíu-ù: three concealed Cửu Sách and the fourth arrives
    v2 = verdict(rules, "9s 9s 9s 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 2n 2s 3n 3s 4n 4s 5n 5s",
                 "9s", "chiu-u")
    assert v2.win and v2.chan == 8


POOLED = {"laid_groups": "pooled"}


def test_laid_groups_as_laid_or_split_again() -> None:
    """§4 first paragraph, row laid-groups: the text does not say whether laid groups
    stay as they were laid.

    Held: 2v 2v 2n 2n, laid as the cạ 2v+2n twice.  As laid they give no chắn and the
    total is 7 of the 8 needed; split again with the concealed cards they are the chắn
    2v 2v and 2n 2n: 9 chắn.  Both verdicts cite the row, which decided them; concealed,
    the same cards win under either reading, without the row."""
    hand = "2v 2v 2n 2n 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 3n 3s 4n 4s 5n"
    laid = (("ca", "2v 2n"), ("ca", "2v 2n"))
    for opts in ({}, POOLED):
        v = verdict(R(**opts), hand, "5s")
        assert v.win and v.chan == 9 and "laid-groups" not in v.rules
    as_laid = verdict(R(), hand, "5s", laid=laid)
    assert not as_laid.win and as_laid.chan == 7
    assert as_laid.rules == ("win-shape", "win-counts", "laid-groups")
    pooled = verdict(R(**POOLED), hand, "5s", laid=laid)
    assert pooled.win and pooled.chan == 9
    assert pooled.rules == ("win-shape", "win-counts", "laid-groups")
    assert pooled.groups is not None and ((cards.parse("2v"),) * 2 in pooled.groups)


def test_laid_ca_and_concealed_ca_make_two_chan_only_when_pooled() -> None:
    """Row laid-groups, the example of its text: the cạ Tam Vạn + Tam Văn laid down and
    one Tam Vạn and one Tam Văn concealed.  Concealed they can only pair with each other
    (no Tam Sách is held): as laid, two cạ and 6 chắn in all; pooled, 3v 3v and 3n 3n
    and 8 chắn, a win.  The completing Nhì Văn makes a chắn, a final pair either way."""
    hand = "3v 3n 3v 3n 2v 2v 4v 4v 5v 5v 6v 6v 7v 7v 2n 8v 8n 9v 9n 4n 4s 5n 5s"
    laid = (("ca", "3v 3n"),)
    as_laid = verdict(R(), hand, "2n", laid=laid)
    assert not as_laid.win and as_laid.chan == 6 and "laid-groups" in as_laid.rules
    assert "(laid groups stay as laid)" in as_laid.reason_en
    pooled = verdict(R(**POOLED), hand, "2n", laid=laid)
    assert pooled.win and pooled.chan == 8 and "laid-groups" in pooled.rules
    # the winning card may sit in its final pair with a laid card: Tam Văn completes
    # the chắn 3n 3n with the laid one only when pooled (as laid it pairs 3v, a cạ)
    hand2 = "3v 3n 3v 2n 2n 2v 2v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8n 9v 9n 4n 4s 5n 5s"
    assert not verdict(R(), hand2, "3n", laid=laid).win
    v2 = verdict(R(**POOLED), hand2, "3n", laid=laid)
    assert v2.win and v2.chan == 8 and v2.groups is not None
    assert v2.groups[-1] == (cards.parse("3n"),) * 2


def test_a_hand_that_wins_under_both_readings_does_not_cite_the_row() -> None:
    """Laid cạ 3v+3n with 3v and 3n concealed and eight chắn besides: 8 chắn as laid, 10
    pooled.  Both win, so the reading decides nothing and is not cited (the count it
    changes is shown)."""
    hand = "3v 3n 3v 3n 2v 2v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 4n 4s 5n 5s"
    laid = (("ca", "3v 3n"),)
    a = verdict(R(), hand, "2n", laid=laid)
    b = verdict(R(**POOLED), hand, "2n", laid=laid)
    assert a.win and b.win and (a.chan, b.chan) == (8, 10)
    assert a.rules == b.rules == ("win-shape", "win-counts")


def test_a_laid_chiu_stays_two_chan_under_both_readings() -> None:
    """Rows chiu-counts-two and laid-groups: a laid chíu is two chắn of its face either
    way; only the laid chắn and cạ are split again.  Laid: the chíu of Cửu Sách and the
    cạ 3v+3n; concealed 3v, 3n, four chắn, a Thất Vạn and three cạ, and Thất Vạn comes.
    As laid 2 + 5 = 7 chắn; pooled 2 + 2 + 5 = 9 and a win, citing both rows."""
    hand = ("9s 9s 9s 9s 3v 3n 3v 3n 2v 2v 4v 4v 5v 5v 6v 6v 7v 8v 8n 9v 9n 4n 4s")
    laid = (("chiu", "9s 9s 9s 9s"), ("ca", "3v 3n"))
    as_laid = verdict(R(), hand, "7v", laid=laid)
    assert not as_laid.win and as_laid.chan == 7
    pooled = verdict(R(**POOLED), hand, "7v", laid=laid)
    assert pooled.win and pooled.chan == 9
    assert {"chiu-counts-two", "laid-groups"} <= set(pooled.rules)
    assert pooled.groups is not None and pooled.groups[0] == (cards.parse("9s"),) * 4


@pytest.mark.parametrize("laid_groups", ["as-laid", "pooled"])
def test_a_laid_chiu_is_never_split_again(laid_groups: str) -> None:
    """A laid chíu of Chi Chi and Lão, Thang concealed, with Lão + Thang no cạ
    (lao-thang off).  Were the chíu's cards split again, Chi Chi + Chi Chi, Chi Chi +
    Lão and Chi Chi + Thang would pair them (8 chắn in 12 pairs); a chíu stays two chắn
    under both readings, so Lão and Thang are left unpaired and nothing wins.  With the
    option on, Lão + Thang is a (special) cạ inside the hand: 9 chắn, a win."""
    hand = "chi chi chi chi lao thang 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8n 9v 9n 2n"
    laid = (("chiu", "chi chi chi chi"),)
    off = verdict(R(lao_thang="off", laid_groups=laid_groups), hand, "2n", laid=laid)
    assert not off.win and off.chan is None and "laid-groups" not in off.rules
    on = verdict(R(laid_groups=laid_groups), hand, "2n", laid=laid)
    assert on.win and on.chan == 9


def test_lao_thang_off_changes_a_verdict() -> None:
    """§1 Nhóm sáu quân đặc biệt: Lão + Thang is a cạ only while the option is on."""
    hand = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n lao thang 3n 3s 5n"
    on = verdict(R(lao_thang="on"), hand, "5n")
    off = verdict(R(lao_thang="off"), hand, "5n")
    assert on.win and on.chan == 10
    assert not off.win and off.chan is None


def test_special_ca_scope_changes_a_verdict() -> None:
    """§1 Nhóm sáu quân đặc biệt (open question found by the checker): whether Nhất +
    Nhất of two suits is special decides a final pair 1v + 1n."""
    hand = TEN + " 5n 5s 1v"
    yeu_only = verdict(R(special_ca_scope="yeu-only"), hand, "1n")
    whole = verdict(R(special_ca_scope="whole-group"), hand, "1n")
    assert yeu_only.win and yeu_only.chan == 10
    assert not whole.win and "special-ca-not-final" in whole.rules


def test_s2_opening_hand_wins_without_a_card() -> None:
    """§2 first paragraph: the opener's dealt 24 cards may already win."""
    rules = R()
    v = verdict(rules, ELEVEN + " 1v 1n", None, "opening")
    assert v.win and v.chan == 11
    # an opening hand may end in a special cạ: there is no completing card
    assert verdict(rules, ELEVEN + " 1v chi", None, "opening").win


# --------------------------------------------------------------------------- bad input


def test_laid_group_not_held_is_an_error() -> None:
    e = win.engine(R())
    with pytest.raises(win.HandError, match="more often than the hand holds"):
        e.judge(H(ELEVEN + " 1v"), [win.Group("chan", (cards.parse("5s"),) * 2)],
                cards.parse("1v"), "u")


def test_five_copies_is_an_error() -> None:
    e = win.engine(R())
    with pytest.raises(win.HandError, match="appears 5 times; the deck has only 4"):
        e.judge(H(ELEVEN + " 2v 2v"), [], cards.parse("2v"), "u")  # four held + one
    with pytest.raises(win.HandError, match="appears 5 times"):
        e.judge(H("2v 2v 2v 2v 2v"), [], None, "opening")


def test_other_bad_inputs_are_errors() -> None:
    rules = R()
    e = win.engine(rules)
    with pytest.raises(win.HandError, match="three concealed copies"):
        e.judge(H(ELEVEN + " 1v"), [], cards.parse("5s"), "chiu-u")
    with pytest.raises(win.HandError, match="no completing card"):
        e.judge(H(ELEVEN + " 1v 1v"), [], cards.parse("1v"), "opening")
    with pytest.raises(win.HandError, match="needs the card"):
        e.judge(H(ELEVEN + " 1v"), [], None, "u")
    with pytest.raises(win.HandError, match="not a group"):
        win.group_of(H("chi 2v"), rules)
