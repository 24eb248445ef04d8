"""``chanspec play``: a whole random hand, told in Vietnamese (or English), or as NDJSON.

    chanspec play --players 5 --seed 7 [--option k=v ...] [--policy eager|uniform]
                  [--opener N | --drawer N] [--lang en] [--json] [--out FILE]

Under a table with the dealing ritual (classic: ``[cai]``) the opener is not given: the
cái card turned up by chance, counted from the seat that draws it (``--drawer``), names
it, and the story's first lines say which card and why that seat opens.

The deal comes from the seed (the chance step) and so do the players' random choices;
the same command always tells the same hand.  ``--json`` writes a game log, one JSON
object per line (the project's log format, `chanspec.checks.conform.logs`): a ``header`` line
(format, ruleset, players, options, the deal, and the seed as ``x-seed``), then every
action followed by its consequences (draws, groups laid down, cards passed on or dead,
declined wins, bans), and the ``end`` line.  ``chanspec explain FILE --seat N`` reads it back.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chanspec.checks.cli.options import add_command, add_common, non_default_options, resolve
from chanspec.checks.output import check_output_file, say, write_atomic
from chanspec.checks.report import narrate
from chanspec.model import cai, cards


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "play",
        "kể lại một ván ngẫu nhiên từ đầu đến cuối, theo luật của bảng",
        "narrate a whole random hand under the table's rules",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec play --players 5 --seed 7\n"
            "  chanspec play --players 4 --seed 3 --option lao-thang=off --lang en\n"
            "  chanspec play --players 5 --seed 7 --json > game.ndjson\n"
            "  chanspec explain game.ndjson --seat 2"
        ),
    )
    p.add_argument("--seed", type=int, default=0,
                   help="hạt giống của ván (chia bài và các lựa chọn) / seed of the hand "
                        "(deal and choices), default 0")
    p.add_argument("--opener", type=int, default=0,
                   help="người mở đầu / the opener's seat (default 0)")
    p.add_argument("--drawer", type=int, default=None,
                   help="người bốc cái (bảng có bốc cái, vd. classic): quân cái chọn người mở "
                        "đầu / the seat that draws the cái card (tables with the dealing "
                        "ritual, e.g. classic): the cái card picks the opener (default: the "
                        "table's first-hand reading, seat 0)")
    p.add_argument("--policy", choices=narrate.POLICIES, default="eager",
                   help="cách chơi ngẫu nhiên: eager ưu tiên ù/Chíu/ăn, uniform chọn đều / "
                        "random play: eager prefers wins and claims (default), uniform picks "
                        "any legal action")
    p.add_argument("--out", metavar="FILE",
                   help="ghi ra tệp thay vì in / write to FILE (atomically) instead of stdout")
    add_common(p)
    p.set_defaults(func=run)


def log_lines(rules: Any, deal: Any, actions: Any, seed: int) -> list[dict[str, Any]]:
    from chanspec.checks.conform import logs

    return logs.record(rules, deal, actions, extra={"x-seed": seed})


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        check_output_file(args.out)
    rules = resolve(args)
    if not 0 <= args.opener < rules.players:
        print(say(args.lang, f"--opener phải là một chỗ ngồi từ 0 đến {rules.players - 1}",
                  f"--opener must be a seat 0..{rules.players - 1}"), file=sys.stderr)
        return 2
    problem = _seat_problem(args, rules)
    if problem is not None:
        print(say(args.lang, *problem), file=sys.stderr)
        return 2
    deal, actions = narrate.random_game(rules, args.seed, args.opener, args.policy,
                                        drawer=args.drawer)
    if args.json:
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n"
                       for x in log_lines(rules, deal, actions, args.seed))
    else:
        lines, st = narrate.narrate(rules, deal, actions)
        opts = non_default_options(rules)
        shown = ", ".join(f"{k}={v}" for k, v in opts.items())
        head = [say(args.lang,
                    f"{rules.table.title_vi} — {rules.players} người, hạt giống {args.seed}, "
                    f"{len(actions)} nước",
                    f"{rules.table.title_en} — {rules.players} players, seed {args.seed}, "
                    f"{len(actions)} moves"),
                say(args.lang, "Tuỳ chọn khác mặc định: " + (shown or "không có"),
                    "Options off their default: " + (shown or "none")),
                say(args.lang, "Bài chia (mã quân):", "Deal (card codes):"),
                *(f"  {s}: {' '.join(cards.codes(h))}" for s, h in enumerate(deal.hands)),
                f"  nọc: {' '.join(cards.codes(deal.noc))}",
                *([f"  cái: {cards.code(deal.cai)}"] if deal.cai is not None else []),
                ""]
        text = "\n".join(head) + narrate.render(lines, args.lang) + "\n"
        text += "\n" + say(args.lang,
                           "Phát lại: chanspec play " + _replay_args(args, rules),
                           "Replay: chanspec play " + _replay_args(args, rules)) + "\n"
    if args.out:
        write_atomic(args.out, text)
        print(say(args.lang, f"Đã ghi {args.out}", f"Wrote {args.out}"))
    else:
        sys.stdout.write(text)
    return 0


def _seat_problem(args: argparse.Namespace, rules: Any) -> tuple[str, str] | None:
    """Why --opener / --drawer do not fit this table (vi, en), or None."""
    n = rules.players
    if args.drawer is not None and not 0 <= args.drawer < n:
        return (f"--drawer phải là một chỗ ngồi từ 0 đến {n - 1}",
                f"--drawer must be a seat 0..{n - 1}")
    if cai.has_ritual(rules):
        if args.opener:
            rid = rules.rid("cai.rule")
            return (f"bảng {rules.table.id!r} chọn người mở đầu bằng quân cái (luật {rid}); "
                    "dùng --drawer để chọn người bốc cái",
                    f"table {rules.table.id!r} picks the opener by the cái card (rule {rid}); "
                    "give --drawer, the seat that draws it")
    elif args.drawer is not None:
        return (f"bảng {rules.table.id!r} không bốc cái; dùng --opener",
                f"table {rules.table.id!r} has no dealing ritual; give --opener")
    return None


def _replay_args(args: argparse.Namespace, rules: Any) -> str:
    parts = [f"--players {rules.players}", f"--seed {args.seed}"]
    if args.ruleset != "family":
        parts.insert(0, f"--ruleset {args.ruleset}")
    if args.opener:
        parts.append(f"--opener {args.opener}")
    if args.drawer is not None:
        parts.append(f"--drawer {args.drawer}")
    if args.policy != "eager":
        parts.append(f"--policy {args.policy}")
    parts += [f"--option {k}={v}" for k, v in non_default_options(rules).items()]
    return " ".join(parts)
