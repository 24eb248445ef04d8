"""The divergence picture of an open question: where its readings part, then each
reading's branch side by side, ending in what differs.

`picture(table, witness)` replays a saved witness (``OPEN_QUESTIONS.json``: ``deal``,
``path``, ``value_a``/``value_b``, ``only_a``/``only_b``) on the scaled-down table of its
``scale`` with the model: the shared path (under the first reading; both readings allow
exactly the same actions along it), then, for each reading, the action only it allows
(or, when it allows nothing the other does, what it allows instead), continued by a fixed
policy -- win when possible, else let the card go, else the first legal action -- for at
most `MAX_BRANCH` steps, until the hand ends or nobody can move.  Every step carries the
seat, the card, a sentence in both languages and the rule ids `State.explain` gives.

`to_mermaid(picture)` draws it as a Mermaid flowchart (for OPEN_QUESTIONS.md);
checks/report/diagrams.py draws the same picture in DOT.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chanspec.checks.chan import scale
from chanspec.checks.findings import mermaid, scenario
from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Table

MAX_BRANCH = 6  # steps drawn after the readings part
POLICY = ("u", "chiu-u", "pass", "timeout")


def _step(st: State, a: Action) -> dict[str, Any]:
    vi, en = scenario.describe_action(st, a)
    return {"code": a.code(), "seat": a.seat, "kind": a.kind,
            "card": None if a.card is None else cards.code(a.card),
            "table_card": None if st.window is None else cards.code(st.window.card),
            "vi": vi, "en": en, "rules": list(st.explain(a).rules)}


def _end(st: State) -> dict[str, Any]:
    out = st.outcome()
    if out is not None:
        if out.get("result") == "win":
            w, k = out.get("winner"), out.get("kind")
            vi, en = scenario.result_text(["win", w, k])
            return {"kind": "win", "winner": w, "vi": vi[:1].upper() + vi[1:],
                    "en": en[:1].upper() + en[1:], "rules": list(out.get("rules", ()))}
        return {"kind": "draw", "winner": None, "vi": "Hết nọc: ván hòa",
                "en": "The nọc is empty: the hand is drawn", "rules": list(out.get("rules", ()))}
    if not st.legal_actions():
        stuck = st.rules.rid("turn.stuck_rule")
        who = st.pending()
        return {"kind": "stuck", "winner": None,
                "vi": f"Kẹt: ghế {', '.join(map(str, who))} không có nước đi nào",
                "en": f"Stuck: seat {', '.join(map(str, who))} has no legal move",
                "rules": [stuck]}
    return {"kind": "goes-on", "winner": None,
            "vi": f"Ván còn tiếp (vẽ {MAX_BRANCH} bước)",
            "en": f"The hand goes on ({MAX_BRANCH} steps drawn)", "rules": []}


def _policy(legal: list[Action]) -> Action:
    for kind in POLICY:
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


def _first(only: list[Action], legal: list[Action], other: set[Action]) -> Action | None:
    """The action that shows this reading: one only it allows (a claim before letting
    go), else the policy's choice among what it allows that the other does not forbid."""
    if only:
        claims = [a for a in only if a.kind not in ("pass", "timeout")]
        return (claims or only)[0]
    common = [a for a in legal if a not in other]
    return _policy(common or legal) if legal else None


def picture(table: Table, w: Mapping[str, Any]) -> dict[str, Any]:
    """The divergence picture of one saved witness (see the module docstring)."""
    name, players = w["scale"], int(w.get("players") or 4)
    opt = w["option"]
    deal = Deal.from_json(w["deal"])
    path = [Action.parse(c) for c in w["path"]]
    ra = scale.rules_for(table, name, players, {opt: w["value_a"]})
    st = State(ra, deal)
    common = []
    for a in path:
        common.append(_step(st, a))
        st.apply(a)
    only = {w["value_a"]: [Action.parse(c) for c in w["only_a"]],
            w["value_b"]: [Action.parse(c) for c in w["only_b"]]}
    branches = []
    for value, other in ((w["value_a"], w["value_b"]), (w["value_b"], w["value_a"])):
        rv = scale.rules_for(table, name, players, {opt: value})
        st = State.replay(rv, deal, path)
        steps: list[dict[str, Any]] = []
        legal = st.legal_actions()
        if not st.is_terminal() and legal:
            a = _first(only[value], legal, set(only[other]))
            while a is not None and len(steps) < MAX_BRANCH:
                steps.append(_step(st, a))
                st.apply(a)
                legal = st.legal_actions()
                a = _policy(legal) if legal and not st.is_terminal() else None
        row = table.rows[opt]
        branches.append({"value": value, "steps": steps, "end": _end(st),
                         "only": [x.code() for x in only[value]],
                         "label": {"vi": row.label(value, "vi"), "en": row.label(value, "en")}})
    differs = {b["value"]: (b["end"]["kind"], b["end"]["winner"]) for b in branches}
    return {"option": opt, "scale": name, "deal": w["deal"],
            "title": {"vi": table.rows[opt].title("vi"), "en": table.rows[opt].title("en")},
            "deal_vi": scenario.describe_deal(deal)[0], "deal_en": scenario.describe_deal(deal)[1],
            "common": common, "branches": branches,
            "ends_differ": len(set(differs.values())) > 1}


def _label(s: Mapping[str, Any], lang: str = "vi") -> str:
    """A step: in English its code, words and rule ids; for the family (``vi``) the
    words alone (the ids are in the question's footnote and the report)."""
    if lang != "en":
        return f"{s['vi']}\n{s['en']}"
    rules = f"[{', '.join(s['rules'])}]" if s.get("rules") else ""
    return f"{s['code']}: {s['en']}\n{rules}".rstrip()


def _name(pic: Mapping[str, Any], b: Mapping[str, Any] | None, lang: str) -> str:
    """The question (b None) or one reading by its title/label (ids in English only)."""
    if lang == "en":
        return pic["option"] if b is None else f"{pic['option']}={b['value']}"
    t = pic.get("title") if b is None else b.get("label")
    if not t:
        return pic["option"] if b is None else str(b["value"])
    return f"{t['vi']} / {t['en']}"


def to_mermaid(pic: Mapping[str, Any], lang: str = "vi") -> str:
    """The picture as a Mermaid flowchart: the shared path down to where the readings
    part, then one subgraph per reading, side by side, ending in what differs.  ``vi``:
    Vietnamese labels with English beside them, readings by their labels and no ids;
    ``en``: English only, with action codes and rule ids."""
    fc = mermaid.Flowchart("TD")
    if lang == "en":
        fc.node("deal", f"Deal ({pic['scale']})\n" + _deal_short(pic, "en"), "stadium")
    else:
        fc.node("deal", "Chia bài / deal\n" + _deal_short(pic, "vi"), "stadium")
    prev = "deal"
    for i, s in enumerate(pic["common"]):
        nid = f"c{i}"
        fc.node(nid, _label(s, lang))
        fc.edge(prev, nid)
        prev = nid
    part = ("the readings part here" if lang == "en"
            else "các cách hiểu tách ở đây / the readings part here")
    fc.node("part", f"{_name(pic, None, lang)}: {part}", "diamond")
    fc.edge(prev, "part")
    ends: list[str] = []
    for k, b in enumerate(pic["branches"]):
        sid = f"b{k}"
        fc.subgraph(sid, _name(pic, b, lang))
        last = None
        for i, s in enumerate(b["steps"]):
            nid = f"b{k}s{i}"
            fc.node(nid, _label(s, lang))
            if last is not None:
                fc.edge(last, nid)
            last = nid
        end = f"b{k}end"
        e = b["end"]
        words = e["en"] if lang == "en" else f"{e['vi']}\n{e['en']}"
        fc.node(end, words + (f"\n[{', '.join(e['rules'])}]" if e["rules"] and lang == "en"
                              else ""), "hexagon")
        ends.append(end)
        if last is not None:
            fc.edge(last, end)
        fc.end()
        edge = b["value"] if lang == "en" else (b.get("label") or {}).get("vi", b["value"])
        fc.edge("part", f"b{k}s0" if b["steps"] else end, edge)
    fc.style("part", "fill:#f6e0ff,stroke:#a0a", "part")
    for k, b in enumerate(pic["branches"]):
        kind = b["end"]["kind"]
        css = {"win": "fill:#c8f0c8,stroke:#393", "draw": "fill:#e0e0e0,stroke:#666",
               "stuck": "fill:#ff9090,stroke:#900", "goes-on": "fill:#fff6e0,stroke:#a80"}[kind]
        fc.style(kind.replace("-", ""), css, f"b{k}end")
    return fc.text()


def _deal_short(pic: Mapping[str, Any], lang: str = "vi") -> str:
    """The deal in a few lines: by card codes in English, by the cards' names (the
    family's words) in Vietnamese."""
    d = pic["deal"]
    if lang == "en":
        hands = "; ".join(f"{s}: {' '.join(h)}" for s, h in enumerate(d["hands"]))
        return f"{hands}\nnọc: {' '.join(d['noc'])}"

    def names(codes: Sequence[str]) -> str:
        return ", ".join(cards.name(cards.parse(c)) for c in codes)

    hands = "\n".join(f"ghế {s}: {names(h)}" for s, h in enumerate(d["hands"]))
    return f"{hands}\nnọc: {names(d['noc'])}"


def text(pic: Mapping[str, Any]) -> str:
    """A text alternative (screen readers) of the picture."""
    out = [f"{pic['option']} ({pic['scale']}): {len(pic['common'])} bước chung / shared "
           "steps: " + "; ".join(s["code"] for s in pic["common"])]
    for b in pic["branches"]:
        steps = "; ".join(f"{s['code']} ({s['en']})" for s in b["steps"]) or "—"
        out.append(f"{pic['option']}={b['value']}: {steps} → {b['end']['en']}")
    return "\n".join(out)
