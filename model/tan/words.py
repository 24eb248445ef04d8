"""The words of a Tấn hand: each action and each consequence as one line in Vietnamese
and in English, and a seeded random hand told from its deal to its finishing order
(`story`, what ``chanspec play --ruleset tan`` prints)."""

from __future__ import annotations

from typing import Any

from chanspec.model.story import play_random, tell

from .game import Action, State
from .table import TanRules

STEP_CAP = 3000  # moves after which a random hand is told as not ended


def say_action(st: State, a: Action) -> tuple[str, str]:
    """The line of action `a`, told in the position `st` it is played from."""
    d = st.p.deck
    s = a.seat
    cv, ce = (d.name(a.card, "vi"), d.name(a.card, "en")) if a.card >= 0 else ("", "")
    k = a.kind
    if k == "lead":
        return (f"Ghế {s} tấn ghế {st.defender}: {cv}.",
                f"Seat {s} attacks seat {st.defender}: {ce}.")
    if k == "beat":
        o = d.name(st.att[-1], "vi"), d.name(st.att[-1], "en")
        trump = d.suit(a.card) == st.trump and d.suit(st.att[-1]) != st.trump
        return (f"Ghế {s} đỡ {o[0]} bằng {cv}{' (chủ)' if trump else ''}.",
                f"Seat {s} beats the {o[1]} with the {ce}{' (a trump)' if trump else ''}.")
    if k == "add":
        if st.taking:  # row add-after-take
            return (f"Ghế {s} tấn thêm {cv} vào người đã nhận ôm.",
                    f"Seat {s} adds the {ce} to what the taker takes.")
        return (f"Ghế {s} tấn thêm {cv}.", f"Seat {s} adds the {ce}.")
    if k == "take":
        if st.p.add_to_taker:
            return (f"Ghế {s} không đỡ nữa, nhận ôm; người khác còn được tấn thêm.",
                    f"Seat {s} does not beat and says take; the others may still add.")
        return (f"Ghế {s} không đỡ nữa, ôm bài.", f"Seat {s} does not beat and takes.")
    if k == "pass":
        return (f"Ghế {s} không tấn thêm.", f"Seat {s} adds nothing.")
    if k == "xa":
        return (f"Ghế {s} không có chủ, xả bài xin chia lại.",
                f"Seat {s} holds no trump, shows the hand and asks for new cards.")
    if k == "no-xa":
        return (f"Ghế {s} không có chủ nhưng giữ bài.", f"Seat {s} holds no trump but keeps it.")
    if k == "check":
        return (f"Ghế {s} xét bài người cúng.", f"Seat {s} checks the giver's hand.")
    if k == "no-check":
        return (f"Ghế {s} không xét bài người cúng.", f"Seat {s} does not check the giver.")
    if k == "swap":
        return (f"Ghế {s} đổi lá 2 chủ lấy lá lật.", f"Seat {s} swaps the trump 2 for the "
                "turned card.")
    return (f"Ghế {s} giữ lá 2 chủ.", f"Seat {s} keeps the trump 2.")


def say_event(e: dict[str, Any]) -> tuple[str, str] | None:
    """The line of a consequence (None for those the story leaves out)."""
    t = e["type"]
    rows = f" [{', '.join(e.get('rules', []))}]" if e.get("rules") else ""
    if t == "deal":
        return (f"Ghế {e['dealer']} chia; lá lật {e['turned']} định chủ, nằm ngửa dưới nọc.{rows}",
                f"Seat {e['dealer']} deals; the turned {e['turned']} names trump and lies "
                f"face up under the stock.{rows}")
    if t == "count":
        return (f"Bốc lá {e['card']} (đếm {e['count']}): ghế {e['seat']} tấn trước.{rows}",
                f"Drawn {e['card']} (counts {e['count']}): seat {e['seat']} attacks "
                f"first.{rows}")
    if t == "lowest-trump":
        if e["card"] is None:
            return (f"Không ai có chủ: ghế {e['seat']} (người chia) tấn trước.{rows}",
                    f"Nobody holds a trump: seat {e['seat']} (the dealer) attacks first.{rows}")
        return (f"Ghế {e['seat']} có lá chủ nhỏ nhất ({e['card']}): tấn trước.{rows}",
                f"Seat {e['seat']} holds the lowest trump ({e['card']}): attacks first.{rows}")
    if t == "draw":
        return (f"  ghế {e['seat']} bốc {e['n']} lá", f"  seat {e['seat']} draws {e['n']}")
    if t == "turned-drawn":
        return (f"Ghế {e['seat']} bốc lá lật {e['card']}: hết nọc.{rows}",
                f"Seat {e['seat']} draws the turned {e['card']}: the stock is gone.{rows}")
    if t == "discarded":
        return (f"  {e['n']} lá úp vào rác.{rows}", f"  {e['n']} cards go to the discard.{rows}")
    if t == "took":
        return (f"  ghế {e['seat']} ôm {' '.join(e['cards'])}.{rows}",
                f"  seat {e['seat']} takes {' '.join(e['cards'])}.{rows}")
    if t == "out":
        return (f"Ghế {e['seat']} hết bài: về thứ {e['place']}.{rows}",
                f"Seat {e['seat']} is out: place {e['place']}.{rows}")
    if t == "gift":
        return (f"Ghế {e['seat']} cúng {e['card']} cho ghế {e['to']}.{rows}",
                f"Seat {e['seat']} gives the {e['card']} to seat {e['to']}.{rows}")
    if t == "no-gift":
        return (f"Ghế {e['seat']} không có chủ để cúng.{rows}",
                f"Seat {e['seat']} has no trump to give.{rows}")
    if t == "swapped":
        return (f"Ghế {e['seat']} lấy lá lật {e['card']}.{rows}",
                f"Seat {e['seat']} takes the turned {e['card']}.{rows}")
    if t == "xa":
        return (f"Chia lại.{rows}", f"New cards are dealt.{rows}")
    if t == "end":
        order = " > ".join("=".join(map(str, g)) for g in e["order"])
        return (f"Hết ván. Thứ tự về: {order}.{rows}",
                f"The hand is over. Finishing order: {order}.{rows}")
    return None  # "next": told by the next lead


def random_hand(rules: TanRules, seed: int, cap: int = STEP_CAP) -> State:
    """The seeded random hand: the deal of `seed`, then uniform choices from
    ``Random(seed)``; stopped after `cap` moves if it has not ended."""
    return play_random(State.new(rules, seed), seed, cap)


def story(rules: TanRules, seed: int) -> list[tuple[str, str]]:
    """A seeded random hand told line by line, (vi, en)."""
    end = random_hand(rules, seed)
    st = State(rules, end.deal)
    d = st.p.deck
    hands = [(f"  ghế {s}: {' '.join(d.codes(st.sorted_hand(s)))}",
              f"  seat {s}: {' '.join(d.codes(st.sorted_hand(s)))}") for s in range(st.n)]
    out = tell(st, end.history, [("Bài trên tay khi vào ván (chủ xếp trước):",
                                  "Hands as play starts (trumps first):"), *hands],
               say_action, say_event)
    if not st.is_terminal():
        out.append((f"Sau {len(st.history)} nước ván vẫn chưa xong: dừng kể (theo các cách đọc "
                    "đang chọn, bài có thể đi vòng mãi; xem dòng after-take).",
                    f"After {len(st.history)} moves the hand has not ended: the story stops "
                    "(under these readings play can go round for ever; see row after-take)."))
    return out
