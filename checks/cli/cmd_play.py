"""``chanspec play``: a whole random hand, told in Vietnamese (or English), or as NDJSON;
or with ``--hands N`` a session of N hands and who paid whom.

    chanspec play --players 5 --seed 7 [--option k=v ...] [--policy eager|uniform]
                  [--opener N | --drawer N] [--thong SEAT ...] [--lang en] [--json]
                  [--out FILE]
    chanspec play --ruleset classic --players 4 --seed 7 --hands 10 [--drawer N] [--json]

A session (a table with ``[payment]`` and ``[session]``: classic) plays hand after hand:
hand k is dealt from seed S+k-1, drawn by the last winner (model/chan/session.py), and its
win may be thông; each hand is settled (model/chan/pay.py) and the running totals follow it.
Every hand's line gives the command that plays it again on its own (``--drawer``,
``--thong``).  ``--json`` writes one object per line: a ``session`` line (ruleset,
players, options, seed, hands), a ``hand`` line per hand (its seed, how it started and
why, the deal, the outcome, the settlement with the rows behind it, the totals), and a
``totals`` line.

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

from chanspec.checks.cli.options import (
    MAX_HANDS,
    add_command,
    add_common,
    hand_count,
    non_default_options,
    resolve,
)
from chanspec.checks.output import check_output_file, say, write_atomic
from chanspec.checks.report import hand_story, narrate
from chanspec.model import kinds
from chanspec.model.chan import cai, cards, pay, session


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
            "  chanspec play --ruleset classic --players 4 --seed 7 --hands 10\n"
            "  chanspec play --ruleset tan --players 2 --seed 1 --preset durak-two\n"
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
    p.add_argument("--thong", type=int, nargs="+", default=[], metavar="SEAT",
                   help="ván trong một buổi: những ghế ù ván này thì có thông / a hand of a "
                        "session: the seats whose win is thông (to play a session's hand "
                        "again)")
    p.add_argument("--hands", type=hand_count("--hands"), default=None, metavar="N",
                   help="chơi một buổi N ván liền, tính tiền từng ván và cộng dồn (bảng có "
                        "[payment] và [session], vd. classic) / play a session of N hands, "
                        "settle each and keep the running totals (tables with [payment] and "
                        f"[session], e.g. classic; at most {MAX_HANDS:,})")
    p.add_argument("--policy", choices=narrate.POLICIES, default="eager",
                   help="cách chơi ngẫu nhiên: eager ưu tiên ù/Chíu/ăn, uniform chọn đều / "
                        "random play: eager prefers wins and claims (default), uniform picks "
                        "any legal action")
    p.add_argument("--declare-mistakes", type=rate, default=narrate.DECLARE_MISTAKES,
                   metavar="P",
                   help="tỉ lệ người ù xướng sai (thiếu hay thừa một cước), từ 0 đến 1 / how "
                        "often a random winner declares wrongly (one cước left out or one "
                        f"too many), from 0 to 1 (default {narrate.DECLARE_MISTAKES})")
    p.add_argument("--out", metavar="FILE",
                   help="ghi ra tệp thay vì in / write to FILE (atomically) instead of stdout")
    add_common(p)
    p.set_defaults(func=run)


def rate(text: str) -> float:
    """argparse type for --declare-mistakes: a number from 0 to 1."""
    try:
        p = float(text)
    except ValueError:
        p = -1.0
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a rate from 0 to 1 such as 0.1, got "
                                          f"{text!r}")
    return p


def log_lines(rules: Any, deal: Any, actions: Any, seed: int) -> list[dict[str, Any]]:
    from chanspec.checks.conform import logs

    return logs.record(rules, deal, actions, extra={"x-seed": seed})


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        check_output_file(args.out)
    rules = resolve(args)
    story = kinds.of(rules.table).story
    if story is not None:  # a kind that tells its own hands (Tấn)
        return _run_story(args, rules, story)
    if not 0 <= args.opener < rules.players:
        print(say(args.lang, f"--opener phải là một chỗ ngồi từ 0 đến {rules.players - 1}",
                  f"--opener must be a seat 0..{rules.players - 1}"), file=sys.stderr)
        return 2
    problem = _seat_problem(args, rules) or _session_problem(args, rules)
    if problem is not None:
        print(say(args.lang, *problem), file=sys.stderr)
        return 2
    if args.hands is not None:
        return _run_session(args, rules)
    deal, actions = narrate.random_game(rules, args.seed, args.opener, args.policy,
                                        drawer=args.drawer, thong=tuple(sorted(args.thong)),
                                        mistakes=args.declare_mistakes)
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
        if pay.has_payment(rules) and st.phase == "over":
            settled = pay.settle(rules, st)
            pay_vi, pay_en = pay.words(settled)
            why_vi, why_en = hand_story.rule_names(rules, settled.rules)
            text += "\n" + say(args.lang, f"Tính tiền: {pay_vi}", f"Settled: {pay_en}") + "\n"
            text += say(args.lang, f"theo luật: {why_vi}", f"by the rules: {why_en}",
                        INDENT) + "\n"
        text += "\n" + say(args.lang,
                           "Phát lại: chanspec play " + _replay_args(args, rules),
                           "Replay: chanspec play " + _replay_args(args, rules)) + "\n"
    return _emit(args, text)


def _run_story(args: argparse.Namespace, rules: Any, story: Any) -> int:
    """A hand of a kind with its own story (`Kind.story`): the seeded random hand told
    line by line; what only Chắn's hands have is refused in one line."""
    kind = kinds.of(rules.table)
    name = kind.name
    for flag, given in (("--json", args.json and kind.log is None),
                        ("--hands", args.hands is not None),
                        ("--drawer", args.drawer is not None), ("--thong", bool(args.thong)),
                        ("--opener", args.opener != 0),
                        ("--policy", args.policy != "eager")):
        if given:
            print(say(args.lang, f"chanspec play: {flag} chưa dùng được cho loại {name!r}",
                      f"chanspec play: {flag} is not available for kind {name!r} yet"),
                  file=sys.stderr)
            return 2
    try:
        if args.json:  # the hand as a game log in the kind's own format (`Kind.log`)
            return _emit(args, "".join(json.dumps(x, ensure_ascii=False) + "\n"
                                       for x in kind.log.random_log(rules, args.seed)))
        lines = story(rules, args.seed)
    except ValueError as exc:  # a deal or a reading the kind's machine refuses (its vi, en)
        if not (hasattr(exc, "vi") and hasattr(exc, "en")):
            raise
        print(say(args.lang, f"chanspec play: {exc.vi}", f"chanspec play: {exc.en}"),
              file=sys.stderr)
        return 2
    opts = non_default_options(rules)
    shown = ", ".join(f"{k}={v}" for k, v in opts.items())
    head = [say(args.lang, f"{rules.table.title_vi} — {rules.players} người, hạt giống "
                f"{args.seed} (chọn ngẫu nhiên đều)",
                f"{rules.table.title_en} — {rules.players} players, seed {args.seed} "
                "(uniform random choices)"),
            say(args.lang, "Tuỳ chọn khác mặc định: " + (shown or "không có"),
                "Options off their default: " + (shown or "none")), ""]
    body = [say(args.lang, vi, en) for vi, en in lines]
    again = f"--ruleset {args.ruleset} --players {rules.players} --seed {args.seed}" + "".join(
        f" --option {k}={v}" for k, v in opts.items())
    tail = ["", say(args.lang, "Phát lại: chanspec play " + again,
                    "Replay: chanspec play " + again)]
    return _emit(args, "\n".join(head + body + tail) + "\n")


def _emit(args: argparse.Namespace, text: str) -> int:
    """Write the text to ``--out`` (atomically) or to standard output."""
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


def _session_problem(args: argparse.Namespace, rules: Any) -> tuple[str, str] | None:
    """Why --hands / --thong do not fit this table or each other (vi, en), or None."""
    n = rules.players
    if (args.hands is not None or args.thong) and not session.plays_sessions(rules):
        flag = "--hands" if args.hands is not None else "--thong"
        return (f"{flag}: bảng {rules.table.id!r} không nói ván sau nối tiếp ván trước thế "
                "nào (không có [session], [payment]); chỉ chơi từng ván một",
                f"{flag}: table {rules.table.id!r} says nothing of what carries over from "
                "hand to hand (no [session], [payment]); it plays single hands only")
    if args.hands is not None and args.hands < 1:
        return ("--hands phải từ 1 trở lên", f"--hands must be 1 or more, got {args.hands}")
    if args.hands is not None and args.thong:
        return ("--thong chỉ dùng cho một ván; trong một buổi, thông đến từ ván trước",
                "--thong is for a single hand; in a session thông comes from the last hand")
    bad = [s for s in args.thong if not 0 <= s < n]
    if bad or len(set(args.thong)) != len(args.thong):
        return (f"--thong nhận các ghế khác nhau từ 0 đến {n - 1}",
                f"--thong takes distinct seats 0..{n - 1}, got {args.thong}")
    return None


def _run_session(args: argparse.Namespace, rules: Any) -> int:
    """``--hands N``: a session, hand by hand, with what each hand paid and the totals."""
    played, stopped = session.play(
        rules, args.hands, args.seed,
        lambda st, s: narrate.play_out(st, s, args.policy, mistakes=args.declare_mistakes),
        drawer=args.drawer)
    if args.json:
        head = {"type": "session", "ruleset": rules.table.id, "players": rules.players,
                "options": dict(sorted(rules.options.items())), "seed": args.seed,
                "hands": args.hands, "policy": args.policy, "drawer": args.drawer,
                "declare_mistakes": args.declare_mistakes}
        tail = {"type": "totals", "hands": len(played),
                "totals": list(played[-1].totals), "stopped": stopped}
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n"
                       for x in [head, *(h.as_json() | {"replay": _hand_args(args, rules, h)}
                                         for h in played), tail])
    else:
        lines = [say(args.lang,
                     f"{rules.table.title_vi} — một buổi {args.hands} ván, {rules.players} "
                     f"người, hạt giống {args.seed}",
                     f"{rules.table.title_en} — a session of {args.hands} hands, "
                     f"{rules.players} players, seed {args.seed}"), ""]
        for h in played:
            lines += _hand_lines(args, rules, h)
        last = played[-1].totals
        lines.append(say(args.lang, "Tổng cả buổi: " + _totals_vi(last),
                         "Session totals: " + _totals_en(last)))
        if stopped is not None:
            lines.append(say(args.lang, f"Buổi chơi dừng sớm: {stopped}",
                             f"The session stopped early: {stopped}"))
        text = "\n".join(lines) + "\n"
    return _emit(args, text)


def _totals_vi(totals: Any) -> str:
    return ", ".join(f"ghế {s} {v:+d}" for s, v in enumerate(totals))


def _totals_en(totals: Any) -> str:
    return ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(totals))


def _hand_lines(args: argparse.Namespace, rules: Any, h: session.HandPlayed) -> list[str]:
    """A hand of a session in a few lines: how it started, how it went (claims, faults
    named, báo), how it ended (the winning hand laid out, the declaration), who paid whom
    and by which rules (in words), the totals, and the command that plays it again."""
    lang = args.lang
    out = h.outcome or {}
    d = out.get("declaration") or {}
    lines = [say(lang, f"Ván {h.number} (hạt giống {h.seed}): {h.start.why_vi}",
                 f"Hand {h.number} (seed {h.seed}): {h.start.why_en}")]
    if h.deal.cai is not None and h.deal.drawer is not None:
        name = cards.name(h.deal.cai)
        lines.append(say(lang, f"Ghế {h.deal.drawer} bốc cái được {name}, ghế {h.deal.opener} "
                               "được cái và đánh đầu",
                         f"Seat {h.deal.drawer} turns up {name}, seat {h.deal.opener} takes "
                         "the cái pile and opens", INDENT))
    else:
        lines.append(say(lang, f"Ghế {h.deal.opener} đánh đầu", f"Seat {h.deal.opener} opens",
                         INDENT))
    c = hand_story.course(rules, h.deal, h.actions)
    winner = out.get("winner") if out.get("result") == "win" else None
    lines += [say(lang, vi, en, INDENT)
              for vi, en in hand_story.course_words(rules, c, len(h.actions), winner)]
    if out.get("result") == "win":
        kind_vi = {"u": "ù", "chiu-u": "Chíu-Ù", "opening": "thiên ù"}[out["kind"]]
        kind_en = {"u": "wins", "chiu-u": "wins by chíu-ù", "opening": "wins on the deal"}[
            out["kind"]]
        on_vi = f" với {narrate.card_name(out['card'])}" if out.get("card") else ""
        on_en = f" on {narrate.card_name(out['card'])}" if out.get("card") else ""
        shown = hand_story.layout(out.get("hand", []), out.get("card"))
        lines.append(say(lang, f"Ghế {out['winner']} {kind_vi}{on_vi}, {out['chan']} Chắn: "
                               f"{shown}",
                         f"Seat {out['winner']} {kind_en}{on_en}, {out['chan']} chắn: {shown}",
                         INDENT))
        rows = rules.table.rows
        named = ", ".join(rows[r].title_vi or r for r in d.get("named", []))
        named_en = ", ".join(rows[r].title_en or r for r in d.get("named", []))
        judged = d.get("judgement", "")
        lines.append(say(lang, f"Xướng: {named or 'không cước nào'} — "
                               f"{narrate.JUDGED_VI.get(judged, judged)}",
                         f"Declares: {named_en or 'no cước'} — "
                         f"{narrate.JUDGED_EN.get(judged, judged)}", INDENT))
    elif out.get("result") == "draw":
        lines.append(say(lang, "Hết nọc mà chưa ai ù: ván hòa",
                         "The nọc ran out with no win: a drawn hand", INDENT))
    else:
        lines.append(say(lang, "Ván kẹt, không kết thúc", "The hand is stuck and does not end",
                         INDENT))
    pay_vi, pay_en = pay.words(h.settlement)
    # the faults are named above: the settlement's own rows here
    told = {r for f in c.faults for r in f["rules"]}
    why_vi, why_en = hand_story.rule_names(
        rules, [r for r in h.settlement.rules if r not in told])
    lines += [
        say(lang, f"Tính tiền: {pay_vi}", f"Settled: {pay_en}", INDENT),
        say(lang, f"theo luật: {why_vi}", f"by the rules: {why_en}", INDENT * 2),
        say(lang, f"Sau ván {h.number}: {_totals_vi(h.totals)}",
            f"After hand {h.number}: {_totals_en(h.totals)}", INDENT),
        say(lang, f"Chơi lại ván này: chanspec play {_hand_args(args, rules, h)}",
            f"Play this hand again: chanspec play {_hand_args(args, rules, h)}", INDENT),
        "",
    ]
    return lines


INDENT = "  "


def _hand_args(args: argparse.Namespace, rules: Any, h: session.HandPlayed) -> str:
    """The arguments of ``chanspec play`` that play hand `h` of a session on its own."""
    parts = [f"--ruleset {args.ruleset}", f"--players {rules.players}", f"--seed {h.seed}"]
    if cai.has_ritual(rules):
        parts.append(f"--drawer {h.deal.drawer}")
    elif h.deal.opener:
        parts.append(f"--opener {h.deal.opener}")
    if h.deal.thong:
        parts.append("--thong " + " ".join(str(s) for s in h.deal.thong))
    if args.policy != "eager":
        parts.append(f"--policy {args.policy}")
    if args.declare_mistakes != narrate.DECLARE_MISTAKES:
        parts.append(f"--declare-mistakes {args.declare_mistakes:g}")
    parts += [f"--option {k}={v}" for k, v in non_default_options(rules).items()]
    return " ".join(parts)


def _replay_args(args: argparse.Namespace, rules: Any) -> str:
    parts = [f"--players {rules.players}", f"--seed {args.seed}"]
    if args.ruleset != "family":
        parts.insert(0, f"--ruleset {args.ruleset}")
    if args.opener:
        parts.append(f"--opener {args.opener}")
    if args.drawer is not None:
        parts.append(f"--drawer {args.drawer}")
    if args.thong:
        parts.append("--thong " + " ".join(str(s) for s in sorted(args.thong)))
    if args.policy != "eager":
        parts.append(f"--policy {args.policy}")
    if args.declare_mistakes != narrate.DECLARE_MISTAKES:
        parts.append(f"--declare-mistakes {args.declare_mistakes:g}")
    parts += [f"--option {k}={v}" for k, v in non_default_options(rules).items()]
    return " ".join(parts)
