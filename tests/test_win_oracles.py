"""The winning-hand engine against two independent oracles (Z3 and brute force).

Random hands, near-complete hands (a complete decomposition with one card taken out or
replaced), 4 and 5 players, laid chắn / cạ / chíu under both readings of laid groups
(row laid-groups: as laid, or split again with the concealed cards), every option value
that changes pairing, and the three kinds of win.  Plus exact counts of winning hands on reduced
decks, engine against exhaustive enumeration.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from chanspec.checks.chan.brute import Brute, reduced_rules
from chanspec.checks.chan.z3win import Z3Win
from chanspec.model.chan import cards, table, win
from chanspec.model.chan.table import Rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=150, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
Z3_SETTINGS = settings(max_examples=150, derandomize=True, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])

OPTION_SETS = [
    {},
    {"lao-thang": "off"},
    {"special-ca-scope": "whole-group"},
    {"lao-thang": "off", "special-ca-scope": "whole-group"},
]
KINDS = ["u", "chiu-u", "opening"]
# classic Chắn (spec/classic.toml): 2 to 4 players, the readings of Chi Chi as the
# completing card ([win] exact_min)
CLASSIC_OPTION_SETS = [{}, {"chi-completes": "bach-thu-chi"}, {"chi-completes": "chi-rong"}]
TABLES = {"family": ((4, 5), OPTION_SETS), "classic": ((2, 3, 4), CLASSIC_OPTION_SETS)}
# [win] laid_rule of both tables (row laid-groups) and its values
LAID = "laid-groups"
LAID_VALUES = ("as-laid", "pooled")

Laid = list[tuple[str, tuple[int, ...]]]
Case = tuple[list[int], Laid, int | None, str]

_ORACLES: dict[tuple[object, ...], tuple[win.WinEngine, Z3Win, Brute]] = {}


def oracles(rules: Rules) -> tuple[win.WinEngine, Z3Win, Brute]:
    k = (id(rules.table), *rules.key())
    if k not in _ORACLES:
        _ORACLES[k] = (win.WinEngine(rules), Z3Win(rules), Brute(rules))
    return _ORACLES[k]


def family(players: int, opts: dict[str, str]) -> Rules:
    return table.rules("family", players, opts)


def table_rules(name: str, pi: int, oi: int, laid: str = "as-laid") -> Rules:
    """Rules of table `name` for its `pi`-th player count and `oi`-th option set (both
    taken modulo the table's lists), with laid groups read as `laid`."""
    players, sets = TABLES[name]
    return table.rules(name, players[pi % len(players)], {**sets[oi % len(sets)], LAID: laid})


def ca_pairs(rules: Rules) -> list[tuple[int, int]]:
    fs = sorted(rules.faces)
    return [(a, b) for a in fs for b in fs if a < b and rules.is_ca(a, b)]


def complete_hand(rng: random.Random, rules: Rules, chiu_cand: bool,
                  laid_share: float) -> tuple[list[tuple[str, tuple[int, ...]]], list[bool]]:
    """A complete decomposition: groups (kind, faces) and whether each one is laid down.

    With `chiu_cand` the first group is four concealed identical cards (a chíu-ù shape).
    """
    left = {f: rules.copies for f in rules.faces}
    groups: list[tuple[str, tuple[int, ...]]] = []
    laid: list[bool] = []
    need = rules.pairs
    if chiu_cand:
        f = rng.choice([f for f in rules.faces if left[f] >= 4])
        left[f] -= 4
        groups.append(("chiu", (f,) * 4))
        laid.append(False)
        need -= 2
    cas = ca_pairs(rules)
    while need > 0:
        roll = rng.random()
        if need >= 2 and roll < 0.12:
            opts = [f for f in rules.faces if left[f] >= 4]
            if opts:
                f = rng.choice(opts)
                left[f] -= 4
                groups.append(("chiu", (f,) * 4))
                laid.append(rng.random() < laid_share)
                need -= 2
                continue
        if roll < 0.6:
            opts = [f for f in rules.faces if left[f] >= 2]
            if opts:
                f = rng.choice(opts)
                left[f] -= 2
                groups.append(("chan", (f, f)))
                laid.append(rng.random() < laid_share)
                need -= 1
                continue
        opts2 = [(a, b) for a, b in cas if left[a] and left[b]]
        a, b = rng.choice(opts2)
        left[a] -= 1
        left[b] -= 1
        groups.append(("ca", (a, b)))
        laid.append(rng.random() < laid_share)
        need -= 1
    return groups, laid


def near_case(seed: int, rules: Rules, kind: str, laid_share: float, perturb: bool) -> Case:
    """A hand one card from complete (or complete itself, for an opening)."""
    rng = random.Random(seed)
    groups, laid_flags = complete_hand(rng, rules, kind == "chiu-u", laid_share)
    if all(laid_flags):
        laid_flags[-1] = False  # a candidate is taken from the concealed cards
    laid: Laid = [g for g, lf in zip(groups, laid_flags, strict=True) if lf]
    concealed = [f for g, lf in zip(groups, laid_flags, strict=True) if not lf for f in g[1]]
    held = [f for g in groups for f in g[1]]
    candidate: int | None = None
    if kind == "chiu-u":
        candidate = groups[0][1][0]
        concealed.remove(candidate)
        held.remove(candidate)
    elif kind == "u":
        candidate = rng.choice(concealed)
        concealed.remove(candidate)
        held.remove(candidate)
    if perturb and concealed:
        cnt = cards.counts(held)
        if candidate is not None:
            cnt[candidate] += 1
        out = rng.choice([f for f in concealed if f != candidate] or concealed)
        if kind == "chiu-u" and out == candidate:
            out = rng.choice(concealed)
        free = [f for f in rules.faces if cnt[f] < rules.copies and f != out]
        if free and not (kind == "chiu-u" and out == candidate):
            new = rng.choice(free)
            held.remove(out)
            held.append(new)
    return held, laid, candidate, kind


def chi_case(seed: int, rules: Rules, kind: str, laid_share: float) -> Case:
    """A complete hand holding a concealed chắn (or, for chíu-ù, four) of Chi Chi, less one
    Chi Chi, which is the candidate: the hands [win] exact_min judges.  A near-complete
    hand (`near_case`) when no such hand turns up in a few hundred tries, or for an
    opening, which has no candidate."""
    chi = cards.CHI
    if kind != "opening" and chi in rules.faces:
        for t in range(400):
            rng = random.Random(seed * 1000 + t)
            groups, laid_flags = complete_hand(rng, rules, kind == "chiu-u", laid_share)
            want = ("chiu", (chi,) * 4) if kind == "chiu-u" else ("chan", (chi, chi))
            at = [i for i, (g, lf) in enumerate(zip(groups, laid_flags, strict=True))
                  if g == want and not lf]
            if kind == "chiu-u" and at != [0]:
                continue
            if not at:
                continue
            laid: Laid = [g for g, lf in zip(groups, laid_flags, strict=True) if lf]
            held = [f for g in groups for f in g[1]]
            held.remove(chi)
            return held, laid, chi, kind
    return near_case(seed, rules, kind, laid_share, False)


def random_case(seed: int, rules: Rules, kind: str) -> Case:
    """A uniformly dealt hand of the right size (rarely a win), no laid groups."""
    rng = random.Random(seed)
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    if kind == "opening":
        return rng.sample(deck, 2 * rules.pairs), [], None, kind
    cards_ = rng.sample(deck, 2 * rules.pairs)
    if kind == "chiu-u":
        cnt = cards.counts(cards_)
        quads = [f for f in rules.faces if cnt[f] >= 4]
        if not quads:
            f = rng.choice(rules.faces)
            cards_ = [x for x in cards_ if x != f]
            cards_ = cards_[: 2 * rules.pairs - 4] + [f] * 4
            rest = [x for x in deck if x != f]
            while len(cards_) < 2 * rules.pairs:
                cards_.append(rest.pop(rng.randrange(len(rest))))
            if max(cards.counts(cards_)) > rules.copies:
                return near_case(seed, rules, kind, 0.0, False)
            quads = [f]
        c = quads[0]
        cards_.remove(c)
        return cards_, [], c, kind
    c = cards_.pop()
    return cards_, [], c, kind


def engine_verdict(e: win.WinEngine, case: Case) -> win.Verdict:
    hand, laid, cand, kind = case
    groups = [win.Group(k, tuple(sorted(fs))) for k, fs in laid]  # type: ignore[arg-type]
    return e.judge(hand, groups, cand, kind)  # type: ignore[arg-type]


def fast(e: win.WinEngine, case: Case) -> bool:
    """is_win on the counts the reading of laid groups gives (as laid: the concealed
    cards and the laid chắn, written out here; pooled: the laid chắn and cạ among them)."""
    hand, laid, cand, kind = case
    concealed = cards.counts(hand)
    laid_chan = 0
    for k, fs in laid:
        laid_chan += {"chan": 1, "ca": 0, "chiu": 2}[k]
        for f in fs:
            concealed[f] -= 1
    if e.pooled:
        groups = [win.Group(k, tuple(sorted(fs))) for k, fs in laid]  # type: ignore[arg-type]
        counts, fixed = e.win_counts(concealed, groups)
        assert fixed == 2 * sum(k == "chiu" for k, _ in laid)
        return e.is_win(counts, fixed, cand, kind)  # type: ignore[arg-type]
    return e.is_win(concealed, laid_chan, cand, kind)  # type: ignore[arg-type]


def laid_decides(rules: Rules, case: Case) -> bool:
    """Does the other reading of laid groups give the other answer (brute force)?"""
    other = "as-laid" if rules.laid_pooled else "pooled"
    b = oracles(rules)[2]
    bo = oracles(rules.with_options(**{LAID: other}))[2]
    return b.judge(*case).win != bo.judge(*case).win


def check_all(rules: Rules, case: Case, use_z3: bool) -> win.Verdict:
    e, z, b = oracles(rules)
    v = engine_verdict(e, case)
    br = b.judge(*case)
    assert (v.win, v.chan) == (br.win, br.chan), (case, v, br)
    assert fast(e, case) == v.win, case
    never = rules.rule_ids.get("win.never_complete_rule")
    final = rules.rule_ids.get("win.special_ca_final_rule")
    exact = rules.rule_ids.get("win.exact_min_rule")
    if never:
        assert (never in v.rules) == (never in br.refused), (case, v, br)
    if final and final in br.refused:
        assert final in v.rules, (case, v, br)
    if exact and not v.win:
        assert (exact in v.rules) == (exact in br.refused), (case, v, br)
    # the row of laid groups is cited exactly when its other reading changes the answer
    assert (LAID in v.rules) == laid_decides(rules, case), (case, v)
    if use_z3:
        zr = z.judge(*case)
        assert (zr.win, zr.chan) == (v.win, v.chan), (case, v, zr)
        assert zr.refused == br.refused, (case, zr, br)
    if v.win:
        # the decomposition the engine shows is a real one
        assert v.groups is not None
        shown = sorted(f for g in v.groups for f in g)
        full = list(case[0]) + ([case[2]] if case[2] is not None else [])
        assert shown == sorted(full)
    return v


players_st = st.integers(0, 2)  # index into the table's player counts
opts_st = st.integers(0, len(OPTION_SETS) - 1)  # index into the table's option sets
seed_st = st.integers(0, 2**32 - 1)


laid_st = st.sampled_from(LAID_VALUES)


@pytest.mark.parametrize("name", TABLES)
@FAST
@given(players_st, opts_st, st.sampled_from(KINDS), seed_st, st.sampled_from([0.0, 0.3, 0.7]),
       st.booleans(), laid_st)
def test_near_complete_engine_equals_brute(name: str, pi: int, oi: int, kind: str, seed: int,
                                           laid_share: float, perturb: bool, laid: str) -> None:
    rules = table_rules(name, pi, oi, laid)
    check_all(rules, near_case(seed, rules, kind, laid_share, perturb), use_z3=False)


@pytest.mark.parametrize("name", TABLES)
@FAST
@given(players_st, opts_st, st.sampled_from(KINDS), seed_st)
def test_random_engine_equals_brute(name: str, pi: int, oi: int, kind: str, seed: int) -> None:
    rules = table_rules(name, pi, oi)
    check_all(rules, random_case(seed, rules, kind), use_z3=False)


@pytest.mark.parametrize("name", TABLES)
@Z3_SETTINGS
@given(players_st, opts_st, st.sampled_from(KINDS), seed_st, st.sampled_from([0.0, 0.4]),
       st.booleans(), laid_st)
def test_near_complete_engine_equals_z3(name: str, pi: int, oi: int, kind: str, seed: int,
                                        laid_share: float, perturb: bool, laid: str) -> None:
    rules = table_rules(name, pi, oi, laid)
    check_all(rules, near_case(seed, rules, kind, laid_share, perturb), use_z3=True)


@pytest.mark.parametrize("name", TABLES)
@Z3_SETTINGS
@given(players_st, opts_st, st.sampled_from(KINDS), seed_st)
def test_random_engine_equals_z3(name: str, pi: int, oi: int, kind: str, seed: int) -> None:
    rules = table_rules(name, pi, oi)
    check_all(rules, random_case(seed, rules, kind), use_z3=True)


@FAST
@given(players_st, opts_st, st.sampled_from(["u", "chiu-u"]), seed_st,
       st.sampled_from([0.0, 0.3]), laid_st)
def test_classic_chi_candidate_engine_equals_brute_and_z3(pi: int, oi: int, kind: str,
                                                          seed: int, laid_share: float,
                                                          laid: str) -> None:
    """Hands completed by Chi Chi on the classic table, under each reading of
    chi-completes and of laid groups: the engine, the brute force and Z3 agree,
    refusals included."""
    rules = table_rules("classic", pi, oi, laid)
    check_all(rules, chi_case(seed, rules, kind, laid_share), use_z3=True)


def test_classic_chi_cases_reach_every_verdict() -> None:
    """The Chi Chi hands above include wins, refusals by exact_min, and wins only
    chi-rong allows."""
    seen: set[tuple[str, str, bool, bool]] = set()
    for oi, opts in enumerate(CLASSIC_OPTION_SETS):
        rules = table.rules("classic", 4, opts)
        e = oracles(rules)[0]
        for seed in range(60):
            for kind in ("u", "chiu-u"):
                v = engine_verdict(e, chi_case(seed, rules, kind, 0.3))
                seen.add((str(oi), kind, v.win, "chi-completes" in v.rules))
    assert ("0", "u", False, True) in seen and ("0", "chiu-u", False, True) in seen
    assert ("0", "u", True, True) in seen
    assert ("2", "u", True, False) in seen and ("1", "chiu-u", True, False) in seen


def test_near_complete_generator_hits_both_outcomes() -> None:
    """The property tests above see winning and losing hands of every kind."""
    rules = family(4, {})
    seen: set[tuple[str, bool]] = set()
    for seed in range(200):
        for kind in KINDS:
            case = near_case(seed, rules, kind, 0.3, seed % 2 == 1)
            seen.add((kind, engine_verdict(oracles(rules)[0], case).win))
    assert seen == {(k, w) for k in KINDS for w in (True, False)}


def test_near_complete_generator_reaches_hands_the_readings_of_laid_groups_split() -> None:
    """The near-complete hands with laid groups include, for ù and chíu-ù, hands that win
    only when laid chắn and cạ are split again (so the tests above compare the oracles
    where the readings differ), and none that wins only as laid (pooling keeps every
    split as laid, and more): the family's table has no exact_min to turn more chắn
    into a refusal."""
    e_laid = oracles(family(4, {LAID: "as-laid"}))[0]
    e_pool = oracles(family(4, {LAID: "pooled"}))[0]
    seen: set[tuple[str, bool, bool]] = set()
    for seed in range(300):
        for kind in KINDS:
            case = near_case(seed, family(4, {}), kind, 0.4, True)
            a, b = engine_verdict(e_laid, case), engine_verdict(e_pool, case)
            seen.add((kind, a.win, b.win))
            assert b.chan is None or a.chan is None or b.chan >= a.chan, case
    assert ("u", False, True) in seen and ("chiu-u", False, True) in seen
    assert not any(a and not b for _, a, b in seen)


# --------------------------------------------------------------------------- reduced decks


def vectors(faces: Sequence[int], copies: int, total: int) -> list[list[int]]:
    """Every count vector over `faces` with `total` cards."""
    out = []
    for combo in itertools.product(range(copies + 1), repeat=len(faces)):
        if sum(combo) == total:
            v = [0] * cards.NUM_FACES
            for f, n in zip(faces, combo, strict=True):
                v[f] = n
            out.append(v)
    return out


def count_wins(rules: Rules, judge: str) -> dict[str, int]:
    """Winning (hand, candidate, kind) combinations, by the engine or by brute force."""
    e, _, b = oracles(rules)
    n = 2 * rules.pairs
    got = {"u": 0, "chiu-u": 0, "opening": 0}
    for v in vectors(rules.faces, rules.copies, n - 1):
        hand = cards.expand(v)
        for c in rules.faces:
            if v[c] < rules.copies:
                w = (e.judge(hand, (), c, "u").win if judge == "engine"
                     else b.judge(hand, (), c, "u").win)
                if judge == "engine":
                    assert e.is_win(v, 0, c, "u") == w
                got["u"] += w
            if v[c] >= 3 and v[c] < rules.copies:
                w = (e.judge(hand, (), c, "chiu-u").win if judge == "engine"
                     else b.judge(hand, (), c, "chiu-u").win)
                got["chiu-u"] += w
    for v in vectors(rules.faces, rules.copies, n):
        hand = cards.expand(v)
        w = (e.judge(hand, (), None, "opening").win if judge == "engine"
             else b.judge(hand, (), None, "opening").win)
        if judge == "engine":
            assert e.is_win(v, 0, None, "opening") == w
        got["opening"] += w
    return got


REDUCED = [
    # faces, copies, variants (players, pairs, min_chan)
    (["1v", "1n", "1s", "2v", "2n", "2s", "chi", "lao", "thang"], 2, [(4, 3, 1), (5, 2, 2)]),
    (["1v", "1n", "1s", "chi", "lao", "thang"], 4, [(4, 4, 2), (5, 3, 0)]),
    (["1v", "1n", "9s", "9v", "chi", "lao", "thang"], 4, [(4, 3, 2)]),
]


@pytest.mark.parametrize("deck", range(len(REDUCED)))
@pytest.mark.parametrize("oi", range(len(OPTION_SETS)))
def test_reduced_deck_win_counts(deck: int, oi: int) -> None:
    faces, copies, variants = REDUCED[deck]
    for players, _, _ in variants:
        rules = reduced_rules(faces, copies, variants, players, OPTION_SETS[oi],
                              table_id=f"reduced-{deck}")
        by_engine = count_wins(rules, "engine")
        by_brute = count_wins(rules, "brute")
        assert by_engine == by_brute
        assert by_engine["u"] > 0 and by_engine["opening"] > 0


def test_reduced_counts_by_hand() -> None:
    """Counts small enough to derive by hand.

    Deck 2v, 2n, 2s with two copies each, one pair per hand.  Opening hands of two
    cards: six multisets (three chắn, three cạ of rank Nhì), all of them complete; with
    a minimum of one chắn only the three chắn win.  Ordinary ù from one held card: the
    held card and the candidate form the final pair; any of the 3 x 3 (held, candidate)
    choices pairs (chắn or same-rank cạ, never special), so 9 wins with no minimum.
    """
    for min_chan, opening, u in ((0, 6, 9), (1, 3, 3)):
        rules = reduced_rules(["2v", "2n", "2s"], 2, [(4, 1, min_chan)], 4,
                              table_id=f"tiny-{min_chan}")
        got = count_wins(rules, "engine")
        assert got == {"u": u, "chiu-u": 0, "opening": opening}
        assert count_wins(rules, "brute") == got


def test_z3_equals_brute_on_every_reduced_hand() -> None:
    """Z3 and brute force agree on every ordinary-ù question of a small deck."""
    rules = reduced_rules(["1v", "1n", "2v", "2n", "chi", "lao"], 2, [(4, 2, 1)], 4,
                          table_id="reduced-z3")
    _, z, b = oracles(rules)
    n = 0
    for v in vectors(rules.faces, rules.copies, 3):
        hand = cards.expand(v)
        for c in rules.faces:
            if v[c] < rules.copies:
                zr, br = z.judge(hand, (), c, "u"), b.judge(hand, (), c, "u")
                assert (zr.win, zr.chan, zr.refused) == (br.win, br.chan, br.refused)
                n += 1
    assert n > 100


def test_a_refused_yeu_card_also_names_a_blocking_final_pair() -> None:
    """Regression, checked by hand: five players, 19 cards = six chắn (2v..7v), two cạ
    (8v+8n, 9v+9n) and Nhất Vạn, Lão, Thang.  With Chi Chi the cards make 10 pairs and 6
    chắn, but Chi Chi could only sit in a special cạ (with 1v, Lão or Thang), so it is
    refused twice: §4 bullet 2 (never the completing card) and §1 Nhóm sáu quân đặc biệt
    (a special cạ is never the final pair).  Both are named, as the oracles name them."""
    rules = family(5, {})
    hand = cards.parse_many("2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8n 9v 9n 1v lao thang")
    chi = cards.parse("chi")
    v = win.engine(rules).judge(hand, candidate=chi)
    br = Brute(rules).judge(hand, (), chi, "u")
    z = Z3Win(rules).judge(hand, (), chi, "u")
    assert not v.win and v.rules == ("yeu-never-completes", "special-ca-not-final")
    assert br.refused == z.refused == v.rules
    # with Nhất Văn instead the same hand wins: Lão + Thang is a special cạ inside the
    # hand (allowed), and the final pair 1n + 1v is a plain cạ by rank
    v1 = win.engine(rules).judge(hand, candidate=cards.parse("1n"))
    assert v1.win and v1.chan == 6 and v1.groups is not None
    assert tuple(sorted(v1.groups[-1])) == (cards.parse("1v"), cards.parse("1n"))
    # random hands with a yêu candidate: the engine names the final-pair ban exactly when
    # the brute force does
    rng = random.Random(5)
    deck = [f for f in range(cards.NUM_FACES) for _ in range(4)]
    e, brute = win.engine(rules), Brute(rules)
    for _ in range(2000):
        rng.shuffle(deck)
        h = deck[: rules.variant.other_cards]
        cand = rng.choice(cards.YEU)
        if cards.counts(h + [cand])[cand] > 4:
            continue
        assert ("special-ca-not-final" in e.judge(h, candidate=cand).rules) == (
            "special-ca-not-final" in brute.judge(h, (), cand, "u").refused)


def test_both_oracles_refuse_what_is_not_a_hand_alike() -> None:
    """The input both oracles read (`oracle_input.request`): a laid card not held, more
    copies than the deck has, a face outside a reduced deck, a chíu-ù without three
    concealed copies are refused by each oracle with its own error, the same message."""
    from chanspec.checks.chan.brute import BruteError
    from chanspec.checks.chan.z3win import Z3InputError

    rules = reduced_rules(["2v", "2n", "2s"], 2, [(4, 1, 0)], 4, table_id="tiny-input")
    v2, n2, s2 = (cards.parse(c) for c in ("2v", "2n", "2s"))
    bad = [
        (([v2], [("chan", (n2, n2))], v2, "u"), "does not hold"),
        (([v2, v2], (), v2, "u"), "more copies"),
        (([cards.parse("chi")], (), v2, "u"), "outside this deck"),
        (([v2], (), v2, "chiu-u"), "three concealed copies"),
    ]
    for (hand, laid, cand, kind), words in bad:
        for oracle, error in ((Brute(rules), BruteError), (Z3Win(rules), Z3InputError)):
            with pytest.raises(error, match=words):
                oracle.judge(hand, laid, cand, kind)
    # the right size only: a wrong-sized hand is no win, not an error
    for oracle in (Brute(rules), Z3Win(rules)):
        assert not oracle.judge([v2, n2, s2], (), v2, "u").win
