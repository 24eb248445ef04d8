"""``chanspec serve``: the reference machine as an engine speaking the driver protocol.

Reads JSON requests on standard input, one per line, and answers on standard output
(vectors/PROTOCOL.md).  Use it to try a harness, or as ``--impl "chanspec serve"``.
"""

from __future__ import annotations

import argparse

from chanspec.checks.cli.options import add_command
from chanspec.checks.conform import refengine


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "serve",
        "chạy máy tham chiếu như một engine qua stdin/stdout (JSON từng dòng)",
        "run the reference machine as an engine over stdin/stdout (JSON lines)",
        epilog="Giao thức / protocol: vectors/PROTOCOL.md.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return refengine.serve()
