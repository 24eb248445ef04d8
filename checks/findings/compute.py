"""The checker's findings on every open question, and OPEN_QUESTIONS.md built from them.

`compute(table)` is deterministic (fixed seeds, fixed budgets): for every open or
provisional row it searches the scaled-down configurations of checks/chan/scale.py for the
shortest scenario in which the default and another value part ways (checks/findings/witness.py),
plays seeded full-size random hands, by a greedy and by a uniform random player at each
player count of ``frequency_players``, with a shadow game per value to say how often the
choice comes up and, playing the same hand under that value with common random numbers
(checks/findings/witness.py), how often it changes the result, beside a placebo (the
default played on from the same point with the decisions perturbed; 95% intervals),
takes the earliest parting over all those hands as the full-size witness, measures those
figures again under each of the few readings of other rows its scenario rests on
(`frequency_blame`: fewer hands, greedy player), and asks the all-hands questions
(checks/chan/hands.py).  It also reports what the exploration
found on its own (deadlocks under the defaults) as questions the text does not answer.

The result is a JSON document (`FILE_NAME`, committed next to OPEN_QUESTIONS.md because
computing it takes about ten minutes on two cores):

    {"schema": 1, "table": id, "table_digest": sha256 of the table data,
     "params": {...seeds, budgets, hands...},
     "questions": {row_id: {
         "witness": null | {"option": row_id, "value_a": default, "value_b": value,
                            "scale": name, "deal": {...}, "path": ["0:discard 1v", ...],
                            "only_a": [...], "only_b": [...], "result_a", "result_b",
                            "steps": [{"seat", "action_vi", "action_en", "cards",
                                       "hands", "laid", "gates"}, ...]},
         "searches": [{"value", "scale", "found", "depth", "pairs", "exhaustive"}],
         "frequency": {value: {"hands", "seed", "policy": "greedy", "players": 4,
                               "diverged", "per_10000", "ci95", "changed",
                               "changed_per_10000", "changed_ci95", "placebo",
                               "placebo_per_10000", "placebo_ci95", "chance", "stuck",
                               "stuck_per_10000", "stuck_ci95", "kinds", "first",
                               "uniform": {the same for the uniform random player},
                               "at_players": {"5": {the same at 5 players, "uniform"}},
                               "blame": [{"row", "value", "hands", "seed", "policy",
                                          "diverged", "per_10000", "ci95", "changed",
                                          "changed_per_10000", "changed_ci95", "placebo",
                                          ..., "stuck", "stuck_per_10000",
                                          "stuck_ci95"}, ...]}},
         "full_search": [{"players", "policy", "hands", "seed"}, ...],
         "effects": {value: {"vi", "en"}}}},
     "extra": [{"id", "vi", "en", "witness", "frequency"}],   # found by the checker
     "ends": {"win": n, "draw": n, "stuck-...": n},            # full-size default games
     "clauses": [checks/findings/clauses.py measure documents],
     "hands": {"4": {value-label: counts}, ...}, "z3": {...}}

checks/findings/render.py tells it to the family (OPEN_QUESTIONS.md, the report).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import pickle
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from chanspec.checks.chan import hands as hands_mod
from chanspec.checks.chan import scale
from chanspec.checks.explore.search import alt_rules, explore, worker_ignores_sigint
from chanspec.checks.findings import clauses, questions, scenario, witness
from chanspec.checks.output import Ticker
from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Table
from chanspec.model.table import before_decisions, without_wording

FILE_NAME = "OPEN_QUESTIONS.json"
PARAMS: dict[str, Any] = {
    "deal_seed": 1, "deals": {"ranks2": 30, "chiu4": 30, "five": 30, "chiu3": 40},
    "budget": 30_000, "hands": 800, "hands_uniform": 400, "hand_seed": 2026, "players": 4,
    # the frequencies (greedy `hands`, uniform `hands_uniform`) at each of these counts
    "frequency_players": [4, 5],
    "clause_hands": 200,
    "explore_deals": 6,
    # each question's frequency measured again under the readings its witness rests on:
    # at most `blame_readings` of them, over `blame_hands` greedy hands (same seed)
    "blame_hands": 300, "blame_readings": 3,
}


# Classic Chắn (spec/classic.toml): its own scales (checks/chan/scale.py) and smaller
# budgets, as its full-size hands (20 cards each, 39 other values shadowed) play about
# five times slower than the family's and its rows are many: the whole computation
# stays a few minutes on two cores.
PARAMS_CLASSIC: dict[str, Any] = {
    "deal_seed": 1, "deals": {"c-ranks2": 20, "c-chiu3": 20, "c-four": 20, "c-duo": 4},
    "budget": 2_000, "hands": 250, "hands_uniform": 120, "hand_seed": 2026, "players": 4,
    "frequency_players": [4],  # its largest table (it has none of five)
    "clause_hands": 30,
    "explore_deals": 4,
    "blame_hands": 40, "blame_readings": 1,
}


def params_for(table: Table) -> dict[str, Any]:
    """The parameters of `table`'s findings: the classic ones for a table whose scales
    are classic Chắn's (`scale.scale_set`), else the family's."""
    return dict(PARAMS_CLASSIC if scale.scale_set(table) == "classic" else PARAMS)


def table_digest(table: Table) -> str:
    """The digest the saved findings are keyed by: of the table's data with its
    decisions taken back (`chanspec.model.table.before_decisions`), so settling a row on
    the value that was already its default keeps the findings of the other rows, and
    without the fields that only hold words (`chanspec.model.table.without_wording`,
    which says why), so rewording a row keeps them too."""
    text = json.dumps(without_wording(before_decisions(table.data)), sort_keys=True,
                      ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_name(ruleset: str = "family") -> str:
    """OPEN_QUESTIONS.json for the family's table, OPEN_QUESTIONS-<id>.json for another
    built-in table."""
    return FILE_NAME if ruleset == "family" else f"OPEN_QUESTIONS-{ruleset}.json"


def default_path(ruleset: str = "family") -> Path:
    return questions.default_path(ruleset).with_name(file_name(ruleset))


def _describe_actions(st: State, acts: Sequence[Action]) -> tuple[str, str]:
    """The actions in words, each told in `st` (the state it is legal in); several
    discards, returns or declarations of one seat as one phrase."""
    if not acts:
        return "không có", "none"
    groups: dict[tuple[int, str], list[Action]] = {}
    for a in acts:
        key = (a.seat, a.kind) if a.kind in GROUPED else (a.seat, repr(a))
        groups.setdefault(key, []).append(a)
    parts = []
    for (seat, kind), group in groups.items():
        if len(group) == 1:
            parts.append(scenario.describe_action(st, group[0]))
            continue
        names = ", ".join(cards.name(a.card) for a in group if a.card is not None)
        n_vi, n_en = len(group), len(group)
        if kind == "discard":
            parts.append((f"Ghế {seat} đánh một trong {n_vi} quân: {names}",
                          f"Seat {seat} discards one of {n_en} cards: {names}"))
        elif kind == "declare":
            parts.append((f"Ghế {seat} xướng theo một trong {n_vi} cách",
                          f"Seat {seat} declares in one of {n_en} ways"))
        else:
            parts.append((f"Ghế {seat} trả về cửa bị ngắt một trong {n_vi} quân: {names}",
                          f"Seat {seat} returns one of {n_en} cards to the interrupted gate: "
                          f"{names}"))
    return "; ".join(p[0] for p in parts), "; ".join(p[1] for p in parts)


GROUPED = ("discard", "return", "declare")  # told as one choice per seat when several


def effects(table: Table, name: str, players: int, opt: str, deal: Deal,
            path: Sequence[Action], only: Mapping[str, Sequence[Action]]
            ) -> dict[str, dict[str, str]]:
    """What each value of `opt` allows at the end of the witness path (found at the scale
    called `name`, or at full size: `scale.rules_for`) among the actions only one of the
    two readings of the witness allows (`only`: reading -> those actions).  What a value
    allows is told in its own state; what it does not allow, in the state of the reading
    that allows it (which may have another card on offer), named beside it."""
    base = table
    row = base.rows[opt]
    ends: dict[str, State | None] = {}
    for v in row.values:
        try:
            ends[v] = State.replay(scale.rules_for(base, name, players, {opt: v}), deal, path)
        except Exception:  # noqa: BLE001 - the path itself is illegal under this value
            ends[v] = None
    diff = [a for acts in only.values() for a in acts]
    out: dict[str, dict[str, str]] = {}
    for v in row.values:
        st = ends[v]
        if st is None:
            out[v] = {"vi": "Với giá trị này tình huống không xảy ra (một bước trước đó "
                            "không hợp lệ).",
                      "en": "Under this value the scenario cannot happen (an earlier step "
                            "is not allowed)."}
            continue
        legal = set(st.legal_actions())
        if st.is_terminal():
            vi, en = scenario.result_text(witness.observe(st)[1])
            out[v] = {"vi": f"Kết quả: {vi}.", "en": f"Result: {en}."}
            continue
        if not legal:
            out[v] = {"vi": "Không ai có nước đi: ván bị kẹt.",
                      "en": "Nobody has a legal move: the hand is stuck."}
            continue
        if not diff and path:  # restriction-mode=penalise: the last act, a fault or not
            before = len(State.replay(scale.rules_for(base, name, players, {opt: v}), deal,
                                      path[:-1]).faults)
            vi, en = scenario.result_text(witness._fault_result(witness.faults(st), before))
            out[v] = {"vi": f"Bước cuối: {vi}.", "en": f"The last step: {en}."}
            continue
        yes = [a for a in diff if a in legal]
        yvi, yen = _describe_actions(st, yes)
        vi = f"Được phép: {yvi}." if yes else ""
        en = f"Allowed: {yen}." if yes else ""
        for src, acts in only.items():
            there = ends[src]
            no = [a for a in acts if a not in legal]
            if not no or there is None:
                continue
            nvi, nen = _describe_actions(there, no)
            vi += f" Không được (với «{row.label(src, 'vi')}» thì được): {nvi}."
            en += f" Not allowed (allowed under «{row.label(src, 'en')}»): {nen}."
        out[v] = {"vi": vi.strip(), "en": en.strip()}
    return out


def _witness_doc(table: Table, name: str, players: int, opt: str, a: str, b: str,
                 d: witness.Divergence) -> dict[str, Any]:
    """A witness as saved: its machine data and its story, each action told in the state
    it happens in, under the reading it is told for (the shared path under `a`)."""
    r = scale.rules_for(table, name, players, {opt: a})
    row = table.rows[opt]
    steps = scenario.narrate(r, d.deal, d.path)
    diff = list(d.only_a) + list(d.only_b)
    if diff:
        sa = State.replay(r, d.deal, d.path)
        sb = State.replay(scale.rules_for(table, name, players, {opt: b}), d.deal, d.path)
        avi, aen = _describe_actions(sa, d.only_a)
        bvi, ben = _describe_actions(sb, d.only_b)
        last_vi = (f"Tại đây hai cách hiểu khác nhau — chỉ «{row.label(a, 'vi')}» cho phép: "
                   f"{avi}; chỉ «{row.label(b, 'vi')}» cho phép: {bvi}")
        last_en = (f"Here the readings part ways — only «{row.label(a, 'en')}» allows: {aen}; "
                   f"only «{row.label(b, 'en')}» allows: {ben}")
    else:
        ra, rb = scenario.result_text(d.result_a), scenario.result_text(d.result_b)
        last_vi = (f"Tại đây kết quả khác nhau — khi «{row.label(a, 'vi')}»: {ra[0]}; "
                   f"khi «{row.label(b, 'vi')}»: {rb[0]}")
        last_en = (f"Here the results differ — with «{row.label(a, 'en')}»: {ra[1]}; "
                   f"with «{row.label(b, 'en')}»: {rb[1]}")
    steps.append(scenario.Step(len(steps), None, last_vi, last_en))
    return {"option": opt, "value_a": a, "value_b": b, "scale": name,
            "players": players, "deal": d.deal.as_json(),
            "path": [x.code() for x in d.path], "only_a": [x.code() for x in d.only_a],
            "only_b": [x.code() for x in d.only_b],
            "result_a": d.result_a, "result_b": d.result_b,
            "steps": [s.as_report() for s in steps],
            "effects": effects(table, name, players, opt, d.deal, d.path,
                               {a: d.only_a, b: d.only_b})}


def retell(table: Table, doc: Mapping[str, Any]) -> dict[str, Any]:
    """`doc` with every saved witness told again by today's narrator from its machine
    data (deal, path, the actions only one reading allows, the results): its steps and
    its "what happens" table.  The searches and frequencies are kept as they are, so this
    takes seconds where `compute` takes minutes; what `compute` would write for the
    same witnesses is the same."""
    out: dict[str, Any] = json.loads(json.dumps(doc))
    for rid, q in out.get("questions", {}).items():
        if rid not in table.rows or not table.rows[rid].is_choice:  # settled since
            continue
        for key in ("witness", "full_witness"):
            w = q.get(key)
            if not w:
                continue
            acts = [tuple(Action.parse(x) for x in w[k]) for k in ("path", "only_a", "only_b")]
            d = witness.Divergence(int(w.get("hand", 0)), Deal.from_json(w["deal"]), acts[0],
                                   acts[1], acts[2], w["result_a"], w["result_b"], 0, 0.0)
            fresh = _witness_doc(table, w["scale"], int(w["players"]), rid, w["value_a"],
                                 w["value_b"], d)
            w["steps"], w["effects"] = fresh["steps"], fresh["effects"]
    for e in out.get("extra", []):
        w = e["witness"]
        r = scale.scaled_rules(table, scale.ALL_SCALES[w["scale"]])
        deal, path = Deal.from_json(w["deal"]), [Action.parse(x) for x in w["path"]]
        last = w["steps"][-1]
        steps = scenario.narrate(r, deal, path)
        steps.append(scenario.Step(len(steps), last["seat"], last["action_vi"],
                                   last["action_en"]))
        w["steps"] = [s.as_report() for s in steps]
    return out


def measured(f: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every run of one value's frequency (``frequency[value]``), in order: the greedy
    player at the first player count (the top level), the uniform one there
    (``uniform``), then the same at each other count (``at_players``)."""
    out: list[Mapping[str, Any]] = []
    for g in [f, *(f.get("at_players") or {}).values()]:
        out.append(g)
        if g.get("uniform"):
            out.append(g["uniform"])
    return out


def full_search(freq: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The full-size trial hands the witness search read (one entry per player count and
    player): ``[{"players", "policy", "hands", "seed"}]``, from any value's runs."""
    for f in freq.values():
        return [{"players": int(pf.get("players", 4)), "policy": pf.get("policy", "greedy"),
                 "hands": int(pf["hands"]), "seed": int(pf["seed"])} for pf in measured(f)]
    return []


def full_witness(table: Table, p: Mapping[str, Any], opt: str,
                 freq: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """A witness in the family's own game: of the seeded full-size hands of every run
    (both players, every player count of ``frequency_players``) in which some value of
    `opt` parted from the default, the one where it happened earliest (ties: the first
    run, then the first value, then the first hand), replayed up to that point.  None
    when no sampled hand of any run reached the choice."""
    row = table.rows[opt]
    firsts = sorted((pf["first"][1], r, k, pf["first"][0], v, int(pf.get("players", 4)),
                     pf.get("policy", "greedy"))
                    for k, v in enumerate(row.values) if (f := freq.get(v)) is not None
                    for r, pf in enumerate(measured(f)) if pf.get("first") is not None)
    if not firsts:
        return None
    step, _r, _k, hand, b, players, pol = firsts[0]
    a = row.default
    assert a is not None
    ra, rb = table.resolve(players, {opt: a}), table.resolve(players, {opt: b})
    deal, path = witness.replay_hand(ra, p["hand_seed"], hand, step, pol)
    sa, sb = State.replay(ra, deal, path), State.replay(rb, deal, path)
    diff = witness._differ(sa, sb)
    if diff is None:  # cannot happen: the frequency run saw them part here
        raise AssertionError(f"{opt}={b}: hand {hand} does not part at step {step}")
    la, lb, res_a, res_b = diff
    d = witness.Divergence(hand, deal, tuple(path), tuple(sorted(la - lb)),
                           tuple(sorted(lb - la)), res_a, res_b, 0, 0.0)
    w = {**_witness_doc(table, scale.FULL, players, opt, a, b, d),
         "hand": hand, "seed": p["hand_seed"], "policy": pol}
    return {**w, "blame": blame(table, w)}


def _readings(table: Table, skip: str | None = None) -> list[tuple[str, str]]:
    """Every (row, value) other than the default of the open or provisional rows."""
    return [(row.id, v) for row in questions.question_rows(table) if row.id != skip
            for v in row.values if v != row.default]


def _blame(table: Table, w: Mapping[str, Any], readings: Sequence[tuple[str, str]],
           gone: Callable[[Callable[[Mapping[str, str]], State]], str | None]) -> dict[str, Any]:
    """Replay the witness's actions under each reading; `gone(replay)` says how the
    scenario disappears there (None: it does not).  An action refused: ``path``."""
    name, players = w["scale"], int(w.get("players") or 4)
    deal = Deal.from_json(w["deal"])
    path = [Action.parse(x) for x in w["path"]]
    out: list[dict[str, str]] = []
    for rid, v in readings:
        def replay(opts: Mapping[str, str], rid: str = rid, v: str = v) -> State:
            return State.replay(scale.rules_for(table, name, players, {**opts, rid: v}),
                                deal, path)
        try:
            how = gone(replay)
        except Exception:  # noqa: BLE001 - an action of the path is refused under v
            how = "path"
        if how is not None:
            out.append({"row": rid, "value": v, "how": how})
    return {"checked": len(readings), "removed_by": out}


def blame(table: Table, w: Mapping[str, Any]) -> dict[str, Any]:
    """Which single readings of the other open rows make a witness disappear.

    The witness's actions are replayed under each value of each other open or provisional
    row (the two values of its own question kept apart as in the witness): where an
    action is no longer allowed, or the two readings no longer part ways at the end, the
    scenario rests on that row's default.  The smallest set of readings that removes it is
    then one reading; when no single one does, the list is empty."""
    opt, a, b = w["option"], w["value_a"], w["value_b"]

    def gone(replay: Callable[[Mapping[str, str]], State]) -> str | None:
        sa, sb = replay({opt: a}), replay({opt: b})
        return "same" if witness._differ(sa, sb) is None else None

    return _blame(table, w, _readings(table, skip=opt), gone)


def _stuck_witness(table: Table, params: Mapping[str, Any], workers: int,
                   say: Callable[[str], None]) -> dict[str, Any] | None:
    """The shortest deadlock under the defaults over the scales (if any)."""
    best: tuple[int, dict[str, Any]] | None = None
    for name, sc in scale.scales_for(table).items():
        if not sc.exhaustive:
            continue
        r = scale.scaled_rules(table, sc)
        ds = scale.deals(r, params["explore_deals"], params["deal_seed"])
        res = explore(r, ds, workers=workers, explain_every=10**9, sample_every=10**9,
                      alts=[])
        say(f"explore {name}: {res.distinct} states")
        for v in res.violations():
            if v.kind != "deadlock":
                continue
            if best is None or v.depth < best[0]:
                steps = scenario.narrate(r, ds[v.deal], v.path)
                st = State.replay(r, ds[v.deal], v.path)
                steps.append(scenario.Step(len(steps), st.actor, v.vi, v.en))
                best = (v.depth, {"what": v.what, "scale": name, "deal": ds[v.deal].as_json(),
                                  "path": [a.code() for a in v.path],
                                  "steps": [s.as_report() for s in steps]})
    if best is None:
        return None
    return {**best[1], "blame": blame_stuck(table, best[1])}


def blame_stuck(table: Table, w: Mapping[str, Any]) -> dict[str, Any]:
    """Which single readings of the open rows make a deadlock disappear: its actions
    replayed under each value of each open or provisional row (see `blame`)."""
    def gone(replay: Callable[[Mapping[str, str]], State]) -> str | None:
        st = replay({})
        return "moves" if st.is_terminal() or st.legal_actions() else None

    return _blame(table, w, _readings(table), gone)


def frequency_readings(table: Table, opt: str, q: Mapping[str, Any],
                       cap: int) -> list[tuple[str, str]]:
    """The readings question `opt`'s frequencies (`q` its findings) are measured again
    under: those of other rows that make its witness disappear (the blame of the
    family's-game witness, else of the scaled-down one), in `_readings` order, at most
    `cap` of them."""
    order = {r: i for i, r in enumerate(_readings(table, skip=opt))}
    for b in ((q.get("full_witness") or {}).get("blame"), q.get("blame")):
        gone = {(g["row"], g["value"]) for g in (b or {}).get("removed_by", [])}
        gone &= set(order)  # a row settled since, or the question's own row: not a reading
        if gone:
            return sorted(gone, key=order.__getitem__)[:cap]
    return []


_BLAME_KEYS = ("hands", "seed", "policy", "players", "diverged", "per_10000", "ci95",
               "changed", "changed_per_10000", "changed_ci95", "placebo", "placebo_per_10000",
               "placebo_ci95", "chance", "stuck", "stuck_per_10000", "stuck_ci95")


def frequency_blame(table: Table, p: Mapping[str, Any],
                    wanted: Mapping[str, Sequence[tuple[str, str]]], workers: int = 1,
                    say: Callable[[str], None] = lambda s: None,
                    ticker: Ticker | None = None) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each question's frequencies (`wanted`: question row -> readings of other rows)
    measured again with one reading applied: ``{row: {value: [entry, ...]}}``, an entry
    per reading in the order of `wanted`, as `witness.frequency` counts them over
    ``p["blame_hands"]`` greedy hands of seed ``p["hand_seed"]`` played under the reading,
    with a shadow under the reading and the question's value.

    One run per reading, shadowing every question that asks for it (a shadow never
    changes the hand nor the other shadows), each run spread over `workers` processes by
    `witness.frequency`: the result does not depend on `workers`."""
    players, hands, seed = int(p["players"]), int(p["blame_hands"]), int(p["hand_seed"])
    order = {r: i for i, r in enumerate(_readings(table))}
    wanted = {opt: [r for r in rs if r[0] != opt] for opt, rs in wanted.items()}
    runs = sorted({r for rs in wanted.values() for r in rs}, key=lambda r: (order.get(r, -1), r))
    got: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for rid, v in runs:
        alts = [(f"{opt}={b}", table.resolve(players, {rid: v, opt: b}))
                for opt in sorted(wanted) if (rid, v) in wanted[opt]
                for b in table.rows[opt].values if b != table.rows[opt].default]
        say(f"{hands} full-size hands with {rid}={v} (seed {seed}): {len(alts)} values")
        tick = every_few_seconds(lambda done, total: say(f"hands {done}/{total}"),
                                 ticker or Ticker())
        freqs, _, _ = witness.frequency(table.resolve(players, {rid: v}), alts, hands, seed,
                                        workers, progress=tick)
        for fr in freqs:
            opt, b = fr.key.split("=", 1)
            j = fr.as_json()
            got[(opt, b, rid, v)] = {"row": rid, "value": v, **{k: j[k] for k in _BLAME_KEYS}}
    return {opt: {b: [got[(opt, b, rid, v)] for rid, v in rs]
                  for b in table.rows[opt].values if b != table.rows[opt].default}
            for opt, rs in wanted.items()}


def every_few_seconds(report: Callable[[int, int], None],
                      ticker: Ticker) -> Callable[[int, int], None]:
    """`report(done, total)` when the ticker is due, and always for the last one."""
    def tick(done: int, total: int) -> None:
        if done == total or ticker.due():
            report(done, total)
    return tick


_SW: dict[str, Any] = {}
Task = tuple[str, str, str, int, str]  # (row, default, other value, scale index, scale)
Searched = tuple[witness.Divergence | None, int, bool, int]  # found, pairs, exhaustive, deals


def _search_group(tasks: Sequence[Task]) -> list[Searched]:
    """The searches of `tasks`, all at one scale under the same rules for their value A
    (`_search_groups`), as one `witness.search_many`: the same answers as one
    `witness.search` per task, the positions under A computed once for all of them."""
    table: Table = _SW["table"]
    p: Mapping[str, Any] = _SW["params"]
    opt, a, _b, _si, name = tasks[0]
    sc = scale.ALL_SCALES[name]
    ra = scale.scaled_rules(table, sc, {opt: a})
    ds = scale.deals(ra, p["deals"][name], p["deal_seed"])
    alts = [scale.scaled_rules(table, sc, {t[0]: t[2]}) for t in tasks]
    res = witness.search_many(ra, alts, ds, budget=p["budget"])
    return [(r.found, r.pairs, r.exhaustive, len(ds)) for r in res]


def _search_groups(table: Table, tasks: Sequence[Task], workers: int) -> list[list[Task]]:
    """`tasks` in groups that one `witness.search_many` can serve: the same scale and
    the same rules for value A (the defaults, so one group a scale), each group split
    in about `workers` parts of alternatives taken in turn, so that every core has
    work until the end; the largest scales first."""
    groups: dict[tuple[str, bytes], list[Task]] = {}
    for t in tasks:
        opt, a, _b, _si, name = t
        ra = scale.scaled_rules(table, scale.ALL_SCALES[name], {opt: a})
        groups.setdefault((name, pickle.dumps(ra)), []).append(t)
    parts = max(1, workers)
    out = [g[k::parts] for g in groups.values() for k in range(min(parts, len(g)))]
    return sorted(out, key=lambda g: -len(g))


def _search_all(table: Table, p: Mapping[str, Any], tasks: Sequence[Task], workers: int,
                say: Callable[[str], None]) -> dict[tuple[str, str, str], Searched]:
    """Every witness search, in `workers` processes when more than one.  Each search is
    deterministic and independent of the others (`witness.search_many` answers each as
    `witness.search` would), so the results (and the order of the lines said: that of
    `tasks`) do not depend on `workers`."""
    _SW.update(table=table, params=p)
    out: dict[tuple[str, str, str], Searched] = {}
    said = 0

    def got(group: Sequence[Task], rs: Sequence[Searched]) -> None:
        nonlocal said
        for t, r in zip(group, rs, strict=True):
            opt, _a, b, _si, name = t
            out[(opt, b, name)] = r
        while said < len(tasks) and (tasks[said][0], tasks[said][2], tasks[said][4]) in out:
            opt, _a, b, _si, name = tasks[said]
            d = out[(opt, b, name)][0]
            say(f"{opt}={b} @ {name}: {'depth ' + str(len(d.path)) if d else 'none'}")
            said += 1

    groups = _search_groups(table, tasks, workers)
    if workers > 1 and len(groups) > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(min(workers, len(groups)), initializer=worker_ignores_sigint) as pool:
            for g, rs in zip(groups, pool.imap(_search_group, groups, chunksize=1),
                             strict=True):
                got(g, rs)
    else:
        for g in groups:
            got(g, _search_group(g))
    _SW.clear()
    return out


def compute(table: Table, params: Mapping[str, Any] | None = None, workers: int = 1,
            say: Callable[[str], None] = lambda s: None,
            ticker: Ticker | None = None) -> dict[str, Any]:
    """The findings on every open question.  `say` gets a line at each step, and during
    the long full-size phase one line every few seconds (`ticker`, default 5 s)."""
    ticker = ticker or Ticker()
    p = params_for(table)
    p.update(params or {})
    doc: dict[str, Any] = {"schema": 1, "table": table.id, "table_digest": table_digest(table),
                           "params": p, "questions": {}, "extra": []}
    # Z3 runs meanwhile in a fresh interpreter of its own (see `z3_all`)
    z3_proc, z3_err = _start_z3(table, p["players"])
    try:
        _compute(table, p, doc, workers, say, ticker)
        say("z3 questions")
        doc["z3"] = _finish_z3(z3_proc, z3_err)
    finally:
        if z3_proc.poll() is None:  # Ctrl-C or an error: do not wait for Z3
            z3_proc.kill()
            z3_proc.wait()
        z3_err.close()
    return doc


# The job exits as soon as its parent is gone (killed without a chance to stop it).
_Z3_JOB = ("import json, os, pickle, sys, threading, time\n"
           "parent = int(sys.argv[1])\n"
           "def watch():\n"
           "    while os.getppid() == parent:\n"
           "        time.sleep(0.5)\n"
           "    os._exit(1)\n"
           "threading.Thread(target=watch, daemon=True).start()\n"
           "from chanspec.checks.findings import compute\n"
           "table, players = pickle.load(sys.stdin.buffer)\n"
           "json.dump(compute.z3_all(table, players), sys.stdout)\n")


def z3_fresh(table: Table, players: int) -> dict[str, Any]:
    """`z3_all` in a fresh interpreter, as `compute` asks it (for a staleness check)."""
    proc, err = _start_z3(table, players)
    try:
        return _finish_z3(proc, err)
    finally:
        err.close()


def _start_z3(table: Table, players: int) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
    """`z3_all` in a fresh interpreter (a plain ``python -c``: nothing of the caller's
    main module is imported), fed the table on its standard input."""
    # its errors go to a file, so that reading its answer can never wait on a full pipe
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-c", _Z3_JOB, str(os.getpid())],
                            stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=err)
    assert proc.stdin is not None
    proc.stdin.write(pickle.dumps((table, players)))  # read at once by the child
    proc.stdin.close()
    return proc, err


def _finish_z3(proc: subprocess.Popen[bytes], err: IO[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    out = proc.stdout.read()
    proc.stdout.close()
    if proc.wait() != 0:
        err.seek(0)
        raise RuntimeError(f"the Z3 questions failed (exit {proc.returncode}): "
                           + err.read().decode("utf-8", "replace")[-2000:])
    doc: dict[str, Any] = json.loads(out)
    return doc


def _compute(table: Table, p: Mapping[str, Any], doc: dict[str, Any], workers: int,
             say: Callable[[str], None], ticker: Ticker) -> None:
    tick = every_few_seconds(lambda done, total: say(f"hands {done}/{total}"), ticker)
    runs: dict[int, dict[str, dict[str, Any]]] = {}  # players -> option=value -> greedy
    ends: Counter[str] = Counter()
    first_end: dict[str, int] = {}
    for n in p["frequency_players"]:
        full = table.resolve(n)
        alts = [(f"{o}={v}", a) for o, v, a in alt_rules(full)]
        say(f"{p['hands']} full-size hands at {n} players (seed {p['hand_seed']}), greedy "
            f"player")
        freqs, ends_n, first_n = witness.frequency(full, alts, p["hands"], p["hand_seed"],
                                                   workers, progress=tick)
        if n == p["players"]:
            ends, first_end = ends_n, first_n
        say(f"{p['hands_uniform']} full-size hands at {n} players (seed {p['hand_seed']}), "
            f"uniform random player")
        ufreqs, _, _ = witness.frequency(full, alts, p["hands_uniform"], p["hand_seed"],
                                         workers, policy="uniform", progress=tick)
        runs[n] = {f.key: f.as_json() | {"uniform": u.as_json()}
                   for f, u in zip(freqs, ufreqs, strict=True)}
    n0, *more = p["frequency_players"]
    fmap = {k: f | ({"at_players": {str(n): runs[n][k] for n in more if k in runs[n]}}
                    if more else {})
            for k, f in runs[n0].items()}
    doc["ends"] = dict(sorted(ends.items()))
    tasks = [(row.id, row.default, b, si, name)
             for row in questions.question_rows(table) for b in row.values if b != row.default
             for si, name in enumerate(scale.scales_for(table))]
    found = _search_all(table, p, tasks, workers, say)
    for row in questions.question_rows(table):
        opt, a = row.id, row.default
        assert a is not None
        q: dict[str, Any] = {"searches": [], "witness": None, "frequency": {}}
        best: tuple[int, int, dict[str, Any]] | None = None
        for b in row.values:
            if b == a:
                continue
            f = fmap.get(f"{opt}={b}")
            if f is not None:
                q["frequency"][b] = f
            for si, (name, sc) in enumerate(scale.scales_for(table).items()):
                d, pairs, exhaustive, n_deals = found[(opt, b, name)]
                q["searches"].append({"value": b, "scale": name, "found": d is not None,
                                      "depth": None if d is None else len(d.path),
                                      "pairs": pairs, "exhaustive": exhaustive,
                                      "deals": n_deals})
                if d is not None and (best is None or (len(d.path), si) < best[:2]):
                    best = (len(d.path), si, _witness_doc(table, name, sc.players, opt, a, b,
                                                          d))
        if best is not None:
            q["witness"] = best[2]
            q["blame"] = blame(table, best[2])
        q["full_witness"] = full_witness(table, p, opt, q["frequency"])
        q["full_search"] = full_search(q["frequency"])
        doc["questions"][opt] = q
    say(f"frequencies under the readings the witnesses rest on: {p['blame_hands']} hands each")
    wanted = {opt: frequency_readings(table, opt, q, int(p["blame_readings"]))
              for opt, q in doc["questions"].items()}
    for opt, per_value in frequency_blame(table, p, wanted, workers, say, ticker).items():
        for b, entries in per_value.items():
            if b in doc["questions"][opt]["frequency"]:
                doc["questions"][opt]["frequency"][b]["blame"] = entries
    stuck = _stuck_witness(table, p, workers, say)
    if stuck is not None:
        doc["extra"].append({
            "id": "empty-hand-discard",
            "vi": "Văn bản không nói điều gì xảy ra khi người chơi ăn hoặc Chíu bằng những quân "
                  "kín cuối cùng rồi không còn quân nào để đánh hay trả cửa. Theo bảng luật "
                  "hiện tại ván bị kẹt.",
            "en": "The text does not say what happens when a player eats or takes a chíu with "
                  "their last concealed cards and then has nothing left to discard or return. "
                  "Under the current table the hand is stuck.",
            "witness": stuck,
            "full_size": {"hands": p["hands"], "seed": p["hand_seed"],
                          "stuck": {k: v for k, v in ends.items() if k.startswith("stuck")},
                          "first": first_end},
        })
    say(f"clauses of the ban rows: {p['clause_hands']} hands per player count and player")
    doc["clauses"] = [clauses.measure(table.resolve(n), p["clause_hands"], p["hand_seed"], pol)
                      for n in sorted(table.variants) for pol in sorted(witness.POLICIES)]
    say("winning hands counted for every option value")
    doc["hands"] = hand_counts(table)


def hand_counts(table: Table) -> dict[str, Any]:
    """The winning hands counted (checks/chan/hands.py) for every player count, under
    the defaults and under each other value that changes the counts."""
    out: dict[str, Any] = {}
    for players in sorted(table.variants):
        counts: dict[str, Any] = {"defaults": hands_mod.count_wins(table.resolve(players))}
        for o, values in table.option_space():
            for v in values:
                if v != table.rows[o].default:
                    c = hands_mod.count_wins(table.resolve(players, {o: v}))
                    if (c["complete"], c["u_wins"]) != (counts["defaults"]["complete"],
                                                        counts["defaults"]["u_wins"]):
                        counts[f"{o}={v}"] = c
        out[str(players)] = counts
    return out


def z3_settings(table: Table, players: int) -> list[str]:
    """The option settings the all-hands Z3 questions are asked under: the defaults, and
    each other value that changes what the questions read from the rules (the cạ, which
    of them are special, the faces that may never complete ù, the shape of a win)."""
    from chanspec.checks.chan import z3win

    base = z3win.inputs(table.resolve(players))
    return [""] + [f"{o}={v}" for o, values in table.option_space() for v in values
                   if v != table.rows[o].default
                   and z3win.inputs(table.resolve(players, {o: v})) != base]


def z3_all(table: Table, players: int) -> dict[str, Any]:
    """The questions over all hands under every setting of `z3_settings`.  Run in a
    process of its own (see `compute`), beside the findings."""
    return {o: hands_mod.z3_questions(table.resolve(players, dict([o.split("=", 1)])
                                                     if o else None))
            for o in z3_settings(table, players)}


def load(path: Path | None = None) -> dict[str, Any] | None:
    p = path or default_path()
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def dumps(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"



