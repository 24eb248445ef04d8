"""The machine's event list: every event keeps its own ``type`` tag.

Game logs (checks/conform/logs.py) are built from these events, so an event that loses its tag
would be read back as a different line.
"""

from __future__ import annotations

from chanspec.model.chan import game, table


def test_timeout_event_keeps_its_type_and_nests_the_taken_action() -> None:
    # §4 closing paragraph: with timeout=auto-pass a silent opener discards the first
    # allowed card.  The event must say "timeout-as", not look like a second discard.
    rules = table.rules("family", 4, {"timeout": "auto-pass"})
    st = game.State.new(rules, seed=3)
    allowed = [a for a in st.legal_actions(0) if a.kind == "discard"]
    st.apply(game.Action("timeout", 0))
    kinds = [e["type"] for e in st.events]
    assert kinds[:3] == ["start", "timeout", "timeout-as"]
    taken = st.events[2]
    assert taken["seat"] == 0
    assert taken["action"] == allowed[0].as_json()
    # exactly one discard happened: the one the timeout stood for
    assert sum(1 for e in st.events if e["type"] == "discard") == 0
    assert st.history == [game.Action("timeout", 0)]
