"""The checker's findings on every open question, and OPEN_QUESTIONS.md built from them.

`compute(table)` is deterministic (fixed seeds, fixed budgets): for every open or
provisional row it searches the scaled-down configurations of checks/explore/scale.py for the
shortest scenario in which the default and another value part ways (checks/findings/witness.py),
plays seeded full-size random hands, by a greedy and by a uniform random player, with a
shadow game per value to say how often the choice comes up and, playing the same hand
under that value, how often it changes the result (with 95% intervals), measures those
figures again under each of the few readings of other rows its scenario rests on
(`frequency_blame`: fewer hands, greedy player), and asks the all-hands questions
(checks/oracles/hands.py).  It also reports what the exploration
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
         "frequency": {value: {"hands", "seed", "policy": "greedy", "diverged",
                               "per_10000", "ci95", "changed", "changed_per_10000",
                               "changed_ci95", "stuck", "stuck_per_10000", "stuck_ci95",
                               "kinds", "first",
                               "uniform": {the same for the uniform random player},
                               "blame": [{"row", "value", "hands", "seed", "policy",
                                          "diverged", "per_10000", "ci95", "changed",
                                          "changed_per_10000", "changed_ci95", "stuck",
                                          "stuck_per_10000", "stuck_ci95"}, ...]}},
         "effects": {value: {"vi", "en"}}}},
     "extra": [{"id", "vi", "en", "witness", "frequency"}],   # found by the checker
     "ends": {"win": n, "draw": n, "stuck-...": n},            # full-size default games
     "clauses": [checks/findings/clauses.py measure documents],
     "hands": {"4": {value-label: counts}, ...}, "z3": {...}}

`finding_objects(doc)` turns it into checks/findings/questions.py `Finding`s for `render`.
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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from chanspec.checks.explore import scale
from chanspec.checks.explore.search import alt_rules, explore, worker_ignores_sigint
from chanspec.checks.findings import clauses, divergence, questions, scenario, witness
from chanspec.checks.oracles import hands as hands_mod
from chanspec.checks.output import Ticker, count
from chanspec.model import cards
from chanspec.model.game import Action, Deal, State
from chanspec.model.table import Table, before_decisions

FILE_NAME = "OPEN_QUESTIONS.json"
PARAMS: dict[str, Any] = {
    "deal_seed": 1, "deals": {"ranks2": 30, "chiu4": 30, "five": 30, "chiu3": 40},
    "budget": 30_000, "hands": 3000, "hands_uniform": 1000, "hand_seed": 2026, "players": 4,
    "clause_hands": 200,
    "explore_deals": 6,
    # each question's frequency measured again under the readings its witness rests on:
    # at most `blame_readings` of them, over `blame_hands` greedy hands (same seed)
    "blame_hands": 500, "blame_readings": 3,
}


def table_digest(table: Table) -> str:
    """The digest the saved findings are keyed by: of the table's data with its
    decisions taken back (`chanspec.model.table.before_decisions`), so settling a row on
    the value that was already its default keeps the findings of the other rows."""
    text = json.dumps(before_decisions(table.data), sort_keys=True, ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_path() -> Path:
    return questions.default_path().with_name(FILE_NAME)


def _describe_actions(st: State, acts: Sequence[Action]) -> tuple[str, str]:
    if not acts:
        return "không có", "none"
    parts = [scenario.describe_action(st, a) for a in acts]
    return "; ".join(p[0] for p in parts), "; ".join(p[1] for p in parts)


def _result_text(res: Any) -> tuple[str, str]:
    if res is None:
        return "ván chưa kết thúc", "the hand goes on"
    kind, winner, how = (list(res) + [None, None, None])[:3]
    if kind == "win":
        return f"ghế {winner} ù ({how})", f"seat {winner} wins ({how})"
    return "ván hòa", "the hand is drawn"


def effects(table: Table, name: str, players: int, opt: str, deal: Deal,
            path: Sequence[Action], diff: Sequence[Action]) -> dict[str, dict[str, str]]:
    """What each value of `opt` allows at the end of the witness path (found at the scale
    called `name`, or at full size: `scale.rules_for`)."""
    base = table
    out: dict[str, dict[str, str]] = {}
    for v in base.rows[opt].values:
        r = scale.rules_for(base, name, players, {opt: v})
        try:
            st = State.replay(r, deal, path)
        except Exception:  # noqa: BLE001 - the path itself is illegal under this value
            out[v] = {"vi": "Với giá trị này tình huống không xảy ra (một bước trước đó "
                            "không hợp lệ).",
                      "en": "Under this value the scenario cannot happen (an earlier step "
                            "is not allowed)."}
            continue
        legal = set(st.legal_actions())
        if st.is_terminal():
            vi, en = _result_text(witness.observe(st)[1])
            out[v] = {"vi": f"Kết quả: {vi}.", "en": f"Result: {en}."}
            continue
        if not legal:
            out[v] = {"vi": "Không ai có nước đi: ván bị kẹt.",
                      "en": "Nobody has a legal move: the hand is stuck."}
            continue
        yes = [a for a in diff if a in legal]
        no = [a for a in diff if a not in legal]
        yvi, yen = _describe_actions(st, yes)
        nvi, nen = _describe_actions(st, no)
        vi = (f"Được phép: {yvi}." if yes else "") + (f" Không được: {nvi}." if no else "")
        en = (f"Allowed: {yen}." if yes else "") + (f" Not allowed: {nen}." if no else "")
        out[v] = {"vi": vi.strip(), "en": en.strip()}
    return out


def _witness_doc(table: Table, name: str, players: int, opt: str, a: str, b: str,
                 d: witness.Divergence) -> dict[str, Any]:
    r = scale.rules_for(table, name, players, {opt: a})
    steps = scenario.narrate(r, d.deal, d.path)
    st = State.replay(r, d.deal, d.path)
    diff = list(d.only_a) + list(d.only_b)
    if diff:
        avi, aen = _describe_actions(st, d.only_a)
        bvi, ben = _describe_actions(st, d.only_b)
        last_vi = f"Tại đây hai cách hiểu khác nhau — chỉ với `{a}`: {avi}; chỉ với `{b}`: {bvi}"
        last_en = f"Here the readings part ways — only under `{a}`: {aen}; only under `{b}`: {ben}"
    else:
        ra, rb = _result_text(d.result_a), _result_text(d.result_b)
        last_vi = f"Tại đây kết quả khác nhau — với `{a}`: {ra[0]}; với `{b}`: {rb[0]}"
        last_en = f"Here the results differ — under `{a}`: {ra[1]}; under `{b}`: {rb[1]}"
    steps.append(scenario.Step(len(steps), None, last_vi, last_en))
    return {"option": opt, "value_a": a, "value_b": b, "scale": name,
            "players": players, "deal": d.deal.as_json(),
            "path": [x.code() for x in d.path], "only_a": [x.code() for x in d.only_a],
            "only_b": [x.code() for x in d.only_b],
            "result_a": d.result_a, "result_b": d.result_b,
            "steps": [s.as_report() for s in steps],
            "effects": effects(table, name, players, opt, d.deal, d.path, diff)}


def full_witness(table: Table, p: Mapping[str, Any], opt: str,
                 freq: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """A witness in the family's own game: of the seeded full-size hands (greedy player)
    in which some value of `opt` parted from the default, the one where it happened
    earliest, replayed up to that point.  None when no sampled hand reached the choice."""
    row = table.rows[opt]
    firsts = sorted((f["first"][1], f["first"][0], k, v) for k, v in enumerate(row.values)
                    if (f := freq.get(v)) is not None and f.get("first") is not None)
    if not firsts:
        return None
    step, hand, _k, b = firsts[0]
    a = row.default
    assert a is not None
    players = int(p["players"])
    ra, rb = table.resolve(players, {opt: a}), table.resolve(players, {opt: b})
    deal, path = witness.replay_hand(ra, p["hand_seed"], hand, step)
    sa, sb = State.replay(ra, deal, path), State.replay(rb, deal, path)
    diff = witness._differ(sa, sb)
    if diff is None:  # cannot happen: the frequency run saw them part here
        raise AssertionError(f"{opt}={b}: hand {hand} does not part at step {step}")
    la, lb, res_a, res_b = diff
    d = witness.Divergence(hand, deal, tuple(path), tuple(sorted(la - lb)),
                           tuple(sorted(lb - la)), res_a, res_b, 0, 0.0)
    w = {**_witness_doc(table, scale.FULL, players, opt, a, b, d),
         "hand": hand, "seed": p["hand_seed"], "policy": "greedy"}
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


def _blame_line(b: Mapping[str, Any] | None, lang: str) -> tuple[str, str] | None:
    if not b:
        return None
    gone = b["removed_by"]
    if not gone:
        return ("Không cách hiểu nào khác của một dòng còn mở làm tình huống này biến mất "
                f"(đã thử {b['checked']} cách).",
                f"No single other reading of an open row makes this scenario disappear "
                f"({b['checked']} tried).")
    how_vi = {"path": "một bước không còn được phép", "same": "hai cách hiểu không còn khác",
              "moves": "ván không còn kẹt"}
    how_en = {"path": "a step is no longer allowed", "same": "the readings no longer differ",
              "moves": "the hand is no longer stuck"}
    vi = "; ".join(f"`{g['row']}` = `{g['value']}` ({how_vi[g['how']]})" for g in gone)
    en = "; ".join(f"`{g['row']}` = `{g['value']}` ({how_en[g['how']]})" for g in gone)
    return (f"Tình huống này dựa vào cách hiểu mặc định của dòng khác; nó biến mất nếu: {vi} "
            f"(đã thử {b['checked']} cách).",
            f"This scenario rests on the default reading of other rows; it disappears "
            f"under: {en} ({b['checked']} tried).")


def _stuck_witness(table: Table, params: Mapping[str, Any], workers: int,
                   say: Callable[[str], None]) -> dict[str, Any] | None:
    """The shortest deadlock under the defaults over the scales (if any)."""
    best: tuple[int, dict[str, Any]] | None = None
    for name in scale.SCALES:
        sc = scale.SCALES[name]
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


_BLAME_KEYS = ("hands", "seed", "policy", "diverged", "per_10000", "ci95", "changed",
               "changed_per_10000", "changed_ci95", "stuck", "stuck_per_10000", "stuck_ci95")


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


def _search_one(t: Task) -> Searched:
    table: Table = _SW["table"]
    p: Mapping[str, Any] = _SW["params"]
    opt, a, b, _si, name = t
    sc = scale.SCALES[name]
    ra = scale.scaled_rules(table, sc, {opt: a})
    rb = scale.scaled_rules(table, sc, {opt: b})
    ds = scale.deals(ra, p["deals"][name], p["deal_seed"])
    res = witness.search(ra, rb, ds, budget=p["budget"])
    return res.found, res.pairs, res.exhaustive, len(ds)


def _search_all(table: Table, p: Mapping[str, Any], tasks: Sequence[Task], workers: int,
                say: Callable[[str], None]) -> dict[tuple[str, str, str], Searched]:
    """Every witness search, in `workers` processes when more than one.  Each search is
    deterministic and independent of the others, so the results (and the order of the
    lines said) do not depend on `workers`."""
    _SW.update(table=table, params=p)
    out: dict[tuple[str, str, str], Searched] = {}

    def got(t: Task, r: Searched) -> None:
        opt, _a, b, _si, name = t
        out[(opt, b, name)] = r
        d = r[0]
        say(f"{opt}={b} @ {name}: {'depth ' + str(len(d.path)) if d else 'none'}")

    if workers > 1 and len(tasks) > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(min(workers, len(tasks)), initializer=worker_ignores_sigint) as pool:
            for t, r in zip(tasks, pool.imap(_search_one, tasks, chunksize=1), strict=True):
                got(t, r)
    else:
        for t in tasks:
            got(t, _search_one(t))
    _SW.clear()
    return out


def compute(table: Table, params: Mapping[str, Any] | None = None, workers: int = 1,
            say: Callable[[str], None] = lambda s: None,
            ticker: Ticker | None = None) -> dict[str, Any]:
    """The findings on every open question.  `say` gets a line at each step, and during
    the long full-size phase one line every few seconds (`ticker`, default 5 s)."""
    ticker = ticker or Ticker()
    p = dict(PARAMS)
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
    full = table.resolve(p["players"])
    alts = [(f"{o}={v}", a) for o, v, a in alt_rules(full)]
    say(f"{p['hands']} full-size hands (seed {p['hand_seed']}), greedy player")
    freqs, ends, first_end = witness.frequency(
        full, alts, p["hands"], p["hand_seed"], workers,
        progress=every_few_seconds(lambda done, total: say(f"hands {done}/{total}"), ticker))
    say(f"{p['hands_uniform']} full-size hands (seed {p['hand_seed']}), uniform random player")
    ufreqs, _, _ = witness.frequency(
        full, alts, p["hands_uniform"], p["hand_seed"], workers, policy="uniform",
        progress=every_few_seconds(lambda done, total: say(f"hands {done}/{total}"), ticker))
    fmap = {f.key: f.as_json() | {"uniform": u.as_json()} for f, u in zip(freqs, ufreqs,
                                                                         strict=True)}
    doc["ends"] = dict(sorted(ends.items()))
    tasks = [(row.id, row.default, b, si, name)
             for row in questions.question_rows(table) for b in row.values if b != row.default
             for si, name in enumerate(scale.SCALES)]
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
            for si, (name, sc) in enumerate(scale.SCALES.items()):
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
    doc["hands"] = {}
    say("winning hands counted for every option value")
    for players in sorted(table.variants):
        counts: dict[str, Any] = {"defaults": hands_mod.count_wins(table.resolve(players))}
        for o, values in table.option_space():
            for v in values:
                if v != table.rows[o].default:
                    c = hands_mod.count_wins(table.resolve(players, {o: v}))
                    if (c["complete"], c["u_wins"]) != (counts["defaults"]["complete"],
                                                        counts["defaults"]["u_wins"]):
                        counts[f"{o}={v}"] = c
        doc["hands"][str(players)] = counts


def z3_settings(table: Table, players: int) -> list[str]:
    """The option settings the all-hands Z3 questions are asked under: the defaults, and
    each other value that changes what the questions read from the rules (the cạ, which
    of them are special, the faces that may never complete ù, the shape of a win)."""
    from chanspec.checks.oracles import z3win

    base = z3win.inputs(table.resolve(players))
    return [""] + [f"{o}={v}" for o, values in table.option_space() for v in values
                   if v != table.rows[o].default
                   and z3win.inputs(table.resolve(players, {o: v})) != base]


def z3_all(table: Table, players: int) -> dict[str, Any]:
    """The Z3 questions under every setting of `z3_settings`.  Run in a fresh interpreter
    (see `compute`): Z3's answers (which witness hand it finds) depend on what the
    process asked it before, and the findings must not."""
    return {o: hands_mod.z3_questions(table.resolve(players, dict([o.split("=", 1)])
                                                     if o else None), timeout_ms=Z3_TIMEOUT_MS)
            for o in z3_settings(table, players)}


# Z3's limit per question: far above what the questions take on a quiet machine (a minute
# or two), so that a loaded machine never turns an answer into "unknown" and the saved
# findings do not depend on the load.
Z3_TIMEOUT_MS = 900_000


# --------------------------------------------------------------------------- rendering


def _steps(w: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    vi = [str(s["action_vi"]) for s in w["steps"]]
    en = [str(s["action_en"]) for s in w["steps"]]
    return vi, en


def _scale_note(w: Mapping[str, Any]) -> tuple[str, str]:
    if w["scale"] == scale.FULL:
        return (f"Một ván đủ cỡ của gia đình ({w['players']} người, đủ bộ bài): ván số "
                f"{w['hand']} trong các ván chơi thử có thể chơi lại, với người chơi tham; "
                f"chỉ {len(w['path'])} nước đầu.",
                f"A hand of the family's own game ({w['players']} players, the whole deck): "
                f"hand {w['hand']} of the seeded trial hands (seed {w['seed']}), greedy "
                f"player; its first {count(len(w['path']), 'move')} only.")
    sc = scale.SCALES.get(w["scale"])
    if sc is None:
        return "", ""
    return (f"Cấu hình thu nhỏ `{sc.name}`: {sc.vi}.", f"Scaled-down configuration "
            f"`{sc.name}`: {sc.en}.")


def finding_objects(doc: Mapping[str, Any], table: Table,
                    lang: str = "vi") -> dict[str, questions.Finding]:
    out: dict[str, questions.Finding] = {}
    open_rows = {r.id for r in questions.question_rows(table)}
    for rid, q in doc.get("questions", {}).items():
        if rid not in open_rows:  # a row settled since: no longer a question
            continue
        small = q.get("witness")
        # the scenario shown: a hand of the family's own game when one parted, else the
        # shortest one of a scaled-down game (marked as such)
        w = q.get("full_witness") or small
        steps_vi: list[str] = []
        steps_en: list[str] = []
        eff: dict[str, questions.Effect] = {}
        if w is not None:
            nvi, nen = _scale_note(w)
            steps_vi, steps_en = _steps(w)
            steps_vi = [nvi] + steps_vi
            steps_en = [nen] + steps_en
            eff = {k: questions.Effect(v["vi"], v["en"]) for k, v in w["effects"].items()}
            if small is not None and small is not w:
                svi, sen = _scale_note(small)
                steps_vi.append(f"Ngắn nhất trong cấu hình thu nhỏ: {len(small['path'])} nước "
                                f"(hình dưới). {svi}")
                steps_en.append(f"Shortest in a scaled-down game: "
                                f"{count(len(small['path']), 'move')} (the picture below). {sen}")
        else:
            tried = ", ".join(f"{s['value']}@{s['scale']} ({s['pairs']:,} cặp trạng thái/"
                              f"state pairs{', vét cạn/exhaustive' if s['exhaustive'] else ''})"
                              for s in q["searches"])
            steps_vi = [f"Không tìm thấy tình huống nào mà các giá trị cho nước đi hay kết quả "
                        f"khác nhau (đã tìm: {tried})."]
            steps_en = [f"No scenario found in which the values allow different actions or "
                        f"give different results (searched: {tried})."]
        freq = q.get("frequency", {})
        row = table.rows[rid]
        for v in row.values:
            if v == row.default or w is None:
                continue
            searched = [s for s in q["searches"] if s["value"] == v]
            f = freq.get(v)
            if searched and not any(s["found"] for s in searched) and f and not f["diverged"]:
                how = ", ".join(f"{s['scale']} ({s['pairs']:,}"
                                f"{', vét cạn/exhaustive' if s['exhaustive'] else ''})"
                                for s in searched)
                eff[v] = questions.Effect(
                    f"Không tìm thấy tình huống nào mà `{v}` khác mặc định `{row.default}`: "
                    f"đã so {how} cặp trạng thái và {f['hands']} ván đủ cỡ (hạt giống "
                    f"{f['seed']}). Trong những gì đã tìm, lựa chọn này không làm thay đổi gì.",
                    f"No scenario found in which `{v}` differs from the default "
                    f"`{row.default}`: compared {how} state pairs and {f['hands']} full-size "
                    f"hands (seed {f['seed']}). As far as searched, this choice changes "
                    f"nothing.")
        fvi, fen = [], []
        for v in [x for x in table.rows[rid].values if x in freq]:
            f = freq[v]
            kinds = ", ".join(f"{k} {n}" for k, n in f["kinds"].items()) or "—"
            fvi.append(f"`{v}`: {_how_often(f, 'vi')}; thay đổi đầu tiên: {kinds}")
            fen.append(f"`{v}`: {_how_often(f, 'en')}; first change: {kinds}")
        fbvi = " ".join(x for v in table.rows[rid].values if v in freq
                        if (x := _frequency_blame_line(freq[v], "vi")))
        fben = " ".join(x for v in table.rows[rid].values if v in freq
                        if (x := _frequency_blame_line(freq[v], "en")))
        src = None
        if w is not None:
            src = (f"chanspec check — witness {w['option']}={w['value_a']} vs "
                   f"{w['value_b']} at scale {w['scale']}: {' | '.join(w['path']) or '(deal)'}")
        bl = _blame_line(w.get("blame", q.get("blame")) if w is not None else None, lang)
        out[rid] = questions.Finding(
            blame_vi=None if bl is None else bl[0], blame_en=None if bl is None else bl[1],
            weight=max((float(f.get("changed_per_10000", 0.0)) for f in freq.values()),
                       default=0.0),
            steps_vi=steps_vi, steps_en=steps_en,
            frequency_vi="; ".join(fvi) or None, frequency_en="; ".join(fen) or None,
            frequency_blame_vi=fbvi or None, frequency_blame_en=fben or None,
            effects=eff, source=src,
            mermaid=None if w is None else divergence.to_mermaid(
                divergence.picture(table, small or w), lang))
    return out


def number(x: float, lang: str) -> str:
    """7153 -> ``7.153`` in Vietnamese (``,`` for decimals), ``7,153`` in English."""
    text = f"{x:,.1f}".rstrip("0").rstrip(".")
    if lang == "vi":
        text = text.replace(",", " ").replace(".", ",").replace(" ", ".")
    return text


def _rate(f: Mapping[str, Any], key: str, ci: str, lang: str) -> str:
    lo, hi = f.get(ci) or (f[key], f[key])
    return f"{number(f[key], lang)} ({number(lo, lang)}–{number(hi, lang)})"


def _how_often(f: Mapping[str, Any], lang: str) -> str:
    """Both measures, under both players, per 10,000 hands with 95% intervals."""
    out = []
    for pf in (f, f.get("uniform")):
        if pf is None:
            continue
        name = pf.get("policy", "greedy")
        pvi, pen = witness.POLICY_TEXT.get(name, (name, name))
        n = number(pf["hands"], lang)
        if "changed_per_10000" not in pf:  # saved before results were compared
            out.append(f"{number(pf['per_10000'], lang)} / 10.000 ván ({n} ván)" if lang == "vi"
                       else f"{number(pf['per_10000'], lang)} per 10,000 hands ({n} hands)")
            continue
        if lang == "vi":
            out.append(f"{pvi}: lựa chọn này xuất hiện ở {_rate(pf, 'per_10000', 'ci95', lang)}"
                       f" / 10.000 ván, đổi kết quả ở "
                       f"{_rate(pf, 'changed_per_10000', 'changed_ci95', lang)} / 10.000 ván "
                       f"({n} ván, hạt giống {pf['seed']})")
        else:
            out.append(f"{pen}: the choice comes up in "
                       f"{_rate(pf, 'per_10000', 'ci95', lang)} per 10,000 hands and changes "
                       f"the result in {_rate(pf, 'changed_per_10000', 'changed_ci95', lang)} "
                       f"per 10,000 ({n} hands, seed {pf['seed']})")
    return "; ".join(out)


def _frequency_blame_line(f: Mapping[str, Any], lang: str) -> str:
    """One value's figure as the table reads today and under each single other reading it
    rests on (``f["blame"]``, greedy player): how often the hand is stuck when the value
    leaves hands stuck, else how often the choice comes up and changes the result.
    Empty for findings saved before the figures were measured again."""
    if "blame" not in f:
        return ""
    entries = f["blame"]
    vi = lang == "vi"
    value = str(f["option"]).split("=", 1)[-1]
    if not entries:
        return (f"Với `{value}`, tình huống không dựa vào cách hiểu nào của dòng khác: con "
                f"số không được đo lại." if vi else
                f"Under `{value}` the scenario rests on no reading of another row: the figure "
                f"was not measured again.")
    stuck = bool(f.get("stuck"))

    def rates(x: Mapping[str, Any]) -> str:
        n = number(x["hands"], lang)
        if stuck:
            s = _rate(x, "stuck_per_10000", "stuck_ci95", lang)
            return f"{s} / 10.000 ván ({n} ván)" if vi else f"{s} of 10,000 hands ({n} hands)"
        up = _rate(x, "per_10000", "ci95", lang)
        ch = _rate(x, "changed_per_10000", "changed_ci95", lang)
        return (f"xuất hiện ở {up}, đổi kết quả ở {ch} / 10.000 ván ({n} ván)" if vi else
                f"comes up in {up} and changes the result in {ch} per 10,000 hands "
                f"({n} hands)")

    if vi:
        head = f"Với `{value}`, ván bị kẹt ở " if stuck else f"Với `{value}`, lựa chọn này "
        rest = [f"nếu dòng `{e['row']}` hiểu là `{e['value']}`: {'ở ' if stuck else ''}"
                f"{rates(e)}" for e in entries]
    else:
        head = (f"Under `{value}` the hand is stuck in " if stuck else
                f"Under `{value}` the choice ")
        rest = [f"if row `{e['row']}` is read as `{e['value']}`: {'in ' if stuck else ''}"
                f"{rates(e)}" for e in entries]
    return head + "; ".join([rates(f), *rest]) + "."


def report_findings(doc: Mapping[str, Any] | None, table: Table) -> dict[str, dict[str, Any]]:
    """The same findings OPEN_QUESTIONS.md shows, for ``chanspec report``, with each
    witness also as a structured scenario (hands, gates and laid cards at every step) so
    the report can draw the table.  Empty when `doc` is missing or stale for `table`."""
    if doc is None or doc.get("table_digest") != table_digest(table):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for rid, f in finding_objects(doc, table).items():
        d: dict[str, Any] = {
            "steps_vi": list(f.steps_vi), "steps_en": list(f.steps_en),
            "frequency_vi": f.frequency_vi, "frequency_en": f.frequency_en,
            "effects": {k: {"vi": e.vi, "en": e.en} for k, e in f.effects.items()},
            "source": f.source,
        }
        q = doc["questions"][rid]
        found = [x for x in (q.get("full_witness"), q.get("witness")) if x is not None]
        if found:
            d["scenarios"] = []
            for x in found:
                nvi, nen = _scale_note(x)
                d["scenarios"].append({
                    "steps": x["steps"], "players": x["players"],
                    "title": {"vi": f"{x['option']}: `{x['value_a']}` và `{x['value_b']}`",
                              "en": f"{x['option']}: `{x['value_a']}` and `{x['value_b']}`"},
                    "note": {"vi": nvi, "en": nen},
                })
            pic = divergence.picture(table, found[-1])
            d["divergence"] = {**pic, "text": divergence.text(pic),
                               "mermaid": divergence.to_mermaid(pic)}
        out[rid] = _plain(d)
    return out


def _plain(x: Any) -> Any:
    """The Markdown code marks (backticks) dropped, for text shown as HTML."""
    if isinstance(x, str):
        return x.replace("`", "")
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def render(table: Table, doc: Mapping[str, Any] | None, lang: str = "vi") -> str:
    """OPEN_QUESTIONS.md (``vi``: Vietnamese with English, as committed; ``en``: English
    only), with the findings of `doc` when they were computed for this table."""
    if doc is None or doc.get("table_digest") != table_digest(table):
        return questions.render(table, lang=lang)
    return questions.render(table, finding_objects(doc, table, lang),
                            extra=extra_sections(doc, lang),
                            lang=lang)


def extra_sections(doc: Mapping[str, Any], lang: str = "vi") -> list[str]:
    """Markdown for what the checker found beyond the table's rows, and the hand counts."""
    en = lang == "en"

    def lbl(vi: str, en_: str) -> str:
        return en_ if en else f"{vi} / {en_}"

    out: list[str] = []
    for e in doc.get("extra", []):
        w = e["witness"]
        nvi, nen = _scale_note(w)
        head = (f"### `{e['id']}` ({lbl('máy phát hiện', 'found by the checker')}; "
                f"{lbl('chưa có dòng trong bảng', 'no table row yet')})")
        out += ["", f'<a id="{e["id"]}"></a>', head, ""]
        if en:
            out += [f"**Question:** {e['en']}", "", "#### Scenario", "", nen, ""]
        else:
            out += [f"**Câu hỏi:** {e['vi']}", "", f"*Question: {e['en']}*", "",
                    "#### Tình huống / Scenario", "", f"{nvi}  ", f"*{nen}*", ""]
        for i, s in enumerate(w["steps"]):
            if en:
                out.append(f"{i}. {s['action_en']}")
                continue
            out.append(f"{i}. {s['action_vi']}  ")
            out.append(f"   *{s['action_en']}*")
        bl = _blame_line(w.get("blame"), lang)
        if bl is not None:
            out += ["", f"**Depends on:** {bl[1]}" if en else
                    f"**Phụ thuộc / Depends on:** {bl[0]} — *{bl[1]}*"]
        fs = e.get("full_size")
        if fs:
            stuck = ", ".join(f"{k}: {v}" for k, v in sorted(fs["stuck"].items())) or "0"
            if en:
                out += ["", f"**How often:** seeded random full-size hands that got stuck: "
                        f"{stuck} of {fs['hands']} (seed {fs['seed']})"]
            else:
                out += ["", f"**Mức thường gặp / How often:** ván ngẫu nhiên đủ cỡ bị kẹt / "
                        f"seeded random full-size hands that got stuck: {stuck} trên / of "
                        f"{fs['hands']} (hạt giống / seed {fs['seed']})"]
    if doc.get("clauses"):
        out += clauses.markdown(doc["clauses"], lang)
    hands = doc.get("hands") or {}
    if hands:
        out += ["", f"## {lbl('Đếm bài ù', 'Counting winning hands')}", ""]
        if en:
            out.append("Exact counts over the win engine's per-class tables, counting face "
                       "multisets. `complete`: complete hands; `u_wins`: (hand one short, "
                       "completing face) pairs that win by ordinary ù.")
        else:
            out.append(
                "Đếm chính xác theo từng lớp quân (bảng của bộ máy ù), tính theo số lượng mỗi "
                "mặt quân. *Exact counts over the win engine's per-class tables, counting face "
                "multisets.* `complete`: bài đủ đôi ngay (không cần quân cuối) / *complete "
                "hands*; `u_wins`: (bài thiếu một quân, quân ù) được ù thường / *(hand one "
                "short, completing face) pairs that win by ordinary ù*.")
        out += ["", f"| {lbl('người', 'players')} | {lbl('tùy chọn', 'options')} | complete "
                "| u_wins |", "|---|---|---|---|"]
        for players, counts in hands.items():
            for label, c in counts.items():
                out.append(f"| {players} | `{label}` | {c['complete']:,} | {c['u_wins']:,} |")
    z = doc.get("z3") or {}
    if z:
        out += ["", f"## {lbl('Câu hỏi trên mọi bài (Z3)', 'Questions over all hands (Z3)')}",
                ""]
        names = {"dead_wait": ("bài chờ chỉ bằng quân không bao giờ được ù",
                               "a wait only on cards that may never complete ù"),
                 "needs_special_ca": ("bài ù bắt buộc phải có Cạ đặc biệt",
                                      "a winning hand that needs a special cạ")}
        for opts, qs in z.items():
            for name, ans in qs.items():
                vi, en_ = names.get(name, (name, name))
                label = f"`{opts}`" if opts else lbl("mặc định", "defaults")
                what = en_ if en else f"{vi} / *{en_}*"
                if ans["answer"] == "witness":
                    hand = cards.names(cards.parse(c) for c in ans["hand"])
                    cand = cards.name(cards.parse(ans["candidate"])) if ans["candidate"] else ""
                    out.append(f"- {label} — {what}: {lbl('có', 'yes')} — {hand}"
                               + (f" + **{cand}**" if cand else ""))
                elif ans["answer"] == "none":
                    out.append(f"- {label} — {what}: "
                               f"{lbl('không có (Z3 chứng minh)', 'none (proved by Z3)')}")
                else:
                    out.append(f"- {label} — {what}: {lbl('chưa rõ', 'unknown')} "
                               f"({ans.get('why')})")
    return out


def load(path: Path | None = None) -> dict[str, Any] | None:
    p = path or default_path()
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def dumps(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"



