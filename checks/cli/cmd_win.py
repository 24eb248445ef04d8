"""``chanspec win``: is this hand a win (ù), with how many chắn, and by which rules?
With a table that states cước (classic), also which cước the winning hand has.

One hand from the command line::

    chanspec win 2v 2v 3n 3n ... --with 7s --laid "2v 2v" [--chiu | --opening] [--json]

The positional cards are *every* card held before the completing card, laid-down ones
included; each ``--laid`` names one laid-down group among them.

Batch mode, ``chanspec win --jsonl``: one JSON object per line on stdin::

    {"players": 5, "hand": ["2v", ...], "with": "7s", "laid": [["2v", "2v"]],
     "options": {"lao-thang": "off"}, "kind": "u"}

``players``, ``laid``, ``options`` and ``kind`` are optional (defaults: --players, none,
the table's defaults, ``u``).  A list of cards is a JSON list with one card per element
(``["chi", "chi"]`` is two Chi Chi cards); a string in place of a list is refused, for
``hand`` and for each laid group alike.  One output line per input line: the verdict
``{"win", "chan", "pairs", "rules", "reason"}`` (plus ``"cuoc"``, the hand's cước, when the
table has [[cuoc]] entries), or ``{"error": ..., "line": N}`` for a line that
cannot be judged.  Blank lines are skipped.  Exit 0 when every line was judged, 2 if
any was malformed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from chanspec.checks.cli.options import (
    add_command,
    add_common,
    default_players,
    non_default_options,
    options_of,
    resolve,
)
from chanspec.checks.output import pick, say
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, cuoc, table, win

KINDS: tuple[win.WinKind, ...] = ("u", "chiu-u", "opening")
JSONL_KEYS = ("players", "hand", "with", "laid", "options", "kind")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "win",
        "xét một bài có ù không, mấy Chắn, theo luật nào",
        "judge whether a hand wins (ù), with how many chắn, and by which rules",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec win 2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 8v 8v 9n 9n 1v 1v 2n 2n "
            "3s 3s 4v 4v --with 7s\n"
            "  echo '{\"hand\": [...], \"with\": \"7s\"}' | chanspec win --jsonl\n\n"
            "Quân bài: mã (2v, 3n, 7s, chi, lao, thang) hoặc tên (\"Tam Văn\").\n"
            "Cards: codes (2v, 3n, 7s, chi, lao, thang) or Vietnamese names (\"Tam Văn\")."
        ),
    )
    p.add_argument(
        "cards", nargs="*", metavar="CARD",
        help="mọi quân đang cầm trước quân ù, kể cả quân đã hạ / every card held before "
             "the completing card, laid-down ones included",
    )
    p.add_argument("--with", dest="with_card", metavar="CARD", action=_Once,
                   help="quân hoàn thành ù / the card that would complete the hand")
    p.add_argument("--laid", action="append", default=[], metavar="CARDS",
                   help='một nhóm đã hạ, lặp lại được / one laid-down group, repeatable '
                        '(e.g. --laid "2v 2v")')
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--chiu", action="store_true",
                      help="ù bằng Chíu (Chíu-Ù) / the win is a chíu-ù")
    kind.add_argument("--opening", action="store_true",
                      help="người mở đầu ù ngay bài được chia / the opener's dealt hand, "
                           "no completing card")
    p.add_argument("--jsonl", action="store_true",
                   help="đọc nhiều bài, mỗi dòng một JSON, từ stdin / batch: one JSON object "
                        "per line on stdin, one JSON verdict per line on stdout")
    add_common(p)
    p.set_defaults(func=run)


class _Once(argparse.Action):
    """An option that may be given once: a second value is refused, not silently kept."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None:
            parser.error(f"{option_string} given twice ({before!r} and {values!r}): a hand "
                         "has one completing card; judge each one in its own command")
        setattr(namespace, self.dest, values)


# --------------------------------------------------------------------------- one hand


def _laid_groups(texts: Sequence[str], rules: table.Rules) -> list[win.Group]:
    """``--laid "2v 2v"`` groups: each is one string of cards (``chi chi`` is two cards)."""
    return [win.group_of(rules.table.check_cards(cards.parse_many(text)), rules)
            for text in texts]


def _json_groups(items: Sequence[Any], rules: table.Rules) -> list[win.Group]:
    """``"laid"`` in a JSON line: a list of groups, each a list of cards."""
    groups = []
    for item in items:
        faces = rules.table.check_cards(cards.parse_list(_card_list(item, "a laid-down group")))
        groups.append(win.group_of(faces, rules))
    return groups


def verdict_json(verdict: win.Verdict,
                 hits: Sequence[cuoc.CuocHit] | None = None) -> dict[str, object]:
    """The verdict object of ``--json`` and ``--jsonl``: the engine's facts plus the reason
    in both languages (the same facts the text output gives), and the hand's cước when the
    table states any (``hits`` is None for a table without [[cuoc]]: no key at all)."""
    out: dict[str, object] = {**verdict.as_json(),
                              "reason": {"vi": verdict.reason_vi, "en": verdict.reason_en}}
    if hits is not None:
        out["cuoc"] = [h.as_json() for h in hits]
    return out


def hand_cuoc(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
              with_card: int | None, verdict: win.Verdict) -> list[cuoc.CuocHit] | None:
    """The cước of the final hand (the completing card included); None when the table
    has no [[cuoc]] entries."""
    if "cuoc" not in rules.table.data:
        return None
    concealed = cards.counts(hand)
    for g in laid:
        for f in g.faces:
            concealed[f] -= 1
    if with_card is not None:
        concealed[with_card] += 1
    return cuoc.hand_cuoc(rules, concealed, laid, verdict)


def judge(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
          with_card: int | None, kind: win.WinKind) -> win.Verdict:
    return win.engine(rules).judge(hand, laid, with_card, kind)


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.cards or args.with_card or args.laid or args.chiu or args.opening:
            raise win.HandError(
                "--jsonl reads every hand from stdin; give no cards, --with, --laid, "
                "--chiu or --opening on the command line")
        return run_jsonl(args, sys.stdin, sys.stdout)
    rules = resolve(args)
    if not args.cards:
        raise win.HandError("no cards given: list the hand, e.g. chanspec win 2v 2v 3n ... "
                            "--with 7s (see chanspec win --help)")
    # cards of the universe, then of this table's deck (classic has no Nhất, Lão, Thang)
    hand = rules.table.check_cards(cards.parse_many(args.cards))
    laid = _laid_groups(args.laid, rules)
    kind: win.WinKind = "chiu-u" if args.chiu else "opening" if args.opening else "u"
    if kind == "opening" and args.with_card:
        raise win.HandError("--opening judges the dealt hand itself; drop --with")
    if kind != "opening" and not args.with_card:
        raise win.HandError("name the completing card with --with CARD, or use --opening "
                            "for the opener's dealt hand")
    with_card = cards.parse(args.with_card) if args.with_card else None
    if with_card is not None:
        rules.table.check_cards([with_card])
    verdict = judge(rules, hand, laid, with_card, kind)
    hits = hand_cuoc(rules, hand, laid, with_card, verdict)
    if args.json:
        print(json.dumps(verdict_json(verdict, hits), ensure_ascii=False))
    else:
        print(render(rules, hand, laid, with_card, kind, verdict, args.lang, hits))
    return 0


def _group_kind(g: Sequence[int], rules: table.Rules) -> tuple[str, str]:
    if len(g) == 4:
        return "Chíu (= 2 Chắn)", "chíu (= 2 chắn)"
    if len(g) == 2 and g[0] == g[1]:
        return "Chắn", "chắn"
    if len(g) == 2 and rules.is_special(g[0], g[1]):
        return "Cạ đặc biệt", "special cạ"
    return "Cạ", "cạ"


def render(rules: table.Rules, hand: Sequence[int], laid: Sequence[win.Group],
           with_card: int | None, kind: win.WinKind, verdict: win.Verdict, lang: str,
           hits: Sequence[cuoc.CuocHit] | None = None) -> str:
    t = rules.table
    out: list[str] = []
    out.append(say(
        lang,
        f"Luật: {t.title_vi} — {rules.players} người, {rules.pairs} đôi, "
        f"ít nhất {rules.min_chan} Chắn",
        f"Rules: {t.title_en} — {rules.players} players, {rules.pairs} pairs, "
        f"at least {rules.min_chan} chắn",
    ))
    changed = non_default_options(rules)
    if changed:
        opts = ", ".join(f"{k}={v}" for k, v in changed.items())
        out.append(say(lang, f"Tùy chọn khác mặc định: {opts}", f"Non-default options: {opts}"))
    kind_vi = {"u": "Ù thường", "chiu-u": "Chíu-Ù", "opening": "ù ngay khi chia bài"}[kind]
    kind_en = {"u": "ordinary ù", "chiu-u": "chíu-ù", "opening": "opening win"}[kind]
    out.append(f"{pick(lang, 'Kiểu ù', 'Kind')}: {pick(lang, kind_vi, kind_en)}")
    out.append(f"{pick(lang, 'Bài', 'Hand')} ({len(hand)}): {cards.names(sorted(hand))}")
    for g in laid:
        out.append(f"  {pick(lang, 'đã hạ', 'laid')}: {cards.names(g.faces)}")
    if with_card is not None:
        out.append(f"{pick(lang, 'Quân ù', 'Completing card')}: {cards.label(with_card)}")
    out.append("")
    head_vi = "Ù" if verdict.win else "Không ù"
    head_en = "WIN" if verdict.win else "NOT A WIN"
    out.append(say(lang, f"Kết quả: {head_vi} — {verdict.reason_vi}",
                   f"Verdict: {head_en} — {verdict.reason_en}"))
    chan = "—" if verdict.chan is None else str(verdict.chan)
    out.append(f"{pick(lang, 'Số Chắn', 'Chắn count')}: {chan}")
    if verdict.groups is None:
        out.append(say(lang, "Không có cách chia thành đôi.", "No decomposition into pairs."))
    else:
        out.append(f"{pick(lang, 'Cách chia', 'Decomposition')}:")
        laid_left = [tuple(sorted(g.faces)) for g in laid]
        chiu_marked = False
        for i, g in enumerate(verdict.groups, 1):
            kv, ke = _group_kind(g, rules)
            notes = []
            key = tuple(sorted(g))
            if key in laid_left:
                laid_left.remove(key)
                notes.append(pick(lang, "đã hạ", "laid"))
            elif kind == "u" and with_card in g and i == len(verdict.groups):
                notes.append(pick(lang, "đôi cuối, có quân ù", "final pair, with the winning card"))
            elif kind == "chiu-u" and len(g) == 4 and g[0] == with_card and not chiu_marked:
                chiu_marked = True
                notes.append(pick(lang, "Chíu-Ù, có quân ù", "chíu-ù, with the winning card"))
            extra = f"  [{'; '.join(notes)}]" if notes else ""
            shown = " + ".join(cards.name(f) for f in g)
            out.append(f"  {i:>2}. {shown} ({pick(lang, kv, ke)}){extra}")
    out.append(f"{pick(lang, 'Luật quyết định', 'Deciding rules')}:")
    for rid in verdict.rules:
        row = t.rows.get(rid)
        if row is None:
            out.append(f"  - {rid}")
            continue
        out.append(f"  - {rid} ({row.section}, {row.status})")
        out.append(say(lang, row.vi, row.en, indent="      "))
    if hits is not None and verdict.win:
        out.append(f"{pick(lang, 'Cước', 'Cước (bonuses)')}:")
        if not hits:
            out.append(say(lang, "  (không có cước nào của bảng)",
                           "  (none of the table's cước)"))
        for h in hits:
            times = f" ×{h.times}" if h.times != 1 else ""
            amounts = []
            if h.diem is not None:
                amounts.append(f"{h.diem} {pick(lang, 'điểm', 'points')}")
            if h.dich is not None:
                amounts.append(f"{h.dich} dịch")
            amount = f" — {', '.join(amounts)}" if amounts else ""
            out.append(f"  - {h.name_vi}{times} / {h.name_en}{amount}  [{h.row}]")
    return "\n".join(out)


# --------------------------------------------------------------------------- batch


class _LineError(Exception):
    pass


def _card_list(v: Any, what: str) -> list[str]:
    """A JSON list of cards, one card per element.  A string is refused (for "hand" and
    for each laid group alike): ``"chi chi"`` would be ambiguous, ``["chi", "chi"]`` is not."""
    if isinstance(v, str):
        raise _LineError(f"{what} must be a JSON list with one card per element, such as "
                         f"{json.dumps(v.replace(',', ' ').split(), ensure_ascii=False)}, "
                         f"not the string {v!r}")
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _LineError(f"{what} must be a list of card codes such as [\"2v\", \"2v\"], "
                         f"found {_short(v)}")
    return v


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _judge_obj(obj: Any, tbl: table.Table, players_default: int,
               base_options: Mapping[str, str],
               cache: dict[tuple[Any, ...], table.Rules]) -> dict[str, object]:
    if not isinstance(obj, dict):
        raise _LineError(f"expected a JSON object, found {type(obj).__name__}")
    unknown = sorted(set(obj) - set(JSONL_KEYS))
    if unknown:
        raise _LineError(f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(JSONL_KEYS)}")
    if "hand" not in obj:
        raise _LineError("missing \"hand\": the list of every card held before the "
                         "completing card")
    players = obj.get("players", players_default)
    if not isinstance(players, int) or isinstance(players, bool):
        raise _LineError(f"\"players\" must be one of the table's player counts "
                         f"({', '.join(str(n) for n in sorted(tbl.variants))}), found {players!r}")
    options = obj.get("options") or {}
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        raise _LineError(f"\"options\" must map option names to values (strings), "
                         f"found {options!r}")
    options = {**base_options, **options}
    kind = obj.get("kind", "u")
    if kind not in KINDS:
        raise _LineError(f"\"kind\" must be one of {', '.join(KINDS)}, found {kind!r}")
    key = (players, tuple(sorted(options.items())))
    rules = cache.get(key)
    if rules is None:
        rules = cache[key] = tbl.resolve(players, options)
    hand = tbl.check_cards(cards.parse_list(_card_list(obj["hand"], '"hand"')))
    laid_raw = obj.get("laid") or []
    if not isinstance(laid_raw, list):
        raise _LineError(f"\"laid\" must be a list of groups, each a list of cards such as "
                         f"[[\"2v\", \"2v\"]], found {_short(laid_raw)}")
    laid = _json_groups(laid_raw, rules)
    w = obj.get("with")
    if w is not None and not isinstance(w, str):
        raise _LineError(f"\"with\" must be one card code, found {w!r}")
    with_card = tbl.check_cards([cards.parse(w)])[0] if w is not None else None
    verdict = judge(rules, hand, laid, with_card, kind)
    return verdict_json(verdict, hand_cuoc(rules, hand, laid, with_card, verdict))


def run_jsonl(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    tbl = table.load(args.ruleset)
    base_options: Mapping[str, str] = options_of(args, tbl)
    cache: dict[tuple[Any, ...], table.Rules] = {}
    bad = 0
    for n, line in enumerate(inp, 1):
        if n == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark some editors write
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            result = _judge_obj(obj, tbl, default_players(tbl, args.players), base_options,
                                    cache)
        except json.JSONDecodeError as exc:
            bad += 1
            result = {"error": f"not valid JSON: {exc.msg} at column {exc.colno}", "line": n}
        except RecursionError:
            bad += 1
            result = {"error": "JSON nested too deeply to read: a hand line is one flat object "
                      "such as {\"hand\": [\"2v\", ...], \"with\": \"7s\"}", "line": n}
        except (_LineError, cards.CardError, win.HandError, shared_table.OptionError) as exc:
            bad += 1
            result = {"error": str(exc), "line": n}
        except (TypeError, ValueError) as exc:
            bad += 1
            result = {"error": f"malformed input: {exc}", "line": n}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return 2 if bad else 0
