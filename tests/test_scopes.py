"""Restriction scopes (model/chan/vocab.py SCOPES): how far a ban reaches from the card that
triggered it -- that face, its whole rank, or every face forming a cạ with it -- in the
loader, in the reference machine and in the clause measurement.  (The packed machine
is compared with the reference under every value in tests/test_packed.py.)"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from chanspec.checks.explore.invariants import choose
from chanspec.checks.findings import clauses
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, ActionError, State

TABLE = table.load("family")
SCOPE_ROWS = {"pass-chan-ban": "pass-chan-scope", "pass-ca-ban": "pass-ca-scope",
              "discarded-face-no-eat": "discarded-face-scope"}


def _problems(data: dict[str, Any]) -> list[shared_table.Problem]:
    with pytest.raises(shared_table.TableError) as e:
        table.from_data(data, "bad.toml")
    return e.value.problems


def _restriction(data: dict[str, Any], rule: str) -> dict[str, Any]:
    return next(r for r in data["restriction"] if r["rule"] == rule)


# --------------------------------------------------------------------------- the loader


def test_the_family_restrictions_name_their_scope_rows() -> None:
    rules = TABLE.resolve(4)
    got = {r.rule: (r.scope, r.scope_rule) for r in rules.restrictions}
    for rule, row in SCOPE_ROWS.items():
        assert got[rule] == ("face", row)  # the default is today's behaviour
        assert TABLE.rows[row].status == "open" and TABLE.rows[row].found_by == "reading"
        assert TABLE.rows[row].default == "face"
    wide = TABLE.resolve(4, {"pass-ca-scope": "ca-partners", "discarded-face-scope": "rank"})
    got = {r.rule: r.scope for r in wide.restrictions}
    assert got["pass-ca-ban"] == "ca-partners" and got["discarded-face-no-eat"] == "rank"
    assert got["ate-ca-no-both-sides"] == "face"


@pytest.mark.parametrize("change,field,words", [
    (lambda r: [r.pop("scope_option"), r.pop("scope_by_value"), r.update(scope="suit")],
     "scope", ("face, rank, ca-partners", "'suit'")),
    (lambda r: r.update(scope_option="no-such-row"), "scope_option", ("not an option row",)),
    (lambda r: r.pop("scope_by_value"), "scope_by_value", ("needs scope_by_value",)),
    (lambda r: r["scope_by_value"].pop("rank"), "scope_by_value",
     ("exactly the values", "face, rank")),
    (lambda r: r["scope_by_value"].update(rank="whole-suit"), "scope_by_value.rank",
     ("expected one of",)),
    (lambda r: r.update(scope="rank"), "scope", ("either scope or scope_option",)),
])
def test_a_bad_scope_names_the_restriction_and_field(change: Any, field: str,
                                                     words: tuple[str, ...]) -> None:
    data = copy.deepcopy(TABLE.data)
    change(_restriction(data, "pass-chan-ban"))
    probs = _problems(data)
    assert any(p.file == "bad.toml" and p.where == "pass-chan-ban" and p.field == field
               and all(w in p.message for w in words) for p in probs), probs


def test_a_wide_scope_on_a_ban_with_no_face_is_refused() -> None:
    data = copy.deepcopy(TABLE.data)
    _restriction(data, "decline-forfeits")["scope"] = "rank"
    probs = _problems(data)
    assert any(p.where == "decline-forfeits" and p.field == "scope" and "win" in p.message
               for p in probs), probs
    # ... while "face" there is just today's default, said out loud
    data = copy.deepcopy(TABLE.data)
    _restriction(data, "decline-forfeits")["scope"] = "face"
    assert table.from_data(data, "ok.toml").resolve(4).restrictions[4].scope == "face"


def test_scope_by_value_without_its_row_is_refused() -> None:
    data = copy.deepcopy(TABLE.data)
    _restriction(data, "pass-chan-ban").pop("scope_option")
    assert any(p.where == "pass-chan-ban" and p.field == "scope_option"
               for p in _problems(data))


def test_scope_faces() -> None:
    rules = TABLE.resolve(4)
    p = cards.parse
    assert rules.scope_faces("face", p("3n")) == (p("3n"),)
    assert rules.scope_faces("rank", p("3n")) == (p("3n"), p("3v"), p("3s"))
    assert rules.scope_faces("rank", p("lao")) == (p("lao"),)
    assert rules.scope_faces("ca-partners", p("3n")) == rules.scope_faces("rank", p("3n"))
    group = {p(x) for x in ("1v", "1n", "1s", "chi", "lao", "thang")}
    assert set(rules.scope_faces("ca-partners", p("chi"))) == group
    # the pairing the options choose: without Lão + Thang, Thang is no partner of Lão
    off = TABLE.resolve(4, {"lao-thang": "off"})
    assert set(off.scope_faces("ca-partners", p("lao"))) == group - {p("thang")}
    with pytest.raises(ValueError, match="unknown restriction scope"):
        rules.scope_faces("suit", p("3n"))


# --------------------------------------------------------------------------- the machine


def lockstep(row: str, narrow: str, wide: str, fixed: dict[str, str] | None = None,
             games: int = 300) -> tuple[State, Action] | None:
    """A state reached by the same actions under `row=narrow` and `row=wide` (other rows:
    `fixed`, else their defaults) with an action legal under narrow and not under wide;
    that state under `wide`, and the action."""
    for i in range(games):
        rng = random.Random(f"scope:{row}:{wide}:{i}")
        players = (4, 5)[i % 2]
        opts = dict(fixed or {})
        seed = rng.getrandbits(32)
        sa = State.new(TABLE.resolve(players, {**opts, row: narrow}), seed=seed)
        sb = State.new(TABLE.resolve(players, {**opts, row: wide}), seed=seed)
        eager = (0.0, 0.5)[i % 2]
        while True:
            la, lb = sa.legal_actions(), set(sb.legal_actions())
            only = [a for a in la if a not in lb]
            if only:
                return sb, only[0]
            both = [a for a in la if a in lb]
            if not both:
                break
            a = choose(both, rng, eager)
            sa.apply(a)
            sb.apply(a)
    return None


def refusal_only_under(row: str, narrow: str, wide: str, cite: str,
                       fixed: dict[str, str] | None = None, games: int = 200
                       ) -> tuple[State, Action] | None:
    """A state of a seeded game played under `row=wide` where some seat's action is
    refused with `cite` among the rows explaining it, while the same history replayed
    under `row=narrow` allows it: that state and the action."""
    for i in range(games):
        rng = random.Random(f"scope:{row}:{wide}:{i}")
        players = (4, 5)[i % 2]
        opts = dict(fixed or {})
        rules = TABLE.resolve(players, {**opts, row: wide})
        st = State.new(rules, seed=rng.getrandbits(32))
        while True:
            legal = st.legal_actions()
            if not legal:
                break
            for s in range(st.n):
                for a in st.candidate_actions(s):
                    if a in legal or cite not in st.explain(a).rules:
                        continue
                    try:
                        other = State.replay(rules.with_options(**{row: narrow}),
                                             st.deal, st.history)  # type: ignore[arg-type]
                    except ActionError:  # the histories part ways: not this one
                        continue
                    if a in other.legal_actions():
                        return st, a
            st.apply(choose(legal, rng, (0.0, 0.5)[i % 2]))
    return None


@pytest.mark.parametrize("row,narrow,wide,rule", [
    ("pass-chan-scope", "face", "rank", "pass-chan-ban"),
    ("pass-ca-scope", "face", "rank", "pass-ca-ban"),
    ("pass-ca-scope", "rank", "ca-partners", "pass-ca-ban"),
    ("discarded-face-scope", "face", "rank", "discarded-face-no-eat"),
])
def test_a_wider_scope_refuses_what_the_narrower_allows(row: str, narrow: str, wide: str,
                                                        rule: str) -> None:
    found = refusal_only_under(row, narrow, wide, row)
    assert found is not None, f"no seeded game shows {row}={wide} refusing more than {narrow}"
    st, a = found
    ex = st.explain(a)
    # refused by the restriction, carried to this face by the scope row
    assert not ex.legal and rule in ex.rules and row in ex.rules, (a, ex)
    face = a.card if a.kind in ("discard", "return") else st.window.card  # type: ignore[union-attr]
    carried = [m for m in st.marks[a.seat] if m.rule == rule and m.face == face and m.via]
    assert carried and all(m.via == row for m in carried), (a, st.marks[a.seat])
    # ... from another face of its reach, where the ban was triggered
    reach = st.rules.scope_faces(wide, face)
    assert any(m.rule == rule and not m.via and m.face in reach and m.face != face
               for m in st.marks[a.seat])
    if wide == "ca-partners":  # a face the rank does not reach: the Nhất/yêu group
        assert face not in st.rules.scope_faces("rank", next(
            m.face for m in st.marks[a.seat] if m.rule == rule and not m.via
            and m.face in reach and m.face != face and m.origin == carried[0].origin))


def test_eat_same_face_differs_from_ca_same_face_only_under_a_wider_scope() -> None:
    # under pass-ca-scope=face the eat-as-chắn ban of eat-same-face can never matter (a
    # holder of the face also let a chắn go; others never hold it): play cannot tell it
    assert lockstep("pass-ca-ban", "ca-same-face", "eat-same-face", games=120) is None
    found = refusal_only_under("pass-ca-ban", "ca-same-face", "eat-same-face",
                               "pass-ca-ban", {"pass-ca-scope": "rank"})
    assert found is not None
    st, a = found
    assert a.kind == "eat" and a.card == st.window.card  # type: ignore[union-attr]
    assert "pass-ca-scope" in st.explain(a).rules


def test_the_default_scope_records_the_same_marks_as_before() -> None:
    # "face" adds no mark and cites no scope row: every mark is on its trigger's face
    rules = TABLE.resolve(4)
    rng = random.Random(5)
    st = State.new(rules, seed=5)
    while st.legal_actions():
        st.apply(choose(st.legal_actions(), rng, 0.5))
    assert any(st.marks) and all(m.via == "" for ms in st.marks for m in ms)


# --------------------------------------------------------------------------- the clauses


def test_a_clause_dead_under_face_is_in_force_under_a_wider_scope() -> None:
    narrow = clauses.measure(TABLE.resolve(4), 30, 7, "uniform")
    wide = clauses.measure(TABLE.resolve(4, {"pass-ca-scope": "ca-partners"}), 30, 7,
                           "uniform")
    by_n = {(c["rule"], c["ban"]): c for c in narrow["clauses"]}
    by_w = {(c["rule"], c["ban"]): c for c in wide["clauses"]}
    key = ("pass-ca-ban", "eat-ca")
    assert by_w[key]["refused"] > by_n[key]["refused"]
    assert by_w[key]["refused"] >= 5
    assert by_n[key]["scope_rule"] == "pass-ca-scope"
    # the chíu ban of letting a chắn go: dead by counting under face, not under rank
    chiu = ("pass-chan-ban", "chiu")
    assert clauses.verdict(by_n[chiu]) == "counting" and by_n[chiu]["in_force"] == 0
    rank = TABLE.resolve(4, {"pass-chan-scope": "rank"})
    assert clauses.counting_proof(rank, *chiu) is None
    assert clauses.counting_proof(TABLE.resolve(4), *chiu) is not None


def test_counting_proofs() -> None:
    same = TABLE.resolve(4, {"pass-ca-ban": "eat-same-face"})
    assert clauses.counting_proof(same, "pass-ca-ban", "eat-chan") is not None
    assert clauses.counting_proof(same, "pass-ca-ban", "eat-ca") is None
    assert clauses.counting_proof(same.with_options(**{"pass-ca-scope": "rank"}),
                                  "pass-ca-ban", "eat-chan") is None
    assert clauses.counting_proof(same.with_options(**{"stuck-discard": "forbid-claim"}),
                                  "pass-ca-ban", "eat-chan") is None
    assert clauses.counting_proof(same, "discarded-face-no-eat", "eat-chan") is None
    doc = [clauses.measure(same, 3, 1, "uniform")]
    md = "\n".join(clauses.markdown(doc, "en"))
    assert "dead by counting" in md and "asked as a question: `pass-ca-scope`" in md
    # with the table, by its title (the id only in the footnote)
    md = "\n".join(clauses.markdown(doc, "vi-only", TABLE))
    assert f"là một câu hỏi: {TABLE.rows['pass-ca-scope'].title('vi')}" in md
    assert "do đếm quân" in md
