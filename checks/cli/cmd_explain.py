"""``chanspec explain``: what may this seat do here, and why not the rest?

    chanspec explain STATE_OR_TRACE --seat 2 [--step K] [--json] [--lang en]

STATE_OR_TRACE is a game log written by ``chanspec play --json`` (NDJSON), a state file
(``State.to_json()``, e.g. the ``state`` of an ``explore`` finding) or an ITF trace.
The actions in it are replayed on the reference machine (the first K with ``--step``);
then every action of the seat that is legal is listed with the rules that allow it,
and every other candidate action with the rules that forbid it, each rule with its
section and its paraphrase from the table.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chanspec.checks.cli.options import add_command, add_log_ruleset, log_table
from chanspec.checks.output import count, say, with_article
from chanspec.checks.report.narrate import action_words
from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, ActionError, State

PHASE_VI = {"opening": "mở đầu", "discard": "phải đánh", "return": "phải trả cửa",
            "window": "có quân ở cửa", "declare": "người ù đang xướng", "over": "ván đã hết",
            "chance": "chưa chia"}
PHASE_EN = {"opening": "opening", "discard": "a discard is due", "return": "a return is due",
            "window": "a card is at a gate", "declare": "the winner declares their cước",
            "over": "the hand is over", "chance": "not dealt"}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "explain",
        "một người được làm gì ở thời điểm này, và vì sao không được làm các việc khác",
        "what a seat may do at this point, and why each other action is forbidden",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec play --players 5 --seed 7 --json > game.ndjson\n"
            "  chanspec explain game.ndjson --seat 2 --step 10"
        ),
    )
    p.add_argument("file", metavar="STATE_OR_TRACE",
                   help="tệp ván (NDJSON của play --json, tệp trạng thái JSON, hoặc ITF) / a "
                        "game log (play --json NDJSON), a state JSON file, or an ITF trace")
    p.add_argument("--seat", type=int, required=True, help="chỗ ngồi / the seat to explain")
    p.add_argument("--step", type=int, default=None, metavar="K",
                   help="chỉ phát lại K nước đầu / replay only the first K actions "
                        "(default: all)")
    p.add_argument("--json", action="store_true", help="in JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="vi = tiếng Việt kèm tiếng Anh (mặc định), en = chỉ tiếng Anh / "
                        "vi = Vietnamese with English (default), en = English only")
    add_log_ruleset(p)
    p.set_defaults(func=run)


def _error(args: argparse.Namespace, vi: str, en: str) -> int:
    print("chanspec explain: " + say(args.lang, vi, en), file=sys.stderr)
    return 2


def load_state(args: argparse.Namespace) -> State | int:
    from chanspec.checks.conform import logs, records

    try:
        log = records.load(args.file, log_table(args))
    except logs.LogError as exc:
        return _error(args, f"không đọc được {args.file}: {exc}",
                      f"cannot read {args.file}: {exc}")
    if log.kind is not None and not log.kind.supports("explain"):  # a kind's own log
        return _error(args, f"{args.file} là nhật ký loại {log.kind.name!r} "
                      f"({log.kind.title_vi}); lệnh này chưa nhận loại ấy (chanspec replay "
                      "thì nhận)", f"{args.file} is a log of kind {log.kind.name!r} "
                      f"({log.kind.title_en}); this command does not take that kind yet "
                      "(chanspec replay does)")
    actions = log.actions()
    if args.step is not None:
        if not 0 <= args.step <= len(actions):
            return _error(args, f"--step phải từ 0 đến {len(actions)} (tệp có {len(actions)} "
                          "nước)", f"--step must be 0..{len(actions)} (the file has "
                          f"{count(len(actions), 'action')})")
        actions = actions[:args.step]
    st = State(log.rules, log.deal)
    for i, a in enumerate(actions, start=1):
        try:
            st.apply(a)
        except ActionError as exc:
            return _error(args,
                          f"{args.file}: nước thứ {i} ({a.code()}) không hợp lệ: {exc} "
                          f"[{', '.join(exc.rules)}]. Dùng --step {i - 1} để xem trước nước đó.",
                          f"{args.file}: action {i} ({a.code()}) is illegal: {exc} "
                          f"[{', '.join(exc.rules)}]. Use --step {i - 1} to look just before it.")
    return st


def report(st: State, seat: int) -> dict[str, Any]:
    """What the seat may do and why not the rest, as JSON-ready data."""
    legal = [a for a in st.legal_actions(seat)]
    cands = st.candidate_actions(seat)
    seen = set(legal)
    forbidden = [a for a in cands if a not in seen]
    if st.phase == "window" and seat not in st.pending() and st.window is not None \
            and seat not in st.window.responses:
        forbidden = [a for a in forbidden if a.kind != "pass"]

    def item(a: Action) -> dict[str, Any]:
        e = st.explain(a)
        vi, en = action_words(st, a)
        return {"action": a.code(), "kind": a.kind,
                "card": None if a.card is None else cards.code(a.card),
                "vi": vi, "en": en, "rules": list(e.rules), "why_vi": e.vi, "why_en": e.en}

    items_ok = [item(a) for a in legal]
    items_no = [item(a) for a in forbidden]
    ids = dict.fromkeys(r for it in items_ok + items_no for r in it["rules"])
    rows = st.rules.table.rows
    w = st.window
    position: dict[str, Any] = {
        "actions_played": len(st.history), "phase": st.phase, "pending": list(st.pending()),
        "noc_left": st.noc_left(),
        "hand": cards.codes(cards.expand(st.hands[seat])),
        "laid": [cards.codes(g.faces) for g in st.laid[seat]],
    }
    if w is not None:
        position["window"] = {"card": cards.code(w.card), "source": w.source, "gate": w.gate,
                              "turn": w.turn}
    if st.deal is not None and st.deal.cai is not None:  # face up: every seat sees it
        start = st.events[0] if st.events else {}
        position["cai"] = {"card": cards.code(st.deal.cai), "drawer": st.deal.drawer,
                           "opener": st.deal.opener, "rules": list(start.get("rules", []))}
    if st.is_terminal():
        position["outcome"] = st.outcome()
    return {
        "seat": seat, "position": position, "legal": items_ok, "forbidden": items_no,
        "rules": {r: {"section": rows[r].section, "status": rows[r].status,
                      "vi": rows[r].vi, "en": rows[r].en} for r in ids if r in rows},
    }


def grouped(items: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Consecutive items of one kind refused for the same reason, together."""
    out: list[list[dict[str, Any]]] = []
    for it in items:
        if (out and it["card"] is not None and out[-1][0]["card"] is not None
                and (it["kind"], it["why_en"], it["rules"]) ==
                (out[-1][0]["kind"], out[-1][0]["why_en"], out[-1][0]["rules"])):
            out[-1].append(it)
        else:
            out.append([it])
    return out


def group_words(it: dict[str, Any], names: str) -> tuple[str, str]:
    name = cards.name(cards.parse(it["card"]))
    if it["vi"].endswith(name) and it["en"].endswith(name):
        return (it["vi"][:-len(name)] + f"một trong: {names}",
                it["en"][:-len(name)] + f"any of: {names}")
    verb_vi = {"discard": "đánh", "return": "trả", "eat": "ăn bằng", "reclaim": "nhận lại bằng"}
    verb_en = {"discard": "discard", "return": "return", "eat": "eat with",
               "reclaim": "take back with"}
    k = it["kind"]
    return (f"{verb_vi.get(k, k)} một trong: {names}", f"{verb_en.get(k, k)} any of: {names}")


def render(rep: dict[str, Any], lang: str) -> str:
    pos = rep["position"]
    s = rep["seat"]
    out = []
    where_vi = f"Sau {pos['actions_played']} nước; {PHASE_VI[pos['phase']]}"
    where_en = f"After {count(pos['actions_played'], 'action')}; {PHASE_EN[pos['phase']]}"
    if "window" in pos:
        w = pos["window"]
        c = cards.name(cards.parse(w["card"]))
        where_vi += f": {c} ở cửa người {w['gate']}, đến lượt người {w['turn']}"
        where_en += f": {c} at seat {w['gate']}'s gate, seat {w['turn']}'s turn"
    pend = ", ".join(str(x) for x in pos["pending"]) or "—"
    out.append(say(lang, f"{where_vi}; đang chờ: {pend}; nọc còn {pos['noc_left']}",
                   f"{where_en}; waiting for: {pend}; nọc left {pos['noc_left']}"))
    if "cai" in pos:
        c = pos["cai"]
        name = cards.name(cards.parse(c["card"]))
        out.append(say(lang, f"Quân cái (ai cũng thấy): {name}, người {c['drawer']} bốc, người "
                       f"{c['opener']} được cái [{', '.join(c['rules'])}]",
                       f"The cái card (seen by all): {name}, drawn by seat {c['drawer']}, "
                       f"taken by seat {c['opener']} [{', '.join(c['rules'])}]"))
    hand = " ".join(pos["hand"])
    laid = " · ".join(" ".join(g) for g in pos["laid"]) or "—"
    out.append(say(lang, f"Người {s}: trên tay {hand}; đã hạ {laid}",
                   f"Seat {s}: concealed {hand}; laid down {laid}"))
    out.append("")
    out.append(say(lang, f"Người {s} được phép ({len(rep['legal'])}):",
                   f"Seat {s} may ({len(rep['legal'])}):"))
    for it in rep["legal"]:
        out.append(say(lang, f"✓ {it['vi']} [{', '.join(it['rules'])}]",
                       f"✓ {it['en']} [{', '.join(it['rules'])}]", "  "))
    if not rep["legal"]:
        out.append(say(lang, "(không có việc gì)", "(nothing)", "  "))
    out.append(say(lang, f"Người {s} không được ({len(rep['forbidden'])}):",
                   f"Seat {s} may not ({len(rep['forbidden'])}):"))
    for group in grouped(rep["forbidden"]):
        it = group[0]
        vi, en = it["vi"], it["en"]
        if len(group) > 1:  # one reason for many cards: say it once
            names = ", ".join(cards.name(cards.parse(g["card"])) for g in group)
            vi, en = group_words(it, names)
        out.append(say(lang, f"✗ {vi}: {it['why_vi']} [{', '.join(it['rules'])}]",
                       f"✗ {en}: {it['why_en']} [{', '.join(it['rules'])}]", "  "))
    if rep["rules"]:
        out.append("")
        out.append(say(lang, "Các luật được nhắc tới:", "Rules cited:"))
        for rid, row in rep["rules"].items():
            out.append(say(lang, f"{rid} ({row['section']}, {row['status']}): {row['vi']}",
                           f"{rid} ({row['section']}, {row['status']}): {row['en']}", "  "))
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    st = load_state(args)
    if isinstance(st, int):
        return st
    if not 0 <= args.seat < st.n:
        return _error(args, f"--seat phải từ 0 đến {st.n - 1} (ván {st.n} người)",
                      f"--seat must be 0..{st.n - 1} ({with_article(f'{st.n}-player hand')})")
    rep = report(st, args.seat)
    if args.json:
        sys.stdout.write(json.dumps(rep, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render(rep, args.lang))
    return 0
