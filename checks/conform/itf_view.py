"""ITF traces of a kind with its own log format (Tấn, Chiha), written through the
protocol: each position as `GameState.view()` shows it to everyone, not one writer per
kind.

The frame is that of Chắn's traces (`chanspec.checks.conform.itf`, whose output this
module leaves alone): ``#meta`` (format, description, source, and ``chanspec``: the kind,
ruleset, players, options and the deal as the kind's log header writes it), ``vars`` and
``states``.  State 0 is the position after the deal, state i the position after the i-th
action.  The variables are

* ``action``: the action's line (`Action.as_json()`) with every field the kind's actions
  may have (`LogFormat.blank_action`); state 0's is the deal, ``{"type": "deal", "seat":
  -1, ...}``;
* ``pending``: the seats whose answer is awaited, an ITF set;
* each field of the public view (`GameState.view()`; its ``kind`` is in ``#meta`` and its
  ``pending`` is the variable above);
* ``outcome``: `GameState.outcome()` once the hand is over, before that ``{"result":
  "ongoing"}`` (or ``"stuck"``).

Typed tools such as Apalache want each variable to keep one type, so every record keeps,
in every state, the fields it has in any state of the trace, and a field a state lacks,
or a null, is the empty value of what that place holds elsewhere in the trace: ``""`` for
a string, ``-1`` for an integer, ``false``, ``[]``, or a record of empty fields; a place
that never holds a value is ``""``.  Where the view itself puts values of two kinds in
one place (Chiha's laid melds: a list of cards, or ``{"face_down": n}`` for a group the
others do not see), the trace keeps both as the view gives them.  `to_log` reads a
trace back as the log of its actions, which ``chanspec replay`` replays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from chanspec.checks.conform import logs
from chanspec.checks.conform.itf import FORMAT_DESCRIPTION

FIXED = ("action", "pending")  # the variables before the view's, then the view's, then:
LAST = "outcome"
# Shapes: None (no value seen), "str", "int", "bool", ("list", item), ("rec", {field: shape})
Shape = Any


def _merge(shape: Shape, v: Any) -> Shape:
    """The shape of a place that held the values of `shape` and now `v` (the first
    shape wins where two disagree)."""
    if v is None:
        return shape
    if isinstance(v, dict):
        if shape is not None and (not isinstance(shape, tuple) or shape[0] != "rec"):
            return shape
        fields = dict(shape[1]) if shape is not None else {}
        for k, x in v.items():
            fields[k] = _merge(fields.get(k), x)
        return ("rec", fields)
    if isinstance(v, list):
        if shape is not None and (not isinstance(shape, tuple) or shape[0] != "list"):
            return shape
        item = shape[1] if shape is not None else None
        for x in v:
            item = _merge(item, x)
        return ("list", item)
    kind = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str"
    return kind if shape is None else shape


def _blank(shape: Shape) -> Any:
    if shape is None or shape == "str":
        return ""
    if shape == "int":
        return -1
    if shape == "bool":
        return False
    if shape[0] == "list":
        return []
    return {k: _blank(s) for k, s in shape[1].items()}


def _fill(shape: Shape, v: Any) -> Any:
    """`v` with every field of `shape` and no null."""
    if v is None:
        return _blank(shape)
    if isinstance(v, dict):
        fields = shape[1] if isinstance(shape, tuple) and shape[0] == "rec" else {}
        out = {k: _fill(s, v[k]) if k in v else _blank(s) for k, s in fields.items()}
        out.update({k: _fill(None, x) for k, x in v.items() if k not in out})
        return out
    if isinstance(v, list):
        item = shape[1] if isinstance(shape, tuple) and shape[0] == "list" else None
        return [_fill(item, x) for x in v]
    return v


def _position(st: Any, action: Any, blank: Mapping[str, Any]) -> dict[str, Any]:
    """One state's variables before filling: the action, the pending seats, the public
    view, the outcome."""
    act = dict(blank)
    act.update({"type": "deal"} if action is None else action.as_json())
    view = {k: v for k, v in st.view().items() if k not in ("kind", "pending")}
    clash = sorted(set(view) & {*FIXED, LAST})
    if clash:
        raise ValueError(f"the view has fields named like the trace's own variables: {clash}")
    out = st.outcome() if st.is_terminal() else {
        "result": "stuck" if st.is_stuck() else "ongoing"}
    return {"action": act, "pending": sorted(st.pending()), **view, LAST: out}


def trace(kind: Any, rules: Any, deal: Any, actions: Iterable[Any], *,
          description: str = "", source: str = "chanspec",
          meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An ITF trace of `actions` (each must be legal in turn) from `deal`, for a kind
    with its own log format (`Kind.log`)."""
    fmt = kind.log
    blank = fmt.LOG.blank_action()
    st = kind.State(rules, deal)
    raw = [_position(st, None, blank)]
    for a in actions:
        st.apply(a)
        raw.append(_position(st, a, blank))
    names: dict[str, None] = dict.fromkeys(FIXED)
    for r in raw:
        names.update(dict.fromkeys(k for k in r if k != LAST))
    names[LAST] = None
    shape: Shape = None
    for r in raw:
        shape = _merge(shape, r)
    states = []
    for i, r in enumerate(raw):
        vals = {k: _fill(shape[1][k], r.get(k)) for k in names}
        vals["pending"] = {"#set": vals["pending"]}
        states.append({"#meta": {"index": i}, **vals})
    cs: dict[str, Any] = {"kind": kind.name, "ruleset": rules.table.id,
                          "players": rules.players,
                          "options": dict(sorted(rules.options.items())),
                          "deal": fmt.deal_json(rules, deal)}
    if rules.table.digest() != fmt.LOG.builtin_digest():
        cs["table_digest"] = rules.table.digest()
    m: dict[str, Any] = {
        "format": "ITF",
        "format-description": FORMAT_DESCRIPTION,
        "source": source,
        "description": description or f"a hand of {kind.game('en')} under the "
                                      f"{rules.table.id} rules",
        "chanspec": cs,
    }
    if meta:
        m.update(meta)
    return {"#meta": m, "vars": list(names), "states": states}


def to_log(doc: Mapping[str, Any], source: str = "<itf>",
           table: Any = None) -> logs.GameLog | None:
    """A trace written by `trace()` as the log of its actions; None when its
    ``#meta.chanspec`` names no kind with its own log format (a Chắn trace,
    `chanspec.checks.conform.itf.to_log`).  Raises LogError."""
    meta = doc.get("#meta")
    cs = meta.get("chanspec") if isinstance(meta, dict) else None
    if not isinstance(cs, dict) or "kind" not in cs:
        return None
    hdr = {"type": "header", "format": logs.FORMAT, "version": logs.VERSION,
           **{k: cs.get(k) for k in ("kind", "ruleset", "players", "options", "deal")},
           **({"table_digest": cs["table_digest"]} if "table_digest" in cs else {})}
    kind = logs.header_kind(source, 1, hdr, table)
    if kind is None:
        return None
    log = logs.parse_kind(kind, [], 1, hdr, source, table)
    states = doc.get("states")
    if not isinstance(states, list) or not states:
        raise logs.LogError(source, 1, "states", "expected a non-empty list of states")
    fmt = kind.log
    entries = []
    for i, s in enumerate(states[1:], start=1):
        a = s.get("action") if isinstance(s, dict) else None
        if not isinstance(a, dict):
            raise logs.LogError(source, 1, f"states[{i}].action", "missing the action record")
        line = fmt.LOG.action_line(a)
        try:
            act = fmt.read_line(log.rules, line)
        except fmt.LineProblem as exc:
            raise logs.LogError(source, 1, f"states[{i}].action.{exc.field}", exc.message,
                                exc.hint) from None
        if act is None:
            raise logs.LogError(source, 1, f"states[{i}].action.type",
                                f"expected an action, found {a.get('type')!r}",
                                f"actions: {', '.join(fmt.ACTION_TYPES)}")
        entries.append(logs.Entry(1, "action", line, act))
    return dataclasses.replace(log, fmt="itf", entries=entries)
