"""Who pays whom when a hand is over, from the table's ``[payment]`` section (data; this
module reads its roles and nothing else).

A win is worth its score: the formula plus gà (`model.score`), over the cước the
declaration is paid for (`model.declare`: the whole correct declaration, or the cước
named and held after an under-declaration), or owed (``den``) after a wrong one.  Each
role names an option row (`chanspec.model.chan.vocab.MACHINE_VALUES`):

* ``payers_rule`` -- ``each``: every other seat pays the winner the worth, and a winner
  who owes pays each of them; ``giver``: the seat that discarded, drew or returned the
  winning card pays for the whole table (the worth times the other seats), and a winner
  who owes pays that seat so; a win on the winner's own card (their own draw, the dealt
  hand) is paid by each;
* ``fault_rule`` -- what a fault of the rules of play (``restriction-mode=penalise``,
  `State.faults`) costs: ``treo-tranh``, an offender who wins keeps the win unpaid (the
  faults of the others cost nothing); ``bao``, the first offender pays for the table: when
  another seat wins, that seat alone pays it the worth times the other seats, and an
  offender who wins (ù báo) is not paid (in play, ``[turn] fault_play_rule`` has that
  seat only draw, pass and win from its fault on: `State.bao_seat`);
* ``below_min_rule`` -- a win worth less than the house minimum (``[scoring]``
  ``min_rule``): ``unpaid``, or ``den`` (the winner pays its worth as for a wrong
  declaration).

A drawn hand costs nobody anything.  `settle` returns the transfers with the rows that
decide each, and every seat's net (the nets add up to zero).

>>> from chanspec.model.chan import table
>>> has_payment(table.rules("classic", 4)), has_payment(table.rules("family", 4))
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .table import Rules

# How a hand was settled (`Settlement.case`).
CASES = ("paid", "den", "treo-tranh", "bao", "u-bao", "below-min", "below-min-den",
         "chi-rong-fine", "draw", "unfinished")


def has_payment(rules: Rules) -> bool:
    """Whether the table says who pays whom (a ``[payment]`` section)."""
    return "payment" in rules.table.data


@dataclass(frozen=True)
class Transfer:
    """`amount` points paid by seat `payer` to seat `payee`, and the rows that decide it."""

    payer: int
    payee: int
    amount: int
    rules: tuple[str, ...]

    def __post_init__(self) -> None:  # each row once, in the order first cited
        object.__setattr__(self, "rules", tuple(dict.fromkeys(self.rules)))

    def as_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "rules": list(self.rules)}


@dataclass(frozen=True)
class Settlement:
    """A hand settled: its `case` (`CASES`), the `worth` of the win (None without one),
    the `transfers`, each seat's `net` (adding up to zero), the seat at fault that pays
    or is unpaid (`offender`), the `giver` of the winning card, and the rows behind it."""

    case: str
    worth: int | None
    transfers: tuple[Transfer, ...]
    net: tuple[int, ...]
    offender: int | None
    giver: int | None
    rules: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"case": self.case, "worth": self.worth,
                "transfers": [t.as_json() for t in self.transfers], "net": list(self.net),
                "offender": self.offender, "giver": self.giver, "rules": list(self.rules)}


def fault_class(rules: Rules, fault: Mapping[str, Any]) -> tuple[str, list[str]]:
    """What a fault of the rules of play costs, one of `FAULT_CLASSES`, and the rows that
    say so beyond the fault's own: the one class of ``[payment] fault_rule`` for every
    fault (``[turn] fault_class_rule`` reads ``one-class``, or the table has no such row),
    or, reading ``by-rule``, the class ``[turn] fault_classes`` gives the rules the fault
    broke, when they give exactly one (else the one class again)."""
    one = rules.machine_value("payment.fault_rule")
    if rules.machine_value("turn.fault_class_rule") != "by-rule":
        return one, []
    own = rules.table.data["turn"].get("fault_classes", {})
    found = {own[r] for r in fault["rules"] if r in own}
    return (found.pop() if len(found) == 1 else one), [rules.rid("turn.fault_class_rule")]


def giver(st: Any) -> int | None:
    """The seat whose card completed the win of a finished hand (a `model.game.State`):
    who discarded it, drew it (passing it on or not) or returned it; None for a win on
    the dealt hand or on the winner's own draw, or without a win."""
    res = st.result
    if res is None or res.get("result") != "win" or res.get("kind") == "opening":
        return None
    last: int | None = None
    for e in st.events:
        t = e.get("type")
        if t == "timeout-as":
            e, t = e["action"], e["action"]["type"]
        if t in ("draw", "discard", "returned"):
            last = int(e["seat"])
        elif t == "end":
            break
    w = int(res["winner"])
    return None if last == w else last


def _worth(score: dict[str, Any] | None) -> int:
    return 0 if score is None else int(score["total"]) + int(score["ga"])


def _from_each(n: int, winner: int, amount: int, rows: Sequence[str], *, owes: bool
               ) -> list[Transfer]:
    """Every other seat pays the winner `amount` (or, when the winner `owes`, is paid)."""
    return [Transfer(winner, s, amount, tuple(rows)) if owes else
            Transfer(s, winner, amount, tuple(rows)) for s in range(n) if s != winner]


def _net(n: int, transfers: Sequence[Transfer]) -> tuple[int, ...]:
    net = [0] * n
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return tuple(net)


def settle(rules: Rules, st: Any) -> Settlement:
    """Who pays whom for the finished hand `st` (a `model.game.State`) under `rules`.

    Raises ValueError for a table without ``[payment]``."""
    if not has_payment(rules):
        raise ValueError(f"table {rules.table.id!r} says nothing of payments (no [payment] "
                         "section): there is nothing to settle")
    rid = rules.rid
    n = st.n
    res = st.result
    base = [rid("payment.rule")]
    if res is None or st.phase != "over":
        return Settlement("unfinished", None, (), (0,) * n, None, None, tuple(base))
    if res.get("result") != "win":
        return Settlement("draw", None, (), (0,) * n, None, None,
                          tuple(dict.fromkeys(base + list(res.get("rules", [])))))
    w = int(res["winner"])
    d = res.get("declaration")
    if d is None:  # a table that pays but has no declaration phase: the correct one
        raise ValueError(f"table {rules.table.id!r} pays a win under its declaration: the "
                         "hand has none ([turn] declare_rule)")
    g = giver(st)
    payers = rules.machine_value("payment.payers_rule")
    pay_rows = base + [rid("payment.payers_rule"), rid("declaration.rule")]
    faults = list(res.get("faults", []))
    fault_rows = [rid("payment.fault_rule")]
    owes = d["consequence"] == "den"
    sc = d["den"] if owes else d["paid"]
    worth = _worth(sc)
    rows = pay_rows + list(d.get("rules", [])) + list((sc or {}).get("rules", []))

    def share(amount: int, owing: bool, why: Sequence[str]) -> list[Transfer]:
        """The win, or what the winner owes (`owing`), between the winner and the payers
        of the reading: every other seat, or the giver for the whole table."""
        if payers == "each" or g is None:
            return _from_each(n, w, amount, why, owes=owing)
        return [Transfer(w, g, amount * (n - 1), tuple(why)) if owing else
                Transfer(g, w, amount * (n - 1), tuple(why))]

    def done(case: str, transfers: list[Transfer], why: Sequence[str],
             offender: int | None = None) -> Settlement:
        return Settlement(case, worth, tuple(transfers), _net(n, transfers), offender, g,
                          tuple(dict.fromkeys(why)))

    # a win under the house minimum is no win the house pays, whatever else happened
    if not owes and sc is not None and not sc.get("allowed", True):
        why = rows + [rid("payment.below_min_rule")] + list(sc.get("rules", []))
        if rules.machine_value("payment.below_min_rule") == "unpaid":
            return done("below-min", [], why)
        return done("below-min-den", share(worth, True, why), why)
    # ù chi rộng after keeping the Chi Chi wait (000 cước 20): the win unpaid, the fine
    # paid as a wrong declaration's đền is; a wrong declaration is owed instead
    kept = res.get("kept_chi_wait")
    if (kept and not owes and rules.machine_value("payment.chi_rong_fine_rule") == "fined"
            and rules.table.data["payment"]["chi_rong_cuoc"] in d.get("expected", ())):
        fine = int(rules.table.data["payment"]["chi_rong_fine"])
        why = rows + list(kept) + [rules.table.data["payment"]["chi_rong_cuoc"]]
        return done("chi-rong-fine", share(fine, True, why), why, w)
    # faults of the rules of play, under the reading of what they cost; a wrong
    # declaration is owed all the same
    # (read by rule of play, `fault_class`, a winner's own treo-tranh fault is judged
    # before another seat's báo, as the value by-rule of that row says)
    if faults and not owes:
        classed = [(f, *fault_class(rules, f)) for f in faults]
        mine = [(f, more) for f, cls, more in classed
                if cls == "treo-tranh" and int(f["seat"]) == w]
        if mine:
            why = rows + fault_rows + [r for f, more in mine for r in [*more, *f["rules"]]]
            return done("treo-tranh", [], why, w)
        bao = [(f, more) for f, cls, more in classed if cls == "bao"]
        if bao:
            f, more = bao[0]
            first = int(f["seat"])
            why = rows + fault_rows + more + list(f["rules"])
            if first == w:
                return done("u-bao", [], why, w)
            # the báo seat alone pays the winner for the whole table
            return done("bao", [Transfer(first, w, worth * (n - 1), tuple(why))], why, first)
    return done("den" if owes else "paid", share(worth, owes, rows), rows)


def words(s: Settlement) -> tuple[str, str]:
    """How the hand was settled, in Vietnamese and in English (no row ids)."""
    moves_vi, moves_en = moves_words(s.transfers)
    who = s.offender if s.offender is not None else -1
    vi = {
        "paid": f"người ù được {s.worth} điểm: {moves_vi}",
        "den": f"người ù xướng sai và phải đền {s.worth} điểm: {moves_vi}",
        "treo-tranh": "treo tranh: người ù đã phạm lỗi, ván ù vẫn tính nhưng không ai trả",
        "bao": f"báo: ghế {who} phạm lỗi nên đền làng: {moves_vi}",
        "u-bao": "ù báo: người ù đã phạm lỗi nên không được trả",
        "below-min": f"ván ù chỉ được {s.worth} điểm, dưới mức làng cho: không ai trả",
        "below-min-den": f"ván ù chỉ được {s.worth} điểm, dưới mức làng cho: người ù phải "
                         f"đền: {moves_vi}",
        "chi-rong-fine": f"ù chi rộng mà đã cố giữ chờ Chi: không được trả, người ù bị "
                         f"phạt: {moves_vi}",
        "draw": "ván hòa: không ai trả ai",
        "unfinished": "ván chưa xong: chưa tính tiền",
    }
    en = {
        "paid": f"the winner is worth {s.worth}: {moves_en}",
        "den": f"the winner declared wrongly and owes {s.worth}: {moves_en}",
        "treo-tranh": "treo tranh: the winner committed a fault; the win stands, unpaid",
        "bao": f"báo: seat {who} committed a fault and pays for the table: {moves_en}",
        "u-bao": "ù báo: the winner committed a fault and is not paid",
        "below-min": f"the win is worth {s.worth}, below the house minimum: nobody pays",
        "below-min-den": f"the win is worth {s.worth}, below the house minimum: the winner "
                         f"pays: {moves_en}",
        "chi-rong-fine": f"ù chi rộng after keeping the Chi Chi wait: unpaid, and the "
                         f"winner is fined: {moves_en}",
        "draw": "a drawn hand: nobody pays",
        "unfinished": "the hand is not over: nothing is settled",
    }
    return vi[s.case], en[s.case]


def moves_words(transfers: Sequence[Transfer]) -> tuple[str, str]:
    """Who pays whom (vi, en), grouped as it is said at the table: ``ghế 0, 1 và 3 mỗi
    người trả ghế 2 36`` when several pay one seat the same, ``ghế 2 trả mỗi ghế 0, 1 và
    3 36`` when one seat pays several the same; otherwise transfer by transfer."""
    def seats(xs: Sequence[int], join: str) -> str:
        shown = [str(x) for x in xs]
        return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {join} {shown[-1]}"

    ts = list(transfers)
    if len(ts) > 1 and len({t.amount for t in ts}) == 1:
        amount = ts[0].amount
        if len({t.payee for t in ts}) == 1:
            payers = [t.payer for t in ts]
            return (f"ghế {seats(payers, 'và')} mỗi người trả ghế {ts[0].payee} {amount}",
                    f"seats {seats(payers, 'and')} each pay seat {ts[0].payee} {amount}")
        if len({t.payer for t in ts}) == 1:
            payees = [t.payee for t in ts]
            return (f"ghế {ts[0].payer} trả mỗi ghế {seats(payees, 'và')} {amount}",
                    f"seat {ts[0].payer} pays seats {seats(payees, 'and')} {amount} each")
    return ("; ".join(f"ghế {t.payer} trả ghế {t.payee} {t.amount}" for t in ts),
            "; ".join(f"seat {t.payer} pays seat {t.payee} {t.amount}" for t in ts))
