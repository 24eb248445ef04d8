"""``chanspec vectors --out DIR``: generate the language-neutral test vectors.

Writes DIR/cases/*.json (one case per file), DIR/index.json (the list of cases and the
coverage of every rule row and option value) and the coverage table inside
DIR/README.md (between its coverage markers; the rest of the README is left alone).
Generation is deterministic: the same table and machine give the same files.  The
hand-checked golden games (tests/golden/*.json of a source checkout, or ``--golden DIR``)
become the cases ``g01-…``; ``--no-golden`` leaves them out.  For a table with a
declaration phase (classic), ``--declarations N`` won hands are each declared correctly,
under and over (the cases ``x01-…``).

``--check`` rebuilds every case already in DIR from its inputs (start and steps) and
reports those whose expectations changed (exit 1), e.g. after a change to the machine
or the table; regenerate them with ``chanspec vectors --out DIR``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chanspec.checks.cli.options import add_command, load_table
from chanspec.checks.conform import vectors
from chanspec.checks.output import prepare_output_dir, say
from chanspec.model import table as table_mod


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "vectors",
        "sinh các ca kiểm thử độc lập ngôn ngữ phủ mọi dòng luật và mọi giá trị tùy chọn",
        "generate language-neutral test cases covering every rule row and option value",
        epilog="Định dạng / format: vectors/README.md, vectors/vector.schema.json.",
        codes=("0   xong / ok", "1   các vector đã cũ / the vectors are stale (--check)"),
    )
    p.add_argument("--out", required=True, metavar="DIR",
                   help="thư mục đích / where to write (e.g. vectors)")
    p.add_argument("--check", action="store_true",
                   help="chỉ kiểm tra các ca đã có còn đúng không / only check that the cases "
                        "in DIR are up to date (exit 1 if stale)")
    p.add_argument("--seeds", type=int, default=vectors.SEEDS_PER_CONFIG, metavar="N",
                   help=f"số ván tìm kiếm mỗi cấu hình / hands searched per configuration "
                        f"(default {vectors.SEEDS_PER_CONFIG}; other values change the files)")
    p.add_argument("--extra-seeds", type=int, default=vectors.EXTRA_SEEDS, metavar="N",
                   help=f"số ván thêm cho mỗi mục còn thiếu / extra hands per target still "
                        f"missing (default {vectors.EXTRA_SEEDS})")
    p.add_argument("--declarations", type=int, default=vectors.DECLARATION_HANDS, metavar="N",
                   help=f"số ván ù có ca xướng (đúng, thiếu, sai), với bảng có bước xướng / won "
                        f"hands whose declarations (correct, under, over) become cases, for a "
                        f"table with a declaration phase (default "
                        f"{vectors.DECLARATION_HANDS})")
    p.add_argument("--golden", metavar="DIR", default=None,
                   help="thư mục các ván mẫu đã kiểm tay / folder of the hand-checked golden "
                        "games (default: tests/golden of the source checkout)")
    p.add_argument("--no-golden", action="store_true",
                   help="không đưa các ván mẫu vào / leave the golden games out")
    p.add_argument("--ruleset", default=None, metavar="NAME|PATH",
                   help="bộ luật / rule table (default: the one the cases in --out name, "
                        "else family)")
    p.add_argument("--json", action="store_true", help="in kết quả dạng JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="ngôn ngữ / output language")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    held = _ruleset_in(Path(args.out))
    if args.ruleset is None:  # the table the folder's cases were made under, if built in
        args.ruleset = held if held in table_mod.builtin_names() else "family"
    table = load_table(args)
    if not args.check and held is not None and held != table.id:
        print(say(args.lang, f"chanspec vectors: {args.out} chứa các ca của bộ luật {held!r}, "
                  f"không phải {table.id!r}; chọn thư mục khác bằng --out, hoặc "
                  f"--ruleset {held}",
                  f"chanspec vectors: {args.out} holds the vectors of ruleset {held!r}, not "
                  f"{table.id!r}; write them elsewhere with --out, or give --ruleset {held}"),
              file=sys.stderr)
        return 2
    again = f"chanspec vectors --ruleset {table.id} --out {args.out}"
    if args.check:
        res = vectors.check(args.out, table)
        if args.json:
            print(json.dumps({"ok": res.ok, "stale": res.stale, "broken": res.broken,
                              "readme_stale": res.readme_stale}, ensure_ascii=False))
        elif res.ok:
            print(say(args.lang, f"Các ca kiểm thử trong {args.out} còn đúng.",
                      f"The vectors in {args.out} are up to date."))
        else:
            print(say(args.lang, f"Các ca kiểm thử trong {args.out} đã cũ; chạy lại: {again}",
                      f"The vectors in {args.out} are stale; regenerate them: {again}"))
            for c in res.stale:
                print(f"  stale: {c}")
            for c in res.broken:
                print(f"  broken: {c}")
            if res.readme_stale:
                print("  stale: README.md coverage table")
        return 0 if res.ok else 1
    if args.seeds < 1 or args.extra_seeds < 0 or args.declarations < 0:
        print("chanspec vectors: --seeds must be at least 1, --extra-seeds and "
              "--declarations not negative", file=sys.stderr)
        return 2
    golden = None if args.no_golden else Path(args.golden or vectors.GOLDEN_DIR)
    if golden is not None and not golden.is_dir():
        print(say(args.lang, f"chanspec vectors: không thấy thư mục ván mẫu {golden}; chỉ rõ "
                  "bằng --golden DIR, hoặc bỏ qua bằng --no-golden",
                  f"chanspec vectors: no golden games folder {golden}; name one with "
                  "--golden DIR, or leave them out with --no-golden"), file=sys.stderr)
        return 2
    prepare_output_dir(args.out)  # before generating, not after
    t0 = time.monotonic()
    try:
        docs = vectors.generate(table, args.seeds, extra_seeds=args.extra_seeds, golden=golden,
                                declarations=args.declarations, progress=_progress())
    except vectors.VectorError as exc:
        print(f"chanspec vectors: {exc}", file=sys.stderr)
        return 2
    cov = vectors.write(args.out, table, docs)
    size = sum(len(vectors.dumps_case(d).encode("utf-8")) for d in docs)
    outside = vectors.out_of_play(table)
    uncovered = (cov.uncovered_rows(table) + cov.uncovered_values(table)
                 + cov.uncovered_restrictions())
    missing = [x for x in uncovered if x not in outside]
    beyond = len(uncovered) - len(missing)
    if args.json:
        print(json.dumps({"out": args.out, "cases": len(docs), "bytes": size,
                          "uncovered": missing, "outside_play": beyond,
                          "gaps": vectors.gaps(table, cov),
                          "seconds": round(time.monotonic() - t0, 2)}, ensure_ascii=False))
    else:
        print(say(args.lang, f"Đã ghi {len(docs)} ca ({size // 1024} KiB) vào {args.out} "
                  f"trong {time.monotonic() - t0:.1f} giây.",
                  f"Wrote {len(docs)} cases ({size // 1024} KiB) to {args.out} in "
                  f"{time.monotonic() - t0:.1f} s."))
        if missing:
            print(say(args.lang, "Chưa phủ: " + ", ".join(missing),
                      "Not exercised: " + ", ".join(missing)))
        if beyond:
            print(say(args.lang, f"Ngoài phần chơi (tính điểm, chỉ là lời, giá trị chơi như "
                      f"nhau; xem {args.out}/README.md): {beyond} dòng và giá trị",
                      f"Outside the play (scoring, words only, values played alike; see "
                      f"{args.out}/README.md): {beyond} rows and values"))
    return 0


def _progress() -> Callable[[str], None] | None:
    """What the search reaches, one line each on standard error, when a person watches
    (standard error is a terminal); nothing otherwise."""
    if not sys.stderr.isatty():
        return None
    return lambda line: print(f"vectors: {line}", file=sys.stderr, flush=True)


def _ruleset_in(out: Path) -> str | None:
    """The ruleset the vectors already in `out` are for (from index.json), if any."""
    try:
        index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ruleset = index.get("ruleset") if isinstance(index, dict) else None
    return ruleset if isinstance(ruleset, str) else None
