"""A finished hand in a few lines a player reads: how it went (claims, faults, báo), the
winning hand laid out as cards, and the rules behind a settlement named in words.

Every function returns Vietnamese and English (``(vi, en)``); rule ids stay out of the
words (they are in ``--json``).  The words come from the table: a row's title, and for an
open or provisional row the label of the reading in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules

# the row that says faults are penalised rather than forbidden: the mode, not the fault
MODE_ROW = "turn.restriction_mode_rule"


def rule_names(rules: Rules, ids: Iterable[str]) -> tuple[str, str]:
    """The rows `ids` named in words, each once, in order: a row's title, and for an
    open or provisional row the reading in force beside it; rows without a title (the
    settled ground every hand stands on) are left out."""
    vi: list[str] = []
    en: list[str] = []
    for rid in dict.fromkeys(ids):
        row = rules.table.rows.get(rid)
        if row is None or not row.title_vi:
            continue
        reading = rules.options.get(rid) if row.status in ("open", "provisional") else None
        vi.append(row.title_vi + (f" ({row.label(reading, 'vi')})" if reading else ""))
        en.append(row.title_en + (f" ({row.label(reading, 'en')})" if reading else ""))
    return "; ".join(vi), "; ".join(en)


def fault_names(rules: Rules, faults: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """Every fault of the rules of play, seat by seat, named by its row's title (how many
    times beside it): ``ghế 2: Đánh cạ ăn cạ ×2, Đánh đôi chắn``."""
    mode = rules.rid(MODE_ROW)
    by_seat: dict[int, dict[str, int]] = {}
    for f in faults:
        counts = by_seat.setdefault(int(f["seat"]), {})
        for rid in f["rules"]:
            if rid != mode:
                counts[rid] = counts.get(rid, 0) + 1
    rows = rules.table.rows

    def one(rid: str, n: int, lang: str) -> str:
        name = rows[rid].title(lang) if rid in rows else rid
        return name + (f" ×{n}" if n > 1 else "")

    vi = "; ".join(f"ghế {s}: " + ", ".join(one(r, n, "vi") for r, n in c.items())
                   for s, c in sorted(by_seat.items()))
    en = "; ".join(f"seat {s}: " + ", ".join(one(r, n, "en") for r, n in c.items())
                   for s, c in sorted(by_seat.items()))
    return vi, en


def layout(groups: Sequence[Sequence[Any]], card: Any = None) -> str:
    """A winning hand laid out as a family lays it: the chắn (two of a face) first, then
    the cạ (one rank, two suits), each pair in brackets, card names, in card order; the
    pair the winning card completed (the last group holding it) is marked ``← ù``.  The
    same in both languages (card names are Vietnamese, chắn and cạ the game's words)."""
    faces = [tuple(sorted(_face(c) for c in g)) for g in groups]
    win = None if card is None else _face(card)
    final = max((i for i, g in enumerate(faces) if win in g), default=None)

    def pair(i: int) -> str:
        mark = " ← ù" if i == final else ""
        return "[" + " ".join(cards.name(f) for f in faces[i]) + mark + "]"

    order = sorted(range(len(faces)), key=lambda i: faces[i])
    chan = [i for i in order if len(set(faces[i])) == 1]
    ca = [i for i in order if len(set(faces[i])) > 1]
    parts = []
    if chan:
        parts.append("Chắn " + " ".join(pair(i) for i in chan))
    if ca:
        parts.append("Cạ " + " ".join(pair(i) for i in ca))
    return " · ".join(parts)


def _face(c: Any) -> int:
    return c if isinstance(c, int) else cards.parse(str(c))


@dataclass(frozen=True)
class Course:
    """How a hand went: per seat the pairs eaten and the chíu made, the cards that died,
    the faults, and the báo seat with the move it became báo at."""

    eats: tuple[int, ...]
    chius: tuple[int, ...]
    dead: int
    faults: tuple[Mapping[str, Any], ...]
    bao: int | None
    bao_step: int | None


def course(rules: Rules, deal: Deal, actions: Sequence[Action]) -> Course:
    """Replay the hand on the reference machine and count what a player would tell."""
    st = State(rules, deal)
    bao_step = None
    for i, a in enumerate(actions, start=1):
        st.apply(a)
        if bao_step is None and st.bao_seat() is not None:
            bao_step = i
    n = st.n
    eats, chius = [0] * n, [0] * n
    dead = 0
    for e in st.events:
        if e.get("type") == "laid":
            (chius if len(e["group"]) == 4 else eats)[int(e["seat"])] += 1
        elif e.get("type") == "dead":
            dead += 1
    return Course(tuple(eats), tuple(chius), dead, tuple(st.faults), st.bao_seat(), bao_step)


def course_words(rules: Rules, c: Course, moves: int, winner: int | None = None
                 ) -> list[tuple[str, str]]:
    """The course of a hand in a few lines (vi, en): the claims seat by seat, how many
    faults each seat committed, the faults of the báo seat and of the winner named (the
    ones a settlement turns on), and the báo seat."""
    def claims(lang: str) -> str:
        parts = []
        for s, (e, ch) in enumerate(zip(c.eats, c.chius, strict=True)):
            bits = []
            if e:
                bits.append(f"ăn {e}" if lang == "vi" else f"ate {e}")
            if ch:
                bits.append(f"Chíu {ch}" if lang == "vi" else f"chíu {ch}")
            if bits:
                seat, join = ("ghế", " và ") if lang == "vi" else ("seat", " and ")
                parts.append(f"{seat} {s} {join.join(bits)}")
        return ", ".join(parts) or ("không ai ăn" if lang == "vi" else "nobody ate")

    out = [(f"Diễn biến: {moves} nước; {claims('vi')}; {c.dead} quân chết",
            f"How it went: {moves} moves; {claims('en')}; {c.dead} cards died")]
    if c.faults:
        per = [sum(1 for f in c.faults if int(f["seat"]) == s) for s in range(len(c.eats))]
        vi = ", ".join(f"ghế {s}: {n} lần" for s, n in enumerate(per) if n)
        en = ", ".join(f"seat {s}: {n}" for s, n in enumerate(per) if n)
        out.append((f"Phạm luật đánh bài: {vi}", f"Faults of the rules of play: {en}"))
    for s in dict.fromkeys(x for x in (c.bao, winner) if x is not None):
        mine = [f for f in c.faults if int(f["seat"]) == s]
        if mine:
            vi, en = fault_names(rules, mine)
            out.append((f"Lỗi của {vi}", f"The faults of {en}"))
    if c.bao is not None:
        out.append((f"Ghế {c.bao} bị báo từ nước {c.bao_step}: từ đó chỉ được bốc, bỏ qua "
                    "và ù",
                    f"Seat {c.bao} is báo from move {c.bao_step}: from then on they may "
                    "only draw, pass and win"))
    return out
