"""``chanspec serve``: the reference machine as an engine speaking the driver protocol.

Reads JSON requests on standard input, one per line, and answers on standard output
(vectors/PROTOCOL.md).  Use it to try a harness, or as ``--impl "chanspec serve"``.
"""

from __future__ import annotations

import argparse

from chanspec.checks.cli.options import add_command
from chanspec.checks.conform import kind_engine, refengine


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "serve",
        "chạy máy tham chiếu như một engine qua stdin/stdout (JSON từng dòng)",
        "run the reference machine as an engine over stdin/stdout (JSON lines)",
        epilog="Giao thức / protocol: vectors/PROTOCOL.md.",
    )
    p.add_argument("--ruleset", default=None, metavar="NAME|PATH",
                   help="bảng luật duy nhất ngoài các bảng có sẵn mà lệnh start được nêu (máy "
                        "không bao giờ mở tệp do yêu cầu nêu) / the one table besides the "
                        "built-in ones that a start request may name, by its id or this path "
                        "(the engine never opens a file a request names); checked first "
                        "that the machine plays it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = None
    if args.ruleset is not None:
        from chanspec.model import kinds

        table = kinds.load(args.ruleset)
        table.require_playable()
    return refengine.serve(session=kind_engine.ServeSession(table))
