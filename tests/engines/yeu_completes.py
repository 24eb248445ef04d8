"""A wrong engine: Chi Chi may complete ù (it breaks yeu-never-completes, §4 bullet 2).

Everything else is the reference machine; only this one rule is dropped: Chi Chi is
taken out of the table's faces that may never be the completing card, and the state's
win engine is built from that changed table.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan import cards
from chanspec.model.chan.game import Deal, State
from chanspec.model.chan.table import Rules
from chanspec.model.chan.win import WinEngine

_ENGINES: dict[Any, WinEngine] = {}


def make_state(rules: Rules, deal: Deal) -> State:
    st = State(rules, deal)
    key = rules.key()
    if key not in _ENGINES:
        wrong = dataclasses.replace(rules, never_complete=rules.never_complete - {cards.CHI})
        _ENGINES[key] = WinEngine(wrong)
    st.engine = _ENGINES[key]
    return st


if __name__ == "__main__":
    sys.exit(serve(state_factory=make_state))
