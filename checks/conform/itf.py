"""ITF traces: any action sequence of a hand as Apalache's Informal Trace Format.

ITF (https://apalache-mc.org/docs/adr/015adr-trace.html) is plain JSON: a ``#meta``
object, the list of variable names ``vars``, and ``states``, each a ``#meta`` with its
``index`` plus one value per variable.  Values use ITF's encodings: integers as JSON
numbers (all ours are small), strings, lists for sequences, ``{"#set": [...]}`` for sets,
``{"#tup": [...]}`` for tuples, and JSON objects for records.

State 0 is the position right after the deal; state i (i >= 1) is the position after the
i-th action, whose record is in the variable ``action``.  State 0's action is the deal:
its seat is the opener and its card the cái card turned face up, under a table with the
dealing ritual (``""`` without one).  Every record keeps the same
fields in every state (typed tools such as Apalache want that): "no card" is ``""`` and
"no seat" is ``-1``.  Under a table with a declaration phase (``[turn] declare_rule``)
every action record also has ``cuoc`` (the cước rows a ``declare`` names, else ``[]``)
and the outcome ``judgement`` (of the declaration, ``""`` before it).

The trace's ``#meta.chanspec`` holds the ruleset, players, options and deal, so that
`to_log()` (and ``chanspec replay``) can replay the trace on the reference machine.

Use `trace(rules, deal, actions)` for any sequence, e.g. a model-checker counterexample:
``itf.write(path, itf.trace(state.rules, state.deal, state.history, description=...))``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from chanspec.checks.conform import logs
from chanspec.checks.output import write_atomic
from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.declare import declares
from chanspec.model.chan.game import Action, Deal, State

FORMAT_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
VARS = ("action", "phase", "pending", "hands", "laid", "window", "noc_left", "dead", "bans",
        "outcome")


def _code(face: int | None) -> str:
    return "" if face is None else cards.code(face)


def state_vars(st: State, action: Action | None) -> dict[str, Any]:
    """The ITF values of every variable in one state (from `State.view`)."""
    out = st.outcome()
    if out is not None and st.is_terminal():
        outcome = {"result": out["result"], "winner": -1 if out.get("winner") is None
                   else out["winner"], "kind": out.get("kind") or "", "card": out.get("card") or ""}
    elif out is not None:  # a win whose declaration is awaited
        outcome = {"result": "declaring", "winner": out["winner"], "kind": out.get("kind") or "",
                   "card": out.get("card") or ""}
    else:
        outcome = {"result": "stuck" if st.is_stuck() else "ongoing", "winner": -1, "kind": "",
                   "card": ""}
    act = ({"type": "deal", "seat": st.opener, "card": _code(st.cai_card())} if action is None else
           {"type": action.kind, "seat": action.seat, "card": _code(action.card)})
    if declares(st.rules):
        act["cuoc"] = [] if action is None else list(action.cuoc)
        outcome["judgement"] = ((out or {}).get("declaration") or {}).get("judgement", "")
    v = st.view()
    w = v["window"]
    return {
        "action": act,
        "phase": v["phase"],
        "pending": {"#set": v["pending"]},
        "hands": v["hands"],
        "laid": v["laid"],
        "window": ({"card": "", "gate": -1, "source": "none", "turn": -1} if w is None else w),
        "noc_left": v["noc_left"],
        "dead": v["dead"],
        "bans": [{"#set": sorted(({"#tup": [rule, ban, face or ""]} for rule, ban, face in bs),
                                 key=json.dumps)}
                 for bs in v["bans"]],
        "outcome": outcome,
    }


def trace(rules: table_mod.Rules, deal: Deal, actions: Iterable[Action], *,
          description: str = "", source: str = "chanspec",
          meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An ITF trace of `actions` (each must be legal in turn) from `deal`."""
    st = State(rules, deal)
    states = [{"#meta": {"index": 0}, **state_vars(st, None)}]
    for i, a in enumerate(actions, start=1):
        st.apply(a)
        states.append({"#meta": {"index": i}, **state_vars(st, a)})
    m: dict[str, Any] = {
        "format": "ITF",
        "format-description": FORMAT_DESCRIPTION,
        "source": source,
        "description": description or f"a hand of Bài Chắn under the {rules.table.id} rules",
        "chanspec": {"ruleset": rules.table.id, "players": rules.players,
                     "options": dict(sorted(rules.options.items())), "deal": deal.as_json()},
    }
    if not rules.table.is_builtin():
        m["chanspec"]["table_digest"] = rules.table.digest()
    if meta:
        m.update(meta)
    return {"#meta": m, "vars": list(VARS), "states": states}


def dumps(doc: Mapping[str, Any]) -> str:
    """JSON text with one state per line (valid JSON, easy to diff)."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    head = ",\n".join(f" {one(k)}: {one(v)}" for k, v in doc.items() if k != "states")
    states = ",\n".join(f"  {one(s)}" for s in doc.get("states", []))
    return "{\n" + head + (",\n" if head else "") + ' "states": [\n' + states + "\n ]\n}\n"


def write(path: str | Path, doc: Mapping[str, Any]) -> None:
    """Write a trace atomically (temporary file, then rename)."""
    write_atomic(path, dumps(doc))


def to_log(doc: Mapping[str, Any], source: str = "<itf>",
           table: table_mod.Table | None = None) -> logs.GameLog:
    """Read a trace written by `trace()` back as a game log of its actions."""
    meta = doc.get("#meta")
    if not isinstance(meta, dict) or meta.get("format", "ITF") != "ITF":
        raise logs.LogError(source, 1, "#meta.format", "not an ITF trace")
    cs = meta.get("chanspec")
    if not isinstance(cs, dict):
        raise logs.LogError(source, 1, "#meta.chanspec", "this ITF trace does not say which "
                            "ruleset, players, options and deal it plays",
                            "only traces written by chanspec (checks/conform/itf.py) can be "
                            "replayed")
    hdr = {"type": "header", "format": logs.FORMAT, "version": logs.VERSION,
           **{k: cs.get(k) for k in ("ruleset", "players", "options", "deal")},
           **({"table_digest": cs["table_digest"]} if "table_digest" in cs else {})}
    rules, deal, _ = logs.parse_header(source, 1, hdr, table)
    states = doc.get("states")
    if not isinstance(states, list) or not states:
        raise logs.LogError(source, 1, "states", "expected a non-empty list of states")
    entries = []
    for i, s in enumerate(states[1:], start=1):
        a = s.get("action") if isinstance(s, dict) else None
        if not isinstance(a, dict):
            raise logs.LogError(source, 1, f"states[{i}].action", "missing the action record")
        obj = {"type": a.get("type"), "seat": a.get("seat")}
        if a.get("card"):
            obj["card"] = a["card"]
        if a.get("type") == "declare":
            obj["cuoc"] = a.get("cuoc")
        ln = logs.LineCheck(source, 1, obj, rules.players)
        if obj["type"] not in logs.ACTION_TYPES:
            raise ln.fail(f"states[{i}].action.type", f"expected one of "
                          f"{', '.join(logs.ACTION_TYPES)}, found {obj['type']!r}")
        entries.append(logs.Entry(1, "action", obj,
                                  ln.action_fields(obj, prefix=f"states[{i}].action.")))
    return logs.GameLog(source, "itf", hdr, rules, deal, entries)
