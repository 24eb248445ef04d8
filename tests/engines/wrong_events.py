"""An engine whose play is right but which reports one consequence wrong: a drawn card
passed on to the next seat is reported, through the optional ``events`` request, as
dead at the drawer's gate.  Its legal actions and outcomes are the reference machine's,
so only the comparison of consequences can catch it.  ``--right`` reports them right
(the same engine, declaring ``events``, conforms).
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.refengine import Session, serve


class PassedOnAsDead(Session):
    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        resp = super().handle(req, raw)
        if isinstance(req, dict) and req.get("op") == "events" and resp.get("ok") \
                and self.state is not None:
            n = self.state.n
            resp["events"] = [{"type": "dead", "card": e["card"], "gate": (e["to"] - 1) % n}
                              if e["type"] == "passed-on" else e for e in resp["events"]]
        return resp


if __name__ == "__main__":
    declare = {"accepts": ["legal_all", "state", "events"]}
    session = (Session if "--right" in sys.argv else PassedOnAsDead)(declare=declare)
    sys.exit(serve(session=session))
