"""The reference machine of any kind with its own game-log format (Tấn, Chiha) as an
engine speaking the driver protocol (vectors/PROTOCOL.md, "Other kinds"), and the session
`chanspec serve` runs, which hands each ``start`` to the session of its ruleset's kind.

The requests are Chắn's, read in the kind's own vocabulary (`Kind.log`):

* ``start`` with ``ruleset``, ``players``, ``options`` and ``deal`` as in the kind's log
  header -> ``{"ok":true,"accepts":["legal_all","state"]}``;
* ``legal`` (``seat``) and ``legal_all`` -> the actions as the kind's log action lines;
* ``apply`` (``action``) -> ``{"ok":true}``, or ``{"ok":false,"error":..,"rules":[..]}``
  with the rows `explain` cites when the action is not legal (the state unchanged);
* ``outcome`` -> ``{"ok":true,"terminal":false}`` or ``{"terminal":true,"outcome":{..}}``
  (the machine's outcome object);
* ``state`` -> the decision point, the pending seats and the public view;
* ``quit``.

`KindSession` takes a state factory, so that a test engine can change one rule of the
machine in-process (tests/engines/tan_follows_suit.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chanspec.checks.conform.refengine import seat_error
from chanspec.model import kinds
from chanspec.model import table as table_mod

OPS = ("start", "apply", "legal", "legal_all", "outcome", "state", "quit")
ACCEPTS = ("legal_all", "state")
StateFactory = Callable[[Any, Any], Any]


def _table(name: Any, own: dict[str, Any]) -> tuple[Any | None, str | None]:
    """The table a ``start`` names: a built-in ruleset or the one the engine was started
    with; never a file the request names."""
    if not isinstance(name, str):
        return None, f"field 'ruleset': expected a ruleset name, found {name!r}"
    if name in own:
        return own[name], None
    if name in table_mod.builtin_names():
        own[name] = kinds.load(name)
        return own[name], None
    known = sorted({*table_mod.builtin_names(), *(t.id for t in own.values())})
    return None, (f"field 'ruleset': {name!r} is neither a built-in ruleset nor the table "
                  f"this engine was started with ({', '.join(known)}); the engine never "
                  "opens a file a request names: start it with --ruleset PATH")


class KindSession:
    """One engine's state between requests, for a kind with its own log (`Kind.log`)."""

    def __init__(self, state_factory: StateFactory | None = None,
                 table: Any = None, declare: dict[str, Any] | None = None) -> None:
        self.state_factory = state_factory
        self.tables: dict[str, Any] = {}
        if table is not None:
            self.tables[table.id] = self.tables[table.path] = table
        self.declare = dict(declare or {})
        self.state: Any = None
        self.kind: Any = None
        self.rules: Any = None

    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        if not isinstance(req, dict):
            return {"ok": False, "error": "a request must be a JSON object with an 'op'"}
        rid = req.get("id")
        if "id" in req and (isinstance(rid, bool) or not isinstance(rid, int)):
            return {"ok": False, "error": f"'id' must be an integer, found {rid!r}"}
        op = req.get("op")
        if op not in OPS:
            return {"ok": False, "error": f"unknown op {op!r}; ops: {', '.join(OPS)}"}
        if op == "quit":
            return {"ok": True}
        if op == "start":
            return self.start(req)
        if self.state is None:
            return {"ok": False, "error": "no hand started: send a 'start' request first"}
        st = self.state
        try:
            if op == "legal":
                seat = req.get("seat")
                bad = seat_error(seat, self.rules.players)
                if bad is not None:
                    return bad
                return {"ok": True, "actions": [a.as_json() for a in st.legal_actions(seat)]}
            if op == "legal_all":
                return {"ok": True, "actions": [a.as_json() for a in st.legal_actions()]}
            if op == "outcome":
                if not st.is_terminal():
                    return {"ok": True, "terminal": False}
                return {"ok": True, "terminal": True, "outcome": st.outcome()}
            if op == "state":
                key = st.decision_point()[0]
                return {"ok": True, "state": {"phase": key, "pending": list(st.pending()),
                                              "view": st.view()}}
            return self._apply(req)
        except self.kind.log.LineProblem as exc:
            return {"ok": False, "error": f"field {exc.field!r}: {exc.message}"}

    def start(self, req: dict[str, Any]) -> dict[str, Any]:
        table, error = _table(req.get("ruleset"), self.tables)
        if table is None:
            return {"ok": False, "error": error}
        kind = kinds.of(table)
        if kind.log is None:
            return {"ok": False, "error": f"ruleset {table.id!r} is of kind {kind.name!r}, "
                    "which this session does not play"}
        hdr = {k: req[k] for k in ("ruleset", "players", "options", "deal") if k in req}
        hdr.setdefault("options", {})
        try:
            rules, deal = kind.log.read_header(hdr, table)
            factory = self.state_factory or (lambda r, d: kind.State(r, d))
            state = factory(rules, deal)
        except kind.log.LineProblem as exc:
            return {"ok": False, "error": f"field {exc.field!r}: {exc.message}"}
        except ValueError as exc:  # a deal or a reading the machine refuses
            return {"ok": False, "error": str(exc.args[-1] if exc.args else exc)}
        self.kind, self.rules, self.state = kind, rules, state
        return {"ok": True, "accepts": list(ACCEPTS), **self.declare}

    def _apply(self, req: dict[str, Any]) -> dict[str, Any]:
        line = req.get("action")
        if not isinstance(line, dict) or line.get("type") not in self.kind.log.ACTION_TYPES:
            return {"ok": False, "error": "'apply' needs an 'action' object with a known type "
                    f"({', '.join(self.kind.log.ACTION_TYPES)})"}
        action = self.kind.log.read_line(self.rules, line)
        if action not in self.state.legal_actions():
            ex = self.state.explain(action)
            return {"ok": False, "error": f"illegal action {action.code()}: {ex.en}",
                    "rules": list(ex.rules)}
        self.state.apply(action, check=False)
        return {"ok": True}


class ServeSession:
    """What `chanspec serve` runs: each ``start`` goes to the session of its ruleset's
    kind (Chắn's `refengine.Session`, or a `KindSession`), and every later request to the
    session of the hand started last."""

    def __init__(self, table: Any = None) -> None:
        from chanspec.checks.conform import refengine

        chan_table = table if table is not None and kinds.of(table).log is None else None
        other = table if table is not None and chan_table is None else None
        self.chan = refengine.Session(table=chan_table)
        self.other = KindSession(table=other)
        self.tables: dict[str, Any] = {}  # every table a start has named, by that name
        for t in (chan_table, other):
            if t is not None:
                self.tables[t.id] = self.tables[t.path] = t
        self.current: Any = None

    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        if isinstance(req, dict) and req.get("op") == "start":
            table, _ = _table(req.get("ruleset"), self.tables)
            # a name that is no table: Chắn's session says so, as it always has
            self.current = (self.other if table is not None and kinds.of(table).log
                            is not None else self.chan)
        if self.current is None:
            return self.chan.handle(req, raw)
        return self.current.handle(req, raw)
