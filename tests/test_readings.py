"""The readings of the family's text that became options (`found_by = "reading"` rows and
the third reading of `stuck-discard`): each value does what its row says, in the
reference machine (the packed machine is held equal to it by tests/test_packed.py).

Every test plays seeded games (the seed is in the test) and checks a rule against an
independent statement of it, so each can fail on a machine that ignores the value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from chanspec.checks.findings import witness
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import State, deal_random
from hypothesis import given, settings
from hypothesis import strategies as st

TABLE = table.load("family")


def games(opts: dict[str, str], n: int, seed: int, eager: float = 0.6) -> Iterator[State]:
    """Every state of `n` seeded games (claim-leaning random play) under `opts`."""
    for i in range(n):
        rng = random.Random(f"{seed}:{i}")
        players = (4, 5)[i % 2]
        rules = TABLE.resolve(players, opts)
        s = State(rules, deal_random(rules, rng.getrandbits(32), opener=i % players))
        while True:
            yield s
            acts = s.legal_actions()
            if s.is_terminal() or not acts:
                break
            claims = [a for a in acts if a.kind in ("eat", "chiu", "reclaim")]
            s.apply(rng.choice(claims) if claims and rng.random() < eager else rng.choice(acts))


def first(opts: dict[str, str], pred: Callable[[State], bool], n: int = 400,
          seed: int = 1) -> State:
    for s in games(opts, n, seed):
        if pred(s):
            return s.copy()
    raise AssertionError(f"no state found under {opts}")


# --------------------------------------------------------------------------- stuck-discard


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), empty=st.sampled_from(("as-written", "forbid")),
       ret=st.sampled_from(("a-discard", "not-a-discard")),
       both=st.sampled_from(("any-ca", "eaten-faces")))
def test_forbid_claim_never_leaves_a_player_stuck(seed: int, empty: str, ret: str,
                                                  both: str) -> None:
    opts = {"stuck-discard": "forbid-claim", "empty-hand": empty, "return-is-discard": ret,
            "ate-ca-no-both-sides": both}
    for s in games(opts, 4, seed, eager=0.9):
        assert not s.is_stuck(), [a.code() for a in s.history]
        if s.phase in ("discard", "return"):  # bans are never lifted under forbid-claim
            assert s._discardable(s.actor) == [  # type: ignore[arg-type]
                f for f in s.rules.faces if s.hands[s.actor][f]  # type: ignore[index]
                and (s.phase == "return" and ret == "not-a-discard"
                     or not s._discard_bans(s.actor, f))]  # type: ignore[arg-type]


def test_forbid_claim_refuses_exactly_the_claims_as_written_would_strand() -> None:
    """Under as-written the same games reach stuck discards; each one follows a claim
    that forbid-claim refuses (with the stuck-discard row as the reason)."""
    stuck = 0
    for s in games({"stuck-discard": "as-written"}, 120, 7, eager=0.9):
        if s.is_stuck() and s.phase == "discard":
            stuck += 1
            # the position before the claim, read under forbid-claim
            back = State.replay(s.rules, s.deal, s.history[:-1]).under(  # type: ignore[arg-type]
                s.rules.with_options(stuck_discard="forbid-claim"))
            claim = s.history[-1]
            e = back.explain(claim)
            assert not e.legal and e.rules == ("stuck-discard",), (claim.code(), e)
    assert stuck >= 5


# --------------------------------------------------------------------------- ate-ca-no-both-sides


def _eaten_pair_ban(s: State, seat: int, face: int) -> bool:
    """eaten-faces, stated from the laid-down groups: both faces in cạ the seat ate,
    one of them discarded, and they make a cạ."""
    eaten = {f for g in s.laid[seat] if g.kind == "ca" for f in g.faces}
    return face in eaten and any(s.rules.is_ca(face, e) for e in eaten & s.discarded[seat])


def test_eaten_faces_bans_both_sides_of_eaten_ca_only() -> None:
    seen = 0
    for s in games({"ate-ca-no-both-sides": "eaten-faces"}, 150, 3):
        for seat in range(s.n):
            for f in s.rules.faces:
                if s.hands[seat][f]:
                    cited = "ate-ca-no-both-sides" in s._discard_bans(seat, f)
                    assert cited == _eaten_pair_ban(s, seat, f), [a.code() for a in s.history]
                    seen += cited
    assert seen > 0


def test_the_headline_deadlock_rests_on_the_reading_of_both_sides() -> None:
    """OPEN_QUESTIONS' 'stuck as written in ~7 hands of 10' is the any-ca reading of
    ate-ca-no-both-sides; read as eaten-faces, the same measurement is a few per
    thousand."""
    rate = {}
    for reading in ("any-ca", "eaten-faces"):
        base = TABLE.resolve(4, {"ate-ca-no-both-sides": reading})
        alt = base.with_options(stuck_discard="as-written")
        (f,), _, _ = witness.frequency(base, [("as-written", alt)], 150, 2026)
        rate[reading] = f.diverged / 150
    assert rate["any-ca"] > 0.4 and rate["eaten-faces"] < 0.03, rate


# --------------------------------------------------------------------------- return-resume


def _let_go_return(s: State) -> bool:
    w = s.window
    return (s.phase == "window" and w is not None and w.source == "return" and not w.second
            and w.gate != w.turn and s.pending() == (w.turn,) and s.noc_left() > 0)


@pytest.mark.parametrize("value", ["dead-passer-draws", "to-next-seat"])
def test_a_returned_card_let_go(value: str) -> None:
    s = first({"return-resume": value}, _let_go_return, n=1500)
    w = s.window
    assert w is not None
    card, turn, gate = cards.code(w.card), w.turn, w.gate
    k = len(s.events)
    s.apply(s._plan.act["pass"][turn])
    after = s.events[k + 1:k + 3]  # what follows the pass itself
    if value == "to-next-seat":  # on to the next seat, as a discard would; no draw
        assert after[0] == {"type": "passed-on", "card": card, "to": (turn + 1) % s.n}
    else:  # dead at the gate, and the player who let it go draws
        assert after[0] == {"type": "dead", "card": card, "gate": gate}
        assert after[1]["type"] == "draw" and after[1]["seat"] == turn


# --------------------------------------------------------------------------- empty-noc-draw


def _last_draw(s: State) -> bool:
    w = s.window
    return (s.phase == "window" and w is not None and w.source == "draw" and not w.second
            and s.noc_left() == 0)


def test_noc_empty_the_last_card_only_completes_u() -> None:
    s = first({"empty-noc-draw": "noc-empty"}, _last_draw, n=200)
    assert {a.kind for a in s.legal_actions()} <= {"u", "chiu-u", "pass"}
    same = State.replay(s.rules.with_options(empty_noc_draw="draw-due"), s.deal,
                        s.history)  # type: ignore[arg-type]
    while not s.is_terminal() and {a.kind for a in s.legal_actions()} == {"pass"}:
        s.apply(s.legal_actions()[0])
    if s.is_terminal() and (s.outcome() or {}).get("result") == "draw":
        assert (s.outcome() or {})["rules"][0] == "empty-noc-draw"
    # the same position under draw-due still lets the drawer eat or pass the card on
    assert same.legal_actions() != [] and not same.is_terminal()


def test_noc_empty_is_honoured_on_every_last_card() -> None:
    asked = drawn = 0
    for s in games({"empty-noc-draw": "noc-empty"}, 120, 5):
        if s.phase == "window" and s.noc_left() == 0:  # someone could win on the last card
            asked += 1
            assert all(a.kind in ("u", "chiu-u", "pass", "timeout") for a in s.legal_actions())
        if s.is_terminal() and (s.outcome() or {}).get("result") == "draw":
            drawn += 1
            # the last card drawn died at once: no eat, chíu or passing on after it
            last = max(i for i, e in enumerate(s.events) if e["type"] == "draw")
            assert all(e["type"] in ("pass", "dead", "end") for e in s.events[last + 1:])
    assert asked >= 1 and drawn > 50, (asked, drawn)


def test_laid_groups_decides_claims_and_the_explanation_cites_it() -> None:
    """Row laid-groups in play: at the first position where lock-step random play under
    the two readings meets different legal actions, some seat with a laid chắn or cạ
    may win under pooled only (pooling keeps every split as laid, so never the other
    way).  The pooled machine's explanation of that win names the row, and so does the
    as-laid engine's refusal of the same hand (the as-laid machine may not even ask the
    seat: with no claim, a drawn card passes on at once)."""
    from chanspec.model.chan import win
    from test_option_flips import search_flip

    found = search_flip("laid-groups", "as-laid", "pooled")
    assert found is not None
    sa, la, lb = found
    sb = State(sa.rules.with_options(**{"laid-groups": "pooled"}), sa.deal)
    for a in sa.history:
        sb.apply(a)
    assert set(sb.legal_actions()) == lb
    wins = {a for a in la ^ lb if a.kind in ("u", "chiu-u")}
    assert wins and wins <= lb - la
    as_laid = win.engine(sa.rules)
    for a in wins:
        eb = sb.explain(a)
        assert eb.legal and "laid-groups" in eb.rules
        assert sb.window is not None and any(g.kind != "chiu" for g in sb.laid[a.seat])
        v = as_laid.judge(sb.held_faces(a.seat), sb.laid[a.seat], sb.window.card,
                          a.kind)  # type: ignore[arg-type]
        assert not v.win and "laid-groups" in v.rules
