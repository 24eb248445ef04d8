"""``chanspec flow``: how a hand of any kind moves between decision points, drawn from
seeded random hands (`chanspec.checks.report.play_flow`), as text, DOT, Mermaid or JSON::

    chanspec flow --ruleset tan --players 3 --hands 200 --seed 0 --format mermaid
    chanspec flow --ruleset chiha --format dot --out chiha-flow.dot

Each box is a decision point of the machine (what is pending), each arrow an action kind
that took a hand from one to the other, with how often it did and the rows that allowed
it.  The seed is printed, so the same command draws the same picture.
"""

from __future__ import annotations

import argparse
import json

from chanspec.checks.cli.options import (
    add_command,
    add_common,
    non_default_options,
    positive_int,
    resolve,
)
from chanspec.checks.output import check_output_file, say, write_atomic
from chanspec.checks.report import diagrams, play_flow

FORMATS = ("text", "dot", "mermaid")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "flow",
        "sơ đồ một ván đi qua các lúc phải quyết định, vẽ từ các ván ngẫu nhiên",
        "draw how a hand moves between decision points, from seeded random hands",
        epilog=("Ví dụ / examples:\n"
                "  chanspec flow --ruleset tan --players 3\n"
                "  chanspec flow --ruleset chiha --format mermaid\n"
                "  chanspec flow --format dot --out family-flow.dot"),
    )
    p.add_argument("--hands", type=positive_int, default=200, metavar="N",
                   help="số ván ngẫu nhiên / random hands to play (default 200)")
    p.add_argument("--seed", type=int, default=0,
                   help="hạt giống: ván i chia và chọn theo hạt giống SEED+i / hand i is dealt "
                        "and played from seed SEED+i (default 0)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (mặc định / default), dot (Graphviz) hoặc / or mermaid")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="ghi vào tệp thay vì in ra / write to FILE instead of printing")
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        check_output_file(args.out)
    rules = resolve(args)
    flow = play_flow.observe(rules, args.hands, args.seed)
    if args.json:
        text = json.dumps(flow.as_json(), ensure_ascii=False) + "\n"
    else:
        g = play_flow.graph(flow)
        title = play_flow.title(flow, rules.table)
        if args.format == "dot":
            text = diagrams.to_dot(g, f"{rules.table.id} play flow",
                                   {"label": title, "labelloc": "t", "rankdir": "TB"})
        elif args.format == "mermaid":
            text = diagrams.graph_mermaid(g)
        else:
            again = (f"chanspec flow --ruleset {args.ruleset} --players {rules.players} "
                     f"--hands {args.hands} --seed {args.seed}" + "".join(
                         f" --option {k}={v}" for k, v in non_default_options(rules).items()))
            text = diagrams.graph_text(g, title) + "\n" + say(
                args.lang,
                f"{flow.ended:,} ván đến hết, {flow.cut:,} ván bị cắt sau {play_flow.CAP:,} "
                f"nước; {flow.actions:,} nước. Chạy lại: {again}",
                f"{flow.ended:,} hands played to their end, {flow.cut:,} cut after "
                f"{play_flow.CAP:,} actions; {flow.actions:,} actions. Again: {again}") + "\n"
    if args.out is not None:
        write_atomic(args.out, text)
    else:
        print(text, end="")
    return 0
