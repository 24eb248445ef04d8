"""Replaying a game log against the reference machine.

Every *action* line must be legal where it stands; every *consequence* line must be
one the rules produce after the preceding action, in the same order (consequence lines
may be left out, never invented or reordered; but a log that writes ``banned`` lines
says what is banned, so it must write every one the rules produce).  The first line
that breaks this is the *divergence*: its line number, what the log did, what the rules
allow there (the legal actions of every pending seat) and the rule ids that forbid it
(`State.explain`).

`claim_resolution()` also lives here: which table rows decided who got a card when
several seats claimed it (priority tiers and the seat-order tie-break).  The machine
applies them silently, so the vectors and the differential driver cite them from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.conform import logs, records
from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import Action, State
from chanspec.model.chan.win import HandError, group_of


@dataclass
class Divergence:
    line: int
    step: int  # how many actions were applied before this line
    kind: str  # illegal-action | after-end | consequence | bad-hand
    logged: dict[str, Any]
    rules: list[str]
    vi: str
    en: str
    pending: list[int] = field(default_factory=list)
    legal: dict[int, list[str]] = field(default_factory=dict)
    expected: dict[str, Any] | None = None
    # the logged line told in words, for a kind with its own log format (`Kind.log`);
    # empty: `logs.say_line` tells it
    said: tuple[str, str] = ("", "")

    def as_json(self) -> dict[str, Any]:
        return {
            "line": self.line, "step": self.step, "kind": self.kind, "logged": self.logged,
            "rules": self.rules, "vi": self.vi, "en": self.en, "pending": self.pending,
            "legal": {str(s): a for s, a in self.legal.items()}, "expected": self.expected,
        }


EXIT_UNFINISHED = 4  # every line conforms but the log stops before the hand is over


@dataclass
class ReplayResult:
    status: str  # conforming | unfinished | divergence | malformed
    source: str
    fmt: str = ""
    steps: int = 0
    lines: int = 0
    divergence: Divergence | None = None
    error: logs.LogError | None = None
    state: State | None = None
    own_format: bool = False  # a kind's own log format (`Kind.log`): a protocol state

    @property
    def exit_code(self) -> int:
        return {"conforming": 0, "divergence": 1, "malformed": 2,
                "unfinished": EXIT_UNFINISHED}[self.status]

    def final(self) -> dict[str, Any] | None:
        st = self.state
        if st is None:
            return None
        if st.is_terminal():
            return {"terminal": True, "outcome": st.outcome()}
        if self.own_format:
            return {"terminal": False, "stuck": st.is_stuck(), "pending": list(st.pending()),
                    "legal": _codes_by_seat(st, st.pending())}
        return not_over(st)

    def as_json(self) -> dict[str, Any]:
        return {
            "result": self.status, "source": self.source, "format": self.fmt,
            "steps": self.steps, "lines": self.lines,
            "divergence": None if self.divergence is None else self.divergence.as_json(),
            "error": None if self.error is None else self.error.as_json(),
            "final": self.final(),
        }


def not_over(st: State) -> dict[str, Any]:
    """A hand that is not over, as logs, vectors (their ``end``) and replay all show it:
    the pending seats and their legal actions; *stuck* when none has any (a deadlock of
    the rules, e.g. ``stuck-discard=as-written``: not an end, so a log has no end line)."""
    stuck = st.is_stuck()
    out: dict[str, Any] = {"terminal": False, "stuck": stuck, "pending": list(st.pending()),
                           "legal": {str(s): logs.codes_of(st.legal_actions(s))
                                     for s in st.pending()}}
    if stuck and st.actor is not None and sum(st.hands[st.actor]):
        # a discard or return is due and every concealed card is banned
        out["rules"] = [st.rules.rid("turn.stuck_rule")]
    return out


def legal_by_seat(st: State, seats: Sequence[int]) -> dict[int, list[str]]:
    return {s: logs.codes_of(st.legal_actions(s)) for s in sorted(set(seats))}


def _comparable(d: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in d.items() if not k.startswith(logs.EXTENSION_PREFIX)}
    if out.get("type") == "end":
        out.pop("hand", None)
    return out


def consequence_rules(rules: table_mod.Rules, line: Mapping[str, Any]) -> list[str]:
    """Rule ids that decide a consequence of this type (for a disagreeing line)."""
    t = line.get("type")
    rid = rules.rid
    if t == "draw":
        return [rid("turn.draw_rule"), rid("turn.direction_rule")]
    if t == "laid":
        return _priority_rules(rules) + [rid("claims.tie_break_rule")]
    if t == "returned":
        return [rid("turn.chiu_return_rule"), rid("turn.return_resume_rule")]
    if t in ("passed-on", "dead"):
        return [rid("turn.drawn_offer_rule"), rid("turn.return_resume_rule")]
    if t == "timeout-as":
        return [rid("turn.timeout_rule")]
    if t == "declined":
        return [r.rule for r in rules.restrictions if "win" in r.bans]
    if t == "banned":  # the row that creates the ban, else every row creating that kind
        named = [r.rule for r in rules.restrictions if r.rule == line.get("rule")]
        return named or [r.rule for r in rules.restrictions if line.get("ban") in r.bans]
    if t == "fault":  # the rows the act broke, and the row that penalises rather than forbids
        return [r for r in line.get("rules", []) if isinstance(r, str)] + (
            [rid("turn.restriction_mode_rule")] if "turn.restriction_mode_rule" in rules.rule_ids
            else [])
    if t == "declared":  # the declaration phase, then the rows that settle it
        if "turn.declare_rule" not in rules.rule_ids:
            return [rid("turn.reveal_rule")]
        return [rid("turn.declare_rule"), rid("declaration.rule")] + [
            r for r in line.get("rules", []) if isinstance(r, str)]
    if t == "end":
        res = line.get("result")
        if res == "win":
            return [rid("win.rule"), rid("win.counts_rule"), rid("turn.reveal_rule")]
        if res == "draw":
            return [rid("turn.exhausted_rule"), rid("turn.recycle_rule")]
        return [rid("turn.stuck_rule")]
    return []


def claim_resolution(before: State, action: Action, after: State) -> list[str]:
    """Rows that decided between competing claims when `action` closed a window.

    Empty unless the action was the last answer in a window where two or more seats
    claimed the card.  For each claim the granted one beats, the machine's own verdict
    (`State.claim_verdict`): the priority row that orders the two kinds, or, within one
    tier, the seat-order tie-break (and its option row).
    """
    w = before.window
    if before.phase != "window" or w is None:
        return []
    responses = dict(w.responses)
    responses[action.seat] = action
    claims = [a for a in responses.values() if a.kind not in ("pass", "timeout")]
    if len(claims) < 2 or set(responses) != set(w.options):
        return []
    if _claim_winner(before, after, claims) is None:
        return []
    rules = before.rules
    tie = rules.rid("claims.tie_break_rule")
    out: list[str] = []
    for _, row in before.claim_verdict(responses)[1]:
        out += [row, rules.rid("claims.tie_break_option")] if row == tie else [row]
    return list(dict.fromkeys(out))


def _priority_rules(rules: table_mod.Rules) -> list[str]:
    """``claims.priority_rules`` in order: row i says tier i goes before the tiers below."""
    keyed = [(int(k.rsplit(".", 1)[1]), v) for k, v in rules.rule_ids.items()
             if k.startswith("claims.priority_rules.")]
    return [v for _, v in sorted(keyed)]


def _claim_winner(before: State, after: State, claims: list[Action]) -> Action | None:
    """The claim the machine granted, read off the state after it."""
    out = after.outcome()
    if out is not None and out.get("result") == "win":
        return next((c for c in claims if c.seat == out["winner"] and c.kind == out["kind"]),
                    None)
    grown = [s for s in range(before.n) if len(after.laid[s]) > len(before.laid[s])]
    for c in claims:
        if c.seat in grown:
            return c
    return None


def _hand_ok(st: State, line: Mapping[str, Any]) -> str | None:
    """None when an end line's `hand` is a split of the winner's cards into groups."""
    hand = line.get("hand")
    if hand is None or line.get("result") != "win":
        return None
    s = line.get("seat")
    if not isinstance(s, int):
        return "no seat"
    held = Counter(st.held_faces(s))
    got: Counter[int] = Counter()
    chan = 0
    for g in hand:
        faces = [cards.parse(c) for c in g]
        try:
            grp = group_of(faces, st.rules)
        except HandError as exc:
            return str(exc)
        chan += grp.chan
        got.update(faces)
    if got != held:
        return "the groups do not hold exactly the winner's cards"
    if chan < st.rules.min_chan:
        return f"the groups hold {chan} chắn; at least {st.rules.min_chan} are needed"
    return None


def _fits(fmt: Any, q: dict[str, Any], want: dict[str, Any]) -> bool:
    """Whether a logged consequence line `want` agrees with the machine's line `q` of a
    kind whose log module states each line's optional fields (``CONSEQUENCE_FIELDS``):
    word for word, or with some optional fields left out and every other field equal."""
    if q == want:
        return True
    if q.get("type") != want.get("type") or not set(want) <= set(q):
        return False
    optional = set(getattr(fmt, "CONSEQUENCE_FIELDS", {}).get(str(q["type"]), ((), ()))[1])
    return set(q) - set(want) <= optional and all(q[k] == want[k] for k in want)


def _closest(queue: Sequence[dict[str, Any]], line: Mapping[str, Any]) -> dict[str, Any] | None:
    """The line of the rules a disagreeing log line most likely stands for: of the same
    type, sharing the most fields (the first of those), else the next line expected."""
    same = [q for q in queue if q["type"] == line.get("type")]
    if not same:
        return queue[0] if queue else None
    return max(same, key=lambda q: sum(1 for k, v in q.items() if line.get(k) == v))


def _left_out(st: State, skipped: Sequence[dict[str, Any]], e: logs.Entry, steps: int,
              where_vi: str, where_en: str) -> Divergence | None:
    """A divergence when a log that writes ``banned`` lines skips one of them."""
    ban = next((q for q in skipped if q["type"] == "banned"), None)
    if ban is None:
        return None
    vi_b, en_b = logs.say_line(ban)
    return Divergence(
        e.line, steps, "consequence", e.data, consequence_rules(st.rules, ban),
        f"nhật ký có ghi dòng banned nên phải ghi đủ, nhưng thiếu một lệnh cấm {where_vi}: "
        f"theo luật ở đây: {vi_b}",
        f"the log writes banned lines, so it must write them all, but it leaves one out "
        f"{where_en}: by the rules here: {en_b}",
        list(st.pending()), legal_by_seat(st, st.pending()), ban)


def _codes_by_seat(st: Any, seats: Sequence[int]) -> dict[int, list[str]]:
    """Each seat's legal actions as the kind's codes (``2 beat QS``)."""
    return {s: [a.code() for a in st.legal_actions(s)] for s in sorted(set(seats))}


def replay_own_format(log: logs.GameLog) -> ReplayResult:
    """Replay a log in a kind's own format (`Kind.log`) through the `GameState`
    protocol: every action legal where it stands (`explain`), every consequence line one
    the machine produced since the last action, in order (lines may be left out, never
    invented or reordered)."""
    fmt = log.kind.log
    st = log.kind.State(log.rules, log.deal)
    res = ReplayResult("conforming", log.source, log.fmt, lines=len(log.entries), state=st,
                       own_format=True)
    queue: list[dict[str, Any]] = fmt.first_lines(st)
    for e in log.entries:
        if e.kind == "action":
            a = e.action
            said = fmt.say(st, e.data, a)
            if st.is_terminal():
                out = st.outcome() or {}
                res.divergence = Divergence(
                    e.line, res.steps, "after-end", e.data, list(out.get("rules", [])),
                    "ván đã kết thúc, không còn hành động nào hợp lệ",
                    "the hand is over; no action is legal any more", said=said)
                break
            ex = st.explain(a)
            if not ex.legal:
                res.divergence = Divergence(
                    e.line, res.steps, "illegal-action", e.data, list(ex.rules), ex.vi, ex.en,
                    list(st.pending()), _codes_by_seat(st, [*st.pending(), a.seat]),
                    said=said)
                break
            queue = fmt.step(st, a)
            res.steps += 1
            continue
        want = {k: v for k, v in e.data.items() if not k.startswith(logs.EXTENSION_PREFIX)}
        idx = next((i for i, q in enumerate(queue) if _fits(fmt, q, want)), None)
        if idx is None:
            same = [q for q in queue if q["type"] == e.data.get("type")]
            expected = max(same, key=lambda q: sum(1 for k, v in q.items() if
                                                   e.data.get(k) == v)) if same else (
                queue[0] if queue else None)
            if expected is None:
                vi = ("luật không sinh ra dòng này ở đây; bước tiếp theo là một hành động của "
                      f"người {', '.join(map(str, st.pending())) or '(không ai)'}")
                en = ("the rules produce no such line here; next comes an action by seat(s) "
                      f"{', '.join(map(str, st.pending())) or '(none)'}")
                rules: list[str] = []
            else:
                vi_e, en_e = fmt.say(st, expected, None)
                vi, en = f"theo luật ở đây: {vi_e}", f"by the rules here: {en_e}"
                rules = list(expected.get("rules", []))
            res.divergence = Divergence(
                e.line, res.steps, "consequence", e.data, rules, vi, en, list(st.pending()),
                _codes_by_seat(st, st.pending()), expected, said=fmt.say(st, e.data, None))
            break
        queue = queue[idx + 1:]
    if res.divergence is not None:
        res.status = "divergence"
    elif not st.is_terminal() and not st.is_stuck():
        res.status = "unfinished"
    return res


def replay_log(log: logs.GameLog) -> ReplayResult:
    if log.kind is not None:
        return replay_own_format(log)
    st = State(log.rules, log.deal)
    res = ReplayResult("conforming", log.source, log.fmt, lines=len(log.entries), state=st)
    queue: list[dict[str, Any]] = []
    # a log that writes one 'banned' line says what each step bans: none may be left out
    all_bans = any(e.kind == "consequence" and e.type == "banned" for e in log.entries)
    for e in log.entries:
        if e.kind == "action":
            a = e.action
            assert a is not None
            if all_bans:
                res.divergence = _left_out(st, queue, e, res.steps, f"trước dòng {e.line}",
                                           f"before line {e.line}")
                if res.divergence is not None:
                    break
            queue = []
            if st.is_terminal():
                res.divergence = Divergence(
                    e.line, res.steps, "after-end", e.data, [st.rules.rid("turn.reveal_rule")],
                    "ván đã kết thúc, không còn hành động nào hợp lệ",
                    "the hand is over; no action is legal any more")
                break
            if not st.is_legal(a):  # (a declaration: any the table can state)
                ex = st.explain(a)
                seats = list(st.pending()) + [a.seat]
                res.divergence = Divergence(
                    e.line, res.steps, "illegal-action", e.data, list(ex.rules), ex.vi, ex.en,
                    list(st.pending()), legal_by_seat(st, seats))
                break
            queue = logs.step(st, a)
            res.steps += 1
            continue
        if queue and queue[0] == e.data:  # the usual case: the next line, word for word
            idx: int | None = 0
        else:
            want = _comparable(e.data)
            idx = next((i for i, q in enumerate(queue) if _comparable(q) == want), None)
        if idx is None:
            expected = _closest(queue, e.data)
            basis = expected if expected is not None else e.data
            if expected is None:
                vi = ("luật không sinh ra dòng này ở đây; bước tiếp theo là một hành động của "
                      f"người {', '.join(map(str, st.pending())) or '(không ai)'}")
                en = ("the rules produce no such line here; next comes an action by seat(s) "
                      f"{', '.join(map(str, st.pending())) or '(none)'}")
            else:
                vi_e, en_e = logs.say_line(expected)
                vi, en = f"theo luật ở đây: {vi_e}", f"by the rules here: {en_e}"
            rules = consequence_rules(st.rules, basis)
            if e.type == "banned":  # and the row the log says bans it
                rules = list(dict.fromkeys(rules + consequence_rules(st.rules, e.data)))
            res.divergence = Divergence(
                e.line, res.steps, "consequence", e.data, rules, vi, en, list(st.pending()),
                legal_by_seat(st, st.pending()), expected)
            break
        if all_bans:
            res.divergence = _left_out(st, queue[:idx], e, res.steps, f"trước dòng {e.line}",
                                       f"before line {e.line}")
            if res.divergence is not None:
                break
        bad = _hand_ok(st, e.data)
        if bad is not None:
            res.divergence = Divergence(
                e.line, res.steps, "bad-hand", e.data, [st.rules.rid("win.rule"),
                                                        st.rules.rid("win.counts_rule")],
                f"bài khai khi ù không hợp lệ: {bad}", f"the winning hand shown is wrong: {bad}",
                expected=queue[idx])
            break
        queue = queue[idx + 1:]
    # a log that stops before a step's bans is truncated there, not wrong: no check at
    # its end (a finished hand's bans come before its 'end' line, and are checked)
    if res.divergence is not None:
        res.status = "divergence"
    elif not st.is_terminal() and not st.is_stuck():
        res.status = "unfinished"  # conforms so far, but seats still have moves to make
    return res


def replay_text(text: str, source: str = "<log>",
                table: table_mod.Table | None = None) -> ReplayResult:
    try:
        log = records.load_text(text, source, table)
    except logs.LogError as exc:
        return ReplayResult("malformed", source, error=exc)
    return replay_log(log)


def replay_path(path: str, table: table_mod.Table | None = None) -> ReplayResult:
    try:
        log = records.load(path, table)
    except logs.LogError as exc:
        return ReplayResult("malformed", path, error=exc)
    return replay_log(log)
