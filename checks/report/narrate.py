"""Telling a hand of Bài Chắn in words, Vietnamese first (English beside it).

`narrate()` replays a deal and its actions on the reference machine and returns one
`Line` per action and per consequence (draws, cards passed on, dead cards, groups laid
down, returns, the end), each with the rule ids that matter at that moment: the rules an
action rests on (from ``State.explain``) for claims and notable discards, the bans a
player's own move creates, declined wins, and the rules that end the hand.  Card names
are the Vietnamese ones (`cards.name`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.explore.invariants import choose, stuck_kind
from chanspec.checks.report import hand_story
from chanspec.model.chan import cai, cards
from chanspec.model.chan.game import Action, Deal, Mark, State, deal_random
from chanspec.model.chan.table import Rules

POLICIES = ("eager", "uniform")
EAGER = 0.6
# how often a random winner of `chanspec play` declares (xướng) wrongly: a single cước
# left out or one too many (`declare.representative`); the right one otherwise.  A flag
# of `play` (--declare-mistakes); None keeps the old uniform choice of `choose`.
DECLARE_MISTAKES = 0.1

SOURCE_VI = {"draw": "quân bốc", "discard": "quân đánh", "return": "quân trả cửa"}
SOURCE_EN = {"draw": "drawn card", "discard": "discard", "return": "returned card"}
BAN_VI = {"eat-chan": "ăn {f} thành Chắn", "eat-ca": "ăn {f} thành Cạ", "chiu": "Chíu {f}",
          "discard": "đánh {f}", "discard-ca-pair": "đánh quân thành Cạ với quân mình đã đánh",
          "discard-ca-eaten": "đánh {f} khi đã đánh quân kia của Cạ đã ăn",
          "win": "ù trong phần còn lại của ván", "eat-ca-with": "dùng {f} để ăn Cạ"}
BAN_EN = {"eat-chan": "eat {f} as a chắn", "eat-ca": "eat {f} as a cạ", "chiu": "take {f} by chíu",
          "discard": "discard {f}",
          "discard-ca-pair": "discard a card that makes a cạ with one they discarded",
          "discard-ca-eaten": "discard {f} once the other card of the cạ they ate is discarded",
          "win": "win for the rest of the hand", "eat-ca-with": "eat a cạ with {f}"}
# Claims and moves whose allowing rules are worth showing every time.
NOTABLE = ("u", "chiu-u", "chiu", "eat", "reclaim", "return", "timeout", "declare")
# a declaration judged (a "declared" event): (vi, en) of its judgement and consequence
JUDGED_VI = {"correct": "xướng đúng và đủ", "over": "xướng sai", "under": "xướng thiếu",
             "must-missing": "bỏ sót cước buộc phải xướng"}
JUDGED_EN = {"correct": "a correct, complete declaration", "over": "a wrong declaration "
             "(xướng sai)", "under": "an under-declaration", "must-missing": "a cước that "
             "must be declared is left out"}
CONSEQUENCE_VI = {"paid": "được trả đủ", "paid-named": "chỉ được trả các cước đã xướng",
                  "den": "người ù phải đền"}
CONSEQUENCE_EN = {"paid": "paid in full", "paid-named": "paid for the cước named only",
                  "den": "the winner pays"}


@dataclass
class Line:
    """One line of the story."""

    step: int | None  # 1-based action number, None for a consequence
    vi: str
    en: str
    rules: list[str] = field(default_factory=list)
    event: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "vi": self.vi, "en": self.en, "rules": self.rules}


def seat_vi(s: int) -> str:
    return f"người {s}"


def seat_en(s: int) -> str:
    return f"seat {s}"


def card_name(code_or_face: Any) -> str:
    f = code_or_face if isinstance(code_or_face, int) else cards.parse(str(code_or_face))
    return cards.name(f)


def action_words(st: State, a: Action) -> tuple[str, str]:
    """(vi, en) for an action about to be applied to `st`."""
    s = a.seat
    sv = seat_vi(s).capitalize()
    se = seat_en(s).capitalize()
    w = st.window
    on = cards.name(w.card) if w is not None else ""
    src_vi = SOURCE_VI.get(w.source, "") if w is not None else ""
    src_en = SOURCE_EN.get(w.source, "") if w is not None else ""
    c = cards.name(a.card) if a.card is not None else ""
    k = a.kind
    if k == "declare":
        rows = st.rules.table.rows
        vi = ", ".join(rows[r].title_vi if r in rows else r for r in a.cuoc) or "không cước nào"
        en = ", ".join(rows[r].title_en if r in rows else r for r in a.cuoc) or "no cước"
        return f"{sv} xướng: {vi}", f"{se} declares: {en}"
    if k == "u" and st.phase == "opening":
        return (f"{sv} (mở đầu) ù ngay với bài được chia",
                f"{se} (the opener) wins at once with the dealt hand")
    if k == "u":
        return f"{sv} ù với {on} ({src_vi})", f"{se} wins (ù) on {on} ({src_en})"
    if k == "chiu-u":
        return f"{sv} Chíu-Ù với {on}", f"{se} wins by chíu (chíu-ù) on {on}"
    if k == "chiu":
        return f"{sv} xin Chíu {on}", f"{se} claims {on} by chíu"
    if k == "eat":
        return f"{sv} xin ăn {on} bằng {c}", f"{se} claims {on} to eat it with {c}"
    if k == "reclaim":
        return (f"{sv} xin nhận lại {on} vừa chuyển, ăn bằng {c}",
                f"{se} asks to take back {on}, just passed on, eating it with {c}")
    if k == "pass":
        return f"{sv} bỏ qua {on}", f"{se} lets {on} go"
    if k == "discard":
        lead_vi = " (mở đầu, không bốc)" if st.phase == "opening" else ""
        lead_en = " (the opener, without drawing)" if st.phase == "opening" else ""
        return f"{sv}{lead_vi} đánh {c}", f"{se}{lead_en} discards {c}"
    if k == "return":
        return (f"{sv} trả {c} về cửa bị ngắt", f"{se} gives {c} back to the interrupted gate")
    if k == "timeout":
        return f"{sv} im lặng quá hạn", f"{se} stays silent past the deadline"
    return f"{sv}: {k}", f"{se}: {k}"


def event_words(e: dict[str, Any], rules: Rules) -> tuple[str, str, list[str]] | None:
    """(vi, en, rule ids) for one consequence event of the machine, None to skip it."""
    t = e.get("type")
    rid = rules.rid
    if t == "draw":
        c = card_name(e["card"])
        return (f"{seat_vi(e['seat']).capitalize()} bốc {c}, lật ngửa ở cửa mình",
                f"{seat_en(e['seat']).capitalize()} draws {c}, face up at their own gate",
                [rid("turn.draw_rule")])
    if t == "passed-on":
        c = card_name(e["card"])
        return (f"{c} được chuyển cho {seat_vi(e['to'])}", f"{c} passes on to {seat_en(e['to'])}",
                [rid("turn.drawn_offer_rule")])
    if t == "dead":
        c = card_name(e["card"])
        return (f"Không ai lấy {c}; quân nằm lại ở cửa {seat_vi(e['gate'])}",
                f"Nobody takes {c}; it stays dead at {seat_en(e['gate'])}'s gate", [])
    if t == "laid":
        g = " + ".join(card_name(x) for x in e["group"])
        rules_ = [rid("turn.chiu_counts_rule")] if len(e["group"]) == 4 else []
        return (f"{seat_vi(e['seat']).capitalize()} hạ {g}",
                f"{seat_en(e['seat']).capitalize()} lays down {g}", rules_)
    if t == "returned":
        c = card_name(e["card"])
        return (f"{c} nằm ở cửa {seat_vi(e['gate'])}; lượt tiếp tục từ người bị ngắt",
                f"{c} lies at {seat_en(e['gate'])}'s gate; play resumes with the interrupted "
                "player", [rid("turn.return_resume_rule")])
    if t == "timeout-as":
        a = Action.from_json(e["action"])
        what = "bỏ qua" if a.kind == "pass" else f"{'trả' if a.kind == 'return' else 'đánh'} " \
            f"{cards.name(a.card) if a.card is not None else ''}"
        what_en = "passes" if a.kind == "pass" else \
            f"{a.kind}s {cards.name(a.card) if a.card is not None else ''}"
        return (f"Coi như {seat_vi(e['seat'])} {what.strip()}",
                f"Taken as: {seat_en(e['seat'])} {what_en.strip()}", [rid("turn.timeout_rule")])
    if t == "declared":
        j, c = str(e.get("judgement")), str(e.get("consequence"))
        return (f"{seat_vi(e['seat']).capitalize()}: {JUDGED_VI.get(j, j)}; "
                f"{CONSEQUENCE_VI.get(c, c)}",
                f"{seat_en(e['seat']).capitalize()}: {JUDGED_EN.get(j, j)}; "
                f"{CONSEQUENCE_EN.get(c, c)}", [str(r) for r in e.get("rules", [])])
    if t == "fault":  # restriction-mode=penalise: the act was made and is a fault
        rows = [str(r) for r in e.get("rules", [])]
        names_vi = ", ".join(rules.table.rows[r].title_vi or r if r in rules.table.rows else r
                             for r in rows)
        names_en = ", ".join(rules.table.rows[r].title_en or r if r in rules.table.rows else r
                             for r in rows)
        return (f"{seat_vi(e['seat']).capitalize()} phạm luật đánh bài: {names_vi}",
                f"{seat_en(e['seat']).capitalize()} breaks a rule of play: {names_en}",
                rows + [rid("turn.restriction_mode_rule")])
    return None


def ban_words(m: Mark) -> tuple[str, str]:
    f = cards.name(m.face) if m.face is not None else ""
    return BAN_VI[m.ban].format(f=f), BAN_EN[m.ban].format(f=f)


def ban_list(marks: Sequence[Mark]) -> tuple[str, str]:
    """The bans of one rule, joined; eating a face as chắn and as cạ read as one ban."""
    bans = {(m.ban, m.face) for m in marks}
    vi: list[str] = []
    en: list[str] = []
    done: set[tuple[str, int | None]] = set()
    for m in marks:
        key = (m.ban, m.face)
        if key in done:
            continue
        done.add(key)
        other = ("eat-ca" if m.ban == "eat-chan" else "eat-chan", m.face)
        if m.ban in ("eat-chan", "eat-ca") and other in bans and m.face is not None:
            done.add(other)
            f = cards.name(m.face)
            vi.append(f"ăn {f} (thành Chắn hay Cạ)")
            en.append(f"eat {f} (as chắn or cạ)")
            continue
        v, e = ban_words(m)
        vi.append(v)
        en.append(e)
    return ", ".join(vi), ", ".join(en)


def narrate(rules: Rules, deal: Deal, actions: Iterable[Action]) -> tuple[list[Line], State]:
    """The story of a hand: one line per action and per consequence."""
    st = State(rules, deal)
    v = rules.variant
    out = [Line(None,
                f"Chia bài: {seat_vi(deal.opener)} mở đầu với {v.opener_cards} quân, mỗi người "
                f"khác {v.other_cards} quân; nọc còn {len(deal.noc)} quân",
                f"Deal: {seat_en(deal.opener)} opens with {v.opener_cards} cards, everyone else "
                f"has {v.other_cards}; {len(deal.noc)} cards stay in the nọc",
                [v.rule, rules.rid("turn.opener_rule")])]
    if deal.cai is not None and deal.drawer is not None:
        out.append(cai_line(rules, deal.cai, deal.drawer))
    for i, a in enumerate(actions, start=1):
        vi, en = action_words(st, a)
        why = st.explain(a)
        shown = list(why.rules) if (a.kind in NOTABLE or len(why.rules) > 1) else []
        before = [len(ms) for ms in st.marks]
        first = len(st.events)
        st.apply(a)
        out.append(Line(i, vi, en, shown))
        new_events = st.events[first + 1:]
        if new_events and new_events[0].get("type") == "timeout-as":  # what silence meant
            words = event_words(new_events[0], rules)
            assert words is not None
            out.append(Line(None, words[0], words[1], words[2], new_events[0]))
            new_events = new_events[1:]
        for s, ms in enumerate(st.marks):
            by_rule: dict[str, list[Mark]] = {}
            for m in ms[before[s]:]:
                by_rule.setdefault(m.rule, []).append(m)
            for rule_id, marks in by_rule.items():
                vi_list, en_list = ban_list(marks)
                # the row, and the scope row that carried its bans to other faces (if any)
                cited = [rule_id] + list(dict.fromkeys(m.via for m in marks if m.via))
                out.append(Line(None, f"Từ giờ {seat_vi(s)} không được {vi_list}",
                                f"From now on {seat_en(s)} may not {en_list}", cited))
        for e in new_events:
            if e.get("type") == "end":
                continue
            words = event_words(e, rules)
            if words is not None:
                out.append(Line(None, words[0], words[1], words[2], e))
            if e.get("type") == "fault" and st.bao_seat() == e["seat"] and \
                    len(st.faults) == 1:  # the first fault makes its seat báo
                s = int(e["seat"])
                out.append(Line(None, f"Từ giờ {seat_vi(s)} bị báo: chỉ còn được bốc, bỏ qua "
                                      "và ù, không được ăn hay Chíu",
                                f"From now on {seat_en(s)} is báo: they may only draw, pass "
                                "and win, never eat or chíu",
                                [rules.rid("turn.fault_play_rule")], e))
    out.append(ending(st))
    return out, st


def ending(st: State) -> Line:
    out = st.outcome()
    if out and out.get("result") == "win":
        s = out["winner"]
        kind_vi = {"u": "ù", "chiu-u": "Chíu-Ù", "opening": "ù ngay khi mở đầu"}[out["kind"]]
        kind_en = {"u": "ù", "chiu-u": "chíu-ù", "opening": "an opening win"}[out["kind"]]
        hand = hand_story.layout(out.get("hand", []), out.get("card"))
        on_vi = f" với {card_name(out['card'])}" if out.get("card") else ""
        on_en = f" on {card_name(out['card'])}" if out.get("card") else ""
        return Line(None,
                    f"Kết thúc: {seat_vi(s)} {kind_vi}{on_vi}, {out['chan']} Chắn. Bài: {hand}. "
                    f"{seat_vi(s).capitalize()} mở ván sau",
                    f"End: {seat_en(s)} wins ({kind_en}){on_en} with {out['chan']} chắn. "
                    f"Hand: {hand}. {seat_en(s).capitalize()} opens the next hand",
                    list(out["rules"]))
    if out and out.get("result") == "draw":
        return Line(None, "Kết thúc: hết nọc mà chưa ai ù, ván hòa; quân đã đánh không trộn lại",
                    "End: the nọc is empty and nobody has won: the hand is drawn; discards are "
                    "not reshuffled", list(out["rules"]))
    kind = stuck_kind(st)
    s = st.actor
    if kind is not None and s is not None:
        if not any(st.hands[s]):
            return Line(None,
                        f"Ván kẹt: {seat_vi(s)} phải đánh nhưng không còn quân nào trên tay — "
                        "văn bản không nói trường hợp này",
                        f"Stuck: {seat_en(s)} must discard but has no concealed card left — the "
                        "text does not cover this", [st.rules.rid("eating.rule")])
        return Line(None,
                    f"Ván kẹt: {seat_vi(s)} phải đánh nhưng mọi quân trên tay đều bị cấm đánh",
                    f"Stuck: {seat_en(s)} must discard but every card in hand is banned",
                    [st.rules.rid("turn.stuck_rule")])
    return Line(None, "Ván chưa kết thúc", "The hand is not over", [])


def cai_line(rules: Rules, card: int, drawer: int) -> Line:
    """Why this seat opens: the cái card face up, its count from the drawer, the seat the
    count ends on (the dealing ritual, model/chan/cai.py)."""
    cc = cai.cai_opener(rules, card, drawer)
    walk = " → ".join(str(cai.count_seat(k, drawer, rules.players,
                                         rules.machine_value("cai.places_rule")))
                      for k in range(1, cc.count + 1))
    name = cards.name(card)
    if rules.machine_value("cai.card_rule") == "opener-hand":
        vi, en = f"giữ {name} và đánh trước", f"takes the cái pile with {name} and plays first"
    else:
        vi, en = (f"đánh trước; {name} trở về nọc",
                  f"takes the cái pile and plays first; {name} goes back into the nọc")
    return Line(None,
                f"Bốc cái: {seat_vi(drawer)} bốc được {name} (cái, ai cũng thấy), tính là "
                f"{cc.count}; đếm {seat_vi(drawer)} là 1 theo chiều đánh (ghế {walk}) thì "
                f"dừng ở {seat_vi(cc.opener)}: {seat_vi(cc.opener)} được cái, {vi}",
                f"The cái: {seat_en(drawer)} turns up {name} (the cái card, seen by all), "
                f"which counts {cc.count}; counting {seat_en(drawer)} as 1 in the direction "
                f"of play (seats {walk}) ends on {seat_en(cc.opener)}, who {en}",
                list(cc.rules + cai.card_rules(rules)))


def random_game(rules: Rules, seed: int, opener: int = 0, policy: str = "eager",
                max_steps: int = 5000, drawer: int | None = None,
                thong: tuple[int, ...] = (), mistakes: float | None = None
                ) -> tuple[Deal, list[Action]]:
    """A seeded random hand: the deal from `seed` (the opener given, or under the dealing
    ritual the seat that draws the cái; in a session, the seats whose win is thông),
    then random legal actions (`play_out`)."""
    deal = deal_random(rules, seed, opener, drawer=drawer)
    st = State(rules, dataclasses.replace(deal, thong=thong) if thong else deal)
    play_out(st, seed, policy, max_steps, mistakes)
    assert st.deal is not None
    return st.deal, list(st.history)


def play_out(st: State, seed: int, policy: str = "eager", max_steps: int = 5000,
             mistakes: float | None = None) -> None:
    """Play the hand `st` on to its end with random legal actions drawn from `seed`
    (`policy`: ``eager`` prefers wins and claims, ``uniform`` picks any action).  With
    `mistakes` (a rate from 0 to 1) a winner declares correctly except at that rate
    (`choose_declaration`); None leaves the declaration to `choose` as every other act."""
    rng = random.Random(seed)
    eager = EAGER if policy == "eager" else 0.0
    for _ in range(max_steps):
        acts = st.legal_actions()
        if not acts:
            break
        if mistakes is not None and acts[0].kind == "declare":
            st.apply(choose_declaration(acts, rng, mistakes))
        else:
            st.apply(choose(acts, rng, eager))


def choose_declaration(acts: Sequence[Action], rng: random.Random, mistakes: float) -> Action:
    """The winner's declaration: the correct one (listed first by the machine), or at the
    rate `mistakes` one of the others listed (a cước left out or one too many)."""
    if len(acts) > 1 and rng.random() < mistakes:
        return rng.choice(list(acts[1:]))
    return acts[0]


def render(lines: Sequence[Line], lang: str) -> str:
    from chanspec.checks.output import say

    out = []
    for ln in lines:
        tag = f" [{', '.join(ln.rules)}]" if ln.rules else ""
        num = f"{ln.step:3d}. " if ln.step is not None else "     "
        indent = " " * len(num)
        vi = f"{ln.vi}.{tag}"
        en = f"{ln.en}.{tag}"
        text = say(lang, vi, en, indent)
        out.append(num + text[len(indent):])
    return "\n".join(out)
