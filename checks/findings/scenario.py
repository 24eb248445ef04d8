"""A path of the machine told as a numbered scenario, in Vietnamese and English.

`narrate(rules, deal, actions)` replays the actions on the reference machine and returns
one `Step` per action: who acted, what they did (cards by their Vietnamese names), and
what followed by itself (a card passed on, a dead card and the next draw, a laid group,
the end of the hand).  When several seats were asked about a card, the step that closes
the window says who wanted what and which claim took it, citing the row that decides
(`State.claim_verdict`) by its short title, never its id.  Every ban a step creates that
matters is told with its reason and its row's title; the bans every discard or eaten cạ
creates are told only when they later refuse an action on the path (`refused`, from
`State.explain`).  Step 0 is the deal.  `Step.as_report()` gives the dict shape that
checks/report/site.py draws (seat, action_vi/action_en, cards, hands, gates, laid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, Deal, Mark, State
from chanspec.model.chan.table import Rules

KIND_VI = {
    "u": "ù", "chiu-u": "Chíu-Ù", "chiu": "Chíu", "eat": "ăn", "reclaim": "nhận lại để ăn",
    "pass": "bỏ qua", "discard": "đánh", "return": "trả cửa", "timeout": "hết giờ",
}
KIND_EN = {
    "u": "wins (ù)", "chiu-u": "wins by chíu (chíu-ù)", "chiu": "takes by chíu",
    "eat": "eats", "reclaim": "takes back to eat", "pass": "passes", "discard": "discards",
    "return": "returns", "timeout": "times out", "declare": "declares",
}


@dataclass
class Step:
    index: int
    seat: int | None
    vi: str
    en: str
    cards: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    laid: list[list[list[str]]] = field(default_factory=list)
    gates: list[list[str]] = field(default_factory=list)

    def as_report(self) -> dict[str, Any]:
        return {"seat": self.seat, "action_vi": self.vi, "action_en": self.en,
                "cards": self.cards, "hands": self.hands, "laid": self.laid,
                "gates": self.gates}


def _n(code: str | None) -> str:
    return "" if code is None else cards.name(cards.parse(code))


def _hands(st: State) -> list[list[str]]:
    return [cards.codes(cards.expand(h)) for h in st.hands]


def _gates(st: State) -> list[list[str]]:
    out = [[cards.code(f) for f in d] for d in st.dead]
    if st.window is not None:
        out[st.window.gate] = out[st.window.gate] + [cards.code(st.window.card)]
    return out


def _snapshot(st: State, step: Step) -> Step:
    step.hands = _hands(st)
    step.laid = [[cards.codes(g.faces) for g in gs] for gs in st.laid]
    step.gates = _gates(st)
    return step


def describe_action(st: State, a: Action) -> tuple[str, str]:
    """The action as a sentence, read in the state *before* it is applied."""
    who_vi, who_en = f"Ghế {a.seat}", f"Seat {a.seat}"
    c = "" if a.card is None else cards.name(a.card)
    w = st.window
    x = "" if w is None else cards.name(w.card)
    k = a.kind
    if k in ("u", "chiu-u") and w is not None:
        return (f"{who_vi} {KIND_VI[k]} bằng {x}", f"{who_en} {KIND_EN[k]} on {x}")
    if k == "u":
        return (f"{who_vi} ù ngay với bài được chia", f"{who_en} wins at once on the dealt hand")
    if k == "chiu":
        return (f"{who_vi} Chíu {x}", f"{who_en} takes {x} by chíu")
    if k in ("eat", "reclaim"):
        how_vi = "thành Chắn" if a.card == (w.card if w else None) else "thành Cạ"
        how_en = "as a chắn" if a.card == (w.card if w else None) else "as a cạ"
        return (f"{who_vi} {KIND_VI[k]} {x} với {c} {how_vi}",
                f"{who_en} {KIND_EN[k]} {x} with {c} {how_en}")
    if k == "pass":
        return (f"{who_vi} bỏ qua {x}", f"{who_en} lets {x} go")
    if k == "discard":
        return (f"{who_vi} đánh {c}", f"{who_en} discards {c}")
    if k == "return":
        return (f"{who_vi} trả {c} về cửa bị ngắt", f"{who_en} returns {c} to the interrupted gate")
    if k == "timeout":
        return (f"{who_vi} im lặng quá giờ", f"{who_en} stays silent past the deadline")
    if k == "declare":
        rows = st.rules.table.rows
        named_vi = ", ".join(rows[r].title("vi") if r in rows else r for r in a.cuoc)
        named_en = ", ".join(rows[r].title("en") if r in rows else r for r in a.cuoc)
        return (f"{who_vi} xướng: {named_vi or 'không cước nào'}",
                f"{who_en} declares: {named_en or 'no cước'}")
    return (f"{who_vi} {k} {c}", f"{who_en} {k} {c}")


WIN_VI = {"u": "ù", "chiu-u": "Chíu-Ù", "opening": "ù ngay với bài được chia"}
WIN_EN = {"u": "wins (ù)", "chiu-u": "wins by chíu (chíu-ù)",
          "opening": "wins at once on the dealt hand"}


def describe_event(e: dict[str, Any]) -> tuple[str, str] | None:
    t = e.get("type")
    if t == "draw":
        return (f"Ghế {e['seat']} bốc {_n(e['card'])} từ nọc, lật ở cửa mình",
                f"seat {e['seat']} draws {_n(e['card'])} from the nọc, face up at their gate")
    if t == "passed-on":
        return (f"{_n(e['card'])} được chuyển cho ghế {e['to']}",
                f"{_n(e['card'])} passes on to seat {e['to']}")
    if t == "dead":
        return (f"không ai lấy {_n(e['card'])}; quân nằm lại cửa ghế {e['gate']}",
                f"nobody takes {_n(e['card'])}; it stays dead at seat {e['gate']}'s gate")
    if t == "laid":
        g = " + ".join(_n(c) for c in e["group"])
        return (f"ghế {e['seat']} hạ {g}", f"seat {e['seat']} lays down {g}")
    if t == "returned":
        return (f"{_n(e['card'])} về cửa ghế {e['gate']}",
                f"{_n(e['card'])} goes back to seat {e['gate']}'s gate")
    if t == "end":
        if e.get("result") == "draw":
            return ("hết nọc, ván hòa", "the nọc is empty: the hand is drawn")
        k = str(e.get("kind"))
        return (f"ghế {e['seat']} {WIN_VI.get(k, 'ù')}",
                f"seat {e['seat']} {WIN_EN.get(k, 'wins')}")
    return None


def result_text(res: Any) -> tuple[str, str]:
    """A hand's result as recorded by checks/findings/witness.py `observe`
    (``["win", seat, kind]``, ``["draw"]`` or None), or the faults one reading records
    and the other not (``["fault", [[seat, action, rows], ...]]``), in words."""
    if res is None:
        return "ván chưa kết thúc", "the hand goes on"
    if list(res)[:1] == ["fault"]:  # restriction-mode=penalise: faults recorded
        fs = list(res)[1] if len(res) > 1 else []
        if not fs:
            return "không ai phạm lỗi", "no fault is recorded"
        vi = "; ".join(f"ghế {f[0]} phạm lỗi ({', '.join(f[2])})" for f in fs)
        en = "; ".join(f"seat {f[0]} commits a fault ({', '.join(f[2])})" for f in fs)
        return vi, en
    kind, winner, how = (list(res) + [None, None, None])[:3]
    if kind == "win" and len(res) >= 7:  # and declared (xướng): judged, paid or owed
        judged, what, paid, den = list(res)[3:7]
        vi_d = f"được trả {paid}" if den is None else f"phải đền {den}"
        en_d = f"is paid {paid}" if den is None else f"pays {den}"
        if len(res) >= 8:  # who pays whom (model/chan/pay.py): every seat's net
            net = list(res)[7]
            vi_d += " — tiền: " + ", ".join(f"ghế {s} {v:+d}" for s, v in enumerate(net))
            en_d += " — net: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(net))
        return (f"ghế {winner} {WIN_VI.get(str(how), 'ù')}, xướng {judged} ({what}): {vi_d}",
                f"seat {winner} {WIN_EN.get(str(how), 'wins')}, declares {judged} ({what}): "
                f"{en_d}")
    if kind == "win":
        return (f"ghế {winner} {WIN_VI.get(str(how), 'ù')}",
                f"seat {winner} {WIN_EN.get(str(how), 'wins')}")
    return "ván hòa", "the hand is drawn"


# ------------------------------------------------------------------ claims and bans

def _quote(rules: Rules, rid: str, lang: str) -> str:
    """A row named for the family: its short title, and the reading in force when it is
    an option row (``luật «Thứ tự chỗ ngồi khi tranh quân»: chủ cửa trước``)."""
    row = rules.table.rows.get(rid)
    if row is None:
        return rid
    title = row.title(lang)
    word = "luật" if lang == "vi" else "rule"
    if row.is_option and rid in rules.options:
        return f"{word} «{title}»: {row.label(rules.options[rid], lang)}"
    return f"{word} «{title}»"


def _answer(a: Action, x: str) -> tuple[str, str]:
    """What one seat answered to the card `x` on offer (no seat number)."""
    c = "" if a.card is None else cards.name(a.card)
    k = a.kind
    if k in ("eat", "reclaim"):
        chan = a.card is not None and cards.name(a.card) == x
        return (f"muốn {KIND_VI[k]} với {c} thành {'Chắn' if chan else 'Cạ'}",
                f"wants to {'eat' if k == 'eat' else 'take back'} it with {c} as a "
                f"{'chắn' if chan else 'cạ'}")
    return {"u": ("muốn ù", "wants to win (ù)"), "chiu-u": ("muốn Chíu-Ù", "wants to win by chíu"),
            "chiu": ("muốn Chíu", "wants to chíu"), "pass": ("bỏ qua", "passes")}.get(
        k, (KIND_VI.get(k, k), KIND_EN.get(k, k)))


def describe_resolution(st: State, a: Action) -> tuple[str, str] | None:
    """When `a` is the last answer a window waits for and several seats were asked:
    who wanted what, which claim takes the card, and the row that decides each claim it
    beats (by the row's title, from `State.claim_verdict`).  Read before `a` is applied;
    None otherwise."""
    w = st.window
    if st.phase != "window" or w is None or a.kind == "timeout":
        return None
    answers = {**w.responses, a.seat: a}
    if set(answers) != set(w.options) or len(answers) < 2:
        return None
    x = cards.name(w.card)
    said = sorted(answers.items())
    vi = ", ".join(f"ghế {s} {_answer(b, x)[0]}" for s, b in said)
    en = ", ".join(f"seat {s} {_answer(b, x)[1]}" for s, b in said)
    best, beaten = st.claim_verdict(answers)
    r = st.rules
    if best is None:
        return (f"được hỏi về {x}: {vi}", f"asked about {x}: {en}")
    if not beaten:
        return (f"được hỏi về {x}: {vi}; chỉ ghế {best.seat} muốn lấy",
                f"asked about {x}: {en}; only seat {best.seat} claims it")
    why_vi = "; ".join(f"đi trước ghế {b.seat} theo {_quote(r, rid, 'vi')}"
                       for b, rid in beaten)
    why_en = "; ".join(f"ahead of seat {b.seat} by the {_quote(r, rid, 'en')}"
                       for b, rid in beaten)
    return (f"được hỏi về {x}: {vi} — ghế {best.seat} được quân: {why_vi}",
            f"asked about {x}: {en} — seat {best.seat} gets it: {why_en}")


TRIGGER_VI = {"pass-could-chan": "đã bỏ ăn {f} thành Chắn",
              "pass-could-ca": "đã bỏ ăn {f} thành Cạ",
              "discard": "đã đánh {f}", "eat-ca": "đã ăn một Cạ",
              "decline-u": "đã ù được mà không ù",
              "decline-opening": "bài chia đã ù mà vẫn đánh ra",
              "eat": "đã ăn {f}", "discard-ca": "đã đánh {f} thành Cạ với một quân đã đánh",
              "discard-from-chan": "đã đánh {f} từ một Chắn trên tay"}
TRIGGER_EN = {"pass-could-chan": "let {f} go when they could eat it as a chắn",
              "pass-could-ca": "let {f} go when they could eat it as a cạ",
              "discard": "discarded {f}", "eat-ca": "ate a cạ",
              "decline-u": "could win and did not",
              "decline-opening": "the dealt hand had won and they discarded",
              "eat": "ate {f}", "discard-ca": "discarded {f}, a cạ with an earlier discard",
              "discard-from-chan": "discarded {f} out of a chắn in hand"}


def new_marks(before: Sequence[Sequence[Mark]], st: State) -> list[tuple[int, Mark]]:
    """The bans `st` holds now that it did not hold `before` (each seat's marks then), in
    the order the machine made them; a ban the seat already held (the same row, kind and
    card, made by an earlier step) is not new.  A reclaim may also drop some."""
    out: list[tuple[int, Mark]] = []
    for s, old in enumerate(before):
        held = {(m.rule, m.ban, m.face) for m in old}
        for m in st.marks[s]:
            if (m.rule, m.ban, m.face) not in held:
                held.add((m.rule, m.ban, m.face))
                out.append((s, m))
    return out


def _ban_words(kinds: Sequence[str], f: str, faces: Sequence[str]) -> tuple[str, str]:
    """What a set of ban kinds on the card `f` forbids, as a verb phrase."""
    vi: list[str] = []
    en: list[str] = []
    eat = [k for k in ("eat-chan", "eat-ca") if k in kinds]
    more_vi = [w for k, w in (("chiu", "Chíu"), ("discard", "đánh")) if k in kinds]
    more_en = [w for k, w in (("chiu", "take by chíu"), ("discard", "discard")) if k in kinds]
    if len(eat) == 2 or (not eat and more_vi):
        verbs_vi = (["ăn"] if eat else []) + more_vi
        verbs_en = (["eat"] if eat else []) + more_en
        vi.append(f"{_either(verbs_vi, 'hay')} {f}")
        en.append(f"{_either(verbs_en, 'or')} {f}")
    elif eat:
        how_vi, how_en = ("Chắn", "chắn") if eat[0] == "eat-chan" else ("Cạ", "cạ")
        vi.append(f"ăn {f} thành {how_vi}")
        en.append(f"eat {f} as a {how_en}")
        vi += [f"{w} {f}" for w in more_vi]
        en += [f"{w} {f}" for w in more_en]
    if "eat-ca-with" in kinds:
        vi.append(f"dùng {f} để ăn Cạ")
        en.append(f"use {f} to eat a cạ")
    if "discard-ca-pair" in kinds:
        vi.append("đánh quân nào ghép thành Cạ với một quân mình đã đánh")
        en.append("discard a card that makes a cạ with one they discarded")
    if "discard-ca-eaten" in kinds:
        pair = " + ".join(dict.fromkeys(faces))
        vi.append(f"đánh cả hai bên của Cạ {pair}")
        en.append(f"discard both sides of the cạ {pair}")
    if "win" in kinds:
        vi.append("ù nữa trong ván này")
        en.append("win for the rest of this hand")
    if not vi:  # a kind of ban this narrator has no words for: its machine name
        vi, en = [f"{k} {f}" for k in kinds], [f"{k} {f}" for k in kinds]
    return _either(vi, "hay"), _either(en, "or")


def describe_bans(rules: Rules, marks: Sequence[tuple[int, Mark]]) -> list[tuple[str, str]]:
    """Each new ban in the family's words, with its reason (what the player did) and the
    row that makes it (by title): one sentence per seat and row."""
    trig = {r.rule: r.trigger for r in rules.restrictions}
    groups: dict[tuple[int, str], list[Mark]] = {}
    for s, m in marks:
        groups.setdefault((s, m.rule), []).append(m)
    out: list[tuple[str, str]] = []
    for (s, rid), ms in groups.items():
        faces = [cards.name(m.face) for m in ms if m.face is not None]
        f = faces[0] if faces else ""
        why_vi = TRIGGER_VI.get(trig.get(rid, ""), "").format(f=f)
        why_en = TRIGGER_EN.get(trig.get(rid, ""), "").format(f=f)
        what_vi, what_en = _ban_words(list(dict.fromkeys(m.ban for m in ms)), f, faces)
        out.append((f"từ giờ ghế {s} không được {what_vi}: {why_vi} ({_quote(rules, rid, 'vi')})",
                    f"from now on seat {s} may not {what_en}: they {why_en} "
                    f"(the {_quote(rules, rid, 'en')})"))
    return out


def _either(items: Sequence[str], word: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


# bans every discard or eaten cạ creates: told only when they later refuse something
ROUTINE_TRIGGERS = ("discard", "eat-ca")
WATCHED = {"window": ("u", "chiu-u", "chiu", "eat"), "discard": ("discard",),
           "return": ("return",)}


def refused(st: State) -> set[tuple[int, str, int | None]]:
    """(seat, row, card) for every action a ban refuses here: the claims of every seat on
    the window's card, the discard or return of the seat that must make one (as
    `State.explain` cites them)."""
    out: set[tuple[int, str, int | None]] = set()
    kinds = WATCHED.get(st.phase)
    if kinds is None or not any(st.marks):
        return out
    legal = set(st.legal_actions())
    ban_rows = {r.rule for r in st.rules.restrictions}
    w = st.window
    seats = range(st.n) if st.phase == "window" else [st.actor]
    for s in seats:
        if s is None or not st.marks[s]:
            continue
        for a in st.candidate_actions(s):
            if a.kind in kinds and a not in legal:
                card = w.card if st.phase == "window" and w is not None else a.card
                out |= {(s, r, card) for r in st.explain(a).rules if r in ban_rows}
    return out


def _matters(s: int, m: Mark, later: set[tuple[int, str, int | None]]) -> bool:
    return any(t == s and r == m.rule and (m.face is None or c == m.face)
               for t, r, c in later)


def describe_deal(deal: Deal) -> tuple[str, str]:
    hands_vi = "; ".join(f"ghế {s}{' (mở đầu)' if s == deal.opener else ''}: "
                         f"{cards.names(h)}" for s, h in enumerate(deal.hands))
    hands_en = "; ".join(f"seat {s}{' (opener)' if s == deal.opener else ''}: "
                         f"{cards.names(h)}" for s, h in enumerate(deal.hands))
    return (f"Chia bài — {hands_vi}. Nọc (theo thứ tự bốc): {cards.names(deal.noc)}",
            f"The deal — {hands_en}. Nọc (in drawing order): {cards.names(deal.noc)}")


def narrate(rules: Rules, deal: Deal, actions: Iterable[Action]) -> list[Step]:
    """Step 0 (the deal), then one step per action with what followed it: who wanted a
    card and which claim took it (by the deciding row), the bans it created with their
    reasons, and what the machine did next.  Bans every discard or eaten cạ creates are
    told only when they later refuse an action somewhere on the path."""
    st = State(rules, deal)
    vi, en = describe_deal(deal)
    steps = [_snapshot(st, Step(0, None, vi, en))]
    told: list[tuple[Step, list[tuple[str, str]], list[tuple[str, str]],
                     list[tuple[int, Mark]]]] = []
    seen_refused: list[set[tuple[int, str, int | None]]] = []
    for i, a in enumerate(actions, 1):
        avi, aen = describe_action(st, a)
        res = describe_resolution(st, a)
        marks_before = [list(m) for m in st.marks]
        before = len(st.events)
        st.apply(a)
        tail = [d for e in st.events[before + 1:] if (d := describe_event(e)) is not None]
        cs = [] if a.card is None else [cards.code(a.card)]
        step = _snapshot(st, Step(i, a.seat, avi, aen, cs))
        told.append((step, [res] if res else [], tail, new_marks(marks_before, st)))
        seen_refused.append(refused(st))
        steps.append(step)
    trig = {r.rule: r.trigger for r in rules.restrictions}
    for k, (step, res_l, tail, marks) in enumerate(told):
        later: set[tuple[int, str, int | None]] = set().union(*seen_refused[k:])
        shown = [(s, m) for s, m in marks
                 if trig.get(m.rule) not in ROUTINE_TRIGGERS or _matters(s, m, later)]
        parts = res_l + describe_bans(rules, shown) + tail
        if parts:
            step.vi += "; " + "; ".join(p[0] for p in parts)
            step.en += "; " + "; ".join(p[1] for p in parts)
    return steps


def lines(steps: Sequence[Step], lang: str = "vi") -> list[str]:
    """Numbered lines: Vietnamese with the English below (or English only)."""
    out = []
    for s in steps:
        if lang == "en":
            out.append(f"{s.index:>3}. {s.en}")
        else:
            out.append(f"{s.index:>3}. {s.vi}")
            out.append(f"       (en) {s.en}")
    return out
