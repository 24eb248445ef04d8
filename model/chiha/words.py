"""The words of a Chiha hand: each action and each consequence as one line in Vietnamese
and in English, and a seeded random hand told from its deal to its end (`story`, what
``chanspec play --ruleset chiha`` prints)."""

from __future__ import annotations

from typing import Any

from chanspec.model.story import play_random, tell

from .game import Action, State
from .table import ChihaRules

STEP_CAP = 3000  # a hand always ends (the nọc only shrinks); a guard all the same


def _names(st: State, faces: Any, lang: str) -> str:
    return ", ".join(st.p.deck.name(f, lang) for f in faces)


def say_action(st: State, a: Action) -> tuple[str, str]:
    """The line of action `a`, told in the position `st` it is played from."""
    d = st.p.deck
    s, k = a.seat, a.kind
    c = st.card
    cv, ce = (d.name(c, "vi"), d.name(c, "en")) if c >= 0 else ("", "")
    if k == "discard":
        f = a.cards[0]
        return (f"Ghế {s} vứt rác {d.name(f, 'vi')}.", f"Seat {s} discards the {d.name(f, 'en')}.")
    if k == "eat":
        who_vi = "giết" if s != st.drawer and st.phase == "claim" else "ăn"
        who_en = "kills" if s != st.drawer and st.phase == "claim" else "eats"
        own_vi = f" với {_names(st, a.cards, 'vi')}" if a.cards else " (đứng riêng)"
        own_en = f" with {_names(st, a.cards, 'en')}" if a.cards else " (alone)"
        return (f"Ghế {s} {who_vi} {cv}{own_vi}.", f"Seat {s} {who_en} the {ce}{own_en}.")
    if k == "add":
        faces = st.laid[s][a.index][0]
        verb_vi = "kéo thêm" if st.phase == "keo" else "ăn"
        verb_en = "adds (kéo thêm)" if st.phase == "keo" else "eats"
        return (f"Ghế {s} {verb_vi} {cv} vào nhóm đã hạ ({len(faces)} quân).",
                f"Seat {s} {verb_en} the {ce} onto a laid meld of {len(faces)}.")
    if k == "pass":
        return (f"Ghế {s} không ăn {cv}.", f"Seat {s} does not eat the {ce}.")
    if k == "draw":
        return (f"Ghế {s} không ăn {cv} được đưa qua, bốc nọc.",
                f"Seat {s} leaves the {ce} passed on and draws.")
    if k == "xep":
        return (f"Ghế {s} xệp quân vừa bốc.", f"Seat {s} puts the drawn card in the xệp.")
    if k == "show":
        return (f"Ghế {s} không xệp, lật quân ra.", f"Seat {s} does not xệp and shows the card.")
    if k == "quan":
        return (f"Ghế {s} xin tới quan (Big Win).", f"Seat {s} claims tới quan (Big Win).")
    return (f"Ghế {s} tới thường.", f"Seat {s} takes a plain win.")


def say_event(st: State, e: dict[str, Any]) -> tuple[str, str] | None:
    """The line of a consequence (None for those the story leaves out)."""
    t = e["type"]
    rows = f" [{', '.join(e.get('rules', []))}]" if e.get("rules") else ""
    if t == "deal":
        return (f"Chia bài: ghế {e['cai']} đi cái (21 quân), nọc còn {e['noc']} quân.{rows}",
                f"Deal: seat {e['cai']} is cái (21 cards), {e['noc']} cards in the nọc.{rows}")
    if t == "draw":
        c = st.p.deck.parse(e["card"])
        return (f"Ghế {e['seat']} bốc {st.p.deck.name(c, 'vi')}.",
                f"Seat {e['seat']} draws the {st.p.deck.name(c, 'en')}.")
    if t == "xep":
        return (f"  Ghế {e['seat']} úp quân ấy vào xệp (người khác chỉ thấy một quân được úp)."
                f"{rows}", f"  Seat {e['seat']} lays it face down in the xệp (the others see "
                f"only that a card went there).{rows}")
    if t == "show":
        return (f"  Quân được lật cho cả bàn xem.{rows}", f"  The card is shown to all.{rows}")
    if t == "giet":
        return (f"  Ghế {e['drawer']} mất lượt; chơi tiếp từ ghế {e['seat']}.{rows}",
                f"  Seat {e['drawer']} loses the turn; play goes on from seat {e['seat']}.{rows}")
    if t == "keo":
        return (f"  Kéo thêm bài bắt buộc.{rows}", f"  Kéo thêm bài, compulsory.{rows}")
    if t == "pass-on":
        return (f"  Không ai ăn: quân được đưa sang ghế {e['seat']}.{rows}",
                f"  Nobody eats it: the card passes to seat {e['seat']}.{rows}")
    if t == "forced-impossible":
        c = st.p.deck.parse(e["card"])
        return (f"  Ghế {e['seat']} bị buộc ăn {st.p.deck.name(c, 'vi')} mà không nhóm nào ăn "
                f"được: không hỏi.{rows}", f"  Seat {e['seat']} is forced to eat the "
                f"{st.p.deck.name(c, 'en')} but no meld can take it: not asked.{rows}")
    if t == "win":
        kind_vi = "tới quan" if e["quan"] else "ù (tới)"
        kind_en = "tới quan" if e["quan"] else "ù (tới)"
        return (f"Ghế {e['seat']} {kind_vi} với {e['lenh']} lệnh.{rows}",
                f"Seat {e['seat']} wins, {kind_en}, with {e['lenh']} lệnh.{rows}")
    if t == "bust":
        return (f"Ghế {e['seat']} bị ù: hết rác để vứt mà chỉ có {e['lenh']} lệnh.{rows}",
                f"Seat {e['seat']} busts (bị ù): no trash left to throw and only {e['lenh']} "
                f"lệnh.{rows}")
    if t == "end-noc":
        return (f"Nọc chỉ còn {e['noc']} quân: hết ván.{rows}",
                f"Only {e['noc']} cards left in the nọc: the hand ends.{rows}")
    return None


def random_hand(rules: ChihaRules, seed: int) -> State:
    """The hand of `seed`: its deal, then a uniform random legal action at every step."""
    return play_random(State.new(rules, seed), seed, STEP_CAP, check=False)


def say_outcome(st: State) -> tuple[str, str]:
    o = st.outcome()
    if o is None:
        return ("Ván chưa xong.", "The hand has not ended.")
    pays = ", ".join(f"ghế {s}: {v:+d}" for s, v in enumerate(o["payments"]))
    pays_en = ", ".join(f"seat {s}: {v:+d}" for s, v in enumerate(o["payments"]))
    rows = ", ".join(o["rules"])
    return (f"Tính tiền (cược = 1): {pays} [{rows}]", f"Settled (stake 1): {pays_en} [{rows}]")


def story(rules: ChihaRules, seed: int) -> list[tuple[str, str]]:
    """A seeded random hand told line by line, (vi, en)."""
    end = random_hand(rules, seed)
    st = State(rules, end.deal)
    d = st.p.deck
    head = [("Bài trên tay khi vào ván:", "Hands as play starts:")]
    for s in range(st.n):
        codes = " ".join(d.code(f) for f in d.faces for _ in range(st.hands[s][f]))
        head.append((f"  ghế {s}: {codes}", f"  seat {s}: {codes}"))
    out = tell(st, end.history, head, say_action, lambda e: say_event(st, e))
    out.append(say_outcome(st))
    return out
