"""Vacuity per clause: does each act a ban row covers ever refuse anything?

A restriction row (``[[restriction]]`` in the table) bans several acts at once: a pass
on a card one could eat as a chắn bans eating it as a chắn, as a cạ, taking it by chíu
and discarding it.  A row cited somewhere is not proof that each of its clauses matters:
a clause that never refuses anything is a finding of its own (usually the family meant a
wider scope than the table's reading).

`measure(rules, games, seed)` plays seeded full-size hands (the greedy player of
checks/findings/witness.py) and, at every step, asks the machine about every action each
seat could try (`State.candidate_actions`: in a claim window every seat's claims, pending
or not, since a seat whose every claim is banned is not asked).  A clause is *in force*
for a decision when the seat holds a mark of that row and ban, the action is of the
clause's class and bears on the banned face (the card claimed, or the card discarded),
and the action would be legal if the seat did not hold that clause's marks; the clause
*refused* it when the action is in fact illegal.  A clause in force that never refused
anything is *dead* in the sample; one never in force was not reached.

Some clauses are dead whatever the sample: `counting_proof` proves it by counting copies
(a chíu of the face one let go), and `measure` carries that proof.  Where the row's scope
is an open question (`scope_option` of the restriction: a wider scope may give the clause
something to do), the clause names that row as `scope_rule`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from chanspec.checks.findings import witness
from chanspec.model.chan.game import Action, State, deal_random
from chanspec.model.chan.table import Rules, Table
from chanspec.model.chan.vocab import SCOPED_BANS

# The class of action each ban can refuse.
BAN_CLASS = {"eat-chan": "eat-chan", "eat-ca": "eat-ca", "chiu": "chiu", "win": "win",
             "discard": "discard", "discard-ca-pair": "discard",
             "discard-ca-eaten": "discard"}
CLASS_TEXT = {
    "eat-chan": ("ăn thành Chắn", "eating as a chắn"),
    "eat-ca": ("ăn thành Cạ", "eating as a cạ"),
    "chiu": ("Chíu", "chíu"),
    "discard": ("đánh ra", "discarding"),
    "win": ("ù", "winning"),
}


def action_class(st: State, a: Action) -> str | None:
    """The class of a candidate action, as bans see it."""
    if a.kind == "eat":
        w = st.window
        if w is None or a.card is None:
            return None
        return "eat-chan" if a.card == w.card else "eat-ca"
    if a.kind in ("chiu", "chiu-u"):
        return "chiu"
    if a.kind in ("u",):
        return "win"
    if a.kind == "discard" or (a.kind == "return" and st.phase == "return"):
        return "discard"
    return None


def _without(st: State, seat: int, clause: tuple[str, str]) -> set[Action]:
    """The seat's legal actions here if it did not hold the marks of `clause`."""
    c = st.copy()
    c.marks[seat] = [m for m in c.marks[seat] if (m.rule, m.ban) != clause]
    c._bans[seat] = None  # the ban index is rebuilt from the marks left
    if c.window is not None:
        c.window.options = c._window_options(c.window)
    return set(c.legal_actions(seat))


def clauses(rules: Rules) -> list[tuple[str, str]]:
    """(row, ban) for every ban of every restriction in force under these rules."""
    return [(r.rule, b) for r in rules.restrictions for b in r.bans]


PASS_TRIGGERS = ("pass-could-chan", "pass-could-ca")


def counting_proof(rules: Rules, rule: str, ban: str) -> tuple[str, str] | None:
    """(vi, en) proof that the clause `(rule, ban)` can never refuse anything under these
    rules, by counting copies of a face; None when no such proof applies.

    Two proofs are known, both for bans on that face only.  A ban on eating the face as a
    chắn created by letting a cạ go: a holder of the face let a chắn go too, which bans
    the same; a player who did not hold it never will.  A chíu ban created by letting a
    card go (either pass trigger): a chíu of the face needs ``copies - 1`` of it concealed when a
    copy appears; a concealed hand never gains cards (drawn cards go to the gate, eaten
    ones are laid down), so the player held them already when the card went by; that card
    is never offered to them again (a reclaim, which takes it back, undoes the ban), so the
    chíu would need ``copies - 1`` + the card let go + one more = ``copies + 1`` copies."""
    r = next((x for x in rules.restrictions if x.rule == rule and ban in x.bans), None)
    if r is None or r.trigger not in PASS_TRIGGERS or r.scope != "face":
        return None
    # (under stuck-discard=forbid-claim a holder may be refused the chắn and not the cạ
    # for what each would leave to discard: no proof then)
    if ban == "eat-chan" and r.trigger == "pass-could-ca" and any(
            x.trigger == "pass-could-chan" and x.scope == "face" and "eat-chan" in x.bans
            for x in rules.restrictions) and rules.option(
                rules.rid("turn.stuck_rule")) != "forbid-claim":
        return ("không bao giờ có tác dụng riêng, do đếm quân: người đang giữ mặt đó khi để "
                "quân ấy đi thì cũng đã bỏ ăn Chắn, nên đã bị cấm ăn Chắn mặt đó rồi; người "
                "không giữ thì không bao giờ có nó, vì bài trên tay không bao giờ có thêm quân.",
                "never does anything of its own, by counting: a player who held that face when "
                "they let the card go also let a chắn go, which already bans eating the face as "
                "a chắn; one who did not hold it never will, since a concealed hand never gains "
                "cards.")
    if ban != "chiu":
        return None
    c = rules.copies
    return (f"không bao giờ xảy ra, do đếm quân: Chíu một mặt cần giữ sẵn {c - 1} quân của "
            f"mặt đó; bài trên tay không bao giờ có thêm quân, nên người chơi đã giữ chúng "
            f"khi để quân ấy đi; cộng quân đã để đi (không bao giờ quay lại với họ) và một quân "
            f"nữa là {c + 1} quân, mà mỗi "
            f"mặt chỉ có {c}.",
            f"can never happen, by counting: a chíu of a face needs {c - 1} copies of it "
            f"held; a concealed hand never gains cards, so the player held them when they "
            f"let the card go; with that card (which never comes back to them) and one more "
            f"copy that makes {c + 1}, and a "
            f"face has {c}.")


def measure(rules: Rules, games: int, seed: int, policy: str = "greedy") -> dict[str, Any]:
    """Clause counts over `games` seeded hands played by `policy` (a key of
    `witness.POLICIES`; see the module doc)."""
    choose = witness.POLICIES[policy]
    in_force: Counter[tuple[str, str]] = Counter()
    refused: Counter[tuple[str, str]] = Counter()
    wanted = set(clauses(rules))
    decisions = 0
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        st = State(rules, deal_random(rules, rng.randrange(2**62)))
        while not st.is_terminal():
            legal_now = set(st.legal_actions())
            if not legal_now:
                break
            freed: dict[tuple[int, tuple[str, str]], set[Action]] = {}
            # in a claim window every seat is asked about its claims (a seat whose every
            # claim is banned is not pending, and that is what a ban does)
            seats = range(st.n) if st.phase == "window" else st.pending()
            for s in seats:
                marks = [m for m in st.marks[s] if (m.rule, m.ban) in wanted]
                if not marks:
                    continue
                for a in st.candidate_actions(s):
                    cls = action_class(st, a)
                    card = (st.window.card if st.window is not None and cls != "discard"
                            else a.card)
                    live = sorted({(m.rule, m.ban) for m in marks
                                   if BAN_CLASS.get(m.ban) == cls
                                   and (m.face is None or m.face == card)})
                    if not live:
                        continue
                    decisions += 1
                    legal = a in legal_now
                    for c in live:
                        key = (s, c)
                        if key not in freed:
                            freed[key] = _without(st, s, c)
                        if a in freed[key]:  # possible but for this clause's marks
                            in_force[c] += 1
                            refused[c] += not legal
            st.apply(choose(st, rng))
    scope_rule = {r.rule: r.scope_rule for r in rules.restrictions}
    out = []
    for r, b in clauses(rules):
        c: dict[str, Any] = {"rule": r, "ban": b, "class": BAN_CLASS.get(b),
                             "in_force": in_force[(r, b)], "refused": refused[(r, b)]}
        proof = counting_proof(rules, r, b)
        if proof is not None:
            c["dead_by_counting"] = {"vi": proof[0], "en": proof[1]}
        if scope_rule.get(r) and b in SCOPED_BANS:
            c["scope_rule"] = scope_rule[r]
        out.append(c)
    return {"games": games, "seed": seed, "players": rules.players, "policy": policy,
            "decisions": decisions, "clauses": out}


def merged(docs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The clauses of several `measure` documents with their counts added up."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for d in docs:
        for c in d["clauses"]:
            m = out.setdefault((c["rule"], c["ban"]), {**c, "in_force": 0, "refused": 0})
            m["in_force"] += c["in_force"]
            m["refused"] += c["refused"]
    return list(out.values())


def verdict(c: Mapping[str, Any]) -> str:
    """``live``, ``dead`` (in force, never refused anything), ``unreached``, or
    ``counting`` (proved dead by counting copies: `counting_proof`)."""
    if c.get("dead_by_counting") and not c["refused"]:
        return "counting"
    if not c["in_force"]:
        return "unreached"
    return "live" if c["refused"] else "dead"


VERDICT_TEXT = {"live": ("", ""), "dead": ("**chết**", "**dead**"),
                "unreached": ("**chưa bao giờ gặp**", "**never reached**"),
                "counting": ("**chết, do đếm quân**", "**dead by counting**")}


def markdown(docs: Sequence[Mapping[str, Any]], lang: str = "vi",
             table: Table | None = None) -> list[str]:
    """The section of OPEN_QUESTIONS.md on the clauses of the ban rows (``vi``: with the
    English beside it, ``en``, or ``vi-only``): each row by its short title when `table`
    gives one, its id only in the footnote."""
    en = lang == "en"
    vi_only = lang == "vi-only"

    def lbl(vi: str, en_: str) -> str:
        return en_ if en else vi if vi_only else f"{vi} / {en_}"

    out = ["", "## " + lbl("Từng điều khoản của các dòng cấm", "Clauses of the ban rows"), ""]
    intro_en = (
        "A ban row forbids several acts; each act is a clause, checked on its own in "
        "full-size trial hands. *In force*: decisions in which a seat held that ban and the "
        "act, on the banned card, would have been allowed without it; *refused*: those the "
        "ban did refuse. A clause never in force is never reached (the situation it is "
        "written for does not arise); one in force that never refused anything is dead. "
        "Either way the words of the row are wider than what they do, and the family may "
        "have meant another scope.")
    intro_vi = (
        "Một dòng cấm cấm nhiều việc; mỗi việc là một điều khoản, được kiểm riêng trên các "
        "ván đủ cỡ chơi thử. *Có hiệu lực*: những lần một người đang bị cấm như vậy và việc "
        "đó, trên đúng quân bị cấm, lẽ ra được phép nếu không có lệnh cấm; *đã cấm*: những "
        "lần lệnh cấm thật sự chặn. Điều khoản chưa bao giờ có hiệu lực là chưa bao giờ gặp "
        "(tình huống nó nói tới không xảy ra); có hiệu lực mà chưa từng chặn gì là điều khoản "
        "chết. Cả hai trường hợp: lời của dòng rộng hơn tác dụng của nó, có thể gia đình muốn "
        "một phạm vi khác.")
    out += [intro_en] if en else [intro_vi] if vi_only else [intro_vi, "", f"*{intro_en}*"]
    num = "en" if en else "vi"
    out += ["", f"| {lbl('dòng', 'row')} | {lbl('việc', 'act')} | "
            f"{lbl('có hiệu lực', 'in force')} | {lbl('đã cấm', 'refused')} | |",
            "|---|---|---:|---:|---|"]
    ids: list[str] = []
    for c in merged(docs):
        vi, en_ = CLASS_TEXT.get(str(c["class"]), (c["ban"], c["ban"]))
        vvi, ven = VERDICT_TEXT[verdict(c)]
        row = table.rows.get(str(c["rule"])) if table is not None else None
        name = lbl(row.title("vi"), row.title("en")) if row is not None else f"`{c['rule']}`"
        ids.append(f"{c['rule']} ({c['ban']})")
        out.append(f"| {name} | {lbl(vi, en_)} | {_num(c['in_force'], num)} | "
                   f"{_num(c['refused'], num)} | {lbl(vvi, ven) if vvi else ''} |")
    notes = []
    for c in merged(docs):
        said = []
        proof = c.get("dead_by_counting")
        if proof:
            said.append(lbl(proof["vi"], proof["en"]))
        if c.get("scope_rule") and verdict(c) != "live":
            q_row = table.rows.get(str(c["scope_rule"])) if table is not None else None
            q = (lbl(q_row.title("vi"), q_row.title("en")) if q_row is not None
                 else f"`{c['scope_rule']}`")
            said.append(lbl(f"phạm vi rộng hơn của lệnh cấm này là một câu hỏi: {q}",
                            f"a wider scope of this ban is asked as a question: {q}"))
        if said:
            row = table.rows.get(str(c["rule"])) if table is not None else None
            name = lbl(row.title("vi"), row.title("en")) if row is not None else f"`{c['rule']}`"
            vi, en_ = CLASS_TEXT.get(str(c["class"]), (c["ban"], c["ban"]))
            notes.append(f"- {name} ({lbl(vi, en_)}): " + "; ".join(said))
    if notes:
        out += [""] + notes
    sample = "; ".join(
        f"{d['players']} {lbl('người', 'players')}, "
        f"{lbl(*policy_name(d['policy']))}: "
        f"{_num(d['games'], num)} {lbl('ván', 'hands')}" for d in docs)
    seeds = ", ".join(sorted({str(d["seed"]) for d in docs}))
    out += ["", f"{lbl('Mẫu', 'Sample')}: {sample}", "",
            f"<sub>{lbl('mã', 'ids')} — rows: {'; '.join(ids)} · seed: {seeds}</sub>"]
    return out


def policy_name(name: str) -> tuple[str, str]:
    """The player's name without its gloss: ``người chơi tham`` / ``a greedy player``."""
    vi, en = witness.POLICY_TEXT.get(name, (name, name))
    return vi.split(":")[0], en.split(":")[0]


def _num(x: int, lang: str) -> str:
    text = f"{x:,}"
    return text.replace(",", ".") if lang == "vi" else text
