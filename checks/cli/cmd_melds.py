"""``chanspec melds``: what a Chiha hand is worth in lệnh, and how it splits into melds.

One hand from the command line (a table of a kind with melds: Chiha, the default here)::

    chanspec melds tgd sid tud xev phv mav chd chv chx --laid "tgx tgx" --xep "mad mad mad"

The positional cards are the hand; each ``--laid`` names a meld shown on the table and each
``--xep`` one lying face down in the xệp.  It prints the best split of the hand (cards left
over as rác allowed), whether the hand splits with nothing left over, the player's lệnh as
the table's row ``lenh-partition`` counts them (under ``player-chooses``, the player's own
split given with ``--arrange``), whether they reach the thresholds of ù and tới quan,
which cards may be discarded, and the rows deciding all of it.  Everything is computed by
the meld engine (`chanspec.model.chiha.melds`), which two independent oracles check.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from chanspec.checks.cli.options import add_command, add_common, non_default_options, resolve
from chanspec.checks.output import pick, say
from chanspec.model import kinds


class MeldInputError(ValueError):
    """Cards or melds the command cannot take (one line, exit 2)."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "melds",
        "bài Chiha được bao nhiêu lệnh, chia thành nhóm thế nào",
        "how many lệnh a Chiha hand is worth, and how it splits into melds",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec melds tgd sid tud xev phv mav chd chv chx --laid \"tgx tgx\"\n\n"
            "Quân bài: mã hàng rồi mã màu (tg tướng, si sĩ, tu tượng, xe, ph pháo, ma mã, ch "
            "chốt; d đỏ, v vàng, x xanh, t trắng) hoặc tên (\"Tướng đỏ\").\n"
            "Cards: a rank code then a colour code (tgd = Tướng đỏ, the red General) or the "
            "Vietnamese name. Default --ruleset here: chiha."),
        codes=("0   xong / ok", "2   quân bài hay nhóm không hợp lệ / bad cards or melds"),
    )
    p.add_argument("cards", nargs="*", metavar="CARD",
                   help="các quân trên tay / the cards in the hand")
    p.add_argument("--laid", action="append", default=[], metavar="CARDS",
                   help='một nhóm đã hạ ngửa, lặp lại được / a meld shown on the table, '
                        'repeatable (e.g. --laid "tgx tgx")')
    p.add_argument("--xep", action="append", default=[], metavar="CARDS",
                   help="một nhóm úp trong xệp, lặp lại được / a meld face down in the xệp, "
                        "repeatable")
    p.add_argument("--arrange", action="append", default=[], metavar="CARDS",
                   help="cách người chơi tự xếp bài trên tay, mỗi lần một nhóm (chỉ khi "
                        "lenh-partition=player-chooses) / the player's own split of the hand, "
                        "one meld each (only under lenh-partition=player-chooses)")
    add_common(p)
    p.set_defaults(func=run, ruleset="chiha")


def _cards(deck: Any, words: Sequence[str], what: str) -> list[int]:
    faces = deck.parse_all(words)
    if not faces:
        raise MeldInputError(f"{what}: no cards given")
    return faces


def run(args: argparse.Namespace) -> int:
    from chanspec.model.chiha.deck import ChihaCardError, ChihaHandError
    from chanspec.model.chiha.melds import NotAMeld

    kind = kinds.of(kinds.load(args.ruleset))
    if kind.melds is None:
        raise kinds.UnsupportedError(
            f"chanspec melds: bộ luật {args.ruleset!r} thuộc loại {kind.name!r} "
            f"({kind.title_vi}), không có nhóm lệnh; bài Chắn thì dùng chanspec win",
            f"chanspec melds: ruleset {args.ruleset!r} is of kind {kind.name!r} "
            f"({kind.title_en}), which has no melds; for a Chắn hand use chanspec win")
    rules = resolve(args)
    try:
        doc = judge(rules, kind.melds(rules), args)
    except (ChihaCardError, ChihaHandError, NotAMeld, MeldInputError) as exc:
        print(f"chanspec melds: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print(render(rules, doc, args.lang))
    return 0


def judge(rules: Any, eng: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Everything the command says of the hand, as the ``--json`` object."""
    from chanspec.model.chiha.melds import Laid
    from chanspec.model.chiha.table import WinBar

    deck = eng.deck
    if not args.cards:
        raise MeldInputError("no cards given: list the hand, e.g. chanspec melds tgd sid tud "
                             "(see chanspec melds --help)")
    hand = deck.parse_all(args.cards)
    laid = [Laid(tuple(sorted(_cards(deck, [t], "--laid"))), False) for t in args.laid]
    laid += [Laid(tuple(sorted(_cards(deck, [t], "--xep"))), True) for t in args.xep]
    every = hand + [f for x in laid for f in x.faces]
    deck.counts(every)  # no more copies of a face than the deck has
    laid_melds = [eng.meld_of(x.faces) for x in laid]
    counts = deck.counts(hand)
    row = rules.rid("win.count_rule")
    reading = rules.value(row)
    arrangement = [_cards(deck, [t], "--arrange") for t in args.arrange] or None
    if arrangement is not None and reading != "player-chooses":
        raise MeldInputError(f"--arrange is the player's own split, counted only under "
                             f"{row}=player-chooses (here {row}={reading}); add --option "
                             f"{row}=player-chooses or drop --arrange")
    if arrangement is None and reading == "player-chooses":
        raise MeldInputError(f"{row}=player-chooses counts the player's own split of the "
                             "hand: give it with --arrange, one meld each")
    ev = eng.evaluate(counts)
    count = eng.player_lenh(counts, laid, arrangement)
    bar = WinBar.of(rules)
    bans = eng.discard_bans(counts)

    def meld(m: Any, concealed: bool) -> dict[str, Any]:
        return {"cards": [deck.code(f) for f in m.faces], "rule": m.rule,
                "lenh": m.lenh(concealed), "concealed": concealed}

    deciding = [row, *count.rules, *bar.rows,
                *(r for why in bans.values() for r in why),
                *(m.rule for m in ev.melds), *(m.rule for m in ev.exact_melds or ())]
    return {
        "ruleset": rules.table.id, "players": rules.players,
        "options": dict(non_default_options(rules)),
        "hand": [deck.code(f) for f in sorted(hand)],
        "laid": [meld(m, x.face_down) for m, x in zip(laid_melds, laid, strict=True)],
        "best": {"lenh": ev.best, "melds": [meld(m, True) for m in ev.melds],
                 "trash": [deck.code(f) for f in ev.trash]},
        "exact": None if ev.exact is None else {
            "lenh": ev.exact, "melds": [meld(m, True) for m in ev.exact_melds or ()]},
        "player": {"rule": row, "reading": reading, "lenh": count.lenh,
                   "melds": [meld(m, c) for m, c in count.melds],
                   "trash": [deck.code(f) for f in count.trash],
                   "wins": bar.wins(count.lenh), "quan": bar.is_quan(count.lenh),
                   "threshold": {"lenh": bar.threshold, "more_than": bar.more_than,
                                 "rule": bar.rows[0]},
                   "quan_threshold": {"lenh": bar.quan, "more_than": bar.quan_more,
                                      "rule": bar.rows[1]}},
        "discard": {deck.code(f): list(why) for f, why in bans.items()},
        "rules": list(dict.fromkeys(deciding)),
    }


def render(rules: Any, doc: dict[str, Any], lang: str) -> str:
    deck = rules.deck
    t = rules.table

    def names(codes: Sequence[str]) -> str:
        return ", ".join(deck.name(deck.parse(c), "vi" if lang == "vi" else "en")
                         for c in codes) or "—"

    def title(rid: str) -> str:
        row = t.rows.get(rid)
        return row.title(lang) if row is not None else rid

    def meld_line(i: int, m: dict[str, Any]) -> str:
        where = pick(lang, "giấu", "concealed") if m["concealed"] else pick(lang, "ngửa",
                                                                           "shown")
        return (f"  {i:>2}. {' + '.join(names([c]) for c in m['cards'])}: {m['lenh']} "
                f"lệnh ({title(m['rule'])}, {m['rule']}; {where})")

    out = [say(lang, f"Luật: {t.title_vi} — {rules.players} người",
               f"Rules: {t.title_en} — {rules.players} players")]
    if doc["options"]:
        opts = ", ".join(f"{k}={v}" for k, v in doc["options"].items())
        out.append(say(lang, f"Tùy chọn khác mặc định: {opts}", f"Non-default options: {opts}"))
    out.append(f"{pick(lang, 'Bài trên tay', 'Hand')} ({len(doc['hand'])}): "
               f"{names(doc['hand'])}")
    for m in doc["laid"]:
        where = pick(lang, "xệp, úp", "xệp, face down") if m["concealed"] else \
            pick(lang, "đã hạ, ngửa", "laid, shown")
        out.append(f"  {where}: {names(m['cards'])} ({m['lenh']} lệnh, {m['rule']})")
    out.append("")
    best = doc["best"]
    out.append(say(lang, f"Cách chia bài trên tay được nhiều lệnh nhất (được để rác): "
                         f"{best['lenh']} lệnh",
                   f"The hand's best split (cards may be left over): {best['lenh']} lệnh"))
    out += [meld_line(i, m) for i, m in enumerate(best["melds"], 1)]
    out.append(f"  {pick(lang, 'rác', 'left over (rác)')}: {names(best['trash'])}")
    ex = doc["exact"]
    if ex is None:
        out.append(say(lang, "Bài trên tay không chia hết thành nhóm được (luôn còn rác).",
                       "The hand does not split wholly into melds (something is always "
                       "left over)."))
    else:
        out.append(say(lang, f"Chia hết thành nhóm, không còn rác: {ex['lenh']} lệnh",
                       f"Split wholly into melds, nothing left over: {ex['lenh']} lệnh"))
        out += [meld_line(i, m) for i, m in enumerate(ex["melds"], 1)]
    pl = doc["player"]
    out.append("")
    out.append(say(lang, f"Lệnh của người chơi theo dòng {pl['rule']} = {pl['reading']}: "
                         f"{pl['lenh']} lệnh",
                   f"The player's lệnh as row {pl['rule']} = {pl['reading']} counts them: "
                   f"{pl['lenh']} lệnh"))
    for key, vi, en in (("threshold", "ù", "a win (ù)"), ("quan_threshold", "tới quan",
                                                          "tới quan")):
        th = pl[key]
        reached = pl["wins"] if key == "threshold" else pl["quan"]
        cmp_vi = "hơn" if th["more_than"] else "ít nhất"
        cmp_en = "more than" if th["more_than"] else "at least"
        out.append(say(
            lang,
            f"  {'đủ' if reached else 'chưa đủ'} lệnh để {vi} (cần {cmp_vi} {th['lenh']}, "
            f"dòng {th['rule']}{'' if key != 'threshold' else '; còn phải hết bài trên tay'})",
            f"  {'enough' if reached else 'not enough'} lệnh for {en} ({cmp_en} "
            f"{th['lenh']}, row {th['rule']}"
            f"{'' if key != 'threshold' else '; the hand must also be emptied'})"))
    may = [c for c, why in doc["discard"].items() if not why]
    out.append(f"{pick(lang, 'Được vứt', 'May be discarded')}: {names(may)}")
    for c, why in doc["discard"].items():
        if why:
            out.append(f"  {pick(lang, 'không được vứt', 'may not be discarded')}: "
                       f"{names([c])} ({', '.join(why)})")
    out.append(f"{pick(lang, 'Luật quyết định', 'Deciding rules')}:")
    for rid in doc["rules"]:
        row = t.rows.get(rid)
        out.append(f"  - {rid}" if row is None else
                   f"  - {rid} ({row.section}, {row.status}): {row.title(lang)}")
    return "\n".join(out)
