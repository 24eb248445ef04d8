"""Every mutant run, every decision accounted for: the inventory of `chanspec audit`.

`baseline` plays the real machine's hands once (recording what each step shows and the
lines each hand runs); `run` plays each mutant on them in worker processes (forked, so
each starts from the baseline and builds its own world); `account` sorts the results:

* **decision** -- the mutant changes play: its first divergence (configuration, hand,
  step, the two legal sets or results), the rows `State.explain` cites there on the
  real machine (for each action only one of the two allows, and the rows of the
  outcome), and how it is accounted for:
  - ``row`` -- a row of the table lists its id in ``decides``;
  - ``proposed`` -- a row proposed in `PROPOSED` (``docs/decisions-proposed.toml``) lists
    it: a reading the text leaves open, not yet in the table;
  - ``invariant`` -- the mutated machine breaks one of its own invariants
    (`chanspec.checks.explore.invariants.Watch`: census, hand sizes, pending seats,
    ù, priority, identity, termination) or crashes, on the hand where it diverges, or
    its written forms of deals and actions do not read back (``serialisation``, on
    every recorded hand: `_serial`);
  - ``unaccounted`` -- none of these: a decision of the code that nothing states.
  Whether the packed machine (`model/chan/packed.py`, the real one) still equals the mutated
  reference on that hand is shown too; it is not an accounting, since the packed machine
  copies the reference's decisions rather than stating them.
* **not distinguished** -- the mutated lines ran in the sampled hands and nothing
  changed (dead for these hands, or equivalent);
* **not reached** -- the sampled hands never ran the mutated lines.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import random
import signal
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.checks.audit import mutants as mut
from chanspec.checks.audit import play as pl
from chanspec.checks.explore.search import worker_ignores_sigint
from chanspec.model.chan import cards

RULESETS = ("family", "classic")
DEFAULT_PLAYERS = {"family": (4, 5), "classic": (4,)}
DEFAULT_HANDS = 30
MUTANT_SECONDS = 60  # a mutant whose hands take longer loops for ever
ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
PROPOSED = DOCS / "decisions-proposed.toml"


@dataclass
class Baseline:
    """The real machine's hands and the audited lines each ran."""

    seed: int
    hands: int
    configs: tuple[pl.Config, ...]
    played: dict[str, list[pl.Hand]] = field(default_factory=dict)
    lines: dict[str, list[set[tuple[str, int]]]] = field(default_factory=dict)
    import_lines: set[tuple[str, int]] = field(default_factory=set)
    world: Any = None

    def first_hand(self, m: mut.Mutant, files: dict[str, str]) -> dict[str, int]:
        """For each configuration whose hands ran the mutant's lines: the first such hand
        (a mutant can change nothing before it)."""
        f = files[m.module]
        mine = {(f, k) for k in range(m.line, m.end_line + 1)}
        out: dict[str, int] = {}
        for cfg in self.configs:
            if m.top_level or mine & self.import_lines:
                out[cfg.label] = 0
                continue
            for i, ls in enumerate(self.lines[cfg.label]):
                if mine & ls:
                    out[cfg.label] = i
                    break
        return out


def configs_of(rulesets: Sequence[str], players: Sequence[int] | None
               ) -> tuple[pl.Config, ...]:
    """The configurations to play: each table at the requested player counts that it
    has (its defaults when none is requested)."""
    from chanspec.model import kinds
    out = []
    for r in rulesets:
        have = set(kinds.load(r).variants)
        want = DEFAULT_PLAYERS.get(r, tuple(sorted(have))) if not players else players
        out.extend(pl.Config(r, n) for n in want if n in have)
    return tuple(out)


def baseline(configs: Sequence[pl.Config], seed: int, hands: int) -> Baseline:
    """Play the real machine's hands (the greedy player of the findings) and trace them."""
    from chanspec.checks.findings.witness import policy

    files = set(pl.audited_files().values())
    b = Baseline(seed, hands, tuple(configs))
    with pl.saved_modules():
        with pl.LineTrace(files) as tr:
            b.world = pl.build_world()
        b.import_lines = tr.lines
        for cfg in configs:
            lines: list[set[tuple[str, int]]] = []
            got = pl.play(b.world, cfg, seed, hands, choose=policy, lines=lines, files=files)
            assert isinstance(got, list)
            b.played[cfg.label] = got
            b.lines[cfg.label] = lines
    return b


# ------------------------------------------------------------------ one mutant

_B: dict[str, Any] = {}  # the baseline and the real packed machine, inherited by workers


class _Timeout(Exception):
    """A mutant whose hands ran past `MUTANT_SECONDS` (an endless loop it made)."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout(f"the mutant's hands took over {MUTANT_SECONDS} s")


def run_one(m: mut.Mutant) -> dict[str, Any]:
    """Build the mutant's world, replay the hands that ran its lines, and on a divergence
    check its invariants and the packed machine on that hand."""
    b: Baseline = _B["baseline"]
    first = b.first_hand(m, _B["files"])
    res: dict[str, Any] = {"id": m.id, "reached": sorted(first), "divergence": None}
    if not first:
        return res
    t0 = time.process_time()
    before = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(MUTANT_SECONDS)
    d: pl.Divergence | None = None
    try:
        try:
            world = pl.build_world(m)
        except Exception as exc:  # noqa: BLE001 - a mutant that breaks the import
            d = pl.Divergence(b.configs[0].label, 0, -1, "crash", None,
                              f"import: {pl._crash(exc)}", ())
            world = None
        if world is not None:
            for cfg in b.configs:
                if cfg.label not in first:
                    continue
                got = pl.play(world, cfg, b.seed, b.hands, base=b.played[cfg.label],
                              first=first[cfg.label])
                if isinstance(got, pl.Divergence):
                    d = got
                    break
        if d is not None:
            res["divergence"] = d.as_json()
            res["path"] = list(d.path)
            res["broken"] = [] if world is None else _watch(world, b, d) + _serial(world, b)
            if d.what == "crash":
                res["broken"].append("crash")
            res["packed"] = None if world is None else _packed(world, b, d)
            res["cited_b"] = [] if world is None else _cited(world, b, d)
    except _Timeout as exc:
        res["divergence"] = {"config": "?", "hand": -1, "step": -1, "what": "endless",
                             "a": None, "b": str(exc)}
        res["broken"] = ["termination"]
        res["path"] = []
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    res["cpu"] = round(time.process_time() - t0, 3)
    return res


def _hand_of(b: Baseline, d: pl.Divergence) -> pl.Hand:
    return b.played[d.config][d.hand]


def _config(b: Baseline, label: str) -> pl.Config:
    return next(c for c in b.configs if c.label == label)


def _watch(world: pl.World, b: Baseline, d: pl.Divergence) -> list[str]:
    """The invariants the mutated machine breaks on the hand where it diverges: the same
    actions as far as they stay legal, then the greedy player to the end."""
    from chanspec.checks.findings.witness import policy

    h = _hand_of(b, d)
    if d.step < 0 or h.deal == pl.STOPPED:
        return []
    rules = pl.rules_of(_config(b, d.config))
    inv = world.invariants
    try:
        st = world.game.State(rules, world.game.Deal.from_json(json.loads(h.deal)))
        w = inv.Watch(st, f"audit {d.config} hand {d.hand}")
        for code in h.actions:
            a = pl.action(world, code)
            if a not in st.legal_actions():
                break
            w.step(a)
        rng = random.Random(h.seed)
        for _ in range(pl.MAX_STEPS):
            if st.is_terminal() or not st.legal_actions():
                break
            w.step(policy(st, rng))
    except inv.Finding as f:
        return [str(f.check)]
    except Exception:  # noqa: BLE001 - the mutant crashes on its own path
        return ["crash"]
    return _records(st, b.world.game.State(rules, st.deal)._plan.fault_rows)


def _records(st: Any, fault_rows: frozenset[str]) -> list[str]:
    """What the end of a hand records, checked against what the machine means by it
    (`chanspec.checks.explore.invariants.Watch` does not look at these):

    * ``fault-rows`` -- every fault names the rows it breaks once each: rules of play
      (the restriction rows and their scope, split and no-split rows: `fault_rows`,
      taken from the real machine), then the restriction-mode row that lets the act stand;
      or, for a declined win read as a fault, that row alone.  A fault that names another
      row (the declaration, the deck, the seat order …) explains a rule of play by a row
      that is none.
    * ``win-groups`` -- the groups a win shows are the winner's cards, each card once,
      each group a chắn, a cạ or a chíu, with as many chắn (a chíu two) as it reports."""
    out = []
    ids = st.rules.rule_ids
    mode, decline = ids.get("turn.restriction_mode_rule"), ids.get("turn.decline_fault_rule")
    for f in st.faults:
        rows = list(f.get("rules", ()))
        broke = rows[:-1] if mode else rows
        if rows == [decline] or (
                len(set(rows)) == len(rows) and broke and set(broke) <= fault_rows
                and (not mode or rows[-1] == mode)):
            continue
        out.append("fault-rows")
        break
    r = st.result or {}
    if r.get("result") == "win" and "hand" in r:
        groups = [cards.parse_many(g) for g in r["hand"]]
        chan = 0
        for g in groups:
            if len(g) == 4 and len(set(g)) == 1:
                chan += 2
            elif len(g) == 2 and g[0] == g[1]:
                chan += 1
            elif not (len(g) == 2 and st.rules.is_ca(g[0], g[1])):
                chan = -1
                break
        mine = sorted(f for g in groups for f in g)
        if chan != r["chan"] or mine != sorted(st.held_faces(int(r["winner"]))):
            out.append("win-groups")
    return out


def _serial(world: pl.World, b: Baseline) -> list[str]:
    """``["serialisation"]`` when the mutated machine's own written forms do not read back
    to what they were written from, on the deals and actions of every recorded hand:
    ``Deal.from_json(deal.as_json())`` and ``Action.parse(action.code())`` (what a game
    log and a replay rely on).  A mutant that only changes these texts (the deal's JSON,
    or the code a fault names its action by) changes no rule of play; a replay of its logs
    would stop at the first line read back wrong."""
    game = world.game
    try:
        for hands in b.played.values():
            for h in hands:
                if h.deal == pl.STOPPED:
                    continue
                deal = game.Deal.from_json(json.loads(h.deal))
                if game.Deal.from_json(json.loads(json.dumps(deal.as_json()))) != deal:
                    return ["serialisation"]
                for text in h.actions:
                    a = pl.action(world, text)
                    if game.Action.parse(a.code()) != a:
                        return ["serialisation"]
    except Exception:  # noqa: BLE001 - a written form that cannot even be read back
        return ["serialisation"]
    return []


def _packed(world: pl.World, b: Baseline, d: pl.Divergence) -> bool | None:
    """Whether the real packed machine still equals the mutated reference up to the
    divergence (None: the packed machine does not play this table)."""
    pk_mod, game0 = _B["packed"], b.world.game
    rules = pl.rules_of(_config(b, d.config))
    if pk_mod.unsupported(rules) is not None or d.step < 0:
        return None
    h = _hand_of(b, d)
    try:
        pk = pk_mod.Packed(rules, [game0.Deal.from_json(json.loads(h.deal))])
        p = pk.initial(0)
        st = world.game.State(rules, world.game.Deal.from_json(json.loads(h.deal)))
        for k in range(d.step + 1):
            mine = sorted(pl.code(a) for a in st.legal_actions())
            theirs = sorted(pl.code(a) for a in pk.legal(p))
            if mine != theirs:
                return False
            if k >= len(h.actions) or st.is_terminal():
                o = st.outcome() or {}
                return pk.outcome(p) == ((o.get("result"), o.get("winner")) if o else None)
            p = pk.step(p, pl.action(b.world, h.actions[k]))
            st.apply(pl.action(world, h.actions[k]), check=False)
    except Exception:  # noqa: BLE001
        return False
    return True


def _differing(d: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The actions legal on the real machine only, and on the mutant only."""
    if d["what"] != "legal" or d["a"] is None or d["b"] is None:
        return [], []
    a, bb = set(d["a"][0]), set(d["b"][0])
    return sorted(a - bb), sorted(bb - a)


def _state_at(world: pl.World, b: Baseline, d: pl.Divergence | dict[str, Any]) -> Any:
    dd = d if isinstance(d, dict) else d.as_json()
    h = b.played[dd["config"]][dd["hand"]]
    rules = pl.rules_of(_config(b, dd["config"]))
    st = world.game.State(rules, world.game.Deal.from_json(json.loads(h.deal)))
    for code in h.actions[: max(dd["step"], 0)]:
        st.apply(pl.action(world, code), check=False)
    return st


def _rows_of(st: Any, codes: Iterable[str], world: pl.World) -> list[str]:
    out: list[str] = []
    for c in codes:
        out.extend(st.explain(pl.action(world, c)).rules)
    return out


def _fault_rows(st: Any) -> list[str]:
    return [str(r) for f in st.faults for r in f.get("rules", ())]


def _cited(world: pl.World, b: Baseline, d: pl.Divergence) -> list[str]:
    """The rows the mutated machine's explain cites for the actions that differ."""
    if d.step < 0 or d.what not in ("legal", "faults"):
        return []
    try:
        st = _state_at(world, b, d)
        if d.what == "faults":
            return list(dict.fromkeys(_fault_rows(st)))
        only_a, only_b = _differing(d.as_json())
        return list(dict.fromkeys(_rows_of(st, only_a + only_b, world)))
    except Exception:  # noqa: BLE001
        return []


def cited_real(b: Baseline, d: dict[str, Any]) -> list[str]:
    """The rows the real machine's explain cites at a divergence: for each action only
    one machine allows, and the rows of the outcome and faults when those differ."""
    if d["step"] < 0 or d["hand"] < 0:
        return []
    try:
        st = _state_at(b.world, b, d)
    except Exception:  # noqa: BLE001
        return []
    only_a, only_b = _differing(d)
    rows = _rows_of(st, only_a + only_b, b.world)
    if d["what"] == "faults":
        rows.extend(_fault_rows(st))
    elif d["what"] in ("outcome", "end"):
        rows.extend((st.outcome() or {}).get("rules", ()))
        rows.extend(_fault_rows(st))
    return list(dict.fromkeys(rows))


# ------------------------------------------------------------------ all mutants


def run(b: Baseline, ms: Sequence[mut.Mutant], jobs: int = 2,
        progress: Callable[[int, int, float], None] | None = None) -> list[dict[str, Any]]:
    """Every mutant's result, in the order of `ms` (forked workers inherit `b`)."""
    _B["baseline"] = b
    _B["files"] = pl.audited_files()
    _B["packed"] = importlib.import_module(mut.module_name("game").rsplit(".", 1)[0] + ".packed")
    out: list[dict[str, Any]] = []
    t0 = time.monotonic()
    if jobs <= 1:
        with pl.saved_modules():  # this process keeps its own machine afterwards
            for k, m in enumerate(ms):
                out.append(run_one(m))
                if progress:
                    progress(k + 1, len(ms), time.monotonic() - t0)
        return out
    ctx = multiprocessing.get_context("fork")
    # the workers leave Ctrl-C to this process and take SIGTERM (the pool's way to stop
    # them) with its default action, not the command line's handler (no tracebacks)
    # one mutant per worker process: a world left behind by one mutant must not colour
    # the next one's (a sampled run found a score mutant "deciding" after cuoc mutants
    # had run in the same worker, and deciding nothing alone)
    with ctx.Pool(jobs, initializer=worker_ignores_sigint, maxtasksperchild=1) as pool:
        for k, r in enumerate(pool.imap(run_one, ms, chunksize=1)):
            out.append(r)
            if progress:
                progress(k + 1, len(ms), time.monotonic() - t0)
    return out


def proposed() -> dict[str, dict[str, Any]]:
    """The proposed rows (`PROPOSED`): id → the row, with its ``decides``."""
    if not PROPOSED.exists():
        return {}
    data = tomllib.loads(PROPOSED.read_text(encoding="utf-8"))
    return {str(r["id"]): r for r in data.get("proposed", [])}


def row_claims(rulesets: Iterable[str]) -> dict[str, list[str]]:
    """Decision id → the rows (``table:row``) whose ``decides`` lists it."""
    from chanspec.model import kinds
    out: dict[str, list[str]] = {}
    for r in rulesets:
        for row in kinds.load(r).rows.values():
            for x in row.decides:
                out.setdefault(x, []).append(f"{r}:{row.id}")
    return out


def proposal_claims() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pid, p in proposed().items():
        for x in p.get("decides", []):
            out.setdefault(str(x), []).append(pid)
    return out


def account(b: Baseline, ms: Sequence[mut.Mutant], results: Sequence[dict[str, Any]],
            rulesets: Sequence[str]) -> dict[str, Any]:
    """The inventory: every mutant with its class, each decision with how it is
    accounted for."""
    by_row = row_claims(RULESETS)
    by_prop = proposal_claims()
    files = pl.audited_files()
    entries = []
    for m, r in zip(ms, results, strict=True):
        e: dict[str, Any] = {**m.as_json(), "file": _rel(files[m.module]),
                             "reached": r["reached"]}
        d = r.get("divergence")
        if d is None:
            e["class"] = "not distinguished" if r["reached"] else "not reached"
        else:
            e["class"] = "decision"
            e["divergence"] = d
            e["cited"] = cited_real(b, d) if d.get("hand", -1) >= 0 else []
            e["cited_mutant"] = r.get("cited_b", [])
            e["broken"] = sorted(set(r.get("broken", [])))
            e["packed_equal"] = r.get("packed")
            if m.id in by_row:
                e["accounted"], e["by"] = "row", by_row[m.id]
            elif m.id in by_prop:
                e["accounted"], e["by"] = "proposed", by_prop[m.id]
            elif e["broken"]:
                e["accounted"], e["by"] = "invariant", e["broken"]
            else:
                e["accounted"], e["by"] = "unaccounted", []
        entries.append(e)
    ids = {m.id for m in mut.mutants()}  # every mutant, not only those run
    stale = sorted(x for x in [*by_row, *by_prop] if x not in ids)
    return {"seed": b.seed, "hands": b.hands, "configs": [c.label for c in b.configs],
            "modules": list(mut.AUDITED), "summary": summary(entries),
            "stale_claims": stale, "mutants": entries}


def _rel(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return path


def summary(entries: Sequence[dict[str, Any]]) -> dict[str, int]:
    out = {"mutants": len(entries)}
    for e in entries:
        out[e["class"]] = out.get(e["class"], 0) + 1
        if e["class"] == "decision":
            k = f"accounted by {e['accounted']}"
            out[k] = out.get(k, 0) + 1
            if e.get("packed_equal") is False:
                out["packed machine disagrees"] = out.get("packed machine disagrees", 0) + 1
    return out


def unaccounted(inv: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in inv["mutants"] if e.get("accounted") == "unaccounted"]


# ------------------------------------------------------------------ files

JSON_PATH = DOCS / "decisions.json"
MD_PATH = DOCS / "decisions.md"
SHORT = 240  # characters of a result shown in the files


def _short(x: Any) -> Any:
    if x is None:
        return None
    text = x if isinstance(x, str) else json.dumps(x, ensure_ascii=False, default=str)
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def compact(inv: dict[str, Any]) -> dict[str, Any]:
    """The inventory as committed: each mutant's class, and for a decision its first
    divergence (the actions only one machine allows, or the two results, shortened)."""
    out = []
    for e in inv["mutants"]:
        c: dict[str, Any] = {"id": e["id"], "class": e["class"],
                             "where": f"{e['file']}:{e['line']}", "op": e["op"],
                             "change": f"{e['original']}  →  {e['mutated']}"}
        if e["class"] == "decision":
            d = e["divergence"]
            only_a, only_b = _differing(d)
            first = {"config": d["config"], "hand": d["hand"], "step": d["step"],
                     "what": d["what"]}
            if d["what"] == "legal":
                first["only_real"], first["only_mutant"] = only_a, only_b
            else:
                first["real"], first["mutant"] = _short(d["a"]), _short(d["b"])
            c.update(first=first, cited=e["cited"], broken=e["broken"],
                     packed_equal=e["packed_equal"], accounted=e["accounted"], by=e["by"])
        out.append(c)
    return {"about": "chanspec audit: the machine's own decisions, by mutation "
                     "(docs/decisions.md says how to read it)",
            "seed": inv["seed"], "hands": inv["hands"], "configs": inv["configs"],
            "modules": inv["modules"], "summary": inv["summary"],
            "stale_claims": inv["stale_claims"], "proposed": list(proposed().values()),
            "mutants": out}


def markdown(c: dict[str, Any]) -> str:
    """docs/decisions.md from the compact inventory."""
    s = c["summary"]
    lines = [
        "# Quyết định riêng của máy / The machine's own decisions",
        "",
        "Sinh bởi `chanspec audit --write` — đừng sửa tay. / Written by "
        "`chanspec audit --write`; do not edit.",
        "",
        "Mỗi điều kiện trong các module "
        + ", ".join(f"`{m}`" for m in c["modules"])
        + " được đổi một lần (phủ định phép so sánh, bỏ một vế của and/or, đảo nhánh if), "
        "rồi chơi các ván có hạt giống trên máy thật và máy bị đổi cùng lúc. Một thay đổi "
        "làm khác nước đi hợp lệ hay kết quả là một **quyết định**; mỗi quyết định phải "
        "được một dòng luật nêu (`decides`), một dòng đề xuất "
        "(`docs/decisions-proposed.toml`) hoặc một bất biến nội bộ giải thích. Ngoài các "
        "bất biến của máy kiểm tra, audit còn xem: ván chia và nước đi đọc lại đúng từ dạng "
        "đã ghi (`serialisation`), mỗi lỗi chỉ nêu luật đánh bài và dòng restriction-mode "
        "(`fault-rows`), các nhóm của bài ù đúng là bài của người ù với số Chắn đã báo "
        "(`win-groups`).",
        "",
        "Each condition of those modules is changed once (a comparison negated, one operand "
        "of and/or dropped, an if's branches swapped) and seeded hands are played on the "
        "real and the mutated machine in lockstep. A change that alters the legal actions "
        "or a result is a **decision**; each must be stated by a row (`decides`), by a "
        "proposed row (`docs/decisions-proposed.toml`) or be an internal invariant the "
        "mutant breaks. Besides the checker's invariants the audit checks that deals and "
        "actions read back from their written forms (`serialisation`), that every fault "
        "names rules of play and the restriction-mode row only (`fault-rows`), and that a "
        "win's groups are the winner's cards with the chắn it reports (`win-groups`).",
        "",
        f"Seed {c['seed']}, {c['hands']} hands per configuration "
        f"({', '.join(c['configs'])}), greedy player of `checks/findings/witness.py`.",
        "",
        "| | count |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v:,} |" for k, v in s.items()]
    if c["stale_claims"]:
        lines += ["", "Ids listed by rows or proposals that no mutant has any more: "
                  + ", ".join(f"`{x}`" for x in c["stale_claims"])]
    if c.get("proposed"):
        lines += ["", "## Proposed rows / dòng đề xuất", "",
                  "Not in the table yet (docs/decisions-proposed.toml); each with both "
                  "readings, the machine's first.", ""]
        for p in c["proposed"]:
            lines.append(f"* **{p['id']}** ({p['table']}, {p.get('section', '')}, "
                         f"`{p['locator']}`): {p['title_vi']} / {p['title_en']}")
            for k, v in p["readings"].items():
                lines.append(f"  * `{k}`: {v}")
            lines.append(f"  * why: {p['why']}")
            lines.append(f"  * decides: {', '.join(f'`{x}`' for x in p['decides'])}")
    dec = [m for m in c["mutants"] if m["class"] == "decision"]
    for acc, head in (("unaccounted", "Decisions nothing states yet / chưa dòng nào nêu"),
                      ("proposed", "Decisions of proposed rows / của dòng đề xuất"),
                      ("row", "Decisions stated by rows / đã có dòng nêu"),
                      ("invariant", "Internal invariants / bất biến nội bộ")):
        mine = [m for m in dec if m["accounted"] == acc]
        lines += ["", f"## {head} ({len(mine):,})", ""]
        if not mine:
            continue
        lines += ["| id | where | change | first divergence | rows explain cites | by |",
                  "|---|---|---|---|---|---|"]
        for m in mine:
            f = m["first"]
            at = f"{f['config']} hand {f['hand']} step {f['step']}: {f['what']}"
            if f["what"] == "legal":
                at += (f"; real only {_cell(' '.join(f['only_real']) or '—')}"
                       f"; mutant only {_cell(' '.join(f['only_mutant']) or '—')}")
            elif f["what"] in ("crash", "endless"):
                at += f"; {_cell(str(f['mutant']))}"
            if m["packed_equal"] is False:
                at += "; packed ≠ mutant"
            lines.append(f"| `{m['id']}` | {m['where']} | `{_cell(m['change'])}` | {at} | "
                         f"{', '.join(m['cited'][:6]) or '—'} | {', '.join(m['by']) or '—'} |")
    for cls in ("not distinguished", "not reached"):
        mine = [m for m in c["mutants"] if m["class"] == cls]
        lines += ["", f"## {cls.capitalize()} ({len(mine):,})", "",
                  ("The mutated lines ran in the sampled hands and nothing changed: dead for "
                   "these hands, or equivalent." if cls == "not distinguished" else
                   "The sampled hands never ran the mutated lines."), ""]
        by_mod: dict[str, list[str]] = {}
        for m in mine:
            by_mod.setdefault(m["where"].rsplit(":", 1)[0], []).append(
                f"{m['id'].split('/', 1)[0].split('.', 1)[1]}:{m['where'].rsplit(':', 1)[1]}")
        for f, xs in by_mod.items():
            lines.append(f"* `{f}` ({len(xs)}): " + ", ".join(xs))
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 160 else text[:159] + "…"


def write(c: dict[str, Any], folder: Path = DOCS) -> tuple[Path, Path]:
    """Write decisions.json and decisions.md into `folder`, atomically."""
    from chanspec.checks.output import write_atomic

    jp, mp = folder / JSON_PATH.name, folder / MD_PATH.name
    write_atomic(jp, json.dumps(c, ensure_ascii=False, indent=1) + "\n")
    write_atomic(mp, markdown(c))
    return jp, mp


def committed() -> dict[str, Any] | None:
    """The committed inventory (docs/decisions.json), None when there is none."""
    if not JSON_PATH.exists():
        return None
    data: dict[str, Any] = json.loads(JSON_PATH.read_text(encoding="utf-8"))
    return data


def new_unaccounted(inv: dict[str, Any], known: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The unaccounted decisions of `inv` that the committed inventory `known` does not
    already list as unaccounted, nor account for by an invariant its own (larger) run saw
    break: what a test refuses (the ones listed wait for a row, a proposal or a fix, and
    are shown in docs/decisions.md; a sample of fewer hands may miss the break)."""
    listed = {m["id"] for m in (known or {}).get("mutants", [])
              if m.get("accounted") in ("unaccounted", "invariant")}
    return [e for e in unaccounted(inv) if e["id"] not in listed]


def reaccount(c: dict[str, Any]) -> dict[str, Any]:
    """The compact inventory `c` accounted for again from today's rows (``decides``) and
    proposals, without playing anything (after a row lists a decision)."""
    by_row = row_claims(RULESETS)
    by_prop = proposal_claims()
    for m in c["mutants"]:
        if m["class"] != "decision":
            continue
        if m["id"] in by_row:
            m["accounted"], m["by"] = "row", by_row[m["id"]]
        elif m["id"] in by_prop:
            m["accounted"], m["by"] = "proposed", by_prop[m["id"]]
        elif m["broken"]:
            m["accounted"], m["by"] = "invariant", m["broken"]
        else:
            m["accounted"], m["by"] = "unaccounted", []
    c["summary"] = summary([{**m, "packed_equal": m.get("packed_equal")}
                            for m in c["mutants"]])
    ids = {m["id"] for m in c["mutants"]}
    c["stale_claims"] = sorted(x for x in [*by_row, *by_prop] if x not in ids)
    c["proposed"] = list(proposed().values())
    return c
