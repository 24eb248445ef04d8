"""The reference machine as an external engine speaking the driver protocol.

Run ``python -m chanspec.checks.refengine`` (or ``chanspec serve``): it reads one JSON
request per line on standard input and writes one JSON response per line on standard
output, as specified in vectors/PROTOCOL.md:

* ``{"op":"start","ruleset":..,"players":..,"options":{..},"deal":{..}}`` -> ``{"ok":true}``
* ``{"op":"apply","action":{"type":..,"seat":..,"card":..}}`` -> ``{"ok":true}``, or
  ``{"ok":false,"error":..}`` for an illegal action (the state is unchanged)
* ``{"op":"legal","seat":N}`` -> ``{"ok":true,"actions":[{..},..]}``
* ``{"op":"outcome"}`` -> ``{"ok":true,"terminal":false}`` or
  ``{"ok":true,"terminal":true,"outcome":{"result":..,"winner":..,"kind":..,"card":..}}``
* ``{"op":"quit"}`` -> ``{"ok":true}``, then the process exits.

A request's ``id``, when present, is echoed in its response.

`serve()` takes factories for the rules and the state, so that test engines can change
exactly one rule in-process (see tests/engines/).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from chanspec.checks.conform import logs
from chanspec.model import table as table_mod
from chanspec.model.game import Action, Deal, State

RulesHook = Callable[[table_mod.Rules], table_mod.Rules]
StateFactory = Callable[[table_mod.Rules, Deal], State]


def outcome_json(st: State) -> dict[str, Any]:
    """The comparable part of an outcome: result, winner, kind, card."""
    o = st.outcome()
    if o is None:
        return {"terminal": False}
    return {"terminal": True, "outcome": {"result": o["result"], "winner": o.get("winner"),
                                          "kind": o.get("kind"), "card": o.get("card")}}


class Session:
    """One engine's state between requests."""

    def __init__(self, rules_hook: RulesHook | None = None,
                 state_factory: StateFactory | None = None):
        self.rules_hook = rules_hook
        self.state_factory = state_factory or (lambda r, d: State(r, d))
        self.state: State | None = None

    def handle(self, req: Any) -> dict[str, Any]:
        if not isinstance(req, dict):
            return {"ok": False, "error": "a request must be a JSON object with an 'op'"}
        op = req.get("op")
        try:
            if op == "start":
                return self._start(req)
            if op == "quit":
                return {"ok": True}
            if op not in ("apply", "legal", "outcome"):
                return {"ok": False, "error": f"unknown op {op!r}; ops: start, apply, legal, "
                        "outcome, quit"}
            if self.state is None:
                return {"ok": False, "error": "no hand started: send a 'start' request first"}
            if op == "legal":
                seat = req.get("seat")
                if isinstance(seat, bool) or not isinstance(seat, int):
                    return {"ok": False, "error": "'legal' needs an integer 'seat'"}
                return {"ok": True,
                        "actions": [a.as_json() for a in self.state.legal_actions(seat)]}
            if op == "outcome":
                return {"ok": True, **outcome_json(self.state)}
            return self._apply(req)
        except logs.LogError as exc:
            return {"ok": False, "error": f"field {exc.field!r}: {exc.message}"}

    def _start(self, req: dict[str, Any]) -> dict[str, Any]:
        hdr = {"type": "header", "format": logs.FORMAT, "version": logs.VERSION,
               **{k: req[k] for k in ("ruleset", "players", "options", "deal") if k in req}}
        rules, deal, _ = logs.parse_header("<start>", 1, hdr)
        if self.rules_hook is not None:
            rules = self.rules_hook(rules)
        self.state = self.state_factory(rules, deal)
        return {"ok": True}

    def _apply(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None
        a = req.get("action")
        if not isinstance(a, dict) or a.get("type") not in logs.ACTION_TYPES:
            return {"ok": False, "error": "'apply' needs an 'action' object with a known type"}
        chk = logs.LineCheck("<apply>", 1, a, self.state.n)
        action: Action = chk.action_fields(a, prefix="action.")
        if action not in self.state.legal_actions():
            ex = self.state.explain(action)
            return {"ok": False, "error": f"illegal action {action.code()}: {ex.en}",
                    "rules": list(ex.rules)}
        self.state.apply(action)
        return {"ok": True}


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None, *,
          rules_hook: RulesHook | None = None,
          state_factory: StateFactory | None = None) -> int:
    """Answer requests until ``quit`` or the end of input."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    session = Session(rules_hook, state_factory)
    for line in inp:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as exc:
            resp: dict[str, Any] = {"ok": False, "error": f"not JSON: {exc.msg}"}
            req = None
        else:
            resp = session.handle(req)
        if isinstance(req, dict) and "id" in req:
            resp["id"] = req["id"]
        out.write(json.dumps(resp, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
        if isinstance(req, dict) and req.get("op") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(serve())
