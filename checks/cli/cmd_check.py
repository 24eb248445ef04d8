"""``chanspec check``: model-check the rule table and settle its open questions.

Runs, on the family's rules by default:

1. exhaustive breadth-first searches of scaled-down configurations (checks/chan/scale.py,
   checks/explore/search.py): invariants, deadlocks, contradictions, endless play, vacuity;
   then the largest scale (chiu3) much further on the packed machine
   (checks/chan/packed_search.py, model/chan/packed.py; ``--machine packed`` everywhere);
2. the findings on every open question (checks/findings/compute.py): shortest witnesses, how
   often at full size, hand counts and Z3 questions -- reused from ``OPEN_QUESTIONS.json``
   when it was computed for this very table and these parameters, else (or with
   ``--recompute``) computed;
3. pictures (checks/report/diagrams.py).

It writes into ``--out`` (default ``out/check``): ``report.txt``, ``findings.json``, one
ITF trace (``*.itf.json``) and one scenario text per violation, and DOT/SVG pictures;
and regenerates OPEN_QUESTIONS.md and OPEN_QUESTIONS.json (not with ``--no-write``,
which only says whether they are stale): the checkout's for the built-in ``family``,
OPEN_QUESTIONS-classic.md and .json for the built-in ``classic`` (its own scales and
parameters, `findings.params_for`), ``--out``'s for a table given by path
(``--questions PATH`` chooses).

``findings.json`` (for checks/report/site.py) is::

    {"ruleset", "players", "options", "quick", "exit_code",
     "explorations": [{"scale", "label", "describe", "deals", "engine", "cap",
                       "check_every", "distinct", "generated", "depth",
                       "seconds", "states_per_second", "bytes_per_state", "complete",
                       "outcomes", "ties", "violations": [Violation.as_json + "itf",
                       "scenario"], "never_cited", "option_changes", "option_samples"}],
     "vacuity": {"words_only": [...], "unreachable": {scale: [...]}, "never_cited": [...],
                 "scoring": [...]},   # scoring: rows only [[cuoc]]/[scoring] cite, if any
     "questions": {...}, "extra": [...], "hands": {...}, "z3": {...}   # OPEN_QUESTIONS.json
     "svgs": ["flow.svg", ...], "pngs": [...], "dots": [...],
     "quotients": [{"scale", "file", "title", "groups", "edges", "level", "states",
                    "transitions", "seconds", "text"}]}

A table whose kind gives its own scaled-down games (`Kind.scales`: Tấn) is checked
through the protocol alone instead (`chanspec.checks.cli.check_protocol`: the
explorer of checks/explore/protocol_search.py, the findings of
checks/findings/protocol_findings.py, ``OPEN_QUESTIONS-<id>.md`` and ``.json``).

Exit codes: 0 nothing found, 11 deadlock, 12 invariant or contradiction, 13 endless play,
150 a table that does not load (the worst found, in the order 12, 11, 13).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

from chanspec.checks.chan import cluster, cluster_ray, packed_search, scale
from chanspec.checks.cli import check_protocol
from chanspec.checks.cli.options import (
    add_command,
    add_common,
    load_table,
    options_of,
    player_count,
    players_of,
    positive_int,
)
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import questions, scenario
from chanspec.checks.findings import render as render_mod
from chanspec.checks.output import (
    check_output_file,
    count,
    prepare_output_dir,
    say,
    write_atomic,
)
from chanspec.checks.report import diagrams
from chanspec.model import kinds
from chanspec.model import table as table_mod
from chanspec.model.chan import packed
from chanspec.model.chan.game import Deal
from chanspec.model.chan.table import Table
from chanspec.model.table import OptionError

# (scale, deals, engine, cap).  The reference machine searches each deal completely
# (chiu3 is far too large: capped); the packed machine then takes chiu3 much further.
# chiu3 comes first: its one deal is one process, which then runs beside the packed
# search (started ahead, see `run`) while the other core is busy.
PLAN_FULL = [("chiu3", 1, "reference", 60_000), ("ranks2", 20, "reference", None),
             ("chiu4", 4, "reference", None), ("five", 30, "reference", None),
             ("chiu3", 1, "packed", 1_000_000)]
PLAN_QUICK = [("ranks2", 6, "reference", None), ("chiu4", 3, "reference", None),
              ("five", 8, "reference", None), ("chiu3", 1, "packed", 60_000)]
# Classic Chắn's scales (checks/chan/scale.py, CLASSIC_SCALES); the packed machine
# does not play classic (`packed.unsupported`), so every search is the reference's.
# c-duo (too large to finish) comes first for the same reason as chiu3 above.
PLAN_CLASSIC_FULL = [("c-duo", 1, "reference", 60_000), ("c-ranks2", 20, "reference", None),
                     ("c-chiu3", 10, "reference", None), ("c-four", 20, "reference", None)]
PLAN_CLASSIC_QUICK = [("c-duo", 1, "reference", 5_000), ("c-ranks2", 4, "reference", None),
                      ("c-chiu3", 3, "reference", None), ("c-four", 4, "reference", None)]
PLANS = {"family": (PLAN_FULL, PLAN_QUICK), "classic": (PLAN_CLASSIC_FULL, PLAN_CLASSIC_QUICK)}
# how long computing the findings takes on 2 cores, by set of scales (said before it
# starts): a whole --recompute on the project's quiet 2-core machine, explorations
# included (2026-12-04: the family 3 min 17 s, classic 4 min 1 s), rounded up
MINUTES = {"family": 4, "classic": 5}
CAP_REFERENCE = 2_000_000  # states per deal
CAP_PACKED = 10_000_000  # states per search
CHECK_EVERY = 100  # packed searches: one state in this many replayed on the reference
DEAL_SEED = 1
QUOTIENT_BUDGET = 1000  # states per scale kept for the quotient graph


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "check",
        "kiểm tra bảng luật bằng máy: bế tắc, mâu thuẫn, câu hỏi còn mở",
        "model-check the rule table: deadlocks, contradictions, the open questions",
        codes=("0   không thấy gì / none found", "11  bế tắc / deadlock",
               "12  vi phạm bất biến hoặc mâu thuẫn / invariant or contradiction",
               "13  chơi mãi không hết / endless play"),
    )
    add_common(p, players=False)
    p.add_argument("--players", type=player_count, default=None, metavar="N",
                   help="chỉ các cấu hình có số người này / only scales with this many "
                        "seats (default: all)")
    p.add_argument("--quick", action="store_true",
                   help="ít ván hơn / fewer deals and states (CI)")
    p.add_argument("--recompute", action="store_true",
                   help="tính lại các phát hiện dù OPEN_QUESTIONS.json đã khớp / compute the "
                        "findings again even when OPEN_QUESTIONS.json matches the table and "
                        "its parameters (about 4 minutes on 2 cores)")
    p.add_argument("--out", default="out/check", metavar="DIR",
                   help="thư mục kết quả / output folder (default out/check)")
    p.add_argument("--seed", type=int, default=DEAL_SEED,
                   help=f"hạt giống chia bài / deal seed (default {DEAL_SEED})")
    p.add_argument("--scales", default=None, metavar="NAME=DEALS,...",
                   help="thay kế hoạch: cấu hình và số ván / override the plan, e.g. "
                        f"five=2,ranks2=4 (family scales: {', '.join(scale.SCALES)}; "
                        f"classic: {', '.join(scale.CLASSIC_SCALES)})")
    p.add_argument("--quiet", action="store_true", help="không in tiến độ / no progress")
    p.add_argument("--workers", type=int, default=explore.default_workers(),
                   help="số tiến trình / processes (default: up to 2)")
    p.add_argument("--machine", "--engine", dest="machine",
                   choices=("auto", "reference", "packed"), default="auto",
                   help="máy dùng để duyệt / which machine explores (--engine: the old name): "
                        "reference (every check "
                        "on every state, one search per deal), packed (model/chan/packed.py: "
                        "millions of states, one search for all deals, the reference "
                        "replays a sample), auto: the plan's (reference everywhere, then "
                        "packed for chiu3)")
    p.add_argument("--cap", type=positive_int, default=None, metavar="N",
                   help="giới hạn số trạng thái / state cap (per deal with the reference "
                        f"engine, default {CAP_REFERENCE:,}; per search with packed, default "
                        f"{CAP_PACKED:,}; the plan caps chiu3)")
    p.add_argument("--check-every", type=positive_int, default=CHECK_EVERY, metavar="K",
                   help="máy nén: cứ K trạng thái thì kiểm lại bằng máy tham chiếu / packed "
                        f"engine: replay one state in K on the reference (default "
                        f"{CHECK_EVERY})")
    p.add_argument("--cluster", default=None, metavar="BACKEND",
                   help="máy nén chia theo mảnh / the packed searches partitioned over shards "
                        "(checks/chan/cluster.py, same results): local (worker processes), "
                        "ray (start a local Ray cluster) or ray://HOST:PORT (join one; "
                        "pip install 'chanspec[cluster]'); default: one process")
    p.add_argument("--shards", type=positive_int, default=None, metavar="N",
                   help="số mảnh / shards of a partitioned packed search (default: --workers; "
                        "more than 1 alone means --cluster local)")
    p.add_argument("--batch", type=positive_int, default=cluster.DEFAULT_BATCH, metavar="N",
                   help="trạng thái mỗi lượt của một mảnh / frontier states a shard expands "
                        f"per round (default {cluster.DEFAULT_BATCH:,})")
    p.add_argument("--no-write", action="store_true",
                   help="không ghi OPEN_QUESTIONS.md, chỉ báo nếu đã cũ / do not rewrite "
                        "OPEN_QUESTIONS.md, only say whether it is stale")
    p.add_argument("--verify", action="store_true",
                   help="tính lại các phát hiện và so với bản đã lưu, không ghi gì; mã 1 nếu "
                        "khác / recompute the findings and compare them with the saved "
                        "OPEN_QUESTIONS.json, writing neither file; exit 1 when they differ "
                        "(implies --recompute and --no-write)")
    p.add_argument("--questions", default=None, metavar="PATH",
                   help="nơi ghi OPEN_QUESTIONS.md (và .json bên cạnh) / where to write "
                        "OPEN_QUESTIONS.md, with OPEN_QUESTIONS.json beside it (default: the "
                        "checkout's for the built-in family table, inside --out for a table "
                        "given by path)")
    p.set_defaults(func=run)


def questions_paths(args: argparse.Namespace, out: Path) -> tuple[Path, Path]:
    """Where this run's OPEN_QUESTIONS.md and .json go.  Only a built-in ruleset named by
    name writes the checkout's files by default; a table given by path writes its own
    questions inside --out, so it never overwrites the family's."""
    if args.questions:
        md = Path(args.questions)
    elif args.ruleset in table_mod.builtin_names():
        md = questions.default_path(args.ruleset)
        return md, findings.default_path(args.ruleset)
    else:
        md = out / questions.FILE_NAME
    return md, md.with_name(findings.FILE_NAME)


def _plan(args: argparse.Namespace, table: Table, opts: dict[str, str]
          ) -> list[tuple[scale.Scale, int, int, str]]:
    """(scale, deals, cap, engine) for every exploration asked for; the packed engine
    only where it plays the table (`packed.unsupported`), the reference elsewhere."""
    try:
        set_name = scale.scale_set(table)
    except scale.ScaleError as exc:
        raise OptionError(str(exc)) from None
    scales = scale.SCALE_SETS[set_name]
    full, quick = PLANS[set_name]
    plan: list[tuple[str, int, str, int | None]] = quick if args.quick else full
    if args.scales:
        plan = []
        for item in args.scales.split(","):
            name, _, n = item.partition("=")
            if name not in scales or not n.isdigit():
                raise OptionError(f"--scales {item!r}: expected NAME=DEALS with NAME one of "
                                  f"{', '.join(scales)} (the scales of table {table.id!r}), "
                                  f"e.g. {next(iter(scales))}=2")
            plan.append((name, int(n), "reference", None))
    out: list[tuple[scale.Scale, int, int, str]] = []
    for name, n, engine, cap in plan:
        sc = scales[name]
        if args.players is not None and sc.players >= 4 and sc.players != args.players:
            continue
        if args.machine != "auto":
            engine = args.machine
        if engine == "packed":
            why = packed.unsupported(scale.scaled_rules(table, sc, opts))
            if why is not None and args.machine == "packed":
                raise OptionError(f"--machine packed: the packed machine does not play table "
                                  f"{table.id!r} ({why}); use --machine reference or auto")
            if why is not None:
                engine = "reference"  # auto: the reference machine plays every table
        if engine == "packed" and n > packed_search.MAX_DEALS:
            raise OptionError(f"{name}={n}: one packed search holds at most "
                              f"{packed_search.MAX_DEALS:,} deals; ask for fewer")
        default = CAP_PACKED if engine == "packed" else CAP_REFERENCE
        item = (sc, n, args.cap or cap or default, engine)
        if not any(o[0] == sc and o[3] == engine for o in out):
            out.append(item)
    return out


# sections of a table read only once a hand is over: the score of a won hand, who pays
# whom, what carries over to the next hand (classic's [[cuoc]], [scoring], [payment],
# [session])
SCORING_SECTIONS = ("cuoc", "scoring", "payment", "session")


def _partition(args: argparse.Namespace) -> tuple[str, int, str | None] | None:
    """(back end, shards, Ray address) for the packed searches, or None: one process.
    A partitioned search gives the single process's results (checks/chan/cluster.py);
    on this project's 2 shared cores it is no faster (bench/bench_cluster.py), so
    --workers alone does not turn it on."""
    want = getattr(args, "cluster", None)
    shards = getattr(args, "shards", None)
    if want is None and (shards is None or shards == 1):
        return None
    want = want or "local"
    n = shards or max(1, args.workers)
    if want == "local":
        return "local", n, None
    if want == "ray" or want.startswith("ray://"):
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ClusterUnavailable("--cluster ray needs Ray: pip install "
                                     "'chanspec[cluster]'") from None
        return "ray", n, None if want == "ray" else want
    raise OptionError(f"--cluster {want!r}: expected local, ray or ray://HOST:PORT")


class ClusterUnavailable(OptionError):
    """--cluster ray without Ray installed (exit 2, one line)."""


def _vacuity(table: Table, results: list[explore.Result]) -> dict[str, Any]:
    played = table.rows_named_in(k for k in table.data if k not in ("rule",) + SCORING_SECTIONS)
    referenced = played | table.rows_named_in(SCORING_SECTIONS)
    # rows only the cước and the scoring cite: the checker plays hands, it never scores one
    scoring = [r for r in table.rows if r in referenced and r not in played]
    referenced = played
    words_only = [r for r in table.rows if r not in referenced and r not in scoring]
    cited: set[str] = set()
    changed: set[str] = set()
    unreachable: dict[str, list[str]] = {}
    for res in results:
        a, b = res.cited()
        cited |= a | b
        changed |= {k.split("=")[0] for k in res.option_changes()}
        unreachable[res.label] = [r for r in res.never_cited() if r in referenced and
                                  r not in {k.split("=")[0] for k in res.option_changes()}]
    never = [r for r in table.rows if r in referenced and r not in cited and r not in changed]
    out = {"words_only": words_only, "unreachable": unreachable, "never_cited": never}
    if scoring:
        out["scoring"] = scoring
    return out


def _differing_keys(committed: dict | None, fresh: dict) -> list[str]:
    """The top-level keys (and, under ``questions``, the question ids) in which two
    findings documents differ, compared as their saved JSON."""
    if committed is None:
        return ["(missing)"]
    a, b = json.loads(findings.dumps(committed)), json.loads(findings.dumps(fresh))
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        qa, qb = a.get(key), b.get(key)
        if isinstance(qa, dict) and isinstance(qb, dict):
            out += [f"{key}[{k}]" for k in sorted(set(qa) | set(qb)) if qa.get(k) != qb.get(k)]
        else:
            out.append(key)
    return out


def run(args: argparse.Namespace) -> int:
    t_start = time.perf_counter()
    table = load_table(args)
    kind = kinds.of(table)
    if kind.scales is not None:  # a kind checked through the protocol alone (Tấn)
        return check_protocol.run(args, table, kind)
    opts = options_of(args, table)
    if args.players is not None:
        players_of(table, [args.players])
    lang = args.lang
    # every output path is checked before the long work starts
    out = prepare_output_dir(args.out)
    md_path, json_path = questions_paths(args, out)
    if not args.no_write:
        check_output_file(json_path)
        check_output_file(md_path)
    text: list[str] = []

    def emit(vi: str, en: str) -> None:
        if vi.startswith("\n"):
            text.append("")
            if not args.json:
                print()
            vi, en = vi.lstrip("\n"), en.lstrip("\n")
        line = say(lang, vi, en)
        text.append(line)
        if not args.json:
            print(line, flush=True)

    emit(f"chanspec check — bảng luật {table.id} ({table.title_vi})",
         f"chanspec check — rule table {table.id} ({table.title_en})")
    if opts:
        emit(f"Tùy chọn: {opts}", f"Options: {opts}")
    results: list[explore.Result] = []
    report: dict[str, Any] = {"ruleset": table.id, "players": args.players, "options": opts,
                              "quick": args.quick, "explorations": [], "svgs": [], "pngs": [],
                              "dots": []}
    graph_doc: tuple[Any, str] | None = None
    quotients: dict[str, tuple[diagrams.Quotient, str]] = {}
    plan = _plan(args, table, opts)
    part = _partition(args)
    # A packed search is one process: with more than one worker it runs beside the
    # reference explorations from the start (its progress lines are labelled) instead of
    # leaving the other cores idle at the end.
    ahead: dict[int, Any] = {}
    with contextlib.ExitStack() as stack:
        if args.workers > 1 and len(plan) > 1 and part is None:
            for k, (sc, n_deals, cap, engine) in enumerate(plan):
                if engine != "packed":
                    continue
                if not ahead:
                    pool = stack.enter_context(multiprocessing.get_context("fork").Pool(
                        1, initializer=explore.worker_ignores_sigint))
                rules = scale.scaled_rules(table, sc, opts)
                ahead[k] = pool.apply_async(packed_search.search, (
                    rules, scale.deals(rules, n_deals, args.seed)), dict(
                    cap=cap, check_every=args.check_every, label=f"{sc.name}-packed",
                    progress=packed_search.TLCProgress(f"{sc.name}-packed",
                                                       quiet=args.quiet)))
        for k, (sc, n_deals, cap, engine) in enumerate(plan):
            rules = scale.scaled_rules(table, sc, opts)
            deals = scale.deals(rules, n_deals, args.seed)
            label = sc.name if engine == "reference" else f"{sc.name}-packed"
            emit(f"\n== Cấu hình {label}: {sc.vi}; {len(deals)} ván chia (hạt giống {args.seed})",
                 f"\n== Scale {label}: {sc.en}; {count(len(deals), 'deal')} (seed {args.seed})")
            emit(f"Đang tính trạng thái ban đầu... {len(deals)} trạng thái phân biệt.",
                 f"Finished computing initial states: {count(len(deals), 'distinct state')} "
                 "generated.")
            if engine == "packed":
                emit(f"Máy nén (model/chan/packed.py): một lần duyệt cho mọi ván, tối đa {cap:,} "
                     f"trạng thái; cứ {args.check_every} trạng thái thì đi lại bằng máy tham "
                     "chiếu.",
                     f"Packed machine (model/chan/packed.py): one search for all deals, up to "
                     f"{cap:,} states; one state in {args.check_every} replayed on the "
                     "reference.")
                if part is not None:
                    try:
                        res = cluster.search(
                            rules, deals, shards=part[1], backend=part[0], address=part[2],
                            cap=cap, check_every=args.check_every, label=label,
                            batch=args.batch,
                            progress=packed_search.TLCProgress(label, quiet=args.quiet))
                    except cluster_ray.ClusterError as exc:
                        raise ClusterUnavailable(str(exc)) from None
                else:
                    res = ahead[k].get() if k in ahead else packed_search.search(
                        rules, deals, cap=cap, check_every=args.check_every, label=label,
                        progress=packed_search.TLCProgress(label, quiet=args.quiet))
            else:
                prog = explore.Progress(sc.name, quiet=args.quiet)
                res = explore.explore(rules, deals, label=sc.name, workers=args.workers,
                                      progress=prog, cap=cap)
            results.append(res)
            if sc.name not in quotients:
                quotients[sc.name] = _quotient(rules, deals[0], sc.name)
            if graph_doc is None and sc.exhaustive:
                g = explore.explore_deal(rules, _smallest(rules, deals), 0, graph_limit=400,
                                         alts=[])
                graph_doc = (g, sc.name)
            per_vi, per_en = ("", "") if engine == "packed" else ("/ván", "/deal")
            done = "xong" if res.complete else f"DỪNG ở giới hạn {cap:,} trạng thái{per_vi}"
            done_en = "complete" if res.complete else f"STOPPED at the {cap:,} states{per_en} cap"
            emit(f"Kiểm tra mô hình {done}.", f"Model checking {done_en}.")
            if res.complete:
                emit(f"{res.generated:,} trạng thái sinh ra, {res.distinct:,} trạng thái phân "
                     f"biệt, 0 trạng thái còn trong hàng đợi.",
                     f"{res.generated:,} states generated, {res.distinct:,} distinct states found, "
                     f"0 states left on queue.")
                emit(f"Độ sâu của đồ thị trạng thái: {res.depth}.",
                     f"The depth of the complete state graph search is {res.depth}.")
            else:
                emit(f"{res.generated:,} trạng thái sinh ra, {res.distinct:,} trạng thái phân "
                     f"biệt; dừng ở giới hạn {cap:,}{per_vi}: các trạng thái còn chờ trong hàng "
                     "đợi chưa được duyệt (--cap N để nâng giới hạn).",
                     f"{res.generated:,} states generated, {res.distinct:,} distinct states found; "
                     f"stopped at the {cap:,}-state cap{per_en}: the states still on the queue "
                     "were not explored (raise it with --cap N).")
                emit(f"Độ sâu đã tới trước khi dừng: {res.depth}.",
                     f"The depth reached before the cap is {res.depth} (the search is "
                     "incomplete).")
            emit(f"{res.states_per_second:,.0f} trạng thái/giây ({res.workers} tiến trình; "
                 f"{res.states_per_core_second:,.0f}/giây mỗi lõi), {res.bytes_per_state:.0f} byte "
                 f"mỗi trạng thái lưu, {res.seconds:.1f} giây.",
                 f"{res.states_per_second:,.0f} distinct states/s ({count(res.workers, 'worker')}; "
                 f"{res.states_per_core_second:,.0f}/s per core), {res.bytes_per_state:.0f} bytes "
                 f"per stored state, {res.seconds:.1f}s.")
            oc = res.outcomes()
            emit(f"Kết thúc: ù {oc.get('win', 0):,}, hòa {oc.get('draw', 0):,}, kẹt "
                 f"{oc.get('stuck', 0):,}; tranh quyền ngang nhau {res.ties()[0]:,}.",
                 f"Ends: win {oc.get('win', 0):,}, draw {oc.get('draw', 0):,}, stuck "
                 f"{oc.get('stuck', 0):,}; claim ties {res.ties()[0]:,} (settled by "
                 f"{rules.rid('claims.tie_break_rule')}).")
            ex: dict[str, Any] = {
                "scale": sc.name, "label": label, "describe": sc.describe(),
                "deals": len(deals), "engine": engine, "cap": cap,
                "check_every": args.check_every if engine == "packed" else 1,
                "deal_seed": args.seed, "distinct": res.distinct, "generated": res.generated,
                "depth": res.depth, "seconds": round(res.seconds, 2),
                "states_per_second": round(res.states_per_second),
                "states_per_core_second": round(res.states_per_core_second),
                "bytes_per_state": round(res.bytes_per_state, 1), "complete": res.complete,
                "outcomes": oc, "ties": res.ties()[0], "violations": [],
                "never_cited": res.never_cited(), "option_changes": res.option_changes(),
                "option_samples": res.option_samples()}
            for v in res.violations():
                ex["violations"].append(_write_violation(out, sc, label, rules, deals[v.deal], v,
                                                         emit, lang))
            report["explorations"].append(ex)
    code = 0
    for k in explore.EXIT_ORDER:
        if any(v.kind == k for r in results for v in r.violations()):
            code = explore.KIND_EXIT[k]
            break
    vac = _vacuity(table, results)
    report["vacuity"] = vac
    emit("\n== Luật không bao giờ được dùng ở các cấu hình thu nhỏ (vacuity)",
         "\n== Rules never used at the scaled-down configurations (vacuity)")
    emit(f"Chỉ có trong lời (máy không có vai trò nào dẫn chiếu): {', '.join(vac['words_only'])}",
         f"Words only (no role of the machine cites them): {', '.join(vac['words_only'])}")
    emit(f"Không bao giờ tác động ở mọi cấu hình: {', '.join(vac['never_cited']) or '—'}",
         f"Never acted at any scale: {', '.join(vac['never_cited']) or '—'}")
    if vac.get("scoring"):
        emit(f"Chỉ dùng để tính cước và điểm (máy kiểm tra không tính điểm ván nào): "
             f"{', '.join(vac['scoring'])}",
             f"Scoring only (the checker plays hands, it scores none): "
             f"{', '.join(vac['scoring'])}")
    for name, rows in vac["unreachable"].items():
        emit(f"  {name}: không tới được: {', '.join(rows) or '—'}",
             f"  {name}: unreachable: {', '.join(rows) or '—'}")
    # findings and OPEN_QUESTIONS
    digest = findings.table_digest(table)
    params = findings.params_for(table)
    minutes = MINUTES.get(scale.scale_set(table), 5)
    # The findings are a function of the table's data, the checker's parameters and the
    # machine; saved ones are keyed by the first two: this run's own file, else the
    # checkout's (whose agreement with the machine the test suite checks by recomputing
    # it, tests/test_findings_fresh.py).  --recompute computes them anyway.
    saved = findings.default_path(table.id) if table.id in table_mod.builtin_names() else None
    cached = next((doc for doc in (findings.load(json_path), findings.load(saved))
                   if doc is not None and doc.get("table_digest") == digest
                   and doc.get("params") == params), None)
    if args.verify:
        args.recompute = args.no_write = True
    committed = findings.load(json_path) if args.verify else None
    if cached is not None and not args.recompute:
        doc = cached
        emit(f"\n== Câu hỏi còn mở: dùng lại {json_path.name} (tính cho đúng bảng luật và "
             f"tham số này; --recompute để tính lại, khoảng {minutes} phút)",
             f"\n== Open questions: reusing {json_path.name} (computed for this very table "
             f"and these parameters; --recompute computes them again, about {minutes} "
             "minutes)")
    else:
        emit(f"\n== Câu hỏi còn mở: đang tính (khoảng {minutes} phút trên 2 lõi)",
             f"\n== Open questions: computing (about {minutes} minutes on 2 cores)")
        doc = findings.compute(table, workers=args.workers,
                               say=(lambda s: None) if args.quiet or args.json else
                               (lambda s: print(f"  {s}", file=sys.stderr, flush=True)))
    assert doc is not None
    if args.verify:
        differ = _differing_keys(committed, doc)
        report["verify"] = {"file": str(json_path), "equal": not differ, "differ": differ}
        if committed is None:
            emit(f"Không có {json_path} để so", f"No {json_path} to compare with")
        elif differ:
            emit(f"{json_path} khác kết quả tính lại ở: {', '.join(differ)}. Chạy: chanspec "
                 f"check --ruleset {table.id} --recompute, rồi commit",
                 f"{json_path} differs from a fresh computation in: {', '.join(differ)}. "
                 f"Run: chanspec check --ruleset {table.id} --recompute, and commit")
        else:
            emit(f"{json_path} đúng bằng kết quả tính lại",
                 f"{json_path} equals a fresh computation")
    _summarise_questions(doc, emit)
    md = render_mod.render(table, doc)
    if args.no_write:
        current = md_path.read_text(encoding="utf-8") if md_path.exists() else None
        if current != md:
            emit(f"{md_path} đã cũ. Chạy: chanspec check", f"{md_path} is stale. Run: "
                 "chanspec check")
    else:
        write_atomic(json_path, findings.dumps(doc))
        write_atomic(md_path, md)
        emit(f"Đã ghi {md_path} và {json_path.name}", f"Wrote {md_path} and {json_path.name}")
    report.update({k: doc.get(k) for k in ("questions", "extra", "hands", "z3", "ends")})
    # pictures
    pics = [("flow", diagrams.flow_dot(table))]
    if graph_doc is not None:
        g, name = graph_doc
        div = [len(v.path) for v in g.violations.values()]
        assert g.graph is not None
        pics.append((f"states-{name}", diagrams.state_graph_dot(
            g.graph, f"{name}: ván nhỏ nhất / smallest deal", div)))
    report["quotients"] = []
    for name, (qg, title) in quotients.items():
        pics.append((f"quotient-{name}", diagrams.quotient_dot(qg, title)))
        report["quotients"].append({
            "scale": name, "file": f"quotient-{name}.svg", "title": title,
            "groups": len(qg.nodes), "edges": len(qg.edges), "level": qg.level,
            "states": qg.concrete_states, "transitions": qg.concrete_edges,
            "seconds": round(qg.seconds, 3), "text": diagrams.quotient_text(qg, title)})
        emit(f"Đồ thị thương {name}: {len(qg.nodes)} nhóm cho {qg.concrete_states:,} trạng "
             f"thái ({qg.seconds:.2f} giây)",
             f"Quotient graph {name}: {len(qg.nodes)} groups for {qg.concrete_states:,} "
             f"states ({qg.seconds:.2f}s)")
    from chanspec.checks.findings import divergence

    for rid, q in (doc.get("questions") or {}).items():
        if q.get("witness") and rid in table.rows and table.rows[rid].is_choice:
            pic = divergence.picture(table, q["witness"])
            pics.append((f"diverge-{rid}", diagrams.divergence_dot(
                pic, f"{rid}: nơi các cách hiểu tách ra / where the readings part")))
    for rid, q in (doc.get("questions") or {}).items():
        if q.get("witness"):
            pics.append((f"witness-{rid}", diagrams.scenario_dot(q["witness"]["steps"], rid)))
    for e in doc.get("extra") or []:
        pics.append((f"witness-{e['id']}", diagrams.scenario_dot(e["witness"]["steps"],
                                                                  e["id"])))
    drawn = diagrams.have_dot()
    for name, dot in pics:
        try:
            written = diagrams.write(dot, out / f"{name}.dot", ("svg", "png"))
        except diagrams.RenderError as exc:
            emit(f"Không vẽ được {name}: {exc}", f"Could not draw {name}: {exc}")
            written, drawn = [out / f"{name}.dot"], False
        for p in written:
            key = {".svg": "svgs", ".png": "pngs"}.get(p.suffix, "dots")
            report[key].append(p.name)
    if not diagrams.have_dot():
        emit(*diagrams.HOW_TO_GET_DOT)
    fmts = ", SVG, PNG" if drawn else ""
    emit(f"\nĐã ghi {len(pics)} hình vào {out}/ (DOT{fmts})",
         f"\nWrote {len(pics)} pictures to {out}/ (DOT{fmts})")
    if args.verify and not report["verify"]["equal"] and code == 0:
        code = 1
    report["exit_code"] = code
    report["seconds"] = round(time.perf_counter() - t_start, 1)
    verdict = {0: ("Không tìm thấy lỗi.", "No error has been found."),
               11: ("Lỗi: bế tắc (deadlock).", "Error: Deadlock reached."),
               12: ("Lỗi: vi phạm bất biến hoặc mâu thuẫn.",
                    "Error: Invariant violated or contradiction."),
               13: ("Lỗi: ván có thể kéo dài mãi.", "Error: endless play.")}[code]
    emit(f"\n{verdict[0]} Mã thoát {code}. Tổng thời gian {report['seconds']} giây.",
         f"\n{verdict[1]} Exit code {code}. Total {report['seconds']}s.")
    write_atomic(out / "findings.json", json.dumps(report, ensure_ascii=False, indent=1,
                                                   default=str) + "\n")
    write_atomic(out / "report.txt", "\n".join(text) + "\n")
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1, default=str))
    return code


def _quotient(rules: Any, deal: Deal, name: str) -> tuple[diagrams.Quotient, str]:
    """The quotient graph of the first `QUOTIENT_BUDGET` states of one deal (the same
    search as above, with the graph kept; every other option value tried on one state in
    four to find where the readings part)."""
    g = explore.explore_deal(rules, deal, 0, cap=QUOTIENT_BUDGET, graph_limit=QUOTIENT_BUDGET,
                             sample_every=4, explain_every=10**9)
    assert g.graph is not None
    title = (f"{name}: đồ thị thương, ván đầu tiên / quotient graph, first deal "
             f"({g.distinct:,} trạng thái / states{'' if g.complete else ', capped'})")
    return diagrams.quotient(g.graph), title


def _smallest(rules: Any, deals: list[Deal]) -> Deal:
    """The deal with the fewest states (for a readable picture)."""
    sizes = [(explore.explore_deal(rules, d, i, alts=[], explain_every=10**9,
                                   sample_every=10**9, cap=400).distinct, i)
             for i, d in enumerate(deals[:6])]
    return deals[min(sizes)[1]]


def _write_violation(out: Path, sc: scale.Scale, label: str, rules: Any, deal: Deal,
                     v: explore.Violation, emit: Any, lang: str) -> dict[str, Any]:
    from chanspec.checks.conform import itf

    base = f"{label}-{v.kind}-{v.what}"
    doc = itf.trace(rules, deal, v.path, description=f"{v.en} (scale {label})",
                    source="chanspec check",
                    meta={"violation": v.as_json(), "scale": sc.describe()})
    itf.write(out / f"{base}.itf.json", doc)
    steps = scenario.narrate(rules, deal, v.path)
    write_atomic(out / f"{base}.txt", "\n".join(scenario.lines(steps, lang)) + "\n")
    kind_vi = {"deadlock": "Bế tắc", "invariant": "Vi phạm bất biến",
               "contradiction": "Mâu thuẫn", "endless": "Chơi mãi"}[v.kind]
    emit(f"Lỗi: {kind_vi} ({v.what}) sau {v.depth} bước — {v.vi}",
         f"Error: {v.kind} ({v.what}) after {count(v.depth, 'step')} — {v.en}")
    emit("Tình huống ngắn nhất:", "The shortest behaviour leading to it:")
    for s in steps:
        emit(f"  {s.index}. {s.vi}", f"  {s.index}. {s.en}")
    emit(f"  vết ITF: {out / (base + '.itf.json')}",
         f"  ITF trace: {out / (base + '.itf.json')}")
    return {**v.as_json(), "itf": f"{base}.itf.json", "scenario": [s.as_report() for s in steps]}


def _summarise_questions(doc: dict[str, Any], emit: Any) -> None:
    for rid, q in (doc.get("questions") or {}).items():
        w = q.get("witness")
        if w is None:
            emit(f"  {rid}: không có tình huống nào làm các giá trị khác nhau",
                 f"  {rid}: no scenario where the values differ")
        else:
            emit(f"  {rid}: {w['value_a']} ≠ {w['value_b']} sau {len(w['path'])} bước "
                 f"(cấu hình {w['scale']})",
                 f"  {rid}: {w['value_a']} ≠ {w['value_b']} after {count(len(w['path']), 'step')} "
                 f"(scale {w['scale']})")
