"""``chanspec explore``: Hypothesis exploration and a random-simulation campaign.

    chanspec explore --profile ci|deep --seed N [--players 4|5] [--games N]
                     [--option k=v ...] [--save DIR] [--json]

Two passes over the reference machine, both seeded by N and both checking every invariant
of `chanspec.checks.explore.invariants` after every step:

1. the Hypothesis `RuleBasedStateMachine` of `chanspec.checks.explore.stateful` (the profile
   sets how many games and steps), which shrinks any failure to a minimal action list;
2. an OpenSpiel-style campaign of ``--games`` seeded random games (default: 200 for ci,
   5000 for deep).

It prints TLC-like counts (games, steps, distinct states, deepest game, outcomes, claims)
and any finding with its replayable action list.  Two kinds of finding:

* machine findings: a violated invariant (exit code 1);
* rules findings: positions where the rules themselves leave nobody a legal move (they
  are properties of the family's text and the options, not bugs; exit code 0).

``--save DIR`` writes each finding as a state file that ``chanspec explain`` reads.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from chanspec.checks.cli.options import (
    add_command,
    add_preset,
    load_table,
    options_of,
    player_count,
    players_of,
)
from chanspec.checks.explore import simulate, stateful
from chanspec.checks.explore.invariants import STUCK_BANS, STUCK_EMPTY, Finding
from chanspec.checks.output import count, prepare_output_dir, say, write_atomic

DEFAULT_GAMES = {"ci": 200, "deep": 5000}
RULES_FINDINGS = {
    STUCK_BANS: ("mọi quân trên tay người phải đánh đều bị cấm đánh (stuck-discard=as-written)",
                 "every card of the player who must discard is banned from discard "
                 "(stuck-discard=as-written)"),
    STUCK_EMPTY: ("người phải đánh (sau khi ăn hay Chíu) không còn quân nào trên tay; văn bản "
                  "không nói phải làm gì",
                  "the player who must discard (after eating or a chíu) has no concealed card "
                  "left; the text does not say what happens"),
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "explore",
        "khám phá máy trạng thái bằng Hypothesis và mô phỏng ngẫu nhiên",
        "explore the state machine with Hypothesis and random simulation",
        epilog=("Ví dụ / example:\n"
                "  chanspec explore --profile ci --seed 1\n"
                "  chanspec explore --profile deep --seed 7 --players 5 --games 20000"),
        codes=("0   không thấy lỗi / nothing found", "1   có phát hiện / a finding"),
    )
    p.add_argument("--profile", choices=("ci", "deep"), default="ci",
                   help="ci: nhanh; deep: lâu / ci: quick (default); deep: long campaign")
    p.add_argument("--seed", type=int, default=0, help="hạt giống / seed (default 0)")
    p.add_argument("--players", type=player_count, default=None, metavar="N",
                   help="chỉ số người này / only this player count (default: every variant "
                        "of the table)")
    p.add_argument("--games", type=int, default=None,
                   help="số ván mô phỏng / random games (default 200 ci, 5000 deep)")
    add_preset(p)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="cố định một tuỳ chọn (mặc định: mọi giá trị) / fix an option "
                        "(default: every value is explored)")
    p.add_argument("--no-hypothesis", action="store_true",
                   help="bỏ qua phần Hypothesis / skip the Hypothesis pass")
    p.add_argument("--save", metavar="DIR",
                   help="ghi mỗi phát hiện thành tệp trạng thái / write each finding as a "
                        "state file for chanspec explain")
    p.add_argument("--ruleset", default="family", help="bộ luật / rule table (default family)")
    p.add_argument("--json", action="store_true", help="in JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="vi (mặc định, kèm tiếng Anh) hoặc en / vi (default) or en")
    p.set_defaults(func=run)


def _finding_json(f: Finding, origin: str) -> dict[str, Any]:
    return {"origin": origin, **f.as_json()}


def run(args: argparse.Namespace) -> int:
    if args.games is not None and args.games < 0:
        print(say(args.lang, "--games phải ≥ 0", "--games must be >= 0"), file=sys.stderr)
        return 2
    if args.save:
        prepare_output_dir(args.save)  # before the long run, not after it
    table = load_table(args)
    opts = options_of(args, table)
    players = players_of(table, [args.players] if args.players else None)
    games = DEFAULT_GAMES[args.profile] if args.games is None else args.games
    t0 = time.perf_counter()
    machine_findings: list[dict[str, Any]] = []
    rules_findings: dict[str, dict[str, Any]] = {}
    hyp: dict[str, Any] | None = None
    if not args.no_hypothesis:
        cls, f = stateful.run(args.profile, args.seed, players, opts or None)
        hyp = {"profile": args.profile, **stateful.PROFILES[f"chanspec-{args.profile}"],
               "stats": cls.stats.as_json()}
        if f is not None:
            machine_findings.append(_finding_json(f, "hypothesis"))
        for kind, acts in cls.rules_findings.items():
            rules_findings[kind] = {"origin": "hypothesis", "actions": acts}
    t1 = time.perf_counter()
    camp = simulate.campaign(args.seed, games, table=table, players=players,
                             options=opts or None)
    t2 = time.perf_counter()
    machine_findings += [_finding_json(f, "simulation") for f in camp.findings]
    for kind, info in camp.rules_findings.items():
        old = rules_findings.get(kind)
        if old is None or "state" not in old or len(info["actions"]) < len(old["actions"]):
            rules_findings[kind] = {"origin": "simulation", **info}
    result = {
        "seed": args.seed, "profile": args.profile, "players": list(players),
        "options": opts, "hypothesis": hyp,
        "simulation": {"games": games, "stats": camp.stats.as_json(),
                       "seconds": round(t2 - t1, 2)},
        "hypothesis_seconds": round(t1 - t0, 2),
        "machine_findings": machine_findings,
        "rules_findings": rules_findings,
        "replay": rerun_command(args),
    }
    if args.save:
        _save(Path(args.save), result)
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render(result, args.lang))
    return 1 if machine_findings else 0


def rerun_command(args: argparse.Namespace) -> str:
    """The command that repeats this run exactly: every flag that was given (the seed and
    profile always), quoted for a POSIX shell."""
    parts = ["chanspec", "explore", "--profile", args.profile, "--seed", str(args.seed)]
    if args.players:
        parts += ["--players", str(args.players)]
    if args.games is not None:
        parts += ["--games", str(args.games)]
    if getattr(args, "preset", None):
        parts += ["--preset", args.preset]
    for item in args.option:
        parts += ["--option", item]
    if args.no_hypothesis:
        parts.append("--no-hypothesis")
    if args.ruleset != "family":
        parts += ["--ruleset", args.ruleset]
    if args.save:
        parts += ["--save", args.save]
    if args.json:
        parts.append("--json")
    if args.lang != "vi":
        parts += ["--lang", args.lang]
    return shlex.join(parts)


def _save(folder: Path, result: dict[str, Any]) -> None:
    prepare_output_dir(folder)
    for i, f in enumerate(result["machine_findings"], start=1):
        write_atomic(folder / f"machine-{i}-{f['check']}.json",
                     json.dumps(f["state"], ensure_ascii=False, indent=1) + "\n")
    for kind, f in result["rules_findings"].items():
        if "state" in f:
            write_atomic(folder / f"rules-{kind}.json",
                         json.dumps(f["state"], ensure_ascii=False, indent=1) + "\n")


def _counts(stats: dict[str, Any], lang: str) -> list[str]:
    outs = ", ".join(f"{k} {v}" for k, v in stats["outcomes"].items()) or "—"
    claims = ", ".join(f"{k} {v}" for k, v in stats["claims_applied"].items()) or "—"
    return [
        say(lang, f"{stats['games']} ván xong, {stats['steps']} bước (trạng thái sinh ra), "
            f"{stats['distinct_states']} trạng thái khác nhau, ván dài nhất {stats['max_depth']} "
            "nước", f"{count(stats['games'], 'hand')} finished, {count(stats['steps'], 'step')} "
            f"(states generated), {count(stats['distinct_states'], 'distinct state')}, "
            f"deepest hand {count(stats['max_depth'], 'move')}", "    "),
        say(lang, f"kết cục: {outs}", f"outcomes: {outs}", "    "),
        say(lang, f"{stats['windows_resolved']} lần xét quân ở cửa; nhận: {claims}",
            f"{count(stats['windows_resolved'], 'claim window')} resolved; applied: {claims}",
            "    "),
    ]


def render(r: dict[str, Any], lang: str) -> str:
    out = [say(lang, f"chanspec explore — hạt giống {r['seed']}, hồ sơ {r['profile']}, "
               f"{'/'.join(str(p) for p in r['players'])} người",
               f"chanspec explore — seed {r['seed']}, profile {r['profile']}, "
               f"{'/'.join(str(p) for p in r['players'])} players")]
    if r["hypothesis"] is not None:
        h = r["hypothesis"]
        out.append(say(lang, f"1. Hypothesis (RuleBasedStateMachine): {h['max_examples']} ví dụ "
                       f"× tối đa {h['stateful_step_count']} bước, {r['hypothesis_seconds']} giây",
                       f"1. Hypothesis (RuleBasedStateMachine): {h['max_examples']} examples × "
                       f"up to {h['stateful_step_count']} steps, {r['hypothesis_seconds']} s"))
        out += _counts(h["stats"], lang)
    s = r["simulation"]
    out.append(say(lang, f"2. Mô phỏng ngẫu nhiên: {s['games']} ván, {s['seconds']} giây",
                   f"2. Random simulation: {count(s['games'], 'game')}, {s['seconds']} s"))
    out += _counts(s["stats"], lang)
    out.append("")
    if r["machine_findings"]:
        out.append(say(lang, f"LỖI CỦA MÁY: {len(r['machine_findings'])} bất biến bị vi phạm",
                       f"MACHINE FINDINGS: {len(r['machine_findings'])} invariant(s) violated"))
        for f in r["machine_findings"]:
            out.append(f"  [{f['origin']}] [{f['check']}] {f['detail']}")
            out.append(f"    {f['game']}")
            out.append("    replay: " + json.dumps(f["actions"]))
    else:
        out.append(say(lang, "Không có lỗi của máy: mọi bất biến đều đúng ở mọi bước.",
                       "No machine finding: every invariant held at every step."))
    if r["rules_findings"]:
        out.append(say(lang, "Phát hiện về luật (không phải lỗi của máy):",
                       "Rules findings (properties of the rules, not machine faults):"))
        for kind, f in r["rules_findings"].items():
            vi, en = RULES_FINDINGS.get(kind, (kind, kind))
            shortest = len(f["actions"])
            out.append(say(lang, f"- {kind}: {vi}; ví dụ ngắn nhất {shortest} nước",
                           f"- {kind}: {en}; shortest example {count(shortest, 'move')}", "  "))
            if "game" in f:
                out.append(f"      {f['game']}, {f['players']}p")
            out.append("      replay: " + json.dumps(f["actions"]))
    out.append(say(lang, f"Chạy lại: {r['replay']}", f"Rerun: {r['replay']}"))
    return "\n".join(out) + "\n"
