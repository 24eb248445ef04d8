"""A desynchronised engine: in a window on a drawn card it is one card ahead.

When the machine turns up the nọc's next card, this engine looks at the card after it
(as if it had drawn one card too many) and offers the claims on that card, and its
'state' names that card.  What it applies goes to the true hand, so it never drifts
further: every difference it shows is the one cause "the engine is at another card".
A campaign must key it once ("elsewhere"), not as the many claims that then differ.
Everything else is the reference machine.
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.refengine import Session, serve, state_json
from chanspec.model.chan.game import Deal, State


class DrawsAhead:
    def __init__(self) -> None:
        self.inner = Session(declare={"accepts": ["legal_all", "state", "events"]})

    def _seen(self) -> State | None:
        """The hand as this engine sees it now: the same, but in a window on a drawn card
        the card is the one after it in the nọc (None: it sees the true hand)."""
        st = self.inner.state
        if st is None or st.phase != "window" or st.window is None or \
                st.window.source != "draw" or st.window.second or st.deal is None:
            return None
        noc = list(st.deal.noc)
        i = st.noc_pos - 1  # the card just drawn
        if i + 1 >= len(noc) or noc[i] == noc[i + 1]:
            return None
        noc[i], noc[i + 1] = noc[i + 1], noc[i]
        deal = Deal(st.deal.hands, tuple(noc), st.deal.opener, st.deal.cai, st.deal.drawer)
        try:
            seen = State.replay(st.rules, deal, st.history)
        except ValueError:
            return None
        # nobody could claim the other card: it went by and the engine shows the true hand
        return seen if seen.phase == "window" and seen.noc_pos == st.noc_pos else None

    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        op = req.get("op") if isinstance(req, dict) else None
        seen = self._seen() if op in ("legal", "legal_all", "state") else None
        if seen is None:
            return self.inner.handle(req, raw)
        if op == "state":
            return {"ok": True, "state": state_json(seen)}
        seat = req.get("seat") if op == "legal" else None
        acts = seen.legal_actions(seat) if isinstance(seat, int) else seen.legal_actions()
        return {"ok": True, "actions": [a.as_json() for a in acts]}


if __name__ == "__main__":
    sys.exit(serve(session=DrawsAhead()))
