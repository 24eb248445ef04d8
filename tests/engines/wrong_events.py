"""An engine whose play is right but which reports one consequence wrong, through the
optional ``events`` request.  Its legal actions and outcomes are the reference machine's,
so only the comparison of consequences can catch it.  By default a drawn card passed on
to the next seat is reported as dead at the drawer's gate.  ``--no-bans`` reports every
consequence but the ``banned`` lines (an engine that does not say what a step bans);
``--chiu-ban`` adds to the bans of one's own discard (``discarded-face-no-eat``) a ban
on chíu of that face, which no reading of the rules has.  ``--right`` reports them
right (the same engine, declaring ``events``, conforms).
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
            resp["events"] = self.wrong(resp["events"])
        return resp

    def wrong(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        assert self.state is not None
        n = self.state.n
        return [{"type": "dead", "card": e["card"], "gate": (e["to"] - 1) % n}
                if e["type"] == "passed-on" else e for e in events]


class NoBans(PassedOnAsDead):
    def wrong(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] != "banned"]


class ChiuBanOnDiscard(PassedOnAsDead):
    def wrong(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for e in events:
            out.append(e)
            if e["type"] == "banned" and e["rule"] == "discarded-face-no-eat" \
                    and e["ban"] == "eat-ca":
                out.append({**e, "ban": "chiu"})
        return out


if __name__ == "__main__":
    declare = {"accepts": ["legal_all", "state", "events"]}
    kind = (Session if "--right" in sys.argv else NoBans if "--no-bans" in sys.argv
            else ChiuBanOnDiscard if "--chiu-ban" in sys.argv else PassedOnAsDead)
    sys.exit(serve(session=kind(declare=declare)))
