"""The reference machine, played: random simulation, Hypothesis exploration, golden games.

* `test_random_simulation`: an OpenSpiel-style campaign of seeded games over both player
  counts and every option value, every invariant of `chanspec.checks.explore.invariants` checked
  at every step.  A failure prints the campaign seed, the game and its action list.
* `TestGame`: the Hypothesis `RuleBasedStateMachine` (CI profile, fixed seed).
* golden games (tests/golden/*.json): small hand-built deals where named rules of the
  family's text fire (``c*.json``: of classic Chắn, naming ``"ruleset": "classic"``);
  each file cites its sections, gives the deal, the explicit actions,
  what must hold at chosen steps and the outcome, all checked by hand (see `hand_check`).
* the invariant checks themselves are shown to fail on deliberately broken machines.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.explore import invariants, simulate
from chanspec.model.chan import cards, game, table, win
from chanspec.model.chan.game import Action, Deal, State

GOLDEN = Path(__file__).parent / "golden"
SIM_SEED = int(os.environ.get("CHANSPEC_SIM_SEED", "3"))
SIM_GAMES = int(os.environ.get("CHANSPEC_SIM_GAMES", "300"))


# --------------------------------------------------------------------------- simulation


def test_random_simulation() -> None:
    result = simulate.campaign(SIM_SEED, SIM_GAMES)
    assert not result.findings, (
        f"campaign seed {SIM_SEED} (CHANSPEC_SIM_SEED): {len(result.findings)} finding(s)\n\n"
        + "\n\n".join(str(f) for f in result.findings))
    st = result.stats
    assert st.games == SIM_GAMES
    # the campaign must reach the interesting parts of the machine, not just deal
    assert st.outcomes.get("draw", 0) > 0
    assert sum(v for k, v in st.outcomes.items() if k.startswith("win")) > 0
    for kind in ("eat", "chiu", "reclaim", "none"):
        assert st.claims_applied.get(kind, 0) > 0, (kind, st.as_json())


def test_campaign_is_reproducible_from_its_seed() -> None:
    a = simulate.campaign(11, 6)
    b = simulate.campaign(11, 6)
    assert a.stats.as_json() == b.stats.as_json()
    t = table.load("family")
    spec = simulate.game_spec(t, 11, 4)
    assert spec == simulate.game_spec(t, 11, 4)
    st1 = simulate.play_spec(t, spec)
    st2 = simulate.play_spec(t, spec)
    assert [a.code() for a in st1.history] == [a.code() for a in st2.history]


# --------------------------------------------------------------------------- golden games


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


def load_golden(path: Path) -> tuple[dict[str, Any], table.Rules, Deal]:
    g = json.loads(path.read_text(encoding="utf-8"))
    rules = table.rules(g.get("ruleset", "family"), g["players"], g.get("options") or {})
    d = g["deal"]
    deal = Deal(tuple(tuple(cards.parse_many(h)) for h in d["hands"]),
                tuple(cards.parse_many(d["noc"])), int(d["opener"]))
    return g, rules, deal


def check_point(st: State, c: dict[str, Any], where: str) -> None:
    if "phase" in c:
        assert st.phase == c["phase"], where
    if "pending" in c:
        assert list(st.pending()) == c["pending"], (where, st.pending())
    if "window" in c:
        w = st.window
        assert w is not None, where
        want = c["window"]
        got = {"card": cards.code(w.card), "source": w.source, "gate": w.gate, "turn": w.turn}
        assert {k: got[k] for k in want} == want, (where, got)
    legal = st.legal_actions()
    for code in c.get("legal", []):
        assert Action.parse(code) in legal, (where, code, [a.code() for a in legal])
        assert st.explain(Action.parse(code)).legal
    for code, rule_ids in c.get("illegal", {}).items():
        a = Action.parse(code)
        assert a not in legal, (where, code)
        e = st.explain(a)
        assert not e.legal and set(rule_ids) <= set(e.rules), (where, code, e)
    for spec in c.get("engine", []):
        s = spec["seat"]
        v = win.engine(st.rules).judge(st.held_faces(s), st.laid[s], cards.parse(spec["card"]),
                                       spec["kind"])
        assert v.win == spec["win"], (where, spec, v)
    for seat, groups in c.get("laid", {}).items():
        got = [sorted(cards.codes(g.faces)) for g in st.laid[int(seat)]]
        assert got == [sorted(g) for g in groups], (where, seat, got)
    if "noc_left" in c:
        assert st.noc_left() == c["noc_left"], where
    if "dead_total" in c:
        assert sum(len(d) for d in st.dead) == c["dead_total"], where
    if "draw_seats" in c:
        seats = [e["seat"] for e in st.events if e["type"] == "draw"]
        assert seats == c["draw_seats"], (where, seats)


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_game(path: Path) -> None:
    g, rules, deal = load_golden(path)
    # the family's text by its own sections (§N); another table by its rows' sections
    known = {r.section for r in rules.table.rows.values()}
    assert g["sections"] and all(s.startswith("§") if rules.table.id == "family" else s in known
                                 for s in g["sections"]), path
    assert g["hand_check"], "every golden game says how it was checked by hand"
    actions = [Action.parse(a) for a in g["actions"]]
    checks = {c["after"]: c for c in g.get("checks", [])}
    st = State(rules, deal)
    watch = invariants.Watch(st, f"golden {path.name}")  # every invariant at every step
    if 0 in checks:
        check_point(st, checks[0], f"{path.name} before any action")
    for i, a in enumerate(actions, start=1):
        watch.step(a)
        if i in checks:
            check_point(st, checks[i], f"{path.name} after {i} action(s), last {a.code()}")
    assert st.is_terminal(), f"{path.name}: the golden game must be complete"
    out = st.outcome() or {}
    for k, v in g["outcome"].items():
        assert out.get(k) == v, (path.name, k, out.get(k), v)
    # the whole game survives JSON and replay
    again = State.from_json(json.loads(json.dumps(st.to_json())))
    assert again.fingerprint() == st.fingerprint() and again.outcome() == out


def test_golden_games_cover_the_requested_sections() -> None:
    sections = {s for p in golden_files() for s in load_golden(p)[0]["sections"]}
    for want in ("§3 bullet 1", "§2 Chíu", "§4 bullet 2", "§4 bullet 3", "§4 bullet 4",
                 "§4 bullet 5", "§2, first paragraph"):
        assert want in sections, want


def test_winner_opens_the_next_hand() -> None:
    """§2: the winner of golden game 06 opens the next hand and plays first."""
    g, rules, deal = load_golden(GOLDEN / "06_u_priority_owner_first.json")
    st = State.replay(rules, deal, [Action.parse(a) for a in g["actions"]])
    winner = st.outcome()["winner"]  # type: ignore[index]
    nxt = State.new(rules, seed=5, opener=winner)
    assert nxt.pending() == (winner,) and nxt.hand_size(winner) == rules.variant.opener_cards


# --------------------------------------------------------------------------- the checks can fail


def _broken_game(monkeypatch: pytest.MonkeyPatch, attr: str, replacement: Any,
                 seeds: range = range(40)) -> invariants.Finding:
    monkeypatch.setattr(game.State, attr, replacement)
    t = table.load("family")
    for seed in seeds:
        spec = simulate.game_spec(t, 99, seed)
        try:
            simulate.play_spec(t, spec, explain_checks=False)
        except invariants.Finding as f:
            return f
    raise AssertionError("the broken machine was not caught")


def test_census_check_catches_a_lost_card(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = game.State._let_go

    def lose(self: State, w: Any) -> None:
        orig(self, w)
        if self.dead[w.gate] and w.card == cards.parse("chi"):
            self.dead[w.gate].pop()

    f = _broken_game(monkeypatch, "_let_go", lose)
    assert f.check == "census" and f.actions


def test_priority_check_catches_seat_order_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Golden game 07 with a machine that always counts from the gate's owner."""
    g, rules, deal = load_golden(GOLDEN / "07_u_priority_receiver_first.json")

    def owner_first(self: State, w: Any) -> list[int]:
        return [(w.gate + i) % self.n for i in range(self.n)]

    monkeypatch.setattr(game.State, "_seat_order", owner_first)
    watch = invariants.Watch(State(rules, deal), "golden 07, broken")
    with pytest.raises(invariants.Finding) as exc:
        for a in g["actions"]:
            watch.step(Action.parse(a))
    assert exc.value.check == "priority"
    assert "3:u" in str(exc.value) and exc.value.actions[-1] == "4:chiu"


def test_u_check_catches_a_win_allowed_on_a_discard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine that lets a discard complete plain ù (against §4 bullet 1)."""
    g, rules, deal = load_golden(GOLDEN / "01_pass_chan_ban.json")
    orig = game.State._window_options

    def lax(self: State, w: Any) -> dict[int, list[Action]]:
        opts = orig(self, w)
        for s, acts in opts.items():
            if any(a.kind == "chiu-u" for a in acts):
                acts.insert(0, Action("u", s))
        return opts

    monkeypatch.setattr(game.State, "_window_options", lax)
    watch = invariants.Watch(State(rules, deal), "golden 01, broken")
    with pytest.raises(invariants.Finding) as exc:
        for a in g["actions"]:
            watch.step(Action.parse(a))
    assert exc.value.check == "u-legal"


def test_termination_check_catches_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine that puts each dead card back on top of the nọc (against no-recycle) keeps
    every card accounted for but need never end: the measure sees it at the first such step,
    long before any step cap."""
    orig = game.State._let_go

    def recycle(self: State, w: Any) -> None:
        before = len(self.dead[w.gate])
        orig(self, w)
        if len(self.dead[w.gate]) > before:
            card = self.dead[w.gate].pop()
            self.noc = self.noc[:self.noc_pos] + (card,) + self.noc[self.noc_pos:]

    f = _broken_game(monkeypatch, "_let_go", recycle)
    assert f.check == "termination", f


def test_finding_message_is_replayable() -> None:
    rules = table.rules("family", 4)
    st = State.new(rules, seed=1)
    rng = random.Random(1)
    for _ in range(5):
        st.apply(rng.choice(st.legal_actions()))
    f = invariants.Finding("demo", "a demonstration", st, "seed 1")
    text = str(f)
    assert "seed 1" in text and json.dumps(f.actions) in text
    back = State.from_json(f.state_json)
    assert [a.code() for a in back.history] == f.actions


# --------------------------------------------------------------------------- machine caches


def test_ban_index_agrees_with_the_marks() -> None:
    """The machine keeps an index of each seat's bans up to date incrementally (for speed);
    at every step of seeded games (reclaims, copies and all) it must say exactly what a
    scan of the marks says."""
    t = table.load("family")
    bans = ("eat-chan", "eat-ca", "chiu", "win")
    for i in range(40):
        rng = random.Random(f"bans:{i}")
        opts = {k: rng.choice(v) for k, v in t.option_space()}
        opts["reclaim-deadline"] = "before-next-acts" if i % 2 else opts["reclaim-deadline"]
        st = State.new(t.resolve((4, 5)[i % 2], opts), seed=i)
        while st.legal_actions():
            st.apply(invariants.choose(st.legal_actions(), rng, 0.7))
            if rng.random() < 0.2:
                st = st.copy()
            for s in range(st.n):
                for f in list(range(cards.NUM_FACES)) + [None]:
                    for ban in bans:
                        # each mark's row, then the scope row that carried it to f
                        scan = [r for m in st.marks[s]
                                if m.ban == ban and (m.face is None or m.face == f)
                                for r in (m.rule, m.via) if r]
                        assert st._banned(s, ban, f) == scan, (i, s, ban, f)
                h = st.hands[s]
                ok = [f for f in st.rules.faces if h[f] and not st._discard_bans(s, f)]
                held = [f for f in st.rules.faces if h[f]]
                # bans are lifted only under lift-bans; a return is free of them when the
                # table says giving a card back is not a discard
                stuck_ok = st.rules.options["stuck-discard"] != "lift-bans"
                free = (st.phase == "return"
                        and st.rules.options["return-is-discard"] == "not-a-discard")
                want = held if free else (ok if ok or stuck_ok else held)
                assert st._discardable(s) == want, (i, s)


def test_explain_a_win_on_a_passed_on_card() -> None:
    """A drawn card the drawer passed on: wins on it were settled when it was turned up, and
    the explanation cites the drawn-card-offer row, not the row that allows ù on a draw."""
    rules = table.rules("family", 5)
    for seed in range(50):
        st = State.new(rules, seed=seed)
        rng = random.Random(seed)
        while st.legal_actions():
            w = st.window
            if w is not None and w.second and w.source == "draw":
                s = w.turn
                e = st.explain(Action("u", s))
                assert not e.legal and e.rules == ("drawn-card-offer",), e
                assert "quân đã được chuyển" in e.vi and "passed on" in e.en
                return
            st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("no passed-on drawn card in 50 seeded hands")


def test_reclaim_does_not_undo_bans_of_an_earlier_pass() -> None:
    """§4 (passing a card one could eat bans it) with reclaim-deadline=before-next-acts.

    Seat 0 passes the Chi Chi seat 3 discards although it could eat it as a cạ
    (pass-ca-ban: no eating Chi Chi as a cạ).  The card dies and seat 0 draws another
    Chi Chi, which it may not eat; nobody else may claim it at the gate, so it is passed
    on.  Taking it back would undo only the bans of *this* pass -- there was none -- so
    the ban from the earlier pass still holds and seat 0 is not offered a reclaim.
    (Found while building the packed machine: the reference used to ignore the earlier
    ban here, because both were recorded at the same history index.)"""
    rules = table.load("family").resolve(4, {"reclaim-deadline": "before-next-acts"})
    st = State.replay(rules, game.deal_random(rules, 1), map(Action.parse, [
        "0:discard 1n", "1:pass", "1:eat 9v", "1:discard 8v", "2:eat 8n", "2:discard 8s",
        "3:eat 8s", "3:discard chi", "0:pass"]))
    chi = cards.parse("chi")
    w = st.window
    assert w is not None and w.card == chi and w.second and w.reclaimer == 0
    assert any(m.ban == "eat-ca" and m.face == chi for m in st.marks[0])
    assert not st.legal_actions(0)
    partners = [y for y in rules.faces if st.hands[0][y] and rules.is_ca(chi, y)]
    assert partners  # seat 0 could make a cạ with it, but for the ban
    e = st.explain(Action("reclaim", 0, partners[0]))
    assert not e.legal
