"""A one-seat-at-a-time engine (tests/engines/one_seat.py) with one bug: the first seat
asked in a claim window is also offered chíu-ù on the card, whether or not it holds three
copies of it.  chanspec cannot even judge such a win (a chíu-ù needs three concealed
copies): the campaign must report it as a difference, not fail on it.
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.game import Action
from one_seat import OneSeat


class PhantomChiuU(OneSeat):
    def questions(self) -> list[tuple[int, list[Action]]]:
        out = super().questions()
        if out:
            seat, offer = out[0]
            if not any(a.kind == "chiu-u" for a in offer):
                out[0] = (seat, [Action("chiu-u", seat), *offer])
        return out


if __name__ == "__main__":
    declare: dict[str, Any] = {"accepts": ["legal_all", "state", "events"],
                               "claim_style": "one-seat-at-a-time"}
    sys.exit(serve(session=PhantomChiuU(declare)))
