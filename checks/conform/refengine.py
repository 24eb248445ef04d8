"""The reference machine as an external engine speaking the driver protocol.

Run ``chanspec serve`` (or ``python -m chanspec.checks.conform.refengine``): it reads one
JSON request per line on standard input and writes one JSON response per line on standard
output, as specified in vectors/PROTOCOL.md:

* ``{"op":"start","ruleset":..,"players":..,"options":{..},"deal":{..}}`` -> ``{"ok":true}``
* ``{"op":"apply","action":{"type":..,"seat":..,"card":..}}`` -> ``{"ok":true}``, or
  ``{"ok":false,"error":..}`` for an illegal action (the state is unchanged)
* ``{"op":"legal","seat":N}`` -> ``{"ok":true,"actions":[{..},..]}``
* ``{"op":"legal_all"}`` -> the same for every seat at once (the start answer declares it:
  ``{"ok":true,"accepts":["legal_all"]}``)
* ``{"op":"outcome"}`` -> ``{"ok":true,"terminal":false}`` or
  ``{"ok":true,"terminal":true,"outcome":{"result":..,"winner":..,"kind":..,"card":..}}``
  (after a declared win also ``"judgement"`` and ``"consequence"`` of the declaration)
* a ``declare`` action (after a win, under a table with a declaration phase) carries
  ``"cuoc"``: the cước rows named, sorted; ``legal`` lists a representative few of the
  declarations (any the table can state is accepted)
* ``{"op":"state"}`` -> ``{"ok":true,"state":{"phase":..,"card":..,"source":..,"gate":..,
  "pending":[..],"noc":N}}``
* ``{"op":"events"}`` -> ``{"ok":true,"events":[..]}``: the consequence lines (game-log
  ``draw``, ``laid``, ``returned``, ``passed-on``, ``dead``, ``timeout-as``, ``declined``,
  ``banned``, ``end``) of the actions applied since the last ``events`` or ``start``
* ``{"op":"quit"}`` -> ``{"ok":true}``, then the process exits.

A request's ``id``, when present, is echoed in its response; one that is not an integer
gets an error.  A ``legal`` for a seat the hand does not have gets an error.

The engine never opens a file a request names: a ``start`` names a built-in ruleset
(``family``, ``classic``) or the table the engine was started with (``chanspec serve
--ruleset PATH``: by its id or that very path); anything else is a protocol error.  A
request nested too deeply to read is one too.

`serve()` takes factories for the rules and the state, so that test engines can change
exactly one rule in-process (see tests/engines/).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from chanspec.checks.conform import logs
from chanspec.model import table as shared_table
from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.declare import summary
from chanspec.model.chan.game import Action, Deal, State

# optional requests its "start" answer declares; it also answers 'events' when asked,
# without declaring it (a campaign then compares legal actions and outcomes only: an
# engine built on it declares "events" through `declare`)
ACCEPTS = ("legal_all", "state")
RulesHook = Callable[[table_mod.Rules], table_mod.Rules]
StateFactory = Callable[[table_mod.Rules, Deal], State]


def outcome_json(st: State) -> dict[str, Any]:
    """The comparable part of an outcome: result, winner, kind, card; how a declaration
    was judged; and, where acts may stand as faults (`State.records_faults`), the faults
    recorded (`comparable_faults`)."""
    o = st.outcome()
    if o is None or not st.is_terminal():
        return {"terminal": False}
    out = {"result": o["result"], "winner": o.get("winner"), "kind": o.get("kind"),
           "card": o.get("card")}
    if "declaration" in o:
        out.update(summary(o["declaration"]))
    if st.records_faults():
        out["faults"] = comparable_faults(o.get("faults", []))
    return {"terminal": True, "outcome": out}


def comparable_faults(faults: Any) -> Any:
    """The faults of an outcome as compared: each one's seat and its rows, sorted, in the
    order committed (what the act was is left out: the steps compare it).  Anything
    that is not a list of such objects is returned as it is (and then differs)."""
    if not isinstance(faults, list) or not all(
            isinstance(f, dict) and isinstance(f.get("rules"), list) for f in faults):
        return faults
    return [{"seat": f.get("seat"), "rules": sorted(map(str, f["rules"]))} for f in faults]


def state_json(st: State) -> dict[str, Any]:
    """What the engine thinks is happening (the optional ``state`` request): the phase,
    the card face up and where it came from, whose decision is pending, the nọc left."""
    w = st.window if st.phase == "window" else None
    return {"phase": st.phase,
            "card": None if w is None else cards.CODES[w.card],
            "source": None if w is None else w.source,
            "gate": None if w is None else w.gate,
            "pending": list(st.pending()), "noc": st.noc_left()}


def seat_error(seat: Any, n: int) -> dict[str, Any] | None:
    """The error answer to a ``legal`` whose ``seat`` is not a seat of a hand of `n`
    (None when it is one): the same words for every kind's session."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return {"ok": False, "error": "'legal' needs an integer 'seat'"}
    if not 0 <= seat < n:
        return {"ok": False, "error": f"'legal': seat {seat} is not in this hand "
                f"(seats 0 to {n - 1})"}
    return None


class _Raw(str):
    """A JSON array's contents already encoded (see `encode`)."""


_TEXTS: dict[Action, str] = {}


def action_text(a: Action) -> str:
    t = _TEXTS.get(a)
    if t is None:
        t = _TEXTS[a] = json.dumps(a.as_json(), separators=(",", ":"))
    return t


def encode(resp: dict[str, Any]) -> str:
    """One answer line; an ``actions`` list kept as encoded text is spliced in as is."""
    if len(resp) == 2 and resp.get("ok") is True and type(resp.get("id")) is int:
        return f'{{"ok":true,"id":{resp["id"]}}}'
    acts = resp.get("actions")
    if isinstance(acts, _Raw):
        if len(resp) == 3 and resp.get("ok") is True and type(resp.get("id")) is int:
            return f'{{"ok":true,"id":{resp["id"]},"actions":[{acts}]}}'
        rest = json.dumps({k: v for k, v in resp.items() if k != "actions"},
                          ensure_ascii=False, separators=(",", ":"))
        # rest is the answer without its actions, e.g. {"ok":true,"id":7}
        return rest[:-1] + ',"actions":[' + acts + "]}"
    return json.dumps(resp, ensure_ascii=False, separators=(",", ":"))


class _ResolvedOnce:
    """A table whose resolved rules are kept per (players, options): a campaign starts
    hundreds of hands under the same rules, and resolving them is the slow part of a
    'start'."""

    def __init__(self, table: table_mod.Table):
        self.table = table
        self.cache: dict[tuple[Any, ...], table_mod.Rules] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def resolve(self, players: int, options: dict[str, str] | None = None
                ) -> table_mod.Rules:
        key = (players, tuple(sorted((options or {}).items())))
        rules = self.cache.get(key)
        if rules is None:
            rules = self.cache[key] = self.table.resolve(players, options)
        return rules


class Session:
    """One engine's state between requests."""

    def __init__(self, rules_hook: RulesHook | None = None,
                 state_factory: StateFactory | None = None,
                 declare: dict[str, Any] | None = None,
                 table: table_mod.Table | None = None):
        self.rules_hook = rules_hook
        self.state_factory = state_factory or (lambda r, d: State(r, d))
        self.declare = dict(declare or {})  # more fields of the 'start' answer
        self.state: State | None = None
        self.tables: dict[str, _ResolvedOnce] = {}
        if table is not None:  # the table it was started with: by its id or its path
            self.tables[table.id] = self.tables[table.path] = _ResolvedOnce(table)
        self._legal: tuple[frozenset[Action], _Raw] | None = None
        self._actions: dict[tuple[Any, ...], Action] = {}  # parsed 'apply' actions
        self.consequences: list[dict[str, Any]] = []  # since the last 'events' or 'start'
        # consequence lines are worked out only once a client has asked for them (a
        # campaign that never asks 'events' does not pay for them); until then the hand's
        # first 'events' replays the hand to find them
        self.tracking = False

    def handle(self, req: Any, raw: bool = False) -> dict[str, Any]:
        """The answer to one request.  With `raw`, a ``legal_all`` answer's actions may
        be text already encoded (for `encode`); otherwise everything is plain JSON data."""
        if not isinstance(req, dict):
            return {"ok": False, "error": "a request must be a JSON object with an 'op'"}
        rid = req.get("id")
        if "id" in req and (isinstance(rid, bool) or not isinstance(rid, int)):
            return {"ok": False, "error": f"'id' must be an integer, found {rid!r}"}
        op = req.get("op")
        try:
            if op == "start":
                return self._start(req)
            if op == "quit":
                return {"ok": True}
            if op not in ("apply", "legal", "legal_all", "outcome", "state", "events"):
                return {"ok": False, "error": f"unknown op {op!r}; ops: start, apply, legal, "
                        "legal_all, outcome, state, events, quit"}
            if self.state is None:
                return {"ok": False, "error": "no hand started: send a 'start' request first"}
            if op == "legal":
                seat = req.get("seat")
                bad = seat_error(seat, self.state.n)
                if bad is not None:
                    return bad
                return {"ok": True,
                        "actions": [a.as_json() for a in self.state.legal_actions(seat)]}
            if op == "legal_all":
                acts = self._legal_all()
                return {"ok": True, "actions": acts if raw else json.loads(f"[{acts}]")}
            if op == "outcome":
                return {"ok": True, **outcome_json(self.state)}
            if op == "state":
                return {"ok": True, "state": state_json(self.state)}
            if op == "events":
                if not self.tracking:
                    self.tracking = True
                    self.consequences = self._replayed_consequences()
                out, self.consequences = self.consequences, []
                return {"ok": True, "events": out}
            return self._apply(req)
        except logs.LogError as exc:
            return {"ok": False, "error": f"field {exc.field!r}: {exc.message}"}

    def _start(self, req: dict[str, Any]) -> dict[str, Any]:
        hdr = {"type": "header", "format": logs.FORMAT, "version": logs.VERSION,
               **{k: req[k] for k in ("ruleset", "players", "options", "deal") if k in req}}
        name = req.get("ruleset")
        table = self.tables.get(name) if isinstance(name, str) else None
        if table is None and isinstance(name, str):
            builtin = shared_table.builtin_names()
            if name not in builtin:
                known = sorted({*builtin, *(t.table.id for t in self.tables.values())})
                return {"ok": False, "error": f"field 'ruleset': {name!r} is neither a "
                        f"built-in ruleset nor the table this engine was started with "
                        f"({', '.join(known)}); the engine never opens a file a request "
                        "names: start it with --ruleset PATH"}
            table = self.tables[name] = _ResolvedOnce(table_mod.load(name))
        rules, deal, _ = logs.parse_header("<start>", 1, hdr, table)  # type: ignore[arg-type]
        if self.rules_hook is not None:
            rules = self.rules_hook(rules)
        self.state = self.state_factory(rules, deal)
        self._legal = None
        self.consequences = []
        return {"ok": True, "accepts": list(ACCEPTS), **self.declare}

    def _legal_all(self) -> Any:
        """Every seat's legal actions (kept until the next apply or start)."""
        assert self.state is not None
        if self._legal is None:
            acts = self.state.legal_actions()
            self._legal = (frozenset(acts), _Raw(",".join(action_text(a) for a in acts)))
        return self._legal[1]

    def _replayed_consequences(self) -> list[dict[str, Any]]:
        """The consequence lines of the hand so far, found by replaying its actions on a
        fresh machine (the same factory, so a test engine's changed rule holds)."""
        st = self.state
        assert st is not None and st.deal is not None
        again = self.state_factory(st.rules, st.deal)
        out: list[dict[str, Any]] = []
        for a in st.history:
            out += logs.step(again, a, check=False)
        return out

    def _apply(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None
        a = req.get("action")
        if not isinstance(a, dict) or a.get("type") not in logs.ACTION_TYPES:
            return {"ok": False, "error": "'apply' needs an 'action' object with a known type"}
        key = (a.get("type"), a.get("seat"), a.get("card"), len(a), self.state.n)
        cache = type(key[1]) is int and "cuoc" not in a  # a declaration: never cached
        action = self._actions.get(key) if cache else None
        if action is None:
            chk = logs.LineCheck("<apply>", 1, a, self.state.n)
            action = chk.action_fields(a, prefix="action.")
            if cache:
                self._actions[key] = action
        known = self._legal
        if (action in known[0]) if known is not None else self.state._is_legal(action):
            if self.tracking:
                self.consequences += logs.step(self.state, action, check=False)
            else:
                self.state.apply(action, check=False)
        else:
            ex = self.state.explain(action)
            return {"ok": False, "error": f"illegal action {action.code()}: {ex.en}",
                    "rules": list(ex.rules)}
        self._legal = None
        return {"ok": True}


FLUSH_EVERY = 64  # answers written at once, at most, when requests come in a batch


def _batches(inp: TextIO) -> Iterator[list[str]]:
    """The request lines, in batches: every complete line that has arrived when the
    previous batch is answered (so that a pipelined campaign gets its answers in one
    write, and a client that waits for each answer gets it at once)."""
    try:
        fd = inp.fileno() if inp is sys.stdin else -1
    except (OSError, ValueError, AttributeError):
        fd = -1
    if fd < 0:  # any other text stream: line by line
        for line in inp:
            yield [line]
        return
    buf = b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except InterruptedError:
            continue
        if not chunk:
            if buf:
                yield [buf.decode("utf-8", errors="replace")]
            return
        buf += chunk
        nl = buf.rfind(b"\n")
        if nl < 0:
            continue
        done, buf = buf[:nl], buf[nl + 1:]
        yield done.decode("utf-8", errors="replace").split("\n")


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None, *,
          rules_hook: RulesHook | None = None,
          state_factory: StateFactory | None = None,
          declare: dict[str, Any] | None = None, session: Any = None,
          table: table_mod.Table | None = None) -> int:
    """Answer requests until ``quit`` or the end of input (`session`: any object with
    a `handle(req, raw)` like `Session`'s, for engines built on it; `table`: the one
    table besides the built-in ones that a ``start`` may name)."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    if session is None:
        session = Session(rules_hook, state_factory, declare, table)
    for batch in _batches(inp):
        answers: list[str] = []
        quit_ = False
        for line in batch:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except json.JSONDecodeError as exc:
                resp: dict[str, Any] = {"ok": False, "error": f"not JSON: {exc.msg}"}
                req = None
            except RecursionError:
                resp = {"ok": False, "error": "JSON nested too deeply to read: a request is "
                        "one flat object such as {\"op\":\"legal\",\"id\":2,\"seat\":0}"}
                req = None
            else:
                resp = session.handle(req, raw=True)
            if isinstance(req, dict) and "id" in req:
                resp["id"] = req["id"]
            answers.append(encode(resp) + "\n")
            op = req.get("op") if isinstance(req, dict) else None
            if op == "quit":
                quit_ = True
                break
            if op == "outcome" or len(answers) >= FLUSH_EVERY:
                # a hand's answers go out as soon as it ends (a client sending the next
                # hand meanwhile reads them while this engine goes on)
                out.write("".join(answers))
                out.flush()
                answers = []
        if answers:
            out.write("".join(answers))
            out.flush()
        if quit_:
            break
    return 0


if __name__ == "__main__":
    sys.exit(serve())
