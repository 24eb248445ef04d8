"""``chanspec score``: what a classic win is worth.  Every cước of the winning hand with
the rows that define it, the điểm and dịch, the total by 001's formula and its gà, the
correct declaration (xướng), and what each open reading would change::

    chanspec score CARD... --card CARD [--source SOURCE] [--kind u|chiu-u|opening]
                   [--laid "2v 2v"]... [--dealt "CARDS"] [--thong] [--first-round] [--json]

    chanspec score --frequency N [--seed S] [--policy greedy|uniform] [--option k=v]... [--json]

``--frequency N`` plays N seeded classic hands (hand i from seed ``S * 1_000_000 + i``)
and counts how often each cước is declared among the wins and each fault of the rules of
play is recorded (restriction-mode=penalise), per 10,000 (`oracles.cuoc_freq`).

    chanspec score --log FILE [--thong] [--declare CUOC,...] [--option k=v]... [--json]

``--log`` scores a finished hand from its record: an NDJSON game log (``chanspec play
--ruleset classic --json --out FILE`` writes one), a ``State.to_json()`` file or an ITF
trace.  The hand is replayed on the reference machine (every line must conform) and the
win context is read from its history (`cuoc.won_hand`): the kind of win, the winning card
and where it came from, the chíu made, the first round, the winner's dealt hand.
``--option`` values are laid over the log's own (the hand is replayed under the log's).
A log whose winner declared (xướng, a table with a declaration phase) has that
declaration judged too, unless ``--declare`` names another.

The positional cards are every card held before the winning card, laid-down ones
included (as for ``chanspec win``); each ``--laid`` names one laid-down group among them
(a laid chíu is a chíu made, two laid chắn of one face an ăn bòn).  ``--kind opening`` is
thiên ù: the dealt hand itself, no winning card.  ``--dealt`` gives the hand as dealt
(phá thiên, nhà lầu xe hơi and thiên khai under the dealt reading need it; without it
they are listed as undecided).  The table defaults to ``classic``.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from chanspec.checks.cli.options import (
    MAX_HANDS,
    add_command,
    add_common,
    hand_count,
    non_default_options,
    options_of,
    resolve,
)
from chanspec.checks.output import Ticker, pick, progress_every, say
from chanspec.checks.report import hand_story
from chanspec.model.chan import cards, cuoc, declare, pay, score, table, win
from chanspec.model.chan import vocab as chan_vocab

KINDS: tuple[win.WinKind, ...] = ("u", "chiu-u", "opening")
GROUP_ORDER = {g: i for i, g in enumerate(chan_vocab.CUOC_GROUPS)}
SOURCE_WORDS = {
    "own-draw": ("quân mình tự bốc", "drawn by the winner"),
    "other-draw": ("quân người khác bốc", "drawn by another player"),
    "discard": ("quân người khác đánh", "discarded by another player"),
    "returned": ("quân trả cửa vào cửa mình", "returned to the winner's gate (trả cửa)"),
    "cai": ("quân cái", "the cái card"),
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "score",
        "tính cước, điểm, dịch và cách xướng của một bài ù (Chắn cổ điển)",
        "score a winning hand: its cước, points, dịch and declaration (classic Chắn)",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec score 5v 5v 3n 3n 4s 4s 7v 7v 9n 9n 2n 2s 3v 3s 6n 6s 7n 7s 4n "
            "--laid \"5v 5v\" --card 4n --source own-draw\n"
            "  chanspec play --ruleset classic --seed 5 --json --out hand.ndjson   # a won hand\n"
            "  chanspec score --log hand.ndjson\n"
            "  chanspec score --frequency 1000 --seed 0 --json\n\n"
            f"Nguồn quân ù / sources: {', '.join(chan_vocab.WIN_SOURCES)}."
        ),
    )
    p.add_argument("cards", nargs="*", metavar="CARD",
                   help="mọi quân đang cầm trước quân ù, kể cả quân đã hạ / every card held "
                        "before the winning card, laid-down ones included")
    p.add_argument("--card", "--with", dest="card", metavar="CARD",
                   help="quân ù / the winning card")
    p.add_argument("--source", choices=chan_vocab.WIN_SOURCES, default=None,
                   help="quân ù từ đâu (mặc định own-draw) / where the winning card came from "
                        "(default own-draw)")
    p.add_argument("--kind", choices=KINDS, default="u",
                   help="kiểu ù: u, chiu-u (chíu ù), opening (thiên ù) / the kind of win")
    p.add_argument("--laid", action="append", default=[], metavar="CARDS",
                   help='một nhóm đã hạ, lặp lại được / one laid-down group, repeatable')
    p.add_argument("--dealt", metavar="CARDS",
                   help="bài lúc chia / the hand as dealt (19 or 20 cards)")
    p.add_argument("--thong", action="store_true",
                   help="ván trước cũng ù và xướng đúng / won the previous hand too (thông)")
    p.add_argument("--declare", metavar="CUOC,...",
                   help="xướng của người ù, để chấm / the winner's declaration to judge: "
                        "cước rows, with or without cuoc- (e.g. chi,bach-thu)")
    p.add_argument("--first-round", action="store_true",
                   help="chưa qua cửa chì của mình (địa ù) / before one's own turn came round")
    p.add_argument("--log", metavar="FILE",
                   help="chấm một ván đã xong từ nhật ký (NDJSON, tệp trạng thái hay ITF) / "
                        "score a finished hand from its log (NDJSON, state file or ITF)")
    p.add_argument("--frequency", type=hand_count("--frequency"), metavar="N",
                   help="chơi N ván ngẫu nhiên có hạt giống và đếm cước, lỗi / play N seeded "
                        f"random hands and count the cước and faults (at most {MAX_HANDS:,})")
    p.add_argument("--seed", type=int, default=0,
                   help="hạt giống của --frequency (mặc định 0) / seed of --frequency")
    p.add_argument("--policy", choices=("greedy", "uniform"), default="greedy",
                   help="người chơi ngẫu nhiên của --frequency / the random player of "
                        "--frequency (default greedy)")
    add_common(p)
    p.set_defaults(func=run, ruleset=None)


# --------------------------------------------------------------------------- judging


def context_of(args: argparse.Namespace, rules: table.Rules) -> tuple[
        list[int], list[win.Group], cuoc.WinContext]:
    """The hand, its laid groups and the win context from the command line; HandError
    (exit 2) for input that names no possible win."""
    if not args.cards:
        raise win.HandError("no cards given: list the hand, e.g. chanspec score 2v 2v 3n ... "
                            "--card 7s (see chanspec score --help)")
    hand = rules.table.check_cards(cards.parse_many(args.cards))
    laid = [win.group_of(rules.table.check_cards(cards.parse_many(t)), rules)
            for t in args.laid]
    kind: win.WinKind = args.kind
    if kind == "opening":
        if args.card or args.source:
            raise win.HandError("--kind opening (thiên ù) scores the dealt hand itself: drop "
                                "--card and --source")
        card = None
    else:
        if not args.card:
            raise win.HandError("name the winning card with --card CARD, or use --kind "
                                "opening for a thiên ù")
        card = rules.table.check_cards([cards.parse(args.card)])[0]
    dealt = None
    if args.dealt is not None:
        faces = rules.table.check_cards(cards.parse_many(args.dealt))
        if not faces:
            raise win.HandError("--dealt names no card; give the hand as dealt, e.g. "
                                "--dealt \"2v 2v 3n ...\"")
        v = rules.variant
        sizes = sorted({v.other_cards, v.opener_cards})
        if len(faces) not in sizes:
            raise win.HandError(
                f"--dealt names {len(faces)} cards; a hand as dealt to {rules.players} players "
                f"has {' or '.join(str(n) for n in sizes)} (the opener {v.opener_cards}, "
                f"everyone else {v.other_cards}; row {v.rule})")
        counts = cards.counts(faces)
        over = [f for f, n in enumerate(counts) if n > rules.copies]
        if over:
            raise win.HandError(f"--dealt holds {counts[over[0]]} × {cards.name(over[0])}; the "
                                f"deck has {rules.copies} of each face")
        dealt = tuple(counts)
    ctx = cuoc.WinContext(kind=kind, card=card, source=args.source or "own-draw",
                          thong=args.thong, first_round=args.first_round, dealt=dealt)
    return hand, laid, ctx


def evaluate(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
             ctx: cuoc.WinContext) -> dict[str, Any]:
    """The verdict, the cước (`cuoc.Judgement`) and the score of one win under `rules`."""
    verdict, j = declare.hand_judgement(rules, hand, laid, ctx)
    if j is None:
        return {"verdict": verdict, "judgement": None, "score": None}
    return {"verdict": verdict, "judgement": j, "score": score.score(rules, j)}


def declaration(hits: Sequence[cuoc.CuocHit]) -> list[cuoc.CuocHit]:
    """The cước to declare, in the order of a declaration: thông and chì first, then how
    the hand was won, then what it holds (000 [Xướng]); table order within a group."""
    return sorted(hits, key=lambda h: GROUP_ORDER.get(h.group, len(GROUP_ORDER)))


def _summary(res: Mapping[str, Any]) -> tuple[Any, ...]:
    j, sc = res["judgement"], res["score"]
    if j is None:
        return (False,)
    return (True, tuple((h.row, h.times, h.diem, h.dich) for h in j.declared),
            j.undecided, None if sc is None else (sc.total, sc.ga, sc.allowed))


def readings(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
             ctx: cuoc.WinContext, base: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What each other value of every open or provisional row would change: the rows whose
    values give another verdict, other cước or another score, with that result."""
    t = rules.table
    out = []
    first = _summary(base)
    for row in t.rows.values():
        if not row.is_option or row.status not in ("open", "provisional"):
            continue
        for value in row.values:
            if value == rules.options.get(row.id):
                continue
            other = t.resolve(rules.players, {**rules.options, row.id: value})
            res = evaluate(other, hand, laid, ctx)
            if _summary(res) != first:
                out.append({"row": row.id, "value": value, "result": res})
    return out


def parse_declaration(text: str, rules: table.Rules) -> list[str]:
    """``--declare chi,bach-thu`` -> the [[cuoc]] rows named; HandError for a name that is
    no cước of the table (with a near match)."""
    known = [c["rule"] for c in rules.table.data.get("cuoc", [])]
    items = [w.strip() for w in text.split(",")]
    if not any(items):
        raise win.HandError(f"--declare {text!r} names no cước: list the cước declared, "
                            "separated by commas, e.g. --declare chi,bach-thu (ù xuông: "
                            "--declare xuong)")
    if "" in items:
        raise win.HandError(f"--declare {text!r} has an empty name (two commas together, or "
                            "one at an end): one cước between commas, e.g. --declare "
                            "chi,bach-thu")
    out = []
    for word in " ".join(items).split():
        rid = word if word in known else f"cuoc-{word}"
        if rid not in known:
            near = difflib.get_close_matches(rid, known, n=1)
            hint = f" (did you mean {near[0].removeprefix('cuoc-')!r}?)" if near else ""
            raise win.HandError(f"--declare: {word!r} is no cước of this table{hint}; known: "
                                f"{', '.join(k.removeprefix('cuoc-') for k in known)}")
        out.append(rid)
    return out


def judge_declaration(rules: table.Rules, j: cuoc.Judgement,
                      named: list[str]) -> tuple[cuoc.Declaration, score.Score | None]:
    """The declaration judged, and the score of what it gets paid (None when wrong)."""
    d = cuoc.check_declaration(rules, j, named)
    if not d.correct:
        return d, None
    return d, declare.paid_score(rules, d)


# --------------------------------------------------------------------------- from a log

_HAND_FLAGS = (("cards", "CARD..."), ("card", "--card"), ("source", "--source"),
               ("laid", "--laid"), ("dealt", "--dealt"), ("first_round", "--first-round"))


class LogProblem(ValueError):
    """A ``--log`` file with nothing to score: unreadable, not conforming, no win."""


def from_log(args: argparse.Namespace) -> tuple[table.Rules, cuoc.WonHand, list[str] | None,
                                                pay.Settlement | None]:
    """The rules, the win of the finished hand recorded in ``--log`` and the declaration
    its winner made there (None: the table has no declaration phase); LogProblem (exit
    2) for a file that cannot be read, does not conform, or records no win."""
    from chanspec.checks.conform import replay

    given = [flag for attr, flag in _HAND_FLAGS if getattr(args, attr)]
    if args.kind != "u":
        given.append("--kind")
    if given:
        raise LogProblem(f"--log reads the hand and how it was won from the log: drop "
                            f"{', '.join(given)}")
    tbl = None if args.ruleset is None else table.load(args.ruleset)
    res = replay.replay_path(args.log, tbl)
    if res.error is not None:
        raise LogProblem(f"cannot read the log: {res.error}")
    if res.divergence is not None:
        d = res.divergence
        raise LogProblem(f"{args.log}:{d.line}: the log does not follow the rules after "
                            f"{d.step} actions: {d.en} "
                            f"[{', '.join(d.rules)}]; chanspec replay {args.log} tells more")
    st = res.state
    assert st is not None
    rules = st.rules
    if "cuoc" not in rules.table.data:
        raise LogProblem(f"{args.log}: the hand was played under table "
                            f"{rules.table.id!r}, which states no cước ([[cuoc]]); score "
                            "judges classic Chắn hands (chanspec play --ruleset classic)")
    try:
        won = cuoc.won_hand(st)
    except cuoc.NoWin as exc:
        raise LogProblem(f"{args.log}: {exc}") from None
    extra = options_of(args, rules.table)
    if extra:
        rules = rules.table.resolve(rules.players, {**rules.options, **extra})
    if args.thong:
        won = dataclasses.replace(won, ctx=dataclasses.replace(won.ctx, thong=True))
    made = (st.result or {}).get("declaration")
    # who paid whom, as the hand was played (under the log's own readings)
    settled = pay.settle(st.rules, st) if pay.has_payment(st.rules) and made else None
    return rules, won, None if made is None else list(made["named"]), settled


def run_frequency(args: argparse.Namespace) -> int:
    """``--frequency N``: count the cước and faults of N seeded hands."""
    from chanspec.checks.chan import cuoc_freq

    if args.frequency <= 0:
        raise win.HandError(f"--frequency {args.frequency}: give a number of hands, e.g. "
                            "--frequency 1000")
    given = [flag for attr, flag in _HAND_FLAGS + (("log", "--log"), ("declare", "--declare"))
             if getattr(args, attr)]
    if given:
        raise win.HandError(f"--frequency plays its own hands: drop {', '.join(given)}")
    if args.ruleset is None:
        args.ruleset = "classic"
    rules = resolve(args)
    if "cuoc" not in rules.table.data:
        raise win.HandError(f"table {rules.table.id!r} states no cước ([[cuoc]]); "
                            "--frequency counts classic Chắn: --ruleset classic")
    ticker = Ticker(progress_every(sys.stderr))

    def progress(done: int) -> None:
        if not getattr(args, "quiet", False) and ticker.due():
            print(f"  {done}/{args.frequency}", file=sys.stderr, flush=True)

    freq = cuoc_freq.frequency(rules, args.frequency, args.seed, args.policy, progress)
    if args.json:
        print(json.dumps({"options": dict(non_default_options(rules)), **freq.as_json()},
                         ensure_ascii=False))
    else:
        print(render_frequency(rules, freq, args.lang))
    return 0


def render_frequency(rules: table.Rules, freq: Any, lang: str) -> str:
    t = rules.table
    doc = freq.as_json()
    wins = doc["wins"]
    title = lambda rid: t.rows[rid].title_vi if rid in t.rows else rid  # noqa: E731
    out = [say(lang, f"{freq.hands} ván {t.title_vi}, {rules.players} người, hạt giống "
                     f"{freq.seed} (ván {doc['hand_seeds']}), người chơi {freq.policy}",
               f"{freq.hands} hands of {t.title_en}, {rules.players} players, seed "
               f"{freq.seed} (hands {doc['hand_seeds']}), {freq.policy} player"),
           say(lang, f"Kết thúc: {', '.join(f'{k} {v}' for k, v in doc['ended'].items())}",
               f"Ended: {', '.join(f'{k} {v}' for k, v in doc['ended'].items())}"),
           "",
           say(lang, f"Cước trong {wins} ván ù (số ván xướng; trên 10.000 ván ù):",
               f"Cước among {wins} wins (wins declaring it; per 10,000 wins):")]
    for rid, c in doc["cuoc"].items():
        extra = "" if c["held"] == c["declared"] else pick(
            lang, f" (có {c['held']}, kể cả khi bị cước khác thay)",
            f" (held {c['held']}, replaced ones included)")
        rate = "—" if c["per_10000_wins"] is None else f"{c['per_10000_wins']:.1f}"
        out.append(f"  {title(rid):<28} {c['declared']:>6}  {rate:>8}{extra}  [{rid}]")
    missing = [c["rule"] for c in t.data.get("cuoc", []) if c["rule"] not in doc["cuoc"]]
    if missing:
        out.append(say(lang, f"  không gặp: {', '.join(title(r) for r in missing)}",
                       f"  never seen: {', '.join(missing)}"))
    mode = rules.options.get("restriction-mode", "-")
    out += ["", say(lang, f"Lỗi luật chơi (restriction-mode={mode}): "
                          f"{doc['fault_records']} lần, trong {doc['hands_with_faults']} ván "
                          "(số lần; số ván; ván trên 10.000 ván):",
                    f"Faults of the rules of play (restriction-mode={mode}): "
                    f"{doc['fault_records']} "
                    f"records in {doc['hands_with_faults']} hands (records; hands; hands per "
                    "10,000):")]
    for rid, c in doc["faults"].items():
        rate = "—" if c["hands_per_10000"] is None else f"{c['hands_per_10000']:.1f}"
        out.append(f"  {rid:<34} {c['count']:>7} {c['hands']:>6} {rate:>8}")
    if freq.best is not None:
        out += ["", say(lang, f"Điểm cao nhất: {freq.best[0]} (ván hạt giống {freq.best[1]}); "
                              f"{freq.refused} ván ù dưới mức tối thiểu",
                        f"Highest total: {freq.best[0]} (hand seed {freq.best[1]}); "
                        f"{freq.refused} wins below the house minimum")]
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    if args.frequency is not None:
        return run_frequency(args)
    won: cuoc.WonHand | None = None
    logged: list[str] | None = None
    settled: pay.Settlement | None = None
    if args.log is not None:
        try:
            rules, won, logged, settled = from_log(args)
        except LogProblem as exc:
            print(f"chanspec score: {exc}", file=sys.stderr)
            return 2
        hand, laid, ctx = list(won.hand), list(won.laid), won.ctx
    else:
        if args.ruleset is None:
            args.ruleset = "classic"
        rules = resolve(args)
        if "cuoc" not in rules.table.data:
            raise win.HandError(f"table {rules.table.id!r} states no cước ([[cuoc]]); score "
                                "judges classic Chắn: --ruleset classic")
        hand, laid, ctx = context_of(args, rules)
    named = parse_declaration(args.declare, rules) if args.declare is not None else None
    res = evaluate(rules, hand, laid, ctx)
    if res["judgement"] is None:
        v = res["verdict"]
        raise win.HandError(f"this hand does not win, so it has no score: {v.reason_en} "
                            f"(rows: {', '.join(v.rules)}); chanspec win explains why")
    if named is None and won is not None:
        named = logged  # the declaration the log's winner made (xướng), judged again
    alts = readings(rules, hand, laid, ctx, res)
    decl = None if named is None else judge_declaration(rules, res["judgement"], named)
    if args.json:
        doc = as_json(rules, ctx, res, alts)
        if won is not None:
            doc["log"] = {"file": args.log, "seat": won.seat, "faults": list(won.faults)}
        if decl is not None:
            d, sc = decl
            doc["declared"] = {**d.as_json(), "score": None if sc is None else sc.as_json()}
        if settled is not None:
            doc["settlement"] = settled.as_json()
        print(json.dumps(doc, ensure_ascii=False))
    else:
        text = render(rules, hand, laid, ctx, res, alts, args.lang)
        if won is not None:
            text = render_log_head(rules, args.log, won, args.lang) + "\n" + text
        if decl is not None:
            text += "\n" + render_declaration(rules, *decl, lang=args.lang)
        if settled is not None:
            vi, en = pay.words(settled)
            why_vi, why_en = hand_story.rule_names(rules, settled.rules)
            text += "\n" + say(args.lang, f"Tính tiền như đã chơi: {vi}",
                               f"Settled as played: {en}")
            text += "\n" + say(args.lang, f"theo luật: {why_vi}", f"by the rules: {why_en}",
                               "  ")
        print(text)
    return 0


def render_log_head(rules: table.Rules, path: str, won: cuoc.WonHand, lang: str) -> str:
    """Where the scored hand comes from: the log, the winner's seat, their faults."""
    out = [say(lang, f"Ván trong {path}: người {won.seat} ù",
               f"Hand in {path}: seat {won.seat} wins")]
    if won.faults:
        vi, en = (x.split(": ", 1)[1] for x in hand_story.fault_names(rules, won.faults))
        out.append(say(lang, f"người ù phạm luật chơi {len(won.faults)} lần: {vi}",
                       f"the winner broke rules of play {len(won.faults)} times: {en}", "  "))
    return "\n".join(out)


def render_declaration(rules: table.Rules, d: cuoc.Declaration, sc: score.Score | None,
                       lang: str) -> str:
    t = rules.table
    row = t.rows.get("xuong")
    cite = f"  [{row.id}; {row.section}]" if row else ""
    def names(rids: Sequence[str], lang_: str) -> str:
        return ", ".join(t.rows[r].title(lang_) for r in rids) or "—"

    out = ["", say(lang, f"Xướng: {names(d.named, 'vi')}",
                   f"Declared: {names(d.named, 'en')}")]
    if d.wrong:
        out.append(say(lang, f"Xướng sai ({names(d.wrong, 'vi')}): không được tiền, phải "
                             f"đền{cite}",
                       f"A wrong declaration ({names(d.wrong, 'en')}): nothing is paid, the "
                       f"winner pays instead{cite}"))
        return "\n".join(out)
    if d.missing:
        out.append(say(lang, f"Xướng thiếu, mất: {names(d.missing, 'vi')}{cite}",
                       f"Left out, so forfeited: {names(d.missing, 'en')}{cite}"))
    else:
        out.append(say(lang, "Xướng đúng và đủ.", "Correct and complete."))
    if sc is not None:
        out.append(say(lang, f"Được trả cho phần đã xướng: điểm thắng {sc.total} + gà {sc.ga} "
                             f"= {sc.total + sc.ga} từ mỗi người phải trả",
                       f"Paid for what was declared: worth {sc.total} + gà {sc.ga} = "
                       f"{sc.total + sc.ga} from each payer"))
    return "\n".join(out)


# --------------------------------------------------------------------------- output


def _result_json(res: Mapping[str, Any]) -> dict[str, Any]:
    j, sc = res["judgement"], res["score"]
    if j is None:
        v = res["verdict"]
        return {"win": False, "reason": {"vi": v.reason_vi, "en": v.reason_en}}
    return {"win": True,
            "cuoc": [h.as_json() for h in j.declared],
            "replaced": [h.as_json() for h in j.held if h.replaced_by is not None],
            "undecided": list(j.undecided),
            "declaration": [h.row for h in declaration(j.declared)],
            "score": None if sc is None else sc.as_json()}


def as_json(rules: table.Rules, ctx: cuoc.WinContext, res: Mapping[str, Any],
            alts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``--json`` object: the verdict, the context, the cước and score, and what each
    open reading would change."""
    return {**res["verdict"].as_json(), "context": ctx.as_json(),
            "options": dict(non_default_options(rules)), **_result_json(res),
            "readings": [{"row": a["row"], "value": a["value"], **_result_json(a["result"])}
                         for a in alts]}


def _name(h: cuoc.CuocHit) -> str:
    return f"{h.times} × {h.name_vi}" if h.times != 1 else h.name_vi


def _amount(h: cuoc.CuocHit, lang: str) -> str:
    if h.diem is None:
        return ""
    return f"{h.diem} {pick(lang, 'điểm', 'points')}, {h.dich} dịch"


def _score_line(sc: score.Score | None, lang: str) -> str:
    if sc is None:
        return pick(lang, "(bảng không có cách tính điểm)", "(the table has no [scoring])")
    case_vi = {"diem": "tổng điểm (có thập thành)", "low": "tổng dịch + 2",
               "dich": "tổng dịch + 3"}[sc.case]
    case_en = {"diem": "sum of points (thập thành)", "low": "sum of dịch + 2",
               "dich": "sum of dịch + 3"}[sc.case]
    allowed = "" if sc.allowed else pick(
        lang, f" — dưới mức tối thiểu {sc.minimum}: làng không cho ù",
        f" — below the house minimum {sc.minimum}: not accepted as a win")
    return say(lang, f"Điểm thắng: {sc.total} ({case_vi}), gà: {sc.ga}{allowed}",
               f"Worth: {sc.total} ({case_en}), gà: {sc.ga}{allowed}")


GIVER_WORDS = {"other-draw": ("người bốc quân ù", "the player who drew the winning card"),
               "discard": ("người đánh quân ù", "the player who discarded the winning card"),
               "returned": ("người trả quân ù", "the player who returned the winning card")}


def payment_lines(rules: table.Rules, ctx: cuoc.WinContext, sc: score.Score,
                  lang: str) -> list[str]:
    """Who pays the winner what (the worth plus gà), under each reading of who pays
    (``[payment] payers_rule``): every other seat the same, or the giver of the winning
    card for the whole table; a win below the house minimum is paid by nobody."""
    if not pay.has_payment(rules):
        return []
    n, amount = rules.players, sc.total + sc.ga
    if not sc.allowed:
        return [say(lang, "Không ai trả: ván ù dưới mức tối thiểu của làng",
                    "Nobody pays: the win is below the house minimum")]
    rid = rules.rid("payment.payers_rule")
    row = rules.table.rows[rid]
    readings = [rules.options[rid]] + ([v for v in row.values if v != rules.options[rid]]
                                       if row.status in ("open", "provisional") else [])
    out: list[str] = []
    shown: set[str] = set()
    for i, reading in enumerate(readings):
        giver = GIVER_WORDS.get(ctx.source) if ctx.kind != "opening" else None
        if reading == "each" or giver is None:
            vi = (f"Mỗi người trong {n - 1} người kia trả người ù {amount} (điểm thắng "
                  f"{sc.total} + gà {sc.ga})")
            en = (f"Each of the other {n - 1} players pays the winner {amount} (worth "
                  f"{sc.total} + gà {sc.ga})")
        else:
            vi = (f"{giver[0].capitalize()} trả cả làng: {amount * (n - 1)} ({amount} cho "
                  f"mỗi người trong {n - 1} người kia)")
            en = (f"{giver[1].capitalize()} pays for the whole table: {amount * (n - 1)} "
                  f"({amount} for each of the other {n - 1} players)")
        if i and en in shown:
            continue  # this reading pays the same way here
        shown.add(en)
        head_vi = "Tiền: " if i == 0 else f"  nếu đọc {rid}={reading}: "
        head_en = "Payment: " if i == 0 else f"  if {rid}={reading}: "
        tail = f"  [{rid}={reading}]" if i == 0 else ""
        out.append(say(lang, head_vi + vi + tail, head_en + en + tail))
    return out


def render(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
           ctx: cuoc.WinContext, res: Mapping[str, Any], alts: Sequence[Mapping[str, Any]],
           lang: str) -> str:
    t = rules.table
    v, j, sc = res["verdict"], res["judgement"], res["score"]
    out = [say(lang, f"Luật: {t.title_vi} — {rules.players} người",
               f"Rules: {t.title_en} — {rules.players} players")]
    changed = non_default_options(rules)
    if changed:
        opts = ", ".join(f"{k}={val}" for k, val in changed.items())
        out.append(say(lang, f"Tùy chọn khác mặc định: {opts}", f"Non-default options: {opts}"))
    out.append(f"{pick(lang, 'Bài', 'Hand')} ({len(hand)}): {cards.names(sorted(hand))}")
    for g in laid:
        out.append(f"  {pick(lang, 'đã hạ', 'laid')}: {cards.names(g.faces)}")
    kind_vi = {"u": "ù thường", "chiu-u": "chíu ù", "opening": "thiên ù (bài chia)"}[ctx.kind]
    kind_en = {"u": "ordinary ù", "chiu-u": "chíu ù", "opening": "thiên ù (dealt hand)"}[ctx.kind]
    if ctx.card is not None:
        sv, se = SOURCE_WORDS[ctx.source]
        out.append(say(lang, f"Ù: {kind_vi}, quân {cards.label(ctx.card)}, {sv}",
                       f"Win: {kind_en}, on {cards.label(ctx.card)}, {se}"))
    else:
        out.append(say(lang, f"Ù: {kind_vi}", f"Win: {kind_en}"))
    flags = [w for w, on in ((pick(lang, "thông", "thông (won the last hand)"), ctx.thong),
                             (pick(lang, "chưa qua cửa chì", "first round"), ctx.first_round))
             if on]
    if flags:
        out.append(f"  {', '.join(flags)}")
    out.append(say(lang, f"Kết quả: Ù — {v.reason_vi}", f"Verdict: WIN — {v.reason_en}"))
    if v.groups:
        out.append(f"  {pick(lang, 'Bày bài', 'Laid out')}: "
                   f"{hand_story.layout(v.groups, ctx.card)}")
    out.append("")
    out.append(f"{pick(lang, 'Cước', 'Cước (bonuses)')}:")
    for h in j.held:
        row = t.rows[h.row]
        if h.replaced_by is not None:
            by = t.rows[h.replaced_by].title_vi
            out.append(say(lang, f"  - ({h.name_vi}: đã tính trong {by}, không xướng riêng)"
                           f"  [{h.row}]",
                           f"  - ({h.name_en}: part of {t.rows[h.replaced_by].title_en}, not "
                           f"declared on its own)  [{h.row}]"))
            continue
        amount = _amount(h, lang)
        times = f" ×{h.times}" if h.times != 1 else ""
        out.append(f"  - {h.name_vi}{times} / {h.name_en}"
                   f"{f' — {amount}' if amount else ''}  [{h.row}; {row.section}]")
        if h.amount_rule:
            ar = t.rows[h.amount_rule]
            out.append(say(lang, f"      số tiền theo dòng {ar.id} ({ar.status}): "
                           f"{rules.options[ar.id]}",
                           f"      amount from row {ar.id} ({ar.status}): "
                           f"{rules.options[ar.id]}"))
    for rid in j.undecided:
        row = t.rows[rid]
        out.append(say(lang, f"  ? {row.title_vi}: cần bài lúc chia (--dealt)  [{rid}]",
                       f"  ? {row.title_en}: needs the dealt hand (--dealt)  [{rid}]"))
    if sc is not None:
        out.append(say(lang, f"Các cước cộng lại: {sc.diem} điểm, {sc.dich} dịch (chưa phải "
                             "số tiền: điểm thắng tính từ đó)",
                       f"The cước add up to {sc.diem} points, {sc.dich} dịch (not an amount "
                       "paid: the worth is reckoned from them)"))
        out.append(_score_line(sc, lang))
        out.append(f"  {pick(lang, 'theo dòng', 'rows')}: {', '.join(sc.rules)}")
        out += payment_lines(rules, ctx, sc, lang)
    decl = declaration(j.declared)
    out.append(say(lang, f"Xướng đúng: {', '.join(_name(h) for h in decl)}",
                   f"Correct declaration: {', '.join(_name(h) for h in decl)}"))
    if alts:
        breaks = {(c["amount_rule"], v) for c in t.data.get("cuoc", []) if "amount_rule" in c
                  for row, v, _, _ in score.pattern_breaks(t) if row == c["rule"]}
        out.append("")
        out.append(say(lang, "Các cách đọc còn mở sẽ đổi:", "What the open readings would change:"))
        for a in alts:
            r = a["result"]
            head = f"  {a['row']}={a['value']}: "
            if (a["row"], a["value"]) in breaks:
                head += pick(lang, "(lệch khỏi bảng điểm của 001)",
                             "(off the pattern of 001's table)") + " "
            if r["judgement"] is None:
                out.append(head + say(lang, f"không ù — {r['verdict'].reason_vi}",
                                      f"no win — {r['verdict'].reason_en}"))
                continue
            rj, rs = r["judgement"], r["score"]
            names = ", ".join(_name(h) for h in declaration(rj.declared))
            line = head + names
            if rs is not None:
                line += (f"; {pick(lang, 'điểm thắng', 'worth')} {rs.total}, gà {rs.ga}"
                         + ("" if rs.allowed else pick(lang, " (làng không cho ù)",
                                                       " (not accepted as a win)")))
            if rj.undecided != j.undecided:
                names = ", ".join(pick(lang, t.rows[x].title_vi, t.rows[x].title_en)
                                  for x in rj.undecided)
                line += f"; {pick(lang, 'cần --dealt', 'needs --dealt')}: {names or '—'}"
            out.append(line)
    return "\n".join(out)
