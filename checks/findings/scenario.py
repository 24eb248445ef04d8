"""A path of the machine told as a numbered scenario, in Vietnamese and English.

`narrate(rules, deal, actions)` replays the actions on the reference machine and returns
one `Step` per action: who acted, what they did (cards by their Vietnamese names), and
what followed by itself (a card passed on, a dead card and the next draw, a laid group,
the end of the hand).  Step 0 is the deal.  `Step.as_report()` gives the dict shape that
checks/report/site.py draws (seat, action_vi/action_en, cards, hands, gates, laid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.model import cards
from chanspec.model.game import Action, Deal, State
from chanspec.model.table import Rules

KIND_VI = {
    "u": "ù", "chiu-u": "Chíu-Ù", "chiu": "Chíu", "eat": "ăn", "reclaim": "nhận lại để ăn",
    "pass": "bỏ qua", "discard": "đánh", "return": "trả cửa", "timeout": "hết giờ",
}
KIND_EN = {
    "u": "wins (ù)", "chiu-u": "wins by chíu (chíu-ù)", "chiu": "takes by chíu",
    "eat": "eats", "reclaim": "takes back to eat", "pass": "passes", "discard": "discards",
    "return": "returns", "timeout": "times out",
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
    return (f"{who_vi} {k} {c}", f"{who_en} {k} {c}")


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
        return (f"ghế {e['seat']} ù ({e.get('kind')})", f"seat {e['seat']} wins ({e.get('kind')})")
    return None


def describe_deal(deal: Deal) -> tuple[str, str]:
    hands_vi = "; ".join(f"ghế {s}{' (mở đầu)' if s == deal.opener else ''}: "
                         f"{cards.names(h)}" for s, h in enumerate(deal.hands))
    hands_en = "; ".join(f"seat {s}{' (opener)' if s == deal.opener else ''}: "
                         f"{cards.names(h)}" for s, h in enumerate(deal.hands))
    return (f"Chia bài — {hands_vi}. Nọc (theo thứ tự bốc): {cards.names(deal.noc)}",
            f"The deal — {hands_en}. Nọc (in drawing order): {cards.names(deal.noc)}")


def narrate(rules: Rules, deal: Deal, actions: Iterable[Action]) -> list[Step]:
    """Step 0 (the deal), then one step per action with what followed it."""
    st = State(rules, deal)
    vi, en = describe_deal(deal)
    steps = [_snapshot(st, Step(0, None, vi, en))]
    for i, a in enumerate(actions, 1):
        avi, aen = describe_action(st, a)
        before = len(st.events)
        st.apply(a)
        tail = [d for e in st.events[before + 1:] if (d := describe_event(e)) is not None]
        if tail:
            avi += "; " + "; ".join(t[0] for t in tail)
            aen += "; " + "; ".join(t[1] for t in tail)
        cs = [] if a.card is None else [cards.code(a.card)]
        steps.append(_snapshot(st, Step(i, a.seat, avi, aen, cs)))
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
