"""Xướng as a phase of the machine (spec/classic.toml [turn] declare_rule, [declaration];
model/chan/declare.py; `State` phase ``declare``).

Golden cases are checked by hand against seed 000: "[Xướng]" ¶1 s3 (naming a cước the
hand lacks costs the winner; leaving one out forfeits it), "[Cước]" #3 (chì), #5 (địa
ù), #12 (bạch thủ chi replaces bạch thủ: naming bạch thủ is wrong), #19 s4 (a phá thiên
hand must name bạch thủ too), and 001 "[Cách tính điểm]" ¶2 for the amounts.  Property
tests play seeded classic hands to the declaration and check that the correct one is
listed and judged correct, that every declaration survives JSON, logs, ITF and replay,
and that the family's table never declares.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from chanspec.checks.conform import itf, logs, refengine, replay, vectors
from chanspec.checks.explore.invariants import choose
from chanspec.model.chan import cards, declare, table
from chanspec.model.chan.game import Action, ActionError, State
from hypothesis import given, settings
from hypothesis import strategies as st
from test_classic import classic_data
from test_classic_play import _deal, _pass_until, _rules
from test_score import BT, _win
from test_table import _has, problems_of, to_toml

CLASSIC = table.load("classic")
FAMILY = table.load("family")
# seat 1's hand: chắn 2v 3v 4v 5v 6v 7v, cạ 8v-8n 9v-9n 2n-2s and a lone Tam Văn; the
# nọc's first card is the second Tam Văn: a seventh chắn, drawn at seat 1's own gate
# before its turn has passed it (chì, 000 [Cước] #3; địa ù, #5).  Two red cards (8v, 9v),
# no set, no single wait of 6 chắn: nothing else.
HAND = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5v", "6v", "6v", "7v", "7v",
        "8v", "8n", "9v", "9n", "2n", "2s", "3n"]
CORRECT = ("cuoc-chi", "cuoc-dia-u")


def _won(**options: str) -> State:
    """Seat 1 wins on the nọc's first card (see HAND) and is to declare."""
    rules = _rules(**options)
    s = State(rules, _deal(rules, [["chi"], HAND], ["3n"]))
    s.apply(Action("discard", 0, cards.parse("chi")))
    win = Action("u", 1)
    _pass_until(s, win)
    s.apply(win)
    while s.phase == "window":
        s.apply(Action("pass", s.pending()[0]))
    return s


def _declared(s: State, *named: str) -> dict[str, Any]:
    c = s.copy()
    c.apply(Action("declare", 1, None, tuple(named)))
    assert c.is_terminal() and c.result is not None
    return dict(c.result["declaration"])


# --------------------------------------------------------------------------- golden


def test_the_win_opens_the_declaration_phase() -> None:
    s = _won()
    assert s.phase == "declare" and s.pending() == (1,) and not s.is_terminal()
    assert s.result is not None and s.result["winner"] == 1 and s.result["kind"] == "u"
    assert not [e for e in s.events if e["type"] == "end"]  # the hand is not over yet
    assert declare.correct(s.truth()) == CORRECT
    assert s.legal_actions()[0] == Action("declare", 1, None, CORRECT)
    assert s.legal_actions(0) == [] and s.expected_hand_size(1) == 20


def test_a_correct_declaration_is_paid_in_full() -> None:
    """000 [Xướng] ¶1 s1: chì and địa ù named; 001 ¶2: every cước of at most 3 điểm, so
    the sum of dịch (1 + 1) plus 2 = 4."""
    d = _declared(_won(), *CORRECT)
    assert d["judgement"] == "correct" and d["consequence"] == "paid"
    assert d["paid"]["total"] == 4 and d["paid"]["case"] == "low" and d["den"] is None
    assert d["rules"][0] == "xuong" and "score-formula" in d["rules"]


def test_an_under_declaration_forfeits_what_is_left_out() -> None:
    """000 [Xướng] ¶1 s3: địa ù left out is not paid: chì alone, 1 dịch + 2 = 3."""
    d = _declared(_won(), "cuoc-chi")
    assert d["judgement"] == "under" and d["missing"] == ["cuoc-dia-u"]
    assert d["consequence"] == "paid-named" and d["paid"]["total"] == 3
    assert {"xuong", "cuoc-dia-u"} <= set(d["rules"])


def test_an_over_declaration_makes_the_winner_pay() -> None:
    """000 [Xướng] ¶1 s3: tôm named without its three cards: xướng sai, the winner pays
    (đền).  How much is open (row xuong-sai-den): the worth of what was named (chì 3/1,
    địa ù 3/1, tôm 4/1: tôm is above 3 điểm, so 3 dịch + 3 = 6) or of what is held (4)."""
    s = _won()
    d = _declared(s, "cuoc-chi", "cuoc-dia-u", "cuoc-tom")
    assert d["judgement"] == "over" and d["wrong"] == ["cuoc-tom"]
    assert d["consequence"] == "den" and d["paid"] is None and d["den"]["total"] == 6
    assert {"xuong", "cuoc-tom", "xuong-sai-den"} <= set(d["rules"])
    held = _declared(_won(xuong_sai_den="held"), "cuoc-chi", "cuoc-dia-u", "cuoc-tom")
    assert held["consequence"] == "den" and held["den"]["total"] == 4


def test_the_declaration_ends_the_hand_with_events_citing_rows() -> None:
    s = _won()
    s.apply(Action("declare", 1, None, ("cuoc-chi",)))
    declared, end = s.events[-2:]
    assert declared == {"type": "declared", "seat": 1, "judgement": "under",
                        "consequence": "paid-named",
                        "rules": s.result["declaration"]["rules"]}  # type: ignore[index]
    assert end["type"] == "end" and end["result"] == "win" and end["seat"] == 1
    # the hand is over: nothing more is legal (row xuong, the reveal, says why)
    assert s.explain(Action("declare", 1, None, CORRECT)).rules == ("xuong",)
    assert s.legal_actions() == [] and s.pending() == ()


def test_must_declare_bach_thu_in_a_pha_thien_hand() -> None:
    """000 [Cước] #19 s4: a phá thiên hand won as bạch thủ must name bạch thủ too (row
    xuong-bat-buoc); what leaving it out costs is open (row xuong-thieu-bat-buoc): as any
    cước left out (default), or as a wrong declaration."""
    laid = ("5v 5v", "3n 3n", "4s 4s", "7v 7v", "9n 9n")
    dealt = "5v 3n 4s 7v 9n 2n 2s 3v 3s 6n 6s 7n 7s 4n 8v 9v 9s 8s chi"
    rules, j, _ = _win(BT, "4n", laid=laid, source="other-draw", dealt=dealt)
    good = declare.correct(j)
    assert {"cuoc-pha-thien", "cuoc-bach-thu"} <= set(good)
    left = tuple(r for r in good if r != "cuoc-bach-thu")
    d = declare.judge_declaration(rules, j, left)
    assert d.judgement == "must-missing" and d.must_missing == ("cuoc-bach-thu",)
    assert d.consequence == "paid-named" and d.paid is not None and d.den is None
    assert {"xuong-thieu-bat-buoc", "xuong-bat-buoc", "cuoc-bach-thu"} <= set(d.rules)
    strict = rules.table.resolve(rules.players, {**rules.options,
                                                 "xuong-thieu-bat-buoc": "den"})
    d = declare.judge_declaration(strict, j, left)
    assert d.judgement == "must-missing" and d.consequence == "den" and d.den is not None
    # without phá thiên (a chắn dealt), leaving bạch thủ out is a plain under-declaration
    rules, j, _ = _win(BT, "4n", laid=laid, source="other-draw",
                       dealt=dealt.replace("chi", "5v"))
    left = tuple(r for r in declare.correct(j) if r != "cuoc-bach-thu")
    assert declare.judge_declaration(rules, j, left).judgement == "under"


def test_naming_bach_thu_for_bach_thu_chi_is_wrong() -> None:
    """000 [Cước] #12: in a bạch thủ chi hand, naming bạch thủ is a wrong declaration; the
    entry that replaces it (cuoc-bach-thu-chi) is cited."""
    rules, j, _ = _win(BT.replace("4n", "chi"), "chi", laid=("5v 5v",), source="other-draw")
    named = tuple(sorted(declare.correct(j) + ("cuoc-bach-thu",)))
    d = declare.judge_declaration(rules, j, named)
    assert d.judgement == "over" and d.wrong == ("cuoc-bach-thu",)
    assert {"cuoc-bach-thu", "cuoc-bach-thu-chi", "xuong"} <= set(d.rules)


@pytest.mark.parametrize("named, expected", [
    (("cuoc-khong-co",), "no cước of table 'classic'"),
    (("cuoc-chi", "cuoc-chi"), "named more than once"),
    (("cuoc-dia-u", "cuoc-chi"), "listed sorted"),
])
def test_a_malformed_declaration_is_refused_naming_what_was_expected(
        named: tuple[str, ...], expected: str) -> None:
    s = _won()
    a = Action("declare", 1, None, named)
    assert not s.is_legal(a)
    with pytest.raises(ActionError, match=expected) as exc:
        s.apply(a)
    assert "xuong" in exc.value.rules and s.phase == "declare"


def test_only_the_winner_declares_and_only_a_declaration() -> None:
    s = _won()
    for a in (Action("declare", 0, None, CORRECT), Action("pass", 1),
              Action("discard", 1, cards.parse("2v"))):
        assert not s.is_legal(a)
        e = s.explain(a)
        assert not e.legal and "xuong" in e.rules
    with pytest.raises(ActionError):
        s.apply(Action("pass", 1))
    before = State.new(_rules(), seed=1)
    e = before.explain(Action("declare", 0, None, CORRECT))
    assert not e.legal and e.rules == ("xuong",)


def test_every_subset_is_legal_and_the_listed_set_is_representative() -> None:
    s = _won()
    ids = declare.cuoc_ids(s.rules)
    listed = [a.cuoc for a in s.legal_actions()]
    unders = [tuple(r for r in CORRECT if r != x) for x in CORRECT]
    overs = [tuple(sorted(CORRECT + (x,))) for x in ids if x not in CORRECT]
    assert listed == [CORRECT, *unders, *overs]
    rng = random.Random(3)
    for _ in range(20):
        named = tuple(sorted(rng.sample(ids, rng.randrange(len(ids) + 1))))
        assert s.is_legal(Action("declare", 1, None, named))


def test_action_code_json_and_parse_round_trip() -> None:
    for a in (Action("declare", 2, None, ("cuoc-chi", "cuoc-tom")), Action("declare", 0),
              Action("eat", 1, cards.parse("3n"))):
        assert Action.from_json(a.as_json()) == a and Action.parse(a.code()) == a
    assert Action("declare", 2, None, ("cuoc-chi",)).as_json() == {
        "type": "declare", "seat": 2, "cuoc": ["cuoc-chi"]}
    assert "cuoc" not in Action("pass", 1).as_json()  # other kinds are unchanged


# --------------------------------------------------------------------------- properties


def _to_declare(seed: int, players: int) -> State | None:
    """A seeded classic hand played eagerly to the declaration (None: no win)."""
    rules = CLASSIC.resolve(players)
    s = State.new(rules, seed=seed)
    rng = random.Random(seed)
    while s.phase != "declare" and not s.is_terminal():
        acts = s.legal_actions()
        if not acts:
            return None
        s.apply(choose(acts, rng, 1.0), check=False)
    return s if s.phase == "declare" else None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       pick=st.integers(0, 10**6))
def test_correct_is_listed_and_judged_correct_and_declarations_round_trip(
        seed: int, players: int, pick: int) -> None:
    s = next((x for k in range(80) if (x := _to_declare(seed + k, players)) is not None),
             None)
    assert s is not None, "eighty seeded eager hands in a row without a win"
    acts = s.legal_actions()
    good = Action("declare", s.actor or 0, None, declare.correct(s.truth()))
    assert acts[0] == good
    assert declare.judge_declaration(s.rules, s.truth(), good.cuoc).judgement == "correct"
    a = acts[pick % len(acts)]
    after = s.child(a)
    res = after.outcome()
    assert after.is_terminal() and res is not None
    judged = declare.judge_declaration(s.rules, s.truth(), a.cuoc)
    assert res["declaration"] == judged.as_json()
    assert (judged.judgement == "correct") == (a == good)
    # JSON, the NDJSON log, replay and ITF carry the declaration
    back = State.from_json(after.to_json())
    assert back == after and back.outcome() == res
    assert deal_and_history(back) == deal_and_history(after)
    assert s.deal is not None
    text = logs.dumps(logs.record(s.rules, s.deal, after.history))
    rep = replay.replay_text(text, "<xuong>")
    assert rep.status == "conforming" and rep.state is not None
    assert rep.state.outcome() == res
    tr = itf.trace(s.rules, s.deal, after.history)
    assert tr["states"][-1]["outcome"]["judgement"] == judged.judgement
    assert tr["states"][-1]["action"]["cuoc"] == list(a.cuoc)
    rep = replay.replay_log(itf.to_log(tr))
    assert rep.status == "conforming" and rep.state is not None
    assert rep.state.outcome() == res


def deal_and_history(s: State) -> tuple[Any, ...]:
    return (s.deal, tuple(s.history), tuple(map(str, s.events)))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5]))
def test_the_family_table_never_declares(seed: int, players: int) -> None:
    rules = FAMILY.resolve(players)
    assert not declare.declares(rules)
    s = State.new(rules, seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal() and s.legal_actions():
        assert s.phase != "declare"
        a = choose(s.legal_actions(), rng, 0.9)
        assert not s.is_legal(dataclasses.replace(a, cuoc=("cuoc-chi",)))  # only xướng names
        s.apply(a, check=False)
    assert s.phase != "declare"
    assert all(a.kind != "declare" and not a.cuoc for a in s.history)
    out = s.outcome()
    assert out is None or "declaration" not in out
    assert not [e for e in s.events if e["type"] == "declared"]


# --------------------------------------------------------------------------- engines


def test_the_reference_engine_takes_a_declaration() -> None:
    s = _won()
    assert s.deal is not None
    sess = refengine.Session()
    assert sess.handle({"op": "start", "ruleset": "classic", "players": 2,
                        "options": s.rules.options, "deal": s.deal.as_json()})["ok"]
    for a in s.history:
        assert sess.handle({"op": "apply", "action": a.as_json()})["ok"], a
    legal = sess.handle({"op": "legal", "seat": 1})["actions"]
    assert legal[0] == {"type": "declare", "seat": 1, "cuoc": list(CORRECT)}
    bad = sess.handle({"op": "apply", "action": {"type": "declare", "seat": 1,
                                                  "cuoc": ["cuoc-khong-co"]}})
    assert not bad["ok"] and "xuong" in bad["rules"]
    assert sess.handle({"op": "outcome"}) == {"ok": True, "terminal": False}
    two = ["cuoc-bach-dinh", "cuoc-chi", "cuoc-dia-u", "cuoc-tom"]  # not a listed one
    assert sess.handle({"op": "apply", "action": {"type": "declare", "seat": 1,
                                                  "cuoc": two}})["ok"]
    out = sess.handle({"op": "outcome"})
    assert out["terminal"] and out["outcome"]["judgement"] == "over"
    assert out["outcome"]["consequence"] == "den"
    events = sess.handle({"op": "events"})["events"]
    assert [e["type"] for e in events[-2:]] == ["declared", "end"]


def test_a_log_line_of_a_declaration_is_checked() -> None:
    ln = logs.LineCheck("<t>", 3, {}, 2)
    with pytest.raises(logs.LogError, match="cuoc"):
        ln.action_fields({"type": "declare", "seat": 1})
    with pytest.raises(logs.LogError, match="list of cước row ids"):
        ln.action_fields({"type": "declare", "seat": 1, "cuoc": "cuoc-chi"})
    e = logs.parse_entry("<t>", 4, {"type": "declare", "seat": 1, "cuoc": []}, 2)
    assert e.action == Action("declare", 1)
    with pytest.raises(logs.LogError, match="judgement"):
        logs.parse_entry("<t>", 4, {"type": "declared", "seat": 1, "judgement": "maybe",
                                    "consequence": "paid", "rules": ["xuong"]}, 2)


def test_vectors_make_correct_under_and_over_cases() -> None:
    assert vectors.declaration_inputs(FAMILY) == []
    inputs = vectors.declaration_inputs(CLASSIC, hands=1)
    kinds = [i.id.rsplit("-", 1)[1] for i in inputs]
    assert kinds == ["correct", "under", "over"]
    for inp in inputs:
        doc = vectors.build_case(inp)
        refused, last = doc["steps"][-2:]
        assert not refused["valid"] and vectors.NO_SUCH_CUOC in refused["action"]["cuoc"]
        assert last["valid"] and last["action"]["type"] == "declare"
        judged = [t for t in last["then"] if t["type"] == "declared"]
        assert judged and judged[0]["judgement"] == inp.id.rsplit("-", 1)[1]
        assert doc["end"]["terminal"] and "xuong" in doc["covers"]["rules"]
        assert vectors.dumps_case(vectors.build_case(vectors.case_input(doc))) == \
            vectors.dumps_case(doc)


# --------------------------------------------------------------------------- the table


def test_the_declaration_section_is_checked() -> None:
    data = classic_data()
    del data["declaration"]
    assert _has(problems_of(to_toml(data)), "turn", "declare_rule", "[declaration]")
    data = classic_data()
    del data["turn"]["declare_rule"]
    assert _has(problems_of(to_toml(data)), "declaration", "rule", "declare_rule")
    data = classic_data()
    del data["declaration"]["must_missing_rule"]
    assert _has(problems_of(to_toml(data)), "declaration", "must", "go together")
    data = classic_data()
    data["declaration"]["must"][0]["cuoc"] = ["cuoc-bach-thuu"]
    assert _has(problems_of(to_toml(data)), "declaration", "must[0].cuoc", "[[cuoc]] rows")
    data = classic_data()
    data["declaration"]["over_rule"] = {"rule": "xuong", "value": "forgive"}
    assert _has(problems_of(to_toml(data)), "declaration", "over_rule.value", "not one of")
