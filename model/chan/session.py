"""A session: hands played one after another, each starting from the last, from the
table's ``[session]`` section (data; this module reads its roles and nothing else).

What carries over (`carry`):

* **who starts the next hand** -- the last winner (``rule``, row ``cai-pile``), who
  draws the cái under the dealing ritual (``[cai]``) and opens without it; after a drawn
  hand, the same seat or the next one (``after_draw_rule``);
* **thông** -- whose win of the next hand is thông (the cước ``thong_rule``).  The last
  hand must have been won and its declaration right: a declaration that named a cước the
  hand lacks (``over``) or that cost the winner (``den``) ends it, one that left a cước
  out keeps it or not (``thong_under_rule``); a win under the house minimum, a báo winner
  (`model.pay` case ``u-bao``) and a fault of ``thong_breaking_faults`` (bỏ ù) in the
  last hand end it; a win left unpaid as treo tranh keeps it.  It is the last winner's
  alone or anyone's (``thong_who_rule``).

A hand of a session is dealt from its own seed (`hand_seed`: the session's seed plus
the hand's number less one) with the drawer and thông `carry` gives, so any hand can
be played again on its own: ``chanspec play --seed S --drawer D --thong T``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chanspec.model.chan import cai, pay
from chanspec.model.chan.game import Action, Deal, State, deal_random, start_seat

from .table import Rules


class SessionError(ValueError):
    """A session that cannot go on (a table without ``[session]``, a stuck hand)."""


def plays_sessions(rules: Rules) -> bool:
    """Whether the table says what carries over from hand to hand (``[session]``)."""
    return "session" in rules.table.data


@dataclass(frozen=True)
class Carry:
    """How a hand of a session starts: the seat that starts it (`drawer`: it draws the
    cái, or without the dealing ritual opens; None: the table's first-hand reading
    decides), the seats whose win is thông, and the rows behind it (`why_vi`/`why_en`:
    the same in words, without ids)."""

    drawer: int | None
    thong: tuple[int, ...]
    rules: tuple[str, ...]
    why_vi: str
    why_en: str

    def as_json(self) -> dict[str, Any]:
        return {"drawer": self.drawer, "thong": list(self.thong), "rules": list(self.rules)}


def first(rules: Rules, drawer: int | None = None) -> Carry:
    """The start of a session's first hand: nobody won before, nobody has thông."""
    rid = rules.rid
    why = (rid("cai.first_drawer_rule" if cai.has_ritual(rules) else "turn.next_opener_rule"),)
    vi, en = _starts(rules)
    if drawer is None:
        return Carry(None, (), why, f"ván đầu: chưa ai thắng, người {vi} theo luật ván đầu",
                     f"first hand: nobody has won yet; the first-hand rule picks who {en}")
    return Carry(drawer, (), why, f"ván đầu: chưa ai thắng, ghế {drawer} được chọn {vi}",
                 f"first hand: nobody has won yet; seat {drawer} is chosen and {en}")


def _starts(rules: Rules) -> tuple[str, str]:
    """What the seat that starts a hand does, in words (vi, en)."""
    return (("bốc cái", "draws the cái") if cai.has_ritual(rules) else ("đánh đầu", "opens"))


def _keeps_thong(rules: Rules, st: State, settled: pay.Settlement) -> tuple[bool, list[str],
                                                                                str, str]:
    """Whether the last hand, won, gives thông to the next: (yes, rows, vi, en)."""
    rid = rules.rid
    res = st.result
    assert res is not None
    d = res.get("declaration") or {}
    judgement, consequence = d.get("judgement"), d.get("consequence")
    rows = [rid("session.thong_rule")]
    if judgement == "over" or consequence == "den":
        return (False, rows + list(d.get("rules", [])), "ván trước xướng sai",
                "the last hand was declared wrongly")
    if judgement in ("under", "must-missing"):
        rows.append(rid("session.thong_under_rule"))
        if rules.machine_value("session.thong_under_rule") == "breaks":
            return (False, rows, "ván trước xướng thiếu", "the last hand left a cước out")
    if settled.case in ("below-min", "below-min-den"):
        return (False, rows + list(settled.rules), "ván trước ù dưới mức làng cho",
                "the last win was below the house minimum")
    if settled.case == "u-bao":
        return (False, rows + list(settled.rules), "ván trước ù báo",
                "the last winner was báo")
    breaking = set(rules.table.data["session"].get("thong_breaking_faults", []))
    hit = [r for f in res.get("faults", []) for r in f["rules"] if r in breaking]
    if hit:
        return (False, rows + hit, "ván trước có người bỏ ù", "a win was declined last hand")
    if settled.case == "treo-tranh":
        return (True, rows + list(settled.rules), "ván trước treo tranh",
                "the last hand was treo tranh")
    return True, rows, "ván trước ù và xướng đúng", "the last hand was won and declared right"


def carry(rules: Rules, st: State, settled: pay.Settlement) -> Carry:
    """How the hand after the finished hand `st` (settled as `settled`) starts.

    Raises SessionError for a hand that is not over (stuck)."""
    if not plays_sessions(rules):
        raise SessionError(f"table {rules.table.id!r} says nothing of what carries over "
                           "from hand to hand (no [session] section)")
    rid = rules.rid
    res = st.result
    if res is None or st.phase != "over":
        raise SessionError("the hand did not end (a seat must act and has no legal action): "
                           "the session cannot go on")
    assert st.deal is not None
    last = st.deal.drawer if cai.has_ritual(rules) else st.deal.opener
    if res.get("result") != "win":
        how = rules.machine_value("session.after_draw_rule")
        base = 0 if last is None else last
        drawer = base if how == "same-drawer" else (base + 1) % st.n
        vi_s, en_s = _starts(rules)
        return Carry(drawer, (), (rid("session.after_draw_rule"), rid("session.thong_rule")),
                     f"ván trước hòa: ghế {drawer} {vi_s}, không ai có thông",
                     f"the last hand was drawn: seat {drawer} {en_s}, nobody has thông")
    w = int(res["winner"])
    keeps, rows, vi, en = _keeps_thong(rules, st, settled)
    seats: tuple[int, ...] = ()
    if keeps:
        rows.append(rid("session.thong_who_rule"))
        same = rules.machine_value("session.thong_who_rule") == "same-seat"
        seats = (w,) if same else tuple(range(st.n))
        vi += (f": ghế {w} ù tiếp thì có thông" if same else ": ai ù ván này cũng có thông")
        en += (f": seat {w} has thông if they win again" if same else
               ": whoever wins this hand has thông")
    else:
        vi += ": không ai có thông"
        en += ": nobody has thông"
    vi_s, en_s = _starts(rules)
    return Carry(w, seats, tuple(dict.fromkeys([rid("session.rule"), *rows])),
                 f"ghế {w} thắng ván trước nên {vi_s}; {vi}",
                 f"seat {w} won the last hand and {en_s}; {en}")


def hand_seed(seed: int, number: int) -> int:
    """The seed of hand `number` (1, 2, ...) of the session of `seed`."""
    return seed + number - 1


def deal(rules: Rules, seed: int, start: Carry) -> Deal:
    """The deal of a hand of a session: the random deal of `seed` from the seat that
    starts it, with the seats whose win is thông."""
    if start.drawer is None:  # the first hand: the table's first-hand reading
        d = deal_random(rules, seed)
    else:
        d = deal_random(rules, seed, **start_seat(rules, start.drawer))
    return dataclasses.replace(d, thong=start.thong) if start.thong else d


@dataclass(frozen=True)
class HandPlayed:
    """One hand of a session: its number, seed, how it started, its actions, how it ended
    (`outcome`, the machine's), how it was settled, and every seat's total after it."""

    number: int
    seed: int
    start: Carry
    deal: Deal
    actions: tuple[Action, ...]
    outcome: dict[str, Any] | None
    settlement: pay.Settlement
    totals: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {"type": "hand", "hand": self.number, "seed": self.seed,
                "start": self.start.as_json(), "deal": self.deal.as_json(),
                "outcome": self.outcome, "settlement": self.settlement.as_json(),
                "totals": list(self.totals)}


def play(rules: Rules, hands: int, seed: int, player: Callable[[State, int], None],
         drawer: int | None = None) -> tuple[list[HandPlayed], str | None]:
    """Play `hands` hands, the first drawn from seat `drawer` (None: the first-hand
    reading), each played to its end by `player(state, hand_seed)`.

    Returns the hands played and, when the session had to stop early, why (a stuck hand
    ends it: nothing says how such a hand is settled)."""
    if not plays_sessions(rules) or not pay.has_payment(rules):
        raise SessionError(f"table {rules.table.id!r} plays no sessions: it needs [payment] "
                           "and [session] (who pays, what carries over)")
    if hands < 1:
        raise SessionError(f"a session has at least one hand; asked for {hands}")
    out: list[HandPlayed] = []
    start = first(rules, drawer)
    totals = (0,) * rules.players
    for k in range(1, hands + 1):
        s = hand_seed(seed, k)
        st = State(rules, deal(rules, s, start))
        player(st, s)
        settled = pay.settle(rules, st)
        totals = tuple(a + b for a, b in zip(totals, settled.net, strict=True))
        assert st.deal is not None
        out.append(HandPlayed(k, s, start, st.deal, tuple(st.history), st.outcome(), settled,
                              totals))
        if k == hands:
            break
        try:
            start = carry(rules, st, settled)
        except SessionError as exc:
            return out, f"hand {k}: {exc}"
    return out, None
