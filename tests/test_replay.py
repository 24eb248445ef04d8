"""`chanspec replay`: conforming logs exit 0, divergences 1 with the rule ids that forbid
the step, malformed logs 2 with the line and field."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.conform import logs, replay
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, State, random_playout
from kit_helpers import build_deal, case_prefix, played, vector_docs


def _log(state_or_rules: Any, deal: Any = None, actions: Any = ()) -> str:
    if isinstance(state_or_rules, State):
        st = state_or_rules
        return logs.dumps(logs.record(st.rules, st.deal, st.history))
    return logs.dumps(logs.record(state_or_rules, deal, actions))


def _run(tmp_path: Path, text: str, *extra: str, capsys: Any) -> tuple[int, dict[str, Any]]:
    p = tmp_path / "game.ndjson"
    p.write_text(text, encoding="utf-8")
    code = cli.main(["replay", str(p), "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_a_conforming_log_exits_0(tmp_path: Path, capsys: Any) -> None:
    st = played(21)
    code, out = _run(tmp_path, _log(st), capsys=capsys)
    assert code == 0 and out["result"] == "conforming"
    assert out["steps"] == len(st.history) and out["final"]["terminal"] == st.is_terminal()


def test_actions_only_and_partial_consequences_conform() -> None:
    st = played(22)
    lines = logs.record(st.rules, st.deal, st.history)
    only_actions = [ln for ln in lines if ln["type"] not in logs.CONSEQUENCE_TYPES]
    assert replay.replay_text(logs.dumps(only_actions)).status == "conforming"
    some = [ln for i, ln in enumerate(lines) if ln["type"] != "draw" or i % 2]
    assert replay.replay_text(logs.dumps(some)).status == "conforming"


def _forbidding_steps() -> list[tuple[str, str, int]]:
    """(rule id, case id, step index): one invalid step of the vectors per forbidding rule."""
    seen: dict[str, tuple[str, str, int]] = {}
    for doc in vector_docs():
        for i, s in enumerate(doc["steps"]):
            if not s["valid"]:
                for r in s["rules"]:
                    seen.setdefault(r, (r, doc["id"], i))
    return sorted(seen.values())


FORBIDDING = _forbidding_steps()


def test_the_vectors_forbid_through_many_rules() -> None:
    # the parametrized test below then exercises replay on each of them
    assert len(FORBIDDING) >= 15


@pytest.mark.parametrize("rule,case_id,index", FORBIDDING, ids=[f[0] for f in FORBIDDING])
def test_a_tampered_log_exits_1_with_the_forbidding_rule(rule: str, case_id: str, index: int,
                                                        tmp_path: Path, capsys: Any) -> None:
    doc = next(d for d in vector_docs() if d["id"] == case_id)
    s = doc["start"]
    rules = table.load(s["ruleset"]).resolve(s["players"], s["options"])
    from chanspec.model.chan.game import Deal

    deal = Deal.from_json(s["deal"])
    text = _log(rules, deal, case_prefix(doc, index))
    bad = doc["steps"][index]["action"]
    code, out = _run(tmp_path, text + json.dumps(bad) + "\n", capsys=capsys)
    assert code == 1 and out["result"] == "divergence"
    d = out["divergence"]
    assert d["kind"] == "illegal-action" and d["logged"] == bad
    assert rule in d["rules"]
    assert d["line"] == len(text.splitlines()) + 1
    # what the rules allow there: the legal actions the vector lists for each pending seat
    for seat, acts in doc["steps"][index]["legal"].items():
        assert d["legal"][seat] == acts


FOUR_PLAYERS = table.rules("family", 4)
# seat 1: eleven chắn and a single Chi Chi, one card short of a complete hand
NEAR_CHI = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n 4n chi"


def _drawn_chi_state() -> State:
    """Seat 0 opens by discarding Cửu Sách; nobody takes it; seat 1 draws Chi Chi."""
    deal = build_deal(FOUR_PLAYERS, {1: NEAR_CHI}, "chi", opener=0, seed=4)
    st = State(FOUR_PLAYERS, deal)
    nine_s = cards.parse("9s")
    first = next(a for a in st.legal_actions(0) if a.kind == "discard")
    st.apply(Action("discard", 0, nine_s) if Action("discard", 0, nine_s) in
             st.legal_actions() else first)
    while st.window is None or st.window.card != cards.CHI:
        st.apply(Action("pass", st.pending()[0]))
    return st


def test_golden_chi_chi_never_completes_u(tmp_path: Path, capsys: Any) -> None:
    # Bài Chắn §4 bullet 2: Chi Chi may not be the card that completes ù, even though
    # seat 1's eleven chắn and the drawn Chi Chi would otherwise make twelve pairs.
    st = _drawn_chi_state()
    assert st.window is not None and st.window.source == "draw" and st.window.gate == 1
    assert st.engine.judge(st.held_faces(1), st.laid[1], cards.CHI, "u").rules == (
        "yeu-never-completes",)
    text = _log(st) + json.dumps({"type": "u", "seat": 1}) + "\n"
    code, out = _run(tmp_path, text, capsys=capsys)
    assert code == 1
    assert "yeu-never-completes" in out["divergence"]["rules"]
    assert "u" not in out["divergence"]["legal"]["1"]
    code = cli.main(["replay", str(tmp_path / "game.ndjson")])
    shown = capsys.readouterr().out
    assert code == 1 and "Chi Chi" in shown and "yeu-never-completes (§4 bullet 2)" in shown


def test_golden_pass_a_chan_then_discard_it(tmp_path: Path, capsys: Any) -> None:
    # Bài Chắn §3 bullet 1: seat 1 holds two Bát Vạn, lets the opener's Bát Vạn go
    # although it could eat it as a chắn, and may then never discard Bát Vạn.
    hand1 = "8v 8v 2n 2n 3n 3n 4n 4n 5n 5n 6n 6n 7n 7n 2s 2s 3s 3s 4s 4s 5s 6s 7s"
    deal = build_deal(FOUR_PLAYERS, {1: hand1, 0: "8v 1v 1v 1n 1n 1s 1s 9v 9v 9n 9n 9s "
                                     "9s chi chi lao lao thang thang 2v 3v 4v 5v 6v"},
                      "5s", opener=0, seed=9)
    st = State(FOUR_PLAYERS, deal)
    eight_v = cards.parse("8v")
    st.apply(Action("discard", 0, eight_v))
    assert Action("eat", 1, eight_v) in st.legal_actions(1)
    st.apply(Action("pass", 1))
    while not (st.phase == "discard" and st.actor == 1):
        if 1 in st.pending():
            st.apply(next(a for a in st.legal_actions(1) if a.kind == "eat"))
        else:
            st.apply(Action("pass", st.pending()[0]))
    assert Action("discard", 1, eight_v) not in st.legal_actions()
    text = _log(st) + json.dumps({"type": "discard", "seat": 1, "card": "8v"}) + "\n"
    code, out = _run(tmp_path, text, capsys=capsys)
    assert code == 1 and out["divergence"]["rules"] == ["pass-chan-ban"]


def _tampered(lines: list[dict[str, Any]], i: int, **change: Any) -> str:
    out = [dict(x) for x in lines]
    out[i].update(change)
    return logs.dumps(out)


def test_consequence_divergences() -> None:
    st = played(23)
    lines = logs.record(st.rules, st.deal, st.history)
    i = next(k for k, ln in enumerate(lines) if ln["type"] == "draw")
    other = next(c for c in cards.CODES if c != lines[i]["card"])
    res = replay.replay_text(_tampered(lines, i, card=other))
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "consequence"
    assert d.expected == lines[i] and d.line == i + 1
    assert "draw-face-up" in d.rules
    # a consequence the rules do not produce at all
    j = next(k for k, ln in enumerate(lines) if k > 2 and ln["type"] in logs.ACTION_TYPES)
    invented = lines[:j + 1] + [{"type": "dead", "card": "1v", "gate": 3}] + lines[j + 1:]
    res = replay.replay_text(logs.dumps(invented))
    assert res.status == "divergence" and res.divergence is not None
    assert res.divergence.line == j + 2
    # reordering two consequences of one action
    k = next(k for k in range(1, len(lines) - 1) if lines[k]["type"] in
             logs.CONSEQUENCE_TYPES and lines[k + 1]["type"] in logs.CONSEQUENCE_TYPES)
    swapped = lines[:k] + [lines[k + 1], lines[k]] + lines[k + 2:]
    assert replay.replay_text(logs.dumps(swapped)).status == "divergence"


def test_laid_by_the_wrong_seat_cites_claim_priority() -> None:
    st = played(24)
    lines = logs.record(st.rules, st.deal, st.history)
    i = next(k for k, ln in enumerate(lines) if ln["type"] == "laid")
    res = replay.replay_text(_tampered(lines, i, seat=(lines[i]["seat"] + 1) % 4))
    assert res.divergence is not None
    assert {"u-before-chiu", "chiu-before-eat", "claim-seat-order"} <= set(res.divergence.rules)


def test_after_the_end_and_a_wrong_winning_hand() -> None:
    seed = next(s for s in range(200) if (played(s).outcome() or {}).get("result") == "win")
    st = played(seed)
    lines = logs.record(st.rules, st.deal, st.history)
    assert lines[-1]["type"] == "end" and lines[-1]["result"] == "win"
    extra = logs.dumps(lines) + json.dumps({"type": "pass", "seat": 0}) + "\n"
    res = replay.replay_text(extra)
    assert res.divergence is not None and res.divergence.kind == "after-end"
    assert res.divergence.rules == ["winner-reveals"]
    hand = lines[-1]["hand"]
    wrong = [list(hand[0])] + [list(g) for g in hand[1:]]
    wrong[0][0] = "chi" if wrong[0][0] != "chi" else "lao"
    res = replay.replay_text(_tampered(lines, len(lines) - 1, hand=wrong))
    assert res.divergence is not None and res.divergence.kind == "bad-hand"


def test_malformed_log_exits_2_with_line_and_field(tmp_path: Path, capsys: Any) -> None:
    st = played(25)
    lines = logs.dumps(logs.record(st.rules, st.deal, st.history)).splitlines()
    lines[6] = json.dumps({"type": "discard", "seat": 1, "card": "Bát Vạn"})
    code, out = _run(tmp_path, "\n".join(lines), capsys=capsys)
    assert code == 2 and out["result"] == "malformed"
    assert out["error"]["line"] == 7 and out["error"]["field"] == "card"
    assert "8v" in out["error"]["hint"]
    code = cli.main(["replay", str(tmp_path / "game.ndjson"), "--lang", "en"])
    text = capsys.readouterr().out
    assert code == 2 and "line 7, field 'card'" in text and "Traceback" not in text


def test_missing_file_is_malformed_not_a_traceback(tmp_path: Path, capsys: Any) -> None:
    code = cli.main(["replay", str(tmp_path / "nope.ndjson"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 2 and "cannot read" in out["error"]["message"]


def test_replay_writes_an_itf_trace(tmp_path: Path, capsys: Any) -> None:
    st = played(26)
    p = tmp_path / "g.ndjson"
    p.write_text(_log(st), encoding="utf-8")
    out = tmp_path / "g.itf.json"
    assert cli.main(["replay", str(p), "--itf", str(out)]) == 0
    capsys.readouterr()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["#meta"]["format"] == "ITF" and len(doc["states"]) == len(st.history) + 1
    assert cli.main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "itf"


# --------------------------------------------------------------------------- unfinished, tables


def test_a_truncated_log_is_unfinished_with_its_own_exit_code(tmp_path: Path,
                                                              capsys: Any) -> None:
    st = played(27)
    lines = logs.record(st.rules, st.deal, st.history)
    cut = logs.dumps(lines[:15])
    code, out = _run(tmp_path, cut, capsys=capsys)
    assert code == replay.EXIT_UNFINISHED == 4
    assert out["result"] == "unfinished" and out["final"]["terminal"] is False
    p = tmp_path / "game.ndjson"
    assert cli.main(["replay", str(p), "--lang", "en"]) == 4
    text = capsys.readouterr().out
    assert "UNFINISHED" in text and "Conforming" not in text
    # the whole hand still exits 0
    code, out = _run(tmp_path, _log(st), capsys=capsys)
    assert code == 0 and out["result"] == "conforming"


def _other_table(tmp_path: Path, change: str = "") -> Path:
    text = (Path(__file__).resolve().parent.parent / "spec" / "family.toml").read_text(
        encoding="utf-8").replace('id = "family"', 'id = "cousins"', 1)
    if change:
        text = text.replace('default = "never"', change, 1)
    p = tmp_path / "cousins.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_log_never_opens_a_table_file_it_names(tmp_path: Path, capsys: Any) -> None:
    st = played(28)
    lines = logs.record(st.rules, st.deal, st.history)
    secret = tmp_path / "secret.toml"
    secret.write_text((Path(__file__).resolve().parent.parent / "spec" / "family.toml")
                      .read_text(encoding="utf-8"), encoding="utf-8")
    lines[0]["ruleset"] = str(secret)
    code, out = _run(tmp_path, logs.dumps(lines), capsys=capsys)
    assert code == 2 and out["error"]["field"] == "ruleset"
    assert "not a built-in ruleset" in out["error"]["message"]
    assert "--ruleset" in out["error"]["hint"]


def test_another_table_is_given_on_the_command_line_and_checked_by_digest(
    tmp_path: Path, capsys: Any
) -> None:
    path = _other_table(tmp_path)
    t = table.load(str(path))
    st = State.new(t.resolve(4), seed=3)
    random_playout(st, random.Random(3))
    lines = logs.record(st.rules, st.deal, st.history)
    assert lines[0]["ruleset"] == "cousins" and lines[0]["table_digest"] == t.digest()
    text = logs.dumps(lines)
    code, out = _run(tmp_path, text, capsys=capsys)
    assert code == 2 and out["error"]["field"] == "ruleset"
    code, out = _run(tmp_path, text, "--ruleset", str(path), capsys=capsys)
    assert code == 0 and out["result"] == "conforming"
    other = tmp_path / "other"
    other.mkdir()
    changed = _other_table(other, 'default = "before-next-acts"')
    code, out = _run(tmp_path, text, "--ruleset", str(changed), capsys=capsys)
    assert code == 2 and out["error"]["field"] == "table_digest"


def test_a_byte_order_mark_and_deep_nesting(tmp_path: Path, capsys: Any) -> None:
    st = played(29)
    code, out = _run(tmp_path, "\ufeff" + _log(st), capsys=capsys)
    assert code == 0 and out["result"] == "conforming"
    lines = _log(st).splitlines()
    deep = "\n".join([lines[0], "[" * 100000] + lines[1:])
    code, out = _run(tmp_path, deep, capsys=capsys)
    assert code == 2 and out["error"]["line"] == 2
    assert "nested too deeply" in out["error"]["message"]
    code, out = _run(tmp_path, '{"a":' * 100000 + "1" + "}" * 100000, capsys=capsys)
    assert code == 2 and "nested too deeply" in out["error"]["message"]


def test_a_log_that_writes_bans_must_write_them_all() -> None:
    """Bài Chắn §3, bullet 1: a ban left out of, or altered in, a log that writes bans is
    a divergence naming the ban and its row; a log with no banned line still conforms."""
    st = played(5)
    lines = logs.record(st.rules, st.deal, st.history)
    assert replay.replay_text(logs.dumps(lines)).status == "conforming"
    i = next(k for k, ln in enumerate(lines)
             if ln["type"] == "banned" and ln["rule"] == "pass-chan-ban")
    # removed: reported at the line that comes in its place
    res = replay.replay_text(logs.dumps(lines[:i] + lines[i + 1:]))
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "consequence"
    assert d.line == i + 1 and d.expected == lines[i] and d.rules == ["pass-chan-ban"]
    assert "leaves one out" in d.en and "pass-chan-ban" in d.en
    # altered: the closest line of the rules is named
    other = next(c for c in cards.CODES if c != lines[i]["face"])
    res = replay.replay_text(_tampered(lines, i, face=other))
    d = res.divergence
    assert d is not None and d.kind == "consequence" and d.expected == lines[i]
    assert d.rules == ["pass-chan-ban"] and d.line == i + 1
    res = replay.replay_text(_tampered(lines, i, rule="pass-ca-ban"))
    assert res.divergence is not None and res.divergence.expected == lines[i]
    # invented: a ban no row creates here
    j = next(k for k, ln in enumerate(lines) if ln["type"] == "pass")
    invented = lines[:j + 1] + [{"type": "banned", "seat": 0, "ban": "discard-ca-pair",
                                 "face": None, "rule": "ate-ca-no-both-sides"}] + lines[j + 1:]
    res = replay.replay_text(logs.dumps(invented))
    assert res.divergence is not None and res.divergence.line == j + 2
    assert "ate-ca-no-both-sides" in res.divergence.rules
    # the last ban of the log left out: reported at the line that follows it; a log
    # that stops there only leaves out its last consequences (every action is there)
    k = max(k for k, ln in enumerate(lines) if ln["type"] == "banned")
    res = replay.replay_text(logs.dumps(lines[:k] + lines[k + 1:]))
    assert res.divergence is not None and res.divergence.expected == lines[k]
    assert res.divergence.line == k + 1 and res.divergence.logged == lines[k + 1]
    assert replay.replay_text(logs.dumps(lines[:k])).status == "conforming"
    # cut right after an action whose bans are not written yet: truncated, not wrong
    a = next(i for i, ln in enumerate(lines) if ln["type"] == "pass"
             and lines[i + 1]["type"] == "banned")
    assert replay.replay_text(logs.dumps(lines[:a + 1])).status == "unfinished"
    # a log that writes no banned line at all does not say what is banned: it conforms
    nobans = [ln for ln in lines if ln["type"] != "banned"]
    assert replay.replay_text(logs.dumps(nobans)).status == "conforming"


def test_a_ban_left_out_is_shown_by_replay(tmp_path: Path, capsys: Any) -> None:
    st = played(5)
    lines = logs.record(st.rules, st.deal, st.history)
    i = next(k for k, ln in enumerate(lines) if ln["type"] == "banned")
    p = tmp_path / "game.ndjson"
    p.write_text(logs.dumps(lines[:i] + lines[i + 1:]), encoding="utf-8")
    assert cli.main(["replay", str(p), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "leaves one out" in out and lines[i]["rule"] in out
