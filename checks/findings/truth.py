"""Every action the findings tell, checked against the machine.

A findings document (``OPEN_QUESTIONS.json``, ``OPEN_QUESTIONS-classic.json``) tells
actions in words: the numbered steps of each scenario, the step where the two readings
part (what only one reading allows), the "what happens" table (what each reading allows
and forbids there), and, drawn from the same witness by checks/findings/divergence.py,
the Mermaid diagram and the report's divergence picture.  `check(table, doc)` replays
every told action under the reading it is told for, in the state it is told in, and
returns what is untrue: an action that is not legal there, a card that is not the one on
offer, a partner that is not in the hand, an eat told as a chắn that is a cạ (or the
other way round), an action told as forbidden that the reading allows, a step's account
of who wanted the card on offer and who got it that is not the machine's.

The told sentences are read back by patterns of their own (`read`), not by the words
function that wrote them (`scenario.describe_action`), so a wrong sentence cannot be
checked against itself; a told action in a form this module cannot read is itself
reported, so that a new wording has to be taught here before it can pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.checks.chan import scale
from chanspec.checks.findings import divergence, render
from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules, Table

_CARD = "|".join(re.escape(n) for n in sorted(cards.NAMES, key=len, reverse=True))
_C = f"({_CARD})"
_LIST = f"((?:{_CARD})(?:, (?:{_CARD}))*)"


@dataclass(frozen=True)
class Claim:
    """What one told sentence says was done: by whom, what kind of action, the card on
    offer it is about (``offer``), the card it names (a partner, a discard), how an eat
    is laid (``chan`` or ``ca``), and for a told choice among several discards (or
    returns), the cards of the choice."""

    seat: int
    kind: str
    offer: int | None = None
    card: int | None = None
    how: str | None = None
    among: tuple[int, ...] = ()
    opening: bool = False
    cuoc: tuple[str, ...] | None = None  # a declaration: the cước rows it names
    ways: int = 0  # a told choice among this many declarations


def _f(name: str) -> int:
    return cards.NAMES.index(name)


# (pattern, kind, where the offer / card / how / among groups are) per language
_VI: list[tuple[re.Pattern[str], str, dict[str, int]]] = [
    (re.compile(rf"^Ghế (\d+) ù bằng {_C}$"), "u", {"offer": 2}),
    (re.compile(rf"^Ghế (\d+) Chíu-Ù bằng {_C}$"), "chiu-u", {"offer": 2}),
    (re.compile(r"^Ghế (\d+) ù ngay với bài được chia$"), "u-opening", {}),
    (re.compile(rf"^Ghế (\d+) Chíu {_C}$"), "chiu", {"offer": 2}),
    (re.compile(rf"^Ghế (\d+) ăn {_C} với {_C} thành (Chắn|Cạ)$"), "eat",
     {"offer": 2, "card": 3, "how": 4}),
    (re.compile(rf"^Ghế (\d+) nhận lại để ăn {_C} với {_C} thành (Chắn|Cạ)$"), "reclaim",
     {"offer": 2, "card": 3, "how": 4}),
    (re.compile(rf"^Ghế (\d+) bỏ qua {_C}$"), "pass", {"offer": 2}),
    (re.compile(rf"^Ghế (\d+) đánh {_C}$"), "discard", {"card": 2}),
    (re.compile(rf"^Ghế (\d+) trả {_C} về cửa bị ngắt$"), "return", {"card": 2}),
    (re.compile(r"^Ghế (\d+) im lặng quá giờ$"), "timeout", {}),
    (re.compile(rf"^Ghế (\d+) đánh một trong (\d+) quân: {_LIST}$"), "discard",
     {"n": 2, "among": 3}),
    (re.compile(rf"^Ghế (\d+) trả về cửa bị ngắt một trong (\d+) quân: {_LIST}$"), "return",
     {"n": 2, "among": 3}),
]
_EN: list[tuple[re.Pattern[str], str, dict[str, int]]] = [
    (re.compile(rf"^Seat (\d+) wins \(ù\) on {_C}$"), "u", {"offer": 2}),
    (re.compile(rf"^Seat (\d+) wins by chíu \(chíu-ù\) on {_C}$"), "chiu-u", {"offer": 2}),
    (re.compile(r"^Seat (\d+) wins at once on the dealt hand$"), "u-opening", {}),
    (re.compile(rf"^Seat (\d+) takes {_C} by chíu$"), "chiu", {"offer": 2}),
    (re.compile(rf"^Seat (\d+) eats {_C} with {_C} as a (chắn|cạ)$"), "eat",
     {"offer": 2, "card": 3, "how": 4}),
    (re.compile(rf"^Seat (\d+) takes back to eat {_C} with {_C} as a (chắn|cạ)$"), "reclaim",
     {"offer": 2, "card": 3, "how": 4}),
    (re.compile(rf"^Seat (\d+) lets {_C} go$"), "pass", {"offer": 2}),
    (re.compile(rf"^Seat (\d+) discards {_C}$"), "discard", {"card": 2}),
    (re.compile(rf"^Seat (\d+) returns {_C} to the interrupted gate$"), "return", {"card": 2}),
    (re.compile(r"^Seat (\d+) stays silent past the deadline$"), "timeout", {}),
    (re.compile(rf"^Seat (\d+) discards one of (\d+) cards: {_LIST}$"), "discard",
     {"n": 2, "among": 3}),
    (re.compile(rf"^Seat (\d+) returns one of (\d+) cards to the interrupted gate: {_LIST}$"),
     "return", {"n": 2, "among": 3}),
]
_HOW = {"Chắn": "chan", "Cạ": "ca", "chắn": "chan", "cạ": "ca"}
_DECLARE = {"vi": re.compile(r"^Ghế (\d+) xướng: (.+)$"),
            "en": re.compile(r"^Seat (\d+) declares: (.+)$")}
_NO_CUOC = {"vi": "không cước nào", "en": "no cước"}
_WAYS = {"vi": re.compile(r"^Ghế (\d+) xướng theo một trong (\d+) cách$"),
         "en": re.compile(r"^Seat (\d+) declares in one of (\d+) ways$")}


def cuoc_titles(table: Table, lang: str) -> dict[str, str]:
    """The title (in `lang`) of every row a declaration may name, to its id."""
    return {table.rows[c["rule"]].title(lang): c["rule"] for c in table.data.get("cuoc", [])
            if c["rule"] in table.rows}


def _named(text: str, titles: Mapping[str, str]) -> tuple[str, ...] | None:
    """The rows a list of cước titles joined by ", " names (titles may hold commas
    themselves: every way of cutting is tried), None when it is no such list."""
    if text in titles:
        return (titles[text],)
    for t, rid in titles.items():
        if text.startswith(t + ", "):
            rest = _named(text[len(t) + 2:], titles)
            if rest is not None:
                return (rid, *rest)
    return None


class Unreadable(ValueError):
    """A told action in a form `read` does not know."""


def read(text: str, lang: str, titles: Mapping[str, str] | None = None) -> Claim:
    """The claim one told action sentence makes (`lang`: ``vi`` or ``en``; `titles`:
    `cuoc_titles`, to read a declaration)."""
    text = text.strip()
    m = _WAYS["en" if lang == "en" else "vi"].match(text)
    if m is not None:
        return Claim(seat=int(m.group(1)), kind="declare", ways=int(m.group(2)))
    m = _DECLARE["en" if lang == "en" else "vi"].match(text)
    if m is not None:
        body = m.group(2)
        named = () if body == _NO_CUOC["en" if lang == "en" else "vi"] else _named(
            body, titles or {})
        if named is None:
            raise Unreadable(f"a declaration naming no cước of the table: {text!r}")
        return Claim(seat=int(m.group(1)), kind="declare", cuoc=tuple(sorted(named)))
    for pat, kind, at in (_EN if lang == "en" else _VI):
        m = pat.match(text.strip())
        if m is None:
            continue
        g = m.group
        among: tuple[int, ...] = ()
        if "among" in at:
            among = tuple(_f(x) for x in g(at["among"]).split(", "))
            if len(among) != int(g(at["n"])):
                raise Unreadable(f"{text!r}: says {g(at['n'])} cards and names {len(among)}")
        return Claim(seat=int(g(1)), kind="u" if kind == "u-opening" else kind,
                     offer=_f(g(at["offer"])) if "offer" in at else None,
                     card=_f(g(at["card"])) if "card" in at else None,
                     how=_HOW[g(at["how"])] if "how" in at else None,
                     among=among, opening=kind == "u-opening")
    raise Unreadable(f"not a told action this check can read ({lang}): {text!r}")


def _actions(c: Claim, pool: Sequence[Action] = ()) -> list[Action]:
    """The machine actions a claim stands for (several for a choice among cards; for a
    choice among declarations, those of its seat in `pool`)."""
    if c.ways:
        return [a for a in pool if a.kind == "declare" and a.seat == c.seat]
    if c.cuoc is not None:
        return [Action("declare", c.seat, None, c.cuoc)]
    if c.among:
        return [Action(c.kind, c.seat, f) for f in c.among]
    return [Action(c.kind, c.seat, c.card)]


ALLOWED, FORBIDDEN, ABSENT = "allowed", "forbidden", "absent"
ANSWERED = "answered"  # a step's account of who wanted the card on offer and who got it


def untrue_in(st: State, c: Claim, mode: str = ALLOWED,
              pool: Sequence[Action] = ()) -> str | None:
    """Why claim `c` is untrue in `st` (None when it is true).  `mode`: ``allowed``, a
    legal action there, about the card on offer, with the told partner and kind;
    ``forbidden``, an action told as one this state refuses: about the card on offer and
    with the kind its cards make, but not legal; ``absent``, an action of another state
    (told there) that this one does not allow: none of its actions legal here.  A told
    choice among `ways` declarations is checked against `pool`, the actions it is drawn
    from: that many of them are legal (``allowed``) or not (otherwise)."""
    legal = set(st.legal_actions())
    acts = _actions(c, pool)
    ok = [a.code() for a in acts if a in legal]
    if c.ways:
        n = len(ok) if mode == ALLOWED else len(acts) - len(ok)
        if n < c.ways or c.ways < 2:
            return (f"told as a choice among {c.ways} declarations, but {n} of the "
                    f"{len(acts)} it is drawn from are {'legal' if mode == ALLOWED else 'not'}"
                    " here")
        return None
    if mode == ABSENT:
        return f"told as not allowed here, yet {', '.join(ok)} is legal" if ok else None
    w = st.window
    if c.offer is not None:
        if st.phase != "window" or w is None:
            return f"no card is on offer here (phase {st.phase})"
        if w.card != c.offer:
            return (f"the card on offer is {cards.name(w.card)}, not "
                    f"{cards.name(c.offer)}")
    if c.opening and st.phase != "opening":
        return f"not the opening (phase {st.phase})"
    if c.how is not None:
        assert w is not None and c.card is not None
        if c.how == "chan" and c.card != w.card:
            return (f"{cards.name(w.card)} with {cards.name(c.card)} is told as a chắn: "
                    f"a chắn is two of one face")
        if c.how == "ca" and c.card == w.card:
            return f"{cards.name(w.card)} with itself is told as a cạ: it is a chắn"
        if c.how == "ca" and not st.rules.is_ca(w.card, c.card):
            return f"{cards.name(w.card)} and {cards.name(c.card)} make no cạ"
    if mode == FORBIDDEN:
        return f"told as not allowed, yet {', '.join(ok)} is legal" if ok else None
    bad = [a for a in acts if a not in legal]
    if bad:
        why = "; ".join(f"{a.code()}: {st.explain(a).en}" for a in bad)
        return f"not legal here ({why})"
    return None


@dataclass(frozen=True)
class Untrue:
    """One told action that the machine contradicts."""

    where: str
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text!r}: {self.why}"


@dataclass
class Told:
    """One told action: where it is told, its sentence, the state it is told in (under
    the reading it is told for), and how it is told (`untrue_in`'s modes)."""

    where: str
    lang: str
    text: str
    state: State
    mode: str = ALLOWED
    pool: tuple[Action, ...] = ()  # the actions a told choice among several is drawn from
    step: Action | None = None  # ``answered``: the action the step applies


def _rules(table: Table, w: Mapping[str, Any], value: str | None) -> Rules:
    opts = {} if value is None else {w["option"]: value}
    if w["scale"] == scale.FULL:
        return table.resolve(int(w.get("players") or 4), opts)
    if "players" in w:
        return scale.rules_for(table, w["scale"], int(w["players"]), opts)
    return scale.scaled_rules(table, scale.ALL_SCALES[w["scale"]], opts)


def _replay(table: Table, w: Mapping[str, Any], v: str, deal: Deal,
            path: Sequence[Action]) -> State | None:
    try:
        return State.replay(_rules(table, w, v), deal, path)
    except Exception:  # noqa: BLE001 - the path is not allowed under this value
        return None


def _head(text: str) -> str:
    """The action of a narrated step: its sentence before what followed it."""
    return text.split("; ", 1)[0]


def _split_acts(text: str) -> list[str]:
    return [] if text in ("không có", "none") else text.split("; ")


def told_in_witness(table: Table, w: Mapping[str, Any], where: str) -> Iterator[Told]:
    """Every action a saved witness tells (its numbered steps, the step where its
    readings part, its "what happens" table) in the state it is told in."""
    deal = Deal.from_json(w["deal"])
    path = [Action.parse(x) for x in w["path"]]
    a, b = w.get("value_a"), w.get("value_b")
    values = [a] if a is not None else [None]
    # the shared path is told once: it must hold under every reading of the witness
    if b is not None:
        values.append(b)
    steps = w["steps"]
    for v in values:
        st = State(_rules(table, w, v), deal)
        for i, act in enumerate(path, 1):
            for lang in ("vi", "en"):
                text = steps[i][f"action_{lang}"]
                here = f"{where} step {i} ({v or 'defaults'})"
                yield Told(here, lang, _head(text), st.copy())
                asked = [p for p in text.split("; ") if p.startswith(_ASKED[lang])]
                if (asked or _answers_closing(st, act)) and v == a:
                    # who gets the card is told under the scenario's own reading (the
                    # deciding row is quoted with its value): the last shared step may
                    # be the very place where another reading gives it to another seat
                    yield Told(here, lang, text, st.copy(), ANSWERED, step=act)
            st.apply(act)
    if a is None or b is None:
        return
    row = table.rows[w["option"]]
    ends = {v: st for v in row.values if (st := _replay(table, w, v, deal, path)) is not None}
    pool = {a: tuple(Action.parse(x) for x in w.get("only_a", ())),
            b: tuple(Action.parse(x) for x in w.get("only_b", ()))}
    last = steps[len(path) + 1] if len(steps) > len(path) + 1 else None
    if last is not None and (w.get("only_a") or w.get("only_b")):
        for lang in ("vi", "en"):
            text = last[f"action_{lang}"]
            word = "cho phép" if lang == "vi" else "allows"
            la, lb = row.label(a, lang), row.label(b, lang)
            head_a = f"«{la}» {word}: "
            head_b = f"; {'chỉ' if lang == 'vi' else 'only'} «{lb}» {word}: "
            i, j = text.find(head_a), text.find(head_b)
            if i < 0 or j < i:
                yield Told(f"{where} parting step", lang, text, ends[a])
                continue
            for side, v, body in ((a, b, text[i + len(head_a):j]),
                                  (b, a, text[j + len(head_b):])):
                for s in _split_acts(body):
                    yield Told(f"{where} parting step, only {side}", lang, s, ends[side],
                               pool=pool[side])
                    yield Told(f"{where} parting step, only {side}", lang, s, ends[v],
                               ABSENT, pool=pool[side])
    for v, eff in (w.get("effects") or {}).items():
        if v not in ends:
            continue
        for lang in ("vi", "en"):
            yield from _told_effect(row, ends, v, eff[lang], lang, f"{where} effect of {v}",
                                    pool)


_YES = {"vi": "Được phép: ", "en": "Allowed: "}
_NO = {"vi": re.compile(r"Không được(?: \(với «(.+?)» thì được\))?: "),
       "en": re.compile(r"Not allowed(?: \(allowed under «(.+?)»\))?: ")}


def _told_effect(row: Any, ends: Mapping[str, State], v: str, text: str, lang: str,
                 where: str, pool: Mapping[str, tuple[Action, ...]]) -> Iterator[Told]:
    """The actions of one reading's "what happens" cell: those it allows, told in its
    state; those it forbids, told in the state of the reading that allows them (named in
    the cell) and forbidden in its own."""
    by_label = {row.label(x, lang): x for x in row.values}
    for sentence in re.split(r"(?<=\.) (?=Được phép|Không được|Allowed|Not allowed)", text):
        body = sentence.removesuffix(".")
        if body.startswith(_YES[lang]):
            every = tuple(x for acts in pool.values() for x in acts)
            for s in _split_acts(body[len(_YES[lang]):]):
                yield Told(where, lang, s, ends[v], pool=every)
            continue
        m = _NO[lang].match(body)
        if m is None:
            continue  # a result, a deadlock, an impossible path: no action told
        other = by_label.get(m.group(1)) if m.group(1) else None
        mine = pool.get(other, ()) if other is not None else tuple(
            x for acts in pool.values() for x in acts)
        for s in _split_acts(body[m.end():]):
            yield Told(where, lang, s, ends[v], FORBIDDEN if m.group(1) is None else ABSENT,
                       pool=mine)
            if m.group(1) is not None and (other is None or other not in ends):
                yield Told(where, lang, f"«{m.group(1)}» is no reading of {row.id}", ends[v])
            elif other is not None:
                yield Told(f"{where} (as allowed under {other})", lang, s, ends[other],
                           pool=mine)


def told_in_picture(table: Table, pic: Mapping[str, Any], w: Mapping[str, Any],
                    where: str) -> Iterator[Told]:
    """Every action of a divergence picture (the Mermaid diagram, the report's
    picture): the shared steps under each reading, each branch under its own."""
    deal = Deal.from_json(w["deal"])
    common = [Action.parse(s["code"]) for s in pic["common"]]
    for b in pic["branches"]:
        st = State(_rules(table, w, b["value"]), deal)
        for i, (s, act) in enumerate(zip(pic["common"], common, strict=True), 1):
            for lang in ("vi", "en"):
                yield Told(f"{where} shared step {i} ({b['value']})", lang, s[lang], st.copy())
            st.apply(act)
        for i, s in enumerate(b["steps"], 1):
            for lang in ("vi", "en"):
                yield Told(f"{where} {b['value']} step {i}", lang, s[lang], st.copy())
            st.apply(Action.parse(s["code"]))


def witnesses(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(where, witness) for every saved witness of a findings document."""
    for rid, q in sorted((doc.get("questions") or {}).items()):
        for key in ("witness", "full_witness"):
            if q.get(key) is not None:
                yield f"{rid} {key}", q[key]
    for e in doc.get("extra") or []:
        yield f"extra {e['id']}", e["witness"]


def told(table: Table, doc: Mapping[str, Any]) -> Iterator[Told]:
    """Every action the document tells, and the pictures drawn from it."""
    for where, w in witnesses(doc):
        yield from told_in_witness(table, w, where)
        if "option" in w and w["option"] in table.rows:
            pic = divergence.picture(table, w)
            yield from told_in_picture(table, pic, w, f"{where} picture")


def told_in_report(table: Table, doc: Mapping[str, Any]) -> Iterator[Told]:
    """Every action the report's findings show (`render.report_findings`): its
    scenarios, the actions of its "what happens" cells, its divergence picture."""
    saved = {rid: q for rid, q in (doc.get("questions") or {}).items()}
    for rid, f in render.report_findings(doc, table).items():
        q = saved[rid]
        found = [x for x in (q.get("full_witness"), q.get("witness")) if x is not None]
        for k, (sc, w) in enumerate(zip(f.get("scenarios", []), found, strict=True)):
            yield from told_in_witness(table, {**w, "steps": sc["steps"],
                                               "effects": f["effects"] if k == 0 else {}},
                                       f"report {rid} scenario {k}")
        if "divergence" in f:
            yield from told_in_picture(table, f["divergence"], found[-1],
                                       f"report {rid} picture")


_ASKED = {"vi": "được hỏi về ", "en": "asked about "}
_ANSWER = {
    "vi": [(re.compile(rf"^ghế (\d+) muốn (ăn|nhận lại để ăn) với {_C} thành (Chắn|Cạ)$"), ""),
           (re.compile(r"^ghế (\d+) muốn ù$"), "u"),
           (re.compile(r"^ghế (\d+) muốn Chíu-Ù$"), "chiu-u"),
           (re.compile(r"^ghế (\d+) muốn Chíu$"), "chiu"),
           (re.compile(r"^ghế (\d+) bỏ qua$"), "pass")],
    "en": [(re.compile(rf"^seat (\d+) wants to (eat|take back) it with {_C} as a (chắn|cạ)$"),
            ""),
           (re.compile(r"^seat (\d+) wants to win \(ù\)$"), "u"),
           (re.compile(r"^seat (\d+) wants to win by chíu$"), "chiu-u"),
           (re.compile(r"^seat (\d+) wants to chíu$"), "chiu"),
           (re.compile(r"^seat (\d+) passes$"), "pass")]}
_EATS = {"ăn": "eat", "nhận lại để ăn": "reclaim", "eat": "eat", "take back": "reclaim"}
_GETS = {"vi": (re.compile(r" — ghế (\d+) được quân: "), re.compile(r"^chỉ ghế (\d+) muốn lấy$")),
         "en": (re.compile(r" — seat (\d+) gets it: "), re.compile(r"^only seat (\d+) claims it$"))}


def _answers_closing(st: State, act: Action) -> dict[int, Action] | None:
    """The answers a window holds once `act` is given, when `act` is the last one it
    waits for and several seats were asked (what `scenario.describe_resolution` tells)."""
    w = st.window
    if st.phase != "window" or w is None or act.kind == "timeout":
        return None
    answers = {**w.responses, act.seat: act}
    return answers if set(answers) == set(w.options) and len(answers) >= 2 else None


def untrue_answers(st: State, act: Action, text: str, lang: str) -> str | None:
    """Why a step's account of a window's answers is untrue (None when true): the card
    asked about, every seat's answer (its kind, partner and chắn or cạ), and the seat
    that gets the card, against the answers the machine holds once `act` is given and
    its verdict on them (`State.claim_verdict`)."""
    answers = _answers_closing(st, act)
    parts = text.split("; ")
    asked = [p for p in parts if p.startswith(_ASKED[lang])]
    if answers is None or not asked:
        return ("the step tells no answers, yet several seats were asked" if answers
                else "the step tells answers, yet no window closes here")
    assert st.window is not None
    x = st.window.card
    body = asked[0][len(_ASKED[lang]):]
    offer, _, rest = body.partition(": ")
    if offer != cards.name(x):
        return f"the card asked about is {cards.name(x)}, not {offer}"
    said, _, why = rest.partition(" — ")
    told: dict[int, Action] = {}
    for item in said.split(", "):
        for pat, kind in _ANSWER[lang]:
            m = pat.match(item)
            if m is None:
                continue
            seat = int(m.group(1))
            if kind:
                told[seat] = Action(kind, seat)
                break
            y = _f(m.group(3))
            if (_HOW[m.group(4)] == "chan") != (y == x):
                return f"{item!r}: {cards.name(x)} with {cards.name(y)} is no {m.group(4)}"
            told[seat] = Action(_EATS[m.group(2)], seat, y)
            break
        else:
            return f"an answer this check cannot read: {item!r}"
    if told != answers:
        return (f"told answers {sorted(a.code() for a in told.values())}, the machine's "
                f"{sorted(a.code() for a in answers.values())}")
    best, beaten = st.claim_verdict(answers)
    gets = [int(m.group(1)) for p in (_GETS[lang][0].search(asked[0]),) if p for m in (p,)]
    gets += [int(m.group(1)) for p in parts if (m := _GETS[lang][1].match(p))]
    if best is None:
        return f"told that seat {gets[0]} gets the card; nobody does" if gets else None
    if gets != [best.seat]:
        return f"told that {gets or 'nobody'} gets the card; seat {best.seat} does"
    return None


def verdicts(items: Sequence[Told] | Iterator[Told]) -> list[Untrue]:
    """What is untrue among told actions."""
    out: list[Untrue] = []
    titles: dict[tuple[int, str], dict[str, str]] = {}
    for t in items:
        if t.mode == ANSWERED:
            assert t.step is not None
            why = untrue_answers(t.state, t.step, t.text, t.lang)
            if why is not None:
                out.append(Untrue(t.where, t.text, why))
            continue
        key = (id(t.state.rules.table), t.lang)
        if key not in titles:
            titles[key] = cuoc_titles(t.state.rules.table, t.lang)
        try:
            c = read(t.text, t.lang, titles[key])
        except (Unreadable, ValueError) as e:
            out.append(Untrue(t.where, t.text, str(e)))
            continue
        why = untrue_in(t.state, c, t.mode, t.pool)
        if why is not None:
            out.append(Untrue(t.where, t.text, why))
    return out


def check(table: Table, doc: Mapping[str, Any], report: bool = True) -> list[Untrue]:
    """Every told action of `doc` (and, with `report`, of the report's findings drawn
    from it) that the machine contradicts; empty when all are true."""
    out = verdicts(told(table, doc))
    if report:
        out += verdicts(told_in_report(table, doc))
    return out
