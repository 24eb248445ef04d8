"""An engine that settles claims one seat at a time, as many engines do.

In a claim window it asks one question at a time: the claim tiers in the table's
priority (ù and chíu-ù, then chíu, then taking back a passed card, then eating), and
within a tier the seats in seat order from the gate (``claim-seat-order``); a seat is
asked about a tier only when it has a claim of that tier, and answers with one of those
claims or with ``pass``.  The first claim is granted at once and the questions left are
never asked: a seat that still had a claim to be asked about was outranked, not passing
(no ban of a pass falls on it); when every question was answered no, the card goes on
by itself (dead and drawn, or passed on).  Its start answer declares
``"claim_style": "one-seat-at-a-time"`` and the optional ``events`` request.

It keeps the hand in the reference machine (`Session`), and only changes who is asked
what: a thin layer over it.  ``--silent`` leaves the claim style undeclared;
``--ties-by-seat-number`` is a bug: within a tier it asks seats 0, 1, 2… whatever the gate.
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform import logs
from chanspec.checks.conform.refengine import Session, serve
from chanspec.model.chan.game import CLAIM_KINDS, Action


class OneSeat:
    def __init__(self, declare: dict[str, Any], by_number: bool = False):
        self.inner = Session(declare=declare)
        self.by_number = by_number
        self.nos: dict[int, Action] = {}  # the current window's answers "no", by seat
        self.asked = 0  # questions of the current window answered so far
        self._asked: tuple[int, list[tuple[int, list[Action]]]] | None = None

    def questions(self) -> list[tuple[int, list[Action]]]:
        """The current window's questions (worked out once per position: the hand only
        moves when the window is settled)."""
        st = self.inner.state
        assert st is not None and st.window is not None
        if self._asked is None or self._asked[0] != len(st.history):
            self._asked = (len(st.history), self._questions(st))
        return self._asked[1]

    def _questions(self, st: Any) -> list[tuple[int, list[Action]]]:
        acts = {s: st.legal_actions(s) for s in st.pending()}
        out = []
        for tier in st.rules.priority:
            for s in range(st.n) if self.by_number else st._seat_order(st.window):
                mine = [a for a in acts.get(s, ()) if a.kind in tier]
                if mine:
                    out.append((s, mine + [a for a in acts[s] if a.kind not in CLAIM_KINDS]))
        return out

    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        op = req.get("op") if isinstance(req, dict) else None
        st = self.inner.state
        if op == "start":
            self.nos, self.asked, self._asked = {}, 0, None
        if op not in ("legal", "legal_all", "apply", "state") or st is None or \
                st.phase != "window":
            return self.inner.handle(req)
        seat, offer = self.questions()[self.asked]
        if op in ("legal", "legal_all"):
            shown = offer if op == "legal_all" or req.get("seat") == seat else []
            return {"ok": True, "actions": [a.as_json() for a in shown]}
        if op == "state":
            resp = self.inner.handle(req)
            resp["state"]["pending"] = [seat]
            return resp
        a = req.get("action")
        try:
            action = logs.LineCheck("<apply>", 1, a, st.n).action_fields(a, "action.") \
                if isinstance(a, dict) else None
        except logs.LogError as exc:
            return {"ok": False, "error": f"{exc.field}: {exc.message}"}
        if action not in offer:
            return {"ok": False, "error": f"seat {seat} is asked now; not {a!r}"}
        if action.kind in CLAIM_KINDS:  # granted: nobody else is asked
            outranked: dict[int, Action] = {}
            for s, rest in self.questions()[self.asked + 1:]:
                outranked.setdefault(s, rest[0])
            answers = [action] + [outranked.get(s) or self.nos.get(s, Action("pass", s))
                                  for s in st.pending() if s != seat]
        else:
            self.nos[seat] = action
            self.asked += 1
            if self.asked < len(self.questions()):
                return {"ok": True}
            answers = [self.nos.get(s, Action("pass", s)) for s in st.pending()]
        self.nos, self.asked = {}, 0
        for b in answers:  # the machine settles the window: its draws follow by themselves
            r = self.inner.handle({"op": "apply", "action": b.as_json()})
            assert r["ok"], r
        return {"ok": True}


if __name__ == "__main__":
    declare: dict[str, Any] = {"accepts": ["legal_all", "state", "events"]}
    if "--silent" not in sys.argv:
        declare["claim_style"] = "one-seat-at-a-time"
    sys.exit(serve(session=OneSeat(declare, "--ties-by-seat-number" in sys.argv)))
