"""Differential testing (`chanspec conform`): wrong engines are caught and shrunk, the
reference run as an external engine conforms, and misbehaving engines are reported
clearly without hanging the campaign."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.conform import campaign as conform
from chanspec.checks.conform import logs, replay
from chanspec.checks.conform.driver import Engine, EngineError
from chanspec.checks.output import say
from kit_helpers import ENGINES

PY = sys.executable
REFERENCE = [PY, "-m", "chanspec.checks.conform.refengine"]


def engine(name: str, *args: str) -> list[str]:
    return [PY, str(ENGINES / f"{name}.py"), *args]


def test_the_reference_as_an_external_engine_conforms() -> None:
    res = conform.campaign(REFERENCE, hands=12, seed=5, timeout=10)
    assert res.status == "conforming", conform.render(res, "en", say)
    assert res.hands == 12 and res.steps > 100 and res.scenario is None and res.exit_code == 0


def test_chanspec_serve_conforms_with_every_option_varied() -> None:
    cmd = [PY, "-m", "chanspec.checks.cli.app", "serve"]
    res = conform.campaign(cmd, hands=8, seed=6, timeout=10, vary_options=True)
    assert res.status == "conforming", conform.render(res, "en", say)


WRONG = [
    # engine, seed, the rule the minimal scenario must be about
    ("yeu_completes", 2, "yeu-never-completes"),
    ("pass_chan", 1, "pass-chan-ban"),
    ("eat_before_chiu", 2, "chiu-before-eat"),
]


@pytest.mark.parametrize("name,seed,rule", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_engine_is_caught_and_shrunk(name: str, seed: int, rule: str,
                                            tmp_path: Path) -> None:
    # 150 hands find every one of these bugs; 30 replays a difference shrink it to the
    # few steps asserted below (the CLI's defaults are larger)
    res = conform.campaign(engine(name), hands=150, seed=seed, timeout=10, shrink_budget=30)
    report = conform.render(res, "vi", say)
    assert res.status == "mismatch" and res.exit_code == 1, report
    m = res.mismatch
    assert m is not None and res.scenario is not None and res.first_steps is not None
    # shrunk: Hypothesis replayed smaller hands after the first failure, and the
    # minimal one fails no later than the first one did
    assert res.evaluations > res.hands
    assert m.step <= res.first_steps and m.step <= 12, report
    assert "Bước 1:" in report or m.step == 0
    # the saved log is accepted by replay; where the engine allowed a forbidden action,
    # replay names the rule (priority bugs show up one step later, as a turn mismatch)
    path = tmp_path / "min.ndjson"
    path.write_text(logs.dumps(res.log), encoding="utf-8")
    rep = replay.replay_path(str(path))
    assert rep.status in ("conforming", "unfinished", "divergence"), rep.error
    if rule == "yeu-never-completes":
        assert rep.status == "divergence" and rep.divergence is not None
        assert rule in rep.divergence.rules, report
        extra = [a for d in m.seats for a in d.extra]
        assert extra, report
    elif rule == "pass-chan-ban":
        # the engine's missing ban shows up at several decision points (an eat the ban
        # forbids, or a drawn card the rules pass on at once because the drawer may not
        # take it); one campaign lists them all, and one of the witnesses is refused by
        # replay naming the rule itself
        named = []
        for i, d in enumerate(res.differences):
            if not d.log:
                continue
            one = tmp_path / f"d{i}.ndjson"
            one.write_text(logs.dumps(d.log), encoding="utf-8")
            r = replay.replay_path(str(one))
            named.append(r.status == "divergence" and r.divergence is not None
                         and rule in r.divergence.rules)
        assert any(named), report
    else:
        assert rule in m.resolution, report
        assert rule in res.log[0]["x-conform"]["mismatch"]["resolution"]


def test_the_cli_saves_a_replayable_log(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "found.ndjson"
    code = cli.main(["conform", "--impl", " ".join(engine("pass_chan")), "--hands", "200",
                     "--seed", "1", "--shrink-budget", "40", "--save", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["result"] == "mismatch" and data["log"] == str(out)
    # every distinct difference has its witness beside the first (found-2.ndjson, …);
    # each is a log replay reads (a divergence, exit 1, where the engine allowed more; an
    # unfinished conforming hand, exit 4, where it allowed less), and one of them names
    # the rule the engine ignores
    saved = [out, *sorted(tmp_path.glob("found-*.ndjson"))]
    shown = ""
    for one in saved:
        assert cli.main(["replay", str(one)]) in (1, 4)
        shown += capsys.readouterr().out
    assert "pass-chan-ban (§3 bullet 1)" in shown
    code = cli.main(["conform", "--impl", " ".join(REFERENCE), "--hands", "3", "--seed", "2",
                     "--players", "5"])
    text = capsys.readouterr().out
    assert code == 0 and "Hạt giống: 2" in text and "Phù hợp: 3 ván" in text


MISBEHAVING = [
    ("crash", "crash"),
    ("hang", "timeout"),
    ("garbage", "garbage"),
    ("shape", "protocol"),
    ("badcard", "protocol"),
]


@pytest.mark.parametrize("mode,kind", MISBEHAVING, ids=[m[0] for m in MISBEHAVING])
def test_misbehaving_engines_are_reported_quickly(mode: str, kind: str) -> None:
    t0 = time.monotonic()
    res = conform.campaign(engine("misbehave", mode, "4"), hands=50, seed=1, timeout=1.0)
    took = time.monotonic() - t0
    assert took < 15, took
    assert res.status == "engine-error" and res.exit_code == 1
    e = res.error
    assert e is not None and e.kind == kind, e
    assert e.exchanges, "the last exchange is reported"
    text = conform.render(res, "en", say)
    assert "Last exchanges:" in text and ">> " in text
    if mode == "crash":
        assert e.returncode == 3 and "giving up on purpose" in e.stderr
    if mode == "hang":
        assert "no answer within 1 s" in e.exchanges[-1][1]
    if mode == "garbage":
        assert "not JSON" in e.message and "Traceback" in e.exchanges[-1][1]


def test_an_engine_that_cannot_start() -> None:
    res = conform.campaign([str(ENGINES / "no-such-engine")], hands=3, seed=1)
    assert res.status == "engine-error" and res.error is not None
    assert res.error.kind == "start" and "cannot run" in res.error.message


def test_the_driver_kills_a_silent_engine_and_keeps_the_exchange() -> None:
    e = Engine(engine("misbehave", "hang", "0"), timeout=0.3)
    e.start()
    t0 = time.monotonic()
    with pytest.raises(EngineError) as exc:
        e.call({"op": "outcome"})
    assert time.monotonic() - t0 < 3
    assert exc.value.kind == "timeout" and not e.alive()
    assert '"op":"outcome"' in exc.value.exchanges[-1][0]
    e.close()


def test_a_batch_larger_than_the_pipes_does_not_block_either_side(tmp_path: Path) -> None:
    """An engine that reads one request, writes its (large) answer, then reads the next
    blocks once its output pipe is full; chanspec, still writing the batch, must read
    those answers meanwhile, or both sides wait until the deadline."""
    script = tmp_path / "echo_big.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    print(json.dumps({'ok': True, 'id': req['id'], 'pad': 'x' * 2000}), flush=True)\n",
        encoding="utf-8")
    e = Engine([PY, str(script)], timeout=5)
    e.start()
    try:
        n = 2000  # ~200 KB of requests and ~4 MB of answers: far beyond a pipe's 64 KiB
        t0 = time.monotonic()
        e.submit([{"op": "outcome", "pad": "y" * 80}] * n)
        answers = [e.receive() for _ in range(n)]
        assert all(a["ok"] for a in answers) and answers[-1]["id"] == n
        assert time.monotonic() - t0 < 30
    finally:
        e.close()


def test_deals_are_well_formed_and_varied() -> None:
    from chanspec.model.chan import table
    from chanspec.model.chan.game import check_deal
    from hypothesis import given, settings
    from hypothesis import strategies as st

    seen: set[tuple[int, ...]] = set()

    @settings(max_examples=30, deadline=None, derandomize=True)
    @given(data=st.data(), players=st.sampled_from([4, 5]))
    def check(data: Any, players: int) -> None:
        rules = table.rules("family", players)
        deal = data.draw(conform.deals(rules))
        check_deal(rules, deal)  # every card exactly four times, right hand sizes
        seen.add(deal.hands[0])

    check()
    assert len(seen) > 10


# --------------------------------------------------------------------------- every difference


def test_two_bugs_one_behind_the_other_are_both_reported() -> None:
    """Bug 1 shows at step 0 of every hand; bug 2 (pass-chan-ban ignored) only later.
    Stopping at the first mismatch sees bug 1 only; one campaign reports both."""
    cmd = engine("two_bugs")
    first = conform.campaign(cmd, hands=60, seed=3, timeout=10, players=(4,),
                             shrink_budget=10, stop_at_first=True)
    assert first.status == "mismatch" and len(first.differences) == 1
    assert first.stopped == "first" and first.hands == 1
    assert first.differences[0].key[:2] == ("legal", "pass")
    res = conform.campaign(cmd, hands=100, seed=3, timeout=10, players=(4,), shrink_budget=10)
    keys = [d.key for d in res.differences]
    assert res.status == "mismatch" and res.exit_code == 1
    opening = [d for d in res.differences if d.key[:3] == ("legal", "pass", "opening")]
    assert len(opening) == 1 and opening[0].count == res.hands  # every hand, counted once
    assert opening[0].best.mismatch.step == 0
    ban = [d for d in res.differences if "pass-chan-ban" in d.rows]
    assert ban, keys
    # the hidden one was reached by going on along chanspec's action past bug 1
    w = ban[0].best
    assert w.before >= 1 and len(w.actions) >= 1
    assert sum(d.count for d in res.differences) == res.mismatches


def test_max_differences_stops_generation() -> None:
    res = conform.campaign(engine("two_bugs"), hands=300, seed=3, timeout=10, players=(4,),
                           shrink_budget=5, max_differences=2)
    assert len(res.differences) == 2 and res.stopped == "max-differences"
    assert res.hands < 300


def test_every_witness_log_replays_to_its_difference(tmp_path: Path) -> None:
    res = conform.campaign(engine("pass_chan"), hands=120, seed=1, timeout=10,
                           shrink_budget=20, players=(4,))
    assert len(res.differences) >= 2
    for i, d in enumerate(res.differences):
        path = tmp_path / f"d{i}.ndjson"
        path.write_text(logs.dumps(d.log), encoding="utf-8")
        rep = replay.replay_path(str(path))
        assert rep.status in ("conforming", "unfinished", "divergence"), (d.label_en, rep.error)
        assert d.log[0]["x-conform"]["difference"] == d.label_en
        assert len(d.best.actions) <= len(d.witness.actions) if d.witness else True


def test_jobs_do_not_change_the_result() -> None:
    one = conform.campaign(engine("pass_chan"), hands=40, seed=4, timeout=10, players=(4,),
                           shrink_budget=0)
    two = conform.campaign(engine("pass_chan"), hands=40, seed=4, timeout=10, players=(4,),
                           shrink_budget=0, jobs=2)
    assert two.jobs == 2
    assert [(d.key, d.count, d.hands, d.first_hand) for d in one.differences] == \
        [(d.key, d.count, d.hands, d.first_hand) for d in two.differences]
    assert (one.hands, one.steps) == (two.hands, two.steps)


def test_sending_the_next_hand_ahead_does_not_change_the_result() -> None:
    """Hands sent while the engine still answers the hand before: after a mismatch the
    engine's answers are drained and the next hand is sent again; nothing differs."""
    kw: dict[str, Any] = {"hands": 60, "seed": 9, "timeout": 10, "shrink_budget": 0}
    on = conform.campaign(engine("pass_chan"), **kw)
    off = conform.campaign(engine("pass_chan"), ahead=False, **kw)
    assert on.differences, "the mutant must differ for this test to mean anything"
    assert [(d.key, d.count, d.hands, d.first_hand) for d in on.differences] == \
        [(d.key, d.count, d.hands, d.first_hand) for d in off.differences]
    assert (on.hands, on.steps, on.mismatches) == (off.hands, off.steps, off.mismatches)


def test_an_engine_listing_actions_in_its_own_order_conforms(tmp_path: Path) -> None:
    """An answer that is not word for word chanspec's list is read action by action: the
    same actions in another order conform, and one action fewer is a difference."""
    script = tmp_path / "reorder.py"
    script.write_text(
        "import sys\n"
        "from chanspec.checks.conform.refengine import Session, serve\n"
        "class Reversed(Session):\n"
        "    def handle(self, req, raw=False):\n"
        "        resp = super().handle(req, False)\n"
        "        if isinstance(req, dict) and req.get('op') == 'legal_all' and resp['ok']:\n"
        "            resp['actions'] = resp['actions'][::-1]\n"
        "            if DROP and len(resp['actions']) > 1:\n"
        "                resp['actions'] = resp['actions'][1:]\n"
        "        return resp\n"
        "DROP = '--drop' in sys.argv\n"
        "sys.exit(serve(session=Reversed()))\n", encoding="utf-8")
    res = conform.campaign([PY, str(script)], hands=8, seed=3, timeout=10)
    ref = conform.campaign(REFERENCE, hands=8, seed=3, timeout=10)
    assert res.status == "conforming", conform.render(res, "en", say)
    assert (res.hands, res.steps) == (ref.hands, ref.steps)
    bad = conform.campaign([PY, str(script), "--drop"], hands=8, seed=3, timeout=10,
                           shrink_budget=0)
    assert bad.status == "mismatch" and bad.differences


def test_an_engine_without_legal_all_still_works(tmp_path: Path) -> None:
    """The fallback: an engine whose start does not declare legal_all is asked seat by
    seat (and would refuse legal_all)."""
    script = tmp_path / "old_engine.py"
    script.write_text(
        "import json, sys\n"
        "from chanspec.checks.conform.refengine import Session\n"
        "s = Session()\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req.get('op') == 'legal_all':\n"
        "        resp = {'ok': False, 'error': 'unknown op'}\n"
        "    else:\n"
        "        resp = s.handle(req); resp.pop('accepts', None)\n"
        "    resp['id'] = req.get('id')\n"
        "    print(json.dumps(resp), flush=True)\n", encoding="utf-8")
    res = conform.campaign([PY, str(script)], hands=6, seed=2, timeout=10)
    assert res.status == "conforming" and not res.legal_all, conform.render(res, "en", say)
    ref = conform.campaign(REFERENCE, hands=6, seed=2, timeout=10)
    assert ref.legal_all and (ref.hands, ref.steps) == (res.hands, res.steps)


def test_infer_options_names_three_readings_and_the_bug(capsys: Any, tmp_path: Path) -> None:
    code = cli.main(["conform", "--impl", " ".join(engine("three_readings")), "--hands", "80",
                     "--seed", "3", "--players", "4", "--shrink-budget", "10",
                     "--infer-options", "--json", "--save", str(tmp_path / "w.ndjson")])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    inf = data["inference"]
    # the three readings the engine plays are named (a reading added later to the table
    # may explain a knock-on difference of the bug as well; it is listed, not hidden)
    assert {k: v for k, v in inf["readings"].items() if k in (
        "lao-thang", "drawn-card-offer", "pass-ca-ban")} == {
        "lao-thang": "off", "drawn-card-offer": "next-only", "pass-ca-ban": "none"}
    left = inf["confirm"]["differences"]
    assert any("pass-chan-ban" in d["rows"] for d in left), inf["unexplained"]
    assert not any(d["key"][0] == "legal" and d["key"][3] == ["pass-ca-ban"] for d in left)
    # every difference of the table has its own replayable witness log
    for d in data["differences"]:
        assert d["log"] and Path(d["log"]).exists()


def test_the_engine_state_says_where_it_is() -> None:
    """With the optional 'state' request, a difference where the engine waits for other
    seats says where the engine is: here it gave the card to the eater (its turn to
    discard) where the rules gave it to the chíu (a return is due)."""
    res = conform.campaign(engine("eat_before_chiu"), hands=200, seed=2, timeout=10,
                           shrink_budget=10)
    assert res.differences
    d = res.differences[0]
    assert d.key == ("turn", "claims", ("chiu-before-eat",)), d.key
    assert len(res.differences) == 1  # after an eat or a chíu: one decision point
    assert d.states is not None and "pending" in d.states["differ"]
    assert d.states["rules"]["phase"] == "return" and d.states["engine"]["phase"] == "discard"
    assert "the engine is elsewhere" in conform.render_table(res, "en", say)


def test_an_engine_with_one_win_action_declares_its_mapping() -> None:
    """An engine calling ù and chíu-ù both 'u' conforms once its start answer declares
    {"chiu-u": "u"}; without the declaration its chíu-ù shows up as a difference."""
    declared = conform.campaign(engine("one_win_action"), hands=150, seed=5, timeout=10,
                                shrink_budget=5)
    assert declared.status == "conforming", conform.render_table(declared, "en", say)
    silent = conform.campaign(engine("one_win_action", "--silent"), hands=150, seed=5,
                              timeout=10, shrink_budget=5)
    assert silent.status == "mismatch"
    assert any(d.key[1] == "chiu-u" and d.key[-1] == "less" for d in silent.differences)
    assert declared.hands == silent.hands == 150 and declared.steps > 1000


# --------------------------------------------------------------------------- claim styles, events


def test_claim_asks_follow_the_tables_priority_and_seat_order() -> None:
    """The questions of a one-seat-at-a-time window come from the table's own claim
    priority and claim-seat-order: reorder the tiers in the rules and the order follows."""
    import dataclasses

    from chanspec.model.chan import table
    from chanspec.model.chan.game import Action, State

    case = json.loads((Path(__file__).parent.parent / "vectors" / "cases" /
                       "g06-u-priority-owner-first.json").read_text(encoding="utf-8"))
    start = case["start"]
    # seat 0 opens with a discard that dies; seat 1 draws 6s: seats 1 and 3 can win on
    # it, seat 4 can take it by chíu (vectors/README.md, "Claim styles and draws")
    for order, first in (("owner-first", [1, 3]), ("receiver-first", [3, 1])):
        rules = table.load("family").resolve(start["players"],
                                             {**start["options"], "claim-seat-order": order})
        deal = logs.parse_header("<t>", 1, {"type": "header", "format": logs.FORMAT,
                                            "version": logs.VERSION, "ruleset": "family",
                                            "players": start["players"],
                                            "options": rules.options,
                                            "deal": start["deal"]}, None)[1]
        st = State(rules, deal)
        st.apply(logs.LineCheck("<t>", 1, case["steps"][0]["action"], st.n)
                 .action_fields(case["steps"][0]["action"]))
        asks = conform.claim_asks(st)
        seats = [s for s, _ in asks]
        wins = [s for s, offer in asks if any(a.kind in ("u", "chiu-u") for a in offer)]
        assert wins == first and seats[:2] == first, asks
        assert 4 in seats[2:]  # the chíu tier is asked after every win
        assert all(Action("pass", s) in offer for s, offer in asks)
        tiers = [next(a.kind for a in offer if a.kind != "pass") for _, offer in asks]
        rank = {k: i for i, t in enumerate(rules.priority) for k in t}
        assert [rank[k] for k in tiers] == sorted(rank[k] for k in tiers), tiers
        # the same window under a table whose tiers are reversed is asked eat first
        rev = dataclasses.replace(rules, priority=tuple(reversed(rules.priority)))
        st2 = State(rev, deal)
        st2.apply(st.history[0])
        tiers2 = [next(a.kind for a in offer if a.kind != "pass")
                  for _, offer in conform.claim_asks(st2)]
        assert len(tiers2) == len(tiers) and tiers2 != tiers, (tiers, tiers2)
        assert tiers2[-1] in ("u", "chiu-u") and tiers[0] in ("u", "chiu-u")


def test_an_engine_asking_one_seat_at_a_time_conforms_when_it_says_so() -> None:
    """Test engine (b): claims settled one seat at a time in priority order, the card
    drawn by itself when nobody claims, consequences reported through 'events'.  With
    its claim style declared it conforms (every option varied); undeclared, the campaign
    names the style in one difference instead of a list of turn mismatches."""
    declared = conform.campaign(engine("one_seat"), hands=150, seed=2, timeout=10,
                                shrink_budget=5, vary_options=True)
    assert declared.status == "conforming", conform.render_table(declared, "en", say)
    assert declared.hands == 150 and declared.steps > 3000
    silent = conform.campaign(engine("one_seat", "--silent"), hands=150, seed=2,
                              timeout=10, shrink_budget=5, vary_options=True)
    assert silent.status == "mismatch"
    assert [d.key for d in silent.differences] == [("style", "one-seat-at-a-time")], \
        conform.render_table(silent, "en", say)
    assert "does not declare it" in conform.render_table(silent, "en", say)
    assert silent.differences[0].hands >= 100  # the style is seen in most hands


def test_a_one_seat_engine_asking_in_the_wrong_order_is_caught() -> None:
    res = conform.campaign(engine("one_seat", "--ties-by-seat-number"), hands=200, seed=4,
                           timeout=10, shrink_budget=20)
    assert res.status == "mismatch"
    d = res.differences[0]
    assert d.key[0] == "order" and "claim-seat-order" in d.rows, d.key
    assert d.states is not None and "pending" in d.states["differ"]


def test_a_wrong_consequence_is_caught_through_events(tmp_path: Path) -> None:
    """An engine whose play is right but which reports a passed-on card as dead: only
    the 'events' comparison sees it; the same engine reporting right conforms."""
    res = conform.campaign(engine("wrong_events"), hands=40, seed=1, timeout=10,
                           shrink_budget=20)
    assert res.status == "mismatch" and res.exit_code == 1
    assert [d.key for d in res.differences] == [("consequence", ("passed-on",), ("dead",))]
    d = res.differences[0]
    assert d.best.mismatch.kind == "consequence" and len(d.best.actions) <= 3
    assert any(e["type"] == "passed-on" for e in d.best.mismatch.reference_events or [])
    assert "reports dead where the rules have passed-on" in conform.render_table(res, "en",
                                                                                  say)
    shown = conform.render(res, "en", say)
    theirs = shown.split("Consequences of the last step by the engine:")[1]
    rules_line = shown.split("Consequences of the last step by the rules:")[1].split("\n")[0]
    assert "passed on" in rules_line and "passed on" not in theirs, shown
    path = tmp_path / "w.ndjson"
    path.write_text(logs.dumps(d.log), encoding="utf-8")
    # the witness plays no further than the difference: replay finds every line
    # conforming and says the hand is unfinished
    assert replay.replay_path(str(path)).status == "unfinished"
    right = conform.campaign(engine("wrong_events", "--right"), hands=40, seed=1, timeout=10)
    assert right.status == "conforming" and right.steps > 1000


@pytest.mark.parametrize("mode,lacks,adds", [
    ("--no-bans", "banned pass-chan-ban", None),
    ("--chiu-ban", None, "banned discarded-face-no-eat"),
])
def test_bans_are_compared_through_events(mode: str, lacks: str | None,
                                          adds: str | None) -> None:
    """An engine that reports no bans, or one ban too many (a chíu ban on its own
    discard), differs in consequences keyed by the restriction row; the reference
    declaring 'events' reports every ban and conforms (test above)."""
    res = conform.campaign(engine("wrong_events", mode), hands=30, seed=1, timeout=10,
                           shrink_budget=20)
    assert res.status == "mismatch" and res.differences
    assert all(d.key[0] == "consequence" for d in res.differences)
    if lacks is not None:
        d = next(d for d in res.differences if d.key == ("consequence", (lacks,), ()))
        assert d.rows == ["pass-chan-ban"]
        assert {d.key[1] for d in res.differences} >= {("banned discarded-face-no-eat",)}
        assert all(d.key[2] == () for d in res.differences)
        shown = conform.render_table(res, "en", say)
        assert f"reports nothing where the rules have {lacks}" in shown
    else:
        assert [d.key for d in res.differences] == [("consequence", (), (adds,))]
        d = res.differences[0]
        assert d.rows == ["discarded-face-no-eat"] and len(d.best.actions) == 1
    m = d.best.mismatch
    extra = [e for e in m.engine_events or [] if e not in (m.reference_events or [])]
    missing = [e for e in m.reference_events or [] if e not in (m.engine_events or [])]
    assert all(e["type"] == "banned" for e in extra + missing) and extra + missing
    shown = conform.render(res, "en", say)
    assert "may no longer" in shown.split("Consequences of the last step by the rules:")[1]


def test_serve_answers_events_with_the_logs_consequences() -> None:
    from chanspec.checks.conform.refengine import Session
    from chanspec.model.chan import table
    from chanspec.model.chan.game import State, deal_random

    rules = table.load("family").resolve(4, {})
    deal = deal_random(rules, 7)
    s = Session()
    assert s.handle({"op": "start", "ruleset": "family", "players": 4, "options": {},
                     "deal": deal.as_json()})["ok"]
    st = State(rules, deal)
    bans = 0
    for _ in range(30):
        if not st.legal_actions():
            break
        a = st.legal_actions()[-1]
        want = logs.step(st, a)
        bans += sum(1 for c in want if c["type"] == "banned")
        assert s.handle({"op": "apply", "action": a.as_json()})["ok"]
        assert s.handle({"op": "events"}) == {"ok": True, "events": want}
    assert s.handle({"op": "events"}) == {"ok": True, "events": []}
    assert bans > 0  # the bans of the steps are among the events


def test_a_bad_claim_style_is_a_protocol_failure(tmp_path: Path) -> None:
    script = tmp_path / "bad_style.py"
    script.write_text(
        "import sys\n"
        "from chanspec.checks.conform.refengine import serve\n"
        "sys.exit(serve(declare={'claim_style': 'whoever-shouts'}))\n", encoding="utf-8")
    res = conform.campaign([PY, str(script)], hands=3, seed=1, timeout=10)
    assert res.status == "engine-error" and res.error is not None
    assert res.error.kind == "protocol" and "claim_style" in res.error.message


def test_infer_options_replays_a_one_seat_witness_the_way_the_engine_asks() -> None:
    """The witness of a question-order difference is replayed to the one-seat engine
    with its own answers; of every single value tried, only receiver-first (which asks
    seats 0, 1, 2, 3 at gate 3, as this engine always does) explains it, and the fresh
    campaign under it still finds the bug (other gates, other winners)."""
    cmd = engine("one_seat", "--ties-by-seat-number")
    res = conform.campaign(cmd, hands=200, seed=2, timeout=10, shrink_budget=10,
                           players=(4,))
    assert [d.key[0] for d in res.differences] == ["order"]
    inf = conform.infer_readings(cmd, res, hands=150, timeout=10, players=(4,),
                                 shrink_budget=10)
    assert inf.candidates == {0: [("claim-seat-order", "receiver-first")]}
    assert inf.replays > 10 and inf.unexplained
    # the engine asks in seat-number order at every gate: under receiver-first the
    # questions still come in the wrong order wherever the gate is not seat 3
    assert any(d.key[0] == "order" for d in inf.unexplained)


# --------------------------------------------------------------------------- classic Chắn


def test_chanspec_serve_conforms_on_classic_with_every_option_varied() -> None:
    cmd = [PY, "-m", "chanspec.checks.cli.app", "serve", "--ruleset", "classic"]
    res = conform.campaign(cmd, hands=24, seed=1, timeout=10, players=(2, 3, 4),
                           ruleset="classic", vary_options=True)
    assert res.status == "conforming", conform.render(res, "en", say)
    assert res.hands == 24 and res.steps > 500


@pytest.mark.parametrize("mode", ["forbid", "penalise"])
def test_a_classic_engine_forgetting_one_rule_of_play_is_caught(mode: str,
                                                                tmp_path: Path) -> None:
    # tests/engines/classic_rule_14.py forgets 000 [Luật đánh bài] #14 (no discarding a
    # face one ate): under forbid it allows a discard the rules refuse, which replay
    # refuses naming the row; under penalise its outcome lacks the fault
    res = conform.campaign(engine("classic_rule_14"), hands=60, seed=1, timeout=10,
                           players=(4,), ruleset="classic", shrink_budget=40,
                           options={"restriction-mode": mode})
    report = conform.render(res, "en", say)
    assert res.status == "mismatch" and res.mismatch is not None, report
    m = res.mismatch
    if mode == "forbid":
        path = tmp_path / "min.ndjson"
        path.write_text(logs.dumps(res.log), encoding="utf-8")
        rep = replay.replay_path(str(path))
        assert rep.status == "divergence" and rep.divergence is not None, report
        assert "loi-14-an-roi-danh" in rep.divergence.rules, report
    else:
        assert m.kind == "outcome", report
        ours = m.reference_outcome["outcome"]["faults"]  # type: ignore[index]
        theirs = m.engine_outcome["outcome"]["faults"]  # type: ignore[index]
        missing = [f for f in ours if f not in theirs]
        assert any("loi-14-an-roi-danh" in f["rules"] for f in missing), report
